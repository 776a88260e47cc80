//! Bar charts: one row per point, label on the left, the bar in eighth
//! blocks (`#` in ASCII), the value with its unit right-aligned; diverging
//! from a zero axis when any value is negative. Stacked bars ([`stacked`])
//! are one row per label, a segment per series end to end.

use super::RenderOptions;
use super::plot::axes::{Anchor, place_labels};
use super::plot::scaled;
use super::text::{
    Line, NumFormat, PALETTE, Style, are_years, clean_line, clean_title, paint, titled, width,
    with_unit,
};
use super::wrap::{pad_left, pad_right, truncate};
use crate::spec::{Chart, ScaleType};

const EIGHTHS: [&str; 8] = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];

pub fn render(chart: &Chart, opts: &RenderOptions, lines: &mut Vec<String>) {
    render_within(chart, &[], opts, lines);
}

/// [`render`] on a value scale that reaches `extent` too (the values of
/// every panel of small multiples with shared scales).
pub fn render_within(chart: &Chart, extent: &[f64], opts: &RenderOptions, lines: &mut Vec<String>) {
    let several = chart.series.len() > 1;
    for (i, s) in chart.series.iter().enumerate() {
        if several {
            let name = truncate(
                &clean_line(&s.name, !opts.unicode),
                opts.width.max(1),
                !opts.unicode,
            );
            let mut l = Line::new();
            l.push(&name, Style::Fg(PALETTE[i % PALETTE.len()]), opts.color);
            lines.push(l.finish());
        }
        let rows: Vec<Row> = s
            .points
            .iter()
            .map(|p| Row {
                label: p.label.clone(),
                value: p.value,
                series: None,
            })
            .collect();
        bars_within(chart, &rows, extent, opts, lines);
    }
}

/// One bar of [`bars`]: a grouped bar carries its series, which picks its
/// colour and its ASCII glyph; a plain one is coloured by its sign.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Empty for the second and later bars of a group.
    pub label: String,
    pub value: f64,
    pub series: Option<usize>,
}

/// ASCII glyphs of grouped bars, by series.
const ASCII_FILLS: [char; 5] = ['#', '=', '+', '~', '%'];

/// The glyph of a bar in ASCII (by its series, `#` without one) and of
/// every bar in Unicode (the whole block; partial cells are eighths).
pub fn fill_glyph(series: Option<usize>, ascii: bool) -> char {
    match (ascii, series) {
        (false, _) => '█',
        (true, Some(i)) => ASCII_FILLS[i % ASCII_FILLS.len()],
        (true, None) => '#',
    }
}

/// Bars on one shared scale, one row each, titled by the chart's labels
/// and unit.
pub fn bars(chart: &Chart, s: &[Row], opts: &RenderOptions, lines: &mut Vec<String>) {
    bars_within(chart, s, &[], opts, lines);
}

/// [`bars`] on a value scale that reaches `extent` too.
pub fn bars_within(
    chart: &Chart,
    s: &[Row],
    extent: &[f64],
    opts: &RenderOptions,
    lines: &mut Vec<String>,
) {
    let ascii = !opts.unicode;
    let w = opts.width.max(1);
    if s.is_empty() {
        lines.push(super::text::paint("(no data)", Style::Dim, opts.color));
        return;
    }
    let unit = clean_title(chart.unit.as_deref(), ascii);
    let max_vw = (w / 3).max(8).min(w.saturating_sub(4).max(1));
    let years = are_years(chart.y_label.as_deref(), s.iter().map(|r| r.value));
    let (values, unit_in_header) = value_texts(s, unit.as_deref(), max_vw, years);
    let labels: Vec<String> = s.iter().map(|p| clean_line(&p.label, ascii)).collect();
    let (vw, lw, bw) = split_width(&values, &labels, w, max_vw);

    let header_unit = unit_in_header.then_some(unit.as_deref()).flatten();
    if let Some(l) = title_line(chart, header_unit, lw, opts) {
        lines.push(l);
    }
    let cols = Columns { lw, vw, bw };
    if let Some(kind) = chart.y_scale.filter(|k| *k != ScaleType::Linear) {
        return scaled_bars(s, (&labels, &values, extent), kind, &cols, opts, lines);
    }
    let scale = Scale::new(s.iter().map(|r| r.value).chain(extent.iter().copied()), bw);
    for ((p, label), value) in s.iter().zip(&labels).zip(&values) {
        lines.push(bar_line(p, (label, value), &scale, &cols, opts));
    }
}

/// Bars on a log or square-root value scale: each from the scale's floor
/// to where it puts the value (the value written as it is), and under
/// them the axis with its ticks (powers of ten on a log scale).
fn scaled_bars(
    s: &[Row],
    (labels, values, extent): (&[String], &[String], &[f64]),
    kind: ScaleType,
    cols: &Columns,
    opts: &RenderOptions,
    lines: &mut Vec<String>,
) {
    let all = s.iter().map(|r| r.value).chain(extent.iter().copied());
    // Every power of ten (the ticks are thinned to the values that fit
    // below); nice numbers on a square root.
    let target = match kind {
        ScaleType::Log => 64,
        _ => (cols.bw / 6).clamp(3, 10),
    };
    let axis = scaled::bars_axis(all, None, kind, target);
    let span = axis.hi - axis.lo;
    let scale = Scale {
        diverging: false,
        scale: if span > 0.0 {
            cols.bw as f64 / span
        } else {
            0.0
        },
        left_w: 0,
        right_w: cols.bw,
    };
    for ((p, label), value) in s.iter().zip(labels).zip(values) {
        let placed = Row {
            value: scaled::bar_length(&axis, kind, p.value),
            ..p.clone()
        };
        lines.push(bar_line(&placed, (label, value), &scale, cols, opts));
    }
    if cols.bw < 2 {
        return;
    }
    let ascii = !opts.unicode;
    let indent = " ".repeat(if cols.lw > 0 { cols.lw + 1 } else { 0 });
    let at = |t: f64| (((t - axis.lo) * scale.scale).round().max(0.0) as usize).min(cols.bw - 1);
    // The ticks whose values fit side by side, two spaces apart.
    let mut ticks: Vec<(usize, &str)> = Vec::new();
    for t in &axis.ticks {
        let (c, tw) = (at(t.at), width(&t.label));
        let clear = ticks
            .last()
            .is_none_or(|&(p, l)| c >= p + (width(l) + tw).div_ceil(2) + 2);
        if clear && c + tw.div_ceil(2) <= cols.bw {
            ticks.push((c, t.label.as_str()));
        }
    }
    if ticks.is_empty() {
        return;
    }
    let mut rule: Vec<char> = vec![if ascii { '-' } else { '─' }; cols.bw];
    for &(c, _) in &ticks {
        rule[c] = if ascii { '+' } else { '┬' };
    }
    let rule: String = rule.into_iter().collect();
    lines.push(format!("{indent}{}", paint(&rule, Style::Dim, opts.color)));
    let ticks: Vec<(Anchor, &str)> = ticks
        .into_iter()
        .map(|(c, l)| (Anchor::Center(c), l))
        .collect();
    let text = format!("{indent}{}", place_labels(cols.bw, &ticks));
    lines.push(text.trim_end().to_string());
}

/// One row of [`stacked`]: its label, its total (the value written),
/// and each series' segment (series, length in the scale's values).
#[derive(Debug, Clone, PartialEq)]
pub struct StackRow {
    pub label: String,
    pub total: f64,
    pub segments: Vec<(usize, f64)>,
}

/// The glyph of a stacked segment by its series: shades in Unicode (so
/// segments differ without colour), the grouped bars' ASCII fills.
pub fn stack_glyph(series: usize, ascii: bool) -> char {
    const SHADES: [char; 4] = ['█', '▓', '▒', '░'];
    if ascii {
        fill_glyph(Some(series), true)
    } else {
        SHADES[series % SHADES.len()]
    }
}

/// Stacked bars on one shared scale, one row per label: each series'
/// segment in its colour and glyph, positive ones right of the zero
/// axis, negative ones left of it, the total written at the end.
pub fn stacked(chart: &Chart, s: &[StackRow], opts: &RenderOptions, lines: &mut Vec<String>) {
    let ascii = !opts.unicode;
    let w = opts.width.max(1);
    let totals: Vec<Row> = s
        .iter()
        .map(|r| Row {
            label: r.label.clone(),
            value: r.total,
            series: None,
        })
        .collect();
    if s.is_empty() {
        lines.push(super::text::paint("(no data)", Style::Dim, opts.color));
        return;
    }
    let unit = clean_title(chart.unit.as_deref(), ascii);
    let max_vw = (w / 3).max(8).min(w.saturating_sub(4).max(1));
    let (values, unit_in_header) = value_texts(&totals, unit.as_deref(), max_vw, false);
    let labels: Vec<String> = s.iter().map(|p| clean_line(&p.label, ascii)).collect();
    let (vw, lw, bw) = split_width(&values, &labels, w, max_vw);
    let header_unit = unit_in_header.then_some(unit.as_deref()).flatten();
    if let Some(l) = title_line(chart, header_unit, lw, opts) {
        lines.push(l);
    }
    // The scale spans the longest run each way.
    let ends: Vec<Row> = s
        .iter()
        .flat_map(|r| {
            let pos: f64 = r.segments.iter().map(|x| x.1.max(0.0)).sum();
            let neg: f64 = r.segments.iter().map(|x| x.1.min(0.0)).sum();
            [pos, neg].map(|value| Row {
                label: String::new(),
                value,
                series: None,
            })
        })
        .collect();
    let scale = Scale::new(ends.iter().map(|r| r.value), bw);
    let cols = Columns { lw, vw, bw };
    for ((r, label), value) in s.iter().zip(&labels).zip(&values) {
        lines.push(stack_line(r, (label, value), &scale, &cols, opts));
    }
}

/// Runs of cells, one per segment of a sign, from the axis out: each
/// segment ends where its running total rounds to, so the row's length
/// is its total's.
fn runs(segments: &[(usize, f64)], positive: bool, scale: f64, max: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let (mut sum, mut at) = (0.0, 0usize);
    for &(si, v) in segments {
        if (positive && v <= 0.0) || (!positive && v >= 0.0) {
            continue;
        }
        sum += v.abs();
        let end = ((sum * scale).round() as usize).min(max);
        if end > at {
            out.push((si, end - at));
            at = end;
        }
    }
    out
}

/// One stacked row: the label, negative runs (outermost first) left of the
/// axis, positive runs right of it, the total.
fn stack_line(
    r: &StackRow,
    (label, value): (&str, &str),
    scale: &Scale,
    cols: &Columns,
    opts: &RenderOptions,
) -> String {
    let ascii = !opts.unicode;
    let mut l = Line::new();
    if cols.lw > 0 {
        l.plain(&pad_right(label, cols.lw, ascii));
        l.plain(" ");
    }
    let paint_runs = |l: &mut Line, runs: &[(usize, usize)]| {
        for &(si, n) in runs {
            let glyph = stack_glyph(si, ascii).to_string().repeat(n);
            l.push(&glyph, Style::Fg(PALETTE[si % PALETTE.len()]), opts.color);
        }
    };
    if scale.diverging {
        let mut neg = runs(&r.segments, false, scale.scale, scale.left_w);
        neg.reverse();
        let used: usize = neg.iter().map(|x| x.1).sum();
        l.plain(&" ".repeat(scale.left_w.saturating_sub(used)));
        paint_runs(&mut l, &neg);
        if cols.bw > 0 {
            l.push(if ascii { "|" } else { "│" }, Style::Dim, opts.color);
        }
    }
    let pos = runs(&r.segments, true, scale.scale, scale.right_w);
    let used: usize = pos.iter().map(|x| x.1).sum();
    paint_runs(&mut l, &pos);
    l.plain(&" ".repeat(scale.right_w.saturating_sub(used)));
    l.plain(" ");
    l.plain(&pad_left(value, cols.vw, ascii));
    l.finish()
}

/// Each row's value with the unit, or without it (`true`: the unit goes
/// once into the header) when that makes a value wider than `max_vw`.
fn value_texts(s: &[Row], unit: Option<&str>, max_vw: usize, years: bool) -> (Vec<String>, bool) {
    let fmt = NumFormat::for_values(s.iter().map(|p| p.value)).with_years(years);
    let values_with = |unit: Option<&str>| -> Vec<String> {
        s.iter()
            .map(|p| with_unit(&fmt.format(p.value), unit))
            .collect()
    };
    let values = values_with(unit);
    if unit.is_some() && values.iter().map(|v| width(v)).max().unwrap_or(0) > max_vw {
        // A long unit goes once into the header instead of on every row.
        return (values_with(None), true);
    }
    (values, false)
}

/// The line over the bars: the x title heading the labels, the y title
/// (with the unit when it is not on every row) over the values; none
/// without either.
fn title_line(
    chart: &Chart,
    header_unit: Option<&str>,
    lw: usize,
    opts: &RenderOptions,
) -> Option<String> {
    let ascii = !opts.unicode;
    let w = opts.width.max(1);
    let y_title = titled(
        clean_title(chart.y_label.as_deref(), ascii).as_deref(),
        header_unit,
    );
    let x_title = clean_title(chart.x_label.as_deref(), ascii);
    if x_title.is_none() && y_title.is_none() {
        return None;
    }
    // The y title ends at the right edge over the values; the x title
    // heads the labels and may run on over the bars, up to one space
    // before the y title, rather than being cut to the label width.
    let right = truncate(
        y_title.as_deref().unwrap_or(""),
        w.saturating_sub(lw + 1),
        ascii,
    );
    let rw = width(&right);
    let left_room = if rw > 0 { w.saturating_sub(rw + 1) } else { w };
    let left = truncate(x_title.as_deref().unwrap_or(""), left_room, ascii);
    let mut l = Line::new();
    l.push(&left, Style::Dim, opts.color);
    l.plain(&" ".repeat(w.saturating_sub(width(&left) + rw)));
    l.push(&right, Style::Dim, opts.color);
    Some(l.finish())
}

/// The widths of a bar row's columns: labels, values, bars.
struct Columns {
    lw: usize,
    vw: usize,
    bw: usize,
}

/// The value scale shared by every bar: cells per unit of value, and
/// (diverging from a zero axis when any value is negative) the cells left
/// and right of the axis.
struct Scale {
    diverging: bool,
    scale: f64,
    left_w: usize,
    right_w: usize,
}

impl Scale {
    fn new(values: impl Iterator<Item = f64> + Clone, bw: usize) -> Scale {
        let neg_max = values.clone().map(|v| -v).fold(0.0f64, f64::max);
        let pos_max = values.fold(0.0f64, f64::max);
        let diverging = neg_max > 0.0;
        // Cells per unit of value, and the width left of the zero axis.
        let (scale, left_w) = if diverging {
            let span_cells = bw.saturating_sub(1) as f64;
            let span = neg_max / 2.0 + pos_max / 2.0;
            let scale = if span > 0.0 {
                span_cells / 2.0 / span
            } else {
                0.0
            };
            let mut left = (neg_max * scale).round() as usize;
            let cells = bw.saturating_sub(1);
            left = left.min(cells);
            if pos_max > 0.0 && left == cells && cells > 1 {
                left -= 1;
            }
            if left == 0 && cells > 0 {
                left = 1;
            }
            (scale, left)
        } else {
            let scale = if pos_max > 0.0 {
                bw as f64 / pos_max
            } else {
                0.0
            };
            (scale, 0)
        };
        let right_w = if diverging {
            bw.saturating_sub(left_w + 1)
        } else {
            bw
        };
        Scale {
            diverging,
            scale,
            left_w,
            right_w,
        }
    }
}

/// One row: the label, the bar (left of the axis for a negative value
/// when diverging), the value right-aligned.
fn bar_line(
    p: &Row,
    (label, value): (&str, &str),
    scale: &Scale,
    cols: &Columns,
    opts: &RenderOptions,
) -> String {
    let ascii = !opts.unicode;
    let (pos_style, neg_style, fill) = match p.series {
        Some(i) => {
            let st = Style::Fg(PALETTE[i % PALETTE.len()]);
            (st, st, fill_glyph(p.series, true))
        }
        None => (
            Style::Fg(PALETTE[0]),
            Style::Fg(PALETTE[1]),
            fill_glyph(None, true),
        ),
    };
    let mut l = Line::new();
    if cols.lw > 0 {
        l.plain(&pad_right(label, cols.lw, ascii));
        l.plain(" ");
    }
    let cells = (p.value.abs() * scale.scale).max(0.0);
    if scale.diverging {
        let neg = if p.value < 0.0 {
            left_bar(cells, scale.left_w, ascii, fill)
        } else {
            String::new()
        };
        l.plain(&" ".repeat(scale.left_w.saturating_sub(width(&neg))));
        l.push(&neg, neg_style, opts.color);
        if cols.bw > 0 {
            l.push(if ascii { "|" } else { "│" }, Style::Dim, opts.color);
        }
    }
    let pos = if p.value > 0.0 {
        right_bar(cells, scale.right_w, ascii, fill)
    } else {
        String::new()
    };
    let pos_w = width(&pos);
    l.push(&pos, pos_style, opts.color);
    l.plain(&" ".repeat(scale.right_w.saturating_sub(pos_w)));
    l.plain(" ");
    l.plain(&pad_left(value, cols.vw, ascii));
    l.finish()
}

/// A bar's length: in eighths of a cell, or finished where no eighths
/// apply.
enum Length {
    Eighths(usize),
    Done(String),
}

/// A bar's length in eighths of a cell (at least one, at most `max`
/// cells), or the finished bar where no eighths apply: nothing for no room,
/// whole `#` cells in ASCII. Both directions share it.
fn eighths(cells: f64, max: usize, ascii: bool, fill: char) -> Length {
    if max == 0 {
        return Length::Done(String::new());
    }
    if ascii {
        return Length::Done(fill.to_string().repeat((cells.round() as usize).min(max)));
    }
    Length::Eighths(((cells * 8.0).round() as usize).clamp(1, max * 8))
}

/// A bar growing right: full blocks and a left-aligned eighth; a value
/// above zero shows at least one eighth.
fn right_bar(cells: f64, max: usize, ascii: bool, fill: char) -> String {
    let eighths = match eighths(cells, max, ascii, fill) {
        Length::Eighths(e) => e,
        Length::Done(done) => return done,
    };
    let mut s = "█".repeat(eighths / 8);
    s.push_str(EIGHTHS[eighths % 8]);
    s
}

/// A bar growing left from the axis. Unicode has right-aligned blocks only
/// for one eighth and one half, so the partial cell is `▕`, `▐` or full.
fn left_bar(cells: f64, max: usize, ascii: bool, fill: char) -> String {
    let eighths = match eighths(cells, max, ascii, fill) {
        Length::Eighths(e) => e,
        Length::Done(done) => return done,
    };
    let full = eighths / 8;
    let partial = match eighths % 8 {
        0 => "",
        1 | 2 => "▕",
        3..=6 => "▐",
        _ => "█",
    };
    let mut s = partial.to_string();
    s.push_str(&"█".repeat(full));
    if width(&s) > max {
        s = "█".repeat(max);
    }
    s
}

/// The widths of a row's value, label and bar in `w` columns: the value
/// as wide as the widest (at most `max_vw`), the label as the longest up
/// to two fifths of the rest (twelve at least where there is room), the
/// bar what is left.
fn split_width(
    values: &[String],
    labels: &[String],
    w: usize,
    max_vw: usize,
) -> (usize, usize, usize) {
    let vw = values
        .iter()
        .map(|v| width(v))
        .max()
        .unwrap_or(0)
        .min(max_vw);
    let natural_lw = labels.iter().map(|l| width(l)).max().unwrap_or(0);
    let avail = w.saturating_sub(vw + 2);
    let lw = natural_lw.min((avail * 2 / 5).max((avail / 2).min(12)));
    (vw, lw, avail.saturating_sub(lw))
}
