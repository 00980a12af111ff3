//! The Tenhou-rule state machine: one game, round after round, written as the mjlog events Tenhou writes.
//!
//! A round alternates two phases. In a *turn* one seat holds 3n+2 tiles and discards, declares riichi, wins
//! by tsumo, makes a closed or added kan, extracts a north (3-player) or aborts with nine terminals. After a
//! discard (or an added kan, closed kan, north) the other seats that may do something *respond*: every one
//! answers, then the answers are resolved by priority (ron before pon and kan before chi; two rons are a
//! double ron, three an abortive draw in 4-player games). Seats with nothing to do are not asked, so a
//! round of discards nobody can take runs without a response phase.
//!
//! Tenhou rules the corpus confirmed (every full mjlog game replays with the engine writing the same events,
//! `sim/tests/corpus_replay.rs`):
//! - riichi needs a closed hand, 1000 points, a tenpai discard and at least as many live tiles left as there
//!   are players (4, or 3 in 3-player games) after the seat's draw;
//! - kan dora: a closed kan's indicator before the replacement draw; an open or added kan's after the
//!   replacement draw, before the seat's discard; none when the kan is robbed or the replacement tile wins;
//!   an indicator an open kan still owes when the seat declares another kan is turned only once nobody robs
//!   that kan;
//! - four kans by more than one seat: the round is drawn (kan4) when the discard after the fourth kan passes;
//! - 3-player north extraction: any waiting hand may ron the north (no chankan yaku); once nobody does, it
//!   breaks ippatsu and the first-turn rules (double riichi, tenhou, nine terminals) like a call;
//! - tenpai at the exhaustive draw is [`agari::tenpai_at_draw`]: a wait on a fifth copy of a kind the concealed
//!   hand holds four times is noten; copies in the seat's own melds do not count (the hand is tenpai);
//! - temporary furiten follows a passed winning tile whether or not the seat had a yaku (the shape decides);
//! - AGARI `m` lists the melds newest first, north extractions included; a closed kan's code names copy 0
//!   of its kind (Tenhou sometimes names another copy);
//! - pao: the seat whose discard completed a third dragon or fourth wind set by pon or open kan pays all of a
//!   tsumo, and half of another seat's ron plus all the honba; dealing in itself, it pays a plain ron and
//!   Tenhou writes no `paoWho` ([`score::win_deltas`], [`score::pao_payer`]);
//! - AGARI `yaku` and `yakuman` are written in Tenhou's order ([`haifu_rules::yaku::TENHOU_ORDER`]).

use arrayvec::ArrayVec;
use haifu_record::event::{Event, GameRecord, Tag, ROOT};
use haifu_record::tags::{self, Agari, DrawKind, Init, Owari, Player, Reach, Ryuukyoku, Yaku};
use haifu_record::Format;
use haifu_rules::agari;
use haifu_rules::score::{self, RiichiKind, Ruleset, Score, WinContext};
use haifu_rules::shanten::{shanten, shanten_each};
use haifu_rules::{Hand, Kind, Meld, MeldKind, Tile};

use crate::action::{Action, IllegalAction};
use crate::state::{bit, kuikae_of, waits_of, yaochuu_kinds, Riichi, RiverTile, Seat};
use crate::wall::{Deal, Wall};
use haifu_rules::table::{self, RoundOutcome, TableRules};

/// Where the tile that starts a turn came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A draw from the live wall.
    Draw,
    /// A replacement draw after a kan or a north extraction.
    Replacement,
    /// A chi or pon: the seat must discard.
    Call,
}

/// What the other seats are answering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    Discard,
    /// The tile added to a pon (chankan).
    Kakan,
    /// A closed kan (only thirteen orphans may rob it).
    Ankan,
    /// A north set aside (3-player Tenhou lets any waiting hand ron it).
    Nuki,
}

#[derive(Clone, Copy, Debug)]
struct Respond {
    from: u8,
    tile: Tile,
    offer: Offer,
    /// Seats that must answer, and those that have.
    waiting: u8,
    answered: u8,
    /// Seats offered a ron.
    ron: u8,
    answers: [Action; 4],
}

#[derive(Clone, Copy, Debug)]
enum Phase {
    Turn { seat: u8, source: Source, tsumo_ok: bool },
    Respond(Respond),
    Over,
}

/// When the indicator of the last kan is turned (SPEC 1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PendingDora {
    None,
    /// Closed kan: before the replacement draw.
    BeforeDraw,
    /// Open or added kan: after the replacement draw, before this seat's discard or next kan.
    BeforeDiscard(u8),
}

/// How a round ended, as the engine wrote it.
#[derive(Clone, Debug, PartialEq)]
pub enum RoundEnd {
    /// One win, or several (double ron) in the order written.
    Agari(Vec<Agari>),
    Ryuukyoku(Ryuukyoku),
}

#[derive(Clone, Debug)]
enum EndTag {
    Agari(Box<Agari>),
    Ryuukyoku(Box<Ryuukyoku>),
}

/// One game under Tenhou's rules. See the module documentation.
pub struct Engine<W: Wall> {
    rules: TableRules,
    ruleset: Ruleset,
    wall: W,
    scores: [i32; 4],
    kyoku: u8,
    honba: u8,
    kyotaku: u8,
    dealer: u8,
    seats: [Seat; 4],
    dora: ArrayVec<Tile, 5>,
    draws_left: u8,
    kans: u8,
    /// Seats that made the kans of the round (bit mask).
    kan_seats: u8,
    /// No call (chi, pon, kan) has been made this round: first-turn rules still apply.
    uninterrupted: bool,
    pending_dora: PendingDora,
    /// The seat whose riichi discard is out, stick unpaid.
    riichi_pending: Option<u8>,
    /// First discards made while uninterrupted, and their common wind (four winds: abortive draw).
    first_discards: u8,
    first_wind: Option<Kind>,
    /// A fourth kan by more than one seat: the round aborts when the next discard passes.
    kan4_armed: bool,
    phase: Phase,
    events: Vec<Event>,
    last_end: Option<(usize, EndTag)>,
    last_round: Option<RoundEnd>,
    rounds_started: usize,
    rounds_finished: usize,
    /// Scores and sticks before `owari` moved the leftover sticks.
    final_before: Option<([i32; 4], u8)>,
    scratch: Vec<Action>,
    tenpai_rule: TenpaiRuleCases,
}

/// Exhaustive draws where Tenhou's tenpai rule ([`agari::tenpai_at_draw`]) was put to the test. Counted so
/// that the corpus check can say how often.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct TenpaiRuleCases {
    /// Noten: every wait is a fifth copy of a kind the concealed hand holds four times.
    pub noten_with_hand_copies: usize,
    /// Tenpai although every copy of the waits is in the hand or the seat's own melds (nothing can come).
    pub tenpai_with_meld_copies: usize,
}

fn seat_bit(s: u8) -> u8 {
    1 << s
}

impl<W: Wall> Engine<W> {
    /// Starts a game (header tags, the first deal and the dealer's first draw) with seats named A B C D.
    pub fn new(rules: TableRules, wall: W) -> Result<Engine<W>, IllegalAction> {
        Engine::with_names(rules, wall, &["A", "B", "C", "D"])
    }

    /// As [`Engine::new`], with the names the `UN` tag gives the seats.
    pub fn with_names(rules: TableRules, wall: W, names: &[&str]) -> Result<Engine<W>, IllegalAction> {
        let np = rules.players;
        let mut scores = [0; 4];
        scores[..usize::from(np)].fill(rules.start_score());
        let players: Vec<Player> = (0..4u8)
            .map(|s| Player {
                name: if s < np { names.get(usize::from(s)).copied().unwrap_or("").to_string() } else { String::new() },
                dan: Some(0),
                rate: Some(1500.0),
                sex: Some(if s < np { "M" } else { "C" }.into()),
            })
            .collect();
        let events = vec![
            Event::tag(Tag::new(ROOT).with("ver", "2.3")),
            Event::tag(Tag::new("GO").with("type", rules.go_type.to_string()).with("lobby", "0")),
            Event::tag(tags::un_tag(&players)),
            Event::tag(Tag::new("TAIKYOKU").with("oya", "0")),
        ];
        let mut e = Engine {
            ruleset: rules.ruleset(),
            rules,
            wall,
            scores,
            kyoku: 0,
            honba: 0,
            kyotaku: 0,
            dealer: 0,
            seats: Default::default(),
            dora: ArrayVec::new(),
            draws_left: 0,
            kans: 0,
            kan_seats: 0,
            uninterrupted: true,
            pending_dora: PendingDora::None,
            riichi_pending: None,
            first_discards: 0,
            first_wind: None,
            kan4_armed: false,
            phase: Phase::Over,
            events,
            last_end: None,
            last_round: None,
            rounds_started: 0,
            rounds_finished: 0,
            final_before: None,
            scratch: Vec::with_capacity(32),
            tenpai_rule: TenpaiRuleCases::default(),
        };
        e.start_round()?;
        Ok(e)
    }

    // ---- reading the state ----

    pub fn rules(&self) -> &TableRules {
        &self.rules
    }
    pub fn wall(&self) -> &W {
        &self.wall
    }
    pub fn wall_mut(&mut self) -> &mut W {
        &mut self.wall
    }
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over)
    }
    pub fn scores(&self) -> [i32; 4] {
        self.scores
    }
    pub fn kyoku(&self) -> u8 {
        self.kyoku
    }
    pub fn honba(&self) -> u8 {
        self.honba
    }
    pub fn kyotaku(&self) -> u8 {
        self.kyotaku
    }
    pub fn dealer(&self) -> u8 {
        self.dealer
    }
    pub fn draws_left(&self) -> u8 {
        self.draws_left
    }
    pub fn dora_indicators(&self) -> &[Tile] {
        &self.dora
    }
    pub fn hand(&self, seat: u8) -> &Hand {
        &self.seats[usize::from(seat)].hand
    }
    pub fn melds(&self, seat: u8) -> &[Meld] {
        &self.seats[usize::from(seat)].melds
    }
    pub fn river(&self, seat: u8) -> &[RiverTile] {
        &self.seats[usize::from(seat)].river
    }
    /// The tile `seat` drew last this round (it may have been discarded since).
    pub fn last_draw_of(&self, seat: u8) -> Option<Tile> {
        self.seats[usize::from(seat)].last_draw
    }
    pub fn in_riichi(&self, seat: u8) -> bool {
        self.seats[usize::from(seat)].riichi.is_declared_or_accepted()
    }
    /// The events written so far.
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    /// The game as a record (format mjlog): `record().to_mjlog()` is Tenhou-like XML.
    pub fn record(&self) -> GameRecord {
        GameRecord {
            format: Format::Mjlog,
            index_in_file: 0,
            log_id: None,
            events: self.events.clone(),
            notes: Vec::new(),
        }
    }
    /// Takes the events out (the engine is spent).
    pub fn into_record(self) -> GameRecord {
        GameRecord { format: Format::Mjlog, index_in_file: 0, log_id: None, events: self.events, notes: Vec::new() }
    }
    /// How the last finished round ended.
    pub fn last_round(&self) -> Option<&RoundEnd> {
        self.last_round.as_ref()
    }
    pub fn rounds_started(&self) -> usize {
        self.rounds_started
    }
    pub fn rounds_finished(&self) -> usize {
        self.rounds_finished
    }
    /// Exhaustive draws so far where the tenpai rule's edge cases decided.
    pub fn tenpai_rule_cases(&self) -> TenpaiRuleCases {
        self.tenpai_rule
    }
    /// Scores and sticks left when the game ended, before `owari` gave the sticks to the first place.
    pub fn final_before_owari(&self) -> Option<([i32; 4], u8)> {
        self.final_before
    }
    /// The tile the responding seats are answering, with the seat it came from.
    pub fn offered(&self) -> Option<(u8, Tile, Offer)> {
        match self.phase {
            Phase::Respond(r) => Some((r.from, r.tile, r.offer)),
            _ => None,
        }
    }
    /// The seat whose turn it is (None while seats respond, or after the game).
    pub fn turn(&self) -> Option<(u8, Source)> {
        match self.phase {
            Phase::Turn { seat, source, .. } => Some((seat, source)),
            _ => None,
        }
    }

    /// Seats that must decide now (one in a turn, the seats still to answer a discard).
    pub fn to_act(&self) -> ArrayVec<u8, 4> {
        let mut out = ArrayVec::new();
        match self.phase {
            Phase::Turn { seat, .. } => out.push(seat),
            Phase::Respond(r) => {
                for s in 0..4u8 {
                    if r.waiting & !r.answered & seat_bit(s) != 0 {
                        out.push(s);
                    }
                }
            }
            Phase::Over => {}
        }
        out
    }

    /// The legal actions of a seat now (empty when it has nothing to decide).
    pub fn legal_actions(&self, seat: u8) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_actions_into(seat, &mut v);
        v
    }

    /// [`Engine::legal_actions`] into a reused buffer (cleared first).
    pub fn legal_actions_into(&self, seat: u8, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::Turn { seat: s, source, tsumo_ok } if s == seat => self.turn_actions(seat, source, tsumo_ok, out),
            Phase::Respond(r) if r.waiting & !r.answered & seat_bit(seat) != 0 => {
                self.respond_actions(seat, &r, out);
            }
            _ => {}
        }
    }

    fn turn_actions(&self, seat: u8, source: Source, tsumo_ok: bool, out: &mut Vec<Action>) {
        let s = &self.seats[usize::from(seat)];
        if tsumo_ok {
            out.push(Action::Tsumo);
        }
        let can_kan = source != Source::Call && self.draws_left > 0 && self.kans < 4;
        let three = self.rules.players == 3;
        if self.uninterrupted && s.discards == 0 && source == Source::Draw && yaochuu_kinds(s.hand.counts()) >= 9 {
            out.push(Action::KyuushuKyuuhai);
        }
        if s.riichi.is_accepted() {
            let Some(drawn) = s.last_draw else { return };
            out.push(Action::Discard { tile: drawn, riichi: false });
            let k = drawn.kind();
            if can_kan && s.hand.counts()[usize::from(k.index())] == 4 && self.riichi_ankan_keeps_waits(s, k) {
                out.push(Action::Ankan { kind: k });
            }
            if three && source != Source::Call && self.draws_left > 0 && k == Kind::NORTH {
                out.push(Action::Nuki { tile: drawn });
            }
            return;
        }
        for t in s.hand.tiles().iter() {
            if s.kuikae & bit(t.kind()) == 0 {
                out.push(Action::Discard { tile: t, riichi: false });
            }
        }
        let may_riichi = source != Source::Call
            && s.closed()
            && self.scores[usize::from(seat)] >= 1000
            && self.draws_left >= self.rules.players
            && s.riichi == Riichi::None;
        if may_riichi && shanten(s.hand.counts()) <= 0 {
            let held = s.held();
            // without a closed kan the exact shanten already says a wait exists (four copies at most in the
            // hand); with one, the kan's kind may be the only wait: ask for the waits
            let has_kan = s.melds.iter().any(|m| m.kind == MeldKind::Ankan);
            let mut counts = *s.hand.counts();
            let mut tenpai_after: u64 = 0;
            if has_kan {
                for k in 0..34usize {
                    if counts[k] == 0 {
                        continue;
                    }
                    counts[k] -= 1;
                    let mut h = held;
                    h[k] -= 1;
                    if waits_of(&counts, &h) != 0 {
                        tenpai_after |= 1 << k;
                    }
                    counts[k] += 1;
                }
            } else {
                let each = shanten_each(&counts, -1);
                for (k, &sh) in each.iter().enumerate() {
                    if sh == 0 {
                        tenpai_after |= 1 << k;
                    }
                }
            }
            for t in s.hand.tiles().iter() {
                if tenpai_after & bit(t.kind()) != 0 {
                    out.push(Action::Discard { tile: t, riichi: true });
                }
            }
        }
        if can_kan {
            for k in 0..34u8 {
                if s.hand.counts()[usize::from(k)] == 4 {
                    out.push(Action::Ankan { kind: Kind::from_index(k) });
                }
            }
            for m in s.melds.iter().filter(|m| m.kind == MeldKind::Pon) {
                for t in m.base_kind().ids() {
                    if s.hand.contains(t) {
                        out.push(Action::Kakan { tile: t });
                    }
                }
            }
        }
        if three && source != Source::Call && self.draws_left > 0 {
            for t in Kind::NORTH.ids() {
                if s.hand.contains(t) {
                    out.push(Action::Nuki { tile: t });
                }
            }
        }
    }

    /// A closed kan in riichi may not change the waits (Tenhou's rule).
    fn riichi_ankan_keeps_waits(&self, s: &Seat, k: Kind) -> bool {
        let mut before = *s.hand.counts();
        before[usize::from(k.index())] -= 1;
        let held = s.held();
        let mut after = before;
        after[usize::from(k.index())] = 0;
        waits_of(&before, &held) == waits_of(&after, &held)
    }

    fn respond_actions(&self, seat: u8, r: &Respond, out: &mut Vec<Action>) {
        if r.ron & seat_bit(seat) != 0 {
            out.push(Action::Ron);
        }
        if r.offer == Offer::Discard {
            self.call_options(seat, r.from, r.tile, out);
        }
        out.push(Action::Pass);
    }

    /// Chi, pon and daiminkan open to `seat` on the discard `tile` of `from`.
    fn call_options(&self, seat: u8, from: u8, tile: Tile, out: &mut Vec<Action>) {
        let s = &self.seats[usize::from(seat)];
        if s.riichi.is_declared_or_accepted() || self.draws_left == 0 {
            return;
        }
        let k = tile.kind();
        let ki = usize::from(k.index());
        let have = s.hand.counts()[ki];
        let ids: ArrayVec<Tile, 4> = k.ids().into_iter().filter(|&t| s.hand.contains(t)).collect();
        if have >= 2 {
            for i in 0..ids.len() {
                for j in i + 1..ids.len() {
                    let pair = [ids[i], ids[j]];
                    if self.call_leaves_discard(s, &pair, MeldKind::Pon, tile, from, seat) {
                        out.push(Action::Pon { tiles: pair });
                    }
                }
            }
        }
        if have == 3 && self.kans < 4 {
            out.push(Action::Daiminkan);
        }
        if self.rules.players == 4 && seat == (from + 1) % 4 && !k.is_honor() {
            let d = k.digit();
            for (a, b) in [(-2i8, -1i8), (-1, 1), (1, 2)] {
                let (da, db) = (d as i8 + a, d as i8 + b);
                if !(1..=9).contains(&da) || !(1..=9).contains(&db) {
                    continue;
                }
                let ka = Kind::from_index((ki as i8 + a) as u8);
                let kb = Kind::from_index((ki as i8 + b) as u8);
                for ta in ka.ids().into_iter().filter(|&t| s.hand.contains(t)) {
                    for tb in kb.ids().into_iter().filter(|&t| s.hand.contains(t)) {
                        let pair = [ta, tb];
                        if self.call_leaves_discard(s, &pair, MeldKind::Chi, tile, from, seat) {
                            out.push(Action::Chi { tiles: pair });
                        }
                    }
                }
            }
        }
    }

    /// A chi or pon is allowed only when the hand keeps a tile that kuikae lets it discard.
    fn call_leaves_discard(&self, s: &Seat, pair: &[Tile; 2], kind: MeldKind, tile: Tile, from: u8, seat: u8) -> bool {
        let Ok(meld) = Meld::call(kind, pair, tile, (from + 4 - seat) % 4) else { return false };
        let forbidden = kuikae_of(&meld);
        let mut counts = *s.hand.counts();
        for t in pair {
            counts[usize::from(t.kind().index())] -= 1;
        }
        (0..34).any(|k| counts[k] > 0 && forbidden & (1 << k) == 0)
    }

    /// The rule an action that is not legal now breaks, as a short name for reports (`haifu verify --json`):
    /// `not_your_turn`, `tile_not_in_hand`, `kuikae`, `riichi_not_tenpai`, `riichi_open_hand`,
    /// `riichi_without_1000`, `riichi_too_few_tiles`, `riichi_twice`, `riichi_discard_not_drawn`,
    /// `furiten_discard` / `_temporary` / `_riichi`, `no_yaku`, `not_complete`, `not_offered`,
    /// `call_not_allowed`, `not_allowed`.
    pub fn rule_broken(&self, seat: u8, action: &Action) -> &'static str {
        let s = &self.seats[usize::from(seat)];
        let block = |b: Option<WinBlock>| match b {
            Some(WinBlock::Furiten("discard")) => "furiten_discard",
            Some(WinBlock::Furiten("temporary")) => "furiten_temporary",
            Some(WinBlock::Furiten(_)) => "furiten_riichi",
            Some(WinBlock::NoYaku) => "no_yaku",
            Some(WinBlock::NotComplete) => "not_complete",
            Some(WinBlock::NotOffered) | None => "not_offered",
        };
        if self.legal_actions(seat).is_empty() {
            return "not_your_turn";
        }
        match *action {
            Action::Discard { tile, .. } if !s.hand.contains(tile) => "tile_not_in_hand",
            Action::Discard { tile, .. } if s.riichi.is_accepted() && s.last_draw != Some(tile) => {
                "riichi_discard_not_drawn"
            }
            Action::Discard { tile, .. } if s.kuikae & bit(tile.kind()) != 0 => "kuikae",
            Action::Discard { riichi: true, .. } => {
                if s.riichi != Riichi::None {
                    "riichi_twice"
                } else if !s.closed() {
                    "riichi_open_hand"
                } else if self.scores[usize::from(seat)] < 1000 {
                    "riichi_without_1000"
                } else if self.draws_left < self.rules.players {
                    "riichi_too_few_tiles"
                } else {
                    "riichi_not_tenpai"
                }
            }
            Action::Tsumo | Action::Ron => block(self.win_blocker(seat)),
            Action::Chi { .. }
            | Action::Pon { .. }
            | Action::Daiminkan
            | Action::Ankan { .. }
            | Action::Kakan { .. } => "call_not_allowed",
            _ => "not_allowed",
        }
    }

    /// Why `seat` may not win on the tile now in question (the tile it drew, or the one offered), `None`
    /// when it may: the oracle replay says which rule refused a logged win.
    pub fn win_blocker(&self, seat: u8) -> Option<WinBlock> {
        let s = &self.seats[usize::from(seat)];
        match self.phase {
            Phase::Turn { seat: t, source, tsumo_ok } if t == seat => {
                if tsumo_ok {
                    return None;
                }
                let tile = s.last_draw?;
                if source == Source::Call || s.waits & bit(tile.kind()) == 0 {
                    return Some(WinBlock::NotComplete);
                }
                Some(WinBlock::NoYaku)
            }
            Phase::Respond(r) if r.from != seat => {
                if r.ron & seat_bit(seat) != 0 {
                    return None;
                }
                self.ron_blocker(seat, r.from, r.tile, r.offer)
            }
            _ => Some(WinBlock::NotOffered),
        }
    }

    /// Why `seat` could not ron `tile` shown by `from` as `offer`, asked before the tile is shown (the
    /// seat's state does not change when another seat discards).
    pub fn ron_blocker(&self, seat: u8, from: u8, tile: Tile, offer: Offer) -> Option<WinBlock> {
        let s = &self.seats[usize::from(seat)];
        if seat == from || seat >= self.rules.players {
            return Some(WinBlock::NotOffered);
        }
        if s.waits & bit(tile.kind()) == 0 {
            return Some(WinBlock::NotComplete);
        }
        if s.riichi_furiten {
            return Some(WinBlock::Furiten("riichi"));
        }
        if s.temp_furiten {
            return Some(WinBlock::Furiten("temporary"));
        }
        if s.waits & s.discarded != 0 {
            return Some(WinBlock::Furiten("discard"));
        }
        match self.score_win(seat, from, tile, offer, false, Vec::new()) {
            None => Some(WinBlock::NoYaku),
            Some(sc) if offer == Offer::Ankan && !sc.yakuman.iter().any(|&y| y == 47 || y == 48) => {
                Some(WinBlock::NotOffered)
            }
            Some(_) => None,
        }
    }

    // ---- acting ----

    /// Applies one seat's decision. The engine moves on by itself (draws, rounds, the end of the game) until
    /// some seat must decide again.
    pub fn apply(&mut self, seat: u8, action: Action) -> Result<(), IllegalAction> {
        if self.is_over() {
            return Err(IllegalAction::GameOver);
        }
        let ok = match self.quick_legal(seat, action) {
            Some(ok) => ok,
            None => {
                let mut legal = std::mem::take(&mut self.scratch);
                self.legal_actions_into(seat, &mut legal);
                let ok = legal.contains(&action);
                self.scratch = legal;
                ok
            }
        };
        if !self.to_act().contains(&seat) {
            return Err(IllegalAction::NotToAct(seat));
        }
        if !ok {
            return Err(IllegalAction::NotLegal { seat, action: action.to_string() });
        }
        match self.phase {
            Phase::Turn { source, .. } => self.turn_action(seat, source, action),
            Phase::Respond(mut r) => {
                r.answers[usize::from(seat)] = action;
                r.answered |= seat_bit(seat);
                self.phase = Phase::Respond(r);
                if r.answered == r.waiting {
                    self.resolve(r)?;
                }
                Ok(())
            }
            Phase::Over => Err(IllegalAction::GameOver),
        }
    }

    fn turn_action(&mut self, seat: u8, source: Source, action: Action) -> Result<(), IllegalAction> {
        match action {
            Action::Discard { tile, riichi } => self.discard(seat, tile, riichi),
            Action::Tsumo => {
                let tile = self.seats[usize::from(seat)].last_draw.ok_or(IllegalAction::WallExhausted("no draw"))?;
                self.win(&[seat], seat, tile, WinKind::Tsumo { rinshan: source == Source::Replacement })
            }
            Action::Ankan { kind } => {
                let s = &mut self.seats[usize::from(seat)];
                for t in kind.ids() {
                    s.hand.remove(t);
                }
                let meld = Meld::ankan(kind);
                s.melds.push(meld);
                s.update_waits();
                self.events.push(Event::Call { seat, meld: meld.encode() });
                self.count_kan(seat);
                self.offer(seat, kind.ids()[0], Offer::Ankan)
            }
            Action::Kakan { tile } => {
                let s = &mut self.seats[usize::from(seat)];
                s.hand.remove(tile);
                let slot = s.melds.iter_mut().find(|m| m.kind == MeldKind::Pon && m.base_kind() == tile.kind());
                let slot = slot.ok_or(IllegalAction::NotLegal { seat, action: action.to_string() })?;
                let kakan =
                    slot.kakan_of(tile).map_err(|_| IllegalAction::NotLegal { seat, action: action.to_string() })?;
                *slot = kakan;
                s.update_waits();
                self.events.push(Event::Call { seat, meld: kakan.encode() });
                self.count_kan(seat);
                self.uninterrupted = false;
                self.offer(seat, tile, Offer::Kakan)
            }
            Action::Nuki { tile } => {
                let s = &mut self.seats[usize::from(seat)];
                s.hand.remove(tile);
                let meld = Meld::nuki(tile);
                s.melds.push(meld);
                s.update_waits();
                self.events.push(Event::Call { seat, meld: meld.encode() });
                self.offer(seat, tile, Offer::Nuki)
            }
            Action::KyuushuKyuuhai => self.abort(DrawKind::Yao9, &[seat]),
            _ => Err(IllegalAction::NotLegal { seat, action: action.to_string() }),
        }
    }

    /// Legality of the frequent actions without building the whole list (`None`: build it). Must agree with
    /// [`Engine::legal_actions`] (unit-tested against it).
    fn quick_legal(&self, seat: u8, action: Action) -> Option<bool> {
        let s = &self.seats[usize::from(seat)];
        match (self.phase, action) {
            (Phase::Turn { seat: t, .. }, Action::Discard { tile, riichi: false }) if t == seat => {
                Some(if s.riichi.is_accepted() {
                    s.last_draw == Some(tile)
                } else {
                    s.hand.contains(tile) && s.kuikae & bit(tile.kind()) == 0
                })
            }
            (Phase::Turn { seat: t, tsumo_ok, .. }, Action::Tsumo) if t == seat => Some(tsumo_ok),
            (Phase::Respond(r), Action::Pass) => Some(r.waiting & !r.answered & seat_bit(seat) != 0),
            (Phase::Respond(r), Action::Ron) => Some(r.ron & !r.answered & seat_bit(seat) != 0),
            _ => None,
        }
    }

    fn count_kan(&mut self, seat: u8) {
        self.kans += 1;
        self.kan_seats |= seat_bit(seat);
        if self.kans == 4 && self.kan_seats.count_ones() > 1 {
            self.kan4_armed = true;
        }
    }

    /// A call: first-turn rules end and every ippatsu is broken.
    fn interrupt(&mut self) {
        self.uninterrupted = false;
        for s in &mut self.seats {
            s.ippatsu = false;
        }
    }

    fn discard(&mut self, seat: u8, tile: Tile, riichi: bool) -> Result<(), IllegalAction> {
        self.flush_discard_dora(seat)?;
        if riichi {
            self.events.push(Event::tag(Reach { who: seat, step: 1, scores: None }.to_tag()));
        }
        let first = self.uninterrupted && self.seats[usize::from(seat)].discards == 0;
        let s = &mut self.seats[usize::from(seat)];
        s.hand.remove(tile);
        let tsumogiri = s.last_draw == Some(tile);
        s.river.push(RiverTile { tile, tsumogiri, riichi, called_away: false });
        s.discarded |= bit(tile.kind());
        s.nagashi &= tile.kind().is_yaochuu();
        s.temp_furiten = false;
        s.ippatsu = false;
        s.kuikae = 0;
        s.discards += 1;
        s.last_draw = None;
        if riichi {
            s.riichi = Riichi::Declared { double: first };
            self.riichi_pending = Some(seat);
        }
        if !s.riichi.is_accepted() {
            s.update_waits();
        }
        self.events.push(Event::Discard { seat, tile });
        if first && self.rules.players == 4 {
            let k = tile.kind();
            self.first_wind = match (self.first_discards, self.first_wind) {
                (0, _) if k.is_wind() => Some(k),
                (_, Some(w)) if w == k => Some(w),
                _ => None,
            };
            self.first_discards += 1;
        }
        self.offer(seat, tile, Offer::Discard)
    }

    /// Asks the other seats about a tile; resolves at once when nobody can do anything with it.
    fn offer(&mut self, from: u8, tile: Tile, offer: Offer) -> Result<(), IllegalAction> {
        let mut r = Respond { from, tile, offer, waiting: 0, answered: 0, ron: 0, answers: [Action::Pass; 4] };
        for s in 0..self.rules.players {
            if s == from {
                continue;
            }
            if self.can_ron(s, from, tile, offer) {
                r.ron |= seat_bit(s);
                r.waiting |= seat_bit(s);
                continue;
            }
            if offer == Offer::Discard && self.has_call(s, from, tile) {
                r.waiting |= seat_bit(s);
            }
        }
        if r.waiting == 0 {
            self.resolve(r)
        } else {
            self.phase = Phase::Respond(r);
            Ok(())
        }
    }

    /// Whether `seat` has any call on the discard; the full list is built only when a quick look says maybe.
    fn has_call(&self, seat: u8, from: u8, tile: Tile) -> bool {
        let s = &self.seats[usize::from(seat)];
        if s.riichi.is_declared_or_accepted() || self.draws_left == 0 {
            return false;
        }
        let k = tile.kind();
        let have = s.hand.counts()[usize::from(k.index())];
        let chi_seat = self.rules.players == 4 && seat == (from + 1) % 4 && !k.is_honor() && {
            let c = s.hand.counts();
            let ki = usize::from(k.index());
            let d = k.digit();
            (d >= 3 && c[ki - 2] > 0 && c[ki - 1] > 0)
                || ((2..=8).contains(&d) && c[ki - 1] > 0 && c[ki + 1] > 0)
                || (d <= 7 && c[ki + 1] > 0 && c[ki + 2] > 0)
        };
        if have < 2 && !chi_seat {
            return false;
        }
        let mut v = Vec::new();
        self.call_options(seat, from, tile, &mut v);
        !v.is_empty()
    }

    fn can_ron(&self, seat: u8, from: u8, tile: Tile, offer: Offer) -> bool {
        let s = &self.seats[usize::from(seat)];
        if s.waits & bit(tile.kind()) == 0 || s.furiten() {
            return false;
        }
        let Some(sc) = self.score_win(seat, from, tile, offer, false, Vec::new()) else { return false };
        offer != Offer::Ankan || sc.yakuman.iter().any(|&y| y == 47 || y == 48)
    }

    /// Scores a win of `seat` on `tile` (from `from`; from == seat for a tsumo, the tile already in hand).
    fn score_win(&self, seat: u8, from: u8, tile: Tile, offer: Offer, rinshan: bool, ura: Vec<Tile>) -> Option<Score> {
        let s = &self.seats[usize::from(seat)];
        let tsumo = seat == from;
        let mut concealed: ArrayVec<Tile, 14> = s.hand.tiles().iter().collect();
        if !tsumo {
            concealed.push(tile);
        }
        let np = self.rules.players;
        let ctx = WinContext {
            ruleset: self.ruleset,
            tsumo,
            seat_wind: Kind::from_index(27 + (seat + np - self.dealer) % np),
            round_wind: Kind::from_index(27 + self.kyoku / 4),
            riichi: match s.riichi {
                Riichi::Accepted { double: true } => RiichiKind::Double,
                Riichi::Accepted { double: false } => RiichiKind::Riichi,
                _ => RiichiKind::None,
            },
            ippatsu: s.ippatsu && s.riichi.is_accepted(),
            rinshan: tsumo && rinshan,
            chankan: !tsumo && offer == Offer::Kakan,
            last_tile: self.draws_left == 0 && (if tsumo { !rinshan } else { offer == Offer::Discard }),
            first_draw: tsumo && self.uninterrupted && s.discards == 0 && !rinshan,
            dora_indicators: self.dora.to_vec(),
            ura_indicators: ura,
        };
        score::score(&concealed, tile, &s.melds, &ctx)
    }

    fn resolve(&mut self, r: Respond) -> Result<(), IllegalAction> {
        let np = self.rules.players;
        let mut rons: ArrayVec<u8, 4> = ArrayVec::new();
        for i in 1..np {
            let s = (r.from + i) % np;
            if r.answers[usize::from(s)] == Action::Ron {
                rons.push(s);
            }
        }
        if !rons.is_empty() {
            if rons.len() == 3 && np == 4 {
                self.riichi_pending = None;
                return self.abort(DrawKind::Ron3, &rons);
            }
            let kind = WinKind::Ron(r.offer);
            return self.win(&rons, r.from, r.tile, kind);
        }
        if r.offer == Offer::Ankan {
            // only thirteen orphans may rob a closed kan: nobody else let a win go by
            for s in 0..np {
                if r.ron & seat_bit(s) != 0 {
                    self.seats[usize::from(s)].temp_furiten = true;
                }
            }
        } else {
            self.mark_passed(r.from, r.tile);
        }
        match r.offer {
            Offer::Discard => {
                let caller = (0..np)
                    .find(|&s| matches!(r.answers[usize::from(s)], Action::Pon { .. } | Action::Daiminkan))
                    .or_else(|| (0..np).find(|&s| matches!(r.answers[usize::from(s)], Action::Chi { .. })));
                if let Some(caller) = caller {
                    if self.settle_riichi()? {
                        return Ok(());
                    }
                    self.call(caller, r.from, r.tile, r.answers[usize::from(caller)])
                } else {
                    self.after_discard(r.from)
                }
            }
            // A kan or a north that nobody robbed: only now does it break ippatsu and the first-turn rules
            // (a ron on it keeps ippatsu, as chankan does), and only now is the indicator an earlier open kan
            // owes turned (corpus: a kakan robbed right after another kakan's replacement draw shows no DORA).
            Offer::Kakan => {
                self.interrupt();
                self.flush_discard_dora(r.from)?;
                self.pending_dora = PendingDora::BeforeDiscard(r.from);
                self.draw(r.from, true)
            }
            Offer::Ankan => {
                self.interrupt();
                self.flush_discard_dora(r.from)?;
                self.pending_dora = PendingDora::BeforeDraw;
                self.draw(r.from, true)
            }
            Offer::Nuki => {
                // corpus: no ippatsu and no double riichi after a north extraction, like after a call
                self.interrupt();
                self.flush_discard_dora(r.from)?;
                self.draw(r.from, true)
            }
        }
    }

    /// Every seat that let a winning tile go by is furiten until its next discard (for good after riichi).
    fn mark_passed(&mut self, from: u8, tile: Tile) {
        for (i, s) in self.seats.iter_mut().enumerate().take(usize::from(self.rules.players)) {
            if i as u8 != from && s.waits & bit(tile.kind()) != 0 {
                s.temp_furiten = true;
                if s.riichi.is_accepted() {
                    s.riichi_furiten = true;
                }
            }
        }
    }

    /// Pays the stick of a riichi discard that was not ronned (`REACH step=2`). True when it was the fourth
    /// riichi and the round ended (abortive draw).
    fn settle_riichi(&mut self) -> Result<bool, IllegalAction> {
        let Some(who) = self.riichi_pending.take() else { return Ok(false) };
        let s = &mut self.seats[usize::from(who)];
        let Riichi::Declared { double } = s.riichi else { return Ok(false) };
        s.riichi = Riichi::Accepted { double };
        s.ippatsu = true;
        self.scores[usize::from(who)] -= 1000;
        self.kyotaku += 1;
        self.events.push(Event::tag(Reach { who, step: 2, scores: Some(self.scores) }.to_tag()));
        let np = self.rules.players;
        if np == 4 && self.seats.iter().all(|s| s.riichi.is_accepted()) {
            self.abort(DrawKind::Reach4, &[0, 1, 2, 3])?;
            return Ok(true);
        }
        Ok(false)
    }

    fn after_discard(&mut self, from: u8) -> Result<(), IllegalAction> {
        if self.settle_riichi()? {
            return Ok(());
        }
        if self.uninterrupted && self.first_discards == 4 && self.first_wind.is_some() {
            return self.abort(DrawKind::Kaze4, &[]);
        }
        if self.kan4_armed {
            return self.abort(DrawKind::Kan4, &[]);
        }
        if self.draws_left == 0 {
            return self.exhaustive_draw();
        }
        self.draw((from + 1) % self.rules.players, false)
    }

    fn call(&mut self, caller: u8, from: u8, tile: Tile, action: Action) -> Result<(), IllegalAction> {
        let rel = (from + 4 - caller) % 4;
        let bad = || IllegalAction::NotLegal { seat: caller, action: action.to_string() };
        let (kind, from_hand): (MeldKind, ArrayVec<Tile, 3>) = match action {
            Action::Chi { tiles } => (MeldKind::Chi, tiles.into_iter().collect()),
            Action::Pon { tiles } => (MeldKind::Pon, tiles.into_iter().collect()),
            Action::Daiminkan => {
                let s = &self.seats[usize::from(caller)];
                (MeldKind::Daiminkan, tile.kind().ids().into_iter().filter(|&t| s.hand.contains(t)).collect())
            }
            _ => return Err(bad()),
        };
        let meld = Meld::call(kind, &from_hand, tile, rel).map_err(|_| bad())?;
        {
            let d = &mut self.seats[usize::from(from)];
            if let Some(last) = d.river.last_mut() {
                last.called_away = true;
            }
            d.nagashi = false;
        }
        self.interrupt();
        let s = &mut self.seats[usize::from(caller)];
        for t in &from_hand {
            s.hand.remove(*t);
        }
        s.melds.push(meld);
        // pao: the call that completes the third dragon set or the fourth wind set
        let k = tile.kind();
        let sets_of = |pred: fn(Kind) -> bool| {
            s.melds.iter().filter(|m| !matches!(m.kind, MeldKind::Chi | MeldKind::Nuki) && pred(m.base_kind())).count()
        };
        if (k.is_dragon() && sets_of(Kind::is_dragon) == 3) || (k.is_wind() && sets_of(Kind::is_wind) == 4) {
            s.pao = Some(from);
        }
        self.events.push(Event::Call { seat: caller, meld: meld.encode() });
        if kind == MeldKind::Daiminkan {
            s.update_waits();
            self.count_kan(caller);
            self.pending_dora = PendingDora::BeforeDiscard(caller);
            return self.draw(caller, true);
        }
        s.kuikae = kuikae_of(&meld);
        s.last_draw = None;
        self.phase = Phase::Turn { seat: caller, source: Source::Call, tsumo_ok: false };
        Ok(())
    }

    /// Turns the indicator an open or added kan owes before this seat's discard or next kan.
    fn flush_discard_dora(&mut self, seat: u8) -> Result<(), IllegalAction> {
        if self.pending_dora == PendingDora::BeforeDiscard(seat) {
            self.turn_dora()?;
        }
        Ok(())
    }

    fn turn_dora(&mut self) -> Result<(), IllegalAction> {
        self.pending_dora = PendingDora::None;
        let t = self.wall.kan_dora().ok_or(IllegalAction::WallExhausted("kan dora"))?;
        self.dora.try_push(t).map_err(|_| IllegalAction::WallExhausted("a sixth dora indicator"))?;
        self.events.push(Event::Dora { tile: t });
        Ok(())
    }

    fn draw(&mut self, seat: u8, replacement: bool) -> Result<(), IllegalAction> {
        if replacement && self.pending_dora == PendingDora::BeforeDraw {
            self.turn_dora()?;
        }
        let tile = if replacement { self.wall.replacement() } else { self.wall.draw() };
        let tile = tile.ok_or(IllegalAction::WallExhausted(if replacement { "replacement draw" } else { "draw" }))?;
        self.draws_left = self.draws_left.saturating_sub(1);
        let s = &mut self.seats[usize::from(seat)];
        s.hand.insert(tile);
        s.last_draw = Some(tile);
        let in_waits = s.waits & bit(tile.kind()) != 0;
        self.events.push(Event::Draw { seat, tile });
        let tsumo_ok = in_waits && self.score_win(seat, seat, tile, Offer::Discard, replacement, Vec::new()).is_some();
        let source = if replacement { Source::Replacement } else { Source::Draw };
        self.phase = Phase::Turn { seat, source, tsumo_ok };
        Ok(())
    }

    // ---- round ends ----

    fn win(&mut self, winners: &[u8], from: u8, tile: Tile, kind: WinKind) -> Result<(), IllegalAction> {
        // a ronned riichi discard is no riichi: its stick is not paid
        if from != winners[0] {
            if let Some(p) = self.riichi_pending.take() {
                self.seats[usize::from(p)].riichi = Riichi::None;
            }
        }
        let (offer, rinshan) = match kind {
            WinKind::Tsumo { rinshan } => (Offer::Discard, rinshan),
            WinKind::Ron(o) => (o, false),
        };
        let mut wins = Vec::with_capacity(winners.len());
        for (i, &w) in winners.iter().enumerate() {
            let riichi = self.seats[usize::from(w)].riichi.is_accepted();
            let ura = if riichi { self.wall.ura(self.dora.len()) } else { Vec::new() };
            let sc = self
                .score_win(w, from, tile, offer, rinshan, ura.clone())
                .ok_or(IllegalAction::NotLegal { seat: w, action: "win (no score)".into() })?;
            let s = &self.seats[usize::from(w)];
            let pao = score::pao_payer(&sc, s.pao, from);
            let (honba, sticks) = if i == 0 { (self.honba, self.kyotaku) } else { (0, 0) };
            let delta = score::win_deltas(&sc, self.ruleset, w, from, self.dealer, pao, honba, sticks);
            let mut hand: Vec<Tile> = s.hand.tiles().iter().collect();
            if from != w {
                hand.push(tile);
                hand.sort_unstable();
            }
            let agari = Agari {
                honba: self.honba,
                kyotaku: sticks,
                hand,
                // Tenhou lists the melds newest first
                melds: s.melds.iter().rev().map(Meld::encode).collect(),
                machi: tile,
                fu: sc.fu,
                points: sc.points,
                limit: sc.limit,
                yaku: sc.yaku.iter().map(|&(id, han)| Yaku { id, han }).collect(),
                yakuman: sc.yakuman.clone(),
                dora_indicators: self.dora.to_vec(),
                ura_indicators: ura,
                who: w,
                from_who: from,
                pao_who: pao,
                before: self.scores,
                delta,
                owari: None,
            };
            for (s, d) in self.scores.iter_mut().zip(delta) {
                *s += d;
            }
            self.kyotaku -= sticks;
            self.last_end = Some((self.events.len(), EndTag::Agari(Box::new(agari.clone()))));
            self.events.push(Event::tag(agari.to_tag(4)));
            wins.push(agari);
        }
        let renchan = winners.contains(&self.dealer);
        self.end_round(RoundEnd::Agari(wins), renchan, false, false)
    }

    fn exhaustive_draw(&mut self) -> Result<(), IllegalAction> {
        let np = usize::from(self.rules.players);
        let mut tenpai = [false; 4];
        for (t, s) in tenpai.iter_mut().zip(&self.seats).take(np) {
            *t = agari::tenpai_at_draw(s.hand.counts());
            // `waits` leaves out kinds held four times with the melds: the rule's edge cases (counted)
            if s.waits == 0 && *t {
                self.tenpai_rule.tenpai_with_meld_copies += 1;
            } else if !*t && shanten(s.hand.counts()) == 0 {
                self.tenpai_rule.noten_with_hand_copies += 1;
            }
        }
        let nagashi: ArrayVec<u8, 4> = (0..np as u8).filter(|&s| self.seats[usize::from(s)].nagashi).collect();
        let (kind, delta) = if nagashi.is_empty() {
            (DrawKind::Exhaustive, score::exhaustive_draw_deltas(tenpai, self.rules.players))
        } else {
            (DrawKind::Nagashi, score::nagashi_deltas(&nagashi, self.dealer, self.ruleset))
        };
        let shown: ArrayVec<u8, 4> = (0..np as u8).filter(|&s| tenpai[usize::from(s)]).collect();
        let renchan = tenpai[usize::from(self.dealer)];
        self.write_draw(kind, &shown, delta);
        self.end_round(RoundEnd::Ryuukyoku(self.last_draw_tag()), renchan, false, true)
    }

    fn abort(&mut self, kind: DrawKind, shown: &[u8]) -> Result<(), IllegalAction> {
        self.write_draw(kind, shown, [0; 4]);
        self.end_round(RoundEnd::Ryuukyoku(self.last_draw_tag()), true, true, true)
    }

    fn last_draw_tag(&self) -> Ryuukyoku {
        match &self.last_end {
            Some((_, EndTag::Ryuukyoku(d))) => (**d).clone(),
            _ => unreachable!("a draw tag was just written"),
        }
    }

    fn write_draw(&mut self, kind: DrawKind, shown: &[u8], delta: [i32; 4]) {
        let mut hands: [Option<Vec<Tile>>; 4] = Default::default();
        for &s in shown {
            hands[usize::from(s)] = Some(self.seats[usize::from(s)].hand.tiles().iter().collect());
        }
        let d = Ryuukyoku {
            kind,
            honba: self.honba,
            kyotaku: self.kyotaku,
            shown: hands,
            before: self.scores,
            delta,
            owari: None,
        };
        for (s, x) in self.scores.iter_mut().zip(delta) {
            *s += x;
        }
        self.last_end = Some((self.events.len(), EndTag::Ryuukyoku(Box::new(d.clone()))));
        self.events.push(Event::tag(d.to_tag(4)));
    }

    fn end_round(&mut self, end: RoundEnd, renchan: bool, abortive: bool, draw: bool) -> Result<(), IllegalAction> {
        let dealer_won = matches!(&end, RoundEnd::Agari(w) if w.iter().any(|a| a.who == self.dealer));
        let outcome = RoundOutcome { kyoku: self.kyoku, dealer: self.dealer, renchan, abortive, dealer_won };
        self.last_round = Some(end);
        self.rounds_finished += 1;
        if renchan || draw {
            self.honba += 1;
        } else {
            self.honba = 0;
        }
        if !renchan {
            self.kyoku = self.rules.next_kyoku(self.kyoku);
        }
        if table::game_ends(&self.rules, &self.scores, outcome) {
            self.finish();
            return Ok(());
        }
        self.start_round()
    }

    /// Writes `owari` on the last round's end tag: leftover sticks to the first place, game points.
    fn finish(&mut self) {
        self.final_before = Some((self.scores, self.kyotaku));
        let (fin, points) = table::owari(&self.rules, &self.scores, self.kyotaku);
        self.scores = fin;
        self.kyotaku = 0;
        let owari = Some(Owari { scores: fin, points });
        if let Some((at, end)) = self.last_end.take() {
            let tag = match end {
                EndTag::Agari(mut a) => {
                    a.owari = owari;
                    a.to_tag(4)
                }
                EndTag::Ryuukyoku(mut d) => {
                    d.owari = owari;
                    d.to_tag(4)
                }
            };
            self.events[at] = Event::tag(tag);
        }
        self.phase = Phase::Over;
    }

    fn start_round(&mut self) -> Result<(), IllegalAction> {
        let np = self.rules.players;
        let Some(deal) = self.wall.deal(np) else {
            self.phase = Phase::Over;
            return Err(IllegalAction::WallExhausted("deal"));
        };
        self.begin_round(deal)
    }

    /// Restarts the game at a given round: kyoku, honba, sticks and scores as given, the next deal of the
    /// wall. The oracle replay uses it to pick up again after a mismatch.
    pub fn restart_round(&mut self, kyoku: u8, honba: u8, kyotaku: u8, scores: [i32; 4]) -> Result<(), IllegalAction> {
        self.kyoku = kyoku;
        self.honba = honba;
        self.kyotaku = kyotaku;
        self.scores = scores;
        self.final_before = None;
        self.start_round()
    }

    fn begin_round(&mut self, deal: Deal) -> Result<(), IllegalAction> {
        let np = self.rules.players;
        self.dealer = self.kyoku % 4;
        for (s, h) in self.seats.iter_mut().zip(&deal.hands) {
            s.reset(h);
        }
        self.dora.clear();
        self.dora.push(deal.dora_indicator);
        self.draws_left = if np == 3 { 55 } else { 70 };
        self.kans = 0;
        self.kan_seats = 0;
        self.uninterrupted = true;
        self.pending_dora = PendingDora::None;
        self.riichi_pending = None;
        self.first_discards = 0;
        self.first_wind = None;
        self.kan4_armed = false;
        self.rounds_started += 1;
        let init = Init {
            kyoku: self.kyoku,
            honba: self.honba,
            kyotaku: self.kyotaku,
            dice: deal.dice,
            dora_indicator: deal.dora_indicator,
            scores: self.scores,
            dealer: self.dealer,
            hands: deal.hands,
        };
        self.events.push(Event::tag(init.to_tag()));
        for s in 0..np {
            self.seats[usize::from(s)].update_waits();
        }
        self.draw(self.dealer, false)
    }
}

/// Why a win is refused (see [`Engine::win_blocker`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinBlock {
    /// The tile does not complete the hand.
    NotComplete,
    /// Furiten: `discard`, `temporary` or `riichi`.
    Furiten(&'static str),
    /// Complete, but `score()` finds no yaku.
    NoYaku,
    /// No tile to win on for this seat now (or a closed kan robbed by a hand other than thirteen orphans).
    NotOffered,
}

#[derive(Clone, Copy, Debug)]
enum WinKind {
    Tsumo { rinshan: bool },
    Ron(Offer),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{Bot, RandomBot};
    use crate::wall::SeededWall;

    /// `quick_legal` (the fast path of `apply`) agrees with the full list of legal actions.
    #[test]
    fn quick_legality_agrees_with_the_list() {
        for seed in 0..40u64 {
            let go = [169, 185][(seed % 2) as usize];
            let mut e = Engine::new(TableRules::from_go_type(go), SeededWall::new(seed)).unwrap();
            let mut bots: Vec<RandomBot> = (0..4).map(|i| RandomBot::new(seed * 4 + i)).collect();
            while !e.is_over() {
                for seat in e.to_act() {
                    let legal = e.legal_actions(seat);
                    if go == 185 {
                        assert!(!legal.iter().any(|a| matches!(a, Action::Chi { .. })), "no chi with three players");
                        let north = e.hand(seat).tiles().iter().find(|t| t.kind() == Kind::NORTH);
                        let riichi = e.in_riichi(seat);
                        if let (Some(Source::Draw), Some(t), false) = (e.turn().map(|(_, s)| s), north, riichi) {
                            if e.draws_left() > 0 {
                                assert!(legal.contains(&Action::Nuki { tile: t }), "a held north may be set aside");
                            }
                        }
                    } else {
                        assert!(!legal.iter().any(|a| matches!(a, Action::Nuki { .. })), "no nuki with four players");
                    }
                    let mut probes: Vec<Action> = (0..136u8)
                        .map(|id| Action::Discard { tile: Tile::from_id(id), riichi: false })
                        .chain([Action::Pass, Action::Ron, Action::Tsumo])
                        .collect();
                    probes.extend(legal.iter().copied());
                    for a in probes {
                        if let Some(ok) = e.quick_legal(seat, a) {
                            assert_eq!(ok, legal.contains(&a), "seed {seed} seat {seat} {a}: {legal:?}");
                        }
                    }
                    let view = e.view(seat);
                    let a = bots[usize::from(seat)].decide(&view, &legal);
                    e.apply(seat, a).unwrap();
                }
            }
        }
    }
}
