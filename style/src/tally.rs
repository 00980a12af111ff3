//! What a seat did in a game, counted: the rates of a style profile and the suit sequences of its discards.
//!
//! Per seat and game (each count over the seat's completed rounds):
//! - `riichi`: rounds in which the seat declared riichi;
//! - `calls`: rounds in which it called chi or pon (open kans are rare and follow no discard of their own);
//! - `wins`, `deal_ins`: rounds it won, rounds whose winning tile it discarded;
//! - `decisions`, `tsumogiri`: its chosen discards (not those forced by its own riichi), and those of the tile
//!   just drawn;
//! - `win_turns`, `win_points`: over its wins, the sum of the winning turn (its draws and calls in the round,
//!   the winning draw of a tsumo included) and of the hand's points (`AGARI ten`, without honba and sticks);
//! - `facing_riichi`, `folds`: rounds in which another seat declared riichi before this one did (or this one
//!   never did) and this seat still discarded after it; of those, the rounds it ended neither winning, nor
//!   dealing in, nor declaring riichi itself, nor tenpai at an exhaustive draw (it gave the hand up).

use serde::{Deserialize, Serialize};

use haifu_ingest::extract::{Outcome, TileSource};

use crate::played::Played;

/// Counts of one seat, one player, or everyone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub games: u64,
    pub rounds: u64,
    pub decisions: u64,
    pub riichi: u64,
    pub calls: u64,
    pub wins: u64,
    pub deal_ins: u64,
    pub tsumogiri: u64,
    pub win_turns: u64,
    pub win_points: u64,
    pub facing_riichi: u64,
    pub folds: u64,
}

/// The (numerator, denominator) of a share.
pub type Share = fn(&Tally) -> (u64, u64);

/// A rate of a profile: its name, and how it is computed from counts (`None` when its denominator is 0).
pub struct Rate {
    pub name: &'static str,
    pub what: &'static str,
    pub of: fn(&Tally) -> Option<f64>,
    /// Numerator and denominator when the rate is a share (binomial), for likelihoods; `None` for averages.
    pub share: Option<Share>,
}

fn ratio(a: u64, b: u64) -> Option<f64> {
    (b > 0).then(|| a as f64 / b as f64)
}

/// The rates of a profile, in the order of the profiles table.
pub const RATES: [Rate; 8] = [
    Rate {
        name: "riichi_rate",
        what: "rounds with a riichi declared",
        of: |t| ratio(t.riichi, t.rounds),
        share: Some(|t| (t.riichi, t.rounds)),
    },
    Rate {
        name: "call_rate",
        what: "rounds with a chi or pon",
        of: |t| ratio(t.calls, t.rounds),
        share: Some(|t| (t.calls, t.rounds)),
    },
    Rate { name: "win_rate", what: "rounds won", of: |t| ratio(t.wins, t.rounds), share: Some(|t| (t.wins, t.rounds)) },
    Rate {
        name: "deal_in_rate",
        what: "rounds dealt in",
        of: |t| ratio(t.deal_ins, t.rounds),
        share: Some(|t| (t.deal_ins, t.rounds)),
    },
    Rate {
        name: "tsumogiri_rate",
        what: "chosen discards of the tile just drawn",
        of: |t| ratio(t.tsumogiri, t.decisions),
        share: Some(|t| (t.tsumogiri, t.decisions)),
    },
    Rate { name: "win_turn", what: "average winning turn", of: |t| ratio(t.win_turns, t.wins), share: None },
    Rate { name: "win_points_avg", what: "average points of a win", of: |t| ratio(t.win_points, t.wins), share: None },
    Rate {
        name: "fold_rate",
        what: "rounds given up after another's riichi",
        of: |t| ratio(t.folds, t.facing_riichi),
        share: Some(|t| (t.folds, t.facing_riichi)),
    },
];

impl Tally {
    pub fn add(&mut self, o: &Tally) {
        self.games += o.games;
        self.rounds += o.rounds;
        self.decisions += o.decisions;
        self.riichi += o.riichi;
        self.calls += o.calls;
        self.wins += o.wins;
        self.deal_ins += o.deal_ins;
        self.tsumogiri += o.tsumogiri;
        self.win_turns += o.win_turns;
        self.win_points += o.win_points;
        self.facing_riichi += o.facing_riichi;
        self.folds += o.folds;
    }

    /// The rates of [`RATES`], in order.
    pub fn rates(&self) -> [Option<f64>; 8] {
        std::array::from_fn(|i| (RATES[i].of)(self))
    }
}

/// One seat's counts in each game, by seat (`n_players` of them).
pub fn of_game(g: &Played) -> Vec<Tally> {
    let n = usize::from(g.n_players);
    let mut t = vec![Tally { games: 1, ..Tally::default() }; n];
    for d in g.decisions.iter().filter(|d| !d.in_riichi) {
        let s = &mut t[usize::from(d.seat)];
        s.decisions += 1;
        s.tsumogiri += u64::from(d.tsumogiri);
    }
    for (r, round) in g.rounds.iter().enumerate() {
        let decisions: Vec<_> = g.decisions.iter().filter(|d| usize::from(d.round) == r).collect();
        // the event at which each seat declared riichi, if it did
        let mut riichi_at = [None; 4];
        let mut called = [false; 4];
        let mut turns = [0u8; 4];
        for d in &decisions {
            let seat = usize::from(d.seat);
            if d.riichi && riichi_at[seat].is_none() {
                riichi_at[seat] = Some(d.event_index);
            }
            called[seat] |= matches!(d.source, TileSource::Chi | TileSource::Pon);
            turns[seat] = turns[seat].max(d.turn);
        }
        for (seat, s) in t.iter_mut().enumerate() {
            s.rounds += 1;
            s.riichi += u64::from(riichi_at[seat].is_some());
            s.calls += u64::from(called[seat]);
            let outcome = round.outcomes[seat];
            s.deal_ins += u64::from(outcome == Outcome::DealIn);
            for w in round.wins.iter().filter(|w| usize::from(w.who) == seat) {
                s.wins += 1;
                // a tsumo's winning draw is one more turn than the last discard
                s.win_turns += u64::from(turns[seat]) + u64::from(w.from_who == w.who);
                s.win_points += w.points.max(0) as u64;
            }
            // the first riichi of another seat before this seat's own
            let own = riichi_at[seat];
            let first_other = (0..riichi_at.len())
                .filter(|&o| o != seat)
                .filter_map(|o| riichi_at[o])
                .filter(|&at| own.is_none_or(|mine| at < mine))
                .min();
            if let Some(at) = first_other {
                if decisions.iter().any(|d| usize::from(d.seat) == seat && d.event_index > at) {
                    s.facing_riichi += 1;
                    let gave_up = own.is_none()
                        && !matches!(outcome, Outcome::Win | Outcome::DealIn | Outcome::DrawTenpai | Outcome::Pao);
                    s.folds += u64::from(gave_up);
                }
            }
        }
    }
    t
}

/// The suit sequences (SPEC 2) of a seat's chosen discards: for each such discard, every suit whose shape the
/// discard (or the call before it) changed, as (before key, after key), the pairs `haifu mine` counts.
pub fn sequences(g: &Played, seat: u8) -> Vec<(u32, u32)> {
    let chosen = g.decisions.iter().filter(|d| d.seat == seat && !d.in_riichi);
    chosen.flat_map(|d| d.keys).filter(|(b, a)| b != a).collect()
}
