//! viz-parse says what it made of its input instead of swallowing it:
//! rows shorter than the header and a cut last row are named (line,
//! fields expected and found) and refused under `--strict`; a small CSV
//! cut short is still a table; Windows-1252 text is decoded and said.
//! The real binary, real stdin and files.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

use crate::support::temp_dir;

struct Out {
    code: i32,
    chart: Option<Value>,
    stderr: String,
}

fn run(args: &[&str], stdin: &[u8]) -> Out {
    let o = cargo_bin_cmd!("viz-parse")
        .args(args)
        .write_stdin(stdin.to_vec())
        .output()
        .unwrap();
    let stdout = String::from_utf8(o.stdout).unwrap();
    Out {
        code: o.status.code().unwrap(),
        chart: stdout
            .lines()
            .next()
            .map(|l| serde_json::from_str(l).unwrap()),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn labels(chart: &Value) -> Vec<String> {
    chart["series"][0]["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["label"].as_str().unwrap().to_string())
        .collect()
}

const SHORT: &[u8] = b"name,a,b\nx,1,2\ny,3\nz,5,6\nw,7,8\n";

#[test]
fn a_short_row_is_named_with_its_line_and_field_counts() {
    let o = run(&[], SHORT);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("line 3 has 2 fields but the header has 3"),
        "{}",
        o.stderr
    );
    // The good rows are all kept, and the short one with what it has.
    assert_eq!(labels(&o.chart.unwrap()), ["x", "y", "z", "w"]);
}

#[test]
fn a_short_row_is_refused_under_strict_naming_the_file_and_line() {
    let f = temp_dir("viz_input_strict").join("cut.csv");
    std::fs::write(&f, SHORT).unwrap();
    let o = run(&["--strict", f.to_str().unwrap()], b"");
    assert_eq!(o.code, 65, "{}", o.stderr);
    assert!(o.chart.is_none());
    assert!(
        o.stderr
            .contains("cut.csv: line 3 has 2 fields but the header has 3"),
        "{}",
        o.stderr
    );
}

#[test]
fn a_long_file_names_a_short_row_past_its_sample() {
    // Past the sniffer's prefix and the sample, where the fast lane reads.
    let mut text = String::from("name,a,b\n");
    for i in 0..30_000 {
        text.push_str(&format!("r{i},{i},{}\n", i * 2));
    }
    text.push_str("last,9");
    let o = run(&["--strict"], text.as_bytes());
    assert_eq!(o.code, 65, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("line 30002 has 2 fields but the header has 3"),
        "{}",
        o.stderr
    );
}

#[test]
fn a_small_csv_cut_in_its_last_row_is_a_table() {
    let o = run(&[], b"name,a,b\nx,1,2\ny,3,4\nz,5");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.stderr.contains("no table structure"), "{}", o.stderr);
    assert!(
        o.stderr
            .contains("line 4 has 2 fields but the header has 3"),
        "{}",
        o.stderr
    );
    assert_eq!(labels(&o.chart.unwrap()), ["x", "y", "z"]);
}

#[test]
fn windows_1252_text_is_decoded_and_said_once() {
    let o = run(&[], b"name,v\ncaf\xe9,1\nna\xefve,2\n\x93q\x94,3\n");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        labels(&o.chart.unwrap()),
        ["café", "naïve", "\u{201c}q\u{201d}"]
    );
    assert_eq!(o.stderr.matches("Windows-1252").count(), 1, "{}", o.stderr);
    assert!(o.stderr.contains("line 2"), "{}", o.stderr);
    assert!(
        o.stderr.contains("iconv -f WINDOWS-1252 -t UTF-8"),
        "{}",
        o.stderr
    );
}

#[test]
fn windows_1252_in_a_file_is_decoded_too() {
    // A regular file is otherwise mapped and read without the decoder.
    let f = temp_dir("viz_input_latin").join("latin.csv");
    std::fs::write(&f, b"name,v\nx,1\nM\xfcnchen,2\n").unwrap();
    let o = run(&[f.to_str().unwrap()], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(labels(&o.chart.unwrap()), ["x", "München"]);
    assert!(o.stderr.contains("line 3"), "{}", o.stderr);
}

#[test]
fn utf8_text_says_nothing_of_encodings() {
    let o = run(&[], "name,v\ncafé,1\n".as_bytes());
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(labels(&o.chart.unwrap()), ["café"]);
    assert!(!o.stderr.contains("1252"), "{}", o.stderr);
}

/// A NUL byte is its line's wherever it is: near the start (once the
/// whole file refused, without a line) or past 20,000 lines (once charted
/// inside a label), the line is named and skipped, refused under --strict.
#[test]
fn a_line_holding_nul_is_named_and_skipped_wherever_it_is() {
    let near = b"name,v\nx,1\ny\0z,2\nw,3\n".to_vec();
    let mut far = String::from("name,v\n");
    for i in 0..25_000 {
        far.push_str(&format!("r{i},{i}\n"));
    }
    far.push_str("a\0b,99999\n");
    for (text, line) in [(near, 3), (far.into_bytes(), 25_002)] {
        let o = run(&[], &text);
        assert_eq!(o.code, 0, "{}", o.stderr);
        let said = format!("line {line} holds a NUL byte");
        assert!(o.stderr.contains(&said), "{}", o.stderr);
        assert!(
            !labels(&o.chart.unwrap()).iter().any(|l| l.contains('\0')),
            "a NUL reached a label"
        );
        let o = run(&["--strict"], &text);
        assert_eq!(o.code, 65, "{}", o.stderr);
        assert!(o.stderr.contains(&said), "{}", o.stderr);
    }
}

#[test]
fn a_file_of_mostly_nul_bytes_is_refused_as_binary() {
    let mut bytes = b"a,b\n".to_vec();
    bytes.extend(std::iter::repeat_n(0u8, 200));
    let o = run(&[], &bytes);
    assert_eq!(o.code, 65, "{}", o.stderr);
    assert!(o.stderr.contains("binary data"), "{}", o.stderr);
}
