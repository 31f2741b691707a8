//! Bot-provided text the host keeps (fault messages, logs): cut on a character boundary,
//! bounded.

/// The longest prefix of `text` of at most `max` bytes that ends on a character boundary.
pub(crate) fn cut(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Bot-provided text kept in a fault (an `{"error": …}` message, a log line) is cut to this
/// many bytes: a fault is stored in every result and replay.
pub const FAULT_TEXT_BYTES: usize = 1024;

/// `text`, cut to [`FAULT_TEXT_BYTES`] with its full length said.
pub(crate) fn bounded(text: &str) -> String {
    if text.len() <= FAULT_TEXT_BYTES {
        return text.to_owned();
    }
    format!(
        "{}… ({} bytes in all)",
        cut(text, FAULT_TEXT_BYTES),
        text.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_keeps_whole_characters() {
        assert_eq!(cut("aé", 2), "a");
        assert_eq!(cut("aé", 3), "aé");
        assert_eq!(cut("abc", 0), "");
    }
}
