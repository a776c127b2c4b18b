//! `wonders store copy`: moves every table of a store into another, an SQLite file or a
//! PostgreSQL database, and checks the copy by replaying every game
//! ([`wonders_server::storage::copy`]).

use crate::output::emit;
use clap::{Args, Subcommand};
use wonders_server::storage;

/// `wonders store …`.
#[derive(Subcommand, Debug)]
pub enum StoreCommand {
    /// Copy every table, seat and action into an empty store, then replay every game in both and
    /// compare. Stop the server that writes FROM first.
    Copy(CopyArgs),
}

/// Options of `wonders store copy`.
#[derive(Args, Debug)]
pub struct CopyArgs {
    /// The store to read: an SQLite file (it must exist) or a `postgres://` URL.
    #[arg(long, value_name = "DB")]
    from: String,
    /// The store to write, which must hold no table: an SQLite file (created if new) or a
    /// `postgres://` URL (its schema created if the database is empty).
    #[arg(long, value_name = "DB")]
    to: String,
}

/// How a store is named in messages (a URL without its password).
fn shown(db: &str) -> String {
    if storage::is_postgres_url(db) { wonders_server::postgres::redact(db) } else { db.to_string() }
}

/// Runs a `wonders store` command.
pub fn run(cmd: &StoreCommand) -> Result<(), String> {
    match cmd {
        StoreCommand::Copy(args) => {
            if args.from == args.to {
                return Err("--from and --to name the same store".into());
            }
            let from =
                storage::open_existing(&args.from).map_err(|e| format!("{}: {e}", shown(&args.from)))?;
            let mut to = storage::open(&args.to).map_err(|e| format!("{}: {e}", shown(&args.to)))?;
            let report = storage::copy(from.as_ref(), to.as_mut())
                .map_err(|e| format!("copying {} to {}: {e}", shown(&args.from), shown(&args.to)))?;
            to.close().map_err(|e| format!("{}: {e}", shown(&args.to)))?;
            emit(
                &mut std::io::stdout().lock(),
                &format!(
                    "{} -> {}: {} tables, {} actions; {} games replayed in both, identical\n",
                    shown(&args.from),
                    shown(&args.to),
                    report.tables,
                    report.actions,
                    report.replayed
                ),
            )
        }
    }
}
