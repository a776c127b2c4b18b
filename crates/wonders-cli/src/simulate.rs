//! `wonders simulate`: many games of random legal play, their speed and their score statistics.
//!
//! Game `i` of a run with base seed `S` deals from [`game_seed`]`(S, i)` and its seat `s` plays
//! with a [`RandomBot`] seeded from [`bot_seed`]`(game seed, s)`, so a run depends only on `S`, the
//! edition, the player count and the number of games — never on the number of threads. Results are summed as
//! integers, an order-independent reduction, so every thread count prints the same statistics.

use crate::output::say;
use arrayvec::ArrayVec;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;
use wonders_bots::{CardFirstBot, RandomBot, play_out, play_out_card_first};
use wonders_core::score::Score;
use wonders_core::{Action, Catalog, Edition, Expansions, Game, Setup, WonderDeal};

/// The most seats a game has.
const MAX_SEATS: usize = 8;

/// Options of `wonders simulate`.
#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    /// Players per game, 3 to 7 (8 with Armada); 2 plays the 1st edition's Free City variant.
    #[arg(long, short = 'p', value_name = "N", default_value_t = 4,
          value_parser = clap::value_parser!(u8).range(2..=8))]
    pub players: u8,
    /// The edition: 1e (random boards and sides) or 2e (random boards, the bots choose sides).
    #[arg(long, short = 'e', value_name = "EDITION", default_value = "1e", value_parser = parse_edition)]
    pub edition: Edition,
    /// Number of games to play.
    #[arg(long, short = 'g', value_name = "G", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Base seed: game i's deal and its bots follow from (seed, i), whatever the thread count.
    #[arg(long, short = 's', value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Worker threads [default: all cores; at most 4 per core].
    #[arg(long, short = 't', value_name = "T", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// The random players: `uniform` draws among all the legal actions (each payment is an
    /// action: the `random` bot); `card-first` draws a card of the hand, then one of its actions
    /// (the `card-first` bot: a different distribution, about 1.6 times as fast, as only the drawn
    /// card's actions are worked out). For other bots, see `wonders arena`.
    #[arg(long, value_enum, default_value_t = Policy::Uniform)]
    pub policy: Policy,
    /// Print the statistics as JSON: `games`, `games_per_second`, `mean`, `win_share` (and with
    /// Edifice `projects_completed` and `provisional`; with `--policy card-first`, `policy`).
    #[arg(long)]
    pub json: bool,
    /// Expansions and their data.
    #[command(flatten)]
    pub exp: ExpansionArgs,
}

/// How the random players of `wonders simulate` choose.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly among all the legal actions (the `random` bot).
    #[default]
    Uniform,
    /// A card of the hand first, then one of its actions (the `card-first` bot).
    CardFirst,
}

impl Policy {
    /// The name `--policy` takes.
    const fn name(self) -> &'static str {
        match self {
            Policy::Uniform => "uniform",
            Policy::CardFirst => "card-first",
        }
    }
}

/// `--expansions` and `--data`, shared by `play`, `simulate` and `arena`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ExpansionArgs {
    /// Expansions to play, comma-separated: `edifice` (great projects, Ur and Carthage),
    /// `armada` (shipyards, islands, naval conflicts; 8 players with Armada), or both.
    #[arg(long, value_name = "LIST", default_value = "", value_parser = parse_expansions)]
    pub expansions: Expansions,
    /// A replacement data file, to fix provisional values without recompiling: an Edifice file
    /// (the format of crates/wonders-core/data/edifice.toml) or an Armada file (the format of
    /// armada.toml), told apart by their tables (an Armada file has `boards` and `[[islands]]`).
    /// Repeat the flag to replace both.
    #[arg(long, value_name = "FILE")]
    pub data: Vec<PathBuf>,
    /// The team variant (4, 6 or 8 players): seats 0+1, 2+3, … play together; land conflicts
    /// only against adjacent opponents with doubled tokens; the team with the highest sum wins.
    #[arg(long)]
    pub teams: bool,
}

/// Parses a comma-separated list of expansions (`edifice`, `armada`; empty for none).
pub(crate) fn parse_expansions(s: &str) -> Result<Expansions, String> {
    Expansions::parse(&s.split(',').collect::<Vec<_>>())
}

/// Whether a data file's text is Armada data (its `boards` and `[[islands]]` tables) rather than
/// Edifice data.
fn is_armada_file(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .any(|l| l == "[[islands]]" || l.starts_with("boards =") || l.starts_with("boards="))
}

impl ExpansionArgs {
    /// The data of the games: the edition's own, extended with Edifice's and Armada's when
    /// played, each replaced by a `--data` file when given. (Armada's catalog always carries the
    /// Edifice boards, so that 8 players have Carthage; they are dealt only with Edifice or 8
    /// players.)
    pub(crate) fn catalog(&self, edition: Edition) -> Result<&'static Catalog, String> {
        let (edifice, armada) = (self.expansions.edifice(), self.expansions.armada());
        let mut edifice_text = None;
        let mut armada_text = None;
        for path in &self.data {
            let text = crate::read_input(path)?;
            if is_armada_file(&text) {
                if !armada {
                    return Err(format!("{}: Armada data: add --expansions armada", path.display()));
                }
                armada_text = Some((path, text));
            } else {
                if !edifice {
                    return Err(format!(
                        "{}: --data replaces the Edifice data: add --expansions edifice",
                        path.display()
                    ));
                }
                edifice_text = Some((path, text));
            }
        }
        if edifice_text.is_none() && armada_text.is_none() {
            return Ok(match (edifice, armada) {
                (_, true) => Catalog::with_builtin_armada(edition, true),
                (true, false) => Catalog::extended(edition),
                (false, false) => Catalog::get(edition),
            });
        }
        let mut catalog = match &edifice_text {
            Some((path, text)) => Catalog::get(edition)
                .with_edifice_toml(text)
                .map_err(|e| format!("{}: {e}", path.display()))?,
            None if edifice || armada => Catalog::extended(edition).clone(),
            None => Catalog::get(edition).clone(),
        };
        if armada {
            let data = match &armada_text {
                Some((path, text)) => wonders_core::armada::ArmadaData::from_toml(text)
                    .map_err(|e| format!("{}: {e}", path.display()))?,
                None => wonders_core::armada::ArmadaData::builtin().clone(),
            };
            catalog = catalog.with_armada(&data).map_err(|e| format!("Armada data: {e}"))?;
        }
        // Read once per run; it lives as long as the process, like the built-in data.
        Ok(Box::leak(Box::new(catalog)))
    }

    /// A game of `setup` with these expansions on `catalog`.
    pub(crate) fn game(&self, catalog: &'static Catalog, setup: Setup) -> Result<Game, String> {
        self.setup_game(catalog, setup).map_err(|e| e.to_string())
    }

    /// [`ExpansionArgs::game`] with the engine's own error: a caller that plays the game inside
    /// the result saves two copies of a `Game` (about 6 KB) a game.
    fn setup_game(&self, catalog: &'static Catalog, setup: Setup) -> Result<Game, wonders_core::SetupError> {
        Game::with_catalog(catalog, &Setup { expansions: self.expansions, teams: self.teams, ..setup })
    }
}

/// Parses `1e` or `2e` (also `1`, `2`, `first`, `second`).
pub(crate) fn parse_edition(s: &str) -> Result<Edition, String> {
    Edition::parse(s).ok_or_else(|| format!("unknown edition `{s}`: 1e or 2e"))
}

/// `1st edition` or `2nd edition`.
pub(crate) fn edition_name(edition: Edition) -> &'static str {
    match edition {
        Edition::First => "1st edition",
        Edition::Second => "2nd edition",
    }
}

/// The setup of a game of `edition` as the rulebook deals it: in the 1st edition each drawn wonder
/// card gives a board and its side; in the 2nd each player draws a board and chooses its side.
pub(crate) fn setup_for(edition: Edition, players: u8, seed: u64) -> Setup {
    let wonders = match edition {
        Edition::First => WonderDeal::Random,
        Edition::Second => WonderDeal::RandomBoardsChooseSides,
    };
    Setup { edition, players, seed, wonders, expansions: Default::default(), teams: false }
}

/// SplitMix64's output function: a well-mixed 64-bit value for each input.
pub const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The deal seed of game `index` of a run with base seed `base`.
pub const fn game_seed(base: u64, index: u64) -> u64 {
    splitmix64(base.wrapping_add(index))
}

/// The seed of the bot at `seat` in the game dealt from `game_seed` (a different stream from the
/// deal's own seed, and from every other seat's).
pub const fn bot_seed(game_seed: u64, seat: usize) -> u64 {
    splitmix64(game_seed ^ 0xD1B5_4A32_D192_ED03_u64.wrapping_mul(seat as u64 + 1))
}

/// Integer sums over a set of games: exact, so any grouping of the games gives the same result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Totals {
    games: u64,
    /// Points per category of [`Score::CATEGORIES`], summed over every player of every game (the
    /// Free City of the 2-player variant is no player).
    points: [i64; 12],
    /// Edifice: projects completed, by Age.
    completed: [u64; 3],
    /// Games each seat won (shared wins count for each winner).
    wins: [u64; MAX_SEATS],
}

impl Totals {
    fn merge(mut self, other: Totals) -> Totals {
        self.games += other.games;
        for (a, b) in self.points.iter_mut().zip(other.points) {
            *a += b;
        }
        for (a, b) in self.wins.iter_mut().zip(other.wins) {
            *a += b;
        }
        for (a, b) in self.completed.iter_mut().zip(other.completed) {
            *a += b;
        }
        self
    }

    fn add_game(&mut self, game: &Game) {
        self.games += 1;
        let scores = game.scores();
        for s in scores.iter().take(game.players()) {
            for (sum, v) in self.points.iter_mut().zip(s.values()) {
                *sum += v as i64;
            }
        }
        for (seat, rank) in game.ranks_from(&scores).into_iter().enumerate() {
            if rank == 1 {
                self.wins[seat] += 1;
            }
        }
        if let Some(e) = game.edifice() {
            for (n, o) in self.completed.iter_mut().zip(e.outcome) {
                *n += (o == wonders_core::Outcome::Completed) as u64;
            }
        }
    }
}

/// Plays game `index` of the run with random bots of `policy`, `legal` being the reused action
/// buffer.
fn play_one(
    kind: (&ExpansionArgs, &'static Catalog),
    (edition, players, policy): (Edition, u8, Policy),
    base: u64,
    index: u64,
    legal: &mut Vec<Action>,
) -> Result<Totals, String> {
    let seed = game_seed(base, index);
    // Played where the setup left it, inside the result (a `Game` moved out of it is copied).
    let mut setup = kind.0.setup_game(kind.1, setup_for(edition, players, seed));
    let game = setup.as_mut().map_err(|e| e.to_string())?;
    // One bot per seat of this game (each a ChaCha8 generator of about 300 bytes to seed).
    let seats = 0..players as usize;
    let played = match policy {
        Policy::Uniform => {
            let mut bots: ArrayVec<RandomBot, MAX_SEATS> =
                seats.map(|seat| RandomBot::new(bot_seed(seed, seat))).collect();
            play_out(game, &mut bots, legal)
        }
        Policy::CardFirst => {
            let mut bots: ArrayVec<CardFirstBot, MAX_SEATS> =
                seats.map(|seat| CardFirstBot::new(bot_seed(seed, seat))).collect();
            play_out_card_first(game, &mut bots, legal)
        }
    };
    played.map_err(|e| format!("game {index} (deal seed {seed}): {e}"))?;
    let mut totals = Totals::default();
    totals.add_game(game);
    Ok(totals)
}

/// Mean points per player, by category (the keys of `Score::CATEGORIES`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub(crate) struct Mean {
    pub(crate) military: f64,
    pub(crate) treasury: f64,
    pub(crate) wonder: f64,
    pub(crate) civilian: f64,
    pub(crate) science: f64,
    pub(crate) commercial: f64,
    pub(crate) guilds: f64,
    pub(crate) edifice: f64,
    /// Armada's categories: present only in games with Armada.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) naval: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) fleet: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) islands: Option<f64>,
    pub(crate) total: f64,
}

impl Mean {
    /// From values in the order of `Score::CATEGORIES`; Armada's categories are kept when
    /// `armada` is played.
    pub(crate) const fn from_values(m: [f64; 12], armada: bool) -> Mean {
        Mean {
            military: m[0],
            treasury: m[1],
            wonder: m[2],
            civilian: m[3],
            science: m[4],
            commercial: m[5],
            guilds: m[6],
            edifice: m[7],
            naval: if armada { Some(m[8]) } else { None },
            fleet: if armada { Some(m[9]) } else { None },
            islands: if armada { Some(m[10]) } else { None },
            total: m[11],
        }
    }

    /// Whether Armada's categories are present.
    pub(crate) const fn armada(&self) -> bool {
        self.naval.is_some()
    }

    /// The values in the order of `Score::CATEGORIES` (Armada's are 0 when absent).
    pub(crate) const fn values(&self) -> [f64; 12] {
        const fn or0(v: Option<f64>) -> f64 {
            match v {
                Some(v) => v,
                None => 0.0,
            }
        }
        [
            self.military,
            self.treasury,
            self.wonder,
            self.civilian,
            self.science,
            self.commercial,
            self.guilds,
            self.edifice,
            or0(self.naval),
            or0(self.fleet),
            or0(self.islands),
            self.total,
        ]
    }
}

/// The `--json` output.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct Report {
    games: u64,
    games_per_second: f64,
    mean: Mean,
    win_share: Vec<f64>,
    /// Team variant: the share of games each team won (team k = seats 2k and 2k+1).
    #[serde(skip_serializing_if = "Option::is_none")]
    team_win_share: Option<Vec<f64>>,
    /// Edifice: the share of games whose project of each Age was completed.
    #[serde(skip_serializing_if = "Option::is_none")]
    projects_completed: Option<[f64; 3]>,
    /// Set when the games use provisional data (Edifice's values, edifice.md §5).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    provisional: bool,
    /// The random players' policy, when not the default `uniform`.
    #[serde(skip_serializing_if = "Option::is_none")]
    policy: Option<&'static str>,
}

impl Report {
    fn new(totals: &Totals, players: u8, seconds: f64, edifice: bool, armada: bool, teams: bool) -> Report {
        let per_player = (totals.games * players as u64) as f64;
        let m = totals.points.map(|p| p as f64 / per_player);
        // A team's win is counted for both its seats (each seat has its team's rank).
        let team_win_share = teams.then(|| {
            totals.wins[..players as usize]
                .iter()
                .step_by(2)
                .map(|&w| w as f64 / totals.games as f64)
                .collect()
        });
        Report {
            team_win_share,
            games: totals.games,
            games_per_second: totals.games as f64 / seconds.max(1e-9),
            mean: Mean::from_values(m, armada),
            win_share: totals.wins[..players as usize]
                .iter()
                .map(|&w| w as f64 / totals.games as f64)
                .collect(),
            projects_completed: edifice.then(|| totals.completed.map(|c| c as f64 / totals.games as f64)),
            provisional: edifice,
            policy: None,
        }
    }
}

/// ` with edifice` (or nothing), for the headers.
pub(crate) fn expansions_text(e: Expansions) -> String {
    let names = e.names();
    if names.is_empty() { String::new() } else { format!(" with {}", names.join(", ")) }
}

/// Worker threads per core at most: games are pure computation, so more threads than cores only
/// add switching (and 65,535 threads would exhaust the machine).
pub(crate) const THREADS_PER_CORE: usize = 4;

/// `--threads` clamped to [`THREADS_PER_CORE`] per core, with the message saying so when it was.
pub(crate) fn clamp_threads(asked: Option<u16>, cores: usize) -> (usize, Option<String>) {
    let max = cores.max(1) * THREADS_PER_CORE;
    match asked {
        None | Some(0) => (cores.max(1), None),
        Some(t) if usize::from(t) > max => (
            max,
            Some(format!(
                "--threads {t} is more than this machine can use ({cores} cores); using {max} ({THREADS_PER_CORE} per core)"
            )),
        ),
        Some(t) => (usize::from(t), None),
    }
}

/// A pool of `threads` worker threads (default: every core; at most [`THREADS_PER_CORE`] per
/// core, with a message on standard error when asked for more).
pub(crate) fn thread_pool(threads: Option<u16>) -> Result<rayon::ThreadPool, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (threads, message) = clamp_threads(threads, cores);
    if let Some(m) = message {
        crate::output::warn(&format!("wonders: {m}"));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))
}

/// A progress bar over `games` games, only when standard error is a terminal.
pub(crate) fn progress_bar(games: u64) -> Option<ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let pb = ProgressBar::new(games);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, eta {eta}") {
            pb.set_style(style);
        }
        pb
    })
}

/// Runs `wonders simulate`.
pub fn run(args: &SimulateArgs) -> Result<(), String> {
    let pool = thread_pool(args.threads)?;
    let threads = pool.current_num_threads();
    let progress = progress_bar(args.games);
    let (edition, players, seed, policy) = (args.edition, args.players, args.seed, args.policy);
    // Refuse an impossible setup (2 players in the 2nd edition) before starting the threads.
    let catalog = args.exp.catalog(edition)?;
    args.exp.game(catalog, setup_for(edition, players, seed))?;
    let kind = (&args.exp, catalog);
    let start = Instant::now();
    let totals = pool.install(|| {
        (0..args.games)
            .into_par_iter()
            .map_init(
                || Vec::with_capacity(128),
                |legal, i| {
                    let t = play_one(kind, (edition, players, policy), seed, i, legal);
                    if let Some(pb) = &progress {
                        pb.inc(1);
                    }
                    t
                },
            )
            .try_reduce(Totals::default, |a, b| Ok(a.merge(b)))
    })?;
    let seconds = start.elapsed().as_secs_f64();
    if let Some(pb) = &progress {
        pb.finish_and_clear();
    }
    let mut report = Report::new(
        &totals,
        players,
        seconds,
        args.exp.expansions.edifice(),
        catalog.armada.is_some(),
        args.exp.teams,
    );
    report.policy = (policy != Policy::Uniform).then(|| policy.name());
    // Written at once, and quietly cut short when the reader has gone (`… | head`).
    let mut out = std::io::stdout().lock();
    if args.json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        return crate::output::emit(&mut out, &format!("{text}\n"));
    }
    let mut text = String::new();
    say!(
        text,
        "{} {}random games of {players} players, {}{}{} (seed {seed}, {threads} thread{})",
        report.games,
        report.policy.map_or(String::new(), |p| format!("{p} ")),
        edition_name(edition),
        expansions_text(args.exp.expansions),
        if args.exp.teams { ", in teams" } else { "" },
        if threads == 1 { "" } else { "s" }
    );
    say!(text, "elapsed: {seconds:.3} s, {:.0} games per second", report.games_per_second);
    say!(text, "mean points per player:");
    let values = report.mean.values();
    for i in Score::shown(report.mean.armada()) {
        say!(text, "  {:<11}{:>7.2}", Score::CATEGORIES[i], values[i]);
    }
    if let Some(done) = report.projects_completed {
        say!(
            text,
            "great projects completed: Age I {:.1}%, Age II {:.1}%, Age III {:.1}% (provisional data)",
            done[0] * 100.0,
            done[1] * 100.0,
            done[2] * 100.0
        );
    }
    if let Some(teams) = &report.team_win_share {
        say!(text, "share of wins by team (a shared win counts for each winning team):");
        for (k, share) in teams.iter().enumerate() {
            say!(text, "  seats {}+{}  {:>5.1}%", 2 * k, 2 * k + 1, share * 100.0);
        }
        return crate::output::emit(&mut out, &text);
    }
    say!(text, "share of wins by seat (a shared win counts for each winner):");
    for (seat, share) in report.win_share.iter().enumerate() {
        say!(text, "  seat {seat}  {:>5.1}%", share * 100.0);
    }
    crate::output::emit(&mut out, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_clamped_to_four_per_core_with_a_message() {
        assert_eq!(clamp_threads(None, 2), (2, None));
        assert_eq!(clamp_threads(Some(3), 2), (3, None));
        assert_eq!(clamp_threads(Some(8), 2), (8, None));
        let (n, message) = clamp_threads(Some(65535), 2);
        assert_eq!(n, 8);
        assert_eq!(
            message.as_deref(),
            Some("--threads 65535 is more than this machine can use (2 cores); using 8 (4 per core)")
        );
    }

    #[test]
    fn seeds_are_spread_and_distinct() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), bot_seed(game_seed(1, 0), 0));
        assert_ne!(bot_seed(5, 0), bot_seed(5, 1));
        // Known SplitMix64 output (the reference sequence from seed 0 starts with this).
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn reduction_does_not_depend_on_grouping() {
        let exp = ExpansionArgs::default();
        let kind = (&exp, Catalog::get(Edition::First));
        let mut legal = Vec::new();
        let games: Vec<Totals> = (0..12)
            .map(|i| play_one(kind, (Edition::First, 4, Policy::Uniform), 9, i, &mut legal).unwrap())
            .collect();
        let forward = games.iter().fold(Totals::default(), |a, b| a.merge(*b));
        let halves = games[..5]
            .iter()
            .fold(Totals::default(), |a, b| a.merge(*b))
            .merge(games[5..].iter().rev().fold(Totals::default(), |a, b| a.merge(*b)));
        assert_eq!(forward, halves);
        assert_eq!(forward.games, 12);
        assert!(forward.wins.iter().sum::<u64>() >= 12);
    }

    #[test]
    fn totals_are_pinned() {
        // Computed before the speed work (the build of 2026-11-23): the same seeds must keep
        // giving the same games.
        let mut legal = Vec::new();
        let base = ExpansionArgs::default();
        let mut sum = |edition, players, games| {
            (0..games)
                .map(|i| {
                    play_one(
                        (&base, Catalog::get(edition)),
                        (edition, players, Policy::Uniform),
                        9,
                        i,
                        &mut legal,
                    )
                    .unwrap()
                })
                .fold(Totals::default(), |a, b| a.merge(b))
        };
        let runs = [sum(Edition::First, 4, 40), sum(Edition::First, 2, 20), sum(Edition::Second, 5, 20)];
        let want: &[([i64; 8], [u64; MAX_SEATS])] = &[
            ([722, 1791, 538, 791, 218, 102, 178, 4340], [10, 11, 10, 9, 0, 0, 0, 0]),
            ([172, 315, 212, 235, 111, 32, 93, 1170], [11, 9, 0, 0, 0, 0, 0, 0]),
            ([460, 1128, 322, 554, 156, 68, 70, 2758], [8, 3, 2, 5, 2, 0, 0, 0]),
        ];
        assert_eq!(want.len(), runs.len(), "pinned runs");
        for (t, &(points, wins)) in runs.iter().zip(want) {
            // The pinned sums predate the `edifice` category (index 7) and Armada's `naval`,
            // `fleet` and `islands` (8–10), always 0 here.
            assert_eq!(t.points[7..11], [0; 4]);
            let without_edifice: Vec<i64> = t.points[..7].iter().chain(&t.points[11..]).copied().collect();
            assert_eq!(without_edifice, points);
            assert_eq!(t.wins, wins);
        }
    }
}
