//! The server's metrics, served at `GET /metrics` in the Prometheus text format (version 0.0.4).
//!
//! | metric | type | what |
//! |---|---|---|
//! | `wonders_tables{status}` | gauge | tables in memory by status: `waiting`, `playing`, `over`, `broken` |
//! | `wonders_games_in_progress` | gauge | tables whose game is being played |
//! | `wonders_actions_total` | counter | players' actions accepted (HTTP and WebSocket); its rate is actions per second |
//! | `wonders_ack_seconds` | histogram | time from an action's arrival to its acknowledgment (stored, applied) |
//! | `wonders_websockets` | gauge | WebSocket connections open |
//! | `wonders_connections` | gauge | TCP connections open (HTTP and WebSocket) |
//! | `wonders_connections_refused_total` | counter | connections refused by a connection cap |
//! | `wonders_rate_limited_total` | counter | requests refused by a per-IP rate limit or the open-table cap |
//! | `wonders_http_responses_total{class}` | counter | HTTP answers by status class (`2xx` … `5xx`) |

use std::fmt::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Upper bounds of the acknowledgment-time buckets, in seconds.
const ACK_BUCKETS: [f64; 12] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5];

/// The counters; shared by every connection.
#[derive(Debug, Default)]
pub struct Metrics {
    actions: AtomicU64,
    ack_buckets: [AtomicU64; ACK_BUCKETS.len()],
    ack_count: AtomicU64,
    ack_micros: AtomicU64,
    websockets: AtomicU64,
    refused: AtomicU64,
    rate_limited: AtomicU64,
    responses: [AtomicU64; 5],
}

/// Table counts at the time of a scrape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableCounts {
    /// Waiting for people to take seats.
    pub waiting: usize,
    /// Being played.
    pub playing: usize,
    /// Over.
    pub over: usize,
    /// Broken.
    pub broken: usize,
}

/// An open WebSocket, counted until dropped.
#[derive(Debug)]
pub struct WsGuard(Arc<Metrics>);

impl Drop for WsGuard {
    fn drop(&mut self) {
        self.0.websockets.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Metrics {
    /// An accepted action, acknowledged `ack` after it arrived.
    pub fn action(&self, ack: Duration) {
        self.actions.fetch_add(1, Ordering::Relaxed);
        let secs = ack.as_secs_f64();
        for (bound, count) in ACK_BUCKETS.iter().zip(&self.ack_buckets) {
            if secs <= *bound {
                count.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.ack_count.fetch_add(1, Ordering::Relaxed);
        self.ack_micros.fetch_add(ack.as_micros() as u64, Ordering::Relaxed);
    }

    /// Counts a WebSocket until the guard is dropped.
    pub fn websocket(self: &Arc<Self>) -> WsGuard {
        self.websockets.fetch_add(1, Ordering::Relaxed);
        WsGuard(self.clone())
    }

    /// A connection refused by a cap.
    pub fn refused(&self) {
        self.refused.fetch_add(1, Ordering::Relaxed);
    }

    /// A request refused by a rate limit.
    pub fn rate_limited(&self) {
        self.rate_limited.fetch_add(1, Ordering::Relaxed);
    }

    /// An HTTP answer with this status.
    pub fn response(&self, status: u16) {
        if let Some(c) = self.responses.get(usize::from(status / 100).wrapping_sub(1)) {
            c.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The text exposition of every metric.
    pub fn render(&self, tables: TableCounts, connections: usize) -> String {
        let mut out = String::with_capacity(2048);
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let _ =
            writeln!(out, "# HELP wonders_tables Tables in memory by status.\n# TYPE wonders_tables gauge");
        for (status, n) in [
            ("waiting", tables.waiting),
            ("playing", tables.playing),
            ("over", tables.over),
            ("broken", tables.broken),
        ] {
            let _ = writeln!(out, "wonders_tables{{status=\"{status}\"}} {n}");
        }
        let _ = writeln!(
            out,
            "# HELP wonders_games_in_progress Games being played.\n# TYPE wonders_games_in_progress gauge\n\
             wonders_games_in_progress {}",
            tables.playing
        );
        let _ = writeln!(
            out,
            "# HELP wonders_actions_total Players' actions accepted.\n# TYPE wonders_actions_total counter\n\
             wonders_actions_total {}",
            get(&self.actions)
        );
        let _ = writeln!(
            out,
            "# HELP wonders_ack_seconds Time from an action's arrival to its acknowledgment.\n\
             # TYPE wonders_ack_seconds histogram"
        );
        for (bound, count) in ACK_BUCKETS.iter().zip(&self.ack_buckets) {
            let _ = writeln!(out, "wonders_ack_seconds_bucket{{le=\"{bound}\"}} {}", get(count));
        }
        let count = get(&self.ack_count);
        let _ = writeln!(out, "wonders_ack_seconds_bucket{{le=\"+Inf\"}} {count}");
        let _ = writeln!(out, "wonders_ack_seconds_sum {}", get(&self.ack_micros) as f64 / 1e6);
        let _ = writeln!(out, "wonders_ack_seconds_count {count}");
        let _ = writeln!(
            out,
            "# HELP wonders_websockets WebSocket connections open.\n# TYPE wonders_websockets gauge\n\
             wonders_websockets {}",
            get(&self.websockets)
        );
        let _ = writeln!(
            out,
            "# HELP wonders_connections TCP connections open.\n# TYPE wonders_connections gauge\n\
             wonders_connections {connections}"
        );
        let _ = writeln!(
            out,
            "# HELP wonders_connections_refused_total Connections refused by a connection cap.\n\
             # TYPE wonders_connections_refused_total counter\nwonders_connections_refused_total {}",
            get(&self.refused)
        );
        let _ = writeln!(
            out,
            "# HELP wonders_rate_limited_total Requests refused by a rate limit or the open-table cap.\n\
             # TYPE wonders_rate_limited_total counter\nwonders_rate_limited_total {}",
            get(&self.rate_limited)
        );
        let _ = writeln!(
            out,
            "# HELP wonders_http_responses_total HTTP answers by status class.\n\
             # TYPE wonders_http_responses_total counter"
        );
        for (i, c) in self.responses.iter().enumerate() {
            let _ = writeln!(out, "wonders_http_responses_total{{class=\"{}xx\"}} {}", i + 1, get(c));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_histogram_is_cumulative_and_the_gauges_follow_their_guards() {
        let m = Arc::new(Metrics::default());
        m.action(Duration::from_micros(700));
        m.action(Duration::from_millis(30));
        m.action(Duration::from_secs(5));
        let ws = m.websocket();
        m.response(201);
        m.response(429);
        let text = m.render(TableCounts { waiting: 2, playing: 1, over: 4, broken: 0 }, 3);
        for line in [
            "wonders_tables{status=\"waiting\"} 2",
            "wonders_games_in_progress 1",
            "wonders_actions_total 3",
            "wonders_ack_seconds_bucket{le=\"0.0005\"} 0",
            "wonders_ack_seconds_bucket{le=\"0.001\"} 1",
            "wonders_ack_seconds_bucket{le=\"0.025\"} 1",
            "wonders_ack_seconds_bucket{le=\"0.05\"} 2",
            "wonders_ack_seconds_bucket{le=\"2.5\"} 2",
            "wonders_ack_seconds_bucket{le=\"+Inf\"} 3",
            "wonders_ack_seconds_sum 5.0307",
            "wonders_ack_seconds_count 3",
            "wonders_websockets 1",
            "wonders_connections 3",
            "wonders_http_responses_total{class=\"2xx\"} 1",
            "wonders_http_responses_total{class=\"4xx\"} 1",
        ] {
            assert!(text.lines().any(|l| l == line), "missing `{line}` in\n{text}");
        }
        drop(ws);
        assert!(m.render(TableCounts::default(), 0).contains("wonders_websockets 0\n"));
    }
}
