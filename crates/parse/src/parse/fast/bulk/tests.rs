//! Reading ahead checked against reading row by row: the fast lane
//! against the csv crate, and JSON lines read ahead against the same lines
//! read one by one, with runs cut anywhere and any number of workers.

use std::io::Cursor;

use proptest::prelude::*;

use super::super::super::formats::CsvRows;
use super::super::super::rows::Rows;
use super::super::super::table::chart_from_rows;
use super::super::super::{ParseError, ParseOptions};
use super::super::{CsvLane, JsonlRows};
use super::*;
use crate::spec::{ChartType, Normalized};

/// A cell: a plain number (ties common) or, `rate` times in a
/// thousand, one that sends its record down the full path.
fn cell(rate: u16) -> impl Strategy<Value = String> {
    let plain = prop_oneof![
        4 => "-?[0-9]{1,4}(\\.[0-9]{1,2})?",
        1 => Just("5".to_string()),
    ];
    let other = prop_oneof![
        Just(String::new()),
        "[a-z]{1,3}[0-9]{0,2}",
        Just("N/A".to_string()),
        Just(" 7 ".to_string()),
        Just("1.234,5".to_string()),
        Just("12%".to_string()),
    ];
    (plain, other, 0..1000u16).prop_map(move |(p, o, roll)| if roll < rate { o } else { p })
}

/// A body of 150-450 rows (past the 200 the sample takes) of two or
/// three columns, with ragged rows, blank lines and, rarely, a quote or
/// CRLF that stops the fast lane. Records for the full path are rare
/// in some bodies and common in others, so that the few warnings shown
/// fall after the sample too.
fn body() -> impl Strategy<Value = (bool, Vec<u8>)> {
    (any::<bool>(), prop_oneof![Just(3u16), Just(20), Just(150)]).prop_flat_map(|(three, rate)| {
        let row = (
            cell(rate),
            cell(rate),
            cell(rate),
            proptest::option::weighted(f64::from(rate) / 4000.0, cell(rate)),
            prop_oneof![
                1000 => Just("\n"),
                30 => Just("\n\n"),
                1 => Just("\r\n"),
                1 => Just(",\"9\"\n")
            ],
        );
        proptest::collection::vec(row, 150..450).prop_map(move |rows| {
            let mut out = if three { "x,y,z\n" } else { "x,y\n" }.as_bytes().to_vec();
            for (a, b, c, extra, end) in rows {
                let mut line = format!("{a},{b}");
                if three {
                    line.push(',');
                    line.push_str(&c);
                }
                if let Some(x) = extra {
                    line.push(',');
                    line.push_str(&x);
                }
                out.extend_from_slice(line.as_bytes());
                out.extend_from_slice(end.as_bytes());
            }
            (three, out)
        })
    })
}

/// 150-450 JSON lines of a label `x` and a value `y`, some of them
/// (`rate` in a thousand) for the full path.
fn json_lines() -> impl Strategy<Value = Vec<u8>> {
    let plain = (
        prop_oneof![
            "\"[a-z]{1,4}[0-9]{0,2}\"",
            "[1-9][0-9]{0,3}",
            Just("true".to_string())
        ],
        prop_oneof![
            4 => "-?(0|[1-9][0-9]{0,3})(\\.[0-9]{1,2})?",
            1 => Just("5".to_string()),
            1 => Just("\"7\"".to_string()),
        ],
    )
        .prop_map(|(x, y)| format!("{{\"x\": {x}, \"y\": {y}}}"));
    let other = prop_oneof![
        Just("{\"x\": \"a\", \"y\": null}".to_string()),
        Just("{\"\\u0078\": \"esc\", \"y\": 3}".to_string()),
        Just("{\"x\": \"n\", \"y\": [1]}".to_string()),
        Just("{\"x\": \"z\", \"y\": 4, \"z\": 1}".to_string()),
        Just("{\"x\": \" pad \", \"y\": 2}".to_string()),
        Just("{\"x\": 1.5, \"y\": 2}".to_string()),
        Just("not json".to_string()),
        Just(String::new()),
        Just("[\"arr\", 9]".to_string()),
        Just("{\"x\": \"\u{ff}\", \"y\": 1}".to_string()),
    ];
    let bad_utf8 = proptest::bool::weighted(0.002);
    (prop_oneof![Just(3u16), Just(20), Just(150)]).prop_flat_map(move |rate| {
        let line = (plain.clone(), other.clone(), 0..1000u16, bad_utf8).prop_map(
            move |(p, o, roll, bad)| {
                let mut l = if roll < rate { o } else { p }.into_bytes();
                if bad {
                    l.push(0xff);
                }
                l.push(b'\n');
                l
            },
        );
        proptest::collection::vec(line, 150..450).prop_map(|lines| lines.concat())
    })
}

fn chart(rows: &mut dyn Rows, opts: &ParseOptions) -> (String, Vec<String>) {
    let mut said = Vec::new();
    let got: Result<Normalized, ParseError> = {
        let mut sink = |m: String| said.push(m);
        chart_from_rows(rows, opts, &mut Warner::new(&mut sink, opts.strict))
    };
    (format!("{got:?}"), said)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Read ahead on threads, in runs cut anywhere, the rows give what
    /// the csv crate gives reading them one by one: the chart, the
    /// warnings and their line numbers, the errors.
    #[test]
    fn rows_read_ahead_are_what_the_csv_crate_reads(
        (three, input) in body(),
        chunk in 1usize..300,
        workers in 0usize..4,
        line in any::<bool>(),
        few in any::<bool>(),
        strict in proptest::bool::weighted(0.1),
    ) {
        let opts = ParseOptions {
            chart: Some(if line { ChartType::Line } else { ChartType::Bar }),
            max_points: few.then_some(5),
            values: if three { vec!["y".into(), "z".into()] } else { Vec::new() },
            strict,
            ..ParseOptions::default()
        };
        let fast = chart(
            &mut CsvLane::tuned(Cursor::new(input.clone()), b',', chunk, workers),
            &opts,
        );
        let full = chart(&mut CsvRows::new(Cursor::new(input), b','), &opts);
        prop_assert_eq!(fast, full);
    }

    /// JSON lines read ahead give what they give read one by one: with
    /// lines for the full path (escaped keys, nested values, keys new
    /// after the sample, lines that are not JSON or not UTF-8).
    #[test]
    fn json_lines_read_ahead_are_what_they_read_one_by_one(
        input in json_lines(),
        chunk in 1usize..300,
        workers in 0usize..4,
        line in any::<bool>(),
        few in any::<bool>(),
    ) {
        let opts = ParseOptions {
            chart: Some(if line { ChartType::Line } else { ChartType::Bar }),
            max_points: few.then_some(5),
            ..ParseOptions::default()
        };
        let ahead = chart(
            &mut JsonlRows::tuned(Cursor::new(input.clone()), chunk, Some(workers)),
            &opts,
        );
        let serial = chart(&mut JsonlRows::tuned(Cursor::new(input), 1 << 20, None), &opts);
        prop_assert_eq!(ahead, serial);
    }
}
