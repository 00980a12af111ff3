//! The game reader: one game's messages into the events of the one model (rounds, calls, wins, draws). Each
//! message becomes an event by [`Tiles`] and advances the one [`TableState`], which checks it against the hands
//! and scores; the reader keeps only what a log's order needs beside it (what can be robbed, the ura shown, a
//! kan dora to move, whether the round has ended).

use haifu_rules::table;
use haifu_rules::{Kind, Meld, MeldKind, MjaiTile, Tile};

use super::infer::{self, GameFacts, WinContext};
use super::lines::Line;
use super::message::{self as m, Message, Pai};
use super::tiles::Tiles;
use super::values::{in_range, opt_seat_values, sub};
use crate::error::ReadError;
use crate::event::{Event, Tag};
use crate::length::{self, Length, ReadOptions};
use crate::state::{KanDora, TableState};
use crate::tags::{Agari, Init, Owari, Player, Reach, Ryuukyoku};

/// Tenhou round end tag kept typed until the game ends (`owari` goes on the last one).
pub(super) enum RoundEnd {
    Agari(Agari),
    Ryuukyoku(Ryuukyoku),
}

/// What the reader keeps of the round beside the table state.
pub(super) struct Round {
    pub first_line: u32,
    /// Seat and tile that can be robbed: the last added kan (chankan), or a north just extracted (3 players).
    pub robbable: Option<(usize, Tile)>,
    pub ura: Option<Vec<Tile>>,
    /// An open or added kan waits for its replacement draw (its dora is moved there).
    pub open_kan: [bool; 4],
    pub wins: u32,
    pub ended: bool,
}

impl Round {
    fn new(first_line: u32) -> Round {
        Round { first_line, robbable: None, ura: None, open_kan: [false; 4], wins: 0, ended: false }
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
    /// The one state, advanced by every event written: hands, melds, rivers, riichi, scores, sticks, dora.
    pub table: TableState,
    tiles: Tiles,
    started: bool,
    pub round: Option<Round>,
    /// The last AGARI / RYUUKYOKU: event index and typed tag.
    last_end: Option<(usize, RoundEnd)>,
    /// Line indices of `dora` events already written after a replacement draw.
    moved_dora: Vec<usize>,
}

impl<'a> GameReader<'a> {
    pub fn new(lines: &'a [Line], opts: &ReadOptions) -> Result<GameReader<'a>, ReadError> {
        let facts = infer::game_facts(lines, opts)?;
        Ok(GameReader {
            lines,
            table: TableState::new(facts.n as u8, 0),
            tiles: Tiles::new(facts.red),
            facts,
            asked_length: opts.length,
            round_lines: Vec::new(),
            events: Vec::with_capacity(lines.len() + 8),
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

    /// Scores after the last event written.
    pub fn scores(&self) -> [i32; 4] {
        self.table.scores
    }

    /// Riichi sticks on the table after the last event written.
    pub fn kyotaku(&self) -> u8 {
        self.table.kyotaku
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

    /// Writes an event of play, once the table state has taken it.
    fn emit(&mut self, event: Event) -> Result<(), String> {
        self.table.apply(&event)?;
        self.events.push(event);
        Ok(())
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
        let (left, left_sticks) = (self.scores(), self.kyotaku());
        let scores = match (logged, self.started) {
            (Some(s), false) => s,
            (None, false) => std::array::from_fn(|s| if s < n { table::start_score(n as u8) } else { 0 }),
            (Some(s), true) if s != left || kyotaku != left_sticks => {
                return Err(format!(
                    "scores {:?} with {kyotaku} sticks differ from the {:?} with {left_sticks} sticks the last round \
                     left",
                    &s[..n],
                    &left[..n],
                ));
            }
            (_, true) => left,
        };
        if self.started && kyotaku != left_sticks {
            return Err(format!("{kyotaku} sticks on the table, the last round left {left_sticks}"));
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
        self.tiles = Tiles::new(self.facts.red);
        let mut dealt: [Vec<Tile>; 4] = Default::default();
        for (s, hand) in dealt.iter_mut().enumerate().take(n) {
            let tiles = k.tehais.get(s).ok_or_else(|| format!("no hand for seat {s} in \"tehais\""))?;
            if tiles.len() != 13 {
                return Err(format!("seat {s} is dealt {} tiles", tiles.len()));
            }
            *hand = self.tiles.deal(tiles)?;
        }
        let init = Init {
            kyoku: bakaze * 4 + kyoku - 1,
            honba,
            kyotaku,
            dice: [0, 0],
            dora_indicator: self.tiles.fresh(marker)?,
            scores,
            dealer: dealer as u8,
            hands: dealt,
        };
        self.emit(Event::init(init))?;
        self.started = true;
        self.round = Some(Round::new(no));
        Ok(())
    }

    fn tsumo(&mut self, i: usize, m: &m::Tsumo) -> Result<(), String> {
        let seat = self.seat(m.actor, "actor")?;
        self.round_mut()?;
        let draw = self.tiles.draw(&self.table, seat as u8, m.pai)?;
        let r = self.round_mut()?;
        r.robbable = None;
        let kan_dora = std::mem::take(&mut r.open_kan[seat]);
        self.emit(draw)?;
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
        self.round_mut()?;
        let dora = self.tiles.dora(marker)?;
        self.emit(dora)
    }

    fn dahai(&mut self, m: &m::Dahai) -> Result<(), String> {
        self.seat(m.actor, "actor")?;
        self.round_mut()?.robbable = None;
        let discard = self.tiles.discard(&self.table, m)?;
        self.emit(discard)
    }

    fn call(&mut self, kind: MeldKind, c: &m::Call) -> Result<(), String> {
        let seat = self.seat(c.actor, "actor")?;
        self.seat(c.target, "target")?;
        self.round_mut()?;
        let meld = self.tiles.call(&self.table, kind, c)?;
        self.called(seat, meld, None)
    }

    /// `seat` makes `meld`; `robbable`: the tile another seat may now win on (an added kan, a north). A kan
    /// that turns its indicator after the replacement draw ([`KanDora`]) owes it.
    fn called(&mut self, seat: usize, meld: Meld, robbable: Option<Tile>) -> Result<(), String> {
        if let Some(r) = self.round.as_mut() {
            r.robbable = robbable.map(|t| (seat, t));
            r.open_kan[seat] |= KanDora::of(meld.kind) == Some(KanDora::BeforeDiscard);
        }
        self.emit(Event::call(seat as u8, meld))
    }

    fn ankan(&mut self, a: &m::Ankan) -> Result<(), String> {
        let seat = self.seat(a.actor, "actor")?;
        self.round_mut()?;
        let kan = self.tiles.ankan(&self.table, a)?;
        self.called(seat, kan, None)
    }

    fn kakan(&mut self, k: &m::Kakan) -> Result<(), String> {
        let seat = self.seat(k.actor, "actor")?;
        self.round_mut()?;
        let kan = self.tiles.kakan(&self.table, k)?;
        self.called(seat, kan, kan.added)
    }

    fn nukidora(&mut self, nd: &m::Nukidora) -> Result<(), String> {
        let seat = self.seat(nd.actor, "actor")?;
        self.round_mut()?;
        let nuki = self.tiles.nukidora(&self.table, nd)?;
        self.called(seat, nuki, nuki.tiles().first().copied())
    }

    fn reach(&mut self, m: &m::Reach) -> Result<(), String> {
        let who = self.seat(m.actor, "actor")?;
        self.round_mut()?;
        if self.table.seats[who].riichi.is_declared() {
            return Err(format!("seat {who} is already in riichi"));
        }
        self.emit(Event::reach(Reach { who: who as u8, step: 1, scores: None }))
    }

    fn reach_accepted(&mut self, m: &m::ReachAccepted) -> Result<(), String> {
        let n = self.n();
        let who = self.seat(m.actor, "actor")?;
        let logged = opt_seat_values(m.scores.as_deref(), "scores", n)?;
        self.round_mut()?;
        if !self.table.seats[who].riichi.is_declared() {
            return Err(format!("seat {who} did not declare riichi"));
        }
        let mut after = self.scores();
        after[who] -= 1000;
        if let Some(s) = logged {
            if s != after {
                return Err(format!("scores {:?} differ from the {:?} after the stick", &s[..n], &after[..n]));
            }
        }
        self.emit(Event::reach(Reach { who: who as u8, step: 2, scores: Some(after) }))
    }

    /// The tile a win takes: the seat's draw for a tsumo, else the discard, added kan or north just offered.
    fn winning_tile(&self, who: usize, from: usize, pai: Option<MjaiTile>) -> Result<Tile, String> {
        let r = self.round.as_ref().ok_or("outside a round")?;
        let s = &self.table.seats[who];
        let win = if who == from {
            s.last_draw
                .filter(|&t| s.hand.contains(t))
                .ok_or_else(|| format!("tsumo by seat {who}, who has not just drawn"))?
        } else {
            let robbed = r.robbable.filter(|&(s, _)| s == from).map(|(_, t)| t);
            let discarded = self.table.last_discard.filter(|&(s, _)| usize::from(s) == from).map(|(_, t)| t);
            robbed.or(discarded).ok_or_else(|| format!("ron on seat {from}, who has not just discarded"))?
        };
        if let Some(p) = pai.filter(|&p| !self.tiles.same(win, p)) {
            return Err(format!("wins on {p}, but the winning tile is {win}"));
        }
        let size = s.size() + usize::from(who != from);
        if size != 14 {
            return Err(format!("seat {who} wins holding {size} tiles with the winning one"));
        }
        Ok(win)
    }

    fn hora(&mut self, i: usize, h: &m::Hora) -> Result<(), String> {
        let n = self.n();
        let who = self.seat(h.actor, "actor")?;
        let from = self.seat(h.target, "target")?;
        // a double ron: the round has ended with a win on this discard
        if !self.round.as_ref().is_some_and(|r| !r.ended || r.wins > 0) {
            return Err("outside a round, or after it ended".into());
        }
        let win = self.winning_tile(who, from, h.pai)?;
        let t = &self.table;
        let s = &t.seats[who];
        let mut hand: Vec<Tile> = s.hand.tiles().iter().collect();
        if who != from {
            hand.push(win);
            hand.sort_unstable();
        }
        let riichi = s.riichi.is_declared();
        let Some(r) = self.round.as_mut() else { return Err("outside a round".into()) };
        if riichi && r.ura.is_none() {
            if let Some(markers) = h.uradora_markers.as_ref().filter(|m| !m.is_empty()) {
                let mut ura = Vec::with_capacity(markers.len());
                for &m in markers {
                    ura.push(self.tiles.fresh(m)?);
                }
                r.ura = Some(ura);
            }
        }
        let ura = if riichi { r.ura.clone().unwrap_or_default() } else { Vec::new() };
        let first = r.wins == 0;
        r.wins += 1;
        r.ended = true;
        let (honba, dealer) = (t.honba, usize::from(t.dealer));
        // Tenhou lists the melds newest first
        let melds: Vec<u32> = s.melds.iter().rev().map(Meld::encode).collect();
        let dora = t.dora.to_vec();
        let ctx = WinContext {
            seat_wind: ((who + n - dealer) % n) as u8,
            round_wind: t.kyoku / 4,
            riichi,
            closed: s.closed(),
            tiles: hand.iter().copied().chain(s.melds.iter().flat_map(|m| m.tiles().to_vec())).collect(),
            dora: dora.clone(),
            ura: ura.clone(),
            red: self.facts.red,
            players: n as u8,
        };
        let sticks = if first { self.kyotaku() } else { 0 };
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
            before: self.scores(),
            delta,
            owari: None,
        };
        self.emit(Event::agari(agari.clone()))?;
        self.last_end = Some((self.events.len() - 1, RoundEnd::Agari(agari)));
        Ok(())
    }

    fn ryukyoku(&mut self, i: usize, d: &m::Ryukyoku) -> Result<(), String> {
        let n = self.n();
        self.round_mut()?;
        let left = i32::from(self.table.draws_left);
        let kind = infer::draw_kind(d.reason.as_deref(), &self.table, left)?;
        let deltas = self.deltas(i, d.deltas.as_deref(), d.scores.as_deref(), 0)?;
        let shown = infer::shown_hands(kind, d, deltas, &self.table, n)?;
        self.round_mut()?.ended = true;
        let end = Ryuukyoku {
            kind,
            honba: self.table.honba,
            kyotaku: self.kyotaku(),
            shown,
            before: self.scores(),
            delta: deltas,
            owari: None,
        };
        self.emit(Event::ryuukyoku(end.clone()))?;
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
        let scores = self.scores();
        if let Some(s) = opt_seat_values(e.scores.as_deref(), "scores", n)? {
            if s != scores && s != owari.scores {
                return Err(format!("scores {:?} differ from the {:?} the rounds add up to", &s[..n], &scores[..n]));
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

    /// The game's `owari` after the last round.
    fn owari(&self) -> Owari {
        infer::owari(self.scores(), self.kyotaku(), self.n(), self.facts.first_dealer)
    }

    /// The score changes of a round end (line `i`): logged, or from the scores after it, or from the next line
    /// that gives scores. `sticks` = the sticks the event takes off the table.
    fn deltas(&self, i: usize, deltas: Option<&[i32]>, scores: Option<&[i32]>, sticks: u8) -> Result<[i32; 4], String> {
        let n = self.n();
        let now = self.scores();
        let expect = 1000 * i32::from(sticks);
        let after = opt_seat_values(scores, "scores", n)?;
        let deltas = if let Some(d) = opt_seat_values(deltas, "deltas", n)? {
            if let Some(a) = after.filter(|&a| sub(a, d) != now) {
                return Err(format!(
                    "\"scores\" {:?} differ from the tracked {:?} plus \"deltas\" {:?}",
                    &a[..n],
                    &now[..n],
                    &d[..n]
                ));
            }
            d
        } else if let Some(a) = after {
            sub(a, now)
        } else {
            self.deltas_from_later_scores(i, sticks)?
        };
        let sum: i32 = deltas.iter().sum();
        if sum != expect {
            return Err(format!("score changes {:?} add to {sum}, expected {expect} for the sticks", &deltas[..n]));
        }
        Ok(deltas)
    }

    /// Score changes read off the next `start_kyoku` or `end_game` (akochan's samples give only those).
    fn deltas_from_later_scores(&self, i: usize, sticks: u8) -> Result<[i32; 4], String> {
        let n = self.n();
        let expect = 1000 * i32::from(sticks);
        let (no, next, end_game) = self.later_scores(i)?;
        let mut d = sub(next, self.scores());
        let sum: i32 = d.iter().sum();
        // an end_game that already gave the sticks left on the table to the first place
        if end_game && sum == expect + 1000 * i32::from(self.kyotaku() - sticks) && sum != expect {
            let top = infer::ranking(next, n, self.facts.first_dealer)[0];
            d[top] -= sum - expect;
        }
        if d.iter().sum::<i32>() != expect {
            return Err(format!(
                "gives no deltas or scores, and the scores on line {no} {:?} are not the tracked {:?} changed by \
                 {expect} for the sticks",
                &next[..n],
                &self.scores()[..n]
            ));
        }
        Ok(d)
    }

    /// Scores given by the next `start_kyoku` or `end_game`: line number, scores, whether it is `end_game`.
    fn later_scores(&self, i: usize) -> Result<(u32, [i32; 4], bool), String> {
        for l in &self.lines[i + 1..] {
            let (scores, end_game) = match &l.msg {
                Message::Hora(_) => {
                    return Err(format!("gives no deltas or scores, and a second win follows (line {})", l.no))
                }
                Message::StartKyoku(k) => (&k.scores, false),
                Message::EndGame(e) => (&e.scores, true),
                Message::StartGame(_) => break,
                _ => continue,
            };
            return match opt_seat_values(scores.as_deref(), "scores", self.n())? {
                Some(s) => Ok((l.no, s, end_game)),
                None => Err(format!("gives no deltas or scores, nor does line {}", l.no)),
            };
        }
        Err("gives no deltas or scores, and no later line does".into())
    }
}
