//! Reader of tenhou.net/6 JSON (Tenhou's viewer format, also written by converters) into the mjlog event model.
//!
//! # The format
//! One object `{title, name, rule: {disp, aka | aka51..53}, log, ref?, dan?, rate?, sx?, sc?, lobby?}`. `log` holds
//! one array per round: `[[kyoku, honba, kyotaku], scores, dora indicators, ura indicators, hai0, take0, out0, ...,
//! hai3, take3, out3, result]`. Tiles are 11-19 man, 21-29 pin, 31-39 sou, 41-47 E S W N P F C, 51-53 red fives.
//! A seat's takes (draws and calls) and outs (discards, kans, nuki) alternate: take, out, take, out ...
//! - takes: a tile, or a call string whose letter stands before the called tile, its position naming the source:
//!   `c`/`p` at 0 kamicha, 2 toimen, 4 shimocha; `m` (daiminkan) at 0, 2 or 6;
//! - outs: a tile, `60` tsumogiri, `r`+tile riichi (`r60` riichi tsumogiri), `a` ankan, `k` kakan (the letter where
//!   the pon's was, the added tile right after it), `f` nuki, `0` the slot of a daiminkan (its replacement draw
//!   follows; some writers leave the `0` out, which is read the same).
//!
//! Files written by mjx hold one object per round, one per line; an array of objects is read the same way: the
//! rounds of all objects form one game. Three-player logs keep four seat slots, the fourth empty.
//!
//! # Rebuilding the order of play
//! The format keeps each seat's sequence but not how they interleave. The round is played again: the dealer draws,
//! each out is applied, and after each discard a seat whose next take is a pon or daiminkan of that tile from that
//! seat calls it, else the next seat chis it, else the next seat draws. Where a call could also have been passed
//! (the caller may be waiting for a later copy of the tile), both ways are kept and the first that plays every
//! seat's sequence to the end, and ends the way the result says, is taken (depth-first, calls first).
//!
//! # What is written as Tenhou would, and what is synthesized
//! Tiles get physical ids by [`IdAllocator`]. Tags follow Tenhou's order: `REACH step=1` before the riichi discard,
//! `step=2` right after it unless it is ronned; a closed kan's `DORA` before its replacement draw, an open or added
//! kan's after it (before the next discard or call; none when the replacement tile wins or the kan is robbed, and a
//! robbed kakan leaves an earlier kan's indicator hidden too, as the corpus shows).
//! - `GO type`: from the log id in `ref` when given, else from `rule.disp` (鳳/特/上/般, 南, 喰, 速, 三), red fives
//!   when `rule` or the tiles say so; `lobby` from `lobby` (else 0).
//! - `INIT` dice: lost in this format, written `0,0`.
//! - `AGARI ten`: fu and points from the score string (`30符4飜7700点`, `1300-2600点` = 5200 in 4p, `2600点∀` = 7800;
//!   3p tsumo payments add up over two payers); limit 1..5 from 満貫 .. 役満. Limit hands carry no fu in the string:
//!   written 0. `yaku`/`yakuman` from the Japanese names (older spellings and English romaji are accepted too),
//!   `53,0` added for a riichi winner when the writer dropped ura with 0 han (Tenhou always lists it); ura
//!   indicators for riichi winners only; `ba` sticks = what the win took (the deltas beyond the points). A win
//!   without a score string (some converters) gets fu 0 and the winner's gain less sticks and honba as points.
//! - `RYUUKYOKU`: hands shown as Tenhou shows them: tenpai hands at an exhaustive draw (the deltas say who, or
//!   shanten when they are all zero), every hand at four riichi, the three winners' at a triple ron, the
//!   declarer's 14 tiles at nine terminals.
//! - `owari`: with `sc` in the file, its final scores and points. Without, when the last round of the log ends the
//!   game (someone below zero, or the all-last or later was played): leftover sticks go to the top (ties: lower
//!   seat), and points follow Tenhou's classic rule, checked on the corpus' mjlog `owari`: every seat but the top
//!   gets `round(score / 1000) - 30` (40 in 3p) plus uma +10/-10/-20 (3p: 0/-20), halves away from zero; the top
//!   gets minus the sum. (From 2022 Tenhou writes exact tenths, and east-only tables of 2009 paid uma 5/10.)

use haifu_rules::shanten::shanten;
use haifu_rules::table::round_name;
use haifu_rules::yaku;
use haifu_rules::{Kind, Meld, MeldKind, Tile};
use serde_json::{Map, Value};

use crate::error::ReadError;
use crate::event::{Event, Format, GameRecord, Tag, ROOT};
use crate::ids::IdAllocator;
use crate::tags::{self, Agari, DrawKind, Init, Owari, Player, Reach, Ryuukyoku, Yaku};

/// Parses one tenhou.net/6 game (one object, or one object per round as mjx writes).
pub fn parse(text: &[u8]) -> Result<GameRecord, ReadError> {
    let objects = read_objects(text)?;
    let game = Game::read(text, &objects)?;
    let events = game.events(text)?;
    Ok(GameRecord { format: Format::Tenhou6, index_in_file: 0, log_id: game.log_id, events, notes: Vec::new() })
}

// ---------------------------------------------------------------------------------------------------------------
// JSON

/// A game object of the file: where it starts, where each of its rounds (`log` entries) starts, its fields.
struct Object {
    at: u64,
    rounds_at: Vec<u64>,
    fields: Map<String, Value>,
}

type Objects = Vec<Object>;

/// The `log` of a game object, each round as its raw text (so that its place in the file is known).
#[derive(serde::Deserialize)]
struct RawGame<'a> {
    #[serde(borrow, default)]
    log: Vec<&'a serde_json::value::RawValue>,
}

/// Byte offsets of the rounds of each game object in `text[start..end]` (an object, or an array of them);
/// empty lists where the shape is not that (the error then points at the object).
fn round_offsets(text: &[u8], start: usize, end: usize) -> Vec<Vec<u64>> {
    let slice = &text[start..end.min(text.len())];
    let base = text.as_ptr() as usize;
    let offsets = |g: &RawGame| g.log.iter().map(|r| (r.get().as_ptr() as usize - base) as u64).collect();
    match slice.first() {
        Some(b'{') => serde_json::from_slice::<RawGame>(slice).map(|g| vec![offsets(&g)]).unwrap_or_default(),
        Some(b'[') => {
            serde_json::from_slice::<Vec<RawGame>>(slice).map(|gs| gs.iter().map(offsets).collect()).unwrap_or_default()
        }
        _ => Vec::new(),
    }
}

/// The objects of the file with their byte offsets.
fn read_objects(text: &[u8]) -> Result<Objects, ReadError> {
    let bom = if text.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    let body = &text[bom..];
    let mut stream = serde_json::Deserializer::from_slice(body).into_iter::<Value>();
    let mut out = Vec::new();
    loop {
        let before = stream.byte_offset();
        let start = (bom + before + body[before..].iter().take_while(|b| b.is_ascii_whitespace()).count()) as u64;
        let next = stream.next();
        let mut rounds_at = round_offsets(text, start as usize, bom + stream.byte_offset()).into_iter();
        let mut object = |fields| Object { at: start, rounds_at: rounds_at.next().unwrap_or_default(), fields };
        match next {
            None => break,
            Some(Ok(Value::Object(o))) => out.push(object(o)),
            Some(Ok(Value::Array(items))) => {
                for item in items {
                    match item {
                        Value::Object(o) => out.push(object(o)),
                        other => return Err(not_a_game(text, start, &other)),
                    }
                }
            }
            Some(Ok(other)) => return Err(not_a_game(text, start, &other)),
            Some(Err(e)) => {
                let at = bom as u64 + json_error_offset(body, &e);
                return Err(ReadError::at(text, at, format!("not valid JSON: {e}")));
            }
        }
    }
    if out.is_empty() {
        return Err(ReadError::at(text, 0, "no JSON object: not a tenhou.net/6 game".into()));
    }
    Ok(out)
}

fn not_a_game(text: &[u8], at: u64, v: &Value) -> ReadError {
    let what = match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    ReadError::at(text, at, format!("{what} where a tenhou.net/6 game object is expected"))
}

/// Byte offset of a serde_json error (it reports 1-based line and column).
fn json_error_offset(body: &[u8], e: &serde_json::Error) -> u64 {
    let mut line_start = 0;
    for _ in 1..e.line() {
        match body[line_start..].iter().position(|&b| b == b'\n') {
            Some(p) => line_start += p + 1,
            None => break,
        }
    }
    (line_start + e.column().saturating_sub(1)).min(body.len()) as u64
}

fn int(v: &Value, what: &str) -> Result<i64, String> {
    match v {
        Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64))
            .ok_or_else(|| format!("{what}: {n} is not an integer")),
        other => Err(format!("{what}: {} is not a number", show(other))),
    }
}

/// A value as JSON, cut short for a message.
fn show(v: &Value) -> String {
    let mut s = v.to_string();
    if let Some((cut, _)) = s.char_indices().nth(40) {
        s.truncate(cut);
        s.push_str("...");
    }
    s
}

fn array<'v>(v: &'v Value, what: &str) -> Result<&'v [Value], String> {
    v.as_array().map(Vec::as_slice).ok_or_else(|| format!("{what} is not an array"))
}

// ---------------------------------------------------------------------------------------------------------------
// Tiles and actions as the format writes them

/// A tile as tenhou.net/6 writes it: 11-19, 21-29, 31-39, 41-47, 51-53 (red fives).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Code(u8);

impl Code {
    fn new(n: i64) -> Option<Code> {
        matches!(n, 11..=19 | 21..=29 | 31..=39 | 41..=47 | 51..=53).then_some(Code(n as u8))
    }
    fn kind(self) -> Kind {
        let (suit, digit) = if self.0 >= 51 { (self.0 - 51, 5) } else { (self.0 / 10 - 1, self.0 % 10) };
        Kind::from_index(suit * 9 + digit - 1)
    }
    fn red(self) -> bool {
        self.0 >= 51
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.kind(), if self.red() { "r" } else { "" })
    }
}

fn code(v: &Value, what: &str) -> Result<Code, String> {
    let n = int(v, what)?;
    Code::new(n).ok_or_else(|| format!("{what}: {n} is not a tile"))
}

fn codes(v: &Value, what: &str) -> Result<Vec<Code>, String> {
    array(v, what)?.iter().map(|x| code(x, what)).collect()
}

/// A call on a discard: the tiles from the hand (2 or 3), the called tile and its source relative to the caller
/// (1 shimocha, 2 toimen, 3 kamicha: the mjlog `from`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Call {
    kind: MeldKind,
    called: Code,
    hand: [Code; 3],
    n_hand: usize,
    from: u8,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Take {
    Draw(Code),
    Call(Call),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Out {
    Discard(Code),
    Tsumogiri,
    /// Riichi with this discard; `None` = `r60`, riichi tsumogiri.
    Riichi(Option<Code>),
    Ankan(Kind),
    /// Kakan: the tile added from the hand.
    Kakan(Code),
    Nuki(Code),
    /// `0`: the out slot of a daiminkan.
    KanSlot,
}

/// Splits a meld string (`"4545p45"`) into its letter, the letter's tile position, and the tiles.
fn meld_string(s: &str) -> Result<(char, usize, Vec<Code>), String> {
    let bad = || format!("{s:?} is not a call string");
    let letter_at = s.find(|c: char| c.is_ascii_alphabetic()).ok_or_else(bad)?;
    let letter = s[letter_at..].chars().next().ok_or_else(bad)?;
    let digits: String = s.chars().filter(|c| !c.is_ascii_alphabetic()).collect();
    let letters = s.chars().filter(char::is_ascii_alphabetic).count();
    if !letter_at.is_multiple_of(2)
        || !digits.len().is_multiple_of(2)
        || letters != 1
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let tiles = (0..digits.len() / 2)
        .map(|i| digits[2 * i..2 * i + 2].parse::<i64>().ok().and_then(Code::new).ok_or_else(bad))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((letter, letter_at / 2, tiles))
}

fn take(v: &Value) -> Result<Take, String> {
    let s = match v {
        Value::String(s) => s,
        _ => return code(v, "take").map(Take::Draw),
    };
    let (letter, at, tiles) = meld_string(s)?;
    let (kind, from) = match (letter, tiles.len(), at) {
        ('c', 3, 0) => (MeldKind::Chi, 3),
        ('p', 3, 0) | ('m', 4, 0) => (if letter == 'p' { MeldKind::Pon } else { MeldKind::Daiminkan }, 3),
        ('p', 3, 1) | ('m', 4, 1) => (if letter == 'p' { MeldKind::Pon } else { MeldKind::Daiminkan }, 2),
        ('p', 3, 2) => (MeldKind::Pon, 1),
        ('m', 4, 3) => (MeldKind::Daiminkan, 1),
        _ => return Err(format!("take {s:?} is not a chi, pon or daiminkan")),
    };
    let mut hand = [tiles[0]; 3];
    let mut n_hand = 0;
    for (i, &t) in tiles.iter().enumerate() {
        if i != at {
            hand[n_hand] = t;
            n_hand += 1;
        }
    }
    Ok(Take::Call(Call { kind, called: tiles[at], hand, n_hand, from }))
}

fn out(v: &Value) -> Result<Out, String> {
    let s = match v {
        Value::String(s) => s,
        _ => {
            return match int(v, "discard")? {
                0 => Ok(Out::KanSlot),
                60 => Ok(Out::Tsumogiri),
                n => Code::new(n).map(Out::Discard).ok_or_else(|| format!("discard {n} is not a tile")),
            }
        }
    };
    if let Some(rest) = s.strip_prefix('r') {
        return match rest.parse::<i64>() {
            Ok(60) => Ok(Out::Riichi(None)),
            Ok(n) => Code::new(n).map(|c| Out::Riichi(Some(c))).ok_or_else(|| format!("riichi discard {s:?}")),
            Err(_) => Err(format!("{s:?} is not a riichi discard")),
        };
    }
    let (letter, at, tiles) = meld_string(s)?;
    let same_kind = tiles.iter().all(|t| t.kind() == tiles[0].kind());
    match (letter, tiles.len()) {
        ('a', 4) if same_kind => Ok(Out::Ankan(tiles[0].kind())),
        ('k', 4) if same_kind && at < 3 => Ok(Out::Kakan(tiles[at])),
        ('f', 1) if tiles[0].kind() == Kind::NORTH => Ok(Out::Nuki(tiles[0])),
        _ => Err(format!("out {s:?} is not a discard, ankan, kakan or nuki")),
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Rounds and results

/// One win of a round's result: deltas and `[who, from, pao, score string, yaku ...]`.
#[derive(Clone, Debug)]
struct Win {
    deltas: [i32; 4],
    who: usize,
    from: usize,
    pao: usize,
    score: Option<String>,
    yaku: Vec<String>,
}

#[derive(Clone, Debug)]
enum RoundResult {
    Wins(Vec<Win>),
    Draw { kind: DrawKind, name: String, deltas: [i32; 4] },
}

#[derive(Clone, Debug)]
struct Round {
    kyoku: u8,
    honba: u8,
    kyotaku: u8,
    scores: [i32; 4],
    dora: Vec<Code>,
    ura: Vec<Code>,
    hai: [Vec<Code>; 4],
    takes: [Vec<Take>; 4],
    outs: [Vec<Out>; 4],
    result: RoundResult,
}

fn deltas(v: &Value, what: &str) -> Result<[i32; 4], String> {
    let a = array(v, what)?;
    if a.len() < 3 || a.len() > 4 {
        return Err(format!("{what}: {} values, expected 3 or 4", a.len()));
    }
    let mut out = [0; 4];
    for (o, x) in out.iter_mut().zip(a) {
        *o = i32::try_from(int(x, what)?).map_err(|_| format!("{what}: out of range"))?;
    }
    Ok(out)
}

fn draw_kind(name: &str) -> Option<DrawKind> {
    let lower = name.to_ascii_lowercase();
    Some(match (name, lower.as_str()) {
        ("流局" | "全員聴牌" | "全員不聴", _) | (_, "ryuukyoku" | "exhaustive draw") => DrawKind::Exhaustive,
        ("流し満貫", _) | (_, "nagashi mangan") => DrawKind::Nagashi,
        ("九種九牌", _) | (_, "kyuushu kyuuhai" | "nine terminals") => DrawKind::Yao9,
        ("四家立直", _) | (_, "suucha riichi" | "four riichi") => DrawKind::Reach4,
        ("三家和了", _) | (_, "sanchahou" | "triple ron") => DrawKind::Ron3,
        ("四槓散了", _) | (_, "suukaikan" | "four kans") => DrawKind::Kan4,
        ("四風連打", _) | (_, "suufon renda" | "four winds") => DrawKind::Kaze4,
        _ => return None,
    })
}

fn result(v: &Value) -> Result<RoundResult, String> {
    let a = array(v, "result")?;
    let name = a.first().and_then(Value::as_str).ok_or("result does not start with its name")?;
    if name == "和了" || name.eq_ignore_ascii_case("agari") {
        if a.len() < 3 || a.len().is_multiple_of(2) {
            return Err("a win must hold (deltas, info) pairs".into());
        }
        let mut wins = Vec::new();
        for pair in a[1..].chunks(2) {
            let info = array(&pair[1], "win info")?;
            if info.len() < 3 {
                return Err("win info must start with who, from, pao".into());
            }
            let seat = |i: usize| -> Result<usize, String> {
                let s = int(&info[i], "win info seat")?;
                usize::try_from(s).ok().filter(|&s| s < 4).ok_or_else(|| format!("win info: seat {s} out of range"))
            };
            let strings: Vec<String> = info[3..]
                .iter()
                .map(|x| x.as_str().map(str::to_string).ok_or("win info: not a string"))
                .collect::<Result<_, _>>()?;
            let (score, yaku) = match strings.split_first() {
                Some((s, rest)) => (Some(s.clone()), rest.to_vec()),
                None => (None, Vec::new()),
            };
            wins.push(Win {
                deltas: deltas(&pair[0], "win deltas")?,
                who: seat(0)?,
                from: seat(1)?,
                pao: seat(2)?,
                score,
                yaku,
            });
        }
        return Ok(RoundResult::Wins(wins));
    }
    let kind = draw_kind(name).ok_or_else(|| format!("result {name:?} is neither a win nor a known draw"))?;
    let deltas = match a.get(1) {
        Some(d) => deltas(d, "draw deltas")?,
        None => [0; 4],
    };
    Ok(RoundResult::Draw { kind, name: name.to_string(), deltas })
}

impl Round {
    fn read(v: &Value, red: &mut bool) -> Result<Round, String> {
        let r = array(v, "round")?;
        // four seats of (hai, takes, outs); three-player writers may leave the empty fourth out
        let seats = match r.len() {
            17 => 4,
            14 => 3,
            n => return Err(format!("round has {n} entries, expected 17")),
        };
        let head = array(&r[0], "round head")?;
        if head.len() != 3 {
            return Err("round head must be [kyoku, honba, kyotaku]".into());
        }
        let small = |i: usize| -> Result<u8, String> {
            u8::try_from(int(&head[i], "round head")?).map_err(|_| "round head value out of range".to_string())
        };
        let mut round = Round {
            kyoku: small(0)?,
            honba: small(1)?,
            kyotaku: small(2)?,
            scores: deltas(&r[1], "scores")?,
            dora: codes(&r[2], "dora indicators")?,
            ura: codes(&r[3], "ura indicators")?,
            hai: Default::default(),
            takes: Default::default(),
            outs: Default::default(),
            result: result(&r[4 + 3 * seats])?,
        };
        if round.dora.is_empty() {
            return Err("no dora indicator".into());
        }
        for s in 0..seats {
            round.hai[s] = codes(&r[4 + 3 * s], &format!("hai{s}"))?;
            round.takes[s] = array(&r[5 + 3 * s], "takes")?
                .iter()
                .map(take)
                .collect::<Result<_, _>>()
                .map_err(|e| format!("seat {s}: {e}"))?;
            round.outs[s] = array(&r[6 + 3 * s], "outs")?
                .iter()
                .map(out)
                .collect::<Result<_, _>>()
                .map_err(|e| format!("seat {s}: {e}"))?;
        }
        *red |= round.has_red();
        Ok(round)
    }

    fn has_red(&self) -> bool {
        let take_red = |t: &Take| match t {
            Take::Draw(c) => c.red(),
            Take::Call(c) => c.called.red() || c.hand[..c.n_hand].iter().any(|h| h.red()),
        };
        let out_red = |o: &Out| matches!(o, Out::Discard(c) | Out::Riichi(Some(c)) | Out::Kakan(c) if c.red());
        self.dora.iter().chain(&self.ura).chain(self.hai.iter().flatten()).any(|c| c.red())
            || self.takes.iter().flatten().any(take_red)
            || self.outs.iter().flatten().any(out_red)
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The game

struct Game {
    log_id: Option<String>,
    players: [Player; 4],
    game_type: u32,
    lobby: i64,
    n_players: usize,
    red: bool,
    /// Rounds with the byte offset of the object that holds them.
    rounds: Vec<(u64, Round)>,
    /// `sc`: final scores and points, when the file gives them.
    final_sc: Option<Vec<f64>>,
}

/// Tenhou's dan names, by the `UN dan` index.
#[rustfmt::skip]
const DAN: [&str; 21] = [
    "新人", "9級", "8級", "7級", "6級", "5級", "4級", "3級", "2級", "1級",
    "初段", "二段", "三段", "四段", "五段", "六段", "七段", "八段", "九段", "十段", "天鳳位",
];

/// Full-width digits to ASCII (`１３面` -> `13面`).
fn ascii_digits(s: &str) -> String {
    s.chars()
        .map(|c| if ('０'..='９').contains(&c) { char::from(b'0' + (c as u32 - '０' as u32) as u8) } else { c })
        .collect()
}

fn dan_index(v: &Value) -> Option<i8> {
    match v {
        Value::Number(n) => n.as_i64().and_then(|n| i8::try_from(n).ok()),
        Value::String(s) => {
            let s = ascii_digits(s.trim());
            DAN.iter().position(|d| *d == s || (s == "天鳳" && *d == "天鳳位")).map(|i| i as i8)
        }
        _ => None,
    }
}

/// GO type bits from the lobby name Tenhou shows (`鳳南喰赤`, `般東喰`, `三鳳南喰赤`, `上東喰赤速`).
fn type_from_disp(disp: &str) -> u32 {
    let mut t = 0x01;
    if disp.contains("電脳") {
        t = 0;
    }
    t |= if disp.contains('鳳') {
        0xA0
    } else if disp.contains('特') {
        0x20
    } else if disp.contains('上') {
        0x80
    } else {
        0
    };
    let japanese = disp.contains('東') || disp.contains('南');
    if disp.contains('南') || disp.to_ascii_lowercase().contains("south") || !japanese {
        // hanchan unless the name says east-only
        t |= 0x08;
    }
    if japanese && !disp.contains('喰') {
        t |= 0x04;
    }
    if disp.contains('速') {
        t |= 0x40;
    }
    t
}

impl Game {
    fn read(text: &[u8], objects: &Objects) -> Result<Game, ReadError> {
        let (first_at, first) = (&objects[0].at, &objects[0].fields);
        let err = |at: u64, m: String| ReadError::at(text, at, m);
        let mut log_id: Option<String> = None;
        let mut rounds = Vec::new();
        let mut red = false;
        let mut final_sc = None;
        for Object { at, rounds_at, fields: o } in objects {
            let log =
                o.get("log").ok_or_else(|| err(*at, "JSON object without \"log\": not a tenhou.net/6 game".into()))?;
            let log = log.as_array().ok_or_else(|| err(*at, "\"log\" is not an array of rounds".into()))?;
            if let Some(r) = o.get("ref").and_then(Value::as_str).filter(|r| !r.is_empty()) {
                match &log_id {
                    Some(id) if id != r => {
                        return Err(err(*at, format!("objects of two games in one file ({id} and {r})")));
                    }
                    _ => log_id = Some(r.to_string()),
                }
            }
            for (j, r) in log.iter().enumerate() {
                // errors point at the round's own place in the file
                let round_at = rounds_at.get(j).copied().unwrap_or(*at);
                let round = Round::read(r, &mut red).map_err(|m| {
                    let head =
                        r.get(0).and_then(Value::as_array).map(|h| h.iter().map(Value::as_u64).collect::<Vec<_>>());
                    let name = match head.as_deref() {
                        Some(&[Some(k), Some(h), _]) => {
                            format!(" ({})", round_name(k.min(255) as u8, h.min(255) as u8))
                        }
                        _ => String::new(),
                    };
                    err(round_at, format!("round {}{name}: {m}", rounds.len()))
                })?;
                rounds.push((round_at, round));
            }
            if let Some(sc) = o.get("sc") {
                let v: Vec<f64> = array(sc, "sc")
                    .and_then(|a| {
                        a.iter().map(|x| x.as_f64().ok_or_else(|| "sc holds a non-number".to_string())).collect()
                    })
                    .map_err(|m| err(*at, m))?;
                if v.len() != 6 && v.len() != 8 {
                    return Err(err(*at, format!("sc holds {} values, expected 8 (score, points per seat)", v.len())));
                }
                final_sc = Some(v);
            }
        }
        if rounds.is_empty() {
            return Err(err(*first_at, "the log holds no round".into()));
        }
        let three = rounds.iter().all(|(_, r)| r.hai[3].is_empty());
        if !three && rounds.iter().any(|(_, r)| r.hai[3].is_empty()) {
            return Err(err(*first_at, "some rounds deal three hands, others four".into()));
        }
        let rule = first.get("rule");
        let rule_num = |k: &str| rule.and_then(|r| r.get(k)).and_then(Value::as_i64).unwrap_or(0);
        let disp = rule.and_then(|r| r.get("disp")).and_then(Value::as_str).unwrap_or("");
        red |= ["aka", "aka51", "aka52", "aka53"].iter().any(|k| rule_num(k) > 0) || disp.contains('赤');
        // the log id names the table exactly; the lobby name is the fallback
        let id_type =
            log_id.as_deref().and_then(|id| id.split('-').nth(1)).and_then(|h| u32::from_str_radix(h, 16).ok());
        let mut game_type = id_type.unwrap_or_else(|| type_from_disp(disp));
        red |= game_type & 0x02 == 0 && id_type.is_some();
        game_type = if red { game_type & !0x02 } else { game_type | 0x02 };
        game_type = if three { game_type | 0x10 } else { game_type & !0x10 };

        let mut players: [Player; 4] = Default::default();
        let list = |k: &str| first.get(k).and_then(Value::as_array).cloned().unwrap_or_default();
        let (names, dans, rates, sexes) = (list("name"), list("dan"), list("rate"), list("sx"));
        for (i, p) in players.iter_mut().enumerate().take(if three { 3 } else { 4 }) {
            p.name = names.get(i).and_then(Value::as_str).unwrap_or("").to_string();
            p.dan = dans.get(i).and_then(dan_index);
            p.rate = rates.get(i).and_then(Value::as_f64).map(|r| r as f32);
            p.sex = sexes.get(i).and_then(Value::as_str).map(str::to_string);
        }
        Ok(Game {
            log_id,
            players,
            game_type,
            lobby: first.get("lobby").and_then(Value::as_i64).unwrap_or(0),
            n_players: if three { 3 } else { 4 },
            red,
            rounds,
            final_sc,
        })
    }

    fn events(&self, text: &[u8]) -> Result<Vec<Event>, ReadError> {
        let mut events = vec![
            Event::tag(Tag::new(ROOT).with("ver", "2.3")),
            Event::tag(Tag::new("GO").with("type", self.game_type.to_string()).with("lobby", self.lobby.to_string())),
            Event::tag(tags::un_tag(&self.players)),
            Event::tag(Tag::new("TAIKYOKU").with("oya", "0")),
        ];
        for (i, (at, round)) in self.rounds.iter().enumerate() {
            let last = i + 1 == self.rounds.len();
            let context = |m: String| {
                ReadError::at(text, *at, format!("round {i} ({}): {m}", round_name(round.kyoku, round.honba)))
            };
            self.round_events(round, last, &mut events).map_err(context)?;
        }
        Ok(events)
    }

    fn round_events(&self, round: &Round, last: bool, events: &mut Vec<Event>) -> Result<(), String> {
        let n = self.n_players;
        let dealer = usize::from(round.kyoku % 4);
        if dealer >= n {
            return Err(format!("kyoku {} has no dealer in a {n}-player game", round.kyoku));
        }
        let mut ids = IdAllocator::new(self.red);
        let mut hands: [Vec<Tile>; 4] = Default::default();
        for (s, (hand, dealt)) in hands.iter_mut().zip(&round.hai).enumerate().take(n) {
            if dealt.len() != 13 {
                return Err(format!("hai{s} deals {} tiles", dealt.len()));
            }
            for c in dealt {
                hand.push(ids.draw(s, c.kind(), c.red())?);
            }
        }
        let dora = ids.fresh(round.dora[0].kind(), round.dora[0].red())?;
        let init = Init {
            kyoku: round.kyoku,
            honba: round.honba,
            kyotaku: round.kyotaku,
            dice: [0, 0],
            dora_indicator: dora,
            scores: round.scores,
            dealer: dealer as u8,
            hands,
        };
        events.push(Event::tag(init.to_tag()));
        let play = Play {
            round,
            n,
            red: self.red,
            take_at: [0; 4],
            out_at: [0; 4],
            ids,
            melds: Default::default(),
            last_draw: [None; 4],
            riichi: [false; 4],
            scores: round.scores,
            kyotaku: round.kyotaku,
            draws_left: if n == 3 { 108 - 14 - 39 } else { 136 - 14 - 52 },
            dora: vec![dora],
            pending_dora: 0,
            events: Vec::with_capacity(200),
        };
        let (mut play, end) = play.search(dealer)?;
        play.finish(end, if last { Some(self) } else { None })?;
        events.append(&mut play.events);
        Ok(())
    }

    /// Final scores and points when the last round of the log (kyoku `kyoku`, leaving `scores` and `kyotaku`) ends
    /// the game; `None` when the game goes on.
    fn owari(&self, kyoku: u8, scores: [i32; 4], kyotaku: u8) -> Option<Owari> {
        let n = self.n_players;
        if let Some(sc) = &self.final_sc {
            let (mut s, mut points) = ([0; 4], [0.0; 4]);
            for i in 0..sc.len() / 2 {
                s[i] = sc[2 * i].round() as i32;
                points[i] = sc[2 * i + 1];
            }
            return Some(Owari { scores: s, points });
        }
        let hanchan = self.game_type & 0x08 != 0;
        let all_last = match (n, hanchan) {
            (4, true) => 7,
            (4, false) => 3,
            (_, true) => 6,
            (_, false) => 2,
        };
        if kyoku < all_last && scores[..n].iter().all(|&s| s >= 0) {
            return None;
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&s| (-scores[s], s));
        let mut finals = scores;
        finals[order[0]] += 1000 * i32::from(kyotaku);
        let (back, uma): (i64, &[i64]) = if n == 4 { (30, &[20, 10, -10, -20]) } else { (40, &[20, 0, -20]) };
        let mut points = [0.0; 4];
        let mut others = 0;
        for (rank, &s) in order.iter().enumerate().skip(1) {
            // thousands, halves away from zero
            let k = (i64::from(finals[s].abs()) + 500) / 1000 * i64::from(finals[s].signum());
            let p = k - back + uma[rank];
            others += p;
            points[s] = p as f64;
        }
        points[order[0]] = -others as f64;
        Some(Owari { scores: finals, points })
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Playing a round

/// One way the round may have gone so far; cloned where a call could also have been passed.
#[derive(Clone)]
struct Play<'a> {
    round: &'a Round,
    n: usize,
    red: bool,
    take_at: [usize; 4],
    out_at: [usize; 4],
    ids: IdAllocator,
    melds: [Vec<Meld>; 4],
    last_draw: [Option<Tile>; 4],
    /// Declared riichi (step 1 written).
    riichi: [bool; 4],
    scores: [i32; 4],
    kyotaku: u8,
    draws_left: i32,
    dora: Vec<Tile>,
    /// Open kans whose indicator is not shown yet.
    pending_dora: u8,
    events: Vec<Event>,
}

#[derive(Clone, Copy, Debug)]
struct Discarded {
    seat: usize,
    code: Code,
    tile: Tile,
    riichi: bool,
}

#[derive(Clone, Copy, Debug)]
enum Step {
    /// The seat's next take is a draw on its own turn (or a replacement draw).
    Draw(usize),
    /// The seat's next out follows its take.
    Out(usize),
    /// A discard is offered to the other seats.
    Offer(Discarded),
    /// Who takes a discard: a caller, or nobody (`None`).
    Resolve(Discarded, Option<usize>),
}

/// Where the round stopped.
#[derive(Clone, Copy, Debug)]
enum End {
    /// After a draw with no out: tsumo or nine terminals.
    Drawn(usize),
    /// After a discard nobody called and no one drew after: ron, exhaustive or abortive draw.
    Discard(Discarded),
    /// After a kakan with no replacement draw: chankan.
    Kakan(usize, Tile),
}

enum Flow<'a> {
    Go(Play<'a>, Step),
    Done(Play<'a>, End),
}

/// Steps allowed for one round, backtracking included: a real round takes about 150.
const STEP_BUDGET: usize = 200_000;

impl<'a> Play<'a> {
    /// Plays the round depth-first over the call choices; the error reported is the one of the way that got furthest.
    fn search(self, dealer: usize) -> Result<(Play<'a>, End), String> {
        let mut alternatives: Vec<(Play<'a>, Step)> = Vec::new();
        let mut state = (self, Step::Draw(dealer));
        let mut deepest: Option<(usize, String)> = None;
        for _ in 0..STEP_BUDGET {
            let (play, step) = state;
            let progress = play.events.len();
            match play.advance(step, &mut alternatives) {
                Ok(Flow::Go(p, s)) => state = (p, s),
                Ok(Flow::Done(p, end)) => return Ok((p, end)),
                Err(e) => {
                    if deepest.as_ref().is_none_or(|(at, _)| progress > *at) {
                        deepest = Some((progress, e));
                    }
                    match alternatives.pop() {
                        Some(a) => state = a,
                        None => break,
                    }
                }
            }
        }
        Err(deepest.map_or_else(|| "no order of play fits every seat's sequence".into(), |(_, e)| e))
    }

    fn next_seat(&self, s: usize) -> usize {
        (s + 1) % self.n
    }

    fn advance(mut self, step: Step, alternatives: &mut Vec<(Play<'a>, Step)>) -> Result<Flow<'a>, String> {
        match step {
            Step::Draw(s) => {
                let Some(&take) = self.round.takes[s].get(self.take_at[s]) else {
                    return Err(format!("seat {s} has no draw left on its turn"));
                };
                let Take::Draw(c) = take else {
                    return Err(format!("seat {s}'s take {} is a call where a draw is due", self.take_at[s]));
                };
                if self.draws_left == 0 {
                    return Err(format!("seat {s} draws from an empty wall"));
                }
                self.draws_left -= 1;
                let tile = self.ids.draw(s, c.kind(), c.red()).map_err(|e| format!("seat {s} draws: {e}"))?;
                self.take_at[s] += 1;
                self.last_draw[s] = Some(tile);
                self.events.push(Event::Draw { seat: s as u8, tile });
                Ok(Flow::Go(self, Step::Out(s)))
            }
            Step::Out(s) => self.out(s),
            Step::Offer(d) => {
                // pon and daiminkan first, then chi, then nobody; the others are tried if this way fails
                let mut options: Vec<Option<usize>> = self.callers(d).into_iter().map(Some).collect();
                options.push(None);
                for &o in options[1..].iter().rev() {
                    alternatives.push((self.clone(), Step::Resolve(d, o)));
                }
                Ok(Flow::Go(self, Step::Resolve(d, options[0])))
            }
            Step::Resolve(d, None) => {
                let next = self.next_seat(d.seat);
                if self.take_at[next] < self.round.takes[next].len() {
                    self.accept_riichi(d);
                    Ok(Flow::Go(self, Step::Draw(next)))
                } else {
                    self.end(End::Discard(d))
                }
            }
            Step::Resolve(d, Some(caller)) => {
                self.accept_riichi(d);
                self.call(caller, d)
            }
        }
    }

    /// Seats whose next take calls this discard: pon and daiminkan, then chi.
    fn callers(&self, d: Discarded) -> Vec<usize> {
        let mut pon = Vec::new();
        let mut chi = Vec::new();
        for s in (0..self.n).filter(|&s| s != d.seat) {
            if let Some(Take::Call(c)) = self.round.takes[s].get(self.take_at[s]) {
                if c.called != d.code || (s + usize::from(c.from)) % 4 != d.seat {
                    continue;
                }
                if c.kind == MeldKind::Chi {
                    chi.push(s);
                } else {
                    pon.push(s);
                }
            }
        }
        pon.extend(chi);
        pon
    }

    fn out(mut self, s: usize) -> Result<Flow<'a>, String> {
        let Some(&out) = self.round.outs[s].get(self.out_at[s]) else {
            return self.end(End::Drawn(s));
        };
        self.out_at[s] += 1;
        let err = |e: String| format!("seat {s}: {e}");
        match out {
            Out::Discard(c) => {
                let tile = self.take_hand_cut(s, c).map_err(err)?;
                self.discard(s, c, tile, false)
            }
            Out::Tsumogiri | Out::Riichi(None) => {
                let tile = self.last_draw[s].filter(|&t| self.ids.take_exact(s, t));
                let tile = tile.ok_or_else(|| err("tsumogiri (60) without a drawn tile in hand".into()))?;
                let c = Code::new(tile_code(tile, self.red)).ok_or("tile code")?;
                self.discard(s, c, tile, out != Out::Tsumogiri)
            }
            Out::Riichi(Some(c)) => {
                let tile = self.take_hand_cut(s, c).map_err(err)?;
                self.discard(s, c, tile, true)
            }
            Out::Ankan(kind) => {
                let meld = Meld::ankan(kind);
                for &t in meld.tiles() {
                    if !self.ids.take_exact(s, t) {
                        return Err(err(format!("ankan of {kind} without the four tiles in hand")));
                    }
                }
                self.events.push(Event::Call { seat: s as u8, meld: meld.encode() });
                self.melds[s].push(meld);
                self.flush_dora()?;
                // a closed kan shows its indicator at once
                self.reveal_dora()?;
                if self.take_at[s] == self.round.takes[s].len() {
                    return Err(err("the round ends on an ankan (robbed by kokushi): not supported".into()));
                }
                Ok(Flow::Go(self, Step::Draw(s)))
            }
            Out::Kakan(c) => {
                let added = self.ids.take(s, c.kind(), c.red()).map_err(err)?;
                let pon = self.melds[s]
                    .iter()
                    .position(|m| m.kind == MeldKind::Pon && m.base_kind() == c.kind())
                    .ok_or_else(|| err(format!("kakan of {c} without a pon of it")))?;
                let kakan = self.melds[s][pon].kakan_of(added).map_err(|e| err(e.to_string()))?;
                self.melds[s][pon] = kakan;
                self.events.push(Event::Call { seat: s as u8, meld: kakan.encode() });
                if self.take_at[s] == self.round.takes[s].len() {
                    // robbed: the kan never completes, an earlier kan's indicator stays hidden too
                    return self.end(End::Kakan(s, added));
                }
                self.flush_dora()?;
                self.pending_dora += 1;
                Ok(Flow::Go(self, Step::Draw(s)))
            }
            Out::Nuki(c) => {
                let tile = self.ids.take(s, c.kind(), false).map_err(err)?;
                let meld = Meld::nuki(tile);
                self.events.push(Event::Call { seat: s as u8, meld: meld.encode() });
                self.melds[s].push(meld);
                self.flush_dora()?;
                Ok(Flow::Go(self, Step::Draw(s)))
            }
            Out::KanSlot => Err(err("out 0 where no daiminkan was just called".into())),
        }
    }

    /// The tile of a hand-cut discard: a copy other than the one just drawn when the hand holds one.
    fn take_hand_cut(&mut self, s: usize, c: Code) -> Result<Tile, String> {
        let kind = c.kind();
        let colour_matters = self.red && !kind.is_honor() && kind.digit() == 5;
        let hand = self.ids.hands[s];
        let fits = |t: Tile| t.kind() == kind && hand.contains(t) && (!colour_matters || t.is_red_id() == c.red());
        let drawn = self.last_draw[s];
        let tile = kind
            .ids()
            .into_iter()
            .filter(|&t| fits(t))
            .find(|&t| Some(t) != drawn)
            .or(drawn.filter(|&t| fits(t)))
            .ok_or_else(|| format!("discards {c}, which is not in hand"))?;
        self.ids.take_exact(s, tile);
        Ok(tile)
    }

    fn discard(mut self, s: usize, code: Code, tile: Tile, riichi: bool) -> Result<Flow<'a>, String> {
        self.flush_dora()?;
        if riichi {
            if self.riichi[s] {
                return Err(format!("seat {s} declares riichi twice"));
            }
            self.riichi[s] = true;
            self.events.push(Event::tag(Reach { who: s as u8, step: 1, scores: None }.to_tag()));
        }
        self.events.push(Event::Discard { seat: s as u8, tile });
        Ok(Flow::Go(self, Step::Offer(Discarded { seat: s, code, tile, riichi })))
    }

    /// `REACH step=2`: the riichi discard passed, the stick is paid.
    fn accept_riichi(&mut self, d: Discarded) {
        if d.riichi {
            self.scores[d.seat] -= 1000;
            self.kyotaku += 1;
            let reach = Reach { who: d.seat as u8, step: 2, scores: Some(self.scores) };
            self.events.push(Event::tag(reach.to_tag()));
        }
    }

    fn call(mut self, c: usize, d: Discarded) -> Result<Flow<'a>, String> {
        let Some(&Take::Call(call)) = self.round.takes[c].get(self.take_at[c]) else {
            return Err(format!("seat {c} has no call to make"));
        };
        self.take_at[c] += 1;
        let mut from_hand = Vec::with_capacity(3);
        for h in &call.hand[..call.n_hand] {
            from_hand.push(self.ids.take(c, h.kind(), h.red()).map_err(|e| format!("seat {c} calls: {e}"))?);
        }
        let meld = Meld::call(call.kind, &from_hand, d.tile, call.from).map_err(|e| format!("seat {c}: {e}"))?;
        self.events.push(Event::Call { seat: c as u8, meld: meld.encode() });
        self.melds[c].push(meld);
        self.last_draw[c] = None;
        if call.kind == MeldKind::Daiminkan {
            self.pending_dora += 1;
            // the `0` out slot of the kan; some writers leave it out
            if self.round.outs[c].get(self.out_at[c]) == Some(&Out::KanSlot) {
                self.out_at[c] += 1;
            }
            return Ok(Flow::Go(self, Step::Draw(c)));
        }
        Ok(Flow::Go(self, Step::Out(c)))
    }

    fn reveal_dora(&mut self) -> Result<(), String> {
        let c = *self.round.dora.get(self.dora.len()).ok_or_else(|| {
            format!("a kan shows a new dora indicator, but the round lists only {}", self.round.dora.len())
        })?;
        let tile = self.ids.fresh(c.kind(), c.red())?;
        self.dora.push(tile);
        self.events.push(Event::Dora { tile });
        Ok(())
    }

    /// Shows the indicators of open kans (before the next discard or call of the kan's owner).
    fn flush_dora(&mut self) -> Result<(), String> {
        while self.pending_dora > 0 {
            self.pending_dora -= 1;
            self.reveal_dora()?;
        }
        Ok(())
    }

    /// The round stops here: every seat must have played all it has, and the result must fit the way it stops.
    fn end(self, end: End) -> Result<Flow<'a>, String> {
        for s in 0..4 {
            let (takes, outs) =
                (self.round.takes[s].len() - self.take_at[s], self.round.outs[s].len() - self.out_at[s]);
            if takes + outs > 0 {
                return Err(format!("the round stops ({end:?}) but seat {s} has {takes} takes and {outs} outs left"));
            }
        }
        let fits = match (&self.round.result, end) {
            (RoundResult::Wins(w), End::Drawn(s)) => w.len() == 1 && w[0].who == s && w[0].from == s,
            (RoundResult::Wins(w), End::Discard(Discarded { seat, .. }) | End::Kakan(seat, _)) => {
                w.iter().all(|w| w.from == seat && w.who != seat)
            }
            (RoundResult::Draw { kind: DrawKind::Yao9, .. }, End::Drawn(_)) => true,
            (RoundResult::Draw { kind: DrawKind::Exhaustive | DrawKind::Nagashi, .. }, End::Discard(_)) => {
                if self.draws_left != 0 {
                    return Err(format!("exhaustive draw with {} tiles left in the wall", self.draws_left));
                }
                true
            }
            (RoundResult::Draw { kind, .. }, End::Discard(_)) => kind.is_abortive() && *kind != DrawKind::Yao9,
            _ => false,
        };
        if !fits {
            return Err(format!("the result does not fit the way the round stops ({end:?})"));
        }
        let unshown = self.round.dora.len() - self.dora.len().min(self.round.dora.len());
        if unshown > 0 {
            return Err(format!("{unshown} dora indicators of the round were never shown by a kan"));
        }
        Ok(Flow::Done(self, end))
    }

    /// Writes the round's end: REACH step 2 if the last riichi discard stands, the AGARI or RYUUKYOKU tags.
    fn finish(&mut self, end: End, last_of: Option<&Game>) -> Result<(), String> {
        let n = self.n;
        let hands: Vec<Vec<Tile>> = (0..4).map(|s| self.ids.hands[s].iter().collect()).collect();
        match &self.round.result {
            RoundResult::Wins(wins) => {
                let mut ura: Option<Vec<Tile>> = None;
                for (i, w) in wins.iter().enumerate() {
                    if w.who >= n || w.from >= n || w.pao >= n {
                        return Err("win seat out of range".into());
                    }
                    let (mut hand, machi) = match end {
                        End::Drawn(s) => (hands[s].clone(), self.last_draw[s].ok_or("tsumo without a draw")?),
                        End::Discard(Discarded { tile, .. }) | End::Kakan(_, tile) => {
                            let mut h = hands[w.who].clone();
                            h.push(tile);
                            (h, tile)
                        }
                    };
                    hand.sort();
                    let sum: i32 = w.deltas.iter().sum();
                    if sum < 0 || sum % 1000 != 0 || sum / 1000 > i32::from(self.kyotaku) {
                        return Err(format!(
                            "win deltas {:?} add to {sum}, not a number of the {} sticks",
                            w.deltas, self.kyotaku
                        ));
                    }
                    let taken = (sum / 1000) as u8;
                    let (fu, points, limit) = match &w.score {
                        Some(s) => score(s, w.who == w.from, usize::from(self.round.kyoku % 4) == w.who, n)?,
                        // no score string (some converters): the winner's gain without sticks and honba
                        None => (0, (w.deltas[w.who] - sum - 300 * i32::from(self.round.honba)).max(0), 0),
                    };
                    let (mut yaku, yakuman) = yaku_list(&w.yaku)?;
                    // Tenhou lists ura for every riichi winner, 0 han included (some writers drop that entry)
                    if self.riichi[w.who] && yakuman.is_empty() && !yaku.is_empty() && yaku.iter().all(|y| y.id != 53) {
                        yaku.push(Yaku { id: 53, han: 0 });
                    }
                    let ura_indicators = if self.riichi[w.who] && !self.round.ura.is_empty() {
                        if ura.is_none() {
                            let mut v = Vec::new();
                            for c in &self.round.ura {
                                v.push(self.ids.fresh(c.kind(), c.red())?);
                            }
                            ura = Some(v);
                        }
                        ura.clone().unwrap_or_default()
                    } else {
                        Vec::new()
                    };
                    let before = self.scores;
                    for (s, d) in self.scores.iter_mut().zip(w.deltas) {
                        *s += d;
                    }
                    self.kyotaku -= taken;
                    let owari = if i + 1 == wins.len() {
                        last_of.and_then(|g| g.owari(self.round.kyoku, self.scores, self.kyotaku))
                    } else {
                        None
                    };
                    let agari = Agari {
                        honba: self.round.honba,
                        kyotaku: taken,
                        hand,
                        melds: self.melds[w.who].iter().rev().map(Meld::encode).collect(), // newest first, as Tenhou
                        machi,
                        fu,
                        points,
                        limit,
                        yaku,
                        yakuman,
                        dora_indicators: self.dora.clone(),
                        ura_indicators,
                        who: w.who as u8,
                        from_who: w.from as u8,
                        pao_who: (w.pao != w.who).then_some(w.pao as u8),
                        before,
                        delta: w.deltas,
                        owari,
                    };
                    self.events.push(Event::tag(agari.to_tag(4)));
                }
            }
            RoundResult::Draw { kind, name, deltas } => {
                let kind = *kind;
                if let End::Discard(d) = end {
                    if kind != DrawKind::Ron3 {
                        self.accept_riichi(d);
                    }
                }
                let mut shown: [Option<Vec<Tile>>; 4] = Default::default();
                let tenpai = |s: usize| {
                    let hand = self.ids.hands[s];
                    hand.len() % 3 == 1 && shanten(&hand.counts()) == 0
                };
                for s in 0..n {
                    let show = match (kind, end) {
                        (DrawKind::Exhaustive, _) if deltas.iter().any(|&d| d != 0) => deltas[s] > 0,
                        (DrawKind::Exhaustive, _) if name == "全員聴牌" => true,
                        (DrawKind::Exhaustive, _) if name == "全員不聴" => false,
                        (DrawKind::Exhaustive | DrawKind::Nagashi, _) => tenpai(s),
                        (DrawKind::Yao9, End::Drawn(who)) => s == who,
                        (DrawKind::Reach4, _) => true,
                        (DrawKind::Ron3, End::Discard(d)) => s != d.seat,
                        _ => false,
                    };
                    if show {
                        shown[s] = Some(hands[s].clone());
                    }
                }
                let before = self.scores;
                for (s, d) in self.scores.iter_mut().zip(deltas) {
                    *s += d;
                }
                let owari = last_of.and_then(|g| g.owari(self.round.kyoku, self.scores, self.kyotaku));
                let draw = Ryuukyoku {
                    kind,
                    honba: self.round.honba,
                    kyotaku: self.kyotaku,
                    shown,
                    before,
                    delta: *deltas,
                    owari,
                };
                self.events.push(Event::tag(draw.to_tag(4)));
            }
        }
        Ok(())
    }
}

/// The tenhou.net/6 code of a physical tile (red fives as 51-53 in games with them).
fn tile_code(t: Tile, red: bool) -> i64 {
    let k = t.kind();
    if red && t.is_red_id() {
        return 51 + i64::from(k.index() / 9);
    }
    i64::from(k.index() / 9 + 1) * 10 + i64::from(k.digit())
}

// ---------------------------------------------------------------------------------------------------------------
// Score strings and yaku names

/// `(fu, points, limit)` from `30符4飜7700点`, `満貫2000-4000点`, `2600点∀` (the points Tenhou's `ten` holds:
/// everything the payers pay, without honba and sticks).
fn score(s: &str, tsumo: bool, dealer: bool, n_players: usize) -> Result<(u32, i32, u8), String> {
    let bad = || format!("score {s:?} is not like 30符4飜7700点 or 満貫2000-4000点");
    let t = ascii_digits(s.trim());
    let all = t.ends_with('∀');
    let t = t.trim_end_matches('∀').trim_end_matches('点');
    let (fu, limit, pay) = if let Some(i) = t.find('符') {
        let fu: u32 = t[..i].parse().map_err(|_| bad())?;
        let rest = &t[i + '符'.len_utf8()..];
        let j = rest.find('飜').ok_or_else(bad)?;
        let han: u32 = rest[..j].parse().map_err(|_| bad())?;
        // a string with fu can still be a limit hand (kazoe, or an unusual writer): the han decide
        let limit = match han {
            0..=4 => 0,
            5 => 1,
            6 | 7 => 2,
            8..=10 => 3,
            11 | 12 => 4,
            _ => 5,
        };
        (fu, limit, &rest[j + '飜'.len_utf8()..])
    } else {
        let limits = [("数え役満", 5), ("三倍満", 4), ("倍満", 3), ("跳満", 2), ("満貫", 1), ("役満", 5)];
        let (name, limit) = limits.iter().find(|(name, _)| t.starts_with(name)).ok_or_else(bad)?;
        (0, *limit, &t[name.len()..])
    };
    let nums: Vec<i32> = pay.split('-').map(|x| x.trim().parse().map_err(|_| bad())).collect::<Result<_, _>>()?;
    let payers = n_players as i32 - 1;
    let points = match (&nums[..], tsumo) {
        (&[a], false) => a,
        // a dealer's tsumo: everyone pays the same
        (&[a], true) if all || dealer => a * payers,
        // a non-dealer's tsumo: the non-dealers pay a, the dealer b
        (&[a, b], true) => a * (payers - 1) + b,
        _ => return Err(bad()),
    };
    Ok((fu, points, limit))
}

/// `立直(1飜)` -> yaku (1, 1); `大三元(役満)` -> yakuman 39. Nuki dora join the dora entry, as Tenhou's mjlog has it.
fn yaku_list(names: &[String]) -> Result<(Vec<Yaku>, Vec<u8>), String> {
    let mut yaku: Vec<Yaku> = Vec::new();
    let mut yakuman = Vec::new();
    for s in names {
        let t = ascii_digits(s.trim()).replace('（', "(").replace('）', ")");
        let bad = || format!("yaku {s:?} is not like 立直(1飜)");
        let open = t.rfind('(').ok_or_else(bad)?;
        let name = &t[..open];
        let id = yaku::id_by_name(name).ok_or_else(|| format!("unknown yaku name {name:?}"))?;
        let inner = t[open + 1..].trim_end_matches(')');
        if inner.contains("役満") {
            yakuman.push(id);
            continue;
        }
        let digits: String = inner.chars().take_while(char::is_ascii_digit).collect();
        let han: u8 = digits.parse().map_err(|_| bad())?;
        match yaku.iter_mut().find(|y| y.id == id) {
            Some(y) => y.han += han,
            None => yaku.push(Yaku { id, han }),
        }
    }
    Ok((yaku, yakuman))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_strings() {
        assert_eq!(score("30符4飜7700点", false, false, 4), Ok((30, 7700, 0)));
        assert_eq!(score("30符4飜3900点∀", true, true, 4), Ok((30, 11700, 0)));
        assert_eq!(score("満貫2000-4000点", true, false, 4), Ok((0, 8000, 1)));
        assert_eq!(score("跳満18000点", false, true, 4), Ok((0, 18000, 2)));
        assert_eq!(score("役満16000-32000点", true, false, 4), Ok((0, 64000, 5)));
        assert_eq!(score("満貫2000-4000点", true, false, 3), Ok((0, 6000, 1)));
        assert!(score("7700", false, false, 4).is_err());
        assert!(score("満貫", false, false, 4).is_err());
    }

    #[test]
    fn yaku_names() {
        let names: Vec<String> = ["立直(1飜)", "翻牌 白(1飜)", "ドラ(2飜)", "Ura Dora(0飜)", "国士無双１３面(役満)"]
            .map(String::from)
            .to_vec();
        let (yaku, yakuman) = yaku_list(&names).unwrap();
        let ids: Vec<(u8, u8)> = yaku.iter().map(|y| (y.id, y.han)).collect();
        assert_eq!(ids, [(1, 1), (18, 1), (52, 2), (53, 0)]);
        assert_eq!(yakuman, [48]);
        assert!(yaku_list(&["謎の役(1飜)".to_string()]).is_err());
    }

    #[test]
    fn owari_follows_tenhou_rounding() {
        // a real houou game's sc: 21100 -19, 55000 65, -4900 -55, 28800 9
        let game = Game {
            log_id: None,
            players: Default::default(),
            game_type: 0xA9,
            lobby: 0,
            n_players: 4,
            red: true,
            rounds: Vec::new(),
            final_sc: None,
        };
        let o = game.owari(7, [21100, 55000, -4900, 28800], 0).unwrap();
        assert_eq!(o.points, [-19.0, 65.0, -55.0, 9.0]);
        // halves go away from zero: 30500 is 2nd with 1 + 10, -8500 is 4th with -39 - 20
        let o = game.owari(7, [52200, -8500, 36400, 19900], 0).unwrap();
        assert_eq!(o.points, [63.0, -59.0, 16.0, -20.0]);
        assert!(game.owari(6, [30000, 30000, 20000, 20000], 0).is_none());
        assert!(game.owari(2, [-100, 40100, 30000, 30000], 0).is_some());
    }

    #[test]
    fn game_type_from_the_lobby_name() {
        assert_eq!(type_from_disp("鳳南喰赤"), 0xA9);
        assert_eq!(type_from_disp("特南喰赤"), 0x29);
        assert_eq!(type_from_disp("般東喰"), 0x01);
        assert_eq!(type_from_disp("上東喰赤速"), 0xC1);
        assert_eq!(type_from_disp("般南"), 0x0D);
    }
}
