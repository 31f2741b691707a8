//! Text from bots (logs, `{"error": …}` messages, names and events in replay files) is
//! hostile: escape sequences could clear the screen or fake an "ok". Everything such text
//! reaches the terminal through [`escape`], in `check`, `play` and `replay show`.

use std::borrow::Cow;

/// `text` with every control character except newline and tab — C0, DEL, C1 (which some
/// terminals take as CSI) — and the bidirectional overrides written as `\u{…}`.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(dangerous) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if dangerous(c) {
            out += &format!("\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn dangerous(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escape_sequences_are_shown_not_obeyed() {
        assert_eq!(
            escape("\u{1b}[2J\u{1b}[32mok\r\u{9b}x\u{202e}"),
            "\\u{1b}[2J\\u{1b}[32mok\\u{d}\\u{9b}x\\u{202e}"
        );
        assert_eq!(escape("plain\ttext\nlines é"), "plain\ttext\nlines é");
    }
}
