//! The fast lane (`parse::fast`) gives exactly what the full readers give.
//!
//! - Cell by cell: where `plain_number` answers, `parse_number_as` gives the
//!   same bits; where `plain_text` answers, it is the trimmed cell.
//! - Whole inputs through the real binary: a CSV file read by the fast lane
//!   and the same file read by the csv crate from its first line (a quoted
//!   header name hands the reader over at once) write the same event and
//!   the same warnings; likewise JSON lines with plain keys and the same
//!   lines with every key escaped (which the fast lane leaves to serde_json).

use assert_cmd::cargo::cargo_bin_cmd;
use gemline::parse::fast::{plain_number, plain_text};
use gemline::parse::number::{Decimal, parse_number_as};
use proptest::prelude::*;

use crate::support::temp_dir;

const DECIMALS: [Decimal; 3] = [Decimal::Auto, Decimal::Point, Decimal::Comma];

/// Cells shaped like numbers, plain and not.
fn number_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "-?[0-9]{1,22}(\\.[0-9]{0,22})?([eE][+-]?[0-9]{1,4})?",
        "-?0{0,3}[0-9]{0,4}\\.?[0-9]{0,4}",
        "[-+ .,0-9eE]{0,12}",
        "[0-9]{1,3}(,[0-9]{3}){0,3}(\\.[0-9]{1,3})?",
        // Around the 15 digits the one-pass reader takes (more: fast-float2).
        "-?0{0,2}[0-9]{0,16}\\.?[0-9]{0,16}",
        "-?[0-9]{13,16}|-?[0-9]{1,8}\\.[0-9]{6,9}",
        "\\PC{0,8}",
    ]
}

/// viz-parse's stdout and stderr for `input` on stdin.
fn viz_parse(args: &[&str], input: Vec<u8>) -> (String, String, Option<i32>) {
    let out = cargo_bin_cmd!("viz-parse")
        .args(args)
        .write_stdin(input)
        .output()
        .expect("viz-parse runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

/// One CSV cell: mostly plain numbers, with what sends a row (or the rest
/// of the file) to the full path.
fn csv_cell() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "-?[0-9]{1,6}(\\.[0-9]{1,4})?",
        1 => "-?[0-9]{1,18}\\.[0-9]{1,18}(e-?[0-9]{1,2})?",
        1 => " ?[0-9]{1,4}(\\.[0-9]{1,2})? ?(s|%|k)?",
        1 => "[a-zé]{0,5}",
        1 => Just(String::new()),
        1 => Just("N/A".to_string()),
        1 => Just("\"1,5\"".to_string()),
        1 => Just("1.234,5".to_string()),
    ]
}

/// Rows of `label,value[,extra]` with blank lines, ragged rows and line
/// ends as people write them.
fn csv_body() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        (
            csv_cell(),
            csv_cell(),
            proptest::option::weighted(0.05, csv_cell()),
            prop_oneof![20 => Just("\n"), 1 => Just("\r\n"), 1 => Just("\n\n")],
        ),
        1..60,
    )
    .prop_map(|rows| {
        let mut out = Vec::new();
        for (label, value, extra, end) in rows {
            out.extend_from_slice(label.as_bytes());
            out.push(b',');
            out.extend_from_slice(value.as_bytes());
            if let Some(x) = extra {
                out.push(b',');
                out.extend_from_slice(x.as_bytes());
            }
            out.extend_from_slice(end.as_bytes());
        }
        out
    })
}

/// The CSV run twice: fast lane first, then the csv crate from line 1.
fn csv_both(args: &[&str], body: &[u8]) -> [(String, String, Option<i32>); 2] {
    [&b"x,y\n"[..], &b"\"x\",y\n"[..]].map(|header| {
        let mut input = header.to_vec();
        input.extend_from_slice(body);
        viz_parse(args, input)
    })
}

/// One JSON value as a JSON line holds it.
fn json_value() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "-?(0|[1-9][0-9]{0,17})",
        4 => "-?(0|[1-9][0-9]{0,8})\\.[0-9]{1,12}",
        // Either side of 15 digits, and minus zero with a fraction.
        1 => "-?[1-9][0-9]{12,16}(\\.[0-9]{1,3})?",
        1 => "-0\\.[0-9]{1,3}",
        // (Not past 1e308: a line serde_json refuses is quoted in the
        // warning, and the escaped keys would differ there.)
        1 => "-?[1-9][0-9]{0,3}(\\.[0-9]{1,3})?[eE][+-]?[0-9]{1,2}",
        1 => Just("-0".to_string()),
        1 => Just("null".to_string()),
        1 => Just("true".to_string()),
        1 => "\"[a-z0-9 .,%]{0,6}\"",
        1 => Just("[1]".to_string()),
    ]
}

fn jsonl_lines() -> impl Strategy<Value = Vec<(String, String, bool)>> {
    proptest::collection::vec((json_value(), json_value(), any::<bool>()), 1..60)
}

/// The lines with keys `x` and `y`, written plainly or escaped.
fn jsonl(lines: &[(String, String, bool)], escaped: bool) -> Vec<u8> {
    let (x, y) = if escaped {
        ("\\u0078", "\\u0079")
    } else {
        ("x", "y")
    };
    let mut out = String::new();
    for (a, b, spaced) in lines {
        let sep = if *spaced { " " } else { "" };
        out.push_str(&format!("{{\"{x}\":{sep}{a},{sep}\"{y}\": {b}}}\n"));
    }
    out.into_bytes()
}

proptest! {
    #[test]
    fn plain_numbers_are_what_the_full_parser_reads(s in number_like()) {
        for dec in DECIMALS {
            if let Some(v) = plain_number(&s, dec) {
                let full = parse_number_as(&s, dec);
                prop_assert_eq!(full.map(|n| (n.value.to_bits(), n.unit)), Some((v.to_bits(), "")),
                    "{:?} as {:?}", s, dec);
            }
        }
    }

    #[test]
    fn short_plain_decimals_take_the_fast_lane(s in "-?[1-9][0-9]{0,6}(\\.[0-9]{1,6})?") {
        prop_assert!(plain_number(&s, Decimal::Point).is_some(), "{:?}", s);
    }

    #[test]
    fn plain_text_is_the_trimmed_cell(s in "\\PC{0,8}|[ \t]?[a-z0-9]{0,4}[ \t\u{a0}]?") {
        if let Some(t) = plain_text(&s) {
            prop_assert_eq!(t, s.trim());
            prop_assert!(!t.is_empty());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn csv_fast_lane_matches_the_csv_crate(body in csv_body(), bar in any::<bool>()) {
        let chart = if bar { "bar" } else { "line" };
        let [fast, full] = csv_both(&["--format", "csv", "--chart", chart], &body);
        prop_assert_ne!(fast.2, Some(101), "{}", fast.1);
        prop_assert_eq!(fast, full);
    }

    #[test]
    fn jsonl_fast_lane_matches_serde_json(lines in jsonl_lines(), bar in any::<bool>()) {
        let args = ["--format", "jsonl", "--chart", if bar { "bar" } else { "line" }];
        let fast = viz_parse(&args, jsonl(&lines, false));
        let full = viz_parse(&args, jsonl(&lines, true));
        prop_assert_ne!(fast.2, Some(101), "{}", fast.1);
        prop_assert_eq!(fast, full);
    }
}

/// Past the first chunks: a file of some megabytes whose rows turn unusual
/// late (a quoted value, then CRLF), so the hand-over happens mid-file and
/// line numbers in warnings must still match.
#[test]
fn a_late_hand_over_keeps_rows_and_line_numbers() {
    let mut body = String::new();
    for i in 0..200_000u32 {
        match i {
            150_001 => body.push_str("150001,\"1,5\"\n"),
            150_002 => body.push_str("150002,oops\n"),
            170_000 => body.push_str("170000,7\r\n"),
            _ => body.push_str(&format!("{i},{}.{}\n", i % 977, i % 13)),
        }
        if i == 90_000 {
            body.push_str("90000,bad\n");
        }
    }
    for chart in ["line", "bar"] {
        let [fast, full] = csv_both(&["--chart", chart, "--max-points", "50"], body.as_bytes());
        assert_eq!(fast, full);
        assert!(fast.1.contains("line 90003"), "{}", fast.1);
        assert!(fast.1.contains("line 150005"), "{}", fast.1);
    }
}

/// `--threads` changes who reads the rows, never what comes out: a file of
/// many runs with rows for the full path (warnings with line numbers) and a
/// top-N, read by one thread and by several, as CSV and as JSON lines.
#[test]
fn the_number_of_threads_changes_nothing_but_the_time() {
    let (mut csv, mut jsonl) = (String::from("name,value\n"), String::new());
    for i in 0..120_000u32 {
        let value = match i % 40_000 {
            7 | 39_999 => "n/a".to_string(),
            17 => " 12 ".to_string(),
            _ => format!("{}.{}", (i * 7919) % 100_000, i % 10),
        };
        csv.push_str(&format!("item-{i},{value}\n"));
        jsonl.push_str(&format!(
            "{{\"name\": \"item-{i}\", \"value\": \"{value}\"}}\n"
        ));
    }
    for (input, format) in [(csv, "csv"), (jsonl, "jsonl")] {
        for chart in ["bar", "line"] {
            let run = |threads: &str| {
                viz_parse(
                    &["--format", format, "--chart", chart, "--threads", threads],
                    input.clone().into_bytes(),
                )
            };
            let one = run("1");
            assert!(one.1.contains("n/a"), "{}", one.1);
            assert_eq!(one.2, Some(0), "{}", one.1);
            for threads in ["2", "3"] {
                assert_eq!(run(threads), one, "{format} {chart} --threads {threads}");
            }
        }
    }
}

/// A large file named on the command line is read through mapped windows
/// (`parse::fast::mapped`), the same bytes on stdin by copying: both give
/// the same chart and the same warnings, wherever in the file the fast
/// lane has to stop (a quote, a CRLF, invalid UTF-8, a line longer than a
/// window) and whatever comes first (a byte order mark); as CSV and as
/// JSON lines.
#[test]
fn a_mapped_file_reads_as_the_same_bytes_on_stdin() {
    let dir = temp_dir("mapped");
    let body = |late: &[u8]| {
        let rows = lines_with(150_000, 101_003, late, |i| match i % 50_000 {
            11 => format!("item-{i},n/a"),
            _ => format!("item-{i},{}.{}", (i * 7919) % 100_000, i % 10),
        });
        [b"name,value\n".to_vec(), rows].concat()
    };
    let long = format!("{},99999999\n", "x".repeat(400_000));
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("plain", body(b"")),
        ("no final newline", {
            let mut b = body(b"");
            b.pop();
            b
        }),
        ("bom", [b"\xEF\xBB\xBF".to_vec(), body(b"")].concat()),
        ("late quote", body(b"\"item, quoted\",99999999\n")),
        ("late crlf", body(b"item-crlf,99999999\r\n")),
        ("late bad utf-8", body(b"item-\xff,99999999\n")),
        ("late long line", body(long.as_bytes())),
    ];
    let jsonl = |late: &[u8]| {
        lines_with(100_000, 71_003, late, |i| {
            let value = match i % 40_000 {
                11 => "\"n/a\"".to_string(),
                _ => format!("{}.{}", (i * 7919) % 100_000, i % 10),
            };
            format!("{{\"name\": \"item-{i}\", \"value\": {value}}}")
        })
    };
    let long = format!(
        "{{\"name\": \"{}\", \"value\": 99999999}}\n",
        "x".repeat(400_000)
    );
    let jsonl_cases: Vec<(&str, Vec<u8>)> = vec![
        ("jsonl plain", jsonl(b"")),
        ("jsonl no final newline", {
            let mut b = jsonl(b"");
            b.pop();
            b
        }),
        (
            "jsonl late crlf",
            jsonl(b"{\"name\": \"crlf\", \"value\": 99999999}\r\n"),
        ),
        (
            "jsonl late new key",
            jsonl(b"{\"name\": \"new\", \"value\": 99999999, \"k\": 1}\n"),
        ),
        (
            "jsonl late bad utf-8",
            jsonl(b"{\"name\": \"item-\xff\", \"value\": 99999999}\n"),
        ),
        ("jsonl late long line", jsonl(long.as_bytes())),
    ];
    for (name, bytes) in cases.into_iter().chain(jsonl_cases) {
        let path = dir.join(if name.starts_with("jsonl") {
            "input.jsonl"
        } else {
            "input.csv"
        });
        std::fs::write(&path, &bytes).unwrap();
        let shown = path.display().to_string();
        for args in [
            &["--chart", "bar"][..],
            &["--chart", "line"],
            &["--chart", "bar", "-j", "1"],
        ] {
            let out = cargo_bin_cmd!("viz-parse")
                .args(args)
                .arg(&path)
                .output()
                .expect("viz-parse runs");
            let mapped = (
                String::from_utf8_lossy(&out.stdout).into_owned(),
                String::from_utf8_lossy(&out.stderr).replace(&shown, "<stdin>"),
                out.status.code(),
            );
            let piped = viz_parse(args, bytes.clone());
            assert!(piped.0.contains("visualization"), "{name}: {}", piped.1);
            assert_eq!(mapped, piped, "{name} {args:?}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `n` lines made by `line`, with `late` put in before line `at`.
fn lines_with(n: u32, at: u32, late: &[u8], line: impl Fn(u32) -> String) -> Vec<u8> {
    let mut b = Vec::new();
    for i in 0..n {
        if i == at {
            b.extend_from_slice(late);
        }
        b.extend_from_slice(line(i).as_bytes());
        b.push(b'\n');
    }
    b
}

/// Small multiples read ahead (`--facet`): each plain row goes to its
/// panel's fast lane from the reading threads, in input order. A file of
/// several runs whose rows turn unusual (a group first met late, an empty
/// group, a group with spaces around it, a missing value, a ragged row)
/// gives what the csv crate read from line 1 gives, warnings and their
/// line numbers included, as lines, points and an aggregate.
#[test]
fn facets_read_ahead_give_what_the_full_path_gives() {
    let groups = ["north", "south", "east", "west", "centre", "islands"];
    let mut body = String::new();
    for i in 0..240_000u32 {
        let group = match i % 50_000 {
            _ if i > 150_000 && i % 7 == 0 => "late",
            3 => "",
            5 => " north ",
            _ => groups[i as usize % 6],
        };
        let y = match i % 60_000 {
            9 => "n/a".to_string(),
            _ => format!("{}.{}", (i * 7919) % 1000, i % 10),
        };
        body.push_str(&format!("{i},{y},{group}\n"));
        if i == 100_000 {
            body.push_str("100000,1,north,extra\n");
        }
    }
    let both = |args: &[&str]| {
        [&b"x,y,grp\n"[..], &b"\"x\",y,grp\n"[..]]
            .map(|header| viz_parse(args, [header, body.as_bytes()].concat()))
    };
    for args in [
        &["--chart", "line", "-x", "x", "-y", "y", "--facet", "grp"][..],
        &["--chart", "point", "-x", "x", "-y", "y", "--facet", "grp"][..],
        &[
            "--chart",
            "bar",
            "-x",
            "x",
            "-y",
            "y",
            "--facet",
            "grp",
            "--max-points",
            "20",
        ][..],
    ] {
        let [fast, full] = both(args);
        assert_eq!(fast.2, Some(0), "{args:?}: {}", fast.1);
        assert!(fast.0.contains("\"late\""), "{args:?}");
        assert!(fast.1.contains("line 100003"), "{args:?}: {}", fast.1);
        assert_eq!(fast, full, "{args:?}");
    }
}

/// Derived columns read ahead (`--calculate`): the reading threads read
/// the input numbers the calculations need and compute them, and a
/// scatter's x is read there too. A file of several runs with rows a
/// calculation has no value for (a division by zero, a missing or
/// unplain operand), a ragged row and an x that is no number gives what
/// the csv crate read from line 1 gives, the calculation's note and the
/// warnings with their line numbers included: a line, a chain of
/// calculations, a scatter, a bar of means and small multiples.
#[test]
fn calculations_read_ahead_give_what_the_full_path_gives() {
    let groups = ["north", "south", "east"];
    let mut body = String::new();
    for i in 0..240_000u32 {
        let a = match i % 70_000 {
            11 => "n/a".to_string(),
            12 => " 7.5".to_string(),
            _ => format!("{}.{}", (i * 7919) % 1000, i % 10),
        };
        let t = match i {
            130_001 => "abc".to_string(),
            _ => i.to_string(),
        };
        // b is 0 on one row in 13: a / b has no value there.
        body.push_str(&format!("{t},{a},{},{}\n", i % 13, groups[i as usize % 3]));
        if i == 100_000 {
            body.push_str("100000,1,2,north,extra\n");
        }
    }
    // Files, which are read ahead however the bytes arrive.
    let dir = temp_dir("calculations_read_ahead");
    let files = [&b"t,a,b,grp\n"[..], &b"\"t\",a,b,grp\n"[..]].map(|header| {
        let path = dir.join(format!("calc{}.csv", header.len()));
        std::fs::write(&path, [header, body.as_bytes()].concat()).unwrap();
        path.to_string_lossy().into_owned()
    });
    // (Each file's name said as one.)
    let both = |args: &[&str]| {
        files.clone().map(|f| {
            let (out, err, code) = viz_parse(&[args, &[f.as_str()]].concat(), Vec::new());
            (out.replace(&f, "FILE"), err.replace(&f, "FILE"), code)
        })
    };
    for args in [
        "--chart line -x t --calculate r=a/b -y r",
        "--chart line -x t --calculate r=a/b --calculate s=r*2-a+b -y s",
        "--chart line -x t --calculate r=a/b -y r --facet grp",
        "--chart point -x t -y r --calculate r=a*b",
        "--chart point -x t -y a",
        "--chart bar -x grp -y r --calculate r=a-b",
    ] {
        let args: Vec<&str> = args.split(' ').collect();
        let [fast, full] = both(&args);
        assert_eq!(fast.2, Some(0), "{args:?}: {}", fast.1);
        assert!(fast.1.contains("line 100003"), "{args:?}: {}", fast.1);
        // A scatter's x that is no number is said, on either path.
        if args[1] == "point" {
            assert!(
                fast.1.contains("\"abc\" is not a number"),
                "{args:?}: {}",
                fast.1
            );
        }
        assert_eq!(fast, full, "{args:?}");
    }
}
