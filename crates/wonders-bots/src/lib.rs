//! # wonders-bots
//!
//! Computer players for the [`wonders_core`] engine. A [`Bot`] sees exactly what a person at its
//! seat would see — the seat's [`View`] — plus the seat's legal actions, and picks one of them. It
//! never sees the [`Game`] itself, so it cannot peek at other hands or at the decks.
//!
//! [`play_out`] drives a whole game with one bot per seat; it allocates nothing per move once its
//! action buffer has grown, so it is fit for large simulations.
//!
//! ```
//! use wonders_bots::{play_out, RandomBot};
//! use wonders_core::{Game, Setup};
//!
//! let mut game = Game::new(&Setup::new(4, 2024)).unwrap();
//! let mut bots: Vec<RandomBot> = (0..4).map(RandomBot::new).collect();
//! let mut legal = Vec::new();
//! play_out(&mut game, &mut bots, &mut legal).unwrap();
//! assert!(game.is_over());
//! assert_eq!(game.scores().len(), 4);
//! ```
//!
//! The players:
//!
//! - [`RandomBot`] (`random`): a uniformly random legal action;
//! - [`HeuristicBot`] (`heuristic`): fast rules valuing every action in points (see
//!   [`heuristic`]);
//! - [`SearchBot`] (`search`): Monte-Carlo search over deals sampled from its view, with the
//!   heuristic as the playout policy (see [`search`]);
//! - [`NeuralBot`] (`neural`): a policy network trained to imitate the search, reading the
//!   observation and the heuristic's values of the actions, one forward pass per decision and no
//!   search (see [`neural`]);
//! - [`ExecBot`] (`exec:COMMAND`): an external program in any language, speaking the JSON-lines
//!   bot protocol on its standard input and output (see [`exec`]).
//!
//! [`bot_from_name`] builds any of them from a short name such as `search:200ms`.
//!
//! To add a player, implement [`Bot`] in a module of its own, re-export it here and give it a
//! name in [`bot_from_name`].

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod coach;
mod ctx;
pub mod exec;
pub mod heuristic;
mod heuristic_armada;
mod memo;
pub mod neural;
mod random;
pub mod search;
mod tree;
mod watch;
mod weights;

pub use exec::ExecBot;
pub use heuristic::HeuristicBot;
pub use neural::{Network, NeuralBot};
pub use random::{CardFirstBot, RandomBot, play_out_card_first};
pub use search::{Advice, SearchBot, SearchConfig};

use std::time::Duration;
use wonders_core::score::Score;
use wonders_core::{Action, ActionError, Game, View};

/// The bot names [`bot_from_name`] accepts, for help texts.
pub const BOT_NAMES_HELP: &str = "random, card-first (random, a card first), heuristic, heuristic:flat-naval (the first \
     Armada rules), search[:budget] (100 ms per move; a budget is <T>ms, <T>s or <N>it, with an \
     optional :<K>t for K threads, e.g. search:200ms:2t, and :flat for the search without its \
     tree below the root, :neural for the policy network's prior at its root, :fixed to play every \
     other seat by the heuristic whatever it is seen to do, :duct to search the other \
     seats' choices of the turn too, :mo to search every other seat's choices of a card in a tree of its own), neural (a policy network over the view and the heuristic's values, no search; \
     neural:weights=FILE for other weights; neural:heuristic blends the plain network with the heuristic, still no search), \
     and exec:COMMAND[:timeout=<T>ms|<T>s] \
     for an external bot (see `wonders bot-protocol`)";

/// Every bot [`bot_from_name`] makes, as help texts name them: a name, or a pattern for the
/// names that take options (`search[:budget]`: `search`, `search:200ms`, `search:5000it:2t`…;
/// `exec:COMMAND`: an external program). `heuristic:flat-naval` is a variant of `heuristic`.
///
/// ```
/// use wonders_bots::{BOT_NAMES, BOT_NAMES_HELP, bot_from_name};
/// for name in BOT_NAMES {
///     assert!(BOT_NAMES_HELP.contains(name), "{name}");
///     // The pattern's simplest name: `search` for `search[:budget]`, a command for `exec:COMMAND`.
///     let name = name.replace("[:budget]", "").replace("COMMAND", "true");
///     assert!(bot_from_name(&name, 1).is_ok(), "{name}");
/// }
/// ```
pub const BOT_NAMES: [&str; 6] =
    ["random", "card-first", "heuristic", "search[:budget]", "neural", "exec:COMMAND"];

/// A bot name as written in lists and reports: trimmed and in lower case, except the command of
/// an `exec:` name, whose case is kept (and whose time-out is written canonically).
///
/// ```
/// use wonders_bots::normalize_bot_name;
/// assert_eq!(normalize_bot_name(" Search:200MS "), "search:200ms");
/// assert_eq!(normalize_bot_name("EXEC: ./My Bot:timeout=2000ms"), "exec:./My Bot:timeout=2s");
/// ```
pub fn normalize_bot_name(name: &str) -> String {
    if let Some(path) = neural_weights_path(name) {
        return format!("neural:weights={path}");
    }
    match exec::strip_exec(name) {
        Some(rest) => match exec::ExecSpec::parse(rest) {
            Ok(spec) => spec.name(),
            Err(_) => format!("exec:{}", rest.trim()),
        },
        None => name.trim().to_ascii_lowercase(),
    }
}

/// A bot from its name, its random choices following from `seed`.
///
/// Names: `random`; `card-first` (random, a card first: [`CardFirstBot`]); `heuristic`
/// (`heuristic:flat-naval`: with the first, flat Armada rules, for comparison); `search` (100 ms
/// per decision, one thread); `search:` followed
/// by options separated by `:` — a budget `<N>it` (iterations per decision, deterministic),
/// `<T>ms` or `<T>s` (time per decision), `<K>t` (threads), `flat` (no tree below the root),
/// `neural` (the policy network's prior at the root), `fixed` (every other seat played by the
/// heuristic, whatever it is seen to do: [`SearchConfig::adaptive_opponents`] off), `duct` (the
/// other seats' choices of the turn searched too, [`SearchConfig::opponent_bandits`]) and `mo`
/// (every other seat's choices of a card searched in a tree of its own,
/// [`SearchConfig::opponent_trees`]); `neural` (the
/// residual policy network of
/// [`neural`], no search; `neural:weights=FILE` with the weights of a safetensors file, its path's
/// case kept). Names are case-insensitive and
/// surrounding spaces are ignored. `exec:COMMAND` is an external program (see [`exec`]; the
/// command keeps its case), optionally with `:timeout=<T>ms` or `:timeout=<T>s` at the end; the
/// program starts at the bot's first decision, and `seed` is passed to it in the handshake.
///
/// ```
/// use wonders_bots::bot_from_name;
/// assert_eq!(bot_from_name("heuristic", 1).unwrap().name(), "heuristic");
/// assert_eq!(bot_from_name("Heuristic:Flat-Naval", 1).unwrap().name(), "heuristic:flat-naval");
/// assert_eq!(bot_from_name("search:5000it", 1).unwrap().name(), "search:5000it");
/// assert_eq!(bot_from_name("Search:200ms:2t", 1).unwrap().name(), "search:200ms:2t");
/// let err = bot_from_name("oracle", 1).err().unwrap();
/// assert!(err.contains("unknown bot `oracle`"), "{err}");
/// assert!(bot_from_name("search:0it", 1).is_err());
/// assert_eq!(bot_from_name("search:1000it:duct", 1).unwrap().name(), "search:1000it:duct");
/// assert_eq!(bot_from_name("search:200ms:mo", 1).unwrap().name(), "search:200ms:mo");
/// assert_eq!(bot_from_name("search:100ms:fixed", 1).unwrap().name(), "search:100ms:fixed");
/// assert!(bot_from_name("search:mo:fixed", 1).err().unwrap().contains("two models"));
/// assert!(bot_from_name("search:flat:mo", 1).err().unwrap().contains("`flat` leaves out"));
/// let err = bot_from_name("search:flat:duct", 1).err().unwrap();
/// assert!(err.contains("`flat` leaves out"), "{err}");
/// ```
pub fn bot_from_name(name: &str, seed: u64) -> Result<Box<dyn Bot + Send>, String> {
    if let Some(rest) = exec::strip_exec(name) {
        let spec = exec::ExecSpec::parse(rest).map_err(|e| format!("bot `{}`: {e}", name.trim()))?;
        return Ok(Box::new(ExecBot::new(spec, seed)));
    }
    let lower = name.trim().to_ascii_lowercase();
    let mut parts = lower.split(':');
    let kind = parts.next().unwrap_or("");
    let options: Vec<&str> = parts.collect();
    let no_options = |bot: Box<dyn Bot + Send>| {
        if options.is_empty() {
            Ok(bot)
        } else {
            Err(format!("bot `{kind}` takes no options (`{}`)", name.trim()))
        }
    };
    match kind {
        "random" => no_options(Box::new(RandomBot::new(seed))),
        "card-first" => no_options(Box::new(CardFirstBot::new(seed))),
        // `heuristic:flat-naval`: the first Armada rules, kept to measure the fleet rules against.
        "heuristic" if options == ["flat-naval"] => Ok(Box::new(HeuristicBot::flat_naval())),
        "heuristic" => no_options(Box::new(HeuristicBot::new())),
        "neural" if options.is_empty() => Ok(Box::<NeuralBot>::default()),
        "neural" if options == ["heuristic"] => Ok(Box::new(NeuralBot::blended())),
        "neural" => {
            let path = neural_weights_path(name).ok_or_else(|| {
                format!("bot `{}`: `neural` takes one option, weights=FILE (a safetensors file)", name.trim())
            })?;
            let bytes = std::fs::read(path).map_err(|e| format!("bot `{}`: {path}: {e}", name.trim()))?;
            let net = Network::from_safetensors(&bytes)
                .map_err(|e| format!("bot `{}`: {path}: {e}", name.trim()))?;
            Ok(Box::new(
                NeuralBot::with_network(std::sync::Arc::new(net)).named(format!("neural:weights={path}")),
            ))
        }
        "search" => {
            let config = parse_search(&options).map_err(|e| format!("bot `{}`: {e}", name.trim()))?;
            Ok(Box::new(SearchBot::new(config, seed)))
        }
        _ => Err(format!("unknown bot `{}` (known: {BOT_NAMES_HELP})", name.trim())),
    }
}

/// The file of a `neural:weights=FILE` name, its case kept.
fn neural_weights_path(name: &str) -> Option<&str> {
    let name = name.trim();
    let prefix = "neural:weights=";
    let head = name.get(..prefix.len())?;
    let path = &name[prefix.len()..];
    (head.eq_ignore_ascii_case(prefix) && !path.is_empty()).then_some(path)
}

/// The options of a `search:…` name.
fn parse_search(options: &[&str]) -> Result<SearchConfig, String> {
    let mut config = SearchConfig::default();
    let (mut budget_set, mut threads_set) = (false, false);
    for &opt in options {
        let number = |digits: &str| -> Result<u64, String> {
            digits
                .parse::<u64>()
                .map_err(|_| format!("`{opt}` is not a budget (<N>it, <T>ms, <T>s) or threads (<K>t)"))
        };
        let budget = if let Some(d) = opt.strip_suffix("ms") {
            Some(search::Budget::Time(Duration::from_millis(number(d)?)))
        } else if let Some(d) = opt.strip_suffix("it") {
            let n = number(d)?;
            Some(search::Budget::Iterations(
                u32::try_from(n).map_err(|_| format!("`{opt}`: too many iterations"))?,
            ))
        } else if let Some(d) = opt.strip_suffix('s') {
            Some(search::Budget::Time(Duration::from_secs(number(d)?)))
        } else {
            None
        };
        if let Some(b) = budget {
            if budget_set {
                return Err("two budgets given".into());
            }
            let zero =
                matches!(b, search::Budget::Iterations(0)) || b == search::Budget::Time(Duration::ZERO);
            if zero {
                return Err(format!("`{opt}`: the budget must be positive"));
            }
            if matches!(b, search::Budget::Time(d) if d > Duration::from_secs(3600)) {
                return Err(format!("`{opt}`: at most an hour per decision"));
            }
            budget_set = true;
            config.budget = b;
        } else if opt == "neural" {
            // The policy network's prior at the root.
            config.network_prior = true;
        } else if opt == "duct" {
            // The other seats' choices of the searched turn searched too (decoupled bandits).
            config.opponent_bandits = true;
        } else if opt == "mo" {
            // Every other seat's choices of a card searched in a tree of its own.
            config.opponent_trees = true;
        } else if opt == "fixed" {
            // Every other seat played by the rollout policy, whatever it is seen to do.
            config.adaptive_opponents = false;
        } else if opt == "flat" {
            // The root-only bandit, without the tree below the root (to measure the tree).
            config.tree = false;
        } else if let Some(d) = opt.strip_suffix('t') {
            if threads_set {
                return Err("threads given twice".into());
            }
            let k = number(d)?;
            if !(1..=64).contains(&k) {
                return Err(format!("`{opt}`: 1 to 64 threads"));
            }
            threads_set = true;
            config.threads = k as usize;
        } else {
            return Err(format!("`{opt}` is not a budget (<N>it, <T>ms, <T>s) or threads (<K>t)"));
        }
    }
    if config.opponent_trees && options.contains(&"fixed") {
        return Err("`mo` and `fixed` are two models of the other seats: give one".into());
    }
    if config.opponent_trees && !config.tree {
        return Err("`mo` searches the other seats' choices in trees, which `flat` leaves out".into());
    }
    if config.opponent_bandits && !config.tree {
        return Err("`duct` searches the other seats' choices in the tree, which `flat` leaves out".into());
    }
    Ok(config)
}

/// A computer player.
///
/// The game calls [`Bot::choose`] each time the bot's seat must act: in every turn of an Age, for
/// Babylon's last card ([`wonders_core::Phase::PlayLastCard`]), for Halicarnassus' build from
/// the discard pile ([`wonders_core::Phase::BuildFromDiscard`]; `view.discard` then holds the
/// pile), for the 2nd edition's choice of a wonder side ([`wonders_core::Phase::ChooseSide`]) and,
/// in the 2-player variant, for the Free City (`view.acting_city` says which city the action is
/// for). `legal` is never empty and lists every legal action of the seat, each way to pay a
/// construction being a separate action; the bot must return one of them.
///
/// ```
/// use wonders_bots::Bot;
/// use wonders_core::{Action, View};
///
/// /// Always takes the first legal action.
/// struct First;
///
/// impl Bot for First {
///     fn choose(&mut self, _view: &View, legal: &[Action]) -> Action {
///         legal.first().copied().unwrap_or(Action::Pass)
///     }
///     fn name(&self) -> String {
///         "first".into()
///     }
/// }
///
/// let mut game = wonders_core::Game::new(&wonders_core::Setup::new(3, 1)).unwrap();
/// let mut bots = [First, First, First];
/// wonders_bots::play_out(&mut game, &mut bots, &mut Vec::new()).unwrap();
/// assert!(game.is_over());
/// ```
pub trait Bot {
    /// Picks one of `legal` for the seat `view` belongs to.
    fn choose(&mut self, view: &View, legal: &[Action]) -> Action;

    /// Picks as [`Bot::choose`] does, and says where the choice is in `legal`: `Ok(i)` for
    /// `legal[i]`, `Err(action)` for an action that is not in the list (the game then checks it,
    /// and refuses it if it is illegal). [`play_out`] plays a listed action without checking it
    /// again. The default calls [`Bot::choose`] and looks the action up in `legal`; a bot that
    /// draws an index (the random bot) answers it directly, sparing the look-up.
    ///
    /// ```
    /// use wonders_bots::{Bot, RandomBot};
    /// use wonders_core::{Game, Setup};
    ///
    /// let game = Game::new(&Setup::new(4, 9)).unwrap();
    /// let legal = game.legal_actions(0);
    /// let (mut a, mut b) = (RandomBot::new(7), RandomBot::new(7));
    /// let i = a.choose_index(&game.view(0), &legal).unwrap();
    /// assert_eq!(legal[i], b.choose(&game.view(0), &legal));
    /// ```
    fn choose_index(&mut self, view: &View, legal: &[Action]) -> Result<usize, Action> {
        let action = self.choose(view, legal);
        legal.iter().position(|a| *a == action).ok_or(action)
    }

    /// A short name for logs and reports, e.g. `random`.
    fn name(&self) -> String;

    /// The faults the bot made so far: none for the built-in bots; an [`ExecBot`] counts the
    /// moves its program lost to the fallback, and why.
    fn faults(&self) -> Faults {
        Faults::default()
    }

    /// Called once when the game is over ([`play_out`] and the `wonders` commands call it);
    /// nothing by default. An [`ExecBot`] sends its program the final scores and lets it exit.
    fn game_over(&mut self, end: &GameEnd<'_>) {
        let _ = end;
    }

    /// Whether [`Bot::choose`] reads its `view`. A bot that does not (the random bot) lets
    /// [`play_out`] skip building a view for each of its decisions: it is then given a view that
    /// may be out of date, or empty ([`Game::empty_view`]) when no bot of the game reads views.
    /// Defaults to `true`.
    fn reads_view(&self) -> bool {
        true
    }
}

impl<B: Bot + ?Sized> Bot for Box<B> {
    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        (**self).choose(view, legal)
    }

    fn choose_index(&mut self, view: &View, legal: &[Action]) -> Result<usize, Action> {
        (**self).choose_index(view, legal)
    }

    fn name(&self) -> String {
        (**self).name()
    }

    fn faults(&self) -> Faults {
        (**self).faults()
    }

    fn game_over(&mut self, end: &GameEnd<'_>) {
        (**self).game_over(end)
    }

    fn reads_view(&self) -> bool {
        (**self).reads_view()
    }
}

impl<B: Bot + ?Sized> Bot for &mut B {
    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        (**self).choose(view, legal)
    }

    fn choose_index(&mut self, view: &View, legal: &[Action]) -> Result<usize, Action> {
        (**self).choose_index(view, legal)
    }

    fn name(&self) -> String {
        (**self).name()
    }

    fn faults(&self) -> Faults {
        (**self).faults()
    }

    fn game_over(&mut self, end: &GameEnd<'_>) {
        (**self).game_over(end)
    }

    fn reads_view(&self) -> bool {
        (**self).reads_view()
    }
}

/// The faults of a bot in a game; each one made it lose a move to its fallback. Only external
/// bots ([`ExecBot`]) make them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Faults {
    /// The program could not be started, or did not answer the handshake properly (it then
    /// plays no move of the game).
    pub handshake: u32,
    /// The program exited or closed its output during the game (it is not restarted).
    pub crash: u32,
    /// No answer within the time limit.
    pub timeout: u32,
    /// An answer naming an action that is not legal (or an index out of range).
    pub illegal: u32,
    /// A line that is not a well-formed answer.
    pub malformed: u32,
    /// Moves the fallback played: one per fault, plus every move after a crash or a failed
    /// handshake.
    pub fallback_moves: u32,
}

impl Faults {
    /// The number of faults (not counting the fallback's later moves).
    pub fn total(&self) -> u32 {
        self.handshake + self.crash + self.timeout + self.illegal + self.malformed
    }

    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &Faults) {
        self.handshake += other.handshake;
        self.crash += other.crash;
        self.timeout += other.timeout;
        self.illegal += other.illegal;
        self.malformed += other.malformed;
        self.fallback_moves += other.fallback_moves;
    }

    /// A short description, e.g. `1 crash, 2 timeout; 14 moves played by the fallback`.
    pub fn describe(&self) -> String {
        let kinds = [
            (self.handshake, "handshake"),
            (self.crash, "crash"),
            (self.timeout, "timeout"),
            (self.illegal, "illegal"),
            (self.malformed, "malformed"),
        ];
        let parts: Vec<String> =
            kinds.iter().filter(|(n, _)| *n > 0).map(|(n, k)| format!("{n} {k}")).collect();
        format!(
            "{}; {} move{} played by the fallback (heuristic)",
            if parts.is_empty() { "no fault".to_string() } else { parts.join(", ") },
            self.fallback_moves,
            if self.fallback_moves == 1 { "" } else { "s" }
        )
    }
}

/// A finished game as one seat may see it, given to [`Bot::game_over`]: the seat's final view,
/// every score sheet and the ranks, each computed only when asked.
pub struct GameEnd<'a> {
    game: &'a Game,
    seat: usize,
}

impl<'a> GameEnd<'a> {
    /// The end of `game` for `seat`; `None` while the game is not over or the seat does not exist.
    pub fn new(game: &'a Game, seat: usize) -> Option<GameEnd<'a>> {
        (game.is_over() && seat < game.players()).then_some(GameEnd { game, seat })
    }

    /// The seat.
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// The seat's final view.
    pub fn view(&self) -> View {
        self.game.view(self.seat)
    }

    /// Every city's final score sheet (the Free City's last).
    pub fn scores(&self) -> Vec<Score> {
        self.game.scores()
    }

    /// Each seat's rank (1 = winner; a shared place is repeated).
    pub fn ranks(&self) -> Vec<u8> {
        self.game.ranks()
    }
}

/// Tells every bot the game is over ([`Bot::game_over`]); nothing while it is not.
pub fn notify_game_over<B: Bot>(game: &Game, bots: &mut [B]) {
    for (seat, bot) in bots.iter_mut().enumerate() {
        if let Some(end) = GameEnd::new(game, seat) {
            bot.game_over(&end);
        }
    }
}

/// Why [`play_out`] stopped before the end of the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// There is not exactly one bot per seat.
    #[error("{bots} bots for a game of {players} players")]
    Seats {
        /// Bots given.
        bots: usize,
        /// Players in the game.
        players: usize,
    },
    /// A bot chose an action the game refused.
    #[error("bot `{bot}` at seat {seat} chose an illegal action: {error}")]
    Illegal {
        /// The seat.
        seat: usize,
        /// The bot's name.
        bot: String,
        /// Why the game refused it.
        error: ActionError,
    },
    /// A bot's [`Bot::choose_index`] named a place past the end of the legal actions.
    #[error("bot `{bot}` at seat {seat} chose action {index} of a list of {legal}")]
    NoSuchChoice {
        /// The seat.
        seat: usize,
        /// The bot's name.
        bot: String,
        /// The place it named.
        index: usize,
        /// How many legal actions there were.
        legal: usize,
    },
}

/// Plays `game` to its end, asking `bots[seat]` each time `seat` must act.
///
/// `legal` is a scratch buffer for the legal actions, reused for every move: pass the same one to
/// successive calls and nothing is allocated per move (beyond what the bots and the engine do).
/// A game already over is left as it is. At the end every bot is told ([`Bot::game_over`]).
///
/// ```
/// use wonders_bots::{play_out, Bot, RandomBot};
/// use wonders_core::{Game, Setup};
///
/// // Bots of different kinds, behind `Box<dyn Bot>`.
/// let mut bots: Vec<Box<dyn Bot>> = (0..3).map(|s| Box::new(RandomBot::new(s)) as Box<dyn Bot>).collect();
/// let mut game = Game::new(&Setup::new(3, 9)).unwrap();
/// play_out(&mut game, &mut bots, &mut Vec::new()).unwrap();
/// assert!(game.is_over());
/// ```
pub fn play_out<B: Bot>(game: &mut Game, bots: &mut [B], legal: &mut Vec<Action>) -> Result<(), PlayError> {
    if bots.len() != game.players() {
        return Err(PlayError::Seats { bots: bots.len(), players: game.players() });
    }
    // One view, refilled for each decision of a bot that reads it: nothing is allocated once its
    // buffers have grown.
    let mut view = game.empty_view();
    while !game.is_over() {
        for seat in game.to_act() {
            if !game.must_act(seat) {
                continue;
            }
            game.legal_actions_into(seat, legal);
            if bots[seat].reads_view() {
                game.view_into(seat, &mut view);
            }
            match bots[seat].choose_index(&view, legal) {
                // Taken from the legal list of this very state: no need to check it again.
                Ok(index) => match legal.get(index) {
                    Some(&action) => game.submit_trusted(seat, action),
                    None => {
                        let (bot, legal) = (bots[seat].name(), legal.len());
                        return Err(PlayError::NoSuchChoice { seat, bot, index, legal });
                    }
                },
                Err(action) => game.submit(seat, action).map_err(|error| PlayError::Illegal {
                    seat,
                    bot: bots[seat].name(),
                    error,
                })?,
            }
        }
    }
    notify_game_over(game, bots);
    Ok(())
}
