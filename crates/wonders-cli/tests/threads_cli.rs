//! `--threads` is clamped to 4 per core, with a message, in `simulate` and `arena`.

use std::process::Command;

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[test]
fn too_many_threads_are_clamped_with_a_message() {
    let max = cores() * 4;
    for args in [
        &["simulate", "--games", "4", "--threads", "65535"][..],
        &["arena", "--players", "3", "--bots", "random,random,random", "--games", "3", "--threads", "65535"]
            [..],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_wonders")).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stderr.contains(&format!(
                "--threads 65535 is more than this machine can use ({} cores); using {max}",
                cores()
            )),
            "{args:?}: {stderr}"
        );
        assert!(stdout.contains(&format!("{max} threads")), "{args:?}: {stdout}");
    }
}
