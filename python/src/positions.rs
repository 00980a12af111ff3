//! The positions `haifu train` learns from, as numpy arrays: the same [`haifu_encoding::load`] under the same
//! split, so the same bytes (the features bit-packed, 125 bytes a position; the legal kinds as a 34-bit mask),
//! each array handed to numpy without a copy (numpy owns the vector).

use std::path::PathBuf;

use haifu_encoding::{Decisions, Games, Positions, Split};
use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// One side's positions as a dict of arrays: `features` (uint8, n x 125, feature i is bit i % 8 of byte i / 8),
/// `legal` (uint64 masks), `label` (uint8), `game` (int64), `seat` and `players` (uint8).
fn arrays<'py>(py: Python<'py>, p: Positions) -> PyResult<Bound<'py, PyDict>> {
    let n = p.len();
    let d = PyDict::new(py);
    let packed = haifu_encoding::positions::PACKED;
    d.set_item("features", p.features.into_pyarray(py).reshape([n, packed])?)?;
    d.set_item("legal", p.legal.into_pyarray(py))?;
    d.set_item("label", p.label.into_pyarray(py))?;
    d.set_item("game", p.game.into_pyarray(py))?;
    d.set_item("seat", p.seat.into_pyarray(py))?;
    d.set_item("players", p.players.into_pyarray(py))?;
    Ok(d)
}

/// `haifu train`'s split of the Python arguments.
fn split_of(
    years: Vec<i32>,
    test_years: Vec<i32>,
    players: u8,
    player: Option<String>,
    fraction: Option<f64>,
    sample: Option<f64>,
    decisions: &str,
) -> PyResult<Split> {
    let decisions: Decisions = decisions.parse().map_err(crate::bad_argument)?;
    if players != 3 && players != 4 {
        return Err(crate::bad_argument(format!("players={players}: 3 or 4")));
    }
    if sample.is_some() && !test_years.is_empty() {
        return Err(crate::bad_argument("sample= and test_years= both choose the test games: give one"));
    }
    if sample.is_some_and(|f| !(f > 0.0 && f <= 1.0)) {
        return Err(crate::bad_argument(format!("sample={sample:?}: a share above 0 and at most 1")));
    }
    Ok(Split { years, test_years, players, player, fraction, fold: None, decisions, sample })
}

/// The training and test positions of `dataset` under `haifu train`'s split options (`--years`,
/// `--test-years`, `--players`, `--player`, `--fraction`, `--sample`, `--decisions`), read from the positions
/// cache or replayed (in parallel, the GIL released) and cached, as `haifu train` does.
#[pyfunction]
#[pyo3(signature = (dataset, *, years = Vec::new(), test_years = Vec::new(), players = 4, player = None,
    fraction = None, sample = None, decisions = "discards"))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per `haifu train` split option
fn positions<'py>(
    py: Python<'py>,
    dataset: PathBuf,
    years: Vec<i32>,
    test_years: Vec<i32>,
    players: u8,
    player: Option<String>,
    fraction: Option<f64>,
    sample: Option<f64>,
    decisions: &str,
) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyDict>)> {
    let split = split_of(years, test_years, players, player, fraction, sample, decisions)?;
    let (train, test) =
        py.detach(|| haifu_encoding::load(&dataset, &Games::read(&dataset)?, &split)).map_err(|e| crate::error(&e))?;
    Ok((arrays(py, train)?, arrays(py, test)?))
}

/// One side of the split in batches read from the positions cache a batch at a time (`haifu_encoding::Batches`).
#[pyclass(module = "haifu._haifu")]
struct PositionBatches {
    batches: haifu_encoding::Batches,
}

#[pymethods]
impl PositionBatches {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }
    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let batches = &mut self.batches;
        match py.detach(|| batches.next()) {
            None => Ok(None),
            Some(Err(e)) => Err(crate::error(&e)),
            Some(Ok(p)) => Ok(Some(arrays(py, p)?)),
        }
    }
}

/// The positions of one side (`test`: the test side, else training) of the same split as [`positions`], the same
/// rows in the same order, in batches of `batch_size` (the last one shorter).
#[pyfunction]
#[pyo3(signature = (dataset, *, test = false, batch_size = 65536, years = Vec::new(), test_years = Vec::new(),
    players = 4, player = None, fraction = None, sample = None, decisions = "discards"))]
#[allow(clippy::too_many_arguments)] // as positions, and the side and the batch
fn position_batches(
    py: Python<'_>,
    dataset: PathBuf,
    test: bool,
    batch_size: usize,
    years: Vec<i32>,
    test_years: Vec<i32>,
    players: u8,
    player: Option<String>,
    fraction: Option<f64>,
    sample: Option<f64>,
    decisions: &str,
) -> PyResult<PositionBatches> {
    let split = split_of(years, test_years, players, player, fraction, sample, decisions)?;
    if batch_size == 0 {
        return Err(crate::bad_argument("batch_size=0: a batch holds at least one position"));
    }
    let batches = py
        .detach(|| haifu_encoding::batches(&dataset, &Games::read(&dataset)?, &split, test, batch_size))
        .map_err(|e| crate::error(&e))?;
    Ok(PositionBatches { batches })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("FEATURES", haifu_encoding::features::FLAT)?;
    m.add("PACKED", haifu_encoding::positions::PACKED)?;
    m.add_function(wrap_pyfunction!(positions, m)?)?;
    m.add_function(wrap_pyfunction!(position_batches, m)?)?;
    m.add_class::<PositionBatches>()?;
    Ok(())
}
