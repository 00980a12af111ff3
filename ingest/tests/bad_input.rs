//! Small kinds of bad input of issue 48, through the whole ingest on logs the project writes itself: an empty
//! `<mjloggm>`, two file names that are not UTF-8 and differ only there, a player name of 10,000 characters.

use std::path::Path;

use arrow::array::AsArray;
use haifu_ingest::pipeline::{ingest, IngestOptions, Silent, Summary};
use haifu_ingest::source::expand_inputs;
use haifu_testkit::{scenes, GameBuilder, Scratch};

fn run(logs: &Path, out: &Path) -> Summary {
    let inputs = expand_inputs(&[logs.to_path_buf()], &[]).expect("inputs");
    // the logs here may repeat a play: each file is a game of its own
    let opts = IngestOptions { out: out.to_path_buf(), jobs: 1, keep_duplicates: true, ..IngestOptions::default() };
    ingest(&inputs, &opts, &Silent).expect("the run commits")
}

fn one_round_game() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    scenes::quick_round(&mut g, 0, 1);
    g.finish();
    g
}

/// An empty `<mjloggm>` holds no game: quarantined, not a games row of 0 rounds.
#[test]
fn an_empty_mjlog_is_quarantined_not_a_game_of_no_round() {
    let s = Scratch::new("bad-empty");
    let logs = s.0.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    std::fs::write(logs.join("2024010100gm-00a9-0000-00000001.xml"), r#"<mjloggm ver="2.3"></mjloggm>"#).unwrap();
    std::fs::write(logs.join("2024010100gm-00a9-0000-00000002.xml"), one_round_game().xml()).unwrap();
    let sum = run(&logs, &s.0.join("data"));
    assert_eq!(sum.games_ingested, 1);
    assert_eq!(sum.games_quarantined, 1);
    let q = &sum.quarantined[0];
    assert!(q.file.ends_with("00000001.xml") && q.reason.contains("no round in the record"), "{q:?}");
}

/// Two file names whose bytes differ only where they are not UTF-8 stay two names in the games table (a lossy
/// conversion made both `a\u{FFFD}.xml`).
#[test]
fn file_names_that_are_not_utf8_stay_distinct() {
    use std::os::unix::ffi::OsStrExt;
    let s = Scratch::new("bad-names");
    let logs = s.0.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    // the same game, once with a newline more: two files of their own content
    let names = [&b"2024010100gm-00a9-0000-0000000a-\xff.xml"[..], b"2024010100gm-00a9-0000-0000000a-\xfe.xml"];
    for (i, name) in names.into_iter().enumerate() {
        let xml = one_round_game().xml() + &"\n".repeat(i);
        std::fs::write(logs.join(std::ffi::OsStr::from_bytes(name)), xml).unwrap();
    }
    let ds = s.0.join("data");
    let sum = run(&logs, &ds);
    assert_eq!(sum.games_ingested, 2, "{sum:?}");
    let batches = haifu_ingest::stored::read_columns(&ds, "games", &["source_file"]).unwrap();
    let mut names: Vec<String> = batches
        .iter()
        .flat_map(|b| b.column(0).as_string::<i32>().iter().flatten().map(str::to_string).collect::<Vec<_>>())
        .collect();
    names.sort();
    assert_eq!(names.len(), 2);
    assert!(names[0].ends_with(r"-\xfe.xml") && names[1].ends_with(r"-\xff.xml"), "{names:?}");
}

/// A player name of 10,000 characters is kept as written, with a note in `games.notes`.
#[test]
fn a_very_long_player_name_gets_a_note() {
    let s = Scratch::new("bad-long-name");
    let logs = s.0.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    // ASCII: percent-encoded, 10,000 kana would make a tag beyond the 64 KiB limit (quarantined for that)
    let long = "Ab".repeat(5_000);
    let mut g = GameBuilder::new(169).named(&[&long, "B", "C", "D"]);
    scenes::quick_round(&mut g, 0, 1);
    g.finish();
    std::fs::write(logs.join("2024010100gm-00a9-0000-00000003.xml"), g.xml()).unwrap();
    let ds = s.0.join("data");
    assert_eq!(run(&logs, &ds).games_ingested, 1);
    let batches = haifu_ingest::stored::read_columns(&ds, "games", &["names", "notes"]).unwrap();
    let names = batches[0].column(0).as_list::<i32>().value(0);
    assert_eq!(names.as_string::<i32>().value(0), long, "the name is kept whole");
    let notes = batches[0].column(1).as_list::<i32>().value(0);
    let notes: Vec<&str> = notes.as_string::<i32>().iter().flatten().collect();
    assert!(notes.iter().any(|n| n.contains("seat 0: a player name of 10000 characters")), "{notes:?}");
    assert_eq!(notes.len(), 1, "{notes:?}");
}
