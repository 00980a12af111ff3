//! Two players side by side: how far apart their sequence distributions are (Jensen-Shannon), how their rates
//! differ, and the shapes where their choices differ most; the nearest players to one.
//!
//! A player's distribution is over (before, after) pairs of the `all` strategy, every source summed, each pair
//! folded with its mirror (SPEC 2: the pair and its mirror are one sequence).

use anyhow::{bail, Result};
use hashbrown::HashMap;
use serde::Serialize;

use haifu_imitate::SeqTable;
use haifu_mining::Shape;

use crate::db::StyleDb;

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
    // summed in the pairs' order, so that the same two players give the same distance to the bit every run
    let mut pairs: Vec<&(u32, u32)> =
        p.counts.keys().chain(q.counts.keys().filter(|k| !p.counts.contains_key(*k))).collect();
    pairs.sort_unstable();
    let div: f64 = pairs
        .into_iter()
        .map(|k| {
            let (a, b) = (p.p(k), q.p(k));
            let m = (a + b) / 2.0;
            let term = |x: f64| if x > 0.0 { x * (x / m).log2() } else { 0.0 };
            (term(a) + term(b)) / 2.0
        })
        .sum();
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

/// What `style nearest` measures players' nearness by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nearness {
    /// The cosine of the players' deviations from everyone's discard coefficients
    /// ([`crate::discards::DiscardModel::nearest`]), most alike first.
    Discards,
    /// The Jensen-Shannon distance of their sequences ([`js_distance`]), nearest first.
    Sequences,
}

impl Nearness {
    /// The name (`--by`, and the JSON's `by`).
    pub fn name(self) -> &'static str {
        match self {
            Nearness::Discards => "discards",
            Nearness::Sequences => "sequences",
        }
    }

    /// The JSON's key of the measure.
    pub fn key(self) -> &'static str {
        match self {
            Nearness::Discards => "discard_cosine",
            Nearness::Sequences => "js_distance",
        }
    }
}

/// A player's nearest players by one measure: `style nearest`, the player page and the Python module's
/// `StyleDb.nearest`.
#[derive(Clone, Debug)]
pub struct Nearest {
    pub player: String,
    pub by: Nearness,
    /// The other players, nearest first: name, the measure, their games.
    pub rows: Vec<(String, f64, u64)>,
}

impl Nearest {
    /// The `k` players nearest `player` (a profiled player, else an error naming the database) by `by`; by the
    /// discard coefficients, an error for a player without them.
    pub fn of(db: &StyleDb, player: &str, by: Nearness, k: usize) -> Result<Nearest> {
        let me = &db.profile(player)?.player;
        let games = |p: &str| db.profiles.iter().find(|q| q.player == p).map_or(0, |q| q.tally.games);
        let mut rows: Vec<(String, f64, u64)> = match by {
            Nearness::Discards => {
                let Some(near) = db.discards.nearest(me) else {
                    bail!("{}: {me} has no discard coefficients: try --by sequences", db.dir.display());
                };
                near.into_iter().map(|(p, c)| (p.to_string(), c, games(p))).collect()
            }
            Nearness::Sequences => {
                let tables = db.tables(None)?;
                let mine = Distribution::of(tables.get(me));
                let mut near: Vec<(String, f64, u64)> = db
                    .profiles
                    .iter()
                    .filter(|p| &p.player != me)
                    .map(|p| {
                        (p.player.clone(), js_distance(&mine, &Distribution::of(tables.get(&p.player))), p.tally.games)
                    })
                    .collect();
                near.sort_by(|x, y| x.1.total_cmp(&y.1).then_with(|| x.0.cmp(&y.0)));
                near
            }
        };
        rows.truncate(k);
        Ok(Nearest { player: me.clone(), by, rows })
    }

    /// As `style nearest --json` prints it.
    pub fn json(&self) -> serde_json::Value {
        let rows: Vec<serde_json::Value> = self
            .rows
            .iter()
            .map(|(p, x, g)| {
                let mut row = serde_json::Map::new();
                row.insert("player".into(), p.clone().into());
                row.insert(self.by.key().into(), (*x).into());
                row.insert("games".into(), (*g).into());
                row.into()
            })
            .collect();
        serde_json::json!({ "player": self.player, "by": self.by.name(), "nearest": rows })
    }
}
