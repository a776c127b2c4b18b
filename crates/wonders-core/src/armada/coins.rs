//! Step 6 of a turn's resolution: the coin losses to taxes and pirates (armada.md §2.4 item 6,
//! §2.7, §10.9; 000 回合結算, 賦稅, 海盜). Every coin lost goes to the bank.
//!
//! - **Taxes.** A player whose yellow ship *reached* a tax space this turn levies that tax once.
//!   If several taxes are levied in one turn, only the highest applies: the player who levied it
//!   pays nothing; every other player (lower taxers included) loses `max(0, tax − own trade
//!   level)`.
//! - **Piracy.** Each pirate effect of the turn (the pirate cards, Pirate Port on arrival) makes
//!   every *other* player lose 1 coin per trade level they have. Several pirate effects in one
//!   turn each apply (the symbol sheet limits only taxes to once per turn: armada/mod.rs).
//! - **Misty Isle** (迷霧島): its owner loses nothing to either.
//! - A loss a player cannot pay in full (without Cities): the player pays what they have, down
//!   to 0 (§10.9, provisional).
//!
//! Decided here (the rulebook is silent): when two or more players levy the **same highest**
//! tax in one turn, the tax still applies once, and each of them counts as the player who levied
//! it, so none of them pays it (a levier is never taxed by an equal tax it levied too).

/// What one seat brings to step 6 of a turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CoinSeat {
    /// The tax this seat levied this turn (its yellow ship reached a tax space); 0 = none.
    pub tax: u8,
    /// The number of pirate effects this seat resolved this turn.
    pub piracy: u8,
    /// Its trade level at the end of the turn (the yellow ship's space).
    pub trade: u8,
    /// Whether it holds Misty Isle (no coin loss to taxes or pirates).
    pub immune: bool,
    /// Its coins before the losses.
    pub coins: u16,
}

/// Each seat's coin loss at step 6: `out[i]` receives what seat `i` pays the bank, never more
/// than its coins. `seats` and `out` have one entry per seat.
///
/// ```
/// use wonders_core::armada::coins::{coin_losses, CoinSeat};
/// // Seat 0 levies a tax of 2; seat 1 (trade level 1) loses 1, seat 2 (trade level 2) nothing.
/// let s = |tax, trade| CoinSeat { tax, trade, coins: 5, ..CoinSeat::default() };
/// let mut out = [0; 3];
/// coin_losses(&[s(2, 2), s(0, 1), s(0, 2)], &mut out);
/// assert_eq!(out, [0, 1, 0]);
/// ```
pub fn coin_losses(seats: &[CoinSeat], out: &mut [u16]) {
    let n = seats.len().min(out.len());
    // The turn's highest tax and its piracies, summed once for every seat.
    let turn = TurnLosses::of(&seats[..n]);
    for (s, o) in seats[..n].iter().zip(&mut out[..n]) {
        let (tax_loss, piracy_loss) = turn.owed(s);
        *o = if s.immune { 0 } else { (tax_loss + piracy_loss).min(u32::from(s.coins)) as u16 };
    }
}

/// What every seat's step-6 loss is worked out from: the turn's highest tax and the number of
/// its piracies, read once from all the seats (rather than once per seat).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TurnLosses {
    /// The highest tax levied this turn (0: none).
    pub(crate) tax: u8,
    /// The piracies of every seat this turn.
    pub(crate) pirates: u32,
}

impl TurnLosses {
    /// The highest tax and the piracies of `seats`.
    pub(crate) fn of(seats: &[CoinSeat]) -> TurnLosses {
        let tax = seats.iter().map(|s| s.tax).max().unwrap_or(0);
        let pirates = seats.iter().map(|s| u32::from(s.piracy)).sum();
        TurnLosses { tax, pirates }
    }

    /// The same from each seat's tax and piracies alone (one entry per seat in each).
    pub(crate) fn of_turn(taxes: &[u8], piracies: &[u8]) -> TurnLosses {
        let tax = taxes.iter().copied().max().unwrap_or(0);
        let pirates = piracies.iter().map(|&p| u32::from(p)).sum();
        TurnLosses { tax, pirates }
    }

    /// What seat `s` (one of the seats it was read from) owes, as [`owed`] says.
    pub(crate) fn owed(self, s: &CoinSeat) -> (u32, u32) {
        let levied_it = self.tax > 0 && s.tax == self.tax;
        let tax_loss = if levied_it { 0 } else { u32::from(self.tax.saturating_sub(s.trade)) };
        let piracy_loss = (self.pirates - u32::from(s.piracy)) * u32::from(s.trade);
        (tax_loss, piracy_loss)
    }
}

/// What seat `i` owes at step 6, as (to the turn's highest tax, to the other seats' piracies),
/// before Misty Isle and before what it can pay: `max(0, tax − trade)` unless it levied that
/// tax, and its trade level for each piracy of another seat.
///
/// ```
/// use wonders_core::armada::coins::{owed, CoinSeat};
/// // Seat 0 levies a tax of 3 and is a pirate; seat 1 (trade level 1) owes 2 and 1.
/// let seats = [
///     CoinSeat { tax: 3, piracy: 1, ..CoinSeat::default() },
///     CoinSeat { trade: 1, coins: 9, ..CoinSeat::default() },
/// ];
/// assert_eq!(owed(&seats, 1), (2, 1));
/// assert_eq!(owed(&seats, 0), (0, 0));
/// ```
pub fn owed(seats: &[CoinSeat], i: usize) -> (u32, u32) {
    let Some(s) = seats.get(i) else {
        return (0, 0);
    };
    TurnLosses::of(seats).owed(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(tax: u8, piracy: u8, trade: u8, coins: u16) -> CoinSeat {
        CoinSeat { tax, piracy, trade, immune: false, coins }
    }

    #[test]
    fn the_turns_tax_and_piracies_read_once_give_what_each_seat_owes() {
        // Seat 0 levies 2 and is a pirate (trade 1); seat 1 levies 4 (trade 0); seat 2 resolves
        // two piracies (trade 3). The turn's tax is 4 and it has 3 piracies.
        let seats = [seat(2, 1, 1, 9), seat(4, 0, 0, 9), seat(0, 2, 3, 9)];
        let turn = TurnLosses::of(&seats);
        assert_eq!(turn, TurnLosses { tax: 4, pirates: 3 });
        // Read from the taxes and piracies alone: the same.
        assert_eq!(TurnLosses::of_turn(&[2, 4, 0], &[1, 0, 2]), turn);
        assert_eq!(TurnLosses::of_turn(&[], &[]), TurnLosses { tax: 0, pirates: 0 });
        // Seat 0: 4 − 1 to the tax, the 2 other piracies × trade 1; seat 1 levied the tax and
        // has trade 0; seat 2: 4 − 3, the 1 other piracy × trade 3.
        let owed_each: Vec<_> = seats.iter().map(|s| turn.owed(s)).collect();
        assert_eq!(owed_each, vec![(3, 2), (0, 0), (1, 3)]);
        assert!((0..3).all(|i| owed(&seats, i) == owed_each[i]));
        assert_eq!(run(&seats), vec![5, 0, 4]);
    }

    fn run(seats: &[CoinSeat]) -> Vec<u16> {
        let mut out = vec![99; seats.len()];
        coin_losses(seats, &mut out);
        out
    }

    #[test]
    fn two_leviers_only_the_highest_applies() {
        // Seat 0 reached yellow step 6 (tax 4, trade 3), seat 1 step 2 (tax 1, trade 1). Only the
        // tax of 4 applies: seat 0 pays nothing; seat 1 pays 4 − 1 = 3 like everyone else;
        // seat 2 (trade 0) pays 4; seat 3 (trade 2) pays 2.
        let seats = [seat(4, 0, 3, 9), seat(1, 0, 1, 9), seat(0, 0, 0, 9), seat(0, 0, 2, 9)];
        assert_eq!(run(&seats), [0, 3, 4, 2]);
    }

    #[test]
    fn two_leviers_of_the_same_tax_both_pay_nothing() {
        // Decided (module docs): both levied the highest tax (2); the tax applies once.
        let seats = [seat(2, 0, 2, 9), seat(2, 0, 1, 9), seat(0, 0, 0, 9)];
        assert_eq!(run(&seats), [0, 0, 2]);
    }

    #[test]
    fn trade_above_the_tax_loses_nothing_and_gains_nothing() {
        // Tax 1 (yellow step 2): trade level 2 and 3 lose nothing; trade 0 loses 1.
        let seats = [seat(1, 0, 1, 5), seat(0, 0, 2, 5), seat(0, 0, 3, 5), seat(0, 0, 0, 5)];
        assert_eq!(run(&seats), [0, 0, 0, 1]);
    }

    #[test]
    fn piracy_with_misty_isle() {
        // Seat 0 plays a pirate card: each other player loses its trade level (000's example:
        // a player at yellow step 3, trade level 2, loses 2). Seat 2 holds Misty Isle.
        let mut seats = [seat(0, 1, 2, 5), seat(0, 0, 2, 5), seat(0, 0, 3, 5), seat(0, 0, 1, 5)];
        seats[2].immune = true;
        assert_eq!(run(&seats), [0, 2, 0, 1]);
    }

    #[test]
    fn two_pirates_and_a_tax_add_up() {
        // Seats 0 and 1 each play a pirate card; seat 1 also levies a tax of 2.
        // Seat 0 (trade 1): 1 (seat 1's piracy) + 1 (tax 2 − 1) = 2.
        // Seat 1 (trade 2): 2 (seat 0's piracy), no tax (its own).
        // Seat 2 (trade 1): 1 + 1 (piracies) + 1 (tax) = 3.
        let seats = [seat(0, 1, 1, 9), seat(2, 1, 2, 9), seat(0, 0, 1, 9)];
        assert_eq!(run(&seats), [2, 2, 3]);
    }

    #[test]
    fn a_loss_that_cannot_be_paid_in_full() {
        // Tax 4, trade 0, 3 coins: pays 3 and is left with 0 (§10.9, provisional).
        let seats = [seat(4, 0, 3, 0), seat(0, 0, 0, 3), seat(0, 0, 0, 0)];
        assert_eq!(run(&seats), [0, 3, 0]);
    }

    #[test]
    fn nothing_levied_nothing_lost() {
        let seats = [seat(0, 0, 3, 5), seat(0, 0, 0, 5)];
        assert_eq!(run(&seats), [0, 0]);
    }
}
