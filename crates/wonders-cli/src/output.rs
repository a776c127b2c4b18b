//! Writing to standard output and standard error when the reader may go away (`wonders simulate |
//! head`).
//!
//! Rust programs ignore SIGPIPE, so a write to a closed pipe is an error of kind
//! [`std::io::ErrorKind::BrokenPipe`] — and `println!` turns it into a panic. Every command writes
//! its output through [`emit`] instead: a closed output is noted and returned as an error, the
//! command stops where it is (dropping, and so stopping, any external bot it runs), and `main`
//! ends quietly with status 0, as the usual Unix tools end quietly when the reader has gone.
//! Messages on standard error go through [`warn`], which never panics.
//!
//! The commands build their text in a `String` first, a line at a time with [`say!`](say).

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Appends one formatted line to a `String` (writing to a `String` cannot fail).
macro_rules! say {
    ($dst:expr) => {
        $dst.push('\n')
    };
    ($dst:expr, $($arg:tt)*) => {{
        let _ = writeln!($dst, $($arg)*);
    }};
}
pub(crate) use say;

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

/// The width a command's text fits: the terminal's columns when standard output is a terminal
/// (at least 40), 80 otherwise (a pipe, a file).
pub(crate) fn width() -> usize {
    if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        usize::from(console::Term::stdout().size().1).max(40)
    } else {
        80
    }
}

/// The lines of standard output's screen: the terminal's rows (at least 24), or 45 when it is
/// not a terminal.
pub(crate) fn height() -> usize {
    if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        usize::from(console::Term::stdout().size().0).max(24)
    } else {
        45
    }
}

/// Whether to colour standard output: only on a terminal, and not when `NO_COLOR` is set to
/// anything but the empty string (<https://no-color.org>).
pub(crate) fn colour() -> bool {
    colour_for(std::io::IsTerminal::is_terminal(&std::io::stdout()), std::env::var_os("NO_COLOR"))
}

/// [`colour`] for an output that is a terminal or not and a value of `NO_COLOR`.
fn colour_for(terminal: bool, no_color: Option<std::ffi::OsString>) -> bool {
    terminal && no_color.is_none_or(|v| v.is_empty())
}

/// The columns of a terminal a string takes: East Asian wide characters take two, and colour
/// escapes (`ESC [ … m`) none.
pub(crate) fn display_width(s: &str) -> usize {
    use unicode_width::UnicodeWidthStr;
    if !s.contains('\x1b') {
        return s.width();
    }
    let mut width = 0;
    let mut rest = s;
    while let Some(at) = rest.find('\x1b') {
        width += rest[..at].width();
        rest = &rest[at..];
        rest = match rest.find('m') {
            Some(end) => &rest[end + 1..],
            None => "",
        };
    }
    width + rest.width()
}

/// A short heading of a score category for narrow tables (`mil`, `treas`, `wond`, …); the name
/// itself when it is short already.
pub(crate) fn short_category(name: &str) -> &str {
    match name {
        "military" => "mil",
        "treasury" => "treas",
        "wonder" => "wond",
        "civilian" => "civ",
        "science" => "sci",
        "commercial" => "comm",
        "guilds" => "guild",
        "edifice" => "edif",
        "islands" => "isle",
        other => other,
    }
}

/// An aligned table: the first column left-aligned, the others right-aligned, two spaces apart;
/// trailing spaces trimmed, no newline after the last row.
pub(crate) fn aligned(rows: &[Vec<String>]) -> String {
    aligned_with(rows, 2)
}

/// [`aligned`] with `gap` spaces between columns.
pub(crate) fn aligned_with(rows: &[Vec<String>], gap: usize) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().filter_map(|r| r.get(c)).map(|s| display_width(s)).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            let pad = " ".repeat(widths[c].saturating_sub(display_width(cell)));
            if c == 0 {
                line.push_str(cell);
                line.push_str(&pad);
            } else {
                line.push_str(&" ".repeat(gap));
                line.push_str(&pad);
                line.push_str(cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.pop();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_only_on_a_terminal_and_never_with_no_color() {
        assert!(colour_for(true, None));
        assert!(colour_for(true, Some("".into())), "an empty NO_COLOR is no request");
        assert!(!colour_for(true, Some("1".into())));
        assert!(!colour_for(false, None), "never in a pipe or a file");
    }

    #[test]
    fn widths_count_wide_characters_twice_and_colour_escapes_not_at_all() {
        assert_eq!(display_width("Ann"), 3);
        assert_eq!(display_width("安妮"), 4);
        assert_eq!(display_width("\x1b[34mBaths\x1b[0m [blue]"), 12);
        let text = aligned(&[
            vec!["player".into(), "total".into()],
            vec!["安妮".into(), "7".into()],
            vec!["Bob".into(), "12".into()],
        ]);
        assert_eq!(text, "player  total\n安妮        7\nBob        12");
    }

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
