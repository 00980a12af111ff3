//! `style identify --device` and `style accuracy --device`: the log-likelihood of every trial's sequences
//! under every profiled player's table in one pass of tensor lookups (the players' tables as
//! [`TableTensors`], slot = the player's place in the database), the same sums the [`Scorer`] makes pair by
//! pair.

use anyhow::Result;
use tch::{Device, Kind, Tensor};

use haifu_neural::lookup::{Lookup, TableTensors, CELLS_PER_BATCH};
use haifu_style::identify::{Fold, ALPHA};
use haifu_style::{Scorer, SequenceLikelihoods};

pub struct TensorLikelihoods<'a> {
    scorer: &'a Scorer<'a>,
    /// Behind a lock: libtorch's tensors are not shared between threads.
    tables: std::sync::Mutex<TableTensors>,
    players: i64,
}

impl<'a> TensorLikelihoods<'a> {
    pub fn new(scorer: &'a Scorer<'a>, device: Device) -> TensorLikelihoods<'a> {
        let slots = scorer.tables().iter().enumerate().map(|(i, t)| (i as i64, t));
        let tables = std::sync::Mutex::new(TableTensors::new(slots, device));
        TensorLikelihoods { scorer, tables, players: scorer.tables().len() as i64 }
    }
}

/// The observed pairs as the lookups need them ([`Fold`]): each pair, the second pair it folds with (the pair
/// itself, weighted 0, where there is none) and the before whose total adds (weighted 0 where none).
struct Folded {
    before: Vec<i64>,
    after: Vec<i64>,
    before2: Vec<i64>,
    after2: Vec<i64>,
    weight2: Vec<f64>,
    mirror_total: Vec<f64>,
}

fn folded(pairs: &[(u32, u32)]) -> Folded {
    let n = pairs.len();
    let mut f = Folded {
        before: Vec::with_capacity(n),
        after: Vec::with_capacity(n),
        before2: Vec::with_capacity(n),
        after2: Vec::with_capacity(n),
        weight2: Vec::with_capacity(n),
        mirror_total: Vec::with_capacity(n),
    };
    for &(b, a) in pairs {
        let fold = Fold::of(b, a);
        let (b2, a2) = fold.second.unwrap_or((b, a));
        f.before.push(i64::from(b));
        f.after.push(i64::from(a));
        f.before2.push(i64::from(b2));
        f.after2.push(i64::from(a2));
        f.weight2.push(if fold.second.is_some() { 1.0 } else { 0.0 });
        // the totals' second lookup reads `before2`: the mirror's before where there is one, else weighted 0
        f.mirror_total.push(if fold.mirror_before.is_some() { 1.0 } else { 0.0 });
    }
    f
}

/// The place of each trial's last pair in `trial_of` (sorted: a trial's pairs follow each other), and the trial.
fn trial_ends(trial_of: &[i64]) -> (Vec<i64>, Vec<i64>) {
    let mut last = Vec::new();
    let mut trial = Vec::new();
    for (i, &t) in trial_of.iter().enumerate() {
        if trial_of.get(i + 1) != Some(&t) {
            last.push(i as i64);
            trial.push(t);
        }
    }
    (last, trial)
}

impl SequenceLikelihoods for TensorLikelihoods<'_> {
    fn of_trials(&self, trials: &[&[(u32, u32)]]) -> Result<Vec<Vec<f64>>> {
        let t = self.tables.lock().map_err(|_| anyhow::anyhow!("the tables' tensors: a scoring thread failed"))?;
        let device = t.device;
        let pairs: Vec<(u32, u32)> = trials.iter().flat_map(|t| t.iter().copied()).collect();
        let trial_of: Vec<i64> =
            trials.iter().enumerate().flat_map(|(i, t)| std::iter::repeat_n(i as i64, t.len())).collect();
        let p_all = self.scorer.all_probabilities(&pairs);
        let mut sums = Tensor::zeros([self.players, trials.len() as i64], (Kind::Double, device));
        // every player's table is a row of the dense lookups
        let row_of = Tensor::arange(self.players, (Kind::Int64, device));
        let row = row_of.view([-1, 1]);
        let per_batch = (CELLS_PER_BATCH as usize / (2 * self.players.max(1) as usize)).max(1);
        for start in (0..pairs.len()).step_by(per_batch) {
            let end = (start + per_batch).min(pairs.len());
            let f = folded(&pairs[start..end]);
            let ints = |v: Vec<i64>| Tensor::from_slice(&v).to_device(device);
            let reals = |v: &[f64]| Tensor::from_slice(v).to_device(device).view([1, -1]);
            let before = Tensor::stack(&[ints(f.before), ints(f.before2)], 0);
            let after = Tensor::stack(&[ints(f.after), ints(f.after2)], 0);
            let counts = t.pair_counts(&before, &after, &row_of, self.players);
            let totals = t.before_totals(&before, &row_of, self.players);
            // [players, pairs]: folded count and total, as the scorer's `folded_counts` (integers, exact in f64)
            let at = |l: &Lookup, i: i64| l.at(&row, &l.column.get(i).view([1, -1])).to_kind(Kind::Double);
            let c = at(&counts, 0) + at(&counts, 1) * reals(&f.weight2);
            let n = at(&totals, 0) + at(&totals, 1) * reals(&f.mirror_total);
            let term = ((c + reals(&p_all[start..end]) * ALPHA) / (n + ALPHA)).log();
            // each trial's terms summed in one order on every device: a running sum read at the trial's last
            // pair, less the one before. An `index_add_` of the terms themselves adds in whatever order CUDA's
            // atomics land, so two players tied in exact arithmetic came out a bit apart, and places moved
            // between runs (an H100, 953 profiles: 26 of 1,901 places).
            let (last, trial) = trial_ends(&trial_of[start..end]);
            let running = term.cumsum(1, Kind::Double).index_select(1, &ints(last));
            let zero = Tensor::zeros([self.players, 1], (Kind::Double, device));
            let each = running.diff(1, 1, Some(zero), None::<Tensor>);
            // one term per trial in this call: no two atomics meet
            let _ = sums.index_add_(1, &ints(trial), &each);
        }
        let sums = sums.transpose(0, 1).contiguous().to_device(Device::Cpu);
        let flat = Vec::<f64>::try_from(sums.flatten(0, -1))?;
        Ok(flat.chunks(self.players.max(1) as usize).map(<[f64]>::to_vec).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::trial_ends;

    #[test]
    fn a_trials_end_is_its_last_pair() {
        assert_eq!(trial_ends(&[]), (vec![], vec![]));
        assert_eq!(trial_ends(&[4]), (vec![0], vec![4]));
        assert_eq!(trial_ends(&[0, 0, 0, 2, 3, 3]), (vec![2, 3, 5], vec![0, 2, 3]));
    }
}
