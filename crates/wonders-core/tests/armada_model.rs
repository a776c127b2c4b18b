//! The Armada model layer: the Armada cards in the catalog, the per-city Armada state, and the
//! scoring and table format with Armada. Values are worked out by hand from
//! shared/reference/armada.md (§N below).

use wonders_core::armada::{ArmadaCardId, ArmadaCity, ArmadaData, BoardId, Fleet};
use wonders_core::score::{score_all_with, score_city, score_city_with};
use wonders_core::{CardId, Catalog, City, Colour, Edition, Effect, Score, Side, WonderId};

fn armada(edition: Edition) -> &'static Catalog {
    Catalog::with_builtin_armada(edition, false)
}

#[test]
fn armada_cards_join_the_catalog_after_the_base_cards() {
    for edition in [Edition::First, Edition::Second] {
        let base = Catalog::get(edition);
        let cat = armada(edition);
        let n = base.cards.len();
        assert_eq!(cat.cards.len(), n + 24, "{edition}");
        assert_eq!(cat.armada_first() as usize, n);
        // The edition's own cards keep their ids and names.
        for (a, b) in base.cards.iter().zip(&cat.cards) {
            assert_eq!((a.id, &a.name, a.name_id), (b.id, &b.name, b.name_id));
        }
        let data = cat.armada.as_deref().unwrap();
        for (i, def) in data.cards().iter().enumerate() {
            let id = CardId((n + i) as u8);
            assert_eq!(cat.armada_card(id), Some(ArmadaCardId(i as u8)));
            assert_eq!(cat.card_of_armada(ArmadaCardId(i as u8)), Some(id));
            let card = cat.card(id);
            assert_eq!(
                (&card.name, &card.zh, card.age, card.colour),
                (&def.name, &def.zh, def.age, def.colour)
            );
            // Every card name fits a NameSet (128 names).
            assert!((card.name_id.0 as usize) < 128 && (card.name_id.0 as usize) == cat.names.len() - 24 + i);
            assert!(card.copies.is_empty() && card.chain_from.is_empty());
            // Every cost of §10.4 is provisional.
            assert!(card.provisional, "{}", card.name);
        }
        assert_eq!(cat.card_of_armada(ArmadaCardId(24)), None);
        // No base card is an Armada card, and a catalog without Armada has none.
        assert!(
            base.cards.iter().all(|c| cat.armada_card(c.id).is_none() && base.armada_card(c.id).is_none())
        );
        assert!(base.armada.is_none() && base.card_of_armada(ArmadaCardId(0)).is_none());
    }
}

#[test]
fn armada_cards_carry_their_base_effects() {
    let cat = armada(Edition::First);
    let effects = |name: &str| cat.card(cat.find_card(name).unwrap()).effects.clone();
    // 000 / armada.md §5: Dock 1 land shield (+ incursion), Pier 2, Breakwater 3; Pirate Hoard
    // 3 coins, Pirate Lair 6 (+ piracy), Pirate Brotherhood 4 VP; Dry Dock 2 VP, Boathouse 3,
    // Admiralty 4, Naval Headquarters 5 (+ a free move); naval-only cards have no base effect.
    assert_eq!(effects("Dock"), vec![Effect::Shields(1)]);
    assert_eq!(effects("Pier"), vec![Effect::Shields(2)]);
    assert_eq!(effects("Breakwater"), vec![Effect::Shields(3)]);
    assert_eq!(effects("Pirate Hoard"), vec![Effect::Coins(3)]);
    assert_eq!(effects("Pirate Lair"), vec![Effect::Coins(6)]);
    assert_eq!(effects("Pirate Brotherhood"), vec![Effect::Points(4)]);
    assert_eq!(effects("Shipyard"), vec![]);
    assert_eq!(effects("Dry Dock"), vec![Effect::Points(2)]);
    assert_eq!(effects("Boathouse"), vec![Effect::Points(3)]);
    assert_eq!(effects("Admiralty"), vec![Effect::Points(4)]);
    assert_eq!(effects("Naval Headquarters"), vec![Effect::Points(5)]);
    assert_eq!(effects("Coastal Defence Line"), vec![]);
    // Costs of §10.4: Dock 1 papyrus, Admiralty WSOL, the Age I blue cards 1 coin.
    let dock = cat.card(cat.find_card("Dock").unwrap());
    assert_eq!((dock.cost_text().as_str(), dock.colour, dock.age), ("P", Colour::Red, 1));
    assert_eq!(cat.card(cat.find_card("Admiralty").unwrap()).cost_text(), "WSOL");
    assert_eq!(cat.card(cat.find_card("Shipyard").unwrap()).cost_text(), "1 coin");
}

#[test]
fn armada_cards_are_found_by_english_chinese_and_alias_names() {
    let cat = armada(Edition::Second);
    let pier = cat.find_card("Pier").unwrap();
    assert_eq!(cat.find_card("碼頭"), Ok(pier));
    assert_eq!(cat.find_card("wharf"), Ok(pier));
    assert_eq!(cat.find_card("海關").map(|c| cat.card(c).name.as_str()), Ok("Customs House"));
    let err = cat.find_card("Custom House").unwrap_err().to_string();
    assert!(err.contains("did you mean `Customs House`"), "{err}");
    // Base names still find base cards; a base catalog knows no Armada card.
    assert!(cat.armada_card(cat.find_card("Lumber Yard").unwrap()).is_none());
    assert!(Catalog::get(Edition::Second).find_card("Pier").is_err());
}

#[test]
fn armada_cards_are_never_dealt_as_base_cards() {
    let cat = Catalog::with_builtin_armada(Edition::First, true);
    assert!(cat.edifice.is_some() && cat.armada.is_some());
    for players in 3..=7u8 {
        for age in 1..=3 {
            let deck = cat.age_cards(age, players);
            assert_eq!(deck, Catalog::get(Edition::First).age_cards(age, players), "Age {age}, {players}p");
        }
    }
    assert!(cat.guilds().iter().all(|&g| cat.armada_card(g).is_none()));
    // The pool a game draws from (§2.2): 8 per Age; with 3 players Dock and East Trading Zone
    // (Age I), Pier and West Trading Zone (Age II), Breakwater (Age III) are out.
    let names = |age, p| -> Vec<String> {
        cat.armada_age_pool(age, p).into_iter().map(|c| cat.card(c).name.clone()).collect()
    };
    assert_eq!(names(1, 4).len(), 8);
    let three = names(1, 3);
    assert_eq!(three.len(), 6);
    assert!(!three.contains(&"Dock".to_string()) && !three.contains(&"East Trading Zone".to_string()));
    assert_eq!(names(2, 3).len(), 6);
    assert_eq!(names(3, 3).len(), 7);
    assert!(cat.armada_age_pool(1, 3).iter().all(|&c| cat.card(c).age == 1));
    assert!(Catalog::get(Edition::First).armada_age_pool(1, 4).is_empty());
}

#[test]
fn a_replacement_armada_file_replaces_the_cards() {
    let text = include_str!("../data/armada.toml").replacen(
        "name = \"Dock\"\ncost = \"P\"",
        "name = \"Dock\"\ncost = \"PP\"",
        1,
    );
    assert_ne!(text, include_str!("../data/armada.toml"), "the replacement applies");
    let data = ArmadaData::from_toml(&text).unwrap();
    let cat = Catalog::get(Edition::First).with_armada(&data).unwrap();
    assert_eq!(cat.card(cat.find_card("Dock").unwrap()).cost_text(), "PP");
    // Replacing the data of a catalog that already has Armada replaces its cards.
    let again = cat.with_armada(ArmadaData::builtin()).unwrap();
    assert_eq!(again.cards.len(), 78 + 24);
    assert_eq!(again.names.len(), cat.names.len());
    assert_eq!(again.card(again.find_card("Dock").unwrap()).cost_text(), "P");
}

#[test]
fn an_armada_name_already_used_by_the_edition_is_refused() {
    let text =
        include_str!("../data/armada.toml").replacen("aliases = [\"Wharf\"]", "aliases = [\"Loom\"]", 1);
    let data = ArmadaData::from_toml(&text).unwrap();
    let err = Catalog::get(Edition::First).with_armada(&data).unwrap_err().to_string();
    assert!(err.contains("Pier") && err.contains("`Loom` is already the card `Loom`"), "{err}");
}

/// Three cities on the Armada catalog; seat 0 is the one scored.
fn scoring_table() -> (&'static Catalog, Vec<City>, Vec<ArmadaCity>) {
    let cat = armada(Edition::First);
    let data = cat.armada.as_deref().unwrap();
    let mut cities: Vec<City> = (0..3).map(|w| City::new(cat, WonderId(w), Side::A)).collect();
    let mut fleets: Vec<ArmadaCity> = (0..3).map(|b| ArmadaCity::new(BoardId(b))).collect();
    let place = |city: &mut City, fleet: &mut ArmadaCity, name: &str| {
        let id = cat.find_card(name).unwrap();
        city.place(cat, id);
        if let Some(a) = cat.armada_card(id) {
            fleet.add_card(a);
        }
    };
    // Workers Guild: 1 VP per brown card of both neighbours; they have 6 each = 12 VP.
    let browns = ["Lumber Yard", "Stone Pit", "Clay Pool", "Ore Vein", "Tree Farm", "Excavation"];
    for seat in [1, 2] {
        let (c, f) = (&mut cities[seat], &mut fleets[seat]);
        for b in browns {
            place(c, f, b);
        }
    }
    let (c, f) = (&mut cities[0], &mut fleets[0]);
    for name in ["Workers Guild", "Customs House", "Apothecary", "Workshop", "Explorers' Office"] {
        place(c, f, name);
    }
    for island in ["Haven Archipelago", "Rainbow Archipelago", "Inhabited Isle", "Luxury Archipelago"] {
        f.gain_island(data, data.find_island(island).unwrap(), c);
    }
    f.shipyard.steps[Fleet::Yellow as usize] = 4; // trade level 2 (§4, confirmed)
    f.shipyard.steps[Fleet::Blue as usize] = 6; // 10 VP (§4, confirmed)
    f.naval = [3, -2, 5];
    (cat, cities, fleets)
}

#[test]
fn scoring_with_armada() {
    let (cat, cities, fleets) = scoring_table();
    let s = score_city_with(cat, &cities, Some(&fleets), 0);
    // Guild capped at 10 (§2.4), though it counts 12.
    assert_eq!(s.guilds, 10);
    // Customs House: 2 VP per trade level, 2 → 4, commercial (its colour).
    assert_eq!(s.commercial, 4);
    // Science: compass 1, gear 1; Explorers' Office adds one to a family with the most
    // (1/1 tied) → 2/1/0 = 4 + 1 = 5.
    assert_eq!(s.science, 5);
    // Islands: Haven 2 × 4 islands = 8; Rainbow, best colour green (Apothecary, Workshop,
    // Explorers' Office) 3 × 1 = 3; Inhabited Isle 3; Luxury 2 × trade 2 = 4. 18 in all.
    assert_eq!(s.islands, 18);
    assert_eq!(s.fleet, 10);
    assert_eq!(s.naval, 6); // 3 − 2 + 5
    assert_eq!((s.military, s.treasury, s.wonder, s.civilian, s.edifice), (0, 0, 0, 0, 0));
    assert_eq!(s.total, 10 + 4 + 5 + 18 + 10 + 6);
    // The same cities scored without their Armada state: the base rules only.
    let plain = score_city(cat, &cities, 0);
    assert_eq!((plain.guilds, plain.commercial, plain.science), (12, 0, 2));
    assert_eq!((plain.naval, plain.fleet, plain.islands), (0, 0, 0));
    assert_eq!(score_all_with(cat, &cities, Some(&fleets))[0], s);
}

#[test]
fn scoring_a_golden_archipelago_wild_and_a_most_symbol() {
    let (cat, mut cities, mut fleets) = scoring_table();
    let data = cat.armada.as_deref().unwrap();
    // Golden Archipelago: 1 wild science symbol; Emerald Archipelago: 1 more "most". With
    // compass 1, gear 1: best is wild → tablet (1/1/1), then two "most" on one family (3/1/1
    // = 9 + 1 + 1 + 7 = 18), or 2/2/1 = 4 + 4 + 1 + 7 = 16: 18.
    fleets[0].gain_island(data, data.find_island("Golden Archipelago").unwrap(), &mut cities[0]);
    fleets[0].gain_island(data, data.find_island("Emerald Archipelago").unwrap(), &mut cities[0]);
    assert_eq!(cities[0].science_wild, 1);
    let s = score_city_with(cat, &cities, Some(&fleets), 0);
    assert_eq!(s.science, 18);
    // Haven now counts 6 islands: 12; Rainbow 3, Inhabited 3, Luxury 4.
    assert_eq!(s.islands, 12 + 3 + 3 + 4);
}

#[test]
fn score_json_skips_armada_categories_when_zero() {
    let (cat, cities, fleets) = scoring_table();
    let plain = score_city(cat, &cities, 1);
    let text = serde_json::to_string(&plain).unwrap();
    assert!(!text.contains("naval") && !text.contains("fleet") && !text.contains("islands"), "{text}");
    let s = score_city_with(cat, &cities, Some(&fleets), 0);
    let back: Score = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!(back, s);
    // A base record's score line still reads.
    let old: Score = serde_json::from_str(
        r#"{"military":1,"treasury":2,"wonder":3,"civilian":4,"science":5,"commercial":6,"guilds":7,"total":28}"#,
    )
    .unwrap();
    assert_eq!((old.naval, old.fleet, old.islands, old.sum()), (0, 0, 0, 28));
}

mod table_format {
    use serde_json::{Value, json};
    use wonders_core::table::{CostOption, Table, Target};

    fn player(name: &str, wonder: &str, board: u8) -> Value {
        json!({"name": name, "wonder": wonder, "side": "A",
               "shipyard": {"board": board}})
    }

    fn table(players: Vec<Value>) -> Value {
        json!({"expansions": ["armada"], "players": players})
    }

    fn read(v: &Value) -> Result<Table, String> {
        Table::from_json(&v.to_string()).map_err(|e| e.to_string())
    }

    #[test]
    fn an_armada_table_scores_the_three_categories() {
        let mut ann = player("Ann", "Giza", 3);
        ann["shipyard"] = json!({"board": 3, "red": 2, "yellow": 4, "blue": 6, "green": 2});
        ann["islands"] = json!(["Inhabited Isle", "庇護群島"]);
        ann["naval"] = json!([3, -2, 5]);
        ann["cards"] = json!(["Customs House", "海軍總部"]);
        let t = read(&table(vec![ann, player("Bob", "Rhodes", 1), player("Cy", "Babylon", 2)])).unwrap();
        let s = t.scores()[0];
        assert_eq!(s.naval, 6);
        assert_eq!(s.fleet, 10, "blue on step 6");
        // Inhabited Isle 3 + Haven 2 × 2 islands.
        assert_eq!(s.islands, 7);
        // Customs House 2 × trade level 2 (yellow step 4); Naval Headquarters 5 VP, civilian.
        assert_eq!((s.commercial, s.civilian), (4, 5));
        assert_eq!(t.armada().unwrap()[0].shipyard.steps, [2, 4, 6, 2]);
        // Bob and Cy have nothing yet: 0 in the three categories.
        assert_eq!((t.scores()[1].naval, t.scores()[1].fleet, t.scores()[1].islands), (0, 0, 0));
    }

    #[test]
    fn bad_armada_tables_are_refused_with_the_reason() {
        let ok = || vec![player("Ann", "Giza", 1), player("Bob", "Rhodes", 2), player("Cy", "Babylon", 3)];
        let cases: Vec<(Value, &str)> = vec![
            (
                {
                    let mut p = ok();
                    p[0]["shipyard"]["board"] = json!(9);
                    table(p)
                },
                "board 9 does not exist (boards are numbered 1 to 8)",
            ),
            (
                {
                    let mut p = ok();
                    p[1]["shipyard"]["board"] = json!(1);
                    table(p)
                },
                "both have shipyard board 1",
            ),
            (
                {
                    let mut p = ok();
                    p[0]["shipyard"]["red"] = json!(7);
                    table(p)
                },
                "the red ship on step 7",
            ),
            (
                {
                    let mut p = ok();
                    p[0]["shipyard"]["green"] = json!(-1);
                    table(p)
                },
                "the green ship on step -1",
            ),
            (
                {
                    let mut p = ok();
                    p[2]["islands"] = json!(["Misty Isel"]);
                    table(p)
                },
                "unknown island `Misty Isel`; did you mean `Misty Isle`?",
            ),
            (
                {
                    let mut p = ok();
                    p[0]["islands"] = json!(["Misty Isle"]);
                    p[1]["islands"] = json!(["迷霧島"]);
                    table(p)
                },
                "both have Misty Isle",
            ),
            (
                {
                    let mut p = ok();
                    p[0]["naval"] = json!([4]);
                    table(p)
                },
                "naval token 4 does not exist",
            ),
            (
                {
                    let mut p = ok();
                    p[0]["naval"] = json!([7, 7]);
                    table(p)
                },
                "cannot come from three Ages",
            ),
            (
                {
                    let mut p = ok();
                    p[0]["naval"] = json!([-1, -1]);
                    table(p)
                },
                "cannot come from three Ages",
            ),
            (
                {
                    let mut p = ok();
                    p[0].as_object_mut().unwrap().remove("shipyard");
                    table(p)
                },
                "player 0 (Ann) has no \"shipyard\"",
            ),
            (
                {
                    let mut p = ok();
                    p[0]["shipyard"]["purple"] = json!(1);
                    table(p)
                },
                "unknown field `purple`",
            ),
            (
                json!({"players": ok()}),
                "\"shipyard\", \"islands\" and \"naval\" need \"expansions\": [\"armada\"]",
            ),
            // With 3 players the two-neighbour cards are out (§2.2).
            (
                {
                    let mut p = ok();
                    p[0]["cards"] = json!(["Dock"]);
                    table(p)
                },
                "Dock is in 1 city",
            ),
        ];
        for (t, want) in cases {
            let err = read(&t).unwrap_err();
            assert!(err.contains(want), "{err}\n wanted: {want}");
        }
        // Naval tokens one per Age: +3 (Age I or II) with +7 (Age III) and −2 (Age II) fits.
        let mut p = ok();
        p[0]["naval"] = json!([-2, 7, 3]);
        assert_eq!(read(&table(p)).unwrap().armada().unwrap()[0].naval, [3, -2, 7]);
    }

    #[test]
    fn eight_players_only_with_armada() {
        let wonders =
            ["Giza", "Rhodes", "Babylon", "Olympia", "Ephesos", "Alexandria", "Halikarnassos", "Carthage"];
        let players: Vec<Value> =
            wonders.iter().enumerate().map(|(i, w)| player(&format!("P{i}"), w, i as u8 + 1)).collect();
        let t = read(&table(players.clone())).unwrap();
        assert_eq!(t.players(), 8);
        let plain: Vec<Value> = players
            .into_iter()
            .map(|mut p| {
                p.as_object_mut().unwrap().remove("shipyard");
                p
            })
            .collect();
        let err = read(&json!({"players": plain})).unwrap_err();
        assert!(err.contains("8 players: a table holds 3 to 7 players (8 with Armada)"), "{err}");
    }

    /// §10.3's examples: Ann (board 1, wonder symbol on red) pays 1 wood for the red step she
    /// takes with Giza's first stage; Gabriel (board 6) pays 1 clay for a blue step and 1 wood
    /// for a yellow step. Seats: Ann 0, Gabriel 1, Cy 2; the left neighbour of seat i is i + 1.
    fn examples() -> Table {
        let mut ann = player("Ann", "Giza", 1);
        ann["cards"] = json!(["Quarry", "Apothecary"]);
        ann["coins"] = json!(5);
        let mut gabriel = player("Gabriel", "Rhodes", 6);
        gabriel["cards"] = json!(["Clay Pool"]);
        gabriel["coins"] = json!(5);
        let mut cy = player("Cy", "Babylon", 3);
        cy["cards"] = json!(["Lumber Yard"]);
        read(&table(vec![ann, gabriel, cy])).unwrap()
    }

    fn pay(left: u8, right: u8, bank: u8, chain: bool) -> CostOption {
        CostOption::new(left, right, bank, chain)
    }

    #[test]
    fn cost_with_a_naval_construction_is_one_purchase() {
        let t = examples();
        // Giza A stage 1 costs SS: Giza's stone and the Quarry give it, nothing to buy.
        assert_eq!(t.cost(0, &Target::Stage).unwrap().options, vec![pay(0, 0, 0, false)]);
        // With the red step (1 wood): Ann makes no wood; her right neighbour Cy (Lumber Yard)
        // sells it for 2.
        let a = t.cost(0, &Target::StageWithNaval).unwrap();
        assert_eq!(a.options, vec![pay(0, 2, 0, false)], "{a:?}");
        assert!(a.what.contains("red ship to step 1: W, provisional"), "{}", a.what);
        // Gabriel: Baths cost 1 stone, bought from Ann (his right neighbour) for 2. With the
        // blue step (1 clay) his Clay Pool pays the clay: still 2 to the right.
        assert_eq!(t.cost(1, &Target::Card("Baths".into())).unwrap().options, vec![pay(0, 2, 0, false)]);
        let baths = t.cost(1, &Target::CardWithNaval("Baths".into())).unwrap();
        assert_eq!(baths.options, vec![pay(0, 2, 0, false)], "{baths:?}");
        // The Tavern is free; with the yellow step (1 wood) Gabriel buys the wood from Cy, his
        // left neighbour, for 2.
        let tavern = t.cost(1, &Target::CardWithNaval("Tavern".into())).unwrap();
        assert_eq!(tavern.options, vec![pay(2, 0, 0, false)], "{tavern:?}");
        // A brown card has no naval construction.
        let brown = t.cost(1, &Target::CardWithNaval("Ore Vein".into())).unwrap();
        assert!(brown.reason.unwrap().contains("only red, yellow, blue and green cards"));
        // Without Armada, no naval construction can be asked.
        let base = Table::from_json(
            &json!({"players": [{"name": "A", "wonder": "Giza", "side": "A"},
                                {"name": "B", "wonder": "Rhodes", "side": "A"},
                                {"name": "C", "wonder": "Babylon", "side": "A"}]})
            .to_string(),
        )
        .unwrap();
        assert!(base.cost(0, &Target::StageWithNaval).unwrap_err().to_string().contains("needs a table"));
    }

    #[test]
    fn a_card_free_by_chain_still_pays_the_naval_cost() {
        // Stables (Age II red, WCO) are free for Ann through her Apothecary; the red step (1
        // wood) is still paid: 2 to Cy (§2.3).
        let t = examples();
        assert_eq!(t.cost(0, &Target::Card("Stables".into())).unwrap().options, vec![pay(0, 0, 0, true)]);
        let s = t.cost(0, &Target::CardWithNaval("Stables".into())).unwrap();
        assert_eq!(s.options, vec![pay(0, 2, 0, true)], "{s:?}");
    }

    #[test]
    fn the_top_step_cannot_move() {
        let mut ann = player("Ann", "Giza", 1);
        ann["shipyard"]["red"] = json!(6);
        ann["coins"] = json!(5);
        let t = read(&table(vec![ann, player("Bob", "Rhodes", 2), player("Cy", "Babylon", 3)])).unwrap();
        // Barracks (1 ore) alone: 2 to Bob (Rhodes, ore), her left neighbour.
        assert_eq!(t.cost(0, &Target::Card("Barracks".into())).unwrap().options, vec![pay(2, 0, 0, false)]);
        let a = t.cost(0, &Target::CardWithNaval("Barracks".into())).unwrap();
        assert!(a.options.is_empty(), "{a:?}");
        assert!(a.reason.unwrap().contains("the red ship is on step 6, the top"));
    }

    #[test]
    fn ancient_port_waives_one_resource_of_the_naval_part() {
        // Ann, board 1, red ship on step 4: the next red step (5) costs glass + loom (§10.3).
        // Stockade (1 wood) + that step: wood from Cy (2), glass from her Glassworks, and loom
        // from nobody: no way. With Ancient Port the loom is waived (§6): 2 to the right.
        let build = |islands: Value| {
            let mut ann = player("Ann", "Giza", 1);
            ann["shipyard"]["red"] = json!(4);
            ann["cards"] = json!(["Glassworks"]);
            ann["coins"] = json!(5);
            ann["islands"] = islands;
            let mut cy = player("Cy", "Babylon", 3);
            cy["cards"] = json!(["Lumber Yard"]);
            read(&table(vec![ann, player("Bob", "Rhodes", 2), cy])).unwrap()
        };
        let without = build(json!([])).cost(0, &Target::CardWithNaval("Stockade".into())).unwrap();
        assert!(without.options.is_empty(), "{without:?}");
        let with = build(json!(["Ancient Port"])).cost(0, &Target::CardWithNaval("Stockade".into())).unwrap();
        assert_eq!(with.options, vec![pay(0, 2, 0, false)], "{with:?}");
    }
}
