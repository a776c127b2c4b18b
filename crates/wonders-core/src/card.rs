//! Age cards: their identifiers, their definitions and compact sets of them.

use crate::effect::Effect;
use crate::resources::Resources;
use std::fmt;

/// The colour (type) of a card (rulebook 002, 卡牌).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Colour {
    /// Raw materials (原料廠).
    Brown = 0,
    /// Manufactured goods (加工廠).
    Grey = 1,
    /// Civilian structures (市政設施).
    Blue = 2,
    /// Commercial structures (商業建築).
    Yellow = 3,
    /// Military structures (軍事建築).
    Red = 4,
    /// Scientific structures (科技建築).
    Green = 5,
    /// Guilds (行會建築).
    Purple = 6,
}

impl Colour {
    /// Every colour.
    pub const ALL: [Colour; 7] = [
        Colour::Brown,
        Colour::Grey,
        Colour::Blue,
        Colour::Yellow,
        Colour::Red,
        Colour::Green,
        Colour::Purple,
    ];

    /// Lower-case English name as in the data files.
    pub const fn name(self) -> &'static str {
        ["brown", "grey", "blue", "yellow", "red", "green", "purple"][self as usize]
    }

    /// Parses a lower-case English name.
    pub fn parse(s: &str) -> Option<Colour> {
        Colour::ALL.into_iter().find(|c| c.name() == s)
    }

    /// The bit of this colour in a colour mask.
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An Age card, as an index into its edition's [`crate::Catalog`]. Copies of the same card share
/// an id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CardId(pub u8);

/// A card's name, as an index into the catalog's distinct names. The Age I and Age II Loom share a
/// name: the no-duplicate rule compares names (base-1e.md §4.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NameId(pub u8);

/// The definition of one card.
#[derive(Clone, Debug)]
pub struct CardDef {
    /// Its id in the catalog.
    pub id: CardId,
    /// English name.
    pub name: String,
    /// Name printed in the edition's Chinese rulebook.
    pub zh: String,
    /// Other names that refer to this card.
    pub aliases: Vec<String>,
    /// Its distinct-name id (for the no-duplicate rule).
    pub name_id: NameId,
    /// Age 1, 2 or 3.
    pub age: u8,
    /// Colour.
    pub colour: Colour,
    /// Coins paid to the bank.
    pub coins: u8,
    /// Resources needed.
    pub cost: Resources,
    /// What it does.
    pub effects: Vec<Effect>,
    /// Names of the cards that make it free (chain parents).
    pub chain_from: Vec<String>,
    /// The same, as a set of name ids.
    pub chain_parents: NameSet,
    /// Player-count mark of each physical copy; empty for guilds.
    pub copies: Vec<u8>,
    /// Where the data comes from.
    pub source: String,
    /// Whether some value of this card is not confirmed by any public source.
    pub provisional: bool,
}

impl CardDef {
    /// Whether this card is a guild.
    pub fn is_guild(&self) -> bool {
        self.colour == Colour::Purple
    }

    /// The number of copies in a game of `players` players (guilds excluded).
    pub fn copies_for(&self, players: u8) -> usize {
        self.copies.iter().filter(|&&m| m <= players).count()
    }

    /// The cost as shown to players, e.g. `1 coin` or `WCCC`.
    pub fn cost_text(&self) -> String {
        match (self.coins, self.cost.is_empty()) {
            (0, true) => "free".to_string(),
            (c, true) => format!("{c} coin{}", if c == 1 { "" } else { "s" }),
            (0, false) => self.cost.to_string(),
            (c, false) => format!("{c} coin(s) + {}", self.cost),
        }
    }

    /// Effects as one line of text.
    pub fn effect_text(&self) -> String {
        self.effects.iter().map(|e| e.to_string()).collect::<Vec<_>>().join(", ")
    }

    /// Effects as one line of text in Traditional Chinese.
    pub fn effect_text_zh(&self) -> String {
        self.effects.iter().map(|e| e.text_zh()).collect::<Vec<_>>().join("，")
    }
}

/// A set of card ids (at most 256 per edition), as a bitset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CardSet([u64; 4]);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet([0; 4]);

    /// Whether `c` is in the set.
    #[inline]
    pub fn contains(&self, c: CardId) -> bool {
        self.0[(c.0 >> 6) as usize] & (1 << (c.0 & 63)) != 0
    }

    /// Adds `c`.
    #[inline]
    pub fn insert(&mut self, c: CardId) {
        self.0[(c.0 >> 6) as usize] |= 1 << (c.0 & 63);
    }

    /// Removes `c`.
    #[inline]
    pub fn remove(&mut self, c: CardId) {
        self.0[(c.0 >> 6) as usize] &= !(1 << (c.0 & 63));
    }

    /// The number of cards.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// The cards in id order.
    pub fn iter(&self) -> impl Iterator<Item = CardId> + '_ {
        (0..4usize).flat_map(move |w| {
            let mut bits = self.0[w];
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                Some(CardId((w as u32 * 64 + b) as u8))
            })
        })
    }
}

/// A set of card names (at most 128 distinct names per edition).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NameSet(pub u128);

impl NameSet {
    /// Whether `n` is in the set.
    #[inline]
    pub fn contains(&self, n: NameId) -> bool {
        self.0 & (1u128 << n.0) != 0
    }

    /// Adds `n`.
    #[inline]
    pub fn insert(&mut self, n: NameId) {
        self.0 |= 1u128 << n.0;
    }

    /// Whether the two sets share a name.
    #[inline]
    pub fn intersects(&self, other: NameSet) -> bool {
        self.0 & other.0 != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_set_operations() {
        let mut s = CardSet::EMPTY;
        for id in [0u8, 5, 63, 64, 200, 255] {
            s.insert(CardId(id));
        }
        assert_eq!(s.len(), 6);
        assert!(s.contains(CardId(200)) && !s.contains(CardId(201)));
        s.remove(CardId(64));
        let ids: Vec<u8> = s.iter().map(|c| c.0).collect();
        assert_eq!(ids, vec![0, 5, 63, 200, 255]);
    }
}
