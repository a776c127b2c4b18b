//! `wonders backup`: a consistent copy of a database file, safe while a server serves it.
//!
//! The copy is made with SQLite's online backup API, in one step: it is the state of one read
//! transaction of the source (in WAL mode the server's writers go on meanwhile), with the WAL's
//! committed changes in it, so the copy is one self-contained file. The source is opened only to
//! read ([`Store::open_read_only`]: it must hold the schema). The copy is written to a temporary
//! file next to the destination, checked (`PRAGMA quick_check`), flushed to disk, then moved into
//! place: a failed backup leaves no half-written file, and an existing file is replaced only
//! when asked.

use crate::store::{Store, StoreError, copy_database};
use crate::wal::{WalDamage, wal_path};
use rusqlite::Connection;
use std::path::{Path, PathBuf};

/// What a backup wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupReport {
    /// Tables in the copy.
    pub tables: usize,
    /// Actions in the copy, all tables together.
    pub actions: usize,
    /// The copy's size in bytes.
    pub bytes: u64,
    /// The damage found in the source's WAL file: the copy lacks what SQLite ignores of it.
    pub wal_damage: Option<WalDamage>,
}

/// Copies the database `source` to `out` (see the module's documentation). `out` must not exist
/// unless `replace`; it may never be `source` itself, nor a database with changes still in its
/// own `-wal` file (a server may be using it).
pub fn backup(source: &Path, out: &Path, replace: bool) -> Result<BackupReport, StoreError> {
    let fail = |what: String| Err(StoreError(what));
    if out.is_dir() {
        return fail(format!("{}: is a directory: name the backup file", out.display()));
    }
    let store = Store::open_read_only(source)?;
    let parent = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return fail(format!("{}: the directory {} does not exist", out.display(), parent.display()));
    }
    if out.exists() {
        if same_file(source, out) {
            return fail(format!("{}: is the database itself: name another file", out.display()));
        }
        if !replace {
            return fail(format!(
                "{}: already exists: name another file, or replace it (`--force`)",
                out.display()
            ));
        }
    }
    let out_wal = wal_path(out);
    if let Ok(meta) = std::fs::metadata(&out_wal)
        && meta.len() > 0
    {
        return fail(format!(
            "{} exists ({} bytes): a server may be using {}, or stopped without writing its WAL \
             into it; stop that server, or move the -wal file away, before replacing it",
            out_wal.display(),
            meta.len(),
            out.display()
        ));
    }
    let temp = temporary_name(out);
    remove_if_there(&temp);
    let written = write_copy(&store, &temp);
    let report =
        match written.and_then(|(tables, actions)| place(&temp, out, replace).map(|()| (tables, actions))) {
            Ok((tables, actions)) => BackupReport {
                tables,
                actions,
                bytes: std::fs::metadata(out).map_or(0, |m| m.len()),
                wal_damage: store.wal_damage().cloned(),
            },
            Err(e) => {
                remove_if_there(&temp);
                let mut journal = temp.as_os_str().to_os_string();
                journal.push("-journal");
                remove_if_there(Path::new(&journal));
                return Err(e);
            }
        };
    // An empty WAL and the shared-memory file of an older file of that name would only confuse
    // the next reader.
    remove_if_there(&out_wal);
    let mut shm = out.as_os_str().to_os_string();
    shm.push("-shm");
    remove_if_there(Path::new(&shm));
    Ok(report)
}

/// Writes the copy to `temp`, checks it and flushes it to disk: (tables, actions).
fn write_copy(store: &Store, temp: &Path) -> Result<(usize, usize), StoreError> {
    let at = |e: StoreError| StoreError(format!("writing {}: {}", temp.display(), e.0));
    let mut copy = Connection::open(temp).map_err(|e| at(e.into()))?;
    copy_database(store.connection(), &mut copy).map_err(at)?;
    let check: String = copy.query_row("PRAGMA quick_check", [], |r| r.get(0)).map_err(|e| at(e.into()))?;
    if check != "ok" {
        return Err(at(StoreError(format!("the copy fails SQLite's quick_check: {check}"))));
    }
    let count = |table: &str| -> Result<usize, StoreError> {
        let n: i64 = copy.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))?;
        Ok(usize::try_from(n).unwrap_or(0))
    };
    let counts = (count("tables").map_err(at)?, count("actions").map_err(at)?);
    copy.close().map_err(|(_, e)| at(e.into()))?;
    std::fs::File::open(temp).and_then(|f| f.sync_all()).map_err(|e| at(e.into()))?;
    Ok(counts)
}

/// Moves the finished copy to `out`: without `replace`, never over a file that appeared
/// meanwhile.
fn place(temp: &Path, out: &Path, replace: bool) -> Result<(), StoreError> {
    let moved = if replace {
        std::fs::rename(temp, out)
    } else {
        match std::fs::hard_link(temp, out) {
            Ok(()) => std::fs::remove_file(temp),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                return Err(StoreError(format!(
                    "{}: already exists: name another file, or replace it (`--force`)",
                    out.display()
                )));
            }
            // A file system without hard links.
            Err(_) if !out.exists() => std::fs::rename(temp, out),
            Err(e) => Err(e),
        }
    };
    moved.map_err(|e| StoreError(format!("writing {}: {e}", out.display())))?;
    // The new name is durable once the directory is.
    if let Some(dir) = out.parent() {
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// `DIR/.NAME.backup-PID`, next to `out` (the same file system, for the final rename).
fn temporary_name(out: &Path) -> PathBuf {
    let name = out.file_name().map_or_else(|| "backup".into(), |n| n.to_string_lossy().into_owned());
    out.with_file_name(format!(".{name}.backup-{}", std::process::id()))
}

fn remove_if_there(path: &Path) {
    let _ = std::fs::remove_file(path);
}

/// Whether two paths name the same file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
