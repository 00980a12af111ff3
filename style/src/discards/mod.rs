//! The discard model (issue 50): which kind a player discards among the kinds the hand holds, as a conditional
//! logit. Every chosen discard after a draw is one choice; each kind held is a candidate described by a few
//! features fixed before any measurement ([`feature_name`]): its class by turn (honors by their value to the
//! seat, terminals, 2/8, 3/7; the 4-6 are the reference), whether it is isolated by turn, the one tile of a
//! two-sided, edge or closed partial, a pair or a set,
//! whether discarding it backs off from tenpai (with and without another seat's riichi), how much of the best
//! acceptance it gives up, whether it is the tile just drawn, a dora, safe against every riichi (genbutsu, suji)
//! or an honor already seen twice. A candidate's utility is the coefficients' sum over its features, and the
//! player discards it with the softmax of the utilities over the candidates.
//! Beside the kinds, which copy goes where the hand held another of the kind drawn and discarded ([`Copies`]):
//! one coefficient more, `drawn_copy`, that identification reads and the networks' tilts do not.
//!
//! Everyone's coefficients are fitted on every seat's choices (of at most [`EVERYONE_GAMES`] games); a player's
//! are the most probable under a normal prior centred on everyone's whose deviations are the players' spread,
//! estimated from the players' own choices ([`crate::newton::fit_players`]), so a player with few choices keeps
//! everyone's and one with many moves only as far as the choices say, on the coefficients players differ in. Unlike the habits' shares, one choice counts once, however many
//! classes the hand held, and the honors that no suit sequence holds (SPEC 2) are weighed against every other
//! kind the hand could give up. Identification scores a block by the log-likelihood of its choices under
//! each player's coefficients.
//!
//! Left out: discards in riichi (forced), after a chi or pon (kuikae restricts them; the call is the choice
//! there), and hands holding one kind. A riichi declaration chooses among the kinds that keep tenpai.
//!
//! Here: the features and the choices read from a game; [`fit`] the coefficients fitted and stored; [`personal`]
//! a player's own coefficients against everyone's on unseen choices.

mod fit;
mod personal;
mod refit;
#[cfg(test)]
mod testing;
mod tilt;

use haifu_imitate::rank::Winds;
use haifu_ingest::extract::TileSource;
use haifu_rules::shanten::shanten_each;
use haifu_rules::{Counts, Kind, KINDS};

use crate::habits::KindClass;
use crate::played::{DecisionRow, Played};

pub use fit::{distinct_from, distinctive, Coefficients, DiscardModel, Distinct, Fitted, ModelTable, EVERYONE_GAMES};
pub(crate) use personal::Paired;
pub use personal::{
    Gains, Growth, NetworkGains, NetworkSeat, NetworkSeats, PersonalGain, PersonalGains, TestSeat, Tilt,
};
pub use refit::{Refit, RefitCoefficient, RefitMeta, Refitted, REFIT_FILE, REFIT_META};
pub use tilt::{tilt, Tilting};

/// The database's file of fitted coefficients.
pub const MODEL_FILE: &str = "discard_model.parquet";

/// Standard deviation of the normal prior a player's coefficients have around everyone's where too few players
/// have choices to measure their spread: a difference of 0.5 in a coefficient multiplies the odds of the
/// candidates it marks by e^0.5 = 1.6. Fixed before any run (and every coefficient's deviation until 2026-12-05).
pub const PRIOR_SD: f64 = 0.5;

/// The turns of the class and isolation features: (name, first turn, last turn).
const PHASES: [(&str, u8, u8); 4] = [("t1", 1, 1), ("t2_6", 2, 6), ("t7_12", 7, 12), ("t13", 13, u8::MAX)];
/// The classes with a coefficient of their own; the 4-6 are the reference (a coefficient of 0).
const CLASSES: [KindClass; 6] = [
    KindClass::Dragon,
    KindClass::ValueWind,
    KindClass::GuestWind,
    KindClass::Terminal,
    KindClass::TwoEight,
    KindClass::ThreeSeven,
];
const ISOLATED_AT: usize = CLASSES.len() * PHASES.len();
const PAIR: usize = ISOLATED_AT + PHASES.len();
const SET: usize = PAIR + 1;
const BACK_OFF: usize = SET + 1;
const BACK_OFF_THREAT: usize = BACK_OFF + 1;
const TSUMOGIRI: usize = BACK_OFF_THREAT + 1;
const DORA: usize = TSUMOGIRI + 1;
const GENBUTSU: usize = DORA + 1;
const SUJI: usize = GENBUTSU + 1;
const HONOR_SEEN: usize = SUJI + 1;
/// A lone suit tile whose only neighbour within two ([`partial`]) is adjacent, 23 to 78 (two-sided), adjacent at
/// the edge, 12 or 89, or two apart: which partial the player gives up.
const RYANMEN: usize = HONOR_SEEN + 1;
const PENCHAN: usize = RYANMEN + 1;
const KANCHAN: usize = PENCHAN + 1;
/// The one feature that is a number rather than a mark: the share of the best acceptance given up.
const SHORTFALL: usize = KANCHAN + 1;
/// Not a feature of any candidate kind but the coefficient of the copy choices ([`Copies`]): the log-odds of
/// discarding the copy just drawn rather than one from the hand.
pub(super) const DRAWN_COPY: usize = SHORTFALL + 1;
/// How many coefficients the model has.
pub const FEATURES: usize = DRAWN_COPY + 1;
// a candidate's marks are the bits of a u64
const _: () = assert!(FEATURES < 64);

fn phase_of(turn: u8) -> usize {
    PHASES.iter().position(|&(_, lo, hi)| (lo..=hi).contains(&turn)).unwrap_or(0)
}

/// A coefficient's name in the database and on the pages (`guest_wind_t1`, `isolated_t7_12`, `genbutsu`).
pub fn feature_name(i: usize) -> String {
    match i {
        _ if i < ISOLATED_AT => format!("{}_{}", CLASSES[i % CLASSES.len()].name(), PHASES[i / CLASSES.len()].0),
        _ if i < PAIR => format!("isolated_{}", PHASES[i - ISOLATED_AT].0),
        PAIR => "pair".into(),
        SET => "set".into(),
        BACK_OFF => "back_off".into(),
        BACK_OFF_THREAT => "back_off_threat".into(),
        TSUMOGIRI => "tsumogiri".into(),
        DORA => "dora".into(),
        GENBUTSU => "genbutsu".into(),
        SUJI => "suji".into(),
        HONOR_SEEN => "honor_seen_twice".into(),
        RYANMEN => "ryanmen".into(),
        PENCHAN => "penchan".into(),
        KANCHAN => "kanchan".into(),
        SHORTFALL => "acceptance_given_up".into(),
        _ => "drawn_copy".into(),
    }
}

/// What a coefficient weighs, in words.
pub fn feature_what(i: usize) -> String {
    let turns = |(_, lo, hi): (&str, u8, u8)| match hi {
        u8::MAX => format!("turn {lo}+"),
        _ if lo == hi => format!("turn {lo}"),
        _ => format!("turns {lo}-{hi}"),
    };
    match i {
        _ if i < ISOLATED_AT => {
            let (class, phase) = (CLASSES[i % CLASSES.len()], PHASES[i / CLASSES.len()]);
            format!("discarding {} rather than a 4-6 ({})", class.what(), turns(phase))
        }
        _ if i < PAIR => format!("discarding an isolated tile ({})", turns(PHASES[i - ISOLATED_AT])),
        PAIR => "breaking a pair".into(),
        SET => "breaking a set of three".into(),
        BACK_OFF => "discarding away from tenpai, nobody in riichi".into(),
        BACK_OFF_THREAT => "discarding away from tenpai after another's riichi".into(),
        TSUMOGIRI => "discarding the kind just drawn".into(),
        DORA => "discarding a dora".into(),
        GENBUTSU => "discarding a tile safe against every riichi (genbutsu)".into(),
        SUJI => "discarding a suji tile against every riichi".into(),
        HONOR_SEEN => "discarding an honor already seen twice".into(),
        RYANMEN => "breaking a two-sided partial (a lone tile whose only neighbour is adjacent, 23 to 78)".into(),
        PENCHAN => "breaking an edge partial (a lone tile whose only neighbour makes 12 or 89)".into(),
        KANCHAN => "breaking a closed partial (a lone tile whose only neighbour is two apart)".into(),
        SHORTFALL => "the share of the best acceptance given up".into(),
        _ => "of two copies of the kind discarded, the one just drawn rather than one from the hand".into(),
    }
}

/// One kind the hand could discard: its marks (bit `f` for feature `f`, the low bits), the kind (6 bits from
/// bit 40: a network's output is read by it) and the acceptance it gives up (the top 16 bits, in steps of
/// 1/65535), in 8 bytes: a database of a year's games holds millions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate(u64);

const KIND_SHIFT: u32 = 40;
const SHORTFALL_SHIFT: u32 = 48;
const MARKS: u64 = (1 << SHORTFALL) - 1;
const _: () = assert!(SHORTFALL <= KIND_SHIFT as usize && KIND_SHIFT + 6 <= SHORTFALL_SHIFT);

impl Candidate {
    /// A candidate of kind `kind` (0-33) with these marks (bits below [`SHORTFALL`]) giving up this share of the
    /// best acceptance (0-1).
    pub fn new(kind: usize, marks: u64, shortfall: f64) -> Candidate {
        let steps = (shortfall.clamp(0.0, 1.0) * 65535.0).round() as u64;
        Candidate(marks & MARKS | (kind as u64 & 63) << KIND_SHIFT | steps << SHORTFALL_SHIFT)
    }

    pub fn marks(&self) -> u64 {
        self.0 & MARKS
    }

    /// The kind (0-33).
    pub fn kind(&self) -> usize {
        (self.0 >> KIND_SHIFT & 63) as usize
    }

    /// The share of the best acceptance given up.
    pub fn shortfall(&self) -> f64 {
        (self.0 >> SHORTFALL_SHIFT) as f64 / 65535.0
    }

    fn utility(&self, w: &[f64; FEATURES]) -> f64 {
        let mut u = self.shortfall() * w[SHORTFALL];
        let mut m = self.marks();
        while m != 0 {
            u += w[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        u
    }

    /// The features this candidate has (its marks, and the acceptance given up where not 0), and how many.
    fn features(&self) -> ([usize; FEATURES], usize) {
        let (mut idx, mut n) = ([0; FEATURES], 0);
        let mut m = self.marks();
        while m != 0 {
            idx[n] = m.trailing_zeros() as usize;
            n += 1;
            m &= m - 1;
        }
        if self.0 >> SHORTFALL_SHIFT != 0 {
            idx[n] = SHORTFALL;
            n += 1;
        }
        (idx, n)
    }

    /// The value of feature `f`.
    fn value(&self, f: usize) -> f64 {
        match f {
            SHORTFALL => self.shortfall(),
            _ if f < SHORTFALL => f64::from(u8::from(self.0 & 1 << f != 0)),
            _ => 0.0,
        }
    }

    /// The features as numbers, added into `x` times `scale`.
    fn add_to(&self, x: &mut [f64; FEATURES], scale: f64) {
        let mut m = self.marks();
        while m != 0 {
            x[m.trailing_zeros() as usize] += scale;
            m &= m - 1;
        }
        x[SHORTFALL] += scale * self.shortfall();
    }
}

/// One choice: its candidates' place in [`Discards::candidates`], which one was discarded, and which of the
/// seat's chosen discards of the game it is (from 0; the discards in riichi not counted): a network's positions
/// of the seat are matched to it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Choice {
    start: u32,
    len: u8,
    chosen: u8,
    at: u16,
}

/// The copy choices of a seat: after a draw the kind discarded was the kind drawn, and the hand held another
/// copy of it. Which copy went, the one just drawn (tsumogiri) or one from the hand, changes nothing in the hand
/// and shows only to the other seats: a habit of the player's hands on the table, not of the player's play (3% of
/// the corpus's four-player discards; the players' shares of the drawn copy run from 78% to 97%, 10th to 90th
/// percentile). Fives are left out: a red one may be among the copies.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Copies {
    pub drawn: u32,
    pub held: u32,
}

/// Whether which copy of a kind goes is a copy choice ([`Copies`]): every kind but the fives, where a red one
/// may be among the copies. The discard model and the imitator at the table read the same rule.
pub fn copies_alike(kind: Kind) -> bool {
    kind.is_honor() || kind.digit() != 5
}

/// Whether the copy just drawn went, where a decision offers the copy choice ([`Copies`]): a chosen discard
/// after a draw whose kind is the kind drawn, from a hand that held another copy, not a five.
pub(crate) fn copy_choice(d: &DecisionRow) -> Option<bool> {
    let t = d.tiles.as_ref()?;
    let after_draw = matches!(d.source, TileSource::Draw | TileSource::Kan | TileSource::Nuki);
    let (drawn, discard) = (t.source_tile.kind(), t.discard.kind());
    let held = t.hand[usize::from(drawn.index())];
    (after_draw && !d.in_riichi && discard == drawn && held >= 2 && copies_alike(drawn)).then_some(d.tsumogiri)
}

impl Copies {
    fn count(&mut self, tsumogiri: bool) {
        if tsumogiri {
            self.drawn += 1;
        } else {
            self.held += 1;
        }
    }

    fn total(&self) -> f64 {
        f64::from(self.drawn) + f64::from(self.held)
    }

    /// The log-likelihood of the choices at `c`, the log-odds of the drawn copy.
    fn log_likelihood(&self, c: f64) -> f64 {
        f64::from(self.drawn) * log_sigmoid(c) + f64::from(self.held) * log_sigmoid(-c)
    }

    /// The log-likelihood at `c` with its first and second derivative's negative.
    fn curvature(&self, c: f64) -> (f64, f64, f64) {
        let p = log_sigmoid(c).exp();
        (self.log_likelihood(c), f64::from(self.drawn) - self.total() * p, self.total() * p * (1.0 - p))
    }
}

/// ln(1 / (1 + e^-x)), without overflow either way.
fn log_sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

/// A seat's (or a block's, or a player's) chosen discards as the model reads them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Discards {
    candidates: Vec<Candidate>,
    choices: Vec<Choice>,
    pub copies: Copies,
}

impl Discards {
    pub fn add(&mut self, o: &Discards) {
        let shift = self.candidates.len() as u32;
        self.candidates.extend_from_slice(&o.candidates);
        self.choices.extend(o.choices.iter().map(|c| Choice { start: c.start + shift, ..*c }));
        self.copies.drawn += o.copies.drawn;
        self.copies.held += o.copies.held;
    }

    /// How many choices there are.
    pub fn len(&self) -> usize {
        self.choices.len()
    }

    pub fn is_empty(&self) -> bool {
        self.choices.is_empty()
    }

    fn push(&mut self, candidates: &[Candidate], chosen: usize, at: u16) {
        let start = self.candidates.len() as u32;
        self.candidates.extend_from_slice(candidates);
        self.choices.push(Choice { start, len: candidates.len() as u8, chosen: chosen as u8, at });
    }

    /// Each choice: its candidates and the place of the one discarded.
    pub fn each(&self) -> impl Iterator<Item = (&[Candidate], usize)> + '_ {
        self.choices.iter().map(|c| {
            let at = c.start as usize;
            (&self.candidates[at..at + usize::from(c.len)], usize::from(c.chosen))
        })
    }

    /// How many of the choices the most probable candidate under `w` is the one chosen (ties: the first).
    pub fn hits(&self, w: &Coefficients) -> usize {
        self.each().filter(|(cands, chosen)| first_best(cands.iter().map(|c| c.utility(&w.0))) == *chosen).count()
    }

    /// Each choice with its candidates' slice of `offsets` (one number a candidate in the order they are held,
    /// or none: every slice empty).
    pub(super) fn each_offset<'a>(
        &'a self,
        offsets: &'a [f64],
    ) -> impl Iterator<Item = (&'a [Candidate], usize, &'a [f64])> {
        self.choices.iter().map(move |c| {
            let (at, len) = (c.start as usize, usize::from(c.len));
            (&self.candidates[at..at + len], usize::from(c.chosen), offsets.get(at..at + len).unwrap_or(&[]))
        })
    }

    /// Log-likelihood of the choices under `w`.
    pub fn log_likelihood(&self, w: &Coefficients) -> f64 {
        self.log_likelihood_over(w, &[])
    }

    /// Log-likelihood of which tiles went under `w`: the kinds chosen, and the copies ([`Copies`]). What
    /// identification scores a player by; the kinds alone are what a network is judged against.
    pub fn tile_log_likelihood(&self, w: &Coefficients) -> f64 {
        self.tile_log_likelihood_over(w, &[])
    }

    /// [`Discards::tile_log_likelihood`] with the kinds' candidates offset as [`Discards::log_likelihood_over`].
    pub(super) fn tile_log_likelihood_over(&self, w: &Coefficients, offsets: &[f64]) -> f64 {
        self.log_likelihood_over(w, offsets) + self.copies.log_likelihood(w.0[DRAWN_COPY])
    }

    /// Log-likelihood of the choices under `w`, each candidate's utility plus its offset (as [`fit`] fits them;
    /// none where `offsets` is empty).
    pub(super) fn log_likelihood_over(&self, w: &Coefficients, offsets: &[f64]) -> f64 {
        let mut u = Vec::new();
        self.each_offset(offsets)
            .map(|(cands, chosen, offsets)| {
                u.clear();
                u.extend(cands.iter().enumerate().map(|(j, c)| c.utility(&w.0) + offsets.get(j).unwrap_or(&0.0)));
                u[chosen] - log_sum_exp(&u)
            })
            .sum()
    }
}

/// The place of the first of the highest values.
fn first_best(u: impl Iterator<Item = f64>) -> usize {
    u.enumerate().fold((0, f64::NEG_INFINITY), |b, (i, x)| if x > b.1 { (i, x) } else { b }).0
}

fn log_sum_exp(u: &[f64]) -> f64 {
    let m = u.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    m + u.iter().map(|x| (x - m).exp()).sum::<f64>().ln()
}

/// What one round has shown so far: each seat's safe kinds (its own discards, and every discard after its
/// riichi), the seats in riichi, and the copies of each kind in the rivers.
struct Board {
    round: Option<u16>,
    safe: [u64; 4],
    riichi: u8,
    seen: [u8; KINDS],
}

impl Board {
    fn of(round: u16) -> Board {
        Board { round: Some(round), safe: [0; 4], riichi: 0, seen: [0; KINDS] }
    }

    fn discarded(&mut self, seat: u8, kind: usize, declares: bool) {
        for (s, safe) in self.safe.iter_mut().enumerate() {
            if s == usize::from(seat) || self.riichi & 1 << s != 0 {
                *safe |= 1 << kind;
            }
        }
        self.seen[kind] = self.seen[kind].saturating_add(1);
        if declares {
            self.riichi |= 1 << seat;
        }
    }
}

/// Whether a suit kind is suji against a seat whose safe kinds are `safe`: both its neighbours three apart
/// that exist are safe.
fn suji(k: usize, safe: u64) -> bool {
    let d = k % 9;
    let below = d < 3 || safe & 1 << (k - 3) != 0;
    let above = d > 5 || safe & 1 << (k + 3) != 0;
    below && above
}

/// Whether a held kind has no other tile of its suit within two (an honor: a single one).
fn isolated(hand: &Counts, k: usize) -> bool {
    hand[k] == 1 && (k >= 27 || neighbours(hand, k).next().is_none())
}

/// The digits of a suit kind's suit within two of it that the hand holds (the kind's own left out).
fn neighbours(hand: &Counts, k: usize) -> impl Iterator<Item = usize> + '_ {
    let (base, d) = (k / 9 * 9, k % 9);
    (d.saturating_sub(2)..=(d + 2).min(8)).filter(move |&e| e != d && hand[base + e] > 0)
}

/// The partial a lone suit tile makes with its only other kind of the suit within two, if it has exactly one:
/// [`RYANMEN`] (adjacent, neither at the edge), [`PENCHAN`] (adjacent, 12 or 89) or [`KANCHAN`] (two apart).
fn partial(hand: &Counts, k: usize) -> Option<usize> {
    if k >= 27 || hand[k] != 1 {
        return None;
    }
    let mut near = neighbours(hand, k);
    let (Some(e), None) = (near.next(), near.next()) else { return None };
    let d = k % 9;
    Some(match e.abs_diff(d) {
        1 if d.min(e) == 0 || d.max(e) == 8 => PENCHAN,
        1 => RYANMEN,
        _ => KANCHAN,
    })
}

/// The tiles that would lower the shanten of a 3n+1 hand, counting four of each kind less those held and seen.
fn acceptance(hand: &Counts, shanten: i8, seen: &[u8; KINDS], players: u8) -> u32 {
    let after = shanten_each(hand, 1);
    (0..KINDS)
        .filter(|&j| after[j] < shanten && !(players == 3 && Kind::from_index(j as u8).absent_in_sanma()))
        .map(|j| 4u32.saturating_sub(u32::from(hand[j]) + u32::from(seen[j])))
        .sum()
}

/// Each seat's choices in a game (`n_players` of them). Needs the discards' tiles ([`crate::played::Reading`]
/// `tiles`); a game read without them has none.
pub fn of_game(g: &Played) -> Vec<Discards> {
    of_seats(g, |_| true)
}

/// [`of_game`] for the seats `keep` accepts (the others are empty): the board still follows every seat.
pub fn of_seats(g: &Played, keep: impl Fn(u8) -> bool) -> Vec<Discards> {
    let mut out = vec![Discards::default(); usize::from(g.n_players)];
    let mut board = Board::of(u16::MAX);
    let mut candidates = Vec::with_capacity(14);
    // each seat's chosen discards so far in the game (a network's positions of the seat, in order)
    let mut chosen_so_far = [0u16; 4];
    for d in &g.decisions {
        let Some(t) = &d.tiles else { continue };
        if board.round != Some(d.round) {
            board = Board::of(d.round);
        }
        let at = chosen_so_far[usize::from(d.seat)];
        if !d.in_riichi {
            chosen_so_far[usize::from(d.seat)] += 1;
        }
        let discard = usize::from(t.discard.kind().index());
        let after_draw = matches!(d.source, TileSource::Draw | TileSource::Kan | TileSource::Nuki);
        if !d.in_riichi && after_draw && keep(d.seat) {
            let kyoku = g.rounds.get(usize::from(d.round)).map_or(0, |r| r.kyoku);
            let others = board.riichi & !(1 << d.seat);
            let threats: Vec<u64> = (0..4).filter(|s| others & 1 << s != 0).map(|s| board.safe[s]).collect();
            let sight = Sight {
                winds: Winds::of_seat(kyoku, d.seat, g.n_players),
                threats: &threats,
                dora: t.dora(g.n_players),
                players: g.n_players,
                seen: &board.seen,
                turn: d.turn,
                declares: d.riichi,
            };
            let drawn = usize::from(t.source_tile.kind().index());
            if let Some(tsumogiri) = copy_choice(d) {
                out[usize::from(d.seat)].copies.count(tsumogiri);
            }
            // a discard the candidates miss (a riichi the shanten does not see as tenpai) is left out
            if sight.candidates(&t.hand, drawn, &mut candidates) {
                let chosen = candidates.iter().position(|c| c.kind() == discard);
                if let (Some(chosen), 2..) = (chosen, candidates.len()) {
                    out[usize::from(d.seat)].push(&candidates, chosen, at);
                }
            }
        }
        board.discarded(d.seat, discard, d.riichi);
    }
    out
}

/// What a seat knows at a chosen discard beside its hand: all the model reads of the table. Built from a game's
/// decisions ([`of_seats`]) or from a live table (the mjai player's personal network).
pub struct Sight<'a> {
    pub winds: Winds,
    /// The safe kinds (bit per kind) of each other seat in riichi: its own discards and every discard after
    /// its riichi.
    pub threats: &'a [u64],
    /// The dora kinds, bit per kind.
    pub dora: u64,
    pub players: u8,
    /// Copies of each kind discarded so far in the round (called ones included).
    pub seen: &'a [u8; KINDS],
    pub turn: u8,
    /// The discard declares riichi: the candidates are the kinds that keep tenpai.
    pub declares: bool,
}

impl Sight<'_> {
    /// Fills `out` with the candidates of `hand` (its 3n+2 tiles, `drawn` the kind just drawn); false when the
    /// hand cannot be read (not 3n+2 tiles, or no kind that keeps tenpai for a riichi).
    pub fn candidates(&self, hand: &Counts, drawn: usize, out: &mut Vec<Candidate>) -> bool {
        out.clear();
        let size: u32 = hand.iter().map(|&n| u32::from(n)).sum();
        if size % 3 != 2 || hand.iter().any(|&n| n > 4) {
            return false;
        }
        let (turn, declares) = (self.turn, self.declares);
        let shanten = shanten_each(hand, -1);
        let held: Vec<usize> = (0..KINDS).filter(|&k| hand[k] > 0 && (!declares || shanten[k] <= 0)).collect();
        let Some(best) = held.iter().map(|&k| shanten[k]).min() else { return false };
        // the acceptance of each candidate that keeps the best shanten
        let accept: Vec<u32> = held
            .iter()
            .map(|&k| {
                if shanten[k] != best {
                    return 0;
                }
                let mut left = *hand;
                left[k] -= 1;
                acceptance(&left, best, self.seen, self.players)
            })
            .collect();
        let most = accept.iter().copied().max().unwrap_or(0);
        let phase = phase_of(turn);
        let threats = self.threats;
        for (&k, &acc) in held.iter().zip(&accept) {
            let kind = Kind::from_index(k as u8);
            let mut marks = 0u64;
            let mut mark = |f: usize| marks |= 1 << f;
            let class = KindClass::of(kind, &self.winds);
            if let Some(c) = CLASSES.iter().position(|&x| x == class) {
                mark(phase * CLASSES.len() + c);
            }
            if isolated(hand, k) {
                mark(ISOLATED_AT + phase);
            }
            if let Some(shape) = partial(hand, k) {
                mark(shape);
            }
            match hand[k] {
                2 => mark(PAIR),
                3.. => mark(SET),
                _ => {}
            }
            if shanten[k] > best {
                mark(if threats.is_empty() { BACK_OFF } else { BACK_OFF_THREAT });
            }
            if k == drawn {
                mark(TSUMOGIRI);
            }
            if self.dora & 1 << k != 0 {
                mark(DORA);
            }
            if !threats.is_empty() {
                if threats.iter().all(|s| s & 1 << k != 0) {
                    mark(GENBUTSU);
                } else if k < 27 && threats.iter().all(|&s| suji(k, s)) {
                    mark(SUJI);
                }
            }
            if k >= 27 && self.seen[k] >= 2 {
                mark(HONOR_SEEN);
            }
            let shortfall = if most > 0 && shanten[k] == best { 1.0 - f64::from(acc) / f64::from(most) } else { 0.0 };
            out.push(Candidate::new(k, marks, shortfall));
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::testing::feature;
    use super::*;
    use crate::played::{DecisionTiles, RoundOutcome};
    use haifu_ingest::extract::Outcome;
    use haifu_rules::hand::HandNotation;
    use haifu_rules::Tile;

    #[test]
    fn every_feature_has_its_own_name() {
        let names: hashbrown::HashSet<String> = (0..FEATURES).map(feature_name).collect();
        assert_eq!(names.len(), FEATURES);
        assert_eq!(feature_name(0), "dragon_t1");
        assert_eq!(feature_name(ISOLATED_AT), "isolated_t1");
        assert_eq!(feature_name(SHORTFALL), "acceptance_given_up");
        assert_eq!(feature_name(FEATURES - 1), "drawn_copy");
        // the copy choices' coefficient is no candidate's feature
        let c = Candidate::new(33, MARKS, 1.0);
        assert_eq!((c.value(DRAWN_COPY), c.value(SHORTFALL), c.kind()), (0.0, 1.0, 33));
        assert_eq!(c.features().1, SHORTFALL + 1);
    }

    /// Which copy went is read where the hand held another copy of the kind drawn and discarded: seat 0 keeps
    /// the 3m it drew and discards the one it held, seat 1 discards the 7p it drew beside another, and none of
    /// the others offers the choice (a five; a lone west; a 1s drawn and another kind discarded; a discard in
    /// riichi).
    #[test]
    fn a_copy_choice_is_where_the_hand_held_another_of_the_kind_drawn() {
        let mut in_riichi = row(3, 9, "123456789m1234p3m", 9, 9, false, 60);
        in_riichi.in_riichi = true;
        let g = east_1(vec![
            // 3m is kind 2 (ids 8-11): drew id 8, discarded id 9
            row(0, 5, "33m456789m1234p5s", 8, 9, false, 10),
            // 7p is kind 15 (ids 60-63): drew and discarded id 61
            row(1, 5, "123456m77p1234s5s", 61, 61, false, 20),
            // 5s is kind 22 (ids 88-91)
            row(2, 5, "123456m78p1234s55s", 89, 89, false, 30),
            // the west (kind 29, ids 116-119) alone
            row(3, 5, "123456m78p1234s3z", 116, 116, false, 40),
            // 1s (kind 18, id 72) drawn beside another, 1m discarded
            row(0, 6, "123456m78p1123s1m", 72, 0, false, 50),
            in_riichi,
        ]);
        let seats = of_game(&g);
        let copies: Vec<(u32, u32)> = seats.iter().map(|d| (d.copies.drawn, d.copies.held)).collect();
        assert_eq!(copies, [(0, 1), (1, 0), (0, 0), (0, 0)]);
        // the habits count the same choices
        let habit = (0..crate::habits::HABITS).find(|&i| crate::habits::habit_name(i) == "drawn_copy").unwrap();
        let habits: Vec<(u64, u64)> =
            crate::habits::of_game(&g).iter().map(|h| (h.0[habit].taken, h.0[habit].offered)).collect();
        assert_eq!(habits, [(0, 1), (1, 1), (0, 0), (0, 0)]);
        // the copies add into a block's
        let mut block = seats[0].clone();
        block.add(&seats[1]);
        assert_eq!((block.copies.drawn, block.copies.held), (1, 1));
    }

    /// Each lone tile with one neighbour within two is the one tile of the partial the two make, by hand.
    #[test]
    fn a_lone_tile_names_its_partial() {
        let hand = "1257m89p34s2469s11z".parse::<HandNotation>().unwrap().counts;
        let kind = |d: usize, suit: usize| suit * 9 + d - 1;
        for (k, want) in [
            (kind(1, 0), Some(PENCHAN)),
            (kind(2, 0), Some(PENCHAN)),
            (kind(5, 0), Some(KANCHAN)),
            (kind(7, 0), Some(KANCHAN)),
            (kind(8, 1), Some(PENCHAN)),
            (kind(9, 1), Some(PENCHAN)),
            // 3s with 2s and 4s beside it: three tiles, no partial of two; 6s's only neighbour is the pair 44s
            (kind(3, 2), None),
            (kind(6, 2), Some(KANCHAN)),
            (kind(9, 2), None),
            (27, None),
        ] {
            assert_eq!(partial(&hand, k), want, "kind {k}");
        }
        let two_sided = "34s".parse::<HandNotation>().unwrap().counts;
        assert_eq!((partial(&two_sided, kind(3, 2)), partial(&two_sided, kind(4, 2))), (Some(RYANMEN), Some(RYANMEN)));
    }

    /// A four-player game of one round, East 1, of these decisions.
    fn east_1(decisions: Vec<DecisionRow>) -> Played {
        Played {
            game_id: 1,
            log_id: None,
            n_players: 4,
            names: vec!["a".into(), "b".into(), "c".into(), "d".into()],
            game_type: None,
            rounds: vec![RoundOutcome { kyoku: 0, honba: 0, outcomes: vec![Outcome::Bystander; 4], wins: vec![] }],
            decisions,
        }
    }

    fn row(seat: u8, turn: u8, hand: &str, drawn: u8, discard: u8, riichi: bool, event_index: u32) -> DecisionRow {
        let hand = hand.parse::<HandNotation>().unwrap().counts;
        DecisionRow {
            event_index,
            round: 0,
            seat,
            turn,
            source: TileSource::Draw,
            tsumogiri: drawn == discard,
            riichi,
            in_riichi: false,
            keys: [(0, 0); 3],
            tiles: Some(Box::new(DecisionTiles {
                hand,
                before: hand,
                discard: Tile::from_id(discard),
                source_tile: Tile::from_id(drawn),
                // indicator 3p (kind 11): 4p is dora
                indicators: 1 << 11,
                shanten_before: 1,
                shanten_after: 1,
                tiles_left: 60,
                melds: false,
            })),
        }
    }

    /// Seat 1 declares riichi discarding 5m; seat 2 discards 8m after it; then seat 0 chooses from a hand of
    /// 2m (suji of 5m), 5m (genbutsu), 4p (dora), an isolated west (a guest wind for East's seat 0 in East 1)
    /// and shapes: each candidate carries the marks its tiles give it, by hand.
    #[test]
    fn candidates_carry_the_marks_of_the_board() {
        let g = east_1(vec![
            row(1, 8, "123456789m1234p5m", 16, 16, true, 10),
            row(2, 8, "12345678p12345s8m", 28, 28, false, 20),
            // seat 0 drew the west (id 4*29 = 116) and holds 2m 5m 4p 3z among pairs and runs
            row(0, 8, "25m114p34556799s3z", 116, 116, false, 30),
        ]);
        let seats = of_game(&g);
        // the riichi declaration chose among the kinds that keep tenpai; seat 2's discard is a choice too
        assert!(seats[1].len() == 1 && seats[2].len() == 1);
        let d = &seats[0];
        assert_eq!(d.len(), 1);
        let (cands, chosen) = d.each().next().unwrap();
        // candidates in kind order: 2m 5m 1p 4p 3s 4s 5s 6s 7s 9s W
        assert_eq!(cands.len(), 11);
        let has = |c: &Candidate, f: &str| c.marks() & 1 << feature(f) != 0;
        let west = &cands[10];
        assert_eq!(chosen, 10);
        assert!(has(west, "guest_wind_t7_12") && has(west, "isolated_t7_12") && has(west, "tsumogiri"));
        assert!(!has(west, "genbutsu") && !has(west, "honor_seen_twice"));
        let (m2, m5, p4) = (&cands[0], &cands[1], &cands[3]);
        assert!(has(m5, "genbutsu") && !has(m5, "suji"));
        assert!(has(m2, "suji") && has(m2, "two_eight_t7_12") && !has(m2, "genbutsu"));
        // 8m came after the riichi: safe too
        assert!(has(p4, "dora") && !has(p4, "suji"));
        let p1 = &cands[2];
        assert!(has(p1, "pair") && has(p1, "terminal_t7_12") && !has(p1, "isolated_t7_12"));
        // the hand 25m 4p 11p 345567s 99s W: every lone tile keeps the shanten; breaking 567s backs off, under
        // the threat of seat 1's riichi
        let s5 = &cands[6];
        assert!(has(s5, "back_off_threat") && !has(s5, "back_off"), "{s5:?}");
        assert!(cands.iter().all(|c| (0.0..=1.0).contains(&c.shortfall())));
        assert!(cands.iter().any(|c| c.shortfall() == 0.0 && !has(c, "back_off_threat")));
    }
}
