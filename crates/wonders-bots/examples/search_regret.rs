//! How good the search's choices are at a budget, measured on a suite of positions instead of
//! whole games: `cargo run --release -p wonders-bots --example search_regret -- [PLAYERS]
//! [POSITIONS] [REFERENCE] [BUDGET] [SEEDS] [CONFIG…]` (defaults 4, 100, 3000, 1500, 2, `base`).
//!
//! The positions are seat 0's choices of a card (about one in four, by a hash of the game's seed
//! and the decision) in 1st-edition games of heuristic bots (seeds 700 000 onwards). For each,
//! every root candidate is judged on its own by [`SearchBot::evaluate`] with `REFERENCE`
//! iterations (its value `Q`; always with the first settings, exploration 0.4 and a fresh deal
//! for every sample, so that the yardstick does not move with the default). Then each `CONFIG`
//! searches every position with `BUDGET` iterations, `SEEDS` times, and the tool prints the mean
//! regret (the best candidate's `Q` less the chosen one's), how often the best was chosen, and,
//! after the first `CONFIG`, the mean difference from the first on the same positions with its
//! standard error. A regret is in the search's value (0.8 × win + 0.2 × σ(margin / 6)): 0.01 is
//! about a point of winning chance lost in that decision. The guide's *Bots* page has the figures.
//!
//! A `CONFIG` is a comma-separated list of changes to the default search: `c=0.6` (exploration),
//! `pv=8` (prior visits), `ps=0.02` (prior slope), `w=0.6` (widening), `k=8` (the most
//! candidates), `flat` (no tree), `it=4000` (another budget), `deny=0` (rollouts without
//! hate-drafting: faster, but no longer the heuristic opponents' exact policy), `crn=0` (a fresh
//! deal for every sample instead of deals common to the candidates), `mean=0.5` (play
//! the best mean among the candidates with at least half the most visits, not the most visited);
//! `base` is the default. The reference values take minutes: they are kept in
//! `target/search_regret-…txt` and read back by a run with the same players, positions and
//! reference budget.

use std::time::Instant;
use wonders_bots::search::Budget;
use wonders_bots::{Bot, HeuristicBot, SearchBot, SearchConfig};
use wonders_core::{Action, Game, Phase, Setup, View};

/// One position of the suite, with its candidates' reference values.
struct Position {
    view: View,
    legal: Vec<Action>,
    /// Each candidate with its reference value.
    q: Vec<(Action, f64)>,
}

/// `count` of seat 0's choices of a card, from games of heuristic bots.
fn positions(players: u8, count: usize) -> Vec<(View, Vec<Action>)> {
    let mut out = Vec::new();
    let mut seed = 700_000u64;
    let mut legal = Vec::new();
    while out.len() < count {
        let mut game = Game::new(&Setup::new(players, seed)).expect("a valid setup");
        let mut bots: Vec<HeuristicBot> = (0..players).map(|_| HeuristicBot::new()).collect();
        let mut k = 0u64;
        while !game.is_over() {
            for seat in game.to_act() {
                if !game.must_act(seat) {
                    continue;
                }
                game.legal_actions_into(seat, &mut legal);
                let view = game.view(seat);
                if seat == 0 && game.phase() == Phase::Choose && legal.len() > 1 && out.len() < count {
                    k += 1;
                    // About one decision in four, by a hash of the seed and the decision.
                    if (seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ k.wrapping_mul(0xBF58_476D_1CE4_E5B9))
                        >> 62
                        == 0
                    {
                        out.push((view.clone(), legal.clone()));
                    }
                }
                let a = bots[seat].choose(&view, &legal);
                game.submit(seat, a).expect("the heuristic plays legal actions");
            }
        }
        seed += 1;
    }
    out
}

/// How a config's move is taken from its search.
#[derive(Clone, Copy)]
enum Pick {
    /// The most visited candidate, as [`Bot::choose`] plays.
    Visits,
    /// The best mean value among the candidates with at least this share of the most visits.
    Mean(f64),
}

fn parse(spec: &str, budget: u32) -> Result<(String, SearchConfig, Pick), String> {
    let mut c = SearchConfig { budget: Budget::Iterations(budget), ..SearchConfig::default() };
    let mut pick = Pick::Visits;
    for part in spec.split(',') {
        let (key, value) = part.split_once('=').unwrap_or((part, ""));
        let f = || value.parse::<f64>().map_err(|_| format!("`{part}` in `{spec}`: `{key}` takes a number"));
        match key {
            "base" => {}
            "c" => c.exploration = f()?,
            "pv" => c.prior_visits = f()?,
            "ps" => c.prior_slope = f()?,
            "w" => c.widening = f()?,
            "k" => c.max_candidates = f()? as usize,
            "it" => c.budget = Budget::Iterations(f()? as u32),
            "flat" => c.tree = false,
            "crn" => c.common_deals = f()? != 0.0,
            "deny" => c.rollout_deny = f()? != 0.0,
            "mean" => pick = Pick::Mean(f()?),
            other => {
                return Err(format!(
                    "`{other}` in `{spec}`: not a setting (base, c, pv, ps, w, k, it, flat, deny, mean)"
                ));
            }
        }
    }
    Ok((spec.to_string(), c, pick))
}

/// Runs `f` on every item, on every core.
fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = items.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .enumerate()
            .map(|(ci, part)| {
                let f = &f;
                s.spawn(move || {
                    part.iter().enumerate().map(|(i, x)| f(ci * chunk + i, x)).collect::<Vec<R>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("no panic")).collect()
    })
}

fn main() {
    let mut args = std::env::args().skip(1);
    let players: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(4);
    let count: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let reference: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(3000);
    let budget: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1500);
    let seeds: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2);
    let mut specs: Vec<String> = args.collect();
    if specs.is_empty() {
        specs.push("base".into());
    }
    // Every setting is read before the minutes of the reference.
    if let Some(e) = specs.iter().find_map(|spec| parse(spec, budget).err()) {
        eprintln!("search_regret: {e}");
        std::process::exit(2);
    }
    let start = Instant::now();
    let raw = positions(players, count);
    // The reference values are kept in a file (they take minutes): the same positions and
    // reference budget read them back.
    let cache = std::path::PathBuf::from(format!("target/search_regret-{players}p-{count}-{reference}.txt"));
    let cached: Option<Vec<Vec<f64>>> = std::fs::read_to_string(&cache).ok().map(|text| {
        text.lines().map(|l| l.split_whitespace().filter_map(|x| x.parse().ok()).collect()).collect()
    });
    let suite: Vec<Position> = par_map(&raw, |i, (view, legal)| {
        // The yardstick stays the one the guide's figures were measured with when the default
        // search changes: exploration 0.4 below the move, a fresh deal for every sample. The
        // candidates are listed in its order too, the order of the values kept in the file.
        let first = SearchConfig { exploration: 0.4, common_deals: false, ..SearchConfig::default() };
        let probe = SearchConfig { budget: Budget::Iterations(2), ..first };
        let cands: Vec<Action> =
            SearchBot::new(probe, 1).analyse(view, legal).iter().map(|a| a.action).collect();
        let eval = SearchConfig { budget: Budget::Iterations(reference), ..first };
        let q = match cached.as_ref().and_then(|c| c.get(i)).filter(|v| v.len() == cands.len()) {
            Some(v) => cands.iter().copied().zip(v.iter().copied()).collect(),
            None => cands
                .iter()
                .map(|&a| (a, SearchBot::new(eval, 90_000 + i as u64).evaluate(view, a).value))
                .collect(),
        };
        Position { view: view.clone(), legal: legal.clone(), q }
    });
    let lines: Vec<String> =
        suite.iter().map(|p| p.q.iter().map(|x| format!("{}", x.1)).collect::<Vec<_>>().join(" ")).collect();
    let _ = std::fs::write(&cache, lines.join("\n"));
    let mean_cands = suite.iter().map(|p| p.q.len()).sum::<usize>() as f64 / suite.len() as f64;
    println!(
        "{} positions, {mean_cands:.1} candidates each, reference {reference} iterations each: {:.0} s",
        suite.len(),
        start.elapsed().as_secs_f64()
    );
    // The first config's regret per position, to compare the others with on the same positions.
    let mut first: Option<Vec<f64>> = None;
    for spec in &specs {
        let (name, config, pick) = parse(spec, budget).expect("checked above");
        let t = Instant::now();
        let per: Vec<(f64, f64)> = par_map(&suite, |i, p| {
            let best = p.q.iter().map(|x| x.1).fold(f64::MIN, f64::max);
            let mut regret = 0.0;
            let mut hits = 0.0;
            for s in 0..seeds {
                let mut bot = SearchBot::new(config, 1 + s * 1_000_003 + i as u64);
                let a = match pick {
                    Pick::Visits => bot.choose(&p.view, &p.legal),
                    Pick::Mean(share) => {
                        let advice = bot.analyse(&p.view, &p.legal);
                        let most = advice[0].visits as f64;
                        advice
                            .iter()
                            .filter(|a| a.visits as f64 >= share * most)
                            .max_by(|a, b| a.value.total_cmp(&b.value))
                            .map_or(advice[0].action, |a| a.action)
                    }
                };
                let q = p.q.iter().find(|x| x.0 == a).map_or(0.0, |x| x.1);
                regret += best - q;
                hits += (q >= best) as u32 as f64;
            }
            (regret / seeds as f64, hits / seeds as f64)
        });
        let n = per.len() as f64;
        let regret = per.iter().map(|x| x.0).sum::<f64>() / n;
        let sd = (per.iter().map(|x| (x.0 - regret).powi(2)).sum::<f64>() / (n - 1.0)).sqrt() / n.sqrt();
        let hits = per.iter().map(|x| x.1).sum::<f64>() / n;
        let paired = match &first {
            None => String::new(),
            Some(f) => {
                let d: Vec<f64> = per.iter().zip(f).map(|(x, y)| x.0 - y).collect();
                let m = d.iter().sum::<f64>() / n;
                let se = (d.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0)).sqrt() / n.sqrt();
                format!("  against the first: {m:+.4} ± {se:.4}")
            }
        };
        println!(
            "{name:<28} regret {regret:.4} ± {sd:.4}  best chosen {:.1}%  ({:.0} s){paired}",
            100.0 * hits,
            t.elapsed().as_secs_f64()
        );
        first.get_or_insert_with(|| per.iter().map(|x| x.0).collect());
    }
}
