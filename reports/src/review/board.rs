//! The board as a seat saw it before a discard, cut from the game walker's table state (`record::walk`), and
//! drawn: tiles as SVG pictures (no font has the mahjong glyphs everywhere, so a tile is a face with its
//! number and suit, or its honor's letter, coloured by suit), rivers with their riichi and called tiles.

use std::fmt::Write as _;

use anyhow::{anyhow, Result};
use hashbrown::HashMap;

use haifu_mining::report::grouped;
use haifu_record::event::{Event, GameRecord};
use haifu_record::state::{RiverTile, TableState};
use haifu_record::walk::{walk, Visitor};
use haifu_rules::table::round_name;
use haifu_rules::{Kind, Meld, Tile};

use crate::html::escape;

/// One seat at the table, as everyone sees it.
#[derive(Clone, Debug)]
pub struct SeatBoard {
    pub seat: u8,
    pub name: String,
    pub score: i32,
    pub river: Vec<RiverTile>,
    pub melds: Vec<Meld>,
    /// Riichi declared (the stick may still be pending).
    pub riichi: bool,
    /// The seat's wind this round (E S W N).
    pub wind: Kind,
}

/// What the reviewed seat saw before its discard.
#[derive(Clone, Debug)]
pub struct Board {
    pub kyoku: u8,
    pub honba: u8,
    /// Riichi sticks on the table.
    pub kyotaku: u8,
    pub dealer: u8,
    pub dora: Vec<Tile>,
    pub draws_left: u8,
    /// Every seat, the reviewed one first, then the others in turn order (right, across, left).
    pub seats: Vec<SeatBoard>,
    /// The concealed hand, by tile id, without the tile just drawn.
    pub hand: Vec<Tile>,
    /// The tile just drawn (none after a call).
    pub drawn: Option<Tile>,
}

impl Board {
    /// `E4-1`.
    pub fn round_name(&self) -> String {
        round_name(self.kyoku, self.honba)
    }

    /// Another seat had declared riichi before this discard.
    pub fn other_riichi(&self) -> bool {
        self.seats.iter().skip(1).any(|s| s.riichi)
    }

    fn of(table: &TableState, seat: u8, names: &[String]) -> Board {
        let n = table.players.clamp(3, 4);
        let seats = (0..n)
            .map(|k| {
                let s = (seat + k) % n;
                let st = &table.seats[usize::from(s)];
                SeatBoard {
                    seat: s,
                    name: names.get(usize::from(s)).cloned().unwrap_or_default(),
                    score: table.scores[usize::from(s)],
                    river: st.river.clone(),
                    melds: st.melds.to_vec(),
                    riichi: st.riichi.is_declared(),
                    wind: Kind::from_index(27 + (s + n - table.dealer % n) % n),
                }
            })
            .collect();
        let own = &table.seats[usize::from(seat)];
        let drawn = own.last_draw.filter(|t| own.hand.contains(*t));
        let mut hand: Vec<Tile> = own.hand.tiles().iter().filter(|t| Some(*t) != drawn).collect();
        hand.sort_by_key(|t| t.id());
        Board {
            kyoku: table.kyoku,
            honba: table.honba,
            kyotaku: table.kyotaku,
            dealer: table.dealer,
            dora: table.dora.to_vec(),
            draws_left: table.draws_left,
            seats,
            hand,
            drawn,
        }
    }
}

/// Cuts the boards at the wanted discards.
struct Cutter<'a> {
    wanted: &'a [u32],
    names: &'a [String],
    boards: HashMap<u32, Board>,
}

impl Visitor for Cutter<'_> {
    fn before(&mut self, i: usize, e: &Event, table: &TableState) -> Result<(), String> {
        if let Event::Discard { seat, .. } = e {
            let at = i as u32;
            if self.wanted.contains(&at) {
                self.boards.insert(at, Board::of(table, *seat, self.names));
            }
        }
        Ok(())
    }
}

/// The boards before the discards at `wanted` (indices in the record's events), by index.
pub fn boards(record: &GameRecord, wanted: &[u32], names: &[String]) -> Result<HashMap<u32, Board>> {
    let mut cut = Cutter { wanted, names, boards: HashMap::new() };
    walk(&record.events, TableState::default(), &mut cut).map_err(|e| anyhow!("event {}: {}", e.event, e.message))?;
    Ok(cut.boards)
}

/// How a tile is shown.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mark {
    /// Laid sideways: the riichi tile of a river, the called tile of a meld.
    pub sideways: bool,
    /// Taken by a call: faded, dashed.
    pub called_away: bool,
    /// Discarded straight from the draw: a grey face.
    pub tsumogiri: bool,
    /// The reviewed player's choice.
    pub chosen: bool,
    /// The all-players table's first candidate.
    pub top: bool,
    /// Space before it (the tile just drawn).
    pub gap: bool,
}

const SUIT_COLOURS: [&str; 3] = ["#b3261e", "#1f5fa8", "#1e7a3c"];
const HONOR_COLOURS: [&str; 7] = ["#222", "#222", "#222", "#222", "#1f5fa8", "#1e7a3c", "#c21807"];
/// Words under an honor's letter in the larger pictures (the letters are mjai's: P F C the dragons).
const HONOR_WORDS: [&str; 7] = ["east", "south", "west", "north", "haku", "hatsu", "chun"];
/// Tiles at least this high are drawn with the honors' words.
const LARGE: f64 = 40.0;

/// The symbol id of a face: `s` small or `l` large, the kind's index, `r` for a red five.
fn face_id(tile: Tile, red: bool, large: bool) -> String {
    let red = if red && tile.is_red_id() { "r" } else { "" };
    format!("{}{}{red}", if large { 'l' } else { 's' }, tile.kind().index())
}

/// One face as an SVG symbol in a 30 by 40 box. Every tile of a page is a `<use>` of one of these (a page
/// holds thousands of tiles); the marks come from CSS variables set on the `<use>` (`.tile-*` classes).
fn face_symbol(out: &mut String, kind: haifu_rules::Kind, red_five: bool, large: bool) {
    let id = face_id(if red_five { kind.ids()[0] } else { kind.ids()[1] }, red_five, large);
    let base = if red_five { "#ffe1dc" } else { "#fffdf7" };
    let _ = write!(
        out,
        "<symbol id=\"{id}\" viewBox=\"0 0 30 40\"><rect x=\"0.75\" y=\"0.75\" width=\"28.5\" height=\"38.5\" rx=\"4\" \
         style=\"fill:var(--face,{base});stroke:var(--edge,#8a939b);stroke-width:var(--edge-w,1.2);stroke-dasharray:var(--dash,none)\"/>"
    );
    let (text, colour) = match kind.suit() {
        Some(s) => (kind.digit().to_string(), if red_five { "#d4000f" } else { SUIT_COLOURS[s as usize] }),
        None => (kind.name().to_string(), HONOR_COLOURS[usize::from(kind.index() - 27)]),
    };
    if kind == Kind::HAKU {
        // the white dragon is a blank face with a frame
        out.push_str("<rect x=\"6.6\" y=\"8\" width=\"16.8\" height=\"18.4\" fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"2.1\"/>");
    } else {
        let _ = write!(
            out,
            "<text x=\"15\" y=\"22.4\" font-size=\"20.8\" font-weight=\"700\" text-anchor=\"middle\" fill=\"{colour}\">{text}</text>"
        );
    }
    let small = match kind.suit() {
        Some(s) => Some((s.letter().to_string(), 10.4)),
        None if large => Some((HONOR_WORDS[usize::from(kind.index() - 27)].to_string(), 8.0)),
        None => None,
    };
    if let Some((word, size)) = small {
        let _ = write!(
            out,
            "<text x=\"15\" y=\"35.2\" font-size=\"{size}\" text-anchor=\"middle\" fill=\"{colour}\">{word}</text>"
        );
    }
    out.push_str("</symbol>");
}

/// Every face, small and large, red fives too: one hidden SVG at the top of a page.
pub fn face_symbols() -> String {
    let mut out = String::from(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\" \
         font-family=\"DejaVu Sans, Arial, sans-serif\"><defs>",
    );
    for large in [false, true] {
        for k in 0..34u8 {
            let kind = Kind::from_index(k);
            face_symbol(&mut out, kind, false, large);
            if kind.suit().is_some() && kind.digit() == 5 {
                face_symbol(&mut out, kind, true, large);
            }
        }
    }
    out.push_str("</defs></svg>");
    out
}

/// The CSS of the marks, set as variables the faces read.
pub const MARK_CSS: &str = ".tile-tsumogiri{--face:#e4e7ea}.tile-called{--dash:3 2;opacity:.4}\
.tile-chosen{--face:#ffd08a;--edge:#d07000;--edge-w:2.6}.tile-top{--edge:#2e8b57;--edge-w:2.6}";

/// A row of tiles as one SVG, `h` high (a tile is 3/4 as wide); sideways tiles take their height as width.
/// The faces are [`face_symbols`]'s, which the page holds once.
pub fn tiles_svg(tiles: &[(Tile, Mark)], h: f64, red: bool, class: &str) -> String {
    let w = (h * 0.75).round();
    let gap = (h * 0.06).max(1.0);
    let mut body = String::new();
    let mut x = 1.0;
    for &(t, m) in tiles {
        if m.gap {
            x += w * 0.45;
        }
        let mut marks = String::new();
        for (on, name) in [(m.tsumogiri, "tsumogiri"), (m.called_away, "called"), (m.chosen, "chosen"), (m.top, "top")]
        {
            if on {
                marks.push_str(" tile-");
                marks.push_str(name);
            }
        }
        let id = face_id(t, red, h >= LARGE);
        if m.sideways {
            // drawn upright, then turned a quarter about the centre of its sideways slot
            let (cx, cy) = (x + h / 2.0, 1.0 + h - w / 2.0);
            let _ = write!(
                body,
                "<use href=\"#{id}\" class=\"tile{marks}\" x=\"{:.1}\" y=\"{:.1}\" width=\"{w}\" height=\"{h}\" transform=\"rotate(-90 {cx:.1} {cy:.1})\"/>",
                cx - w / 2.0,
                cy - h / 2.0
            );
            x += h + gap;
        } else {
            let _ = write!(
                body,
                "<use href=\"#{id}\" class=\"tile{marks}\" x=\"{x:.1}\" y=\"1\" width=\"{w}\" height=\"{h}\"/>"
            );
            x += w + gap;
        }
    }
    let (width, height) = (x.max(2.0) + 1.0, h + 2.0);
    format!(
        "<svg class=\"{class}\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.1} {height:.1}\">{body}</svg>"
    )
}

/// A river in lines of six, as at the table.
fn river_html(river: &[RiverTile], red: bool) -> String {
    let mut out = String::from("<div class=\"river\">");
    for line in river.chunks(6) {
        let tiles: Vec<(Tile, Mark)> = line
            .iter()
            .map(|r| {
                let m =
                    Mark { sideways: r.riichi, called_away: r.called_away, tsumogiri: r.tsumogiri, ..Mark::default() };
                (r.tile, m)
            })
            .collect();
        out.push_str(&tiles_svg(&tiles, 30.0, red, "river-line"));
    }
    if river.is_empty() {
        out.push_str("<span class=\"none\">no discard yet</span>");
    }
    out.push_str("</div>");
    out
}

/// A seat's melds, the called tile sideways.
fn melds_html(melds: &[Meld], red: bool) -> String {
    let mut out = String::from("<div class=\"melds\">");
    for m in melds {
        let tiles: Vec<(Tile, Mark)> =
            m.tiles().iter().map(|&t| (t, Mark { sideways: m.called == Some(t), ..Mark::default() })).collect();
        let _ = write!(
            out,
            "<span class=\"meld\" title=\"{}\">{}</span>",
            m.kind.name(),
            tiles_svg(&tiles, 30.0, red, "meld")
        );
    }
    out.push_str("</div>");
    out
}

/// The board: the round, the dora indicators, the sticks, every seat (name, wind, score, riichi, river,
/// melds), and the reviewed seat's hand with its choice marked (and the all-players table's first candidate).
pub fn board_html(b: &Board, red: bool, chosen: Tile, top: Option<Kind>) -> String {
    let mut out = String::from("<div class=\"board\">");
    let dora: Vec<(Tile, Mark)> = b.dora.iter().map(|&t| (t, Mark::default())).collect();
    let _ = write!(
        out,
        "<div class=\"info\"><span class=\"round\">{}</span> <span>honba {}</span> <span class=\"sticks\">riichi sticks {}</span> \
         <span>{} tiles left</span> <span class=\"dora\">dora indicator{} {}</span></div>",
        b.round_name(),
        b.honba,
        b.kyotaku,
        b.draws_left,
        if b.dora.len() > 1 { "s" } else { "" },
        tiles_svg(&dora, 30.0, red, "dora-tiles")
    );
    const PLACES: [&str; 4] = ["self", "right", "across", "left"];
    for (k, s) in b.seats.iter().enumerate() {
        let place = if b.seats.len() == 3 && k == 2 { "left" } else { PLACES[k] };
        let dealer = if s.seat == b.dealer { " dealer" } else { "" };
        let riichi = if s.riichi { " riichi" } else { "" };
        let _ = write!(
            out,
            "<div class=\"seat {place}{dealer}{riichi}\" data-seat=\"{}\"><div class=\"who\"><b class=\"wind\">{}</b> {}<br>\
             <span class=\"score\">{}</span>{}</div>{}{}</div>",
            s.seat,
            s.wind.name(),
            escape(&s.name),
            grouped(i64::from(s.score)),
            if s.riichi { " <span class=\"stick\" title=\"riichi\">riichi</span>" } else { "" },
            river_html(&s.river, red),
            melds_html(&s.melds, red)
        );
    }
    // the tile discarded, and one copy of the table's first candidate (another copy where the choice is one)
    let mut hand: Vec<(Tile, Mark)> = b.hand.iter().chain(b.drawn.iter()).map(|&t| (t, Mark::default())).collect();
    if let Some(m) = hand.iter_mut().find(|(t, _)| *t == chosen) {
        m.1.chosen = true;
    }
    if let Some(m) = hand.iter_mut().find(|(t, m)| Some(t.kind()) == top && !m.chosen) {
        m.1.top = true;
    }
    if b.drawn.is_some() {
        if let Some(last) = hand.last_mut() {
            last.1.gap = true;
        }
    }
    let _ = write!(out, "<div class=\"hand\">{}</div></div>", tiles_svg(&hand, 52.0, red, "hand-tiles"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sideways_tile_is_as_wide_as_a_tile_is_high() {
        let t = Tile::from_id(0);
        let upright = tiles_svg(&[(t, Mark::default())], 40.0, true, "x");
        let sideways = tiles_svg(&[(t, Mark { sideways: true, ..Mark::default() })], 40.0, true, "x");
        let width = |s: &str| s.split("width=\"").nth(1).unwrap().split('"').next().unwrap().parse::<f64>().unwrap();
        // a 40-high tile is 30 wide; laid sideways it takes 40
        assert!((width(&sideways) - width(&upright) - 10.0).abs() <= 1.0, "{upright} {sideways}");
        assert!(sideways.contains("rotate(-90"));
    }
}
