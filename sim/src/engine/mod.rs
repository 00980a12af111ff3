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
use haifu_record::tags::{Agari, DrawKind, Init, Owari, Player, Reach, RoundEndTag, Ryuukyoku, Yaku};
use haifu_rules::agari;
use haifu_rules::score::{self, Ruleset};
use haifu_rules::shanten::shanten;
use haifu_rules::{Hand, Kind, Meld, Tile};

mod end;
mod legal;
pub use haifu_record::legal::{SeatOptions, TurnStart};
mod play;

use crate::action::{Action, IllegalAction};
use crate::wall::{Deal, Wall};
use haifu_record::legal::{bit, Moment, RoundRules, SeatRules};
use haifu_record::state::{KanDora, RiverTile, TableState};
use haifu_rules::table::{self, RoundOutcome, TableRules};

/// What the other seats are answering.
pub use haifu_record::state::Offer;

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
    Turn { seat: u8, source: TurnStart, tsumo_ok: bool },
    Respond(Respond),
    Over,
}

/// How a round ended, as the engine wrote it.
#[derive(Clone, Debug, PartialEq)]
pub enum RoundEnd {
    /// One win, or several (double ron) in the order written.
    Agari(Vec<Agari>),
    Ryuukyoku(Ryuukyoku),
}

/// One game under Tenhou's rules. See the module documentation.
pub struct Engine<W: Wall> {
    rules: TableRules,
    ruleset: Ruleset,
    wall: W,
    /// The public state: hands, melds, rivers, riichi, scores, sticks, dora, the wall's count.
    table: TableState,
    /// The rules' bookkeeping beside it (each seat's furiten, waits, kuikae; the kans; who may answer a shown
    /// tile), fed every event the engine writes.
    round: RoundRules,
    /// Seats that made the kans of the round (bit mask).
    kan_seats: u8,
    /// A kan's indicator still to turn: the seat that made the kan and when ([`KanDora`]).
    pending_dora: Option<(u8, KanDora)>,
    /// The seat whose riichi discard is out, stick unpaid.
    riichi_pending: Option<u8>,
    /// First discards made while uninterrupted, and their common wind (four winds: abortive draw).
    first_discards: u8,
    first_wind: Option<Kind>,
    /// A fourth kan by more than one seat: the round aborts when the next discard passes.
    kan4_armed: bool,
    phase: Phase,
    events: Vec<Event>,
    last_end: Option<(usize, RoundEndTag)>,
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
            Event::go(rules.go_type, 0),
            Event::players(&players),
            Event::tag(Tag::new("TAIKYOKU").with("oya", "0")),
        ];
        let table = TableState::new(np, rules.start_score());
        let mut e = Engine {
            round: RoundRules::new(rules),
            ruleset: rules.ruleset(),
            rules,
            wall,
            table,
            kan_seats: 0,
            pending_dora: None,
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
    /// The public state of the round (every seat's hand included: an engine knows them all).
    /// A seat's rule bookkeeping (waits, furiten, kuikae ...).
    pub fn seat_rules(&self, seat: u8) -> &SeatRules {
        self.round.seat(seat)
    }
    pub fn table(&self) -> &TableState {
        &self.table
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
        self.table.scores
    }
    pub fn kyoku(&self) -> u8 {
        self.table.kyoku
    }
    pub fn honba(&self) -> u8 {
        self.table.honba
    }
    pub fn kyotaku(&self) -> u8 {
        self.table.kyotaku
    }
    pub fn dealer(&self) -> u8 {
        self.table.dealer
    }
    pub fn draws_left(&self) -> u8 {
        self.table.draws_left
    }
    pub fn dora_indicators(&self) -> &[Tile] {
        &self.table.dora
    }
    pub fn hand(&self, seat: u8) -> &Hand {
        &self.table.seats[usize::from(seat)].hand
    }
    pub fn melds(&self, seat: u8) -> &[Meld] {
        &self.table.seats[usize::from(seat)].melds
    }
    pub fn river(&self, seat: u8) -> &[RiverTile] {
        &self.table.seats[usize::from(seat)].river
    }
    /// The tile `seat` drew last this round (it may have been discarded since).
    pub fn last_draw_of(&self, seat: u8) -> Option<Tile> {
        self.table.seats[usize::from(seat)].last_draw
    }
    pub fn in_riichi(&self, seat: u8) -> bool {
        self.table.seats[usize::from(seat)].riichi.is_declared()
    }
    /// The events written so far.
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    /// The game as a record (format mjlog): `record().to_mjlog()` is Tenhou-like XML.
    pub fn record(&self) -> GameRecord {
        GameRecord::written(self.events.clone())
    }
    /// Takes the events out (the engine is spent).
    pub fn into_record(self) -> GameRecord {
        GameRecord::written(self.events)
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
    pub fn turn(&self) -> Option<(u8, TurnStart)> {
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
                        if let (Some(TurnStart::Draw), Some(t), false) = (e.turn().map(|(_, s)| s), north, riichi) {
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
