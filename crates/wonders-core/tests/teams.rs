//! The team variant (armada.md §2.9; 000 團隊遊戲規則): setup, land conflicts with doubled
//! tokens against adjacent opponents only, team ranking, the teammate's hand in the view and in
//! resampling, records.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wonders_core::{Action, Expansions, Game, Phase, Record, Score, Setup, SetupError};

fn team_setup(players: u8, seed: u64) -> Setup {
    Setup { teams: true, ..Setup::new(players, seed) }
}

/// Plays the first legal action of every seat until `stop` holds (or the game ends).
fn play_until(g: &mut Game, stop: impl Fn(&Game) -> bool) {
    let mut legal = Vec::new();
    while !g.is_over() && !stop(g) {
        for seat in g.to_act() {
            g.legal_actions_into(seat, &mut legal);
            g.submit(seat, legal[0]).unwrap();
        }
    }
}

/// Plays random legal actions to the end, recording them.
fn play_out(g: &mut Game, rec: &mut Record, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut legal = Vec::new();
    while !g.is_over() {
        for seat in g.to_act() {
            g.legal_actions_into(seat, &mut legal);
            let a = legal[rng.random_range(0..legal.len())];
            rec.push(g.catalog(), seat, &a);
            g.submit(seat, a).unwrap();
        }
    }
}

#[test]
fn the_team_variant_needs_4_or_6_players_here() {
    for players in [2u8, 3, 5, 7] {
        let e = Game::new(&team_setup(players, 1)).unwrap_err();
        assert!(matches!(e, SetupError::Teams(_)), "{players}: {e}");
        assert!(e.to_string().contains("4, 6 or 8"), "{e}");
    }
    // 8 players need Armada (000 8人遊戲規則).
    assert!(Game::new(&team_setup(8, 1)).unwrap_err().to_string().contains("Armada"));
    let eight = Setup { expansions: Expansions::ARMADA, ..team_setup(8, 1) };
    assert!(Game::new(&eight).unwrap().teams());
    for players in [4u8, 6] {
        let g = Game::new(&team_setup(players, 1)).unwrap();
        assert!(g.teams());
    }
    assert!(!Game::new(&Setup::new(4, 1)).unwrap().teams());
}

/// Age I ends with shields 3, 0, 2, 2 (teams: seats 0+1 and 2+3; every seat discards on the last
/// turn so no shield changes). Only adjacent opponents fight (1–2 and 3–0), with doubled tokens:
/// - 1–2: 0 < 2: seat 2 takes 2×(+1), seat 1 takes 2×(−1);
/// - 3–0: 2 < 3: seat 0 takes 2×(+1), seat 3 takes 2×(−1);
/// - 0–1 (3 against 0) are teammates: no conflict.
///
/// In the base game the same shields give seat 0 +1 +1, seat 1 −1 −1, seat 2 +1 (tie with 3),
/// seat 3 −1 (tie with 2).
#[test]
fn team_land_conflicts_double_the_tokens_against_adjacent_opponents_only() {
    for (teams, expected) in [(true, [2, -2, 2, -2]), (false, [2, -2, 1, -1])] {
        let mut g = Game::new(&Setup { teams, ..Setup::new(4, 17) }).unwrap();
        play_until(&mut g, |g| g.turn() == 6);
        assert_eq!((g.age(), g.phase()), (1, Phase::Choose));
        let before: Vec<i32> = g.cities().iter().map(|c| c.tokens.points()).collect();
        assert_eq!(before, vec![0; 4]);
        for (seat, shields) in [3u8, 0, 2, 2].into_iter().enumerate() {
            g.city_mut(seat).shields = shields;
        }
        for seat in 0..4 {
            let card = g.hand(seat)[0];
            g.submit(seat, Action::Discard { card }).unwrap();
        }
        assert_eq!(g.age(), 2, "the Age ended");
        let after: Vec<i32> = g.cities().iter().map(|c| c.tokens.points()).collect();
        assert_eq!(after, expected, "teams: {teams}");
        if teams {
            assert_eq!((g.city(0).tokens.plus1, g.city(1).tokens.minus1), (2, 2));
            assert_eq!((g.city(2).tokens.plus1, g.city(3).tokens.minus1), (2, 2));
        }
    }
}

#[test]
fn teams_rank_by_summed_totals_then_summed_coins() {
    let mut g = Game::new(&team_setup(6, 3)).unwrap();
    let score = |total| Score { total, ..Score::default() };
    // Teams: 0+1 = 40+45 = 85; 2+3 = 70+10 = 80; 4+5 = 50+35 = 85. Seat 2 scores most, but its
    // team is last. Teams 0+1 and 4+5 tie on 85: coins 3+3 = 6 against 2+5 = 7, so 4+5 wins.
    let scores: Vec<Score> = [40, 45, 70, 10, 50, 35].map(score).to_vec();
    for (seat, coins) in [3u16, 3, 0, 0, 2, 5].into_iter().enumerate() {
        g.city_mut(seat).coins = coins;
    }
    assert_eq!(g.ranks_from(&scores), vec![2, 2, 3, 3, 1, 1]);
    // Level on coins too (3+4 = 7): the two teams share 1st place, the third is 3rd.
    g.city_mut(1).coins = 4;
    assert_eq!(g.ranks_from(&scores), vec![1, 1, 3, 3, 1, 1]);
    let teams = wonders_core::teams::results(&[(40, 3), (45, 4), (70, 0), (10, 0), (50, 2), (35, 5)]);
    assert_eq!(
        teams.iter().map(|t| (t.players, t.total, t.rank)).collect::<Vec<_>>(),
        vec![([0, 1], 85, 1), ([2, 3], 80, 3), ([4, 5], 85, 1)]
    );
}

#[test]
fn a_seat_sees_its_teammates_hand_and_no_other() {
    let mut g = Game::new(&team_setup(4, 9)).unwrap();
    play_until(&mut g, |g| g.turn() == 3);
    for seat in 0..4 {
        let v = g.view(seat);
        let mate = seat ^ 1;
        assert_eq!(v.teammate_hand.as_deref(), Some(g.hand(mate)), "seat {seat}");
        assert!(v.teams);
    }
    // The same game without teams shows no other hand.
    let mut base = Game::new(&Setup::new(4, 9)).unwrap();
    play_until(&mut base, |g| g.turn() == 3);
    assert_eq!(base.view(0).teammate_hand, None);
    // Changing the teammate's hand changes the view; changing an opponent's does not.
    let mut other = g.clone();
    let mut h = g.hand(2).to_vec();
    h.reverse();
    other.set_hand(2, &h);
    assert_eq!(g.view(0), other.view(0));
    let mut h = g.hand(1).to_vec();
    h.reverse();
    other.set_hand(1, &h);
    assert_ne!(g.view(0), other.view(0));
    // On the wire too.
    let wire = wonders_core::WireView::from_view(g.catalog(), &g.view(0));
    assert_eq!(wire.teammate_hand.as_ref().map(Vec::len), Some(g.hand(1).len()));
    let json = serde_json::to_string(&wire).unwrap();
    assert!(json.contains("\"teams\":true") && json.contains("\"teammate_hand\""));
}

#[test]
fn resampling_keeps_the_teammates_hand() {
    let mut legal = Vec::new();
    let mut checked = 0;
    for seed in 0..4u64 {
        let mut g = Game::new(&team_setup(if seed % 2 == 0 { 4 } else { 6 }, seed)).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while !g.is_over() {
            for seat in g.to_act() {
                if !g.must_act(seat) {
                    continue;
                }
                let mate = seat ^ 1;
                let s = Game::resample(&g.view(seat), g.catalog(), &mut rng).unwrap();
                assert_eq!(s.hand(mate), g.hand(mate), "seed {seed}, seat {seat}, {:?}", g.phase());
                assert_eq!(s.hand(seat), g.hand(seat));
                checked += 1;
                g.legal_actions_into(seat, &mut legal);
                let a = legal[rng.random_range(0..legal.len())];
                g.submit(seat, a).unwrap();
            }
        }
    }
    assert!(checked > 200, "{checked}");
}

#[test]
fn team_records_replay_and_old_records_read_as_before() {
    let setup = team_setup(6, 5);
    let mut g = Game::new(&setup).unwrap();
    let mut rec = Record::new(&setup, g.catalog());
    play_out(&mut g, &mut rec, 5);
    rec.scores = Some(g.scores());
    let json = serde_json::to_string(&rec).unwrap();
    assert!(json.contains("\"teams\":true"));
    let back: Record = serde_json::from_str(&json).unwrap();
    assert!(back.setup().unwrap().teams);
    let replayed = back.replay().unwrap();
    assert!(replayed == g);
    assert_eq!(replayed.ranks(), g.ranks());
    // Teammates share their rank.
    let r = g.ranks();
    assert!((0..6).step_by(2).all(|s| r[s] == r[s + 1]));
    // A record without the field is a game without teams, and writes no field.
    let base = Setup::new(4, 5);
    let rec = Record::new(&base, Game::new(&base).unwrap().catalog());
    let json = serde_json::to_string(&rec).unwrap();
    assert!(!json.contains("teams"));
    assert!(!serde_json::from_str::<Record>(&json).unwrap().setup().unwrap().teams);
    // A team record with a player count the variant refuses does not replay.
    let bad = json.replacen("{", "{\"teams\":true,", 1).replace("\"players\":4", "\"players\":5");
    let e = serde_json::from_str::<Record>(&bad).unwrap().replay().unwrap_err();
    assert!(e.to_string().contains("4, 6 or 8"), "{e}");
}

/// Eight players in four teams, with Armada (the only way to seat 8, 000 8人遊戲規則): random games
/// end, teammates share their team's rank, the ranks follow the teams' summed totals (ties by
/// summed coins), and the record replays to the same scores.
#[test]
fn eight_players_in_four_teams_with_armada_play_to_the_end() {
    for seed in 0..3u64 {
        let setup = Setup { expansions: Expansions::ARMADA, ..team_setup(8, seed) };
        let mut g = Game::new(&setup).unwrap();
        let mut rec = Record::new(&setup, g.catalog());
        play_out(&mut g, &mut rec, seed);
        let (scores, ranks) = (g.scores(), g.ranks());
        let team = |t: usize| {
            let total = scores[2 * t].total + scores[2 * t + 1].total;
            let coins = g.city(2 * t).coins + g.city(2 * t + 1).coins;
            (total, coins)
        };
        for t in 0..4 {
            assert_eq!(ranks[2 * t], ranks[2 * t + 1], "seed {seed}: teammates share a rank");
            let better = (0..4).filter(|&u| team(u) > team(t)).count() as u8;
            assert_eq!(ranks[2 * t], better + 1, "seed {seed}: team {t} {:?}", team(t));
        }
        let replayed = rec.replay().unwrap();
        assert_eq!(replayed.scores(), scores, "seed {seed}");
    }
}
