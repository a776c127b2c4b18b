//! Reading a database's write-ahead log (`FILE-wal`) as SQLite does, to notice what SQLite would
//! silently ignore.
//!
//! SQLite reads a WAL file from its start and stops at the first frame that fails its checksum
//! (or at a header that is not valid: then it ignores the whole file); the committed
//! transactions before that point are used, everything after it is dropped without a word, and
//! the next write overwrites it. After a power loss that is the documented price of
//! `synchronous = NORMAL` (the last commits), but a WAL damaged in the middle (a disk error, a
//! bad copy, random bytes) loses every table and action committed after the damage, and a
//! server would start without them and with no warning. [`inspect`] tells the two apart: the
//! frames SQLite would drop matter when frames written after them, in the same generation of
//! the WAL (the same salts), are still in the file.
//!
//! The format (<https://www.sqlite.org/fileformat.html#the_write_ahead_log>): a 32-byte header
//! (magic number, version 3007000, page size, checkpoint sequence, two salts, a checksum of the
//! first 24 bytes), then frames of a 24-byte header (page number, database size after a commit
//! or 0, the two salts, a checksum chained from the previous frame's over the first 8 bytes of
//! the frame header and the page) and a page. A checkpoint that empties the WAL starts it again
//! from the top with new salts without shortening the file: frames of an older generation (other
//! salts) after the current ones are leftovers, not damage.

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::Duration;

const HEADER: usize = 32;
const FRAME_HEADER: usize = 24;
const VERSION: u32 = 3_007_000;

/// The path of a database's WAL file (`FILE-wal`).
pub fn wal_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_os_string();
    name.push("-wal");
    PathBuf::from(name)
}

/// What SQLite makes of a database's WAL file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WalState {
    /// The WAL file's size in bytes (0 when there is none).
    pub size: u64,
    /// Frames SQLite uses: those of the committed transactions before any damage.
    pub used_frames: u64,
    /// What SQLite would ignore of what was written, when the file is damaged.
    pub damage: Option<WalDamage>,
}

/// A damaged WAL file: SQLite ignores part of it, and the changes written there are lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalDamage {
    /// The WAL file.
    pub path: PathBuf,
    /// Its size in bytes.
    pub size: u64,
    /// Frames SQLite still uses (the committed transactions before the damage).
    pub used_frames: u64,
    /// Frames written after the damage in the same generation of the WAL, which SQLite ignores
    /// (none counted when the header itself is damaged: then the whole file is ignored).
    pub lost_frames: u64,
    /// How many of those end a transaction: the committed transactions lost.
    pub lost_commits: u64,
    /// What is wrong, in words.
    pub reason: String,
}

impl fmt::Display for WalDamage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the WAL file {} ({} bytes) is damaged: {}; ",
            self.path.display(),
            self.size,
            self.reason
        )?;
        if self.used_frames == 0 && self.lost_frames == 0 {
            write!(
                f,
                "SQLite ignores all of it, so every change made since the last checkpoint (tables, \
                 seats, actions) is missing from the database"
            )
        } else {
            write!(
                f,
                "SQLite uses its first {} frames and ignores the {} written after the damage ({} \
                 committed transactions): the tables, seats and actions they held are missing \
                 from the database",
                self.used_frames, self.lost_frames, self.lost_commits
            )
        }
    }
}

/// A WAL header that could be read.
struct Header {
    big_endian: bool,
    page_size: usize,
    salts: [u8; 8],
    checksum: (u32, u32),
}

fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

/// SQLite's WAL checksum over `data` (a multiple of 8 bytes), chained from `(s0, s1)`.
fn checksum(data: &[u8], big_endian: bool, (mut s0, mut s1): (u32, u32)) -> (u32, u32) {
    for chunk in data.chunks_exact(8) {
        let word = |b: &[u8]| {
            let b = [b[0], b[1], b[2], b[3]];
            if big_endian { u32::from_be_bytes(b) } else { u32::from_le_bytes(b) }
        };
        s0 = s0.wrapping_add(word(&chunk[..4])).wrapping_add(s1);
        s1 = s1.wrapping_add(word(&chunk[4..])).wrapping_add(s0);
    }
    (s0, s1)
}

/// The header, or why it is not valid.
fn header(h: &[u8; HEADER]) -> Result<Header, &'static str> {
    let big_endian = match be32(&h[0..4]) {
        0x377f_0682 => false,
        0x377f_0683 => true,
        _ => return Err("its header has no WAL magic number"),
    };
    if be32(&h[4..8]) != VERSION {
        return Err("its header names an unknown WAL version");
    }
    let page_size = be32(&h[8..12]) as usize;
    if !(512..=65536).contains(&page_size) || !page_size.is_power_of_two() {
        return Err("its header names an impossible page size");
    }
    let sum = checksum(&h[..24], big_endian, (0, 0));
    if sum != (be32(&h[24..28]), be32(&h[28..32])) {
        return Err("its header fails its checksum");
    }
    let mut salts = [0; 8];
    salts.copy_from_slice(&h[16..24]);
    Ok(Header { big_endian, page_size, salts, checksum: sum })
}

/// Reads as many bytes as fit in `buf`: fewer only at the end of the file.
fn read_full(file: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// One reading of the WAL file of `db`.
fn scan(db: &Path) -> io::Result<WalState> {
    let path = wal_path(db);
    let mut file = match File::open(&path) {
        Ok(f) => io::BufReader::with_capacity(1 << 16, f),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(WalState::default()),
        Err(e) => return Err(e),
    };
    let size = file.get_ref().metadata()?.len();
    if size == 0 {
        return Ok(WalState::default());
    }
    let damaged = |reason: String, used_frames, lost_frames, lost_commits| WalState {
        size,
        used_frames,
        damage: Some(WalDamage { path: path.clone(), size, used_frames, lost_frames, lost_commits, reason }),
    };
    let mut h = [0u8; HEADER];
    if read_full(&mut file, &mut h)? < HEADER {
        return Ok(damaged(format!("it is too short ({size} bytes) to hold a WAL header"), 0, 0, 0));
    }
    let header = match header(&h) {
        Ok(header) => header,
        Err(why) => return Ok(damaged(why.to_string(), 0, 0, 0)),
    };
    // The chain of valid frames, as SQLite reads it.
    let mut frame = vec![0u8; FRAME_HEADER + header.page_size];
    let mut sum = header.checksum;
    let (mut valid, mut used) = (0u64, 0u64);
    let mut broken: Option<(u64, &str)> = None;
    loop {
        let n = read_full(&mut file, &mut frame)?;
        if n < frame.len() {
            break;
        }
        let fh = &frame[..FRAME_HEADER];
        if fh[8..16] != header.salts || be32(&fh[0..4]) == 0 {
            broken = Some((valid, "has a frame header that is not valid"));
            break;
        }
        let next =
            checksum(&frame[FRAME_HEADER..], header.big_endian, checksum(&fh[..8], header.big_endian, sum));
        if next != (be32(&fh[16..20]), be32(&fh[20..24])) {
            broken = Some((valid, "fails its checksum"));
            break;
        }
        sum = next;
        valid += 1;
        if be32(&fh[4..8]) != 0 {
            used = valid;
        }
    }
    let Some((at, why)) = broken else {
        // The file ends (uncommitted frames at the end are a transaction that never committed).
        return Ok(WalState { size, used_frames: used, damage: None });
    };
    // The frames after the broken one that belong to this generation (its salts) were written
    // after it: they, and it, are lost. With none, the broken frame is the end of a write cut
    // short (a transaction that never committed), not damage.
    let broken_commit = frame[8..16] == header.salts && be32(&frame[4..8]) != 0;
    let (mut later, mut commits) = (0u64, u64::from(broken_commit));
    while read_full(&mut file, &mut frame)? == frame.len() {
        if frame[8..16] == header.salts {
            later += 1;
            commits += u64::from(be32(&frame[4..8]) != 0);
        }
    }
    if later == 0 {
        return Ok(WalState { size, used_frames: used, damage: None });
    }
    Ok(damaged(format!("frame {} {why}", at + 1), used, later + 1, commits))
}

/// What SQLite makes of the WAL file of database `db` (none, or an empty one: nothing to say).
///
/// A WAL that another process is writing may look damaged at the frame being written: a file
/// that looks damaged is read again a moment later, and only a damage found twice, at the same
/// frame in a file of the same size, is reported.
pub fn inspect(db: &Path) -> io::Result<WalState> {
    let mut last = scan(db)?;
    for _ in 0..5 {
        if last.damage.is_none() {
            return Ok(last);
        }
        std::thread::sleep(Duration::from_millis(50));
        let again = scan(db)?;
        if again == last {
            return Ok(again);
        }
        last = again;
    }
    Ok(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A WAL of `frames` (page number, commit size) with 512-byte pages, as SQLite writes it.
    fn wal(frames: &[(u32, u32)], salts: [u8; 8], big_endian: bool) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&(0x377f_0682u32 | u32::from(big_endian)).to_be_bytes());
        out.extend_from_slice(&VERSION.to_be_bytes());
        out.extend_from_slice(&512u32.to_be_bytes());
        out.extend_from_slice(&0u32.to_be_bytes());
        out.extend_from_slice(&salts);
        let mut sum = checksum(&out, big_endian, (0, 0));
        out.extend_from_slice(&sum.0.to_be_bytes());
        out.extend_from_slice(&sum.1.to_be_bytes());
        for (i, &(page, commit)) in frames.iter().enumerate() {
            let mut fh = Vec::new();
            fh.extend_from_slice(&page.to_be_bytes());
            fh.extend_from_slice(&commit.to_be_bytes());
            let data = vec![i as u8; 512];
            sum = checksum(&data, big_endian, checksum(&fh, big_endian, sum));
            fh.extend_from_slice(&salts);
            fh.extend_from_slice(&sum.0.to_be_bytes());
            fh.extend_from_slice(&sum.1.to_be_bytes());
            out.extend_from_slice(&fh);
            out.extend_from_slice(&data);
        }
        out
    }

    fn state(bytes: &[u8]) -> WalState {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("x.db");
        std::fs::write(wal_path(&db), bytes).unwrap();
        scan(&db).unwrap()
    }

    const FRAME: usize = FRAME_HEADER + 512;

    #[test]
    fn a_sound_wal_is_read_up_to_its_last_commit() {
        for big_endian in [false, true] {
            let bytes = wal(&[(1, 0), (2, 3), (3, 0), (1, 4), (2, 0)], *b"saltsalt", big_endian);
            let s = state(&bytes);
            assert_eq!((s.size, s.used_frames, s.damage), (bytes.len() as u64, 4, None));
        }
        assert_eq!(state(b""), WalState::default());
    }

    #[test]
    fn leftovers_of_an_older_generation_and_a_cut_write_are_not_damage() {
        // An older generation, longer, then a new one written over its start.
        let old = wal(&[(1, 1); 6], *b"aaaaaaaa", false);
        let new = wal(&[(1, 0), (2, 2)], *b"bbbbbbbb", false);
        let mut bytes = old.clone();
        bytes[..new.len()].copy_from_slice(&new);
        assert_eq!(state(&bytes).damage, None);
        assert_eq!(state(&bytes).used_frames, 2);
        // The last frame written but its page not (a write cut short).
        let mut cut = wal(&[(1, 1), (2, 0), (3, 3)], *b"cccccccc", false);
        let last = cut.len() - 10;
        cut[last] ^= 0xff;
        let s = state(&cut);
        assert_eq!((s.used_frames, s.damage), (1, None));
    }

    #[test]
    fn damage_before_later_frames_of_the_same_generation_is_reported() {
        let mut bytes = wal(&[(1, 1), (2, 2), (3, 0), (4, 4), (5, 5)], *b"dddddddd", false);
        // A byte of the second frame's page.
        bytes[HEADER + FRAME + 100] ^= 1;
        let d = state(&bytes).damage.expect("damaged");
        assert_eq!((d.used_frames, d.lost_frames, d.lost_commits), (1, 4, 3));
        assert_eq!(d.reason, "frame 2 fails its checksum");
        assert!(d.to_string().contains(&format!("({} bytes)", bytes.len())), "{d}");
        // Random bytes over a frame's header: the frames after it are lost too.
        let mut bytes = wal(&[(1, 1), (2, 2), (3, 3)], *b"ffffffff", false);
        bytes[HEADER + FRAME..HEADER + FRAME + FRAME_HEADER].copy_from_slice(&[0x5a; FRAME_HEADER]);
        let d = state(&bytes).damage.expect("damaged");
        assert_eq!((d.used_frames, d.lost_frames, d.lost_commits), (1, 2, 1));
        assert_eq!(d.reason, "frame 2 has a frame header that is not valid");
        // Random bytes over the header: the whole file is ignored.
        let mut bytes = wal(&[(1, 1), (2, 2)], *b"eeeeeeee", true);
        bytes[..16].copy_from_slice(b"0123456789abcdef");
        let d = state(&bytes).damage.expect("damaged");
        assert!(d.reason.contains("magic"), "{d}");
        assert!(d.to_string().contains("SQLite ignores all of it"), "{d}");
        // Too short for a header.
        assert!(state(&[7; 20]).damage.unwrap().reason.contains("too short"));
    }
}
