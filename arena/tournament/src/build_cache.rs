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
