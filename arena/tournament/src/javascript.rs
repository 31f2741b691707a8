//! Building a JavaScript or TypeScript bot directory into a WebAssembly module, in pure
//! Rust: the bot's script is packed into the QuickJS runner `sdk/js/runner.wasm`
//! (QuickJS-NG's WASI reactor plus the arena ABI glue of `sdk/js/runner/runner.wat`), which
//! is embedded in this binary together with the SDK prelude `sdk/js/arena.js`.
//!
//! **What is a JavaScript bot.** A directory with `bot.js` (JavaScript) or `bot.ts`
//! (TypeScript; it wins when both exist) is one — but not an AssemblyScript project (its
//! `package.json` depends on `assemblyscript`), whose `bot.ts` `asc` compiles. Its script is `bot.js` preceded by the
//! `.js` files of its `lib/` directory (not recursive), in the order of their names, all
//! joined into one classic script (no `import`/`export`: the files share one scope, as
//! `<script>` tags of a page do). A TypeScript bot is `bot.ts` and `lib/*.ts`, compiled in
//! that order by TypeScript's own compiler ([`TYPESCRIPT_VERSION`], from the bot's
//! `node_modules` after `npm ci`, run with `node`) with the SDK's declarations
//! (`sdk/js/arena.d.ts`, embedded) into one script (`--outFile`).
//!
//! **Packing.** The runner's last data segment is passive and holds a placeholder: a
//! little-endian u32 length and that many bytes. The runner's first call copies that
//! segment into QuickJS's heap (`memory.init`) and evaluates it. [`pack`] re-encodes the
//! runner with that one segment replaced by the prelude plus the bot's files (the prelude
//! evaluates the files itself, so that a syntax error in them is a clear error answer at
//! the start of a match, not a dead bot), and validates the result.
//!
//! The build is kept in the directory's `target/arena-js/` under the SHA-256 of everything
//! it was made from (the runner, the prelude, the compiler's version, the bot's files), so
//! an unchanged bot is not built again; only the current build is kept.

use crate::build_cache::framed;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The runner every JavaScript bot is packed into (built by `sdk/js/runner/build.sh`).
pub const RUNNER: &[u8] = include_bytes!("../../../sdk/js/runner.wasm");

/// The SDK prelude: the request loop and the `arena` global (`sdk/js/arena.js`).
pub const PRELUDE: &str = include_str!("../../../sdk/js/arena.js");

/// The SDK's TypeScript declarations, compiled with every `bot.ts`: the API
/// (`sdk/js/arena.d.ts`) and the protocol's types (`sdk/js/protocol.d.ts`, generated from
/// the Rust SDK's types by `tests/js_sdk.rs`).
pub const DECLARATIONS: [(&str, &str); 2] = [
    ("arena.d.ts", include_str!("../../../sdk/js/arena.d.ts")),
    (
        "protocol.d.ts",
        include_str!("../../../sdk/js/protocol.d.ts"),
    ),
];

/// The TypeScript compiler bots are built with (npm `typescript`, pinned by the starter's
/// package.json).
pub const TYPESCRIPT_VERSION: &str = "5.9.3";

/// The placeholder of the runner's script segment (runner.wat, `$script`).
const PLACEHOLDER: &[u8] = b"\x27\x00\x00\x00/* arena-js runner: no script packed */";

/// The largest script packed (prelude included): 16 MiB.
pub const MAX_SCRIPT_BYTES: usize = 16 << 20;

/// The options `tsc` compiles a TypeScript bot with, before `--outFile FILE` and the inputs.
/// Files on the command line: a `tsconfig.json` (for the editor) is not read.
pub const TSC_ARGS: [&str; 9] = [
    "--target",
    "es2022",
    "--lib",
    "es2022",
    "--strict",
    "--noEmitOnError",
    "--pretty",
    "false",
    "--removeComments",
];

/// What language a bot directory is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// `bot.js` (and `lib/*.js`).
    JavaScript,
    /// `bot.ts` (and `lib/*.ts`), compiled by `tsc`.
    TypeScript,
}

impl Language {
    /// The file extension of the bot's sources: `js` or `ts`.
    pub fn extension(self) -> &'static str {
        match self {
            Language::JavaScript => "js",
            Language::TypeScript => "ts",
        }
    }
}

/// Why a JavaScript bot could not be built.
#[derive(Debug, thiserror::Error)]
pub enum JsError {
    /// The directory has neither `bot.js` nor `bot.ts`.
    #[error("{0} is not a JavaScript bot: it has neither bot.js nor bot.ts")]
    NotABot(String),
    /// A file could not be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// What failed.
        error: std::io::Error,
    },
    /// Node or the TypeScript compiler is missing (the message says how to install them).
    #[error("{0}")]
    Toolchain(String),
    /// `tsc` refused the bot's TypeScript.
    #[error("TypeScript compile errors:\n{0}")]
    TypeScript(String),
    /// The script could not be packed into the runner.
    #[error("cannot pack the script into the runner: {0}")]
    Pack(String),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> JsError + '_ {
    move |error| JsError::Io {
        path: path.display().to_string(),
        error,
    }
}

/// Whether the `package.json` of `dir` depends on AssemblyScript, whose `bot.ts` is not
/// TypeScript for the arena to compile (`sample-bots/as-bot` is built by `asc`).
fn is_assemblyscript(dir: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(dir.join("package.json")) else {
        return false;
    };
    let Ok(package) = serde_json::from_str::<serde_json::Value>(&text) else {
        return false;
    };
    ["dependencies", "devDependencies"]
        .iter()
        .any(|key| package[key].get("assemblyscript").is_some())
}

/// The language of the bot in `dir`, if it is a JavaScript or TypeScript bot: `bot.ts`
/// (unless the directory is an AssemblyScript project), else `bot.js`.
pub fn detect(dir: &Path) -> Option<Language> {
    if dir.join("bot.ts").is_file() && !is_assemblyscript(dir) {
        Some(Language::TypeScript)
    } else if dir.join("bot.js").is_file() {
        Some(Language::JavaScript)
    } else {
        None
    }
}

/// The source files of the bot, in script order: `lib/*.EXT` by name, then `bot.EXT`;
/// paths relative to `dir`.
pub fn sources(dir: &Path, language: Language) -> Result<Vec<PathBuf>, JsError> {
    let ext = language.extension();
    let mut files = Vec::new();
    let lib = dir.join("lib");
    if lib.is_dir() {
        for entry in std::fs::read_dir(&lib).map_err(io(&lib))? {
            let path = entry.map_err(io(&lib))?.path();
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            let declaration = name.as_deref().is_some_and(|n| n.ends_with(".d.ts"));
            if path.is_file() && path.extension().is_some_and(|e| e == ext) && !declaration {
                files.push(PathBuf::from("lib").join(path.file_name().unwrap_or_default()));
            }
        }
    }
    files.sort();
    files.push(PathBuf::from(format!("bot.{ext}")));
    Ok(files)
}

/// The script packed into the runner: the prelude, then a call that evaluates the bot's
/// files (name and text, in order) as one script.
pub fn script(files: &[(String, String)]) -> String {
    let files = serde_json::Value::Array(
        files
            .iter()
            .map(|(name, text)| serde_json::json!([name, text]))
            .collect(),
    );
    format!("{PRELUDE}\n__arena_load({files});\n")
}

/// The runner with `script` packed in: its last data segment replaced, validated.
pub fn pack(script: &str) -> Result<Vec<u8>, JsError> {
    pack_into(RUNNER, script.as_bytes())
}

/// Replace the placeholder segment of `runner` with `script` (length-prefixed).
fn pack_into(runner: &[u8], script: &[u8]) -> Result<Vec<u8>, JsError> {
    use wasm_encoder::reencode::{Error, Reencode};
    if script.len() > MAX_SCRIPT_BYTES {
        return Err(JsError::Pack(format!(
            "the script has {} bytes, more than {MAX_SCRIPT_BYTES}",
            script.len()
        )));
    }
    let segments = wasmparser::Parser::new(0)
        .parse_all(runner)
        .find_map(|payload| match payload {
            Ok(wasmparser::Payload::DataSection(reader)) => Some(reader.count()),
            _ => None,
        })
        .unwrap_or(0);
    if segments == 0 {
        return Err(JsError::Pack("the runner has no data segments".into()));
    }

    /// Copies a module, replacing its last data segment (which must be the placeholder).
    struct Packer<'a> {
        index: u32,
        last: u32,
        script: &'a [u8],
    }
    impl Reencode for Packer<'_> {
        type Error = String;
        fn parse_data(
            &mut self,
            data: &mut wasm_encoder::DataSection,
            datum: wasmparser::Data<'_>,
        ) -> Result<(), Error<String>> {
            let index = self.index;
            self.index += 1;
            if index != self.last {
                return wasm_encoder::reencode::utils::parse_data(self, data, datum);
            }
            if !matches!(datum.kind, wasmparser::DataKind::Passive) || datum.data != PLACEHOLDER {
                return Err(Error::UserError(
                    "its last data segment is not the runner's placeholder".into(),
                ));
            }
            let len =
                u32::try_from(self.script.len()).map_err(|e| Error::UserError(e.to_string()))?;
            let mut bytes = Vec::with_capacity(4 + self.script.len());
            bytes.extend_from_slice(&len.to_le_bytes());
            bytes.extend_from_slice(self.script);
            data.passive(bytes);
            Ok(())
        }
        // Function bodies are copied as they are (faster than instruction by instruction).
        fn parse_function_body(
            &mut self,
            code: &mut wasm_encoder::CodeSection,
            func: wasmparser::FunctionBody<'_>,
        ) -> Result<(), Error<String>> {
            code.raw(func.as_bytes());
            Ok(())
        }
    }
    let mut packer = Packer {
        index: 0,
        last: segments - 1,
        script,
    };
    let mut module = wasm_encoder::Module::new();
    packer
        .parse_core_module(&mut module, wasmparser::Parser::new(0), runner)
        .map_err(|e| JsError::Pack(format!("{e:?}")))?;
    if packer.index != segments {
        return Err(JsError::Pack(
            "the runner's data section was not read".into(),
        ));
    }
    let wasm = module.finish();
    wasmparser::Validator::new()
        .validate_all(&wasm)
        .map_err(|e| JsError::Pack(format!("the packed module is not valid: {e}")))?;
    Ok(wasm)
}

/// A program as an absolute path: `$VAR` if set, else `name` in the first absolute
/// directory of the `PATH` that has it (never a relative path: commands run in the bot's
/// directory).
fn program(var: &str, name: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(var) {
        return std::path::absolute(PathBuf::from(path)).ok();
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join(name))
        .find(|path| path.is_file())
}

/// How to get the TypeScript compiler for the bot in `dir`.
fn typescript_hint(dir: &Path) -> String {
    format!(
        "run `npm ci` in {} (its package.json pins typescript {TYPESCRIPT_VERSION}; no package.json yet: `npm install --save-exact --save-dev typescript@{TYPESCRIPT_VERSION}` there), with Node.js ≥ 18 on the PATH (Debian: `apt-get install nodejs npm`)",
        dir.display()
    )
}

/// The TypeScript compiler of the bot in `dir`: `node`, `tsc`'s script and its version.
fn typescript(dir: &Path) -> Result<(PathBuf, PathBuf, String), JsError> {
    let node = program("ARENA_NODE", "node").ok_or_else(|| {
        JsError::Toolchain(format!(
            "Node.js is needed to compile bot.ts and is not on the PATH: {}",
            typescript_hint(dir)
        ))
    })?;
    let package = std::path::absolute(dir.join("node_modules/typescript")).map_err(io(dir))?;
    let tsc = package.join("bin/tsc");
    let manifest = package.join("package.json");
    let version = std::fs::read_to_string(&manifest)
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|v| v["version"].as_str().map(str::to_owned));
    match version {
        Some(version) if tsc.is_file() => Ok((node, tsc, version)),
        _ => Err(JsError::Toolchain(format!(
            "the TypeScript compiler is needed to compile bot.ts and {} has none: {}",
            dir.join("node_modules").display(),
            typescript_hint(dir)
        ))),
    }
}

/// Build the JavaScript or TypeScript bot in `dir` (or reuse its build of the same
/// sources); the module's path, `DIR/target/arena-js/<sha256>.wasm`.
pub fn build(dir: &Path) -> Result<PathBuf, JsError> {
    let language = detect(dir).ok_or_else(|| JsError::NotABot(dir.display().to_string()))?;
    let files = sources(dir, language)?;
    let mut texts = Vec::with_capacity(files.len());
    for file in &files {
        let path = dir.join(file);
        texts.push(std::fs::read_to_string(&path).map_err(io(&path))?);
    }
    let compiler = match language {
        Language::TypeScript => Some(typescript(dir)?),
        Language::JavaScript => None,
    };
    let mut hash = Sha256::new();
    framed(&mut hash, b"arena js build v1");
    framed(&mut hash, RUNNER);
    framed(&mut hash, PRELUDE.as_bytes());
    if let Some((_, _, version)) = &compiler {
        framed(&mut hash, b"tsc");
        framed(&mut hash, version.as_bytes());
        for (name, text) in DECLARATIONS {
            framed(&mut hash, name.as_bytes());
            framed(&mut hash, text.as_bytes());
        }
        framed(&mut hash, TSC_ARGS.join("\0").as_bytes());
    }
    framed(&mut hash, &(files.len() as u64).to_le_bytes());
    for (file, text) in files.iter().zip(&texts) {
        framed(&mut hash, file.to_string_lossy().as_bytes());
        framed(&mut hash, text.as_bytes());
    }
    let key = hex::encode(hash.finalize());
    let out_dir = std::path::absolute(dir.join("target/arena-js")).map_err(io(dir))?;
    let wasm = out_dir.join(format!("{}.wasm", &key[..32]));
    if wasm.is_file() {
        return Ok(wasm);
    }
    std::fs::create_dir_all(&out_dir).map_err(io(&out_dir))?;
    if crate::build_cache::from_shared("js", &key, &wasm) {
        crate::build_cache::keep_only(&out_dir, &wasm);
        return Ok(wasm);
    }
    // Written under a name of this build's own and renamed, so that a build cut short
    // leaves no module that looks finished, and two at once do not mix.
    let unique = crate::build_cache::own_name(&key[..32]);
    let named: Vec<(String, String)> = match compiler {
        None => files
            .iter()
            .map(|f| f.to_string_lossy().replace('\\', "/"))
            .zip(texts)
            .collect(),
        Some((node, tsc, version)) => {
            let declarations: Vec<(PathBuf, &str)> = DECLARATIONS
                .iter()
                .map(|(name, _)| (out_dir.join(format!("{unique}.{name}")), *name))
                .collect();
            let out = out_dir.join(format!("{unique}.js"));
            for ((path, _), (_, text)) in declarations.iter().zip(DECLARATIONS) {
                std::fs::write(path, text).map_err(io(path))?;
            }
            tracing::info!(dir = %dir.display(), %version, "compiling TypeScript bot");
            let output = Command::new(&node)
                .arg(&tsc)
                .args(TSC_ARGS)
                .arg("--outFile")
                .arg(&out)
                .args(declarations.iter().map(|(path, _)| path))
                .args(&files)
                .current_dir(dir)
                .output();
            for (path, _) in &declarations {
                let _ = std::fs::remove_file(path);
            }
            let output = output.map_err(|e| {
                JsError::Toolchain(format!(
                    "cannot run {} {}: {e}; {}",
                    node.display(),
                    tsc.display(),
                    typescript_hint(dir)
                ))
            })?;
            let compiled = std::fs::read_to_string(&out);
            let _ = std::fs::remove_file(&out);
            if !output.status.success() {
                let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
                text.push_str(&String::from_utf8_lossy(&output.stderr));
                // The declarations' temporary names mean nothing to the bot's author.
                let text = declarations.iter().fold(text, |text, (path, name)| {
                    text.replace(&path.display().to_string(), name)
                });
                return Err(JsError::TypeScript(text.trim().to_owned()));
            }
            vec![("bot.js".to_owned(), compiled.map_err(io(&out))?)]
        }
    };
    let module = pack(&script(&named))?;
    let partial = out_dir.join(format!("{unique}.partial"));
    std::fs::write(&partial, module).map_err(io(&partial))?;
    std::fs::rename(&partial, &wasm).map_err(io(&wasm))?;
    crate::build_cache::to_shared("js", &key, &wasm);
    crate::build_cache::keep_only(&out_dir, &wasm);
    Ok(wasm)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data_segments(wasm: &[u8]) -> Vec<(bool, Vec<u8>)> {
        let mut out = Vec::new();
        for payload in wasmparser::Parser::new(0).parse_all(wasm) {
            if let Ok(wasmparser::Payload::DataSection(reader)) = payload {
                for data in reader {
                    let data = data.unwrap();
                    out.push((
                        matches!(data.kind, wasmparser::DataKind::Passive),
                        data.data.to_vec(),
                    ));
                }
            }
        }
        out
    }

    #[test]
    fn the_runner_ends_with_the_placeholder() {
        let segments = data_segments(RUNNER);
        assert_eq!(segments.last(), Some(&(true, PLACEHOLDER.to_vec())));
        assert_eq!(PLACEHOLDER.len(), 4 + PLACEHOLDER[0] as usize);
    }

    #[test]
    fn packing_replaces_only_the_last_segment() {
        let packed = pack_into(RUNNER, b"globalThis.x = 1;").unwrap();
        let before = data_segments(RUNNER);
        let after = data_segments(&packed);
        assert_eq!(before.len(), after.len());
        assert_eq!(before[..before.len() - 1], after[..after.len() - 1]);
        let mut expected = 17u32.to_le_bytes().to_vec();
        expected.extend_from_slice(b"globalThis.x = 1;");
        assert_eq!(after.last(), Some(&(true, expected)));
        // A packed module is not a runner any more.
        assert!(matches!(pack_into(&packed, b"x"), Err(JsError::Pack(_))));
    }

    #[test]
    fn the_script_embeds_the_files_as_data() {
        let script = script(&[("bot.js".into(), "let a = \"</script>\\n\u{2028}\";".into())]);
        assert!(script.starts_with(PRELUDE));
        assert!(script.ends_with(
            "__arena_load([[\"bot.js\",\"let a = \\\"</script>\\\\n\u{2028}\\\";\"]]);\n"
        ));
    }

    #[test]
    fn bot_directories_are_detected_and_their_files_ordered() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(detect(dir.path()), None);
        assert!(matches!(build(dir.path()), Err(JsError::NotABot(_))));
        std::fs::write(dir.path().join("bot.js"), "").unwrap();
        assert_eq!(detect(dir.path()), Some(Language::JavaScript));
        std::fs::create_dir(dir.path().join("lib")).unwrap();
        for name in ["z.js", "a.js", "notes.txt", "types.d.ts", "b.ts"] {
            std::fs::write(dir.path().join("lib").join(name), "").unwrap();
        }
        let names = |language| {
            sources(dir.path(), language)
                .unwrap()
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(Language::JavaScript),
            ["lib/a.js", "lib/z.js", "bot.js"]
        );
        std::fs::write(dir.path().join("bot.ts"), "").unwrap();
        assert_eq!(detect(dir.path()), Some(Language::TypeScript));
        assert_eq!(names(Language::TypeScript), ["lib/b.ts", "bot.ts"]);
        // An AssemblyScript project's bot.ts is not TypeScript for the arena.
        let asc = tempfile::tempdir().unwrap();
        std::fs::write(asc.path().join("bot.ts"), "").unwrap();
        std::fs::write(
            asc.path().join("package.json"),
            r#"{"devDependencies": {"assemblyscript": "0.28.20"}}"#,
        )
        .unwrap();
        assert_eq!(detect(asc.path()), None);
    }

    #[test]
    fn builds_are_cached_by_content_and_only_the_current_one_kept() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bot.js"), "arena.playGrid({});").unwrap();
        let first = build(dir.path()).unwrap();
        assert_eq!(build(dir.path()).unwrap(), first);
        let module = std::fs::read(&first).unwrap();
        assert!(module.windows(19).any(|w| w == b"arena.playGrid({});"));
        std::fs::write(dir.path().join("bot.js"), "arena.playBattle({});").unwrap();
        let second = build(dir.path()).unwrap();
        assert_ne!(second, first);
        assert!(!first.exists());
        let left: Vec<_> = std::fs::read_dir(first.parent().unwrap())
            .unwrap()
            .collect();
        assert_eq!(left.len(), 1);
    }

    #[test]
    fn a_typescript_bot_without_its_compiler_says_how_to_install_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bot.ts"), "").unwrap();
        let err = build(dir.path()).unwrap_err().to_string();
        assert!(err.contains("npm ci"), "{err}");
        assert!(err.contains(TYPESCRIPT_VERSION), "{err}");
    }
}
