//! The plot grammar's `rect` (a heatmap) and `boxplot` marks, issue 36's
//! "the model's `plot` tool accepts them too", end to end: the fake
//! Gemini model calls `plot` with a rect and a boxplot layer over the
//! real Palmer penguins (testdata/real/penguins.csv) and viz-render draws
//! both charts, drawn by the quick heatmap's and box plot's own code, in
//! the terminal (snapshots at widths 20 to 200, Unicode and ASCII, colour
//! on and off), SVG, Markdown (each chart's table) and Vega-Lite, which
//! the real Vega tools validate, compile and render; the boxes' medians
//! are the published ones (palmerpenguins: Adelie 3700 g, Chinstrap
//! 3700 g, Gentoo 5000 g).

use std::path::Path;

use serde_json::{Map, Value, json};

use crate::gem_ask_plot::{call_reply, gem_ask, text_reply};
use crate::support::{self, FakeGemini, Succeeds, events, kinds};
use crate::viz_scales_calendar::{render, snapshots};

/// The penguins as rows: numbers as numbers, `NA` left out.
fn penguins() -> Vec<Value> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("testdata/real/penguins.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            let mut row = Map::new();
            for (k, v) in header.iter().zip(l.split(',')) {
                if v == "NA" || v.is_empty() {
                    continue;
                }
                let cell = v.parse::<f64>().map_or(json!(v), |n| json!(n));
                row.insert((*k).to_string(), cell);
            }
            Value::Object(row)
        })
        .collect()
}

/// The plot call: penguins counted by island and species (a rect), and
/// their body mass by species (a boxplot).
fn plot_args() -> Value {
    json!({"title": "Penguins", "fallbackText": "penguins by island; body mass by species",
    "spec": {"dataset": {"rows": penguins()},
        "fields": {"body_mass_g": {"type": "number", "label": "Body mass", "unit": "g"},
                   "species": {"type": "string", "label": "Species"},
                   "island": {"type": "string", "label": "Island"}},
        "marks": [
            {"type": "rect", "x": "island", "y": "species", "label": "Penguins counted"},
            {"type": "boxplot", "x": "body_mass_g", "y": "species", "label": "Body mass"}
        ]}})
}

/// gem-ask's stream for a model that calls plot with the two marks.
fn stream(name: &str) -> (String, Vec<Value>) {
    let server = FakeGemini::start(
        name,
        vec![
            call_reply("plot", plot_args()),
            text_reply("Gentoo penguins are the heaviest."),
        ],
    );
    let out = gem_ask(&server, name).arg("plot the penguins").succeeds();
    let bodies = server.bodies();
    (String::from_utf8(out.stdout).unwrap(), bodies)
}

#[test]
fn the_model_plots_a_rect_and_a_boxplot_and_viz_render_draws_both() {
    let (out, bodies) = stream("plot-marks");
    let ev = events(out.as_bytes());
    assert_eq!(
        kinds(&ev).join(" "),
        "init message tool_use ui tool_result message result"
    );
    assert_eq!(ev[4]["status"], "success", "{}", ev[4]);
    // The model sees both marks in the declaration and in the answer.
    let decls = bodies[0]["tools"][0]["functionDeclarations"]
        .as_array()
        .unwrap();
    let plot = decls.iter().find(|d| d["name"] == "plot").unwrap();
    let mark = &plot["parametersJsonSchema"]["properties"]["spec"]["properties"]["marks"]["items"];
    let kinds_declared = mark["properties"]["type"]["enum"].to_string();
    assert!(
        kinds_declared.contains("\"rect\"") && kinds_declared.contains("\"boxplot\""),
        "{kinds_declared}"
    );
    assert_eq!(mark["properties"]["aggregate"]["enum"][2], "mean");
    let answer = &bodies[1]["contents"][2]["parts"][0]["functionResponse"]["response"]["output"];
    assert!(
        answer
            .as_str()
            .unwrap()
            .starts_with("Drew \"Penguins\": 1 rect mark, 1 boxplot mark over 344 rows"),
        "{answer}"
    );

    // Drawn, not the fallback text: the counts in the heatmap's cells
    // (Adelie on Biscoe 44, Gentoo 124, Chinstrap on Dream 68) and a box
    // per species.
    let (code, drawn, err) = render(&["--color", "never", "--width", "80"], &out);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(!drawn.contains("penguins by island"), "{drawn}");
    for cell in ["44", "124", "68"] {
        assert!(drawn.contains(cell), "{cell}: {drawn}");
    }
    assert!(drawn.contains("Penguins counted") && drawn.contains("Body mass (g)"));
    assert!(drawn.contains("whiskers reach 1.5 x IQR"), "{drawn}");
    let boxes = drawn.lines().filter(|l| l.contains('┃')).count();
    assert!(boxes >= 3, "a box per species: {drawn}");
}

/// The ui event alone, as viz-render reads it.
fn ui_event() -> String {
    let (out, _) = stream("plot-marks-ui");
    let ui = events(out.as_bytes())
        .into_iter()
        .find(|e| e["type"] == "ui")
        .unwrap();
    format!("{ui}\n")
}

#[test]
fn rect_and_boxplot_marks_at_every_width_unicode_and_ascii() {
    let e = ui_event();
    let (_, out, _) = render(&["--color", "always", "--width", "80"], &e);
    assert!(out.contains("\x1b[48;5;"), "cells coloured: {out}");
    snapshots(&e, "plot_rect_boxplot");
}

#[test]
fn rect_and_boxplot_marks_in_svg_markdown_and_vega_lite_the_real_vega_tools_compile() {
    let e = ui_event();
    let (code, svg, err) = render(&["--format", "svg"], &e);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(svg.matches("<svg").count() >= 3, "two panels: {svg}");
    assert!(svg.contains("Penguins counted") && svg.contains("Gentoo"));

    // Markdown: each chart's table; the boxes' medians are the published ones.
    let (code, md, _) = render(&["--format", "markdown"], &e);
    assert_eq!(code, 0);
    assert!(md.contains("| Species \\\\ Island |"), "{md}");
    for (species, median) in [
        ("Adelie", "3700"),
        ("Chinstrap", "3700"),
        ("Gentoo", "5000"),
    ] {
        let row = md
            .lines()
            .find(|l| l.starts_with(&format!("| {species} |")) && l.contains('.'))
            .unwrap_or_else(|| panic!("{species}: {md}"));
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert!(
            cells[4].replace(',', "").starts_with(median),
            "{species}: {row}"
        );
    }

    let (code, vl, err) = render(&["--format", "vega-lite"], &e);
    assert_eq!((code, err.as_str()), (0, ""));
    let spec: Value = serde_json::from_str(&vl).unwrap();
    let views = spec["vconcat"].as_array().expect("one view per mark");
    assert_eq!(views[0]["layer"][0]["mark"]["type"], "rect");
    assert_eq!(
        views[0]["layer"][0]["encoding"]["color"]["aggregate"],
        "count"
    );
    assert_eq!(views[1]["layer"][0]["mark"]["type"], "boxplot");
    assert_eq!(views[1]["layer"][0]["mark"]["extent"], 1.5);
    assert_eq!(spec["data"]["values"].as_array().unwrap().len(), 344);

    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/vega/issue36-p36");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = vec![dir.join("rect_boxplot.vl.jsonl")];
    std::fs::write(&files[0], &vl).unwrap();
    // Each alone too: one view, not a vconcat; a rect of a number field
    // averaged over ordered numbers.
    for (name, mark) in [
        (
            "rect_mean.vl.jsonl",
            json!({"type": "rect", "x": "year", "y": "island",
                                      "color": "flipper_length_mm", "aggregate": "mean"}),
        ),
        (
            "boxplot_upright.vl.jsonl",
            json!({"type": "boxplot", "x": "island", "y": "bill_length_mm"}),
        ),
    ] {
        let mut args = plot_args();
        args["spec"]["marks"] = json!([mark]);
        let one = ui_of(&args);
        let (code, vl, err) = render(&["--format", "vega-lite"], &one);
        assert_eq!((code, err.as_str()), (0, ""));
        let v: Value = serde_json::from_str(&vl).unwrap();
        assert!(v["vconcat"].is_null() && v["layer"].is_array(), "{v}");
        files.push(dir.join(name));
        std::fs::write(files.last().unwrap(), vl).unwrap();
    }
    let Some(modules) = crate::viz_render_vegalite::vega_tools() else {
        return;
    };
    support::node_check("tests/vega/check.mjs", &modules, &files, files.len());
}

/// A ui event of a plot call's arguments, as gem-ask writes it.
pub(crate) fn ui_of(args: &Value) -> String {
    let mut e = args.clone();
    e["type"] = "ui".into();
    e["id"] = "c1".into();
    e["kind"] = "chart".into();
    e["version"] = 1.into();
    format!("{e}\n")
}

#[test]
fn a_rect_beside_a_line_is_refused_naming_the_mark() {
    let mut args = plot_args();
    args["spec"]["marks"] = json!([
        {"type": "line", "x": "bill_length_mm", "y": "body_mass_g"},
        {"type": "rect", "x": "island", "y": "species"}
    ]);
    let p = gemline::agent::toolbox::builtin::plot::run(&args, "t1");
    let err = p.answer.unwrap_err();
    assert!(
        err.contains("spec.marks[0]") && err.contains("a rect mark shares the chart"),
        "{err}"
    );
    args["spec"]["marks"] =
        json!([{"type": "boxplot", "x": "body_mass_g", "y": "flipper_length_mm"}]);
    let err = gemline::agent::toolbox::builtin::plot::run(&args, "t2")
        .answer
        .unwrap_err();
    assert!(err.contains("both x and y are number fields"), "{err}");
}
