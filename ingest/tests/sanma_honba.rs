//! Three-player honba: a counter is worth 200 points to the winner (100 from each of the two payers of a
//! tsumo, 200 from the discarder of a ron), not the 300 of four players (`rules::score::honba_gain`). A log
//! that gives a win's score changes but not its points (mjai without `hora_points`, tenhou.net/6 without the
//! score string) has the points read as the winner's gain less the sticks and the honba. The game is the
//! project's own: two exhaustive draws (honba 2), then a 2,600-point ron in a 3-player game, paid 3,000.

use haifu_record::event::{Event, GameRecord};
use haifu_record::mjai::write::to_mjai;
use haifu_record::tags::Agari;
use haifu_record::tenhou6::write::to_tenhou6;
use haifu_record::{mjai, tenhou6};
use haifu_testkit::{GameBuilder, Win};
use serde_json::Value;

/// Far from ready, no 2m-8m (absent with three players), each kind once per seat.
const IDLE: &str = "19m1379p1379s123z";

fn sanma_ron_at_two_honba() -> GameRecord {
    let mut g = GameBuilder::new(185);
    for _ in 0..2 {
        g.deal([IDLE, IDLE, IDLE, ""]).exhaust_wall().exhaustive(&[]);
    }
    // East 3, seat 2 deals; dora indicator haku (dora hatsu): seat 1's closed straight rons the dealer's first
    // discard, a north: 2 han, 40 fu (20, 10 for the closed ron, 4 for the north triplet the ron completes)
    g.deal_with_dora(["19m19p19s1235567z", "123456789p11s44z", "19m19p19s2345677z", ""], "5z");
    g.draw(2, "8s").discard(2, "4z");
    g.ron(2, &[(1, Win::new(2600).fu(40).yaku(&[(24, 2)]))]);
    g.finish();
    g.record()
}

fn the_win(record: &GameRecord) -> Agari {
    let wins: Vec<Agari> = record
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Agari(a) => Some((**a).clone()),
            _ => None,
        })
        .collect();
    assert_eq!(wins.len(), 1, "one win");
    wins[0].clone()
}

#[test]
fn the_scripted_win_pays_two_honba_of_200() {
    let record = sanma_ron_at_two_honba();
    // the replay holds the points to the hand's value and the payments to the honba
    let game = haifu_ingest::extract(&record).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(game.rounds.len(), 3);
    let w = the_win(&record);
    assert_eq!((w.honba, w.points, w.who, w.from_who), (2, 2600, 1, 2));
    assert_eq!(w.delta, [0, 3000, -3000, 0], "2,600 and two counters of 200");
}

#[test]
fn mjai_without_hora_points_reads_the_points_of_a_three_player_ron() {
    let text = to_mjai(&sanma_ron_at_two_honba()).expect("an mjai log");
    let mut stripped = 0;
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).expect("a JSON line");
            if v["type"] == "hora" {
                stripped += usize::from(v.as_object_mut().and_then(|o| o.remove("hora_points")).is_some());
            }
            v.to_string()
        })
        .collect();
    assert_eq!(stripped, 1, "the writer states the points");
    let games = mjai::parse((lines.join("\n") + "\n").as_bytes()).expect("reads");
    let w = the_win(&games[0]);
    assert_eq!((w.honba, w.points), (2, 2600), "gain 3,000 less 2 x 200 honba");
}

#[test]
fn tenhou6_without_a_score_string_reads_the_points_of_a_three_player_ron() {
    let text = to_tenhou6(&sanma_ron_at_two_honba()).expect("a tenhou.net/6 log");
    let mut v: Value = serde_json::from_str(&text).expect("JSON");
    let rounds = v["log"].as_array_mut().expect("log");
    let result = rounds.last_mut().and_then(|r| r.as_array_mut()).and_then(|r| r.last_mut()).expect("a result");
    assert_eq!(result[0], "和了");
    let info = result[2].as_array_mut().expect("win info");
    assert!(info.len() > 3, "the writer gives the score string: {info:?}");
    info.truncate(3);
    let record = tenhou6::parse(v.to_string().as_bytes()).expect("reads");
    let w = the_win(&record);
    assert_eq!((w.honba, w.points), (2, 2600), "gain 3,000 less 2 x 200 honba");
}
