//! Bots by name: the one place that turns a bot's name into a player.

use wonders_bots::{Bot, bot_from_name};

/// The names of the bots a seat can be given, first the default: the rule-based bot, the
/// Monte-Carlo search bot (100 ms a move) and the random one.
pub const BOT_NAMES: &[&str] = &["heuristic", "search", "random"];

/// A bot of the given name, its choices following from `seed`; an error names the known bots.
/// To offer another bot of `wonders_bots::bot_from_name`, add its name to [`BOT_NAMES`].
///
/// ```
/// let bot = wonders_server::make_bot("random", 7).unwrap();
/// assert_eq!(bot.name(), "random");
/// assert_eq!(wonders_server::make_bot("Heuristic", 7).unwrap().name(), "heuristic");
/// assert!(wonders_server::make_bot("oracle", 7).is_err());
/// ```
pub fn make_bot(name: &str, seed: u64) -> Result<Box<dyn Bot + Send>, String> {
    let name = name.trim().to_ascii_lowercase();
    if !BOT_NAMES.contains(&name.as_str()) {
        return Err(format!("unknown bot `{name}` (known: {})", BOT_NAMES.join(", ")));
    }
    bot_from_name(&name, seed)
}
