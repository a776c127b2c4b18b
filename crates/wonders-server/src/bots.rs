//! Bots by name: the one place that turns a bot's name into a player.
//!
//! External bots (`exec:COMMAND`, see `wonders bot-protocol`) run a program on the server's
//! machine, so a web visitor can never name one: only the names the operator allowed when
//! starting the server ([`allow_exec_bots`], `wonders serve --allow-bot`) are accepted, exactly as
//! written there, and they are then offered in the lobby like the built-in bots.

use std::sync::OnceLock;
use wonders_bots::{Bot, bot_from_name, exec, normalize_bot_name};

/// The names of the bots a seat can be given, first the default. `search` thinks for 300 ms a
/// move (`search:300ms`); bots think outside the table's lock, on the server's bot threads
/// ([`crate::pool`]), so a slow bot delays only bots.
pub const BOT_NAMES: &[&str] = &["heuristic", "random", "search"];

/// The search budget of `search` at the server.
const SEARCH_DEFAULT: &str = "search:300ms";

/// The longest search budget a seat may ask for, in milliseconds.
pub const SEARCH_MAX_MS: u64 = 2000;

/// The most search iterations a seat may ask for: about [`SEARCH_MAX_MS`] of thinking at 4
/// players on one core of a 2-core machine (about 21,000 iterations a second; more players cost
/// more per iteration).
pub const SEARCH_MAX_ITERATIONS: u64 = 40_000;

/// What the server accepts of a `search:…` bot, for its error messages.
const SEARCH_CAP: &str = "search takes one budget of at most 2s (2000ms) or 40000 iterations, on one thread, \
                          e.g. search:500ms or search:20000it";

/// Whether a `search:…` name asks for a budget the server accepts: one budget of at most 2 s
/// (`search:1500ms`, `search:2s`) or 40,000 iterations (`search:20000it`), on one thread.
fn search_allowed(options: &str) -> bool {
    let mut parts = options.split(':');
    let (Some(budget), None) = (parts.next(), parts.next()) else {
        return false;
    };
    let number = |d: &str| d.parse::<u64>().ok();
    if let Some(ms) = budget.strip_suffix("ms").and_then(number) {
        (1..=SEARCH_MAX_MS).contains(&ms)
    } else if let Some(it) = budget.strip_suffix("it").and_then(number) {
        (1..=SEARCH_MAX_ITERATIONS).contains(&it)
    } else if let Some(s) = budget.strip_suffix('s').and_then(number) {
        (1..=SEARCH_MAX_MS / 1000).contains(&s)
    } else {
        false
    }
}

/// The external bots the operator allowed, set once at start-up.
static ALLOWED_EXEC: OnceLock<Vec<String>> = OnceLock::new();

/// Allows the external bots `names` (each `exec:COMMAND…`) for the whole process: seats may then
/// be given them. Call it once, before serving; a second call is refused.
///
/// ```
/// let names = vec!["exec:python3 examples/bots/random_bot.py".to_string()];
/// wonders_server::allow_exec_bots(&names).unwrap();
/// assert!(wonders_server::bot_names().contains(&names[0]));
/// assert!(wonders_server::allow_exec_bots(&names).is_err());
/// assert!(wonders_server::make_bot("exec:python3 examples/bots/random_bot.py", 1).is_ok());
/// assert!(wonders_server::make_bot("exec:rm -rf /", 1).err().unwrap().contains("--allow-bot"));
/// ```
pub fn allow_exec_bots(names: &[String]) -> Result<(), String> {
    let mut allowed = Vec::new();
    for name in names {
        if exec::strip_exec(name).is_none() {
            return Err(format!("--allow-bot `{name}`: only exec:COMMAND bots need allowing"));
        }
        bot_from_name(name, 0)?;
        allowed.push(normalize_bot_name(name));
    }
    ALLOWED_EXEC.set(allowed).map_err(|_| "the allowed external bots are already set".to_string())
}

/// Every bot name a seat can be given: [`BOT_NAMES`], then the allowed external bots.
pub fn bot_names() -> Vec<String> {
    let allowed = ALLOWED_EXEC.get().map(Vec::as_slice).unwrap_or_default();
    BOT_NAMES.iter().map(|s| s.to_string()).chain(allowed.iter().cloned()).collect()
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
/// assert!(wonders_server::make_bot("search:10s", 7).err().unwrap().contains("at most 2s"));
/// assert!(wonders_server::make_bot("search:40000it", 7).is_ok());
/// assert!(wonders_server::make_bot("search:2000000it", 7).err().unwrap().contains("40000 iterations"));
/// assert!(wonders_server::make_bot("search:100ms:2t", 7).is_err());
/// assert!(wonders_server::make_bot("oracle", 7).is_err());
/// assert!(wonders_server::make_bot("exec:python3 bot.py", 7).err().unwrap().contains("not allowed"));
/// ```
pub fn make_bot(name: &str, seed: u64) -> Result<Box<dyn Bot + Send>, String> {
    let name = normalize_bot_name(name);
    if exec::strip_exec(&name).is_some() {
        if !ALLOWED_EXEC.get().is_some_and(|a| a.contains(&name)) {
            return Err(format!(
                "bot `{name}` is not allowed: the server runs an external bot only when its operator \
                 starts it with --allow-bot '{name}'"
            ));
        }
        return bot_from_name(&name, seed);
    }
    let name = if name == "search" { SEARCH_DEFAULT.to_string() } else { name };
    let known = match name.strip_prefix("search:") {
        Some(options) => search_allowed(options),
        None => BOT_NAMES.contains(&name.as_str()),
    };
    if !known {
        if name.starts_with("search:") {
            return Err(format!("bot `{name}` asks for too much thinking: {SEARCH_CAP}"));
        }
        return Err(format!("unknown bot `{name}` (known: {}; {SEARCH_CAP})", bot_names().join(", ")));
    }
    bot_from_name(&name, seed)
}
