//! A network's answers tilted by the players' discard coefficients, as `haifu review --model RUN --db DB` shows
//! them: at each chosen discard the model has, each candidate kind's probability times e to the candidate's
//! utility under the seat's player's coefficients less everyone's, then normalised again (the personal model
//! `style accuracy --network` judges).

use std::path::Path;

use anyhow::Result;
use hashbrown::{HashMap, HashSet};
use serde::Serialize;

use super::{of_seats, Coefficients, DiscardModel};
use crate::played::{self, Reading};

/// What a tilt did: the positions it tilted, and the model's choices that matched no position (none unless the
/// dataset and the network's positions disagree).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tilting {
    pub tilted: usize,
    pub unmatched: usize,
}

impl DiscardModel {
    /// Tilts `probs`, a network's probabilities over the 34 kinds at positions `at` (game id, seat, kind
    /// discarded; each seat's positions in the order its chosen discards came, as a network's positions are
    /// cut) by each seat's player's coefficients less everyone's, where the model has the player's
    /// coefficients and a choice at the position. The games are read from `dataset` (tables of `players`
    /// seats).
    pub fn tilt(&self, dataset: &Path, players: u8, at: &[(i64, u8, u8)], probs: &mut [[f32; 34]]) -> Result<Tilting> {
        let Some(everyone) = &self.everyone else { return Ok(Tilting::default()) };
        // each position by (game, seat, its place among the seat's positions)
        let mut place: HashMap<(i64, u8, u16), usize> = HashMap::new();
        let mut next: HashMap<(i64, u8), u16> = HashMap::new();
        for (i, &(g, s, _)) in at.iter().enumerate() {
            let n = next.entry((g, s)).or_default();
            place.insert((g, s, *n), i);
            *n += 1;
        }
        let wanted: HashSet<i64> = at.iter().map(|p| p.0).collect();
        let reading = Reading { years: &[], players, tiles: true };
        let games = played::read(dataset, &reading, |_, g| wanted.contains(&g))?;
        let mut done = Tilting::default();
        for g in &games {
            // the seats among the positions whose player has coefficients
            let own = |s: u8| {
                next.contains_key(&(g.game_id, s)).then(|| self.players.get(g.names[usize::from(s)].as_str())).flatten()
            };
            for (s, d) in of_seats(g, |s| own(s).is_some()).iter().enumerate() {
                let Some(own) = own(s as u8) else { continue };
                let delta = Coefficients(std::array::from_fn(|i| own.coefficients.0[i] - everyone.coefficients.0[i]));
                for c in &d.choices {
                    let (cands, chosen) = (&d.candidates[c.start as usize..][..usize::from(c.len)], c.chosen);
                    let matched = place.get(&(g.game_id, s as u8, c.at)).copied();
                    let Some(i) = matched.filter(|&i| usize::from(at[i].2) == cands[usize::from(chosen)].kind()) else {
                        done.unmatched += 1;
                        continue;
                    };
                    let p = &mut probs[i];
                    for k in cands {
                        p[k.kind()] *= k.utility(&delta.0).exp() as f32;
                    }
                    let sum: f32 = p.iter().sum();
                    if sum > 0.0 {
                        p.iter_mut().for_each(|x| *x /= sum);
                    }
                    done.tilted += 1;
                }
            }
        }
        Ok(done)
    }
}
