//! The Edifice expansion, case by case, each value worked out by hand from rulebook 001 and
//! edifice.md (§2 the rules, §5 the provisional values in data/edifice.toml).

use wonders_core::edifice::{BUILTIN, EdificeEvent, Outcome, ProjectId};
use wonders_core::score::score_city;
use wonders_core::{
    Action, ActionError, CardId, Catalog, Edition, Expansions, Game, Naval, Payment, Phase, Played, Setup,
    SetupError, Side, StageExtra, WonderDeal,
};

fn ext() -> &'static Catalog {
    Catalog::extended(Edition::First)
}

fn card(name: &str, age: u8) -> CardId {
    ext().find_card_in_age(name, age).unwrap()
}

fn project(name: &str) -> ProjectId {
    ext().edifice.as_ref().unwrap().find(name).unwrap()
}

/// A 3-player 1st-edition game with Edifice: Rhodes A, Alexandria A, Ephesos A (seats 0–2), and
/// `age1` as the Age I project.
fn game(age1: &str) -> Game {
    let boards = ["Rhodes", "Alexandria", "Ephesos"].map(|w| (ext().find_wonder(w).unwrap(), Some(Side::A)));
    let setup = Setup {
        wonders: WonderDeal::Chosen(boards.to_vec()),
        expansions: Expansions::EDIFICE,
        ..Setup::new(3, 11)
    };
    let mut g = Game::new(&setup).unwrap();
    g.edifice_mut().unwrap().projects[0] = project(age1);
    g
}

/// Gives `city` three of each raw material (with its board's one, four of that) and one of each
/// manufactured good, so that any first or second stage is paid from its own production.
fn rich(g: &mut Game, city: usize) {
    for name in ["Sawmill", "Quarry", "Brickyard", "Foundry", "Loom", "Glassworks", "Press"] {
        g.city_mut(city).place(ext(), card(name, 2));
    }
    for name in ["Lumber Yard", "Stone Pit", "Clay Pool", "Ore Vein"] {
        g.city_mut(city).place(ext(), card(name, 1));
    }
}

/// The stage actions of `seat` that take part in the project.
fn taking_part(g: &Game, seat: usize) -> Vec<Action> {
    g.legal_actions(seat)
        .into_iter()
        .filter(|a| matches!(a, Action::Wonder { extra, .. } if extra.take_part()))
        .collect()
}

fn discard_first(g: &Game, seat: usize) -> Action {
    Action::Discard { card: g.hand(seat)[0] }
}

/// Submits one turn: the given actions, every other seat discards its first card.
fn turn(g: &mut Game, acts: &[(usize, Action)]) {
    for seat in 0..g.players() {
        let a =
            acts.iter().find(|(s, _)| *s == seat).map(|(_, a)| *a).unwrap_or_else(|| discard_first(g, seat));
        g.submit(seat, a).unwrap();
    }
}

fn events(g: &Game) -> Vec<(u8, EdificeEvent)> {
    g.last_log()
        .iter()
        .filter_map(|e| match e.played {
            Played::Edifice(ev) => Some((e.seat, ev)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_data_file_holds_the_fifteen_projects_with_their_status() {
    let data = ext().edifice.as_ref().unwrap();
    assert_eq!(data.projects.len(), 15);
    for age in 1..=3 {
        assert_eq!(data.projects.iter().filter(|p| p.age == age).count(), 5);
    }
    let belvedere = data.project(project("景觀樓"));
    assert_eq!(belvedere.name, "Belvedere");
    // 001's example confirms Belvedere's 1 coin; its effects are provisional (edifice.md §5.3).
    assert_eq!(belvedere.coins, 1);
    assert!(!belvedere.cost_status.provisional());
    assert!(belvedere.reward_status.provisional() && belvedere.penalty_status.provisional());
    assert!(data.project(project("Agora")).cost_status.provisional());
    // §5.1 and §5.2.
    assert_eq!((3..=7).map(|n| data.pawns_for(n)).collect::<Vec<_>>(), vec![2, 3, 4, 5, 5]);
    assert!(
        !data.pawns[3].1.provisional() && data.pawns[4].1.provisional() && !data.pawns[7].1.provisional()
    );
    assert_eq!([1, 2, 3].map(|a| data.debt_points(a)), [2, 3, 5]);
    // Ur and Carthage follow the edition's own boards, which keep their ids.
    assert_eq!(ext().wonders.len(), Catalog::get(Edition::First).wonders.len() + 2);
    assert!(ext().wonder(ext().find_wonder("烏爾").unwrap()).only_with_edifice);
    assert!(!ext().wonder(ext().find_wonder("Carthage").unwrap()).only_with_edifice);
}

#[test]
fn setup_puts_one_project_per_age_with_that_ages_pawns() {
    for players in 3..=7u8 {
        let setup = Setup { expansions: Expansions::EDIFICE, ..Setup::new(players, 5) };
        let g = Game::new(&setup).unwrap();
        let e = g.edifice().unwrap();
        let data = g.catalog().edifice.as_ref().unwrap();
        for a in 0..3 {
            assert_eq!(data.project(e.projects[a]).age, a as u8 + 1);
        }
        let pawns = [0, 0, 0, 2, 3, 4, 5, 5][players as usize];
        assert_eq!(e.left, [pawns; 3]);
        assert_eq!(e.outcome, [Outcome::Open; 3]);
    }
    // Without the expansion there is nothing of it.
    assert!(Game::new(&Setup::new(4, 5)).unwrap().edifice().is_none());
    // Edifice's pawn table starts at 3 players.
    let two = Setup { expansions: Expansions::EDIFICE, ..Setup::new(2, 5) };
    assert!(matches!(Game::new(&two), Err(SetupError::Expansion(_))));
}

/// 001 A., its example: a stage costing 2 wood, with Belvedere (1 coin), costs 2 wood + 1 coin,
/// paid as one purchase; "stage" and "stage and take part" are separate actions.
#[test]
fn a_two_wood_stage_with_belvedere_costs_two_wood_and_one_coin() {
    let mut g = game("Belvedere");
    g.city_mut(0).place(ext(), card("Sawmill", 2)); // WW: Rhodes A's first stage
    let stage_card = g.hand(0)[0];
    let stages: Vec<Action> = g
        .legal_actions(0)
        .into_iter()
        .filter(|a| matches!(a, Action::Wonder { card, .. } if *card == stage_card))
        .collect();
    let plain = Action::Wonder { card: stage_card, pay: Payment::default(), extra: StageExtra::NONE };
    let part = Action::Wonder {
        card: stage_card,
        pay: Payment { bank: 1, ..Payment::default() },
        extra: StageExtra::new(true, false, 0),
    };
    assert_eq!(stages, vec![plain, part]);
    turn(&mut g, &[(0, part)]);
    assert_eq!(g.city(0).stages, 1);
    assert_eq!(g.city(0).coins, 3 - 1, "the coin went to the bank");
    assert_eq!(g.city(0).edifice.pawns, [1, 0, 0]);
    assert_eq!(g.edifice().unwrap().left, [1, 2, 2], "3 players: 2 pawns, one taken");
    assert_eq!(events(&g), vec![(0, EdificeEvent::TookPart)]);
    // Buying the wood instead: 2 coins a unit to a neighbour (neither sells wood here, so it
    // cannot be bought); with the coin short, the take-part action disappears.
    let mut poor = game("Belvedere");
    poor.city_mut(0).place(ext(), card("Sawmill", 2));
    poor.city_mut(0).coins = 0;
    assert!(taking_part(&poor, 0).is_empty());
    assert_eq!(poor.legal_actions(0).iter().filter(|a| matches!(a, Action::Wonder { .. })).count(), 7);
}

/// 001 注意 and B.: two players take part in the same turn with one pawn left: an extra pawn
/// comes from the box, the project is completed at once, and both are rewarded (Money Changer:
/// 4 coins, received at the end of the turn).
#[test]
fn two_players_joining_on_the_last_pawn_are_both_rewarded() {
    let mut g = game("Money Changer");
    g.edifice_mut().unwrap().left[0] = 1;
    rich(&mut g, 0);
    rich(&mut g, 1);
    let a0 = taking_part(&g, 0)[0];
    let a1 = taking_part(&g, 1)[0];
    assert_eq!(a0.payment().unwrap(), Payment { bank: 1, ..Payment::default() });
    turn(&mut g, &[(0, a0), (1, a1)]);
    let e = g.edifice().unwrap();
    assert_eq!(e.left[0], 0);
    assert_eq!(e.outcome[0], Outcome::Completed);
    // 3 coins − 1 (participation) + 4 (reward) = 6; seat 2 discarded: 3 + 3 = 6, no reward.
    assert_eq!(g.city(0).coins, 6);
    assert_eq!(g.city(1).coins, 6);
    assert_eq!(g.city(2).coins, 6);
    assert_eq!([0, 1, 2].map(|c| g.city(c).edifice.pawns[0]), [1, 1, 0]);
    assert_eq!(
        events(&g),
        vec![
            (0, EdificeEvent::TookPart),
            (1, EdificeEvent::TookPart),
            (0, EdificeEvent::Rewarded(1)),
            (1, EdificeEvent::Rewarded(1))
        ]
    );
    // Completed: nobody can take part any more this Age, and the Age's end costs nothing.
    assert!(g.joinable_project(2).is_none());
}

/// 001 A.: once per Age. After taking part, the same city's next stage in the Age offers no
/// participation, and a forged one is refused; the next Age's project is open to it again.
#[test]
fn taking_part_is_once_per_age() {
    let mut g = game("Money Changer");
    g.edifice_mut().unwrap().left[0] = 3;
    rich(&mut g, 0);
    let a = taking_part(&g, 0)[0];
    turn(&mut g, &[(0, a)]);
    assert_eq!(g.edifice().unwrap().left[0], 2);
    assert!(g.joinable_project(0).is_none());
    assert!(taking_part(&g, 0).is_empty());
    assert!(
        g.legal_actions(0).iter().any(|a| matches!(a, Action::Wonder { .. })),
        "a plain stage is still legal"
    );
    let forged = Action::Wonder {
        card: g.hand(0)[0],
        pay: Payment { bank: 1, ..Payment::default() },
        extra: StageExtra::new(true, false, 0),
    };
    assert!(matches!(g.check(0, &forged), Err(ActionError::BadPayment { .. })));
    assert!(g.joinable_project(1).is_some(), "the others still may");
}

/// 001 B.: failure at the end of the Age, before military conflicts. Money Changer fails
/// (penalty: lose 2 coins): the participant suffers nothing, a player with 8 coins pays 2, a
/// player with 0 coins cannot and takes the Age I debt token (−2 VP).
#[test]
fn failure_spares_the_participant_and_gives_debt_to_who_cannot_pay() {
    let mut g = game("Money Changer");
    for _ in 0..5 {
        turn(&mut g, &[]);
    }
    assert_eq!(g.turn(), 6);
    rich(&mut g, 0);
    g.city_mut(0).coins = 5;
    g.city_mut(1).coins = 5;
    g.city_mut(2).coins = 0;
    let stage = taking_part(&g, 0)[0];
    g.set_hand(2, &[card("Lumber Yard", 1), card("Stone Pit", 1)]);
    let free = Action::Build { card: card("Lumber Yard", 1), pay: Payment::default(), naval: Naval::NONE };
    turn(&mut g, &[(0, stage), (2, free)]);
    assert_eq!(g.age(), 2);
    let e = g.edifice().unwrap();
    assert_eq!(e.outcome[0], Outcome::Failed);
    assert_eq!(e.left[0], 1, "one pawn was left on the card");
    assert_eq!(g.city(0).coins, 5 - 1, "participant: only the participation coin");
    assert_eq!(g.city(1).coins, 5 + 3 - 2, "discarded for 3, then paid the penalty");
    assert_eq!(g.city(2).coins, 0);
    assert_eq!([0, 1, 2].map(|c| g.city(c).edifice.debt), [[0; 3], [0; 3], [1, 0, 0]]);
    let age1: Vec<_> = g
        .history()
        .iter()
        .filter_map(|e| match e.played {
            Played::Edifice(ev) => Some((e.seat, ev)),
            _ => None,
        })
        .collect();
    assert_eq!(
        age1,
        vec![
            (0, EdificeEvent::TookPart),
            (0, EdificeEvent::Spared),
            (1, EdificeEvent::Paid),
            (2, EdificeEvent::Debt)
        ]
    );
    // The debt token is scored in the edifice category: −2.
    assert_eq!(g.scores()[2].edifice, -2);
    assert_eq!(g.scores()[1].edifice, 0);
}

/// edifice.md §5.5 (provisional) and 001 B.: Curtain Wall (discard a grey card) fails with
/// nobody taking part, so everyone suffers it: a city with one grey card loses it, one with none
/// takes the debt token, and one with two chooses which — before military conflicts.
#[test]
fn nobody_took_part_everyone_suffers_and_the_owner_chooses_the_card() {
    let mut g = game("Curtain Wall");
    for _ in 0..5 {
        turn(&mut g, &[]);
    }
    let (loom, glass, press) = (card("Loom", 1), card("Glassworks", 1), card("Press", 1));
    g.city_mut(0).place(ext(), loom);
    g.city_mut(0).place(ext(), glass);
    g.city_mut(1).place(ext(), press);
    g.city_mut(1).place(ext(), card("Barracks", 1));
    let pile = g.discard_pile().len();
    turn(&mut g, &[]);
    assert_eq!(g.phase(), Phase::EdificeDiscard { city: 0 });
    assert_eq!(g.age(), 1, "military conflicts wait");
    assert!(g.cities().iter().all(|c| c.tokens.values().is_empty()));
    assert_eq!(g.to_act().to_vec(), vec![0]);
    assert_eq!(
        g.legal_actions(0),
        vec![Action::DiscardBuilt { card: loom }, Action::DiscardBuilt { card: glass }]
    );
    assert!(g.check(1, &Action::DiscardBuilt { card: press }).is_err(), "not seat 1's step");
    assert!(g.check(0, &Action::DiscardBuilt { card: press }).is_err(), "not in seat 0's city");
    // Seat 1 lost its only grey card at once; seat 2 had none: debt.
    assert!(!g.city(1).built.contains(press));
    assert_eq!(g.city(2).edifice.debt, [1, 0, 0]);
    g.submit(0, Action::DiscardBuilt { card: glass }).unwrap();
    assert_eq!(g.age(), 2);
    assert!(g.city(0).built.contains(loom) && !g.city(0).built.contains(glass));
    assert_eq!(g.city(0).production.fixed.get(wonders_core::Resource::Glass), 0, "the city is rebuilt");
    // 6th turn: 3 discards + 3 last cards, then the two penalty discards.
    assert_eq!(g.discard_pile().len(), pile + 3 + 3 + 2);
    assert!(g.discard_pile().contains(&glass) && g.discard_pile().contains(&press));
    assert_eq!(g.city(1).tokens.values(), vec![1, 1], "then military: Barracks' shield wins twice");
}

/// edifice.md §5.4 and §6 as decided in wonders_core::edifice: Ur Night's first stage takes an
/// Age I pawn from the box: no pawn leaves the card, the once-per-Age participation stays open,
/// and the holder is spared the Age's penalty.
#[test]
fn an_ur_pawn_spares_the_penalty_without_using_the_participation() {
    let boards = ["Ur", "Alexandria", "Ephesos"].map(|w| (ext().find_wonder(w).unwrap(), Some(Side::B)));
    let setup = Setup {
        wonders: WonderDeal::Chosen(boards.to_vec()),
        expansions: Expansions::EDIFICE,
        ..Setup::new(3, 2)
    };
    let mut g = Game::new(&setup).unwrap();
    g.edifice_mut().unwrap().projects[0] = project("Money Changer");
    rich(&mut g, 0);
    let plain = Action::Wonder { card: g.hand(0)[0], pay: Payment::default(), extra: StageExtra::NONE };
    turn(&mut g, &[(0, plain)]);
    assert_eq!(g.city(0).edifice.pawns, [1, 0, 0]);
    assert_eq!(g.edifice().unwrap().left[0], 2);
    assert!(g.joinable_project(0).is_some());
    assert_eq!(events(&g), vec![(0, EdificeEvent::UrPawn(1))]);
    for _ in 0..5 {
        turn(&mut g, &[]);
    }
    assert_eq!(g.age(), 2);
    // Seat 0: 3 + 5 discards × 3 = 18, spared; the others: 3 + 6 × 3 = 21, less the 2 coins.
    assert_eq!([0, 1, 2].map(|c| g.city(c).coins), [18, 19, 19]);
    // Ur without Edifice is refused (001 奇蹟面板).
    let bare = Setup { expansions: Expansions::NONE, ..setup };
    assert!(matches!(Game::new(&bare), Err(SetupError::Wonders(_))));
}

/// An Ur pawn of an earlier Age whose project was completed brings its reward when the stage is
/// built, and the log says so at that moment: the entry's Age and turn are when it happened (so
/// the log stays in order), and the event names the earlier project's Age. Ur Day's second stage
/// (PAWN:any) takes an Age I pawn on Age II's first turn; Money Changer's reward is 4 coins.
#[test]
fn an_ur_pawn_for_a_completed_project_is_rewarded_and_logged_when_it_happens() {
    let boards = ["Ur", "Alexandria", "Ephesos"].map(|w| (ext().find_wonder(w).unwrap(), Some(Side::A)));
    let setup = Setup {
        wonders: WonderDeal::Chosen(boards.to_vec()),
        expansions: Expansions::EDIFICE,
        ..Setup::new(3, 5)
    };
    let mut g = Game::new(&setup).unwrap();
    g.edifice_mut().unwrap().projects[0] = project("Money Changer");
    g.edifice_mut().unwrap().left[0] = 1;
    rich(&mut g, 1);
    let join = taking_part(&g, 1)[0];
    turn(&mut g, &[(1, join)]);
    assert_eq!(g.edifice().unwrap().outcome[0], Outcome::Completed);
    for _ in 0..5 {
        turn(&mut g, &[]);
    }
    assert_eq!(g.age(), 2);
    // Ur discarded six times: 3 + 6 × 3 coins.
    assert_eq!(g.city(0).coins, 21);
    g.city_mut(0).build_stage(ext());
    rich(&mut g, 0);
    let late = g
        .legal_actions(0)
        .into_iter()
        .find(|a| matches!(a, Action::Wonder { extra, .. } if extra.pawn_age() == 1 && !extra.take_part()))
        .unwrap();
    assert_eq!(late.payment(), Some(Payment::default()));
    turn(&mut g, &[(0, late)]);
    assert_eq!(g.city(0).edifice.pawns, [1, 0, 0]);
    assert_eq!(g.city(0).coins, 21 + 4);
    let logged: Vec<_> = g
        .last_log()
        .iter()
        .filter(|e| matches!(e.played, Played::Edifice(_)))
        .map(|e| (e.age, e.turn, e.seat, e.played, e.income))
        .collect();
    assert_eq!(
        logged,
        vec![
            (2, 1, 0, Played::Edifice(EdificeEvent::UrPawn(1)), 0),
            (2, 1, 0, Played::Edifice(EdificeEvent::Rewarded(1)), 4),
        ]
    );
    assert_eq!(EdificeEvent::Rewarded(1).project_age(2), 1);
    // The whole log is in the order things happened.
    let when: Vec<(u8, u8)> = g.history().iter().map(|e| (e.age, e.turn)).collect();
    assert!(when.is_sorted(), "{when:?}");
}

/// edifice.md §5.4: Carthage's stage offers two effects and the builder chooses (the choice is
/// part of the action). Carthage plays without Edifice when chosen.
#[test]
fn carthage_builder_chooses_the_effect() {
    let boards = ["Carthage", "Rhodes", "Alexandria"].map(|w| (ext().find_wonder(w).unwrap(), Some(Side::A)));
    let setup = Setup { wonders: WonderDeal::Chosen(boards.to_vec()), ..Setup::new(3, 9) };
    let mut g = Game::new(&setup).unwrap();
    assert!(g.edifice().is_none());
    g.city_mut(0).build_stage(ext()); // Day stage 1 (SS → 3 VP)
    rich(&mut g, 0); // OOP for stage 2
    let c = g.hand(0)[0];
    let stage2: Vec<Action> = g
        .legal_actions(0)
        .into_iter()
        .filter(|a| matches!(a, Action::Wonder { card, .. } if *card == c))
        .collect();
    let coins = Action::Wonder { card: c, pay: Payment::default(), extra: StageExtra::NONE };
    let shield = Action::Wonder { card: c, pay: Payment::default(), extra: StageExtra::new(false, true, 0) };
    assert_eq!(stage2, vec![coins, shield]);
    let mut other = g.clone();
    turn(&mut g, &[(0, shield)]);
    turn(&mut other, &[(0, coins)]);
    // Second effect: +1 shield and 2 VP; first: 7 coins.
    assert_eq!((g.city(0).shields, g.city(0).coins), (1, 3));
    assert_eq!((other.city(0).shields, other.city(0).coins), (0, 3 + 7));
    assert_eq!(score_city(ext(), g.cities(), 0).wonder, 3 + 2);
    assert_eq!(score_city(ext(), other.cities(), 0).wonder, 3);
    // Carthage is not dealt at random without Edifice.
    for seed in 0..50 {
        let g = Game::new(&Setup::new(7, seed)).unwrap();
        assert!(g.cities().iter().all(|c| !g.catalog().wonder(c.wonder).expansion));
    }
}

/// The edifice category: Belvedere (1 VP per own stage) with 2 stages, an Age II debt token (−3)
/// and the Agora repeating the best own guild (Workers Guild: 1 VP per brown card of the
/// neighbours, 2 here) gives 2 − 3 + 2 = 1.
#[test]
fn the_edifice_category_scores_rewards_held_and_debt() {
    let mut g = game("Belvedere");
    g.city_mut(0).build_stage(ext());
    g.city_mut(0).build_stage(ext());
    g.city_mut(0).edifice.held = [project("Belvedere").0 + 1, 0, project("Agora").0 + 1];
    g.city_mut(0).edifice.debt = [0, 1, 0];
    g.city_mut(0).place(ext(), card("Workers Guild", 3));
    g.city_mut(1).place(ext(), card("Lumber Yard", 1));
    g.city_mut(2).place(ext(), card("Ore Vein", 1));
    let s = score_city(ext(), g.cities(), 0);
    assert_eq!(s.edifice, 2 - 3 + 2);
    assert_eq!(s.guilds, 2);
    assert_eq!(
        s.total,
        s.military + s.treasury + s.wonder + s.civilian + s.science + s.commercial + s.guilds + 1
    );
}

/// A replacement data file changes a value without recompiling: Money Changer's reward 4 → 6
/// coins. A malformed file is refused with an error naming the problem.
#[test]
fn a_replacement_data_file_changes_a_value() {
    let text = BUILTIN.replace(r#"reward = ["COIN4"]"#, r#"reward = ["COIN6"]"#);
    let catalog: &'static Catalog =
        Box::leak(Box::new(Catalog::get(Edition::First).with_edifice_toml(&text).unwrap()));
    let boards =
        ["Rhodes", "Alexandria", "Ephesos"].map(|w| (catalog.find_wonder(w).unwrap(), Some(Side::A)));
    let setup = Setup {
        wonders: WonderDeal::Chosen(boards.to_vec()),
        expansions: Expansions::EDIFICE,
        ..Setup::new(3, 11)
    };
    let mut g = Game::with_catalog(catalog, &setup).unwrap();
    let data = catalog.edifice.as_ref().unwrap();
    g.edifice_mut().unwrap().projects[0] = data.find("Money Changer").unwrap();
    g.edifice_mut().unwrap().left[0] = 1;
    for name in ["Sawmill", "Quarry", "Brickyard", "Foundry", "Loom", "Glassworks", "Press"] {
        g.city_mut(0).place(catalog, catalog.find_card_in_age(name, 2).unwrap());
    }
    let a = taking_part(&g, 0)[0];
    turn(&mut g, &[(0, a)]);
    assert_eq!(g.city(0).coins, 3 - 1 + 6);
    let bad = BUILTIN.replace(r#"penalty = "LOSE_COINS:2""#, r#"penalty = "LOSE_COWS:2""#);
    let err = Catalog::get(Edition::First).with_edifice_toml(&bad).unwrap_err().to_string();
    assert!(err.contains("Money Changer") && err.contains("LOSE_COWS"), "{err}");
}

/// The table format for a physical game: Belvedere completed (1 VP per own
/// stage), River Port failed, Agora completed. Ann: 2 stages → 2, Agora repeats her Workers
/// Guild (Bob's and Cy's brown cards: 2), an Age II debt token −3: 1. Bob holds Belvedere's pawn
/// with no stage: 0. Cy: debt tokens of Ages I and II: −5.
#[test]
fn the_table_format_scores_pawns_and_debt() {
    use wonders_core::table::Table;
    let text = r#"{"expansions": ["edifice"],
        "projects": [{"name": "Belvedere", "completed": true}, {"name": "River Port", "completed": false},
                     {"name": "Agora", "completed": true}],
        "players": [
          {"name": "Ann", "wonder": "Rhodes", "side": "A", "stages": 2, "cards": ["Workers Guild"],
           "pawns": [1, 3], "debt": [2]},
          {"name": "Bob", "wonder": "Giza", "side": "A", "cards": ["Lumber Yard"], "pawns": [1]},
          {"name": "Cy", "wonder": "Ur", "side": "Day", "cards": ["Ore Vein"], "debt": [1, 2]}]}"#;
    let t = Table::from_json(text).unwrap();
    let s = t.scores();
    assert_eq!([s[0].edifice, s[1].edifice, s[2].edifice], [1, 0, -5]);
    assert_eq!(s[0].total, s[0].military + s[0].treasury + s[0].wonder + s[0].civilian + s[0].guilds + 1);
    // Refused, with the problem named.
    let wrong_age = text.replace("River Port", "Agora");
    assert!(
        Table::from_json(&wrong_age)
            .unwrap_err()
            .to_string()
            .contains("Agora is an Age 3 project, listed for Age 2")
    );
    let unknown = text.replace("River Port", "River Pork");
    assert!(Table::from_json(&unknown).unwrap_err().to_string().contains("unknown project `River Pork`"));
    let bare = text.replace(r#""expansions": ["edifice"],"#, "");
    assert!(Table::from_json(&bare).unwrap_err().to_string().contains("need"));
    let bad_age = text.replace(r#""debt": [1, 2]"#, r#""debt": [4]"#);
    assert!(Table::from_json(&bad_age).unwrap_err().to_string().contains("Age 4"));
}

/// The table format records a Carthage stage built with its second effect (Day stage 2: +1
/// shield and 2 VP instead of 7 coins): wonder 3 + 2 = 5, 1 shield; a stage without a second
/// effect is refused.
#[test]
fn the_table_format_records_carthage_choices() {
    use wonders_core::table::Table;
    let table = |second: &str| {
        format!(
            r#"{{"players": [
            {{"name": "Ann", "wonder": "Carthage", "side": "Day", "stages": 2, "second_effects": {second}}},
            {{"name": "Bob", "wonder": "Giza", "side": "A"}},
            {{"name": "Cy", "wonder": "Rhodes", "side": "A"}}]}}"#
        )
    };
    let t = Table::from_json(&table("[2]")).unwrap();
    assert_eq!(t.scores()[0].wonder, 5);
    assert_eq!(t.cities()[0].shields, 1);
    assert_eq!(Table::from_json(&table("[]")).unwrap().scores()[0].wonder, 3);
    let err = Table::from_json(&table("[1]")).unwrap_err().to_string();
    assert!(err.contains("stage 1 was not built with a second effect"), "{err}");
}

/// Whole random games with Ur at the table: the log's Ages never go back, so a reader that puts
/// each Age's end after its last entry finds one end per Age (an Ur pawn's late reward was once
/// logged under its project's Age, and the browser's log showed five Age ends). Within an Age,
/// what follows Babylon's 7th card (a pick from the discard pile, the project's end) keeps
/// turn 6.
#[test]
fn the_log_of_random_games_with_ur_is_in_order() {
    let mut late_rewards = 0;
    for seed in 0..300u64 {
        let ur = (ext().find_wonder("Ur").unwrap(), Some(if seed % 2 == 0 { Side::A } else { Side::B }));
        let others = ["Alexandria", "Ephesos", "Babylon"].map(|w| (ext().find_wonder(w).unwrap(), None));
        let setup = Setup {
            wonders: WonderDeal::Chosen([ur, others[0], others[1], others[2]].to_vec()),
            expansions: Expansions::EDIFICE,
            ..Setup::new(4, seed)
        };
        let mut g = Game::new(&setup).unwrap();
        let mut pick = seed;
        while !g.is_over() {
            let seat = g.to_act()[0];
            let legal = g.legal_actions(seat);
            pick = pick.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            // Stages (taking part when offered) whenever possible, else any action.
            let stages: Vec<Action> =
                legal.iter().copied().filter(|a| matches!(a, Action::Wonder { .. })).collect();
            let joins: Vec<Action> = taking_part(&g, seat);
            let from = if !joins.is_empty() {
                &joins
            } else if !stages.is_empty() {
                &stages
            } else {
                &legal
            };
            g.submit(seat, from[(pick >> 33) as usize % from.len()]).unwrap();
        }
        let ages: Vec<u8> = g.history().iter().map(|e| e.age).collect();
        assert!(ages.is_sorted(), "seed {seed}: {ages:?}");
        late_rewards += g
            .history()
            .iter()
            .filter(|e| matches!(e.played, Played::Edifice(EdificeEvent::Rewarded(a)) if a < e.age))
            .count();
    }
    assert!(late_rewards > 0, "no game had an Ur pawn's late reward");
}
