//! The JavaScript SDK's TypeScript types (`sdk/js/protocol.d.ts`: every mode's requests and
//! answers, in namespaces `arena.battle`, `arena.tcg`, …, and the types every mode shares)
//! are generated here from the Rust SDK's types, traced with `serde-reflection` as
//! `tests/go_sdk.rs` traces them for Go, and the test fails when the committed file says
//! anything else. After a deliberate change to a protocol type, regenerate it with
//! `ARENA_UPDATE_DOCS=1 cargo test -p arena-tests --test js_sdk` and review the diff.
//!
//! The mapping (serde's JSON, externally tagged enums): a struct is an interface; a field
//! the JSON of real games leaves out (or, in an answer, an `Option`) is optional (`?`);
//! `Option<T>` is `T | null`; `Vec<T>` is `T[]`, `[T; N]` a tuple; integers are `number`;
//! an enum of unit variants a union of string literals; an enum with data a union of its
//! variants' JSON (`"skill" | { attack: { target: number } }`). What a trace cannot see is
//! read from real JSON, as for Go: every request and answer of games between the built-ins.
//! With `node` and the starter's TypeScript installed (`npm ci` in sample-bots/ts-starter),
//! `tsc` type-checks it and the API declarations (`sdk/js/arena.d.ts`) too.

use arena_engine::{CallReport, Fault, MatchConfig, NativePlayer, Player, run_match};
use arena_sdk::protocol::RequestRef;
use arena_sdk::{Game, MatchEnd, MatchStart};
use arena_tests::root;
use reflect::{COMMON, Trace, closure, enums, first_difference, names};
use serde_json::Value;
use serde_reflection::{ContainerFormat, Format, Named, Registry, Tracer, VariantFormat};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

#[path = "reflect.rs"]
mod reflect;

/// The command that regenerates the file, for its header and messages.
const REGENERATE: &str = "ARENA_UPDATE_DOCS=1 cargo test -p arena-tests --test js_sdk";

/// The generated file, from the repository root.
const PATH: &str = "sdk/js/protocol.d.ts";

/// One mode's traced types.
struct Traced {
    registry: Registry,
    /// Types reachable from the requests and the answers.
    reachable: BTreeSet<String>,
    /// Types reachable from the answers (what a bot writes).
    answers: BTreeSet<String>,
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
    let answers = closure(&registry, answer_roots.clone());
    let mut roots = vec!["Request"];
    roots.extend(answer_roots);
    let reachable = closure(&registry, roots);
    Traced {
        registry,
        reachable,
        answers,
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
        other => panic!("{name}: the SDK types use no {other:?}; map it to TypeScript first"),
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

/// Rust doc lines as JSDoc lines (without ` * `): paragraphs joined into one line
/// each, code blocks and intra-doc link brackets dropped, list items kept as paragraphs.
fn doc_lines(lines: &[String]) -> Vec<String> {
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
        // A list item or a table row starts a paragraph of its own (the marker goes).
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

// ---------------------------------------------------------------------------------------
// Go

struct Mode {
    name: &'static str,
    traced: Traced,
    samples: Vec<Sample>,
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
// TypeScript

/// What one namespace's emitter needs.
struct Emitter<'a> {
    registry: &'a Registry,
    answers: &'a BTreeSet<String>,
    shown: &'a Shown,
    docs: &'a BTreeMap<String, ItemDocs>,
}

/// `snake_case` → `CamelCase` (a Rust variant's name from its serde name).
fn camel(snake: &str) -> String {
    snake
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// A JSDoc comment of `doc` (Rust doc lines) at `indent`, or nothing.
fn jsdoc(out: &mut String, doc: &[String], indent: &str) {
    let lines = doc_lines(doc);
    if lines.is_empty() {
        return;
    }
    if lines.len() == 1 {
        writeln!(out, "{indent}/** {} */", lines[0].replace("*/", "* /")).unwrap();
        return;
    }
    writeln!(out, "{indent}/**").unwrap();
    for line in lines {
        if line.is_empty() {
            writeln!(out, "{indent} *").unwrap();
        } else {
            writeln!(out, "{indent} * {}", line.replace("*/", "* /")).unwrap();
        }
    }
    writeln!(out, "{indent} */").unwrap();
}

/// A property name as TypeScript writes it.
fn property(name: &str) -> String {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        name.to_owned()
    } else {
        format!("{name:?}")
    }
}

impl Emitter<'_> {
    fn ty(&self, f: &Format) -> String {
        match f {
            Format::TypeName(name) => name.clone(),
            Format::Unit => "null".into(),
            Format::Bool => "boolean".into(),
            Format::I8 | Format::I16 | Format::I32 | Format::I64 | Format::I128 => "number".into(),
            Format::U8 | Format::U16 | Format::U32 | Format::U64 | Format::U128 => "number".into(),
            Format::F32 | Format::F64 => "number".into(),
            Format::Char | Format::Str => "string".into(),
            Format::Bytes => "number[]".into(),
            Format::Option(inner) => format!("{} | null", self.ty(inner)),
            Format::Seq(inner) => {
                let t = self.ty(inner);
                if t.contains(' ') {
                    format!("({t})[]")
                } else {
                    format!("{t}[]")
                }
            }
            Format::Map { value, .. } => format!("Record<string, {}>", self.ty(value)),
            Format::Tuple(items) => {
                format!(
                    "[{}]",
                    items
                        .iter()
                        .map(|i| self.ty(i))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
            Format::TupleArray { content, size } if *size <= 8 => {
                format!("[{}]", vec![self.ty(content); *size].join(", "))
            }
            Format::TupleArray { content, .. } => self.ty(&Format::Seq(content.clone())),
            Format::Variable(_) => panic!("an unresolved format"),
        }
    }

    /// The fields of struct `owner` (`Type` or `Enum.variant`) at `indent`.
    fn fields(
        &self,
        out: &mut String,
        owner: &str,
        fields: &[Named<Format>],
        docs: Option<&BTreeMap<String, Vec<String>>>,
        answer: bool,
        indent: &str,
    ) {
        for field in fields {
            if let Some(doc) = docs.and_then(|d| d.get(&field.name)) {
                jsdoc(out, doc, indent);
            }
            let key = (owner.to_owned(), field.name.clone());
            let is_option = matches!(field.value, Format::Option(_));
            let optional = self.shown.left_out.contains(&key) || (answer && is_option);
            let mark = if optional { "?" } else { "" };
            writeln!(
                out,
                "{indent}{}{mark}: {};",
                property(&field.name),
                self.ty(&field.value)
            )
            .unwrap();
        }
    }

    /// The declaration of type `name` at `indent`; `rules`: MatchStart's generic rules.
    fn declare(&self, out: &mut String, name: &str, indent: &str, rules: bool) {
        let docs = self.docs.get(name);
        let answer = self.answers.contains(name);
        let mut doc = docs.map(|d| d.doc.clone()).unwrap_or_default();
        match &self.registry[name] {
            ContainerFormat::Struct(fields) => {
                jsdoc(out, &doc, indent);
                let generic = if rules { "<R = unknown>" } else { "" };
                writeln!(out, "{indent}interface {name}{generic} {{").unwrap();
                let inner = format!("{indent}  ");
                if rules {
                    let fields: Vec<Named<Format>> = fields
                        .iter()
                        .map(|f| Named {
                            name: f.name.clone(),
                            value: if f.name == "rules" {
                                Format::TypeName("R".into())
                            } else {
                                f.value.clone()
                            },
                        })
                        .collect();
                    self.fields(out, name, &fields, docs.map(|d| &d.fields), answer, &inner);
                } else {
                    self.fields(out, name, fields, docs.map(|d| &d.fields), answer, &inner);
                }
                writeln!(out, "{indent}}}").unwrap();
            }
            ContainerFormat::UnitStruct => {
                jsdoc(out, &doc, indent);
                writeln!(out, "{indent}type {name} = null;").unwrap();
            }
            ContainerFormat::NewTypeStruct(inner) => {
                jsdoc(out, &doc, indent);
                writeln!(out, "{indent}type {name} = {};", self.ty(inner)).unwrap();
            }
            ContainerFormat::TupleStruct(items) => {
                jsdoc(out, &doc, indent);
                writeln!(
                    out,
                    "{indent}type {name} = {};",
                    self.ty(&Format::Tuple(items.clone()))
                )
                .unwrap();
            }
            ContainerFormat::Enum(variants) => {
                let mut members = Vec::new();
                let mut variant_docs = Vec::new();
                for v in variants.values() {
                    let vdocs = docs.and_then(|d| d.variants.get(&camel(&v.name)));
                    if let Some(vd) = vdocs
                        && !vd.doc.is_empty()
                    {
                        variant_docs.push(format!("- `{}`: {}", v.name, vd.doc.join(" ")));
                    }
                    let key = property(&v.name);
                    members.push(match &v.value {
                        VariantFormat::Unit => format!("{:?}", v.name),
                        VariantFormat::NewType(inner) => format!("{{ {key}: {} }}", self.ty(inner)),
                        VariantFormat::Tuple(items) => {
                            format!("{{ {key}: {} }}", self.ty(&Format::Tuple(items.clone())))
                        }
                        VariantFormat::Struct(fields) => {
                            let mut body = String::new();
                            let owner = format!("{name}.{}", v.name);
                            let inner_indent = format!("{indent}      ");
                            self.fields(
                                &mut body,
                                &owner,
                                fields,
                                vdocs.map(|d| &d.fields),
                                answer,
                                &inner_indent,
                            );
                            format!(
                                "{{\n{indent}    {key}: {{\n{body}{indent}    }};\n{indent}  }}"
                            )
                        }
                        VariantFormat::Variable(_) => panic!("an unresolved variant"),
                    });
                }
                if !variant_docs.is_empty() {
                    if !doc.is_empty() {
                        doc.push(String::new());
                    }
                    for line in variant_docs {
                        doc.push(line);
                        doc.push(String::new());
                    }
                }
                jsdoc(out, &doc, indent);
                if members.iter().all(|m| !m.contains('\n')) && members.join(" | ").len() < 80 {
                    writeln!(out, "{indent}type {name} = {};", members.join(" | ")).unwrap();
                } else {
                    writeln!(out, "{indent}type {name} =").unwrap();
                    let last = members.len() - 1;
                    for (k, m) in members.iter().enumerate() {
                        let end = if k == last { ";" } else { "" };
                        writeln!(out, "{indent}  | {m}{end}").unwrap();
                    }
                }
            }
        }
    }
}

/// The generated file.
fn generated(modes: &[Mode]) -> String {
    let source = |file: &str| std::fs::read_to_string(root().join(file)).unwrap();
    let mut out = String::new();
    writeln!(
        out,
        "// The protocol's types, generated from the Rust SDK's types (sdk/src/*.rs) by\n\
         // tests/js_sdk.rs: do not edit; regenerate with\n// {REGENERATE}\n\
         // The API (arena.playBattle, …) is in arena.d.ts.\n\ndeclare namespace arena {{"
    )
    .unwrap();
    for (k, mode) in modes.iter().enumerate() {
        let mut shown = Shown::default();
        for s in &mode.samples {
            let v: Value = serde_json::from_str(&s.json).unwrap();
            walk(&mode.traced.registry, &s.format, &v, &mut shown, s.kind);
        }
        let mut docs = read_docs(&source("sdk/src/protocol.rs"));
        docs.extend(read_docs(&source("sdk/src/pos.rs")));
        docs.extend(read_docs(&source(&format!("sdk/src/{}.rs", mode.name))));
        if k == 0 {
            // The shared types, from one mode's registry (the same in every one).
            let emitter = Emitter {
                registry: &mode.traced.registry,
                answers: &BTreeSet::new(),
                shown: &shown,
                docs: &docs,
            };
            for name in COMMON.iter().filter(|n| **n != "Request") {
                emitter.declare(&mut out, name, "  ", *name == "MatchStart");
                out.push('\n');
            }
        }
        let emitter = Emitter {
            registry: &mode.traced.registry,
            answers: &mode.traced.answers,
            shown: &shown,
            docs: &docs,
        };
        writeln!(
            out,
            "  /** Mode {}: docs/rules/{}.md. */",
            mode.name, mode.name
        )
        .unwrap();
        writeln!(out, "  namespace {} {{", mode.name).unwrap();
        let types: Vec<&String> = mode
            .traced
            .reachable
            .iter()
            .filter(|n| !COMMON.contains(&n.as_str()))
            .collect();
        for (i, name) in types.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            emitter.declare(&mut out, name, "    ", false);
        }
        let choice = emitter.ty(&mode.traced.choice);
        let action = emitter.ty(&mode.traced.action);
        writeln!(
            out,
            "\n    /** A {0} bot: what `arena.play{1}` takes. */\n    \
             interface Bot extends arena.Bot<Rules, SetupRequest, {choice}, Observation, {action}> {{}}",
            mode.name,
            camel(mode.name),
        )
        .unwrap();
        writeln!(out, "  }}").unwrap();
        if k + 1 < modes.len() {
            out.push('\n');
        }
    }
    writeln!(out, "}}").unwrap();
    out
}

#[test]
fn the_typescript_types_are_generated_from_the_rust_sdk_types() {
    let expected = generated(&modes());
    let full = root().join(PATH);
    let current = std::fs::read_to_string(&full).unwrap_or_default();
    if current == expected {
        return;
    }
    if std::env::var_os("ARENA_UPDATE_DOCS").is_some() {
        std::fs::write(&full, &expected).unwrap();
        return;
    }
    let (line, file, generated) = first_difference(&current, &expected);
    panic!(
        "{PATH} is not what the SDK types generate, from its line {line}:\n  file:      \
         {file:?}\n  generated: {generated:?}\nregenerate it with {REGENERATE}"
    );
}

#[test]
fn the_typescript_declarations_compile() {
    let tsc = root().join("sample-bots/ts-starter/node_modules/typescript/bin/tsc");
    let node_runs = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !node_runs || !tsc.is_file() {
        assert!(
            std::env::var_os("ARENA_REQUIRE_TS").is_none(),
            "ARENA_REQUIRE_TS is set but node or {} is missing",
            tsc.display()
        );
        eprintln!("skipped: node and `npm ci` in sample-bots/ts-starter are needed");
        return;
    }
    let output = std::process::Command::new("node")
        .arg(&tsc)
        .args([
            "--noEmit", "--strict", "--target", "es2022", "--lib", "es2022",
        ])
        .arg(root().join("sdk/js/arena.d.ts"))
        .arg(root().join(PATH))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "tsc: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
