//! What the discard model's tests share: a feature by name, and choices drawn from known coefficients.

use super::{feature_name, log_sum_exp, Candidate, Discards, FEATURES};

pub fn feature(name: &str) -> usize {
    (0..FEATURES).find(|&i| feature_name(i) == name).unwrap_or_else(|| panic!("no feature {name}"))
}

/// Everyone's coefficients of the tests' populations (on the first six features, `third` the third's), and
/// those of a player who differs from everyone in the first two, each of the other sign.
pub fn common_and_odd(third: f64) -> ([f64; FEATURES], [f64; FEATURES]) {
    let mut common = [0.0; FEATURES];
    common[..6].copy_from_slice(&[1.0, -1.0, third, 0.0, -0.5, 0.3]);
    let mut odd = common;
    (odd[0], odd[1]) = (-1.0, 1.0);
    (common, odd)
}

/// A fixed sequence of uniform numbers, for choices drawn from known coefficients.
pub struct Draw {
    pub state: u64,
}

impl Draw {
    pub fn next(&mut self) -> f64 {
        self.state = self.state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.state >> 11) as f64 / (1u64 << 53) as f64
    }

    /// `n` choices of four candidates marked with the first six features, drawn from `w`.
    pub fn population(&mut self, n: usize, w: &[f64; FEATURES]) -> Discards {
        self.choices(n, 4, &[0, 1, 2, 3, 4, 5], false, w)
    }

    /// Choices drawn from coefficients `w`: each of `n` choices offers `per` candidates, each marked with
    /// each of `marks` three times in ten and, with `shortfall`, giving up a random share of the acceptance
    /// half the time.
    pub fn choices(&mut self, n: usize, per: usize, marks: &[usize], shortfall: bool, w: &[f64; FEATURES]) -> Discards {
        let mut d = Discards::default();
        for i in 0..n {
            let cands: Vec<Candidate> = (0..per)
                .map(|k| {
                    let m = marks.iter().filter(|_| self.next() < 0.3).fold(0, |m, &f| m | 1 << f);
                    Candidate::new(k, m, if shortfall && self.next() < 0.5 { self.next() } else { 0.0 })
                })
                .collect();
            let u: Vec<f64> = cands.iter().map(|c| c.utility(w)).collect();
            let z = log_sum_exp(&u);
            let (mut r, mut chosen) = (self.next(), cands.len() - 1);
            for (i, ui) in u.iter().enumerate() {
                r -= (ui - z).exp();
                if r < 0.0 {
                    chosen = i;
                    break;
                }
            }
            d.push(&cands, chosen, i as u16);
        }
        d
    }
}
