//! The figures of a choices run (`haifu train --decisions choices`): on the test positions, how often the
//! network's choice is the seat's, overall and by kind of option, beside the majority-choice baseline. The
//! baseline answers each position with the class chosen most often in the training positions that offered the
//! same kinds (the same legal mask; declining where the training set never met it).

use hashbrown::HashMap;
use serde::Serialize;

use crate::positions::Positions;
use haifu_encoding::choices::CLASSES;

/// The test figures of one kind of option: the positions that offered it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OfferFigures {
    pub offer: &'static str,
    pub positions: usize,
    /// The share of them where the seat took the option.
    pub taken: f64,
    pub network_top1: f64,
    pub majority_top1: f64,
}

/// A choices run's test figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChoiceFigures {
    pub positions: usize,
    pub network_top1: f64,
    pub majority_top1: f64,
    pub by_offer: Vec<OfferFigures>,
}

/// The majority choice of each legal mask in `train`.
pub fn majority(train: &Positions) -> HashMap<u64, u8> {
    let mut counts: HashMap<u64, [u64; 34]> = HashMap::new();
    for (&mask, &label) in train.legal.iter().zip(&train.label) {
        counts.entry(mask).or_insert([0; 34])[usize::from(label)] += 1;
    }
    counts
        .into_iter()
        .map(|(mask, c)| {
            // the most frequent, the lowest class among equals
            let best = (0..34).max_by_key(|&k| (c[k], std::cmp::Reverse(k))).unwrap_or(0);
            (mask, best as u8)
        })
        .collect()
}

/// The figures of `predicted` (the network's first choice of each test position) beside the majority of
/// `train`.
pub fn figures(train: &Positions, test: &Positions, predicted: &[u8]) -> ChoiceFigures {
    let majority = majority(train);
    let guess = |i: usize| majority.get(&test.legal[i]).copied().unwrap_or(0);
    let share = |n: usize, of: usize| if of == 0 { f64::NAN } else { n as f64 / of as f64 };
    let of = |keep: &dyn Fn(usize) -> bool| {
        let idx: Vec<usize> = (0..test.len()).filter(|&i| keep(i)).collect();
        let net = idx.iter().filter(|&&i| predicted.get(i) == Some(&test.label[i])).count();
        let base = idx.iter().filter(|&&i| guess(i) == test.label[i]).count();
        (idx.len(), share(net, idx.len()), share(base, idx.len()))
    };
    let (positions, network_top1, majority_top1) = of(&|_| true);
    let by_offer = (1..CLASSES.len())
        .filter_map(|c| {
            let offered = |i: usize| test.legal[i] & (1 << c) != 0;
            let (n, network_top1, majority_top1) = of(&offered);
            let taken = (0..test.len()).filter(|&i| offered(i) && usize::from(test.label[i]) == c).count();
            (n > 0).then(|| OfferFigures {
                offer: CLASSES[c],
                positions: n,
                taken: share(taken, n),
                network_top1,
                majority_top1,
            })
        })
        .collect();
    ChoiceFigures { positions, network_top1, majority_top1, by_offer }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::FLAT;

    #[test]
    fn the_majority_of_each_mask_and_the_figures_by_offer() {
        let mut train = Positions::default();
        let row = [0u8; FLAT];
        // chi offered (mask 0b11): declined 3 times, taken once; riichi offered (0b1_0001): taken twice
        for label in [0, 0, 1, 0] {
            train.push(&row, 0b11, label, 1, 0, 4);
        }
        for _ in 0..2 {
            train.push(&row, 0b1_0001, 4, 2, 0, 4);
        }
        assert_eq!(majority(&train).get(&0b11), Some(&0));
        assert_eq!(majority(&train).get(&0b1_0001), Some(&4));
        let mut test = Positions::default();
        test.push(&row, 0b11, 1, 3, 0, 4); // a chi taken
        test.push(&row, 0b11, 0, 3, 0, 4); // a chi declined
        test.push(&row, 0b1_0001, 0, 3, 0, 4); // dama
        test.push(&row, 0b101, 2, 3, 0, 4); // a pon taken, a mask training never met: the baseline declines
        let f = figures(&train, &test, &[1, 1, 4, 2]);
        assert_eq!(f.positions, 4);
        assert!((f.network_top1 - 0.5).abs() < 1e-12 && (f.majority_top1 - 0.25).abs() < 1e-12, "{f:?}");
        let chi = f.by_offer.iter().find(|o| o.offer == "chi").unwrap();
        assert_eq!((chi.positions, chi.taken, chi.network_top1, chi.majority_top1), (2, 0.5, 0.5, 0.5));
        let riichi = f.by_offer.iter().find(|o| o.offer == "riichi").unwrap();
        assert_eq!((riichi.positions, riichi.network_top1, riichi.majority_top1), (1, 0.0, 0.0));
        assert_eq!(f.by_offer.iter().map(|o| o.offer).collect::<Vec<_>>(), ["chi", "pon", "riichi"]);
    }
}
