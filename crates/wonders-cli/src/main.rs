//! `wonders`: play, simulate, score and replay 7 Wonders games from the command line.

mod arena;
mod backup;
mod botproto;
#[cfg(test)]
mod guide_check;
mod output;
mod play;
mod replay;
mod review;
mod serve;
mod simulate;
mod storecmd;
mod table;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

// mimalloc: the server (`wonders serve`) allocates a great deal per action (a state per seat
// after every change); under load it spends 13% fewer instructions per action than with
// glibc's malloc (docs/src/contributing/speed-journal.md, server round 6).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A complete, exact and fast 7 Wonders: play in the terminal, simulate random games, score a
/// physical game, ask what something costs, check a game record.
#[derive(Parser, Debug)]
#[command(name = "wonders", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a whole game in the terminal against bots.
    Play(play::PlayArgs),
    /// Play many random games and report speed and score statistics.
    Simulate(simulate::SimulateArgs),
    /// Pit bots against each other: win shares with 95% intervals, mean points, mean rank.
    Arena(arena::ArenaArgs),
    /// Score a physical game described in the table format (JSON).
    Score {
        /// The table file, or `-` for standard input.
        file: PathBuf,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Every Pareto-minimal way for one player of a table to pay for a card or a wonder stage.
    Cost {
        /// The table file, or `-` for standard input.
        file: PathBuf,
        /// The player's index in the table (0-based).
        #[arg(long)]
        player: usize,
        /// The card to build (English or Chinese name).
        #[arg(long, conflicts_with = "stage", required_unless_present = "stage")]
        card: Option<String>,
        /// The next wonder stage instead of a card.
        #[arg(long)]
        stage: bool,
        /// Edifice: with --stage, also take part in the project of this Age (1–3); the stage
        /// and the participation cost are paid together.
        #[arg(long, value_name = "AGE", requires = "stage")]
        take_part: Option<u8>,
        /// Armada: also answer with the naval construction (the card colour's fleet, or the
        /// board's wonder fleet for --stage), paid together with the card or stage.
        #[arg(long, conflicts_with = "take_part")]
        naval: bool,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Check a game record, then print its log and final scores.
    Replay {
        /// The record file (JSON), or `-` for standard input.
        file: PathBuf,
        /// Print the final scores as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Review a game record for one seat: at each decision the search bot's preferred move, what
    /// the move played cost in estimated chances of winning, and those chances through the game.
    Review {
        /// The record file (JSON), or `-` for standard input.
        file: PathBuf,
        /// The seat reviewed.
        #[arg(long, default_value_t = 0)]
        seat: usize,
        /// Games the search bot samples per decision.
        #[arg(long, default_value_t = 2000)]
        samples: u32,
        /// Print the decisions as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Serve games in the browser: tables, seats for friends and bots, an SQLite or PostgreSQL store.
    Serve(serve::ServeArgs),
    /// Copy the server's database to one self-contained file, safe while it serves.
    Backup(backup::BackupArgs),
    /// Move the server's tables between stores (an SQLite file, a PostgreSQL database).
    #[command(subcommand)]
    Store(storecmd::StoreCommand),
    /// Print the bot protocol: how a program in any language plays as `exec:COMMAND`.
    BotProtocol,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play(args) => play::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Arena(args) => arena::run(&args),
        Command::Score { file, json } => table::score(&file, json),
        Command::Cost { file, player, card, stage, take_part, naval, json } => {
            table::cost(&file, player, card.as_deref(), stage, take_part, naval, json)
        }
        Command::Replay { file, json } => replay::run(&file, json),
        Command::Review { file, seat, samples, json } => review::run(&file, seat, samples, json),
        Command::Serve(args) => serve::run(&args),
        Command::Backup(args) => backup::run(&args),
        Command::Store(cmd) => storecmd::run(&cmd),
        Command::BotProtocol => botproto::print(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader has gone (`wonders simulate | head`): the command stopped, quietly.
        Err(_) if output::closed() => ExitCode::SUCCESS,
        Err(e) => {
            output::warn(&format!("wonders: {e}"));
            ExitCode::FAILURE
        }
    }
}

/// Reads a file, or standard input for `-`.
pub fn read_input(path: &std::path::Path) -> Result<String, String> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| format!("reading standard input: {e}"))?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))
    }
}
