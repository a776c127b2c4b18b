//! The search's tree below the root: the seat's own later decisions, searched as the root is.
//!
//! Without it, every decision after the root's is the rollout policy's, so the search values a
//! root move by what the heuristic would make of it, and more samples only sharpen that one
//! estimate. With it, each iteration also walks the seat's later decisions down a tree (single-
//! observer ISMCTS, Cowling, Powley and Whitehouse 2012): a node is the seat's information
//! reached by its own choices so far (open loop: the other seats' moves, the deals and the
//! cards passed are the sample's), an edge a kind of action on a card (build, stage, discard…,
//! its payment the heuristic's best in the sample). Since the hand a node sees differs from one
//! sample to the next, an edge is chosen among the ones available in this sample, by UCB1 on
//! its availability count (`ln avail` in place of `ln N`), with the same heuristic prior and
//! progressive widening as the root. One node is added per iteration; below it the rollout
//! policy plays to the end. The other seats play the rollout policy (which is what the heuristic
//! opponents do), unless they are searched as below. More time grows the tree, so the
//! seat's own plan improves with thought: the estimate of a root move converges to the value of
//! playing it well, not to the value of the heuristic's continuation.
//!
//! With [`SearchConfig::opponent_bandits`] (`search:…:duct`), the other seats' choices of the
//! searched turn are searched as well, in the decoupled form of UCT for simultaneous moves
//! (Lanctot et al., 2013): each other seat has a bandit of its own over its kinds of action on a
//! card (UCB1 on availability, with the heuristic's prior, as the seat's own nodes), chosen
//! without knowing the others' choices (theirs or the seat's), and credited with that seat's own
//! result. A few iterations keep them close to the heuristic's choices; more make them answer
//! the seat's moves as a searching opponent would.
//!
//! With [`SearchConfig::opponent_trees`] (`search:…:mo`), every other seat's choices of a card
//! are searched from the searched turn on, each seat in a tree of its own (multiple-observer ISMCTS
//! in its open-loop form): a node is that seat's information reached by its own choices, its
//! edges are chosen as the seat's own are (UCB1 on availability, the heuristic's prior,
//! progressive widening), each walk is credited with that seat's own result, and each tree adds
//! one node per iteration. The other seats then answer the seat's moves as searchers of the same
//! thought would, through the whole game; against the heuristic, whose choices the trees stray
//! from, it is the worse model. By default ([`SearchConfig::adaptive_opponents`]) only the seats
//! seen to stray from the heuristic get trees (the `watch` module), the others play the policy.

use crate::ctx::Ctx;
use crate::heuristic::choose_in_game;
use crate::memo::Memo;
use crate::search::{SearchConfig, candidates_in, key, reward_parts};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use wonders_core::{Action, Game, Phase};

/// The key of an edge: the kind of action and its card (see [`key`]).
type Key = (u8, Option<u8>);

/// One edge of a node: a kind of action on a card.
#[derive(Clone, Debug)]
struct Edge {
    key: Key,
    visits: u32,
    total: f64,
    /// The iterations in which this edge was available (and active) at its node.
    avail: u32,
    /// The node it leads to, once expanded.
    child: Option<u32>,
}

/// A node: the seat's decision after a sequence of its own choices.
#[derive(Clone, Debug, Default)]
struct Node {
    edges: Vec<Edge>,
    visits: u32,
    total: f64,
}

/// The trees below each root candidate of one search thread.
#[derive(Debug)]
pub(crate) struct Tree {
    nodes: Vec<Node>,
    /// Per root candidate, the node of the seat's next decision after it.
    roots: Vec<u32>,
    /// The (node, edge) pairs walked by the current iteration.
    path: Vec<(u32, u32)>,
    /// With [`SearchConfig::opponent_bandits`]: per seat, the bandit of its choice in the
    /// searched turn (the seat's own entry unused).
    others: Vec<Node>,
    /// The (seat, edge) pairs of the other seats' bandits chosen by the current iteration.
    others_path: Vec<(usize, u32)>,
    /// Once a seat of `searchers` is searched: per seat, the root of its tree in `nodes` (used
    /// only for the seats of `searchers`).
    other_roots: Vec<u32>,
    /// The (seat, node, edge) triples walked in the other seats' trees by the current iteration.
    other_path: Vec<(usize, u32, u32)>,
    /// The other seats searched in trees of their own, a bit per seat (every other seat with
    /// [`SearchConfig::opponent_trees`], those seen to stray with
    /// [`SearchConfig::adaptive_opponents`]).
    searchers: u8,
}

impl Tree {
    /// An empty tree for `candidates` root candidates, the seats of the bits of `searchers`
    /// searched in trees of their own.
    pub(crate) fn new(candidates: usize, searchers: u8) -> Tree {
        let nodes = vec![Node::default(); candidates];
        Tree {
            nodes,
            roots: (0..candidates as u32).collect(),
            path: Vec::with_capacity(16),
            others: Vec::new(),
            others_path: Vec::with_capacity(8),
            other_roots: Vec::new(),
            other_path: Vec::with_capacity(32),
            searchers,
        }
    }

    /// Plays `game` (the root candidate `root` already submitted for `seat`) to its end: the
    /// seat's decisions down the tree while it is in it, everything else by the rollout policy;
    /// then backs `value` up with [`Tree::backup`].
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn simulate(
        &mut self,
        game: &mut Game,
        seat: usize,
        root: usize,
        config: &SearchConfig,
        rng: &mut ChaCha8Rng,
        legal: &mut Vec<Action>,
        memo: &Memo,
    ) {
        self.path.clear();
        self.others_path.clear();
        let mut node = Some(self.roots[root]);
        let mut cands: Vec<(Action, f32)> = Vec::with_capacity(12);
        // The searched turn, while the other seats' choices in it are searched.
        let searched = (config.opponent_bandits && self.searchers == 0 && game.phase() == Phase::Choose)
            .then(|| (game.age(), game.turn()));
        if searched.is_some() && self.others.len() < game.players() {
            self.others.resize(game.players(), Node::default());
        }
        // Each searched seat's place in its own tree (the seats of `searchers`).
        self.other_path.clear();
        let mut other_at = [None::<u32>; 8];
        if self.searchers != 0 {
            if self.other_roots.is_empty() {
                for _ in 0..game.players() {
                    self.other_roots.push(self.nodes.len() as u32);
                    self.nodes.push(Node::default());
                }
            }
            for (s, at) in other_at.iter_mut().enumerate().take(game.players()) {
                if s != seat && self.searchers >> s & 1 == 1 {
                    *at = Some(self.other_roots[s]);
                }
            }
        }
        while !game.is_over() {
            let mut progressed = false;
            for s in game.to_act() {
                if !game.must_act(s) {
                    continue;
                }
                if s != seat
                    && let Some(at) = other_at.get(s).copied().flatten()
                    && game.phase() == Phase::Choose
                {
                    game.legal_actions_into(s, legal);
                    if legal.len() > 1 {
                        let ctx = Ctx { memo: Some(memo), ..Ctx::from_game(game, s) };
                        candidates_in(&ctx, config, legal, &mut cands);
                        let (edge, action) = self.select(at, &cands, config);
                        game.submit_trusted(s, action);
                        self.other_path.push((s, at, edge));
                        other_at[s] = self.descend(at, edge);
                        progressed = true;
                        continue;
                    }
                }
                if s != seat
                    && searched
                        .is_some_and(|t| t == (game.age(), game.turn()) && game.phase() == Phase::Choose)
                {
                    game.legal_actions_into(s, legal);
                    if legal.len() > 1 {
                        let ctx = Ctx { memo: Some(memo), ..Ctx::from_game(game, s) };
                        candidates_in(&ctx, config, legal, &mut cands);
                        let (edge, action) = select_in(&mut self.others[s], &cands, config);
                        game.submit_trusted(s, action);
                        self.others_path.push((s, edge));
                        progressed = true;
                        continue;
                    }
                }
                if s == seat
                    && let Some(at) = node
                {
                    game.legal_actions_into(s, legal);
                    if legal.len() <= 1 {
                        let Some(&only) = legal.first() else { continue };
                        game.submit_trusted(s, only);
                        progressed = true;
                        continue;
                    }
                    let ctx = Ctx { memo: Some(memo), ..Ctx::from_game(game, s) };
                    candidates_in(&ctx, config, legal, &mut cands);
                    let (edge, action) = self.select(at, &cands, config);
                    game.submit_trusted(s, action);
                    self.path.push((at, edge));
                    node = self.descend(at, edge);
                    progressed = true;
                    continue;
                }
                progressed |= policy_move(game, s, config, rng, legal, memo);
            }
            if !progressed {
                return;
            }
        }
        // Each other seat's tree or bandit is credited with that seat's own result, worked out
        // once per seat (a walk credits many nodes of one seat).
        let mut results = [None::<f64>; 8];
        let mut result = |s: usize| *results[s].get_or_insert_with(|| reward_parts(game, s).0);
        for &(s, at, edge) in &self.other_path {
            credit(&mut self.nodes[at as usize], edge, result(s));
        }
        for &(s, edge) in &self.others_path {
            credit(&mut self.others[s], edge, result(s));
        }
    }

    /// The node below `edge` of `at`, or `None` after adding it (one node per tree and
    /// iteration: the walk then leaves the tree).
    fn descend(&mut self, at: u32, edge: u32) -> Option<u32> {
        let fresh = self.nodes.len() as u32;
        let e = &mut self.nodes[at as usize].edges[edge as usize];
        match e.child {
            Some(child) => Some(child),
            None => {
                e.child = Some(fresh);
                self.nodes.push(Node::default());
                None
            }
        }
    }

    /// Adds the finished sample's `value` to every edge and node walked by the iteration.
    pub(crate) fn backup(&mut self, root: usize, value: f64) {
        let r = &mut self.nodes[self.roots[root] as usize];
        r.visits += 1;
        r.total += value;
        for &(at, edge) in &self.path {
            let e = &mut self.nodes[at as usize].edges[edge as usize];
            e.visits += 1;
            e.total += value;
            if let Some(child) = e.child {
                let c = &mut self.nodes[child as usize];
                c.visits += 1;
                c.total += value;
            }
        }
    }

    /// The edge of `at` to follow among this sample's candidates (ranked by the heuristic, best
    /// first), and its action in this sample.
    fn select(&mut self, at: u32, cands: &[(Action, f32)], config: &SearchConfig) -> (u32, Action) {
        select_in(&mut self.nodes[at as usize], cands, config)
    }

    /// The number of nodes (for tests and measurements).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }
}

/// Adds a sample's `value` to `node` and to its `edge`.
fn credit(node: &mut Node, edge: u32, value: f64) {
    node.visits += 1;
    node.total += value;
    let e = &mut node.edges[edge as usize];
    e.visits += 1;
    e.total += value;
}

/// The edge of `node` to follow among this sample's candidates (ranked by the heuristic, best
/// first), and its action in this sample: UCB1 on the edges' availability, with the heuristic's
/// prior, among the first candidates progressive widening allows.
fn select_in(node: &mut Node, cands: &[(Action, f32)], config: &SearchConfig) -> (u32, Action) {
    let k = crate::search::active(node.visits, cands.len(), config.widening);
    let mean = if node.visits == 0 { 0.5 } else { node.total / node.visits as f64 };
    let top = cands[0].1 as f64;
    let mut best: Option<(f64, u32, Action)> = None;
    for &(action, value) in &cands[..k] {
        let kk = key(&action);
        let i = match node.edges.iter().position(|e| e.key == kk) {
            Some(i) => i,
            None => {
                node.edges.push(Edge { key: kk, visits: 0, total: 0.0, avail: 0, child: None });
                node.edges.len() - 1
            }
        };
        let e = &mut node.edges[i];
        e.avail += 1;
        let prior = (mean - config.prior_slope * (top - value as f64)).clamp(0.0, 1.0);
        let visits = e.visits as f64 + config.prior_visits;
        let q = (e.total + prior * config.prior_visits) / visits;
        let ln = (e.avail as f64 + config.prior_visits).ln();
        let v = q + config.exploration * (ln / visits).sqrt();
        if best.is_none_or(|(b, _, _)| v > b) {
            best = Some((v, i as u32, action));
        }
    }
    let (_, i, action) = best.unwrap_or((0.0, 0, cands[0].0));
    (i, action)
}

/// One decision of `seat` by the rollout policy (see [`crate::search::rollout`]); false when the
/// seat had no legal action (which a consistent game never has).
pub(crate) fn policy_move(
    game: &mut Game,
    seat: usize,
    config: &SearchConfig,
    rng: &mut ChaCha8Rng,
    legal: &mut Vec<Action>,
    memo: &Memo,
) -> bool {
    if config.epsilon <= 0.0 {
        // The policy's choice without listing every action, when the turn allows it.
        let ctx = Ctx { memo: Some(memo), ..Ctx::from_game(game, seat) };
        if let Some(action) = choose_in_game(game, seat, &ctx, &config.weights, config.rollout_deny) {
            // One of the legal actions of this very state: no second check.
            game.submit_trusted(seat, action);
            return true;
        }
    }
    game.legal_actions_into(seat, legal);
    if legal.is_empty() {
        return false;
    }
    let i = if config.epsilon > 0.0 && rng.random::<f32>() < config.epsilon {
        rng.random_range(0..legal.len())
    } else {
        let ctx = Ctx { memo: Some(memo), ..Ctx::from_game(game, seat) };
        crate::heuristic::best(&ctx, &config.weights, legal, config.rollout_deny).unwrap_or(0)
    };
    // Taken from the legal list of this very state: no second check.
    game.submit_trusted(seat, legal[i]);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{candidates_in, reward_parts};
    use rand::SeedableRng;
    use wonders_core::Setup;

    /// Runs `n` iterations of the tree below the first decision of a 4-player game, the root
    /// candidates in turn, and returns the tree with the root's candidates.
    fn grow(n: usize) -> (Tree, Vec<(Action, f32)>) {
        grow_with(n, SearchConfig::default())
    }

    fn grow_with(n: usize, config: SearchConfig) -> (Tree, Vec<(Action, f32)>) {
        grow_searching(n, config, if config.opponent_trees { 0b1110 } else { 0 })
    }

    /// [`grow_with`], the seats of `searchers`' bits searched in trees of their own.
    fn grow_searching(n: usize, config: SearchConfig, searchers: u8) -> (Tree, Vec<(Action, f32)>) {
        let game = Game::new(&Setup::new(4, 11)).unwrap();
        let legal = game.legal_actions(0);
        let memo = Memo::new(&config.weights, None);
        let mut cands = Vec::new();
        candidates_in(&Ctx::from_game(&game, 0), &config, &legal, &mut cands);
        let mut tree = Tree::new(cands.len(), searchers);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut buf = Vec::new();
        for i in 0..n {
            let root = i % cands.len();
            let mut g = game.clone();
            g.submit(0, cands[root].0).unwrap();
            tree.simulate(&mut g, 0, root, &config, &mut rng, &mut buf, &memo);
            assert!(g.is_over());
            tree.backup(root, reward_parts(&g, 0).0);
        }
        (tree, cands)
    }

    #[test]
    fn each_iteration_adds_one_node_and_backs_up_along_its_path() {
        let (tree, cands) = grow(60);
        // A game's first turn: every iteration reaches the seat's next decision, so each one
        // expands exactly one node below the root's candidates.
        assert_eq!(tree.len(), cands.len() + 60);
        let k = cands.len();
        for (r, &node) in tree.roots.iter().enumerate() {
            let n = &tree.nodes[node as usize];
            // Candidate r was played in iterations r, r + k, …: one visit each.
            assert_eq!(n.visits as usize, (60 - r).div_ceil(k));
            // Every visit of the node went down exactly one of its edges.
            assert_eq!(n.edges.iter().map(|e| e.visits).sum::<u32>(), n.visits);
            let total: f64 = n.edges.iter().map(|e| e.total).sum();
            assert!((total - n.total).abs() < 1e-9);
        }
    }

    #[test]
    fn a_second_decision_is_a_kind_of_action_on_a_card_of_the_next_hand() {
        let (tree, _) = grow(30);
        let node = &tree.nodes[tree.roots[0] as usize];
        // After turn 1 the seat holds 6 cards: at most 6 cards × (build, stage, discard) keys.
        assert!(!node.edges.is_empty() && node.edges.len() <= 18);
        assert!(node.edges.iter().all(|e| e.key.1.is_some() && e.key.0 <= 2), "{:?}", node.edges);
        // Availability counts at least the visits (an edge is chosen only where available).
        assert!(node.edges.iter().all(|e| e.avail >= e.visits));
    }

    #[test]
    fn the_other_seats_bandits_choose_their_turn_and_are_credited_with_their_own_results() {
        let n = 48;
        let config = SearchConfig { opponent_bandits: true, ..SearchConfig::default() };
        let (tree, _) = grow_with(n, config);
        // The first turn of a 4-player game: each other seat has 7 cards and a choice, so each
        // iteration goes down exactly one edge of each other seat's bandit.
        assert_eq!(tree.others.len(), 4);
        assert_eq!(tree.others[0].visits, 0, "the searching seat has no bandit of its own here");
        for other in &tree.others[1..] {
            assert_eq!(other.visits as usize, n);
            assert_eq!(other.edges.iter().map(|e| e.visits).sum::<u32>(), other.visits);
            let total: f64 = other.edges.iter().map(|e| e.total).sum();
            assert!((total - other.total).abs() < 1e-9);
            // An edge is a build, stage or discard of a card. The seat does not know the others'
            // hands, so each sample deals them anew: an edge is available only when its card is
            // in the sampled hand, and chosen only where available.
            assert!(other.edges.iter().all(|e| e.key.1.is_some() && e.key.0 <= 2 && e.avail >= e.visits));
            assert!(other.edges.iter().filter(|e| e.visits > 0).count() >= 2, "{:?}", other.edges);
        }
        // The seat's own tree is grown as without the bandits: one node per iteration.
        assert_eq!(tree.len(), tree.roots.len() + n);
        // Without the option the other seats play the rollout policy: no bandit.
        let (plain, _) = grow(n);
        assert!(plain.others.is_empty());
    }

    #[test]
    fn every_other_seat_grows_a_tree_of_its_own_credited_with_its_own_results() {
        let n = 48;
        let config = SearchConfig { opponent_trees: true, ..SearchConfig::default() };
        let (tree, cands) = grow_with(n, config);
        assert_eq!(tree.other_roots.len(), 4);
        assert!(tree.others.is_empty(), "the trees replace the searched turn's bandits");
        let root_of = |s: usize| &tree.nodes[tree.other_roots[s] as usize];
        assert_eq!(root_of(0).visits, 0, "the searching seat has no tree among the others'");
        for s in 1..4 {
            // Each other seat has a choice in every turn, so every iteration walks its tree from
            // its root and adds one node to it.
            let root = root_of(s);
            assert_eq!(root.visits as usize, n);
            assert!(root.edges.iter().all(|e| e.key.1.is_some() && e.key.0 <= 2 && e.avail >= e.visits));
            assert!(root.edges.iter().filter(|e| e.visits > 0).count() >= 2, "{:?}", root.edges);
        }
        // The seat's own tree adds one node per iteration, and so does each other seat's.
        assert_eq!(tree.len(), cands.len() + n + 4 + 3 * n);
        // Below the others' roots, a node is walked by every iteration through its edge but the
        // one that added it; each node's edges add up to its visits and its value.
        let own: std::collections::HashSet<u32> = {
            let mut seen: std::collections::HashSet<u32> = tree.roots.iter().copied().collect();
            let mut stack: Vec<u32> = tree.roots.clone();
            while let Some(at) = stack.pop() {
                for e in &tree.nodes[at as usize].edges {
                    if let Some(c) = e.child
                        && seen.insert(c)
                    {
                        stack.push(c);
                    }
                }
            }
            seen
        };
        for (i, node) in tree.nodes.iter().enumerate() {
            if own.contains(&(i as u32)) {
                continue;
            }
            assert_eq!(node.edges.iter().map(|e| e.visits).sum::<u32>(), node.visits);
            let total: f64 = node.edges.iter().map(|e| e.total).sum();
            assert!((total - node.total).abs() < 1e-9);
            for e in &node.edges {
                if let Some(c) = e.child {
                    assert_eq!(tree.nodes[c as usize].visits + 1, e.visits);
                }
            }
        }
        // Without the option the other seats play the rollout policy: no tree of theirs.
        let (plain, _) = grow(n);
        assert!(plain.other_roots.is_empty());
    }

    #[test]
    fn only_the_seats_modelled_as_searchers_grow_trees() {
        // As the adaptive model does when seat 2 alone was seen to stray: seats 1 and 3 play the
        // rollout policy, seat 2 goes down a tree of its own, one node per iteration.
        let n = 40;
        let (tree, cands) = grow_searching(n, SearchConfig::default(), 0b0100);
        let root_of = |s: usize| &tree.nodes[tree.other_roots[s] as usize];
        assert_eq!(root_of(2).visits as usize, n);
        for s in [0, 1, 3] {
            assert_eq!(root_of(s).visits, 0, "seat {s}");
        }
        assert_eq!(tree.len(), cands.len() + n + 4 + n);
    }
}
