//! Progress bars on a terminal (files, MB, games/s); nothing when output is piped. Ingest's is
//! [`haifu_ingest::progress::IngestBar`], which the Python module shows too.

use indicatif::{ProgressBar, ProgressStyle};

/// A spinner with a message for work without a known length (on a terminal only).
pub fn spinner(visible: bool, message: &str) -> Option<ProgressBar> {
    visible.then(|| {
        let b = ProgressBar::new_spinner();
        b.set_message(message.to_string());
        b.enable_steady_tick(std::time::Duration::from_millis(120));
        b
    })
}

/// A bar counting `len` items of `what` (games, files) with their rate (on a terminal only).
pub fn counter(visible: bool, len: usize, what: &str) -> Option<ProgressBar> {
    visible.then(|| {
        let b = ProgressBar::new(len as u64);
        let template =
            format!("{{spinner}} [{{elapsed_precise}}] {{bar:30}} {{pos}}/{{len}} {what} ({{per_sec}}) {{msg}}");
        b.set_style(ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()));
        b
    })
}
