//! Reader of mjai JSON lines (bot logs: akochan, mjai-manue, RiichiEnv, Mortal ...) into the one event model.
//!
//! Each game becomes the tags a Tenhou mjlog of the same game would hold, so that replay, decisions and tables
//! treat bot games like Tenhou games.
//!
//! # Reading
//! - One [`GameRecord`] per `start_game` .. `end_game`. A `start_kyoku` with no game open starts one; a file
//!   that stops before `end_game` (or an `end_game` inside an unfinished round) gives a record without `owari`,
//!   which replay reports as truncated. Unknown event types (`error`, `none`, ...) are skipped.
//! - Tiles get physical ids per round with [`IdAllocator`] (red fives take copy 0). A discard marked
//!   `tsumogiri` takes the tile just drawn, any other discard another copy when there is one, so that replay's
//!   tsumogiri flag agrees with the log.
//! - mjai announces the dora of an open or added kan after the discard that follows the replacement draw;
//!   Tenhou writes it right after the replacement draw, so it is moved there.
//!
//! # Synthesized (the log does not say it)
//! - `GO type`: 0x08 hanchan (`kyoku_first` 0 or `gametype` tonnan; without them, the reading the play
//!   does not contradict, hanchan when both fit: [`crate::length`]), 0x02 without red fives (`aka_flag:
//!   false`; without the flag, when no red five appears in the game), 0x10 with 3 players; no table level
//!   bits. `haifu ingest --length/--red/--players` ([`ReadOptions`]) win over all of these. What was settled
//!   or guessed goes to the game's notes. `UN`: the names, dan 0, rate 1500, sex C.
//!   `TAIKYOKU oya` = the first dealer.
//! - `INIT` dice are 0,0 (unknown). The first round's scores default to 25000 (3 players: 35000) each.
//! - Score changes: `deltas`, else `scores` after the event less the tracked scores, else the scores of the
//!   next `start_kyoku` or of `end_game` (akochan's samples write only those).
//! - `AGARI ten`: fu from `fu` (or RiichiEnv's `meta.score.fu`; 0 when absent); points from `hora_points`,
//!   else the winner's gain less the sticks and honba; the limit (mangan ...) from the points and whether the
//!   winner deals. No `paoWho`.
//! - `AGARI yaku`: from mjai `yakus` names (the spelling of mjai's TenhouArchive, plus a few aliases) or
//!   RiichiEnv's `meta.score.yaku` ids (dora, red and ura then counted from the tiles). As Tenhou writes them:
//!   dora and red only when > 0, ura always for riichi winners, these three last; yakuman wins write only
//!   `yakuman`. A log that names no yaku gets no `yaku` attribute: unknown, not "none".
//! - `doraHaiUra` from `uradora_markers` / `ura_markers` / `uradora_marker`, for riichi winners only. Kan dora
//!   the log does not announce (akochan omits them) are missing from `doraHai`.
//! - `RYUUKYOKU` type from `reason`; without it: exhaustive when the wall is empty, else four riichi, four
//!   kans, four winds or nine terminals when the record shows one. Tenpai hands from `tenpais`, else the signs
//!   of the deltas, else the shanten of the tracked hand.
//! - `owari` (only when `end_game` closes the game): the final scores, sticks left on the table to the first
//!   place (ties rank by seat from the first dealer), and points as Tenhou computes them, read off the mjlog
//!   corpus: a non-first player's score rounded to thousands (half away from zero), less the return 30000
//!   (3 players: 40000), plus uma +10 / -10 / -20 (3 players: 0 / -20); the first place takes minus the sum.
//!
//! # Errors
//! A line that is not a JSON object with a `type`, hidden tiles (`?`: a one-player view, not a full log), a game
//! under other rules (no dora indicator, scores not in hundreds: akochan's Chinese-rules self-play), scores and
//! sticks that do not add up to 100000 (3 players: 105000), and events that contradict the tracked hands or
//! scores are errors naming the line.

use std::str::FromStr;

use haifu_rules::shanten::shanten;
use haifu_rules::yaku;
use haifu_rules::{Kind, Meld, MeldKind, MjaiTile, Tile, TileSet};
use serde_json::{Map, Value};

use crate::error::ReadError;
use crate::event::{Event, Format, GameRecord, Tag};
use crate::ids::IdAllocator;
use crate::length::{self, Length, ReadOptions};
pub mod message;
pub mod write;

use crate::tags::{self, Agari, DrawKind, Init, Owari, Player, Reach, Ryuukyoku, Yaku};

/// Reads every game of an mjai log.
pub fn parse(text: &[u8]) -> Result<Vec<GameRecord>, ReadError> {
    parse_with(text, &ReadOptions::default())
}

/// Reads every game of an mjai log, with the rules the user states for what the log leaves unsaid.
pub fn parse_with(text: &[u8], opts: &ReadOptions) -> Result<Vec<GameRecord>, ReadError> {
    let lines = read_lines(text)?;
    let games = split_games(lines)?;
    let mut out = Vec::with_capacity(games.len());
    for (index, lines) in games.into_iter().enumerate() {
        let (events, notes) = GameReader::new(&lines, opts)?.run()?;
        out.push(GameRecord { format: Format::Mjai, index_in_file: index as u32, log_id: None, events, notes });
    }
    Ok(out)
}

/// Events that only make sense inside a game.
const GAME_EVENTS: [&str; 13] = [
    "tsumo",
    "dahai",
    "chi",
    "pon",
    "daiminkan",
    "ankan",
    "kakan",
    "nukidora",
    "dora",
    "reach",
    "reach_accepted",
    "hora",
    "ryukyoku",
];

/// One event line.
struct Line {
    /// 1-based line number in the file.
    no: u32,
    /// Byte offset of the line's start in the file.
    at: u64,
    kind: String,
    obj: Map<String, Value>,
}

fn read_lines(text: &[u8]) -> Result<Vec<Line>, ReadError> {
    let body = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let mut out = Vec::new();
    let mut at = (text.len() - body.len()) as u64;
    for (i, line) in body.split(|&b| b == b'\n').enumerate() {
        let no = i as u32 + 1;
        let start = at;
        at += line.len() as u64 + 1;
        let raw = line.trim_ascii();
        if raw.is_empty() {
            continue;
        }
        let value: Value = serde_json::from_slice(raw).map_err(|e| {
            // serde counts lines within the one line it was given: keep only the column
            let what = e.to_string();
            let what = what.split(" at line ").next().unwrap_or_default();
            ReadError::line(no, start, format!("not a JSON line: {what} at column {}", e.column()))
        })?;
        let Value::Object(obj) = value else {
            return Err(ReadError::line(no, start, "not an mjai event: a JSON object with a \"type\" expected".into()));
        };
        let kind = match obj.get("type") {
            Some(Value::String(s)) => s.clone(),
            _ => return Err(ReadError::line(no, start, "mjai event without a \"type\" string".into())),
        };
        out.push(Line { no, at: start, kind, obj });
    }
    Ok(out)
}

/// Cuts the lines into games: `start_game` .. `end_game`, or from a `start_kyoku` with no game open.
fn split_games(lines: Vec<Line>) -> Result<Vec<Vec<Line>>, ReadError> {
    let mut games = Vec::new();
    let mut current: Option<Vec<Line>> = None;
    for line in lines {
        match line.kind.as_str() {
            "start_game" => {
                games.extend(current.take());
                current = Some(vec![line]);
            }
            "end_game" => {
                // an end_game with no game open (a repeated one) carries nothing
                if let Some(mut g) = current.take() {
                    g.push(line);
                    games.push(g);
                }
            }
            "start_kyoku" if current.is_none() => current = Some(vec![line]),
            kind => match current.as_mut() {
                Some(g) => g.push(line),
                None if GAME_EVENTS.contains(&kind) => {
                    return Err(ReadError::line(
                        line.no,
                        line.at,
                        format!("{kind} outside a game (no start_game or start_kyoku before it)"),
                    ));
                }
                None => {}
            },
        }
    }
    games.extend(current);
    if games.is_empty() {
        return Err(ReadError::line(1, 0, "no game in the file (no start_game or start_kyoku line)".into()));
    }
    Ok(games)
}

// ---- field access -------------------------------------------------------------------------------------------

fn get<'a>(l: &'a Line, key: &str) -> Result<&'a Value, String> {
    l.obj.get(key).filter(|v| !v.is_null()).ok_or_else(|| format!("no \"{key}\""))
}

fn int_of(v: &Value, what: &str) -> Result<i64, String> {
    match v {
        Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 1e15).map(|f| f as i64))
            .ok_or_else(|| format!("{what} {n} is not a whole number")),
        other => Err(format!("{what} {other} is not a number")),
    }
}

fn int(l: &Line, key: &str) -> Result<i64, String> {
    int_of(get(l, key)?, key)
}

fn small(l: &Line, key: &str, max: i64) -> Result<u8, String> {
    let v = int(l, key)?;
    if !(0..=max).contains(&v) {
        return Err(format!("\"{key}\" {v} out of range 0..={max}"));
    }
    Ok(v as u8)
}

/// A tile name; `?` (a hidden tile) means the log is one player's view.
fn tile_of(v: &Value, what: &str) -> Result<MjaiTile, String> {
    let Value::String(s) = v else { return Err(format!("{what} {v} is not a tile name")) };
    if s == "?" {
        return Err(format!("{what} is hidden (\"?\"): a one-player view, not a full log"));
    }
    // "0m" is Tenhou's spelling of the red five
    let name = match s.as_str() {
        "0m" => "5mr",
        "0p" => "5pr",
        "0s" => "5sr",
        other => other,
    };
    MjaiTile::from_str(name).map_err(|e| format!("{what}: {e}"))
}

fn tile(l: &Line, key: &str) -> Result<MjaiTile, String> {
    tile_of(get(l, key)?, &format!("\"{key}\""))
}

fn tile_list(v: &Value, what: &str) -> Result<Vec<MjaiTile>, String> {
    let Value::Array(a) = v else { return Err(format!("{what} is not a list of tiles")) };
    a.iter().map(|t| tile_of(t, what)).collect()
}

fn is_hidden(v: &Value) -> bool {
    v.as_str() == Some("?")
}

/// A list of 3 or 4 numbers, by seat (scores, deltas).
fn seat_values(v: &Value, what: &str, n: usize) -> Result<[i32; 4], String> {
    let Value::Array(a) = v else { return Err(format!("{what} is not a list")) };
    let vals: Vec<i64> = a.iter().map(|x| int_of(x, what)).collect::<Result<_, _>>()?;
    // 3-player logs may keep a fourth, zero slot
    if vals.len() < n || vals.len() > 4 || vals[n..].iter().any(|&x| x != 0) {
        return Err(format!("{what} {vals:?} does not hold one value per player ({n})"));
    }
    let mut out = [0; 4];
    for (o, &x) in out.iter_mut().zip(&vals) {
        if x.abs() > 10_000_000 {
            return Err(format!("{what} value {x} out of range"));
        }
        *o = x as i32;
    }
    if let Some(x) = out.iter().find(|&&x| x % 100 != 0) {
        return Err(format!("{what} {:?} holds {x}, not in hundreds: not a riichi-rule game", &out[..n]));
    }
    Ok(out)
}

fn opt_seat_values(l: &Line, key: &str, n: usize) -> Result<Option<[i32; 4]>, String> {
    l.obj.get(key).filter(|v| !v.is_null()).map(|v| seat_values(v, &format!("\"{key}\""), n)).transpose()
}

fn add(a: [i32; 4], b: [i32; 4]) -> [i32; 4] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]]
}

fn sub(a: [i32; 4], b: [i32; 4]) -> [i32; 4] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3]]
}

fn same_tile(t: Tile, m: MjaiTile, red_enabled: bool) -> bool {
    t.kind() == m.kind && (!red_enabled || t.is_red_id() == m.red)
}

// ---- the game ----------------------------------------------------------------------------------------------

/// Facts about the whole game, read before its events.
struct GameFacts {
    n: usize,
    red: bool,
    /// The length the log states (`kyoku_first`, `gametype`), and by what; settled after the play is read.
    stated_length: Option<(Length, &'static str)>,
    first_dealer: usize,
    names: Vec<String>,
    /// What was given or guessed rather than read (the games table's `notes`).
    notes: Vec<String>,
}

fn game_facts(lines: &[Line], opts: &ReadOptions) -> Result<GameFacts, ReadError> {
    let start = lines.iter().find(|l| l.kind == "start_game");
    let first = lines
        .iter()
        .find(|l| l.kind == "start_kyoku")
        .ok_or_else(|| ReadError::line(lines[0].no, lines[0].at, "game without a start_kyoku".into()))?;
    let err = |m: String| ReadError::line(first.no, first.at, format!("start_kyoku: {m}"));
    let hands = match get(first, "tehais").map_err(err)? {
        Value::Array(h) => h,
        _ => return Err(err("\"tehais\" is not a list of hands".into())),
    };
    let hand_len = |i: usize| hands.get(i).and_then(Value::as_array).map_or(0, Vec::len);
    let fourth_hidden =
        hands.get(3).and_then(Value::as_array).is_some_and(|h| !h.is_empty() && h.iter().all(is_hidden));
    let three_scores = match first.obj.get("scores") {
        Some(Value::Array(s)) => s.len() == 3 || (s.len() == 4 && s[3].as_i64() == Some(0)),
        _ => false,
    };
    let nuki = lines.iter().any(|l| l.kind == "nukidora");
    // a 3-player log may keep the fourth hand as an empty or hidden placeholder
    let mut notes = Vec::new();
    let n = if let Some(p) = opts.players {
        notes.push(format!("players: {p} (given with --players)"));
        usize::from(p)
    } else if hands.len() == 3 || (hands.len() == 4 && hand_len(3) == 0) || (fourth_hidden && three_scores) || nuki {
        3
    } else if hands.len() == 4 {
        4
    } else {
        return Err(err(format!("\"tehais\" holds {} hands", hands.len())));
    };
    let red_seen = lines
        .iter()
        .any(|l| ["pai", "consumed", "tehais", "dora_marker"].iter().any(|k| l.obj.get(*k).is_some_and(holds_red)));
    let red = match (opts.red_fives, start.and_then(|s| s.obj.get("aka_flag"))) {
        (Some(r), _) => {
            notes.push(format!("red fives: {} (given with --red)", if r { "yes" } else { "no" }));
            r
        }
        (None, Some(Value::Bool(b))) => *b,
        (None, _) => {
            let why = if red_seen { "a red five appears" } else { "no red five appears" };
            notes.push(format!("red fives: {} (not stated; {why})", if red_seen { "yes" } else { "no" }));
            red_seen
        }
    };
    let kyoku_first = start.and_then(|s| s.obj.get("kyoku_first")).and_then(Value::as_i64);
    let gametype = start.and_then(|s| s.obj.get("gametype")).and_then(Value::as_str);
    let stated_length = match (kyoku_first, gametype) {
        (Some(k), _) => Some((if k == 0 { Length::Hanchan } else { Length::East }, "kyoku_first")),
        (None, Some(g)) => Some((if g == "tonpu" { Length::East } else { Length::Hanchan }, "gametype")),
        (None, None) => None,
    };
    let oya = small(first, "oya", n as i64 - 1).map_err(err)?;
    let kyoku = small(first, "kyoku", 4).map_err(err)?.max(1);
    let first_dealer = (usize::from(oya) + 4 * n - usize::from(kyoku - 1)) % n;
    let names: Vec<String> = match start.and_then(|s| s.obj.get("names")) {
        Some(Value::Array(a)) => a.iter().map(|v| v.as_str().unwrap_or_default().to_string()).collect(),
        _ => Vec::new(),
    };
    let unnamed: Vec<usize> = (0..n).filter(|&s| names.get(s).is_none_or(String::is_empty)).collect();
    if !unnamed.is_empty() {
        notes.push(format!("names: seats {unnamed:?} have no name in the log (left empty)"));
    }
    Ok(GameFacts { n, red, stated_length, first_dealer, names, notes })
}

fn holds_red(v: &Value) -> bool {
    match v {
        Value::String(s) => matches!(s.as_str(), "5mr" | "5pr" | "5sr" | "0m" | "0p" | "0s"),
        Value::Array(a) => a.iter().any(holds_red),
        _ => false,
    }
}

/// Tenhou round end tag kept typed until the game ends (`owari` goes on the last one).
enum RoundEnd {
    Agari(Agari),
    Ryuukyoku(Ryuukyoku),
}

/// State of the round being read.
struct Round {
    first_line: u32,
    ids: IdAllocator,
    melds: [Vec<Meld>; 4],
    last_draw: [Option<Tile>; 4],
    /// Seat and tile of the last discard, while it can still be called or ronned.
    last_discard: Option<(usize, Tile)>,
    /// Seat and tile that can be robbed: the last added kan (chankan), or a north just extracted (3 players).
    robbable: Option<(usize, Tile)>,
    dora: Vec<Tile>,
    ura: Option<Vec<Tile>>,
    riichi: [bool; 4],
    accepted: u8,
    dealer: usize,
    round_wind: u8,
    honba: u8,
    draws: i32,
    draws_by: [u32; 4],
    discards: Vec<(usize, Tile)>,
    calls: u32,
    kan_seats: Vec<usize>,
    /// An open or added kan waits for its replacement draw (its dora is moved there).
    open_kan: [bool; 4],
    wins: u32,
    ended: bool,
}

impl Round {
    /// Tiles a seat holds, a meld counting 3 and a north extraction none: 13 between turns, 14 on its turn.
    fn size(&self, seat: usize) -> usize {
        self.ids.hands[seat].len() + 3 * self.melds[seat].iter().filter(|m| m.kind != MeldKind::Nuki).count()
    }
}

struct GameReader<'a> {
    lines: &'a [Line],
    facts: GameFacts,
    /// A length the user gave (wins over the log's and over every guess).
    asked_length: Option<Length>,
    /// Line number and byte offset of each round's `start_kyoku`.
    round_lines: Vec<(u32, u64)>,
    events: Vec<Event>,
    scores: [i32; 4],
    kyotaku: u8,
    started: bool,
    round: Option<Round>,
    /// The last AGARI / RYUUKYOKU: event index and typed tag.
    last_end: Option<(usize, RoundEnd)>,
    /// Line indices of `dora` events already written after a replacement draw.
    moved_dora: Vec<usize>,
}

impl<'a> GameReader<'a> {
    fn new(lines: &'a [Line], opts: &ReadOptions) -> Result<GameReader<'a>, ReadError> {
        let facts = game_facts(lines, opts)?;
        Ok(GameReader {
            lines,
            facts,
            asked_length: opts.length,
            round_lines: Vec::new(),
            events: Vec::with_capacity(lines.len() + 8),
            scores: [0; 4],
            kyotaku: 0,
            started: false,
            round: None,
            last_end: None,
            moved_dora: Vec::new(),
        })
    }

    /// The game's events and its notes.
    fn run(mut self) -> Result<(Vec<Event>, Vec<String>), ReadError> {
        self.header();
        let lines = self.lines;
        for (i, l) in lines.iter().enumerate() {
            if l.kind == "start_kyoku" {
                self.round_lines.push((l.no, l.at));
            }
            self.step(i).map_err(|m| ReadError::line(l.no, l.at, format!("{}: {m}", l.kind)))?;
        }
        self.settle_length()?;
        Ok((self.events, self.facts.notes))
    }

    /// Sets the GO type's hanchan bit once the play is known (see [`crate::length`]).
    fn settle_length(&mut self) -> Result<(), ReadError> {
        let Some(at) = self.events.iter().position(|e| e.as_tag("GO").is_some()) else { return Ok(()) };
        let go = crate::length::go_type_of(&self.events).map_or(0, |t| t.0);
        match length::settle(&self.events, go, self.facts.stated_length, self.asked_length) {
            Ok(s) => {
                self.events[at] = Event::tag(
                    Tag::new("GO").with("type", length::with_length(go, s.length).to_string()).with("lobby", "0"),
                );
                self.facts.notes.insert(0, s.note);
                Ok(())
            }
            Err(c) => {
                let (no, at) = self.round_lines.get(c.round).copied().unwrap_or((1, 0));
                Err(ReadError::line(no, at, format!("start_kyoku: {}", c.why)))
            }
        }
    }

    fn n(&self) -> usize {
        self.facts.n
    }

    fn header(&mut self) {
        let f = &self.facts;
        // the length is settled once the play is read; hanchan until then
        let mut go = 0x08u32;
        if !f.red {
            go |= 0x02;
        }
        if f.n == 3 {
            go |= 0x10;
        }
        self.events.push(Event::tag(Tag::new("GO").with("type", go.to_string()).with("lobby", "0")));
        let players: Vec<Player> = (0..4)
            .map(|s| Player {
                name: if s < f.n { f.names.get(s).cloned().unwrap_or_default() } else { String::new() },
                ..Player::default()
            })
            .collect();
        self.events.push(Event::tag(tags::un_tag(&players)));
        self.events.push(Event::tag(Tag::new("TAIKYOKU").with("oya", f.first_dealer.to_string())));
    }

    /// A tile id error, with the likely cause when a game said to play with red fives shows four plain ones.
    fn explain(&self, e: String, t: MjaiTile) -> String {
        if self.facts.red && !t.red && !t.kind.is_honor() && t.kind.digit() == 5 {
            format!("{e} (the game plays with red fives, so only three plain {} exist)", t.kind)
        } else {
            e
        }
    }

    fn round_mut(&mut self) -> Result<&mut Round, String> {
        match self.round.as_mut() {
            Some(r) if !r.ended => Ok(r),
            Some(_) => Err("after the round ended".into()),
            None => Err("outside a round (no start_kyoku before it)".into()),
        }
    }

    fn seat(&self, l: &Line, key: &str) -> Result<usize, String> {
        Ok(usize::from(small(l, key, self.n() as i64 - 1)?))
    }

    fn step(&mut self, i: usize) -> Result<(), String> {
        let lines = self.lines;
        let l = &lines[i];
        match l.kind.as_str() {
            "start_kyoku" => self.start_kyoku(l),
            "tsumo" => self.tsumo(i, l),
            "dahai" => self.dahai(l),
            "chi" | "pon" | "daiminkan" => self.call(l),
            "ankan" => self.ankan(l),
            "kakan" => self.kakan(l),
            "nukidora" => self.nukidora(l),
            "dora" if self.moved_dora.contains(&i) => Ok(()),
            "dora" => {
                let marker = tile(l, "dora_marker")?;
                let r = self.round_mut()?;
                let t = r.ids.fresh(marker.kind, marker.red)?;
                r.dora.push(t);
                self.events.push(Event::Dora { tile: t });
                Ok(())
            }
            "reach" => {
                let who = self.seat(l, "actor")?;
                let r = self.round_mut()?;
                if r.riichi[who] {
                    return Err(format!("seat {who} is already in riichi"));
                }
                r.riichi[who] = true;
                self.events.push(Event::tag(Reach { who: who as u8, step: 1, scores: None }.to_tag()));
                Ok(())
            }
            "reach_accepted" => self.reach_accepted(l),
            "hora" => self.hora(i, l),
            "ryukyoku" => self.ryukyoku(i, l),
            "end_game" => self.end_game(l),
            // start_game, end_kyoku, and event types this reader does not know carry nothing to write
            _ => Ok(()),
        }
    }

    fn start_kyoku(&mut self, l: &Line) -> Result<(), String> {
        if let Some(r) = &self.round {
            if !r.ended {
                return Err(format!("the round begun on line {} has not ended (no hora or ryukyoku)", r.first_line));
            }
        }
        let n = self.n();
        let total = if n == 3 { 105_000 } else { 100_000 };
        let bakaze = match get(l, "bakaze")?.as_str() {
            Some("E") => 0u8,
            Some("S") => 1,
            Some("W") => 2,
            Some("N") => 3,
            _ => return Err(format!("\"bakaze\" {} is not E, S, W or N", l.obj["bakaze"])),
        };
        let kyoku = small(l, "kyoku", 4)?;
        if kyoku == 0 || usize::from(kyoku) > n {
            return Err(format!("\"kyoku\" {kyoku} out of range 1..={n}"));
        }
        let honba = small(l, "honba", 255)?;
        let kyotaku = small(l, "kyotaku", 255)?;
        let dealer = self.seat(l, "oya")?;
        let logged = opt_seat_values(l, "scores", n)?;
        let scores = match (logged, self.started) {
            (Some(s), false) => s,
            (None, false) => [total / n as i32, total / n as i32, total / n as i32, if n == 3 { 0 } else { 25_000 }],
            (Some(s), true) if s != self.scores || kyotaku != self.kyotaku => {
                return Err(format!(
                    "scores {:?} with {kyotaku} sticks differ from the {:?} with {} sticks the last round left",
                    &s[..n],
                    &self.scores[..n],
                    self.kyotaku
                ));
            }
            (_, true) => self.scores,
        };
        if self.started && kyotaku != self.kyotaku {
            return Err(format!("{kyotaku} sticks on the table, the last round left {}", self.kyotaku));
        }
        let sum: i32 = scores.iter().sum::<i32>() + 1000 * i32::from(kyotaku);
        if sum != total {
            return Err(format!(
                "scores {:?} and {kyotaku} sticks add to {sum}, not {total}: not Tenhou's starting scores",
                &scores[..n]
            ));
        }
        if l.obj.get("dora_marker").is_none_or(Value::is_null) {
            // akochan's Chinese-rules self-play logs look like this (and their scores move by single points)
            return Err("no \"dora_marker\": not a riichi-rule game (every riichi round shows a dora indicator)".into());
        }
        let marker = tile(l, "dora_marker")?;
        let hands = match get(l, "tehais")? {
            Value::Array(h) => h,
            _ => return Err("\"tehais\" is not a list of hands".into()),
        };
        let hidden: Vec<usize> = (0..n)
            .filter(|&s| hands.get(s).and_then(Value::as_array).is_some_and(|h| h.iter().any(is_hidden)))
            .collect();
        if !hidden.is_empty() {
            return Err(format!("the hands of seats {hidden:?} are hidden (\"?\"): a one-player view, not a full log"));
        }
        let mut ids = IdAllocator::new(self.facts.red);
        let mut dealt: [Vec<Tile>; 4] = Default::default();
        for (s, hand) in dealt.iter_mut().enumerate().take(n) {
            let tiles = tile_list(hands.get(s).unwrap_or(&Value::Null), &format!("hand of seat {s}"))?;
            if tiles.len() != 13 {
                return Err(format!("seat {s} is dealt {} tiles", tiles.len()));
            }
            for t in tiles {
                hand.push(ids.draw(s, t.kind, t.red).map_err(|e| self.explain(e, t))?);
            }
            hand.sort_unstable();
        }
        let dora = ids.fresh(marker.kind, marker.red).map_err(|e| self.explain(e, marker))?;
        let init = Init {
            kyoku: bakaze * 4 + kyoku - 1,
            honba,
            kyotaku,
            dice: [0, 0],
            dora_indicator: dora,
            scores,
            dealer: dealer as u8,
            hands: dealt,
        };
        self.events.push(Event::tag(init.to_tag()));
        self.started = true;
        self.scores = scores;
        self.kyotaku = kyotaku;
        self.round = Some(Round {
            first_line: l.no,
            ids,
            melds: Default::default(),
            last_draw: [None; 4],
            last_discard: None,
            robbable: None,
            dora: vec![dora],
            ura: None,
            riichi: [false; 4],
            accepted: 0,
            dealer,
            round_wind: bakaze,
            honba,
            draws: 0,
            draws_by: [0; 4],
            discards: Vec::new(),
            calls: 0,
            kan_seats: Vec::new(),
            open_kan: [false; 4],
            wins: 0,
            ended: false,
        });
        Ok(())
    }

    fn tsumo(&mut self, i: usize, l: &Line) -> Result<(), String> {
        let seat = self.seat(l, "actor")?;
        let t = tile(l, "pai")?;
        let hint = self.explain(String::new(), t);
        let r = self.round_mut()?;
        let id = r.ids.draw(seat, t.kind, t.red).map_err(|e| e + &hint)?;
        r.draws += 1;
        r.draws_by[seat] += 1;
        r.last_draw[seat] = Some(id);
        r.last_discard = None;
        r.robbable = None;
        let kan_dora = std::mem::take(&mut r.open_kan[seat]);
        self.events.push(Event::Draw { seat: seat as u8, tile: id });
        if kan_dora {
            self.move_kan_dora(i)?;
        }
        Ok(())
    }

    /// After the replacement draw of an open or added kan: writes the kan's dora now, as Tenhou does, when mjai
    /// announces it later in the same turn.
    fn move_kan_dora(&mut self, i: usize) -> Result<(), String> {
        let lines = self.lines;
        for (j, l) in lines.iter().enumerate().skip(i + 1) {
            match l.kind.as_str() {
                "dora" => {
                    let marker = tile(l, "dora_marker")?;
                    let r = self.round_mut()?;
                    let t = r.ids.fresh(marker.kind, marker.red)?;
                    r.dora.push(t);
                    self.events.push(Event::Dora { tile: t });
                    self.moved_dora.push(j);
                    return Ok(());
                }
                "dahai" | "reach" | "reach_accepted" => {}
                k if GAME_EVENTS.contains(&k) || k.starts_with("start_") || k.starts_with("end_") => return Ok(()),
                _ => {}
            }
        }
        Ok(())
    }

    fn dahai(&mut self, l: &Line) -> Result<(), String> {
        let seat = self.seat(l, "actor")?;
        let t = tile(l, "pai")?;
        let tsumogiri = l.obj.get("tsumogiri").and_then(Value::as_bool);
        let red = self.facts.red;
        let r = self.round_mut()?;
        let hand = r.ids.hands[seat];
        let drawn = r.last_draw[seat].filter(|&d| hand.contains(d) && same_tile(d, t, red));
        let pick = match (tsumogiri, drawn) {
            (Some(true) | None, Some(d)) => Some(d),
            // a hand discard: another copy than the one just drawn, when the hand has one
            (Some(false), Some(d)) => Some(hand.iter().find(|&x| x != d && same_tile(x, t, red)).unwrap_or(d)),
            (_, None) => None,
        };
        let id = match pick {
            Some(id) => {
                r.ids.take_exact(seat, id);
                id
            }
            None => r.ids.take(seat, t.kind, t.red)?,
        };
        r.last_draw[seat] = None;
        r.last_discard = Some((seat, id));
        r.robbable = None;
        r.discards.push((seat, id));
        self.events.push(Event::Discard { seat: seat as u8, tile: id });
        Ok(())
    }

    fn call(&mut self, l: &Line) -> Result<(), String> {
        let seat = self.seat(l, "actor")?;
        let target = self.seat(l, "target")?;
        let called = tile(l, "pai")?;
        let consumed = tile_list(get(l, "consumed")?, "\"consumed\"")?;
        let kind = match l.kind.as_str() {
            "chi" => MeldKind::Chi,
            "pon" => MeldKind::Pon,
            _ => MeldKind::Daiminkan,
        };
        let red = self.facts.red;
        let r = self.round_mut()?;
        let (from_seat, last) = r.last_discard.ok_or("no discard to call")?;
        if from_seat != target || !same_tile(last, called, red) {
            return Err(format!(
                "calls {called} from seat {target}, but the last discard is seat {from_seat}'s {}",
                MjaiTile { kind: last.kind(), red: red && last.is_red_id() }
            ));
        }
        if target == seat {
            return Err("calls its own discard".into());
        }
        let mut from_hand = Vec::with_capacity(consumed.len());
        for c in &consumed {
            from_hand.push(r.ids.take(seat, c.kind, c.red)?);
        }
        // Tenhou's meld code counts seats to the right in its 4-slot numbering, in 3-player games too
        let from = ((target + 4 - seat) % 4) as u8;
        let meld = Meld::call(kind, &from_hand, last, from).map_err(|e| e.to_string())?;
        r.melds[seat].push(meld);
        r.last_discard = None;
        r.robbable = None;
        r.last_draw[seat] = None;
        r.calls += 1;
        if kind == MeldKind::Daiminkan {
            r.kan_seats.push(seat);
            r.open_kan[seat] = true;
        }
        self.events.push(Event::Call { seat: seat as u8, meld: meld.encode() });
        Ok(())
    }

    fn ankan(&mut self, l: &Line) -> Result<(), String> {
        let seat = self.seat(l, "actor")?;
        let consumed = tile_list(get(l, "consumed")?, "\"consumed\"")?;
        let kind = consumed.first().ok_or("\"consumed\" is empty")?.kind;
        if consumed.len() != 4 || consumed.iter().any(|c| c.kind != kind) {
            return Err(format!("\"consumed\" of a closed kan must be four {kind}"));
        }
        let r = self.round_mut()?;
        for c in &consumed {
            r.ids.take(seat, c.kind, c.red)?;
        }
        let meld = Meld::ankan(kind);
        r.melds[seat].push(meld);
        r.last_draw[seat] = None;
        r.calls += 1;
        r.kan_seats.push(seat);
        self.events.push(Event::Call { seat: seat as u8, meld: meld.encode() });
        Ok(())
    }

    fn kakan(&mut self, l: &Line) -> Result<(), String> {
        let seat = self.seat(l, "actor")?;
        let added = tile(l, "pai")?;
        let r = self.round_mut()?;
        let slot = r.melds[seat]
            .iter()
            .position(|m| m.kind == MeldKind::Pon && m.base_kind() == added.kind)
            .ok_or_else(|| format!("seat {seat} adds {added} to a pon it does not have"))?;
        let id = r.ids.take(seat, added.kind, added.red)?;
        let meld = r.melds[seat][slot].kakan_of(id).map_err(|e| e.to_string())?;
        r.melds[seat][slot] = meld;
        r.last_draw[seat] = None;
        r.robbable = Some((seat, id));
        r.calls += 1;
        r.kan_seats.push(seat);
        r.open_kan[seat] = true;
        self.events.push(Event::Call { seat: seat as u8, meld: meld.encode() });
        Ok(())
    }

    fn nukidora(&mut self, l: &Line) -> Result<(), String> {
        let seat = self.seat(l, "actor")?;
        let t = match l.obj.get("pai") {
            Some(v) if !v.is_null() => tile_of(v, "\"pai\"")?,
            _ => MjaiTile { kind: Kind::NORTH, red: false },
        };
        if t.kind != Kind::NORTH {
            return Err(format!("extracts {t}, not a north"));
        }
        if self.n() != 3 {
            return Err("north extraction in a 4-player game".into());
        }
        let r = self.round_mut()?;
        let id = r.ids.take(seat, t.kind, false)?;
        let meld = Meld::nuki(id);
        r.melds[seat].push(meld);
        r.last_draw[seat] = None;
        r.robbable = Some((seat, id));
        self.events.push(Event::Call { seat: seat as u8, meld: meld.encode() });
        Ok(())
    }

    fn reach_accepted(&mut self, l: &Line) -> Result<(), String> {
        let n = self.n();
        let who = self.seat(l, "actor")?;
        let logged = opt_seat_values(l, "scores", n)?;
        let r = self.round_mut()?;
        if !r.riichi[who] {
            return Err(format!("seat {who} did not declare riichi"));
        }
        r.accepted += 1;
        self.scores[who] -= 1000;
        self.kyotaku += 1;
        if let Some(s) = logged {
            if s != self.scores {
                return Err(format!("scores {:?} differ from the {:?} after the stick", &s[..n], &self.scores[..n]));
            }
        }
        self.events.push(Event::tag(Reach { who: who as u8, step: 2, scores: Some(self.scores) }.to_tag()));
        Ok(())
    }

    /// The score changes of a round end: logged, or from the scores after it, or from the next line that
    /// gives scores. `sticks` = the sticks the event takes off the table.
    fn deltas(&self, i: usize, l: &Line, sticks: u8) -> Result<[i32; 4], String> {
        let n = self.n();
        let expect = 1000 * i32::from(sticks);
        let after = opt_seat_values(l, "scores", n)?;
        let deltas = if let Some(d) = opt_seat_values(l, "deltas", n)? {
            if let Some(a) = after {
                if add(self.scores, d) != a {
                    return Err(format!(
                        "\"scores\" {:?} differ from the tracked {:?} plus \"deltas\" {:?}",
                        &a[..n],
                        &self.scores[..n],
                        &d[..n]
                    ));
                }
            }
            d
        } else if let Some(a) = after {
            sub(a, self.scores)
        } else {
            let (no, next, end_game) = self.later_scores(i)?;
            let mut d = sub(next, self.scores);
            let sum: i32 = d.iter().sum();
            // an end_game that already gave the sticks left on the table to the first place
            if end_game && sum == expect + 1000 * i32::from(self.kyotaku - sticks) && sum != expect {
                let top = self.ranking(next)[0];
                d[top] -= sum - expect;
            }
            if d.iter().sum::<i32>() != expect {
                return Err(format!(
                    "gives no deltas or scores, and the scores on line {no} {:?} are not the tracked {:?} \
                     changed by {expect} for the sticks",
                    &next[..n],
                    &self.scores[..n]
                ));
            }
            d
        };
        let sum: i32 = deltas.iter().sum();
        if sum != expect {
            return Err(format!("score changes {:?} add to {sum}, expected {expect} for the sticks", &deltas[..n]));
        }
        Ok(deltas)
    }

    /// Scores given by the next `start_kyoku` or `end_game`: line number, scores, whether it is `end_game`.
    fn later_scores(&self, i: usize) -> Result<(u32, [i32; 4], bool), String> {
        let n = self.n();
        for l in &self.lines[i + 1..] {
            match l.kind.as_str() {
                "hora" => return Err(format!("gives no deltas or scores, and a second win follows (line {})", l.no)),
                "start_kyoku" | "end_game" => {
                    return match opt_seat_values(l, "scores", n)? {
                        Some(s) => Ok((l.no, s, l.kind == "end_game")),
                        None => Err(format!("gives no deltas or scores, nor does line {}", l.no)),
                    };
                }
                "start_game" => break,
                _ => {}
            }
        }
        Err("gives no deltas or scores, and no later line does".into())
    }

    /// Seats from first to last place: by score, ties by seat from the first dealer.
    fn ranking(&self, scores: [i32; 4]) -> Vec<usize> {
        let (n, first) = (self.n(), self.facts.first_dealer);
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&s| (-scores[s], (s + n - first) % n));
        order
    }

    fn hora(&mut self, i: usize, l: &Line) -> Result<(), String> {
        let n = self.n();
        let who = self.seat(l, "actor")?;
        let from = self.seat(l, "target")?;
        let pai = l.obj.get("pai").filter(|v| !v.is_null()).map(|v| tile_of(v, "\"pai\"")).transpose()?;
        let red = self.facts.red;
        // a double ron: the round has ended with a win on this discard
        let double = self.round.as_ref().is_some_and(|r| r.ended && r.wins > 0);
        let r = match self.round.as_mut() {
            Some(r) if !r.ended || double => r,
            _ => return Err("outside a round, or after it ended".into()),
        };
        let win = if who == from {
            r.last_draw[who]
                .filter(|&t| r.ids.hands[who].contains(t))
                .ok_or_else(|| format!("tsumo by seat {who}, who has not just drawn"))?
        } else {
            let robbed = r.robbable.filter(|&(s, _)| s == from).map(|(_, t)| t);
            let discarded = r.last_discard.filter(|&(s, _)| s == from).map(|(_, t)| t);
            robbed.or(discarded).ok_or_else(|| format!("ron on seat {from}, who has not just discarded"))?
        };
        if let Some(p) = pai {
            if !same_tile(win, p, red) {
                return Err(format!("wins on {p}, but the winning tile is {win}"));
            }
        }
        let size = r.size(who) + usize::from(who != from);
        if size != 14 {
            return Err(format!("seat {who} wins holding {size} tiles with the winning one"));
        }
        let mut hand: Vec<Tile> = r.ids.hands[who].iter().collect();
        if who != from {
            hand.push(win);
            hand.sort_unstable();
        }
        let ura_markers = ["uradora_markers", "ura_markers", "uradora_marker"]
            .iter()
            .find_map(|k| l.obj.get(*k).filter(|v| v.is_array()))
            .map(|v| tile_list(v, "ura markers"))
            .transpose()?;
        if r.riichi[who] && r.ura.is_none() {
            if let Some(markers) = ura_markers.filter(|m| !m.is_empty()) {
                let mut ura = Vec::with_capacity(markers.len());
                for m in markers {
                    ura.push(r.ids.fresh(m.kind, m.red)?);
                }
                r.ura = Some(ura);
            }
        }
        let ura = if r.riichi[who] { r.ura.clone().unwrap_or_default() } else { Vec::new() };
        let first = r.wins == 0;
        r.wins += 1;
        r.ended = true;
        let honba = r.honba;
        let dealer = r.dealer;
        // Tenhou lists the melds newest first
        let melds: Vec<u32> = r.melds[who].iter().rev().map(Meld::encode).collect();
        let dora = r.dora.clone();
        let ctx = WinContext {
            seat_wind: ((who + n - dealer) % n) as u8,
            round_wind: r.round_wind,
            riichi: r.riichi[who],
            closed: r.melds[who].iter().all(|m| matches!(m.kind, MeldKind::Ankan | MeldKind::Nuki)),
            tiles: hand.iter().copied().chain(r.melds[who].iter().flat_map(|m| m.tiles().to_vec())).collect(),
            dora: dora.clone(),
            ura: ura.clone(),
            red,
            players: n as u8,
        };
        let sticks = if first { self.kyotaku } else { 0 };
        let delta = self.deltas(i, l, sticks)?;
        let points = match l.obj.get("hora_points").filter(|v| !v.is_null()) {
            Some(v) => i32::try_from(int_of(v, "\"hora_points\"")?).map_err(|_| "\"hora_points\" out of range")?,
            None => {
                // the honba go to the first winner: 300 each from the discarder, or 100 from each payer
                let bonus = if !first {
                    0
                } else if who == from {
                    100 * i32::from(honba) * (n as i32 - 1)
                } else {
                    300 * i32::from(honba)
                };
                delta[who] - 1000 * i32::from(sticks) - bonus
            }
        };
        let meta_fu = l.obj.get("meta").and_then(|m| m.get("score")).and_then(|s| s.get("fu"));
        let fu = match l.obj.get("fu").filter(|v| !v.is_null()).or(meta_fu) {
            Some(v) => u32::try_from(int_of(v, "\"fu\"")?).map_err(|_| "\"fu\" out of range")?,
            None => 0,
        };
        let (yaku, yakuman) = win_yaku(l, &ctx);
        let limit = if !yakuman.is_empty() { 5 } else { limit_of(points, who == dealer) };
        let agari = Agari {
            honba,
            kyotaku: sticks,
            hand,
            melds,
            machi: win,
            fu,
            points,
            limit,
            yaku,
            yakuman,
            dora_indicators: dora,
            ura_indicators: ura,
            who: who as u8,
            from_who: from as u8,
            pao_who: None,
            before: self.scores,
            delta,
            owari: None,
        };
        self.scores = add(self.scores, delta);
        self.kyotaku -= sticks;
        self.events.push(Event::tag(agari.to_tag(4)));
        self.last_end = Some((self.events.len() - 1, RoundEnd::Agari(agari)));
        Ok(())
    }

    fn ryukyoku(&mut self, i: usize, l: &Line) -> Result<(), String> {
        let n = self.n();
        let wall = if n == 3 { 108 - 14 - 39 } else { 136 - 14 - 52 };
        let reason = l.obj.get("reason").and_then(Value::as_str).unwrap_or_default().to_ascii_lowercase();
        let r = self.round_mut()?;
        let left = wall - r.draws;
        let kind = match reason.as_str() {
            "fanpai" | "howanpai" | "exhaustive" | "ryukyoku" => DrawKind::Exhaustive,
            "kyushukyuhai" | "kyuushukyuuhai" | "kyushu" | "kyuushu" | "yao9" => DrawKind::Yao9,
            "suuchareach" | "suucha_riichi" | "suuchariichi" | "suchariichi" | "sucha_reach" | "reach4" => {
                DrawKind::Reach4
            }
            "sanchaho" | "sanchahou" | "sancha_ron" | "ron3" => DrawKind::Ron3,
            "suukaikan" | "sukaikan" | "suukantsu" | "kan4" => DrawKind::Kan4,
            "suufonrenta" | "sufonrenda" | "suufonrenda" | "sufonrenta" | "kaze4" => DrawKind::Kaze4,
            "nagashimangan" | "nagashi_mangan" | "nm" => DrawKind::Nagashi,
            // no reason, or a spelling this reader does not know: what the record shows
            other => infer_draw(r, left).ok_or_else(|| {
                format!("\"reason\" {other:?}, and the record shows no known draw ({left} tiles left in the wall)")
            })?,
        };
        if matches!(kind, DrawKind::Exhaustive | DrawKind::Nagashi) && left != 0 {
            return Err(format!("exhaustive draw with {left} tiles left in the wall"));
        }
        let deltas = self.deltas(i, l, 0)?;
        let r = self.round.as_mut().ok_or("outside a round")?;
        let mut shown: [Option<Vec<Tile>>; 4] = Default::default();
        match kind {
            DrawKind::Exhaustive | DrawKind::Nagashi => {
                let tenpais: Option<Vec<bool>> = match l.obj.get("tenpais") {
                    Some(Value::Array(a)) if a.len() >= n => {
                        Some(a.iter().map(|v| v.as_bool() == Some(true)).collect())
                    }
                    _ => None,
                };
                let by_deltas = kind == DrawKind::Exhaustive && deltas[..n].iter().any(|&d| d != 0);
                for (s, slot) in shown.iter_mut().enumerate().take(n) {
                    let hand = r.ids.hands[s];
                    let tenpai = match &tenpais {
                        Some(t) => t[s],
                        None if by_deltas => deltas[s] > 0,
                        None => r.size(s) == 13 && shanten(&hand.counts()) == 0,
                    };
                    if tenpai {
                        if r.size(s) != 13 {
                            return Err(format!("seat {s} is tenpai holding {} tiles", r.size(s)));
                        }
                        *slot = Some(hand.iter().collect());
                    }
                }
            }
            DrawKind::Yao9 => {
                let who = match l.obj.get("actor") {
                    Some(v) if !v.is_null() => Some(usize::from(small(l, "actor", n as i64 - 1)?)),
                    _ => (0..n).find(|&s| r.size(s) == 14),
                };
                if let Some(s) = who.filter(|&s| r.size(s) == 14) {
                    shown[s] = Some(r.ids.hands[s].iter().collect());
                }
            }
            _ => {}
        }
        r.ended = true;
        let end = Ryuukyoku {
            kind,
            honba: r.honba,
            kyotaku: self.kyotaku,
            shown,
            before: self.scores,
            delta: deltas,
            owari: None,
        };
        self.scores = add(self.scores, deltas);
        self.events.push(Event::tag(end.to_tag(4)));
        self.last_end = Some((self.events.len() - 1, RoundEnd::Ryuukyoku(end)));
        Ok(())
    }

    fn end_game(&mut self, l: &Line) -> Result<(), String> {
        let n = self.n();
        // a game stopped inside a round keeps no owari: replay reports it as truncated
        if self.round.as_ref().is_none_or(|r| !r.ended) {
            return Ok(());
        }
        let ranking = self.ranking(self.scores);
        let mut last = self.scores;
        last[ranking[0]] += 1000 * i32::from(self.kyotaku);
        if let Some(s) = opt_seat_values(l, "scores", n)? {
            if s != self.scores && s != last {
                return Err(format!(
                    "scores {:?} differ from the {:?} the rounds add up to",
                    &s[..n],
                    &self.scores[..n]
                ));
            }
        }
        let owari = Owari { scores: last, points: game_points(last, &ranking) };
        let Some((index, end)) = self.last_end.as_mut() else { return Ok(()) };
        let tag = match end {
            RoundEnd::Agari(a) => {
                a.owari = Some(owari);
                a.to_tag(4)
            }
            RoundEnd::Ryuukyoku(d) => {
                d.owari = Some(owari);
                d.to_tag(4)
            }
        };
        self.events[*index] = Event::tag(tag);
        Ok(())
    }
}

/// An abortive draw the record shows, when the log gives no reason.
fn infer_draw(r: &Round, left: i32) -> Option<DrawKind> {
    if left == 0 {
        return Some(DrawKind::Exhaustive);
    }
    if r.accepted == 4 {
        return Some(DrawKind::Reach4);
    }
    if r.kan_seats.len() >= 4 && r.kan_seats.iter().any(|&s| s != r.kan_seats[0]) {
        return Some(DrawKind::Kan4);
    }
    if r.calls == 0 && r.discards.len() == 4 {
        let k = r.discards[0].1.kind();
        if k.is_wind() && r.discards.iter().all(|(_, t)| t.kind() == k) {
            return Some(DrawKind::Kaze4);
        }
    }
    if r.calls == 0 {
        // nine kinds of terminals and honors on a seat's first draw
        let seat = (0..4).find(|&s| r.draws_by[s] == 1 && r.last_draw[s].is_some())?;
        let counts = r.ids.hands[seat].counts();
        let kinds = (0..34u8).filter(|&k| counts[usize::from(k)] > 0 && Kind::from_index(k).is_yaochuu()).count();
        if kinds >= 9 {
            return Some(DrawKind::Yao9);
        }
    }
    None
}

/// Tenhou's limit code from the points: 1 mangan, 2 haneman, 3 baiman, 4 sanbaiman, 5 yakuman.
fn limit_of(points: i32, dealer: bool) -> u8 {
    let base = if dealer { points / 6 } else { points / 4 };
    match base {
        b if b >= 8000 => 5,
        b if b >= 6000 => 4,
        b if b >= 4000 => 3,
        b if b >= 3000 => 2,
        b if b >= 2000 => 1,
        _ => 0,
    }
}

/// Final game points as Tenhou writes them in `owari` (see the module notes).
fn game_points(scores: [i32; 4], ranking: &[usize]) -> [f64; 4] {
    let (ret, uma): (i32, &[i32]) = if ranking.len() == 3 { (40, &[0, 0, -20]) } else { (30, &[0, 10, -10, -20]) };
    let mut points = [0.0; 4];
    let mut rest = 0;
    for (rank, &s) in ranking.iter().enumerate().skip(1) {
        let hundreds = scores[s] / 100;
        let thousands = hundreds.signum() * ((hundreds.abs() + 5) / 10);
        let p = thousands - ret + uma[rank];
        points[s] = f64::from(p);
        rest += p;
    }
    points[ranking[0]] = f64::from(-rest);
    points
}

// ---- yaku ---------------------------------------------------------------------------------------------------

/// What naming a win's yaku needs to know.
struct WinContext {
    /// 0 east .. 3 north.
    seat_wind: u8,
    round_wind: u8,
    riichi: bool,
    closed: bool,
    /// Every tile of the winner: concealed with the winning tile, and the meld tiles.
    tiles: Vec<Tile>,
    dora: Vec<Tile>,
    ura: Vec<Tile>,
    red: bool,
    /// 3 or 4: with three players the dora after a 1m indicator is the 9m.
    players: u8,
}

impl WinContext {
    /// The dragons (Tenhou ids 18-20) the winner holds three or four of.
    fn dragon_ids(&self) -> Vec<u8> {
        let set: TileSet = self.tiles.iter().copied().collect();
        (0..3u8).filter(|&d| set.count(Kind::from_index(Kind::HAKU.index() + d)) >= 3).map(|d| 18 + d).collect()
    }
    fn count_dora(&self, indicators: &[Tile]) -> u8 {
        indicators
            .iter()
            .map(|i| {
                let rules =
                    haifu_rules::score::Ruleset { players: self.players, red_fives: self.red, open_tanyao: true };
                self.tiles.iter().filter(|t| t.kind() == rules.dora_of(i.kind())).count() as u8
            })
            .sum()
    }
    fn count_red(&self) -> u8 {
        if self.red {
            self.tiles.iter().filter(|t| t.is_red_id()).count() as u8
        } else {
            0
        }
    }
}

/// Tenhou id of an mjai yaku name (any spelling of [`yaku::YAKU`]); `jikaze`, `bakaze` and `sangenpai` are
/// resolved by the caller. A double yakuman written under its base name with 26 han is the double one's id.
/// Names it does not know are left out of the `yaku` written.
fn tenhou_id(name: &str, han: u8) -> Option<u8> {
    let id = yaku::id_by_name(name)?;
    Some(if han >= 26 && matches!(id, 40 | 45 | 47) { id + 1 } else { id })
}

/// RiichiEnv's yaku ids: Tenhou id (winds resolved by the caller), han closed and open.
fn riichienv_yaku(id: i64) -> Option<(u8, u8, u8)> {
    Some(match id {
        1 => (0, 1, 0),
        2 => (1, 1, 0),
        3 => (3, 1, 1),
        4 => (4, 1, 1),
        5 => (5, 1, 1),
        6 => (6, 1, 1),
        7 => (18, 1, 1),
        8 => (19, 1, 1),
        9 => (20, 1, 1),
        10 => (10, 1, 1),
        11 => (14, 1, 1),
        12 => (8, 1, 1),
        13 => (9, 1, 0),
        14 => (7, 1, 0),
        15 => (23, 2, 1),
        16 => (24, 2, 1),
        17 => (25, 2, 1),
        18 => (21, 2, 0),
        19 => (26, 2, 2),
        20 => (27, 2, 2),
        21 => (28, 2, 2),
        22 => (29, 2, 2),
        23 => (30, 2, 2),
        24 => (31, 2, 2),
        25 => (22, 2, 0),
        26 => (33, 3, 2),
        27 => (34, 3, 2),
        28 => (32, 3, 0),
        29 => (35, 6, 5),
        30 => (2, 1, 0),
        31 | 34 => (52, 0, 0),
        32 => (54, 0, 0),
        33 => (53, 0, 0),
        35 => (37, 13, 13),
        36 => (38, 13, 13),
        37 => (39, 13, 13),
        38 => (40, 13, 13),
        39 => (42, 13, 13),
        40 => (43, 13, 13),
        41 => (44, 13, 13),
        42 => (47, 13, 13),
        43 => (50, 13, 13),
        44 => (51, 13, 13),
        45 => (45, 13, 13),
        47 => (46, 26, 26),
        48 => (41, 26, 26),
        49 => (48, 26, 26),
        50 => (49, 26, 26),
        _ => return None,
    })
}

/// The yaku and yakuman of a win as Tenhou lists them, from whatever the log names (see the module notes).
fn win_yaku(l: &Line, ctx: &WinContext) -> (Vec<Yaku>, Vec<u8>) {
    let mut named: Vec<(u8, u8)> = Vec::new();
    let mut known = false;
    if let Some(Value::Array(list)) = l.obj.get("yakus") {
        known = true;
        for y in list {
            let Some([Value::String(name), han]) = y.as_array().map(Vec::as_slice) else { continue };
            let han = han.as_u64().map_or(1, |h| h.min(255) as u8);
            match name.as_str() {
                "jikaze" => named.push((10 + ctx.seat_wind, han)),
                "bakaze" => named.push((14 + ctx.round_wind, han)),
                // one entry per dragon triplet, but the names do not say which: the held dragons, each once
                "sangenpai" | "yakuhai" => {
                    for d in ctx.dragon_ids() {
                        if !named.iter().any(|&(i, _)| i == d) {
                            named.push((d, 1));
                        }
                    }
                }
                other => named.extend(tenhou_id(other, han).map(|id| (id, han))),
            }
        }
    } else if let Some(Value::Array(ids)) = l.obj.get("meta").and_then(|m| m.get("score")).and_then(|s| s.get("yaku")) {
        known = true;
        for id in ids.iter().filter_map(Value::as_i64) {
            let Some((tid, closed, open)) = riichienv_yaku(id) else { continue };
            let han = if ctx.closed { closed } else { open };
            let entry = match tid {
                10 => (10 + ctx.seat_wind, han),
                14 => (14 + ctx.round_wind, han),
                52 => (52, ctx.count_dora(&ctx.dora)),
                54 => (54, ctx.count_red()),
                53 => (53, ctx.count_dora(&ctx.ura)),
                _ => (tid, han),
            };
            if !named.iter().any(|&(i, _)| i == entry.0) {
                named.push(entry);
            }
        }
    }
    if !known {
        return (Vec::new(), Vec::new());
    }
    let yakuman: Vec<u8> =
        named.iter().filter(|&&(id, han)| (37..=51).contains(&id) && han >= 13).map(|&(id, _)| id).collect();
    if !yakuman.is_empty() {
        return (Vec::new(), yakuman);
    }
    let han_of = |id: u8| named.iter().find(|&&(i, _)| i == id).map(|&(_, h)| h);
    let mut yaku: Vec<Yaku> = named.iter().filter(|&&(id, _)| id < 52).map(|&(id, han)| Yaku { id, han }).collect();
    for id in [52, 54] {
        if let Some(han) = han_of(id).filter(|&h| h > 0) {
            yaku.push(Yaku { id, han });
        }
    }
    if ctx.riichi {
        yaku.push(Yaku { id: 53, han: han_of(53).unwrap_or(0) });
    }
    (yaku, Vec::new())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn yaku_names_map_to_tenhou_ids() {
        let line = |v: Value| Line { no: 1, at: 0, kind: "hora".into(), obj: v.as_object().unwrap().clone() };
        let ids = |s: &str| -> Vec<Tile> { s.split_whitespace().map(|t| Tile::from_id(t.parse().unwrap())).collect() };
        // a closed hand with the red 5p (52), a pon of chun; dora indicator 4p -> 5p (52 and 53 count)
        let ctx = WinContext {
            seat_wind: 2,
            round_wind: 1,
            riichi: true,
            closed: true,
            tiles: ids("0 4 8 52 53 56 60 64 68 72 132 133 134 100"),
            dora: ids("48"),
            ura: ids("1"),
            red: true,
            players: 4,
        };
        let ids_of = |y: Vec<Yaku>| y.into_iter().map(|y| (y.id, y.han)).collect::<Vec<_>>();
        let (y, ym) = win_yaku(
            &line(json!({"yakus": [["reach", 1], ["jikaze", 1], ["bakaze", 1], ["sangenpai", 1], ["dora", 2]]})),
            &ctx,
        );
        assert!(ym.is_empty());
        assert_eq!(ids_of(y), [(1, 1), (12, 1), (15, 1), (20, 1), (52, 2), (53, 0)]);
        // two dragon triplets are two `sangenpai` entries: each dragon counts once
        let (y, _) = win_yaku(&line(json!({"yakus": [["sangenpai", 1], ["sangenpai", 1]]})), &ctx);
        assert_eq!(ids_of(y).iter().filter(|(id, _)| (18..=20).contains(id)).count(), ctx.dragon_ids().len());
        let (y, ym) = win_yaku(&line(json!({"yakus": [["suanko", 26], ["dora", 1]]})), &ctx);
        assert!(y.is_empty());
        assert_eq!(ym, [41]);
        // RiichiEnv: riichi, red, tanyao, dora, ura, counted from the tiles
        let (y, _) = win_yaku(&line(json!({"meta": {"score": {"han": 6, "yaku": [2, 32, 12, 31, 33]}}})), &ctx);
        assert_eq!(ids_of(y), [(1, 1), (8, 1), (52, 2), (54, 1), (53, 1)]);
        let (y, ym) = win_yaku(&line(json!({"fan": 3})), &ctx);
        assert!(y.is_empty() && ym.is_empty(), "no names: yaku unknown");
    }

    #[test]
    fn owari_rounds_like_tenhou() {
        // half away from zero on the score: 29500 -> 30 (0), 30500 -> 31 (+1), -500 -> -1 (-31)
        let pts = game_points([50000, 30500, 29500, -500], &[0, 1, 2, 3]);
        assert_eq!(pts, [50.0, 11.0, -10.0, -51.0]);
        assert_eq!(pts.iter().sum::<f64>(), 0.0);
        assert_eq!(limit_of(8000, false), 1);
        assert_eq!(limit_of(12000, true), 1);
        assert_eq!(limit_of(7700, false), 0);
        assert_eq!(limit_of(48000, true), 5);
    }
}
