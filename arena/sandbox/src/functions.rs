//! Cranelift's incremental compilation cache on disk, beside the module cache: each
//! compiled function is kept under the hash cranelift computes of its whole IR (the
//! function's code with its fuel and epoch checks, its signature and the target's flags),
//! so a module compiled again after an edit — a JavaScript bot's runner with another
//! script in its data, a Python bot's CPython with another snapshot, a Go bot with one
//! function changed — reuses every function that did not change.
//!
//! An entry is `<dir>/<2 hex>/<62 hex>` (the SHA-256 of cranelift's key), holding a magic,
//! an HMAC-SHA256 of the key and the value under the module cache's owner-only key, and
//! the value: a compiled function is machine code, so only entries this arena wrote are
//! used (the same checks as the module cache's: owner, mode, regular file; see
//! `cache.rs`). An entry that fails a check is a miss, and the function is compiled.
//! Entries are written without `fsync`: a lost or torn one is a miss too.

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::path::PathBuf;

const MAGIC: &[u8; 8] = b"ARENAF01";
const MAC_BYTES: usize = 32;
/// A compiled function is at most a few MiB (wasmtime's own limit on a function's size).
const MAX_ENTRY_BYTES: u64 = 64 << 20;

/// The compiled functions of one engine configuration, under one MAC key.
pub(crate) struct FunctionCache {
    dir: PathBuf,
    key: Vec<u8>,
}

impl std::fmt::Debug for FunctionCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FunctionCache")
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

impl FunctionCache {
    /// The cache in `dir` (created owner-only if missing; it must pass the module
    /// cache's checks) under MAC `key`.
    pub(crate) fn open(dir: PathBuf, key: Vec<u8>) -> Result<Self, String> {
        crate::cache::private_dir(&dir, true)?;
        Ok(FunctionCache { dir, key })
    }

    fn path(&self, key: &[u8]) -> (PathBuf, PathBuf) {
        let name = hex::encode(Sha256::digest(key));
        let shard = self.dir.join(&name[..2]);
        let path = shard.join(&name[2..]);
        (shard, path)
    }

    fn mac(&self, key: &[u8], value: &[u8]) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).expect("HMAC takes any key length");
        mac.update(b"bot-arena function cache v1\0");
        mac.update(&(key.len() as u64).to_le_bytes());
        mac.update(key);
        mac.update(value);
        mac
    }
}

impl FunctionCache {
    /// Remove the least recently used entries while the cache holds more than `cap`
    /// bytes, down to three quarters of it (a hit marks an entry used).
    pub(crate) fn prune(&self, cap: u64) {
        let mut entries = Vec::new();
        let mut total = 0u64;
        let Ok(shards) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for shard in shards.flatten() {
            let Ok(files) = std::fs::read_dir(shard.path()) else {
                continue;
            };
            for file in files.flatten() {
                let Ok(meta) = file.metadata() else { continue };
                if !meta.is_file() {
                    continue;
                }
                total += meta.len();
                let used = meta.modified().unwrap_or(std::time::UNIX_EPOCH);
                entries.push((used, meta.len(), file.path()));
            }
        }
        if total <= cap {
            return;
        }
        entries.sort();
        for (_, len, path) in entries {
            if total <= cap / 4 * 3 {
                break;
            }
            if std::fs::remove_file(&path).is_ok() {
                total -= len;
            }
        }
    }
}

/// The most the compiled functions of one engine configuration take on disk (the Python
/// starter's are about 190 MB).
pub(crate) const CAP_BYTES: u64 = 1 << 30;

impl wasmtime::CacheStore for FunctionCache {
    fn get(&self, key: &[u8]) -> Option<Cow<'_, [u8]>> {
        let (_, path) = self.path(key);
        let bytes = crate::cache::read_private(&path, MAX_ENTRY_BYTES).ok()?;
        let rest = bytes.strip_prefix(MAGIC)?;
        if rest.len() < MAC_BYTES {
            return None;
        }
        let (stored, value) = rest.split_at(MAC_BYTES);
        // Constant time: the check leaks nothing about the key.
        self.mac(key, value).verify_slice(stored).ok()?;
        // Used now: pruning removes the entries unused longest first.
        let mut options = std::fs::OpenOptions::new();
        options.read(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOFOLLOW);
        if let Ok(file) = options.open(&path) {
            let _ = file.set_modified(std::time::SystemTime::now());
        }
        Some(Cow::Owned(value.to_vec()))
    }

    fn insert(&self, key: &[u8], value: Vec<u8>) -> bool {
        let (shard, path) = self.path(key);
        if crate::cache::private_dir(&shard, true).is_err() {
            return false;
        }
        let mut entry = Vec::with_capacity(MAGIC.len() + MAC_BYTES + value.len());
        entry.extend_from_slice(MAGIC);
        entry.extend_from_slice(&self.mac(key, &value).finalize().into_bytes());
        entry.extend_from_slice(&value);
        crate::cache::write_entry(&shard, &path, &entry).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasmtime::CacheStore;

    #[test]
    fn entries_come_back_only_as_written_under_the_key() {
        let dir = tempfile::tempdir().unwrap();
        let cache = FunctionCache::open(dir.path().join("f"), vec![7; 32]).unwrap();
        assert!(cache.get(b"k").is_none());
        assert!(cache.insert(b"k", b"compiled".to_vec()));
        assert_eq!(cache.get(b"k").as_deref(), Some(&b"compiled"[..]));
        assert!(cache.get(b"other").is_none());
        // Another key (another user's cache, or a forged entry) reads nothing.
        let forged = FunctionCache::open(dir.path().join("f"), vec![8; 32]).unwrap();
        assert!(forged.get(b"k").is_none());
        // A changed byte fails the MAC.
        let (_, path) = cache.path(b"k");
        let mut bytes = std::fs::read(&path).unwrap();
        *bytes.last_mut().unwrap() ^= 1;
        std::fs::write(&path, bytes).unwrap();
        assert!(cache.get(b"k").is_none());
    }

    #[test]
    fn pruning_keeps_the_most_recently_used_entries_under_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let cache = FunctionCache::open(dir.path().join("f"), vec![7; 32]).unwrap();
        let entry = |i: u8| vec![i; 1000];
        for i in 0..10u8 {
            assert!(cache.insert(&[i], entry(i)));
            let (_, path) = cache.path(&[i]);
            let file = std::fs::File::open(path).unwrap();
            // Entry i was used i seconds after the first.
            let at =
                std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000 + u64::from(i));
            file.set_modified(at).unwrap();
        }
        // Ten entries of 1,040 bytes; a cap of 8,000 keeps the newest 5 (5,200 <= 6,000).
        cache.prune(8_000);
        let kept: Vec<u8> = (0..10u8).filter(|&i| cache.path(&[i]).1.exists()).collect();
        assert_eq!(kept, [5, 6, 7, 8, 9]);
        assert_eq!(cache.get(&[9]).as_deref(), Some(&entry(9)[..]));
        // Under the cap nothing goes.
        cache.prune(8_000);
        assert_eq!(
            (0..10u8).filter(|&i| cache.path(&[i]).1.exists()).count(),
            5
        );
    }
}
