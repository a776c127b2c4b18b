//! Writing to standard output and standard error when the reader may go away (`wonders simulate |
//! head`).
//!
//! Rust programs ignore SIGPIPE, so a write to a closed pipe is an error of kind
//! [`std::io::ErrorKind::BrokenPipe`] — and `println!` turns it into a panic. Every command writes
//! its output through [`emit`] instead: a closed output is noted and returned as an error, the
//! command stops where it is (dropping, and so stopping, any external bot it runs), and `main`
//! ends quietly with status 0, as the usual Unix tools end quietly when the reader has gone.
//! Messages on standard error go through [`warn`], which never panics.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once a write to standard output found the reader gone.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes `text` to `out` and flushes it. When the reader has gone, notes it ([`closed`]) and
/// returns an error so that the command stops; `main` then exits quietly.
pub(crate) fn emit(out: &mut dyn Write, text: &str) -> Result<(), String> {
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            CLOSED.store(true, Ordering::Relaxed);
            Err("the output was closed".into())
        }
        Err(e) => Err(format!("writing the output: {e}")),
    }
}

/// Whether a write through [`emit`] found the output closed: the command stopped because nobody
/// reads its output any more, which is not an error to report.
pub(crate) fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}

/// Writes a line on standard output for a command that goes on whoever reads it (the server's
/// messages): a closed output is ignored, and does not stop the command.
pub(crate) fn say_line(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
}

/// Writes a line on standard error (a closed standard error is ignored, where `eprintln!` would
/// panic).
pub(crate) fn warn(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose reader has gone.
    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// A writer that fails otherwise.
    struct Full;

    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_output_stops_the_command_quietly_and_other_errors_are_reported() {
        let mut text = Vec::new();
        assert_eq!(emit(&mut text, "one\n"), Ok(()));
        assert_eq!(text, b"one\n");
        assert!(emit(&mut Full, "x").unwrap_err().contains("writing the output: disk full"));
        assert!(!closed(), "only a closed pipe counts");
        assert!(emit(&mut Closed, "x").is_err(), "the command stops");
        assert!(closed(), "and main knows why");
    }
}
