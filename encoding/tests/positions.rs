//! Positions against the ingest stage's own replay (the decision extractor, an independent walk over the same
//! events): on self-play games of 4 and 3 players, the positions are exactly the extractor's decisions of
//! seats not already in riichi, in order, with the same discard and the same concealed hand.

use haifu_encoding::features::{encode, Safety, FLAT};
use haifu_encoding::planes;
use haifu_encoding::positions::of_game;
use haifu_record::event::GameRecord;
use haifu_record::state::TableState;
use haifu_sim::bot::{self_play, Bot};
use haifu_sim::style::{Style, StyleBot};

/// A greedy style-bot game: 4-player east-only (go 225) or 3-player east-only (go 177).
fn game(seed: u64, go: u32) -> GameRecord {
    let mut bots: Vec<StyleBot> =
        (0..4).map(|i| StyleBot::new(Style::preset("greedy").unwrap(), seed * 4 + i)).collect();
    let mut refs: Vec<&mut dyn Bot> = bots.iter_mut().map(|b| b as &mut dyn Bot).collect();
    self_play(go, seed, &mut refs).unwrap()
}

#[test]
fn positions_are_the_extractors_chosen_discards() {
    for (seed, go) in (0..12).map(|s| (s, if s % 3 == 0 { 177 } else { 225 })) {
        let rec = game(seed, go);
        let p = of_game(seed as i64, &rec).unwrap();
        let extracted = haifu_ingest::extract(&rec).unwrap();
        let chosen: Vec<_> = extracted.decisions.iter().filter(|d| !d.in_riichi).collect();
        assert_eq!(p.len(), chosen.len(), "seed {seed}");
        assert!(p.players.iter().all(|&n| n == if go == 177 { 3 } else { 4 }));
        for (i, d) in chosen.iter().enumerate() {
            assert_eq!(p.label[i], d.discard.kind().index(), "seed {seed}, position {i}");
            let row = p.row(i);
            let counts = d.hand.counts();
            for k in 0..34 {
                // the hand's "at least j copies" bits and the legal mask both say what the hand holds
                let held = (0..4).filter(|&j| row[4 * k + j] == 1).count();
                assert_eq!(held, usize::from(counts[k]).min(4), "seed {seed}, position {i}, kind {k}");
                assert_eq!(p.legal[i] >> k & 1 == 1, counts[k] > 0);
            }
            assert!(p.legal[i] >> p.label[i] & 1 == 1, "the discard is legal");
            assert!(row.iter().all(|&b| b <= 1));
        }
    }
}

/// One hand-written round (South 2, two honba, one stick, dealer seat 1, dora indicator 5p): the dealer draws
/// a 5p and declares riichi with it (double riichi: its first discard, no call before), seats 2 and 3 draw
/// and discard a 5p each, seat 0 draws a 6p; then seat 0's view.
fn written_view() -> [u8; FLAT] {
    let xml = concat!(
        r#"<mjloggm ver="2.3"><GO type="169" lobby="0"/>"#,
        r#"<INIT seed="5,2,1,1,1,52" ten="250,250,250,250" oya="1" "#,
        r#"hai0="0,4,8,12,16,20,24,28,32,36,40,44,48" hai1="1,5,9,13,17,21,25,29,33,37,41,45,49" "#,
        r#"hai2="2,6,10,14,18,22,26,30,34,38,42,46,50" hai3="3,7,11,15,19,23,27,31,35,39,43,47,51"/>"#,
        r#"<U53/><REACH who="1" step="1"/><E53/><REACH who="1" ten="250,240,250,250" step="2"/>"#,
        r#"<V54/><F54/><W55/><G55/><T56/></mjloggm>"#
    );
    let events = haifu_record::mjlog::parse(xml.as_bytes()).unwrap();
    let mut t = TableState::default();
    let mut safety = Safety::default();
    for e in &events {
        t.apply(e).unwrap();
        if let haifu_record::Event::Discard { seat, tile } = e {
            safety.discarded(&t, *seat, *tile);
        }
    }
    let mut row = [0u8; FLAT];
    encode(&t, 0, &safety, &mut row);
    row
}

#[test]
fn a_written_view_sets_the_features_it_should() {
    let row = written_view();
    let ones = |from: usize, to: usize| (from..to).filter(|&i| row[i] == 1).map(|i| i - from).collect::<Vec<_>>();
    // the hand: one each of kinds 0..12 (1m..4p) and the drawn 6p (kind 14)
    let mut hand: Vec<usize> = (0..13).map(|k| 4 * k).collect();
    hand.push(4 * 14);
    assert_eq!(ones(0, 136), hand);
    assert_eq!(ones(136, 272), Vec::<usize>::new(), "no melds");
    // visible 5p (kind 13): three discards and the dora indicator, all four copies
    assert_eq!(&row[272 + 4 * 13..272 + 4 * 14], &[1, 1, 1, 1]);
    // seat 1 (the next seat, slot 0): riichi, double, ippatsu; seats 2 and 3 none
    assert_eq!(ones(408, 417), vec![0, 3, 6]);
    // safe: 5p against each of the three (their own discards, and seat 1's riichi)
    assert_eq!(ones(417, 519), vec![13, 34 + 13, 68 + 13]);
    assert_eq!(ones(927, 931), vec![0], "seat 0");
    assert_eq!(ones(931, 935), vec![3], "north: the dealer is seat 1");
    assert_eq!(ones(935, 938), vec![1], "South");
    assert_eq!(ones(938, 942), vec![1], "the second kyoku");
    assert_eq!(ones(942, 952), vec![2], "two sticks after the riichi");
    assert_eq!(ones(952, 962), vec![2], "two honba");
    assert_eq!(ones(962, 996), vec![14], "6p is dora");
    assert_eq!(ones(996, 999), vec![0], "the red 5m (id 16)");
}

/// The CNN's planes of the same view, gathered by the constant index as the model gathers them on the device.
#[test]
fn the_cnn_planes_of_the_written_view() {
    let row = written_view();
    let cell = |i: i64| if i == planes::ZERO { 0 } else { row[i as usize] };
    let suits: Vec<u8> = planes::suit_index().into_iter().map(cell).collect();
    let honors: Vec<u8> = planes::honor_index().into_iter().map(cell).collect();
    // suit s, plane p, digit d (0-based), the four columns
    let suit = |s: usize, p: usize, d: usize| &suits[((s * 20 + p) * 9 + d) * 4..][..4];
    let honor = |p: usize, h: usize| &honors[(p * 7 + h) * 4..][..4];
    let all = [1u8; 4];
    let none = [0u8; 4];
    for d in 0..9 {
        // dora 6p (pin, digit 6); the red 5m held (man, digit 5); 5p safe against the next seat (plane 6)
        assert_eq!(suit(1, 9, d), if d == 5 { &all } else { &none }, "dora, digit {}", d + 1);
        assert_eq!(suit(0, 10, d), if d == 4 { &all } else { &none }, "red, digit {}", d + 1);
        assert_eq!(suit(1, 10, d), &none);
        assert_eq!(suit(1, 6, d), if d == 4 { &all } else { &none }, "safe, digit {}", d + 1);
        for s in 0..3 {
            // the next seat's riichi and double riichi everywhere, the second seat's never
            assert_eq!((suit(s, 11, d), suit(s, 14, d), suit(s, 12, d)), (&all[..], &all[..], &none[..]));
        }
    }
    // the hand: one 1m (man plane 0, digit 1: the first column only), four visible 5p
    assert_eq!(suit(0, 0, 0), &[1, 0, 0, 0]);
    assert_eq!(suit(1, 5, 4), &all);
    for h in 0..7 {
        // South round (plane 19 marks S), the seat's wind North (plane 20 marks N)
        assert_eq!(honor(19, h), if h == 1 { &all } else { &none });
        assert_eq!(honor(20, h), if h == 3 { &all } else { &none });
        assert_eq!(honor(10, h), &all, "the next seat's riichi");
        assert_eq!(honor(0, h), &none, "no honor in hand");
    }
}

/// Each of the twelve augmentations keeps a position whole: the moved hand still says what the moved mask
/// allows, and the moved discard is still legal (self-play positions, every transformation).
#[test]
fn augmented_positions_stay_consistent() {
    use haifu_encoding::augment::Transform;
    let p = of_game(1, &game(5, 225)).unwrap();
    for t in (0..Transform::COUNT).map(Transform::nth) {
        let (features, legal, kinds) = (t.feature_source(), t.kind_source(), t.kinds());
        for i in 0..p.len() {
            let row: Vec<u8> = features.iter().map(|&f| p.row(i)[f as usize]).collect();
            let mask: u64 = legal.iter().enumerate().fold(0, |m, (k, &from)| m | ((p.legal[i] >> from & 1) << k));
            for k in 0..34 {
                assert_eq!(row[4 * k] == 1, mask >> k & 1 == 1, "{t:?}, position {i}, kind {k}");
            }
            assert!(mask >> kinds[usize::from(p.label[i])] & 1 == 1, "{t:?}: the moved discard is legal");
            assert_eq!(row.iter().filter(|&&b| b == 1).count(), p.row(i).iter().filter(|&&b| b == 1).count());
        }
    }
}

/// The choice positions of calling, riichi-declaring bots' games are the replay's choices that say what the
/// seat did, in order: the kinds offered as the mask (declining always among them), the kind chosen as the
/// label, the hand of the moment in the hand bits and the tile of the moment in its slots.
#[test]
fn choice_positions_are_the_replays_answered_choices() {
    use haifu_encoding::choices::{class_of, of_game as choices_of, TILE};
    use haifu_ingest::choices::{Chosen, MomentKind};
    use haifu_ingest::extract::{extract_with, ReplayOptions};
    let mut kinds_seen = 0u64;
    for seed in 0..10u64 {
        let go = if seed % 3 == 0 { 177 } else { 225 };
        let names = ["caller", "yakuhai", "efficiency", "tanyao"];
        let mut bots: Vec<StyleBot> = names
            .iter()
            .enumerate()
            .map(|(i, n)| StyleBot::new(Style::preset(n).unwrap(), seed * 4 + i as u64))
            .collect();
        let mut refs: Vec<&mut dyn Bot> = bots.iter_mut().map(|b| b as &mut dyn Bot).collect();
        let rec = self_play(go, seed, &mut refs).unwrap();
        let p = choices_of(seed as i64, &rec).unwrap();
        let replayed = extract_with(&rec, ReplayOptions { keep_misscored: false, choices: true }).unwrap();
        let answered: Vec<_> = replayed.choices.iter().filter(|c| c.chosen != Chosen::Unknown).collect();
        assert_eq!(p.len(), answered.len(), "seed {seed}");
        for (i, c) in answered.iter().enumerate() {
            let row = p.row(i);
            let mask = c.options.iter().filter_map(class_of).fold(1u64, |m, k| m | (1 << k));
            assert_eq!(p.legal[i], mask, "seed {seed}, position {i}");
            kinds_seen |= mask;
            let label = match c.chosen {
                Chosen::Took(a) => class_of(&a).unwrap(),
                _ => 0,
            };
            assert_eq!(p.label[i], label, "seed {seed}, position {i}");
            assert!(p.legal[i] >> p.label[i] & 1 == 1, "the choice is among the kinds offered");
            let counts = c.hand.counts();
            for k in 0..34 {
                let held = (0..4).filter(|&j| row[4 * k + j] == 1).count();
                assert_eq!(held, usize::from(counts[k]).min(4), "seed {seed}, position {i}, kind {k}");
            }
            let k = usize::from(c.tile.kind().index());
            let slots: Vec<usize> = (0..20).filter(|&j| row[TILE + j] == 1).collect();
            let mut want = vec![k % 9, 9 + k / 9];
            if matches!(c.moment, MomentKind::Shown(_)) {
                want.push(13);
            }
            assert_eq!(slots, want, "seed {seed}, position {i}: the tile of the moment");
            assert_eq!((p.seat[i], p.game[i]), (c.seat, seed as i64));
        }
    }
    // chi, pon, riichi, tsumo and ron were all offered somewhere
    for class in [1, 2, 4, 7, 8] {
        assert!(kinds_seen >> class & 1 == 1, "class {class} never offered: {kinds_seen:b}");
    }
}
