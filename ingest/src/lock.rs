//! One writer at a time: a dataset's writers (an ingest, `haifu check --adopt`) hold `_haifu/lock` for their
//! whole run, from the clean-up of an earlier run's leftovers to the commit.
//!
//! The lock is the operating system's lock on the open file (`flock` on Linux), not the file's existence: it
//! goes with the process, so a writer killed with `kill -9` holds nothing afterwards, and the next one needs no
//! clean-up. The file's text names the holder (pid, command, start) for the error a second writer gets.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Seek, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::parts::META_DIR;

const LOCK: &str = "lock";

/// The held lock of a dataset; released when dropped (or when the process ends, however it ends).
#[derive(Debug)]
pub struct WriterLock {
    file: File,
    path: PathBuf,
}

impl WriterLock {
    /// Takes the dataset's writer lock, or fails at once naming the writer that holds it. `what` says what
    /// this process does (`haifu ingest`), for the error another writer gets.
    pub fn acquire(dataset: &Path, what: &str) -> Result<WriterLock> {
        let meta = dataset.join(META_DIR);
        std::fs::create_dir_all(&meta).with_context(|| format!("creating {}", meta.display()))?;
        let path = meta.join(LOCK);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                // the holder writes its name just after it takes the lock: a moment to let it
                let mut holder = String::new();
                for _ in 0..50 {
                    holder = std::fs::read_to_string(&path).unwrap_or_default();
                    if !holder.trim().is_empty() {
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                let holder = holder.trim();
                let holder = if holder.is_empty() { "a process that has not yet written its name" } else { holder };
                bail!(
                    "{} is being written by another haifu ({holder}; lock {}): one writer at a time; run this \
                     again once it has finished (a killed writer holds no lock)",
                    dataset.display(),
                    path.display()
                );
            }
            Err(TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("locking {}", path.display()));
            }
        }
        let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_secs();
        let name = format!("pid {}, `{what}`, since unix time {since}\n", std::process::id());
        file.set_len(0)
            .and_then(|_| file.rewind())
            .and_then(|_| file.write_all(name.as_bytes()))
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(WriterLock { file, path })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for WriterLock {
    fn drop(&mut self) {
        // the name goes first, so that nobody reads a finished writer's name while the lock is free
        let _ = self.file.set_len(0);
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_refused_with_the_holders_name() {
        let s = haifu_testkit::Scratch::new("writer-lock");
        let held = WriterLock::acquire(&s.0, "haifu ingest a").unwrap();
        let e = WriterLock::acquire(&s.0, "haifu ingest b").unwrap_err().to_string();
        assert!(e.contains(&format!("pid {}", std::process::id())), "{e}");
        assert!(e.contains("`haifu ingest a`"), "{e}");
        drop(held);
        let again = WriterLock::acquire(&s.0, "haifu ingest b").unwrap();
        assert!(std::fs::read_to_string(again.path()).unwrap().contains("haifu ingest b"));
    }
}
