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
            imports: 100,
            exports: 1_000,
            data_segments: 100_000,
            element_segments: 1_000,
            tables: 4,
            memories: 1,
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
}

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
            other => other,
        };
        match self.function {
            Some(index) => write!(
                f,
                "function {index} has {} {what}; the limit (`{}`) is {}",
                self.found, self.limit, self.max
            ),
            None => write!(
                f,
                "the module has {} {what}; the limit (`{}`) is {}",
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
    /// Functions defined.
    pub functions: u32,
    /// Largest function body, in bytes.
    pub largest_function: u32,
    /// Deepest nesting of any function.
    pub deepest_nesting: u32,
    /// Largest table minimum.
    pub largest_table: u64,
}

/// Check `binary` (a wasm binary) against `limits` in one pass.
pub fn check(binary: &[u8], limits: &StructureLimits) -> Result<Shape, Problem> {
    let malformed = |e: wasmparser::BinaryReaderError| Problem::Malformed(e.to_string());
    let over = |limit: &'static str, found: u64, max: u32, function: Option<u32>| {
        (found > u64::from(max)).then_some(Problem::Limit(StructureError {
            limit,
            found,
            max: u64::from(max),
            function,
        }))
    };
    let count = |limit, n: u32, max| over(limit, u64::from(n), max, None).map_or(Ok(()), Err);
    let mut shape = Shape::default();
    let mut imported_functions = 0u32;
    let mut body_index = 0u32;
    for payload in Parser::new(0).parse_all(binary) {
        match payload.map_err(malformed)? {
            Payload::Version { encoding, .. } if encoding != wasmparser::Encoding::Module => {
                return Err(Problem::Malformed(
                    "a component, not a core module".to_owned(),
                ));
            }
            Payload::TypeSection(s) => count("types", s.count(), limits.types)?,
            Payload::ImportSection(s) => {
                count("imports", s.count(), limits.imports)?;
                for group in s {
                    for import in group.map_err(malformed)? {
                        let (_, import) = import.map_err(malformed)?;
                        if matches!(import.ty, wasmparser::TypeRef::Func(_)) {
                            imported_functions += 1;
                        }
                    }
                }
            }
            Payload::FunctionSection(s) => {
                count("functions", s.count(), limits.functions)?;
                shape.functions = s.count();
            }
            Payload::TableSection(s) => {
                count("tables", s.count(), limits.tables)?;
                for table in s {
                    let table = table.map_err(malformed)?;
                    shape.largest_table = shape.largest_table.max(table.ty.initial);
                }
            }
            Payload::MemorySection(s) => count("memories", s.count(), limits.memories)?,
            Payload::GlobalSection(s) => count("globals", s.count(), limits.globals)?,
            Payload::ExportSection(s) => count("exports", s.count(), limits.exports)?,
            Payload::ElementSection(s) => {
                count("element_segments", s.count(), limits.element_segments)?
            }
            Payload::DataSection(s) => count("data_segments", s.count(), limits.data_segments)?,
            Payload::CodeSectionStart { count: n, .. } => count("functions", n, limits.functions)?,
            Payload::CodeSectionEntry(body) => {
                let index = imported_functions + body_index;
                body_index += 1;
                let size = body.range().len() as u64;
                if let Some(problem) =
                    over("function_bytes", size, limits.function_bytes, Some(index))
                {
                    return Err(problem);
                }
                shape.largest_function = shape.largest_function.max(size as u32);
                let mut locals = 0u64;
                for group in body.get_locals_reader().map_err(malformed)? {
                    let (n, _) = group.map_err(malformed)?;
                    locals += u64::from(n);
                    if let Some(problem) = over("locals", locals, limits.locals, Some(index)) {
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
                                if let Some(problem) =
                                    over("nesting", u64::from(depth), limits.nesting, Some(index))
                                {
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
    Ok(shape)
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
