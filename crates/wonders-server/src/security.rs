//! Request checks against cross-site use and DNS rebinding, the security headers of every
//! answer, and the names a player may take (their characters, and no bot's name or label).
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
use axum::http::{HeaderMap, HeaderName, Method, header};
use icu_properties::props::{
    DefaultIgnorableCodePoint, EmojiModifier, ExtendedPictographic, GeneralCategory, VariationSelector,
    WhiteSpace,
};
use icu_properties::{CodePointMapData, CodePointSetData};

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

/// The security headers of every answer, set by `tower_http::set_header` ([`crate::net::layered`]).
pub const HEADERS: [(HeaderName, &str); 4] = [
    (header::CONTENT_SECURITY_POLICY, CSP),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::REFERRER_POLICY, "no-referrer"),
    (header::X_FRAME_OPTIONS, "DENY"),
];

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

/// The most combining marks one character of a name may carry (Vietnamese needs two, some
/// scripts stack three or four): more pile up over the lines around the name ("Zalgo" text).
pub const MAX_MARKS: usize = 4;

/// What came just before a character of a name, for the characters that attach to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Before {
    /// The name's start, or a space: nothing to attach to.
    Nothing,
    /// A visible character (its marks and variation selector included).
    Visible,
    /// An emoji (with its skin tone and variation selector, if any): a zero-width joiner may
    /// follow it to join another emoji.
    Emoji,
    /// A zero-width joiner inside an emoji sequence.
    Joiner,
}

/// Refuses names that hold characters that are invisible, change how the text around them is
/// shown, or show as spaces, and names with no visible character; each refusal names the
/// character (`U+XXXX`) and why:
///
/// - control characters (Unicode category Cc), line and paragraph separators (Zl, Zp),
///   private-use, surrogate and unassigned code points (Co, Cs, Cn);
/// - format characters (Cf: bidirectional overrides and isolates, zero-width spaces, soft
///   hyphens, …), except a zero-width joiner (U+200D) between two emoji, as in the family emoji
///   👨‍👩‍👧‍👦 (an emoji ZWJ sequence);
/// - the other characters that show as nothing (Unicode's Default_Ignorable_Code_Point: the
///   Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, the combining grapheme joiner U+034F,
///   the Khmer inherent vowels U+17B4 and U+17B5, …), except a variation selector right after a
///   visible character (❤️ is U+2764 U+FE0F);
/// - the blank Braille pattern U+2800, which shows as a space but is not one;
/// - a combining mark with nothing to sit on (at the start, after a space or a joiner), and more
///   than [`MAX_MARKS`] on one character.
///
/// Spaces (White_Space, category Zs) may separate words; the name is trimmed before this check,
/// so a name of spaces alone has no character left.
///
/// ```
/// use wonders_server::security::check_name_chars;
/// assert!(check_name_chars("Zoë 👨\u{200D}👩\u{200D}👧\u{200D}👦 ❤\u{FE0F}").is_ok());
/// let e = check_name_chars("\u{3164}").unwrap_err().to_string();
/// assert!(e.contains("U+3164") && e.contains("Hangul filler"), "{e}");
/// ```
pub fn check_name_chars(name: &str) -> Result<(), ApiError> {
    let categories = CodePointMapData::<GeneralCategory>::new();
    let ignorable = CodePointSetData::new::<DefaultIgnorableCodePoint>();
    let white = CodePointSetData::new::<WhiteSpace>();
    let selector = CodePointSetData::new::<VariationSelector>();
    let emoji = CodePointSetData::new::<ExtendedPictographic>();
    let skin_tone = CodePointSetData::new::<EmojiModifier>();
    let mut before = Before::Nothing;
    let mut marks = 0;
    let mut selected = false;
    let mut visible = false;
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        let refuse = |what: &str| {
            Err(ApiError::BadRequest(format!("a name cannot hold {what} (U+{:04X})", u32::from(c))))
        };
        let category = categories.get(c);
        match category {
            GeneralCategory::Control => return refuse("a control character"),
            GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator => {
                return refuse("a line break");
            }
            GeneralCategory::PrivateUse | GeneralCategory::Surrogate | GeneralCategory::Unassigned => {
                return refuse("an unassigned or private-use character");
            }
            _ => {}
        }
        if c == '\u{200D}' {
            if before == Before::Emoji && chars.peek().is_some_and(|&next| emoji.contains(next)) {
                before = Before::Joiner;
                continue;
            }
            return refuse("a zero-width joiner outside an emoji sequence (it joins two emoji only)");
        }
        if selector.contains(c) {
            if matches!(before, Before::Visible | Before::Emoji) && !selected {
                selected = true;
                continue;
            }
            return refuse("a variation selector with no character before it to select");
        }
        if category == GeneralCategory::Format {
            return refuse("an invisible format character");
        }
        if matches!(c, '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}') {
            return refuse("a Hangul filler, which shows as nothing");
        }
        if c == '\u{2800}' {
            return refuse("a blank Braille pattern, which shows as a space");
        }
        if ignorable.contains(c) {
            return refuse("a character that shows as nothing");
        }
        if matches!(
            category,
            GeneralCategory::NonspacingMark | GeneralCategory::SpacingMark | GeneralCategory::EnclosingMark
        ) {
            if matches!(before, Before::Nothing | Before::Joiner) {
                return refuse("a combining mark with no character before it to sit on");
            }
            marks += 1;
            if marks > MAX_MARKS {
                return refuse(&format!("more than {MAX_MARKS} combining marks on one character"));
            }
            continue;
        }
        selected = false;
        marks = 0;
        if white.contains(c) {
            before = Before::Nothing;
            continue;
        }
        visible = true;
        before = if emoji.contains(c) || (before == Before::Emoji && skin_tone.contains(c)) {
            Before::Emoji
        } else {
            Before::Visible
        };
    }
    if !visible {
        return Err(ApiError::BadRequest("a name needs at least one visible character".into()));
    }
    Ok(())
}

/// A name as compared with bots' names and labels: full-width forms as ASCII, in lower case,
/// combining marks, variation selectors and joiners left out, every run of spaces one space.
fn folded(name: &str) -> String {
    let categories = CodePointMapData::<GeneralCategory>::new();
    let white = CodePointSetData::new::<WhiteSpace>();
    let mut out = String::new();
    for c in name.chars() {
        let c = match u32::from(c) {
            0xFF01..=0xFF5E => char::from_u32(u32::from(c) - 0xFEE0).unwrap_or(c),
            _ => c,
        };
        if white.contains(c) {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
        } else if !matches!(
            categories.get(c),
            GeneralCategory::NonspacingMark | GeneralCategory::EnclosingMark | GeneralCategory::Format
        ) {
            out.extend(c.to_lowercase());
        }
    }
    out.trim_end().to_string()
}

/// Whether a folded name reads as a bot seat's label: `Bot 2 (heuristic)` as the server names
/// bot seats (`Bot`, then the seat's number, then the bot in brackets), or a part of it (`Bot`,
/// `Bot 2`, `Bot (random)`, `bot #3`).
fn bot_label(folded: &str) -> bool {
    let Some(rest) = folded.strip_prefix("bot") else {
        return false;
    };
    let rest = rest.trim_start().trim_start_matches('#').trim_start();
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start();
    rest.is_empty() || (rest.starts_with('(') && rest.ends_with(')'))
}

/// Refuses names that pass for a bot: a bot seat's label (`Bot 2 (heuristic)`, `Bot`, `Bot 2`),
/// the name of a bot (`heuristic`, `search:300ms`, `card-first`, one of `bots`), and a name
/// ending with the page's mark of a bot seat (`(bot)`, `(電腦)`). Compared case-insensitively,
/// with full-width letters as ASCII and marks and extra spaces left out.
pub fn check_name_not_a_bot(name: &str, bots: &[String]) -> Result<(), ApiError> {
    let plain = folded(name);
    if bot_label(&plain) {
        return Err(ApiError::BadRequest(format!(
            "the name `{name}` looks like a bot's seat: bots' seats are named `Bot <seat> (<bot>)`"
        )));
    }
    // The built-in bots, also with options (`search:300ms`, `heuristic:flat-naval`), and any
    // external bot (`exec:…`).
    let builtin = ["random", "card-first", "heuristic", "search"];
    let kind = plain.split(':').next().unwrap_or("");
    let is_bot = bots.iter().any(|b| folded(b) == plain)
        || builtin.contains(&plain.as_str())
        || (builtin.contains(&kind) && plain.contains(':') && !plain.contains(' '))
        || plain.starts_with("exec:");
    if is_bot {
        return Err(ApiError::BadRequest(format!(
            "the name `{name}` is a bot's name: people's names must not be"
        )));
    }
    if plain.ends_with("(bot)") || plain.ends_with("(電腦)") {
        return Err(ApiError::BadRequest(format!(
            "the name `{name}` ends with the mark of a bot's seat; choose another"
        )));
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

    /// The refusal of `name`: its message, which must name the code point `code`.
    fn refusal(name: &str, code: u32) -> String {
        let e = check_name_chars(name).expect_err(name).to_string();
        assert!(e.contains(&format!("U+{code:04X}")), "{name:?}: {e}");
        e
    }

    #[test]
    fn names_of_characters_that_show_as_nothing_or_as_spaces_are_refused() {
        for (c, why) in [
            ('\u{034F}', "shows as nothing"),
            ('\u{115F}', "Hangul filler"),
            ('\u{1160}', "Hangul filler"),
            ('\u{3164}', "Hangul filler"),
            ('\u{FFA0}', "Hangul filler"),
            ('\u{2800}', "blank Braille pattern"),
            ('\u{17B4}', "shows as nothing"),
            ('\u{17B5}', "shows as nothing"),
            ('\u{FE0F}', "variation selector"),
            ('\u{FE00}', "variation selector"),
            ('\u{E0100}', "variation selector"),
            ('\u{180B}', "variation selector"),
            ('\u{0301}', "combining mark"),
            ('\u{20E3}', "combining mark"),
            ('\u{200D}', "zero-width joiner"),
            ('\u{E0061}', "format character"),
        ] {
            let code = u32::from(c);
            // Alone, repeated, and (except those that attach to the character before) inside a
            // name: refused, naming the code point and the reason.
            for name in [c.to_string(), format!("{c}{c}{c}"), format!("{c}Ann")] {
                let e = refusal(&name, code);
                assert!(e.contains(why), "{name:?}: {e}");
            }
            if !matches!(why, "variation selector" | "combining mark") {
                let e = refusal(&format!("Ann{c}Lee"), code);
                assert!(e.contains(why), "{c:?} inside: {e}");
            }
        }
        // Marks and selectors after a space have nothing to sit on; a second selector selects
        // nothing.
        refusal("Ann \u{0301}", 0x301);
        refusal("Ann \u{FE0F}", 0xFE0F);
        refusal("❤\u{FE0F}\u{FE0F}", 0xFE0F);
        // A joiner joins two emoji, nothing else.
        refusal("a\u{200D}b", 0x200D);
        refusal("👨\u{200D}", 0x200D);
        refusal("👨\u{200D}a", 0x200D);
        refusal("a\u{200D}👩", 0x200D);
        refusal("👨\u{200D}\u{200D}👩", 0x200D);
        // Zalgo: five marks on one letter.
        let e = refusal("Ze\u{0301}\u{0302}\u{0303}\u{0304}\u{0305}", 0x305);
        assert!(e.contains("more than 4 combining marks"), "{e}");
        // Spaces alone leave nothing visible.
        let e = check_name_chars("\u{3000} ").unwrap_err().to_string();
        assert!(e.contains("visible character"), "{e}");
    }

    #[test]
    fn names_with_emoji_sequences_marks_and_other_scripts_are_accepted() {
        for name in [
            "👨\u{200D}👩\u{200D}👧\u{200D}👦",
            "Ann 👨\u{200D}👩\u{200D}👧\u{200D}👦 Lee",
            "e\u{0301}mile",
            "Nguye\u{0302}\u{0303}n",
            "李小龍",
            "山田\u{3000}太郎",
            "❤\u{FE0F}",
            "I ❤\u{FE0F} 7W",
            "🏳\u{FE0F}\u{200D}🌈",
            "👩\u{1F3FD}\u{200D}💻",
            "1\u{FE0F}\u{20E3}",
            "🇹🇼 Mei",
            "नमस्ते",
            "สมชาย",
            "Zoë",
        ] {
            assert!(check_name_chars(name).is_ok(), "{name:?}: {:?}", check_name_chars(name));
        }
    }

    #[test]
    fn names_that_pass_for_a_bot_are_refused() {
        let bots: Vec<String> =
            ["heuristic", "random", "search", "exec:python3 bot.py"].map(String::from).into();
        for name in [
            "Bot 2 (heuristic)",
            "bot 2 (HEURISTIC)",
            "Bot 7 (search:300ms)",
            "BOT  3  (anything)",
            "Ｂｏｔ　２ （heuristic）",
            "Bo\u{0301}t 1 (random)",
            "Bot",
            "bot2",
            "Bot #4",
            "Bot (random)",
        ] {
            let e = check_name_not_a_bot(name, &bots).expect_err(name).to_string();
            assert!(e.contains("looks like a bot's seat"), "{name:?}: {e}");
        }
        for name in [
            "heuristic",
            "Heuristic",
            "RANDOM",
            "search",
            "search:2s",
            "card-first",
            "heuristic:flat-naval",
            "exec:python3 bot.py",
            "exec:anything",
        ] {
            let e = check_name_not_a_bot(name, &bots).expect_err(name).to_string();
            assert!(e.contains("is a bot's name"), "{name:?}: {e}");
        }
        for name in ["Ann (bot)", "Ann (BOT)", "安（電腦）"] {
            let e = check_name_not_a_bot(name, &bots).expect_err(name).to_string();
            assert!(e.contains("mark of a bot's seat"), "{name:?}: {e}");
        }
        for name in
            ["Botanist", "Abbot", "Robot 2", "Bot 2 fan", "Random Rita", "Searching Sam", "Ann (robot)"]
        {
            assert!(check_name_not_a_bot(name, &bots).is_ok(), "{name:?}");
        }
    }
}
