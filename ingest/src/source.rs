//! Finding input files: files as given, directories walked, lists of paths; the content hash that makes a
//! re-run skip a file. Reading a file's bytes into games is `haifu_record`'s ([`haifu_record::source`]).

use std::path::{Path, PathBuf};

use haifu_record::source::MAX_FILE_BYTES;

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

/// A path as text, for the tables and messages: as it is when it is UTF-8; otherwise each byte that is not UTF-8
/// is written `\xNN`, so that two names that differ only in such bytes stay two names (a lossy conversion
/// writes both as the same `\u{FFFD}`).
pub fn path_text(p: &Path) -> String {
    #[cfg(unix)]
    {
        use std::fmt::Write;
        use std::os::unix::ffi::OsStrExt;
        let bytes = p.as_os_str().as_bytes();
        if let Ok(s) = std::str::from_utf8(bytes) {
            return s.to_string();
        }
        let mut out = String::with_capacity(bytes.len() + 8);
        for chunk in bytes.utf8_chunks() {
            out.push_str(chunk.valid());
            for b in chunk.invalid() {
                let _ = write!(out, "\\x{b:02x}");
            }
        }
        out
    }
    #[cfg(not(unix))]
    {
        p.display().to_string()
    }
}

/// An input that ingest does not read, and why: not a regular file (a FIFO would block the run for ever), or a
/// file of the output dataset itself.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Ignored {
    pub file: String,
    pub reason: String,
}

/// The inputs ingest reads, each with its size, and the ones it leaves out ([`Ignored`]). A path whose metadata
/// cannot be read stays in: reading it fails and quarantines it with the reason.
pub fn screen_inputs(inputs: &[PathBuf], out: &Path) -> (Vec<(PathBuf, u64)>, Vec<Ignored>) {
    // the dataset's own folders, as the file system names them (the inputs may reach them by another path)
    let own: Vec<PathBuf> = std::iter::once(crate::parts::META_DIR)
        .chain(crate::dataset::TABLES)
        .filter_map(|d| out.join(d).canonicalize().ok())
        .collect();
    let mut parents: std::collections::HashMap<PathBuf, bool> = std::collections::HashMap::new();
    let mut take = Vec::with_capacity(inputs.len());
    let mut ignored = Vec::new();
    for p in inputs {
        let parent = p.parent().unwrap_or(Path::new("")).to_path_buf();
        let inside = *parents.entry(parent).or_insert_with_key(|parent| {
            let dir = if parent.as_os_str().is_empty() { Path::new(".") } else { parent.as_path() };
            dir.canonicalize().is_ok_and(|c| own.iter().any(|o| c.starts_with(o)))
        });
        if inside {
            let reason = format!("a file of the output dataset {} itself: never an input", out.display());
            ignored.push(Ignored { file: path_text(p), reason });
            continue;
        }
        match std::fs::metadata(p) {
            Ok(m) if !m.is_file() && !m.is_dir() => {
                let kind = file_kind(&m.file_type());
                ignored.push(Ignored { file: path_text(p), reason: format!("not a regular file ({kind}): not read") });
            }
            Ok(m) => take.push((p.clone(), m.len())),
            Err(_) => take.push((p.clone(), 0)),
        }
    }
    (take, ignored)
}

fn file_kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    let _ = t;
    "neither a file nor a folder"
}

/// Reads a log file whole, refusing one larger than [`MAX_FILE_BYTES`] before reading it (and one that grows
/// past it while read), with a reason for the quarantine.
pub fn read_log(p: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let limit = MAX_FILE_BYTES;
    let f = std::fs::File::open(p).map_err(|e| format!("cannot read: {e}"))?;
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let too_big = |n: u64| format!("the file is {n} bytes: beyond haifu's limit of {} MiB for one log", limit >> 20);
    if len > limit {
        return Err(too_big(len));
    }
    let mut raw = Vec::with_capacity(len as usize);
    f.take(limit + 1).read_to_end(&mut raw).map_err(|e| format!("cannot read: {e}"))?;
    if raw.len() as u64 > limit {
        return Err(too_big(raw.len() as u64));
    }
    Ok(raw)
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
