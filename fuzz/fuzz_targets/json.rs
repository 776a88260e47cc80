//! JSON, JSON lines and Markdown tables: any text gives a chart or an
//! error; a chart holds finite values and draws within the width.
#![no_main]

use fuzz_checks::{check_chart, options};
use gemline::parse::{Format, ParseOptions, parse_text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [a, b, rest @ ..] = data else { return };
    let text = String::from_utf8_lossy(rest);
    let format = [Format::Json, Format::Jsonl, Format::Markdown][usize::from(b % 3)];
    for format in [Some(format), None] {
        let opts = ParseOptions {
            format,
            ..ParseOptions::default()
        };
        if let Ok(n) = parse_text(&text, &opts) {
            check_chart(&n.chart, &options(*a, *b));
        }
    }
});
