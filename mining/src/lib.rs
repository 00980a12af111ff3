//! Mining: the sequences of SPEC 2 counted per player and over everyone, split by strategy (SPEC 3), from
//! the decisions table of the ingest stage; and the statistics of the thesis's chapter 5.
//!
//! - [`shape`]: suit shapes as text and base-5 keys, the mirror.
//! - [`strategy`]: tanyao / chanta / yakuhai and the yaku that realise them.
//! - [`dataset`]: reading the ingest dataset (part files of chosen years, projected columns, players).
//! - [`mine`]: the counting, Rust engine; [`polars_engine`]: the same as a Polars lazy query.
//! - [`tables`]: `sequences.parquet`, `players.parquet`, `meta.json`, and reading them back.
//! - [`space`]: the size of the sequence space; [`stats`]: the statistics of chapter 5;
//!   [`report`]: tables rendered as CSV, Markdown and JSON.

pub mod dataset;
pub mod mine;
pub mod polars_engine;
pub mod report;
pub mod shape;
pub mod space;
pub mod spark;
pub mod stats;
pub mod strategy;
pub mod tables;

use std::path::Path;

pub use mine::{Backend, MineOptions, Mined, RoundsMode, SeqCount, StrategyRounds, ALL_SCOPE};
pub use shape::{Sequence, Shape};
pub use strategy::Strategy;

/// Mines `dataset` with the engine the options name.
pub fn mine(dataset: &Path, opts: &MineOptions) -> anyhow::Result<Mined> {
    match opts.engine {
        Backend::Rust => mine::mine_rust(dataset, opts),
        Backend::Polars => polars_engine::mine_polars(dataset, opts),
        Backend::Spark => {
            anyhow::bail!("the spark engine runs as a Spark job that writes the tables itself (spark::mine_spark)")
        }
    }
}
