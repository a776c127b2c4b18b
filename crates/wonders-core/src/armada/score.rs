//! Scoring with Armada (armada.md §2.4, §2.5, §5, §6, §10.2; 000 計分): what the expansion adds to
//! a city's score sheet. [`crate::score::score_city_with`] calls [`apply`] for each city of a game
//! played with Armada, so the game, the bots and the table format score in this one place.
//!
//! - **Guilds** score at most [`super::GUILD_CAP`] (10) VP each (§2.4): applied to every guild
//!   card by [`crate::score`] when Armada is played.
//! - **Card VP stay in their card's category**: Customs House's 2 VP per trade level is
//!   commercial (its colour); the blue Armada cards' printed VP are civilian (they are base
//!   effects of the catalog card).
//! - **Extra science symbols**: each "the one you have most of" symbol (Explorers' Office,
//!   Navigators' Guild, Captains' Club, Emerald Archipelago) and each wild symbol (Golden
//!   Archipelago, Babylon, Scientists Guild) is placed at game end. Decided (armada/mod.rs's
//!   proposal): they are placed one at a time, in the order best for the player; a "most" symbol
//!   goes on a family that is most numerous at that moment (the player chooses among tied ones),
//!   a wild symbol anywhere; the best total is kept.
//! - `naval`: the sum of the naval conflict tokens; `fleet`: the blue ship's space (§10.2);
//!   `islands`: the islands' VP: printed VP (Inhabited Isle 3, Colossus Port 5, Sovereign
//!   Archipelago 7, Pirate Port 3), Luxury Archipelago 2 per trade level, Haven Archipelago 2 per
//!   island (itself included), Rainbow Archipelago 1 per card of the colour the player has most
//!   of (the best choice).

use super::{ArmadaCity, ArmadaData, ArmadaEffect};
use crate::card::Colour;
use crate::city::City;
use crate::effect::Effect;
use crate::score::{Score, science_points};

/// Science points for symbol counts (compass, gear, tablet) with `wild` symbols placed anywhere
/// and `most` symbols each placed on a family with the most symbols at that moment, in the order
/// and with the choices that score the most (see the module docs).
///
/// ```
/// use wonders_core::armada::score::science_with_most;
/// // 3/2/1: the "most" symbol goes on the 3 → 4/2/1 = 16 + 4 + 1 + 7 = 28.
/// assert_eq!(science_with_most([3, 2, 1], 0, 1), 28);
/// // Without any extra symbol it is the base count.
/// assert_eq!(science_with_most([3, 2, 1], 0, 0), 21);
/// ```
pub fn science_with_most(counts: [u8; 3], wild: u8, most: u8) -> i32 {
    if most == 0 {
        return science_points(counts, wild);
    }
    let mut best = i32::MIN;
    let top = *counts.iter().max().unwrap_or(&0);
    for i in 0..3 {
        if counts[i] == top {
            let mut c = counts;
            c[i] += 1;
            best = best.max(science_with_most(c, wild, most - 1));
        }
    }
    // Or place a wild symbol first (it may change which family is most numerous).
    if wild > 0 {
        for i in 0..3 {
            let mut c = counts;
            c[i] += 1;
            best = best.max(science_with_most(c, wild - 1, most));
        }
    }
    best
}

/// Adds Armada's part to the score sheet `s` of `city` (already scored by the base rules with
/// the guild cap): the science with the extra symbols, Armada card VP in their card's category,
/// and the `naval`, `fleet` and `islands` categories. `s.total` is left to the caller.
pub fn apply(data: &ArmadaData, city: &City, armada: &ArmadaCity, s: &mut Score) {
    let trade = i32::from(armada.trade_level(data));
    // Science (§5, §6): the extra "most" symbols; Golden Archipelago's wild symbol is in
    // `city.science_wild` (gained with the island, `ArmadaCity::gain_island`).
    let most = armada.science_most(data);
    if most > 0 {
        s.science = science_with_most(city.science, city.science_wild, most);
    }
    // Armada card VP in their card's category (Customs House: commercial).
    for a in armada.card_ids().filter(|c| usize::from(c.0) < data.cards().len()) {
        let def = data.card(a);
        for e in &def.effects {
            if let ArmadaEffect::PointsPerTradeLevel(n) = e {
                let points = i32::from(*n) * trade;
                match def.colour {
                    Colour::Yellow => s.commercial += points,
                    Colour::Purple => s.guilds += points,
                    _ => s.civilian += points,
                }
            }
        }
    }
    s.naval = armada.naval_points();
    s.fleet = i32::from(armada.fleet_points(data));
    let islands = armada.islands.len() as i32;
    let best_colour = i32::from(*city.colour_counts.iter().max().unwrap_or(&0));
    let mut vp = 0;
    for i in armada.islands.iter().filter(|i| usize::from(i.0) < data.islands().len()) {
        for e in &data.island(i).effects {
            vp += match *e {
                ArmadaEffect::Base(Effect::Points(p)) => i32::from(p),
                ArmadaEffect::PointsPerTradeLevel(n) => i32::from(n) * trade,
                ArmadaEffect::PointsPerIsland(n) => i32::from(n) * islands,
                ArmadaEffect::PointsPerBestColour(n) => i32::from(n) * best_colour,
                _ => 0,
            };
        }
    }
    s.islands = vp;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn most_symbols_follow_the_largest_family() {
        // 2/2/0 with one "most": on a 2 → 3/2/0 = 9 + 4 = 13 (a "most" may not fill the 0).
        assert_eq!(science_with_most([2, 2, 0], 0, 1), 13);
        // With a wild too: wild on the 0 first (2/2/1), then "most" on a 2 → 3/2/1 = 21;
        // or "most" first (3/2/0) then wild on the 0 → 3/2/1 = 21; or both on a 2 → 4/2/0 = 20.
        assert_eq!(science_with_most([2, 2, 0], 1, 1), 21);
        // Two "most" symbols: 1/1/1 → 2/1/1 (most on any) → 3/1/1 = 9+1+1+7 = 18.
        assert_eq!(science_with_most([1, 1, 1], 0, 2), 18);
        // No symbol at all: a "most" goes on any family (all tied at 0): 1/0/0 = 1.
        assert_eq!(science_with_most([0, 0, 0], 0, 1), 1);
    }
}
