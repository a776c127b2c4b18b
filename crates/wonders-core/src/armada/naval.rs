//! The naval conflict at the end of each Age (armada.md §2.5; 000 海上衝突), after the land
//! conflicts: every player taking part is compared with every other by naval strength.
//!
//! The rules, in the order they are applied here:
//! 1. Only the players taking part count: a holder of Forgotten Port (遺忘港) who stays out has
//!    its strength ignored and takes no token (§6).
//! 2. FAQ: if every player taking part has the same strength, nobody takes a token (this covers
//!    a lone participant too).
//! 3. The weakest first: every player with the lowest strength takes the Age's defeat token
//!    (−1/−2/−3); a player who took a defeat token takes no victory token that Age.
//! 4. Among the others, by strength: the strongest takes +3/+5/+7 and the 2nd strongest
//!    +1/+3/+5 (in Age III the 3rd strongest +3). Ties:
//!    - strongest tied: each tied player takes the reward one level lower (+1/+3/+5); the next
//!      player then takes nothing in Ages I and II and +3 in Age III;
//!    - 2nd strongest tied: nothing in Ages I and II; in Age III each tied player takes +3 if
//!      exactly one player is strongest, otherwise nothing;
//!    - 3rd strongest tied (Age III): nothing.
//!
//! "The next player" after tied strongest players is read as a single player at the next
//! strength (several players there are "2nd strongest tied", whose rule gives them nothing when
//! the strongest are tied).

use super::naval_tokens;

/// The highest strength below `below` (any when `None`) among the players taking part and not
/// defeated, with how many players have it.
fn level(strength: &[u8], eligible: impl Fn(usize) -> bool, below: Option<u8>) -> Option<(u8, usize)> {
    let mut best: Option<(u8, usize)> = None;
    for (i, &s) in strength.iter().enumerate() {
        if !eligible(i) || below.is_some_and(|b| s >= b) {
            continue;
        }
        best = match best {
            Some((b, n)) if s == b => Some((b, n + 1)),
            Some((b, n)) if s < b => Some((b, n)),
            _ => Some((s, 1)),
        };
    }
    best
}

/// The naval conflict tokens of Age `age` (1–3): `strength[i]` is seat `i`'s naval strength,
/// `takes_part[i]` whether it takes part (false: it stayed out with Forgotten Port), and
/// `out[i]` receives its token (0 = none). The three slices have one entry per seat; `out` is
/// written whole.
///
/// ```
/// use wonders_core::armada::naval::naval_conflict;
/// let mut out = [0i8; 4];
/// // Age II: 6 is strongest (+5), 4 second (+3), the two 1s are weakest (−2 each).
/// naval_conflict(2, &[6, 1, 4, 1], &[true; 4], &mut out);
/// assert_eq!(out, [5, -2, 3, -2]);
/// ```
pub fn naval_conflict(age: u8, strength: &[u8], takes_part: &[bool], out: &mut [i8]) {
    let n = strength.len().min(takes_part.len()).min(out.len());
    out.fill(0);
    let tokens = naval_tokens(age);
    let (strength, takes_part) = (&strength[..n], &takes_part[..n]);
    let part = |i: usize| takes_part[i];
    // Rule 2: all equal (or nobody / one player taking part): no token.
    let Some((top, _)) = level(strength, part, None) else { return };
    let weakest = (0..n).filter(|&i| part(i)).map(|i| strength[i]).min().unwrap_or(top);
    if weakest == top {
        return;
    }
    // Rule 3: the weakest first.
    for i in 0..n {
        if part(i) && strength[i] == weakest {
            out[i] = tokens.weakest;
        }
    }
    let winner = |i: usize| part(i) && strength[i] != weakest;
    let mut give = |s: u8, token: i8| {
        for i in 0..n {
            if winner(i) && strength[i] == s {
                out[i] = token;
            }
        }
    };
    // Rule 4.
    let Some((first, n1)) = level(strength, winner, None) else { return };
    let second = level(strength, winner, Some(first));
    if n1 > 1 {
        give(first, tokens.second);
        if let Some((s2, 1)) = second {
            give(s2, tokens.third);
        }
        return;
    }
    give(first, tokens.first);
    let Some((s2, n2)) = second else { return };
    if n2 > 1 {
        // Exactly one player is strongest here: +3 in Age III, nothing before.
        give(s2, tokens.third);
        return;
    }
    give(s2, tokens.second);
    if let Some((s3, 1)) = level(strength, winner, Some(s2)) {
        give(s3, tokens.third);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(age: u8, strength: &[u8]) -> Vec<i8> {
        let mut out = vec![9; strength.len()];
        naval_conflict(age, strength, &vec![true; strength.len()], &mut out);
        out
    }

    #[test]
    fn plain_ranking_by_age() {
        // Age I: +3 / +1 / nothing / −1.
        assert_eq!(run(1, &[5, 3, 2, 0]), [3, 1, 0, -1]);
        // Age III: +7 / +5 / +3 / nothing / −3.
        assert_eq!(run(3, &[9, 6, 4, 2, 1]), [7, 5, 3, 0, -3]);
    }

    #[test]
    fn weakest_tied_all_take_the_defeat() {
        // Age II: the three players on 1 each take −2; 4 is strongest (+5), 3 second (+3).
        assert_eq!(run(2, &[1, 4, 1, 3, 1]), [-2, 5, -2, 3, -2]);
    }

    #[test]
    fn strongest_tied_in_age_i_and_iii() {
        // Age I: two strongest on 5 take +1 each; the next (3) takes nothing; 0 takes −1.
        assert_eq!(run(1, &[5, 5, 3, 0]), [1, 1, 0, -1]);
        // Age III: they take +5 each, the next takes +3.
        assert_eq!(run(3, &[5, 5, 3, 0]), [5, 5, 3, -3]);
        // Age III, three strongest tied: +5 each, the next +3.
        assert_eq!(run(3, &[6, 6, 6, 2, 1]), [5, 5, 5, 3, -3]);
    }

    #[test]
    fn strongest_tied_then_next_tied_gets_nothing() {
        // Age III: two strongest (+5 each), two tied next: nothing ("otherwise nothing").
        assert_eq!(run(3, &[7, 7, 4, 4, 0]), [5, 5, 0, 0, -3]);
    }

    #[test]
    fn second_tied() {
        // Age III with one strongest: the tied 2nd players take +3 each, and nobody after.
        assert_eq!(run(3, &[8, 5, 5, 3, 1]), [7, 3, 3, 0, -3]);
        // Age I and II: nothing for them.
        assert_eq!(run(1, &[8, 5, 5, 1]), [3, 0, 0, -1]);
        assert_eq!(run(2, &[8, 5, 5, 1]), [5, 0, 0, -2]);
    }

    #[test]
    fn third_tied_in_age_iii_gets_nothing() {
        assert_eq!(run(3, &[9, 7, 4, 4, 0]), [7, 5, 0, 0, -3]);
    }

    #[test]
    fn all_equal_nobody_scores() {
        // 000 FAQ.
        assert_eq!(run(3, &[4, 4, 4, 4]), [0, 0, 0, 0]);
        assert_eq!(run(1, &[0, 0, 0]), [0, 0, 0]);
    }

    #[test]
    fn a_defeated_player_takes_no_victory_token() {
        // Only two strengths: the players on 2 are weakest (−1), not "2nd strongest tied".
        assert_eq!(run(1, &[6, 2, 2]), [3, -1, -1]);
        // Age II: the two on 1 are defeated (−2); the two on 3 are strongest tied (+3 each).
        assert_eq!(run(2, &[3, 3, 1, 1]), [3, 3, -2, -2]);
    }

    #[test]
    fn two_players_taking_part() {
        assert_eq!(run(3, &[4, 2]), [7, -3]);
        // Four players, two stay out with Forgotten Port: only 1 and 3 are compared.
        let mut out = [0; 4];
        naval_conflict(2, &[9, 2, 0, 5], &[false, true, false, true], &mut out);
        assert_eq!(out, [0, -2, 0, 5]);
    }

    #[test]
    fn an_opt_out_can_save_the_weakest() {
        // Without the opt-out seat 0 (strength 0) is weakest; out, seat 2 (1) is.
        let mut out = [0; 3];
        naval_conflict(1, &[0, 3, 1], &[false, true, true], &mut out);
        assert_eq!(out, [0, 3, -1]);
        // A lone participant: all (one) equal, nobody scores.
        naval_conflict(3, &[0, 3, 1], &[false, true, false], &mut out);
        assert_eq!(out, [0, 0, 0]);
    }
}
