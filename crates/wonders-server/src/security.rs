//! Request checks against cross-site use and DNS rebinding, the security headers of every
//! answer, and the characters a player's name may hold.
//!
//! - A request whose `Host` is not one the server answers to is refused (421, [`check_host`]):
//!   `localhost` and the names under it, any IP address (the server's own included), and the
//!   names the operator listed (`--allowed-hosts`). A page of another site whose name was made
//!   to resolve to the server's address (DNS rebinding) sends its own name, and is refused.
//! - A state-changing request (any method but `GET`, `HEAD`, `OPTIONS`) and the WebSocket's
//!   upgrade are refused (403) when they carry an `Origin` other than the server's own (the
//!   origin whose host is the request's `Host`) or one allowed by `--allowed-origin`. Browsers
//!   always send `Origin` with those; programs that send none are not browsers and are let in.
//! - A state-changing request must say `Content-Type: application/json` (415 otherwise): a
//!   cross-site HTML form or a "simple" `fetch` can only send `text/plain`, form or multipart
//!   bodies, so this alone refuses them, and a JSON one needs a CORS preflight the server never
//!   grants.
//! - Every answer carries a Content-Security-Policy (scripts, styles, images and connections
//!   from the server only; no framing, no plugins, no `<base>`), `X-Content-Type-Options:
//!   nosniff`, `Referrer-Policy: no-referrer` and `X-Frame-Options: DENY`.

use crate::limits::Quota;
use crate::msg::ApiError;
use axum::http::{HeaderMap, HeaderValue, Method, header};
use icu_properties::CodePointMapData;
use icu_properties::props::GeneralCategory;

/// The Content-Security-Policy of every answer.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                       connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
                       frame-ancestors 'none'";

/// Whether a request of this method changes something.
pub fn changes_state(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// Whether the request asks for a WebSocket.
pub fn is_upgrade(headers: &HeaderMap) -> bool {
    headers
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
}

/// Refuses an `Origin` that is neither the server's own nor allowed.
pub fn check_origin(headers: &HeaderMap, allowed: &[String]) -> Result<(), ApiError> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or("");
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    let authority = origin.split_once("://").map(|(_, rest)| rest);
    let same = authority.is_some_and(|a| !host.is_empty() && a.eq_ignore_ascii_case(host));
    if same || allowed.iter().any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin)) {
        Ok(())
    } else {
        Err(ApiError::Forbidden(format!(
            "cross-site request refused: origin `{origin}` is not this server's (`{host}`)"
        )))
    }
}

/// The host name of a `Host` header (or any `host[:port]` authority) as compared: in lower case,
/// without the port or a final dot; an IPv6 address keeps its brackets.
///
/// ```
/// use wonders_server::security::host_name;
/// assert_eq!(host_name("Play.Example.:8080"), "play.example");
/// assert_eq!(host_name("[::1]:80"), "[::1]");
/// assert_eq!(host_name("127.0.0.1"), "127.0.0.1");
/// ```
pub fn host_name(host: &str) -> String {
    let host = host.trim();
    let name = if host.starts_with('[') {
        host.find(']').map_or(host, |end| &host[..=end])
    } else {
        match host.rsplit_once(':') {
            Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
            _ => host,
        }
    };
    name.trim_end_matches('.').to_ascii_lowercase()
}

/// Whether the server answers to the host `name` ([`host_name`]) by default: `localhost` and
/// the names under it (browsers resolve them to the machine itself), and IP addresses (a page
/// whose address is the server's is the server's own page: DNS rebinding needs a name).
fn default_host(name: &str) -> bool {
    name == "localhost"
        || name.ends_with(".localhost")
        || name.parse::<std::net::Ipv4Addr>().is_ok()
        || name
            .strip_prefix('[')
            .and_then(|n| n.strip_suffix(']'))
            .is_some_and(|n| n.parse::<std::net::Ipv6Addr>().is_ok())
}

/// Refuses (421) a request whose `Host` is not one the server answers to: not `localhost` (or a
/// name under it), not an IP address, and not in `allowed` (host names, compared as
/// [`host_name`] does; `*` allows every host). A request without a `Host` (HTTP/1.0, never a
/// browser's) is let in.
pub fn check_host(headers: &HeaderMap, allowed: &[String]) -> Result<(), ApiError> {
    let Some(value) = headers.get(header::HOST) else {
        return Ok(());
    };
    let raw = String::from_utf8_lossy(value.as_bytes());
    let name = host_name(&raw);
    if !name.is_empty()
        && value.to_str().is_ok()
        && (default_host(&name) || allowed.iter().any(|a| a == "*" || host_name(a) == name))
    {
        return Ok(());
    }
    Err(ApiError::HostNotAllowed(format!(
        "host `{}` is not one this server answers to: it answers to localhost, IP addresses and the \
         names given with --allowed-hosts (a rule against DNS rebinding)",
        raw.escape_debug()
    )))
}

/// Requires `Content-Type: application/json` (parameters such as `charset` allowed).
pub fn check_json_content_type(headers: &HeaderMap) -> Result<(), ApiError> {
    let ct = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let essence = ct.split(';').next().unwrap_or("").trim();
    if essence.eq_ignore_ascii_case("application/json") {
        Ok(())
    } else if ct.is_empty() {
        Err(ApiError::UnsupportedMediaType("this request needs `Content-Type: application/json`".into()))
    } else {
        Err(ApiError::UnsupportedMediaType(format!(
            "this request needs `Content-Type: application/json`, not `{ct}`"
        )))
    }
}

/// Adds the security headers to an answer.
pub fn add_headers(headers: &mut HeaderMap) {
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
}

/// The rate limit a request counts against, from its method and path.
pub fn quota_of(method: &Method, path: &str) -> Option<Quota> {
    if *method != Method::POST {
        return None;
    }
    let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    match parts.as_slice() {
        ["", "api", "tables"] => Some(Quota::CreateTable),
        ["", "api", "tables", _, "seats", _] => Some(Quota::TakeSeat),
        ["", "api", "tables", _, "rematch"] => Some(Quota::Rematch),
        _ => None,
    }
}

/// Refuses names holding characters that are invisible or change how the text around them is
/// shown: control characters (Unicode category Cc), format characters (Cf: bidirectional
/// overrides and isolates, zero-width joiners and spaces, soft hyphens, …), line and paragraph
/// separators (Zl, Zp), private-use, surrogate and unassigned code points (Co, Cs, Cn).
pub fn check_name_chars(name: &str) -> Result<(), ApiError> {
    let categories = CodePointMapData::<GeneralCategory>::new();
    for c in name.chars() {
        let what = match categories.get(c) {
            GeneralCategory::Control => "a control character",
            GeneralCategory::Format => "an invisible format character",
            GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator => "a line break",
            GeneralCategory::PrivateUse | GeneralCategory::Surrogate | GeneralCategory::Unassigned => {
                "an unassigned or private-use character"
            }
            _ => continue,
        };
        return Err(ApiError::BadRequest(format!("a name cannot hold {what} (U+{:04X})", u32::from(c))));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn origins_must_be_the_servers_own_or_allowed() {
        let own = headers(&[("host", "play.example:8080"), ("origin", "http://play.example:8080")]);
        assert!(check_origin(&own, &[]).is_ok());
        // Behind a TLS proxy the scheme differs; the host decides.
        let tls = headers(&[("host", "play.example"), ("origin", "https://play.example")]);
        assert!(check_origin(&tls, &[]).is_ok());
        let evil = headers(&[("host", "play.example"), ("origin", "https://evil.example")]);
        let e = check_origin(&evil, &[]).unwrap_err();
        assert_eq!(e.code(), "forbidden");
        assert!(e.to_string().contains("https://evil.example"), "{e}");
        assert!(check_origin(&evil, &["https://evil.example/".to_string()]).is_ok());
        assert!(check_origin(&headers(&[("host", "a"), ("origin", "null")]), &[]).is_err());
        assert!(check_origin(&headers(&[("host", "a")]), &[]).is_ok());
    }

    #[test]
    fn only_json_bodies_are_accepted() {
        assert!(check_json_content_type(&headers(&[("content-type", "application/json")])).is_ok());
        assert!(
            check_json_content_type(&headers(&[("content-type", "Application/JSON; charset=utf-8")])).is_ok()
        );
        let e = check_json_content_type(&headers(&[("content-type", "text/plain")])).unwrap_err();
        assert_eq!((e.status(), e.code()), (415, "unsupported_media_type"));
        assert!(check_json_content_type(&HeaderMap::new()).is_err());
    }

    #[test]
    fn quotas_follow_the_routes() {
        assert_eq!(quota_of(&Method::POST, "/api/tables"), Some(Quota::CreateTable));
        assert_eq!(quota_of(&Method::POST, "/api/tables/ab12/seats/3"), Some(Quota::TakeSeat));
        assert_eq!(quota_of(&Method::POST, "/api/tables/ab12/rematch"), Some(Quota::Rematch));
        assert_eq!(quota_of(&Method::POST, "/api/tables/ab12/actions"), None);
        assert_eq!(quota_of(&Method::GET, "/api/tables"), None);
    }

    #[test]
    fn names_refuse_invisible_and_control_characters() {
        assert!(check_name_chars("Ana María 李").is_ok());
        assert!(check_name_chars("Zoë 🎲").is_ok());
        for (bad, code) in [
            ("evil\u{202E}gnp.exe", 0x202E),
            ("a\u{2066}b", 0x2066),
            ("zero\u{200B}width", 0x200B),
            ("soft\u{AD}hyphen", 0xAD),
            ("bom\u{FEFF}", 0xFEFF),
            ("tab\there", 0x9),
            ("line\u{2028}sep", 0x2028),
            ("private\u{E000}", 0xE000),
        ] {
            let e = check_name_chars(bad).unwrap_err();
            assert!(e.to_string().contains(&format!("U+{code:04X}")), "{bad:?}: {e}");
        }
    }
}
