//! A folder of result tables (`haifu mine`'s, a style database) replaced as a whole: the new one is written
//! beside its place and swapped in (one atomic exchange of the names on Linux, else two renames), so that
//! neither a reader nor a kill ever leaves new files beside old ones.
//!
//! Beside `DIR`: `.DIR.new-<pid>` while a run writes, and after the exchange holding the old tables until they
//! are removed (removed when the run fails; left by a kill and removed by the next run once that process is
//! gone); `.DIR.old` between the two renames where there is no exchange (the next run puts it back when no
//! `DIR` took its place, and removes it when one did).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// Writes a new `out` with `fill` (which writes the files into the folder it is given) and swaps it in for
/// the old one. `own` names the files such a folder holds: an `out` holding any other file (a user's folder
/// given by mistake, a dataset) is refused before anything is written, and nothing of it is touched.
pub fn replace_folder<T>(out: &Path, own: &[&str], fill: impl FnOnce(&Path) -> Result<T>) -> Result<T> {
    recover(out)?;
    if out.is_dir() {
        let mut foreign = Vec::new();
        for e in std::fs::read_dir(out).with_context(|| format!("listing {}", out.display()))? {
            let name = e?.file_name().to_string_lossy().into_owned();
            if !own.contains(&name.as_str()) && !name.starts_with('.') {
                foreign.push(name);
            }
        }
        if !foreign.is_empty() {
            foreign.sort();
            bail!(
                "{} holds files these tables do not write ({}): it is replaced as a whole, so give a new or an \
                 empty folder (or one these tables were written to)",
                out.display(),
                foreign.join(", ")
            );
        }
    } else if out.exists() {
        bail!("{} is not a folder", out.display());
    }
    let staging = sibling(out, &format!("new-{}", std::process::id()));
    if staging.exists() {
        std::fs::remove_dir_all(&staging).with_context(|| format!("clearing {}", staging.display()))?;
    }
    std::fs::create_dir_all(&staging).with_context(|| format!("creating {}", staging.display()))?;
    let value = match fill(&staging).and_then(|v| swap_in(&staging, out).map(|_| v)) {
        Ok(v) => v,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(e);
        }
    };
    Ok(value)
}

/// Puts `staging` where `out` is and removes the old one: by one atomic exchange of the two names where the
/// file system has it (Linux's `renameat2`: a reader finds the old folder or the new one, never none; a kill
/// after it leaves the old tables under the staging name, which [`recover`] removes), else `out` moved aside
/// and `staging` renamed into its place.
fn swap_in(staging: &Path, out: &Path) -> Result<()> {
    if !out.exists() {
        return std::fs::rename(staging, out)
            .with_context(|| format!("renaming {} to {}", staging.display(), out.display()));
    }
    if exchange(staging, out).is_ok() {
        return std::fs::remove_dir_all(staging)
            .with_context(|| format!("removing the replaced folder, now {}", staging.display()));
    }
    let old = sibling(out, "old");
    std::fs::rename(out, &old).with_context(|| format!("moving {} aside to {}", out.display(), old.display()))?;
    if let Err(e) = std::fs::rename(staging, out) {
        // the old folder goes back where it was: a failed run changes nothing
        let _ = std::fs::rename(&old, out);
        return Err(e).with_context(|| format!("renaming {} to {}", staging.display(), out.display()));
    }
    std::fs::remove_dir_all(&old).with_context(|| format!("removing the replaced folder {}", old.display()))
}

/// Swaps the names of two folders in one step.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)] // the standard library has no exchanging rename
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| std::ffi::CString::new(p.as_os_str().as_bytes()).map_err(std::io::Error::other);
    let (a, b) = (c(a)?, c(b)?);
    // SAFETY: two NUL-terminated paths that live across the call
    let r = unsafe { libc::renameat2(libc::AT_FDCWD, a.as_ptr(), libc::AT_FDCWD, b.as_ptr(), libc::RENAME_EXCHANGE) };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> std::io::Result<()> {
    Err(std::io::Error::from(std::io::ErrorKind::Unsupported))
}

/// Repairs what a killed replacement of `out` left (see the module documentation).
pub fn recover(out: &Path) -> Result<()> {
    let old = sibling(out, "old");
    if old.exists() {
        if out.exists() {
            std::fs::remove_dir_all(&old)
                .with_context(|| format!("removing {}, the folder an interrupted run replaced", old.display()))?;
        } else {
            std::fs::rename(&old, out).with_context(|| {
                format!("restoring {} from {}, left by an interrupted run", out.display(), old.display())
            })?;
        }
    }
    let Some(prefix) = out.file_name().map(|n| format!(".{}.new-", n.to_string_lossy())) else { return Ok(()) };
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let Ok(entries) = std::fs::read_dir(parent) else { return Ok(()) };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let pid = name.strip_prefix(&prefix).and_then(|p| p.parse::<u32>().ok());
        if pid.is_some_and(|pid| pid != std::process::id() && !running(pid)) {
            let p = e.path();
            std::fs::remove_dir_all(&p).with_context(|| format!("removing {}, left by a killed run", p.display()))?;
        }
    }
    Ok(())
}

/// Whether a process of that id runs (Linux: `/proc`; elsewhere every process counts as running, and its
/// leftovers stay).
fn running(pid: u32) -> bool {
    !Path::new("/proc/self").exists() || Path::new("/proc").join(pid.to_string()).exists()
}

/// `.NAME.what` beside `dir`.
fn sibling(dir: &Path, what: &str) -> PathBuf {
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "tables".into());
    dir.with_file_name(format!(".{name}.{what}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(dir: &Path) -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (e.file_name().to_string_lossy().into_owned(), std::fs::read_to_string(e.path()).unwrap())
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_folder_is_replaced_whole_and_a_failed_fill_changes_nothing() {
        let s = haifu_testkit::Scratch::new("replace-folder");
        let out = s.0.join("T");
        let write = |a: &str, b: &str| {
            let (a, b) = (a.to_string(), b.to_string());
            move |d: &Path| -> Result<()> {
                std::fs::write(d.join("a"), a)?;
                std::fs::write(d.join("b"), b)?;
                Ok(())
            }
        };
        replace_folder(&out, &["a", "b"], write("1", "1")).unwrap();
        replace_folder(&out, &["a", "b"], write("2", "2")).unwrap();
        assert_eq!(files(&out), vec![("a".into(), "2".into()), ("b".into(), "2".into())]);
        let failed = replace_folder(&out, &["a", "b"], |d: &Path| -> Result<()> {
            std::fs::write(d.join("a"), "3")?;
            bail!("the run failed")
        });
        assert!(failed.is_err());
        assert_eq!(files(&out), vec![("a".into(), "2".into()), ("b".into(), "2".into())], "the old tables stay");
        let leftovers: Vec<_> = std::fs::read_dir(&s.0).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(leftovers, vec![std::ffi::OsString::from("T")], "no staging folder is left");
    }

    /// A kill between the two renames leaves `.T.old` and no `T`; a kill while the old one was removed leaves
    /// `.T.old` beside `T` (issue 48: every later build failed "Directory not empty").
    #[test]
    fn what_a_kill_leaves_is_recovered() {
        let s = haifu_testkit::Scratch::new("replace-folder-kill");
        let out = s.0.join("T");
        let old = s.0.join(".T.old");
        std::fs::create_dir_all(&old).unwrap();
        std::fs::write(old.join("a"), "old").unwrap();
        recover(&out).unwrap();
        assert_eq!(files(&out), vec![("a".into(), "old".into())], "the folder moved aside is put back");
        std::fs::create_dir_all(&old).unwrap();
        std::fs::write(old.join("x"), "half removed").unwrap();
        replace_folder(&out, &["a"], |d: &Path| Ok(std::fs::write(d.join("a"), "new")?)).unwrap();
        assert_eq!(files(&out), vec![("a".into(), "new".into())]);
        assert!(!old.exists());
        // a staging folder of a process that is gone: Linux's pids stop at 2^22
        let dead = s.0.join(".T.new-4194305");
        std::fs::create_dir_all(&dead).unwrap();
        recover(&out).unwrap();
        assert!(!dead.exists(), "a dead run's staging folder is removed");
    }

    #[test]
    fn a_folder_with_other_files_is_refused_untouched() {
        let s = haifu_testkit::Scratch::new("replace-folder-foreign");
        let out = s.0.join("T");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join("notes.txt"), "mine").unwrap();
        let e = replace_folder(&out, &["a"], |d: &Path| Ok(std::fs::write(d.join("a"), "new")?)).unwrap_err();
        assert!(e.to_string().contains("notes.txt"), "{e}");
        assert_eq!(files(&out), vec![("notes.txt".into(), "mine".into())]);
    }
}
