//! The most probable coefficients of a logit model under a normal prior, by Newton's method, and the prior's
//! spread estimated from the players themselves: what the discard model ([`crate::discards`]) and the choice
//! model ([`crate::choice_model`]) fit their coefficients with.

use nalgebra::{DMatrix, DVector};
use rayon::prelude::*;

/// The log-likelihood of some data at some coefficients, its gradient and its negative Hessian (the information,
/// row-major).
pub struct Curvature {
    pub value: f64,
    pub gradient: Vec<f64>,
    pub information: Vec<f64>,
}

/// Coefficients and their posterior standard deviations.
#[derive(Clone, Debug, PartialEq)]
pub struct Posterior {
    pub mean: Vec<f64>,
    pub sd: Vec<f64>,
}

/// The most probable coefficients under a normal prior centred on `centre`, each coefficient of precision
/// `precision[i]`, for a concave log-likelihood `at` gives with its derivatives: Newton's method from `start`,
/// each step halved while it does not improve; the posterior deviations from the information at the end.
pub fn most_probable(centre: &[f64], precision: &[f64], start: &[f64], at: impl Fn(&[f64]) -> Curvature) -> Posterior {
    most_probable_at(centre, precision, start, at).0
}

/// [`most_probable`], with the log-likelihood's curvature at the coefficients found.
fn most_probable_at(
    centre: &[f64],
    precision: &[f64],
    start: &[f64],
    at: impl Fn(&[f64]) -> Curvature,
) -> (Posterior, Curvature) {
    let n = centre.len();
    let objective = |w: &[f64], c: &Curvature| {
        c.value - 0.5 * (0..n).map(|i| precision[i] * (w[i] - centre[i]).powi(2)).sum::<f64>()
    };
    let with_prior = |c: &Curvature| {
        let mut h = DMatrix::from_row_slice(n, n, &c.information);
        for i in 0..n {
            h[(i, i)] += precision[i];
        }
        h
    };
    let mut w = start.to_vec();
    let mut here = at(&w);
    for _ in 0..50 {
        let g = DVector::from_iterator(n, (0..n).map(|i| here.gradient[i] - precision[i] * (w[i] - centre[i])));
        let Some(step) = with_prior(&here).cholesky().map(|c| c.solve(&g)) else { break };
        let before = objective(&w, &here);
        let mut scale = 1.0;
        let mut moved = false;
        for _ in 0..20 {
            let next: Vec<f64> = w.iter().zip(step.iter()).map(|(x, s)| x + scale * s).collect();
            let there = at(&next);
            if objective(&next, &there) >= before - 1e-9 {
                (w, here, moved) = (next, there, true);
                break;
            }
            scale /= 2.0;
        }
        if !moved || step.amax() * scale < 1e-7 {
            break;
        }
    }
    let inverse = with_prior(&here)
        .try_inverse()
        .unwrap_or_else(|| DMatrix::from_diagonal(&DVector::from_iterator(n, precision.iter().map(|p| 1.0 / p))));
    let sd = (0..n).map(|i| inverse[(i, i)].max(0.0).sqrt()).collect();
    (Posterior { mean: w, sd }, here)
}

/// The fewest players with data whose spread is estimated; with fewer, the players keep the fixed prior. The
/// relative standard error of a variance measured on n players is about sqrt(2 / (n - 1)): a half at 8.
pub const SPREAD_MIN_PLAYERS: usize = 8;

/// Precision of the weak prior each player is first fitted under, only to find a point to read the player's
/// log-likelihood around (a coefficient no choice of the player varies stays at the centre).
const FIRST_LOOK_PRECISION: f64 = 1.0;

/// A player's log-likelihood as a quadratic: the point it was read at, the information there, and the
/// information times the point plus the gradient (what pulls the posterior from the prior's centre).
struct Quadratic {
    at: DVector<f64>,
    information: DMatrix<f64>,
    pull: DVector<f64>,
}

impl Quadratic {
    /// The most probable coefficients under the quadratic and a normal prior of diagonal precision `precision`
    /// centred on `centre`, and their posterior variances.
    fn posterior(&self, centre: &DVector<f64>, precision: &[f64]) -> Option<(DVector<f64>, Vec<f64>)> {
        let n = centre.len();
        let mut h = self.information.clone();
        let mut rhs = self.pull.clone();
        for i in 0..n {
            h[(i, i)] += precision[i];
            rhs[i] += precision[i] * centre[i];
        }
        let c = h.cholesky()?;
        let mean = c.solve(&rhs);
        let inverse = c.inverse();
        Some((mean, (0..n).map(|i| inverse[(i, i)]).collect()))
    }
}

/// Each player's most probable coefficients under a normal prior centred on `centre` whose deviations are the
/// players' spread around it, estimated from the players themselves (empirical Bayes: [`spread`]); `fixed_sd`
/// for a coefficient fewer than [`SPREAD_MIN_PLAYERS`] players' data inform. `at` gives a player's
/// log-likelihood with its derivatives. Returns the prior's deviations and each player's posterior, in order.
pub fn fit_players<P: Sync>(
    centre: &[f64],
    fixed_sd: f64,
    players: &[P],
    at: impl Fn(&P, &[f64]) -> Curvature + Sync,
) -> (Vec<f64>, Vec<Posterior>) {
    let n = centre.len();
    let first: Vec<Quadratic> = players
        .par_iter()
        .map(|p| {
            let (look, c) = most_probable_at(centre, &vec![FIRST_LOOK_PRECISION; n], centre, |w| at(p, w));
            let (point, information) = (DVector::from_vec(look.mean), DMatrix::from_row_slice(n, n, &c.information));
            let pull = &information * &point + DVector::from_vec(c.gradient);
            Quadratic { at: point, information, pull }
        })
        .collect();
    let sd = spread(centre, fixed_sd, &first);
    let precision: Vec<f64> = sd.iter().map(|s| 1.0 / (s * s)).collect();
    let fits = players
        .par_iter()
        .zip(&first)
        .map(|(p, q)| most_probable(centre, &precision, q.at.as_slice(), |w| at(p, w)))
        .collect();
    (sd, fits)
}

/// The deviations of a normal prior around `centre` that make the players' data most probable (each player's
/// log-likelihood taken as its quadratic; type-II maximum likelihood). Each round takes each player's posterior
/// under the deviations so far and sets each coefficient's variance to the players' sum of squared distances from
/// the centre over the players' sum of how far their data moved them (1 less the posterior variance over the
/// prior's): MacKay's update, with EM's fixed point and in fewer rounds. A player with no information on a
/// coefficient counts for nothing in it; a coefficient fewer than [`SPREAD_MIN_PLAYERS`] players inform keeps
/// `fixed_sd`.
fn spread(centre: &[f64], fixed_sd: f64, players: &[Quadratic]) -> Vec<f64> {
    let n = centre.len();
    let informed: Vec<usize> =
        (0..n).map(|i| players.iter().filter(|q| q.information[(i, i)] > 1e-9).count()).collect();
    let estimated: Vec<usize> = (0..n).filter(|&i| informed[i] >= SPREAD_MIN_PLAYERS).collect();
    let centre = DVector::from_column_slice(centre);
    // a deviation below this is no spread (and its precision would grow without bound)
    const FLOOR: f64 = 1e-3;
    let mut variance = vec![fixed_sd * fixed_sd; n];
    for _ in 0..500 {
        let precision: Vec<f64> = variance.iter().map(|v| 1.0 / v).collect();
        // per coefficient: the squared distances and the shares of the prior's variance the data took away,
        // summed in the players' order (the choice model is fitted as each process opens a database: the same
        // sums give the same coefficients in every process)
        let posteriors: Vec<_> = players.par_iter().map(|q| q.posterior(&centre, &precision)).collect();
        let (mut distance, mut moved_by_data) = (vec![0.0; n], vec![0.0; n]);
        for (mean, var) in posteriors.into_iter().flatten() {
            for i in 0..n {
                distance[i] += (mean[i] - centre[i]).powi(2);
                moved_by_data[i] += 1.0 - var[i] * precision[i];
            }
        }
        let mut change = 0.0f64;
        for &i in &estimated {
            let next = (distance[i] / moved_by_data[i].max(1e-9)).max(FLOOR * FLOOR);
            change = change.max((next / variance[i] - 1.0).abs());
            variance[i] = next;
        }
        if change < 1e-6 {
            break;
        }
    }
    variance.iter().map(|v| v.sqrt()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Players whose log-odds of one event spread around everyone's with a known deviation, and of another
    /// event not at all: the spread is estimated near the first deviation and near nothing for the second.
    #[test]
    fn the_spread_is_the_players_own() {
        // a small generator of uniform deviates (splitmix64): the test needs no crate for it
        let mut state = 7u64;
        let mut uniform = move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) as f64 / u64::MAX as f64
        };
        let truth = 0.8;
        let p = |x: f64| 1.0 / (1.0 + (-x).exp());
        let players: Vec<[(f64, f64); 2]> = (0..200)
            .map(|_| {
                // two events, each seen 400 times: the first's log-odds differ by player (a normal deviate)
                let z: f64 = (0..12).map(|_| uniform()).sum::<f64>() - 6.0;
                let (q0, q1) = (p(truth * z), p(0.0));
                let draws = |q: f64, u: &mut dyn FnMut() -> f64| (0..400).filter(|_| u() < q).count() as f64;
                [(draws(q0, &mut uniform), 400.0), (draws(q1, &mut uniform), 400.0)]
            })
            .collect();
        let at = |counts: &[(f64, f64); 2], w: &[f64]| {
            let mut c = Curvature { value: 0.0, gradient: vec![0.0; 2], information: vec![0.0; 4] };
            for (i, &(k, n)) in counts.iter().enumerate() {
                let p = 1.0 / (1.0 + (-w[i]).exp());
                c.value += k * p.ln() + (n - k) * (1.0 - p).ln();
                c.gradient[i] = k - n * p;
                c.information[i * 2 + i] = n * p * (1.0 - p);
            }
            c
        };
        let (sd, fits) = fit_players(&[0.0, 0.0], 0.5, &players, at);
        assert!((sd[0] - truth).abs() < 0.12, "{sd:?}");
        assert!(sd[1] < 0.05, "{sd:?}");
        // the players' second coefficients are pulled to the centre; the first keep most of their distance
        assert!(fits.iter().all(|f| f.mean[1].abs() < 0.05));
        // too few players to measure a spread: the fixed prior
        let (few, _) = fit_players(&[0.0, 0.0], 0.5, &players[..SPREAD_MIN_PLAYERS - 1], at);
        assert_eq!(few, vec![0.5, 0.5]);
    }
}
