//! The networks `style accuracy` judges, behind the style crate's contracts, each scoring the test seats'
//! discards replayed from the dataset as training cut them: `--player-vectors RUN`, a network conditioned on the
//! players (`haifu train --player-vectors`, `haifu_style::accuracy::PlayerVectors`), with each profiled player's
//! vector; `--network RUN`, a global network (`haifu_style::accuracy::GlobalNetwork`), its log-probabilities
//! over the kinds.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use haifu_neural::eval::{load_players_run, load_run, log_probabilities, Loaded, PlayersRun, Probabilities};
use haifu_neural::train::DeviceChoice;
use haifu_neural::train::RunInfo;
use haifu_neural::Positions;
use haifu_neural::{load_seats, Games};
use haifu_style::accuracy::{GlobalNetwork, NetworkReadings, PlayerVectors};
use haifu_style::discards::NetworkSeats;

/// The run, and where the trials' positions are read.
pub struct Vectors {
    run: PlayersRun,
    dir: PathBuf,
    dataset: PathBuf,
    players: u8,
}

impl Vectors {
    pub fn load(dir: &Path, dataset: &Path, players: u8) -> Result<Vectors> {
        let run = load_players_run(dir, DeviceChoice::Auto)?;
        if run.run.info.players != players {
            bail!(
                "{}: a network of {}-player games; the database profiles {players}-player games",
                dir.display(),
                run.run.info.players
            );
        }
        Ok(Vectors { run, dir: dir.to_path_buf(), dataset: dataset.to_path_buf(), players })
    }
}

/// Which games the run in `dir` trained on, refused where it does not say.
fn sides_of<'a>(run: &'a Loaded, dir: &Path) -> Result<&'a haifu_neural::Sides> {
    run.info.split.as_ref().ok_or_else(|| {
        anyhow::anyhow!(
            "{}: the run does not record the games it trained on (train it again with this haifu, `--sample` as the \
             database's)",
            dir.display()
        )
    })
}

/// Refuses the run in `dir` when it trained on any of `test_games` (or does not say which games it trained on).
fn unseen(run: &Loaded, dir: &Path, games: &Games, test_games: &[i64]) -> Result<()> {
    let sides = sides_of(run, dir)?;
    let seen = test_games.iter().filter(|&&g| sides.of(games, g) == Some(false)).count();
    if seen > 0 {
        bail!(
            "{}: {seen} of the {} test games are among the games it trained on ({sides}): train it with the \
             database's --sample and years",
            dir.display(),
            test_games.len()
        );
    }
    Ok(())
}

/// The positions of `seats` (game id, seat) at tables of `players` seats, in the order training cuts them: the
/// partitions of the seats' years read a chunk at a time (every one where a game has no year), only the seats'
/// kept.
fn positions_of(dataset: &Path, games: &Games, seats: &[(i64, u8)], players: u8) -> Result<Positions> {
    let wanted: HashSet<(i64, u8)> = seats.iter().copied().collect();
    let years: Option<BTreeSet<i32>> = wanted.iter().map(|&(g, _)| games.year(g)).collect();
    let years: Vec<i32> = years.map(|y| y.into_iter().collect()).unwrap_or_default();
    load_seats(dataset, games, &years, players, |g, s| wanted.contains(&(g, s)))
}

impl PlayerVectors for Vectors {
    fn of_seats(
        &self,
        seats: &[(i64, u8)],
        players: &[String],
        test_games: &[i64],
    ) -> Result<HashMap<(i64, u8), Vec<f64>>> {
        let games = Games::read(&self.dataset)?;
        unseen(&self.run.run, &self.dir, &games, test_games)?;
        let p = positions_of(&self.dataset, &games, seats, self.players)?;
        // each database player's row, and the distinct rows scored once each
        let row_of: HashMap<&str, u32> =
            self.run.players.iter().enumerate().map(|(i, n)| (n.as_str(), i as u32 + 1)).collect();
        let rows: Vec<u32> = players.iter().map(|n| row_of.get(n.as_str()).copied().unwrap_or(0)).collect();
        let missing = rows.iter().filter(|&&r| r == 0).count();
        if missing > 0 {
            eprintln!(
                "note: {missing} of the database's {} players have no vector in {}: they are scored with its row \
                 for everyone",
                players.len(),
                self.dir.display()
            );
        }
        let distinct: Vec<u32> = rows.iter().copied().collect::<BTreeSet<_>>().into_iter().collect();
        let at: HashMap<u32, usize> = distinct.iter().enumerate().map(|(i, &r)| (r, i)).collect();
        let log_probs = self.run.label_log_probs(&p, &distinct, self.run.run.default_batch());
        // each seat's log-likelihood under each distinct row, then under each database player's
        let mut by_row: HashMap<(i64, u8), Vec<f64>> = HashMap::new();
        for i in 0..p.len() {
            let sums = by_row.entry((p.game[i], p.seat[i])).or_insert_with(|| vec![0.0; distinct.len()]);
            for (s, lp) in sums.iter_mut().zip(&log_probs) {
                *s += f64::from(lp[i]);
            }
        }
        Ok(by_row.into_iter().map(|(seat, sums)| (seat, rows.iter().map(|r| sums[at[r]]).collect())).collect())
    }
}

/// A run of `haifu train` as the network personal models are judged on, and where the test seats' positions
/// are read: a global run, or a `--player-vectors` run (its row for everyone the global network, each player's
/// own vector the base of the player's model).
pub struct Global {
    run: Network,
    dir: PathBuf,
    dataset: PathBuf,
    /// The dataset's games index, read once (a fold network of `--cross-fit` is asked which games it saw, then
    /// reads them).
    games: Games,
    players: u8,
}

enum Network {
    Plain(Loaded),
    Players(PlayersRun),
}

impl Global {
    pub fn load(dir: &Path, dataset: &Path, players: u8) -> Result<Global> {
        let run = match RunInfo::read(dir)?.player_vectors {
            Some(_) => Network::Players(load_players_run(dir, DeviceChoice::Auto)?),
            None => Network::Plain(load_run(dir, DeviceChoice::Auto)?),
        };
        let games = Games::read(dataset)?;
        let global = Global { run, dir: dir.to_path_buf(), dataset: dataset.to_path_buf(), games, players };
        let of = global.loaded().info.players;
        if of != players {
            bail!("{}: a network of {of}-player games; the database profiles {players}-player games", dir.display());
        }
        Ok(global)
    }

    /// The run's network and settings, whichever kind of run it is.
    fn loaded(&self) -> &Loaded {
        match &self.run {
            Network::Plain(l) => l,
            Network::Players(p) => &p.run,
        }
    }
}

impl GlobalNetwork for Global {
    fn unseen(&self, games: &[i64]) -> Result<Vec<bool>> {
        let sides = sides_of(self.loaded(), &self.dir)?;
        Ok(games.iter().map(|&g| sides.of(&self.games, g) != Some(false)).collect())
    }

    fn of_seats(&self, seats: &[(i64, u8)], test_games: &[i64]) -> Result<NetworkReadings> {
        let games = &self.games;
        unseen(self.loaded(), &self.dir, games, test_games)?;
        let p = positions_of(&self.dataset, games, seats, self.players)?;
        // each seat's positions in the order they were cut (a game's events in order)
        let by_seat = |log_probs: Probabilities| {
            let mut by_seat = NetworkSeats::new();
            for (i, lp) in log_probs.into_iter().enumerate() {
                by_seat.entry((p.game[i], p.seat[i])).or_default().push((lp, p.label[i]));
            }
            by_seat
        };
        match &self.run {
            Network::Plain(run) => {
                let global = by_seat(log_probabilities(run, &p, run.default_batch()));
                Ok(NetworkReadings { global, own: None })
            }
            Network::Players(run) => {
                let batch = run.run.default_batch();
                let row_of: HashMap<&str, u32> =
                    run.players.iter().enumerate().map(|(i, n)| (n.as_str(), i as u32 + 1)).collect();
                let own: Vec<u32> =
                    (0..p.len()).map(|i| row_of.get(games.name(p.game[i], p.seat[i])).copied().unwrap_or(0)).collect();
                let global = by_seat(run.log_probabilities(&p, &vec![0; p.len()], batch));
                Ok(NetworkReadings { global, own: Some(by_seat(run.log_probabilities(&p, &own, batch))) })
            }
        }
    }
}
