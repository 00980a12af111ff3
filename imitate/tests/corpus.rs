//! The imitator on the real corpus (../shared/corpus, read in place): ingest the mjlog games, mine the
//! sequences of the generation years (`haifu_mining`, SPEC 2 and 3 defaults), and
//! evaluate the test year's players: the invariants of SPEC 4.1 hold for every player and variant, the
//! all-but-own table is ALL minus own, and the ranking speed is printed (one thread, then all).
//! Passes with a line saying so when the corpus is absent.

use std::path::Path;
use std::time::Instant;

use haifu_imitate::eval::{self, evaluate, table_sets};
use haifu_imitate::experiments::{own_vs_all, TwoByTwo};
use haifu_imitate::{
    estimator_confusion, EvalOptions, LoadOptions, Selection, StrategyMode, TableVariant, Tables, TestData, ALL_SCOPE,
};
use haifu_ingest::pipeline::{ingest, IngestOptions, Silent};
use haifu_mining::tables::write_tables;
use haifu_mining::{MineOptions, Strategy};
use haifu_testkit::Scratch;

/// The generation tables of `years`: every player with at least `min_games` games, SPEC 3 defaults.
fn mine(dataset: &Path, years: &[i32], min_games: u32, out: &Path) {
    let opts = MineOptions { years: years.to_vec(), min_games: Some(min_games), ..Default::default() };
    let m = haifu_mining::mine(dataset, &opts).unwrap();
    write_tables(out, &m, &serde_json::json!({"options": opts})).unwrap();
}

#[test]
#[allow(clippy::too_many_lines)] // a test: one scenario checked step by step
fn corpus_eval_invariants_and_speed() {
    let Some(corpus) = haifu_testkit::corpus_dir() else { return };
    let scratch = Scratch::new("imitate-corpus");
    let dataset = scratch.0.join("data");
    let inputs = haifu_ingest::source::expand_inputs(&[corpus.join("mjlog")], &[]).unwrap();
    ingest(&inputs, &IngestOptions { out: dataset.clone(), jobs: 0, strict: false, ..Default::default() }, &Silent)
        .unwrap();
    let tables_dir = scratch.0.join("tables");
    let t0 = Instant::now();
    // generation: every game up to 2020; test: 2021 and 2022 (issue 3)
    let generation: Vec<i32> = (2000..=2020).collect();
    mine(&dataset, &generation, 5, &tables_dir);
    println!("mined the games up to 2020 in {:.2}s", t0.elapsed().as_secs_f64());

    let t0 = Instant::now();
    let tables = Tables::load(&tables_dir, &LoadOptions::default()).unwrap();
    println!(
        "tables: {} scopes, ALL/all {} pairs, {:.1} MB, loaded in {:.2}s",
        tables.scopes().len(),
        tables.get(ALL_SCOPE, Strategy::All).unwrap().pairs(),
        tables.heap_bytes() as f64 / 1e6,
        t0.elapsed().as_secs_f64()
    );
    // test players: 5 games or more in 2021-2022
    let t0 = Instant::now();
    let sel = Selection { years: vec![2021, 2022], players: None, min_games: Some(5) };
    let data = TestData::load(&dataset, &sel).unwrap();
    println!(
        "test data: {} players, {} decisions, loaded in {:.2}s",
        data.players.len(),
        data.decisions.len(),
        t0.elapsed().as_secs_f64()
    );
    assert!(!data.players.is_empty());

    for mode in [StrategyMode::None, StrategyMode::Estimated] {
        let opts = EvalOptions { strategy: mode, include_riichi: false };
        let r = eval::run(&data, &tables, &TableVariant::EVERY, &opts).unwrap();
        println!(
            "strategy {}: {} players evaluated, {} skipped; {} (decision, table) pairs in {:.3}s",
            mode.name(),
            r.players.len(),
            r.skipped.len(),
            r.evaluated,
            r.eval_seconds
        );
        for (v, c) in &r.overall {
            println!(
                "  overall {v:<12} N_all {} N_noneS {} N_noneH {} C {} {} {} R_first {:.4} R_top3 {:.4} coverage {:.4} riichi out {}",
                c.n_all,
                c.n_none_strategy,
                c.n_none_hand,
                c.c_first,
                c.c_second,
                c.c_third,
                c.r_first().unwrap_or(f64::NAN),
                c.r_top3().unwrap_or(f64::NAN),
                c.coverage().unwrap_or(f64::NAN),
                c.in_riichi
            );
        }
        for p in &r.players {
            let n = p.variants[0].counts.n_all;
            for v in &p.variants {
                let c = &v.counts;
                assert!(c.r_top3() >= c.r_first(), "{} {}", p.player, v.variant);
                if let (Some(cov), true) = (c.coverage(), v.others.is_none()) {
                    assert_eq!(cov, c.answered() as f64 / c.n_all as f64);
                    assert_eq!(c.n_all, n, "every variant sees the same decisions");
                }
                if mode == StrategyMode::None {
                    assert_eq!(c.n_none_strategy, 0);
                }
            }
        }
    }

    // 6.4 and 6.6: own and all ranked on the same decisions; the 2x2 counts add up to what each table answers
    let opts = EvalOptions { strategy: StrategyMode::None, include_riichi: false };
    let r = eval::run(&data, &tables, &[TableVariant::Own, TableVariant::All], &opts).unwrap();
    let mut sum = TwoByTwo::default();
    for p in r.players.iter().take(10) {
        let (two, split) = own_vs_all(&data, &tables, &p.player, &opts).unwrap();
        let (own, all) = (p.variants[0].counts, p.variants[1].counts);
        assert_eq!(two.total() + two.answered_own_only, own.answered(), "{}", p.player);
        assert_eq!(two.total() + two.answered_all_only, all.answered(), "{}", p.player);
        assert!(two.both + two.own_only <= own.c_top3() && two.both + two.all_only <= all.c_top3());
        // turns <= 4 and >= 5 split the decisions; >= 7 is part of >= 5
        assert_eq!(split.own[0].n_all + split.own[1].n_all, own.n_all);
        assert!(split.own[2].n_all <= split.own[1].n_all);
        sum.add(&two);
    }
    println!("2x2 over 10 players (both, own only, all only, neither): {:?}", sum);

    // all-but-own = all - own, on every test player's table
    for p in data.players.iter().filter(|p| tables.has_scope(p)) {
        let all = tables.get(ALL_SCOPE, Strategy::All).unwrap();
        let own = tables.get(p, Strategy::All).unwrap();
        let rest = tables.all_but_own(p, Strategy::All).unwrap();
        assert_eq!(rest.total(), all.total() - own.total(), "{p}");
        for (b, a, n) in own.iter() {
            assert_eq!(rest.count(b, a), all.count(b, a) - n);
        }
    }

    // speed: every 2021-2022 decision against the ALL table on one thread
    let every = TestData::load(&dataset, &Selection { years: vec![2021, 2022], ..Default::default() }).unwrap();
    let set = &table_sets(&tables, "", TableVariant::All, &[Strategy::All]).unwrap()[0];
    let opts = EvalOptions { strategy: StrategyMode::None, include_riichi: true };
    let mut best = f64::INFINITY;
    let mut answered = 0;
    for _ in 0..5 {
        let t0 = Instant::now();
        answered = 0;
        for p in 0..every.players.len() {
            answered += evaluate(every.player_decisions(p), set, &opts, |_| {}).answered();
        }
        best = best.min(t0.elapsed().as_secs_f64());
    }
    println!(
        "one thread: {} decisions ranked against ALL/all in {:.4}s: {:.2} M decisions/s ({answered} answered)",
        every.decisions.len(),
        best,
        every.decisions.len() as f64 / best / 1e6
    );
    let c = estimator_confusion(&every);
    println!(
        "estimator on 2021-2022 won rounds: {} rounds, decided {}, agree {}; per strategy (estimated, both, realised): {:?}",
        c.total_rounds(),
        c.rounds_decided(),
        c.rounds_agree(),
        c.per_strategy()
    );
}
