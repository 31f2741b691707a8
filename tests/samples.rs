//! What the SDK generators (`go_sdk.rs`, `python_sdk.rs`, `js_sdk.rs`: three test
//! binaries, each including this file with `#[path = "samples.rs"] mod samples;` next to
//! `reflect.rs`) share: every mode traced, the real JSON of games between the built-ins
//! (and a few answers the built-ins never give) recorded, that JSON walked against the
//! traced formats to find the fields left out of it, the Rust doc comments read from the
//! SDK's source, and the check of generated files against the committed ones. What each
//! keeps is its language: the type mapping and the code it emits.

// Each generator uses only part of this (only Go reads the binary encodings, …).
#![allow(dead_code)]

use crate::reflect::{self, COMMON, Trace, closure, enums, first_difference, names};
use arena_engine::{CallReport, Fault, MatchConfig, NativePlayer, Player, run_match};
use arena_sandbox::encode_request;
use arena_sdk::protocol::RequestRef;
use arena_sdk::{Encoding, Game, MatchEnd, MatchStart};
use arena_tests::root;
use serde_json::Value;
use serde_reflection::{ContainerFormat, Format, Named, Registry, Tracer, VariantFormat};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::Command;

// ---------------------------------------------------------------------------------------
// Tracing

/// One mode's traced types.
pub struct Traced {
    pub registry: Registry,
    /// Types reachable from the requests and the answers.
    pub reachable: BTreeSet<String>,
    /// Types reachable from the answers (what a bot writes).
    pub answers: BTreeSet<String>,
    /// Types reachable from the requests (what a bot reads).
    pub requests: BTreeSet<String>,
    pub choice: Format,
    pub action: Format,
}

pub fn trace<G: Game>(enums: fn(&mut Tracer)) -> Traced {
    let Trace {
        registry,
        choice,
        action,
    } = reflect::trace::<G>(enums);
    let mut answer_roots = Vec::new();
    names(&choice, &mut answer_roots);
    names(&action, &mut answer_roots);
    let answers = closure(&registry, answer_roots.clone());
    let mut roots = vec!["Request"];
    roots.extend(answer_roots);
    let reachable = closure(&registry, roots);
    let requests = closure(&registry, vec!["Request"]);
    Traced {
        registry,
        reachable,
        answers,
        requests,
        choice,
        action,
    }
}

// ---------------------------------------------------------------------------------------
// Real JSON

/// One JSON text the arena and a bot exchange: a whole request (`{"turn": …}`), a setup
/// choice or an action.
pub struct Sample {
    pub kind: &'static str,
    pub format: Format,
    pub json: String,
    /// A request's binary encoding (the host's encoder), in hex; empty for an answer.
    pub binary: String,
}

/// Records everything seat 0 of a game is sent and answers, as JSON.
struct Recording<G: Game> {
    inner: Box<dyn Player<G>>,
    samples: Vec<Sample>,
    choice: Format,
    action: Format,
    /// Keep turn `n` when `keep(n)` (long games have thousands of turns).
    keep: fn(usize) -> bool,
    turns: usize,
}

impl<G: Game> Recording<G> {
    fn request(&mut self, request: RequestRef<'_, G>) {
        self.samples.push(Sample {
            kind: "request",
            format: Format::TypeName("Request".into()),
            json: serde_json::to_string(&request).unwrap(),
            binary: {
                let mut out = Vec::new();
                encode_request(Encoding::Binary, request, &mut out).unwrap();
                out.iter().map(|b| format!("{b:02x}")).collect()
            },
        });
    }
}

impl<G: Game> Player<G> for Recording<G> {
    fn start(&mut self, start: &MatchStart<G>) -> Result<(), Fault> {
        self.request(RequestRef::Start(start));
        self.inner.start(start)
    }
    fn setup(&mut self, request: &G::SetupRequest) -> Result<G::SetupChoice, Fault> {
        self.request(RequestRef::Setup(request));
        let choice = self.inner.setup(request)?;
        self.samples.push(answer("choice", &self.choice, &choice));
        Ok(choice)
    }
    fn act(&mut self, observation: &G::Observation) -> Result<G::Action, Fault> {
        let action = self.inner.act(observation)?;
        if (self.keep)(self.turns) {
            self.request(RequestRef::Turn(observation));
            self.samples.push(answer("action", &self.action, &action));
        }
        self.turns += 1;
        Ok(action)
    }
    fn end(&mut self, end: &MatchEnd) {
        self.request(RequestRef::End(end));
        self.inner.end(end)
    }
    fn last_call(&mut self) -> CallReport {
        self.inner.last_call()
    }
}

fn answer(kind: &'static str, format: &Format, value: &impl serde::Serialize) -> Sample {
    Sample {
        kind,
        format: format.clone(),
        json: serde_json::to_string(value).unwrap(),
        binary: String::new(),
    }
}

/// The JSON of seat 0 in a game of built-ins `seat0` against `seat1` under `rules`.
fn game<G: arena_builtins::Builtins + arena_engine::Ruleset>(
    traced: &Traced,
    rules: G::Rules,
    [seat0, seat1]: [&str; 2],
    seed: u64,
) -> Vec<Sample> {
    let create = |name: &str| -> Box<dyn Player<G>> {
        Box::new(NativePlayer::new(
            G::create(name).unwrap_or_else(|| panic!("no built-in {name}")),
        ))
    };
    let mut recording = Recording {
        inner: create(seat0),
        samples: Vec::new(),
        choice: traced.choice.clone(),
        action: traced.action.clone(),
        keep: |turn| turn < 40 || turn % 25 == 0,
        turns: 0,
    };
    let mut other = create(seat1);
    run_match(
        &MatchConfig::<G>::new(rules, seed),
        [&mut recording, &mut *other],
    );
    recording.samples
}

// ---------------------------------------------------------------------------------------
// What the JSON shows: fields left out

/// How the fields of each struct (`Type`, or `Enum.variant` for a struct variant) were
/// written in the samples.
#[derive(Default)]
pub struct Shown {
    /// Containers seen at least once.
    pub seen: BTreeSet<String>,
    /// (container, field) left out at least once.
    pub left_out: BTreeSet<(String, String)>,
    /// (container, field) written as `null`.
    pub null: BTreeSet<(String, String)>,
    /// (container, field) written with a zero value (0, "", false, []).
    pub zero: BTreeSet<(String, String)>,
}

fn is_zero(value: &Value) -> bool {
    match value {
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Bool(b) => !b,
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

/// The traced types JSON is walked against, and the language they are mapped to (for the
/// message when a format has no mapping yet).
struct Types<'a> {
    registry: &'a Registry,
    language: &'a str,
}

fn walk(on: &Types<'_>, format: &Format, value: &Value, shown: &mut Shown, at: &str) {
    let wrong = || panic!("{at}: the JSON `{value}` is not a {format:?}");
    match format {
        Format::TypeName(name) => walk_container(on, name, value, shown, at),
        Format::Unit if value.is_null() => {}
        Format::Bool if value.is_boolean() => {}
        Format::I8 | Format::I16 | Format::I32 | Format::I64 if value.is_i64() => {}
        Format::U8 | Format::U16 | Format::U32 | Format::U64 if value.is_u64() => {}
        Format::Str if value.is_string() => {}
        Format::Option(_) if value.is_null() => {}
        Format::Option(inner) => walk(on, inner, value, shown, at),
        Format::Seq(inner) => match value {
            Value::Array(items) => items.iter().for_each(|v| walk(on, inner, v, shown, at)),
            _ => wrong(),
        },
        Format::TupleArray { content, size } => match value {
            Value::Array(items) if items.len() == *size => {
                items.iter().for_each(|v| walk(on, content, v, shown, at))
            }
            _ => wrong(),
        },
        _ => wrong(),
    }
}

fn walk_fields(
    on: &Types<'_>,
    owner: &str,
    fields: &[Named<Format>],
    value: &Value,
    shown: &mut Shown,
) {
    let Value::Object(object) = value else {
        panic!("{owner}: the JSON `{value}` is not an object");
    };
    shown.seen.insert(owner.to_owned());
    for key in object.keys() {
        assert!(
            fields.iter().any(|f| &f.name == key),
            "{owner}: the JSON has a field `{key}` the trace does not know (a hand-written \
             Serialize?)"
        );
    }
    for field in fields {
        let key = (owner.to_owned(), field.name.clone());
        match object.get(&field.name) {
            None => {
                shown.left_out.insert(key);
            }
            Some(Value::Null) => {
                shown.null.insert(key);
            }
            Some(v) => {
                if is_zero(v) {
                    shown.zero.insert(key);
                }
                let at = format!("{owner}.{}", field.name);
                walk(on, &field.value, v, shown, &at);
            }
        }
    }
}

fn walk_container(on: &Types<'_>, name: &str, value: &Value, shown: &mut Shown, at: &str) {
    match &on.registry[name] {
        ContainerFormat::Struct(fields) => walk_fields(on, name, fields, value, shown),
        ContainerFormat::Enum(variants) => {
            let variant = |wanted: &str| {
                variants
                    .values()
                    .find(|v| v.name == wanted)
                    .unwrap_or_else(|| panic!("{at}: `{name}` has no variant `{wanted}`"))
            };
            match value {
                Value::String(unit) => {
                    assert!(
                        matches!(variant(unit).value, VariantFormat::Unit),
                        "{at}: {name}::{unit} written as a unit variant"
                    );
                }
                Value::Object(object) if object.len() == 1 => {
                    let (key, data) = object.iter().next().unwrap();
                    let v = variant(key);
                    shown.seen.insert(format!("{name}.{key}"));
                    match &v.value {
                        VariantFormat::NewType(inner) => walk(on, inner, data, shown, at),
                        VariantFormat::Struct(fields) => {
                            walk_fields(on, &format!("{name}.{key}"), fields, data, shown)
                        }
                        other => panic!("{at}: variant {name}::{key} is a {other:?}"),
                    }
                }
                _ => panic!("{at}: the JSON `{value}` is no variant of `{name}`"),
            }
        }
        other => panic!(
            "{name}: the SDK types use no {other:?}; map it to {} first",
            on.language
        ),
    }
}

// ---------------------------------------------------------------------------------------
// Rust doc comments, read from the SDK's source

#[derive(Default, Debug)]
pub struct ItemDocs {
    pub doc: Vec<String>,
    /// Field docs by serde name (a `#[serde(rename)]` applied).
    pub fields: BTreeMap<String, Vec<String>>,
    /// Variant docs by Rust name.
    pub variants: BTreeMap<String, ItemDocs>,
}

/// The doc comments of the `pub struct`s and `pub enum`s of a Rust file, their fields and
/// variants. A reader for rustfmt'd code, not a parser: a type it misses has no comment.
pub fn read_docs(text: &str) -> BTreeMap<String, ItemDocs> {
    let mut items = BTreeMap::new();
    let mut pending: Vec<String> = Vec::new();
    let mut rename: Option<String> = None;
    // Inside a type's body: its name and, inside a struct variant, the variant.
    let mut body: Option<String> = None;
    let mut variant: Option<String> = None;
    let mut attribute_depth = 0i32;
    for line in text.lines() {
        let trimmed = line.trim();
        if attribute_depth > 0 {
            attribute_depth += depth(trimmed);
            continue;
        }
        if let Some(doc) = trimmed.strip_prefix("///") {
            pending.push(doc.strip_prefix(' ').unwrap_or(doc).to_owned());
            continue;
        }
        if trimmed.starts_with("#[") {
            if let Some(name) = trimmed
                .strip_prefix("#[serde(rename = \"")
                .and_then(|r| r.split('"').next())
            {
                rename = Some(name.to_owned());
            }
            attribute_depth = depth(trimmed);
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let docs = std::mem::take(&mut pending);
        let renamed = rename.take();
        match &body {
            None if indent == 0 => {
                let item = ["pub struct ", "pub enum "]
                    .iter()
                    .find_map(|p| trimmed.strip_prefix(p));
                if let Some(rest) = item {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    items.insert(
                        name.clone(),
                        ItemDocs {
                            doc: docs,
                            ..ItemDocs::default()
                        },
                    );
                    if trimmed.ends_with('{') {
                        body = Some(name);
                    }
                }
            }
            None => {}
            Some(name) => {
                let item = items.get_mut(name).unwrap();
                if indent == 0 && trimmed == "}" {
                    body = None;
                    continue;
                }
                if let Some(v) = &variant {
                    if indent == 4 && trimmed.starts_with('}') {
                        variant = None;
                    } else if indent == 8
                        && let Some((field, _)) = trimmed.split_once(':')
                    {
                        let field = renamed.unwrap_or_else(|| field.to_owned());
                        let v = item.variants.get_mut(v).unwrap();
                        v.fields.insert(field, docs);
                    }
                    continue;
                }
                if indent != 4 {
                    continue;
                }
                if let Some(rest) = trimmed.strip_prefix("pub ") {
                    if let Some((field, _)) = rest.split_once(':') {
                        item.fields
                            .insert(renamed.unwrap_or_else(|| field.to_owned()), docs);
                    }
                } else if trimmed.starts_with(|c: char| c.is_ascii_uppercase()) {
                    let ident: String = trimmed
                        .chars()
                        .take_while(|c| c.is_alphanumeric())
                        .collect();
                    if trimmed.ends_with('{') {
                        variant = Some(ident.clone());
                    }
                    item.variants.insert(
                        ident,
                        ItemDocs {
                            doc: docs,
                            ..ItemDocs::default()
                        },
                    );
                }
            }
        }
    }
    items
}

/// `[` minus `]` on a line: how far an attribute stays open.
fn depth(line: &str) -> i32 {
    line.chars()
        .map(|c| match c {
            '[' => 1,
            ']' => -1,
            _ => 0,
        })
        .sum()
}

/// Rust doc lines as paragraphs of plain text: paragraphs joined into one line
/// each, code blocks and intra-doc link brackets dropped, list items kept as paragraphs.
pub fn paragraphs(lines: &[String]) -> Vec<String> {
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut in_code = false;
    let flush = |current: &mut String, paragraphs: &mut Vec<String>| {
        if !current.is_empty() {
            paragraphs.push(std::mem::take(current));
        }
    };
    for line in lines {
        let line = line.trim();
        if line.starts_with("```") {
            in_code = !in_code;
            flush(&mut current, &mut paragraphs);
            continue;
        }
        if in_code {
            continue;
        }
        if line.is_empty() {
            flush(&mut current, &mut paragraphs);
            continue;
        }
        // A list item or a table row starts a paragraph of its own, without its marker.
        let item = line.strip_prefix("- ").or_else(|| line.strip_prefix("* "));
        if item.is_some() || line.starts_with('|') {
            flush(&mut current, &mut paragraphs);
        }
        if line.starts_with('|') {
            continue;
        }
        let line = item.unwrap_or(line);
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(line);
    }
    flush(&mut current, &mut paragraphs);
    let mut out = Vec::new();
    for (k, p) in paragraphs.iter().enumerate() {
        if k > 0 {
            out.push(String::new());
        }
        out.push(unlink(p));
    }
    out
}

/// "[`Board::new`]" → "`Board::new`", "[`X`](path)" → "`X`".
pub fn unlink(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find("[`") {
        let Some(close) = rest[open..].find("`]") else {
            break;
        };
        let close = open + close;
        out.push_str(&rest[..open]);
        out.push_str(&rest[open + 1..close + 1]);
        rest = &rest[close + 2..];
        if rest.starts_with('(')
            && let Some(end) = rest.find(')')
        {
            rest = &rest[end + 1..];
        }
    }
    out.push_str(rest);
    out
}

/// `PlayCard` → `play_card` (a Rust variant name as serde's `snake_case` writes it).
pub fn snake(camel: &str) -> String {
    let mut out = String::new();
    for (k, c) in camel.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if k > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `play_card` → `PlayCard`.
pub fn camel(snake: &str) -> String {
    snake
        .split('_')
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// The model: every mode traced, its JSON sampled

/// One mode: its name (`battle`, …), its traced types and the JSON of its samples.
pub struct Mode {
    pub name: &'static str,
    pub traced: Traced,
    pub samples: Vec<Sample>,
}

impl Mode {
    /// How the fields were written in this mode's samples (`language`: the generator's, for
    /// its messages).
    pub fn shown(&self, language: &str) -> Shown {
        let on = Types {
            registry: &self.traced.registry,
            language,
        };
        let mut shown = Shown::default();
        for s in &self.samples {
            let v: Value = serde_json::from_str(&s.json).unwrap();
            walk(&on, &s.format, &v, &mut shown, s.kind);
        }
        shown
    }

    /// The doc comments of the SDK's shared types, `Pos` and this mode's types.
    pub fn docs(&self) -> BTreeMap<String, ItemDocs> {
        let mut docs = read_docs(&source("sdk/src/protocol.rs"));
        docs.extend(read_docs(&source("sdk/src/pos.rs")));
        docs.extend(read_docs(&source(&self.rust_file())));
        docs
    }

    /// The Rust file of this mode's types, from the repository root.
    pub fn rust_file(&self) -> String {
        format!("sdk/src/{}.rs", self.name)
    }

    /// The Rust files `types` (this mode's) come from, from the repository root.
    pub fn sources(&self, types: &[String]) -> Vec<String> {
        let mut sources = vec![self.rust_file()];
        if types.iter().any(|t| t == "Pos") {
            sources.push("sdk/src/pos.rs".into());
        }
        sources
    }

    /// This mode's own types (the shared ones, `COMMON`, left out).
    pub fn types(&self) -> Vec<String> {
        self.traced
            .reachable
            .iter()
            .filter(|n| !COMMON.contains(&n.as_str()))
            .cloned()
            .collect()
    }
}

/// The types every mode shares but the request envelope: what the shared file declares.
pub fn shared_types() -> Vec<String> {
    COMMON
        .iter()
        .filter(|n| **n != "Request")
        .map(|n| (*n).to_owned())
        .collect()
}

/// `program`, if it is installed (`program version_arg` runs and succeeds).
pub fn installed(program: &str, version_arg: &str) -> Option<PathBuf> {
    let works = Command::new(program)
        .arg(version_arg)
        .output()
        .is_ok_and(|o| o.status.success());
    works.then(|| PathBuf::from(program))
}

/// A file of the repository, from its root.
pub fn source(file: &str) -> String {
    std::fs::read_to_string(root().join(file)).unwrap()
}

/// Checks the generated `files` (path from the repository root, text) against the
/// committed ones, or writes them under `ARENA_UPDATE_DOCS`; `sdk` names them in the
/// message ("the Go SDK's types"), `regenerate` is the command that regenerates them.
pub fn check_files(files: &[(String, String)], sdk: &str, regenerate: &str) {
    let mut stale = Vec::new();
    for (path, expected) in files {
        let full = root().join(path);
        let current = std::fs::read_to_string(&full).unwrap_or_default();
        if current == *expected {
            continue;
        }
        if std::env::var_os("ARENA_UPDATE_DOCS").is_some() {
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(&full, expected).unwrap();
            continue;
        }
        let (line, file, generated) = first_difference(&current, expected);
        stale.push(format!(
            "{path} from its line {line}:\n  file:      {file:?}\n  generated: {generated:?}"
        ));
    }
    assert!(
        stale.is_empty(),
        "{sdk} differ from the Rust SDK's; regenerate with {regenerate} and review the \
         change:\n{}",
        stale.join("\n")
    );
}

/// Mode `G` traced (`enums`: its enums, traced whole first) and sampled: seat 0's JSON in
/// `games` (rules, built-ins, seed), then `answers` (kind "choice" or "action", JSON).
pub fn mode<G: arena_builtins::Builtins + arena_engine::Ruleset>(
    name: &'static str,
    enums: fn(&mut Tracer),
    games: &[(G::Rules, [&str; 2], u64)],
    answers: &[(&'static str, String)],
) -> Mode {
    let traced = trace::<G>(enums);
    let mut samples: Vec<Sample> = games
        .iter()
        .flat_map(|(rules, seats, seed)| game::<G>(&traced, rules.clone(), *seats, *seed))
        .collect();
    for (kind, json) in answers {
        let format = if *kind == "choice" {
            traced.choice.clone()
        } else {
            traced.action.clone()
        };
        samples.push(Sample {
            kind,
            format,
            json: json.clone(),
            binary: String::new(),
        });
    }
    Mode {
        name,
        traced,
        samples,
    }
}

/// The JSON of an answer, its fields in serde's order (a `Value` would sort them).
pub fn value(v: impl serde::Serialize) -> String {
    serde_json::to_string(&v).unwrap()
}

pub fn modes() -> Vec<Mode> {
    use arena_sdk::{battle, conquest, dungeon, grid, tcg};
    let battle_rules = battle::Rules {
        roster1: Some(vec![
            battle::BotType::Tank,
            battle::BotType::Nurse,
            battle::BotType::Doctor,
            battle::BotType::Glass,
        ]),
        ..battle::Rules::default()
    };
    let advanced = tcg::Rules {
        deck0: Some(tcg::standard_deck()),
        ..tcg::Rules::advanced()
    };
    vec![
        mode::<battle::Battle>(
            "battle",
            enums!(battle::BotType, battle::Effect, battle::Action),
            &[
                (battle::Rules::default(), ["strong", "heuristic"], 1),
                (battle_rules, ["random", "strong"], 2),
            ],
            &[
                ("action", value(battle::Action::Skill)),
                ("action", value(battle::Action::Attack { target: 4 })),
            ],
        ),
        mode::<tcg::Tcg>(
            "tcg",
            enums!(tcg::CardKind, tcg::PlayAs, tcg::Target, tcg::Action),
            &[
                (tcg::Rules::default(), ["planner", "random"], 1),
                (advanced, ["planner", "greedy"], 2),
            ],
            &[
                ("choice", value(tcg::DeckChoice::default())),
                (
                    "choice",
                    value(tcg::DeckChoice {
                        deck: Some(tcg::standard_deck()),
                    }),
                ),
                (
                    "action",
                    value(tcg::Action::Attack {
                        minion: 3,
                        target: tcg::Target::Minion(25),
                    }),
                ),
                (
                    "action",
                    value(tcg::Action::PlayCard {
                        card: 1,
                        play_as: tcg::PlayAs::Minion,
                        target: tcg::Target::Hero,
                    }),
                ),
                ("action", value(tcg::Action::EndTurn)),
            ],
        ),
        mode::<grid::Grid>(
            "grid",
            enums!(grid::Direction, grid::Action),
            &[(grid::Rules::default(), ["commander", "random-walker"], 1)],
            &grid::Action::ALL.map(|a| ("action", value(a))),
        ),
        mode::<dungeon::Dungeon>(
            "dungeon",
            enums!(
                dungeon::Class,
                dungeon::Ability,
                dungeon::Family,
                dungeon::MonsterKind,
                dungeon::Target,
            ),
            &[(dungeon::Rules::default(), ["strong", "random"], 1)],
            &[(
                "action",
                value(dungeon::Action::on_hero(dungeon::Ability::Heal, 2)),
            )],
        ),
        mode::<conquest::Conquest>(
            "conquest",
            enums!(conquest::Resource, conquest::Kind),
            &[
                (conquest::Rules::default(), ["strong", "random"], 1),
                (conquest::Rules::default(), ["heuristic", "strong"], 2),
            ],
            &[
                ("action", value(conquest::Orders::default())),
                (
                    "action",
                    value(conquest::Orders {
                        recruit: vec![conquest::Recruit {
                            kind: conquest::Kind::Knight,
                            at: conquest::Pos::new(2, 1),
                        }],
                        moves: vec![conquest::Move {
                            from: conquest::Pos::new(2, 1),
                            to: conquest::Pos::new(3, 1),
                        }],
                    }),
                ),
            ],
        ),
    ]
}
