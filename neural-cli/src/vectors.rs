//! `style accuracy --player-vectors RUN`: a network conditioned on the players (`haifu train --player-vectors`)
//! behind the style crate's contract (`haifu_style::accuracy::PlayerVectors`): each trial's discards, replayed
//! from the dataset as training cut them, scored with each profiled player's vector.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use haifu_neural::eval::{load_players_run, PlayersRun};
use haifu_neural::train::DeviceChoice;
use haifu_neural::{load_years, Games};
use haifu_style::accuracy::PlayerVectors;

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

    /// Refuses the run when it trained on any of `test_games` (or does not say which games it trained on).
    fn unseen(&self, games: &Games, test_games: &[i64]) -> Result<()> {
        let Some(sides) = &self.run.run.info.split else {
            bail!(
                "{}: the run does not record the games it trained on (train it again with this haifu, `--sample` as \
                 the database's)",
                self.dir.display()
            )
        };
        let seen = test_games.iter().filter(|&&g| sides.of(games, g) == Some(false)).count();
        if seen > 0 {
            bail!(
                "{}: {seen} of the {} test games are among the games it trained on ({sides}): train it with the \
                 database's --sample and years",
                self.dir.display(),
                test_games.len()
            );
        }
        Ok(())
    }
}

impl PlayerVectors for Vectors {
    fn of_seats(
        &self,
        seats: &[(i64, u8)],
        players: &[String],
        test_games: &[i64],
    ) -> Result<HashMap<(i64, u8), Vec<f64>>> {
        let games = Games::read(&self.dataset)?;
        self.unseen(&games, test_games)?;
        let wanted: HashSet<(i64, u8)> = seats.iter().copied().collect();
        // the partitions of the seats' years (every one where a game has no year)
        let years: Option<BTreeSet<i32>> = wanted.iter().map(|&(g, _)| games.year(g)).collect();
        let years: Vec<i32> = years.map(|y| y.into_iter().collect()).unwrap_or_default();
        let all = load_years(&self.dataset, &games, &years, self.players)?;
        let p = all.select(|i| wanted.contains(&(all.game[i], all.seat[i])));
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
