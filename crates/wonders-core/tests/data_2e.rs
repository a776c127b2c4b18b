//! Checks of the 2nd-edition data against edition-2e.md, and that the editions stay apart.

use wonders_core::{Catalog, Colour, Edition, Effect, Resource, Side};

fn cat() -> &'static Catalog {
    Catalog::get(Edition::Second)
}

#[test]
fn eighty_distinct_cards_and_seven_per_player_per_age() {
    // edition-2e.md §4: 80 distinct cards; 7 per player in Ages I and II; 6n − 2 non-guild cards
    // in Age III, plus n + 2 guilds.
    let c = cat();
    assert_eq!(c.cards.len(), 80);
    assert_eq!(c.guilds().len(), 10);
    for n in 3u8..=7 {
        assert_eq!(c.age_cards(1, n).len(), 7 * n as usize);
        assert_eq!(c.age_cards(2, n).len(), 7 * n as usize);
        assert_eq!(c.age_cards(3, n).len(), 6 * n as usize - 2);
        assert_eq!(c.age_cards(3, n).len() + n as usize + 2, 7 * n as usize);
    }
    let box_total: usize = c.cards.iter().map(|d| if d.is_guild() { 1 } else { d.copies.len() }).sum();
    assert_eq!(box_total, 148, "49 + 49 + 50 cards, as in 004 遊戲配件");
}

#[test]
fn second_edition_cards_and_their_changes() {
    // edition-2e.md §3.
    let c = cat();
    assert!(c.find_card("Pawnshop").is_err());
    assert!(c.find_card("Strategists Guild").is_err());
    for new in ["Well", "Ludus", "Castrum", "Decorators Guild"] {
        assert!(c.find_card(new).is_ok(), "{new}");
        assert!(Catalog::get(Edition::First).find_card(new).is_err(), "{new} is not 1st edition");
    }
    let get = |n: &str| c.card(c.find_card(n).unwrap());
    assert_eq!(get("Altar").effects, vec![Effect::Points(3)]);
    assert_eq!(get("Theater").effects, vec![Effect::Points(3)]);
    assert_eq!(get("Temple").effects, vec![Effect::Points(4)]);
    assert!(get("Temple").chain_from.is_empty());
    assert_eq!(get("Statue").chain_from, vec!["Well".to_string()]);
    assert_eq!(get("Pantheon").chain_from, vec!["Altar".to_string()]);
    assert_eq!(get("Gardens").chain_from, vec!["Theater".to_string()]);
    assert_eq!(get("Fortifications").cost.to_string(), "COOO");
    assert_eq!(get("Builders Guild").cost.to_string(), "SSSCCG");
    assert_eq!(get("Spies Guild").cost.to_string(), "CCG");
    assert_eq!(get("Town Hall").copies, vec![3, 6]);
    assert_eq!(get("Arena").copies, vec![3, 5]);
    assert_eq!(get("Circus").copies, vec![4, 6]);
    assert_eq!(get("Arsenal").copies, vec![3, 5]);
    assert_eq!(get("Well").copies, vec![4, 7]);
    assert_eq!(get("Ludus").colour, Colour::Yellow);
    assert_eq!(get("Castrum").effects, vec![Effect::Shields(3)]);
    assert_eq!(get("Decorators Guild").effects, vec![Effect::PointsIfWonderComplete(7)]);
    // Pantheon chains from an Age I card: chains in the 2nd edition may skip an Age.
    assert_eq!(c.card(c.find_card("Altar").unwrap()).age, 1);
    assert_eq!(get("Pantheon").age, 3);
}

#[test]
fn day_and_night_boards() {
    // edition-2e.md §5.
    let c = cat();
    let w = |n: &str| c.wonder(c.find_wonder(n).unwrap());
    assert_eq!(w("Babylon").start, Resource::Wood);
    assert_eq!(w("Olympia").start, Resource::Clay);
    assert_eq!(w("Babylon").stages(Side::B).len(), 2, "Babylon Night has 2 stages");
    assert_eq!(w("Giza").stages(Side::B).len(), 4);
    assert_eq!(w("Rhodes").stages(Side::B).len(), 2);
    assert_eq!(w("Alexandria").stages(Side::A)[2].cost.to_string(), "LP");
    assert!(w("Olympia").stages(Side::A)[1].effects.contains(&Effect::FreeFirstOfColour));
    assert!(w("Olympia").stages(Side::B)[0].effects.contains(&Effect::FreeFirstOfAge));
    assert!(w("Olympia").stages(Side::B)[1].effects.contains(&Effect::FreeLastOfAge));
    assert_eq!(Side::A.label(Edition::Second), "Day");
    assert_eq!(Side::B.label(Edition::Second), "Night");
    for card in &c.cards {
        assert!(card.source.starts_with("edition-2e.md"), "{}", card.name);
    }
}
