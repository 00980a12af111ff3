//! Reading a record's bytes: gzip detected by its magic bytes, the format told from the content, and the game
//! named: a Tenhou log id and a date from the file name.

use std::io::Read;

use crate::event::Format;

// The limits a record is held to, so that what a file holds cannot exhaust memory: a reader refuses a record
// beyond one with an error naming the limit, and ingest quarantines the file. The real logs stay far below
// each (the corpus: files up to 1.2 MB decompressed, games up to 2,194 events, tags up to 3.4 KB).

/// A file as stored, and as decompressed (a gzip bomb, or a plain file of a gigabyte).
pub const MAX_FILE_BYTES: u64 = 64 << 20;
/// Decompressed records larger than this are refused.
pub const MAX_DECOMPRESSED: u64 = MAX_FILE_BYTES;
/// One mjlog tag (an attribute of megabytes).
pub const MAX_TAG_BYTES: u64 = 64 << 10;
/// One line of an mjai log (as `haifu mjai-server` holds its clients to).
pub const MAX_LINE_BYTES: usize = 1 << 20;
/// A tenhou.net/6 document: it is parsed whole as JSON, which takes several times its size.
pub const MAX_TENHOU6_BYTES: usize = 8 << 20;
/// Events of one game (nine times the longest game of the corpus).
pub const MAX_GAME_EVENTS: usize = 20_000;

/// The error of a record beyond [`MAX_GAME_EVENTS`].
pub fn too_many_events(n: usize) -> String {
    format!("the game holds more than {MAX_GAME_EVENTS} events ({n} read): beyond haifu's limit for one game")
}

/// Decompresses gzip (by its magic bytes, whatever the extension); other content is returned as is.
pub fn decompress(raw: Vec<u8>) -> Result<Vec<u8>, String> {
    if !raw.starts_with(&[0x1f, 0x8b]) {
        return Ok(raw);
    }
    let mut out = Vec::with_capacity(raw.len() * 4);
    let mut dec = flate2::read::MultiGzDecoder::new(&raw[..]).take(MAX_DECOMPRESSED + 1);
    match dec.read_to_end(&mut out) {
        Ok(_) if out.len() as u64 > MAX_DECOMPRESSED => {
            Err(format!("gzip expands beyond {} MiB", MAX_DECOMPRESSED >> 20))
        }
        Ok(_) => Ok(out),
        Err(e) => Err(format!("gzip stream broken after {} decompressed bytes: {e}", out.len())),
    }
}

/// Tells the format from the first bytes of the decompressed content.
pub fn sniff_format(text: &[u8]) -> Result<Format, String> {
    let body = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let first = body.iter().position(|b| !b.is_ascii_whitespace());
    let Some(first) = first else { return Err("empty file".into()) };
    match body[first] {
        b'<' => Ok(Format::Mjlog),
        b'{' | b'[' => {
            // mjai is one event object per line with a "type"; tenhou.net/6 is one object with "log"
            let line_end = body[first..].iter().position(|&b| b == b'\n').map_or(body.len(), |p| first + p);
            let line = &body[first..line_end];
            if let Ok(serde_json::Value::Object(o)) = serde_json::from_slice::<serde_json::Value>(line) {
                if o.contains_key("type") {
                    return Ok(Format::Mjai);
                }
                if o.contains_key("log") {
                    return Ok(Format::Tenhou6);
                }
            }
            Ok(Format::Tenhou6)
        }
        c => Err(format!("starts with byte 0x{c:02x}: neither mjlog XML nor JSON")),
    }
}

/// Finds a Tenhou log id (`2019060813gm-00a9-0000-08bb0ec3`) in a text such as a file name.
pub fn find_log_id(s: &str) -> Option<String> {
    let hex = |c: &[u8]| c.iter().all(u8::is_ascii_hexdigit);
    s.as_bytes()
        .windows(31)
        .find(|c| {
            c[..10].iter().all(u8::is_ascii_digit)
                && &c[10..13] == b"gm-"
                && hex(&c[13..17])
                && c[17] == b'-'
                && hex(&c[18..22])
                && c[22] == b'-'
                && hex(&c[23..31])
        })
        .map(|c| String::from_utf8_lossy(c).into_owned())
}

/// Date `(year, month, day)` of a Tenhou log id (its first 8 digits).
pub fn log_id_date(id: &str) -> Option<(i32, u32, u32)> {
    let y: i32 = id.get(0..4)?.parse().ok()?;
    let m: u32 = id.get(4..6)?.parse().ok()?;
    let d: u32 = id.get(6..8)?.parse().ok()?;
    ((2006..=2100).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d)).then_some((y, m, d))
}

/// A `YYYY-MM-DD` date in a file name (mjai bot logs are often named by their date).
pub fn name_date(s: &str) -> Option<(i32, u32, u32)> {
    let b = s.as_bytes();
    (0..b.len().saturating_sub(9)).find_map(|i| {
        let c = &b[i..i + 10];
        let digits = |r: std::ops::Range<usize>| c[r].iter().all(u8::is_ascii_digit);
        if !(digits(0..4) && c[4] == b'-' && digits(5..7) && c[7] == b'-' && digits(8..10)) {
            return None;
        }
        let t = std::str::from_utf8(c).ok()?;
        let y: i32 = t[0..4].parse().ok()?;
        let m: u32 = t[5..7].parse().ok()?;
        let d: u32 = t[8..10].parse().ok()?;
        ((2006..=2100).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d)).then_some((y, m, d))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ids_and_dates() {
        let id = find_log_id("dir/2019060813gm-00a9-0000-08bb0ec3.xml.gz").unwrap();
        assert_eq!(id, "2019060813gm-00a9-0000-08bb0ec3");
        assert_eq!(log_id_date(&id), Some((2019, 6, 8)));
        assert_eq!(find_log_id("2019060813gm-00a9-0000-08bb0ec"), None);
        assert_eq!(find_log_id("game.xml"), None);
        assert_eq!(name_date("2025-08-23-085608.mjson"), Some((2025, 8, 23)));
        assert_eq!(name_date("2025-13-23"), None);
    }

    #[test]
    fn formats_by_content() {
        assert_eq!(sniff_format(b"  <mjloggm>").unwrap(), Format::Mjlog);
        assert_eq!(sniff_format(b"{\"type\":\"start_game\"}\n{}").unwrap(), Format::Mjai);
        assert_eq!(sniff_format(b"{\"title\":[],\"log\":[]}").unwrap(), Format::Tenhou6);
        assert!(sniff_format(b"").is_err());
        assert!(sniff_format(b"\x00\x01").is_err());
    }

    #[test]
    fn gzip_by_magic() {
        use std::io::Write;
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(b"<mjloggm ver=\"2.3\"></mjloggm>").unwrap();
        let gz = enc.finish().unwrap();
        assert_eq!(decompress(gz.clone()).unwrap(), b"<mjloggm ver=\"2.3\"></mjloggm>");
        let cut = gz[..gz.len() - 10].to_vec();
        assert!(decompress(cut).unwrap_err().contains("gzip stream broken"));
        assert_eq!(decompress(b"plain".to_vec()).unwrap(), b"plain");
    }
}
