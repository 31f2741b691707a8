//! Accounts and tokens. A token is 32 random bytes from the operating system (256 bits),
//! shown once as hex; the database keeps only its SHA-256. A presented token is hashed and
//! looked up by that hash (an index lookup, one per request whatever the number of users):
//! what its timing could reveal is how much of a SHA-256 matched, which says nothing about
//! any token, since a guess cannot choose its hash.

use crate::store::{Store, StoreError, User};
use sha2::{Digest, Sha256};

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
    store.user_by_token_hash(&token_hash(token))
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
        // The database holds the 32-byte SHA-256, not the token.
        assert_eq!(token_hash(&token).len(), 32);
        assert_eq!(
            store.user_by_token_hash(&token_hash(&token)).unwrap(),
            Some(user.clone())
        );
        assert_eq!(store.user_by_token_hash(token.as_bytes()).unwrap(), None);
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
