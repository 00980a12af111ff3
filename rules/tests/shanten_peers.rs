//! haifu's shanten beside riichienv-core 0.4.11 and xiangting 6.0.2 (dev-dependencies, used only here and in
//! `benches/shanten.rs`), on the benchmark's kind of input: seeded random hands drawn from a 136-tile wall.
//!
//! All three count exactly (a complete hand holds at most four copies of a kind, so `123m456p789s1111z` waits
//! on no fifth East; seven pairs of distinct kinds), so they must agree on every hand, those holding four of a
//! kind included; a second sample draws from walls of 4 to 10 kinds so that such hands are common.
//! `cargo test --release -p haifu-rules --test shanten_peers -- --nocapture` prints the tallies.
use haifu_rules::shanten::shanten;
use haifu_rules::{format_counts, Counts};
use rand::{rngs::StdRng, seq::SliceRandom, SeedableRng};

fn riichienv(c: &Counts) -> i8 {
    let tiles: u32 = c.iter().map(|&x| u32::from(x)).sum();
    riichienv_core::shanten::calc_shanten_from_counts(c, (tiles / 3) as u8)
}

fn xiangting(c: &Counts) -> i8 {
    xiangting::calculate_replacement_number(c, xiangting::PlayerCount::Four).unwrap() as i8 - 1
}

#[derive(Default, Debug)]
struct Tally {
    hands: usize,
    with_quad: usize,
}

/// `count` hands of the given sizes (in turn) from a shuffled wall; with `few_kinds`, the wall holds only
/// 4 to 10 random kinds (all four copies each), so that many hands hold four of a kind.
fn compare(sizes: &[usize], count: usize, seed: u64, few_kinds: bool) -> Tally {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut wall: Vec<usize> = (0..136).collect();
    let mut kinds: Vec<usize> = (0..34).collect();
    let mut t = Tally::default();
    for i in 0..count {
        if few_kinds {
            kinds.shuffle(&mut rng);
            let k = 4 + i % 7;
            wall = kinds[..k].iter().flat_map(|&k| 4 * k..4 * k + 4).collect();
        }
        wall.shuffle(&mut rng);
        let mut c = [0u8; 34];
        for &tile in &wall[..sizes[i % sizes.len()]] {
            c[tile / 4] += 1;
        }
        let h = shanten(&c);
        assert_eq!(
            (riichienv(&c), xiangting(&c)),
            (h, h),
            "riichienv-core, xiangting vs haifu {h} on {}",
            format_counts(&c)
        );
        t.hands += 1;
        t.with_quad += usize::from(c.contains(&4));
    }
    t
}

#[test]
fn riichienv_core_and_xiangting_agree_on_every_hand() {
    // 13- and 14-tile hands as in the benchmark, then every smaller legal size (hands after calls).
    for (sizes, count, seed, few_kinds) in [
        (&[13usize][..], 200_000, 1, false),
        (&[14][..], 200_000, 2, false),
        (&[1, 2, 4, 5, 7, 8, 10, 11][..], 200_000, 3, false),
        (&[13, 14][..], 200_000, 4, true),
        (&[1, 2, 4, 5, 7, 8, 10, 11][..], 200_000, 5, true),
    ] {
        let t = compare(sizes, count, seed, few_kinds);
        println!("sizes {sizes:?}, few kinds {few_kinds}: {t:?}");
        assert!(t.with_quad > if few_kinds { 10_000 } else { 40 });
    }
}

#[test]
fn hand_written_four_of_a_kind_cases() {
    // (hand, shanten): a fifth copy is never waited on; four of a kind is one pair for seven pairs.
    for (s, want) in [("123m456p789s1111z", 1), ("1111m223344p556s", 1), ("1111m", 1), ("1111m223344p5566s", 0)] {
        let c = s.parse::<haifu_rules::HandNotation>().unwrap().counts;
        assert_eq!((shanten(&c), riichienv(&c), xiangting(&c)), (want, want, want), "{s}");
    }
}
