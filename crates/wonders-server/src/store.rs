//! The embedded SQLite store: each table's setup and seats, and an append-only log of every
//! accepted action. The in-memory games are rebuilt from it on start by replaying the log.
//!
//! The database runs in WAL mode with `synchronous = NORMAL`: a committed transaction survives
//! the server process being killed (`kill -9`) at any point; only a power loss may lose the last
//! commits. Every action is committed before it is acknowledged.

use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;

/// The schema; every statement is idempotent.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created INTEGER NOT NULL,
    edition TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    wonders TEXT NOT NULL,
    rematch_of TEXT,
    rematch TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    bot TEXT,
    name TEXT,
    token_hash TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
);
";

/// A storage failure (the message comes from SQLite).
#[derive(Debug, thiserror::Error)]
#[error("storage: {0}")]
pub struct StoreError(pub String);

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError(e.to_string())
    }
}

/// A table's stored setup.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// The seats, in order.
    pub seats: Vec<StoredSeat>,
    /// Every accepted action, in order: the seat and the action's JSON (a `WireAction`).
    pub actions: Vec<(u8, String)>,
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
}

/// The store: one SQLite connection.
pub struct Store {
    conn: Connection,
}

impl Store {
    /// Opens (creating if needed) the database file.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let conn = Connection::open(path)?;
        Store::init(conn)
    }

    /// An in-memory database, for tests.
    pub fn in_memory() -> Result<Store, StoreError> {
        Store::init(Connection::open_in_memory()?)
    }

    fn init(conn: Connection) -> Result<Store, StoreError> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        Ok(Store { conn })
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
        let tx = self.conn.transaction()?;
        insert_table_in(&tx, t)?;
        tx.commit()?;
        Ok(())
    }

    /// Inserts `rematch` and records it as the rematch of `id`, in one transaction.
    pub fn insert_rematch(&mut self, id: &str, rematch: &StoredTable) -> Result<(), StoreError> {
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

    /// Gives a seat to a person, then appends `actions` (the bots' moves that follow, if the table
    /// just filled up), in one transaction.
    pub fn take_seat(
        &mut self,
        id: &str,
        seat: u8,
        name: &str,
        token_hash: &str,
        first_index: usize,
        actions: &[(u8, String)],
    ) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        let changed = tx.execute(
            "UPDATE seats SET name = ?3, token_hash = ?4
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

    /// Appends actions to a table's log, numbered from `first_index`, in one transaction.
    pub fn append(
        &mut self,
        id: &str,
        first_index: usize,
        actions: &[(u8, String)],
    ) -> Result<(), StoreError> {
        if actions.is_empty() {
            return Ok(());
        }
        let tx = self.conn.transaction()?;
        append_in(&tx, id, first_index, actions)?;
        tx.commit()?;
        Ok(())
    }

    /// Every table with its seats and actions, oldest first.
    pub fn load_all(&self) -> Result<Vec<StoredTable>, StoreError> {
        let mut tables = Vec::new();
        let mut q = self.conn.prepare(
            "SELECT id, created, edition, players, seed, wonders, rematch_of, rematch
             FROM tables ORDER BY created, rowid",
        )?;
        let rows = q.query_map([], |r| {
            Ok(StoredTable {
                id: r.get(0)?,
                created: r.get(1)?,
                edition: r.get(2)?,
                players: r.get(3)?,
                seed: r.get::<_, i64>(4)? as u64,
                wonders: r.get(5)?,
                rematch_of: r.get(6)?,
                rematch: r.get(7)?,
                seats: Vec::new(),
                actions: Vec::new(),
            })
        })?;
        for t in rows {
            tables.push(t?);
        }
        let mut seats =
            self.conn.prepare("SELECT bot, name, token_hash FROM seats WHERE table_id = ?1 ORDER BY seat")?;
        let mut actions =
            self.conn.prepare("SELECT idx, seat, action FROM actions WHERE table_id = ?1 ORDER BY idx")?;
        for t in &mut tables {
            let rows = seats.query_map(params![t.id], |r| {
                Ok(StoredSeat { bot: r.get(0)?, name: r.get(1)?, token_hash: r.get(2)? })
            })?;
            for s in rows {
                t.seats.push(s?);
            }
            let rows = actions
                .query_map(params![t.id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, u8>(1)?, r.get(2)?)))?;
            for (expected, row) in rows.enumerate() {
                let (idx, seat, action) = row?;
                if idx != expected as i64 {
                    return Err(StoreError(format!(
                        "table {}: action {expected} is missing from the log (found {idx})",
                        t.id
                    )));
                }
                t.actions.push((seat, action));
            }
        }
        Ok(tables)
    }
}

fn insert_table_in(tx: &rusqlite::Transaction<'_>, t: &StoredTable) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO tables (id, created, edition, players, seed, wonders, rematch_of, rematch)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![t.id, t.created, t.edition, t.players, t.seed as i64, t.wonders, t.rematch_of, t.rematch],
    )?;
    for (i, s) in t.seats.iter().enumerate() {
        tx.execute(
            "INSERT INTO seats (table_id, seat, bot, name, token_hash) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![t.id, i as i64, s.bot, s.name, s.token_hash],
        )?;
    }
    Ok(())
}

fn append_in(
    tx: &rusqlite::Transaction<'_>,
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
            rematch_of: None,
            rematch: None,
            seats: vec![
                StoredSeat { bot: Some("random".into()), name: Some("Bot".into()), token_hash: None },
                StoredSeat::default(),
                StoredSeat::default(),
            ],
            actions: Vec::new(),
        }
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
        s.append("t1", 1, &[(1, "a".into()), (2, "b".into())]).unwrap();
        // An index already used is refused (append-only).
        assert!(s.append("t1", 2, &[(1, "c".into())]).is_err());
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
