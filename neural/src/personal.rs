//! Personal models as one network (issue 50): the global run's network conditioned on the player by a learned
//! vector per player ([`crate::model::PlayerNet`]; Maia4All's shared network with a small per-player
//! embedding), trained from the global run's weights on every training position at once
//! (`haifu train --init GLOBAL --player-vectors D`).
//!
//! Why this shape. A player with few games must get a model no worse than everyone's: every vector starts at
//! zero, where the network answers as it does for everyone, under a standard normal prior (its square's half
//! added to the loss, per training position), so it leaves zero only as far as the player's own positions
//! pull it. The whole network trains with the vectors: a frozen global network was tried first and could not
//! learn, from vectors added to its first layer, a difference its hidden features never needed (two made-up
//! players who see the same hands: the loss stopped at 0.82, above the ln 2 of a network that ignores the
//! players, where one that trains with the vectors goes to nearly 0). Each step hides the player (row 0) of
//! half its positions, so that row 0 stays a network for everyone, trained as long on the same positions: a
//! player's gain over it is the vector's alone, and the gain over the `--init` network, the global one, is
//! what a user gets. Fine-tuning the whole network on one player (`haifu train --player P --init GLOBAL`) is
//! the other personal model; all are measured on the same test positions.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use rand::Rng;
use serde::{Deserialize, Serialize};
use tch::nn::{self, ModuleT};
use tch::{Device, Kind, Tensor};

use crate::adam::FlatAdam;
use crate::features::FLAT;
use crate::model::{masked, Net, PlayerNet, PLAYER_VARS};
use crate::positions::Positions;
use crate::train::TrainOptions;
use crate::train::{
    device, epoch_order, evaluate, lr_at, save_epoch, score, top3_hits, EpochMetrics, OnDevice, RunInfo,
};
use crate::{Games, ANONYMOUS};

/// The players' vectors of a run: numbers per vector, rows (row 0 everyone else's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VectorShape {
    pub dims: i64,
    pub rows: i64,
}

/// The run's players in row order (row `i + 1` is `players[i]`), beside its `model.json`.
pub const PLAYERS_FILE: &str = "players.json";

/// Each position's player row: the players with at least `min_games` training games get rows 1.. in the
/// order of their names; every other seat, anonymous ones included, row 0 (the global network's).
#[derive(Clone, Debug, Default)]
pub struct PlayerRows {
    pub names: Vec<String>,
    pub train: Vec<u32>,
    pub test: Vec<u32>,
}

impl PlayerRows {
    /// The rows of a dataset's players (their names from its games table).
    pub fn of(games: &Games, train: &Positions, test: &Positions, min_games: usize) -> PlayerRows {
        PlayerRows::by(train, test, min_games, |g, s| games.name(g, s))
    }

    /// The rows by `name`, the name of a game's seat.
    pub fn by<'a>(
        train: &Positions,
        test: &Positions,
        min_games: usize,
        name: impl Fn(i64, u8) -> &'a str,
    ) -> PlayerRows {
        let mut games: HashMap<&str, HashSet<i64>> = HashMap::new();
        for i in 0..train.len() {
            let n = name(train.game[i], train.seat[i]);
            if !ANONYMOUS.contains(&n) {
                games.entry(n).or_default().insert(train.game[i]);
            }
        }
        let mut names: Vec<&str> = games.iter().filter(|(_, g)| g.len() >= min_games).map(|(n, _)| *n).collect();
        names.sort_unstable();
        let row: HashMap<&str, u32> = names.iter().enumerate().map(|(i, n)| (*n, i as u32 + 1)).collect();
        let rows = |p: &Positions| -> Vec<u32> {
            (0..p.len()).map(|i| row.get(name(p.game[i], p.seat[i])).copied().unwrap_or(0)).collect()
        };
        PlayerRows { train: rows(train), test: rows(test), names: names.into_iter().map(String::from).collect() }
    }
}

/// One player's figures on the player's test positions: the global network's (the `--init` run), the
/// conditioned network's with the player hidden (row 0) and with the player's vector.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerGain {
    pub player: String,
    pub training_games: usize,
    pub training_positions: usize,
    pub test_games: usize,
    pub test_positions: usize,
    pub global_top1: f64,
    pub everyone_top1: f64,
    pub personal_top1: f64,
    /// `personal_top1 - global_top1`, in points.
    pub gain_points: f64,
    /// `personal_top1 - everyone_top1`, in points: the vector's own part.
    pub vector_gain_points: f64,
}

/// The players judged together (the criterion: games on both sides), and a group of them by training
/// positions.
#[derive(Clone, Debug, Serialize)]
pub struct Gains {
    pub players: usize,
    /// Players whose own top-1 is above the global network's.
    pub better: usize,
    pub share_better: f64,
    pub mean_gain_points: f64,
    /// Players whose own top-1 is above the conditioned network's with the player hidden, and the mean of that
    /// gain.
    pub better_than_everyone: usize,
    pub mean_vector_gain_points: f64,
    /// The fewest and the most training positions of a player in the group.
    pub training_positions: (usize, usize),
}

impl Gains {
    fn of(group: &[&PlayerGain]) -> Gains {
        let better = group.iter().filter(|g| g.gain_points > 0.0).count();
        let n = group.len().max(1) as f64;
        let positions = group.iter().map(|g| g.training_positions);
        Gains {
            players: group.len(),
            better,
            share_better: better as f64 / n,
            mean_gain_points: group.iter().map(|g| g.gain_points).sum::<f64>() / n,
            better_than_everyone: group.iter().filter(|g| g.vector_gain_points > 0.0).count(),
            mean_vector_gain_points: group.iter().map(|g| g.vector_gain_points).sum::<f64>() / n,
            training_positions: (positions.clone().min().unwrap_or(0), positions.max().unwrap_or(0)),
        }
    }
}

/// What a `--player-vectors` run did (`haifu train --json`).
#[derive(Clone, Debug, Serialize)]
pub struct PlayersReport {
    pub device: String,
    pub vectors: VectorShape,
    /// Training positions (every one: the network trains on all, the vectors on their players').
    pub positions: usize,
    /// Of them, the positions of players with a vector.
    pub player_positions: usize,
    pub test_positions: usize,
    pub epochs: Vec<EpochMetrics>,
    /// Every test position, scored with its player's vector (row 0 for a player without one), by the global
    /// network, and with every player hidden.
    pub test_top1: f64,
    pub global_test_top1: f64,
    pub everyone_test_top1: f64,
    /// Every player with a vector and test positions, the fewest training positions first.
    pub players: Vec<PlayerGain>,
    /// Players with `min_games` games on both sides, together and in thirds by training positions (how the
    /// gain grows with a player's data).
    pub min_games: usize,
    pub judged: Gains,
    pub by_training_positions: Vec<Gains>,
    pub out: String,
}

/// The share of a step's positions whose player is hidden (row 0), so that row 0 stays everyone's network.
pub const HIDDEN_SHARE: f64 = 0.5;

/// The `--init` run player vectors are built on: a finished fp32 plain network of the positions' kind and table
/// size.
fn base_run(init: &Path, train: &Positions, opts: &TrainOptions) -> Result<RunInfo> {
    let from = RunInfo::read(init)?;
    if from.epochs == 0 || from.bf16 || from.player_vectors.is_some() {
        bail!("--init {}: a finished fp32 run of a plain network is what player vectors are built on", init.display());
    }
    if from.decisions() != opts.decisions {
        bail!(
            "--init {}: a network of the {:?}, these positions are the {:?} (--decisions)",
            init.display(),
            from.decisions(),
            opts.decisions
        );
    }
    if train.players.first().is_some_and(|&p| p != from.players) {
        bail!("--init {}: a network of {}-player positions, these are not", init.display(), from.players);
    }
    // the vectors' test games must be games the global network never trained on either
    if from.split != opts.sides {
        bail!(
            "--init {}: trained on another split of the games ({}) than these positions' ({}): give the same \
             --years, --test-years, --sample, --fraction and --fold",
            init.display(),
            from.split.as_ref().map_or("not recorded".to_string(), ToString::to_string),
            opts.sides.as_ref().map_or("not recorded".to_string(), ToString::to_string)
        );
    }
    Ok(from)
}

/// Trains a network conditioned on the player from `opts.init`'s (its shape and weights; `opts.epochs`,
/// `batch`, `lr`, `seed`, `device` and `out` as for any run), and measures each player's gain over the global
/// network on the same test positions.
pub fn train_players(
    train: &Positions,
    test: &Positions,
    rows: &PlayerRows,
    dims: i64,
    min_games: usize,
    opts: &TrainOptions,
    progress: &dyn Fn(usize, usize, usize),
) -> Result<PlayersReport> {
    let init = opts.init.as_ref().ok_or_else(|| anyhow!("--player-vectors: needs --init, the global run"))?;
    if dims < 1 || opts.batch == 0 || opts.epochs == 0 {
        bail!("--player-vectors, --batch and --epochs must be at least 1");
    }
    if rows.names.is_empty() {
        bail!("--player-vectors: no player has {min_games} training games (--player-min-games): no vector to train");
    }
    let from = base_run(init, train, opts)?;
    let shape = from.shape()?;
    let device = device(opts.device)?;
    if device == Device::Cpu {
        tch::set_num_threads(1);
    }
    std::fs::create_dir_all(&opts.out).with_context(|| format!("creating {}", opts.out.display()))?;
    let mut vs = nn::VarStore::new(device);
    let vectors = VectorShape { dims, rows: rows.names.len() as i64 + 1 };
    let player_net = {
        let _one = crate::generator();
        tch::manual_seed(opts.seed as i64);
        PlayerNet::new(&vs.root(), shape, vectors.rows, dims).map_err(|e| anyhow!("{e}"))?
    };
    let missing = vs.load_partial(from.checkpoint(init))?;
    if let Some(m) = missing.iter().find(|n| !n.starts_with(PLAYER_VARS)) {
        bail!("--init {}: its checkpoint has no {m}", init.display());
    }
    // the prior's variable, seen through the boxed network (the same tensor)
    let vectors_ws = player_net.vectors.ws.shallow_clone();
    let net = Net::Players(Box::new(player_net));
    let mut info = RunInfo::new(shape, from.players, false, opts.decisions);
    info.player_vectors = Some(vectors);
    info.split = opts.sides.clone();
    info.write(&opts.out)?;
    let names_path = opts.out.join(PLAYERS_FILE);
    std::fs::write(&names_path, serde_json::to_string_pretty(&rows.names)? + "\n")
        .with_context(|| format!("writing {}", names_path.display()))?;
    let mut adam = FlatAdam::new(&vs, opts.lr);
    let mut metrics = EpochMetrics::create(&opts.out.join("metrics.csv"))?;

    let tr = OnDevice::new(train, device, false).with_players(&rows.train);
    let te = OnDevice::new(test, device, false).with_players(&rows.test);
    let n = train.len();
    let mut epochs = Vec::new();
    for epoch in 0..opts.epochs {
        let lr = lr_at(opts.lr, epoch, opts.epochs);
        adam.set_lr(lr);
        let t = Instant::now();
        let (order, mut rng) = epoch_order(opts.seed, epoch, n, device);
        let mut fit_sum = Tensor::zeros([], (Kind::Double, device));
        for start in (0..n).step_by(opts.batch) {
            let len = opts.batch.min(n - start);
            // batch norm needs two rows to normalise over
            if len < 2 {
                continue;
            }
            let (x, legal, y) = tr.batch(&order.narrow(0, start as i64, len as i64));
            let shown: Vec<f32> = (0..len).map(|_| f32::from(!rng.random_bool(HIDDEN_SHARE))).collect();
            let _ = x.narrow(1, FLAT as i64, 1).g_mul_(&Tensor::from_slice(&shown).to_device(device).unsqueeze(1));
            let fit = masked(&net.forward_t(&x, true), &legal).cross_entropy_for_logits(&y);
            let prior = vectors_ws.square().sum(Kind::Float) / (2.0 * n as f64);
            adam.backward_step(&(&fit + prior));
            fit_sum += fit.detach().to_kind(Kind::Double) * len as f64;
            progress(epoch + 1, start + len, n);
        }
        let train_loss = fit_sum.double_value(&[]) / n.max(1) as f64;
        let seconds = t.elapsed().as_secs_f64();
        let (test_loss, test_top1, test_top3) = evaluate(&net, &te, test.len(), opts.batch);
        let m = EpochMetrics { epoch: epoch + 1, lr, train_loss, test_loss, test_top1, test_top3, seconds };
        save_epoch(&m, &mut metrics, &vs, &opts.out, &mut info)?;
        epochs.push(m);
    }
    let own = first_hits(&net, &te, test.len(), opts.batch);
    // the same positions on the device, every player hidden
    let hidden = te.with_players(&vec![0; test.len()]);
    let hits = Hits {
        own,
        everyone: first_hits(&net, &hidden, test.len(), opts.batch),
        global: crate::eval::hits(&crate::eval::load_run_of(init, opts.device, opts.decisions)?, test, opts.batch)
            .into_iter()
            .map(|(first, _)| first)
            .collect(),
    };
    let players = gains(train, test, rows, &hits);
    let mut judged: Vec<&PlayerGain> =
        players.iter().filter(|g| g.training_games >= min_games && g.test_games >= min_games).collect();
    judged.sort_by_key(|g| g.training_positions);
    let third = judged.len().div_ceil(3).max(1);
    let share = |hits: &[bool]| hits.iter().filter(|&&h| h).count() as f64 / hits.len().max(1) as f64;
    Ok(PlayersReport {
        device: format!("{device:?}").to_lowercase(),
        vectors,
        positions: n,
        player_positions: rows.train.iter().filter(|&&r| r > 0).count(),
        test_positions: test.len(),
        epochs,
        test_top1: share(&hits.own),
        global_test_top1: share(&hits.global),
        everyone_test_top1: share(&hits.everyone),
        min_games,
        judged: Gains::of(&judged),
        by_training_positions: judged.chunks(third).map(Gains::of).collect(),
        players,
        out: opts.out.display().to_string(),
    })
}

/// Whether each of the first `n` positions' played kind is the network's first choice.
fn first_hits(net: &Net, data: &OnDevice, n: usize, batch: usize) -> Vec<bool> {
    let mut out = Vec::with_capacity(n);
    score(net, data, n, batch, |logits, y| {
        let first: Vec<i64> =
            Vec::try_from(top3_hits(logits, y).narrow(1, 0, 1).squeeze_dim(1).to_kind(Kind::Int64)).unwrap_or_default();
        out.extend(first.into_iter().map(|h| h != 0));
    });
    out
}

/// Whether each test position's played kind is the first choice: with the player's vector, with the player
/// hidden, and of the global network.
struct Hits {
    own: Vec<bool>,
    everyone: Vec<bool>,
    global: Vec<bool>,
}

/// Every player with a vector and test positions: games and positions on both sides, and the three top-1s on
/// the player's test positions.
fn gains(train: &Positions, test: &Positions, rows: &PlayerRows, hits: &Hits) -> Vec<PlayerGain> {
    #[derive(Default)]
    struct Side {
        games: HashSet<i64>,
        positions: usize,
        own: usize,
        everyone: usize,
        global: usize,
    }
    let mut sides: Vec<[Side; 2]> = (0..=rows.names.len()).map(|_| Default::default()).collect();
    for (i, &r) in rows.train.iter().enumerate() {
        let s = &mut sides[r as usize][0];
        s.games.insert(train.game[i]);
        s.positions += 1;
    }
    for (i, &r) in rows.test.iter().enumerate() {
        let s = &mut sides[r as usize][1];
        s.games.insert(test.game[i]);
        s.positions += 1;
        s.own += usize::from(hits.own[i]);
        s.everyone += usize::from(hits.everyone[i]);
        s.global += usize::from(hits.global[i]);
    }
    let mut out: Vec<PlayerGain> = rows
        .names
        .iter()
        .zip(sides.iter().skip(1))
        .filter(|(_, [_, te])| te.positions > 0)
        .map(|(name, [tr, te])| {
            let top1 = |hits: usize| hits as f64 / te.positions as f64;
            let (global_top1, everyone_top1, personal_top1) = (top1(te.global), top1(te.everyone), top1(te.own));
            PlayerGain {
                player: name.clone(),
                training_games: tr.games.len(),
                training_positions: tr.positions,
                test_games: te.games.len(),
                test_positions: te.positions,
                global_top1,
                everyone_top1,
                personal_top1,
                gain_points: 100.0 * (personal_top1 - global_top1),
                vector_gain_points: 100.0 * (personal_top1 - everyone_top1),
            }
        })
        .collect();
    out.sort_by_key(|g| g.training_positions);
    out
}

/// The players of a run written by [`train_players`], in row order.
pub fn read_players(dir: &Path) -> Result<Vec<String>> {
    let path = dir.join(PLAYERS_FILE);
    let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not a list of players", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Arch;
    use crate::train::{train, Decisions, DeviceChoice};

    /// Positions of two players who see the same hands and differ in one known respect: positions `2h` and
    /// `2h + 1` hold the same features and the same three kinds to discard; player "one" (odd games) discards
    /// the first, player "two" (even games) the last. An anonymous seat plays "one"'s way in games of its own.
    fn two_players(n: usize, first_game: i64) -> Positions {
        let mut p = Positions::default();
        for i in 0..n {
            let (hand, player) = (i / 2, i % 2);
            let row: Vec<u8> = (0..FLAT).map(|f| u8::from((f * (hand % 5 + 2) + hand % 5) % 7 < 3)).collect();
            let kinds = [hand % 30, hand % 30 + 2, hand % 30 + 4];
            let game = first_game + 2 * (hand % 6) as i64 + player as i64;
            let label = if player == 1 { kinds[0] } else { kinds[2] };
            p.push(&row, kinds.iter().fold(0u64, |m, &k| m | 1 << k), label as u8, game, 0, 4);
        }
        p
    }

    fn name(game: i64, _: u8) -> &'static str {
        match game % 12 {
            11 => "NoName",
            g if g % 2 == 1 => "one",
            _ => "two",
        }
    }

    #[test]
    fn rows_go_to_named_players_with_enough_games() {
        let (tr, te) = (two_players(120, 0), two_players(24, 100));
        let rows = PlayerRows::by(&tr, &te, 5, name);
        assert_eq!(rows.names, ["one", "two"], "the anonymous seat gets no row");
        for (p, r) in [(&tr, &rows.train), (&te, &rows.test)] {
            assert_eq!(p.len(), r.len());
            for (&game, &row) in p.game.iter().zip(r.iter()) {
                let want = match name(game, 0) {
                    "one" => 1,
                    "two" => 2,
                    _ => 0,
                };
                assert_eq!(row, want);
            }
        }
        // "one" has five games (1, 3, 5, 7, 9), "two" six: six asked leaves only "two"
        assert_eq!(PlayerRows::by(&tr, &te, 6, name).names, ["two"]);
    }

    /// The global network cannot tell the two players apart (their hands are the same); their vectors can:
    /// each player's own top-1 rises far above the global network's, and above the same network's with the
    /// player hidden, on the same test positions.
    #[test]
    fn player_vectors_learn_what_the_global_network_cannot() {
        let dir = std::env::temp_dir().join(format!("haifu-personal-{}", std::process::id()));
        let (tr, te) = (two_players(600, 0), two_players(240, 600));
        let opts = |out: &str| TrainOptions {
            layers: 2,
            channels: 32,
            epochs: 3,
            batch: 64,
            device: DeviceChoice::Cpu,
            ..TrainOptions::new(Arch::Mlp, dir.join(out))
        };
        let global = train(&tr, &te, &opts("global")).unwrap();
        let rows = PlayerRows::by(&tr, &te, 3, name);
        let personal =
            TrainOptions { init: Some(dir.join("global")), epochs: 30, batch: 16, lr: 1e-2, ..opts("personal") };
        let r = train_players(&tr, &te, &rows, 4, 3, &personal, &|_, _, _| {}).unwrap();
        assert!((r.global_test_top1 - global.test_top1).abs() < 1e-9, "the global figure is the --init run's");
        assert!(global.test_top1 < 0.7, "the global network cannot tell them apart: {}", global.test_top1);
        assert!(r.everyone_test_top1 < 0.7, "nor can the network without the players: {}", r.everyone_test_top1);
        assert_eq!(r.players.len(), 2);
        for g in &r.players {
            assert!(g.personal_top1 > 0.9 && g.gain_points > 20.0 && g.vector_gain_points > 20.0, "{g:?}");
        }
        assert_eq!((r.judged.players, r.judged.better, r.judged.better_than_everyone), (2, 2, 2));
        // a discard network is no start for positions of the other choices
        let choices = TrainOptions { decisions: Decisions::Choices, out: dir.join("choices"), ..personal };
        let refused = train_players(&tr, &te, &rows, 4, 3, &choices, &|_, _, _| {}).unwrap_err();
        assert!(refused.to_string().contains("--decisions"), "{refused}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
