//! `viz-render --format svg` end to end: every example chart (testdata/
//! render, grammar, vega, report: every chart kind and every grammar
//! mark) written with --output-dir, one file per chart; each file is
//! well-formed XML (roxmltree) with an `<svg>` root, the chart's text in
//! `<text>` elements, and is rendered by a real SVG renderer
//! (rsvg-convert, Debian's librsvg2-bin, installed by .ci/setup-rsvg.sh:
//! under CI=true a missing install is a failure, elsewhere the check is
//! skipped with a loud note) to a PNG that is not blank.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support;

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

const EXAMPLE_DIRS: [&str; 4] = ["render", "grammar", "vega", "report"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn render(args: &[&str], stdin: &str) -> (i32, String, String) {
    support::filter(cargo_bin_cmd!("viz-render"), args, stdin)
}

/// The valid charts of a stream, as the terminal would draw them.
fn charts_in(stream: &str) -> usize {
    let (_, json, _) = render(&["--format", "vega-lite"], stream);
    json.lines().count()
}

fn examples() -> Vec<PathBuf> {
    support::example_files(&EXAMPLE_DIRS)
}

/// Every example's charts as SVG files under target/svg/out/TEST: each
/// test its own folder, since tests run in parallel and one clearing a
/// shared folder removed the other's files mid-check.
fn write_examples(test: &str) -> Vec<PathBuf> {
    let out = root().join("target/svg/out").join(test);
    let _ = std::fs::remove_dir_all(&out);
    let mut written = Vec::new();
    for file in examples() {
        let input = std::fs::read_to_string(&file).unwrap();
        let dir = out.join(format!(
            "{}_{}",
            file.parent()
                .unwrap()
                .file_name()
                .unwrap()
                .to_string_lossy(),
            file.file_stem().unwrap().to_string_lossy()
        ));
        let (code, stdout, stderr) = render(
            &["--format", "svg", "--output-dir", dir.to_str().unwrap()],
            &input,
        );
        assert_eq!(code, 0, "{}: {stderr}", file.display());
        let paths: Vec<PathBuf> = stdout.lines().map(PathBuf::from).collect();
        assert_eq!(paths.len(), charts_in(&input), "{}", file.display());
        for p in &paths {
            assert!(p.starts_with(&dir) && p.exists(), "{}", p.display());
        }
        written.extend(paths);
    }
    written
}

#[test]
fn every_example_chart_is_well_formed_svg_with_its_text() {
    let files = write_examples("well_formed");
    assert!(files.len() >= 25, "only {} charts", files.len());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let doc = roxmltree::Document::parse(&text)
            .unwrap_or_else(|e| panic!("{}: not XML: {e}", f.display()));
        let svg = doc.root_element();
        assert_eq!(svg.tag_name().name(), "svg", "{}", f.display());
        assert_eq!(svg.attribute("width"), Some("800"), "{}", f.display());
        let texts = svg.descendants().filter(|n| n.has_tag_name("text")).count();
        assert!(texts >= 3, "{}: {texts} text elements", f.display());
    }
}

/// rsvg-convert, installed by .ci/setup-rsvg.sh.
fn rsvg() -> Option<()> {
    let found = || {
        Command::new("rsvg-convert")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    support::setup_tool(".ci/setup-rsvg.sh", "rsvg-convert", found)
}

/// Pixels of a PNG that are not the background (its top-left pixel).
fn ink(png: &[u8]) -> usize {
    let mut reader = png::Decoder::new(std::io::Cursor::new(png))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let px = info.color_type.samples();
    let data = &buf[..info.buffer_size()];
    let bg = &data[..px];
    data.chunks(px).filter(|p| *p != bg).count()
}

#[test]
fn every_example_chart_renders_with_rsvg_to_a_png_that_is_not_blank() {
    let files = write_examples("rsvg");
    if rsvg().is_none() {
        return;
    }
    for f in &files {
        let out = Command::new("rsvg-convert")
            .arg(f)
            .output()
            .expect("rsvg-convert runs");
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "{}: {}",
            f.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let drawn = ink(&out.stdout);
        assert!(drawn > 2_000, "{}: only {drawn} pixels drawn", f.display());
    }
    // The check can fail: a blank SVG is blank.
    let blank = root().join("target/svg/blank.svg");
    std::fs::write(&blank, r#"<svg xmlns="http://www.w3.org/2000/svg" width="80" height="40"><rect width="80" height="40" fill="white"/></svg>"#).unwrap();
    let out = Command::new("rsvg-convert").arg(&blank).output().unwrap();
    assert_eq!(ink(&out.stdout), 0);
}

#[test]
fn one_chart_on_stdout_is_one_svg_document() {
    let input = std::fs::read_to_string(root().join("testdata/render/bmw.jsonl")).unwrap();
    let (code, stdout, stderr) = render(&["--format", "svg"], &input);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let doc = roxmltree::Document::parse(&stdout).unwrap();
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect();
    for want in [
        "0-60 mph",
        "fastest three",
        "M5 CS",
        "2.9 s",
        "Time (s)",
        "Model",
    ] {
        assert!(
            texts.iter().any(|t| t.trim() == want),
            "{want:?} not in {texts:?}"
        );
    }
}

#[test]
fn text_from_events_stays_text() {
    let chart = r#"{"type":"visualization","chartType":"bar","title":"<script>alert(1)</script> & ]]>","series":[{"name":"s","points":[{"label":"a<b>&","value":1}]}]}"#;
    let (code, stdout, stderr) = render(&["--format", "svg"], chart);
    assert_eq!(code, 0, "{stderr}");
    let doc = roxmltree::Document::parse(&stdout).unwrap();
    assert!(!doc.descendants().any(|n| n.has_tag_name("script")));
    assert!(
        doc.descendants()
            .any(|n| n.text().map(str::trim) == Some("<script>alert(1)</script> & ]]>"))
    );
}

#[test]
fn the_downsampling_footer_and_legend_are_drawn() {
    let input = std::fs::read_to_string(root().join("testdata/report/stream.jsonl")).unwrap();
    let (_, stdout, _) = render(&["--format", "svg"], &input);
    assert!(stdout.contains("showing 6 of 12 points, evenly sampled"));
    assert!(stdout.contains(">Run A<") || stdout.contains("Run A"));
}

#[test]
fn output_dir_needs_the_svg_format_and_bad_charts_warn_or_fail_with_strict() {
    let (code, _, stderr) = render(&["--output-dir", "x"], "");
    assert_eq!(code, 2, "{stderr}");
    let bad = r#"{"type":"visualization","chartType":"bar","series":[]}"#;
    let (code, stdout, stderr) = render(&["--format", "svg"], bad);
    assert_eq!((code, stdout.as_str()), (0, ""));
    assert!(stderr.contains("line 1: invalid chart"), "{stderr}");
    let (code, _, _) = render(&["--format", "svg", "--strict"], bad);
    assert_eq!(code, 65);
    let other: Value = serde_json::json!({"type": "message", "content": "hi"});
    let (code, stdout, _) = render(&["--format", "svg"], &other.to_string());
    assert_eq!((code, stdout.as_str()), (0, ""));
}
