//! The players' discard coefficients refitted over a network (issue 50's personal models): a player's choices
//! modelled as the network's log-probability of each candidate plus the candidate's utility under the player's
//! coefficients, so that the coefficients say only what the network does not already know of the player. The
//! network read at a profile position must not have trained on it (it would have learnt the player's choice
//! there and leave the coefficients nothing), so each profile seat is read by one of several networks, each
//! trained on a fold of the profile games, that did not train on its game (cross-fitting; `haifu train --fold`).
//! Everyone's refitted coefficients (what the fold networks miss of every player) are fitted on all the read
//! seats; each player's around them under the players' spread, estimated from the players as the discard
//! model's are ([`crate::newton::fit_players`]). On a test position the network tilted by the player's refitted
//! coefficients is judged against it tilted by everyone's: the global model the refit makes.

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};
use haifu_ingest::files::atomic_write;
use serde::{Deserialize, Serialize};

use super::fit::{curvature, Coefficients, DiscardModel, Fitted};
use super::personal::{judged_tilts, NetworkGains, NetworkSeat, TestSeat, Tilt, LOG_FLOOR};
use super::{feature_name, Discards, FEATURES, PRIOR_SD};
use crate::newton::{fit_players, most_probable, Posterior};

/// Precision of the weak prior everyone's refitted coefficients get (the discard model's everyone's).
const EVERYONE_PRECISION: f64 = 1.0;

/// The coefficients refitted over a network's readings: everyone's and each player's, as a model that tilts a
/// network by them whole ([`DiscardModel::over_network`]; `style accuracy --save-refit` writes it into the
/// database, [`REFIT_FILE`], for `review --db` and `mjai-bot --network-first`).
#[derive(Clone, Debug, Default)]
pub struct Refit {
    pub model: DiscardModel,
    /// What was fitted on: for the report.
    pub summary: Refitted,
}

/// The database's file of the refitted coefficients (`style accuracy --save-refit`), and of what they were
/// fitted over ([`Refitted`] with the runs).
pub const REFIT_FILE: &str = "discard_refit.parquet";
pub const REFIT_META: &str = "discard_refit.json";

/// What a refit read and found, as `style accuracy --cross-fit` reports it.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Refitted {
    /// The fold networks the profile seats were read by.
    pub networks: usize,
    /// Profile seats read by a network that did not train on their game, and fitted on.
    pub seats: usize,
    /// Their choices.
    pub choices: u64,
    /// Profile seats no network could read without having trained on their game: left out.
    pub unread_seats: usize,
    /// Profile seats whose choices did not match the network's positions: left out.
    pub misaligned_seats: usize,
    /// Each coefficient: everyone's refitted (what the fold networks miss of every player), and the players'
    /// spread around it.
    pub coefficients: Vec<RefitCoefficient>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RefitCoefficient {
    pub feature: String,
    pub everyone: f64,
    pub spread: f64,
}

/// What a database's refit was fitted over: [`REFIT_META`] beside [`REFIT_FILE`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RefitMeta {
    /// The global network it was judged with (`--network`): the one its coefficients were meant to tilt.
    pub network: String,
    /// The fold networks it was fitted over (`--cross-fit`).
    pub folds: Vec<String>,
    pub refitted: Refitted,
}

impl Refit {
    /// Writes the refit into the database's folder `db` ([`REFIT_FILE`], [`REFIT_META`]), each file whole or not
    /// at all ([`haifu_ingest::files::atomic_write`], as every table is written); the coefficients last, so that
    /// a reader finding them finds what they were fitted over. A database built again drops both (`style build`
    /// replaces the folder whole).
    pub fn save(&self, db: &Path, all_scope: &str, network: &Path, folds: &[&Path]) -> Result<()> {
        // where the runs are, as a later reader in another folder finds them
        let named = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf()).display().to_string();
        let meta = RefitMeta {
            network: named(network),
            folds: folds.iter().map(|f| named(f)).collect(),
            refitted: self.summary.clone(),
        };
        let text = serde_json::to_string_pretty(&meta)?;
        atomic_write(&db.join(REFIT_META), |mut f| Ok(f.write_all(text.as_bytes())?))?;
        self.model.write(&db.join(REFIT_FILE), all_scope)
    }

    /// The refit a database holds (`None` where it holds none), as a model that tilts a network whole.
    pub fn read(db: &Path, all_scope: &str) -> Result<Option<(DiscardModel, RefitMeta)>> {
        let path = db.join(REFIT_FILE);
        if !path.exists() {
            return Ok(None);
        }
        let meta_path = db.join(REFIT_META);
        let text = std::fs::read_to_string(&meta_path)
            .with_context(|| format!("{} has no {REFIT_META} beside it (save the refit again)", path.display()))?;
        let meta: RefitMeta = serde_json::from_str(&text).with_context(|| meta_path.display().to_string())?;
        let mut model = DiscardModel::read(&path, all_scope)?;
        if model.everyone.is_none() {
            bail!("{}: no {all_scope} row", path.display());
        }
        model.over_network = true;
        Ok(Some((model, meta)))
    }
}

/// A seat's choices with each candidate's offset ([`offsets`]).
type Offsetted<'a> = (&'a Discards, Vec<f64>);

/// Each candidate's offset at the seat's choices: the network's log-probability of its kind at the choice's
/// position; `None` where a choice has no position or another kind was discarded there.
pub fn offsets(d: &Discards, reading: &NetworkSeat) -> Option<Vec<f64>> {
    let mut out = Vec::with_capacity(d.candidates.len());
    for c in &d.choices {
        let (log_probs, label) = reading.get(usize::from(c.at))?;
        let cands = &d.candidates[c.start as usize..][..usize::from(c.len)];
        if cands[usize::from(c.chosen)].kind() != usize::from(*label) || out.len() != c.start as usize {
            return None;
        }
        out.extend(cands.iter().map(|k| f64::from(log_probs[k.kind()]).max(LOG_FLOOR)));
    }
    Some(out)
}

impl DiscardModel {
    /// The log-likelihood of a seat's choices (the kinds and the copies) under the network's `reading`, each
    /// candidate offset by the network's log-probability of its kind and tilted by each of `players'`
    /// coefficients (everyone's for a player without), in their order: a refit's ([`DiscardModel::over_network`]).
    /// `None` where the reading does not match the choices; the positions without a choice add the same to every
    /// player and are left out.
    pub fn log_likelihoods_over(&self, d: &Discards, reading: &NetworkSeat, players: &[&str]) -> Option<Vec<f64>> {
        let offsets = offsets(d, reading)?;
        players.iter().map(|p| Some(d.tile_log_likelihood_over(self.of(p)?, &offsets))).collect()
    }
}

impl Refit {
    /// Refits everyone's and each player's coefficients over their profile seats as read (`players`: a player and
    /// each seat's choices with a network's reading of them by a network that did not train on the game;
    /// `unread_seats`: the seats none could read, counted).
    pub fn fit(players: &[(&str, Vec<(&Discards, &NetworkSeat)>)], networks: usize, unread_seats: usize) -> Refit {
        let mut misaligned_seats = 0;
        let seats: Vec<(&str, Vec<Offsetted>)> = players
            .iter()
            .map(|(p, seats)| {
                let read: Vec<Offsetted> = seats.iter().filter_map(|&(d, r)| offsets(d, r).map(|o| (d, o))).collect();
                misaligned_seats += seats.len() - read.len();
                (*p, read)
            })
            .collect();
        let all: Vec<(&Discards, &[f64])> =
            seats.iter().flat_map(|(_, s)| s).map(|(d, o)| (*d, o.as_slice())).collect();
        let weak = [EVERYONE_PRECISION; FEATURES];
        let everyone = most_probable(&[0.0; FEATURES], &weak, &[0.0; FEATURES], |w| curvature(&all, w));
        let (spread, fits) = fit_players(&everyone.mean, PRIOR_SD, &seats, |(_, s), w| curvature(s, w));
        let array = |v: &[f64]| <[f64; FEATURES]>::try_from(v).expect("a coefficient a feature");
        let fitted = |p: Posterior, prior_sd: &[f64], choices: u64| Fitted {
            coefficients: Coefficients(array(&p.mean)),
            sd: array(&p.sd),
            prior_sd: array(prior_sd),
            choices,
        };
        let summary = Refitted {
            networks,
            seats: all.len(),
            choices: all.iter().map(|(d, _)| d.len() as u64).sum(),
            unread_seats,
            misaligned_seats,
            coefficients: (0..FEATURES)
                .map(|i| RefitCoefficient { feature: feature_name(i), everyone: everyone.mean[i], spread: spread[i] })
                .collect(),
        };
        let choices = |s: &[Offsetted]| s.iter().map(|(d, _)| d.len() as u64).sum();
        let players =
            seats.iter().zip(fits).map(|((p, s), f)| (p.to_string(), fitted(f, &spread, choices(s)))).collect();
        let everyone = fitted(everyone, &weak.map(|p| 1.0 / p.sqrt()), summary.choices);
        Refit { model: DiscardModel { everyone: Some(everyone), players, over_network: true }, summary }
    }

    /// The log-likelihood of a seat's choices under the network's `reading` tilted by each of `players`'
    /// refitted coefficients (everyone's refitted for a player without), in their order; `None` where the
    /// reading does not match the choices. The positions without a choice add the same to every player and are
    /// left out.
    pub fn log_likelihoods(&self, d: &Discards, reading: &NetworkSeat, players: &[&str]) -> Option<Vec<f64>> {
        self.model.log_likelihoods_over(d, reading, players)
    }

    /// On the players' unseen positions, the global network tilted by each player's refitted coefficients
    /// against it tilted by everyone's refitted ones (the personal part), and tilted by everyone's against it
    /// as it is (what the refit adds for every player), judged as [`super::DiscardModel::network_gains`] judges
    /// the database's coefficients.
    pub fn network_gains<'a>(
        &self,
        tested: &[(&'a str, Vec<TestSeat<'a>>)],
        min_test_games: usize,
    ) -> [NetworkGains; 2] {
        let everyone = self.model.everyone.as_ref().map(|e| &e.coefficients);
        let judged = |tilt| {
            let delta = |p: &str| {
                let (own, everyone) = (self.model.players.get(p)?, everyone?.clone());
                Some((
                    own.choices,
                    if tilt == Tilt::Refitted {
                        [everyone, own.coefficients.clone()]
                    } else {
                        [Coefficients::default(), everyone]
                    },
                ))
            };
            let mut gains = judged_tilts(tested.iter().cloned(), delta, false, tilt, min_test_games);
            gains.refit = Some(self.summary.clone());
            gains
        };
        [judged(Tilt::Refitted), judged(Tilt::EveryoneRefitted)]
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{common_and_odd, Draw};
    use super::super::DiscardModel;
    use super::*;

    /// A network's reading of a seat whose candidates it scores with coefficients `w`.
    fn reading(d: &Discards, w: &[f64; FEATURES]) -> Vec<([f32; 34], u8)> {
        d.each()
            .map(|(cands, chosen)| {
                let u: Vec<f64> = cands.iter().map(|c| c.utility(w)).collect();
                let z = super::super::log_sum_exp(&u);
                let mut lp = [-1e9f32; 34];
                cands.iter().zip(&u).for_each(|(c, x)| lp[c.kind()] = (x - z) as f32);
                (lp, cands[chosen].kind() as u8)
            })
            .collect()
    }

    /// Refitted over a network that knows only everyone's coefficients, a player who differs keeps the
    /// difference and one who does not gets none; over a network that knows the player already, the refit
    /// leaves the player nothing, where the database's coefficients (fitted without the network) still differ.
    #[test]
    fn a_refit_holds_only_what_the_network_misses_of_the_player() {
        let mut draw = Draw { state: 3 };
        let mut draw = |n: usize, w: &[f64; FEATURES]| draw.population(n, w);
        let (common, odd) = common_and_odd(0.5);
        let (p, q) = (draw(4_000, &odd), draw(4_000, &common));
        let database = DiscardModel::fit(&[&draw(20_000, &common), &p], &[("p", vec![&p]), ("q", vec![&q])]);
        let dp = database.difference("p").unwrap();
        assert!(dp.0[0] < -1.4 && dp.0[1] > 1.4, "{dp:?}");

        let (np, nq) = (reading(&p, &common), reading(&q, &common));
        let refit = Refit::fit(&[("p", vec![(&p, np.as_slice())]), ("q", vec![(&q, nq.as_slice())])], 2, 3);
        let (rp, rq) = (refit.model.difference("p").unwrap(), refit.model.difference("q").unwrap());
        // the network misses p's difference from q: the refit holds it, and nothing else (everyone's refitted,
        // of the two players pooled, lies between them)
        let apart: Vec<f64> = (0..FEATURES).map(|i| rp.0[i] - rq.0[i]).collect();
        assert!(apart[0] < -1.5 && apart[1] > 1.5, "{apart:?}");
        assert!(apart[2..].iter().all(|x| x.abs() < 0.2), "{apart:?}");
        assert_eq!((refit.summary.seats, refit.summary.choices, refit.summary.unread_seats), (2, 8_000, 3));
        assert_eq!((refit.summary.networks, refit.summary.misaligned_seats), (2, 0));
        // what tilts a network: the refit's coefficients whole (everyone's for a player it does not know), the
        // database's less everyone's (nothing for a player it does not know)
        let everyone = refit.model.everyone.as_ref().unwrap().coefficients.clone();
        assert_eq!(refit.model.tilt_of("p").as_ref(), Some(&refit.model.players["p"].coefficients));
        assert_eq!((refit.model.tilt_of("nobody"), database.tilt_of("nobody")), (Some(everyone), None));
        assert_eq!(database.tilt_of("p"), Some(dp));
        // saved into a database's folder and read back: the same model, tilting whole, with what it read
        let dir = std::env::temp_dir().join(format!("haifu-refit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(Refit::read(&dir, "ALL").unwrap().is_none());
        refit.save(&dir, "ALL", Path::new("global"), &[Path::new("f1"), Path::new("f2")]).unwrap();
        let (back, meta) = Refit::read(&dir, "ALL").unwrap().unwrap();
        assert!(back.over_network);
        assert_eq!((back.everyone, back.players), (refit.model.everyone.clone(), refit.model.players.clone()));
        assert_eq!((meta.folds.len(), meta.refitted.seats), (2, 2));
        // only what was written is there: no file under another name left behind
        let mut names: Vec<String> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        assert_eq!(names, [REFIT_META, REFIT_FILE]);
        let _ = std::fs::remove_dir_all(&dir);

        // a network that reads p as p plays: nothing left for p's coefficients to add
        let knows = reading(&p, &odd);
        let refit = Refit::fit(&[("p", vec![(&p, knows.as_slice())]), ("q", vec![(&q, nq.as_slice())])], 2, 0);
        for p in ["p", "q"] {
            let r = refit.model.difference(p).unwrap();
            assert!(r.0.iter().all(|x| x.abs() < 0.2), "{p}: {r:?}");
        }
    }

    /// Over a network that misses one coefficient every player shares, everyone's refit names the players'
    /// unseen discards better for both players (a global correction), and each player's own refit, judged
    /// against it, gains only for the player who differs.
    #[test]
    fn everyones_refit_is_judged_apart_from_the_players_own() {
        let mut draw = Draw { state: 21 };
        let mut draw = |n: usize, w: &[f64; FEATURES]| draw.population(n, w);
        let (common, odd) = common_and_odd(1.5);
        let mut blind = common;
        blind[2] = 0.0;
        // p differs; q and two others play as everyone
        let profiles = [draw(4_000, &odd), draw(4_000, &common), draw(4_000, &common), draw(4_000, &common)];
        let read: Vec<_> = profiles.iter().map(|d| reading(d, &blind)).collect();
        let seats: Vec<(&str, Vec<(&Discards, &NetworkSeat)>)> = ["p", "q", "r", "s"]
            .into_iter()
            .zip(profiles.iter().zip(&read))
            .map(|(n, (d, r))| (n, vec![(d, r.as_slice())]))
            .collect();
        let refit = Refit::fit(&seats, 2, 0);
        let (tp, tq) = (draw(3_000, &odd), draw(3_000, &common));
        let (rp, rq) = (reading(&tp, &blind), reading(&tq, &blind));
        let tested = [("p", vec![(&tp, [rp.as_slice(); 2])]), ("q", vec![(&tq, [rq.as_slice(); 2])])];
        let [personal, global] = refit.network_gains(&tested, 1);
        assert_eq!((personal.tilt, global.tilt), (Tilt::Refitted, Tilt::EveryoneRefitted));
        let gain = |g: &NetworkGains, i: usize| g.gains.players[i].log_likelihood_gain;
        assert!(gain(&global, 0) > 0.08 && gain(&global, 1) > 0.08, "{:?}", global.gains.players);
        // q gains against the network, not against everyone's refit
        assert!(gain(&personal, 0) > 0.1 && gain(&personal, 1).abs() < 0.05, "{:?}", personal.gains.players);
        assert!(personal.gains.players[0].gain_points > 3.0, "{:?}", personal.gains.players[0]);
        // each unseen seat is most probable under its own player's refit (a player without one: everyone's)
        let ll = |d, r| refit.log_likelihoods(d, r, &["p", "q", "nobody"]).unwrap();
        let (lp, lq) = (ll(&tp, rp.as_slice()), ll(&tq, rq.as_slice()));
        assert!(lp[0] > lp[1] + 100.0 && lp[0] > lp[2] + 100.0, "{lp:?}");
        assert!(lq[1] > lq[0] + 100.0, "{lq:?}");
        assert!(refit.log_likelihoods(&tp, &rp[1..], &["p"]).is_none());
    }

    /// A seat whose reading names another kind discarded, or has fewer positions than its choices, is left out
    /// and counted.
    #[test]
    fn a_reading_of_other_positions_is_left_out() {
        let mut draw = Draw { state: 9 };
        let w = [0.0; FEATURES];
        let p = draw.choices(50, 4, &[0, 1], false, &w);
        let right = reading(&p, &w);
        let mut wrong = right.clone();
        wrong[7].1 = (wrong[7].1 + 1) % 4;
        assert_eq!(offsets(&p, &right).map(|o| o.len()), Some(200));
        assert!(offsets(&p, &wrong).is_none() && offsets(&p, &right[..49]).is_none());
        let refit = Refit::fit(&[("p", vec![(&p, right.as_slice()), (&p, wrong.as_slice())])], 2, 0);
        assert_eq!((refit.summary.seats, refit.summary.misaligned_seats), (1, 1));
    }
}
