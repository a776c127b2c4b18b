//! Checks of the Armada data (`data/armada.toml`) against the rulebook (000) and
//! shared/reference/armada.md; every expected value below is copied by hand from armada.md.

use std::collections::BTreeSet;
use wonders_core::armada::{
    ArmadaData, ArmadaEffect, BoardId, Confidence, Direction, Fleet, FleetChoice, NavalCost, Shipyard,
    Status, TrackValue, dealt_per_age, hand_size, naval_tokens,
};
use wonders_core::{Colour, Effect, Resource, ResourceSet};

const TEXT: &str = include_str!("../data/armada.toml");
const HIGH: Status = Status::Confirmed(Confidence::High);
const MEDIUM: Status = Status::Confirmed(Confidence::Medium);
const PROV: Status = Status::Provisional;

fn data() -> &'static ArmadaData {
    ArmadaData::builtin()
}

fn cost(s: &str) -> NavalCost {
    NavalCost::parse(s).unwrap()
}

fn card(name: &str) -> &'static wonders_core::armada::ArmadaCardDef {
    data().card(data().find_card(name).unwrap())
}

fn island(name: &str) -> &'static wonders_core::armada::IslandDef {
    data().island(data().find_island(name).unwrap())
}

#[test]
fn counts_match_the_box() {
    // armada.md §1 (000 遊戲配件): 8 shipyard boards; 24 Armada cards, 8 per Age with 2 of each
    // of red, yellow, blue, green; 27 islands, 9 per level.
    let d = data();
    assert_eq!(d.boards().len(), 8);
    let numbers: Vec<u8> = d.boards().iter().map(|b| b.number).collect();
    assert_eq!(numbers, vec![1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(d.cards().len(), 24);
    for age in 1..=3u8 {
        for colour in [Colour::Red, Colour::Yellow, Colour::Blue, Colour::Green] {
            let n = d.cards().iter().filter(|c| c.age == age && c.colour == colour).count();
            assert_eq!(n, 2, "Age {age}, {colour}");
        }
    }
    assert_eq!(d.islands().len(), 27);
    for level in 1..=3u8 {
        assert_eq!(d.islands_of_level(level).len(), 9, "level {level}");
    }
}

#[test]
fn confirmed_track_values_of_10_2() {
    // armada.md §10.2 "Confirmed values to keep as fixed test cases" (from §4 / 000's examples).
    let d = data();
    let y = |s| d.track(Fleet::Yellow, s).unwrap();
    let st = |f, s, v| d.track_status(f, s, v).unwrap();
    // Yellow step 1: trade level 1.
    assert_eq!(y(1).trade, 1);
    assert_eq!(st(Fleet::Yellow, 1, TrackValue::Trade), HIGH);
    // Yellow step 2: +2 coins, tax 1 (high); trade level 1 (medium, inferred).
    assert_eq!((y(2).coins, y(2).tax, y(2).trade), (2, 1, 1));
    assert_eq!(st(Fleet::Yellow, 2, TrackValue::Coins), HIGH);
    assert_eq!(st(Fleet::Yellow, 2, TrackValue::Tax), HIGH);
    assert_eq!(st(Fleet::Yellow, 2, TrackValue::Trade), MEDIUM);
    // Yellow step 3: trade level 2.
    assert_eq!(y(3).trade, 2);
    assert_eq!(st(Fleet::Yellow, 3, TrackValue::Trade), HIGH);
    // Yellow step 4: +4 coins, tax 2, trade level 2.
    assert_eq!((y(4).coins, y(4).tax, y(4).trade), (4, 2, 2));
    for v in [TrackValue::Coins, TrackValue::Tax, TrackValue::Trade] {
        assert_eq!(st(Fleet::Yellow, 4, v), HIGH, "{v:?}");
    }
    // Yellow step 6: +2 naval, tax 4.
    assert_eq!((y(6).naval, y(6).tax), (2, 4));
    assert_eq!(st(Fleet::Yellow, 6, TrackValue::Naval), HIGH);
    assert_eq!(st(Fleet::Yellow, 6, TrackValue::Tax), HIGH);
    // Red step 3: 3 naval.
    assert_eq!(d.track(Fleet::Red, 3).unwrap().naval, 3);
    assert_eq!(st(Fleet::Red, 3, TrackValue::Naval), HIGH);
    // Blue step 6: 10 VP and +1 naval.
    let b6 = d.track(Fleet::Blue, 6).unwrap();
    assert_eq!((b6.points, b6.naval), (10, 1));
    assert_eq!(st(Fleet::Blue, 6, TrackValue::Points), HIGH);
    assert_eq!(st(Fleet::Blue, 6, TrackValue::Naval), HIGH);
    // Green step 2: explore a level-1 island.
    assert_eq!(d.track(Fleet::Green, 2).unwrap().explore, 1);
    assert_eq!(st(Fleet::Green, 2, TrackValue::Explore), HIGH);
    // The start space: trade level 0 (confirmed, §4), nothing else.
    assert_eq!(y(0), Default::default());
    assert_eq!(st(Fleet::Yellow, 0, TrackValue::Trade), HIGH);
    assert_eq!(d.track(Fleet::Red, 7), None);
}

#[test]
fn whole_track_table_of_10_2() {
    // armada.md §10.2, every cell, with its status.
    let d = data();
    let col =
        |f: Fleet, v: TrackValue| -> Vec<u8> { (1..=6).map(|s| d.track(f, s).unwrap().get(v)).collect() };
    assert_eq!(col(Fleet::Red, TrackValue::Naval), vec![1, 2, 3, 4, 5, 6]);
    assert_eq!(col(Fleet::Yellow, TrackValue::Trade), vec![1, 1, 2, 2, 3, 3]);
    assert_eq!(col(Fleet::Yellow, TrackValue::Coins), vec![0, 2, 0, 4, 0, 0]);
    assert_eq!(col(Fleet::Yellow, TrackValue::Tax), vec![0, 1, 0, 2, 0, 4]);
    assert_eq!(col(Fleet::Yellow, TrackValue::Naval), vec![0, 0, 0, 0, 0, 2]);
    assert_eq!(col(Fleet::Blue, TrackValue::Points), vec![1, 2, 4, 6, 8, 10]);
    assert_eq!(col(Fleet::Blue, TrackValue::Naval), vec![0, 0, 0, 0, 0, 1]);
    assert_eq!(col(Fleet::Green, TrackValue::Explore), vec![0, 1, 0, 2, 0, 3]);
    // The red track gives only naval strength, the green one only explorations (000; §9: NF's
    // coins, VP and science on them are invented).
    for s in 1..=6 {
        let r = d.track(Fleet::Red, s).unwrap();
        assert_eq!((r.trade, r.coins, r.tax, r.points, r.explore), (0, 0, 0, 0, 0));
        let g = d.track(Fleet::Green, s).unwrap();
        assert_eq!((g.naval, g.trade, g.coins, g.tax, g.points), (0, 0, 0, 0, 0));
    }
    let status = |f: Fleet, v: TrackValue| -> Vec<Option<Status>> {
        (1..=6).map(|s| d.track_status(f, s, v)).collect()
    };
    let p = Some(PROV);
    let h = Some(HIGH);
    assert_eq!(status(Fleet::Red, TrackValue::Naval), vec![p, p, h, p, p, p]);
    assert_eq!(status(Fleet::Yellow, TrackValue::Trade), vec![h, Some(MEDIUM), h, h, p, p]);
    assert_eq!(status(Fleet::Yellow, TrackValue::Coins), vec![p, h, p, h, p, p]);
    assert_eq!(status(Fleet::Yellow, TrackValue::Tax), vec![p, h, p, h, p, h]);
    assert_eq!(status(Fleet::Yellow, TrackValue::Naval), vec![None, None, None, None, None, h]);
    assert_eq!(status(Fleet::Blue, TrackValue::Points), vec![p, p, p, p, p, h]);
    assert_eq!(status(Fleet::Green, TrackValue::Explore), vec![p, h, p, p, p, p]);
    assert_eq!(d.track_status(Fleet::Red, 3, TrackValue::Trade), None, "a red space has no trade level");
}

#[test]
fn the_rulebooks_three_cost_examples_of_10_3() {
    let d = data();
    // Ann (Giza, stage 1 costs 2 ore in 000's example) has the wonder symbol on red and pays
    // 1 wood for the red step: boards 1 and 2 carry the symbol on red; board 1's red step 1 is
    // 1 wood. Her whole purchase: 2 ore + 1 wood.
    let red_boards: Vec<u8> =
        d.boards().iter().filter(|b| b.wonder == Fleet::Red).map(|b| b.number).collect();
    assert_eq!(red_boards, vec![1, 2]);
    let ann = d.step_cost(BoardId(0), Fleet::Red, 1).unwrap();
    assert_eq!(ann, cost("W"));
    let mut total = ann.resources;
    total.add(Resource::Ore, 2);
    assert_eq!(total.to_string(), "WOO");
    // Gabriel builds a blue card costing 1 ore and pays 1 clay for the blue step (board 6, blue
    // step 1): 1 ore + 1 clay in all.
    let gabriel = d.step_cost(BoardId(5), Fleet::Blue, 1).unwrap();
    assert_eq!(gabriel, cost("C"));
    let mut total = gabriel.resources;
    total.add(Resource::Ore, 1);
    assert_eq!(total.to_string(), "CO");
    // TOL: the next yellow step costs 1 wood (board 6, yellow step 1).
    assert_eq!(d.next_step_cost(BoardId(5), Fleet::Yellow, 0), Some(cost("W")));
    // All three are provisional data that happen to agree with the examples.
    assert_eq!(d.step_cost_status(BoardId(0), Fleet::Red, 1), Some(PROV));
}

#[test]
fn costs_follow_the_rule_of_10_3_and_spot_rows() {
    // The rule of armada.md §10.3, recomputed for all 192 costs.
    let d = data();
    let cycle = Resource::ALL; // wood, stone, clay, ore, glass, loom, papyrus
    for b in d.boards() {
        let n = b.number as usize;
        let coin_fleet = (b.wonder as usize + 1) % 4;
        for f in Fleet::ALL {
            for s in 1..=6usize {
                let first = (n - 1 + 2 * f as usize + s - 1) % 7;
                let expected = if s == 1 && f as usize == coin_fleet {
                    "1 coin".to_string()
                } else {
                    let r = cycle[first].letter();
                    match s {
                        1..=3 => r.to_string(),
                        4 => format!("{r}{r}"),
                        _ => {
                            let gap = if n <= 4 { 1 } else { 2 };
                            format!("{r}{}", cycle[(first + gap) % 7].letter())
                        }
                    }
                };
                let got = d.step_cost(b.id, f, s as u8).unwrap();
                assert_eq!(got, cost(&expected), "board {n} {f} step {s}");
                assert_eq!(d.step_cost_status(b.id, f, s as u8), Some(PROV));
            }
        }
    }
    // Two rows copied from the table: board 5 blue (wonder symbol) and board 8 red.
    let row = |b: u8, f: Fleet| -> Vec<String> {
        (1..=6).map(|s| d.step_cost(BoardId(b - 1), f, s).unwrap().to_string()).collect()
    };
    assert_eq!(row(5, Fleet::Blue), vec!["S", "C", "O", "GG", "WL", "SP"]);
    assert_eq!(row(8, Fleet::Red), vec!["1 coin", "S", "C", "OO", "GP", "WL"]);
    assert_eq!(d.step_cost(BoardId(0), Fleet::Red, 0), None);
    assert_eq!(d.step_cost(BoardId(0), Fleet::Red, 7), None);
    assert_eq!(d.next_step_cost(BoardId(0), Fleet::Red, 6), None, "no step above the top");
}

#[test]
fn wonder_fleets_of_10_1() {
    let wonders: Vec<Fleet> = data().boards().iter().map(|b| b.wonder).collect();
    use Fleet::*;
    assert_eq!(wonders, vec![Red, Red, Yellow, Yellow, Blue, Blue, Green, Green]);
    for b in data().boards() {
        assert_eq!((b.number_status, b.wonder_status), (PROV, PROV), "board {}", b.number);
    }
}

#[test]
fn cards_per_age_and_player_count() {
    // armada.md §2.2: Armada cards per Age = players (7 with 8 players); with 3 players the 5
    // two-neighbour cards are removed first; hands of 8 cards (7 with 8 players).
    let d = data();
    let removed: BTreeSet<&str> =
        d.cards().iter().filter(|c| c.removed_with_3).map(|c| c.zh.as_str()).collect();
    assert_eq!(removed, BTreeSet::from(["西部商區", "東部商區", "船塢", "碼頭", "防波堤"]));
    for players in 3u8..=8 {
        let dealt = dealt_per_age(players) as usize;
        assert_eq!(dealt, if players == 8 { 7 } else { players as usize });
        assert_eq!(hand_size(players), if players == 8 { 7 } else { 8 });
        for age in 1..=3u8 {
            let pool = d.age_pool(age, players);
            let expected = match (players, age) {
                (3, 1) | (3, 2) => 6, // Dock + East / Pier + West are out
                (3, 3) => 7,          // Breakwater is out
                _ => 8,
            };
            assert_eq!(pool.len(), expected, "{players} players, Age {age}");
            assert!(pool.len() >= dealt);
            assert!(pool.iter().all(|&c| d.card(c).age == age));
            if players == 3 {
                assert!(pool.iter().all(|&c| !d.card(c).removed_with_3));
            }
        }
    }
}

#[test]
fn the_24_cards_as_in_the_reference() {
    // armada.md §5 (age, colour, effect) and §10.4 (cost used), row by row.
    use ArmadaEffect as A;
    let sh = |n| A::Base(Effect::Shields(n));
    let vp = |n| A::Base(Effect::Points(n));
    let coins = |n| A::Base(Effect::Coins(n));
    let any = A::FreeMove(FleetChoice::Any);
    // (age, colour, Chinese, working English, cost, effects)
    type Row = (u8, Colour, &'static str, &'static str, &'static str, Vec<ArmadaEffect>);
    let rows: Vec<Row> = vec![
        (1, Colour::Red, "船塢", "Dock", "P", vec![sh(1), A::Incursion(Direction::Right)]),
        (2, Colour::Red, "碼頭", "Pier", "CGL", vec![sh(2), A::Incursion(Direction::Left)]),
        (3, Colour::Red, "防波堤", "Breakwater", "WLP", vec![sh(3), A::Incursion(Direction::Right)]),
        (1, Colour::Red, "沿海防線", "Coastal Defence Line", "G", vec![A::Naval(1)]),
        (2, Colour::Red, "軍港", "Naval Port", "CP", vec![A::Naval(2)]),
        (3, Colour::Red, "沿海防禦工事", "Coastal Fortifications", "SCG", vec![A::Naval(3)]),
        (1, Colour::Yellow, "海盜秘藏", "Pirate Hoard", "1 coin", vec![coins(3), A::Piracy]),
        (2, Colour::Yellow, "海盜巢穴", "Pirate Lair", "1 coin", vec![coins(6), A::Piracy]),
        (3, Colour::Yellow, "海盜兄弟會", "Pirate Brotherhood", "WG", vec![vp(4), A::Piracy]),
        (
            1,
            Colour::Yellow,
            "東部商區",
            "East Trading Zone",
            "L",
            vec![A::BuySecondNeighbour { side: Direction::Right, per_turn: 1 }],
        ),
        (
            2,
            Colour::Yellow,
            "西部商區",
            "West Trading Zone",
            "OP",
            vec![A::BuySecondNeighbour { side: Direction::Left, per_turn: 2 }],
        ),
        (3, Colour::Yellow, "海關", "Customs House", "SCO", vec![A::PointsPerTradeLevel(2)]),
        (1, Colour::Blue, "船廠", "Shipyard", "1 coin", vec![any]),
        (1, Colour::Blue, "建造廠", "Construction Yard", "1 coin", vec![any]),
        (2, Colour::Blue, "乾船塢", "Dry Dock", "OG", vec![any, vp(2)]),
        (2, Colour::Blue, "棚廠", "Boathouse", "WL", vec![any, vp(3)]),
        (3, Colour::Blue, "提督府", "Admiralty", "WSOL", vec![any, vp(4)]),
        (3, Colour::Blue, "海軍總部", "Naval Headquarters", "WSCP", vec![any, vp(5)]),
        (1, Colour::Green, "海員學院", "Seamen's Academy", "S", vec![A::TopIsland(1)]),
        (2, Colour::Green, "地圖資料室", "Map Room", "WC", vec![A::TopIsland(2)]),
        (3, Colour::Green, "海軍檔案室", "Naval Archives", "WOP", vec![A::TopIsland(3)]),
        (1, Colour::Green, "探險家辦事處", "Explorers' Office", "C", vec![A::ScienceMost]),
        (2, Colour::Green, "航海家協會", "Navigators' Guild", "SOG", vec![A::ScienceMost]),
        (3, Colour::Green, "船長俱樂部", "Captains' Club", "SCOL", vec![A::ScienceMost]),
    ];
    assert_eq!(rows.len(), 24);
    for (age, colour, zh, name, cost_text, effects) in rows {
        let by_zh = card(zh);
        assert_eq!(by_zh.name, name);
        assert_eq!(by_zh.id, data().find_card(name).unwrap(), "{name}: English and Chinese find it");
        assert_eq!((by_zh.age, by_zh.colour), (age, colour), "{name}");
        assert_eq!(Fleet::from_colour(colour), Some(by_zh.fleet));
        let want = cost(cost_text);
        assert_eq!((by_zh.coins, by_zh.cost), (want.coins, want.resources), "{name}");
        assert_eq!(by_zh.cost_text(), cost_text, "{name}");
        assert_eq!(by_zh.effects, effects, "{name}");
        assert!(by_zh.source.starts_with("armada.md"), "{name}");
    }
    // Aliases and the error for a misspelt name.
    assert_eq!(card("Wharf").zh, "碼頭");
    assert_eq!(card("chart archive").zh, "地圖資料室");
    let err = data().find_card("Dok").unwrap_err().to_string();
    assert_eq!(err, "unknown Armada card `Dok`; did you mean `Dock`?");
}

#[test]
fn incursion_directions_of_10_5() {
    let dir = |name: &str| -> (Direction, Status) {
        let c = card(name);
        let i = c.effects.iter().position(|e| matches!(e, ArmadaEffect::Incursion(_))).unwrap();
        let ArmadaEffect::Incursion(d) = c.effects[i] else { unreachable!() };
        (d, c.effect_status[i])
    };
    assert_eq!(dir("Dock"), (Direction::Right, HIGH));
    assert_eq!(dir("Pier"), (Direction::Left, HIGH));
    assert_eq!(dir("Breakwater"), (Direction::Right, PROV));
    // 000's team example: Paula sits left of Gabriel, Romeo left of Paula; Gabriel's Pier (Age II)
    // targets the 2nd player on his left, Romeo. Seats clockwise: Gabriel 0, Paula 1, Romeo 2.
    assert_eq!(Direction::Left.target(0, 6), 2);
    // The 2nd player on the right of seat 1 at 4 players is seat 3 (1 − 2 mod 4).
    assert_eq!(Direction::Right.target(1, 4), 3);
}

#[test]
fn ages_of_10_6_are_provisional_the_others_confirmed() {
    for (name, age) in [("East Trading Zone", 1), ("West Trading Zone", 2), ("Customs House", 3)] {
        assert_eq!((card(name).age, card(name).status.age), (age, PROV), "{name}");
    }
    for name in ["Dock", "Pirate Lair", "Naval Archives", "Captains' Club"] {
        assert_eq!(card(name).status.age, HIGH, "{name}");
    }
    // The blue cards' Ages and VP: "Age I: 0, 0; Age II: 2, 3; Age III: 4, 5 (medium)".
    for name in ["Shipyard", "Construction Yard", "Dry Dock", "Boathouse", "Admiralty", "Naval Headquarters"]
    {
        assert_eq!(card(name).status.age, MEDIUM, "{name}");
    }
    assert_eq!(card("Dry Dock").effect_status, vec![HIGH, MEDIUM]);
}

#[test]
fn the_27_islands_by_level() {
    // armada.md §6: 島 isle = level 1, 港 port = level 2, 群島 archipelago = level 3.
    let names = |level: u8| -> BTreeSet<&'static str> {
        data().islands_of_level(level).into_iter().map(|i| data().island(i).zh.as_str()).collect()
    };
    assert_eq!(
        names(1),
        BTreeSet::from([
            "荒島",
            "處女島",
            "青銅島",
            "微風島",
            "人煙之島",
            "黃玉島",
            "琥珀島",
            "失落之島",
            "迷霧島"
        ])
    );
    assert_eq!(
        names(2),
        BTreeSet::from([
            "廢棄港口",
            "黑鐵港",
            "風之港",
            "巨像港",
            "白瀾港",
            "遺忘港",
            "久遠港",
            "奇妙港",
            "海盜港"
        ])
    );
    assert_eq!(
        names(3),
        BTreeSet::from([
            "猩紅群島",
            "信風群島",
            "君主群島",
            "暴風雨群島",
            "彩虹群島",
            "奢靡群島",
            "黃金群島",
            "翡翠群島",
            "庇護群島"
        ])
    );
    use ArmadaEffect as A;
    // §10.7: the provisional resources and colours.
    let prod = |letters: &str| {
        A::Base(Effect::ProduceOneOf {
            choices: ResourceSet::from_letters(letters).unwrap(),
            sellable: false,
        })
    };
    assert_eq!(island("Wild Isle").effects, vec![prod("WO")]);
    assert_eq!(island("Virgin Isle").effects, vec![prod("SC")]);
    assert_eq!(island("Abandoned Port").effects, vec![prod("GLP")]);
    assert_eq!(island("Topaz Isle").effects, vec![A::FreeMove(FleetChoice::Only(Fleet::Yellow))]);
    assert_eq!(island("Amber Isle").effects, vec![A::FreeMove(FleetChoice::Only(Fleet::Blue))]);
    for name in ["Wild Isle", "Virgin Isle", "Abandoned Port", "Topaz Isle", "Amber Isle"] {
        assert_eq!(island(name).effect_status, vec![PROV], "{name}");
    }
    // §6: the rest, confirmed.
    assert_eq!(island("Bronze Isle").effects, vec![A::Base(Effect::Shields(1))]);
    assert_eq!(island("Port of Winds").effects, vec![A::Naval(2)]);
    assert_eq!(island("Sovereign Archipelago").effects, vec![A::Base(Effect::Points(7))]);
    assert_eq!(island("White-Surf Port").effects, vec![A::FreeMovesDistinct(2)]);
    assert_eq!(island("Tempest Archipelago").effects, vec![A::FreeMovesDistinct(3)]);
    assert_eq!(island("Pirate Port").effects, vec![A::Piracy, A::Base(Effect::Points(3))]);
    assert_eq!(island("Misty Isle").effects, vec![A::NoCoinLoss]);
    assert_eq!(island("Lost Isle").effects, vec![A::WonderNavalFree]);
    assert_eq!(island("Haven Archipelago").effects, vec![A::PointsPerIsland(2)]);
    assert_eq!(island("Rainbow Archipelago").effects, vec![A::PointsPerBestColour(1)]);
    assert_eq!(island("Luxury Archipelago").effects, vec![A::PointsPerTradeLevel(2)]);
    assert_eq!(island("Golden Archipelago").effects, vec![A::Base(Effect::ScienceWild)]);
    assert_eq!(island("Emerald Archipelago").effects, vec![A::ScienceMost]);
    assert_eq!(island("Forgotten Port").status.level, MEDIUM);
    assert_eq!(island("Bronze Isle").status.level, HIGH);
}

#[test]
fn every_provisional_value_is_flagged_and_no_confirmed_one() {
    let all = data().statuses();
    let provisional: Vec<&str> =
        all.iter().filter(|(_, s)| s.is_provisional()).map(|(l, _)| l.as_str()).collect();
    // Counted by hand from armada.md: boards 8 numbers + 8 wonder fleets (§10.1); 192 costs
    // (§10.3); track 5 red + 9 yellow + 5 blue + 5 green (§10.2); cards 24 names + 24 costs +
    // 3 ages (§10.6) + 1 direction (§10.5); islands 27 names + 5 effects (§10.7).
    assert_eq!(provisional.len(), 16 + 192 + 24 + 52 + 32);
    // Confirmed: track 1 red + 10 yellow + 2 blue + 1 green + the start space's trade level;
    // cards 24 colours + 24 Chinese names + 24 removal marks + 21 ages + 33 of 34 effects;
    // islands 27 levels + 27 Chinese names + 23 of 28 effects.
    assert_eq!(all.len() - provisional.len(), 15 + 126 + 77);
    // The provisional values that are neither a cost nor a working name, one by one.
    let mut rest: Vec<&str> = provisional
        .iter()
        .copied()
        .filter(|l| !l.ends_with(" cost") && !l.ends_with(" name") && !l.starts_with("board"))
        .collect();
    rest.sort();
    let mut want = vec![
        "track red step 1 naval",
        "track red step 2 naval",
        "track red step 4 naval",
        "track red step 5 naval",
        "track red step 6 naval",
        "track yellow step 1 coins",
        "track yellow step 1 tax",
        "track yellow step 3 coins",
        "track yellow step 3 tax",
        "track yellow step 5 trade",
        "track yellow step 5 coins",
        "track yellow step 5 tax",
        "track yellow step 6 trade",
        "track yellow step 6 coins",
        "track blue step 1 points",
        "track blue step 2 points",
        "track blue step 3 points",
        "track blue step 4 points",
        "track blue step 5 points",
        "track green step 1 explore",
        "track green step 3 explore",
        "track green step 4 explore",
        "track green step 5 explore",
        "track green step 6 explore",
        "card `East Trading Zone` age",
        "card `West Trading Zone` age",
        "card `Customs House` age",
        "card `Breakwater` effect 2",
        "island `Wild Isle` effect 1",
        "island `Virgin Isle` effect 1",
        "island `Abandoned Port` effect 1",
        "island `Topaz Isle` effect 1",
        "island `Amber Isle` effect 1",
    ];
    want.sort();
    assert_eq!(rest, want);
    // Every card and island has a provisional value (its working name, and for cards the cost),
    // and its Chinese name is confirmed.
    for c in data().cards() {
        assert!(
            c.provisional() && c.status.cost.is_provisional() && !c.status.zh.is_provisional(),
            "{}",
            c.name
        );
    }
    for i in data().islands() {
        assert!(
            i.provisional() && i.status.name.is_provisional() && !i.status.zh.is_provisional(),
            "{}",
            i.name
        );
    }
}

#[test]
fn a_replacement_file_changes_a_value() {
    // Someone reads board 1 and finds its first red step costs 1 stone: the replacement file
    // carries the new cost, confirmed, and the rest stays as it was.
    let old = r#"{ board = 1, fleet = "red",    steps = ["W", "S", "C", "OO", "GL", "LP"], status = { steps = "provisional" }"#;
    let new = r#"{ board = 1, fleet = "red",    steps = ["S", "S", "C", "OO", "GL", "LP"], status = { steps = ["confirmed high", "provisional", "provisional", "provisional", "provisional", "provisional"] }"#;
    assert!(TEXT.contains(old));
    let d = ArmadaData::from_toml(&TEXT.replace(old, new)).unwrap();
    assert_eq!(d.step_cost(BoardId(0), Fleet::Red, 1), Some(cost("S")));
    assert_eq!(d.step_cost_status(BoardId(0), Fleet::Red, 1), Some(HIGH));
    assert_eq!(d.step_cost_status(BoardId(0), Fleet::Red, 2), Some(PROV));
    assert_eq!(
        data().step_cost(BoardId(0), Fleet::Red, 1),
        Some(cost("W")),
        "the built-in data is untouched"
    );
    // A confirmed track value.
    let d = ArmadaData::from_toml(&TEXT.replace(
        r#"{ fleet = "blue", step = 5, points = 8, status = { points = "provisional" }"#,
        r#"{ fleet = "blue", step = 5, points = 7, status = { points = "confirmed medium" }"#,
    ))
    .unwrap();
    assert_eq!(d.track(Fleet::Blue, 5).unwrap().points, 7);
    assert_eq!(d.track_status(Fleet::Blue, 5, TrackValue::Points), Some(MEDIUM));
}

#[test]
fn malformed_and_unknown_entries_are_refused_by_name() {
    let refuse = |from: &str, to: &str, expected: &[&str]| {
        assert!(TEXT.contains(from), "the test's anchor `{from}` is in the file");
        let err = ArmadaData::from_toml(&TEXT.replacen(from, to, 1)).unwrap_err().to_string();
        for e in expected {
            assert!(err.contains(e), "`{err}` should name `{e}`");
        }
    };
    // Unknown field of a card.
    refuse("name = \"Dock\"", "name = \"Dock\"\nflavour = \"salty\"", &["flavour"]);
    // Unknown effect code.
    refuse(
        "effects = [\"SH1\", \"INCURSION:RIGHT\"]",
        "effects = [\"SH1\", \"INCURSION:UP\"]",
        &["card `Dock`", "INCURSION:UP"],
    );
    // Unknown fleet of a cost row.
    refuse(
        "{ board = 1, fleet = \"red\", ",
        "{ board = 1, fleet = \"purple\", ",
        &["board 1, purple fleet", "unknown fleet `purple`"],
    );
    // Bad cost.
    refuse(
        "steps = [\"W\", \"S\", \"C\", \"OO\", \"GL\", \"LP\"]",
        "steps = [\"X\", \"S\", \"C\", \"OO\", \"GL\", \"LP\"]",
        &["board 1, red fleet", "bad cost `X`"],
    );
    // Wrong number of steps.
    refuse(
        "steps = [\"W\", \"S\", \"C\", \"OO\", \"GL\", \"LP\"]",
        "steps = [\"W\", \"S\"]",
        &["board 1, red fleet", "2 step costs"],
    );
    // A value without a status.
    refuse(
        "status = { age = \"confirmed high\", colour = \"confirmed high\", zh = \"confirmed high\", name = \"provisional\", cost = \"provisional\", effects = \"confirmed high\", removed_with_3 = \"confirmed high\" }\nsource = \"armada.md §5 (age, effect, 3p), §10.4 (cost), §10.5 (direction: 000 FAQ example)\"",
        "status = { age = \"confirmed high\", colour = \"confirmed high\", zh = \"confirmed high\", name = \"provisional\", effects = \"confirmed high\", removed_with_3 = \"confirmed high\" }\nsource = \"x\"",
        &["card `Dock`", "no status for `cost`"],
    );
    // A status for a value the entry does not have.
    refuse(
        "status = { naval = \"confirmed high\" }",
        "status = { naval = \"confirmed high\", trade = \"provisional\" }",
        &["track red step 3", "unknown value `trade`"],
    );
    // A status that is neither provisional nor confirmed with a confidence.
    refuse(
        "{ number = 1, wonder = \"red\",    status = { number = \"provisional\"",
        "{ number = 1, wonder = \"red\",    status = { number = \"confirmed\"",
        &["board 1", "status `confirmed` of `number`"],
    );
    // Per-item statuses of the wrong length.
    refuse(
        "effects = [\"confirmed high\", \"provisional\"]",
        "effects = [\"confirmed high\"]",
        &["card `Breakwater`", "2 items but 1 statuses"],
    );
    // A board defined twice, and so board 2 missing.
    refuse("{ number = 2, wonder = \"red\"", "{ number = 1, wonder = \"red\"", &["board 1", "defined twice"]);
    // A track step defined twice, and a missing one.
    refuse(
        "{ fleet = \"green\", step = 6, explore = 3,",
        "{ fleet = \"green\", step = 5, explore = 3,",
        &["track green step 5", "defined twice"],
    );
    refuse(
        "  { fleet = \"green\", step = 6, explore = 3, status = { explore = \"provisional\" }, source = \"armada.md §4 (POEP: three explorations), §10.2\" },\n",
        "",
        &["track green step 6", "missing"],
    );
    // A board without its costs.
    refuse(
        "  { board = 8, fleet = \"green\", ",
        "  # { board = 8, fleet = \"green\", ",
        &["board 8", "no costs for the green fleet"],
    );
    // A card of a colour no fleet has.
    refuse(
        "colour = \"green\"\nzh = \"船長俱樂部\"",
        "colour = \"purple\"\nzh = \"船長俱樂部\"",
        &["card `Captains' Club`", "red, yellow, blue or green"],
    );
    // A ninth card in Age I.
    refuse(
        "age = 3\ncolour = \"green\"\nzh = \"船長俱樂部\"",
        "age = 1\ncolour = \"green\"\nzh = \"船長俱樂部\"",
        &["Age 1 has 9 cards"],
    );
    // A name used twice.
    refuse("name = \"Naval Port\"", "name = \"Dock\"", &["the name `Dock` is used twice"]);
    // An island level that does not exist.
    refuse(
        "level = 3\nzh = \"庇護群島\"",
        "level = 4\nzh = \"庇護群島\"",
        &["island `Haven Archipelago`", "level 4"],
    );
    // Not TOML at all.
    let err = ArmadaData::from_toml("boards = [").unwrap_err().to_string();
    assert!(err.starts_with("armada data: "), "{err}");
}

#[test]
fn shipyard_values_from_the_rulebooks_examples() {
    let d = data();
    // 000 紅色艦隊: Gabriel's red ship on step 3 (3 naval) and an island with 2 naval: 5.
    let mut gabriel = Shipyard::new(BoardId(5));
    gabriel.steps[Fleet::Red as usize] = 3;
    let port = island("Port of Winds");
    let island_naval: u8 =
        port.effects.iter().map(|e| if let ArmadaEffect::Naval(n) = e { *n } else { 0 }).sum();
    assert_eq!(gabriel.naval(d) + island_naval, 5);
    // 000 黃色艦隊: Paula's yellow on step 2 levies a tax of 1: Art (step 1, trade 1) loses 0,
    // Romeo (start space, trade 0) loses 1.
    let at = |s: u8| {
        let mut y = Shipyard::new(BoardId(0));
        y.steps[Fleet::Yellow as usize] = s;
        y
    };
    let tax = d.track(Fleet::Yellow, 2).unwrap().tax;
    assert_eq!(tax.saturating_sub(at(1).trade_level(d)), 0);
    assert_eq!(tax.saturating_sub(at(0).trade_level(d)), 1);
    // Second example: Paula on the top step (+2 naval, tax 4) and Art on step 4 (+4 coins, tax 2):
    // only the tax of 4 applies; Art loses 4 − 2 = 2, Romeo 4.
    let (paula, art) = (d.track(Fleet::Yellow, 6).unwrap(), d.track(Fleet::Yellow, 4).unwrap());
    assert_eq!(at(6).naval(d), 2);
    let levied = paula.tax.max(art.tax);
    assert_eq!(levied, 4);
    assert_eq!(levied.saturating_sub(at(4).trade_level(d)), 2);
    assert_eq!(levied.saturating_sub(at(0).trade_level(d)), 4);
    // 000 海盜: Gabriel's yellow on step 3 loses 2 to a pirate; Paula on the start space 0.
    assert_eq!((at(3).trade_level(d), at(0).trade_level(d)), (2, 0));
    // 000 藍色艦隊: Romeo's blue ship on the top step: 10 VP and +1 naval strength.
    let mut romeo = Shipyard::new(BoardId(2));
    romeo.steps[Fleet::Blue as usize] = 6;
    assert_eq!((romeo.points(d), romeo.naval(d)), (10, 1));
    assert!(!romeo.can_advance(Fleet::Blue) && romeo.can_advance(Fleet::Red));
    // §10.2: strength = red value + 2 (yellow on 6) + 1 (blue on 6).
    let full = Shipyard { board: BoardId(7), steps: [4, 6, 6, 0] };
    assert_eq!(full.naval(d), 4 + 2 + 1);
}

#[test]
fn naval_tokens_of_2_5() {
    let rows: Vec<(i8, i8, i8, i8)> = (1..=3)
        .map(|a| {
            let t = naval_tokens(a);
            (t.weakest, t.first, t.second, t.third)
        })
        .collect();
    assert_eq!(rows, vec![(-1, 3, 1, 0), (-2, 5, 3, 0), (-3, 7, 5, 3)]);
}

#[test]
fn effects_have_english_and_chinese_text() {
    for c in data().cards() {
        for e in &c.effects {
            assert!(!e.to_string().is_empty() && !e.text_zh().is_ascii(), "{}: {e:?}", c.name);
            assert!(!e.is_track_only());
        }
    }
    for i in data().islands() {
        assert!(!i.effect_text().is_empty(), "{}", i.name);
    }
    let y4: Vec<String> =
        data().track(Fleet::Yellow, 4).unwrap().effects().iter().map(|e| e.to_string()).collect();
    assert_eq!(y4, vec!["trade level 2", "4 coins", "tax 2"]);
    assert_eq!(card("Pier").effect_text(), "2 shields, incursion against the 2nd player on your left");
    assert_eq!(island("Misty Isle").effects[0].text_zh(), "不因賦稅或海盜失去錢幣");
}

#[test]
fn armada_cards_fit_beside_either_base_catalog() {
    // The design (module docs, Setup): the 24 Armada cards join the base catalog, so the ids and
    // distinct names must fit CardSet (256) and NameSet (128), and no name may already mean a
    // base card (a table file names cards in English or Chinese).
    use wonders_core::{Catalog, Edition};
    for edition in [Edition::First, Edition::Second] {
        let base = Catalog::get(edition);
        assert!(base.cards.len() + data().cards().len() <= 256, "{edition}");
        assert!(base.names.len() + data().cards().len() <= 128, "{edition}");
        for c in data().cards() {
            for n in [&c.name, &c.zh].into_iter().chain(&c.aliases) {
                assert!(base.find_card(n).is_err(), "{edition}: `{n}` is a base card's name");
            }
        }
    }
}

#[test]
fn every_card_and_island_has_its_effect_in_chinese() {
    // The Chinese page shows these (effect texts in the terms of 000, armada.md §6).
    assert_eq!(card("Dry Dock").effect_text_zh(), "免費移動任意一艘船隻一格，2分");
    assert_eq!(island("Misty Isle").effect_text_zh(), "不因賦稅或海盜失去錢幣");
    assert_eq!(island("Breeze Isle").effect_text_zh(), "1個海軍標識");
    let latin = |s: &str| s.chars().any(|c| c.is_ascii_alphabetic());
    for c in data().cards() {
        let zh = c.effect_text_zh();
        assert!(!zh.is_empty() && !latin(&zh), "{}: {zh}", c.name);
    }
    for i in data().islands() {
        let zh = i.effect_text_zh();
        assert!(!zh.is_empty() && !latin(&zh), "{}: {zh}", i.name);
    }
}
