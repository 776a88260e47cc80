//! Where gem-ask's events go. The agent only ever calls [`EventSink`]; a
//! pipe gets the JSON-lines stream, a terminal gets it drawn.
//!
//! The terminal view is [`RenderSink`]: the same `render::Renderer` that
//! viz-render draws with, so `gem-ask` on a terminal and
//! `gem-ask | viz-render` show the same picture.

use std::io::{self, Write};

use crate::events::{Event, EventWriter};

pub trait EventSink {
    fn emit(&mut self, e: &Event) -> io::Result<()>;
    /// Events complete at the same moment (the records of one answer):
    /// a sink may flush once after them all.
    fn emit_all(&mut self, events: &[Event]) -> io::Result<()> {
        events.iter().try_for_each(|e| self.emit(e))
    }
    /// After the `result` event; flushes whatever is buffered.
    fn finish(&mut self) -> io::Result<()>;
}

/// Draws events for a person, as viz-render does.
pub struct RenderSink<W: Write> {
    out: W,
    renderer: crate::render::Renderer,
}

impl<W: Write> RenderSink<W> {
    pub fn new(out: W, opts: crate::render::RenderOptions) -> Self {
        RenderSink {
            out,
            renderer: crate::render::Renderer::new(opts),
        }
    }
}

impl<W: Write> EventSink for RenderSink<W> {
    fn emit(&mut self, e: &Event) -> io::Result<()> {
        self.renderer.event(e, &mut self.out)
    }

    fn finish(&mut self) -> io::Result<()> {
        self.renderer.finish(&mut self.out)?;
        self.out.flush()
    }
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

    fn emit_all(&mut self, events: &[Event]) -> io::Result<()> {
        self.out.write_all(events)
    }

    fn finish(&mut self) -> io::Result<()> {
        Ok(())
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
            writeln!(self.out, "{}", crate::render::text::clean_text(&cmd, false))?;
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
    fn command_sink_escapes_control_characters() {
        let mut s = CommandSink::new(Vec::new());
        s.emit(&Event::message("assistant", "ls\x1b[2J", true))
            .unwrap();
        s.finish().unwrap();
        assert_eq!(String::from_utf8(s.out).unwrap(), "ls^[[2J\n");
    }
}
