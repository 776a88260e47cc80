//! Format detection and the table/CSV reader: any bytes give a chart or
//! an error; a chart holds finite values and draws within the width.
#![no_main]

use fuzz_checks::{check_chart, options};
use gemline::parse::{Format, ParseOptions, parse_text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [a, b, rest @ ..] = data else { return };
    let text = String::from_utf8_lossy(rest);
    let format = match b >> 4 {
        0 => Some(Format::Csv),
        1 => Some(Format::Tsv),
        _ => None,
    };
    let opts = ParseOptions {
        format,
        header: (b & 16 != 0).then_some(b & 32 != 0),
        ..ParseOptions::default()
    };
    if let Ok(n) = parse_text(&text, &opts) {
        check_chart(&n.chart, &options(*a, *b));
    }
});
