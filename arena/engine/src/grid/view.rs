//! What a match looks like in text: one line per event, and the board of the [`State`]
//! after the events so far (`--watch`).

use super::*;

use arena_sdk::Seat;
use arena_sdk::grid::{HeroId, Pos, Terrain};

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

impl State {
    /// The board, 5 characters a tile, then one line per hero and the score.
    pub fn picture(&self) -> String {
        use std::fmt::Write as _;
        let (width, height) = self.size();
        let (w, h) = (usize::from(width), usize::from(height));
        let mut cells: Vec<String> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| {
                let p = Pos::new(x as u8, y as u8);
                match self.terrain_at(p) {
                    Terrain::Empty => "  .  ".to_owned(),
                    Terrain::Wall => " ### ".to_owned(),
                    Terrain::Well => "  W  ".to_owned(),
                    Terrain::Mine(id) => {
                        match self.mines().get(usize::from(id)).and_then(|m| m.team) {
                            Some(team) => format!(" M:{} ", team_letter(team)),
                            None => "  M  ".to_owned(),
                        }
                    }
                }
            })
            .collect();
        let mut put = |p: Pos, text: String| {
            if let Some(cell) = cells.get_mut(usize::from(p.y) * w + usize::from(p.x)) {
                *cell = text;
            }
        };
        for &p in self.graves() {
            put(p, "  +  ".to_owned());
        }
        for hero in self.heroes().iter().filter(|h| !h.dead) {
            put(
                hero.pos,
                format!(" {}{:>3}", team_letter(hero.team), hero.health),
            );
        }
        let mut out = String::new();
        let mines_of = |team| self.mines().iter().filter(|m| m.team == Some(team)).count();
        let diamonds = self.diamonds();
        let _ = writeln!(
            out,
            "turn {}/{}   diamonds A {} B {}   mines A {} B {}",
            self.turn(),
            self.turn_limit(),
            diamonds[0],
            diamonds[1],
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
        for hero in self.heroes() {
            let owned = self
                .mines()
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

/// The board drawn as text, one event at a time: it folds the same [`State::apply`] the
/// rules use.
impl crate::Sketch<Event> for State {
    fn apply(&mut self, event: &Event) {
        State::apply(self, event);
    }

    fn draw(&self) -> Option<String> {
        Some(self.picture())
    }
}
