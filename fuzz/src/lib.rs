//! The properties every fuzz target checks on what the programs print:
//! no line wider than the width, no control character, no byte above 0x7F
//! in ASCII mode, and finite chart values. A failed check panics, which
//! libFuzzer reports as a crash with the input that caused it.

use gemline::render::RenderOptions;
use gemline::spec::Chart;
use unicode_width::UnicodeWidthStr;

/// Render options from two fuzz bytes: a width (1..=256), ASCII or
/// Unicode, colour on or off, Markdown on or off.
pub fn options(a: u8, b: u8) -> RenderOptions {
    RenderOptions {
        width: usize::from(a) + 1,
        unicode: b & 1 == 0,
        color: b & 2 != 0,
        show_tools: b & 4 != 0,
        show_thoughts: b & 8 != 0,
        markdown: b & 16 != 0,
        chart_tables: (b & 32 != 0)
            .then_some(gemline::parse::markdown_table_chart as gemline::render::TableChart),
        ..RenderOptions::default()
    }
}

/// Removes the SGR sequences (`ESC [ ... m`) colour mode writes; any other
/// escape stays and fails [`check_output`].
fn strip_sgr(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find("\x1b[") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        match after.find(|c: char| !(c.is_ascii_digit() || c == ';')) {
            Some(j) if after[j..].starts_with('m') => rest = &after[j + 1..],
            _ => {
                out.push_str("\x1b[");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Checks terminal output. `fit`: every line must fit the width (false
/// for streams whose message text holds code lines, which are not fitted).
pub fn check_output(out: &str, opts: &RenderOptions, fit: bool) {
    for line in out.split('\n') {
        let plain = if opts.color {
            strip_sgr(line)
        } else {
            line.to_string()
        };
        if let Some(c) = plain.chars().find(|&c| is_control(c)) {
            panic!("control character {c:?} in output line {line:?}");
        }
        if !opts.unicode {
            assert!(line.is_ascii(), "non-ASCII byte in ASCII mode: {line:?}");
        }
        if fit {
            let w = plain.width();
            assert!(
                w <= opts.width,
                "line {w} columns wide at width {}: {plain:?}",
                opts.width
            );
        }
    }
}

/// C0 and C1 controls, DEL, and the bidi overrides that reorder a
/// terminal line. Not a tab: with Markdown off, text keeps its tabs as it
/// came (the wrapper measures them to stops of 8, as terminals set them),
/// and such lines are code, not fitted (see `check_output`'s `fit`).
pub fn is_control(c: char) -> bool {
    (c.is_control() && !matches!(c, '\n' | '\t'))
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

pub fn check_finite(chart: &Chart) {
    for s in &chart.series {
        for p in &s.points {
            assert!(
                p.value.is_finite(),
                "non-finite value {} at {:?}",
                p.value,
                p.label
            );
        }
    }
}

/// Draws a chart and checks the lines.
pub fn check_chart(chart: &Chart, opts: &RenderOptions) {
    check_finite(chart);
    let lines = gemline::render::render_chart(chart, opts);
    check_output(&lines.join("\n"), opts, true);
}
