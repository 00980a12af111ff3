//! Charts with `plotters`: line charts (optionally log-log) and grouped bars, drawn as SVG (inlined in the HTML
//! reports) and as PNG files.
//!
//! plotters measures text with a TrueType font, for SVG as for PNG: the first of `$HAIFU_FONT`, the usual
//! DejaVu, Liberation and Noto paths, or any `.ttf` under `/usr/share/fonts`. Without one, charts are skipped
//! with a note saying so (the tables are written all the same). The SVG names the font family only, so a
//! browser draws names in any script; in the PNG files, glyphs the font lacks (Japanese names with DejaVu)
//! show as boxes.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::{anyhow, bail, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

/// One line of a line chart: its name and its (x, y) points.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// What a chart draws.
#[derive(Clone, Debug, PartialEq)]
pub enum Plot {
    Lines {
        series: Vec<Series>,
        log_x: bool,
        log_y: bool,
    },
    /// Bars per group (x), one per series, side by side; `None` draws no bar.
    Bars {
        groups: Vec<String>,
        series: Vec<(String, Vec<Option<f64>>)>,
        log_y: bool,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// File name stem of the PNG.
    pub name: String,
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub plot: Plot,
}

const WIDTH: u32 = 760;
const HEIGHT: u32 = 420;
const FAMILY: &str = "sans-serif";

/// Text sizes in the chart's pixels. The page shows a chart at most at its width, so these are the smallest
/// sizes a reader sees (at least 12 px, as the issue on the reports asks).
const LABEL: u32 = 15;
const CAPTION: u32 = 20;
/// The legend's column, right of the plot: a legend over the plot hid the data where it was densest.
const LEGEND_WIDTH: u32 = 200;

/// A palette readable on white and by most colour-blind readers (Okabe-Ito), then four more, so that the
/// humans and eight bots of the bots report each have a colour of their own.
const COLOURS: [RGBColor; 12] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(240, 228, 66),
    RGBColor(0, 0, 0),
    RGBColor(136, 136, 136),
    RGBColor(140, 86, 75),
    RGBColor(117, 61, 160),
    RGBColor(0, 80, 40),
];

fn font_candidates() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::env::var_os("HAIFU_FONT").map(PathBuf::from).into_iter().collect();
    for p in [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
        "/System/Library/Fonts/Supplemental/Arial.ttf",
    ] {
        v.push(PathBuf::from(p));
    }
    v
}

fn any_ttf(dir: &Path, depth: usize) -> Option<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).ok()?.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    entries.iter().find(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("ttf"))).cloned().or_else(|| {
        (depth > 0).then(|| entries.iter().filter(|p| p.is_dir()).find_map(|d| any_ttf(d, depth - 1))).flatten()
    })
}

/// Registers the font once; the path used, or why there is none.
pub fn font() -> Result<&'static Path, String> {
    static FONT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    FONT.get_or_init(|| {
        let path = font_candidates()
            .into_iter()
            .find(|p| p.is_file())
            .or_else(|| any_ttf(Path::new("/usr/share/fonts"), 4))
            .ok_or("no TrueType font found for the charts' text: set HAIFU_FONT=/path/to/font.ttf")?;
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        // plotters keeps fonts for the life of the process
        let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
        register_font(FAMILY, FontStyle::Normal, bytes)
            .map_err(|_| format!("{}: not a usable font", path.display()))?;
        Ok(path)
    })
    .as_ref()
    .map(PathBuf::as_path)
    .map_err(Clone::clone)
}

fn plot_err(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow!("drawing a chart: {e}")
}

/// Range of values with a little room, never empty.
fn span(values: impl Iterator<Item = f64>, from_zero: bool) -> (f64, f64) {
    let (mut lo, mut hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    if from_zero {
        lo = lo.min(0.0);
    }
    if hi - lo < 1e-9 {
        hi = lo + 1.0;
    }
    let pad = (hi - lo) * 0.05;
    (if from_zero && lo >= 0.0 { lo } else { lo - pad }, hi + pad)
}

/// The series' names in a column beside the plot: a swatch and the name on each line.
fn side_legend<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, names: &[&str], lines: bool) -> Result<()> {
    for (i, name) in names.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let y = 56 + 24 * i as i32;
        if lines {
            area.draw(&PathElement::new(vec![(4, y), (22, y)], colour.stroke_width(3))).map_err(plot_err)?;
        } else {
            area.draw(&Rectangle::new([(6, y - 6), (20, y + 6)], colour.filled())).map_err(plot_err)?;
        }
        // long names (a run's folder) keep their end, which tells runs apart
        let shown: String = if name.chars().count() > 22 {
            format!("…{}", name.chars().skip(name.chars().count() - 21).collect::<String>())
        } else {
            name.to_string()
        };
        area.draw(&Text::new(shown, (28, y - 8), (FAMILY, LABEL))).map_err(plot_err)?;
    }
    Ok(())
}

/// The series' names, and whether they are lines (else bars).
fn series_names(plot: &Plot) -> (Vec<&str>, bool) {
    match plot {
        Plot::Lines { series, .. } => (series.iter().map(|s| s.name.as_str()).collect(), true),
        Plot::Bars { series, .. } => (series.iter().map(|s| s.0.as_str()).collect(), false),
    }
}

/// Whole-number ticks for an axis of whole numbers (epochs): `1, 2, 3`, not `1.0, 1.2, 1.4`.
fn whole_tick(x: &f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{x:.0}")
    } else {
        String::new()
    }
}

/// The area left for the plot once the legend (with more than one series) has its column beside it.
fn plot_area<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, plot: &Plot) -> Result<DrawingArea<DB, Shift>> {
    let (names, lines) = series_names(plot);
    if names.len() <= 1 {
        return Ok(root.clone());
    }
    let (area, legend) = root.split_horizontally(WIDTH - LEGEND_WIDTH);
    side_legend(&legend, &names, lines)?;
    Ok(area)
}

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, c: &Chart) -> Result<()> {
    root.fill(&WHITE).map_err(plot_err)?;
    let area = plot_area(root, &c.plot)?;
    // many or long group names (yaku) stand upright under their bars instead of running into each other
    let upright = matches!(&c.plot, Plot::Bars { groups, .. } if groups.len() > 8 && groups.iter().any(|g| g.chars().count() > 4));
    let mut builder = ChartBuilder::on(&area);
    builder.caption(&c.title, (FAMILY, CAPTION)).margin(12).x_label_area_size(if upright { 150 } else { 48 });
    builder.y_label_area_size(70);
    match &c.plot {
        Plot::Lines { series, log_x, log_y } => {
            let pts = || series.iter().flat_map(|s| s.points.iter());
            let (x0, x1) = span(pts().map(|p| p.0), false);
            let (y0, y1) = span(pts().map(|p| p.1), !log_y);
            let whole = !log_x && pts().all(|p| p.0.fract() == 0.0) && x1 - x0 <= 40.0;
            // a log axis over the positive values, a factor of 1.5 of room each side
            let positive = |v: &dyn Fn(&(f64, f64)) -> f64| -> Option<(f64, f64)> {
                let (lo, hi) =
                    pts().map(v).filter(|&x| x > 0.0).fold((f64::INFINITY, 0.0f64), |(a, b), x| (a.min(x), b.max(x)));
                lo.is_finite().then(|| (lo / 1.5, (hi * 1.5).max(lo * 2.0)))
            };
            macro_rules! lines {
                ($chart:expr) => {{
                    let mut chart = $chart.map_err(plot_err)?;
                    let mut mesh = chart.configure_mesh();
                    mesh.x_desc(&c.x_label).y_desc(&c.y_label).label_style((FAMILY, LABEL));
                    if whole {
                        mesh.x_labels(((x1 - x0).ceil() as usize + 1).min(21)).x_label_formatter(&whole_tick);
                    }
                    mesh.draw().map_err(plot_err)?;
                    for (i, s) in series.iter().enumerate() {
                        let colour = COLOURS[i % COLOURS.len()];
                        chart
                            .draw_series(LineSeries::new(s.points.iter().copied(), colour.stroke_width(2)))
                            .map_err(plot_err)?;
                        chart
                            .draw_series(s.points.iter().map(|&p| Circle::new(p, 3, colour.filled())))
                            .map_err(plot_err)?;
                    }
                }};
            }
            match (log_x, log_y) {
                (true, true) => {
                    let (xa, xb) = positive(&|p| p.0).unwrap_or((1.0, 10.0));
                    let (ya, yb) = positive(&|p| p.1).unwrap_or((1.0, 10.0));
                    lines!(builder.build_cartesian_2d((xa..xb).log_scale(), (ya..yb).log_scale()))
                }
                (false, true) => {
                    let (ya, yb) = positive(&|p| p.1).unwrap_or((1.0, 10.0));
                    lines!(builder.build_cartesian_2d(x0..x1, (ya..yb).log_scale()))
                }
                (true, false) => {
                    let (xa, xb) = positive(&|p| p.0).unwrap_or((1.0, 10.0));
                    lines!(builder.build_cartesian_2d((xa..xb).log_scale(), y0..y1))
                }
                (false, false) => lines!(builder.build_cartesian_2d(x0..x1, y0..y1)),
            }
        }
        Plot::Bars { groups, series, log_y } => {
            let values = || series.iter().flat_map(|(_, v)| v.iter().flatten().copied());
            let n = groups.len().max(1) as f64;
            let k = series.len().max(1) as f64;
            let label = |x: &f64| {
                let i = x.round();
                if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < groups.len() {
                    let name = &groups[i as usize];
                    // plotters centres a label on its tick, so an upright one would reach up into the bars:
                    // no-break spaces before it (SVG collapses plain ones; about half a letter wide each) bring its
                    // first letter down to the tick
                    if upright {
                        format!("{}{name}", "\u{a0}".repeat(2 * name.chars().count() + 1))
                    } else {
                        name.clone()
                    }
                } else {
                    String::new()
                }
            };
            macro_rules! bars {
                ($chart:expr, $base:expr) => {{
                    let mut chart = $chart.map_err(plot_err)?;
                    let mut mesh = chart.configure_mesh();
                    mesh.x_desc(&c.x_label)
                        .y_desc(&c.y_label)
                        .x_labels(groups.len().min(40))
                        .x_label_formatter(&label)
                        .disable_x_mesh()
                        .label_style((FAMILY, LABEL));
                    if upright {
                        mesh.x_label_style(
                            TextStyle::from((FAMILY, LABEL).into_font()).transform(FontTransform::Rotate90),
                        );
                    }
                    mesh.draw().map_err(plot_err)?;
                    for (j, (_, v)) in series.iter().enumerate() {
                        let colour = COLOURS[j % COLOURS.len()];
                        let width = 0.8 / k;
                        let bars = v.iter().enumerate().filter_map(|(i, y)| {
                            let x = i as f64 - 0.4 + width * j as f64;
                            y.map(|y| Rectangle::new([(x, $base), (x + width * 0.92, y)], colour.filled()))
                        });
                        chart.draw_series(bars).map_err(plot_err)?;
                    }
                }};
            }
            if *log_y {
                let hi = values().fold(1.0f64, f64::max) * 2.0;
                let lo = values().filter(|&v| v > 0.0).fold(hi, f64::min).max(1e-3) / 2.0;
                bars!(builder.build_cartesian_2d(-0.6..n - 0.4, (lo..hi).log_scale()), lo)
            } else {
                let (_, hi) = span(values(), true);
                bars!(builder.build_cartesian_2d(-0.6..n - 0.4, 0.0..hi), 0.0)
            }
        }
    }
    root.present().map_err(plot_err)?;
    Ok(())
}

/// The chart as an SVG document (to inline in HTML).
pub fn svg(c: &Chart) -> Result<String> {
    font().map_err(|e| anyhow!(e))?;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, HEIGHT)).into_drawing_area();
        draw(&root, c)?;
    }
    Ok(out)
}

/// Writes the chart as `dir/NAME.png`.
pub fn png(c: &Chart, dir: &Path) -> Result<PathBuf> {
    font().map_err(|e| anyhow!(e))?;
    if c.name.is_empty() || c.name.contains(['/', '\\']) {
        bail!("chart name {:?} is not a file name", c.name);
    }
    std::fs::create_dir_all(dir)?;
    let path = dir.join(format!("{}.png", c.name));
    {
        let root = BitMapBackend::new(&path, (WIDTH, HEIGHT)).into_drawing_area();
        draw(&root, c)?;
    }
    Ok(path)
}
