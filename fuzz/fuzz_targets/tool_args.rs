//! render_visualization argument objects, as a model sends them: any JSON
//! gives a chart or an error written for the model; a chart holds finite
//! values and draws within the width.
#![no_main]

use fuzz_checks::{check_chart, options};
use gemline::parse::chart_from_tool_args;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [a, b, rest @ ..] = data else { return };
    let Ok(args) = serde_json::from_slice::<serde_json::Value>(rest) else {
        return;
    };
    match chart_from_tool_args(&args) {
        Ok(n) => check_chart(&n.chart, &options(*a, *b)),
        Err(e) => assert!(!e.problem.is_empty(), "an error with no message"),
    }
});
