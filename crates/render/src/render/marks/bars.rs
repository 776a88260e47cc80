//! Several series of a quick bar chart (`-s`, or several `-y`), in every
//! format: side by side by default (a row per label and series, the label
//! on its first row, each series in its colour and, in ASCII, its fill),
//! or end to end with the chart's `stack` (`zero`: a row per label as long
//! as its sum; `normalize`: each row the series' shares of its label's
//! total, written at its end). The legend is the lines' legend (the same
//! colours, a bar's glyph for the marker). SVG draws the same rows;
//! Vega-Lite groups with `yOffset` or stacks with `stack`; mermaid
//! overlays bars rather than grouping or stacking them, so the report
//! shows the data.

use serde_json::{Value, json};

use super::super::RenderOptions;
use super::super::bar::{self, Row, StackRow, fill_glyph, stack_glyph};
use super::super::plot::{legend, series_style};
use super::vega::{nonblank, value_title};
use super::{Body, Mermaid};
use crate::spec::{Chart, Stack};

/// Draws the series' bars and their legend.
pub(super) fn terminal(chart: &Chart, opts: &RenderOptions, lines: &mut Vec<String>) {
    terminal_within(chart, &[], opts, lines);
}

/// [`terminal`] with grouped bars on a value scale that reaches `extent`
/// too (stacked rows keep their own).
pub(super) fn terminal_within(
    chart: &Chart,
    extent: &[f64],
    opts: &RenderOptions,
    lines: &mut Vec<String>,
) {
    let ascii = !opts.unicode;
    match chart.stack {
        None => {
            bar::bars_within(chart, &grouped_rows(chart), extent, opts, lines);
            legend_lines(chart, |i| fill_glyph(Some(i), ascii), opts, lines);
        }
        Some(mode) => {
            bar::stacked(chart, &stack_rows(chart, mode), opts, lines);
            legend_lines(chart, |i| stack_glyph(i, ascii), opts, lines);
        }
    }
}

/// A legend of the series, each with its glyph, at the width.
pub(super) fn legend_lines(
    chart: &Chart,
    glyph: impl Fn(usize) -> char,
    opts: &RenderOptions,
    lines: &mut Vec<String>,
) {
    let names: Vec<String> = chart.series.iter().map(|s| s.name.clone()).collect();
    series_legend(&names, glyph, opts, lines);
}

/// The legend of bars by series (the lines' legend, a bar's glyph each).
pub(super) fn series_legend(
    names: &[String],
    glyph: impl Fn(usize) -> char,
    opts: &RenderOptions,
    lines: &mut Vec<String>,
) {
    let items: Vec<legend::Item> = names
        .iter()
        .enumerate()
        .map(|(i, n)| legend::Item {
            glyph: glyph(i),
            style: series_style(i),
            name: n.clone(),
        })
        .collect();
    lines.extend(legend::lines(
        &items,
        opts.width.max(1),
        !opts.unicode,
        opts.color,
    ));
}

/// A row per label and series with a value, the label on its first.
pub(super) fn grouped_rows(chart: &Chart) -> Vec<Row> {
    let mut out = Vec::new();
    for (label, values) in chart.table_rows() {
        let mut first = true;
        for (si, v) in values.iter().enumerate() {
            if let Some(value) = *v {
                out.push(Row {
                    label: if first {
                        label.to_string()
                    } else {
                        String::new()
                    },
                    value,
                    series: Some(si),
                });
                first = false;
            }
        }
    }
    out
}

/// A row per label: its total and each series' segment, in shares of
/// the label's total (percent) when normalized.
pub(super) fn stack_rows(chart: &Chart, mode: Stack) -> Vec<StackRow> {
    chart
        .table_rows()
        .into_iter()
        .map(|(label, values)| {
            let segments: Vec<(usize, f64)> = values
                .iter()
                .enumerate()
                .filter_map(|(si, v)| Some((si, (*v)?)))
                .collect();
            let total: f64 = segments.iter().map(|s| s.1).sum();
            let magnitude: f64 = segments.iter().map(|s| s.1.abs()).sum();
            let segments = match mode {
                Stack::Zero => segments,
                Stack::Normalize if magnitude > 0.0 => segments
                    .into_iter()
                    .map(|(si, v)| (si, v / magnitude * 100.0))
                    .collect(),
                Stack::Normalize => Vec::new(),
            };
            StackRow {
                label: label.to_string(),
                total,
                segments,
            }
        })
        .collect()
}

/// What SVG draws: the same rows.
pub(super) fn picture(chart: &Chart, value_title: Option<String>) -> Body {
    let category = nonblank(chart.x_label.as_deref()).map(str::to_string);
    let unit = nonblank(chart.unit.as_deref()).map(str::to_string);
    match chart.stack {
        None => Body::Bars {
            rows: grouped_rows(chart),
            value_title,
            category,
            unit,
            scale: chart.y_scale,
            extent: Vec::new(),
        },
        Some(mode) => Body::Stacked {
            rows: stack_rows(chart, mode),
            value_title: if mode == Stack::Normalize {
                Some("share of the total (%)".into())
            } else {
                value_title
            },
            category,
            unit,
        },
    }
}

/// Horizontal bars by label, a colour per series: grouped by `yOffset`,
/// or stacked (`stack`: `zero`, `normalize`).
pub(super) fn vega_lite(chart: &Chart) -> Value {
    let values: Vec<Value> = chart
        .series
        .iter()
        .flat_map(|s| {
            s.points
                .iter()
                .map(move |p| json!({"series": s.name, "label": p.label, "value": p.value}))
        })
        .collect();
    let series = json!({"field": "series", "type": "nominal", "sort": null});
    let mut x = json!({"field": "value", "type": "quantitative", "title": value_title(chart)});
    let mut encoding = json!({
        "y": {"field": "label", "type": "nominal", "sort": null, "title": nonblank(chart.x_label.as_deref())},
        "color": {"field": "series", "type": "nominal", "sort": null, "title": null}
    });
    match chart.stack {
        None => {
            x["stack"] = Value::Null;
            encoding["yOffset"] = series;
        }
        Some(Stack::Zero) => {
            x["stack"] = "zero".into();
            encoding["order"] = json!({"field": "__order", "type": "quantitative"});
        }
        Some(Stack::Normalize) => {
            x["stack"] = "normalize".into();
            x["title"] = "share of the total".into();
            x["axis"] = json!({"format": "%"});
            encoding["order"] = json!({"field": "__order", "type": "quantitative"});
        }
    }
    encoding["x"] = x;
    let mut body = json!({
        "width": 480,
        "data": {"values": values},
        "mark": {"type": "bar", "tooltip": true},
        "encoding": encoding
    });
    if chart.stack.is_some() {
        // Segments in the series' order, as the terminal stacks them.
        body["transform"] = json!([{"window": [{"op": "row_number", "as": "__order"}]}]);
    }
    body
}

/// Mermaid overlays the bars of several series, all at one place: grouped
/// bars cannot be drawn (the data instead), stacked ones can, as running
/// totals drawn longest first.
pub(super) fn mermaid(chart: &Chart) -> Mermaid {
    match chart.stack {
        None => Mermaid::Refused("grouped bar"),
        Some(stack) => Mermaid::Stacked {
            categories: chart
                .table_rows()
                .into_iter()
                .map(|(l, _)| l.to_string())
                .collect(),
            shares: stack == crate::spec::Stack::Normalize,
        },
    }
}
