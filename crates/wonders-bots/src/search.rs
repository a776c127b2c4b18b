//! Monte-Carlo search over sampled deals: information-set Monte-Carlo tree search with one
//! observer (SO-ISMCTS; Cowling, Powley and Whitehouse, 2012). The root is the seat's current
//! decision, a UCB1 bandit over its actions; below it, a tree of the seat's own later decisions
//! (the private `tree` module) grows by one node per iteration. Every iteration is played on a fresh
//! determinization, with the rule-based player as the other seats' policy and as the playout
//! policy below the tree.
//!
//! # One iteration
//!
//! 1. **Determinize.** [`Game::resample`] deals a full game consistent with the seat's [`View`]:
//!    the other hands, the discard pile and the later Ages' decks are drawn at random among the
//!    deals the seat cannot tell apart. The search never reads the real game. What every
//!    sample of the view shares is worked out once per search ([`Resampler`]): the same samples,
//!    less work. The deals are *common* to the root's candidates (common random numbers,
//!    [`SearchConfig::common_deals`]): a candidate's k-th sample is the decision's k-th deal, so
//!    two candidates' means differ by what the moves do rather than by the luck of their deals.
//! 2. **Select** a root candidate (below) by UCB1 with a prior: `q + c·√(ln N / n)` with c = 0.4,
//!    where each candidate starts with 4 virtual visits valued at the mean of all visits so far
//!    less 0.04 per point the heuristic values it below the best candidate. With few iterations
//!    the search therefore keeps to the heuristic's choice unless the samples clearly disagree.
//! 3. **Simulate.** The candidate is submitted in the sampled game. The seat's next decisions
//!    follow the tree while the iteration is in it: at each, the sample's candidates (listed as
//!    the root's are) are chosen among by UCB1 on their availability, with the root's prior and
//!    widening; the first decision below the tree's edge adds a node, and from there on the
//!    rollout policy plays (see the private `tree` module). The other seats play the rollout
//!    policy (unless [`SearchConfig::opponent_bandits`] searches their choices of this turn too,
//!    or [`SearchConfig::opponent_trees`] their choices of a card, each seat in a tree of its
//!    own, while it is in its tree; by default, [`SearchConfig::adaptive_opponents`], the seats
//!    the seat has seen stray from the policy get such trees): their choices of this turn
//!    (simultaneous moves are sequentialized: the others choose in the sample without knowing
//!    the seat's choice) and every later decision of theirs, Babylon's, Halicarnassus' and the
//!    Free City's included. The policy is the
//!    [`HeuristicBot`](crate::HeuristicBot)'s rules (hate-drafting included), deterministic; a
//!    random move with probability ε (default 0) is available for tuning. Answers of the policy
//!    that are pure functions of small keys (the next player's cheapest purchases, shield and
//!    science values, and the next players' gains in the searched turn, whose cities are the
//!    view's in every sample) are kept for the whole search (`memo.rs`): the same moves, less
//!    work. In a base-game turn the policy's choice is found without listing every legal action
//!    (`heuristic::choose_in_game`): each card is valued once, and a build's or stage's payments
//!    are solved only when, at the fewest coins any purchase could cost, it could still be the
//!    best — the action the rules pick among the whole legal list, for less work.
//! 4. **Back up** the final value of the sampled game for the seat:
//!    `0.8 × win + 0.2 × σ(margin / 6)`, where `win` is 1 for a sole first place, 0.5 for a shared
//!    one and 0 otherwise, `margin` is the seat's points minus the best other player's (the Free
//!    City is no player), and σ is the logistic function. The value lies in [0, 1]: winning is
//!    what counts, the margin breaks near-ties.
//!
//! # Candidates
//!
//! The root's candidates are the legal actions reduced to the best way to pay (by the heuristic's
//! valuation) per card and kind of action, ranked by the heuristic, at most 12. They become active
//! in that order as iterations accumulate (progressive widening: `1 + ⌊0.4·√N⌋` of them, at least
//! 2, after N iterations): a small budget spends its samples on the actions the rules like best.
//! The action played is the candidate with the most visits (ties: the better mean, then the
//! heuristic's order). A side choice, Babylon's last card and a Halicarnassus pick are searched
//! like any decision.
//!
//! # Budgets, threads, determinism
//!
//! A budget is a number of iterations or a wall-clock time per decision ([`Budget`]). The tree
//! is what makes more time worth it: the root-only bandit (`search:…:flat`,
//! [`SearchConfig::tree`] false) judges each root move by the heuristic's continuation, and more
//! samples only sharpen that one estimate; with the tree, the seat's own continuation improves
//! too. With [`SearchConfig::network_prior`] (`search:…:neural`), the policy network of
//! [`crate::neural`] joins the heuristic in ranking the root's candidates and setting their
//! priors ([`NETWORK_POINTS`]). With
//! `threads` > 1 each thread searches its own root (root parallelization) and the visit counts and
//! values are summed. Each thread's random generator is seeded from the bot's seed, the number of
//! decisions it has made and the thread's index, and an iteration budget is split between the
//! threads in a fixed way (thread t gets ⌊N/T⌋, plus one if t < N mod T): with an iteration budget
//! the same seed plays the same game whatever the machine and its load. A time budget depends on
//! the machine's speed and load, so it is not reproducible.
//!
//! On this project's 2-core machine an iteration costs about 115 µs at the start of a 4-player
//! game, 70 µs in Age II, 33 µs in Age III: `search` (100 ms) runs about 900 to 3 000 iterations
//! per decision. The tree costs no more per iteration than the root-only search (its steps
//! replace the rollout's moves of the seat): `cargo run --release -p wonders-bots --example
//! search_speed` measured 11,365 iterations/s with it and 9,347 without, medians of 5 on a
//! loaded machine (ranges 6,939–13,422 and 8,882–13,915).

use crate::Bot;
use crate::ctx::Ctx;
use crate::heuristic::evaluate;
use crate::memo::Memo;
use crate::neural::Network;
use crate::tree::{Tree, policy_move};
use crate::watch::Watch;
use crate::weights::Weights;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::time::{Duration, Instant};
use wonders_core::limits::MAX_PLAYERS;
use wonders_core::sample::Resampler;
use wonders_core::{Action, Game, Phase, View};

/// How long a search runs per decision.
///
/// ```
/// use std::time::Duration;
/// use wonders_bots::search::Budget;
/// use wonders_bots::{Bot, SearchBot, SearchConfig};
///
/// let config = SearchConfig { budget: Budget::Time(Duration::from_millis(20)), threads: 2, ..SearchConfig::default() };
/// assert_eq!(SearchBot::new(config, 1).name(), "search:20ms:2t");
/// let config = SearchConfig { budget: Budget::Iterations(500), ..SearchConfig::default() };
/// assert_eq!(SearchBot::new(config, 1).name(), "search:500it");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A fixed number of iterations (deterministic for a given seed).
    Iterations(u32),
    /// Wall-clock time.
    Time(Duration),
}

impl Budget {
    /// Whether an adaptive search ([`SearchConfig::adaptive_opponents`]) models the seats it has
    /// not yet seen choose as searchers (from 500 ms or 10,000 iterations a decision) or as the
    /// rollout policy (below). Before a seat has shown what it is, the model is a guess: at
    /// 100 ms against heuristic players, guessing "searcher" cost 3.5 points of win share at
    /// 4 players and 5 at 7 (the heuristic is exact there), while at 4,000 iterations against
    /// three searches of 1,000 it gained 6 (see the guide's *Bots* page). A long search is the
    /// one set against strong players, and its trees model them well; the line is drawn above
    /// the budgets of quick play (100 to 300 ms, about 3,000 to 10,000 iterations here).
    pub fn models_unknown_seats_as_searchers(&self) -> bool {
        match *self {
            Budget::Iterations(n) => n >= 10_000,
            Budget::Time(d) => d >= Duration::from_millis(500),
        }
    }
}

/// What a search sees of the real game: research only ([`SearchBot::choose_seeing`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sight {
    /// The seat's view: everything hidden from it is sampled (what every bot plays with).
    View,
    /// Every hand of the current Age and the discard pile; the Ages to come are sampled.
    Hands,
    /// The whole game, the decks of the Ages to come included: nothing is sampled.
    Whole,
}

/// Settings of a [`SearchBot`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Budget per decision.
    pub budget: Budget,
    /// Threads per decision (root parallelization), at least 1.
    pub threads: usize,
    /// UCB1 exploration constant.
    pub exploration: f64,
    /// The most root candidates considered.
    pub max_candidates: usize,
    /// Probability of a random move in rollouts.
    pub epsilon: f32,
    /// Whether the rollout policy hate-drafts (rule 11 of the heuristic; slower).
    pub rollout_deny: bool,
    /// Virtual visits of the heuristic prior per candidate.
    pub prior_visits: f64,
    /// Prior value per point of heuristic value below the best candidate.
    pub prior_slope: f64,
    /// Progressive widening: `1 + ⌊√N · widening⌋` candidates are active after N iterations.
    pub widening: f64,
    /// Weights of the rollout policy.
    pub weights: Weights,
    /// Whether the seat's own later decisions are searched in a tree below the root (see
    /// the private `tree` module); false keeps the root-only bandit (`search:…:flat`).
    pub tree: bool,
    /// Whether the root's candidates are ranked and their priors set with the policy network of
    /// [`crate::neural`] as well as the heuristic (`search:…:neural`; see [`NETWORK_POINTS`]).
    /// Games the network does not fit keep the heuristic's prior.
    pub network_prior: bool,
    /// Whether the other seats' choices of the searched turn are searched too, each seat by its
    /// own bandit over its kinds of action on a card (decoupled UCT: every seat's statistics on
    /// its own result, with the heuristic's prior), instead of played by the rollout policy
    /// (`search:…:duct`; see the private `tree` module). Needs the tree.
    pub opponent_bandits: bool,
    /// Whether the root's candidates are compared on common deals (common random numbers): the
    /// k-th sample of every candidate is the decision's k-th deal, so two candidates' means
    /// differ by what the moves do, not by which deals each happened to draw. False draws a
    /// fresh deal for every sample (the search before 2026-12-07).
    pub common_deals: bool,
    /// Whether every other seat's choices of a card are searched in a tree of its own from the
    /// searched turn on (`search:…:mo`; multiple-observer ISMCTS in its open-loop form): a node
    /// of a seat's tree is its information reached by its own choices, its edges chosen by UCB1
    /// on availability with the heuristic's prior, credited with that seat's own result, one
    /// node added per seat and iteration. The model of searching opponents; against the
    /// heuristic it is the worse one (see the guide's *Bots* page). Needs the tree; overrides
    /// `opponent_bandits`.
    pub opponent_trees: bool,
    /// Whether each other seat's model follows what the seat sees it choose (the default; false
    /// is `search:…:fixed`): a seat seen to stray from the rollout policy is searched in a tree
    /// of its own (as with `opponent_trees`), one that chooses as the policy is played by it (see
    /// the private `watch` module, and [`Budget::models_unknown_seats_as_searchers`] for the
    /// seats not yet seen). A table of heuristic players is searched as with the fixed model,
    /// move for move. Needs the tree; `opponent_trees` and `opponent_bandits` override it.
    pub adaptive_opponents: bool,
}

/// With [`SearchConfig::network_prior`], a root candidate's prior value in the heuristic's points
/// is its heuristic value plus this many points per unit of `ln(p / p_best)`, `p` the network's
/// probability of the candidate's kind of action on its card and `p_best` the highest among the
/// candidates (so the network's favourite loses nothing and a move it gives a tenth of that
/// probability loses about 2.3 × this). The same weight as [`BLEND_POINTS`], chosen there; at
/// 1.5 the network's prior did not help the search (39.2% against 45.8% for the search without
/// it, 120 games at 100 ms a move), at 4 it does (see the guide's *Bots* page).
pub const NETWORK_POINTS: f32 = 4.0;

impl Default for SearchConfig {
    /// 100 ms per decision on one thread.
    fn default() -> SearchConfig {
        SearchConfig {
            budget: Budget::Time(Duration::from_millis(100)),
            threads: 1,
            exploration: 0.4,
            max_candidates: 12,
            epsilon: 0.0,
            rollout_deny: true,
            prior_visits: 4.0,
            prior_slope: 0.04,
            widening: 0.4,
            weights: Weights::default(),
            tree: true,
            network_prior: false,
            opponent_bandits: false,
            common_deals: true,
            opponent_trees: false,
            adaptive_opponents: true,
        }
    }
}

/// The Monte-Carlo search player (see the [module documentation](self)).
///
/// ```
/// use wonders_bots::{Bot, SearchBot, SearchConfig, search::Budget};
/// use wonders_core::{Game, Setup};
///
/// let game = Game::new(&Setup::new(3, 5)).unwrap();
/// let legal = game.legal_actions(0);
/// let config = SearchConfig { budget: Budget::Iterations(20), ..SearchConfig::default() };
/// let a = SearchBot::new(config, 9).choose(&game.view(0), &legal);
/// let b = SearchBot::new(config, 9).choose(&game.view(0), &legal);
/// assert!(legal.contains(&a));
/// assert_eq!(a, b); // fixed iterations and seed: the same choice
/// ```
#[derive(Clone, Debug)]
pub struct SearchBot {
    config: SearchConfig,
    seed: u64,
    decisions: u64,
    network: Option<Arc<Network>>,
    /// What the seat saw the other seats choose in this game ([`SearchConfig::adaptive_opponents`]).
    watch: Watch,
}

impl SearchBot {
    /// A search bot whose random choices follow from `seed`.
    pub fn new(config: SearchConfig, seed: u64) -> SearchBot {
        let threads = config.threads.max(1);
        let network = config.network_prior.then(Network::embedded);
        SearchBot {
            config: SearchConfig { threads, ..config },
            seed,
            decisions: 0,
            network,
            watch: Watch::default(),
        }
    }

    /// Its settings.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Whether its model of the other seats follows what it sees them choose.
    fn adapts(&self) -> bool {
        let c = &self.config;
        c.adaptive_opponents && c.tree && !c.opponent_trees && !c.opponent_bandits
    }
}

/// SplitMix64's output function.
const fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Statistics of one root candidate.
#[derive(Clone, Copy, Debug, Default)]
struct Stat {
    visits: u32,
    total: f64,
    /// The sum of the win shares (1 a sole first place, 0.5 a shared one).
    wins: f64,
}

/// One of the root's candidates after a search: what the search thinks of it (see
/// [`SearchBot::analyse`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Advice {
    /// The action (the best way to pay for its card and kind, by the heuristic's valuation).
    pub action: Action,
    /// The samples spent on it.
    pub visits: u32,
    /// Its mean value in [0, 1] (see the module documentation); 0 when never sampled.
    pub value: f64,
    /// The share of its samples the seat won (a shared first place counts half): its estimated
    /// chance of winning if the seat plays it; 0 when never sampled.
    pub win_chance: f64,
}

impl SearchBot {
    /// Searches the decision as [`Bot::choose`] does and returns every candidate with its
    /// samples, mean value and win share, best first: the first is the action `choose` plays.
    /// A decision with one candidate is not searched (its one [`Advice`] has no samples).
    ///
    /// ```
    /// use wonders_bots::search::Budget;
    /// use wonders_bots::{SearchBot, SearchConfig};
    /// use wonders_core::{Game, Setup};
    ///
    /// let game = Game::new(&Setup::new(4, 7)).unwrap();
    /// let mut legal = Vec::new();
    /// game.legal_actions_into(0, &mut legal);
    /// let config = SearchConfig { budget: Budget::Iterations(300), ..SearchConfig::default() };
    /// let advice = SearchBot::new(config, 1).analyse(&game.view(0), &legal);
    /// assert!(advice.len() > 1 && advice.iter().map(|a| a.visits).sum::<u32>() == 300);
    /// assert!(advice.windows(2).all(|w| w[0].visits >= w[1].visits));
    /// assert!(advice.iter().all(|a| (0.0..=1.0).contains(&a.win_chance)));
    /// ```
    pub fn analyse(&mut self, view: &View, legal: &[Action]) -> Vec<Advice> {
        self.analyse_with(view, legal, None)
    }

    /// Research only: the choice [`Bot::choose`] would make for `seat` if the search saw more of
    /// `game` than the seat's view ([`Sight`]): its samples take the real hands, or the real
    /// game itself. Against the same opponents on the same deals, the win shares with
    /// [`Sight::View`], [`Sight::Hands`] and [`Sight::Whole`] measure what hidden information
    /// costs the search (`cargo run --release -p wonders-bots --example information_value`).
    /// With [`Sight::View`] it is exactly [`Bot::choose`] on the seat's view.
    ///
    /// ```
    /// use wonders_bots::search::{Budget, Sight};
    /// use wonders_bots::{Bot, SearchBot, SearchConfig};
    /// use wonders_core::{Game, Setup};
    ///
    /// let game = Game::new(&Setup::new(4, 7)).unwrap();
    /// let legal = game.legal_actions(0);
    /// let config = SearchConfig { budget: Budget::Iterations(200), ..SearchConfig::default() };
    /// let seen = SearchBot::new(config, 1).choose_seeing(&game, 0, &legal, Sight::View);
    /// assert_eq!(seen, SearchBot::new(config, 1).choose(&game.view(0), &legal));
    /// assert!(legal.contains(&SearchBot::new(config, 1).choose_seeing(&game, 0, &legal, Sight::Whole)));
    /// ```
    pub fn choose_seeing(&mut self, game: &Game, seat: usize, legal: &[Action], sight: Sight) -> Action {
        let view = game.view(seat);
        let truth = (sight != Sight::View).then_some((game, sight));
        self.analyse_with(&view, legal, truth)[0].action
    }

    fn analyse_with(&mut self, view: &View, legal: &[Action], truth: Option<(&Game, Sight)>) -> Vec<Advice> {
        let decision = self.decisions;
        self.decisions += 1;
        if self.adapts() {
            self.watch.read(view, &self.config, mix(self.seed ^ decision));
        }
        if legal.len() <= 1 {
            let action = legal.first().copied().unwrap_or(Action::Pass);
            return vec![Advice { action, visits: 0, value: 0.0, win_chance: 0.0 }];
        }
        let mut cands = candidates(view, &self.config, legal);
        if let Some(net) = &self.network {
            network_prior(net, view, legal, &mut cands, NETWORK_POINTS);
        }
        if cands.len() == 1 {
            return vec![Advice { action: cands[0].0, visits: 0, value: 0.0, win_chance: 0.0 }];
        }
        let merged = self.search(view, &cands, decision, truth);
        let mean = |s: &Stat, x: f64| if s.visits == 0 { 0.0 } else { x / s.visits as f64 };
        let mut advice: Vec<Advice> = cands
            .iter()
            .zip(&merged)
            .map(|(c, s)| Advice {
                action: c.0,
                visits: s.visits,
                value: mean(s, s.total),
                win_chance: mean(s, s.wins),
            })
            .collect();
        // Most visits; ties go to the better mean, then to the heuristic's order (a stable sort).
        advice.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.value.total_cmp(&a.value)));
        advice
    }
}

impl SearchBot {
    /// Plays `action` in the budget's sampled games of the position (`view`) and returns its
    /// samples, mean value and win share: one move judged on its own, as [`SearchBot::analyse`]
    /// judges each of its candidates. (A review compares the move played with the preferred one
    /// this way, each on the same number of samples.) With [`SearchConfig::common_deals`], two
    /// bots of the same seed and decision count judge two moves on the same deals.
    pub fn evaluate(&mut self, view: &View, action: Action) -> Advice {
        let decision = self.decisions;
        self.decisions += 1;
        let s = self.search(view, &[(action, 0.0)], decision, None).pop().unwrap_or_default();
        let mean = |x: f64| if s.visits == 0 { 0.0 } else { x / s.visits as f64 };
        Advice { action, visits: s.visits, value: mean(s.total), win_chance: mean(s.wins) }
    }

    /// The search of one decision over `cands` (at least two): each candidate's summed
    /// statistics over the threads. `truth`: see [`SearchBot::choose_seeing`].
    fn search(
        &self,
        view: &View,
        cands: &[(Action, f32)],
        decision: u64,
        truth: Option<(&Game, Sight)>,
    ) -> Vec<Stat> {
        let threads = self.config.threads.max(1);
        let base = mix(self.seed ^ mix(decision.wrapping_add(0x5EED)));
        let deadline = match self.config.budget {
            Budget::Time(d) => Some(Instant::now() + d),
            Budget::Iterations(_) => None,
        };
        let share = |t: usize| -> u32 {
            match self.config.budget {
                Budget::Iterations(n) => n / threads as u32 + ((t as u32) < n % threads as u32) as u32,
                Budget::Time(_) => u32::MAX,
            }
        };
        let config = &self.config;
        // The other seats searched in trees of their own, a bit per seat.
        let me = view.seat as usize;
        let searchers = if config.opponent_trees {
            (0..view.cities.len().min(MAX_PLAYERS)).filter(|&s| s != me).fold(0u8, |m, s| m | 1 << s)
        } else if self.adapts() {
            self.watch.searchers(view, self.config.budget.models_unknown_seats_as_searchers())
        } else {
            0
        };
        let stats: Vec<Vec<Stat>> = if threads == 1 {
            vec![search_root(view, config, cands, share(0), deadline, mix(base), truth, searchers)]
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| {
                        let iters = share(t);
                        let seed = mix(base ^ mix(t as u64 + 1));
                        s.spawn(move || {
                            search_root(view, config, cands, iters, deadline, seed, truth, searchers)
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap_or_default()).collect()
            })
        };
        let mut merged = vec![Stat::default(); cands.len()];
        for per_thread in &stats {
            for (m, s) in merged.iter_mut().zip(per_thread) {
                m.visits += s.visits;
                m.total += s.total;
                m.wins += s.wins;
            }
        }
        merged
    }
}

impl Bot for SearchBot {
    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        self.analyse(view, legal)[0].action
    }

    fn name(&self) -> String {
        let mut s = match self.config.budget {
            Budget::Iterations(n) => format!("search:{n}it"),
            Budget::Time(d) => format!("search:{}ms", d.as_millis()),
        };
        if self.config.threads > 1 {
            s.push_str(&format!(":{}t", self.config.threads));
        }
        if !self.config.tree {
            s.push_str(":flat");
        }
        if self.config.network_prior {
            s.push_str(":neural");
        }
        if self.config.opponent_trees {
            s.push_str(":mo");
        } else if self.config.opponent_bandits {
            s.push_str(":duct");
        } else if self.config.tree && !self.config.adaptive_opponents {
            s.push_str(":fixed");
        }
        s
    }
}

/// The root's candidates: the best-valued payment per (kind, card), ranked by the heuristic.
fn candidates(view: &View, config: &SearchConfig, legal: &[Action]) -> Vec<(Action, f32)> {
    let mut out = Vec::with_capacity(config.max_candidates);
    candidates_in(&Ctx::from_view(view), config, legal, &mut out);
    out
}

/// The candidates of a decision seen through `ctx` (a view or a sampled game), into `out`: the
/// best-valued payment per (kind, card), ranked by the heuristic, at most `max_candidates`.
pub(crate) fn candidates_in(
    ctx: &Ctx,
    config: &SearchConfig,
    legal: &[Action],
    out: &mut Vec<(Action, f32)>,
) {
    out.clear();
    let mut scored: Vec<(f32, usize)> = Vec::with_capacity(legal.len());
    evaluate(ctx, &config.weights, legal, true, |i, v| scored.push((v, i)));
    // Highest value first; equal values keep the legal order.
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut seen: Vec<(u8, Option<u8>)> = Vec::with_capacity(config.max_candidates);
    for &(v, i) in &scored {
        // Keep the best action of each (kind, card).
        let k = key(&legal[i]);
        if seen.contains(&k) {
            continue;
        }
        seen.push(k);
        out.push((legal[i], v));
        if out.len() >= config.max_candidates.max(1) {
            break;
        }
    }
}

/// The `neural:heuristic` bot's weight of the network: points of the heuristic per unit of
/// `ln(p / p_best)`. Chosen among 0.7, 3, 5 and 10 on 2,400 games of seed 1 (36.8% at 3, 36.5% at
/// 5, against 3 heuristics at 4 players), then 3 and 4 on seed 2 (36.8%, 37.4%).
pub const BLEND_POINTS: f32 = 4.0;

/// The move of the `neural:heuristic` bot: the best candidate after [`network_prior`], i.e. the
/// highest heuristic value plus [`BLEND_POINTS`] per unit of the network's log-probability gap,
/// with no search; `None` where the network does not fit the game.
pub(crate) fn blended_choice(net: &Network, view: &View, legal: &[Action]) -> Option<Action> {
    if !net.fits(view) || legal.is_empty() {
        return None;
    }
    let config = SearchConfig { max_candidates: legal.len(), ..SearchConfig::default() };
    let mut cands = candidates(view, &config, legal);
    network_prior(net, view, legal, &mut cands, BLEND_POINTS);
    cands.first().map(|c| c.0)
}

/// Adds the network's opinion to the candidates' values (see [`SearchConfig::network_prior`]) and
/// ranks them again, best first; unchanged where the network does not fit the game.
fn network_prior(net: &Network, view: &View, legal: &[Action], cands: &mut [(Action, f32)], points: f32) {
    let Some(eval) = net.evaluate(view, legal) else { return };
    // The probability of each candidate's kind of action on its card (the network gives it to
    // one of the ways to pay).
    let p: Vec<f32> = cands
        .iter()
        .map(|(a, _)| {
            let k = key(a);
            legal.iter().zip(&eval.policy).filter(|(l, _)| key(l) == k).map(|(_, p)| p).sum::<f32>()
        })
        .collect();
    let top = p.iter().copied().fold(0.0f32, f32::max).max(1e-6);
    for (c, &pi) in cands.iter_mut().zip(&p) {
        c.1 += points * (pi.max(1e-4) / top).ln();
    }
    cands.sort_by(|a, b| b.1.total_cmp(&a.1));
}

/// What a candidate is, whatever its payment: its kind of action and its card.
pub(crate) fn key(a: &Action) -> (u8, Option<u8>) {
    let kind = match a {
        Action::Build { .. } => 0,
        Action::Wonder { .. } => 1,
        Action::Discard { .. } => 2,
        Action::DiscardYellow { .. } => 8,
        Action::ChooseIsland { .. } => 9,
        Action::StayOutOfNaval { stay_out } => 10 + *stay_out as u8,
        Action::BuildDiscarded { .. } => 3,
        Action::Pass => 4,
        Action::ChooseSide { side } => 5 + *side as u8,
        Action::DiscardBuilt { .. } => 7,
    };
    let card = match a {
        Action::DiscardBuilt { card } => Some(*card),
        _ => a.card(),
    };
    (kind, card.map(|c| c.0))
}

/// How many candidates are active after `n` iterations (progressive widening), at least 2.
pub(crate) fn active(n: u32, len: usize, widening: f64) -> usize {
    let k = 1 + ((n as f64).sqrt() * widening) as usize;
    k.max(2).min(len)
}

/// One root search of `iters` iterations (or until `deadline`).
#[allow(clippy::too_many_arguments)]
fn search_root(
    view: &View,
    config: &SearchConfig,
    cands: &[(Action, f32)],
    iters: u32,
    deadline: Option<Instant>,
    seed: u64,
    truth: Option<(&Game, Sight)>,
    searchers: u8,
) -> Vec<Stat> {
    let mut stats = vec![Stat::default(); cands.len()];
    let catalog = view.data.0;
    let seat = view.seat as usize;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // The seed of the decision's deals, when they are common to the candidates.
    let deals = mix(seed ^ 0xDEA1);
    let mut legal = Vec::with_capacity(64);
    // The searched turn, when it is a choice of cards: the next players' gains there are the
    // same in every sample (`Memo::root_gain`).
    let memo = Memo::new(&config.weights, (view.phase == Phase::Choose).then_some((view.age, view.turn)));
    // What every sample of the view shares, worked out once (the same samples as
    // `Game::resample`).
    let resampler = Resampler::new(view, catalog).ok();
    let mut tree = config.tree.then(|| Tree::new(cands.len(), searchers));
    let mut n = 0u32;
    let mut failures = 0u32;
    while n < iters {
        if let Some(d) = deadline
            && Instant::now() >= d
        {
            break;
        }
        // Select: UCB1 over the active candidates, each with `prior_visits` virtual visits
        // valued at the mean so far less `prior_slope` per point the heuristic puts it below the
        // best candidate.
        let k = active(n, cands.len(), config.widening);
        let pick = match stats[..k].iter().position(|s| s.visits == 0) {
            Some(i) if config.prior_visits <= 0.0 => i,
            _ => {
                let (sum, count) = stats.iter().fold((0.0, 0u32), |(t, c), s| (t + s.total, c + s.visits));
                let mean = if count == 0 { 0.5 } else { sum / count as f64 };
                let top = cands[0].1 as f64;
                let ln = ((n as f64 + config.prior_visits * k as f64).max(1.0)).ln();
                let mut best_i = 0;
                let mut best_v = f64::MIN;
                for (i, s) in stats[..k].iter().enumerate() {
                    let prior = (mean - config.prior_slope * (top - cands[i].1 as f64)).clamp(0.0, 1.0);
                    let visits = s.visits as f64 + config.prior_visits;
                    let q = (s.total + prior * config.prior_visits) / visits;
                    let v = q + config.exploration * (ln / visits).sqrt();
                    if v > best_v {
                        best_v = v;
                        best_i = i;
                    }
                }
                best_i
            }
        };
        // Determinize (with common deals, the candidate's k-th sample is the decision's k-th
        // deal) and simulate.
        let mut kth;
        let deal = if config.common_deals {
            kth = ChaCha8Rng::seed_from_u64(mix(deals ^ mix(stats[pick].visits as u64)));
            &mut kth
        } else {
            &mut rng
        };
        let sample = match truth {
            None => resampler.as_ref().map(|r| r.sample(deal)),
            Some((real, Sight::Whole)) => Some(Ok(real.clone())),
            Some((real, _)) => resampler
                .as_ref()
                .map(|r| r.sample(deal).and_then(|mut g| g.take_hands_from(real).map(|()| g))),
        };
        let Some(Ok(mut game)) = sample else {
            failures += 1;
            if failures > 8 && failures > n {
                break;
            }
            continue;
        };
        if game.submit(seat, cands[pick].0).is_err() {
            failures += 1;
            if failures > 8 && failures > n {
                break;
            }
            continue;
        }
        match tree.as_mut() {
            Some(t) => t.simulate(&mut game, seat, pick, config, &mut rng, &mut legal, &memo),
            None => rollout(&mut game, config, &mut rng, &mut legal, &memo),
        }
        let (value, win) = reward_parts(&game, seat);
        if let Some(t) = tree.as_mut() {
            t.backup(pick, value);
        }
        stats[pick].visits += 1;
        stats[pick].total += value;
        stats[pick].wins += win;
        n += 1;
    }
    stats
}

/// Plays `game` to its end with the rollout policy.
pub(crate) fn rollout(
    game: &mut Game,
    config: &SearchConfig,
    rng: &mut ChaCha8Rng,
    legal: &mut Vec<Action>,
    memo: &Memo,
) {
    while !game.is_over() {
        let mut progressed = false;
        for seat in game.to_act() {
            if game.must_act(seat) {
                progressed |= policy_move(game, seat, config, rng, legal, memo);
            }
        }
        if !progressed {
            // Cannot happen with a consistent game; never loop forever.
            return;
        }
    }
}

/// The value of a finished game for `seat` (see the module documentation), in [0, 1].
#[cfg(test)]
fn reward(game: &Game, seat: usize) -> f64 {
    reward_parts(game, seat).0
}

/// [`reward`] and the seat's win share in it (1 a sole first place, 0.5 a shared one, else 0;
/// in teams, its team's).
pub(crate) fn reward_parts(game: &Game, seat: usize) -> (f64, f64) {
    let scores = game.scores();
    if game.teams() {
        return team_reward(game, &scores, seat);
    }
    let ranks = game.ranks_from(&scores);
    let players = game.players();
    let firsts = ranks.iter().filter(|&&r| r == 1).count();
    let win = if ranks[seat] == 1 { if firsts == 1 { 1.0 } else { 0.5 } } else { 0.0 };
    let mine = scores[seat].total;
    let best_other = (0..players).filter(|&s| s != seat).map(|s| scores[s].total).max().unwrap_or(mine);
    let margin = (mine - best_other) as f64;
    (0.8 * win + 0.2 / (1.0 + (-margin / 6.0).exp()), win)
}

/// The team variant: the value of the game for `seat`'s team (its win, shared when teams tie,
/// and its margin over the best other team: team totals are sums of two players, so the margin
/// is scaled by twice the single-player scale).
fn team_reward(game: &Game, scores: &[wonders_core::Score], seat: usize) -> (f64, f64) {
    let keyed: Vec<(i32, u16)> = (0..game.players()).map(|s| (scores[s].total, game.city(s).coins)).collect();
    let teams = wonders_core::teams::results(&keyed);
    let mine = &teams[wonders_core::teams::team_of(seat)];
    let firsts = teams.iter().filter(|t| t.rank == 1).count();
    let win = if mine.rank == 1 { if firsts == 1 { 1.0 } else { 0.5 } } else { 0.0 };
    let best_other =
        teams.iter().filter(|t| t.players != mine.players).map(|t| t.total).max().unwrap_or(mine.total);
    let margin = (mine.total - best_other) as f64;
    (0.8 * win + 0.2 / (1.0 + (-margin / 12.0).exp()), win)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wonders_core::Setup;

    /// Plays a 4-player game, seat 0 by `bot`, seats 1–3 by `others`; the moves, in order.
    fn moves_against(mut bot: SearchBot, mut others: Vec<Box<dyn Bot>>, seed: u64) -> Vec<Action> {
        let mut game = Game::new(&Setup::new(4, seed)).unwrap();
        let mut legal = Vec::new();
        let mut moves = Vec::new();
        while !game.is_over() {
            for s in game.to_act() {
                if game.must_act(s) {
                    game.legal_actions_into(s, &mut legal);
                    let view = game.view(s);
                    let a =
                        if s == 0 { bot.choose(&view, &legal) } else { others[s - 1].choose(&view, &legal) };
                    game.submit(s, a).unwrap();
                    moves.push(a);
                }
            }
        }
        moves
    }

    #[test]
    fn the_adaptive_model_plays_heuristic_tables_move_for_move_as_the_fixed_one() {
        // Heuristic players never stray from the rollout policy, so no seat gets a tree: the
        // same seed and budget play the same game. Against random players the seats stray, get
        // trees, and the game goes otherwise.
        let config = SearchConfig { budget: Budget::Iterations(60), ..SearchConfig::default() };
        let fixed = SearchConfig { adaptive_opponents: false, ..config };
        assert!(!config.budget.models_unknown_seats_as_searchers());
        let heuristics = || (0..3).map(|_| Box::new(crate::HeuristicBot::new()) as Box<dyn Bot>).collect();
        let adaptive = moves_against(SearchBot::new(config, 3), heuristics(), 21);
        assert_eq!(adaptive, moves_against(SearchBot::new(fixed, 3), heuristics(), 21));
        let randoms = || (1..4).map(|s| Box::new(crate::RandomBot::new(s)) as Box<dyn Bot>).collect();
        let adaptive = moves_against(SearchBot::new(config, 3), randoms(), 22);
        assert_ne!(adaptive, moves_against(SearchBot::new(fixed, 3), randoms(), 22));
        assert_eq!(SearchBot::new(config, 3).name(), "search:60it");
        assert_eq!(SearchBot::new(fixed, 3).name(), "search:60it:fixed");
    }

    #[test]
    fn unknown_seats_are_modelled_as_searchers_from_half_a_second_or_10000_iterations() {
        let b = |budget: Budget| budget.models_unknown_seats_as_searchers();
        assert!(!b(Budget::Time(Duration::from_millis(300))) && b(Budget::Time(Duration::from_millis(500))));
        assert!(!b(Budget::Iterations(9_999)) && b(Budget::Iterations(10_000)));
    }

    #[test]
    fn widening_starts_with_two_and_grows() {
        assert_eq!(active(0, 10, 0.4), 2);
        assert_eq!(active(100, 10, 0.4), 5);
        assert_eq!(active(10_000, 10, 0.4), 10);
        assert_eq!(active(0, 1, 0.4), 1);
    }

    #[test]
    fn candidates_keep_one_payment_per_card_and_kind() {
        let game = Game::new(&Setup::new(4, 21)).unwrap();
        let legal = game.legal_actions(0);
        let config = SearchConfig { max_candidates: 100, ..SearchConfig::default() };
        let cands = candidates(&game.view(0), &config, &legal);
        assert!(cands.iter().all(|c| legal.contains(&c.0)));
        assert!(cands.windows(2).all(|w| w[0].1 >= w[1].1), "ranked by the heuristic");
        let cands: Vec<Action> = cands.into_iter().map(|c| c.0).collect();
        // Every card of the hand can be discarded: 7 distinct cards at most, one discard each.
        let discards = cands.iter().filter(|a| matches!(a, Action::Discard { .. })).count();
        let mut distinct: Vec<_> = game.hand(0).to_vec();
        distinct.sort();
        distinct.dedup();
        assert_eq!(discards, distinct.len());
        for (i, a) in cands.iter().enumerate() {
            for b in &cands[i + 1..] {
                assert!(
                    std::mem::discriminant(a) != std::mem::discriminant(b) || a.card() != b.card(),
                    "{a:?} and {b:?}"
                );
            }
        }
    }

    #[test]
    fn common_deals_give_two_copies_of_a_move_the_same_samples() {
        // The same move twice among the root's candidates. An exploration this large makes UCB1
        // alternate between them (the less visited first, the first on a tie), so each has 20
        // samples of 40. With common deals the k-th sample of each is the same deal, and the
        // seat's tree below each copy grows alike: the sums agree to the last bit. With a fresh
        // deal per sample they do not.
        let game = Game::new(&Setup::new(4, 5)).unwrap();
        let view = game.view(0);
        let legal = game.legal_actions(0);
        let cands = [(legal[0], 0.0), (legal[0], 0.0)];
        for common_deals in [true, false] {
            let config = SearchConfig { exploration: 1e6, common_deals, ..SearchConfig::default() };
            let stats = search_root(&view, &config, &cands, 40, None, 9, None, 0);
            assert_eq!((stats[0].visits, stats[1].visits), (20, 20));
            assert_eq!(
                (stats[0].total == stats[1].total, stats[0].wins == stats[1].wins),
                (common_deals, common_deals),
                "common deals {common_deals}: {stats:?}"
            );
        }
    }

    #[test]
    fn in_teams_the_reward_is_the_teams() {
        // A finished team game: both players of a team get the same reward, the winning team's
        // above 0.8 (its win) and the losing team's below 0.2.
        let mut game = Game::new(&Setup { teams: true, ..Setup::new(4, 8) }).unwrap();
        let mut legal = Vec::new();
        while !game.is_over() {
            for seat in game.to_act() {
                game.legal_actions_into(seat, &mut legal);
                game.submit(seat, legal[0]).unwrap();
            }
        }
        let r: Vec<f64> = (0..4).map(|s| reward(&game, s)).collect();
        assert_eq!((r[0], r[2]), (r[1], r[3]));
        let ranks = game.ranks();
        if ranks[0] != ranks[2] {
            let (win, lose) = if ranks[0] == 1 { (r[0], r[2]) } else { (r[2], r[0]) };
            assert!(win > 0.8 && lose < 0.2, "{r:?}");
        } else {
            assert!(r[0] > 0.4 && r[0] < 0.6, "{r:?}");
        }
    }

    #[test]
    fn reward_is_higher_for_the_winner() {
        let mut game = Game::new(&Setup::new(3, 2)).unwrap();
        let mut legal = Vec::new();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let config = SearchConfig::default();
        rollout(&mut game, &config, &mut rng, &mut legal, &Memo::new(&config.weights, None));
        assert!(game.is_over());
        let ranks = game.ranks();
        let winner = ranks.iter().position(|&r| r == 1).unwrap();
        let loser = ranks.iter().position(|&r| r == 3).unwrap_or(ranks.iter().position(|&r| r > 1).unwrap());
        assert!(reward(&game, winner) >= 0.8);
        assert!(reward(&game, loser) < 0.2);
    }

    #[test]
    fn the_network_prior_moves_each_candidate_by_its_log_probability_gap() {
        let game = Game::new(&Setup::new(4, 8)).unwrap();
        let view = game.view(2);
        let legal = game.legal_actions(2);
        let config = SearchConfig { max_candidates: 100, ..SearchConfig::default() };
        let before = candidates(&view, &config, &legal);
        let mut after = before.clone();
        let net = Network::embedded();
        network_prior(&net, &view, &legal, &mut after, NETWORK_POINTS);
        let eval = net.evaluate(&view, &legal).unwrap();
        let p = |a: &Action| -> f32 {
            legal.iter().zip(&eval.policy).filter(|(l, _)| key(l) == key(a)).map(|(_, p)| p).sum()
        };
        let top = before.iter().map(|c| p(&c.0)).fold(0.0f32, f32::max);
        assert_eq!(after.len(), before.len());
        for (a, v) in &before {
            let moved = after.iter().find(|c| c.0 == *a).unwrap().1;
            let want = v + NETWORK_POINTS * (p(a).max(1e-4) / top).ln();
            assert!((moved - want).abs() < 1e-4, "{a:?}: {moved} against {want}");
        }
        assert!(after.windows(2).all(|w| w[0].1 >= w[1].1), "ranked again, best first");
        // Where the network does not fit (another edition), nothing changes.
        let second =
            Game::new(&Setup { edition: wonders_core::Edition::Second, ..Setup::new(4, 8) }).unwrap();
        let (view2, legal2) = (second.view(0), second.legal_actions(0));
        let mut same = candidates(&view2, &config, &legal2);
        let kept = same.clone();
        network_prior(&net, &view2, &legal2, &mut same, NETWORK_POINTS);
        assert_eq!(same, kept);
    }

    #[test]
    fn the_blend_plays_the_best_heuristic_value_plus_the_networks_log_probability() {
        // Every decision of a game between four heuristics, seen from seat 0: the blend's move
        // has the highest `value + BLEND_POINTS · ln(p / p_best)` over every legal action, each
        // valued by the heuristic and the network independently here.
        let net = Network::embedded();
        let mut game = Game::new(&Setup::new(4, 12)).unwrap();
        let mut bots: Vec<crate::HeuristicBot> = (0..4).map(|_| crate::HeuristicBot::new()).collect();
        let mut legal = Vec::new();
        let mut checked = 0;
        while !game.is_over() {
            for seat in game.to_act() {
                game.legal_actions_into(seat, &mut legal);
                let view = game.view(seat);
                if seat == 0 && legal.len() > 1 {
                    let pick = blended_choice(&net, &view, &legal).unwrap();
                    let eval = net.evaluate(&view, &legal).unwrap();
                    let mut values = vec![0.0f32; legal.len()];
                    evaluate(&Ctx::from_view(&view), &Weights::default(), &legal, true, |i, v| values[i] = v);
                    let p = |a: &Action| -> f32 {
                        legal.iter().zip(&eval.policy).filter(|(l, _)| key(l) == key(a)).map(|(_, p)| p).sum()
                    };
                    let top = legal.iter().map(p).fold(0.0f32, f32::max);
                    let score = |i: usize| values[i] + BLEND_POINTS * (p(&legal[i]).max(1e-4) / top).ln();
                    let best = (0..legal.len()).map(score).fold(f32::MIN, f32::max);
                    let at = legal.iter().position(|a| *a == pick).unwrap();
                    assert!((score(at) - best).abs() < 1e-4, "turn {}: {pick:?}", game.turn());
                    checked += 1;
                }
                let a = crate::Bot::choose(&mut bots[seat], &view, &legal);
                game.submit(seat, a).unwrap();
            }
        }
        assert!(checked >= 18, "{checked} decisions checked");
    }

    #[test]
    fn root_statistics_are_pinned() {
        // Visits and values of a fixed-iteration root search in an Age II position, computed on
        // the build before the speed work (2026-11-23): the search must stay the same
        // search, only faster. (The root-only search: the tree below the root, added later,
        // changes what the samples see after the root.)
        let mut game = Game::new(&Setup::new(4, 33)).unwrap();
        let mut bots: Vec<crate::HeuristicBot> = (0..4).map(|_| crate::HeuristicBot::new()).collect();
        let mut legal = Vec::new();
        while !(game.age() == 2 && game.turn() == 2) {
            for seat in game.to_act() {
                game.legal_actions_into(seat, &mut legal);
                let a = crate::Bot::choose(&mut bots[seat], &game.view(seat), &legal);
                game.submit(seat, a).unwrap();
            }
        }
        let view = game.view(1);
        game.legal_actions_into(1, &mut legal);
        // The settings of that build: exploration 0.4, a fresh deal for every sample.
        let config =
            SearchConfig { tree: false, exploration: 0.4, common_deals: false, ..SearchConfig::default() };
        let cands = candidates(&view, &config, &legal);
        let stats = search_root(&view, &config, &cands, 60, None, 5, None, 0);
        let got: Vec<(u32, String)> = stats.iter().map(|s| (s.visits, format!("{:.9}", s.total))).collect();
        let want: &[(u32, &str)] =
            &[(30, "4.632948202"), (8, "0.165742441"), (19, "2.450023588"), (3, "0.046544473")];
        assert!(stats[want.len()..].iter().all(|s| s.visits == 0 && s.total == 0.0));
        let got = &got[..want.len()];
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            assert_eq!((g.0, g.1.as_str()), *w);
        }
    }
}
