//! What a seat may do now: the legal actions of a turn or a response, and why an action or a win is refused.

use haifu_record::state::Riichi;

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
        let asked = match self.phase {
            Phase::Turn { seat: s, .. } => s == seat,
            // a seat that has answered waits for the others
            Phase::Respond(r) => r.waiting & !r.answered & seat_bit(seat) != 0,
            Phase::Over => false,
        };
        if asked {
            self.round.legal_actions(&self.table, seat, out);
        }
    }

    /// The rule an action that is not legal now breaks, as a short name for reports (`haifu verify --json`):
    /// `not_your_turn`, `tile_not_in_hand`, `kuikae`, `riichi_not_tenpai`, `riichi_open_hand`,
    /// `riichi_without_1000`, `riichi_too_few_tiles`, `riichi_twice`, `riichi_discard_not_drawn`,
    /// `furiten_discard` / `_temporary` / `_riichi`, `no_yaku`, `not_complete`, `not_offered`,
    /// `call_not_allowed`, `not_allowed`.
    pub fn rule_broken(&self, seat: u8, action: &Action) -> &'static str {
        let s = self.round.seat(seat);
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
        let s = self.round.seat(seat);
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
        let s = self.round.seat(seat);
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
