//! The server's limits: timeouts, connection caps, request and WebSocket sizes, and per-IP rate
//! limits, with their defaults ([`Limits::default`]) and the counters that enforce them.
//!
//! Every limit is set on `wonders serve` by a flag of the same name (`--max-connections`,
//! `--tables-per-minute`, …); `wonders serve --help` lists them.

use governor::clock::{Clock, MonotonicClock};
use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Every limit of the server.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Connections open at once (HTTP and WebSocket), all clients together.
    pub max_connections: usize,
    /// Connections open at once from one IP address.
    pub max_connections_per_ip: usize,
    /// Time to receive a request's headers, counted from when the connection is ready for a
    /// request (opened, or the previous answer sent): an idle keep-alive connection is closed
    /// after it.
    pub header_timeout: Duration,
    /// An HTTP connection with no byte read or written for this long is closed (a slow body, a
    /// client that stopped reading).
    pub idle_timeout: Duration,
    /// Time to answer a request, once its headers are read.
    pub request_timeout: Duration,
    /// Largest request body, in bytes.
    pub max_body: usize,
    /// Largest request line and headers together, in bytes, counted as sent (each header
    /// `Name: value` on its own line, and the empty line that ends them): a request with more is
    /// answered 431 with a JSON error. At least [`MIN_HEADER_BYTES`].
    pub max_header_bytes: usize,
    /// Largest WebSocket message (and frame) a client may send, in bytes.
    pub ws_max_message: usize,
    /// Interval between the server's WebSocket pings.
    pub ws_ping_interval: Duration,
    /// A WebSocket from which nothing (not even a pong) arrives for this long is closed.
    pub ws_idle_timeout: Duration,
    /// Tables waiting for players or playing, at most. When there are that many, creating one
    /// more first removes the oldest waiting table no person sits at (or holds a seat of); with
    /// none to remove it is refused (503).
    pub max_open_tables: usize,
    /// Open tables (waiting or playing) created by one address at most (an IPv6 address counts
    /// by its /64, [`address_key`]); one more is refused (429) until one of them ends.
    pub max_open_tables_per_ip: usize,
    /// Tables one IP address may create per minute (a burst of that many, then one every
    /// 60/N seconds); 0 for no limit.
    pub tables_per_minute: u32,
    /// Seats one IP address may take per minute; 0 for no limit.
    pub seats_per_minute: u32,
    /// Rematches one IP address may ask for per minute; 0 for no limit.
    pub rematches_per_minute: u32,
    /// Origins (`https://example.org`) allowed on state-changing requests besides the server's
    /// own (the one whose host is the request's `Host`).
    pub allowed_origins: Vec<String>,
    /// Host names (`play.example.org`, without a port) the server answers to besides its
    /// default ones: `localhost` (and names under it) and any IP address, its own included. A
    /// request whose `Host` is none of them is refused (421): a page of another site whose name
    /// was made to resolve to this server (DNS rebinding) cannot use it. `*` answers every host.
    /// Behind a proxy, list the public name the proxy passes on.
    pub allowed_hosts: Vec<String>,
    /// Behind a reverse proxy: rate limits count the client address the proxy puts last in
    /// `X-Forwarded-For`, not the proxy's.
    pub behind_proxy: bool,
    /// On shutdown, how long open connections get to finish before the server stops anyway.
    pub shutdown_grace: Duration,
}

impl Default for Limits {
    /// Limits for a small public server: see each field.
    fn default() -> Self {
        Limits {
            max_connections: 1024,
            max_connections_per_ip: 64,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            request_timeout: Duration::from_secs(30),
            max_body: 16 * 1024,
            max_header_bytes: 64 * 1024,
            ws_max_message: 4 * 1024,
            ws_ping_interval: Duration::from_secs(20),
            ws_idle_timeout: Duration::from_secs(60),
            max_open_tables: 1000,
            max_open_tables_per_ip: 4,
            tables_per_minute: 10,
            seats_per_minute: 30,
            rematches_per_minute: 10,
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
            behind_proxy: false,
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

impl Limits {
    /// Limits for load tests and test suites on loopback, where every client is 127.0.0.1: every
    /// per-IP rate limit off and caps high enough for thousands of WebSockets from one address
    /// (the timeouts and sizes stay the defaults).
    pub fn loopback() -> Limits {
        Limits {
            max_connections: 20_000,
            max_connections_per_ip: 20_000,
            max_open_tables: 20_000,
            max_open_tables_per_ip: 20_000,
            tables_per_minute: 0,
            seats_per_minute: 0,
            rematches_per_minute: 0,
            ..Limits::default()
        }
    }

    /// `max_connections` lowered, if needed, under the process's limit on open files (read from
    /// `/proc/self/limits`; 32 descriptors are kept for the database and the listener). Returns
    /// the limit and whether it was lowered.
    pub fn fitted_to_open_files(&self) -> (usize, bool) {
        match open_files_limit() {
            Some(n) if n.saturating_sub(32) < self.max_connections => (n.saturating_sub(32).max(1), true),
            _ => (self.max_connections, false),
        }
    }
}

/// The smallest [`Limits::max_header_bytes`]: a browser's request line and headers alone take
/// several hundred bytes.
pub const MIN_HEADER_BYTES: usize = 1024;

/// The address a per-address limit counts: an IPv4 address itself (an IPv4-mapped IPv6 address
/// as its IPv4), an IPv6 address by its /64 prefix (the rest zeroed): one host or customer is
/// usually given a whole /64, so counting single IPv6 addresses would limit nothing.
///
/// ```
/// use wonders_server::limits::address_key;
/// let a = address_key("2001:db8:1:2:aaaa::1".parse().unwrap());
/// assert_eq!(a, address_key("2001:db8:1:2:ffff::9".parse().unwrap()));
/// assert_ne!(a, address_key("2001:db8:1:3::1".parse().unwrap()));
/// assert_eq!(address_key("::ffff:10.0.0.7".parse().unwrap()), "10.0.0.7".parse::<std::net::IpAddr>().unwrap());
/// ```
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let bits = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(std::net::Ipv6Addr::from(bits))
            }
        },
    }
}

/// The soft limit on open files of this process, when the system says it.
fn open_files_limit() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// The kinds of requests with a per-IP rate limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quota {
    /// `POST /api/tables`.
    CreateTable = 0,
    /// `POST /api/tables/{id}/seats/{seat}`.
    TakeSeat = 1,
    /// `POST /api/tables/{id}/rematch`.
    Rematch = 2,
}

impl Quota {
    /// The words used in the refusal.
    pub fn what(self) -> &'static str {
        match self {
            Quota::CreateTable => "tables created",
            Quota::TakeSeat => "seats taken",
            Quota::Rematch => "rematches asked for",
        }
    }

    fn per_minute(self, limits: &Limits) -> u32 {
        match self {
            Quota::CreateTable => limits.tables_per_minute,
            Quota::TakeSeat => limits.seats_per_minute,
            Quota::Rematch => limits.rematches_per_minute,
        }
    }
}

/// A per-address limiter of one kind of request: a GCRA bucket per IP address (a burst of the
/// limit's count, then one more every 60/N seconds), from the `governor` crate.
type Keyed<C> = governor::RateLimiter<
    IpAddr,
    governor::state::keyed::DashMapStateStore<IpAddr>,
    C,
    governor::middleware::NoOpMiddleware<<C as Clock>::Instant>,
>;

/// Addresses remembered by one limiter before those whose bucket is full again (which hold
/// nothing a new bucket would not) are forgotten.
const MAX_ADDRESSES: usize = 100_000;

/// Per-IP rate limits for each [`Quota`] (`governor`'s keyed limiters; none for a limit of 0).
pub struct RateLimiter<C: Clock + Clone = MonotonicClock> {
    clock: C,
    limiters: [Option<Keyed<C>>; 3],
}

impl std::fmt::Debug for RateLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimiter").finish_non_exhaustive()
    }
}

impl RateLimiter {
    /// The rate limits of `limits`, on the system's monotonic clock.
    pub fn new(limits: &Limits) -> Self {
        RateLimiter::with_clock(limits, MonotonicClock)
    }
}

impl<C: Clock + Clone> RateLimiter<C> {
    /// The rate limits of `limits`, on `clock`.
    pub fn with_clock(limits: &Limits, clock: C) -> Self {
        let limiter = |quota: Quota| {
            NonZeroU32::new(quota.per_minute(limits)).map(|n| {
                governor::RateLimiter::dashmap_with_clock(governor::Quota::per_minute(n), clock.clone())
            })
        };
        let limiters = [Quota::CreateTable, Quota::TakeSeat, Quota::Rematch].map(limiter);
        RateLimiter { clock, limiters }
    }

    /// Takes one request of `quota` for `ip`; when it is over the limit, `Err` holds the whole
    /// seconds until the next one is allowed (at least 1: the `Retry-After` of the refusal).
    pub fn take(&self, ip: IpAddr, quota: Quota) -> Result<(), u64> {
        let Some(limiter) = &self.limiters[quota as usize] else {
            return Ok(());
        };
        if limiter.len() > MAX_ADDRESSES {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        limiter.check_key(&ip).map_err(|later| {
            let wait = later.wait_time_from(self.clock.now());
            (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
        })
    }
}

/// Counts open connections, globally and per IP address.
///
/// Written here rather than taken from a crate: the caps count sockets from their accept to their
/// close (WebSockets included), and a connection over one is answered before hyper or any
/// middleware sees it (`net::refuse`); tower's `ConcurrencyLimit` and `governor` count requests
/// in progress or per unit of time, not open sockets per address.
#[derive(Debug, Default)]
pub struct Connections {
    total: AtomicUsize,
    per_ip: Mutex<HashMap<IpAddr, usize>>,
}

/// Why a connection was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnRefusal {
    /// `max_connections` reached.
    Full,
    /// `max_connections_per_ip` reached for this address.
    PerIp,
}

/// An open connection, counted until dropped.
#[derive(Debug)]
pub struct ConnGuard {
    conns: Arc<Connections>,
    ip: IpAddr,
}

impl Connections {
    /// Counts a new connection from `ip`, or refuses it.
    pub fn open(
        self: &Arc<Self>,
        ip: IpAddr,
        max_total: usize,
        max_per_ip: usize,
    ) -> Result<ConnGuard, ConnRefusal> {
        let mut per_ip = self.per_ip.lock().unwrap_or_else(|e| e.into_inner());
        if self.total.load(Ordering::Relaxed) >= max_total {
            return Err(ConnRefusal::Full);
        }
        let n = per_ip.entry(ip).or_insert(0);
        if *n >= max_per_ip {
            return Err(ConnRefusal::PerIp);
        }
        *n += 1;
        self.total.fetch_add(1, Ordering::Relaxed);
        Ok(ConnGuard { conns: self.clone(), ip })
    }

    /// Connections open now.
    pub fn total(&self) -> usize {
        self.total.load(Ordering::Relaxed)
    }
}

impl Drop for ConnGuard {
    fn drop(&mut self) {
        let mut per_ip = self.conns.per_ip.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = per_ip.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                per_ip.remove(&self.ip);
            }
        }
        self.conns.total.fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_gives_its_burst_then_one_request_per_interval() {
        let limits = Limits {
            tables_per_minute: 3,
            seats_per_minute: 1,
            rematches_per_minute: 0,
            ..Limits::default()
        };
        let clock = governor::clock::FakeRelativeClock::default();
        let rl = RateLimiter::with_clock(&limits, clock.clone());
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let other: IpAddr = "10.0.0.2".parse().unwrap();
        for _ in 0..3 {
            assert_eq!(rl.take(ip, Quota::CreateTable), Ok(()));
        }
        // 3 per minute: the next one comes 20 s after the burst.
        assert_eq!(rl.take(ip, Quota::CreateTable), Err(20));
        // Another address and another kind of request have their own buckets.
        assert_eq!(rl.take(other, Quota::CreateTable), Ok(()));
        assert_eq!(rl.take(ip, Quota::TakeSeat), Ok(()));
        assert_eq!(rl.take(ip, Quota::TakeSeat), Err(60));
        clock.advance(Duration::from_secs(10));
        assert_eq!(rl.take(ip, Quota::CreateTable), Err(10));
        // A part of a second left is a whole second to wait.
        clock.advance(Duration::from_millis(9_500));
        assert_eq!(rl.take(ip, Quota::CreateTable), Err(1));
        clock.advance(Duration::from_millis(500));
        assert_eq!(rl.take(ip, Quota::CreateTable), Ok(()));
        assert_eq!(rl.take(ip, Quota::CreateTable), Err(20));
        // A minute later the whole burst is back.
        clock.advance(Duration::from_secs(60));
        for _ in 0..3 {
            assert_eq!(rl.take(ip, Quota::CreateTable), Ok(()));
        }
        assert_eq!(rl.take(ip, Quota::CreateTable), Err(20));
        // 0 is no limit.
        for _ in 0..100 {
            assert_eq!(rl.take(ip, Quota::Rematch), Ok(()));
        }
        let open = RateLimiter::new(&Limits { tables_per_minute: 0, ..Limits::default() });
        for _ in 0..100 {
            assert_eq!(open.take(ip, Quota::CreateTable), Ok(()));
        }
    }

    #[test]
    fn connections_are_capped_globally_and_per_ip_and_freed_on_drop() {
        let conns = Arc::new(Connections::default());
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let a1 = conns.open(a, 3, 2).unwrap();
        let _a2 = conns.open(a, 3, 2).unwrap();
        assert_eq!(conns.open(a, 3, 2).unwrap_err(), ConnRefusal::PerIp);
        let _b1 = conns.open(b, 3, 2).unwrap();
        assert_eq!(conns.open(b, 3, 2).unwrap_err(), ConnRefusal::Full);
        assert_eq!(conns.total(), 3);
        drop(a1);
        assert_eq!(conns.total(), 2);
        assert!(conns.open(a, 3, 2).is_ok());
    }
}
