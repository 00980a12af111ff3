//! Writer of tenhou.net/6 JSON: a game record (the mjlog tags of [`crate::event`]) as the one object Tenhou's
//! viewer opens (`https://tenhou.net/6/#json=...`), so that [`super::parse`] reads the same game back.
//!
//! # What is written
//! - `title` (`["", log id]`), `name`, `rule` (`disp`: the lobby name Tenhou shows, built from the `GO` bits:
//!   `三` for 3 players, 鳳/特/上/般 the level, 東/南 the length, 喰 open tanyao, 赤 red fives, 速 fast, a leading
//!   `電脳` for a table without humans; `aka` 1 or 0), `ref` (the log id, when the record has one: the reader
//!   takes the table's rules from it), `lobby`, `dan` (Tenhou's names), `rate`, `sx`, `sc` (final scores and
//!   points of `owari`, when the game reached it), `log`.
//! - Per round: `[kyoku, honba, kyotaku]`, the starting scores (four; 0 for the empty seat of a 3-player game),
//!   the dora indicators (the first and each kan's), the ura indicators (of riichi winners), then each seat's
//!   dealt hand (in id order), takes and outs, and the result. Takes: drawn tiles, calls as `c`/`p`/`m` strings;
//!   outs: discarded tiles, `60` for tsumogiri (the tile just drawn), `r` + tile (or `r60`) for the riichi
//!   discard, `a`/`k`/`f` strings for ankan, kakan and nuki, and `0` after a daiminkan (its out slot, as Tenhou
//!   writes it). Tiles are 11-19 man, 21-29 pin, 31-39 sou, 41-47 honors, 51-53 red fives.
//! - Results: `["和了", deltas, [who, from, pao, score, yaku ...], ...]` (pao = who when no one is liable; the
//!   yaku in the record's order, Tenhou's Japanese names), or a draw by name: `流局` with the deltas when someone
//!   pays, `全員聴牌` / `全員不聴` without; `九種九牌`, `四家立直`, `三家和了`, `四槓散了`, `四風連打`, `流し満貫`.
//!
//! # What is lost (the format has no place for it)
//! - How the seats interleave: the reader plays each round again (see the module notes of [`super`]); tile ids
//!   (kinds and red fives only: the reader gives ids again); dice, `SHUFFLE`, `BYE`, unknown tags.
//! - `GO` bits the lobby name cannot say, when the record has no log id; `AGARI` fu of limit hands (the score
//!   string names the limit only), `machi` beyond its kind.
//! - A round the record leaves unfinished (a truncated game): the format holds no round without its result, so
//!   it is left out.

use haifu_rules::{Meld, MeldKind, Tile};
use serde::Serialize;
use serde_json::Value;

pub use crate::mjai::write::WriteError;

use super::calls::{meld_notation, tile_code};
use super::read::DAN;
use super::result::{draw_result, score_string, yaku_strings};
use crate::event::{Event, GameRecord};
use crate::tags::{Agari, GameType, Init, Owari, Player};

/// The game as one tenhou.net/6 JSON object (see the module notes).
///
/// # Errors
/// A record that does not hold together: a game event outside a round or after its result, a seat that does not
/// play, a meld code that does not decode or names a source the format cannot spell, an `INIT`, `REACH`, `AGARI`
/// or `RYUUKYOKU` whose attributes do not parse, a yaku id past 54, a record without any finished round. The error
/// names the event (its index in `record.events`; the number of events when the whole record is at fault).
pub fn to_tenhou6(record: &GameRecord) -> Result<String, WriteError> {
    let mut w = Writer::default();
    for (i, e) in record.events.iter().enumerate() {
        w.step(e).map_err(|message| WriteError { event: i, message: format!("{}: {message}", e.kind_name()) })?;
    }
    let end = record.events.len();
    let game = w.finish(record.log_id.as_deref()).map_err(|message| WriteError { event: end, message })?;
    serde_json::to_string(&game).map_err(|e| WriteError { event: end, message: e.to_string() })
}

/// The object, its fields in the order Tenhou's own files have them.
#[derive(Serialize)]
struct Game6 {
    title: [String; 2],
    name: Vec<String>,
    rule: Rule,
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    log_id: Option<String>,
    lobby: i64,
    dan: Vec<Value>,
    rate: Vec<Value>,
    sx: Vec<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sc: Option<Vec<Value>>,
    log: Vec<Value>,
}

#[derive(Serialize)]
struct Rule {
    disp: String,
    aka: u8,
}

/// The round being written: each seat's dealt hand, takes and outs, and the result once it is known.
struct Round {
    head: [u8; 3],
    scores: [i32; 4],
    dealer: u8,
    dora: Vec<i64>,
    ura: Vec<i64>,
    hai: [Vec<i64>; 4],
    takes: [Vec<Value>; 4],
    outs: [Vec<Value>; 4],
    last_draw: [Option<Tile>; 4],
    /// `REACH step=1` seen: the seat's next discard is the riichi discard.
    riichi: [bool; 4],
    /// `和了` and its (deltas, info) pairs, or the draw; empty while the round goes on.
    result: Vec<Value>,
}

impl Round {
    fn to_json(&self) -> Value {
        let mut v = vec![
            Value::from(self.head.to_vec()),
            Value::from(self.scores.to_vec()),
            Value::from(self.dora.clone()),
            Value::from(self.ura.clone()),
        ];
        for s in 0..4 {
            v.push(Value::from(self.hai[s].clone()));
            v.push(Value::Array(self.takes[s].clone()));
            v.push(Value::Array(self.outs[s].clone()));
        }
        v.push(Value::Array(self.result.clone()));
        Value::Array(v)
    }
}

#[derive(Default)]
struct Writer {
    go: Option<GameType>,
    lobby: i64,
    players: Option<[Option<Player>; 4]>,
    /// Players: from `GO` (3 with bit 0x10), else from the first `INIT` (3 when `hai3` is empty).
    n: Option<usize>,
    rounds: Vec<Value>,
    round: Option<Round>,
    owari: Option<Owari>,
}

impl Writer {
    /// Red fives are played unless `GO` says otherwise (Tenhou's default).
    fn red(&self) -> bool {
        self.go.is_none_or(GameType::red)
    }

    fn n(&self) -> usize {
        self.n.unwrap_or(4)
    }

    fn code(&self, t: Tile) -> i64 {
        tile_code(t, self.red())
    }

    /// The round in play, and the seat when it plays in this game.
    fn play(&mut self, seat: u8) -> Result<(&mut Round, usize), String> {
        let (n, s) = (self.n(), usize::from(seat));
        if s >= n {
            return Err(format!("seat {seat} does not play in a {n}-player game"));
        }
        match self.round.as_mut() {
            Some(r) if r.result.is_empty() => Ok((r, s)),
            Some(_) => Err("after the round's result".into()),
            None => Err("outside a round (before the first INIT)".into()),
        }
    }

    fn step(&mut self, e: &Event) -> Result<(), String> {
        match e {
            Event::Draw { seat, tile } => {
                let code = self.code(*tile);
                let (r, s) = self.play(*seat)?;
                r.takes[s].push(Value::from(code));
                r.last_draw[s] = Some(*tile);
                Ok(())
            }
            Event::Discard { seat, tile } => {
                let code = self.code(*tile);
                let (r, s) = self.play(*seat)?;
                let out = if r.last_draw[s] == Some(*tile) { 60 } else { code };
                r.last_draw[s] = None;
                let out =
                    if std::mem::take(&mut r.riichi[s]) { Value::from(format!("r{out}")) } else { Value::from(out) };
                r.outs[s].push(out);
                Ok(())
            }
            Event::Call { seat, meld, .. } => self.call(*seat, *meld),
            Event::Dora { tile } => {
                let code = self.code(*tile);
                self.play(0)?.0.dora.push(code);
                Ok(())
            }
            Event::Go(g) if self.rounds.is_empty() && self.round.is_none() => {
                let go = g.game_type.unwrap_or(GameType(0));
                self.go = Some(go);
                self.n = Some(if go.three_player() { 3 } else { 4 });
                self.lobby = g.lobby.unwrap_or(0);
                Ok(())
            }
            // the first UN names the table; a later one is a reconnection
            Event::Players(un) if self.players.is_none() => {
                self.players = Some(un.0.clone());
                Ok(())
            }
            Event::Init(init) => self.init(init),
            Event::Reach(reach) => {
                let (r, s) = self.play(reach.who)?;
                if reach.step == 1 {
                    r.riichi[s] = true;
                }
                Ok(())
            }
            Event::Agari(a) => self.agari(a),
            Event::Ryuukyoku(d) => {
                let n = self.n();
                let r = self.play(0)?.0;
                r.result = draw_result(d, n);
                self.owari = d.owari.clone().or(self.owari.take());
                Ok(())
            }
            // the root, TAIKYOKU, SHUFFLE, BYE and unknown tags have no place in the format
            Event::Go(_) | Event::Players(_) | Event::Bye(_) | Event::Tag(_) => Ok(()),
        }
    }

    /// Ends the round before (when it has its result) and starts this one.
    fn end_round(&mut self) -> Result<(), String> {
        match self.round.take() {
            Some(r) if r.result.is_empty() => Err("INIT while the previous round has no result".into()),
            Some(r) => {
                self.rounds.push(r.to_json());
                Ok(())
            }
            None => Ok(()),
        }
    }

    fn init(&mut self, init: &Init) -> Result<(), String> {
        self.end_round()?;
        if self.n.is_none() {
            self.n = Some(if init.hands[3].is_empty() { 3 } else { 4 });
        }
        if usize::from(init.dealer) >= self.n() {
            return Err(format!("dealer {} does not play in a {}-player game", init.dealer, self.n()));
        }
        let mut hai: [Vec<i64>; 4] = Default::default();
        for (codes, hand) in hai.iter_mut().zip(&init.hands) {
            let mut hand = hand.clone();
            hand.sort_unstable();
            *codes = hand.iter().map(|&t| self.code(t)).collect();
        }
        self.round = Some(Round {
            head: [init.kyoku, init.honba, init.kyotaku],
            scores: init.scores,
            dealer: init.dealer,
            dora: vec![self.code(init.dora_indicator)],
            ura: Vec::new(),
            hai,
            takes: Default::default(),
            outs: Default::default(),
            last_draw: [None; 4],
            riichi: [false; 4],
            result: Vec::new(),
        });
        Ok(())
    }

    fn call(&mut self, seat: u8, meld: Meld) -> Result<(), String> {
        let notation = Value::from(meld_notation(&meld, self.red())?);
        let (r, s) = self.play(seat)?;
        r.last_draw[s] = None;
        match meld.kind {
            MeldKind::Chi | MeldKind::Pon => r.takes[s].push(notation),
            MeldKind::Daiminkan => {
                r.takes[s].push(notation);
                r.outs[s].push(Value::from(0));
            }
            MeldKind::Kakan | MeldKind::Ankan | MeldKind::Nuki => r.outs[s].push(notation),
        }
        Ok(())
    }

    fn agari(&mut self, a: &Agari) -> Result<(), String> {
        let n = self.n();
        for seat in [a.who, a.from_who].into_iter().chain(a.pao_who) {
            if usize::from(seat) >= n {
                return Err(format!("seat {seat} does not play in a {n}-player game"));
            }
        }
        let ura: Vec<i64> = a.ura_indicators.iter().map(|&t| self.code(t)).collect();
        let round = self.round.as_mut().ok_or("outside a round (before the first INIT)")?;
        let mut info = vec![Value::from(a.who), Value::from(a.from_who), Value::from(a.pao_who.unwrap_or(a.who))];
        info.push(Value::from(score_string(a, a.who == round.dealer, n)));
        info.extend(yaku_strings(a)?.into_iter().map(Value::from));
        if round.result.is_empty() {
            round.result.push(Value::from("和了"));
        }
        round.result.push(Value::from(a.delta.to_vec()));
        round.result.push(Value::Array(info));
        if !ura.is_empty() {
            round.ura = ura;
        }
        self.owari = a.owari.clone().or(self.owari.take());
        Ok(())
    }

    fn finish(mut self, log_id: Option<&str>) -> Result<Game6, String> {
        // an unfinished last round (a truncated game) is left out
        if self.round.as_ref().is_some_and(|r| !r.result.is_empty()) {
            self.end_round()?;
        }
        if self.rounds.is_empty() {
            return Err("no finished round in the record".into());
        }
        let n = self.n();
        let players: Vec<Player> =
            self.players.unwrap_or_default().into_iter().map(Option::unwrap_or_default).collect();
        let seats = || players.iter().take(n);
        let dan = |p: &Player| match p.dan {
            Some(d) => DAN.get(d as usize).map_or(Value::from(d), |name| Value::from(*name)),
            None => Value::Null,
        };
        // rates to the hundredth, as Tenhou shows them
        let rate = |p: &Player| p.rate.map_or(Value::Null, |r| Value::from((f64::from(r) * 100.0).round() / 100.0));
        let mut names: Vec<String> = seats().map(|p| p.name.clone()).collect();
        names.resize(4, String::new());
        let go = self.go.unwrap_or(GameType(if n == 3 { 0x19 } else { 0x09 }));
        Ok(Game6 {
            title: [String::new(), log_id.unwrap_or_default().to_string()],
            name: names,
            rule: Rule { disp: lobby_name(go), aka: u8::from(go.red()) },
            log_id: log_id.map(str::to_string),
            lobby: self.lobby,
            dan: seats().map(dan).collect(),
            rate: seats().map(rate).collect(),
            sx: seats().map(|p| p.sex.clone().map_or(Value::Null, Value::from)).collect(),
            sc: self.owari.map(|o| (0..n).flat_map(|s| [Value::from(o.scores[s]), number(o.points[s])]).collect()),
            log: self.rounds,
        })
    }
}

/// A number as JSON: whole numbers without a fraction (`65`, not `65.0`), as Tenhou writes game points.
fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        Value::from(x as i64)
    } else {
        Value::from(x)
    }
}

/// The lobby name Tenhou shows for a table (`鳳南喰赤`, `三般東喰赤速`): what the reader takes the rules from when
/// there is no log id.
fn lobby_name(go: GameType) -> String {
    let mut s = String::new();
    if !go.vs_humans() {
        s.push_str("電脳");
    }
    if go.three_player() {
        s.push('三');
    }
    s.push(match go.level() {
        "houou" => '鳳',
        "tokujou" => '特',
        "joukyuu" => '上',
        _ => '般',
    });
    s.push(if go.hanchan() { '南' } else { '東' });
    for (on, c) in [(go.kuitan(), '喰'), (go.red(), '赤'), (go.fast(), '速')] {
        if on {
            s.push(c);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lobby_names_read_back_as_their_table() {
        for (t, name) in
            [(0xA9, "鳳南喰赤"), (0x29, "特南喰赤"), (0x01, "般東喰赤"), (0xC1, "上東喰赤速"), (0x0F, "般南")]
        {
            assert_eq!(lobby_name(GameType(t)), name);
        }
        assert_eq!(lobby_name(GameType(0xB9)), "三鳳南喰赤");
    }
}
