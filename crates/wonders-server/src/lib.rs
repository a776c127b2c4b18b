//! # wonders-server
//!
//! Play *7 Wonders* in the browser: a multiplayer server over the [`wonders_core`] rules, with
//! tables, seats for people and bots, a WebSocket per table, the browser UI embedded in the
//! binary, and an embedded SQLite store.
//!
//! - **Tables**: 3–7 players (what the core accepts), 1st or 2nd edition, wonders at random or all
//!   on one side, bots in any seats, an optional turn timer. A table starts when every seat is
//!   taken; a seat can be left while it waits; a waiting table expires. A rematch is a new table
//!   with the same options and bots, started by a player of the finished game, its seats held
//!   for the previous players for a while. Finished games leave memory (they stay in the store).
//! - **Bots** think outside the table's lock, on a blocking thread; their moves are stored then
//!   applied only if still meant for the current step. When a seat's turn timer runs out, a
//!   heuristic bot plays it until its player acts or authenticates again.
//! - **Seats**: taking one returns a secret token (128 random bits from the operating system)
//!   given only once; the store keeps its SHA-256. Only the holder acts for the seat or sees its
//!   hand. Anyone may watch: spectators get the public view, with no hand.
//! - **Reliability**: each accepted action is appended to the table's log in the store (an
//!   SQLite file, or a PostgreSQL database that several servers may share: [`storage`]), in a
//!   transaction committed before the action is acknowledged; on start every game is rebuilt by
//!   replaying its log, and the bots whose turn it is move. A table that fails to load is kept
//!   as broken with its reason; a damaged schema stops the start ([`Store::open`]). A stale action (sent twice, or for a
//!   step already over) is refused, and so is anything malformed: nothing changes then.
//! - **Information**: every message about a game is built from [`wonders_core::Game::view`] of
//!   the receiving seat, or from a view with the hand removed for spectators.
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! let server = wonders_server::Server::open(std::path::Path::new("wonders.db")).unwrap();
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! wonders_server::serve(listener, server).await
//! # }
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod backup;
mod bots;
pub mod catalog;
pub mod failures;
pub mod http;
pub mod json;
pub mod limits;
pub mod metrics;
pub mod msg;
pub mod net;
pub mod pgtemp;
pub mod pool;
pub mod postgres;
pub mod review;
pub mod scorepad;
pub mod security;
pub mod server;
pub mod storage;
pub mod store;
pub mod summary;
pub mod table;
pub mod token;
pub mod ui;
pub mod wal;
pub mod writer;
pub mod ws;

pub use bots::{BOT_NAMES, allow_exec_bots, bot_names, make_bot};
pub use http::{router, router_with};
pub use limits::Limits;
pub use msg::ApiError;
pub use net::{LISTEN_BACKLOG, listen, serve_with};
pub use server::Server;
pub use storage::TableStore;
pub use store::{Store, StoreError};

/// Serves `server` on `listener` with the default [`Limits`] until the process ends (see
/// [`serve_with`] for other limits and a graceful shutdown).
pub async fn serve(listener: tokio::net::TcpListener, server: Server) -> std::io::Result<()> {
    serve_with(listener, server, Limits::default(), std::future::pending()).await
}
