//! Invariants, hidden information and resampling with Armada on:
//! random games of 3 to 8 players, with and without teams and Edifice, checked at every step.
//!
//! - cards are conserved: hands + built + under the wonders + discard pile = the Age decks dealt
//!   so far (8-card hands, 7 with 8 players: armada.md §2.2);
//! - islands are conserved: the three decks, the islands in play and those being explored hold
//!   each of the data's islands exactly once, each in its own level's deck (§2.2 item 4, §2.6);
//! - coins never go below zero (they are `u16`: a loss taken beyond the treasury would overflow,
//!   and these tests run with overflow checks);
//! - a seat's view does not change when only what it cannot see differs (the other hands, the
//!   later Ages' hands, the order of the island decks);
//! - a resampled game gives the seat the very view it was resampled from, and plays on to the end.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wonders_core::armada::{Fleet, IslandSet};
use wonders_core::{Action, Expansions, Game, Phase, Setup, View};

fn setup(players: u8, seed: u64, teams: bool, edifice: bool) -> Setup {
    let teams = teams && matches!(players, 4 | 6 | 8);
    // Edifice plays with 3 to 7 players (edifice.md §5.1).
    let expansions = if edifice && players <= 7 { Expansions(3) } else { Expansions::ARMADA };
    Setup { expansions, teams, ..Setup::new(players, seed) }
}

/// Cards in hands, cities (built and under the wonders) and the discard pile.
fn cards_accounted(g: &Game) -> usize {
    let n = g.cities().len();
    let in_cities: usize = g.cities().iter().map(|c| c.built.len() + c.stages as usize).sum();
    let in_hands: usize = (0..n).map(|s| g.hand(s).len()).sum();
    in_cities + in_hands + g.discard_pile().len()
}

/// Checks that every island of the data is in exactly one place: its level's deck, or a city
/// (an island kept in the exploration under way is in its city and still in the deck until the
/// exploration ends, §2.6).
fn check_islands(g: &Game) -> Result<(), String> {
    let a = g.armada().ok_or("no Armada state")?;
    let data = a.data;
    let mut in_play = IslandSet::EMPTY;
    for c in &a.cities[..g.cities().len()] {
        if in_play.0 & c.islands.0 != 0 {
            return Err("an island is in two cities".into());
        }
        in_play.0 |= c.islands.0;
    }
    let kept: Vec<_> = a.exploring.as_ref().map(|e| e.kept.to_vec()).unwrap_or_default();
    let mut count = vec![0u32; data.islands().len()];
    for (i, deck) in a.decks.iter().enumerate() {
        for &id in deck {
            if data.island(id).level as usize != i + 1 {
                return Err(format!("island {} is in the level {} deck", id.0, i + 1));
            }
            count[id.0 as usize] += 1;
        }
    }
    for id in in_play.iter() {
        if !kept.contains(&id) {
            count[id.0 as usize] += 1;
        }
    }
    match count.iter().position(|&k| k != 1) {
        Some(i) => Err(format!("island {i} is found {} times", count[i])),
        None => Ok(()),
    }
}

/// Plays `steps` random decisions (all of a game if more), checking the invariants each step.
fn play(g: &mut Game, rng: &mut ChaCha8Rng, steps: usize) -> Result<(), TestCaseError> {
    let hand = g.turns() as usize + 1;
    let mut legal = Vec::new();
    for _ in 0..steps {
        if g.is_over() {
            break;
        }
        prop_assert_eq!(
            cards_accounted(g),
            hand * g.cities().len() * g.age() as usize,
            "cards are conserved"
        );
        check_islands(g).map_err(TestCaseError::fail)?;
        let seat = g.to_act()[0];
        g.legal_actions_into(seat, &mut legal);
        prop_assert!(!legal.is_empty(), "a seat to act always has an action");
        let a = legal[rng.random_range(0..legal.len())];
        g.submit(seat, a).map_err(|e| TestCaseError::fail(e.to_string()))?;
    }
    Ok(())
}

fn same_knowledge(a: &View, b: &View) -> bool {
    // The others' choices this turn are hidden, so in a sample they have not chosen yet.
    let mut b = b.clone();
    b.chosen = a.chosen.clone();
    *a == b
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn armada_games_keep_the_invariants(players in 3u8..=8, seed in any::<u64>(), teams in any::<bool>(), edifice in any::<bool>()) {
        let mut g = Game::new(&setup(players, seed, teams, edifice)).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xA4);
        play(&mut g, &mut rng, usize::MAX)?;
        prop_assert!(g.is_over());
        prop_assert_eq!(cards_accounted(&g), 3 * (g.turns() as usize + 1) * g.cities().len());
        check_islands(&g).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn an_armada_view_does_not_depend_on_what_the_seat_cannot_see(players in 3u8..=8, seed in any::<u64>(), steps in 0usize..150, teams in any::<bool>()) {
        let setup = setup(players, seed, teams, false);
        let mut g = Game::new(&setup).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        play(&mut g, &mut rng, steps)?;
        // Reverse every other seat's hand (but its teammate's), the later Ages' hands and every
        // island deck: seat 0 must not notice.
        let n = g.cities().len();
        let mut other = g.clone();
        for s in (1..n).filter(|&s| !(setup.teams && s == 1)) {
            let mut h = g.hand(s).to_vec();
            h.reverse();
            if !h.is_empty() {
                h.rotate_left(1);
            }
            other.set_hand(s, &h);
            for age in 2..=3 {
                let mut later = g.later_hand(age, s).to_vec();
                later.reverse();
                other.set_later_hand(age, s, &later);
            }
        }
        for deck in &mut other.armada_mut().unwrap().decks {
            deck.reverse();
        }
        prop_assert_eq!(g.view(0), other.view(0));
    }

    #[test]
    fn armada_samples_are_consistent_with_the_view(players in prop::sample::select(vec![3u8, 4, 7, 8]), seed in any::<u64>(), stop in 0usize..400, teams in any::<bool>()) {
        let mut g = Game::new(&setup(players, seed, teams, false)).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // About 26 decisions per city: stop somewhere inside the game.
        let stop = stop % (26 * g.cities().len());
        play(&mut g, &mut rng, stop)?;
        prop_assume!(!g.is_over());
        let mut legal = Vec::new();
        for seat in 0..g.players() {
            let view = g.view(seat);
            let s = Game::resample(&view, g.catalog(), &mut rng).map_err(|e| TestCaseError::fail(format!("{:?} seat {seat}: {e}", g.phase())))?;
            prop_assert!(same_knowledge(&view, &s.view(seat)), "{:?} seat {}", g.phase(), seat);
            prop_assert_eq!(cards_accounted(&s), cards_accounted(&g));
            check_islands(&s).map_err(TestCaseError::fail)?;
            if g.must_act(seat) {
                g.legal_actions_into(seat, &mut legal);
                prop_assert_eq!(s.legal_actions(seat), legal.clone(), "{:?}", g.phase());
            }
            // The sample plays on to the end, keeping the invariants.
            let mut s = s;
            play(&mut s, &mut rng, usize::MAX)?;
            prop_assert!(s.is_over());
        }
    }
}

/// Resampling in the middle of an exploration, at every exploration of a few seeded games: the
/// explorer's dealt islands are kept, the others' are drawn from the rest of the deck.
#[test]
fn explorations_and_forgotten_port_resample() {
    let (mut explorations, mut joint) = (0, 0);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut legal = Vec::new();
    for seed in 0..12 {
        let mut g = Game::new(&setup(4 + (seed % 2) as u8 * 4, seed, seed % 3 == 0, false)).unwrap();
        while !g.is_over() {
            let seat = g.to_act()[0];
            if matches!(g.phase(), Phase::Explore { .. } | Phase::NavalOptOut { .. }) {
                explorations += 1;
                // A joint exploration: several explorers share the level's deck (§2.6).
                if let Some(e) = g.armada().unwrap().exploring.as_ref() {
                    joint += usize::from(e.waiting.len() + e.kept.len() > 1);
                }
                for s in 0..g.players() {
                    let view = g.view(s);
                    let sample = Game::resample(&view, g.catalog(), &mut rng).unwrap();
                    assert!(same_knowledge(&view, &sample.view(s)), "{:?} seat {s}", g.phase());
                    g.legal_actions_into(s, &mut legal);
                    assert_eq!(sample.legal_actions(s), legal);
                    check_islands(&sample).unwrap();
                }
            }
            g.legal_actions_into(seat, &mut legal);
            // Random play, but moving the green (exploring) ship whenever it can.
            let green: Vec<Action> = legal
                .iter()
                .copied()
                .filter(|a| match a {
                    Action::Build { naval, .. } => naval.construction() == Some(Fleet::Green),
                    Action::Wonder { extra, .. } => extra.naval() == Some(Fleet::Green),
                    _ => false,
                })
                .collect();
            let a = if green.is_empty() { legal[rng.random_range(0..legal.len())] } else { green[0] };
            g.submit(seat, a).unwrap();
        }
    }
    assert!(explorations >= 12, "only {explorations} explorations in the games");
    assert!(joint >= 2, "only {joint} decisions in joint explorations");
}

/// Resampling while an island's free moves wait for their owner's choice of ships (White-Surf
/// Port, Tempest Archipelago brought by a green card; 000 符號說明): the seat's view, its legal
/// actions and the islands are kept, and the sample plays on. The two islands are put on top of
/// their decks and green Armada cards are built whenever possible, so the step comes often.
#[test]
fn island_moves_resample() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut legal = Vec::new();
    let mut asked = 0;
    for seed in 0..16 {
        let mut g = Game::new(&setup(3 + (seed % 6) as u8, seed, seed % 4 == 1, seed % 3 == 0)).unwrap();
        let data = g.armada().unwrap().data;
        for (level, name) in [(2usize, "White-Surf Port"), (3, "Tempest Archipelago")] {
            let island = data.find_island(name).unwrap();
            let deck = &mut g.armada_mut().unwrap().decks[level - 1];
            let at = deck.iter().position(|&i| i == island).unwrap();
            deck.remove(at);
            deck.push(island);
        }
        while !g.is_over() {
            if let Phase::IslandMoves { city } = g.phase() {
                asked += 1;
                assert_eq!(g.to_act().to_vec(), vec![city as usize]);
                for s in 0..g.players() {
                    let view = g.view(s);
                    let mut sample = Game::resample(&view, g.catalog(), &mut rng).unwrap();
                    assert!(same_knowledge(&view, &sample.view(s)), "seat {s}");
                    g.legal_actions_into(s, &mut legal);
                    assert_eq!(sample.legal_actions(s), legal);
                    check_islands(&sample).unwrap();
                    play(&mut sample, &mut rng, usize::MAX).unwrap();
                    assert!(sample.is_over());
                }
            }
            for seat in g.to_act() {
                g.legal_actions_into(seat, &mut legal);
                let green: Vec<Action> = legal
                    .iter()
                    .copied()
                    .filter(|a| matches!(a, Action::Build { card, .. } if g.catalog().armada_card(*card).is_some_and(|id| data.card(id).colour == wonders_core::Colour::Green)))
                    .collect();
                let a = if green.is_empty() { legal[rng.random_range(0..legal.len())] } else { green[0] };
                g.submit(seat, a).unwrap();
            }
        }
    }
    assert!(asked >= 4, "only {asked} choices of ships in the games");
}
