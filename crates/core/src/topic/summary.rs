//! `--summary`: per-chapter counts gathered while the stream passes, turned
//! into one `topic_summary` event (and a table on stderr) at the end. Memory
//! grows with the number of chapters, never with the number of events.

use comfy_table::{Table, presets};
use serde_json::{Map, Value, json};

use crate::events::Event;

/// What one passing event contributes to its chapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tally {
    /// A `tool_use`.
    ToolCall,
    /// An `error` event that is not a warning, a `tool_result` or `result`
    /// with `status: error`.
    Error,
    Other,
    /// Session metadata (`init`): passed on, but not part of any chapter's
    /// work, so not counted (viz-render --chapters agrees).
    Session,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Chapter {
    /// `None` for the events before the first topic.
    pub title: Option<String>,
    pub events: u64,
    pub tool_calls: u64,
    pub errors: u64,
    pub first_ms: Option<i64>,
    pub last_ms: Option<i64>,
}

impl Chapter {
    fn new(title: Option<String>) -> Chapter {
        Chapter {
            title,
            events: 0,
            tool_calls: 0,
            errors: 0,
            first_ms: None,
            last_ms: None,
        }
    }

    fn see_time(&mut self, ms: i64) {
        self.first_ms = Some(self.first_ms.map_or(ms, |f| f.min(ms)));
        self.last_ms = Some(self.last_ms.map_or(ms, |l| l.max(ms)));
    }
}

/// The chapters seen so far, in stream order.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    chapters: Vec<Chapter>,
    /// The time of an `init` before any chapter: when events before the
    /// first topic follow, their stretch starts there.
    session_start: Option<i64>,
}

impl Summary {
    /// A topic event opened a chapter; its timestamp is the chapter's start.
    pub fn open(&mut self, title: &str, timestamp: Option<&str>) {
        let mut c = Chapter::new(Some(title.to_string()));
        if let Some(ms) = timestamp.and_then(parse_rfc3339_ms) {
            c.see_time(ms);
        }
        self.chapters.push(c);
    }

    /// Any other event passed on in the current chapter.
    pub fn count(&mut self, tally: Tally, timestamp: Option<&str>) {
        if tally == Tally::Session {
            if self.chapters.is_empty() && self.session_start.is_none() {
                self.session_start = timestamp.and_then(parse_rfc3339_ms);
            }
            return;
        }
        if self.chapters.is_empty() {
            let mut c = Chapter::new(None);
            if let Some(ms) = self.session_start {
                c.see_time(ms);
            }
            self.chapters.push(c);
        }
        let c = self.chapters.last_mut().expect("just ensured");
        c.events += 1;
        match tally {
            Tally::ToolCall => c.tool_calls += 1,
            Tally::Error => c.errors += 1,
            Tally::Other | Tally::Session => {}
        }
        if let Some(ms) = timestamp.and_then(parse_rfc3339_ms) {
            c.see_time(ms);
        }
    }

    pub fn chapters(&self) -> &[Chapter] {
        &self.chapters
    }

    /// A chapter lasts from its first timestamp to the first timestamp of
    /// the next chapter (the work went on until the next chapter began);
    /// the last chapter ends at its own last timestamp.
    pub fn duration_ms(&self, i: usize) -> Option<i64> {
        let c = &self.chapters[i];
        let start = c.first_ms?;
        let end = self
            .chapters
            .get(i + 1)
            .and_then(|n| n.first_ms)
            .or(c.last_ms)?;
        Some((end - start).max(0))
    }

    /// The `topic_summary` event (docs/events.md).
    pub fn to_event(&self) -> Event {
        let mut chapters = Vec::new();
        let mut total = (0u64, 0u64, 0u64);
        for (i, c) in self.chapters.iter().enumerate() {
            let mut m = Map::new();
            if let Some(t) = &c.title {
                m.insert("title".into(), Value::String(t.clone()));
            }
            m.insert("events".into(), c.events.into());
            m.insert("tool_calls".into(), c.tool_calls.into());
            m.insert("errors".into(), c.errors.into());
            if let Some(d) = self.duration_ms(i) {
                m.insert("duration_ms".into(), d.into());
            }
            total.0 += c.events;
            total.1 += c.tool_calls;
            total.2 += c.errors;
            chapters.push(Value::Object(m));
        }
        let mut e = Event(Map::new());
        e.set("type", "topic_summary");
        e.set("chapters", Value::Array(chapters));
        e.set(
            "total",
            json!({"events": total.0, "tool_calls": total.1, "errors": total.2}),
        );
        e
    }

    /// The chapters as a plain table for stderr; titles come from data, so
    /// their control characters are shown escaped.
    pub fn to_table(&self) -> String {
        let mut t = Table::new();
        t.load_style(presets::ASCII_MARKDOWN);
        t.set_header(vec![
            "#",
            "Chapter",
            "Events",
            "Tool calls",
            "Errors",
            "Duration",
        ]);
        let mut number = 0;
        for (i, c) in self.chapters.iter().enumerate() {
            let title = match &c.title {
                Some(t) => printable(t),
                None => "(before the first chapter)".to_string(),
            };
            t.add_row(vec![
                if c.title.is_some() {
                    number += 1;
                    number.to_string()
                } else {
                    "-".to_string()
                },
                title,
                c.events.to_string(),
                c.tool_calls.to_string(),
                c.errors.to_string(),
                self.duration_ms(i).map(format_duration).unwrap_or_default(),
            ]);
        }
        t.to_string()
    }
}

/// `1.5s`, `2m05s`, `1h02m`: short enough for a table column.
pub fn format_duration(ms: i64) -> String {
    if ms < 1000 {
        return format!("{ms}ms");
    }
    let s = ms / 1000;
    if s < 60 {
        return format!("{}.{}s", s, (ms % 1000) / 100);
    }
    if s < 3600 {
        return format!("{}m{:02}s", s / 60, s % 60);
    }
    format!("{}h{:02}m", s / 3600, s % 3600 / 60)
}

/// A title for one table cell on stderr: whitespace runs (line breaks
/// included, which would break the table's rows) become one space, and
/// the rest goes through the diagnostics sanitizer
/// ([`crate::term::sanitize_line`]), so a title from the stream cannot
/// drive the terminal that reads stderr.
pub fn printable(s: &str) -> String {
    crate::term::sanitize_line(&crate::events::topic::normalize_title(s))
}

/// Milliseconds since the Unix epoch of an RFC 3339 timestamp
/// (`2026-03-13T09:16:25.123Z`, `...+02:00`; `t`/`z`/space accepted as
/// RFC 3339 allows). `None` for anything else: a bad timestamp only costs
/// the duration, never the event.
pub fn parse_rfc3339_ms(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() < 20 {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let d = b.get(r)?;
        if !d.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(d.iter().fold(0i64, |a, &c| a * 10 + i64::from(c - b'0')))
    };
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    if b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let (h, mi, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let mut i = 19;
    let mut millis = 0i64;
    if b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            if i - start < 3 {
                millis = millis * 10 + i64::from(b[i] - b'0');
            }
            i += 1;
        }
        let digits = i - start;
        if digits == 0 {
            return None;
        }
        for _ in digits..3 {
            millis *= 10;
        }
    }
    let offset_min = match b.get(i..)? {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let oh = num(i + 1..i + 3)?;
            let om = num(i + 4..i + 6)?;
            let _ = (h1, h2, m1, m2);
            let o = oh * 60 + om;
            if *sign == b'-' { -o } else { o }
        }
        _ => return None,
    };
    let days = days_from_civil(y, mo, d);
    let secs = days * 86_400 + h * 3600 + mi * 60 + sec - offset_min * 60;
    Some(secs * 1000 + millis)
}

/// Howard Hinnant's days_from_civil, the inverse of events::format_rfc3339.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::format_rfc3339;

    #[test]
    fn timestamps_round_trip_with_events() {
        for secs in [0i64, 1_709_251_199, 1_773_418_585, 4_102_444_800] {
            let s = format_rfc3339(secs, 7);
            assert_eq!(parse_rfc3339_ms(&s), Some(secs * 1000 + 7), "{s}");
        }
        assert_eq!(
            parse_rfc3339_ms("1970-01-01T02:00:00+02:00"),
            Some(0),
            "offsets count"
        );
        assert_eq!(parse_rfc3339_ms("1970-01-01T00:00:01.5Z"), Some(1500));
        assert_eq!(
            parse_rfc3339_ms("1970-01-01T00:00:01.123456789Z"),
            Some(1123)
        );
        for bad in [
            "",
            "yesterday",
            "1970-01-01",
            "1970-13-01T00:00:00Z",
            "1970-01-01T00:00:00",
        ] {
            assert_eq!(parse_rfc3339_ms(bad), None, "{bad}");
        }
    }

    #[test]
    fn durations_run_to_the_next_chapter() {
        let mut s = Summary::default();
        s.count(Tally::Other, None);
        s.open("A", Some("2026-01-01T00:00:00Z"));
        s.count(Tally::ToolCall, Some("2026-01-01T00:00:01Z"));
        s.count(Tally::Error, None);
        s.open("B", Some("2026-01-01T00:00:05Z"));
        s.count(Tally::Other, Some("2026-01-01T00:00:06.500Z"));
        assert_eq!(s.duration_ms(0), None);
        assert_eq!(s.duration_ms(1), Some(5000));
        assert_eq!(s.duration_ms(2), Some(1500));
        assert_eq!(
            s.to_event().to_line(),
            r#"{"type":"topic_summary","chapters":[{"events":1,"tool_calls":0,"errors":0},{"title":"A","events":2,"tool_calls":1,"errors":1,"duration_ms":5000},{"title":"B","events":1,"tool_calls":0,"errors":0,"duration_ms":1500}],"total":{"events":4,"tool_calls":1,"errors":1}}"#
        );
        assert_eq!(format_duration(125_000), "2m05s");
    }
}
