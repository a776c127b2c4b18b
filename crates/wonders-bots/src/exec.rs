//! External bots: any program that speaks the JSON-lines bot protocol on its standard input and
//! output (the protocol is documented in `docs/src/research/bot-protocol.md`, printed by `wonders
//! bot-protocol`).
//!
//! An [`ExecBot`] is built from a name `exec:COMMAND` or `exec:COMMAND:timeout=<T>` (`<T>ms` or
//! `<T>s`, default [`DEFAULT_TIMEOUT`]): COMMAND is split into a program and its arguments as a
//! POSIX shell would split words (quotes and backslashes), but no shell runs it — no pipes,
//! redirections or variables. The program is started at the bot's first decision, not when the
//! bot is built, so building one to check a name costs nothing; [`probe`] starts it once and
//! shakes hands, to refuse a broken command before a game begins.
//!
//! **Faults.** Whatever the program does, the game goes on: when it answers with an illegal
//! action, writes a malformed line, runs out of time, or crashes, the [`HeuristicBot`] plays that
//! move instead, the fault is written to the engine's standard error and counted in
//! [`Bot::faults`]. After an illegal, malformed or late answer the program keeps playing (a late
//! answer is recognised by its `id` and skipped); after a crash or a failed handshake it is not
//! restarted: the fallback plays the rest of the game.
//!
//! Lines the program writes on its standard error are copied to the engine's, prefixed with the
//! seat and the command.

use crate::{Bot, Faults, GameEnd, HeuristicBot};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use wonders_core::score::Score;
use wonders_core::wire::{WireAction, WireView};
use wonders_core::{Action, Catalog, Edition, Expansions, Setup, View};

/// The protocol's version, sent in the engine's `hello`.
pub const PROTOCOL_VERSION: u32 = 1;

/// The time a bot has for a decision unless its name gives another (`:timeout=…`).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

/// The least time a bot has to start and answer the engine's `hello` (its decision time-out when
/// that is longer).
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest line the engine reads from a bot, in bytes; a longer one is a malformed answer.
pub const MAX_LINE: usize = 1 << 20;

/// How long a bot has to exit once its input is closed before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(1);

/// The longest time-out a name may give.
const MAX_TIMEOUT: Duration = Duration::from_secs(3600);

/// A parsed `exec:` name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecSpec {
    /// The command as given (trimmed), shown in names and messages.
    pub command: String,
    /// The program and its arguments.
    pub argv: Vec<String>,
    /// The time the bot has for each decision.
    pub timeout: Duration,
    /// Whether the name gave the time-out.
    timeout_given: bool,
}

/// The part after `exec:` when `name` is an external bot's name (the prefix in any case).
pub fn strip_exec(name: &str) -> Option<&str> {
    let name = name.trim_start();
    match name.get(..5) {
        Some(prefix) if prefix.eq_ignore_ascii_case("exec:") => Some(&name[5..]),
        _ => None,
    }
}

/// A duration written `<T>ms` or `<T>s`.
fn parse_duration(text: &str) -> Option<Duration> {
    let text = text.trim().to_ascii_lowercase();
    if let Some(d) = text.strip_suffix("ms") {
        d.parse::<u64>().ok().map(Duration::from_millis)
    } else if let Some(d) = text.strip_suffix('s') {
        d.parse::<u64>().ok().map(Duration::from_secs)
    } else {
        None
    }
}

impl ExecSpec {
    /// Parses what follows `exec:` — `COMMAND` or `COMMAND:timeout=<T>ms|<T>s`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use wonders_bots::exec::ExecSpec;
    /// let spec = ExecSpec::parse("python3 'my bot.py' --fast:timeout=250ms").unwrap();
    /// assert_eq!(spec.argv, ["python3", "my bot.py", "--fast"]);
    /// assert_eq!(spec.timeout, Duration::from_millis(250));
    /// assert_eq!(spec.name(), "exec:python3 'my bot.py' --fast:timeout=250ms");
    /// assert!(ExecSpec::parse("  ").unwrap_err().contains("needs a command"));
    /// assert!(ExecSpec::parse("bot:timeout=soon").unwrap_err().contains("timeout"));
    /// ```
    pub fn parse(rest: &str) -> Result<ExecSpec, String> {
        let rest = rest.trim();
        let (command, timeout) = match rest.rfind(":timeout=") {
            Some(at) => {
                let value = &rest[at + ":timeout=".len()..];
                let t = parse_duration(value).ok_or_else(|| {
                    format!(
                        "`timeout={value}`: give the time per decision as <T>ms or <T>s (e.g. timeout=2s)"
                    )
                })?;
                if t.is_zero() || t > MAX_TIMEOUT {
                    return Err(format!("`timeout={value}`: from 1 ms to an hour"));
                }
                (rest[..at].trim(), Some(t))
            }
            None => (rest, None),
        };
        let argv = shlex::split(command)
            .ok_or_else(|| format!("`{command}`: unbalanced quotes or a trailing backslash"))?;
        if argv.is_empty() {
            return Err(
                "`exec:` needs a command to run (e.g. exec:python3 examples/bots/random_bot.py)".into()
            );
        }
        Ok(ExecSpec {
            command: command.to_string(),
            argv,
            timeout: timeout.unwrap_or(DEFAULT_TIMEOUT),
            timeout_given: timeout.is_some(),
        })
    }

    /// The canonical name, `exec:COMMAND` with the time-out when one was given.
    pub fn name(&self) -> String {
        if self.timeout_given {
            let t = self.timeout.as_millis();
            if t.is_multiple_of(1000) {
                format!("exec:{}:timeout={}s", self.command, t / 1000)
            } else {
                format!("exec:{}:timeout={t}ms", self.command)
            }
        } else {
            format!("exec:{}", self.command)
        }
    }
}

/// What the engine writes to a bot.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ToBot<'a> {
    Hello {
        protocol: u32,
        engine: &'a str,
        engine_version: &'a str,
        seat: u8,
        players: u8,
        edition: &'a str,
        /// The expansions played (`edifice`, `armada`), empty for the base game.
        expansions: Vec<&'static str>,
        /// Whether the team variant is played.
        teams: bool,
        seed: u64,
        time_limit_ms: u64,
    },
    Act {
        id: u64,
        seat: u8,
        view: WireView,
        legal: Vec<LegalEntry>,
    },
    Fault {
        id: u64,
        fault: &'static str,
        message: String,
        played: WireAction,
    },
    GameOver {
        seat: u8,
        view: WireView,
        scores: Vec<Score>,
        ranks: Vec<u8>,
    },
}

/// One legal action as sent: its index and its wire form.
#[derive(Serialize)]
struct LegalEntry {
    index: usize,
    action: WireAction,
}

/// The bot's answer to `hello`.
#[derive(Deserialize)]
struct BotHello {
    #[serde(rename = "type")]
    kind: String,
    name: String,
    version: String,
    #[serde(default)]
    protocol: Option<u32>,
}

/// The bot's answer to `act`.
#[derive(Deserialize)]
struct BotAnswer {
    #[serde(rename = "type")]
    kind: String,
    id: u64,
    #[serde(default)]
    index: Option<usize>,
    #[serde(default)]
    action: Option<WireAction>,
}

/// What the reader thread passes on.
enum FromBot {
    /// A line, without its end.
    Line(String),
    /// A line longer than [`MAX_LINE`] (skipped up to its end).
    TooLong,
    /// The bot's output is closed (it exited, or closed it), or could not be read.
    Closed,
}

/// The kinds of fault, as named on the wire and in reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Handshake,
    Crash,
    Timeout,
    Illegal,
    Malformed,
}

impl Kind {
    fn wire(self) -> &'static str {
        match self {
            Kind::Handshake => "handshake",
            Kind::Crash => "crash",
            Kind::Timeout => "timeout",
            Kind::Illegal => "illegal",
            Kind::Malformed => "malformed",
        }
    }
}

/// A running bot process.
struct Process {
    child: Child,
    /// Lines to write to the bot's input (a thread writes them, so a bot that stops reading
    /// cannot block the engine); dropping it closes the bot's input.
    to_bot: Option<mpsc::Sender<String>>,
    from_bot: mpsc::Receiver<FromBot>,
}

impl Process {
    /// Starts the program with its three streams piped; `label` prefixes its standard error.
    fn spawn(spec: &ExecSpec, label: String) -> Result<Process, String> {
        let mut child = Command::new(&spec.argv[0])
            .args(&spec.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", spec.command))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("cannot start `{}`: its streams are not piped", spec.command));
        };
        let (line_tx, line_rx) = mpsc::channel::<String>();
        std::thread::spawn(move || write_lines(stdin, line_rx));
        // Bounded: a bot that floods its output waits for the engine instead of filling memory.
        let (out_tx, out_rx) = mpsc::sync_channel(64);
        std::thread::spawn(move || read_lines(stdout, out_tx));
        std::thread::spawn(move || copy_stderr(stderr, &label));
        Ok(Process { child, to_bot: Some(line_tx), from_bot: out_rx })
    }

    /// Queues a message (a closed input is noticed when the output closes).
    fn send(&self, msg: &ToBot<'_>) {
        if let (Some(tx), Ok(line)) = (&self.to_bot, serde_json::to_string(msg)) {
            let _ = tx.send(line);
        }
    }

    /// The next line before `deadline`: `Ok(None)` on time-out.
    fn next(&self, deadline: Instant) -> Result<Option<FromBot>, ()> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.from_bot.recv_timeout(left) {
            Ok(m) => Ok(Some(m)),
            Err(mpsc::RecvTimeoutError::Timeout) => Ok(None),
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(()),
        }
    }

    /// Closes the bot's input, gives it [`EXIT_GRACE`] to exit, then kills it; reaps it.
    fn close(mut self) {
        self.to_bot = None;
        let until = Instant::now() + EXIT_GRACE;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Kills the bot at once and reaps it.
    fn kill(mut self) {
        self.to_bot = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// How the process ended, when it has (waiting a little for it to finish exiting).
    fn exit_status(&mut self) -> String {
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!("it exited ({status})"),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => return "it closed its output".into(),
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // Reached only when a process is dropped without `close`/`kill` (a panic elsewhere).
        if self.to_bot.is_some() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn write_lines(mut stdin: ChildStdin, lines: mpsc::Receiver<String>) {
    for line in lines {
        let ok =
            stdin.write_all(line.as_bytes()).and_then(|_| stdin.write_all(b"\n")).and_then(|_| stdin.flush());
        if ok.is_err() {
            return;
        }
    }
}

/// Reads one line of at most [`MAX_LINE`] bytes; `Ok(None)` at the end of the stream, `Err(())`
/// for a longer line (read up to its end and dropped).
fn bounded_line<R: BufRead>(reader: &mut R, buf: &mut Vec<u8>) -> std::io::Result<Option<Result<(), ()>>> {
    buf.clear();
    let n = reader.by_ref().take(MAX_LINE as u64 + 1).read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') || buf.len() <= MAX_LINE {
        while matches!(buf.last(), Some(b'\n' | b'\r')) {
            buf.pop();
        }
        return Ok(Some(Ok(())));
    }
    // Too long: skip the rest of the line.
    loop {
        buf.clear();
        let n = reader.by_ref().take(64 * 1024).read_until(b'\n', buf)?;
        if n == 0 || buf.last() == Some(&b'\n') {
            return Ok(Some(Err(())));
        }
    }
}

fn read_lines<R: Read>(stdout: R, out: mpsc::SyncSender<FromBot>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        let msg = match bounded_line(&mut reader, &mut buf) {
            Ok(Some(Ok(()))) => FromBot::Line(String::from_utf8_lossy(&buf).into_owned()),
            Ok(Some(Err(()))) => FromBot::TooLong,
            Ok(None) | Err(_) => {
                let _ = out.send(FromBot::Closed);
                return;
            }
        };
        if out.send(msg).is_err() {
            return;
        }
    }
}

fn copy_stderr<R: Read>(stderr: R, label: &str) {
    let mut reader = BufReader::new(stderr);
    let mut buf = Vec::new();
    while let Ok(Some(line)) = bounded_line(&mut reader, &mut buf) {
        let text = match line {
            Ok(()) => String::from_utf8_lossy(&buf).into_owned(),
            Err(()) => format!("(a line of more than {MAX_LINE} bytes, not shown)"),
        };
        // Not `eprintln!`, which panics when standard error is a closed pipe.
        let _ = writeln!(std::io::stderr().lock(), "[{label}] {text}");
    }
}

/// Where the bot is in its life.
enum Life {
    /// Not started yet: it starts at its first decision.
    NotStarted,
    /// Running, after a good handshake.
    Running(Process),
    /// Crashed or failed its handshake: the fallback plays every move.
    Dead,
    /// Told the game is over.
    Finished,
}

/// A bot played by an external program through the bot protocol (see the [module](self) docs).
///
/// ```
/// use wonders_bots::{Bot, bot_from_name};
/// // Building the bot starts nothing; the program starts at the first decision.
/// let bot = bot_from_name("exec:python3 examples/bots/random_bot.py:timeout=2s", 7).unwrap();
/// assert_eq!(bot.name(), "exec:python3 examples/bots/random_bot.py:timeout=2s");
/// assert_eq!(bot.faults().total(), 0);
/// ```
pub struct ExecBot {
    spec: ExecSpec,
    seed: u64,
    life: Life,
    fallback: HeuristicBot,
    faults: Faults,
    /// The id of the last decision asked.
    decision: u64,
    /// The bot's own name and version, after the handshake.
    hello: Option<(String, String)>,
}

impl ExecBot {
    /// A bot running `spec`'s command; `seed` is passed in the handshake.
    pub fn new(spec: ExecSpec, seed: u64) -> ExecBot {
        ExecBot {
            spec,
            seed,
            life: Life::NotStarted,
            fallback: HeuristicBot::new(),
            faults: Faults::default(),
            decision: 0,
            hello: None,
        }
    }

    /// The name and version the program gave in its handshake (once it has started).
    pub fn hello(&self) -> Option<(&str, &str)> {
        self.hello.as_ref().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    fn label(&self, seat: u8) -> String {
        format!("seat {seat} exec:{}", self.spec.command)
    }

    /// Starts the program and shakes hands.
    fn start(&mut self, seat: u8, game: &GameKind) -> Result<Process, String> {
        let (process, hello) = handshake(&self.spec, self.label(seat), seat, game, self.seed)?;
        self.hello = Some(hello);
        Ok(process)
    }

    /// Asks the running program for decision `self.decision`.
    fn ask(&mut self, view: &View, legal: &[Action]) -> Result<Action, (Kind, String)> {
        let Life::Running(process) = &mut self.life else {
            return Err((Kind::Crash, "not running".into()));
        };
        // The game's own data: with an expansion (or a data file) it holds more cards, wonders
        // and islands than the edition's base catalog.
        let catalog = view.data.0;
        let id = self.decision;
        process.send(&ToBot::Act {
            id,
            seat: view.seat,
            view: WireView::from_view(catalog, view),
            legal: legal
                .iter()
                .enumerate()
                .map(|(index, a)| LegalEntry { index, action: WireAction::from_action(catalog, a) })
                .collect(),
        });
        let deadline = Instant::now() + self.spec.timeout;
        loop {
            let line = match process.next(deadline) {
                Ok(Some(FromBot::Line(line))) => line,
                Ok(Some(FromBot::TooLong)) => {
                    return Err((Kind::Malformed, format!("a line longer than {MAX_LINE} bytes")));
                }
                Ok(Some(FromBot::Closed)) | Err(()) => {
                    return Err((Kind::Crash, process.exit_status()));
                }
                Ok(None) => {
                    return Err((
                        Kind::Timeout,
                        format!("no answer within {} ms", self.spec.timeout.as_millis()),
                    ));
                }
            };
            match read_answer(&line, id, catalog, legal) {
                Answer::Stale => continue,
                Answer::Chosen(a) => return Ok(a),
                Answer::Malformed(why) => return Err((Kind::Malformed, why)),
                Answer::Illegal(why) => return Err((Kind::Illegal, why)),
            }
        }
    }

    /// Counts a fault, lets the fallback play, reports both.
    fn fault(&mut self, view: &View, legal: &[Action], kind: Kind, why: &str) -> Action {
        match kind {
            Kind::Handshake => self.faults.handshake += 1,
            Kind::Crash => self.faults.crash += 1,
            Kind::Timeout => self.faults.timeout += 1,
            Kind::Illegal => self.faults.illegal += 1,
            Kind::Malformed => self.faults.malformed += 1,
        }
        let action = self.fallback_move(view, legal);
        let played = WireAction::from_action(view.data.0, &action);
        let rest = match kind {
            Kind::Crash | Kind::Handshake => "; the fallback (heuristic) plays the rest of the game",
            _ => "",
        };
        // Written without `eprintln!`, which panics when standard error is a closed pipe.
        let _ = writeln!(
            std::io::stderr().lock(),
            "wonders: bot `{}` at seat {} (Age {}, turn {}, decision {}): {}: {why}; the fallback \
             (heuristic) played {}{rest}",
            self.spec.name(),
            view.seat,
            view.age,
            view.turn,
            self.decision,
            kind.wire(),
            serde_json::to_string(&played).unwrap_or_default(),
        );
        if let Life::Running(process) = &self.life {
            process.send(&ToBot::Fault {
                id: self.decision,
                fault: kind.wire(),
                message: why.to_string(),
                played,
            });
        }
        action
    }

    fn fallback_move(&mut self, view: &View, legal: &[Action]) -> Action {
        self.faults.fallback_moves += 1;
        self.fallback.choose(view, legal)
    }
}

/// What the engine's `hello` tells a bot of its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct GameKind {
    players: u8,
    edition: Edition,
    expansions: Expansions,
    teams: bool,
}

impl GameKind {
    /// The game a view belongs to.
    fn of_view(view: &View) -> GameKind {
        let edifice = if view.edifice.is_some() { Expansions::EDIFICE.0 } else { 0 };
        let armada = if view.armada.is_some() { Expansions::ARMADA.0 } else { 0 };
        GameKind {
            players: view.hand_sizes.len() as u8,
            edition: view.edition,
            expansions: Expansions(edifice | armada),
            teams: view.teams,
        }
    }

    /// The game a setup deals.
    fn of_setup(setup: &Setup) -> GameKind {
        GameKind {
            players: setup.players,
            edition: setup.edition,
            expansions: setup.expansions,
            teams: setup.teams,
        }
    }
}

/// Starts `spec`'s program and shakes hands: sends `hello`, reads the bot's.
fn handshake(
    spec: &ExecSpec,
    label: String,
    seat: u8,
    game: &GameKind,
    seed: u64,
) -> Result<(Process, (String, String)), String> {
    let mut process = Process::spawn(spec, label)?;
    process.send(&ToBot::Hello {
        protocol: PROTOCOL_VERSION,
        engine: "wonders",
        engine_version: env!("CARGO_PKG_VERSION"),
        seat,
        players: game.players,
        edition: game.edition.code(),
        expansions: game.expansions.names(),
        teams: game.teams,
        seed,
        time_limit_ms: spec.timeout.as_millis() as u64,
    });
    let deadline = Instant::now() + spec.timeout.max(HANDSHAKE_TIMEOUT);
    let answer = match process.next(deadline) {
        Ok(Some(FromBot::Line(line))) => read_hello(&line),
        Ok(Some(FromBot::TooLong)) => Err(format!("its hello is longer than {MAX_LINE} bytes")),
        Ok(Some(FromBot::Closed)) | Err(()) => Err(format!("no hello: {}", process.exit_status())),
        Ok(None) => Err(format!("no hello within {} ms", spec.timeout.max(HANDSHAKE_TIMEOUT).as_millis())),
    };
    match answer {
        Ok(hello) => Ok((process, hello)),
        Err(e) => {
            process.kill();
            Err(e)
        }
    }
}

fn read_hello(line: &str) -> Result<(String, String), String> {
    let shown = shorten(line);
    let hello: BotHello = serde_json::from_str(line).map_err(|e| {
        format!(
            "its first line `{shown}` is not a hello ({e}); expected e.g. \
             {{\"type\":\"hello\",\"name\":\"my-bot\",\"version\":\"1.0\"}}"
        )
    })?;
    if hello.kind != "hello" {
        return Err(format!("its first line has type `{}`, not `hello`", hello.kind));
    }
    if let Some(p) = hello.protocol
        && p != PROTOCOL_VERSION
    {
        return Err(format!("it speaks protocol {p}; the engine speaks protocol {PROTOCOL_VERSION}"));
    }
    let name = hello.name.trim();
    if name.is_empty() || name.chars().count() > 64 || name.chars().any(char::is_control) {
        return Err("its name must have 1 to 64 characters, none a control character".into());
    }
    Ok((name.to_string(), hello.version))
}

/// A line cut to 200 characters for messages.
fn shorten(line: &str) -> String {
    if line.chars().count() > 200 {
        format!("{}…", line.chars().take(200).collect::<String>())
    } else {
        line.to_string()
    }
}

enum Answer {
    /// An answer to an earlier decision (after a time-out): skipped.
    Stale,
    Chosen(Action),
    Malformed(String),
    Illegal(String),
}

/// Reads an answer to decision `id`.
fn read_answer(line: &str, id: u64, catalog: &Catalog, legal: &[Action]) -> Answer {
    let shown = shorten(line);
    let value: serde_json::Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return Answer::Malformed(format!("`{shown}` is not JSON ({e})")),
    };
    if let Some(earlier) = value.get("id").and_then(serde_json::Value::as_u64)
        && earlier < id
    {
        return Answer::Stale;
    }
    let answer: BotAnswer = match serde_json::from_value(value) {
        Ok(a) => a,
        Err(e) => {
            return Answer::Malformed(format!(
                "`{shown}` is not an answer ({e}); expected {{\"type\":\"action\",\"id\":{id},\"index\":N}}"
            ));
        }
    };
    if answer.kind != "action" {
        return Answer::Malformed(format!("the answer has type `{}`, not `action`", answer.kind));
    }
    if answer.id != id {
        return Answer::Malformed(format!("the answer is for decision {}, not {id}", answer.id));
    }
    let by_index = match answer.index {
        Some(i) if i < legal.len() => Some(legal[i]),
        Some(i) => return Answer::Illegal(format!("index {i} is out of range (0 to {})", legal.len() - 1)),
        None => None,
    };
    let by_action = match &answer.action {
        Some(wire) => match match_legal(wire, catalog, legal) {
            Ok(a) => Some(a),
            Err(e) => return Answer::Illegal(e),
        },
        None => None,
    };
    match (by_index, by_action) {
        (Some(a), Some(b)) if a != b => Answer::Illegal(format!(
            "index {} and the action given are different legal actions",
            answer.index.unwrap_or_default()
        )),
        (Some(a), _) | (None, Some(a)) => Answer::Chosen(a),
        (None, None) => Answer::Malformed("the answer gives neither `index` nor `action`".into()),
    }
}

/// The legal action a wire action names. A card whose name is shared by two Ages (Loom, Press,
/// Glassworks) given without `age` is the one among the legal actions.
fn match_legal(wire: &WireAction, catalog: &Catalog, legal: &[Action]) -> Result<Action, String> {
    let action = wire.to_action(catalog).map_err(|e| e.to_string())?;
    if legal.contains(&action) {
        return Ok(action);
    }
    let same_name = |a: &Action| match (a.card(), action.card()) {
        (Some(x), Some(y)) => catalog.card(x).name_id == catalog.card(y).name_id,
        _ => false,
    };
    let same_kind = |a: &Action| std::mem::discriminant(a) == std::mem::discriminant(&action);
    legal
        .iter()
        .find(|a| same_kind(a) && same_name(a) && a.payment() == action.payment())
        .copied()
        .ok_or_else(|| {
            format!(
                "{} is not among the {} legal actions",
                serde_json::to_string(wire).unwrap_or_default(),
                legal.len()
            )
        })
}

impl Bot for ExecBot {
    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        if legal.is_empty() {
            return Action::Pass;
        }
        self.decision += 1;
        if matches!(self.life, Life::NotStarted) {
            match self.start(view.seat, &GameKind::of_view(view)) {
                Ok(process) => self.life = Life::Running(process),
                Err(why) => {
                    self.life = Life::Dead;
                    return self.fault(view, legal, Kind::Handshake, &why);
                }
            }
        }
        if !matches!(self.life, Life::Running(_)) {
            return self.fallback_move(view, legal);
        }
        match self.ask(view, legal) {
            Ok(action) => action,
            Err((kind, why)) => {
                if kind == Kind::Crash
                    && let Life::Running(process) = std::mem::replace(&mut self.life, Life::Dead)
                {
                    process.kill();
                }
                self.fault(view, legal, kind, &why)
            }
        }
    }

    fn name(&self) -> String {
        self.spec.name()
    }

    fn faults(&self) -> Faults {
        self.faults
    }

    /// Sends `game_over`, closes the program's input and waits for it to exit (killing it after
    /// a second).
    fn game_over(&mut self, end: &GameEnd<'_>) {
        if let Life::Running(process) = std::mem::replace(&mut self.life, Life::Finished) {
            let view = end.view();
            process.send(&ToBot::GameOver {
                seat: view.seat,
                view: WireView::from_view(view.data.0, &view),
                scores: end.scores(),
                ranks: end.ranks(),
            });
            process.close();
        }
    }
}

impl Drop for ExecBot {
    fn drop(&mut self) {
        if let Life::Running(process) = std::mem::replace(&mut self.life, Life::Finished) {
            process.close();
        }
    }
}

/// Starts the external bot `name` (`exec:…`), shakes hands as the engine would for seat 0 of a
/// game of `setup` (its players, edition, expansions and teams; seed 0), then closes its input:
/// the bot's name and version, or why it cannot play. Used to refuse a broken command before a
/// game starts.
///
/// ```no_run
/// use wonders_core::{Expansions, Setup};
/// let setup = Setup { expansions: Expansions::ARMADA, ..Setup::new(4, 0) };
/// let (name, version) =
///     wonders_bots::exec::probe("exec:python3 examples/bots/random_bot.py", &setup).unwrap();
/// assert_eq!((name.as_str(), version.as_str()), ("random_bot.py", "1.0"));
/// ```
pub fn probe(name: &str, setup: &Setup) -> Result<(String, String), String> {
    let rest = strip_exec(name).ok_or_else(|| format!("`{name}` is not an exec: bot"))?;
    let spec = ExecSpec::parse(rest)?;
    let game = GameKind::of_setup(setup);
    let (process, hello) = handshake(&spec, format!("check exec:{}", spec.command), 0, &game, 0)
        .map_err(|e| format!("bot `{}` failed its handshake: {e}", spec.name()))?;
    process.close();
    Ok(hello)
}
