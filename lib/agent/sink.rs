//! Where gem-ask's events go. The agent only ever calls [`EventSink`]; a
//! pipe gets the JSON-lines stream, a terminal gets it drawn.
//!
//! MERGE: the terminal sink is meant to be `render::Renderer` (what
//! viz-render draws); until it lands here, [`PlainSink`] prints the text and
//! one line per tool call, chart and error, so a person at a terminal is not
//! handed raw JSON.

use std::io::{self, Write};

use crate::events::{Event, EventWriter};

pub trait EventSink {
    fn emit(&mut self, e: &Event) -> io::Result<()>;
    /// After the `result` event; flushes whatever is buffered.
    fn finish(&mut self) -> io::Result<()>;
}

/// The event stream, one flushed line per event.
pub struct JsonlSink<W: Write> {
    out: EventWriter<W>,
}

impl<W: Write> JsonlSink<W> {
    pub fn new(out: W) -> Self {
        JsonlSink {
            out: EventWriter::new(out),
        }
    }
}

impl<W: Write> EventSink for JsonlSink<W> {
    fn emit(&mut self, e: &Event) -> io::Result<()> {
        self.out.write(e)
    }

    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Plain text for a terminal: assistant text as it streams, a short line
/// for everything else. Control characters from the model are shown in
/// caret form, never sent raw.
pub struct PlainSink<W: Write> {
    out: W,
    at_line_start: bool,
}

impl<W: Write> PlainSink<W> {
    pub fn new(out: W) -> Self {
        PlainSink {
            out,
            at_line_start: true,
        }
    }

    fn line(&mut self, text: &str) -> io::Result<()> {
        if !self.at_line_start {
            self.out.write_all(b"\n")?;
        }
        writeln!(self.out, "{}", clean(text))?;
        self.at_line_start = true;
        self.out.flush()
    }
}

impl<W: Write> EventSink for PlainSink<W> {
    fn emit(&mut self, e: &Event) -> io::Result<()> {
        match e.kind() {
            "message" if e.str_field("role") == Some("assistant") => {
                let text = clean(e.str_field("content").unwrap_or(""));
                self.out.write_all(text.as_bytes())?;
                if !text.is_empty() {
                    self.at_line_start = text.ends_with('\n');
                }
                self.out.flush()
            }
            "thought" => self.line(&format!(
                "(thinking) {}",
                e.str_field("content").unwrap_or("")
            )),
            "tool_use" => self.line(&format!(
                "[tool] {}",
                e.str_field("tool_name").unwrap_or("")
            )),
            "visualization" => {
                let title = e.str_field("title").unwrap_or("chart");
                let kind = e.str_field("chartType").unwrap_or("");
                self.line(&format!(
                    "[{kind} chart] {title} (pipe into viz-render to draw it)"
                ))
            }
            "topic" => self.line(&format!("== {} ==", e.str_field("title").unwrap_or(""))),
            "error" => self.line(&format!(
                "[{}] {}",
                e.str_field("severity").unwrap_or("error"),
                e.str_field("message").unwrap_or("")
            )),
            "retry" => self.line(&format!(
                "[retry {}] waiting {} ms ({})",
                e.get("attempt").and_then(|v| v.as_u64()).unwrap_or(0),
                e.get("delay_ms").and_then(|v| v.as_u64()).unwrap_or(0),
                e.str_field("reason").unwrap_or("")
            )),
            _ => Ok(()),
        }
    }

    fn finish(&mut self) -> io::Result<()> {
        if !self.at_line_start {
            self.out.write_all(b"\n")?;
            self.at_line_start = true;
        }
        self.out.flush()
    }
}

/// `-c` on a terminal: only the command, printed alone once it is complete
/// (Markdown fences the model may add are removed).
pub struct CommandSink<W: Write> {
    out: W,
    text: String,
}

impl<W: Write> CommandSink<W> {
    pub fn new(out: W) -> Self {
        CommandSink {
            out,
            text: String::new(),
        }
    }
}

impl<W: Write> EventSink for CommandSink<W> {
    fn emit(&mut self, e: &Event) -> io::Result<()> {
        if e.kind() == "message" && e.str_field("role") == Some("assistant") {
            self.text.push_str(e.str_field("content").unwrap_or(""));
        }
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        let cmd = strip_fences(&self.text);
        if !cmd.is_empty() {
            writeln!(self.out, "{}", clean(&cmd))?;
        }
        self.out.flush()
    }
}

/// Removes a surrounding ```lang ... ``` fence and outer blank lines.
pub fn strip_fences(text: &str) -> String {
    let t = text.trim();
    if let Some(rest) = t.strip_prefix("```") {
        let body = rest.split_once('\n').map(|(_, b)| b).unwrap_or("");
        let body = body.trim_end().strip_suffix("```").unwrap_or(body);
        return body.trim().to_string();
    }
    t.trim_matches('`').trim().to_string()
}

/// Control characters (except newline and tab) in caret form.
pub fn clean(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            c if (c as u32) < 0x20 => {
                out.push('^');
                out.push(char::from_u32(c as u32 + 0x40).unwrap_or('?'));
            }
            '\u{7f}' => out.push_str("^?"),
            c if ('\u{80}'..='\u{9f}').contains(&c) => {
                out.push_str(&format!("<U+{:04X}>", c as u32))
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_are_stripped() {
        assert_eq!(strip_fences("```bash\nls -la\n```\n"), "ls -la");
        assert_eq!(strip_fences("`du -sh .`"), "du -sh .");
        assert_eq!(strip_fences("find . -name '*.rs'"), "find . -name '*.rs'");
    }

    #[test]
    fn plain_sink_escapes_control_characters() {
        let mut s = PlainSink::new(Vec::new());
        s.emit(&Event::message("assistant", "a\x1b[2Jb", true))
            .unwrap();
        s.finish().unwrap();
        assert_eq!(String::from_utf8(s.out).unwrap(), "a^[[2Jb\n");
    }
}
