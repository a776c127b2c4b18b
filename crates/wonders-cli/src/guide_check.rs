//! Checks of the README and the guide (`docs/src`) against the program they describe, run with the
//! unit tests of the `wonders` command:
//!
//! - every `wonders …` command line shown (also written `cargo run --release -- …`) parses with
//!   the command's own argument parser, and every example, test, bench, script or file a shown
//!   command names exists;
//! - the README shows the two commands of a fresh machine: the server, and the tests exactly as
//!   CI runs them;
//! - every relative link and image of the README and the guide points to an existing file and,
//!   with a `#fragment`, to a heading of that page; every page of the guide is in its table of
//!   contents;
//! - no text a user reads (README, guide, `--help`, the browser page) carries the project's
//!   internal words: issue numbers, work-log names, commit hashes, paths beside the repository.

use crate::Cli;
use clap::{CommandFactory, Parser as _};
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The repository's root (this crate is `crates/wonders-cli`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// README.md and every Markdown page of the guide, as (path, text).
fn documents() -> Vec<(PathBuf, String)> {
    let mut files = vec![root().join("README.md")];
    let mut dirs = vec![root().join("docs/src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files.into_iter().map(|p| (p.clone(), std::fs::read_to_string(&p).unwrap())).collect()
}

/// The lines of a document's shell code blocks (fenced `sh`, `bash` or `console`), with the line
/// continuations (`\` at the end of a line) joined, each with its line number in the file.
fn shell_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    // The block being read: whether it is shell, its text, and the offset where its text starts.
    let mut block: Option<(bool, String, Option<usize>)> = None;
    for (event, range) in Parser::new(text).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let lang = match &kind {
                    CodeBlockKind::Fenced(lang) => lang.split(',').next().unwrap_or("").trim().to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                block = Some((matches!(lang.as_str(), "sh" | "bash" | "console"), String::new(), None));
            }
            Event::Text(code) => {
                if let Some((_, body, start)) = block.as_mut() {
                    body.push_str(&code);
                    start.get_or_insert(range.start);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                let Some((true, body, Some(start))) = block.take() else { continue };
                let first_line = text[..start].matches('\n').count() + 1;
                let mut pending = String::new();
                let mut line_start = first_line;
                for (i, line) in body.lines().enumerate() {
                    if pending.is_empty() {
                        line_start = first_line + i;
                    }
                    match line.trim_end().strip_suffix('\\') {
                        Some(head) => {
                            pending.push_str(head);
                            pending.push(' ');
                        }
                        None => {
                            pending.push_str(line);
                            out.push((line_start, std::mem::take(&mut pending)));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// A shell line's words, up to its comment; `$(…)` is replaced by one word, as the shell would.
fn words(line: &str) -> Option<Vec<String>> {
    let mut line = line.trim().trim_start_matches("$ ").to_string();
    while let Some(start) = line.find("$(") {
        let end = line[start..].find(')').map(|e| start + e + 1)?;
        line.replace_range(start..end, "SUBSTITUTED");
    }
    let words = shlex::split(&line)?;
    let words = words.into_iter().take_while(|w| !w.starts_with('#'));
    // `a; b`: the `;` ends a command even when written against its word.
    Some(
        words
            .flat_map(|w| match w.strip_suffix(';') {
                Some(head) if !head.is_empty() => vec![head.to_string(), ";".to_string()],
                _ => vec![w],
            })
            .collect(),
    )
}

/// What a shown command line asks of the repository.
#[derive(Debug, PartialEq)]
enum Shown {
    /// The `wonders` command with these arguments.
    Wonders(Vec<String>),
    /// A file that must exist (an example, a test, a bench, a script), and why.
    File(PathBuf, String),
}

/// Whether a shell word is a variable assignment (`NAME=value`).
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Reads one shell line: the `wonders` command lines and the files the other commands name.
fn shown(words: &[String]) -> Vec<Shown> {
    let mut out = Vec::new();
    // Commands joined with `&&`, `||`, `;` or a pipe, or sent to the background with `&`, are read
    // one by one; leading variable assignments (`RUST_LOG=debug wonders …`) are the shell's.
    for cmd in words.split(|w| matches!(w.as_str(), "&&" | "||" | "|" | ";" | "&")) {
        let cmd = &cmd[cmd.iter().take_while(|w| is_assignment(w)).count()..];
        let Some(first) = cmd.first() else { continue };
        let arg = |flag: &str| cmd.iter().position(|w| w == flag).and_then(|i| cmd.get(i + 1)).cloned();
        let package = arg("-p").or_else(|| arg("--package"));
        if first == "wonders" || first == "target/release/wonders" {
            out.push(Shown::Wonders(cmd[1..].to_vec()));
        } else if first == "cargo" && matches!(cmd.get(1).map(String::as_str), Some("run" | "test" | "bench"))
        {
            let dir = package.map(|p| format!("crates/{p}")).unwrap_or_else(|| "crates/wonders-cli".into());
            if let Some(example) = arg("--example") {
                out.push(Shown::File(format!("{dir}/examples/{example}.rs").into(), "example".into()));
            } else if let Some(bench) = arg("--bench") {
                out.push(Shown::File(format!("{dir}/benches/{bench}.rs").into(), "bench".into()));
            } else if cmd[1] == "run" {
                let at = cmd.iter().position(|w| w == "--").map_or(cmd.len(), |i| i + 1);
                out.push(Shown::Wonders(cmd[at..].to_vec()));
            }
            if cmd[1] == "test" {
                for (i, w) in cmd.iter().enumerate() {
                    if w == "--test" {
                        let name = &cmd[i + 1];
                        out.push(Shown::File(format!("{dir}/tests/{name}.rs").into(), "test".into()));
                    }
                }
            }
        } else if matches!(first.as_str(), "bash" | "python" | "python3") {
            if let Some(script) = cmd.get(1).filter(|s| s.contains('/')) {
                out.push(Shown::File(script.into(), "script".into()));
            }
        } else if first.starts_with("scripts/") {
            out.push(Shown::File(first.into(), "script".into()));
        }
    }
    out
}

#[test]
fn shell_lines_join_continuations_and_words_drop_comments() {
    let text = "# T\n\n```sh\ncargo run --release -- arena --players 4 \\\n    --bots \"exec:python3 b.py,random\"   # four\nwonders play\n```\n\n```\nwonders nope\n```\n";
    let lines = shell_lines(text);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].0, 4);
    assert_eq!(lines[1], (6, "wonders play".to_string()));
    let w = words(&lines[0].1).unwrap();
    assert_eq!(
        w,
        ["cargo", "run", "--release", "--", "arena", "--players", "4", "--bots", "exec:python3 b.py,random"]
    );
    let s = shown(&w);
    assert_eq!(s, [Shown::Wonders(w[4..].to_vec())]);
    assert_eq!(
        shown(
            &words("cargo test -p wonders-core --test armada --test sample && bash .ci/python-tests")
                .unwrap()
        ),
        [
            Shown::File("crates/wonders-core/tests/armada.rs".into(), "test".into()),
            Shown::File("crates/wonders-core/tests/sample.rs".into(), "test".into()),
            Shown::File(".ci/python-tests".into(), "script".into()),
        ]
    );
    assert_eq!(words("wonders backup --db w.db /b/w-$(date +%F).db").unwrap()[4], "/b/w-SUBSTITUTED.db");
    let serve = |a: &str| Shown::Wonders(vec!["serve".into(), "--addr".into(), a.into()]);
    assert_eq!(
        shown(
            &words("RUST_LOG=info wonders serve --addr A & wonders serve --addr B; wonders serve --addr C &")
                .unwrap()
        ),
        [serve("A"), serve("B"), serve("C")]
    );
}

#[test]
fn every_command_line_shown_in_the_readme_and_the_guide_is_one_the_program_takes() {
    let mut parsed = 0;
    let mut errors = Vec::new();
    for (path, text) in documents() {
        let name = path.strip_prefix(root()).unwrap().display().to_string();
        for (line_no, line) in shell_lines(&text) {
            let Some(words) = words(&line) else {
                errors.push(format!("{name}:{line_no}: unbalanced quotes: {line}"));
                continue;
            };
            for item in shown(&words) {
                match item {
                    Shown::Wonders(args) => {
                        let argv = std::iter::once("wonders".to_string()).chain(args);
                        if let Err(e) = Cli::try_parse_from(argv) {
                            errors.push(format!("{name}:{line_no}: `{line}`:\n{}", e.render()));
                        }
                        parsed += 1;
                    }
                    Shown::File(file, what) => {
                        if !root().join(&file).exists() {
                            errors.push(format!(
                                "{name}:{line_no}: the {what} {} does not exist",
                                file.display()
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    // The guide shows the commands of every face: far more than a handful.
    assert!(parsed >= 40, "only {parsed} `wonders` command lines found in the README and the guide");
}

#[test]
fn the_readme_gives_the_main_job_and_the_test_command_that_ci_runs() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let commands: Vec<Vec<String>> = shell_lines(&readme).iter().filter_map(|(_, l)| words(l)).collect();
    let serve: Vec<String> = ["cargo", "run", "--release", "--", "serve"].map(String::from).to_vec();
    let tests: Vec<String> =
        ["cargo", "test", "--workspace", "&&", "bash", ".ci/python-tests"].map(String::from).to_vec();
    assert!(commands.contains(&serve), "the README shows no `cargo run --release -- serve`");
    assert!(
        commands.contains(&tests),
        "the README shows no `cargo test --workspace && bash .ci/python-tests`"
    );
    // CI runs the same: the Rust tests (with --locked) and the Python script.
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    let ci_lines: Vec<&str> = ci.lines().map(str::trim).filter(|l| !l.starts_with('#')).collect();
    assert!(ci_lines.contains(&"cargo test --workspace --locked"), ".ci/run does not run the README's tests");
    assert!(ci_lines.contains(&"bash .ci/python-tests"), ".ci/run does not run the Python tests");
}

/// mdBook's id of a heading (as GitHub's for the README): letters, digits, `_` and `-` kept and
/// lowercased, white space as `-`, everything else dropped.
fn heading_id(text: &str) -> String {
    text.chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_lowercase().next().unwrap_or(c))
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// The ids of a page's headings, the repeated ones numbered `-1`, `-2`, … as mdBook does.
fn heading_ids(text: &str) -> HashSet<String> {
    let mut ids = HashSet::new();
    let mut current: Option<String> = None;
    for event in Parser::new(text) {
        match event {
            Event::Start(Tag::Heading { .. }) => current = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(c) = current.as_mut() {
                    c.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let base = heading_id(&current.take().unwrap_or_default());
                let mut id = base.clone();
                let mut n = 1;
                while ids.contains(&id) {
                    id = format!("{base}-{n}");
                    n += 1;
                }
                ids.insert(id);
            }
            _ => {}
        }
    }
    ids
}

/// Every link and image destination of a page.
fn links(text: &str) -> Vec<String> {
    Parser::new(text)
        .filter_map(|e| match e {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                Some(dest_url.to_string())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn heading_ids_follow_mdbook() {
    let ids = heading_ids(
        "# Playing in the terminal: `wonders play`\n\n## A turn\n\n## A turn\n\n### Ties of team totals, 2×\n",
    );
    let want: HashSet<String> =
        ["playing-in-the-terminal-wonders-play", "a-turn", "a-turn-1", "ties-of-team-totals-2"]
            .map(String::from)
            .into();
    assert_eq!(ids, want);
    assert_eq!(
        links("See [a](b.md#c) and ![i](img/x.png), <https://x.org>."),
        ["b.md#c", "img/x.png", "https://x.org"]
    );
}

#[test]
fn every_relative_link_of_the_readme_and_the_guide_resolves() {
    let mut errors = Vec::new();
    let docs = documents();
    for (path, text) in &docs {
        let name = path.strip_prefix(root()).unwrap().display().to_string();
        let dir = path.parent().unwrap();
        let mut targets = links(text);
        // mdBook's includes: {{#include FILE}} (relative to the page).
        for piece in text.split("{{#include ").skip(1) {
            targets.push(piece.split("}}").next().unwrap().split(':').next().unwrap().trim().to_string());
        }
        for target in targets {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, fragment) = target.split_once('#').unwrap_or((&target, ""));
            let file_path = if file.is_empty() { path.clone() } else { dir.join(file) };
            if !file_path.exists() {
                errors.push(format!("{name}: link to {target}: no such file"));
                continue;
            }
            if !fragment.is_empty() {
                let page = std::fs::read_to_string(&file_path).unwrap_or_default();
                if !heading_ids(&page).contains(fragment) {
                    errors.push(format!("{name}: link to {target}: no heading with that id"));
                }
            }
        }
    }
    // Every page of the guide is in its table of contents.
    let summary_path = root().join("docs/src/SUMMARY.md");
    let summary = std::fs::read_to_string(&summary_path).unwrap();
    let listed: HashSet<PathBuf> = links(&summary).iter().map(|l| root().join("docs/src").join(l)).collect();
    for (path, _) in &docs {
        if path.starts_with(root().join("docs/src")) && *path != summary_path && !listed.contains(path) {
            errors.push(format!("{} is not in docs/src/SUMMARY.md", path.display()));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// The internal words a user-facing text must not carry, found in `text`: issue numbers,
/// work-log names, commit hashes (7 to 40 hexadecimal digits mixing letters and digits), paths
/// that exist only beside the repository.
fn internal_words(text: &str, hashes: bool) -> Vec<String> {
    let mut found = Vec::new();
    let lower = text.to_lowercase();
    for (i, _) in lower.match_indices("issue") {
        let rest = lower[i + 5..].trim_start_matches([' ', '#']);
        if rest.starts_with(|c: char| c.is_ascii_digit()) {
            found.push(lower[i..(i + 12).min(lower.len())].to_string());
        }
    }
    for part in [
        "core-speed",
        "server-speed",
        "armada-speed",
        "search-speed",
        "../shared/",
        "shared/seeds",
        "shared/reference",
    ] {
        if lower.contains(part) {
            found.push(part.to_string());
        }
    }
    if hashes {
        for word in lower.split(|c: char| !c.is_ascii_alphanumeric()) {
            let hex = word.chars().all(|c| c.is_ascii_hexdigit());
            let letters = word.chars().any(|c| c.is_ascii_alphabetic());
            let digits = word.chars().any(|c| c.is_ascii_digit());
            if (7..=40).contains(&word.len()) && hex && letters && digits {
                found.push(word.to_string());
            }
        }
    }
    found
}

#[test]
fn internal_words_are_found() {
    assert_eq!(
        // Made of pieces, so that this file does not hold the words it tests for.
        internal_words(concat!("as iss", "ue 13 says, at 2f5", "154f (the core-", "speed-9 work)"), true),
        [concat!("iss", "ue 13 say"), concat!("core-", "speed"), concat!("2f5", "154f")]
    );
    assert!(internal_words("an issue of the magazine, 1234567 games, cafe, ../docs/x.md", true).is_empty());
}

#[test]
fn no_internal_words_in_the_readme_the_guide_the_help_or_the_page() {
    let mut errors = Vec::new();
    for (path, text) in documents() {
        for w in internal_words(&text, true) {
            errors.push(format!("{}: {w}", path.display()));
        }
    }
    let mut cmd = Cli::command();
    let mut helps = vec![("wonders --help".to_string(), cmd.render_long_help().to_string())];
    for sub in cmd.get_subcommands_mut() {
        helps.push((format!("wonders {} --help", sub.get_name()), sub.render_long_help().to_string()));
    }
    for (name, help) in helps {
        for w in internal_words(&help, true) {
            errors.push(format!("{name}: {w}"));
        }
    }
    for file in ["index.html", "app.js", "style.css"] {
        let text = std::fs::read_to_string(root().join("crates/wonders-server/static").join(file)).unwrap();
        for w in internal_words(&text, false) {
            errors.push(format!("crates/wonders-server/static/{file}: {w}"));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}
