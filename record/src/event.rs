//! The one event model every reader produces: the tags of a Tenhou mjlog, in order.
//!
//! Draws, discards, calls and new dora indicators are typed (they are 95% of a record). Every other
//! tag (`INIT`, `AGARI`, `RYUUKYOKU`, `REACH`, `UN`, `GO`, `TAIKYOKU`, `SHUFFLE`, `BYE`, the root
//! `mjloggm`, and tags this version does not know) keeps its name and its attributes verbatim, in order,
//! so that a record can be written back as mjlog XML without loss. Typed views of those tags live in
//! [`crate::tags`]. Readers of tenhou.net/6 JSON and mjai produce the same events, with the attributes
//! Tenhou would have written.

use std::fmt::Write;

use haifu_rules::Tile;

/// Format a record was read from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Format {
    Mjlog,
    Tenhou6,
    Mjai,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Mjlog => "mjlog",
            Format::Tenhou6 => "tenhou6",
            Format::Mjai => "mjai",
        }
    }
}

/// A tag kept with its name and attributes (values unescaped), in the order of the source.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Tag {
    pub name: String,
    pub attrs: Vec<(String, String)>,
}

impl Tag {
    pub fn new(name: &str) -> Tag {
        Tag { name: name.to_string(), attrs: Vec::new() }
    }
    pub fn with(mut self, key: &str, value: impl Into<String>) -> Tag {
        self.attrs.push((key.to_string(), value.into()));
        self
    }
    pub fn get(&self, key: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
    /// The attributes as XML text: `a="1" b="x&amp;y"`.
    pub fn attrs_xml(&self) -> String {
        let mut s = String::new();
        for (i, (k, v)) in self.attrs.iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(k);
            s.push_str("=\"");
            escape_into(&mut s, v);
            s.push('"');
        }
        s
    }
}

fn escape_into(out: &mut String, v: &str) {
    for c in v.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
}

/// One event of a game record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Event {
    /// `T U V W` + id.
    Draw { seat: u8, tile: Tile },
    /// `D E F G` + id.
    Discard { seat: u8, tile: Tile },
    /// `N who= m=`: a meld, by its mjlog code.
    Call { seat: u8, meld: u32 },
    /// `DORA hai=`: a new kan dora indicator.
    Dora { tile: Tile },
    /// Any other tag, verbatim.
    Tag(Box<Tag>),
}

impl Event {
    pub fn tag(t: Tag) -> Event {
        Event::Tag(Box::new(t))
    }
    /// The tag name as the events table stores it: `draw`, `discard`, `call`, `dora`, or the XML name.
    pub fn kind_name(&self) -> &str {
        match self {
            Event::Draw { .. } => "draw",
            Event::Discard { .. } => "discard",
            Event::Call { .. } => "call",
            Event::Dora { .. } => "dora",
            Event::Tag(t) => &t.name,
        }
    }
    pub fn as_tag(&self, name: &str) -> Option<&Tag> {
        match self {
            Event::Tag(t) if t.name == name => Some(t),
            _ => None,
        }
    }
    /// The event as one mjlog XML element.
    pub fn write_xml(&self, out: &mut String) {
        const DRAW: [char; 4] = ['T', 'U', 'V', 'W'];
        const DISCARD: [char; 4] = ['D', 'E', 'F', 'G'];
        // write! to a String cannot fail
        let _ = match self {
            Event::Draw { seat, tile } => write!(out, "<{}{}/>", DRAW[usize::from(*seat & 3)], tile.id()),
            Event::Discard { seat, tile } => write!(out, "<{}{}/>", DISCARD[usize::from(*seat & 3)], tile.id()),
            Event::Call { seat, meld } => write!(out, "<N who=\"{seat}\" m=\"{meld}\" />"),
            Event::Dora { tile } => write!(out, "<DORA hai=\"{}\" />", tile.id()),
            Event::Tag(t) if t.attrs.is_empty() => write!(out, "<{}/>", t.name),
            Event::Tag(t) => write!(out, "<{} {}/>", t.name, t.attrs_xml()),
        };
    }
}

/// One game as read from a file, before replay.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub format: Format,
    /// Position of the game in its file (mjai files may hold several).
    pub index_in_file: u32,
    /// Tenhou log id (`2019060813gm-00a9-0000-08bb0ec3`) when the file name or the record gives one.
    pub log_id: Option<String>,
    pub events: Vec<Event>,
    /// What the reader had to settle or fill in because the log does not say it (the game's length, red
    /// fives, a missing name ...), one line each; the games table keeps them (`notes`).
    pub notes: Vec<String>,
}

/// The root element name of an mjlog.
pub const ROOT: &str = "mjloggm";

impl GameRecord {
    /// A game the project writes itself as mjlog events (the engine, the test kit): no log id, no notes.
    pub fn written(events: Vec<Event>) -> GameRecord {
        GameRecord { format: Format::Mjlog, index_in_file: 0, log_id: None, events, notes: Vec::new() }
    }

    /// A hash of the game's play: every draw and discard in order, as (seat, kind). The same game read from any
    /// format gives the same value (copy numbers and red fives are left out: the formats number a kind's
    /// copies differently), two different games virtually never do. `None` for a record without a discard.
    /// Ingest keeps one game per value: the same game as mjlog and tenhou.net/6, or the two files `haifu
    /// mjai-server` writes of each game, come in once.
    pub fn play_hash(&self) -> Option<u64> {
        let mut play = Vec::with_capacity(self.events.len() * 2);
        let mut discards = 0;
        for e in &self.events {
            match e {
                Event::Draw { seat, tile } => play.extend([*seat, tile.kind().index()]),
                Event::Discard { seat, tile } => {
                    discards += 1;
                    play.extend([4 + *seat, tile.kind().index()]);
                }
                _ => {}
            }
        }
        (discards > 0).then(|| xxhash_rust::xxh3::xxh3_64(&play))
    }

    /// The record as mjlog XML. A leading `mjloggm` tag event becomes the root element.
    pub fn to_mjlog(&self) -> String {
        let mut out = String::with_capacity(self.events.len() * 12 + 64);
        let (root, rest) = match self.events.split_first() {
            Some((Event::Tag(t), rest)) if t.name == ROOT => (Some(t.as_ref()), rest),
            _ => (None, &self.events[..]),
        };
        match root {
            Some(t) if !t.attrs.is_empty() => {
                let _ = write!(out, "<{ROOT} {}>", t.attrs_xml());
            }
            _ => {
                let _ = write!(out, "<{ROOT} ver=\"2.3\">");
            }
        }
        for e in rest {
            e.write_xml(&mut out);
        }
        out.push_str("</");
        out.push_str(ROOT);
        out.push('>');
        out
    }
}
