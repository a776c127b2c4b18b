//! The land conflicts of an Age end: who fights whom, and how many tokens each conflict gives.
//!
//! One schedule serves the base game, the team variant and Armada's incursions:
//! - base game: each city fights its two neighbours, each pair once (002 時代結束, 軍事衝突);
//!   the winner takes a victory token of the Age (+1/+3/+5), the loser a −1 token, nobody on a
//!   tie;
//! - team variant (armada.md §2.9; 000 團隊遊戲規則, 結算地面衝突): "玩家不能攻擊隊友。玩家只能
//!   與其相鄰對手的城市對抗" — only adjacent opponents fight, and the tokens are doubled
//!   ("雙倍的勝利/失敗標記": 2×(−1) for a defeat, 2×(+1/+3/+5) for a victory);
//! - Armada's incursions (armada.md §2.8): each incursion token (holder, target) handed out this
//!   Age adds one land conflict between them with that Age's values; "you resolve at most one
//!   land conflict against any given player per Age", so an incursion onto a seat already fought
//!   (a neighbour with 3 players, or a second incursion of the same holder onto the same seat
//!   with 4) adds nothing; a player targeted twice fights 4 conflicts; in teams an incursion
//!   still gives a single token (000: "參戰的玩家只會獲得1個失敗標記或者1個勝利標記").
//!
//! The schedule is a fixed-capacity list (no allocation), in a fixed order: the neighbour pairs
//! (seat i against seat i+1, i = 0..n), then the incursions in the order given.

use crate::city::{City, MilitaryTokens};
use crate::limits::MAX_PLAYERS;
use crate::seating::left_of;
use crate::teams;
use arrayvec::ArrayVec;
use std::cmp::Ordering;

/// The most land conflicts an Age end can hold: one per pair of seats.
pub const MAX_CONFLICTS: usize = MAX_PLAYERS * (MAX_PLAYERS - 1) / 2;

/// One land conflict of an Age end: seats `a` and `b` compare shields; the winner takes
/// `tokens` victory tokens of the Age, the loser `tokens` defeat tokens (−1), nobody on a tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LandConflict {
    /// One side (for a neighbour pair, the seat on the right; for an incursion, its holder).
    pub a: u8,
    /// The other side (for a neighbour pair, `a`'s left neighbour; for an incursion, its target).
    pub b: u8,
    /// Tokens each side takes: 1, or 2 between adjacent opponents in the team variant.
    pub tokens: u8,
}

impl LandConflict {
    /// Whether this conflict is between `x` and `y` (either way round).
    pub fn between(&self, x: usize, y: usize) -> bool {
        let (a, b) = (self.a as usize, self.b as usize);
        (a == x && b == y) || (a == y && b == x)
    }

    /// The value of each token `seat` takes from this conflict given everyone's `shields` in
    /// `age`: the Age's victory value (+1/+3/+5), −1 for a defeat, 0 on a tie or when `seat` is
    /// not in it.
    pub fn token_for(&self, seat: usize, shields: &[u8], age: u8) -> i32 {
        let other = if self.a as usize == seat {
            self.b as usize
        } else if self.b as usize == seat {
            self.a as usize
        } else {
            return 0;
        };
        match shields[seat].cmp(&shields[other]) {
            Ordering::Greater => MilitaryTokens::victory_value(age),
            Ordering::Less => -1,
            Ordering::Equal => 0,
        }
    }

    /// The points `seat` takes from this conflict: `tokens` × [`LandConflict::token_for`].
    pub fn points_for(&self, seat: usize, shields: &[u8], age: u8) -> i32 {
        self.token_for(seat, shields, age) * self.tokens as i32
    }
}

/// The land conflicts of an Age end, in a fixed-capacity list.
pub type Schedule = ArrayVec<LandConflict, MAX_CONFLICTS>;

/// The land conflicts of an Age end among `n` cities (seated clockwise, seat i+1 on the left of
/// seat i): the neighbour pairs (in `teams`, only between opponents, with 2 tokens each), then
/// one conflict per incursion `(holder, target)` with 1 token, unless that pair already fights.
/// Incursions naming a seat out of range or the holder itself are ignored.
///
/// ```
/// use wonders_core::conflict::land_conflicts;
/// // 4 players in two teams (seats 0+1, 2+3): only 1–2 and 3–0 fight, with doubled tokens.
/// let s = land_conflicts(4, true, &[]);
/// let pairs: Vec<_> = s.iter().map(|c| (c.a, c.b, c.tokens)).collect();
/// assert_eq!(pairs, vec![(1, 2, 2), (3, 0, 2)]);
/// ```
pub fn land_conflicts(n: usize, teams: bool, incursions: &[(u8, u8)]) -> Schedule {
    let mut out = Schedule::new();
    for a in 0..n {
        let b = left_of(a, n);
        if a == b || out.iter().any(|c| c.between(a, b)) {
            continue; // fewer than 3 cities: a pair is listed once
        }
        if teams && teams::same_team(a, b) {
            continue;
        }
        out.push(LandConflict { a: a as u8, b: b as u8, tokens: if teams { 2 } else { 1 } });
    }
    for &(holder, target) in incursions {
        let (h, t) = (holder as usize, target as usize);
        if h >= n || t >= n || h == t || out.iter().any(|c| c.between(h, t)) {
            continue;
        }
        // Capacity: one entry per pair at most, so it never overflows.
        let _ = out.try_push(LandConflict { a: holder, b: target, tokens: 1 });
    }
    out
}

/// Gives every city its tokens for the conflicts of `schedule` at the end of `age`.
pub fn resolve(schedule: &[LandConflict], cities: &mut [City], age: u8) {
    let shields: ArrayVec<u8, MAX_PLAYERS> = cities.iter().map(|c| c.shields).collect();
    for c in schedule {
        for seat in [c.a as usize, c.b as usize] {
            let token = c.token_for(seat, &shields, age);
            if token != 0 {
                for _ in 0..c.tokens {
                    cities[seat].tokens.add(token);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(s: &Schedule) -> Vec<(u8, u8, u8)> {
        s.iter().map(|c| (c.a, c.b, c.tokens)).collect()
    }

    /// Conflicts each seat takes part in.
    fn fights(s: &Schedule, seat: usize) -> usize {
        s.iter().filter(|c| c.a as usize == seat || c.b as usize == seat).count()
    }

    #[test]
    fn base_game_pairs_each_neighbour_pair_once() {
        // 3 players: 0–1, 1–2, 2–0; each seat fights its two neighbours (002 軍事衝突).
        assert_eq!(pairs(&land_conflicts(3, false, &[])), vec![(0, 1, 1), (1, 2, 1), (2, 0, 1)]);
        let s7 = land_conflicts(7, false, &[]);
        assert_eq!(s7.len(), 7);
        assert!((0..7).all(|seat| fights(&s7, seat) == 2));
    }

    #[test]
    fn four_players_in_teams_fight_only_adjacent_opponents_with_double_tokens() {
        // Teams {0,1} and {2,3}: 0–1 and 2–3 are teammates; 1–2 and 3–0 are opponents (§2.9).
        assert_eq!(pairs(&land_conflicts(4, true, &[])), vec![(1, 2, 2), (3, 0, 2)]);
    }

    #[test]
    fn six_players_in_teams() {
        // Teams {0,1}, {2,3}, {4,5}: the opposing neighbour pairs are 1–2, 3–4 and 5–0; each
        // player fights exactly one (its non-teammate neighbour), with 2 tokens.
        let s = land_conflicts(6, true, &[]);
        assert_eq!(pairs(&s), vec![(1, 2, 2), (3, 4, 2), (5, 0, 2)]);
        assert!((0..6).all(|seat| fights(&s, seat) == 1));
    }

    #[test]
    fn five_players_two_incursions_on_one_target_make_four_conflicts() {
        // Seat 2 is the 2nd player of seat 0 (0+2) and of seat 4 (4−2): both hand it an
        // incursion token; seat 2 fights its neighbours 1 and 3, then 0 and 4 (§2.8).
        let s = land_conflicts(5, false, &[(0, 2), (4, 2)]);
        assert_eq!(
            pairs(&s),
            vec![(0, 1, 1), (1, 2, 1), (2, 3, 1), (3, 4, 1), (4, 0, 1), (0, 2, 1), (4, 2, 1)]
        );
        assert_eq!(fights(&s, 2), 4);
        assert_eq!(fights(&s, 0), 3);
        assert_eq!(fights(&s, 4), 3);
        assert_eq!(fights(&s, 1), 2);
    }

    #[test]
    fn four_players_second_left_and_second_right_are_the_same_seat() {
        // With 4 players seat 0's 2nd left (0+2) and 2nd right (0−2) are both seat 2: two
        // incursion tokens from seat 0 still make one conflict against it ("at most one land
        // conflict against any given player per Age", §2.8).
        let s = land_conflicts(4, false, &[(0, 2), (0, 2)]);
        assert_eq!(pairs(&s), vec![(0, 1, 1), (1, 2, 1), (2, 3, 1), (3, 0, 1), (0, 2, 1)]);
        // Seat 2 handing one back to seat 0 is the same pair too.
        assert_eq!(land_conflicts(4, false, &[(0, 2), (2, 0)]).len(), 5);
    }

    #[test]
    fn incursion_onto_a_neighbour_already_fought_adds_nothing() {
        // With 3 players seat 0's 2nd left (0+2) is seat 2, its right neighbour, already fought.
        assert_eq!(land_conflicts(3, false, &[(0, 2)]), land_conflicts(3, false, &[]));
    }

    #[test]
    fn incursion_in_teams_gives_a_single_token() {
        // 6 players in teams; seat 1 hands an incursion to its 2nd left, seat 3 (§2.9 example:
        // Gabriel's Dock targets Romeo): one conflict with 1 token, the adjacent ones keep 2.
        let s = land_conflicts(6, true, &[(1, 3)]);
        assert_eq!(pairs(&s), vec![(1, 2, 2), (3, 4, 2), (5, 0, 2), (1, 3, 1)]);
    }

    #[test]
    fn bad_incursions_are_ignored() {
        assert_eq!(land_conflicts(4, false, &[(0, 0), (9, 1), (1, 8)]).len(), 4);
    }

    #[test]
    fn resolve_gives_doubled_tokens() {
        use crate::catalog::{Catalog, Edition, Side, WonderId};
        let catalog = Catalog::get(Edition::First);
        let mut cities: Vec<City> = (0..4).map(|w| City::new(catalog, WonderId(w), Side::A)).collect();
        // Age II, teams {0,1} vs {2,3}: shields 3, 0, 2, 2. 1–2: seat 2 wins (2 > 0): 2×(+3)
        // to seat 2, 2×(−1) to seat 1. 3–0: seat 0 wins (3 > 2): 2×(+3) to 0, 2×(−1) to 3.
        for (c, s) in cities.iter_mut().zip([3, 0, 2, 2]) {
            c.shields = s;
        }
        resolve(&land_conflicts(4, true, &[]), &mut cities, 2);
        let pts: Vec<i32> = cities.iter().map(|c| c.tokens.points()).collect();
        assert_eq!(pts, vec![6, -2, 6, -2]);
        assert_eq!(cities[0].tokens.plus3, 2);
        assert_eq!(cities[1].tokens.minus1, 2);
    }
}
