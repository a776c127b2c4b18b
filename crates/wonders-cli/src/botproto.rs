//! `wonders bot-protocol`, and the check of external bots before a game.

use wonders_bots::exec;
use wonders_core::Setup;

/// The protocol's documentation (`docs/src/research/bot-protocol.md`).
pub const PROTOCOL_DOC: &str = include_str!("../../../docs/src/research/bot-protocol.md");

/// Prints the protocol's documentation.
pub fn print() -> Result<(), String> {
    crate::output::emit(&mut std::io::stdout().lock(), PROTOCOL_DOC)
}

/// Starts each distinct external bot of `names` once and shakes hands with it, so that a command
/// that does not run, or a program that does not speak the protocol, is refused before any game
/// (rather than losing every move to the fallback). The handshake is the one of a game of `setup`
/// (players, edition, expansions, teams).
pub fn probe_exec_bots(names: &[String], setup: &Setup) -> Result<(), String> {
    let mut seen: Vec<&String> = Vec::new();
    for name in names {
        if exec::strip_exec(name).is_some() && !seen.contains(&name) {
            seen.push(name);
            exec::probe(name, setup)?;
        }
    }
    Ok(())
}
