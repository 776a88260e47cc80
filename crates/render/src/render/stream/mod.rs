//! The event-stream renderer: [`Renderer`] turns events into terminal
//! output one at a time (streamed message text, charts, chapter headers,
//! tool and error lines), keeping the little state a stream needs. Shared
//! by `viz-render` and the terminal view of `gem-ask`. Here: the state,
//! the event loop, every byte's way out and streamed message text; the
//! drawing of each other kind of event is [`draw`], the `--chapters`
//! counts and the chapter rule [`chapters`].

mod chapters;
mod draw;
mod picture;
mod records;

use std::collections::{BTreeSet, VecDeque};
use std::io::{self, Write};

use serde_json::Value;

use super::text::{self, Style, clean_line, clean_text, paint};
use super::wrap::truncate;
use super::{RENDER_VISUALIZATION, RenderOptions, ui};
use crate::events::Event;
use crate::events::topic::{TopicArgs, TopicCalls};
use crate::term;
use chapters::Chapter;
pub use chapters::chapter_rule;
pub use records::{cell_text, columns as record_columns, field as record_field, source_fields};

/// Turns events into terminal output, one event at a time, flushing after
/// each so text streams. Keeps the little state a stream needs: whether
/// a line of message text is open, chapter numbers, counts.
pub struct Renderer {
    opts: RenderOptions,
    /// Our output so far ends with a newline (or is empty).
    at_line_start: bool,
    wrote_any: bool,
    /// A block (chart, chapter) was drawn: the next output gets a blank line.
    gap_pending: bool,
    /// Deltas of this kind (`message` or `thought`) are being joined into
    /// one paragraph.
    in_text: Option<&'static str>,
    /// Lays out the text being joined, at the width.
    wrapper: super::wrap::Wrapper,
    /// The style of that text, for what the wrapper held back.
    text_style: Style,
    /// Lays out assistant text as Markdown instead (`--markdown on`).
    markdown: Option<super::markdown::Markdown>,
    /// Thought summaries as Markdown too (Gemini opens each with a
    /// `**Subject**` line), drawn without colours of their own so the
    /// whole thought stays dim.
    thought_markdown: Option<super::markdown::Markdown>,
    topics: usize,
    chapter: Chapter,
    invalid_charts: usize,
    noted_types: BTreeSet<String>,
    /// Topic calls whose results are not shown or counted (the call is
    /// drawn as the chapter it opens), and the open chapter, to skip a
    /// topic that repeats it (as topic-tag does).
    topic_calls: TopicCalls,
    /// Whether the text an event brings joins the open paragraph.
    paragraphs: super::paragraphs::Paragraphs,
    /// The event being drawn is text after a tool call: a new paragraph.
    after_call: bool,
    /// `render_visualization` calls seen, and `visualization` events (or
    /// bare specs): calls without any chart mean a raw gemini-cli stream.
    chart_calls: usize,
    charts_seen: usize,
    /// `(tool_id, tool_name)` of calls awaiting their result.
    pending_calls: VecDeque<(String, String)>,
    /// `plot` calls no `ui` event has answered yet.
    plot_calls: ui::PlotCalls,
    /// The open block of a Markdown answer, drawn in place on a terminal
    /// (`in_place`).
    region: super::screen::Screen,
    /// The terminal's columns and rows, when fixed (tests, benches);
    /// else asked at each redraw.
    screen_size: Option<(usize, usize)>,
    /// The latest update of each live chart, drawn once at the end.
    live: super::live_chart::LiveCharts,
    /// Records and sources drawn once their run or turn has ended.
    held: records::Held,
}

impl Renderer {
    pub fn new(opts: RenderOptions) -> Renderer {
        Renderer {
            opts: opts.clone(),
            at_line_start: true,
            wrote_any: false,
            gap_pending: false,
            in_text: None,
            wrapper: super::wrap::Wrapper::new(opts.width),
            text_style: Style::Plain,
            markdown: opts
                .markdown
                .then(|| super::markdown::Markdown::new(opts.clone())),
            thought_markdown: opts
                .markdown
                .then(|| super::markdown::Markdown::plain(opts.clone())),
            topics: 0,
            chapter: Chapter::default(),
            invalid_charts: 0,
            noted_types: BTreeSet::new(),
            topic_calls: TopicCalls::new(),
            paragraphs: Default::default(),
            after_call: false,
            chart_calls: 0,
            charts_seen: 0,
            pending_calls: VecDeque::new(),
            plot_calls: ui::PlotCalls::default(),
            live: super::live_chart::LiveCharts::default(),
            held: records::Held::default(),
            region: super::screen::Screen::new(),
            screen_size: None,
        }
    }

    /// The terminal changed width (`--live`): what comes next is laid out
    /// at the new width (text already being wrapped keeps its width).
    pub fn set_width(&mut self, width: usize) {
        self.opts.width = width.max(1);
        if self.in_text.is_none() {
            self.wrapper = super::wrap::Wrapper::new(self.opts.width);
            let fresh = Renderer::new(self.opts.clone());
            self.markdown = fresh.markdown;
            self.thought_markdown = fresh.thought_markdown;
        }
    }

    /// Fixes the terminal's size the open block is fitted to, instead of
    /// asking the terminal (for a test or a benchmark of `in_place`).
    pub fn fix_screen_size(&mut self, cols: usize, rows: usize) {
        self.screen_size = Some((cols, rows));
    }

    /// The terminal's columns and rows (0 columns and 24 rows when it
    /// cannot be asked).
    fn screen(&self) -> (usize, usize) {
        self.screen_size.unwrap_or_else(|| {
            terminal_size::terminal_size()
                .map_or((0, 24), |(w, h)| (usize::from(w.0), usize::from(h.0)))
        })
    }

    pub fn options(&self) -> &RenderOptions {
        &self.opts
    }

    /// Charts refused so far (each was shown as an error line).
    pub fn invalid_charts(&self) -> usize {
        self.invalid_charts
    }

    /// `render_visualization` calls of a stream that had no chart event at
    /// all (a gemini-cli stream not piped through viz-parse): the calls
    /// that were not drawn. 0 once any chart came (gem-ask streams carry
    /// both the call and its `visualization` event).
    pub fn undrawn_chart_calls(&self) -> usize {
        if self.charts_seen == 0 {
            self.chart_calls
        } else {
            0
        }
    }

    /// The title of the chapter this event opens (a `topic`, or a titled
    /// topic call, not naming the open chapter again): CI formats start a
    /// collapsible section before it.
    pub fn opens_chapter(&self, e: &Event) -> Option<String> {
        let title = match TopicArgs::of_event(e) {
            Some(args) => args.title,
            None if e.kind() == "topic" => e.str_field("title").unwrap_or("").to_string(),
            None => return None,
        };
        self.topic_calls.would_open(&title).then_some(title)
    }

    /// Chapters opened so far.
    pub fn chapters(&self) -> usize {
        self.topics
    }

    /// Ends an open line of streamed text, so what follows starts a line.
    pub fn end_text(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.end_line(out)
    }

    /// Draws one event and flushes.
    pub fn event(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        self.after_call = self.paragraphs.see(e);
        // A titled topic call (a raw gemini-cli or gem-ask stream) is the
        // chapter it opens; gem-ask's own `topic` event for it then names
        // the open chapter again and opens nothing.
        match TopicArgs::of_event(e) {
            Some(args) => {
                if let Some(id) = e.str_field("tool_id") {
                    self.topic_calls.call(id);
                }
                self.event_as_drawn(&args.to_event(), out)
            }
            None => self.event_as_drawn(e, out),
        }
    }

    /// [`Renderer::event`] once a topic call is the topic it opens.
    fn event_as_drawn(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        if super::live_chart::is_live(e) {
            // An update of a chart that is still changing: only the last
            // one is drawn, at the end.
            self.charts_seen += 1;
            if let Some(note) = self.live.put(e.clone()) {
                term::diag(format!("viz-render: warning: {note}"));
            }
            return out.flush();
        }
        if !self.opts.chapters_only {
            if e.kind() != "record" {
                self.records_end(out)?;
            }
            if self.hold(e) {
                return out.flush();
            }
            if e.kind() == "result" {
                // Under the answer that cites them, before what the end says.
                self.sources_end(out)?;
            }
        }
        match e.kind() {
            "tool_use" if e.str_field("tool_name") == Some(RENDER_VISUALIZATION) => {
                self.chart_calls += 1
            }
            "visualization" | "" => self.charts_seen += 1,
            "tool_use" if e.str_field("tool_name") == Some(ui::PLOT) => self.plot_calls.call(e),
            _ => {}
        }
        // The stream moved on: the word held back for wrapping must show.
        // (Markdown draws whole rows only: nothing is held back but a row
        // that may still grow.)
        if let Some(kind) = self.in_text
            && !(e.kind() == kind && e.bool_field("delta") == Some(true))
            && self.markdown_for(kind).is_none()
        {
            let mut held = String::new();
            self.wrapper.flush(&mut held);
            self.emit_text(out, &held)?;
        }
        if self.said_by_the_chapter(e, out)? {
            return out.flush();
        }
        if self.opts.chapters_only {
            self.count(e, out)?;
        } else {
            self.draw(e, out)?;
        }
        out.flush()
    }

    /// Whether the open chapter already says all this event says: a topic
    /// call's result (neither drawn nor counted, as topic-tag drops it; it
    /// still ends a line of text, as any tool line does), or a topic naming
    /// the open chapter again (chapters are forward-only markers: it opens
    /// nothing, and topic-tag drops it too). Else the topic opens.
    fn said_by_the_chapter(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<bool> {
        match e.kind() {
            "tool_result"
                if e.str_field("tool_id")
                    .is_some_and(|id| self.topic_calls.take_result(id)) =>
            {
                if !self.opts.chapters_only {
                    self.end_line(out)?;
                }
                Ok(true)
            }
            "topic" => Ok(!self.topic_calls.open(e.str_field("title").unwrap_or(""))),
            _ => Ok(false),
        }
    }

    /// Ends the picture: closes an open line of text, prints the last
    /// chapter's counts with `--chapters`.
    pub fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.opts.chapters_only {
            self.close_chapter(out)?;
        } else {
            for call in self.plot_calls.rest() {
                self.ui(&call, out)?;
            }
            for e in self.live.take() {
                self.chart(&e, out)?;
            }
            self.records_end(out)?;
            self.sources_end(out)?;
        }
        self.end_line(out)?;
        out.flush()
    }

    /// Every byte goes through here: the ASCII promise is kept even if a
    /// glyph slipped through a renderer.
    fn emit(&mut self, out: &mut dyn Write, s: &str) -> io::Result<()> {
        if s.is_empty() {
            return Ok(());
        }
        if self.opts.unicode {
            out.write_all(s.as_bytes())?;
        } else {
            let a: String = s
                .chars()
                .map(|c| if c.is_ascii() { c } else { '?' })
                .collect();
            out.write_all(a.as_bytes())?;
        }
        // A styled piece may end in a reset after its newline, an update
        // in place in the end of synchronized output.
        self.at_line_start = ends_a_line(s);
        self.wrote_any = true;
        Ok(())
    }

    /// The Markdown layout for text of this kind, when Markdown is on.
    fn markdown_for(&mut self, kind: &str) -> Option<&mut super::markdown::Markdown> {
        match kind {
            "message" => self.markdown.as_mut(),
            "thought" => self.thought_markdown.as_mut(),
            _ => None,
        }
    }

    /// Markdown output: an answer carries its own colours; a thought is
    /// painted dim as a whole, line by line (so each line of a pager or
    /// log opens and closes its own style).
    fn markdown_look(&self, kind: &str, s: &str) -> String {
        if kind != "thought" || !self.opts.color || s.is_empty() {
            return s.to_string();
        }
        let mut painted = String::with_capacity(s.len() + 16);
        for line in s.split_inclusive('\n') {
            let (body, nl) = match line.strip_suffix('\n') {
                Some(b) => (b, "\n"),
                None => (line, ""),
            };
            if !body.is_empty() {
                painted.push_str(&paint(body, Style::Dim, true));
            }
            painted.push_str(nl);
        }
        painted
    }

    /// Committed Markdown rows (`s`), and on a terminal the open block's
    /// rows (`open`) redrawn in place under them.
    fn emit_markdown(
        &mut self,
        out: &mut dyn Write,
        kind: &str,
        s: &str,
        open: &[String],
    ) -> io::Result<()> {
        let text = self.markdown_look(kind, s);
        if open.is_empty() && !self.region.shown() {
            return self.emit(out, &text);
        }
        let (cols, height) = self.screen();
        let cols = if cols == 0 { self.opts.width } else { cols };
        // Rows wider than a narrower terminal take more than one of its
        // rows: the region keeps to the screen (a row for the cursor).
        // A row's look may hold more than one line: the region is its
        // lines, each counted as drawn, so none scrolls off the top unerased.
        let room = height.saturating_sub(1).max(1);
        let looked: Vec<String> = open
            .iter()
            .flat_map(|r| {
                let look = self.markdown_look(kind, r);
                let mut lines: Vec<String> = look.lines().map(str::to_string).collect();
                if lines.is_empty() {
                    lines.push(String::new());
                }
                lines
            })
            .collect();
        let mut used = 0;
        let keep = looked
            .iter()
            .rev()
            .take_while(|r| {
                used += text::visible_width(r).div_ceil(cols.max(1)).max(1);
                used <= room
            })
            .count();
        let rows = looked[looked.len() - keep..].to_vec();
        let bytes = self.region.update(&text, &rows, cols);
        self.emit(out, &bytes)
    }

    fn emit_text(&mut self, out: &mut dyn Write, s: &str) -> io::Result<()> {
        let t = paint(s, self.text_style, self.opts.color);
        self.emit(out, &t)
    }

    fn end_line(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if let Some(kind) = self.in_text.take() {
            let mut held = String::new();
            match self.markdown_for(kind) {
                Some(md) => {
                    md.finish(&mut held);
                    self.emit_markdown(out, kind, &held, &[])?;
                    // A thought is set off from what follows, as its
                    // blocks are from each other.
                    self.gap_pending |= kind == "thought";
                }
                None => {
                    self.wrapper.finish(&mut held);
                    self.emit_text(out, &held)?;
                }
            }
        }
        if !self.at_line_start {
            self.emit(out, "\n")?;
        }
        Ok(())
    }

    /// Before a one-line item (tool line, error, user prompt).
    fn start_item(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.end_line(out)?;
        if self.gap_pending {
            self.emit(out, "\n")?;
            self.gap_pending = false;
        }
        Ok(())
    }

    /// Before a block (chart, chapter header): set off by a blank line.
    fn start_block(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.end_line(out)?;
        if self.wrote_any {
            self.emit(out, "\n")?;
        }
        self.gap_pending = false;
        Ok(())
    }

    fn lines(&mut self, out: &mut dyn Write, lines: &[String]) -> io::Result<()> {
        let mut buf = String::new();
        for l in lines {
            buf.push_str(l);
            buf.push('\n');
        }
        self.emit(out, &buf)
    }

    fn note(&mut self, kind: &str) {
        if self.opts.verbose && self.noted_types.insert(kind.to_string()) {
            term::diag(format!(
                "viz-render: note: ignoring events of type {:?}",
                clean_line(kind, true)
            ));
        }
    }

    fn message(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        let content = e.str_field("content").unwrap_or("");
        if e.str_field("role") == Some("user") {
            let first = content.trim();
            if first.is_empty() {
                return Ok(());
            }
            self.start_item(out)?;
            let ascii = !self.opts.unicode;
            let t = truncate(
                &format!("> {}", clean_line(first, ascii)),
                self.opts.width.max(1),
                ascii,
            );
            let l = paint(&t, Style::Dim, self.opts.color);
            return self.lines(out, &[l]);
        }
        self.text(e, "message", content, Style::Plain, out)
    }

    /// Streamed prose: deltas of one kind join, anything else starts a
    /// new line, and text after a tool call a new paragraph
    /// ([`super::paragraphs`]); a complete (non-delta) piece ends its line.
    fn text(
        &mut self,
        e: &Event,
        kind: &'static str,
        content: &str,
        style: Style,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let delta = e.bool_field("delta") == Some(true);
        if self.after_call {
            // Set off from the text before the call, as paragraphs are.
            self.end_line(out)?;
            self.gap_pending = true;
        }
        if self.in_text != Some(kind) || !delta || self.after_call {
            self.start_item(out)?;
        }
        self.text_style = style;
        self.in_text = Some(kind);
        let mut laid = String::new();
        let in_place = self.opts.in_place;
        // A row for the cursor under the block.
        let rows = if in_place {
            self.screen().1.saturating_sub(1).max(1)
        } else {
            0
        };
        match self.markdown_for(kind) {
            Some(md) => {
                md.push(content, &mut laid);
                let open = if in_place {
                    md.preview(rows)
                } else {
                    Vec::new()
                };
                self.emit_markdown(out, kind, &laid, &open)?;
            }
            None => {
                let t = clean_text(content, !self.opts.unicode);
                self.wrapper.push(&t, &mut laid);
                self.emit_text(out, &laid)?;
            }
        }
        if !delta {
            self.end_line(out)?;
        }
        Ok(())
    }
}

/// Whether `s` leaves the cursor at the start of a row: it ends with a
/// newline, or with a carriage return (an update in place that cleared
/// the rows of its region), control sequences after it aside.
fn ends_a_line(s: &str) -> bool {
    let mut t = s;
    loop {
        if t.ends_with(['\n', '\r']) {
            return true;
        }
        let Some(at) = t.rfind('\x1b') else {
            return false;
        };
        let seq = &t[at..];
        let params = seq
            .strip_prefix("\x1b[")
            .and_then(|p| p.strip_suffix(|c: char| c.is_ascii_alphabetic()));
        match params {
            Some(p)
                if p.bytes()
                    .all(|b| b.is_ascii_digit() || b == b';' || b == b'?') =>
            {
                t = &t[..at]
            }
            _ => return false,
        }
    }
}

/// The warning for a failed tool call: `NAME failed: REASON`, the reason
/// the first line of its message (what follows, the examples the model
/// is sent to fix its call, is for the model).
pub(super) fn failed_call_warning(e: &Event, name: Option<&str>) -> String {
    let msg = e
        .get("error")
        .and_then(|v| v.get("message"))
        .and_then(Value::as_str)
        .and_then(|m| m.lines().map(str::trim).find(|l| !l.is_empty()))
        .unwrap_or("no reason given");
    match name.filter(|n| !n.trim().is_empty()) {
        Some(n) => {
            // gem-ask's messages name the tool already.
            let msg = msg
                .strip_prefix(n)
                .and_then(|m| m.strip_prefix(": "))
                .unwrap_or(msg);
            format!("{n} failed: {msg}")
        }
        None => format!("a tool call failed: {msg}"),
    }
}

/// What a failed run (`result` with status `error`) says.
pub(super) fn run_error(e: &Event) -> &str {
    e.get("error")
        .and_then(|v| v.get("message"))
        .and_then(Value::as_str)
        .unwrap_or("the run failed")
}
