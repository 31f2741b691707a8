//! The results log: one JSON line per finished game, appended and flushed as games end.
//! A line holds nothing that depends on timing, so the log sorted by game index is
//! byte-identical whatever the concurrency or sharding.
//!
//! Each line ends with `"check":"<hex>"`, the first 128 bits of the SHA-256 of the line
//! without it, so a damaged or edited line is detected, reported with its line number and
//! skipped (its game is played again on resume) instead of spoiling the whole directory.
//! It is a checksum, not a signature: it catches accidents and casual edits, not someone
//! who recomputes it. A run holds an exclusive lock on its results file ([`lock`]).

use crate::plan::Plan;
use arena_engine::SeatOutcome;
use arena_sdk::Mode;
use serde::{Deserialize, Serialize};
use sha2::Digest;
use std::collections::BTreeMap;
use std::io::{Seek, Write};
use std::path::{Path, PathBuf};

/// One finished game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// The plan this game belongs to.
    pub fingerprint: String,
    /// The game index in the plan.
    pub game: u32,
    /// The mode.
    pub mode: Mode,
    /// The game seed.
    pub seed: u64,
    /// Bot names in seat order.
    pub bots: [String; 2],
    /// Module hashes in seat order (wasm bots).
    pub sha256: [Option<String>; 2],
    /// The winning seat; `null` is a draw.
    pub winner: Option<u8>,
    /// Why the game ended.
    pub reason: String,
    /// The game's turn counter at the end.
    pub turns: u32,
    /// Per seat: statistics, faults, invalid actions, fuel, forfeit.
    pub seats: [SeatOutcome; 2],
}

impl GameLine {
    /// The score of seat `seat`: 1 win, ½ draw, 0 loss.
    pub fn score(&self, seat: usize) -> f64 {
        match self.winner {
            None => 0.5,
            Some(w) if usize::from(w) == seat => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// Reading or writing results failed.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// I/O on a results file.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        error: std::io::Error,
    },
    /// Another process holds the directory's lock.
    #[error(
        "{path}: another run{} holds this lock and is writing these results; wait for it to finish or use another --out directory",
        holder.map(|pid| format!(" (pid {pid})")).unwrap_or_default()
    )]
    Locked {
        /// The lock file.
        path: String,
        /// The process id the holder wrote into the lock file, if it could be read.
        holder: Option<u32>,
    },
    /// A results directory belongs to another plan.
    #[error("{path}: {message}")]
    Mismatch {
        /// The file.
        path: String,
        /// What differs.
        message: String,
    },
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> ResultsError + '_ {
    move |error| ResultsError::Io {
        path: path.display().to_string(),
        error,
    }
}

/// The saved plan of a results directory (`plan.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedPlan {
    /// The tournament's name.
    pub name: String,
    /// Bot names, by index.
    pub bots: Vec<String>,
    /// The plan.
    pub plan: Plan,
}

/// Write `plan.json` into `dir`, or check that the one there is the same plan.
pub fn save_or_check_plan(dir: &Path, saved: &SavedPlan) -> Result<(), ResultsError> {
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let path = dir.join("plan.json");
    if path.exists() {
        let existing = read_plan(dir)?;
        if existing.plan.fingerprint != saved.plan.fingerprint {
            return Err(ResultsError::Mismatch {
                path: path.display().to_string(),
                message: format!(
                    "this directory holds results of another plan (fingerprint {}…, this tournament is {}…); use another --out directory",
                    &existing.plan.fingerprint[..12],
                    &saved.plan.fingerprint[..12]
                ),
            });
        }
        return Ok(());
    }
    let mut tmp = tempfile_in(dir)?;
    // One write: serializing into the unbuffered file wrote each token with a system call
    // of its own (tens of thousands for a big plan, before the first game could start).
    let text = serde_json::to_vec_pretty(saved).expect("plans serialize");
    tmp.1.write_all(&text).map_err(io(&tmp.0))?;
    std::fs::rename(&tmp.0, &path).map_err(io(&path))
}

fn tempfile_in(dir: &Path) -> Result<(PathBuf, std::fs::File), ResultsError> {
    let path = dir.join(format!(".plan.{}.tmp", std::process::id()));
    let file = std::fs::File::create(&path).map_err(io(&path))?;
    Ok((path, file))
}

/// Read `plan.json` of a results directory.
pub fn read_plan(dir: &Path) -> Result<SavedPlan, ResultsError> {
    let path = dir.join("plan.json");
    let bytes = std::fs::read(&path).map_err(io(&path))?;
    serde_json::from_slice(&bytes).map_err(|e| ResultsError::Mismatch {
        path: path.display().to_string(),
        message: format!("not a plan file: {e}"),
    })
}

/// The results files of a directory (`results*.jsonl`), sorted by name.
pub fn result_files(dir: &Path) -> Result<Vec<PathBuf>, ResultsError> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let path = entry.map_err(io(dir))?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.starts_with("results") && name.ends_with(".jsonl") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// A results line that was skipped, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedLine {
    /// The file.
    pub file: PathBuf,
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub why: String,
}

impl std::fmt::Display for SkippedLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: skipping a results line ({}); its game will be played again",
            self.file.display(),
            self.line,
            self.why
        )
    }
}

const CHECK_KEY: &str = ",\"check\":\"";
const CHECK_HEX: usize = 32;

fn checksum(body: &[u8]) -> String {
    hex::encode(&sha2::Sha256::digest(body)[..CHECK_HEX / 2])
}

/// One results line (without its newline): the game's JSON with its checksum last.
pub fn encode_line(game: &GameLine) -> Vec<u8> {
    let mut body = serde_json::to_vec(game).expect("results serialize");
    let check = checksum(&body);
    body.pop(); // the closing brace
    body.extend_from_slice(CHECK_KEY.as_bytes());
    body.extend_from_slice(check.as_bytes());
    body.extend_from_slice(b"\"}");
    body
}

/// A game's results line as appended to the log: [`encode_line`] and its newline.
pub fn line_of(game: &GameLine) -> Vec<u8> {
    let mut line = encode_line(game);
    line.push(b'\n');
    line
}

/// Read one results line (without its newline), checking its checksum.
pub fn decode_line(line: &[u8]) -> Result<GameLine, String> {
    let text = std::str::from_utf8(line).map_err(|e| format!("not UTF-8: {e}"))?;
    let at = text
        .rfind(CHECK_KEY)
        .ok_or("no checksum (incomplete, or not written by the arena)")?;
    let check = text[at + CHECK_KEY.len()..]
        .strip_suffix("\"}")
        .filter(|c| c.len() == CHECK_HEX)
        .ok_or("malformed checksum")?;
    let body = format!("{}}}", &text[..at]);
    if checksum(body.as_bytes()) != check {
        return Err("checksum mismatch: the line was changed after it was written".into());
    }
    serde_json::from_str(&body).map_err(|e| format!("not a game line: {e}"))
}

/// Every valid line of the results files in `dir` that belongs to `fingerprint`, by game
/// index, plus the lines that were skipped (damaged, edited, torn). A game recorded twice
/// must be recorded identically.
pub fn read_results_reporting(
    dir: &Path,
    fingerprint: &str,
) -> Result<(BTreeMap<u32, GameLine>, Vec<SkippedLine>), ResultsError> {
    let mut games = BTreeMap::new();
    let mut skipped = Vec::new();
    for path in result_files(dir)? {
        let bytes = std::fs::read(&path).map_err(io(&path))?;
        let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
        if lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        for (number, line) in lines.into_iter().enumerate() {
            let game = match decode_line(line) {
                Ok(game) => game,
                Err(why) => {
                    skipped.push(SkippedLine {
                        file: path.clone(),
                        line: number + 1,
                        why,
                    });
                    continue;
                }
            };
            if game.fingerprint != fingerprint {
                return Err(ResultsError::Mismatch {
                    path: format!("{}:{}", path.display(), number + 1),
                    message: "a game of another plan (fingerprint differs)".into(),
                });
            }
            if let Some(previous) = games.get(&game.game)
                && previous != &game
            {
                return Err(ResultsError::Mismatch {
                    path: format!("{}:{}", path.display(), number + 1),
                    message: format!(
                        "game {} is recorded twice with different results",
                        game.game
                    ),
                });
            }
            games.insert(game.game, game);
        }
    }
    Ok((games, skipped))
}

/// Like [`read_results_reporting`], with skipped lines logged as warnings.
pub fn read_results(
    dir: &Path,
    fingerprint: &str,
) -> Result<BTreeMap<u32, GameLine>, ResultsError> {
    let (games, skipped) = read_results_reporting(dir, fingerprint)?;
    for line in &skipped {
        tracing::warn!("{line}");
    }
    Ok(games)
}

/// An exclusive lock on a results file, held until dropped.
#[derive(Debug)]
pub struct RunLock {
    _file: std::fs::File,
}

/// Lock the results file `results` (its directory is created if missing) for one run: a
/// lock file `.NAME.lock` beside it, holding the process id of the run that holds it. Fails
/// at once if another process holds it, naming that process. Shards write separate files,
/// so they can share a directory; two runs of the same slice cannot.
pub fn lock(results: &Path) -> Result<RunLock, ResultsError> {
    let path = lock_path(results);
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(io(&path))?;
    match file.try_lock() {
        Ok(()) => {
            // The holder's pid, for the message of a run refused while this one is going.
            // The lock is what counts: a stale pid in an unlocked file means nothing.
            file.set_len(0)
                .and_then(|()| write!(&file, "{}", std::process::id()))
                .map_err(io(&path))?;
            Ok(RunLock { _file: file })
        }
        Err(std::fs::TryLockError::WouldBlock) => Err(ResultsError::Locked {
            holder: lock_holder(&path),
            path: path.display().to_string(),
        }),
        Err(std::fs::TryLockError::Error(e)) => Err(io(&path)(e)),
    }
}

/// Fail as [`lock`] would if another run holds the lock of `results`, creating nothing:
/// a caller about to spend time before it locks (building bots) says so at once.
pub fn check_unlocked(results: &Path) -> Result<(), ResultsError> {
    let path = lock_path(results);
    let Ok(file) = std::fs::File::open(&path) else {
        return Ok(());
    };
    match file.try_lock_shared() {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => Err(ResultsError::Locked {
            holder: lock_holder(&path),
            path: path.display().to_string(),
        }),
        Err(std::fs::TryLockError::Error(e)) => Err(io(&path)(e)),
    }
}

/// `.NAME.lock` beside the results file `NAME`.
fn lock_path(results: &Path) -> PathBuf {
    let dir = results.parent().unwrap_or(Path::new("."));
    let name = results
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("results");
    dir.join(format!(".{name}.lock"))
}

/// The process id written into a held lock file (`None` if it cannot be read, e.g. a
/// holder that has locked but not yet written it).
fn lock_holder(path: &Path) -> Option<u32> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(32)
        .read_to_string(&mut text)
        .ok()?;
    text.trim().parse().ok()
}

/// Write `bytes` to `path` atomically: a temporary file in the same directory, synced and
/// renamed into place, so a reader sees the old file or the whole new one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ResultsError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("file"),
        std::process::id()
    ));
    {
        let mut file = std::fs::File::create(&tmp).map_err(io(&tmp))?;
        file.write_all(bytes).map_err(io(&tmp))?;
        file.sync_data().map_err(io(&tmp))?;
    }
    std::fs::rename(&tmp, path).map_err(io(path))
}

/// An append-only results file. Opening it cuts a torn last line, so appends always start
/// on a fresh line.
#[derive(Debug)]
pub struct ResultsWriter {
    path: PathBuf,
    file: std::fs::File,
}

impl ResultsWriter {
    /// Open (or create) `path` for appending.
    pub fn open(path: &Path) -> Result<ResultsWriter, ResultsError> {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .map_err(io(path))?;
        let mut text = Vec::new();
        std::io::Read::read_to_end(&mut file, &mut text).map_err(io(path))?;
        if !text.is_empty() && !text.ends_with(b"\n") {
            let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            tracing::warn!(file = %path.display(), "cutting a torn last line left by an interrupted run");
            file.set_len(keep as u64).map_err(io(path))?;
            file.seek(std::io::SeekFrom::End(0)).map_err(io(path))?;
        }
        Ok(ResultsWriter {
            path: path.to_owned(),
            file,
        })
    }

    /// Append one game and flush it to the operating system.
    pub fn append(&mut self, game: &GameLine) -> Result<(), ResultsError> {
        self.append_line(&line_of(game))
    }

    /// Append a line made by [`line_of`]: the workers of a run encode their lines before
    /// they take the writer's lock, and hold it only for the write.
    pub fn append_line(&mut self, line: &[u8]) -> Result<(), ResultsError> {
        self.file.write_all(line).map_err(io(&self.path))?;
        self.file.flush().map_err(io(&self.path))
    }
}

/// Write `games` (sorted by index) as a results file, replacing `path` atomically.
pub fn write_sorted(path: &Path, games: &BTreeMap<u32, GameLine>) -> Result<(), ResultsError> {
    let tmp = path.with_extension("jsonl.tmp");
    {
        let mut file = std::io::BufWriter::new(std::fs::File::create(&tmp).map_err(io(&tmp))?);
        for game in games.values() {
            file.write_all(&encode_line(game)).map_err(io(&tmp))?;
            file.write_all(b"\n").map_err(io(&tmp))?;
        }
        file.flush().map_err(io(&tmp))?;
    }
    std::fs::rename(&tmp, path).map_err(io(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> GameLine {
        GameLine {
            fingerprint: "f".repeat(64),
            game: 3,
            mode: Mode::Battle,
            seed: 42,
            bots: ["a".into(), "b".into()],
            sha256: [None, Some("0".repeat(64))],
            winner: Some(1),
            reason: "team destroyed".into(),
            turns: 57,
            seats: [0, 1].map(|seat| SeatOutcome {
                stats: [("kills".to_owned(), seat)].into(),
                faults: 0,
                fault_kinds: Default::default(),
                invalid_actions: 1,
                fuel: 12_345,
                forfeited: false,
            }),
        }
    }

    #[test]
    fn a_line_reads_back_and_any_edit_is_caught() {
        let line = encode_line(&game());
        assert_eq!(decode_line(&line).unwrap(), game());
        let text = String::from_utf8(line).unwrap();
        let edited = text.replace("\"winner\":1", "\"winner\":0");
        assert_ne!(edited, text);
        assert!(
            decode_line(edited.as_bytes())
                .unwrap_err()
                .contains("checksum mismatch")
        );
        let unchecked = serde_json::to_string(&game()).unwrap();
        assert!(
            decode_line(unchecked.as_bytes())
                .unwrap_err()
                .contains("no checksum")
        );
        assert!(decode_line(b"\xff\xfe").unwrap_err().contains("not UTF-8"));
    }

    #[test]
    fn a_held_lock_refuses_a_second_holder_until_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("results.jsonl");
        let first = lock(&file).unwrap();
        let me = std::process::id();
        assert!(matches!(
            lock(&file),
            Err(ResultsError::Locked { holder: Some(pid), .. }) if pid == me
        ));
        // Another shard's file is another lock.
        lock(&dir.path().join("results-shard-1-of-2.jsonl")).unwrap();
        drop(first);
        lock(&file).unwrap();
    }
}
