//! On-disk cache of compiled modules, keyed by the module's content hash and the engine's
//! compatibility hash, so a bot is compiled once per machine and engine configuration.
//!
//! wasmtime's `Module::deserialize` runs whatever machine code it is given, so an entry
//! must never be one that this arena did not compile from that exact module. Each entry
//! carries an HMAC-SHA256, under a key only this user can read (`<dir>/key`, created on
//! first use), of the module's SHA-256, the engine hash and the compiled bytes; it is
//! checked before anything is deserialized. The directory, the key and the entries must
//! be owned by this user, not writable by group or others, and regular files (never a
//! symlink, which is not followed, nor a FIFO or device, which is not opened in a way that
//! could block); entries are written to a temporary file and renamed into place. An entry that fails any check is
//! ignored with a warning and replaced by a fresh compile. Threat model: docs/abi.md.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::hash::{Hash, Hasher};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use wasmtime::{Engine, Module};

const MAGIC: &[u8; 8] = b"ARENAC01";
const MAC_BYTES: usize = 32;
const KEY_BYTES: usize = 32;
/// Entries larger than this are refused unread (a compiled bot is a few MiB at most).
const MAX_ENTRY_BYTES: u64 = 1 << 30;

/// A directory of compiled modules (`<sha256>-<engine hash>.cwasm`) and its MAC key.
#[derive(Debug, Clone)]
pub struct ModuleCache {
    dir: PathBuf,
}

/// What a lookup found.
pub(crate) enum Lookup<T> {
    /// A verified entry, deserialized.
    Hit(T),
    /// No entry.
    Miss,
    /// An entry (or the cache itself) that failed a check: why. Recompile.
    Refused(String),
}

impl ModuleCache {
    /// A cache in `dir` (created, owner-only, on first use).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        ModuleCache { dir: dir.into() }
    }

    /// The default location: `$ARENA_CACHE_DIR`, else `$XDG_CACHE_HOME/bot-arena/modules`,
    /// else `~/.cache/bot-arena/modules`; `None` when none of these is set.
    pub fn default_location() -> Option<PathBuf> {
        if let Some(dir) = std::env::var_os("ARENA_CACHE_DIR") {
            return Some(PathBuf::from(dir));
        }
        let base = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cache")))?;
        Some(base.join("bot-arena").join("modules"))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn engine_hash(engine: &Engine) -> String {
        // DefaultHasher is only stable within one Rust release; a different hash after an
        // upgrade is just a cache miss.
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        engine.precompile_compatibility_hash().hash(&mut hasher);
        format!("{:016x}", hasher.finish())
    }

    /// The entry file of module `sha256` for `engine`.
    pub fn entry_path(&self, engine: &Engine, sha256: &str) -> PathBuf {
        self.dir
            .join(format!("{sha256}-{}.cwasm", Self::engine_hash(engine)))
    }

    fn mac(key: &[u8], engine: &Engine, sha256: &str, compiled: &[u8]) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
        mac.update(b"bot-arena module cache v1\0");
        mac.update(sha256.as_bytes());
        mac.update(b"\0");
        mac.update(Self::engine_hash(engine).as_bytes());
        mac.update(b"\0");
        mac.update(compiled);
        mac
    }

    /// A previously compiled module of `sha256`, if the cache holds one that passes every
    /// check.
    pub(crate) fn get(&self, engine: &Engine, sha256: &str) -> Lookup<Module> {
        // SAFETY: see `get_with`: the bytes are what this cache verified.
        #[allow(unsafe_code)]
        self.get_with(engine, sha256, |compiled| unsafe {
            Module::deserialize(engine, compiled)
        })
    }

    /// A previously compiled component of `sha256` (its file's), like [`ModuleCache::get`].
    pub(crate) fn get_component(
        &self,
        engine: &Engine,
        sha256: &str,
    ) -> Lookup<wasmtime::component::Component> {
        // SAFETY: see `get_with`: the bytes are what this cache verified.
        #[allow(unsafe_code)]
        self.get_with(engine, sha256, |compiled| unsafe {
            wasmtime::component::Component::deserialize(engine, compiled)
        })
    }

    /// The entry of `sha256`, verified, given to `deserialize` — which must be wasmtime's
    /// deserializer for `engine` of the kind of code the file with that SHA-256 is (a
    /// module's bytes never hash like a component's, so an entry is always of its kind).
    fn get_with<T>(
        &self,
        engine: &Engine,
        sha256: &str,
        deserialize: impl FnOnce(&[u8]) -> wasmtime::Result<T>,
    ) -> Lookup<T> {
        let path = self.entry_path(engine, sha256);
        match std::fs::symlink_metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Lookup::Miss,
            _ => {}
        }
        let refused = |why: String| Lookup::Refused(format!("{}: {why}", path.display()));
        let key = match self.key(false) {
            Ok(Some(key)) => key,
            // Entries without a key cannot be trusted (a key is created with the first).
            Ok(None) => return refused("the cache has no key file".into()),
            Err(why) => return Lookup::Refused(why),
        };
        let bytes = match read_private(&path, MAX_ENTRY_BYTES) {
            Ok(bytes) => bytes,
            Err(why) => return refused(why),
        };
        let Some(rest) = bytes.strip_prefix(MAGIC) else {
            return refused("not a cache entry of this arena".into());
        };
        if rest.len() < MAC_BYTES {
            return refused("truncated".into());
        }
        let (stored, compiled) = rest.split_at(MAC_BYTES);
        // `verify_slice` compares in constant time: the check leaks nothing about the key.
        if Self::mac(&key, engine, sha256, compiled)
            .verify_slice(stored)
            .is_err()
        {
            return refused(
                "its MAC does not match: it was not compiled by this arena from this module".into(),
            );
        }
        // `deserialize` trusts its input to be code serialized by this wasmtime. The MAC
        // above proves these bytes were written by this cache (holding the owner-only key)
        // for this file and engine, after this arena compiled them.
        match deserialize(compiled) {
            Ok(module) => Lookup::Hit(module),
            Err(error) => refused(format!("unusable: {error:#}")),
        }
    }

    /// Store a compiled module (`compiled` is wasmtime's serialized form). Failures only
    /// cost a recompile next time, so they are logged, not returned.
    pub(crate) fn put(&self, engine: &Engine, sha256: &str, compiled: &[u8]) {
        let path = self.entry_path(engine, sha256);
        let result = (|| -> Result<(), String> {
            let key = self.key(true)?.expect("created on demand");
            let mut entry = Vec::with_capacity(MAGIC.len() + MAC_BYTES + compiled.len());
            entry.extend_from_slice(MAGIC);
            entry.extend_from_slice(
                &Self::mac(&key, engine, sha256, compiled)
                    .finalize()
                    .into_bytes(),
            );
            entry.extend_from_slice(compiled);
            write_private(&self.dir, &path, &entry, true)
        })();
        if let Err(error) = result {
            tracing::warn!(path = %path.display(), %error, "cannot write module cache entry");
        }
    }

    /// The MAC key; created (with the directory) when `create` and missing.
    fn key(&self, create: bool) -> Result<Option<Vec<u8>>, String> {
        self.check_dir(create)?;
        let path = self.dir.join("key");
        if std::fs::symlink_metadata(&path).is_err() {
            if !create {
                return Ok(None);
            }
            let mut key = vec![0u8; KEY_BYTES];
            getrandom::fill(&mut key).map_err(|e| format!("cannot make a cache key: {e}"))?;
            // Two processes may race to create the key: the first rename wins and both
            // read the winner's.
            write_private(&self.dir, &path, &key, false)?;
        }
        let key = read_private(&path, KEY_BYTES as u64)
            .map_err(|why| format!("{}: {why}", path.display()))?;
        if key.len() != KEY_BYTES {
            return Err(format!(
                "{}: the cache key must be {KEY_BYTES} bytes",
                path.display()
            ));
        }
        Ok(Some(key))
    }

    /// The directory must be a real directory of this user that nobody else can write.
    fn check_dir(&self, create: bool) -> Result<(), String> {
        private_dir(&self.dir, create)
    }

    /// Where the compiled functions of `engine`'s configuration are kept
    /// (`functions-<engine hash>/`), and the key they are signed with (created if missing).
    pub(crate) fn functions_dir_and_key(
        &self,
        engine: &Engine,
    ) -> Result<(PathBuf, Vec<u8>), String> {
        let key = self.key(true)?.expect("created on demand");
        let dir = self
            .dir
            .join(format!("functions-{}", Self::engine_hash(engine)));
        Ok((dir, key))
    }
}

/// `dir` must be a real directory of this user that nobody else can write; created
/// (owner-only) if missing and `create`.
pub(crate) fn private_dir(dir: &Path, create: bool) -> Result<(), String> {
    if create && std::fs::symlink_metadata(dir).is_err() {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder
            .create(dir)
            .map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    }
    let meta = std::fs::symlink_metadata(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if !meta.is_dir() {
        return Err(format!(
            "{}: the module cache must be a directory, not a symlink or file",
            dir.display()
        ));
    }
    private(&meta).map_err(|why| format!("{}: {why}", dir.display()))
}

/// Owned by this user and not writable by group or others.
#[cfg(unix)]
fn private(meta: &std::fs::Metadata) -> Result<(), String> {
    use std::os::unix::fs::MetadataExt;
    let me = rustix::process::geteuid().as_raw();
    if meta.uid() != me {
        return Err(format!(
            "owned by user {}, not by this user ({me})",
            meta.uid()
        ));
    }
    if meta.mode() & 0o022 != 0 {
        return Err(format!(
            "writable by group or others (mode {:o})",
            meta.mode() & 0o7777
        ));
    }
    Ok(())
}

#[cfg(not(unix))]
fn private(_meta: &std::fs::Metadata) -> Result<(), String> {
    Ok(())
}

/// Read a regular file that passes [`private`], refusing symlinks and anything else that
/// is not a regular file (a FIFO, a device, a directory, a socket) without blocking on it:
/// the path is checked without following links before it is opened, and opened with
/// `O_NOFOLLOW | O_NONBLOCK` and checked again, so a swap between check and open is
/// caught too (opening a FIFO for reading would otherwise wait for a writer forever).
pub(crate) fn read_private(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    const NOT_REGULAR: &str = "entries must be regular files";
    let kind = std::fs::symlink_metadata(path)
        .map_err(|e| format!("cannot read: {e}"))?
        .file_type();
    if !kind.is_file() {
        return Err(format!("{}; {NOT_REGULAR}", file_kind(kind)));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        libc::O_NOFOLLOW | libc::O_NONBLOCK,
    );
    let file = options.open(path).map_err(|e| match e.raw_os_error() {
        #[cfg(unix)]
        Some(libc::ELOOP) => format!("a symlink; {NOT_REGULAR}"),
        _ => format!("cannot open: {e}"),
    })?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(format!("{}; {NOT_REGULAR}", file_kind(meta.file_type())));
    }
    private(&meta)?;
    if meta.len() > max {
        return Err(format!("{} bytes; at most {max} expected", meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// What a file that is not a regular file is, in words.
fn file_kind(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    if kind.is_symlink() {
        "a symlink"
    } else if kind.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// Write `bytes` to `path` atomically, owner-only (a temporary file renamed into place),
/// synced to disk. Without `replace`, an existing file is kept.
fn write_private(dir: &Path, path: &Path, bytes: &[u8], replace: bool) -> Result<(), String> {
    write_file(dir, path, bytes, replace, true)
}

/// Like `write_private`, replacing, without syncing: for entries whose loss costs only a
/// recompile (a torn one fails its MAC).
pub(crate) fn write_entry(dir: &Path, path: &Path, bytes: &[u8]) -> Result<(), String> {
    write_file(dir, path, bytes, true, false)
}

fn write_file(
    dir: &Path,
    path: &Path,
    bytes: &[u8],
    replace: bool,
    sync: bool,
) -> Result<(), String> {
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .permissions({
            #[cfg(unix)]
            {
                std::os::unix::fs::PermissionsExt::from_mode(0o600)
            }
            #[cfg(not(unix))]
            {
                std::fs::metadata(dir)
                    .map_err(|e| e.to_string())?
                    .permissions()
            }
        })
        .tempfile_in(dir)
        .map_err(|e| e.to_string())?;
    tmp.write_all(bytes)
        .and_then(|()| {
            if sync {
                tmp.as_file().sync_data()
            } else {
                Ok(())
            }
        })
        .map_err(|e| e.to_string())?;
    if replace {
        tmp.persist(path).map_err(|e| e.to_string())?;
    } else {
        match tmp.persist_noclobber(path) {
            Ok(_) => {}
            Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(())
}
