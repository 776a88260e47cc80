//! The stream state machine of `topic-tag`: bytes in, stamped event lines
//! out. It owns the active chapter, the held run of calls and the summary;
//! it knows nothing of threads or files, so tests and the property test
//! drive it with plain byte slices.

use std::borrow::Cow;
use std::io::{self, Write};

use regex::Regex;

use super::lines::json_kind;
pub use super::lines::{escape_terminal_controls, split_title};
use super::peek::{Peek, Shape, stamp_for, write_stamped};
use super::summary::{Summary, Tally};
use crate::events::foreign::{Translated, Translator};
pub use crate::events::topic::{CREATE_NEW_TOPIC, normalize_title};
use crate::events::topic::{TopicArgs, TopicCalls};
use crate::events::{Event, now_rfc3339};
use crate::term;

/// Only this many bad-line warnings are printed one by one; a file of
/// garbage should not bury the terminal. The rest are counted.
const MAX_WARNINGS: u64 = 20;

/// The most events a run of calls holds back. Runs are a model turn's
/// calls, a handful; a stream of nothing but calls must not make memory
/// grow, so a longer run is let go in parts (its topics first within each).
pub const MAX_RUN: usize = 1024;

#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Input lines are plain text, each one a `message` event.
    pub wrap: bool,
    /// With `wrap`: lines matching this open a chapter.
    pub split: Option<Regex>,
    /// With `wrap`: lines matching this are `error` events.
    pub error: Option<Regex>,
    /// The first bad line is an error (exit 65).
    pub strict: bool,
    /// Gather chapter counts for a `topic_summary` event at the end.
    pub summary: bool,
    /// Stdout is a terminal: flush after every event, and escape the
    /// control characters JSON allows raw.
    pub flush_each: bool,
}

/// Where a held topic comes from.
enum Origin {
    /// A `topic` event: its line is passed on, stamped.
    Line(String, Shape),
    /// A topic call: a fresh `topic` event is made of what it says.
    Call(TopicArgs),
}

/// One event held in the current run of calls.
enum Held {
    Topic {
        title: String,
        origin: Origin,
        timestamp: Option<String>,
    },
    Call {
        line: String,
        shape: Shape,
        timestamp: Option<String>,
    },
}

pub struct Tagger<W: Write> {
    out: W,
    diag: Box<dyn Write + Send>,
    opts: Options,
    active: Option<String>,
    /// Topic calls whose results to drop; the open chapter, to skip a
    /// topic repeating it.
    calls: TopicCalls,
    stamp: Vec<u8>,
    run: Vec<Held>,
    summary: Option<Summary>,
    scratch: Vec<u8>,
    carry: Vec<u8>,
    input_name: String,
    line_no: usize,
    warnings: u64,
    /// Read time for made events, refreshed per chunk of input: the lines
    /// of one chunk arrived together.
    now: Option<String>,
    /// Another agent's stream (Codex, Claude Code), written as our events.
    foreign: Translator,
}

impl<W: Write> Tagger<W> {
    pub fn new(out: W, opts: Options) -> Tagger<W> {
        Tagger {
            out,
            diag: Box::new(io::stderr()),
            summary: opts.summary.then(Summary::default),
            opts,
            active: None,
            calls: TopicCalls::new(),
            stamp: Vec::new(),
            run: Vec::new(),
            scratch: Vec::with_capacity(4096),
            carry: Vec::new(),
            input_name: "<stdin>".into(),
            line_no: 0,
            warnings: 0,
            now: None,
            foreign: Translator::new(),
        }
    }

    /// Where warnings go (stderr by default).
    pub fn with_diagnostics(mut self, diag: Box<dyn Write + Send>) -> Tagger<W> {
        self.diag = diag;
        self
    }

    /// The title of the chapter events are being stamped with.
    pub fn active(&self) -> Option<&str> {
        self.active.as_deref()
    }

    /// Whether a run of calls is held back waiting for its end.
    pub fn has_held(&self) -> bool {
        !self.run.is_empty()
    }

    /// The number of bad lines seen.
    pub fn warnings(&self) -> u64 {
        self.warnings
    }

    /// A new input file begins: line numbers restart. A run of calls may go
    /// on across files, as if they were concatenated.
    pub fn start_input(&mut self, name: &str) -> anyhow::Result<()> {
        self.end_input()?;
        self.input_name = name.to_string();
        self.line_no = 0;
        self.foreign.reset();
        Ok(())
    }

    /// The current input ended: a last line without a newline still counts.
    pub fn end_input(&mut self) -> anyhow::Result<()> {
        if !self.carry.is_empty() {
            let line = std::mem::take(&mut self.carry);
            self.line(&line)?;
            self.carry = line;
            self.carry.clear();
        }
        Ok(())
    }

    /// Takes the next bytes of the input; complete lines are handled now,
    /// a partial last line waits for the rest.
    pub fn feed(&mut self, bytes: &[u8]) -> anyhow::Result<()> {
        self.now = None;
        let mut rest = bytes;
        if !self.carry.is_empty() {
            match rest.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    let mut line = std::mem::take(&mut self.carry);
                    line.extend_from_slice(&rest[..i]);
                    rest = &rest[i + 1..];
                    let r = self.line(&line);
                    line.clear();
                    self.carry = line;
                    r?;
                }
                None => {
                    self.carry.extend_from_slice(rest);
                    return Ok(());
                }
            }
        }
        while let Some(i) = rest.iter().position(|&b| b == b'\n') {
            self.line(&rest[..i])?;
            rest = &rest[i + 1..];
        }
        self.carry.extend_from_slice(rest);
        Ok(())
    }

    /// The input went quiet: let the held run go and show everything.
    pub fn idle(&mut self) -> io::Result<()> {
        self.end_run()?;
        self.out.flush()
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// End of the stream: the held run, the summary event, a flush. Gives
    /// back the output and the summary (for `--summary=table`).
    pub fn finish(mut self) -> anyhow::Result<(W, Option<Summary>)> {
        self.end_input()?;
        self.end_run()?;
        if let Some(s) = &self.summary {
            self.scratch.clear();
            self.scratch
                .extend_from_slice(s.to_event().to_line().as_bytes());
            self.write_scratch()?;
        }
        self.out.flush()?;
        if self.warnings > MAX_WARNINGS {
            let _ = writeln!(
                self.diag,
                "topic-tag: warning: {} bad lines skipped in all ({} not shown)",
                self.warnings,
                self.warnings - MAX_WARNINGS
            );
        }
        Ok((self.out, self.summary))
    }

    fn line(&mut self, raw: &[u8]) -> anyhow::Result<()> {
        self.line_no += 1;
        // A byte order mark opens the input, not the first event (as
        // viz-parse and viz-render read it).
        let raw = match raw.strip_prefix(b"\xEF\xBB\xBF") {
            Some(rest) if self.line_no == 1 => rest,
            _ => raw,
        };
        let text: Cow<str> = match std::str::from_utf8(raw) {
            Ok(s) => Cow::Borrowed(s),
            // One bad byte in a log must not cost the line.
            Err(_) => Cow::Owned(String::from_utf8_lossy(raw).into_owned()),
        };
        if self.opts.wrap {
            let t = text.strip_suffix('\r').unwrap_or(&text);
            return Ok(self.wrap_line(t)?);
        }
        let t = text.trim_ascii();
        if t.is_empty() {
            return Ok(());
        }
        match Peek::parse(t) {
            Ok(p) if self.foreign.wants(p.kind()) => self.foreign_line(t, p),
            Ok(p) => self.event(t, p),
            Err(e) => {
                let reason = if e.classify() == serde_json::error::Category::Data {
                    format!(
                        "expected a JSON object (one event per line), found {}",
                        json_kind(t)
                    )
                } else {
                    let msg = e.to_string();
                    let what = msg.rsplit_once(" at line ").map_or(&msg[..], |(a, _)| a);
                    format!(
                        "not JSON ({what} at column {}); expected a JSON object (one event per line)",
                        e.column()
                    )
                };
                self.bad_line(&reason, t)
            }
        }
    }

    fn event(&mut self, line: &str, p: Peek) -> anyhow::Result<()> {
        match p.kind() {
            "tool_use" => self.tool_use(line, &p),
            "topic" => self.topic(line, &p),
            "tool_result"
                if p.tool_id
                    .as_deref()
                    .is_some_and(|id| self.calls.take_result(id)) =>
            {
                self.end_run()?;
                Ok(())
            }
            // Another topic-tag's summary: not an event of any chapter.
            "topic_summary" => {
                self.end_run()?;
                self.scratch.clear();
                self.scratch.extend_from_slice(line.as_bytes());
                self.write_scratch()?;
                Ok(())
            }
            kind => {
                let tally = match kind {
                    "error" if p.severity.as_deref() != Some("warning") => Tally::Error,
                    "tool_result" | "result" if p.status.as_deref() == Some("error") => {
                        Tally::Error
                    }
                    "init" => Tally::Session,
                    _ => Tally::Other,
                };
                self.end_run()?;
                self.emit(line, p.shape(), tally, p.timestamp.as_deref())?;
                Ok(())
            }
        }
    }

    /// A tool call, held in the run: a titled topic call
    /// (`create_new_topic`, `update_topic`) as the topic it opens.
    #[inline]
    fn tool_use(&mut self, line: &str, p: &Peek) -> anyhow::Result<()> {
        let timestamp = || p.timestamp.as_deref().map(str::to_string);
        // Titled as gem-ask titles the chapter it opens for the same call,
        // so its own `topic` event is a duplicate.
        if let Some(args) = p.topic_args() {
            if let Some(id) = &p.tool_id {
                self.calls.call(id);
            }
            self.hold(Held::Topic {
                title: args.title.clone(),
                origin: Origin::Call(args),
                timestamp: timestamp(),
            })?;
            return Ok(());
        }
        // An `update_topic` call without a title restates the intent
        // within the open chapter: an ordinary call.
        if p.tool_name.as_deref() == Some(CREATE_NEW_TOPIC) {
            self.bad_field(
                "a create_new_topic call without a title: field `parameters.title` must be a non-empty string; passed on as a plain call",
                line,
            )?;
        }
        self.hold(Held::Call {
            line: line.to_string(),
            shape: p.shape(),
            timestamp: timestamp(),
        })?;
        Ok(())
    }

    /// A `topic` event, held in the run; one without a title is passed
    /// on in the current chapter.
    #[inline]
    fn topic(&mut self, line: &str, p: &Peek) -> anyhow::Result<()> {
        match p.title.as_deref().filter(|t| !t.trim().is_empty()) {
            Some(title) => {
                self.hold(Held::Topic {
                    title: title.to_string(),
                    origin: Origin::Line(line.to_string(), p.shape()),
                    timestamp: p.timestamp.as_deref().map(str::to_string),
                })?;
                Ok(())
            }
            None => {
                self.bad_field(
                    "a topic event without a title: field `title` must be a non-empty string; passed on in the current chapter",
                    line,
                )?;
                self.end_run()?;
                self.emit(line, p.shape(), Tally::Other, p.timestamp.as_deref())?;
                Ok(())
            }
        }
    }

    /// Holds an event in the current run of calls.
    fn hold(&mut self, h: Held) -> io::Result<()> {
        if self.run.len() >= MAX_RUN {
            self.end_run()?;
        }
        self.run.push(h);
        Ok(())
    }

    /// Lets the held run go: its topics first, then its calls in order.
    fn end_run(&mut self) -> io::Result<()> {
        if self.run.is_empty() {
            return Ok(());
        }
        let run = std::mem::take(&mut self.run);
        let (topics, calls): (Vec<Held>, Vec<Held>) = run
            .into_iter()
            .partition(|h| matches!(h, Held::Topic { .. }));
        for t in topics {
            if let Held::Topic {
                title,
                origin,
                timestamp,
            } = t
            {
                self.open_topic(&title, Some(&origin), timestamp.as_deref())?;
            }
        }
        for c in calls {
            if let Held::Call {
                line,
                shape,
                timestamp,
            } = c
            {
                self.emit(&line, shape, Tally::ToolCall, timestamp.as_deref())?;
            }
        }
        Ok(())
    }

    /// A topic becomes the active chapter, unless it already is (titles
    /// compared as [`normalize_title`] leaves them). `origin` is `None` for
    /// a `--split` line: a topic of the title alone is made.
    fn open_topic(
        &mut self,
        title: &str,
        origin: Option<&Origin>,
        timestamp: Option<&str>,
    ) -> io::Result<()> {
        if !self.calls.open(title) {
            return Ok(());
        }
        self.active = Some(title.to_string());
        self.stamp = stamp_for(title);
        if let Some(s) = &mut self.summary {
            s.open(title, timestamp);
        }
        self.scratch.clear();
        if let Some(Origin::Line(line, shape)) = origin {
            write_stamped(&mut self.scratch, line, *shape, &self.stamp);
            return self.write_scratch();
        }
        self.scratch
            .extend_from_slice(br#"{"type":"topic","title":"#);
        serde_json::to_writer(&mut self.scratch, title)?;
        if let Some(Origin::Call(args)) = origin {
            for (key, value) in [
                ("summary", &args.summary),
                ("strategic_intent", &args.strategic_intent),
            ] {
                if let Some(v) = value {
                    write!(self.scratch, ",\"{key}\":")?;
                    serde_json::to_writer(&mut self.scratch, v)?;
                }
            }
        }
        if let Some(ts) = timestamp {
            self.scratch.extend_from_slice(br#","timestamp":"#);
            serde_json::to_writer(&mut self.scratch, ts)?;
        }
        self.scratch.push(b',');
        self.scratch.extend_from_slice(&self.stamp);
        self.scratch.push(b'}');
        self.write_scratch()
    }

    /// One event passed on in the active chapter.
    fn emit(
        &mut self,
        line: &str,
        shape: Shape,
        tally: Tally,
        timestamp: Option<&str>,
    ) -> io::Result<()> {
        if let Some(s) = &mut self.summary {
            s.count(tally, timestamp);
        }
        self.scratch.clear();
        if self.active.is_some() {
            write_stamped(&mut self.scratch, line, shape, &self.stamp);
        } else {
            self.scratch.extend_from_slice(line.as_bytes());
        }
        self.write_scratch()
    }

    fn write_scratch(&mut self) -> io::Result<()> {
        self.scratch.push(b'\n');
        if self.opts.flush_each {
            // A terminal reads this: DEL and C1 controls, legal raw in JSON
            // strings, are written as \u escapes (the same JSON value).
            escape_terminal_controls(&mut self.scratch);
        }
        self.out.write_all(&self.scratch)?;
        if self.opts.flush_each {
            self.out.flush()?;
        }
        Ok(())
    }

    fn now(&mut self) -> String {
        self.now.get_or_insert_with(now_rfc3339).clone()
    }

    /// `--wrap`: one line of text, a message or (matching `--split`) a
    /// chapter.
    fn wrap_line(&mut self, text: &str) -> io::Result<()> {
        let ts = self.now();
        if let Some(re) = &self.opts.split
            && let Some(title) = split_title(re, text)
        {
            return self.open_topic(&title, None, Some(&ts));
        }
        let error = self.opts.error.as_ref().is_some_and(|re| re.is_match(text));
        if let Some(s) = &mut self.summary {
            s.count(if error { Tally::Error } else { Tally::Other }, Some(&ts));
        }
        self.scratch.clear();
        if error {
            self.scratch
                .extend_from_slice(br#"{"type":"error","severity":"error","message":"#);
        } else {
            self.scratch
                .extend_from_slice(br#"{"type":"message","role":"assistant","content":"#);
        }
        serde_json::to_writer(&mut self.scratch, text)?;
        self.scratch.extend_from_slice(br#","timestamp":"#);
        serde_json::to_writer(&mut self.scratch, &ts)?;
        if self.active.is_some() {
            self.scratch.push(b',');
            self.scratch.extend_from_slice(&self.stamp);
        }
        self.scratch.push(b'}');
        self.write_scratch()
    }

    /// A line of another agent's stream: its events in our words, each
    /// handled as if it had been read (a plan step opens its chapter).
    fn foreign_line(&mut self, line: &str, p: Peek) -> anyhow::Result<()> {
        let Ok(Some(e)) = Event::from_line(line, self.line_no) else {
            return self.event(line, p);
        };
        match self.foreign.translate(&e) {
            Translated::Native => self.event(line, p),
            Translated::Events(events, problem) => {
                if let Some(why) = problem {
                    self.bad_field(&why, line)?;
                }
                for e in events {
                    let text = e.to_line();
                    let p = Peek::parse(&text)?;
                    self.event(&text, p)?;
                }
                Ok(())
            }
            Translated::Malformed(why) => {
                self.warn(&why, line, "; passed on as it came")?;
                self.event(line, p)
            }
        }
    }

    fn bad_line(&mut self, reason: &str, line: &str) -> anyhow::Result<()> {
        self.warn(reason, line, "; skipped")
    }

    /// A line that is an event, but one topic-tag cannot use as meant: a
    /// warning (an error under --strict); the caller keeps the line.
    fn bad_field(&mut self, reason: &str, line: &str) -> anyhow::Result<()> {
        self.warn(reason, line, "")
    }

    /// Names the input, line and first bytes; an error under --strict, else
    /// a warning (the first MAX_WARNINGS printed, the rest counted).
    fn warn(&mut self, reason: &str, line: &str, outcome: &str) -> anyhow::Result<()> {
        let start: String = line.chars().take(40).collect();
        let msg = format!(
            "{}: line {}: {reason} (starts with {start:?})",
            self.input_name, self.line_no
        );
        if self.opts.strict {
            self.end_run()?;
            self.out.flush()?;
            return Err(term::data_error(msg));
        }
        self.warnings += 1;
        if self.warnings <= MAX_WARNINGS {
            let _ = writeln!(
                self.diag,
                "{}",
                term::sanitize_line(&format!("topic-tag: warning: {msg}{outcome}"))
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_controls_become_escapes_of_the_same_value() {
        let mut line = "{\"c\":\"a\u{9b}2J\u{7f}é\"}\n".as_bytes().to_vec();
        escape_terminal_controls(&mut line);
        let text = String::from_utf8(line).unwrap();
        assert_eq!(text, "{\"c\":\"a\\u009b2J\\u007fé\"}\n");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["c"], "a\u{9b}2J\u{7f}é");
    }

    #[test]
    fn a_long_run_is_let_go_in_parts() {
        let mut input = String::new();
        for i in 0..MAX_RUN + 2 {
            input.push_str(&format!(
                "{{\"type\":\"tool_use\",\"tool_name\":\"x\",\"tool_id\":\"{i}\"}}\n"
            ));
        }
        input.push_str(r#"{"type":"topic","title":"T"}"#);
        input.push('\n');
        let mut t = Tagger::new(Vec::new(), Options::default());
        t.feed(input.as_bytes()).unwrap();
        assert_eq!(MAX_RUN, 1024, "the man page names the limit");
        // The first MAX_RUN calls went out when the run was full.
        assert!(t.run.len() <= MAX_RUN);
        let out = String::from_utf8(t.finish().unwrap().0).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), MAX_RUN + 3);
        assert!(!lines[MAX_RUN - 1].contains("topic"));
        // The rest of the run: its topic first, then its two calls, stamped.
        assert_eq!(
            lines[MAX_RUN],
            r#"{"type":"topic","title":"T","topic":"T"}"#
        );
        assert!(lines[MAX_RUN + 1].ends_with(r#""tool_id":"1024","topic":"T"}"#));
    }

    #[test]
    fn split_titles() {
        let re = Regex::new("^==> ").unwrap();
        assert_eq!(split_title(&re, "==> Build ").as_deref(), Some("Build"));
        assert_eq!(split_title(&re, "==> "), None);
        assert_eq!(
            split_title(&re, "==> Build \t  release ").as_deref(),
            Some("Build release")
        );
        let whole = Regex::new(r"^Step \d+$").unwrap();
        assert_eq!(split_title(&whole, "Step 3").as_deref(), Some("Step 3"));
        assert_eq!(split_title(&re, "Build"), None);
        let re = Regex::new(r"^(?:step (\d+)|==>)").unwrap();
        assert_eq!(split_title(&re, "step 3: x").as_deref(), Some("3"));
        assert_eq!(split_title(&re, "==> Tests").as_deref(), Some("Tests"));
    }
}
