//! `wonders serve`: the multiplayer server with its browser UI and SQLite store.

use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;
use wonders_server::server::ServerConfig;

/// Options of `wonders serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on (use 0.0.0.0:PORT to accept other machines).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The SQLite database file, created on first start.
    #[arg(long, default_value = "wonders.db")]
    db: PathBuf,
    /// Report every table's state (ok, waiting, finished, or broken with the reason) without
    /// serving; the exit status is non-zero if any table is broken.
    #[arg(long)]
    check: bool,
    /// Seconds after which a table still waiting for players is deleted (0: never).
    #[arg(long, default_value_t = 1800, value_name = "SECS")]
    waiting_expiry: u64,
    /// Seconds a finished game stays in memory after its end (it stays in the database).
    #[arg(long, default_value_t = 120, value_name = "SECS")]
    finished_keep: u64,
    /// Seconds the seats of a rematch are held for the previous game's players.
    #[arg(long, default_value_t = 120, value_name = "SECS")]
    rematch_hold: u64,
}

/// Prints every table's state; an error if any is broken.
fn check(args: &ServeArgs) -> Result<(), String> {
    let tables = wonders_server::Server::check(&args.db).map_err(|e| e.to_string())?;
    let mut broken = 0;
    for t in &tables {
        let state = match (t.status.as_str(), &t.error) {
            (_, Some(e)) => {
                broken += 1;
                format!("broken: {e}")
            }
            ("over", None) => "finished".to_string(),
            ("waiting", None) => "waiting".to_string(),
            (s, None) => format!("ok ({s}, Age {} turn {})", t.age_turn.0, t.age_turn.1),
        };
        println!("{}  {state}", t.id);
    }
    println!("{}: {} tables, {broken} broken", args.db.display(), tables.len());
    if broken > 0 {
        return Err(format!("{broken} of {} tables are broken", tables.len()));
    }
    Ok(())
}

/// Opens the store, replays every game and serves until interrupted.
pub fn run(args: &ServeArgs) -> Result<(), String> {
    if args.check {
        return check(args);
    }
    let config = ServerConfig {
        waiting_expiry: (args.waiting_expiry > 0).then(|| Duration::from_secs(args.waiting_expiry)),
        finished_keep: Duration::from_secs(args.finished_keep),
        rematch_hold: Duration::from_secs(args.rematch_hold),
        ..ServerConfig::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("starting the runtime: {e}"))?;
    runtime.block_on(async {
        let server = wonders_server::Server::open_with(&args.db, config)
            .map_err(|e| format!("opening {}: {e}", args.db.display()))?;
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(|e| format!("listening on {}: {e}", args.addr))?;
        let addr = listener.local_addr().map_err(|e| format!("listening on {}: {e}", args.addr))?;
        let tables = server.list();
        let broken: Vec<_> = tables.finished.iter().filter(|t| t.status == "broken").collect();
        println!(
            "wonders: serving {} open and {} finished tables from {}",
            tables.open.len(),
            tables.finished.len() - broken.len(),
            args.db.display()
        );
        for t in broken {
            eprintln!("wonders: broken: {}", t.error.as_deref().unwrap_or("?"));
        }
        println!("wonders: open http://{addr}/ in a browser");
        tokio::select! {
            served = wonders_server::serve(listener, server) => served.map_err(|e| format!("serving: {e}")),
            _ = tokio::signal::ctrl_c() => {
                println!("wonders: stopped (every game is saved)");
                Ok(())
            }
        }
    })
}
