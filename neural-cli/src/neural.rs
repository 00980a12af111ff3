//! `haifu neural eval`: a trained run's match rates on the decisions of test years, per player and overall,
//! beside `haifu imitate eval`'s; `haifu neural inspect`: a run's network (their arguments: src/neural.rs of
//! the `haifu` package).

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write;

use anyhow::{bail, Result};
use serde_json::{json, Value};

use haifu::neural::{EvalArgs, InspectArgs, NeuralCommand};
use haifu_imitate::{EvalOptions, LoadOptions, Selection, TableVariant, Tables, TestData, ALL_SCOPE};
use haifu_ingest::stored::game_hash;
use haifu_neural::eval::{load_run, load_weights, scored, Counts};
use haifu_neural::hybrid::{side_by_side, side_by_side_json, SideBySide};
use haifu_neural::train::DeviceChoice;
use haifu_neural::{load_years, Games, Positions};

pub fn run(what: &NeuralCommand) -> Result<()> {
    match what {
        NeuralCommand::Eval(a) => eval(a),
        NeuralCommand::Inspect(a) => inspect(a),
    }
}

fn inspect(a: &InspectArgs) -> Result<()> {
    let run = load_weights(&a.model, DeviceChoice::Cpu)?;
    let params = run.tensors();
    let total: i64 = params.iter().filter(|t| t.2).map(|(_, s, _)| s.iter().product::<i64>()).sum();
    let scales = run.topology_scales();
    if a.json {
        let tensors: Vec<Value> = params.iter().map(|(n, s, t)| json!({"name": n, "shape": s, "trained": t})).collect();
        let out = json!({
            "model": a.model.display().to_string(), "run": run.info, "parameters": total, "tensors": tensors,
            "topology_scales": scales,
        });
        println!("{out}");
        return Ok(());
    }
    let i = &run.info;
    println!(
        "{}: {} of {} layers{}, {}-player positions, {} epochs; {total} trained parameters ({} tensors)",
        a.model.display(),
        i.model,
        i.layers,
        i.channels.map(|c| format!(", {c} channels/width")).unwrap_or_default(),
        i.players,
        i.epochs,
        params.len()
    );
    for (n, s, trained) in &params {
        println!("  {n:<40} {s:?}{}", if *trained { "" } else { " (not trained: running statistics)" });
    }
    for (layer, heads) in scales.iter().flatten().enumerate() {
        let shown: Vec<String> = heads.iter().map(|s| format!("{s:.3}")).collect();
        println!("layer {layer} topology_scale by head: {}", shown.join(" "));
    }
    if scales.is_some() {
        println!("(heads 0-1 sequence, 2-3 identity, 4-5 boundary, 6-7 global masks; each scale started at 1)");
    }
    Ok(())
}

fn eval(a: &EvalArgs) -> Result<()> {
    if a.batch == Some(0) {
        bail!("--batch must be at least 1");
    }
    let run = load_run(&a.model, a.device)?;
    let games = Games::read(&a.test.dataset)?;
    let mut positions = load_years(&a.test.dataset, &games, &a.test.years, run.info.players)?;
    if a.one_per_game {
        positions = one_per_game(&positions);
    }
    if positions.is_empty() {
        bail!("{} has no {}-player decisions in years {:?}", a.test.dataset.display(), run.info.players, a.test.years);
    }
    let batch = a.batch.unwrap_or_else(|| run.default_batch());
    let scored = scored(&run, &positions, batch);
    let hit = &scored.hits;
    let device = format!("{:?}", run.device()).to_lowercase();
    let mut overall = Counts::default();
    let mut per: BTreeMap<&str, (Counts, HashSet<i64>)> = BTreeMap::new();
    for (i, &(first, top3)) in hit.iter().enumerate() {
        let (player, games_of) = per.entry(games.name(positions.game[i], positions.seat[i])).or_default();
        for c in [&mut overall, player] {
            c.n_all += 1;
            c.c_first += u64::from(first);
            c.c_top3 += u64::from(top3);
        }
        games_of.insert(positions.game[i]);
    }
    if let Some(names) = &a.test.players {
        let missing: Vec<&str> = names.iter().map(String::as_str).filter(|p| !per.contains_key(p)).collect();
        if !missing.is_empty() {
            bail!(
                "no decisions of {} in {} for years {:?}",
                missing.join(", "),
                a.test.dataset.display(),
                a.test.years
            );
        }
    }
    let chosen: Vec<(&str, &Counts, usize)> = per
        .iter()
        .filter(|(p, (_, games))| match (&a.test.players, a.test.min_games) {
            (Some(names), _) => names.iter().any(|n| n == *p),
            (None, Some(m)) => games.len() >= m as usize,
            (None, None) => false,
        })
        .map(|(p, (c, games))| (*p, c, games.len()))
        .collect();
    let shown = |p: &str| chosen.iter().any(|c| c.0 == p);
    let beside = match &a.tables {
        None => None,
        Some(dir) => {
            let sel = Selection { years: a.test.years.clone(), players: None, min_games: None };
            let data = TestData::load(&a.test.dataset, &sel)?;
            let opts = EvalOptions::default();
            let scopes = Some(vec![ALL_SCOPE.to_string()]);
            let tables =
                Tables::load(dir, &LoadOptions { scopes, strategies: opts.strategy.strategies(), sources: None })?;
            Some(side_by_side(&run, data, &tables, &[TableVariant::All], &opts, a.blend, batch)?.0)
        }
    };
    if a.json {
        let players: Vec<_> = chosen
            .iter()
            .map(|(p, c, g)| {
                let mut v = c.to_json();
                v["player"] = json!(p);
                v["games"] = json!(g);
                v
            })
            .collect();
        let out = json!({
            "model": a.model.display().to_string(), "arch": run.info.model, "layers": run.info.layers,
            "epochs": run.info.epochs, "dataset": a.test.dataset.display().to_string(), "years": a.test.years,
            "one_per_game": a.one_per_game, "device": device,
            "upload_s": scored.upload_s, "warmup_s": scored.warmup_s, "score_s": scored.score_s,
            "positions_per_s": scored.positions_per_s(),
            "overall": overall.to_json(), "players": players,
            "tables": beside.as_ref().map(|b| side_by_side_json(b, shown)), "blend": a.blend,
        });
        println!("{out}");
        return Ok(());
    }
    let pct = |c: u64, n: u64| if n == 0 { "-".to_string() } else { format!("{:.2}%", 100.0 * c as f64 / n as f64) };
    println!("{:<24} {:>6} {:>9} {:>8} {:>8}", "player", "games", "decisions", "top-1", "top-3");
    for (p, c, g) in &chosen {
        println!("{p:<24} {g:>6} {:>9} {:>8} {:>8}", c.n_all, pct(c.c_first, c.n_all), pct(c.c_top3, c.n_all));
    }
    println!(
        "{:<24} {:>6} {:>9} {:>8} {:>8}",
        "(everyone)",
        positions.game.iter().collect::<HashSet<_>>().len(),
        overall.n_all,
        pct(overall.c_first, overall.n_all),
        pct(overall.c_top3, overall.n_all)
    );
    eprintln!(
        "scored on {}: {:.0} positions/s ({:.3} s to the device, {:.3} s of forward passes; {:.3} s of a first \
         batch before them)",
        device,
        scored.positions_per_s(),
        scored.upload_s,
        scored.score_s,
        scored.warmup_s
    );
    if let Some(b) = &beside {
        print!("{}", side_by_side_text(b, a.blend, shown));
    }
    Ok(())
}

/// One position of each game: the `game_hash(game) % n`-th of its `n` (positions of a game are consecutive).
fn one_per_game(p: &Positions) -> Positions {
    let mut keep = vec![false; p.len()];
    let mut start = 0;
    while start < p.len() {
        let end = start + p.game[start..].iter().take_while(|&&g| g == p.game[start]).count();
        keep[start + (game_hash(p.game[start]) % (end - start) as u64) as usize] = true;
        start = end;
    }
    p.select(|i| keep[i])
}

/// The side-by-side table as text: first choice / top 3 of each method.
pub fn side_by_side_text(results: &[SideBySide], blend: f32, show: impl Fn(&str) -> bool) -> String {
    let rate = |c: u64, n: u64| if n == 0 { "-".to_string() } else { format!("{:.2}", 100.0 * c as f64 / n as f64) };
    let pair = |c: [u64; 2], n: u64| format!("{}/{}", rate(c[0], n), rate(c[1], n));
    let mut out = String::new();
    // writing to a String cannot fail
    let _ = writeln!(
        out,
        "tables beside the network (first/top-3 in %; the table and the network on what the table answers, \
         backoff and blend (table weight {blend}) on every decision):"
    );
    let _ = writeln!(
        out,
        "{:<20} {:<12} {:>9} {:>8} {:>13} {:>13} {:>13} {:>13} {:>13}",
        "player", "table", "decisions", "coverage", "table", "network", "net-covered", "backoff", "blend"
    );
    for r in results {
        let rows = r.players.iter().filter(|(p, _)| show(p)).map(|(p, c)| (p.as_str(), c));
        for (p, c) in rows.chain(std::iter::once(("overall", &r.overall))) {
            let _ = writeln!(
                out,
                "{:<20} {:<12} {:>9} {:>8} {:>13} {:>13} {:>13} {:>13} {:>13}",
                p,
                r.variant.name(),
                c.n_all,
                rate(c.answered, c.n_all),
                pair(c.table, c.answered),
                pair(c.net, c.n_all),
                pair(c.net_covered, c.answered),
                pair(c.backoff, c.n_all),
                pair(c.blend, c.n_all)
            );
        }
    }
    out
}
