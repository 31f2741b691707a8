//! `arena native DIR`: what it takes to run a Python or JavaScript bot directory outside
//! the sandbox, under `python3` or `node` and their debuggers, on the requests
//! `arena replay requests` recorded: the SDK this binary carries and a runner
//! (`sdk/native/run.py`, `sdk/native/run.js`), written to `DIR/target/arena-native/`
//! (under `target/`, which no build hashes and every starter's `.gitignore` leaves out).

use anyhow::{Context, Result};
use arena_tournament::javascript::{self, Language};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const PYTHON_RUNNER: &str = include_str!("../../../sdk/native/run.py");
const JS_RUNNER: &str = include_str!("../../../sdk/native/run.js");

#[derive(Debug, clap::Args)]
pub struct NativeArgs {
    /// The bot directory: Python (`bot.py`) or JavaScript (`bot.js`).
    pub dir: PathBuf,
}

pub fn native(args: NativeArgs) -> Result<ExitCode> {
    let dir = &args.dir;
    anyhow::ensure!(
        dir.is_dir(),
        "`{}` is not a directory: give a Python (bot.py) or JavaScript (bot.js) bot's directory",
        dir.display()
    );
    let out = dir.join("target").join("arena-native");
    let (files, command): (Vec<(String, &str)>, &str) = if dir.join("bot.py").is_file() {
        let mut files: Vec<(String, &str)> = arena_tournament::python::SDK_FILES
            .iter()
            .filter(|(name, _)| *name != arena_tournament::python::APP_MODULE.to_owned() + ".py")
            .map(|(name, text)| ((*name).to_owned(), *text))
            .collect();
        files.push(("run.py".to_owned(), PYTHON_RUNNER));
        (files, "python3")
    } else {
        match javascript::detect(dir) {
            Some(Language::JavaScript) => (
                vec![
                    ("arena.js".to_owned(), javascript::PRELUDE),
                    ("run.js".to_owned(), JS_RUNNER),
                ],
                "node",
            ),
            Some(Language::TypeScript) => anyhow::bail!(
                "`{}` is a TypeScript bot: `arena native` runs Python and JavaScript bots; \
                 debug a TypeScript bot's logic as JavaScript (tsc's output) or in its own tests",
                dir.display()
            ),
            None => anyhow::bail!(
                "`{}` has neither bot.py nor bot.js: `arena native` runs Python and \
                 JavaScript bot directories",
                dir.display()
            ),
        }
    };
    write_all(&out, &files)?;
    let runner = out.join(if command == "node" {
        "run.js"
    } else {
        "run.py"
    });
    let runner = runner.display();
    outln!("wrote the SDK and a runner to {}", out.display())?;
    outln!("record a game's requests (seat 0 here), then run the bot on them natively:")?;
    outln!(
        "  arena play --mode MODE {} OPPONENT --replay game.json",
        dir.display()
    )?;
    outln!("  arena replay requests game.json --seat 0 -o requests.jsonl")?;
    if command == "node" {
        outln!("  node {runner} requests.jsonl")?;
        outln!("  node --inspect-brk {runner} requests.jsonl    # with the inspector")?;
    } else {
        outln!("  python3 {runner} requests.jsonl")?;
        outln!(
            "  python3 -m pdb {runner} requests.jsonl    # with pdb (or breakpoint() in the bot)"
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Write `files` (relative paths) under `out`, replacing what an older `arena` wrote.
fn write_all(out: &Path, files: &[(String, &str)]) -> Result<()> {
    for (name, text) in files {
        let path = out.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}
