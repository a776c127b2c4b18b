//! The PostgreSQL store (`--db postgres://…`): the same rows as the SQLite file ([`crate::store`]),
//! in a PostgreSQL database several servers (or other tools) can reach.
//!
//! The client is `tokio-postgres` with a `deadpool-postgres` pool, driven by a small runtime of
//! the store's own: the server calls the store from plain threads (the store writer, blocking
//! tasks) and sometimes from async tasks, so every call is a task on that runtime that the caller
//! waits for. Every write is one transaction committed (PostgreSQL's default
//! `synchronous_commit = on`: flushed to its WAL) before the call returns `Ok`; a batch of the
//! store writer ([`crate::writer`]) is one transaction with one multi-row insert, whatever the
//! number of tables in it.
//!
//! Schema: the tables `wonders_tables`, `wonders_seats` and `wonders_actions` (prefixed, so that
//! the database may hold other things), and `wonders_meta` holding the schema's version, the same
//! number as the SQLite file's ([`crate::store::SCHEMA_VERSION`]): a newer one is refused, an
//! empty database gets the schema (under an advisory lock: two servers starting at once create
//! it once).
//!
//! When PostgreSQL is unreachable, each call fails within [`OP_TIMEOUT`] with an error naming
//! the server and the reason: actions are refused (`storage`), nothing is acknowledged; the pool
//! opens new connections once PostgreSQL answers again, with no restart of the server.

use crate::storage::TableStore;
use crate::store::{AppendEntry, SCHEMA_VERSION, StoreError, StoredSeat, StoredTable};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use std::collections::HashMap;
use std::future::Future;
use std::time::Duration;
use tokio_postgres::NoTls;

/// The longest a store call waits for PostgreSQL (a connection, then the statements) before it
/// fails: an action is refused after this long at worst while PostgreSQL is unreachable.
pub const OP_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a server's claim on its tables lasts without a heartbeat: a server killed (or cut
/// off from PostgreSQL) this long ago loses its tables to the others.
pub const LEASE: Duration = Duration::from_secs(3);

/// The most connections the store opens.
const POOL_SIZE: usize = 8;

/// The key of the advisory lock held while the schema is created or brought up to date.
const SCHEMA_LOCK: i64 = 0x776f_6e64_6572_7301;

const SCHEMA: &str = "
CREATE TABLE wonders_meta (
    version INTEGER NOT NULL
);
CREATE TABLE wonders_tables (
    id TEXT PRIMARY KEY,
    seq BIGSERIAL NOT NULL,
    created BIGINT NOT NULL,
    edition TEXT NOT NULL,
    players SMALLINT NOT NULL,
    seed BIGINT NOT NULL,
    wonders TEXT NOT NULL,
    rematch_of TEXT,
    rematch TEXT,
    turn_timer BIGINT,
    hold_until BIGINT,
    finished BIGINT,
    owner TEXT
);
CREATE TABLE wonders_nodes (
    node TEXT PRIMARY KEY,
    started BIGINT NOT NULL,
    until TIMESTAMPTZ NOT NULL
);
CREATE TABLE wonders_seats (
    table_id TEXT NOT NULL REFERENCES wonders_tables(id),
    seat SMALLINT NOT NULL,
    bot TEXT,
    name TEXT,
    token_hash TEXT,
    held_for TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE wonders_actions (
    table_id TEXT NOT NULL REFERENCES wonders_tables(id),
    idx INTEGER NOT NULL,
    seat SMALLINT NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
);
CREATE INDEX wonders_tables_finished ON wonders_tables (finished);
CREATE INDEX wonders_tables_owner ON wonders_tables (owner) WHERE finished IS NULL;
";

const TABLE_COLUMNS: &str =
    "id, created, edition, players, seed, wonders, rematch_of, rematch, turn_timer, hold_until, finished";

/// The PostgreSQL store: a pool of connections to one database.
pub struct PgStore {
    /// Taken on drop ([`tokio::runtime::Runtime::shutdown_background`]: a store may be dropped
    /// inside an async task, where a runtime may not wait for its threads).
    runtime: Option<tokio::runtime::Runtime>,
    pool: Pool,
    /// `user@host:port/database`, for messages (never the password).
    target: String,
    /// Set by [`TableStore::close`]: every write is refused from then on.
    closed: bool,
    /// This process's name among the servers sharing the database (random, new at each start):
    /// the `owner` of the tables it serves.
    node: String,
}

/// A PostgreSQL failure as a store error.
fn pg(e: tokio_postgres::Error) -> StoreError {
    match e.as_db_error() {
        Some(db) => StoreError(format!("PostgreSQL: {}: {}", db.severity(), db.message())),
        None => {
            let mut text = format!("PostgreSQL: {e}");
            let mut source = std::error::Error::source(&e);
            while let Some(s) = source {
                text.push_str(&format!(": {s}"));
                source = s.source();
            }
            StoreError(text)
        }
    }
}

/// Where a configuration points, without its password.
fn describe(config: &tokio_postgres::Config) -> String {
    let host = config
        .get_hosts()
        .first()
        .map(|h| match h {
            tokio_postgres::config::Host::Tcp(name) => name.clone(),
            #[cfg(unix)]
            tokio_postgres::config::Host::Unix(path) => path.display().to_string(),
        })
        .unwrap_or_else(|| "localhost".into());
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let user = config.get_user().unwrap_or("(default user)");
    let db = config.get_dbname().unwrap_or(user);
    format!("postgresql://{user}@{host}:{port}/{db}")
}

impl PgStore {
    /// Connects to the database of a `postgres://` (or `postgresql://`) URL, creates the schema in
    /// an empty database or checks it (a newer version is refused; one missing table is named),
    /// and fails within [`OP_TIMEOUT`] when the server cannot be reached. TLS is not supported:
    /// use a local socket or a private network (`?sslmode=disable`, the default `prefer` falls
    /// back to plain).
    pub fn connect(url: &str) -> Result<PgStore, StoreError> {
        let config: tokio_postgres::Config =
            url.parse().map_err(|e| StoreError(format!("`{}` is not a PostgreSQL URL: {e}", redact(url))))?;
        let target = describe(&config);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("wonders-postgres")
            .enable_all()
            .build()
            .map_err(|e| StoreError(format!("starting the PostgreSQL client: {e}")))?;
        let manager =
            Manager::from_config(config, NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(OP_TIMEOUT))
            .create_timeout(Some(OP_TIMEOUT))
            .recycle_timeout(Some(OP_TIMEOUT))
            .build()
            .map_err(|e| StoreError(format!("{target}: {e}")))?;
        let node = crate::token::random_hex(6).map_err(|e| StoreError(format!("a node name: {e}")))?;
        let store = PgStore { runtime: Some(runtime), pool, target, closed: false, node };
        store.run(init)?;
        store.renew()?;
        Ok(store)
    }

    /// Where the store points (`postgresql://user@host:port/database`, no password).
    pub fn target(&self) -> &str {
        &self.target
    }

    /// Runs `f` on the store's runtime with a connection of the pool and waits for it, at most
    /// [`OP_TIMEOUT`] in all. Callable from any thread, an async task's included.
    fn run<T, F, Fut>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(deadpool_postgres::Client) -> Fut + Send + 'static,
        Fut: Future<Output = Result<T, StoreError>> + Send,
    {
        let (pool, target) = (self.pool.clone(), self.target.clone());
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        let Some(runtime) = &self.runtime else {
            return Err(StoreError("the PostgreSQL client stopped".into()));
        };
        runtime.spawn(async move {
            let work = async {
                let client = pool.get().await.map_err(|e| match e {
                    deadpool_postgres::PoolError::Backend(e) => pg(e),
                    other => StoreError(format!("PostgreSQL: no connection: {other}")),
                })?;
                f(client).await
            };
            let result = match tokio::time::timeout(OP_TIMEOUT, work).await {
                Ok(r) => r,
                Err(_) => {
                    Err(StoreError(format!("PostgreSQL did not answer within {} s", OP_TIMEOUT.as_secs())))
                }
            };
            let _ = tx.send(result.map_err(|e| StoreError(format!("{target}: {} (is it running?)", e.0))));
        });
        rx.recv().unwrap_or_else(|_| Err(StoreError("the PostgreSQL client stopped".into())))
    }

    /// Takes over the unfinished tables no live server owns: none at all (their server stopped
    /// cleanly, or they were copied in), or one whose lease ran out (killed, or cut off from
    /// PostgreSQL for longer than [`LEASE`]). Two servers doing it at once take each table once
    /// (the second sees the first's claim when the row's lock is released).
    fn take_orphans(&self) -> Result<u64, StoreError> {
        if self.closed {
            return Ok(0);
        }
        let node = self.node.clone();
        self.run(move |client| async move {
            client
                .execute(
                    "UPDATE wonders_tables SET owner = $1
                     WHERE finished IS NULL AND (owner IS NULL OR NOT EXISTS (
                         SELECT 1 FROM wonders_nodes n WHERE n.node = wonders_tables.owner AND n.until > now()))",
                    &[&node],
                )
                .await
                .map_err(pg)
        })
    }

    /// Renews this server's lease ([`LEASE`]), registering it if new.
    fn renew(&self) -> Result<(), StoreError> {
        let (node, started) = (self.node.clone(), crate::server::now());
        let lease = LEASE.as_secs_f64();
        self.run(move |client| async move {
            client
                .execute(
                    "INSERT INTO wonders_nodes (node, started, until)
                     VALUES ($1, $2, now() + make_interval(secs => $3))
                     ON CONFLICT (node) DO UPDATE SET until = EXCLUDED.until",
                    &[&node, &started, &lease],
                )
                .await
                .map_err(pg)?;
            // The rows of servers gone for an hour (their tables were taken over long ago).
            client
                .execute("DELETE FROM wonders_nodes WHERE until < now() - interval '1 hour'", &[])
                .await
                .map_err(pg)?;
            Ok(())
        })
    }

    fn writable(&self) -> Result<(), StoreError> {
        if self.closed {
            return Err(StoreError("the store is closed: the server is stopping".into()));
        }
        Ok(())
    }

    /// The tables matching an SQL condition on `wonders_tables` (`$1` bound to `arg` when given),
    /// with their seats and logs, read in one consistent snapshot. A gap in a log or the seats
    /// does not fail the load: the table carries the reason in `damage`.
    fn load_where(
        &self,
        condition: &'static str,
        arg: Option<String>,
    ) -> Result<Vec<StoredTable>, StoreError> {
        self.run(move |mut client| async move {
            let tx = client
                .build_transaction()
                .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .await
                .map_err(pg)?;
            let query =
                format!("SELECT {TABLE_COLUMNS} FROM wonders_tables WHERE {condition} ORDER BY created, seq");
            let rows = match &arg {
                Some(a) => tx.query(&query, &[a]).await,
                None => tx.query(&query, &[]).await,
            }
            .map_err(pg)?;
            let mut tables: Vec<StoredTable> = Vec::with_capacity(rows.len());
            for r in &rows {
                let id: String = r.get(0);
                let read = || -> Result<StoredTable, String> {
                    let players: i16 = r.get(3);
                    Ok(StoredTable {
                        id: id.clone(),
                        created: r.get(1),
                        edition: r.get(2),
                        players: u8::try_from(players).map_err(|_| format!("{players} players"))?,
                        seed: r.get::<_, i64>(4) as u64,
                        wonders: r.get(5),
                        rematch_of: r.get(6),
                        rematch: r.get(7),
                        turn_timer: r
                            .get::<_, Option<i64>>(8)
                            .map(|t| u32::try_from(t).map_err(|_| format!("a turn timer of {t} s")))
                            .transpose()?,
                        hold_until: r.get(9),
                        finished: r.get(10),
                        ..StoredTable::default()
                    })
                };
                tables.push(read().unwrap_or_else(|e| StoredTable {
                    id: id.clone(),
                    damage: Some(format!("its row cannot be read: {e}")),
                    ..StoredTable::default()
                }));
            }
            let ids: Vec<String> = tables.iter().map(|t| t.id.clone()).collect();
            let seats = tx
                .query(
                    "SELECT table_id, seat, bot, name, token_hash, held_for FROM wonders_seats
                     WHERE table_id = ANY($1) ORDER BY table_id, seat",
                    &[&ids],
                )
                .await
                .map_err(pg)?;
            let actions = tx
                .query(
                    "SELECT table_id, idx, seat, action FROM wonders_actions
                     WHERE table_id = ANY($1) ORDER BY table_id, idx",
                    &[&ids],
                )
                .await
                .map_err(pg)?;
            tx.commit().await.map_err(pg)?;
            let at: HashMap<String, usize> = ids.into_iter().enumerate().map(|(i, id)| (id, i)).collect();
            for r in &seats {
                let t = &mut tables[at[&r.get::<_, String>(0)]];
                if t.damage.is_some() {
                    continue;
                }
                let seat: i16 = r.get(1);
                if i64::from(seat) != t.seats.len() as i64 {
                    t.damage = Some(format!("seat {} is missing (found seat {seat})", t.seats.len()));
                    continue;
                }
                t.seats.push(StoredSeat {
                    bot: r.get(2),
                    name: r.get(3),
                    token_hash: r.get(4),
                    held_for: r.get(5),
                });
            }
            for r in &actions {
                let t = &mut tables[at[&r.get::<_, String>(0)]];
                if t.damage.is_some() {
                    continue;
                }
                let (idx, seat): (i32, i16) = (r.get(1), r.get(2));
                if i64::from(idx) != t.actions.len() as i64 {
                    t.damage =
                        Some(format!("action {} is missing from the log (found {idx})", t.actions.len()));
                    continue;
                }
                match u8::try_from(seat) {
                    Ok(seat) => t.actions.push((seat, r.get(3))),
                    Err(_) => t.damage = Some(format!("action {idx} cannot be read: seat {seat}")),
                }
            }
            Ok(tables)
        })
    }
}

impl Drop for PgStore {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// A URL with its password replaced by `***`, for messages.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.find('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            match userinfo.find(':') {
                Some(colon) => format!("{}{}:***{}", &url[..scheme + 3], &userinfo[..colon], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

/// Creates the schema in an empty database, or checks it, under an advisory lock.
async fn init(mut client: deadpool_postgres::Client) -> Result<(), StoreError> {
    let tx = client.transaction().await.map_err(pg)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SCHEMA_LOCK]).await.map_err(pg)?;
    let present: Vec<String> = tx
        .query(
            "SELECT table_name::text FROM information_schema.tables
             WHERE table_schema = current_schema() AND table_name LIKE 'wonders\\_%'",
            &[],
        )
        .await
        .map_err(pg)?
        .iter()
        .map(|r| r.get(0))
        .collect();
    if present.is_empty() {
        tx.batch_execute(SCHEMA).await.map_err(pg)?;
        tx.execute("INSERT INTO wonders_meta (version) VALUES ($1)", &[&(SCHEMA_VERSION as i32)])
            .await
            .map_err(pg)?;
        return tx.commit().await.map_err(pg);
    }
    for table in ["wonders_meta", "wonders_tables", "wonders_nodes", "wonders_seats", "wonders_actions"] {
        if !present.iter().any(|p| p == table) {
            return Err(StoreError(format!(
                "the database is damaged: its `{table}` table is missing; refusing to start"
            )));
        }
    }
    let version: i32 = tx
        .query_opt("SELECT max(version) FROM wonders_meta", &[])
        .await
        .map_err(pg)?
        .and_then(|r| r.get::<_, Option<i32>>(0))
        .ok_or_else(|| StoreError("the database is damaged: `wonders_meta` holds no version".into()))?;
    if i64::from(version) > SCHEMA_VERSION {
        return Err(StoreError(format!(
            "the database has schema version {version}, newer than this server's \
             ({SCHEMA_VERSION}): use a newer `wonders`"
        )));
    }
    tx.commit().await.map_err(pg)
}

/// Checks, in `tx`, that this server (`node`) owns every table of `ids`, and locks their rows
/// (`FOR SHARE`) until the transaction ends: another server taking one of them over waits for
/// it, then sees what it wrote. A table another server owns now is refused, naming it.
async fn fence(
    tx: &deadpool_postgres::Transaction<'_>,
    node: &str,
    ids: &[String],
) -> Result<(), StoreError> {
    let stmt = tx
        .prepare_cached("SELECT id FROM wonders_tables WHERE id = ANY($1) AND owner = $2 FOR SHARE")
        .await
        .map_err(pg)?;
    let owned: Vec<String> =
        tx.query(&stmt, &[&ids, &node]).await.map_err(pg)?.iter().map(|r| r.get(0)).collect();
    match ids.iter().find(|id| !owned.contains(id)) {
        None => Ok(()),
        Some(id) => Err(StoreError(format!(
            "table {id} is now served by another server sharing the database (it took the table \
             over): nothing was stored here; reconnect to play on"
        ))),
    }
}

/// The rows of a table and its seats, inserted in `tx`, owned by `owner`.
async fn insert_table_in(
    tx: &deadpool_postgres::Transaction<'_>,
    t: &StoredTable,
    owner: &str,
) -> Result<(), StoreError> {
    let insert = format!(
        "INSERT INTO wonders_tables ({TABLE_COLUMNS}, owner) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
    );
    tx.execute(
        &insert,
        &[
            &t.id,
            &t.created,
            &t.edition,
            &i16::from(t.players),
            &(t.seed as i64),
            &t.wonders,
            &t.rematch_of,
            &t.rematch,
            &t.turn_timer.map(i64::from),
            &t.hold_until,
            &t.finished,
            &owner,
        ],
    )
    .await
    .map_err(pg)?;
    let seat_numbers: Vec<i16> = (0..t.seats.len() as i16).collect();
    let column =
        |f: fn(&StoredSeat) -> &Option<String>| t.seats.iter().map(|s| f(s).clone()).collect::<Vec<_>>();
    tx.execute(
        "INSERT INTO wonders_seats (table_id, seat, bot, name, token_hash, held_for)
         SELECT $1, * FROM UNNEST($2::smallint[], $3::text[], $4::text[], $5::text[], $6::text[])",
        &[
            &t.id,
            &seat_numbers,
            &column(|s| &s.bot),
            &column(|s| &s.name),
            &column(|s| &s.token_hash),
            &column(|s| &s.held_for),
        ],
    )
    .await
    .map_err(pg)?;
    Ok(())
}

/// Appends actions (owned columns: table ids, indexes, seats, actions' JSON) in `tx`, one
/// statement for all of them.
async fn append_in(
    tx: &deadpool_postgres::Transaction<'_>,
    rows: &(Vec<String>, Vec<i32>, Vec<i16>, Vec<String>),
) -> Result<(), StoreError> {
    if rows.0.is_empty() {
        return Ok(());
    }
    let stmt = tx
        .prepare_cached(
            "INSERT INTO wonders_actions (table_id, idx, seat, action)
             SELECT * FROM UNNEST($1::text[], $2::int[], $3::smallint[], $4::text[])",
        )
        .await
        .map_err(pg)?;
    tx.execute(&stmt, &[&rows.0, &rows.1, &rows.2, &rows.3]).await.map_err(pg)?;
    Ok(())
}

/// The columns of [`append_in`] for a table's actions from `first_index`.
fn action_rows(
    rows: &mut (Vec<String>, Vec<i32>, Vec<i16>, Vec<String>),
    id: &str,
    first_index: usize,
    actions: &[(u8, String)],
) -> Result<(), StoreError> {
    for (i, (seat, action)) in actions.iter().enumerate() {
        let idx = i32::try_from(first_index + i)
            .map_err(|_| StoreError(format!("table {id}: action index {} is too large", first_index + i)))?;
        rows.0.push(id.to_string());
        rows.1.push(idx);
        rows.2.push(i16::from(*seat));
        rows.3.push(action.clone());
    }
    Ok(())
}

impl TableStore for PgStore {
    fn kind(&self) -> &'static str {
        "postgresql"
    }

    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }

    fn exists(&self, id: &str) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.run(move |client| async move {
            let row =
                client.query_opt("SELECT 1 FROM wonders_tables WHERE id = $1", &[&id]).await.map_err(pg)?;
            Ok(row.is_some())
        })
    }

    fn insert_table(&mut self, t: &StoredTable) -> Result<(), StoreError> {
        self.writable()?;
        let (t, node) = (t.clone(), self.node.clone());
        self.run(move |mut client| async move {
            let tx = client.transaction().await.map_err(pg)?;
            insert_table_in(&tx, &t, &node).await?;
            tx.commit().await.map_err(pg)
        })
    }

    fn insert_rematch(&mut self, id: &str, rematch: &StoredTable) -> Result<(), StoreError> {
        self.writable()?;
        let (id, rematch, node) = (id.to_string(), rematch.clone(), self.node.clone());
        self.run(move |mut client| async move {
            let tx = client.transaction().await.map_err(pg)?;
            insert_table_in(&tx, &rematch, &node).await?;
            let changed = tx
                .execute(
                    "UPDATE wonders_tables SET rematch = $2 WHERE id = $1 AND rematch IS NULL",
                    &[&id, &rematch.id],
                )
                .await
                .map_err(pg)?;
            if changed != 1 {
                return Err(StoreError(format!("table {id} already has a rematch in the store")));
            }
            tx.commit().await.map_err(pg)
        })
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
        self.writable()?;
        let mut rows = Default::default();
        action_rows(&mut rows, id, first_index, actions)?;
        let (id, name, hash) = (id.to_string(), name.to_string(), token_hash.to_string());
        let node = self.node.clone();
        self.run(move |mut client| async move {
            let tx = client.transaction().await.map_err(pg)?;
            fence(&tx, &node, std::slice::from_ref(&id)).await?;
            let changed = tx
                .execute(
                    "UPDATE wonders_seats SET name = $3, token_hash = $4, held_for = NULL
                     WHERE table_id = $1 AND seat = $2 AND bot IS NULL AND token_hash IS NULL",
                    &[&id, &i16::from(seat), &name, &hash],
                )
                .await
                .map_err(pg)?;
            if changed != 1 {
                return Err(StoreError(format!("seat {seat} of table {id} is not free in the store")));
            }
            append_in(&tx, &rows).await?;
            tx.commit().await.map_err(pg)
        })
    }

    fn leave_seat(&mut self, id: &str, seat: u8, token_hash: &str) -> Result<(), StoreError> {
        self.writable()?;
        let (id, hash, node) = (id.to_string(), token_hash.to_string(), self.node.clone());
        self.run(move |mut client| async move {
            let tx = client.transaction().await.map_err(pg)?;
            fence(&tx, &node, std::slice::from_ref(&id)).await?;
            let changed = tx
                .execute(
                    "UPDATE wonders_seats SET name = NULL, token_hash = NULL
                     WHERE table_id = $1 AND seat = $2 AND token_hash = $3",
                    &[&id, &i16::from(seat), &hash],
                )
                .await
                .map_err(pg)?;
            if changed != 1 {
                return Err(StoreError(format!(
                    "seat {seat} of table {id} is not that token's in the store"
                )));
            }
            tx.commit().await.map_err(pg)
        })
    }

    fn append_batch(&mut self, entries: &[AppendEntry<'_>]) -> Result<(), StoreError> {
        if entries.iter().all(|e| e.actions.is_empty() && e.finished.is_none()) {
            return Ok(());
        }
        self.writable()?;
        let mut rows = Default::default();
        let (mut ended, mut at) = (Vec::new(), Vec::new());
        let mut ids: Vec<String> = Vec::with_capacity(entries.len());
        for e in entries {
            if !ids.iter().any(|i| i == e.table) {
                ids.push(e.table.to_string());
            }
            action_rows(&mut rows, e.table, e.first_index, e.actions)?;
            if let Some(when) = e.finished {
                ended.push(e.table.to_string());
                at.push(when);
            }
        }
        let node = self.node.clone();
        self.run(move |mut client| async move {
            let tx = client.transaction().await.map_err(pg)?;
            fence(&tx, &node, &ids).await?;
            append_in(&tx, &rows).await?;
            if !ended.is_empty() {
                let stmt = tx
                    .prepare_cached(
                        "UPDATE wonders_tables SET finished = f.at
                         FROM UNNEST($1::text[], $2::bigint[]) AS f(id, at) WHERE wonders_tables.id = f.id",
                    )
                    .await
                    .map_err(pg)?;
                tx.execute(&stmt, &[&ended, &at]).await.map_err(pg)?;
            }
            tx.commit().await.map_err(pg)
        })
    }

    fn delete_table(&mut self, id: &str) -> Result<(), StoreError> {
        self.writable()?;
        let (id, node) = (id.to_string(), self.node.clone());
        self.run(move |mut client| async move {
            let tx = client.transaction().await.map_err(pg)?;
            fence(&tx, &node, std::slice::from_ref(&id)).await?;
            tx.execute("DELETE FROM wonders_actions WHERE table_id = $1", &[&id]).await.map_err(pg)?;
            tx.execute("DELETE FROM wonders_seats WHERE table_id = $1", &[&id]).await.map_err(pg)?;
            tx.execute("DELETE FROM wonders_tables WHERE id = $1", &[&id]).await.map_err(pg)?;
            tx.execute("UPDATE wonders_tables SET rematch = NULL WHERE rematch = $1", &[&id])
                .await
                .map_err(pg)?;
            tx.commit().await.map_err(pg)
        })
    }

    fn load_all(&self) -> Result<Vec<StoredTable>, StoreError> {
        self.load_where("true", None)
    }

    /// The unfinished tables this server owns, once it took over those no live server owns
    /// ([`TableStore::heartbeat`]).
    fn load_unfinished(&self) -> Result<Vec<StoredTable>, StoreError> {
        self.take_orphans()?;
        self.load_where("finished IS NULL AND owner = $1", Some(self.node.clone()))
    }

    fn load_one(&self, id: &str) -> Result<Option<StoredTable>, StoreError> {
        Ok(self.load_where("id = $1", Some(id.to_string()))?.pop())
    }

    fn finished_ids(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        let limit = limit as i64;
        self.run(move |client| async move {
            let rows = client
                .query(
                    "SELECT id FROM wonders_tables WHERE finished IS NOT NULL
                     ORDER BY finished DESC, seq DESC LIMIT $1",
                    &[&limit],
                )
                .await
                .map_err(pg)?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    /// Refuses later writes and hands this server's tables over: they are left with no owner,
    /// and the other servers take them at their next heartbeat. Reads go on (a finished table is
    /// read back on demand); the connections close when the store is dropped.
    fn close(&mut self) -> Result<(), StoreError> {
        self.closed = true;
        let node = self.node.clone();
        self.run(move |mut client| async move {
            let tx = client.transaction().await.map_err(pg)?;
            tx.execute("UPDATE wonders_tables SET owner = NULL WHERE owner = $1", &[&node])
                .await
                .map_err(pg)?;
            tx.execute("DELETE FROM wonders_nodes WHERE node = $1", &[&node]).await.map_err(pg)?;
            tx.commit().await.map_err(pg)
        })
    }

    fn shared(&self) -> bool {
        true
    }

    fn node(&self) -> Option<&str> {
        Some(&self.node)
    }

    fn claim(&mut self, id: &str) -> Result<(), StoreError> {
        self.writable()?;
        let (id, node) = (id.to_string(), self.node.clone());
        self.run(move |client| async move {
            // Waits for the transactions of the previous owner that hold the row (`fence`).
            client
                .execute(
                    "UPDATE wonders_tables SET owner = $2
                     WHERE id = $1 AND finished IS NULL AND owner IS DISTINCT FROM $2",
                    &[&id, &node],
                )
                .await
                .map_err(pg)?;
            Ok(())
        })
    }

    fn heartbeat(&mut self) -> Result<Vec<String>, StoreError> {
        if self.closed {
            return Ok(Vec::new());
        }
        self.renew()?;
        self.take_orphans()?;
        let node = self.node.clone();
        self.run(move |client| async move {
            let rows = client
                .query("SELECT id FROM wonders_tables WHERE finished IS NULL AND owner = $1", &[&node])
                .await
                .map_err(pg)?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    fn elsewhere(&self) -> Result<Vec<(String, String, i64)>, StoreError> {
        let node = self.node.clone();
        self.run(move |client| async move {
            let rows = client
                .query(
                    "SELECT t.id, coalesce(t.owner, ''),
                        (SELECT count(*) FROM wonders_actions a WHERE a.table_id = t.id) * 64
                        + (SELECT count(*) FROM wonders_seats s WHERE s.table_id = t.id AND s.token_hash IS NOT NULL)
                     FROM wonders_tables t WHERE t.finished IS NULL AND t.owner IS DISTINCT FROM $1",
                    &[&node],
                )
                .await
                .map_err(pg)?;
            Ok(rows.iter().map(|r| (r.get(0), r.get(1), r.get(2))).collect())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_never_shows_in_messages() {
        assert_eq!(redact("postgres://ann:secret@db:5432/w"), "postgres://ann:***@db:5432/w");
        assert_eq!(redact("postgres://ann@db/w"), "postgres://ann@db/w");
        let config: tokio_postgres::Config = "postgres://ann:secret@db:6000/w".parse().unwrap();
        assert_eq!(describe(&config), "postgresql://ann@db:6000/w");
        // A URL that does not parse is refused with the password hidden.
        let e = PgStore::connect("postgres://ann:secret@db:notaport/w").err().unwrap();
        assert!(e.0.contains("ann:***@db") && !e.0.contains("secret"), "{e}");
    }
}
