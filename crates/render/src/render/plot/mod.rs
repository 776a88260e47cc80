//! The layered plot: the one place that draws on a grid. A [`Plot`] is
//! two axes and a stack of layers (lines, points, areas, bars, bands,
//! rules), each already in axis values; [`render`] sizes the canvas to the
//! width, builds the scales ([`axes`]), draws bands first and then every
//! other layer in order, a later one over an earlier ([`canvas`]), and
//! adds the y gutter, the x axis and its labels, and the [`legend`].
//! Today's line chart and the grammar's charts both come through here.

pub mod axes;
pub mod canvas;
mod layers;
pub mod legend;
pub mod scaled;

use super::RenderOptions;
use super::text::{Line, PALETTE, Style, clean_line, paint, width};
use super::wrap::{pad_left, truncate};
use axes::{Anchor, Scale, ScaleKind};
use canvas::Canvas;

/// Series markers: Unicode, and ASCII (where they also draw the lines).
pub const MARKERS: [char; 12] = ['●', '◆', '▲', '■', '▼', '★', '✚', '✕', '○', '◇', '△', '□'];
pub const ASCII_MARKERS: [char; 12] = ['*', '+', 'o', 'x', '#', '%', '@', '&', '=', '$', '~', '^'];

/// One axis before it is fitted to the space.
#[derive(Debug, Clone, PartialEq)]
pub enum AxisSpec {
    Number {
        min: f64,
        max: f64,
        /// Shown in every tick label when short (`5 km`).
        unit: Option<String>,
        domain: Option<(f64, f64)>,
        invert: bool,
    },
    /// Seconds since the epoch.
    Date {
        min: f64,
        max: f64,
        domain: Option<(f64, f64)>,
        invert: bool,
    },
    /// Positions 0..n-1.
    Category { names: Vec<String> },
    /// Numbers on a log or square-root scale: `min` and `max` are where
    /// the scale puts the data's extent ([`scaled`]).
    Scaled {
        min: f64,
        max: f64,
        unit: Option<String>,
        scale: crate::spec::ScaleType,
    },
}

/// Which points of a line get their series' marker (Unicode only: in
/// ASCII the line is drawn with the marker).
/// Every point when `positions` take at most a third of the plot's
/// columns; else, when `several` series share the plot, the last one (to
/// tie the line to the legend); else none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Markers {
    pub positions: usize,
    pub several: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// Joined in order; `None` breaks the line.
    Line {
        points: Vec<Option<(f64, f64)>>,
        markers: Markers,
    },
    Points(Vec<(f64, f64)>),
    /// Many points, a dot each (a scatter): `counts`, when given, is how
    /// many rows each stands for; where they crowd, the dots fill their
    /// cells (in ASCII a cell's character darkens with its rows). With
    /// `cell` (a binned scatter's cell size in axis units) each point
    /// fills the cell around it, so a dense region is drawn solid
    /// whatever the width.
    Dots {
        points: Vec<(f64, f64)>,
        counts: Vec<u64>,
        cell: Option<[f64; 2]>,
    },
    /// Filled from `y` to `y2` (`None`: the baseline), straight between
    /// points, in x order.
    Area {
        points: Vec<(f64, f64, Option<f64>)>,
        dotted: bool,
    },
    /// Columns from the baseline to each value; `group` is this layer's
    /// place among `groups` side by side in each slot `slot` wide.
    Bars {
        bars: Vec<(f64, f64)>,
        slot: f64,
        group: usize,
        groups: usize,
        dotted: bool,
    },
    /// A shaded band behind everything; `None` spans the plot.
    Band {
        x: Option<(f64, f64)>,
        y: Option<(f64, f64)>,
        label: Option<String>,
    },
    /// A reference line across the plot at x or at y.
    Rule {
        x: Option<f64>,
        y: Option<f64>,
        label: Option<String>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Layer {
    /// Picks colour, marker and ASCII glyph.
    pub series: usize,
    pub shape: Shape,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Plot {
    pub x: AxisSpec,
    pub y: AxisSpec,
    pub y_title: Option<String>,
    pub x_title: Option<String>,
    pub layers: Vec<Layer>,
    /// Shown as given (callers leave it empty for one series).
    pub legend: Vec<legend::Item>,
}

pub fn series_style(i: usize) -> Style {
    Style::Fg(PALETTE[i % PALETTE.len()])
}

pub fn marker(i: usize, ascii: bool) -> char {
    if ascii {
        ASCII_MARKERS[i % ASCII_MARKERS.len()]
    } else {
        MARKERS[i % MARKERS.len()]
    }
}

/// The glyph of a filled series in the legend and, in ASCII, on the plot.
pub fn fill_glyph(series: usize, dotted: bool, ascii: bool) -> char {
    match (ascii, dotted) {
        (false, false) => '█',
        (false, true) => '⣿',
        (true, _) if series == 0 => '#',
        (true, _) => marker(series, true),
    }
}

/// Plot rows for a width: the `--height` cap, about a quarter of the width.
pub fn plot_rows(opts: &RenderOptions) -> usize {
    opts.height.max(2).min((opts.width.max(1) / 4).max(3))
}

/// Draws the plot as lines (no newlines), never wider than the width.
pub fn render(plot: &Plot, opts: &RenderOptions, lines: &mut Vec<String>) {
    let ascii = !opts.unicode;
    let w = opts.width.max(1);
    let c = opts.color;
    let rows = plot_rows(opts);
    let mut y = fit_axis(&plot.y, (rows / 3 + 1).max(3), false);
    // Categories read top down, the first at the top.
    y.invert ^= y.kind == ScaleKind::Category;
    let tw = y
        .ticks
        .iter()
        .map(|t| width(&t.label))
        .max()
        .unwrap_or(0)
        .min(w.saturating_sub(3) / 2);
    let pw = w.saturating_sub(tw + 2).max(1);
    let x = fit_x_axis(&plot.x, pw);

    let mut canvas = Canvas::new(pw, rows, opts.unicode);
    let bands = plot
        .layers
        .iter()
        .filter(|l| matches!(l.shape, Shape::Band { .. }));
    let others = plot
        .layers
        .iter()
        .filter(|l| !matches!(l.shape, Shape::Band { .. }));
    // A line's markers stay on top of the lines drawn after it: they tie
    // the line to the legend.
    let mut painter = layers::Painter::new(&mut canvas, &x, &y, ascii);
    for layer in bands.chain(others) {
        painter.draw(layer);
    }
    painter.finish();

    if let Some(t) = plot
        .y_title
        .as_deref()
        .map(|t| clean_line(t.trim(), ascii))
        .filter(|t| !t.is_empty())
    {
        lines.push(paint(&truncate(&t, w, ascii), Style::Dim, c));
    }
    gutter_rows(&canvas, &y, tw, opts, lines);
    x_axis(&x, tw, pw, opts, lines);
    if let Some(t) = plot
        .x_title
        .as_deref()
        .map(|t| clean_line(t.trim(), ascii))
        .filter(|t| !t.is_empty())
    {
        lines.push(paint(pad_left(&t, w, ascii).trim_end(), Style::Dim, c));
    }
    lines.extend(legend::lines(&plot.legend, w, ascii, c));
}

/// The x scale with the most ticks (up to 8) whose labels all fit the
/// plot's width side by side.
fn fit_x_axis(spec: &AxisSpec, pw: usize) -> Scale {
    if matches!(spec, AxisSpec::Category { .. }) {
        return fit_axis(spec, 0, true);
    }
    let mut target = (pw / 6).clamp(2, 8);
    loop {
        let scale = fit_axis(spec, target, true);
        let need: usize = scale.ticks.iter().map(|t| width(&t.label) + 1).sum();
        if need <= pw || target <= 2 {
            return scale;
        }
        target -= 1;
    }
}

/// `tight`: a number axis ends at the data (x), not at the next tick (y).
pub fn fit_axis(spec: &AxisSpec, target: usize, tight: bool) -> Scale {
    match spec {
        AxisSpec::Number {
            min,
            max,
            unit,
            domain,
            invert,
        } => Scale {
            invert: *invert,
            ..Scale::number(
                *min,
                *max,
                target,
                unit.as_deref(),
                domain.or(tight.then_some((*min, *max))),
            )
        },
        AxisSpec::Date {
            min,
            max,
            domain,
            invert,
        } => Scale {
            invert: *invert,
            ..Scale::date(*min, *max, target, *domain)
        },
        AxisSpec::Category { names } => Scale::category(names),
        AxisSpec::Scaled {
            min,
            max,
            unit,
            scale,
        } => scaled::fit((*min, *max), unit.as_deref(), *scale, target, tight),
    }
}

/// The plot rows behind the y axis: tick labels where ticks fall (the
/// first of ticks sharing a row wins).
fn gutter_rows(
    canvas: &Canvas,
    y: &Scale,
    tw: usize,
    opts: &RenderOptions,
    lines: &mut Vec<String>,
) {
    let ascii = !opts.unicode;
    let (_, gh) = canvas.dots();
    let (_, dy) = Canvas::dots_per_cell(opts.unicode);
    let rows = canvas.rows();
    let mut tick_at: Vec<Option<usize>> = vec![None; rows];
    for (k, t) in y.ticks.iter().enumerate() {
        let r = (y.y_dot(t.at, gh) / dy).min(rows - 1);
        if tick_at[r].is_none() {
            tick_at[r] = Some(k);
        }
    }
    for (r, tick) in tick_at.iter().enumerate() {
        let mut l = Line::new();
        let (label, axis) = match *tick {
            // ASCII ticks stay `|`: a `+` would read as the second series.
            Some(k) => (y.ticks[k].label.as_str(), if ascii { "|" } else { "┤" }),
            None => ("", if ascii { "|" } else { "│" }),
        };
        l.push(
            &pad_left(&clean_line(label, ascii), tw, ascii),
            Style::Dim,
            opts.color,
        );
        l.plain(" ");
        l.push(axis, Style::Dim, opts.color);
        canvas.row(r, &mut l, opts.color);
        lines.push(l.finish());
    }
}

/// The x axis line (tick marks on number and date axes) and its labels.
fn x_axis(x: &Scale, tw: usize, pw: usize, opts: &RenderOptions, lines: &mut Vec<String>) {
    let ascii = !opts.unicode;
    let (dx, _) = Canvas::dots_per_cell(opts.unicode);
    let gw = pw * dx;
    let (corner, rule, tick) = if ascii {
        ("+", '-', '+')
    } else {
        ("└", '─', '┬')
    };
    let mut axis_chars: Vec<char> = vec![rule; pw];
    if x.kind == ScaleKind::Category {
        let n = x.ticks.len();
        let limit = if n > 1 {
            (pw.saturating_sub(1) / 2).max(1)
        } else {
            pw
        };
        let labels: Vec<String> = x
            .ticks
            .iter()
            .map(|t| truncate(&clean_line(&t.label, ascii), limit, ascii))
            .collect();
        let items: Vec<(Anchor, &str)> = category_order(&labels, pw)
            .into_iter()
            .map(|i| {
                let a = if n > 1 && i == 0 {
                    Anchor::Start(0)
                } else if n > 1 && i == n - 1 {
                    Anchor::End(pw)
                } else {
                    Anchor::Center(x.x_dot(i as f64, gw) / dx)
                };
                (a, labels[i].as_str())
            })
            .collect();
        let placed = axes::place_labels(pw, &items);
        return finish_axis(corner, &axis_chars, &placed, tw, opts, lines);
    }
    let labels: Vec<String> = x
        .ticks
        .iter()
        .map(|t| clean_line(&t.label, ascii))
        .collect();
    let mut anchors = Vec::new();
    for t in &x.ticks {
        let col = x.x_dot(t.at, gw) / dx;
        if col < pw {
            axis_chars[col] = tick;
        }
        anchors.push(Anchor::Center(col));
    }
    let items: Vec<(Anchor, &str)> = anchors
        .iter()
        .zip(&labels)
        .map(|(&a, l)| (a, l.as_str()))
        .collect();
    finish_axis(
        corner,
        &axis_chars,
        &axes::place_labels(pw, &items),
        tw,
        opts,
        lines,
    )
}

/// Category labels in the order they claim space: first, last, then every
/// stride-th between, the stride leaving room for the widest.
fn category_order(labels: &[String], pw: usize) -> Vec<usize> {
    let n = labels.len();
    let mut order = Vec::new();
    if n > 0 {
        order.push(0);
    }
    if n > 1 {
        order.push(n - 1);
        let widest = labels.iter().map(|l| width(l)).max().unwrap_or(1) + 2;
        let slots = (pw / widest).max(2);
        let stride = (n - 1).div_ceil(slots - 1).max(1);
        let mut i = stride;
        while i < n - 1 {
            order.push(i);
            i += stride;
        }
    }
    order
}

fn finish_axis(
    corner: &str,
    axis_chars: &[char],
    labels: &str,
    tw: usize,
    opts: &RenderOptions,
    lines: &mut Vec<String>,
) {
    let c = opts.color;
    let mut axis = Line::new();
    axis.plain(&" ".repeat(tw + 1));
    let rule: String = axis_chars.iter().collect();
    axis.push(&format!("{corner}{rule}"), Style::Dim, c);
    lines.push(axis.finish());
    if !labels.is_empty() {
        let mut l = Line::new();
        l.plain(&" ".repeat(tw + 2));
        l.push(labels, Style::Dim, c);
        lines.push(l.finish());
    }
}
