//! The embedded SQLite store: each table's setup and seats, and an append-only log of every
//! accepted action. The in-memory games are rebuilt from it on start by replaying the log.
//!
//! The database runs in WAL mode with `synchronous = NORMAL`: a committed transaction survives
//! the server process being killed (`kill -9`) at any point; only a power loss (or a crash of the
//! operating system) may lose the last commits. Every action is committed before it is
//! acknowledged. Why not `FULL` (an fsync per commit): an fsync took 8 ms (median) to 70 ms
//! (90th percentile) on the shared machine this was measured on, longer than the whole
//! acknowledgment budget (p99 under 50 ms); with NORMAL the WAL is fsynced at each checkpoint,
//! so what a power loss can take is bounded by the WAL's size (SQLite's default: a checkpoint
//! every 1000 pages). Actions are written by one writer thread that commits several tables'
//! actions in one transaction ([`Store::append_batch`], [`crate::writer`]).
//!
//! Files: while a server runs, recent commits are in the `-wal` file next to the database, not
//! yet in the database file itself. [`Store::close`] (called by [`crate::Server::close`] on a
//! clean stop) folds the WAL into the database file and empties it, so that the `.db` file
//! alone then holds every table. On open, a damaged WAL (SQLite would silently ignore part of
//! it: [`crate::wal`]) is reported ([`Store::warnings`]) and a copy of it kept;
//! [`Store::open_read_only`] reads a file without ever writing it (`wonders serve --check`,
//! `wonders backup`).

use crate::wal::{WalDamage, WalState};
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use std::path::{Path, PathBuf};

/// The schema of a new database (version [`SCHEMA_VERSION`]).
const SCHEMA: &str = "
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    created INTEGER NOT NULL,
    edition TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    wonders TEXT NOT NULL,
    rematch_of TEXT,
    rematch TEXT,
    turn_timer INTEGER,
    hold_until INTEGER,
    finished INTEGER
);
CREATE TABLE seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    bot TEXT,
    name TEXT,
    token_hash TEXT,
    held_for TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
);
";

/// The schema's version, kept in SQLite's `user_version`. Version 1 (files written before it
/// was set, `user_version` 0) lacks the columns added by version 2, which are added on open.
pub const SCHEMA_VERSION: i64 = 2;

/// The columns every version has, per table: a file lacking one is damaged.
const REQUIRED: &[(&str, &[&str])] = &[
    ("tables", &["id", "created", "edition", "players", "seed", "wonders", "rematch_of", "rematch"]),
    ("seats", &["table_id", "seat", "bot", "name", "token_hash"]),
    ("actions", &["table_id", "idx", "seat", "action"]),
];

/// The columns added by version 2: (table, column, type).
const ADDED_V2: &[(&str, &str, &str)] = &[
    ("tables", "turn_timer", "INTEGER"),
    ("tables", "hold_until", "INTEGER"),
    ("tables", "finished", "INTEGER"),
    ("seats", "held_for", "TEXT"),
];

/// A storage failure (the message comes from SQLite, or says what is damaged).
#[derive(Debug, thiserror::Error)]
#[error("storage: {0}")]
pub struct StoreError(pub String);

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError(e.to_string())
    }
}

/// A table's stored setup.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct StoredTable {
    /// The table's id.
    pub id: String,
    /// Creation time, in seconds since the Unix epoch.
    pub created: i64,
    /// `1e` or `2e`.
    pub edition: String,
    /// Number of seats.
    pub players: u8,
    /// The seed of the deal.
    pub seed: u64,
    /// `random`, or the side every board is on (`A`/`B`, `Day`/`Night`).
    pub wonders: String,
    /// The table this one is a rematch of.
    pub rematch_of: Option<String>,
    /// The rematch of this table, once created.
    pub rematch: Option<String>,
    /// Seconds a seat has to act before a bot plays its move (none: no limit).
    pub turn_timer: Option<u32>,
    /// Until when (Unix seconds) the seats of a rematch are held for the previous players.
    pub hold_until: Option<i64>,
    /// When the game ended (Unix seconds); finished tables are not loaded on start.
    pub finished: Option<i64>,
    /// The seats, in order.
    pub seats: Vec<StoredSeat>,
    /// Every accepted action, in order: the seat and the action's JSON (a `WireAction`).
    pub actions: Vec<(u8, String)>,
    /// What is wrong with the stored rows, when they could not all be read: the table loads
    /// as broken with this reason.
    pub damage: Option<String>,
}

/// A stored seat.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct StoredSeat {
    /// The bot's name, for a bot seat.
    pub bot: Option<String>,
    /// The display name, once taken (bots have one from the start).
    pub name: Option<String>,
    /// The SHA-256 of the seat's token (hex), once a person took it.
    pub token_hash: Option<String>,
    /// In a rematch, the token hash of the previous game's player the seat is held for.
    pub held_for: Option<String>,
}

/// Actions to append to one table's log: see [`Store::append_batch`].
#[derive(Clone, Copy, Debug)]
pub struct AppendEntry<'a> {
    /// The table's id.
    pub table: &'a str,
    /// Index in the log of the first action.
    pub first_index: usize,
    /// The seat and the JSON of each action.
    pub actions: &'a [(u8, String)],
    /// When the actions end the game (Unix seconds).
    pub finished: Option<i64>,
}

/// The store: one SQLite connection.
pub struct Store {
    conn: Connection,
    /// Set by [`Store::close`]: every write is refused from then on.
    closed: bool,
    /// What was found wrong when the file was opened ([`Store::warnings`]).
    warnings: Vec<String>,
    /// The damage found in the WAL file when the file was opened.
    wal_damage: Option<WalDamage>,
}

/// How a connection is set up ([`Store::init`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The server's: WAL mode, the schema created in an empty file and brought up to date.
    ReadWrite,
    /// A file that is only read: nothing is set or written.
    ReadOnly,
}

const TABLE_COLUMNS: &str =
    "id, created, edition, players, seed, wonders, rematch_of, rematch, turn_timer, hold_until, finished";

impl Store {
    /// Opens the database file: a new (or empty) file gets the schema; an existing one must have
    /// it (a missing table or column is an error naming it, never recreated empty) and is
    /// brought to the current version.
    ///
    /// A damaged WAL file (SQLite would ignore the changes written after the damage, [`crate::wal`])
    /// is copied next to it (`FILE-wal.damaged-SECONDS`) before SQLite overwrites it, then what
    /// SQLite can read of it is folded into the database file; an SQLite file that is not empty
    /// but holds no table gets the schema. Both are reported in [`Store::warnings`].
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let at = |e: StoreError| StoreError(format!("{}: {}", path.display(), e.0));
        let wal = inspect_wal(path)?;
        let mut warnings = Vec::new();
        if let Some(damage) = &wal.damage {
            let copy = keep_damaged_copy(&damage.path)?;
            warnings.push(format!(
                "{damage}. A copy of the damaged WAL file is kept as {} (SQLite overwrites the \
                 original); the server goes on with what SQLite could read",
                copy.display()
            ));
        }
        let size_before = std::fs::metadata(path).map_or(0, |m| m.len());
        let conn = Connection::open(path).map_err(|e| at(e.into()))?;
        let (mut store, created) = Store::init(conn, Mode::ReadWrite).map_err(at)?;
        if created && size_before > 0 {
            warnings.push(format!(
                "{} was an SQLite file of {size_before} bytes with no table in it: it got a new, \
                 empty schema. If it is a copy of a server's database, its tables were probably in \
                 the server's -wal file, which was left behind: copy a database with `wonders backup`, \
                 or copy it after the server stopped cleanly",
                path.display()
            ));
        }
        if wal.damage.is_some() {
            // The damaged part of the WAL is in the kept copy: fold the readable part into the
            // database file and empty the WAL, so that the damage is not reported again.
            if let Err(e) = store.checkpoint() {
                warnings.push(format!("{}: after the damaged WAL was kept: {}", path.display(), e.0));
            }
        }
        store.warnings = warnings;
        store.wal_damage = wal.damage;
        Ok(store)
    }

    /// Opens a database file that must already exist, as [`Store::open`] does (to read it only,
    /// [`Store::open_read_only`]).
    pub fn open_existing(path: &Path) -> Result<Store, StoreError> {
        if !path.is_file() {
            return Err(StoreError(format!("{}: no such database file", path.display())));
        }
        Store::open(path)
    }

    /// Opens a database file that must already exist and hold the schema, only to read it: the
    /// file is never written (it may be read-only, in a read-only directory), an older schema is
    /// brought up to date in a copy in memory, and a damaged WAL file is reported
    /// ([`Store::wal_damage`]) and left as it is. Safe while a server serves the same file
    /// (each query sees a committed state).
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        let at = |e: StoreError| StoreError(format!("{}: {}", path.display(), e.0));
        if path.is_dir() {
            return Err(StoreError(format!("{}: is a directory, not a database file", path.display())));
        }
        if !path.is_file() {
            return Err(StoreError(format!("{}: no such database file", path.display())));
        }
        let wal = inspect_wal(path)?;
        // A damaged WAL explains most other failures: it is named with them.
        let at = |e: StoreError| match &wal.damage {
            Some(damage) => StoreError(format!("{}: {}; {damage}", path.display(), e.0)),
            None => at(e),
        };
        let conn = open_read_only_connection(path, &wal).map_err(at)?;
        let objects = object_count(&conn).map_err(at)?;
        if objects == 0 {
            return Err(match &wal.damage {
                Some(damage) => StoreError(format!("{damage}; what SQLite can read holds no table")),
                None => at(StoreError(
                    "holds no table: it is an empty SQLite database, not a wonders database. If it \
                     is a copy of a server's database, the tables are in the server's -wal file, \
                     which was left behind: copy a database with `wonders backup`, or copy it \
                     after the server stopped cleanly"
                        .into(),
                )),
            });
        }
        let version: i64 =
            conn.query_row("PRAGMA user_version", [], |r| r.get(0)).map_err(|e| at(e.into()))?;
        let (conn, mode) = if version < SCHEMA_VERSION {
            // An older schema: brought up to date in a copy, the file left as it is.
            let mut memory = Connection::open_in_memory().map_err(|e| at(e.into()))?;
            copy_database(&conn, &mut memory).map_err(at)?;
            (memory, Mode::ReadWrite)
        } else {
            (conn, Mode::ReadOnly)
        };
        let (mut store, _) = Store::init(conn, mode).map_err(at)?;
        if let Some(damage) = &wal.damage {
            store.warnings.push(damage.to_string());
        }
        store.wal_damage = wal.damage;
        Ok(store)
    }

    /// An in-memory database, for tests.
    pub fn in_memory() -> Result<Store, StoreError> {
        Ok(Store::init(Connection::open_in_memory()?, Mode::ReadWrite)?.0)
    }

    /// Sets the connection up: pragmas, then the schema created (new file) or checked. Returns
    /// the store and whether the schema was created.
    fn init(conn: Connection, mode: Mode) -> Result<(Store, bool), StoreError> {
        if mode == Mode::ReadWrite {
            conn.pragma_update(None, "journal_mode", "WAL")?;
            conn.pragma_update(None, "synchronous", "NORMAL")?;
        }
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let store = |conn| Store { conn, closed: false, warnings: Vec::new(), wal_damage: None };
        if object_count(&conn)? == 0 {
            if mode == Mode::ReadOnly {
                return Err(StoreError("holds no table: it is not a wonders database".into()));
            }
            conn.execute_batch(SCHEMA)?;
            conn.pragma_update(None, "user_version", SCHEMA_VERSION)?;
            return Ok((store(conn), true));
        }
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version > SCHEMA_VERSION {
            return Err(StoreError(format!(
                "the database has schema version {version}, newer than this server's \
                 ({SCHEMA_VERSION}): use a newer `wonders`"
            )));
        }
        let damaged = |what: String| {
            StoreError(format!(
                "the database is damaged: {what}; refusing to start (restore it from a backup, \
                 or start with a new file)"
            ))
        };
        for (table, columns) in REQUIRED {
            let present = columns_of(&conn, table)?;
            if present.is_empty() {
                return Err(damaged(format!("its `{table}` table is missing")));
            }
            if let Some(c) = columns.iter().find(|c| !present.iter().any(|p| p == *c)) {
                return Err(damaged(format!("the `{table}` table has no `{c}` column")));
            }
        }
        if version < SCHEMA_VERSION && mode == Mode::ReadWrite {
            for (table, column, ty) in ADDED_V2 {
                if !columns_of(&conn, table)?.iter().any(|p| p == column) {
                    conn.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {ty}"))?;
                }
            }
            conn.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        }
        for (table, column, _) in ADDED_V2 {
            if !columns_of(&conn, table)?.iter().any(|p| p == column) {
                return Err(damaged(format!("the `{table}` table has no `{column}` column")));
            }
        }
        Ok((store(conn), false))
    }

    /// What was found wrong when the file was opened, one message each: a damaged WAL file
    /// (with the copy kept of it, [`Store::open`]), an SQLite file with no table that got a new
    /// schema. Empty for a sound file.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The damage found in the database's WAL file when it was opened, if any.
    pub fn wal_damage(&self) -> Option<&WalDamage> {
        self.wal_damage.as_ref()
    }

    /// SQLite's `PRAGMA integrity_check` of the whole file: `["ok"]`, or each problem found.
    pub fn integrity_check(&self) -> Result<Vec<String>, StoreError> {
        let mut q = self.conn.prepare("PRAGMA integrity_check")?;
        let rows = q.query_map([], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Writes every committed change of the WAL into the database file and empties the WAL
    /// (`PRAGMA wal_checkpoint(TRUNCATE)`): then the database file alone holds everything. An
    /// error when another connection (a backup, a check) kept part of the WAL from being written.
    pub fn checkpoint(&self) -> Result<(), StoreError> {
        let (busy, frames, done): (i64, i64, i64) =
            self.conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })?;
        if busy != 0 || done < frames {
            return Err(StoreError(format!(
                "the WAL could not be written into the database file (another connection is \
                 reading it; {done} of {frames} frames written): copy the -wal file with the \
                 database file, or use `wonders backup`"
            )));
        }
        Ok(())
    }

    /// Closes the store for writing on a clean stop: every write is refused from now on, and the
    /// WAL is written into the database file and emptied ([`Store::checkpoint`]), so that a copy
    /// of the `.db` file alone holds every table. Calling it again only checkpoints again.
    pub fn close(&mut self) -> Result<(), StoreError> {
        self.closed = true;
        self.checkpoint()
    }

    /// An error once [`Store::close`] was called.
    fn writable(&self) -> Result<(), StoreError> {
        if self.closed {
            return Err(StoreError("the store is closed: the server is stopping".into()));
        }
        Ok(())
    }

    /// The raw connection (tests damage databases through it).
    #[doc(hidden)]
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// Whether a table id is taken.
    pub fn exists(&self, id: &str) -> Result<bool, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT 1 FROM tables WHERE id = ?1", params![id], |_| Ok(()))
            .optional()?
            .is_some())
    }

    /// Inserts a new table with its seats (its action list must be empty), in one transaction.
    pub fn insert_table(&mut self, t: &StoredTable) -> Result<(), StoreError> {
        self.writable()?;
        let tx = self.conn.transaction()?;
        insert_table_in(&tx, t)?;
        tx.commit()?;
        Ok(())
    }

    /// Inserts `rematch` and records it as the rematch of `id`, in one transaction.
    pub fn insert_rematch(&mut self, id: &str, rematch: &StoredTable) -> Result<(), StoreError> {
        self.writable()?;
        let tx = self.conn.transaction()?;
        insert_table_in(&tx, rematch)?;
        let changed = tx.execute(
            "UPDATE tables SET rematch = ?2 WHERE id = ?1 AND rematch IS NULL",
            params![id, rematch.id],
        )?;
        if changed != 1 {
            return Err(StoreError(format!("table {id} already has a rematch in the store")));
        }
        tx.commit()?;
        Ok(())
    }

    /// Gives a seat to a person (a seat held for a previous player is no longer held), then
    /// appends `actions` (the bots' moves that follow, if the table just filled up), in one
    /// transaction.
    pub fn take_seat(
        &mut self,
        id: &str,
        seat: u8,
        name: &str,
        token_hash: &str,
        first_index: usize,
        actions: &[(u8, String)],
    ) -> Result<(), StoreError> {
        self.writable()?;
        let tx = self.conn.transaction()?;
        let changed = tx.execute(
            "UPDATE seats SET name = ?3, token_hash = ?4, held_for = NULL
             WHERE table_id = ?1 AND seat = ?2 AND bot IS NULL AND token_hash IS NULL",
            params![id, seat, name, token_hash],
        )?;
        if changed != 1 {
            return Err(StoreError(format!("seat {seat} of table {id} is not free in the store")));
        }
        append_in(&tx, id, first_index, actions)?;
        tx.commit()?;
        Ok(())
    }

    /// Frees a person's seat (the one holding `token_hash`) of a table not yet started.
    pub fn leave_seat(&mut self, id: &str, seat: u8, token_hash: &str) -> Result<(), StoreError> {
        self.writable()?;
        let changed = self.conn.execute(
            "UPDATE seats SET name = NULL, token_hash = NULL
             WHERE table_id = ?1 AND seat = ?2 AND token_hash = ?3",
            params![id, seat, token_hash],
        )?;
        if changed != 1 {
            return Err(StoreError(format!("seat {seat} of table {id} is not that token's in the store")));
        }
        Ok(())
    }

    /// Appends actions to a table's log, numbered from `first_index`, in one transaction; when
    /// they end the game, `finished` (Unix seconds) is noted in the same transaction.
    pub fn append(
        &mut self,
        id: &str,
        first_index: usize,
        actions: &[(u8, String)],
        finished: Option<i64>,
    ) -> Result<(), StoreError> {
        self.append_batch(&[AppendEntry { table: id, first_index, actions, finished }])
    }

    /// Appends the actions of several tables (see [`Store::append`]) in one transaction: all are
    /// stored, or none (the store writer's group commit, [`crate::writer`]).
    pub fn append_batch(&mut self, entries: &[AppendEntry<'_>]) -> Result<(), StoreError> {
        if entries.iter().all(|e| e.actions.is_empty() && e.finished.is_none()) {
            return Ok(());
        }
        self.writable()?;
        // `BEGIN` and `COMMIT` as cached statements, not `Connection::transaction` (which parses
        // both again for every batch, on the writer's thread that acknowledgments wait for).
        // A failure rolls the whole batch back, as dropping a `Transaction` would.
        self.conn.prepare_cached("BEGIN")?.execute([])?;
        let stored = entries.iter().try_for_each(|e| -> Result<(), StoreError> {
            append_in(&self.conn, e.table, e.first_index, e.actions)?;
            if let Some(at) = e.finished {
                self.conn
                    .prepare_cached("UPDATE tables SET finished = ?2 WHERE id = ?1")?
                    .execute(params![e.table, at])?;
            }
            Ok(())
        });
        let committed =
            stored.and_then(|()| Ok(self.conn.prepare_cached("COMMIT")?.execute([]).map(|_| ())?));
        if committed.is_err() && !self.conn.is_autocommit() {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        committed
    }

    /// Deletes a table that never started (an expired waiting table), its seats, and the link
    /// to it from the table it is a rematch of, in one transaction.
    pub fn delete_table(&mut self, id: &str) -> Result<(), StoreError> {
        self.writable()?;
        let tx = self.conn.transaction()?;
        tx.execute("DELETE FROM actions WHERE table_id = ?1", params![id])?;
        tx.execute("DELETE FROM seats WHERE table_id = ?1", params![id])?;
        tx.execute("DELETE FROM tables WHERE id = ?1", params![id])?;
        tx.execute("UPDATE tables SET rematch = NULL WHERE rematch = ?1", params![id])?;
        tx.commit()?;
        Ok(())
    }

    /// Every table with its seats and actions, oldest first.
    pub fn load_all(&self) -> Result<Vec<StoredTable>, StoreError> {
        self.load_where("1", params![])
    }

    /// The tables whose game has not been noted as finished, oldest first.
    pub fn load_unfinished(&self) -> Result<Vec<StoredTable>, StoreError> {
        self.load_where("finished IS NULL", params![])
    }

    /// One table, if it exists.
    pub fn load_one(&self, id: &str) -> Result<Option<StoredTable>, StoreError> {
        Ok(self.load_where("id = ?1", params![id])?.pop())
    }

    /// The ids of the `limit` most recently finished tables, newest first.
    pub fn finished_ids(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        let mut q = self.conn.prepare(
            "SELECT id FROM tables WHERE finished IS NOT NULL ORDER BY finished DESC, rowid DESC LIMIT ?1",
        )?;
        let rows = q.query_map(params![limit as i64], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The tables matching an SQL condition. Rows that cannot be read, a gap in a log or in the
    /// seats do not fail the load: the table carries the reason in `damage`.
    fn load_where(
        &self,
        condition: &str,
        args: &[&dyn rusqlite::ToSql],
    ) -> Result<Vec<StoredTable>, StoreError> {
        let mut tables = Vec::new();
        let mut q = self.conn.prepare(&format!(
            "SELECT rowid, {TABLE_COLUMNS} FROM tables WHERE {condition} ORDER BY created, rowid"
        ))?;
        let mut rows = q.query(args)?;
        while let Some(r) = rows.next()? {
            let rowid: i64 = r.get(0)?;
            let id = r.get::<_, String>(1).unwrap_or_else(|_| format!("(row {rowid})"));
            let read = || -> rusqlite::Result<StoredTable> {
                Ok(StoredTable {
                    id: id.clone(),
                    created: r.get(2)?,
                    edition: r.get(3)?,
                    players: r.get(4)?,
                    seed: r.get::<_, i64>(5)? as u64,
                    wonders: r.get(6)?,
                    rematch_of: r.get(7)?,
                    rematch: r.get(8)?,
                    turn_timer: r.get(9)?,
                    hold_until: r.get(10)?,
                    finished: r.get(11)?,
                    ..StoredTable::default()
                })
            };
            tables.push(read().unwrap_or_else(|e| StoredTable {
                id: id.clone(),
                damage: Some(format!("its row cannot be read: {e}")),
                ..StoredTable::default()
            }));
        }
        let mut seats = self.conn.prepare(
            "SELECT seat, bot, name, token_hash, held_for FROM seats WHERE table_id = ?1 ORDER BY seat",
        )?;
        let mut actions =
            self.conn.prepare("SELECT idx, seat, action FROM actions WHERE table_id = ?1 ORDER BY idx")?;
        for t in &mut tables {
            if t.damage.is_some() {
                continue;
            }
            let mut read_seats = || -> Result<Vec<StoredSeat>, String> {
                let rows = seats
                    .query_map(params![t.id], |r| {
                        Ok((
                            r.get::<_, i64>(0)?,
                            StoredSeat {
                                bot: r.get(1)?,
                                name: r.get(2)?,
                                token_hash: r.get(3)?,
                                held_for: r.get(4)?,
                            },
                        ))
                    })
                    .map_err(|e| e.to_string())?;
                let mut out = Vec::new();
                for (expected, row) in rows.enumerate() {
                    let (seat, s) = row.map_err(|e| format!("a seat cannot be read: {e}"))?;
                    if seat != expected as i64 {
                        return Err(format!("seat {expected} is missing (found seat {seat})"));
                    }
                    out.push(s);
                }
                Ok(out)
            };
            match read_seats() {
                Ok(s) => t.seats = s,
                Err(e) => {
                    t.damage = Some(e);
                    continue;
                }
            }
            let mut read_actions = || -> Result<Vec<(u8, String)>, String> {
                let rows = actions
                    .query_map(params![t.id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, u8>(1)?, r.get(2)?)))
                    .map_err(|e| e.to_string())?;
                let mut out = Vec::new();
                for (expected, row) in rows.enumerate() {
                    let (idx, seat, action) =
                        row.map_err(|e| format!("action {expected} cannot be read: {e}"))?;
                    if idx != expected as i64 {
                        return Err(format!("action {expected} is missing from the log (found {idx})"));
                    }
                    out.push((seat, action));
                }
                Ok(out)
            };
            match read_actions() {
                Ok(a) => t.actions = a,
                Err(e) => t.damage = Some(e),
            }
        }
        Ok(tables)
    }
}

/// How many objects (tables, indexes) the schema has, SQLite's own aside.
fn object_count(conn: &Connection) -> Result<i64, StoreError> {
    Ok(conn
        .query_row("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'", [], |r| r.get(0))?)
}

/// What SQLite makes of the WAL file of `path` ([`crate::wal::inspect`]).
fn inspect_wal(path: &Path) -> Result<WalState, StoreError> {
    crate::wal::inspect(path).map_err(|e| {
        StoreError(format!("{}: reading its WAL file: {e}", crate::wal::wal_path(path).display()))
    })
}

/// Copies a damaged WAL file to `WAL.damaged-SECONDS` (another name if that one is taken).
fn keep_damaged_copy(wal: &Path) -> Result<PathBuf, StoreError> {
    let seconds = crate::server::now();
    let mut n = 0;
    loop {
        let mut name = wal.as_os_str().to_os_string();
        name.push(format!(".damaged-{seconds}"));
        if n > 0 {
            name.push(format!("-{n}"));
        }
        let copy = PathBuf::from(name);
        if !copy.exists() {
            return match std::fs::copy(wal, &copy) {
                Ok(_) => Ok(copy),
                Err(e) => Err(StoreError(format!(
                    "{}: the WAL file is damaged, and keeping a copy of it as {} failed ({e}): \
                     refusing to start, as SQLite would overwrite it (copy it away, then start again)",
                    wal.display(),
                    copy.display()
                ))),
            };
        }
        n += 1;
    }
}

/// A connection that only reads `path`. Where SQLite cannot create the `-shm` file a WAL-mode
/// database needs (a read-only directory), and the WAL holds nothing SQLite would read, the file
/// is read as immutable (no locks, no `-shm`: nothing else may write it meanwhile, which holds
/// for a file nobody may write).
fn open_read_only_connection(path: &Path, wal: &WalState) -> Result<Connection, StoreError> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let probe = |conn: Connection| -> rusqlite::Result<Connection> {
        conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get::<_, i64>(0))?;
        Ok(conn)
    };
    let first = match Connection::open_with_flags(path, flags).and_then(probe) {
        Ok(conn) => return Ok(conn),
        Err(e) => e,
    };
    let cannot_open = matches!(
        first.sqlite_error_code(),
        Some(rusqlite::ErrorCode::CannotOpen | rusqlite::ErrorCode::ReadOnly)
    );
    if !cannot_open {
        return Err(first.into());
    }
    if wal.used_frames > 0 {
        return Err(StoreError(format!(
            "cannot be read ({first}): its WAL file ({} bytes) holds changes not yet in the \
             database file, which SQLite reads only where it may open or create the -shm file \
             next to it: copy the database and its -wal file to a writable directory and use the \
             copy",
            wal.size
        )));
    }
    Connection::open_with_flags(immutable_uri(path)?, flags | OpenFlags::SQLITE_OPEN_URI)
        .and_then(probe)
        .map_err(|e| StoreError(format!("cannot be read: {first}; read as immutable: {e}")))
}

/// `file:///ABSOLUTE/PATH?immutable=1`, the path percent-encoded.
fn immutable_uri(path: &Path) -> Result<String, StoreError> {
    let absolute = std::path::absolute(path)?;
    #[cfg(unix)]
    let bytes = std::os::unix::ffi::OsStrExt::as_bytes(absolute.as_os_str()).to_vec();
    #[cfg(not(unix))]
    let bytes = {
        let s = absolute.to_string_lossy().replace('\\', "/");
        if s.starts_with('/') { s.into_bytes() } else { format!("/{s}").into_bytes() }
    };
    let mut uri = String::from("file://");
    for b in bytes {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri.push_str("?immutable=1");
    Ok(uri)
}

/// Copies every page of `from` into `to` with SQLite's online backup, in one step: the copy is
/// the state of one read transaction of `from` (writers of `from` go on meanwhile, in WAL mode).
pub(crate) fn copy_database(from: &Connection, to: &mut Connection) -> Result<(), StoreError> {
    use rusqlite::backup::{Backup, StepResult};
    let backup = Backup::new(from, to)?;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        match backup.step(-1)? {
            StepResult::Done => return Ok(()),
            StepResult::More => {}
            StepResult::Busy | StepResult::Locked => {
                if std::time::Instant::now() > deadline {
                    return Err(StoreError("the database stayed locked for 30 s: try again".into()));
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            // A later version of rusqlite may know more results: ask again.
            _ => {}
        }
    }
}

impl From<std::io::Error> for StoreError {
    fn from(e: std::io::Error) -> Self {
        StoreError(e.to_string())
    }
}

/// The column names of an SQL table (none when it does not exist).
fn columns_of(conn: &Connection, table: &str) -> Result<Vec<String>, StoreError> {
    let mut q = conn.prepare(&format!("PRAGMA table_info({table})"))?;
    let rows = q.query_map([], |r| r.get::<_, String>(1))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

fn insert_table_in(tx: &rusqlite::Transaction<'_>, t: &StoredTable) -> Result<(), StoreError> {
    tx.execute(
        &format!(
            "INSERT INTO tables ({TABLE_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
        ),
        params![
            t.id,
            t.created,
            t.edition,
            t.players,
            t.seed as i64,
            t.wonders,
            t.rematch_of,
            t.rematch,
            t.turn_timer,
            t.hold_until,
            t.finished
        ],
    )?;
    for (i, s) in t.seats.iter().enumerate() {
        tx.execute(
            "INSERT INTO seats (table_id, seat, bot, name, token_hash, held_for) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![t.id, i as i64, s.bot, s.name, s.token_hash, s.held_for],
        )?;
    }
    Ok(())
}

fn append_in(
    tx: &rusqlite::Connection,
    id: &str,
    first_index: usize,
    actions: &[(u8, String)],
) -> Result<(), StoreError> {
    let mut stmt =
        tx.prepare_cached("INSERT INTO actions (table_id, idx, seat, action) VALUES (?1, ?2, ?3, ?4)")?;
    for (i, (seat, action)) in actions.iter().enumerate() {
        stmt.execute(params![id, (first_index + i) as i64, seat, action])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(id: &str) -> StoredTable {
        StoredTable {
            id: id.into(),
            created: 5,
            edition: "1e".into(),
            players: 3,
            seed: u64::MAX - 3,
            wonders: "random".into(),
            seats: vec![
                StoredSeat { bot: Some("random".into()), name: Some("Bot".into()), ..StoredSeat::default() },
                StoredSeat::default(),
                StoredSeat::default(),
            ],
            ..StoredTable::default()
        }
    }

    /// A batch is stored whole or not at all: one failing insert (an index already taken) rolls
    /// back the batch's other tables and actions, and the next batch is stored as usual.
    #[test]
    fn a_failing_batch_stores_nothing_and_the_next_one_is_stored() {
        let mut s = Store::in_memory().unwrap();
        s.insert_table(&table("t1")).unwrap();
        s.insert_table(&table("t2")).unwrap();
        let pass = [(0u8, "{\"type\":\"pass\"}".to_string())];
        let two = [pass[0].clone(), (1u8, "{\"type\":\"pass\"}".to_string())];
        s.append_batch(&[AppendEntry { table: "t1", first_index: 0, actions: &pass, finished: None }])
            .unwrap();
        let failing = [
            AppendEntry { table: "t2", first_index: 0, actions: &two, finished: Some(9) },
            AppendEntry { table: "t1", first_index: 0, actions: &pass, finished: None },
        ];
        assert!(s.append_batch(&failing).is_err());
        assert_eq!(s.load_one("t1").unwrap().unwrap().actions.len(), 1);
        let t2 = s.load_one("t2").unwrap().unwrap();
        assert!(t2.actions.is_empty());
        assert!(s.load_unfinished().unwrap().iter().any(|t| t.id == "t2"), "t2's end rolled back");
        let next = [
            AppendEntry { table: "t2", first_index: 0, actions: &two, finished: None },
            AppendEntry { table: "t1", first_index: 1, actions: &pass, finished: Some(10) },
        ];
        s.append_batch(&next).unwrap();
        assert_eq!(s.load_one("t1").unwrap().unwrap().actions.len(), 2);
        assert_eq!(s.load_one("t2").unwrap().unwrap().actions.len(), 2);
        assert!(!s.load_unfinished().unwrap().iter().any(|t| t.id == "t1"));
    }

    /// After [`Store::close`] every write is refused (the WAL was emptied into the file: a write
    /// now would be missing from a copy of the file alone); reads go on.
    #[test]
    fn a_closed_store_refuses_every_write() {
        let mut s = Store::in_memory().unwrap();
        s.insert_table(&table("t1")).unwrap();
        s.close().unwrap();
        let e = s.insert_table(&table("t2")).unwrap_err();
        assert!(e.0.contains("the store is closed"), "{e}");
        assert!(s.append("t1", 0, &[(0, "{}".into())], None).is_err());
        assert!(s.take_seat("t1", 1, "Ann", "abc", 0, &[]).is_err());
        assert!(s.insert_rematch("t1", &table("t3")).is_err());
        assert!(s.delete_table("t1").is_err());
        let all = s.load_all().unwrap();
        assert_eq!((all.len(), all[0].actions.len()), (1, 0));
        assert!(s.close().is_ok(), "closing again only checkpoints again");
    }

    #[test]
    fn round_trip_and_append_only_log() {
        let mut s = Store::in_memory().unwrap();
        s.insert_table(&table("t1")).unwrap();
        assert!(s.exists("t1").unwrap() && !s.exists("t2").unwrap());
        s.take_seat("t1", 1, "Ann", "abc", 0, &[(0, "{\"type\":\"pass\"}".into())]).unwrap();
        // A taken seat or a bot seat cannot be taken again; nothing is appended then.
        assert!(s.take_seat("t1", 1, "Bob", "def", 1, &[(2, "x".into())]).is_err());
        assert!(s.take_seat("t1", 0, "Bob", "def", 1, &[]).is_err());
        s.append("t1", 1, &[(1, "a".into()), (2, "b".into())], None).unwrap();
        // An index already used is refused (append-only).
        assert!(s.append("t1", 2, &[(1, "c".into())], None).is_err());
        let all = s.load_all().unwrap();
        assert_eq!(all.len(), 1);
        let t = &all[0];
        assert_eq!(t.seed, u64::MAX - 3);
        assert_eq!(t.seats[1].name.as_deref(), Some("Ann"));
        assert_eq!(t.seats[1].token_hash.as_deref(), Some("abc"));
        assert_eq!(t.seats[2], StoredSeat::default());
        assert_eq!(
            t.actions,
            vec![(0, "{\"type\":\"pass\"}".to_string()), (1, "a".to_string()), (2, "b".to_string())]
        );
    }
}
