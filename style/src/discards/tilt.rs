//! A network's answers tilted by the players' discard coefficients, as `haifu review --model RUN --db DB` shows
//! them: at each chosen discard the model has, each candidate kind's probability times e to the candidate's
//! utility under the seat's player's coefficients less everyone's (a refit's: the coefficients whole), then
//! normalised again (the personal model `style accuracy --network` judges).

use std::path::Path;

use anyhow::Result;
use hashbrown::{HashMap, HashSet};
use serde::Serialize;

use super::{of_seats, Candidate, Coefficients, DiscardModel};
use crate::played::{self, Reading};

/// What a tilt did: the positions it tilted, and the model's choices that matched no position (none unless the
/// dataset and the network's positions disagree).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tilting {
    pub tilted: usize,
    pub unmatched: usize,
}

impl Tilting {
    pub fn add(&mut self, o: Tilting) {
        self.tilted += o.tilted;
        self.unmatched += o.unmatched;
    }
}

impl DiscardModel {
    /// Tilts `probs`, a network's probabilities over the 34 kinds at positions `at` (game id, seat, kind
    /// discarded; each seat's positions in the order its chosen discards came, as a network's positions are
    /// cut) by each seat's player's coefficients less everyone's, where the model has the player's
    /// coefficients and a choice at the position; a refit's by the coefficients whole, every seat's
    /// ([`DiscardModel::tilt_of`]). The games are read from `years` of `dataset` (all years
    /// where empty; tables of `players` seats).
    pub fn tilt(
        &self,
        dataset: &Path,
        years: &[i32],
        players: u8,
        at: &[(i64, u8, u8)],
        probs: &mut [[f32; 34]],
    ) -> Result<Tilting> {
        if self.everyone.is_none() {
            return Ok(Tilting::default());
        }
        // each position by (game, seat, its place among the seat's positions)
        let mut place: HashMap<(i64, u8, u16), usize> = HashMap::new();
        let mut next: HashMap<(i64, u8), u16> = HashMap::new();
        for (i, &(g, s, _)) in at.iter().enumerate() {
            let n = next.entry((g, s)).or_default();
            place.insert((g, s, *n), i);
            *n += 1;
        }
        let wanted: HashSet<i64> = at.iter().map(|p| p.0).collect();
        let reading = Reading { years, players, tiles: true };
        let games = played::read(dataset, &reading, |_, g| wanted.contains(&g))?;
        let mut done = Tilting::default();
        for g in &games {
            // the seats among the positions whose player has coefficients
            let delta =
                |s: u8| next.contains_key(&(g.game_id, s)).then(|| self.tilt_of(&g.names[usize::from(s)])).flatten();
            for (s, d) in of_seats(g, |s| delta(s).is_some()).iter().enumerate() {
                let Some(delta) = delta(s as u8) else { continue };
                for c in &d.choices {
                    let (cands, chosen) = (&d.candidates[c.start as usize..][..usize::from(c.len)], c.chosen);
                    let matched = place.get(&(g.game_id, s as u8, c.at)).copied();
                    let Some(i) = matched.filter(|&i| usize::from(at[i].2) == cands[usize::from(chosen)].kind()) else {
                        done.unmatched += 1;
                        continue;
                    };
                    tilt(&mut probs[i], cands, &delta);
                    done.tilted += 1;
                }
            }
        }
        Ok(done)
    }
}

/// Tilts a network's probabilities over the 34 kinds at one chosen discard: each candidate's times e to its
/// utility under `delta` (a player's coefficients less everyone's), then all normalised again.
pub fn tilt(probs: &mut [f32; 34], candidates: &[Candidate], delta: &Coefficients) {
    for c in candidates {
        probs[c.kind()] *= c.utility(&delta.0).exp() as f32;
    }
    let sum: f32 = probs.iter().sum();
    if sum > 0.0 {
        probs.iter_mut().for_each(|x| *x /= sum);
    }
}
