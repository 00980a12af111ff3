//! The sequence tables as tensors (SPEC 5.4, seed 002's tensor rule engine): every loaded table's pairs and
//! befores as sorted key tensors, looked up for a whole batch of decisions against many tables at once, and
//! the lookup imitator's ranking (SPEC 4) as tensor expressions over the 27 suit candidates.
//! [`TensorRanker`] gives `imitate eval` the counts [`haifu_imitate::ByLookup`] gives, on the CPU or a GPU.
//!
//! A table is a *slot* (a number the caller gives each (scope, strategy) table). The keys a batch asks for
//! are the same for every table, so they are searched once (`searchsorted` over the distinct keys of all
//! tables); the tables holding each found key are gathered from its run and scattered into a dense
//! [tables, keys of the batch] matrix, from which every (table, decision, candidate) count is one gather.

use anyhow::{bail, Result};
use hashbrown::HashMap;
use tch::{Device, Kind, Tensor};

use haifu_imitate::eval::{strategies_in_play, variant_scopes, Counts, SetScope, VariantJob};
use haifu_imitate::rank::POW5;
use haifu_imitate::{SeqTable, TableRanker, Tables, TestDecision};
use haifu_mining::Strategy;

/// 5^9: the number of suit shape keys.
const SHAPES: i64 = 1_953_125;

/// Cells of a dense [tables, keys] matrix or of a [tables, decisions, candidates] gather per batch.
pub const CELLS_PER_BATCH: i64 = 1 << 24;

/// Keys (a pair `before * 5^9 + after`, or a before) with the tables holding each: the entries (slot, value)
/// ordered by key, key `i`'s run at `start[i]..start[i + 1]`.
struct Universe {
    keys: Tensor,
    /// Run starts, with two ends appended: a key not found reads the empty run after the last.
    start: Tensor,
    slot: Tensor,
    value: Tensor,
    len: i64,
}

impl Universe {
    fn new(mut entries: Vec<(i64, i64, i64)>, device: Device) -> Universe {
        entries.sort_unstable();
        let (mut keys, mut start) = (Vec::new(), Vec::new());
        for (i, &(k, _, _)) in entries.iter().enumerate() {
            if keys.last() != Some(&k) {
                keys.push(k);
                start.push(i as i64);
            }
        }
        start.extend([entries.len() as i64; 2]);
        let on = |v: &[i64]| Tensor::from_slice(v).to_device(device);
        let slot: Vec<i64> = entries.iter().map(|e| e.1).collect();
        let value: Vec<i64> = entries.iter().map(|e| e.2).collect();
        let len = keys.len() as i64;
        Universe { keys: on(&keys), start: on(&start), slot: on(&slot), value: on(&value), len }
    }

    /// The values of the keys `queries` (any shape) in the tables `row_of` maps to a row (slot -> row, -1: not
    /// wanted): a dense [rows, distinct queries + 1] matrix and each query's column.
    fn dense(&self, queries: &Tensor, row_of: &Tensor, rows: i64) -> Lookup {
        let device = queries.device();
        let q = queries.flatten(0, -1);
        if self.len == 0 {
            return Lookup { dense: Tensor::zeros([rows, 1], (Kind::Int64, device)), column: queries.zeros_like() };
        }
        let at = q.searchsorted(&self.keys, false, false, "left", None::<Tensor>).clamp_max(self.len - 1);
        let found = self.keys.take(&at).eq_tensor(&q);
        // absent keys become key `len`, whose run is empty
        let id = at.where_self(&found, &Tensor::full_like(&at, self.len));
        let (ids, column) = id.internal_unique(true, true);
        let starts = self.start.take(&ids);
        let lens = self.start.take(&(&ids + 1)) - &starts;
        let n = ids.size()[0];
        // every entry of the found keys' runs: its column and its place in the entries
        let col = Tensor::arange(n, (Kind::Int64, device)).repeat_interleave_self_tensor(&lens, 0, None);
        let run_base = (&starts - (lens.cumsum(0, Kind::Int64) - &lens)).repeat_interleave_self_tensor(&lens, 0, None);
        let entry = run_base + Tensor::arange(col.size()[0], (Kind::Int64, device));
        let row = row_of.take(&self.slot.take(&entry));
        let keep = row.ge(0);
        let mut dense = Tensor::zeros([rows, n], (Kind::Int64, device));
        let _ = dense.index_put_(
            &[Some(row.masked_select(&keep)), Some(col.masked_select(&keep))],
            &self.value.take(&entry).masked_select(&keep),
            false,
        );
        Lookup { dense, column: column.view(queries.size().as_slice()) }
    }
}

/// A dense [rows, columns] matrix of the values of a batch's keys, and each key's column.
pub struct Lookup {
    dense: Tensor,
    pub column: Tensor,
}

impl Lookup {
    /// The value at each (row, column), broadcast alike.
    pub fn at(&self, row: &Tensor, column: &Tensor) -> Tensor {
        self.dense.flatten(0, -1).take(&(row * self.dense.size()[1] + column))
    }
}

/// Every pair's count and every before's total of a set of tables, on one device.
pub struct TableTensors {
    pairs: Universe,
    befores: Universe,
    pub device: Device,
}

impl TableTensors {
    /// The tables of `slots` (slot number, table); each slot once.
    pub fn new<'a>(slots: impl IntoIterator<Item = (i64, &'a SeqTable)>, device: Device) -> TableTensors {
        let (mut pairs, mut befores) = (Vec::new(), Vec::new());
        for (slot, t) in slots {
            let mut totals: HashMap<u32, i64> = HashMap::new();
            for (b, a, n) in t.iter() {
                pairs.push((i64::from(b) * SHAPES + i64::from(a), slot, i64::from(n)));
                *totals.entry(b).or_default() += i64::from(n);
            }
            befores.extend(totals.into_iter().map(|(b, n)| (i64::from(b), slot, n)));
        }
        TableTensors { pairs: Universe::new(pairs, device), befores: Universe::new(befores, device), device }
    }

    /// The counts of the pairs (before, after) (broadcast alike) in the tables `row_of` maps to rows.
    pub fn pair_counts(&self, before: &Tensor, after: &Tensor, row_of: &Tensor, rows: i64) -> Lookup {
        self.pairs.dense(&(before * SHAPES + after), row_of, rows)
    }

    /// The totals of the befores over their afters (above 0 exactly when a table knows the before).
    pub fn before_totals(&self, before: &Tensor, row_of: &Tensor, rows: i64) -> Lookup {
        self.befores.dense(before, row_of, rows)
    }
}

/// The decisions a batch ranks (those with a strategy, riichi ones left out unless included), as tensors of
/// their suits' keys and candidates; computed once per player, used against every table.
struct Batch {
    /// Each decision's strategy, as its place among the mode's strategies, [R].
    strategy: Tensor,
    /// Each suit's before key and its mirror's, [R, 3].
    before: Tensor,
    mirror: Tensor,
    /// Candidate j = suit * 9 + digit - 1: held, the after key and the mirror's after key, [R, 27].
    held: Tensor,
    after: Tensor,
    mirror_after: Tensor,
    /// The discarded kind when a suit tile (0..27), else 0; whether it is an honor; the honor's place among the
    /// isolated honors (0: not isolated); isolated honors held, [R].
    kind: Tensor,
    honor: Tensor,
    honor_place: Tensor,
    isolated: Tensor,
    len: i64,
}

impl Batch {
    fn new(decisions: &[&TestDecision], strategies: &[i64], device: Device) -> Batch {
        let n = decisions.len();
        let (mut before, mut mirror) = (Vec::with_capacity(3 * n), Vec::with_capacity(3 * n));
        let (mut held, mut after, mut mirror_after) = (vec![], vec![], vec![]);
        let (mut kind, mut honor, mut honor_place, mut isolated) = (vec![], vec![], vec![], vec![]);
        for d in decisions {
            let p = &d.prepared;
            for s in &p.suits {
                before.push(i64::from(s.key));
                mirror.push(i64::from(s.mirror));
                for i in 0..9 {
                    let h = s.digits & (1 << i) != 0;
                    held.push(h);
                    // the mirror of "remove digit i+1" removes digit 9-i; a digit not held keeps the key (masked)
                    after.push(if h { i64::from(s.key - POW5[i]) } else { 0 });
                    mirror_after.push(if h { i64::from(s.mirror - POW5[8 - i]) } else { 0 });
                }
            }
            let iso = p.isolated_honors();
            let is_honor = d.discard >= 27;
            kind.push(if is_honor { 0 } else { i64::from(d.discard) });
            honor.push(is_honor);
            honor_place.push(iso.iter().position(|&k| k == d.discard).map_or(0, |i| i as i64 + 1));
            isolated.push(iso.len() as i64);
        }
        let on = |v: Vec<i64>, shape: &[i64]| Tensor::from_slice(&v).view(shape).to_device(device);
        let mask = |v: Vec<bool>, shape: &[i64]| Tensor::from_slice(&v).view(shape).to_device(device);
        let r = n as i64;
        Batch {
            strategy: on(strategies.to_vec(), &[r]),
            before: on(before, &[r, 3]),
            mirror: on(mirror, &[r, 3]),
            held: mask(held, &[r, 27]),
            after: on(after, &[r, 27]),
            mirror_after: on(mirror_after, &[r, 27]),
            kind: on(kind, &[r]),
            honor: mask(honor, &[r]),
            honor_place: on(honor_place, &[r]),
            isolated: on(isolated, &[r]),
            len: r,
        }
    }
}

/// How a table set reads the tables: one scope's, or ALL's less the player's (scope numbers).
#[derive(Clone, Copy)]
enum Reads {
    Scope(i64),
    AllBut { all: i64, own: i64 },
}

/// `imitate eval`'s ranking as tensor expressions: a player's decisions against every table of a variant at
/// once (in batches that fit), giving [`haifu_imitate::ByLookup`]'s counts.
pub struct TensorRanker {
    /// Behind a lock: libtorch's tensors are not shared between threads (the players are ranked one by one).
    tables: std::sync::Mutex<TableTensors>,
    /// Scope -> its number; a scope's slot for strategy s is `number * 4 + s`.
    scopes: HashMap<String, i64>,
}

impl TensorRanker {
    /// Every loaded table of `tables` on `device`. `all-but-own` is ALL's count less the player's, pair by pair,
    /// which needs every player's pairs within ALL's (true of one mining run): checked here.
    pub fn new(tables: &Tables, device: Device) -> Result<TensorRanker> {
        let scopes: HashMap<String, i64> =
            tables.scopes().iter().enumerate().map(|(i, s)| (s.clone(), i as i64)).collect();
        let mut slots = Vec::new();
        for (scope, &i) in &scopes {
            for s in Strategy::EVERY {
                if let Some(t) = tables.get(scope, s) {
                    slots.push((i * 4 + s.index() as i64, t));
                }
            }
        }
        for s in Strategy::EVERY {
            let Some(all) = tables.get(haifu_imitate::ALL_SCOPE, s) else { continue };
            for p in tables.players() {
                if let Some((b, a, n)) =
                    tables.get(p, s).and_then(|own| own.iter().find(|&(b, a, n)| all.count(b, a) < n))
                {
                    bail!(
                        "{}: {p}'s count of ({b}, {a}) is {n}, ALL's {}: the tables are not of one mining run \
                         (`all-but-own` subtracts them pair by pair); rank without --device",
                        tables.dir.display(),
                        all.count(b, a)
                    );
                }
            }
        }
        Ok(TensorRanker { tables: std::sync::Mutex::new(TableTensors::new(slots, device)), scopes })
    }

    fn reads(&self, scope: SetScope<'_>) -> Reads {
        let number = |s: &str| self.scopes.get(s).copied().unwrap_or(-1);
        match scope {
            SetScope::Scope(s) => Reads::Scope(number(s)),
            SetScope::AllBut(p) => Reads::AllBut { all: number(haifu_imitate::ALL_SCOPE), own: number(p) },
        }
    }

    /// The decisions of `batch` against the table sets `reads` ([T]) with the mode's `strategies`: per set,
    /// (answered, ranked 1st, 2nd, 3rd).
    fn rank(&self, t: &TableTensors, batch: &Batch, reads: &[Reads], strategies: &[Strategy]) -> Vec<[i64; 4]> {
        let device = t.device;
        // the scopes read, each a block of rows (one per strategy of the mode)
        let mut read: Vec<i64> = Vec::new();
        let mut row_block = |scope: i64| match read.iter().position(|&x| x == scope) {
            Some(i) => i as i64,
            None => {
                read.push(scope);
                read.len() as i64 - 1
            }
        };
        let blocks: Vec<(i64, i64)> = reads
            .iter()
            .map(|r| match *r {
                Reads::Scope(s) => (row_block(s), -1),
                Reads::AllBut { all, own } => (row_block(all), row_block(own)),
            })
            .collect();
        let n_st = strategies.len() as i64;
        let mut row_of = vec![-1i64; 4 * self.scopes.len()];
        for (block, &scope) in read.iter().enumerate() {
            for (j, &s) in strategies.iter().enumerate() {
                if scope >= 0 {
                    row_of[(scope * 4 + s.index() as i64) as usize] = block as i64 * n_st + j as i64;
                }
            }
        }
        let row_of = Tensor::from_slice(&row_of).to_device(device);
        let rows = read.len() as i64 * n_st;
        // [T, R, 1]: each set's row for each decision (its block, the decision's strategy)
        let row = |pick: fn(&(i64, i64)) -> i64| {
            let b: Vec<i64> = blocks.iter().map(pick).collect();
            Tensor::from_slice(&b).to_device(device).view([-1, 1, 1]) * n_st + batch.strategy.view([1, -1, 1])
        };
        let first = row(|b| b.0);
        let second = blocks.iter().any(|b| b.1 >= 0).then(|| {
            let subtracts: Vec<i64> = blocks.iter().map(|b| i64::from(b.1 >= 0)).collect();
            (row(|b| b.1.max(0)), Tensor::from_slice(&subtracts).to_device(device).view([-1, 1, 1]))
        });
        let pairs = t.pair_counts(
            &Tensor::stack(&[suits_to_candidates(&batch.before), suits_to_candidates(&batch.mirror)], 0),
            &Tensor::stack(&[&batch.after, &batch.mirror_after], 0),
            &row_of,
            rows,
        );
        let befores = t.before_totals(&batch.before, &row_of, rows);
        // a set's value: the first block's, less the second's where it subtracts (ALL less the player's)
        let value = |l: &Lookup, column: &Tensor, floor: bool| {
            let v = l.at(&first, column);
            match &second {
                None => v,
                Some((own, subtracts)) => {
                    let less = v - l.at(own, column) * subtracts;
                    if floor {
                        less.clamp_min(0)
                    } else {
                        less
                    }
                }
            }
        };
        // [T, R, 3]: the table knows the suit's exact before (a mirror alone does not count)
        let nonempty = batch.held.view([-1, 3, 9]).any_dim(2, false).unsqueeze(0);
        let known = value(&befores, &befores.column.unsqueeze(0), false).gt(0) * nonempty;
        // [T, R, 27]: each candidate's score, its count plus its mirror's
        let score = value(&pairs, &pairs.column.get(0).unsqueeze(0), true)
            + value(&pairs, &pairs.column.get(1).unsqueeze(0), true);
        let valid = suits_to_candidates(&known) * batch.held.unsqueeze(0);
        // the discard's place: the isolated honors first, then the suit candidates by score, ties to the lower kind
        let kind = batch.kind.view([1, -1, 1]).expand([reads.len() as i64, -1, 1], false);
        let own_score = score.gather(2, &kind, false);
        let own_valid = valid.gather(2, &kind, false).squeeze_dim(2);
        let lower = Tensor::arange(27, (Kind::Int64, device)).view([1, 1, 27]).lt_tensor(&kind);
        let ahead = (score.gt_tensor(&own_score) + score.eq_tensor(&own_score) * lower) * &valid;
        let suit_place = ahead.sum_dim_intlist(2, false, Kind::Int64) + batch.isolated.view([1, -1]) + 1;
        let place = batch.honor_place.view([1, -1]).where_self(
            &batch.honor.view([1, -1]),
            &suit_place.where_self(&own_valid, &Tensor::zeros_like(&suit_place)),
        );
        let answered = known.any_dim(2, false).logical_or(&batch.isolated.view([1, -1]).gt(0));
        let sum = |x: Tensor| x.sum_dim_intlist(1, false, Kind::Int64);
        let columns = Tensor::stack(
            &[sum(answered.to_kind(Kind::Int64)), sum(place.eq(1)), sum(place.eq(2)), sum(place.eq(3))],
            1,
        )
        .to_device(Device::Cpu);
        let flat = Vec::<i64>::try_from(columns.flatten(0, -1)).unwrap_or_default();
        flat.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect()
    }
}

/// [.., 3] per suit -> [.., 27] per candidate (suit * 9 + digit - 1).
fn suits_to_candidates(x: &Tensor) -> Tensor {
    let mut size = x.size();
    let last = size.len() - 1;
    let mut expanded = size.clone();
    expanded.push(9);
    size[last] = 27;
    x.unsqueeze(-1).expand(expanded.as_slice(), false).reshape(size.as_slice())
}

impl TableRanker for TensorRanker {
    fn variant_counts(&self, job: &VariantJob<'_>) -> Result<Vec<(String, Counts)>> {
        let VariantJob { tables, player, decisions, variant, opts } = *job;
        let sets = variant_scopes(tables, player, variant)?;
        // what no table changes: riichi discards, undetermined strategies; the rest is ranked against every set
        let mode = opts.strategy.strategies();
        let mut base = Counts::default();
        let (mut ranked, mut strategies) = (Vec::new(), Vec::new());
        for (d, s) in decisions.iter().zip(strategies_in_play(decisions, opts.strategy)) {
            if d.in_riichi {
                base.in_riichi += 1;
                if !opts.include_riichi {
                    continue;
                }
            }
            base.n_all += 1;
            match s.and_then(|s| mode.iter().position(|&m| m == s)) {
                None => base.n_none_strategy += 1,
                Some(place) => {
                    ranked.push(d);
                    strategies.push(place as i64);
                }
            }
        }
        let mut out: Vec<(String, Counts)> = sets.iter().map(|(label, _)| (label.clone(), base)).collect();
        if ranked.is_empty() || sets.is_empty() {
            return Ok(out);
        }
        let reads: Vec<Reads> = sets.iter().map(|(_, s)| self.reads(*s)).collect();
        // a batch's dense matrix has at most (2 scopes per set) x strategies x (54 keys per decision) cells
        let decisions_per_batch = ranked.len().min(4096);
        let per_set = 2 * mode.len() * 54 * decisions_per_batch;
        let sets_per_batch = (CELLS_PER_BATCH as usize / per_set).max(1);
        let tables = self.tables.lock().map_err(|_| anyhow::anyhow!("the tables' tensors: a ranking thread failed"))?;
        for (chunk, strat) in ranked.chunks(decisions_per_batch).zip(strategies.chunks(decisions_per_batch)) {
            let batch = Batch::new(chunk, strat, tables.device);
            for (i, part) in reads.chunks(sets_per_batch).enumerate() {
                let counts = self.rank(&tables, &batch, part, &mode);
                for (k, [answered, first, second, third]) in counts.into_iter().enumerate() {
                    let c = &mut out[i * sets_per_batch + k].1;
                    c.n_none_hand += (batch.len - answered) as u64;
                    c.c_first += first as u64;
                    c.c_second += second as u64;
                    c.c_third += third as u64;
                }
            }
        }
        Ok(out)
    }

    fn parallel(&self) -> bool {
        false
    }
}
