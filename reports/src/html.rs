//! One self-contained HTML file per report: inline CSS and inline SVG charts, no script, nothing fetched from
//! the network, so it opens from disk anywhere. The same charts go to `charts/NAME.png` beside it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use haifu_mining::report::Table;

use crate::charts::{self, Chart};

/// A part of a page, in order.
#[derive(Clone, Debug)]
pub enum Block {
    Heading(String),
    Paragraph(String),
    /// A table with its title and notes.
    Table(Table),
    Chart(Chart),
    /// Already escaped HTML (the tile pictures of the coaching report).
    Raw(String),
    /// What the report found, in a few sentences computed from its tables: shown first, before the contents.
    Findings(Vec<String>),
}

/// A report page.
#[derive(Clone, Debug, Default)]
pub struct Page {
    pub title: String,
    pub blocks: Vec<Block>,
}

/// `&`, `<`, `>` and quotes escaped.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const CSS: &str = "
body{font-family:system-ui,-apple-system,'Segoe UI','Noto Sans','Hiragino Sans',sans-serif;margin:2rem auto;max-width:1340px;padding:0 1rem;color:#1d1d1f;line-height:1.45}
section.findings{background:#f3f8fc;border-left:4px solid #0072b2;padding:.4rem 1rem;margin:1rem 0}
section.findings li{margin:.25rem 0}
nav.toc{font-size:.9rem;columns:2;margin:1rem 0}
nav.toc li.section{font-weight:600;list-style:none;margin-left:-1rem}
h1{font-size:1.6rem;border-bottom:2px solid #0072b2;padding-bottom:.3rem}
h2{font-size:1.25rem;margin-top:2.2rem;color:#0b4f7c}
h3{font-size:1.05rem;margin-bottom:.3rem}
table{border-collapse:collapse;margin:.5rem 0 1rem;font-size:.86rem;display:block;overflow-x:auto}
th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:right;white-space:nowrap}
th{background:#f0f4f8}
td.text,th.text{text-align:left}
tr:nth-child(even) td{background:#fafbfc}
p.note{font-size:.82rem;color:#555;margin:.2rem 0}
figure{margin:1rem 0}
figure svg{max-width:100%;height:auto;border:1px solid #e5e5e5}
.tiles{white-space:nowrap}
.tile{display:inline-block;width:1.45rem;margin:0 1px;padding:.1rem 0;border:1px solid #9aa4ad;border-radius:4px;background:#fffdf7;text-align:center;font-weight:700;line-height:1.05;box-shadow:0 1px 0 #c9ced3}
.tile small{display:block;font-size:.62rem;font-weight:400}
.tile.m{color:#b3261e}.tile.p{color:#1f5fa8}.tile.s{color:#1e7a3c}.tile.z{color:#222}
.tile.chosen{background:#ffd08a;border-color:#e08a00}
.tile.majority{background:#b9e4c0;border-color:#2e8b57}
";

fn table_html(t: &Table, out: &mut String) {
    let _ = write!(
        out,
        "<h3 id=\"{}\">{}</h3>\n<table class=\"data\" data-name=\"{}\"><thead><tr>",
        escape(&t.name),
        escape(&t.title),
        escape(&t.name)
    );
    for c in &t.columns {
        let _ = write!(out, "<th>{}</th>", escape(c));
    }
    out.push_str("</tr></thead><tbody>\n");
    for row in &t.rows {
        out.push_str("<tr>");
        for cell in row {
            let class = if cell.is_number() { "" } else { " class=\"text\"" };
            let _ = write!(out, "<td{class}>{}</td>", escape(&cell.shown()));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table>\n");
    for n in &t.notes {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", escape(n));
    }
}

/// The anchor of a section heading.
fn heading_id(h: &str) -> String {
    let slug: String = h.chars().map(|c| if c.is_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    format!("section-{slug}")
}

impl Page {
    pub fn new(title: impl Into<String>) -> Page {
        Page { title: title.into(), blocks: Vec::new() }
    }

    /// A list of links to every section and table, for pages with more than three of them (none otherwise).
    fn contents(&self) -> String {
        let mut items = String::new();
        let mut n = 0;
        for b in &self.blocks {
            match b {
                Block::Heading(h) => {
                    let _ =
                        writeln!(items, "<li class=\"section\"><a href=\"#{}\">{}</a></li>", heading_id(h), escape(h));
                }
                Block::Table(t) => {
                    n += 1;
                    let _ = writeln!(items, "<li><a href=\"#{}\">{}</a></li>", escape(&t.name), escape(&t.title));
                }
                _ => {}
            }
        }
        if n <= 3 {
            return String::new();
        }
        format!("<nav class=\"toc\"><h2 id=\"contents\">Contents</h2><ul>\n{items}</ul></nav>\n")
    }

    pub fn push(&mut self, b: Block) -> &mut Page {
        self.blocks.push(b);
        self
    }

    /// Writes `path` (the HTML) and the charts as PNG into `charts/` beside it; returns the PNG files written
    /// and the notes on charts that could not be drawn.
    pub fn write(&self, path: &Path) -> Result<(Vec<PathBuf>, Vec<String>)> {
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let png_dir = dir.join("charts");
        let mut pngs = Vec::new();
        let mut problems = Vec::new();
        let mut body = String::new();
        let _ = writeln!(body, "<h1>{}</h1>", escape(&self.title));
        let contents = self.contents();
        for (i, b) in self.blocks.iter().enumerate() {
            // the contents come after the findings (or at the top)
            if i == usize::from(matches!(self.blocks.first(), Some(Block::Findings(_)))) {
                body.push_str(&contents);
            }
            match b {
                Block::Findings(lines) => {
                    body.push_str("<section class=\"findings\"><h2 id=\"findings\">Findings</h2><ul>\n");
                    for l in lines {
                        let _ = writeln!(body, "<li>{}</li>", escape(l));
                    }
                    body.push_str("</ul></section>\n");
                }
                Block::Heading(h) => {
                    let _ = writeln!(body, "<h2 id=\"{}\">{}</h2>", heading_id(h), escape(h));
                }
                Block::Paragraph(p) => {
                    let _ = writeln!(body, "<p>{}</p>", escape(p));
                }
                Block::Table(t) => table_html(t, &mut body),
                Block::Raw(html) => body.push_str(html),
                Block::Chart(c) => match charts::svg(c) {
                    Ok(svg) => {
                        // the XML declaration is not allowed inside HTML
                        let svg = svg.trim_start_matches(|ch| ch != '<').to_string();
                        let svg = if svg.starts_with("<?xml") {
                            svg.split_once("?>").map_or(svg.clone(), |x| x.1.to_string())
                        } else {
                            svg
                        };
                        let _ = writeln!(
                            body,
                            "<figure class=\"chart\" data-name=\"{}\">{}<figcaption class=\"note\">{}</figcaption></figure>",
                            escape(&c.name),
                            svg.trim(),
                            escape(&c.title)
                        );
                        match charts::png(c, &png_dir) {
                            Ok(p) => pngs.push(p),
                            Err(e) => problems.push(format!("{}: PNG not written: {e}", c.name)),
                        }
                    }
                    Err(e) => {
                        let msg = format!("chart {:?} not drawn: {e}", c.title);
                        let _ = writeln!(body, "<p class=\"note\">{}</p>", escape(&msg));
                        problems.push(msg);
                    }
                },
            }
        }
        let html = format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>{}</title><style>{CSS}</style></head><body>\n{body}<p class=\"note\">Written by haifu {}.</p></body></html>\n",
            escape(&self.title),
            env!("CARGO_PKG_VERSION")
        );
        let tmp = path.with_extension("html.tmp");
        std::fs::write(&tmp, html).with_context(|| format!("writing {}", tmp.display()))?;
        std::fs::rename(&tmp, path).with_context(|| format!("renaming {} to {}", tmp.display(), path.display()))?;
        Ok((pngs, problems))
    }
}

/// Writes a report folder: each table as CSV, Markdown and JSON, `README.md` with them all under `heading`, and
/// the page as `index.html` (charts in `charts/`); returns the charts that could not be drawn.
pub fn write_report(out: &Path, heading: &str, tables: &[Table], page: &Page) -> Result<Vec<String>> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let mut md = format!("# {heading}\n\n");
    for t in tables {
        t.write(out)?;
        md.push_str(&t.to_markdown());
        md.push('\n');
    }
    std::fs::write(out.join("README.md"), md).with_context(|| format!("writing {}/README.md", out.display()))?;
    Ok(page.write(&out.join("index.html"))?.1)
}
