//! The style database's counts per opportunity (`choice_counts.parquet`) against the dataset's choices table
//! counted here independently, row by row: for each player and each kind of option, the rows that offer it and
//! say what the seat did, and those where the seat chose it. Simulated 4-player games of calling, riichi and
//! folding bots; the real corpus too where it is present.

use std::collections::HashMap;
use std::path::Path;

use arrow::array::{Array, AsArray};
use arrow::datatypes::{Int64Type, UInt8Type};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use haifu_ingest::pipeline::{ingest, IngestOptions, Silent};
use haifu_ingest::stored::{part_files, GameIndex};
use haifu_rules::table::TableRules;
use haifu_sim::generate::{generate, GenerateOptions, LogFormat, NamedBot};
use haifu_style::choice::{Count, Offer};
use haifu_style::db::{build, BuildOptions, StyleDb};
use haifu_testkit::{corpus_dir, Scratch};

/// (player, offer) -> count over the 4-player games, straight from the choices parts: a kind is offered once per row whatever the number
/// of its options, and taken when `chosen` is an option of that kind.
fn counted(ds: &Path) -> HashMap<(String, &'static str), Count> {
    let index = GameIndex::read(ds).unwrap();
    let mut out: HashMap<(String, &'static str), Count> = HashMap::new();
    for part in part_files(ds, "choices").unwrap() {
        let reader = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&part).unwrap()).unwrap().build();
        for b in reader.unwrap() {
            let b = b.unwrap();
            let ids = b.column_by_name("game_id").unwrap().as_primitive::<Int64Type>().clone();
            let seats = b.column_by_name("seat").unwrap().as_primitive::<UInt8Type>().clone();
            let options = b.column_by_name("options").unwrap().as_list::<i32>().clone();
            let chosen =
                arrow::compute::cast(b.column_by_name("chosen").unwrap(), &arrow::datatypes::DataType::Utf8).unwrap();
            let chosen = chosen.as_string::<i32>();
            for i in 0..b.num_rows() {
                if chosen.is_null(i) || index.players(ids.value(i)) != Some(4) {
                    continue;
                }
                let name = index.name(ids.value(i), seats.value(i)).to_string();
                let row = options.value(i);
                let row = row.as_string::<i32>();
                let words: Vec<&str> = (0..row.len()).map(|j| row.value(j).split(' ').next().unwrap()).collect();
                let took = chosen.value(i).split(' ').next().unwrap();
                for offer in Offer::ALL {
                    if words.contains(&offer.name()) {
                        let c = out.entry((name.clone(), offer.name())).or_default();
                        c.offered += 1;
                        c.taken += u64::from(took == offer.name());
                    }
                }
            }
        }
    }
    out
}

/// Every profiled player's and ALL's count of every kind equals the table's; returns the opportunities compared.
fn db_counts_equal_the_table(ds: &Path, db: &Path) -> u64 {
    build(ds, db, &BuildOptions { years: vec![], min_games: 1, players: 4, sample: None }).unwrap();
    let style = StyleDb::open(db).unwrap();
    let table = counted(ds);
    let mut compared = 0;
    for p in &style.profiles {
        for offer in Offer::ALL {
            let own = style.choices_of(&p.player).unwrap().0.map(|c| c.of(offer, 0)).unwrap_or_default();
            let want = table.get(&(p.player.clone(), offer.name())).copied().unwrap_or_default();
            assert_eq!(own, want, "{} {}", p.player, offer.name());
            compared += own.offered;
        }
    }
    for offer in Offer::ALL {
        let all = style.choices_of("ALL").unwrap().1.of(offer, 0);
        let mut want = Count::default();
        for ((_, o), c) in &table {
            if *o == offer.name() {
                want.add(*c);
            }
        }
        assert_eq!(all, want, "ALL {}", offer.name());
    }
    compared
}

/// East-only 4-player games of these bots, written as mjlog into `dir/logs`; returns that folder.
fn simulate(dir: &Path, players: &[&str], games: usize, seed: u64) -> std::path::PathBuf {
    let o = GenerateOptions {
        games,
        players: players.iter().map(|p| p.parse::<NamedBot>().unwrap()).collect(),
        rules: TableRules::from_go_type(0xE1),
        seed,
        format: LogFormat::Mjlog,
        out: dir.join("logs"),
        date: "20220101".into(),
    };
    generate(&o, &|_| {}).unwrap();
    dir.join("logs")
}

fn ingest_with_choices(input: &Path, out: &Path) {
    let files = haifu_ingest::source::expand_inputs(&[input.to_path_buf()], &[]).unwrap();
    let opts = IngestOptions { out: out.to_path_buf(), jobs: 0, choices: true, ..Default::default() };
    ingest(&files, &opts, &Silent).unwrap();
}

#[test]
fn simulated_counts_equal_the_table() {
    let s = Scratch::new("style-choices-sim");
    let logs = simulate(&s.0, &["Caller=caller", "Yakuhai=yakuhai", "Ito=efficiency", "Folder=folder"], 16, 11);
    let (ds, db) = (s.0.join("ds"), s.0.join("db"));
    ingest_with_choices(&logs, &ds);
    let compared = db_counts_equal_the_table(&ds, &db);
    assert!(compared > 500, "{compared}");
    // the bots' rules show as rates: the efficiency bot never calls and always declares riichi
    let style = StyleDb::open(&db).unwrap();
    let ito = style.choices_of("Ito").unwrap().0.unwrap();
    let (chi, riichi) = (ito.of(Offer::Chi, 0), ito.of(Offer::Riichi, 0));
    assert!(chi.offered > 0 && chi.taken == 0, "{chi:?}");
    assert!(riichi.offered > 0 && riichi.taken == riichi.offered, "{riichi:?}");
}

#[test]
fn corpus_counts_equal_the_table() {
    let Some(corpus) = corpus_dir() else { return };
    let s = Scratch::new("style-choices-corpus");
    let (ds, db) = (s.0.join("ds"), s.0.join("db"));
    ingest_with_choices(&corpus.join("mjlog"), &ds);
    let compared = db_counts_equal_the_table(&ds, &db);
    assert!(compared > 100_000, "{compared}");
}

/// The lookup over a player's own choices (what the imitator at the table plays) takes what bots of fixed rules
/// take: efficiency bots never call and always declare riichi, so on their games it passes every call and
/// declares every riichi, as their own counts and everyone's say.
#[test]
fn the_lookup_plays_the_bots_rules() {
    let s = Scratch::new("style-choices-lookup");
    let logs = simulate(&s.0, &["A=efficiency", "B=efficiency", "C=efficiency", "D=efficiency"], 8, 3);
    let (ds, db) = (s.0.join("ds"), s.0.join("db"));
    ingest_with_choices(&logs, &ds);
    build(&ds, &db, &BuildOptions { years: vec![], min_games: 1, players: 4, sample: None }).unwrap();
    let style = StyleDb::open(&db).unwrap();
    let reading = haifu_style::played::Reading { years: &[], players: 4, tiles: false };
    let games = haifu_style::played::read(&ds, &reading, |_, _| true).unwrap();
    let (total, by) = haifu_style::choice::agreement(&ds, &[], &games, &style.choices, &style.choices["ALL"]).unwrap();
    assert!(total.rows > 100, "{total:?}");
    for offer in [Offer::Chi, Offer::Pon, Offer::Riichi, Offer::Ron] {
        let (_, a) = by.iter().find(|(o, _)| *o == offer).unwrap_or_else(|| panic!("{offer:?} offered: {by:?}"));
        assert_eq!((a.own, a.everyone), (a.rows, a.rows), "{offer:?}: {a:?}");
    }
    // a pass of every call, and riichi and wins taken: declining agrees with the calls alone
    let chi = by.iter().find(|(o, _)| *o == Offer::Chi).unwrap().1;
    assert_eq!(chi.decline, chi.rows);
}

/// A dataset ingested with `--no-choices` builds a database without choice counts, and says so where they are
/// asked for.
#[test]
fn a_dataset_without_choices_builds_without_counts() {
    let s = Scratch::new("style-no-choices");
    let logs = simulate(&s.0, &["A=caller", "B=tanyao", "C=efficiency", "D=folder"], 3, 4);
    let (ds, db) = (s.0.join("ds"), s.0.join("db"));
    let files = haifu_ingest::source::expand_inputs(&[logs], &[]).unwrap();
    ingest(&files, &IngestOptions { out: ds.clone(), ..Default::default() }, &Silent).unwrap();
    build(&ds, &db, &BuildOptions { years: vec![], min_games: 1, players: 4, sample: None }).unwrap();
    let style = StyleDb::open(&db).unwrap();
    assert!(style.choices.is_empty() && style.choices_of("A").is_none());
    assert!(!db.join(haifu_style::choice::CHOICES).exists());
    let reading = haifu_style::played::Reading { years: &[], players: 4, tiles: false };
    let games = haifu_style::played::read(&ds, &reading, |_, _| true).unwrap();
    let err = haifu_style::choice::agreement(&ds, &[], &games, &style.choices, &Default::default()).unwrap_err();
    assert!(err.to_string().contains("--no-choices"), "{err}");
}
