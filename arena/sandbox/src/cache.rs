//! On-disk cache of compiled modules, keyed by the module's content hash and the engine's
//! compatibility hash, so a bot is compiled once per machine and engine configuration.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use wasmtime::{Engine, Module};

/// A directory of compiled modules (`<sha256>-<engine hash>.cwasm`).
#[derive(Debug, Clone)]
pub struct ModuleCache {
    dir: PathBuf,
}

impl ModuleCache {
    /// A cache in `dir` (created on first write).
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

    fn path(&self, engine: &Engine, sha256: &str) -> PathBuf {
        // DefaultHasher is only stable within one Rust release; a different hash after an
        // upgrade is just a cache miss.
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        engine.precompile_compatibility_hash().hash(&mut hasher);
        self.dir
            .join(format!("{sha256}-{:016x}.cwasm", hasher.finish()))
    }

    /// A previously compiled module, if the cache holds a usable one.
    pub(crate) fn get(&self, engine: &Engine, sha256: &str) -> Option<Module> {
        let path = self.path(engine, sha256);
        if !path.is_file() {
            return None;
        }
        // SAFETY: `deserialize_file` trusts the file to be a module serialized by this
        // wasmtime. Only this cache writes into its directory, under a name that includes
        // the engine's compatibility hash, and wasmtime itself checks the version and
        // configuration header; a user who can write to the cache directory can already
        // run code as the user.
        #[allow(unsafe_code)]
        let module = unsafe { Module::deserialize_file(engine, &path) };
        match module {
            Ok(module) => Some(module),
            Err(error) => {
                tracing::warn!(path = %path.display(), %error, "ignoring unusable cache entry");
                None
            }
        }
    }

    /// Store a compiled module. Failures only cost a recompile next time, so they are
    /// logged, not returned.
    pub(crate) fn put(&self, engine: &Engine, sha256: &str, module: &Module) {
        let path = self.path(engine, sha256);
        let result = (|| -> Result<(), String> {
            let bytes = module.serialize().map_err(|e| format!("{e:#}"))?;
            std::fs::create_dir_all(&self.dir).map_err(|e| e.to_string())?;
            let mut tmp = tempfile::NamedTempFile::new_in(&self.dir).map_err(|e| e.to_string())?;
            std::io::Write::write_all(&mut tmp, &bytes).map_err(|e| e.to_string())?;
            tmp.persist(&path).map_err(|e| e.to_string())?;
            Ok(())
        })();
        if let Err(error) = result {
            tracing::warn!(path = %path.display(), %error, "cannot write module cache entry");
        }
    }
}
