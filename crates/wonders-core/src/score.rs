//! Final scoring by category (rulebook 002, 總分數計算細則), and the ranking.

use crate::armada::ArmadaCity;
use crate::card::{CardId, Colour};
use crate::catalog::Catalog;
use crate::city::City;
use crate::effect::{Effect, Scope};
use crate::seating::{count, left_of, right_of};
use serde::{Deserialize, Serialize};

/// A score sheet, in the order of the rulebook's score pad.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Score {
    /// Military tokens.
    pub military: i32,
    /// 1 point per 3 coins.
    pub treasury: i32,
    /// Wonder stages' points.
    pub wonder: i32,
    /// Blue cards.
    pub civilian: i32,
    /// Green cards and wild symbols (a copied Scientists Guild included).
    pub science: i32,
    /// Yellow cards' end points.
    pub commercial: i32,
    /// Purple cards (a guild copied by Olympia B included).
    pub guilds: i32,
    /// Edifice: end-game rewards of the completed projects held, minus debt tokens (0 without
    /// the expansion; [`crate::edifice::score`]).
    /// Left out of the JSON when 0, so base-game records and score lines read as before.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub edifice: i32,
    /// Armada: the naval conflict tokens (armada.md §2.5; 0 without the expansion, and left out
    /// of the JSON when 0 like `edifice`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub naval: i32,
    /// Armada: the blue fleet's VP (the blue ship's space, armada.md §10.2).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub fleet: i32,
    /// Armada: the islands' VP (printed VP, Pirate Port, Haven, Rainbow and Luxury
    /// Archipelago; armada.md §6). Card VP stay in their card's category.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub islands: i32,
    /// The sum.
    pub total: i32,
}

fn is_zero(v: &i32) -> bool {
    *v == 0
}

impl Score {
    /// Category names, in order, as used in JSON.
    pub const CATEGORIES: [&'static str; 12] = [
        "military",
        "treasury",
        "wonder",
        "civilian",
        "science",
        "commercial",
        "guilds",
        "edifice",
        "naval",
        "fleet",
        "islands",
        "total",
    ];

    /// The categories of Armada ([`Score::CATEGORIES`]' `naval`, `fleet`, `islands`), which
    /// faces show only for games with that expansion.
    pub const ARMADA_CATEGORIES: [&'static str; 3] = ["naval", "fleet", "islands"];

    /// The indices into [`Score::CATEGORIES`] a face shows for a game: every category, Armada's
    /// three only when `armada` is played (a base or Edifice game shows the sheet it always did).
    ///
    /// ```
    /// use wonders_core::Score;
    /// assert_eq!(Score::shown(false).count(), 9);
    /// let names: Vec<_> = Score::shown(true).map(|i| Score::CATEGORIES[i]).collect();
    /// assert_eq!(names[8..], ["naval", "fleet", "islands", "total"]);
    /// ```
    pub fn shown(armada: bool) -> impl Iterator<Item = usize> {
        (0..Self::CATEGORIES.len()).filter(move |&i| armada || !(8..11).contains(&i))
    }

    /// The values in the order of [`Score::CATEGORIES`].
    pub fn values(&self) -> [i32; 12] {
        [
            self.military,
            self.treasury,
            self.wonder,
            self.civilian,
            self.science,
            self.commercial,
            self.guilds,
            self.edifice,
            self.naval,
            self.fleet,
            self.islands,
            self.total,
        ]
    }

    /// The sum of every category but `total`.
    pub fn sum(&self) -> i32 {
        let v = self.values();
        v[..v.len() - 1].iter().sum()
    }

    pub(crate) fn add(&mut self, colour: Colour, points: i32) {
        match colour {
            Colour::Yellow => self.commercial += points,
            Colour::Purple => self.guilds += points,
            _ => self.civilian += points,
        }
    }
}

/// Science points for symbol counts (compass, gear, tablet) plus `wild` symbols placed to score
/// the most (002 計分 5: the squares plus 7 per set of three; base-1e.md §4.6).
///
/// ```
/// use wonders_core::score::science_points;
/// assert_eq!(science_points([3, 2, 1], 0), 21); // 002's example
/// assert_eq!(science_points([3, 2, 2], 0), 31); // one more symbol (base-1e.md §3 item 9)
/// assert_eq!(science_points([2, 2, 1], 1), 26); // the wild makes 2/2/2: 12 + 2 × 7
/// ```
pub fn science_points(counts: [u8; 3], wild: u8) -> i32 {
    fn raw(c: [u8; 3]) -> i32 {
        let [a, b, d] = c.map(|x| x as i32);
        a * a + b * b + d * d + 7 * a.min(b).min(d)
    }
    if wild == 0 {
        return raw(counts);
    }
    (0..3)
        .map(|i| {
            let mut c = counts;
            c[i] += 1;
            science_points(c, wild - 1)
        })
        .max()
        .unwrap_or(0)
}

/// The end-game points of one card's effects, from `seat`'s point of view; with `guild_cap`, a
/// guild scores at most that many (Armada: 10, armada.md §2.4).
fn card_points(
    catalog: &Catalog,
    cities: &[City],
    seat: usize,
    card: CardId,
    score: &mut Score,
    guild_cap: Option<u8>,
) {
    let hot = catalog.hot(card);
    if let Some(points) = hot.plain_points {
        // Only fixed points (most cards score none): the effects need not be read.
        let mut total = i32::from(points);
        if let Some(cap) = guild_cap.filter(|_| hot.colour == Colour::Purple) {
            total = total.min(i32::from(cap));
        }
        score.add(hot.colour, total);
        return;
    }
    card_points_from_effects(catalog, cities, seat, card, score, guild_cap);
}

/// [`card_points`] read from every effect of the card.
fn card_points_from_effects(
    catalog: &Catalog,
    cities: &[City],
    seat: usize,
    card: CardId,
    score: &mut Score,
    guild_cap: Option<u8>,
) {
    let def = catalog.card(card);
    let city = &cities[seat];
    let mut total = 0;
    for e in &def.effects {
        let points = match *e {
            Effect::Points(p) => p as i32,
            Effect::CoinsAndPointsPer { what, points, .. } => {
                (count(cities, seat, what, Scope { own: true, neighbours: false }) * points as u32) as i32
            }
            Effect::PointsPer { what, scope, points } => {
                (count(cities, seat, what, scope) * points as u32) as i32
            }
            Effect::PointsIfWonderComplete(p) if city.stages >= city.stage_count(catalog) => p as i32,
            _ => 0,
        };
        total += points;
    }
    if let Some(cap) = guild_cap.filter(|_| def.is_guild()) {
        total = total.min(i32::from(cap));
    }
    score.add(def.colour, total);
}

/// The points a second application of `guild`, one of `seat`'s guilds, adds at game end (the
/// Agora, edifice.md §5.3: "apply one of your purple cards a second time"): its points again,
/// at most 10 with Armada (000 行會計分: every guild application obeys the cap), and its
/// science symbols again: a second Scientists Guild is a second wild symbol, worth what it adds
/// to the science score (with Armada's "most" symbols placed as [`crate::armada::score`] does).
pub(crate) fn repeat_guild(
    catalog: &Catalog,
    cities: &[City],
    armada: Option<(&ArmadaCity, &crate::armada::ArmadaData)>,
    seat: usize,
    guild: CardId,
) -> i32 {
    let mut s = Score::default();
    card_points(catalog, cities, seat, guild, &mut s, armada.map(|_| crate::armada::GUILD_CAP));
    let city = &cities[seat];
    let (mut science, mut wild) = (city.science, city.science_wild);
    for e in &catalog.card(guild).effects {
        match *e {
            Effect::Science(x) => science[x as usize] += 1,
            Effect::ScienceWild => wild += 1,
            _ => {}
        }
    }
    let (most, more) = match armada {
        Some((a, data)) => {
            let more = catalog.armada_card(guild).filter(|id| usize::from(id.0) < data.cards().len()).map_or(
                0,
                |id| {
                    data.card(id)
                        .effects
                        .iter()
                        .filter(|e| **e == crate::armada::ArmadaEffect::ScienceMost)
                        .count()
                },
            );
            (a.science_most(data), more as u8)
        }
        None => (0, 0),
    };
    let before = crate::armada::score::science_with_most(city.science, city.science_wild, most);
    let after = crate::armada::score::science_with_most(science, wild, most + more);
    s.civilian + s.commercial + s.guilds + after - before
}

/// The score of the city at `seat` among `cities` (seated clockwise), in a game without Armada.
pub fn score_city(catalog: &Catalog, cities: &[City], seat: usize) -> Score {
    score_city_with(catalog, cities, None, seat)
}

/// The score of the city at `seat` among `cities`; `armada` holds every city's Armada state in a
/// game played with Armada (on a catalog with Armada data), adding its rules: guilds capped at
/// 10 VP each, the extra science symbols, Armada card VP and the `naval`, `fleet` and `islands`
/// categories ([`crate::armada::score`]). The game and the table format both score through here.
pub fn score_city_with(
    catalog: &Catalog,
    cities: &[City],
    armada: Option<&[ArmadaCity]>,
    seat: usize,
) -> Score {
    let plain = score_without_copy(catalog, cities, armada, seat);
    if !cities[seat].copies_guild {
        return plain;
    }
    // Olympia B stage 3 (002 奧林匹亞 B 說明; base-1e.md §4.9): at game end, a guild of either
    // neighbour is scored "as if the player had built it" — so it counts as one of the city's
    // cards (a copied Shipowners Guild counts itself; a copied Scientists Guild is a wild symbol
    // under science) — and the owner is unaffected. The copy worth most is taken.
    let n = cities.len();
    let mut best = plain;
    let mut copy: Vec<City> = cities.to_vec();
    for other in [left_of(seat, n), right_of(seat, n)] {
        for guild in cities[other].built.iter().filter(|&g| catalog.card(g).is_guild()) {
            copy[seat] = cities[seat];
            copy[seat].place(catalog, guild);
            let s = score_without_copy(catalog, &copy, armada, seat);
            if s.total > best.total {
                best = s;
            }
        }
    }
    best
}

fn score_without_copy(
    catalog: &Catalog,
    cities: &[City],
    armada: Option<&[ArmadaCity]>,
    seat: usize,
) -> Score {
    let city = &cities[seat];
    let armada = match (armada.and_then(|a| a.get(seat)), catalog.armada.as_deref()) {
        (Some(a), Some(data)) => Some((a, data)),
        _ => None,
    };
    let guild_cap = armada.map(|_| crate::armada::GUILD_CAP);
    let mut s = Score { military: city.tokens.points(), treasury: city.coins as i32 / 3, ..Score::default() };
    for i in 0..city.stages as usize {
        for e in city.stage_effects(catalog, i) {
            if let Effect::Points(p) = e {
                s.wonder += *p as i32;
            }
        }
    }
    for card in city.built.iter() {
        card_points(catalog, cities, seat, card, &mut s, guild_cap);
    }
    s.science = science_points(city.science, city.science_wild);
    if catalog.edifice.is_some() {
        s.edifice = crate::edifice::score(catalog, cities, armada, seat);
    }
    if let Some((a, data)) = armada {
        crate::armada::score::apply(data, city, a, &mut s);
    }
    s.total = s.sum();
    s
}

/// Every city's score.
pub fn score_all(catalog: &Catalog, cities: &[City]) -> Vec<Score> {
    (0..cities.len()).map(|s| score_city(catalog, cities, s)).collect()
}

/// Every city's score, with every city's Armada state in a game played with Armada
/// ([`score_city_with`]).
pub fn score_all_with(catalog: &Catalog, cities: &[City], armada: Option<&[ArmadaCity]>) -> Vec<Score> {
    (0..cities.len()).map(|s| score_city_with(catalog, cities, armada, s)).collect()
}

/// Standard competition ranks (1 = winner): by total, then by coins; players still level share
/// the place, and the next place is skipped (002 遊戲結束; base-1e.md §4.8).
///
/// ```
/// use wonders_core::score::ranks;
/// assert_eq!(ranks(&[(50, 3), (50, 3), (40, 9), (50, 1)]), vec![1, 1, 4, 3]);
/// ```
pub fn ranks(total_and_coins: &[(i32, u16)]) -> Vec<u8> {
    total_and_coins
        .iter()
        .map(|&(t, c)| {
            1 + total_and_coins.iter().filter(|&&(t2, c2)| t2 > t || (t2 == t && c2 > c)).count() as u8
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_points_read_from_the_hot_table_are_the_points_the_effects_give() {
        use crate::edifice::Expansions;
        use crate::{Edition, Game, Setup, WonderDeal};
        use rand::{RngExt, SeedableRng};
        let kinds = [
            (Catalog::get(Edition::First), Expansions::NONE),
            (Catalog::get(Edition::Second), Expansions::NONE),
            (Catalog::extended(Edition::First), Expansions::EDIFICE),
            (Catalog::with_builtin_armada(Edition::First, false), Expansions::ARMADA),
        ];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let (mut fixed, mut counted) = (0, 0);
        for (catalog, expansions) in kinds {
            for seed in 0..12 {
                let players = 3 + (seed % 5) as u8;
                let setup = Setup {
                    edition: catalog.edition,
                    players,
                    seed,
                    wonders: WonderDeal::Random,
                    expansions,
                    teams: false,
                };
                let mut game = Game::with_catalog(catalog, &setup).unwrap();
                let mut legal = Vec::new();
                while !game.is_over() {
                    for seat in game.to_act() {
                        game.legal_actions_into(seat, &mut legal);
                        let action = legal[rng.random_range(..legal.len())];
                        game.submit(seat, action).unwrap();
                    }
                }
                let cities = game.cities();
                for seat in 0..cities.len() {
                    for card in cities[seat].built.iter() {
                        for cap in [None, Some(crate::armada::GUILD_CAP)] {
                            let (mut a, mut b) = (Score::default(), Score::default());
                            card_points(catalog, cities, seat, card, &mut a, cap);
                            card_points_from_effects(catalog, cities, seat, card, &mut b, cap);
                            assert_eq!(a, b, "{} in seat {seat}", catalog.card(card).name);
                        }
                        match catalog.hot(card).plain_points {
                            Some(_) => fixed += 1,
                            None => counted += 1,
                        }
                    }
                }
            }
        }
        assert!(fixed > 1000 && counted > 50, "both ways taken: {fixed} fixed, {counted} counted");
    }

    #[test]
    fn rulebook_science_examples() {
        // 002 計分 5: 3/2/1 symbols give 9 + 4 + 1 + 7 = 21; one more symbol in the family that
        // had 1 gives 31 (the EN arithmetic; base-1e.md §3 item 9).
        assert_eq!(science_points([3, 2, 1], 0), 21);
        assert_eq!(science_points([3, 2, 2], 0), 31);
        // The ceiling with two wilds: 6 identical symbols = 36.
        assert_eq!(science_points([4, 0, 0], 2), 36);
    }

    #[test]
    fn wild_is_not_always_added_to_the_largest_family() {
        // 3/3/2 plus a wild: 4/3/2 = 16+9+4+14 = 43, but 3/3/3 = 27+21 = 48.
        assert_eq!(science_points([3, 3, 2], 1), 48);
        // 1/1/0 plus a wild: 1/1/1 = 3+7 = 10 beats 2/1/0 = 5.
        assert_eq!(science_points([1, 1, 0], 1), 10);
    }

    #[test]
    fn ranking_breaks_ties_by_coins_then_shares() {
        assert_eq!(ranks(&[(60, 5), (60, 7), (55, 0)]), vec![2, 1, 3]);
        assert_eq!(ranks(&[(60, 5), (60, 5), (55, 0)]), vec![1, 1, 3]);
    }
}
