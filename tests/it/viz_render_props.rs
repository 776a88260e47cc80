//! Property tests of the renderers: any chart, any width from 20 to 300,
//! Unicode or ASCII, colour or not — no panic, no line wider than the
//! width, no byte above 0x7F in ASCII, no escape without colour, no raw
//! control character ever.

use gemline::events::Event;
use gemline::render::{RenderOptions, Renderer, render_chart};
use gemline::spec::{Chart, ChartType, Meta, Point, Reduction, Series, XType};
use proptest::prelude::*;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 ._-]{0,24}",
        "[日本語テキスト漢字한국어😀🚀👨‍👩‍👧❤️é—…\u{301}]{0,12}",
        prop::collection::vec(any::<char>(), 0..30).prop_map(|v| v.into_iter().collect()),
        "[a-z\u{1b}\u{9b}\u{7f}\r\n\t\u{202e}\u{200d}\u{fe0f}]{0,20}",
        "[a-zA-Z ]{40,120}",
    ]
}

fn value() -> impl Strategy<Value = f64> {
    prop_oneof![
        -1000.0..1000.0f64,
        0.0..10.0f64,
        Just(0.0),
        prop::num::f64::NORMAL | prop::num::f64::SUBNORMAL | prop::num::f64::ZERO,
        (-20i32..20).prop_map(|e| 10f64.powi(e)),
        (-20i32..20).prop_map(|e| -(10f64.powi(e))),
        Just(f64::MAX),
        Just(f64::MIN),
        Just(f64::MIN_POSITIVE),
    ]
}

fn series() -> impl Strategy<Value = Series> {
    let x = prop_oneof![
        3 => Just(None),
        2 => value().prop_map(Some),
        1 => prop::num::f64::ANY.prop_map(Some),
    ];
    let point = (
        text(),
        value(),
        x,
        prop::option::of(value()),
        prop::option::of(any::<u64>()),
    );
    (text(), prop::collection::vec(point, 0..40)).prop_map(|(name, pts)| Series {
        name,
        facet: None,
        points: pts
            .into_iter()
            .map(|(label, value, x, x2, count)| Point {
                label,
                value,
                x,
                x2,
                count,
            })
            .collect(),
    })
}

pub(crate) fn chart() -> impl Strategy<Value = Chart> {
    (
        prop_oneof![
            Just(ChartType::Bar),
            Just(ChartType::Line),
            Just(ChartType::Table),
            Just(ChartType::Point),
            Just(ChartType::Hist),
            Just(ChartType::Heatmap),
            Just(ChartType::Box)
        ],
        prop::collection::vec(series(), 1..=5),
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(text()),
        (
            any::<bool>(),
            0usize..5000,
            prop::option::of(0usize..6),
            prop::option::of(prop_oneof![Just(XType::Number), Just(XType::Date)]),
        ),
    )
        .prop_map(
            |(
                chart_type,
                series,
                title,
                subtitle,
                x_label,
                y_label,
                unit,
                (t, orig, red, x_type),
            )| Chart {
                chart_type,
                title,
                subtitle,
                x_label,
                y_label,
                unit,
                x_type,
                series,
                transform: None,
                source: None,
                series_label: None,
                facet: None,
                meta: Meta {
                    truncated: t,
                    original_point_count: orig,
                    fallback_mode: None,
                    reduction: red.map(|r| {
                        [
                            Reduction::Top,
                            Reduction::First,
                            Reduction::Last,
                            Reduction::Even,
                            Reduction::Minmax,
                            Reduction::Lttb,
                        ][r]
                    }),
                    cell: None,
                },
                ..Chart::default()
            },
        )
}

pub(crate) fn options() -> impl Strategy<Value = RenderOptions> {
    (20usize..=300, any::<bool>(), any::<bool>(), 2usize..40).prop_map(
        |(width, unicode, color, height)| RenderOptions {
            width,
            unicode,
            color,
            height,
            ..RenderOptions::default()
        },
    )
}

fn strip_ansi(s: &str) -> String {
    gemline::render::text::strip_ansi(s)
}

/// Both ways a terminal may measure: per character, and the string rules
/// of unicode-width (emoji sequences).
fn display_width(s: &str) -> usize {
    let by_char: usize = s.chars().map(|c| c.width().unwrap_or(0)).sum();
    by_char.max(s.width())
}

pub(crate) fn check_line(line: &str, opts: &RenderOptions) -> Result<(), TestCaseError> {
    let plain = strip_ansi(line);
    prop_assert!(
        display_width(&plain) <= opts.width,
        "line of width {} > {}: {:?}",
        display_width(&plain),
        opts.width,
        plain
    );
    if !opts.unicode {
        prop_assert!(line.is_ascii(), "non-ASCII in ASCII mode: {:?}", line);
    }
    if !opts.color {
        prop_assert!(!line.contains('\x1b'), "escape without colour: {:?}", line);
    }
    for c in plain.chars() {
        prop_assert!(
            !c.is_control() || c == '\t',
            "raw control character {:?} in {:?}",
            c,
            plain
        );
        prop_assert!(
            !('\u{202a}'..='\u{202e}').contains(&c),
            "bidi override in {:?}",
            plain
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::support::proptest_cases(256), ..ProptestConfig::default() })]

    #[test]
    fn charts_fit_any_width(chart in chart(), opts in options()) {
        for line in render_chart(&chart, &opts) {
            check_line(&line, &opts)?;
            prop_assert!(!line.contains('\n'));
        }
    }

    #[test]
    fn event_streams_keep_the_promises(
        chart in chart(),
        opts in options(),
        texts in prop::collection::vec(text(), 0..6),
        title in text(),
    ) {
        let mut events = vec![Event::topic(&title, Some(&title))];
        for t in &texts {
            events.push(Event::message("assistant", t, true));
            events.push(Event::thought(t, true));
        }
        events.push(Event::message("user", &title, false));
        events.push(Event::error("warning", &title));
        events.push(Event::tool_use(&title, "id", serde_json::json!({ "q": title })));
        events.push(Event::tool_result_err("id", "x", &title));
        events.push(chart.to_event());
        let mut out = Vec::new();
        for opts in [
            opts.clone(),
            RenderOptions { show_tools: true, show_thoughts: true, ..opts.clone() },
        ] {
            let mut r = Renderer::new(opts.clone());
            out.clear();
            for e in &events {
                r.event(e, &mut out).unwrap();
            }
            r.finish(&mut out).unwrap();
            let s = String::from_utf8(out.clone()).unwrap();
            prop_assert!(s.is_empty() || s.ends_with('\n'));
            if !opts.unicode {
                prop_assert!(s.is_ascii());
            }
            if !opts.color {
                prop_assert!(!s.contains('\x1b'));
            }
            // Message text may hold code lines (indented or fenced), which
            // pass unwrapped, so widths are checked without it below; here
            // only that no control character gets through.
            for c in strip_ansi(&s).chars() {
                prop_assert!(!c.is_control() || c == '\n' || c == '\t', "{:?}", c);
            }
        }
        // Without prose, every line is ours and keeps to the width.
        let drawn: Vec<Event> = events
            .iter()
            .filter(|e| e.str_field("role") != Some("assistant"))
            .cloned()
            .collect();
        let tools = RenderOptions { show_tools: true, ..opts.clone() };
        let mut r = Renderer::new(tools.clone());
        let mut out = Vec::new();
        for e in &drawn {
            r.event(e, &mut out).unwrap();
        }
        r.finish(&mut out).unwrap();
        for line in String::from_utf8(out).unwrap().lines() {
            check_line(line, &tools)?;
        }
        let chapters = RenderOptions { chapters_only: true, ..opts.clone() };
        let mut r = Renderer::new(chapters.clone());
        let mut out = Vec::new();
        for e in &events {
            r.event(e, &mut out).unwrap();
        }
        r.finish(&mut out).unwrap();
        for line in String::from_utf8(out).unwrap().lines() {
            check_line(line, &chapters)?;
        }
    }
}

/// Prose as models write it: words of Latin, CJK and emoji, long URLs,
/// blanks, tabs, newlines and list markers; no code (lines indented by 4
/// columns or more, fences), which passes unwrapped.
fn prose() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        4 => "[a-zA-Z,.]{1,12}",
        1 => "[日本語テキスト한국어😀🚀é…\u{301}]{1,8}",
        1 => "[a-z/:.]{15,60}",
        4 => Just(" ".to_string()),
        1 => Just("  ".to_string()),
        1 => Just("\t".to_string()),
        1 => Just("\n".to_string()),
        1 => Just("\n- ".to_string()),
        1 => Just("\n  12. ".to_string()),
    ];
    prop::collection::vec(token, 0..80).prop_map(|t| {
        t.concat()
            .split('\n')
            .map(|l| {
                // A combining mark is dropped by ASCII folding, so one
                // before the blanks would leave an indented (code) line
                // in ASCII only: code is not wrapped by design.
                let body = l.trim_start_matches([' ', '\t', '\u{301}']);
                let lead = if body.len() < l.len() { "  " } else { "" };
                format!("{lead}{body}")
            })
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// Columns as a terminal counts them: tabs to the next multiple of 8.
fn terminal_width(line: &str) -> usize {
    let mut col = 0;
    for c in line.chars() {
        col = match c {
            '\t' => (col / 8 + 1) * 8,
            c => col + c.width().unwrap_or(0),
        };
    }
    col.max(line.width())
}

fn draw_text(deltas: &[String], opts: &RenderOptions) -> String {
    crate::support::answer::draw_answer(deltas, opts, None)
}

/// Found by the property below: in ASCII mode a combining mark at the
/// start of a line is dropped, and what is left (a tab, then text) is an
/// indented code line, passed as it is; in Unicode the mark starts prose,
/// which is wrapped.
#[test]
fn a_leading_combining_mark_and_a_tab_is_code_only_in_ascii() {
    let text = format!("\u{301}\t{}", "abcdefghij".repeat(11));
    let ascii = RenderOptions {
        width: 20,
        unicode: false,
        ..RenderOptions::default()
    };
    let out = draw_text(std::slice::from_ref(&text), &ascii);
    assert_eq!(out, format!("\t{}\n", "abcdefghij".repeat(11)));
    let uni = RenderOptions {
        width: 20,
        unicode: true,
        ..RenderOptions::default()
    };
    let out = draw_text(std::slice::from_ref(&text), &uni);
    assert!(out.lines().all(|l| terminal_width(l) <= 20), "{out:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::support::proptest_cases(256), ..ProptestConfig::default() })]

    #[test]
    fn message_text_wraps_within_the_width_however_it_is_cut(
        text in prose(),
        width in 20usize..=120,
        unicode in any::<bool>(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..12),
    ) {
        let opts = RenderOptions { width, unicode, ..RenderOptions::default() };
        let whole = draw_text(std::slice::from_ref(&text), &opts);
        for line in whole.lines() {
            prop_assert!(
                terminal_width(line) <= width,
                "line of width {} > {}: {:?}",
                terminal_width(line),
                width,
                line
            );
        }
        // Nothing but blanks is lost or added.
        let visible = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        let clean = gemline::render::text::clean_text(&text, !unicode);
        let expected = if unicode {
            visible(&clean)
        } else {
            visible(&clean).chars().map(|c| if c.is_ascii() { c } else { '?' }).collect()
        };
        prop_assert_eq!(visible(&whole), expected);
        // Text that fits is written as it is, blanks at line ends aside.
        if unicode && clean.lines().all(|l| terminal_width(l) <= width) {
            let mut fitted: String = clean
                .split('\n')
                .map(|l| l.trim_end_matches([' ', '\t']))
                .collect::<Vec<_>>()
                .join("\n");
            if !fitted.is_empty() && !fitted.ends_with('\n') {
                fitted.push('\n');
            }
            prop_assert_eq!(&whole, &fitted);
        }
        // Where the deltas were cut does not matter.
        let chars: Vec<char> = text.chars().collect();
        let mut at: Vec<usize> = cuts.iter().map(|i| i.index(chars.len() + 1)).collect();
        at.sort_unstable();
        let mut deltas = Vec::new();
        let mut prev = 0;
        for i in at.into_iter().chain([chars.len()]) {
            deltas.push(chars[prev..i].iter().collect::<String>());
            prev = i;
        }
        prop_assert_eq!(draw_text(&deltas, &opts), whole);
    }
}

fn date() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        Just("2026-03-01"),
        Just("2026-03-01T07:30:00Z"),
        Just("2026-03-02T19:00:00+02:00"),
        Just("1970-01-01"),
        Just("0001-01-01"),
        Just("9000-12-31"),
        Just("2026-11"),
        Just("2024"),
    ]
}

/// A JSON value of any kind, for encodings and cells that do not fit.
fn junk() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::json;
    prop_oneof![
        Just(json!(null)),
        Just(json!("x")),
        Just(json!(true)),
        Just(json!([1])),
        Just(json!({"a": 1})),
        value().prop_map(|v| json!(v)),
        text().prop_map(|t| json!(t)),
    ]
}

/// A mark that fits the fields `n`, `m` (numbers), `s` (string) and `d`
/// (date) with `x` on the x axis, or (sometimes) one of any shape.
fn mark(x: &'static str) -> BoxedStrategy<serde_json::Value> {
    use serde_json::json;
    let x_const = move || -> BoxedStrategy<serde_json::Value> {
        match x {
            "n" => value().prop_map(|v| json!(v)).boxed(),
            "d" => date().prop_map(|d| json!(d)).boxed(),
            _ => text().prop_map(|t| json!(t)).boxed(),
        }
    };
    let y = || prop_oneof![Just("n"), Just("m")];
    let series = || prop::option::of(prop_oneof![Just(json!("s")), text().prop_map(|t| json!(t))]);
    let fitting = prop_oneof![
        (
            prop_oneof![Just("line"), Just("point"), Just("bar")],
            y(),
            series()
        )
            .prop_map(move |(k, y, s)| json!({"type": k, "x": x, "y": y, "series": s}))
            .boxed(),
        (y(), y(), any::<bool>(), series())
            .prop_map(move |(a, b, band, s)| if band {
                json!({"type": "area", "x": x, "yStart": a, "yEnd": b, "series": s})
            } else {
                json!({"type": "area", "x": x, "y": a, "series": s})
            })
            .boxed(),
        (
            prop::option::of((x_const(), x_const())),
            prop::option::of((value(), value())),
            prop::option::of(text())
        )
            .prop_map(|(xs, ys, label)| {
                let mut m = json!({"type": "rectangle", "label": label});
                if let Some((a, b)) = xs {
                    (m["xStart"], m["xEnd"]) = (a, b);
                }
                if let Some((a, b)) = ys {
                    (m["yStart"], m["yEnd"]) = (json!(a), json!(b));
                }
                m
            })
            .boxed(),
        (x_const(), value(), any::<bool>(), prop::option::of(text()))
            .prop_map(|(xv, yv, on_x, label)| {
                if on_x {
                    json!({"type": "rule", "xValue": xv, "label": label})
                } else {
                    json!({"type": "rule", "yValue": yv, "label": label})
                }
            })
            .boxed(),
    ];
    let any_shape = (
        prop_oneof![
            Just("line"),
            Just("bar"),
            Just("sector"),
            Just("pie"),
            Just("rule")
        ],
        junk(),
        junk(),
        junk(),
    )
        .prop_map(|(k, a, b, c)| json!({"type": k, "x": a, "y": b, "xValue": c}));
    prop_oneof![9 => fitting.boxed(), 1 => any_shape.boxed()].boxed()
}

fn grammar_spec() -> BoxedStrategy<serde_json::Value> {
    use serde_json::json;
    let row = (value(), value(), text(), date(), 0u8..10)
        .prop_map(|(n, m, s, d, gap)| match gap {
            0 => json!({"n": null, "m": m, "s": s, "d": d}),
            1 => json!({"n": n, "s": s}),
            _ => json!({"n": n, "m": m, "s": s, "d": d}),
        })
        .boxed();
    let axis = || {
        (prop::option::of(text()), any::<bool>(), prop::option::of((value(), value())))
            .prop_map(|(label, invert, domain)| json!({"label": label, "invert": invert, "domain": domain}))
    };
    let marks = prop_oneof![
        4 => prop_oneof![Just("n"), Just("d"), Just("s")]
            .prop_flat_map(|x| prop::collection::vec(mark(x), 1..5)),
        1 => prop::collection::vec(
            (prop_oneof![Just("m"), Just("n")], prop_oneof![Just("s"), Just("d"), Just("n")])
                .prop_map(|(a, c)| json!({"type": "sector", "angle": a, "category": c})),
            1..3,
        ),
    ];
    (
        prop::collection::vec(row, 0..60),
        marks,
        prop::option::of((axis(), axis())),
        any::<bool>(),
        prop::option::of(text()),
        prop::option::of((
            0usize..60,
            prop_oneof![Just("n"), Just("d"), Just("s")],
            junk(),
        )),
    )
        .prop_map(|(mut rows, marks, axes, interaction, unit, spoil)| {
            if let Some((i, k, v)) = spoil
                && let Some(r) = rows.get_mut(i)
            {
                r[k] = v;
            }
            let mut spec = json!({
                "dataset": {"rows": rows},
                "fields": {"n": {"type": "number", "unit": unit}, "m": {"type": "number"},
                           "s": {"type": "string", "label": "S"}, "d": {"type": "date"}},
                "marks": marks,
            });
            if let Some((x, y)) = axes {
                spec["axes"] = json!({"x": x, "y": y});
            }
            if interaction {
                spec["interaction"] = json!({"xSelection": true});
            }
            spec
        })
        .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::support::proptest_cases(512), ..ProptestConfig::default() })]

    /// No spec and no width (1 to 200) makes the grammar's renderer panic
    /// or write a line wider than the width; what validation refuses
    /// shows its fallback through the stream renderer, also without panic.
    #[test]
    fn grammar_specs_fit_any_width(spec in grammar_spec(), width in 1usize..=200, height in 2usize..40, unicode in any::<bool>(), color in any::<bool>()) {
        use gemline::spec::grammar::{Limits, validate_spec};
        let opts = RenderOptions { width, height, unicode, color, ..RenderOptions::default() };
        if let Ok(valid) = validate_spec(&spec, &Limits::default()) {
            for line in gemline::render::render_spec(Some("title"), &valid.spec, &opts) {
                check_line(&line, &opts)?;
            }
        }
        let event = serde_json::json!({"type": "ui", "id": "p", "kind": "chart", "version": 1,
                                       "title": "t", "spec": spec, "fallbackText": "fallback"});
        let Ok(Some(e)) = Event::from_line(&event.to_string(), 1) else {
            return Err(TestCaseError::fail("not an event"));
        };
        let mut out = Vec::new();
        let mut r = Renderer::new(opts.clone());
        r.event(&e, &mut out).unwrap();
        r.finish(&mut out).unwrap();
        for line in String::from_utf8(out).unwrap().lines() {
            check_line(line, &opts)?;
        }
    }
}

/// Every output format of the real binary over arbitrary charts, grammar
/// specs and text: no panic (exit 101), no failure, UTF-8 out (the shapes
/// of each format are checked by their own tests against real parsers).
mod formats {
    use super::*;

    fn run(format: &str, width: usize, stdin: &str) -> std::process::Output {
        assert_cmd::cargo::cargo_bin_cmd!("viz-render")
            .env_clear()
            .env("LANG", "C.UTF-8")
            .args(["--format", format, "--width", &width.to_string()])
            .write_stdin(stdin.to_string())
            .output()
            .unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: crate::support::proptest_cases(24), ..ProptestConfig::default() })]

        #[test]
        fn no_format_fails_on_any_stream(
            chart in chart(),
            spec in grammar_spec(),
            texts in prop::collection::vec(text(), 0..4),
            title in text(),
            width in 1usize..=160,
        ) {
            let mut lines = vec![Event::topic(&title, Some(&title)).to_line()];
            for t in &texts {
                lines.push(Event::message("assistant", t, true).to_line());
            }
            lines.push(Event::error("warning", &title).to_line());
            lines.push(chart.to_event().to_line());
            lines.push(serde_json::json!({"type": "ui", "id": "p", "kind": "chart", "version": 1,
                "title": title, "spec": spec, "fallbackText": "fallback"}).to_string());
            let stdin = lines.join("\n") + "\n";
            for format in ["markdown", "github", "gitlab", "svg", "json", "vega-lite"] {
                let out = run(format, width, &stdin);
                prop_assert_eq!(
                    out.status.code(), Some(0),
                    "--format {}: {}", format, String::from_utf8_lossy(&out.stderr)
                );
                let text = String::from_utf8(out.stdout);
                prop_assert!(text.is_ok(), "--format {} wrote invalid UTF-8", format);
            }
        }
    }
}

/// Found by the property above: a bar of f64::MAX beside 0 overflowed the
/// SVG writer's pixel arithmetic (a panic).
#[test]
fn svg_takes_the_largest_finite_value() {
    let e = r#"{"type":"visualization","chartType":"bar","series":[{"name":"s","points":[{"label":"a","value":1.7976931348623157e308},{"label":"b","value":0}]}]}"#;
    let out = assert_cmd::cargo::cargo_bin_cmd!("viz-render")
        .env_clear()
        .args(["--format", "svg"])
        .write_stdin(e)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("<svg"));
}

/// A stream the render fuzz target found (its first two bytes the
/// options: width 3, Unicode, no colour, tools shown): every line within
/// the width, as for any stream without code lines.
#[test]
fn the_fuzzers_narrow_stream_keeps_to_its_width() {
    use gemline::events::EventReader;
    let data = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata/fuzz/render-narrow-stream.bin"),
    )
    .unwrap();
    let opts = RenderOptions {
        width: usize::from(data[0]) + 1,
        unicode: data[1] & 1 == 0,
        color: data[1] & 2 != 0,
        show_tools: data[1] & 4 != 0,
        ..RenderOptions::default()
    };
    let mut r = Renderer::new(opts.clone());
    let mut out = Vec::new();
    let mut reader = EventReader::new(&data[2..]);
    while let Ok(Some(e)) = reader.next_event() {
        let Ok(e) = e else { continue };
        r.event(&e, &mut out).unwrap();
    }
    r.finish(&mut out).unwrap();
    for line in String::from_utf8(out).unwrap().lines() {
        let w = unicode_width::UnicodeWidthStr::width(line);
        assert!(
            w <= opts.width,
            "{w} columns at width {}: {line:?}",
            opts.width
        );
    }
}
