//! The real corpus as the oracle (../shared/corpus): every full game ingests and replays with zero
//! validation errors, decision rows equal discard tags, fragments are ingested or quarantined with a reason,
//! Polars reads every table back, and XML -> dataset -> XML -> dataset is the identity.
//! Each test prints a clear line and passes when the corpus is absent.

mod common;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use haifu_ingest::pipeline::{ingest, IngestOptions, Silent, Summary};
use polars::prelude::*;

use common::{corpus, Scratch};
use haifu_testkit::corpus::{manifest, outcomes, Entry, Outcomes};

fn scan(dataset: &Path, table: &str) -> LazyFrame {
    let path = format!("{}/{table}/", dataset.display());
    LazyFrame::scan_parquet(PlRefPath::from(path.as_str()), ScanArgsParquet::default())
        .unwrap_or_else(|e| panic!("polars cannot scan {table}: {e}"))
}

fn run(inputs: &[PathBuf], out: &Path) -> Summary {
    ingest(inputs, &IngestOptions { out: out.to_path_buf(), jobs: 0, strict: false, ..Default::default() }, &Silent)
        .expect("ingest runs")
}

#[test]
#[allow(clippy::too_many_lines)] // a test: one scenario checked step by step
fn every_full_game_replays_and_tables_read_back() {
    let Some(corpus) = corpus() else { return };
    let entries = manifest(&corpus);
    let mut files: Vec<PathBuf> = entries.iter().map(|e| corpus.join(&e.path)).collect();
    files.sort();
    let full: HashMap<String, &Entry> =
        entries.iter().filter(|e| e.full).map(|e| (corpus.join(&e.path).display().to_string(), e)).collect();
    let scratch = Scratch::new("corpus-ingest");
    let out = scratch.0.join("dataset");
    let s = run(&files, &out);
    println!(
        "corpus: {} files, {} games, {} rounds, {} decisions, {} events; quarantined {} files + {} games; {} truncated; {:.1}s",
        s.files_read,
        s.games_ingested,
        s.rounds,
        s.decisions,
        s.events,
        s.files_quarantined,
        s.games_quarantined,
        s.games_truncated,
        s.elapsed_s
    );
    for q in &s.quarantined {
        println!("  quarantined: {} game {:?}: {}", q.file, q.game, q.reason);
    }

    // full games: no quarantine, no truncation, except full games under other rules than riichi (akochan's
    // Chinese-rules self-play), which the mjai reader refuses as such (ingest/tests/mjai_corpus.rs checks
    // each of them against independent evidence)
    let other_rules = |q: &&haifu_ingest::pipeline::Quarantined| q.reason.contains("not a riichi-rule game");
    let refused: HashSet<&str> = s
        .quarantined
        .iter()
        .filter(|q| full.contains_key(&q.file) && other_rules(q))
        .map(|q| q.file.as_str())
        .collect();
    println!("{} full games under other rules refused", refused.len());
    assert!(refused.iter().all(|f| full[*f].format == "mjai"), "only mjai logs may be refused as other rules");
    let bad_full: Vec<_> = s.quarantined.iter().filter(|q| full.contains_key(&q.file) && !other_rules(q)).collect();
    assert!(bad_full.is_empty(), "{} full games failed, first: {:?}", bad_full.len(), bad_full.first());
    let cut_full: Vec<_> = s.truncated.iter().filter(|t| full.contains_key(&t.file)).collect();
    assert!(cut_full.is_empty(), "{} full games stop early, first: {:?}", cut_full.len(), cut_full.first());
    // fragments: ingested or quarantined with a reason
    for q in &s.quarantined {
        assert!(!q.reason.trim().is_empty(), "quarantine without a reason: {q:?}");
    }
    assert_eq!(s.files_read as usize, files.len(), "every file is read once");

    // Polars reads every table back, with the counts of the summary
    let games = scan(&out, "games").collect().expect("games");
    let count =
        |t: &str| scan(&out, t).select([len()]).collect().expect(t).column("len").unwrap().u32().unwrap().get(0);
    assert_eq!(games.height() as u64, s.games_ingested);
    assert_eq!(count("rounds").map(u64::from), Some(s.rounds));
    assert_eq!(count("events").map(u64::from), Some(s.events));
    assert_eq!(count("decisions").map(u64::from), Some(s.decisions));
    let years = scan(&out, "decisions").select([col("year").n_unique()]).collect().expect("hive year");
    println!("decisions span {} partitions (years)", years.column("year").unwrap().get(0).unwrap());

    // every full game that is not refused is in the tables with exactly the rounds, wins, draws and discards
    // its file holds, counted from the raw text (tags, result arrays, message types) without the readers
    let per_round = scan(&out, "rounds").group_by([col("game_id")]).agg([
        col("winners").list().len().sum().cast(DataType::UInt64).alias("wins"),
        col("result").eq(lit("ryuukyoku")).sum().cast(DataType::UInt64).alias("draws"),
    ]);
    let per_file = scan(&out, "games")
        .join(per_round, [col("game_id")], [col("game_id")], JoinArgs::new(JoinType::Left))
        .group_by([col("source_file")])
        .agg([
            col("rounds").cast(DataType::UInt64).sum(),
            col("wins").fill_null(lit(0u64)).sum(),
            col("draws").fill_null(lit(0u64)).sum(),
            col("decisions").cast(DataType::UInt64).sum(),
        ])
        .collect()
        .unwrap();
    let column = |name: &str| per_file.column(name).unwrap().u64().unwrap().clone();
    let (rounds, wins, draws, decisions) = (column("rounds"), column("wins"), column("draws"), column("decisions"));
    let mut found: HashMap<String, Outcomes> = HashMap::new();
    for (i, file) in per_file.column("source_file").unwrap().str().unwrap().iter().enumerate() {
        let n = |c: &UInt64Chunked| c.get(i).unwrap() as usize;
        let o = Outcomes { rounds: n(&rounds), wins: n(&wins), draws: n(&draws), discards: n(&decisions) };
        found.insert(file.unwrap().to_string(), o);
    }
    // a game the corpus holds twice (mjlog and tenhou.net/6 of one log id) is in the tables once: the other file
    // is reported as a duplicate of it, and its own counts must be the kept file's
    let kept_as: HashMap<&str, &str> = s
        .duplicates
        .iter()
        .map(|d| (d.file.as_str(), d.same_as.rsplit_once(" game ").map_or(d.same_as.as_str(), |(f, _)| f)))
        .collect();
    let mut total = Outcomes::default();
    let mut missing = Vec::new();
    let mut differ = Vec::new();
    let mut twice = 0;
    for (file, e) in &full {
        if refused.contains(file.as_str()) {
            continue;
        }
        let want = outcomes(&e.format, &e.text(&corpus));
        let (in_tables, got) = match kept_as.get(file.as_str()) {
            Some(kept) => {
                twice += 1;
                (*kept, found.get(*kept))
            }
            None => {
                total += want;
                (file.as_str(), found.get(file))
            }
        };
        match got {
            None => missing.push(file.clone()),
            Some(got) if *got != want => differ.push(format!("{file} (as {in_tables}): tables {got:?}, file {want:?}")),
            Some(_) => {}
        }
    }
    println!("{twice} full games are another file's game (the same play), in the tables once, with their own counts");
    println!(
        "{} full games in the tables: {} rounds, {} wins, {} draws, {} discards, each equal to its file",
        full.len() - refused.len() - twice,
        total.rounds,
        total.wins,
        total.draws,
        total.discards
    );
    assert!(
        missing.is_empty(),
        "{} full games not in the tables: {:?}",
        missing.len(),
        &missing[..missing.len().min(5)]
    );
    assert!(differ.is_empty(), "{} full games differ from their files:\n{}", differ.len(), differ.join("\n"));

    // every win's closed hand (AGARI `hai`, winning tile included) is complete: a regular reading, seven pairs
    // or thirteen orphans (rules::agari, independent of the replay's shanten check)
    let mut wins = 0;
    for b in haifu_ingest::stored::read_table(&out, "rounds").unwrap() {
        use arrow::array::{Array, AsArray};
        let w = b.column_by_name("wins").unwrap().as_list::<i32>();
        let hands = w.values().as_struct().column_by_name("hand").unwrap().as_list::<i32>().clone();
        for i in 0..hands.len() {
            let ids = hands.value(i);
            let mut c = [0u8; 34];
            ids.as_primitive::<arrow::datatypes::UInt8Type>()
                .values()
                .iter()
                .for_each(|&id| c[usize::from(id / 4)] += 1);
            let f = haifu_rules::agari::forms(&c);
            assert!(f.is_complete(), "a winning hand with no complete form: {}", haifu_rules::format_counts(&c));
            wins += 1;
        }
    }
    println!("{wins} winning hands, every one complete");
    assert!(wins >= total.wins, "the full games' {} wins are among the {wins} in the tables", total.wins);
}

/// XML -> dataset -> XML -> dataset: the second dataset equals the first (ids aside), and the XML written
/// from each is the same text.
#[test]
fn mjlog_round_trip_is_lossless() {
    let Some(corpus) = corpus() else { return };
    let files = haifu_ingest::source::expand_inputs(&[corpus.join("mjlog")], &[]).unwrap();
    let scratch = Scratch::new("corpus-roundtrip");
    let (a, b) = (scratch.0.join("a"), scratch.0.join("b"));
    let sa = run(&files, &a);

    // write each game as <log id>__<game id>.xml so that the second ingest keeps the log id (and date) and
    // its games can be matched to the first's
    let xml_dir = scratch.0.join("xml");
    std::fs::create_dir_all(&xml_dir).unwrap();
    let games_a = haifu_ingest::stored::read_games(&a).unwrap();
    let mut xml_a: HashMap<i64, String> = HashMap::new();
    for (id, g) in &games_a {
        let stem = g.log_id.clone().unwrap_or_else(|| "nolog".into());
        let xml = g.to_mjlog();
        std::fs::write(xml_dir.join(format!("{stem}__{id}.xml")), &xml).unwrap();
        xml_a.insert(*id, xml);
    }
    let sb = run(&haifu_ingest::source::expand_inputs(std::slice::from_ref(&xml_dir), &[]).unwrap(), &b);
    assert_eq!(sb.games_ingested, sa.games_ingested, "every exported game ingests again: {:?}", sb.quarantined.first());
    assert_eq!((sb.rounds, sb.events, sb.decisions), (sa.rounds, sa.events, sa.decisions));

    // the XML written from the second dataset is the same text
    let games_b = haifu_ingest::stored::read_games(&b).unwrap();
    let map = id_map(&b);
    for (id, g) in &games_b {
        let a_id = map[id];
        assert_eq!(&g.to_mjlog(), &xml_a[&a_id], "game {a_id}");
    }

    // every table equal, with B's ids mapped to A's; source columns differ by design
    let mapping = DataFrame::new(
        map.len(),
        vec![
            Column::new("game_id".into(), map.keys().copied().collect::<Vec<i64>>()),
            Column::new("a_id".into(), map.values().copied().collect::<Vec<i64>>()),
        ],
    )
    .unwrap();
    let keys: [(&str, &[&str]); 4] = [
        ("games", &["game_id"]),
        ("rounds", &["game_id", "round"]),
        ("events", &["game_id", "index"]),
        ("decisions", &["game_id", "event_index"]),
    ];
    for (table, key) in keys {
        // the source columns differ by design (another file); only `games` has them
        let drop_cols: Vec<&str> = if table == "games" { vec!["source_file", "source_hash"] } else { Vec::new() };
        let sort: Vec<PlSmallStr> = key.iter().map(|k| (*k).into()).collect();
        let left = scan(&a, table)
            .select([all().exclude_cols(drop_cols.clone()).as_expr()])
            .sort(sort.clone(), SortMultipleOptions::default())
            .collect()
            .unwrap();
        let right = scan(&b, table)
            .join(mapping.clone().lazy(), [col("game_id")], [col("game_id")], JoinArgs::new(JoinType::Inner))
            .with_column(col("a_id").alias("game_id"))
            .select([all().exclude_cols(["a_id"]).as_expr()])
            .select([all().exclude_cols(drop_cols.clone()).as_expr()])
            .sort(sort, SortMultipleOptions::default())
            .collect()
            .unwrap();
        assert_eq!(left.height(), right.height(), "{table} rows");
        assert!(left.equals_missing(&right), "{table} differs after the round trip");
        println!("round trip: {table} equal ({} rows)", left.height());
    }
}

/// game id in dataset B -> game id in dataset A, from B's file names `<log id>__<A id>.xml`.
fn id_map(b: &Path) -> HashMap<i64, i64> {
    let games = scan(b, "games").select([col("game_id"), col("source_file")]).collect().unwrap();
    let ids = games.column("game_id").unwrap().i64().unwrap();
    let files = games.column("source_file").unwrap().str().unwrap();
    let mut seen = HashSet::new();
    (0..games.height())
        .map(|i| {
            let f = files.get(i).unwrap();
            let a: i64 = f.rsplit("__").next().unwrap().trim_end_matches(".xml").parse().unwrap();
            assert!(seen.insert(a), "two games map to {a}");
            (ids.get(i).unwrap(), a)
        })
        .collect()
}
