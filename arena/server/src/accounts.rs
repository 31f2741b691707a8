//! Accounts and tokens. A token is 32 random bytes from the operating system (256 bits),
//! shown once as hex; the database keeps only its SHA-256. A presented token is hashed and
//! compared with every stored hash in constant time, so neither the comparison nor an index
//! lookup reveals how much of a guess was right.

use crate::store::{Store, StoreError, User};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// A fresh token: 256 bits from the OS's random number generator, as 64 hex digits.
pub fn new_token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    Ok(hex::encode(bytes))
}

/// What the database stores for a token.
pub fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// The user a token belongs to, if any.
pub fn authenticate(store: &Store, token: &str) -> Result<Option<User>, StoreError> {
    let presented = token_hash(token);
    let mut found = None;
    // Every hash is compared (no early exit), each in constant time.
    for (user, hash) in store.token_hashes()? {
        if bool::from(hash.ct_eq(&presented)) {
            found = Some(user);
        }
    }
    Ok(found)
}

/// Check a user or bot name: 1 to 32 characters of `a-z`, `0-9`, `-` and `_`, starting with a
/// letter or digit. Names end up in URLs, file names and tournament files, so nothing else
/// (no `/`, `.`, quotes or spaces) is allowed.
pub fn check_name(kind: &str, name: &str) -> Result<(), String> {
    let ok_char = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_';
    let first_ok = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    if name.is_empty() || name.len() > 32 || !first_ok || !name.chars().all(ok_char) {
        return Err(format!(
            "invalid {kind} name {name:?}: use 1 to 32 characters a-z, 0-9, '-' or '_', starting with a letter or digit"
        ));
    }
    Ok(())
}

/// Create a user and return their token (shown once).
pub fn add_user(store: &Store, name: &str, admin: bool) -> Result<(User, String), AddUserError> {
    check_name("user", name).map_err(AddUserError::Name)?;
    if store.user_exists(name)? {
        return Err(AddUserError::Exists(name.to_owned()));
    }
    let token = new_token().map_err(|e| AddUserError::Random(e.to_string()))?;
    let user = store.add_user(name, &token_hash(&token), admin)?;
    Ok((user, token))
}

/// Why a user could not be added.
#[derive(Debug, thiserror::Error)]
pub enum AddUserError {
    /// The name is not allowed.
    #[error("{0}")]
    Name(String),
    /// The name is taken.
    #[error("a user named `{0}` exists already")]
    Exists(String),
    /// The OS random number generator failed.
    #[error("cannot draw a random token: {0}")]
    Random(String),
    /// The database.
    #[error(transparent)]
    Store(#[from] StoreError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_256_bit_hex_and_stored_only_hashed() {
        let store = Store::in_memory().unwrap();
        let (user, token) = add_user(&store, "alice", false).unwrap();
        assert_eq!(token.len(), 64);
        assert!(token.chars().all(|c| c.is_ascii_hexdigit()));
        let (_, other) = add_user(&store, "bob", false).unwrap();
        assert_ne!(token, other);
        let stored = store.token_hashes().unwrap();
        assert!(
            stored
                .iter()
                .all(|(_, hash)| hash.len() == 32 && hash != token.as_bytes())
        );
        assert_eq!(authenticate(&store, &token).unwrap(), Some(user));
        assert_eq!(authenticate(&store, &token[1..]).unwrap(), None);
        assert_eq!(authenticate(&store, "").unwrap(), None);
        assert!(matches!(
            add_user(&store, "alice", false),
            Err(AddUserError::Exists(_))
        ));
    }

    #[test]
    fn names_that_could_escape_a_path_or_a_file_are_refused() {
        for bad in [
            "",
            "../x",
            "a/b",
            "a.b",
            "A",
            "-x",
            "a b",
            "a\"b",
            &"x".repeat(33),
        ] {
            assert!(check_name("bot", bad).is_err(), "{bad:?}");
        }
        for good in ["a", "bot-1", "my_bot", "9lives"] {
            assert!(check_name("bot", good).is_ok(), "{good:?}");
        }
    }
}
