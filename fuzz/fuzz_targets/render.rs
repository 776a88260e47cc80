//! The renderers with an arbitrary spec and width: any chart object that
//! validates draws within the width, with no control character (and no
//! byte above 0x7F in ASCII mode); any event stream through the viz-render
//! renderer writes no control character, and fits the width unless its
//! message text holds code lines (the one thing not fitted, by design).
#![no_main]

use fuzz_checks::{check_chart, check_output, options};
use gemline::events::EventReader;
use gemline::render::{Renderer, chart_from_event};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [a, b, rest @ ..] = data else { return };
    let opts = options(*a, *b);
    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(rest)
        && let Ok(chart) = gemline::spec::Chart::from_value(&v)
        && chart.validate().is_ok()
    {
        check_chart(&chart, &opts);
    }

    let mut renderer = Renderer::new(opts.clone());
    let mut out = Vec::new();
    let mut reader = EventReader::new(rest);
    let mut code = false;
    while let Ok(Some(r)) = reader.next_event() {
        let Ok(e) = r else { continue };
        if let Ok(chart) = chart_from_event(&e) {
            gemline::spec::Chart::validate(&chart).ok();
        }
        for key in ["content", "message", "output"] {
            if let Some(s) = e.str_field(key) {
                code |= s.contains("    ")
                    || s.contains("```")
                    || s.contains("~~~")
                    || s.contains('\t');
            }
        }
        renderer.event(&e, &mut out).unwrap();
    }
    renderer.finish(&mut out).unwrap();
    check_output(
        &String::from_utf8(out).expect("output is UTF-8"),
        &opts,
        !code,
    );
});
