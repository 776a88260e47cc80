//! The issue 36 kinds in `viz-render --format markdown`: stacked bars as a
//! mermaid xychart (each series' running total overlaid, longest first,
//! as xychart draws several bar plots at one place; the value axis from
//! 0), accepted by the real mermaid parser; a heatmap as its grid and a
//! box plot as a row per group where mermaid has no such chart; grouped
//! bars, which mermaid cannot place side by side, as their data.

use assert_cmd::cargo::cargo_bin_cmd;

use crate::support;

fn markdown(event: &str) -> String {
    let (code, out, err) = support::filter(
        cargo_bin_cmd!("viz-render"),
        &["--format", "markdown"],
        event,
    );
    assert_eq!((code, err.as_str()), (0, ""));
    out
}

fn stacked(stack: &str) -> String {
    format!(
        r#"{{"type":"visualization","chartType":"bar","stack":"{stack}","unit":"k","series":[
        {{"name":"EV","points":[{{"label":"2022","value":1.5}},{{"label":"2023","value":2}}]}},
        {{"name":"Hybrid","points":[{{"label":"2022","value":3}}]}},
        {{"name":"Petrol","points":[{{"label":"2022","value":9}},{{"label":"2023","value":8}}]}}],
        "meta":{{"truncated":false,"originalPointCount":5}}}}"#
    )
    .replace('\n', "")
}

#[test]
fn stacked_bars_are_running_totals_in_a_mermaid_xychart() {
    let md = markdown(&stacked("zero"));
    assert!(
        md.contains(
            "xychart-beta horizontal\n    x-axis [\"2022\", \"2023\"]\n    y-axis \"(k)\" 0 --> 13.5\n    \
             bar \"Petrol\" [13.5, 10]\n    bar \"Hybrid\" [4.5, 2]\n    bar \"EV\" [1.5, 2]\n```\n"
        ),
        "{md}"
    );
    // The palette follows the plots (last series first), so each series
    // keeps its colour, and the legend lists them in their order.
    assert!(
        md.contains("plotColorPalette: \"#16a34a, #ea580c, #2563eb\""),
        "{md}"
    );
    assert!(md.contains("🟦 EV · 🟧 Hybrid · 🟩 Petrol"), "{md}");
    let shares = markdown(&stacked("normalize"));
    assert!(
        shares.contains(
            "    y-axis \"% of total\" 0 --> 100\n    bar \"Petrol\" [100, 100]\n    \
             bar \"Hybrid\" [33.33, 20]\n    bar \"EV\" [11.11, 20]\n"
        ),
        "{shares}"
    );
    check_with_mermaid("stacked", &[md, shares]);
}

#[test]
fn negative_stacks_and_grouped_bars_are_their_data() {
    let negative = stacked("zero").replace("\"value\":1.5", "\"value\":-1.5");
    let md = markdown(&negative);
    assert!(
        md.contains(
            "_Not drawn: series \"EV\" has a negative value at \"2022\": mermaid stacks bars only from zero up; the data:_"
        ),
        "{md}"
    );
    let grouped = stacked("zero").replace(",\"stack\":\"zero\"", "");
    assert!(markdown(&grouped).contains("_Not drawn: mermaid has no grouped bar mark; the data:_"));
}

#[test]
fn a_heatmap_is_its_grid_and_a_box_plot_a_row_per_group() {
    let heat = markdown(
        r#"{"type":"visualization","chartType":"heatmap","xLabel":"Day","seriesLabel":"Hour","series":[{"name":"9h","points":[{"label":"Mon","value":12},{"label":"Tue","value":3.5}]},{"name":"10h","points":[{"label":"Tue","value":1}]}],"meta":{"truncated":false,"originalPointCount":3}}"#,
    );
    assert!(
        heat.contains(
            "| Hour \\\\ Day | Mon | Tue |\n| :--- | ---: | ---: |\n| 9h | 12.0 | 3.5 |\n| 10h |  | 1.0 |\n"
        ),
        "{heat}"
    );
    let boxed = markdown(
        r#"{"type":"visualization","chartType":"box","unit":"ms","seriesLabel":"Region","series":[{"name":"EU","points":[{"label":"lower","value":10},{"label":"q1","value":12.5},{"label":"median","value":14,"count":9},{"label":"q3","value":16},{"label":"upper","value":18},{"label":"outlier","value":-40},{"label":"outlier","value":90}]}],"meta":{"truncated":false,"originalPointCount":7}}"#,
    );
    assert!(
        boxed.contains(
            "| Region | lower (ms) | q1 (ms) | median (ms) | q3 (ms) | upper (ms) | n | outliers (ms) |\n\
             | :--- | ---: | ---: | ---: | ---: | ---: | ---: | :--- |\n\
             | EU | 10.0 | 12.5 | 14.0 | 16.0 | 18.0 | 9 | -40.0, 90.0 |\n"
        ),
        "{boxed}"
    );
}

/// Each Markdown, one mermaid block each, through the real mermaid parser.
fn check_with_mermaid(name: &str, docs: &[String]) {
    let dir = support::temp_dir(name);
    let files: Vec<std::path::PathBuf> = docs
        .iter()
        .enumerate()
        .map(|(i, md)| {
            let f = dir.join(format!("{i}.md"));
            std::fs::write(&f, md).unwrap();
            f
        })
        .collect();
    crate::viz_render_report::check_mermaid(&files, docs.len());
}
