//! The style database: a folder any Parquet engine reads.
//!
//! ```text
//! DB/sequences.parquet   the sequence tables of `haifu mine` (every strategy and source) for the profiled
//!                        players and ALL: DB is also a tables folder for `haifu imitate`
//! DB/players.parquet     what the mining counted per scope and strategy (as `haifu mine` writes it)
//! DB/profiles.parquet    one row per profiled player, and one for ALL: the counts of [`Tally`] and the rates
//! DB/choice_counts.parquet per profiled player and ALL, the offers and takes of each situation of a call,
//!                        riichi, kan or win ([`crate::choice`]), where the dataset has its choices table
//! DB/habit_counts.parquet per profiled player and ALL, the opportunities and takes of each habit
//!                        ([`crate::habits`])
//! DB/discard_model.parquet per profiled player and ALL, the discard model's coefficients
//!                        ([`crate::discards`])
//! DB/meta.json           the options, the dataset, the table size and rule sets of the games profiled
//! ```
//!
//! The folder is written beside its final place and renamed into it at the end: a build that fails leaves the
//! old database (or none), never half of one.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use arrow::array::{Array, AsArray};
use arrow::datatypes::UInt64Type;
use hashbrown::HashMap;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde::{Deserialize, Serialize};

use haifu_imitate::{LoadOptions, SeqTable, Tables, ALL_SCOPE};
use haifu_ingest::columns;
use haifu_ingest::columns::{Float64, Table, UInt64, Utf8};
use haifu_mining::mine::in_sample;
use haifu_mining::tables::{write_table, write_tables_into};
use haifu_mining::{MineOptions, Strategy};
use haifu_rules::table::GameType;

use crate::baseline::{Discriminant, BASELINE_FILE};
use crate::choice::{self, ChoiceCounts, CHOICES};
use crate::choice_model::ChoiceModel;
use crate::discards::{DiscardModel, Refit, RefitMeta, MODEL_FILE, REFIT_FILE, REFIT_META};
use crate::habits::{self, HabitCounts, HABITS_FILE};
use crate::played::{self, Played, Reading};
use crate::tally::{of_game, Tally, RATES};

pub const PROFILES: &str = "profiles.parquet";

pub use haifu_ingest::stored::ANONYMOUS;

/// One profiled player (or ALL) with its counts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    pub player: String,
    pub tally: Tally,
}

columns! {
    /// `profiles.parquet`: one row per player of the database, and one for ALL.
    pub struct ProfilesTable("profiles") for<'a> |p: Profile| {
        let t = &p.tally;
        let r = t.rates();
    }
    player: Utf8 = p.player.as_str(),
    games: UInt64 = t.games,
    rounds: UInt64 = t.rounds,
    decisions: UInt64 = t.decisions,
    riichi: UInt64 = t.riichi,
    calls: UInt64 = t.calls,
    wins: UInt64 = t.wins,
    deal_ins: UInt64 = t.deal_ins,
    tsumogiri: UInt64 = t.tsumogiri,
    win_turns: UInt64 = t.win_turns,
    win_points: UInt64 = t.win_points,
    facing_riichi: UInt64 = t.facing_riichi,
    folds: UInt64 = t.folds,
    riichi_rate: Option<Float64> = r[0],
    call_rate: Option<Float64> = r[1],
    win_rate: Option<Float64> = r[2],
    deal_in_rate: Option<Float64> = r[3],
    tsumogiri_rate: Option<Float64> = r[4],
    win_turn: Option<Float64> = r[5],
    win_points_avg: Option<Float64> = r[6],
    fold_rate: Option<Float64> = r[7],
}

/// `haifu style build`.
#[derive(Clone, Debug, Serialize)]
pub struct BuildOptions {
    /// Years of the games (empty: every year).
    pub years: Vec<i32>,
    /// Profile players with at least this many games at tables of `players` seats in those years.
    pub min_games: u32,
    /// Four- or three-player games.
    pub players: u8,
    /// Keep only this share of the games, chosen by a hash of the game id (`haifu mine --sample`): the games
    /// left out are the unseen games `haifu style accuracy` tests on, from the same years.
    pub sample: Option<f64>,
}

/// The rule sets of the games a database profiles, and its table size: a log of another kind is refused.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    pub players: u8,
    /// (red fives, open tanyao) of the games profiled.
    pub sets: Vec<(bool, bool)>,
}

impl Rules {
    /// (red fives, open tanyao) of a game of this type; a log without `GO` plays with both.
    pub fn of(game_type: Option<GameType>) -> (bool, bool) {
        game_type.map_or((true, true), |t| (t.red(), t.kuitan()))
    }
}

/// What `meta.json` records of the style build (beside the mining run's own fields).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StyleMeta {
    pub dataset: String,
    pub years: Vec<i32>,
    pub min_games: u32,
    pub rules: Rules,
    pub games: u64,
    pub profiles: usize,
    /// The share of the games profiled (`None`: all).
    #[serde(default)]
    pub sample: Option<f64>,
}

/// Each seat's counts per player name over `games`, and everyone's.
pub fn tallies(games: &[Played]) -> (HashMap<String, Tally>, Tally) {
    let (per, mut all) = per_player(games, of_game, Tally::add);
    // a game counts once in ALL, not once per seat
    all.games = games.len() as u64;
    (per, all)
}

/// Each seat's habit counts per player name over `games`, and everyone's.
pub fn habit_tallies(games: &[Played]) -> (HashMap<String, HabitCounts>, HabitCounts) {
    per_player(games, habits::of_game, HabitCounts::add)
}

/// Each seat's `counts` summed per player name, and over every seat (anonymous ones in ALL only).
fn per_player<T: Default>(
    games: &[Played],
    counts: fn(&Played) -> Vec<T>,
    add: fn(&mut T, &T),
) -> (HashMap<String, T>, T) {
    let mut per: HashMap<String, T> = HashMap::new();
    let mut all = T::default();
    for g in games {
        for (seat, t) in counts(g).iter().enumerate() {
            let name = g.names[seat].as_str();
            add(&mut all, t);
            if !ANONYMOUS.contains(&name) {
                add(per.entry_ref(name).or_default(), t);
            }
        }
    }
    (per, all)
}

/// Builds the database of `dataset` into `out` (replacing one there).
pub fn build(dataset: &Path, out: &Path, opts: &BuildOptions) -> Result<StyleMeta> {
    if !(3..=4).contains(&opts.players) {
        bail!("--players {}: 4 or 3", opts.players);
    }
    if opts.sample.is_some_and(|f| !(f > 0.0 && f <= 1.0)) {
        bail!("--sample {:?}: a share above 0 and at most 1", opts.sample);
    }
    // the tiles: the habits ask which kinds the hand held
    let reading = Reading { years: &opts.years, players: opts.players, tiles: true };
    let games = played::read(dataset, &reading, |_, g| in_sample(g, opts.sample))?;
    if games.is_empty() {
        bail!("{}: no {}-player game in years {:?}", dataset.display(), opts.players, opts.years);
    }
    let mut rules = Rules { players: opts.players, sets: games.iter().map(|g| Rules::of(g.game_type)).collect() };
    rules.sets.sort_unstable();
    rules.sets.dedup();
    let (per, all) = tallies(&games);
    let (mut habits_per, habits_all) = habit_tallies(&games);
    let (mut choices_per, choices_all) = choice::read(dataset, &opts.years, &games)?;
    let mut profiles: Vec<Profile> = per
        .into_iter()
        .filter(|(_, t)| t.games >= u64::from(opts.min_games))
        .map(|(player, tally)| Profile { player, tally })
        .collect();
    if profiles.is_empty() {
        bail!(
            "{}: no player has {} games or more at {}-player tables in years {:?}: nothing to profile",
            dataset.display(),
            opts.min_games,
            opts.players,
            opts.years
        );
    }
    profiles.sort_by(|a, b| a.player.cmp(&b.player));
    let names: Vec<String> = profiles.iter().map(|p| p.player.clone()).collect();
    let model = DiscardModel::of_games(&games, &names);
    // the plain baseline's discriminant, for `style identify --by baseline`; none where the games are too few
    let baseline = Discriminant::of_games(&names, &games).ok();
    profiles.push(Profile { player: ALL_SCOPE.to_string(), tally: all });

    let mine =
        MineOptions { years: opts.years.clone(), players: Some(names), sample: opts.sample, ..Default::default() };
    let mined = haifu_mining::mine(dataset, &mine)?;
    let style = StyleMeta {
        dataset: dataset.display().to_string(),
        years: opts.years.clone(),
        min_games: opts.min_games,
        rules,
        games: games.len() as u64,
        profiles: profiles.len() - 1,
        sample: opts.sample,
    };
    let meta = serde_json::json!({
        "haifu": env!("CARGO_PKG_VERSION"), "dataset": dataset.display().to_string(), "options": mine,
        "decisions_read": mined.decisions_read, "style": style,
    });
    let mut choices: Vec<(&str, ChoiceCounts)> = Vec::new();
    if !choices_all.is_empty() {
        for p in &profiles[..profiles.len() - 1] {
            choices.push((p.player.as_str(), choices_per.remove(&p.player).unwrap_or_default()));
        }
        choices.push((ALL_SCOPE, choices_all));
    }
    let mut habit_rows: Vec<(&str, HabitCounts)> = profiles[..profiles.len() - 1]
        .iter()
        .map(|p| (p.player.as_str(), habits_per.remove(&p.player).unwrap_or_default()))
        .collect();
    habit_rows.push((ALL_SCOPE, habits_all));
    let mut own = haifu_mining::tables::TABLE_FILES.to_vec();
    // the refit a database was given (`style accuracy --save-refit`) is dropped with the coefficients it refitted
    own.extend([PROFILES, CHOICES, HABITS_FILE, MODEL_FILE, REFIT_FILE, REFIT_META, BASELINE_FILE]);
    haifu_ingest::folder::replace_folder(out, &own, |tmp| {
        write_tables_into(tmp, &mined, &meta)?;
        write_table(&tmp.join(PROFILES), |t: &mut ProfilesTable| {
            for p in &profiles {
                t.push(p);
            }
        })?;
        let refs: Vec<(&str, &HabitCounts)> = habit_rows.iter().map(|(p, h)| (*p, h)).collect();
        habits::write(&tmp.join(HABITS_FILE), &refs)?;
        model.write(&tmp.join(MODEL_FILE), ALL_SCOPE)?;
        if let Some(b) = &baseline {
            b.write(&tmp.join(BASELINE_FILE))?;
        }
        if choices.is_empty() {
            return Ok(());
        }
        let refs: Vec<(&str, &ChoiceCounts)> = choices.iter().map(|(p, c)| (*p, c)).collect();
        choice::write(&tmp.join(CHOICES), &refs)
    })?;
    Ok(style)
}

/// A database read back: its profiles (ALL apart) and what it was built from.
#[derive(Clone, Debug)]
pub struct StyleDb {
    pub dir: PathBuf,
    pub profiles: Vec<Profile>,
    pub all: Tally,
    pub meta: StyleMeta,
    /// The choices' counts by player, ALL's under [`ALL_SCOPE`] (empty: built from a dataset without choices).
    pub choices: HashMap<String, ChoiceCounts>,
    /// The habits' counts by player, ALL's under [`ALL_SCOPE`] (empty: a database built before habits).
    pub habits: HashMap<String, HabitCounts>,
    /// The discard model's coefficients (empty: a database built before the model).
    pub discards: DiscardModel,
    /// The players' coefficients refitted over a network, where `style accuracy --save-refit` wrote them into the
    /// database, and what they were fitted over: what tilts a network towards a player where given.
    pub refit: Option<(DiscardModel, RefitMeta)>,
    /// The choice model, fitted from the choices' counts as the database is opened (`None` without choices).
    pub choice_model: Option<ChoiceModel>,
    /// The plain baseline's discriminant fitted on the profile games (`None`: a database built before it was
    /// stored, or of too few games).
    pub baseline: Option<Discriminant>,
}

impl StyleDb {
    pub fn open(dir: &Path) -> Result<StyleDb> {
        let path = dir.join(PROFILES);
        let file = std::fs::File::open(&path).with_context(|| {
            format!("{}: not a style database (no {PROFILES}; `haifu style build` writes one)", dir.display())
        })?;
        let meta = haifu_mining::tables::read_meta(dir)?
            .and_then(|m| m.get("style").cloned())
            .with_context(|| format!("{}: no style section in meta.json", dir.display()))?;
        let meta: StyleMeta = serde_json::from_value(meta).with_context(|| format!("{}/meta.json", dir.display()))?;
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)?.build()?;
        let mut profiles = Vec::new();
        let mut all = None;
        for batch in reader {
            let b = batch.with_context(|| path.display().to_string())?;
            let text = |c: &str| b.column_by_name(c).and_then(|c| c.as_string_opt::<i32>().cloned());
            let count = |c: &str| b.column_by_name(c).and_then(|c| c.as_primitive_opt::<UInt64Type>().cloned());
            let names = text("player").with_context(|| format!("{}: no player column", path.display()))?;
            let cols: Vec<_> = TALLY_COLUMNS
                .iter()
                .map(|c| count(c).with_context(|| format!("{}: no {c} column", path.display())))
                .collect::<Result<_>>()?;
            for i in 0..b.num_rows() {
                let v: Vec<u64> = cols.iter().map(|c| c.value(i)).collect();
                let tally = Tally {
                    games: v[0],
                    rounds: v[1],
                    decisions: v[2],
                    riichi: v[3],
                    calls: v[4],
                    wins: v[5],
                    deal_ins: v[6],
                    tsumogiri: v[7],
                    win_turns: v[8],
                    win_points: v[9],
                    facing_riichi: v[10],
                    folds: v[11],
                };
                let player = names.value(i).to_string();
                if player == ALL_SCOPE && !names.is_null(i) {
                    all = Some(tally);
                } else {
                    profiles.push(Profile { player, tally });
                }
            }
        }
        let Some(all) = all else { bail!("{}: no ALL row", path.display()) };
        if profiles.is_empty() {
            bail!("{}: an empty style database (no player profile)", dir.display());
        }
        let choices = choice::read_db(dir)?;
        let habits = habits::read_db(dir)?;
        let discards = DiscardModel::read_db(dir, ALL_SCOPE)?;
        let refit = Refit::read(dir, ALL_SCOPE)?;
        let choice_model = choices.get(ALL_SCOPE).map(|all| {
            let players: Vec<(&str, &ChoiceCounts)> =
                profiles.iter().filter_map(|p| choices.get(&p.player).map(|c| (p.player.as_str(), c))).collect();
            ChoiceModel::fit(all, players)
        });
        let baseline = Discriminant::read_db(dir)?;
        Ok(StyleDb {
            dir: dir.to_path_buf(),
            profiles,
            all,
            meta,
            choices,
            habits,
            discards,
            refit,
            choice_model,
            baseline,
        })
    }

    /// The `all` strategy tables (every source summed) of `scopes`, or of every scope; what comparison,
    /// identification and the reports read. A scope without a table reads as empty ([`StyleTables::get`]).
    pub fn tables(&self, scopes: Option<&[&str]>) -> Result<StyleTables> {
        let scopes = scopes.map(|s| s.iter().map(|x| x.to_string()).collect());
        let load = LoadOptions { scopes, strategies: vec![Strategy::All], sources: None };
        Ok(StyleTables(Tables::load(&self.dir, &load)?))
    }

    /// The model that tilts a network towards a player: the refit where the database holds one, else the discard
    /// model (its coefficients less everyone's).
    pub fn tilting(&self) -> &DiscardModel {
        self.refit.as_ref().map_or(&self.discards, |(m, _)| m)
    }

    /// A note for a run that tilts the network `model` by the database's refit where the refit was fitted for
    /// another network (its coefficients correct what that network's folds miss).
    pub fn refit_for_other(&self, model: &Path) -> Option<String> {
        let (_, meta) = self.refit.as_ref()?;
        let fitted_for = Path::new(&meta.network);
        let same = match (fitted_for.canonicalize(), model.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => fitted_for == model,
        };
        (!same).then(|| {
            format!(
                "note: the refit in {} was fitted for the network {}, not {}: it corrects what that network's folds miss",
                self.dir.display(),
                meta.network,
                model.display()
            )
        })
    }

    /// A player's choice counts and everyone's (`None` where the database has no choices).
    pub fn choices_of(&self, player: &str) -> Option<(Option<&ChoiceCounts>, &ChoiceCounts)> {
        let all = self.choices.get(ALL_SCOPE)?;
        Some((self.choices.get(player), all))
    }

    pub fn profile(&self, player: &str) -> Result<&Profile> {
        self.profiles.iter().find(|p| p.player == player).with_context(|| {
            format!(
                "unknown player {player:?}: not among the {} players of {} (`haifu style list --db {}`){}",
                self.profiles.len(),
                self.dir.display(),
                self.dir.display(),
                haifu_mining::dataset::did_you_mean(player, self.profiles.iter().map(|p| p.player.as_str()))
            )
        })
    }
}

/// A database's `all` strategy tables ([`StyleDb::tables`]).
pub struct StyleTables(Tables);

impl StyleTables {
    /// A scope's table; empty when the scope has none (a player whose games counted no sequence).
    pub fn get(&self, scope: &str) -> &SeqTable {
        self.0.get(scope, Strategy::All).unwrap_or_else(|| haifu_imitate::table::empty_table())
    }
}

/// The count columns of `profiles.parquet`, in [`Tally`]'s order.
const TALLY_COLUMNS: [&str; 12] = [
    "games",
    "rounds",
    "decisions",
    "riichi",
    "calls",
    "wins",
    "deal_ins",
    "tsumogiri",
    "win_turns",
    "win_points",
    "facing_riichi",
    "folds",
];

/// The rates of a tally as a JSON object, by name.
pub fn rates_json(t: &Tally) -> serde_json::Value {
    RATES.iter().zip(t.rates()).map(|(r, v)| (r.name.to_string(), serde_json::json!(v))).collect()
}
