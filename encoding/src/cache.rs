//! Encoded positions kept beside the dataset, one file per year partition and table size
//! (`DATASET/_haifu/cache/neural/<features>/<players>p-year=<Y>.bin`; the features are the discards' or the
//! choices' encoding), so that every epoch, model and
//! evaluation after the first reads them instead of replaying the events again. A file records a key: the
//! feature encoding's name and the part-list lines of the partition's games and events (their checksums);
//! when the dataset's parts or the encoder change, the key differs and the positions are encoded again.
//!
//! Layout (little-endian): `HAIFUPOS`, format version (u32), key (u64), positions n (u64), the features
//! bit-packed as [`Positions`] holds them (125 bytes a position: feature i is bit i % 8 of byte i / 8), then
//! legal (u64 x n), label (u8 x n), game (i64 x n), seat (u8 x n), players (u8 x n).

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use haifu_ingest::dataset::partition_name;

use crate::options::Decisions;
use crate::positions::{Positions, PACKED};

const MAGIC: &[u8; 8] = b"HAIFUPOS";
const VERSION: u32 = 1;

/// The cache file of one partition.
pub fn path(dataset: &Path, decisions: Decisions, players: u8, year: Option<i32>) -> PathBuf {
    dataset
        .join(haifu_ingest::parts::META_DIR)
        .join("cache/neural")
        .join(decisions.features())
        .join(format!("{players}p-{}.bin", partition_name(year)))
}

/// The keys of the partitions' positions: the encoding's name and the part-list lines of each partition's
/// games and events (the part list read once for all of them).
pub fn keys(dataset: &Path, decisions: Decisions, years: &[Option<i32>]) -> Result<Vec<u64>> {
    let list = dataset.join(haifu_ingest::parts::META_DIR).join("parts.jsonl");
    let text = std::fs::read_to_string(&list).with_context(|| format!("reading {}", list.display()))?;
    // (partition, line) of every games and events part
    let mut parts: Vec<(String, &str)> = text
        .lines()
        .filter_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            (v["table"] == "games" || v["table"] == "events")
                .then(|| (v["partition"].as_str().unwrap_or("").to_string(), l))
        })
        .collect();
    parts.sort_unstable();
    Ok(years
        .iter()
        .map(|&y| {
            let want = partition_name(y);
            let mut h = xxhash_rust::xxh3::Xxh3::new();
            h.update(decisions.features().as_bytes());
            for (_, l) in parts.iter().filter(|(p, _)| *p == want) {
                h.update(l.as_bytes());
                h.update(b"\n");
            }
            h.digest()
        })
        .collect())
}

/// The positions of a cache file, if it is there, whole, and of this key.
pub fn read(path: &Path, key: u64) -> Option<Positions> {
    let mut f = std::fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes).ok()?;
    decode(&bytes, key)
}

fn decode(bytes: &[u8], key: u64) -> Option<Positions> {
    let mut at = 0;
    let mut take = |n: usize| -> Option<&[u8]> {
        let s = bytes.get(at..at + n)?;
        at += n;
        Some(s)
    };
    if take(8)? != MAGIC {
        return None;
    }
    let u32_at = |s: &[u8]| u32::from_le_bytes(s.try_into().expect("4 bytes"));
    let u64_at = |s: &[u8]| u64::from_le_bytes(s.try_into().expect("8 bytes"));
    if u32_at(take(4)?) != VERSION || u64_at(take(8)?) != key {
        return None;
    }
    let n = usize::try_from(u64_at(take(8)?)).ok()?;
    let features = take(n.checked_mul(PACKED)?)?.to_vec();
    let legal = take(8 * n)?.chunks_exact(8).map(u64_at).collect();
    let label = take(n)?.to_vec();
    let game = take(8 * n)?.chunks_exact(8).map(|s| u64_at(s) as i64).collect();
    let seat = take(n)?.to_vec();
    let players = take(n)?.to_vec();
    (at == bytes.len()).then_some(Positions { features, legal, label, game, seat, players })
}

/// Bytes before the positions: magic, version, key and count.
const HEADER: u64 = 28;
/// Bytes of one position over all the columns: the packed features, legal (8), label, game (8), seat, players.
const ROW: u64 = PACKED as u64 + 19;

/// A cache file read a batch of rows at a time (each column's slice read where it lies), for positions larger
/// than memory.
pub struct Reader {
    file: std::fs::File,
    path: PathBuf,
    n: u64,
    at: u64,
}

impl Reader {
    /// The file's reader, if it is there, whole and of this key.
    pub fn open(path: &Path, key: u64) -> Option<Reader> {
        let mut file = std::fs::File::open(path).ok()?;
        let mut head = [0u8; HEADER as usize];
        file.read_exact(&mut head).ok()?;
        let u64_at = |at: usize| u64::from_le_bytes(head[at..at + 8].try_into().expect("8 bytes"));
        let version = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes"));
        if &head[..8] != MAGIC || version != VERSION || u64_at(12) != key {
            return None;
        }
        let n = u64_at(20);
        let whole = file.metadata().ok()?.len() == HEADER + n.checked_mul(ROW)?;
        whole.then(|| Reader { file, path: path.to_path_buf(), n, at: 0 })
    }

    /// Positions in the file.
    pub fn len(&self) -> u64 {
        self.n
    }

    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The next `rows` positions (fewer at the end; `None` once every row was read).
    pub fn next_rows(&mut self, rows: usize) -> Result<Option<Positions>> {
        let (n, at) = (self.n, self.at);
        let k = (rows as u64).min(n - at);
        if k == 0 {
            return Ok(None);
        }
        // each column starts after the ones before it, n rows of its width
        let mut column = |start: u64, width: u64| -> Result<Vec<u8>> {
            let mut out = vec![0u8; (k * width) as usize];
            self.file.seek(SeekFrom::Start(HEADER + start * n + at * width))?;
            self.file.read_exact(&mut out).with_context(|| format!("reading {}", self.path.display()))?;
            Ok(out)
        };
        let packed = PACKED as u64;
        let features = column(0, packed)?;
        let legal = column(packed, 8)?.chunks_exact(8).map(|s| u64::from_le_bytes(s.try_into().expect("8"))).collect();
        let label = column(packed + 8, 1)?;
        let game =
            column(packed + 9, 8)?.chunks_exact(8).map(|s| i64::from_le_bytes(s.try_into().expect("8"))).collect();
        let seat = column(packed + 17, 1)?;
        let players = column(packed + 18, 1)?;
        self.at += k;
        Ok(Some(Positions { features, legal, label, game, seat, players }))
    }
}

/// Writes the positions under `key` (through a temporary file of this process, renamed: a reader never sees half
/// of one, and two runs building the same cache do not trip over each other).
pub fn write(path: &Path, key: u64, p: &Positions) -> Result<()> {
    let n = p.len();
    if p.features.len() != n * PACKED {
        bail!("positions of {} feature bytes, not {PACKED}", p.features.len() / n.max(1));
    }
    let mut out = Vec::with_capacity(28 + n * (PACKED + 19));
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&key.to_le_bytes());
    out.extend_from_slice(&(n as u64).to_le_bytes());
    out.extend_from_slice(&p.features);
    p.legal.iter().for_each(|m| out.extend_from_slice(&m.to_le_bytes()));
    out.extend_from_slice(&p.label);
    p.game.iter().for_each(|g| out.extend_from_slice(&g.to_le_bytes()));
    out.extend_from_slice(&p.seat);
    out.extend_from_slice(&p.players);
    let dir = path.parent().expect("a cache file has a folder");
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    haifu_ingest::files::atomic_write(path, |mut f| Ok(f.write_all(&out)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::FLAT;

    #[test]
    fn positions_come_back_as_written_and_only_under_their_key() {
        let mut p = Positions::default();
        for i in 0..3u8 {
            let row: Vec<u8> = (0..FLAT).map(|f| u8::from((f * 7 + usize::from(i)) % 3 == 0)).collect();
            p.push(&row, 0x3_0000_0001 << i, i, -5 + i64::from(i), i, 4);
        }
        let path = std::env::temp_dir().join(format!("haifu-cache-{}", std::process::id())).join("x.bin");
        write(&path, 42, &p).unwrap();
        let q = read(&path, 42).expect("read back");
        assert_eq!(
            (&q.features, &q.legal, &q.label, &q.game, &q.seat, &q.players),
            (&p.features, &p.legal, &p.label, &p.game, &p.seat, &p.players)
        );
        assert!(read(&path, 43).is_none(), "another key");
        // read two rows at a time, the same rows
        let mut r = Reader::open(&path, 42).expect("a reader");
        let (a, b) = (r.next_rows(2).unwrap().unwrap(), r.next_rows(2).unwrap().unwrap());
        assert!(r.next_rows(2).unwrap().is_none());
        assert_eq!((a.len(), b.len()), (2, 1));
        let mut both = a;
        both.extend(b);
        assert_eq!((both.features, both.legal, both.game), (q.features, q.legal, q.game));
        assert!(Reader::open(&path, 43).is_none(), "another key");
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.pop();
        assert!(decode(&bytes, 42).is_none(), "a cut file");
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }
}
