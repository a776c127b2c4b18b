//! The store writer: one thread that stores every table's actions (people's and bots'), several
//! tables' at once in one transaction of the store (group commit; SQLite or PostgreSQL,
//! [`crate::storage`]), then makes them visible and
//! acknowledges them.
//!
//! A change of a table is planned and checked under the table's lock, queued to the table
//! ([`Table::apply_ahead`]) and handed to the writer, then the lock is released: the disk write
//! happens with no table locked, and other actions (of this table or others) are planned
//! meanwhile. The writer takes everything waiting (up to [`MAX_BATCH`] changes; when it is busy
//! and the batch small, also what arrives within [`GROUP_WAIT`]), appends it in one transaction
//! and commits; then, in the order the changes were queued, makes each durable in its
//! table ([`Table::commit`]), acknowledges the changes and wakes each table's watchers once.
//! Nothing is acknowledged, sent to a watcher or shown in a state before its transaction
//! committed.
//!
//! When the batch's transaction fails, each change is tried again alone, so that an error is
//! reported to the client of the change that caused it (an `error` with code `storage`), not
//! swallowed and not blamed on other tables; every failure is logged with SQLite's reason
//! ([`crate::failures`], identical ones rate-limited); the table's queued changes are dropped
//! ([`Table::abandon`]), and its later changes already handed to the writer (planned on top of
//! the failed one) fail too without being written: the log never has a gap.
//!
//! Backpressure: at most [`MAX_IN_FLIGHT`] changes wait for the writer at once; a request that
//! would exceed it waits (before locking any table) until the writer catches up.

use crate::msg::ApiError;
use crate::server::TableCell;
use crate::storage::TableStore;
use crate::store::{AppendEntry, StoreError};
use crate::table::Plan;
#[cfg(doc)]
use crate::table::Table;
use std::collections::HashMap;
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// The most changes committed in one transaction.
pub const MAX_BATCH: usize = 1024;

/// The most changes waiting for the writer at once (then new ones wait).
pub const MAX_IN_FLIGHT: usize = 4096;

/// Group commit under load: how long the writer waits for more changes to join a batch before
/// committing it, when it is busy ([`GROUP_BUSY`]) and the batch is small ([`GROUP_FULL`]).
/// Fewer, larger transactions cost less per change (SQLite writes the same few pages of the WAL
/// for 5 changes as for 40), and a table's seats that act at about the same time are committed
/// together, so its watchers get one state for them instead of one per batch. Measured under the
/// load test (docs/src/contributing/speed-journal.md, server round 6): 4 ms saved a little more
/// CPU and p99 than 2 ms but lowered the rate (the wait lengthens every seat's turn-around); 2 ms
/// kept the rate. Measured again once every seat of the load test could connect and the writer
/// acknowledged before waking the watchers (server round 7): 2 ms had a lower p99 than 1 ms, and than 4 ms in most runs;
/// no wait at all (commit what is queued, what arrives meanwhile joins the next batch) and 0.5 ms
/// had a higher p99 and CPU time per action.
pub const GROUP_WAIT: Duration = Duration::from_millis(2);

/// The writer is busy (and waits [`GROUP_WAIT`] on a small batch) when its previous batch had at
/// least this many changes. A lone change (a person's move on a quiet server, one table's bots)
/// is committed at once.
pub const GROUP_BUSY: usize = 4;

/// A batch of this many changes is committed without waiting for more.
pub const GROUP_FULL: usize = 64;

/// The result of storing a change: the seat's new `turn_id`, or why it was not stored.
pub type Stored = Result<u64, ApiError>;

/// Where the writer sends a change's result.
enum Reply {
    /// A thread blocked in [`Ticket::wait`].
    Blocking(SyncSender<Stored>),
    /// A task awaiting [`Ticket::done`].
    Async(tokio::sync::oneshot::Sender<Stored>),
}

/// A change handed to the writer.
struct Job {
    cell: Arc<TableCell>,
    table: String,
    plan: Plan,
    epoch: u64,
    finished: Option<i64>,
    turn_id: u64,
    reply: Reply,
}

/// The wait for a change handed to the writer.
pub struct Ticket {
    rx: TicketRx,
}

enum TicketRx {
    Blocking(Receiver<Stored>),
    Async(tokio::sync::oneshot::Receiver<Stored>),
}

fn lost() -> ApiError {
    ApiError::Storage("the store writer stopped before storing the action".into())
}

impl Ticket {
    /// Blocks until the change is stored (or failed). Not from inside an async task.
    pub fn wait(self) -> Stored {
        match self.rx {
            TicketRx::Blocking(rx) => rx.recv().unwrap_or_else(|_| Err(lost())),
            TicketRx::Async(rx) => rx.blocking_recv().unwrap_or_else(|_| Err(lost())),
        }
    }

    /// Waits until the change is stored (or failed), without blocking a thread.
    pub async fn done(self) -> Stored {
        match self.rx {
            TicketRx::Blocking(rx) => {
                tokio::task::spawn_blocking(move || rx.recv().unwrap_or_else(|_| Err(lost())))
                    .await
                    .unwrap_or_else(|_| Err(lost()))
            }
            TicketRx::Async(rx) => rx.await.unwrap_or_else(|_| Err(lost())),
        }
    }
}

/// A counter of the changes waiting for the writer, bounded by [`MAX_IN_FLIGHT`]. The condition
/// variables are signalled only when a thread waits on them (a signal is a system call even when
/// nobody waits, and every change releases a permit).
#[derive(Default)]
struct Permits {
    count: Mutex<PermitCount>,
    freed: Condvar,
    /// Signalled when the count falls to zero.
    idle: Condvar,
}

#[derive(Default)]
struct PermitCount {
    used: usize,
    /// Threads waiting for room ([`Permits::acquire`]).
    waiting_room: usize,
    /// Threads waiting for the count to fall to zero ([`Permits::wait_idle`]).
    waiting_idle: usize,
}

impl Permits {
    fn acquire(&self) {
        let mut count = self.count.lock().unwrap_or_else(|e| e.into_inner());
        while count.used >= MAX_IN_FLIGHT {
            count.waiting_room += 1;
            count = self.freed.wait(count).unwrap_or_else(|e| e.into_inner());
            count.waiting_room -= 1;
        }
        count.used += 1;
    }

    /// [`Permits::acquire`] if there is room now; false (nothing taken) otherwise.
    fn try_acquire(&self) -> bool {
        let mut count = self.count.lock().unwrap_or_else(|e| e.into_inner());
        let room = count.used < MAX_IN_FLIGHT;
        if room {
            count.used += 1;
        }
        room
    }

    fn release(&self) {
        self.release_many(1);
    }

    /// Gives back `n` permits at once.
    fn release_many(&self, n: usize) {
        let mut count = self.count.lock().unwrap_or_else(|e| e.into_inner());
        count.used = count.used.saturating_sub(n);
        if count.waiting_room > 0 {
            if n == 1 {
                self.freed.notify_one();
            } else {
                self.freed.notify_all();
            }
        }
        if count.used == 0 && count.waiting_idle > 0 {
            self.idle.notify_all();
        }
    }

    fn wait_idle(&self) {
        let mut count = self.count.lock().unwrap_or_else(|e| e.into_inner());
        while count.used > 0 {
            count.waiting_idle += 1;
            count = self.idle.wait(count).unwrap_or_else(|e| e.into_inner());
            count.waiting_idle -= 1;
        }
    }
}

/// A room for one change in the writer's queue, taken before locking the table
/// ([`Writer::reserve`]).
pub struct Permit {
    permits: Arc<Permits>,
    used: bool,
}

impl Drop for Permit {
    fn drop(&mut self) {
        if !self.used {
            self.permits.release();
        }
    }
}

/// The handle to the writer thread (it stops once every handle is dropped and its queue is
/// empty).
pub struct Writer {
    queue: Sender<Job>,
    permits: Arc<Permits>,
}

impl Writer {
    /// Starts the writer thread over the shared store.
    pub fn start(store: Arc<Mutex<Box<dyn TableStore>>>) -> Result<Writer, StoreError> {
        let (tx, rx) = channel();
        let permits = Arc::new(Permits::default());
        let thread_permits = permits.clone();
        std::thread::Builder::new()
            .name("wonders-writer".into())
            .spawn(move || run(&store, &rx, &thread_permits))
            .map_err(|e| StoreError(format!("starting the store writer: {e}")))?;
        Ok(Writer { queue: tx, permits })
    }

    /// Waits for room in the queue (backpressure). Call it before locking the table.
    pub fn reserve(&self) -> Permit {
        self.permits.acquire();
        Permit { permits: self.permits.clone(), used: false }
    }

    /// [`Writer::reserve`] without waiting: `None` when the queue is full (then reserve on a
    /// thread that may block). For async tasks, which must not block their worker thread.
    pub fn try_reserve(&self) -> Option<Permit> {
        self.permits.try_acquire().then(|| Permit { permits: self.permits.clone(), used: false })
    }

    /// Blocks until no change waits for the writer: every change handed to it (or reserved for)
    /// was stored, or failed, and acknowledged.
    pub fn wait_idle(&self) {
        self.permits.wait_idle();
    }

    /// Hands a change queued in its table (under the table's lock, so that the changes of a table
    /// reach the writer in order) to the writer. `asynchronous`: the ticket is awaited in a task.
    #[allow(clippy::too_many_arguments)]
    pub fn submit(
        &self,
        mut permit: Permit,
        cell: Arc<TableCell>,
        table: String,
        plan: Plan,
        epoch: u64,
        finished: Option<i64>,
        turn_id: u64,
        asynchronous: bool,
    ) -> Ticket {
        let (reply, rx) = if asynchronous {
            let (tx, rx) = tokio::sync::oneshot::channel();
            (Reply::Async(tx), TicketRx::Async(rx))
        } else {
            let (tx, rx) = sync_channel(1);
            (Reply::Blocking(tx), TicketRx::Blocking(rx))
        };
        let job = Job { cell, table, plan, epoch, finished, turn_id, reply };
        let sent = self.queue.send(job);
        if let Err(std::sync::mpsc::SendError(job)) = sent {
            // The writer thread is gone: the change is dropped from its table, and reported.
            crate::failures::storage_failed(
                "handing an action to the store writer",
                Some(&job.table),
                "the writer thread stopped",
            );
            job.cell.lock().abandon(job.epoch);
            send(job.reply, Err(lost()));
        } else {
            permit.used = true;
        }
        Ticket { rx }
    }
}

fn send(reply: Reply, result: Stored) {
    match reply {
        Reply::Blocking(tx) => drop(tx.try_send(result)),
        Reply::Async(tx) => drop(tx.send(result)),
    }
}

/// Moves what is queued into the batch, up to [`MAX_BATCH`].
fn drain<T>(rx: &Receiver<T>, batch: &mut Vec<T>) {
    while batch.len() < MAX_BATCH {
        match rx.try_recv() {
            Ok(job) => batch.push(job),
            Err(_) => break,
        }
    }
}

/// The writer's next batch: the first change (waited for), then everything queued behind it; when
/// the writer is busy (its `previous` batch had [`GROUP_BUSY`] changes or more) and the batch is
/// smaller than [`GROUP_FULL`], it `wait`s [`GROUP_WAIT`] and takes what arrived meanwhile too.
/// `None` once every handle is dropped and the queue is empty.
fn next_batch<T>(rx: &Receiver<T>, previous: usize, wait: impl FnOnce(Duration)) -> Option<Vec<T>> {
    let mut batch = vec![rx.recv().ok()?];
    drain(rx, &mut batch);
    if previous >= GROUP_BUSY && batch.len() < GROUP_FULL {
        wait(GROUP_WAIT);
        drain(rx, &mut batch);
    }
    Some(batch)
}

/// The epoch of a table's failed change, and the address of the table's cell.
type Failed = (u64, usize);

/// The writer thread: a batch at a time until every handle is dropped.
fn run(store: &Mutex<Box<dyn TableStore>>, rx: &Receiver<Job>, permits: &Permits) {
    // Tables whose change failed at an epoch: their later changes of that epoch fail unwritten.
    // Keyed by the table's cell too: a table read back from the store after a failure
    // (`Server::reload_after_failure`) is a new cell whose epochs start again.
    let mut failed: HashMap<String, Failed> = HashMap::new();
    let mut previous = 0;
    while let Some(batch) = next_batch(rx, previous, std::thread::sleep) {
        previous = batch.len();
        let results = write(store, &batch, &mut failed);
        // Every change becomes durable in its table, in order, and each table's version is
        // counted; then the changes are acknowledged, then each table's watchers are woken once
        // for the whole batch (one state message for several actions). A connection that sent
        // one of the changes finds its table's version moved and sends the answer and the state
        // in one write (or, when that state asks nothing more of its seat, the answer alone and
        // the state a moment later: `ws::STATE_HOLD`; the page keeps the old state's buttons
        // disabled until the new state comes), and skips the wake-up that follows (its state is
        // already that version's, or held). Acknowledging before waking puts the acting
        // connections ahead of the watchers in the runtime's queue: the acknowledgment waits for
        // no other seat's state (docs/src/contributing/speed-journal.md, server round 7).
        let mut changed: Vec<Arc<TableCell>> = Vec::new();
        let results: Vec<Stored> = batch
            .iter()
            .zip(results)
            .map(|(job, result)| match result {
                Ok(()) => {
                    job.cell.lock().commit(&job.plan, job.epoch);
                    if !changed.iter().any(|c| Arc::ptr_eq(c, &job.cell)) {
                        changed.push(job.cell.clone());
                    }
                    Ok(job.turn_id)
                }
                Err(e) => {
                    job.cell.lock().abandon(job.epoch);
                    Err(e)
                }
            })
            .collect();
        let done = batch.len();
        for cell in &changed {
            cell.mark_changed();
        }
        for (job, result) in batch.into_iter().zip(results) {
            send(job.reply, result);
        }
        for cell in changed {
            cell.wake();
        }
        // The queue's room is given back once the watchers are told ([`Writer::wait_idle`]
        // returns with every change shown).
        permits.release_many(done);
    }
}

/// Stores a batch: one transaction; if it fails, each change alone. One result per change.
fn write(
    store: &Mutex<Box<dyn TableStore>>,
    batch: &[Job],
    failed: &mut HashMap<String, Failed>,
) -> Vec<Result<(), ApiError>> {
    let key = |job: &Job| (job.epoch, Arc::as_ptr(&job.cell) as usize);
    let earlier_failed =
        |failed: &HashMap<String, Failed>, job: &Job| failed.get(&job.table) == Some(&key(job));
    fn entry(job: &Job) -> AppendEntry<'_> {
        AppendEntry {
            table: &job.table,
            first_index: job.plan.first_index,
            actions: &job.plan.stored,
            finished: job.finished,
        }
    }
    let mut store = store.lock().unwrap_or_else(|e| e.into_inner());
    // A table's newer epoch means its failure was dealt with: forget it.
    for job in batch {
        if failed.get(&job.table).is_some_and(|&e| e != key(job)) {
            failed.remove(&job.table);
        }
    }
    if batch.iter().all(|j| !earlier_failed(failed, j)) {
        let entries: Vec<AppendEntry<'_>> = batch.iter().map(entry).collect();
        match store.append_batch(&entries) {
            Ok(()) => return batch.iter().map(|_| Ok(())).collect(),
            // Logged (the reason may be the disk's, not one change's); each is tried alone next.
            Err(e) => crate::failures::storage_failed(
                "storing a batch of actions (each is tried alone next)",
                None,
                &e.0,
            ),
        }
    }
    batch
        .iter()
        .map(|job| {
            if earlier_failed(failed, job) {
                return Err(ApiError::Storage(format!(
                    "table {}: an earlier action of this table could not be stored, so this one \
                     (planned after it) was not stored either",
                    job.table
                )));
            }
            store.append_batch(&[entry(job)]).map_err(|e| {
                crate::failures::storage_failed("storing an action", Some(&job.table), &e.0);
                failed.insert(job.table.clone(), key(job));
                ApiError::Storage(format!("table {}: the action could not be stored: {}", job.table, e.0))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queued(items: std::ops::Range<usize>) -> (Sender<usize>, Receiver<usize>) {
        let (tx, rx) = channel();
        for i in items {
            tx.send(i).unwrap();
        }
        (tx, rx)
    }

    #[test]
    fn a_quiet_writer_commits_at_once() {
        // The previous batch was a lone change (or there was none): no wait.
        for previous in [0, 1, GROUP_BUSY - 1] {
            let (_tx, rx) = queued(0..3);
            let batch = next_batch(&rx, previous, |_| panic!("a quiet writer does not wait")).unwrap();
            assert_eq!(batch, [0, 1, 2]);
        }
    }

    #[test]
    fn a_busy_writer_waits_for_more_on_a_small_batch() {
        let (tx, rx) = queued(0..2);
        let mut waited = None;
        let batch = next_batch(&rx, GROUP_BUSY, |d| {
            waited = Some(d);
            // Changes that arrive during the wait join the batch.
            tx.send(2).unwrap();
            tx.send(3).unwrap();
        })
        .unwrap();
        assert_eq!(waited, Some(GROUP_WAIT));
        assert_eq!(batch, [0, 1, 2, 3]);
        // Nothing arrived meanwhile: the batch is what was queued.
        let (_tx, rx) = queued(7..8);
        assert_eq!(next_batch(&rx, 40, |_| {}).unwrap(), [7]);
    }

    #[test]
    fn a_full_batch_is_committed_without_waiting_and_batches_are_capped() {
        let (_tx, rx) = queued(0..GROUP_FULL);
        let batch = next_batch(&rx, 1000, |_| panic!("a full batch does not wait")).unwrap();
        assert_eq!(batch, (0..GROUP_FULL).collect::<Vec<_>>());
        let (tx, rx) = queued(0..MAX_BATCH + 10);
        let first = next_batch(&rx, 0, |_| panic!("no wait")).unwrap();
        assert_eq!((first.len(), first[0], first[MAX_BATCH - 1]), (MAX_BATCH, 0, MAX_BATCH - 1));
        // 10 left, the writer busy: it waits for more.
        let mut waits = 0;
        let rest = next_batch(&rx, first.len(), |_| waits += 1).unwrap();
        assert_eq!((rest, waits), ((MAX_BATCH..MAX_BATCH + 10).collect::<Vec<_>>(), 1));
        drop(tx);
        assert!(next_batch(&rx, 10, |_| {}).is_none(), "every handle dropped, the queue empty");
    }
}
