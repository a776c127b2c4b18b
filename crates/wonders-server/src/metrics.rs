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
//!
//! They are kept by the [`metrics`] crate's handles in a recorder of
//! [`metrics_exporter_prometheus`], which writes the text; each server has its own recorder (not
//! the process's global one), so that several servers in one process (the tests) keep their own
//! counts. The table counts and the open connections are read at each scrape and set as gauges
//! before the text is written.
//!
//! The store's series come from [`crate::Server::store_metrics`] at each scrape too:
//!
//! | metric | type | what |
//! |---|---|---|
//! | `wonders_store_info{kind,node}` | gauge | 1; `kind` is `sqlite` or `postgresql`, `node` this server's name among those sharing the store |
//! | `wonders_tables_owned` | gauge | unfinished tables this server owns and serves (a shared store only, as the rest) |
//! | `wonders_tables_elsewhere` | gauge | unfinished tables the other servers own |
//! | `wonders_takeovers_total` | counter | tables this server took over |
//! | `wonders_tables_moved_away_total` | counter | tables another server took from this one |
//! | `wonders_lease_ok` | gauge | 1 when the last heartbeat renewed this server's lease |
//! | `wonders_heartbeat_age_seconds` | gauge | seconds since the last heartbeat began (-1 before the first) |

use crate::server::StoreMetrics;
use metrics::{Counter, Gauge, Histogram, Key, KeyName, Label, Level, Metadata, Recorder, SharedString};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle, PrometheusRecorder};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// Upper bounds of the acknowledgment-time buckets, in seconds.
const ACK_BUCKETS: [f64; 12] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5];

/// The status classes of `wonders_http_responses_total`, from 1xx to 5xx.
const CLASSES: [&str; 5] = ["1xx", "2xx", "3xx", "4xx", "5xx"];

/// The statuses of `wonders_tables`, in the order of [`TableCounts`]' fields.
const STATUSES: [&str; 4] = ["waiting", "playing", "over", "broken"];

/// The metrics of one server; shared by every connection.
pub struct Metrics {
    recorder: PrometheusRecorder,
    handle: PrometheusHandle,
    store: OnceLock<StoreSeries>,
    actions: Counter,
    ack: Histogram,
    websockets: Gauge,
    refused: Counter,
    rate_limited: Counter,
    responses: [Counter; 5],
    tables: [Gauge; 4],
    games: Gauge,
    connections: Gauge,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
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
        self.0.websockets.decrement(1.0);
    }
}

/// Registers the metrics of a recorder, each with its description (`# HELP`).
struct Register<'a> {
    recorder: &'a PrometheusRecorder,
}

const METADATA: Metadata<'static> = Metadata::new(module_path!(), Level::INFO, Some(module_path!()));

impl Register<'_> {
    fn key(name: &'static str, labels: &[(&'static str, &str)]) -> Key {
        Key::from_parts(name, labels.iter().map(|&(k, v)| Label::new(k, v.to_string())).collect::<Vec<_>>())
    }

    fn counter(&self, name: &'static str, labels: &[(&'static str, &str)], help: &'static str) -> Counter {
        self.recorder.describe_counter(KeyName::from(name), None, SharedString::from(help));
        self.recorder.register_counter(&Self::key(name, labels), &METADATA)
    }

    fn gauge(&self, name: &'static str, labels: &[(&'static str, &str)], help: &'static str) -> Gauge {
        self.recorder.describe_gauge(KeyName::from(name), None, SharedString::from(help));
        self.recorder.register_gauge(&Self::key(name, labels), &METADATA)
    }
}

/// The store's series, registered at the first scrape (the node's name is a label).
struct StoreSeries {
    shared: Option<SharedSeries>,
}

/// The series of a store several servers share.
struct SharedSeries {
    owned: Gauge,
    elsewhere: Gauge,
    takeovers: Counter,
    moved_away: Counter,
    lease_ok: Gauge,
    heartbeat_age: Gauge,
}

impl StoreSeries {
    fn register(r: &Register<'_>, store: &StoreMetrics) -> StoreSeries {
        let info = r.gauge(
            "wonders_store_info",
            &[("kind", store.kind), ("node", &store.node)],
            "The store this server writes to, and its name among the servers sharing it.",
        );
        info.set(1.0);
        let shared = store.shared.map(|_| SharedSeries {
            owned: r.gauge("wonders_tables_owned", &[], "Unfinished tables this server owns and serves."),
            elsewhere: r.gauge(
                "wonders_tables_elsewhere",
                &[],
                "Unfinished tables other servers sharing the store own.",
            ),
            takeovers: r.counter(
                "wonders_takeovers_total",
                &[],
                "Tables this server took over (a request reached it, or their server stopped or died).",
            ),
            moved_away: r.counter(
                "wonders_tables_moved_away_total",
                &[],
                "Tables another server took from this one.",
            ),
            lease_ok: r.gauge(
                "wonders_lease_ok",
                &[],
                "Whether the last heartbeat renewed this server's lease (0: the store is unreachable).",
            ),
            heartbeat_age: r.gauge(
                "wonders_heartbeat_age_seconds",
                &[],
                "Seconds since the last heartbeat began.",
            ),
        });
        StoreSeries { shared }
    }
}

impl Default for Metrics {
    fn default() -> Self {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Full("wonders_ack_seconds".into()), &ACK_BUCKETS)
            .expect("the buckets are not empty")
            .build_recorder();
        let r = Register { recorder: &recorder };
        recorder.describe_histogram(
            KeyName::from("wonders_ack_seconds"),
            None,
            SharedString::from("Time from an action's arrival to its acknowledgment."),
        );
        let ack = recorder.register_histogram(&Key::from_name("wonders_ack_seconds"), &METADATA);
        Metrics {
            tables: STATUSES
                .map(|s| r.gauge("wonders_tables", &[("status", s)], "Tables in memory by status.")),
            games: r.gauge("wonders_games_in_progress", &[], "Games being played."),
            actions: r.counter("wonders_actions_total", &[], "Players' actions accepted."),
            ack,
            websockets: r.gauge("wonders_websockets", &[], "WebSocket connections open."),
            connections: r.gauge("wonders_connections", &[], "TCP connections open."),
            refused: r.counter(
                "wonders_connections_refused_total",
                &[],
                "Connections refused by a connection cap.",
            ),
            rate_limited: r.counter(
                "wonders_rate_limited_total",
                &[],
                "Requests refused by a rate limit or the open-table cap.",
            ),
            responses: CLASSES.map(|c| {
                r.counter("wonders_http_responses_total", &[("class", c)], "HTTP answers by status class.")
            }),
            handle: recorder.handle(),
            store: OnceLock::new(),
            recorder,
        }
    }
}

impl Metrics {
    /// An accepted action, acknowledged `ack` after it arrived.
    pub fn action(&self, ack: Duration) {
        self.actions.increment(1);
        self.ack.record(ack.as_secs_f64());
    }

    /// Counts a WebSocket until the guard is dropped.
    pub fn websocket(self: &Arc<Self>) -> WsGuard {
        self.websockets.increment(1.0);
        WsGuard(self.clone())
    }

    /// A connection refused by a cap.
    pub fn refused(&self) {
        self.refused.increment(1);
    }

    /// A request refused by a rate limit.
    pub fn rate_limited(&self) {
        self.rate_limited.increment(1);
    }

    /// An HTTP answer with this status.
    pub fn response(&self, status: u16) {
        if let Some(c) = self.responses.get(usize::from(status / 100).wrapping_sub(1)) {
            c.increment(1);
        }
    }

    /// Folds the acknowledgment times recorded since the last call (or scrape) into the
    /// histogram's buckets: the recorder keeps each time until then, so the server calls this
    /// every few seconds ([`crate::net::serve_with`]) to bound that memory between scrapes.
    pub fn upkeep(&self) {
        self.handle.run_upkeep();
    }

    /// The text exposition of every metric, with the table counts, open connections and store
    /// of now.
    pub fn render(&self, tables: TableCounts, connections: usize, store: &StoreMetrics) -> String {
        let counts = [tables.waiting, tables.playing, tables.over, tables.broken];
        for (gauge, n) in self.tables.iter().zip(counts) {
            gauge.set(n as f64);
        }
        self.games.set(tables.playing as f64);
        self.connections.set(connections as f64);
        let series =
            self.store.get_or_init(|| StoreSeries::register(&Register { recorder: &self.recorder }, store));
        if let (Some(series), Some(now)) = (&series.shared, &store.shared) {
            series.owned.set(now.owned as f64);
            series.elsewhere.set(now.elsewhere as f64);
            series.takeovers.absolute(now.takeovers);
            series.moved_away.absolute(now.moved_away);
            series.lease_ok.set(f64::from(u8::from(now.lease_ok)));
            // In milliseconds' precision, as a person reads it.
            let age = now.heartbeat_age.map_or(-1.0, |t| (t.as_secs_f64() * 1e3).round() / 1e3);
            series.heartbeat_age.set(age);
        }
        self.handle.render()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of the metric line `name{labels} value` in `text`.
    fn value(text: &str, name: &str) -> f64 {
        text.lines()
            .find_map(|l| l.strip_prefix(name).and_then(|rest| rest.strip_prefix(' ')))
            .unwrap_or_else(|| panic!("no `{name}` in\n{text}"))
            .parse()
            .unwrap()
    }

    #[test]
    fn the_histogram_is_cumulative_and_the_gauges_follow_their_guards() {
        let m = Arc::new(Metrics::default());
        m.action(Duration::from_micros(700));
        m.action(Duration::from_millis(30));
        m.upkeep();
        m.action(Duration::from_secs(5));
        let ws = m.websocket();
        m.response(201);
        m.response(429);
        m.rate_limited();
        let text = m.render(TableCounts { waiting: 2, playing: 1, over: 4, broken: 0 }, 3, &own_store());
        for (line, n) in [
            ("wonders_tables{status=\"waiting\"}", 2.0),
            ("wonders_tables{status=\"over\"}", 4.0),
            ("wonders_tables{status=\"broken\"}", 0.0),
            ("wonders_games_in_progress", 1.0),
            ("wonders_actions_total", 3.0),
            ("wonders_ack_seconds_bucket{le=\"0.0005\"}", 0.0),
            ("wonders_ack_seconds_bucket{le=\"0.001\"}", 1.0),
            ("wonders_ack_seconds_bucket{le=\"0.025\"}", 1.0),
            ("wonders_ack_seconds_bucket{le=\"0.05\"}", 2.0),
            ("wonders_ack_seconds_bucket{le=\"1\"}", 2.0),
            ("wonders_ack_seconds_bucket{le=\"2.5\"}", 2.0),
            ("wonders_ack_seconds_bucket{le=\"+Inf\"}", 3.0),
            ("wonders_ack_seconds_count", 3.0),
            ("wonders_websockets", 1.0),
            ("wonders_connections", 3.0),
            ("wonders_connections_refused_total", 0.0),
            ("wonders_rate_limited_total", 1.0),
            ("wonders_http_responses_total{class=\"2xx\"}", 1.0),
            ("wonders_http_responses_total{class=\"4xx\"}", 1.0),
            ("wonders_http_responses_total{class=\"5xx\"}", 0.0),
        ] {
            assert_eq!(value(&text, line), n, "`{line}` in\n{text}");
        }
        // 0.0007 + 0.03 + 5 seconds.
        assert!((value(&text, "wonders_ack_seconds_sum") - 5.0307).abs() < 1e-9, "{text}");
        for line in [
            "# TYPE wonders_ack_seconds histogram",
            "# TYPE wonders_actions_total counter",
            "# TYPE wonders_tables gauge",
            "# HELP wonders_tables Tables in memory by status.",
        ] {
            assert!(text.lines().any(|l| l == line), "missing `{line}` in\n{text}");
        }
        drop(ws);
        let text = m.render(TableCounts::default(), 0, &own_store());
        assert_eq!(value(&text, "wonders_websockets"), 0.0);
        // Counts survive scrapes: the histogram is cumulative.
        assert_eq!(value(&text, "wonders_ack_seconds_count"), 3.0);
        assert_eq!(value(&text, "wonders_tables{status=\"waiting\"}"), 0.0);
    }

    #[test]
    fn each_server_counts_its_own() {
        let (a, b) = (Metrics::default(), Metrics::default());
        a.action(Duration::from_millis(1));
        assert_eq!(value(&a.render(TableCounts::default(), 0, &own_store()), "wonders_actions_total"), 1.0);
        assert_eq!(value(&b.render(TableCounts::default(), 0, &own_store()), "wonders_actions_total"), 0.0);
    }

    /// An SQLite store of the server's own.
    fn own_store() -> StoreMetrics {
        StoreMetrics { kind: "sqlite", node: String::new(), shared: None }
    }

    #[test]
    fn a_stores_series_follow_its_state_and_a_store_of_its_own_has_only_its_kind() {
        let m = Metrics::default();
        let text = m.render(TableCounts::default(), 0, &own_store());
        assert_eq!(value(&text, "wonders_store_info{kind=\"sqlite\",node=\"\"}"), 1.0);
        assert!(!text.contains("wonders_lease_ok") && !text.contains("wonders_tables_owned"), "{text}");

        let m = Metrics::default();
        let mut shared = crate::server::SharedStoreMetrics {
            owned: 3,
            elsewhere: 5,
            takeovers: 1,
            moved_away: 0,
            lease_ok: true,
            heartbeat_age: Some(Duration::from_micros(412_600)),
        };
        let store = |shared| StoreMetrics { kind: "postgresql", node: "a1b2".into(), shared: Some(shared) };
        let text = m.render(TableCounts::default(), 0, &store(shared));
        for (line, n) in [
            ("wonders_store_info{kind=\"postgresql\",node=\"a1b2\"}", 1.0),
            ("wonders_tables_owned", 3.0),
            ("wonders_tables_elsewhere", 5.0),
            ("wonders_takeovers_total", 1.0),
            ("wonders_tables_moved_away_total", 0.0),
            ("wonders_lease_ok", 1.0),
            ("wonders_heartbeat_age_seconds", 0.413),
        ] {
            assert_eq!(value(&text, line), n, "`{line}` in\n{text}");
        }
        assert!(text.lines().any(|l| l == "# TYPE wonders_takeovers_total counter"), "{text}");
        // The next scrape shows the store's state then.
        shared.takeovers = 4;
        shared.lease_ok = false;
        shared.heartbeat_age = None;
        let text = m.render(TableCounts::default(), 0, &store(shared));
        assert_eq!(value(&text, "wonders_takeovers_total"), 4.0);
        assert_eq!(value(&text, "wonders_lease_ok"), 0.0);
        assert_eq!(value(&text, "wonders_heartbeat_age_seconds"), -1.0);
    }
}
