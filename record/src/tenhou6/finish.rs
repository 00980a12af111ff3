//! A round's end written as Tenhou writes it: `REACH step=2` if the last riichi discard stands, then the `AGARI`
//! tags of its wins (paid, with the ura indicators a riichi winner shows) or its `RYUUKYOKU`.

use haifu_rules::score;
use haifu_rules::shanten::shanten;
use haifu_rules::{Meld, Tile};

use super::model::{Game, RoundResult, Win};
use super::order::{Discarded, End, Play};
use super::result::{score, yaku_list, ALL_NOTEN, ALL_TENPAI};
use crate::event::Event;
use crate::tags::{Agari, DrawKind, Ryuukyoku, Yaku};

impl Play<'_> {
    /// Writes the round's end: REACH step 2 if the last riichi discard stands, the AGARI or RYUUKYOKU tags.
    pub(super) fn finish(&mut self, end: End, last_of: Option<&Game>) -> Result<(), String> {
        let hands: Vec<Vec<Tile>> = (0..4).map(|s| self.hand(s).iter().collect()).collect();
        match &self.round.result {
            RoundResult::Wins(wins) => {
                let mut ura: Option<Vec<Tile>> = None;
                for (i, w) in wins.iter().enumerate() {
                    let last_of = if i + 1 == wins.len() { last_of } else { None };
                    let agari = self.agari(w, i == 0, end, &hands, &mut ura, last_of)?;
                    self.emit(Event::agari(agari))?;
                }
            }
            RoundResult::Draw { kind, name, deltas } => {
                let draw = self.ryuukyoku(*kind, name, *deltas, end, &hands, last_of)?;
                self.emit(Event::ryuukyoku(draw))?;
            }
        }
        Ok(())
    }

    /// One win of the result, paid (`first`: the first winner, who takes the honba and the sticks): `ura` holds
    /// the ura indicators once a riichi winner has shown them.
    fn agari(
        &mut self,
        w: &Win,
        first: bool,
        end: End,
        hands: &[Vec<Tile>],
        ura: &mut Option<Vec<Tile>>,
        last_of: Option<&Game>,
    ) -> Result<Agari, String> {
        let n = self.n;
        if w.who >= n || w.from >= n || w.pao >= n {
            return Err("win seat out of range".into());
        }
        let (mut hand, machi) = match end {
            End::Drawn(s) => (hands[s].clone(), self.table.seats[s].last_draw.ok_or("tsumo without a draw")?),
            End::Discard(Discarded { tile, .. }) | End::Robbed(_, tile) => {
                let mut h = hands[w.who].clone();
                h.push(tile);
                (h, tile)
            }
        };
        hand.sort();
        let (before, kyotaku) = (self.table.scores, self.table.kyotaku);
        let sum: i32 = w.deltas.iter().sum();
        if sum < 0 || sum % 1000 != 0 || sum / 1000 > i32::from(kyotaku) {
            return Err(format!("win deltas {:?} add to {sum}, not a number of the {kyotaku} sticks", w.deltas));
        }
        let taken = (sum / 1000) as u8;
        let (fu, points, limit) = match &w.score {
            Some(s) => score(s, w.who == w.from, usize::from(self.round.kyoku % 4) == w.who, n)?,
            // no score string (some converters): the winner's gain without sticks and honba
            None => {
                let honba = if first { score::honba_gain(n as u8, self.round.honba) } else { 0 };
                (0, (w.deltas[w.who] - sum - honba).max(0), 0)
            }
        };
        let (mut yaku, yakuman) = yaku_list(&w.yaku)?;
        let riichi = self.table.seats[w.who].riichi.is_declared();
        // Tenhou lists ura for every riichi winner, 0 han included (some writers drop that entry)
        if riichi && yakuman.is_empty() && !yaku.is_empty() && yaku.iter().all(|y| y.id != 53) {
            yaku.push(Yaku { id: 53, han: 0 });
        }
        let ura_indicators = if riichi && !self.round.ura.is_empty() {
            if ura.is_none() {
                let mut v = Vec::new();
                for c in &self.round.ura {
                    v.push(self.ids.fresh(c.kind(), c.red())?);
                }
                *ura = Some(v);
            }
            ura.clone().unwrap_or_default()
        } else {
            Vec::new()
        };
        // the owari, when this win ends the game, is of the scores it leaves
        let after: [i32; 4] = std::array::from_fn(|s| before[s] + w.deltas[s]);
        Ok(Agari {
            honba: self.round.honba,
            kyotaku: taken,
            hand,
            melds: self.table.seats[w.who].melds.iter().rev().map(Meld::encode).collect(), // newest first, as Tenhou
            machi,
            fu,
            points,
            limit,
            yaku,
            yakuman,
            dora_indicators: self.table.dora.to_vec(),
            ura_indicators,
            who: w.who as u8,
            from_who: w.from as u8,
            pao_who: (w.pao != w.who).then_some(w.pao as u8),
            before,
            delta: w.deltas,
            owari: last_of.and_then(|g| g.owari(self.round.kyoku, after, kyotaku - taken)),
        })
    }

    /// The draw, with the hands Tenhou shows for it.
    fn ryuukyoku(
        &mut self,
        kind: DrawKind,
        name: &str,
        deltas: [i32; 4],
        end: End,
        hands: &[Vec<Tile>],
        last_of: Option<&Game>,
    ) -> Result<Ryuukyoku, String> {
        if let End::Discard(d) = end {
            if kind != DrawKind::Ron3 {
                self.accept_riichi(d)?;
            }
        }
        let mut shown: [Option<Vec<Tile>>; 4] = Default::default();
        let tenpai = |s: usize| {
            let hand = self.hand(s);
            hand.len() % 3 == 1 && shanten(&hand.counts()) == 0
        };
        for s in 0..self.n {
            let show = match (kind, end) {
                (DrawKind::Exhaustive, _) if deltas.iter().any(|&d| d != 0) => deltas[s] > 0,
                (DrawKind::Exhaustive, _) if name == ALL_TENPAI => true,
                (DrawKind::Exhaustive, _) if name == ALL_NOTEN => false,
                (DrawKind::Exhaustive | DrawKind::Nagashi, _) => tenpai(s),
                (DrawKind::Yao9, End::Drawn(who)) => s == who,
                (DrawKind::Reach4, _) => true,
                (DrawKind::Ron3, End::Discard(d)) => s != d.seat,
                _ => false,
            };
            if show {
                shown[s] = Some(hands[s].clone());
            }
        }
        let (before, kyotaku) = (self.table.scores, self.table.kyotaku);
        let after: [i32; 4] = std::array::from_fn(|s| before[s] + deltas[s]);
        let owari = last_of.and_then(|g| g.owari(self.round.kyoku, after, kyotaku));
        Ok(Ryuukyoku { kind, honba: self.round.honba, kyotaku, shown, before, delta: deltas, owari })
    }
}
