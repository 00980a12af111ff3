//! The one event model every reader produces: the tags of a Tenhou mjlog, in order, typed when read.
//!
//! Draws, discards, calls and new dora indicators are small typed values (they are 95% of a record); a call
//! carries its decoded [`Meld`]. The rich tags that carry play (`INIT`, `REACH`, `AGARI`, `RYUUKYOKU`) and the
//! game's facts (`GO`, `UN`, `BYE`) are parsed once, when the log is read, into the typed values of
//! [`crate::tags`]; each keeps the tag as written ([`Rich`]: name and attributes verbatim, unknown ones
//! included), so that a record is written back as mjlog XML without loss. Every other tag (the root `mjloggm`,
//! `SHUFFLE`, `TAIKYOKU`, tags this version does not know) stays a verbatim [`Tag`]. Readers of tenhou.net/6
//! JSON and mjai build the same typed values, with the tags Tenhou would have written.

use std::fmt::Write;
use std::ops::Deref;

use haifu_rules::{Meld, Tile};

use crate::tags::{Agari, Bye, Go, Init, Players, Reach, Ryuukyoku};

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
    /// Appends the attributes as XML text, `a="1" b="x&amp;y"`, to `out` (a reused buffer: the events table
    /// writes one per rich tag, and a `String` each, or a `Formatter` call per piece, cost twice as much).
    pub fn write_attrs(&self, out: &mut String) {
        for (i, (k, v)) in self.attrs.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(k);
            out.push_str("=\"");
            push_escaped(out, v);
            out.push('"');
        }
    }
    /// The tag as one XML element: `<NAME a="1"/>`.
    pub fn write_xml(&self, out: &mut String) {
        out.push('<');
        out.push_str(&self.name);
        if !self.attrs.is_empty() {
            out.push(' ');
            self.write_attrs(out);
        }
        out.push_str("/>");
    }
}

/// Appends `v` with XML's four special characters escaped: the runs between them are copied whole (values
/// seldom hold one; a character at a time was a third of the events table's row building, callgrind).
fn push_escaped(out: &mut String, v: &str) {
    let mut rest = v;
    while let Some(i) = rest.bytes().position(|b| matches!(b, b'&' | b'<' | b'>' | b'"')) {
        out.push_str(&rest[..i]);
        out.push_str(match rest.as_bytes()[i] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            _ => "&quot;",
        });
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
}

/// A typed view of one mjlog tag: read from it once, and written as Tenhou writes it.
pub trait TagValue: Sized {
    /// The tag's name (`INIT`, `AGARI` ...).
    const NAME: &'static str;
    /// Reads the tag's attributes; an error says which attribute is wrong and how.
    fn parse(tag: &Tag) -> Result<Self, String>;
    /// The tag as Tenhou writes it.
    fn to_tag(&self) -> Tag;
}

/// A rich tag's typed value with the tag as written (lossless output). Built from a tag read from a log
/// ([`Rich::read`]), or from a value the project makes ([`Rich::new`], the tag as Tenhou writes it): either way
/// the two agree, and neither can be changed alone.
#[derive(Clone, PartialEq, Debug)]
pub struct Rich<T>(Box<(T, Tag)>);

impl<T: TagValue> Rich<T> {
    /// A value the project makes, with the tag Tenhou would write.
    pub fn new(value: T) -> Rich<T> {
        let tag = value.to_tag();
        Rich(Box::new((value, tag)))
    }
    /// A tag as read, typed once.
    pub fn read(tag: Tag) -> Result<Rich<T>, String> {
        let value = T::parse(&tag)?;
        Ok(Rich(Box::new((value, tag))))
    }
    /// The typed value (as `*rich`; named where a clone of it reads better).
    pub fn value(&self) -> &T {
        &self.0 .0
    }
    /// The tag as written.
    pub fn tag(&self) -> &Tag {
        &self.0 .1
    }
}

impl<T> Deref for Rich<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0 .0
    }
}

/// One event of a game record.
#[derive(Clone, PartialEq, Debug)]
pub enum Event {
    /// `T U V W` + id.
    Draw { seat: u8, tile: Tile },
    /// `D E F G` + id.
    Discard { seat: u8, tile: Tile },
    /// `N who= m=`: a meld, decoded once, and its code as written (Tenhou's closed kans name any copy of the
    /// kind; [`Event::call`] writes [`Meld::encode`]).
    Call { seat: u8, meld: Meld, code: u32 },
    /// `DORA hai=`: a new kan dora indicator.
    Dora { tile: Tile },
    /// `INIT`: a round starts.
    Init(Rich<Init>),
    /// `REACH`: a riichi declared (step 1) or its stick paid (step 2).
    Reach(Rich<Reach>),
    /// `AGARI`: a win (several in a row: a double ron).
    Agari(Rich<Agari>),
    /// `RYUUKYOKU`: a draw.
    Ryuukyoku(Rich<Ryuukyoku>),
    /// `GO`: the table's rules.
    Go(Rich<Go>),
    /// `UN`: the players, or a reconnection.
    Players(Rich<Players>),
    /// `BYE`: a disconnection.
    Bye(Rich<Bye>),
    /// Any other tag, verbatim: the root `mjloggm`, `SHUFFLE`, `TAIKYOKU`, and tags this version does not know.
    Tag(Box<Tag>),
}

impl Event {
    /// An untyped tag as an event.
    pub fn tag(t: Tag) -> Event {
        Event::Tag(Box::new(t))
    }

    /// A call as the project writes it (the code [`Meld::encode`] gives).
    pub fn call(seat: u8, meld: Meld) -> Event {
        Event::Call { seat, meld, code: meld.encode() }
    }

    /// A round's start as the project writes it.
    pub fn init(init: Init) -> Event {
        Event::Init(Rich::new(init))
    }
    pub fn reach(reach: Reach) -> Event {
        Event::Reach(Rich::new(reach))
    }
    pub fn agari(agari: Agari) -> Event {
        Event::Agari(Rich::new(agari))
    }
    pub fn ryuukyoku(draw: Ryuukyoku) -> Event {
        Event::Ryuukyoku(Rich::new(draw))
    }
    /// `GO type= lobby=`.
    pub fn go(game_type: u32, lobby: i64) -> Event {
        Event::Go(Rich::new(Go { game_type: Some(crate::tags::GameType(game_type)), lobby: Some(lobby) }))
    }
    /// `UN` of a full table (dan, rate and sex beside the names).
    pub fn players(players: &[crate::tags::Player]) -> Event {
        Event::Players(Rich::new(Players::seated(players)))
    }

    /// An event from a tag that is not a draw or a discard: the rich tags typed (an error names the attribute
    /// that does not parse), `N` and `DORA` with exactly their attributes typed, any other tag kept verbatim.
    pub fn from_tag(t: Tag) -> Result<Event, String> {
        Ok(match t.name.as_str() {
            Init::NAME => Event::Init(Rich::read(t)?),
            Reach::NAME => Event::Reach(Rich::read(t)?),
            Agari::NAME => Event::Agari(Rich::read(t)?),
            Ryuukyoku::NAME => Event::Ryuukyoku(Rich::read(t)?),
            Go::NAME => Event::Go(Rich::read(t)?),
            Players::NAME => Event::Players(Rich::read(t)?),
            Bye::NAME => Event::Bye(Rich::read(t)?),
            "N" if t.attrs.len() == 2 && t.get("who").is_some() && t.get("m").is_some() => {
                let who = t.get("who").unwrap_or_default();
                let seat: u8 = who.trim().parse().map_err(|_| format!("<N who={who:?}> is not a seat"))?;
                if seat > 3 {
                    return Err(format!("<N who=\"{seat}\">: seat out of range"));
                }
                let m = t.get("m").unwrap_or_default();
                let code: u32 = m.trim().parse().map_err(|_| format!("<N m={m:?}> is not a number"))?;
                let meld = Meld::decode(code).map_err(|e| e.to_string())?;
                Event::Call { seat, meld, code }
            }
            "DORA" if t.attrs.len() == 1 && t.get("hai").is_some() => {
                let hai = t.get("hai").unwrap_or_default();
                let id: u8 = hai.trim().parse().map_err(|_| format!("<DORA hai={hai:?}> is not a tile id"))?;
                Event::Dora { tile: Tile::new(id).ok_or_else(|| format!("DORA hai={id} out of range"))? }
            }
            _ => Event::tag(t),
        })
    }

    /// The tag name as the events table stores it: `draw`, `discard`, `call`, `dora`, or the XML name.
    pub fn kind_name(&self) -> &str {
        match self {
            Event::Draw { .. } => "draw",
            Event::Discard { .. } => "discard",
            Event::Call { .. } => "call",
            Event::Dora { .. } => "dora",
            other => other.written_tag().map_or("", |t| t.name.as_str()),
        }
    }

    /// The tag as written, for every event but draws, discards, calls and dora indicators (which are written
    /// from their values).
    pub fn written_tag(&self) -> Option<&Tag> {
        match self {
            Event::Draw { .. } | Event::Discard { .. } | Event::Call { .. } | Event::Dora { .. } => None,
            Event::Init(r) => Some(r.tag()),
            Event::Reach(r) => Some(r.tag()),
            Event::Agari(r) => Some(r.tag()),
            Event::Ryuukyoku(r) => Some(r.tag()),
            Event::Go(r) => Some(r.tag()),
            Event::Players(r) => Some(r.tag()),
            Event::Bye(r) => Some(r.tag()),
            Event::Tag(t) => Some(t),
        }
    }

    /// The tag as written when it is named `name` (a rich tag or a verbatim one).
    pub fn as_tag(&self, name: &str) -> Option<&Tag> {
        self.written_tag().filter(|t| t.name == name)
    }

    /// An event of the play (draw, discard, call, dora, `INIT`, `REACH`, `AGARI`, `RYUUKYOKU`), not a fact
    /// about the table or its players.
    pub fn carries_play(&self) -> bool {
        !matches!(self, Event::Go(_) | Event::Players(_) | Event::Bye(_) | Event::Tag(_))
    }

    /// A round's end (`AGARI` or `RYUUKYOKU`).
    pub fn ends_round(&self) -> bool {
        matches!(self, Event::Agari(_) | Event::Ryuukyoku(_))
    }

    /// The event as one mjlog XML element.
    pub fn write_xml(&self, out: &mut String) {
        const DRAW: [char; 4] = ['T', 'U', 'V', 'W'];
        const DISCARD: [char; 4] = ['D', 'E', 'F', 'G'];
        // write! to a String cannot fail
        let _ = match self {
            Event::Draw { seat, tile } => write!(out, "<{}{}/>", DRAW[usize::from(*seat & 3)], tile.id()),
            Event::Discard { seat, tile } => write!(out, "<{}{}/>", DISCARD[usize::from(*seat & 3)], tile.id()),
            Event::Call { seat, code, .. } => write!(out, "<N who=\"{seat}\" m=\"{code}\" />"),
            Event::Dora { tile } => write!(out, "<DORA hai=\"{}\" />", tile.id()),
            other => {
                if let Some(t) = other.written_tag() {
                    t.write_xml(out);
                }
                Ok(())
            }
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
                let _ = write!(out, "<{ROOT} ");
                t.write_attrs(&mut out);
                out.push('>');
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
