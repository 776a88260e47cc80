//! Inputs the fuzz targets (fuzz/) found, each kept as a test of the real
//! binaries so the fix stays fixed without a nightly toolchain.

use assert_cmd::cargo::cargo_bin_cmd;

/// An event stream saved by an editor that writes a UTF-8 byte order mark.
const BOM_EVENTS: &[u8] = b"\xEF\xBB\xBF{\"type\":\"message\",\"role\":\"assistant\",\"content\":\"hi\",\"delta\":true}\n{\"type\":\"result\",\"status\":\"success\"}\n";

fn run(bin: &str, args: &[&str], stdin: &[u8]) -> (String, String, i32) {
    let o = match bin {
        "viz-parse" => cargo_bin_cmd!("viz-parse"),
        "viz-render" => cargo_bin_cmd!("viz-render"),
        _ => cargo_bin_cmd!("topic-tag"),
    }
    .args(args)
    .write_stdin(stdin.to_vec())
    .output()
    .unwrap();
    (
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
        o.status.code().unwrap(),
    )
}

/// fuzz target `events`: viz-parse dropped the mark and passed the first
/// event on, while viz-render and topic-tag refused that line as "not
/// JSON". All three now read the mark as opening the input.
#[test]
fn a_byte_order_mark_before_the_first_event_is_dropped_by_every_reader() {
    let first = r#"{"type":"message","role":"assistant","content":"hi","delta":true}"#;

    let (out, err, code) = run("viz-parse", &[], BOM_EVENTS);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out.lines().next(), Some(first), "passed through unchanged");

    let (out, err, code) = run("viz-render", &["--color", "never"], BOM_EVENTS);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.starts_with("hi"), "{out:?}");

    let (out, err, code) = run("topic-tag", &[], BOM_EVENTS);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out.lines().next(), Some(first));

    // Only at the start: a mark inside the stream is still reported.
    let mut late = b"{\"type\":\"result\",\"status\":\"success\"}\n".to_vec();
    late.extend_from_slice(BOM_EVENTS);
    let (_, err, _) = run("topic-tag", &[], &late);
    assert!(err.contains("line 2"), "{err}");
}

/// fuzz target `render`: an error event with an empty message drew its
/// label (`warning:`, 8 columns) unwrapped, wider than a 2-column terminal.
#[test]
fn an_empty_error_message_still_fits_a_narrow_width() {
    let stream = b"{\"type\":\"error\",\"severity\":\"warning\",\"message\":\"\"}\n{\"type\":\"error\",\"message\":\" \"}\n";
    for width in 1..=10 {
        let w = width.to_string();
        let (out, err, code) = run("viz-render", &["--color", "never", "--width", &w], stream);
        assert_eq!((code, err.as_str()), (0, ""));
        for line in out.lines() {
            assert!(line.chars().count() <= width, "{line:?} at width {width}");
        }
        let joined: String = out.lines().collect();
        assert_eq!(joined, "warning:error:", "at width {width}");
    }
}

/// fuzz target `events`: a number read from JSON came out one step off
/// (serde_json's default float reader is not exact): a 45-digit value read
/// as 1.0000000000000001e45 instead of the nearest double, 1e45, so an
/// event written back did not read as the same event.
#[test]
fn json_numbers_are_read_to_the_nearest_double() {
    let json = br#"[{"label":"a","value":999999999999999999990000001590897978359414782},{"label":"b","value":0.30000000000000004}]"#;
    let (out, err, code) = run("viz-parse", &["--chart", "bar"], json);
    assert_eq!((code, err.as_str()), (0, ""));
    let chart: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let points = &chart["series"][0]["points"];
    assert_eq!(points[0]["value"].as_f64(), Some(1e45));
    assert_eq!(points[1]["value"].as_f64(), Some(0.1 + 0.2));
}

/// fuzz target `render`: at width 1 a wide character (two columns) was
/// put on a line of its own, two columns wide. A one-column mark stands in.
#[test]
fn a_wide_character_at_width_one_is_replaced_by_a_mark() {
    let stream = "{\"type\":\"message\",\"role\":\"assistant\",\"content\":\"a\u{6650}b\"}\n";
    let (out, err, code) = run(
        "viz-render",
        &["--markdown", "off", "--color", "never", "--width", "1"],
        stream.as_bytes(),
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out, "a\n\u{2026}\nb\n");
    let (out, _, _) = run(
        "viz-render",
        &["--markdown", "off", "--color", "never", "--width", "2"],
        stream.as_bytes(),
    );
    assert_eq!(out, "a\n\u{6650}\nb\n", "kept where it fits");
}

/// fuzz target `render`: the same at width 1 in an error message, which
/// is wrapped by the renderer's line wrapper rather than the text one.
#[test]
fn a_wide_character_in_an_error_at_width_one_is_replaced_by_a_mark() {
    let stream = "{\"type\":\"error\",\"severity\":\"warning\",\"message\":\"\u{6650}\"}\n";
    let (out, err, code) = run(
        "viz-render",
        &["--color", "never", "--width", "1"],
        stream.as_bytes(),
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.lines().all(|l| l.chars().count() <= 1), "{out:?}");
    assert!(out.ends_with("\u{2026}\n"), "{out:?}");
}
