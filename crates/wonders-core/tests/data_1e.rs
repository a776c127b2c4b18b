//! Checks of the 1st-edition data against the rulebook (002) and base-1e.md.

use std::collections::HashSet;
use wonders_core::{Catalog, Colour, Edition, Effect, Resource, Side};

fn cat() -> &'static Catalog {
    Catalog::get(Edition::First)
}

#[test]
fn box_holds_148_cards_49_49_50() {
    // 002 配件: 49 Age I, 49 Age II, 50 Age III cards (Age III: 40 + 10 guilds).
    let c = cat();
    let per_age = |age: u8| -> usize {
        c.cards.iter().filter(|d| d.age == age).map(|d| if d.is_guild() { 1 } else { d.copies.len() }).sum()
    };
    assert_eq!((per_age(1), per_age(2), per_age(3)), (49, 49, 50));
    assert_eq!(c.cards.len(), 78, "78 distinct cards (base-1e.md §1)");
    assert_eq!(c.guilds().len(), 10);
    let distinct: Vec<usize> = (1..=3).map(|a| c.cards.iter().filter(|d| d.age == a).count()).collect();
    assert_eq!(distinct, vec![27, 23, 28]);
}

#[test]
fn seven_cards_per_player_per_age() {
    // 002 遊戲準備: "每個時代開始時，卡牌數量都應該是固定的 (每個玩家7張)"; players + 2 guilds.
    let c = cat();
    for n in 3u8..=7 {
        assert_eq!(c.age_cards(1, n).len(), 7 * n as usize, "Age I, {n} players");
        assert_eq!(c.age_cards(2, n).len(), 7 * n as usize, "Age II, {n} players");
        assert_eq!(c.age_cards(3, n).len() + n as usize + 2, 7 * n as usize, "Age III, {n} players");
    }
}

#[test]
fn colour_counts_per_player_count_match_the_reference() {
    // base-1e.md §1.4, Age I rows: brown 6/9/12/14/14, grey 3/3/3/6/6, blue 3/4/5/6/8.
    let c = cat();
    let count = |age: u8, n: u8, colour: Colour| {
        c.age_cards(age, n).iter().filter(|&&id| c.card(id).colour == colour).count()
    };
    let brown: Vec<usize> = (3..=7).map(|n| count(1, n, Colour::Brown)).collect();
    assert_eq!(brown, vec![6, 9, 12, 14, 14]);
    let grey: Vec<usize> = (3..=7).map(|n| count(1, n, Colour::Grey)).collect();
    assert_eq!(grey, vec![3, 3, 3, 6, 6]);
    let blue3: Vec<usize> = (3..=7).map(|n| count(3, n, Colour::Blue)).collect();
    assert_eq!(blue3, vec![5, 6, 8, 10, 11]);
    let green2: Vec<usize> = (3..=7).map(|n| count(2, n, Colour::Green)).collect();
    assert_eq!(green2, vec![4, 5, 6, 7, 8]);
}

#[test]
fn chains_point_at_real_cards_of_the_previous_age() {
    // base-1e.md §4.2: every parent sits in the immediately preceding Age.
    let c = cat();
    let mut edges = 0;
    for card in &c.cards {
        for parent in &card.chain_from {
            let p = c.cards.iter().find(|d| &d.name == parent).expect("parent exists");
            assert_eq!(p.age + 1, card.age, "{parent} -> {}", card.name);
            edges += 1;
        }
    }
    // base-1e.md §1.4 chain graph: 12 edges Age I → II (both trading posts → Forum) and 14 Age II → III.
    assert_eq!(edges, 26);
    let library = c.find_card_in_age("Library", 2).unwrap();
    assert_eq!(c.card(library).chain_from, vec!["Scriptorium".to_string()]);
    let arena = c.find_card_in_age("Arena", 3).unwrap();
    assert_eq!(c.card(arena).chain_from, vec!["Dispensary".to_string()], "base-1e.md §3 item 13");
}

#[test]
fn every_card_has_both_names_and_a_source() {
    let c = cat();
    let mut zh = HashSet::new();
    for card in &c.cards {
        assert!(!card.zh.is_empty() && !card.zh.is_ascii(), "{}", card.name);
        assert!(card.source.starts_with("base-1e.md"), "{}", card.name);
        assert!(!card.effects.is_empty(), "{}", card.name);
        assert!(!card.effect_text_zh().is_ascii(), "{}: a Chinese description", card.name);
        zh.insert((card.age, card.zh.clone()));
        // Found back by both names.
        assert_eq!(c.card(c.find_card(&card.zh).unwrap()).name, card.name);
        assert_eq!(c.card(c.find_card(&card.name.to_uppercase()).unwrap()).name, card.name);
    }
    // The rulebook's own spellings are accepted too (base-1e.md §3 item 12).
    assert_eq!(c.card(c.find_card("容棧").unwrap()).name, "Tavern");
    assert_eq!(c.card(c.find_card("雜貨鋪").unwrap()).name, "Bazar");
    assert_eq!(c.card(c.find_card("采石場").unwrap()).name, "Stone Pit");
    assert_eq!(c.card(c.find_card("採石場").unwrap()).name, "Stone Pit");
}

#[test]
fn spot_check_costs_from_the_rulebook_examples() {
    // base-1e.md §0: every example cost of 002 and EN agrees with the data.
    let c = cat();
    let cost = |name: &str, age: u8| {
        let d = c.card(c.find_card_in_age(name, age).unwrap());
        (d.coins, d.cost.to_string())
    };
    assert_eq!(cost("Mine", 1), (1, "-".into()));
    assert_eq!(cost("Timber Yard", 1), (1, "-".into()));
    assert_eq!(cost("Baths", 1), (0, "S".into()));
    assert_eq!(cost("Arena", 3), (0, "SSO".into()));
    assert_eq!(cost("Stables", 2), (0, "WCO".into()));
    assert_eq!(cost("Aqueduct", 2), (0, "SSS".into()));
    assert_eq!(cost("University", 3), (0, "WWGP".into()));
    assert_eq!(cost("Library", 2), (0, "SSL".into()));
    assert_eq!(cost("Forum", 2), (0, "CC".into()));
    // base-1e.md §3 verdicts against the 003 article.
    assert_eq!(cost("Siege Workshop", 3), (0, "WCCC".into()));
    assert_eq!(cost("Builders Guild", 3), (0, "SSCCG".into()));
}

#[test]
fn only_brown_and_grey_cards_produce_for_sale() {
    let c = cat();
    for card in &c.cards {
        for e in &card.effects {
            match e {
                Effect::Produce(_) => assert!(matches!(card.colour, Colour::Brown | Colour::Grey)),
                Effect::ProduceOneOf { sellable, .. } => {
                    assert_eq!(*sellable, card.colour == Colour::Brown, "{}", card.name)
                }
                _ => {}
            }
        }
    }
}

#[test]
fn wonders_have_the_printed_stage_counts() {
    // 002 / base-1e.md §2: side A has 3 stages; side B 3, except Giza (4) and Rhodes (2).
    let c = cat();
    let mut starts = Vec::new();
    for w in &c.wonders {
        assert_eq!(w.stages(Side::A).len(), 3, "{}", w.name);
        let b = match w.name.as_str() {
            "Giza" => 4,
            "Rhodes" => 2,
            _ => 3,
        };
        assert_eq!(w.stages(Side::B).len(), b, "{}", w.name);
        starts.push((w.name.as_str(), w.start));
    }
    assert!(starts.contains(&("Rhodes", Resource::Ore)));
    assert!(starts.contains(&("Alexandria", Resource::Glass)));
    assert!(starts.contains(&("Ephesos", Resource::Papyrus)));
    assert!(starts.contains(&("Babylon", Resource::Clay)));
    assert!(starts.contains(&("Olympia", Resource::Wood)));
    assert!(starts.contains(&("Halicarnassus", Resource::Loom)));
    assert!(starts.contains(&("Giza", Resource::Stone)));
    // Side A: stage 1 gives 3 VP and stage 3 gives 7 VP on every board (002 [A]面).
    for w in &c.wonders {
        let a = w.stages(Side::A);
        assert!(a[0].effects.contains(&Effect::Points(3)), "{}", w.name);
        assert!(a[2].effects.contains(&Effect::Points(7)), "{}", w.name);
    }
    let giza_b: u32 = c
        .wonder(c.find_wonder("Giza").unwrap())
        .stages(Side::B)
        .iter()
        .flat_map(|s| &s.effects)
        .map(|e| if let Effect::Points(p) = e { *p as u32 } else { 0 })
        .sum();
    assert_eq!(giza_b, 20, "002: Giza B gives 3, 5, 5, 7 = 20");
    assert!(c.find_wonder("金字塔").unwrap_err().suggestion.is_some());
    assert_eq!(c.wonder(c.find_wonder("古薩金字塔").unwrap()).name, "Giza");
    let haven = c.card(c.find_card("Haven").unwrap());
    assert_eq!(haven.effect_text_zh(), "自己每個棕色卡牌：立即1元，結束時1分");
}

#[test]
fn replacement_data_is_read_without_recompiling() {
    // A data file can replace a value: here Tavern gives 6 coins instead of 5.
    let text = include_str!("../data/base-1e.toml").replace(
        r#"name = "Tavern", zh = "客棧", aliases = ["容棧"], colour = "yellow", effects = ["COIN5"]"#,
        r#"name = "Tavern", zh = "客棧", aliases = ["容棧"], colour = "yellow", effects = ["COIN6"]"#,
    );
    let c = Catalog::from_toml(&text).unwrap();
    assert_eq!(c.card(c.find_card("Tavern").unwrap()).effects, vec![Effect::Coins(6)]);
    // And a broken file is refused with a message naming the problem.
    let bad =
        include_str!("../data/base-1e.toml").replace(r#"chain_from = ["Baths"]"#, r#"chain_from = ["Bath"]"#);
    let err = Catalog::from_toml(&bad).unwrap_err().to_string();
    assert!(err.contains("Aqueduct") && err.contains("Bath"), "{err}");
}
