//! The server's state: every table in memory, the store, and a change signal per table.
//!
//! Every change follows the same order: plan it on a copy of the game (nothing changes if it is
//! refused), commit it to the store, apply it in memory, then signal the table's watchers.
//! Actions and bots' moves are planned under the table's lock and handed, in that order, to the
//! store writer ([`crate::writer`]), which commits many tables' changes in one transaction with
//! no table locked, then makes them visible and acknowledges them: the store's log is in the
//! order the game saw them, and nothing is shown or acknowledged before it is committed. The
//! other changes (tables, seats, rematches) are stored directly, under the table's lock.
//!
//! Bots move in a task of their own per table ([`Server`] starts it after each change): it takes
//! the bots that must act out of the table with their seats' views, lets them think with the
//! table unlocked (on a blocking thread), then locks the table again and stores and applies the
//! moves still meant for the current step. A slow bot (`search`) so never blocks a request.
//!
//! A background thread (every [`ServerConfig::tick`]) expires waiting tables, lets finished games
//! leave memory (they stay in the store: their state and record are read back on demand), and
//! hands a seat whose turn timer ran out to a stand-in bot.

use crate::msg::{ApiError, CreateTable, SeatToken, StateMsg, TableInfo, TableList};
use crate::storage::TableStore;
use crate::store::{Store, StoreError};
use crate::table::{Plan, Table, check_name};
use crate::token;
use crate::wal::WalDamage;
use crate::writer::{Permit, Ticket, Writer};
use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock, Weak};
use std::time::{Duration, Instant};
use tokio::sync::watch;
use wonders_core::{Record, WireAction};

/// How many finished tables the table list shows (the most recent); older ones stay readable
/// by id.
const RECENT_FINISHED: usize = 100;

/// The server's time limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerConfig {
    /// A table still waiting for players this long after its creation is deleted (`None`:
    /// never).
    pub waiting_expiry: Option<Duration>,
    /// A finished game leaves memory this long after its end (it stays in the store).
    pub finished_keep: Duration,
    /// The free seats of a rematch are held this long for the previous game's players.
    pub rematch_hold: Duration,
    /// How often the background thread checks the tables.
    pub tick: Duration,
    /// The threads every table's bots think on, shared fairly between the tables
    /// ([`crate::pool`]).
    pub bot_threads: usize,
    /// A table waiting for players with no person in it ([`Table::is_empty_waiting`]) is deleted
    /// this long after its creation (`None`: only after `waiting_expiry`).
    pub empty_expiry: Option<Duration>,
    /// The games the search bot samples per move judged in a review ([`Server::review`]).
    pub review_samples: u32,
}

/// The caps on open tables a new table must fit ([`crate::limits::Limits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenCaps {
    /// Open tables (waiting or playing) in all.
    pub total: usize,
    /// Open tables created from one address ([`crate::limits::address_key`]).
    pub per_address: usize,
}

impl Default for ServerConfig {
    /// Waiting tables expire after 30 minutes, finished games leave memory after 2 minutes,
    /// rematch seats are held 2 minutes, a table nobody sat at expires after 3 minutes, checked
    /// every 250 ms; bots think on one thread less
    /// than the machine has cores (at least one, [`crate::pool::default_threads`]); a review
    /// samples [`wonders_bots::coach::REVIEW_SAMPLES`] games a move.
    fn default() -> Self {
        ServerConfig {
            waiting_expiry: Some(Duration::from_secs(30 * 60)),
            finished_keep: Duration::from_secs(120),
            rematch_hold: Duration::from_secs(120),
            tick: Duration::from_millis(250),
            bot_threads: crate::pool::default_threads(),
            empty_expiry: Some(Duration::from_secs(3 * 60)),
            review_samples: wonders_bots::coach::REVIEW_SAMPLES,
        }
    }
}

/// One table's state as `wonders serve --check` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableCheck {
    /// The table's id.
    pub id: String,
    /// `waiting`, `playing`, `over` or `broken`.
    pub status: String,
    /// Why it is broken, if it is.
    pub error: Option<String>,
    /// Age and turn of a game in progress.
    pub age_turn: (u8, u8),
}

/// What `wonders serve --check` finds in a database file ([`Server::check_file`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileCheck {
    /// Every table's state, its log replayed.
    pub tables: Vec<TableCheck>,
    /// SQLite's `PRAGMA integrity_check` of the file: `["ok"]`, or each problem found.
    pub integrity: Vec<String>,
    /// The damage found in the file's WAL: SQLite ignores part of it, and what was written there
    /// is missing from `tables`.
    pub wal_damage: Option<WalDamage>,
}

impl FileCheck {
    /// How many tables are broken.
    pub fn broken(&self) -> usize {
        self.tables.iter().filter(|t| t.error.is_some()).count()
    }

    /// Whether SQLite found the file sound.
    pub fn integrity_ok(&self) -> bool {
        self.integrity.len() == 1 && self.integrity[0] == "ok"
    }

    /// Whether nothing is wrong: no broken table, the file sound, the WAL undamaged.
    pub fn sound(&self) -> bool {
        self.broken() == 0 && self.integrity_ok() && self.wal_damage.is_none()
    }
}

/// A table with its change signal.
pub struct TableCell {
    table: Mutex<Table>,
    changed: watch::Sender<u64>,
    /// Set when another server sharing the store took the table over: this one's copy is no
    /// longer served (its WebSockets close, their clients reconnect).
    moved: AtomicBool,
    /// When the cell was made (a heartbeat that began before does not judge it).
    born: Instant,
}

impl TableCell {
    fn new(table: Table) -> Arc<TableCell> {
        Arc::new(TableCell {
            table: Mutex::new(table),
            changed: watch::channel(0).0,
            moved: AtomicBool::new(false),
            born: Instant::now(),
        })
    }

    /// Whether another server sharing the store took the table over ([`crate::storage`]): its
    /// state here no longer changes.
    pub fn moved(&self) -> bool {
        self.moved.load(Ordering::SeqCst)
    }

    /// Marks the table as taken over by another server and wakes its watchers.
    fn mark_moved(&self) {
        self.moved.store(true, Ordering::SeqCst);
        self.notify();
    }

    /// Locks the table (a poisoned lock is taken over: tables are never left half-changed).
    pub fn lock(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A receiver that wakes up after each change of the table. Its value is the table's version:
    /// it grows with every change made visible, before or when the watchers are woken (a state
    /// built after reading version `v` shows every change counted up to `v`).
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// Counts a change and wakes the table's watchers.
    pub(crate) fn notify(&self) {
        self.changed.send_modify(|v| *v += 1);
    }

    /// Counts a change made visible (the table's version grows) without waking the watchers yet:
    /// the store writer counts a batch's changes, acknowledges them, then wakes the watchers
    /// ([`TableCell::wake`]).
    pub(crate) fn mark_changed(&self) {
        self.changed.send_if_modified(|v| {
            *v += 1;
            false
        });
    }

    /// Wakes the table's watchers for the changes counted by [`TableCell::mark_changed`].
    pub(crate) fn wake(&self) {
        self.changed.send_modify(|_| {});
    }
}

struct Inner {
    store: Arc<Mutex<Box<dyn TableStore>>>,
    /// Stores actions and bots' moves, several tables' in one transaction.
    writer: Writer,
    tables: RwLock<HashMap<String, Arc<TableCell>>>,
    /// The most recently finished tables that left memory, newest first.
    recent: Mutex<VecDeque<TableInfo>>,
    config: ServerConfig,
    /// Set by [`Server::close`]: no change is handed to the writer any more.
    closing: AtomicBool,
    /// Held by a round of the background thread: [`Server::close`] waits for it.
    sweeping: Mutex<()>,
    /// What was found wrong with the database file when it was opened ([`Server::warnings`]).
    warnings: Vec<String>,
    /// The threads the bots think on ([`crate::pool`]).
    bots: crate::pool::BotPool,
    /// Held while a table is created from the API: the caps on open tables are checked and the
    /// table inserted as one step.
    creating: Mutex<()>,
    /// Whether other servers share the store ([`TableStore::shared`]): then this one serves the
    /// tables it owns, and its background thread keeps its lease ([`Server::sync_ownership`]).
    shared: bool,
    /// `sqlite` or `postgresql`, and this server's name among those sharing the store.
    store_kind: &'static str,
    node: Option<String>,
    /// The unfinished tables other servers own, for the lobby: id → (version, info).
    elsewhere: Mutex<HashMap<String, (i64, TableInfo)>>,
    /// How many unfinished tables other servers own (at the last heartbeat).
    elsewhere_count: std::sync::atomic::AtomicUsize,
    /// When the lobby was last asked for ([`Server::list`]): the other servers' tables are
    /// replayed for it only while someone looks.
    lobby_seen: Mutex<Option<Instant>>,
    /// When the last heartbeat began and whether it succeeded.
    heartbeat: Mutex<(Option<Instant>, bool)>,
    /// Tables taken over from other servers, and tables other servers took from this one.
    takeovers: std::sync::atomic::AtomicU64,
    moved_away: std::sync::atomic::AtomicU64,
    /// The reviews of finished games computed so far ([`Server::review`]).
    reviews: crate::review::Reviews,
}

/// How long after the lobby was last asked for a server goes on reading the other servers'
/// tables for it.
const LOBBY_WATCHED: Duration = Duration::from_secs(30);

/// How often a server sharing its store renews its lease and looks for tables to take over
/// (a killed server's tables are taken within the lease, [`crate::postgres::LEASE`], plus this).
pub const HEARTBEAT: Duration = Duration::from_millis(500);

/// The server's state; cheap to clone (shared).
#[derive(Clone)]
pub struct Server {
    inner: Arc<Inner>,
}

/// Seconds since the Unix epoch.
pub(crate) fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

fn rng_error(e: getrandom::Error) -> ApiError {
    ApiError::Storage(format!("the operating system's random generator failed: {e}"))
}

/// Runs `f` on a blocking thread of the current tokio runtime, or on a new thread outside one.
fn run_blocking(f: impl FnOnce() + Send + 'static) {
    match tokio::runtime::Handle::try_current() {
        Ok(handle) => drop(handle.spawn_blocking(f)),
        Err(_) => drop(std::thread::spawn(f)),
    }
}

/// The store's state shown by `GET /metrics` ([`Server::store_metrics`], [`crate::metrics`]).
#[derive(Clone, Debug, PartialEq)]
pub struct StoreMetrics {
    /// `sqlite` or `postgresql`.
    pub kind: &'static str,
    /// This server's name among the servers sharing the store; empty for a store of its own.
    pub node: String,
    /// For a store several servers share: who owns what, and the lease.
    pub shared: Option<SharedStoreMetrics>,
}

/// Who owns what in a store several servers share, and this server's lease.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SharedStoreMetrics {
    /// Unfinished tables this server owns and serves.
    pub owned: usize,
    /// Unfinished tables the other servers own.
    pub elsewhere: usize,
    /// Tables this server took over.
    pub takeovers: u64,
    /// Tables another server took from this one.
    pub moved_away: u64,
    /// Whether the last heartbeat renewed this server's lease.
    pub lease_ok: bool,
    /// Time since the last heartbeat began; `None` before the first.
    pub heartbeat_age: Option<Duration>,
}

impl Server {
    /// Opens the database file (creating it if new) and rebuilds every unfinished table from its
    /// log, with the default [`ServerConfig`]; bots whose turn it is move.
    pub fn open(path: &Path) -> Result<Server, StoreError> {
        Server::open_with(path, ServerConfig::default())
    }

    /// [`Server::open`] with the given time limits.
    pub fn open_with(path: &Path, config: ServerConfig) -> Result<Server, StoreError> {
        Server::with_store_config(Store::open(path)?, config)
    }

    /// Opens the store a `--db` argument names ([`crate::storage::open`]: an SQLite file, or a
    /// `postgres://` URL) and rebuilds every unfinished table from its log, as
    /// [`Server::open_with`] does.
    pub fn open_db(db: &str, config: ServerConfig) -> Result<Server, StoreError> {
        Server::with_boxed_store(crate::storage::open(db)?, config)
    }

    /// A server over an open store.
    pub fn with_store(store: impl TableStore + 'static) -> Result<Server, StoreError> {
        Server::with_store_config(store, ServerConfig::default())
    }

    /// A server over an open store with the given time limits. A table that fails to load is
    /// kept as broken (it says why) and the others start.
    pub fn with_store_config(
        store: impl TableStore + 'static,
        config: ServerConfig,
    ) -> Result<Server, StoreError> {
        Server::with_boxed_store(Box::new(store), config)
    }

    /// [`Server::with_store_config`] over a store of either kind ([`crate::storage::open`]).
    pub fn with_boxed_store(store: Box<dyn TableStore>, config: ServerConfig) -> Result<Server, StoreError> {
        let stored = store.load_unfinished()?;
        let mut recent = VecDeque::new();
        for id in store.finished_ids(RECENT_FINISHED)? {
            if let Some(st) = store.load_one(&id)? {
                recent.push_back(Table::load(st).info());
            }
        }
        let warnings = store.warnings();
        let (shared, store_kind, node) = (store.shared(), store.kind(), store.node().map(str::to_string));
        let store = Arc::new(Mutex::new(store));
        let writer = Writer::start(store.clone())?;
        let server = Server {
            inner: Arc::new(Inner {
                store,
                writer,
                tables: RwLock::default(),
                recent: Mutex::new(recent),
                bots: crate::pool::BotPool::new(config.bot_threads),
                creating: Mutex::new(()),
                config,
                closing: AtomicBool::new(false),
                sweeping: Mutex::new(()),
                warnings,
                shared,
                store_kind,
                node,
                elsewhere: Mutex::default(),
                elsewhere_count: Default::default(),
                lobby_seen: Mutex::new(None),
                heartbeat: Mutex::new((None, false)),
                takeovers: Default::default(),
                moved_away: Default::default(),
                reviews: Default::default(),
            }),
        };
        let mut tables = HashMap::new();
        for st in stored {
            let table = Table::load(st);
            // A game over whose end was not noted (a file of an older version): note it now.
            if table.is_over() {
                server.store().append(table.id(), 0, &[], Some(now()))?;
            }
            tables.insert(table.id().to_string(), TableCell::new(table));
        }
        *server.inner.tables.write().unwrap_or_else(|e| e.into_inner()) = tables;
        for cell in server.cells() {
            server.kick(&cell);
        }
        let weak = Arc::downgrade(&server.inner);
        let tick = server.inner.config.tick;
        std::thread::Builder::new()
            .name("wonders-sweeper".into())
            .spawn(move || sweeper(weak, tick))
            .map_err(|e| StoreError(format!("starting the background thread: {e}")))?;
        Ok(server)
    }

    /// Every table of a database file, as loaded (bots do not move): [`Server::check_file`]'s
    /// tables alone.
    pub fn check(path: &Path) -> Result<Vec<TableCheck>, StoreError> {
        Ok(Server::check_file(path)?.tables)
    }

    /// Checks a database file without serving it and without writing it (it may be read-only;
    /// [`Store::open_read_only`]): SQLite's integrity check of the whole file, every table's log
    /// replayed (a table that fails to load is broken, with the reason), and the WAL file read
    /// as SQLite reads it (a damaged one is reported: what SQLite ignores of it is lost). For
    /// `wonders serve --check`.
    pub fn check_file(path: &Path) -> Result<FileCheck, StoreError> {
        let store = Store::open_read_only(path)?;
        let integrity = store.integrity_check().unwrap_or_else(|e| vec![e.0]);
        let stored = store.load_all().map_err(|e| {
            let integrity = if integrity.len() == 1 && integrity[0] == "ok" {
                String::new()
            } else {
                format!(" (integrity check: {})", integrity.join("; "))
            };
            StoreError(format!("{}: the tables cannot be read: {}{integrity}", path.display(), e.0))
        })?;
        let tables = stored
            .into_iter()
            .map(|st| {
                let info = Table::load(st).info();
                TableCheck {
                    id: info.id,
                    status: info.status,
                    error: info.error,
                    age_turn: (info.age, info.turn),
                }
            })
            .collect();
        Ok(FileCheck { tables, integrity, wal_damage: store.wal_damage().cloned() })
    }

    /// What was found wrong with the database file when the server opened it (a damaged WAL
    /// file, an SQLite file with no table: [`Store::warnings`]), one message each, to be shown
    /// loudly. Empty for a sound file.
    pub fn warnings(&self) -> &[String] {
        &self.inner.warnings
    }

    /// Stops the server's writes: bots stop moving, new actions and other changes are refused
    /// (`unavailable`), the background thread stops changing tables, and this returns once
    /// every change already handed to the store writer is stored. Then the store is closed
    /// ([`Store::close`]): its WAL is written into the database file and emptied, so that the
    /// database file alone holds every table (a copy of it needs no `-wal` file). Call it before
    /// another server opens the same file, and before the process exits (
    /// [`crate::serve_with`] does, after its graceful shutdown). Blocks: not from an async task.
    pub fn close(&self) {
        self.inner.closing.store(true, Ordering::SeqCst);
        // Bots still waiting for a thread will not think: their tables' drivers stop at once
        // (a move being thought finishes within its budget; the next server thinks again).
        self.inner.bots.stop();
        self.inner.writer.wait_idle();
        // A round of the background thread in progress ends first; later ones change nothing.
        let _sweeping = self.inner.sweeping.lock().unwrap_or_else(|e| e.into_inner());
        match self.store().close() {
            Ok(()) => tracing::info!("the store is closed: the database file holds every table"),
            Err(e) => tracing::warn!("closing the store: {e}"),
        }
    }

    /// Whether [`Server::close`] was called.
    pub fn closing(&self) -> bool {
        self.inner.closing.load(Ordering::SeqCst)
    }

    /// `Unavailable` once [`Server::close`] was called: the store takes no more changes.
    fn refuse_when_closing(&self) -> Result<(), ApiError> {
        if self.closing() {
            return Err(ApiError::Unavailable("the server is shutting down: try again in a moment".into()));
        }
        Ok(())
    }

    fn store(&self) -> MutexGuard<'_, Box<dyn TableStore>> {
        self.inner.store.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn cells(&self) -> Vec<Arc<TableCell>> {
        self.inner.tables.read().unwrap_or_else(|e| e.into_inner()).values().cloned().collect()
    }

    fn in_memory(&self, id: &str) -> Option<Arc<TableCell>> {
        self.inner.tables.read().unwrap_or_else(|e| e.into_inner()).get(id).cloned()
    }

    /// The table of that id; a finished one that left memory is read back from the store (and
    /// leaves again later).
    pub fn table(&self, id: &str) -> Result<Arc<TableCell>, ApiError> {
        if let Some(cell) = self.in_memory(id) {
            return Ok(cell);
        }
        if self.inner.shared && !self.closing() {
            // Another server may own it: its ownership moves here, where its players are.
            self.store().claim(id)?;
        }
        let stored = self.store().load_one(id)?;
        let Some(stored) = stored else {
            return Err(ApiError::NotFound(format!("there is no table `{id}`")));
        };
        let open = stored.finished.is_none();
        let cell = TableCell::new(Table::load(stored));
        let mut tables = self.inner.tables.write().unwrap_or_else(|e| e.into_inner());
        let (cell, new) = match tables.entry(id.to_string()) {
            std::collections::hash_map::Entry::Occupied(e) => (e.get().clone(), false),
            std::collections::hash_map::Entry::Vacant(e) => (e.insert(cell).clone(), true),
        };
        drop(tables);
        if new && open && self.inner.shared {
            self.inner.takeovers.fetch_add(1, Ordering::Relaxed);
            self.inner.elsewhere.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
            tracing::info!(table = %id, "table taken over: a request for it reached this server");
            self.kick(&cell);
        }
        Ok(cell)
    }

    /// After a change of the table failed to be stored: with a store several servers share, the
    /// table is read back from the store at the next request or heartbeat (the failure may have
    /// been another server taking it over, or PostgreSQL lost while a commit was on its way,
    /// whose outcome only the store knows); its WebSockets close and their clients reconnect.
    /// Nothing for an SQLite file (the failed change was rolled back, memory matches the file).
    fn reload_after_failure(&self, cell: &Arc<TableCell>) {
        if !self.inner.shared {
            return;
        }
        let id = cell.lock().id().to_string();
        let mut tables = self.inner.tables.write().unwrap_or_else(|e| e.into_inner());
        if tables.get(&id).is_some_and(|c| Arc::ptr_eq(c, cell)) {
            tables.remove(&id);
            drop(tables);
            cell.mark_moved();
            tracing::info!(table = %id, "a change of the table could not be stored: it is read back from the store");
        }
    }

    /// One heartbeat of a server sharing its store ([`TableStore::heartbeat`]): renews its lease,
    /// loads the tables it took over (a killed or stopped server's: their bots move at once),
    /// stops serving those another server took (their WebSockets close: [`TableCell::moved`]),
    /// and refreshes the lobby's view of the other servers' tables.
    fn sync_ownership(&self) {
        let started = Instant::now();
        let owned = self.store().heartbeat();
        let owned: std::collections::HashSet<String> = match owned {
            Ok(owned) => owned.into_iter().collect(),
            Err(e) => {
                *self.inner.heartbeat.lock().unwrap_or_else(|e| e.into_inner()) = (Some(started), false);
                crate::failures::storage_failed("renewing this server's lease on its tables", None, &e.0);
                return;
            }
        };
        *self.inner.heartbeat.lock().unwrap_or_else(|e| e.into_inner()) = (Some(started), true);
        for cell in self.cells() {
            if cell.born > started {
                continue;
            }
            let (id, open) = {
                let table = cell.lock();
                (table.id().to_string(), matches!(table.status(), "waiting" | "playing"))
            };
            if open && !owned.contains(&id) {
                self.remove(&id);
                cell.mark_moved();
                self.inner.moved_away.fetch_add(1, Ordering::Relaxed);
                tracing::info!(table = %id, "table now served by another server");
            }
        }
        for id in &owned {
            if self.in_memory(id).is_some() {
                continue;
            }
            match self.store().load_one(id) {
                Ok(Some(stored)) => {
                    let cell = TableCell::new(Table::load(stored));
                    let cell = self
                        .inner
                        .tables
                        .write()
                        .unwrap_or_else(|e| e.into_inner())
                        .entry(id.clone())
                        .or_insert(cell)
                        .clone();
                    self.inner.takeovers.fetch_add(1, Ordering::Relaxed);
                    tracing::info!(table = %id, "table taken over from a server that stopped or lost its lease");
                    self.kick(&cell);
                }
                Ok(None) => {}
                Err(e) => crate::failures::storage_failed("loading a table taken over", Some(id), &e.0),
            }
        }
        self.refresh_elsewhere();
    }

    /// Reads the other servers' unfinished tables for the lobby, replaying those that changed,
    /// and the most recent finished games of every server; only their number while nobody
    /// looked at the lobby for [`LOBBY_WATCHED`] (replaying every other server's busy tables
    /// twice a second would cost more than the games themselves).
    fn refresh_elsewhere(&self) {
        let Ok(rows) = self.store().elsewhere() else { return };
        self.inner.elsewhere_count.store(rows.len(), Ordering::Relaxed);
        let seen = *self.inner.lobby_seen.lock().unwrap_or_else(|e| e.into_inner());
        if seen.is_none_or(|t| t.elapsed() > LOBBY_WATCHED) {
            return;
        }
        let mut fresh = HashMap::new();
        {
            let cache = self.inner.elsewhere.lock().unwrap_or_else(|e| e.into_inner());
            for (id, _, version) in &rows {
                if let Some((v, info)) = cache.get(id).filter(|(v, _)| v == version) {
                    fresh.insert(id.clone(), (*v, info.clone()));
                }
            }
        }
        for (id, _, version) in rows {
            if fresh.contains_key(&id) || self.in_memory(&id).is_some() {
                continue;
            }
            if let Ok(Some(stored)) = self.store().load_one(&id) {
                fresh.insert(id, (version, Table::load(stored).info()));
            }
        }
        *self.inner.elsewhere.lock().unwrap_or_else(|e| e.into_inner()) = fresh;
        let Ok(ids) = self.store().finished_ids(RECENT_FINISHED) else { return };
        let mut known: HashMap<String, TableInfo> = self
            .inner
            .recent
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|t| (t.id.clone(), t.clone()))
            .collect();
        for id in &ids {
            if !known.contains_key(id)
                && let Ok(Some(stored)) = self.store().load_one(id)
            {
                known.insert(id.clone(), Table::load(stored).info());
            }
        }
        // Newest first, as the store orders them (every server's finished games).
        let fresh: VecDeque<TableInfo> = ids.iter().filter_map(|id| known.remove(id)).collect();
        *self.inner.recent.lock().unwrap_or_else(|e| e.into_inner()) = fresh;
    }

    /// The store's kind and, for a store several servers share, who owns what (shown by
    /// `GET /metrics`, [`crate::metrics`]).
    pub fn store_metrics(&self) -> StoreMetrics {
        let shared = self.inner.shared.then(|| {
            let (last, lease_ok) = *self.inner.heartbeat.lock().unwrap_or_else(|e| e.into_inner());
            SharedStoreMetrics {
                owned: self.open_tables(),
                elsewhere: self.inner.elsewhere_count.load(Ordering::Relaxed),
                takeovers: self.inner.takeovers.load(Ordering::Relaxed),
                moved_away: self.inner.moved_away.load(Ordering::Relaxed),
                lease_ok,
                heartbeat_age: last.map(|t| t.elapsed()),
            }
        });
        StoreMetrics {
            kind: self.inner.store_kind,
            node: self.inner.node.clone().unwrap_or_default(),
            shared,
        }
    }

    /// How many tables are open (waiting for players or playing): for a cap on open tables.
    pub fn open_tables(&self) -> usize {
        self.cells().iter().filter(|c| matches!(c.lock().status(), "waiting" | "playing")).count()
    }

    fn new_id(&self) -> Result<String, ApiError> {
        loop {
            let id = token::random_hex(6).map_err(rng_error)?;
            let taken = self.in_memory(&id).is_some();
            if !taken && !self.store().exists(&id)? {
                return Ok(id);
            }
        }
    }

    fn insert(&self, table: Table) -> Arc<TableCell> {
        let id = table.id().to_string();
        let cell = TableCell::new(table);
        self.inner.tables.write().unwrap_or_else(|e| e.into_inner()).insert(id, cell.clone());
        cell
    }

    fn remove(&self, id: &str) {
        self.inner.tables.write().unwrap_or_else(|e| e.into_inner()).remove(id);
    }

    /// Starts the task that moves the table's bots, if a bot must act and none is running.
    fn kick(&self, cell: &Arc<TableCell>) {
        if self.closing() {
            return;
        }
        {
            let mut table = cell.lock();
            if !table.bots_to_move() || !table.start_driving() {
                return;
            }
        }
        let (server, cell) = (self.clone(), cell.clone());
        run_blocking(move || server.drive(&cell));
    }

    /// Plans a change under the table's lock (`plan`), queues it in the table and hands it to the
    /// store writer; the lock is released before the disk write. `reclaim`: the seat's player is
    /// back (a seat a stand-in bot played is theirs again; its watchers are told even when the
    /// plan is refused).
    fn submit(
        &self,
        cell: &Arc<TableCell>,
        token: &str,
        asynchronous: bool,
        reclaim: bool,
        plan: impl FnOnce(&mut Table, u8) -> Result<Plan, ApiError>,
    ) -> Result<Pending, ApiError> {
        let permit = self.inner.writer.reserve();
        self.submit_with(permit, cell, &token::hash_token(token), asynchronous, reclaim, plan)
    }

    /// [`Server::submit`] with the writer's room already reserved, and the token's hash
    /// ([`token::hash_token`]) for the token.
    fn submit_with(
        &self,
        permit: Permit,
        cell: &Arc<TableCell>,
        token_hash: &str,
        asynchronous: bool,
        reclaim: bool,
        plan: impl FnOnce(&mut Table, u8) -> Result<Plan, ApiError>,
    ) -> Result<Pending, ApiError> {
        self.refuse_when_closing()?;
        let mut table = cell.lock();
        let id = table.id().to_string();
        let seat = table
            .seat_of_token_hash(token_hash)
            .ok_or_else(|| ApiError::Forbidden(format!("this token does not hold a seat at table `{id}`")))?;
        let reclaimed = reclaim && table.reclaim(seat);
        let queued = plan(&mut table, seat).and_then(|mut plan| {
            let epoch = table.apply_ahead(&mut plan)?;
            let (next, finished) = (table.turn_id_ahead(seat), plan.ends_game.then(now));
            Ok(self.inner.writer.submit(permit, cell.clone(), id, plan, epoch, finished, next, asynchronous))
        });
        drop(table);
        if reclaimed {
            cell.notify();
        }
        Ok(Pending { server: self.clone(), cell: cell.clone(), ticket: queued? })
    }

    /// Moves the table's bots until none must act: they think with the table unlocked; their
    /// moves are stored, then applied, if still meant for the current step.
    fn drive(&self, cell: &Arc<TableCell>) {
        loop {
            let (jobs, id) = {
                let mut table = cell.lock();
                let jobs = table.bot_jobs();
                if jobs.is_empty() {
                    table.stop_driving();
                    return;
                }
                (jobs, table.id().to_string())
            };
            // On the bots' pool, in this table's turn among the tables (crate::pool).
            let moves = self.inner.bots.think(&id, jobs);
            let permit = self.inner.writer.reserve();
            let mut table = cell.lock();
            if self.closing() {
                // The moves are thought again by the next server over this store.
                table.stop_driving();
                return;
            }
            let mut plan = match table.plan_bot_moves(moves) {
                Ok(plan) => plan,
                Err(e) => {
                    let reason = format!("table {}: {e}", table.id());
                    table.break_with(reason);
                    table.stop_driving();
                    drop(table);
                    cell.notify();
                    return;
                }
            };
            if plan.actions.is_empty() {
                continue;
            }
            let id = table.id().to_string();
            let Ok(epoch) = table.apply_ahead(&mut plan) else {
                // The table is broken now (it says why).
                table.stop_driving();
                drop(table);
                cell.notify();
                return;
            };
            let finished = plan.ends_game.then(now);
            let ticket =
                self.inner.writer.submit(permit, cell.clone(), id.clone(), plan, epoch, finished, 0, false);
            drop(table);
            if let Err(e) = ticket.wait() {
                // Nothing changed; the next change of the table tries again. The store writer
                // logged the reason (rate-limited: a full disk must not flood the log).
                tracing::debug!(table = %id, "storing the bots' moves failed: {e}");
                cell.lock().stop_driving();
                self.reload_after_failure(cell);
                return;
            }
        }
    }

    /// Creates a table for a client at `address` ([`crate::limits::address_key`] of it) within
    /// `caps`: an address with `caps.per_address` open tables already is refused
    /// (`RateLimited`); when the server has `caps.total` open tables, the oldest waiting table
    /// nobody sits at is deleted to make room ([`Table::is_empty_waiting`]: a flood of empty
    /// tables never locks newcomers out), and without one the request is refused
    /// (`Unavailable`). When every seat is a bot's, the bots start playing at once.
    pub fn create_table_from(
        &self,
        req: &CreateTable,
        address: std::net::IpAddr,
        caps: OpenCaps,
    ) -> Result<TableInfo, ApiError> {
        self.refuse_when_closing()?;
        let _creating = self.inner.creating.lock().unwrap_or_else(|e| e.into_inner());
        let mut open = 0usize;
        let mut mine = 0usize;
        let mut oldest_empty: Option<(i64, Arc<TableCell>)> = None;
        for cell in self.cells() {
            let table = cell.lock();
            if !matches!(table.status(), "waiting" | "playing") {
                continue;
            }
            open += 1;
            mine += usize::from(table.creator() == Some(address));
            if table.is_empty_waiting() && oldest_empty.as_ref().is_none_or(|(t, _)| table.created() < *t) {
                let created = table.created();
                drop(table);
                oldest_empty = Some((created, cell));
            }
        }
        if mine >= caps.per_address {
            return Err(ApiError::RateLimited(format!(
                "your address already has {mine} open tables, the most one address may have \
                 ({}): play or leave one of them (a table nobody sits at is removed after a few minutes)",
                caps.per_address
            )));
        }
        if open >= caps.total {
            let evicted = oldest_empty.is_some_and(|(_, cell)| self.delete_waiting(&cell, "to make room"));
            if !evicted {
                return Err(ApiError::Unavailable(format!(
                    "the server already has {open} open tables, its most, and none is empty; try again later"
                )));
            }
        }
        let info = self.create_table_inner(req, Some(address))?;
        Ok(info)
    }

    /// Deletes a waiting table (expired, or removed to make room: `why`, for the log), as the
    /// background thread does; returns whether it was deleted.
    fn delete_waiting(&self, cell: &Arc<TableCell>, why: &str) -> bool {
        let mut table = cell.lock();
        if table.status() != "waiting" {
            return false;
        }
        let id = table.id().to_string();
        if let Err(e) = self.store().delete_table(&id) {
            // Rate-limited: a sweep tries again every tick while the disk is full.
            crate::failures::storage_failed("deleting a waiting table", Some(&id), &e.0);
            return false;
        }
        table.expire();
        let of = table.rematch_of().map(str::to_string);
        drop(table);
        self.remove(&id);
        cell.notify();
        if let Some(original) = of.and_then(|o| self.in_memory(&o)) {
            original.lock().clear_rematch(&id);
            original.notify();
        }
        tracing::info!(table = %id, "waiting table deleted {why}");
        true
    }

    /// Creates a table (no cap on open tables: the library's and the tests' way; the API's is
    /// [`Server::create_table_from`]); when every seat is a bot's, the bots start playing at once.
    pub fn create_table(&self, req: &CreateTable) -> Result<TableInfo, ApiError> {
        self.create_table_inner(req, None)
    }

    fn create_table_inner(
        &self,
        req: &CreateTable,
        creator: Option<std::net::IpAddr>,
    ) -> Result<TableInfo, ApiError> {
        self.refuse_when_closing()?;
        let id = self.new_id()?;
        let seed = token::random_u64().map_err(rng_error)?;
        let (mut table, stored) = Table::create(id, now(), seed, req)?;
        if let Some(key) = creator {
            table.set_creator(key);
        }
        self.store().insert_table(&stored)?;
        let cell = self.insert(table);
        self.kick(&cell);
        let info = cell.lock().info();
        Ok(info)
    }

    /// A person takes a free seat; the token is returned this once. A seat of a rematch held for
    /// a previous player needs that player's `token` of the previous game while it is held.
    pub fn take_seat(
        &self,
        id: &str,
        seat: usize,
        name: &str,
        token: Option<&str>,
    ) -> Result<SeatToken, ApiError> {
        let name = check_name(name)?;
        self.refuse_when_closing()?;
        let cell = self.table(id)?;
        let mut table = cell.lock();
        let presented = token.map(token::hash_token);
        let plan = table.plan_seat(seat, presented.as_deref())?;
        let token = token::new_token().map_err(rng_error)?;
        let hash = token::hash_token(&token);
        self.store().take_seat(id, seat as u8, &name, &hash, plan.first_index, &plan.stored)?;
        table.seat_taken(seat, name, hash);
        table.apply(&plan);
        drop(table);
        cell.notify();
        self.kick(&cell);
        Ok(SeatToken { table: id.to_string(), seat: seat as u8, token })
    }

    /// The holder of `token` leaves `seat` of a table still waiting for players: the seat is
    /// free again and the token no longer valid.
    pub fn leave_seat(&self, id: &str, seat: u8, token: &str) -> Result<(), ApiError> {
        self.refuse_when_closing()?;
        let cell = self.table(id)?;
        let mut table = cell.lock();
        let hash = token::hash_token(token);
        table.check_leave(seat, &hash)?;
        self.store().leave_seat(id, seat, &hash)?;
        table.seat_left(seat);
        drop(table);
        cell.notify();
        Ok(())
    }

    /// The seat a token gives, or `Forbidden`. The player is back: a seat a stand-in bot plays
    /// (its turn timer ran out) is theirs again.
    pub fn authorize(&self, id: &str, token: &str) -> Result<u8, ApiError> {
        let cell = self.table(id)?;
        let mut table = cell.lock();
        let seat = table
            .seat_of_token(token)
            .ok_or_else(|| ApiError::Forbidden(format!("this token does not hold a seat at table `{id}`")))?;
        if table.reclaim(seat) {
            drop(table);
            cell.notify();
        }
        Ok(seat)
    }

    /// A hint for the holder of `token`: the search bot's preferred moves for its seat now, each
    /// with the share of `samples` games (sampled from what the seat can see) it wins, best
    /// first, at most 3. Only at a table where every other seat is a bot (`Forbidden` otherwise:
    /// no advice in a game between people), and only while the game waits for the seat
    /// (`Conflict`). The search runs on a copy of the game, the table unlocked.
    pub fn hint(&self, id: &str, token: &str, samples: u32) -> Result<crate::msg::HintMsg, ApiError> {
        let cell = self.table(id)?;
        let (game, seat) = {
            let table = cell.lock();
            let seat = table.seat_of_token(token).ok_or_else(|| {
                ApiError::Forbidden(format!("this token does not hold a seat at table `{id}`"))
            })? as usize;
            if !table.only_person(seat) {
                return Err(ApiError::Forbidden(
                    "hints are only given at a table where every other seat is a bot".into(),
                ));
            }
            let game = table.game().ok_or_else(|| ApiError::Conflict("the game has not started".into()))?;
            if game.is_over() || !game.must_act(seat) {
                return Err(ApiError::Conflict("the game does not wait for your seat now".into()));
            }
            (game.clone(), seat)
        };
        let mut legal = Vec::new();
        game.legal_actions_into(seat, &mut legal);
        let view = game.view(seat);
        let advice = wonders_bots::coach::hint(&view, &legal, samples);
        let catalog = game.catalog();
        Ok(crate::msg::HintMsg {
            samples,
            moves: advice
                .iter()
                .take(3)
                .map(|a| crate::msg::HintMove {
                    action: wonders_core::wire::WireAction::from_action(catalog, &a.action),
                    win_chance: a.win_chance,
                    samples: a.visits,
                })
                .collect(),
        })
    }

    /// The review of `seat` (the token's own seat when `None`) in a finished game, each move
    /// judged on [`ServerConfig::review_samples`] sampled games, for a player of the game (the
    /// holder of `token`; see [`crate::review`]): `Conflict` before the game is over, `Forbidden`
    /// for a token that holds no seat, `BadRequest` for a seat the game has not. Computed once
    /// (this thread blocks for seconds), then kept.
    pub fn review(
        &self,
        id: &str,
        token: &str,
        seat: Option<u8>,
    ) -> Result<Arc<crate::review::ReviewMsg>, ApiError> {
        let cell = self.table(id)?;
        let (record, seat) = {
            let table = cell.lock();
            if !table.is_over() {
                return Err(ApiError::Conflict(format!(
                    "table `{id}` is {}: a review is made once the game is over",
                    table.status()
                )));
            }
            let mine = table.seat_of_token(token).ok_or_else(|| {
                ApiError::Forbidden(format!(
                    "a review is for the players of table `{id}`, and this token holds none of its seats"
                ))
            })?;
            (table.record()?, seat.unwrap_or(mine))
        };
        if seat >= record.players {
            return Err(ApiError::BadRequest(format!(
                "seat {seat} is out of range: this game has seats 0 to {}",
                record.players - 1
            )));
        }
        self.inner.reviews.get(id, &record, seat, self.inner.config.review_samples)
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

    /// The state of a table for a seat already authorised (or a spectator), with the log
    /// entries from `from` on ([`Table::state_from`]).
    pub fn state_for(&self, cell: &TableCell, you: Option<u8>, from: usize) -> StateMsg {
        cell.lock().state_from(you, from)
    }

    /// The state for the holder of a token (its hash, [`token::hash_token`]) as the table stands
    /// now, with the log entries from `from` on, and the seat the token holds now: the seat is
    /// looked up under the same lock the state is built under, so a seat left, taken by someone
    /// else, held for a rematch or expired is never shown to a token that no longer holds it
    /// (the state is then a spectator's). Without a token, a spectator's state.
    pub fn state_for_token(
        &self,
        cell: &TableCell,
        token_hash: Option<&str>,
        from: usize,
    ) -> (StateMsg, Option<u8>) {
        let table = cell.lock();
        let you = token_hash.and_then(|h| table.seat_of_token_hash(h));
        (table.state_from(you, from), you)
    }

    /// Whether a connection's next state may be held back (`crate::ws::STATE_HOLD`): its token
    /// (hash) still holds `seat` (a spectator: no token, no seat) and the table's state asks
    /// nothing of that seat ([`Table::prompts`]). A seat the token no longer holds is never
    /// held back: the connection's downgrade to a spectator goes at once.
    pub fn may_hold(&self, cell: &TableCell, token_hash: Option<&str>, seat: Option<u8>) -> bool {
        let table = cell.lock();
        token_hash.and_then(|h| table.seat_of_token_hash(h)) == seat && !table.prompts(seat)
    }

    /// Acts for the seat of `token`: stored, then applied; returns the seat's new `turn_id`.
    /// A seat a stand-in bot played is the player's again. The bots answer afterwards. Blocks
    /// until the store writer committed the action (see [`Server::submit_act`]).
    pub fn act(
        &self,
        id: &str,
        token: &str,
        turn_id: Option<u64>,
        action: &WireAction,
    ) -> Result<u64, ApiError> {
        self.submit_act(id, token, turn_id, action, false)?.wait()
    }

    /// Checks an action for the seat of `token` and hands it to the store writer: wait for its
    /// result with [`Pending::wait`] (`asynchronous` false) or [`Pending::done`] (true, in an
    /// async task). It is refused at once (nothing changed) if it is not legal now. May wait
    /// while the writer is behind (backpressure): call it on a blocking thread.
    pub fn submit_act(
        &self,
        id: &str,
        token: &str,
        turn_id: Option<u64>,
        action: &WireAction,
        asynchronous: bool,
    ) -> Result<Pending, ApiError> {
        let cell = self.table(id)?;
        self.submit(&cell, token, asynchronous, true, |table, seat| table.plan_action(seat, turn_id, action))
    }

    /// [`Server::submit_act`] from an async task (`asynchronous` true), without blocking: `None`
    /// when the writer's queue is full (nothing done: then call [`Server::submit_act`] on a
    /// thread that may wait). The table's lock is held only while the action is checked and
    /// queued, as with [`Server::submit_act`]. Takes the token's hash ([`token::hash_token`]):
    /// a connection hashes its token once, not once per action.
    pub fn try_submit_act(
        &self,
        id: &str,
        token_hash: &str,
        turn_id: Option<u64>,
        action: &WireAction,
    ) -> Option<Result<Pending, ApiError>> {
        let permit = self.inner.writer.try_reserve()?;
        Some(self.table(id).and_then(|cell| {
            self.submit_with(permit, &cell, token_hash, true, true, |table, seat| {
                table.plan_action(seat, turn_id, action)
            })
        }))
    }

    /// [`Server::submit_retract`] without blocking, like [`Server::try_submit_act`] (with the
    /// token's hash).
    pub fn try_submit_retract(&self, id: &str, token_hash: &str) -> Option<Result<Pending, ApiError>> {
        let permit = self.inner.writer.try_reserve()?;
        Some(self.table(id).and_then(|cell| {
            self.submit_with(permit, &cell, token_hash, true, false, |table, seat| table.plan_retract(seat))
        }))
    }

    /// Takes back the last choice of the seat of `token` in the current step (stored, then
    /// applied); refused once the step resolved. Returns the seat's new `turn_id`.
    pub fn retract(&self, id: &str, token: &str) -> Result<u64, ApiError> {
        self.submit_retract(id, token, false)?.wait()
    }

    /// [`Server::retract`] handed to the store writer, like [`Server::submit_act`].
    pub fn submit_retract(&self, id: &str, token: &str, asynchronous: bool) -> Result<Pending, ApiError> {
        let cell = self.table(id)?;
        self.submit(&cell, token, asynchronous, false, |table, seat| table.plan_retract(seat))
    }

    /// Open tables (waiting or playing) in memory, and finished or broken ones (those in
    /// memory and the most recent that left it), newest first.
    pub fn list(&self) -> TableList {
        let mut list = self.list_local();
        if self.inner.shared {
            *self.inner.lobby_seen.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
            let elsewhere = self.inner.elsewhere.lock().unwrap_or_else(|e| e.into_inner());
            for (_, info) in elsewhere.values() {
                if !list.open.iter().chain(&list.finished).any(|t| t.id == info.id) {
                    list.open.push(info.clone());
                }
            }
            drop(elsewhere);
            list.open.sort_by(|a, b| b.created.cmp(&a.created).then_with(|| a.id.cmp(&b.id)));
        }
        list
    }

    /// [`Server::list`] without the tables other servers sharing the store own.
    pub fn list_local(&self) -> TableList {
        let mut infos: Vec<TableInfo> =
            self.cells().iter().map(|c| c.lock().info()).filter(|t| t.status != "expired").collect();
        let recent = self.inner.recent.lock().unwrap_or_else(|e| e.into_inner());
        for info in recent.iter() {
            if !infos.iter().any(|t| t.id == info.id) {
                infos.push(info.clone());
            }
        }
        drop(recent);
        infos.sort_by(|a, b| b.created.cmp(&a.created).then_with(|| a.id.cmp(&b.id)));
        let (finished, open) = infos.into_iter().partition(|t| t.status == "over" || t.status == "broken");
        TableList { open, finished }
    }

    /// The record of a finished game.
    pub fn record(&self, id: &str) -> Result<Record, ApiError> {
        self.table(id)?.lock().record()
    }

    /// The rematch of a finished game, started by one of its players (the holder of `token`):
    /// created on the first call (same options and bots, a new seed, the people's seats held
    /// for them for [`ServerConfig::rematch_hold`]), the same one after.
    pub fn rematch(&self, id: &str, token: &str) -> Result<TableInfo, ApiError> {
        let cell = self.table(id)?;
        let mut table = cell.lock();
        if !table.is_over() {
            return Err(ApiError::Conflict(format!(
                "table `{id}` is {}: a rematch can be started once the game is over",
                table.status()
            )));
        }
        if table.seat_of_token(token).is_none() {
            return Err(ApiError::Forbidden(
                "only a player of this game (with their seat's token) can start its rematch".into(),
            ));
        }
        if let Some(existing) = table.rematch() {
            let existing = existing.to_string();
            drop(table);
            return Ok(self.table(&existing)?.lock().info());
        }
        self.refuse_when_closing()?;
        let new_id = self.new_id()?;
        let seed = token::random_u64().map_err(rng_error)?;
        let created = now();
        let hold = created + self.inner.config.rematch_hold.as_secs() as i64;
        let stored = table.rematch_setup(new_id.clone(), created, seed, hold);
        self.store().insert_rematch(id, &stored)?;
        table.set_rematch(new_id);
        drop(table);
        cell.notify();
        let new_cell = self.insert(Table::load(stored));
        self.kick(&new_cell);
        let info = new_cell.lock().info();
        Ok(info)
    }

    /// One round of the background thread: expires waiting tables, lets finished games leave
    /// memory, and hands seats whose turn timer ran out to a stand-in bot.
    fn sweep(&self) {
        let _sweeping = self.inner.sweeping.lock().unwrap_or_else(|e| e.into_inner());
        if self.closing() {
            return;
        }
        if self.inner.shared {
            let last = self.inner.heartbeat.lock().unwrap_or_else(|e| e.into_inner()).0;
            if last.is_none_or(|t| t.elapsed() >= HEARTBEAT) {
                self.sync_ownership();
            }
        }
        let config = &self.inner.config;
        let (now_unix, now_instant) = (now(), Instant::now());
        for cell in self.cells() {
            let mut table = cell.lock();
            match table.status() {
                "waiting" => {
                    // A table nobody sits at expires after `empty_expiry`, any other after
                    // `waiting_expiry`.
                    let expiry = match (config.empty_expiry, config.waiting_expiry) {
                        (Some(empty), Some(any)) if table.is_empty_waiting() => Some(empty.min(any)),
                        (Some(empty), None) if table.is_empty_waiting() => Some(empty),
                        (_, any) => any,
                    };
                    let Some(expiry) = expiry else { continue };
                    if table.created().saturating_add(expiry.as_secs() as i64) > now_unix {
                        continue;
                    }
                    drop(table);
                    self.delete_waiting(&cell, "(expired)");
                }
                "over"
                    if table
                        .over_since()
                        .is_some_and(|t| now_instant.duration_since(t) >= config.finished_keep) =>
                {
                    let info = table.info();
                    drop(table);
                    self.remove(&info.id);
                    let mut recent = self.inner.recent.lock().unwrap_or_else(|e| e.into_inner());
                    recent.retain(|t| t.id != info.id);
                    recent.push_front(info);
                    recent.truncate(RECENT_FINISHED);
                }
                "playing" => {
                    let due = table.time_out(now_instant);
                    drop(table);
                    if !due.is_empty() {
                        cell.notify();
                        self.kick(&cell);
                    }
                }
                _ => {}
            }
        }
    }
}

/// An action (or a retraction) handed to the store writer.
pub struct Pending {
    server: Server,
    cell: Arc<TableCell>,
    ticket: Ticket,
}

impl Pending {
    /// Blocks until the action is committed (then the table's bots answer): the seat's new
    /// `turn_id`, or the storage error (then nothing changed).
    pub fn wait(self) -> Result<u64, ApiError> {
        let result = self.ticket.wait();
        match result {
            Ok(_) => self.server.kick(&self.cell),
            Err(_) => self.server.reload_after_failure(&self.cell),
        }
        result
    }

    /// [`Pending::wait`] without blocking a thread.
    pub async fn done(self) -> Result<u64, ApiError> {
        let result = self.ticket.done().await;
        match result {
            Ok(_) => self.server.kick(&self.cell),
            Err(_) => self.server.reload_after_failure(&self.cell),
        }
        result
    }
}

/// The background thread: a sweep every `tick` until the server is dropped.
fn sweeper(server: Weak<Inner>, tick: Duration) {
    loop {
        std::thread::sleep(tick);
        let Some(inner) = server.upgrade() else {
            return;
        };
        Server { inner }.sweep();
        crate::failures::flush();
    }
}
