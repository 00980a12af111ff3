//! Counting sequences (SPEC 2) per scope (a player, or `ALL`), strategy (SPEC 3) and source, from the
//! decisions table. Two engines give the same counts: a Polars lazy query over the Parquet files
//! ([`crate::polars_engine`], the engine-independent description) and a Rust fast path (this module), which
//! reads only the needed columns with arrow-rs and counts in hash maps, one part file per rayon task.
//!
//! Which decisions feed which table:
//! - `all`: every decision of the selected years (`--rounds won`: only decisions of rounds that ended in a
//!   win, the thesis's generation data);
//! - `tanyao`, `chanta`, `yakuhai`: the decisions of a player who won the round with that strategy's yaku
//!   (`--strategy-rounds all`: every player's decisions in a round that some win realised it in).
//!
//! Scopes: `ALL` counts every player's decisions; a player scope counts that player's, for the chosen
//! players (named, at least N games, or everyone).

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use arrow::array::{AsArray, ListArray};
use arrow::datatypes::{DataType, Int64Type, UInt16Type, UInt32Type, UInt8Type};
use hashbrown::{HashMap, HashSet};
use rayon::prelude::*;
use serde::Serialize;

use crate::dataset::{
    cast_to, choose_players, dictionary, for_each_batch, for_each_batch_as, games_per_player, part_files, player_names,
};
use crate::strategy::Strategy;

/// The scope of the tables over every player.
pub const ALL_SCOPE: &str = "ALL";

/// Sources of the tile before a discard, as the decisions table writes them (docs/SCHEMA.md).
pub const SOURCES: [&str; 5] = ["draw", "chi", "pon", "kan", "nuki"];

/// The suits' shape-key column pairs in the decisions table ([`haifu_rules::hand::shape_key`]): what the
/// engines count.
pub const SUIT_KEY_COLUMNS: [(&str, &str); 3] =
    [("man_before_key", "man_after_key"), ("pin_before_key", "pin_after_key"), ("sou_before_key", "sou_after_key")];

/// Which rounds feed the `all` table (SPEC 3 Decision).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RoundsMode {
    /// Every round.
    All,
    /// Rounds that ended in a win (the thesis's generation data, 5.1.2).
    Won,
}

/// Whose decisions feed a strategy's table (SPEC 3 Decision).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StrategyRounds {
    /// The winner's, in rounds won with the strategy's yaku.
    Winner,
    /// Every player's, in rounds some win realised the strategy in.
    All,
}

/// Which back end counts the sequences (the command line's `--engine`; the game engine is `haifu_sim::Engine`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    Rust,
    Polars,
    /// PySpark DataFrame code handed to `spark-submit` (`spark::mine_spark`).
    Spark,
}

macro_rules! text_enum {
    ($t:ty, $what:literal, $($name:literal => $v:expr),+) => {
        impl FromStr for $t {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                match s {
                    $($name => Ok($v),)+
                    _ => Err(format!(concat!("unknown ", $what, " {:?}: one of {}"), s, [$($name),+].join(", "))),
                }
            }
        }
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                $(if *self == $v { return f.write_str($name); })+
                unreachable!()
            }
        }
    };
}
text_enum!(RoundsMode, "rounds mode", "all" => RoundsMode::All, "won" => RoundsMode::Won);
text_enum!(StrategyRounds, "strategy rounds", "winner" => StrategyRounds::Winner, "all" => StrategyRounds::All);
text_enum!(Backend, "engine", "rust" => Backend::Rust, "polars" => Backend::Polars, "spark" => Backend::Spark);

/// What `haifu mine` was asked for; recorded in `meta.json`.
#[derive(Clone, Debug, Serialize)]
pub struct MineOptions {
    /// Years of games (hive partitions); empty = every year.
    pub years: Vec<i32>,
    /// Player scopes by name; `None` = by `min_games`, or every player.
    pub players: Option<Vec<String>>,
    pub min_games: Option<u32>,
    pub rounds: RoundsMode,
    pub strategy_rounds: StrategyRounds,
    pub engine: Backend,
    /// Keep only this fraction of the games (0 < f <= 1), chosen by a hash of `game_id`: the same games
    /// for every run, and a smaller fraction's games are a subset of a larger one's (learning curves).
    /// Rust engine only.
    pub sample: Option<f64>,
}

/// Whether a game is in the sample `fraction` (see [`MineOptions::sample`]).
pub use haifu_ingest::stored::in_sample;

impl Default for MineOptions {
    fn default() -> Self {
        MineOptions {
            years: Vec::new(),
            players: None,
            min_games: None,
            rounds: RoundsMode::All,
            strategy_rounds: StrategyRounds::Winner,
            engine: Backend::Rust,
            sample: None,
        }
    }
}

/// One row of the sequence table: a (before, after) pair counted in a scope, strategy and source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SeqCount {
    /// Index into [`Mined::scopes`].
    pub scope: u32,
    /// Index into [`Strategy::EVERY`].
    pub strategy: u8,
    /// Index into [`SOURCES`].
    pub source: u8,
    pub before: u32,
    pub after: u32,
    pub count: u64,
}

impl SeqCount {
    /// The table's row order (scope, strategy, source, before, after) as one integer: cheaper to sort by
    /// than the tuple (keys fit in 21 bits: 5^9 < 2^21).
    #[inline]
    pub fn order(&self) -> u128 {
        (u128::from(self.scope) << 64)
            | (u128::from(self.strategy) << 56)
            | (u128::from(self.source) << 48)
            | (u128::from(self.before) << 24)
            | u128::from(self.after)
    }
}

/// Per scope and strategy: what fed the table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ScopeStats {
    pub rounds: u64,
    pub decisions: u64,
    pub sequences: u64,
    pub distinct: u64,
}

/// The result of a mining run.
#[derive(Clone, Debug, Default)]
pub struct Mined {
    /// `ALL` first, then the player scopes by name.
    pub scopes: Vec<String>,
    /// Games of each scope in the selected years (`ALL`: every game).
    pub games: Vec<u32>,
    /// Sorted by (scope, strategy, source, before, after); counts are never 0.
    pub counts: Vec<SeqCount>,
    /// `stats[scope][strategy]`.
    pub stats: Vec<[ScopeStats; 4]>,
    /// Decision rows read.
    pub decisions_read: u64,
    pub elapsed_s: f64,
}

impl Mined {
    pub fn scope_index(&self, name: &str) -> Option<usize> {
        self.scopes.iter().position(|s| s == name)
    }

    /// Fills `distinct` and `sequences` of [`ScopeStats`] from the counts.
    pub(crate) fn finish_stats(&mut self) {
        debug_assert!(self.counts.is_sorted_by_key(SeqCount::order));
        for s in self.stats.iter_mut().flatten() {
            s.distinct = 0;
            s.sequences = 0;
        }
        // distinct pairs over sources: the counts are sorted by (scope, strategy, source, ...), so each
        // (scope, strategy) is one run, in which the same (before, after) may come from several sources
        let mut pairs: Vec<u64> = Vec::new();
        for run in self.counts.chunk_by(|a, b| (a.scope, a.strategy) == (b.scope, b.strategy)) {
            pairs.clear();
            pairs.extend(run.iter().map(|c| (u64::from(c.before) << 32) | u64::from(c.after)));
            // the run is one sorted sub-run per source: the stable sort finds and merges them in one pass each
            pairs.sort();
            pairs.dedup();
            let st = &mut self.stats[run[0].scope as usize][usize::from(run[0].strategy)];
            st.sequences = run.iter().map(|c| c.count).sum();
            st.distinct = pairs.len() as u64;
        }
    }
}

/// The dataset's selection resolved: files, scopes, and the round flags when the options need them.
pub(crate) struct Plan {
    pub decisions: Vec<PathBuf>,
    pub rounds: Vec<PathBuf>,
    pub scopes: Vec<String>,
    /// Games of each scope; `None` where [`Games::WhileCounting`] leaves them to the counting pass (`ALL`'s
    /// to the rounds table it reads anyway).
    pub games: Vec<Option<u32>>,
}

/// When an engine learns each player's games.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Games {
    /// Before counting, in a pass of their own over `game_id` and `player`.
    First,
    /// While counting (the Rust engine): a pass of their own only when they choose the players (`--min-games`)
    /// or a sample may leave a player without games; else the players are the names of `player`'s
    /// dictionaries.
    WhileCounting,
}

pub(crate) fn plan(dataset: &Path, opts: &MineOptions, when: Games) -> Result<Plan> {
    let decisions = part_files(dataset, "decisions", &opts.years)?;
    let rounds = part_files(dataset, "rounds", &opts.years)?;
    if let Some(f) = opts.sample {
        if !(f > 0.0 && f <= 1.0) {
            bail!("the sample fraction must be in (0, 1], not {f}");
        }
    }
    let first = when == Games::First || opts.min_games.is_some() || opts.sample.is_some();
    let per_player: HashMap<String, Option<u32>> = if first {
        let games = games_per_player(&decisions, |g| in_sample(g, opts.sample))?;
        games.into_iter().map(|(p, g)| (p, Some(g))).collect()
    } else {
        player_names(&decisions)?.into_iter().map(|p| (p, None)).collect()
    };
    let players = match (&opts.players, opts.sample) {
        // a named player may have no game in a small sample: an empty table, not an error
        (Some(names), Some(_)) => {
            let mut v = names.clone();
            v.sort();
            v.dedup();
            v
        }
        _ => choose_players(&per_player, opts.players.as_deref(), opts.min_games, dataset, &opts.years)?,
    };
    if players.iter().any(|p| p == ALL_SCOPE) {
        bail!("a player named {ALL_SCOPE:?} would clash with the all-players scope");
    }
    let all_games = if when == Games::First { Some(count_games(&rounds, opts.sample)?) } else { None };
    let mut scopes = vec![ALL_SCOPE.to_string()];
    let mut games = vec![all_games];
    for p in players {
        games.push(if first { Some(per_player.get(&p).copied().flatten().unwrap_or(0)) } else { None });
        scopes.push(p);
    }
    Ok(Plan { decisions, rounds, scopes, games })
}

fn count_games(rounds: &[PathBuf], sample: Option<f64>) -> Result<u32> {
    let mut ids: HashSet<i64> = HashSet::new();
    for path in rounds {
        for_each_batch(path, &["game_id"], |b| {
            let g = cast_to(b, "game_id", &DataType::Int64, path)?;
            ids.extend(g.as_primitive::<Int64Type>().values().iter().copied().filter(|&g| in_sample(g, sample)));
            Ok(())
        })?;
    }
    Ok(ids.len() as u32)
}

/// Bits of a round: [`WON`], and `1 << (1 + s)` for each strategy `s` (index in [`Strategy::YAKU`]) some
/// win of the round realised.
pub(crate) const WON: u8 = 1;

/// Strategy bits of a list of yaku ids: bit `1 + s` for strategy `Strategy::YAKU[s]` (bit 0 is [`WON`]).
fn strategy_bits(yaku: &[u8]) -> u8 {
    Strategy::yaku_bits(yaku) << 1
}

/// What counting needs of a round, from the rounds table.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RoundFacts {
    /// [`WON`] | strategy bits of every win.
    flags: u8,
    /// Strategy bits of each seat's win, as [`strategy_bits`] (0: the seat did not win). A strategy's table
    /// takes a winner's decisions by these; the rounds table holds them once per win where the decisions
    /// table repeats the winner's yaku in every row (reading that list column was 5% of a `haifu mine`).
    by_seat: [u8; 4],
}

/// Every round's facts: `(game_id, round)` -> [`RoundFacts`].
fn round_facts(files: &[PathBuf]) -> Result<HashMap<(i64, u16), RoundFacts>> {
    let parts = files
        .par_iter()
        .map(|path| {
            let mut facts = HashMap::new();
            for_each_batch(path, &["game_id", "round", "result", "wins.who", "wins.yaku"], |b| {
                let g = cast_to(b, "game_id", &DataType::Int64, path)?;
                let r = cast_to(b, "round", &DataType::UInt16, path)?;
                let result = cast_to(b, "result", &DataType::Utf8, path)?;
                let (g, r, result) =
                    (g.as_primitive::<Int64Type>(), r.as_primitive::<UInt16Type>(), result.as_string::<i32>());
                let wins = list(b, "wins")?;
                let win = wins.values().as_struct_opt().ok_or_else(|| anyhow!("`wins` is not a list of structs"))?;
                let yaku = win
                    .column_by_name("yaku")
                    .and_then(|c| c.as_list_opt::<i32>())
                    .ok_or_else(|| anyhow!("`wins.yaku` is not a list"))?;
                let yaku_ids = u8_values(yaku)?;
                let who = win
                    .column_by_name("who")
                    .and_then(|c| c.as_primitive_opt::<UInt8Type>())
                    .ok_or_else(|| anyhow!("`wins.who` is not UInt8"))?;
                for i in 0..b.num_rows() {
                    let mut round =
                        RoundFacts { flags: if result.value(i) == "agari" { WON } else { 0 }, ..Default::default() };
                    let (w0, w1) = (wins.value_offsets()[i] as usize, wins.value_offsets()[i + 1] as usize);
                    for w in w0..w1 {
                        let (y0, y1) = (yaku.value_offsets()[w] as usize, yaku.value_offsets()[w + 1] as usize);
                        // yakuman ids (a list of their own) realise no strategy
                        let bits = strategy_bits(&yaku_ids[y0..y1]);
                        round.flags |= bits;
                        let seat = round.by_seat.get_mut(usize::from(who.value(w))).ok_or_else(|| {
                            anyhow!("game {} round {}: a win by seat {}", g.value(i), r.value(i), who.value(w))
                        })?;
                        *seat |= bits;
                    }
                    facts.insert((g.value(i), r.value(i)), round);
                }
                Ok(())
            })?;
            Ok(facts)
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(parts.into_iter().flatten().collect())
}

fn list<'a>(b: &'a arrow::array::RecordBatch, name: &str) -> Result<&'a ListArray> {
    b.column_by_name(name)
        .and_then(|c| c.as_list_opt::<i32>())
        .ok_or_else(|| anyhow!("column `{name}` is missing or not a list"))
}

fn u8_values(l: &ListArray) -> Result<&[u8]> {
    Ok(l.values().as_primitive_opt::<UInt8Type>().ok_or_else(|| anyhow!("list values are not UInt8"))?.values())
}

/// Which of the four tables (bits by index in [`Strategy::EVERY`]) a decision feeds.
#[inline]
pub(crate) fn tables_of(opts: &MineOptions, round: u8, won_by_me: bool, my_yaku_bits: u8) -> u8 {
    let all = match opts.rounds {
        RoundsMode::All => 1,
        RoundsMode::Won => u8::from(round & WON != 0),
    };
    // strategy bits sit at 1 << (1 + s) in both `round` and `my_yaku_bits`, as in `Strategy::EVERY`
    let strategies = match opts.strategy_rounds {
        StrategyRounds::Winner if won_by_me => my_yaku_bits,
        StrategyRounds::Winner => 0,
        StrategyRounds::All => round & !WON,
    };
    all | strategies
}

/// A count's (scope, strategy, source, before, after) packed into one integer that sorts in the table's
/// order. `u64` holds up to 2^17 scopes (keys take 21 bits each, 5^9 < 2^21; source 3 bits, strategy 2); more
/// scopes take `u128`.
trait CountKey: Copy + Ord + Send + radsort::Key {
    const MAX_SCOPES: usize;
    fn pack(scope: u32, strategy: u8, source: u8, before: u32, after: u32) -> Self;
    fn count(self, count: u64) -> SeqCount;
    /// The same key in scope 0 (`ALL`).
    fn in_all(self) -> Self;
}

impl CountKey for u64 {
    const MAX_SCOPES: usize = 1 << 17;
    #[inline]
    fn in_all(self) -> u64 {
        self & ((1 << 47) - 1)
    }
    #[inline]
    fn pack(scope: u32, strategy: u8, source: u8, before: u32, after: u32) -> u64 {
        (u64::from(scope) << 47)
            | (u64::from(strategy) << 45)
            | (u64::from(source) << 42)
            | (u64::from(before) << 21)
            | u64::from(after)
    }
    fn count(self, count: u64) -> SeqCount {
        let bits = |shift: u32, width: u32| ((self >> shift) & ((1 << width) - 1)) as u32;
        SeqCount {
            scope: bits(47, 17),
            strategy: bits(45, 2) as u8,
            source: bits(42, 3) as u8,
            before: bits(21, 21),
            after: bits(0, 21),
            count,
        }
    }
}

impl CountKey for u128 {
    const MAX_SCOPES: usize = 1 << 32;
    #[inline]
    fn in_all(self) -> u128 {
        self & u128::from(u64::MAX)
    }
    #[inline]
    fn pack(scope: u32, strategy: u8, source: u8, before: u32, after: u32) -> u128 {
        SeqCount { scope, strategy, source, before, after, count: 0 }.order()
    }
    fn count(self, count: u64) -> SeqCount {
        let bits = |shift: u32, width: u32| ((self >> shift) & ((1 << width) - 1)) as u32;
        SeqCount {
            scope: (self >> 64) as u32,
            strategy: bits(56, 8) as u8,
            source: bits(48, 8) as u8,
            before: bits(24, 24),
            after: bits(0, 24),
            count,
        }
    }
}

/// What one worker saw per slot (`scope * 4 + strategy`): decisions and rounds fed, and rows read; per scope,
/// the games with a decision of its player.
struct Slots {
    decisions: Vec<u64>,
    rounds: Vec<u64>,
    /// The last (game, round) each slot counted: a slot's decisions of one round are consecutive (a game's
    /// rows are consecutive in one file), so a new key is a new round.
    last_round: Vec<(i64, u16)>,
    games: Vec<u32>,
    /// The last game each scope counted (a new game id is a new game, as for the rounds).
    last_game: Vec<i64>,
    read: u64,
}

impl Slots {
    fn new(scopes: usize) -> Slots {
        Slots {
            decisions: vec![0; scopes * 4],
            rounds: vec![0; scopes * 4],
            last_round: vec![(i64::MIN, u16::MAX); scopes * 4],
            games: vec![0; scopes],
            last_game: vec![i64::MIN; scopes],
            read: 0,
        }
    }

    fn merge(mut self, o: Slots) -> Slots {
        for (a, b) in self.decisions.iter_mut().zip(&o.decisions) {
            *a += b;
        }
        for (a, b) in self.rounds.iter_mut().zip(&o.rounds) {
            *a += b;
        }
        // a game lives in one part file, which one worker reads
        for (a, b) in self.games.iter_mut().zip(&o.games) {
            *a += b;
        }
        self.read += o.read;
        self
    }
}

/// Occurrences gathered before they are sorted into a run: 2^23 keys (64 MiB as `u64`). The corpus's 2 M
/// decisions make about 3.5 M, one run; a larger dataset makes more runs, merged at the end.
const PENDING_KEYS: usize = 1 << 23;

/// One worker's counts: every occurrence's key appended, then radix-sorted into runs of (key, count). Sorting
/// a flat vector streams through memory, where a hash map of a million entries missed the cache on nearly
/// every update and faulted in fresh pages at each growth.
struct Partial<K> {
    pending: Vec<K>,
    runs: Vec<Vec<(K, u64)>>,
    slots: Slots,
}

impl<K: CountKey> Partial<K> {
    fn new(scopes: usize) -> Partial<K> {
        Partial { pending: Vec::new(), runs: Vec::new(), slots: Slots::new(scopes) }
    }

    #[inline]
    fn add(&mut self, key: K) {
        if self.pending.capacity() == 0 {
            // the whole buffer at once: growing by doubling copied every key about twice; pages not yet
            // written cost nothing
            self.pending.reserve_exact(PENDING_KEYS);
        }
        self.pending.push(key);
        if self.pending.len() >= PENDING_KEYS {
            self.flush();
        }
    }

    /// The pending keys sorted and counted into a run.
    fn flush(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        radsort::sort(&mut self.pending);
        // sized at once: grown by doubling, the run was copied (and its fresh pages faulted in) about twice
        let distinct = 1 + self.pending.windows(2).filter(|w| w[0] != w[1]).count();
        let mut run = Vec::with_capacity(distinct);
        run.extend(self.pending.chunk_by(|a, b| a == b).map(|same| (same[0], same.len() as u64)));
        self.runs.push(run);
        self.pending.clear();
    }

    fn merge(mut self, mut o: Partial<K>) -> Partial<K> {
        self.flush();
        o.flush();
        self.runs.append(&mut o.runs);
        Partial { pending: Vec::new(), runs: self.runs, slots: self.slots.merge(o.slots) }
    }

    /// Every run merged into one, sorted by key, each key once.
    fn into_counts(mut self) -> (Slots, Vec<(K, u64)>) {
        self.flush();
        let mut runs = std::mem::take(&mut self.runs);
        // pairwise, smallest first: each merge is one pass over its two runs
        while runs.len() > 1 {
            runs.sort_by_key(|r| std::cmp::Reverse(r.len()));
            let (a, b) = (runs.pop().unwrap_or_default(), runs.pop().unwrap_or_default());
            runs.push(merge_runs(a, b));
        }
        (self.slots, runs.pop().unwrap_or_default())
    }
}

/// Two sorted runs of (key, count) as one, the counts of a key in both added.
fn merge_runs<K: Ord + Copy>(a: Vec<(K, u64)>, b: Vec<(K, u64)>) -> Vec<(K, u64)> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if x.0 == y.0 => {
                let n = y.1;
                b.next();
                a.next().map(|(k, m)| (k, m + n))
            }
            (Some(x), Some(y)) if x.0 < y.0 => a.next(),
            (Some(_), Some(_)) | (None, Some(_)) => b.next(),
            (Some(_), None) => a.next(),
            (None, None) => break,
        };
        out.extend(next);
    }
    out
}

const DECISION_COLUMNS: [&str; 12] = [
    "game_id",
    "round",
    "player",
    "source",
    "outcome",
    "seat",
    "man_before_key",
    "man_after_key",
    "pin_before_key",
    "pin_after_key",
    "sou_before_key",
    "sou_after_key",
];

/// The decision columns read as dictionaries.
const TEXT_COLUMNS: [&str; 3] = ["player", "source", "outcome"];

/// Mines the decisions of `dataset` with the Rust engine.
pub fn mine_rust(dataset: &Path, opts: &MineOptions) -> Result<Mined> {
    let start = Instant::now();
    let plan = plan(dataset, opts, Games::WhileCounting)?;
    let rounds = round_facts(&plan.rounds)?;
    let scope_of: HashMap<&str, u32> =
        plan.scopes.iter().enumerate().skip(1).map(|(i, s)| (s.as_str(), i as u32)).collect();

    let n_scopes = plan.scopes.len();
    let mut counts = if n_scopes <= u64::MAX_SCOPES {
        count::<u64>(&plan, opts, &rounds, &scope_of)?
    } else {
        count::<u128>(&plan, opts, &rounds, &scope_of)?
    };
    // `ALL`'s games: the sampled games of the rounds read for their facts
    let all_games: HashSet<i64> = rounds.keys().map(|&(g, _)| g).filter(|&g| in_sample(g, opts.sample)).collect();
    counts.0.games[0] = all_games.len() as u32;
    let mut mined = Mined {
        scopes: plan.scopes.clone(),
        games: plan.games.iter().zip(&counts.0.games).map(|(g, counted)| g.unwrap_or(*counted)).collect(),
        stats: vec![[ScopeStats::default(); 4]; n_scopes],
        counts: counts.1,
        decisions_read: counts.0.read,
        elapsed_s: 0.0,
    };
    let part = counts.0;
    for slot in 0..n_scopes * 4 {
        let st = &mut mined.stats[slot / 4][slot % 4];
        st.decisions = part.decisions[slot];
        st.rounds = part.rounds[slot];
    }
    mined.finish_stats();
    mined.elapsed_s = start.elapsed().as_secs_f64();
    Ok(mined)
}

/// What the workers counted (the per-slot figures; the counts moved out) and the counts, unsorted.
fn count<K: CountKey>(
    plan: &Plan,
    opts: &MineOptions,
    rounds: &HashMap<(i64, u16), RoundFacts>,
    scope_of: &HashMap<&str, u32>,
) -> Result<(Slots, Vec<SeqCount>)> {
    let n_scopes = plan.scopes.len();
    // when every player is a scope, `ALL`'s counts are the players' summed: counted once per decision
    // instead of twice, they halve the keys to sort
    let all_from_players = opts.players.is_none() && opts.min_games.is_none();
    let part = plan
        .decisions
        .par_iter()
        .try_fold(
            || Partial::new(n_scopes),
            |mut part, path| {
                // a game's rows are one row group of one file (the writer flushes whole games): a round's
                // decisions are consecutive, which the per-slot round count relies on
                for_each_batch_as(path, &DECISION_COLUMNS, &TEXT_COLUMNS, |b| {
                    count_batch(b, path, opts, rounds, scope_of, all_from_players, &mut part)
                })?;
                Ok::<Partial<K>, anyhow::Error>(part)
            },
        )
        .try_reduce(|| Partial::new(n_scopes), |a, b| Ok(a.merge(b)))?;
    // the packed keys sort in the table's order (scope, strategy, source, before, after)
    let (slots, counts) = part.into_counts();
    let all = if all_from_players { summed_in_all(&counts) } else { Vec::new() };
    // `ALL` is scope 0: its rows come first
    Ok((slots, all.into_iter().chain(counts).map(|(k, n)| k.count(n)).collect()))
}

/// The counts of every scope summed into `ALL`'s, sorted.
fn summed_in_all<K: CountKey>(counts: &[(K, u64)]) -> Vec<(K, u64)> {
    let mut all: Vec<(K, u64)> = counts.iter().map(|&(k, n)| (k.in_all(), n)).collect();
    radsort::sort_by_key(&mut all, |&(k, _)| k);
    let mut summed = Vec::with_capacity(all.len());
    for same in all.chunk_by(|a, b| a.0 == b.0) {
        summed.push((same[0].0, same.iter().map(|&(_, n)| n).sum()));
    }
    summed
}
fn count_batch<K: CountKey>(
    b: &arrow::array::RecordBatch,
    path: &Path,
    opts: &MineOptions,
    rounds: &HashMap<(i64, u16), RoundFacts>,
    scope_of: &HashMap<&str, u32>,
    all_from_players: bool,
    part: &mut Partial<K>,
) -> Result<()> {
    let g = cast_to(b, "game_id", &DataType::Int64, path)?;
    let r = cast_to(b, "round", &DataType::UInt16, path)?;
    let (g, r) = (g.as_primitive::<Int64Type>(), r.as_primitive::<UInt16Type>());
    // the text columns come as dictionaries: each distinct name is looked up once per batch
    let (player, player_scope) = dictionary(b, "player", path, |p| scope_of.get(p).copied())?;
    let (source, source_index) = dictionary(b, "source", path, |s| SOURCES.iter().position(|x| *x == s))?;
    let (outcome, is_win) = dictionary(b, "outcome", path, |o| o == "win")?;
    let seat = cast_to(b, "seat", &DataType::UInt8, path)?;
    let seat = seat.as_primitive::<UInt8Type>();
    // a round's rows are consecutive: its facts are looked up once
    let mut round: ((i64, u16), Option<RoundFacts>) = ((i64::MIN, u16::MAX), None);
    // the shapes as integer keys (schema 2): nothing to decode or parse
    let key = |name: &str| cast_to(b, name, &DataType::UInt32, path);
    let mut arrays = Vec::with_capacity(3);
    for (bc, ac) in SUIT_KEY_COLUMNS {
        arrays.push((key(bc)?, key(ac)?));
    }
    let suits: Vec<_> =
        arrays.iter().map(|(bc, ac)| (bc.as_primitive::<UInt32Type>(), ac.as_primitive::<UInt32Type>())).collect();

    for i in 0..b.num_rows() {
        if !in_sample(g.value(i), opts.sample) {
            continue;
        }
        part.slots.read += 1;
        let key = (g.value(i), r.value(i));
        let player_scope = player_scope[player[i] as usize];
        if let Some(p) = player_scope {
            let last = &mut part.slots.last_game[p as usize];
            if *last != key.0 {
                *last = key.0;
                part.slots.games[p as usize] += 1;
            }
        }
        if round.0 != key {
            round = (key, rounds.get(&key).copied());
        }
        let Some(facts) = round.1 else {
            bail!("row {i}: game {} round {} is not in the rounds table", key.0, key.1);
        };
        let won = is_win[outcome[i] as usize];
        let mine = if won { facts.by_seat.get(usize::from(seat.value(i))).copied().unwrap_or(0) } else { 0 };
        let tables = tables_of(opts, facts.flags, won, mine);
        if tables == 0 {
            continue;
        }
        let Some(src) = source_index[source[i] as usize] else {
            let text = cast_to(b, "source", &DataType::Utf8, path)?;
            bail!("row {i}: unknown source {:?} (one of {})", text.as_string::<i32>().value(i), SOURCES.join(", "));
        };
        let src = src as u8;
        let scopes = [Some(0u32), player_scope];
        if all_from_players && player_scope.is_none() {
            bail!("row {i}: a player without a scope, whose counts `ALL` would lack");
        }
        // the scopes whose keys this decision adds (`ALL`'s are summed from the players' at the end)
        let keyed = if all_from_players { [None, player_scope] } else { scopes };
        for scope in scopes.into_iter().flatten() {
            for st in 0..4u8 {
                if tables & (1 << st) != 0 {
                    let slot = scope as usize * 4 + usize::from(st);
                    part.slots.decisions[slot] += 1;
                    if part.slots.last_round[slot] != key {
                        part.slots.last_round[slot] = key;
                        part.slots.rounds[slot] += 1;
                    }
                }
            }
        }
        for (bs, as_) in &suits {
            let (bk, ak) = (bs.value(i), as_.value(i));
            if bk == ak {
                continue;
            }
            for scope in keyed.into_iter().flatten() {
                for st in 0..4u8 {
                    if tables & (1 << st) != 0 {
                        part.add(K::pack(scope, st, src, bk, ak));
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_merge_into_one_sorted_count_per_key() {
        let merged = merge_runs(vec![(1u64, 2), (4, 1), (9, 3)], vec![(0, 5), (4, 2), (10, 1)]);
        assert_eq!(merged, vec![(0, 5), (1, 2), (4, 3), (9, 3), (10, 1)]);
        // keys added across several flushes come out as if counted at once
        let mut p = Partial::<u64>::new(1);
        for k in [7, 3, 7, 1] {
            p.add(k);
        }
        p.flush();
        for k in [3, 3, 8] {
            p.add(k);
        }
        let other = {
            let mut o = Partial::<u64>::new(1);
            o.add(1);
            o
        };
        let (_, counts) = p.merge(other).into_counts();
        assert_eq!(counts, vec![(1, 2), (3, 3), (7, 2), (8, 1)]);
    }

    #[test]
    fn all_is_the_players_summed() {
        // the same (strategy, source, before, after) in two players' scopes, and a key of one player only
        let counts = [(u64::pack(1, 0, 0, 5, 6), 3), (u64::pack(1, 1, 2, 7, 3), 1), (u64::pack(2, 0, 0, 5, 6), 4)];
        assert_eq!(summed_in_all(&counts), vec![(u64::pack(0, 0, 0, 5, 6), 7), (u64::pack(0, 1, 2, 7, 3), 1)]);
        let wide = [(u128::pack(1, 3, 4, 9, 9), 2), (u128::pack(70_000, 3, 4, 9, 9), 5)];
        assert_eq!(summed_in_all(&wide), vec![(u128::pack(0, 3, 4, 9, 9), 7)]);
    }
}
