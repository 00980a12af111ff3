//! Winning-hand decomposition against the table-based shanten, an independent implementation: a concealed
//! hand has a regular reading exactly when its regular shanten is -1, on seeded random hands of every legal
//! size (most incomplete) and on hands built complete from random sets; every reading rebuilds its hand.
use haifu_rules::agari::{decompositions, forms, Set};
use haifu_rules::shanten::{shanten, shanten_regular};
use haifu_rules::Counts;
use rand::{rngs::StdRng, seq::SliceRandom, Rng, SeedableRng};

fn rebuild(pair: usize, sets: &[Set]) -> Counts {
    let mut c = [0u8; 34];
    c[pair] += 2;
    for s in sets {
        match *s {
            Set::Triplet(k) => c[usize::from(k.index())] += 3,
            Set::Sequence(k) => (0..3).for_each(|i| c[usize::from(k.index()) + i] += 1),
        }
    }
    c
}

/// A complete hand of `sets` sets and a pair, at most four of a kind (None when the draw broke that).
fn complete_hand(rng: &mut StdRng, sets: usize) -> Option<Counts> {
    let mut c = [0u8; 34];
    c[rng.random_range(0..34)] += 2;
    for _ in 0..sets {
        if rng.random_bool(0.5) {
            c[rng.random_range(0..34)] += 3;
        } else {
            let suit = rng.random_range(0..3);
            let start = suit * 9 + rng.random_range(0..7);
            (0..3).for_each(|i| c[start + i] += 1);
        }
    }
    c.iter().all(|&x| x <= 4).then_some(c)
}

#[test]
fn readings_agree_with_shanten() {
    let mut rng = StdRng::seed_from_u64(7);
    let wall: Vec<usize> = (0..136).map(|id| id / 4).collect();
    let (mut complete, mut checked) = (0, 0);
    for round in 0..60_000 {
        let c = if round % 2 == 0 {
            let sets = rng.random_range(0..=4);
            match complete_hand(&mut rng, sets) {
                Some(c) => c,
                None => continue,
            }
        } else {
            let n = [2, 5, 8, 11, 14][rng.random_range(0..5)];
            let mut w = wall.clone();
            w.shuffle(&mut rng);
            let mut c = [0u8; 34];
            w[..n].iter().for_each(|&k| c[k] += 1);
            c
        };
        checked += 1;
        let d = decompositions(&c);
        assert_eq!(!d.is_empty(), shanten_regular(&c) == -1, "{c:?}: {d:?}");
        for x in &d {
            assert_eq!(rebuild(usize::from(x.pair.index()), &x.sets), c, "{x:?}");
        }
        let f = forms(&c);
        assert_eq!(f.is_complete(), shanten(&c) == -1, "{c:?}: {f:?}");
        complete += usize::from(f.is_complete());
    }
    assert!(complete > 20_000 && checked > 50_000, "{complete} complete of {checked}");
}
