//! Server-sent events, read as the WHATWG spec defines them: lines end in
//! `\r\n`, `\n` or `\r`; a blank line ends an event; several `data:` lines
//! join with `\n`; lines starting with `:` are comments; one space after the
//! colon is dropped. Gemini frames every event as `data: <json>\r\n\r\n`,
//! but proxies and gateways re-frame, so nothing narrower is assumed.
//!
//! The reader hands out each event the moment its blank line arrives, so a
//! chunk reaches the terminal while the next one is still being generated.

use std::io::{self, BufRead};

/// One dispatched event. `event` is the `event:` field (empty for the
/// default `message` type); `id` is the last `id:` seen.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SseEvent {
    pub event: String,
    pub data: String,
    pub id: Option<String>,
}

/// The longest line, and the longest event's data, accepted: far above any
/// real chunk, low enough that a broken or hostile peer cannot exhaust
/// memory. Longer is a stream error.
pub const MAX_EVENT: usize = 16 << 20;

pub struct SseReader<R> {
    input: R,
    limit: usize,
    line: Vec<u8>,
    /// A `\r` ended the previous line; a `\n` right after it is the same
    /// line ending, not a blank line.
    after_cr: bool,
    last_id: Option<String>,
    /// Nothing read yet: a UTF-8 byte order mark here is dropped.
    at_start: bool,
}

impl<R: BufRead> SseReader<R> {
    pub fn new(input: R) -> Self {
        SseReader::with_limit(input, MAX_EVENT)
    }

    /// A reader refusing lines and events longer than `limit` bytes.
    pub fn with_limit(input: R, limit: usize) -> Self {
        SseReader {
            input,
            limit,
            line: Vec::new(),
            after_cr: false,
            last_id: None,
            at_start: true,
        }
    }

    /// The next event, or `None` at the end of the stream. An event cut off
    /// by the end of the stream (no blank line) is discarded, as the spec
    /// says: a truncated JSON object must not be parsed as if whole.
    pub fn next_event(&mut self) -> io::Result<Option<SseEvent>> {
        let mut data: Option<String> = None;
        let mut event = String::new();
        loop {
            let Some(line) = self.next_line()? else {
                return Ok(None);
            };
            if line.is_empty() {
                // An empty data buffer dispatches nothing (a bare `data:`
                // keep-alive from a gateway is not an empty JSON chunk).
                if let Some(d) = data.take().filter(|d| !d.is_empty()) {
                    return Ok(Some(SseEvent {
                        event: std::mem::take(&mut event),
                        data: d,
                        id: self.last_id.clone(),
                    }));
                }
                event.clear();
                continue;
            }
            if line.starts_with(':') {
                continue;
            }
            let (field, value) = match line.find(':') {
                Some(i) => {
                    let v = &line[i + 1..];
                    (&line[..i], v.strip_prefix(' ').unwrap_or(v))
                }
                None => (line.as_str(), ""),
            };
            if field == "data"
                && data.as_ref().map_or(0, |d| d.len() + 1) + value.len() > self.limit
            {
                return Err(self.too_long("an event"));
            }
            match field {
                "data" => match &mut data {
                    Some(d) => {
                        d.push('\n');
                        d.push_str(value);
                    }
                    None => data = Some(value.to_string()),
                },
                "event" => event = value.to_string(),
                "id" if !value.contains('\0') => self.last_id = Some(value.to_string()),
                _ => {}
            }
        }
    }

    /// One line without its ending; `None` at end of input (a last line
    /// without an ending is still returned).
    fn next_line(&mut self) -> io::Result<Option<String>> {
        self.line.clear();
        loop {
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                if self.line.is_empty() {
                    return Ok(None);
                }
                break;
            }
            if self.after_cr {
                self.after_cr = false;
                if buf[0] == b'\n' {
                    self.input.consume(1);
                    continue;
                }
            }
            let end = buf.iter().position(|&b| b == b'\n' || b == b'\r');
            if self.line.len() + end.unwrap_or(buf.len()) > self.limit {
                return Err(self.too_long("a line"));
            }
            match end {
                Some(i) => {
                    self.line.extend_from_slice(&buf[..i]);
                    self.after_cr = buf[i] == b'\r';
                    self.input.consume(i + 1);
                    break;
                }
                None => {
                    let n = buf.len();
                    self.line.extend_from_slice(buf);
                    self.input.consume(n);
                }
            }
        }
        let mut text = &self.line[..];
        if std::mem::take(&mut self.at_start) {
            text = text.strip_prefix("\u{feff}".as_bytes()).unwrap_or(text);
        }
        Ok(Some(String::from_utf8_lossy(text).into_owned()))
    }
}

impl<R> SseReader<R> {
    fn too_long(&self, what: &str) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{what} of the event stream is longer than {} MiB",
                self.limit >> 20
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn all(input: &str) -> Vec<SseEvent> {
        let mut r = SseReader::new(input.as_bytes());
        let mut out = Vec::new();
        while let Some(e) = r.next_event().unwrap() {
            out.push(e);
        }
        out
    }

    fn datas(input: &str) -> Vec<String> {
        all(input).into_iter().map(|e| e.data).collect()
    }

    #[test]
    fn crlf_and_lf_framing() {
        assert_eq!(
            datas("data: {\"a\":1}\r\n\r\ndata: 2\r\n\r\n"),
            ["{\"a\":1}", "2"]
        );
        assert_eq!(datas("data: 1\n\ndata: 2\n\n"), ["1", "2"]);
        assert_eq!(datas("data: 1\r\rdata: 2\r\r"), ["1", "2"]);
    }

    #[test]
    fn multiple_data_lines_comments_and_fields() {
        let ev = all(": keep-alive\n\nevent: x\nid: 7\ndata: a\ndata:b\nretry: 10\n\n");
        assert_eq!(ev.len(), 1);
        assert_eq!(ev[0].data, "a\nb");
        assert_eq!(ev[0].event, "x");
        assert_eq!(ev[0].id.as_deref(), Some("7"));
    }

    #[test]
    fn a_leading_bom_and_empty_data_are_ignored() {
        assert_eq!(datas("\u{feff}data: 1\n\ndata:\n\ndata: 2\n\n"), ["1", "2"]);
        // Only at the very start: later it is part of the data.
        assert_eq!(datas("data: 1\n\ndata: \u{feff}2\n\n"), ["1", "\u{feff}2"]);
    }

    #[test]
    fn an_event_without_its_blank_line_is_dropped() {
        assert_eq!(datas("data: 1\n\ndata: {\"cut"), ["1"]);
    }

    #[test]
    fn crlf_split_across_reads() {
        // A BufReader of capacity 1 splits "\r" and "\n" across fills.
        let input = "data: 1\r\n\r\ndata: 2\r\n\r\n";
        let mut r = SseReader::new(io::BufReader::with_capacity(1, input.as_bytes()));
        assert_eq!(r.next_event().unwrap().unwrap().data, "1");
        assert_eq!(r.next_event().unwrap().unwrap().data, "2");
        assert_eq!(r.next_event().unwrap(), None);
    }

    #[test]
    fn endless_lines_and_events_are_errors_not_memory() {
        // 17 MiB without a line ending.
        let endless = io::BufReader::new(io::repeat(b'x').take(17 << 20));
        let e = SseReader::new(endless).next_event().unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert_eq!(
            e.to_string(),
            "a line of the event stream is longer than 16 MiB"
        );
        // Short lines, one event that never ends: 3 MiB of 1 KiB data lines.
        let line = format!("data: {}\n", "y".repeat(1024));
        let input = line.repeat(3 << 10);
        let mut r = SseReader::with_limit(input.as_bytes(), 2 << 20);
        let e = r.next_event().unwrap_err();
        assert_eq!(
            e.to_string(),
            "an event of the event stream is longer than 2 MiB"
        );
        // Within the limit all is well.
        let mut r = SseReader::with_limit("data: 12\n\n".as_bytes(), 8);
        assert_eq!(r.next_event().unwrap().unwrap().data, "12");
    }
}
