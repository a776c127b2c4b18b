//! Dealing an island exploration (armada.md §2.6, §10.8, §11.3; 000 探索).
//!
//! - **Alone**: the explorer draws 4 cards of the level ([`super::SOLO_EXPLORE_DRAW`]) and keeps
//!   1; the rest go back and the deck is reshuffled.
//! - **Several players exploring the same level in the same turn**: the whole deck of that level
//!   is dealt face down evenly among them; the leftover cards go back. Each keeps 1; the unchosen
//!   cards go back and the deck is reshuffled. (000's example: 3 players and 9 cards, 3 each.)
//! - **A short deck** (§10.8, provisional): a lone explorer draws what is left and keeps 1; an
//!   empty deck gives nothing.
//! - **Fewer cards than explorers** (§11.3, open; decided as armada/mod.rs proposes): the cards
//!   are dealt one by one in seat order from the given first seat (the explorer after the turn's
//!   first player); explorers left without a card get nothing.
//!
//! Cards are dealt one at a time round the explorers in seat order, as a deck is dealt at the
//! table: with `k` explorers each getting `m` cards, the explorer at position `j` gets the cards
//! at positions `j`, `j + k`, … `j + (m − 1)k` from the top.
//!
//! The deck is not changed by dealing: the cards dealt are only seen. Once every explorer has
//! chosen, [`return_and_shuffle`] takes the kept cards out of the deck and reshuffles it.

use super::{IslandId, SOLO_EXPLORE_DRAW};
use arrayvec::ArrayVec;
use rand::Rng;

/// The most cards one explorer may be dealt: a whole level deck (9 in the box; a replacement
/// data file has 9 per level too).
pub const MAX_DEALT: usize = super::data::ISLANDS_PER_LEVEL;

/// The cards one explorer is dealt, top of the deck first.
pub type Dealt = ArrayVec<IslandId, MAX_DEALT>;

/// Deals the exploration of one level deck (`deck`, top first) to `explorers` (their seats, in
/// any order) at a table of `players`, seat order counted from `first`. `out[i]` receives the
/// cards of `explorers[i]` (it is cleared first; an empty hand means nothing is found).
///
/// ```
/// use wonders_core::armada::explore::{deal, Dealt};
/// use wonders_core::armada::IslandId;
/// let deck: Vec<IslandId> = (0..9).map(IslandId).collect();
/// let mut out = [Dealt::new(), Dealt::new(), Dealt::new()];
/// // Seats 1, 2 and 0 explore level 1 together; seat 0 is first this turn: 3 cards each.
/// deal(&deck, &[1, 2, 0], 0, 4, &mut out);
/// assert_eq!(out[2].iter().map(|i| i.0).collect::<Vec<_>>(), [0, 3, 6]); // seat 0
/// assert_eq!(out[0].iter().map(|i| i.0).collect::<Vec<_>>(), [1, 4, 7]); // seat 1
/// ```
pub fn deal(deck: &[IslandId], explorers: &[usize], first: usize, players: usize, out: &mut [Dealt]) {
    let k = explorers.len().min(out.len());
    for o in out.iter_mut() {
        o.clear();
    }
    if k == 0 || deck.is_empty() {
        return;
    }
    if k == 1 {
        let draw = deck.len().min(usize::from(SOLO_EXPLORE_DRAW)).min(MAX_DEALT);
        out[0].extend(deck[..draw].iter().copied());
        return;
    }
    // Position of each explorer in seat order from `first`.
    let players = players.max(1);
    let order = |seat: usize| (seat % players + players - first % players) % players;
    let mut by_seat: ArrayVec<usize, 16> = (0..k.min(16)).collect();
    by_seat.sort_by_key(|&i| (order(explorers[i]), i));
    let each = (deck.len() / k).clamp(1, MAX_DEALT);
    let dealt = if deck.len() >= k { each * k } else { deck.len() };
    for (pos, &card) in deck[..dealt].iter().enumerate() {
        let who = by_seat[pos % by_seat.len()];
        let _ = out[who].try_push(card);
    }
}

/// Ends an exploration: takes the cards kept by the explorers out of `deck` and reshuffles what
/// is left (the unchosen cards and the leftovers are back in it) with the caller's `rng`.
///
/// ```
/// use wonders_core::armada::explore::return_and_shuffle;
/// use wonders_core::armada::IslandId;
/// use rand::SeedableRng;
/// let mut deck: Vec<IslandId> = (0..9).map(IslandId).collect();
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// return_and_shuffle(&mut deck, &[IslandId(3), IslandId(4)], &mut rng);
/// assert_eq!(deck.len(), 7);
/// assert!(!deck.contains(&IslandId(3)) && !deck.contains(&IslandId(4)));
/// ```
pub fn return_and_shuffle<R: Rng + ?Sized>(deck: &mut Vec<IslandId>, kept: &[IslandId], rng: &mut R) {
    deck.retain(|c| !kept.contains(c));
    crate::shuffle::shuffle(&mut deck[..], rng);
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn deck(n: u8) -> Vec<IslandId> {
        (0..n).map(IslandId).collect()
    }

    fn ids(d: &Dealt) -> Vec<u8> {
        d.iter().map(|i| i.0).collect()
    }

    fn run(n: u8, explorers: &[usize], first: usize, players: usize) -> Vec<Vec<u8>> {
        let mut out = vec![Dealt::new(); explorers.len()];
        // Stale contents are cleared.
        for o in &mut out {
            o.push(IslandId(99));
        }
        deal(&deck(n), explorers, first, players, &mut out);
        out.iter().map(ids).collect()
    }

    #[test]
    fn joint_exploration_of_three_with_nine_cards() {
        // 000's example: 3 players, 9 level-1 cards: 3 each, nothing left over. Seat order from
        // seat 2 (first this turn) at a 5-player table: 2, 4, 0.
        let out = run(9, &[0, 2, 4], 2, 5);
        assert_eq!(out, vec![vec![2, 5, 8], vec![0, 3, 6], vec![1, 4, 7]]);
    }

    #[test]
    fn two_explorers_and_seven_cards() {
        // 7 / 2 = 3 each; the 7th card (id 6) is a leftover and stays in the deck.
        let out = run(7, &[3, 1], 0, 4);
        assert_eq!(out, vec![vec![1, 3, 5], vec![0, 2, 4]]);
    }

    #[test]
    fn alone_draws_four() {
        assert_eq!(run(9, &[2], 0, 3), vec![vec![0, 1, 2, 3]]);
    }

    #[test]
    fn alone_with_two_cards_left() {
        // §10.8: the explorer draws what is left and keeps 1.
        assert_eq!(run(2, &[1], 0, 3), vec![vec![0, 1]]);
    }

    #[test]
    fn an_empty_deck_gives_nothing() {
        assert_eq!(run(0, &[1], 0, 3), vec![Vec::<u8>::new()]);
        assert_eq!(run(0, &[0, 1], 0, 3), vec![Vec::<u8>::new(), vec![]]);
    }

    #[test]
    fn fewer_cards_than_explorers() {
        // §11.3 (decided): 2 cards, 3 explorers, first seat 1 at 4 players: seats 1, 3 get one
        // each, in seat order from seat 1; seat 0 (last in that order) gets nothing.
        let out = run(2, &[0, 1, 3], 1, 4);
        assert_eq!(out, vec![vec![], vec![0], vec![1]]);
    }

    #[test]
    fn returning_removes_the_kept_cards_and_reshuffles() {
        let mut d = deck(9);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        return_and_shuffle(&mut d, &[IslandId(0), IslandId(8)], &mut rng);
        let mut sorted: Vec<u8> = d.iter().map(|i| i.0).collect();
        sorted.sort_unstable();
        assert_eq!(sorted, [1, 2, 3, 4, 5, 6, 7]);
        // Shuffled with the caller's rng: the same seed gives the same order.
        let mut again = deck(9);
        return_and_shuffle(
            &mut again,
            &[IslandId(0), IslandId(8)],
            &mut rand_chacha::ChaCha8Rng::seed_from_u64(7),
        );
        assert_eq!(d, again);
    }
}
