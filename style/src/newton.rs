//! The most probable coefficients of a logit model under a normal prior, by Newton's method: what the discard
//! model ([`crate::discards`]) and the choice model ([`crate::choice_model`]) fit their coefficients with.

use nalgebra::{DMatrix, DVector};

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

/// The most probable coefficients under a normal prior of precision `precision` centred on `centre`, for a
/// concave log-likelihood `at` gives with its derivatives: Newton's method, each step halved while it does not
/// improve; the posterior deviations from the information at the end.
pub fn most_probable(centre: &[f64], precision: f64, at: impl Fn(&[f64]) -> Curvature) -> Posterior {
    let n = centre.len();
    let objective = |w: &[f64], c: &Curvature| {
        c.value - 0.5 * precision * w.iter().zip(centre).map(|(a, b)| (a - b).powi(2)).sum::<f64>()
    };
    let with_prior = |c: &Curvature| {
        let mut h = DMatrix::from_row_slice(n, n, &c.information);
        for i in 0..n {
            h[(i, i)] += precision;
        }
        h
    };
    let mut w = centre.to_vec();
    let mut here = at(&w);
    for _ in 0..50 {
        let g = DVector::from_iterator(n, (0..n).map(|i| here.gradient[i] - precision * (w[i] - centre[i])));
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
    let inverse =
        with_prior(&here).try_inverse().unwrap_or_else(|| DMatrix::from_diagonal_element(n, n, 1.0 / precision));
    let sd = (0..n).map(|i| inverse[(i, i)].max(0.0).sqrt()).collect();
    Posterior { mean: w, sd }
}
