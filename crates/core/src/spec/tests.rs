//! Unit tests of the chart spec: validation, normalizing, facets and
//! the event form.

use super::*;

fn chart(kind: ChartType, series: &[(&str, &[f64])]) -> Chart {
    Chart {
        chart_type: kind,
        series: series
            .iter()
            .map(|(n, vals)| Series {
                name: n.to_string(),
                points: vals
                    .iter()
                    .enumerate()
                    .map(|(i, v)| Point {
                        label: format!("p{i}"),
                        value: *v,
                        x: None,
                        x2: None,
                        count: None,
                    })
                    .collect(),
                facet: None,
            })
            .collect(),
        ..Chart::default()
    }
}

#[test]
fn several_series_of_bars_are_kept_and_a_table_takes_one() {
    let n = normalize(
        chart(ChartType::Bar, &[("a", &[1.0]), ("b", &[2.0])]),
        &NormalizeOptions::default(),
    )
    .unwrap();
    assert_eq!(n.chart.series.len(), 2);
    let err = normalize(
        chart(ChartType::Table, &[("a", &[1.0]), ("b", &[2.0])]),
        &NormalizeOptions::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("--chart line"), "{err}");
}

#[test]
fn non_finite_values_are_dropped_and_reported() {
    let n = normalize(
        chart(
            ChartType::Bar,
            &[("a", &[1.0, f64::NAN, f64::INFINITY, 2.0])],
        ),
        &NormalizeOptions::default(),
    )
    .unwrap();
    assert_eq!(n.chart.series[0].points.len(), 2);
    assert_eq!(n.non_finite.len(), 2);
    assert_eq!(n.chart.meta.original_point_count, 2);
}

#[test]
fn sort_applies_to_bar_not_line() {
    let opts = NormalizeOptions {
        sort: Sort::Desc,
        ..Default::default()
    };
    let bar = normalize(chart(ChartType::Bar, &[("a", &[1.0, 3.0, 2.0])]), &opts).unwrap();
    let vals: Vec<f64> = bar.chart.series[0].points.iter().map(|p| p.value).collect();
    assert_eq!(vals, vec![3.0, 2.0, 1.0]);
    let line = normalize(chart(ChartType::Line, &[("a", &[1.0, 3.0, 2.0])]), &opts).unwrap();
    let vals: Vec<f64> = line.chart.series[0]
        .points
        .iter()
        .map(|p| p.value)
        .collect();
    assert_eq!(vals, vec![1.0, 3.0, 2.0]);
}

#[test]
fn meta_records_truncation_and_method() {
    let vals: Vec<f64> = (0..5000).map(|i| f64::from(i % 7)).collect();
    let n = normalize(
        chart(ChartType::Line, &[("a", &vals)]),
        &NormalizeOptions {
            max_points: HARD_MAX_POINTS,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(n.chart.series[0].points.len() <= HARD_MAX_POINTS);
    assert!(n.chart.meta.truncated);
    assert_eq!(n.chart.meta.original_point_count, 5000);
    assert_eq!(n.chart.meta.reduction, Some(Reduction::Minmax));
}

#[test]
fn a_repeated_label_is_a_row_each_time() {
    let mut c = chart(ChartType::Line, &[("a", &[1.0, 2.0, 3.0]), ("b", &[4.0])]);
    c.series[0].points[1].label = "p0".into();
    let rows = c.table_rows();
    assert_eq!(
        rows,
        vec![
            ("p0", vec![Some(1.0), Some(4.0)]),
            ("p0", vec![Some(2.0), None]),
            ("p2", vec![Some(3.0), None]),
        ]
    );
}

#[test]
fn panels_follow_the_series_facets_in_first_seen_order() {
    let mut c = chart(
        ChartType::Table,
        &[("v", &[1.0]), ("v", &[2.0, 3.0]), ("v", &[4.0])],
    );
    for (s, f) in c.series.iter_mut().zip(["b", "a", "b"]) {
        s.facet = Some(f.into());
    }
    // Two table series in panel "b": refused as a table of two series.
    c.facet = Some(Facet {
        field: "region".into(),
        ..Facet::default()
    });
    assert!(matches!(c.validate(), Err(SpecError::TooManySeries { .. })));
    c.series[2].facet = Some("c".into());
    c.validate().unwrap();
    let panels = c.panels();
    let names: Vec<&str> = panels.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["b", "a", "c"]);
    assert_eq!(panels[1].1.point_count(), 2);
    assert!(panels.iter().all(|(_, p)| p.facet.is_none()));
    let back = Chart::from_value(&serde_json::Value::Object(c.to_event().0)).unwrap();
    assert_eq!(back, c);
}

#[test]
fn event_form_round_trips() {
    let c = normalize(
        chart(ChartType::Bar, &[("0-60", &[2.9, 3.0])]),
        &NormalizeOptions::default(),
    )
    .unwrap()
    .chart;
    let e = c.to_event();
    assert_eq!(e.kind(), "visualization");
    let back = Chart::from_value(&serde_json::Value::Object(e.0)).unwrap();
    assert_eq!(back, c);
}
