//! `--chapters`: each chapter's counts (events, tool calls, errors)
//! under its rule and the first line of its summary, and the chapter rule
//! every chapter header draws.

use std::io::{self, Write};

use super::super::text::{self, Line, Style, clean_line, paint, width};
use super::super::wrap::truncate;
use super::super::{RenderOptions, chart_from_event, fit, ui};
use super::Renderer;
use crate::events::Event;

/// Counts of one chapter, for `--chapters`.
#[derive(Debug, Default, Clone)]
pub(super) struct Chapter {
    /// None for the stretch before the first topic.
    title: Option<String>,
    events: usize,
    tool_calls: usize,
    errors: usize,
}

impl Renderer {
    /// `--chapters`: counts the event into the open chapter; a topic closes
    /// it and opens the next.
    pub(super) fn count(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        if e.kind() == "topic" {
            self.close_chapter(out)?;
            self.topics += 1;
            let title = e.str_field("title").unwrap_or("").to_string();
            let mut lines = vec![chapter_rule(self.topics, &title, &self.opts)];
            // The summary's first words, as the counts are indented.
            if let Some(s) = topic_text(e, "summary") {
                let ascii = !self.opts.unicode;
                let l = truncate(
                    &format!("   {}", clean_line(s, ascii)),
                    self.opts.width.max(1),
                    ascii,
                );
                lines.push(paint(&l, Style::Dim, self.opts.color));
            }
            self.lines(out, &lines)?;
            self.chapter = Chapter {
                title: Some(title),
                ..Chapter::default()
            };
            return Ok(());
        }
        // Session metadata is not part of any chapter's work, and
        // topic-tag's closing summary is about the chapters, not in one.
        if matches!(e.kind(), "init" | "topic_summary") {
            return Ok(());
        }
        let c = &mut self.chapter;
        c.events += 1;
        match e.kind() {
            "tool_use" => c.tool_calls += 1,
            "error" if e.str_field("severity") != Some("warning") => c.errors += 1,
            "tool_result" | "result" if e.str_field("status") == Some("error") => c.errors += 1,
            "visualization" | "" if chart_from_event(e).is_err() => c.errors += 1,
            "ui" if ui::is_refused_chart(e, &self.opts) => c.errors += 1,
            _ => {}
        }
        Ok(())
    }

    pub(super) fn close_chapter(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let c = std::mem::take(&mut self.chapter);
        if c.title.is_none() {
            // Events before the first topic: shown only when there were any.
            if c.events == 0 {
                return Ok(());
            }
            let rule = chapter_rule(0, "", &self.opts);
            self.lines(out, &[rule])?;
        }
        let sep = if self.opts.unicode { " · " } else { ", " };
        let plural = |n: usize, one: &str, many: &str| {
            format!(
                "{} {}",
                text::fixed(n as f64, 0),
                if n == 1 { one } else { many }
            )
        };
        let counts = [
            plural(c.events, "event", "events"),
            plural(c.tool_calls, "tool call", "tool calls"),
            plural(c.errors, "error", "errors"),
        ]
        .join(sep);
        let line = truncate(
            &format!("   {counts}"),
            self.opts.width.max(1),
            !self.opts.unicode,
        );
        let style = if c.errors > 0 { Style::Red } else { Style::Dim };
        self.lines(out, &[paint(&line, style, self.opts.color)])
    }
}

/// A `topic` event's `summary` or `strategic_intent`, trimmed, when it
/// says something.
pub(super) fn topic_text<'e>(e: &'e Event, key: &str) -> Option<&'e str> {
    e.str_field(key).map(str::trim).filter(|s| !s.is_empty())
}

/// `── 2 · Charting ──────` across the width (ASCII `-- 2 . Charting ---`).
/// Number 0 is the unnamed stretch before the first chapter.
pub fn chapter_rule(number: usize, title: &str, opts: &RenderOptions) -> String {
    let ascii = !opts.unicode;
    let w = opts.width.max(1);
    let (rule, dot) = if ascii { ("-", ".") } else { ("─", "·") };
    let lead = format!("{rule}{rule} ");
    let label = if number == 0 {
        "(before the first chapter)".to_string()
    } else {
        let t = clean_line(title.trim(), ascii);
        if t.is_empty() {
            number.to_string()
        } else {
            format!("{number} {dot} {t}")
        }
    };
    // Room for the lead, one space and at least two rule characters.
    let room = w.saturating_sub(width(&lead) + 3);
    let label = truncate(&label, room, ascii);
    let used = width(&lead) + width(&label) + 1;
    let mut line = Line::new();
    line.push(&lead, Style::Dim, opts.color);
    line.push(&label, Style::Bold, opts.color);
    line.push(" ", Style::Plain, false);
    line.push(&rule.repeat(w.saturating_sub(used)), Style::Dim, opts.color);
    let s = line.finish();
    fit(s, w, opts)
}
