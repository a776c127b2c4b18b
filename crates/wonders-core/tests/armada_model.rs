//! The Armada model layer: the Armada cards in the catalog, the per-city Armada state, and the
//! scoring and table format with Armada. Values are worked out by hand from
//! shared/reference/armada.md (§N below).

use wonders_core::armada::{ArmadaCardId, ArmadaData};
use wonders_core::{CardId, Catalog, Colour, Edition, Effect};

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
