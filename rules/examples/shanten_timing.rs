//! Timing of the shanten calculator (not a benchmark harness, just a rough figure).
//!
//! `cargo run --release -p haifu-rules --example shanten_timing`
//!
//! Prints the mean cost per call of
//! `shanten` and `shanten_regular` over random 13- and 14-tile hands drawn from a full wall, and over random
//! hands of every size, and over the 13-tile hands left by each discard of a 14-tile hand; then the cost of one
//! `shanten_each` call (34 changed hands) on 14-tile hands (discards) and 13-tile hands (draws).
use haifu_rules::shanten::{shanten, shanten_each, shanten_regular};
use haifu_rules::Counts;
use rand::{rngs::StdRng, seq::SliceRandom, SeedableRng};
use std::hint::black_box;
use std::time::Instant;

fn random_hands(rng: &mut StdRng, sizes: &[usize], count: usize) -> Vec<Counts> {
    let mut wall: Vec<usize> = (0..136).map(|t| t / 4).collect();
    (0..count)
        .map(|i| {
            wall.shuffle(rng);
            let mut c = [0u8; 34];
            for &k in &wall[..sizes[i % sizes.len()]] {
                c[k] += 1;
            }
            c
        })
        .collect()
}

fn time(label: &str, hands: &[Counts], f: fn(&Counts) -> i8) {
    let mut best = f64::MAX;
    let mut sum = 0i64;
    for _ in 0..5 {
        let t = Instant::now();
        for h in hands {
            sum += i64::from(f(black_box(h)));
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("{label:<40} {:7.1} ns/call (best of 5 rounds, checksum {sum})", best * 1e9 / hands.len() as f64);
}

fn main() {
    let mut rng = StdRng::seed_from_u64(1);
    let n = 1_000_000;
    let h13 = random_hands(&mut rng, &[13], n);
    let h14 = random_hands(&mut rng, &[14], n);
    let mixed = random_hands(&mut rng, &[1, 2, 4, 5, 7, 8, 10, 11, 13, 14], n);
    time("shanten, 13 tiles", &h13, shanten);
    time("shanten, 14 tiles", &h14, shanten);
    time("shanten_regular, 14 tiles", &h14, shanten_regular);
    time("shanten, 1..14 tiles", &mixed, shanten);
    // Typical use: every discard of a 14-tile hand (neighbouring hands share most suit shapes).
    let mut discards = Vec::new();
    for h in &h14[..n / 14] {
        for k in 0..34 {
            if h[k] > 0 {
                let mut d = *h;
                d[k] -= 1;
                discards.push(d);
            }
        }
    }
    time("shanten, every discard of a 14-tile hand", &discards, shanten);
    // The simulator's use: the shanten after every discard of a 14-tile hand, and after every draw to a
    // 13-tile hand, in one call (per call, not per changed hand).
    time("shanten_each(-1), 14 tiles", &h14[..n / 10], |h| shanten_each(h, -1)[0]);
    time("shanten_each(+1), 13 tiles", &h13[..n / 10], |h| shanten_each(h, 1)[0]);
}
