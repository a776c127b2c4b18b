//! The help of every command that takes bot names names every bot `wonders_bots` makes.

use std::process::Command;

fn help(cmd: &str) -> String {
    let out =
        Command::new(env!("CARGO_BIN_EXE_wonders")).args([cmd, "--help"]).output().expect("the binary runs");
    assert!(out.status.success(), "{cmd} --help");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn bot_lists_in_help_name_every_bot() {
    // `play --bots` and `arena --bots` take bot names; each help names all of them, in the
    // words of wonders_bots::BOT_NAMES (`search[:budget]`, `exec:COMMAND` for the patterns).
    for cmd in ["play", "arena"] {
        let text = help(cmd);
        for name in wonders_bots::BOT_NAMES {
            assert!(text.contains(name), "`wonders {cmd} --help` does not name `{name}`:\n{text}");
        }
    }
    // simulate's random players are two of those bots, named as such.
    let text = help("simulate");
    for name in ["`random`", "`card-first`"] {
        assert!(text.contains(name), "`wonders simulate --help` does not name {name}:\n{text}");
    }
}
