//! The chart kinds of issue 36 through the model's tool: a fake model
//! calls render_visualization with a heatmap, a box plot of raw values,
//! stacked bars and small multiples, one call a round, and viz-render
//! draws each from gem-ask's stream.

use crate::support::ask::*;
use crate::support::{FakeGemini, Reply, temp_dir};
use serde_json::{Value, json};

fn call(args: Value) -> Reply {
    Reply::sse(&single_call_with(
        json!({"name": "render_visualization", "args": args}),
    ))
}

fn heatmap() -> Value {
    json!({"chartType":"heatmap","title":"Tickets","xLabel":"Day","seriesLabel":"Hour","series":[
        {"name":"9h","points":[{"label":"Mon","value":12},{"label":"Tue","value":3}]},
        {"name":"10h","points":[{"label":"Mon","value":1},{"label":"Tue","value":8}]}]})
}

fn boxes() -> Value {
    json!({"chartType":"box","title":"Latency","unit":"ms","seriesLabel":"Region","series":[
        {"name":"EU","values":[10,12,13,14,15,16,18,90]},
        {"name":"US","values":[20,22,25,26,30]}]})
}

fn stacked() -> Value {
    json!({"chartType":"bar","title":"Cars sold","stack":"zero","series":[
        {"name":"EV","points":[{"label":"2023","value":2},{"label":"2024","value":5}]},
        {"name":"Petrol","points":[{"label":"2023","value":8},{"label":"2024","value":5}]}]})
}

fn faceted() -> Value {
    json!({"chartType":"bar","title":"Sales","facet":{"field":"Region"},"series":[
        {"name":"sales","facet":"North","points":[{"label":"Q1","value":4},{"label":"Q2","value":6}]},
        {"name":"sales","facet":"South","points":[{"label":"Q1","value":7},{"label":"Q2","value":2}]}]})
}

#[test]
fn a_model_draws_a_heatmap_a_box_plot_stacked_bars_and_panels() {
    let server = FakeGemini::start(
        "chart-kinds",
        vec![
            call(heatmap()),
            call(boxes()),
            call(stacked()),
            call(faceted()),
            text_reply("Four charts.", 900, 4),
        ],
    );
    let home = temp_dir("chart-kinds");
    let drawn = pipe_into_viz_render(&server, &home, &["show me the four charts"]);
    // Each answer to the model says what was drawn, no refusal.
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 5);
    for (round, kind) in [(1, "heatmap"), (2, "box"), (3, "bar"), (4, "bar")] {
        let contents = bodies[round]["contents"].as_array().unwrap();
        let answer = &contents.last().unwrap()["parts"][0]["functionResponse"]["response"];
        assert!(
            answer["output"]
                .as_str()
                .is_some_and(|o| o.starts_with(&format!("Rendered a {kind} chart"))),
            "{answer}"
        );
    }
    let lines: Vec<&str> = drawn.lines().collect();
    let has = |l: &str| assert!(lines.contains(&l), "no line {l:?} in\n{drawn}");
    // The heatmap: rows named by their series, a cell's number and its
    // shade, the legend from 0 to the largest cell.
    has("Hour   Mon   Tue");
    assert!(lines.iter().any(|l| l.starts_with("9h   @ 12 ")), "{drawn}");
    has("0 [ .:-=+*#%@] 12");
    // The box plot: a row per group, EU's 90 ms an outlier at the far end.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("EU | |-[|]|") && l.ends_with('o')),
        "{drawn}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("US |") && l.contains("[=|]")),
        "{drawn}"
    );
    // Stacked bars: each year's total, the series told apart by fill.
    has("2023 ##########========================================== 10");
    has("# EV  = Petrol");
    // Small multiples: a panel per region, side by side, on one shared
    // value scale (North's 4 is 4/7 of South's 7).
    has("Region: North                  Region: South");
    has("Q1 ##############           4  Q1 ######################## 7");
    assert!(drawn.ends_with("Four charts.\n"), "{drawn}");
}
