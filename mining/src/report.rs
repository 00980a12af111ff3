//! Result tables as people and scripts read them: one [`Table`] renders as CSV, Markdown and JSON, and is
//! written as `NAME.csv`, `NAME.md` and `NAME.json` side by side. Every statistic and report builds these.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde_json::{json, Value};

/// One value of a table.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    Int(i64),
    /// A fraction shown as a percentage with two decimals (`0.4254` -> `42.54`); JSON keeps the fraction.
    Percent(f64),
    /// A number shown with `digits` decimals.
    Float(f64, usize),
    Text(String),
    /// No value (a figure the source does not give, a rate with no decisions).
    Empty,
}

impl Cell {
    pub fn text(s: impl Into<String>) -> Cell {
        Cell::Text(s.into())
    }
    pub fn int(n: impl TryInto<i64>) -> Cell {
        n.try_into().map_or(Cell::Empty, Cell::Int)
    }
    /// `Percent(num / den)`, empty when `den` is 0.
    pub fn ratio(num: u64, den: u64) -> Cell {
        if den == 0 {
            Cell::Empty
        } else {
            Cell::Percent(num as f64 / den as f64)
        }
    }
    pub fn opt_percent(v: Option<f64>) -> Cell {
        v.map_or(Cell::Empty, Cell::Percent)
    }

    fn display(&self) -> String {
        match self {
            Cell::Int(n) => n.to_string(),
            Cell::Percent(f) => format!("{:.2}", f * 100.0),
            Cell::Float(f, d) => format!("{f:.d$}"),
            Cell::Text(s) => s.clone(),
            Cell::Empty => String::new(),
        }
    }

    /// The cell as the reports show it: thousands separators on counts, percentages with two decimals, `-`
    /// for no value.
    pub fn shown(&self) -> String {
        match self {
            Cell::Int(n) => grouped(*n),
            Cell::Empty => "-".into(),
            other => other.display(),
        }
    }

    /// A count or a number (right-aligned in tables).
    pub fn is_number(&self) -> bool {
        matches!(self, Cell::Int(_) | Cell::Percent(_) | Cell::Float(..))
    }

    /// Markdown shows thousands separators on counts, as the thesis prints them.
    fn markdown(&self) -> String {
        match self {
            Cell::Int(n) => grouped(*n),
            Cell::Empty => "-".into(),
            other => other.display().replace('|', "\\|"),
        }
    }

    fn json(&self) -> Value {
        match self {
            Cell::Int(n) => json!(n),
            Cell::Percent(f) | Cell::Float(f, _) => json!(f),
            Cell::Text(s) => json!(s),
            Cell::Empty => Value::Null,
        }
    }
}

/// 1234567 -> "1,234,567".
pub fn grouped(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

/// A titled table with notes (what was counted, the options, the N behind each rate).
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// File stem: `yaku_frequency` -> `yaku_frequency.csv` ...
    pub name: String,
    pub title: String,
    /// Lines printed under the title (definitions, options, sources of comparison figures).
    pub notes: Vec<String>,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    pub fn new(name: &str, title: &str, columns: &[&str]) -> Table {
        Table {
            name: name.into(),
            title: title.into(),
            notes: Vec::new(),
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    pub fn note(&mut self, line: impl Into<String>) -> &mut Self {
        self.notes.push(line.into());
        self
    }

    pub fn push(&mut self, row: Vec<Cell>) -> &mut Self {
        debug_assert_eq!(row.len(), self.columns.len(), "row width of {}", self.name);
        self.rows.push(row);
        self
    }

    pub fn to_csv(&self) -> Result<String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(&self.columns)?;
        for r in &self.rows {
            w.write_record(r.iter().map(Cell::display))?;
        }
        let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("writing CSV: {}", e.error()))?;
        Ok(String::from_utf8(bytes)?)
    }

    pub fn to_markdown(&self) -> String {
        let mut s = format!("### {}\n\n", self.title);
        for n in &self.notes {
            let _ = writeln!(s, "{n}  ");
        }
        if !self.notes.is_empty() {
            s.push('\n');
        }
        let _ = writeln!(s, "| {} |", self.columns.join(" | "));
        let _ = writeln!(s, "|{}", "---|".repeat(self.columns.len()));
        for r in &self.rows {
            let cells: Vec<String> = r.iter().map(Cell::markdown).collect();
            let _ = writeln!(s, "| {} |", cells.join(" | "));
        }
        s
    }

    pub fn to_json(&self) -> Value {
        let rows: Vec<Value> = self
            .rows
            .iter()
            .map(|r| Value::Object(self.columns.iter().cloned().zip(r.iter().map(Cell::json)).collect()))
            .collect();
        json!({"name": self.name, "title": self.title, "notes": self.notes, "columns": self.columns, "rows": rows})
    }

    /// Writes `dir/NAME.csv`, `.md` and `.json`; returns the three paths.
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let files = [
            (dir.join(format!("{}.csv", self.name)), self.to_csv()?),
            (dir.join(format!("{}.md", self.name)), self.to_markdown()),
            (dir.join(format!("{}.json", self.name)), serde_json::to_string_pretty(&self.to_json())? + "\n"),
        ];
        let mut paths = Vec::new();
        for (path, text) in files {
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
            paths.push(path);
        }
        Ok(paths)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_three_ways() {
        let mut t = Table::new("t", "A table", &["name", "n", "rate"]);
        t.note("N = 3");
        t.push(vec![Cell::text("a,b"), Cell::int(1234567), Cell::ratio(1, 3)]);
        t.push(vec![Cell::text("c|d"), Cell::int(-5), Cell::ratio(1, 0)]);
        assert_eq!(t.to_csv().unwrap(), "name,n,rate\n\"a,b\",1234567,33.33\nc|d,-5,\n");
        let md = t.to_markdown();
        assert!(md.contains("| a,b | 1,234,567 | 33.33 |"), "{md}");
        assert!(md.contains("| c\\|d | -5 | - |"), "{md}");
        let j = t.to_json();
        assert_eq!(j["rows"][0]["n"], 1234567);
        assert!((j["rows"][0]["rate"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-12);
        assert!(j["rows"][1]["rate"].is_null());
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
    }
}
