//! The review's HTML: one self-contained page per reviewed seat of a game (inline CSS, SVG and a small script
//! for keyboard and click navigation; nothing fetched) and an index over them, with the clearest deviations
//! of every game.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use haifu_rules::Tile;

use super::board::{board_html, face_symbols, tiles_svg, Mark, MARK_CSS};
use super::{Category, ChoiceReviewed, GameReview, Reference, Review, Reviewed};
use crate::html::escape;

const CSS: &str = "
body{font-family:system-ui,-apple-system,'Segoe UI','Noto Sans',sans-serif;margin:1rem auto;max-width:1360px;padding:0 1rem;color:#1d1d1f;line-height:1.4;font-size:15px}
h1{font-size:1.4rem;margin:.3rem 0;border-bottom:2px solid #0072b2;padding-bottom:.2rem}
h2{font-size:1.15rem;color:#0b4f7c;margin:1.4rem 0 .4rem}
a{color:#0b5cad}
p.warn{color:#8a4b00}
p.note,.legend{font-size:.85rem;color:#555;margin:.2rem 0}
.legend span{margin-right:1rem;white-space:nowrap}
.sw{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;vertical-align:-1px;margin-right:.25rem}
.timeline{overflow-x:auto;margin:.4rem 0}
tr.rare td{background:#ffebe9}
.timeline svg a rect{cursor:pointer}
.timeline svg a.current rect{stroke:#000;stroke-width:2}
.decision{border:1px solid #d0d7de;border-radius:6px;padding:.6rem .8rem;margin:.8rem 0}
.js .decision{display:none}
.js .decision.current{display:block}
.decision>header{display:flex;gap:1rem;align-items:baseline;flex-wrap:wrap;font-size:1rem}
.decision>header .cat{font-weight:700;padding:0 .4rem;border-radius:4px;color:#fff}
.cols{display:flex;gap:1.2rem;flex-wrap:wrap;align-items:flex-start}
.board{flex:1 1 720px;min-width:620px}
.board .info{font-size:.92rem;display:flex;gap:1rem;align-items:center;flex-wrap:wrap;margin-bottom:.3rem}
.board .info .round{font-weight:700;font-size:1.1rem}
.seat{display:flex;gap:.6rem;align-items:flex-start;border-top:1px solid #eef0f2;padding:.25rem 0;min-height:40px}
.seat .who{width:150px;flex:none;font-size:.9rem}
.seat.self .who{font-weight:600}
.seat.dealer .wind{color:#c21807}
.seat .stick{background:#c21807;color:#fff;border-radius:3px;padding:0 .3rem;font-size:.75rem}
.river{width:228px;flex:none}
.river svg{display:block}
.river .none{font-size:.8rem;color:#888}
.melds{display:flex;gap:.4rem;flex-wrap:wrap}
.hand{margin-top:.5rem;padding-top:.4rem;border-top:2px solid #0072b2}
.refs{display:flex;flex-direction:column;gap:.5rem;flex:0 1 430px;min-width:340px}
.ref h3{font-size:.95rem;margin:.1rem 0}
.ref.missing{color:#777}
ol.cands{margin:0;padding-left:1.6rem;font-size:.9rem}
ol.cands li{margin:.05rem 0}
ol.cands li.chosen{background:#ffe6c2;font-weight:700}
ol.cands li svg{vertical-align:middle}
.bar{display:inline-block;height:.55rem;background:#56b4e9;margin-left:.3rem;vertical-align:middle}
nav.steps{margin-top:.4rem;font-size:.9rem}
nav.steps a{margin-right:1rem}
table{border-collapse:collapse;font-size:.88rem;margin:.4rem 0}
th,td{border:1px solid #d0d7de;padding:.2rem .45rem;text-align:right;white-space:nowrap}
th{background:#f0f4f8}
td.text,th.text{text-align:left}
";

/// Colours of the categories (Okabe-Ito, distinguishable in colour-blind vision).
pub fn colour(c: Category) -> &'static str {
    match c {
        Category::Agree => "#009e73",
        Category::Style => "#d55e00",
        Category::UnderRiichi => "#0072b2",
        Category::Call => "#cc79a7",
        Category::HonorPair => "#e69f00",
        Category::HonorRule => "#f0e442",
        Category::Unjudged => "#999999",
    }
}

/// Arrow keys (and j/k) step through the decisions; the hash names the one shown, so a link or the timeline
/// opens it. Without script every decision shows, one below the other.
const SCRIPT: &str = "
(function(){
  document.body.classList.add('js');
  var ds=[].slice.call(document.querySelectorAll('.decision'));
  var marks=[].slice.call(document.querySelectorAll('.timeline a'));
  function show(i){
    if(!ds.length)return;
    i=Math.max(0,Math.min(ds.length-1,i));
    ds.forEach(function(d,k){d.classList.toggle('current',k===i);});
    marks.forEach(function(m,k){m.classList.toggle('current',k===i);});
    if(location.hash!=='#'+ds[i].id)history.replaceState(null,'','#'+ds[i].id);
    window.current=i;
  }
  function fromHash(){var i=ds.findIndex(function(d){return '#'+d.id===location.hash;});show(i<0?0:i);}
  window.addEventListener('hashchange',fromHash);
  document.addEventListener('keydown',function(e){
    if(e.key==='ArrowRight'||e.key==='j'){show(window.current+1);e.preventDefault();}
    if(e.key==='ArrowLeft'||e.key==='k'){show(window.current-1);e.preventDefault();}
    if(e.key==='Home'){show(0);} if(e.key==='End'){show(ds.length-1);}
  });
  fromHash();
  // the address's decision is shown in place of the others: the page opens at its top, not scrolled to it
  window.scrollTo(0,0);
  window.addEventListener('load',function(){setTimeout(function(){window.scrollTo(0,0);},0);});
})();
";

fn percent(x: f64) -> String {
    format!("{:.0}%", 100.0 * x)
}

fn legend() -> String {
    let mut out = String::from("<p class=\"legend\">");
    for c in Category::ALL {
        let _ = write!(
            out,
            "<span title=\"{}\"><i class=\"sw\" style=\"background:{}\"></i>{}</span>",
            escape(c.what()),
            colour(c),
            c.name()
        );
    }
    out.push_str("</p><p class=\"legend\">Tiles: m man (red), p pin (blue), s sou (green); honors by their mjai letters: \
                  E S W N the winds, P haku (white dragon, a blank framed face), F hatsu (green dragon), C chun (red dragon); \
                  a red five has a pink face. Rivers: the riichi tile lies sideways, a tile taken by a call is faded and \
                  dashed, a grey face was discarded straight from the draw. Hand: the choice is orange, the all-players \
                  table's first candidate outlined green.</p>");
    out
}

/// The agreement timeline: one mark per decision, coloured by category (a deviation's by how sure), a gap
/// between rounds; each links to its decision.
fn timeline(g: &GameReview) -> String {
    let (w, h, gap) = (14.0, 26.0, 8.0);
    let mut x = 2.0;
    let mut body = String::new();
    let mut last_round = None;
    for (i, r) in g.decisions.iter().enumerate() {
        if last_round.is_some_and(|l| l != r.decision.round) {
            x += gap;
        }
        if last_round != Some(r.decision.round) {
            let _ = write!(
                body,
                "<text x=\"{x:.0}\" y=\"10\" font-size=\"10\" fill=\"#555\">{}</text>",
                r.board.round_name()
            );
        }
        last_round = Some(r.decision.round);
        let opacity = if r.category == Category::Style { 0.35 + 0.65 * r.sureness } else { 1.0 };
        // under the category, a thin row per other reference: green where its first candidate is the choice
        let mut rows = String::new();
        for (k, x_ref) in [&r.references[2], &r.references[0]].into_iter().enumerate() {
            if x_ref.given {
                let fill = if x_ref.rank == Some(1) { colour(Category::Agree) } else { "#d0d7de" };
                let _ = write!(
                    rows,
                    "<rect x=\"{x:.0}\" y=\"{:.0}\" width=\"{:.0}\" height=\"5\" fill=\"{fill}\"/>",
                    13.0 + h + 2.0 + 7.0 * k as f64,
                    w - 2.0
                );
            }
        }
        let _ = write!(
            body,
            "<a href=\"#d{i}\" data-category=\"{}\"><title>{} turn {}: {} ({}; own table's rank {}, network's {})</title>\
             <rect x=\"{x:.0}\" y=\"13\" width=\"{:.0}\" height=\"{h:.0}\" rx=\"2\" fill=\"{}\" fill-opacity=\"{opacity:.2}\" stroke=\"#fff\"/>{rows}</a>",
            r.category.name(),
            r.board.round_name(),
            r.decision.turn,
            r.decision.discard.kind().name(),
            r.category.name(),
            r.references[2].rank.map_or("-".into(), |k| k.to_string()),
            r.references[0].rank.map_or("-".into(), |k| k.to_string()),
            w - 2.0,
            colour(r.category)
        );
        x += w;
    }
    let width = x + 4.0;
    format!(
        "<div class=\"timeline\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{:.0}\" font-family=\"DejaVu Sans, Arial, sans-serif\">{body}</svg></div>\
         <p class=\"legend\">Timeline: one mark per decision, its category against the all-players table (a style \
         deviation the stronger the surer); below it a thin row for the own table and one for the network (when \
         given): green where its first candidate is the choice.</p>",
        h + 32.0
    )
}

/// A reference's ranked candidates, the choice highlighted.
fn reference_html(r: &Reference, chosen: Tile, red: bool) -> String {
    let missing = if r.given { "" } else { " missing" };
    let mut out = format!("<div class=\"ref{missing}\" data-ref=\"{}\"><h3>{}", r.name, escape(&r.label));
    if r.given {
        match r.rank {
            Some(k) => {
                let _ = write!(out, ": the choice is {k} of {}", r.candidates.len());
            }
            None if r.candidates.is_empty() => out.push_str(": no candidate (the hand's shapes are unknown to it)"),
            None => out.push_str(": the choice is not among its candidates"),
        }
    }
    out.push_str("</h3><ol class=\"cands\">");
    for c in r.candidates.iter().take(8) {
        let tile = c.tile.parse::<haifu_rules::Kind>().map(|k| k.ids()[1]).unwrap_or(chosen);
        let is_chosen = tile.kind() == chosen.kind();
        let class = if is_chosen { " class=\"chosen\"" } else { "" };
        let pic = tiles_svg(&[(tile, Mark::default())], 24.0, red, "cand");
        let what = match (c.count, c.share, c.rule) {
            (_, _, Some(rule)) => escape(rule),
            (Some(n), Some(s), None) => {
                format!("{n} ({})<span class=\"bar\" style=\"width:{:.0}px\"></span>", percent(s), 120.0 * s)
            }
            (Some(n), None, None) => format!("{n}"),
            (None, Some(p), None) => {
                format!("{}<span class=\"bar\" style=\"width:{:.0}px\"></span>", percent(p), 120.0 * p)
            }
            (None, None, None) => String::new(),
        };
        let _ = write!(out, "<li{class} data-tile=\"{}\">{pic} {} {what}</li>", c.tile, c.tile);
    }
    if r.candidates.len() > 8 {
        let _ = write!(out, "<li class=\"more\">... {} more</li>", r.candidates.len() - 8);
    }
    out.push_str("</ol></div>");
    out
}

/// What the choices' marks and columns mean, for the page.
const CHOICES_NOTE: &str = "Calls, riichi, kans, wins, aborts and norths: every moment the rules offered the seat \
something other than a plain discard and the log shows its answer. Each kind offered is put in its situation (the \
kind and facts of the hand and the table: another seat in riichi, the call brings tenpai closer, a yaku stays in \
sight, a value honor, the wait, the turn) and given the share of such offers everyone took there, and the \
player's own share smoothed towards everyone's. A reference agrees when its majority choice (the kind with the \
largest share, if above one half; else a pass or a plain discard) is the seat's. Rare: everyone's counts give \
the choice less than 5% (a take: the kind's share; a pass or plain discard: the product of one minus each kind's \
share), the bad-move rate of other review tools counted on everyone's own choices, not on a strong player's.";

fn choice_colour(c: &ChoiceReviewed) -> &'static str {
    match c.agrees_everyone {
        _ if c.rare() => "#cf222e",
        Some(true) => colour(Category::Agree),
        Some(false) => "#bf8700",
        None => "#d0d7de",
    }
}

/// The choices' timeline: one mark per choice (green: everyone's majority, red: rare, amber: another), each a
/// link to its row.
fn choices_timeline(g: &GameReview) -> String {
    if g.choices.is_empty() {
        return String::new();
    }
    let (w, h) = (10.0, 16.0);
    let mut body = String::new();
    for (i, c) in g.choices.iter().enumerate() {
        let _ = write!(
            body,
            "<a href=\"#c{i}\"><title>{} turn {}: {} of [{}]</title><rect x=\"{:.0}\" y=\"2\" width=\"{:.0}\" \
             height=\"{h:.0}\" rx=\"2\" fill=\"{}\" stroke=\"#fff\"/></a>",
            c.round_name,
            c.turn,
            escape(&c.chosen),
            escape(&c.options.join(", ")),
            2.0 + w * i as f64,
            w - 1.0,
            choice_colour(c)
        );
    }
    format!(
        "<div class=\"timeline\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{:.0}\">{body}</svg></div>",
        4.0 + w * g.choices.len() as f64,
        h + 4.0
    )
}

/// The choices of the seat, a row each.
fn choices_html(review: &Review, g: &GameReview) -> String {
    let (agree, judged, rare) = g.choice_agreement(false);
    let (own_agree, own_judged, _) = g.choice_agreement(true);
    let mut out = format!("<h2 id=\"choices\">Calls, riichi, kans and wins ({})</h2>", g.choices.len());
    if review.choice_counts {
        let _ = write!(
            out,
            "<p>Everyone's majority choice {agree} of {judged}, the player's own {own_agree} of {own_judged}; rare to \
             everyone {rare}.</p>"
        );
    }
    match &review.choice_network {
        Some(n) => {
            let first = g.choices.iter().filter(|c| c.agrees_network == Some(true)).count();
            let _ = write!(
                out,
                "<p>The choices network {}: its first class {first} of {}.</p>",
                escape(n),
                g.choices.len()
            );
        }
        None => out.push_str(
            "<p class=\"note\">Choices network: not given (<code>--choices-model RUN</code>, a run of \
                              <code>haifu train --decisions choices</code>).</p>",
        ),
    }
    if !review.choice_counts {
        out.push_str(
            "<p class=\"note warn\">The tables hold no choice counts: build them with <code>haifu style build</code> \
             from a dataset ingested without <code>--no-choices</code> to see everyone's and the player's rates here.</p>",
        );
    }
    let _ = write!(out, "<p class=\"legend\">{}</p>", escape(CHOICES_NOTE));
    out.push_str(&choices_timeline(g));
    out.push_str(
        "<table class=\"data\" data-name=\"choices\"><thead><tr><th>round</th><th>turn</th><th class=\"text\">moment</th>\
         <th>tile</th><th class=\"text\">offered</th><th class=\"text\">chose</th><th class=\"text\">situations: \
         everyone's share, own (offers)</th><th>everyone gives the choice</th><th>own gives it</th><th>network gives it</th></tr></thead><tbody>",
    );
    let pct = |p: Option<f64>| p.map_or("-".to_string(), |p| format!("{:.1}%", 100.0 * p));
    for (i, c) in g.choices.iter().enumerate() {
        let kinds: Vec<String> = c
            .kinds
            .iter()
            .map(|k| {
                let (e, o) = (100.0 * k.everyone, 100.0 * k.own);
                format!("{}: {e:.0}%, own {o:.0}% ({})", escape(&k.situation), k.own_offered)
            })
            .collect();
        let flag = if c.rare() { " class=\"rare\"" } else { "" };
        let _ = write!(
            out,
            "<tr id=\"c{i}\"{flag}><td>{}</td><td>{}</td><td class=\"text\">{}</td><td>{}</td><td class=\"text\">{}</td>\
             <td class=\"text\" style=\"border-left:4px solid {}\">{}</td><td class=\"text\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            c.round_name,
            c.turn,
            c.moment,
            escape(&c.tile),
            escape(&c.options.join(", ")),
            choice_colour(c),
            escape(&c.chosen),
            kinds.join("<br>"),
            pct(c.everyone),
            pct(c.own),
            match (c.network, c.agrees_network) {
                (Some(p), Some(first)) => format!("{}{}", pct(Some(p)), if first { " (its first)" } else { "" }),
                _ => "-".to_string(),
            },
        );
    }
    out.push_str("</tbody></table>");
    out
}

/// One decision: its header, the board with the hand, the three references, the steps.
fn decision_html(g: &GameReview, i: usize, r: &Reviewed) -> String {
    let d = &r.decision;
    let chosen = d.discard;
    let top = r.references[1].candidates.first().and_then(|c| c.tile.parse().ok());
    let sure =
        if r.category == Category::Style { format!("<span>sureness {:.2}</span>", r.sureness) } else { String::new() };
    let riichi = if d.riichi { " · declares riichi" } else { "" };
    let replay = g
        .replay(Some(d.round))
        .map_or(String::new(), |u| format!("<a href=\"{}\">replay this round on tenhou.net</a>", escape(&u)));
    let mut out = format!(
        "<section class=\"decision\" id=\"d{i}\" data-category=\"{}\" data-chosen=\"{}\" data-round=\"{}\">\
         <header><b>{} turn {}</b><span>decision {} of {}</span><span>source: {}</span><span>chose <b>{}</b>{riichi}</span>\
         <span class=\"cat\" style=\"background:{}\" title=\"{}\">{}</span>{sure}{replay}</header><div class=\"cols\">",
        r.category.name(),
        chosen.kind().name(),
        r.board.round_name(),
        r.board.round_name(),
        d.turn,
        i + 1,
        g.decisions.len(),
        d.source.name(),
        chosen.kind().name(),
        colour(r.category),
        escape(r.category.what()),
        r.category.name(),
    );
    out.push_str(&board_html(&r.board, g.red, chosen, top));
    out.push_str("<div class=\"refs\">");
    for x in &r.references {
        out.push_str(&reference_html(x, chosen, g.red));
    }
    out.push_str("</div></div>");
    let prev = if i > 0 { format!("<a href=\"#d{}\">&larr; previous</a>", i - 1) } else { String::new() };
    let next =
        if i + 1 < g.decisions.len() { format!("<a href=\"#d{}\">next &rarr;</a>", i + 1) } else { String::new() };
    let _ = writeln!(
        out,
        "<nav class=\"steps\">{prev}{next}<span class=\"note\">keys: &larr; &rarr; (or k j)</span></nav></section>"
    );
    out
}

fn document(title: &str, body: &str, script: bool) -> String {
    let script = if script { format!("<script>{SCRIPT}</script>") } else { String::new() };
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{CSS}{MARK_CSS}</style></head><body>\n{}{body}<p class=\"note\">Written by haifu {} (haifu review).</p>{script}</body></html>\n",
        escape(title),
        face_symbols(),
        env!("CARGO_PKG_VERSION")
    )
}

/// The page of one reviewed seat.
pub fn game_page(review: &Review, g: &GameReview) -> String {
    let title = format!("{}: review of {}", g.player(), g.log_id.as_deref().unwrap_or("a game"));
    let mut body = format!("<h1>{}</h1>", escape(&title));
    let replay = g.replay(None).map_or(String::new(), |u| {
        format!(" <a href=\"{}\">Replay on tenhou.net</a> (Tenhou's viewer has only games played there).", escape(&u))
    });
    let seats: Vec<String> = g.names.iter().enumerate().map(|(s, n)| format!("{s}: {}", escape(n))).collect();
    let (all_hits, all_n) = g.agreement(1);
    let (own_hits, own_n) = g.agreement(2);
    let own = match g.decisions.first() {
        Some(d) if !d.references[2].given => escape(&d.references[2].label),
        _ => format!("of the own table {own_hits} of {own_n}"),
    };
    let _ = write!(
        body,
        "<p>Tenhou log id <b>{}</b>, seat {} ({}).{replay}</p><p>{} chosen discards (the forced ones after the player's own riichi left out). \
         First candidate of the all-players table {all_hits} of {all_n}, {own}. \
         Tables: {}; {}. <a href=\"../index.html\">All reviewed games</a>.</p>",
        escape(g.log_id.as_deref().unwrap_or("(none)")),
        g.seat,
        seats.join(", "),
        g.decisions.len(),
        escape(&review.tables.display().to_string()),
        match &review.network {
            Some(n) => format!("network {}", escape(n)),
            None => "network: not given (the tables alone)".into(),
        }
    );
    if g.in_tables(review) == Some(true) {
        let years = review.generation_years.as_deref().unwrap_or_default();
        let _ = write!(
            body,
            "<p class=\"note warn\">The tables were mined from the games of {} (this game's year included): its own \
             discards are among their counts, which makes agreement look higher than on unseen games. Mine the tables \
             from other years (<code>haifu mine --years</code>) to judge games they never saw.</p>",
            if years.is_empty() {
                "every year".to_string()
            } else {
                format!("the years {}", haifu_mining::dataset::years_text(years))
            }
        );
    }
    body.push_str(&timeline(g));
    body.push_str(&legend());
    body.push_str("<div class=\"decisions\">");
    for (i, r) in g.decisions.iter().enumerate() {
        body.push_str(&decision_html(g, i, r));
    }
    body.push_str("</div>");
    body.push_str(&choices_html(review, g));
    document(&title, &body, true)
}

/// The clearest deviations over every game: `style` decisions, most sure first.
/// The decisions of one category over every game, the surest first (then by the network's mass above the
/// choice, when there is a network).
fn deviations_html(review: &Review, category: Category, limit: usize) -> String {
    let mut all: Vec<(&GameReview, usize, &Reviewed)> = review
        .games
        .iter()
        .flat_map(|g| g.decisions.iter().enumerate().map(move |(i, r)| (g, i, r)))
        .filter(|(_, _, r)| r.category == category)
        .collect();
    let net = |r: &Reviewed| if r.references[0].given { r.references[0].mass_above() } else { 0.0 };
    all.sort_by(|a, b| b.2.sureness.total_cmp(&a.2.sureness).then(net(b.2).total_cmp(&net(a.2))));
    if all.is_empty() {
        return "<p class=\"note\">none</p>".into();
    }
    let mut out = format!(
        "<table class=\"data\" data-name=\"{}\"><thead><tr><th class=\"text\">game</th><th>round</th><th>turn</th>\
         <th class=\"text\">hand</th><th>chose</th><th>ALL's first</th><th>sureness</th><th>ALL rank</th><th>own rank</th><th>network rank</th><th>network mass above</th></tr></thead><tbody>",
        category.name()
    );
    for (g, i, r) in all.into_iter().take(limit) {
        let first = r.references[1].candidates.first().map_or("", |c| c.tile);
        let rank = |x: &Reference| x.rank.map_or("-".to_string(), |k| k.to_string());
        let _ = write!(
            out,
            "<tr><td class=\"text\"><a href=\"games/{}#d{i}\">{}</a></td><td>{}</td><td>{}</td><td class=\"text\">{}</td><td>{}</td><td>{first}</td><td>{:.2}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            g.file(),
            escape(g.log_id.as_deref().unwrap_or("game")),
            r.board.round_name(),
            r.decision.turn,
            haifu_rules::hand::format_counts(&r.decision.before),
            r.decision.discard.kind().name(),
            r.sureness,
            rank(&r.references[1]),
            rank(&r.references[2]),
            rank(&r.references[0]),
            if r.references[0].given { format!("{:.2}", r.references[0].mass_above()) } else { "-".into() },
        );
    }
    out.push_str("</tbody></table>");
    out
}

/// The index: every reviewed game with its agreement and categories, then the clearest deviations.
pub fn index_page(review: &Review) -> String {
    let players: Vec<&str> = {
        let mut p: Vec<&str> = review.games.iter().map(|g| g.player()).collect();
        p.sort_unstable();
        p.dedup();
        p
    };
    let title = format!("Review: {}", players.join(", "));
    let mut body = format!("<h1>{}</h1>", escape(&title));
    let _ = write!(
        body,
        "<p>{} games from {}, ranked by the sequence tables {} (the all-players table ALL and each player's own); {}.</p>",
        review.games.len(),
        escape(&review.dataset.display().to_string()),
        escape(&review.tables.display().to_string()),
        match &review.network {
            Some(n) => format!("network {}", escape(n)),
            None => "network: not given (the tables alone)".into(),
        }
    );
    body.push_str(&legend());
    body.push_str("<h2>Games</h2><table class=\"data\" data-name=\"games\"><thead><tr><th class=\"text\">game</th><th class=\"text\">player</th><th>seat</th><th>decisions</th><th>ALL first</th><th>own first</th>");
    for c in Category::ALL.iter().skip(1) {
        let _ = write!(body, "<th title=\"{}\">{}</th>", escape(c.what()), c.name());
    }
    body.push_str(
        "<th title=\"calls, riichi, kans, wins, aborts, norths\">choices</th><th>ALL's majority</th><th>own majority</th>\
         <th title=\"everyone's counts give the choice less than 5%\">rare (&lt;5%)</th>",
    );
    body.push_str("<th class=\"text\">replay</th></tr></thead><tbody>");
    for g in &review.games {
        let share = |(h, n): (usize, usize)| {
            if n == 0 {
                "-".to_string()
            } else {
                format!("{} ({h}/{n})", percent(h as f64 / n as f64))
            }
        };
        let _ = write!(
            body,
            "<tr><td class=\"text\"><a href=\"games/{}\">{}</a></td><td class=\"text\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
            g.file(),
            escape(g.log_id.as_deref().unwrap_or("game")),
            escape(g.player()),
            g.seat,
            g.decisions.len(),
            share(g.agreement(1)),
            share(g.agreement(2))
        );
        for c in Category::ALL.iter().skip(1) {
            let _ = write!(body, "<td>{}</td>", g.decisions.iter().filter(|d| d.category == *c).count());
        }
        let (agree, judged, rare) = g.choice_agreement(false);
        let (own_agree, own_judged, _) = g.choice_agreement(true);
        let rare = if judged == 0 { "-".to_string() } else { share((rare, g.choices.len())) };
        let _ = write!(
            body,
            "<td><a href=\"games/{}#choices\">{}</a></td><td>{}</td><td>{}</td><td>{rare}</td>",
            g.file(),
            g.choices.len(),
            share((agree, judged)),
            share((own_agree, own_judged))
        );
        let replay = g.replay(None).map_or(String::new(), |u| format!("<a href=\"{}\">tenhou.net</a>", escape(&u)));
        let _ = write!(body, "<td class=\"text\">{replay}</td></tr>");
    }
    body.push_str("</tbody></table>");
    let _ = write!(body, "<p class=\"legend\">{}</p>", escape(CHOICES_NOTE));
    body.push_str("<h2>Clearest deviations</h2><p class=\"note\">Choices of another suit tile than the all-players table's first, ranked by how surely its counts disagree: the lower bound of the 95% interval of the share of its counts on the candidates above the choice. Decisions under another's riichi, after calls and on honors are counted above in their own columns, not here.</p>");
    body.push_str(&deviations_html(review, Category::Style, 50));
    body.push_str("<h2>What the tables cannot judge</h2><p class=\"note\">Departures from the all-players table's first candidate kept apart from style, each category the surest first (at most 20).</p>");
    for c in [Category::UnderRiichi, Category::Call, Category::HonorPair, Category::HonorRule, Category::Unjudged] {
        let _ = write!(body, "<h3>{} <small class=\"note\">{}</small></h3>", c.name(), escape(c.what()));
        body.push_str(&deviations_html(review, c, 20));
    }
    document(&title, &body, false)
}

/// Writes `out/index.html`, `out/games/*.html` and `out/review.json`; returns the pages written.
pub fn write(review: &Review, out: &Path) -> Result<Vec<PathBuf>> {
    let games = out.join("games");
    std::fs::create_dir_all(&games).with_context(|| format!("creating {}", games.display()))?;
    let mut written = Vec::new();
    let put = |path: PathBuf, text: String| -> Result<PathBuf> {
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        Ok(path)
    };
    for g in &review.games {
        written.push(put(games.join(g.file()), game_page(review, g))?);
    }
    written.push(put(out.join("index.html"), index_page(review))?);
    put(out.join("review.json"), serde_json::to_string_pretty(&review.to_json())?)?;
    Ok(written)
}
