//! The security headers every answer carries: a Content-Security-Policy that allows only
//! the server's own assets, `X-Frame-Options`, `X-Content-Type-Options: nosniff` and a
//! referrer policy.
//!
//! The pages load one stylesheet (`/style.css`), pictures from the server (the report's
//! SVG) and frame only the server's own viewer; they have no inline script or style. The
//! viewer (`/games/{id}/viewer`, `arena_viewer::page`) is one self-contained page: its
//! inline `<script>` and `<style>` elements are allowed by their SHA-256 hashes, computed
//! from the page sent, so nothing else inline can run. It alone may be framed, by the
//! server's own game page (`SAMEORIGIN`). Its script sets `style` attributes (a seat's
//! colour swatch), which `style-src-attr 'unsafe-inline'` allows: attributes cannot load or
//! run anything, and no text from a bot reaches one.

use axum::http::{HeaderName, HeaderValue, header};
use axum::response::Response;
use sha2::{Digest, Sha256};

/// The policy of every answer but the viewer's: the server's own stylesheet, pictures and
/// viewer frame; nothing inline, no script, no forms, no framing by anyone.
pub(crate) const PAGE_CSP: &str = "default-src 'none'; style-src 'self'; img-src 'self'; \
     frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// Add the security headers an answer does not set itself (the viewer and the report's
/// SVG set their own policy).
pub(crate) async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    let defaults = [
        (header::CONTENT_SECURITY_POLICY, PAGE_CSP),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "same-origin"),
    ];
    for (name, value) in defaults {
        if !headers.contains_key(&name) {
            headers.insert(name, HeaderValue::from_static(value));
        }
    }
    response
}

/// The viewer page's own headers: its policy (the hashes of the inline elements of `html`)
/// and framing by the server's pages only.
pub(crate) fn viewer_headers(html: &[u8]) -> [(HeaderName, HeaderValue); 2] {
    let csp = viewer_csp(&String::from_utf8_lossy(html));
    [
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_str(&csp).unwrap_or(HeaderValue::from_static(PAGE_CSP)),
        ),
        (
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("SAMEORIGIN"),
        ),
    ]
}

/// The policy of a self-contained page: only its own inline `<script>` and `<style>`
/// elements (by hash) run or apply. A `<script type=…>` data block is not executed and
/// needs no hash.
pub(crate) fn viewer_csp(html: &str) -> String {
    let scripts = inline_hashes(html, "script");
    let styles = inline_hashes(html, "style");
    let list = |hashes: &[String]| {
        if hashes.is_empty() {
            "'none'".to_owned()
        } else {
            hashes
                .iter()
                .map(|h| format!("'sha256-{h}'"))
                .collect::<Vec<_>>()
                .join(" ")
        }
    };
    format!(
        "default-src 'none'; script-src {scripts}; style-src {styles}; style-src-elem {styles}; \
         style-src-attr 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; \
         frame-ancestors 'self'",
        scripts = list(&scripts),
        styles = list(&styles),
    )
}

/// The base64 SHA-256 of the content of every `<tag>` element (written exactly so, no
/// attributes) in `html`.
fn inline_hashes(html: &str, tag: &str) -> Vec<String> {
    let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
    let mut hashes = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find(&open) {
        let body = &rest[start + open.len()..];
        let Some(end) = body.find(&close) else { break };
        let hash = base64(&Sha256::digest(&body.as_bytes()[..end]));
        if !hashes.contains(&hash) {
            hashes.push(hash);
        }
        rest = &body[end + close.len()..];
    }
    hashes
}

/// Standard base64 with padding (what CSP hashes are written in).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_the_standard_one() {
        for (bytes, text) in [
            (&b""[..], ""),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"foobar", "Zm9vYmFy"),
            (b"\xfb\xff", "+/8="),
        ] {
            assert_eq!(base64(bytes), text);
        }
    }

    #[test]
    fn the_viewer_policy_allows_exactly_its_inline_elements() {
        let html = "<style>\nbody{}\n</style><script>\nalert(1)\n</script>\
                    <script type=\"application/json\" id=\"d\">{}</script><script>\nalert(1)\n</script>";
        let csp = viewer_csp(html);
        // `echo -n $'\nalert(1)\n' | openssl sha256 -binary | base64`
        let script = base64(&Sha256::digest(b"\nalert(1)\n"));
        let style = base64(&Sha256::digest(b"\nbody{}\n"));
        assert!(
            csp.contains(&format!("script-src 'sha256-{script}';")),
            "one hash for the two equal scripts, none for the data block: {csp}"
        );
        assert!(
            csp.contains(&format!("style-src-elem 'sha256-{style}';")),
            "{csp}"
        );
        assert!(
            csp.contains(&format!("style-src 'sha256-{style}';")),
            "{csp}"
        );
        assert!(csp.contains("style-src-attr 'unsafe-inline';"), "{csp}");
        assert_eq!(
            csp.matches("unsafe").count(),
            1,
            "only style attributes: {csp}"
        );
        assert!(csp.contains("frame-ancestors 'self'"), "{csp}");
        assert!(viewer_csp("<p>no script</p>").contains("script-src 'none'"));
    }
}
