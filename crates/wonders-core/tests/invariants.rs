//! Invariants over many random games: cards are conserved, the legality check agrees with move
//! generation, views hold only what a seat may know, and records replay exactly.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wonders_core::wire::WireView;
use wonders_core::{Action, Edition, Expansions, Game, Naval, Payment, Record, Setup, StageExtra};

fn cards_accounted(g: &Game) -> usize {
    // Every city's hand slot (in the 2-player variant, the Free City's is its draw pile).
    let n = g.cities().len();
    let in_cities: usize = g.cities().iter().map(|c| c.built.len() + c.stages as usize).sum();
    let in_hands: usize = (0..n).map(|s| g.hand(s).len()).sum();
    in_cities + in_hands + g.discard_pile().len()
}

/// Plays a random game, checking invariants at every step; returns the record.
fn play_checked(players: u8, seed: u64, check_legality: bool) -> (Game, Record) {
    play_setup(Setup::new(players, seed), check_legality)
}

/// Plays a random game of `setup`, checking invariants at every step; returns the record.
fn play_setup(setup: Setup, check_legality: bool) -> (Game, Record) {
    let seed = setup.seed;
    let mut g = Game::new(&setup).unwrap();
    let mut rec = Record::new(&setup, g.catalog());
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xABCD);
    let mut legal = Vec::new();
    while !g.is_over() {
        let dealt = 7 * g.cities().len() * g.age() as usize;
        assert_eq!(cards_accounted(&g), dealt, "cards are conserved");
        for seat in g.to_act() {
            g.legal_actions_into(seat, &mut legal);
            assert!(!legal.is_empty(), "a seat to act always has an action");
            if check_legality {
                // Every generated action passes the check; nearby variants pass iff generated.
                for a in &legal {
                    assert!(g.check(seat, a).is_ok(), "{a:?}");
                }
                for &card in g.hand(seat) {
                    for l in 0..5u8 {
                        for r in 0..5u8 {
                            let bank = g.catalog().card(card).coins;
                            for a in [
                                Action::Build { card, pay: Payment::paid(l, r, bank), naval: Naval::NONE },
                                Action::Wonder { card, pay: Payment::paid(l, r, 0), extra: StageExtra::NONE },
                            ] {
                                assert_eq!(g.check(seat, &a).is_ok(), legal.contains(&a), "{a:?}");
                            }
                        }
                    }
                }
            }
            let a = legal[rng.random_range(0..legal.len())];
            rec.push(g.catalog(), seat, &a);
            g.submit(seat, a).unwrap();
        }
    }
    assert_eq!(cards_accounted(&g), 21 * g.cities().len());
    rec.scores = Some(g.scores());
    (g, rec)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn random_games_keep_the_invariants(players in 2u8..=7, seed in any::<u64>()) {
        let (g, rec) = play_checked(players, seed, true);
        // The record replays to the identical game, also through JSON.
        let json = serde_json::to_string(&rec).unwrap();
        let back: Record = serde_json::from_str(&json).unwrap();
        let replayed = back.replay().unwrap();
        prop_assert!(replayed == g);
    }

    #[test]
    fn a_view_does_not_depend_on_what_the_seat_cannot_see(players in 2u8..=7, seed in any::<u64>(), steps in 0usize..40, edifice in any::<bool>(), teams in any::<bool>()) {
        let expansions = if edifice && players > 2 { Expansions::EDIFICE } else { Expansions::NONE };
        // The team variant (4 or 6 players): seat 0 also sees its teammate's (seat 1's) hand.
        let teams = teams && matches!(players, 4 | 6);
        let mut g = Game::new(&Setup { expansions, teams, ..Setup::new(players, seed) }).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut legal = Vec::new();
        for _ in 0..steps {
            if g.is_over() { break; }
            for seat in g.to_act() {
                g.legal_actions_into(seat, &mut legal);
                let a = legal[rng.random_range(0..legal.len())];
                g.submit(seat, a).unwrap();
            }
        }
        // Rotate every other seat's hand (but its teammate's) and the later Ages' hands: seat 0
        // must not notice.
        let n = g.cities().len();
        let mut other = g.clone();
        for s in (1..n).filter(|&s| !(teams && s == 1)) {
            let mut h = g.hand(s).to_vec();
            if !h.is_empty() {
                h.rotate_left(1);
            }
            h.reverse();
            other.set_hand(s, &h);
            for age in 2..=3 {
                let mut later = g.later_hand(age, s).to_vec();
                later.reverse();
                other.set_later_hand(age, 0, &later);
            }
        }
        prop_assert_eq!(g.view(0), other.view(0));
        if teams {
            let view = g.view(0);
            prop_assert_eq!(view.teammate_hand.as_deref(), Some(g.hand(1)));
        }
        let wire = serde_json::to_string(&WireView::from_view(g.catalog(), &g.view(0))).unwrap();
        prop_assert!(wire.contains("\"hand\""));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// The same invariants with Edifice: cards conserved (a penalty moves a built card to the
    /// discard pile), every generated action checks, and the record (naming the expansion)
    /// replays to the identical game.
    #[test]
    fn edifice_games_keep_the_invariants(players in 3u8..=7, seed in any::<u64>(), second in any::<bool>()) {
        let edition = if second { Edition::Second } else { Edition::First };
        let setup = Setup { edition, expansions: Expansions::EDIFICE, ..Setup::new(players, seed) };
        let (g, rec) = play_setup(setup, true);
        prop_assert_eq!(rec.expansions.clone(), vec!["edifice".to_string()]);
        let json = serde_json::to_string(&rec).unwrap();
        let back: Record = serde_json::from_str(&json).unwrap();
        let replayed = back.replay().unwrap();
        prop_assert!(replayed == g);
        // Without the expansion it names, the record does not replay.
        let mut bare = back.clone();
        bare.expansions.clear();
        prop_assert!(bare.replay().is_err());
    }
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let (a, ra) = play_checked(5, 77, false);
    let (b, rb) = play_checked(5, 77, false);
    assert!(a == b);
    assert_eq!(ra, rb);
}
