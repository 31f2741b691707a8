//! Structural limits of a module, checked in one linear pass with `wasmparser` before
//! anything is compiled. Compile time and memory grow with the number of functions, their
//! size, their locals and (worse than linearly) the nesting of blocks, so a module that is
//! small on disk can still stall the compiler; these limits reject such modules cheaply,
//! by name, and the child-process compiler (`compile.rs`) bounds whatever gets past them.

use wasmparser::{Operator, Parser, Payload};

/// The shape a module may have. Defaults are several times what real bots use (the Rust
/// sample bots have ~300–900 functions, bodies under 40 KiB and nesting under 40; a Go bot
/// has ~2,600 functions and nesting up to ~550, since Go's wasm code opens a block for
/// every call that may yield). Compile time grows with the square of the nesting: a
/// function nested 5,000 deep compiles in 0.3 s, 20,000 deep in 4 s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StructureLimits {
    /// Functions defined by the module.
    pub functions: u32,
    /// Bytes of one function body.
    pub function_bytes: u32,
    /// Locals of one function (parameters not counted).
    pub locals: u32,
    /// Depth of nested blocks (`block`, `loop`, `if`, `try_table`) in one function.
    pub nesting: u32,
    /// Entries of the type section.
    pub types: u32,
    /// Globals.
    pub globals: u32,
    /// Imports.
    pub imports: u32,
    /// Exports.
    pub exports: u32,
    /// Data segments.
    pub data_segments: u32,
    /// Element segments.
    pub element_segments: u32,
    /// Tables defined by the module.
    pub tables: u32,
    /// Memories defined by the module (the ABI has exactly one).
    pub memories: u32,
    /// The shape a component may have (Python and JavaScript bots): each core module
    /// inside it is held to the limits above, and the component as a whole to these.
    pub component: ComponentLimits,
}

/// The shape of a component beyond that of each core module inside it. The defaults are
/// several times what componentize-py's CPython and jco's QuickJS components have
/// (docs/abi.md, "Limits").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentLimits {
    /// Core modules, at every depth.
    pub core_modules: u32,
    /// Functions defined by all the core modules together.
    pub total_functions: u32,
    /// Bytes of code of all the core modules together.
    pub total_code_bytes: u64,
    /// Memories defined by all the core modules together.
    pub total_memories: u32,
    /// Core instances made by all the instance sections together.
    pub core_instances: u32,
    /// Components nested inside the component, at every depth.
    pub components: u32,
    /// How deep components nest inside each other.
    pub component_depth: u32,
    /// Component instances made by all the instance sections together.
    pub component_instances: u32,
    /// Entries of all the type sections (core and component) together.
    pub types: u32,
    /// Entries of every other section of the component layer (aliases, canonical
    /// functions, imports, exports), together.
    pub items: u32,
}

impl Default for ComponentLimits {
    fn default() -> Self {
        ComponentLimits {
            core_modules: 64,
            total_functions: 60_000,
            total_code_bytes: 64 << 20,
            total_memories: 8,
            core_instances: 256,
            components: 32,
            component_depth: 4,
            component_instances: 64,
            types: 20_000,
            items: 50_000,
        }
    }
}

impl Default for StructureLimits {
    fn default() -> Self {
        StructureLimits {
            functions: 20_000,
            function_bytes: 512 << 10,
            locals: 10_000,
            nesting: 5_000,
            types: 10_000,
            globals: 1_000,
            imports: 1_000,
            exports: 5_000,
            data_segments: 100_000,
            element_segments: 1_000,
            tables: 4,
            memories: 1,
            component: ComponentLimits::default(),
        }
    }
}

/// Why a module broke a structural limit: which limit, the module's figure, the limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StructureError {
    /// The limit's name (as in [`StructureLimits`]).
    pub limit: &'static str,
    /// What the module has (for `function_bytes`, `locals` and `nesting`: in the function
    /// named by `function`).
    pub found: u64,
    /// The limit.
    pub max: u64,
    /// The function index, for per-function limits.
    pub function: Option<u32>,
    /// In a component: which core module (counted from 0 in the order they appear) broke
    /// a limit of one module; `None` for a core module and for the component's own limits.
    pub module: Option<u32>,
}

/// The limits of [`ComponentLimits`], which the component as a whole breaks.
const COMPONENT_WIDE: [&str; 10] = [
    "core_modules",
    "total_functions",
    "total_code_bytes",
    "total_memories",
    "core_instances",
    "components",
    "component_depth",
    "component_instances",
    "component_types",
    "component_items",
];

impl std::fmt::Display for StructureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self.limit {
            "functions" => "functions",
            "function_bytes" => "bytes of code",
            "locals" => "locals",
            "nesting" => "nested blocks",
            "types" => "types",
            "globals" => "globals",
            "imports" => "imports",
            "exports" => "exports",
            "data_segments" => "data segments",
            "element_segments" => "element segments",
            "tables" => "tables",
            "memories" => "memories",
            "core_modules" => "core modules",
            "total_functions" => "functions in all its core modules",
            "total_code_bytes" => "bytes of code in all its core modules",
            "total_memories" => "memories in all its core modules",
            "core_instances" => "core instances",
            "components" => "nested components",
            "component_depth" => "levels of nested components",
            "component_instances" => "component instances",
            "component_types" => "types in its type sections",
            "component_items" => "aliases, canonical functions, imports and exports",
            other => other,
        };
        let module = match self.module {
            Some(module) => format!("core module {module}"),
            None if COMPONENT_WIDE.contains(&self.limit) => "the component".to_owned(),
            None => "the module".to_owned(),
        };
        match (self.function, self.module) {
            (Some(index), Some(_)) => write!(
                f,
                "{module}, function {index} has {} {what}; the limit (`{}`) is {}",
                self.found, self.limit, self.max
            ),
            (Some(index), None) => write!(
                f,
                "function {index} has {} {what}; the limit (`{}`) is {}",
                self.found, self.limit, self.max
            ),
            (None, _) => write!(
                f,
                "{module} has {} {what}; the limit (`{}`) is {}",
                self.found, self.limit, self.max
            ),
        }
    }
}

/// A module the checker could not read, or one over a limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// Malformed binary (wasmparser's message).
    Malformed(String),
    /// Over a limit.
    Limit(StructureError),
}

/// What the pass found (for reports and for the tests of the limits).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Shape {
    /// Whether the binary is a component (else a core module).
    pub component: bool,
    /// Core modules: 1 for a core module, every one inside a component.
    pub core_modules: u32,
    /// Functions defined (by all core modules).
    pub functions: u32,
    /// Largest function body, in bytes.
    pub largest_function: u32,
    /// Deepest nesting of any function.
    pub deepest_nesting: u32,
    /// Largest table minimum.
    pub largest_table: u64,
    /// Core instances a component makes (0 for a core module).
    pub core_instances: u32,
}

/// Counters of one core module.
#[derive(Default)]
struct ModuleCounts {
    imported_functions: u32,
    body_index: u32,
}

/// Counters of the whole component.
#[derive(Default)]
struct ComponentCounts {
    code_bytes: u64,
    memories: u32,
    components: u32,
    component_instances: u32,
    types: u32,
    items: u32,
}

/// Check `binary` (a wasm binary: a core module or a component) against `limits` in one
/// pass.
pub fn check(binary: &[u8], limits: &StructureLimits) -> Result<Shape, Problem> {
    let mut shape = Shape::default();
    walk(binary, limits, &mut shape).map_err(|problem| match problem {
        Problem::Limit(mut e) if shape.component && !COMPONENT_WIDE.contains(&e.limit) => {
            e.module = Some(shape.core_modules.saturating_sub(1));
            Problem::Limit(e)
        }
        other => other,
    })?;
    Ok(shape)
}

fn walk(binary: &[u8], limits: &StructureLimits, shape: &mut Shape) -> Result<(), Problem> {
    let malformed = |e: wasmparser::BinaryReaderError| Problem::Malformed(e.to_string());
    let over = |limit: &'static str, found: u64, max: u64, function: Option<u32>| {
        (found > max).then_some(Problem::Limit(StructureError {
            limit,
            found,
            max,
            function,
            module: None,
        }))
    };
    let count = |limit, n: u32, max: u32| {
        over(limit, u64::from(n), u64::from(max), None).map_or(Ok(()), Err)
    };
    let total = |limit, n: u64, max: u64| over(limit, n, max, None).map_or(Ok(()), Err);
    let cl = &limits.component;
    let mut module = ModuleCounts::default();
    let mut whole = ComponentCounts::default();
    // What each open `Version` … `End` is: the outermost, then nested modules and
    // components (wasmparser's `parse_all` walks into them in place).
    let mut layers: Vec<wasmparser::Encoding> = Vec::new();
    for payload in Parser::new(0).parse_all(binary) {
        let payload = payload.map_err(malformed)?;
        let in_component = layers.last() == Some(&wasmparser::Encoding::Component);
        match payload {
            Payload::Version { encoding, .. } => {
                if layers.is_empty() {
                    shape.component = encoding == wasmparser::Encoding::Component;
                }
                match encoding {
                    wasmparser::Encoding::Module => {
                        shape.core_modules += 1;
                        count("core_modules", shape.core_modules, cl.core_modules)?;
                        module = ModuleCounts::default();
                    }
                    wasmparser::Encoding::Component => {
                        let depth = layers
                            .iter()
                            .filter(|&&e| e == wasmparser::Encoding::Component)
                            .count() as u32;
                        if depth > 0 {
                            whole.components += 1;
                            count("components", whole.components, cl.components)?;
                            count("component_depth", depth, cl.component_depth)?;
                        }
                    }
                }
                layers.push(encoding);
            }
            Payload::End(_) => {
                layers.pop();
            }
            // The component layer.
            Payload::CoreTypeSection(s) if in_component => {
                whole.types = whole.types.saturating_add(s.count());
                count("component_types", whole.types, cl.types)?;
            }
            Payload::ComponentTypeSection(s) => {
                whole.types = whole.types.saturating_add(s.count());
                count("component_types", whole.types, cl.types)?;
            }
            Payload::InstanceSection(s) => {
                shape.core_instances = shape.core_instances.saturating_add(s.count());
                count("core_instances", shape.core_instances, cl.core_instances)?;
            }
            Payload::ComponentInstanceSection(s) => {
                whole.component_instances = whole.component_instances.saturating_add(s.count());
                count(
                    "component_instances",
                    whole.component_instances,
                    cl.component_instances,
                )?;
            }
            Payload::ComponentAliasSection(s) => {
                whole.items = whole.items.saturating_add(s.count());
                count("component_items", whole.items, cl.items)?;
            }
            Payload::ComponentCanonicalSection(s) => {
                whole.items = whole.items.saturating_add(s.count());
                count("component_items", whole.items, cl.items)?;
            }
            Payload::ComponentImportSection(s) => {
                whole.items = whole.items.saturating_add(s.count());
                count("component_items", whole.items, cl.items)?;
            }
            Payload::ComponentExportSection(s) => {
                whole.items = whole.items.saturating_add(s.count());
                count("component_items", whole.items, cl.items)?;
            }
            // A core module (the whole binary, or one inside a component).
            Payload::TypeSection(s) => count("types", s.count(), limits.types)?,
            Payload::ImportSection(s) => {
                count("imports", s.count(), limits.imports)?;
                for group in s {
                    for import in group.map_err(malformed)? {
                        let (_, import) = import.map_err(malformed)?;
                        if matches!(import.ty, wasmparser::TypeRef::Func(_)) {
                            module.imported_functions += 1;
                        }
                    }
                }
            }
            Payload::FunctionSection(s) => {
                count("functions", s.count(), limits.functions)?;
                shape.functions = shape.functions.saturating_add(s.count());
                count("total_functions", shape.functions, cl.total_functions)?;
            }
            Payload::TableSection(s) => {
                count("tables", s.count(), limits.tables)?;
                for table in s {
                    let table = table.map_err(malformed)?;
                    shape.largest_table = shape.largest_table.max(table.ty.initial);
                }
            }
            Payload::MemorySection(s) => {
                count("memories", s.count(), limits.memories)?;
                whole.memories = whole.memories.saturating_add(s.count());
                count("total_memories", whole.memories, cl.total_memories)?;
            }
            Payload::GlobalSection(s) => count("globals", s.count(), limits.globals)?,
            Payload::ExportSection(s) => count("exports", s.count(), limits.exports)?,
            Payload::ElementSection(s) => {
                count("element_segments", s.count(), limits.element_segments)?
            }
            Payload::DataSection(s) => count("data_segments", s.count(), limits.data_segments)?,
            Payload::CodeSectionStart { count: n, size, .. } => {
                count("functions", n, limits.functions)?;
                whole.code_bytes = whole.code_bytes.saturating_add(u64::from(size));
                total("total_code_bytes", whole.code_bytes, cl.total_code_bytes)?;
            }
            Payload::CodeSectionEntry(body) => {
                let index = module.imported_functions + module.body_index;
                module.body_index += 1;
                let size = body.range().len() as u64;
                if let Some(problem) = over(
                    "function_bytes",
                    size,
                    u64::from(limits.function_bytes),
                    Some(index),
                ) {
                    return Err(problem);
                }
                shape.largest_function = shape.largest_function.max(size as u32);
                let mut locals = 0u64;
                for group in body.get_locals_reader().map_err(malformed)? {
                    let (n, _) = group.map_err(malformed)?;
                    locals += u64::from(n);
                    if let Some(problem) =
                        over("locals", locals, u64::from(limits.locals), Some(index))
                    {
                        return Err(problem);
                    }
                }
                let mut depth = 0u32;
                let mut deepest = 0u32;
                let mut operators = body.get_operators_reader().map_err(malformed)?;
                while !operators.eof() {
                    match operators.read().map_err(malformed)? {
                        Operator::Block { .. }
                        | Operator::Loop { .. }
                        | Operator::If { .. }
                        | Operator::TryTable { .. }
                        | Operator::Try { .. } => {
                            depth += 1;
                            if depth > deepest {
                                deepest = depth;
                                if let Some(problem) = over(
                                    "nesting",
                                    u64::from(depth),
                                    u64::from(limits.nesting),
                                    Some(index),
                                ) {
                                    return Err(problem);
                                }
                            }
                        }
                        Operator::End | Operator::Delegate { .. } => {
                            depth = depth.saturating_sub(1)
                        }
                        _ => {}
                    }
                }
                shape.deepest_nesting = shape.deepest_nesting.max(deepest);
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wat(text: &str) -> Vec<u8> {
        wat::parse_str(text).unwrap()
    }

    fn limit_of(binary: &[u8], limits: &StructureLimits) -> &'static str {
        match check(binary, limits) {
            Err(Problem::Limit(e)) => e.limit,
            other => panic!("expected a limit, got {other:?}"),
        }
    }

    #[test]
    fn each_limit_is_named_in_the_rejection() {
        let nested = format!(
            "(module (func {} {}))",
            "(block ".repeat(10),
            ")".repeat(10)
        );
        let tight = StructureLimits {
            nesting: 9,
            ..Default::default()
        };
        assert_eq!(limit_of(&wat(&nested), &tight), "nesting");
        let ok = StructureLimits {
            nesting: 10,
            ..Default::default()
        };
        assert_eq!(check(&wat(&nested), &ok).unwrap().deepest_nesting, 10);

        let funcs = format!("(module {})", "(func)".repeat(5));
        let four = StructureLimits {
            functions: 4,
            ..Default::default()
        };
        assert_eq!(limit_of(&wat(&funcs), &four), "functions");

        let locals = wat("(module (func (local i32 i32 i32 i64)))");
        let three = StructureLimits {
            locals: 3,
            ..Default::default()
        };
        assert_eq!(limit_of(&locals, &three), "locals");

        let two_memories = wat("(module (memory 1) (memory 1))");
        assert_eq!(
            limit_of(&two_memories, &StructureLimits::default()),
            "memories"
        );

        let big_body = wat(&format!("(module (func {}))", "(nop)".repeat(100)));
        let small = StructureLimits {
            function_bytes: 50,
            ..Default::default()
        };
        let Err(Problem::Limit(e)) = check(&big_body, &small) else {
            panic!("expected function_bytes")
        };
        assert_eq!((e.limit, e.function), ("function_bytes", Some(0)));
        assert_eq!(
            e.to_string(),
            format!(
                "function 0 has {} bytes of code; the limit (`function_bytes`) is 50",
                e.found
            )
        );
    }

    #[test]
    fn the_function_index_counts_imported_functions() {
        let module = wat(
            r#"(module (import "arena" "log" (func (param i32 i32))) (func) (func (local i32 i32)))"#,
        );
        let one = StructureLimits {
            locals: 1,
            ..Default::default()
        };
        let Err(Problem::Limit(e)) = check(&module, &one) else {
            panic!()
        };
        assert_eq!(e.function, Some(2));
    }

    #[test]
    fn malformed_binaries_are_reported_not_panicked_on() {
        let mut module = wat("(module (func (block (nop))))");
        let len = module.len();
        module.truncate(len - 3);
        assert!(matches!(
            check(&module, &StructureLimits::default()),
            Err(Problem::Malformed(_))
        ));
    }
}
