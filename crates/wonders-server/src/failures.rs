//! Storage failures in the log: every one is logged at `error` level with SQLite's reason (a full
//! disk, a read-only file, a damaged database), without flooding the log when the same failure
//! repeats.
//!
//! The first failure of a kind (what failed and why, [`storage_failed`]) is logged at once;
//! identical ones in the next [`REPEAT_INTERVAL`] are counted, not logged; then the next one, or
//! the server's background thread ([`flush`], every tick), logs how many there were. A full disk
//! that fails every action thus writes a line or two every ten seconds, each with the count.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

/// How long identical failures are counted without a line of their own.
pub const REPEAT_INTERVAL: Duration = Duration::from_secs(10);

/// Kinds of failures followed at once, at most; failures of further kinds are counted together.
const MAX_KINDS: usize = 1024;

/// A kind of failure being counted.
#[derive(Debug)]
struct Seen {
    /// When its last line was logged.
    logged: Instant,
    /// Identical failures since then, not logged.
    quiet: u64,
}

/// Decides which failures are logged: the first of each kind, then a count every `interval`.
#[derive(Debug)]
pub struct Throttle {
    interval: Duration,
    seen: Mutex<HashMap<(String, String), Seen>>,
    /// Failures of kinds beyond [`MAX_KINDS`], not logged yet.
    overflow: Mutex<u64>,
}

impl Throttle {
    /// A throttle that logs a kind of failure at most once per `interval` (with the count of the
    /// others).
    pub fn new(interval: Duration) -> Throttle {
        Throttle { interval, seen: Mutex::default(), overflow: Mutex::new(0) }
    }

    /// Notes a failure of `what` for `reason` at `now`: `Some(n)` when it is to be logged now,
    /// `n` being the identical failures kept quiet since the last line (0 for the first);
    /// `None` when it is only counted.
    pub fn note(&self, what: &str, reason: &str, now: Instant) -> Option<u64> {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let key = (what.to_string(), reason.to_string());
        if let Some(s) = seen.get_mut(&key) {
            if now.saturating_duration_since(s.logged) < self.interval {
                s.quiet += 1;
                return None;
            }
            let quiet = s.quiet;
            *s = Seen { logged: now, quiet: 0 };
            return Some(quiet);
        }
        if seen.len() >= MAX_KINDS {
            // Forget the kinds with nothing left to report.
            let interval = self.interval;
            seen.retain(|_, s| s.quiet > 0 || now.saturating_duration_since(s.logged) < interval);
            if seen.len() >= MAX_KINDS {
                *self.overflow.lock().unwrap_or_else(|e| e.into_inner()) += 1;
                return None;
            }
        }
        seen.insert(key, Seen { logged: now, quiet: 0 });
        Some(0)
    }

    /// The failures counted but not logged whose last line is at least `interval` old, as
    /// `(what, reason, count)` (counted as logged at `now`), and the count of failures of kinds
    /// beyond the most followed.
    pub fn due(&self, now: Instant) -> (Vec<(String, String, u64)>, u64) {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let mut due = Vec::new();
        for ((what, reason), s) in seen.iter_mut() {
            if s.quiet > 0 && now.saturating_duration_since(s.logged) >= self.interval {
                due.push((what.clone(), reason.clone(), s.quiet));
                *s = Seen { logged: now, quiet: 0 };
            }
        }
        drop(seen);
        let overflow = std::mem::take(&mut *self.overflow.lock().unwrap_or_else(|e| e.into_inner()));
        (due, overflow)
    }
}

/// The process's throttle of storage failures.
static STORAGE: LazyLock<Throttle> = LazyLock::new(|| Throttle::new(REPEAT_INTERVAL));

/// Logs a storage failure: `what` failed (`"storing an action"`), for `table` if one, because
/// of `reason` (SQLite's message). Identical failures (the same `what` and `reason`, any table)
/// are rate-limited as the module says.
pub fn storage_failed(what: &str, table: Option<&str>, reason: &str) {
    let Some(quiet) = STORAGE.note(what, reason, Instant::now()) else {
        return;
    };
    let message = if quiet == 0 {
        format!("storage failure: {what} failed: {reason}")
    } else {
        format!(
            "storage failure: {what} failed: {reason} (and {quiet} more times like it in the last {} s, \
             not logged one by one)",
            REPEAT_INTERVAL.as_secs()
        )
    };
    match table {
        Some(table) => tracing::error!(table, repeated = quiet, "{message}"),
        None => tracing::error!(repeated = quiet, "{message}"),
    }
}

/// Logs the counts of storage failures kept quiet for [`REPEAT_INTERVAL`] (called by the
/// server's background thread every tick).
pub fn flush() {
    let (due, overflow) = STORAGE.due(Instant::now());
    for (what, reason, count) in due {
        tracing::error!(
            repeated = count,
            "storage failure: {what} failed {count} more times in the last {} s or more: {reason}",
            REPEAT_INTERVAL.as_secs()
        );
    }
    if overflow > 0 {
        tracing::error!(
            repeated = overflow,
            "storage failure: {overflow} more failures of other kinds, not logged"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_failure_of_a_kind_is_logged_then_a_count_every_interval() {
        let throttle = Throttle::new(Duration::from_secs(10));
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        assert_eq!(throttle.note("storing an action", "database or disk is full", t0), Some(0));
        // 13,000 more within the interval: counted, not logged.
        for _ in 0..13_000 {
            assert_eq!(throttle.note("storing an action", "database or disk is full", at(3)), None);
        }
        // Another reason, or another operation, is another kind: logged at once.
        assert_eq!(throttle.note("storing an action", "disk I/O error", at(3)), Some(0));
        assert_eq!(throttle.note("deleting a waiting table", "database or disk is full", at(3)), Some(0));
        // Nothing is due before the interval is over.
        assert_eq!(throttle.due(at(9)), (vec![], 0));
        // The background thread's flush logs the count.
        let (due, overflow) = throttle.due(at(10));
        assert_eq!(
            (due, overflow),
            (vec![("storing an action".into(), "database or disk is full".into(), 13_000)], 0)
        );
        assert_eq!(throttle.due(at(30)), (vec![], 0), "counted once");
        // The next failure after the interval is logged with the count since the last line.
        assert_eq!(throttle.note("storing an action", "database or disk is full", at(12)), None);
        assert_eq!(throttle.note("storing an action", "database or disk is full", at(21)), Some(1));
    }

    #[test]
    fn kinds_beyond_the_most_followed_are_counted_together() {
        let throttle = Throttle::new(Duration::from_secs(10));
        let t0 = Instant::now();
        for i in 0..MAX_KINDS {
            assert_eq!(throttle.note("reading a table", &format!("table {i} is damaged"), t0), Some(0));
        }
        assert_eq!(throttle.note("reading a table", "one more", t0), None);
        assert_eq!(throttle.due(t0).1, 1);
        // Once the followed kinds are old, they make room.
        let later = t0 + Duration::from_secs(11);
        assert_eq!(throttle.note("reading a table", "one more", later), Some(0));
    }
}
