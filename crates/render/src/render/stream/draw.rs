//! The terminal drawing of each kind of event but streamed message text
//! (see the parent): chapter headers, tool lines and failed calls, errors,
//! a run's end, charts and `ui` charts, the session note.

use std::io::{self, Write};

use serde_json::{Map, Value};

use super::super::chart::invalid_chart;
use super::super::text::{Style, clean_line, paint};
use super::super::wrap::{ellipsis, truncate, wrap};
use super::super::{
    RENDER_VISUALIZATION, capped_wrap, chart_from_event, live_chart, render_chart, ui,
};
use super::chapters::{chapter_rule, topic_text};
use super::{Renderer, failed_call_warning, run_error};
use crate::events::Event;
use crate::spec::grammar::UiEnvelope;
use crate::term;

/// Tool names of calls whose results are still to come, for the warning
/// of a failed one. A call whose result never comes must not make memory
/// grow, so the oldest go.
const MAX_PENDING_CALLS: usize = 256;

impl Renderer {
    /// Draws one event of any kind (a kind it does not draw is noted with
    /// `--verbose`).
    pub(super) fn draw(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        match e.kind() {
            "message" => self.message(e, out),
            "visualization" | "" => self.chart(e, out),
            "topic" => self.topic(e, out),
            "error" => {
                let severity = e.str_field("severity").unwrap_or("error");
                let msg = e.str_field("message").unwrap_or("(no message)");
                self.error_line(out, severity == "warning", msg)
            }
            "tool_use" | "tool_result" => self.tool(e, out),
            "media" => self.media(e, out),
            "result" => self.result(e, out),
            "ui" => {
                self.plot_calls.answered();
                self.ui(&e.0, out)
            }
            "thought" if self.opts.show_thoughts => {
                let content = e.str_field("content").unwrap_or("");
                self.text(e, "thought", content, Style::Dim, out)
            }
            k if super::super::memory::is_memory(k) => self.memory(e, out),
            "init" => {
                if self.opts.verbose {
                    term::diag(format!(
                        "viz-render: session {} model {}",
                        clean_line(e.str_field("session_id").unwrap_or("?"), true),
                        clean_line(e.str_field("model").unwrap_or("?"), true)
                    ));
                }
                Ok(())
            }
            other => {
                let other = other.to_string();
                self.note(&other);
                Ok(())
            }
        }
    }

    /// A memory event: a write in one line (the memories a turn used only
    /// with `--verbose`), a memory or path found, the relation graph.
    fn memory(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        if e.str_field("action") == Some("recalled") && !self.opts.verbose {
            return Ok(());
        }
        let o = &self.opts;
        let lines = super::super::memory::lines(e, o.width, o.unicode, o.color);
        self.start_item(out)?;
        self.lines(out, &lines)
    }

    /// A chapter header: the numbered rule, and under it (dim) the
    /// summary in three lines at most and the strategic intent in one.
    fn topic(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        self.topics += 1;
        let title = e.str_field("title").unwrap_or("");
        self.start_block(out)?;
        let mut lines = vec![chapter_rule(self.topics, title, &self.opts)];
        let w = self.opts.width.max(1);
        let ascii = !self.opts.unicode;
        if let Some(s) = topic_text(e, "summary") {
            for l in capped_wrap(&clean_line(s, ascii), w, 3, ascii) {
                lines.push(paint(&l, Style::Dim, self.opts.color));
            }
        }
        if let Some(s) = topic_text(e, "strategic_intent") {
            let l = truncate(&clean_line(&format!("intent: {s}"), ascii), w, ascii);
            lines.push(paint(&l, Style::Dim, self.opts.color));
        }
        self.lines(out, &lines)?;
        self.gap_pending = true;
        Ok(())
    }

    /// A tool call or its result: the tool line with `--show-tools`, a
    /// failed call's warning, and the chart a `plot` call's result
    /// answers.
    fn tool(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        self.end_line(out)?;
        let name = self.pending_name(e);
        if self.opts.show_tools {
            let line = self.tool_line(e);
            self.start_item(out)?;
            self.lines(out, &[line])?;
        }
        if e.kind() == "tool_result" && e.str_field("status") == Some("error") {
            self.failed_call(out, e, name.as_deref())?;
        }
        if e.kind() == "tool_result"
            && let Some(call) = self.plot_calls.result(e)
        {
            self.ui(&call, out)?;
        }
        Ok(())
    }

    /// A call is remembered until its result comes; a result takes the
    /// name of its call (none for a call, or a result of no known call).
    fn pending_name(&mut self, e: &Event) -> Option<String> {
        let id = e.str_field("tool_id").unwrap_or("");
        if e.kind() == "tool_use" {
            if self.pending_calls.len() == MAX_PENDING_CALLS {
                self.pending_calls.pop_front();
            }
            let name = e.str_field("tool_name").unwrap_or("").to_string();
            self.pending_calls.push_back((id.to_string(), name));
            return None;
        }
        self.pending_calls
            .iter()
            .position(|(i, _)| i == id)
            .and_then(|at| self.pending_calls.remove(at))
            .map(|(_, name)| name)
    }

    /// The end of a run: its stats with `--verbose`, its error.
    fn result(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        self.end_line(out)?;
        if self.opts.verbose
            && let Some(stats) = e.get("stats")
        {
            term::diag(format!("viz-render: stats: {}", stats_text(stats)));
        }
        if let Some(text) = e.get("stats").and_then(map_text) {
            // A `gem-ask map` run: its counts are what it shows.
            self.start_item(out)?;
            let line = clean_line(&text, !self.opts.unicode);
            self.lines(out, &wrap(&line, self.opts.width.max(1)))?;
        }
        if e.str_field("status") == Some("error") {
            self.error_line(out, false, run_error(e))?;
        }
        Ok(())
    }

    /// A failed tool call, shown whatever `--show-tools` says (a chart
    /// the model asked for and did not get must not vanish): one warning,
    /// wrapped, never cut. Only the message's first line: what follows
    /// (the examples the model is sent to fix its call) is for the model.
    fn failed_call(
        &mut self,
        out: &mut dyn Write,
        e: &Event,
        name: Option<&str>,
    ) -> io::Result<()> {
        if name == Some(RENDER_VISUALIZATION) {
            // Refused, not undrawn: viz-parse would not help.
            self.chart_calls = self.chart_calls.saturating_sub(1);
        }
        self.error_line(out, true, &failed_call_warning(e, name))
    }

    /// A `ui` event (or a `plot` call's envelope): the chart when it is
    /// valid; else its fallback text, and a warning on stderr naming the
    /// rule that failed.
    pub(super) fn ui(&mut self, event: &Map<String, Value>, out: &mut dyn Write) -> io::Result<()> {
        let envelope = UiEnvelope::read(event);
        if self.opts.graphics.is_some()
            && let Ok(valid) = envelope.validate(&self.opts.limits)
            && self.spec_picture(envelope.title, &valid.spec, out)?
        {
            return Ok(());
        }
        match ui::draw(&envelope, &self.opts) {
            ui::Drawn::Chart(lines) => {
                self.start_block(out)?;
                self.lines(out, &lines)?;
                self.gap_pending = true;
                Ok(())
            }
            ui::Drawn::Fallback {
                lines,
                warning,
                refused_chart,
            } => {
                if refused_chart {
                    self.invalid_charts += 1;
                }
                term::diag(format!(
                    "viz-render: warning: {}",
                    clean_line(&warning, false)
                ));
                if lines.is_empty() {
                    return Ok(());
                }
                self.start_item(out)?;
                self.lines(out, &lines)
            }
        }
    }

    fn error_line(&mut self, out: &mut dyn Write, warning: bool, msg: &str) -> io::Result<()> {
        self.start_item(out)?;
        let label = if warning { "warning:" } else { "error:" };
        let style = if warning {
            Style::BoldYellow
        } else {
            Style::BoldRed
        };
        let w = self.opts.width.max(1);
        let mut lines = Vec::new();
        let ascii = !self.opts.unicode;
        let mut body: Vec<String> = msg
            .trim_end()
            .lines()
            .map(|l| clean_line(l, ascii))
            .collect();
        if body.is_empty() {
            // The label alone still wraps: it is wider than a narrow terminal.
            body.push(String::new());
        }
        for (i, para) in body.iter().enumerate() {
            let para = if i == 0 && para.is_empty() {
                label.to_string()
            } else if i == 0 {
                format!("{label} {para}")
            } else {
                format!("  {para}")
            };
            for (j, l) in wrap(&para, w).into_iter().enumerate() {
                if i == 0 && j == 0 && l.starts_with(label) {
                    let rest = &l[label.len()..];
                    lines.push(format!("{}{rest}", paint(label, style, self.opts.color)));
                } else {
                    lines.push(l);
                }
            }
        }
        self.lines(out, &lines)
    }

    fn tool_line(&self, e: &Event) -> String {
        let ascii = !self.opts.unicode;
        let w = self.opts.width.max(1);
        let c = self.opts.color;
        if e.kind() == "tool_use" {
            let name = e.str_field("tool_name").unwrap_or("?");
            let params = e
                .get("parameters")
                .map(|p| serde_json::to_string(p).unwrap_or_default())
                .unwrap_or_default();
            let arrow = if ascii { "->" } else { "→" };
            let t = truncate(
                &clean_line(&format!("{arrow} {name} {params}"), ascii),
                w,
                ascii,
            );
            return paint(&t, Style::Dim, c);
        }
        let arrow = if ascii { "<-" } else { "←" };
        if e.str_field("status") == Some("error") {
            let msg = e
                .get("error")
                .and_then(|v| v.get("message"))
                .and_then(Value::as_str)
                .unwrap_or("failed");
            let t = truncate(
                &clean_line(&format!("{arrow} error: {msg}"), ascii),
                w,
                ascii,
            );
            return paint(&t, Style::Red, c);
        }
        let output = match e.get("output") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => String::new(),
            Some(v) => v.to_string(),
        };
        let first = output.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        let more = output.lines().filter(|l| !l.trim().is_empty()).count() > 1;
        let ell = if more { ellipsis(ascii) } else { "" };
        let t = truncate(
            &clean_line(&format!("{arrow} ok {}{ell}", first.trim()), ascii),
            w,
            ascii,
        );
        paint(t.trim_end(), Style::Dim, c)
    }

    pub(super) fn chart(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        match chart_from_event(e) {
            Ok(chart) => {
                if !live_chart::is_live(e) && self.chart_picture(&chart, out)? {
                    return Ok(());
                }
                self.start_block(out)?;
                let lines = if live_chart::is_live(e) {
                    live_chart::frame(&chart, &self.opts)
                } else {
                    render_chart(&chart, &self.opts)
                };
                self.lines(out, &lines)?;
                self.gap_pending = true;
                Ok(())
            }
            Err(err) => {
                self.invalid_charts += 1;
                self.error_line(out, false, &invalid_chart(e, &err))
            }
        }
    }
}

/// A `result`'s `stats` in one line: the token counts (the cached share
/// of the input when given), tool calls, duration,
/// and gemini-cli's per-model breakdown (`models`: each model's `input_tokens`,
/// `output_tokens`, `cached`) when there is one.
fn stats_text(stats: &Value) -> String {
    let get = |k: &str| stats.get(k).and_then(Value::as_u64);
    let mut parts = Vec::new();
    if let Some(n) = get("input_tokens") {
        parts.push(format!("{n} input tokens{}", cached_note(stats)));
    }
    if let Some(n) = get("output_tokens") {
        parts.push(format!("{n} output tokens"));
    }
    if let Some(n) = get("total_tokens") {
        parts.push(format!("{n} total tokens"));
    }
    if let Some(n) = get("tool_calls") {
        parts.push(format!("{n} tool calls"));
    }
    if let Some(n) = get("duration_ms") {
        parts.push(format!("{:.1} s", n as f64 / 1000.0));
    }
    let models: Vec<String> = stats
        .get("models")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(name, m)| {
            let n = |k: &str| m.get(k).and_then(Value::as_u64).unwrap_or(0);
            format!(
                "{} {} in{}, {} out",
                clean_line(name, true),
                n("input_tokens"),
                cached_note(m),
                n("output_tokens")
            )
        })
        .collect();
    if parts.is_empty() && models.is_empty() {
        return clean_line(&stats.to_string(), true);
    }
    let mut line = parts.join(", ");
    if !models.is_empty() {
        line.push_str(&format!("; by model: {}", models.join("; ")));
    }
    line
}

/// A `gem-ask map` run's `result` in one line (its `stats.map`): the
/// records answered, failed, skipped, cached, the tokens, the time and the
/// cost when it is known.
fn map_text(stats: &Value) -> Option<String> {
    let map = stats.get("map")?.as_object()?;
    let n = |k: &str| map.get(k).and_then(Value::as_u64).unwrap_or(0);
    let t = |k: &str| stats.get(k).and_then(Value::as_u64).unwrap_or(0);
    let mut line = format!(
        "map: {} records: {} answered, {} failed",
        n("records"),
        n("answered"),
        n("failed")
    );
    for (k, word) in [
        ("skipped", "already done"),
        ("cached", "from the cache"),
        ("bad_lines", "bad input lines"),
    ] {
        if n(k) > 0 {
            line.push_str(&format!(", {} {word}", n(k)));
        }
    }
    line.push_str(&format!(
        "; {} tokens in, {} out; {:.1} s",
        t("input_tokens"),
        t("output_tokens"),
        t("duration_ms") as f64 / 1000.0
    ));
    if let Some(c) = stats.get("cost_usd").and_then(Value::as_f64) {
        line.push_str(&format!("; ${c:.4}"));
    }
    if let Some(b) = map.get("batch").and_then(Value::as_str) {
        line.push_str(&format!("; batch {b}"));
    }
    Some(line)
}

/// ` (N cached)` when these counts have cached input tokens: gemini-cli's
/// `cached`, or `cached_input_tokens` as gem-ask and the Codex and Claude
/// Code translations write it.
fn cached_note(counts: &Value) -> String {
    let cached = ["cached_input_tokens", "cached"]
        .iter()
        .find_map(|k| counts.get(*k).and_then(Value::as_u64));
    match cached {
        Some(n) if n > 0 => format!(" ({n} cached)"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_name_the_cached_share_and_each_model() {
        let stats = serde_json::json!({"total_tokens":26792,"input_tokens":26563,"output_tokens":229,
            "cached":16640,"input":9923,"duration_ms":98,"tool_calls":3,
            "models":{"gemini-3.5-flash-lite":{"total_tokens":1264,"input_tokens":1240,"output_tokens":24,"cached":0,"input":1240},
                      "gemini-3.8-flash":{"total_tokens":25528,"input_tokens":25323,"output_tokens":205,"cached":16640,"input":8683}}});
        assert_eq!(
            stats_text(&stats),
            "26563 input tokens (16640 cached), 229 output tokens, 26792 total tokens, 3 tool calls, \
             0.1 s; by model: gemini-3.5-flash-lite 1240 in, 24 out; gemini-3.8-flash 25323 in \
             (16640 cached), 205 out"
        );
        let ours =
            serde_json::json!({"input_tokens":80,"output_tokens":40,"cached_input_tokens":64});
        assert_eq!(
            stats_text(&ours),
            "80 input tokens (64 cached), 40 output tokens"
        );
        let plain = serde_json::json!({"input_tokens":80,"output_tokens":40,"cached":0});
        assert_eq!(stats_text(&plain), "80 input tokens, 40 output tokens");
        assert_eq!(stats_text(&serde_json::json!({"x":1})), r#"{"x":1}"#);
    }

    #[test]
    fn a_map_runs_counts_make_one_line() {
        let stats = serde_json::json!({"input_tokens":30,"output_tokens":20,"duration_ms":1300,
            "cost_usd":0.0012,"map":{"records":10,"answered":8,"failed":2,"skipped":0,"cached":1,
            "bad_lines":0,"batch":"batches/b1"}});
        assert_eq!(
            map_text(&stats).unwrap(),
            "map: 10 records: 8 answered, 2 failed, 1 from the cache; 30 tokens in, 20 out; \
             1.3 s; $0.0012; batch batches/b1"
        );
        assert_eq!(map_text(&serde_json::json!({"input_tokens":3})), None);
    }
}
