//! Suit shapes (SPEC 2): the digits of one suit's concealed tiles, as text ("3336678", `-` for none) and as a
//! compact integer key (the nine digit counts in base 5), with the mirror (d -> 10 - d).

use std::fmt;

/// The empty shape's text.
pub const EMPTY: &str = "-";

/// A suit shape: counts of the digits 1..9, each 0..4. Its key is the counts in base 5, digit 1 lowest, so
/// every shape of at most 14 tiles fits in 21 bits and the empty shape is 0.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Shape(pub [u8; 9]);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a suit shape: {0:?} (digits 1-9, at most four of each, or `-`)")]
pub struct BadShape(pub String);

impl Shape {
    /// Parses "3336678" (any order) or `-`.
    pub fn parse(text: &str) -> Result<Shape, BadShape> {
        let mut c = [0u8; 9];
        if text == EMPTY {
            return Ok(Shape(c));
        }
        if text.is_empty() {
            return Err(BadShape(text.to_string()));
        }
        for b in text.bytes() {
            if !(b'1'..=b'9').contains(&b) {
                return Err(BadShape(text.to_string()));
            }
            let n = &mut c[usize::from(b - b'1')];
            *n += 1;
            if *n > 4 {
                return Err(BadShape(text.to_string()));
            }
        }
        Ok(Shape(c))
    }

    pub fn key(&self) -> u32 {
        haifu_rules::hand::shape_key(&self.0)
    }

    pub fn from_key(key: u32) -> Shape {
        Shape(haifu_rules::hand::shape_digits(key))
    }

    /// Number of tiles (the length of a sequence side).
    pub fn len(&self) -> usize {
        self.0.iter().map(|&n| usize::from(n)).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0 == [0; 9]
    }

    /// d -> 10 - d: 1234 -> 6789.
    pub fn mirror(&self) -> Shape {
        let mut c = self.0;
        c.reverse();
        Shape(c)
    }

    /// The shape after removing one tile of digit `d` (1..9), if held.
    pub fn without(&self, d: u8) -> Option<Shape> {
        let i = usize::from(d.checked_sub(1)?);
        let mut c = self.0;
        c[i] = c.get(i)?.checked_sub(1)?;
        Some(Shape(c))
    }

    /// The digits held, each once, ascending: the tiles that can be discarded.
    pub fn digits(&self) -> impl Iterator<Item = u8> + '_ {
        (1..=9u8).filter(|&d| self.0[usize::from(d - 1)] > 0)
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text().as_str())
    }
}

/// A shape's digits on the stack (at most 36: nine digits, four each), written without `core::fmt`: the
/// sequence tables write millions of them.
#[derive(Clone, Copy)]
pub struct ShapeText {
    digits: [u8; 36],
    len: u8,
}

impl ShapeText {
    pub fn as_str(&self) -> &str {
        // only ASCII digits and `-` are ever written
        std::str::from_utf8(&self.digits[..usize::from(self.len)]).expect("ASCII")
    }
}

impl Shape {
    /// The digits, ascending (`-` for none), as SPEC 2 writes them.
    pub fn text(&self) -> ShapeText {
        let mut t = ShapeText { digits: [0; 36], len: 0 };
        if self.is_empty() {
            t.digits[..EMPTY.len()].copy_from_slice(EMPTY.as_bytes());
            t.len = EMPTY.len() as u8;
            return t;
        }
        for (d, &n) in (b'1'..).zip(&self.0) {
            for _ in 0..n {
                t.digits[usize::from(t.len)] = d;
                t.len += 1;
            }
        }
        t
    }
}

/// A sequence: one suit's shape before and after a decision.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Sequence {
    pub before: Shape,
    pub after: Shape,
}

impl Sequence {
    pub fn mirror(&self) -> Sequence {
        Sequence { before: self.before.mirror(), after: self.after.mirror() }
    }
    /// The pair of keys: the sequence's compact identity.
    pub fn keys(&self) -> (u32, u32) {
        (self.before.key(), self.after.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_key_round_trip() {
        for t in ["3336678", "-", "1", "9", "11112222", "123456789", "55559999"] {
            let s = Shape::parse(t).unwrap();
            assert_eq!(s.to_string(), t);
            assert_eq!(Shape::from_key(s.key()), s);
        }
        assert_eq!(Shape::parse("-").unwrap().key(), 0);
        assert_eq!(Shape::parse("1").unwrap().key(), 1);
        assert_eq!(Shape::parse("2").unwrap().key(), 5);
        assert_eq!(Shape::parse("9").unwrap().key(), 5u32.pow(8));
        assert_eq!(Shape::parse("87").unwrap().to_string(), "78");
        assert!(Shape::parse("11111").is_err());
        assert!(Shape::parse("0").is_err());
        assert!(Shape::parse("").is_err());
    }

    #[test]
    fn mirror_as_in_the_thesis() {
        let s = Sequence { before: Shape::parse("1234").unwrap(), after: Shape::parse("234").unwrap() };
        let m = s.mirror();
        assert_eq!((m.before.to_string(), m.after.to_string()), ("6789".into(), "678".into()));
        // 5 is its own mirror: (55, 5) is a self-mirror pair
        let five = Sequence { before: Shape::parse("55").unwrap(), after: Shape::parse("5").unwrap() };
        assert_eq!(five.mirror(), five);
        assert_eq!(Shape::parse("4").unwrap().without(4).unwrap().to_string(), "-");
        assert_eq!(Shape::parse("4").unwrap().without(5), None);
        assert_eq!(Shape::parse("3336678").unwrap().digits().collect::<Vec<_>>(), vec![3, 6, 7, 8]);
    }
}
