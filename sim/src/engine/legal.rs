//! What a seat may do now: the legal actions of a turn or a response, and why an action or a win is refused.

use arrayvec::ArrayVec;
use haifu_record::state::{Riichi, SeatState};
use haifu_rules::{Kind, Meld, MeldKind, Tile};

use super::*;

impl<W: Wall> Engine<W> {
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
            Phase::Turn { seat: s, source, tsumo_ok } if s == seat => {
                self.options(seat).turn_actions(seat, source, tsumo_ok, out)
            }
            Phase::Respond(r) if r.waiting & !r.answered & seat_bit(seat) != 0 => {
                self.respond_actions(seat, &r, out);
            }
            _ => {}
        }
    }

    pub(super) fn respond_actions(&self, seat: u8, r: &Respond, out: &mut Vec<Action>) {
        if r.ron & seat_bit(seat) != 0 {
            out.push(Action::Ron);
        }
        if r.offer == Offer::Discard {
            self.options(seat).call_options(seat, r.from, r.tile, out);
        }
        out.push(Action::Pass);
    }

    /// The rule an action that is not legal now breaks, as a short name for reports (`haifu verify --json`):
    /// `not_your_turn`, `tile_not_in_hand`, `kuikae`, `riichi_not_tenpai`, `riichi_open_hand`,
    /// `riichi_without_1000`, `riichi_too_few_tiles`, `riichi_twice`, `riichi_discard_not_drawn`,
    /// `furiten_discard` / `_temporary` / `_riichi`, `no_yaku`, `not_complete`, `not_offered`,
    /// `call_not_allowed`, `not_allowed`.
    pub fn rule_broken(&self, seat: u8, action: &Action) -> &'static str {
        let s = &self.seats[usize::from(seat)];
        let p = &self.table.seats[usize::from(seat)];
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
            Action::Discard { tile, .. } if !p.hand.contains(tile) => "tile_not_in_hand",
            Action::Discard { tile, .. } if p.riichi.is_accepted() && p.last_draw != Some(tile) => {
                "riichi_discard_not_drawn"
            }
            Action::Discard { tile, .. } if s.kuikae & bit(tile.kind()) != 0 => "kuikae",
            Action::Discard { riichi: true, .. } => {
                if p.riichi != Riichi::None {
                    "riichi_twice"
                } else if !p.closed() {
                    "riichi_open_hand"
                } else if self.table.scores[usize::from(seat)] < 1000 {
                    "riichi_without_1000"
                } else if self.table.draws_left < self.rules.players {
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
        let p = &self.table.seats[usize::from(seat)];
        match self.phase {
            Phase::Turn { seat: t, source, tsumo_ok } if t == seat => {
                if tsumo_ok {
                    return None;
                }
                let tile = p.last_draw?;
                if source == TurnStart::Call || s.waits & bit(tile.kind()) == 0 {
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
        match self.table.score_win(self.ruleset, seat, from, tile, offer, false, Vec::new()) {
            None => Some(WinBlock::NoYaku),
            Some(sc) if offer == Offer::Ankan && !sc.yakuman.iter().any(|&y| y == 47 || y == 48) => {
                Some(WinBlock::NotOffered)
            }
            Some(_) => None,
        }
    }
}

/// A seat's options from what that seat knows: the table (its own hand and everything public), its rule
/// bookkeeping, the table's rules and the kans of the round. The one home of the legal-action rules: the
/// engine asks it, and so does a player who follows a game from its seat (the mjai player of `haifu-play`),
/// whose table state holds no other hand.
#[derive(Clone, Copy)]
pub struct SeatOptions<'a> {
    pub table: &'a TableState,
    pub rules: &'a TableRules,
    pub ruleset: Ruleset,
    pub extras: &'a SeatRules,
    /// Kans made this round by every seat.
    pub kans: u8,
}

impl<W: Wall> Engine<W> {
    pub(super) fn options(&self, seat: u8) -> SeatOptions<'_> {
        SeatOptions {
            table: &self.table,
            rules: &self.rules,
            ruleset: self.ruleset,
            extras: &self.seats[usize::from(seat)],
            kans: self.kans,
        }
    }
}

impl SeatOptions<'_> {
    /// The actions of `seat`'s turn (it holds 3n+2 tiles), started by `source`; `tsumo_ok`: the drawn tile
    /// wins ([`SeatOptions::tsumo_ok`]).
    pub fn turn_actions(&self, seat: u8, source: TurnStart, tsumo_ok: bool, out: &mut Vec<Action>) {
        let s = self.extras;
        let p = &self.table.seats[usize::from(seat)];
        if tsumo_ok {
            out.push(Action::Tsumo);
        }
        let can_kan = source != TurnStart::Call && self.table.draws_left > 0 && self.kans < 4;
        let three = self.rules.players == 3;
        if self.table.uninterrupted
            && p.discards == 0
            && source == TurnStart::Draw
            && yaochuu_kinds(p.hand.counts()) >= 9
        {
            out.push(Action::KyuushuKyuuhai);
        }
        if p.riichi.is_accepted() {
            let Some(drawn) = p.last_draw else { return };
            out.push(Action::Discard { tile: drawn, riichi: false });
            let k = drawn.kind();
            if can_kan && p.hand.counts()[usize::from(k.index())] == 4 && self.riichi_ankan_keeps_waits(p, k) {
                out.push(Action::Ankan { kind: k });
            }
            if three && source != TurnStart::Call && self.table.draws_left > 0 && k == Kind::NORTH {
                out.push(Action::Nuki { tile: drawn });
            }
            return;
        }
        for t in p.hand.tiles().iter() {
            if s.kuikae & bit(t.kind()) == 0 {
                out.push(Action::Discard { tile: t, riichi: false });
            }
        }
        let may_riichi = source != TurnStart::Call
            && p.closed()
            && self.table.scores[usize::from(seat)] >= 1000
            && self.table.draws_left >= self.rules.players
            && p.riichi == Riichi::None;
        if may_riichi && shanten(p.hand.counts()) <= 0 {
            let held = p.held();
            // without a closed kan the exact shanten already says a wait exists (four copies at most in the
            // hand); with one, the kan's kind may be the only wait: ask for the waits
            let has_kan = p.melds.iter().any(|m| m.kind == MeldKind::Ankan);
            let mut counts = *p.hand.counts();
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
            for t in p.hand.tiles().iter() {
                if tenpai_after & bit(t.kind()) != 0 {
                    out.push(Action::Discard { tile: t, riichi: true });
                }
            }
        }
        if can_kan {
            for k in 0..34u8 {
                if p.hand.counts()[usize::from(k)] == 4 {
                    out.push(Action::Ankan { kind: Kind::from_index(k) });
                }
            }
            for m in p.melds.iter().filter(|m| m.kind == MeldKind::Pon) {
                for t in m.base_kind().ids() {
                    if p.hand.contains(t) {
                        out.push(Action::Kakan { tile: t });
                    }
                }
            }
        }
        if three && source != TurnStart::Call && self.table.draws_left > 0 {
            for t in Kind::NORTH.ids() {
                if p.hand.contains(t) {
                    out.push(Action::Nuki { tile: t });
                }
            }
        }
    }

    /// A closed kan in riichi may not change the waits (Tenhou's rule).
    pub fn riichi_ankan_keeps_waits(&self, s: &SeatState, k: Kind) -> bool {
        let mut before = *s.hand.counts();
        before[usize::from(k.index())] -= 1;
        let held = s.held();
        let mut after = before;
        after[usize::from(k.index())] = 0;
        waits_of(&before, &held) == waits_of(&after, &held)
    }

    /// Chi, pon and daiminkan open to `seat` on the discard `tile` of `from`.
    pub fn call_options(&self, seat: u8, from: u8, tile: Tile, out: &mut Vec<Action>) {
        let p = &self.table.seats[usize::from(seat)];
        if p.riichi.is_declared() || self.table.draws_left == 0 {
            return;
        }
        let k = tile.kind();
        let ki = usize::from(k.index());
        let have = p.hand.counts()[ki];
        let ids: ArrayVec<Tile, 4> = k.ids().into_iter().filter(|&t| p.hand.contains(t)).collect();
        if have >= 2 {
            for i in 0..ids.len() {
                for j in i + 1..ids.len() {
                    let pair = [ids[i], ids[j]];
                    if self.call_leaves_discard(p, &pair, MeldKind::Pon, tile, from, seat) {
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
                for ta in ka.ids().into_iter().filter(|&t| p.hand.contains(t)) {
                    for tb in kb.ids().into_iter().filter(|&t| p.hand.contains(t)) {
                        let pair = [ta, tb];
                        if self.call_leaves_discard(p, &pair, MeldKind::Chi, tile, from, seat) {
                            out.push(Action::Chi { tiles: pair });
                        }
                    }
                }
            }
        }
    }

    /// A chi or pon is allowed only when the hand keeps a tile that kuikae lets it discard.
    fn call_leaves_discard(
        &self,
        s: &SeatState,
        pair: &[Tile; 2],
        kind: MeldKind,
        tile: Tile,
        from: u8,
        seat: u8,
    ) -> bool {
        let Ok(meld) = Meld::call(kind, pair, tile, (from + 4 - seat) % 4) else { return false };
        let forbidden = kuikae_of(&meld);
        let mut counts = *s.hand.counts();
        for t in pair {
            counts[usize::from(t.kind().index())] -= 1;
        }
        (0..34).any(|k| counts[k] > 0 && forbidden & (1 << k) == 0)
    }

    /// The tile `seat` just drew (`replacement`: after a kan or north) completes its hand with a yaku.
    pub fn tsumo_ok(&self, seat: u8, tile: Tile, replacement: bool) -> bool {
        self.extras.waits & bit(tile.kind()) != 0
            && self.table.score_win(self.ruleset, seat, seat, tile, Offer::Discard, replacement, Vec::new()).is_some()
    }

    /// `seat` may ron `tile` shown by `from` as `offer`: a wait, not furiten, a yaku (a closed kan: thirteen
    /// orphans only).
    pub fn can_ron(&self, seat: u8, from: u8, tile: Tile, offer: Offer) -> bool {
        let s = self.extras;
        if s.waits & bit(tile.kind()) == 0 || s.furiten() {
            return false;
        }
        let Some(sc) = self.table.score_win(self.ruleset, seat, from, tile, offer, false, Vec::new()) else {
            return false;
        };
        offer != Offer::Ankan || sc.yakuman.iter().any(|&y| y == 47 || y == 48)
    }
}
