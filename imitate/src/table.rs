//! Sequence tables (docs/SCHEMA.md, "Sequence tables"): `TABLES/sequences.parquet` loaded per scope and
//! strategy into integer-keyed maps, and the tables derived from them (`all_but_own`).
//!
//! A loaded table is frozen for lookup: each `before` key maps to a sorted run of `(after_key, count)`, so a
//! suit's whole ranking needs two hash lookups (its `before` and the mirror's) and no string work.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use hashbrown::HashMap;

use haifu_mining::Strategy;

pub use haifu_mining::ALL_SCOPE;

/// `TABLES/sequences.parquet`.
pub fn sequences_path(tables: &Path) -> PathBuf {
    tables.join("sequences.parquet")
}

/// Counts of (before_key, after_key) pairs for one scope and strategy, summed over the kept sources.
#[derive(Clone, Debug, Default)]
pub struct SeqTable {
    /// before key -> (start, len) of its run in `afters`.
    index: HashMap<u32, (u32, u32)>,
    /// Runs of (after key, count), each sorted by after key; counts are never 0.
    afters: Vec<(u32, u32)>,
}

impl SeqTable {
    /// Builds a table from pairs; repeated pairs add up (saturating), zero counts are dropped.
    pub fn from_pairs(pairs: impl IntoIterator<Item = ((u32, u32), u32)>) -> SeqTable {
        let mut sum: HashMap<(u32, u32), u32> = HashMap::new();
        for (k, n) in pairs {
            if n > 0 {
                let c = sum.entry(k).or_insert(0);
                *c = c.saturating_add(n);
            }
        }
        Self::freeze(sum)
    }

    fn freeze(sum: HashMap<(u32, u32), u32>) -> SeqTable {
        let mut flat: Vec<(u32, u32, u32)> = sum.into_iter().map(|((b, a), n)| (b, a, n)).collect();
        flat.sort_unstable();
        let mut index = HashMap::with_capacity(flat.len() / 2);
        let mut afters = Vec::with_capacity(flat.len());
        let mut i = 0;
        while i < flat.len() {
            let b = flat[i].0;
            let start = afters.len() as u32;
            while i < flat.len() && flat[i].0 == b {
                afters.push((flat[i].1, flat[i].2));
                i += 1;
            }
            index.insert(b, (start, afters.len() as u32 - start));
        }
        SeqTable { index, afters }
    }

    /// Whether this exact `before` was observed (SPEC 4 step 4: a mirror alone does not count).
    #[inline]
    pub fn knows(&self, before: u32) -> bool {
        self.index.contains_key(&before)
    }

    /// The observed afters of a before with their counts, sorted by after key (empty when unknown).
    #[inline]
    pub fn afters(&self, before: u32) -> &[(u32, u32)] {
        match self.index.get(&before) {
            Some(&(start, len)) => &self.afters[start as usize..(start + len) as usize],
            None => &[],
        }
    }

    #[inline]
    pub fn count(&self, before: u32, after: u32) -> u32 {
        count_in(self.afters(before), after)
    }

    /// Distinct (before, after) pairs.
    pub fn pairs(&self) -> usize {
        self.afters.len()
    }

    /// Distinct befores.
    pub fn befores(&self) -> usize {
        self.index.len()
    }

    pub fn is_empty(&self) -> bool {
        self.afters.is_empty()
    }

    /// Sum of all counts.
    pub fn total(&self) -> u64 {
        self.afters.iter().map(|&(_, n)| u64::from(n)).sum()
    }

    /// Every (before, after, count), in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, u32, u32)> + '_ {
        self.index.iter().flat_map(move |(&b, &(start, len))| {
            self.afters[start as usize..(start + len) as usize].iter().map(move |&(a, n)| (b, a, n))
        })
    }

    /// This table minus another, pair by pair (floored at 0; pairs left at 0 disappear, and a before whose
    /// pairs all disappear is no longer known). `ALL.minus(own)` is the all-but-own table.
    pub fn minus(&self, other: &SeqTable) -> SeqTable {
        let mut sum = HashMap::with_capacity(self.pairs());
        for (b, a, n) in self.iter() {
            let left = n.saturating_sub(other.count(b, a));
            if left > 0 {
                sum.insert((b, a), left);
            }
        }
        Self::freeze(sum)
    }

    /// Bytes held by the maps (approximate), to keep an eye on memory with many players.
    pub fn heap_bytes(&self) -> usize {
        self.afters.capacity() * 8 + self.index.capacity() * 13
    }
}

/// The count of `after` in a before's sorted run.
#[inline]
pub fn count_in(run: &[(u32, u32)], after: u32) -> u32 {
    // runs are short (one per distinct discard seen): a linear scan beats binary search below ~16
    if run.len() <= 16 {
        for &(a, n) in run {
            if a == after {
                return n;
            }
            if a > after {
                return 0;
            }
        }
        0
    } else {
        run.binary_search_by_key(&after, |&(a, _)| a).map_or(0, |i| run[i].1)
    }
}

/// What to read from `sequences.parquet`.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Scopes to keep (player names, `ALL`); `None` keeps every scope.
    pub scopes: Option<Vec<String>>,
    /// Strategies to keep; empty keeps all four.
    pub strategies: Vec<Strategy>,
    /// Sources to keep (`draw`, `chi`, `pon`, `kan`, `nuki`); `None` sums every source.
    pub sources: Option<Vec<String>>,
}

/// The sequence tables of one mining run: the tables loaded, and every scope the file holds.
#[derive(Debug, Default)]
pub struct Tables {
    pub dir: PathBuf,
    /// `meta.json` as written by `haifu mine` (absent: `None`); reports repeat its options.
    pub meta: Option<serde_json::Value>,
    /// Every scope present in the file (loaded or not), sorted.
    scopes: Vec<String>,
    loaded: HashMap<(String, Strategy), SeqTable>,
    /// Sources kept at load (`None` = all), for reports.
    pub sources: Option<Vec<String>>,
}

static EMPTY: std::sync::OnceLock<SeqTable> = std::sync::OnceLock::new();

/// The empty table: what a scope without a strategy's table answers with.
pub fn empty_table() -> &'static SeqTable {
    EMPTY.get_or_init(SeqTable::default)
}

impl Tables {
    /// Reads `dir/sequences.parquet` (and `dir/meta.json` if present), keeping what `opts` asks for.
    pub fn load(dir: &Path, opts: &LoadOptions) -> Result<Tables> {
        let meta = haifu_mining::tables::read_meta(dir)?;
        let strategies: Vec<Strategy> =
            if opts.strategies.is_empty() { Strategy::EVERY.to_vec() } else { opts.strategies.clone() };
        let keep_scope = |s: &str| opts.scopes.as_ref().is_none_or(|v| v.iter().any(|x| x == s));
        let keep_source = |s: &str| opts.sources.as_ref().is_none_or(|v| v.iter().any(|x| x == s));

        let mut scopes: Vec<String> = Vec::new();
        let mut slots: HashMap<(String, Strategy), usize> = HashMap::new();
        let mut sums: Vec<HashMap<(u32, u32), u32>> = Vec::new();
        // rows come in runs of one scope and strategy: resolve the target map once per run
        let mut run: Option<(String, String, Option<usize>)> = None;
        haifu_mining::tables::for_each_count(dir, |r| {
            if run.as_ref().is_none_or(|(sc, st, _)| sc != r.scope || st != r.strategy) {
                if !scopes.iter().any(|s| s == r.scope) {
                    scopes.push(r.scope.to_string());
                }
                let slot =
                    r.strategy.parse::<Strategy>().ok().filter(|s| strategies.contains(s) && keep_scope(r.scope)).map(
                        |s| {
                            *slots.entry((r.scope.to_string(), s)).or_insert_with(|| {
                                sums.push(HashMap::new());
                                sums.len() - 1
                            })
                        },
                    );
                run = Some((r.scope.to_string(), r.strategy.to_string(), slot));
            }
            let Some((_, _, Some(slot))) = run else { return Ok(()) };
            if keep_source(r.source) {
                let c = sums[slot].entry((r.before, r.after)).or_insert(0);
                *c = c.saturating_add(u32::try_from(r.count).unwrap_or(u32::MAX));
            }
            Ok(())
        })?;
        scopes.sort();
        let mut sums: Vec<Option<HashMap<(u32, u32), u32>>> = sums.into_iter().map(Some).collect();
        let loaded =
            slots.into_iter().map(|(k, i)| (k, SeqTable::freeze(sums[i].take().unwrap_or_default()))).collect();
        Ok(Tables { dir: dir.to_path_buf(), meta, scopes, loaded, sources: opts.sources.clone() })
    }

    /// The tables of a mining run held in memory, summed over the kept sources (`None` = all).
    pub fn from_mined(m: &haifu_mining::Mined, sources: Option<&[&str]>) -> Tables {
        let keep = |src: u8| sources.is_none_or(|s| s.contains(&haifu_mining::mine::SOURCES[usize::from(src)]));
        // (scope, strategy) -> ((before, after), count)
        type Pairs = Vec<((u32, u32), u32)>;
        let mut sums: HashMap<(u32, u8), Pairs> = HashMap::new();
        for c in m.counts.iter().filter(|c| keep(c.source)) {
            let n = u32::try_from(c.count).unwrap_or(u32::MAX);
            sums.entry((c.scope, c.strategy)).or_default().push(((c.before, c.after), n));
        }
        let mut t = Tables::from_tables(sums.into_iter().map(|((scope, st), pairs)| {
            (m.scopes[scope as usize].clone(), Strategy::EVERY[usize::from(st)], SeqTable::from_pairs(pairs))
        }));
        // scopes without a single sequence still exist (their tables are empty)
        for s in &m.scopes {
            if !t.scopes.contains(s) {
                t.scopes.push(s.clone());
            }
        }
        t.scopes.sort();
        t.sources = sources.map(|s| s.iter().map(|x| x.to_string()).collect());
        t
    }

    /// Tables built in memory (tests, callers that mine themselves).
    pub fn from_tables(tables: impl IntoIterator<Item = (String, Strategy, SeqTable)>) -> Tables {
        let mut t = Tables::default();
        for (scope, s, table) in tables {
            if !t.scopes.contains(&scope) {
                t.scopes.push(scope.clone());
            }
            t.loaded.insert((scope, s), table);
        }
        t.scopes.sort();
        t
    }

    /// Every scope in the file, `ALL` included, sorted.
    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }

    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }

    /// The player scopes (every scope but `ALL`).
    pub fn players(&self) -> impl Iterator<Item = &str> {
        self.scopes.iter().map(String::as_str).filter(|s| *s != ALL_SCOPE)
    }

    /// Every player scope but `player`: the tables averaged in the `others` variant.
    pub fn others<'a>(&'a self, player: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.players().filter(move |s| *s != player)
    }

    /// A loaded table. `None` when the scope has no rows for this strategy (or it was not loaded).
    pub fn get(&self, scope: &str, strategy: Strategy) -> Option<&SeqTable> {
        self.loaded.get(&(scope.to_string(), strategy))
    }

    /// A loaded table, or the empty table when the scope exists but never saw this strategy.
    pub fn get_or_empty(&self, scope: &str, strategy: Strategy) -> Result<&SeqTable> {
        if !self.has_scope(scope) {
            let mut known: Vec<&str> = self.scopes.iter().map(String::as_str).take(20).collect();
            if self.scopes.len() > 20 {
                known.push("...");
            }
            bail!(
                "unknown player {scope:?}: {} holds no such scope (scopes: {}){}",
                sequences_path(&self.dir).display(),
                known.join(", "),
                haifu_mining::dataset::did_you_mean(scope, self.scopes.iter().map(String::as_str))
            );
        }
        Ok(self.get(scope, strategy).unwrap_or_else(|| empty_table()))
    }

    /// `ALL` minus the player's own counts: the table of everyone else in the same mining run.
    pub fn all_but_own(&self, player: &str, strategy: Strategy) -> Result<SeqTable> {
        let all = self.get_or_empty(ALL_SCOPE, strategy)?;
        let own = self.get_or_empty(player, strategy)?;
        Ok(all.minus(own))
    }

    /// Bytes held by every loaded table (approximate).
    pub fn heap_bytes(&self) -> usize {
        self.loaded.values().map(SeqTable::heap_bytes).sum()
    }
}

/// Loads one scope's table for one strategy (`haifu imitate suggest`). An unknown scope is an error naming
/// the scopes that exist.
pub fn load_table(dir: &Path, scope: &str, strategy: Strategy, sources: Option<Vec<String>>) -> Result<SeqTable> {
    let opts = LoadOptions { scopes: Some(vec![scope.to_string()]), strategies: vec![strategy], sources };
    let t = Tables::load(dir, &opts)?;
    t.get_or_empty(scope, strategy).cloned()
}

/// One row of `sequences.parquet` (docs/SCHEMA.md), with its shapes as text.
#[cfg(feature = "fixtures")]
#[derive(Clone, Debug)]
pub struct SequenceRow<'a> {
    pub scope: &'a str,
    pub strategy: Strategy,
    pub source: &'a str,
    pub before: &'a str,
    pub after: &'a str,
    pub count: u64,
}

/// Writes the tables of `rows` with [`haifu_mining::tables::write_tables`] (keys and lengths computed from
/// the shapes; `players.parquet` has zero statistics): for tests that make tables without mining.
#[cfg(feature = "fixtures")]
pub fn write_sequences(dir: &Path, rows: &[SequenceRow<'_>]) -> Result<()> {
    use anyhow::anyhow;
    use haifu_mining::mine::SOURCES;
    let mut mined = haifu_mining::Mined { scopes: vec![ALL_SCOPE.to_string()], ..Default::default() };
    for r in rows {
        if !mined.scopes.iter().any(|s| s == r.scope) {
            mined.scopes.push(r.scope.to_string());
        }
    }
    mined.games = vec![0; mined.scopes.len()];
    mined.stats = vec![Default::default(); mined.scopes.len()];
    let shape = |t: &str| haifu_mining::Shape::parse(t).map_err(|e| anyhow!("{e}"));
    for r in rows {
        let source = SOURCES.iter().position(|s| *s == r.source).ok_or_else(|| anyhow!("source {:?}", r.source))?;
        mined.counts.push(haifu_mining::SeqCount {
            scope: mined.scopes.iter().position(|s| s == r.scope).unwrap_or(0) as u32,
            strategy: r.strategy.index() as u8,
            source: source as u8,
            before: shape(r.before)?.key(),
            after: shape(r.after)?.key(),
            count: r.count,
        });
    }
    mined.counts.sort_unstable_by_key(haifu_mining::SeqCount::order);
    haifu_mining::tables::write_tables(dir, &mined, &serde_json::json!({"written_by": "write_sequences"}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_sum_and_subtract() {
        let t = SeqTable::from_pairs([((10, 3), 2), ((10, 3), 5), ((10, 1), 1), ((7, 0), 4), ((9, 9), 0)]);
        assert_eq!(t.count(10, 3), 7);
        assert_eq!(t.count(10, 1), 1);
        assert_eq!(t.count(10, 2), 0);
        assert_eq!(t.afters(10), &[(1, 1), (3, 7)]);
        assert!(t.knows(7) && !t.knows(9), "a zero count is not an observation");
        assert_eq!((t.pairs(), t.befores(), t.total()), (3, 2, 12));
        let own = SeqTable::from_pairs([((10, 3), 2), ((7, 0), 4), ((5, 0), 1)]);
        let rest = t.minus(&own);
        assert_eq!(rest.count(10, 3), 5);
        assert_eq!(rest.count(10, 1), 1);
        assert!(!rest.knows(7), "every pair of 7 was the player's own");
        assert!(!rest.knows(5));
    }

    #[test]
    fn long_runs_use_binary_search() {
        let t = SeqTable::from_pairs((0..40u32).map(|a| ((1, a * 2), a + 1)));
        for a in 0..40u32 {
            assert_eq!(t.count(1, a * 2), a + 1);
            assert_eq!(t.count(1, a * 2 + 1), 0);
        }
    }
}
