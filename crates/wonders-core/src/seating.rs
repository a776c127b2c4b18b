//! The ring of cities: who sits left and right of a seat, and what a card's scope (its own city,
//! its neighbours) counts. Cities sit clockwise; seat `i`'s left neighbour is seat `i + 1`, its
//! right neighbour seat `i − 1`, both modulo the number of cities (the Free City included in the
//! 2-player variant).

use crate::city::City;
use crate::effect::{Counted, Scope};

/// The left neighbour of `seat` among `n` (seat i+1; base-1e.md §4.9 "Passing"): `(seat + 1) % n`.
///
/// For a seat of the table (`seat < n`) it is worked out without a division (a division is the
/// slowest instruction of a turn's resolution, which asks for neighbours at every payment).
///
/// ```
/// use wonders_core::game::{left_of, right_of};
/// assert_eq!([0, 1, 2, 3].map(|s| left_of(s, 4)), [1, 2, 3, 0]);
/// assert_eq!([0, 1, 2, 3].map(|s| right_of(s, 4)), [3, 0, 1, 2]);
/// assert_eq!((left_of(9, 4), right_of(9, 4)), (2, 0));
/// ```
#[inline]
pub const fn left_of(seat: usize, n: usize) -> usize {
    let next = seat + 1;
    if next <= n { if next == n { 0 } else { next } } else { next % n }
}

/// The right neighbour of `seat` among `n` (seat i−1): `(seat + n - 1) % n`, without a division
/// for a seat of the table.
#[inline]
pub const fn right_of(seat: usize, n: usize) -> usize {
    if seat < n { if seat == 0 { n - 1 } else { seat - 1 } } else { (seat + n - 1) % n }
}

/// Counts `what` in the cities `scope` names, seen from `seat`.
pub fn count(cities: &[City], seat: usize, what: Counted, scope: Scope) -> u32 {
    let n = cities.len();
    let one = |c: &City| -> u32 {
        match what {
            Counted::Colours(mask) => c.count_colours(mask),
            Counted::WonderStages => c.stages as u32,
            Counted::Defeats => c.tokens.minus1 as u32,
        }
    };
    let mut total = 0;
    if scope.own {
        total += one(&cities[seat]);
    }
    if scope.neighbours {
        total += one(&cities[left_of(seat, n)]) + one(&cities[right_of(seat, n)]);
    }
    total
}
