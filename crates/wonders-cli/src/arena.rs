//! `wonders arena`: bots against each other over many games, with win shares and their 95%
//! confidence intervals, mean points by category and mean rank.
//!
//! **Seating.** The list names one bot per seat. Games come in groups of N (N players): the games
//! of a group share one deal, and game `g` seats the bots with rotation `g mod N` — seat `s`
//! plays entry `(s + g) mod N` of the list — so over a group every entry plays every seat of the
//! same deal once (a duplicate format, which also cancels much of the luck of the deal). With a
//! number of games that is not a multiple of N, the last group is incomplete and the seats are
//! not quite balanced; the report says so.
//!
//! **Teams** (`--teams`, 4 or 6 players): entries 2k and 2k+1 of the list form a team and stay
//! together: the rotation moves by whole teams (seat `s` plays entry `(s + 2r) mod N`), so a group
//! is N/2 games in which every team plays every pair of team seats once. A bot's win is its
//! team's win (each seat has its team's rank), so parity is 2/N.
//!
//! **Seeds.** Group `k` deals from `game_seed(S, k)`; the bot at seat `s` of game `g` is seeded
//! with `bot_seed(game_seed(S, g), s)` (see [`crate::simulate`]). Games run in parallel and their
//! results are combined in game order, so with bots whose budgets are iterations (or no search at
//! all) a seed gives the same report whatever the number of threads.
//!
//! **A pool** (`--pool`, free-for-all only): instead of one list, P ≥ N different bots, and each
//! group of N games seats N different bots of the pool: the groups take every N-bot combination of
//! the pool in turn (C(P, N) of them, in an order shuffled by the seed), each combination seated
//! in a seeded order and rotated through the seats as above. After N·C(P, N) games every bot has
//! met every other equally often, on the same deals.
//!
//! **Statistics.** A bot named several times is one bot, reported over all its seats. Its win
//! share is the fraction of its seat-games it won (rank 1; a shared win counts as a win), so
//! parity is 1/N; the interval is the Wilson score interval at 95%.
//!
//! **Ratings.** Every bot also gets a Weng-Lin rating (mean, uncertainty, and the conservative
//! mean − 3σ) from every game it played, the games taken in game-index order whatever the order
//! the threads finished them: see [`ratings`].

mod ratings;

use crate::play::say;
use crate::simulate::{
    ExpansionArgs, Mean, bot_seed, edition_name, expansions_text, game_seed, parse_edition, progress_bar,
    setup_for, thread_pool,
};
use rayon::prelude::*;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;
use wonders_bots::{BOT_NAMES_HELP, Bot, Faults, bot_from_name, normalize_bot_name, play_out};
use wonders_core::score::Score;
use wonders_core::{Catalog, Edition, Setup};

/// Options of `wonders arena`.
#[derive(clap::Args, Debug)]
pub struct ArenaArgs {
    /// Players per game, 3 to 7; 2 plays the 1st edition's Free City variant; 8 with Armada.
    #[arg(long, short = 'p', value_name = "N", default_value_t = 4,
          value_parser = clap::value_parser!(u8).range(2..=8))]
    pub players: u8,
    /// Exactly N bots, comma-separated, one per seat of the first game (seats then rotate). A bot
    /// named several times is reported once. Bots: random, card-first (random, a card first),
    /// heuristic, search[:budget] (100 ms per move; a budget is <T>ms, <T>s or <N>it, plus :<K>t
    /// for K threads, e.g. search:200ms:2t), neural (a policy network, no search),
    /// exec:COMMAND[:timeout=<T>] for a program speaking
    /// the bot protocol (`wonders bot-protocol`; the command cannot hold a comma).
    #[arg(long, short = 'b', value_name = "LIST", required_unless_present = "pool", conflicts_with = "pool")]
    pub bots: Option<String>,
    /// Instead of --bots: N or more different bots, comma-separated; each group of N games seats N
    /// of them (every combination in turn, in a seeded order), so every bot meets every other and
    /// the ratings compare them all. Not with --teams.
    #[arg(long, value_name = "LIST")]
    pub pool: Option<String>,
    /// Number of games; a multiple of N gives every bot every seat equally often.
    #[arg(long, short = 'g', value_name = "G", default_value_t = 100,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Base seed of the deals and of the bots. Group k is dealt from S + k, so runs whose seeds
    /// are closer than their number of groups share deals; for independent runs take seeds far
    /// apart (1000000, 2000000).
    #[arg(long, short = 's', value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Games played at once [default: all cores; at most 4 per core].
    #[arg(long, short = 't', value_name = "T", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// The edition: 1e (random boards and sides) or 2e (random boards, the bots choose sides).
    #[arg(long, short = 'e', value_name = "EDITION", default_value = "1e", value_parser = parse_edition)]
    pub edition: Edition,
    /// Print the report as JSON: `games`, and per bot `name`, `seats`, `games` (games played),
    /// `seat_games`, `wins`, `win_share`, `win_share_ci`, `mean` (points by category), `mean_rank`,
    /// `rating`, `sigma` and `conservative_rating` (Weng-Lin: rating − 3σ), `faults` (external
    /// bots' faults by kind and the moves their fallback played).
    #[arg(long)]
    pub json: bool,
    /// Draw each bot's distribution of total scores into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Expansions and their data.
    #[command(flatten)]
    pub exp: ExpansionArgs,
}

/// The list entry playing `seat` in a game with rotation `rotation` among `n` seats.
pub(crate) fn entry_at(seat: usize, rotation: usize, n: usize) -> usize {
    (seat + rotation) % n
}

/// The 95% Wilson score interval of `wins` successes in `n` trials (z = 1.96).
pub(crate) fn wilson(wins: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let (n, p) = (n as f64, wins as f64 / n as f64);
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // Exact bounds at the ends (the formula gives them up to rounding).
    let lo = if wins == 0 { 0.0 } else { (centre - half).max(0.0) };
    let hi = if wins as f64 == n { 1.0 } else { (centre + half).min(1.0) };
    (lo, hi)
}

/// Splits a `--bots` list, refusing a wrong count or an unknown name before anything runs.
pub(crate) fn parse_list(list: &str, players: usize) -> Result<Vec<String>, String> {
    let names: Vec<String> = list.split(',').map(normalize_bot_name).collect();
    if names.len() != players {
        return Err(format!(
            "--bots lists {} bot{} for {players} players: give exactly one per seat, comma-separated \
             (e.g. heuristic,random,random)",
            names.len(),
            if names.len() == 1 { "" } else { "s" }
        ));
    }
    for name in &names {
        if name.is_empty() {
            return Err(format!("--bots has an empty name; known bots: {BOT_NAMES_HELP}"));
        }
        bot_from_name(name, 0)?;
    }
    Ok(names)
}

/// The most bots a `--pool` may hold (C(16, 8) = 12,870 combinations at most).
const MAX_POOL: usize = 16;

/// Splits a `--pool` list, refusing an unknown name, a bot named twice, or fewer bots than seats
/// (each game seats different bots) before anything runs.
pub(crate) fn parse_pool(list: &str, players: usize) -> Result<Vec<String>, String> {
    let names: Vec<String> = list.split(',').map(normalize_bot_name).collect();
    for (i, name) in names.iter().enumerate() {
        if name.is_empty() {
            return Err(format!("--pool has an empty name; known bots: {BOT_NAMES_HELP}"));
        }
        bot_from_name(name, 0)?;
        if names[..i].contains(name) {
            return Err(format!(
                "--pool names `{name}` twice: a pool lists different bots (to seat a bot several times, \
                 use --bots)"
            ));
        }
    }
    if names.len() < players {
        return Err(format!(
            "--pool has {} bot{} for {players} players: each game seats {players} different bots of \
             the pool, so give at least {players} (or use --bots to seat a bot several times)",
            names.len(),
            if names.len() == 1 { "" } else { "s" }
        ));
    }
    if names.len() > MAX_POOL {
        return Err(format!("--pool has {} bots: at most {MAX_POOL}", names.len()));
    }
    Ok(names)
}

/// Every combination of `n` of `p` items (indices), in lexicographic order.
pub(crate) fn combinations(p: usize, n: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if n > p {
        return out;
    }
    let mut c: Vec<usize> = (0..n).collect();
    loop {
        out.push(c.clone());
        // The rightmost index that can still move right, then everything after it packed behind.
        let Some(i) = (0..n).rev().find(|&i| c[i] < p - n + i) else {
            return out;
        };
        c[i] += 1;
        for j in i + 1..n {
            c[j] = c[j - 1] + 1;
        }
    }
}

/// Who plays each group of games (the games sharing a deal).
#[derive(Clone, Debug)]
pub(crate) enum Lineup {
    /// `--bots`: the bot (an index among the distinct names) of each list entry, in every group.
    Fixed(Vec<usize>),
    /// `--pool`: the pool's combinations in the order the groups take them, and the seed of each
    /// group's seating.
    Pool { combinations: Vec<Vec<usize>>, seed: u64 },
}

/// Separates the pool's draws from the deals' and the bots' seeds.
const POOL_STREAM: u64 = 0x9E37_79B9_7F4A_7C15;

impl Lineup {
    /// A pool of `p` bots for `n` seats: every combination, in an order shuffled by `seed`.
    pub(crate) fn pool(p: usize, n: usize, seed: u64) -> Lineup {
        use rand::SeedableRng;
        use rand::seq::SliceRandom;
        let seed = game_seed(seed ^ POOL_STREAM, 0);
        let mut combinations = combinations(p, n);
        combinations.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
        Lineup::Pool { combinations, seed }
    }

    /// The bot of each list entry in group `k` (entry `e` sits at seat `e` in the group's first
    /// game, then the seats rotate).
    pub(crate) fn entries(&self, k: u64) -> Vec<usize> {
        use rand::SeedableRng;
        use rand::seq::SliceRandom;
        match self {
            Lineup::Fixed(entries) => entries.clone(),
            Lineup::Pool { combinations, seed } => {
                let mut entries = combinations[(k % combinations.len() as u64) as usize].clone();
                entries.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(game_seed(*seed, k + 1)));
                entries
            }
        }
    }
}

/// One seat of one finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SeatResult {
    /// Index of the bot among the distinct names.
    pub bot: usize,
    pub score: [i32; 12],
    pub rank: u8,
    /// An external bot's faults in this game.
    pub faults: Faults,
    /// Edifice: the game's projects completed, by Age (the same for every seat of a game).
    pub completed: [bool; 3],
}

/// Per-bot sums, in the order of the distinct names.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Tally {
    pub seat_games: u64,
    pub wins: u64,
    pub points: [i64; 12],
    pub rank_sum: u64,
    pub totals: Vec<i32>,
    pub faults: Faults,
}

/// Adds up seat results per bot.
pub(crate) fn tally(bots: usize, games: &[Vec<SeatResult>]) -> Vec<Tally> {
    let mut out = vec![Tally::default(); bots];
    for game in games {
        for r in game {
            let t = &mut out[r.bot];
            t.seat_games += 1;
            t.wins += (r.rank == 1) as u64;
            for (sum, v) in t.points.iter_mut().zip(r.score) {
                *sum += v as i64;
            }
            t.rank_sum += r.rank as u64;
            t.totals.push(r.score[11]);
            t.faults.add(&r.faults);
        }
    }
    out
}

/// One bot's line of the report.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct BotReport {
    name: String,
    /// Seats it held in each game it played.
    seats: usize,
    /// Games it played.
    games: u64,
    seat_games: u64,
    wins: u64,
    win_share: f64,
    win_share_ci: [f64; 2],
    mean: Mean,
    mean_rank: f64,
    /// Its Weng-Lin rating: the mean, its uncertainty, and the mean less three uncertainties.
    rating: f64,
    sigma: f64,
    conservative_rating: f64,
    faults: Faults,
}

/// The `--json` output.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct Report {
    games: u64,
    players: u8,
    edition: String,
    seed: u64,
    seconds: f64,
    /// `--pool`: each group of games seated `players` different bots of the pool.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pool: bool,
    bots: Vec<BotReport>,
    /// The team variant: entries 2k and 2k+1 played together; a win is the team's.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    teams: bool,
    /// Edifice: the share of games whose project of each Age was completed.
    #[serde(skip_serializing_if = "Option::is_none")]
    projects_completed: Option<[f64; 3]>,
    /// Set when the games use provisional data (Edifice's values, edifice.md §5).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    provisional: bool,
}

fn report_for(name: &str, seats: usize, t: &Tally, rating: &ratings::Rating, armada: bool) -> BotReport {
    let n = t.seat_games.max(1) as f64;
    let m = t.points.map(|p| p as f64 / n);
    let (lo, hi) = wilson(t.wins, t.seat_games);
    BotReport {
        name: name.to_string(),
        seats,
        games: rating.games,
        seat_games: t.seat_games,
        wins: t.wins,
        win_share: t.wins as f64 / n,
        win_share_ci: [lo, hi],
        mean: Mean::from_values(m, armada),
        mean_rank: t.rank_sum as f64 / n,
        rating: rating.mu,
        sigma: rating.sigma,
        conservative_rating: rating.conservative(),
        faults: t.faults,
    }
}

/// Games per deal: N, or N/2 in teams (the rotation moves by whole teams).
fn group_size(args: &ArenaArgs) -> usize {
    let n = args.players as usize;
    if args.exp.teams { n / 2 } else { n }
}

/// Plays game `g` and returns its seats' results.
fn play_game(
    catalog: &'static Catalog,
    args: &ArenaArgs,
    names: &[String],
    lineup: &Lineup,
    g: u64,
    legal: &mut Vec<wonders_core::Action>,
) -> Result<Vec<SeatResult>, String> {
    let n = args.players as usize;
    let group = group_size(args);
    let index_of = lineup.entries(g / group as u64);
    let deal = game_seed(args.seed, g / group as u64);
    let mut game = args.exp.game(catalog, setup_for(args.edition, args.players, deal))?;
    // In teams the rotation moves by whole teams, keeping each team's two entries together.
    let rotation = (g % group as u64) as usize * (n / group);
    let seed = game_seed(args.seed, g);
    let mut bots: Vec<Box<dyn Bot + Send>> = (0..n)
        .map(|seat| bot_from_name(&names[index_of[entry_at(seat, rotation, n)]], bot_seed(seed, seat)))
        .collect::<Result<_, _>>()?;
    play_out(&mut game, &mut bots, legal).map_err(|e| format!("game {g} (deal seed {deal}): {e}"))?;
    let scores = game.scores();
    let ranks = game.ranks();
    Ok((0..n)
        .map(|seat| SeatResult {
            bot: index_of[entry_at(seat, rotation, n)],
            score: scores[seat].values(),
            rank: ranks[seat],
            faults: bots[seat].faults(),
            completed: game
                .edifice()
                .map_or([false; 3], |e| e.outcome.map(|o| o == wonders_core::Outcome::Completed)),
        })
        .collect())
}

/// Runs `wonders arena`.
pub fn run(args: &ArenaArgs) -> Result<(), String> {
    let n = args.players as usize;
    let (list, pooled) = match (&args.bots, &args.pool) {
        (_, Some(_)) if args.exp.teams => {
            return Err("--pool plays free-for-all games: for teams, give the seats with --bots".into());
        }
        (None, Some(pool)) => (parse_pool(pool, n)?, true),
        (Some(bots), None) => (parse_list(bots, n)?, false),
        _ => return Err("give either --bots (one bot per seat) or --pool (a pool of bots)".into()),
    };
    // Refuse an impossible setup (2 players in the 2nd edition) before starting.
    let catalog = args.exp.catalog(args.edition)?;
    let setup = Setup {
        expansions: args.exp.expansions,
        teams: args.exp.teams,
        ..setup_for(args.edition, args.players, args.seed)
    };
    args.exp.game(catalog, setup.clone())?;
    // External bots shake hands as for the games to come (their expansions and teams).
    crate::botproto::probe_exec_bots(&list, &setup)?;
    let mut distinct: Vec<String> = Vec::new();
    let index_of: Vec<usize> = list
        .iter()
        .map(|name| match distinct.iter().position(|d| d == name) {
            Some(i) => i,
            None => {
                distinct.push(name.clone());
                distinct.len() - 1
            }
        })
        .collect();
    let seats: Vec<usize> = if pooled {
        vec![1; distinct.len()]
    } else {
        (0..distinct.len()).map(|b| index_of.iter().filter(|&&i| i == b).count()).collect()
    };
    let lineup = if pooled { Lineup::pool(distinct.len(), n, args.seed) } else { Lineup::Fixed(index_of) };
    let pool = thread_pool(args.threads)?;
    let threads = pool.current_num_threads();
    let progress = progress_bar(args.games);
    let start = Instant::now();
    let results: Result<Vec<Vec<SeatResult>>, String> = pool.install(|| {
        (0..args.games)
            .into_par_iter()
            .map_init(
                || Vec::with_capacity(128),
                |legal, g| {
                    let r = play_game(catalog, args, &distinct, &lineup, g, legal);
                    if let Some(pb) = &progress {
                        pb.inc(1);
                    }
                    r
                },
            )
            .collect()
    });
    if let Some(pb) = &progress {
        pb.finish_and_clear();
    }
    let results = results?;
    let seconds = start.elapsed().as_secs_f64();
    let tallies = tally(distinct.len(), &results);
    // In game-index order (`results` is), so the threads' timing never changes a rating.
    let ratings = ratings::rate(distinct.len(), &results, args.exp.teams);
    let edifice = args.exp.expansions.edifice();
    let mut completed = [0u64; 3];
    for game in &results {
        if let Some(first) = game.first() {
            for (c, done) in completed.iter_mut().zip(first.completed) {
                *c += done as u64;
            }
        }
    }
    let report = Report {
        games: args.games,
        players: args.players,
        edition: args.edition.code().to_string(),
        seed: args.seed,
        seconds,
        pool: pooled,
        bots: distinct
            .iter()
            .zip(&seats)
            .zip(tallies.iter().zip(&ratings))
            .map(|((name, &s), (t, r))| report_for(name, s, t, r, catalog.armada.is_some()))
            .collect(),
        teams: args.exp.teams,
        projects_completed: edifice.then(|| completed.map(|c| c as f64 / args.games as f64)),
        provisional: edifice,
    };
    if let Some(path) = &args.plot {
        plot(path, &distinct, &tallies)?;
    }
    // Written at once, and quietly cut short when the reader has gone (`… | head`).
    let mut out = std::io::stdout().lock();
    if args.json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        return crate::play::emit(&mut out, &format!("{text}\n"));
    }
    let mut text = String::new();
    // The notes wrap at the width; the bots' names (an external bot's command) and the tables
    // stay whole.
    let width = crate::output::width();
    let head = format!(
        "{} games of {n} players, {}{}{} (seed {}, {threads} thread{}), {seconds:.1} s",
        args.games,
        edition_name(args.edition),
        expansions_text(args.exp.expansions),
        if args.exp.teams { ", in teams" } else { "" },
        args.seed,
        if threads == 1 { "" } else { "s" },
    );
    say!(text, "{}", crate::play::wrap(&head, width));
    if pooled {
        let line = format!(
            "pool: {}; each group of {n} games seats {n} of them (every combination in turn)",
            list.join(", ")
        );
        say!(text, "{}", crate::play::wrap(&line, width));
    } else {
        say!(text, "seats of the first game: {}", list.join(", "));
    }
    if args.exp.teams {
        let teams: Vec<String> = list.chunks(2).map(|t| t.join("+")).collect();
        let line =
            format!("teams (seats 2k and 2k+1, kept together): {}; a win is the team's", teams.join(", "));
        say!(text, "{}", crate::play::wrap(&line, width));
    }
    let group = group_size(args) as u64;
    if let Lineup::Pool { combinations, .. } = &lineup {
        let cycle = group * combinations.len() as u64;
        if !args.games.is_multiple_of(cycle) {
            let line = format!(
                "note: {} games is not a multiple of {cycle} ({group} seatings of each of the pool's {} \
                 combinations): the bots have not all met equally often",
                args.games,
                combinations.len()
            );
            say!(text, "{}", crate::play::wrap(&line, width));
        }
    } else if !args.games.is_multiple_of(group) {
        say!(
            text,
            "note: {} games is not a multiple of {group}: the seats of the last {} are unbalanced",
            args.games,
            args.games % group
        );
    }
    say!(
        text,
        "win share: games won (a shared win counts) per seat-game; parity is {:.1}%",
        100.0 / group_size(args) as f64
    );
    let armada = catalog.armada.is_some();
    let shown: Vec<usize> =
        Score::shown(armada).filter(|&i| edifice || Score::CATEGORIES[i] != "edifice").collect();
    text.push_str(&bot_tables(&report.bots, &shown, width));
    text.push_str(&rating_table(&report.bots, width));
    for b in report.bots.iter().filter(|b| b.faults.total() > 0) {
        say!(text, "faults of {}: {}", b.name, b.faults.describe());
    }
    if let Some(done) = report.projects_completed {
        say!(
            text,
            "great projects completed (provisional data): Age I {:.1}%, II {:.1}%, III {:.1}%",
            done[0] * 100.0,
            done[1] * 100.0,
            done[2] * 100.0
        );
    }
    if let Some(path) = &args.plot {
        say!(text, "score distributions drawn in {}", path.display());
    }
    crate::play::emit(&mut out, &text)
}

/// The bots' results within `width` columns: one table with the win shares, the mean rank and
/// the mean points of each category in `shown` when it fits (a wide terminal); otherwise the win
/// shares in one table and the mean points by category in a second one (full category names
/// when they fit, short ones otherwise).
fn bot_tables(bots: &[BotReport], shown: &[usize], width: usize) -> String {
    let fits = |t: &str| t.lines().all(|l| crate::output::display_width(l) <= width);
    let wins = |b: &BotReport| {
        vec![
            b.name.clone(),
            b.seats.to_string(),
            b.seat_games.to_string(),
            b.wins.to_string(),
            format!(
                "{:.1}% [{:>4.1}, {:>4.1}]",
                100.0 * b.win_share,
                100.0 * b.win_share_ci[0],
                100.0 * b.win_share_ci[1]
            ),
            format!("{:.2}", b.mean_rank),
        ]
    };
    let win_head = ["bot", "seats", "seat-games", "wins", "win share (95% CI)", "rank"].map(String::from);
    let means = |b: &BotReport| {
        let values = b.mean.values();
        shown.iter().map(|&i| format!("{:.2}", values[i])).collect::<Vec<_>>()
    };
    let heads = |short: bool| {
        shown.iter().map(move |&i| {
            let c = Score::CATEGORIES[i];
            if short { crate::output::short_category(c) } else { c }.to_string()
        })
    };
    // One table, as wide as it takes.
    let mut rows = vec![win_head.iter().cloned().chain(heads(false)).collect::<Vec<_>>()];
    rows.extend(bots.iter().map(|b| wins(b).into_iter().chain(means(b)).collect()));
    let one = crate::output::aligned_with(&rows, 1);
    if fits(&one) {
        return format!("{one}\n");
    }
    let mut rows = vec![win_head.to_vec()];
    rows.extend(bots.iter().map(wins));
    let mut text = crate::output::aligned_with(&rows, 2);
    text.push_str("\nmean points by category:\n");
    let points = |short: bool, gap: usize| {
        let mut rows = vec![std::iter::once("bot".to_string()).chain(heads(short)).collect::<Vec<_>>()];
        rows.extend(bots.iter().map(|b| std::iter::once(b.name.clone()).chain(means(b)).collect()));
        crate::output::aligned_with(&rows, gap)
    };
    let table = [(false, 2), (true, 2), (true, 1)]
        .into_iter()
        .map(|(short, gap)| points(short, gap))
        .find(|t| fits(t))
        .unwrap_or_else(|| points(true, 1));
    text.push_str(&table);
    text.push('\n');
    text
}

/// The bots' ratings, best conservative rating first.
fn rating_table(bots: &[BotReport], width: usize) -> String {
    let mut order: Vec<&BotReport> = bots.iter().collect();
    order.sort_by(|a, b| b.conservative_rating.total_cmp(&a.conservative_rating));
    let mut rows = vec![["bot", "rating", "σ", "rating − 3σ", "games"].map(String::from).to_vec()];
    rows.extend(order.iter().map(|b| {
        vec![
            b.name.clone(),
            format!("{:.2}", b.rating),
            format!("{:.2}", b.sigma),
            format!("{:.2}", b.conservative_rating),
            b.games.to_string(),
        ]
    }));
    let head = "ratings (Weng-Lin, every game in order, from 25 ± 8.33; best rating − 3σ first):";
    format!("{}\n{}\n", crate::play::wrap(head, width), crate::output::aligned_with(&rows, 2))
}

/// Line colours, distinct on white (the "category10" palette): one per seat of the largest
/// game, 8 players with Armada (000 8人遊戲規則).
const COLOURS: [plotters::style::RGBColor; 8] = [
    plotters::style::RGBColor(31, 119, 180),
    plotters::style::RGBColor(214, 39, 40),
    plotters::style::RGBColor(44, 160, 44),
    plotters::style::RGBColor(148, 103, 189),
    plotters::style::RGBColor(255, 127, 14),
    plotters::style::RGBColor(140, 86, 75),
    plotters::style::RGBColor(227, 119, 194),
    plotters::style::RGBColor(23, 190, 207),
];

/// Draws each bot's distribution of total scores (share of its seat-games per 2-point bin).
fn plot(path: &Path, names: &[String], tallies: &[Tally]) -> Result<(), String> {
    use plotters::prelude::*;
    let fail = |e: &dyn std::fmt::Display| format!("drawing {}: {e}", path.display());
    let lo = tallies.iter().flat_map(|t| t.totals.iter()).copied().min().unwrap_or(0);
    let hi = tallies.iter().flat_map(|t| t.totals.iter()).copied().max().unwrap_or(1);
    let bin = 2;
    let (lo, hi) = (lo.div_euclid(bin) * bin - bin, hi.div_euclid(bin) * bin + 2 * bin);
    let series: Vec<Vec<(i32, f64)>> = tallies
        .iter()
        .map(|t| {
            let mut counts = vec![0u64; ((hi - lo) / bin + 1) as usize];
            for &v in &t.totals {
                counts[((v - lo) / bin) as usize] += 1;
            }
            let total = t.totals.len().max(1) as f64;
            counts
                .iter()
                .enumerate()
                .map(|(i, &c)| (lo + i as i32 * bin + bin / 2, c as f64 / total))
                .collect()
        })
        .collect();
    let top = series.iter().flatten().map(|p| p.1).fold(0.0, f64::max).max(0.01) * 1.1;
    let root = SVGBackend::new(path, (900, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Total score per seat-game", ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(lo..hi, 0.0..top)
        .map_err(|e| fail(&e))?;
    chart
        .configure_mesh()
        .x_desc("total points")
        .y_desc("share of seat-games (2-point bins)")
        .draw()
        .map_err(|e| fail(&e))?;
    for (i, (name, points)) in names.iter().zip(series).enumerate() {
        let colour = COLOURS[i % COLOURS.len()].to_rgba();
        let mean =
            tallies[i].totals.iter().map(|&v| v as f64).sum::<f64>() / tallies[i].totals.len().max(1) as f64;
        chart
            .draw_series(LineSeries::new(points, colour.stroke_width(2)))
            .map_err(|e| fail(&e))?
            .label(format!("{name} (mean {mean:.1})"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const NEW: ratings::Rating = ratings::Rating { mu: 25.0, sigma: 25.0 / 3.0, games: 4 };

    #[test]
    fn wilson_interval_known_values() {
        let (lo, hi) = wilson(50, 100);
        assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4, "{lo} {hi}");
        let (lo, hi) = wilson(0, 10);
        assert!(lo == 0.0 && (hi - 0.2775).abs() < 1e-4, "{lo} {hi}");
        let (lo, hi) = wilson(10, 10);
        assert!((lo - 0.7225).abs() < 1e-4 && hi == 1.0, "{lo} {hi}");
        let (lo, hi) = wilson(97, 100);
        assert!((lo - 0.9154).abs() < 1e-3 && (hi - 0.9897).abs() < 1e-3, "{lo} {hi}");
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }

    #[test]
    fn rotation_gives_every_entry_every_seat_once_per_group() {
        for n in 2..=8 {
            for seat in 0..n {
                let mut entries: Vec<usize> = (0..n).map(|r| entry_at(seat, r, n)).collect();
                entries.sort();
                assert_eq!(entries, (0..n).collect::<Vec<_>>());
            }
            // Rotation 0 seats the list in order.
            assert!((0..n).all(|s| entry_at(s, 0, n) == s));
        }
        assert_eq!(entry_at(0, 1, 4), 1);
        assert_eq!(entry_at(3, 1, 4), 0);
    }

    #[test]
    fn shared_wins_count_for_each_winner() {
        let r = |bot, total, rank| SeatResult {
            bot,
            score: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, total],
            rank,
            completed: [false; 3],
            faults: Faults::default(),
        };
        let games =
            vec![vec![r(0, 50, 1), r(1, 50, 1), r(1, 40, 3)], vec![r(0, 30, 3), r(1, 60, 1), r(1, 45, 2)]];
        let t = tally(2, &games);
        assert_eq!((t[0].seat_games, t[0].wins, t[0].rank_sum), (2, 1, 4));
        assert_eq!((t[1].seat_games, t[1].wins, t[1].rank_sum), (4, 2, 7));
        assert_eq!(t[0].points[11], 80);
        assert_eq!(t[1].totals, vec![50, 40, 60, 45]);
        let rep = report_for("b", 2, &t[1], &NEW, false);
        assert_eq!(rep.win_share, 0.5);
        assert_eq!(rep.mean_rank, 1.75);
        assert_eq!(rep.mean.total, 48.75);
    }

    fn args(players: u8, bots: &str, armada: bool) -> ArenaArgs {
        let mut exp = ExpansionArgs::default();
        if armada {
            exp.expansions = wonders_core::Expansions::ARMADA;
        }
        ArenaArgs {
            players,
            bots: Some(bots.into()),
            pool: None,
            games: 8,
            seed: 3,
            threads: Some(1),
            edition: Edition::First,
            json: true,
            plot: None,
            exp,
        }
    }

    #[test]
    fn eight_players_play_with_armada_and_each_bot_has_its_own_colour() {
        // 8 players only with Armada (000 8人遊戲規則).
        let eight = "random,random,random,random,random,random,random,random";
        run(&args(8, eight, true)).unwrap();
        let err = run(&args(8, eight, false)).unwrap_err();
        assert!(err.contains("8 with Armada"), "{err}");
        // The plot draws 8 bots in 8 distinct colours.
        let r = |bot, total| SeatResult {
            bot,
            score: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, total],
            rank: 1,
            completed: [false; 3],
            faults: Faults::default(),
        };
        let games = vec![(0..8).map(|b| r(b, 40 + b as i32)).collect::<Vec<_>>()];
        let tallies = tally(8, &games);
        let names: Vec<String> = (0..8).map(|b| format!("bot{b}")).collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("eight.svg");
        plot(&path, &names, &tallies).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        for c in COLOURS {
            let hex = format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
            assert!(svg.contains(&hex), "{hex} missing");
        }
        let distinct: std::collections::HashSet<_> = COLOURS.iter().map(|c| (c.0, c.1, c.2)).collect();
        assert_eq!(distinct.len(), 8);
    }

    #[test]
    fn a_wide_terminal_keeps_one_table_a_narrow_one_gets_two() {
        let t = Tally { seat_games: 4, wins: 1, rank_sum: 9, ..Tally::default() };
        let bots =
            [report_for("heuristic", 1, &t, &NEW, false), report_for("search:200ms:2t", 1, &t, &NEW, false)];
        let shown: Vec<usize> = Score::shown(false).filter(|&i| Score::CATEGORIES[i] != "edifice").collect();
        let wide = bot_tables(&bots, &shown, 200);
        assert_eq!(wide.lines().count(), 3, "{wide}");
        assert!(wide.lines().next().unwrap().contains("rank military treasury"), "{wide}");
        let narrow = bot_tables(&bots, &shown, 80);
        let lines: Vec<&str> = narrow.lines().collect();
        assert_eq!(lines.len(), 7, "{narrow}");
        assert!(lines[0].ends_with("win share (95% CI)  rank"), "{narrow}");
        assert_eq!(lines[3], "mean points by category:");
        assert!(lines[4].starts_with("bot") && lines[4].ends_with("guild  total"), "{narrow}");
        assert!(lines.iter().all(|l| l.len() <= 80), "{narrow}");
    }

    #[test]
    fn pools_are_checked() {
        assert_eq!(
            parse_pool("Random, heuristic,search:5it", 3).unwrap(),
            vec!["random", "heuristic", "search:5it"]
        );
        let err = parse_pool("random,heuristic", 3).unwrap_err();
        assert!(err.contains("2 bots for 3 players") && err.contains("at least 3"), "{err}");
        assert!(parse_pool("random,Random,heuristic", 3).unwrap_err().contains("names `random` twice"));
        assert!(parse_pool("random,oracle,heuristic", 3).unwrap_err().contains("unknown bot `oracle`"));
        assert!(parse_pool("random,,heuristic", 3).unwrap_err().contains("empty name"));
        let seventeen: Vec<String> = (1..=17).map(|k| format!("search:{k}it")).collect();
        assert!(parse_pool(&seventeen.join(","), 4).unwrap_err().contains("at most 16"));
    }

    #[test]
    fn combinations_are_all_there_once() {
        assert_eq!(
            combinations(4, 2),
            vec![vec![0, 1], vec![0, 2], vec![0, 3], vec![1, 2], vec![1, 3], vec![2, 3]]
        );
        assert_eq!(combinations(3, 3), vec![vec![0, 1, 2]]);
        assert!(combinations(2, 3).is_empty());
        // C(7, 4) = 35 and C(16, 8) = 12,870, each distinct and sorted.
        assert_eq!(combinations(7, 4).len(), 35);
        let big = combinations(16, 8);
        assert_eq!(big.len(), 12_870);
        let set: std::collections::HashSet<_> = big.iter().collect();
        assert_eq!(set.len(), big.len());
        assert!(big.iter().all(|c| c.windows(2).all(|w| w[0] < w[1])));
    }

    #[test]
    fn a_pool_seats_every_combination_once_per_cycle() {
        let lineup = Lineup::pool(6, 4, 9);
        // Over C(6, 4) = 15 groups each combination comes once, seated in some order; every pair
        // of bots meets in C(4, 2) = 6 of them.
        let groups: Vec<Vec<usize>> = (0..15).map(|k| lineup.entries(k)).collect();
        let mut sorted: Vec<Vec<usize>> = groups
            .iter()
            .map(|g| {
                let mut g = g.clone();
                g.sort();
                g
            })
            .collect();
        sorted.sort();
        assert_eq!(sorted, combinations(6, 4));
        for a in 0..6 {
            for b in a + 1..6 {
                let met = groups.iter().filter(|g| g.contains(&a) && g.contains(&b)).count();
                assert_eq!(met, 6, "{a} {b}");
            }
        }
        // The next cycle takes the combinations in the same order, the seat order drawn afresh;
        // and the same seed gives the same groups.
        let mut again = lineup.entries(15);
        again.sort();
        assert_eq!(again, sorted_first(&groups[0]));
        assert_eq!(Lineup::pool(6, 4, 9).entries(7), groups[7]);
        // Another seed, another order.
        assert_ne!((0..15).map(|k| Lineup::pool(6, 4, 10).entries(k)).collect::<Vec<_>>(), groups);
        // A fixed list is the same in every group.
        let fixed = Lineup::Fixed(vec![0, 1, 1]);
        assert_eq!((fixed.entries(0), fixed.entries(5)), (vec![0, 1, 1], vec![0, 1, 1]));
    }

    fn sorted_first(g: &[usize]) -> Vec<usize> {
        let mut g = g.to_vec();
        g.sort();
        g
    }

    #[test]
    fn lists_are_checked() {
        assert_eq!(
            parse_list(" Heuristic ,random,random", 3).unwrap(),
            vec!["heuristic", "random", "random"]
        );
        assert!(parse_list("heuristic,random", 3).unwrap_err().contains("exactly one per seat"));
        assert!(parse_list("heuristic,,random", 3).unwrap_err().contains("empty name"));
        assert!(parse_list("heuristic,oracle,random", 3).unwrap_err().contains("unknown bot `oracle`"));
    }
}
