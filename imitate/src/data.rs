//! Test data: the decisions of chosen years and players, read once from the dataset's decisions table and
//! kept as compact prepared states, so that ranking against any number of tables does no string work.

use std::ops::Range;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context, Result};
use arrow::array::{AsArray, RecordBatch};
use arrow::datatypes::{DataType, Int64Type, UInt16Type, UInt32Type, UInt8Type};
use hashbrown::{HashMap, HashSet};

use haifu_mining::dataset::{cast_to, games_per_player, hand_counts, hands, open, part_files, require_players};
use haifu_mining::{Shape, Strategy};

use crate::estimator::{estimate, realised_bits, MeldSummary};
use crate::rank::{Prepared, Winds};

/// Which decisions are test data.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Years of the games (the dataset's `year=` partitions); empty = every year, unknown ones included.
    pub years: Vec<i32>,
    /// Players by name; `None` = every player (subject to `min_games`).
    pub players: Option<Vec<String>>,
    /// Keep players with at least this many games in the chosen years.
    pub min_games: Option<u32>,
}

/// One discard decision of a test player, ready for ranking.
#[derive(Clone, Copy, Debug)]
pub struct TestDecision {
    pub game_id: i64,
    pub event_index: u32,
    pub round: u16,
    pub seat: u8,
    pub turn: u8,
    /// Index into [`TestData::players`].
    pub player: u32,
    /// Kind (0..34) of the tile discarded; red fives are fives.
    pub discard: u8,
    pub in_riichi: bool,
    /// The estimator's answer for this decision alone (the round logic fixes the first decided one).
    pub estimate: Option<Strategy>,
    /// The player won this round.
    pub won: bool,
    /// Strategies the win realised (bits: 1 tanyao, 2 chanta, 4 yakuhai), 0 when not won.
    pub realised: u8,
    pub prepared: Prepared,
}

/// The decisions of the selected players, grouped by player, each player's in game, round and event order.
#[derive(Clone, Debug, Default)]
pub struct TestData {
    pub dataset: PathBuf,
    pub selection: Selection,
    /// Selected players, by index.
    pub players: Vec<String>,
    /// Games of each player in the chosen years.
    pub games: Vec<u32>,
    pub decisions: Vec<TestDecision>,
    ranges: Vec<Range<usize>>,
}

impl TestData {
    /// Reads the decisions of `sel` from `dataset/decisions`.
    pub fn load(dataset: &Path, sel: &Selection) -> Result<TestData> {
        let files = part_files(dataset, "decisions", &sel.years)?;
        let chosen: Option<HashSet<String>> = match (&sel.players, sel.min_games) {
            (Some(p), _) => Some(p.iter().cloned().collect()),
            (None, Some(n)) => {
                Some(games_per_player(&files, |_| true)?.into_iter().filter(|&(_, g)| g >= n).map(|(p, _)| p).collect())
            }
            (None, None) => None,
        };
        let mut reading = Reading { chosen: chosen.as_ref(), ..Default::default() };
        for path in &files {
            reading.file(path)?;
        }
        let Reading { names, index, mut decisions, .. } = reading;
        if let Some(wanted) = &sel.players {
            require_players(wanted, &index, dataset, &sel.years)?;
        }
        // players in name order, their decisions contiguous and in play order
        let mut order: Vec<u32> = (0..names.len() as u32).collect();
        order.sort_by(|&a, &b| names[a as usize].cmp(&names[b as usize]));
        let mut renum = vec![0u32; names.len()];
        for (new, &old) in order.iter().enumerate() {
            renum[old as usize] = new as u32;
        }
        for d in &mut decisions {
            d.player = renum[d.player as usize];
        }
        let players: Vec<String> = order.iter().map(|&o| names[o as usize].clone()).collect();
        Ok(TestData::from_decisions(dataset.to_path_buf(), sel.clone(), players, decisions))
    }

    /// Builds test data from decisions already made (their `player` indexes `players`).
    pub fn from_decisions(
        dataset: PathBuf,
        selection: Selection,
        players: Vec<String>,
        mut decisions: Vec<TestDecision>,
    ) -> TestData {
        decisions.sort_unstable_by_key(|d| (d.player, d.game_id, d.round, d.event_index));
        let mut ranges = vec![0..0; players.len()];
        let mut games = vec![0u32; players.len()];
        let mut i = 0;
        while i < decisions.len() {
            let p = decisions[i].player as usize;
            let start = i;
            let mut last_game = None;
            while i < decisions.len() && decisions[i].player as usize == p {
                if last_game != Some(decisions[i].game_id) {
                    games[p] += 1;
                    last_game = Some(decisions[i].game_id);
                }
                i += 1;
            }
            ranges[p] = start..i;
        }
        TestData { dataset, selection, players, games, decisions, ranges }
    }

    /// The same test data for the players `keep` accepts, as if they had been named in the selection.
    pub fn retain_players(self, keep: impl Fn(&str) -> bool) -> TestData {
        let mut names = Vec::new();
        let mut renum = vec![None; self.players.len()];
        for (i, p) in self.players.iter().enumerate() {
            if keep(p) {
                renum[i] = Some(names.len() as u32);
                names.push(p.clone());
            }
        }
        let decisions = self
            .decisions
            .into_iter()
            .filter_map(|mut d| {
                d.player = renum[d.player as usize]?;
                Some(d)
            })
            .collect();
        let selection = Selection { players: Some(names.clone()), min_games: None, ..self.selection };
        TestData::from_decisions(self.dataset, selection, names, decisions)
    }

    /// A player's decisions in play order.
    pub fn player_decisions(&self, player: usize) -> &[TestDecision] {
        &self.decisions[self.ranges[player].clone()]
    }

    pub fn player_index(&self, name: &str) -> Option<usize> {
        self.players.iter().position(|p| p == name)
    }
}

const COLUMNS: [&str; 17] = [
    "game_id",
    "event_index",
    "round",
    "kyoku",
    "seat",
    "player",
    "turn",
    "hand",
    "discard",
    "in_riichi",
    "melds",
    "scores",
    "outcome",
    "win_yaku",
    "man_before_key",
    "pin_before_key",
    "sou_before_key",
];

/// Decisions as they are read, players numbered in the order they first appear.
#[derive(Default)]
struct Reading<'a> {
    /// Players to keep; `None` keeps all.
    chosen: Option<&'a HashSet<String>>,
    names: Vec<String>,
    index: HashMap<String, u32>,
    decisions: Vec<TestDecision>,
}

impl Reading<'_> {
    fn file(&mut self, path: &Path) -> Result<()> {
        for b in open(path, &COLUMNS)? {
            let b = b.with_context(|| format!("reading {}", path.display()))?;
            self.batch(&b, path)?;
        }
        Ok(())
    }

    fn player(&mut self, name: &str) -> u32 {
        if let Some(&p) = self.index.get(name) {
            return p;
        }
        let p = self.names.len() as u32;
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), p);
        p
    }

    fn batch(&mut self, b: &RecordBatch, path: &Path) -> Result<()> {
        use DataType::*;
        let prim = |name: &str, t: &DataType| cast_to(b, name, t, path);
        let (game_id, event_index, round) =
            (prim("game_id", &Int64)?, prim("event_index", &UInt32)?, prim("round", &UInt16)?);
        let (kyoku, seat, turn, discard) =
            (prim("kyoku", &UInt8)?, prim("seat", &UInt8)?, prim("turn", &UInt8)?, prim("discard", &UInt8)?);
        let (in_riichi, player, outcome) =
            (prim("in_riichi", &Boolean)?, prim("player", &Utf8)?, prim("outcome", &Utf8)?);
        let suits =
            [prim("man_before_key", &UInt32)?, prim("pin_before_key", &UInt32)?, prim("sou_before_key", &UInt32)?];
        let list = |name: &str| {
            b.column_by_name(name)
                .and_then(|c| c.as_list_opt::<i32>())
                .ok_or_else(|| anyhow!("{}: column `{name}` is not a list", path.display()))
        };
        let hand = hands(b, path)?;
        let (melds, scores, win_yaku) = (list("melds")?, list("scores")?, list("win_yaku")?);
        let yaku_values =
            win_yaku.values().as_primitive_opt::<UInt8Type>().ok_or_else(|| anyhow!("win_yaku is not UInt8"))?;
        let meld_values =
            arrow::compute::cast(melds.values(), &Utf8).with_context(|| format!("{}: melds", path.display()))?;
        let meld_values = meld_values.as_string::<i32>();

        let game_id = game_id.as_primitive::<Int64Type>();
        let event_index = event_index.as_primitive::<UInt32Type>();
        let round = round.as_primitive::<UInt16Type>();
        let [kyoku, seat, turn, discard] = [&kyoku, &seat, &turn, &discard].map(|a| a.as_primitive::<UInt8Type>());
        let in_riichi = in_riichi.as_boolean();
        let (player, outcome) = (player.as_string::<i32>(), outcome.as_string::<i32>());
        let suits = [&suits[0], &suits[1], &suits[2]].map(|a| a.as_primitive::<UInt32Type>());

        for i in 0..b.num_rows() {
            let name = player.value(i);
            if self.chosen.is_some_and(|c| !c.contains(name)) {
                continue;
            }
            let p = self.player(name);
            let concealed = hand_counts(hand, i);
            let shapes = suits.map(|s| Shape::from_key(s.value(i)));
            let n_players = (scores.value_offsets()[i + 1] - scores.value_offsets()[i]) as u8;
            let winds = Winds::of_seat(kyoku.value(i), seat.value(i), n_players);
            // suits from `*_before` (after a call: the hand before it plus the called tile); honors from the hand:
            // a called honor makes a pon, never an isolated honor, so both states give the same isolated honors
            let mut honors = [0u8; 7];
            honors.copy_from_slice(&concealed[27..]);
            let prepared = Prepared::from_parts([shapes[0], shapes[1], shapes[2]], &honors, winds);
            let m = melds.value_offsets()[i] as usize..melds.value_offsets()[i + 1] as usize;
            let meld_summary = MeldSummary::from_strings(m.map(|j| meld_values.value(j)));
            let won = outcome.value(i) == "win";
            let y = win_yaku.value_offsets()[i] as usize..win_yaku.value_offsets()[i + 1] as usize;
            let realised = if won { realised_bits(&yaku_values.values()[y]) } else { 0 };
            self.decisions.push(TestDecision {
                game_id: game_id.value(i),
                event_index: event_index.value(i),
                round: round.value(i),
                seat: seat.value(i),
                turn: turn.value(i),
                player: p,
                discard: discard.value(i) / 4,
                in_riichi: in_riichi.value(i),
                estimate: estimate(&concealed, &meld_summary, winds),
                won,
                realised,
                prepared,
            });
        }
        Ok(())
    }
}
