//! The shared corpus of real logs (`../shared/corpus`): where it is, what its MANIFEST.tsv lists, and what each
//! file holds counted straight from its text (wins and draws), so that tests compare what the project read
//! with numbers the project's readers had no part in.

use std::path::{Path, PathBuf};

/// The corpus: `$HAIFU_CORPUS`, else `shared/corpus` beside the project checkout (`../shared/corpus` from
/// its root). `None` when it holds no `MANIFEST.tsv`: tests that need it then pass without checking anything
/// (`./scripts/test` says so before it runs them) — unless `HAIFU_REQUIRE_CORPUS` is set (CI sets it), when
/// an absent corpus fails the test, so a run can never pass by skipping.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("HAIFU_CORPUS") {
        Some(p) => PathBuf::from(p),
        None => beside_checkout(),
    };
    if dir.join("MANIFEST.tsv").is_file() {
        return Some(dir);
    }
    if std::env::var_os("HAIFU_REQUIRE_CORPUS").is_some() {
        panic!("HAIFU_REQUIRE_CORPUS is set but the corpus is absent at {} (set HAIFU_CORPUS)", dir.display());
    }
    // the test runner keeps this for failing tests only: `./scripts/test` says it before the run
    eprintln!("SKIPPED: the real corpus is absent (looked at {}; set HAIFU_CORPUS). Nothing checked.", dir.display());
    None
}

/// `shared/corpus` beside the checkout the tests run from: looked for above the package directory cargo gives
/// the test at run time (not the one this crate was compiled in: a target folder shared by two checkouts keeps
/// the first one's path), else above the compiled-in one.
fn beside_checkout() -> PathBuf {
    let compiled = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let running = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
    for start in running.iter().chain(std::iter::once(&compiled)) {
        if let Some(dir) = start.ancestors().map(|a| a.join("shared/corpus")).find(|d| d.join("MANIFEST.tsv").is_file())
        {
            return dir;
        }
    }
    compiled.join("../../shared/corpus")
}

/// One row of MANIFEST.tsv.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Relative to the corpus root, e.g. `mjlog/owner__repo/2019...xml.gz`.
    pub path: String,
    /// `mjlog`, `tenhou6` or `mjai`.
    pub format: String,
    /// A whole game (`full`), not a crafted or partial snippet (`fragment`).
    pub full: bool,
    pub players: Option<u8>,
    pub year: Option<i32>,
}

impl Entry {
    /// The file's text, gunzipped.
    pub fn text(&self, root: &Path) -> Vec<u8> {
        let raw = std::fs::read(root.join(&self.path)).unwrap_or_else(|e| panic!("{}: {e}", self.path));
        haifu_record::source::decompress(raw).unwrap_or_else(|e| panic!("{}: {e}", self.path))
    }
}

/// Every row of the manifest, in its order. Panics on a manifest without its columns: the corpus is broken.
pub fn manifest(root: &Path) -> Vec<Entry> {
    let text = std::fs::read_to_string(root.join("MANIFEST.tsv")).expect("MANIFEST.tsv readable");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("MANIFEST has no {name}"));
    let (path, format, kind, players, year) = (col("path"), col("format"), col("kind"), col("players"), col("year"));
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let field = |i: usize| f.get(i).copied().unwrap_or("");
            Entry {
                path: field(path).to_string(),
                format: field(format).to_string(),
                full: field(kind) == "full",
                players: field(players).parse().ok(),
                year: field(year).parse().ok(),
            }
        })
        .collect()
}

/// The full games of one format (`mjlog`, `tenhou6`, `mjai`), sorted by path.
pub fn full_games(root: &Path, format: &str) -> Vec<Entry> {
    let mut v: Vec<Entry> = manifest(root).into_iter().filter(|e| e.full && e.format == format).collect();
    v.sort_by(|a, b| a.path.cmp(&b.path));
    v
}

/// What a file says happened, counted from its raw text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcomes {
    /// Rounds started (`INIT`, a tenhou.net/6 `log` entry, `start_kyoku`).
    pub rounds: usize,
    /// Wins: one per winner, so a double ron counts two.
    pub wins: usize,
    /// Draws of every kind (exhaustive, abortive, nagashi mangan, triple ron).
    pub draws: usize,
    /// Discards (`D`..`G` tags; tenhou.net/6 discards; mjai `dahai`).
    pub discards: usize,
}

impl std::ops::AddAssign for Outcomes {
    fn add_assign(&mut self, o: Outcomes) {
        self.rounds += o.rounds;
        self.wins += o.wins;
        self.draws += o.draws;
        self.discards += o.discards;
    }
}

/// Counts a file's rounds, wins, draws and discards without the project's readers: tags by their names in
/// mjlog XML, the result arrays of tenhou.net/6 JSON, the message types of mjai lines.
pub fn outcomes(format: &str, text: &[u8]) -> Outcomes {
    match format {
        "mjlog" => mjlog_outcomes(&String::from_utf8_lossy(text)),
        "tenhou6" => tenhou6_outcomes(text),
        "mjai" => mjai_outcomes(text),
        other => panic!("unknown corpus format {other}"),
    }
}

fn mjlog_outcomes(xml: &str) -> Outcomes {
    let mut o = Outcomes::default();
    for tag in xml.split('<').skip(1) {
        let name: String = tag.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        match name.as_str() {
            "INIT" => o.rounds += 1,
            "AGARI" => o.wins += 1,
            "RYUUKYOKU" => o.draws += 1,
            // a discard: D, E, F or G and the tile id
            _ => {
                let (head, id) = name.split_at(name.len().min(1));
                o.discards += usize::from(
                    "DEFG".contains(head)
                        && !head.is_empty()
                        && !id.is_empty()
                        && id.bytes().all(|b| b.is_ascii_digit()),
                );
            }
        }
    }
    o
}

fn tenhou6_outcomes(text: &[u8]) -> Outcomes {
    let mut o = Outcomes::default();
    // a file may hold several games, one JSON object after another
    let games = serde_json::Deserializer::from_slice(text).into_iter::<serde_json::Value>();
    let games: Vec<serde_json::Value> = games.collect::<Result<_, _>>().expect("tenhou.net/6 file is JSON");
    for round in games.iter().flat_map(|v| v["log"].as_array().map(Vec::as_slice).unwrap_or_default()) {
        let r = round.as_array().expect("a round is an array");
        o.rounds += 1;
        // [kyoku, scores, dora, ura, then per seat: hand, takes, outs, then the result]
        for seat in 0..4 {
            let outs = r.get(6 + 3 * seat).and_then(|x| x.as_array());
            // a tile number (60: tsumogiri) or `r` and the riichi discard; not the 0 after an open kan, nor a
            // closed or added kan (`..a..`, `..k..`) or a north extraction (`f44`) written among the discards
            let discard = |t: &serde_json::Value| match t {
                serde_json::Value::Number(n) => n.as_i64() != Some(0),
                serde_json::Value::String(s) => s.starts_with('r'),
                _ => false,
            };
            o.discards += outs.map_or(0, |outs| outs.iter().filter(|t| discard(t)).count());
        }
        let result = r.last().and_then(|x| x.as_array()).expect("a round ends with its result");
        if result.first().and_then(|x| x.as_str()) == Some("和了") {
            o.wins += (result.len() - 1) / 2;
        } else {
            o.draws += 1;
        }
    }
    o
}

fn mjai_outcomes(text: &[u8]) -> Outcomes {
    let mut o = Outcomes::default();
    for line in text.split(|&b| b == b'\n').filter(|l| !l.iter().all(u8::is_ascii_whitespace)) {
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(line) else { continue };
        match v["type"].as_str() {
            Some("start_kyoku") => o.rounds += 1,
            Some("hora") => o.wins += 1,
            Some("ryukyoku") => o.draws += 1,
            Some("dahai") => o.discards += 1,
            _ => {}
        }
    }
    o
}
