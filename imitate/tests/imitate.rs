//! The lookup imitator (SPEC 4) and its evaluation (SPEC 4.1) on hands and tables worked out by hand: the
//! thesis example, mirror folding with a self-mirror pair, tie order, isolated honors, unknown befores; then a
//! small dataset written with the ingest testkit and sequence tables written here, whose counts per player and
//! table variant are computed by hand in the comments.

use std::path::{Path, PathBuf};

use haifu_imitate::eval::{self, decision_results, table_sets};
use haifu_imitate::table::{load_table, write_sequences, SequenceRow};
use haifu_imitate::{
    estimator_confusion, rank, rank_of, Counts, EvalOptions, LoadOptions, Prepared, Reason, Selection, SeqTable,
    StrategyMode, TableVariant, Tables, TestData, Winds, ALL_SCOPE,
};
use haifu_mining::{Shape, Strategy};
use haifu_rules::{HandNotation, Kind};
use haifu_testkit::{thesis_round, GameBuilder, Scratch};

fn key(s: &str) -> u32 {
    Shape::parse(s).unwrap().key()
}

fn table(pairs: &[(&str, &str, u32)]) -> SeqTable {
    SeqTable::from_pairs(pairs.iter().map(|&(b, a, n)| ((key(b), key(a)), n)))
}

fn state(hand: &str) -> [u8; 34] {
    hand.parse::<HandNotation>().unwrap().counts
}

fn kinds(list: &[&str]) -> Vec<Kind> {
    list.iter().map(|k| k.parse().unwrap()).collect()
}

fn kind(k: &str) -> u8 {
    k.parse::<Kind>().unwrap().index()
}

// ---- ranking ----

#[test]
fn thesis_example_puts_6p_first() {
    // pin 3336678 mirrors to 2344777 (3->7, 6->4, 7->3, 8->2); 333678 to 234777
    let t = table(&[
        ("3336678", "333678", 5), // 6p
        ("2344777", "234777", 3), // its mirror
        ("3336678", "336678", 7), // 3p, no mirror count
        ("3336678", "333667", 2), // 8p, mirror (2344777, 344777) below
        ("2344777", "344777", 4),
    ]);
    let r = rank(&state("3336678p33345s22z"), Winds::default(), &t);
    // 6p: 5 + 3 = 8; 3p: 7 + 0; 8p: 2 + 4 = 6; 7p: 0 + 0. Sou 33345 unknown, 22z a pair: nothing else
    assert_eq!(r.kinds(), kinds(&["6p", "3p", "8p", "7p"]));
    match &r.candidates[0].reason {
        Reason::Sequence { before, after, count, mirror_before, mirror_after, mirror_count, score, .. } => {
            assert_eq!((before.to_string(), after.to_string()), ("3336678".into(), "333678".into()));
            assert_eq!((mirror_before.to_string(), mirror_after.to_string()), ("2344777".into(), "234777".into()));
            assert_eq!((*count, *mirror_count, *score), (5, 3, 8));
        }
        other => panic!("{other:?}"),
    }
    let scores: Vec<u64> = r
        .candidates
        .iter()
        .map(|c| match c.reason {
            Reason::Sequence { score, .. } => score,
            _ => panic!(),
        })
        .collect();
    assert_eq!(scores, [8, 7, 6, 0]);
    // the fast path agrees with the list
    let p = Prepared::new(&state("3336678p33345s22z"), Winds::default());
    for (i, k) in r.kinds().iter().enumerate() {
        assert_eq!(rank_of(&p, &t, k.index()).rank, Some(i as u16 + 1));
    }
    assert_eq!(rank_of(&p, &t, kind("5s")).rank, None);
    assert!(rank_of(&p, &t, kind("S")).answered);
}

#[test]
fn self_mirror_pair_counts_twice_and_ties_go_to_the_lower_kind() {
    // (55, 5) is its own mirror: 4 + 4
    let t = table(&[("55", "5", 4), ("46", "4", 3), ("46", "6", 1)]);
    let r = rank(&state("55m46p1123456789s"), Winds::default(), &t);
    let score = |k: &str| {
        r.candidates
            .iter()
            .find(|c| c.kind == k.parse::<Kind>().unwrap())
            .map(|c| match c.reason {
                Reason::Sequence { score, .. } => score,
                _ => panic!(),
            })
            .unwrap()
    };
    assert_eq!(score("5m"), 8);
    // 46 is its own mirror too: removing 6 (after 4) mirrors to removing 4 (after 6), so both score 3 + 1
    assert_eq!((score("4p"), score("6p")), (4, 4));
    // 5m 8 first; then the 4-4 tie in kind order: 4p before 6p; sou 123456789 unknown
    assert_eq!(r.kinds(), kinds(&["5m", "4p", "6p"]));

    // ties across suits: "19" mirrors onto itself, so 1 and 9 always tie; man before sou
    let t = table(&[("19", "1", 2)]);
    let r = rank(&state("19m19s123456p5678p"), Winds::default(), &t);
    assert_eq!(r.kinds(), kinds(&["1m", "9m", "1s", "9s"]));
}

#[test]
fn isolated_honors_come_first_non_value_winds_before_value_honors() {
    let empty = SeqTable::default();
    let hand = state("123m456p789s12345z"); // E S W N P once each
                                            // East round, East seat: S W N are not value; E and P are
    let r = rank(&hand, Winds::default(), &empty);
    assert_eq!(r.kinds(), kinds(&["S", "W", "N", "E", "P"]));
    assert!(matches!(r.candidates[0].reason, Reason::IsolatedHonor { value: false }));
    assert!(matches!(r.candidates[4].reason, Reason::IsolatedHonor { value: true }));
    // South seat: S turns value
    let south = Winds { round: Kind::EAST, seat: "S".parse().unwrap() };
    assert_eq!(rank(&hand, south, &empty).kinds(), kinds(&["W", "N", "E", "S", "P"]));
    // a pair is not isolated; the honors go before any suit candidate
    let t = table(&[("1234", "234", 9)]);
    let r = rank(&state("1234m456p78s11225z"), Winds::default(), &t);
    assert_eq!(r.kinds(), kinds(&["P", "1m", "2m", "3m", "4m"]));
    // a decision answered only by isolated honors counts as answered
    let p = Prepared::new(&hand, Winds::default());
    assert!(rank_of(&p, &empty, kind("1m")).answered);
    assert_eq!(rank_of(&p, &empty, kind("W")).rank, Some(2));
}

#[test]
fn unknown_before_yields_nothing_even_with_a_known_mirror() {
    // only the mirror of the thesis pair is in the table
    let t = table(&[("2344777", "234777", 3)]);
    let r = rank(&state("3336678p33345s22z"), Winds::default(), &t);
    assert!(r.candidates.is_empty());
    assert!(matches!(r.suits[1], haifu_imitate::rank::SuitNote::Unknown { mirror_known: true, .. }));
    let p = Prepared::new(&state("3336678p33345s22z"), Winds::default());
    let ranked = rank_of(&p, &t, kind("6p"));
    assert!(!ranked.answered && ranked.rank.is_none(), "an empty list: N_noneH");
    // the mirror hand itself is known and reads the pair directly
    let r = rank(&state("2344777p33345s22z"), Winds::default(), &t);
    assert_eq!(r.kinds()[0], "4p".parse::<Kind>().unwrap());
}

// ---- a small dataset ----

/// The thesis round of [`thesis_round`] (its documentation lists A1..A3 and B1..B3).
fn game_2024() -> GameBuilder {
    thesis_round()
}

/// Another year: A's decisions here must never count in a 2024 test.
fn game_2023() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.deal(["3336678p3334s22z", "19m19p19s1234567z", "123456789m1112p", "5566778899m777z"]);
    g.draw(0, "5s").discard(0, "3p");
    g.draw(1, "2m").discard(1, "4z");
    g.draw_tsumogiri(2, "3p").draw_tsumogiri(3, "1z");
    g.exhaust_wall().exhaustive(&[]);
    g.finish();
    g
}

fn dataset(dir: &Path) -> PathBuf {
    haifu_ingest::pipeline::ingest_logs(
        dir,
        &[
            ("2024010112gm-00a9-0000-0000aaaa.xml", game_2024().xml()),
            ("2023010112gm-00a9-0000-0000bbbb.xml", game_2023().xml()),
        ],
    )
    .expect("the logs ingest")
}

fn row<'a>(scope: &'a str, strategy: Strategy, before: &'a str, after: &'a str, count: u64) -> SequenceRow<'a> {
    SequenceRow { scope, strategy, source: "draw", before, after, count }
}

/// The tables, by hand:
/// - A/all: (3336678, 333678) 5 [6p], its mirror (2344777, 234777) 3, (3336678, 336678) 7 [3p],
///   (133345, 33345) 2 [1s]
/// - B/all: (1289, 129) 1 [8m]; B/chanta: (1289, 128) 4 [9m]
/// - ALL/all: A's rows, plus (3336678, 336678) 10 more and (133345, 13334) 5 [5s], and B's row; the 10 more
///   come in a `chi` row (sources sum)
fn tables(dir: &Path) -> PathBuf {
    use Strategy::*;
    let t = dir.join("tables");
    let mut rows = vec![
        row("A", All, "3336678", "333678", 5),
        row("A", All, "2344777", "234777", 3),
        row("A", All, "3336678", "336678", 7),
        row("A", All, "133345", "33345", 2),
        row("B", All, "1289", "129", 1),
        row("B", Chanta, "1289", "128", 4),
        row(ALL_SCOPE, All, "3336678", "333678", 5),
        row(ALL_SCOPE, All, "2344777", "234777", 3),
        row(ALL_SCOPE, All, "3336678", "336678", 7),
        row(ALL_SCOPE, All, "133345", "33345", 2),
        row(ALL_SCOPE, All, "133345", "13334", 5),
        row(ALL_SCOPE, All, "1289", "129", 1),
        row(ALL_SCOPE, Chanta, "1289", "128", 4),
    ];
    rows.push(SequenceRow { source: "chi", ..row(ALL_SCOPE, All, "3336678", "336678", 10) });
    write_sequences(&t, &rows).unwrap();
    std::fs::write(
        t.join("meta.json"),
        r#"{"haifu": "test", "options": {"years": [2023], "rounds": "all"}, "tables_version": 2}"#,
    )
    .unwrap();
    t
}

fn load(dir: &Path, players: Option<&[&str]>) -> (TestData, Tables) {
    let data_dir = dataset(dir);
    let sel = Selection {
        years: vec![2024],
        players: players.map(|p| p.iter().map(|s| s.to_string()).collect()),
        min_games: None,
    };
    let data = TestData::load(&data_dir, &sel).unwrap();
    let tables = Tables::load(&tables(dir), &LoadOptions::default()).unwrap();
    (data, tables)
}

fn counts_of(report: &eval::EvalReport, player: &str, v: TableVariant) -> Counts {
    let p = report.players.iter().find(|p| p.player == player).unwrap();
    p.variants.iter().find(|r| r.variant == v).unwrap().counts
}

#[test]
fn tables_load_sum_sources_and_derive_all_but_own() {
    let s = Scratch::new("imitate-tables");
    let t = tables(&s.0);
    let all = Tables::load(&t, &LoadOptions::default()).unwrap();
    assert_eq!(all.scopes(), ["A", "ALL", "B"]);
    assert_eq!(all.others("A").collect::<Vec<_>>(), ["B"]);
    let a = all.get("A", Strategy::All).unwrap();
    let everyone = all.get(ALL_SCOPE, Strategy::All).unwrap();
    assert_eq!(everyone.count(key("3336678"), key("336678")), 17, "draw 7 + chi 10");
    // all-but-own = all - own, pair by pair
    let rest = all.all_but_own("A", Strategy::All).unwrap();
    for (b, a_key, n) in everyone.iter() {
        assert_eq!(rest.count(b, a_key), n - a.count(b, a_key));
    }
    assert_eq!(rest.count(key("3336678"), key("336678")), 10);
    assert!(!rest.knows(key("2344777")), "only A saw the mirror");
    assert_eq!(rest.total(), everyone.total() - a.total());
    // keeping one source
    let draws = Tables::load(&t, &LoadOptions { sources: Some(vec!["draw".into()]), ..Default::default() }).unwrap();
    assert_eq!(draws.get(ALL_SCOPE, Strategy::All).unwrap().count(key("3336678"), key("336678")), 7);
    // one scope only
    let b = load_table(&t, "B", Strategy::Chanta, None).unwrap();
    assert_eq!(b.count(key("1289"), key("128")), 4);
    let err = load_table(&t, "Z", Strategy::All, None).unwrap_err().to_string();
    assert!(err.contains("unknown player \"Z\"") && err.contains("A, ALL, B"), "{err}");
    let err = Tables::load(&s.0.join("nowhere"), &LoadOptions::default()).unwrap_err().to_string();
    assert!(err.contains("nowhere/sequences.parquet"), "{err}");
}

#[test]
fn test_data_reads_the_decisions_of_the_year() {
    let s = Scratch::new("imitate-data");
    let (data, _) = load(&s.0, None);
    assert_eq!(data.players, ["A", "B", "C", "D"]);
    assert_eq!(data.games, [1, 1, 1, 1]);
    let a = data.player_decisions(0);
    assert_eq!(a.len(), 3, "2024 only");
    assert_eq!(
        a.iter().map(|d| (d.turn, d.discard, d.in_riichi)).collect::<Vec<_>>(),
        [(1, kind("6p"), false), (2, kind("1s"), false), (3, kind("8s"), true)]
    );
    assert_eq!(a[0].prepared, Prepared::new(&state("3336678p33345s22z"), Winds::default()));
    assert!(a.iter().all(|d| d.won && d.realised == 0), "riichi + tsumo: none of the three strategies");
    let b = data.player_decisions(1);
    assert_eq!(b.len(), 3);
    // B sits South: W is B's only non-value honor; all seven honors are isolated
    assert_eq!(b[0].prepared.isolated_honors(), [29, 30, 27, 28, 31, 32, 33].map(|k| k as u8));
    // B's first hand has no 4-6 tile and 13 terminals and honors: chanta
    assert_eq!(b[0].estimate, Some(Strategy::Chanta));
    assert_eq!(a[0].estimate, None);
    let err = TestData::load(
        &data.dataset,
        &Selection { years: vec![2024], players: Some(vec!["Z".into()]), min_games: None },
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("unknown player Z"), "{err}");
    let err =
        TestData::load(&data.dataset, &Selection { years: vec![1999], ..Default::default() }).unwrap_err().to_string();
    assert!(err.contains("no decisions for years 1999"), "{err}");
}

#[test]
fn eval_counts_by_hand() {
    let s = Scratch::new("imitate-eval");
    let (data, tables) = load(&s.0, Some(&["A", "B"]));
    let opts = EvalOptions::default();
    let r = eval::run(&data, &tables, &TableVariant::EVERY, &opts).unwrap();

    // A own: A1 6p first (8 vs 3p 7), A2 1s first (2 vs 0), A3 in riichi left out
    let own = counts_of(&r, "A", TableVariant::Own);
    assert_eq!(own, Counts { n_all: 2, c_first: 2, in_riichi: 1, ..Default::default() });
    // A all: A1 3p 17 > 6p 8: second; A2 5s 5 > 1s 2: second
    let all = counts_of(&r, "A", TableVariant::All);
    assert_eq!(all, Counts { n_all: 2, c_second: 2, in_riichi: 1, ..Default::default() });
    // A all-but-own: A1 3p 10, then 6p 7p 8p at 0 in kind order: 6p second; A2 5s 5 then 1s: second
    let abo = counts_of(&r, "A", TableVariant::AllButOwn);
    assert_eq!(abo, Counts { n_all: 2, c_second: 2, in_riichi: 1, ..Default::default() });
    // A others = B's table: knows neither 3336678 nor 133345, and A holds a pair of South: empty lists
    let p = r.players.iter().find(|p| p.player == "A").unwrap();
    let others = p.variants.iter().find(|v| v.variant == TableVariant::Others).unwrap();
    let o = others.others.as_ref().unwrap();
    assert_eq!(o.tables.len(), 1);
    assert_eq!(o.tables[0].0, "B");
    assert_eq!(o.tables[0].1, Counts { n_all: 2, n_none_hand: 2, in_riichi: 1, ..Default::default() });
    assert_eq!(o.coverage.mean, 0.0);
    assert_eq!(o.r_first.n, 0, "no answered decision: no rate");

    // B own: B1 N after W (isolated honors W N E S P F C): second. B2 the six honors W E S P F C, then man
    // 1289: 2m and 8m tie at 1 (1289 and 129 mirror onto 1289 and 189), 2m first: 8m is 8th. B3 only honors
    // answer: 7p not listed
    let b_own = counts_of(&r, "B", TableVariant::Own);
    assert_eq!(b_own, Counts { n_all: 3, c_second: 1, ..Default::default() });
    assert_eq!(b_own.r_first(), Some(0.0));
    assert_eq!(b_own.r_top3(), Some(1.0 / 3.0));
    assert_eq!(b_own.coverage(), Some(1.0));

    // overall pools the players
    let overall_own = r.overall.iter().find(|(v, _)| *v == TableVariant::Own).unwrap().1;
    assert_eq!(overall_own, Counts { n_all: 5, c_first: 2, c_second: 1, in_riichi: 1, ..Default::default() });
    for (_, c) in &r.overall {
        assert!(c.r_top3() >= c.r_first());
        assert_eq!(c.coverage(), (c.n_all > 0).then(|| c.answered() as f64 / c.n_all as f64));
    }

    // per-decision outcomes
    let res = decision_results(&data, &tables, "A", TableVariant::Own, &opts).unwrap();
    assert_eq!(res.len(), 1);
    let ranks: Vec<_> = res[0].1.iter().map(|d| (d.turn, d.answered, d.rank, d.in_riichi)).collect();
    assert_eq!(ranks, [(1, true, Some(1), false), (2, true, Some(1), false), (3, false, None, true)]);

    // riichi discards included: A3 (8s; sou 333458 unknown everywhere) has an empty list
    let inc = EvalOptions { include_riichi: true, ..opts };
    let r = eval::run(&data, &tables, &[TableVariant::Own], &inc).unwrap();
    assert_eq!(
        counts_of(&r, "A", TableVariant::Own),
        Counts { n_all: 3, n_none_hand: 1, c_first: 2, in_riichi: 1, ..Default::default() }
    );
}

#[test]
fn eval_with_strategies() {
    let s = Scratch::new("imitate-strategy");
    let (data, tables) = load(&s.0, Some(&["A", "B"]));
    // estimated: A never decides (no value pair, two honors, middle tiles): N_noneS; B decides chanta at B1
    let est = EvalOptions { strategy: StrategyMode::Estimated, include_riichi: false };
    let r = eval::run(&data, &tables, &[TableVariant::Own, TableVariant::All], &est).unwrap();
    assert_eq!(
        counts_of(&r, "A", TableVariant::Own),
        Counts { n_all: 2, n_none_strategy: 2, in_riichi: 1, ..Default::default() }
    );
    // B chanta table (1289, 128) 4: B2 ranks 1m and 9m (4 each, 1289 is self-mirror) then 2m, 8m: 8m is 10th
    assert_eq!(counts_of(&r, "B", TableVariant::Own), Counts { n_all: 3, c_second: 1, ..Default::default() });
    let res = decision_results(&data, &tables, "B", TableVariant::Own, &est).unwrap();
    assert_eq!(res[0].1.iter().map(|d| d.rank).collect::<Vec<_>>(), [Some(2), Some(10), None]);
    assert!(res[0].1.iter().all(|d| d.strategy == Some(Strategy::Chanta)));
    // fixed: yakuhai has no table anywhere: only isolated honors answer (B), A's lists are empty
    let fixed = EvalOptions { strategy: StrategyMode::Fixed(Strategy::Yakuhai), include_riichi: false };
    let r = eval::run(&data, &tables, &[TableVariant::All], &fixed).unwrap();
    assert_eq!(
        counts_of(&r, "A", TableVariant::All),
        Counts { n_all: 2, n_none_hand: 2, in_riichi: 1, ..Default::default() }
    );
    assert_eq!(counts_of(&r, "B", TableVariant::All), Counts { n_all: 3, c_second: 1, ..Default::default() });

    // the estimator on won rounds: A won round 0 with riichi + tsumo, undetermined throughout
    let c = estimator_confusion(&data);
    assert_eq!(c.total_rounds(), 1);
    assert_eq!(c.rounds[0][0], 1);
    assert_eq!(c.decisions[0][0], 3);
}

#[test]
fn players_without_tables() {
    let s = Scratch::new("imitate-missing");
    let (data, tables) = load(&s.0, None);
    // C and D have no table: skipped for own when picked by the whole year
    let r = eval::run(&data, &tables, &[TableVariant::Own], &EvalOptions::default()).unwrap();
    assert_eq!(r.skipped.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(), ["C", "D"]);
    assert_eq!(r.players.len(), 2);
    // `all` needs no own table: everyone is evaluated; C's others are A and B
    let r = eval::run(&data, &tables, &[TableVariant::All, TableVariant::Others], &EvalOptions::default()).unwrap();
    assert_eq!(r.players.len(), 4);
    assert_eq!(table_sets(&tables, "C", TableVariant::Others, &[Strategy::All]).unwrap().len(), 2);
    // named explicitly: an error
    let named = TestData::load(
        &data.dataset,
        &Selection { years: vec![2024], players: Some(vec!["C".into()]), min_games: None },
    )
    .unwrap();
    let err = eval::run(&named, &tables, &[TableVariant::Own], &EvalOptions::default()).unwrap_err().to_string();
    assert!(err.contains("unknown player \"C\"") && err.contains("sequences.parquet"), "{err}");
    // min games
    let two = TestData::load(&data.dataset, &Selection { years: vec![2023, 2024], players: None, min_games: Some(2) })
        .unwrap();
    assert_eq!(two.players, ["A", "B", "C", "D"]);
    assert_eq!(two.games, [2, 2, 2, 2]);
    let err = TestData::load(&data.dataset, &Selection { years: vec![2024], players: None, min_games: Some(2) });
    assert!(err.is_err() || err.unwrap().players.is_empty());
}
