//! The style database, its accuracy and the player report read the dataset's tables, not ingest's validating
//! replay: every game read from the games, rounds and decisions tables equals the same game replayed from its
//! events (seats, rounds, wins, every discard with its flags, shapes and tiles), and so do the tallies built
//! from the two. Checked on simulated 4- and 3-player games, and on the real corpus where it is present.

use std::path::Path;

use haifu_ingest::extract::extract;
use haifu_ingest::pipeline::{ingest, IngestOptions, Silent};
use haifu_ingest::stored::read_games;
use haifu_rules::table::TableRules;
use haifu_sim::generate::{generate, GenerateOptions, LogFormat, NamedBot};
use haifu_style::db::tallies;
use haifu_style::played::{read, Played, Reading};
use haifu_testkit::{corpus_dir, Scratch};

fn ingest_into(inputs: &[std::path::PathBuf], out: &Path) {
    let files = haifu_ingest::source::expand_inputs(inputs, &[]).unwrap();
    ingest(&files, &IngestOptions { out: out.to_path_buf(), jobs: 0, strict: false, ..Default::default() }, &Silent)
        .unwrap();
}

/// Every game of the dataset replayed from its events table, in its order, with its record's log id (a replay
/// alone has none): the tables must give the same.
fn replayed(ds: &Path) -> Vec<Played> {
    let games = read_games(ds).unwrap();
    let played = |(id, r): &(i64, haifu_record::GameRecord)| Played {
        log_id: r.log_id.clone(),
        ..Played::of_replay(*id, &extract(r).unwrap())
    };
    games.iter().map(played).collect()
}

/// The tables and the replay agree on every game of both table sizes, with or without the tiles and for one
/// year alone; returns the games and decisions compared.
fn tables_equal_replay(ds: &Path) -> (usize, usize) {
    let all = replayed(ds);
    let mut compared = (0, 0);
    for players in [4, 3] {
        let want: Vec<Played> = all.iter().filter(|g| g.n_players == players).cloned().collect();
        let got = read(ds, &Reading { years: &[], players, tiles: true }, |_, _| true).unwrap();
        assert_eq!(got.len(), want.len(), "{players}-player games");
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(g, w, "game {}", w.game_id);
        }
        assert_eq!(tallies(&got), tallies(&want));
        compared.0 += got.len();
        compared.1 += got.iter().map(|g| g.decisions.len()).sum::<usize>();

        // without the tiles: the same, tiles left out
        let bare = read(ds, &Reading { years: &[], players, tiles: false }, |_, _| true).unwrap();
        let stripped: Vec<Played> = want
            .iter()
            .map(|g| {
                let mut g = g.clone();
                g.decisions.iter_mut().for_each(|d| d.tiles = None);
                g
            })
            .collect();
        assert!(bare == stripped, "{players}-player games read without tiles");
    }
    // one year, and a filter on the games index: exactly the games kept, in order
    let index = haifu_ingest::stored::GameIndex::read(ds).unwrap();
    let first = all.iter().find(|g| index.year(g.game_id).is_some()).expect("a dated game");
    let (year, players) = (index.year(first.game_id).unwrap(), first.n_players);
    // about half of the games, the first one among them
    let half = |g: i64| g.rem_euclid(2) == first.game_id.rem_euclid(2);
    let got = read(ds, &Reading { years: &[year], players, tiles: false }, |_, g| half(g)).unwrap();
    let want: Vec<i64> = all
        .iter()
        .filter(|g| g.n_players == players && index.year(g.game_id) == Some(year) && half(g.game_id))
        .map(|g| g.game_id)
        .collect();
    assert_eq!(got.iter().map(|g| g.game_id).collect::<Vec<_>>(), want);
    compared
}

#[test]
fn simulated_tables_equal_the_replay() {
    let s = Scratch::new("style-played-sim");
    let players: Vec<NamedBot> =
        ["Yakuhai=yakuhai", "Caller=caller", "Toitoi=toitoi", "Honors=honors", "Tanyao=tanyao", "Folder=folder"]
            .iter()
            .map(|p| p.parse().unwrap())
            .collect();
    // 4-player and 3-player east-only tables (calls, honor pons, kans and, with three players, north)
    for (go_type, seed) in [(0xE1, 7), (0xF1, 8)] {
        let o = GenerateOptions {
            games: 12,
            players: players.clone(),
            rules: TableRules::from_go_type(go_type),
            seed,
            format: LogFormat::Mjlog,
            out: s.0.join("logs"),
            date: "20220101".into(),
        };
        generate(&o, &|_| {}).unwrap();
    }
    let ds = s.0.join("data");
    ingest_into(&[s.0.join("logs")], &ds);
    let (games, decisions) = tables_equal_replay(&ds);
    assert_eq!(games, 24);
    assert!(decisions > 1000, "{decisions}");
}

#[test]
fn corpus_tables_equal_the_replay() {
    let Some(corpus) = corpus_dir() else { return };
    let s = Scratch::new("style-played-corpus");
    let ds = s.0.join("data");
    ingest_into(&[corpus.join("mjlog"), corpus.join("tenhou6"), corpus.join("mjai")], &ds);
    let (games, decisions) = tables_equal_replay(&ds);
    println!("corpus: {games} games, {decisions} decisions read from the tables equal their replay");
    assert!(games > 4000, "{games}");
}
