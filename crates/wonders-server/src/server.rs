//! The server's state: every table in memory, the store, and a change signal per table.
//!
//! Every change follows the same order: plan it on a copy of the game (nothing changes if it is
//! refused), commit it to the store, apply it in memory, then signal the table's watchers. The
//! table's lock is held throughout, so actions on one table are serialised and the store's log is
//! in the order the game saw them.

use crate::msg::{ApiError, CreateTable, SeatToken, StateMsg, TableInfo, TableList};
use crate::store::{Store, StoreError};
use crate::table::{Table, check_name};
use crate::token;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use tokio::sync::watch;
use wonders_core::{Record, WireAction};

/// A table with its change signal.
pub struct TableCell {
    table: Mutex<Table>,
    changed: watch::Sender<u64>,
}

impl TableCell {
    /// Locks the table (a poisoned lock is taken over: tables are never left half-changed).
    pub fn lock(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A receiver that wakes up after each change of the table.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    fn notify(&self) {
        self.changed.send_modify(|v| *v += 1);
    }
}

struct Inner {
    store: Mutex<Store>,
    tables: RwLock<HashMap<String, Arc<TableCell>>>,
}

/// The server's state; cheap to clone (shared).
#[derive(Clone)]
pub struct Server {
    inner: Arc<Inner>,
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

fn rng_error(e: getrandom::Error) -> ApiError {
    ApiError::Storage(format!("the operating system's random generator failed: {e}"))
}

impl Server {
    /// Opens the database file (creating it if needed) and rebuilds every table from its log;
    /// bots whose turn it is move.
    pub fn open(path: &Path) -> Result<Server, StoreError> {
        Server::with_store(Store::open(path)?)
    }

    /// A server over an open store.
    pub fn with_store(store: Store) -> Result<Server, StoreError> {
        let stored = store.load_all()?;
        let server =
            Server { inner: Arc::new(Inner { store: Mutex::new(store), tables: RwLock::default() }) };
        let mut tables = HashMap::new();
        for st in stored {
            let id = st.id.clone();
            let cell =
                Arc::new(TableCell { table: Mutex::new(Table::load(st)), changed: watch::channel(0).0 });
            tables.insert(id, cell);
        }
        for cell in tables.values() {
            let mut table = cell.lock();
            // A table whose bots cannot move stays as it is; its state says why when acted on.
            if let Ok(plan) = table.plan_bots()
                && !plan.actions.is_empty()
            {
                server.store().append(table.id(), plan.first_index, &plan.stored)?;
                table.apply(&plan);
            }
        }
        *server.inner.tables.write().unwrap_or_else(|e| e.into_inner()) = tables;
        Ok(server)
    }

    fn store(&self) -> MutexGuard<'_, Store> {
        self.inner.store.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The table of that id.
    pub fn table(&self, id: &str) -> Result<Arc<TableCell>, ApiError> {
        self.inner
            .tables
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::NotFound(format!("there is no table `{id}`")))
    }

    fn new_id(&self) -> Result<String, ApiError> {
        loop {
            let id = token::random_hex(6).map_err(rng_error)?;
            let taken = self.inner.tables.read().unwrap_or_else(|e| e.into_inner()).contains_key(&id);
            if !taken && !self.store().exists(&id)? {
                return Ok(id);
            }
        }
    }

    fn insert(&self, table: Table) -> Arc<TableCell> {
        let id = table.id().to_string();
        let cell = Arc::new(TableCell { table: Mutex::new(table), changed: watch::channel(0).0 });
        self.inner.tables.write().unwrap_or_else(|e| e.into_inner()).insert(id, cell.clone());
        cell
    }

    /// Creates a table; when every seat is a bot's, the game is played out at once.
    pub fn create_table(&self, req: &CreateTable) -> Result<TableInfo, ApiError> {
        let id = self.new_id()?;
        let seed = token::random_u64().map_err(rng_error)?;
        let (table, stored) = Table::create(id, now(), seed, req)?;
        self.store().insert_table(&stored)?;
        let cell = self.insert(table);
        let mut table = cell.lock();
        let plan = table.plan_bots()?;
        if !plan.actions.is_empty() {
            self.store().append(table.id(), plan.first_index, &plan.stored)?;
            table.apply(&plan);
        }
        Ok(table.info())
    }

    /// A person takes a free seat; the token is returned this once.
    pub fn take_seat(&self, id: &str, seat: usize, name: &str) -> Result<SeatToken, ApiError> {
        let name = check_name(name)?;
        let cell = self.table(id)?;
        let mut table = cell.lock();
        let plan = table.plan_seat(seat)?;
        let token = token::new_token().map_err(rng_error)?;
        let hash = token::hash_token(&token);
        self.store().take_seat(id, seat as u8, &name, &hash, plan.first_index, &plan.stored)?;
        table.seat_taken(seat, name, hash);
        table.apply(&plan);
        drop(table);
        cell.notify();
        Ok(SeatToken { table: id.to_string(), seat: seat as u8, token })
    }

    /// The seat a token gives, or `Forbidden`.
    pub fn authorize(&self, id: &str, token: &str) -> Result<u8, ApiError> {
        let cell = self.table(id)?;
        let table = cell.lock();
        table
            .seat_of_token(token)
            .ok_or_else(|| ApiError::Forbidden(format!("this token does not hold a seat at table `{id}`")))
    }

    /// The state for the holder of `token`, or a spectator's without one; a wrong token is
    /// `Forbidden`.
    pub fn state(&self, id: &str, token: Option<&str>) -> Result<StateMsg, ApiError> {
        let cell = self.table(id)?;
        let table = cell.lock();
        let you = match token {
            None => None,
            Some(t) => Some(table.seat_of_token(t).ok_or_else(|| {
                ApiError::Forbidden(format!("this token does not hold a seat at table `{id}`"))
            })?),
        };
        Ok(table.state(you))
    }

    /// The state of a table for a seat already authorised (or a spectator).
    pub fn state_for(&self, cell: &TableCell, you: Option<u8>) -> StateMsg {
        cell.lock().state(you)
    }

    /// Acts for the seat of `token`: stored, then applied; returns the seat's new `turn_id`.
    pub fn act(
        &self,
        id: &str,
        token: &str,
        turn_id: Option<u64>,
        action: &WireAction,
    ) -> Result<u64, ApiError> {
        let cell = self.table(id)?;
        let mut table = cell.lock();
        let seat = table
            .seat_of_token(token)
            .ok_or_else(|| ApiError::Forbidden(format!("this token does not hold a seat at table `{id}`")))?;
        let plan = table.plan_action(seat, turn_id, action)?;
        self.store().append(id, plan.first_index, &plan.stored)?;
        table.apply(&plan);
        let next = table.turn_id(Some(seat));
        drop(table);
        cell.notify();
        Ok(next)
    }

    /// Takes back the last choice of the seat of `token` in the current step (stored, then
    /// applied); refused once the step resolved. Returns the seat's new `turn_id`.
    pub fn retract(&self, id: &str, token: &str) -> Result<u64, ApiError> {
        let cell = self.table(id)?;
        let mut table = cell.lock();
        let seat = table
            .seat_of_token(token)
            .ok_or_else(|| ApiError::Forbidden(format!("this token does not hold a seat at table `{id}`")))?;
        let plan = table.plan_retract(seat)?;
        self.store().append(id, plan.first_index, &plan.stored)?;
        table.apply(&plan);
        let next = table.turn_id(Some(seat));
        drop(table);
        cell.notify();
        Ok(next)
    }

    /// Every table: open ones (waiting or playing) and finished ones, newest first.
    pub fn list(&self) -> TableList {
        let cells: Vec<Arc<TableCell>> =
            self.inner.tables.read().unwrap_or_else(|e| e.into_inner()).values().cloned().collect();
        let mut infos: Vec<TableInfo> = cells.iter().map(|c| c.lock().info()).collect();
        infos.sort_by(|a, b| b.created.cmp(&a.created).then_with(|| a.id.cmp(&b.id)));
        let (finished, open) = infos.into_iter().partition(|t| t.status == "over" || t.status == "broken");
        TableList { open, finished }
    }

    /// The record of a finished game.
    pub fn record(&self, id: &str) -> Result<Record, ApiError> {
        self.table(id)?.lock().record()
    }

    /// The rematch of a table: created on the first call (same options and bots, a new seed),
    /// the same one after.
    pub fn rematch(&self, id: &str) -> Result<TableInfo, ApiError> {
        let cell = self.table(id)?;
        let mut table = cell.lock();
        if let Some(existing) = table.rematch() {
            let existing = existing.to_string();
            drop(table);
            return Ok(self.table(&existing)?.lock().info());
        }
        let new_id = self.new_id()?;
        let seed = token::random_u64().map_err(rng_error)?;
        let stored = table.rematch_setup(new_id.clone(), now(), seed);
        self.store().insert_rematch(id, &stored)?;
        table.set_rematch(new_id);
        drop(table);
        cell.notify();
        let new_cell = self.insert(Table::load(stored));
        let mut new_table = new_cell.lock();
        let plan = new_table.plan_bots()?;
        if !plan.actions.is_empty() {
            self.store().append(new_table.id(), plan.first_index, &plan.stored)?;
            new_table.apply(&plan);
        }
        Ok(new_table.info())
    }
}
