//! Errors in the JSON formats name the line and byte of what is wrong: the offending mjai line, the offending
//! tenhou.net/6 round (not the start of the file or of its object).

use haifu_record::mjai::write::to_mjai;
use haifu_record::{mjai, read_games, ReadError};
use haifu_testkit::GameBuilder;

/// Line (1-based) and byte offset of the `n`th line of `text` that contains `needle`.
fn place(text: &str, needle: &str, n: usize) -> (u32, u64) {
    let mut at = 0;
    let mut seen = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if line.contains(needle) {
            if seen == n {
                return (i as u32 + 1, at as u64);
            }
            seen += 1;
        }
        at += line.len();
    }
    panic!("{needle:?} #{n} not in the text")
}

fn assert_at(e: &ReadError, line: u32, offset: u64) {
    assert_eq!((e.line, e.offset), (line, offset), "{e}");
}

#[test]
fn an_mjai_error_names_its_line_and_byte() {
    let mut g = GameBuilder::new(169);
    g.deal(["123m456m789m12p8s1z", "123m456m789s45p55s", "13579m1379p13s22z", "2468m2468p2468s3z"]);
    for (s, t) in ["4z", "5z", "6z", "7z"].into_iter().enumerate() {
        g.draw(s as u8, t).discard(s as u8, t);
    }
    let text = to_mjai(&g.record()).expect("mjai");
    // the third discard, a later line: a tile that does not exist
    let (line, offset) = place(&text, "\"dahai\"", 2);
    assert!(line > 5, "a later line");
    let mut lines: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
    let i = line as usize - 1;
    assert!(lines[i].contains("\"F\""), "{}", lines[i]);
    lines[i] = lines[i].replace("\"F\"", "\"X\"");
    let bad = lines.concat();
    let e = mjai::parse(bad.as_bytes()).expect_err("a bad tile");
    assert!(e.message.contains("dahai"), "{e}");
    assert_at(&e, line, offset);
}

#[test]
fn a_tenhou6_error_names_the_line_and_byte_of_its_round() {
    let two = include_str!("data/tenhou6/ron_tsumo.json");
    let mut objects = two.lines();
    let (first, second) = (objects.next().expect("round 1"), objects.next().expect("round 2"));
    let round = |obj: &str| {
        let start = obj.find("\"log\":[").expect("a log") + "\"log\":[".len();
        obj[start..obj.len() - 2].to_string()
    };
    let head = &first[..first.find("\"log\":[").expect("a log")];
    // one game object, each round on its own line; the second round's kyoku is not a number
    let text =
        format!("{head}\"log\":[\n{},\n{}\n]}}\n", round(first), round(second).replacen("[[0,1,0]", "[[\"x\",1,0]", 1));
    let e = read_games("game.json", text.as_bytes()).expect_err("a bad round");
    assert!(e.message.starts_with("round 1"), "{e}");
    assert_at(&e, 3, text.find("[[\"x\"").expect("the round") as u64);

    // one object per line (mjx): the error is on the second line, at the round, not at the object
    let text = format!("{first}\n{}\n", second.replacen("[[0,1,0]", "[[\"x\",1,0]", 1));
    let e = read_games("game.json", text.as_bytes()).expect_err("a bad round");
    assert_at(&e, 2, text.find("[[\"x\"").expect("the round") as u64);
    assert!(e.column > 1, "{e}");
}
