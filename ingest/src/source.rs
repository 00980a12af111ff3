//! Finding input files: files as given, directories walked, lists of paths; the content hash that makes a
//! re-run skip a file. Reading a file's bytes into games is `haifu_record`'s ([`haifu_record::source`]).

use std::path::{Path, PathBuf};

/// Extensions taken when a directory is walked (files named on the command line are always taken).
pub const LOG_EXTENSIONS: &[&str] = &["mjlog", "xml", "gz", "txt", "html", "htm", "json", "jsonl", "mjson", "log"];

/// Expands the inputs: files as given, directories walked recursively (sorted, hidden entries and files
/// without a log extension skipped), `@LIST` or a list file: one path per line, `#` comments.
pub fn expand_inputs(inputs: &[PathBuf], lists: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut pending: Vec<PathBuf> = Vec::new();
    for l in lists {
        pending.extend(read_list(l)?);
    }
    for p in inputs {
        match p.to_str().and_then(|s| s.strip_prefix('@')) {
            Some(list) => pending.extend(read_list(Path::new(list))?),
            None => pending.push(p.clone()),
        }
    }
    for p in pending {
        let meta = std::fs::metadata(&p).map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", p.display())))?;
        if meta.is_dir() {
            walk(&p, &mut out)?;
        } else {
            out.push(p);
        }
    }
    Ok(out)
}

fn read_list(list: &Path) -> std::io::Result<Vec<PathBuf>> {
    let text = std::fs::read_to_string(list)
        .map_err(|e| std::io::Error::new(e.kind(), format!("list {}: {e}", list.display())))?;
    let base = list.parent().unwrap_or(Path::new(""));
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let p = PathBuf::from(l);
            if p.is_absolute() || p.exists() {
                p
            } else {
                base.join(p)
            }
        })
        .collect())
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?
        .collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        let path = e.path();
        if e.file_type()?.is_dir() {
            walk(&path, out)?;
        } else if has_log_extension(&path) {
            out.push(path);
        }
    }
    Ok(())
}

fn has_log_extension(p: &Path) -> bool {
    p.extension().and_then(|e| e.to_str()).is_some_and(|e| LOG_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// Content hash of the file as stored (the manifest key).
pub fn content_hash(raw: &[u8]) -> String {
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(raw))
}
