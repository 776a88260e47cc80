//! `viz-render --format markdown` end to end: snapshots of the Markdown
//! for a mixed stream (text, chapters, charts, errors) and the example
//! charts; every mermaid block of every example (testdata/render,
//! testdata/grammar, testdata/vega, testdata/report, and memory's relation
//! graph in testdata/memory) accepted by the real mermaid parser
//! (tests/mermaid/check.mjs, installed by .ci/setup-mermaid.sh: under
//! CI=true a missing install is a failure, elsewhere the check is skipped
//! with a loud note); every table rendered as a table, numbers
//! right-aligned, by a real GFM renderer (comrak), and data never read as
//! markup.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support;

use assert_cmd::cargo::cargo_bin_cmd;

const EXAMPLE_DIRS: [&str; 4] = ["render", "grammar", "vega", "report"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn markdown(input: &str) -> String {
    let (code, stdout, stderr) = support::filter(
        cargo_bin_cmd!("viz-render"),
        &["--format", "markdown"],
        input,
    );
    assert_eq!(code, 0, "{stderr}");
    stdout
}

fn example(path: &str) -> String {
    std::fs::read_to_string(root().join("testdata").join(path)).unwrap()
}

fn examples() -> Vec<PathBuf> {
    support::example_files(&EXAMPLE_DIRS)
}

/// Markdown to HTML as GitHub renders it (GFM: tables, strikethrough,
/// autolinks, task lists), raw HTML kept so a leak would show.
fn gfm_html(md: &str) -> String {
    let mut o = comrak::Options::default();
    o.extension.table = true;
    o.extension.strikethrough = true;
    o.extension.autolink = true;
    o.extension.tasklist = true;
    o.render.r#unsafe = true;
    comrak::markdown_to_html(md, &o)
}

#[test]
fn snapshots_of_a_report_and_the_example_charts() {
    for (name, path) in [
        ("report", "report/stream.jsonl"),
        ("bar", "render/bmw.jsonl"),
        ("lines", "render/yearly.jsonl"),
        ("gaps", "render/multi.jsonl"),
        ("table", "render/table.jsonl"),
        ("chapters", "render/chapters.jsonl"),
        ("grammar_bars", "grammar/bars_grouped.jsonl"),
        ("grammar_horizontal", "vega/horizontal_bars.jsonl"),
        ("grammar_band", "grammar/hr_band.jsonl"),
        ("grammar_sector", "grammar/sector.jsonl"),
        ("grammar_rule", "report/rule_line.jsonl"),
    ] {
        insta::assert_snapshot!(format!("markdown_{name}"), markdown(&example(path)));
    }
}

#[test]
fn every_mermaid_block_is_accepted_by_the_real_mermaid_parser() {
    let out_dir = root().join("target/mermaid/out");
    let _ = std::fs::remove_dir_all(&out_dir);
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut files = Vec::new();
    let mut blocks = 0;
    for file in examples().into_iter().chain([
        root().join("testdata/report/stream.jsonl"),
        root().join("testdata/memory/graph.jsonl"),
    ]) {
        let md = markdown(&std::fs::read_to_string(&file).unwrap());
        let n = md.matches("```mermaid\n").count();
        if n == 0 {
            continue;
        }
        blocks += n;
        let dir = file
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy();
        let stem = file.file_stem().unwrap().to_string_lossy();
        let dest = out_dir.join(format!("{dir}_{stem}.md"));
        std::fs::write(&dest, md).unwrap();
        files.push(dest);
    }
    assert!(blocks >= 8, "only {blocks} mermaid blocks in the examples");
    check_mermaid(&files, blocks);
}

/// Markdown files' `blocks` mermaid blocks through the real mermaid
/// parser (tests/mermaid/check.mjs), once .ci/setup-mermaid.sh installed it.
pub(crate) fn check_mermaid(files: &[PathBuf], blocks: usize) {
    let modules = root().join("target/mermaid/node");
    let marker = modules.join("node_modules/mermaid/package.json");
    let jsdom = modules.join("node_modules/jsdom/package.json");
    if support::setup_tool(".ci/setup-mermaid.sh", "the mermaid parser", || {
        marker.exists() && jsdom.exists()
    })
    .is_none()
    {
        return;
    }
    support::node_check("tests/mermaid/check.mjs", &modules, files, blocks);
}

#[test]
fn mermaid_parser_check_can_fail() {
    // The checker itself must reject a broken block, or the test above
    // proves nothing.
    let modules = root().join("target/mermaid/node");
    let marker = modules.join("node_modules/mermaid/package.json");
    if support::setup_tool(".ci/setup-mermaid.sh", "the mermaid parser", || {
        marker.exists()
    })
    .is_none()
    {
        return;
    }
    let dir = support::temp_dir("mermaid-broken");
    let bad = dir.join("bad.md");
    std::fs::write(
        &bad,
        "```mermaid\nxychart-beta\n    title \"a \"b\"\"\n    bar [1]\n```\n",
    )
    .unwrap();
    let out = Command::new("node")
        .arg(root().join("tests/mermaid/check.mjs"))
        .arg("--modules")
        .arg(&modules)
        .arg(&bad)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("0 passed, 1 failed"));
}

#[test]
fn every_table_renders_as_a_table_with_numbers_right_aligned() {
    let mut tables = 0;
    for file in examples()
        .into_iter()
        .chain([root().join("testdata/report/stream.jsonl")])
    {
        let md = markdown(&std::fs::read_to_string(&file).unwrap());
        // Each table we write has one alignment row.
        let written: Vec<&str> = md
            .lines()
            .filter(|l| l.starts_with("| :---") || l.starts_with("| ---:"))
            .collect();
        let html = gfm_html(&md);
        assert_eq!(
            html.matches("<table>").count(),
            written.len(),
            "{}: {html}",
            file.display()
        );
        for align in &written {
            let right = align.matches("---:").count();
            assert!(
                right >= 1,
                "{}: a table without a number column",
                file.display()
            );
        }
        if !written.is_empty() {
            assert!(html.contains("<td align=\"right\">"), "{}", file.display());
            assert!(html.contains("<th align=\"right\">"), "{}", file.display());
        }
        tables += written.len();
    }
    assert!(tables >= 10, "only {tables} tables");
}

#[test]
fn data_is_never_read_as_markup() {
    let md = markdown(&example("report/stream.jsonl"));
    let html = gfm_html(&md);
    // Cells with | stay one cell; tags, emphasis, code, math and mentions
    // from the data show as text.
    assert!(html.contains("<td align=\"left\">a|b</td>"), "{html}");
    assert!(html.contains("&lt;i&gt;x&lt;/i&gt;"), "{html}");
    assert!(
        html.contains("Compare *these* &lt;b&gt;laps&lt;/b&gt; @octocat"),
        "{html}"
    );
    assert!(html.contains("HTTP 404 &lt;script&gt;"), "{html}");
    assert!(
        !html.contains("<script>") && !html.contains("<em>these</em>"),
        "{html}"
    );
    // The message's own Markdown is Markdown, and its open fence was closed
    // before the chart, which stays a chart.
    assert!(html.contains("<strong>laps</strong>"), "{html}");
    assert!(html.contains("<code class=\"language-mermaid\">"), "{html}");
}

#[test]
fn an_invalid_chart_is_an_error_quote_and_with_strict_exit_65() {
    let bad = r#"{"type":"visualization","chartType":"bar","series":[]}"#;
    let md = markdown(bad);
    assert!(md.starts_with("> **Error:** visualization:"), "{md}");
    let (code, _, stderr) = support::filter(
        cargo_bin_cmd!("viz-render"),
        &["--format", "markdown", "--strict"],
        bad,
    );
    assert_eq!(code, 65, "{stderr}");
}

#[test]
fn a_grammar_chart_mermaid_cannot_draw_is_its_data_with_a_note() {
    let md = markdown(&example("grammar/hr_band.jsonl"));
    assert!(!md.contains("```mermaid"), "{md}");
    assert!(md.contains("mermaid has no area mark"), "{md}");
    assert!(md.contains("| Date |"), "{md}");
}
