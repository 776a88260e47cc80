//! Vega-Lite v5 export, `viz-render --format vega-lite`: every chart of
//! the stream (a `visualization` event, a bare render_visualization spec,
//! or a valid `ui` chart of the plot grammar) becomes one self-contained
//! Vega-Lite spec with its data inline, written as one compact JSON line.
//! One chart is thus one JSON document, which `vl2svg`, the Vega editor or
//! a notebook reads as it is; several are JSON lines, one file per line.
//!
//! The export follows the terminal's reading of a chart, not the defaults
//! of Vega-Lite: bar charts are horizontal bars in input order, a line
//! chart's x is its labels in order (a time axis when every label is an
//! ISO 8601 date), series are coloured and named in a legend, units go in
//! axis titles, and nothing is stacked that the terminal draws side by
//! side or over each other. The grammar's marks are in [`grammar`].
//!
//! [`export`] maps an event to a spec or says why there is none (pure);
//! `Exporter` follows a stream (a `plot` call's `spec` argument stands in
//! for a `ui` event that never came, as in the terminal), writes the specs,
//! and warns on stderr (exit 65 with `--strict`).

mod grammar;

use std::io::Write;

use serde_json::{Map, Value, json};

use super::chart_from_event;
use super::live_chart::{LiveCharts, is_live};
use super::text::clean_line;
use super::ui::{PlotCalls, ui_of_call};
use crate::events::Event;
use crate::spec::grammar::{KIND_CHART, Limits, UiEnvelope, Violations, parse_date};
use crate::spec::{Chart, ChartType, SpecError};
use crate::term;

pub use grammar::grammar_spec;

/// The `$schema` every exported spec names.
pub const SCHEMA: &str = "https://vega.github.io/schema/vega-lite/v5.json";

/// What one event exports to.
#[derive(Debug, Clone, PartialEq)]
pub enum Export {
    /// A Vega-Lite spec.
    Spec(Value),
    /// Not a chart (text, tools, topics...): nothing to write.
    Skip,
    /// A chart that cannot be drawn: a `visualization` that is not valid.
    BadChart(SpecError),
    /// A `ui` event refused by validation (or of another kind or version).
    BadUi { is_chart: bool, why: Violations },
}

/// The spec for one event, as `viz-render --format vega-lite` writes it.
pub fn export(e: &Event, limits: &Limits) -> Export {
    match e.kind() {
        "ui" => {
            let ui = UiEnvelope::read(&e.0);
            match ui.validate(limits) {
                Ok(valid) => Export::Spec(grammar_spec(ui.title, ui.fallback_text, &valid.spec)),
                Err(why) => Export::BadUi {
                    is_chart: ui.kind == Some(KIND_CHART),
                    why,
                },
            }
        }
        "visualization" | "" => match chart_from_event(e) {
            Ok(chart) => Export::Spec(chart_spec(&chart)),
            Err(err) => Export::BadChart(err),
        },
        _ => Export::Skip,
    }
}

/// `--format vega-lite` over a stream. Follows the terminal's order of
/// sources: a `ui` event's spec; else, for a `plot` call no `ui` event
/// answered, the call's `spec` argument (when its result comes, or at the
/// end of the stream). A live chart is exported once, its last update,
/// at the end of the stream.
pub(super) struct Exporter {
    limits: Limits,
    strict: bool,
    plot_calls: PlotCalls,
    live: LiveCharts,
}

impl Exporter {
    pub(super) fn new(limits: Limits, strict: bool) -> Exporter {
        Exporter {
            limits,
            strict,
            plot_calls: PlotCalls::default(),
            live: LiveCharts::default(),
        }
    }

    /// One event: a chart's spec as one line; a chart that cannot be
    /// exported is a warning naming the line and why (with `strict`, exit
    /// 65); other events write nothing.
    pub(super) fn event(
        &mut self,
        e: &Event,
        (name, line): (&str, usize),
        out: &mut impl Write,
    ) -> anyhow::Result<()> {
        if is_live(e) {
            if let Some(note) = self.live.put(e.clone()) {
                term::diag(format!("viz-render: warning: {note}"));
            }
            return Ok(());
        }
        match self.plot_calls.chart_of(e) {
            Some(chart) => self.write(&chart, &format!("{name}: line {line}"), out),
            None => Ok(()),
        }
    }

    /// The end of the stream: the `plot` calls still open.
    pub(super) fn finish(&mut self, out: &mut impl Write) -> anyhow::Result<()> {
        for call in self.plot_calls.rest() {
            self.write(&ui_of_call(call), "end of input", out)?;
        }
        for e in self.live.take() {
            self.write(&e, "end of input", out)?;
        }
        Ok(())
    }

    /// Writes an event's spec, or warns naming `at` (where it was read).
    fn write(&self, e: &Event, at: &str, out: &mut impl Write) -> anyhow::Result<()> {
        let (refused, msg) = match export(e, &self.limits) {
            Export::Spec(spec) => {
                serde_json::to_writer(&mut *out, &spec)?;
                out.write_all(b"\n")?;
                out.flush()?;
                return Ok(());
            }
            Export::Skip => return Ok(()),
            Export::BadChart(err) => (true, format!("invalid chart, not exported: {err}")),
            Export::BadUi { is_chart, why } => {
                let ui = UiEnvelope::read(&e.0);
                let id = ui.id.map(|i| format!(" {i:?}")).unwrap_or_default();
                let first = why.first().map(ToString::to_string).unwrap_or_default();
                (is_chart, format!("ui event{id} not exported: {first}"))
            }
        };
        let msg = format!("{at}: {msg}");
        if self.strict && refused {
            return Err(term::data_error(msg));
        }
        term::diag(format!("viz-render: warning: {}", clean_line(&msg, false)));
        Ok(())
    }
}

/// A bar, line or table chart as a Vega-Lite spec.
pub fn chart_spec(chart: &Chart) -> Value {
    let mut top = preamble(chart.title.as_deref(), chart.subtitle.as_deref(), None);
    let body = match chart.chart_type {
        ChartType::Bar => bar(chart),
        ChartType::Line => line(chart),
        ChartType::Table => table(chart),
    };
    if let Value::Object(body) = body {
        top.extend(body);
    }
    Value::Object(top)
}

/// `$schema`, the title (with its subtitle) and the description every
/// spec starts with.
fn preamble(
    title: Option<&str>,
    subtitle: Option<&str>,
    description: Option<&str>,
) -> Map<String, Value> {
    let mut top = Map::new();
    top.insert("$schema".into(), SCHEMA.into());
    let title = nonblank(title);
    let subtitle = nonblank(subtitle);
    if title.is_some() || subtitle.is_some() {
        let mut t = Map::new();
        t.insert("text".into(), title.unwrap_or("").into());
        if let Some(s) = subtitle {
            t.insert("subtitle".into(), s.into());
        }
        top.insert("title".into(), Value::Object(t));
    }
    if let Some(d) = nonblank(description) {
        top.insert("description".into(), d.into());
    }
    top
}

fn nonblank(s: Option<&str>) -> Option<&str> {
    s.map(str::trim).filter(|s| !s.is_empty())
}

/// An axis title: the label with the unit in parentheses (`Time (s)`),
/// the unit alone, or none.
fn titled(label: Option<&str>, unit: Option<&str>) -> Option<String> {
    match (nonblank(label), nonblank(unit)) {
        (Some(l), Some(u)) => Some(format!("{l} ({u})")),
        (Some(l), None) => Some(l.to_string()),
        (None, Some(u)) => Some(format!("({u})")),
        (None, None) => None,
    }
}

/// The value axis of a bar or line chart: `yLabel (unit)`, else the name
/// of its one series.
fn value_title(chart: &Chart) -> Option<String> {
    titled(chart.y_label.as_deref(), chart.unit.as_deref()).or_else(|| {
        match chart.series.as_slice() {
            [one] => nonblank(Some(&one.name)).map(str::to_string),
            _ => None,
        }
    })
}

/// Horizontal bars, one per point, in input order, as the terminal draws them.
fn bar(chart: &Chart) -> Value {
    let values: Vec<Value> = points(chart)
        .map(|(_, label, value)| json!({"label": label, "value": value}))
        .collect();
    json!({
        "width": 480,
        "data": {"values": values},
        "mark": {"type": "bar", "tooltip": true},
        "encoding": {
            "y": {"field": "label", "type": "nominal", "sort": null, "title": nonblank(chart.x_label.as_deref())},
            "x": {"field": "value", "type": "quantitative", "title": value_title(chart)}
        }
    })
}

/// One line per series over the labels in order: a time axis when every
/// label is an ISO 8601 date with at least a month (a bare `2024` stays a
/// label, as a year column usually is one), else the labels as written.
fn line(chart: &Chart) -> Value {
    let dates = points(chart).all(|(_, l, _)| l.contains('-') && parse_date(l).is_some());
    let values: Vec<Value> = points(chart)
        .map(|(series, label, value)| {
            let x = if dates {
                Value::from(iso_utc(parse_date(label).unwrap_or_default()))
            } else {
                Value::from(label)
            };
            json!({"series": series, "label": x, "value": value})
        })
        .collect();
    let mut x = json!({"field": "label", "title": nonblank(chart.x_label.as_deref())});
    if dates {
        x["type"] = "temporal".into();
        x["scale"] = json!({"type": "utc"});
    } else {
        x["type"] = "ordinal".into();
        x["sort"] = Value::Null;
    }
    let mut encoding = json!({
        "x": x,
        "y": {"field": "value", "type": "quantitative", "title": value_title(chart), "scale": {"zero": false}}
    });
    if chart.series.len() > 1 {
        encoding["color"] =
            json!({"field": "series", "type": "nominal", "sort": null, "title": null});
    }
    let few = chart
        .series
        .iter()
        .map(|s| s.points.len())
        .max()
        .unwrap_or(0)
        <= 40;
    json!({
        "width": 600,
        "height": 300,
        "data": {"values": values},
        "mark": {"type": "line", "point": few, "tooltip": true},
        "encoding": encoding
    })
}

/// A table as two columns of text: labels left-aligned, values
/// right-aligned, the header above each.
fn table(chart: &Chart) -> Value {
    let values: Vec<Value> = points(chart)
        .enumerate()
        .map(|(row, (_, label, value))| json!({"row": row, "label": label, "value": value}))
        .collect();
    let head = |t: Option<String>, or: &str| t.unwrap_or_else(|| or.to_string());
    let column = |field: &str, title: String, align: &str, x: Value| {
        json!({
            "title": title,
            "width": 200,
            "mark": {"type": "text", "align": align, "baseline": "middle"},
            "encoding": {
                "y": {"field": "row", "type": "ordinal", "axis": null},
                "x": {"value": x},
                "text": {"field": field, "type": if field == "value" { "quantitative" } else { "nominal" }}
            }
        })
    };
    json!({
        "data": {"values": values},
        "config": {"view": {"stroke": null}},
        "hconcat": [
            column("label", head(nonblank(chart.x_label.as_deref()).map(str::to_string), "Label"), "left", 0.into()),
            column("value", head(value_title(chart), "Value"), "right", "width".into())
        ]
    })
}

/// Every point as (series name, label, value), series after series.
fn points(chart: &Chart) -> impl Iterator<Item = (&str, &str, f64)> {
    chart.series.iter().flat_map(|s| {
        s.points
            .iter()
            .map(move |p| (s.name.as_str(), p.label.as_str(), p.value))
    })
}

/// Seconds since the epoch as RFC 3339 UTC, the form a browser's
/// `Date.parse` reads the same in every time zone.
fn iso_utc(secs: f64) -> String {
    let ms = (secs * 1000.0).round() as i64;
    crate::events::format_rfc3339(ms.div_euclid(1000), ms.rem_euclid(1000) as u32)
}

#[cfg(test)]
mod tests;
