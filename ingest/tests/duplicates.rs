//! The same game in several files (the mjlog and mjai logs `haifu mjai-server` writes of each game; a collection
//! holding a game both as mjlog and as tenhou.net/6) comes into a dataset once: the first file read keeps it, the
//! others are reported as duplicates with the game they repeat, in the run and in later runs on the dataset.

use std::path::{Path, PathBuf};

use haifu_ingest::pipeline::{ingest, IngestOptions, Silent, Summary};
use haifu_ingest::source::expand_inputs;
use haifu_ingest::stored::read_table;
use haifu_record::mjai::write::to_mjai;
use haifu_record::tenhou6::to_tenhou6;
use haifu_testkit::{scenes, Scratch};

fn ingest_dir(dir: &Path, out: &Path) -> Summary {
    ingest_with(dir, out, false)
}

fn ingest_with(dir: &Path, out: &Path, keep_duplicates: bool) -> Summary {
    let inputs = expand_inputs(&[dir.to_path_buf()], &[]).expect("inputs");
    let opts =
        IngestOptions { out: out.to_path_buf(), jobs: 2, strict: true, keep_duplicates, ..IngestOptions::default() };
    ingest(&inputs, &opts, &Silent).expect("ingests")
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    std::fs::create_dir_all(dir).expect("a directory");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("written");
    p
}

#[test]
fn a_game_in_three_formats_comes_in_once() {
    let s = Scratch::new("duplicates");
    let game = scenes::hanchan().record();
    let other = scenes::east_only().record();
    assert_ne!(game.play_hash(), other.play_hash());
    let logs = s.0.join("logs");
    write(&logs, "a.mjlog", &game.to_mjlog());
    write(&logs, "b.json", &to_tenhou6(&game).expect("tenhou.net/6"));
    write(&logs, "c.mjson", &to_mjai(&game).expect("mjai"));
    write(&logs, "d.mjlog", &other.to_mjlog());
    let out = s.0.join("data");

    let first = ingest_dir(&logs, &out);
    assert_eq!((first.files_read, first.games_ingested, first.games_duplicate), (4, 2, 2));
    let kept = first.duplicates[0].same_as_game_id;
    assert!(first.duplicates.iter().all(|d| d.same_as_game_id == kept));
    let same_as: Vec<&str> = first.duplicates.iter().map(|d| d.same_as.as_str()).collect();
    assert!(same_as.iter().all(|k| k.ends_with("a.mjlog game 0")), "{same_as:?}");
    let left_out: Vec<&str> = first.duplicates.iter().map(|d| d.file.as_str()).collect();
    assert!(left_out[0].ends_with("b.json") && left_out[1].ends_with("c.mjson"), "{left_out:?}");
    let games: usize = read_table(&out, "games").expect("games").iter().map(|b| b.num_rows()).sum();
    assert_eq!(games, 2);
    // every table holds the kept game's rows alone: as many decisions as one hanchan and the other game
    assert_eq!(first.decisions, {
        let alone = ingest_dir(&write_alone(&s.0, &game.to_mjlog(), &other.to_mjlog()), &s.0.join("alone"));
        alone.decisions
    });

    // a later run: the game again, in a file the dataset has not seen (other content, same play)
    let later = s.0.join("later");
    write(&later, "e.mjson", &format!("{}\n", to_mjai(&game).expect("mjai")));
    let second = ingest_dir(&later, &out);
    assert_eq!((second.files_read, second.games_ingested, second.games_duplicate), (1, 0, 1));
    assert!(second.duplicates[0].same_as.ends_with("a.mjlog game 0"), "{:?}", second.duplicates);

    // asked to, ingest keeps every copy
    let kept = ingest_with(&logs, &s.0.join("every-copy"), true);
    assert_eq!((kept.games_ingested, kept.games_duplicate), (4, 0));
}

/// The two games alone, one file each, in a directory of their own.
fn write_alone(root: &Path, a: &str, b: &str) -> PathBuf {
    let dir = root.join("alone-logs");
    write(&dir, "a.mjlog", a);
    write(&dir, "d.mjlog", b);
    dir
}
