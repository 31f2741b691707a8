//! Bots as WebAssembly components of the `arena:bot` world (`docs/wit/arena-bot.wit`):
//! the host's imports (`log`, `fuel-left`, `fuel-budget`) and the check of what a
//! component imports and exports.
//!
//! A component speaks the same requests as a core bot, as JSON text through one export,
//! `call: func(request: string) -> string`, and runs in the same store under the same
//! fuel, memory, stack and wall-clock limits (`bot.rs`). Python (componentize-py) and
//! JavaScript (jco) bots are such components.

use crate::state::BotState;
use wasmtime::component::types::{ComponentFunc, ComponentItem};
use wasmtime::component::{Component, Linker, Type, WasmStr};
use wasmtime::{AsContext, Engine, StoreContextMut};

/// The world's export, its parameter's name and its type in words.
pub(crate) const CALL: &str = "call";
const CALL_TYPE: &str = "func(request: string) -> string";
/// The world's imports.
pub(crate) const LOG: &str = "log";
const LOG_TYPE: &str = "func(msg: string)";
const FUEL_LEFT: &str = "fuel-left";
const FUEL_BUDGET: &str = "fuel-budget";
const FUEL_TYPE: &str = "func() -> u64";

/// The host side of the world: `log`, at the price and under the caps of `arena::log`;
/// `fuel-left` and `fuel-budget`, as `arena::fuel_left` and `arena::fuel_budget`.
pub(crate) fn linker(engine: &Engine) -> wasmtime::Result<Linker<BotState>> {
    let mut linker = Linker::new(engine);
    linker.root().func_wrap(
        LOG,
        |mut store: StoreContextMut<'_, BotState>, (msg,): (WasmStr,)| -> wasmtime::Result<()> {
            let state = store.data_mut();
            state.count_log_call();
            let room = state.log_room();
            // Lifting the string already paid a unit of fuel per byte (wasmtime's
            // canonical ABI); the log's own price is on top, as for a core bot.
            let text = msg.to_str(store.as_context())?;
            let take = crate::text::cut(&text, room).len();
            let kept = text[..take].to_owned();
            let cost = crate::LOG_FUEL_BASE + crate::LOG_FUEL_PER_BYTE * take as u64;
            crate::state::pay(&mut store, cost)?;
            if take > 0 {
                store.data_mut().append(kept.as_bytes(), false);
            }
            Ok(())
        },
    )?;
    linker
        .root()
        .func_wrap(FUEL_LEFT, |store: StoreContextMut<'_, BotState>, (): ()| {
            Ok((crate::state::fuel_left(store)?,))
        })?;
    linker.root().func_wrap(
        FUEL_BUDGET,
        |store: StoreContextMut<'_, BotState>, (): ()| Ok((crate::state::fuel_budget(store)?,)),
    )?;
    Ok(linker)
}

/// Whether `bytes` start like a component (`\0asm`, version 0x0d, layer 1) rather than a
/// core module.
pub(crate) fn is_component(bytes: &[u8]) -> bool {
    bytes.len() >= 8 && bytes.starts_with(b"\0asm") && bytes[4..8] == [0x0d, 0x00, 0x01, 0x00]
}

/// What a component imports and exports, in the words `arena check` prints; or what is
/// wrong with them (the world allows `log`, `fuel-left` and `fuel-budget` in and requires
/// `call` out, of these types).
pub(crate) fn validate(
    engine: &Engine,
    component: &Component,
) -> Result<(Vec<String>, Vec<String>), String> {
    let ty = component.component_type();
    let mut imports = Vec::new();
    let mut forbidden = Vec::new();
    for (name, item) in ty.imports(engine) {
        let described = describe(&item.ty);
        if name == LOG {
            if !matches!(&item.ty, ComponentItem::ComponentFunc(f) if is_log(f)) {
                return Err(format!(
                    "imports `log` as {described}; the arena:bot world defines it as {LOG_TYPE}"
                ));
            }
        } else if name == FUEL_LEFT || name == FUEL_BUDGET {
            if !matches!(&item.ty, ComponentItem::ComponentFunc(f) if is_fuel(f)) {
                return Err(format!(
                    "imports `{name}` as {described}; the arena:bot world defines it as {FUEL_TYPE}"
                ));
            }
        } else {
            forbidden.push(name.to_owned());
        }
        imports.push(format!("{name}: {described}"));
    }
    if !forbidden.is_empty() {
        return Err(forbidden_imports(&forbidden));
    }
    let mut exports = Vec::new();
    let mut call = None;
    for (name, item) in ty.exports(engine) {
        if name == CALL {
            call = Some(item.ty.clone());
        }
        exports.push(format!("{name}: {}", describe(&item.ty)));
    }
    match call {
        Some(ComponentItem::ComponentFunc(f)) if is_call(&f) => Ok((imports, exports)),
        Some(other) => Err(format!(
            "the component exports `call` as {}; the arena:bot world defines it as {CALL_TYPE}",
            describe(&other)
        )),
        None => Err(no_call()),
    }
}

fn forbidden_imports(forbidden: &[String]) -> String {
    let hint = if forbidden.iter().any(|i| i.starts_with("wasi:")) {
        " (WASI: build with componentize-py's --stub-wasi, or jco's --backend-qjs-stub-wasi)"
    } else {
        ""
    };
    format!(
        "the component imports {}; a component may import only `log`, `fuel-left` and `fuel-budget` (docs/wit/arena-bot.wit){hint}",
        forbidden.join(", ")
    )
}

fn no_call() -> String {
    format!("the component does not export `call` ({CALL_TYPE}; docs/wit/arena-bot.wit)")
}

/// What is wrong with a component's world by the names of its top-level imports and
/// exports alone, read without compiling: a component of another world is told so before
/// any limit it also breaks (its size, its instances). The types are checked by
/// [`validate`] once it compiles. `None` when the names fit, or when the bytes do not
/// parse as far as the imports and exports (the full check then says why).
pub(crate) fn foreign_world(binary: &[u8]) -> Option<String> {
    use wasmparser::Payload;
    let mut depth = 0usize;
    let mut forbidden = Vec::new();
    let mut exports_call = false;
    for payload in wasmparser::Parser::new(0).parse_all(binary) {
        match payload.ok()? {
            Payload::ModuleSection { .. } | Payload::ComponentSection { .. } => depth += 1,
            Payload::End(_) if depth == 0 => break,
            Payload::End(_) => depth -= 1,
            Payload::ComponentImportSection(section) if depth == 0 => {
                for import in section {
                    let name = import.ok()?.name.name;
                    if ![LOG, FUEL_LEFT, FUEL_BUDGET].contains(&name) {
                        forbidden.push(name.to_owned());
                    }
                }
            }
            Payload::ComponentExportSection(section) if depth == 0 => {
                for export in section {
                    exports_call |= export.ok()?.name.name == CALL;
                }
            }
            _ => {}
        }
    }
    if !forbidden.is_empty() {
        Some(forbidden_imports(&forbidden))
    } else if !exports_call {
        Some(no_call())
    } else {
        None
    }
}

fn is_log(f: &ComponentFunc) -> bool {
    let params: Vec<_> = f.params().map(|(_, t)| t).collect();
    matches!(params.as_slice(), [Type::String]) && f.results().len() == 0
}

fn is_fuel(f: &ComponentFunc) -> bool {
    let results: Vec<_> = f.results().collect();
    f.params().len() == 0 && matches!(results.as_slice(), [Type::U64])
}

fn is_call(f: &ComponentFunc) -> bool {
    let params: Vec<_> = f.params().map(|(_, t)| t).collect();
    let results: Vec<_> = f.results().collect();
    matches!(params.as_slice(), [Type::String]) && matches!(results.as_slice(), [Type::String])
}

/// A component item as `arena check` prints it.
fn describe(item: &ComponentItem) -> String {
    match item {
        ComponentItem::ComponentFunc(f) => {
            let params: Vec<String> = f
                .params()
                .map(|(name, t)| format!("{name}: {}", type_name(&t)))
                .collect();
            let results: Vec<String> = f.results().map(|t| type_name(&t)).collect();
            match results.as_slice() {
                [] => format!("func({})", params.join(", ")),
                [one] => format!("func({}) -> {one}", params.join(", ")),
                many => format!("func({}) -> ({})", params.join(", "), many.join(", ")),
            }
        }
        ComponentItem::CoreFunc(_) => "core func".to_owned(),
        ComponentItem::Module(_) => "core module".to_owned(),
        ComponentItem::Component(_) => "component".to_owned(),
        ComponentItem::ComponentInstance(_) => "instance".to_owned(),
        ComponentItem::Type(_) => "type".to_owned(),
        ComponentItem::Resource(_) => "resource".to_owned(),
    }
}

fn type_name(ty: &Type) -> String {
    match ty {
        Type::String => "string".to_owned(),
        Type::Bool => "bool".to_owned(),
        Type::U8 => "u8".to_owned(),
        Type::U32 => "u32".to_owned(),
        Type::S32 => "s32".to_owned(),
        Type::U64 => "u64".to_owned(),
        Type::S64 => "s64".to_owned(),
        Type::List(_) => "list<…>".to_owned(),
        other => format!("{other:?}")
            .split(['(', ' '])
            .next()
            .unwrap_or("type")
            .to_lowercase(),
    }
}
