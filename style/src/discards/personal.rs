//! The discard model as a personal model: each player's own coefficients against everyone's on the player's
//! unseen choices, judged over the players with enough of them.

use serde::Serialize;

use super::{DiscardModel, Discards};

/// A player's own coefficients against everyone's on the player's unseen choices: the discard model as a
/// personal model (issue 50), both scored on the same choices.
#[derive(Clone, Debug, Serialize)]
pub struct PersonalGain {
    pub player: String,
    /// The choices the player's coefficients were fitted on.
    pub profile_choices: u64,
    pub test_games: usize,
    pub test_choices: usize,
    /// Shares of the test choices whose most probable kind is the one discarded.
    pub own_top1: f64,
    pub everyone_top1: f64,
    /// `own_top1 - everyone_top1`, in points.
    pub gain_points: f64,
    /// The mean log-likelihood gain per test choice (nats).
    pub log_likelihood_gain: f64,
}

/// A group of judged players: how many gain, and by how much.
#[derive(Clone, Debug, Serialize)]
pub struct Gains {
    pub players: usize,
    /// Players whose own top-1 is above everyone's, their share and its 95% Wilson interval.
    pub better: usize,
    pub share_better: f64,
    pub share_better_interval: (f64, f64),
    /// The mean gain in points, and its 95% interval (Student's t over the players).
    pub mean_gain_points: f64,
    pub mean_gain_interval: (f64, f64),
    /// The mean over the players of the log-likelihood gain per choice.
    pub mean_log_likelihood_gain: f64,
    /// The fewest and the most profile choices of a player in the group.
    pub profile_choices: (u64, u64),
}

/// Every player's [`PersonalGain`], and the players with `min_test_games` unseen games or more together and by
/// thirds of their profile choices (the gain's growth with the player's data).
#[derive(Clone, Debug, Serialize)]
pub struct PersonalGains {
    pub min_test_games: usize,
    pub judged: Gains,
    pub thirds: Vec<Gains>,
    pub players: Vec<PersonalGain>,
}

/// The two-sided 95% quantile of Student's t with `df` degrees of freedom. With `x = sqrt(df) tan(a)` the
/// density becomes `cos(a)^(df - 1)` on `[0, pi/2)`: its integral is taken by Simpson's rule and the angle that
/// holds 95% of it found by bisection.
fn t95(df: usize) -> f64 {
    let (v, power) = (df.max(1) as f64, df.max(1) as i32 - 1);
    let integral = |to: f64| {
        let n = 2000;
        let h = to / f64::from(n);
        let f = |i: i32| (f64::from(i) * h).cos().powi(power);
        let inner: f64 = (1..n).map(|i| if i % 2 == 1 { 4.0 * f(i) } else { 2.0 * f(i) }).sum();
        h / 3.0 * (f(0) + inner + f(n))
    };
    let whole = integral(std::f64::consts::FRAC_PI_2);
    let (mut lo, mut hi) = (0.0, std::f64::consts::FRAC_PI_2);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if integral(mid) < 0.95 * whole {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    v.sqrt() * (0.5 * (lo + hi)).tan()
}

impl Gains {
    fn of(group: &[&PersonalGain]) -> Gains {
        let n = group.len();
        let better = group.iter().filter(|g| g.gain_points > 0.0).count();
        let mean = group.iter().map(|g| g.gain_points).sum::<f64>() / n.max(1) as f64;
        let var = group.iter().map(|g| (g.gain_points - mean).powi(2)).sum::<f64>() / n.saturating_sub(1).max(1) as f64;
        let half = if n > 1 { t95(n - 1) * (var / n as f64).sqrt() } else { f64::INFINITY };
        let choices = group.iter().map(|g| g.profile_choices);
        Gains {
            players: n,
            better,
            share_better: better as f64 / n.max(1) as f64,
            share_better_interval: crate::choice::wilson(crate::choice::Count {
                offered: n as u64,
                taken: better as u64,
            })
            .unwrap_or((0.0, 1.0)),
            mean_gain_points: mean,
            mean_gain_interval: (mean - half, mean + half),
            mean_log_likelihood_gain: group.iter().map(|g| g.log_likelihood_gain).sum::<f64>() / n.max(1) as f64,
            profile_choices: (choices.clone().min().unwrap_or(0), choices.max().unwrap_or(0)),
        }
    }
}

impl DiscardModel {
    /// Each profiled player's coefficients against everyone's on the player's unseen choices (`tested`: a
    /// player and the choices of each of the player's unseen games), judged over the players with
    /// `min_test_games` games or more.
    pub fn personal_gains<'a>(
        &self,
        tested: impl IntoIterator<Item = (&'a str, Vec<&'a Discards>)>,
        min_test_games: usize,
    ) -> Option<PersonalGains> {
        let everyone = &self.everyone.as_ref()?.coefficients;
        let mut players: Vec<PersonalGain> = tested
            .into_iter()
            .filter_map(|(p, games)| {
                let own = self.players.get(p)?;
                let choices: usize = games.iter().map(|d| d.len()).sum();
                if choices == 0 {
                    return None;
                }
                let n = choices as f64;
                let hits = |w| games.iter().map(|d| d.hits(w)).sum::<usize>() as f64 / n;
                let likelihood = |w| games.iter().map(|d| d.log_likelihood(w)).sum::<f64>();
                let (mine, all) = (hits(&own.coefficients), hits(everyone));
                Some(PersonalGain {
                    player: p.to_string(),
                    profile_choices: own.choices,
                    test_games: games.len(),
                    test_choices: choices,
                    own_top1: mine,
                    everyone_top1: all,
                    gain_points: 100.0 * (mine - all),
                    log_likelihood_gain: (likelihood(&own.coefficients) - likelihood(everyone)) / n,
                })
            })
            .collect();
        players.sort_by(|a, b| a.player.cmp(&b.player));
        let mut judged: Vec<&PersonalGain> = players.iter().filter(|g| g.test_games >= min_test_games).collect();
        judged.sort_by_key(|g| g.profile_choices);
        let third = judged.len().div_ceil(3).max(1);
        let thirds = judged.chunks(third).map(Gains::of).collect();
        Some(PersonalGains { min_test_games, judged: Gains::of(&judged), thirds, players })
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::Draw;
    use super::super::FEATURES;
    use super::*;

    #[test]
    fn t_quantiles_are_the_tables() {
        // two-sided 95% quantiles of Student's t, from the printed tables
        for (df, t) in [(1, 12.706), (3, 3.182), (5, 2.571), (10, 2.228), (30, 2.042), (100, 1.984)] {
            assert!((t95(df) - t).abs() < 1e-3, "{df}: {} against {t}", t95(df));
        }
    }

    /// A player whose choices follow other coefficients than everyone's gains on unseen choices from their own;
    /// players of everyone's kind gain nothing to speak of; only players with enough unseen games are judged.
    #[test]
    fn personal_gains_judge_players_on_their_unseen_choices() {
        let mut draw = Draw { state: 11 };
        let mut draw = |n: usize, w: &[f64; FEATURES]| draw.choices(n, 4, &[0, 1, 2, 3, 4, 5], false, w);
        let mut common = [0.0; FEATURES];
        common[..6].copy_from_slice(&[1.0, -1.0, 0.5, 0.0, -0.5, 0.3]);
        let mut odd = common;
        (odd[0], odd[1]) = (-1.0, 1.0);
        let (everyone, p, q) = (draw(20_000, &common), draw(3_000, &odd), draw(3_000, &common));
        let model = DiscardModel::fit(&[&everyone, &p], &[("p", vec![&p]), ("q", vec![&q])]);
        let (tp, tq) = (draw(2_000, &odd), draw(2_000, &common));
        let gains = model.personal_gains([("p", vec![&tp; 10]), ("q", vec![&tq; 10]), ("r", vec![&tq; 3])], 8).unwrap();
        // r has no coefficients of its own: not listed; p and q are judged
        assert_eq!(gains.players.len(), 2);
        assert_eq!(gains.judged.players, 2);
        let (gp, gq) = (&gains.players[0], &gains.players[1]);
        assert!(gp.gain_points > 5.0 && gp.log_likelihood_gain > 0.05, "{gp:?}");
        assert!(gq.gain_points.abs() < 2.0 && gq.log_likelihood_gain.abs() < 0.01, "{gq:?}");
        // a player with fewer unseen games than asked is listed but not judged
        let gains = model.personal_gains([("p", vec![&tp; 10]), ("q", vec![&tq; 3])], 8).unwrap();
        assert_eq!((gains.players.len(), gains.judged.players, gains.judged.better), (2, 1, 1));
    }
}
