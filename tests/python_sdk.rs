//! The Python SDK's protocol types (`sdk/python/arena/<mode>/types.py`, and
//! `sdk/python/arena/types.py` for the types every mode shares) are generated here from
//! the Rust SDK's types, traced with `serde-reflection` as `tests/go_sdk.rs` traces them
//! for Go, and the test fails when the committed files say anything else. After a
//! deliberate change to a protocol type, regenerate them with
//! `ARENA_UPDATE_DOCS=1 cargo test -p arena-tests --test python_sdk` and review the diff.
//!
//! What a trace cannot see is read from real JSON: every request and answer of games
//! between the built-ins (and a few answers the built-ins never give) is walked against the
//! traced formats (`tests/samples.rs`, shared with the Go and TypeScript generators), which
//! finds the fields the arena leaves out of its JSON (left out when `None`, a tcg card's
//! zero amounts): the generated `to_json` leaves them out too. When `python3` is installed,
//! every one of those JSON texts is decoded by the SDK and encoded again, and must come back
//! the same JSON value and the same text.
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

use arena_tests::root;
use reflect::names;
use samples::{
    ItemDocs, Mode, Shown, camel, check_files, installed, modes, paragraphs, read_docs,
    shared_types, snake, source,
};
use serde_reflection::{ContainerFormat, Format, Named, Registry, VariantFormat};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::PathBuf;
use std::process::Command;
use std::sync::LazyLock;

#[path = "reflect.rs"]
mod reflect;
#[path = "samples.rs"]
mod samples;

/// The command that regenerates the files, for the header and messages.
const REGENERATE: &str = "ARENA_UPDATE_DOCS=1 cargo test -p arena-tests --test python_sdk";

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
            .map(|d| paragraphs(d))
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
            .map(|d| paragraphs(&d.doc))
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
                .map(|(_, d)| paragraphs(&d.doc))
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
                .map(|(_, d)| paragraphs(&d.doc))
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
                    let class = format!("{name}{}", camel(key));
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

// ---------------------------------------------------------------------------------------
// The model: what the tests check, from every mode traced and sampled

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
    let mut files = Vec::new();
    for mode in modes {
        let shown = mode.shown("Python");
        let docs = mode.docs();
        let types = mode.types();
        let sources = mode.sources(&types);
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
                types: shared_types(),
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
    check_files(&MODEL.files, "the Python SDK's types", REGENERATE);
}

/// The `python3` command, if Python 3 is installed.
fn python() -> Option<PathBuf> {
    installed("python3", "--version")
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
