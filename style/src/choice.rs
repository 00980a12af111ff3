//! Every decision but the discard, counted per opportunity: the choices table of a dataset (written by `haifu
//! ingest` unless `--no-choices`) read into counts of offers and takes per player and situation, the rates of a profile that come
//! from them, and the lookup the imitator at the table decides by.
//!
//! A choice row offers one or more kinds of option ([`Offer`]: a chi, a pon, riichi, ...). Each kind offered is
//! one opportunity, taken when the seat chose an option of that kind. Where it was offered is its
//! [`Situation`]: the kind and a few facts of the hand and the table, the same computed from a row of the
//! table and from the live table state ([`Spot`]), so that the imitator asks the counts of exactly the
//! situations the player was counted in. Rows whose answer the log cannot say (`chosen` null) count nothing.
//!
//! The facts (bits of [`Situation::context`]), fixed before any figure was measured:
//! - every kind: another seat has declared riichi (`threat`);
//! - chi, pon, open kan: the call brings the hand closer to tenpai after the best discard (a kan: no further
//!   from it), a yaku stays in sight (a value honor set or pair, all simples, or one suit with honors), the
//!   hand is already open, and (pon and kan) the tile is a value honor for the seat;
//! - riichi: the best wait is on two kinds or more, the turn (1-6, 7-11, 12+), the seat is the dealer;
//! - closed kan: the seat is in riichi, the four tiles are not needed (the hand without them is no further
//!   from tenpai than after the best discard).
//!
//! Of several options of one kind (two ways to chi), the one that leaves the hand closest to tenpai stands for
//! the kind, as it is what a player who calls would choose.

use std::fmt;
use std::path::Path;

use anyhow::{anyhow, Context, Result};
use arrow::array::{Array, AsArray};
use arrow::datatypes::{DataType, Int64Type, UInt16Type, UInt64Type, UInt8Type};
use hashbrown::HashMap;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use rayon::prelude::*;
use serde::Serialize;

use haifu_imitate::rank::Winds;
use haifu_ingest::choices::Chosen;
use haifu_ingest::columns;
use haifu_ingest::columns::{Table, UInt64, UInt8 as U8, Utf8};
use haifu_ingest::extract::ExtractedGame;
use haifu_mining::dataset::{cast_to, for_each_batch, hand_counts, hands, year_parts};
use haifu_mining::tables::write_table;
use haifu_record::action::Action;
use haifu_record::state::TableState;
use haifu_rules::shanten::{shanten, shanten_each};
use haifu_rules::tile::MjaiTile;
use haifu_rules::{Counts, Kind, MeldKind, KINDS};

use crate::played::Played;

pub const CHOICES: &str = "choice_counts.parquet";

/// A kind of option besides the plain discard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Offer {
    Chi,
    Pon,
    Daiminkan,
    Riichi,
    Ankan,
    Kakan,
    Tsumo,
    Ron,
    Kyuushu,
    Nuki,
}

impl Offer {
    pub const ALL: [Offer; 10] = [
        Offer::Chi,
        Offer::Pon,
        Offer::Daiminkan,
        Offer::Riichi,
        Offer::Ankan,
        Offer::Kakan,
        Offer::Tsumo,
        Offer::Ron,
        Offer::Kyuushu,
        Offer::Nuki,
    ];

    /// The option's first word in the choices table.
    pub fn name(self) -> &'static str {
        match self {
            Offer::Chi => "chi",
            Offer::Pon => "pon",
            Offer::Daiminkan => "daiminkan",
            Offer::Riichi => "riichi",
            Offer::Ankan => "ankan",
            Offer::Kakan => "kakan",
            Offer::Tsumo => "tsumo",
            Offer::Ron => "ron",
            Offer::Kyuushu => "kyuushu",
            Offer::Nuki => "nuki",
        }
    }

    fn named(name: &str) -> Option<Offer> {
        Offer::ALL.into_iter().find(|o| o.name() == name)
    }

    /// The context bits a situation of this kind uses, by name (the rest are 0).
    pub fn facts(self) -> &'static [(&'static str, u8)] {
        match self {
            Offer::Chi => &[("threat", THREAT), ("advances", ADVANCES), ("yaku", YAKU), ("open", OPEN)],
            Offer::Pon | Offer::Daiminkan => {
                &[("threat", THREAT), ("advances", ADVANCES), ("yaku", YAKU), ("open", OPEN), ("value", VALUE)]
            }
            Offer::Riichi => &[("threat", THREAT), ("good_wait", GOOD_WAIT), ("dealer", DEALER)],
            Offer::Ankan => &[("threat", THREAT), ("in_riichi", IN_RIICHI), ("not_needed", NOT_NEEDED)],
            _ => &[("threat", THREAT)],
        }
    }
}

/// Context bits (see the module documentation).
pub const THREAT: u8 = 1;
pub const ADVANCES: u8 = 2;
pub const YAKU: u8 = 4;
pub const OPEN: u8 = 8;
pub const VALUE: u8 = 16;
pub const GOOD_WAIT: u8 = 2;
/// Riichi's turn: bits 2-3 (0: turns 1-6, 1: 7-11, 2: 12 on).
pub const TURN_SHIFT: u8 = 2;
pub const DEALER: u8 = 16;
pub const IN_RIICHI: u8 = 2;
pub const NOT_NEEDED: u8 = 4;

/// Where an opportunity was: its kind and its facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Situation {
    pub offer: Offer,
    pub context: u8,
}

impl fmt::Display for Situation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.offer.name())?;
        for (name, bit) in self.offer.facts() {
            if self.context & bit != 0 {
                write!(f, " {name}")?;
            }
        }
        if self.offer == Offer::Riichi {
            let t = ["turn 1-6", "turn 7-11", "turn 12+"][usize::from(self.context >> TURN_SHIFT & 3).min(2)];
            write!(f, " {t}")?;
        }
        Ok(())
    }
}

/// One option of a moment, as far as the situation needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opt {
    Chi([Kind; 2]),
    Pon,
    Daiminkan,
    Riichi,
    Ankan(Kind),
    Kakan(Kind),
    Tsumo,
    Ron,
    Kyuushu,
    Nuki,
}

impl Opt {
    pub fn offer(self) -> Offer {
        match self {
            Opt::Chi(_) => Offer::Chi,
            Opt::Pon => Offer::Pon,
            Opt::Daiminkan => Offer::Daiminkan,
            Opt::Riichi => Offer::Riichi,
            Opt::Ankan(_) => Offer::Ankan,
            Opt::Kakan(_) => Offer::Kakan,
            Opt::Tsumo => Offer::Tsumo,
            Opt::Ron => Offer::Ron,
            Opt::Kyuushu => Offer::Kyuushu,
            Opt::Nuki => Offer::Nuki,
        }
    }

    /// An option as the choices table writes it (`chi 4m6m`, `ankan 5m`, `riichi`).
    pub fn parse(text: &str) -> Option<Opt> {
        let (word, tiles) = text.split_once(' ').unwrap_or((text, ""));
        let kinds = tile_kinds(tiles)?;
        Some(match (Offer::named(word)?, kinds.as_slice()) {
            (Offer::Chi, [a, b]) => Opt::Chi([*a, *b]),
            (Offer::Ankan, [k]) => Opt::Ankan(*k),
            (Offer::Kakan, [k]) => Opt::Kakan(*k),
            (Offer::Chi | Offer::Ankan | Offer::Kakan, _) => return None,
            (Offer::Pon, _) => Opt::Pon,
            (Offer::Daiminkan, _) => Opt::Daiminkan,
            (Offer::Riichi, _) => Opt::Riichi,
            (Offer::Tsumo, _) => Opt::Tsumo,
            (Offer::Ron, _) => Opt::Ron,
            (Offer::Kyuushu, _) => Opt::Kyuushu,
            (Offer::Nuki, _) => Opt::Nuki,
        })
    }

    /// The option an action of the table is (`None`: a plain discard or a pass).
    pub fn of_action(a: &Action) -> Option<Opt> {
        Some(match *a {
            Action::Discard { riichi: true, .. } => Opt::Riichi,
            Action::Discard { .. } | Action::Pass => return None,
            Action::Tsumo => Opt::Tsumo,
            Action::Ron => Opt::Ron,
            Action::Chi { tiles } => Opt::Chi(tiles.map(|t| t.kind())),
            Action::Pon { .. } => Opt::Pon,
            Action::Daiminkan => Opt::Daiminkan,
            Action::Ankan { kind } => Opt::Ankan(kind),
            Action::Kakan { tile } => Opt::Kakan(tile.kind()),
            Action::Nuki { .. } => Opt::Nuki,
            Action::KyuushuKyuuhai => Opt::Kyuushu,
        })
    }
}

/// The kinds of a run of tile names (`4m6m`, `5mr5m`, `PP`).
fn tile_kinds(text: &str) -> Option<Vec<Kind>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let len = if b[i].is_ascii_digit() { 2 + usize::from(b.get(i + 2) == Some(&b'r')) } else { 1 };
        let name = text.get(i..i + len)?;
        out.push(name.parse::<MjaiTile>().ok()?.kind);
        i += len;
    }
    Some(out)
}

/// What the situation of a moment is computed from: the seat's hand and table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spot {
    /// The concealed hand: after the draw (3n+2 tiles) or before the shown tile (3n+1).
    pub hand: Counts,
    /// The tiles of the seat's sets (not its norths).
    pub melded: Counts,
    /// Has a chi, pon, open or added kan.
    pub open: bool,
    /// The seat's and the round's winds (which honors are of value, and whether the seat deals).
    pub winds: Winds,
    pub turn: u8,
    /// Another seat has declared riichi.
    pub threat: bool,
    pub in_riichi: bool,
    /// The tile shown (a discard, a kan, a north) or drawn.
    pub tile: Kind,
}

impl Spot {
    /// The spot of `seat` at a live table; `tile` is the tile shown to it, or its draw.
    pub fn at(table: &TableState, seat: u8, tile: Kind) -> Spot {
        let s = &table.seats[usize::from(seat)];
        let mut melded = [0u8; KINDS];
        for m in s.melds.iter().filter(|m| m.kind != MeldKind::Nuki) {
            for t in m.tiles() {
                melded[usize::from(t.kind().index())] += 1;
            }
        }
        let others = (0..table.players).filter(|&o| o != seat);
        Spot {
            hand: *s.hand.counts(),
            melded,
            open: !s.closed(),
            winds: Winds::of_seat(table.kyoku, seat, table.players),
            turn: s.turn,
            threat: others.into_iter().any(|o| table.seats[usize::from(o)].riichi.is_declared()),
            in_riichi: s.riichi.is_declared(),
            tile,
        }
    }

    /// A plausible yaku for the hand with `extra` set aside as a new meld.
    fn yaku_in_sight(&self, concealed: &Counts, new_meld: &[Kind]) -> bool {
        let mut all = *concealed;
        for (a, m) in all.iter_mut().zip(self.melded) {
            *a += m;
        }
        for k in new_meld {
            all[usize::from(k.index())] += 1;
        }
        haifu_rules::yaku::yaku_in_sight(&all, |k| self.winds.is_value(k))
    }

    /// A call's facts: the shanten it leaves (after the best discard; a kan: as it is) and its bits.
    fn call(&self, from_hand: &[Kind], kan: bool) -> (i8, u8) {
        let before = shanten(&self.hand);
        let mut after = self.hand;
        for k in from_hand {
            let c = &mut after[usize::from(k.index())];
            *c = c.saturating_sub(1);
        }
        let left = if kan { shanten(&after) } else { shanten_each(&after, -1).into_iter().min().unwrap_or(i8::MAX) };
        let mut meld: Vec<Kind> = from_hand.to_vec();
        meld.push(self.tile);
        let mut bits = if self.open { OPEN } else { 0 };
        if left < before || (kan && left <= before) {
            bits |= ADVANCES;
        }
        if self.yaku_in_sight(&after, &meld) {
            bits |= YAKU;
        }
        if self.winds.is_value(self.tile) && !matches!(from_hand, [a, b] if a != b) {
            bits |= VALUE;
        }
        (left, bits)
    }

    /// The facts of one option, and how close to tenpai it leaves the hand (lower is better).
    fn option(&self, o: Opt) -> (u8, i8) {
        let threat = if self.threat { THREAT } else { 0 };
        let t = self.tile;
        let (left, bits) = match o {
            Opt::Chi(pair) => self.call(&pair, false),
            Opt::Pon => self.call(&[t, t], false),
            Opt::Daiminkan => self.call(&[t, t, t], true),
            Opt::Riichi => (0, self.riichi_bits()),
            Opt::Ankan(k) => {
                let mut without = self.hand;
                without[usize::from(k.index())] = 0;
                let best = shanten_each(&self.hand, -1).into_iter().min().unwrap_or(i8::MAX);
                let left = shanten(&without);
                let mut bits = if self.in_riichi { IN_RIICHI } else { 0 };
                if left <= best {
                    bits |= NOT_NEEDED;
                }
                (left, bits)
            }
            _ => (0, 0),
        };
        (bits | threat, left)
    }

    fn riichi_bits(&self) -> u8 {
        // the most kinds any tenpai discard waits on
        let mut best = 0;
        for d in (0..KINDS).filter(|&d| self.hand[d] > 0) {
            let mut h = self.hand;
            h[d] -= 1;
            if shanten(&h) != 0 {
                continue;
            }
            let waits = shanten_each(&h, 1).iter().enumerate().filter(|&(k, &s)| s == -1 && h[k] < 4).count();
            best = best.max(waits);
        }
        let turn = match self.turn {
            0..=6 => 0,
            7..=11 => 1,
            _ => 2,
        };
        let mut bits = turn << TURN_SHIFT;
        if best >= 2 {
            bits |= GOOD_WAIT;
        }
        if self.winds.seat == Kind::EAST {
            bits |= DEALER;
        }
        bits
    }

    /// The situations of a moment's options, one per kind offered, each with the option that stands for it
    /// (its index in `options`).
    pub fn situations(&self, options: &[Opt]) -> Vec<(Situation, usize)> {
        let mut out: Vec<(Situation, usize, i8)> = Vec::new();
        for (i, o) in options.iter().enumerate() {
            let (context, left) = self.option(*o);
            let s = Situation { offer: o.offer(), context };
            match out.iter_mut().find(|(x, _, _)| x.offer == s.offer) {
                Some(best) if left < best.2 || (left == best.2 && context > best.0.context) => *best = (s, i, left),
                Some(_) => {}
                None => out.push((s, i, left)),
            }
        }
        out.into_iter().map(|(s, i, _)| (s, i)).collect()
    }
}

/// Offers and takes of one situation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Count {
    pub offered: u64,
    pub taken: u64,
}

impl Count {
    pub fn add(&mut self, o: Count) {
        self.offered += o.offered;
        self.taken += o.taken;
    }

    /// The share taken, smoothed towards even by one take and one pass more: everyone's share as the prior a
    /// player's is smoothed towards.
    pub fn even_share(self) -> f64 {
        (self.taken as f64 + 1.0) / (self.offered as f64 + 2.0)
    }
}

/// The counts of one player (or everyone), by situation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChoiceCounts(pub HashMap<Situation, Count>);

impl ChoiceCounts {
    pub fn add(&mut self, o: &ChoiceCounts) {
        for (s, c) in &o.0 {
            self.0.entry(*s).or_default().add(*c);
        }
    }

    /// Every situation of one kind summed, or only those with all of `bits` set.
    pub fn of(&self, offer: Offer, bits: u8) -> Count {
        self.summed(|s| s.offer == offer && s.context & bits == bits)
    }

    /// The situations `keep` takes, summed.
    pub fn summed(&self, keep: impl Fn(&Situation) -> bool) -> Count {
        let mut c = Count::default();
        for (_, n) in self.0.iter().filter(|(s, _)| keep(s)) {
            c.add(*n);
        }
        c
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// How many offers of everyone's a player's own count is worth less than: the player's share in a
/// situation is smoothed towards everyone's as if it had this many more offers at everyone's rate.
pub const PRIOR_OFFERS: f64 = 5.0;

/// The share of offers a player takes in a situation, smoothed towards everyone's ([`PRIOR_OFFERS`]);
/// everyone's own share is smoothed towards even (one take and one pass more).
pub fn take_share(player: Option<&ChoiceCounts>, all: &ChoiceCounts, s: &Situation) -> f64 {
    let everyone = all.0.get(s).copied().unwrap_or_default();
    let prior = everyone.even_share();
    let own = player.and_then(|p| p.0.get(s).copied()).unwrap_or_default();
    (own.taken as f64 + PRIOR_OFFERS * prior) / (own.offered as f64 + PRIOR_OFFERS)
}

/// The kind a reference takes among the shares of a moment's kinds (`(situation, share)`, as
/// [`Spot::situations`] lists them): the largest share when it is above one half (the majority choice), else
/// none (a pass, or a plain discard). Returns its place in `shares`.
pub fn majority(shares: &[(Situation, f64)]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, (_, share)) in shares.iter().enumerate() {
        if best.is_none_or(|b| *share > shares[b].1) {
            best = Some(i);
        }
    }
    best.filter(|&b| shares[b].1 > 0.5)
}

/// The probability a reference gives a choice among the kinds' shares: a take of a kind is its share, declining
/// them all is the product of one minus each share.
pub fn probability_of(shares: &[(Situation, f64)], took: Option<Offer>) -> f64 {
    match took {
        Some(o) => shares.iter().find(|(s, _)| s.offer == o).map_or(0.0, |(_, p)| *p),
        None => shares.iter().map(|(_, p)| 1.0 - p).product(),
    }
}

/// A rate of a profile that counts opportunities: its name, what it is, and the situations it sums.
pub struct ChoiceRateOf {
    pub name: &'static str,
    pub what: &'static str,
    pub of: fn(&Situation) -> bool,
}

const fn rate(name: &'static str, what: &'static str, of: fn(&Situation) -> bool) -> ChoiceRateOf {
    ChoiceRateOf { name, what, of }
}

fn riichi_turn(s: &Situation) -> u8 {
    s.context >> TURN_SHIFT & 3
}

/// The rates per opportunity of a profile, in order.
pub const CHOICE_RATES: [ChoiceRateOf; 14] = [
    rate("chi_taken", "chi taken of chi offered", |s| s.offer == Offer::Chi),
    rate("chi_advancing_taken", "chi taken of those that bring tenpai closer with a yaku in sight", |s| {
        s.offer == Offer::Chi && s.context & (ADVANCES | YAKU) == ADVANCES | YAKU
    }),
    rate("pon_taken", "pon taken of pon offered", |s| s.offer == Offer::Pon),
    rate("pon_value_taken", "pon of a value honor taken of those offered", |s| {
        s.offer == Offer::Pon && s.context & VALUE != 0
    }),
    rate("call_no_yaku_taken", "chi and pon taken of those that leave no yaku in sight", |s| {
        matches!(s.offer, Offer::Chi | Offer::Pon) && s.context & YAKU == 0
    }),
    rate("call_under_riichi_taken", "chi and pon taken while another seat is in riichi", |s| {
        matches!(s.offer, Offer::Chi | Offer::Pon) && s.context & THREAT != 0
    }),
    rate("open_kan_taken", "open kans taken of those offered", |s| s.offer == Offer::Daiminkan),
    rate("riichi_taken", "riichi declared of the turns it could be (else dama)", |s| s.offer == Offer::Riichi),
    rate("riichi_good_wait_taken", "riichi declared of those turns waiting on two kinds or more", |s| {
        s.offer == Offer::Riichi && s.context & GOOD_WAIT != 0
    }),
    rate("riichi_early_taken", "riichi declared of those turns among the first six", |s| {
        s.offer == Offer::Riichi && riichi_turn(s) == 0
    }),
    rate("riichi_late_taken", "riichi declared of those turns from the twelfth on", |s| {
        s.offer == Offer::Riichi && riichi_turn(s) == 2
    }),
    rate("ankan_taken", "closed kans made of those possible", |s| s.offer == Offer::Ankan),
    rate("kakan_taken", "added kans made of those possible", |s| s.offer == Offer::Kakan),
    rate("ron_taken", "rons taken of those possible", |s| s.offer == Offer::Ron),
];

/// The players' counts and everyone's.
pub type ByPlayer = (HashMap<String, ChoiceCounts>, ChoiceCounts);

/// The choices of `games` (as [`crate::played::read`] gave them) from the dataset's choices table, counted per
/// player name and for everyone; empty where the dataset has no choices (ingested with `--no-choices`).
pub fn read(dataset: &Path, years: &[i32], games: &[Played]) -> Result<ByPlayer> {
    let place: HashMap<i64, usize> = games.iter().enumerate().map(|(i, g)| (g.game_id, i)).collect();
    let parts = choice_parts(dataset, years)?;
    let counted: Vec<ByPlayer> = parts.par_iter().map(|p| count_part(p, games, &place)).collect::<Result<_>>()?;
    let mut per: HashMap<String, ChoiceCounts> = HashMap::new();
    let mut all = ChoiceCounts::default();
    for (p, a) in counted {
        all.add(&a);
        for (name, c) in p {
            per.entry(name).or_default().add(&c);
        }
    }
    Ok((per, all))
}

/// The answered choices of each seat of `games` (by its place in `games` and its seat) in the dataset's choices
/// table: what identification observes of a seat. Empty where the dataset has no choices table.
pub fn per_seat(dataset: &Path, years: &[i32], games: &[Played]) -> Result<HashMap<(usize, u8), ChoiceCounts>> {
    let place: HashMap<i64, usize> = games.iter().enumerate().map(|(i, g)| (g.game_id, i)).collect();
    let parts = choice_parts(dataset, years)?;
    let counted: Vec<HashMap<(usize, u8), ChoiceCounts>> = parts
        .par_iter()
        .map(|p| {
            let mut out: HashMap<(usize, u8), ChoiceCounts> = HashMap::new();
            visit_part(p, games, &place, &mut |game, seat, situations, took| {
                let c = out.entry((place[&game.game_id], seat)).or_default();
                for situation in situations {
                    c.0.entry(*situation)
                        .or_default()
                        .add(Count { offered: 1, taken: u64::from(took == Some(situation.offer)) });
                }
            })?;
            Ok(out)
        })
        .collect::<Result<_>>()?;
    let mut out: HashMap<(usize, u8), ChoiceCounts> = HashMap::new();
    for part in counted {
        for (k, c) in part {
            out.entry(k).or_default().add(&c);
        }
    }
    Ok(out)
}

/// Each seat's choice counts in a game replayed with its choices cut ([`haifu_ingest::extract::ReplayOptions`]
/// `choices`): what a log read by `style identify` shows of the seat's calls, riichi, kans and wins, counted as
/// [`per_seat`] counts a dataset's choices rows (a choice whose answer the log cannot show left out).
pub fn of_replay(g: &ExtractedGame) -> Vec<ChoiceCounts> {
    let mut out = vec![ChoiceCounts::default(); usize::from(g.info.n_players)];
    for c in g.choices.iter().filter(|c| !matches!(c.chosen, Chosen::Unknown)) {
        let Some(counts) = out.get_mut(usize::from(c.seat)) else { continue };
        let (situations, took) = situations_of(g, c);
        for situation in situations {
            let taken = u64::from(took == Some(situation.offer));
            counts.0.entry(situation).or_default().add(Count { offered: 1, taken });
        }
    }
    out
}

/// A replayed choice's situations, one for each kind of option offered, and the kind taken (`None`: declined,
/// or an answer the log cannot show).
pub fn situations_of(g: &ExtractedGame, c: &haifu_ingest::choices::Choice) -> (Vec<Situation>, Option<Offer>) {
    let took = match c.chosen {
        Chosen::Took(a) => Opt::of_action(&a).map(Opt::offer),
        Chosen::Declined | Chosen::Unknown => None,
    };
    let options: Vec<Opt> = c.options.iter().filter_map(Opt::of_action).collect();
    let kyoku = g.rounds.get(usize::from(c.round)).map_or(0, |r| r.init.kyoku);
    let spot = Spot::of_choice(c, g.info.n_players, kyoku);
    (spot.situations(&options).into_iter().map(|(s, _)| s).collect(), took)
}

/// The dataset's table of choices.
const TABLE: &str = "choices";

/// The choices parts of the years; none where the dataset has no choices table (ingested with `--no-choices`).
fn choice_parts(dataset: &Path, years: &[i32]) -> Result<Vec<std::path::PathBuf>> {
    if !dataset.join(TABLE).is_dir() {
        return Ok(Vec::new());
    }
    year_parts(dataset, TABLE, years)
}

fn count_part(path: &Path, games: &[Played], place: &HashMap<i64, usize>) -> Result<ByPlayer> {
    let mut per: HashMap<String, ChoiceCounts> = HashMap::new();
    let mut all = ChoiceCounts::default();
    visit_part(path, games, place, &mut |game, seat, situations, took| {
        let name = game.names[usize::from(seat)].as_str();
        for situation in situations {
            let c = Count { offered: 1, taken: u64::from(took == Some(situation.offer)) };
            all.0.entry(*situation).or_default().add(c);
            per.entry_ref(name).or_default().0.entry(*situation).or_default().add(c);
        }
    })?;
    Ok((per, all))
}

/// What a visitor of the choices is told of a row whose answer the log gives: the game, the seat, the
/// situations of the kinds offered and the kind taken (`None`: a pass or a plain discard).
type RowVisitor<'v> = dyn FnMut(&Played, u8, &[Situation], Option<Offer>) + 'v;

/// Every answered choice row of the kept games (`place`: a game's place in `games`) in one part file.
fn visit_part(path: &Path, games: &[Played], place: &HashMap<i64, usize>, f: &mut RowVisitor) -> Result<()> {
    const COLUMNS: [&str; 11] =
        ["game_id", "round", "seat", "tile", "options", "chosen", "turn", "hand", "melds", "riichi_seats", "moment"];
    for_each_batch(path, &COLUMNS, |b| {
        let at = |c: &str| path.display().to_string() + ": " + c;
        let int = |c: &str, to: &DataType| cast_to(b, c, to, path);
        let ids = int("game_id", &DataType::Int64)?;
        let round = int("round", &DataType::UInt16)?;
        let [seat, tile, turn, riichi] = ["seat", "tile", "turn", "riichi_seats"].map(|c| int(c, &DataType::UInt8));
        let (ids, round) = (ids.as_primitive::<Int64Type>(), round.as_primitive::<UInt16Type>());
        let (seat, tile, turn, riichi) = (seat?, tile?, turn?, riichi?);
        let [seat, tile, turn, riichi] = [&seat, &tile, &turn, &riichi].map(|c| c.as_primitive::<UInt8Type>());
        let hand = hands(b, path)?;
        let text_list = |c: &str| {
            b.column_by_name(c).and_then(|c| c.as_list_opt::<i32>()).with_context(|| at(c) + " is not a list")
        };
        let (options, melds) = (text_list("options")?, text_list("melds")?);
        let chosen = int("chosen", &DataType::Utf8)?;
        let chosen = chosen.as_string::<i32>();
        let strings = |l: &arrow::array::ListArray, i: usize| -> Vec<String> {
            let v = l.value(i);
            let s = v.as_string::<i32>();
            (0..s.len()).map(|j| s.value(j).to_string()).collect()
        };
        for i in 0..b.num_rows() {
            let Some(&g) = place.get(&ids.value(i)) else { continue };
            if chosen.is_null(i) || options.is_null(i) {
                continue;
            }
            let game = &games[g];
            let (s, r) = (seat.value(i), usize::from(round.value(i)));
            let Some(kyoku) = game.rounds.get(r).map(|r| r.kyoku) else {
                return Err(anyhow!("{}: game {}: round {r} is not among its rounds", path.display(), game.game_id));
            };
            let texts = strings(options, i);
            let opts: Vec<Opt> = texts
                .iter()
                .map(|t| Opt::parse(t).ok_or_else(|| anyhow!("{}: an option {t:?} of no known kind", path.display())))
                .collect::<Result<_>>()?;
            let kind = Kind::from_index(tile.value(i) / 4);
            let spot = Spot::of_row(
                &hand_counts(hand, i),
                &strings(melds, i),
                (s, game.n_players, kyoku),
                turn.value(i),
                riichi.value(i),
                kind,
            )
            .with_context(|| format!("{}: game {}", path.display(), game.game_id))?;
            let took = Opt::parse(chosen.value(i)).map(Opt::offer);
            let situations: Vec<Situation> = spot.situations(&opts).into_iter().map(|(s, _)| s).collect();
            f(game, s, &situations, took);
        }
        Ok(())
    })
}

/// How often a reference's majority choice is the player's, of the answered choice rows (`haifu style
/// choices`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Agreement {
    pub rows: u64,
    /// The lookup over the player's own counts, smoothed towards everyone's (the imitator at the table).
    pub own: u64,
    /// Everyone's counts alone.
    pub everyone: u64,
    /// Always declining (a pass, a plain discard).
    pub decline: u64,
}

impl Agreement {
    fn add(&mut self, o: &Agreement) {
        self.rows += o.rows;
        self.own += o.own;
        self.everyone += o.everyone;
        self.decline += o.decline;
    }
}

/// The agreement over the answered choice rows of `games` of the players `counts` profiles, overall and by
/// kind offered (a row counts under every kind it offers).
pub fn agreement(
    dataset: &Path,
    years: &[i32],
    games: &[Played],
    counts: &HashMap<String, ChoiceCounts>,
    all: &ChoiceCounts,
) -> Result<(Agreement, Vec<(Offer, Agreement)>)> {
    let place: HashMap<i64, usize> = games.iter().enumerate().map(|(i, g)| (g.game_id, i)).collect();
    if !dataset.join(TABLE).is_dir() {
        anyhow::bail!(
            "{} has no choices table: ingest the games again with `haifu ingest` (without `--no-choices`)",
            dataset.display()
        );
    }
    let parts = choice_parts(dataset, years)?;
    let found: Vec<(Agreement, HashMap<Offer, Agreement>)> = parts
        .par_iter()
        .map(|p| {
            let (mut total, mut by) = (Agreement::default(), HashMap::<Offer, Agreement>::new());
            visit_part(p, games, &place, &mut |game, seat, situations, took| {
                let Some(own) = counts.get(&game.names[usize::from(seat)]) else { return };
                let shares = |own: Option<&ChoiceCounts>| -> Vec<(Situation, f64)> {
                    situations.iter().map(|s| (*s, take_share(own, all, s))).collect()
                };
                let pick = |sh: &[(Situation, f64)]| majority(sh).map(|b| sh[b].0.offer);
                let a = Agreement {
                    rows: 1,
                    own: u64::from(pick(&shares(Some(own))) == took),
                    everyone: u64::from(pick(&shares(None)) == took),
                    decline: u64::from(took.is_none()),
                };
                total.add(&a);
                for s in situations {
                    by.entry(s.offer).or_default().add(&a);
                }
            })?;
            Ok((total, by))
        })
        .collect::<Result<_>>()?;
    let (mut total, mut by) = (Agreement::default(), HashMap::<Offer, Agreement>::new());
    for (t, b) in found {
        total.add(&t);
        for (o, a) in b {
            by.entry(o).or_default().add(&a);
        }
    }
    let mut by: Vec<(Offer, Agreement)> = by.into_iter().collect();
    by.sort_by_key(|(o, _)| *o);
    Ok((total, by))
}

impl Spot {
    /// The spot of a choice as the replay cut it (`kyoku`: its round's, `players` at the table).
    pub fn of_choice(c: &haifu_ingest::choices::Choice, players: u8, kyoku: u8) -> Spot {
        let mut melded = [0u8; KINDS];
        for m in c.melds.iter().filter(|m| m.kind != MeldKind::Nuki) {
            for t in m.tiles() {
                melded[usize::from(t.kind().index())] += 1;
            }
        }
        let open = c.melds.iter().any(|m| !matches!(m.kind, MeldKind::Ankan | MeldKind::Nuki));
        Spot::of_parts(*c.hand.counts(), melded, open, (c.seat, players, kyoku), c.turn, c.riichi, c.tile.kind())
    }

    /// The spot of a choices row: its hand, melds (`chi:3p4p5p`), (seat, players, kyoku), turn and riichi
    /// seats (bit per seat).
    pub fn of_row(
        hand: &Counts,
        melds: &[String],
        (seat, players, kyoku): (u8, u8, u8),
        turn: u8,
        riichi_seats: u8,
        tile: Kind,
    ) -> Result<Spot> {
        let mut melded = [0u8; KINDS];
        let mut open = false;
        for m in melds {
            let (kind, tiles) = m.split_once(':').ok_or_else(|| anyhow!("a meld {m:?} without its kind"))?;
            if kind == "nuki" {
                continue;
            }
            open |= kind != "ankan";
            for k in tile_kinds(tiles).ok_or_else(|| anyhow!("a meld {m:?} of unknown tiles"))? {
                melded[usize::from(k.index())] += 1;
            }
        }
        Ok(Spot::of_parts(*hand, melded, open, (seat, players, kyoku), turn, riichi_seats, tile))
    }

    fn of_parts(
        hand: Counts,
        melded: Counts,
        open: bool,
        (seat, players, kyoku): (u8, u8, u8),
        turn: u8,
        riichi_seats: u8,
        tile: Kind,
    ) -> Spot {
        Spot {
            hand,
            melded,
            open,
            winds: Winds::of_seat(kyoku, seat, players),
            turn,
            threat: riichi_seats & !(1 << seat) != 0,
            in_riichi: riichi_seats & (1 << seat) != 0,
            tile,
        }
    }
}

columns! {
    /// `choice_counts.parquet` of a style database: per player (and ALL) and situation, the offers and the takes.
    pub struct ChoicesTable("choice_counts") for<'a> |r: (&'a str, Situation, Count)| {
        let (player, s, c) = *r;
        let label = s.to_string();
    }
    player: Utf8 = player,
    offer: Utf8 = s.offer.name(),
    context: U8 = s.context,
    situation: Utf8 = label.as_str(),
    offered: UInt64 = c.offered,
    taken: UInt64 = c.taken,
}

/// Writes the counts of the profiled players and of everyone (`all_scope`) into `path`.
pub fn write(path: &Path, per: &[(&str, &ChoiceCounts)]) -> Result<()> {
    write_table(path, |t: &mut ChoicesTable| {
        for (player, counts) in per {
            let mut rows: Vec<_> = counts.0.iter().collect();
            rows.sort_by_key(|(s, _)| **s);
            for (s, c) in rows {
                t.push(&(*player, *s, *c));
            }
        }
    })
}

/// The counts of a database (`choice_counts.parquet`; none where the database was built without choices).
pub fn read_db(dir: &Path) -> Result<HashMap<String, ChoiceCounts>> {
    let path = dir.join(CHOICES);
    let mut out: HashMap<String, ChoiceCounts> = HashMap::new();
    let Ok(file) = std::fs::File::open(&path) else { return Ok(out) };
    for batch in ParquetRecordBatchReaderBuilder::try_new(file)?.build()? {
        let b = batch.with_context(|| path.display().to_string())?;
        let col = |c: &str| b.column_by_name(c).with_context(|| format!("{}: no {c} column", path.display()));
        let (player, offer, context) =
            (col("player")?.as_string::<i32>(), col("offer")?.as_string::<i32>(), col("context")?);
        let context = context.as_primitive::<UInt8Type>();
        let (offered, taken) =
            (col("offered")?.as_primitive::<UInt64Type>(), col("taken")?.as_primitive::<UInt64Type>());
        for i in 0..b.num_rows() {
            let offer = Offer::named(offer.value(i))
                .with_context(|| format!("{}: an offer {:?} of no known kind", path.display(), offer.value(i)))?;
            let s = Situation { offer, context: context.value(i) };
            let c = Count { offered: offered.value(i), taken: taken.value(i) };
            out.entry_ref(player.value(i)).or_default().0.entry(s).or_default().add(c);
        }
    }
    Ok(out)
}

/// One rate per opportunity of a player beside everyone's ([`CHOICE_RATES`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChoiceRate {
    pub name: &'static str,
    pub what: &'static str,
    pub player: Count,
    pub everyone: Count,
    /// The player's share and its 95% Wilson interval (`None` without an offer).
    pub share: Option<f64>,
    pub interval: Option<(f64, f64)>,
    pub everyone_share: Option<f64>,
}

/// The rates per opportunity of `own` (a player's counts, or none) beside everyone's.
pub fn rates(own: Option<&ChoiceCounts>, all: &ChoiceCounts) -> Vec<ChoiceRate> {
    let share = |c: Count| (c.offered > 0).then(|| c.taken as f64 / c.offered as f64);
    CHOICE_RATES
        .iter()
        .map(|r| {
            let player = own.map(|c| c.summed(r.of)).unwrap_or_default();
            let everyone = all.summed(r.of);
            ChoiceRate {
                name: r.name,
                what: r.what,
                player,
                everyone,
                share: share(player),
                interval: wilson(player),
                everyone_share: share(everyone),
            }
        })
        .collect()
}

/// The 95% Wilson score interval of a share.
pub fn wilson(c: Count) -> Option<(f64, f64)> {
    if c.offered == 0 {
        return None;
    }
    let (n, p, z) = (c.offered as f64, c.taken as f64 / c.offered as f64, 1.96f64);
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    Some((centre - half, centre + half))
}

#[cfg(test)]
mod tests {
    use super::*;
    use haifu_rules::hand::HandNotation;

    fn hand(s: &str) -> Counts {
        s.parse::<HandNotation>().unwrap().counts
    }

    /// East seat (dealer) of East 1, turn 5, nobody in riichi.
    fn spot(h: &str, tile: &str, melds: &[&str], riichi_seats: u8) -> Spot {
        let melds: Vec<String> = melds.iter().map(|m| m.to_string()).collect();
        Spot::of_row(&hand(h), &melds, (0, 4, 0), 5, riichi_seats, tile.parse().unwrap()).unwrap()
    }

    #[test]
    fn options_read_as_the_table_writes_them() {
        assert_eq!(Opt::parse("chi 4m6m"), Some(Opt::Chi(["4m".parse().unwrap(), "6m".parse().unwrap()])));
        assert_eq!(Opt::parse("chi 5mr6m"), Some(Opt::Chi(["5m".parse().unwrap(), "6m".parse().unwrap()])));
        assert_eq!(Opt::parse("pon PP"), Some(Opt::Pon));
        assert_eq!(Opt::parse("kakan 5pr"), Some(Opt::Kakan("5p".parse().unwrap())));
        assert_eq!(Opt::parse("ankan E"), Some(Opt::Ankan(Kind::EAST)));
        assert_eq!(Opt::parse("riichi"), Some(Opt::Riichi));
        assert_eq!(Opt::parse("discard"), None);
        assert_eq!(Opt::parse("pass"), None);
        assert_eq!(Opt::parse("chi 4m"), None, "a chi names two tiles");
        assert_eq!(tile_kinds("3p4p5pr").map(|k| k.len()), Some(3));
        assert_eq!(tile_kinds("3x"), None);
    }

    #[test]
    fn a_value_pon_that_advances_with_its_yaku() {
        // 13 tiles, one from tenpai: a pair of white dragons (P = 5z)
        let s = spot("123m456p78s399s55z", "P", &[], 0);
        let found = s.situations(&[Opt::Pon]);
        assert_eq!(found, vec![(Situation { offer: Offer::Pon, context: ADVANCES | YAKU | VALUE }, 0)]);
        // the same pon after another seat's riichi
        let s = spot("123m456p78s399s55z", "P", &[], 0b10);
        assert_eq!(s.situations(&[Opt::Pon])[0].0.context, THREAT | ADVANCES | YAKU | VALUE);
        // after a chi, a pon of 9s that makes tenpai, but with terminals, three suits and a pair of norths (no
        // value for the dealer in the east round): no yaku in sight
        let s = spot("456p78s399s44z", "9s", &["chi:1m2m3m"], 0);
        let (situation, _) = s.situations(&[Opt::Pon])[0];
        assert_eq!(situation.context, ADVANCES | OPEN, "{situation}");
        assert_eq!(situation.to_string(), "pon advances open");
    }

    #[test]
    fn of_two_chi_the_one_closest_to_tenpai_stands_for_the_kind() {
        // 4m shown: either chi leaves tenpai
        let s = spot("2356m567p123s155z", "4m", &[], 0);
        let (a, b) = (
            Opt::Chi(["2m".parse().unwrap(), "3m".parse().unwrap()]),
            Opt::Chi(["5m".parse().unwrap(), "6m".parse().unwrap()]),
        );
        let found = s.situations(&[b, a, Opt::Ron]);
        assert_eq!(found.len(), 2, "one situation per kind: {found:?}");
        assert_eq!(found[0].0.offer, Offer::Chi);
        assert_eq!(found[1].0.offer, Offer::Ron);
    }

    #[test]
    fn riichi_by_wait_turn_and_dealer() {
        // 14 tiles: cutting 9s leaves 23m waiting on 1m and 4m (two kinds)
        let s = spot("23m456m789p123s9s55z", "9s", &[], 0);
        let (situation, _) = s.situations(&[Opt::Riichi])[0];
        assert_eq!(situation.context, GOOD_WAIT | DEALER, "{situation}");
        // a kanchan wait on 2m only, at turn 12 of a non-dealer
        let mut s = spot("13m456m789p123s9s55z", "9s", &[], 0);
        (s.turn, s.winds.seat) = (12, Kind::from_index(Kind::EAST.index() + 1));
        assert_eq!(s.situations(&[Opt::Riichi])[0].0.context, 2 << TURN_SHIFT);
        assert_eq!(s.situations(&[Opt::Riichi])[0].0.to_string(), "riichi turn 12+");
    }

    #[test]
    fn shares_smooth_towards_everyones() {
        let s = Situation { offer: Offer::Pon, context: VALUE };
        let mut all = ChoiceCounts::default();
        all.0.insert(s, Count { offered: 998, taken: 799 });
        let mut own = ChoiceCounts::default();
        // no offer of its own: everyone's share (800 of 1000 with the one take and one pass added)
        assert!((take_share(Some(&own), &all, &s) - 0.8).abs() < 1e-12);
        // five passes of its own weigh as much as everyone's rate
        own.0.insert(s, Count { offered: 5, taken: 0 });
        assert!((take_share(Some(&own), &all, &s) - 0.4).abs() < 1e-12);
        let c = wilson(Count { offered: 100, taken: 50 }).unwrap();
        assert!((c.0 - 0.4038).abs() < 1e-3 && (c.1 - 0.5962).abs() < 1e-3, "{c:?}");
    }
}
