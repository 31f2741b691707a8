//! What the bot builders of other languages (`golang.rs`, `python.rs`, `javascript.rs`)
//! share: the framing of what their cache keys hash, and keeping only the current build
//! in a bot directory's `target/arena-<language>/`.

use sha2::{Digest, Sha256};
use std::path::Path;

/// Add `bytes` to `hash` with their length first, so that no two inputs run together.
pub(crate) fn framed(hash: &mut Sha256, bytes: &[u8]) {
    hash.update((bytes.len() as u64).to_le_bytes());
    hash.update(bytes);
}

/// Remove every `.wasm` of `out_dir` but `current`: only the build of the current sources
/// is kept (an older one is made again from its sources if those come back).
pub(crate) fn keep_only(out_dir: &Path, current: &Path) {
    if let Ok(entries) = std::fs::read_dir(out_dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path != current && path.extension().is_some_and(|e| e == "wasm") {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

/// A name of this build's own for the files it writes before renaming its result into
/// place (`<key>.<pid>-<nanos>`, beside the result's `<key>.wasm`): a build cut short
/// leaves nothing that looks finished, and two builds at once do not mix.
pub(crate) fn own_name(key: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("{key}.{}-{nanos}", std::process::id())
}

/// The variable naming a directory of builds shared between bot directories.
pub const SHARED_DIR_VAR: &str = "ARENA_BUILD_CACHE_DIR";

/// Where the shared cache (`$ARENA_BUILD_CACHE_DIR`, when set and not empty) keeps the
/// build of `language` with `key`: `<dir>/<language>/<key>.wasm`.
fn shared_entry(language: &str, key: &str) -> Option<std::path::PathBuf> {
    let dir = std::env::var_os(SHARED_DIR_VAR).filter(|dir| !dir.is_empty())?;
    Some(Path::new(&dir).join(language).join(format!("{key}.wasm")))
}

/// Put `from` at `to` through a file of this process's own beside `to` (a hard link, or a
/// copy where one cannot be made), renamed into place: `to` never holds part of a file.
fn place(from: &Path, to: &Path, key: &str) -> std::io::Result<()> {
    let dir = to.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let partial = dir.join(format!("{}.partial", own_name(key)));
    if std::fs::hard_link(from, &partial).is_err()
        && let Err(e) = std::fs::copy(from, &partial)
    {
        let _ = std::fs::remove_file(&partial);
        return Err(e);
    }
    std::fs::rename(&partial, to).inspect_err(|_| {
        let _ = std::fs::remove_file(&partial);
    })
}

/// The shared cache's build of `language` with `key`, put at `wasm` (the bot directory's
/// own cache entry); false when there is none (or no shared cache), and a build is due.
/// A shared cache that cannot be read is only a slower build, never an error.
pub(crate) fn from_shared(language: &str, key: &str, wasm: &Path) -> bool {
    let Some(entry) = shared_entry(language, key) else {
        return false;
    };
    if !entry.is_file() {
        return false;
    }
    match place(&entry, wasm, key) {
        Ok(()) => {
            tracing::info!(entry = %entry.display(), "bot build taken from the shared cache");
            true
        }
        Err(e) => {
            tracing::warn!(entry = %entry.display(), "cannot take a build from the shared cache: {e}");
            false
        }
    }
}

/// Keep the build at `wasm` of `language` with `key` in the shared cache too, if there is
/// one. A failure to keep it is logged and otherwise ignored.
pub(crate) fn to_shared(language: &str, key: &str, wasm: &Path) {
    let Some(entry) = shared_entry(language, key) else {
        return;
    };
    if entry.is_file() {
        return;
    }
    if let Err(e) = place(wasm, &entry, key) {
        tracing::warn!(entry = %entry.display(), "cannot keep a build in the shared cache: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placed_file_arrives_whole_and_leaves_no_partial_behind() {
        let dir = tempfile::tempdir().unwrap();
        let from = dir.path().join("a.wasm");
        std::fs::write(&from, b"\0asm built").unwrap();
        let to = dir.path().join("shared/python/k.wasm");
        place(&from, &to, "k").unwrap();
        assert_eq!(std::fs::read(&to).unwrap(), b"\0asm built");
        let left: Vec<_> = std::fs::read_dir(to.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["k.wasm"]);
        let missing = dir.path().join("missing.wasm");
        assert!(place(&missing, &dir.path().join("x.wasm"), "x").is_err());
        assert!(!dir.path().join("x.wasm").exists());
    }
}
