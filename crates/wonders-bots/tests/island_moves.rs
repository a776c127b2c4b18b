//! The bots take the choice of ships of an island's free moves (White-Surf Port from a green
//! card, 000 符號說明: "any 2 different ships"): every bot answers one of the legal choices, and
//! the heuristic takes the blue ship's last step (5 → 6: 8 → 10 VP and +1 naval strength).

use wonders_bots::bot_from_name;
use wonders_core::armada::Fleet;
use wonders_core::{Action, CardId, Expansions, Game, Naval, Payment, Phase, Setup};

fn game_at_the_choice() -> Game {
    let mut g = Game::new(&Setup { expansions: Expansions::ARMADA, ..Setup::new(3, 4) }).unwrap();
    let cat = g.catalog();
    let data = cat.armada.as_deref().unwrap();
    let surf = data.find_island("White-Surf Port").unwrap();
    let deck = &mut g.armada_mut().unwrap().decks[1];
    let at = deck.iter().position(|&i| i == surf).unwrap();
    deck.remove(at);
    deck.push(surf);
    g.armada_mut().unwrap().cities[0].shipyard.steps[Fleet::Blue as usize] = 5;
    for name in ["Lumber Yard", "Clay Pool"] {
        g.city_mut(0).place(cat, cat.find_card(name).unwrap());
    }
    let map_room = cat.find_card("Map Room").unwrap();
    let hand: Vec<CardId> = std::iter::once(map_room)
        .chain(g.hand(0).iter().copied().filter(|&c| c != map_room))
        .take(8)
        .collect();
    g.set_hand(0, &hand);
    g.submit(0, Action::Build { card: map_room, pay: Payment::default(), naval: Naval::NONE }).unwrap();
    for s in [1, 2] {
        let c = g.hand(s)[0];
        g.submit(s, Action::Discard { card: c }).unwrap();
    }
    assert_eq!(g.phase(), Phase::IslandMoves { city: 0 });
    g
}

#[test]
fn every_bot_chooses_the_ships_and_the_heuristic_takes_the_blue_step() {
    let g = game_at_the_choice();
    let (view, legal) = (g.view(0), g.legal_actions(0));
    assert_eq!(legal.len(), 6);
    for name in ["random", "card-first", "heuristic", "search:300it"] {
        let mut bot = bot_from_name(name, 1).unwrap();
        let choice = bot.choose(&view, &legal);
        assert!(legal.contains(&choice), "{name} chose {choice:?}");
        if name == "heuristic" {
            let Action::ChooseIsland { moves, .. } = choice else { panic!("{choice:?}") };
            assert!(moves & (1 << Fleet::Blue as u8) != 0, "the heuristic left the blue step: {moves:#06b}");
        }
        let mut after = g.clone();
        after.submit(0, choice).unwrap();
        assert_eq!(after.phase(), Phase::Choose, "{name}: the turn goes on");
    }
}
