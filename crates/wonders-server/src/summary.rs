//! What the page shows beside the raw view, computed by the core's rules from public information
//! only: a summary of every city (production, what it sells, science, military, a running score),
//! why a card in the hand cannot be built, and the military conflicts of each Age's end.

use serde::{Deserialize, Serialize};
use wonders_core::game::{left_of, right_of};
use wonders_core::payment::{Market, Options, solve};
use wonders_core::score::{science_points, score_city};
use wonders_core::{CardId, Catalog, City, Production, Resource, Resources};

/// What a city produces (or sells), on the wire: fixed letters and either/or sets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProductionJson {
    /// Units every turn, as resource letters (`WWC`); empty when none.
    pub fixed: String,
    /// Producers of one resource among several, each as its letters (`WC` = wood or clay).
    pub either: Vec<String>,
}

impl ProductionJson {
    fn from(p: &Production) -> ProductionJson {
        ProductionJson {
            fixed: letters(&p.fixed),
            either: p.choices().iter().map(|s| s.iter().map(|r| r.letter()).collect()).collect(),
        }
    }
}

fn letters(r: &Resources) -> String {
    if r.is_empty() { String::new() } else { r.to_string() }
}

/// The price a city pays a neighbour for each resource, as `{"W": 2, …}` in letter order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prices {
    /// Prices paid to the left neighbour, per resource letter (W S C O G L P).
    pub left: [u8; 7],
    /// Prices paid to the right neighbour.
    pub right: [u8; 7],
}

/// One city at a glance, from public information.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CitySummary {
    /// What it produces each turn for itself.
    pub production: ProductionJson,
    /// What its neighbours may buy from it.
    pub for_sale: ProductionJson,
    /// What it pays each neighbour per unit.
    pub prices: Prices,
    /// Science symbols by kind (compass, gear, tablet) and wild symbols.
    pub science: [u8; 3],
    /// Wild science symbols (Scientists Guild, Babylon).
    pub science_wild: u8,
    /// The points its science is worth now.
    pub science_points: i32,
    /// Shields.
    pub shields: u8,
    /// Military tokens: the sum of their values.
    pub military_points: i32,
    /// The running score if the game ended now (by the final scoring rules).
    pub score_now: i32,
    /// The next wonder stage's cost (letters), if a stage is left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_stage_cost: Option<String>,
    /// Edifice: the points of its `edifice` category now (end-game rewards of the completed
    /// projects it holds a pawn of, minus its debt tokens); left out when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub edifice_points: i32,
}

fn is_zero(v: &i32) -> bool {
    *v == 0
}

/// The summaries of every city.
pub fn summaries(catalog: &Catalog, cities: &[City]) -> Vec<CitySummary> {
    (0..cities.len())
        .map(|i| {
            let c = &cities[i];
            let stages = catalog.wonder(c.wonder).stages(c.side);
            let score = score_city(catalog, cities, i);
            CitySummary {
                production: ProductionJson::from(&c.production),
                for_sale: ProductionJson::from(&c.for_sale),
                prices: Prices { left: c.prices[0], right: c.prices[1] },
                science: c.science,
                science_wild: c.science_wild,
                science_points: science_points(c.science, c.science_wild),
                shields: c.shields,
                military_points: c.tokens.points(),
                score_now: score.total,
                next_stage_cost: stages.get(c.stages as usize).map(|s| letters(&s.cost)),
                edifice_points: score.edifice,
            }
        })
        .collect()
}

/// Why `city` cannot pay `cost` (resources) and `coins` now, in words; `None` when some
/// payment exists. Resources are looked for in the city's production, then in what its
/// neighbours sell.
pub fn cost_reason(cities: &[City], city: usize, cost: &Resources, coins: u8) -> Option<String> {
    let n = cities.len();
    let c = &cities[city];
    if u16::from(coins) > c.coins {
        return Some(format!(
            "costs {coins} coin{}, you have {}",
            if coins == 1 { "" } else { "s" },
            c.coins
        ));
    }
    let (left, right) = (&cities[left_of(city, n)], &cities[right_of(city, n)]);
    let market =
        Market { own: &c.production, left: &left.for_sale, right: &right.for_sale, prices: c.prices };
    let mut out = Options::new();
    solve(&market, cost, u16::MAX, &mut out);
    if out.is_empty() {
        // Which resource is short: needed, against everything the city and its neighbours make.
        for r in Resource::ALL {
            let need = cost.get(r);
            if need == 0 {
                continue;
            }
            let own = c.production.max_of(r);
            let sold = left.for_sale.max_of(r) + right.for_sale.max_of(r);
            if own + sold < need {
                let l = r.letter();
                // "needs S" for one, "needs 3 S" for more.
                let what = if need == 1 { l.to_string() } else { format!("{need} {l}") };
                return Some(if sold == 0 && own == 0 {
                    format!("needs {what}: you make none and no neighbour sells it")
                } else if sold == 0 {
                    format!("needs {what}: you make {own} and no neighbour sells it")
                } else {
                    format!("needs {what}: you and your neighbours make only {}", own + sold)
                });
            }
        }
        return Some("its resources cannot all be found this turn".into());
    }
    let budget = c.coins - u16::from(coins);
    let cheapest = out.iter().map(|&(l, r)| u16::from(l) + u16::from(r)).min().unwrap_or(0);
    if cheapest > budget {
        return Some(format!(
            "buying its resources costs {cheapest} coin{}{}, you have {}",
            if cheapest == 1 { "" } else { "s" },
            if coins > 0 { format!(" plus {coins} to the bank") } else { String::new() },
            c.coins
        ));
    }
    None
}

/// Why a card in the hand cannot be built by `city` (`None` if it can, or if the reason is a
/// rule of the step rather than its cost).
pub fn card_reason(catalog: &Catalog, cities: &[City], city: usize, card: CardId) -> Option<String> {
    let c = &cities[city];
    if c.has_name(catalog, card) {
        return Some("already built: a city never holds two structures of the same name".into());
    }
    if c.has_chain_for(catalog, card) {
        return None;
    }
    let def = catalog.card(card);
    cost_reason(cities, city, &def.cost, def.coins)
}

/// Why `city` cannot build its next wonder stage now.
pub fn stage_reason(catalog: &Catalog, cities: &[City], city: usize) -> Option<String> {
    let c = &cities[city];
    let stages = catalog.wonder(c.wonder).stages(c.side);
    let Some(next) = stages.get(c.stages as usize) else {
        return Some("every stage of the wonder is built".into());
    };
    cost_reason(cities, city, &next.cost, 0).map(|r| format!("stage {}: {r}", c.stages + 1))
}

/// One city's military conflicts at the end of an Age.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conflict {
    /// The city's shields.
    pub shields: u8,
    /// The token won against the left neighbour (1/3/5), −1 for a defeat, 0 for a tie.
    pub left: i32,
    /// The same against the right neighbour.
    pub right: i32,
    /// Armada: the extra land conflicts of incursion tokens this city took part in (armada.md
    /// §2.8), each against the 2nd player on one side.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub incursions: Vec<IncursionConflict>,
    /// Armada: the city's naval conflict (armada.md §2.5); absent without Armada.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub naval: Option<NavalResult>,
}

/// Armada: one incursion's land conflict, from one side (armada.md §2.8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IncursionConflict {
    /// The other city.
    pub against: u8,
    /// The token taken (the Age's victory token, −1, or 0 for a tie).
    pub points: i32,
}

/// Armada: one city's naval conflict at an Age end (armada.md §2.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NavalResult {
    /// Its naval strength.
    pub strength: u8,
    /// The naval token it took (negative for the weakest; 0: none).
    pub token: i8,
}

/// What an Age end needs to know of Armada: the incursion tokens of the Age (holder, target) and
/// each city's naval strength at the conflict and naval token of the Age.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArmadaAgeEnd {
    /// The incursion tokens handed out during the Age.
    pub incursions: Vec<(u8, u8)>,
    /// Each city's naval strength and naval token of the Age.
    pub naval: Vec<(u8, i8)>,
}

/// The conflicts of one Age's end (002 時代結束: each city compares its shields with each
/// neighbour's; the stronger takes a victory token of the Age, 1, 3 or 5; the weaker a −1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgeEnd {
    /// The Age that ended.
    pub age: u8,
    /// One entry per city.
    pub cities: Vec<Conflict>,
}

/// The conflicts of the end of `age`, from each city's tokens before and after it: the points a
/// city gained against each neighbour follow from their shields and the core's land-conflict
/// schedule ([`wonders_core::conflict`]: in `teams`, nothing against the teammate and two tokens
/// against the adjacent opponent, shown as their sum).
pub fn age_end(
    age: u8,
    before: &[City],
    after: &[City],
    teams: bool,
    armada: Option<&ArmadaAgeEnd>,
) -> AgeEnd {
    let n = after.len();
    let shields: Vec<u8> = after.iter().map(|c| c.shields).collect();
    let incursions = armada.map_or(&[][..], |a| a.incursions.as_slice());
    let schedule = wonders_core::conflict::land_conflicts(n, teams, incursions);
    let points = |me: usize, other: usize| {
        schedule.iter().filter(|c| c.between(me, other)).map(|c| c.points_for(me, &shields, age)).sum::<i32>()
    };
    let cities = (0..n)
        .map(|i| {
            let (l, r) = (left_of(i, n), right_of(i, n));
            // Incursions: the conflicts of the schedule against a city that is no neighbour.
            let incursions: Vec<IncursionConflict> = (0..n)
                .filter(|&o| o != i && o != l && o != r && schedule.iter().any(|c| c.between(i, o)))
                .map(|o| IncursionConflict { against: o as u8, points: points(i, o) })
                .collect();
            let extra: i32 = incursions.iter().map(|c| c.points).sum();
            let c = Conflict {
                shields: after[i].shields,
                left: points(i, l),
                right: points(i, r),
                incursions,
                naval: armada
                    .and_then(|a| a.naval.get(i))
                    .map(|&(strength, token)| NavalResult { strength, token }),
            };
            // The tokens the core gave must be these; should they differ (an expansion's rule),
            // the difference is shown as the net change against the left.
            let gained = after[i].tokens.points() - before.get(i).map_or(0, |b| b.tokens.points());
            if gained != c.left + c.right + extra {
                return Conflict { left: gained - c.right - extra, ..c };
            }
            c
        })
        .collect();
    AgeEnd { age, cities }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wonders_core::{Edition, Side};

    fn city(catalog: &Catalog, wonder: &str, cards: &[&str], coins: u16) -> City {
        let mut c = City::new(catalog, catalog.find_wonder(wonder).unwrap(), Side::A);
        for name in cards {
            c.place(catalog, catalog.find_card(name).unwrap());
        }
        c.coins = coins;
        c
    }

    #[test]
    fn reasons_name_the_missing_resource_or_the_coins() {
        let cat = Catalog::get(Edition::First);
        // Giza A makes stone; Rhodes A ore; Babylon A clay. Nobody makes loom.
        let cities = vec![
            city(cat, "Giza", &["Lumber Yard"], 4),
            city(cat, "Rhodes", &[], 3),
            city(cat, "Babylon", &["Clay Pool"], 3),
        ];
        // Apothecary costs L (1e).
        let apothecary = cat.find_card("Apothecary").unwrap();
        assert_eq!(
            card_reason(cat, &cities, 0, apothecary).as_deref(),
            Some("needs L: you make none and no neighbour sells it")
        );
        // Dispensary costs 2 O + G, and Ephesos (papyrus) and its neighbours Giza (stone) and
        // Olympia (wood) make no ore: the reason says how many.
        let ore = vec![city(cat, "Giza", &[], 3), city(cat, "Ephesos", &[], 3), city(cat, "Olympia", &[], 3)];
        assert_eq!(
            card_reason(cat, &ore, 1, cat.find_card("Dispensary").unwrap()).as_deref(),
            Some("needs 2 O: you make none and no neighbour sells it")
        );
        // Tree Farm costs 1 coin: affordable with 4.
        assert_eq!(card_reason(cat, &cities, 0, cat.find_card("Tree Farm").unwrap()), None);
        // Lumber Yard again: already built.
        assert!(
            card_reason(cat, &cities, 0, cat.find_card("Lumber Yard").unwrap())
                .unwrap()
                .starts_with("already")
        );
        // Baths cost S: Giza makes it.
        assert_eq!(card_reason(cat, &cities, 0, cat.find_card("Baths").unwrap()), None);
        // With 0 coins, Tree Farm (1 coin) says so.
        let mut poor = cities.clone();
        poor[0].coins = 0;
        assert_eq!(
            card_reason(cat, &poor, 0, cat.find_card("Tree Farm").unwrap()).as_deref(),
            Some("costs 1 coin, you have 0")
        );
        // Rhodes (ore) wants Stockade (W): its left neighbour Babylon sells only clay, its right
        // neighbour Giza sells wood (Lumber Yard) for 2; with 1 coin it cannot pay.
        let mut rhodes_poor = cities.clone();
        rhodes_poor[1].coins = 1;
        assert_eq!(
            card_reason(cat, &rhodes_poor, 1, cat.find_card("Stockade").unwrap()).as_deref(),
            Some("buying its resources costs 2 coins, you have 1")
        );
    }

    #[test]
    fn edifice_points_are_the_category_now() {
        // Ann (Giza A, 2 stages) holds the Age I pawn of Belvedere, completed: 1 VP per own wonder
        // stage = 2 (edifice.toml); Bob holds Age II's debt token: −3 (confirmed); Cy nothing.
        let table = wonders_core::table::Table::from_json(
            r#"{"expansions": ["edifice"],
                "projects": [{"name": "Belvedere", "completed": true}, {"name": "Factory"}, {"name": "Agora"}],
                "players": [{"name": "Ann", "wonder": "Giza", "side": "A", "stages": 2, "pawns": [1]},
                            {"name": "Bob", "wonder": "Rhodes", "side": "A", "debt": [2]},
                            {"name": "Cy", "wonder": "Babylon", "side": "A"}]}"#,
        )
        .unwrap();
        let sums = summaries(table.catalog(), table.cities());
        let points: Vec<i32> = sums.iter().map(|s| s.edifice_points).collect();
        assert_eq!(points, vec![2, -3, 0]);
        // Giza A stages 3 + 5, and the 2 Edifice points.
        assert_eq!(sums[0].score_now, 10);
        let json = serde_json::to_value(&sums[2]).unwrap();
        assert!(json.get("edifice_points").is_none(), "left out when 0: {json}");
    }

    #[test]
    fn age_end_gives_each_conflict_its_token() {
        let cat = Catalog::get(Edition::First);
        let before =
            vec![city(cat, "Giza", &[], 3), city(cat, "Rhodes", &[], 3), city(cat, "Babylon", &[], 3)];
        // Giza 1 shield (Stockade), Rhodes 2 (Stockade and Guard Tower), Babylon 0.
        let mut after = before.clone();
        after[0].place(cat, cat.find_card("Stockade").unwrap());
        after[1].place(cat, cat.find_card("Stockade").unwrap());
        after[1].place(cat, cat.find_card("Guard Tower").unwrap());
        // Tokens as the core gives them for Age I: Giza beats Babylon (+1) and loses to Rhodes
        // (−1); Rhodes beats both (+1 +1); Babylon loses both (−1 −1).
        after[0].tokens.add(1);
        after[0].tokens.add(-1);
        after[1].tokens.add(1);
        after[1].tokens.add(1);
        after[2].tokens.add(-1);
        after[2].tokens.add(-1);
        let end = age_end(1, &before, &after, false, None);
        // Left of 0 is 1 (Rhodes), right of 0 is 2 (Babylon).
        assert_eq!(end.cities[0], Conflict { shields: 1, left: -1, right: 1, ..Conflict::default() });
        assert_eq!(end.cities[1], Conflict { shields: 2, left: 1, right: 1, ..Conflict::default() });
        assert_eq!(end.cities[2], Conflict { shields: 0, left: -1, right: -1, ..Conflict::default() });
    }

    #[test]
    fn an_incursion_and_the_naval_conflict_are_in_the_age_end() {
        // 4 cities; Giza (city 0) holds an incursion token against city 2, its 2nd neighbour
        // (armada.md §2.8): one extra land conflict with Age I's values.
        let cat = Catalog::get(Edition::First);
        let before: Vec<City> =
            ["Giza", "Rhodes", "Babylon", "Olympia"].iter().map(|w| city(cat, w, &[], 3)).collect();
        let mut after = before.clone();
        // Giza 2 shields, Rhodes 0, Babylon 1, Olympia 0.
        after[0].place(cat, cat.find_card("Stockade").unwrap());
        after[0].place(cat, cat.find_card("Guard Tower").unwrap());
        after[2].place(cat, cat.find_card("Barracks").unwrap());
        // Neighbours: Giza beats Rhodes and Olympia (+1 +1) and Babylon by incursion (+1);
        // Rhodes loses to Giza and Babylon; Babylon beats Rhodes and Olympia, loses to Giza;
        // Olympia loses to Giza and Babylon.
        for (i, tokens) in [vec![1, 1, 1], vec![-1, -1], vec![1, 1, -1], vec![-1, -1]].into_iter().enumerate()
        {
            for t in tokens {
                after[i].tokens.add(t);
            }
        }
        let armada = ArmadaAgeEnd { incursions: vec![(0, 2)], naval: vec![(3, 3), (0, -1), (1, 1), (0, -1)] };
        let end = age_end(1, &before, &after, false, Some(&armada));
        assert_eq!(end.cities[0].incursions, vec![IncursionConflict { against: 2, points: 1 }]);
        assert_eq!(end.cities[2].incursions, vec![IncursionConflict { against: 0, points: -1 }]);
        assert!(end.cities[1].incursions.is_empty());
        assert_eq!((end.cities[0].left, end.cities[0].right), (1, 1));
        assert_eq!((end.cities[2].left, end.cities[2].right), (1, 1), "Babylon beats Olympia and Rhodes");
        assert_eq!(end.cities[0].naval, Some(NavalResult { strength: 3, token: 3 }));
        assert_eq!(end.cities[3].naval, Some(NavalResult { strength: 0, token: -1 }));
    }
}
