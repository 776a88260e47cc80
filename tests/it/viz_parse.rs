//! viz-parse end to end: the real binary, real files and pipes.
//!
//! Past 700 lines: one program's end-to-end cases, independent tests
//! sharing this file's runners; to be split by flag family (a module each
//! under tests/it/) when next touched.

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::{Value, json};

use crate::support::temp_dir;
use crate::support::viz::points_of as points;

fn viz() -> assert_cmd::Command {
    cargo_bin_cmd!("viz-parse")
}

struct Out {
    code: i32,
    events: Vec<Value>,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str], stdin: &[u8]) -> Out {
    let o = viz()
        .args(args)
        .write_stdin(stdin.to_vec())
        .output()
        .unwrap();
    let stdout = String::from_utf8(o.stdout).unwrap();
    let events = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    Out {
        code: o.status.code().unwrap(),
        events,
        stdout,
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn ok(args: &[&str], stdin: &[u8]) -> Out {
    let o = run(args, stdin);
    assert_eq!(o.code, 0, "stderr: {}", o.stderr);
    o
}

fn one(args: &[&str], stdin: &[u8]) -> Value {
    let o = ok(args, stdin);
    assert_eq!(o.events.len(), 1, "{}", o.stdout);
    o.events.into_iter().next().unwrap()
}

fn labels(v: &Value, series: usize) -> Vec<String> {
    points(v, series).into_iter().map(|p| p.0).collect()
}

fn values(v: &Value, series: usize) -> Vec<f64> {
    points(v, series).into_iter().map(|p| p.1).collect()
}

fn refused(o: &Out) {
    assert_eq!(o.code, 65, "stderr: {}", o.stderr);
    assert_eq!(o.stdout, "", "nothing on stdout when refused");
}

/// A scratch file removed when dropped, so big generated inputs do not
/// pile up in the temp directory.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str) -> TempFile {
        TempFile(temp_dir(name).join(name))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
        if let Some(dir) = self.0.parent() {
            let _ = fs::remove_dir(dir);
        }
    }
}

#[test]
fn bmw_style_bar() {
    let o = ok(&["testdata/bmw.csv"], b"");
    assert_eq!(
        o.stdout.lines().next().unwrap(),
        r#"{"type":"visualization","chartType":"bar","xLabel":"model","yLabel":"0-60 mph (s)","unit":"s","series":[{"name":"0-60 mph (s)","points":[{"label":"M5 CS","value":2.9},{"label":"M8 Competition Coupe","value":3.0},{"label":"M3 Competition xDrive","value":3.4},{"label":"M4 CSL","value":3.6},{"label":"i4 M50","value":3.7},{"label":"X5 M Competition","value":3.7},{"label":"M2","value":3.9}]}],"meta":{"truncated":false,"originalPointCount":7}}"#
    );
    assert_eq!(o.stderr, "");
}

#[test]
fn yearly_line_trend() {
    let v = one(&["testdata/yearly.csv"], b"");
    assert_eq!(v["chartType"], "line");
    assert_eq!(labels(&v, 0), ["2019", "2020", "2021", "2022", "2023"]);
    assert_eq!(values(&v, 0)[4], 170500.0);
    assert_eq!(v["xLabel"], "year");
}

#[test]
fn the_chart_kind_follows_the_labels() {
    for (input, kind) in [
        (
            &b"day,v\n2024-01-01,3\n2024-01-02,4\n2024-01-03,2\n"[..],
            "line",
        ),
        (b"quarter,v\nQ1 2024,3\nQ2 2024,4\nQ3 2024,2\n", "line"),
        (b"month,v\nJan,3\nFeb,4\nMar,2\n", "line"),
        (b"size,ms\n10,3\n100,4\n1000,9\n", "line"),
        (b"size,ms\n10,3\n1000,4\n100,9\n", "bar"),
        (b"model,secs\nM5 CS,2.9\nM2,3.9\n", "bar"),
    ] {
        let v = one(&[], input);
        assert_eq!(v["chartType"], kind, "{}", String::from_utf8_lossy(input));
    }
    // Asked for, it is what was asked.
    let v = one(&["--chart", "bar"], b"year,v\n2020,1\n2021,2\n");
    assert_eq!(v["chartType"], "bar");
}

#[test]
fn table_payload_sorted_as_asked() {
    let v = one(&["testdata/args_table.json"], b"");
    assert_eq!(v["chartType"], "table");
    assert_eq!(v["title"], "BMW 0-60 mph");
    assert_eq!(v["unit"], "s");
    assert_eq!(labels(&v, 0), ["M5 CS", "M8 Competition", "M2"]);
    assert_eq!(
        v["meta"],
        json!({"truncated": false, "originalPointCount": 3})
    );
}

#[test]
fn multi_series_line_accepted() {
    let v = one(
        &["-y", "north", "-y", "3", "testdata/multi_series.csv"],
        b"",
    );
    assert_eq!(v["chartType"], "line");
    assert_eq!(v["series"][0]["name"], "north");
    assert_eq!(v["series"][1]["name"], "south");
    assert_eq!(values(&v, 1), [95.0, 101.0, 110.0, 118.0]);
    assert_eq!(labels(&v, 1)[0], "2024-01");
}

#[test]
fn multi_series_table_rejected() {
    let o = run(
        &["--chart", "table", "-y", "north", "-y", "south"],
        &fs::read("testdata/multi_series.csv").unwrap(),
    );
    refused(&o);
    assert!(o.stderr.contains("takes one series"), "{}", o.stderr);
    assert!(o.stderr.contains("--chart line or bar"), "{}", o.stderr);
    assert!(o.stderr.contains("-y"), "{}", o.stderr);

    let args = json!({"chartType": "table", "series": [
        {"name": "a", "points": [{"label": "x", "value": 1}]},
        {"name": "b", "points": [{"label": "x", "value": 2}]}]});
    let o = run(&[], args.to_string().as_bytes());
    refused(&o);
    assert!(
        o.stderr.contains(r#"use chartType \"bar\", \"line\""#)
            || o.stderr.contains(r#"chartType "bar", "line""#),
        "{}",
        o.stderr
    );
}

#[test]
fn input_text_parsed_from_json() {
    let v = one(&["testdata/args_input_text.json"], b"");
    assert_eq!(v["chartType"], "bar");
    assert_eq!(v["unit"], "s");
    assert_eq!(
        points(&v, 0),
        [("M5 CS".into(), 2.9), ("M8 Competition".into(), 3.0)]
    );
}

#[test]
fn markdown_table_with_prose_around() {
    let v = one(&["testdata/table.md"], b"");
    assert_eq!(labels(&v, 0), ["M5 CS", "M8 | Competition", "M2"]);
    assert_eq!(values(&v, 0), [2.9, 3.0, 3.9]);
    assert_eq!(v["unit"], "s");
    assert_eq!(v["xLabel"], "Model");
}

#[test]
fn csv_dialects() {
    let want = [
        ("M5 CS".to_string(), 2.9),
        ("M8 Competition".to_string(), 3.0),
    ];
    let v = one(&["testdata/pipes.csv"], b"");
    assert_eq!(points(&v, 0), want);
    // BOM, CRLF, semicolons, decimal commas, a quoted delimiter.
    let v = one(&["testdata/bom_crlf_semicolon.csv"], b"");
    assert_eq!(
        points(&v, 0),
        [
            ("M5 CS".to_string(), 2.9),
            ("M8; Competition".to_string(), 3.0)
        ]
    );
    assert_eq!(v["xLabel"], "model");
    // TSV with quoted thousands.
    let v = one(&["testdata/sales.tsv"], b"");
    assert_eq!(values(&v, 0), [1200.0, 980.0, 1530.0, 760.0]);
    assert_eq!(v["yLabel"], "Q1 sales");
    // Headerless.
    let v = one(&["testdata/headerless.csv"], b"");
    assert_eq!(labels(&v, 0), ["M5 CS", "M8 Competition", "M2"]);
    assert!(v.get("xLabel").is_none());
    // Quoted delimiters and newlines inside fields; a quote mid-field is text.
    let v = one(
        &[],
        b"name,notes,v\n\"multi\nline\",x,1\n12\" screen,\"a,b\",2\n",
    );
    assert_eq!(
        points(&v, 0),
        [
            ("multi\nline".to_string(), 1.0),
            ("12\" screen".to_string(), 2.0)
        ]
    );
    // Forced format and delimiter.
    let v = one(
        &["--format", "csv", "-d", ";", "--no-header"],
        b"a;1\nb;2\n",
    );
    assert_eq!(
        points(&v, 0),
        [("a".to_string(), 1.0), ("b".to_string(), 2.0)]
    );
}

#[test]
fn json_shapes() {
    let want = [
        ("M5 CS".to_string(), 2.9),
        ("M8 Competition".to_string(), 3.0),
    ];
    let v = one(&["testdata/bmw_map.json"], b"");
    assert_eq!(points(&v, 0)[..2], want);
    let v = one(&["testdata/pairs.json"], b"");
    assert_eq!(points(&v, 0)[..2], want);
    assert_eq!(values(&v, 0)[2], 3.9);
    let v = one(&["-y", "secs", "testdata/models.json"], b"");
    assert_eq!(points(&v, 0)[..2], want);
    assert_eq!(v["xLabel"], "model");
    let v = one(
        &[],
        br#"{"data": [{"k": "a", "v": 1}, {"k": "b", "v": 2}]}"#,
    );
    assert_eq!(
        points(&v, 0),
        [("a".to_string(), 1.0), ("b".to_string(), 2.0)]
    );
    let v = one(&[], b"[3, 1, 2]");
    assert_eq!(labels(&v, 0), ["1", "2", "3"]);
    assert_eq!(v["chartType"], "line");
}

#[test]
fn json_lines_of_records_stream() {
    let o = ok(&["-y", "secs", "testdata/models.jsonl"], b"");
    let v = &o.events[0];
    assert_eq!(v["unit"], "s");
    assert_eq!(
        labels(v, 0),
        ["M5 CS", "M8 Competition", "M3 Competition", "i4 M50"]
    );
    assert!(
        o.stderr.contains("line 4, column \"secs\": no value"),
        "{}",
        o.stderr
    );
}

#[test]
fn prose_rejected_with_guidance() {
    let o = run(&["testdata/prose.txt"], b"");
    refused(&o);
    for want in [
        "saw 2 lines of text",
        "The BMW M5 CS does 0-60",
        "CSV or TSV",
        "JSON object",
        "JSON records",
        "JSON pairs",
        "Markdown table",
        "label: value",
        "tool arguments",
        "event stream",
    ] {
        assert!(o.stderr.contains(want), "missing {want:?} in {}", o.stderr);
    }
    // Prose with commas splits evenly but holds no numbers.
    refused(&run(&[], b"Hello, world\nHow are you, today\n"));
    refused(&run(&[], b""));
    refused(&run(&[], b"   \n\n"));
}

#[test]
fn sort_order() {
    let v = one(&["--sort", "desc", "testdata/bmw.csv"], b"");
    let vals = values(&v, 0);
    assert_eq!(vals[0], 3.9);
    assert!(vals.windows(2).all(|w| w[0] >= w[1]), "{vals:?}");
    let v = one(&["--sort", "asc", "testdata/bmw_map.json"], b"");
    assert_eq!(values(&v, 0), [2.9, 3.0, 3.4]);
    // A line keeps input order whatever the sort.
    let v = one(&["--sort", "desc", "testdata/yearly.csv"], b"");
    assert_eq!(labels(&v, 0), ["2019", "2020", "2021", "2022", "2023"]);
}

fn rows(n: usize, f: impl Fn(usize) -> f64) -> Vec<u8> {
    let mut s = String::from("item,value\n");
    for i in 0..n {
        s.push_str(&format!("item {i},{}\n", f(i)));
    }
    s.into_bytes()
}

#[test]
fn truncation_of_bar_and_table() {
    // 100 items, value = i: the top 10 are items 90..99, largest first
    // (issue 33: a dataset's bars with no flag come largest first).
    let input = rows(100, |i| i as f64);
    let v = one(&["--max-points", "10"], &input);
    assert_eq!(v["chartType"], "bar");
    assert_eq!(labels(&v, 0)[0], "item 99");
    assert_eq!(labels(&v, 0).len(), 10);
    assert_eq!(
        v["meta"],
        json!({"truncated": true, "originalPointCount": 100, "reduction": "top"})
    );
    // Negative values count by magnitude.
    let v = one(&["--max-points", "2"], b"a,-50\nb,10\nc,20\n");
    assert_eq!(labels(&v, 0), ["a", "c"]);
    let v = one(
        &["--max-points", "3", "--keep", "last", "--chart", "table"],
        &input,
    );
    assert_eq!(labels(&v, 0), ["item 97", "item 98", "item 99"]);
    assert_eq!(v["meta"]["reduction"], "last");
    let v = one(&["--max-points", "3", "--keep", "first"], &input);
    assert_eq!(labels(&v, 0), ["item 0", "item 1", "item 2"]);
    // Default 30, hard cap 200.
    let v = one(&[], &input);
    assert_eq!(labels(&v, 0).len(), 30);
    let big = rows(500, |i| i as f64);
    let o = ok(&["--max-points", "1000"], &big);
    assert_eq!(labels(&o.events[0], 0).len(), 200);
    assert!(o.stderr.contains("above the cap"), "{}", o.stderr);
}

#[test]
fn line_downsampling_keeps_first_and_last() {
    let mut s = String::from("t,v\n");
    for i in 0..1000 {
        s.push_str(&format!("{i},{}\n", (i % 17) as f64));
    }
    let v = one(
        &["--max-points", "20", "--downsample", "even"],
        s.as_bytes(),
    );
    assert_eq!(v["chartType"], "line");
    let l = labels(&v, 0);
    assert_eq!(l.len(), 20);
    assert_eq!(l[0], "0");
    assert_eq!(l[19], "999");
    assert_eq!(
        v["meta"],
        json!({"truncated": true, "originalPointCount": 1000, "reduction": "even"})
    );
    let v = one(
        &["--max-points", "20", "--downsample", "lttb"],
        s.as_bytes(),
    );
    assert_eq!(v["meta"]["reduction"], "lttb");
    assert!(labels(&v, 0).len() <= 20);
}

#[test]
fn units_and_non_finite_values() {
    let o = ok(
        &[],
        b"item,price\na,\"$1,200\"\nb,$950\nc,inf\nd,1e400\ne,NaN\n",
    );
    let v = &o.events[0];
    assert_eq!(v["unit"], "$");
    assert_eq!(points(v, 0), [("a".into(), 1200.0), ("b".into(), 950.0)]);
    for line in ["line 4", "line 5", "line 6"] {
        assert!(o.stderr.contains(line), "{line}: {}", o.stderr);
    }
    let v = one(&[], b"k,share\na,12%\nb,30%\n");
    assert_eq!(v["unit"], "%");
    // --unit wins; mixed units are reported and dropped.
    let v = one(&["--unit", "sec"], b"k,t\na,4.2s\nb,5s\n");
    assert_eq!(v["unit"], "sec");
    let o = ok(&[], b"k,t\na,4.2s\nb,300ms\n");
    assert!(o.events[0].get("unit").is_none());
    assert!(o.stderr.contains("mixes units (s, ms)"), "{}", o.stderr);
    // Numbers as people write them.
    let v = one(&[], b"k,v\na,\"1,234\"\nb,-3\nc,1e6\n");
    assert_eq!(values(&v, 0), [1234.0, -3.0, 1e6]);
}

#[test]
fn na_rows_skipped_with_capped_warnings() {
    let o = ok(&["testdata/with_na.csv"], b"");
    assert_eq!(values(&o.events[0], 0), [2.9, 3.9]);
    assert_eq!(
        o.stderr,
        "viz-parse: warning: testdata/with_na.csv: line 3, column \"secs\": no value (\"N/A\"); row skipped\n\
         viz-parse: warning: testdata/with_na.csv: line 4, column \"secs\": no value; row skipped\n"
    );
    let mut s = String::from("k,v\na,1\n");
    for i in 0..12 {
        s.push_str(&format!("x{i},N/A\n"));
    }
    let o = ok(&[], s.as_bytes());
    assert_eq!(o.stderr.lines().count(), 6, "{}", o.stderr);
    assert!(
        o.stderr
            .ends_with("viz-parse: warning: <stdin>: 7 more rows skipped\n"),
        "{}",
        o.stderr
    );
    // --strict makes a skipped row an error.
    refused(&run(&["--strict", "testdata/with_na.csv"], b""));
    // Nothing left.
    let o = run(&[], b"k,v\na,1\nb,N/A\n".as_slice());
    assert_eq!(o.code, 0);
    let o = run(&["-y", "v"], b"k,v,w\na,N/A,1\nb,-,2\n");
    refused(&o);
    assert!(
        o.stderr.contains("no row has a number in column \"v\""),
        "{}",
        o.stderr
    );
}

#[test]
fn long_format_one_series_per_value() {
    let v = one(
        &[
            "-s",
            "symbol",
            "-x",
            "date",
            "-y",
            "price",
            "testdata/prices_long.csv",
        ],
        b"",
    );
    assert_eq!(v["chartType"], "line");
    assert_eq!(v["series"][0]["name"], "AAPL");
    assert_eq!(v["series"][1]["name"], "MSFT");
    assert_eq!(values(&v, 1), [370.87, 370.6, 367.94, 367.75]);
    assert_eq!(labels(&v, 0)[0], "2024-01-02");
    // Without -y: the first numeric column.
    let v = one(&["-s", "1", "testdata/prices_long.csv"], b"");
    assert_eq!(v["series"].as_array().unwrap().len(), 2);
    let o = run(
        &[
            "-s",
            "symbol",
            "--chart",
            "table",
            "testdata/prices_long.csv",
        ],
        b"",
    );
    refused(&o);
    assert!(
        o.stderr.contains(
            "a table chart takes one series, but --series \"symbol\" gives 2 (AAPL, MSFT): \
             use --chart line or bar for several series, or leave out --series"
        ),
        "{}",
        o.stderr
    );
    // Too many series.
    let mut s = String::from("s,x,v\n");
    for i in 0..60 {
        s.push_str(&format!("s{i},1,{i}\n"));
    }
    let o = run(&["-s", "s"], s.as_bytes());
    refused(&o);
    assert!(o.stderr.contains("more than 50"), "{}", o.stderr);
}

#[test]
fn columns_by_name_or_number() {
    let v = one(&["-x", "2", "-y", "hp"], b"hp,model\n627,M5 CS\n");
    assert_eq!(points(&v, 0), [("M5 CS".into(), 627.0)]);
    let o = run(&["-y", "torque", "testdata/models.json"], b"");
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains(r#"1:"model", 2:"hp", 3:"secs""#),
        "{}",
        o.stderr
    );
    assert_eq!(o.stdout, "");
}

#[test]
fn event_stream_passthrough_is_byte_identical() {
    let input = fs::read_to_string("testdata/gemini_stream.jsonl").unwrap();
    let o = ok(&[], input.as_bytes());
    let got: Vec<&str> = o.stdout.lines().collect();
    let want: Vec<&str> = input.lines().collect();
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        if w.contains("\"render_visualization\"") {
            let v: Value = serde_json::from_str(g).unwrap();
            assert_eq!(v["type"], "visualization");
            assert_eq!(v["timestamp"], "2026-03-01T10:00:02.000Z");
            assert_eq!(points(&v, 0)[0], ("M5 CS".to_string(), 2.9));
        } else {
            assert_eq!(g, w, "line {}", i + 1);
        }
    }
    assert_eq!(o.stderr, "");
}

#[test]
fn garbage_line_in_a_stream_is_a_warning() {
    let input = "{\"type\":\"message\",\"role\":\"assistant\",\"content\":\"a\"}\n\
                 not json at all\n\
                 [1,2]\n\
                 {\"type\":\"zzz\",\"b\":1,\"a\":2}\n";
    let o = ok(&[], input.as_bytes());
    assert_eq!(
        o.stdout,
        "{\"type\":\"message\",\"role\":\"assistant\",\"content\":\"a\"}\n{\"type\":\"zzz\",\"b\":1,\"a\":2}\n"
    );
    assert!(o.stderr.contains("line 2: not JSON"), "{}", o.stderr);
    assert!(
        o.stderr.contains("line 3: expected a JSON object"),
        "{}",
        o.stderr
    );
    let o = run(&["--strict"], input.as_bytes());
    assert_eq!(o.code, 65);
    assert!(o.stderr.contains("line 2"), "{}", o.stderr);
    // A bad render_visualization call is reported and passed on unchanged.
    let bad = r#"{"type":"tool_use","tool_name":"render_visualization","tool_id":"x","parameters":{"chartType":"pie"}}"#;
    let o = ok(&[], format!("{bad}\n").as_bytes());
    assert_eq!(o.stdout.trim_end(), bad);
    assert!(o.stderr.contains("chartType"), "{}", o.stderr);
}

#[test]
fn several_inputs_give_a_chart_each_in_order() {
    let o = run(
        &[
            "testdata/bmw_map.json",
            "does/not/exist.csv",
            "testdata/yearly.csv",
        ],
        b"",
    );
    assert_eq!(o.code, 66);
    assert_eq!(o.events.len(), 2);
    assert_eq!(o.events[0]["chartType"], "bar");
    assert_eq!(o.events[1]["chartType"], "line");
    assert!(o.stderr.contains("does/not/exist.csv"), "{}", o.stderr);
    let o = run(&["testdata/yearly.csv", "-"], b"a,1\nb,2\n");
    assert_eq!(o.events.len(), 2);
    assert_eq!(o.code, 0);
}

#[test]
fn control_characters_never_reach_stderr_raw() {
    let o = ok(&[], b"k,v\na,1\nb,\x1b[31mred\n");
    assert!(!o.stderr.contains('\x1b'), "{:?}", o.stderr);
    assert!(o.stderr.contains("line 3"), "{}", o.stderr);
}

#[test]
fn closed_pipe_ends_quietly() {
    let file = TempFile::new("many-events.jsonl");
    let path = &file.0;
    {
        let mut f = std::io::BufWriter::new(fs::File::create(path).unwrap());
        for i in 0..200_000 {
            writeln!(
                f,
                r#"{{"type":"message","role":"assistant","content":"{i}","delta":true}}"#
            )
            .unwrap();
        }
    }
    let mut child = Command::new(assert_cmd::cargo::cargo_bin!("viz-parse"))
        .arg(path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains("\"content\":\"0\""), "{first}");
    // stdout dropped above: the pipe is closed.
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// `n` generated rows in a temp file.
fn big_input(name: &str, n: usize, f: impl Fn(usize) -> f64) -> TempFile {
    let file = TempFile::new(name);
    let mut w = std::io::BufWriter::new(fs::File::create(&file.0).unwrap());
    writeln!(w, "x,y").unwrap();
    for i in 0..n {
        writeln!(w, "{i},{}", f(i)).unwrap();
    }
    w.flush().unwrap();
    file
}

/// The values of a line chart drawn from `file`.
fn big_line(file: &TempFile, n: usize, args: &[&str]) -> Vec<f64> {
    let mut all = vec!["--chart", "line"];
    all.extend_from_slice(args);
    let p = file.0.to_str().unwrap().to_string();
    all.push(&p);
    let v = one(&all, b"");
    assert_eq!(v["meta"]["originalPointCount"], n);
    values(&v, 0)
}

#[test]
fn a_spike_in_a_million_rows_survives_minmax_and_lttb() {
    let spike = |i: usize| if i == 654_321 { 1000.0 } else { (i % 7) as f64 };
    let file = big_input("spike.csv", 1_000_000, spike);
    for method in ["minmax", "lttb"] {
        let vals = big_line(&file, 1_000_000, &["--downsample", method]);
        assert!(vals.len() <= 200, "{method}: {}", vals.len());
        assert!(vals.contains(&1000.0), "{method} lost the spike: {vals:?}");
    }
}

#[test]
fn a_million_point_sine_keeps_its_thirty_peaks() {
    let n = 1_000_000;
    let sine = move |i: usize| (2.0 * std::f64::consts::PI * 30.0 * i as f64 / n as f64).sin();
    let file = big_input("sine.csv", n, sine);
    for method in ["minmax", "lttb"] {
        let vals = big_line(&file, n, &["--downsample", method, "--max-points", "200"]);
        assert!(vals.len() <= 200);
        // Each positive half-period is one run of positive values whose top
        // must still be near the crest.
        let mut peaks = 0;
        let mut top = f64::MIN;
        let mut inside = false;
        for &v in &vals {
            if v > 0.0 {
                inside = true;
                top = top.max(v);
            } else if inside {
                assert!(top > 0.9, "{method}: a flattened peak ({top})");
                peaks += 1;
                inside = false;
                top = f64::MIN;
            }
        }
        if inside && top > 0.9 {
            peaks += 1;
        }
        assert_eq!(peaks, 30, "{method}: {vals:?}");
    }
}

#[test]
fn a_stream_whose_first_line_is_garbage_is_still_a_stream() {
    let o = ok(
        &[],
        b"oops\n{\"type\":\"message\",\"role\":\"assistant\",\"content\":\"x\"}\n",
    );
    assert_eq!(
        o.stdout,
        "{\"type\":\"message\",\"role\":\"assistant\",\"content\":\"x\"}\n"
    );
    assert!(o.stderr.contains("line 1: not JSON"), "{}", o.stderr);
}

#[test]
fn pretty_printed_documents_one_after_another() {
    // `jq '.[]' models.json` output: records, not one document.
    let input = b"{\n  \"model\": \"M5 CS\",\n  \"secs\": 2.9\n}\n{\n  \"model\": \"M2\",\n  \"secs\": 3.9\n}\n";
    let v = one(&[], input);
    assert_eq!(points(&v, 0), [("M5 CS".into(), 2.9), ("M2".into(), 3.9)]);
    // Pretty-printed events are events.
    let input = b"{\n \"type\": \"topic\",\n \"title\": \"A\"\n}\n{\n \"type\": \"tool_use\", \"tool_name\": \"render_visualization\", \"tool_id\": \"1\",\n \"parameters\": {\"chartType\": \"bar\", \"series\": [{\"name\": \"s\", \"points\": [{\"label\": \"a\", \"value\": 1}]}]}\n}\n";
    let o = ok(&[], input);
    assert_eq!(o.events.len(), 2);
    assert_eq!(o.events[0], json!({"type": "topic", "title": "A"}));
    assert_eq!(o.events[1]["type"], "visualization");
}

#[test]
fn label_colon_value_lines() {
    let v = one(&[], b"M5 CS: 2.9s\nM8 Competition: 3.0s\n");
    assert_eq!(
        points(&v, 0),
        [("M5 CS".into(), 2.9), ("M8 Competition".into(), 3.0)]
    );
    assert_eq!(v["unit"], "s");
    refused(&run(&[], b"We meet at 12:30\n"));
}
