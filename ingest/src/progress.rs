//! Ingest's progress bar on a terminal (files, MB read, games/s), for the command line and the Python module;
//! nothing when hidden (output piped, `--json`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

pub struct IngestBar {
    bar: Option<ProgressBar>,
    games: AtomicU64,
    bytes: AtomicU64,
    started: Instant,
}

impl IngestBar {
    pub fn new(visible: bool) -> IngestBar {
        let bar = visible.then(|| {
            let b = ProgressBar::new(0);
            b.set_style(
                ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} files {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            b
        });
        IngestBar { bar, games: AtomicU64::new(0), bytes: AtomicU64::new(0), started: Instant::now() }
    }
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

impl crate::pipeline::Progress for IngestBar {
    fn start(&self, files: u64, _bytes: u64) {
        if let Some(b) = &self.bar {
            b.set_length(files);
        }
    }
    fn file_done(&self, bytes: u64, games: u64) {
        let g = self.games.fetch_add(games, Ordering::Relaxed) + games;
        let by = self.bytes.fetch_add(bytes, Ordering::Relaxed) + bytes;
        if let Some(b) = &self.bar {
            b.inc(1);
            let s = self.started.elapsed().as_secs_f64().max(1e-3);
            b.set_message(format!("{:.1} MB read, {g} games, {:.0} games/s", by as f64 / 1e6, g as f64 / s));
        }
    }
}
