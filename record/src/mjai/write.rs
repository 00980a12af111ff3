//! Writer of mjai JSON lines: a game record (the mjlog tags of [`crate::event`]) as the events a bot log holds,
//! so that [`crate::mjai::parse`] reads the same game back.
//!
//! # What is written
//! - `start_game` with the `names` (from `UN`), `aka_flag` (GO bit 0x02 clear) and `kyoku_first` (0 hanchan,
//!   4 east-only, as akochan writes it), the last two only when the record has a `GO` tag.
//! - Per round: `start_kyoku` (`bakaze`, `dora_marker`, `kyoku` 1..4, `honba`, `kyotaku`, `oya`, `scores`,
//!   `tehais`), then `tsumo`, `dahai` (with `tsumogiri`: the discard is the tile just drawn), `chi` / `pon` /
//!   `daiminkan` (`actor`, `target`, `pai` the called tile, `consumed` the tiles from the hand), `kakan` (`pai`
//!   the added tile, `consumed` the pon's three), `ankan` (`consumed` the four), `nukidora` (3 players), `dora`,
//!   `reach` / `reach_accepted` (with `deltas` and `scores`), `hora`, `ryukyoku`, `end_kyoku`; `end_game` with
//!   the final scores of `owari`, only when the game reached it (a truncated game stops where its record stops).
//! - Kan dora in mjai's order: a closed kan's `dora` comes right after the `ankan` (as in Tenhou); an open or
//!   added kan's comes after the discard that follows the replacement draw (Tenhou writes it before that
//!   discard), or before the seat's next call when it calls first (another kan, a north).
//! - `hora` carries Tenhou's facts as mjai's TenhouArchive names them: `pai`, `uradora_markers` (riichi winners;
//!   empty otherwise), `hora_tehais` (concealed tiles; the winning tile last for a tsumo, absent for a ron),
//!   `yakus` (`[name, han]`), `fu`, `fan`, `hora_points`, `deltas`, `scores` (after the win). Yaku names are
//!   TenhouArchive's (`menzenchin_tsumoho`, `reach`, `jikaze`, `bakaze`, `dora`, `uradora`, `akadora` ...),
//!   except the dragons, written `haku` / `hatsu` / `chun` instead of the ambiguous `sangenpai`; yakuman are
//!   written with 13 han, the double ones Tenhou lists by id (41 suuankou tanki, 46 junsei chuuren, 48 kokushi
//!   13-wait) with 26 under their base name, as TenhouArchive does. Dora, red and ura with 0 han are written too.
//! - `ryukyoku` with `reason` (TenhouArchive's names: `fanpai` exhaustive, `kyushukyuhai`, `suuchareach`,
//!   `sanchaho`, `suukaikan`, `suufonrenta`, `nagashimangan`), `actor` for nine terminals, `tehais` (shown
//!   hands; `"?"` for each tile of a hand not shown, as mjai-manue writes), `tenpais` (exhaustive draws and
//!   nagashi mangan), `deltas`, `scores`.
//! - 3-player games write three names, scores, deltas and hands; seats keep Tenhou's numbering 0..2.
//!
//! # What is lost (mjai has no place for it)
//! - Tile ids: mjai names kinds and red fives only. Which copy of a tile was dealt, drawn or discarded is gone;
//!   the reader gives ids again in order of appearance, so a game read back has other ids but the same kinds,
//!   the same red fives and the same tsumogiri flags.
//! - `GO` bits other than red, length and 3 players (table level, vs humans, fast, no kuitan, lobby); `UN`
//!   dan, rate and sex; dice; `SHUFFLE`; `BYE` and reconnections; unknown tags; the log id.
//! - `AGARI paoWho` (the payments stay in `deltas`, so a read-back game has the same scores but no pao seat),
//!   `limit` (the reader derives it from the points), `machi` beyond its kind, the order of `yaku`.
//! - `owari` game points: mjai has no field for them (the final scores are written); the reader recomputes
//!   them with the modern rule, so logs of other eras (2009's uma, 2022's decimals) read back with other points.
//! - Starting scores of custom lobbies are written as they are, but the reader refuses totals other than
//!   100000 (3 players 105000).
//! - Which wind a `jikaze` / `bakaze` yaku names: the reader takes the seat's and the round's wind.

use crate::state::KanDora;
use std::fmt;

use haifu_rules::yaku;
use haifu_rules::{Kind, Meld, MeldKind, MjaiTile, Tile, TileSet};

use super::message::{self as m, Message, Pai};
use crate::event::{Event, GameRecord};
use crate::tags::{Agari, DrawKind, GameType, Init, Owari, Reach, Ryuukyoku};

/// A record that cannot be written as mjai: names the event (index in [`GameRecord::events`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteError {
    pub event: usize,
    pub message: String,
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "event {}: {}", self.event, self.message)
    }
}

impl std::error::Error for WriteError {}

/// The game as mjai JSON lines, one event per line, each ending with `\n` (see the module notes).
///
/// # Errors
/// A record that does not hold together: a game event outside a round, a seat that does not play, a discard or
/// a meld tile the seat does not hold, a meld code that does not decode or names a seat that does not play, an
/// `INIT`, `REACH`, `AGARI` or `RYUUKYOKU` whose attributes do not parse, a record without any round. The error
/// names the event (its index in `record.events`; the number of events when the whole record is at fault).
pub fn to_mjai(record: &GameRecord) -> Result<String, WriteError> {
    let mut w = Writer::new();
    for (i, e) in record.events.iter().enumerate() {
        w.step(e).map_err(|message| WriteError { event: i, message: format!("{}: {message}", e.kind_name()) })?;
    }
    let end = record.events.len();
    w.finish().map_err(|message| WriteError { event: end, message })?;
    let mut out = String::with_capacity(w.lines.len() * 48);
    for l in &w.lines {
        // serializing these plain messages cannot fail
        out.push_str(&serde_json::to_string(l).map_err(|e| WriteError { event: end, message: e.to_string() })?);
        out.push('\n');
    }
    Ok(out)
}

/// The writer event by event, for a game still being played (`haifu mjai-server` sends each line as the
/// engine writes its event). Holds back what mjai writes later than Tenhou (an open kan's dora, until the
/// discard), so the lines taken after each step are in the order [`to_mjai`] writes them.
pub struct MjaiWriter {
    w: Writer,
}

impl Default for MjaiWriter {
    fn default() -> MjaiWriter {
        MjaiWriter::new()
    }
}

impl MjaiWriter {
    pub fn new() -> MjaiWriter {
        MjaiWriter { w: Writer::new() }
    }

    /// Writes one event of the record (the errors of [`to_mjai`], without the event's index).
    pub fn step(&mut self, e: &Event) -> Result<(), String> {
        self.w.step(e).map_err(|message| format!("{}: {message}", e.kind_name()))
    }

    /// The lines written since the last call.
    pub fn take(&mut self) -> Vec<Message> {
        std::mem::take(&mut self.w.lines)
    }

    /// Ends the game: what was held back, `end_kyoku` of the last round and `end_game` when the record
    /// reached `owari` (take them with [`MjaiWriter::take`]).
    pub fn finish(&mut self) -> Result<(), String> {
        self.w.finish()
    }
}

/// The round being written.
struct Round {
    hands: [TileSet; 4],
    last_draw: [Option<Tile>; 4],
    /// A seat whose open or added kan owes its dora: `true` once its replacement tile is drawn.
    open_kan: Option<(u8, bool)>,
    /// The dora of an open or added kan, held until the seat's discard (mjai's order).
    held_dora: Option<Message>,
    /// A win or draw was written: `end_kyoku` is due.
    ended: bool,
}

struct Writer {
    lines: Vec<Message>,
    go: Option<GameType>,
    /// Players: from `GO` (3 with bit 0x10), else from the first `INIT` (3 when `hai3` is empty).
    n: Option<usize>,
    names: Option<Vec<String>>,
    started: bool,
    scores: [i32; 4],
    round: Option<Round>,
    owari: Option<Owari>,
}

impl Writer {
    fn new() -> Writer {
        Writer {
            lines: Vec::new(),
            go: None,
            n: None,
            names: None,
            started: false,
            scores: [0; 4],
            round: None,
            owari: None,
        }
    }

    /// Red fives are played unless `GO` says otherwise (Tenhou's default).
    fn red(&self) -> bool {
        self.go.is_none_or(GameType::red)
    }

    fn n(&self) -> usize {
        self.n.unwrap_or(4)
    }

    fn name(&self, t: Tile) -> MjaiTile {
        MjaiTile { kind: t.kind(), red: self.red() && t.is_red_id() }
    }

    fn names(&self, tiles: impl IntoIterator<Item = Tile>) -> Vec<MjaiTile> {
        tiles.into_iter().map(|t| self.name(t)).collect()
    }

    fn shown(&self, tiles: impl IntoIterator<Item = Tile>) -> Vec<Pai> {
        tiles.into_iter().map(|t| Pai::Tile(self.name(t))).collect()
    }

    fn seat_values(&self, v: [i32; 4]) -> Vec<i32> {
        v[..self.n()].to_vec()
    }

    fn round(&mut self) -> Result<&mut Round, String> {
        match self.round.as_mut() {
            Some(r) if !r.ended => Ok(r),
            Some(_) => Err("after the round ended".into()),
            None => Err("outside a round (before the first INIT)".into()),
        }
    }

    fn check_seat(&self, seat: u8) -> Result<usize, String> {
        let s = usize::from(seat);
        if s >= self.n() {
            return Err(format!("seat {seat} does not play in a {}-player game", self.n()));
        }
        Ok(s)
    }

    /// Writes the held dora of an open kan (before a call, a draw, or the end of the round).
    fn flush_dora(&mut self) {
        if let Some(r) = self.round.as_mut() {
            r.open_kan = None;
            if let Some(d) = r.held_dora.take() {
                self.lines.push(d);
            }
        }
    }

    fn step(&mut self, e: &Event) -> Result<(), String> {
        match e {
            Event::Draw { seat, tile } => self.draw(*seat, *tile),
            Event::Discard { seat, tile } => self.discard(*seat, *tile),
            Event::Call { seat, meld, .. } => self.call(*seat, *meld),
            Event::Dora { tile } => {
                let line = Message::Dora(m::Dora { dora_marker: self.name(*tile) });
                let r = self.round()?;
                match r.open_kan {
                    // an open or added kan's indicator, turned after its replacement draw: after the discard
                    Some((_, true)) if r.held_dora.is_none() => {
                        r.open_kan = None;
                        r.held_dora = Some(line);
                    }
                    _ => {
                        r.open_kan = None;
                        self.lines.push(line);
                    }
                }
                Ok(())
            }
            Event::Go(go) => {
                if let Some(gt) = go.game_type.filter(|_| !self.started) {
                    self.go = Some(gt);
                    self.n = Some(if gt.three_player() { 3 } else { 4 });
                }
                Ok(())
            }
            Event::Players(un) => {
                // the first UN names the table; a later one with a single name is a reconnection
                if self.names.is_none() && un.0[0].is_some() {
                    self.names =
                        Some(un.0.iter().map(|p| p.as_ref().map(|p| p.name.clone()).unwrap_or_default()).collect());
                }
                Ok(())
            }
            Event::Init(init) => self.init(init),
            Event::Reach(r) => self.reach(r),
            Event::Agari(a) => self.agari(a),
            Event::Ryuukyoku(d) => self.ryuukyoku(d),
            // the root, TAIKYOKU, SHUFFLE, BYE and unknown tags have no mjai event
            Event::Bye(_) | Event::Tag(_) => Ok(()),
        }
    }

    fn start_game(&mut self) {
        let n = self.n();
        let mut names = self.names.clone().unwrap_or_default();
        names.resize(4, String::new());
        names.truncate(n);
        let aka_flag = self.go.map(GameType::red);
        let kyoku_first = self.go.map(|g| if g.hanchan() { 0 } else { 4 });
        self.lines.push(Message::StartGame(m::StartGame {
            names: Some(names),
            aka_flag,
            kyoku_first,
            ..m::StartGame::default()
        }));
        self.started = true;
    }

    fn end_round(&mut self) {
        if self.round.as_ref().is_some_and(|r| r.ended) {
            self.lines.push(Message::EndKyoku(m::EndKyoku {}));
            self.round = None;
        }
    }

    fn init(&mut self, init: &Init) -> Result<(), String> {
        if self.round.as_ref().is_some_and(|r| !r.ended) {
            return Err("INIT while the previous round has not ended".into());
        }
        self.end_round();
        if self.n.is_none() {
            self.n = Some(if init.hands[3].is_empty() { 3 } else { 4 });
        }
        if !self.started {
            self.start_game();
        }
        let n = self.n();
        if usize::from(init.dealer) >= n {
            return Err(format!("dealer {} out of range", init.dealer));
        }
        let mut hands = [TileSet::new(); 4];
        let mut tehais = Vec::with_capacity(n);
        for (s, set) in hands.iter_mut().enumerate().take(n) {
            if init.hands[s].len() != 13 {
                return Err(format!("hai{s} deals {} tiles", init.hands[s].len()));
            }
            for &t in &init.hands[s] {
                if !set.insert(t) {
                    return Err(format!("tile {} dealt twice", t.id()));
                }
            }
            tehais.push(self.shown(set.iter()));
        }
        self.scores = init.scores;
        self.lines.push(Message::StartKyoku(m::StartKyoku {
            bakaze: MjaiTile { kind: Kind::from_index(Kind::EAST.index() + init.kyoku / 4 % 4), red: false },
            dora_marker: Some(self.name(init.dora_indicator)),
            kyoku: init.kyoku % 4 + 1,
            honba: init.honba,
            kyotaku: init.kyotaku,
            oya: init.dealer,
            scores: Some(self.seat_values(init.scores)),
            tehais,
        }));
        self.round = Some(Round { hands, last_draw: [None; 4], open_kan: None, held_dora: None, ended: false });
        Ok(())
    }

    fn draw(&mut self, seat: u8, tile: Tile) -> Result<(), String> {
        let s = self.check_seat(seat)?;
        let pai = self.name(tile);
        let r = self.round()?;
        if r.held_dora.is_some() {
            self.flush_dora();
        }
        let r = self.round()?;
        if !r.hands[s].insert(tile) {
            return Err(format!("seat {seat} draws tile {} it already holds", tile.id()));
        }
        r.last_draw[s] = Some(tile);
        if let Some((k, drawn)) = r.open_kan.as_mut() {
            if *k == seat {
                *drawn = true;
            }
        }
        self.lines.push(Message::Tsumo(m::Tsumo { actor: seat, pai: Pai::Tile(pai) }));
        Ok(())
    }

    fn discard(&mut self, seat: u8, tile: Tile) -> Result<(), String> {
        let s = self.check_seat(seat)?;
        let pai = self.name(tile);
        let r = self.round()?;
        if !r.hands[s].remove(tile) {
            return Err(format!("seat {seat} discards tile {} ({pai}) it does not hold", tile.id()));
        }
        let tsumogiri = r.last_draw[s] == Some(tile);
        r.last_draw[s] = None;
        // the open kan's dora not turned before this discard is no longer owed to it
        r.open_kan = None;
        let held = r.held_dora.take();
        self.lines.push(Message::Dahai(m::Dahai { actor: seat, pai, tsumogiri: Some(tsumogiri) }));
        self.lines.extend(held);
        Ok(())
    }

    fn call(&mut self, seat: u8, meld: Meld) -> Result<(), String> {
        let s = self.check_seat(seat)?;
        let n = self.n();
        self.flush_dora();
        let from_hand: Vec<Tile> = meld.from_hand().collect();
        let consumed = self.names(from_hand.iter().copied());
        let r = self.round()?;
        for &t in &from_hand {
            if !r.hands[s].remove(t) {
                return Err(format!("{} needs tile {} ({t}) that seat {seat} does not hold", meld.kind.name(), t.id()));
            }
        }
        let line = match meld.kind {
            MeldKind::Chi | MeldKind::Pon | MeldKind::Daiminkan => {
                // `from` counts seats to the right in Tenhou's 4-slot numbering, in 3-player games too
                let target = (usize::from(seat) + usize::from(meld.from)) % 4;
                if meld.from == 0 {
                    return Err(format!("{} of the caller's own tile (code from = 0)", meld.kind.name()));
                }
                if target >= n {
                    return Err(format!("{} from seat {target}, who does not play", meld.kind.name()));
                }
                let called = meld.called.ok_or("call without a called tile")?;
                r.last_draw[s] = None;
                if KanDora::of(meld.kind) == Some(KanDora::BeforeDiscard) {
                    r.open_kan = Some((seat, false));
                }
                let call = m::Call { actor: seat, target: target as u8, pai: self.name(called), consumed };
                match meld.kind {
                    MeldKind::Chi => Message::Chi(call),
                    MeldKind::Pon => Message::Pon(call),
                    _ => Message::Daiminkan(call),
                }
            }
            MeldKind::Kakan => {
                // its indicator comes after the replacement draw ([`KanDora`])
                r.open_kan = Some((seat, false));
                let added = meld.added.ok_or("kakan without its added tile")?;
                let pon: Vec<Tile> = meld.tiles().iter().copied().filter(|&t| t != added).collect();
                Message::Kakan(m::Kakan { actor: seat, pai: self.name(added), consumed: self.names(pon) })
            }
            MeldKind::Ankan => {
                Message::Ankan(m::Ankan { actor: seat, consumed: self.names(meld.tiles().iter().copied()) })
            }
            MeldKind::Nuki => {
                if n != 3 {
                    return Err("north extraction in a 4-player game".into());
                }
                Message::Nukidora(m::Nukidora { actor: seat, pai: Some(self.name(meld.tiles()[0])) })
            }
        };
        self.lines.push(line);
        Ok(())
    }

    fn reach(&mut self, reach: &Reach) -> Result<(), String> {
        let s = self.check_seat(reach.who)?;
        self.round()?;
        match reach.step {
            1 => self.lines.push(Message::Reach(m::Reach { actor: reach.who })),
            2 => {
                self.scores[s] -= 1000;
                let mut deltas = [0; 4];
                deltas[s] = -1000;
                let (deltas, scores) = (Some(self.seat_values(deltas)), Some(self.seat_values(self.scores)));
                self.lines.push(Message::ReachAccepted(m::ReachAccepted { actor: reach.who, deltas, scores }));
            }
            other => return Err(format!("REACH step {other}")),
        }
        Ok(())
    }

    fn agari(&mut self, a: &Agari) -> Result<(), String> {
        self.check_seat(a.who)?;
        self.check_seat(a.from_who)?;
        self.flush_dora();
        // a double ron: the round has ended with the first win
        match self.round.as_mut() {
            Some(r) => r.ended = true,
            None => return Err("outside a round".into()),
        }
        let mut concealed: Vec<Tile> = a.hand.clone();
        concealed.sort_unstable();
        if let Some(p) = concealed.iter().position(|&t| t == a.machi) {
            concealed.remove(p);
        } else {
            return Err(format!("the winning tile {} is not in AGARI hai", a.machi.id()));
        }
        let mut hora_tehais = self.names(concealed);
        if a.is_tsumo() {
            hora_tehais.push(self.name(a.machi));
        }
        let yakus: Vec<(String, u32)> = if a.yakuman.is_empty() {
            a.yaku.iter().map(|y| yaku_entry(y.id, y.han)).collect::<Result<_, _>>()?
        } else {
            a.yakuman
                .iter()
                .map(|&id| yaku_entry(id, if matches!(id, 41 | 46 | 48) { 26 } else { 13 }))
                .collect::<Result<_, _>>()?
        };
        for (s, d) in self.scores.iter_mut().zip(a.delta) {
            *s += d;
        }
        let line = Message::Hora(m::Hora {
            actor: a.who,
            target: a.from_who,
            pai: Some(self.name(a.machi)),
            uradora_markers: Some(self.names(a.ura_indicators.iter().copied())),
            hora_tehais: Some(hora_tehais),
            yakus: Some(yakus),
            fu: Some(a.fu),
            fan: Some(a.han()),
            hora_points: Some(a.points),
            deltas: Some(self.seat_values(a.delta)),
            scores: Some(self.seat_values(self.scores)),
            meta: None,
        });
        self.lines.push(line);
        if a.owari.is_some() {
            self.owari.clone_from(&a.owari);
        }
        Ok(())
    }

    fn ryuukyoku(&mut self, d: &Ryuukyoku) -> Result<(), String> {
        self.flush_dora();
        let n = self.n();
        let hands = self.round()?.hands;
        let mut tehais = Vec::with_capacity(n);
        for (s, hand) in hands.iter().enumerate().take(n) {
            tehais.push(match &d.shown[s] {
                Some(h) => self.shown(h.iter().copied()),
                None => vec![Pai::Hidden; hand.len()],
            });
        }
        let reason = match d.kind {
            DrawKind::Exhaustive => "fanpai",
            DrawKind::Yao9 => "kyushukyuhai",
            DrawKind::Reach4 => "suuchareach",
            DrawKind::Ron3 => "sanchaho",
            DrawKind::Kan4 => "suukaikan",
            DrawKind::Kaze4 => "suufonrenta",
            DrawKind::Nagashi => "nagashimangan",
        };
        let actor = match d.kind {
            DrawKind::Yao9 => d.shown.iter().position(Option::is_some).map(|s| s as u8),
            _ => None,
        };
        let tenpais = matches!(d.kind, DrawKind::Exhaustive | DrawKind::Nagashi)
            .then(|| (0..n).map(|s| d.shown[s].is_some()).collect());
        for (s, x) in self.scores.iter_mut().zip(d.delta) {
            *s += x;
        }
        self.lines.push(Message::Ryukyoku(m::Ryukyoku {
            reason: Some(reason.to_string()),
            actor,
            tehais: Some(tehais),
            tenpais,
            deltas: Some(self.seat_values(d.delta)),
            scores: Some(self.seat_values(self.scores)),
        }));
        if let Some(r) = self.round.as_mut() {
            r.ended = true;
        }
        if d.owari.is_some() {
            self.owari.clone_from(&d.owari);
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<(), String> {
        if !self.started {
            return Err("no round in the record (no INIT)".into());
        }
        self.flush_dora();
        self.end_round();
        if let Some(o) = self.owari.take() {
            let scores = Some(self.seat_values(o.scores));
            self.lines.push(Message::EndGame(m::EndGame { scores }));
        }
        Ok(())
    }
}

/// mjai's name of a Tenhou yaku id (TenhouArchive spelling; the dragons by name) with its han.
fn yaku_entry(id: u8, han: u8) -> Result<(String, u32), String> {
    let name = yaku::YAKU.get(usize::from(id)).ok_or_else(|| format!("yaku id {id} unknown"))?.mjai;
    Ok((name.to_string(), u32::from(han)))
}
