//! Shanten throughput of haifu beside riichienv-core 0.4.11 and xiangting 6.0.2, on identical hands.
//!
//! `scripts/bench-shanten` runs this and prints the ratios; `cargo bench -p haifu-rules --bench shanten`
//! runs it alone.
//!
//! Input: 100,000 random 13-tile hands and 100,000 random 14-tile hands, each the first tiles of a 136-tile
//! wall shuffled with a fixed seed (`StdRng::seed_from_u64(2026)`), as 34 counts. Every library gets the
//! same slice of hands; whatever its API needs (riichienv-core's `tiles / 3`) is computed before timing.
//! One iteration is one pass over the 100,000 hands; the results are summed so no call can be dropped.
//!
//! Before timing, each library's results are summed over the hands and the sums must be equal (the test
//! `rules/tests/shanten_peers.rs` compares them hand by hand), so the figures compare equal work.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use haifu_rules::shanten::shanten;
use haifu_rules::Counts;
use rand::{rngs::StdRng, seq::SliceRandom, SeedableRng};
use std::hint::black_box;
use std::time::Duration;

const HANDS: usize = 100_000;
const SEED: u64 = 2026;

fn random_hands(len: usize) -> Vec<Counts> {
    let mut rng = StdRng::seed_from_u64(SEED + len as u64);
    let mut wall: Vec<usize> = (0..136).collect();
    (0..HANDS)
        .map(|_| {
            wall.shuffle(&mut rng);
            let mut c = [0u8; 34];
            for &t in &wall[..len] {
                c[t / 4] += 1;
            }
            c
        })
        .collect()
}

fn riichienv(c: &Counts, div3: u8) -> i8 {
    riichienv_core::shanten::calc_shanten_from_counts(c, div3)
}

fn xiangting(c: &Counts) -> i8 {
    xiangting::calculate_replacement_number(c, xiangting::PlayerCount::Four).unwrap() as i8 - 1
}

fn bench(c: &mut Criterion) {
    for len in [13, 14] {
        let hands = random_hands(len);
        // riichienv-core's input: the counts and the number of tiles / 3.
        let with_div3: Vec<(Counts, u8)> =
            hands.iter().map(|h| (*h, (h.iter().map(|&x| u32::from(x)).sum::<u32>() / 3) as u8)).collect();
        // Warm every library's tables (riichienv-core and xiangting ship theirs in the binary).
        let (mut a, mut b, mut x) = (0i64, 0i64, 0i64);
        for (h, d) in &with_div3 {
            a += i64::from(shanten(h));
            b += i64::from(riichienv(h, *d));
            x += i64::from(xiangting(h));
        }
        eprintln!("{len} tiles: sum of shanten haifu {a}, riichienv-core {b}, xiangting {x}");
        assert!(a == b && a == x, "the libraries disagree on these hands (rules/tests/shanten_peers.rs finds where)");

        let mut group = c.benchmark_group(format!("shanten_{len}"));
        group.throughput(Throughput::Elements(HANDS as u64));
        group.bench_function("haifu", |bn| {
            bn.iter(|| hands.iter().map(|h| i64::from(shanten(black_box(h)))).sum::<i64>())
        });
        group.bench_function("riichienv-core", |bn| {
            bn.iter(|| with_div3.iter().map(|(h, d)| i64::from(riichienv(black_box(h), black_box(*d)))).sum::<i64>())
        });
        group.bench_function("xiangting", |bn| {
            bn.iter(|| hands.iter().map(|h| i64::from(xiangting(black_box(h)))).sum::<i64>())
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(50).warm_up_time(Duration::from_secs(2)).measurement_time(Duration::from_secs(4));
    targets = bench
}
criterion_main!(benches);
