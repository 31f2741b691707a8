//! Tracing the SDK's protocol types with `serde-reflection` and walking the traced formats,
//! and comparing a generated text with the committed one: shared by `abi_doc.rs`,
//! `go_sdk.rs`, `python_sdk.rs` and `js_sdk.rs` (four test binaries; each includes this file
//! with `#[path = "reflect.rs"] mod reflect;`, the SDK generators `samples.rs` too).

use arena_sdk::Game;
use serde_reflection::{
    ContainerFormat, Format, Named, Registry, Samples, Tracer, TracerConfig, VariantFormat,
};
use std::collections::BTreeSet;

/// Types every mode shares (`Request` is the envelope of every mode's requests).
pub const COMMON: [&str; 5] = ["MatchEnd", "MatchResult", "MatchStart", "Mode", "Request"];

/// Trace enum types whole first: the tracer only learns every variant of an enum traced
/// at the top. `enums!(battle::BotType, battle::Action)` is a `fn(&mut Tracer)` for
/// [`trace`].
macro_rules! enums {
    ($($t:ty),* $(,)?) => {
        |tracer: &mut serde_reflection::Tracer| {
            $( tracer.trace_simple_type::<$t>().unwrap(); )*
        }
    };
}
pub(crate) use enums;

/// One mode's traced types: every type of its requests and answers, and the formats of
/// its two answers (the setup choice and the turn action).
pub struct Trace {
    pub registry: Registry,
    pub choice: Format,
    pub action: Format,
}

/// Trace mode `G`'s requests and answers (`enums`: its enums, traced whole first).
pub fn trace<G: Game>(enums: fn(&mut Tracer)) -> Trace {
    use arena_sdk::protocol::Request;
    use arena_sdk::{MatchResult, Mode};
    let mut tracer = Tracer::new(TracerConfig::default());
    tracer.trace_simple_type::<Mode>().unwrap();
    tracer.trace_simple_type::<MatchResult>().unwrap();
    enums(&mut tracer);
    let samples = Samples::new();
    tracer.trace_type::<Request<G>>(&samples).unwrap();
    let (choice, _) = tracer.trace_type::<G::SetupChoice>(&samples).unwrap();
    let (action, _) = tracer.trace_type::<G::Action>(&samples).unwrap();
    Trace {
        registry: tracer.registry().unwrap(),
        choice,
        action,
    }
}

/// The type names a format refers to.
pub fn names<'a>(f: &'a Format, out: &mut Vec<&'a str>) {
    match f {
        Format::TypeName(name) => out.push(name),
        Format::Option(inner) | Format::Seq(inner) => names(inner, out),
        Format::TupleArray { content, .. } => names(content, out),
        Format::Tuple(items) => items.iter().for_each(|i| names(i, out)),
        Format::Map { key, value } => {
            names(key, out);
            names(value, out);
        }
        _ => {}
    }
}

fn all<'a>(fs: &'a [Named<Format>], out: &mut Vec<&'a str>) {
    fs.iter().for_each(|f| names(&f.value, out));
}

/// The type names a container refers to.
fn referenced(c: &ContainerFormat) -> Vec<&str> {
    let mut out = Vec::new();
    match c {
        ContainerFormat::UnitStruct => {}
        ContainerFormat::NewTypeStruct(inner) => names(inner, &mut out),
        ContainerFormat::TupleStruct(items) => items.iter().for_each(|i| names(i, &mut out)),
        ContainerFormat::Struct(fs) => all(fs, &mut out),
        ContainerFormat::Enum(variants) => {
            for v in variants.values() {
                match &v.value {
                    VariantFormat::NewType(inner) => names(inner, &mut out),
                    VariantFormat::Tuple(items) => items.iter().for_each(|i| names(i, &mut out)),
                    VariantFormat::Struct(fs) => all(fs, &mut out),
                    _ => {}
                }
            }
        }
    }
    out
}

/// The types reachable from `roots`, the roots included.
pub fn closure(registry: &Registry, roots: Vec<&str>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo = roots;
    while let Some(name) = todo.pop() {
        if seen.insert(name.to_owned()) {
            todo.extend(referenced(&registry[name]));
        }
    }
    seen
}

/// Where a committed text first differs from the generated one: the line number (from 1)
/// and that line of each (`None` past its end).
pub fn first_difference<'a>(
    current: &'a str,
    expected: &'a str,
) -> (usize, Option<&'a str>, Option<&'a str>) {
    let first = current
        .lines()
        .zip(expected.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(current.lines().count().min(expected.lines().count()));
    (
        first + 1,
        current.lines().nth(first),
        expected.lines().nth(first),
    )
}
