//! The tables and a network on the same decisions (issue 11's hybrid): for every decision `haifu imitate eval`
//! ranks, where the true discard stands in the table's list and in the network's ranking, and two ways of
//! combining them:
//!
//! - **backoff**: the table's list where it has one (the decision is answered), the network's ranking
//!   elsewhere, so every decision is answered;
//! - **blend**: `(1 - w) * p_net(k) + w * q_table(k)` over the legal kinds, where `p_net` is the network's
//!   softmax and `q_table` the table's list as reciprocal ranks normalised to sum 1 (`q = 0` off the list, and
//!   the network alone where the table has no list).
//!
//! Decisions and positions are matched as the k-th chosen discard of a seat in a game on both sides (both leave
//! out the discards of a seat already in riichi); every pair must name the same discarded kind, or the two
//! readers disagree and the join is refused.

use anyhow::{bail, Result};
use hashbrown::HashMap;
use serde_json::{json, Value};

use haifu_imitate::eval::table_sets;
use haifu_imitate::rank::rank_prepared;
use haifu_imitate::{evaluate, EvalOptions, TableVariant, TestData};

use crate::positions::Positions;

/// One decision seen by both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Joint {
    /// Index into [`TestData::players`].
    pub player: u32,
    /// The table has a candidate list for the decision.
    pub answered: bool,
    /// 1-based place of the true discard in the table's list (`None`: not listed or not answered).
    pub table_rank: Option<u16>,
    /// 1-based place of the true discard in the network's ranking.
    pub net_rank: u8,
    /// 1-based place in the blend's ranking.
    pub blend_rank: u8,
}

/// Counts of one player or everyone: the table (on what it answers), the network (on all decisions and on
/// those the table answers), backoff and blend (on all).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JointCounts {
    pub n_all: u64,
    pub answered: u64,
    pub table: [u64; 2],
    pub net: [u64; 2],
    pub net_covered: [u64; 2],
    pub backoff: [u64; 2],
    pub blend: [u64; 2],
}

fn hit(rank: Option<u32>) -> [u64; 2] {
    [u64::from(rank == Some(1)), u64::from(rank.is_some_and(|r| r <= 3))]
}

fn add(a: &mut [u64; 2], b: [u64; 2]) {
    a[0] += b[0];
    a[1] += b[1];
}

impl JointCounts {
    pub fn count(&mut self, j: &Joint) {
        self.n_all += 1;
        let net = hit(Some(u32::from(j.net_rank)));
        add(&mut self.net, net);
        add(&mut self.blend, hit(Some(u32::from(j.blend_rank))));
        if j.answered {
            self.answered += 1;
            let table = hit(j.table_rank.map(u32::from));
            add(&mut self.table, table);
            add(&mut self.net_covered, net);
            add(&mut self.backoff, table);
        } else {
            add(&mut self.backoff, net);
        }
    }

    /// The JSON object of `haifu imitate eval --backoff` and `haifu neural eval --tables`: each method's
    /// counts and rates over its decisions.
    pub fn to_json(&self) -> Value {
        let part = |c: [u64; 2], n: u64| {
            let r = |x: u64| (n > 0).then(|| x as f64 / n as f64);
            json!({"n": n, "c_first": c[0], "c_top3": c[1], "r_first": r(c[0]), "r_top3": r(c[1])})
        };
        json!({
            "n_all": self.n_all, "answered": self.answered,
            "coverage": (self.n_all > 0).then(|| self.answered as f64 / self.n_all as f64),
            "table": part(self.table, self.answered), "network": part(self.net, self.n_all),
            "network_covered": part(self.net_covered, self.answered),
            "backoff": part(self.backoff, self.n_all), "blend": part(self.blend, self.n_all),
        })
    }
}

/// 1-based place of `kind` when kinds are ranked by `score` descending, ties to the lower kind, among `legal`.
fn place(score: &[f32; 34], legal: u64, kind: u8) -> u8 {
    let s = score[usize::from(kind)];
    let ahead = (0..34u8)
        .filter(|&k| legal >> k & 1 == 1 && k != kind)
        .filter(|&k| score[usize::from(k)] > s || (score[usize::from(k)] == s && k < kind))
        .count();
    ahead as u8 + 1
}

/// Index of each position by (game, seat): that seat's positions in play order.
fn by_seat(p: &Positions) -> HashMap<(i64, u8), Vec<usize>> {
    let mut map: HashMap<(i64, u8), Vec<usize>> = HashMap::new();
    for i in 0..p.len() {
        map.entry((p.game[i], p.seat[i])).or_default().push(i);
    }
    map
}

/// Every decision of `data` that `imitate eval` ranks, against the `variant` table of its player (own, all or
/// all-but-own; a player without a table of their own is left out of own and all-but-own, as there) and the network's probabilities `probs` of `positions`.
pub fn join(
    data: &TestData,
    tables: &haifu_imitate::Tables,
    variant: TableVariant,
    opts: &EvalOptions,
    positions: &Positions,
    probs: &[[f32; 34]],
    blend: f32,
) -> Result<Vec<Joint>> {
    if variant == TableVariant::Others {
        bail!("the hybrid reads one table per player: own, all or all-but-own, not others");
    }
    if opts.include_riichi {
        bail!("the network ranks chosen discards only: the hybrid leaves in-riichi discards out");
    }
    let seats = by_seat(positions);
    let mut out = Vec::with_capacity(data.decisions.len());
    for (p, name) in data.players.iter().enumerate() {
        if variant.needs_own() && !tables.has_scope(name) {
            continue; // no table of the player's own: `imitate eval` skips the player too
        }
        let decisions = data.player_decisions(p);
        let sets = table_sets(tables, name, variant, &opts.strategy.strategies())?;
        let set = &sets[0];
        let mut results = Vec::with_capacity(decisions.len());
        evaluate(decisions, set, opts, |r| results.push(*r));
        let mut next: HashMap<(i64, u8), usize> = HashMap::new();
        for (d, r) in decisions.iter().zip(&results) {
            if r.in_riichi {
                continue;
            }
            let k = next.entry((d.game_id, d.seat)).or_default();
            let Some(&i) = seats.get(&(d.game_id, d.seat)).and_then(|v| v.get(*k)) else {
                bail!(
                    "game {} seat {}: the decisions table has more chosen discards than the replayed positions",
                    d.game_id,
                    d.seat
                );
            };
            *k += 1;
            if positions.label[i] != d.discard {
                bail!(
                    "game {} seat {} round {} turn {}: the decisions table says kind {}, the replay kind {}",
                    d.game_id,
                    d.seat,
                    d.round,
                    d.turn,
                    d.discard,
                    positions.label[i]
                );
            }
            let net = &probs[i];
            let mut mixed = net.map(|x| x * (1.0 - blend));
            let mut answered = false;
            if let Some(s) = r.strategy {
                let list = rank_prepared(&d.prepared, set.get(s)).kinds();
                answered = !list.is_empty();
                let norm: f32 = (1..=list.len()).map(|r| 1.0 / r as f32).sum();
                for (place, k) in list.iter().enumerate() {
                    mixed[usize::from(k.index())] += blend / (place as f32 + 1.0) / norm;
                }
            }
            if !answered {
                mixed = *net;
            }
            out.push(Joint {
                player: d.player,
                answered: r.answered,
                table_rank: r.rank,
                net_rank: place(net, positions.legal[i], d.discard),
                blend_rank: place(&mixed, positions.legal[i], d.discard),
            });
        }
    }
    Ok(out)
}

/// Counts per player (indexed like [`TestData::players`]) and overall.
pub fn tally(players: usize, joints: &[Joint]) -> (Vec<JointCounts>, JointCounts) {
    let mut per = vec![JointCounts::default(); players];
    let mut all = JointCounts::default();
    for j in joints {
        per[j.player as usize].count(j);
        all.count(j);
    }
    (per, all)
}

/// One table variant's decisions ranked by the tables and by a network (`imitate eval --backoff`,
/// `neural eval --tables`): counts per player (named) and overall.
pub struct SideBySide {
    pub variant: TableVariant,
    pub players: Vec<(String, JointCounts)>,
    pub overall: JointCounts,
}

/// The test decisions of `data` at tables of the run's size, ranked by each variant's tables and the network;
/// also the number of decisions left out because their games are of the other table size.
pub fn side_by_side(
    run: &crate::eval::Loaded,
    data: TestData,
    tables: &haifu_imitate::Tables,
    variants: &[TableVariant],
    opts: &EvalOptions,
    blend: f32,
    batch: usize,
) -> Result<(Vec<SideBySide>, usize)> {
    if !(0.0..=1.0).contains(&blend) {
        bail!("--blend {blend}: the table's weight is between 0 and 1");
    }
    let games = crate::Games::read(&data.dataset)?;
    let size = run.info.players;
    let before = data.decisions.len();
    let (dataset, selection, names) = (data.dataset.clone(), data.selection.clone(), data.players.clone());
    let decisions = data.decisions.into_iter().filter(|d| games.players(d.game_id) == Some(size)).collect::<Vec<_>>();
    let other_size = before - decisions.len();
    let data = TestData::from_decisions(dataset, selection, names, decisions);
    let wanted: std::collections::HashSet<&str> = data.players.iter().map(String::as_str).collect();
    let positions = crate::load_years(&data.dataset, &games, &data.selection.years, size)?;
    let positions = positions.select(|i| wanted.contains(games.name(positions.game[i], positions.seat[i])));
    let probs = crate::eval::probabilities(run, &positions, batch);
    let mut out = Vec::new();
    for &variant in variants.iter().filter(|v| **v != TableVariant::Others) {
        let joints = join(&data, tables, variant, opts, &positions, &probs, blend)?;
        let (per, overall) = tally(data.players.len(), &joints);
        let players = data.players.iter().cloned().zip(per).filter(|(_, c)| c.n_all > 0).collect();
        out.push(SideBySide { variant, players, overall });
    }
    Ok((out, other_size))
}

/// `{variant: {"overall": .., "players": [..]}}`, the players those `show` accepts.
pub fn side_by_side_json(results: &[SideBySide], show: impl Fn(&str) -> bool) -> Value {
    results
        .iter()
        .map(|r| {
            let players: Vec<Value> = r
                .players
                .iter()
                .filter(|(p, _)| show(p))
                .map(|(p, c)| {
                    let mut v = c.to_json();
                    v["player"] = json!(p);
                    v
                })
                .collect();
            (r.variant.name().to_string(), json!({"overall": r.overall.to_json(), "players": players}))
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}
