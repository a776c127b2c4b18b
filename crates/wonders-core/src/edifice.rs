//! The Edifice expansion (Repos 2023, 《穹樓》; rulebook 001, reference edifice.md): great projects
//! that players build together, participation pawns, rewards, penalties and debt tokens; and the
//! rules of its two boards, Ur and Carthage.
//!
//! The conductor (the `game` module) calls this module at named points of a turn, and only when
//! the game is played with the expansion (a game without it never enters here and pays nothing
//! for it):
//!
//! - **setup** ([`setup`]): one project per Age drawn from the seed (its own random stream, so
//!   the cards dealt do not change), all three public from the start, that Age's pawns on each
//!   (edifice.md §5.1); the debt supply is unlimited (§5.2, provisional).
//! - **legal actions and payment** ([`stage_variants`]): once per Age, a player building a wonder
//!   stage may also take part in the current Age's project while a pawn is left on it (001 A.).
//!   "Stage" and "stage and take part" are separate actions; the stage cost and the participation
//!   cost are one purchase, so the payment solver returns the Pareto-minimal ways to pay the sum
//!   (001's example: a 2-wood stage with Belvedere costs 2 wood + 1 coin). The participation
//!   coins go to the bank ([`crate::Payment::bank`]).
//! - **resolution** ([`after_placement`]): after every card and stage of the turn is placed and
//!   before the immediate effects pay out (step 2½ of the conductor's order, [`crate::Game::submit`]). Every participant
//!   of the turn takes a pawn; when the card runs out, pawns come from the box so that each gets
//!   one (001 注意). When the last pawn leaves the card the project is completed at once (001 B.)
//!   and every holder gains the reward. Why here: all of the turn's participants hold their pawn
//!   by then, so those joining on the last pawns together are all rewarded; and coins rewarded
//!   join the turn's income, which (like every coin received in a turn, base-1e.md §4.1 item 6)
//!   cannot be spent in that same turn.
//! - **end of the Age, before military conflicts** ([`age_end`]): a project still holding a pawn
//!   fails. Every player without a pawn of that Age suffers the penalty; a penalty that cannot be
//!   met in full costs nothing and gives that Age's debt token instead (001 B.). If nobody took
//!   part, everyone suffers it (edifice.md §5.5, provisional). A "discard a card of a colour"
//!   penalty is the owner's choice ([`crate::Phase::EdificeDiscard`], bots included) unless the
//!   city has a single card of that colour. Losing victory tokens takes the lowest ones (never
//!   worse for the player, so no choice is asked).
//! - **scoring** ([`score`]): the `edifice` category holds the end-game rewards of the completed
//!   projects a city holds a pawn of, minus its debt tokens (001 計分冊: one line for both).
//!
//! Ur (edifice.md §6 item 1, decided here): a pawn taken from the box with an Ur stage counts as
//! taking part in that Age's project — its holder is rewarded if the project is completed (at
//! once when it already is) and is spared its penalty — but it is not a participation: it does
//! not use the once-per-Age participation, does not take a pawn off the card (so it never
//! completes a project) and costs nothing more. A pawn of a failed project gives nothing. A holder
//! is rewarded once per project, however many of its pawns it holds. Ur's "pawn of any Age" names
//! the Age in the action ([`crate::StageExtra::pawn_age`]). Ur is dealt only with Edifice (001).
//!
//! Carthage: each stage with two effects is built with the one the builder chooses, part of the
//! action ([`crate::StageExtra::alternative`]). Carthage is usable without Edifice when chosen
//! explicitly ([`crate::WonderDeal::Chosen`] on [`crate::Catalog::extended`]); it is dealt at
//! random only with Edifice, so that a game without expansions deals exactly as before.

use crate::action::{Action, Payment, StageExtra};
use crate::card::{CardId, Colour};
use crate::catalog::{Catalog, CatalogError, FileWonder, resources, value_err};
use crate::city::{City, Source};
use crate::effect::{Counted, Effect, Scope};
use crate::limits::MAX_PLAYERS;
use crate::log::{LogEntry, Played};
use crate::payment::{self, Options};
use crate::resources::{ResourceSet, Resources};
use crate::seating::count;
use crate::state::{Game, Phase};
use arrayvec::ArrayVec;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use std::fmt;

/// The built-in Edifice data file.
pub const BUILTIN: &str = include_str!("../data/edifice.toml");

/// The expansions a game is played with, as a small bitset.
///
/// ```
/// use wonders_core::Expansions;
/// let e = Expansions::parse(&["edifice"]).unwrap();
/// assert!(e.edifice());
/// assert_eq!(e.names(), vec!["edifice"]);
/// assert!(Expansions::parse(&["babel"]).is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Expansions(pub u8);

impl Expansions {
    /// The base game alone.
    pub const NONE: Expansions = Expansions(0);
    /// Edifice (2023).
    pub const EDIFICE: Expansions = Expansions(1);
    /// Armada (2018, 1st edition; [`crate::armada`]).
    pub const ARMADA: Expansions = Expansions(2);
    /// Every known expansion, with its name.
    pub const KNOWN: [(&'static str, Expansions); 2] =
        [("edifice", Expansions::EDIFICE), ("armada", Expansions::ARMADA)];

    /// Whether Edifice is played.
    pub const fn edifice(self) -> bool {
        self.0 & 1 != 0
    }

    /// Whether Armada is played.
    pub const fn armada(self) -> bool {
        self.0 & 2 != 0
    }

    /// Whether no expansion is played.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The names, lower case, in a fixed order.
    pub fn names(self) -> Vec<&'static str> {
        Self::KNOWN.iter().filter(|(_, e)| self.0 & e.0 != 0).map(|(n, _)| *n).collect()
    }

    /// Parses names (any case); an unknown name is an error naming it.
    pub fn parse<S: AsRef<str>>(names: &[S]) -> Result<Expansions, String> {
        let mut out = Expansions::NONE;
        for n in names {
            let key = n.as_ref().trim().to_ascii_lowercase();
            if key.is_empty() {
                continue;
            }
            match Self::KNOWN.iter().find(|(k, _)| *k == key) {
                Some((_, e)) => out.0 |= e.0,
                None => {
                    return Err(format!(
                        "unknown expansion `{}` (known: {})",
                        n.as_ref(),
                        Self::KNOWN.map(|(k, _)| k).join(", ")
                    ));
                }
            }
        }
        Ok(out)
    }
}

/// Whether a value is confirmed by the rulebook or provisional (edifice.md §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Stated by 001 (or another printed source).
    Confirmed,
    /// Confirmed by no printed or official source; shown as such to users.
    Provisional,
}

impl Status {
    /// Whether the value is provisional.
    pub const fn provisional(self) -> bool {
        matches!(self, Status::Provisional)
    }

    fn parse(what: &str, s: &str) -> Result<Status, CatalogError> {
        match s {
            "confirmed" => Ok(Status::Confirmed),
            "provisional" => Ok(Status::Provisional),
            _ => Err(value_err(what, format!("status `{s}` is not `confirmed` or `provisional`"))),
        }
    }
}

/// A project card, as an index into [`EdificeData::projects`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProjectId(pub u8);

/// What a completed project gives each pawn holder (edifice.md §5.3). Handled in one place per
/// moment: at completion ([`after_placement`]), in the rebuilt city ([`regain_lasting`]) and at
/// game end ([`score`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reward {
    /// Coins, at once.
    Coins(u8),
    /// Shields.
    Shields(u8),
    /// A military victory token worth this many points (1, 3 or 5).
    VictoryToken(u8),
    /// Discard every defeat token held.
    ClearDefeats,
    /// One of these resources each turn (neighbours cannot buy it).
    Produce(ResourceSet),
    /// Points at game end per item counted in the own city.
    PointsPer {
        /// What is counted.
        what: Counted,
        /// Points per item.
        points: u8,
    },
    /// Points at game end per complete set of one card of each colour of the mask.
    PointsPerSet {
        /// The colours (a bit per [`Colour`]).
        colours: u8,
        /// Points per set.
        points: u8,
    },
    /// Points at game end per different colour of card in the city.
    PointsPerKind(u8),
    /// One own purple card is scored a second time at game end (the best one).
    RepeatGuild,
}

/// What a failed project costs each player without a pawn of that Age (edifice.md §5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Penalty {
    /// Lose coins.
    LoseCoins(u8),
    /// Discard one built card of this colour (the owner chooses which).
    Discard(Colour),
    /// Lose military victory tokens (the lowest ones).
    LoseTokens(u8),
}

impl Reward {
    fn parse(code: &str) -> Option<Reward> {
        let parts: Vec<&str> = code.split(':').collect();
        let num = |s: &str| s.parse::<u8>().ok();
        Some(match parts.as_slice() {
            ["CLEAR_DEFEATS"] => Reward::ClearDefeats,
            ["AGORA"] => Reward::RepeatGuild,
            ["PROD", what] => Reward::Produce(ResourceSet::from_letters(&what.replace('/', ""))?),
            ["VP_PER", "wonder", n] => Reward::PointsPer { what: Counted::WonderStages, points: num(n)? },
            ["VP_PER", colours, n] => {
                Reward::PointsPer { what: Counted::Colours(colour_mask(colours)?), points: num(n)? }
            }
            ["VP_PER_SET", colours, n] => {
                Reward::PointsPerSet { colours: colour_mask(colours)?, points: num(n)? }
            }
            ["VP_PER_KIND", n] => Reward::PointsPerKind(num(n)?),
            [single] => {
                if let Some(n) = single.strip_prefix("COIN") {
                    Reward::Coins(num(n)?)
                } else if let Some(n) = single.strip_prefix("SH") {
                    Reward::Shields(num(n)?)
                } else if let Some(n) = single.strip_prefix("TOKEN") {
                    Reward::VictoryToken(num(n).filter(|v| [1, 3, 5].contains(v))?)
                } else {
                    return None;
                }
            }
            _ => return None,
        })
    }

    /// Whether the reward is scored at game end (rather than gained at once).
    pub const fn at_game_end(&self) -> bool {
        matches!(
            self,
            Reward::PointsPer { .. }
                | Reward::PointsPerSet { .. }
                | Reward::PointsPerKind(_)
                | Reward::RepeatGuild
        )
    }
}

impl Penalty {
    fn parse(code: &str) -> Option<Penalty> {
        let (kind, arg) = code.split_once(':')?;
        Some(match kind {
            "LOSE_COINS" => Penalty::LoseCoins(arg.parse().ok()?),
            "LOSE_TOKENS" => Penalty::LoseTokens(arg.parse().ok()?),
            "DISCARD" => Penalty::Discard(Colour::parse(arg)?),
            _ => return None,
        })
    }
}

fn colour_mask(s: &str) -> Option<u8> {
    s.split('+').try_fold(0u8, |m, c| Colour::parse(c).map(|c| m | c.bit()))
}

fn colours_text(mask: u8) -> String {
    Colour::ALL.iter().filter(|c| mask & c.bit() != 0).map(|c| c.name()).collect::<Vec<_>>().join("+")
}

impl fmt::Display for Reward {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Reward::Coins(n) => write!(f, "{n} coins"),
            Reward::Shields(n) => write!(f, "{n} shield{}", if n == 1 { "" } else { "s" }),
            Reward::VictoryToken(v) => write!(f, "a +{v} military victory token"),
            Reward::ClearDefeats => f.write_str("discard your defeat tokens"),
            Reward::Produce(set) => {
                let letters: Vec<String> = set.iter().map(|r| r.letter().to_string()).collect();
                write!(f, "one of {} each turn", letters.join("/"))
            }
            Reward::PointsPer { what: Counted::WonderStages, points } => {
                write!(f, "{points} VP per own wonder stage at game end")
            }
            Reward::PointsPer { what: Counted::Colours(m), points } => {
                write!(f, "{points} VP per own {} card at game end", colours_text(m))
            }
            Reward::PointsPer { what: Counted::Defeats, points } => {
                write!(f, "{points} VP per own defeat token at game end")
            }
            Reward::PointsPerSet { colours, points } => {
                write!(f, "{points} VP per {} set at game end", colours_text(colours))
            }
            Reward::PointsPerKind(p) => write!(f, "{p} VP per colour of card in your city at game end"),
            Reward::RepeatGuild => f.write_str("score one of your purple cards twice at game end"),
        }
    }
}

impl fmt::Display for Penalty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Penalty::LoseCoins(n) => write!(f, "lose {n} coins"),
            Penalty::Discard(c) => write!(f, "discard a {c} card"),
            Penalty::LoseTokens(n) => write!(f, "lose {n} military victory tokens"),
        }
    }
}

/// One great-project card (edifice.md §5.3).
#[derive(Clone, Debug)]
pub struct ProjectDef {
    /// Its id.
    pub id: ProjectId,
    /// Age 1, 2 or 3.
    pub age: u8,
    /// English name.
    pub name: String,
    /// Chinese name, when a source gives it (景觀樓 Belvedere, 001); empty otherwise.
    pub zh: String,
    /// Participation cost in coins (to the bank).
    pub coins: u8,
    /// Participation cost in resources (none in the known data).
    pub resources: Resources,
    /// Status of the participation cost.
    pub cost_status: Status,
    /// What each pawn holder gains when it is completed.
    pub reward: Vec<Reward>,
    /// Status of the reward.
    pub reward_status: Status,
    /// What each player without a pawn suffers when it fails.
    pub penalty: Penalty,
    /// Status of the penalty.
    pub penalty_status: Status,
    /// Where the values come from.
    pub source: String,
}

impl ProjectDef {
    /// The participation cost as shown to players.
    pub fn cost_text(&self) -> String {
        let coins = format!("{} coin{}", self.coins, if self.coins == 1 { "" } else { "s" });
        match (self.coins, self.resources.is_empty()) {
            (_, true) => coins,
            (0, false) => self.resources.to_string(),
            (_, false) => format!("{coins} + {}", self.resources),
        }
    }

    /// The reward as shown to players.
    pub fn reward_text(&self) -> String {
        self.reward.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(", ")
    }

    /// Whether any value of the card is provisional.
    pub fn provisional(&self) -> bool {
        self.cost_status.provisional()
            || self.reward_status.provisional()
            || self.penalty_status.provisional()
    }
}

/// The Edifice data: projects, pawns per player count and debt tokens.
#[derive(Clone, Debug)]
pub struct EdificeData {
    /// Every project, indexed by [`ProjectId`].
    pub projects: Vec<ProjectDef>,
    /// Pawns per Age's card by player count (index = players; 0 for counts without a value).
    pub pawns: [(u8, Status); 8],
    /// VP lost per debt token of each Age (index 0 = Age I), with its status.
    pub debt: [(u8, Status); 3],
}

impl EdificeData {
    /// Pawns on each Age's card for `players` players (edifice.md §5.1).
    pub fn pawns_for(&self, players: usize) -> u8 {
        self.pawns.get(players).map_or(0, |p| p.0)
    }

    /// VP lost per debt token of `age` (1–3).
    pub fn debt_points(&self, age: u8) -> u8 {
        self.debt[(age.clamp(1, 3) - 1) as usize].0
    }

    /// A project.
    pub fn project(&self, id: ProjectId) -> &ProjectDef {
        &self.projects[id.0 as usize]
    }

    /// Finds a project by English or Chinese name (any case).
    pub fn find(&self, name: &str) -> Option<ProjectId> {
        let key = crate::catalog::normalize(name);
        self.projects
            .iter()
            .find(|p| crate::catalog::normalize(&p.name) == key || (!p.zh.is_empty() && p.zh == name.trim()))
            .map(|p| p.id)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    pawns: Vec<FilePawns>,
    debt: Vec<FileDebt>,
    projects: Vec<FileProject>,
    #[serde(default)]
    wonders: Vec<FileWonder>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FilePawns {
    players: u8,
    pawns: u8,
    status: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDebt {
    age: u8,
    points: u8,
    status: String,
}

fn provisional() -> String {
    "provisional".into()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileProject {
    age: u8,
    name: String,
    #[serde(default)]
    zh: String,
    #[serde(default)]
    coins: u8,
    #[serde(default)]
    resources: String,
    #[serde(default = "provisional")]
    cost_status: String,
    reward: Vec<String>,
    #[serde(default = "provisional")]
    reward_status: String,
    penalty: String,
    #[serde(default = "provisional")]
    penalty_status: String,
    source: String,
}

/// Reads an Edifice data file (the format of `data/edifice.toml`): its data and its boards.
pub(crate) fn parse_file(text: &str) -> Result<(EdificeData, Vec<FileWonder>), CatalogError> {
    let file: File = toml::from_str(text).map_err(|e| CatalogError::Syntax(e.to_string()))?;
    let mut pawns = [(0u8, Status::Provisional); 8];
    for p in &file.pawns {
        let what = format!("pawns for {} players", p.players);
        if !(3..=7).contains(&p.players) || p.pawns == 0 {
            return Err(value_err(&what, "Edifice plays with 3 to 7 players, at least 1 pawn"));
        }
        pawns[p.players as usize] = (p.pawns, Status::parse(&what, &p.status)?);
    }
    if let Some(missing) = (3..=7).find(|&n| pawns[n].0 == 0) {
        return Err(value_err("pawns", format!("no value for {missing} players")));
    }
    let mut debt = [(0u8, Status::Provisional); 3];
    for d in &file.debt {
        let what = format!("debt of Age {}", d.age);
        if !(1..=3).contains(&d.age) {
            return Err(value_err(&what, "the Age is 1, 2 or 3"));
        }
        debt[d.age as usize - 1] = (d.points, Status::parse(&what, &d.status)?);
    }
    let mut projects = Vec::new();
    for (i, p) in file.projects.iter().enumerate() {
        let what = format!("project `{}`", p.name);
        if !(1..=3).contains(&p.age) {
            return Err(value_err(&what, format!("age {} is not 1, 2 or 3", p.age)));
        }
        let reward = p
            .reward
            .iter()
            .map(|r| Reward::parse(r).ok_or_else(|| value_err(&what, format!("unknown reward code `{r}`"))))
            .collect::<Result<Vec<_>, _>>()?;
        let penalty = Penalty::parse(&p.penalty)
            .ok_or_else(|| value_err(&what, format!("unknown penalty code `{}`", p.penalty)))?;
        projects.push(ProjectDef {
            id: ProjectId(i as u8),
            age: p.age,
            name: p.name.clone(),
            zh: p.zh.clone(),
            coins: p.coins,
            resources: resources(&what, &p.resources)?,
            cost_status: Status::parse(&what, &p.cost_status)?,
            reward,
            reward_status: Status::parse(&what, &p.reward_status)?,
            penalty,
            penalty_status: Status::parse(&what, &p.penalty_status)?,
            source: p.source.clone(),
        });
    }
    if let Some(age) = (1..=3).find(|&a| !projects.iter().any(|p| p.age == a)) {
        return Err(value_err("projects", format!("no project for Age {age}")));
    }
    if projects.len() > 250 {
        return Err(value_err("projects", "at most 250 projects"));
    }
    Ok((EdificeData { projects, pawns, debt }, file.wonders))
}

/// What became of an Age's project.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Pawns are still on the card.
    Open,
    /// The last pawn left the card: turned to its constructed side (001 B.).
    Completed,
    /// The Age ended with pawns on the card.
    Failed,
}

/// The public state of the three projects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EdificeState {
    /// The project of each Age (index 0 = Age I).
    pub projects: [ProjectId; 3],
    /// Pawns left on each card.
    pub left: [u8; 3],
    /// What became of each.
    pub outcome: [Outcome; 3],
    /// By Age, the cities that took part by building a stage (a bit per city): once per Age.
    pub joined: [u8; 3],
    /// Cities that still have to choose a card to discard for the current Age's failed project.
    pub owing: u8,
}

/// What happened with the projects, as an entry of the public log ([`Played::Edifice`]). The
/// entry's Age and turn are when it happened; the project is the one of that Age, except for
/// [`EdificeEvent::UrPawn`] and [`EdificeEvent::Rewarded`], which name their project's Age
/// ([`EdificeEvent::project_age`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EdificeEvent {
    /// The city took part with the stage it built this turn (a pawn from the card, or from the
    /// box when the card ran out).
    TookPart,
    /// An Ur stage gave the city a pawn of this Age from the box.
    UrPawn(u8),
    /// The project of this Age was completed (or the city joined a completed one of an earlier
    /// Age with an Ur pawn): the city, a pawn holder, gained the reward.
    Rewarded(u8),
    /// The project failed; the city holds a pawn and suffers nothing.
    Spared,
    /// The project failed; the city paid the penalty (coins or tokens).
    Paid,
    /// The project failed; the city discarded this card for the penalty.
    Discarded(CardId),
    /// The project failed; the city could not meet the penalty and took the Age's debt token.
    Debt,
}

impl EdificeEvent {
    /// The Age of the project this event is about, for an entry logged in Age `logged`.
    ///
    /// ```
    /// use wonders_core::edifice::EdificeEvent;
    /// assert_eq!(EdificeEvent::Rewarded(1).project_age(2), 1); // Ur joined Age I's late
    /// assert_eq!(EdificeEvent::Spared.project_age(2), 2);
    /// ```
    pub fn project_age(self, logged: u8) -> u8 {
        match self {
            EdificeEvent::UrPawn(age) | EdificeEvent::Rewarded(age) => age,
            _ => logged,
        }
    }
}

/// Draws the projects (one per Age, from the seed) and puts the pawns on them (001 遊戲準備).
pub(crate) fn setup(data: &EdificeData, players: usize, seed: u64) -> EdificeState {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(2);
    let mut projects = [ProjectId(0); 3];
    for (age, slot) in (1u8..=3).zip(projects.iter_mut()) {
        let pile: Vec<ProjectId> = data.projects.iter().filter(|p| p.age == age).map(|p| p.id).collect();
        *slot = pile[rng.random_range(0..pile.len())];
    }
    let pawns = data.pawns_for(players);
    EdificeState { projects, left: [pawns; 3], outcome: [Outcome::Open; 3], joined: [0; 3], owing: 0 }
}

impl Game {
    /// The state of the great projects, when the game is played with Edifice.
    pub fn edifice(&self) -> Option<&EdificeState> {
        self.edifice.as_ref()
    }

    /// Mutable access to the projects' state, for building positions (tests, puzzles); the
    /// caller keeps the game consistent, as with [`Game::set_hand`].
    pub fn edifice_mut(&mut self) -> Option<&mut EdificeState> {
        self.edifice.as_mut()
    }

    /// The project `city` may take part in with a stage now, with its definition: Edifice is
    /// played, a pawn is left on the current Age's card and the city has not taken part in this
    /// Age yet (001 A.).
    pub fn joinable_project(&self, city: usize) -> Option<&ProjectDef> {
        let state = self.edifice.as_ref()?;
        let a = self.age as usize - 1;
        if state.outcome[a] != Outcome::Open || state.left[a] == 0 || state.joined[a] & (1 << city) != 0 {
            return None;
        }
        Some(self.catalog.edifice.as_ref()?.project(state.projects[a]))
    }
}

/// Every (payment, choices) with which `city` may build its next stage, given the plain stage
/// payments `plain`: each plain payment with each choice of the stage (Carthage's two effects,
/// Ur's Age), and, when the city may take part, each Pareto-minimal payment of the stage cost plus
/// the participation cost (one purchase).
pub(crate) fn stage_variants(
    game: &Game,
    city: usize,
    plain: &Options,
    out: &mut ArrayVec<(Payment, StageExtra), 256>,
) {
    out.clear();
    let c = &game.cities[city];
    let Some(stage) = game.catalog.wonder(c.wonder).stages(c.side).get(c.stages as usize) else {
        return;
    };
    let alts: &[bool] = if stage.alt.is_empty() { &[false] } else { &[false, true] };
    let ages: &[u8] = if stage.effects.contains(&Effect::TakePawn(0)) { &[1, 2, 3] } else { &[0] };
    let mut push = |pay: Payment, take_part: bool| {
        for &alt in alts {
            for &age in ages {
                let _ = out.try_push((pay, StageExtra::new(take_part, alt, age)));
            }
        }
    };
    for &(left, right) in plain {
        push(Payment::paid(left, right, 0), false);
    }
    if let Some(project) = game.joinable_project(city) {
        if c.coins < project.coins as u16 {
            return;
        }
        let mut cost = stage.cost;
        for r in crate::resources::Resource::ALL {
            cost.add(r, project.resources.get(r));
        }
        let mut opts = Options::new();
        payment::solve(&game.market(city), &cost, c.coins - project.coins as u16, &mut opts);
        for &(left, right) in &opts {
            push(Payment::paid(left, right, project.coins), true);
        }
    }
}

/// Gains one reward at once (the end-game ones are only marked as held).
fn gain_reward(catalog: &Catalog, city: &mut City, age: u8, project: &ProjectDef, income: &mut u16) {
    city.edifice.held[age as usize - 1] = project.id.0 + 1;
    for r in &project.reward {
        match *r {
            Reward::Coins(n) => *income += n as u16,
            Reward::VictoryToken(v) => {
                city.tokens.add(v as i32);
            }
            Reward::ClearDefeats => city.tokens.minus1 = 0,
            Reward::Shields(_) | Reward::Produce(_) => gain_lasting(city, r),
            Reward::PointsPer { .. }
            | Reward::PointsPerSet { .. }
            | Reward::PointsPerKind(_)
            | Reward::RepeatGuild => {}
        }
    }
    let _ = catalog;
}

fn gain_lasting(city: &mut City, r: &Reward) {
    match *r {
        Reward::Shields(n) => city.gain(&Effect::Shields(n), Source::Stage),
        Reward::Produce(choices) => {
            city.gain(&Effect::ProduceOneOf { choices, sellable: false }, Source::Stage)
        }
        _ => {}
    }
}

/// Gains again the lasting rewards (shields, production) of the completed projects `city` holds,
/// for a city rebuilt from its cards ([`City::without`]).
pub(crate) fn regain_lasting(catalog: &Catalog, city: &mut City) {
    let Some(data) = catalog.edifice.as_ref() else {
        return;
    };
    for held in city.edifice.held {
        if held > 0 {
            for r in &data.project(ProjectId(held - 1)).reward {
                gain_lasting(city, r);
            }
        }
    }
}

/// Resolution step 2½ (see the module docs): pawns for this turn's participants and Ur stages,
/// and the completion of the current Age's project. Returns the log entries, recorded after the
/// turn's own.
pub(crate) fn after_placement(
    game: &mut Game,
    acts: &[(usize, usize, Action)],
    turn: u8,
    income: &mut [u16; MAX_PLAYERS],
) -> ArrayVec<LogEntry, 32> {
    let mut log = ArrayVec::new();
    let catalog = game.catalog;
    let (Some(data), Some(mut state)) = (catalog.edifice.as_deref(), game.edifice) else {
        return log;
    };
    let age = game.age;
    let a = age as usize - 1;
    let entry = |seat: usize, e: EdificeEvent, income: u16| LogEntry {
        age,
        turn,
        seat: seat as u8,
        played: Played::Edifice(e),
        pay: Payment::default(),
        income,
    };
    let mut joined_now = 0usize;
    for &(city, _, action) in acts {
        let Action::Wonder { extra, .. } = action else {
            continue;
        };
        if extra.take_part() {
            state.joined[a] |= 1 << city;
            game.cities[city].edifice.pawns[a] += 1;
            joined_now += 1;
            let _ = log.try_push(entry(city, EdificeEvent::TookPart, 0));
        }
        // Ur: a pawn from the box (the module docs say what it counts for).
        let c = &game.cities[city];
        let pawn = c.stage_effects(catalog, c.stages as usize - 1).iter().find_map(|e| match *e {
            Effect::TakePawn(0) => Some(extra.pawn_age()),
            Effect::TakePawn(n) => Some(n),
            _ => None,
        });
        if let Some(p) = pawn.filter(|p| (1..=3).contains(p)) {
            let pi = p as usize - 1;
            game.cities[city].edifice.pawns[pi] += 1;
            let _ = log.try_push(entry(city, EdificeEvent::UrPawn(p), 0));
            if state.outcome[pi] == Outcome::Completed && game.cities[city].edifice.held[pi] == 0 {
                let project = data.project(state.projects[pi]);
                let before = income[city];
                gain_reward(catalog, &mut game.cities[city], p, project, &mut income[city]);
                // Logged when it happens (this Age, this turn), naming the earlier project.
                let _ = log.try_push(entry(city, EdificeEvent::Rewarded(p), income[city] - before));
            }
        }
    }
    if joined_now > 0 && state.outcome[a] == Outcome::Open {
        // Too few pawns for this turn's participants: the rest come from the box (001 注意).
        state.left[a] = state.left[a].saturating_sub(joined_now as u8);
        if state.left[a] == 0 {
            state.outcome[a] = Outcome::Completed;
            let project = data.project(state.projects[a]);
            let n = game.cities_n as usize;
            for (city, (c, coins)) in game.cities[..n].iter_mut().zip(income.iter_mut()).enumerate() {
                if c.edifice.pawns[a] > 0 && c.edifice.held[a] == 0 {
                    let before = *coins;
                    gain_reward(catalog, c, age, project, coins);
                    let _ = log.try_push(entry(city, EdificeEvent::Rewarded(age), *coins - before));
                }
            }
        }
    }
    game.edifice = Some(state);
    log
}

/// The end of the Age, before military conflicts (001 B.): the current project fails if pawns
/// are left on it, and the penalties fall. Returns true when a player must first choose a card to
/// discard (the game then waits in [`Phase::EdificeDiscard`]).
pub(crate) fn age_end(game: &mut Game) -> bool {
    let catalog = game.catalog;
    let (Some(data), Some(mut state)) = (catalog.edifice.as_deref(), game.edifice) else {
        return false;
    };
    let age = game.age;
    let a = age as usize - 1;
    if state.outcome[a] == Outcome::Open {
        state.outcome[a] = Outcome::Failed;
        let project = data.project(state.projects[a]);
        for city in 0..game.cities_n as usize {
            let c = &mut game.cities[city];
            // Nobody took part: everyone is without a pawn and suffers it (§5.5, provisional).
            let event = if c.edifice.pawns[a] > 0 {
                EdificeEvent::Spared
            } else {
                match project.penalty {
                    Penalty::LoseCoins(n) if c.coins >= n as u16 => {
                        c.coins -= n as u16;
                        EdificeEvent::Paid
                    }
                    Penalty::LoseTokens(n) if c.tokens.plus1 + c.tokens.plus3 + c.tokens.plus5 >= n => {
                        for _ in 0..n {
                            let t = &mut c.tokens;
                            if t.plus1 > 0 {
                                t.plus1 -= 1;
                            } else if t.plus3 > 0 {
                                t.plus3 -= 1;
                            } else {
                                t.plus5 -= 1;
                            }
                        }
                        EdificeEvent::Paid
                    }
                    Penalty::Discard(colour) if c.colour_counts[colour as usize] > 0 => {
                        if c.colour_counts[colour as usize] == 1 {
                            let card = c.built.iter().find(|&id| catalog.card(id).colour == colour);
                            let card = card.expect("a card of the counted colour");
                            discard_from(game, city, card);
                            EdificeEvent::Discarded(card)
                        } else {
                            state.owing |= 1 << city;
                            continue;
                        }
                    }
                    _ => {
                        c.edifice.debt[a] += 1;
                        EdificeEvent::Debt
                    }
                }
            };
            game.record(LogEntry {
                age,
                turn: game.turn,
                seat: city as u8,
                played: Played::Edifice(event),
                pay: Payment::default(),
                income: 0,
            });
        }
    }
    game.edifice = Some(state);
    if state.owing != 0 {
        game.phase = Phase::EdificeDiscard { city: state.owing.trailing_zeros() as u8 };
        return true;
    }
    false
}

/// Takes `card` out of `city` into the discard pile: afterwards the city is the city that never
/// held the card. The [`City`] is rebuilt without it ([`City::without`]: board, stages, other
/// cards, Edifice rewards); with Armada, its islands' base-game effects are gained again (000
/// 島嶼: they came with the island, not with a card) and the card leaves the city's Armada cards,
/// so its naval symbols, trading zone, "most" science symbol and end-game VP go with it.
fn discard_from(game: &mut Game, city: usize, card: CardId) {
    let mut rebuilt = game.cities[city].without(game.catalog, card);
    if let Some(state) = game.armada.as_deref_mut() {
        if let Some(a) = state.card_of(card) {
            state.cities[city].remove_card(a);
        }
        state.cities[city].regain_islands(state.data, &mut rebuilt);
    }
    game.cities[city] = rebuilt;
    game.discard.push(card);
}

/// The cards `city` may discard for the current Age's failed project.
pub(crate) fn discard_choices(game: &Game, city: usize, out: &mut Vec<Action>) {
    let Some(colour) = owed_colour(game) else {
        return;
    };
    for card in game.cities[city].built.iter() {
        if game.catalog.card(card).colour == colour {
            out.push(Action::DiscardBuilt { card });
        }
    }
}

fn owed_colour(game: &Game) -> Option<Colour> {
    let state = game.edifice.as_ref()?;
    let project = game.catalog.edifice.as_ref()?.project(state.projects[game.age as usize - 1]);
    match project.penalty {
        Penalty::Discard(c) => Some(c),
        _ => None,
    }
}

/// Checks a penalty discard.
pub(crate) fn check_discard(game: &Game, city: usize, card: CardId) -> Result<(), String> {
    let colour = owed_colour(game).ok_or("no card is owed")?;
    let c = &game.cities[city];
    if (card.0 as usize) >= game.catalog.cards.len() || !c.built.contains(card) {
        return Err("that card is not built in this city".into());
    }
    if game.catalog.card(card).colour != colour {
        return Err(format!("the penalty discards a {colour} card"));
    }
    Ok(())
}

/// Applies a checked penalty discard and moves to the next city that owes one.
pub(crate) fn discard_built(game: &mut Game, city: usize, card: CardId) {
    discard_from(game, city, card);
    game.record(LogEntry {
        age: game.age,
        turn: game.turn,
        seat: city as u8,
        played: Played::Edifice(EdificeEvent::Discarded(card)),
        pay: Payment::default(),
        income: 0,
    });
    if let Some(state) = game.edifice.as_mut() {
        state.owing &= !(1 << city);
        if state.owing != 0 {
            game.phase = Phase::EdificeDiscard { city: state.owing.trailing_zeros() as u8 };
        }
    }
}

/// How many complete sets of the `colours` (a [`Colour::bit`] mask) the city holds: the fewest
/// cards of any one of them (Artisan District, edifice.md §5.3).
///
/// ```
/// use wonders_core::{Game, Setup, card::Colour, edifice::complete_sets};
/// let game = Game::new(&Setup::new(3, 1)).unwrap();
/// // No card built yet: no brown + grey set.
/// assert_eq!(complete_sets(game.city(0), Colour::Brown.bit() | Colour::Grey.bit()), 0);
/// ```
pub fn complete_sets(city: &City, colours: u8) -> u32 {
    Colour::ALL
        .iter()
        .filter(|c| colours & c.bit() != 0)
        .map(|c| u32::from(city.colour_counts[*c as usize]))
        .min()
        .unwrap_or(0)
}

/// The `edifice` score category of `seat`: the end-game rewards of the completed projects it
/// holds a pawn of, minus its debt tokens (001 計分冊; edifice.md §5.2–5.3). `armada` is the
/// city's Armada state in a game played with Armada: the Agora's second application of a guild
/// then obeys the guild cap and counts the "most" science symbols
/// (`score::repeat_guild`).
pub fn score(
    catalog: &Catalog,
    cities: &[City],
    armada: Option<(&crate::armada::ArmadaCity, &crate::armada::ArmadaData)>,
    seat: usize,
) -> i32 {
    let Some(data) = catalog.edifice.as_deref() else {
        return 0;
    };
    let city = &cities[seat];
    let own = Scope { own: true, neighbours: false };
    let mut points = 0i32;
    for (a, &held) in city.edifice.held.iter().enumerate() {
        points -= city.edifice.debt[a] as i32 * data.debt_points(a as u8 + 1) as i32;
        if held == 0 {
            continue;
        }
        for r in &data.project(ProjectId(held - 1)).reward {
            points += match *r {
                Reward::PointsPer { what, points } => (count(cities, seat, what, own) * points as u32) as i32,
                Reward::PointsPerSet { colours, points } => {
                    complete_sets(city, colours) as i32 * points as i32
                }
                Reward::PointsPerKind(p) => {
                    city.colour_counts.iter().filter(|&&n| n > 0).count() as i32 * p as i32
                }
                Reward::RepeatGuild => city
                    .built
                    .iter()
                    .filter(|&g| catalog.card(g).is_guild())
                    .map(|g| crate::score::repeat_guild(catalog, cities, armada, seat, g))
                    .max()
                    .unwrap_or(0),
                _ => 0,
            };
        }
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Expansions, Setup};
    use proptest::prelude::*;
    use rand::SeedableRng;

    /// What the rules read from a city, in a form that does not depend on the order its
    /// structures came in (a rebuilt city lists its "one of" producers in another order).
    fn rules_view(c: &City) -> impl PartialEq + std::fmt::Debug {
        let sorted = |p: &crate::Production| {
            let mut v: Vec<u8> = p.choices().iter().map(|s| s.0).collect();
            v.sort_unstable();
            (p.fixed, v)
        };
        (
            (c.wonder, c.side, c.stages, c.stage_choices, c.coins, c.tokens, c.built, c.names),
            (c.colour_counts, c.shields, c.science, c.science_wild),
            (sorted(&c.production), sorted(&c.for_sale), c.discounts, c.prices),
            (c.free_build_per_age, c.free_build_used, c.plays_last_card, c.copies_guild),
            (c.free_first_of_colour, c.free_first_of_age, c.free_last_of_age, c.edifice),
        )
    }

    /// A random Armada + Edifice game of `players`, played at random for `steps` decisions.
    fn random_game(players: u8, seed: u64, steps: usize) -> Game {
        let setup = Setup { expansions: Expansions(3), ..Setup::new(players, seed) };
        let mut g = Game::new(&setup).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
        let mut legal = Vec::new();
        for _ in 0..steps {
            if g.is_over() {
                break;
            }
            for seat in g.to_act() {
                g.legal_actions_into(seat, &mut legal);
                let a = legal[rand::RngExt::random_range(&mut rng, 0..legal.len())];
                g.submit(seat, a).unwrap();
            }
        }
        g
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// 001's penalties with Armada (000 島嶼): after a penalty discard the city is the city
        /// that never held the card: putting the card back gives the city as it was, its islands
        /// keep their shields, production and wild symbol, and an Armada card leaves the city's
        /// Armada cards (nothing else of its Armada state changes).
        #[test]
        fn a_discarded_card_leaves_the_city_as_if_never_built(
            players in 3u8..=7,
            seed in 0u64..1_000_000,
            steps in 10usize..80,
        ) {
            let g = random_game(players, seed, steps);
            for city in 0..g.players() {
                for card in g.cities[city].built.iter() {
                    let mut after = g.clone();
                    discard_from(&mut after, city, card);
                    let (a0, a1) = (g.armada().unwrap(), after.armada().unwrap());
                    // The city that never held it, with the card put back, is the city.
                    let mut back = after.cities[city];
                    back.place(g.catalog, card);
                    prop_assert_eq!(rules_view(&back), rules_view(&g.cities[city]));
                    prop_assert!(!after.cities[city].built.contains(card));
                    prop_assert_eq!(after.discard.last(), Some(&card));
                    let mut expected = a0.cities[city];
                    if let Some(id) = a0.card_of(card) {
                        prop_assert!(expected.has_card(id));
                        expected.cards &= !(1 << id.0);
                    }
                    prop_assert_eq!(a1.cities[city], expected);
                    for other in (0..g.players()).filter(|&o| o != city) {
                        prop_assert_eq!(rules_view(&after.cities[other]), rules_view(&g.cities[other]));
                        prop_assert_eq!(a1.cities[other], a0.cities[other]);
                    }
                }
            }
        }
    }
}
