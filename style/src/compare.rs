//! Two players side by side: how far apart their sequence distributions are (Jensen-Shannon), how their rates
//! differ, and the shapes where their choices differ most; the nearest players to one.
//!
//! A player's distribution is over (before, after) pairs of the `all` strategy, every source summed, each pair
//! folded with its mirror (SPEC 2: the pair and its mirror are one sequence).

use hashbrown::HashMap;
use serde::Serialize;

use haifu_imitate::SeqTable;
use haifu_mining::Shape;

/// The pair and its mirror as one: the smaller of the two (before, after) key pairs.
pub fn folded(before: u32, after: u32) -> (u32, u32) {
    let m = (Shape::from_key(before).mirror().key(), Shape::from_key(after).mirror().key());
    (before, after).min(m)
}

/// A player's folded pair counts.
#[derive(Clone, Debug, Default)]
pub struct Distribution {
    pub counts: HashMap<(u32, u32), u64>,
    pub total: u64,
}

impl Distribution {
    pub fn of(table: &SeqTable) -> Distribution {
        let mut d = Distribution::default();
        for (b, a, n) in table.iter() {
            *d.counts.entry(folded(b, a)).or_default() += u64::from(n);
            d.total += u64::from(n);
        }
        d
    }

    fn p(&self, k: &(u32, u32)) -> f64 {
        self.counts.get(k).map_or(0.0, |&n| n as f64 / self.total as f64)
    }

    /// The folded befores with their totals and after-counts.
    fn by_before(&self) -> HashMap<u32, (u64, HashMap<u32, u64>)> {
        let mut out: HashMap<u32, (u64, HashMap<u32, u64>)> = HashMap::new();
        for (&(b, a), &n) in &self.counts {
            let e = out.entry(b).or_default();
            e.0 += n;
            *e.1.entry(a).or_default() += n;
        }
        out
    }
}

/// Jensen-Shannon distance (the square root of the divergence, base 2): 0 for equal distributions, 1 for
/// disjoint ones.
pub fn js_distance(p: &Distribution, q: &Distribution) -> f64 {
    if p.total == 0 || q.total == 0 {
        return 1.0;
    }
    let mut div = 0.0;
    let mut seen = |k: &(u32, u32)| {
        let (a, b) = (p.p(k), q.p(k));
        let m = (a + b) / 2.0;
        let term = |x: f64| if x > 0.0 { x * (x / m).log2() } else { 0.0 };
        div += (term(a) + term(b)) / 2.0;
    };
    for k in p.counts.keys() {
        seen(k);
    }
    for k in q.counts.keys().filter(|k| !p.counts.contains_key(*k)) {
        seen(k);
    }
    div.max(0.0).sqrt()
}

/// A shape on which two players choose differently.
#[derive(Clone, Debug, Serialize)]
pub struct ShapeDifference {
    pub before: String,
    /// Occurrences of the (folded) before shape for each player.
    pub n: [u64; 2],
    /// Total variation distance between the two players' choices of `after` for this shape (0..1).
    pub distance: f64,
    /// Each player's most frequent `after` and its share.
    pub choice: [(String, f64); 2],
}

/// The before shapes seen at least `min_count` times by both, by how differently the two choose, most first.
pub fn shape_differences(p: &Distribution, q: &Distribution, min_count: u64, limit: usize) -> Vec<ShapeDifference> {
    let (bp, bq) = (p.by_before(), q.by_before());
    let mut out: Vec<ShapeDifference> = bp
        .iter()
        .filter_map(|(b, (np, ap))| {
            let (nq, aq) = bq.get(b)?;
            if *np < min_count || *nq < min_count {
                return None;
            }
            let share = |m: &HashMap<u32, u64>, n: u64, a: &u32| m.get(a).map_or(0.0, |&c| c as f64 / n as f64);
            let mut afters: Vec<&u32> = ap.keys().chain(aq.keys()).collect();
            afters.sort_unstable();
            afters.dedup();
            let distance = afters.iter().map(|a| (share(ap, *np, a) - share(aq, *nq, a)).abs()).sum::<f64>() / 2.0;
            let top = |m: &HashMap<u32, u64>, n: u64| {
                let (a, c) = m.iter().max_by_key(|(a, c)| (**c, std::cmp::Reverse(**a))).expect("seen at least once");
                (Shape::from_key(*a).to_string(), *c as f64 / n as f64)
            };
            Some(ShapeDifference {
                before: Shape::from_key(*b).to_string(),
                n: [*np, *nq],
                distance,
                choice: [top(ap, *np), top(aq, *nq)],
            })
        })
        .collect();
    out.sort_by(|x, y| y.distance.total_cmp(&x.distance).then_with(|| x.before.cmp(&y.before)));
    out.truncate(limit);
    out
}
