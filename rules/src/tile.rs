//! Tiles: the 136 physical tiles (ids), their 34 kinds, suits, digits and red fives.
//!
//! Ids follow Tenhou: kind = id / 4, kinds 0-8 man, 9-17 pin, 18-26 sou, 27-33 E S W N haku hatsu chun.
//! The red fives are the copy 0 of each five (ids 16, 52, 88) when the game plays with red fives.

use std::fmt;
use std::str::FromStr;

/// Number of tile kinds.
pub const KINDS: usize = 34;
/// Number of physical tiles.
pub const TILES: usize = 136;
/// The ids of the red fives (5m, 5p, 5s), in games with red fives.
pub const RED_IDS: [u8; 3] = [16, 52, 88];

/// One physical tile, 0..136.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Tile(u8);

impl Tile {
    pub fn new(id: u8) -> Option<Tile> {
        (usize::from(id) < TILES).then_some(Tile(id))
    }
    /// # Panics
    /// When `id >= 136`; for ids known to be valid.
    pub fn from_id(id: u8) -> Tile {
        Tile::new(id).unwrap_or_else(|| panic!("tile id {id} out of range"))
    }
    pub fn id(self) -> u8 {
        self.0
    }
    pub fn kind(self) -> Kind {
        Kind(self.0 / 4)
    }
    /// Copy index 0..4 within the kind.
    pub fn copy(self) -> u8 {
        self.0 % 4
    }
    /// True for ids 16, 52, 88; whether it is played red depends on the game (GO type bit 0x02).
    pub fn is_red_id(self) -> bool {
        RED_IDS.contains(&self.0)
    }
}

impl fmt::Display for Tile {
    /// mjai notation with red fives as `5mr` (assuming a game with red fives).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // write_str, not write!: the decisions table writes every meld's tiles this way (issue 31)
        f.write_str(self.kind().name())?;
        if self.is_red_id() {
            f.write_str("r")?;
        }
        Ok(())
    }
}

/// A suit of numbered tiles.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Suit {
    Man = 0,
    Pin = 1,
    Sou = 2,
}

impl Suit {
    pub const ALL: [Suit; 3] = [Suit::Man, Suit::Pin, Suit::Sou];
    /// Tenhou / mjai letter: m, p, s.
    pub fn letter(self) -> char {
        ['m', 'p', 's'][self as usize]
    }
    pub fn name(self) -> &'static str {
        ["man", "pin", "sou"][self as usize]
    }
    /// Kind of the digit `d` (1..=9) in this suit.
    pub fn kind(self, digit: u8) -> Kind {
        debug_assert!((1..=9).contains(&digit));
        Kind(self as u8 * 9 + digit - 1)
    }
}

/// One of the 34 tile kinds.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Kind(u8);

const HONOR_NAMES: [&str; 7] = ["E", "S", "W", "N", "P", "F", "C"];

/// mjai names of the 34 kinds, by index.
const KIND_NAMES: [&str; KINDS] = [
    "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "1s",
    "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "E", "S", "W", "N", "P", "F", "C",
];

impl Kind {
    pub const EAST: Kind = Kind(27);
    pub const NORTH: Kind = Kind(30);
    pub const HAKU: Kind = Kind(31);
    pub const CHUN: Kind = Kind(33);

    pub fn new(k: u8) -> Option<Kind> {
        (usize::from(k) < KINDS).then_some(Kind(k))
    }
    /// # Panics
    /// When `k >= 34`.
    pub fn from_index(k: u8) -> Kind {
        Kind::new(k).unwrap_or_else(|| panic!("tile kind {k} out of range"))
    }
    pub fn index(self) -> u8 {
        self.0
    }
    pub fn suit(self) -> Option<Suit> {
        match self.0 / 9 {
            0 => Some(Suit::Man),
            1 => Some(Suit::Pin),
            2 => Some(Suit::Sou),
            _ => None,
        }
    }
    /// 1..=9 for numbered tiles, 1..=7 for honors (E S W N P F C).
    pub fn digit(self) -> u8 {
        if self.0 < 27 {
            self.0 % 9 + 1
        } else {
            self.0 - 26
        }
    }
    pub fn is_honor(self) -> bool {
        self.0 >= 27
    }
    pub fn is_terminal(self) -> bool {
        self.0 < 27 && matches!(self.0 % 9, 0 | 8)
    }
    /// Terminal or honor.
    pub fn is_yaochuu(self) -> bool {
        self.is_honor() || self.is_terminal()
    }
    /// Haku, hatsu, chun.
    pub fn is_dragon(self) -> bool {
        self.0 >= 31
    }
    pub fn is_wind(self) -> bool {
        (27..31).contains(&self.0)
    }
    /// The physical tile ids of this kind.
    pub fn ids(self) -> [Tile; 4] {
        let b = self.0 * 4;
        [Tile(b), Tile(b + 1), Tile(b + 2), Tile(b + 3)]
    }
    /// The dora this kind indicates at a table of `players`: the next kind of its group (wrapping 9 -> 1,
    /// N -> E, chun -> haku); with three players the man suit holds only 1m and 9m, so each indicates the
    /// other. The one home of the rule: scoring, the readers and the network's input all ask it.
    pub fn dora_indicated(self, players: u8) -> Kind {
        let k = self.0;
        Kind(match k {
            0 if players == 3 => 8,
            0..=26 => k / 9 * 9 + (k % 9 + 1) % 9,
            27..=30 => 27 + (k - 27 + 1) % 4,
            _ => 31 + (k - 31 + 1) % 3,
        })
    }
    /// In 3-player games the 2m..8m are absent.
    pub fn absent_in_sanma(self) -> bool {
        (1..=7).contains(&self.0)
    }
}

impl Kind {
    /// mjai notation: `1m`..`9s`, `E S W N P F C`.
    pub fn name(self) -> &'static str {
        KIND_NAMES[usize::from(self.0)]
    }
}

impl fmt::Display for Kind {
    /// mjai notation: `1m`..`9s`, `E S W N P F C`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for a tile name that is not mjai notation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a tile name: {0:?}")]
pub struct BadTileName(pub String);

/// A tile as mjai names it: a kind and whether it is a red five.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MjaiTile {
    pub kind: Kind,
    pub red: bool,
}

impl FromStr for MjaiTile {
    type Err = BadTileName;
    /// Parses `1m`..`9s`, `5mr`/`5pr`/`5sr`, `E S W N P F C`, and the `1z`..`7z` spelling of honors.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadTileName(s.to_string());
        let b = s.as_bytes();
        if let Some(i) = HONOR_NAMES.iter().position(|h| *h == s) {
            return Ok(MjaiTile { kind: Kind(27 + i as u8), red: false });
        }
        if !(2..=3).contains(&b.len()) || !(b'1'..=b'9').contains(&b[0]) {
            return Err(bad());
        }
        let d = b[0] - b'0';
        let red = match b.get(2) {
            None => false,
            Some(b'r') if d == 5 => true,
            _ => return Err(bad()),
        };
        let kind = match b[1] {
            b'm' => Suit::Man.kind(d),
            b'p' => Suit::Pin.kind(d),
            b's' => Suit::Sou.kind(d),
            b'z' if d <= 7 && !red => Kind(26 + d),
            _ => return Err(bad()),
        };
        Ok(MjaiTile { kind, red })
    }
}

impl fmt::Display for MjaiTile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // write_str, not write!: the choices table writes every option's tiles this way
        f.write_str(self.kind.name())?;
        if self.red {
            f.write_str("r")?;
        }
        Ok(())
    }
}

impl MjaiTile {
    /// A tile name as logs write it: mjai's names, and Tenhou's `0m` / `0p` / `0s` for the red fives. A hidden
    /// tile (`?`, a one-player view) is said to be one, not taken for a misspelt name.
    pub fn from_log_name(s: &str) -> Result<MjaiTile, String> {
        match s {
            "0m" => Ok(MjaiTile { kind: Suit::Man.kind(5), red: true }),
            "0p" => Ok(MjaiTile { kind: Suit::Pin.kind(5), red: true }),
            "0s" => Ok(MjaiTile { kind: Suit::Sou.kind(5), red: true }),
            "?" => Err("a hidden tile (\"?\") where a tile must be named".to_string()),
            name => name.parse().map_err(|e: BadTileName| e.to_string()),
        }
    }
}

/// Written as its mjai name (`5mr`, `E`).
impl serde::Serialize for MjaiTile {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Read from any name [`MjaiTile::from_log_name`] takes.
impl<'de> serde::Deserialize<'de> for MjaiTile {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Name;
        impl serde::de::Visitor<'_> for Name {
            type Value = MjaiTile;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a tile name (1m..9s, 5mr, E S W N P F C)")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<MjaiTile, E> {
                MjaiTile::from_log_name(s).map_err(E::custom)
            }
        }
        d.deserialize_str(Name)
    }
}

impl FromStr for Kind {
    type Err = BadTileName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse::<MjaiTile>().map(|t| t.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_names() {
        assert_eq!(Tile::from_id(16).kind().to_string(), "5m");
        assert_eq!(Tile::from_id(16).to_string(), "5mr");
        assert_eq!(Tile::from_id(52).to_string(), "5pr");
        assert_eq!(Tile::from_id(89).to_string(), "5s");
        assert_eq!(Tile::from_id(108).to_string(), "E");
        assert_eq!(Tile::from_id(135).to_string(), "C");
        for k in 0..34u8 {
            let kind = Kind::from_index(k);
            assert_eq!(kind.to_string().parse::<Kind>().unwrap(), kind);
            if let Some(s) = kind.suit() {
                assert_eq!(kind.name(), format!("{}{}", kind.digit(), s.letter()));
            }
        }
        assert_eq!("5sr".parse::<MjaiTile>().unwrap(), MjaiTile { kind: Suit::Sou.kind(5), red: true });
        assert_eq!("3z".parse::<Kind>().unwrap(), Kind(29));
        assert!("4mr".parse::<MjaiTile>().is_err());
        assert!("0m".parse::<MjaiTile>().is_err());
        assert!("X".parse::<MjaiTile>().is_err());
    }

    #[test]
    fn dora_wraps_within_groups() {
        let next = |s: &str, players: u8| s.parse::<Kind>().unwrap().dora_indicated(players).to_string();
        assert_eq!(next("9m", 4), "1m");
        assert_eq!(next("4p", 4), "5p");
        assert_eq!(next("N", 4), "E");
        assert_eq!(next("C", 4), "P");
        assert_eq!(next("E", 4), "S");
        assert_eq!(next("1m", 4), "2m");
        // three players: no 2m..8m, so 1m and 9m indicate each other
        assert_eq!(next("1m", 3), "9m");
        assert_eq!(next("9m", 3), "1m");
        assert_eq!(next("4p", 3), "5p");
    }

    #[test]
    fn terminals_and_honors() {
        let k = |s: &str| s.parse::<Kind>().unwrap();
        assert!(k("1m").is_terminal() && k("9s").is_terminal() && !k("5p").is_terminal());
        assert!(k("P").is_honor() && k("P").is_dragon() && !k("P").is_wind());
        assert_eq!(k("7p").suit(), Some(Suit::Pin));
        assert_eq!(k("7p").digit(), 7);
        assert_eq!(k("W").digit(), 3);
    }
}
