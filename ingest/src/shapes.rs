//! The `shapes` lookup written beside a dataset's tables (`DIR/shapes.parquet`): every suit shape a hand can
//! hold, its integer key (the decisions table's `*_key` columns, `rules::hand::shape_key`) and its digits
//! (SPEC 2). The decisions table stores only the keys; a SQL user joins this file to read the digits.
//! `haifu mine` writes the same lookup beside its sequence tables, holding the keys they use.

use std::path::Path;

use anyhow::Result;
use haifu_rules::hand::shape_digits;
use haifu_rules::{write_suit_digits, Counts, Suit, KINDS};
use parquet::arrow::ArrowWriter;

use crate::columns;
use crate::columns::{Table, UInt32, UInt8, Utf8};
use crate::files::{atomic_write, writer_properties};

/// The lookup's file name in the dataset folder.
pub const FILE: &str = "shapes.parquet";

/// The keys of every suit shape of at most 14 tiles, each digit 0..=4 times (405,350 of them), ascending:
/// the digit 9 is the key's highest place, so choosing the counts from the digit 9 down to the digit 1, each
/// in increasing order, visits the keys in order, and only those of at most 14 tiles (filtering all 5^9 keys
/// was a quarter of a one-file ingest's instructions).
fn shape_keys() -> Vec<u32> {
    fn go(place: usize, key: u32, left: u8, out: &mut Vec<u32>) {
        for n in 0..=left.min(4) {
            let key = key * 5 + u32::from(n);
            if place == 0 {
                out.push(key);
            } else {
                go(place - 1, key, left - n, out);
            }
        }
    }
    let mut keys = Vec::with_capacity(405_350);
    go(8, 0, 14, &mut keys);
    keys
}

/// The digits of a shape, ascending, `-` for none, written into the reused `text`.
fn digits<'t>(text: &'t mut String, counts: &[u8; 9]) -> &'t str {
    // the shape as the man suit of an otherwise empty hand
    let mut hand: Counts = [0; KINDS];
    hand[..9].copy_from_slice(counts);
    write_suit_digits(&hand, Suit::Man, text);
    text
}

/// Shape keys, ascending and distinct: the rows of one lookup.
pub struct ShapeKeys<'a>(pub &'a [u32]);

columns! {
    /// One row per suit shape.
    pub struct ShapesBatch("shapes") for<'a> |shapes: ShapeKeys<'a>, text| {
        for &key in shapes.0;
        let counts = shape_digits(key);
        let tiles = counts.iter().sum::<u8>();
    }
    key: UInt32 = key,
    digits: Utf8 = digits(text, &counts),
    tiles: UInt8 = tiles,
}

/// Writes `dataset/shapes.parquet` unless it is there (it never changes).
pub fn write_lookup(dataset: &Path) -> Result<()> {
    let path = dataset.join(FILE);
    if path.is_file() {
        return Ok(());
    }
    write_shapes(&path, &shape_keys())
}

/// Writes the lookup of `keys` (ascending, distinct) to `path`: a temporary file renamed into place, so a
/// reader never sees half of it.
pub fn write_shapes(path: &Path, keys: &[u32]) -> Result<()> {
    let mut batch = ShapesBatch::default();
    batch.push(&ShapeKeys(keys));
    // every value is distinct: a dictionary would only cost time
    let props = writer_properties().set_dictionary_enabled(false).build();
    atomic_write(path, |file| {
        let mut w = ArrowWriter::try_new(file, ShapesBatch::schema(), Some(props))?;
        w.write(&batch.finish())?;
        w.close()?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use haifu_rules::hand::shape_key;

    #[test]
    fn the_lookup_holds_every_shape_of_a_hand_once_with_its_digits() {
        let all: Vec<(u32, [u8; 9])> = shape_keys().into_iter().map(|k| (k, shape_digits(k))).collect();
        // nine digits, 0..=4 copies each, at most 14 tiles: 405,350 (a separate count over the 5^9 vectors,
        // and the number of suit shapes the shanten tables index)
        assert_eq!(all.len(), 405_350);
        assert_eq!(all.len(), haifu_rules::shanten::SUIT_SHAPES);
        assert!(all.iter().all(|(k, d)| shape_key(d) == *k));
        assert!(all.windows(2).all(|w| w[0].0 < w[1].0));
        // the same set as filtering every key below 5^9 by its number of tiles
        let filtered = (0..5u32.pow(9)).filter(|&k| shape_digits(k).iter().sum::<u8>() <= 14);
        assert!(filtered.eq(all.iter().map(|(k, _)| *k)));
        let mut text = String::new();
        // 3336678: three 3s, two 6s, a 7 and an 8 (the key worked out in rules::hand's tests)
        let k = all.iter().find(|(k, _)| *k == 75 + 6_250 + 15_625 + 78_125).unwrap();
        assert_eq!(digits(&mut text, &k.1), "3336678");
        assert_eq!(digits(&mut text, &all[0].1), "-");
    }
}
