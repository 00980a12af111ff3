//! Reader of Tenhou mjlog XML (`<mjloggm ver="2.3">`), already decompressed.

use quick_xml::events::{BytesStart, Event as Xml};
use quick_xml::Reader;

use haifu_rules::Tile;

use crate::error::ReadError;
use crate::event::{Event, Tag, ROOT};
use crate::source::{MAX_GAME_EVENTS, MAX_TAG_BYTES};

/// Parses one mjlog document into its events (the root element first, as a `mjloggm` tag).
pub fn parse(text: &[u8]) -> Result<Vec<Event>, ReadError> {
    let mut reader = Reader::from_reader(text);
    reader.config_mut().trim_text(true);
    // the room a real log needs (a tag is at least 8 bytes), never more than a game may hold
    let mut events = Vec::with_capacity((text.len() / 8).min(MAX_GAME_EVENTS + 1));
    let mut depth = 0u32;
    let mut root_closed = false;
    // bytes of the draws and discards taken past the reader (`take_draw_or_discard`): the reader counts only
    // what it read itself, so every position below is `taken` plus its own
    let mut taken = 0u64;
    loop {
        if depth > 0 {
            let at = taken + reader.buffer_position();
            if let Some((ev, len)) = take_draw_or_discard(&mut reader) {
                if events.len() >= MAX_GAME_EVENTS {
                    return Err(ReadError::at(text, at, crate::source::too_many_events(events.len() + 1)));
                }
                taken += len;
                events.push(ev.map_err(|id| out_of_range(text, at, id))?);
                continue;
            }
        }
        let end_of_last = taken + reader.buffer_position();
        let ev = reader.read_event().map_err(|e| match e {
            quick_xml::Error::Encoding(_) => not_utf8(text, end_of_last),
            e => ReadError::at(text, taken + reader.error_position(), e.to_string()),
        })?;
        // trim_text skipped the whitespace before this event: errors point at its `<`, not the line before
        let skipped =
            text.get(end_of_last as usize..).unwrap_or_default().iter().take_while(|b| b.is_ascii_whitespace());
        let at = end_of_last + skipped.count() as u64;
        if matches!(ev, Xml::Start(_) | Xml::Empty(_)) {
            let len = taken + reader.buffer_position() - at;
            if len > MAX_TAG_BYTES {
                return Err(ReadError::at(
                    text,
                    at,
                    format!("a tag of {len} bytes: beyond haifu's limit of {} KiB for one tag", MAX_TAG_BYTES >> 10),
                ));
            }
            if events.len() >= MAX_GAME_EVENTS {
                return Err(ReadError::at(text, at, crate::source::too_many_events(events.len() + 1)));
            }
        }
        match ev {
            Xml::Start(e) if depth == 0 => {
                if e.name().as_ref() != ROOT {
                    let name = e.name().as_ref().to_string();
                    return Err(ReadError::at(text, at, format!("root element is <{name}>, not <{ROOT}>")));
                }
                events.push(Event::tag(tag_of(&e, text, at)?));
                depth = 1;
            }
            Xml::Empty(e) if depth == 0 => {
                // `<mjloggm/>`: a document with no game in it
                let name = e.name().as_ref().to_string();
                return Err(ReadError::at(text, at, format!("<{name}/> holds no game")));
            }
            Xml::Empty(e) => events.push(element(&e, text, at)?),
            Xml::Start(e) => {
                // a child written as <X ...></X>: same meaning as <X .../>
                events.push(element(&e, text, at)?);
                depth += 1;
            }
            Xml::End(_) => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    root_closed = true;
                }
            }
            Xml::Text(t) if depth > 0 && !AsRef::<str>::as_ref(&t).trim().is_empty() => {
                return Err(ReadError::at(text, at, "unexpected text between tags".into()));
            }
            Xml::Eof => break,
            _ => {}
        }
    }
    if events.is_empty() {
        return Err(ReadError::at(
            text,
            taken + reader.buffer_position(),
            format!("no <{ROOT}> element (empty or not an mjlog)"),
        ));
    }
    if !root_closed {
        return Err(ReadError::at(
            text,
            taken + reader.buffer_position(),
            format!("file ends before </{ROOT}> (truncated after {} tags)", events.len()),
        ));
    }
    Ok(events)
}

/// A draw or a discard (`<T12/>`, `<D12/>`: nine tags in ten) where the reader stands, taken past it without
/// its XML machinery: the event (or the id out of range) and the bytes taken. Anything else, whitespace before
/// the tag included, is left to the reader.
fn take_draw_or_discard(reader: &mut Reader<&[u8]>) -> Option<(Result<Event, u32>, u64)> {
    let rest: &[u8] = reader.get_ref();
    let &[b'<', letter, ref tail @ ..] = rest else { return None };
    if !matches!(letter, b'T' | b'U' | b'V' | b'W' | b'D' | b'E' | b'F' | b'G') {
        return None;
    }
    let digits = tail.iter().take(4).take_while(|b| b.is_ascii_digit()).count();
    if !(1..=3).contains(&digits) || tail.get(digits..digits + 2) != Some(b"/>") {
        return None;
    }
    let ev = draw_or_discard(letter, &tail[..digits]);
    let len = 2 + digits + 2;
    *reader.get_mut() = &rest[len..];
    Some((ev, len as u64))
}

/// `T U V W` draw and `D E F G` discard, seats 0 to 3 (each four consecutive letters), of the tile whose id
/// the ASCII `digits` spell (the id itself when out of range).
fn draw_or_discard(letter: u8, digits: &[u8]) -> Result<Event, u32> {
    let id: u32 = digits.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0'));
    let (seat, draw) = if letter >= b'T' { (letter - b'T', true) } else { (letter - b'D', false) };
    let tile = u8::try_from(id).ok().and_then(Tile::new).ok_or(id)?;
    Ok(if draw { Event::Draw { seat, tile } } else { Event::Discard { seat, tile } })
}

fn out_of_range(text: &[u8], at: u64, id: u32) -> ReadError {
    ReadError::at(text, at, format!("tile id {id} out of range 0..136"))
}

/// Bytes that are not UTF-8, named at the first of them: quick-xml leaves its error position at 0 and counts its
/// "index" from the start of the piece it decoded; the first invalid byte after the last event is the one.
fn not_utf8(text: &[u8], from: u64) -> ReadError {
    let from = usize::try_from(from).unwrap_or(usize::MAX).min(text.len());
    let at = std::str::from_utf8(&text[from..]).err().map_or(from, |e| from + e.valid_up_to());
    let byte = text.get(at).map(|b| format!(" (byte 0x{b:02x})")).unwrap_or_default();
    ReadError::at(text, at as u64, format!("not UTF-8 text{byte}: an mjlog is UTF-8 XML"))
}

fn element(e: &BytesStart<'_>, text: &[u8], at: u64) -> Result<Event, ReadError> {
    let name = e.name();
    let name = name.as_ref().as_bytes();
    // draws and discards the reader met (written `<T12></T12>`, or after whitespace): a letter and a tile id
    if let [letter @ (b'T' | b'U' | b'V' | b'W' | b'D' | b'E' | b'F' | b'G'), digits @ ..] = name {
        if (1..=3).contains(&digits.len()) && digits.iter().all(u8::is_ascii_digit) {
            return draw_or_discard(*letter, digits).map_err(|id| out_of_range(text, at, id));
        }
    }
    // a tag's name is a letter and letters, digits or `_` (Tenhou's are like `T47`, `INIT`, `UN`): anything else
    // is a broken tag, which must not pass as an unknown one (it may have swallowed the tags after it)
    let valid = name.first().is_some_and(u8::is_ascii_alphabetic)
        && name.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_');
    if !valid {
        let shown = String::from_utf8_lossy(&name[..name.len().min(40)]).into_owned();
        return Err(ReadError::at(text, at, format!("malformed tag <{shown}...>: not an mjlog element")));
    }
    let tag = tag_of(e, text, at)?;
    // the rich tags are typed here, once: a value that does not parse is an error at the tag
    Event::from_tag(tag).map_err(|m| ReadError::at(text, at, m))
}

fn tag_of(e: &BytesStart<'_>, text: &[u8], at: u64) -> Result<Tag, ReadError> {
    let name = e.name().as_ref().to_string();
    // INIT has 8 attributes, AGARI 10 to 14
    let mut attrs = Vec::with_capacity(8);
    for a in e.attributes() {
        let a = a.map_err(|err| ReadError::at(text, at, format!("<{name}>: {err}")))?;
        let key: &str = a.key.as_ref();
        let raw: &str = &a.value;
        let value = if raw.contains('&') {
            quick_xml::escape::unescape(raw)
                .map_err(|err| ReadError::at(text, at, format!("<{name} {key}>: {err}")))?
                .into_owned()
        } else {
            raw.to_string()
        };
        attrs.push((key.to_string(), value));
    }
    Ok(Tag { name, attrs })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tags_and_round_trips() {
        let xml = br#"<mjloggm ver="2.3"><GO type="169" lobby="0"/><T12/><D12/><N who="1" m="47723" /><DORA hai="5" /><FOO bar="a&amp;b"/></mjloggm>"#;
        let ev = parse(xml).unwrap();
        assert_eq!(ev.len(), 7);
        assert_eq!(ev[2], Event::Draw { seat: 0, tile: Tile::from_id(12) });
        assert_eq!(ev[3], Event::Discard { seat: 0, tile: Tile::from_id(12) });
        assert_eq!(ev[4], Event::Call { seat: 1, meld: haifu_rules::Meld::decode(47723).unwrap(), code: 47723 });
        assert_eq!(ev[5], Event::Dora { tile: Tile::from_id(5) });
        assert_eq!(ev[6].as_tag("FOO").unwrap().get("bar"), Some("a&b"));
        let rec = crate::event::GameRecord {
            format: crate::Format::Mjlog,
            index_in_file: 0,
            log_id: None,
            events: ev,
            notes: Vec::new(),
        };
        let again = parse(rec.to_mjlog().as_bytes()).unwrap();
        assert_eq!(again, rec.events);
    }

    #[test]
    fn errors_name_the_position() {
        let e = parse(b"<mjloggm ver=\"2.3\">\n<T12/>\n<D12").unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        let e = parse(b"<mjloggm ver=\"2.3\">\n<T12/>\n").unwrap_err();
        assert!(e.message.contains("truncated"), "{e}");
        assert!(parse(b"").unwrap_err().message.contains("no <mjloggm>"));
        assert!(parse(b"{\"title\": 1}").is_err());
        assert!(parse(b"<html></html>").unwrap_err().message.contains("root element"));
        assert!(parse(b"<mjloggm><T999/></mjloggm>").unwrap_err().message.contains("out of range"));
    }

    /// Draws and discards taken past the XML reader read as the reader reads them, and the positions of what
    /// comes after them stay true.
    #[test]
    fn draws_and_discards_past_the_reader_keep_positions() {
        let fast = parse(br#"<mjloggm ver="2.3"><T12/><D135/><U0/><G7/></mjloggm>"#).unwrap();
        let slow = parse(b"<mjloggm ver=\"2.3\">\n<T12/> <D135></D135>\n<U0 />\t<G7/></mjloggm>").unwrap();
        assert_eq!(fast, slow);
        assert_eq!(fast[2], Event::Discard { seat: 0, tile: Tile::from_id(135) });
        assert_eq!(fast[4], Event::Discard { seat: 3, tile: Tile::from_id(7) });
        let text = b"<mjloggm ver=\"2.3\"><T12/><D12/><T136/></mjloggm>";
        let e = parse(text).unwrap_err();
        assert_eq!(e.offset, 31, "{e}");
        assert!(e.message.contains("136"), "{e}");
        let text = b"<mjloggm ver=\"2.3\"><T12/><D12/><N who=1/></mjloggm>";
        let e = parse(text).unwrap_err();
        assert!((31..=40).contains(&e.offset), "{e}");
        let text = b"<mjloggm ver=\"2.3\"><T12/><D12/>";
        assert!(parse(text).unwrap_err().message.contains("truncated after 3 tags"));
    }

    /// Bytes that are not UTF-8 are named where they are (issue 30: "byte 0" with a reason saying "index 3").
    #[test]
    fn bytes_that_are_not_utf8_are_named_where_they_are() {
        for (text, at) in [
            (&b"<mjloggm ver=\"2.3\">\n<T12/>\xd7\x58<D12/>"[..], 26usize),
            (b"<mjloggm ver=\"2.3\">\n<T1\xff2/>", 23),
            (b"<mjloggm ver=\"2.3\">  \x0e\xb0\x8a", 22),
        ] {
            let e = parse(text).unwrap_err();
            assert_eq!(e.offset, at as u64, "{e}");
            assert!(e.message.contains("not UTF-8") && e.message.contains(&format!("0x{:02x}", text[at])), "{e}");
            assert!(!e.message.contains("index"), "{e}");
        }
    }
}
