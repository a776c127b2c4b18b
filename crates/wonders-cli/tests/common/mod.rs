//! Test plumbing shared by the CLI's integration tests: starting the real `wonders serve` binary
//! on a free loopback port.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};

/// A running `wonders serve`, its address and the lines it prints on standard output.
pub struct Served {
    /// The server process.
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// Standard output after the address line, read on a thread so the pipe never fills.
    #[allow(dead_code)] // not every test file reads the server's output
    pub stdout: Receiver<String>,
}

impl Drop for Served {
    /// A failing test must not leave a server behind.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `wonders serve --addr 127.0.0.1:0 --db DB FLAGS…` with `RUST_LOG=level`; `open_files`
/// sets its limit on open files (through the shell's `ulimit`).
pub fn serve_binary(
    db: &Path,
    flags: &[&str],
    open_files: Option<u32>,
    stderr: Stdio,
    level: &str,
) -> Served {
    let bin = env!("CARGO_BIN_EXE_wonders");
    let mut command = match open_files {
        Some(n) => {
            let mut c = Command::new("sh");
            c.arg("-c").arg(format!("ulimit -n {n} && exec \"$0\" \"$@\"")).arg(bin);
            c
        }
        None => Command::new(bin),
    };
    command.args(["serve", "--addr", "127.0.0.1:0", "--db"]).arg(db).args(flags);
    let mut child = command
        .env("RUST_LOG", level)
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("the server starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next().expect("the server prints its address").unwrap();
        if let Some(rest) = line.split("http://").nth(1) {
            break rest
                .trim_end_matches(|c: char| c != '/' && !c.is_ascii_digit())
                .trim_end_matches('/')
                .to_string();
        }
    };
    // Keep reading its output so that it never blocks on a full pipe.
    let (tx, stdout) = channel();
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    Served { child, addr, stdout }
}
