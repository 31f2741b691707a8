//! Tidy checks on the source tree, in the spirit of rust-analyzer's `xtask/src/tidy.rs`:
//! what ARCHITECTURE.md promises about the code's shape, kept true by a test.
//!
//! - **No module circles**: inside every crate, the top-level modules depend one way
//!   (`crate::a` from module `b`, directly or through a name the crate root re-exports, is
//!   an edge `b → a`; test code is left out).
//! - **Only the CLI's `out` module prints** (`println!` and friends; clippy's
//!   `disallowed-macros` in `clippy.toml` says the same to an editor).
//! - **ARCHITECTURE.md names every crate and every top-level module** of the tree.
//! - **No error says its source twice** (in its message and as `source()`).
//! - **No doc or comment names an issue number.**

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is inside the workspace")
        .to_path_buf()
}

/// The `src` directories of the crates whose shape ARCHITECTURE.md describes.
fn crates() -> Vec<PathBuf> {
    let root = root();
    let mut dirs = vec![root.join("sdk/src")];
    let mut members: Vec<PathBuf> = fs::read_dir(root.join("arena"))
        .expect("arena/")
        .map(|entry| entry.expect("a directory entry").path().join("src"))
        .filter(|src| src.is_dir())
        .collect();
    members.sort();
    dirs.extend(members);
    dirs
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.map(|e| e.expect("an entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A file's code without its tests: a `tests.rs` file is all test code, and in other files
/// the test module is the last item (from its `#[cfg(test)]` on).
fn code_of(path: &Path) -> String {
    if path.file_name().is_some_and(|n| n == "tests.rs") {
        return String::new();
    }
    let text = fs::read_to_string(path).expect("a source file");
    let code = match text.find("#[cfg(test)]") {
        Some(at) => &text[..at],
        None => &text[..],
    };
    // Comments name modules freely.
    code.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn identifier_at(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The first path segments after every `crate::` in `code` (`crate::{a, b::c}` gives `a`
/// and `b`).
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        if code[..at].ends_with('$') {
            continue; // `$crate::` in a macro: a path of the macro's own crate, by design
        }
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item_start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && (c.is_ascii_alphanumeric() || c == '_') => {
                        names.insert(identifier_at(&group[i..]).to_owned());
                        item_start = false;
                    }
                    _ => {}
                }
            }
        } else {
            names.insert(identifier_at(rest).to_owned());
        }
    }
    names
}

/// Names the crate root re-exports from its modules (`pub use m::{A, B}`, `pub use m::A`)
/// → the module.
fn reexports(root_code: &str, modules: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for statement in root_code.split(';') {
        let statement = statement.trim();
        let Some(path) = statement
            .strip_prefix("pub use ")
            .or_else(|| statement.strip_prefix("pub(crate) use "))
            .or_else(|| statement.strip_prefix("use "))
        else {
            continue;
        };
        let path = path
            .trim_start_matches("crate::")
            .trim_start_matches("self::");
        let module = identifier_at(path);
        if !modules.contains(module) {
            continue;
        }
        let rest = &path[module.len()..];
        let names: Vec<&str> = match rest.rfind('{') {
            Some(open) => rest[open + 1..]
                .trim_end_matches('}')
                .split(',')
                .map(|n| n.trim().rsplit(" as ").next().unwrap_or("").trim())
                .collect(),
            None => vec![rest.rsplit("::").next().unwrap_or("").trim()],
        };
        for name in names.into_iter().filter(|n| !n.is_empty() && *n != "self") {
            map.insert(name.to_owned(), module.to_owned());
        }
    }
    map
}

/// The top-level modules of a crate's `src` and the files of each.
fn modules_of(src: &Path) -> BTreeMap<String, Vec<PathBuf>> {
    let mut modules: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for entry in fs::read_dir(src).expect("src/") {
        let path = entry.expect("an entry").path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut files = Vec::new();
            rust_files(&path, &mut files);
            modules.entry(name).or_default().extend(files);
        } else if path.extension().is_some_and(|e| e == "rs") && name != "lib" && name != "main" {
            modules.entry(name).or_default().push(path);
        }
    }
    modules
}

/// Every module circle of the crate at `src`, as `a → b → a`.
fn circles(src: &Path) -> Vec<String> {
    let modules = modules_of(src);
    let names: BTreeSet<String> = modules.keys().cloned().collect();
    let root_code = ["lib.rs", "main.rs"]
        .iter()
        .filter(|f| src.join(f).exists())
        .map(|f| code_of(&src.join(f)))
        .collect::<String>();
    let reexported = reexports(&root_code, &names);
    let mut edges: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (module, files) in &modules {
        let targets = edges.entry(module).or_default();
        for file in files {
            for name in crate_paths(&code_of(file)) {
                let target = if names.contains(&name) {
                    Some(name)
                } else {
                    reexported.get(&name).cloned()
                };
                if let Some(target) = target.filter(|t| t != module) {
                    targets.insert(target);
                }
            }
        }
    }
    // A circle through `a` is a path from one of `a`'s targets back to `a`.
    let mut found = BTreeSet::new();
    for start in edges.keys() {
        let mut stack: Vec<Vec<&str>> = vec![vec![start]];
        let mut seen = BTreeSet::new();
        while let Some(path) = stack.pop() {
            let last = *path.last().unwrap();
            for next in edges.get(last).into_iter().flatten() {
                if next == start {
                    let mut circle: Vec<&str> = path.clone();
                    // One name per circle: start it at its smallest module.
                    let min = (0..circle.len()).min_by_key(|&i| circle[i]).unwrap();
                    circle.rotate_left(min);
                    circle.push(circle[0]);
                    found.insert(circle.join(" → "));
                } else if seen.insert(next.as_str()) {
                    let mut longer = path.clone();
                    longer.push(next);
                    stack.push(longer);
                }
            }
        }
    }
    found.into_iter().collect()
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn no_crate_has_a_module_circle() {
    let mut problems = Vec::new();
    for src in crates() {
        for circle in circles(&src) {
            problems.push(format!("{}: {circle}", relative(&src)));
        }
    }
    assert!(
        problems.is_empty(),
        "module circles:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_circle_finder_finds_a_circle() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    fs::write(src.join("lib.rs"), "mod a;\nmod b;\npub use b::Thing;\n").unwrap();
    fs::write(src.join("a.rs"), "use crate::Thing;\n").unwrap();
    fs::write(src.join("b.rs"), "use crate::{a::x, c};\n").unwrap();
    fs::write(src.join("c.rs"), "//! crate::a in a comment\n").unwrap();
    assert_eq!(circles(src), ["a → b → a"]);
    fs::write(
        src.join("b.rs"),
        "#[cfg(test)]\nmod tests { use crate::a; }\n",
    )
    .unwrap();
    assert!(circles(src).is_empty(), "test code is left out");
}

#[test]
fn only_the_cli_out_module_prints() {
    let out = root().join("arena/cli/src/out.rs");
    let mut problems = Vec::new();
    for src in crates() {
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for file in files.iter().filter(|f| **f != out) {
            for (n, line) in code_of(file).lines().enumerate() {
                let printing = ["println!", "print!", "eprintln!", "eprint!"]
                    .iter()
                    .any(|m| line.contains(m));
                if printing {
                    problems.push(format!("{}:{}: {}", relative(file), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "printing outside arena/cli/src/out.rs (use out!/outln!/errln!):\n{}",
        problems.join("\n")
    );
}

#[test]
fn no_error_names_its_source_in_its_message_too() {
    // `{:#}` (how `arena` prints an error) shows every cause once: an error type that says
    // its source in its message and also returns it from `source()` would say it twice.
    let mut problems = Vec::new();
    for src in crates() {
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for file in &files {
            for (n, line) in code_of(file).lines().enumerate() {
                if line.contains("#[error(") && line.contains("{source}") {
                    problems.push(format!("{}:{}: {}", relative(file), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "errors naming their source twice (call the field `error`, or leave it out of the message):\n{}",
        problems.join("\n")
    );
}

#[test]
fn architecture_names_every_crate_and_module() {
    let architecture = fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let mut missing = Vec::new();
    for src in crates() {
        let dir = relative(src.parent().unwrap());
        if !architecture.contains(&format!("`{dir}/`")) {
            missing.push(format!("the crate `{dir}/`"));
        }
        for module in modules_of(&src).keys() {
            let named = [
                format!("`{module}`"),
                format!("`{module}.rs`"),
                format!("`{module}/`"),
            ]
            .iter()
            .any(|n| architecture.contains(n.as_str()));
            if !named {
                missing.push(format!("{dir}: the module `{module}`"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md does not name:\n{}",
        missing.join("\n")
    );
}

#[test]
fn no_doc_or_comment_names_an_issue_number() {
    let root = root();
    let mut files = Vec::new();
    for dir in [
        "arena",
        "sdk",
        "tests",
        "docs",
        "sample-bots",
        "deploy",
        "tournaments",
    ] {
        collect(&root.join(dir), &mut files);
    }
    for top in ["README.md", "ARCHITECTURE.md"] {
        files.push(root.join(top));
    }
    let mut problems = Vec::new();
    for file in files {
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            let lower = line.to_ascii_lowercase();
            for (at, _) in lower.match_indices("issue") {
                let after = lower[at + "issue".len()..].trim_start_matches([' ', '#']);
                if after.starts_with(|c: char| c.is_ascii_digit()) {
                    problems.push(format!("{}:{}: {}", relative(&file), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "issue numbers:\n{}",
        problems.join("\n")
    );
}

/// The text files worth reading under `dir` (sources and docs; no build output).
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("an entry").path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() {
            if !matches!(name.as_ref(), "target" | "node_modules" | ".git" | "vendor") {
                collect(&path, out);
            }
        } else if ["rs", "md", "toml", "js", "ts", "py", "go", "c", "h", "wit"]
            .iter()
            .any(|e| name.ends_with(&format!(".{e}")))
        {
            out.push(path);
        }
    }
}
