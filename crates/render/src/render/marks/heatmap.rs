//! The heatmap: a quick chart whose series are the rows (the `-s`
//! categories, named by `seriesLabel`) and whose points' labels are the
//! columns (`-x`), each point a cell's value, as viz-parse makes them
//! with `--chart heatmap`. In the terminal a grid of cells: on a colour
//! terminal each cell's background on one colour scale (viridis, from
//! the smaller values' dark to the larger's light) with its number when
//! it fits, and the scale as a legend; without colour the cells are
//! shaded with characters (` ░▒▓█`, in ASCII ` .:-=+*#%@`), the number
//! written over the shade when it fits. SVG draws the same grid in the
//! same colours; Vega-Lite a `rect` over two nominal axes with a
//! sequential colour scale. A chart whose `bins` say an axis is binned
//! numbers (viz-parse's heatmap of numbers) draws every bin of it in
//! order, the empty ones too, and Vega-Lite bins that axis (`bin`,
//! quantitative, `x2`/`y2` the bins' ends); mermaid has no heatmap, so a report shows
//! the table of rows by columns.
//!
//! The grammar's `rect` mark is the same chart ([`Rect`]): its `x` values
//! across, its `y` values down, each cell its rows' `color` summed (or
//! `aggregate`d; without `color`, its rows counted), drawn by this
//! file's code as a chart of its own (`panels.rs`); in Vega-Lite a
//! `rect` over the spec's rows with the colour's `aggregate`.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::super::RenderOptions;
use super::super::plot::axes::{Anchor, place_labels};
use super::super::text::{NumFormat, Style, clean_line, paint, titled, width};
use super::super::wrap::truncate;
use super::WholeChart;
use super::panels::{Categories, Panels};
use super::vega::field_ref;
use super::vega::{nonblank, value_title};
use super::{Body, ChartKind, ColourScale, GrammarMark, Layers, Mermaid, Rgb, VegaLayers};
use crate::spec::grammar::{Aggregate, ChartSpec, Column, FieldType, Mark};
use crate::spec::{BinAxis, Chart, ChartType, Point, Series};

pub(super) struct Heatmap;

/// Shades from the smallest values to the largest, without colour.
const SHADES: [char; 5] = [' ', '░', '▒', '▓', '█'];
const ASCII_SHADES: [char; 10] = [' ', '.', ':', '-', '=', '+', '*', '#', '%', '@'];
/// Steps of the colour scale.
const STEPS: usize = 8;
/// Viridis at five stops, the scale Vega-Lite uses for sequential colour.
const VIRIDIS: [(f64, f64, f64); 5] = [
    (68.0, 1.0, 84.0),
    (59.0, 82.0, 139.0),
    (33.0, 145.0, 140.0),
    (94.0, 201.0, 98.0),
    (253.0, 231.0, 37.0),
];
/// The widest a cell gets, in columns.
const MAX_CELL: usize = 10;
/// Rows drawn at most in the terminal (the rest are said in a note).
const MAX_ROWS: usize = 200;

/// The colour at `f` (0 to 1) on the scale.
fn viridis(f: f64) -> Rgb {
    let f = if f.is_finite() {
        f.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let at = f * (VIRIDIS.len() - 1) as f64;
    let i = (at.floor() as usize).min(VIRIDIS.len() - 2);
    let t = at - i as f64;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    let mix = |x: f64, y: f64| (x + (y - x) * t).round() as u8;
    (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// The colour of step `k` of [`STEPS`].
fn step_colour(k: usize) -> Rgb {
    viridis(k as f64 / (STEPS - 1) as f64)
}

/// The nearest of the 256 colours' 6×6×6 cube.
fn xterm(c: Rgb) -> u8 {
    let q = |v: u8| ((f64::from(v) / 255.0 * 5.0).round()) as u8;
    16 + 36 * q(c.0) + 6 * q(c.1) + q(c.2)
}

/// A chart's cells: the rows (series), the columns (labels, each series'
/// order kept: a column first met in a later series goes after the one
/// it follows there) and each row's value per column.
pub(crate) struct Grid {
    pub rows: Vec<String>,
    pub columns: Vec<String>,
    pub cells: Vec<Vec<Option<f64>>>,
}

impl Grid {
    pub(crate) fn of(chart: &Chart) -> Grid {
        let (x_bins, row_bins) = bin_axes(chart);
        let mut columns: Vec<String> = x_bins.map_or_else(Vec::new, |b| bin_labels(&b));
        let binned = x_bins.is_some();
        for s in &chart.series {
            let mut after: Option<usize> = None;
            for p in &s.points {
                let at = match columns.iter().position(|c| *c == p.label) {
                    Some(i) => i,
                    // A label that is no bin goes after the bins.
                    None if binned => {
                        columns.push(p.label.clone());
                        columns.len() - 1
                    }
                    None => {
                        let i = after.map_or(columns.len(), |a| a + 1);
                        columns.insert(i, p.label.clone());
                        i
                    }
                };
                after = Some(at);
            }
        }
        let index: HashMap<&str, usize> = columns
            .iter()
            .enumerate()
            .map(|(i, c)| (c.as_str(), i))
            .collect();
        // Binned rows: every bin, each series in the row of its name.
        let mut rows: Vec<String> = row_bins.map_or_else(Vec::new, |b| bin_labels(&b));
        let mut cells: Vec<Vec<Option<f64>>> = vec![vec![None; columns.len()]; rows.len()];
        for s in &chart.series {
            let r = match rows.iter().position(|r| *r == s.name) {
                Some(r) if row_bins.is_some() => r,
                _ => {
                    rows.push(s.name.clone());
                    cells.push(vec![None; columns.len()]);
                    rows.len() - 1
                }
            };
            for p in &s.points {
                cells[r][index[p.label.as_str()]] = Some(p.value);
            }
        }
        Grid {
            rows,
            columns,
            cells,
        }
    }

    /// The scale's ends: from zero (or the smallest, when below) to the
    /// largest.
    fn range(&self) -> (f64, f64) {
        let values = self.cells.iter().flatten().flatten().copied();
        let lo = values.clone().fold(0f64, f64::min);
        let hi = values.fold(f64::NEG_INFINITY, f64::max);
        (lo, if hi.is_finite() { hi } else { lo })
    }

    fn format(&self) -> NumFormat {
        NumFormat::for_values(self.cells.iter().flatten().flatten().copied())
    }
}

/// The chart's binned axes (across, down) a renderer can draw.
fn bin_axes(chart: &Chart) -> (Option<BinAxis>, Option<BinAxis>) {
    let b = chart.bins.as_ref();
    let usable = |a: Option<BinAxis>| a.filter(BinAxis::usable);
    (
        usable(b.and_then(|b| b.x)),
        usable(b.and_then(|b| b.series)),
    )
}

fn bin_labels(b: &BinAxis) -> Vec<String> {
    (0..b.count).map(|k| b.label(k)).collect()
}

/// Where `v` falls on the scale, 0 to 1 (the top when it has no extent).
fn frac((lo, hi): (f64, f64), v: f64) -> f64 {
    if hi > lo {
        ((v - lo) / (hi - lo)).clamp(0.0, 1.0)
    } else {
        1.0
    }
}

impl ChartKind for Heatmap {
    fn terminal(&self, chart: &Chart, opts: &RenderOptions, lines: &mut Vec<String>) {
        draw(chart, opts, lines);
    }

    fn picture(&self, chart: &Chart) -> Body {
        let grid = Grid::of(chart);
        let range = grid.range();
        let fmt = grid.format();
        let cells = grid
            .cells
            .iter()
            .map(|row| {
                row.iter()
                    .map(|v| v.map(|v| (fmt.format(v), viridis(frac(range, v)))))
                    .collect()
            })
            .collect();
        Body::Grid {
            columns: grid.columns,
            rows: grid.rows,
            cells,
            scale: ColourScale {
                title: value_title(chart),
                lo: fmt.format(range.0),
                hi: fmt.format(range.1),
                colours: (0..STEPS).map(step_colour).collect(),
            },
            titles: (
                nonblank(chart.x_label.as_deref()).map(str::to_string),
                nonblank(chart.series_label.as_deref()).map(str::to_string),
            ),
        }
    }

    /// A `rect` per cell over two nominal axes in the chart's orders,
    /// coloured on a sequential scale, its value written when the cells
    /// are few.
    fn vega_lite(&self, chart: &Chart) -> Value {
        let grid = Grid::of(chart);
        let (x_bins, row_bins) = bin_axes(chart);
        let row_edges = |name: &str| {
            let b = row_bins?;
            let k = (0..b.count).find(|&k| b.label(k) == name)?;
            Some(b.edges(k))
        };
        let values: Vec<Value> = chart
            .series
            .iter()
            .flat_map(|s| {
                let down = row_edges(&s.name);
                s.points.iter().map(move |p| {
                    let mut v = json!({"label": p.label, "series": s.name, "value": p.value});
                    if let (Some(_), Some(a), Some(b)) = (x_bins, p.x, p.x2) {
                        v["label"] = json!(a);
                        v["label_end"] = json!(b);
                    }
                    if let Some((a, b)) = down {
                        v["series"] = json!(a);
                        v["series_end"] = json!(b);
                    }
                    v
                })
            })
            .collect();
        let colour_title = value_title(chart);
        let mut rect = json!({
            "mark": {"type": "rect", "tooltip": true},
            "encoding": {
                "color": {"field": "value", "type": "quantitative", "title": colour_title,
                          "scale": {"scheme": "viridis"}}
            }
        });
        let (x_title, y_title) = (
            nonblank(chart.x_label.as_deref()),
            nonblank(chart.series_label.as_deref()),
        );
        let x = match x_bins {
            Some(b) => {
                rect["encoding"]["x2"] = json!({"field": "label_end"});
                json!({"field": "label", "type": "quantitative",
                       "bin": {"binned": true, "step": b.step}, "title": x_title})
            }
            None => json!({"field": "label", "type": "nominal", "sort": grid.columns,
                           "title": x_title}),
        };
        // Binned rows read downwards from the smallest, as in the terminal.
        let y = match row_bins {
            Some(b) => {
                rect["encoding"]["y2"] = json!({"field": "series_end"});
                json!({"field": "series", "type": "quantitative",
                       "bin": {"binned": true, "step": b.step},
                       "scale": {"reverse": true}, "title": y_title})
            }
            None => json!({"field": "series", "type": "nominal", "sort": grid.rows,
                           "title": y_title}),
        };
        let mut layers = vec![rect];
        // The numbers on the cells, where the cells are categories.
        let categories = x_bins.is_none() && row_bins.is_none();
        if categories && grid.columns.len() * grid.rows.len() <= 400 {
            layers.push(json!({
                "mark": {"type": "text", "fontSize": 10},
                "encoding": {
                    "text": {"field": "value", "type": "quantitative", "format": ",.4~g"},
                    "color": {"value": "#888"}
                }
            }));
        }
        json!({
            "width": (grid.columns.len() * 40).clamp(200, 800),
            "height": (grid.rows.len() * 24).clamp(100, 800),
            "data": {"values": values},
            "encoding": {"x": x, "y": y},
            "layer": layers
        })
    }

    fn mermaid(&self, _chart: &Chart) -> Mermaid {
        Mermaid::Refused("heatmap")
    }
}

/// The grammar's `rect` mark: a heatmap of its own.
pub(super) struct Rect;

/// How a rect's cells get their value: its aggregate, `count` without a
/// `color` field, else `sum` unless it says.
fn aggregate(m: &Mark) -> Aggregate {
    match (&m.color, m.aggregate) {
        (None, _) => Aggregate::Count,
        (Some(_), a) => a.unwrap_or_default(),
    }
}

/// What a rect's colour means: `count`, or the aggregate of its field.
fn colour_title(spec: &ChartSpec, m: &Mark) -> String {
    match (&m.color, aggregate(m)) {
        (Some(f), a) if a != Aggregate::Count => {
            format!("{} of {}", a.as_str(), spec.field_label(f))
        }
        _ => "count".into(),
    }
}

impl GrammarMark for Rect {
    fn on_axes(&self) -> bool {
        false
    }

    fn whole_chart(&self, _spec: &ChartSpec) -> Option<&'static dyn WholeChart> {
        Some(&Panels)
    }

    /// Never on shared axes: the chart is its own.
    fn layers(&self, _b: &mut Layers, _m: &Mark) {}

    /// The heatmap: the `y` values are its rows, the `x` values its
    /// columns.
    fn chart_of(&self, spec: &ChartSpec, m: &Mark) -> Option<Chart> {
        let (x, y) = (m.x.as_deref()?, m.y.as_deref()?);
        let (across, down) = (
            Categories::read(&spec.column(x)?),
            Categories::read(&spec.column(y)?),
        );
        let how = aggregate(m);
        let values = match m.color.as_deref().and_then(|f| spec.column(f)) {
            Some(Column::Number(v)) if how != Aggregate::Count => Some(v),
            _ => None,
        };
        let mut cells: HashMap<(usize, usize), Vec<f64>> = HashMap::new();
        for (i, (c, r)) in across.of_row.iter().zip(&down.of_row).enumerate() {
            let (Some(c), Some(r)) = (c, r) else { continue };
            let v = match &values {
                Some(v) => match v.get(i).copied().flatten() {
                    Some(v) => v,
                    None => continue,
                },
                None => 1.0,
            };
            cells.entry((*r, *c)).or_default().push(v);
        }
        let series = down
            .names
            .iter()
            .enumerate()
            .map(|(r, name)| Series {
                name: name.clone(),
                points: across
                    .names
                    .iter()
                    .enumerate()
                    .filter_map(|(c, label)| {
                        let v = how.of(cells.get_mut(&(r, c))?)?;
                        Some(Point::new(label.clone(), v))
                    })
                    .collect(),
                facet: None,
            })
            .filter(|s| !s.points.is_empty())
            .collect();
        let unit = m.color.as_deref().and_then(|f| spec.field(f)?.unit.clone());
        Some(Chart {
            chart_type: ChartType::Heatmap,
            x_label: Some(spec.field_label(x).to_string()),
            series_label: Some(spec.field_label(y).to_string()),
            y_label: Some(colour_title(spec, m)),
            unit: unit.filter(|_| how != Aggregate::Count),
            series,
            ..Chart::default()
        })
    }

    /// A `rect` per pair of values (categories, or numbers and dates in
    /// order), its colour the rows' aggregate on a sequential scale.
    fn vega_lite(&self, p: &mut VegaLayers, m: &Mark, out: &mut Vec<Value>) {
        let spec = p.spec;
        let mut enc = Map::new();
        for (ch, f) in [("x", &m.x), ("y", &m.y)] {
            if let Some(f) = f {
                enc.insert(ch.into(), discrete(spec, f));
            }
        }
        let how = aggregate(m);
        let unit = m
            .color
            .as_deref()
            .and_then(|f| spec.field(f)?.unit.as_deref());
        let title = titled(
            Some(&colour_title(spec, m)),
            unit.filter(|_| how != Aggregate::Count),
        );
        let mut colour = json!({"aggregate": how.as_str(), "type": "quantitative",
            "title": title, "scale": {"scheme": "viridis"}});
        if let (Some(f), false) = (&m.color, how == Aggregate::Count) {
            colour["field"] = field_ref(f).into();
        }
        enc.insert("color".into(), colour);
        out.push(p.layer(json!({"type": "rect"}), enc));
    }
}

/// A position channel of a field's values as categories: text in the
/// order met, numbers ascending, dates by day (a time unit).
pub(super) fn discrete(spec: &ChartSpec, f: &str) -> Value {
    let ty = spec.field_type(f);
    let unit = spec.field(f).and_then(|d| d.unit.as_deref());
    let mut c = json!({"field": field_ref(f), "title": titled(Some(spec.field_label(f)), unit)});
    match ty {
        Some(FieldType::String) => {
            c["type"] = "nominal".into();
            c["sort"] = Value::Null;
        }
        Some(FieldType::Date) => {
            c["type"] = "ordinal".into();
            c["timeUnit"] = "utcyearmonthdate".into();
        }
        _ => c["type"] = "ordinal".into(),
    }
    c
}

/// The terminal's sizes: the row labels' width, each cell's, the columns
/// shown.
struct Layout {
    label_w: usize,
    cell_w: usize,
    shown: usize,
}

fn layout(grid: &Grid, fmt: &NumFormat, w: usize, corner: &str, color: bool) -> Layout {
    let label_w = grid
        .rows
        .iter()
        .map(|r| width(&clean_line(r, false)))
        .chain([width(corner)])
        .max()
        .unwrap_or(0)
        .clamp(1, (w / 3).max(1));
    let room = w.saturating_sub(label_w + 1).max(1);
    let n = grid.columns.len().max(1);
    let widest = grid
        .cells
        .iter()
        .flatten()
        .flatten()
        .map(|v| width(&fmt.format(*v)) + if color { 2 } else { 4 })
        .chain(grid.columns.iter().map(|c| width(c) + 1))
        .max()
        .unwrap_or(3)
        .clamp(3, MAX_CELL);
    let cell_w = (room / n).clamp(1, widest);
    Layout {
        label_w,
        cell_w,
        shown: n.min(room / cell_w),
    }
}

fn draw(chart: &Chart, opts: &RenderOptions, lines: &mut Vec<String>) {
    let grid = Grid::of(chart);
    let (ascii, color) = (!opts.unicode, opts.color);
    let w = opts.width.max(1);
    let fmt = grid.format();
    let range = grid.range();
    let corner = nonblank(chart.series_label.as_deref())
        .map(|t| clean_line(t, ascii))
        .unwrap_or_default();
    let l = layout(&grid, &fmt, w, &corner, color);
    let indent = " ".repeat(l.label_w + 1);
    if let Some(t) = nonblank(chart.x_label.as_deref()) {
        let t = truncate(
            &clean_line(t, ascii),
            w.saturating_sub(l.label_w + 1),
            ascii,
        );
        lines.push(format!("{indent}{}", paint(&t, Style::Dim, color)));
    }
    let x_bins = bin_axes(chart).0;
    let heads: Vec<(Anchor, String)> = grid.columns[..l.shown]
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let c = clean_line(c, ascii);
            // A bin too narrow for its range is named by where it starts,
            // at its left edge, as an axis' ticks are.
            if let Some(b) = x_bins.filter(|_| width(&c) >= l.cell_w)
                && i < b.count
            {
                return (Anchor::Start(i * l.cell_w), b.start_label(i));
            }
            let c = if l.cell_w >= 4 {
                truncate(&c, l.cell_w - 1, ascii)
            } else {
                c
            };
            (Anchor::Center(i * l.cell_w + l.cell_w / 2), c)
        })
        .collect();
    let refs: Vec<(Anchor, &str)> = heads.iter().map(|(a, s)| (*a, s.as_str())).collect();
    let corner = truncate(&corner, l.label_w, ascii);
    let pad = " ".repeat(l.label_w.saturating_sub(width(&corner)) + 1);
    lines.push(format!(
        "{}{pad}{}",
        paint(&corner, Style::Dim, color),
        place_labels(l.shown * l.cell_w, &refs)
    ));
    let row_bins = bin_axes(chart).1;
    for (k, (name, row)) in grid.rows.iter().zip(&grid.cells).take(MAX_ROWS).enumerate() {
        let mut name = clean_line(name, ascii);
        // A bin's range too wide for the labels: where it starts.
        if let Some(b) = row_bins.filter(|b| width(&name) > l.label_w && k < b.count) {
            name = b.start_label(k);
        }
        let name = truncate(&name, l.label_w, ascii);
        let mut line = format!("{name}{} ", " ".repeat(l.label_w - width(&name)));
        for v in &row[..l.shown] {
            line.push_str(&cell(*v, range, &fmt, l.cell_w, opts));
        }
        lines.push(line.trim_end().to_string());
    }
    lines.push(legend(chart, range, &fmt, opts));
    if l.shown < grid.columns.len() {
        let msg = format!(
            "showing {} of {} columns: a wider terminal shows more",
            l.shown,
            grid.columns.len()
        );
        super::super::wrap::note(&msg, opts, lines);
    }
    if grid.rows.len() > MAX_ROWS {
        let msg = format!(
            "showing {MAX_ROWS} of {} rows: --filter picks others",
            grid.rows.len()
        );
        super::super::wrap::note(&msg, opts, lines);
    }
}

/// One cell `w` columns wide: its shade or colour, its number when it fits.
fn cell(
    v: Option<f64>,
    range: (f64, f64),
    fmt: &NumFormat,
    w: usize,
    opts: &RenderOptions,
) -> String {
    let Some(v) = v else {
        return " ".repeat(w);
    };
    let f = frac(range, v);
    // Only the scale's bottom is blank: any more is a shade.
    let level = |n: usize| ((f * (n - 1) as f64).ceil() as usize).min(n - 1);
    let num = fmt.format(v);
    let nw = width(&num);
    if opts.color {
        let k = level(STEPS);
        let text = if nw < w {
            centred(&num, w, ' ')
        } else {
            " ".repeat(w)
        };
        let ink = if k >= STEPS / 2 { 16 } else { 231 };
        return format!(
            "\x1b[48;5;{};38;5;{ink}m{text}\x1b[0m",
            xterm(step_colour(k))
        );
    }
    let shades: &[char] = if opts.unicode { &SHADES } else { &ASCII_SHADES };
    let shade = shades[level(shades.len())];
    if nw + 4 <= w {
        let inner = centred(&format!(" {num} "), w, shade);
        return inner;
    }
    shade.to_string().repeat(w)
}

/// `s` in the middle of `w` columns of `fill`.
fn centred(s: &str, w: usize, fill: char) -> String {
    let sw = width(s);
    let left = (w.saturating_sub(sw)) / 2;
    let right = w.saturating_sub(sw + left);
    format!(
        "{}{s}{}",
        fill.to_string().repeat(left),
        fill.to_string().repeat(right)
    )
}

/// The scale: its title, the smallest value, the steps, the largest.
fn legend(chart: &Chart, range: (f64, f64), fmt: &NumFormat, opts: &RenderOptions) -> String {
    let ascii = !opts.unicode;
    let title = titled(chart.y_label.as_deref(), chart.unit.as_deref())
        .map(|t| format!("{}: ", clean_line(&t, ascii)))
        .unwrap_or_default();
    let ramp = if opts.color {
        (0..STEPS)
            .map(|k| format!("\x1b[48;5;{}m  \x1b[0m", xterm(step_colour(k))))
            .collect::<String>()
    } else {
        let shades: &[char] = if opts.unicode { &SHADES } else { &ASCII_SHADES };
        format!("[{}]", shades.iter().collect::<String>())
    };
    format!(
        "{}{} {ramp} {}",
        paint(&title, Style::Dim, opts.color),
        fmt.format(range.0),
        fmt.format(range.1)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_runs_dark_to_light() {
        assert_eq!(viridis(0.0), (68, 1, 84));
        assert_eq!(viridis(1.0), (253, 231, 37));
        assert_eq!(xterm((255, 255, 255)), 231);
        assert_eq!(xterm((0, 0, 0)), 16);
        assert_eq!(centred("7", 4, '#'), "#7##");
    }
}
