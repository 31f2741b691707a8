//! What a match looks like in text: one line per event, and the board rebuilt from the
//! events (`--watch`).

use super::*;

use arena_sdk::Seat;
use arena_sdk::grid::{Hero, HeroId, Mine, Pos};

/// `A` for team 0, `B` for team 1.
pub fn team_letter(team: Seat) -> char {
    if team == 0 { 'A' } else { 'B' }
}

/// A hero's name in text: team letter and id (`A0`, `B1`, `A2` …).
pub fn label(hero: HeroId) -> String {
    format!("{}{hero}", team_letter(team_of(hero)))
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// One line of text for an event.
pub(super) fn describe(event: &Event) -> String {
    match event {
        Event::HeroTurn { turn, hero } => format!("turn {turn}: {}", label(*hero)),
        Event::DiamondsEarned {
            hero,
            amount,
            team_total,
        } => format!(
            "{} earns {amount} diamond{} (team {} has {team_total})",
            label(*hero),
            plural(*amount),
            team_letter(team_of(*hero))
        ),
        Event::Stayed { hero } => format!("{} stays", label(*hero)),
        Event::Moved { hero, from, to } => format!("{} walks {from} -> {to}", label(*hero)),
        Event::Blocked {
            hero,
            direction,
            by,
        } => format!(
            "{} cannot go {}: {}",
            label(*hero),
            direction.name(),
            match by {
                Blocker::OffBoard => "off the board (rejected)",
                Blocker::Wall => "impassable",
            }
        ),
        Event::GraveRobbed { hero, at, grave_of } => format!(
            "{} robs the grave of {} at {at}",
            label(*hero),
            label(*grave_of)
        ),
        Event::MineAlreadyOwned { hero, mine } => {
            format!("{} already owns mine #{mine}", label(*hero))
        }
        Event::MineCaptured {
            hero,
            mine,
            from,
            damage,
            health,
        } => format!(
            "{} captures mine #{mine}{} and takes {damage} damage ({health} left)",
            label(*hero),
            from.map(|f| format!(" from {}", label(f)))
                .unwrap_or_default()
        ),
        Event::MineCaptureFailed { hero, mine, damage } => format!(
            "{} dies to the guardians of mine #{mine} ({damage} damage)",
            label(*hero)
        ),
        Event::WellDrink {
            hero,
            amount,
            health,
        } => format!(
            "{} drinks from a well: +{amount} health ({health})",
            label(*hero)
        ),
        Event::Stab {
            hero,
            target,
            damage,
            health,
        } => format!(
            "{} stabs {} for {damage} ({health} left)",
            label(*hero),
            label(*target)
        ),
        Event::HealFriend {
            hero,
            target,
            amount,
            health,
        } => format!(
            "{} heals {}: +{amount} health ({health})",
            label(*hero),
            label(*target)
        ),
        Event::AdjacentDamage {
            hero,
            target,
            damage,
            health,
        } => format!(
            "{} hits adjacent {} for {damage} ({health} left)",
            label(*hero),
            label(*target)
        ),
        Event::Death { hero, killer, at } => match killer {
            Some(k) => format!("{} is killed by {} at {at}", label(*hero), label(*k)),
            None => format!("{} dies at {at}", label(*hero)),
        },
        Event::GameEnd {
            winner,
            reason,
            diamonds,
        } => format!(
            "game over: {} ({reason}); diamonds A {} B {}",
            match winner {
                Some(team) => format!("team {} wins", team_letter(*team)),
                None => "draw".to_owned(),
            },
            diamonds[0],
            diamonds[1]
        ),
    }
}

/// The dynamic state rebuilt from the initial state and the events (for `picture`).
#[derive(Debug, Clone)]
pub(super) struct View {
    pub(super) turn: u32,
    pub(super) heroes: Vec<Hero>,
    pub(super) mines: Vec<Mine>,
    pub(super) graves: Vec<Pos>,
    pub(super) diamonds: [u32; 2],
}

impl View {
    fn new(initial: &Initial) -> View {
        View {
            turn: 0,
            heroes: initial.heroes.clone(),
            mines: vec![Mine::default(); initial.mines.len()],
            graves: Vec::new(),
            diamonds: [0, 0],
        }
    }

    fn hero(&mut self, id: HeroId) -> Option<&mut Hero> {
        self.heroes.get_mut(usize::from(id))
    }

    pub(super) fn apply(&mut self, event: &Event) {
        match *event {
            Event::HeroTurn { turn, .. } => self.turn = turn,
            Event::DiamondsEarned {
                hero, team_total, ..
            } => self.diamonds[usize::from(team_of(hero))] = team_total,
            Event::Moved { hero, to, .. } => {
                if let Some(h) = self.hero(hero) {
                    h.pos = to;
                }
            }
            Event::GraveRobbed { at, .. } => self.graves.retain(|&g| g != at),
            Event::MineCaptured {
                hero, mine, health, ..
            } => {
                if let Some(slot) = self.mines.get_mut(usize::from(mine)) {
                    *slot = Mine {
                        owner: Some(hero),
                        team: Some(team_of(hero)),
                    };
                }
                if let Some(h) = self.hero(hero) {
                    h.health = health;
                }
            }
            Event::WellDrink { hero, health, .. } => {
                if let Some(h) = self.hero(hero) {
                    h.health = health;
                }
            }
            Event::Stab { target, health, .. }
            | Event::HealFriend { target, health, .. }
            | Event::AdjacentDamage { target, health, .. } => {
                if let Some(h) = self.hero(target) {
                    h.health = health;
                }
            }
            Event::Death { hero, at, .. } => {
                if let Some(h) = self.hero(hero) {
                    h.dead = true;
                    h.health = 0;
                }
                self.graves.push(at);
            }
            Event::GameEnd { diamonds, .. } => self.diamonds = diamonds,
            Event::Stayed { .. }
            | Event::Blocked { .. }
            | Event::MineAlreadyOwned { .. }
            | Event::MineCaptureFailed { .. } => {}
        }
    }

    /// The board, 5 characters a tile, then one line per hero and the score.
    fn render(&self, initial: &Initial) -> String {
        use std::fmt::Write as _;
        let (w, h) = (usize::from(initial.width), usize::from(initial.height));
        let mut cells = vec!["  .  ".to_owned(); w * h];
        let at = |p: Pos| usize::from(p.y) * w + usize::from(p.x);
        for &p in &initial.walls {
            cells[at(p)] = " ### ".to_owned();
        }
        for &p in &initial.wells {
            cells[at(p)] = "  W  ".to_owned();
        }
        for (p, mine) in initial.mines.iter().zip(&self.mines) {
            cells[at(*p)] = match mine.team {
                Some(team) => format!(" M:{} ", team_letter(team)),
                None => "  M  ".to_owned(),
            };
        }
        for &p in &self.graves {
            cells[at(p)] = "  +  ".to_owned();
        }
        for hero in self.heroes.iter().filter(|h| !h.dead) {
            cells[at(hero.pos)] = format!(" {}{:>3}", team_letter(hero.team), hero.health);
        }
        let mut out = String::new();
        let mines_of = |team| self.mines.iter().filter(|m| m.team == Some(team)).count();
        let _ = writeln!(
            out,
            "turn {}/{}   diamonds A {} B {}   mines A {} B {}",
            self.turn,
            initial.turn_limit,
            self.diamonds[0],
            self.diamonds[1],
            mines_of(0),
            mines_of(1)
        );
        out.push_str("   ");
        for x in 0..w {
            let _ = write!(out, "{x:^5}");
        }
        out.push('\n');
        for y in 0..h {
            let _ = write!(out, "{y:>3}");
            for x in 0..w {
                out.push_str(&cells[y * w + x]);
            }
            out.push('\n');
        }
        for hero in &self.heroes {
            let owned = self
                .mines
                .iter()
                .filter(|m| m.owner == Some(hero.id))
                .count();
            if hero.dead {
                let _ = writeln!(
                    out,
                    "{:<4} dead at {} mines {owned}",
                    label(hero.id),
                    hero.pos
                );
            } else {
                let _ = writeln!(
                    out,
                    "{:<4} {:>3} hp at {} mines {owned}",
                    label(hero.id),
                    hero.health,
                    hero.pos
                );
            }
        }
        out.push_str("legend: A95 hero of team A with 95 health, M:A mine of team A, W well, ### impassable, + grave\n");
        out
    }
}

/// The board drawn as text, one event at a time (the map is the initial state's).
pub(super) struct Drawing {
    initial: Initial,
    view: View,
}

impl Drawing {
    pub(super) fn new(initial: &Initial) -> Drawing {
        Drawing {
            initial: initial.clone(),
            view: View::new(initial),
        }
    }
}

impl crate::Sketch<Event> for Drawing {
    fn apply(&mut self, event: &Event) {
        self.view.apply(event);
    }

    fn draw(&self) -> Option<String> {
        Some(self.view.render(&self.initial))
    }
}
