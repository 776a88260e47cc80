//! One chart drawn as lines: title and subtitle, the bar, line or table
//! body, and the footer saying what was dropped upstream; and reading a
//! chart from a `visualization` event or a bare spec object.

use serde_json::Value;

use super::text::{self, Style, clean_line, paint};
use super::wrap::note;
use super::{RenderOptions, capped_wrap, fit, marks};
use crate::events::Event;
use crate::spec::{self, Chart, ChartType, Reduction, SpecError};

/// Draws one chart as lines (no newlines): title, subtitle, the chart,
/// its legend and a footer when points were dropped. Never wider than
/// `opts.width`; never panics, whatever the chart holds.
pub fn render_chart(chart: &Chart, opts: &RenderOptions) -> Vec<String> {
    let w = opts.width.max(1);
    let mut lines = Vec::new();
    header(
        chart.title.as_deref(),
        chart.subtitle.as_deref(),
        opts,
        &mut lines,
    );
    if chart.point_count() == 0 {
        lines.push(paint("(no data)", Style::Dim, opts.color));
    } else if chart.facet.is_some() {
        super::facet::terminal(chart, opts, &mut lines);
    } else {
        marks::chart(chart.chart_type).terminal(chart, opts, &mut lines);
    }
    footer(chart, opts, &mut lines);
    lines.into_iter().map(|l| fit(l, w, opts)).collect()
}

/// The bold title (up to 3 lines) and dim subtitle (up to 2) of a chart.
pub(super) fn header(
    title: Option<&str>,
    subtitle: Option<&str>,
    opts: &RenderOptions,
    lines: &mut Vec<String>,
) {
    let w = opts.width.max(1);
    let ascii = opts.ascii();
    if let Some(t) = title.filter(|t| !t.trim().is_empty()) {
        for l in capped_wrap(&clean_line(t.trim(), ascii), w, 3, ascii) {
            lines.push(paint(&l, Style::Bold, opts.color));
        }
    }
    if let Some(t) = subtitle.filter(|t| !t.trim().is_empty()) {
        for l in capped_wrap(&clean_line(t.trim(), ascii), w, 2, ascii) {
            lines.push(paint(&l, Style::Dim, opts.color));
        }
    }
}

fn footer(chart: &Chart, opts: &RenderOptions, lines: &mut Vec<String>) {
    if let Some(msg) = dropped_points(chart) {
        note(&msg, opts, lines);
    }
    for msg in marks::drawing_notes(chart, opts.ascii()) {
        note(&msg, opts, lines);
    }
}

/// What the footer says when points were dropped upstream (`showing 30
/// of 1,204 points, top by value`); every output format says it.
pub(super) fn dropped_points(chart: &Chart) -> Option<String> {
    let shown = chart.point_count();
    let original = chart.meta.original_point_count;
    // `truncated` without a larger original count has nothing to say.
    if original <= shown {
        return None;
    }
    let method = chart.meta.reduction.unwrap_or(match chart.chart_type {
        ChartType::Line => Reduction::Even,
        _ => Reduction::Top,
    });
    Some(format!(
        "showing {} of {} points, {}",
        text::fixed(shown as f64, 0),
        text::fixed(original as f64, 0),
        method.describe()
    ))
}

/// What a chart that cannot be read says: `visualization: WHY`, or
/// `chart spec: WHY` for a bare spec.
pub(super) fn invalid_chart(e: &Event, err: &SpecError) -> String {
    let what = if e.kind().is_empty() {
        "chart spec"
    } else {
        "visualization"
    };
    format!("{what}: {err}")
}

/// Reads a chart from a `visualization` event or a bare spec object (no
/// `type`). A bare spec is normalized as the render_visualization tool
/// would (its `sort` and `maxPoints` honoured); an event is validated.
pub fn chart_from_event(e: &Event) -> Result<Chart, SpecError> {
    // A hand-written `meta` may lack the counts; they have obvious
    // defaults. Read in place otherwise: a binned scatter's thousands of
    // points are not worth a copy.
    let patched;
    let map = match e.get("meta") {
        Some(Value::Object(meta))
            if !(meta.contains_key("truncated") && meta.contains_key("originalPointCount")) =>
        {
            let mut map = e.0.clone();
            if let Some(Value::Object(meta)) = map.get_mut("meta") {
                meta.entry("truncated").or_insert(Value::Bool(false));
                meta.entry("originalPointCount").or_insert(Value::from(0));
            }
            patched = map;
            &patched
        }
        _ => &e.0,
    };
    if e.kind() == "visualization" {
        let chart = Chart::from_map(map)?;
        chart.validate()?;
        return Ok(chart);
    }
    if e.get("series").is_none() && e.get("inputText").is_some() {
        return Err(SpecError::Invalid(
            "this spec has inputText but no series; pipe it through viz-parse first".into(),
        ));
    }
    let chart = Chart::from_map(map)?;
    let opts = spec::options_from_args(&e.0).map_err(|e| SpecError::Invalid(e.to_string()))?;
    let nopts = opts.for_chart(chart.chart_type);
    let norm = spec::normalize(chart, &nopts)?;
    Ok(norm.chart)
}
