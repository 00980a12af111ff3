//! Rebuilding the order of play: the format keeps each seat's takes and outs but not how the seats interleave.
//! The round is played again, the calls that could also have been passed tried both ways (see the module notes).
//! Each way advances its own copy of the one [`TableState`] by the events it writes, so a way the state refuses
//! (a tile not in hand, a call on no discard) is given up like one the seats' sequences do not fit.

use crate::state::{KanDora, TableState};
use haifu_rules::{Kind, Meld, MeldKind, Tile, TileSet};

use super::calls::{tile_code, Code, Out, Take};
use super::model::{Round, RoundResult};
use crate::event::Event;
use crate::ids::IdAllocator;
use crate::tags::{DrawKind, Init, Reach};

/// One way the round may have gone so far; cloned where a call could also have been passed.
#[derive(Clone)]
pub(super) struct Play<'a> {
    pub(super) round: &'a Round,
    pub(super) n: usize,
    red: bool,
    take_at: [usize; 4],
    out_at: [usize; 4],
    pub(super) ids: IdAllocator,
    /// The round's state after the events written: hands, melds, riichi, scores, sticks, dora, the wall.
    pub(super) table: TableState,
    /// Open kans whose indicator is not shown yet.
    pending_dora: u8,
    pub(super) events: Vec<Event>,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Discarded {
    pub(super) seat: usize,
    code: Code,
    pub(super) tile: Tile,
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
pub(super) enum End {
    /// After a draw with no out: tsumo or nine terminals.
    Drawn(usize),
    /// After a discard nobody called and no one drew after: ron, exhaustive or abortive draw.
    Discard(Discarded),
    /// After a kakan or a nuki with no replacement draw: a ron on the tile added to the kan (chankan) or set aside.
    Robbed(usize, Tile),
}

enum Flow<'a> {
    Go(Play<'a>, Step),
    Done(Play<'a>, End),
}

/// Steps allowed for one round, backtracking included: a real round takes about 150.
const STEP_BUDGET: usize = 200_000;

impl<'a> Play<'a> {
    /// The round dealt by `init` (its tiles' ids given by `ids`), before the dealer's first draw.
    pub(super) fn new(round: &'a Round, n: usize, red: bool, ids: IdAllocator, init: &Init) -> Play<'a> {
        let mut table = TableState::new(n as u8, 0);
        table.start(init, n as u8);
        Play {
            round,
            n,
            red,
            take_at: [0; 4],
            out_at: [0; 4],
            ids,
            table,
            pending_dora: 0,
            events: Vec::with_capacity(200),
        }
    }

    /// Writes an event of this way, once its table state has taken it.
    pub(super) fn emit(&mut self, event: Event) -> Result<(), String> {
        self.table.apply(&event)?;
        self.events.push(event);
        Ok(())
    }

    /// The concealed tiles of a seat.
    pub(super) fn hand(&self, s: usize) -> &TileSet {
        self.table.seats[s].hand.tiles()
    }

    /// A tile of this kind (and colour, where the game has red fives) from `hand`.
    fn held(&self, hand: &TileSet, kind: Kind, red: bool) -> Result<Tile, String> {
        let want = (self.red && !kind.is_honor() && kind.digit() == 5).then_some(red);
        hand.find_kind(kind, want).ok_or_else(|| format!("no {}{kind} in hand to give", if red { "red " } else { "" }))
    }

    /// Plays the round depth-first over the call choices; the error reported is the one of the way that got furthest.
    pub(super) fn search(self, dealer: usize) -> Result<(Play<'a>, End), String> {
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
                if self.table.draws_left == 0 {
                    return Err(format!("seat {s} draws from an empty wall"));
                }
                let tile = self.ids.fresh(c.kind(), c.red()).map_err(|e| format!("seat {s} draws: {e}"))?;
                self.take_at[s] += 1;
                self.emit(Event::Draw { seat: s as u8, tile })?;
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
                    self.accept_riichi(d)?;
                    Ok(Flow::Go(self, Step::Draw(next)))
                } else {
                    self.end(End::Discard(d))
                }
            }
            Step::Resolve(d, Some(caller)) => {
                self.accept_riichi(d)?;
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
                let tile = self.table.seats[s].last_draw.filter(|&t| self.hand(s).contains(t));
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
                if !meld.tiles().iter().all(|&t| self.hand(s).contains(t)) {
                    return Err(err(format!("ankan of {kind} without the four tiles in hand")));
                }
                self.emit(Event::call(s as u8, meld))?;
                self.flush_dora()?;
                self.owe_dora(MeldKind::Ankan)?;
                if self.take_at[s] == self.round.takes[s].len() {
                    return Err(err("the round ends on an ankan (robbed by kokushi): not supported".into()));
                }
                Ok(Flow::Go(self, Step::Draw(s)))
            }
            Out::Kakan(c) => {
                let added = self.held(self.hand(s), c.kind(), c.red()).map_err(err)?;
                let pon = self.table.seats[s]
                    .melds
                    .iter()
                    .find(|m| m.kind == MeldKind::Pon && m.base_kind() == c.kind())
                    .ok_or_else(|| err(format!("kakan of {c} without a pon of it")))?;
                let kakan = pon.kakan_of(added).map_err(|e| err(e.to_string()))?;
                self.emit(Event::call(s as u8, kakan))?;
                if self.take_at[s] == self.round.takes[s].len() {
                    // robbed: the kan never completes, an earlier kan's indicator stays hidden too
                    return self.end(End::Robbed(s, added));
                }
                self.flush_dora()?;
                self.owe_dora(MeldKind::Kakan)?;
                Ok(Flow::Go(self, Step::Draw(s)))
            }
            Out::Nuki(c) => {
                let tile = self.held(self.hand(s), c.kind(), false).map_err(err)?;
                self.emit(Event::call(s as u8, Meld::nuki(tile)))?;
                if self.take_at[s] == self.round.takes[s].len() {
                    // robbed: a ron on the north set aside (3 players), as on a kakan
                    return self.end(End::Robbed(s, tile));
                }
                self.flush_dora()?;
                Ok(Flow::Go(self, Step::Draw(s)))
            }
            Out::KanSlot => Err(err("out 0 where no daiminkan was just called".into())),
        }
    }

    /// The tile of a hand-cut discard: a copy other than the one just drawn when the hand holds one.
    fn take_hand_cut(&self, s: usize, c: Code) -> Result<Tile, String> {
        let kind = c.kind();
        let colour_matters = self.red && !kind.is_honor() && kind.digit() == 5;
        let hand = self.hand(s);
        let fits = |t: Tile| t.kind() == kind && hand.contains(t) && (!colour_matters || t.is_red_id() == c.red());
        let drawn = self.table.seats[s].last_draw;
        kind.ids()
            .into_iter()
            .filter(|&t| fits(t))
            .find(|&t| Some(t) != drawn)
            .or(drawn.filter(|&t| fits(t)))
            .ok_or_else(|| format!("discards {c}, which is not in hand"))
    }

    fn discard(mut self, s: usize, code: Code, tile: Tile, riichi: bool) -> Result<Flow<'a>, String> {
        self.flush_dora()?;
        if riichi {
            if self.table.seats[s].riichi.is_declared() {
                return Err(format!("seat {s} declares riichi twice"));
            }
            self.emit(Event::reach(Reach { who: s as u8, step: 1, scores: None }))?;
        }
        self.emit(Event::Discard { seat: s as u8, tile })?;
        Ok(Flow::Go(self, Step::Offer(Discarded { seat: s, code, tile, riichi })))
    }

    /// `REACH step=2`: the riichi discard passed, the stick is paid.
    pub(super) fn accept_riichi(&mut self, d: Discarded) -> Result<(), String> {
        if d.riichi {
            let mut after = self.table.scores;
            after[d.seat] -= 1000;
            self.emit(Event::reach(Reach { who: d.seat as u8, step: 2, scores: Some(after) }))?;
        }
        Ok(())
    }

    fn call(mut self, c: usize, d: Discarded) -> Result<Flow<'a>, String> {
        let Some(&Take::Call(call)) = self.round.takes[c].get(self.take_at[c]) else {
            return Err(format!("seat {c} has no call to make"));
        };
        self.take_at[c] += 1;
        let mut hand = *self.hand(c);
        let mut from_hand = Vec::with_capacity(3);
        for h in &call.hand[..call.n_hand] {
            let t = self.held(&hand, h.kind(), h.red()).map_err(|e| format!("seat {c} calls: {e}"))?;
            hand.remove(t);
            from_hand.push(t);
        }
        let meld = Meld::call(call.kind, &from_hand, d.tile, call.from).map_err(|e| format!("seat {c}: {e}"))?;
        self.emit(Event::call(c as u8, meld))?;
        if call.kind == MeldKind::Daiminkan {
            self.owe_dora(call.kind)?;
            // the `0` out slot of the kan; some writers leave it out
            if self.round.outs[c].get(self.out_at[c]) == Some(&Out::KanSlot) {
                self.out_at[c] += 1;
            }
            return Ok(Flow::Go(self, Step::Draw(c)));
        }
        Ok(Flow::Go(self, Step::Out(c)))
    }

    /// The indicator a kan of this kind owes: shown at once (closed kan) or after the replacement draw, before
    /// the seat's discard ([`KanDora`]).
    fn owe_dora(&mut self, kind: MeldKind) -> Result<(), String> {
        match KanDora::of(kind) {
            Some(KanDora::BeforeReplacement) => self.reveal_dora(),
            Some(KanDora::BeforeDiscard) => {
                self.pending_dora += 1;
                Ok(())
            }
            None => Ok(()),
        }
    }

    fn reveal_dora(&mut self) -> Result<(), String> {
        let c = *self.round.dora.get(self.table.dora.len()).ok_or_else(|| {
            format!("a kan shows a new dora indicator, but the round lists only {}", self.round.dora.len())
        })?;
        let tile = self.ids.fresh(c.kind(), c.red())?;
        self.emit(Event::Dora { tile })
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
            (RoundResult::Wins(w), End::Discard(Discarded { seat, .. }) | End::Robbed(seat, _)) => {
                w.iter().all(|w| w.from == seat && w.who != seat)
            }
            (RoundResult::Draw { kind: DrawKind::Yao9, .. }, End::Drawn(_)) => true,
            (RoundResult::Draw { kind: DrawKind::Exhaustive | DrawKind::Nagashi, .. }, End::Discard(_)) => {
                if self.table.draws_left != 0 {
                    return Err(format!("exhaustive draw with {} tiles left in the wall", self.table.draws_left));
                }
                true
            }
            (RoundResult::Draw { kind, .. }, End::Discard(_)) => kind.is_abortive() && *kind != DrawKind::Yao9,
            _ => false,
        };
        if !fits {
            return Err(format!("the result does not fit the way the round stops ({end:?})"));
        }
        let unshown = self.round.dora.len() - self.table.dora.len().min(self.round.dora.len());
        if unshown > 0 {
            return Err(format!("{unshown} dora indicators of the round were never shown by a kan"));
        }
        Ok(Flow::Done(self, end))
    }
}
