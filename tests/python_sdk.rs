//! The Python SDK's protocol types (`sdk/python/arena/<mode>/types.py`, and
//! `sdk/python/arena/types.py` for the types every mode shares) are generated here from
//! the Rust SDK's types, traced with `serde-reflection` as `tests/go_sdk.rs` traces them
//! for Go, and the test fails when the committed files say anything else. After a
//! deliberate change to a protocol type, regenerate them with
//! `ARENA_UPDATE_DOCS=1 cargo test -p arena-tests --test python_sdk` and review the diff.
//!
//! What a trace cannot see is read from real JSON: every request and answer of games
//! between the built-ins (and a few answers the built-ins never give) is walked against the
//! traced formats, which finds the fields the arena leaves out of its JSON (left out when
//! `None`, a tcg card's zero amounts): the generated `to_json` leaves them out too. When
//! `python3` is installed, every one of those JSON texts is decoded by the SDK and encoded
//! again, and must come back the same JSON value and the same text.
//!
//! The mapping (serde's JSON, externally tagged enums): a struct is a `@dataclass` whose
//! fields have serde's names (a Python keyword gets a `_`: `from_`), every field with a
//! default, with `from_json` (a classmethod, from what `json.loads` gives) and `to_json`
//! (what `json.dumps` writes); `Option<T>` is `Optional[T]`; `Vec<T>` and `[T; N]` are
//! lists; integers are `int`; an enum of unit variants is its string, with a class naming
//! the values (`BotType.AGGRO`, and module constants for the turn answer: `grid.NORTH`);
//! an enum with data is a dataclass of one attribute per variant (`True` for a unit
//! variant, not `None` for the others; a struct variant is a class `EnumVariant`) with a
//! function per variant (`battle.attack(4)`, `battle.skill()`, `tcg.target_minion(25)`).

use arena_engine::{CallReport, Fault, MatchConfig, NativePlayer, Player, run_match};
use arena_sdk::protocol::RequestRef;
use arena_sdk::{Game, MatchEnd, MatchStart};
use arena_tests::root;
use reflect::{COMMON, Trace, closure, enums, first_difference, names};
use serde_json::Value;
use serde_reflection::{ContainerFormat, Format, Named, Registry, Tracer, VariantFormat};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::PathBuf;
use std::process::Command;
use std::sync::LazyLock;

#[path = "reflect.rs"]
mod reflect;

/// The command that regenerates the files, for the header and messages.
const REGENERATE: &str = "ARENA_UPDATE_DOCS=1 cargo test -p arena-tests --test python_sdk";

// ---------------------------------------------------------------------------------------
// Tracing

/// One mode's traced types.
struct Traced {
    registry: Registry,
    /// Types reachable from the requests and the answers.
    reachable: BTreeSet<String>,
    choice: Format,
    action: Format,
}

fn trace<G: Game>(enums: fn(&mut Tracer)) -> Traced {
    let Trace {
        registry,
        choice,
        action,
    } = reflect::trace::<G>(enums);
    let mut answer_roots = Vec::new();
    names(&choice, &mut answer_roots);
    names(&action, &mut answer_roots);
    let mut roots = vec!["Request"];
    roots.extend(answer_roots);
    let reachable = closure(&registry, roots);
    Traced {
        registry,
        reachable,
        choice,
        action,
    }
}

// ---------------------------------------------------------------------------------------
// Real JSON

/// One JSON text the arena and a bot exchange: a whole request (`{"turn": …}`), a setup
/// choice or an action.
struct Sample {
    kind: &'static str,
    format: Format,
    json: String,
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
struct Shown {
    /// Containers seen at least once.
    seen: BTreeSet<String>,
    /// (container, field) left out at least once.
    left_out: BTreeSet<(String, String)>,
    /// (container, field) written as `null`.
    null: BTreeSet<(String, String)>,
    /// (container, field) written with a zero value (0, "", false, []).
    zero: BTreeSet<(String, String)>,
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

fn walk(registry: &Registry, format: &Format, value: &Value, shown: &mut Shown, at: &str) {
    let wrong = || panic!("{at}: the JSON `{value}` is not a {format:?}");
    match format {
        Format::TypeName(name) => walk_container(registry, name, value, shown, at),
        Format::Unit if value.is_null() => {}
        Format::Bool if value.is_boolean() => {}
        Format::I8 | Format::I16 | Format::I32 | Format::I64 if value.is_i64() => {}
        Format::U8 | Format::U16 | Format::U32 | Format::U64 if value.is_u64() => {}
        Format::Str if value.is_string() => {}
        Format::Option(_) if value.is_null() => {}
        Format::Option(inner) => walk(registry, inner, value, shown, at),
        Format::Seq(inner) => match value {
            Value::Array(items) => items
                .iter()
                .for_each(|v| walk(registry, inner, v, shown, at)),
            _ => wrong(),
        },
        Format::TupleArray { content, size } => match value {
            Value::Array(items) if items.len() == *size => items
                .iter()
                .for_each(|v| walk(registry, content, v, shown, at)),
            _ => wrong(),
        },
        _ => wrong(),
    }
}

fn walk_fields(
    registry: &Registry,
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
                walk(registry, &field.value, v, shown, &at);
            }
        }
    }
}

fn walk_container(registry: &Registry, name: &str, value: &Value, shown: &mut Shown, at: &str) {
    match &registry[name] {
        ContainerFormat::Struct(fields) => walk_fields(registry, name, fields, value, shown),
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
                        VariantFormat::NewType(inner) => walk(registry, inner, data, shown, at),
                        VariantFormat::Struct(fields) => {
                            walk_fields(registry, &format!("{name}.{key}"), fields, data, shown)
                        }
                        other => panic!("{at}: variant {name}::{key} is a {other:?}"),
                    }
                }
                _ => panic!("{at}: the JSON `{value}` is no variant of `{name}`"),
            }
        }
        other => panic!("{name}: the SDK types use no {other:?}; map it to Python first"),
    }
}

// ---------------------------------------------------------------------------------------
// Rust doc comments, read from the SDK's source

#[derive(Default, Debug)]
struct ItemDocs {
    doc: Vec<String>,
    /// Field docs by serde name (a `#[serde(rename)]` applied).
    fields: BTreeMap<String, Vec<String>>,
    /// Variant docs by Rust name.
    variants: BTreeMap<String, ItemDocs>,
}

/// The doc comments of the `pub struct`s and `pub enum`s of a Rust file, their fields and
/// variants. A reader for rustfmt'd code, not a parser: a type it misses has no comment.
fn read_docs(text: &str) -> BTreeMap<String, ItemDocs> {
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

/// Rust doc lines as docstring paragraphs: paragraphs joined into one line
/// each, code blocks and intra-doc link brackets dropped, list items kept as paragraphs.
fn py_doc(lines: &[String]) -> Vec<String> {
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
fn unlink(text: &str) -> String {
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
fn snake(camel: &str) -> String {
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
fn mode<G: arena_builtins::Builtins + arena_engine::Ruleset>(
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
        });
    }
    Mode {
        name,
        traced,
        samples,
    }
}

/// The JSON of an answer, its fields in serde's order (a `Value` would sort them).
fn value(v: impl serde::Serialize) -> String {
    serde_json::to_string(&v).unwrap()
}

fn modes() -> Vec<Mode> {
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

// ---------------------------------------------------------------------------------------
// Python

/// Python's keywords (and soft keywords used as names): a field so named gets a `_`
/// (`from` → `from_`); its JSON key stays.
const PY_KEYWORDS: [&str; 36] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield", "match",
];

/// A serde field or variant name as a Python identifier.
fn py_name(serde: &str) -> String {
    if PY_KEYWORDS.contains(&serde) {
        format!("{serde}_")
    } else {
        serde.to_owned()
    }
}

/// Words of `text` wrapped at `width` columns after `indent`.
fn wrap(text: &str, indent: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent.len() + line.len() + 1 + word.len() > width {
            lines.push(format!("{indent}{line}"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(format!("{indent}{line}"));
    }
    lines
}

/// A docstring of the paragraphs, indented; empty if there are none.
fn docstring(paragraphs: &[String], indent: &str) -> String {
    if paragraphs.iter().all(|p| p.is_empty()) {
        return String::new();
    }
    let escape = |s: &str| s.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"");
    let mut lines: Vec<String> = Vec::new();
    for p in paragraphs {
        if p.is_empty() {
            lines.push(String::new());
        } else {
            lines.extend(wrap(&escape(p), indent, 88));
        }
    }
    if lines.len() == 1 && lines[0].len() + 6 <= 88 {
        return format!("{indent}\"\"\"{}\"\"\"\n", lines[0].trim_start());
    }
    let mut out = format!("{indent}\"\"\"{}\n", lines[0].trim_start());
    for l in &lines[1..] {
        out += l;
        out.push('\n');
    }
    out + indent + "\"\"\"\n"
}

/// One Python module of generated types.
struct PyModule<'a> {
    sources: Vec<&'a str>,
    registry: &'a Registry,
    types: Vec<String>,
    shown: &'a Shown,
    docs: BTreeMap<String, ItemDocs>,
    /// `MatchStart.rules` stays the JSON value (the SDK decodes it with the mode's rules).
    generic_rules: bool,
    /// The answer type whose variants are constructed by bare names (`attack(4)`).
    action: Option<String>,
}

impl PyModule<'_> {
    fn is_unit_enum(&self, name: &str) -> bool {
        match self.registry.get(name) {
            Some(ContainerFormat::Enum(variants)) => variants
                .values()
                .all(|v| matches!(v.value, VariantFormat::Unit)),
            _ => false,
        }
    }

    /// A value of this format is its JSON as it is (no class to decode it into).
    fn plain(&self, f: &Format) -> bool {
        match f {
            Format::TypeName(name) => self.is_unit_enum(name) || self.generic(name),
            Format::Option(inner) | Format::Seq(inner) => self.plain(inner),
            Format::TupleArray { content, .. } => self.plain(content),
            Format::Map { .. } | Format::Tuple(_) => panic!("the SDK types use no {f:?}"),
            _ => true,
        }
    }

    fn generic(&self, name: &str) -> bool {
        self.generic_rules && name == "Rules"
    }

    fn py_type(&self, f: &Format) -> String {
        match f {
            Format::Bool => "bool".into(),
            Format::Str => "str".into(),
            Format::Unit => "None".into(),
            Format::F32 | Format::F64 => "float".into(),
            Format::TypeName(name) if self.generic(name) => "Any".into(),
            Format::TypeName(name) if self.is_unit_enum(name) => "str".into(),
            Format::TypeName(name) => name.clone(),
            Format::Option(inner) => format!("Optional[{}]", self.py_type(inner)),
            Format::Seq(inner) => format!("List[{}]", self.py_type(inner)),
            Format::TupleArray { content, .. } => format!("List[{}]", self.py_type(content)),
            Format::Map { .. } | Format::Tuple(_) => panic!("the SDK types use no {f:?}"),
            _ => "int".into(),
        }
    }

    /// The default of a field (a dataclass default).
    fn default(&self, f: &Format) -> String {
        match f {
            Format::Bool => "False".into(),
            Format::Str => "\"\"".into(),
            Format::Unit | Format::Option(_) => "None".into(),
            Format::F32 | Format::F64 => "0.0".into(),
            Format::Seq(_) | Format::TupleArray { .. } => "field(default_factory=list)".into(),
            Format::TypeName(name) if self.generic(name) => "None".into(),
            Format::TypeName(name) if self.is_unit_enum(name) => {
                let ContainerFormat::Enum(variants) = &self.registry[name] else {
                    unreachable!()
                };
                format!("\"{}\"", variants.values().next().unwrap().name)
            }
            Format::TypeName(name) => format!("field(default_factory=lambda: {name}())"),
            _ => "0".into(),
        }
    }

    /// The expression decoding JSON value `e` of format `f`.
    fn decode(&self, f: &Format, e: &str, depth: usize) -> String {
        if self.plain(f) {
            return e.to_owned();
        }
        match f {
            Format::TypeName(name) => format!("{name}.from_json({e})"),
            Format::Option(inner) => {
                format!("None if {e} is None else {}", self.decode(inner, e, depth))
            }
            Format::Seq(inner) | Format::TupleArray { content: inner, .. } => {
                let x = format!("x{depth}");
                format!("[{} for {x} in {e}]", self.decode(inner, &x, depth + 1))
            }
            _ => unreachable!("{f:?} is plain"),
        }
    }

    /// The expression encoding Python value `e` of format `f` as a JSON value.
    fn encode(&self, f: &Format, e: &str, depth: usize) -> String {
        match f {
            Format::TypeName(name) if self.generic(name) => format!("_wire.encode({e})"),
            _ if self.plain(f) => e.to_owned(),
            Format::TypeName(_) => format!("{e}.to_json()"),
            Format::Option(inner) => {
                format!("None if {e} is None else {}", self.encode(inner, e, depth))
            }
            Format::Seq(inner) | Format::TupleArray { content: inner, .. } => {
                let x = format!("x{depth}");
                format!("[{} for {x} in {e}]", self.encode(inner, &x, depth + 1))
            }
            _ => unreachable!("{f:?} is plain"),
        }
    }

    fn docs_of(&self, name: &str) -> Option<&ItemDocs> {
        self.docs.get(name)
    }

    fn field_docs(&self, owner: &str, variant: Option<&str>, field: &str) -> Vec<String> {
        let Some(item) = self.docs_of(owner) else {
            return Vec::new();
        };
        let fields = match variant {
            None => Some(&item.fields),
            Some(v) => item
                .variants
                .iter()
                .find(|(rust, _)| snake(rust) == v)
                .map(|(_, d)| &d.fields),
        };
        fields
            .and_then(|f| f.get(field))
            .map(|d| py_doc(d))
            .unwrap_or_default()
    }

    /// Whether the arena leaves the field out of its JSON when it is None (an `Option`)
    /// or zero (anything else), as the sample JSON shows.
    fn left_out(&self, owner: &str, field: &str) -> bool {
        self.shown
            .left_out
            .contains(&(owner.to_owned(), field.to_owned()))
    }

    fn file(self) -> String {
        let mut functions = String::new();
        let mut body = String::new();
        for name in &self.types {
            body += "\n\n";
            body += &self.declaration(name, &mut functions);
        }
        body += &functions;
        // Import what the declarations use.
        let mut dataclasses = vec!["dataclass"];
        if body.contains("field(") {
            dataclasses.push("field");
        }
        let typing: Vec<&str> = ["Any", "List", "Optional"]
            .into_iter()
            .filter(|t| {
                body.contains(&format!("{t}["))
                    || body.contains(&format!(": {t}"))
                    || body.contains(&format!("-> {t}"))
            })
            .collect();
        let mut out = format!(
            "# Code generated by tests/python_sdk.rs from the Rust SDK ({}); DO NOT EDIT.\n\
             # Regenerate with {REGENERATE}.\n\n\
             from __future__ import annotations\n\n\
             from dataclasses import {}\n\
             from typing import {}\n",
            self.sources.join(", "),
            dataclasses.join(", "),
            typing.join(", ")
        );
        if self.generic_rules {
            out += "\nfrom . import _wire\n";
        }
        out + &body
    }

    fn declaration(&self, name: &str, functions: &mut String) -> String {
        let doc = self
            .docs_of(name)
            .map(|d| py_doc(&d.doc))
            .unwrap_or_default();
        match &self.registry[name] {
            ContainerFormat::Struct(fields) => self.structure(name, name, None, &doc, fields),
            ContainerFormat::Enum(variants) if self.is_unit_enum(name) => {
                self.unit_enum(name, &doc, variants)
            }
            ContainerFormat::Enum(variants) => self.data_enum(name, &doc, variants, functions),
            other => panic!("{name}: the SDK types use no {other:?}"),
        }
    }

    /// A dataclass with `from_json` and `to_json`. `owner` names it in the samples
    /// (`Enum.variant` for a struct variant), `docs_owner`/`variant` find its docs.
    fn structure(
        &self,
        class: &str,
        owner: &str,
        variant: Option<(&str, &str)>,
        doc: &[String],
        fields: &[Named<Format>],
    ) -> String {
        let mut out = format!("@dataclass\nclass {class}:\n");
        let doc_block = docstring(doc, "    ");
        out += &doc_block;
        if !fields.is_empty() && !doc_block.is_empty() {
            out.push('\n');
        }
        for f in fields {
            out += &format!(
                "    {}: {} = {}\n",
                py_name(&f.name),
                self.py_type(&f.value),
                self.default(&f.value)
            );
            let fdoc = match variant {
                None => self.field_docs(owner, None, &f.name),
                Some((e, v)) => self.field_docs(e, Some(v), &f.name),
            };
            out += &docstring(&fdoc, "    ");
        }
        // from_json
        out += &format!(
            "\n    @classmethod\n    def from_json(cls, v: Any) -> {class}:\n        \"\"\"The {class} of its JSON value (as `json.loads` gives it).\"\"\"\n"
        );
        if fields.is_empty() {
            out += "        return cls()\n";
        } else {
            out += "        return cls(\n";
            for f in fields {
                let key = &f.name;
                let e = match &f.value {
                    Format::Option(_) => format!("v.get(\"{key}\")"),
                    other if self.left_out(owner, key) => {
                        let zero = match self.default(other).as_str() {
                            "field(default_factory=list)" => "[]".to_owned(),
                            d => d.to_owned(),
                        };
                        format!("v.get(\"{key}\", {zero})")
                    }
                    _ => format!("v[\"{key}\"]"),
                };
                out += &format!("            {},\n", self.decode(&f.value, &e, 0));
            }
            out += "        )\n";
        }
        // to_json
        out += &format!(
            "\n    def to_json(self) -> Any:\n        \"\"\"The JSON value of this {class} (for `json.dumps`), as the arena writes it.\"\"\"\n"
        );
        let conditional = fields.iter().any(|f| self.left_out(owner, &f.name));
        if !conditional {
            out += "        return {";
            let items: Vec<String> = fields
                .iter()
                .map(|f| {
                    let e = format!("self.{}", py_name(&f.name));
                    format!("\"{}\": {}", f.name, self.encode(&f.value, &e, 0))
                })
                .collect();
            if items.is_empty() {
                out += "}\n";
            } else {
                out += "\n";
                for i in items {
                    out += &format!("            {i},\n");
                }
                out += "        }\n";
            }
        } else {
            out += "        out: dict = {}\n";
            for f in fields {
                let e = format!("self.{}", py_name(&f.name));
                let set = format!("out[\"{}\"] = {}", f.name, self.encode(&f.value, &e, 0));
                if self.left_out(owner, &f.name) {
                    let test = match &f.value {
                        Format::Option(_) => format!("{e} is not None"),
                        _ => e.clone(),
                    };
                    out += &format!("        if {test}:\n            {set}\n");
                } else {
                    out += &format!("        {set}\n");
                }
            }
            out += "        return out\n";
        }
        out
    }

    fn unit_enum(
        &self,
        name: &str,
        doc: &[String],
        variants: &BTreeMap<u32, Named<VariantFormat>>,
    ) -> String {
        let mut out = format!("class {name}:\n");
        let mut doc = doc.to_vec();
        if !doc.is_empty() {
            doc.push(String::new());
        }
        doc.push(format!(
            "{} is its JSON string; the class names the values (and ALL lists them).",
            article(name)
        ));
        out += &docstring(&doc, "    ");
        out.push('\n');
        let item = self.docs_of(name);
        for v in variants.values() {
            out += &format!("    {} = \"{}\"\n", v.name.to_uppercase(), v.name);
            let vdoc = item
                .and_then(|i| i.variants.iter().find(|(rust, _)| snake(rust) == v.name))
                .map(|(_, d)| py_doc(&d.doc))
                .unwrap_or_default();
            out += &docstring(&vdoc, "    ");
        }
        let all: Vec<String> = variants
            .values()
            .map(|v| format!("\"{}\"", v.name))
            .collect();
        let comma = if all.len() == 1 { "," } else { "" };
        out += &format!(
            "\n    ALL = (\n        {}{comma}\n    )\n",
            all.join(",\n        ")
        );
        if self.action.as_deref() == Some(name) {
            out += "\n";
            for v in variants.values() {
                out += &format!(
                    "\n{} = {name}.{}",
                    v.name.to_uppercase(),
                    v.name.to_uppercase()
                );
            }
            out += "\n";
        }
        out
    }

    fn data_enum(
        &self,
        name: &str,
        doc: &[String],
        variants: &BTreeMap<u32, Named<VariantFormat>>,
        functions: &mut String,
    ) -> String {
        let mut classes = String::new();
        let mut out = format!("@dataclass\nclass {name}:\n");
        let mut doc = doc.to_vec();
        if !doc.is_empty() {
            doc.push(String::new());
        }
        doc.push(
            "One attribute per variant, exactly one of them set (True for a variant without \
             data, else not None); the functions after the classes make each variant."
                .to_owned(),
        );
        out += &docstring(&doc, "    ");
        out.push('\n');
        let item = self.docs_of(name);
        let vdoc = |serde: &str| {
            item.and_then(|i| i.variants.iter().find(|(rust, _)| snake(rust) == serde))
                .map(|(_, d)| py_doc(&d.doc))
                .unwrap_or_default()
        };
        let mut decode_str = String::new();
        let mut decode_obj = String::new();
        let mut encode = String::new();
        let constructor = |serde: &str| {
            if self.action.as_deref() == Some(name) {
                py_name(serde)
            } else {
                format!("{}_{serde}", snake(name))
            }
        };
        for v in variants.values() {
            let attr = py_name(&v.name);
            let key = &v.name;
            match &v.value {
                VariantFormat::Unit => {
                    out += &format!("    {attr}: bool = False\n");
                    decode_str += &format!(
                        "            if v == \"{key}\":\n                return cls({attr}=True)\n"
                    );
                    encode +=
                        &format!("        if self.{attr}:\n            out.append(\"{key}\")\n");
                    *functions += &format!(
                        "\n\ndef {}() -> {name}:\n    \"\"\"The {name} `{key}`.\"\"\"\n    return {name}({attr}=True)\n",
                        constructor(key)
                    );
                }
                VariantFormat::NewType(inner) => {
                    out += &format!("    {attr}: Optional[{}] = None\n", self.py_type(inner));
                    decode_obj += &format!(
                        "            if key == \"{key}\":\n                return cls({attr}={})\n",
                        self.decode(inner, "data", 0)
                    );
                    encode += &format!(
                        "        if self.{attr} is not None:\n            out.append({{\"{key}\": {}}})\n",
                        self.encode(inner, &format!("self.{attr}"), 0)
                    );
                    *functions += &format!(
                        "\n\ndef {}(value: {}) -> {name}:\n    \"\"\"The {name} `{key}` of value.\"\"\"\n    return {name}({attr}=value)\n",
                        constructor(key),
                        self.py_type(inner)
                    );
                }
                VariantFormat::Struct(fields) => {
                    let class = format!("{name}{}", exported(key));
                    out += &format!("    {attr}: Optional[{class}] = None\n");
                    classes += "\n\n";
                    classes += &self.structure(
                        &class,
                        &format!("{name}.{key}"),
                        Some((name, key)),
                        &vdoc(key),
                        fields,
                    );
                    decode_obj += &format!(
                        "            if key == \"{key}\":\n                return cls({attr}={class}.from_json(data))\n"
                    );
                    encode += &format!(
                        "        if self.{attr} is not None:\n            out.append({{\"{key}\": self.{attr}.to_json()}})\n"
                    );
                    let params: Vec<String> = fields
                        .iter()
                        .map(|f| format!("{}: {}", py_name(&f.name), self.py_type(&f.value)))
                        .collect();
                    let args: Vec<String> = fields.iter().map(|f| py_name(&f.name)).collect();
                    *functions += &format!(
                        "\n\ndef {}({}) -> {name}:\n    \"\"\"The {name} `{key}`.\"\"\"\n    return {name}({attr}={class}({}))\n",
                        constructor(key),
                        params.join(", "),
                        args.join(", ")
                    );
                }
                other => panic!("{name}::{key}: the SDK types use no {other:?}"),
            }
            out += &docstring(&vdoc(key), "    ");
        }
        out += &format!(
            "\n    @classmethod\n    def from_json(cls, v: Any) -> {name}:\n        \"\"\"The {name} of its JSON value (serde's form: \"name\" or {{\"name\": data}}).\"\"\"\n"
        );
        if !decode_str.is_empty() {
            out += "        if isinstance(v, str):\n";
            out += &decode_str;
        }
        if !decode_obj.is_empty() {
            out += "        if isinstance(v, dict) and len(v) == 1:\n";
            out += "            ((key, data),) = v.items()\n";
            out += &decode_obj;
        }
        out += &format!(
            "        raise ValueError(f\"not {}: {{v!r}}\")\n",
            article(name).to_lowercase()
        );
        out += &format!(
            "\n    def to_json(self) -> Any:\n        \"\"\"The JSON value of this {name}: ValueError unless exactly one variant is set.\"\"\"\n        out: list = []\n"
        );
        out += &encode;
        out += &format!(
            "        if len(out) != 1:\n            raise ValueError(f\"{} sets exactly one variant, this one {{len(out)}}\")\n        return out[0]\n",
            article(name).to_lowercase()
        );
        out + &classes
    }
}

/// "a Kind", "an Action" (upper-case: the start of a sentence).
fn article(name: &str) -> String {
    let an = name.starts_with(['A', 'E', 'I', 'O', 'U']);
    format!("{} {name}", if an { "An" } else { "A" })
}

/// `play_card` → `PlayCard`.
fn exported(snake: &str) -> String {
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

struct Mode {
    name: &'static str,
    traced: Traced,
    samples: Vec<Sample>,
}

/// What the tests check, computed once: the generated files (path from the repository
/// root, text) and the sample JSON for the Python check (`mode\ttype\tjson` lines, type
/// `Request` for a whole request). The traced registries cannot be shared between threads.
struct Model {
    files: Vec<(String, String)>,
    samples: String,
}

static MODEL: LazyLock<Model> = LazyLock::new(|| {
    let modes = modes();
    let mut samples = String::new();
    for mode in &modes {
        for s in &mode.samples {
            let mut types = Vec::new();
            names(&s.format, &mut types);
            writeln!(samples, "{}\t{}\t{}", mode.name, types[0], s.json).unwrap();
        }
    }
    Model {
        files: generated(&modes),
        samples,
    }
});

/// The generated files: path (from the repository root) and text.
fn generated(modes: &[Mode]) -> Vec<(String, String)> {
    let source = |file: &str| std::fs::read_to_string(root().join(file)).unwrap();
    let mut files = Vec::new();
    for mode in modes {
        let mut shown = Shown::default();
        for s in &mode.samples {
            let v: Value = serde_json::from_str(&s.json).unwrap();
            walk(&mode.traced.registry, &s.format, &v, &mut shown, s.kind);
        }
        let rust_file = format!("sdk/src/{}.rs", mode.name);
        let mut docs = read_docs(&source("sdk/src/protocol.rs"));
        docs.extend(read_docs(&source("sdk/src/pos.rs")));
        docs.extend(read_docs(&source(&rust_file)));
        let types: Vec<String> = mode
            .traced
            .reachable
            .iter()
            .filter(|n| !COMMON.contains(&n.as_str()))
            .cloned()
            .collect();
        let mut sources = vec![rust_file.clone()];
        if types.iter().any(|t| t == "Pos") {
            sources.push("sdk/src/pos.rs".into());
        }
        let mut action = Vec::new();
        names(&mode.traced.action, &mut action);
        let module = PyModule {
            sources: sources.iter().map(String::as_str).collect(),
            registry: &mode.traced.registry,
            types,
            shown: &shown,
            docs,
            generic_rules: false,
            action: action.first().map(|a| (*a).to_owned()),
        };
        files.push((
            format!("sdk/python/arena/{}/types.py", mode.name),
            module.file(),
        ));
        if mode.name == "battle" {
            // The shared types, from one mode's registry (they are the same in every one).
            let module = PyModule {
                sources: vec!["sdk/src/protocol.rs"],
                registry: &mode.traced.registry,
                types: COMMON
                    .iter()
                    .filter(|n| **n != "Request")
                    .map(|n| (*n).to_owned())
                    .collect(),
                shown: &shown,
                docs: read_docs(&source("sdk/src/protocol.rs")),
                generic_rules: true,
                action: None,
            };
            files.push(("sdk/python/arena/types.py".into(), module.file()));
        }
    }
    files
}

#[test]
fn the_python_sdk_types_are_generated_from_the_rust_sdk_types() {
    let mut stale = Vec::new();
    for (path, expected) in &MODEL.files {
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
        "the Python SDK's types differ from the Rust SDK's; regenerate with {REGENERATE} and \
         review the change:\n{}",
        stale.join("\n")
    );
}

/// The `python3` command, if Python 3 is installed.
fn python() -> Option<PathBuf> {
    let works = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    works.then(|| PathBuf::from("python3"))
}

/// Decodes every sample with the SDK (`arena._runtime.decode`, the path a bot's requests
/// take; answers with their generated class), encodes it again as the SDK answers
/// (`arena._wire.dumps`) and compares: the same JSON value, and the same text.
const ROUND_TRIP: &str = r#"
import importlib, json, sys
from arena import _runtime, _wire

failures = 0
checked = 0
for line in open(sys.argv[1], encoding="utf-8"):
    mode, kind, text = line.rstrip("\n").split("\t", 2)
    if kind == "Request":
        value = _runtime.decode(mode, text)
    else:
        types = importlib.import_module(f"arena.{mode}.types")
        cls = getattr(types, kind)
        if hasattr(cls, "from_json"):
            value = cls.from_json(json.loads(text))
        else:  # an enum of unit variants: its string
            value = json.loads(text)
            assert value in cls.ALL, f"{mode} {kind}: {value!r} is none of {cls.ALL}"
    again = _wire.dumps(value)
    checked += 1
    if json.loads(again) != json.loads(text) or again != text:
        failures += 1
        if failures <= 5:
            print(f"{mode} {kind}:\n  arena:  {text}\n  python: {again}")
print(f"{checked} checked, {failures} differ")
sys.exit(1 if failures or not checked else 0)
"#;

#[test]
fn python_reads_and_writes_real_requests_and_answers() {
    let Some(python) = python() else {
        eprintln!("skipped: no `python3` on PATH");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let samples = dir.path().join("samples.txt");
    std::fs::write(&samples, &MODEL.samples).unwrap();
    let script = dir.path().join("round_trip.py");
    std::fs::write(&script, ROUND_TRIP).unwrap();
    let out = Command::new(&python)
        .arg(&script)
        .arg(&samples)
        .env("PYTHONPATH", root().join("sdk/python"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the Python SDK does not round-trip the arena's JSON:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs the starter (sample-bots/python-starter) on every sample request with the SDK's
/// request loop, in CPython: every answer is one the arena takes (tcg, dungeon: one of the
/// legal actions; battle: a legal target or a ready skill), and the loop's own answers —
/// a mode the bot does not play, an exception, None — are the documented errors.
const STARTER: &str = r#"
import json, sys
from arena import _runtime
import bot  # the starter: registers every mode

checked = 0
for line in open(sys.argv[1], encoding="utf-8"):
    mode, kind, text = line.rstrip("\n").split("\t", 2)
    if kind != "Request":
        continue
    answer = _runtime.handle(text)
    request = json.loads(text)
    value = json.loads(answer)
    assert not (isinstance(value, dict) and "error" in value), f"{mode}: {text[:80]} -> {answer}"
    if "turn" in request:
        turn = request["turn"]
        if mode == "battle":
            ok = value == "skill" and turn["skill_ready"] or (
                isinstance(value, dict) and value["attack"]["target"] in turn["legal_targets"])
        elif mode in ("tcg", "dungeon"):
            ok = value in turn["legal"]
        elif mode == "grid":
            ok = value in ("north", "east", "south", "west", "stay")
        else:
            ok = set(value) == {"recruit", "moves"}
        assert ok, f"{mode}: {answer} is not legal in {text[:200]}"
        checked += 1
assert checked > 100, checked

# The loop's own answers.
import arena
from arena import battle
start = next(l for l in open(sys.argv[1], encoding="utf-8") if l.startswith("battle\tRequest\t{\"start\""))
start = start.rstrip("\n").split("\t", 2)[2]
_runtime._handlers.clear()
assert json.loads(_runtime.handle(start)) == {"error": "this bot plays no mode: call arena.play_battle (or another arena.play function) when bot.py is imported"}
arena.play_grid(lambda r: {}, lambda o: "stay")
arena.play_tcg(lambda r: {}, lambda o: "end_turn")
assert json.loads(_runtime.handle(start)) == {"error": "this bot plays tcg and grid only, not battle"}
def act(observation):
    if observation.turn % 2:
        raise KeyError("boom")
arena.play_battle(lambda r: battle.TeamChoice(team=r.roster[:r.team_size]), act)
assert _runtime.handle(start) == "{}"
assert arena.start().seed == json.loads(start)["start"]["seed"]
assert type(arena.start().rules).__name__ == "Rules"
turn = next(l for l in open(sys.argv[1], encoding="utf-8") if l.startswith("battle\tRequest\t{\"turn\""))
turn = json.loads(turn.rstrip("\n").split("\t", 2)[2])
turn["turn"]["turn"] = 1
assert json.loads(_runtime.handle(json.dumps(turn))) == {"error": "KeyError: 'boom'"}
turn["turn"]["turn"] = 2
assert json.loads(_runtime.handle(json.dumps(turn))) == {"error": "TypeError: act returned None, not an answer"}
assert json.loads(_runtime.handle("{}"))["error"].startswith("bad request")
print(f"{checked} turns answered legally")
"#;

#[test]
fn the_python_starter_answers_real_requests_legally() {
    let Some(python) = python() else {
        eprintln!("skipped: no `python3` on PATH");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let samples = dir.path().join("samples.txt");
    std::fs::write(&samples, &MODEL.samples).unwrap();
    let script = dir.path().join("starter.py");
    std::fs::write(&script, STARTER).unwrap();
    let path = std::env::join_paths([
        root().join("sdk/python"),
        root().join("sample-bots/python-starter"),
    ])
    .unwrap();
    let out = Command::new(&python)
        .arg(&script)
        .arg(&samples)
        .env("PYTHONPATH", path)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the Python starter's answers:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
