//! Concealed hands: a set of physical tiles, and the 34 counts derived from it.

use std::fmt;
use std::str::FromStr;

use crate::tile::{Kind, Suit, Tile, KINDS};

/// Counts per tile kind: the shape of a hand without colour of the fives.
pub type Counts = [u8; KINDS];

/// A set of physical tiles (136 bits): a concealed hand, exact down to the copy.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct TileSet([u64; 3]);

impl TileSet {
    pub const fn new() -> TileSet {
        TileSet([0; 3])
    }
    fn slot(t: Tile) -> (usize, u64) {
        let i = usize::from(t.id());
        (i / 64, 1u64 << (i % 64))
    }
    pub fn contains(&self, t: Tile) -> bool {
        let (w, b) = Self::slot(t);
        self.0[w] & b != 0
    }
    /// Adds a tile; false if it was already there.
    pub fn insert(&mut self, t: Tile) -> bool {
        let (w, b) = Self::slot(t);
        let fresh = self.0[w] & b == 0;
        self.0[w] |= b;
        fresh
    }
    /// Removes a tile; false if it was not there.
    pub fn remove(&mut self, t: Tile) -> bool {
        let (w, b) = Self::slot(t);
        let had = self.0[w] & b != 0;
        self.0[w] &= !b;
        had
    }
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 3]
    }
    /// Tiles in id order.
    pub fn iter(&self) -> impl Iterator<Item = Tile> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            let mut bits = bits;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                Some(Tile::from_id((w * 64) as u8 + b as u8))
            })
        })
    }
    /// How many copies of a kind the set holds.
    pub fn count(&self, k: Kind) -> u8 {
        let first = usize::from(k.index()) * 4;
        ((self.0[first / 64] >> (first % 64)) & 0xf).count_ones() as u8
    }
    /// A tile of this kind in the set: red or not as asked, or (None) a plain copy before a red five.
    pub fn find_kind(&self, k: Kind, want_red: Option<bool>) -> Option<Tile> {
        let ids = k.ids();
        let pick = |red: bool| ids.into_iter().find(|&t| self.contains(t) && t.is_red_id() == red);
        match want_red {
            Some(r) => pick(r),
            None => pick(false).or_else(|| pick(true)),
        }
    }
    pub fn counts(&self) -> Counts {
        let mut c = [0u8; KINDS];
        for (k, n) in c.iter_mut().enumerate() {
            *n = self.count(Kind::from_index(k as u8));
        }
        c
    }
    /// Bit 0/1/2 set when the red 5m/5p/5s is held.
    pub fn red_mask(&self) -> u8 {
        [16u8, 52, 88]
            .iter()
            .enumerate()
            .filter(|(_, &id)| self.contains(Tile::from_id(id)))
            .fold(0, |m, (i, _)| m | 1 << i)
    }
}

impl FromIterator<Tile> for TileSet {
    fn from_iter<I: IntoIterator<Item = Tile>>(iter: I) -> Self {
        let mut s = TileSet::new();
        for t in iter {
            s.insert(t);
        }
        s
    }
}

impl fmt::Debug for TileSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", format_counts(&self.counts()))
    }
}

/// A concealed hand: the exact tiles, and their counts per kind kept in step (the replay reads counts at
/// every decision, so they are not recomputed from the bits).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hand {
    tiles: TileSet,
    counts: Counts,
}

impl Default for Hand {
    fn default() -> Hand {
        Hand { tiles: TileSet::new(), counts: [0; 34] }
    }
}

impl Hand {
    pub fn new() -> Hand {
        Hand::default()
    }
    pub fn tiles(&self) -> &TileSet {
        &self.tiles
    }
    pub fn counts(&self) -> &Counts {
        &self.counts
    }
    pub fn len(&self) -> usize {
        self.counts.iter().map(|&c| usize::from(c)).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }
    pub fn contains(&self, t: Tile) -> bool {
        self.tiles.contains(t)
    }
    /// Adds a tile; false if it was already there.
    pub fn insert(&mut self, t: Tile) -> bool {
        let fresh = self.tiles.insert(t);
        if fresh {
            self.counts[usize::from(t.kind().index())] += 1;
        }
        fresh
    }
    /// Removes a tile; false if it was not there.
    pub fn remove(&mut self, t: Tile) -> bool {
        let had = self.tiles.remove(t);
        if had {
            self.counts[usize::from(t.kind().index())] -= 1;
        }
        had
    }
}

impl FromIterator<Tile> for Hand {
    fn from_iter<I: IntoIterator<Item = Tile>>(iter: I) -> Self {
        let mut h = Hand::new();
        for t in iter {
            h.insert(t);
        }
        h
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", format_counts(&self.counts))
    }
}

/// The digits of one suit, ascending, as SPEC 2 writes a sequence side: "3336678"; `-` when empty.
pub fn suit_digits(counts: &Counts, suit: Suit) -> String {
    let mut s = String::with_capacity(14);
    write_suit_digits(counts, suit, &mut s);
    s
}

/// [`suit_digits`] into a reused buffer (cleared first): no allocation on hot paths.
pub fn write_suit_digits(counts: &Counts, suit: Suit, out: &mut String) {
    out.clear();
    let base = usize::from(suit.kind(1).index());
    for (d, &n) in counts[base..base + 9].iter().enumerate() {
        for _ in 0..n {
            out.push(char::from(b'1' + d as u8));
        }
    }
    if out.is_empty() {
        out.push('-');
    }
}

/// The integer key of a suit's shape: its nine digit counts (1 to 9, each 0..=4) read as a number in base 5,
/// the digit 1's count lowest. `-` (no tile) is 0; every key is below 5^9 = 1,953,125. The decisions table
/// stores these keys and the sequence tables count them (SPEC 2: the shape is the multiset of digits).
pub fn shape_key(digits: &[u8; 9]) -> u32 {
    digits.iter().rev().fold(0u32, |k, &n| k * 5 + u32::from(n))
}

/// The nine digit counts of a [`shape_key`] (its inverse for every key below 5^9).
pub fn shape_digits(mut key: u32) -> [u8; 9] {
    let mut digits = [0u8; 9];
    for d in &mut digits {
        *d = (key % 5) as u8;
        key /= 5;
    }
    digits
}

/// [`shape_key`] of one suit of a hand's counts.
pub fn suit_key(counts: &Counts, suit: Suit) -> u32 {
    let base = usize::from(suit.kind(1).index());
    shape_key(counts[base..base + 9].try_into().expect("a suit is nine kinds"))
}

/// Tenhou-style hand notation: `123m456p789s11z` (honors 1z..7z = E S W N P F C).
pub fn format_counts(counts: &Counts) -> String {
    let mut out = String::new();
    write_counts(counts, &mut out);
    out
}

/// [`format_counts`] into a reused buffer (cleared first).
pub fn write_counts(counts: &Counts, out: &mut String) {
    out.clear();
    for (group, letter) in [(0usize, 'm'), (9, 'p'), (18, 's'), (27, 'z')] {
        let len = if letter == 'z' { 7 } else { 9 };
        let before = out.len();
        for d in 0..len {
            for _ in 0..counts[group + d] {
                out.push(char::from(b'1' + d as u8));
            }
        }
        if out.len() > before {
            out.push(letter);
        }
    }
}

/// A hand written in Tenhou notation, e.g. `3336678p33345s22z`; `0` is a red five.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandNotation {
    pub counts: Counts,
    /// Red fives held, bit 0 man, bit 1 pin, bit 2 sou.
    pub red: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HandParseError {
    #[error("{0:?}: digits without a suit letter at the end")]
    NoSuit(String),
    #[error("{0:?}: unexpected character {1:?}")]
    BadChar(String, char),
    #[error("{0:?}: more than four copies of {1}")]
    TooMany(String, Kind),
}

impl FromStr for HandNotation {
    type Err = HandParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut counts = [0u8; KINDS];
        let mut red = 0u8;
        let mut pending: Vec<u8> = Vec::new();
        for c in s.chars() {
            match c {
                '0'..='9' => pending.push(c as u8 - b'0'),
                'm' | 'p' | 's' | 'z' => {
                    let base = match c {
                        'm' => 0u8,
                        'p' => 9,
                        's' => 18,
                        _ => 27,
                    };
                    for d in pending.drain(..) {
                        let (d, is_red) = if d == 0 { (5, true) } else { (d, false) };
                        if c == 'z' && (is_red || d > 7) {
                            return Err(HandParseError::BadChar(s.to_string(), c));
                        }
                        if is_red {
                            red |= 1 << (base / 9);
                        }
                        let k = Kind::from_index(base + d - 1);
                        let n = &mut counts[usize::from(k.index())];
                        *n += 1;
                        if *n > 4 {
                            return Err(HandParseError::TooMany(s.to_string(), k));
                        }
                    }
                }
                ' ' | '_' => {}
                _ => return Err(HandParseError::BadChar(s.to_string(), c)),
            }
        }
        if !pending.is_empty() {
            return Err(HandParseError::NoSuit(s.to_string()));
        }
        Ok(HandNotation { counts, red })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_keys_count_digits_in_base_five() {
        // 3336678p: three 3s, two 6s, one 7, one 8 -> 3*5^2 + 2*5^5 + 5^6 + 5^7 (worked out by hand)
        let counts = "3336678p".parse::<HandNotation>().unwrap().counts;
        assert_eq!(suit_key(&counts, Suit::Pin), 75 + 6_250 + 15_625 + 78_125);
        assert_eq!(suit_key(&counts, Suit::Man), 0);
        assert_eq!(shape_key(&[4; 9]), 1_953_124, "the largest key is 5^9 - 1");
    }

    #[test]
    fn tileset_tracks_copies() {
        let mut h = TileSet::new();
        assert!(h.insert(Tile::from_id(16)));
        assert!(!h.insert(Tile::from_id(16)));
        assert!(h.insert(Tile::from_id(17)));
        assert!(h.insert(Tile::from_id(135)));
        assert_eq!(h.len(), 3);
        assert_eq!(h.count(Suit::Man.kind(5)), 2);
        assert_eq!(h.red_mask(), 1);
        assert_eq!(h.find_kind(Suit::Man.kind(5), None), Some(Tile::from_id(17)));
        assert_eq!(h.find_kind(Suit::Man.kind(5), Some(true)), Some(Tile::from_id(16)));
        assert_eq!(h.iter().map(|t| t.id()).collect::<Vec<_>>(), vec![16, 17, 135]);
        assert!(h.remove(Tile::from_id(16)));
        assert!(!h.remove(Tile::from_id(16)));
        assert_eq!(h.red_mask(), 0);
    }

    #[test]
    fn thesis_example_digits() {
        let h: HandNotation = "3336678p33345s22z".parse().unwrap();
        assert_eq!(suit_digits(&h.counts, Suit::Pin), "3336678");
        assert_eq!(suit_digits(&h.counts, Suit::Sou), "33345");
        assert_eq!(suit_digits(&h.counts, Suit::Man), "-");
        assert_eq!(format_counts(&h.counts), "3336678p33345s22z");
        let r: HandNotation = "055m".parse().unwrap();
        assert_eq!(r.red, 1);
        assert_eq!(r.counts[4], 3);
        assert!("123".parse::<HandNotation>().is_err());
        assert!("8z".parse::<HandNotation>().is_err());
        assert!("11111m".parse::<HandNotation>().is_err());
    }
}
