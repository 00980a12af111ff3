//! Mining (SPEC 2, 3) on a small dataset the project writes itself, with every count worked out by hand from
//! the script; both engines must give exactly those tables. Then an independent oracle: sequences rebuilt
//! from the decisions table's `hand`, `melds` and `discard` columns (not from the per-suit digit strings the
//! miner reads) must equal the mined `ALL` table, here and on the real corpus when it is present.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use arrow::array::AsArray;
use arrow::datatypes::{DataType, UInt32Type, UInt8Type};
use haifu_mining::dataset::{cast_to, for_each_batch, hand_counts, hands, part_files};
use haifu_mining::mine::SOURCES;
use haifu_mining::tables::{read_counts, write_tables};
use haifu_mining::{mine, Backend, MineOptions, Mined, RoundsMode, Shape, Strategy, StrategyRounds, ALL_SCOPE};
use haifu_record::tags::DrawKind;
use haifu_testkit::{corpus_dir, GameBuilder, Scratch, Win};

/// Round 1 (East 1, A deals; seats A B C D):
/// - A draws 5s: 3336678p33345s22z (the thesis hand), discards 6p: pin (3336678, 333678)       [A1]
/// - B chi 6p with 7p8p: pin 1178 + 6 = 11678, discards 1p: (11678, 1), source chi              [B1]
/// - C draws and discards 6z (honors only: no sequence)                                          [C1]
/// - D draws 9s: sou 22288 + 9, discards it: (222889, 22288)                                     [D1]
/// - A draws and discards 7z; B draws 5z and discards it                                        [A2, B2]
/// - D rons 5z with haku (yakuhai): 222m 888m 222s 555z 88s
///
/// Round 2 (East 2, B deals):
/// - B draws 9p: pin 1119, discards it: (1119, 111)                                             [B3]
/// - C draws 8s: sou 999 + 8, discards it: (8999, 999)                                           [C2]
/// - D draws 6z, discards 4z                                                                      [D2]
/// - A draws 9m: man 234567 + 9, discards it: (2345679, 234567)                                  [A3]
/// - B, C, D draw and discard honors                                                              [B4, C3, D3]
/// - A draws 5s and wins by tsumo with tanyao (234m 567m 234p 678s 55s)
///
/// Round 3 (East 3, C deals), no win: C draws 1m, man 111999 + 1, discards 9m: (1111999, 111199)     [C4]
/// - D draws 7z and declares nine terminals (an abortive draw): only C's decision is in a round not won.
fn game() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    // the indicator 4p (dora 5p) is nobody's
    g.deal_with_dora(["3336678p3334s22z", "1178p123456s789m", "111999m999p1234z", "222m888m222s55z88s"], "4p");
    g.draw(0, "5s").discard(0, "6p");
    g.chi(1, "7p", "8p").discard(1, "1p");
    g.draw(2, "6z").discard(2, "6z");
    g.draw(3, "9s").discard(3, "9s");
    g.draw(0, "7z").discard(0, "7z");
    g.draw(1, "5z").discard(1, "5z");
    // haku, toitoi, three concealed triplets: mangan
    g.ron(1, &[(3, Win::new(8000).fu(50).yaku(&[(29, 2), (28, 2), (18, 1)]))]);

    // the indicator 6p (dora 7p) is nobody's
    g.deal_with_dora(["234m567m234p678s5s", "119m111p111s1234z", "999p999s5566z777z", "3388m3388p3377s4z"], "6p");
    g.draw(1, "9p").discard(1, "9p");
    g.draw(2, "8s").discard(2, "8s");
    g.draw(3, "6z").discard(3, "4z");
    g.draw(0, "9m").discard(0, "9m");
    g.draw(1, "7z").discard(1, "7z");
    g.draw(2, "1z").discard(2, "1z");
    g.draw(3, "2z").discard(3, "2z");
    // tsumo, tanyao, 30 fu (20, 2 tsumo, 2 single wait): 500-1000
    g.draw(0, "5s").tsumo(0, Win::new(2000).fu(30).yaku(&[(0, 1), (8, 1)]));

    g.deal(["2345m2345p2345s1z", "6789m6789p6789s2z", "111999m19p19s123z", "19p19s123334567z"]);
    g.draw(2, "1m").discard(2, "9m");
    g.draw(3, "7z").abort(DrawKind::Yao9, &[3]);
    g.finish();
    g
}

type Row = (String, Strategy, &'static str, String, String, u64);

fn rows(m: &Mined) -> Vec<Row> {
    m.counts
        .iter()
        .map(|c| {
            (
                m.scopes[c.scope as usize].clone(),
                Strategy::EVERY[usize::from(c.strategy)],
                SOURCES[usize::from(c.source)],
                Shape::from_key(c.before).to_string(),
                Shape::from_key(c.after).to_string(),
                c.count,
            )
        })
        .collect()
}

fn r(scope: &str, s: Strategy, source: &'static str, b: &str, a: &str, n: u64) -> Row {
    (scope.to_string(), s, source, b.to_string(), a.to_string(), n)
}

/// The small dataset mined with the defaults and its tables written (the scratch folder, the run, the tables).
fn written_tables(name: &str) -> (Scratch, haifu_mining::Mined, PathBuf) {
    let s = Scratch::new(name);
    let m = mine(&dataset(&s), &MineOptions::default()).unwrap();
    let out = s.0.join("tables");
    write_tables(&out, &m, &serde_json::json!({"test": true})).unwrap();
    (s, m, out)
}

fn dataset(s: &Scratch) -> PathBuf {
    haifu_ingest::pipeline::ingest_logs(&s.0, &[("2024010112gm-00a9-0000-0000aaaa.xml", game().xml())])
        .expect("the logs ingest")
}

/// Mines with both engines and checks they agree; returns the Rust engine's result.
fn both(ds: &Path, opts: MineOptions) -> Mined {
    let rust = mine(ds, &MineOptions { engine: Backend::Rust, ..opts.clone() }).unwrap();
    let pol = mine(ds, &MineOptions { engine: Backend::Polars, ..opts }).unwrap();
    assert_eq!(rows(&rust), rows(&pol), "the engines disagree on the counts");
    assert_eq!(rust.stats, pol.stats, "the engines disagree on the stats");
    assert_eq!((&rust.scopes, &rust.games, rust.decisions_read), (&pol.scopes, &pol.games, pol.decisions_read));
    rust
}

fn sorted(mut v: Vec<Row>) -> Vec<Row> {
    v.sort_by(|a, b| (&a.0, a.1, a.2, &a.3, &a.4).cmp(&(&b.0, b.1, b.2, &b.3, &b.4)));
    v
}

/// The `all`-strategy rows of rounds 1 and 2 for one scope (every player's when `who` is `ALL`).
fn won_round_rows(who: &str) -> Vec<Row> {
    use Strategy::All;
    let each = [
        ("A", "draw", "3336678", "333678"),
        ("B", "chi", "11678", "1"),
        ("D", "draw", "222889", "22288"),
        ("B", "draw", "1119", "111"),
        ("C", "draw", "8999", "999"),
        ("A", "draw", "2345679", "234567"),
    ];
    each.iter().filter(|e| who == ALL_SCOPE || e.0 == who).map(|e| r(who, All, e.1, e.2, e.3, 1)).collect()
}

#[test]
fn default_options_count_every_round_and_the_winners_strategies() {
    use Strategy::*;
    let s = Scratch::new("mine-default");
    let ds = dataset(&s);
    let m = both(&ds, MineOptions::default());
    assert_eq!(m.scopes, ["ALL", "A", "B", "C", "D"]);
    assert_eq!(m.games, [1, 1, 1, 1, 1]);
    assert_eq!(m.decisions_read, 6 + 7 + 1);

    let mut want = Vec::new();
    for scope in ["ALL", "A", "B", "C", "D"] {
        want.extend(won_round_rows(scope));
        // round 3 (drawn): C's (1111999, 111199)
        if scope == "ALL" || scope == "C" {
            want.push(r(scope, All, "draw", "1111999", "111199", 1));
        }
    }
    // strategies, winners only: D's yakuhai win (round 1), A's tanyao win (round 2)
    for scope in ["ALL", "D"] {
        want.push(r(scope, Yakuhai, "draw", "222889", "22288", 1));
    }
    for scope in ["ALL", "A"] {
        want.push(r(scope, Tanyao, "draw", "2345679", "234567", 1));
    }
    assert_eq!(sorted(rows(&m)), sorted(want));

    // what fed each table: ALL/all every decision of 3 rounds; D's yakuhai 1 decision in 1 round
    let st = |scope: &str, s: Strategy| m.stats[m.scope_index(scope).unwrap()][s as usize];
    assert_eq!((st("ALL", All).rounds, st("ALL", All).decisions, st("ALL", All).sequences), (3, 14, 7));
    assert_eq!((st("D", Yakuhai).rounds, st("D", Yakuhai).decisions, st("D", Yakuhai).sequences), (1, 1, 1));
    assert_eq!((st("A", Tanyao).rounds, st("A", Tanyao).decisions), (1, 1));
    assert_eq!(st("ALL", Chanta), Default::default());
    assert_eq!((st("B", All).rounds, st("B", All).decisions, st("B", All).distinct), (2, 4, 2));
}

#[test]
fn rounds_won_and_strategy_rounds_all() {
    use Strategy::*;
    let s = Scratch::new("mine-options");
    let ds = dataset(&s);
    let opts = MineOptions {
        rounds: RoundsMode::Won,
        strategy_rounds: StrategyRounds::All,
        players: Some(vec!["B".into()]),
        ..Default::default()
    };
    let m = both(&ds, opts);
    assert_eq!(m.scopes, ["ALL", "B"]);
    let mut want = won_round_rows("ALL");
    want.extend(won_round_rows("B"));
    // every player's decisions of round 1 feed yakuhai, of round 2 tanyao
    let round1 = [("A", "draw", "3336678", "333678"), ("B", "chi", "11678", "1"), ("D", "draw", "222889", "22288")];
    let round2 = [("B", "draw", "1119", "111"), ("C", "draw", "8999", "999"), ("A", "draw", "2345679", "234567")];
    for (strategy, round) in [(Yakuhai, &round1), (Tanyao, &round2)] {
        for scope in ["ALL", "B"] {
            for e in round.iter().filter(|e| scope == "ALL" || e.0 == scope) {
                want.push(r(scope, strategy, e.1, e.2, e.3, 1));
            }
        }
    }
    assert_eq!(sorted(rows(&m)), sorted(want));
    let st = |scope: usize, s: Strategy| m.stats[scope][s as usize];
    assert_eq!((st(0, All).rounds, st(0, All).decisions), (2, 13));
    assert_eq!((st(0, Yakuhai).rounds, st(0, Yakuhai).decisions), (1, 6));
    assert_eq!((st(1, Tanyao).rounds, st(1, Tanyao).decisions), (1, 2));
}

#[test]
fn players_by_games_and_unknown_names() {
    let s = Scratch::new("mine-players");
    let ds = dataset(&s);
    let m = mine(&ds, &MineOptions { min_games: Some(2), ..Default::default() }).unwrap();
    assert_eq!(m.scopes, ["ALL"], "nobody has two games");
    let e = mine(&ds, &MineOptions { players: Some(vec!["Z".into()]), ..Default::default() }).unwrap_err();
    assert!(e.to_string().contains("unknown player Z") && !e.to_string().contains("did you mean"), "{e}");
    let e = mine(&ds, &MineOptions { players: Some(vec!["b".into()]), ..Default::default() }).unwrap_err();
    assert!(e.to_string().contains(r#"unknown player b: "#) && e.to_string().ends_with(r#"did you mean "B"?"#), "{e}");
    // a year with no games names the years that have some
    let e = mine(&ds, &MineOptions { years: vec![2019], ..Default::default() }).unwrap_err().to_string();
    let there = e.split_once("(years there: ").map(|(_, y)| y.trim_end_matches(')')).unwrap_or_default();
    assert!(e.contains("2019") && !there.is_empty() && there.split(',').all(|y| y.parse::<i32>().is_ok()), "{e}");
}

#[test]
fn written_tables_read_back() {
    let (_s, m, out) = written_tables("mine-write");
    // every key of the counts has its digits in shapes.parquet, and the lookup holds no other key
    let (mut total, mut used) = (0, std::collections::BTreeSet::new());
    for_each_batch(&out.join("sequences.parquet"), &["before_key", "after_key", "count"], |b| {
        let key = |n: &str| cast_to(b, n, &DataType::UInt32, Path::new("t")).unwrap();
        let (bk, ak) = (key("before_key"), key("after_key"));
        let count = cast_to(b, "count", &DataType::UInt64, Path::new("t")).unwrap();
        for i in 0..b.num_rows() {
            used.insert(bk.as_primitive::<UInt32Type>().value(i));
            used.insert(ak.as_primitive::<UInt32Type>().value(i));
            total += count.as_primitive::<arrow::datatypes::UInt64Type>().value(i);
        }
        Ok(())
    })
    .unwrap();
    let mut lookup = Vec::new();
    for_each_batch(&out.join("shapes.parquet"), &["key", "digits", "tiles"], |b| {
        let (k, d) = (cast_to(b, "key", &DataType::UInt32, Path::new("t")).unwrap(), b.column(1).as_string::<i32>());
        let tiles = cast_to(b, "tiles", &DataType::UInt8, Path::new("t")).unwrap();
        for i in 0..b.num_rows() {
            let shape = Shape::parse(d.value(i)).unwrap();
            assert_eq!(shape.key(), k.as_primitive::<UInt32Type>().value(i), "{}", d.value(i));
            assert_eq!(shape.len() as u8, tiles.as_primitive::<UInt8Type>().value(i));
            lookup.push(shape.key());
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(lookup, used.into_iter().collect::<Vec<_>>(), "the lookup: the keys used, ascending, once");
    assert_eq!(total, m.counts.iter().map(|c| c.count).sum::<u64>());
    assert!(out.join("players.parquet").is_file() && out.join("meta.json").is_file());
    let left: Vec<_> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(!left.iter().any(|n| n.to_string_lossy().ends_with(".tmp")), "a temporary file is left: {left:?}");
}

#[test]
fn tables_of_an_older_layout_are_refused_with_mine_again() {
    let (_s, _, out) = written_tables("mine-old-layout");
    let meta: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("meta.json")).unwrap()).unwrap();
    assert_eq!(meta["tables_version"], 2);
    assert!(read_counts(&out, None).is_ok());
    // version 1 had no tables_version and no shapes.parquet (the digits were text columns)
    std::fs::write(out.join("meta.json"), r#"{"test": true}"#).unwrap();
    let e = read_counts(&out, None).unwrap_err().to_string();
    assert!(e.contains("layout version 1") && e.contains("mine again"), "{e}");
    std::fs::remove_file(out.join("shapes.parquet")).unwrap();
    let e = read_counts(&out, None).unwrap_err().to_string();
    assert!(e.contains("older haifu") && e.contains("shapes.parquet") && e.contains("mine again"), "{e}");
}

// ---- the oracle ----

/// Digits of one suit (0 man, 1 pin, 2 sou) of 34 counts, as a shape.
fn suit_shape(counts: &[u8; 34], suit: usize) -> Shape {
    let mut c = [0u8; 9];
    c.copy_from_slice(&counts[suit * 9..suit * 9 + 9]);
    Shape(c)
}

/// Kind index of an mjai-style tile name inside a meld string (`3p`, `5mr`, `E`...).
fn meld_kinds(meld: &str) -> Vec<usize> {
    let tiles = meld.split_once(':').map_or(meld, |(_, t)| t);
    let b = tiles.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() {
            let suit = match b[i + 1] {
                b'm' => 0,
                b'p' => 1,
                b's' => 2,
                other => panic!("meld {meld}: suit {}", other as char),
            };
            out.push(suit * 9 + usize::from(c - b'1'));
            i += 2;
            if i < b.len() && b[i] == b'r' {
                i += 1;
            }
        } else {
            out.push(27 + "ESWNPFC".find(c as char).unwrap_or_else(|| panic!("meld {meld}: {}", c as char)));
            i += 1;
        }
    }
    out
}

/// Every decision's sequences rebuilt from `hand` (after the draw or call), the newest meld (a chi or pon
/// decision's tiles before the call: the meld's three tiles) and `discard`: ALL/all counts per source.
fn oracle(dataset: &Path) -> BTreeMap<(&'static str, String, String), u64> {
    let mut out = BTreeMap::new();
    for path in part_files(dataset, "decisions", &[]).unwrap() {
        for_each_batch(&path, &["hand", "melds", "discard", "source"], |b| {
            let hand = hands(b, &path).unwrap();
            let melds = b.column_by_name("melds").unwrap().as_list::<i32>();
            let mv = arrow::compute::cast(melds.values(), &DataType::Utf8).unwrap();
            let mv = mv.as_string::<i32>();
            let discard = cast_to(b, "discard", &DataType::UInt8, &path).unwrap();
            let discard = discard.as_primitive::<UInt8Type>();
            let source = cast_to(b, "source", &DataType::Utf8, &path).unwrap();
            let source = source.as_string::<i32>();
            for i in 0..b.num_rows() {
                let counts = hand_counts(hand, i);
                let mut before = counts;
                let src = SOURCES.iter().find(|s| **s == source.value(i)).unwrap();
                if matches!(*src, "chi" | "pon") {
                    let last = melds.value_offsets()[i + 1] as usize - 1;
                    for k in meld_kinds(mv.value(last)) {
                        before[k] += 1;
                    }
                }
                let mut after = counts;
                after[usize::from(discard.value(i) / 4)] -= 1;
                for suit in 0..3 {
                    let (sb, sa) = (suit_shape(&before, suit), suit_shape(&after, suit));
                    if sb != sa {
                        *out.entry((*src, sb.to_string(), sa.to_string())).or_insert(0) += 1;
                    }
                }
            }
            Ok(())
        })
        .unwrap();
    }
    out
}

fn all_table(m: &Mined) -> BTreeMap<(&'static str, String, String), u64> {
    rows(m).into_iter().filter(|r| r.0 == ALL_SCOPE && r.1 == Strategy::All).map(|r| ((r.2, r.3, r.4), r.5)).collect()
}

#[test]
fn oracle_agrees_on_the_small_dataset() {
    let s = Scratch::new("mine-oracle");
    let ds = dataset(&s);
    let m = mine(&ds, &MineOptions::default()).unwrap();
    assert_eq!(all_table(&m), oracle(&ds));
}

#[test]
fn corpus_oracle_and_engines_agree() {
    let Some(corpus) = corpus_dir() else { return };
    let s = Scratch::new("mine-corpus");
    let inputs = haifu_ingest::source::expand_inputs(&[corpus.join("mjlog")], &[]).unwrap();
    let out = s.0.join("data");
    let opts = haifu_ingest::pipeline::IngestOptions { out: out.clone(), jobs: 0, strict: false, ..Default::default() };
    haifu_ingest::pipeline::ingest(&inputs, &opts, &haifu_ingest::pipeline::Silent).unwrap();
    let m = both(&out, MineOptions { min_games: Some(30), ..Default::default() });
    let want = oracle(&out);
    let got = all_table(&m);
    println!(
        "corpus: {} decisions, {} player scopes with >= 30 games, {} distinct ALL/all (source, before, after), {:.2}s",
        m.decisions_read,
        m.scopes.len() - 1,
        got.len(),
        m.elapsed_s
    );
    assert_eq!(got.len(), want.len());
    for (k, n) in &want {
        assert_eq!(got.get(k), Some(n), "{k:?}");
    }
    // every player scope's all-table sums into ALL's, never above it
    for c in m.counts.iter().filter(|c| c.scope != 0) {
        let all = m.counts.iter().find(|a| {
            a.scope == 0 && (a.strategy, a.source, a.before, a.after) == (c.strategy, c.source, c.before, c.after)
        });
        assert!(all.is_some_and(|a| a.count >= c.count));
    }
}

/// Table 5.1 counts a dora-type entry only where it scores: Tenhou lists ura dora at 0 han on every riichi win,
/// so before this the ura dora row equalled the riichi rows (issue 32). The scripted game: a double riichi
/// tsumo whose ura indicator gives nothing, then a ron without riichi.
#[test]
fn yaku_frequency_counts_no_ura_dora_at_zero_han() {
    let s = Scratch::new("mine-ura");
    let ds = haifu_ingest::pipeline::ingest_logs(
        &s.0,
        &[("2024010112gm-00a9-0000-0000bbbb.xml", haifu_testkit::scenes::riichi().xml())],
    )
    .expect("the scripted game ingests");
    let t = haifu_mining::stats::yaku_frequency(&ds, &[]).expect("table 5.1");
    let wins_of = |id: &str| {
        t.rows.iter().find(|r| matches!(&r[0], haifu_mining::report::Cell::Text(x) if x == id)).map(|r| r[2].clone())
    };
    assert_eq!(wins_of("21"), Some(haifu_mining::report::Cell::int(1)), "the double riichi");
    assert_eq!(wins_of("53"), None, "ura dora at 0 han is no win with ura dora");
}
