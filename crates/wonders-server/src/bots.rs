//! Bots by name: the one place that turns a bot's name into a player.

use wonders_bots::{Bot, RandomBot};

/// The names of the bots a seat can be given, first the default.
pub const BOT_NAMES: &[&str] = &["random"];

/// A bot of the given name, its choices following from `seed`; an error names the known bots.
/// To offer a new bot, add its name to [`BOT_NAMES`] and a line here.
///
/// ```
/// let bot = wonders_server::make_bot("random", 7).unwrap();
/// assert_eq!(bot.name(), "random");
/// assert!(wonders_server::make_bot("oracle", 7).is_err());
/// ```
pub fn make_bot(name: &str, seed: u64) -> Result<Box<dyn Bot + Send>, String> {
    match name.trim().to_ascii_lowercase().as_str() {
        "random" => Ok(Box::new(RandomBot::new(seed))),
        other => Err(format!("unknown bot `{other}` (known: {})", BOT_NAMES.join(", "))),
    }
}
