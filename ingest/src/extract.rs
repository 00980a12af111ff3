//! Replay: follows a game event by event, tracking every seat's concealed hand, melds, river, riichi state,
//! the scores, dora indicators and tiles left, and checks the record against itself as it goes.
//!
//! Checks (each violation is a [`ExtractError`] naming the event):
//! - a drawn tile was not dealt or drawn before in the round; a discarded or melded tile is in the hand;
//! - a call takes the last discard, from the seat its code names; hand sizes stay 13/14 (melds count 3);
//! - `AGARI hai` equals the tracked hand plus the winning tile, its melds equal the tracked melds;
//! - `RYUUKYOKU hai0..3` equal the tracked hands (and are tenpai at an exhaustive draw);
//! - `sc` before-values equal the tracked scores, deltas add up, `REACH ten` equals the scores after the stick;
//! - the score invariant (scores + 1000 x sticks = 100000 / 105000; a custom lobby's own total) at every `INIT`, and `INIT ten` equals the
//!   scores the previous round left; `owari` equals the final scores (leftover sticks to one seat).
//!
//! The output is what the dataset stores: the rounds, and one [`Decision`] per discard.

use arrayvec::ArrayVec;
use haifu_rules::agari;
use haifu_rules::score::{Ruleset, Score};
use haifu_rules::shanten::{shanten, shanten_discard};
use haifu_rules::table;
use haifu_rules::{Counts, Hand, Meld, MeldKind, Tile, TileSet};

use crate::choices::{Choice, ChoiceCutter};
use crate::error::ExtractError;
use haifu_record::event::{Event, Format, GameRecord};
use haifu_record::legal::RoundRules;
pub use haifu_record::state::{Melds, RiverTile};
use haifu_record::state::{Offer, TableState};
use haifu_record::tags::{Agari, DrawKind, GameType, Init, Owari, Player, Ryuukyoku};
use haifu_record::walk::{walk, Visitor};
use haifu_rules::table::TableRules;

/// Where the tile a decision starts from came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileSource {
    Draw,
    Chi,
    Pon,
    /// The replacement draw after any kan.
    Kan,
    /// The replacement draw after a north extraction (3-player).
    Nuki,
}

impl TileSource {
    pub fn name(self) -> &'static str {
        match self {
            TileSource::Draw => "draw",
            TileSource::Chi => "chi",
            TileSource::Pon => "pon",
            TileSource::Kan => "kan",
            TileSource::Nuki => "nuki",
        }
    }
}

/// How a round ended for one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Won the round (ron or tsumo).
    Win,
    /// Discarded the winning tile (or had the kan robbed).
    DealIn,
    /// Paid for another player's tsumo.
    TsumoLoss,
    /// Paid for another player's win as the one responsible (pao) for a yakuman's last set.
    Pao,
    /// Another player won by ron from a third player.
    Bystander,
    /// Exhaustive draw (or nagashi mangan) while tenpai.
    DrawTenpai,
    /// Exhaustive draw (or nagashi mangan) while not tenpai.
    DrawNoten,
    /// Abortive draw.
    Abortive,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::DealIn => "deal_in",
            Outcome::TsumoLoss => "tsumo_loss",
            Outcome::Pao => "pao",
            Outcome::Bystander => "bystander",
            Outcome::DrawTenpai => "draw_tenpai",
            Outcome::DrawNoten => "draw_noten",
            Outcome::Abortive => "abortive",
        }
    }
}

/// One discard decision (SPEC 2): the state after a draw or call, and the tile discarded.
#[derive(Clone, Debug)]
pub struct Decision {
    /// Index of the discard in the game's events.
    pub event_index: u32,
    /// Index of the round in the game.
    pub round: u16,
    pub seat: u8,
    /// The seat's n-th draw or call of the round (junme), from 1.
    pub turn: u8,
    pub source: TileSource,
    /// The tile drawn, called, or drawn as replacement.
    pub source_tile: Tile,
    /// Concealed hand after the draw or call, before the discard.
    pub hand: Hand,
    /// Counts of the state a sequence starts from (SPEC 2): the hand, or for a call the hand before the
    /// call plus the called tile.
    pub before: Counts,
    pub discard: Tile,
    pub tsumogiri: bool,
    /// Riichi declared with this discard.
    pub riichi: bool,
    /// Already in riichi before this discard.
    pub in_riichi: bool,
    pub melds: Melds,
    pub shanten_before: i8,
    pub shanten_after: i8,
    /// Scores of the four seats (points) when the decision is made.
    pub scores: [i32; 4],
    /// Dora indicators visible: the first `dora_count` of the round's [`RoundRecord::dora_indicators`].
    pub dora_count: u8,
    pub tiles_left: u8,
    /// Filled when the round ends.
    pub outcome: Outcome,
}

/// How a round ended.
#[derive(Clone, Debug)]
pub enum RoundEnd {
    /// One win, or several for a double ron (in the order of the record).
    Agari(Vec<Agari>),
    Ryuukyoku(Ryuukyoku),
}

/// A completed round.
#[derive(Clone, Debug)]
pub struct RoundRecord {
    pub index: u16,
    pub init: Init,
    /// Dora indicators at the end of the round, kan dora included.
    pub dora_indicators: Vec<Tile>,
    pub end: RoundEnd,
    /// Sum of the score changes of the round's end (points, by seat).
    pub deltas: [i32; 4],
    pub end_scores: [i32; 4],
    /// Sticks left on the table after the round.
    pub kyotaku_after: u8,
    /// Events of the round: `[first, last]` indices (INIT .. the last AGARI/RYUUKYOKU).
    pub first_event: u32,
    pub last_event: u32,
    pub outcomes: [Outcome; 4],
    /// Each seat's river at the end of the round.
    pub rivers: [Vec<RiverTile>; 4],
}

/// Game-level facts.
#[derive(Clone, Debug, Default)]
pub struct GameInfo {
    pub game_type: Option<GameType>,
    pub lobby: Option<i32>,
    pub players: [Player; 4],
    pub n_players: u8,
    /// Final scores (points) and game points from `owari`.
    pub owari: Option<Owari>,
    /// Seats that disconnected at some point (`BYE`).
    pub disconnected: [bool; 4],
}

/// The result of a successful replay.
#[derive(Clone, Debug)]
pub struct ExtractedGame {
    pub info: GameInfo,
    pub rounds: Vec<RoundRecord>,
    pub decisions: Vec<Decision>,
    /// Every moment a seat could do something other than discard ([`crate::choices`]).
    pub choices: Vec<Choice>,
    /// The game reached `owari`.
    pub complete: bool,
    /// Why the game is incomplete (rounds that did not end are dropped).
    pub truncation: Option<String>,
    /// What the replay let pass and says so (a win kept whose recorded value is not what its hand is worth).
    pub notes: Vec<String>,
}

/// What the extractor keeps beside the table state for one seat: where the tile the next discard follows
/// came from (source, tile, the `before` counts of SPEC 2), and whether the next draw replaces a kan or north.
#[derive(Clone, Copy, Debug, Default)]
struct SeatExtra {
    pending: Option<(TileSource, Tile, Counts)>,
    replacement: Option<TileSource>,
}

struct RoundState {
    index: u16,
    init: Init,
    first_event: u32,
    extra: [SeatExtra; 4],
    /// Every tile dealt, drawn or turned as an indicator this round.
    seen: TileSet,
    /// The decision of the last discard while it can be called or ronned.
    last_decision: Option<usize>,
    /// Tiles that can be robbed, by whom and how they were shown: the tile added by the last kakan (chankan),
    /// the four of a closed kan (only kokushi may rob it), or the last north extracted (3-player Tenhou allows
    /// ron on a nuki).
    robbable: Option<(u8, Offer, ArrayVec<Tile, 4>)>,
    first_decision: usize,
    first_choice: usize,
    wins: Vec<Agari>,
}

const OUTSIDE: &str = "event outside a round (before INIT or after the round ended)";

/// What the state showed before a discard, kept for the decision cut after it.
struct BeforeDiscard {
    hand: Hand,
    melds: Melds,
    in_riichi: bool,
    scores: [i32; 4],
    dora_count: u8,
    tiles_left: u8,
    pending: Option<(TileSource, Tile, Counts)>,
}

/// The checks and the cuts of the replay, as a visitor of the one game walker ([`haifu_record::walk`]): the
/// `before` hook holds the record to the state it is applied to, the `after` hook cuts decisions and rounds
/// from the state it leaves.
struct Replayer<'a> {
    events: &'a [Event],
    info: GameInfo,
    round: Option<RoundState>,
    rounds: Vec<RoundRecord>,
    decisions: Vec<Decision>,
    complete: bool,
    started: bool,
    /// Scores plus sticks: 100000 (4p) or 105000 (3p) under standard rules.
    total: Option<i32>,
    /// The tiles an `INIT` deals (and its indicator), checked before it and kept for its round.
    dealt: TileSet,
    discard: Option<BeforeDiscard>,
    /// The caller's hand before a call.
    before_call: Option<Hand>,
    format: Format,
    /// A win whose record disagrees with its computed value is kept with a note instead of refused.
    keep_misscored: bool,
    notes: Vec<String>,
    /// The rules' bookkeeping, its check of every event and the choices cut from it; none for a rule variant
    /// the ranked tables do not play (its options are not Tenhou's ranked rules).
    cutter: Option<ChoiceCutter>,
    /// Follow the rules' bookkeeping ([`ReplayOptions::choices`]): the cutter is set up at the first `INIT`,
    /// once `GO` has said the rules.
    choices: bool,
}

/// Names longer than this get a note in the games table (Tenhou's have at most 8 characters, bots' a few dozen).
const MAX_NAME_CHARS: usize = 64;

/// What a replay does beside its checks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplayOptions {
    /// A win whose recorded value (AGARI `ten`, `yaku`) differs from what its hand is worth is kept, with a
    /// note naming both values ([`ExtractedGame::notes`]), instead of refused.
    pub keep_misscored: bool,
    /// Follow the rules' bookkeeping ([`crate::choices`]): every call, riichi, kan, north, abort and win is held
    /// to the options the rules give (a game where one is not is refused), and the choices are cut
    /// ([`ExtractedGame::choices`]).
    pub choices: bool,
}

/// Replays a game record. Errors name the event; a record that stops early yields the complete rounds.
pub fn extract(record: &GameRecord) -> Result<ExtractedGame, ExtractError> {
    extract_with(record, ReplayOptions::default())
}

/// [`extract`] with [`ReplayOptions`].
pub fn extract_with(record: &GameRecord, opts: ReplayOptions) -> Result<ExtractedGame, ExtractError> {
    let keep_misscored = opts.keep_misscored;
    let mut r = Replayer {
        events: &record.events,
        info: GameInfo { n_players: 4, ..GameInfo::default() },
        round: None,
        rounds: Vec::new(),
        // one decision per discard: reserved once instead of grown by copying (2% of an ingest's instructions)
        decisions: Vec::with_capacity(record.events.iter().filter(|e| matches!(e, Event::Discard { .. })).count()),
        complete: false,
        started: false,
        total: None,
        dealt: TileSet::new(),
        discard: None,
        before_call: None,
        format: record.format,
        keep_misscored,
        notes: Vec::new(),
        cutter: None,
        choices: opts.choices,
    };
    if let Err(e) = walk(&record.events, TableState::default(), &mut r) {
        return Err(error_at(&record.events, e.event, e.message));
    }
    if r.rounds.is_empty() {
        // an empty `<mjloggm>`, a log cut inside its first round: a game of no round holds no row of any table
        let last = record.events.len().saturating_sub(1);
        let why = match &r.round {
            Some(open) => format!("no complete round: round {} (event {}) has no end", open.index, open.first_event),
            None => "no round in the record (no INIT)".into(),
        };
        return Err(if record.events.is_empty() {
            ExtractError { event: 0, tag: String::new(), message: why }
        } else {
            error_at(&record.events, last, why)
        });
    }
    let mut truncation = None;
    let mut choices = r.cutter.take().map(|c| c.choices).unwrap_or_default();
    if let Some(open) = r.round.take() {
        r.decisions.truncate(open.first_decision);
        choices.truncate(open.first_choice);
        truncation = Some(format!("round {} (event {}) has no end", open.index, open.first_event));
    } else if !r.complete {
        truncation = Some("no owari".into());
    }
    Ok(ExtractedGame {
        info: r.info,
        rounds: r.rounds,
        decisions: r.decisions,
        choices,
        complete: r.complete,
        truncation,
        notes: r.notes,
    })
}

/// The error at event `i`, with the event as XML (cut at 120 characters).
fn error_at(events: &[Event], i: usize, message: String) -> ExtractError {
    let mut tag = String::new();
    events[i].write_xml(&mut tag);
    if tag.len() > 120 {
        let cut = (0..=120).rev().find(|&c| tag.is_char_boundary(c)).unwrap_or(0);
        tag.truncate(cut);
        tag.push_str("...");
    }
    ExtractError { event: i, tag, message }
}

impl Visitor for Replayer<'_> {
    fn before(&mut self, _: usize, ev: &Event, table: &TableState) -> Result<(), String> {
        if self.complete && ev.carries_play() {
            return Err("game event after owari".into());
        }
        self.check_record(ev, table)?;
        // the record holds together: now its moves are held to the rules
        match &mut self.cutter {
            Some(c) if self.round.is_some() => c.check(ev, table),
            _ => Ok(()),
        }
    }

    fn after(&mut self, i: usize, ev: &Event, table: &TableState) -> Result<(), String> {
        let round = self.round.as_ref().map_or(self.rounds.len() as u16, |r| r.index);
        // the choices' rows are told what the event did before a round's end gives them their outcomes
        if ev.ends_round() {
            if let Some(c) = &mut self.cutter {
                c.after(i, round, ev, table, None);
            }
            return self.cut(i, ev, table);
        }
        self.cut(i, ev, table)?;
        if let Some(c) = &mut self.cutter {
            // the decision just cut knows the shanten of the hand a discard leaves
            let left = matches!(ev, Event::Discard { .. }).then(|| self.decisions.last().map(|d| d.shanten_after));
            c.after(i, round, ev, table, left.flatten());
        }
        Ok(())
    }
}

impl Replayer<'_> {
    /// The record's own checks of an event, before the table takes it.
    fn check_record(&mut self, ev: &Event, table: &TableState) -> Result<(), String> {
        match ev {
            Event::Draw { tile, .. } => {
                let r = self.round.as_mut().ok_or(OUTSIDE)?;
                if !r.wins.is_empty() {
                    return Err("draw after a win".into());
                }
                if !r.seen.insert(*tile) {
                    return Err(format!("tile {} ({tile}) was already dealt or drawn this round", tile.id()));
                }
                Ok(())
            }
            Event::Discard { seat, .. } => self.before_discard(*seat, table),
            Event::Call { seat, .. } => {
                let r = self.round.as_ref().ok_or(OUTSIDE)?;
                if !r.wins.is_empty() {
                    return Err("call after a win".into());
                }
                self.before_call = table.seats.get(usize::from(*seat)).map(|s| s.hand);
                Ok(())
            }
            Event::Dora { tile } => {
                let r = self.round.as_mut().ok_or(OUTSIDE)?;
                if !r.seen.insert(*tile) {
                    return Err(format!("dora indicator {tile} already in play"));
                }
                Ok(())
            }
            Event::Go(go) => {
                if let Some(gt) = go.game_type {
                    self.info.game_type = Some(gt);
                    self.info.n_players = if gt.three_player() { 3 } else { 4 };
                }
                self.info.lobby = go.lobby.and_then(|l| i32::try_from(l).ok());
                Ok(())
            }
            Event::Players(un) => {
                for (seat, (slot, p)) in self.info.players.iter_mut().zip(&un.0).enumerate() {
                    if let Some(p) = p {
                        let chars = p.name.chars().count();
                        if chars > MAX_NAME_CHARS && slot.name != p.name {
                            self.notes.push(format!(
                                "seat {seat}: a player name of {chars} characters (Tenhou's have at most 8): kept as written"
                            ));
                        }
                        // a reconnection repeats the name only: keep dan and rate from the first UN
                        if slot.name.is_empty() || p.dan.is_some() {
                            *slot = p.clone();
                        }
                    }
                }
                Ok(())
            }
            Event::Bye(bye) => {
                self.info.disconnected[usize::from(bye.who)] = true;
                Ok(())
            }
            Event::Init(init) => self.before_init(init, table),
            Event::Reach(_) => self.round.as_ref().map(|_| ()).ok_or_else(|| OUTSIDE.to_string()),
            Event::Agari(a) => self.before_agari(a, table),
            Event::Ryuukyoku(d) => self.before_ryuukyoku(d, table),
            // SHUFFLE, TAIKYOKU, the root and unknown tags carry nothing the replay checks
            Event::Tag(_) => Ok(()),
        }
    }

    /// What the state left after an event: the decisions and the rounds.
    fn cut(&mut self, i: usize, ev: &Event, table: &TableState) -> Result<(), String> {
        match ev {
            Event::Draw { seat, tile } => {
                let r = self.round.as_mut().ok_or(OUTSIDE)?;
                r.robbable = None;
                r.last_decision = None;
                let x = &mut r.extra[usize::from(*seat)];
                let source = x.replacement.take().unwrap_or(TileSource::Draw);
                x.pending = Some((source, *tile, *table.seats[usize::from(*seat)].hand.counts()));
                Ok(())
            }
            Event::Discard { seat, tile } => self.after_discard(i, *seat, *tile, table),
            Event::Call { seat, meld, .. } => self.after_call(*seat, *meld),
            Event::Init(init) => {
                self.started = true;
                self.round = Some(RoundState {
                    index: self.rounds.len() as u16,
                    init: init.value().clone(),
                    first_event: i as u32,
                    extra: [SeatExtra::default(); 4],
                    seen: std::mem::take(&mut self.dealt),
                    last_decision: None,
                    robbable: None,
                    first_decision: self.decisions.len(),
                    first_choice: self.cutter.as_ref().map_or(0, |c| c.choices.len()),
                    wins: Vec::new(),
                });
                Ok(())
            }
            Event::Reach(reach) => {
                if let Some(ten) = reach.scores.filter(|_| reach.step == 2) {
                    if ten != table.scores {
                        return Err(format!("REACH ten {ten:?} but the scores after the stick are {:?}", table.scores));
                    }
                }
                Ok(())
            }
            Event::Agari(a) => self.after_agari(i, a, table),
            Event::Ryuukyoku(d) => {
                let np = usize::from(self.info.n_players);
                let mut outcomes = [Outcome::Abortive; 4];
                if !d.kind.is_abortive() {
                    for (s, o) in outcomes.iter_mut().enumerate().take(np) {
                        *o = if d.shown[s].is_some() { Outcome::DrawTenpai } else { Outcome::DrawNoten };
                    }
                }
                self.end_round(i, RoundEnd::Ryuukyoku(d.value().clone()), outcomes, d.owari.clone(), table)
            }
            _ => Ok(()),
        }
    }
}

impl Replayer<'_> {
    fn before_init(&mut self, init: &Init, table: &TableState) -> Result<(), String> {
        if self.round.is_some() {
            return Err("INIT while the previous round has not ended".into());
        }
        if self.complete {
            return Err("INIT after owari".into());
        }
        if let Some(last) = self.rounds.last() {
            // a round is the last one again with one more honba (the dealer kept the seat, or a draw) or the next
            // one: a log that repeats or goes back (E4-1 five hundred times) is no game Tenhou played
            let (k, h) = (last.init.kyoku, last.init.honba);
            let follows = if init.kyoku == k {
                init.honba == h.wrapping_add(1)
            } else {
                init.kyoku == table::next_kyoku(self.info.n_players, k)
                    && (init.honba == 0 || init.honba == h.wrapping_add(1))
            };
            if !follows {
                return Err(format!(
                    "round {} cannot follow round {}: the next round is the same one with one more honba, or the \
                     round after it",
                    table::round_name(init.kyoku, init.honba),
                    table::round_name(k, h)
                ));
            }
        }
        let n = init.players();
        if self.info.game_type.is_none() {
            self.info.n_players = n;
        } else if n != self.info.n_players {
            return Err(format!("INIT deals {n} hands in a {}-player game", self.info.n_players));
        }
        if self.choices && !self.started {
            let go = self.info.game_type.unwrap_or(GameType::houou_hanchan(self.info.n_players));
            let rules = RoundRules::new(TableRules::from_go_type(go.0));
            let discards = self.decisions.capacity();
            self.cutter = (!go.is_variant()).then(|| ChoiceCutter::new(rules, discards));
        }
        let np = usize::from(self.info.n_players);
        let sum: i32 = init.scores.iter().sum::<i32>() + 1000 * i32::from(init.kyotaku);
        // private lobbies (lobby != 0) and newer rule sets (GO type >= 0x100) may start from other scores:
        // their first INIT sets the total, which must then hold for the whole game
        let standard = self.info.game_type.is_none_or(|t| t.0 < 0x100) && self.info.lobby.unwrap_or(0) == 0;
        let total = *self.total.get_or_insert(if standard { table::standard_total(self.info.n_players) } else { sum });
        if sum != total {
            return Err(format!(
                "scores {:?} and {} sticks add to {sum}, not {total}",
                &init.scores[..np],
                init.kyotaku
            ));
        }
        if self.started && (init.scores != table.scores || init.kyotaku != table.kyotaku) {
            return Err(format!(
                "INIT ten {:?} (+{} sticks) differs from the scores the last round left {:?} (+{})",
                &init.scores[..np],
                init.kyotaku,
                &table.scores[..np],
                table.kyotaku
            ));
        }
        if usize::from(init.dealer) >= np {
            return Err(format!("dealer {} out of range", init.dealer));
        }
        let mut seen = TileSet::new();
        for (s, h) in init.hands.iter().enumerate().take(np) {
            if h.len() != 13 {
                return Err(format!("hai{s} deals {} tiles", h.len()));
            }
            for &tile in h {
                if !seen.insert(tile) {
                    return Err(format!("tile {} dealt twice", tile.id()));
                }
            }
        }
        if !seen.insert(init.dora_indicator) {
            return Err("dora indicator is also in a hand".into());
        }
        self.dealt = seen;
        Ok(())
    }

    fn before_discard(&mut self, seat: u8, table: &TableState) -> Result<(), String> {
        let r = self.round.as_mut().ok_or(OUTSIDE)?;
        r.robbable = None;
        let s = table.seats.get(usize::from(seat)).ok_or("seat out of range")?;
        let pending = r.extra.get_mut(usize::from(seat)).and_then(|x| x.pending.take());
        self.discard = Some(BeforeDiscard {
            hand: s.hand,
            melds: s.melds.clone(),
            in_riichi: s.riichi.is_accepted(),
            scores: table.scores,
            dora_count: table.dora.len() as u8,
            tiles_left: table.draws_left,
            pending,
        });
        Ok(())
    }

    fn after_discard(&mut self, i: usize, seat: u8, tile: Tile, table: &TableState) -> Result<(), String> {
        let b = self.discard.take().ok_or("discard without its state")?;
        let (source, source_tile, before) =
            b.pending.ok_or_else(|| format!("seat {seat} discards without a draw or call"))?;
        let s = &table.seats[usize::from(seat)];
        let river = s.river.last().ok_or("a discard that reached no river")?;
        // a riichi discard's tile equals the draw only after a draw, never after a call
        let tsumogiri = river.tsumogiri && matches!(source, TileSource::Draw | TileSource::Kan | TileSource::Nuki);
        let (shanten_before, shanten_after) = shanten_discard(b.hand.counts(), usize::from(tile.kind().index()));
        debug_assert_eq!(shanten_after, shanten(s.hand.counts()), "the hand after the discard");
        let r = self.round.as_mut().ok_or(OUTSIDE)?;
        r.last_decision = Some(self.decisions.len());
        self.decisions.push(Decision {
            event_index: i as u32,
            round: r.index,
            seat,
            turn: s.turn,
            source,
            source_tile,
            hand: b.hand,
            before,
            discard: tile,
            tsumogiri,
            riichi: river.riichi,
            in_riichi: b.in_riichi,
            melds: b.melds,
            shanten_before,
            shanten_after,
            scores: b.scores,
            dora_count: b.dora_count,
            tiles_left: b.tiles_left,
            outcome: Outcome::Bystander,
        });
        Ok(())
    }

    fn after_call(&mut self, seat: u8, meld: Meld) -> Result<(), String> {
        let before_call = self.before_call.take();
        let r = self.round.as_mut().ok_or(OUTSIDE)?;
        r.robbable = None;
        if meld.kind.takes_discard() {
            r.last_decision = None;
        }
        let x = &mut r.extra[usize::from(seat)];
        match meld.kind {
            MeldKind::Chi | MeldKind::Pon => {
                let mut before = *before_call.unwrap_or_default().counts();
                let called = meld.called.ok_or("call without a called tile")?;
                before[usize::from(called.kind().index())] += 1;
                let source = if meld.kind == MeldKind::Chi { TileSource::Chi } else { TileSource::Pon };
                x.pending = Some((source, called, before));
            }
            MeldKind::Daiminkan => x.replacement = Some(TileSource::Kan),
            MeldKind::Ankan | MeldKind::Kakan | MeldKind::Nuki => {
                x.pending = None;
                x.replacement = Some(if meld.kind == MeldKind::Nuki { TileSource::Nuki } else { TileSource::Kan });
                r.robbable = match meld.kind {
                    MeldKind::Kakan => meld.added.map(|t| (seat, Offer::Kakan, [t].into_iter().collect())),
                    MeldKind::Nuki => Some((seat, Offer::Nuki, meld.tiles().iter().copied().collect())),
                    _ => Some((seat, Offer::Ankan, meld.tiles().iter().copied().collect())),
                };
            }
        }
        Ok(())
    }

    fn check_sc(before: &[i32; 4], table: &TableState, what: &str) -> Result<(), String> {
        if *before != table.scores {
            return Err(format!("{what} sc before-scores {before:?} differ from the tracked {:?}", table.scores));
        }
        Ok(())
    }

    fn before_agari(&mut self, a: &Agari, table: &TableState) -> Result<(), String> {
        let np = self.info.n_players;
        Self::check_sc(&a.before, table, "AGARI")?;
        let kyotaku = table.kyotaku;
        let r = self.round.as_mut().ok_or(OUTSIDE)?;
        if a.honba != r.init.honba {
            return Err(format!("AGARI ba honba {} but the round has {}", a.honba, r.init.honba));
        }
        let first = r.wins.is_empty();
        // the sticks go to the first winner; a second winner of a double ron gets none
        let sticks = if first { kyotaku } else { 0 };
        if a.kyotaku != sticks && a.kyotaku != kyotaku {
            return Err(format!("AGARI ba sticks {} but {} are on the table", a.kyotaku, sticks));
        }
        let (who, from) = (a.who, a.from_who);
        if who >= np || from >= np {
            return Err("AGARI seat out of range".into());
        }
        let winner = &table.seats[usize::from(who)];
        let mut expect = winner.hand;
        let win_tile = if who == from {
            winner.last_draw.filter(|t| winner.hand.contains(*t)).ok_or("tsumo without a drawn tile")?
        } else {
            let robbed = r.robbable.as_ref().filter(|(s, _, _)| *s == from).and_then(|(_, _, ts)| {
                // a closed kan shows four tiles: the one Tenhou names as machi is the one robbed
                ts.iter().copied().find(|&t| t == a.machi).or_else(|| ts.first().copied())
            });
            let discarded = table.last_discard.filter(|&(s, _)| s == from).map(|(_, t)| t);
            let t = robbed.or(discarded).ok_or_else(|| format!("ron from seat {from} with no tile to take"))?;
            expect.insert(t);
            t
        };
        if a.machi != win_tile {
            return Err(format!("machi {} but the winning tile is {}", a.machi.id(), win_tile.id()));
        }
        let shown: TileSet = a.hand.iter().copied().collect();
        if shown != *expect.tiles() || shown.len() != a.hand.len() {
            let ids = |set: &TileSet| set.iter().map(|t| t.id().to_string()).collect::<Vec<_>>().join(",");
            return Err(format!(
                "AGARI hai {shown:?} ({}) differs from the tracked hand {expect:?} ({})",
                ids(&shown),
                ids(expect.tiles())
            ));
        }
        let mut tracked: Vec<u32> =
            winner.melds.iter().filter(|m| m.kind != MeldKind::Nuki).map(Meld::encode).collect();
        let mut logged: Vec<u32> = Vec::new();
        for &code in &a.melds {
            let m = Meld::decode(code).map_err(|e| e.to_string())?;
            if m.kind != MeldKind::Nuki {
                logged.push(m.encode());
            }
        }
        tracked.sort_unstable();
        logged.sort_unstable();
        if tracked != logged {
            return Err(format!("AGARI m {:?} differs from the tracked melds {:?}", a.melds, tracked));
        }
        if expect.len() % 3 != 2 || expect.len() > 14 {
            return Err(format!("AGARI hand {expect:?} holds {} tiles", expect.len()));
        }
        if shanten(expect.counts()) != -1 {
            return Err(format!("AGARI hand {expect:?} is not complete"));
        }
        let delta_sum: i32 = a.delta.iter().sum();
        if delta_sum != 1000 * i32::from(a.kyotaku) {
            return Err(format!(
                "AGARI deltas add to {delta_sum}, expected {} for the sticks",
                1000 * i32::from(a.kyotaku)
            ));
        }
        // a ron on a tile a kan or a north showed, else on the last discard
        let offer = match &r.robbable {
            Some((s, offer, ts)) if *s == from && who != from && ts.contains(&win_tile) => *offer,
            _ => Offer::Discard,
        };
        let rinshan = who == from
            && matches!(r.extra[usize::from(who)].pending, Some((TileSource::Kan | TileSource::Nuki, _, _)));
        let index = r.index;
        // bots' mjai logs follow their own arenas' rules and roundings (akochan writes unrounded fu): Tenhou's
        // formats alone are held to Tenhou's scoring
        if self.format == Format::Mjai {
            return Ok(());
        }
        let Some(ruleset) = self.scoring_rules() else { return Ok(()) };
        let computed = table.score_win(ruleset, who, from, win_tile, offer, rinshan, a.ura_indicators.clone());
        match self.misscored(a, computed.as_ref()) {
            Some(why) if self.keep_misscored => {
                self.notes.push(format!("round {index}: {why} (kept: --keep-misscored)"));
                Ok(())
            }
            Some(why) => Err(why),
            None => Ok(()),
        }
    }

    /// The rules a win is scored by: the table's (`GO type`), Tenhou's ranked ones for a record without `GO`;
    /// none for a rule variant the ranked tables do not play (type bits above 0x1FF), whose wins are not scored.
    fn scoring_rules(&self) -> Option<Ruleset> {
        let go = self.info.game_type.unwrap_or(GameType::houou_hanchan(self.info.n_players));
        (!go.is_variant()).then(|| TableRules::from_go_type(go.0 & 0xFF).ruleset())
    }

    /// How a win's record differs from what its hand is worth (`computed`: `None` when the hand has no yaku), if
    /// it does. Tenhou's own mjlog is held to its value in full: fu, points, limit, yaku and their han.
    /// tenhou.net/6 files are written by other programs too: their points and limit are held, their fu where
    /// they give one (a limit hand's is unknown), their yaku as a set (some writers keep an order of their own).
    fn misscored(&self, a: &Agari, computed: Option<&Score>) -> Option<String> {
        let Some(c) = computed else {
            return Some(format!(
                "AGARI ten {},{},{}: the hand has no yaku by the table's rules",
                a.fu, a.points, a.limit
            ));
        };
        let mjlog = self.format == Format::Mjlog;
        let fu_stated = a.fu != 0 && a.yakuman.is_empty();
        if a.points != c.points || a.limit != c.limit || (fu_stated && a.fu != c.fu) {
            return Some(format!(
                "AGARI ten {},{},{}: the hand is worth {} fu, {} points, limit {}",
                a.fu, a.points, a.limit, c.fu, c.points, c.limit
            ));
        }
        let logged: Vec<(u8, u8)> = a.yaku.iter().map(|y| (y.id, y.han)).collect();
        let named = !logged.is_empty() || !a.yakuman.is_empty();
        let same = if mjlog {
            logged == c.yaku && a.yakuman == c.yakuman
        } else {
            let sorted = |mut v: Vec<(u8, u8)>| {
                v.sort_unstable();
                v
            };
            let sorted_ids = |mut v: Vec<u8>| {
                v.sort_unstable();
                v
            };
            !named
                || (sorted(logged.clone()) == sorted(c.yaku.clone())
                    && sorted_ids(a.yakuman.clone()) == sorted_ids(c.yakuman.clone()))
        };
        (!same).then(|| {
            format!("AGARI yaku {logged:?} yakuman {:?}: the hand's are {:?} and {:?}", a.yakuman, c.yaku, c.yakuman)
        })
    }

    fn after_agari(&mut self, i: usize, a: &Agari, table: &TableState) -> Result<(), String> {
        let np = self.info.n_players;
        self.round.as_mut().ok_or(OUTSIDE)?.wins.push(a.clone());
        // a double ron is a run of AGARI tags, maybe with tags such as BYE between them (SPEC 1.2: no INIT
        // between): end the round when the next event that carries play is not another AGARI
        let more = self.events[i + 1..].iter().find(|e| e.carries_play()).is_some_and(|e| matches!(e, Event::Agari(_)));
        if more {
            return Ok(());
        }
        let wins = std::mem::take(&mut self.round.as_mut().ok_or(OUTSIDE)?.wins);
        let mut outcomes = [Outcome::Bystander; 4];
        for w in &wins {
            // who paid decides: under pao the responsible seat pays (all of a tsumo, half of a ron)
            for (s, o) in outcomes.iter_mut().enumerate().take(usize::from(np)) {
                let paid = w.delta[s] < 0;
                if s == usize::from(w.who) || *o == Outcome::DealIn {
                    continue;
                }
                if !w.is_tsumo() && s == usize::from(w.from_who) {
                    *o = Outcome::DealIn;
                } else if paid && w.pao_who == Some(s as u8) {
                    *o = Outcome::Pao;
                } else if paid && w.is_tsumo() {
                    *o = Outcome::TsumoLoss;
                }
            }
        }
        for w in &wins {
            outcomes[usize::from(w.who)] = Outcome::Win;
        }
        let owari = wins.last().and_then(|w| w.owari.clone());
        self.end_round(i, RoundEnd::Agari(wins), outcomes, owari, table)
    }

    fn before_ryuukyoku(&mut self, d: &Ryuukyoku, table: &TableState) -> Result<(), String> {
        let np = usize::from(self.info.n_players);
        Self::check_sc(&d.before, table, "RYUUKYOKU")?;
        let r = self.round.as_mut().ok_or(OUTSIDE)?;
        if d.honba != r.init.honba {
            return Err(format!("RYUUKYOKU ba honba {} but the round has {}", d.honba, r.init.honba));
        }
        if matches!(d.kind, DrawKind::Exhaustive | DrawKind::Nagashi) && table.draws_left != 0 {
            return Err(format!("exhaustive draw with {} tiles left in the wall", table.draws_left));
        }
        let ron_tile = table.last_discard.map(|(_, t)| t);
        for (s, shown) in d.shown.iter().enumerate() {
            let Some(shown) = shown else { continue };
            if s >= np {
                return Err(format!("hand shown for absent seat {s}"));
            }
            let shown_set: TileSet = shown.iter().copied().collect();
            let tracked = table.seats[s].hand;
            let mut with_ron = tracked;
            if let Some(t) = ron_tile {
                with_ron.insert(t);
            }
            let matches = shown_set == *tracked.tiles() || (d.kind == DrawKind::Ron3 && shown_set == *with_ron.tiles());
            if !matches || shown_set.len() != shown.len() {
                return Err(format!("hai{s} {shown_set:?} differs from the tracked hand {tracked:?}"));
            }
            let drawn = matches!(d.kind, DrawKind::Exhaustive | DrawKind::Nagashi);
            if drawn && (tracked.len() % 3 != 1 || tracked.len() > 13) {
                return Err(format!("hai{s} {tracked:?} holds {} tiles at the draw", tracked.len()));
            }
            if drawn && !agari::tenpai_at_draw(tracked.counts()) {
                return Err(format!("hai{s} {tracked:?} is shown as tenpai but is not"));
            }
        }
        let delta_sum: i32 = d.delta.iter().sum();
        if delta_sum != 0 {
            return Err(format!("RYUUKYOKU deltas add to {delta_sum}"));
        }
        Ok(())
    }

    fn end_round(
        &mut self,
        i: usize,
        end: RoundEnd,
        outcomes: [Outcome; 4],
        owari: Option<Owari>,
        table: &TableState,
    ) -> Result<(), String> {
        let r = self.round.take().ok_or("round end outside a round")?;
        for d in &mut self.decisions[r.first_decision..] {
            d.outcome = outcomes[usize::from(d.seat)];
        }
        if let Some(c) = &mut self.cutter {
            c.end_round(r.first_choice, &outcomes);
        }
        let deltas = match &end {
            RoundEnd::Agari(w) => w.iter().fold([0; 4], |mut acc, a| {
                for (x, d) in acc.iter_mut().zip(a.delta) {
                    *x += d;
                }
                acc
            }),
            RoundEnd::Ryuukyoku(d) => d.delta,
        };
        self.rounds.push(RoundRecord {
            rivers: std::array::from_fn(|s| table.seats[s].river.clone()),
            index: r.index,
            init: r.init,
            dora_indicators: table.dora.to_vec(),
            end,
            deltas,
            end_scores: table.scores,
            kyotaku_after: table.kyotaku,
            first_event: r.first_event,
            last_event: i as u32,
            outcomes,
        });
        if let Some(o) = owari {
            Self::check_owari(&o, table, self.info.n_players)?;
            self.info.owari = Some(o);
            self.complete = true;
        }
        Ok(())
    }

    /// `owari` = tracked scores, except that leftover sticks go to one seat (the first place).
    fn check_owari(o: &Owari, table: &TableState, players: u8) -> Result<(), String> {
        let (scores, kyotaku) = (table.scores, table.kyotaku);
        let leftover = 1000 * i32::from(kyotaku);
        let diffs: Vec<(usize, i32)> = (0..4).map(|s| (s, o.scores[s] - scores[s])).filter(|&(_, d)| d != 0).collect();
        let ok = match diffs[..] {
            [] => leftover == 0,
            [(s, d)] => d == leftover && o.scores.iter().all(|&x| x <= o.scores[s]),
            _ => false,
        };
        if !ok {
            return Err(format!(
                "owari scores {:?} differ from the tracked {:?} with {} sticks left",
                o.scores, scores, kyotaku
            ));
        }
        // the game points follow the places: a higher place never has fewer points (uma falls with the place;
        // tied scores are placed by seat, as Tenhou does)
        let n = usize::from(players);
        let order = table::ranking(&o.scores, players);
        if let Some(w) = order[..n].windows(2).find(|w| o.points[usize::from(w[0])] < o.points[usize::from(w[1])]) {
            let (hi, lo) = (usize::from(w[0]), usize::from(w[1]));
            return Err(format!(
                "owari points {:?} contradict the final scores {:?}: seat {hi} places above seat {lo} with fewer points",
                &o.points[..n],
                &o.scores[..n]
            ));
        }
        if o.points[..n].iter().any(|p| !p.is_finite()) {
            return Err(format!("owari points {:?} are not numbers", &o.points[..n]));
        }
        Ok(())
    }
}

impl RoundRecord {
    /// The wins of the round (empty for a draw).
    pub fn wins(&self) -> &[Agari] {
        match &self.end {
            RoundEnd::Agari(w) => w,
            RoundEnd::Ryuukyoku(_) => &[],
        }
    }
}
