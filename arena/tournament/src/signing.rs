//! Replay signatures: who vouches for a replay's bot names, hashes and engine version.
//!
//! `arena replay verify` re-simulates a replay, which proves the game follows from its
//! rules, seed and answers, but not who played: anyone can edit the names, module hashes or
//! engine version. A server signs the replays it stores with an Ed25519 key kept beside its
//! database ([`ReplayKey`]); a signed replay carries one more top-level member,
//!
//! ```json
//! "signature": { "algorithm": "ed25519", "key": "<public key, 64 hex digits>", "value": "<128 hex digits>",
//!                "fields": { "bots[0].name": "<16 hex digits>", "engine_version": "…", … } }
//! ```
//!
//! over [`SIGNATURE_DOMAIN`] followed by the replay's JSON without that member, written
//! compactly with its members in the order `serde_json` reads them into a value (so
//! re-indenting the file keeps the signature; changing any value breaks it). `fields`
//! holds a digest of each field as signed (each bot's members one by one, every other
//! top-level member whole): it is not what vouches — the signature is —, it lets a
//! signature that does not match name the fields changed since signing.
//! [`check`] tells a signed replay from an unsigned one and refuses a signature that does
//! not match. docs/replay.md, "Signatures".

use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// What the signature covers before the replay's bytes: a signature of this arena's
/// replays is never valid for anything else signed with the same key.
pub const SIGNATURE_DOMAIN: &[u8] = b"bot-arena replay signature v1\0";
/// The top-level member a signature is kept in.
pub const MEMBER: &str = "signature";
const ALGORITHM: &str = "ed25519";

/// Signing or checking a replay failed.
#[derive(Debug, thiserror::Error)]
pub enum SigningError {
    /// The replay is not a JSON object.
    #[error("the replay is not a JSON object: {0}")]
    NotJson(String),
    /// The `signature` member is not one this arena writes.
    #[error("its `signature` member is malformed: {0}")]
    Malformed(String),
    /// The signature does not verify under the key it names.
    #[error("its signature by {key} does not match: {changed}")]
    Mismatch {
        /// The key the replay names, in hex.
        key: String,
        /// What was changed since signing, as far as the signature's field digests tell.
        changed: Changed,
    },
    /// A key file cannot be read or written.
    #[error("{path}: {message}")]
    KeyFile {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// A public key given as text is not one.
    #[error(
        "`{0}` is not an Ed25519 public key: give its 64 hex digits or a file holding them (the server writes one beside its database, DB.replay-key.pub)"
    )]
    BadKey(String),
}

/// What changed in a replay whose signature does not match, by the field digests signed
/// with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Changed {
    /// These fields differ from their digests (added or removed ones included).
    Fields(Vec<String>),
    /// Every field matches its digest, or there are none to compare: the signature itself,
    /// or its digests, were changed too.
    Unknown,
}

impl std::fmt::Display for Changed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Changed::Fields(fields) => {
                let names: Vec<String> = fields.iter().map(|n| format!("`{n}`")).collect();
                let (noun, verb) = if fields.len() == 1 {
                    ("field", "was")
                } else {
                    ("fields", "were")
                };
                write!(
                    f,
                    "the {noun} {} {verb} changed after it was signed",
                    names.join(", ")
                )
            }
            Changed::Unknown => f.write_str(
                "the replay was changed after it was signed (or the signature was not made for it)",
            ),
        }
    }
}

/// An Ed25519 public key, written as 64 lowercase hex digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PublicKey(VerifyingKey);

impl std::fmt::Display for PublicKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&hex::encode(self.0.as_bytes()))
    }
}

impl std::str::FromStr for PublicKey {
    type Err = SigningError;
    fn from_str(text: &str) -> Result<Self, SigningError> {
        let bad = || SigningError::BadKey(text.to_owned());
        let bytes: [u8; 32] = hex::decode(text.trim())
            .ok()
            .and_then(|b| b.try_into().ok())
            .ok_or_else(bad)?;
        VerifyingKey::from_bytes(&bytes)
            .map(PublicKey)
            .map_err(|_| bad())
    }
}

impl PublicKey {
    /// A key given on the command line: its hex digits, or a file holding them.
    pub fn from_arg(arg: &str) -> Result<PublicKey, SigningError> {
        if let Ok(key) = arg.parse() {
            return Ok(key);
        }
        let path = Path::new(arg);
        if path.is_file() {
            let text = read_small(path)?;
            return text.trim().parse();
        }
        Err(SigningError::BadKey(arg.to_owned()))
    }
}

/// The key a server signs its replays with (the secret half).
#[derive(Debug)]
pub struct ReplayKey(SigningKey);

/// Where a database's replay key is kept: `DB.replay-key` (the public key beside it in
/// `DB.replay-key.pub`).
pub fn key_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".replay-key");
    PathBuf::from(name)
}

impl ReplayKey {
    /// A new random key, kept nowhere (tests, in-memory servers).
    pub fn generate() -> Result<ReplayKey, SigningError> {
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed).map_err(|e| SigningError::KeyFile {
            path: "(new key)".into(),
            message: format!("no randomness for a new key: {e}"),
        })?;
        Ok(ReplayKey(SigningKey::from_bytes(&seed)))
    }

    /// The key in `path` (its 32-byte secret as 64 hex digits), created owner-only on first
    /// use, with the public key written to `PATH.pub`.
    pub fn load_or_create(path: &Path) -> Result<ReplayKey, SigningError> {
        let fail = |message: String| SigningError::KeyFile {
            path: path.display().to_string(),
            message,
        };
        if std::fs::symlink_metadata(path).is_err() {
            let key = ReplayKey::generate()?;
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            match options.open(path) {
                Ok(mut file) => {
                    use std::io::Write;
                    writeln!(file, "{}", hex::encode(key.0.to_bytes()))
                        .and_then(|()| file.sync_all())
                        .map_err(|e| fail(format!("cannot write the new key: {e}")))?;
                }
                // Another process made it first: use theirs.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(fail(format!("cannot create: {e}"))),
            }
        }
        let text = read_small(path)?;
        let seed: [u8; 32] = hex::decode(text.trim())
            .ok()
            .and_then(|b| b.try_into().ok())
            .ok_or_else(|| fail("not a replay key (64 hex digits)".into()))?;
        let key = ReplayKey(SigningKey::from_bytes(&seed));
        let public = PathBuf::from({
            let mut name = path.as_os_str().to_owned();
            name.push(".pub");
            name
        });
        std::fs::write(&public, format!("{}\n", key.public()))
            .map_err(|e| fail(format!("cannot write {}: {e}", public.display())))?;
        Ok(key)
    }

    /// The public half, which `arena replay verify --key` takes.
    pub fn public(&self) -> PublicKey {
        PublicKey(self.0.verifying_key())
    }

    /// `replay` (a JSON object) with its signature added as its last member, replacing any
    /// signature it had. The replay's own bytes are kept as they are before it.
    pub fn sign(&self, replay: &[u8]) -> Result<Vec<u8>, SigningError> {
        let text = std::str::from_utf8(replay)
            .map_err(|_| SigningError::NotJson("it is not UTF-8".into()))?;
        let mut value = object(text)?;
        let had_signature = value
            .as_object_mut()
            .is_some_and(|members| members.remove(MEMBER).is_some());
        let signature = self.0.sign(&signed_message(&value));
        let member = serde_json::json!({
            "algorithm": ALGORITHM,
            "key": self.public().to_string(),
            "value": hex::encode(signature.to_bytes()),
            "fields": field_digests(&value),
        });
        let empty = value.as_object().is_some_and(serde_json::Map::is_empty);
        if had_signature || empty {
            // Written anew: an old signature cannot be cut out of the text reliably, and an
            // empty object takes no comma.
            if let Some(members) = value.as_object_mut() {
                members.insert(MEMBER.into(), member);
            }
            return Ok(serde_json::to_vec(&value).expect("a value serializes"));
        }
        let body = text.trim_end();
        let body = body.strip_suffix('}').expect("a JSON object ends with `}`");
        let mut out = body.as_bytes().to_vec();
        out.extend_from_slice(format!(",\"{MEMBER}\":{member}}}").as_bytes());
        if text.ends_with('\n') {
            out.push(b'\n');
        }
        Ok(out)
    }
}

/// Whether a replay is signed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Signed {
    /// It has no signature: nothing vouches for its bot names, hashes or engine version.
    Unsigned,
    /// Its signature by this key matches.
    By(PublicKey),
}

/// Check a replay's signature, if it has one: [`Signed::By`] the key it names when the
/// signature matches, [`Signed::Unsigned`] without one, an error when it is malformed or
/// does not match.
pub fn check(replay: &[u8]) -> Result<Signed, SigningError> {
    let text =
        std::str::from_utf8(replay).map_err(|_| SigningError::NotJson("it is not UTF-8".into()))?;
    let mut value = object(text)?;
    let Some(member) = value.as_object_mut().and_then(|m| m.remove(MEMBER)) else {
        return Ok(Signed::Unsigned);
    };
    let malformed = |what: &str| SigningError::Malformed(what.to_owned());
    let field = |name: &str| {
        member
            .get(name)
            .and_then(Value::as_str)
            .ok_or_else(|| malformed(&format!("no `{name}` string")))
    };
    let algorithm = field("algorithm")?;
    if algorithm != ALGORITHM {
        return Err(malformed(&format!(
            "algorithm `{algorithm}`; this arena signs with `{ALGORITHM}`"
        )));
    }
    let key: PublicKey = field("key")?
        .parse()
        .map_err(|_| malformed("`key` is not an Ed25519 public key (64 hex digits)"))?;
    let bytes: [u8; 64] = hex::decode(field("value")?)
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| malformed("`value` is not an Ed25519 signature (128 hex digits)"))?;
    key.0
        .verify_strict(&signed_message(&value), &Signature::from_bytes(&bytes))
        .map_err(|_| SigningError::Mismatch {
            key: key.to_string(),
            changed: changed_fields(member.get("fields"), &value),
        })?;
    Ok(Signed::By(key))
}

/// Each field of a replay (without its signature) by name, with a digest of its compact
/// JSON: each bot's members one by one (`bots[0].name`), every other top-level member
/// whole.
fn field_digests(replay: &Value) -> serde_json::Map<String, Value> {
    use sha2::{Digest, Sha256};
    let digest = |value: &Value| {
        let bytes = serde_json::to_vec(value).expect("a value serializes");
        Value::String(hex::encode(&Sha256::digest(&bytes)[..8]))
    };
    let mut fields = serde_json::Map::new();
    for (name, member) in replay.as_object().into_iter().flatten() {
        match (name.as_str(), member) {
            ("bots", Value::Array(bots)) => {
                for (seat, bot) in bots.iter().enumerate() {
                    match bot.as_object() {
                        Some(members) => {
                            for (key, value) in members {
                                fields.insert(format!("bots[{seat}].{key}"), digest(value));
                            }
                        }
                        None => {
                            fields.insert(format!("bots[{seat}]"), digest(bot));
                        }
                    }
                }
            }
            _ => {
                fields.insert(name.clone(), digest(member));
            }
        }
    }
    fields
}

/// The fields whose digests differ from those signed (`signed`, the signature's `fields`).
fn changed_fields(signed: Option<&Value>, replay: &Value) -> Changed {
    let Some(signed) = signed.and_then(Value::as_object) else {
        return Changed::Unknown;
    };
    let now = field_digests(replay);
    let mut changed: Vec<String> = now
        .iter()
        .filter(|(name, digest)| signed.get(*name) != Some(digest))
        .map(|(name, _)| name.clone())
        .chain(
            signed
                .keys()
                .filter(|name| !now.contains_key(*name))
                .cloned(),
        )
        .collect();
    changed.sort();
    if changed.is_empty() {
        Changed::Unknown
    } else {
        Changed::Fields(changed)
    }
}

fn object(text: &str) -> Result<Value, SigningError> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| SigningError::NotJson(e.to_string()))?;
    if !value.is_object() {
        return Err(SigningError::NotJson("it is not an object".into()));
    }
    Ok(value)
}

/// The bytes a signature covers: the domain, then the replay (without its signature)
/// written compactly.
fn signed_message(replay: &Value) -> Vec<u8> {
    let mut message = SIGNATURE_DOMAIN.to_vec();
    serde_json::to_writer(&mut message, replay).expect("a value serializes");
    message
}

/// A key file: small, read whole.
fn read_small(path: &Path) -> Result<String, SigningError> {
    use std::io::Read;
    let fail = |message: String| SigningError::KeyFile {
        path: path.display().to_string(),
        message,
    };
    let file = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
    if !file.metadata().map_err(|e| fail(e.to_string()))?.is_file() {
        return Err(fail("not a regular file".into()));
    }
    let mut text = String::new();
    file.take(1024)
        .read_to_string(&mut text)
        .map_err(|e| fail(e.to_string()))?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPLAY: &str =
        "{\"format\":\"bot-arena-replay\",\"bots\":[{\"name\":\"a\"}],\"seed\":7}\n";

    #[test]
    fn a_signed_replay_checks_as_signed_by_its_key() {
        let key = ReplayKey::generate().unwrap();
        let signed = key.sign(REPLAY.as_bytes()).unwrap();
        assert!(signed.starts_with(REPLAY.trim_end().strip_suffix('}').unwrap().as_bytes()));
        assert_eq!(check(&signed).unwrap(), Signed::By(key.public()));
    }

    #[test]
    fn an_unsigned_replay_checks_as_unsigned() {
        assert_eq!(check(REPLAY.as_bytes()).unwrap(), Signed::Unsigned);
    }

    #[test]
    fn an_edited_bot_name_breaks_the_signature() {
        let key = ReplayKey::generate().unwrap();
        let signed = String::from_utf8(key.sign(REPLAY.as_bytes()).unwrap()).unwrap();
        let edited = signed.replace("\"name\":\"a\"", "\"name\":\"b\"");
        let error = check(edited.as_bytes()).unwrap_err();
        assert!(
            matches!(&error, SigningError::Mismatch { key: k, .. } if *k == key.public().to_string()),
            "{error}"
        );
        assert_eq!(
            error.to_string(),
            format!(
                "its signature by {} does not match: the field `bots[0].name` was changed after it was signed",
                key.public()
            )
        );
    }

    #[test]
    fn an_edit_to_the_digests_too_is_a_mismatch_of_unknown_fields() {
        let key = ReplayKey::generate().unwrap();
        let signed = key.sign(REPLAY.as_bytes()).unwrap();
        let mut value: Value = serde_json::from_slice(&signed).unwrap();
        value["seed"] = 8.into();
        let digests = field_digests(&value);
        value[MEMBER]["fields"]["seed"] = digests["seed"].clone();
        let error = check(&serde_json::to_vec(&value).unwrap()).unwrap_err();
        assert!(
            matches!(
                &error,
                SigningError::Mismatch {
                    changed: Changed::Unknown,
                    ..
                }
            ),
            "{error}"
        );
    }

    #[test]
    fn re_indenting_keeps_the_signature() {
        let key = ReplayKey::generate().unwrap();
        let signed = key.sign(REPLAY.as_bytes()).unwrap();
        let value: Value = serde_json::from_slice(&signed).unwrap();
        let pretty = serde_json::to_vec_pretty(&value).unwrap();
        assert_eq!(check(&pretty).unwrap(), Signed::By(key.public()));
    }

    #[test]
    fn signing_again_replaces_the_signature() {
        let (first, second) = (
            ReplayKey::generate().unwrap(),
            ReplayKey::generate().unwrap(),
        );
        let twice = second
            .sign(&first.sign(REPLAY.as_bytes()).unwrap())
            .unwrap();
        assert_eq!(check(&twice).unwrap(), Signed::By(second.public()));
    }

    #[test]
    fn a_key_file_is_created_once_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = key_path(&dir.path().join("arena.db"));
        let first = ReplayKey::load_or_create(&path).unwrap();
        let again = ReplayKey::load_or_create(&path).unwrap();
        assert_eq!(first.public(), again.public());
        let public = std::fs::read_to_string(format!("{}.pub", path.display())).unwrap();
        assert_eq!(PublicKey::from_arg(public.trim()).unwrap(), first.public());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "the secret key is owner-only");
        }
    }
}
