//! Mining: the sequences of SPEC 2 counted per player and over everyone, split by strategy (SPEC 3), from
//! the decisions table of the ingest stage; and the statistics of the thesis's chapter 5.

pub mod shape;
pub mod strategy;

pub use shape::{Sequence, Shape};
pub use strategy::Strategy;
