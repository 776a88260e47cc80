//! No input makes viz-parse panic: arbitrary bytes through the binary exit
//! 0 or 65, and arbitrary text through the library returns.

use assert_cmd::cargo::cargo_bin_cmd;
use gemline::parse::{ParseOptions, chart_from_tool_args, parse_text};
use proptest::prelude::*;

/// Strings made of the characters that steer detection, so the cases reach
/// deep into each parser rather than failing at the first byte.
fn structured() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just(",".to_string()),
            Just(";".to_string()),
            Just("\t".to_string()),
            Just("|".to_string()),
            Just("\n".to_string()),
            Just("\r\n".to_string()),
            Just("\"".to_string()),
            Just("{".to_string()),
            Just("}".to_string()),
            Just("[".to_string()),
            Just("]".to_string()),
            Just(":".to_string()),
            Just("---".to_string()),
            Just("N/A".to_string()),
            Just("\\|".to_string()),
            Just("`".to_string()),
            Just("\u{feff}".to_string()),
            Just(r#""type":"tool_use""#.to_string()),
            Just(r#""tool_name":"render_visualization""#.to_string()),
            Just(r#""series""#.to_string()),
            Just(r#""points""#.to_string()),
            Just(r#""label""#.to_string()),
            Just(r#""value""#.to_string()),
            Just(r#""inputText""#.to_string()),
            "-?[0-9]{1,4}(\\.[0-9]{1,2})?(e[0-9]{1,3})?[%s$]?",
            "[a-zA-Z ]{1,6}",
            any::<char>().prop_map(|c| c.to_string()),
        ],
        0..40,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::support::proptest_cases(40), ..ProptestConfig::default() })]

    #[test]
    fn the_binary_never_panics_on_bytes(input in proptest::collection::vec(any::<u8>(), 0..400)) {
        let o = cargo_bin_cmd!("viz-parse").write_stdin(input).output().unwrap();
        let code = o.status.code();
        prop_assert!(code == Some(0) || code == Some(65), "exit {code:?}: {}", String::from_utf8_lossy(&o.stderr));
    }

    #[test]
    fn the_binary_never_panics_on_structured_text(input in structured()) {
        let o = cargo_bin_cmd!("viz-parse").write_stdin(input.clone()).output().unwrap();
        let code = o.status.code();
        prop_assert!(code == Some(0) || code == Some(65), "exit {code:?} for {input:?}: {}", String::from_utf8_lossy(&o.stderr));
        if code == Some(65) {
            // A refused input writes nothing, so no half chart goes downstream.
            prop_assert!(o.stdout.is_empty(), "{input:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::support::proptest_cases(1000), ..ProptestConfig::default() })]

    #[test]
    fn parse_text_never_panics(input in structured()) {
        let _ = parse_text(&input, &ParseOptions::default());
    }

    #[test]
    fn tool_args_never_panic(input in structured()) {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&input) {
            let _ = chart_from_tool_args(&v);
        }
        let _ = chart_from_tool_args(&serde_json::json!({"inputText": input}));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::support::proptest_cases(300), ..ProptestConfig::default() })]

    /// Any numeric table gives a valid chart within the point limit, with
    /// meta telling how many points there were.
    #[test]
    fn numeric_tables_give_valid_bounded_charts(
        values in proptest::collection::vec(-1e9f64..1e9, 1..400),
        max in 1usize..300,
        chart in prop_oneof![Just("bar"), Just("line"), Just("table")],
    ) {
        let mut text = String::from("name,value\n");
        for (i, v) in values.iter().enumerate() {
            text.push_str(&format!("item {i},{v}\n"));
        }
        let opts = ParseOptions {
            max_points: Some(max),
            chart: gemline::spec::ChartType::parse(chart),
            ..ParseOptions::default()
        };
        let n = parse_text(&text, &opts).unwrap();
        n.chart.validate().unwrap();
        let limit = max.clamp(2, 200);
        let kept = n.chart.series[0].points.len();
        prop_assert!(kept <= limit);
        prop_assert_eq!(n.chart.meta.original_point_count, values.len());
        prop_assert_eq!(n.chart.meta.truncated, values.len() > limit);
        if values.len() <= limit {
            prop_assert_eq!(kept, values.len());
        }
        prop_assert!(n.non_finite.is_empty());
    }
}
