//! The two encodings of requests and responses on the host side (docs/abi.md): JSON, every
//! bot's default, and the binary encoding a bot may choose through `arena_encoding`.
//! Requests are encoded into the caller's reused buffer; responses are decoded straight
//! from the bot's memory. Every way a response can be wrong is a typed [`Fault`].

use arena_engine::{Fault, FaultKind};
use arena_sdk::protocol::{RequestRef, to_binary};
use arena_sdk::{Encoding, Game};
use serde::de::DeserializeOwned;

/// Which encodings the host offers a bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EncodingPolicy {
    /// The fastest encoding the bot reads (binary when it exports `arena_encoding` and
    /// picks it, JSON otherwise).
    #[default]
    Fastest,
    /// JSON for every bot: the reference the binary path is checked against (results and
    /// replays must not change, fuel aside).
    Json,
}

impl EncodingPolicy {
    /// The bitmask passed to `arena_encoding`: the encodings, and the flag of the kept
    /// request buffer, which every policy offers (it changes how a request reaches the
    /// bot, not what it says).
    pub fn offered(self) -> i32 {
        let encodings = match self {
            EncodingPolicy::Fastest => Encoding::ALL.iter().fold(0, |bits, e| bits | e.bit()),
            EncodingPolicy::Json => Encoding::Json.bit(),
        };
        encodings | arena_sdk::KEPT_BUFFER
    }
}

impl std::str::FromStr for EncodingPolicy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "fastest" => Ok(EncodingPolicy::Fastest),
            "json" => Ok(EncodingPolicy::Json),
            _ => Err(format!("unknown encoding `{s}`; use fastest or json")),
        }
    }
}

/// Encode `request` into `out` as the host sends it (cleared first; its capacity is kept
/// from call to call).
pub fn encode_request<G: Game>(
    encoding: Encoding,
    request: RequestRef<'_, G>,
    out: &mut Vec<u8>,
) -> Result<(), Fault> {
    out.clear();
    let written = match encoding {
        Encoding::Json => serde_json::to_writer(&mut *out, &request).map_err(|e| e.to_string()),
        Encoding::Binary => to_binary(&request, out).map_err(|e| e.to_string()),
    };
    written.map_err(|e| Fault::new(FaultKind::WrongShape, format!("cannot encode request: {e}")))
}

/// Decode a setup choice or an action.
pub(crate) fn decode<T: DeserializeOwned>(encoding: Encoding, bytes: &[u8]) -> Result<T, Fault> {
    match encoding {
        Encoding::Json => decode_json(bytes),
        Encoding::Binary => decode_binary(bytes),
    }
}

/// Check the answer to start or end: only an error (or garbage) matters; empty is fine.
pub(crate) fn decode_ack(encoding: Encoding, bytes: &[u8]) -> Result<(), Fault> {
    match encoding {
        Encoding::Json if bytes.iter().all(u8::is_ascii_whitespace) => Ok(()),
        Encoding::Json => decode_json::<serde_json::Value>(bytes).map(drop),
        Encoding::Binary if bytes.is_empty() => Ok(()),
        Encoding::Binary => decode_binary::<()>(bytes),
    }
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct BotErrorResponse {
    error: String,
}

/// Parse a JSON response, telling apart bad UTF-8, bad JSON, a bot's `{"error": …}` and
/// the wrong shape.
fn decode_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Fault> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| Fault::new(FaultKind::NotUtf8, format!("response is not UTF-8: {e}")))?;
    // A key spelt `error` holds those letters or an escape: other answers skip the trial
    // parse, whose failure would allocate an error on every turn.
    let may_be_error = text.contains("error") || text.contains('\\');
    if may_be_error && let Ok(BotErrorResponse { error }) = serde_json::from_str(text) {
        return Err(Fault::new(
            FaultKind::BotError,
            crate::text::bounded(&error),
        ));
    }
    serde_json::from_str(text).map_err(|e| {
        // Whether the text is JSON at all is decided by syntax alone (`IgnoredAny` does not
        // check number ranges), so `1e999999` and a 30-digit integer are both JSON of the
        // wrong shape, in every mode.
        let kind = if serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() {
            FaultKind::WrongShape
        } else {
            FaultKind::NotJson
        };
        let shown: String = text.chars().take(120).collect();
        Fault::new(kind, format!("{e} in response `{shown}`"))
    })
}

/// Parse a binary response: the tag 0 and the answer, exactly, or the tag 1 and an error
/// message (a string). Anything else is `wrong_shape` (a message that is not UTF-8:
/// `not_utf8`), and the message quotes the response's first bytes in hex.
fn decode_binary<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Fault> {
    let wrong = |kind: FaultKind, what: String| {
        let shown: Vec<String> = bytes.iter().take(32).map(|b| format!("{b:02x}")).collect();
        let more = if bytes.len() > 32 { " …" } else { "" };
        Fault::new(
            kind,
            format!(
                "{what} in the binary response of {} bytes `{}{more}`",
                bytes.len(),
                shown.join(" ")
            ),
        )
    };
    let kind_of = |e: &postcard::Error| match e {
        postcard::Error::DeserializeBadUtf8 => FaultKind::NotUtf8,
        _ => FaultKind::WrongShape,
    };
    match bytes.split_first() {
        Some((0, answer)) => {
            let (value, rest) = postcard::take_from_bytes::<T>(answer)
                .map_err(|e| wrong(kind_of(&e), format!("cannot decode the answer: {e}")))?;
            if !rest.is_empty() {
                return Err(wrong(
                    FaultKind::WrongShape,
                    format!("{} bytes after the answer", rest.len()),
                ));
            }
            Ok(value)
        }
        Some((1, message)) => match postcard::take_from_bytes::<&str>(message) {
            Ok((error, [])) => Err(Fault::new(FaultKind::BotError, crate::text::bounded(error))),
            Ok((_, rest)) => Err(wrong(
                FaultKind::WrongShape,
                format!("{} bytes after the error message", rest.len()),
            )),
            Err(e) => Err(wrong(
                kind_of(&e),
                format!("cannot decode the error message: {e}"),
            )),
        },
        Some((tag, _)) => Err(wrong(
            FaultKind::WrongShape,
            format!("the first byte is {tag}; it must be 0 (an answer) or 1 (an error)"),
        )),
        None => Err(wrong(
            FaultKind::WrongShape,
            "an empty response (a binary answer begins with the byte 0)".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_sdk::battle::Action;

    #[test]
    fn json_of_the_wrong_shape_is_told_apart_from_text_that_is_not_json() {
        for text in [
            "1e999999",
            "123456789012345678901234567890",
            "{\"dance\": 1}",
        ] {
            let fault = decode::<Action>(Encoding::Json, text.as_bytes()).unwrap_err();
            assert_eq!(fault.kind, FaultKind::WrongShape, "{text}: {fault}");
        }
        for text in ["{not json", "", "1e"] {
            let fault = decode::<Action>(Encoding::Json, text.as_bytes()).unwrap_err();
            assert_eq!(fault.kind, FaultKind::NotJson, "{text}: {fault}");
        }
    }

    #[test]
    fn a_bots_error_message_is_kept_to_a_bounded_size() {
        let long = format!("{{\"error\": \"{}\"}}", "é".repeat(30_000));
        let fault = decode::<Action>(Encoding::Json, long.as_bytes()).unwrap_err();
        assert_eq!(fault.kind, FaultKind::BotError);
        assert!(
            fault.message.len() <= crate::text::FAULT_TEXT_BYTES + 40,
            "{}",
            fault.message.len()
        );
        assert!(
            fault.message.ends_with("(60000 bytes in all)"),
            "{}",
            &fault.message[1000..]
        );
        let mut binary = vec![1];
        to_binary("é".repeat(30_000).as_str(), &mut binary).unwrap();
        let fault = decode::<Action>(Encoding::Binary, &binary).unwrap_err();
        assert_eq!(fault.kind, FaultKind::BotError);
        assert!(fault.message.ends_with("(60000 bytes in all)"));
    }

    #[test]
    fn binary_answers_decode_and_every_malformed_one_is_a_typed_fault() {
        // battle's `Action::Attack { target: 4 }` and `Action::Skill`.
        assert_eq!(
            decode::<Action>(Encoding::Binary, &[0, 0, 4]).unwrap(),
            Action::Attack { target: 4 }
        );
        assert_eq!(
            decode::<Action>(Encoding::Binary, &[0, 1]).unwrap(),
            Action::Skill
        );
        let fault = decode::<Action>(Encoding::Binary, &[1, 3, b'b', b'a', b'd']).unwrap_err();
        assert_eq!(
            (fault.kind, fault.message.as_str()),
            (FaultKind::BotError, "bad")
        );
        for (bytes, kind, says) in [
            (&[][..], FaultKind::WrongShape, "an empty response"),
            (&[7, 1], FaultKind::WrongShape, "the first byte is 7"),
            (&[0, 9], FaultKind::WrongShape, "cannot decode the answer"),
            (&[0, 0], FaultKind::WrongShape, "cannot decode the answer"),
            (
                &[0, 1, 0],
                FaultKind::WrongShape,
                "1 bytes after the answer",
            ),
            (
                &[1, 5, b'a'],
                FaultKind::WrongShape,
                "cannot decode the error message",
            ),
            (
                &[1, 1, 0xff],
                FaultKind::NotUtf8,
                "cannot decode the error message",
            ),
            (
                &[1, 1, b'a', 0],
                FaultKind::WrongShape,
                "1 bytes after the error",
            ),
        ] {
            let fault = decode::<Action>(Encoding::Binary, bytes).unwrap_err();
            assert_eq!(fault.kind, kind, "{bytes:?}: {fault}");
            assert!(fault.message.contains(says), "{bytes:?}: {fault}");
        }
        assert!(decode_ack(Encoding::Binary, &[]).is_ok());
        assert!(decode_ack(Encoding::Binary, &[0]).is_ok());
        assert_eq!(
            decode_ack(Encoding::Binary, &[1, 2, b'n', b'o'])
                .unwrap_err()
                .kind,
            FaultKind::BotError
        );
        assert_eq!(
            decode_ack(Encoding::Binary, &[0, 0]).unwrap_err().kind,
            FaultKind::WrongShape
        );
    }
}
