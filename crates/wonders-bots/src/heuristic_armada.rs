//! The heuristic's Armada terms, fleet by fleet (armada.md §2.3–§2.7; used only when the view has
//! Armada, so the base game plays exactly as without them). Values are in points, like the rest of
//! the [`heuristic`](crate::heuristic):
//!
//! - **red** (naval strength, any track's naval symbols too): 1 + Age points per strength point,
//!   plus half the change in the naval token this city would take at each Age end still to come
//!   against the others' strength today (tokens of §2.5: weakest −1/−2/−3, first 3/5/7, second
//!   1/3/5, third 3 in Age III; tied strongest take the second token; later Ages count half: the
//!   others' fleets grow too);
//! - **yellow**: coins on arrival (a third of a point each), the tax levied (what the others
//!   would lose, `max(0, tax − their trade level)`, half counted: their loss is not this city's
//!   gain), and the trade level (protection from taxes, exposure to piracy: a small value that
//!   shrinks as the game runs out);
//! - **blue**: the track's points;
//! - **green**: an exploration is worth the expected island of that level: the mean worth of the
//!   islands not in play (the unseen ones, from the data), plus half the gap to the best of them
//!   (the explorer keeps the best of the cards it is dealt); a step just short of an exploration
//!   is worth half of it;
//! - **islands**: an island's worth is its printed points, shields, naval symbols (as red
//!   strength), free moves (as the moves they make) and a flat value for lasting powers; the
//!   free-move ships of White-Surf and Tempest are valued as the moves of the ships chosen;
//! - **Forgotten Port**: stay out of the naval conflict exactly when taking part would give the
//!   weakest player's (negative) token.

use crate::ctx::Ctx;
use wonders_core::armada::{ArmadaData, ArmadaEffect, Fleet, FleetChoice, IslandId, Shipyard, naval_tokens};
use wonders_core::effect::Effect;

/// The acting city's naval strength and the others'.
fn strengths(ctx: &Ctx, data: &ArmadaData) -> (u8, Vec<u8>) {
    let mine = ctx.armada_cities.get(ctx.city).map_or(0, |c| c.naval_strength(data));
    let others = (0..ctx.armada_cities.len())
        .filter(|&i| i != ctx.city)
        .map(|i| ctx.armada_cities[i].naval_strength(data))
        .collect();
    (mine, others)
}

/// The naval token of Age `age` for strength `s` against `others` (§2.5, simplified: the tie
/// rules beyond "tied strongest take the second token" are left out; all equal gives nothing).
pub(crate) fn token(age: u8, s: u8, others: &[u8]) -> f32 {
    let t = naval_tokens(age);
    let Some(&low) = others.iter().min() else {
        return 0.0;
    };
    if others.iter().all(|&o| o == s) {
        return 0.0;
    }
    if s < low {
        return t.weakest as f32;
    }
    let above = others.iter().filter(|&&o| o > s).count();
    let tied = others.contains(&s);
    (match (above, tied) {
        (0, false) => t.first,
        (0, true) | (1, _) => t.second,
        (2, _) => t.third,
        _ => 0,
    }) as f32
}

/// The value of `gain` more naval strength: the token change at each Age end still to come.
fn naval_gain_value(ctx: &Ctx, data: &ArmadaData, gain: u8) -> f32 {
    if gain == 0 {
        return 0.0;
    }
    let (mine, others) = strengths(ctx, data);
    let mut v = 0.0;
    for age in ctx.age.max(1)..=3 {
        let weight = if age == ctx.age { 1.0 } else { 0.5 };
        v += weight * (token(age, mine.saturating_add(gain), &others) - token(age, mine, &others));
    }
    // Strength also keeps a lead as the others grow.
    v + 0.2 * gain as f32 * (3 - ctx.age.min(3)) as f32
}

/// Share of the game still to play (1 at its start, 0 at its end).
fn game_left(ctx: &Ctx) -> f32 {
    let done = (ctx.age.clamp(1, 3) - 1) as f32 * 7.0 + ctx.turn.min(7) as f32;
    (1.0 - done / 21.0).max(0.0)
}

/// The value of moving the acting city's ships one step each, in order (a naval construction,
/// then a free move; or an island's free moves).
pub(crate) fn fleet_moves_value(
    ctx: &Ctx,
    data: &ArmadaData,
    yard: Shipyard,
    moves: impl IntoIterator<Item = Option<Fleet>>,
) -> f32 {
    moves_value(ctx, data, yard, moves, true)
}

/// [`fleet_moves_value`]; `deep`: an exploration is valued by its islands (otherwise, inside an
/// island's own worth, a flat 3 points, so the valuation never recurses).
fn moves_value(
    ctx: &Ctx,
    data: &ArmadaData,
    mut yard: Shipyard,
    moves: impl IntoIterator<Item = Option<Fleet>>,
    deep: bool,
) -> f32 {
    let mut v = 0.0;
    let mut naval = 0u8;
    for f in moves.into_iter().flatten() {
        if !yard.can_advance(f) {
            continue;
        }
        let from = yard.space(data, f);
        let Some(to) = data.track(f, yard.step(f) + 1) else {
            continue;
        };
        yard.steps[f as usize] += 1;
        // Blue: points.
        v += to.points as f32 - from.points as f32;
        // Red (and the other tracks' naval symbols).
        naval = naval.saturating_add(to.naval.saturating_sub(from.naval));
        // Yellow: coins, tax, trade level.
        v += to.coins as f32 / 3.0;
        v += tax_value(ctx, data, to.tax);
        v += (to.trade as f32 - from.trade as f32) * 0.6 * game_left(ctx);
        // Green: an exploration; a step short of one, half the next exploration (the ship
        // gets there with the next green build).
        if to.explore > 0 {
            v += if deep { exploration_value(ctx, data, to.explore) } else { 3.0 };
        } else if f == Fleet::Green
            && deep
            && let Some(next) = data.track(f, yard.step(f) + 1).filter(|n| n.explore > 0)
        {
            v += 0.5 * exploration_value(ctx, data, next.explore);
        }
    }
    v + strength_value(ctx, data, naval)
}

/// Red: each point of naval strength counts toward every naval conflict left (1 + Age points,
/// as the first rules did), plus half the token change it makes against today's strengths.
fn strength_value(ctx: &Ctx, data: &ArmadaData, gain: u8) -> f32 {
    gain as f32 * (1.0 + ctx.age as f32) + 0.5 * naval_gain_value(ctx, data, gain)
}

/// A tax levied: half the coins the others would lose, in points.
fn tax_value(ctx: &Ctx, data: &ArmadaData, tax: u8) -> f32 {
    if tax == 0 {
        return 0.0;
    }
    let lost: u32 = (0..ctx.armada_cities.len())
        .filter(|&i| i != ctx.city)
        .map(|i| tax.saturating_sub(ctx.armada_cities[i].trade_level(data)) as u32)
        .sum();
    0.5 * lost as f32 / 3.0
}

/// The expected worth of exploring a level: the unseen islands' mean, plus half the gap to the
/// best (the explorer keeps the best card dealt to it).
fn exploration_value(ctx: &Ctx, data: &ArmadaData, level: u8) -> f32 {
    let in_play = |i: IslandId| ctx.armada_cities.iter().any(|c| c.islands.contains(i));
    let worths: Vec<f32> = data
        .islands_of_level(level)
        .into_iter()
        .filter(|&i| !in_play(i))
        .map(|i| island_worth(ctx, data, i))
        .collect();
    if worths.is_empty() {
        return 0.0;
    }
    let mean = worths.iter().sum::<f32>() / worths.len() as f32;
    let best = worths.iter().copied().fold(f32::MIN, f32::max);
    mean + 0.5 * (best - mean)
}

/// What an island is worth to the acting city once in play (its free-move choices aside).
pub(crate) fn island_worth(ctx: &Ctx, data: &ArmadaData, island: IslandId) -> f32 {
    let Some(def) = data.islands().get(island.0 as usize) else {
        return 0.0;
    };
    let age = ctx.age.clamp(1, 3) as f32;
    let mut v = 0.0;
    let mut naval = 0u8;
    for e in &def.effects {
        v += match *e {
            ArmadaEffect::Base(Effect::Points(p)) => p as f32,
            ArmadaEffect::Base(Effect::Shields(k)) => k as f32 * (0.5 + age * 0.5),
            ArmadaEffect::Base(Effect::Coins(c)) => c as f32 / 3.0,
            ArmadaEffect::Naval(k) => {
                naval = naval.saturating_add(k);
                0.0
            }
            // Moves are valued where they are chosen (free_moves_value); a fixed ship here.
            ArmadaEffect::FreeMove(FleetChoice::Only(f)) => match ctx.armada {
                Some((_, yard)) => moves_value(ctx, data, yard, [Some(f)], false),
                None => 0.0,
            },
            ArmadaEffect::FreeMove(FleetChoice::Any) | ArmadaEffect::FreeMovesDistinct(_) => 0.0,
            // Lasting powers (production, discounts, immunity, end-game points): a flat value.
            _ => 2.0,
        };
    }
    v + strength_value(ctx, data, naval)
}

/// The free moves an island's `moves` (a bitset of fleets, White-Surf and Tempest) make.
pub(crate) fn free_moves_value(ctx: &Ctx, data: &ArmadaData, yard: Shipyard, moves: u8) -> f32 {
    let fleets = Fleet::ALL.into_iter().filter(|&f| moves & (1 << f as u8) != 0).map(Some);
    fleet_moves_value(ctx, data, yard, fleets)
}

/// Forgotten Port (§6): staying out is worth 0; taking part, the token this Age's conflict would
/// give against today's strengths. The better of the two gets the higher value.
pub(crate) fn stay_out_value(ctx: &Ctx, data: &ArmadaData, stay_out: bool) -> f32 {
    if stay_out {
        return 0.0;
    }
    let (mine, others) = strengths(ctx, data);
    token(ctx.age, mine, &others)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wonders_core::{Expansions, Game, Setup};

    /// A 4-player Armada game at its start with the red ships on the given steps.
    fn game_with_red(steps: [u8; 4]) -> Game {
        let mut g = Game::new(&Setup { expansions: Expansions::ARMADA, ..Setup::new(4, 3) }).unwrap();
        let a = g.armada_mut().unwrap();
        for (c, s) in a.cities.iter_mut().zip(steps) {
            c.shipyard.steps[Fleet::Red as usize] = s;
        }
        g
    }

    #[test]
    fn forgotten_port_stays_out_only_when_it_would_be_weakest() {
        // Red steps 0, 1, 2, 2: naval strength 0 against 1, 2, 2 (red step k = k, armada.md
        // §10.2). Taking part in Age I's conflict gives the weakest token, −1: staying out (0) is
        // better.
        let g = game_with_red([0, 1, 2, 2]);
        let ctx = Ctx::from_game(&g, 0);
        let data = g.armada().unwrap().data;
        assert_eq!(stay_out_value(&ctx, data, false), -1.0);
        assert_eq!(stay_out_value(&ctx, data, true), 0.0);
        // Strength 2, tied strongest with seats 2 and 3: the second token (1) beats staying out.
        let g = game_with_red([2, 1, 2, 2]);
        let ctx = Ctx::from_game(&g, 0);
        assert_eq!(stay_out_value(&ctx, data, false), 1.0);
    }

    #[test]
    fn a_red_move_is_worth_the_token_it_wins() {
        // Seat 0 at strength 1 against 0, 2, 2 (2nd-to-last: no token in Age I). One red step
        // (strength 2) ties the strongest: Age I's second token, 1; Ages II and III count half:
        // Age II second (3) − nothing, Age III: tied strongest → second (5) − third (3). Plus
        // 0.2 per strength point per later Age (2 Ages): 1 + 0.5 × 3 + 0.5 × 2 + 0.4 = 3.9, counted
        // half, on top of 1 + Age = 2 points per strength point: 2 + 1.95 = 3.95.
        let g = game_with_red([1, 0, 2, 2]);
        let ctx = Ctx::from_game(&g, 0);
        let data = g.armada().unwrap().data;
        let yard = g.armada().unwrap().cities[0].shipyard;
        let v = fleet_moves_value(&ctx, data, yard, [Some(Fleet::Red)]);
        assert!((v - 3.95).abs() < 1e-5, "{v}");
    }

    #[test]
    fn an_exploration_is_worth_an_expected_island() {
        // Green step 1 → 2 explores a level-1 island (armada.md §10.2): worth the mean of the
        // level-1 islands plus half the gap to the best, which is more than nothing.
        let g = game_with_red([0, 0, 0, 0]);
        let ctx = Ctx::from_game(&g, 0);
        let data = g.armada().unwrap().data;
        let worths: Vec<f32> =
            data.islands_of_level(1).into_iter().map(|i| island_worth(&ctx, data, i)).collect();
        let mean = worths.iter().sum::<f32>() / worths.len() as f32;
        let best = worths.iter().copied().fold(f32::MIN, f32::max);
        let mut yard = g.armada().unwrap().cities[0].shipyard;
        yard.steps[Fleet::Green as usize] = 1;
        let from = yard.space(data, Fleet::Green);
        let to = data.track(Fleet::Green, 2).unwrap();
        assert_eq!(to.explore, 1);
        let track = (to.points as f32 - from.points as f32) + to.coins as f32 / 3.0;
        let v = fleet_moves_value(&ctx, data, yard, [Some(Fleet::Green)]);
        assert!((v - (track + mean + 0.5 * (best - mean))).abs() < 1e-4, "{v}");
        assert!(mean > 0.5, "level-1 islands are worth something: {mean}");
    }

    #[test]
    fn tokens_follow_the_ranks_of_armada_2_5() {
        // Age I against 1 and 2: strongest alone takes 3; Age III: 7.
        assert_eq!(token(1, 4, &[1, 2]), 3.0);
        assert_eq!(token(3, 4, &[1, 2]), 7.0);
        // Tied strongest take the second token (Age II: 3).
        assert_eq!(token(2, 4, &[4, 2]), 3.0);
        // Below everyone: the weakest token (Age II: −2).
        assert_eq!(token(2, 0, &[1, 2, 3]), -2.0);
        // Third in Age III: 3; third in Age I: nothing.
        assert_eq!(token(3, 2, &[5, 4, 1]), 3.0);
        assert_eq!(token(1, 2, &[5, 4, 1]), 0.0);
        // All equal: nothing.
        assert_eq!(token(3, 2, &[2, 2, 2]), 0.0);
    }
}
