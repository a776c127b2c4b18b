//! Armada on the wire: what a seat's view holds of the expansion ([`super::state::ArmadaView`]) as
//! JSON, for the browser and other clients. Like the rest of [`crate::wire`], these are wire
//! types, separate from the core's (which hold ids and bitsets): boards by their printed number,
//! fleets, islands and cards by name, every value that armada.md §10 supplies marked
//! `provisional`.

use super::state::ArmadaView;
use super::{ArmadaData, Fleet, IslandId, NavalCost, Status, TrackStep, TrackValue};
use serde::{Deserialize, Serialize};

fn is_zero(v: &u8) -> bool {
    *v == 0
}

fn is_false(v: &bool) -> bool {
    !*v
}

/// What a view holds of Armada (armada.md §2.2–§2.8): every city's shipyard and islands, the
/// island decks' sizes, the islands dealt to this seat in the exploration under way, and the
/// incursion tokens of the Age.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireArmada {
    /// Cards left in the island decks of levels 1, 2 and 3 (their contents stay hidden).
    pub deck_sizes: [u8; 3],
    /// Each city's shipyard, islands and naval tokens, in city order.
    pub cities: Vec<WireShipyard>,
    /// The islands dealt to this seat in the exploration under way, while it chooses (§2.6);
    /// empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dealt: Vec<WireIsland>,
    /// The incursion tokens handed out this Age (§2.8): one extra land conflict at Age end.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub incursions: Vec<WireIncursion>,
    /// The explorations still due this turn, in the order they are played (§2.6: everyone saw
    /// the ships reach their exploration spaces); empty when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub explore_due: Vec<WireExploreDue>,
    /// The exploration under way, as the whole table sees it (§2.6); absent when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exploring: Option<WireExploring>,
    /// The islands a green card brought whose free moves of 2 or 3 different ships (White-Surf
    /// Port, Tempest Archipelago) wait for their owner's choice of ships, in order; empty when
    /// none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves_due: Vec<WireMovesDue>,
    /// Forgotten Port at this Age's end (§6): the cities that have chosen whether to take part
    /// in the naval conflict; empty when nobody has.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub naval_decided: Vec<u8>,
    /// Forgotten Port: the cities staying out of this Age's naval conflict.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stay_out: Vec<u8>,
}

/// An exploration still due this turn (armada.md §2.6): `city` explores a level-`level` island.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireExploreDue {
    /// The exploring city.
    pub city: u8,
    /// The level of the island deck it explores (1–3).
    pub level: u8,
}

/// An island whose free moves wait for its owner's choice of ships.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireMovesDue {
    /// The city choosing.
    pub city: u8,
    /// The island.
    pub island: WireIsland,
}

/// The public part of an exploration under way (armada.md §2.6): which islands each explorer
/// holds stays hidden, how many it holds does not; the islands kept are face up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireExploring {
    /// The level explored (1–3).
    pub level: u8,
    /// The explorers still to choose, in order, with the number of islands dealt to each.
    pub waiting: Vec<WireExplorer>,
    /// The islands kept so far in this exploration.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kept: Vec<WireIsland>,
}

/// An explorer still to choose, and how many islands it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireExplorer {
    /// The exploring city.
    pub city: u8,
    /// The islands dealt to it.
    pub cards: u8,
}

/// The cities of a bitset, in order.
fn cities_of(bits: u8) -> Vec<u8> {
    (0..8).filter(|c| bits & (1 << c) != 0).collect()
}

/// An incursion token: `holder`'s city fights `target` at the end of the Age (§2.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireIncursion {
    /// The city that played the incursion card.
    pub holder: u8,
    /// The 2nd player on that side, who receives the token.
    pub target: u8,
}

/// One city's shipyard board and what it brings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireShipyard {
    /// The board's printed number (1–8).
    pub board: u8,
    /// The fleet carrying the wonder symbol: a wonder stage moves its ship (§2.3).
    pub wonder_fleet: String,
    /// The four ships in column order: red, yellow, blue, green.
    pub ships: Vec<WireShip>,
    /// Naval strength (red ship's space, yellow/blue step-6 bonuses, naval symbols; §2.5).
    pub naval_strength: u8,
    /// Trade level (the yellow ship's space; §2.7).
    pub trade_level: u8,
    /// Victory points of the blue fleet now (§10.2).
    pub fleet_points: u8,
    /// The islands in play in this city (public), in data order.
    pub islands: Vec<WireIsland>,
    /// The naval conflict tokens taken at the end of Ages I, II and III (0: none yet, or none
    /// won or lost).
    pub naval_tokens: [i8; 3],
    /// Whether the board's number or wonder symbol is provisional (armada.md §10.1).
    #[serde(default, skip_serializing_if = "is_false")]
    pub provisional: bool,
}

/// One ship of a shipyard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireShip {
    /// `red`, `yellow`, `blue` or `green`.
    pub fleet: String,
    /// The step it is on: 0 (start space) to 6 (top).
    pub step: u8,
    /// Whether this fleet carries the board's wonder symbol.
    #[serde(default, skip_serializing_if = "is_false")]
    pub wonder: bool,
    /// What the space it is on gives while it stays there (the values of §10.2 that last:
    /// naval strength, trade level, VP).
    pub here: WireTrackStep,
    /// The next step (absent at the top): its cost and what it gives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<WireNextStep>,
}

/// The next step of a ship: what moving it costs on this board and what the space gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireNextStep {
    /// The step number (1–6).
    pub step: u8,
    /// Coins of the cost.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub coins: u8,
    /// Resources of the cost, as letters (`W`, `S`, `O`, `C`, `G`, `L`, `P`; empty: none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub resources: String,
    /// Whether the cost is provisional (armada.md §10.3).
    #[serde(default, skip_serializing_if = "is_false")]
    pub cost_provisional: bool,
    /// What the space gives.
    pub gives: WireTrackStep,
}

/// The values of one track space (armada.md §4, §10.2); zero values are left out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireTrackStep {
    /// Naval strength while the ship is there.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub naval: u8,
    /// Trade level while the ship is there.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub trade: u8,
    /// Coins on arrival.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub coins: u8,
    /// Tax levied on arrival.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tax: u8,
    /// VP at game end while the ship is there.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub points: u8,
    /// Level of the island explored on arrival.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub explore: u8,
    /// Whether any of these values is provisional (armada.md §10.2).
    #[serde(default, skip_serializing_if = "is_false")]
    pub provisional: bool,
}

/// An island card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireIsland {
    /// Working English name.
    pub name: String,
    /// Name in the rulebook (Traditional Chinese).
    pub zh: String,
    /// Level 1–3.
    pub level: u8,
    /// Its effects, as one line of English.
    pub effect: String,
    /// The same in Traditional Chinese.
    #[serde(default)]
    pub effect_zh: String,
    /// How many free ship moves it gives when kept (each on a different ship for several;
    /// chosen with the island: `moves` of `choose_island`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub free_moves: u8,
    /// Whether any of its values is provisional (armada.md §10.7).
    #[serde(default, skip_serializing_if = "is_false")]
    pub provisional: bool,
}

fn step_of(data: &ArmadaData, fleet: Fleet, step: u8, lasting_only: bool) -> WireTrackStep {
    let t = data.track(fleet, step).unwrap_or_default();
    let provisional = TrackValue::ALL.iter().any(|&v| {
        t.get(v) > 0
            && (!lasting_only || matches!(v, TrackValue::Naval | TrackValue::Trade | TrackValue::Points))
            && data.track_status(fleet, step, v).is_some_and(Status::is_provisional)
    });
    let TrackStep { naval, trade, coins, tax, points, explore } = t;
    if lasting_only {
        WireTrackStep { naval, trade, points, provisional, ..WireTrackStep::default() }
    } else {
        WireTrackStep { naval, trade, coins, tax, points, explore, provisional }
    }
}

fn island(data: &ArmadaData, id: IslandId) -> WireIsland {
    let d = data.island(id);
    let free_moves = d
        .effects
        .iter()
        .map(|e| match e {
            super::ArmadaEffect::FreeMove(_) => 1,
            super::ArmadaEffect::FreeMovesDistinct(n) => *n,
            _ => 0,
        })
        .sum();
    WireIsland {
        name: d.name.clone(),
        zh: d.zh.clone(),
        level: d.level,
        effect: d.effect_text(),
        effect_zh: d.effect_text_zh(),
        free_moves,
        provisional: d.provisional(),
    }
}

impl WireArmada {
    /// The wire form of a view's Armada part.
    pub fn from_view(v: &ArmadaView) -> WireArmada {
        let data = v.data;
        let cities = v
            .cities
            .iter()
            .map(|a| {
                let board = data.board(a.shipyard.board);
                let ships = Fleet::ALL
                    .iter()
                    .map(|&f| {
                        let step = a.shipyard.step(f);
                        let next =
                            data.next_step_cost(a.shipyard.board, f, step).map(|c: NavalCost| WireNextStep {
                                step: step + 1,
                                coins: c.coins,
                                resources: if c.resources.is_empty() {
                                    String::new()
                                } else {
                                    c.resources.to_string()
                                },
                                cost_provisional: data
                                    .step_cost_status(a.shipyard.board, f, step + 1)
                                    .is_some_and(Status::is_provisional),
                                gives: step_of(data, f, step + 1, false),
                            });
                        WireShip {
                            fleet: f.name().to_string(),
                            step,
                            wonder: board.wonder == f,
                            here: step_of(data, f, step, true),
                            next,
                        }
                    })
                    .collect();
                WireShipyard {
                    board: board.number,
                    wonder_fleet: board.wonder.name().to_string(),
                    ships,
                    naval_strength: a.naval_strength(data),
                    trade_level: a.trade_level(data),
                    fleet_points: a.fleet_points(data),
                    islands: a.islands.iter().map(|i| island(data, i)).collect(),
                    naval_tokens: a.naval,
                    provisional: board.number_status.is_provisional() || board.wonder_status.is_provisional(),
                }
            })
            .collect();
        WireArmada {
            deck_sizes: v.deck_sizes,
            cities,
            dealt: v.dealt.iter().map(|&i| island(data, i)).collect(),
            incursions: v
                .incursions
                .iter()
                .map(|&(holder, target)| WireIncursion { holder, target })
                .collect(),
            explore_due: v.explore_due.iter().map(|&(city, level)| WireExploreDue { city, level }).collect(),
            exploring: v.exploring.as_ref().map(|e| WireExploring {
                level: e.level,
                waiting: e.waiting.iter().map(|&(city, cards)| WireExplorer { city, cards }).collect(),
                kept: e.kept.iter().map(|&i| island(data, i)).collect(),
            }),
            moves_due: v
                .moves_due
                .iter()
                .map(|&(city, i)| WireMovesDue { city, island: island(data, i) })
                .collect(),
            naval_decided: cities_of(v.naval_decided),
            stay_out: cities_of(v.stay_out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Game, Setup};

    /// The public parts of a turn's explorations and of Forgotten Port's choice reach the wire:
    /// the explorations still due, in order, and the cities that chose and stay out, as lists.
    #[test]
    fn explorations_due_and_forgotten_ports_choices_are_on_the_wire() {
        let mut setup = Setup::new(4, 7);
        setup.expansions = crate::edifice::Expansions::ARMADA;
        let game = Game::new(&setup).unwrap();
        let mut view = game.view(0).armada.unwrap();
        let empty = serde_json::to_value(WireArmada::from_view(&view)).unwrap();
        for key in ["explore_due", "exploring", "moves_due", "naval_decided", "stay_out"] {
            assert!(empty.get(key).is_none(), "{key} is left out when empty: {empty}");
        }
        view.explore_due.push((2, 1));
        view.explore_due.push((0, 3));
        view.naval_decided = 0b1010;
        view.stay_out = 0b1000;
        let w = WireArmada::from_view(&view);
        assert_eq!(
            w.explore_due,
            vec![WireExploreDue { city: 2, level: 1 }, WireExploreDue { city: 0, level: 3 }]
        );
        assert_eq!((w.naval_decided, w.stay_out), (vec![1, 3], vec![3]));
        let json = serde_json::to_value(WireArmada::from_view(&view)).unwrap();
        assert_eq!(
            json["explore_due"],
            serde_json::json!([{"city": 2, "level": 1}, {"city": 0, "level": 3}])
        );
        assert_eq!(json["stay_out"], serde_json::json!([3]));
    }

    #[test]
    fn a_new_armada_view_has_every_ship_on_its_start_space() {
        let mut setup = Setup::new(4, 7);
        setup.expansions = crate::edifice::Expansions::ARMADA;
        let game = Game::new(&setup).unwrap();
        let view = game.view(0);
        let w = WireArmada::from_view(view.armada.as_ref().unwrap());
        assert_eq!(w.cities.len(), 4);
        // Each level's deck holds its 9 islands (armada.md §6; 000 遊戲準備 4).
        assert_eq!(w.deck_sizes, [9, 9, 9]);
        let data = ArmadaData::builtin();
        for (c, a) in w.cities.iter().zip(&game.armada().unwrap().cities) {
            let b = data.board(a.shipyard.board);
            assert_eq!(c.board, b.number);
            assert_eq!(c.ships.iter().filter(|s| s.wonder).count(), 1);
            assert_eq!((c.naval_strength, c.trade_level, c.fleet_points), (0, 0, 0));
            for s in &c.ships {
                assert_eq!(s.step, 0);
                let next = s.next.as_ref().unwrap();
                assert_eq!(next.step, 1);
            }
            // Yellow step 1 gives trade level 1, nothing else (armada.md §4, confirmed).
            let y = &c.ships[1].next.as_ref().unwrap().gives;
            assert_eq!(*y, WireTrackStep { trade: 1, ..WireTrackStep::default() });
        }
        // Board 1's red first step costs 1 wood, provisional (armada.md §10.3, the module doc).
        if let Some(c) = w.cities.iter().find(|c| c.board == 1) {
            let red = c.ships[0].next.as_ref().unwrap();
            assert_eq!((red.coins, red.resources.as_str(), red.cost_provisional), (0, "W", true));
            assert_eq!(c.wonder_fleet, "red");
        }
    }
}
