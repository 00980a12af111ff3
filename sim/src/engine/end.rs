//! The end of a round (wins, exhaustive and abortive draws, their payments), the next deal, the end of the
//! game and `owari`.

use arrayvec::ArrayVec;
use haifu_record::event::Event;
use haifu_record::state::WinValue;
use haifu_rules::Tile;

use super::*;

impl<W: Wall> Engine<W> {
    pub(super) fn win(&mut self, winners: &[u8], from: u8, tile: Tile, kind: WinKind) -> Result<(), IllegalAction> {
        // a ronned riichi discard is no riichi: its stick is not paid
        if from != winners[0] {
            self.riichi_pending = None;
        }
        let (offer, rinshan) = match kind {
            WinKind::Tsumo { rinshan } => (Offer::Discard, rinshan),
            WinKind::Ron(o) => (o, false),
        };
        let mut wins = Vec::with_capacity(winners.len());
        for (i, &w) in winners.iter().enumerate() {
            let riichi = self.table.seats[usize::from(w)].riichi.is_accepted();
            let ura = if riichi { self.wall.ura(self.table.dora.len()) } else { Vec::new() };
            let sc = self
                .table
                .score_win(self.ruleset, w, from, tile, offer, rinshan, ura.clone())
                .ok_or(IllegalAction::NotLegal { seat: w, action: "win (no score)".into() })?;
            let pao = score::pao_payer(&sc, self.round.seat(w).pao, from);
            let (honba, sticks) = if i == 0 { (self.table.honba, self.table.kyotaku) } else { (0, 0) };
            let delta = score::win_deltas(&sc, self.ruleset, w, from, self.table.dealer, pao, honba, sticks);
            let value = WinValue {
                fu: sc.fu,
                points: sc.points,
                limit: sc.limit,
                yaku: sc.yaku.iter().map(|&(id, han)| Yaku { id, han }).collect(),
                yakuman: sc.yakuman,
                ura_indicators: ura,
                pao_who: pao,
                delta,
                sticks,
            };
            let agari = self.table.win_end(w, from, tile, value);
            self.last_end = Some((self.events.len(), RoundEndTag::Agari(Box::new(agari.clone()))));
            self.emit(Event::agari(agari.clone()));
            wins.push(agari);
        }
        let renchan = winners.contains(&self.table.dealer);
        self.end_round(RoundEnd::Agari(wins), renchan, false, false)
    }

    pub(super) fn exhaustive_draw(&mut self) -> Result<(), IllegalAction> {
        let np = usize::from(self.rules.players);
        let mut tenpai = [false; 4];
        for (i, (t, p)) in tenpai.iter_mut().zip(&self.table.seats).enumerate().take(np) {
            let s = self.round.seat(i as u8);
            *t = agari::tenpai_at_draw(p.hand.counts());
            // `waits` leaves out kinds held four times with the melds: the rule's edge cases (counted)
            if s.waits == 0 && *t {
                self.tenpai_rule.tenpai_with_meld_copies += 1;
            } else if !*t && shanten(p.hand.counts()) == 0 {
                self.tenpai_rule.noten_with_hand_copies += 1;
            }
        }
        let nagashi: ArrayVec<u8, 4> = (0..np as u8).filter(|&s| self.round.seat(s).nagashi).collect();
        let (kind, delta) = if nagashi.is_empty() {
            (DrawKind::Exhaustive, score::exhaustive_draw_deltas(tenpai, self.rules.players))
        } else {
            (DrawKind::Nagashi, score::nagashi_deltas(&nagashi, self.table.dealer, self.ruleset))
        };
        let shown: ArrayVec<u8, 4> = (0..np as u8).filter(|&s| tenpai[usize::from(s)]).collect();
        let renchan = tenpai[usize::from(self.table.dealer)];
        self.write_draw(kind, &shown, delta);
        self.end_round(RoundEnd::Ryuukyoku(self.last_draw_tag()), renchan, false, true)
    }

    pub(super) fn abort(&mut self, kind: DrawKind, shown: &[u8]) -> Result<(), IllegalAction> {
        self.write_draw(kind, shown, [0; 4]);
        self.end_round(RoundEnd::Ryuukyoku(self.last_draw_tag()), true, true, true)
    }

    pub(super) fn last_draw_tag(&self) -> Ryuukyoku {
        match &self.last_end {
            Some((_, RoundEndTag::Ryuukyoku(d))) => (**d).clone(),
            _ => unreachable!("a draw tag was just written"),
        }
    }

    pub(super) fn write_draw(&mut self, kind: DrawKind, shown: &[u8], delta: [i32; 4]) {
        let d = self.table.draw_end(kind, shown, delta);
        self.last_end = Some((self.events.len(), RoundEndTag::Ryuukyoku(Box::new(d.clone()))));
        self.emit(Event::ryuukyoku(d));
    }

    pub(super) fn end_round(
        &mut self,
        end: RoundEnd,
        renchan: bool,
        abortive: bool,
        draw: bool,
    ) -> Result<(), IllegalAction> {
        let dealer_won = matches!(&end, RoundEnd::Agari(w) if w.iter().any(|a| a.who == self.table.dealer));
        let outcome =
            RoundOutcome { kyoku: self.table.kyoku, dealer: self.table.dealer, renchan, abortive, dealer_won };
        self.last_round = Some(end);
        self.rounds_finished += 1;
        if renchan || draw {
            self.table.honba += 1;
        } else {
            self.table.honba = 0;
        }
        if !renchan {
            self.table.kyoku = self.rules.next_kyoku(self.table.kyoku);
        }
        if table::game_ends(&self.rules, &self.table.scores, outcome) {
            self.finish();
            return Ok(());
        }
        self.start_round()
    }

    /// Writes `owari` on the last round's end tag: leftover sticks to the first place, game points.
    pub(super) fn finish(&mut self) {
        self.final_before = Some((self.table.scores, self.table.kyotaku));
        let (fin, points) = table::owari(&self.rules, &self.table.scores, self.table.kyotaku);
        self.table.scores = fin;
        self.table.kyotaku = 0;
        let owari = Some(Owari { scores: fin, points });
        if let Some((at, end)) = self.last_end.take() {
            self.events[at] = end.with_owari(owari);
        }
        self.phase = Phase::Over;
    }

    pub(super) fn start_round(&mut self) -> Result<(), IllegalAction> {
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
        self.table.kyoku = kyoku;
        self.table.honba = honba;
        self.table.kyotaku = kyotaku;
        self.table.scores = scores;
        self.final_before = None;
        self.start_round()
    }

    pub(super) fn begin_round(&mut self, deal: Deal) -> Result<(), IllegalAction> {
        let np = self.rules.players;
        self.kan_seats = 0;
        self.pending_dora = None;
        self.riichi_pending = None;
        self.first_discards = 0;
        self.first_wind = None;
        self.kan4_armed = false;
        self.rounds_started += 1;
        let init = Init {
            kyoku: self.table.kyoku,
            honba: self.table.honba,
            kyotaku: self.table.kyotaku,
            dice: deal.dice,
            dora_indicator: deal.dora_indicator,
            scores: self.table.scores,
            dealer: self.table.kyoku % 4,
            hands: deal.hands,
        };
        self.table.start(&init, np);
        self.emit(Event::init(init));
        self.draw(self.table.dealer, false)
    }
}
