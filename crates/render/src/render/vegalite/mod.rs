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
use super::marks::{self, nonblank};
use super::text::clean_line;
use super::ui::{PlotCalls, ui_of_call};
use crate::events::Event;
use crate::spec::grammar::{KIND_CHART, Limits, UiEnvelope, Violations};
use crate::spec::{Chart, SpecError};
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

/// A quick chart (bar, line, table, ...) as a Vega-Lite spec: its kind's
/// body (`marks/`) after the title.
pub fn chart_spec(chart: &Chart) -> Value {
    let mut top = preamble(chart.title.as_deref(), chart.subtitle.as_deref(), None);
    let body = match chart.facet {
        Some(_) => super::facet::vega_lite(chart),
        None => marks::drawing_vega_lite(chart, marks::chart(chart.chart_type).vega_lite(chart)),
    };
    if let Value::Object(mut body) = body {
        carry_transforms(chart, &mut body);
        top.extend(body);
    }
    Value::Object(top)
}

/// The transforms viz-parse computed the points with: with the input
/// rows they start from, those rows are the data and the transforms run
/// in the browser (their output rows are the points the body reads);
/// without them the points are the data and the transforms ride along in
/// `usermeta`, saying how they were made.
fn carry_transforms(chart: &Chart, body: &mut Map<String, Value>) {
    let Some(transform) = &chart.transform else {
        return;
    };
    match &chart.source {
        Some(rows) => {
            let rows: Vec<Value> = rows.iter().cloned().map(Value::Object).collect();
            body.insert("data".into(), json!({ "values": rows }));
            body.insert("transform".into(), Value::Array(transform.clone()));
        }
        None => {
            body.insert("usermeta".into(), json!({ "transform": transform }));
        }
    }
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

#[cfg(test)]
mod tests;
