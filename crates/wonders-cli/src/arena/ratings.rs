//! The arena's ratings: Weng-Lin (the Bradley-Terry "full pairing" model of Weng and Lin's
//! Bayesian approximation method for online ranking, the model behind OpenSkill and close to
//! TrueSkill), through the `skillratings` crate.
//!
//! Every bot starts at 25 ± 25/3 (β = 25/6, the crate's defaults). Each game, in game-index order
//! (so the ratings never depend on which thread finished first), updates the ratings of the bots
//! that played it from its final places as the engine ranks them: by total, then coins, players
//! still level sharing a place (a tie counts half a win, half a loss between them); in the team
//! variant the teams are ranked, each seat having its team's place.
//!
//! A bot may hold several seats of one free-for-all game (`--bots heuristic,random,random`). It
//! is still one player: its update is the sum of its seats' updates, each seat compared with the
//! seats of the *other* bots only (a bot's result against itself says nothing of its strength),
//! all from the ratings before the game. With one seat each this is exactly the crate's update of
//! the game's ranking. In the team variant the teams are compared as they are (a team's rating is
//! the sum of its two seats'), and a bot's seats' updates are summed the same way.

use super::SeatResult;
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

/// A bot's rating: its mean `mu`, its uncertainty `sigma` (a standard deviation), and the games
/// it played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rating {
    pub mu: f64,
    pub sigma: f64,
    pub games: u64,
}

impl Rating {
    /// The conservative rating `mu − 3·sigma` (OpenSkill's "ordinal"): the true rating is above it
    /// with a probability of about 99.9%, so a bot that played few games is not ranked high by luck.
    pub fn conservative(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }
}

/// The ratings of `bots` bots after `games` (each a game's seats in seat order), taken in order.
pub(crate) fn rate(bots: usize, games: &[Vec<SeatResult>], teams: bool) -> Vec<Rating> {
    let config = WengLinConfig::new();
    let mut ratings = vec![WengLinRating::new(); bots];
    let mut played = vec![0u64; bots];
    for game in games {
        update(&mut ratings, game, teams, &config);
        let mut seen = vec![false; bots];
        for r in game {
            if !std::mem::replace(&mut seen[r.bot], true) {
                played[r.bot] += 1;
            }
        }
    }
    ratings
        .iter()
        .zip(played)
        .map(|(r, games)| Rating { mu: r.rating, sigma: r.uncertainty, games })
        .collect()
}

/// Updates `ratings` from one game (see the module's notes).
fn update(ratings: &mut [WengLinRating], game: &[SeatResult], teams: bool, config: &WengLinConfig) {
    let before = ratings.to_vec();
    // Per bot: the sum of its seats' changes of the mean, and of their shares of the variance lost.
    let mut d_mu = vec![0.0; ratings.len()];
    let mut d_var = vec![0.0; ratings.len()];
    let mut touched = vec![false; ratings.len()];
    let mut add = |bot: usize, new: &WengLinRating| {
        let old = before[bot];
        d_mu[bot] += new.rating - old.rating;
        d_var[bot] += 1.0 - (new.uncertainty / old.uncertainty).powi(2);
        touched[bot] = true;
    };
    if teams {
        let count = game.len().div_ceil(2);
        let members: Vec<Vec<&SeatResult>> = (0..count)
            .map(|t| {
                game.iter()
                    .enumerate()
                    .filter(|(s, _)| wonders_core::teams::team_of(*s) == t)
                    .map(|(_, r)| r)
                    .collect()
            })
            .collect();
        let team_ratings: Vec<Vec<WengLinRating>> =
            members.iter().map(|m| m.iter().map(|r| before[r.bot]).collect()).collect();
        let ranking: Vec<(&[WengLinRating], MultiTeamOutcome)> = team_ratings
            .iter()
            .zip(&members)
            .map(|(t, m)| (&t[..], MultiTeamOutcome::new(m[0].rank as usize)))
            .collect();
        let new = weng_lin_multi_team(&ranking, config);
        for (m, t) in members.iter().zip(&new) {
            for (r, n) in m.iter().zip(t) {
                add(r.bot, n);
            }
        }
    } else {
        for seat in game {
            // This seat against every seat of another bot.
            let mut field = vec![[before[seat.bot]]];
            let mut places = vec![seat.rank];
            for other in game.iter().filter(|o| o.bot != seat.bot) {
                field.push([before[other.bot]]);
                places.push(other.rank);
            }
            if field.len() < 2 {
                continue;
            }
            let ranking: Vec<(&[WengLinRating], MultiTeamOutcome)> = field
                .iter()
                .zip(&places)
                .map(|(f, &p)| (&f[..], MultiTeamOutcome::new(p as usize)))
                .collect();
            let new = weng_lin_multi_team(&ranking, config);
            add(seat.bot, &new[0][0]);
        }
    }
    for (b, rating) in ratings.iter_mut().enumerate().filter(|(b, _)| touched[*b]) {
        let old = before[b];
        rating.rating = old.rating + d_mu[b];
        let kept = (1.0 - d_var[b]).max(config.uncertainty_tolerance);
        rating.uncertainty = old.uncertainty * kept.sqrt();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wonders_bots::Faults;

    /// One game from its places, seat by seat: `(bot, place)`.
    fn game(places: &[(usize, u8)]) -> Vec<SeatResult> {
        places
            .iter()
            .map(|&(bot, rank)| SeatResult {
                bot,
                score: [0; 12],
                rank,
                faults: Faults::default(),
                completed: [false; 3],
            })
            .collect()
    }

    /// Weng and Lin's Algorithm 1 (Bradley-Terry, full pairing), written out from the paper for
    /// players with one seat each: c_iq² = σ_i² + σ_q² + 2β², p_iq = e^(μ_i/c)/(e^(μ_i/c)+e^(μ_q/c)),
    /// s = 1, ½, 0 for a win, tie, loss; μ_i += Σ σ_i²/c (s − p); σ_i² *= max(1 − Σ γ σ_i²/c² p_iq p_qi, κ)
    /// with γ = σ_i/c, β = 25/6, κ = 10⁻⁶.
    fn by_hand(ratings: &mut [(f64, f64)], places: &[(usize, u8)]) {
        let beta2 = (25.0f64 / 6.0).powi(2);
        let before = ratings.to_vec();
        for &(i, ri) in places {
            let (mu_i, s_i) = before[i];
            let (mut omega, mut delta) = (0.0, 0.0);
            for &(q, rq) in places.iter().filter(|&&(q, _)| q != i) {
                let (mu_q, s_q) = before[q];
                let c = (s_i * s_i + s_q * s_q + 2.0 * beta2).sqrt();
                let p = (mu_i / c).exp() / ((mu_i / c).exp() + (mu_q / c).exp());
                let s = match ri.cmp(&rq) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
                omega += s_i * s_i / c * (s - p);
                delta += (s_i / c) * s_i * s_i / (c * c) * p * (1.0 - p);
            }
            ratings[i] = (mu_i + omega, s_i * (1.0 - delta).max(1e-6).sqrt());
        }
    }

    #[test]
    fn a_first_game_between_two_new_bots_matches_the_formula() {
        // c = √(2·(25/3)² + 2·(25/6)²) = √173.61…, p = ½: the winner gains (25/3)²/c · ½ = 2.6352…,
        // and σ² shrinks by γσ²/c²·¼ with γ = σ/c.
        let r = rate(2, &[game(&[(0, 1), (1, 2)])], false);
        let c = (2.0 * (25.0f64 / 3.0).powi(2) + 2.0 * (25.0f64 / 6.0).powi(2)).sqrt();
        let gain = (25.0f64 / 3.0).powi(2) / c * 0.5;
        assert!((gain - 2.635_231_383_473_65).abs() < 1e-12, "{gain}");
        assert!((r[0].mu - (25.0 + gain)).abs() < 1e-12, "{:?}", r[0]);
        assert!((r[1].mu - (25.0 - gain)).abs() < 1e-12, "{:?}", r[1]);
        let s = 25.0f64 / 3.0;
        let sigma = s * (1.0 - (s / c) * s * s / (c * c) * 0.25).sqrt();
        assert!((r[0].sigma - sigma).abs() < 1e-12 && (r[1].sigma - sigma).abs() < 1e-12, "{r:?}");
        assert!((sigma - 8.065_506_316_323_548).abs() < 1e-9, "{sigma}");
        assert_eq!((r[0].games, r[1].games), (1, 1));
        assert!((r[0].conservative() - (r[0].mu - 3.0 * r[0].sigma)).abs() < 1e-15);
    }

    #[test]
    fn a_sequence_of_free_for_all_games_with_ties_matches_the_paper() {
        // Three bots over four games, a tie for first in the third and for second in the fourth.
        let games = [
            vec![(0, 1), (1, 2), (2, 3)],
            vec![(1, 1), (2, 2), (0, 3)],
            vec![(2, 1), (0, 1), (1, 3)],
            vec![(0, 1), (2, 2), (1, 2)],
        ];
        let mut expected = vec![(25.0, 25.0 / 3.0); 3];
        for g in &games {
            by_hand(&mut expected, g);
        }
        let results: Vec<_> = games.iter().map(|g| game(g)).collect();
        let got = rate(3, &results, false);
        for (g, e) in got.iter().zip(&expected) {
            assert!((g.mu - e.0).abs() < 1e-9 && (g.sigma - e.1).abs() < 1e-9, "{got:?} {expected:?}");
            assert_eq!(g.games, 4);
        }
        // Bot 0: two outright wins, a shared win and a last place: first.
        assert!(got[0].mu > got[2].mu && got[0].mu > got[1].mu, "{got:?}");
        // A game order changes the ratings (they are online), so the order must be fixed.
        let mut reversed = results.clone();
        reversed.reverse();
        assert_ne!(rate(3, &reversed, false), got);
    }

    #[test]
    fn the_bot_that_always_wins_ends_highest_and_equal_bots_stay_equal() {
        // Bot 0 wins all; bots 1 and 2 share the other places symmetrically.
        let games: Vec<_> =
            (0..20)
                .map(|g| {
                    if g % 2 == 0 { game(&[(0, 1), (1, 2), (2, 3)]) } else { game(&[(2, 2), (0, 1), (1, 3)]) }
                })
                .collect();
        let r = rate(3, &games, false);
        assert!(r[0].conservative() > r[1].mu.max(r[2].mu), "{r:?}");
        // Bots 1 and 2 take turns second and third; the ratings are online (the latest games weigh
        // more), so the one second last (bot 2) is a little ahead, and exchanging the two bots in
        // every game exchanges their ratings exactly.
        assert!(r[2].mu > r[1].mu && r[2].mu - r[1].mu < 2.0, "{r:?}");
        let swap = |b: usize| [0, 2, 1][b];
        let mirrored: Vec<_> = games
            .iter()
            .map(|g| g.iter().map(|s| SeatResult { bot: swap(s.bot), ..*s }).collect::<Vec<_>>())
            .collect();
        let m = rate(3, &mirrored, false);
        assert_eq!((m[0], m[1], m[2]), (r[0], r[2], r[1]));
        // Truly symmetric results: every game a tie between 1 and 2 keeps them identical.
        let tied: Vec<_> = (0..10).map(|_| game(&[(1, 2), (0, 1), (2, 2)])).collect();
        let r = rate(3, &tied, false);
        assert_eq!((r[1].mu, r[1].sigma), (r[2].mu, r[2].sigma));
        assert!(r[0].mu > 25.0 && r[1].mu < 25.0);
        // Uncertainty only shrinks.
        assert!(r.iter().all(|b| b.sigma < 25.0 / 3.0));
    }

    #[test]
    fn a_bot_in_several_seats_is_compared_with_the_other_bots_only() {
        // Bot 0 in two seats, first and third; bot 1 second. Seat by seat against the other bot:
        // bot 0's update is the sum of a win and a loss against bot 1 from 25 ± 25/3 each.
        let r = rate(2, &[game(&[(0, 1), (1, 2), (0, 3)])], false);
        let c = (2.0 * (25.0f64 / 3.0).powi(2) + 2.0 * (25.0f64 / 6.0).powi(2)).sqrt();
        let s2 = (25.0f64 / 3.0).powi(2);
        assert!((r[0].mu - 25.0).abs() < 1e-12, "a win and a loss at p = ½ cancel: {r:?}");
        assert!((r[1].mu - 25.0).abs() < 1e-12, "{r:?}");
        let eta = (s2.sqrt() / c) * s2 / (c * c) * 0.25;
        assert!((r[0].sigma.powi(2) - s2 * (1.0 - 2.0 * eta)).abs() < 1e-9, "two comparisons: {r:?}");
        assert!((r[1].sigma.powi(2) - s2 * (1.0 - 2.0 * eta)).abs() < 1e-9, "{r:?}");
        assert_eq!((r[0].games, r[1].games), (1, 1));
        // A bot alone at the table (every seat its own) learns nothing.
        let r = rate(1, &[game(&[(0, 1), (0, 2), (0, 3)])], false);
        assert_eq!((r[0].mu, r[0].sigma, r[0].games), (25.0, 25.0 / 3.0, 1));
    }

    #[test]
    fn teams_are_ranked_as_teams() {
        // Seats 0+1 (bots 0 and 1) beat seats 2+3 (bots 2 and 3): the crate's two-team update,
        // each member moving by its share σ²/σ_team² of the team's change.
        let r = rate(4, &[game(&[(0, 1), (1, 1), (2, 3), (3, 3)])], true);
        let s2 = (25.0f64 / 3.0).powi(2);
        let team2 = 2.0 * s2;
        let c = (2.0 * team2 + 2.0 * (25.0f64 / 6.0).powi(2)).sqrt();
        let gain = s2 / team2 * (team2 / c * 0.5);
        for (b, sign) in [(0, 1.0), (1, 1.0), (2, -1.0), (3, -1.0)] {
            assert!((r[b].mu - (25.0 + sign * gain)).abs() < 1e-12, "{r:?}");
        }
        assert!(r[0].mu > 25.0 && r[3].mu < 25.0);
    }
}
