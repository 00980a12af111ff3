//! Finding input files: files as given, directories walked, lists of paths; the content hash that makes a
//! re-run skip a file. Reading a file's bytes into games is `haifu_record`'s ([`haifu_record::source`]).

use std::path::{Path, PathBuf};

/// Extensions taken when a directory is walked (files named on the command line are always taken).
pub const LOG_EXTENSIONS: &[&str] = &["mjlog", "xml", "gz", "txt", "html", "htm", "json", "jsonl", "mjson", "log"];

/// Expands the inputs: files as given, directories walked recursively (sorted, hidden entries and files
/// without a log extension skipped), `@LIST` or a list file: one path per line, `#` comments. A path that is
/// not there is an error naming it as given (a list's entry: the list, its line and the entry as written).
pub fn expand_inputs(inputs: &[PathBuf], lists: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut pending: Vec<(PathBuf, Option<ListEntry>)> = Vec::new();
    for l in lists {
        pending.extend(read_list(l)?);
    }
    for p in inputs {
        match p.to_str().and_then(|s| s.strip_prefix('@')) {
            Some(list) => pending.extend(read_list(Path::new(list))?),
            None => pending.push((p.clone(), None)),
        }
    }
    for (p, entry) in pending {
        let meta = std::fs::metadata(&p).map_err(|e| {
            let what = match &entry {
                Some(entry) => entry.describe(&p),
                None => p.display().to_string(),
            };
            std::io::Error::new(e.kind(), format!("{what}: {e}"))
        })?;
        if meta.is_dir() {
            walk(&p, &mut out)?;
        } else {
            out.push(p);
        }
    }
    Ok(out)
}

/// Where a path of a list was written: the list, the line (from 1), the entry as written.
struct ListEntry {
    list: PathBuf,
    line: usize,
    text: String,
}

impl ListEntry {
    /// `a/list.txt line 3: a/nope.xml`, and where a relative entry was looked for when it is not `path`.
    fn describe(&self, path: &Path) -> String {
        let at = format!("{} line {}: {}", self.list.display(), self.line, self.text);
        if path == Path::new(&self.text) {
            at
        } else {
            format!("{at} (not found from the current folder, nor from the list's folder as {})", path.display())
        }
    }
}

/// The list's paths: as written when absolute or found from the current folder, else beside the list.
fn read_list(list: &Path) -> std::io::Result<Vec<(PathBuf, Option<ListEntry>)>> {
    let text = std::fs::read_to_string(list)
        .map_err(|e| std::io::Error::new(e.kind(), format!("list {}: {e}", list.display())))?;
    let base = list.parent().unwrap_or(Path::new(""));
    Ok(text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(line, l)| {
            let p = PathBuf::from(l);
            let path = if p.is_absolute() || p.exists() { p } else { base.join(p) };
            (path, Some(ListEntry { list: list.to_path_buf(), line, text: l.to_string() }))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A list's entry that is not there is named as the user wrote it, with the list and line (issue 30: it
    /// was reported as `a/a/nope.xml`, a path nobody wrote).
    #[test]
    fn a_missing_list_entry_is_named_as_written() {
        let s = haifu_testkit::Scratch::new("inputs-list");
        let dir = s.0.join("a");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("here.xml"), "<mjloggm/>").unwrap();
        let list = dir.join("list.txt");
        std::fs::write(&list, "# two logs\nhere.xml\n\na/nope.xml\n").unwrap();
        let e = expand_inputs(&[PathBuf::from(format!("@{}", list.display()))], &[]).unwrap_err().to_string();
        let at = format!("{} line 4: a/nope.xml", list.display());
        assert!(e.starts_with(&at), "{e}");
        let beside = dir.join("a/nope.xml");
        assert!(e.contains(&format!("as {}", beside.display())), "says where it was looked for: {e}");
        std::fs::write(&list, "here.xml\n").unwrap();
        assert_eq!(expand_inputs(&[], &[list]).unwrap(), vec![dir.join("here.xml")]);
    }
}
