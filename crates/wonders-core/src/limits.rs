//! The sizes of a game: players, hands, turns, coins, and the longest logs. Every part of the
//! engine (the conductor in the `game` module, the expansions, the views and the samplers) sizes its
//! fixed arrays from these.

/// The most players (cities) a game can hold.
pub const MAX_PLAYERS: usize = 8;
pub use crate::hand::HAND_MAX;
/// Cards dealt to each player per Age.
pub const HAND_SIZE: usize = 7;
/// Coins each city starts with (002 遊戲準備, 錢幣).
pub const START_COINS: u16 = 3;
/// Turns in an Age: the 7th card of each hand is not played (002 特殊情况：第六個回合).
pub const LAST_TURN: usize = HAND_SIZE - 1;
/// The most turns of an Age: 7 with Armada's 8-card hands (armada.md §2.2).
pub const MAX_TURNS: usize = 7;
/// Coins for discarding a card (002 2.c).
pub const DISCARD_COINS: u16 = 3;

/// The longest public log a game without Armada can have (3 Ages × (6 turns + Babylon's last
/// card + picks) × 8 cities, and the side choices), with room to spare. A game with Armada
/// keeps its longer log in its Armada state ([`crate::armada::state::ARMADA_HISTORY_MAX`]).
pub const HISTORY_MAX: usize = 256;

/// The most entries one step's log keeps: every city's action, the Edifice events of the step
/// (≤ 2 a city) and its Armada events (≤ 10 a city in any turn of the box's data,
/// [`crate::armada::log`]). Entries beyond it would be left out of the step's log, never out of
/// the history. A game with Armada keeps its step log in its Armada state; a game without keeps
/// a shorter one ([`BASE_LOG_MAX`]), so that it does not pay for Armada's.
pub const LOG_MAX: usize = 13 * MAX_PLAYERS;

/// The most entries one step's log keeps in a game without Armada: every city's action (two for
/// the Free City's holder) and the Edifice events of the step (≤ 2 a city).
pub const BASE_LOG_MAX: usize = 4 * MAX_PLAYERS;
