//! The store interface the server writes through ([`TableStore`]), with its two implementations:
//! the embedded SQLite file ([`Store`], the default) and a PostgreSQL server
//! ([`crate::postgres::PgStore`]). Both keep the same rows (a table's setup and seats, and an
//! append-only log of its actions), the same schema version, and the same promise: a call that
//! returns `Ok` has committed its change, so the server acknowledges nothing that was not stored.
//!
//! [`open`] picks the implementation from the `--db` argument: `postgres://…` or
//! `postgresql://…` is a PostgreSQL server, anything else the path of an SQLite file.

use crate::store::{AppendEntry, Store, StoreError, StoredTable};
use std::path::Path;

/// What the server needs of a store. Every write is one transaction, committed when the call
/// returns `Ok` (nothing of it is stored when it returns an error); reads see committed rows.
pub trait TableStore: Send {
    /// `sqlite` or `postgresql`, for the log and the metrics.
    fn kind(&self) -> &'static str;

    /// What was found wrong when the store was opened, one message each (empty when sound).
    fn warnings(&self) -> Vec<String>;

    /// Whether a table id is taken.
    fn exists(&self, id: &str) -> Result<bool, StoreError>;

    /// Inserts a new table with its seats (its action list must be empty).
    fn insert_table(&mut self, t: &StoredTable) -> Result<(), StoreError>;

    /// Inserts `rematch` and records it as the rematch of `id` (refused when `id` has one).
    fn insert_rematch(&mut self, id: &str, rematch: &StoredTable) -> Result<(), StoreError>;

    /// Gives a free seat to a person, then appends `actions` from `first_index`.
    fn take_seat(
        &mut self,
        id: &str,
        seat: u8,
        name: &str,
        token_hash: &str,
        first_index: usize,
        actions: &[(u8, String)],
    ) -> Result<(), StoreError>;

    /// Frees the seat held by `token_hash`.
    fn leave_seat(&mut self, id: &str, seat: u8, token_hash: &str) -> Result<(), StoreError>;

    /// Appends the actions of several tables, all or none (group commit); an index already
    /// used is refused (the log is append-only).
    fn append_batch(&mut self, entries: &[AppendEntry<'_>]) -> Result<(), StoreError>;

    /// Appends actions to one table's log ([`TableStore::append_batch`] of one entry).
    fn append(
        &mut self,
        id: &str,
        first_index: usize,
        actions: &[(u8, String)],
        finished: Option<i64>,
    ) -> Result<(), StoreError> {
        self.append_batch(&[AppendEntry { table: id, first_index, actions, finished }])
    }

    /// Deletes a table that never started, its seats, and the link to it from its original.
    fn delete_table(&mut self, id: &str) -> Result<(), StoreError>;

    /// Every table with its seats and actions, oldest first.
    fn load_all(&self) -> Result<Vec<StoredTable>, StoreError>;

    /// The tables whose game has not been noted as finished, oldest first.
    fn load_unfinished(&self) -> Result<Vec<StoredTable>, StoreError>;

    /// One table, if it exists.
    fn load_one(&self, id: &str) -> Result<Option<StoredTable>, StoreError>;

    /// The ids of the `limit` most recently finished tables, newest first.
    fn finished_ids(&self, limit: usize) -> Result<Vec<String>, StoreError>;

    /// A clean stop: every later write is refused, and what the store keeps in flight is made
    /// whole (SQLite folds its WAL into the file; a shared store hands this server's tables to
    /// the others at once).
    fn close(&mut self) -> Result<(), StoreError>;

    /// Whether several servers may share this store, each serving the tables it owns
    /// ([`TableStore::heartbeat`]). False for an SQLite file (one server holds it).
    fn shared(&self) -> bool {
        false
    }

    /// This server's name among those sharing the store.
    fn node(&self) -> Option<&str> {
        None
    }

    /// Takes table `id` over for this server, if its game is not finished (a request for it
    /// reached this server: the table's ownership moves where its players are). From then on the
    /// server that owned it stores nothing more for it. The table must be loaded after this
    /// returns: it sees everything the previous owner stored.
    fn claim(&mut self, _id: &str) -> Result<(), StoreError> {
        Ok(())
    }

    /// Renews this server's lease, takes over the unfinished tables no live server owns (their
    /// server stopped, or was killed and its lease ran out), and returns the ids of the
    /// unfinished tables this server owns now.
    fn heartbeat(&mut self) -> Result<Vec<String>, StoreError> {
        Ok(Vec::new())
    }

    /// The unfinished tables other servers own, for the lobby: `(id, owner, version)`, the
    /// version changing when an action is stored or a seat taken or left.
    fn elsewhere(&self) -> Result<Vec<(String, String, i64)>, StoreError> {
        Ok(Vec::new())
    }
}

impl TableStore for Store {
    fn kind(&self) -> &'static str {
        "sqlite"
    }
    fn warnings(&self) -> Vec<String> {
        Store::warnings(self).to_vec()
    }
    fn exists(&self, id: &str) -> Result<bool, StoreError> {
        Store::exists(self, id)
    }
    fn insert_table(&mut self, t: &StoredTable) -> Result<(), StoreError> {
        Store::insert_table(self, t)
    }
    fn insert_rematch(&mut self, id: &str, rematch: &StoredTable) -> Result<(), StoreError> {
        Store::insert_rematch(self, id, rematch)
    }
    fn take_seat(
        &mut self,
        id: &str,
        seat: u8,
        name: &str,
        token_hash: &str,
        first_index: usize,
        actions: &[(u8, String)],
    ) -> Result<(), StoreError> {
        Store::take_seat(self, id, seat, name, token_hash, first_index, actions)
    }
    fn leave_seat(&mut self, id: &str, seat: u8, token_hash: &str) -> Result<(), StoreError> {
        Store::leave_seat(self, id, seat, token_hash)
    }
    fn append_batch(&mut self, entries: &[AppendEntry<'_>]) -> Result<(), StoreError> {
        Store::append_batch(self, entries)
    }
    fn delete_table(&mut self, id: &str) -> Result<(), StoreError> {
        Store::delete_table(self, id)
    }
    fn load_all(&self) -> Result<Vec<StoredTable>, StoreError> {
        Store::load_all(self)
    }
    fn load_unfinished(&self) -> Result<Vec<StoredTable>, StoreError> {
        Store::load_unfinished(self)
    }
    fn load_one(&self, id: &str) -> Result<Option<StoredTable>, StoreError> {
        Store::load_one(self, id)
    }
    fn finished_ids(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        Store::finished_ids(self, limit)
    }
    fn close(&mut self) -> Result<(), StoreError> {
        Store::close(self)
    }
}

/// Whether a `--db` argument names a PostgreSQL server (`postgres://…` or `postgresql://…`).
pub fn is_postgres_url(db: &str) -> bool {
    let lower = db.get(..13).unwrap_or(db).to_ascii_lowercase();
    lower.starts_with("postgres://") || lower.starts_with("postgresql://")
}

/// Opens the store a `--db` argument names: a PostgreSQL server for a `postgres://` URL
/// ([`crate::postgres::PgStore::connect`]), otherwise the SQLite file at that path (created if
/// new, [`Store::open`]).
pub fn open(db: &str) -> Result<Box<dyn TableStore>, StoreError> {
    if is_postgres_url(db) {
        Ok(Box::new(crate::postgres::PgStore::connect(db)?))
    } else {
        Ok(Box::new(Store::open(Path::new(db))?))
    }
}

/// Opens a store that must already hold tables' rows (for reading or copying): a PostgreSQL
/// server, or an SQLite file that must exist ([`Store::open_existing`]).
pub fn open_existing(db: &str) -> Result<Box<dyn TableStore>, StoreError> {
    if is_postgres_url(db) {
        Ok(Box::new(crate::postgres::PgStore::connect(db)?))
    } else {
        Ok(Box::new(Store::open_existing(Path::new(db))?))
    }
}

/// What [`copy`] moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyReport {
    /// Tables copied (with their seats).
    pub tables: usize,
    /// Actions copied, every table's log together.
    pub actions: usize,
    /// Games replayed in the copy to the same state as in the source ([`verify_copy`]).
    pub replayed: usize,
}

/// Checks that `to` holds what `from` holds: every table's rows equal, and every game replayed
/// from the copy's log to the same state as from the source's (its status, age and turn; a
/// finished game's record with its scores). Returns how many games were replayed.
pub fn verify_copy(from: &dyn TableStore, to: &dyn TableStore) -> Result<usize, StoreError> {
    use crate::table::Table;
    let (source, copy) = (from.load_all()?, to.load_all()?);
    if source.len() != copy.len() {
        return Err(StoreError(format!("the copy holds {} tables, the source {}", copy.len(), source.len())));
    }
    let copied: std::collections::HashMap<&str, &StoredTable> =
        copy.iter().map(|t| (t.id.as_str(), t)).collect();
    for s in &source {
        let Some(c) = copied.get(s.id.as_str()) else {
            return Err(StoreError(format!("table {} is missing from the copy", s.id)));
        };
        if *c != s {
            return Err(StoreError(format!("table {}: the copy's rows differ from the source's", s.id)));
        }
        let (a, b) = (Table::load(s.clone()), Table::load((*c).clone()));
        let (ia, ib) = (a.info(), b.info());
        if (ia.status.as_str(), ia.age, ia.turn, &ia.error)
            != (ib.status.as_str(), ib.age, ib.turn, &ib.error)
        {
            return Err(StoreError(format!(
                "table {}: replayed from the copy it is {} (age {} turn {}), from the source {} (age {} turn {})",
                s.id, ib.status, ib.age, ib.turn, ia.status, ia.age, ia.turn
            )));
        }
        if a.is_over() && a.record().ok() != b.record().ok() {
            return Err(StoreError(format!("table {}: the copy's record differs from the source's", s.id)));
        }
    }
    Ok(source.len())
}

/// Copies every table, seat and action of `from` into `to`, which must hold no table yet (a
/// copy never merges two stores), then checks the copy by replaying every game in both
/// ([`verify_copy`]). Each table's log is appended in one transaction with its end noted; a
/// rematch is inserted with its link to the original. Copy from a store no server writes
/// meanwhile (stop the server first): the source is read once, table by table.
pub fn copy(from: &dyn TableStore, to: &mut dyn TableStore) -> Result<CopyReport, StoreError> {
    if !to.load_all()?.is_empty() {
        return Err(StoreError(
            "the destination already holds tables: copy into an empty database (a copy never merges two stores)"
                .into(),
        ));
    }
    let all = from.load_all()?;
    let mut actions = 0;
    for t in &all {
        if let Some(damage) = &t.damage {
            return Err(StoreError(format!(
                "table {} cannot be read in the source ({damage}): nothing of it can be copied faithfully",
                t.id
            )));
        }
    }
    // Rematch links are set once both tables exist: the rematch row is inserted through
    // `insert_rematch`, which sets the link in the same transaction.
    let by_id: std::collections::HashMap<&str, &StoredTable> =
        all.iter().map(|t| (t.id.as_str(), t)).collect();
    for t in &all {
        let mut row = t.clone();
        row.actions.clear();
        row.rematch = None;
        row.finished = None;
        match t
            .rematch_of
            .as_deref()
            .filter(|o| by_id.get(o).and_then(|o| o.rematch.as_deref()) == Some(&t.id))
        {
            // The original is older (created first): it is in the destination already.
            Some(original) if to.exists(original)? => to.insert_rematch(original, &row)?,
            _ => to.insert_table(&row)?,
        }
        // Seats were inserted as stored (names, token hashes, bots), actions follow in one
        // transaction with the game's end.
        to.append(&t.id, 0, &t.actions, t.finished)?;
        actions += t.actions.len();
    }
    // A rematch created before its original (clocks apart) was inserted alone: link it now.
    for t in &all {
        if let Some(rematch) = &t.rematch {
            let linked = to.load_one(&t.id)?.and_then(|r| r.rematch);
            if linked.as_deref() != Some(rematch.as_str()) {
                return Err(StoreError(format!(
                    "table {}: its rematch {rematch} could not be linked in the copy (the rematch is older than the table)",
                    t.id
                )));
            }
        }
    }
    let replayed = verify_copy(from, to)?;
    Ok(CopyReport { tables: all.len(), actions, replayed })
}
