//! `Game::card_actions_into` against the whole legal list: at every decision of random games in
//! every kind of game (both editions, 2 to 8 players, Edifice, Armada, both, teams), for every
//! seat to act and every card it holds (and one it does not), the actions that use the card are
//! exactly the whole list's entries for that card, in the same order.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wonders_core::{Action, CardId, Edition, Expansions, Game, Setup, WonderDeal};

/// Plays a random game of `setup`, comparing both lists at every decision; returns how many
/// (seat, card) questions were compared and how many had actions.
fn compare(setup: Setup) -> (usize, usize) {
    let mut g = Game::new(&setup).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(setup.seed ^ 0x5EED);
    let (mut legal, mut mine) = (Vec::new(), Vec::new());
    let (mut asked, mut answered) = (0, 0);
    while !g.is_over() {
        for seat in g.to_act() {
            g.legal_actions_into(seat, &mut legal);
            // Every card the seat holds, every card in the discard pile (Halikarnassos), and a
            // card in neither.
            let mut cards: Vec<CardId> = g.hand(seat).to_vec();
            cards.extend(g.discard_pile().iter().take(3));
            if let Some(other) = (0..g.catalog().cards.len() as u8).map(CardId).find(|c| !cards.contains(c)) {
                cards.push(other);
            }
            for &card in &cards {
                g.card_actions_into(seat, card, &mut mine);
                let expected: Vec<Action> =
                    legal.iter().copied().filter(|a| a.card() == Some(card)).collect();
                assert_eq!(
                    mine,
                    expected,
                    "seat {seat}, card {card:?}, phase {:?}, setup {setup:?}",
                    g.phase()
                );
                asked += 1;
                answered += !mine.is_empty() as usize;
            }
            // A seat not to act has no action with any card.
            for other in 0..g.players() {
                if !g.must_act(other) {
                    g.card_actions_into(other, cards[0], &mut mine);
                    assert!(mine.is_empty());
                }
            }
            let a = legal[rng.random_range(0..legal.len())];
            g.submit(seat, a).unwrap();
        }
    }
    (asked, answered)
}

fn setup(edition: Edition, players: u8, seed: u64, expansions: Expansions, teams: bool) -> Setup {
    let wonders = match edition {
        Edition::First => WonderDeal::Random,
        Edition::Second => WonderDeal::RandomBoardsChooseSides,
    };
    Setup { edition, players, seed, wonders, expansions, teams }
}

#[test]
fn each_kind_of_game_lists_a_cards_actions_as_the_whole_list_does() {
    let both = Expansions::parse(&["armada", "edifice"]).unwrap();
    let kinds = [
        (Edition::First, 2, Expansions::NONE, false),
        (Edition::First, 3, Expansions::NONE, false),
        (Edition::First, 7, Expansions::NONE, false),
        (Edition::Second, 4, Expansions::NONE, false),
        (Edition::First, 4, Expansions::EDIFICE, false),
        (Edition::First, 4, Expansions::ARMADA, false),
        (Edition::First, 8, Expansions::ARMADA, false),
        (Edition::Second, 5, both, false),
        (Edition::First, 6, Expansions::ARMADA, true),
    ];
    for (edition, players, expansions, teams) in kinds {
        for seed in 0..4 {
            let (asked, answered) = compare(setup(edition, players, seed, expansions, teams));
            // Every turn asks about each card of a hand, each with at least its discard.
            assert!(
                answered >= 18 * players as usize,
                "{edition:?} {players} {expansions:?}: {answered} of {asked}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_games_list_a_cards_actions_as_the_whole_list_does(
        players in 3u8..=7,
        seed in any::<u64>(),
        second in any::<bool>(),
        edifice in any::<bool>(),
        armada in any::<bool>(),
    ) {
        let edition = if second { Edition::Second } else { Edition::First };
        let names: Vec<&str> = [(edifice, "edifice"), (armada, "armada")]
            .into_iter()
            .filter_map(|(on, name)| on.then_some(name))
            .collect();
        let expansions = Expansions::parse(&names).unwrap();
        compare(setup(edition, players, seed, expansions, false));
    }
}
