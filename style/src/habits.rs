//! The habits that tell players apart (issue 50), each a share with its counts: of the times the hand had the
//! choice, how often the player took it. Three kinds, fixed before any measurement:
//!
//! - **which kind goes**: at each chosen discard whose hand held tiles of two classes or more (dragon, value
//!   wind, guest wind, terminal, 2/8, 3/7, 4-6), each class held is an opportunity and the class discarded is
//!   taken, by turn (1, 2-3, 4-6, 7-9, 10-12, 13+). The honors that no suit sequence holds (SPEC 2) are here,
//!   and only among the options the hand really had: a hand of one class offers no choice and counts nothing;
//! - **tsumogiri**: of the chosen discards after a draw, those of the tile drawn, by the same turns;
//! - **backing off**: of the chosen discards, those that leave the hand further from tenpai than the best
//!   discard would (folding, or breaking a shape), with and without another seat's riichi, by turn (1-6, 7-12,
//!   13+);
//! - **which copy** (added 2026-12-05): where the kind discarded after a draw is the kind drawn and the hand
//!   held another copy, those of the copy just drawn ([`crate::discards::Copies`]).
//!
//! Calls, riichi and kans per opportunity are the choices' counts ([`crate::choice`]). Counts add, so
//! databases merge; a player's share is smoothed towards everyone's ([`PRIOR`]).

use std::path::Path;

use anyhow::{bail, Context, Result};
use arrow::array::{Array, AsArray};
use arrow::datatypes::UInt64Type;
use hashbrown::HashMap;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde::Serialize;

use haifu_imitate::rank::Winds;
use haifu_ingest::columns;
use haifu_ingest::columns::{Table, UInt64, Utf8};
use haifu_ingest::extract::TileSource;
use haifu_mining::tables::write_table;
use haifu_rules::Kind;

use crate::choice::{wilson, Count};
use crate::discards::copy_choice;
use crate::played::Played;

/// The database's file of habit counts.
pub const HABITS_FILE: &str = "habit_counts.parquet";

/// A discarded tile's class, as a player weighs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KindClass {
    Dragon,
    /// The round's or the seat's wind.
    ValueWind,
    GuestWind,
    Terminal,
    TwoEight,
    ThreeSeven,
    Middle,
}

impl KindClass {
    pub const ALL: [KindClass; 7] = [
        KindClass::Dragon,
        KindClass::ValueWind,
        KindClass::GuestWind,
        KindClass::Terminal,
        KindClass::TwoEight,
        KindClass::ThreeSeven,
        KindClass::Middle,
    ];

    pub fn of(k: Kind, winds: &Winds) -> KindClass {
        if k.is_dragon() {
            KindClass::Dragon
        } else if k.is_honor() {
            if winds.is_value(k) {
                KindClass::ValueWind
            } else {
                KindClass::GuestWind
            }
        } else {
            match k.digit() {
                1 | 9 => KindClass::Terminal,
                2 | 8 => KindClass::TwoEight,
                3 | 7 => KindClass::ThreeSeven,
                _ => KindClass::Middle,
            }
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            KindClass::Dragon => "dragon",
            KindClass::ValueWind => "value_wind",
            KindClass::GuestWind => "guest_wind",
            KindClass::Terminal => "terminal",
            KindClass::TwoEight => "two_eight",
            KindClass::ThreeSeven => "three_seven",
            KindClass::Middle => "middle",
        }
    }

    pub fn what(self) -> &'static str {
        match self {
            KindClass::Dragon => "a dragon",
            KindClass::ValueWind => "a value wind",
            KindClass::GuestWind => "a guest wind",
            KindClass::Terminal => "a terminal",
            KindClass::TwoEight => "a 2 or 8",
            KindClass::ThreeSeven => "a 3 or 7",
            KindClass::Middle => "a 4, 5 or 6",
        }
    }
}

/// The turns of the discard classes and tsumogiri: (name, first turn, last turn).
const TURNS: [(&str, u8, u8); 6] =
    [("t1", 1, 1), ("t2_3", 2, 3), ("t4_6", 4, 6), ("t7_9", 7, 9), ("t10_12", 10, 12), ("t13", 13, u8::MAX)];
/// The turns of backing off.
const PHASES: [(&str, u8, u8); 3] = [("t1_6", 1, 6), ("t7_12", 7, 12), ("t13", 13, u8::MAX)];

const CLASSES: usize = KindClass::ALL.len();
const TSUMOGIRI_AT: usize = CLASSES * TURNS.len();
const BACK_OFF_AT: usize = TSUMOGIRI_AT + TURNS.len();
const DRAWN_COPY: usize = BACK_OFF_AT + 2 * PHASES.len();
/// How many habits there are.
pub const HABITS: usize = DRAWN_COPY + 1;

fn turn_of(buckets: &[(&str, u8, u8)], turn: u8) -> usize {
    buckets.iter().position(|&(_, lo, hi)| (lo..=hi).contains(&turn)).unwrap_or(0)
}

/// A habit's name in the database and on the pages (`first_dragon_t1`, `tsumogiri_t7_9`, `back_off_threat_t13`).
pub fn habit_name(i: usize) -> String {
    if i < TSUMOGIRI_AT {
        format!("discard_{}_{}", KindClass::ALL[i % CLASSES].name(), TURNS[i / CLASSES].0)
    } else if i < BACK_OFF_AT {
        format!("tsumogiri_{}", TURNS[i - TSUMOGIRI_AT].0)
    } else if i < DRAWN_COPY {
        let j = i - BACK_OFF_AT;
        let threat = if j >= PHASES.len() { "threat_" } else { "" };
        format!("back_off_{threat}{}", PHASES[j % PHASES.len()].0)
    } else {
        "drawn_copy".into()
    }
}

/// What a habit's share is, in words.
pub fn habit_what(i: usize) -> String {
    let turns = |b: (&str, u8, u8)| match b {
        (_, lo, u8::MAX) => format!("turn {lo}+"),
        (_, lo, hi) if lo == hi => format!("turn {lo}"),
        (_, lo, hi) => format!("turns {lo}-{hi}"),
    };
    if i < TSUMOGIRI_AT {
        let (class, t) = (KindClass::ALL[i % CLASSES], TURNS[i / CLASSES]);
        format!("discards {} when the hand holds one and another class ({})", class.what(), turns(t))
    } else if i < BACK_OFF_AT {
        format!("discards the tile just drawn ({})", turns(TURNS[i - TSUMOGIRI_AT]))
    } else if i < DRAWN_COPY {
        let j = i - BACK_OFF_AT;
        let threat = if j >= PHASES.len() { "after another's riichi" } else { "nobody in riichi" };
        format!("discards away from tenpai, {threat} ({})", turns(PHASES[j % PHASES.len()]))
    } else {
        "discards the copy just drawn when the hand held another of the kind (fives left out)".into()
    }
}

/// One seat's, one player's or everyone's counts of every habit, in the order of [`habit_name`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HabitCounts(pub [Count; HABITS]);

impl Default for HabitCounts {
    fn default() -> HabitCounts {
        HabitCounts([Count::default(); HABITS])
    }
}

impl HabitCounts {
    pub fn add(&mut self, o: &HabitCounts) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            a.add(*b);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|c| c.offered == 0)
    }

    fn count(&mut self, habit: usize, taken: bool) {
        self.0[habit].add(Count { offered: 1, taken: u64::from(taken) });
    }
}

/// Each seat's habit counts in a game (`n_players` of them). Needs the discards' tiles ([`crate::played::Reading`]
/// `tiles`); a discard without them counts only its tsumogiri.
pub fn of_game(g: &Played) -> Vec<HabitCounts> {
    let mut out = vec![HabitCounts::default(); usize::from(g.n_players)];
    // seats that declared riichi in the round of the decision being counted (bit per seat)
    let mut riichi: (u16, u8) = (u16::MAX, 0);
    for d in &g.decisions {
        if riichi.0 != d.round {
            riichi = (d.round, 0);
        }
        let threat = riichi.1 & !(1 << d.seat) != 0;
        if d.riichi {
            riichi.1 |= 1 << d.seat;
        }
        if d.in_riichi {
            continue;
        }
        let h = &mut out[usize::from(d.seat)];
        let turn = turn_of(&TURNS, d.turn);
        if d.source == TileSource::Draw {
            h.count(TSUMOGIRI_AT + turn, d.tsumogiri);
        }
        if let Some(tsumogiri) = copy_choice(d) {
            h.count(DRAWN_COPY, tsumogiri);
        }
        let Some(tiles) = &d.tiles else { continue };
        let kyoku = g.rounds.get(usize::from(d.round)).map_or(0, |r| r.kyoku);
        let winds = Winds::of_seat(kyoku, d.seat, g.n_players);
        let mut held = [false; CLASSES];
        for (k, &n) in tiles.hand.iter().enumerate() {
            if n > 0 {
                held[KindClass::of(Kind::from_index(k as u8), &winds) as usize] = true;
            }
        }
        let discarded = KindClass::of(tiles.discard.kind(), &winds) as usize;
        if held.iter().filter(|&&x| x).count() >= 2 {
            for c in (0..CLASSES).filter(|&c| held[c]) {
                h.count(turn * CLASSES + c, c == discarded);
            }
        }
        // the best discard leaves the hand at the shanten of its 3n+2 tiles
        let backs_off = tiles.shanten_after > tiles.shanten_before;
        let phase = turn_of(&PHASES, d.turn) + if threat { PHASES.len() } else { 0 };
        h.count(BACK_OFF_AT + phase, backs_off);
    }
    out
}

/// How many pseudo-opportunities at everyone's share a player's own share is smoothed with.
pub const PRIOR: f64 = 20.0;

/// A player's share of a habit smoothed towards everyone's (everyone's towards even by one of each).
pub fn smoothed(own: Count, all: Count) -> f64 {
    let prior = all.even_share();
    (own.taken as f64 + PRIOR * prior) / (own.offered as f64 + PRIOR)
}

/// Log-likelihood of `seen`'s habits (binomial draws) under a player's smoothed shares.
pub fn log_likelihood(player: Option<&HabitCounts>, all: &HabitCounts, seen: &HabitCounts) -> f64 {
    let none = Count::default();
    (0..HABITS)
        .filter(|&i| seen.0[i].offered > 0)
        .map(|i| {
            let p = smoothed(player.map_or(none, |h| h.0[i]), all.0[i]).clamp(1e-6, 1.0 - 1e-6);
            let (k, n) = (seen.0[i].taken as f64, seen.0[i].offered as f64);
            k * p.ln() + (n - k) * (1.0 - p).ln()
        })
        .sum()
}

/// A habit of a player set against everyone's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Distinct {
    pub name: String,
    pub what: String,
    pub player: Count,
    pub everyone: Count,
    pub share: f64,
    /// The player's share's 95% Wilson interval.
    pub interval: (f64, f64),
    pub everyone_share: f64,
    /// How many standard errors the player's share lies from everyone's (the binomial's under everyone's share):
    /// the ranking key.
    pub z: f64,
}

/// The player's habits, the most distinctive first (largest |z|); habits the player had no opportunity for are
/// left out.
pub fn distinctive(own: &HabitCounts, all: &HabitCounts) -> Vec<Distinct> {
    let mut v: Vec<Distinct> = (0..HABITS)
        .filter(|&i| own.0[i].offered > 0 && all.0[i].offered > 0)
        .map(|i| {
            let (p, e) = (own.0[i], all.0[i]);
            let everyone_share = e.taken as f64 / e.offered as f64;
            let share = p.taken as f64 / p.offered as f64;
            let se = (everyone_share * (1.0 - everyone_share) / p.offered as f64).sqrt().max(1e-9);
            Distinct {
                name: habit_name(i),
                what: habit_what(i),
                player: p,
                everyone: e,
                share,
                interval: wilson(p).unwrap_or((0.0, 1.0)),
                everyone_share,
                z: (share - everyone_share) / se,
            }
        })
        .collect();
    v.sort_by(|a, b| b.z.abs().total_cmp(&a.z.abs()).then_with(|| a.name.cmp(&b.name)));
    v
}

columns! {
    /// `habit_counts.parquet`: per profiled player and ALL, each habit's opportunities and takes.
    pub struct HabitsTable("habit_counts") for<'a> |r: (&'a str, usize, Count)| {
        let (player, habit, c) = *r;
        let name = habit_name(habit);
    }
    player: Utf8 = player,
    habit: Utf8 = name.as_str(),
    offered: UInt64 = c.offered,
    taken: UInt64 = c.taken,
}

/// Writes the habit counts of `per` (player, counts; ALL among them).
pub fn write(path: &Path, per: &[(&str, &HabitCounts)]) -> Result<()> {
    write_table(path, |t: &mut HabitsTable| {
        for (player, h) in per {
            for (i, c) in h.0.iter().enumerate() {
                t.push(&(*player, i, *c));
            }
        }
    })
}

/// The habit counts of a database, by player (empty where it has none: built before habits were counted).
pub fn read_db(dir: &Path) -> Result<HashMap<String, HabitCounts>> {
    let path = dir.join(HABITS_FILE);
    let mut out: HashMap<String, HabitCounts> = HashMap::new();
    let Ok(file) = std::fs::File::open(&path) else { return Ok(out) };
    let index: HashMap<String, usize> = (0..HABITS).map(|i| (habit_name(i), i)).collect();
    for batch in ParquetRecordBatchReaderBuilder::try_new(file)?.build()? {
        let b = batch.with_context(|| path.display().to_string())?;
        let col = |c: &str| b.column_by_name(c).with_context(|| format!("{}: no {c} column", path.display()));
        let (player, habit) = (col("player")?.as_string::<i32>(), col("habit")?.as_string::<i32>());
        let (offered, taken) =
            (col("offered")?.as_primitive::<UInt64Type>(), col("taken")?.as_primitive::<UInt64Type>());
        for i in 0..b.num_rows() {
            if player.is_null(i) || habit.is_null(i) {
                bail!("{}: row {i} names no player or habit", path.display());
            }
            // a habit this version does not count (a later one's) is left out
            let Some(&h) = index.get(habit.value(i)) else { continue };
            let c = Count { offered: offered.value(i), taken: taken.value(i) };
            out.entry_ref(player.value(i)).or_default().0[h].add(c);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_habit_has_its_own_name() {
        let names: hashbrown::HashSet<String> = (0..HABITS).map(habit_name).collect();
        assert_eq!(names.len(), HABITS);
        assert_eq!(habit_name(0), "discard_dragon_t1");
        assert_eq!(habit_name(TSUMOGIRI_AT), "tsumogiri_t1");
        assert_eq!(habit_name(DRAWN_COPY - 1), "back_off_threat_t13");
        assert_eq!(habit_name(HABITS - 1), "drawn_copy");
    }

    #[test]
    fn classes_follow_the_seat_and_round_winds() {
        // East 1, seat 1 (South): East (round) and South (seat) are value winds, West and North guests
        let w = Winds::of_seat(0, 1, 4);
        let class = |k: u8| KindClass::of(Kind::from_index(k), &w);
        assert_eq!(class(27), KindClass::ValueWind);
        assert_eq!(class(28), KindClass::ValueWind);
        assert_eq!(class(29), KindClass::GuestWind);
        assert_eq!(class(33), KindClass::Dragon);
        assert_eq!(class(9), KindClass::Terminal);
        assert_eq!(class(16), KindClass::TwoEight);
        assert_eq!(class(24), KindClass::ThreeSeven);
        assert_eq!(class(4), KindClass::Middle);
    }

    #[test]
    fn a_share_far_from_everyones_ranks_first() {
        let mut all = HabitCounts::default();
        let mut own = HabitCounts::default();
        for i in 0..HABITS {
            all.0[i] = Count { offered: 1000, taken: 300 };
            own.0[i] = Count { offered: 100, taken: 30 };
        }
        own.0[5] = Count { offered: 100, taken: 60 };
        own.0[7] = Count { offered: 100, taken: 20 };
        let d = distinctive(&own, &all);
        assert_eq!(d[0].name, habit_name(5));
        assert_eq!(d[1].name, habit_name(7));
        assert!(d[0].z > 6.0 && d[1].z < -2.0);
        assert!(d[0].interval.0 < 0.6 && 0.6 < d[0].interval.1);
    }
}
