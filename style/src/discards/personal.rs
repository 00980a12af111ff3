//! The discard model as a personal model, judged over the players with enough unseen games: each player's own
//! coefficients against everyone's on the player's unseen choices, and a global network tilted by the player's
//! coefficients (less everyone's) against the network itself on the player's unseen positions.

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

use super::refit::Refitted;
use super::{first_best, log_sum_exp, Coefficients, DiscardModel, Discards};

/// A player's own coefficients against everyone's on the player's unseen choices: the discard model as a
/// personal model (issue 50), both scored on the same choices.
#[derive(Clone, Debug, Serialize)]
pub struct PersonalGain {
    pub player: String,
    /// The choices the player's coefficients were fitted on.
    pub profile_choices: u64,
    pub test_games: usize,
    pub test_choices: usize,
    /// Shares of the test choices whose most probable kind is the one discarded: by the personal model, and by
    /// everyone's (everyone's coefficients; for a network, the global network as it is).
    pub own_top1: f64,
    pub everyone_top1: f64,
    /// `own_top1 - everyone_top1`, in points.
    pub gain_points: f64,
    /// The gain's standard error from the paired test decisions (points): how far the test data alone moves it.
    pub gain_se: f64,
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
    /// The share of the players expected to show a gain if every one of them truly gained the mean: the mean over
    /// the players of P(N(mean, gain_se) > 0). Below 1 by the noise of each player's test decisions alone, it is
    /// the most that [`Gains::share_better`] could show at this mean with these test data.
    pub share_better_at_mean: f64,
    /// The mean gain in points, and its 95% interval (Student's t over the players).
    pub mean_gain_points: f64,
    pub mean_gain_interval: (f64, f64),
    /// The mean over the players of the log-likelihood gain per choice.
    pub mean_log_likelihood_gain: f64,
    /// The fewest and the most profile choices of a player in the group.
    pub profile_choices: (u64, u64),
}

/// Every player's [`PersonalGain`], and the players with `min_test_games` unseen games or more together, by
/// thirds of their profile choices, and the line of their gains on the profile choices' doublings (the gain's
/// growth with the player's data).
#[derive(Clone, Debug, Serialize)]
pub struct PersonalGains {
    pub min_test_games: usize,
    pub judged: Gains,
    pub thirds: Vec<Gains>,
    /// `None` with fewer than three judged players, or all of one profile size.
    pub growth: Option<Growth>,
    pub players: Vec<PersonalGain>,
}

/// The least-squares line of the judged players' gains (points) on log2 of their profile choices: how much a
/// player's gain grows each time the player's data doubles, as far as these players say.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Growth {
    /// Points of gain a doubling of the profile choices, its 95% interval (Student's t with n - 2 degrees of
    /// freedom) and the two-sided p-value of no growth.
    pub points_per_doubling: f64,
    pub interval: (f64, f64),
    pub p_value: f64,
    /// The line's gain at the judged players' median profile choices.
    pub at_median: f64,
}

impl Growth {
    fn of(group: &[&PersonalGain]) -> Option<Growth> {
        let n = group.len();
        let xs: Vec<f64> = group.iter().map(|g| (g.profile_choices.max(1) as f64).log2()).collect();
        let ys: Vec<f64> = group.iter().map(|g| g.gain_points).collect();
        let (mx, my) = (xs.iter().sum::<f64>() / n as f64, ys.iter().sum::<f64>() / n as f64);
        let sxx: f64 = xs.iter().map(|x| (x - mx).powi(2)).sum();
        if n < 3 || sxx <= 0.0 {
            return None;
        }
        let slope = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum::<f64>() / sxx;
        let residual: f64 = xs.iter().zip(&ys).map(|(x, y)| (y - my - slope * (x - mx)).powi(2)).sum();
        let se = (residual / (n - 2) as f64 / sxx).sqrt();
        let p_value = match StudentsT::new(0.0, 1.0, (n - 2) as f64) {
            Ok(t) if se > 0.0 => 2.0 * (1.0 - t.cdf((slope / se).abs())),
            _ => f64::from(u8::from(slope == 0.0)),
        };
        let half = t95(n - 2) * se;
        let mut sorted = xs.clone();
        sorted.sort_by(f64::total_cmp);
        let median = (sorted[(n - 1) / 2] + sorted[n / 2]) / 2.0;
        Some(Growth {
            points_per_doubling: slope,
            interval: (slope - half, slope + half),
            p_value,
            at_median: my + slope * (median - mx),
        })
    }
}

/// The two-sided 95% quantile of Student's t with `df` degrees of freedom.
fn t95(df: usize) -> f64 {
    StudentsT::new(0.0, 1.0, df.max(1) as f64).map_or(f64::INFINITY, |t| t.inverse_cdf(0.975))
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
            share_better_at_mean: group
                .iter()
                .map(|g| match Normal::new(mean, g.gain_se) {
                    Ok(d) => 1.0 - d.cdf(0.0),
                    Err(_) => f64::from(u8::from(mean > 0.0)),
                })
                .sum::<f64>()
                / n.max(1) as f64,
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
        let players: Vec<PersonalGain> = tested
            .into_iter()
            .filter_map(|(p, games)| {
                let own = self.players.get(p)?;
                let choices: usize = games.iter().map(|d| d.len()).sum();
                if choices == 0 {
                    return None;
                }
                let mut paired = Paired::default();
                games.iter().for_each(|d| d.paired(&own.coefficients, everyone, &mut paired));
                let likelihood = |w| games.iter().map(|d| d.log_likelihood(w)).sum::<f64>();
                let log_likelihood_gain = (likelihood(&own.coefficients) - likelihood(everyone)) / choices as f64;
                Some(paired.gain(p, own.choices, games.len(), log_likelihood_gain))
            })
            .collect();
        Some(PersonalGains::judge(players, min_test_games))
    }

    /// A network tilted by each profiled player's coefficients less everyone's, against the global network as
    /// it is, on the player's unseen positions (`tested`: a player and, for each unseen game, the seat's choices,
    /// the global network's reading of the seat and the reading the tilt is added to: the same, or the network
    /// with the player's own vector; [`NetworkSeat`]). Where the model has a choice, both are read over its
    /// candidates, the tilted one plus the candidate's utility under the difference; at the positions it has none
    /// (after a chi or pon) each is its reading. A seat whose choices or readings do not match is left out and
    /// counted.
    pub fn network_gains<'a>(
        &self,
        tested: impl IntoIterator<Item = (&'a str, Vec<TestSeat<'a>>)>,
        vectors: bool,
        min_test_games: usize,
    ) -> Option<NetworkGains> {
        self.everyone.as_ref()?;
        let delta = |p: &str| Some((self.players.get(p)?.choices, [Coefficients::default(), self.difference(p)?]));
        Some(judged_tilts(tested, delta, vectors, Tilt::Database, min_test_games))
    }
}

/// The network tilted by each player's `delta` (the player's profile choices, and the coefficients to tilt the
/// network judged against and the personal model's reading by; none: the player is not judged), on the player's
/// unseen positions ([`DiscardModel::network_gains`]).
pub(super) fn judged_tilts<'a>(
    tested: impl IntoIterator<Item = (&'a str, Vec<TestSeat<'a>>)>,
    delta: impl Fn(&str) -> Option<(u64, [Coefficients; 2])>,
    vectors: bool,
    tilt: Tilt,
    min_test_games: usize,
) -> NetworkGains {
    let (mut misaligned_seats, mut positions, mut covered) = (0, 0, 0);
    let mut players = Vec::new();
    for (p, seats) in tested {
        let Some((profile_choices, delta)) = delta(p) else { continue };
        let mut sum = Tilted::default();
        let mut games = 0;
        for (d, [global, base]) in seats {
            match d.tilted(global, base, &delta) {
                Some(t) => {
                    sum.add(&t);
                    games += 1;
                }
                None => misaligned_seats += 1,
            }
        }
        if sum.hits.decisions == 0 {
            continue;
        }
        if games >= min_test_games {
            (positions, covered) = (positions + sum.hits.decisions, covered + sum.covered);
        }
        let log_likelihood_gain = sum.log_likelihood_gain / sum.hits.decisions as f64;
        players.push(sum.hits.gain(p, profile_choices, games, log_likelihood_gain));
    }
    NetworkGains {
        vectors,
        tilt,
        refit: None,
        covered: covered as f64 / positions.max(1) as f64,
        misaligned_seats,
        gains: PersonalGains::judge(players, min_test_games),
    }
}

impl PersonalGains {
    /// Every player's gain, and the players with `min_test_games` unseen games or more together and by thirds of
    /// their profile choices.
    pub(crate) fn judge(mut players: Vec<PersonalGain>, min_test_games: usize) -> PersonalGains {
        players.sort_by(|a, b| a.player.cmp(&b.player));
        let mut judged: Vec<&PersonalGain> = players.iter().filter(|g| g.test_games >= min_test_games).collect();
        judged.sort_by_key(|g| g.profile_choices);
        let third = judged.len().div_ceil(3).max(1);
        let thirds = judged.chunks(third).map(Gains::of).collect();
        let growth = Growth::of(&judged);
        PersonalGains { min_test_games, judged: Gains::of(&judged), thirds, growth, players }
    }
}

/// A global network's reading of one seat's chosen discards of a game, in order (the positions `haifu train`
/// cuts: every discard but those after the seat's riichi): each one's log-probabilities over the 34 kinds (an
/// illegal kind -1e9 or below) and the kind discarded.
pub type NetworkSeat = [([f32; 34], u8)];

/// A test seat's choices with the global network's reading of it and the reading a tilt is added to (the same,
/// or the network with the player's own vector).
pub type TestSeat<'a> = (&'a Discards, [&'a NetworkSeat; 2]);

/// Each seat's [`NetworkSeat`], by (game id, seat).
pub type NetworkSeats = std::collections::HashMap<(i64, u8), Vec<([f32; 34], u8)>>;

/// The network as it is and tilted by a personal model ([`DiscardModel::network_gains`]), for a personal model
/// that is a network's output plus each player's coefficients.
#[derive(Clone, Debug, Serialize)]
pub struct NetworkGains {
    /// Whether the tilt is added to the network with each player's own vector (a `--player-vectors` run, judged
    /// against its row for everyone), not to the global network itself.
    pub vectors: bool,
    /// Which coefficients tilt the network, and what it is judged against.
    pub tilt: Tilt,
    /// Where the coefficients tilted by are refitted over cross-fitted networks ([`super::refit`]), not the
    /// database's: what the refit read and found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refit: Option<Refitted>,
    /// The share of the judged players' test positions the discard model has a choice at (at the others the
    /// tilted network is the network).
    pub covered: f64,
    /// Test seats whose choices did not match the network's positions, left out (0 unless the dataset and the
    /// network's positions disagree).
    pub misaligned_seats: usize,
    pub gains: PersonalGains,
}

/// Which coefficients tilt a network, and against what it is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tilt {
    /// The database's: each player's coefficients less everyone's, against the network as it is.
    Database,
    /// Refitted over cross-fitted networks: each player's refitted coefficients, against the network tilted by
    /// everyone's refitted ones (the best global model of the two).
    Refitted,
    /// Everyone's refitted coefficients, the same for every player, against the network as it is: what the 41
    /// features fitted over the network add for everyone (no personal model).
    EveryoneRefitted,
}

impl NetworkGains {
    /// The model judged, in words.
    pub fn model(&self) -> &'static str {
        match (self.tilt, self.vectors) {
            (Tilt::Refitted, _) => {
                "the global network tilted by each player's discard coefficients refitted over cross-fitted networks"
            }
            (Tilt::EveryoneRefitted, _) => {
                "the global network tilted by everyone's discard coefficients refitted over cross-fitted networks \
                 (the same for every player)"
            }
            (Tilt::Database, false) => {
                "the global network tilted by each player's discard coefficients less everyone's"
            }
            (Tilt::Database, true) => {
                "the network with each player's own vector tilted by the player's discard coefficients less \
                     everyone's"
            }
        }
    }

    /// What it is judged against, in words.
    pub fn against(&self) -> &'static str {
        match (self.tilt, self.vectors) {
            (Tilt::Refitted, _) => "the network tilted by everyone's refitted coefficients",
            (_, false) => "the network as it is",
            (_, true) => "its row for everyone",
        }
    }
}

/// Below this log-probability a candidate counts as this (a network's probability of a held kind underflowing
/// to 0 leaves a finite log-likelihood).
pub(super) const LOG_FLOOR: f64 = -50.0;

/// The first choices of a personal model and of everyone's on the same decisions: how many each got right, and
/// how many only one of them did.
#[derive(Clone, Copy, Default)]
pub(crate) struct Paired {
    pub(crate) decisions: usize,
    own: usize,
    everyone: usize,
    own_only: usize,
    everyone_only: usize,
}

impl Paired {
    fn count(&mut self, own: bool, everyone: bool) {
        self.count_n(own, everyone, 1);
    }

    /// Counts `n` decisions that the personal model names rightly where `own`, everyone's where `everyone`.
    pub(crate) fn count_n(&mut self, own: bool, everyone: bool, n: usize) {
        self.decisions += n;
        self.own += n * usize::from(own);
        self.everyone += n * usize::from(everyone);
        self.own_only += n * usize::from(own && !everyone);
        self.everyone_only += n * usize::from(everyone && !own);
    }

    fn add(&mut self, o: &Paired) {
        self.decisions += o.decisions;
        self.own += o.own;
        self.everyone += o.everyone;
        self.own_only += o.own_only;
        self.everyone_only += o.everyone_only;
    }

    /// The player's gain: the difference of the top-1s and its standard error over the paired decisions (each
    /// one +1, -1 or 0).
    pub(crate) fn gain(
        &self,
        player: &str,
        profile_choices: u64,
        test_games: usize,
        log_likelihood_gain: f64,
    ) -> PersonalGain {
        let n = self.decisions.max(1) as f64;
        let mean = (self.own as f64 - self.everyone as f64) / n;
        let second = (self.own_only + self.everyone_only) as f64 / n;
        PersonalGain {
            player: player.to_string(),
            profile_choices,
            test_games,
            test_choices: self.decisions,
            own_top1: self.own as f64 / n,
            everyone_top1: self.everyone as f64 / n,
            gain_points: 100.0 * mean,
            gain_se: 100.0 * ((second - mean * mean).max(0.0) / n).sqrt(),
            log_likelihood_gain,
        }
    }
}

/// One seat's (or several seats') positions: the network's first choices, as it is (everyone's) and tilted (the
/// player's own), how many the model had a choice at, and the log-likelihood the tilt adds.
#[derive(Default)]
struct Tilted {
    hits: Paired,
    covered: usize,
    log_likelihood_gain: f64,
}

impl Tilted {
    fn add(&mut self, o: &Tilted) {
        self.hits.add(&o.hits);
        self.covered += o.covered;
        self.log_likelihood_gain += o.log_likelihood_gain;
    }
}

impl Discards {
    /// Counts each choice's first choice under `own` and under `everyone` (ties: the first candidate).
    fn paired(&self, own: &Coefficients, everyone: &Coefficients, into: &mut Paired) {
        for (cands, chosen) in self.each() {
            let first = |w: &Coefficients| first_best(cands.iter().map(|c| c.utility(&w.0))) == chosen;
            into.count(first(own), first(everyone));
        }
    }

    /// The seat's positions under the global network (`net`, in order) tilted by `against` (zero: as it is), and
    /// under `base` (the same positions) tilted by `own`, where a choice of the seat matches the position; `None`
    /// where one does not (past the positions, another kind discarded) or the two readings differ in their
    /// positions.
    fn tilted(&self, net: &NetworkSeat, base: &NetworkSeat, [against, own]: &[Coefficients; 2]) -> Option<Tilted> {
        if base.len() != net.len() || base.iter().zip(net).any(|(a, b)| a.1 != b.1) {
            return None;
        }
        let mut t = Tilted::default();
        let mut covered = vec![false; net.len()];
        let (mut global, mut tilted) = (Vec::new(), Vec::new());
        let floored = |x: f32| f64::from(x).max(LOG_FLOOR);
        for c in &self.choices {
            let at = usize::from(c.at);
            let (log_probs, label) = net.get(at)?;
            let (cands, chosen) = (&self.candidates[c.start as usize..][..usize::from(c.len)], usize::from(c.chosen));
            if cands[chosen].kind() != usize::from(*label) || covered[at] {
                return None;
            }
            covered[at] = true;
            global.clear();
            global.extend(cands.iter().map(|k| floored(log_probs[k.kind()]) + k.utility(&against.0)));
            tilted.clear();
            tilted.extend(cands.iter().map(|k| floored(base[at].0[k.kind()]) + k.utility(&own.0)));
            t.covered += 1;
            t.hits.count(first_best(tilted.iter().copied()) == chosen, first_best(global.iter().copied()) == chosen);
            t.log_likelihood_gain += (tilted[chosen] - log_sum_exp(&tilted)) - (global[chosen] - log_sum_exp(&global));
        }
        let first = |lp: &[f32; 34], label: u8| first_best(lp.iter().map(|&x| f64::from(x))) == usize::from(label);
        for ((g, label), (b, _)) in net.iter().zip(base).zip(&covered).filter(|(_, &c)| !c).map(|(n, _)| n) {
            t.hits.count(first(b, *label), first(g, *label));
        }
        Some(t)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{common_and_odd, Draw};
    use super::super::FEATURES;
    use super::*;

    /// The growth line against a hand computation: five players of 1,000 to 16,000 profile choices (log2 about
    /// 9.97 to 13.97, a doubling apart) whose gains are 0.1, 0.4, 0.2, 0.9, 0.6 points. With x = 0..4 doublings
    /// above the first: slope = sum((x - 2)(y - 0.44)) / 10 = (-2 * -0.34 - 1 * -0.04 + 0 + 1 * 0.46 + 2 * 0.16)
    /// / 10 = 0.15; residuals -0.04, 0.11, -0.24, 0.31, -0.14, squares summing to 0.187, se = sqrt(0.187 / 3 /
    /// 10) = 0.07895; t(3) 3.182 gives +-0.2512; at the median (x = 2) the line is 0.44. (scipy's linregress of the
    /// same: slope 0.15, stderr 0.07895, p 0.1536.)
    #[test]
    fn the_growth_line_is_the_hand_computed_one() {
        let gain = |choices: u64, gain_points: f64| PersonalGain {
            player: String::new(),
            profile_choices: choices,
            test_games: 10,
            test_choices: 500,
            own_top1: 0.5,
            everyone_top1: 0.5,
            gain_points,
            gain_se: 0.5,
            log_likelihood_gain: 0.0,
        };
        let g: Vec<PersonalGain> =
            [(1000, 0.1), (2000, 0.4), (4000, 0.2), (8000, 0.9), (16000, 0.6)].map(|(c, y)| gain(c, y)).to_vec();
        let growth = Growth::of(&g.iter().collect::<Vec<_>>()).unwrap();
        assert!((growth.points_per_doubling - 0.15).abs() < 1e-9, "{growth:?}");
        let half = growth.interval.1 - growth.points_per_doubling;
        assert!((half - 3.182 * 0.07895).abs() < 1e-3, "{growth:?}");
        assert!((growth.at_median - 0.44).abs() < 1e-9);
        assert!((growth.p_value - 0.1536).abs() < 1e-3, "{growth:?}");
        // too few players, or one profile size: no line
        assert!(Growth::of(&g.iter().take(2).collect::<Vec<_>>()).is_none());
        let same: Vec<PersonalGain> = (0..4).map(|i| gain(3000, f64::from(i))).collect();
        assert!(Growth::of(&same.iter().collect::<Vec<_>>()).is_none());
    }

    #[test]
    fn t_quantiles_are_the_tables() {
        // two-sided 95% quantiles of Student's t, from the printed tables
        for (df, t) in [(1, 12.706), (3, 3.182), (5, 2.571), (10, 2.228), (30, 2.042), (100, 1.984)] {
            assert!((t95(df) - t).abs() < 1e-3, "{df}: {} against {t}", t95(df));
        }
    }

    /// A model fitted on everyone's choices and two players' (`p`'s drawn from other coefficients than everyone's,
    /// `q`'s from everyone's), with 2,000 unseen choices of each.
    fn two_players(seed: u64) -> (DiscardModel, Discards, Discards) {
        let mut draw = Draw { state: seed };
        let mut draw = |n: usize, w: &[f64; FEATURES]| draw.population(n, w);
        let (common, odd) = common_and_odd(0.5);
        let (everyone, p, q) = (draw(20_000, &common), draw(3_000, &odd), draw(3_000, &common));
        let model = DiscardModel::fit(&[&everyone, &p], &[("p", vec![&p]), ("q", vec![&q])]);
        (model, draw(2_000, &odd), draw(2_000, &common))
    }

    /// A gain's standard error is the sample one of the paired differences (+1 where only the personal model is
    /// right, -1 where only everyone's is, 0 elsewhere); a group's share expected at its mean follows the normal.
    #[test]
    fn gains_carry_the_standard_error_of_paired_decisions() {
        let mut paired = Paired::default();
        let outcomes = [(true, false); 12].into_iter().chain([(false, true); 4]).chain([(true, true); 50]);
        outcomes.chain([(false, false); 34]).for_each(|(a, b)| paired.count(a, b));
        let g = paired.gain("p", 10, 3, 0.0);
        let d: Vec<f64> = [1.0; 12].into_iter().chain([-1.0; 4]).chain([0.0; 84]).collect();
        let mean = d.iter().sum::<f64>() / 100.0;
        let var = d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / 100.0;
        assert!((g.gain_points - 8.0).abs() < 1e-9 && (g.own_top1 - 0.62).abs() < 1e-12, "{g:?}");
        assert!((g.gain_se - 100.0 * (var / 100.0).sqrt()).abs() < 1e-9, "{g:?}");
        // two players of that error at a mean gain of 8 points: each shows a gain with P(Z > -8 / se)
        let group = Gains::of(&[&g, &g]);
        let z = -8.0 / g.gain_se;
        let upper = 0.5 * statrs::function::erf::erfc(z / std::f64::consts::SQRT_2);
        assert!((group.share_better_at_mean - upper).abs() < 1e-9, "{} against {upper}", group.share_better_at_mean);
    }

    /// A player whose choices follow other coefficients than everyone's gains on unseen choices from their own;
    /// players of everyone's kind gain nothing to speak of; only players with enough unseen games are judged.
    #[test]
    fn personal_gains_judge_players_on_their_unseen_choices() {
        let (model, tp, tq) = two_players(11);
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

    /// A network that reads everyone's coefficients, tilted by a player's own less everyone's: the player whose
    /// choices follow others gains on unseen positions, one of everyone's kind does not; a position the model has
    /// no choice at counts alike for both; a seat whose positions another kind was discarded at is left out.
    #[test]
    fn a_network_tilted_by_a_players_coefficients_gains_where_the_player_differs() {
        let (model, tp, tq) = two_players(5);
        // the network's reading: the probabilities of everyone's coefficients, then one position of no choice
        let known = model.everyone.as_ref().unwrap().coefficients.0;
        let network = |d: &Discards| -> Vec<([f32; 34], u8)> {
            let mut net: Vec<([f32; 34], u8)> = d
                .each()
                .map(|(cands, chosen)| {
                    let u: Vec<f64> = cands.iter().map(|c| c.utility(&known)).collect();
                    let z = log_sum_exp(&u);
                    let mut lp = [f32::NEG_INFINITY; 34];
                    cands.iter().zip(&u).for_each(|(c, x)| lp[c.kind()] = (x - z) as f32);
                    (lp, cands[chosen].kind() as u8)
                })
                .collect();
            let mut sure = [f32::NEG_INFINITY; 34];
            sure[30] = 0.0;
            net.push((sure, 30));
            net
        };
        let (np, nq) = (network(&tp), network(&tq));
        let seats = |d, n| vec![(d, [n, n]); 10];
        let tested = [("p", seats(&tp, np.as_slice())), ("q", seats(&tq, nq.as_slice()))];
        let gains = model.network_gains(tested, false, 8).unwrap();
        assert_eq!(gains.misaligned_seats, 0);
        assert!((gains.covered - 2000.0 / 2001.0).abs() < 1e-9, "{}", gains.covered);
        let (gp, gq) = (&gains.gains.players[0], &gains.gains.players[1]);
        assert_eq!((gp.test_choices, gp.test_games), (20_010, 10));
        assert!(gp.gain_points > 5.0 && gp.log_likelihood_gain > 0.05, "{gp:?}");
        assert!(gq.gain_points.abs() < 2.0 && gq.log_likelihood_gain.abs() < 0.01, "{gq:?}");
        // the network as it is, on p's choices, is everyone's coefficients (and the sure position a hit)
        let everyone_hits = tp.hits(&model.everyone.as_ref().unwrap().coefficients) as f64;
        assert!((gp.everyone_top1 - (everyone_hits + 1.0) / 2001.0).abs() < 1e-9, "{gp:?}");
        // a seat whose first position discarded another kind is left out
        let mut wrong = np.clone();
        wrong[0].1 = (wrong[0].1 + 1) % 4;
        let (wrong, right) = (wrong.as_slice(), np.as_slice());
        let gains = model.network_gains([("p", vec![(&tp, [wrong, wrong]), (&tp, [right, right])])], false, 1).unwrap();
        assert_eq!((gains.misaligned_seats, gains.gains.players[0].test_games), (1, 1));
        // readings of other positions than the global network's are left out too
        let gains = model.network_gains([("p", vec![(&tp, [right, &right[1..]])])], true, 1).unwrap();
        assert_eq!((gains.misaligned_seats, gains.gains.players.len(), gains.vectors), (1, 0, true));
    }
}
