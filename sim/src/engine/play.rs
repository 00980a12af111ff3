//! Acting: a seat's decision applied, then the engine moves on by itself (responses resolved by priority,
//! calls, kans and their dora, draws) until some seat must decide again.

use arrayvec::ArrayVec;
use haifu_record::event::Event;
use haifu_record::state::Riichi;
use haifu_rules::{Meld, MeldKind, Tile};

use super::*;

impl<W: Wall> Engine<W> {
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

    pub(super) fn turn_action(&mut self, seat: u8, source: TurnStart, action: Action) -> Result<(), IllegalAction> {
        match action {
            Action::Discard { tile, riichi } => self.discard(seat, tile, riichi),
            Action::Tsumo => {
                let tile =
                    self.table.seats[usize::from(seat)].last_draw.ok_or(IllegalAction::WallExhausted("no draw"))?;
                self.win(&[seat], seat, tile, WinKind::Tsumo { rinshan: source == TurnStart::Replacement })
            }
            Action::Ankan { kind } => {
                self.meld(seat, Meld::ankan(kind))?;
                self.count_kan(seat);
                self.offer()
            }
            Action::Kakan { tile } => {
                let bad = || IllegalAction::NotLegal { seat, action: action.to_string() };
                let p = &self.table.seats[usize::from(seat)];
                let pon = p.melds.iter().find(|m| m.kind == MeldKind::Pon && m.base_kind() == tile.kind());
                let kakan = pon.ok_or_else(bad)?.kakan_of(tile).map_err(|_| bad())?;
                self.meld(seat, kakan)?;
                self.count_kan(seat);
                self.offer()
            }
            Action::Nuki { tile } => {
                self.meld(seat, Meld::nuki(tile))?;
                self.offer()
            }
            Action::KyuushuKyuuhai => self.abort(DrawKind::Yao9, &[seat]),
            _ => Err(IllegalAction::NotLegal { seat, action: action.to_string() }),
        }
    }

    /// Legality of the frequent actions without building the whole list (`None`: build it). Must agree with
    /// [`Engine::legal_actions`] (unit-tested against it).
    pub(super) fn quick_legal(&self, seat: u8, action: Action) -> Option<bool> {
        let s = self.round.seat(seat);
        let p = &self.table.seats[usize::from(seat)];
        match (self.phase, action) {
            (Phase::Turn { seat: t, .. }, Action::Discard { tile, riichi: false }) if t == seat => {
                Some(if p.riichi.is_accepted() {
                    p.last_draw == Some(tile)
                } else {
                    p.hand.contains(tile) && s.kuikae & bit(tile.kind()) == 0
                })
            }
            (Phase::Turn { seat: t, tsumo_ok, .. }, Action::Tsumo) if t == seat => Some(tsumo_ok),
            (Phase::Respond(r), Action::Pass) => Some(r.waiting & !r.answered & seat_bit(seat) != 0),
            (Phase::Respond(r), Action::Ron) => Some(r.ron & !r.answered & seat_bit(seat) != 0),
            _ => None,
        }
    }

    /// After the kan's event: a fourth kan by more than one seat arms the abortive draw.
    pub(super) fn count_kan(&mut self, seat: u8) {
        self.kan_seats |= seat_bit(seat);
        if self.round.kans() == 4 && self.kan_seats.count_ones() > 1 {
            self.kan4_armed = true;
        }
    }

    /// Writes a call of `seat` and advances the table state by it (the rules' bookkeeping follows the event).
    pub(super) fn meld(&mut self, seat: u8, meld: Meld) -> Result<(), IllegalAction> {
        self.table.call(seat, meld).map_err(|why| IllegalAction::NotLegal { seat, action: why })?;
        self.emit(Event::call(seat, meld));
        Ok(())
    }

    /// Writes an event the table state has taken, and advances the rules' bookkeeping by it: the one way an
    /// event enters the record, so that the bookkeeping sees what a replay of the record sees.
    pub(super) fn emit(&mut self, event: Event) {
        self.round.after(&self.table, &event);
        self.events.push(event);
    }

    pub(super) fn discard(&mut self, seat: u8, tile: Tile, riichi: bool) -> Result<(), IllegalAction> {
        self.flush_discard_dora(seat)?;
        let illegal = |why: String| IllegalAction::NotLegal { seat, action: why };
        if riichi {
            self.table.reach(seat, 1).map_err(illegal)?;
            self.emit(Event::reach(Reach { who: seat, step: 1, scores: None }));
            self.riichi_pending = Some(seat);
        }
        let first = self.table.uninterrupted && self.table.seats[usize::from(seat)].discards == 0;
        self.table.discard(seat, tile).map_err(illegal)?;
        self.emit(Event::Discard { seat, tile });
        if first && self.rules.players == 4 {
            let k = tile.kind();
            self.first_wind = match (self.first_discards, self.first_wind) {
                (0, _) if k.is_wind() => Some(k),
                (_, Some(w)) if w == k => Some(w),
                _ => None,
            };
            self.first_discards += 1;
        }
        self.offer()
    }

    /// Asks the other seats about the tile the event just written showed (a discard, a kan, a north): those the
    /// rules' bookkeeping says may win on it or call it; resolves at once when nobody can do anything with it.
    pub(super) fn offer(&mut self) -> Result<(), IllegalAction> {
        let Moment::Respond { from, tile, offer, ron, call } = self.round.moment() else {
            unreachable!("a discard, a kan or a north leaves a shown tile, not {:?}", self.round.moment())
        };
        let answers = [Action::Pass; 4];
        let r = Respond { from, tile, offer, waiting: ron | call, answered: 0, ron, answers };
        if r.waiting == 0 {
            self.resolve(r)
        } else {
            self.phase = Phase::Respond(r);
            Ok(())
        }
    }

    pub(super) fn resolve(&mut self, r: Respond) -> Result<(), IllegalAction> {
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
        // the seats that let a winning tile go by turn furiten with the next event (the rules' bookkeeping)
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
                self.flush_discard_dora(r.from)?;
                self.owe_dora(r.from, MeldKind::Kakan);
                self.draw(r.from, true)
            }
            Offer::Ankan => {
                self.flush_discard_dora(r.from)?;
                self.owe_dora(r.from, MeldKind::Ankan);
                self.draw(r.from, true)
            }
            Offer::Nuki => {
                // corpus: no ippatsu and no double riichi after a north extraction, like after a call
                self.flush_discard_dora(r.from)?;
                self.draw(r.from, true)
            }
        }
    }

    /// Pays the stick of a riichi discard that was not ronned (`REACH step=2`). True when it was the fourth
    /// riichi and the round ended (abortive draw).
    pub(super) fn settle_riichi(&mut self) -> Result<bool, IllegalAction> {
        let Some(who) = self.riichi_pending.take() else { return Ok(false) };
        if !matches!(self.table.seats[usize::from(who)].riichi, Riichi::Discarded { .. }) {
            return Ok(false);
        }
        self.table.reach(who, 2).map_err(|why| IllegalAction::NotLegal { seat: who, action: why })?;
        self.emit(Event::reach(Reach { who, step: 2, scores: Some(self.table.scores) }));
        let np = self.rules.players;
        if np == 4 && self.table.seats.iter().all(|s| s.riichi.is_accepted()) {
            self.abort(DrawKind::Reach4, &[0, 1, 2, 3])?;
            return Ok(true);
        }
        Ok(false)
    }

    pub(super) fn after_discard(&mut self, from: u8) -> Result<(), IllegalAction> {
        if self.settle_riichi()? {
            return Ok(());
        }
        if self.table.uninterrupted && self.first_discards == 4 && self.first_wind.is_some() {
            return self.abort(DrawKind::Kaze4, &[]);
        }
        if self.kan4_armed {
            return self.abort(DrawKind::Kan4, &[]);
        }
        if self.table.draws_left == 0 {
            return self.exhaustive_draw();
        }
        self.draw((from + 1) % self.rules.players, false)
    }

    pub(super) fn call(&mut self, caller: u8, from: u8, tile: Tile, action: Action) -> Result<(), IllegalAction> {
        let rel = (from + 4 - caller) % 4;
        let bad = || IllegalAction::NotLegal { seat: caller, action: action.to_string() };
        let (kind, from_hand): (MeldKind, ArrayVec<Tile, 3>) = match action {
            Action::Chi { tiles } => (MeldKind::Chi, tiles.into_iter().collect()),
            Action::Pon { tiles } => (MeldKind::Pon, tiles.into_iter().collect()),
            Action::Daiminkan => {
                let p = &self.table.seats[usize::from(caller)];
                (MeldKind::Daiminkan, tile.kind().ids().into_iter().filter(|&t| p.hand.contains(t)).collect())
            }
            _ => return Err(bad()),
        };
        let meld = Meld::call(kind, &from_hand, tile, rel).map_err(|_| bad())?;
        // nagashi and pao follow the call in the rules' bookkeeping
        self.meld(caller, meld)?;
        if kind == MeldKind::Daiminkan {
            self.count_kan(caller);
            self.owe_dora(caller, MeldKind::Daiminkan);
            return self.draw(caller, true);
        }
        self.phase = Phase::Turn { seat: caller, source: TurnStart::Call, tsumo_ok: false };
        Ok(())
    }

    /// The indicator a kan of this kind owes, turned when [`KanDora`] says.
    pub(super) fn owe_dora(&mut self, seat: u8, kind: MeldKind) {
        self.pending_dora = KanDora::of(kind).map(|t| (seat, t));
    }

    /// Turns the indicator an open or added kan owes before this seat's discard or next kan.
    pub(super) fn flush_discard_dora(&mut self, seat: u8) -> Result<(), IllegalAction> {
        if self.pending_dora == Some((seat, KanDora::BeforeDiscard)) {
            self.turn_dora()?;
        }
        Ok(())
    }

    pub(super) fn turn_dora(&mut self) -> Result<(), IllegalAction> {
        self.pending_dora = None;
        let t = self.wall.kan_dora().ok_or(IllegalAction::WallExhausted("kan dora"))?;
        self.table.dora(t).map_err(|_| IllegalAction::WallExhausted("a sixth dora indicator"))?;
        self.emit(Event::Dora { tile: t });
        Ok(())
    }

    pub(super) fn draw(&mut self, seat: u8, replacement: bool) -> Result<(), IllegalAction> {
        if replacement && matches!(self.pending_dora, Some((_, KanDora::BeforeReplacement))) {
            self.turn_dora()?;
        }
        let tile = if replacement { self.wall.replacement() } else { self.wall.draw() };
        let tile = tile.ok_or(IllegalAction::WallExhausted(if replacement { "replacement draw" } else { "draw" }))?;
        self.table.draw(seat, tile).map_err(|why| IllegalAction::NotLegal { seat, action: why })?;
        self.emit(Event::Draw { seat, tile });
        self.phase = match self.round.moment() {
            Moment::Turn { seat, source, tsumo_ok } => Phase::Turn { seat, source, tsumo_ok },
            m => unreachable!("a draw leaves the drawing seat's turn, not {m:?}"),
        };
        Ok(())
    }
}
