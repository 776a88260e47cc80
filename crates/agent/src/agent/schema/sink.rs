//! stdout of a `--schema` run into a pipe (`--output` auto): the records
//! alone, one compact JSON object a line, so `| jq`, `| viz-parse` and a
//! database loader read them as they are. What else the run says goes to
//! stderr: warnings and errors as `gem-ask: warning: ...`, the sources of a
//! web search as `gem-ask: source [N] ...`; the `result` event's error is
//! printed once by the program's front. Records of one answer are written
//! together and flushed once: they are complete at the same moment.

use std::io::{self, Write};

use super::RECORD;
use crate::agent::sink::EventSink;
use crate::events::Event;
use crate::term::diag;

pub struct RecordSink<W: Write> {
    out: W,
}

impl<W: Write> RecordSink<W> {
    pub fn new(out: W) -> Self {
        RecordSink { out }
    }

    fn write(&mut self, e: &Event) -> io::Result<()> {
        match e.kind() {
            RECORD => {
                if let Some(r) = e.get("record") {
                    serde_json::to_writer(&mut self.out, r)?;
                    self.out.write_all(b"\n")?;
                }
            }
            "error" => diag(format!(
                "gem-ask: {}: {}",
                e.str_field("severity").unwrap_or("error"),
                e.str_field("message").unwrap_or("")
            )),
            "source" => diag(format!(
                "gem-ask: source [{}] {} <{}>",
                e.get("index").and_then(|v| v.as_u64()).unwrap_or(0),
                e.str_field("title").unwrap_or(""),
                e.str_field("url").unwrap_or("")
            )),
            "retry" => diag(format!(
                "gem-ask: note: retrying ({})",
                e.str_field("reason").unwrap_or("")
            )),
            _ => {}
        }
        Ok(())
    }
}

impl<W: Write> EventSink for RecordSink<W> {
    fn emit(&mut self, e: &Event) -> io::Result<()> {
        self.write(e)?;
        self.out.flush()
    }

    fn emit_all(&mut self, events: &[Event]) -> io::Result<()> {
        for e in events {
            self.write(e)?;
        }
        self.out.flush()
    }

    fn finish(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_records_reach_stdout() {
        let mut s = RecordSink::new(Vec::new());
        let rec = |v| {
            let mut e = Event::message("assistant", "", false);
            e.0.clear();
            e.set("type", RECORD);
            e.set("record", v);
            e
        };
        s.emit(&Event::init("id", "m", "t")).unwrap();
        s.emit_all(&[rec(json!({"a": 1})), rec(json!({"a": "x\ny"}))])
            .unwrap();
        s.emit(&Event::message("assistant", "{", true)).unwrap();
        s.finish().unwrap();
        assert_eq!(
            String::from_utf8(s.out).unwrap(),
            "{\"a\":1}\n{\"a\":\"x\\ny\"}\n"
        );
    }
}
