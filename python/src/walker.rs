//! The game walker from Python: a log's games (any format) or a dataset's, each event with the table state it
//! leaves, advanced by the one walker ingest and the positions use (`haifu_record::walk`); before each event,
//! every seat's legal actions, asked of the rules' bookkeeping ingest holds every record to
//! (`haifu_record::legal::RoundRules`): calls and passes, riichi, kans, wins, and before a discard the kinds its
//! seat could discard.

use std::path::PathBuf;

use haifu_record::action::Action;
use haifu_record::event::{Event, GameRecord};
use haifu_record::legal::{Moment, RoundRules};
use haifu_record::state::{Riichi, SeatState, TableState};
use haifu_record::walk::{walk as walk_game, Visitor};
use haifu_rules::table::{GameType, TableRules};
use haifu_rules::{Meld, Tile};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// One game as read: its events, and a walk over them.
#[pyclass(module = "haifu._haifu")]
pub struct Game {
    record: GameRecord,
    /// Where it was read from: `FILE game N`, or `DATASET game ID`.
    origin: String,
}

// u16, not u8: pyo3 turns a Vec<u8> into `bytes`, and tiles are lists of ids
fn ids(tiles: impl IntoIterator<Item = Tile>) -> Vec<u16> {
    tiles.into_iter().map(|t| u16::from(t.id())).collect()
}

fn meld_dict<'py>(py: Python<'py>, m: &Meld) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("kind", m.kind.name())?;
    d.set_item("tiles", ids(m.tiles().iter().copied()))?;
    d.set_item("called", m.called.map(Tile::id))?;
    d.set_item("added", m.added.map(Tile::id))?;
    d.set_item("from", m.from)?;
    d.set_item("code", m.encode())?;
    Ok(d)
}

fn event_dict<'py>(py: Python<'py>, e: &Event) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("kind", e.kind_name())?;
    match e {
        Event::Draw { seat, tile } | Event::Discard { seat, tile } => {
            d.set_item("seat", seat)?;
            d.set_item("tile", tile.id())?;
        }
        Event::Call { seat, meld, .. } => {
            d.set_item("seat", seat)?;
            d.set_item("meld", meld_dict(py, meld)?)?;
        }
        Event::Dora { tile } => d.set_item("tile", tile.id())?,
        other => {
            let attrs = PyDict::new(py);
            for (k, v) in other.written_tag().map(|t| t.attrs.as_slice()).unwrap_or_default() {
                attrs.set_item(k, v)?;
            }
            d.set_item("attrs", attrs)?;
        }
    }
    Ok(d)
}

/// An action as a dict: `type` (`discard`, `riichi`, `tsumo`, `ron`, `chi`, `pon`, `daiminkan`, `ankan`,
/// `kakan`, `nuki`, `kyuushu`, `pass`), the `tiles` of the hand it uses (ids; an open kan's are the copies of
/// the discard's kind), and its `text` (`riichi 3p`, `chi 4s6s`).
fn action_dict<'py>(py: Python<'py>, a: &Action) -> PyResult<Bound<'py, PyDict>> {
    let (kind, tiles): (&str, Vec<u16>) = match *a {
        Action::Discard { tile, riichi } => (if riichi { "riichi" } else { "discard" }, ids([tile])),
        Action::Tsumo => ("tsumo", vec![]),
        Action::Ron => ("ron", vec![]),
        Action::Chi { tiles } => ("chi", ids(tiles)),
        Action::Pon { tiles } => ("pon", ids(tiles)),
        Action::Daiminkan => ("daiminkan", vec![]),
        Action::Ankan { kind } => ("ankan", ids(kind.ids())),
        Action::Kakan { tile } => ("kakan", ids([tile])),
        Action::Nuki { tile } => ("nuki", ids([tile])),
        Action::KyuushuKyuuhai => ("kyuushu", vec![]),
        Action::Pass => ("pass", vec![]),
    };
    let d = PyDict::new(py);
    d.set_item("type", kind)?;
    d.set_item("tiles", tiles)?;
    d.set_item("text", a.to_string())?;
    Ok(d)
}

fn riichi_name(r: Riichi) -> &'static str {
    match r {
        Riichi::None => "none",
        Riichi::Declared => "declared",
        Riichi::Discarded { .. } => "discarded",
        Riichi::Accepted { .. } => "accepted",
    }
}

fn seat_dict<'py>(py: Python<'py>, s: &SeatState) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let mut hand = ids(s.hand.tiles().iter());
    hand.sort_unstable();
    d.set_item("hand", hand)?;
    d.set_item("hand_notation", haifu_rules::format_counts(s.hand.counts()))?;
    let melds = PyList::empty(py);
    for m in &s.melds {
        melds.append(meld_dict(py, m)?)?;
    }
    d.set_item("melds", melds)?;
    let river = PyList::empty(py);
    for r in &s.river {
        let t = PyDict::new(py);
        t.set_item("tile", r.tile.id())?;
        t.set_item("tsumogiri", r.tsumogiri)?;
        t.set_item("riichi", r.riichi)?;
        t.set_item("called_away", r.called_away)?;
        river.append(t)?;
    }
    d.set_item("river", river)?;
    d.set_item("riichi", riichi_name(s.riichi))?;
    d.set_item("double_riichi", s.riichi.is_double())?;
    d.set_item("ippatsu", s.ippatsu)?;
    d.set_item("turn", s.turn)?;
    Ok(d)
}

fn state_dict<'py>(py: Python<'py>, t: &TableState) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("players", t.players)?;
    d.set_item("kyoku", t.kyoku)?;
    d.set_item("honba", t.honba)?;
    d.set_item("kyotaku", t.kyotaku)?;
    d.set_item("dealer", t.dealer)?;
    d.set_item("scores", &t.scores[..usize::from(t.players.clamp(3, 4))])?;
    d.set_item("dora", ids(t.dora.iter().copied()))?;
    d.set_item("draws_left", t.draws_left)?;
    let seats = PyList::empty(py);
    for s in &t.seats[..usize::from(t.players.clamp(3, 4))] {
        seats.append(seat_dict(py, s)?)?;
    }
    d.set_item("seats", seats)?;
    d.set_item("last_discard", t.last_discard.map(|(s, tile)| (s, tile.id())))?;
    Ok(d)
}

/// Collects each step of the walk as a dict: the event, the state it leaves, the legal actions of the moment
/// before it, and for a discard the kinds the seat could discard in the state before it.
struct Steps<'py> {
    py: Python<'py>,
    steps: Bound<'py, PyList>,
    legal: Option<Vec<&'static str>>,
    /// The rules' bookkeeping, from the first deal on (under the `GO` tag's rules, or a houou game's).
    rules: Option<RoundRules>,
    game_type: Option<GameType>,
    /// Before the event: (seat, its legal actions) of every seat asked something.
    options: Vec<(u8, Vec<Action>)>,
    scratch: Vec<Action>,
}

impl Steps<'_> {
    /// What the rules ask before `e`: the seat in its turn, or the seats that may win on or call a shown tile.
    fn asked(&mut self, e: &Event, table: &TableState) {
        self.options.clear();
        if let (Event::Init(init), None) = (e, &self.rules) {
            let go = self.game_type.unwrap_or(GameType::houou_hanchan(init.players()));
            self.rules = Some(RoundRules::new(TableRules::from_go_type(go.0)));
        }
        let Some(rules) = &self.rules else { return };
        let seats: u8 = match rules.moment() {
            Moment::Idle => 0,
            Moment::Turn { seat, .. } => 1 << seat,
            Moment::Respond { ron, call, .. } => ron | call,
        };
        for seat in (0..table.players.min(4)).filter(|s| seats & (1 << s) != 0) {
            rules.legal_actions(table, seat, &mut self.scratch);
            if !self.scratch.is_empty() {
                self.options.push((seat, self.scratch.clone()));
            }
        }
    }
}

impl Visitor for Steps<'_> {
    fn before(&mut self, _: usize, e: &Event, table: &TableState) -> Result<(), String> {
        if let Event::Go(go) = e {
            self.game_type = go.game_type;
        }
        self.asked(e, table);
        self.legal = match e {
            Event::Discard { seat, .. } => Some(
                haifu_encoding::features::legal(table, *seat)
                    .iter()
                    .enumerate()
                    .filter(|(_, &l)| l)
                    .map(|(k, _)| haifu_rules::Kind::from_index(k as u8).name())
                    .collect(),
            ),
            _ => None,
        };
        Ok(())
    }
    fn after(&mut self, i: usize, e: &Event, table: &TableState) -> Result<(), String> {
        if let Some(rules) = &mut self.rules {
            rules.after(table, e);
        }
        let mut step = || -> PyResult<()> {
            let d = PyDict::new(self.py);
            d.set_item("index", i)?;
            d.set_item("event", event_dict(self.py, e)?)?;
            d.set_item("state", state_dict(self.py, table)?)?;
            d.set_item("legal", self.legal.take())?;
            let options = PyDict::new(self.py);
            for (seat, actions) in &self.options {
                let l = PyList::empty(self.py);
                for a in actions {
                    l.append(action_dict(self.py, a)?)?;
                }
                options.set_item(seat, l)?;
            }
            d.set_item("options", options)?;
            self.steps.append(d)
        };
        step().map_err(|e| e.to_string())
    }
}

#[pymethods]
impl Game {
    /// `mjlog`, `tenhou6` or `mjai`.
    #[getter]
    fn format(&self) -> &'static str {
        self.record.format.name()
    }
    #[getter]
    fn log_id(&self) -> Option<String> {
        self.record.log_id.clone()
    }
    /// What the reader settled because the log leaves it unsaid (the games table's `notes`).
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.record.notes.clone()
    }
    fn __len__(&self) -> usize {
        self.record.events.len()
    }
    fn __repr__(&self) -> String {
        format!("<haifu game {} ({} events)>", self.origin, self.record.events.len())
    }
    /// The events as dicts: `kind` (`draw`, `discard`, `call`, `dora`, or the tag's name: `INIT`, `REACH`,
    /// `AGARI` ...), `seat` and `tile` (an id, 0..136) or `meld`, or the tag's `attrs`.
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let l = PyList::empty(py);
        for e in &self.record.events {
            l.append(event_dict(py, e)?)?;
        }
        Ok(l)
    }
    /// Every event with the table state after it (`index`, `event`, `state`; `options`: the legal actions of
    /// each seat the rules asked something before the event, by seat: dicts of `type` (`discard`, `riichi`,
    /// `chi`, `pon`, `ankan`, `kakan`, `tsumo`, `ron`, `pass` ...), `tiles` and `text`; `legal`: before a discard, the kinds its
    /// seat could discard, else `None`). Raises `HaifuError` naming the event the rules refuse.
    fn walk<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut steps = Steps {
            py,
            steps: PyList::empty(py),
            legal: None,
            rules: None,
            game_type: None,
            options: Vec::new(),
            scratch: Vec::with_capacity(32),
        };
        walk_game(&self.record.events, TableState::default(), &mut steps)
            .map_err(|e| crate::HaifuError::new_err(format!("{} event {}: {}", self.origin, e.event, e.message)))?;
        Ok(steps.steps)
    }
}

/// The games of one log file (mjlog XML, tenhou.net/6 JSON or mjai JSON lines, plain or gzip), read as ingest
/// reads them; an unreadable file raises `HaifuError` with the file and the position.
#[pyfunction]
fn read_log(py: Python<'_>, path: PathBuf) -> PyResult<Vec<Game>> {
    let shown = path.display().to_string();
    let records = py.detach(|| {
        let bytes = haifu_ingest::source::read_log(&path)
            .and_then(haifu_record::source::decompress)
            .map_err(|e| format!("{shown}: {e}"))?;
        haifu_record::read_games(&shown, &bytes).map_err(|e| format!("{shown}: {e}"))
    });
    let records = records.map_err(crate::HaifuError::new_err)?;
    Ok(records
        .into_iter()
        .enumerate()
        .map(|(i, record)| Game { record, origin: format!("{shown} game {i}") })
        .collect())
}

/// The games of a dataset (all, or those of `game_ids`), with their events as the events table stores them.
#[pyfunction]
#[pyo3(signature = (dataset, game_ids = None))]
fn dataset_games(py: Python<'_>, dataset: PathBuf, game_ids: Option<Vec<i64>>) -> PyResult<Vec<(i64, Game)>> {
    let games = py
        .detach(|| {
            haifu_ingest::stored::read_games_where(&dataset, |g| game_ids.as_ref().is_none_or(|w| w.contains(&g)))
        })
        .map_err(|e| crate::error(&e))?;
    Ok(games
        .into_iter()
        .map(|(id, record)| (id, Game { record, origin: format!("{} game {id}", dataset.display()) }))
        .collect())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_function(wrap_pyfunction!(read_log, m)?)?;
    m.add_function(wrap_pyfunction!(dataset_games, m)?)?;
    Ok(())
}
