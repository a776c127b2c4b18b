//! `wonders backup`: a consistent copy of the server's database, safe while it serves
//! ([`wonders_server::backup`]).

use crate::output::{emit, warn};
use clap::Args;
use std::path::PathBuf;

/// Options of `wonders backup`.
#[derive(Args, Debug)]
pub struct BackupArgs {
    /// The database to copy (the server's `--db`); it is only read.
    #[arg(long, default_value = "wonders.db", env = "WONDERS_DB")]
    db: PathBuf,
    /// The file to write: one self-contained SQLite file (no `-wal` file needed). Restore it by
    /// stopping the server, putting it in place of the database and deleting the database's old
    /// `-wal` and `-shm` files.
    #[arg(value_name = "OUT")]
    out: PathBuf,
    /// Replace OUT if it exists.
    #[arg(long)]
    force: bool,
}

/// Writes the copy and says what it holds.
pub fn run(args: &BackupArgs) -> Result<(), String> {
    let report = wonders_server::backup::backup(&args.db, &args.out, args.force).map_err(|e| e.0)?;
    if let Some(damage) = &report.wal_damage {
        warn(&format!("wonders: WARNING: {damage}; the copy holds what SQLite could read"));
    }
    emit(
        &mut std::io::stdout().lock(),
        &format!(
            "{} -> {}: {} tables, {} actions, {} bytes\n",
            args.db.display(),
            args.out.display(),
            report.tables,
            report.actions,
            report.bytes
        ),
    )
}
