//! A reader that goes away early (`wonders … | head -1`) ends every command quietly: no panic
//! message, exit status 0, as the usual Unix tools end when nobody reads their output any more.
//! (Rust ignores SIGPIPE, so a write to a closed pipe is an error, which `println!` turns into a
//! panic; the commands write through `output::emit` instead.)

use serde_json::json;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

fn root() -> String {
    format!("{}/../..", env!("CARGO_MANIFEST_DIR"))
}

fn start(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_wonders"))
        .args(args)
        // The server's log of its start and stop (at `info`) is no message of a fault.
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// Reads lines of the child's output until one contains `until`, then closes the pipe as `head`
/// does; returns the line.
fn read_then_close(child: &mut Child, until: &str) -> String {
    let mut reader = BufReader::new(child.stdout.take().expect("stdout is piped"));
    let mut line = String::new();
    loop {
        line.clear();
        let n = reader.read_line(&mut line).unwrap();
        assert!(n > 0, "the output ended before a line with `{until}`");
        if line.contains(until) {
            return line;
        }
    }
    // `reader` is dropped here: the read end of the pipe is closed.
}

/// The command ended quietly: status 0 and nothing on standard error.
fn assert_quiet(what: &str, out: &Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    assert!(out.status.success(), "{what}: {:?}, stderr: {stderr}", out.status);
    assert!(stderr.is_empty(), "{what}: {stderr}");
}

/// Each command, its output read for one line and then closed, ends quietly. The outputs long
/// enough to outlast the pipe's buffer (a whole game played or replayed, the protocol's text)
/// meet the closed pipe on a later write; the short reports are written at once.
#[test]
fn reading_one_line_then_closing_the_pipe_ends_every_command_quietly() {
    let record = format!("{}/crates/wonders-core/tests/pinned/record_policy_4p_seed7.json", root());
    let commands: [&[&str]; 7] = [
        &["simulate", "--players", "3", "--games", "200", "--seed", "1"],
        &["simulate", "--players", "3", "--games", "20", "--json"],
        &["arena", "--players", "3", "--games", "3", "--bots", "random,random,random"],
        &["play", "--auto", "--players", "7", "--seed", "1", "--expansions", "armada,edifice"],
        &["replay", &record],
        &["bot-protocol"],
        &["simulate", "--help"],
    ];
    for args in commands {
        let mut child = start(args);
        read_then_close(&mut child, "");
        assert_quiet(&format!("{args:?}"), &child.wait_with_output().unwrap());
    }
}

/// `wonders serve --check` on a database of many tables (more lines than a pipe holds), read for
/// one line: it ends quietly instead of panicking on the next line.
#[test]
fn serve_check_ends_quietly_when_its_reader_goes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("wonders.db");
    let server = wonders_server::Server::open(&db).unwrap();
    let req: wonders_server::msg::CreateTable =
        serde_json::from_value(json!({"players": 3, "wonders": "A", "seats": [{}, {}, {}]})).unwrap();
    // Each line is about 40 bytes: 2,000 tables are more than the 64 KiB a pipe holds.
    for _ in 0..2000 {
        server.create_table(&req).unwrap();
    }
    drop(server);
    let mut child = start(&["serve", "--check", "--db", path(&db)]);
    read_then_close(&mut child, "waiting");
    assert_quiet("serve --check", &child.wait_with_output().unwrap());
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

/// `wonders serve` whose output reader has gone keeps serving, and stops quietly on SIGTERM
/// (it used to panic printing that it stopped).
#[cfg(unix)]
#[test]
fn serve_stops_quietly_after_its_reader_has_gone() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("wonders.db");
    let mut child = start(&["serve", "--addr", "127.0.0.1:0", "--db", path(&db)]);
    let line = read_then_close(&mut child, "http://");
    let addr =
        line.split("http://").nth(1).unwrap().trim().trim_end_matches(" in a browser").trim_end_matches('/');
    // Still serving.
    let mut stream = std::net::TcpStream::connect(addr).expect("the server still listens");
    std::io::Write::write_all(&mut stream, b"GET /api/bots HTTP/1.0\r\n\r\n").unwrap();
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut stream, &mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.0 200") || answer.starts_with("HTTP/1.1 200"), "{answer}");
    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    assert_quiet("serve", &child.wait_with_output().unwrap());
}
