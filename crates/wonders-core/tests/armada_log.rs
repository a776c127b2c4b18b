//! Armada in the public log (armada.md §2.3–§2.8; 000 回合結算), with values
//! worked out by hand: a turn with two taxes and a piracy (who loses what), Misty Isle, a naval
//! conflict and two incursions at an Age end, an exploration that logs only the island kept,
//! Forgotten Port's opt-out, and whole games whose log accounts for every ship step, island and
//! naval token and fits the history's bound.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wonders_core::armada::state::{ARMADA_HISTORY_BOUND, ARMADA_HISTORY_MAX};
use wonders_core::armada::wire::WireArmada;
use wonders_core::armada::{ArmadaEvent, Fleet};
use wonders_core::wire::WireLogEntry;
use wonders_core::{Action, CardId, Game, LogEntry, Naval, Payment, Phase, Played, Setup};

mod common;
use common::{card, discard_until_last_turn, game, setup};

/// The Armada entries of a log, as (seat, event, coins paid to the bank).
fn armada(log: &[LogEntry]) -> Vec<(u8, ArmadaEvent, u8)> {
    log.iter()
        .filter_map(|e| match e.played {
            Played::Armada(ev) => Some((e.seat, ev, e.pay.bank)),
            _ => None,
        })
        .collect()
}

/// Seat 0's yellow ship 3 → 4 (+4 coins, tax 2, trade 2), seat 1's 1 → 2 (+2 coins, tax 1,
/// trade 1), both by discarding; seat 2 builds Pirate Hoard (1 coin; piracy); seat 3 discards
/// for 3 coins (or, `poor_3`, has no coin and builds Lumber Yard, free). Returns the game after
/// the turn.
fn two_taxes_and_a_pirate(misty_at_3: bool, poor_3: bool) -> Game {
    let mut g = game(&["Giza", "Olympia", "Rhodes", "Babylon"], 5);
    let hoard = card(&g, "Pirate Hoard");
    {
        let st = g.armada_mut().unwrap();
        st.cities[0].shipyard.steps[Fleet::Yellow as usize] = 3;
        st.cities[1].shipyard.steps[Fleet::Yellow as usize] = 1;
        if misty_at_3 {
            let misty = st.data.find_island("Misty Isle").unwrap();
            st.cities[3].islands.insert(misty);
        }
    }
    let h2: Vec<CardId> =
        std::iter::once(hoard).chain(g.hand(2).iter().copied().filter(|&c| c != hoard)).take(8).collect();
    g.set_hand(2, &h2);
    let (a, b, d) = (g.hand(0)[0], g.hand(1)[0], g.hand(3)[0]);
    g.submit(0, Action::DiscardYellow { card: a }).unwrap();
    g.submit(1, Action::DiscardYellow { card: b }).unwrap();
    let pay = Payment { bank: 1, ..Payment::default() };
    g.submit(2, Action::Build { card: hoard, pay, naval: Naval::NONE }).unwrap();
    if poor_3 {
        let lumber = card(&g, "Lumber Yard");
        let h3: Vec<CardId> = std::iter::once(lumber).chain(g.hand(3).iter().copied().skip(1)).collect();
        g.set_hand(3, &h3);
        g.city_mut(3).coins = 0;
        g.submit(3, Action::Build { card: lumber, pay: Payment::default(), naval: Naval::NONE }).unwrap();
    } else {
        g.submit(3, Action::Discard { card: d }).unwrap();
    }
    g
}

#[test]
fn a_turn_with_two_taxes_and_a_piracy_logs_who_loses_what() {
    // Step 6 (armada.md §2.7): only the tax of 2 applies; seat 0 levied it and owes none of it;
    // the piracy costs every other player 1 coin per trade level. Owed: seat 0: 2 (piracy,
    // trade 2); seat 1 (trade 1): 2 − 1 = 1 to the tax, 1 to the piracy; seat 2 (trade 0): 2 to
    // the tax, none to its own piracy; seat 3 (trade 0): 2 to the tax, 0 to the piracy.
    let g = two_taxes_and_a_pirate(false, false);
    let log = g.last_log();
    // The four actions come first, in seat order, then the Armada events by step.
    let actions: Vec<Played> = log[..4].iter().map(|e| e.played).collect();
    assert_eq!(
        actions,
        vec![
            Played::Discarded,
            Played::Discarded,
            Played::Built(card(&g, "Pirate Hoard")),
            Played::Discarded
        ]
    );
    assert!(log.iter().all(|e| (e.age, e.turn) == (1, 1)));
    assert_eq!(
        armada(log),
        vec![
            // Steps 2–3: the ships move.
            (0, ArmadaEvent::DiscardMove { to: 4 }, 0),
            (1, ArmadaEvent::DiscardMove { to: 2 }, 0),
            // Step 6: the leviers, the pirate, then each city's loss (paid in full: 5 coins or more).
            (0, ArmadaEvent::Tax { amount: 2, applies: true }, 0),
            (1, ArmadaEvent::Tax { amount: 1, applies: false }, 0),
            (2, ArmadaEvent::Piracy { count: 1 }, 0),
            (0, ArmadaEvent::Lost { tax: 0, piracy: 2 }, 2),
            (1, ArmadaEvent::Lost { tax: 1, piracy: 1 }, 2),
            (2, ArmadaEvent::Lost { tax: 2, piracy: 0 }, 2),
            (3, ArmadaEvent::Lost { tax: 2, piracy: 0 }, 2),
        ]
    );
    // The history holds the same entries; the coins match the losses logged.
    assert_eq!(&g.history()[g.history().len() - log.len()..], log);
    let coins: Vec<u16> = (0..4).map(|c| g.city(c).coins).collect();
    assert_eq!(coins, vec![5 + 4 - 2, 5 + 2 - 2, 5 - 1 + 3 - 2, 5 + 3 - 2]);
    // On the wire (the server's history): the kind and its values.
    let wire = |i: usize| serde_json::to_value(WireLogEntry::from_entry(g.catalog(), &log[i])).unwrap();
    let tax = wire(6);
    assert_eq!(tax["played"], "armada_tax");
    assert_eq!(tax["armada"], serde_json::json!({ "tax": 2, "applies": true }));
    let lost = wire(10);
    assert_eq!(lost["played"], "armada_lost");
    assert_eq!(lost["bank"], 2);
    assert_eq!(lost["armada"], serde_json::json!({ "tax": 1, "piracy": 1 }));
    let moved = wire(4);
    assert_eq!(moved["armada"], serde_json::json!({ "fleet": "yellow", "to": 4, "cause": "discard" }));
    assert!(wire(0).get("armada").is_none(), "a base entry has no Armada values");
}

#[test]
fn misty_isle_is_logged_as_immune() {
    // As above, seat 3 holding Misty Isle (§2.7): it would have owed 2 to the tax and loses none.
    let g = two_taxes_and_a_pirate(true, false);
    let losses: Vec<_> = armada(g.last_log())
        .into_iter()
        .filter(|(_, e, _)| matches!(e, ArmadaEvent::Lost { .. } | ArmadaEvent::Immune { .. }))
        .collect();
    assert_eq!(
        losses,
        vec![
            (0, ArmadaEvent::Lost { tax: 0, piracy: 2 }, 2),
            (1, ArmadaEvent::Lost { tax: 1, piracy: 1 }, 2),
            (2, ArmadaEvent::Lost { tax: 2, piracy: 0 }, 2),
            (3, ArmadaEvent::Immune { owed: 2 }, 0),
        ]
    );
    assert_eq!(g.city(3).coins, 5 + 3);
}

#[test]
fn a_loss_that_cannot_be_paid_in_full_logs_what_was_paid() {
    // As above, but seat 3 has no coin and builds Lumber Yard (free): it owes 2 to the tax
    // (trade level 0) and pays what it has, nothing (§10.9, provisional).
    let g = two_taxes_and_a_pirate(false, true);
    let three: Vec<_> = armada(g.last_log()).into_iter().filter(|(s, _, _)| *s == 3).collect();
    assert_eq!(three, vec![(3, ArmadaEvent::Lost { tax: 2, piracy: 0 }, 0)]);
    assert_eq!(g.city(3).coins, 0);
}

#[test]
fn the_naval_conflict_and_two_incursions_are_logged_with_their_tokens() {
    // 6 players (the double incursion of tests/armada.rs). Seat 2 builds Dock (1 shield; its
    // incursion token goes to seat 0, the 2nd player on its right); seat 4 (1 shield) holds a
    // second token against seat 0. At the Age end: the incursions, each won by its holder (1
    // shield against 0): +1 for the holder, −1 for seat 0. Naval (§2.5, Age I): seat 1 (red step
    // 3: strength 3) +3, seat 3 (red step 1: 1) +1, the four at 0 take −1.
    let mut g = game(&["Giza", "Olympia", "Rhodes", "Ephesos", "Babylon", "Alexandria"], 3);
    discard_until_last_turn(&mut g);
    let dock = card(&g, "Dock");
    let h: Vec<CardId> =
        std::iter::once(dock).chain(g.hand(2).iter().copied().filter(|&c| c != dock)).take(2).collect();
    g.set_hand(2, &h);
    g.city_mut(2).coins = 3;
    g.city_mut(4).shields = 1;
    {
        let st = g.armada_mut().unwrap();
        st.cities[1].shipyard.steps[Fleet::Red as usize] = 3;
        st.cities[3].shipyard.steps[Fleet::Red as usize] = 1;
        st.incursions.push((4, 0));
    }
    for s in g.to_act() {
        let a = if s == 2 {
            Action::Build { card: dock, pay: Payment { left: 2, ..Payment::default() }, naval: Naval::NONE }
        } else {
            Action::Discard { card: g.hand(s)[0] }
        };
        g.submit(s, a).unwrap();
    }
    assert_eq!(g.age(), 2);
    let events = armada(g.last_log());
    assert_eq!(
        events,
        vec![
            // Step 3 of the turn: Dock hands its token over.
            (2, ArmadaEvent::IncursionToken { target: 0 }, 0),
            // Age end: the incursions, in the order the tokens were handed out.
            (4, ArmadaEvent::Incursion { target: 0, token: 1 }, 0),
            (2, ArmadaEvent::Incursion { target: 0, token: 1 }, 0),
            // The naval conflict.
            (0, ArmadaEvent::Naval { strength: 0, token: -1 }, 0),
            (1, ArmadaEvent::Naval { strength: 3, token: 3 }, 0),
            (2, ArmadaEvent::Naval { strength: 0, token: -1 }, 0),
            (3, ArmadaEvent::Naval { strength: 1, token: 1 }, 0),
            (4, ArmadaEvent::Naval { strength: 0, token: -1 }, 0),
            (5, ArmadaEvent::Naval { strength: 0, token: -1 }, 0),
        ]
    );
    // The tokens logged are the tokens taken.
    for (seat, e, _) in &events {
        if let ArmadaEvent::Naval { token, .. } = e {
            assert_eq!(g.armada().unwrap().cities[*seat as usize].naval[0], *token);
        }
    }
    assert_eq!(ArmadaEvent::Incursion { target: 0, token: 1 }.incursion_target_token(1), Some(-1));
    let last = g.last_log().last().unwrap();
    assert_eq!((last.age, last.turn), (1, 7), "Age-end entries carry the Age's last turn");
}

#[test]
fn an_exploration_logs_only_the_island_kept() {
    // The joint exploration of tests/armada.rs: seats 0 and 1 each build a blue card whose free
    // move takes the green ship from step 1 to 2 (explore level 1); 4 islands are dealt to each.
    let mut g = game(&["Giza", "Olympia", "Rhodes"], 3);
    let (yard, works) = (card(&g, "Shipyard"), card(&g, "Construction Yard"));
    for c in [0, 1] {
        g.armada_mut().unwrap().cities[c].shipyard.steps[Fleet::Green as usize] = 1;
    }
    for (s, first) in [(0, yard), (1, works)] {
        let h: Vec<CardId> = std::iter::once(first)
            .chain(g.hand(s).iter().copied().filter(|&c| c != yard && c != works))
            .take(8)
            .collect();
        g.set_hand(s, &h);
    }
    let move_green = Naval::new(None, Some(Fleet::Green));
    let pay = Payment { bank: 1, ..Payment::default() };
    g.submit(0, Action::Build { card: yard, pay, naval: move_green }).unwrap();
    g.submit(1, Action::Build { card: works, pay, naval: move_green }).unwrap();
    let c = g.hand(2)[0];
    g.submit(2, Action::Discard { card: c }).unwrap();
    assert_eq!(g.phase(), Phase::Explore { city: 0 });
    // What the table sees on the wire (seat 2, not exploring): a level-1 exploration with
    // seats 0 and 1 to choose, 4 islands each, which stay hidden from it; nothing kept yet.
    let table = |g: &Game| WireArmada::from_view(g.view(2).armada.as_ref().unwrap());
    let w = table(&g);
    let explorers = |w: &WireArmada| {
        let e = w.exploring.as_ref().unwrap();
        (e.level, e.waiting.iter().map(|x| (x.city, x.cards)).collect::<Vec<_>>(), e.kept.len())
    };
    assert_eq!(explorers(&w), (1, vec![(0, 4), (1, 4)], 0));
    assert!(w.dealt.is_empty() && w.explore_due.is_empty());
    // The turn's log: the free moves (green 1 → 2), no island yet.
    assert_eq!(
        armada(g.last_log()),
        vec![
            (0, ArmadaEvent::FreeMove { fleet: Fleet::Green, to: 2 }, 0),
            (1, ArmadaEvent::FreeMove { fleet: Fleet::Green, to: 2 }, 0),
        ]
    );
    let dealt0 = g.view(0).armada.unwrap().dealt;
    let dealt1 = g.view(1).armada.unwrap().dealt;
    let choice = |g: &Game, s: usize, keep| {
        g.legal_actions(s)
            .into_iter()
            .find(|a| matches!(a, Action::ChooseIsland { island, .. } if *island == keep))
            .unwrap()
    };
    let a0 = choice(&g, 0, dealt0[1]);
    g.submit(0, a0).unwrap();
    // Seat 0's island is face up for everyone; seat 1 still holds its 4.
    let w = table(&g);
    assert_eq!(explorers(&w), (1, vec![(1, 4)], 1));
    let def = g.catalog().armada.as_deref().unwrap().island(dealt0[1]);
    assert_eq!(w.exploring.as_ref().unwrap().kept[0].name, def.name);
    // This step's log starts with seat 0's kept island (then the ships it moved, if any).
    let log = armada(g.last_log());
    assert_eq!(log[0], (0, ArmadaEvent::Explored(dealt0[1]), 0));
    assert!(log[1..].iter().all(|(s, e, _)| *s == 0 && matches!(e, ArmadaEvent::IslandMove { .. })));
    let a1 = choice(&g, 1, dealt1[3]);
    g.submit(1, a1).unwrap();
    assert_eq!(armada(g.last_log())[0], (1, ArmadaEvent::Explored(dealt1[3]), 0));
    // In the whole history, the only islands named are the two kept: the six returned never.
    let named: Vec<_> = armada(g.history()).iter().filter_map(|(_, e, _)| e.island()).collect();
    assert_eq!(named, vec![dealt0[1], dealt1[3]]);
    let wire = serde_json::to_value(WireLogEntry::from_entry(g.catalog(), &g.last_log()[0])).unwrap();
    assert_eq!(wire["played"], "armada_explored");
    let def = g.catalog().armada.as_deref().unwrap().island(dealt1[3]);
    assert_eq!(wire["armada"]["island"], def.name.as_str());
}

#[test]
fn forgotten_ports_opt_out_is_logged_and_its_holder_has_no_naval_entry() {
    // Seat 1 holds Forgotten Port and stays out of the Age I naval conflict (armada.md §6): the
    // others (0 and 2, strengths 2 and 0: red steps 2 and 0) fight: seat 0 +3 and seat 2 −1 —
    // with two players taking part, the stronger is the strongest, the other the weakest.
    let mut g = game(&["Giza", "Olympia", "Rhodes"], 3);
    {
        let st = g.armada_mut().unwrap();
        let port = st.data.find_island("Forgotten Port").unwrap();
        st.cities[1].islands.insert(port);
        st.cities[0].shipyard.steps[Fleet::Red as usize] = 2;
    }
    discard_until_last_turn(&mut g);
    for s in g.to_act() {
        let c = g.hand(s)[0];
        g.submit(s, Action::Discard { card: c }).unwrap();
    }
    assert_eq!(g.phase(), Phase::NavalOptOut { city: 1 });
    g.submit(1, Action::StayOutOfNaval { stay_out: true }).unwrap();
    assert_eq!(g.age(), 2);
    let strength0 = g.armada().unwrap().cities[0].naval_strength(g.armada().unwrap().data);
    assert_eq!(
        armada(g.last_log()),
        vec![
            (1, ArmadaEvent::StayedOut, 0),
            (0, ArmadaEvent::Naval { strength: strength0, token: 3 }, 0),
            (2, ArmadaEvent::Naval { strength: 0, token: -1 }, 0),
        ]
    );
    assert_eq!(g.armada().unwrap().cities[1].naval[0], 0);
}

/// Plays random legal actions to the end.
fn play_random(s: &Setup) -> Game {
    let mut g = Game::new(s).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(s.seed);
    let mut legal = Vec::new();
    while !g.is_over() {
        for seat in g.to_act() {
            g.legal_actions_into(seat, &mut legal);
            let a = legal[rng.random_range(0..legal.len())];
            g.submit(seat, a).unwrap();
        }
    }
    g
}

#[test]
fn whole_games_log_every_ship_step_island_and_token_within_the_bound() {
    // The bound of the history's capacity, as worked out in its documentation: 106 entries per
    // city × 8, 32 islands, 24 + 32 piracies and incursion tokens, 24 incursion conflicts.
    assert_eq!(ARMADA_HISTORY_BOUND, 960);
    assert_eq!(ARMADA_HISTORY_MAX, 1024);
    // An Armada event is 3 bytes, so the event does not make LogEntry grow: it is 14 bytes, the
    // payment's byte for the trading zones' coins (and its alignment) included.
    assert_eq!(std::mem::size_of::<ArmadaEvent>(), 3);
    assert_eq!(std::mem::size_of::<LogEntry>(), 14);
    for (players, seed) in [(8u8, 1u64), (8, 2), (7, 3), (3, 4)] {
        let g = play_random(&setup(players, seed));
        let h = g.history();
        assert!(h.len() <= ARMADA_HISTORY_BOUND, "{players} players: {} entries", h.len());
        let st = g.armada().unwrap();
        let events = armada(h);
        for city in 0..players as usize {
            let mine = || events.iter().filter(move |(s, _, _)| *s as usize == city).map(|(_, e, _)| *e);
            // Every step a ship climbed is one logged move.
            for f in Fleet::ALL {
                let moves = mine().filter(|e| e.ship_move().is_some_and(|m| m.0 == f)).count();
                assert_eq!(moves, st.cities[city].shipyard.step(f) as usize, "city {city} {f}");
            }
            // Every island in the city came in a logged event.
            let islands = mine().filter(|e| e.island().is_some()).count();
            assert_eq!(islands as u32, st.cities[city].islands.len(), "city {city} islands");
            // The naval tokens logged are the tokens held.
            let naval: i32 = mine()
                .map(|e| match e {
                    ArmadaEvent::Naval { token, .. } => i32::from(token),
                    _ => 0,
                })
                .sum();
            assert_eq!(naval, st.cities[city].naval_points(), "city {city} naval");
        }
        // Each Age end logs one naval entry per city (nobody holds Forgotten Port's opt-out
        // with random play unless it chose to stay out).
        for age in 1..=3u8 {
            let n = h
                .iter()
                .filter(|e| {
                    e.age == age
                        && matches!(
                            e.played,
                            Played::Armada(ArmadaEvent::Naval { .. } | ArmadaEvent::StayedOut)
                        )
                })
                .count();
            assert_eq!(n, players as usize, "Age {age}");
        }
    }
}

#[test]
fn a_game_without_armada_logs_no_armada_event() {
    let g = play_random(&Setup::new(7, 5));
    assert!(g.history().iter().all(|e| !matches!(e.played, Played::Armada(_))));
    assert!(g.history().len() <= wonders_core::game::HISTORY_MAX);
}
