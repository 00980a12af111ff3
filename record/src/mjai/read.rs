//! The game reader: one game's messages into the events of the one model (rounds, calls, wins, draws), with
//! the hands and scores tracked so that each message is checked against them.

use crate::state::KanDora;
use haifu_rules::table;
use haifu_rules::{Kind, Meld, MeldKind, MjaiTile, Tile};

use super::infer::{self, GameFacts, WinContext};
use super::lines::Line;
use super::message::{self as m, Message, Pai};
use crate::error::ReadError;
use crate::event::{Event, Tag};
use crate::ids::IdAllocator;
use crate::length::{self, Length, ReadOptions};
use crate::tags::{Agari, Init, Player, Reach, Ryuukyoku};

/// Tenhou round end tag kept typed until the game ends (`owari` goes on the last one).
pub(super) enum RoundEnd {
    Agari(Agari),
    Ryuukyoku(Ryuukyoku),
}

/// State of the round being read.
pub(super) struct Round {
    pub first_line: u32,
    pub ids: IdAllocator,
    pub melds: [Vec<Meld>; 4],
    pub last_draw: [Option<Tile>; 4],
    /// Seat and tile of the last discard, while it can still be called or ronned.
    pub last_discard: Option<(usize, Tile)>,
    /// Seat and tile that can be robbed: the last added kan (chankan), or a north just extracted (3 players).
    pub robbable: Option<(usize, Tile)>,
    pub dora: Vec<Tile>,
    pub ura: Option<Vec<Tile>>,
    pub riichi: [bool; 4],
    pub accepted: u8,
    pub dealer: usize,
    pub round_wind: u8,
    pub honba: u8,
    pub draws: i32,
    pub draws_by: [u32; 4],
    pub discards: Vec<(usize, Tile)>,
    pub calls: u32,
    pub kan_seats: Vec<usize>,
    /// An open or added kan waits for its replacement draw (its dora is moved there).
    pub open_kan: [bool; 4],
    pub wins: u32,
    pub ended: bool,
}

impl Round {
    fn new(first_line: u32, ids: IdAllocator, dora: Tile, dealer: usize, round_wind: u8, honba: u8) -> Round {
        Round {
            first_line,
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
            round_wind,
            honba,
            draws: 0,
            draws_by: [0; 4],
            discards: Vec::new(),
            calls: 0,
            kan_seats: Vec::new(),
            open_kan: [false; 4],
            wins: 0,
            ended: false,
        }
    }

    /// A seat's call of this kind is made; a kan that turns its indicator after the replacement draw
    /// ([`KanDora`]) owes it.
    fn called(&mut self, seat: usize, kind: MeldKind) {
        self.last_draw[seat] = None;
        self.calls += 1;
        if let Some(timing) = KanDora::of(kind) {
            self.kan_seats.push(seat);
            self.open_kan[seat] |= timing == KanDora::BeforeDiscard;
        }
    }

    /// Tiles a seat holds, a meld counting 3 and a north extraction none: 13 between turns, 14 on its turn.
    pub fn size(&self, seat: usize) -> usize {
        self.ids.hands[seat].len() + 3 * self.melds[seat].iter().filter(|m| m.kind != MeldKind::Nuki).count()
    }
}

pub(super) struct GameReader<'a> {
    pub lines: &'a [Line],
    pub facts: GameFacts,
    /// A length the user gave (wins over the log's and over every guess).
    asked_length: Option<Length>,
    /// Line number and byte offset of each round's `start_kyoku`.
    round_lines: Vec<(u32, u64)>,
    pub events: Vec<Event>,
    pub scores: [i32; 4],
    pub kyotaku: u8,
    started: bool,
    pub round: Option<Round>,
    /// The last AGARI / RYUUKYOKU: event index and typed tag.
    last_end: Option<(usize, RoundEnd)>,
    /// Line indices of `dora` events already written after a replacement draw.
    moved_dora: Vec<usize>,
}

/// A number the log gives, within `0..=max`.
pub(super) fn in_range(v: u8, key: &str, max: usize) -> Result<u8, String> {
    if usize::from(v) > max {
        return Err(format!("\"{key}\" {v} out of range 0..={max}"));
    }
    Ok(v)
}

/// A list of 3 or 4 numbers, by seat (scores, deltas).
pub(super) fn seat_values(vals: &[i32], what: &str, n: usize) -> Result<[i32; 4], String> {
    // 3-player logs may keep a fourth, zero slot
    if vals.len() < n || vals.len() > 4 || vals[n..].iter().any(|&x| x != 0) {
        return Err(format!("{what} {vals:?} does not hold one value per player ({n})"));
    }
    let mut out = [0; 4];
    for (o, &x) in out.iter_mut().zip(vals) {
        if x.abs() > 10_000_000 {
            return Err(format!("{what} value {x} out of range"));
        }
        *o = x;
    }
    if let Some(x) = out.iter().find(|&&x| x % 100 != 0) {
        return Err(format!("{what} {:?} holds {x}, not in hundreds: not a riichi-rule game", &out[..n]));
    }
    Ok(out)
}

/// [`seat_values`] of a field the log may leave out.
pub(super) fn opt_seat_values(v: Option<&[i32]>, key: &str, n: usize) -> Result<Option<[i32; 4]>, String> {
    v.map(|v| seat_values(v, &format!("\"{key}\""), n)).transpose()
}

pub(super) fn add(a: [i32; 4], b: [i32; 4]) -> [i32; 4] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]]
}

pub(super) fn sub(a: [i32; 4], b: [i32; 4]) -> [i32; 4] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3]]
}

fn same_tile(t: Tile, m: MjaiTile, red_enabled: bool) -> bool {
    t.kind() == m.kind && (!red_enabled || t.is_red_id() == m.red)
}

impl<'a> GameReader<'a> {
    pub fn new(lines: &'a [Line], opts: &ReadOptions) -> Result<GameReader<'a>, ReadError> {
        let facts = infer::game_facts(lines, opts)?;
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
    pub fn run(mut self) -> Result<(Vec<Event>, Vec<String>), ReadError> {
        self.header();
        let lines = self.lines;
        for (i, l) in lines.iter().enumerate() {
            if let Message::StartKyoku(_) = l.msg {
                self.round_lines.push((l.no, l.at));
            }
            self.step(i).map_err(|m| l.error(format!("{}: {m}", l.msg.kind())))?;
        }
        self.settle_length()?;
        Ok((self.events, self.facts.notes))
    }

    /// Sets the GO type's hanchan bit once the play is known (see [`crate::length`]).
    fn settle_length(&mut self) -> Result<(), ReadError> {
        let Some(at) = self.events.iter().position(|e| matches!(e, Event::Go(_))) else { return Ok(()) };
        let go = crate::length::go_type_of(&self.events).map_or(0, |t| t.0);
        match length::settle(&self.events, go, self.facts.stated_length, self.asked_length) {
            Ok(s) => {
                self.events[at] = Event::go(length::with_length(go, s.length), 0);
                self.facts.notes.insert(0, s.note);
                Ok(())
            }
            Err(c) => {
                let (no, at) = self.round_lines.get(c.round).copied().unwrap_or((1, 0));
                Err(ReadError::line(no, at, format!("start_kyoku: {}", c.why)))
            }
        }
    }

    pub fn n(&self) -> usize {
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
        self.events.push(Event::go(go, 0));
        let players: Vec<Player> = (0..4)
            .map(|s| Player {
                name: if s < f.n { f.names.get(s).cloned().unwrap_or_default() } else { String::new() },
                ..Player::default()
            })
            .collect();
        self.events.push(Event::players(&players));
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

    /// A seat the log names, one that plays.
    pub fn seat(&self, v: u8, key: &str) -> Result<usize, String> {
        Ok(usize::from(in_range(v, key, self.n() - 1)?))
    }

    fn step(&mut self, i: usize) -> Result<(), String> {
        let lines = self.lines;
        match &lines[i].msg {
            Message::StartKyoku(k) => self.start_kyoku(lines[i].no, k),
            Message::Tsumo(t) => self.tsumo(i, t),
            Message::Dahai(d) => self.dahai(d),
            Message::Chi(c) => self.call(MeldKind::Chi, c),
            Message::Pon(c) => self.call(MeldKind::Pon, c),
            Message::Daiminkan(c) => self.call(MeldKind::Daiminkan, c),
            Message::Ankan(a) => self.ankan(a),
            Message::Kakan(k) => self.kakan(k),
            Message::Nukidora(nd) => self.nukidora(nd),
            Message::Dora(_) if self.moved_dora.contains(&i) => Ok(()),
            Message::Dora(d) => self.dora(d.dora_marker),
            Message::Reach(r) => self.reach(r),
            Message::ReachAccepted(r) => self.reach_accepted(r),
            Message::Hora(h) => self.hora(i, h),
            Message::Ryukyoku(d) => self.ryukyoku(i, d),
            Message::EndGame(e) => self.end_game(e),
            // nothing to write
            Message::StartGame(_)
            | Message::EndKyoku(_)
            | Message::Pass(_)
            | Message::Error(_)
            | Message::Hello(_)
            | Message::Join(_) => Ok(()),
        }
    }

    fn start_kyoku(&mut self, no: u32, k: &m::StartKyoku) -> Result<(), String> {
        if let Some(r) = &self.round {
            if !r.ended {
                return Err(format!("the round begun on line {} has not ended (no hora or ryukyoku)", r.first_line));
            }
        }
        let n = self.n();
        let total = table::standard_total(n as u8);
        if !k.bakaze.kind.is_wind() {
            return Err(format!("\"bakaze\" {} is not E, S, W or N", k.bakaze));
        }
        let bakaze = k.bakaze.kind.index() - Kind::EAST.index();
        let kyoku = k.kyoku;
        if kyoku == 0 || usize::from(kyoku) > n {
            return Err(format!("\"kyoku\" {kyoku} out of range 1..={n}"));
        }
        let (honba, kyotaku) = (k.honba, k.kyotaku);
        let dealer = self.seat(k.oya, "oya")?;
        let logged = opt_seat_values(k.scores.as_deref(), "scores", n)?;
        let scores = match (logged, self.started) {
            (Some(s), false) => s,
            (None, false) => std::array::from_fn(|s| if s < n { table::start_score(n as u8) } else { 0 }),
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
        // akochan's Chinese-rules self-play logs look like this (and their scores move by single points)
        let marker = k.dora_marker.ok_or(
            "no \"dora_marker\": not a riichi-rule game (every riichi round shows a dora indicator)".to_string(),
        )?;
        let hidden: Vec<usize> =
            (0..n).filter(|&s| k.tehais.get(s).is_some_and(|h| h.contains(&Pai::Hidden))).collect();
        if !hidden.is_empty() {
            return Err(format!("the hands of seats {hidden:?} are hidden (\"?\"): a one-player view, not a full log"));
        }
        let mut ids = IdAllocator::new(self.facts.red);
        let mut dealt: [Vec<Tile>; 4] = Default::default();
        for (s, hand) in dealt.iter_mut().enumerate().take(n) {
            let tiles = k.tehais.get(s).ok_or_else(|| format!("no hand for seat {s} in \"tehais\""))?;
            if tiles.len() != 13 {
                return Err(format!("seat {s} is dealt {} tiles", tiles.len()));
            }
            for t in tiles.iter().filter_map(|p| p.tile()) {
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
        self.events.push(Event::init(init));
        self.started = true;
        self.scores = scores;
        self.kyotaku = kyotaku;
        self.round = Some(Round::new(no, ids, dora, dealer, bakaze, honba));
        Ok(())
    }

    fn tsumo(&mut self, i: usize, m: &m::Tsumo) -> Result<(), String> {
        let seat = self.seat(m.actor, "actor")?;
        let t = m.pai.tile().ok_or("\"pai\" is hidden (\"?\"): a one-player view, not a full log")?;
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
            match &l.msg {
                Message::Dora(d) => {
                    self.dora(d.dora_marker)?;
                    self.moved_dora.push(j);
                    return Ok(());
                }
                // the turn goes on
                Message::Dahai(_) | Message::Reach(_) | Message::ReachAccepted(_) => {}
                Message::Pass(_) | Message::Error(_) | Message::Hello(_) | Message::Join(_) => {}
                // the turn is over (or the round, or the game)
                _ => return Ok(()),
            }
        }
        Ok(())
    }

    fn dora(&mut self, marker: MjaiTile) -> Result<(), String> {
        let r = self.round_mut()?;
        let t = r.ids.fresh(marker.kind, marker.red)?;
        r.dora.push(t);
        self.events.push(Event::Dora { tile: t });
        Ok(())
    }

    fn dahai(&mut self, m: &m::Dahai) -> Result<(), String> {
        let seat = self.seat(m.actor, "actor")?;
        let t = m.pai;
        let red = self.facts.red;
        let r = self.round_mut()?;
        let hand = r.ids.hands[seat];
        let drawn = r.last_draw[seat].filter(|&d| hand.contains(d) && same_tile(d, t, red));
        let pick = match (m.tsumogiri, drawn) {
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

    fn call(&mut self, kind: MeldKind, c: &m::Call) -> Result<(), String> {
        let seat = self.seat(c.actor, "actor")?;
        let target = self.seat(c.target, "target")?;
        let called = c.pai;
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
        let mut from_hand = Vec::with_capacity(c.consumed.len());
        for t in &c.consumed {
            from_hand.push(r.ids.take(seat, t.kind, t.red)?);
        }
        // Tenhou's meld code counts seats to the right in its 4-slot numbering, in 3-player games too
        let from = ((target + 4 - seat) % 4) as u8;
        let meld = Meld::call(kind, &from_hand, last, from).map_err(|e| e.to_string())?;
        r.melds[seat].push(meld);
        r.last_discard = None;
        r.robbable = None;
        r.called(seat, kind);
        self.events.push(Event::call(seat as u8, meld));
        Ok(())
    }

    fn ankan(&mut self, a: &m::Ankan) -> Result<(), String> {
        let seat = self.seat(a.actor, "actor")?;
        let kind = a.consumed.first().ok_or("\"consumed\" is empty")?.kind;
        if a.consumed.len() != 4 || a.consumed.iter().any(|c| c.kind != kind) {
            return Err(format!("\"consumed\" of a closed kan must be four {kind}"));
        }
        let r = self.round_mut()?;
        for c in &a.consumed {
            r.ids.take(seat, c.kind, c.red)?;
        }
        let meld = Meld::ankan(kind);
        r.melds[seat].push(meld);
        r.called(seat, MeldKind::Ankan);
        self.events.push(Event::call(seat as u8, meld));
        Ok(())
    }

    fn kakan(&mut self, k: &m::Kakan) -> Result<(), String> {
        let seat = self.seat(k.actor, "actor")?;
        let added = k.pai;
        let r = self.round_mut()?;
        let slot = r.melds[seat]
            .iter()
            .position(|m| m.kind == MeldKind::Pon && m.base_kind() == added.kind)
            .ok_or_else(|| format!("seat {seat} adds {added} to a pon it does not have"))?;
        let id = r.ids.take(seat, added.kind, added.red)?;
        let meld = r.melds[seat][slot].kakan_of(id).map_err(|e| e.to_string())?;
        r.melds[seat][slot] = meld;
        r.robbable = Some((seat, id));
        r.called(seat, MeldKind::Kakan);
        self.events.push(Event::call(seat as u8, meld));
        Ok(())
    }

    fn nukidora(&mut self, nd: &m::Nukidora) -> Result<(), String> {
        let seat = self.seat(nd.actor, "actor")?;
        let t = nd.pai.unwrap_or(MjaiTile { kind: Kind::NORTH, red: false });
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
        self.events.push(Event::call(seat as u8, meld));
        Ok(())
    }

    fn reach(&mut self, m: &m::Reach) -> Result<(), String> {
        let who = self.seat(m.actor, "actor")?;
        let r = self.round_mut()?;
        if r.riichi[who] {
            return Err(format!("seat {who} is already in riichi"));
        }
        r.riichi[who] = true;
        self.events.push(Event::reach(Reach { who: who as u8, step: 1, scores: None }));
        Ok(())
    }

    fn reach_accepted(&mut self, m: &m::ReachAccepted) -> Result<(), String> {
        let n = self.n();
        let who = self.seat(m.actor, "actor")?;
        let logged = opt_seat_values(m.scores.as_deref(), "scores", n)?;
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
        self.events.push(Event::reach(Reach { who: who as u8, step: 2, scores: Some(self.scores) }));
        Ok(())
    }

    /// The tile a win takes: the seat's draw for a tsumo, else the discard, added kan or north just offered.
    fn winning_tile(&self, who: usize, from: usize, pai: Option<MjaiTile>) -> Result<Tile, String> {
        let r = self.round.as_ref().ok_or("outside a round")?;
        let win = if who == from {
            r.last_draw[who]
                .filter(|&t| r.ids.hands[who].contains(t))
                .ok_or_else(|| format!("tsumo by seat {who}, who has not just drawn"))?
        } else {
            let robbed = r.robbable.filter(|&(s, _)| s == from).map(|(_, t)| t);
            let discarded = r.last_discard.filter(|&(s, _)| s == from).map(|(_, t)| t);
            robbed.or(discarded).ok_or_else(|| format!("ron on seat {from}, who has not just discarded"))?
        };
        if let Some(p) = pai.filter(|&p| !same_tile(win, p, self.facts.red)) {
            return Err(format!("wins on {p}, but the winning tile is {win}"));
        }
        let size = r.size(who) + usize::from(who != from);
        if size != 14 {
            return Err(format!("seat {who} wins holding {size} tiles with the winning one"));
        }
        Ok(win)
    }

    fn hora(&mut self, i: usize, h: &m::Hora) -> Result<(), String> {
        let n = self.n();
        let who = self.seat(h.actor, "actor")?;
        let from = self.seat(h.target, "target")?;
        let red = self.facts.red;
        // a double ron: the round has ended with a win on this discard
        if !self.round.as_ref().is_some_and(|r| !r.ended || r.wins > 0) {
            return Err("outside a round, or after it ended".into());
        }
        let win = self.winning_tile(who, from, h.pai)?;
        let Some(r) = self.round.as_mut() else { return Err("outside a round".into()) };
        let mut hand: Vec<Tile> = r.ids.hands[who].iter().collect();
        if who != from {
            hand.push(win);
            hand.sort_unstable();
        }
        if r.riichi[who] && r.ura.is_none() {
            if let Some(markers) = h.uradora_markers.as_ref().filter(|m| !m.is_empty()) {
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
        let (honba, dealer) = (r.honba, r.dealer);
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
        let delta = self.deltas(i, h.deltas.as_deref(), h.scores.as_deref(), sticks)?;
        let points = h.hora_points.unwrap_or_else(|| infer::win_points(delta[who], first, honba, sticks, n as u8));
        let (yaku, yakuman) = infer::win_yaku(h, &ctx);
        let agari = Agari {
            honba,
            kyotaku: sticks,
            hand,
            melds,
            machi: win,
            fu: infer::win_fu(h)?,
            points,
            limit: if n == 3 && who == from {
                haifu_rules::score::limit_of_sanma_tsumo(points, who == dealer, !yakuman.is_empty())
            } else {
                haifu_rules::score::limit_of_points(points, who == dealer, !yakuman.is_empty())
            },
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
        self.events.push(Event::agari(agari.clone()));
        self.last_end = Some((self.events.len() - 1, RoundEnd::Agari(agari)));
        Ok(())
    }

    fn ryukyoku(&mut self, i: usize, d: &m::Ryukyoku) -> Result<(), String> {
        let n = self.n();
        let wall = if n == 3 { 108 - 14 - 39 } else { 136 - 14 - 52 };
        let r = self.round_mut()?;
        let left = wall - r.draws;
        let kind = infer::draw_kind(d.reason.as_deref(), r, left)?;
        let deltas = self.deltas(i, d.deltas.as_deref(), d.scores.as_deref(), 0)?;
        let r = self.round.as_mut().ok_or("outside a round")?;
        let shown = infer::shown_hands(kind, d, deltas, r, n)?;
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
        self.events.push(Event::ryuukyoku(end.clone()));
        self.last_end = Some((self.events.len() - 1, RoundEnd::Ryuukyoku(end)));
        Ok(())
    }

    fn end_game(&mut self, e: &m::EndGame) -> Result<(), String> {
        let n = self.n();
        // a game stopped inside a round keeps no owari: replay reports it as truncated
        if self.round.as_ref().is_none_or(|r| !r.ended) {
            return Ok(());
        }
        let owari = self.owari();
        if let Some(s) = opt_seat_values(e.scores.as_deref(), "scores", n)? {
            if s != self.scores && s != owari.scores {
                return Err(format!(
                    "scores {:?} differ from the {:?} the rounds add up to",
                    &s[..n],
                    &self.scores[..n]
                ));
            }
        }
        let Some((index, end)) = self.last_end.as_mut() else { return Ok(()) };
        self.events[*index] = match end {
            RoundEnd::Agari(a) => {
                a.owari = Some(owari);
                Event::agari(a.clone())
            }
            RoundEnd::Ryuukyoku(d) => {
                d.owari = Some(owari);
                Event::ryuukyoku(d.clone())
            }
        };
        Ok(())
    }
}
