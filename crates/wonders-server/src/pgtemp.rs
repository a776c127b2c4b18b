//! A throwaway PostgreSQL server for tests and measurements: a new cluster (`initdb`) in a
//! temporary directory, served on a free loopback port, stopped and deleted when dropped.
//!
//! The binaries are found on the `PATH`, in `WONDERS_PG_BIN`, or in Debian's
//! `/usr/lib/postgresql/VERSION/bin` (the `postgresql` package). PostgreSQL refuses to run as
//! root: as root, the cluster belongs to the `postgres` user (the package creates it) and every
//! command runs through `runuser -u postgres`. The server process is watched by a small shell
//! that stops it (fast shutdown) when the pipe from this process closes, so a test killed midway
//! leaves no server behind.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long the server may take to accept connections after a start.
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// A running (or stopped) throwaway cluster.
pub struct TempPostgres {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    /// The user every command runs as (`runuser -u`), when this process is root.
    run_as: Option<String>,
    /// The watching shell (its stdin is the pipe that stops the server when closed).
    server: Option<Child>,
    settings: Vec<(String, String)>,
}

/// Why no throwaway cluster could be started.
#[derive(Debug, thiserror::Error)]
pub enum TempPostgresError {
    /// The PostgreSQL binaries (`initdb`, `postgres`) are not installed.
    #[error(
        "PostgreSQL is not installed (no initdb and postgres on the PATH, in WONDERS_PG_BIN or in \
         /usr/lib/postgresql/*/bin): install Debian's `postgresql` package"
    )]
    NotInstalled,
    /// Something failed on the way (the message says what).
    #[error("starting a throwaway PostgreSQL: {0}")]
    Failed(String),
}

fn failed(what: impl std::fmt::Display) -> TempPostgresError {
    TempPostgresError::Failed(what.to_string())
}

/// The directory holding `initdb` and `postgres`, if PostgreSQL is installed.
pub fn bin_dir() -> Option<PathBuf> {
    let has_both = |d: &Path| d.join("initdb").is_file() && d.join("postgres").is_file();
    if let Some(d) = std::env::var_os("WONDERS_PG_BIN").map(PathBuf::from) {
        return has_both(&d).then_some(d);
    }
    if let Some(path) = std::env::var_os("PATH") {
        for d in std::env::split_paths(&path) {
            if has_both(&d) {
                // A link (Debian's wrappers) is followed to the version's own directory.
                let real = std::fs::canonicalize(d.join("initdb")).ok();
                return Some(real.and_then(|r| r.parent().map(Path::to_path_buf)).unwrap_or(d));
            }
        }
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .filter_map(|e| {
            let v = e.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            has_both(&bin).then_some((v, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, d)| d)
}

/// Whether tests run in CI (`CI` set to anything but `false` or empty): there a missing
/// PostgreSQL is a failure, elsewhere the PostgreSQL tests are skipped.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// The effective user id, from `id -u`.
fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

impl TempPostgres {
    /// A new cluster with the settings tests want (`fsync = off`: nothing of a throwaway
    /// cluster must survive a crash of the machine), started.
    pub fn start() -> Result<TempPostgres, TempPostgresError> {
        TempPostgres::start_with(&[("fsync", "off")])
    }

    /// A new cluster started with these `postgresql.conf` settings (`-c NAME=VALUE`), besides a
    /// loopback port and trust authentication for the `postgres` user.
    pub fn start_with(settings: &[(&str, &str)]) -> Result<TempPostgres, TempPostgresError> {
        let bin = bin_dir().ok_or(TempPostgresError::NotInstalled)?;
        let run_as = is_root().then(|| "postgres".to_string());
        let unique = format!(
            "wonders-pg-{}-{}",
            std::process::id(),
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos())
        );
        let dir = std::env::temp_dir().join(unique);
        std::fs::create_dir_all(&dir).map_err(|e| failed(format!("{}: {e}", dir.display())))?;
        let mut pg = TempPostgres {
            bin,
            dir,
            port: 0,
            run_as,
            server: None,
            settings: settings.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        };
        if let Some(user) = &pg.run_as {
            let status = Command::new("chown")
                .arg(format!("{user}:"))
                .arg(&pg.dir)
                .status()
                .map_err(|e| failed(format!("chown: {e}")))?;
            if !status.success() {
                return Err(failed(format!(
                    "this process is root and PostgreSQL refuses to run as root, but the `{user}` \
                     user cannot own {} (does it exist? Debian's postgresql package creates it)",
                    pg.dir.display()
                )));
            }
        }
        let initdb = pg
            .command("initdb")
            .args(["-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-locale", "-D"])
            .arg(pg.data())
            .output()
            .map_err(|e| failed(format!("initdb: {e}")))?;
        if !initdb.status.success() {
            return Err(failed(format!("initdb failed: {}", String::from_utf8_lossy(&initdb.stderr))));
        }
        pg.port = free_port()?;
        pg.start_server()?;
        Ok(pg)
    }

    /// A command of the cluster's binaries, run as the cluster's user.
    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        match &self.run_as {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--"]).arg(path);
                c
            }
            None => Command::new(path),
        }
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// Starts the server (again, after [`TempPostgres::stop`]) on the same port and data, and
    /// waits until it accepts connections.
    pub fn start_server(&mut self) -> Result<(), TempPostgresError> {
        if self.server.is_some() {
            return Ok(());
        }
        let mut postgres = format!(
            "'{}' -D '{}' -p {} -k '{}' -c listen_addresses=127.0.0.1 -c max_connections=200",
            self.bin.join("postgres").display(),
            self.data().display(),
            self.port,
            self.dir.display()
        );
        for (k, v) in &self.settings {
            postgres.push_str(&format!(" -c {k}={v}"));
        }
        // The shell stops the server when its stdin (our pipe) closes: on `stop`, on drop, and
        // when this process dies.
        let script = format!(
            "{postgres} >'{log}' 2>&1 </dev/null & pid=$!; cat >/dev/null; kill -INT $pid; wait $pid",
            log = self.dir.join("server.log").display()
        );
        let mut shell = match &self.run_as {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--", "sh", "-c", &script]);
                c
            }
            None => {
                let mut c = Command::new("sh");
                c.args(["-c", &script]);
                c
            }
        };
        let child = shell
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| failed(format!("starting postgres: {e}")))?;
        self.server = Some(child);
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            let ready = self
                .command("pg_isready")
                .args(["-q", "-h", "127.0.0.1", "-p", &self.port.to_string()])
                .status()
                .is_ok_and(|s| s.success());
            if ready {
                return Ok(());
            }
            let exited = self.server.as_mut().and_then(|c| c.try_wait().ok().flatten()).is_some();
            if exited || Instant::now() > deadline {
                self.server = None;
                let log = std::fs::read_to_string(self.dir.join("server.log")).unwrap_or_default();
                return Err(failed(format!("postgres did not start; its log:\n{log}")));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops the server (fast shutdown: open transactions are rolled back, connections cut) and
    /// waits until it has exited; the data stays for [`TempPostgres::start_server`].
    pub fn stop(&mut self) {
        if let Some(mut child) = self.server.take() {
            if let Some(mut stdin) = child.stdin.take() {
                let _ = stdin.flush();
            }
            let _ = child.wait();
        }
    }

    /// The port the server listens on (127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The URL of a database of the cluster (`postgres` is the one `initdb` made).
    pub fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{database}", self.port)
    }

    /// Creates a new, empty database and returns its URL.
    pub fn create_database(&self, name: &str) -> Result<String, TempPostgresError> {
        let out = self
            .command("createdb")
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", "postgres", name])
            .output()
            .map_err(|e| failed(format!("createdb: {e}")))?;
        if !out.status.success() {
            return Err(failed(format!("createdb {name}: {}", String::from_utf8_lossy(&out.stderr))));
        }
        Ok(self.url(name))
    }
}

impl Drop for TempPostgres {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A loopback port nothing listens on now.
fn free_port() -> Result<u16, TempPostgresError> {
    let listener =
        std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| failed(format!("a free port: {e}")))?;
    Ok(listener.local_addr().map_err(|e| failed(format!("a free port: {e}")))?.port())
}

/// For tests: a started cluster; `None` (with a note on stderr) when PostgreSQL is not installed
/// outside CI. In CI ([`in_ci`]) a missing PostgreSQL, like any failure to start it, panics.
pub fn for_tests() -> Option<TempPostgres> {
    match TempPostgres::start() {
        Ok(pg) => Some(pg),
        Err(TempPostgresError::NotInstalled) if !in_ci() => {
            eprintln!("SKIPPED: {}", TempPostgresError::NotInstalled);
            None
        }
        Err(e) => panic!("{e}"),
    }
}
