//! The library entry points gem-ask calls: `chart_from_tool_args` (the
//! render_visualization tool) and `parse_text` (its inputText).

use gemline::parse::{ParseOptions, ToolArgsError, chart_from_tool_args, parse_text};
use gemline::spec::{ChartType, Reduction};
use serde_json::{Value, json};

fn refuse(args: Value) -> ToolArgsError {
    chart_from_tool_args(&args).expect_err("should be refused")
}

#[test]
fn bmw_bar_from_series() {
    let n = chart_from_tool_args(&json!({
        "chartType": "bar", "title": "0-60 mph", "unit": "s",
        "series": [{"name": "0-60", "points": [
            {"label": "M5 CS", "value": 2.9},
            {"label": "M8 Competition", "value": 3.0},
            {"label": "M3 Competition", "value": 3.4}]}]
    }))
    .unwrap();
    let c = &n.chart;
    assert_eq!(c.chart_type, ChartType::Bar);
    assert_eq!(c.title.as_deref(), Some("0-60 mph"));
    assert_eq!(c.series[0].points[1].label, "M8 Competition");
    assert!(!c.meta.truncated);
    assert_eq!(c.meta.original_point_count, 3);
    assert!(n.non_finite.is_empty());
}

#[test]
fn yearly_line_with_numeric_labels_and_string_values() {
    let n = chart_from_tool_args(&json!({
        "series": [{"name": "models", "points": [
            {"label": 2021, "value": "12"}, {"label": 2022, "value": "15"},
            {"label": 2023, "value": 18}]}]
    }))
    .unwrap();
    // chartType inferred from year labels.
    assert_eq!(n.chart.chart_type, ChartType::Line);
    let labels: Vec<&str> = n.chart.series[0]
        .points
        .iter()
        .map(|p| p.label.as_str())
        .collect();
    assert_eq!(labels, ["2021", "2022", "2023"]);
}

#[test]
fn table_payload_sorted() {
    let n = chart_from_tool_args(&json!({
        "chartType": "table", "sort": "desc",
        "series": [{"name": "hp", "points": [
            {"label": "M2", "value": 453}, {"label": "M5 CS", "value": 627}]}]
    }))
    .unwrap();
    assert_eq!(n.chart.chart_type, ChartType::Table);
    assert_eq!(n.chart.series[0].points[0].label, "M5 CS");
}

#[test]
fn multi_series_line_and_bar_accepted_table_rejected() {
    let series = json!([
        {"name": "north", "points": [{"label": "Jan", "value": 1}, {"label": "Feb", "value": 2}]},
        {"name": "south", "points": [{"label": "Jan", "value": 3}, {"label": "Feb", "value": 4}]}
    ]);
    let n = chart_from_tool_args(&json!({"chartType": "line", "series": series})).unwrap();
    assert_eq!(n.chart.series.len(), 2);
    // Bars of several series are grouped (issue 36).
    let n = chart_from_tool_args(&json!({"chartType": "bar", "series": series})).unwrap();
    assert_eq!(n.chart.series.len(), 2);
    let e = refuse(json!({"chartType": "table", "series": series}));
    assert_eq!(e.field, "series");
    assert!(e.problem.contains("north, south"), "{e}");
    assert!(
        e.problem
            .contains(r#"chartType "bar", "line", "heatmap" or "spark""#),
        "{e}"
    );
}

#[test]
fn input_text_in_every_accepted_format() {
    let texts = [
        "model,secs\nM5 CS,2.9\nM8 Competition,3.0",
        "model\tsecs\nM5 CS\t2.9\nM8 Competition\t3.0",
        r#"{"M5 CS": 2.9, "M8 Competition": 3.0}"#,
        r#"[{"model": "M5 CS", "secs": 2.9}, {"model": "M8 Competition", "secs": 3.0}]"#,
        r#"[["M5 CS", 2.9], ["M8 Competition", 3.0]]"#,
        "| model | secs |\n|---|---:|\n| M5 CS | 2.9 |\n| M8 Competition | 3.0 |",
        "Here is the data:\n\n| model | secs |\n|---|---|\n| M5 CS | 2.9s |\n| M8 Competition | 3.0s |\n",
    ];
    for t in texts {
        let n = chart_from_tool_args(&json!({"chartType": "bar", "inputText": t}))
            .unwrap_or_else(|e| panic!("{t}: {e}"));
        let pts: Vec<(String, f64)> = n.chart.series[0]
            .points
            .iter()
            .map(|p| (p.label.clone(), p.value))
            .collect();
        assert_eq!(
            pts,
            [
                ("M5 CS".to_string(), 2.9),
                ("M8 Competition".to_string(), 3.0)
            ],
            "{t}"
        );
    }
}

#[test]
fn prose_in_input_text_is_refused_with_examples() {
    let e = refuse(json!({"chartType": "bar",
        "inputText": "The M5 CS is the fastest at 2.9 seconds, then the M8."}));
    assert_eq!(e.field, "inputText");
    let msg = e.to_string();
    assert!(msg.contains("could not be read as data"), "{msg}");
    assert!(
        msg.contains(r#""series":[{"name":"0-60","points":[{"label":"M5 CS","value":2.9}"#),
        "{msg}"
    );
    assert!(
        msg.contains(r#""inputText":"year,sales\n2021,120"#),
        "{msg}"
    );
}

#[test]
fn errors_name_the_field_for_a_model_to_fix() {
    let cases = [
        (json!([1, 2]), "arguments"),
        (json!({"chartType": "pie", "series": []}), "chartType"),
        (json!({"chartType": "bar"}), "series"),
        (json!({"chartType": "bar", "series": "M5 2.9"}), "series"),
        (
            json!({"chartType": "bar", "series": [{"name": "a"}]}),
            "series[0].points",
        ),
        (
            json!({"chartType": "bar", "series": [{"name": "a", "points": [{"value": 1}]}]}),
            "series[0].points[0].label",
        ),
        (
            json!({"chartType": "bar", "series": [{"name": "a", "points": [3]}]}),
            "series[0].points[0]",
        ),
        (
            json!({"chartType": "bar", "sort": "up", "series": []}),
            "sort",
        ),
        (
            json!({"chartType": "bar", "maxPoints": "many", "series": []}),
            "maxPoints",
        ),
        (
            json!({"chartType": "bar", "title": [1], "series": []}),
            "title",
        ),
        (
            json!({"chartType": "bar", "series": [{"name": "a", "points": [{"label": "x", "value": "n/a"}]}]}),
            "series[].points[].value",
        ),
    ];
    for (args, field) in cases {
        let e = refuse(args.clone());
        assert_eq!(e.field, field, "{args}: {e}");
        assert!(e.to_string().contains("Accepted arguments"), "{e}");
    }
}

#[test]
fn non_finite_values_are_dropped_and_reported() {
    let n = chart_from_tool_args(&json!({
        "chartType": "bar",
        "series": [{"name": "t", "points": [
            {"label": "a", "value": 1.5}, {"label": "b", "value": null},
            {"label": "c", "value": "Infinity"}, {"label": "d", "value": "2.9s"}]}]
    }))
    .unwrap();
    assert_eq!(n.chart.series[0].points.len(), 2);
    assert_eq!(n.chart.unit.as_deref(), Some("s"));
    assert_eq!(
        n.non_finite,
        [
            ("t".to_string(), "b".to_string()),
            ("t".to_string(), "c".to_string())
        ]
    );
}

#[test]
fn max_points_clamps_to_200_and_truncation_is_recorded() {
    let pts: Vec<Value> = (0..500)
        .map(|i| json!({"label": format!("p{i}"), "value": i}))
        .collect();
    let n = chart_from_tool_args(&json!({"chartType": "line", "maxPoints": 5000,
        "series": [{"name": "s", "points": pts}]}))
    .unwrap();
    // Each of 50 ranges keeps its first, last, min and max: a straight
    // line needs only two of them.
    assert_eq!(n.chart.series[0].points.len(), 100);
    assert!(n.chart.meta.truncated);
    assert_eq!(n.chart.meta.original_point_count, 500);
    assert_eq!(n.chart.meta.reduction, Some(Reduction::Minmax));
    let n = chart_from_tool_args(&json!({"chartType": "bar", "keep": "last", "maxPoints": 5,
        "series": [{"name": "s", "points": pts}]}))
    .unwrap();
    assert_eq!(n.chart.series[0].points[0].label, "p495");
}

#[test]
fn parse_text_reports_skipped_rows() {
    let n = parse_text("k,v\na,1\nb,N/A\nc,3\n", &ParseOptions::default()).unwrap();
    assert_eq!(n.chart.series[0].points.len(), 2);
    assert_eq!(n.non_finite, [("v".to_string(), "b".to_string())]);
    let opts = ParseOptions {
        chart: Some(ChartType::Table),
        title: Some("T".into()),
        ..Default::default()
    };
    let n = parse_text("a,1\nb,2\n", &opts).unwrap();
    assert_eq!(n.chart.chart_type, ChartType::Table);
    assert_eq!(n.chart.title.as_deref(), Some("T"));
    assert!(parse_text("just words", &ParseOptions::default()).is_err());
}

#[test]
fn the_command_line_definition_is_sound_and_documents_exit_codes() {
    use clap::CommandFactory;
    let cmd = gemline::app::viz_parse::args::VizParseArgs::command();
    cmd.clone().debug_assert();
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut page).unwrap();
    let page = String::from_utf8(page).unwrap();
    for want in [
        "viz\\-parse",
        "65",
        "66",
        "\\-\\-max\\-points",
        "\\-\\-downsample",
    ] {
        assert!(page.contains(want), "man page lacks {want:?}");
    }
}
