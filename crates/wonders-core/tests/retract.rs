//! Taking back a choice before the step resolves (`Game::retract`): a chosen card lies face down
//! until every player has chosen (002 遊戲回合 1; 004 2), so it can be changed until then.

use wonders_core::{Action, ActionError, Edition, Game, Phase, Setup, Side, WonderDeal};

#[test]
fn a_choice_can_be_taken_back_and_changed_until_the_turn_resolves() {
    let mut g = Game::new(&Setup::new(3, 5)).unwrap();
    let before = g.clone();
    let first = g.hand(0)[0];
    let second = g.hand(0)[1];
    g.submit(0, Action::Discard { card: first }).unwrap();
    assert!(!g.must_act(0));
    assert_eq!(g.own_choice(0), Some(Action::Discard { card: first }));
    // Taking it back returns the choice and leaves the game exactly as before it.
    assert_eq!(g.retract(0), Ok(Action::Discard { card: first }));
    assert!(g == before, "the game is back to where it was before the choice");
    assert!(g.must_act(0));
    // A second retraction has nothing to take back.
    assert!(matches!(g.retract(0), Err(ActionError::WrongKind(_))));
    // A different choice is accepted; the turn resolves with it.
    g.submit(0, Action::Discard { card: second }).unwrap();
    for seat in 1..3 {
        let card = g.hand(seat)[0];
        g.submit(seat, Action::Discard { card }).unwrap();
    }
    assert_eq!(g.turn(), 2);
    // Seat 0 discarded `second` (3 start coins + 3 for the discard), and kept `first`, which
    // passed left to seat 1 with the rest of its hand.
    assert_eq!(g.city(0).coins, 6);
    assert!(g.hand(1).contains(&first));
    assert!(!g.hand(1).contains(&second));
    // Once resolved, nothing can be taken back; the refusal changes nothing.
    let resolved = g.clone();
    assert!(matches!(g.retract(0), Err(ActionError::WrongKind(_))));
    assert!(g == resolved);
    assert_eq!(g.retract(7), Err(ActionError::NoSuchSeat(7)));
}

#[test]
fn the_free_city_choice_is_taken_back_first() {
    let mut g = Game::new(&Setup::new(2, 9)).unwrap();
    let own = g.hand(0)[0];
    g.submit(0, Action::Discard { card: own }).unwrap();
    assert_eq!(g.acting_city(0), 2);
    let fc = g.legal_actions(0)[0];
    g.submit(0, fc).unwrap();
    assert!(!g.must_act(0));
    assert_eq!(g.free_city_choice(), Some(fc));
    // Latest first: the Free City's action, then the holder's own.
    assert_eq!(g.retract(0), Ok(fc));
    assert_eq!(g.free_city_choice(), None);
    assert_eq!(g.acting_city(0), 2);
    assert_eq!(g.retract(0), Ok(Action::Discard { card: own }));
    assert_eq!(g.acting_city(0), 0);
    assert!(g.must_act(0));
}

#[test]
fn a_side_choice_can_be_taken_back_but_not_after_every_side_is_chosen() {
    let setup = Setup {
        edition: Edition::Second,
        players: 3,
        seed: 8,
        wonders: WonderDeal::RandomBoardsChooseSides,
        expansions: Default::default(),
        teams: false,
    };
    let mut g = Game::new(&setup).unwrap();
    g.submit(0, Action::ChooseSide { side: Side::B }).unwrap();
    assert_eq!(g.retract(0), Ok(Action::ChooseSide { side: Side::B }));
    g.submit(0, Action::ChooseSide { side: Side::A }).unwrap();
    g.submit(1, Action::ChooseSide { side: Side::A }).unwrap();
    g.submit(2, Action::ChooseSide { side: Side::A }).unwrap();
    assert_eq!(g.phase(), Phase::Choose);
    assert_eq!(g.city(0).side, Side::A);
    assert!(g.retract(0).is_err());
}
