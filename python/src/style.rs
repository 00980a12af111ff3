//! The lookup imitator and the style database from Python: `Tables(path).suggest(...)` ranks a hand's
//! discards as `haifu imitate suggest` does, `StyleDb(path).identify(...)` ranks the database's players for a
//! seat of some logs as `haifu style identify` does (the sequences, rates, habits and choices), each the same
//! code and the same JSON.

use std::path::PathBuf;

use haifu_imitate::rank::{decision_state, rank, Winds};
use haifu_imitate::table::{LoadOptions, Tables as SeqTables};
use haifu_mining::Strategy;
use pyo3::prelude::*;

/// The sequence tables of one `haifu mine` run, every player's and ALL's, loaded once.
#[pyclass(module = "haifu._haifu", name = "Tables", frozen)]
struct Tables {
    tables: SeqTables,
}

#[pymethods]
impl Tables {
    /// `path`: the folder `haifu mine` wrote (its sequences.parquet); `sources`: sum only these sources of the
    /// tables (`draw`, `chi`, `pon`, `kan`, `nuki`), default all.
    #[new]
    #[pyo3(signature = (path, *, sources = None))]
    fn new(py: Python<'_>, path: PathBuf, sources: Option<Vec<String>>) -> PyResult<Tables> {
        let opts = LoadOptions { scopes: None, strategies: Vec::new(), sources };
        let tables = py.detach(|| SeqTables::load(&path, &opts)).map_err(|e| crate::error(&e))?;
        Ok(Tables { tables })
    }

    /// Every scope of the tables: the players' names and `ALL`.
    #[getter]
    fn players(&self) -> Vec<String> {
        self.tables.scopes().to_vec()
    }

    /// `haifu imitate suggest --json` of `hand` (a decision's state, 14 tiles in Tenhou notation, 3n+2 after
    /// calls): the ranked candidates and each suit's note under `player`'s table (a name, or `ALL`) of
    /// `strategy` (`all`, `tanyao`, `chanta`, `yakuhai`), as a JSON text.
    #[pyo3(signature = (hand, *, player = "ALL", strategy = "all", round_wind = "E", seat_wind = "E"))]
    fn suggest(&self, hand: &str, player: &str, strategy: &str, round_wind: &str, seat_wind: &str) -> PyResult<String> {
        let state = decision_state(hand).map_err(crate::bad_argument)?;
        let winds = Winds::parse(round_wind, seat_wind).map_err(crate::bad_argument)?;
        let strategy: Strategy = strategy.parse().map_err(|e| crate::bad_argument(format!("strategy: {e}")))?;
        let table = self.tables.get_or_empty(player, strategy).map_err(|e| crate::error(&e))?;
        let (candidates, suits) = rank(&state.counts, winds, table).to_json();
        let out = serde_json::json!({
            "hand": hand, "player": player, "strategy": strategy.name(),
            "winds": {"round": winds.round.name(), "seat": winds.seat.name()},
            "table": {"pairs": table.pairs(), "befores": table.befores(), "total": table.total()},
            "candidates": candidates, "suits": suits,
        });
        Ok(out.to_string())
    }
}

/// A style database (`haifu style build`), read once.
#[pyclass(module = "haifu._haifu", name = "StyleDb", frozen)]
struct StyleDb {
    db: haifu_style::StyleDb,
}

#[pymethods]
impl StyleDb {
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<StyleDb> {
        let db = py.detach(|| haifu_style::StyleDb::open(&path)).map_err(|e| crate::error(&e))?;
        Ok(StyleDb { db })
    }

    /// The profiled players and their games, in the database's order.
    #[getter]
    fn players(&self) -> Vec<(String, u64)> {
        self.db.profiles.iter().map(|p| (p.player.clone(), p.tally.games)).collect()
    }

    /// `haifu style identify --json`: the database's players ranked for `seat` (0-3, or the name the logs give
    /// it) over the games of `logs` (the first `games` of them), best first, as a JSON text; `by` as `--by`
    /// (`decisions`, `discards`, `score`, `baseline` or `discards_baseline`).
    #[pyo3(signature = (logs, seat, *, games = None, top = None, by = "decisions"))]
    fn identify(
        &self,
        py: Python<'_>,
        logs: Vec<PathBuf>,
        seat: &str,
        games: Option<usize>,
        top: Option<usize>,
        by: &str,
    ) -> PyResult<String> {
        use haifu_style::identify::RankBy;
        let by = match by {
            "discards" => RankBy::Discards,
            "decisions" => RankBy::Decisions,
            "score" => RankBy::Score,
            "baseline" => RankBy::Baseline,
            "discards_baseline" => RankBy::DiscardsBaseline,
            other => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "by={other:?}: discards, decisions, score, baseline or discards_baseline"
                )))
            }
        };
        let ranked = py.detach(|| -> anyhow::Result<String> {
            let mut seen = haifu_style::Observed::default();
            for g in haifu_style::logs::seat_games(&self.db, &logs, seat, games)? {
                seen.add(&g.observe());
            }
            let mut ranking = haifu_style::Scorer::new(&self.db)?.rank(&seen);
            ranking = haifu_style::identify::with_db_baseline(ranking, &self.db, &seen, by)?;
            by.for_db(&self.db).rank(&mut ranking);
            ranking.truncate(top.unwrap_or(usize::MAX));
            Ok(serde_json::to_string(&ranking)?)
        });
        ranked.map_err(|e| crate::error(&e))
    }

    /// `haifu style nearest P --json`: the `k` players nearest `player`, by the cosine of their deviations from
    /// everyone's discard coefficients (`by="discards"`) or the Jensen-Shannon distance of their sequences
    /// (`by="sequences"`), as a JSON text.
    #[pyo3(signature = (player, *, k = 5, by = "discards"))]
    fn nearest(&self, py: Python<'_>, player: &str, k: usize, by: &str) -> PyResult<String> {
        use haifu_style::compare::{Nearest, Nearness};
        let by = match by {
            "discards" => Nearness::Discards,
            "sequences" => Nearness::Sequences,
            other => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!("by={other:?}: discards or sequences")))
            }
        };
        let near = py.detach(|| Nearest::of(&self.db, player, by, k)).map_err(|e| crate::error(&e))?;
        Ok(near.json().to_string())
    }

    /// `haifu style show P --json`'s models: the player's discard preferences (`discard_model`) and calls,
    /// riichi, kans and wins (`choice_model`) furthest from everyone's first, each coefficient with its 95%
    /// interval, everyone's, the players' spread, where the player stands among them and z, as a JSON text.
    fn preferences(&self, player: &str) -> PyResult<String> {
        let p = self.db.profile(player).map_err(|e| crate::error(&e))?;
        let discards = match (self.db.discards.players.get(&p.player), &self.db.discards.everyone) {
            (Some(own), Some(all)) => haifu_style::discards::distinctive(own, all),
            _ => Vec::new(),
        };
        let choices = self.db.choice_model.as_ref().map(|m| m.distinctive(&p.player)).unwrap_or_default();
        let json = serde_json::json!({ "player": p.player, "discard_model": discards, "choice_model": choices });
        Ok(json.to_string())
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Tables>()?;
    m.add_class::<StyleDb>()?;
    Ok(())
}
