//! `arena play`: one match between two bots.

use crate::{SandboxArgs, read_rules};
use anyhow::{Context, Result};
use arena_sdk::Mode;
use arena_tournament::bots::{BotSpec, Contestant};
use arena_tournament::game::{self, GameSpec};
use arena_tournament::modes::{deck_modes, decks_of, in_words, map_modes, maps_of};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// The seat name of a person at the terminal.
const HUMAN: &str = "human";

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The game mode.
    #[arg(long, short)]
    mode: Mode,
    /// Seat 0: a .wasm/.wat file, a bot directory (Rust, Go, Python, JavaScript,
    /// TypeScript), builtin:NAME, or `human` (you, at the terminal).
    a: String,
    /// Seat 1 (`human` in both seats: hot-seat).
    b: String,
    /// The match seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    rules: RulesArgs,
    /// tcg: seat 0's own deck file (the `deck0` rule), in place of `--deck` for seat 0.
    #[arg(long, value_name = "FILE")]
    deck0: Option<PathBuf>,
    /// tcg: seat 1's own deck file (the `deck1` rule).
    #[arg(long, value_name = "FILE")]
    deck1: Option<PathBuf>,
    /// Faults in one match that forfeit it.
    #[arg(long, default_value_t = arena_engine::DEFAULT_MAX_FAULTS)]
    max_faults: u32,
    /// Rejected answers in one game that forfeit it.
    #[arg(long, default_value_t = arena_engine::DEFAULT_MAX_REJECTIONS)]
    max_rejections: u32,
    /// Write the replay to FILE.
    #[arg(long, value_name = "FILE")]
    replay: Option<PathBuf>,
    /// Write a web page that plays the match (open it in any browser).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    /// Show the match as it is played, one step at a time (a decision and what it did;
    /// grid: a round of all heroes): redrawn in place on a terminal, printed plainly
    /// otherwise. A person playing (`human`) always sees the other seat's moves this way.
    #[arg(long)]
    watch: bool,
    /// The pause after each step of the live view, in milliseconds [default: 300 on a
    /// terminal without --step, else 0]; implies --watch.
    #[arg(long, value_name = "MS")]
    delay: Option<u64>,
    /// Wait for Enter after each step of the live view (`q` runs to the end); implies
    /// --watch.
    #[arg(long)]
    step: bool,
    /// A person's time for each decision, in seconds (no limit without it). A decision not
    /// made in time is a `timeout` fault, as a bot's would be: the turn gets the mode's
    /// default answer, and --max-faults of them forfeit the game.
    #[arg(long, value_name = "SECONDS", value_parser = parse_clock)]
    clock: Option<std::time::Duration>,
}

/// `--clock SECONDS`: a positive number of seconds (fractions allowed).
fn parse_clock(text: &str) -> Result<std::time::Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(seconds > 0.0 && seconds <= 86_400.0) {
        return Err(format!("`{text}`: give between 0 and 86400 seconds"));
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}

/// A mode's rules from the command line: a file, overrides, and a map or deck file.
#[derive(Debug, Clone, Default, Args)]
pub struct RulesArgs {
    /// Rules configuration file (TOML or JSON) for the mode.
    #[arg(long, value_name = "FILE")]
    rules: Option<PathBuf>,
    /// Override one rules field, as KEY=VALUE (VALUE is JSON, or a plain string).
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    rule: Vec<String>,
    /// grid, conquest: the map file (see docs/rules/grid.md, docs/rules/conquest.md); sets
    /// the `map` rule.
    #[arg(long, value_name = "FILE")]
    map: Option<PathBuf>,
    /// tcg: a deck file (see docs/rules/tcg.md); sets the `deck` rule, the deck both
    /// players use unless custom decks are on.
    #[arg(long, value_name = "FILE")]
    deck: Option<PathBuf>,
}

impl RulesArgs {
    /// Whether a rules file or override was given (they belong to one mode).
    pub fn has_mode_independent(&self) -> bool {
        self.rules.is_some() || !self.rule.is_empty()
    }

    /// Check that `--map` and `--deck` have a mode among `modes` to go to.
    pub fn check_modes(&self, modes: &[Mode]) -> Result<()> {
        let played = |takes: Vec<Mode>| {
            let none = match takes.len() {
                1 => "which is not",
                2 => "neither is",
                _ => "none is",
            };
            (
                takes.iter().any(|m| modes.contains(m)),
                format!("{}, {none}", in_words(&takes)),
            )
        };
        let (ok, words) = played(map_modes());
        anyhow::ensure!(self.map.is_none() || ok, "--map is for {words} played here");
        let (ok, words) = played(deck_modes());
        anyhow::ensure!(
            self.deck.is_none() || ok,
            "--deck is for {words} played here"
        );
        Ok(())
    }

    /// The rules JSON for `mode` when several modes share these arguments: `--map` only
    /// reaches the mode whose format the map file is in (grid or conquest), `--deck` only tcg.
    pub fn for_mode_lenient(&self, mode: Mode) -> Result<serde_json::Value> {
        let mut only = self.clone();
        if let Some(path) = &self.map {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read map {}", path.display()))?;
            let claimed =
                game::map_mode(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            if claimed != mode {
                only.map = None;
            }
        }
        if decks_of(mode).is_none() {
            only.deck = None;
        }
        only.for_mode(mode)
    }

    /// The rules JSON for `mode`, checked against the mode.
    pub fn for_mode(&self, mode: Mode) -> Result<serde_json::Value> {
        let mut rules = rules_json(self.rules.as_deref(), &self.rule)?;
        if let Some(path) = &self.map {
            anyhow::ensure!(
                maps_of(mode).is_some(),
                "--map is for {}, not {mode}",
                in_words(&map_modes())
            );
            let (text, _, _) = read_map(path, Some(mode), &rules)?;
            set_rule(&mut rules, "map", text.into())?;
        }
        if let Some(path) = &self.deck {
            let cards = read_deck(mode, path, &rules)?;
            set_rule(&mut rules, "deck", serde_json::to_value(cards)?)?;
        }
        game::check_rules(mode, &rules)?;
        Ok(rules)
    }
}

/// Build the rules JSON from a file and KEY=VALUE overrides.
pub fn rules_json(
    file: Option<&std::path::Path>,
    overrides: &[String],
) -> Result<serde_json::Value> {
    let mut rules = match file {
        Some(path) => read_rules(path)?,
        None => serde_json::Value::Object(Default::default()),
    };
    for item in overrides {
        let (key, value) = item
            .split_once('=')
            .with_context(|| format!("--rule `{item}`: expected KEY=VALUE"))?;
        let value = serde_json::from_str(value)
            .unwrap_or_else(|_| serde_json::Value::String(value.to_owned()));
        rules
            .as_object_mut()
            .context("the rules file must hold a table of settings")?
            .insert(key.to_owned(), value);
    }
    Ok(rules)
}

fn set_rule(rules: &mut serde_json::Value, key: &str, value: serde_json::Value) -> Result<()> {
    rules
        .as_object_mut()
        .context("the rules must be a table of settings")?
        .insert(key.to_owned(), value);
    Ok(())
}

/// Read and check a map file of `mode` (`None`: told by its content, see
/// [`game::map_mode`]) under `rules`' limits; errors name the file, line and problem.
pub fn read_map(
    path: &std::path::Path,
    mode: Option<Mode>,
    rules: &serde_json::Value,
) -> Result<(String, Mode, game::MapSummary)> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read map {}", path.display()))?;
    let mode = match mode {
        Some(mode) => mode,
        None => game::map_mode(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?,
    };
    let summary = game::check_map(mode, &text, rules)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok((text, mode, summary))
}

/// Read and check a deck file of `mode` against the card pool of `rules` (the tournament's
/// reader: the same errors everywhere): its card ids.
pub fn read_deck(
    mode: Mode,
    path: &std::path::Path,
    rules: &serde_json::Value,
) -> Result<Vec<String>> {
    let format = decks_of(mode)
        .with_context(|| format!("--deck is for {}, not {mode}", in_words(&deck_modes())))?;
    Ok(arena_tournament::config::read_deck(format, path, rules)?)
}

pub fn play(args: PlayArgs, sandbox_args: &SandboxArgs) -> Result<ExitCode> {
    let sandbox = sandbox_args.sandbox()?;
    let mut rules = args.rules.for_mode(args.mode)?;
    for (key, path) in [("deck0", &args.deck0), ("deck1", &args.deck1)] {
        if let Some(path) = path {
            anyhow::ensure!(
                decks_of(args.mode).is_some(),
                "--{key} is for {}, not {}",
                in_words(&deck_modes()),
                args.mode
            );
            let cards = read_deck(args.mode, path, &rules)?;
            set_rule(&mut rules, key, serde_json::to_value(cards)?)?;
        }
    }
    if args.deck0.is_some() || args.deck1.is_some() {
        game::check_rules(args.mode, &rules)?;
    }
    // `human`: a person at this terminal (see `crate::human`), not a bot spec.
    let specs: [Option<BotSpec>; 2] = [
        (args.a != HUMAN).then(|| args.a.parse()).transpose()?,
        (args.b != HUMAN).then(|| args.b.parse()).transpose()?,
    ];
    let names = specs.each_ref().map(|s| {
        s.as_ref()
            .map_or_else(|| HUMAN.to_owned(), BotSpec::short_name)
    });
    let mut contestants = [None, None];
    for (seat, spec) in specs.iter().enumerate() {
        if let Some(spec) = spec {
            let c = Contestant::resolve(spec, &sandbox)
                .with_context(|| format!("seat {seat} ({spec})"))?;
            c.check_mode(args.mode)
                .with_context(|| format!("seat {seat}"))?;
            contestants[seat] = Some(c);
        }
    }
    let spec = GameSpec {
        mode: args.mode,
        rules,
        seed: args.seed,
        max_faults: args.max_faults,
        max_rejections: args.max_rejections,
    };
    let names_ref = [names[0].as_str(), names[1].as_str()];
    let watch = args.watch || args.step || args.delay.is_some();
    anyhow::ensure!(
        args.clock.is_none() || contestants.iter().any(Option::is_none),
        "--clock times a person's decisions: give `human` as a seat"
    );
    let view = crate::human::View {
        watch,
        pace: crate::live::Pace::new(args.delay, args.step),
        clock: args.clock,
    };
    // The replay is always kept: it is where each fault's turn and message are.
    let (result, view_error) = match &contestants {
        [Some(a), Some(b)] if !watch => (
            game::play(&spec, [a, b], names_ref, &sandbox, game::Keep::Json)?,
            None,
        ),
        [a, b] => crate::human::play(&spec, [a.as_ref(), b.as_ref()], names_ref, &sandbox, view)?,
    };
    let replay = &result.replay.expect("asked for a replay").into_json();

    if let Some(path) = &args.replay {
        let bytes = serde_json::to_vec(replay)?;
        std::fs::write(path, bytes)
            .with_context(|| format!("cannot write replay {}", path.display()))?;
    }
    if let Some(path) = &args.html {
        let fuel = sandbox_args.limits_config().limits().fuel_per_turn;
        crate::replay::write_html(replay, path, fuel, crate::replay::Trust::JustPlayed)?;
    }
    // Reported once the replay and page are written: a closed output ends the command
    // quietly, but not before the game is saved.
    if let Some(error) = view_error {
        return Err(error);
    }
    if watch {
        outln!()?;
    }
    let outcome = &result.outcome;
    if args.json {
        let json = serde_json::json!({
            "mode": args.mode,
            "seed": args.seed,
            "bots": names,
            "winner": outcome.winner,
            "reason": outcome.reason,
            "turns": outcome.turns,
            "seats": outcome.seats,
        });
        outln!("{}", serde_json::to_string_pretty(&json)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "{}: {} (seat 0) vs {} (seat 1), seed {}",
        args.mode,
        names[0],
        names[1],
        args.seed
    )?;
    match outcome.winner {
        Some(seat) => outln!(
            "winner: {} (seat {seat}) — {}, after {} turns",
            names[usize::from(seat)],
            outcome.reason,
            outcome.turns
        )?,
        None => outln!("draw — {}, after {} turns", outcome.reason, outcome.turns)?,
    }
    outln!()?;
    out!("{}", stats_table(&names, outcome))?;
    out!("{}", crate::terminal::escape(&problems(replay)))?;
    if let Some(path) = &args.replay {
        outln!("\nreplay written to {}", path.display())?;
    }
    if let Some(path) = &args.html {
        outln!("viewer written to {}", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Every fault (with its turn and message) and the first rejected answers of each seat: what
/// a bot's author needs to fix.
fn problems(replay: &serde_json::Value) -> String {
    const SHOWN_REJECTIONS: usize = 5;
    let mut faults = String::new();
    let mut rejections = String::new();
    let mut rejected = [0usize; 2];
    for entry in replay["log"].as_array().into_iter().flatten() {
        let (seat, turn) = (&entry["seat"], &entry["turn"]);
        match entry["kind"].as_str() {
            Some("answer") if entry["answer"].get("fault").is_some() => {
                let fault = &entry["answer"]["fault"];
                faults += &format!(
                    "  seat {seat}, turn {turn}: {}: {}\n",
                    fault["kind"].as_str().unwrap_or("?"),
                    fault["message"].as_str().unwrap_or("")
                );
            }
            Some("rejected") => {
                let count = &mut rejected[usize::from(seat.as_u64() == Some(1))];
                *count += 1;
                if *count <= SHOWN_REJECTIONS {
                    rejections += &format!(
                        "  seat {seat}, turn {turn}: {}\n",
                        entry["reason"].as_str().unwrap_or("")
                    );
                }
            }
            _ => {}
        }
    }
    let mut out = String::new();
    if !faults.is_empty() {
        out += &format!("\nfaults:\n{faults}");
    }
    if !rejections.is_empty() {
        out += &format!(
            "\nrejected answers (the first {SHOWN_REJECTIONS} of each seat):\n{rejections}"
        );
    }
    out
}

fn stats_table(names: &[String; 2], outcome: &arena_engine::Outcome) -> String {
    let mut rows = vec![vec![
        "statistic".to_owned(),
        names[0].clone(),
        names[1].clone(),
    ]];
    let [s0, s1] = &outcome.seats;
    for (key, v0) in &s0.stats {
        rows.push(vec![
            key.clone(),
            v0.to_string(),
            s1.stats.get(key).copied().unwrap_or(0).to_string(),
        ]);
    }
    let fault_kinds = |s: &arena_engine::SeatOutcome| {
        s.fault_kinds
            .iter()
            .map(|(k, n)| format!("{k}×{n}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    rows.push(vec![
        "invalid_actions".into(),
        s0.invalid_actions.to_string(),
        s1.invalid_actions.to_string(),
    ]);
    rows.push(vec![
        "faults".into(),
        s0.faults.to_string(),
        s1.faults.to_string(),
    ]);
    if s0.faults + s1.faults > 0 {
        rows.push(vec!["fault_kinds".into(), fault_kinds(s0), fault_kinds(s1)]);
    }
    rows.push(vec![
        "fuel".into(),
        s0.fuel.to_string(),
        s1.fuel.to_string(),
    ]);
    arena_tournament::report::grid(&rows, 1, false)
}
