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
//! read from real JSON, as for Go: every request and answer of games between the built-ins
//! (`tests/samples.rs`, shared with the Go and Python generators).
//! With `node` and the starter's TypeScript installed (`npm ci` in sample-bots/ts-starter),
//! `tsc` type-checks it and the API declarations (`sdk/js/arena.d.ts`) too.

use arena_tests::root;
use reflect::first_difference;
use samples::{ItemDocs, Mode, Shown, camel, modes, paragraphs, shared_types};
use serde_reflection::{ContainerFormat, Format, Named, Registry, VariantFormat};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

#[path = "reflect.rs"]
mod reflect;
#[path = "samples.rs"]
mod samples;

/// The command that regenerates the file, for its header and messages.
const REGENERATE: &str = "ARENA_UPDATE_DOCS=1 cargo test -p arena-tests --test js_sdk";

/// The generated file, from the repository root.
const PATH: &str = "sdk/js/protocol.d.ts";

// ---------------------------------------------------------------------------------------
// TypeScript

/// What one namespace's emitter needs.
struct Emitter<'a> {
    registry: &'a Registry,
    answers: &'a BTreeSet<String>,
    shown: &'a Shown,
    docs: &'a BTreeMap<String, ItemDocs>,
}

/// A JSDoc comment of `doc` (Rust doc lines) at `indent`, or nothing.
fn jsdoc(out: &mut String, doc: &[String], indent: &str) {
    let lines = paragraphs(doc);
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
    let mut out = String::new();
    writeln!(
        out,
        "// The protocol's types, generated from the Rust SDK's types (sdk/src/*.rs) by\n\
         // tests/js_sdk.rs: do not edit; regenerate with\n// {REGENERATE}\n\
         // The API (arena.playBattle, …) is in arena.d.ts.\n\ndeclare namespace arena {{"
    )
    .unwrap();
    for (k, mode) in modes.iter().enumerate() {
        let shown = mode.shown("TypeScript");
        let docs = mode.docs();
        if k == 0 {
            // The shared types, from one mode's registry (the same in every one).
            let emitter = Emitter {
                registry: &mode.traced.registry,
                answers: &BTreeSet::new(),
                shown: &shown,
                docs: &docs,
            };
            for name in shared_types() {
                emitter.declare(&mut out, &name, "  ", name == "MatchStart");
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
        let types = mode.types();
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
