//! The seven resources, multisets of them, and sets of them.

use std::fmt;

/// One of the seven resources. Raw materials: wood, stone, clay, ore. Manufactured goods: glass,
/// loom (textile), papyrus (rulebook 002, 產出; base-1e.md notation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Resource {
    /// W, 木頭
    Wood = 0,
    /// S, 石頭
    Stone = 1,
    /// C, 磚塊 (clay, brick)
    Clay = 2,
    /// O, 礦石
    Ore = 3,
    /// G, 玻璃
    Glass = 4,
    /// L, 布料 (loom, textile)
    Loom = 5,
    /// P, 紙張
    Papyrus = 6,
}

impl Resource {
    /// All resources in the canonical order W S C O G L P.
    pub const ALL: [Resource; 7] = [
        Resource::Wood,
        Resource::Stone,
        Resource::Clay,
        Resource::Ore,
        Resource::Glass,
        Resource::Loom,
        Resource::Papyrus,
    ];

    /// The one-letter code used in the data files.
    pub const fn letter(self) -> char {
        ['W', 'S', 'C', 'O', 'G', 'L', 'P'][self as usize]
    }

    /// Parses a one-letter code.
    ///
    /// ```
    /// use wonders_core::Resource;
    /// assert_eq!(Resource::from_letter('O'), Some(Resource::Ore));
    /// assert_eq!(Resource::from_letter('x'), None);
    /// ```
    pub const fn from_letter(c: char) -> Option<Resource> {
        Some(match c {
            'W' => Resource::Wood,
            'S' => Resource::Stone,
            'C' => Resource::Clay,
            'O' => Resource::Ore,
            'G' => Resource::Glass,
            'L' => Resource::Loom,
            'P' => Resource::Papyrus,
            _ => return None,
        })
    }

    /// Raw materials (brown-card resources) as opposed to manufactured goods.
    pub const fn is_raw(self) -> bool {
        (self as u8) < 4
    }

    /// English name, lower case.
    pub const fn name(self) -> &'static str {
        ["wood", "stone", "clay", "ore", "glass", "loom", "papyrus"][self as usize]
    }

    /// A one-element set.
    pub const fn bit(self) -> ResourceSet {
        ResourceSet(1 << self as u8)
    }
}

/// A set of resources, as a 7-bit mask (bit i = `Resource::ALL[i]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ResourceSet(pub u8);

impl ResourceSet {
    /// W S C O.
    pub const RAW: ResourceSet = ResourceSet(0b000_1111);
    /// G L P.
    pub const MANUFACTURED: ResourceSet = ResourceSet(0b111_0000);
    /// The empty set.
    pub const EMPTY: ResourceSet = ResourceSet(0);

    /// Whether `r` is in the set.
    pub const fn contains(self, r: Resource) -> bool {
        self.0 & (1 << r as u8) != 0
    }

    /// The union of two sets.
    pub const fn union(self, other: ResourceSet) -> ResourceSet {
        ResourceSet(self.0 | other.0)
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The resources of the set, in canonical order.
    pub fn iter(self) -> impl Iterator<Item = Resource> {
        // Set bits, lowest first (the canonical order), without visiting the others.
        let mut bits = self.0 & 0x7F;
        std::iter::from_fn(move || {
            let i = bits.trailing_zeros() as usize;
            bits &= bits.wrapping_sub(1);
            Resource::ALL.get(i).copied()
        })
    }

    /// Parses letters such as `"WSCO"`.
    pub fn from_letters(s: &str) -> Option<ResourceSet> {
        s.chars().try_fold(0u8, |m, c| Resource::from_letter(c).map(|r| m | r.bit().0)).map(ResourceSet)
    }
}

/// A multiset of resources: how many of each (a cost, or a fixed production).
///
/// The seven counts are the first seven bytes of an 8-byte aligned array whose last byte is
/// always 0, so the solver's word-at-a-time operations read and write it as one `u64`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
#[repr(C, align(8))]
pub struct Resources(pub(crate) [u8; 8]);

impl fmt::Debug for Resources {
    /// The seven counts in the order W S C O G L P.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Resources").field(&self.counts()).finish()
    }
}

impl Resources {
    /// No resources.
    pub const NONE: Resources = Resources([0; 8]);

    /// Resources from their seven counts, in the order W S C O G L P.
    ///
    /// ```
    /// use wonders_core::{Resource, Resources};
    /// let r = Resources::new([1, 0, 3, 0, 0, 0, 0]);
    /// assert_eq!(r, Resources::from_letters("WCCC").unwrap());
    /// ```
    pub const fn new(counts: [u8; 7]) -> Resources {
        let c = counts;
        Resources([c[0], c[1], c[2], c[3], c[4], c[5], c[6], 0])
    }

    /// The seven counts, in the order W S C O G L P.
    pub const fn counts(&self) -> [u8; 7] {
        let c = self.0;
        [c[0], c[1], c[2], c[3], c[4], c[5], c[6]]
    }

    /// Parses repeated letters, e.g. `"WCCC"` is 1 wood and 3 clay.
    ///
    /// ```
    /// use wonders_core::{Resource, Resources};
    /// let r = Resources::from_letters("WCCC").unwrap();
    /// assert_eq!(r.get(Resource::Clay), 3);
    /// assert_eq!(r.total(), 4);
    /// ```
    pub fn from_letters(s: &str) -> Option<Resources> {
        let mut out = [0u8; 8];
        for c in s.chars() {
            out[Resource::from_letter(c)? as usize] += 1;
        }
        Some(Resources(out))
    }

    /// How many of `r`.
    pub const fn get(&self, r: Resource) -> u8 {
        self.0[r as usize]
    }

    /// Adds `n` of `r`.
    pub fn add(&mut self, r: Resource, n: u8) {
        self.0[r as usize] = self.0[r as usize].saturating_add(n);
    }

    /// The number of units.
    #[inline]
    pub fn total(&self) -> u32 {
        let a = self.bits();
        if a & 0x00E0_E0E0_E0E0_E0E0 == 0 {
            // Every count under 32: the seven bytes summed by one multiplication (no byte of the
            // partial sums can exceed 7 · 31).
            return (a.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32;
        }
        self.0[..7].iter().map(|&n| n as u32).sum()
    }

    /// Whether there is nothing.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bits() == 0
    }

    /// Whether every count of `self` is at most the same count of `other`.
    #[inline]
    pub fn le(&self, other: &Resources) -> bool {
        const H: u64 = 0x0080_8080_8080_8080;
        let (a, b) = (self.bits(), other.bits());
        if (a | b) & H == 0 {
            // (b + 128) − a keeps each byte's top bit exactly when b ≥ a (see `saturating_sub`).
            return ((b | H) - a) & H == H;
        }
        self.0[..7].iter().zip(other.0).all(|(&x, y)| x <= y)
    }

    /// What remains of `self` after `have` covers what it can.
    #[inline]
    pub fn saturating_sub(&self, have: &Resources) -> Resources {
        // Seven bytes at once (SWAR) while every count is under 128, as all real ones are: in
        // each byte, (a + 128) − b keeps its top bit exactly when a ≥ b, and never borrows from
        // the next byte.
        const H: u64 = 0x0080_8080_8080_8080;
        let (a, b) = (self.bits(), have.bits());
        if (a | b) & H == 0 {
            let d = (a | H) - b;
            let keep = ((d & H) >> 7) * 0xFF;
            return Resources::from_bits(d & !H & keep);
        }
        let mut out = self.0;
        for (o, h) in out[..7].iter_mut().zip(have.0) {
            *o = o.saturating_sub(h);
        }
        Resources(out)
    }

    /// The seven counts as the low bytes of a word (the eighth byte is always 0).
    #[inline]
    const fn bits(&self) -> u64 {
        u64::from_le_bytes(self.0)
    }

    #[inline]
    const fn from_bits(x: u64) -> Resources {
        Resources(x.to_le_bytes())
    }

    /// The set of resources present at least once.
    #[inline]
    pub fn support(&self) -> ResourceSet {
        const H: u64 = 0x0080_8080_8080_8080;
        const L: u64 = 0x007F_7F7F_7F7F_7F7F;
        let a = self.bits();
        // A byte's top bit of `nonzero` is set exactly when the byte is not 0; the
        // multiplication gathers bit 8i + 7 of every byte i into bit 56 + i (no two partial
        // products share a bit, so nothing carries).
        let nonzero = (((a & L) + L) | a) & H;
        ResourceSet(((nonzero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8 & 0x7F)
    }
}

impl fmt::Display for Resources {
    /// Letters in canonical order, e.g. `WCCC`; `-` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for r in Resource::ALL {
            for _ in 0..self.get(r) {
                write!(f, "{}", r.letter())?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        let r = Resources::from_letters("PGOWSCL").unwrap();
        assert_eq!(r.to_string(), "WSCOGLP");
        assert_eq!(Resources::from_letters("WX"), None);
        assert_eq!(ResourceSet::from_letters("WSCO"), Some(ResourceSet::RAW));
        assert!(Resource::Ore.is_raw() && !Resource::Glass.is_raw());
    }

    #[test]
    fn word_subtraction_matches_the_bytewise_one() {
        // Every pair of counts 0..=9 in each position, and counts of 128 or more (byte loop).
        for a in 0..10u8 {
            for b in 0..10u8 {
                let x = Resources::new([a, b, 9 - a, 0, 3, a, 9]);
                let y = Resources::new([b, a, 4, 9 - b, 3, 0, b]);
                let want: Vec<u8> =
                    x.counts().iter().zip(y.counts()).map(|(p, q)| p.saturating_sub(q)).collect();
                assert_eq!(x.saturating_sub(&y).counts().to_vec(), want, "{x:?} - {y:?}");
            }
        }
        let big = Resources::new([200, 0, 130, 5, 0, 0, 1]);
        assert_eq!(
            big.saturating_sub(&Resources::new([1, 1, 131, 2, 0, 0, 0])),
            Resources::new([199, 0, 0, 3, 0, 0, 1])
        );
    }

    #[test]
    fn word_helpers_match_the_bytewise_definitions() {
        // Every count 0..=3 in two lanes (the others fixed), plus counts of 128 and more that
        // take the bytewise paths.
        let mut cases = Vec::new();
        for x in 0..4u8 {
            for y in 0..4u8 {
                cases.push(Resources::new([x, 0, y, 1, 0, 0, x]));
                cases.push(Resources::new([0, y, 0, 0, x, 2, 0]));
            }
        }
        cases.push(Resources::new([200, 0, 0, 0, 0, 0, 1]));
        cases.push(Resources::new([0, 0, 0, 40, 0, 0, 0]));
        for a in &cases {
            let total: u32 = a.counts().iter().map(|&n| n as u32).sum();
            assert_eq!(a.total(), total, "{a:?}");
            assert_eq!(a.is_empty(), a.counts() == [0; 7], "{a:?}");
            let mut support = 0u8;
            for (i, &n) in a.counts().iter().enumerate() {
                support |= ((n > 0) as u8) << i;
            }
            assert_eq!(a.support(), ResourceSet(support), "{a:?}");
            for b in &cases {
                assert_eq!(a.le(b), a.counts().iter().zip(b.counts()).all(|(&x, y)| x <= y), "{a:?} ≤ {b:?}");
            }
        }
        assert_eq!(
            Resources::from_letters("WWGP").unwrap().support(),
            ResourceSet::from_letters("WGP").unwrap()
        );
        assert_eq!(Resources::from_letters("WWGP").unwrap().total(), 4);
    }

    #[test]
    fn subtraction_saturates() {
        let need = Resources::from_letters("SSL").unwrap();
        let have = Resources::from_letters("SSSW").unwrap();
        assert_eq!(need.saturating_sub(&have), Resources::from_letters("L").unwrap());
    }
}
