//! Bots by name: the one place that turns a bot's name into a player.

use wonders_bots::{Bot, bot_from_name};

/// The names of the bots a seat can be given, first the default. `search` thinks for 300 ms a
/// move (`search:300ms`); bots think outside the table's lock, so a slow bot delays only its own
/// table's next step.
pub const BOT_NAMES: &[&str] = &["heuristic", "random", "search"];

/// The search budget of `search` at the server.
const SEARCH_DEFAULT: &str = "search:300ms";

/// The longest search budget a seat may ask for, in milliseconds (or thousands of iterations).
const SEARCH_MAX: u64 = 2000;

/// Whether a `search:…` name asks for a budget the server accepts: one budget of at most 2 s
/// (`search:1500ms`, `search:2s`) or 2,000,000 iterations (`search:5000it`), on one thread.
fn search_allowed(options: &str) -> bool {
    let mut parts = options.split(':');
    let (Some(budget), None) = (parts.next(), parts.next()) else {
        return false;
    };
    let number = |d: &str| d.parse::<u64>().ok();
    if let Some(ms) = budget.strip_suffix("ms").and_then(number) {
        (1..=SEARCH_MAX).contains(&ms)
    } else if let Some(it) = budget.strip_suffix("it").and_then(number) {
        (1..=SEARCH_MAX * 1000).contains(&it)
    } else if let Some(s) = budget.strip_suffix('s').and_then(number) {
        (1..=SEARCH_MAX / 1000).contains(&s)
    } else {
        false
    }
}

/// A bot of the given name, its choices following from `seed`; an error names the known bots.
/// To offer another bot of `wonders_bots::bot_from_name`, add its name to [`BOT_NAMES`].
///
/// ```
/// let bot = wonders_server::make_bot("random", 7).unwrap();
/// assert_eq!(bot.name(), "random");
/// assert_eq!(wonders_server::make_bot("Heuristic", 7).unwrap().name(), "heuristic");
/// assert_eq!(wonders_server::make_bot("search", 7).unwrap().name(), "search:300ms");
/// assert_eq!(wonders_server::make_bot("search:50ms", 7).unwrap().name(), "search:50ms");
/// assert!(wonders_server::make_bot("search:10s", 7).is_err());
/// assert!(wonders_server::make_bot("search:100ms:2t", 7).is_err());
/// assert!(wonders_server::make_bot("oracle", 7).is_err());
/// ```
pub fn make_bot(name: &str, seed: u64) -> Result<Box<dyn Bot + Send>, String> {
    let name = name.trim().to_ascii_lowercase();
    let name = if name == "search" { SEARCH_DEFAULT.to_string() } else { name };
    let known = match name.strip_prefix("search:") {
        Some(options) => search_allowed(options),
        None => BOT_NAMES.contains(&name.as_str()),
    };
    if !known {
        return Err(format!(
            "unknown bot `{name}` (known: {}; search takes one budget up to 2s, e.g. search:500ms)",
            BOT_NAMES.join(", ")
        ));
    }
    bot_from_name(&name, seed)
}
