//! The team variant (4, 6 or 8 players; armada.md §2.9; 000 團隊遊戲規則).
//!
//! What it changes, and where:
//! - **Seating**: teammates sit side by side ("隊友之間的座位必須是相鄰的"): seats 2k and 2k+1
//!   form team k.
//! - **Land conflicts**: only against adjacent opponents, with doubled tokens; an Armada
//!   incursion still gives one token ([`crate::conflict`], called at the Age end by `game/age_end.rs`).
//! - **Scoring** ("2位隊友將他們的分數相加，總和即為他們團隊的分數。獲得最多分數的團隊贏得遊戲
//!   勝利"): a team's total is the sum of its two players' totals and the highest team wins. The
//!   rulebook says nothing of ties; this engine extends the base game's rule (002 遊戲結束: the
//!   most coins wins a tie) to teams: the team with more coins in its two treasuries ranks first,
//!   and teams still level share the place ([`ranks`]).
//! - **Hands**: "玩家可以與自己的隊友自由討論或者向隊友展示自己的手牌" — a seat's view holds its
//!   teammate's current hand ([`crate::View::teammate_hand`]), and resampling keeps it.
//! - **Trading** ("在你從相鄰城市購買資源之前，你必須使用自己的資源"): the payment solver returns
//!   only Pareto-minimal payments, which never buy a resource the city could produce itself for
//!   the same card (buying costs coins, producing costs nothing).
//! - **No buying from a teammate for a chain build** (隊友之間禁止「在通過連鎖建造建築時購買資
//!   源」): without Armada a chain build is free and buys nothing. With Armada a chain build may
//!   still pay a naval construction's resources (the card is free, its fleet's step is not), so
//!   such a build lists only payments with nothing to the teammate ([`chain_purchase_allowed`],
//!   applied by `armada::turn`), and a forged one is refused naming this rule. Buying from the
//!   opponent on the other side stays allowed: the prohibition is one between teammates.
//! - The remaining prohibitions (lending coins, swapping cards, trade without paying) are things
//!   the engine offers no way to do.

use crate::edifice::Expansions;

/// The team of `seat` (seats 2k and 2k+1 form team k).
#[inline]
pub const fn team_of(seat: usize) -> usize {
    seat / 2
}

/// The teammate of `seat`.
#[inline]
pub const fn teammate(seat: usize) -> usize {
    seat ^ 1
}

/// Whether seats `a` and `b` are on the same team.
#[inline]
pub const fn same_team(a: usize, b: usize) -> bool {
    team_of(a) == team_of(b)
}

/// Whether a payment of `pay` by the city at `seat` (of `n`) for a build through a chain obeys
/// the team rule (000 團隊遊戲規則: teammates may not "buy resources while building through a
/// chain"): it pays the teammate (its left neighbour for an even seat, its right for an odd one)
/// nothing.
///
/// ```
/// use wonders_core::teams::chain_purchase_allowed;
/// use wonders_core::Payment;
/// // Seat 0's teammate is seat 1, its left neighbour; seat 3's is seat 2, its right.
/// assert!(!chain_purchase_allowed(0, 4, &Payment { left: 2, ..Payment::default() }));
/// assert!(chain_purchase_allowed(0, 4, &Payment { right: 2, ..Payment::default() }));
/// assert!(!chain_purchase_allowed(3, 4, &Payment { right: 1, ..Payment::default() }));
/// ```
pub fn chain_purchase_allowed(seat: usize, n: usize, pay: &crate::Payment) -> bool {
    let mate = teammate(seat);
    let to_mate = if crate::seating::left_of(seat, n) == mate { pay.left } else { pay.right };
    to_mate == 0
}

/// Whether `players` can play the team variant with `expansions`: 4, 6 or 8 players (000 團隊遊戲
/// 規則: "在進行4、6、或者8人遊戲時"); 8 players only with Armada (000 8人遊戲規則).
///
/// ```
/// use wonders_core::teams::check_players;
/// use wonders_core::Expansions;
/// assert!(check_players(6, Expansions::NONE).is_ok());
/// assert!(check_players(8, Expansions::ARMADA).is_ok());
/// assert!(check_players(8, Expansions::NONE).unwrap_err().contains("Armada"));
/// assert!(check_players(5, Expansions::ARMADA).is_err());
/// ```
pub fn check_players(players: u8, expansions: Expansions) -> Result<(), String> {
    match players {
        4 | 6 => Ok(()),
        8 if expansions.armada() => Ok(()),
        8 => Err("8 players play only with the Armada expansion (--expansions armada)".into()),
        n => Err(format!("{n} players: the team variant plays with 4, 6 or 8 players (000 團隊遊戲規則)")),
    }
}

/// One team's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TeamResult {
    /// Its two seats.
    pub players: [u8; 2],
    /// The sum of both players' totals.
    pub total: i32,
    /// The coins in both treasuries (the tie-break).
    pub coins: u16,
    /// Its rank (1 = winning team); teams level on points and coins share it.
    pub rank: u8,
}

/// The teams' results from each seat's `(total, coins)`, seated in order (an even count).
///
/// ```
/// use wonders_core::teams::results;
/// // Team 0 (seats 0+1): 50+40 = 90; team 1 (seats 2+3): 60+30 = 90, a tie on points; team 1
/// // has 5+4 = 9 coins against 3+2 = 5, so it wins.
/// let r = results(&[(50, 3), (40, 2), (60, 5), (30, 4)]);
/// assert_eq!((r[0].total, r[0].rank, r[1].total, r[1].rank), (90, 2, 90, 1));
/// ```
pub fn results(total_and_coins: &[(i32, u16)]) -> Vec<TeamResult> {
    let keyed: Vec<(i32, u16)> = total_and_coins
        .chunks(2)
        .map(|pair| pair.iter().fold((0, 0), |(t, c), &(t2, c2)| (t + t2, c + c2)))
        .collect();
    let team_ranks = crate::score::ranks(&keyed);
    keyed
        .iter()
        .zip(team_ranks)
        .enumerate()
        .map(|(k, (&(total, coins), rank))| TeamResult {
            players: [2 * k as u8, 2 * k as u8 + 1],
            total,
            coins,
            rank,
        })
        .collect()
}

/// Each seat's rank in the team variant: its team's rank in [`results`].
///
/// ```
/// use wonders_core::teams::ranks;
/// // Teams 0+1 (45+45 = 90) and 2+3 (70+10 = 80): seats 0 and 1 win although seat 2 scored most.
/// assert_eq!(ranks(&[(45, 1), (45, 1), (70, 9), (10, 0)]), vec![1, 1, 2, 2]);
/// ```
pub fn ranks(total_and_coins: &[(i32, u16)]) -> Vec<u8> {
    let teams = results(total_and_coins);
    (0..total_and_coins.len()).map(|s| teams[team_of(s)].rank).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn teammates_sit_side_by_side() {
        assert_eq!((teammate(0), teammate(1), teammate(4), teammate(5)), (1, 0, 5, 4));
        assert!(same_team(2, 3) && !same_team(1, 2) && !same_team(5, 0));
    }

    #[test]
    fn team_variant_needs_4_6_or_8_players() {
        assert!(check_players(4, Expansions::NONE).is_ok());
        assert!(check_players(6, Expansions::EDIFICE).is_ok());
        assert!(check_players(5, Expansions::NONE).unwrap_err().contains("4, 6 or 8"));
        assert!(check_players(8, Expansions::NONE).unwrap_err().contains("Armada"));
    }

    #[test]
    fn teams_level_on_points_and_coins_share_the_place() {
        // 6 players: teams 80 (4 coins), 80 (4 coins), 81 (0 coins).
        let r = results(&[(40, 2), (40, 2), (30, 1), (50, 3), (81, 0), (0, 0)]);
        let ranks: Vec<u8> = r.iter().map(|t| t.rank).collect();
        assert_eq!(ranks, vec![2, 2, 1]);
        assert_eq!(r[2].players, [4, 5]);
    }
}
