//! `ui` events and `plot` tool calls in a stream. What is drawn follows
//! the seed's order of sources: a `ui` event's spec first; else, for a
//! `plot` call no `ui` event answered, the call's `spec` argument; else the
//! fallback text. gem-ask emits `tool_use`, then `ui`, then `tool_result`,
//! so a `ui` event answers the latest open `plot` call; a call whose result
//! is a success without one (a stream of another producer) is drawn from
//! its arguments when its result comes, or when the stream ends.

use std::borrow::Cow;
use std::collections::VecDeque;

use serde_json::{Map, Value};

use super::text::clean_line;
use super::wrap::wrap;
use super::{RenderOptions, render_spec};
use crate::events::Event;
use crate::spec::grammar::{KIND_CHART, UiEnvelope, VERSION, Violations};

/// The chart tool of the plot grammar.
pub const PLOT: &str = "plot";

/// Open `plot` calls kept; a stream of calls without results must not
/// make memory grow.
const MAX_OPEN: usize = 64;

/// What a `ui` event becomes on the terminal.
pub enum Drawn {
    Chart(Vec<String>),
    /// Not drawn: the fallback text (maybe none), the warning, and whether
    /// it was a chart that failed validation (not an unknown kind).
    Fallback {
        lines: Vec<String>,
        warning: String,
        refused_chart: bool,
    },
}

/// Validates and draws one `ui` event (or the envelope a `plot` call's
/// arguments make).
pub fn draw(ui: &UiEnvelope, opts: &RenderOptions) -> Drawn {
    match ui.validate(&opts.limits) {
        Ok(valid) => Drawn::Chart(render_spec(ui.title, &valid.spec, opts)),
        Err(why) => {
            let mut lines = Vec::new();
            let text = ui
                .fallback_text
                .or(ui.title)
                .filter(|t| !t.trim().is_empty());
            for para in text.unwrap_or("").lines() {
                lines.extend(wrap(&clean_line(para, !opts.unicode), opts.width.max(1)));
            }
            Drawn::Fallback {
                lines,
                warning: warning(ui, &why),
                refused_chart: ui.kind == Some(KIND_CHART),
            }
        }
    }
}

/// A `ui` chart event that validation refuses (unknown kinds are not
/// charts, so not errors).
pub fn is_refused_chart(e: &Event, opts: &RenderOptions) -> bool {
    let ui = UiEnvelope::read(&e.0);
    ui.kind == Some(KIND_CHART) && ui.validate(&opts.limits).is_err()
}

/// The one-line warning for a `ui` event not drawn: which event, that its
/// fallback text is shown, and the first rule it broke.
pub fn warning(ui: &UiEnvelope, why: &Violations) -> String {
    let id = ui.id.map(|i| format!(" {i:?}")).unwrap_or_default();
    let first = why.first().map(ToString::to_string).unwrap_or_default();
    let more = (why.list.len() + why.omitted).saturating_sub(1);
    let more = if more > 0 {
        format!(" (and {more} more)")
    } else {
        String::new()
    };
    format!("ui event{id} not drawn, showing its fallback text: {first}{more}")
}

/// The `ui` envelope of a `plot` call: its `title`, `spec` and
/// `fallbackText` arguments, kind `chart`, version 1, the call's id.
pub fn envelope_of_call(tool_id: &str, params: &Value) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("id".into(), tool_id.into());
    m.insert("kind".into(), KIND_CHART.into());
    m.insert("version".into(), VERSION.into());
    for k in ["title", "spec", "fallbackText"] {
        if let Some(v) = params.get(k) {
            m.insert(k.into(), v.clone());
        }
    }
    m
}

/// `plot` calls no `ui` event has answered yet: (tool id, arguments).
#[derive(Debug, Default)]
pub struct PlotCalls {
    open: VecDeque<(String, Value)>,
}

impl PlotCalls {
    /// Notes a `tool_use` of `plot`.
    pub fn call(&mut self, e: &Event) {
        if self.open.len() == MAX_OPEN {
            self.open.pop_front();
        }
        let id = e.str_field("tool_id").unwrap_or("").to_string();
        let params = e.get("parameters").cloned().unwrap_or(Value::Null);
        self.open.push_back((id, params));
    }

    /// A `ui` event came: it answers the latest open call.
    pub fn answered(&mut self) {
        self.open.pop_back();
    }

    /// A `tool_result`: closes its call. Its envelope when the call
    /// succeeded without a `ui` event (drawn from its arguments); a failed
    /// call is the model's to retry and shows as a failed tool.
    pub fn result(&mut self, e: &Event) -> Option<Map<String, Value>> {
        let id = e.str_field("tool_id")?;
        let at = self.open.iter().position(|(i, _)| i == id)?;
        let (id, params) = self.open.remove(at)?;
        (e.str_field("status") != Some("error")).then(|| envelope_of_call(&id, &params))
    }

    /// For a format that writes charts only: the chart event that `e`
    /// stands for in the order of sources, if any: a `ui` event, a
    /// `visualization` (or bare spec), or the `ui` event of a `plot` call
    /// closed by this result with no `ui` event answering it. Notes `plot`
    /// calls as they come; [`PlotCalls::rest`] gives those still open.
    pub fn chart_of<'e>(&mut self, e: &'e Event) -> Option<Cow<'e, Event>> {
        match e.kind() {
            "tool_use" if e.str_field("tool_name") == Some(PLOT) => {
                self.call(e);
                None
            }
            "tool_result" => self.result(e).map(|m| Cow::Owned(ui_of_call(m))),
            "ui" => {
                self.answered();
                Some(Cow::Borrowed(e))
            }
            "visualization" | "" => Some(Cow::Borrowed(e)),
            _ => None,
        }
    }

    /// At the end of the stream: envelopes of the calls still open.
    pub fn rest(&mut self) -> Vec<Map<String, Value>> {
        self.open
            .drain(..)
            .map(|(id, params)| envelope_of_call(&id, &params))
            .collect()
    }
}

/// The `ui` event a `plot` call's envelope stands for.
pub fn ui_of_call(envelope: Map<String, Value>) -> Event {
    let mut e = Event(envelope);
    e.set("type", "ui");
    e
}
