//! The event-line reader behind viz-parse, viz-render and topic-tag: an
//! event that passes through viz-parse comes out byte-identical (the line
//! as it came, trimmed), in order; the event reader never fails on data.
//! Another agent's stream (Codex, Claude Code) is translated into our
//! events on its way through (docs/events.md, "Other agents' streams"), so
//! the lines pass through unchanged only in an input holding none of its
//! lines; the reader must still never fail on one.
#![no_main]

use std::io::BufRead;

use gemline::events::foreign::is_foreign_line;
use gemline::events::{Event, EventReader};
use gemline::parse::{Format, ParseOptions, process_with};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut reader = EventReader::new(data);
    while let Some(r) = reader.next_event().expect("reading a slice cannot fail") {
        if let Ok(e) = r {
            // Re-serialized events read back as the same event.
            let again = Event::from_line(&e.to_line(), 1).unwrap().unwrap();
            assert_eq!(again, e);
        }
    }

    let lines = || data.split(|&b| b == b'\n').map(String::from_utf8_lossy);
    let foreign = lines().any(
        |text| matches!(Event::from_line(&text, 1), Ok(Some(e)) if is_foreign_line(e.kind(), true)),
    );
    if foreign {
        return;
    }

    let opts = ParseOptions {
        format: Some(Format::Events),
        ..ParseOptions::default()
    };
    let mut out = Vec::new();
    let mut sink = |_: String| {};
    if process_with(Box::new(data), "fuzz", &opts, &mut out, &mut sink).is_err() {
        return;
    }
    // Every line that is an event other than a render_visualization call
    // must be in the output exactly as it came, in input order.
    let mut outputs = out.lines().map(Result::unwrap);
    for (i, raw) in data.split(|&b| b == b'\n').enumerate() {
        // A byte order mark opening the input is dropped, not passed on.
        let raw = match raw.strip_prefix(b"\xEF\xBB\xBF") {
            Some(rest) if i == 0 => rest,
            _ => raw,
        };
        let text = String::from_utf8_lossy(raw);
        let Ok(Some(e)) = Event::from_line(&text, i + 1) else {
            continue;
        };
        let converted =
            e.kind() == "tool_use" && e.str_field("tool_name") == Some("render_visualization");
        let line = outputs.next().expect("an event was dropped");
        if !converted {
            assert_eq!(
                line,
                text.trim(),
                "event line {} changed on its way through",
                i + 1
            );
        }
    }
    assert!(outputs.next().is_none(), "more output lines than events");
});
