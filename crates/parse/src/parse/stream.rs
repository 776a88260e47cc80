//! Event streams through viz-parse: a `tool_use` of `render_visualization`
//! becomes a `visualization` event; a run of `record` events (`gem-ask
//! --schema-multi ... --output jsonl`) is read as JSON lines, one row a
//! record, and becomes one chart where the run ends (the records pass on as
//! they came when they make no chart, with a warning); every other event is
//! written back as the very line it came on (field order, number spelling
//! and all); a line that is not an event is a warning with its number, and
//! the stream goes on.

use std::io::{BufRead, Write};

use serde_json::Value;

use crate::events::foreign::{Translated, Translator, problem as problem_of};
use crate::events::{Event, EventWriter};

use super::rows::Warner;
use super::tool::{ToolArgsError, chart_from_tool_args};
use super::{ParseError, ParseOptions};

pub(crate) const TOOL_NAME: &str = "render_visualization";

/// A converted call: the `visualization` event and the (series, label) of
/// each point dropped for a value that is not a finite number.
pub(crate) type Converted = (Event, Vec<(String, String)>);

/// Why a `render_visualization` call makes no chart: its field and
/// problem, without the examples [`ToolArgsError`]'s own `Display` adds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {}", .0.field, .0.problem)]
pub(crate) struct NotCharted(pub ToolArgsError);

/// The `visualization` event for one `tool_use` event (with the points
/// dropped for values that are not finite numbers), or why not. The
/// tool_use's timestamp is kept.
pub(crate) fn convert(e: &Event) -> Option<Result<Converted, NotCharted>> {
    if e.kind() != "tool_use" || e.str_field("tool_name") != Some(TOOL_NAME) {
        return None;
    }
    // Some producers send the arguments as a JSON string (OpenAI style).
    let params = match e.get("parameters") {
        Some(Value::String(s)) => serde_json::from_str(s).unwrap_or(Value::String(s.clone())),
        Some(v) => v.clone(),
        None => Value::Object(Default::default()),
    };
    Some(match chart_from_tool_args(&params) {
        Ok(n) => {
            let mut v = n.chart.to_event();
            if let Some(ts) = e.get("timestamp") {
                v.set("timestamp", ts.clone());
            }
            Ok((v, n.non_finite))
        }
        Err(err) => Err(NotCharted(err)),
    })
}

/// A run of `record` events: each record as a JSON line, and the events
/// as they came (passed on if they make no chart).
#[derive(Default)]
struct Records {
    lines: Vec<u8>,
    raw: Vec<String>,
    first_line: usize,
}

impl Records {
    /// Charts the run, if there is one.
    fn end(
        &mut self,
        opts: &ParseOptions,
        out: &mut dyn Write,
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        if self.raw.is_empty() {
            return Ok(());
        }
        let lines = std::mem::take(&mut self.lines);
        let raw = std::mem::take(&mut self.raw);
        let mut rows = super::fast::JsonlRows::new(Box::new(std::io::Cursor::new(lines)));
        rows.workers = Some(0);
        match super::table::chart_from_rows(&mut rows, opts, warn) {
            Ok(n) => EventWriter::new(&mut *out)
                .write(&n.chart.to_event())
                .map_err(ParseError::Write),
            Err(ParseError::Write(e)) => Err(ParseError::Write(e)),
            Err(e) => {
                warn.skip(format!(
                    "lines {}-{}: {} record events make no chart ({}); passed on as they came",
                    self.first_line,
                    self.first_line + raw.len() - 1,
                    raw.len(),
                    e.to_string().lines().next().unwrap_or("")
                ))?;
                raw.iter().try_for_each(|l| write_raw(out, l))
            }
        }
    }
}

/// Copies a stream, converting render_visualization calls and runs of
/// records. Another agent's stream (Codex, Claude Code) is written as our
/// events ([`crate::events::foreign`]), its calls converted alike.
pub(crate) fn pass(
    input: &mut dyn BufRead,
    opts: &ParseOptions,
    out: &mut dyn Write,
    warn: &mut Warner,
) -> Result<(), ParseError> {
    let mut buf = Vec::new();
    let mut line = 0usize;
    let mut records = Records::default();
    let mut foreign = Translator::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        line += 1;
        let text = String::from_utf8_lossy(&buf);
        let event = match Event::from_line(&text, line) {
            Ok(None) => continue,
            Ok(Some(e)) => e,
            Err(e) => {
                warn.skip(format!("{e}; line skipped"))?;
                continue;
            }
        };
        let at = |raw| Line { number: line, raw };
        match foreign.translate(&event) {
            Translated::Native => {
                one_event(event, at(Some(text.trim())), &mut records, opts, out, warn)?
            }
            Translated::Events(events, problem) => {
                if let Some(why) = problem {
                    warn.note(problem_of(&text, line, why).to_string());
                }
                for e in events {
                    one_event(e, at(None), &mut records, opts, out, warn)?;
                }
            }
            Translated::Malformed(why) => {
                let why = format!("{why}; passed on as it came");
                warn.skip(problem_of(&text, line, why).to_string())?;
                one_event(event, at(Some(text.trim())), &mut records, opts, out, warn)?;
            }
        }
    }
    records.end(opts, out, warn)?;
    warn.finish("lines");
    Ok(())
}

/// Where an event came from: its line's number, and the line itself when
/// the event is written back as it came (a translated one is written
/// anew).
struct Line<'a> {
    number: usize,
    raw: Option<&'a str>,
}

/// One event of the stream: into the run of records, converted to a
/// chart, or written on.
fn one_event(
    event: Event,
    at: Line,
    records: &mut Records,
    opts: &ParseOptions,
    out: &mut dyn Write,
    warn: &mut Warner,
) -> Result<(), ParseError> {
    let line = at.number;
    let as_it_came = |out: &mut dyn Write, e: &Event| match at.raw {
        Some(raw) => write_raw(out, raw),
        None => EventWriter::new(&mut *out)
            .write(e)
            .map_err(ParseError::Write),
    };
    if event.kind() == "record" {
        if records.raw.is_empty() {
            records.first_line = line;
        }
        let r = event.get("record").unwrap_or(&Value::Null);
        serde_json::to_writer(&mut records.lines, r).map_err(std::io::Error::from)?;
        records.lines.push(b'\n');
        records
            .raw
            .push(at.raw.map_or_else(|| event.to_line(), str::to_string));
        return Ok(());
    }
    records.end(opts, out, warn)?;
    match convert(&event) {
        Some(Ok((viz, dropped))) => {
            if let Some((series, label)) = dropped.first() {
                warn.note(format!(
                    "line {line}: render_visualization: {} point(s) dropped for a value that is not a finite number (first: series {series:?}, label {label:?})",
                    dropped.len()
                ));
            }
            EventWriter::new(&mut *out)
                .write(&viz)
                .map_err(ParseError::Write)
        }
        Some(Err(why)) => {
            warn.skip(format!(
                "line {line}: render_visualization call not charted ({why}); passed on as it came"
            ))?;
            as_it_came(out, &event)
        }
        None => as_it_came(out, &event),
    }
}

fn write_raw(out: &mut dyn Write, line: &str) -> Result<(), ParseError> {
    out.write_all(line.as_bytes())
        .and_then(|_| out.write_all(b"\n"))
        .and_then(|_| out.flush())
        .map_err(ParseError::Write)
}
