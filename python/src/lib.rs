//! haifu from Python: the extension module `haifu._haifu`, which the package `haifu` (python/haifu/) wraps.
//! Each function is a thin door onto a stage crate, the same code the command line runs: ingest's pipeline,
//! the dataset's tables handed to pyarrow and Polars through the Arrow C stream interface without a copy
//! ([`tables`]), the positions `haifu train` learns from as numpy arrays ([`positions`]), a game's events
//! with the table state and every seat's legal actions before each ([`walker`]), the rules' shanten and
//! scoring ([`rules`]), the lookup imitator and the style database ([`style`]), and an mjai bot for Python
//! arenas ([`bot`]). Long work runs with the GIL released; a failure is a `haifu.HaifuError` whose message is
//! the command line's (the file, the position, the reason).

use std::path::PathBuf;

use pyo3::exceptions::PyException;
use pyo3::prelude::*;

mod bot;
mod positions;
mod rules;
mod style;
mod tables;
mod walker;

pyo3::create_exception!(
    _haifu,
    HaifuError,
    PyException,
    "A failure of haifu: the message names the file, the position and the reason."
);

/// An error of the Rust side as a Python exception, with its whole chain of causes (as the CLI prints it).
pub(crate) fn error(e: &anyhow::Error) -> PyErr {
    HaifuError::new_err(format!("{e:#}"))
}

/// A refused argument (an unknown table, a malformed hand) as Python's `ValueError`.
pub(crate) fn bad_argument(message: impl Into<String>) -> PyErr {
    pyo3::exceptions::PyValueError::new_err(message.into())
}

/// `haifu ingest` of `paths` into `out`: the summary as `--json` prints it (a JSON text; the package's
/// `haifu.ingest` returns it as a dict).
#[pyfunction]
#[pyo3(signature = (paths, out, *, jobs = 0, strict = false, choices = true, keep_duplicates = false,
    keep_misscored = false, max_quarantined = None, length = None, red = None, players = None, progress = None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per `haifu ingest` option
fn ingest(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    out: PathBuf,
    jobs: usize,
    strict: bool,
    choices: bool,
    keep_duplicates: bool,
    keep_misscored: bool,
    max_quarantined: Option<String>,
    length: Option<String>,
    red: Option<bool>,
    players: Option<u8>,
    progress: Option<bool>,
) -> PyResult<String> {
    use haifu_ingest::pipeline::{IngestOptions, QuarantineLimit, Stage};
    let max_quarantined = max_quarantined.map(|s| s.parse::<QuarantineLimit>()).transpose().map_err(bad_argument)?;
    let length = length.map(|s| s.parse()).transpose().map_err(|e: String| bad_argument(e))?;
    let read = haifu_record::length::ReadOptions { length, red_fives: red, players };
    let opts = IngestOptions {
        out,
        jobs,
        strict,
        read,
        max_quarantined,
        keep_duplicates,
        keep_misscored,
        choices,
        stop_after: Stage::Dataset,
    };
    let visible = progress.unwrap_or_else(|| std::io::IsTerminal::is_terminal(&std::io::stderr()));
    py.detach(|| {
        let inputs = haifu_ingest::source::expand_inputs(&paths, &[])?;
        let bar = haifu_ingest::progress::IngestBar::new(visible);
        let summary = haifu_ingest::pipeline::ingest(&inputs, &opts, &bar);
        bar.finish();
        Ok(serde_json::to_string(&summary?)?)
    })
    .map_err(|e: anyhow::Error| error(&e))
}

#[pymodule]
fn _haifu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("HaifuError", m.py().get_type::<HaifuError>())?;
    m.add_function(wrap_pyfunction!(ingest, m)?)?;
    tables::register(m)?;
    positions::register(m)?;
    rules::register(m)?;
    walker::register(m)?;
    style::register(m)?;
    bot::register(m)?;
    Ok(())
}
