//! The Go SDK's protocol types (`sdk/go/<mode>/types.go`, and `sdk/go/arena/types.go` for
//! the types every mode shares) are generated here from the Rust SDK's types, traced with
//! `serde-reflection` as `tests/abi_doc.rs` traces them, and the test fails when the
//! committed files say anything else — so the Go types cannot drift from the protocol.
//! After a deliberate change to a protocol type, regenerate them with
//! `ARENA_UPDATE_DOCS=1 cargo test -p arena-tests --test go_sdk` and review the diff.
//!
//! What a trace cannot see is read from real JSON: every request and answer of games
//! between the built-ins (and a few answers the built-ins never give) is walked against the
//! traced formats (the tracing, the games and the walk are `tests/samples.rs`, shared with
//! the Python and TypeScript generators). That finds the fields the SDK leaves out of JSON (an optional field
//! left out when `None` by `serialize_omitting_none_in_text!`, a tcg card's zero amounts),
//! which become `omitempty`, and fails on JSON of another shape than the trace (a
//! hand-written `Serialize` the trace cannot see). When Go is installed, `go test` in
//! `sdk/go` then decodes and re-encodes every one of those JSON texts with the generated
//! types and checks that the bytes come back unchanged; `gofmt` checks the generated text.
//!
//! The mapping (serde's JSON, externally tagged enums): a struct is a Go struct with
//! `json:"name"` tags; `Option<T>` is `*T`; `Vec<T>` a slice (`Vec<u8>` the package's
//! `Uint8s`, which encoding/json writes as an array, not base64); `[T; N]` a Go array;
//! integers the Go integers of the same width; an enum of unit variants a `string` type
//! with one constant per variant; an enum with data a struct of one field per variant
//! (`bool` for a unit variant, a pointer for the others) whose `MarshalJSON` and
//! `UnmarshalJSON` speak serde's form, with a constructor per variant and `Equal`. The
//! code they share is not generated: it is package `wire` (`sdk/go/internal/wire`), which
//! the generated files call.
//!
//! The binary encoding (docs/abi.md, "Encodings"): every type a request holds gets a
//! `DecodeBinary(*wire.Reader)` and every type of an answer an `EncodeBinary(*wire.Writer)`,
//! postcard's layout of the traced format. `go test` decodes the host's binary encoding of
//! every sample request and compares the values with the JSON's (by their JSON), and writes
//! the binary response of every sample answer, which postcard must read back here.

use arena_sdk::Game;
use arena_tests::root;
use samples::{
    ItemDocs, Mode, Shown, camel, check_files, installed, modes, paragraphs, read_docs,
    shared_types, snake, source,
};
use serde_reflection::{ContainerFormat, Format, Named, Registry, VariantFormat};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::LazyLock;

#[path = "reflect.rs"]
mod reflect;
#[path = "samples.rs"]
mod samples;

/// The command that regenerates the files, for the header and messages.
const REGENERATE: &str = "ARENA_UPDATE_DOCS=1 cargo test -p arena-tests --test go_sdk";

// ---------------------------------------------------------------------------------------
// Go

const KEYWORDS: [&str; 25] = [
    "break",
    "case",
    "chan",
    "const",
    "continue",
    "default",
    "defer",
    "else",
    "fallthrough",
    "for",
    "func",
    "go",
    "goto",
    "if",
    "import",
    "interface",
    "map",
    "package",
    "range",
    "return",
    "select",
    "struct",
    "switch",
    "type",
    "var",
];

/// Words written in capitals in Go names (`max_hp` → `MaxHP`).
const INITIALISMS: [&str; 6] = ["id", "uid", "hp", "mp", "xp", "abi"];

/// `max_hp` → `MaxHP`, `play_card` → `PlayCard`.
fn exported(snake: &str) -> String {
    snake
        .split('_')
        .map(|word| {
            if INITIALISMS.contains(&word) {
                word.to_uppercase()
            } else {
                camel(word)
            }
        })
        .collect()
}

/// `legal_targets` → `legalTargets` (a parameter name; keywords get a `_`).
fn local(snake: &str) -> String {
    let mut words = snake.split('_');
    let mut out = words.next().unwrap_or_default().to_owned();
    out.extend(words.map(exported));
    if KEYWORDS.contains(&out.as_str()) {
        out.push('_');
    }
    out
}

/// The name of the `wire.Reader` and `wire.Writer` methods of a primitive format.
fn primitive(f: &Format) -> Option<&'static str> {
    Some(match f {
        Format::Bool => "Bool",
        Format::I8 => "I8",
        Format::I16 => "I16",
        Format::I32 => "I32",
        Format::I64 => "I64",
        Format::U8 => "U8",
        Format::U16 => "U16",
        Format::U32 => "U32",
        Format::U64 => "U64",
        Format::Str => "String",
        _ => return None,
    })
}

/// How a Go value of a type is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Equality {
    /// With `==`.
    Plain,
    /// With its generated `Equal` method (it holds pointers).
    Method,
    /// Not at all (it holds slices).
    None,
}

/// A line of a declaration block: aligned cells (as gofmt aligns them in consecutive
/// lines), or text that breaks the alignment (a comment).
enum Line {
    Cells(Vec<String>),
    Text(String),
}

/// The lines, indented by one tab, aligned as gofmt aligns them: consecutive lines of
/// cells (a comment line ends a run) pad each cell but the last to the run's widest + 1.
fn aligned(lines: &[Line]) -> String {
    let mut out = String::new();
    let mut k = 0;
    while k < lines.len() {
        match &lines[k] {
            Line::Text(text) => {
                out += &format!("\t{text}\n");
                k += 1;
            }
            Line::Cells(_) => {
                let run: Vec<&Vec<String>> = lines[k..]
                    .iter()
                    .map_while(|l| match l {
                        Line::Cells(c) => Some(c),
                        Line::Text(_) => None,
                    })
                    .collect();
                let columns = run[0].len();
                assert!(run.iter().all(|c| c.len() == columns), "ragged block");
                let widths: Vec<usize> = (0..columns)
                    .map(|col| run.iter().map(|c| c[col].chars().count()).max().unwrap())
                    .collect();
                for cells in &run {
                    let mut line = String::from("\t");
                    for (col, cell) in cells.iter().enumerate() {
                        line += cell;
                        if col + 1 < columns {
                            line += &" ".repeat(widths[col] - cell.chars().count() + 1);
                        }
                    }
                    out += line.trim_end();
                    out.push('\n');
                }
                k += run.len();
            }
        }
    }
    out
}

fn comment(doc: &[String], indent: &str) -> String {
    doc.iter()
        .map(|l| {
            if l.is_empty() {
                format!("{indent}//\n")
            } else {
                format!("{indent}// {l}\n")
            }
        })
        .collect()
}

fn comment_lines(doc: &[String]) -> Vec<Line> {
    doc.iter()
        .map(|l| {
            Line::Text(if l.is_empty() {
                "//".into()
            } else {
                format!("// {l}")
            })
        })
        .collect()
}

/// One Go file of generated types.
struct GoPackage<'a> {
    package: &'a str,
    /// The Rust files the types come from, for the header and their doc comments.
    sources: Vec<&'a str>,
    registry: &'a Registry,
    types: Vec<String>,
    answers: &'a BTreeSet<String>,
    /// Types a request holds (they get a binary decoder; the answers' types an encoder).
    requests: &'a BTreeSet<String>,
    shown: &'a Shown,
    docs: BTreeMap<String, ItemDocs>,
    /// `MatchStart`'s rules are a type parameter: each mode has its own `Rules`.
    generic_rules: bool,
    /// Whether the code uses `Uint8s` (declared once at the end).
    uint8s: bool,
    /// Package-level names, to catch a clash.
    declared: BTreeSet<String>,
}

impl GoPackage<'_> {
    fn declare(&mut self, name: &str) {
        assert!(
            self.declared.insert(name.to_owned()),
            "package {}: the Go name `{name}` is declared twice; name the Rust items apart",
            self.package
        );
    }

    fn go_type(&mut self, f: &Format) -> String {
        match f {
            Format::TypeName(name) if self.generic_rules && name == "Rules" => "R".into(),
            Format::TypeName(name) => name.clone(),
            Format::Unit => "struct{}".into(),
            Format::Bool => "bool".into(),
            Format::I8 => "int8".into(),
            Format::I16 => "int16".into(),
            Format::I32 => "int32".into(),
            Format::I64 => "int64".into(),
            Format::U8 => "uint8".into(),
            Format::U16 => "uint16".into(),
            Format::U32 => "uint32".into(),
            Format::U64 => "uint64".into(),
            Format::Str => "string".into(),
            Format::Option(inner) => format!("*{}", self.go_type(inner)),
            Format::Seq(inner) if **inner == Format::U8 => {
                self.uint8s = true;
                "Uint8s".into()
            }
            Format::Seq(inner) => format!("[]{}", self.go_type(inner)),
            Format::TupleArray { content, size } => format!("[{size}]{}", self.go_type(content)),
            Format::Map { key, value } if **key == Format::Str => {
                format!("map[string]{}", self.go_type(value))
            }
            other => panic!("no Go type for {other:?} yet: add it to go_type"),
        }
    }

    fn container(&self, name: &str) -> &ContainerFormat {
        &self.registry[name]
    }

    fn is_data_enum(&self, name: &str) -> bool {
        matches!(self.container(name), ContainerFormat::Enum(v)
            if v.values().any(|v| !matches!(v.value, VariantFormat::Unit)))
    }

    fn equality(&self, f: &Format) -> Equality {
        match f {
            Format::TypeName(name) if self.generic_rules && name == "Rules" => Equality::None,
            Format::TypeName(name) => match self.container(name) {
                ContainerFormat::Struct(fields) => self.fields_equality(fields),
                ContainerFormat::Enum(variants) => {
                    if !self.is_data_enum(name) {
                        return Equality::Plain;
                    }
                    let none = variants.values().any(|v| match &v.value {
                        VariantFormat::NewType(inner) => self.equality(inner) == Equality::None,
                        VariantFormat::Struct(fields) => {
                            self.fields_equality(fields) == Equality::None
                        }
                        _ => false,
                    });
                    if none {
                        Equality::None
                    } else {
                        Equality::Method
                    }
                }
                _ => Equality::None,
            },
            Format::Option(inner) => match self.equality(inner) {
                Equality::None => Equality::None,
                _ => Equality::Method,
            },
            Format::Seq(_) | Format::Map { .. } => Equality::None,
            Format::TupleArray { content, .. } => match self.equality(content) {
                Equality::Plain => Equality::Plain,
                _ => Equality::None,
            },
            _ => Equality::Plain,
        }
    }

    fn fields_equality(&self, fields: &[Named<Format>]) -> Equality {
        let each: Vec<Equality> = fields.iter().map(|f| self.equality(&f.value)).collect();
        if each.contains(&Equality::None) {
            Equality::None
        } else if each.contains(&Equality::Method) {
            Equality::Method
        } else {
            Equality::Plain
        }
    }

    /// The Go expression comparing `x.F` and `y.F`.
    fn compare(&mut self, field: &str, f: &Format) -> String {
        match f {
            Format::Option(inner) => match self.equality(inner) {
                Equality::Plain => format!("wire.EqualPtr(x.{field}, y.{field})"),
                _ => {
                    let t = self.go_type(inner);
                    format!("wire.EqualBy(x.{field}, y.{field}, {t}.Equal)")
                }
            },
            _ => match self.equality(f) {
                Equality::Method => format!("x.{field}.Equal(y.{field})"),
                _ => format!("x.{field} == y.{field}"),
            },
        }
    }

    fn docs_of(&self, name: &str) -> Option<&ItemDocs> {
        self.docs.get(name)
    }

    fn file(mut self) -> String {
        let mut body = String::new();
        for name in self.types.clone() {
            body += "\n";
            body += &self.declaration(&name);
        }
        let helpers = self.helper_code();
        let mut out = format!(
            "// Code generated by tests/go_sdk.rs from the Rust SDK ({}); DO NOT EDIT.\n\
             // Regenerate with {REGENERATE}.\n\npackage {}\n",
            self.sources.join(", "),
            self.package
        );
        // The generated code calls no package but the SDK's helpers.
        if body.contains("wire.") || helpers.contains("wire.") {
            out += "\nimport \"botarena.invalid/sdk/internal/wire\"\n";
        }
        out + &body + &helpers
    }

    fn declaration(&mut self, name: &str) -> String {
        let container = self.container(name).clone();
        match container {
            ContainerFormat::Struct(fields) => self.structure(name, name, &fields, None),
            ContainerFormat::Enum(variants) if !self.is_data_enum(name) => {
                self.unit_enum(name, &variants)
            }
            ContainerFormat::Enum(variants) => self.data_enum(name, &variants),
            other => panic!("{name}: no Go form for {other:?} yet"),
        }
    }

    fn field_docs(&self, owner: &str, variant: Option<&str>, field: &str) -> Vec<String> {
        let item = self.docs_of(owner);
        let docs = match variant {
            None => item.and_then(|i| i.fields.get(field)),
            Some(v) => item
                .and_then(|i| i.variants.get(v))
                .and_then(|v| v.fields.get(field)),
        };
        docs.map(|d| paragraphs(d)).unwrap_or_default()
    }

    /// A struct, or the data of a struct variant (`variant`: the enum and the variant's
    /// Rust name).
    fn structure(
        &mut self,
        go_name: &str,
        owner: &str,
        fields: &[Named<Format>],
        variant: Option<(&str, &str, &str)>,
    ) -> String {
        self.declare(go_name);
        let (doc, shown_as, doc_owner) = match variant {
            None => (
                self.docs_of(owner)
                    .map(|d| paragraphs(&d.doc))
                    .unwrap_or_default(),
                owner.to_owned(),
                owner.to_owned(),
            ),
            Some((enum_name, rust_variant, serde_name)) => (
                vec![format!(
                    "{go_name} is the data of {enum_name}'s variant {serde_name}."
                )],
                format!("{enum_name}.{serde_name}"),
                rust_variant.to_owned(),
            ),
        };
        let mut out = comment(&doc, "");
        let params = if self.generic_rules && owner == "MatchStart" {
            "[R any]"
        } else {
            ""
        };
        if fields.is_empty() {
            out += &format!("type {go_name}{params} struct{{}}\n");
        } else {
            out += &format!("type {go_name}{params} struct {{\n");
            let mut lines = Vec::new();
            for field in fields {
                let docs = match variant {
                    None => self.field_docs(&doc_owner, None, &field.name),
                    Some((enum_name, rust_variant, _)) => {
                        self.field_docs(enum_name, Some(rust_variant), &field.name)
                    }
                };
                lines.extend(comment_lines(&docs));
                let omit = self.omitempty(&shown_as, &field.name, &field.value);
                let tag = format!(
                    "`json:\"{}{}\"`",
                    field.name,
                    if omit { ",omitempty" } else { "" }
                );
                lines.push(Line::Cells(vec![
                    exported(&field.name),
                    self.go_type(&field.value),
                    tag,
                ]));
            }
            out += &aligned(&lines);
            out += "}\n";
        }
        if !(self.generic_rules && owner == "MatchStart") {
            out += &self.answer_marshal(go_name, &shown_as, fields);
            if self.fields_equality(fields) == Equality::Method {
                out += &self.struct_equal(go_name, fields);
            }
            let root = shown_as.split('.').next().unwrap_or(&shown_as).to_owned();
            if self.requests.contains(&root) {
                let mut body = Vec::new();
                for f in fields {
                    self.decode(&format!("x.{}", exported(&f.name)), &f.value, 1, &mut body);
                }
                out += &Self::binary_method(go_name, true, &body);
            }
            if self.answers.contains(&root) {
                let mut body = Vec::new();
                for f in fields {
                    self.encode(&format!("x.{}", exported(&f.name)), &f.value, 1, &mut body);
                }
                out += &Self::binary_method(go_name, false, &body);
            }
        }
        out
    }

    /// Whether the field is `omitempty`: only if the JSON leaves it out when empty.
    fn omitempty(&self, owner: &str, field: &str, f: &Format) -> bool {
        let key = (owner.to_owned(), field.to_owned());
        let left_out = self.shown.left_out.contains(&key);
        let seen = self.shown.seen.contains(owner);
        assert!(
            seen,
            "{owner} never appears in the sample JSON: add a sample that has one"
        );
        match f {
            Format::Option(_) => {
                let null = self.shown.null.contains(&key);
                assert!(
                    !(left_out && null),
                    "{owner}.{field}: None is sometimes left out, sometimes null"
                );
                assert!(
                    left_out || null,
                    "{owner}.{field}: no sample shows how None is written; add one"
                );
                left_out
            }
            _ => {
                assert!(
                    !(left_out && self.shown.zero.contains(&key)),
                    "{owner}.{field} is sometimes left out, yet written when zero"
                );
                left_out
            }
        }
    }

    /// For a type a bot writes: a `MarshalJSON` that writes nil slices as `[]` (serde's
    /// empty `Vec`; the arena reads `null` as no list at all and refuses the answer).
    fn answer_marshal(&mut self, go_name: &str, owner: &str, fields: &[Named<Format>]) -> String {
        let root = owner.split('.').next().unwrap_or(owner);
        if !self.answers.contains(root) {
            return String::new();
        }
        let slices: Vec<(String, String)> = fields
            .iter()
            .filter(|f| matches!(f.value, Format::Seq(_)))
            .map(|f| (exported(&f.name), self.go_type(&f.value)))
            .collect();
        if slices.is_empty() {
            return String::new();
        }
        let mut out = format!(
            "\n// MarshalJSON writes {go_name} as serde does, nil slices as [] (the arena refuses\n\
             // null for a list).\n\
             func (x {go_name}) MarshalJSON() ([]byte, error) {{\n\ttype plain {go_name}\n"
        );
        for (field, t) in slices {
            out += &format!("\tif x.{field} == nil {{\n\t\tx.{field} = {t}{{}}\n\t}}\n");
        }
        out += "\treturn wire.MarshalPlain(plain(x))\n}\n";
        out
    }

    fn struct_equal(&mut self, go_name: &str, fields: &[Named<Format>]) -> String {
        let terms: Vec<String> = fields
            .iter()
            .map(|f| self.compare(&exported(&f.name), &f.value))
            .collect();
        format!(
            "\n// Equal reports whether x and y hold the same values.\n\
             func (x {go_name}) Equal(y {go_name}) bool {{\n\treturn {}\n}}\n",
            terms.join(" &&\n\t\t")
        )
    }

    /// The Go name of a variant's constant or constructor: bare for the turn answer
    /// (`battle.Attack`, `grid.North`), else prefixed with its type (`tcg.TargetHero`).
    fn variant_name(enum_name: &str, variant: &str) -> String {
        if enum_name == "Action" {
            exported(variant)
        } else {
            format!("{enum_name}{}", exported(variant))
        }
    }

    fn variant_doc(&self, enum_name: &str, serde_name: &str) -> (String, Vec<String>) {
        let item = self.docs_of(enum_name);
        let found = item.and_then(|i| {
            i.variants
                .iter()
                .find(|(rust, _)| snake(rust) == serde_name)
                .map(|(rust, d)| (rust.clone(), paragraphs(&d.doc)))
        });
        found.unwrap_or_else(|| (exported(serde_name), Vec::new()))
    }

    fn unit_enum(&mut self, name: &str, variants: &BTreeMap<u32, Named<VariantFormat>>) -> String {
        self.declare(name);
        let doc = self
            .docs_of(name)
            .map(|d| paragraphs(&d.doc))
            .unwrap_or_default();
        let mut out = comment(&doc, "");
        out += &format!("type {name} string\n\n// The values of {name}.\nconst (\n");
        let mut lines = Vec::new();
        for v in variants.values() {
            let constant = Self::variant_name(name, &v.name);
            self.declare(&constant);
            let (_, doc) = self.variant_doc(name, &v.name);
            lines.extend(comment_lines(&doc));
            lines.push(Line::Cells(vec![
                constant,
                name.to_owned(),
                format!("= \"{}\"", v.name),
            ]));
        }
        out += &aligned(&lines);
        out += ")\n";
        let what = format!("{}.{name}", self.package);
        if self.requests.contains(name) {
            let mut body = vec!["\tswitch index := r.Variant(); index {".to_owned()];
            for (index, v) in variants {
                body.push(format!("\tcase {index}:"));
                body.push(format!("\t\t*x = {}", Self::variant_name(name, &v.name)));
            }
            body.push("\tdefault:".into());
            body.push(format!("\t\tr.Unknown(\"{what}\", index)"));
            body.push("\t}".into());
            out += &Self::binary_method(name, true, &body);
        }
        if self.answers.contains(name) {
            let mut body = vec!["\tswitch x {".to_owned()];
            for (index, v) in variants {
                body.push(format!("\tcase {}:", Self::variant_name(name, &v.name)));
                body.push(format!("\t\tw.Variant({index})"));
            }
            body.push("\tdefault:".into());
            body.push(format!("\t\tw.Unknown(\"{what}\", string(x))"));
            body.push("\t}".into());
            out += &Self::binary_method(name, false, &body);
        }
        out
    }

    fn data_enum(&mut self, name: &str, variants: &BTreeMap<u32, Named<VariantFormat>>) -> String {
        self.declare(name);
        let doc = self
            .docs_of(name)
            .map(|d| paragraphs(&d.doc))
            .unwrap_or_default();
        let forms: Vec<String> = variants
            .values()
            .map(|v| match v.value {
                VariantFormat::Unit => format!("\"{}\"", v.name),
                _ => format!("{{\"{}\": …}}", v.name),
            })
            .collect();
        let mut out = comment(&doc, "");
        if !doc.is_empty() {
            out += "//\n";
        }
        out += &format!(
            "// A variant of the Rust enum: set exactly one field, or build it with {}. In JSON\n\
             // it is {}.\n",
            variants
                .values()
                .map(|v| match v.value {
                    VariantFormat::Unit => format!("{}()", Self::variant_name(name, &v.name)),
                    _ => format!("{}(…)", Self::variant_name(name, &v.name)),
                })
                .collect::<Vec<_>>()
                .join(", "),
            forms.join(" or ")
        );
        out += &format!("type {name} struct {{\n");
        let mut lines = Vec::new();
        // Field, Go type of the data (None: unit), Rust variant name, serde name.
        let mut parts: Vec<(String, Option<String>, String, String)> = Vec::new();
        let mut extra = String::new();
        for v in variants.values() {
            let (rust, doc) = self.variant_doc(name, &v.name);
            lines.extend(comment_lines(&doc));
            let field = exported(&v.name);
            let data = match &v.value {
                VariantFormat::Unit => None,
                VariantFormat::NewType(inner) => Some(self.go_type(inner)),
                VariantFormat::Struct(fields) => {
                    let payload = format!("{name}{field}");
                    extra += "\n";
                    extra +=
                        &self.structure(&payload, &payload, fields, Some((name, &rust, &v.name)));
                    Some(payload)
                }
                other => panic!("{name}::{}: no Go form for {other:?} yet", v.name),
            };
            lines.push(Line::Cells(vec![
                field.clone(),
                data.as_ref().map_or("bool".into(), |t| format!("*{t}")),
            ]));
            parts.push((field, data, rust, v.name.clone()));
        }
        out += &aligned(&lines);
        out += "}\n";
        out += &extra;
        out += &self.data_enum_binary(name, variants, &parts);
        // Constructors.
        for ((field, data, _, serde_name), v) in parts.iter().zip(variants.values()) {
            let constructor = Self::variant_name(name, serde_name);
            self.declare(&constructor);
            out += &format!("\n// {constructor} is the {name} {serde_name}.\n");
            match (&v.value, data) {
                (VariantFormat::Unit, _) => {
                    out += &format!(
                        "func {constructor}() {name} {{\n\treturn {name}{{{field}: true}}\n}}\n"
                    );
                }
                (VariantFormat::NewType(_), Some(t)) => {
                    out += &format!(
                        "func {constructor}(value {t}) {name} {{\n\treturn {name}{{{field}: &value}}\n}}\n"
                    );
                }
                (VariantFormat::Struct(fields), Some(t)) => {
                    let mut params = Vec::new();
                    let mut inits = Vec::new();
                    for f in fields {
                        params.push(format!("{} {}", local(&f.name), self.go_type(&f.value)));
                        inits.push(format!("{}: {}", exported(&f.name), local(&f.name)));
                    }
                    out += &format!(
                        "func {constructor}({}) {name} {{\n\treturn {name}{{{field}: &{t}{{{}}}}}\n}}\n",
                        params.join(", "),
                        inits.join(", ")
                    );
                }
                _ => unreachable!(),
            }
        }
        // MarshalJSON.
        let set: Vec<String> = parts
            .iter()
            .map(|(field, data, _, _)| match data {
                None => format!("x.{field}"),
                Some(_) => format!("x.{field} != nil"),
            })
            .collect();
        out += &format!(
            "\n// MarshalJSON writes {name} as serde does.\n\
             func (x {name}) MarshalJSON() ([]byte, error) {{\n\
             \tif err := wire.OneSet(\"{}.{name}\", {}); err != nil {{\n\
             \t\treturn nil, err\n\
             \t}}\n\tswitch {{\n",
            self.package,
            set.join(", ")
        );
        for ((field, data, _, serde_name), v) in parts.iter().zip(variants.values()) {
            match data {
                None => {
                    out +=
                        &format!("\tcase x.{field}:\n\t\treturn []byte(`\"{serde_name}\"`), nil\n")
                }
                Some(_) => {
                    let value = match v.value {
                        VariantFormat::NewType(_) => format!("*x.{field}"),
                        _ => format!("x.{field}"),
                    };
                    out += &format!(
                        "\tcase x.{field} != nil:\n\t\treturn wire.MarshalVariant(\"{serde_name}\", {value})\n"
                    );
                }
            }
        }
        out += "\t}\n\treturn nil, nil\n}\n";
        // UnmarshalJSON.
        out += &format!(
            "\n// UnmarshalJSON reads serde's JSON of {name}.\n\
             func (x *{name}) UnmarshalJSON(data []byte) error {{\n\
             \tname, body, err := wire.UnmarshalVariant(\"{pkg}.{name}\", data)\n\
             \tif err != nil {{\n\t\treturn err\n\t}}\n\
             \t*x = {name}{{}}\n\tswitch name {{\n",
            pkg = self.package
        );
        for (field, data, _, serde_name) in &parts {
            match data {
                None => {
                    out +=
                        &format!("\tcase \"{serde_name}\":\n\t\tx.{field} = true\n\t\treturn nil\n")
                }
                Some(t) => {
                    out += &format!(
                        "\tcase \"{serde_name}\":\n\t\tx.{field} = new({t})\n\t\treturn wire.UnmarshalData(body, x.{field})\n"
                    )
                }
            }
        }
        out += &format!(
            "\t}}\n\treturn wire.UnknownVariant(\"{}.{name}\", name)\n}}\n",
            self.package
        );
        // Equal.
        if self.equality(&Format::TypeName(name.to_owned())) == Equality::Method {
            let mut terms = Vec::new();
            for ((field, data, _, _), v) in parts.iter().zip(variants.values()) {
                let term = match (&v.value, data) {
                    (VariantFormat::Unit, _) => format!("x.{field} == y.{field}"),
                    (VariantFormat::NewType(inner), _) => {
                        self.compare(field, &Format::Option(inner.clone()))
                    }
                    (_, Some(t)) => {
                        if self.fields_equality(match &v.value {
                            VariantFormat::Struct(fs) => fs,
                            _ => unreachable!(),
                        }) == Equality::Method
                        {
                            format!("wire.EqualBy(x.{field}, y.{field}, {t}.Equal)")
                        } else {
                            format!("wire.EqualPtr(x.{field}, y.{field})")
                        }
                    }
                    _ => unreachable!(),
                };
                terms.push(term);
            }
            out += &format!(
                "\n// Equal reports whether x and y are the same variant with the same data.\n\
                 func (x {name}) Equal(y {name}) bool {{\n\treturn {}\n}}\n",
                terms.join(" &&\n\t\t")
            );
        }
        out
    }

    /// A `DecodeBinary` (`decoder`) or `EncodeBinary` method of `go_name` with the body's
    /// lines.
    fn binary_method(go_name: &str, decoder: bool, body: &[String]) -> String {
        let head = if decoder {
            format!(
                "\n// DecodeBinary reads x in the binary encoding (docs/abi.md, \"Encodings\"); package\n\
                 // arena calls it.\n\
                 func (x *{go_name}) DecodeBinary(r *wire.Reader) {{"
            )
        } else {
            format!(
                "\n// EncodeBinary writes x in the binary encoding (docs/abi.md, \"Encodings\"); package\n\
                 // arena calls it.\n\
                 func (x {go_name}) EncodeBinary(w *wire.Writer) {{"
            )
        };
        if body.is_empty() {
            return head + "}\n";
        }
        let mut out = head + "\n";
        for line in body {
            out += line;
            out.push('\n');
        }
        out + "}\n"
    }

    /// Whether every value of the format takes at least one byte in the binary encoding
    /// (so that a count above the bytes left is malformed).
    fn takes_a_byte(&self, f: &Format) -> bool {
        match f {
            Format::Unit => false,
            Format::TupleArray { content, size } => *size > 0 && self.takes_a_byte(content),
            Format::Tuple(items) => items.iter().any(|i| self.takes_a_byte(i)),
            Format::TypeName(name) => match self.container(name) {
                ContainerFormat::Struct(fields) => {
                    fields.iter().any(|f| self.takes_a_byte(&f.value))
                }
                ContainerFormat::UnitStruct => false,
                ContainerFormat::NewTypeStruct(inner) => self.takes_a_byte(inner),
                ContainerFormat::TupleStruct(items) => items.iter().any(|i| self.takes_a_byte(i)),
                ContainerFormat::Enum(_) => true,
            },
            _ => true,
        }
    }

    /// The statements (indented by `depth` tabs) that read the value `lv` of format `f`.
    fn decode(&mut self, lv: &str, f: &Format, depth: usize, out: &mut Vec<String>) {
        let tabs = "\t".repeat(depth);
        let suffix = if depth > 1 {
            (depth - 1).to_string()
        } else {
            String::new()
        };
        if let Some(read) = primitive(f) {
            out.push(format!("{tabs}{lv} = r.{read}()"));
            return;
        }
        match f {
            Format::Unit => {}
            Format::TypeName(_) => out.push(format!("{tabs}{lv}.DecodeBinary(r)")),
            Format::Option(inner) => {
                let v = format!("v{suffix}");
                out.push(format!("{tabs}if r.Option() {{"));
                self.declare_decoded(&v, inner, depth + 1, out);
                out.push(format!("{tabs}\t{lv} = &{v}"));
                out.push(format!("{tabs}}}"));
            }
            Format::Seq(inner) => {
                assert!(
                    self.takes_a_byte(inner),
                    "a sequence of {inner:?}, whose items may take no byte: bound its count \
                     otherwise in the Go decoder"
                );
                let i = format!("i{suffix}");
                out.push(format!("{tabs}{lv} = make({}, r.Len())", self.go_type(f)));
                out.push(format!("{tabs}for {i} := range {lv} {{"));
                self.decode(&format!("{lv}[{i}]"), inner, depth + 1, out);
                out.push(format!("{tabs}}}"));
            }
            Format::TupleArray { content, .. } => {
                let i = format!("i{suffix}");
                out.push(format!("{tabs}for {i} := range {lv} {{"));
                self.decode(&format!("{lv}[{i}]"), content, depth + 1, out);
                out.push(format!("{tabs}}}"));
            }
            other => panic!("no binary decoder for {other:?} yet: add it to decode"),
        }
    }

    /// The statements that declare the local `v` and read it.
    fn declare_decoded(&mut self, v: &str, f: &Format, depth: usize, out: &mut Vec<String>) {
        let tabs = "\t".repeat(depth);
        match primitive(f) {
            Some(read) => out.push(format!("{tabs}{v} := r.{read}()")),
            None => {
                out.push(format!("{tabs}var {v} {}", self.go_type(f)));
                self.decode(v, f, depth, out);
            }
        }
    }

    /// The statements (indented by `depth` tabs) that write the value `x` of format `f`.
    fn encode(&mut self, x: &str, f: &Format, depth: usize, out: &mut Vec<String>) {
        let tabs = "\t".repeat(depth);
        let suffix = if depth > 1 {
            (depth - 1).to_string()
        } else {
            String::new()
        };
        if let Some(write) = primitive(f) {
            out.push(format!("{tabs}w.{write}({x})"));
            return;
        }
        match f {
            Format::Unit => {}
            Format::TypeName(_) => out.push(format!("{tabs}{x}.EncodeBinary(w)")),
            Format::Option(inner) => {
                out.push(format!("{tabs}if {x} == nil {{"));
                out.push(format!("{tabs}\tw.U8(0)"));
                out.push(format!("{tabs}}} else {{"));
                out.push(format!("{tabs}\tw.U8(1)"));
                self.encode(&Self::deref(x, inner), inner, depth + 1, out);
                out.push(format!("{tabs}}}"));
            }
            Format::Seq(inner) | Format::TupleArray { content: inner, .. } => {
                if matches!(f, Format::Seq(_)) {
                    out.push(format!("{tabs}w.Len(len({x}))"));
                }
                let v = format!("v{suffix}");
                out.push(format!("{tabs}for _, {v} := range {x} {{"));
                self.encode(&v, inner, depth + 1, out);
                out.push(format!("{tabs}}}"));
            }
            other => panic!("no binary encoder for {other:?} yet: add it to encode"),
        }
    }

    /// The value a pointer `x` to a value of format `f` points to, as the encoder writes it
    /// (a method call goes through the pointer).
    fn deref(x: &str, f: &Format) -> String {
        match f {
            Format::TypeName(_) => x.to_owned(),
            Format::Option(_) => panic!("no Go form for an option of an option"),
            _ => format!("*{x}"),
        }
    }

    /// The binary decoder and encoder of an enum with data (`parts`: field, Go type of the
    /// data, Rust name and serde name of each variant).
    fn data_enum_binary(
        &mut self,
        name: &str,
        variants: &BTreeMap<u32, Named<VariantFormat>>,
        parts: &[(String, Option<String>, String, String)],
    ) -> String {
        let what = format!("{}.{name}", self.package);
        let mut out = String::new();
        if self.requests.contains(name) {
            let mut body = vec![
                format!("\t*x = {name}{{}}"),
                "\tswitch index := r.Variant(); index {".to_owned(),
            ];
            for ((index, v), (field, data, _, _)) in variants.iter().zip(parts) {
                body.push(format!("\tcase {index}:"));
                match (&v.value, data) {
                    (VariantFormat::Unit, _) => body.push(format!("\t\tx.{field} = true")),
                    (VariantFormat::NewType(inner), Some(_)) => {
                        self.declare_decoded("v", inner, 2, &mut body);
                        body.push(format!("\t\tx.{field} = &v"));
                    }
                    (_, Some(t)) => {
                        body.push(format!("\t\tvar v {t}"));
                        body.push("\t\tv.DecodeBinary(r)".into());
                        body.push(format!("\t\tx.{field} = &v"));
                    }
                    _ => unreachable!(),
                }
            }
            body.push("\tdefault:".into());
            body.push(format!("\t\tr.Unknown(\"{what}\", index)"));
            body.push("\t}".into());
            out += &Self::binary_method(name, true, &body);
        }
        if self.answers.contains(name) {
            let set: Vec<String> = parts
                .iter()
                .map(|(field, data, _, _)| match data {
                    None => format!("x.{field}"),
                    Some(_) => format!("x.{field} != nil"),
                })
                .collect();
            let mut body = vec![
                format!(
                    "\tif err := wire.OneSet(\"{what}\", {}); err != nil {{",
                    set.join(", ")
                ),
                "\t\tw.Fail(err)".into(),
                "\t\treturn".into(),
                "\t}".into(),
                "\tswitch {".into(),
            ];
            for (((index, v), (field, _, _, _)), test) in variants.iter().zip(parts).zip(&set) {
                body.push(format!("\tcase {test}:"));
                body.push(format!("\t\tw.Variant({index})"));
                match &v.value {
                    VariantFormat::Unit => {}
                    VariantFormat::NewType(inner) => {
                        let x = Self::deref(&format!("x.{field}"), inner);
                        self.encode(&x, inner, 2, &mut body);
                    }
                    _ => body.push(format!("\t\tx.{field}.EncodeBinary(w)")),
                }
            }
            body.push("\t}".into());
            out += &Self::binary_method(name, false, &body);
        }
        out
    }

    /// The `Uint8s` type, if the package uses it (its code is in package wire).
    fn helper_code(&self) -> String {
        if !self.uint8s {
            return String::new();
        }
        "\n// Uint8s is a []uint8 written as a JSON array of numbers, as serde writes a Vec<u8>\n\
         // (encoding/json would write a []byte as a base64 string).\n\
         type Uint8s []uint8\n\n\
         // MarshalJSON writes the numbers.\n\
         func (s Uint8s) MarshalJSON() ([]byte, error) {\n\
         \treturn wire.MarshalUint8s(s), nil\n}\n"
            .into()
    }
}

// ---------------------------------------------------------------------------------------
// The model: what the tests check, from every mode traced and sampled

/// The JSON of the answer in a binary response (`kind`: "choice" or "action"), read with
/// postcard as the host reads it: `Result<answer, String>`, nothing after it.
fn binary_answer<G: Game>(kind: &str, bytes: &[u8]) -> Result<String, String> {
    fn read<T: serde::de::DeserializeOwned + serde::Serialize>(
        bytes: &[u8],
    ) -> Result<String, String> {
        let (value, rest) = postcard::take_from_bytes::<Result<T, String>>(bytes)
            .map_err(|e| format!("postcard cannot read it: {e}"))?;
        if !rest.is_empty() {
            return Err(format!("{} bytes after the answer", rest.len()));
        }
        let value = value.map_err(|e| format!("an error answer: {e}"))?;
        Ok(serde_json::to_string(&value).unwrap())
    }
    match kind {
        "choice" => read::<G::SetupChoice>(bytes),
        _ => read::<G::Action>(bytes),
    }
}

/// Each mode's [`binary_answer`].
fn binary_answer_of(mode: &str) -> fn(&str, &[u8]) -> Result<String, String> {
    use arena_sdk::{battle, conquest, dungeon, grid, tcg};
    match mode {
        "battle" => binary_answer::<battle::Battle>,
        "tcg" => binary_answer::<tcg::Tcg>,
        "grid" => binary_answer::<grid::Grid>,
        "dungeon" => binary_answer::<dungeon::Dungeon>,
        "conquest" => binary_answer::<conquest::Conquest>,
        other => panic!("unknown mode {other}"),
    }
}

/// registries themselves cannot be shared between threads.
struct Model {
    files: Vec<(String, String)>,
    samples: String,
}

static MODEL: LazyLock<Model> = LazyLock::new(|| {
    let modes = modes();
    let mut samples = String::new();
    for mode in &modes {
        for s in &mode.samples {
            writeln!(
                samples,
                "{}\t{}\t{}\t{}",
                mode.name, s.kind, s.json, s.binary
            )
            .unwrap();
        }
    }
    Model {
        files: generated(&modes),
        samples,
    }
});

/// The generated files: path (from the repository root) and text.
fn generated(modes: &[Mode]) -> Vec<(String, String)> {
    let mut files = Vec::new();
    for mode in modes {
        let shown = mode.shown("Go");
        let docs = mode.docs();
        let types = mode.types();
        let sources = mode.sources(&types);
        let package = GoPackage {
            package: mode.name,
            sources: sources.iter().map(String::as_str).collect(),
            registry: &mode.traced.registry,
            types,
            answers: &mode.traced.answers,
            requests: &mode.traced.requests,
            shown: &shown,
            docs,
            generic_rules: false,
            uint8s: false,
            declared: BTreeSet::new(),
        };
        files.push((format!("sdk/go/{}/types.go", mode.name), package.file()));
        if mode.name == "battle" {
            // The shared types, from one mode's registry (they are the same in every one).
            let package = GoPackage {
                package: "arena",
                sources: vec!["sdk/src/protocol.rs"],
                registry: &mode.traced.registry,
                types: shared_types(),
                answers: &BTreeSet::new(),
                // MatchStart's generic rules are read by package arena itself.
                requests: &["MatchEnd", "MatchResult", "Mode"]
                    .iter()
                    .map(|n| (*n).to_owned())
                    .collect(),
                shown: &shown,
                docs: read_docs(&source("sdk/src/protocol.rs")),
                generic_rules: true,
                uint8s: false,
                declared: BTreeSet::new(),
            };
            files.push(("sdk/go/arena/types.go".into(), package.file()));
        }
    }
    files
}

#[test]
fn the_go_sdk_types_are_generated_from_the_rust_sdk_types() {
    check_files(&MODEL.files, "the Go SDK's types", REGENERATE);
}

/// The `go` command, if Go is installed.
fn go() -> Option<PathBuf> {
    installed("go", "version")
}

/// `go` offline, with the standard library only (the SDK depends on nothing else).
fn go_command(go: &Path, dir: &Path) -> Command {
    let mut cmd = Command::new(go);
    cmd.current_dir(dir)
        .env("GOPROXY", "off")
        .env("GOFLAGS", "-mod=mod")
        .env("GOTOOLCHAIN", "local")
        .env("CGO_ENABLED", "0");
    cmd
}

#[test]
fn the_generated_go_is_gofmt_clean() {
    let Some(go) = go() else {
        eprintln!("skipped: no `go` on PATH");
        return;
    };
    let goroot = go_command(&go, root())
        .args(["env", "GOROOT"])
        .output()
        .unwrap();
    let gofmt = Path::new(String::from_utf8_lossy(&goroot.stdout).trim()).join("bin/gofmt");
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in &MODEL.files {
        let file = dir.path().join(path.replace('/', "_"));
        std::fs::write(&file, text).unwrap();
    }
    let out = Command::new(&gofmt)
        .arg("-l")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "",
        "gofmt would change these generated files"
    );
}

#[test]
fn go_reads_and_writes_real_requests_and_answers_byte_for_byte() {
    let Some(go) = go() else {
        eprintln!("skipped: no `go` on PATH");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let samples = dir.path().join("samples.txt");
    let binary = dir.path().join("binary-answers.txt");
    std::fs::write(&samples, &MODEL.samples).unwrap();
    let out = go_command(&go, &root().join("sdk/go"))
        .args(["test", "-count=1", "./..."])
        .env("ARENA_GO_SAMPLES", &samples)
        .env("ARENA_GO_BINARY_OUT", &binary)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "go test in sdk/go failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // The binary responses Go wrote for every answer: postcard reads back the same value.
    let written = std::fs::read_to_string(&binary).unwrap();
    let mut checked = 0;
    for line in written.lines() {
        let [mode, kind, json, hex]: [&str; 4] = line
            .split('\t')
            .collect::<Vec<_>>()
            .try_into()
            .unwrap_or_else(|_| panic!("a line of {} fields: {line}", line.split('\t').count()));
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        let read = binary_answer_of(mode)(kind, &bytes)
            .unwrap_or_else(|e| panic!("{mode} {kind} {json}: Go wrote {hex}: {e}"));
        assert_eq!(
            read, json,
            "{mode} {kind}: Go's binary {hex} reads back otherwise"
        );
        checked += 1;
    }
    let answers = MODEL
        .samples
        .lines()
        .filter(|l| !l.contains("\trequest\t"))
        .count();
    assert_eq!(
        checked, answers,
        "Go wrote a binary response for every answer"
    );
}
