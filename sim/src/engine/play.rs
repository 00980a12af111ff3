//! Acting: a seat's decision applied, then the engine moves on by itself (responses resolved by priority,
//! calls, kans and their dora, draws) until some seat must decide again.

use arrayvec::ArrayVec;
use haifu_record::event::Event;
use haifu_record::state::Riichi;
use haifu_rules::{Kind, Meld, MeldKind, Tile};

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
                self.offer(seat, kind.ids()[0], Offer::Ankan)
            }
            Action::Kakan { tile } => {
                let bad = || IllegalAction::NotLegal { seat, action: action.to_string() };
                let p = &self.table.seats[usize::from(seat)];
                let pon = p.melds.iter().find(|m| m.kind == MeldKind::Pon && m.base_kind() == tile.kind());
                let kakan = pon.ok_or_else(bad)?.kakan_of(tile).map_err(|_| bad())?;
                self.meld(seat, kakan)?;
                self.count_kan(seat);
                self.offer(seat, tile, Offer::Kakan)
            }
            Action::Nuki { tile } => {
                self.meld(seat, Meld::nuki(tile))?;
                self.offer(seat, tile, Offer::Nuki)
            }
            Action::KyuushuKyuuhai => self.abort(DrawKind::Yao9, &[seat]),
            _ => Err(IllegalAction::NotLegal { seat, action: action.to_string() }),
        }
    }

    /// Legality of the frequent actions without building the whole list (`None`: build it). Must agree with
    /// [`Engine::legal_actions`] (unit-tested against it).
    pub(super) fn quick_legal(&self, seat: u8, action: Action) -> Option<bool> {
        let s = &self.seats[usize::from(seat)];
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

    pub(super) fn count_kan(&mut self, seat: u8) {
        self.kans += 1;
        self.kan_seats |= seat_bit(seat);
        if self.kans == 4 && self.kan_seats.count_ones() > 1 {
            self.kan4_armed = true;
        }
    }

    /// Writes a call of `seat` and advances the table state by it; the seat's waits follow its hand.
    pub(super) fn meld(&mut self, seat: u8, meld: Meld) -> Result<(), IllegalAction> {
        self.table.call(seat, meld).map_err(|why| IllegalAction::NotLegal { seat, action: why })?;
        self.events.push(Event::call(seat, meld));
        self.seats[usize::from(seat)].called(&self.table.seats[usize::from(seat)], &meld);
        Ok(())
    }

    pub(super) fn discard(&mut self, seat: u8, tile: Tile, riichi: bool) -> Result<(), IllegalAction> {
        self.flush_discard_dora(seat)?;
        let illegal = |why: String| IllegalAction::NotLegal { seat, action: why };
        if riichi {
            self.table.reach(seat, 1).map_err(illegal)?;
            self.events.push(Event::reach(Reach { who: seat, step: 1, scores: None }));
            self.riichi_pending = Some(seat);
        }
        let first = self.table.uninterrupted && self.table.seats[usize::from(seat)].discards == 0;
        self.table.discard(seat, tile).map_err(illegal)?;
        self.seats[usize::from(seat)].discarded(&self.table.seats[usize::from(seat)], tile);
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
    pub(super) fn offer(&mut self, from: u8, tile: Tile, offer: Offer) -> Result<(), IllegalAction> {
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
    pub(super) fn has_call(&self, seat: u8, from: u8, tile: Tile) -> bool {
        let p = &self.table.seats[usize::from(seat)];
        if p.riichi.is_declared() || self.table.draws_left == 0 {
            return false;
        }
        let k = tile.kind();
        let have = p.hand.counts()[usize::from(k.index())];
        let chi_seat = self.rules.players == 4 && seat == (from + 1) % 4 && !k.is_honor() && {
            let c = p.hand.counts();
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
        self.options(seat).call_options(seat, from, tile, &mut v);
        !v.is_empty()
    }

    pub(super) fn can_ron(&self, seat: u8, from: u8, tile: Tile, offer: Offer) -> bool {
        self.options(seat).can_ron(seat, from, tile, offer)
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
        if r.offer == Offer::Ankan {
            // only thirteen orphans may rob a closed kan: nobody else let a win go by
            for s in (0..np).filter(|&s| r.ron & seat_bit(s) != 0) {
                self.seats[usize::from(s)].let_pass(&self.table.seats[usize::from(s)]);
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

    /// Every seat that let a winning tile go by is furiten until its next discard (for good after riichi).
    pub(super) fn mark_passed(&mut self, from: u8, tile: Tile) {
        let players = usize::from(self.rules.players);
        for (i, (s, p)) in self.seats.iter_mut().zip(&self.table.seats).enumerate().take(players) {
            if i as u8 != from && s.waits & bit(tile.kind()) != 0 {
                s.let_pass(p);
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
        self.events.push(Event::reach(Reach { who, step: 2, scores: Some(self.table.scores) }));
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
        self.seats[usize::from(from)].discard_called();
        self.meld(caller, meld)?;
        let p = &self.table.seats[usize::from(caller)];
        let s = &mut self.seats[usize::from(caller)];
        // pao: the call that completes the third dragon set or the fourth wind set
        let k = tile.kind();
        let sets_of = |pred: fn(Kind) -> bool| {
            p.melds.iter().filter(|m| !matches!(m.kind, MeldKind::Chi | MeldKind::Nuki) && pred(m.base_kind())).count()
        };
        if (k.is_dragon() && sets_of(Kind::is_dragon) == 3) || (k.is_wind() && sets_of(Kind::is_wind) == 4) {
            s.pao = Some(from);
        }
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
        self.events.push(Event::Dora { tile: t });
        Ok(())
    }

    pub(super) fn draw(&mut self, seat: u8, replacement: bool) -> Result<(), IllegalAction> {
        if replacement && matches!(self.pending_dora, Some((_, KanDora::BeforeReplacement))) {
            self.turn_dora()?;
        }
        let tile = if replacement { self.wall.replacement() } else { self.wall.draw() };
        let tile = tile.ok_or(IllegalAction::WallExhausted(if replacement { "replacement draw" } else { "draw" }))?;
        self.table.draw(seat, tile).map_err(|why| IllegalAction::NotLegal { seat, action: why })?;
        self.events.push(Event::Draw { seat, tile });
        let tsumo_ok = self.options(seat).tsumo_ok(seat, tile, replacement);
        let source = if replacement { TurnStart::Replacement } else { TurnStart::Draw };
        self.phase = Phase::Turn { seat, source, tsumo_ok };
        Ok(())
    }
}
