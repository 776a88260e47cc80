//! Live charts end to end: `viz-parse --follow | viz-render --live` in a
//! real terminal (tmux), fed a stream the test writes line by line through
//! a FIFO, so each screen is known exactly: the chart is redrawn in place
//! (the screen never scrolls, the frame changes), the footer's statistics,
//! a resize, Ctrl-C. Then the pipe mode (one final chart per id, also at
//! SIGINT) and viz-parse --follow's readers, `--extract` on real ping
//! output and a real build log.

use crate::support::{temp_dir, tmux};

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::{cargo_bin, cargo_bin_cmd};
use serde_json::Value;
use tmux::{PATIENCE, Tmux};

const FOLLOW: &[&str] = &[
    "--follow", "--window", "40", "--title", "Live", "--unit", "ms",
];

/// The frame `viz-render` draws for the stream `values` once it ended,
/// at `width`: what the live screen must show when it has read them.
fn expected(values: &[&str], width: u16) -> Vec<String> {
    let events = cargo_bin_cmd!("viz-parse")
        .args(FOLLOW)
        .write_stdin(format!("{}\n", values.join("\n")))
        .output()
        .unwrap();
    assert!(events.status.success());
    drawn(&events.stdout, width)
}

/// `viz-render` of events into a pipe, as lines without trailing blanks.
fn drawn(events: &[u8], width: u16) -> Vec<String> {
    let out = cargo_bin_cmd!("viz-render")
        .args(["--width", &width.to_string(), "--color", "never"])
        .env("LC_ALL", "C.UTF-8")
        .write_stdin(events.to_vec())
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// The pane's script: the FIFO through the pipeline, then the exit codes.
fn pipeline_script(dir: &Path, viz_parse: bool) -> String {
    let parse = if viz_parse {
        format!(
            "{} {} | ",
            cargo_bin!("viz-parse").display(),
            FOLLOW.join(" ")
        )
    } else {
        String::new()
    };
    format!(
        "trap 'true' INT\ncat {fifo} | {parse}{render} --live --fps 20\necho \"rc=${{PIPESTATUS[*]}}\" > {rc}\n",
        fifo = dir.join("in").display(),
        render = cargo_bin!("viz-render").display(),
        rc = dir.join("rc").display(),
    )
}

/// A pane running the pipeline, and the FIFO the test writes the stream to.
fn live_pane(name: &str, cols: u16, rows: u16, viz_parse: bool) -> (Tmux, File) {
    let dir = temp_dir(name);
    let fifo = dir.join("in");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo with a valid path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let script = pipeline_script(&dir, viz_parse);
    let pane = Tmux::script(&dir, cols, rows, &script);
    // Non-blocking, an open for writing fails until `cat` opens the other
    // end; once open, writes block as usual.
    let start = Instant::now();
    let file = loop {
        match OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo)
        {
            Ok(f) => break f,
            Err(e) if e.raw_os_error() == Some(libc::ENXIO) && start.elapsed() < PATIENCE => {
                std::thread::sleep(Duration::from_millis(20))
            }
            Err(e) => panic!(
                "the pane never read the FIFO: {e}\n{}",
                pane.rows().join("\n")
            ),
        }
    };
    use std::os::fd::AsRawFd;
    // SAFETY: clearing O_NONBLOCK on a descriptor we own.
    unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETFL, 0) };
    (pane, file)
}

fn send(fifo: &mut File, values: &[&str]) {
    fifo.write_all(format!("{}\n", values.join("\n")).as_bytes())
        .unwrap();
    fifo.flush().unwrap();
}

fn starts_with(screen: &[String], frame: &[String]) -> bool {
    screen.len() >= frame.len() && screen[..frame.len()] == *frame
}

#[test]
fn the_chart_is_redrawn_in_place_with_its_statistics() {
    if !tmux::available("the_chart_is_redrawn_in_place_with_its_statistics") {
        return;
    }
    let (pane, mut fifo) = live_pane("inplace", 90, 40, true);
    send(&mut fifo, &["2", "4", "6", "8"]);
    let a = expected(&["2", "4", "6", "8"], 90);
    assert_eq!(a[0], "Live");
    assert_eq!(
        a.last().unwrap(),
        "value  last 8 ms  min 2 ms  max 8 ms  mean 5 ms",
        "the footer's statistics"
    );
    let first = pane.wait_rows("the first frame", |s| starts_with(s, &a));
    assert!(first[a.len()..].iter().all(String::is_empty), "{first:#?}");
    assert_eq!(
        pane.var("cursor_flag"),
        "0",
        "the cursor is hidden while live"
    );

    send(&mut fifo, &["10", "1"]);
    let all = ["2", "4", "6", "8", "10", "1"];
    let b = expected(&all, 90);
    assert_ne!(a, b);
    assert_eq!(
        b.last().unwrap(),
        "value  last 1.00 ms  min 1.00 ms  max 10.00 ms  mean 5.17 ms"
    );
    let second = pane.wait_rows("the second frame, in place", |s| starts_with(s, &b));
    assert!(
        second[b.len()..].iter().all(String::is_empty),
        "{second:#?}"
    );
    assert_eq!(
        pane.var("history_size"),
        "0",
        "nothing scrolled off the screen"
    );

    drop(fifo);
    let rc = pane.wait_file(&pane.dir.join("rc"));
    assert_eq!(rc.trim(), "rc=0 0 0");
    let last = pane.rows();
    assert!(starts_with(&last, &b), "the final frame, whole: {last:#?}");
    assert_eq!(last.iter().filter(|l| *l == "Live").count(), 1);
    assert_eq!(pane.var("history_size"), "0");
    assert_eq!(pane.var("cursor_flag"), "1", "the cursor is back");
}

#[test]
fn a_resize_redraws_at_the_new_width() {
    if !tmux::available("a_resize_redraws_at_the_new_width") {
        return;
    }
    let (pane, mut fifo) = live_pane("resize", 90, 44, true);
    let values = ["3", "1", "4", "1", "5", "9", "2", "6"];
    send(&mut fifo, &values);
    let wide = expected(&values, 90);
    pane.wait_rows("the frame at 90 columns", |s| starts_with(s, &wide));

    pane.resize(60, 44);
    let narrow = expected(&values, 60);
    assert_ne!(wide, narrow);
    let s = pane.wait_rows("the frame at 60 columns", |s| {
        starts_with(s, &narrow) && s[narrow.len()..].iter().all(String::is_empty)
    });
    assert_eq!(s.iter().filter(|l| *l == "Live").count(), 1, "{s:#?}");

    pane.resize(100, 44);
    let wider = expected(&values, 100);
    pane.wait_rows("the frame at 100 columns", |s| {
        starts_with(s, &wider) && s[wider.len()..].iter().all(String::is_empty)
    });
    drop(fifo);
    assert_eq!(pane.wait_file(&pane.dir.join("rc")).trim(), "rc=0 0 0");
}

#[test]
fn ctrl_c_leaves_the_last_frame_and_the_cursor_and_exits_130() {
    if !tmux::available("ctrl_c_leaves_the_last_frame_and_the_cursor_and_exits_130") {
        return;
    }
    let (pane, mut fifo) = live_pane("ctrlc", 90, 40, true);
    let values = ["12", "15", "11", "14"];
    send(&mut fifo, &values);
    let frame = expected(&values, 90);
    pane.wait_rows("the frame", |s| starts_with(s, &frame));
    pane.keys(&["C-c"]);
    let rc = pane.wait_file(&pane.dir.join("rc"));
    let codes: Vec<&str> = rc.trim().trim_start_matches("rc=").split(' ').collect();
    assert_eq!(codes[1..], ["130", "130"], "viz-parse and viz-render: {rc}");
    let s = pane.rows();
    assert!(starts_with(&s, &frame), "the last frame stays: {s:#?}");
    assert_eq!(s.iter().filter(|l| *l == "Live").count(), 1);
    assert!(
        s.iter().all(|l| !l.contains("^[") && !l.contains('\u{1b}')),
        "no escape shows: {s:#?}"
    );
    assert_eq!(pane.var("cursor_flag"), "1", "the cursor is back");
    assert_eq!(pane.var("history_size"), "0");
}

/// A live event as viz-parse writes it, by hand.
fn live_event(id: &str, title: &str, values: &[f64]) -> String {
    let points: Vec<Value> = values
        .iter()
        .enumerate()
        .map(|(i, v)| serde_json::json!({"label": (i + 1).to_string(), "value": v}))
        .collect();
    serde_json::json!({"type": "visualization", "id": id, "live": true, "chartType": "line",
        "title": title, "unit": "ms", "series": [{"name": "value", "points": points}],
        "meta": {"truncated": false, "originalPointCount": values.len()}})
    .to_string()
}

fn message(text: &str) -> String {
    serde_json::json!({"type": "message", "role": "assistant", "content": text}).to_string()
}

#[test]
fn text_streams_above_the_live_chart() {
    if !tmux::available("text_streams_above_the_live_chart") {
        return;
    }
    let (pane, mut fifo) = live_pane("text", 80, 40, false);
    let chart1 = live_event("q", "Queue", &[1.0, 2.0]);
    send(&mut fifo, &[&message("first line of text"), &chart1]);
    let frame1 = drawn(chart1.as_bytes(), 80);
    pane.wait_rows("text, a blank line, the chart", |s| {
        s[0] == "first line of text" && s[1].is_empty() && starts_with(&s[2..], &frame1)
    });
    let chart2 = live_event("q", "Queue", &[1.0, 2.0, 7.0]);
    send(&mut fifo, &[&message("second"), &chart2]);
    let frame2 = drawn(chart2.as_bytes(), 80);
    let s = pane.wait_rows("more text above, the chart updated below", |s| {
        s[0] == "first line of text"
            && s[1] == "second"
            && s[2].is_empty()
            && starts_with(&s[3..], &frame2)
    });
    assert!(s[3 + frame2.len()..].iter().all(String::is_empty), "{s:#?}");
    drop(fifo);
    assert_eq!(pane.wait_file(&pane.dir.join("rc")).trim(), "rc=0 0");
}

#[test]
fn into_a_pipe_each_live_chart_is_drawn_once_at_the_end() {
    let stream = [
        live_event("a", "Alpha", &[1.0]),
        message("hello"),
        live_event("b", "Beta", &[5.0]),
        live_event("a", "Alpha", &[1.0, 2.0]),
        live_event("b", "Beta", &[5.0, 6.0, 7.0]),
        live_event("a", "Alpha", &[1.0, 2.0, 3.0]),
    ]
    .join("\n");
    for live in [true, false] {
        let mut cmd = cargo_bin_cmd!("viz-render");
        cmd.args(["--width", "60", "--color", "never"]);
        if live {
            cmd.arg("--live");
        }
        let out = cmd.write_stdin(stream.clone()).output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "hello");
        assert_eq!(lines.iter().filter(|l| **l == "Alpha").count(), 1, "{text}");
        assert_eq!(lines.iter().filter(|l| **l == "Beta").count(), 1, "{text}");
        assert!(
            text.contains("value  last 3 ms  min 1 ms  max 3 ms  mean 2 ms"),
            "Alpha's final state: {text}"
        );
        assert!(
            text.contains("value  last 7 ms  min 5 ms  max 7 ms  mean 6 ms"),
            "Beta's final state: {text}"
        );
        assert!(
            text.find("Alpha").unwrap() < text.find("Beta").unwrap(),
            "in the order the ids came"
        );
        assert!(!text.contains('\u{1b}'), "no escape into a pipe");
    }
}

/// Reads a child's stdout until `want` shows; returns what was read.
fn read_until(r: &mut impl BufRead, want: &str) -> String {
    let mut seen = String::new();
    let mut line = String::new();
    while !seen.contains(want) {
        line.clear();
        if r.read_line(&mut line).unwrap() == 0 {
            panic!("output ended before {want:?}: {seen}");
        }
        seen.push_str(&line);
    }
    seen
}

fn interrupt(child: &std::process::Child) {
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
}

#[test]
fn into_a_pipe_sigint_draws_the_final_charts_and_exits_130() {
    let mut child = Command::new(cargo_bin!("viz-render"))
        .args(["--live", "--width", "60", "--color", "never"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stream = [
        live_event("a", "Alpha", &[4.0]),
        live_event("a", "Alpha", &[4.0, 8.0]),
        message("text streams\n"),
    ]
    .join("\n");
    stdin.write_all(format!("{stream}\n").as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    // The text shows at once; the chart waits for the end.
    let before = read_until(&mut out, "text streams");
    assert!(!before.contains("Alpha"));
    interrupt(&child);
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert_eq!(rest.lines().filter(|l| *l == "Alpha").count(), 1, "{rest}");
    assert!(
        rest.contains("last 8 ms  min 4 ms  max 8 ms  mean 6 ms"),
        "{rest}"
    );
    drop(stdin);
}

#[test]
fn follow_writes_a_last_update_at_sigint_and_exits_130() {
    let mut child = Command::new(cargo_bin!("viz-parse"))
        .args(["--follow", "--interval", "1h"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut err = BufReader::new(child.stderr.take().unwrap());
    stdin.write_all(b"1\n").unwrap();
    stdin.flush().unwrap();
    // The first change is written at once; the next waits for the hour.
    let first = read_until(&mut out, "\n");
    // A line it cannot read after the numbers: its warning (written at
    // once) says the numbers were read.
    stdin.write_all(b"2\n3\noops 5 6\n").unwrap();
    stdin.flush().unwrap();
    read_until(&mut err, "line 4: cannot read");
    interrupt(&child);
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(130));
    let values = |line: &str| -> Vec<f64> {
        let v: Value = serde_json::from_str(line).unwrap();
        v["series"][0]["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["value"].as_f64().unwrap())
            .collect()
    };
    assert_eq!(values(first.trim()), vec![1.0]);
    let last = rest.lines().last().expect("a last update at SIGINT");
    assert_eq!(values(last), vec![1.0, 2.0, 3.0]);
    drop(stdin);
}

/// Every event viz-parse --follow writes for `input` with `args`.
fn follow(args: &[&str], input: &str) -> (Vec<Value>, String) {
    let out = cargo_bin_cmd!("viz-parse")
        .arg("--follow")
        .args(args)
        .write_stdin(input.to_string())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let events = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (events, String::from_utf8(out.stderr).unwrap())
}

/// (series name, values) of an event.
fn series(e: &Value) -> Vec<(String, Vec<f64>)> {
    e["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["points"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p["value"].as_f64().unwrap())
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn extract_reads_real_ping_output() {
    let text = std::fs::read_to_string("testdata/ping.txt").unwrap();
    let want: Vec<f64> = text
        .lines()
        .filter_map(|l| l.split("time=").nth(1))
        .map(|t| t.trim_end_matches(" ms").parse().unwrap())
        .collect();
    assert_eq!(want.len(), 20);
    let out = cargo_bin_cmd!("viz-parse")
        .args([
            "--follow",
            "--extract",
            r"time=(?P<rtt>[0-9.]+ ms)",
            "testdata/ping.txt",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "lines it does not match are no warning"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["id"], "ping");
    assert_eq!(last["live"], true);
    assert_eq!(last["unit"], "ms");
    assert_eq!(series(&last), vec![("rtt".to_string(), want)]);
}

#[test]
fn follow_reads_csv_json_lines_label_value_and_plain_columns() {
    let (e, _) = follow(&[], "time,rps,p99\n12:00:01,100,35ms\n12:00:02,120,40ms\n");
    let last = e.last().unwrap();
    assert_eq!(
        series(last),
        vec![
            ("rps".into(), vec![100.0, 120.0]),
            ("p99".into(), vec![35.0, 40.0])
        ]
    );
    assert_eq!(last["id"], "stdin");

    let (e, _) = follow(&["--columns", "a,b", "--id", "load"], "1\t2\n3\t4\n");
    assert_eq!(e.last().unwrap()["id"], "load");
    assert_eq!(
        series(e.last().unwrap()),
        vec![("a".into(), vec![1.0, 3.0]), ("b".into(), vec![2.0, 4.0])]
    );

    let (e, _) = follow(&[], "{\"loss\": 0.5}\nloss: 0.25\nloss=0.125\n");
    assert_eq!(
        series(e.last().unwrap()),
        vec![("loss".into(), vec![0.5, 0.25, 0.125])]
    );

    // vmstat's two header lines, then rows; -y keeps some columns.
    let vmstat = "procs -----------memory---------- ---cpu---\n r  b   free us id\n 1  0 812344  3 97\n 2  0 812000  5 95\n";
    let (e, _) = follow(&["-y", "us", "-y", "id"], vmstat);
    assert_eq!(
        series(e.last().unwrap()),
        vec![
            ("us".into(), vec![3.0, 5.0]),
            ("id".into(), vec![97.0, 95.0])
        ]
    );
}

#[test]
fn the_window_keeps_the_last_points_and_the_footer_says_so() {
    let input: String = (1..=500).map(|i| format!("{i}\n")).collect();
    let (e, _) = follow(&["--window", "50"], &input);
    let last = e.last().unwrap();
    let values = &series(last)[0].1;
    assert_eq!(values.len(), 50);
    assert_eq!(values[0], 451.0);
    assert_eq!(last["meta"]["originalPointCount"], 500);
    assert_eq!(last["meta"]["reduction"], "last");
    let drawn = drawn(serde_json::to_string(last).unwrap().as_bytes(), 80);
    assert!(
        drawn
            .iter()
            .any(|l| l == "showing 50 of 500 points, the last in input order"),
        "{drawn:#?}"
    );
}

#[test]
fn unreadable_lines_are_warned_about_once_not_per_line() {
    let mut input = String::new();
    for i in 0..1000 {
        input.push_str(&format!("some prose line number {i} here\n"));
    }
    input.push_str("42\n");
    let (e, err) = follow(&[], &input);
    assert_eq!(
        series(e.last().unwrap()),
        vec![("value".into(), vec![42.0])]
    );
    let warnings: Vec<&str> = err.lines().collect();
    assert_eq!(warnings.len(), 2, "{err}");
    assert!(
        warnings[0].starts_with(
            "viz-parse: warning: <stdin>: line 1: cannot read \"some prose line number 0 here\""
        ),
        "{err}"
    );
    assert_eq!(
        warnings[1],
        "viz-parse: warning: <stdin>: 999 more lines could not be read (1000 in all)"
    );
    // --strict: the first is an error.
    let out = cargo_bin_cmd!("viz-parse")
        .args(["--follow", "--strict"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(65));
}

#[test]
fn a_stream_without_numbers_is_exit_65() {
    let out = cargo_bin_cmd!("viz-parse")
        .args(["--follow", "--extract", "nothing=([0-9]+)"])
        .write_stdin("a\nb\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(65));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no line matched --extract"));
}

#[test]
fn x_time_labels_points_with_the_wall_clock() {
    let (e, _) = follow(&["--x", "time"], "1\n2\n3\n");
    let last = e.last().unwrap();
    assert_eq!(last["xLabel"], "time");
    let re = regex::Regex::new(r"^[0-2][0-9]:[0-5][0-9]:[0-6][0-9]$").unwrap();
    let points = last["series"][0]["points"].as_array().unwrap();
    // Lines read within one second are one point, their mean.
    assert!(points.len() <= 3 && !points.is_empty());
    for p in points {
        assert!(re.is_match(p["label"].as_str().unwrap()), "{p}");
    }
}

#[test]
fn flags_of_follow_need_it_and_bad_ones_are_usage_errors() {
    for args in [
        vec!["--extract", "x"],
        vec!["--window", "10"],
        vec!["--follow", "--extract", "("],
        vec!["--follow", "--interval", "soon"],
        vec!["--follow", "--chart", "bar"],
        vec!["--follow", "--format", "markdown"],
    ] {
        let out = cargo_bin_cmd!("viz-parse")
            .args(&args)
            .write_stdin("1\n")
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = cargo_bin_cmd!("viz-render")
        .args(["--live", "--json"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn extract_reads_a_build_log_with_timings() {
    // A real `cargo test` log of this repository: per test binary a
    // `test result:` line with its counts and time.
    let text = std::fs::read_to_string("testdata/build_timings.log").unwrap();
    let results: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("test result:"))
        .collect();
    assert!(results.len() > 20);
    let passed: Vec<f64> = results
        .iter()
        .map(|l| {
            l.split(". ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect();
    let secs: Vec<f64> = results
        .iter()
        .map(|l| {
            l.rsplit("finished in ")
                .next()
                .unwrap()
                .trim_end_matches('s')
                .parse()
                .unwrap()
        })
        .collect();
    let re = r"test result: \w+\. (?P<passed>[0-9]+) passed;.* finished in (?P<secs>[0-9.]+s)$";
    let (e, err) = follow(&["--extract", re, "testdata/build_timings.log"], "");
    assert!(err.is_empty(), "{err}");
    let last = e.last().unwrap();
    assert_eq!(last["id"], "build_timings");
    assert_eq!(
        series(last),
        vec![("passed".into(), passed), ("secs".into(), secs.clone())]
    );

    // The README's one-liner: one series, in seconds, drawn once.
    let (e, _) = follow(
        &[
            "--extract",
            r"finished in (?P<secs>[0-9.]+s)",
            "testdata/build_timings.log",
        ],
        "",
    );
    let last = e.last().unwrap();
    assert_eq!(last["unit"], "s");
    let max = secs.iter().cloned().fold(f64::MIN, f64::max);
    let drawn = drawn(serde_json::to_string(last).unwrap().as_bytes(), 80);
    let footer = drawn.last().unwrap();
    assert!(footer.starts_with("secs  last "), "{footer}");
    assert!(
        footer.contains(&format!("max {max:.2} s")),
        "{footer} (max {max})"
    );
}
