//! The heuristic's tunable weights ([`Weights`]), apart from its rules so that the memo of a
//! search ([`crate::memo`]) can key its answers by them without reaching into the heuristic.

/// The tunable weights of the rules (see the rules in [`crate::heuristic`]).
///
/// ```
/// use wonders_bots::HeuristicBot;
/// use wonders_bots::heuristic::Weights;
///
/// // A player that never hate-drafts.
/// let bot = HeuristicBot::with_weights(Weights { deny: 0.0, ..Weights::default() });
/// assert_eq!(bot.weights().deny, 0.0);
/// assert_eq!(HeuristicBot::new().weights(), &Weights::default());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Extra value of a coin beyond its 1/3 point, by Age (rule 1).
    pub coin_liquidity: [f32; 3],
    /// Extra loss per coin paid to a neighbour, as a share of its value (rule 2).
    pub feed: f32,
    /// Weight of later Ages' conflicts (rule 5).
    pub military_future: f32,
    /// λ of rule 4, by Age.
    pub science_future: [f32; 3],
    /// Weight per card of Age II and of Age III needing a unit (rule 6).
    pub need_later: [f32; 2],
    /// Weight per card of the current Age needing a unit (rule 6), times the share of the Age left.
    pub need_current: f32,
    /// Weight per remaining wonder stage needing a unit (rule 6).
    pub need_stage: f32,
    /// Weight per other card of the hand needing a unit (rule 6).
    pub need_hand: f32,
    /// Price factors of rule 6: nobody sells it, a neighbour sells it, it costs 1 coin.
    pub scarcity: [f32; 3],
    /// Chain bonus per later card made free, next Age and two Ages later (rule 8).
    pub chain: [f32; 2],
    /// Share of the next player's gain counted when a card is kept from them (rule 11).
    pub deny: f32,
    /// Multiplier of a wonder stage's value (rule 9).
    pub stage_factor: f32,
    /// Bonus of a stage when the turns left are barely enough (rule 9).
    pub stage_urgency: f32,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            coin_liquidity: [0.0, 0.0, 0.0],
            feed: 0.25,
            military_future: 1.0,
            science_future: [0.20, 0.15, 0.0],
            need_later: [0.65, 0.45],
            need_current: 0.10,
            need_stage: 1.5,
            need_hand: 0.15,
            scarcity: [1.0, 0.8, 0.6],
            chain: [0.25, 0.15],
            deny: 0.15,
            stage_factor: 0.9,
            stage_urgency: 1.5,
        }
    }
}
