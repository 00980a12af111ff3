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
use haifu_rules::{Kind, Meld, MeldKind, MjaiTile, Tile, TileSet};
use serde_json::{Map, Value};

use crate::convert::IdAllocator;
use crate::error::ReadError;
use crate::event::{Event, Format, GameRecord, Tag};
use crate::length::{self, Length, ReadOptions};
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

/// Tenhou id of an mjai yaku name (mjai's TenhouArchive spelling, plus aliases); `jikaze`, `bakaze` and
/// `sangenpai` are resolved by the caller. Names it does not know are left out of the `yaku` written.
fn tenhou_id(name: &str, han: u8) -> Option<u8> {
    let double = han >= 26;
    Some(match name {
        "menzenchin_tsumoho" | "menzen_tsumo" | "tsumo" => 0,
        "reach" | "riichi" => 1,
        "ippatsu" => 2,
        "chankan" => 3,
        "rinshankaiho" | "rinshan" | "rinshan_kaihou" => 4,
        "haiteiraoyue" | "haitei" => 5,
        "hoteiraoyui" | "houtei" | "hotei" => 6,
        "pinfu" => 7,
        "tanyaochu" | "tanyao" => 8,
        "ipeko" | "iipeiko" | "iipeikou" => 9,
        "haku" => 18,
        "hatsu" => 19,
        "chun" => 20,
        "double_reach" | "double_riichi" | "daburu_riichi" => 21,
        "chitoitsu" | "chiitoitsu" => 22,
        "honchantaiyao" | "chanta" => 23,
        "ikkitsukan" | "ittsu" => 24,
        "sanshokudojun" | "sanshoku" => 25,
        "sanshokudoko" => 26,
        "sankantsu" => 27,
        "toitoiho" | "toitoi" => 28,
        "sananko" | "sanankou" => 29,
        "shosangen" => 30,
        "honroto" | "honroutou" => 31,
        "ryanpeko" | "ryanpeikou" => 32,
        "junchantaiyao" | "junchan" => 33,
        "honiso" | "honitsu" => 34,
        "chiniso" | "chinitsu" => 35,
        "renho" => 36,
        "tenho" => 37,
        "chiho" => 38,
        "daisangen" => 39,
        "suanko" if double => 41,
        "suanko" => 40,
        "suanko_tanki" => 41,
        "tsuiso" => 42,
        "ryuiso" => 43,
        "chinroto" => 44,
        "churenpoton" if double => 46,
        "churenpoton" => 45,
        "junsei_churenpoton" => 46,
        "kokushimuso" if double => 48,
        "kokushimuso" => 47,
        "kokushimuso_13" => 48,
        "daisushi" => 49,
        "shosushi" => 50,
        "sukantsu" => 51,
        "dora" => 52,
        "uradora" => 53,
        "akadora" => 54,
        _ => return None,
    })
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
    use crate::replay::{replay, Outcome, ReplayedGame};

    fn text(lines: &[Value]) -> Vec<u8> {
        lines.iter().map(|v| format!("{v}\n")).collect::<String>().into_bytes()
    }
    fn hand(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }
    fn tsumo(actor: usize, pai: &str) -> Value {
        json!({"type": "tsumo", "actor": actor, "pai": pai})
    }
    fn dahai(actor: usize, pai: &str, tsumogiri: bool) -> Value {
        json!({"type": "dahai", "actor": actor, "pai": pai, "tsumogiri": tsumogiri})
    }
    fn count(lines: &[Value], kind: &str) -> usize {
        lines.iter().filter(|l| l["type"] == kind).count()
    }

    /// Reads a log holding one game and replays it, which must succeed.
    fn read_one(lines: &[Value]) -> (GameRecord, ReplayedGame) {
        let mut games = parse(&text(lines)).unwrap_or_else(|e| panic!("read: {e}"));
        assert_eq!(games.len(), 1);
        let g = games.remove(0);
        let r = replay(&g).unwrap_or_else(|e| panic!("replay: {e}"));
        (g, r)
    }
    fn tags<'a>(g: &'a GameRecord, name: &str) -> Vec<&'a Tag> {
        g.events.iter().filter_map(|e| e.as_tag(name)).collect()
    }
    fn discards(g: &GameRecord) -> usize {
        g.events.iter().filter(|e| matches!(e, Event::Discard { .. })).count()
    }

    /// Dealt hands: seat 0 waits on 9m (tenpai), the others are far from tenpai.
    const TENPAI_TABLE: [&str; 4] = [
        "1m 2m 3m 4p 5p 6p 7s 8s 9s E E E 9m",
        "1m 4m 7m 1p 4p 7p 1s 4s 7s S W N P",
        "2m 5m 8m 2p 5p 8p 2s 5s 8s S W N F",
        "3m 6m 9m 3p 6p 9p 3s 6s 9s S W N C",
    ];

    /// A round of 70 draws, each discarded at once, from the tiles nobody was dealt.
    fn exhaustive_round(dealer: usize, dealt: &[&str; 4], dora: &str) -> Vec<Value> {
        let mut left: Vec<String> = Vec::new();
        for k in 0..34u8 {
            let name = Kind::from_index(k).to_string();
            let used = dealt.iter().flat_map(|h| hand(h)).chain([dora]).filter(|t| **t == name).count();
            left.extend(std::iter::repeat_n(name, 4 - used));
        }
        (0..70)
            .flat_map(|i| {
                let seat = (dealer + i) % 4;
                [tsumo(seat, &left[i]), dahai(seat, &left[i], true)]
            })
            .collect()
    }

    #[test]
    fn exhaustive_draws_show_tenpai_hands() {
        let hands: Vec<Vec<&str>> = TENPAI_TABLE.iter().map(|h| hand(h)).collect();
        let mut lines = vec![
            json!({"type": "start_game", "names": ["A", "B", "C", "D"]}),
            json!({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
                   "dora_marker": "P", "scores": [25000, 25000, 25000, 25000], "tehais": hands}),
        ];
        lines.extend(exhaustive_round(0, &TENPAI_TABLE, "P"));
        lines.push(json!({"type": "ryukyoku", "reason": "fanpai", "tenpais": [true, false, false, false],
                          "deltas": [3000, -1000, -1000, -1000], "scores": [28000, 24000, 24000, 24000]}));
        lines.push(json!({"type": "end_kyoku"}));
        // the second round as akochan writes it: no scores, a bare ryukyoku, the result only in end_game
        lines.push(json!({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 1, "kyotaku": 0, "oya": 0,
                          "dora_marker": "P", "tehais": hands}));
        lines.extend(exhaustive_round(0, &TENPAI_TABLE, "P"));
        lines.push(json!({"type": "ryukyoku"}));
        lines.push(json!({"type": "hello", "note": "unknown events are skipped"}));
        lines.push(json!({"type": "end_kyoku"}));
        lines.push(json!({"type": "end_game", "scores": [31000, 23000, 23000, 23000]}));
        let (g, r) = read_one(&lines);

        assert_eq!(discards(&g), count(&lines, "dahai"));
        // two rounds and end_game: neither length fits (the log stops early), so hanchan, said in the notes
        assert_eq!(tags(&g, "GO")[0].get("type"), Some("10"), "hanchan, no red fives seen");
        assert!(g.notes[0].contains("neither reading fits"), "{:?}", g.notes);
        assert!(g.notes.iter().any(|n| n == "red fives: no (not stated; no red five appears)"), "{:?}", g.notes);
        assert_eq!(r.rounds.len(), 2);
        for (round, d) in r.rounds.iter().zip(tags(&g, "RYUUKYOKU")) {
            assert_eq!(d.get("type"), None, "exhaustive");
            assert!(d.get("hai0").is_some() && d.get("hai1").is_none() && d.get("hai3").is_none());
            assert_eq!(
                round.outcomes,
                [Outcome::DrawTenpai, Outcome::DrawNoten, Outcome::DrawNoten, Outcome::DrawNoten]
            );
            assert_eq!(round.deltas, [3000, -1000, -1000, -1000,]);
        }
        assert!(r.decisions.iter().all(|d| d.tsumogiri));
        let owari = r.info.owari.expect("end_game writes owari");
        assert_eq!(owari.scores, [31000, 23000, 23000, 23000]);
        // ties rank by seat: 23 - 30 + 10, 23 - 30 - 10, 23 - 30 - 20; the first takes minus the sum
        assert_eq!(owari.points, [41.0, 3.0, -17.0, -27.0]);
    }

    /// One round with every kind of call, a riichi, kan dora, and a ron.
    fn calls_round() -> Vec<Value> {
        let hands = [
            hand("1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 5s 5s"),
            hand("4p 5p C 1m 9m 1p 9p 1s 9s E S P F"),
            hand("C C W 2m 3m 6p 6p 7s 7s 8s 8s E S"),
            hand("W W W N N N 2p 4s 6s 6m 6m 7m 8m"),
        ];
        vec![
            json!({"type": "start_game", "names": ["A", "B", "C", "D"], "kyoku_first": 0, "aka_flag": false}),
            json!({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
                   "dora_marker": "9m", "scores": [25000, 25000, 25000, 25000], "tehais": hands}),
            tsumo(0, "3p"),
            dahai(0, "3p", true),
            json!({"type": "chi", "actor": 1, "target": 0, "pai": "3p", "consumed": ["4p", "5p"]}),
            dahai(1, "C", false),
            json!({"type": "pon", "actor": 2, "target": 1, "pai": "C", "consumed": ["C", "C"]}),
            dahai(2, "W", false),
            json!({"type": "daiminkan", "actor": 3, "target": 2, "pai": "W", "consumed": ["W", "W", "W"]}),
            tsumo(3, "7m"),
            dahai(3, "7m", true),
            json!({"type": "dora", "dora_marker": "2p"}),
            tsumo(0, "9s"),
            json!({"type": "reach", "actor": 0}),
            dahai(0, "9s", true),
            json!({"type": "reach_accepted", "actor": 0, "deltas": [-1000, 0, 0, 0],
                   "scores": [24000, 25000, 25000, 25000]}),
            tsumo(1, "1p"),
            dahai(1, "1p", true),
            tsumo(2, "C"),
            json!({"type": "kakan", "actor": 2, "pai": "C", "consumed": ["C", "C", "C"]}),
            tsumo(2, "8m"),
            dahai(2, "8m", true),
            json!({"type": "dora", "dora_marker": "3p"}),
            tsumo(3, "N"),
            json!({"type": "ankan", "actor": 3, "consumed": ["N", "N", "N", "N"]}),
            json!({"type": "dora", "dora_marker": "6s"}),
            tsumo(3, "1s"),
            dahai(3, "1s", true),
            json!({"type": "hora", "actor": 0, "target": 3, "pai": "1s", "uradora_markers": ["E"],
                   "yakus": [["reach", 1], ["pinfu", 1]], "fu": 30, "fan": 2, "hora_points": 2900,
                   "deltas": [3900, 0, 0, -2900], "scores": [27900, 25000, 25000, 22100]}),
            json!({"type": "end_kyoku"}),
            json!({"type": "end_game", "scores": [27900, 25000, 25000, 22100]}),
        ]
    }

    #[test]
    fn calls_riichi_kan_dora_and_ron() {
        let lines = calls_round();
        let (g, r) = read_one(&lines);
        assert_eq!(discards(&g), count(&lines, "dahai"));
        assert_eq!(tags(&g, "GO")[0].get("type"), Some("10"), "hanchan (kyoku_first 0), no red (aka_flag false)");

        let calls: Vec<(u8, MeldKind)> = g
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Call { seat, meld } => Some((*seat, Meld::decode(*meld).unwrap().kind)),
                _ => None,
            })
            .collect();
        use MeldKind::*;
        assert_eq!(calls, [(1, Chi), (2, Pon), (3, Daiminkan), (2, Kakan), (3, Ankan)]);
        let chi = g.events.iter().find_map(|e| match e {
            Event::Call { seat: 1, meld } => Some(Meld::decode(*meld).unwrap()),
            _ => None,
        });
        assert_eq!(chi.unwrap().from, 3, "chi from the previous seat");

        // Tenhou order: the dora of an open or added kan follows the replacement draw, before the discard
        let kinds: Vec<&str> = g.events.iter().map(Event::kind_name).collect();
        let after_open_kans: Vec<&[&str]> =
            kinds.windows(4).filter(|w| w[0] == "call" && w[1] == "draw" && w[2] == "dora").collect();
        assert_eq!(after_open_kans.len(), 2);
        assert!(after_open_kans.iter().all(|w| w[3] == "discard"));
        assert!(kinds.windows(3).any(|w| w == ["call", "dora", "draw"]), "closed kan: dora before the draw");

        let reach = tags(&g, "REACH");
        assert_eq!(reach.len(), 2);
        assert_eq!(reach[1].get("ten"), Some("240,250,250,250"));

        let agari = Agari::parse(tags(&g, "AGARI")[0]).unwrap();
        assert_eq!((agari.who, agari.from_who, agari.fu, agari.points, agari.limit), (0, 3, 30, 2900, 0));
        assert_eq!(agari.yaku, [Yaku { id: 1, han: 1 }, Yaku { id: 7, han: 1 }, Yaku { id: 53, han: 0 }]);
        assert_eq!(agari.dora_indicators.len(), 4);
        assert_eq!(agari.ura_indicators.len(), 1);
        assert_eq!((agari.honba, agari.kyotaku), (0, 1));
        let round = &r.rounds[0];
        assert_eq!(round.end_scores, [27900, 25000, 25000, 22100]);
        assert_eq!(round.outcomes[0], Outcome::Win);
        assert_eq!(round.outcomes[3], Outcome::DealIn);
        let melds_of = |seat: u8| r.decisions.iter().rev().find(|d| d.seat == seat).map(|d| d.melds.len());
        assert_eq!(melds_of(3), Some(2));
        let owari = r.info.owari.unwrap();
        assert_eq!(owari.points, [38.0, 5.0, -15.0, -28.0]);
    }

    #[test]
    fn tsumo_with_red_fives_and_hand_discards() {
        let lines = vec![
            json!({"type": "start_game", "names": ["A", "B", "C", "D"], "aka_flag": true}),
            json!({"type": "start_kyoku", "bakaze": "E", "kyoku": 2, "honba": 0, "kyotaku": 0, "oya": 1,
            "dora_marker": "1p", "scores": [25000, 25000, 25000, 25000], "tehais": [
                hand("1m 9m 1p 9p 1s 9s E S W N P F C"),
                hand("2m 3m 4m 5pr 6p 7p 2s 3s 4s 6s 7s 8s 5m"),
                hand("5s 5s 1m 9m 1p 9p 1s 9s E S W N 8p"),
                hand("1m 9m 1p 9p 1s 9s E S W N P 2p 3p"),
            ]}),
            tsumo(1, "C"),
            dahai(1, "C", true),
            tsumo(2, "5s"),
            // a third 5s, discarded from the hand: not the copy just drawn
            dahai(2, "5s", false),
            tsumo(3, "F"),
            dahai(3, "F", true),
            tsumo(0, "5p"),
            dahai(0, "5p", true),
            tsumo(1, "5m"),
            json!({"type": "hora", "actor": 1, "target": 1, "pai": "5m",
                   "yakus": [["menzenchin_tsumoho", 1], ["tanyaochu", 1], ["akadora", 1]],
                   "fu": 30, "fan": 3, "deltas": [-2000, 6000, -2000, -2000]}),
            json!({"type": "end_kyoku"}),
            json!({"type": "end_game"}),
        ];
        let (g, r) = read_one(&lines);
        assert_eq!(discards(&g), count(&lines, "dahai"));
        assert_eq!(tags(&g, "GO")[0].get("type"), Some("8"), "hanchan (not stated, the log stops early), red fives");
        let init = Init::parse(tags(&g, "INIT")[0]).unwrap();
        assert_eq!(init.kyoku, 1);
        assert!(init.hands[1].iter().any(|t| t.id() == 52), "the red 5p is copy 0");
        let discarded: Vec<(u8, u8)> = g
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Discard { seat, tile } => Some((*seat, tile.id())),
                _ => None,
            })
            .collect();
        assert!(discarded.contains(&(0, 53)), "a plain 5p is not the red one");
        let d2 = r.decisions.iter().find(|d| d.seat == 2).unwrap();
        assert!(!d2.tsumogiri, "discard from the hand keeps its flag");
        assert_eq!(r.decisions.iter().filter(|d| d.tsumogiri).count(), 3);

        let agari = Agari::parse(tags(&g, "AGARI")[0]).unwrap();
        assert!(agari.is_tsumo());
        assert_eq!(agari.machi.kind().to_string(), "5m");
        assert_eq!(agari.points, 6000, "from the deltas");
        assert_eq!(agari.yaku.iter().map(|y| y.id).collect::<Vec<_>>(), [0, 8, 54]);
        assert_eq!(agari.han(), 3);
        let owari = r.info.owari.unwrap();
        assert_eq!(owari.scores, [23000, 31000, 23000, 23000]);
        assert_eq!(owari.points, [3.0, 41.0, -17.0, -27.0], "ties rank from the first dealer, seat 0");
    }

    #[test]
    fn three_players_with_north_extraction() {
        let lines = vec![
            json!({"type": "start_game", "names": ["A", "B", "C"], "kyoku_first": 0}),
            json!({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
            "dora_marker": "E", "scores": [35000, 35000, 35000], "tehais": [
                hand("1p 2p 3p 4p 5p 6p 7p 8p 9p 1s 2s 3s N"),
                hand("1m 9m 1s 9s E S W P F C 4s 5s 6s"),
                hand("1m 9m 1s 9s E S W P F C 7s 8s 9p"),
            ]}),
            tsumo(0, "9m"),
            json!({"type": "nukidora", "actor": 0, "pai": "N"}),
            tsumo(0, "9m"),
            json!({"type": "hora", "actor": 0, "target": 0, "pai": "9m",
                   "yakus": [["menzenchin_tsumoho", 1], ["rinshankaiho", 1], ["ikkitsukan", 2], ["dora", 1]],
                   "fu": 30, "fan": 5, "hora_points": 12000, "deltas": [8000, -4000, -4000]}),
            json!({"type": "end_kyoku"}),
            json!({"type": "end_game"}),
        ];
        let (g, r) = read_one(&lines);
        assert_eq!(r.info.n_players, 3);
        assert_eq!(tags(&g, "GO")[0].get("type"), Some("26"), "3 players, hanchan, no red");
        assert_eq!(tags(&g, "INIT")[0].get("hai3"), Some(""));
        let nuki = g.events.iter().find_map(|e| match e {
            Event::Call { meld, .. } => Some(Meld::decode(*meld).unwrap()),
            _ => None,
        });
        assert_eq!(nuki.unwrap().kind, MeldKind::Nuki);
        let agari = Agari::parse(tags(&g, "AGARI")[0]).unwrap();
        assert_eq!((agari.points, agari.limit), (12000, 1));
        assert_eq!(r.rounds[0].end_scores[..3], [43000, 31000, 31000]);
        let owari = r.info.owari.unwrap();
        // 3 players: return 40000, uma 0 / -20
        assert_eq!(owari.points[..3], [38.0, -9.0, -29.0]);
    }

    #[test]
    fn double_ron_gives_sticks_and_honba_to_the_first_winner() {
        let lines = vec![
            json!({"type": "start_game", "names": ["A", "B", "C", "D"]}),
            json!({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 1, "kyotaku": 1, "oya": 0,
            "dora_marker": "N", "scores": [25000, 25000, 24000, 25000], "tehais": [
                hand("4p 1m 9m 1p 9p 1s 9s S W N P F C"),
                hand("1m 2m 3m 4p 5p 6p 7s 8s 9s 2p 3p 5s 5s"),
                hand("1s 2s 3s 4s 5s 6s 7s 8s 9s 2p 3p E E"),
                hand("2m 3m 4m 6m 7m 8m 2s 3s 4s 6s 6p 7p 8p"),
            ]}),
            tsumo(0, "5m"),
            dahai(0, "4p", false),
            json!({"type": "hora", "actor": 1, "target": 0, "pai": "4p", "yakus": [["pinfu", 1]], "fu": 30,
                   "deltas": [-1300, 2300, 0, 0]}),
            json!({"type": "hora", "actor": 2, "target": 0, "pai": "4p", "yakus": [["ikkitsukan", 2]], "fu": 40,
                   "deltas": [-2600, 0, 2600, 0]}),
            json!({"type": "end_kyoku"}),
            json!({"type": "end_game", "scores": [21100, 27300, 26600, 25000]}),
        ];
        let (g, r) = read_one(&lines);
        let wins: Vec<Agari> = tags(&g, "AGARI").into_iter().map(|t| Agari::parse(t).unwrap()).collect();
        assert_eq!(wins.len(), 2);
        assert_eq!((wins[0].honba, wins[0].kyotaku, wins[0].points), (1, 1, 1000));
        assert_eq!((wins[1].honba, wins[1].kyotaku, wins[1].points), (1, 0, 2600));
        assert!(wins[1].owari.is_some() && wins[0].owari.is_none(), "owari goes on the last tag");
        let round = &r.rounds[0];
        assert_eq!(round.wins().len(), 2);
        assert_eq!(round.outcomes, [Outcome::DealIn, Outcome::Win, Outcome::Win, Outcome::Bystander]);
        assert_eq!(round.kyotaku_after, 0);
        assert_eq!(r.info.owari.unwrap().points, [-29.0, 37.0, 7.0, -15.0]);
    }

    #[test]
    fn three_players_ron_on_a_north() {
        let lines = vec![
            json!({"type": "start_game", "names": ["A", "B", "C"]}),
            json!({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
            "dora_marker": "E", "scores": [35000, 35000, 35000], "tehais": [
                hand("1m 9m 1s 9s E S W P F C 4s 5s 6s"),
                hand("1p 2p 3p 4p 5p 6p 7p 8p 9p 1s 1s N N"),
                hand("1m 9m 9s E S W P F C 7s 8s 9p 2s"),
            ]}),
            tsumo(0, "N"),
            json!({"type": "nukidora", "actor": 0, "pai": "N"}),
            json!({"type": "hora", "actor": 1, "target": 0, "pai": "N", "yakus": [["ikkitsukan", 2]], "fu": 40,
                   "deltas": [-2600, 2600, 0]}),
            json!({"type": "end_kyoku"}),
        ];
        let (g, r) = read_one(&lines);
        let agari = Agari::parse(tags(&g, "AGARI")[0]).unwrap();
        assert_eq!(agari.machi.kind(), Kind::NORTH);
        assert_eq!(r.rounds[0].end_scores[..3], [32400, 37600, 35000]);
        assert!(!r.complete, "no end_game: no owari");
    }

    #[test]
    fn several_games_in_one_file() {
        let mut lines = calls_round();
        lines.extend(calls_round());
        let games = parse(&text(&lines)).unwrap();
        assert_eq!(games.iter().map(|g| g.index_in_file).collect::<Vec<_>>(), [0, 1]);
        assert!(games.iter().all(|g| g.format == Format::Mjai && g.log_id.is_none()));
        for g in &games {
            assert!(replay(g).unwrap().complete);
        }
    }

    #[test]
    fn a_game_cut_short_is_truncated() {
        let mut lines = calls_round();
        lines.truncate(12);
        lines.push(json!({"type": "error", "message": "a bot crashed"}));
        let (g, r) = read_one(&lines);
        assert!(!r.complete && r.rounds.is_empty());
        assert!(r.truncation.is_some());
        assert_eq!(discards(&g), count(&lines, "dahai"));
    }

    fn read_error(lines: &[&str]) -> ReadError {
        let text = lines.iter().map(|l| format!("{l}\n")).collect::<String>();
        parse(text.as_bytes()).expect_err("must not read")
    }

    #[test]
    fn bad_input_names_the_line() {
        let start = r#"{"type":"start_game","names":["A","B","C","D"]}"#;
        let e = read_error(&[start, r#"{"type":"start_kyoku", "bakaze":"#]);
        assert_eq!(e.line, 2);
        assert!(e.message.contains("not a JSON line"), "{e}");

        let e = read_error(&[start, "[1, 2]"]);
        assert_eq!(e.line, 2);

        let hidden = json!({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
            "dora_marker": "1m", "tehais": [hand("? ? ? ? ? ? ? ? ? ? ? ? ?"), hand(TENPAI_TABLE[1]),
            hand(TENPAI_TABLE[2]), hand(TENPAI_TABLE[3])]});
        let e = read_error(&[start, &hidden.to_string()]);
        assert_eq!(e.line, 2);
        assert!(e.message.contains("not a full log"), "{e}");

        let kyoku = json!({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
            "dora_marker": "P", "tehais": TENPAI_TABLE.iter().map(|h| hand(h)).collect::<Vec<_>>()})
        .to_string();
        let e = read_error(&[start, &kyoku, r#"{"type":"tsumo","actor":0,"pai":"?"}"#]);
        assert_eq!(e.line, 3);
        assert!(e.message.contains("not a full log"), "{e}");

        // a pon with no discard to take, a discard of a tile the hand does not hold
        let e = read_error(&[start, &kyoku, r#"{"type":"pon","actor":1,"target":0,"pai":"E","consumed":["E","E"]}"#]);
        assert_eq!(e.line, 3);
        let e = read_error(&[
            start,
            &kyoku,
            r#"{"type":"tsumo","actor":0,"pai":"1s"}"#,
            r#"{"type":"dahai","actor":0,"pai":"C","tsumogiri":false}"#,
        ]);
        assert_eq!(e.line, 4);
        assert!(e.message.contains("dahai"), "{e}");

        let odd = kyoku.replace(r#""oya":0"#, r#""oya":0,"scores":[25001,24999,25000,25000]"#);
        let e = read_error(&[start, &odd]);
        assert!(e.message.contains("not a riichi-rule game"), "{e}");

        let e = read_error(&[r#"{"type":"tsumo","actor":0,"pai":"1m"}"#]);
        assert!(e.message.contains("outside a game"), "{e}");
        let e = read_error(&[]);
        assert!(e.message.contains("no game"), "{e}");
        let e = read_error(&[start, r#"{"type":"end_game"}"#]);
        assert!(e.message.contains("start_kyoku"), "{e}");
    }

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
