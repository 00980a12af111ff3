//! mjai logs that do not state their length (no `kyoku_first`, no `gametype`): the play decides, and a
//! length the user gives that the play contradicts is refused. The log is written by the project itself: a
//! scripted hanchan (`GameBuilder`) that ends by a bust in East 4 after the dealer wins again, exported to
//! mjai with its `kyoku_first` taken out.

use haifu_record::mjai::write::to_mjai;
use haifu_record::{mjai, Length, ReadOptions};
use haifu_sim::verify::verify_game;
use haifu_testkit::{GameBuilder, Win};

/// Far from ready, no man tile (the dealer's flush needs them), each kind once per seat.
const IDLE: &str = "1379p1379s12345z";

/// East 1-3 drawn with every hand noten; in East 4 the dealer (seat 3) rons seat 0's 5m twice with a closed
/// flush and a straight (baiman, 24,000): the first win leaves the dealer first with 49,900 (an east-only game
/// would end there), the second takes seat 0 below zero.
fn bust_in_east_4() -> String {
    let mut g = GameBuilder::new(169);
    for _ in 0..3 {
        g.deal([IDLE; 4]).exhaust_wall().exhaustive(&[]);
    }
    for _ in 0..2 {
        g.deal_with_dora([IDLE, IDLE, IDLE, "123456789m2345m"], "1z");
        g.draw(3, "9p").discard(3, "9p");
        g.draw(0, "5m").discard(0, "5m");
        g.ron(0, &[(3, Win::new(24000).fu(40).yaku(&[(24, 2), (35, 6)]))]);
    }
    g.finish();
    assert!(g.scores()[0] < 0, "seat 0 busts: {:?}", g.scores());
    let text = to_mjai(&g.record()).expect("an mjai log");
    let mut stated = false;
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            stated |= v.as_object_mut().and_then(|o| o.remove("kyoku_first")).is_some();
            v.to_string()
        })
        .collect();
    assert!(stated, "the writer states the length");
    lines.join("\n") + "\n"
}

#[test]
fn a_hanchan_ending_in_east_4_is_read_as_a_hanchan() {
    let text = bust_in_east_4();
    let games = mjai::parse(text.as_bytes()).expect("reads");
    let g = &games[0];
    let go = haifu_record::length::go_type_of(&g.events).expect("a GO tag");
    assert!(go.hanchan(), "read as east-only: {:?}", g.notes);
    assert!(g.notes[0].starts_with("length: hanchan (not stated;"), "{:?}", g.notes);
    assert!(g.notes[0].contains("east game ends after E4-3"), "{:?}", g.notes);
    let rep = verify_game("bust.mjson", g);
    assert!(rep.mismatches.is_empty(), "{:#?}", rep.mismatches);
    assert_eq!(rep.owari_checked, 1);

    // stated by the user, hanchan is taken as given
    let opts = ReadOptions { length: Some(Length::Hanchan), ..ReadOptions::default() };
    let games = mjai::parse_with(text.as_bytes(), &opts).expect("reads");
    assert_eq!(games[0].notes[0], "length: hanchan (given with --length)");
}

#[test]
fn a_length_the_play_contradicts_is_refused_at_the_round_it_cannot_have() {
    let text = bust_in_east_4();
    let opts = ReadOptions { length: Some(Length::East), ..ReadOptions::default() };
    let e = mjai::parse_with(text.as_bytes(), &opts).expect_err("east-only ends after the first East 4 win");
    assert!(e.message.contains("contradicts --length east"), "{e}");
    // the error names the second East 4 round's start_kyoku: its line and byte
    let (no, line) = text.lines().enumerate().filter(|(_, l)| l.contains("\"start_kyoku\"")).nth(4).expect("5 rounds");
    assert_eq!(e.line as usize, no + 1, "{e}");
    assert_eq!(e.offset as usize, text.find(line).expect("the line"), "{e}");
}
