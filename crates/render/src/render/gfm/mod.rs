//! `viz-render --format markdown`: the event stream as GitHub-flavoured
//! Markdown that GitHub and GitLab render, for a CI job summary
//! (`>> "$GITHUB_STEP_SUMMARY"`) or a pull-request comment. (The terminal
//! drawing of Markdown *input* is `render::markdown`; this is Markdown
//! *output*.)
//!
//! - assistant `message` text passes through as the Markdown it is,
//!   streamed; a code fence it leaves open is closed before the next block,
//!   so a cut answer cannot swallow the rest of the report;
//! - chapters (`topic`, and titled topic calls) are `##` headings,
//!   numbered as in the terminal, with their summary and intent under;
//! - text before and after tool calls are separate paragraphs
//!   (`render::paragraphs`);
//! - bar and line charts are mermaid `xychart-beta` blocks ([`mermaid`]),
//!   followed by the downsampling note and a collapsed `<details>` with the
//!   chart's data as a GFM table ([`table`]); a table chart is a GFM table;
//! - grammar charts (`ui`, and `plot` calls no `ui` answers) are mermaid
//!   when mermaid can draw them, else their data table with a note why;
//! - `error` events, failed tools and runs are quoted `**Error:**` /
//!   `**Warning:**` lines;
//! - `record` events are a GFM table, `source` events numbered links under
//!   the answer ([`held`]);
//! - memory's events are a `**Memory:**` line, a list item, or the
//!   relation graph as a mermaid flowchart (`render::memory`).
//!
//! Everything taken from events but message text is escaped ([`text`]):
//! it shows as written, never as markup.

mod alert;
mod held;
mod memory;
mod mermaid;
mod table;
mod text;

use std::collections::VecDeque;
use std::io::{self, Write};

use super::chart::{dropped_points, invalid_chart};
use super::grammar::interaction_note;
use super::paragraphs::Paragraphs;
use super::stream::{failed_call_warning, run_error};
use super::text::{clean_line, clean_text};
use super::ui::{self, PlotCalls, ui_of_call};
use super::{RenderOptions, chart_from_event};
use crate::events::Event;
use crate::events::topic::{TopicArgs, TopicCalls};
use crate::spec::Chart;
use crate::spec::grammar::{KIND_CHART, UiEnvelope};
use crate::term;
use text::{html, inline};

pub use mermaid::XyChart;

/// Tool names of calls awaiting their result, for the warning of a
/// failed one; the oldest go past this many.
const MAX_PENDING_CALLS: usize = 256;

/// Streamed prose being written: assistant text, or thoughts quoted.
#[derive(Debug, Default)]
struct Prose {
    kind: &'static str,
    /// Each line starts with `> ` (thoughts).
    quoted: bool,
    /// The line written so far, to spot code fences.
    line: String,
    /// The open fence: its character and length.
    fence: Option<(char, usize)>,
    /// Alert markers of kinds GitHub does not know, rewritten.
    markers: alert::Markers,
}

/// Turns events into Markdown, one at a time, flushing after each.
pub struct Report {
    opts: RenderOptions,
    prose: Option<Prose>,
    /// Our output ends with a newline (or is empty).
    at_line_start: bool,
    wrote_any: bool,
    topics: usize,
    topic_calls: TopicCalls,
    paragraphs: Paragraphs,
    /// The event being written is text after a tool call.
    after_call: bool,
    plot_calls: PlotCalls,
    pending_calls: VecDeque<(String, String)>,
    invalid_charts: usize,
    held: held::Held,
}

impl Report {
    pub fn new(opts: RenderOptions) -> Report {
        Report {
            opts,
            prose: None,
            at_line_start: true,
            wrote_any: false,
            topics: 0,
            topic_calls: TopicCalls::new(),
            paragraphs: Paragraphs::default(),
            after_call: false,
            plot_calls: PlotCalls::default(),
            pending_calls: VecDeque::new(),
            invalid_charts: 0,
            held: held::Held::default(),
        }
    }

    /// Charts refused so far (each was reported in place).
    pub fn invalid_charts(&self) -> usize {
        self.invalid_charts
    }

    /// Writes one event and flushes.
    pub fn event(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        self.after_call = self.paragraphs.see(e);
        if e.kind() != "record"
            && let Some(t) = self.held.records()
        {
            self.block(out, &t)?;
        }
        if self.held.hold(e) {
            return out.flush();
        }
        if e.kind() == "result"
            && let Some(s) = self.held.sources()
        {
            self.block(out, &s)?;
        }
        if let Some(chart) = self.plot_calls.chart_of(e) {
            if chart.kind() == "ui" {
                self.ui(&chart, out)?;
            } else {
                self.chart(&chart, out)?;
            }
        }
        match e.kind() {
            "message" => self.message(e, out)?,
            "thought" if self.opts.show_thoughts => {
                let content = e.str_field("content").unwrap_or("");
                self.prose(e, "thought", content, out)?;
            }
            "topic" => self.topic(e, out)?,
            "error" => {
                let warning = e.str_field("severity") == Some("warning");
                self.alert(
                    warning,
                    e.str_field("message").unwrap_or("(no message)"),
                    out,
                )?;
            }
            "tool_use" | "tool_result" => self.tool(e, out)?,
            "result" if e.str_field("status") == Some("error") => {
                self.alert(false, run_error(e), out)?;
            }
            k if super::memory::is_memory(k) => {
                self.block(out, &memory::markdown(e))?;
            }
            _ => {}
        }
        out.flush()
    }

    /// The end of input: open prose closed, `plot` calls still open drawn.
    pub fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        for call in self.plot_calls.rest() {
            self.ui(&ui_of_call(call), out)?;
        }
        for t in [self.held.records(), self.held.sources()]
            .into_iter()
            .flatten()
        {
            self.block(out, &t)?;
        }
        self.end_prose(out)?;
        out.flush()
    }

    fn write(&mut self, out: &mut dyn Write, s: &str) -> io::Result<()> {
        if s.is_empty() {
            return Ok(());
        }
        out.write_all(s.as_bytes())?;
        self.at_line_start = s.ends_with('\n');
        self.wrote_any = true;
        Ok(())
    }

    /// A block (heading, chart, quote) set off by blank lines; `s` ends
    /// with a newline.
    fn block(&mut self, out: &mut dyn Write, s: &str) -> io::Result<()> {
        self.end_prose(out)?;
        if self.wrote_any {
            self.write(out, "\n")?;
        }
        self.write(out, s)
    }

    /// Ends streamed prose: its line, and a code fence it left open.
    fn end_prose(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let Some(mut p) = self.prose.take() else {
            return Ok(());
        };
        let mut held = String::new();
        p.markers.flush(&mut held);
        self.write(out, &held)?;
        if !self.at_line_start {
            self.write(out, "\n")?;
        }
        if let Some((c, n)) = p.fence {
            let quote = if p.quoted { "> " } else { "" };
            self.write(out, &format!("{quote}{}\n", c.to_string().repeat(n)))?;
        }
        Ok(())
    }

    fn message(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        let content = e.str_field("content").unwrap_or("");
        if e.str_field("role") == Some("user") {
            let first = content.trim();
            if first.is_empty() {
                return Ok(());
            }
            return self.block(out, &format!("> {}\n", inline(first)));
        }
        self.prose(e, "message", content, out)
    }

    /// Streamed text: deltas of one kind join; anything else, and text
    /// after a tool call ([`super::paragraphs`]), starts a new paragraph;
    /// a complete (non-delta) piece ends its own.
    fn prose(
        &mut self,
        e: &Event,
        kind: &'static str,
        content: &str,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let delta = e.bool_field("delta") == Some(true);
        if self.prose.as_ref().is_none_or(|p| p.kind != kind) || !delta || self.after_call {
            self.block(out, "")?;
            self.prose = Some(Prose {
                kind,
                quoted: kind == "thought",
                ..Prose::default()
            });
        }
        let text = clean_text(content, false);
        let mut laid = String::new();
        if let Some(p) = self.prose.as_mut() {
            for piece in text.split_inclusive('\n') {
                if p.quoted && p.line.is_empty() {
                    laid.push_str("> ");
                }
                if p.quoted {
                    laid.push_str(piece);
                } else {
                    let start = p.line.is_empty();
                    p.markers.feed(piece, start, p.fence.is_some(), &mut laid);
                }
                p.line.push_str(piece);
                if piece.ends_with('\n') {
                    p.fence = fence_after(&p.line, p.fence);
                    p.line.clear();
                }
            }
        }
        self.write(out, &laid)?;
        if !delta {
            self.end_prose(out)?;
        }
        Ok(())
    }

    fn topic(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        let title = e.str_field("title").unwrap_or("");
        // Chapters are forward-only markers, as in the terminal.
        if !self.topic_calls.open(title) {
            return Ok(());
        }
        self.topics += 1;
        let t = clean_line(title.trim(), false);
        let mut s = if t.is_empty() {
            format!("## {}\n", self.topics)
        } else {
            format!("## {}. {}\n", self.topics, inline(&t))
        };
        if let Some(sum) = e.str_field("summary").filter(|s| !s.trim().is_empty()) {
            s.push_str(&format!("\n_{}_\n", inline(sum.trim())));
        }
        if let Some(i) = e
            .str_field("strategic_intent")
            .filter(|s| !s.trim().is_empty())
        {
            s.push_str(&format!("\n**Intent:** {}\n", inline(i.trim())));
        }
        self.block(out, &s)
    }

    /// `> **Error:** message` (or Warning), each line of the message quoted.
    fn alert(&mut self, warning: bool, msg: &str, out: &mut dyn Write) -> io::Result<()> {
        let label = if warning { "Warning" } else { "Error" };
        let mut s = format!("> **{label}:**");
        for (i, l) in msg.trim_end().lines().enumerate() {
            if i > 0 {
                s.push_str("\n>");
            }
            if !l.trim().is_empty() {
                s.push(' ');
                s.push_str(&inline(l));
            }
        }
        s.push('\n');
        self.block(out, &s)
    }

    /// Tool calls: a failed one is a warning; with `--show-tools` each call
    /// and result is one line. Titled topic calls (`create_new_topic`,
    /// `update_topic`) are the chapters they open, their results dropped.
    fn tool(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        let id = e.str_field("tool_id").unwrap_or("");
        if e.kind() == "tool_use" {
            let name = e.str_field("tool_name").unwrap_or("");
            if let Some(args) = TopicArgs::of_event(e) {
                self.topic_calls.call(id);
                return self.topic(&args.to_event(), out);
            }
            if self.pending_calls.len() == MAX_PENDING_CALLS {
                self.pending_calls.pop_front();
            }
            self.pending_calls
                .push_back((id.to_string(), name.to_string()));
            if self.opts.show_tools {
                self.block(out, &format!("- tool call `{}`\n", code(name)))?;
            }
            return Ok(());
        }
        if self.topic_calls.take_result(id) {
            return Ok(());
        }
        let name = self
            .pending_calls
            .iter()
            .position(|(i, _)| i == id)
            .and_then(|at| self.pending_calls.remove(at))
            .map(|(_, n)| n);
        if e.str_field("status") == Some("error") {
            return self.alert(true, &failed_call_warning(e, name.as_deref()), out);
        }
        if self.opts.show_tools {
            let n = name.unwrap_or_else(|| "tool".into());
            self.block(out, &format!("- tool result `{}`: ok\n", code(&n)))?;
        }
        Ok(())
    }

    /// A bar, line or table chart, or the error that it is not one.
    fn chart(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        match chart_from_event(e) {
            Ok(chart) => {
                let s = chart_markdown(&chart);
                self.block(out, &s)
            }
            Err(err) => {
                self.invalid_charts += 1;
                self.alert(false, &invalid_chart(e, &err), out)
            }
        }
    }

    /// A `ui` event: its chart; else its fallback text, and a warning on
    /// stderr naming the rule that failed (as in the terminal).
    fn ui(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        let env = UiEnvelope::read(&e.0);
        match env.validate(&self.opts.limits) {
            Ok(valid) => {
                let s = spec_markdown(env.title, &valid.spec);
                self.block(out, &s)
            }
            Err(why) => {
                if env.kind == Some(KIND_CHART) {
                    self.invalid_charts += 1;
                }
                let warning = ui::warning(&env, &why);
                term::diag(format!(
                    "viz-render: warning: {}",
                    clean_line(&warning, false)
                ));
                let text = env
                    .fallback_text
                    .or(env.title)
                    .filter(|t| !t.trim().is_empty());
                match text {
                    Some(t) => {
                        let paras: Vec<String> = t.lines().map(inline).collect();
                        self.block(out, &format!("{}\n", paras.join("  \n")))
                    }
                    None => Ok(()),
                }
            }
        }
    }
}

/// Text inside an inline code span: backticks cannot close it early.
fn code(s: &str) -> String {
    clean_line(s, false).replace('`', "'")
}

/// The fence open after a line of Markdown: a line of 3+ backticks or
/// tildes (indented at most 3) opens one; the same character, at least as
/// many and nothing after, closes it.
fn fence_after(line: &str, open: Option<(char, usize)>) -> Option<(char, usize)> {
    let l = line.trim_end_matches(['\n', '\r']);
    let indent = l.len() - l.trim_start_matches(' ').len();
    if indent > 3 {
        return open;
    }
    let t = &l[indent..];
    let Some(c) = t.chars().next().filter(|c| *c == '`' || *c == '~') else {
        return open;
    };
    let n = t.chars().take_while(|&x| x == c).count();
    if n < 3 {
        return open;
    }
    let rest = &t[n..];
    match open {
        Some((oc, on)) if oc == c && n >= on && rest.trim().is_empty() => None,
        Some(o) => Some(o),
        // A backtick fence's info string cannot hold a backtick.
        None if c == '`' && rest.contains('`') => None,
        None => Some((c, n)),
    }
}

/// A chart as Markdown: bar and line as mermaid (with the data collapsed
/// under it), a table as a GFM table; the downsampling note after.
pub fn chart_markdown(chart: &Chart) -> String {
    if chart.facet.is_some() {
        return super::facet::markdown(chart, inline, chart_markdown);
    }
    let mut s = String::new();
    let title = chart.title.as_deref().filter(|t| !t.trim().is_empty());
    let subtitle = chart.subtitle.as_deref().filter(|t| !t.trim().is_empty());
    if let Some(own) = super::marks::chart(chart.chart_type).markdown(chart) {
        for (t, mark) in [(title, "**"), (subtitle, "_")] {
            if let Some(t) = t {
                s.push_str(&format!("{mark}{}{mark}\n\n", inline(t)));
            }
        }
        s.push_str(&own);
        if let Some(note) = dropped_points(chart) {
            s.push_str(&format!("\n_{}_\n", inline(&note)));
        }
        return s;
    }
    // A table is not drawn, and needs no reason.
    let drawn = match XyChart::from_chart(chart) {
        Err(mermaid::NotDrawn::Table) => Err(None),
        other => other.map_err(Some),
    };
    match &drawn {
        Ok(xy) => {
            xy.write(&mut s);
            // mermaid has a title but no subtitle: it follows the chart.
            if let Some(t) = subtitle {
                s.push_str(&format!("\n_{}_\n", inline(t)));
            }
        }
        Err(why) => {
            if let Some(t) = title {
                s.push_str(&format!("**{}**\n\n", inline(t)));
            }
            if let Some(t) = subtitle {
                s.push_str(&format!("_{}_\n\n", inline(t)));
            }
            if let Some(why) = why {
                s.push_str(&format!(
                    "_Not drawn: {}; the data:_\n\n",
                    inline(&why.to_string())
                ));
            }
            table::chart_data(chart, &mut s);
        }
    }
    if let Some(note) = dropped_points(chart) {
        s.push_str(&format!("\n_{}_\n", inline(&note)));
    }
    for note in super::marks::drawing_notes(chart, false) {
        s.push_str(&format!("\n_{}_\n", inline(&note)));
    }
    if drawn.is_ok() {
        details(title, &mut s, |s| table::chart_data(chart, s));
    }
    s
}

/// A grammar chart as Markdown: mermaid with its data collapsed, or the
/// data table with a note saying why mermaid cannot draw it.
pub fn spec_markdown(title: Option<&str>, spec: &crate::spec::grammar::ChartSpec) -> String {
    let mut s = String::new();
    let title = title.filter(|t| !t.trim().is_empty());
    // Marks that are charts of their own: each chart as the quick chart
    // it equals (a heatmap's rows by columns, a box plot's numbers).
    let own = super::marks::own_charts(spec);
    if !own.is_empty() {
        if let Some(t) = title {
            s.push_str(&format!("**{}**\n\n", inline(t)));
        }
        for (i, c) in own.iter().enumerate() {
            if i > 0 {
                s.push('\n');
            }
            s.push_str(&chart_markdown(c));
        }
        return s;
    }
    match XyChart::from_spec(title, spec) {
        Ok(xy) => {
            xy.write(&mut s);
            if let Some(n) = interaction_note(spec, "in Markdown") {
                s.push_str(&format!("\n_{}_\n", inline(&n)));
            }
            details(title, &mut s, |s| table::spec_data(spec, s));
        }
        Err(why) => {
            if let Some(t) = title {
                s.push_str(&format!("**{}**\n\n", inline(t)));
            }
            s.push_str(&format!(
                "_Not drawn ({}): {}; the data:_\n\n",
                inline(&spec.summary()),
                inline(&why.to_string())
            ));
            table::spec_data(spec, &mut s);
        }
    }
    s
}

/// A collapsed `<details>` block holding a table.
fn details(title: Option<&str>, s: &mut String, body: impl FnOnce(&mut String)) {
    let summary = match title {
        Some(t) => format!("Data: {}", html(t)),
        None => "Data".to_string(),
    };
    s.push_str(&format!("\n<details><summary>{summary}</summary>\n\n"));
    body(s);
    s.push_str("\n</details>\n");
}
