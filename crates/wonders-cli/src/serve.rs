//! `wonders serve`: the multiplayer server with its browser UI and SQLite store.
//!
//! Every limit of [`wonders_server::Limits`] is a flag, also read from an environment variable
//! (`WONDERS_…`, named in `--help`); durations are in seconds. Logs go to standard error
//! (`tracing`; level from `RUST_LOG`, `info` by default: refusals, errors, start and stop; `debug`
//! adds one line per request with its id and time), as text or as JSON lines (`--log-format json`).

use crate::output::{say_line, warn};
use clap::{Args, ValueEnum};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;
use wonders_server::Limits;
use wonders_server::server::ServerConfig;

/// The format of the logs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

fn default() -> Limits {
    Limits::default()
}

/// Options of `wonders serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on (use 0.0.0.0:PORT to accept other machines).
    #[arg(long, default_value = "127.0.0.1:8080", env = "WONDERS_ADDR")]
    addr: SocketAddr,
    /// The store: an SQLite database file (created on first start), or a PostgreSQL database
    /// as a URL, `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` (its schema created on first
    /// start).
    #[arg(long, default_value = "wonders.db", env = "WONDERS_DB")]
    db: PathBuf,
    /// Connections open at once, all clients together (lowered to fit the limit on open files).
    #[arg(long, value_name = "N", env = "WONDERS_MAX_CONNECTIONS", default_value_t = default().max_connections)]
    max_connections: usize,
    /// Connections open at once from one IP address.
    #[arg(long, value_name = "N", env = "WONDERS_MAX_CONNECTIONS_PER_IP",
          default_value_t = default().max_connections_per_ip)]
    max_connections_per_ip: usize,
    /// Seconds to receive a request's headers (an idle keep-alive connection closes after it).
    #[arg(long, value_name = "S", env = "WONDERS_HEADER_TIMEOUT",
          default_value_t = default().header_timeout.as_secs_f64())]
    header_timeout: f64,
    /// Seconds without a byte read or written after which an HTTP connection closes.
    #[arg(long, value_name = "S", env = "WONDERS_IDLE_TIMEOUT", default_value_t = default().idle_timeout.as_secs_f64())]
    idle_timeout: f64,
    /// Seconds to answer a request (then 503).
    #[arg(long, value_name = "S", env = "WONDERS_REQUEST_TIMEOUT",
          default_value_t = default().request_timeout.as_secs_f64())]
    request_timeout: f64,
    /// Largest request body, in bytes (then 413).
    #[arg(long, value_name = "BYTES", env = "WONDERS_MAX_BODY", default_value_t = default().max_body)]
    max_body: usize,
    /// Largest request line and headers together, in bytes (then 431); at least 1024.
    #[arg(long, value_name = "BYTES", env = "WONDERS_MAX_HEADER_BYTES", default_value_t = default().max_header_bytes)]
    max_header_bytes: usize,
    /// Largest WebSocket message from a client, in bytes (then the connection closes, code 1009).
    #[arg(long, value_name = "BYTES", env = "WONDERS_WS_MAX_MESSAGE", default_value_t = default().ws_max_message)]
    ws_max_message: usize,
    /// Seconds between the server's WebSocket pings.
    #[arg(long, value_name = "S", env = "WONDERS_WS_PING_INTERVAL",
          default_value_t = default().ws_ping_interval.as_secs_f64())]
    ws_ping_interval: f64,
    /// Seconds without anything from a WebSocket client (not even a pong) before it is closed.
    #[arg(long, value_name = "S", env = "WONDERS_WS_IDLE_TIMEOUT",
          default_value_t = default().ws_idle_timeout.as_secs_f64())]
    ws_idle_timeout: f64,
    /// Open tables (waiting or playing) at most; creating one more first removes the oldest
    /// table nobody sits at, and is refused (503) when there is none.
    #[arg(long, value_name = "N", env = "WONDERS_MAX_OPEN_TABLES", default_value_t = default().max_open_tables)]
    max_open_tables: usize,
    /// Open tables one address (an IPv6 address: its /64) may have created at once (then 429).
    #[arg(long, value_name = "N", env = "WONDERS_MAX_OPEN_TABLES_PER_IP",
          default_value_t = default().max_open_tables_per_ip)]
    max_open_tables_per_ip: usize,
    /// Tables one IP address may create per minute (0: no limit; then 429).
    #[arg(long, value_name = "N", env = "WONDERS_TABLES_PER_MINUTE", default_value_t = default().tables_per_minute)]
    tables_per_minute: u32,
    /// Seats one IP address may take per minute (0: no limit).
    #[arg(long, value_name = "N", env = "WONDERS_SEATS_PER_MINUTE", default_value_t = default().seats_per_minute)]
    seats_per_minute: u32,
    /// Rematches one IP address may ask for per minute (0: no limit).
    #[arg(long, value_name = "N", env = "WONDERS_REMATCHES_PER_MINUTE",
          default_value_t = default().rematches_per_minute)]
    rematches_per_minute: u32,
    /// An origin (https://example.org) allowed to send state-changing requests besides the
    /// server's own; repeat for several (comma-separated in the environment variable).
    #[arg(long, value_name = "ORIGIN", env = "WONDERS_ALLOWED_ORIGINS", value_delimiter = ',')]
    allowed_origin: Vec<String>,
    /// Host names the server answers to besides localhost and IP addresses (others: 421, against
    /// DNS rebinding); behind a proxy, the public name. Comma-separated or repeated; `*`: any.
    #[arg(long, value_name = "HOST", env = "WONDERS_ALLOWED_HOSTS", value_delimiter = ',')]
    allowed_hosts: Vec<String>,
    /// Behind a reverse proxy: rate limits count the address the proxy puts last in
    /// X-Forwarded-For, and its X-Request-Id is kept.
    #[arg(long, env = "WONDERS_BEHIND_PROXY")]
    behind_proxy: bool,
    /// Seconds open connections get to finish when the server is stopped (Ctrl-C, SIGTERM).
    #[arg(long, value_name = "S", env = "WONDERS_SHUTDOWN_GRACE",
          default_value_t = default().shutdown_grace.as_secs_f64())]
    shutdown_grace: f64,
    /// The format of the logs on standard error.
    #[arg(long, value_enum, default_value_t = LogFormat::Text, env = "WONDERS_LOG_FORMAT")]
    log_format: LogFormat,
    /// Check the database without serving it and without writing it (it may be read-only):
    /// SQLite's integrity check, every table's state with its log replayed (ok, waiting,
    /// finished, or broken with the reason), and the WAL file (a damaged one loses changes); the
    /// exit status is non-zero if anything is wrong.
    #[arg(long)]
    check: bool,
    /// Seconds after which a table still waiting for players is deleted (0: never).
    #[arg(long, default_value_t = 1800, value_name = "SECS")]
    waiting_expiry: u64,
    /// Seconds after which a table waiting for players with nobody seated is deleted (0: only
    /// after --waiting-expiry).
    #[arg(long, default_value_t = 180, value_name = "SECS")]
    empty_expiry: u64,
    /// Seconds a finished game stays in memory after its end (it stays in the database).
    #[arg(long, default_value_t = 120, value_name = "SECS")]
    finished_keep: u64,
    /// Seconds the seats of a rematch are held for the previous game's players.
    #[arg(long, default_value_t = 120, value_name = "SECS")]
    rematch_hold: u64,
    /// Threads every table's bots think on, taken in turn by the tables (default: one less than
    /// the machine's cores, at least one, so that a core stays free for people's requests).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    bot_threads: Option<u16>,
    /// Games the search bot samples per move it judges in a finished game's review ("Review my
    /// game"): more is steadier and slower (500 takes about 2 s of one core for a 4-player seat).
    #[arg(long, value_name = "N", default_value_t = wonders_bots::coach::REVIEW_SAMPLES,
          value_parser = clap::value_parser!(u32).range(10..=20_000))]
    review_samples: u32,
    /// Offer an external bot (`exec:COMMAND[:timeout=<T>]`, see `wonders bot-protocol`) for seats;
    /// repeat for several. Off by default: a visitor can only choose among the bots allowed here.
    #[arg(long = "allow-bot", value_name = "exec:COMMAND")]
    allow_bot: Vec<String>,
}

/// The `--db` argument when it is a PostgreSQL URL.
fn postgres_url(args: &ServeArgs) -> Option<&str> {
    args.db.to_str().filter(|db| wonders_server::storage::is_postgres_url(db))
}

/// Prints every table's state and the file's integrity; an error if a table is broken, the file
/// damaged or its WAL damaged.
fn check(args: &ServeArgs) -> Result<(), String> {
    if postgres_url(args).is_some() {
        return Err("--check reads SQLite files; a PostgreSQL database is checked by PostgreSQL itself \
                    (and `wonders store copy` from it replays every game)"
            .into());
    }
    let report = wonders_server::Server::check_file(&args.db).map_err(|e| e.to_string())?;
    let tables = &report.tables;
    let broken = report.broken();
    let mut text = String::new();
    for t in tables {
        let state = match (t.status.as_str(), &t.error) {
            (_, Some(e)) => format!("broken: {e}"),
            ("over", None) => "finished".to_string(),
            ("waiting", None) => "waiting".to_string(),
            (s, None) => format!("ok ({s}, Age {} turn {})", t.age_turn.0, t.age_turn.1),
        };
        text.push_str(&format!("{}  {state}\n", t.id));
    }
    if report.integrity_ok() {
        text.push_str("integrity: ok\n");
    } else {
        for problem in &report.integrity {
            text.push_str(&format!("integrity: {problem}\n"));
        }
    }
    match &report.wal_damage {
        None => text.push_str("wal: ok\n"),
        Some(damage) => text.push_str(&format!("wal: {damage}\n")),
    }
    text.push_str(&format!("{}: {} tables, {broken} broken\n", args.db.display(), tables.len()));
    // Written at once; a reader that has gone (`| head`) ends the command quietly.
    crate::output::emit(&mut std::io::stdout().lock(), &text)?;
    let mut wrong = Vec::new();
    if let Some(damage) = &report.wal_damage {
        warn(&format!("wonders: WARNING: {damage}"));
        wrong.push(format!("the WAL file ({} bytes) is damaged", damage.size));
    }
    if !report.integrity_ok() {
        wrong.push(format!("SQLite's integrity check found {} problems", report.integrity.len()));
    }
    if broken > 0 {
        wrong.push(format!("{broken} of {} tables are broken", tables.len()));
    }
    if !wrong.is_empty() {
        return Err(wrong.join("; "));
    }
    Ok(())
}

fn seconds(flag: &str, s: f64) -> Result<Duration, String> {
    if s.is_finite() && s > 0.0 && s <= 86_400.0 {
        Ok(Duration::from_secs_f64(s))
    } else {
        Err(format!("--{flag} is a number of seconds above 0 and at most 86400, not {s}"))
    }
}

fn at_least_one(flag: &str, n: usize) -> Result<usize, String> {
    if n == 0 { Err(format!("--{flag} must be at least 1")) } else { Ok(n) }
}

impl ServeArgs {
    /// The server's settings the flags set (the limits apart: [`ServeArgs::limits`]).
    fn config(&self) -> ServerConfig {
        ServerConfig {
            waiting_expiry: (self.waiting_expiry > 0).then(|| Duration::from_secs(self.waiting_expiry)),
            finished_keep: Duration::from_secs(self.finished_keep),
            rematch_hold: Duration::from_secs(self.rematch_hold),
            empty_expiry: (self.empty_expiry > 0).then(|| Duration::from_secs(self.empty_expiry)),
            bot_threads: self.bot_threads.map_or_else(wonders_server::pool::default_threads, usize::from),
            review_samples: self.review_samples,
            ..ServerConfig::default()
        }
    }

    /// The limits the flags set.
    pub fn limits(&self) -> Result<Limits, String> {
        if self.ws_max_message < 256 {
            return Err(format!("--ws-max-message must be at least 256 bytes, not {}", self.ws_max_message));
        }
        if self.max_header_bytes < wonders_server::limits::MIN_HEADER_BYTES {
            return Err(format!(
                "--max-header-bytes must be at least {} bytes, not {}",
                wonders_server::limits::MIN_HEADER_BYTES,
                self.max_header_bytes
            ));
        }
        if let Some(url) = self.allowed_hosts.iter().find(|h| h.contains('/') || h.trim().contains(' ')) {
            return Err(format!("--allowed-hosts takes host names (play.example.org), not `{url}`"));
        }
        Ok(Limits {
            max_connections: at_least_one("max-connections", self.max_connections)?,
            max_connections_per_ip: at_least_one("max-connections-per-ip", self.max_connections_per_ip)?,
            header_timeout: seconds("header-timeout", self.header_timeout)?,
            idle_timeout: seconds("idle-timeout", self.idle_timeout)?,
            request_timeout: seconds("request-timeout", self.request_timeout)?,
            max_body: at_least_one("max-body", self.max_body)?,
            max_header_bytes: self.max_header_bytes,
            ws_max_message: self.ws_max_message,
            ws_ping_interval: seconds("ws-ping-interval", self.ws_ping_interval)?,
            ws_idle_timeout: seconds("ws-idle-timeout", self.ws_idle_timeout)?,
            max_open_tables: at_least_one("max-open-tables", self.max_open_tables)?,
            max_open_tables_per_ip: at_least_one("max-open-tables-per-ip", self.max_open_tables_per_ip)?,
            tables_per_minute: self.tables_per_minute,
            seats_per_minute: self.seats_per_minute,
            rematches_per_minute: self.rematches_per_minute,
            allowed_origins: self.allowed_origin.clone(),
            allowed_hosts: self
                .allowed_hosts
                .iter()
                .map(|h| h.trim().to_string())
                .filter(|h| !h.is_empty())
                .collect(),
            behind_proxy: self.behind_proxy,
            shutdown_grace: seconds("shutdown-grace", self.shutdown_grace)?,
        })
    }
}

fn init_logs(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    // A second initialisation (never in the binary) is ignored.
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}

/// Completes on Ctrl-C or (on Unix) SIGTERM. On Unix the handlers are installed when this is
/// called, not when the future is first polled: a signal that comes in between (right after
/// the address is printed) still stops the server cleanly instead of killing it. Call it from
/// inside the runtime.
fn stop_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{Signal, SignalKind, signal};
        let term = signal(SignalKind::terminate()).ok();
        let interrupt = signal(SignalKind::interrupt()).ok();
        async fn next(s: Option<Signal>) {
            match s {
                Some(mut s) => {
                    let _ = s.recv().await;
                }
                None => std::future::pending().await,
            }
        }
        async move {
            if term.is_none() && interrupt.is_none() {
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
            tokio::select! {
                () = next(term) => {}
                () = next(interrupt) => {}
            }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// Opens the store, replays every game and serves until interrupted, then finishes the requests
/// in progress.
pub fn run(args: &ServeArgs) -> Result<(), String> {
    if args.check {
        return check(args);
    }
    let limits = args.limits()?;
    init_logs(args.log_format);
    // Each allowed external bot must start and shake hands before anything is served.
    for name in &args.allow_bot {
        let (bot, version) = wonders_bots::exec::probe(name, &wonders_core::Setup::new(4, 0))
            .map_err(|e| format!("--allow-bot: {e}"))?;
        // The server's messages go on standard output while it runs; a reader that has gone
        // (`| head`) does not stop it.
        say_line(&format!(
            "wonders: external bot `{}` allowed ({bot} {version})",
            wonders_bots::normalize_bot_name(name)
        ));
    }
    wonders_server::allow_exec_bots(&args.allow_bot)?;
    let config = args.config();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("starting the runtime: {e}"))?;
    runtime.block_on(async {
        let shown = postgres_url(args)
            .map_or_else(|| args.db.display().to_string(), wonders_server::postgres::redact);
        let server = match postgres_url(args) {
            Some(url) => wonders_server::Server::open_db(url, config),
            None => wonders_server::Server::open_with(&args.db, config),
        }
        .map_err(|e| format!("opening {shown}: {e}"))?;
        for w in server.warnings() {
            warn(&format!("wonders: WARNING: {w}"));
        }
        let stop = stop_signal();
        // A backlog of 1,024 connections: players reconnecting together after a restart are
        // queued, not dropped for TCP to retry a second later (wonders_server::listen).
        let listener =
            wonders_server::listen(args.addr).map_err(|e| format!("listening on {}: {e}", args.addr))?;
        let addr = listener.local_addr().map_err(|e| format!("listening on {}: {e}", args.addr))?;
        let tables = server.list();
        let broken: Vec<_> = tables.finished.iter().filter(|t| t.status == "broken").collect();
        say_line(&format!(
            "wonders: serving {} open and {} finished tables from {}",
            tables.open.len(),
            tables.finished.len() - broken.len(),
            shown
        ));
        for t in broken {
            warn(&format!("wonders: broken: {}", t.error.as_deref().unwrap_or("?")));
        }
        say_line(&format!("wonders: open http://{addr}/ in a browser"));
        wonders_server::serve_with(listener, server, limits, stop)
            .await
            .map_err(|e| format!("serving: {e}"))?;
        say_line("wonders: stopped (every game is saved)");
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// `wonders serve`'s flags alone, parsed as the command parses them.
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        serve: ServeArgs,
    }

    fn parse(flags: &[&str]) -> Result<ServeArgs, String> {
        let argv = std::iter::once("serve").chain(flags.iter().copied());
        Cli::try_parse_from(argv).map(|c| c.serve).map_err(|e| e.to_string())
    }

    #[test]
    fn review_samples_default_to_the_coachs_and_are_set_by_the_flag() {
        let default = parse(&[]).unwrap().config();
        assert_eq!(default.review_samples, wonders_bots::coach::REVIEW_SAMPLES);
        assert_eq!(default.review_samples, 500);
        assert_eq!(parse(&["--review-samples", "2000"]).unwrap().config().review_samples, 2000);
        let too_few = parse(&["--review-samples", "5"]).err().unwrap();
        assert!(too_few.contains("--review-samples") && too_few.contains("10..=20000"), "{too_few}");
        let not_a_number = parse(&["--review-samples", "many"]).err().unwrap();
        assert!(not_a_number.contains("invalid digit"), "{not_a_number}");
    }
}
