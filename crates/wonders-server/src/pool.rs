//! The bots' thinking pool: a fixed number of threads on which every bot of every table thinks,
//! shared fairly between the tables.
//!
//! Bots think outside the table's lock, but thinking is CPU work: a `search:2s` bot burns a
//! core for two seconds a move. Were every bot given a thread of its own, a visitor could create
//! a few all-bot tables of slow searches and take every core of the machine from the people
//! playing (an attack run made 63 threads this way and raised another table's action latency
//! from 0.8 ms to 53 ms). So:
//!
//! - a bot's move is a task on this pool, which has a fixed number of threads (by default one
//!   less than the machine's cores, at least one: a core stays free for the requests);
//! - tasks are taken round-robin over the tables that have some waiting: a table with seven bots
//!   to move gets one task run, then the next table gets one, so a busy table never makes another
//!   wait for all of its moves;
//! - people's actions never go through the pool: they are checked, stored and answered on the
//!   request's own task, whatever the bots are doing.
//!
//! The table's driver ([`crate::server::Server`]) hands a step's bot jobs over and waits for their
//! moves ([`BotPool::think`]); a bot that panics loses its move (the driver then asks again).

use crate::table::{BotJob, BotMove};
use std::collections::VecDeque;
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

type Task = Box<dyn FnOnce() + Send>;

/// The tasks waiting, by table, in the order the tables get their next turn.
#[derive(Default)]
struct Queue {
    tables: VecDeque<(String, VecDeque<Task>)>,
    closed: bool,
}

struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
}

/// A fixed set of threads on which bots think, round-robin over the tables (see the module
/// docs). Dropping it stops its threads once the tasks already taken are done.
pub struct BotPool {
    shared: Arc<Shared>,
    threads: usize,
}

/// The default number of bot threads: one less than the machine's cores, at least one.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1))
}

impl BotPool {
    /// A pool of `threads` threads (at least one).
    pub fn new(threads: usize) -> BotPool {
        let threads = threads.max(1);
        let shared = Arc::new(Shared { queue: Mutex::new(Queue::default()), ready: Condvar::new() });
        for i in 0..threads {
            let shared = shared.clone();
            let spawned =
                std::thread::Builder::new().name(format!("wonders-bot-{i}")).spawn(move || work(&shared));
            if let Err(e) = spawned {
                tracing::error!("cannot start a bot thread: {e}");
            }
        }
        BotPool { shared, threads }
    }

    /// The number of threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The number of tables with bot moves waiting for a thread.
    pub fn tables_waiting(&self) -> usize {
        self.shared.queue.lock().unwrap_or_else(PoisonError::into_inner).tables.len()
    }

    /// Runs `task` for `table` on the pool, after the tasks already waiting for that table and
    /// in its turn among the tables.
    fn push(&self, table: &str, task: Task) {
        let mut q = self.shared.queue.lock().unwrap_or_else(PoisonError::into_inner);
        if q.closed {
            return;
        }
        match q.tables.iter_mut().find(|(t, _)| t == table) {
            Some((_, tasks)) => tasks.push_back(task),
            None => q.tables.push_back((table.to_string(), VecDeque::from([task]))),
        }
        drop(q);
        self.shared.ready.notify_one();
    }

    /// Lets the bots of `jobs` (one table's, `table`) think on the pool and waits for their
    /// moves, in the jobs' order; a bot that panicked has no move.
    pub fn think(&self, table: &str, jobs: Vec<BotJob>) -> Vec<BotMove> {
        let mut answers = Vec::with_capacity(jobs.len());
        for job in jobs {
            let (tx, rx) = mpsc::sync_channel(1);
            self.push(
                table,
                Box::new(move || {
                    let _ = tx.send(job.think());
                }),
            );
            answers.push(rx);
        }
        answers.into_iter().filter_map(|rx| rx.recv().ok()).collect()
    }
}

impl BotPool {
    /// Stops the pool: the tasks still waiting are dropped (whoever waits for their moves gets
    /// none), the tasks running finish, then the threads end. Later tasks are dropped at once.
    pub fn stop(&self) {
        let mut q = self.shared.queue.lock().unwrap_or_else(PoisonError::into_inner);
        q.closed = true;
        q.tables.clear();
        drop(q);
        self.shared.ready.notify_all();
    }
}

impl Drop for BotPool {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A pool thread: takes the next table's next task, puts the table back at the end of the line
/// if it has more, runs the task (a panic is caught: the thread goes on).
fn work(shared: &Shared) {
    loop {
        let task = {
            let mut q = shared.queue.lock().unwrap_or_else(PoisonError::into_inner);
            loop {
                if let Some((table, mut tasks)) = q.tables.pop_front() {
                    let task = tasks.pop_front();
                    if !tasks.is_empty() {
                        q.tables.push_back((table, tasks));
                    }
                    if let Some(task) = task {
                        break task;
                    }
                    continue;
                }
                if q.closed {
                    return;
                }
                q = shared.ready.wait(q).unwrap_or_else(PoisonError::into_inner);
            }
        };
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(task));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Tasks of two tables, queued while the one thread is busy: they run alternately, one of
    /// each table in turn, however many the first table queued first.
    #[test]
    fn tables_take_turns() {
        let pool = BotPool::new(1);
        let order = Arc::new(Mutex::new(Vec::new()));
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let (started_tx, started_rx) = mpsc::channel::<()>();
        // Hold the only thread until every task is queued.
        pool.push(
            "busy",
            Box::new(move || {
                let _ = started_tx.send(());
                let _ = gate_rx.recv();
            }),
        );
        started_rx.recv_timeout(Duration::from_secs(10)).unwrap();
        let (done_tx, done_rx) = mpsc::channel();
        for (table, n) in [("a", 4), ("b", 2)] {
            for i in 0..n {
                let (order, done) = (order.clone(), done_tx.clone());
                pool.push(
                    table,
                    Box::new(move || {
                        order.lock().unwrap().push(format!("{table}{i}"));
                        done.send(()).unwrap();
                    }),
                );
            }
        }
        assert_eq!(pool.tables_waiting(), 2);
        gate_tx.send(()).unwrap();
        for _ in 0..6 {
            done_rx.recv_timeout(Duration::from_secs(10)).unwrap();
        }
        assert_eq!(*order.lock().unwrap(), ["a0", "b0", "a1", "b1", "a2", "a3"]);
    }

    /// A task that panics does not take its thread with it.
    #[test]
    fn a_panicking_task_leaves_the_thread_working() {
        let pool = BotPool::new(1);
        pool.push("t", Box::new(|| panic!("a bot failed")));
        let (tx, rx) = mpsc::channel();
        pool.push("t", Box::new(move || tx.send(7).unwrap()));
        assert_eq!(rx.recv_timeout(Duration::from_secs(10)).unwrap(), 7);
    }

    /// Stopping drops the waiting tasks: whoever waits for them is answered at once.
    #[test]
    fn a_stopped_pool_answers_no_moves_at_once() {
        let pool = BotPool::new(1);
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let (started_tx, started_rx) = mpsc::channel::<()>();
        pool.push(
            "busy",
            Box::new(move || {
                let _ = started_tx.send(());
                let _ = gate_rx.recv();
            }),
        );
        started_rx.recv_timeout(Duration::from_secs(10)).unwrap();
        let (tx, rx) = mpsc::channel::<u8>();
        pool.push("t", Box::new(move || tx.send(1).unwrap()));
        pool.stop();
        assert!(rx.recv_timeout(Duration::from_secs(10)).is_err(), "the waiting task was dropped");
        let (tx2, rx2) = mpsc::channel::<u8>();
        pool.push("t", Box::new(move || tx2.send(2).unwrap()));
        assert!(rx2.recv_timeout(Duration::from_secs(10)).is_err(), "a later task is dropped too");
        gate_tx.send(()).unwrap();
    }

    #[test]
    fn at_least_one_thread() {
        assert_eq!(BotPool::new(0).threads(), 1);
        assert!(default_threads() >= 1);
    }
}
