//! `wonders serve`: the multiplayer server with its browser UI and SQLite store.

use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;

/// Options of `wonders serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on (use 0.0.0.0:PORT to accept other machines).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The SQLite database file, created on first start.
    #[arg(long, default_value = "wonders.db")]
    db: PathBuf,
    /// Offer an external bot (`exec:COMMAND[:timeout=<T>]`, see `wonders bot-protocol`) for seats;
    /// repeat for several. Off by default: a visitor can only choose among the bots allowed here.
    #[arg(long = "allow-bot", value_name = "exec:COMMAND")]
    allow_bot: Vec<String>,
}

/// Opens the store, replays every game and serves until interrupted.
pub fn run(args: &ServeArgs) -> Result<(), String> {
    // Each allowed external bot must start and shake hands before anything is served.
    for name in &args.allow_bot {
        let (bot, version) = wonders_bots::exec::probe(name, 4, wonders_core::Edition::First)
            .map_err(|e| format!("--allow-bot: {e}"))?;
        println!(
            "wonders: external bot `{}` allowed ({bot} {version})",
            wonders_bots::normalize_bot_name(name)
        );
    }
    wonders_server::allow_exec_bots(&args.allow_bot)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("starting the runtime: {e}"))?;
    runtime.block_on(async {
        let server = wonders_server::Server::open(&args.db)
            .map_err(|e| format!("opening {}: {e}", args.db.display()))?;
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(|e| format!("listening on {}: {e}", args.addr))?;
        let addr = listener.local_addr().map_err(|e| format!("listening on {}: {e}", args.addr))?;
        let tables = server.list();
        println!(
            "wonders: serving {} open and {} finished tables from {}",
            tables.open.len(),
            tables.finished.len(),
            args.db.display()
        );
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
