//! [`Hand`]: the cards a player holds, as a small `Copy` value.
//!
//! Every turn the game notes the hand each seat was shown (what the seat may remember of it,
//! for its view), and every pass moves the hands round the table: a hand that is a 10-byte
//! `Copy` value is copied in two moves instead of card by card.

use crate::card::CardId;
use std::fmt;
use std::ops::{Deref, DerefMut};

/// The most cards a hand can hold: 7 dealt, 8 with Armada's 8-player hands, and the Free City
/// card its holder takes in the 2-player variant.
pub const HAND_MAX: usize = 9;

/// A hand of cards, in order, at most [`HAND_MAX`] of them.
///
/// It reads as a slice of [`CardId`] (`Deref`); the places past its length always hold
/// `CardId(0)`, so equality and hashing are those of the cards held.
///
/// ```
/// use wonders_core::card::CardId;
/// use wonders_core::game::Hand;
///
/// let mut hand: Hand = [CardId(4), CardId(9), CardId(2)].into_iter().collect();
/// assert_eq!(hand.len(), 3);
/// assert!(hand.take(CardId(9)));
/// assert_eq!(&hand[..], &[CardId(4), CardId(2)]);
/// let copy = hand; // a plain copy
/// assert_eq!(copy, hand);
/// assert_eq!(hand.pop(), Some(CardId(2)));
/// assert_ne!(copy, hand);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hand {
    len: u8,
    cards: [CardId; HAND_MAX],
}

impl Hand {
    /// An empty hand.
    pub const fn new() -> Hand {
        Hand { len: 0, cards: [CardId(0); HAND_MAX] }
    }

    /// The cards, in order.
    pub fn as_slice(&self) -> &[CardId] {
        self
    }

    /// Whether it holds [`HAND_MAX`] cards.
    pub fn is_full(&self) -> bool {
        self.len as usize == HAND_MAX
    }

    /// Adds `card` at the end; a full hand gives it back.
    pub fn try_push(&mut self, card: CardId) -> Result<(), CardId> {
        match self.cards.get_mut(self.len as usize) {
            Some(place) => {
                *place = card;
                self.len += 1;
                Ok(())
            }
            None => Err(card),
        }
    }

    /// Takes the last card off.
    pub fn pop(&mut self) -> Option<CardId> {
        let last = (self.len as usize).checked_sub(1)?;
        self.len -= 1;
        Some(std::mem::replace(&mut self.cards[last], CardId(0)))
    }

    /// Takes the first copy of `card` out, keeping the order of the others. Returns false if the
    /// hand does not hold it.
    pub fn take(&mut self, card: CardId) -> bool {
        // Without a branch on where the card is: in a random game that place is random, and a
        // loop searching for it (then one moving the later cards down) was mispredicted at its
        // exit nearly every time (resolve's largest share of cycles). The hand's bytes
        // are read as one word; the first byte equal to the card is found by the zero-byte test,
        // and the bytes above it move down one place in one shift.
        const LOW: u128 = u128::from_le_bytes([1; 16]);
        const HIGH: u128 = LOW << 7;
        let mut bytes = [0u8; 16];
        for (b, c) in bytes.iter_mut().zip(&self.cards) {
            *b = c.0;
        }
        let word = u128::from_le_bytes(bytes);
        // Zero bytes of `diff` are the card's places; the lowest one is found exactly (a borrow
        // only runs upwards from it), places past the length hold 0 and are not the card's unless
        // it is CardId(0), which `at < len` then rules out.
        let diff = word ^ (LOW * card.0 as u128);
        let zeros = diff.wrapping_sub(LOW) & !diff & HIGH;
        let at = (zeros.trailing_zeros() / 8) as usize;
        if at >= self.len as usize {
            return false;
        }
        // The bytes below `at` stay; those above move down one place. The place that was the
        // last card's now holds the byte past the end: 0, as every place past the length.
        let below = (1u128 << (8 * at)) - 1;
        let taken = (word & below) | ((word >> 8) & !below);
        for (c, &b) in self.cards.iter_mut().zip(&taken.to_le_bytes()) {
            c.0 = b;
        }
        self.len -= 1;
        true
    }

    /// Empties it.
    pub fn clear(&mut self) {
        *self = Hand::new();
    }
}

impl Default for Hand {
    fn default() -> Hand {
        Hand::new()
    }
}

impl Deref for Hand {
    type Target = [CardId];
    fn deref(&self) -> &[CardId] {
        &self.cards[..self.len as usize]
    }
}

impl DerefMut for Hand {
    fn deref_mut(&mut self) -> &mut [CardId] {
        &mut self.cards[..self.len as usize]
    }
}

/// The first [`HAND_MAX`] cards of the iterator; any beyond are left out.
impl FromIterator<CardId> for Hand {
    fn from_iter<I: IntoIterator<Item = CardId>>(iter: I) -> Hand {
        let mut hand = Hand::new();
        for card in iter.into_iter().take(HAND_MAX) {
            let _ = hand.try_push(card);
        }
        hand
    }
}

/// Adds the cards at the end, as many as fit ([`HAND_MAX`]); any beyond are left out.
impl Extend<CardId> for Hand {
    fn extend<I: IntoIterator<Item = CardId>>(&mut self, iter: I) {
        for card in iter {
            if self.try_push(card).is_err() {
                break;
            }
        }
    }
}

/// The cards, in order.
impl IntoIterator for Hand {
    type Item = CardId;
    type IntoIter = std::iter::Take<std::array::IntoIter<CardId, HAND_MAX>>;
    fn into_iter(self) -> Self::IntoIter {
        self.cards.into_iter().take(self.len as usize)
    }
}

impl<'a> IntoIterator for &'a Hand {
    type Item = &'a CardId;
    type IntoIter = std::slice::Iter<'a, CardId>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(ids: &[u8]) -> Hand {
        ids.iter().map(|&i| CardId(i)).collect()
    }

    #[test]
    fn taking_a_card_keeps_the_order_and_clears_its_place() {
        let mut h = hand(&[5, 7, 5, 3]);
        assert_eq!(h.into_iter().collect::<Vec<_>>(), [5, 7, 5, 3].map(CardId));
        assert!(h.take(CardId(5)));
        assert_eq!(h, hand(&[7, 5, 3]), "the first copy goes");
        assert!(!h.take(CardId(9)));
        assert_eq!(h, hand(&[7, 5, 3]), "a card it does not hold changes nothing");
        assert!(h.take(CardId(3)));
        assert!(h.take(CardId(7)));
        assert!(h.take(CardId(5)));
        assert!(h.is_empty());
        assert_eq!(h, Hand::new(), "equal to an empty hand: no card left behind");
        assert!(!h.take(CardId(0)), "an empty hand holds no card 0");
    }

    /// The word-wise `take` against the plain one it replaced (find the first copy, move the
    /// later cards down), over hands of every length with repeated cards, card 0 and card 255.
    #[test]
    fn take_matches_the_plain_search_and_move() {
        fn plain(cards: &[u8], card: u8) -> Option<Vec<u8>> {
            let i = cards.iter().position(|&c| c == card)?;
            let mut v = cards.to_vec();
            v.remove(i);
            Some(v)
        }
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let alphabet = [0u8, 1, 2, 7, 200, 255];
        for _ in 0..20_000 {
            let len = (next() % (HAND_MAX as u64 + 1)) as usize;
            let cards: Vec<u8> = (0..len).map(|_| alphabet[(next() % 6) as usize]).collect();
            let card = alphabet[(next() % 6) as usize];
            let mut h = hand(&cards);
            let before = h;
            match plain(&cards, card) {
                Some(rest) => {
                    assert!(h.take(CardId(card)), "{cards:?} holds {card}");
                    assert_eq!(h, hand(&rest), "{cards:?} less {card}");
                    assert_eq!(h.cards[h.len()..], [CardId(0); HAND_MAX][h.len()..], "cleared past the end");
                }
                None => {
                    assert!(!h.take(CardId(card)), "{cards:?} does not hold {card}");
                    assert_eq!(h, before);
                }
            }
        }
    }

    #[test]
    fn a_full_hand_refuses_a_card_and_collect_keeps_the_first_nine() {
        let mut h = hand(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
        assert_eq!(h.len(), HAND_MAX);
        assert!(h.is_full());
        assert_eq!(h.last(), Some(&CardId(9)));
        assert_eq!(h.try_push(CardId(12)), Err(CardId(12)));
        assert_eq!(h.pop(), Some(CardId(9)));
        assert_eq!(h.try_push(CardId(12)), Ok(()));
        assert_eq!(&h[..], &hand(&[1, 2, 3, 4, 5, 6, 7, 8, 12])[..]);
        h.clear();
        assert_eq!(h.pop(), None);
        h.extend((0..12).map(CardId));
        assert_eq!(h, hand(&[0, 1, 2, 3, 4, 5, 6, 7, 8]), "extend stops when full");
        assert_eq!(format!("{:?}", hand(&[3, 1])), "[CardId(3), CardId(1)]");
    }
}
