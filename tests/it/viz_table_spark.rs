//! `viz-parse --chart table --spark` (issue 36: "a table column of
//! sparklines where a table has a series per row"): a wide table (a label
//! column, a -y per period) and a long one read with -s (each -s value a
//! row) get a column of sparklines beside their values, headed by the
//! first and last periods; it is the first column a narrow width leaves
//! out (said in a note), and Markdown keeps the sparklines as text.
//! Snapshots at widths 20 to 200, Unicode and ASCII, on the real
//! iowa-electricity excerpt of testdata/real.

use crate::viz_scales_calendar::{event, parse, render, snapshots};

const WIDTHS: [usize; 4] = [20, 40, 80, 200];
const IOWA: &str = "testdata/real/iowa-electricity.csv";

/// Iowa's net generation by source (a row each), 2001 to 2017.
fn iowa() -> String {
    let args = "--chart table --spark -x year -y net_generation -s source";
    let mut args: Vec<&str> = args.split(' ').collect();
    args.push(IOWA);
    event(&args, "")
}

const WIDE: &str = "team,q1,q2,q3,q4\nred,3,5,4,8\nblue,9,7,6,2\ngreen,1,1,2,9\n";

fn wide() -> String {
    event(
        &[
            "--chart", "table", "--spark", "-x", "team", "-y", "q1", "-y", "q2", "-y", "q3", "-y",
            "q4",
        ],
        WIDE,
    )
}

#[test]
fn a_wide_table_gets_a_sparkline_per_row_beside_its_values() {
    let (code, out, _) = render(&["--color", "never", "--width", "80"], &wide());
    assert_eq!(code, 0);
    let row = |name: &str| out.lines().find(|l| l.contains(name)).unwrap().to_string();
    assert!(out.contains("q1–q4"), "{out}");
    assert!(row("red").ends_with("│ ▁▄▂█  │"), "{out}");
    assert!(row("blue").ends_with("│ █▆▅▁  │"), "{out}");
    let (_, ascii, _) = render(&["--ascii", "--color", "never", "--width", "80"], &wide());
    assert!(ascii.contains("| __.^  |"), "{ascii}");
    // Markdown keeps them as text.
    let (_, md, _) = render(&["--format", "markdown"], &wide());
    assert!(md.contains("| red | 3 | 5 | 4 | 8 | ▁▄▂█ |"), "{md}");
    // Without --spark: no such column.
    let plain = event(&["--chart", "table", "-x", "team", "-y", "q1"], WIDE);
    let (_, out, _) = render(&["--color", "never", "--width", "80"], &plain);
    assert!(!out.contains('▁') && !out.contains("sparklines"), "{out}");
}

#[test]
fn a_long_table_with_series_is_a_row_per_series() {
    let e = iowa();
    let (code, out, _) = render(&["--color", "never", "--width", "200"], &e);
    assert_eq!(code, 0);
    let renew = out.lines().find(|l| l.contains("Renewables")).unwrap();
    // 1,437 in 2001 up to 21,933 in 2017: a line that climbs.
    assert!(renew.contains("1,437") && renew.contains("21,933"), "{out}");
    assert!(renew.ends_with("▁▁▁▁▁▂▂▂▃▄▅▆▆▆▇██ │"), "{out}");
    assert!(
        out.lines().nth(1).unwrap().starts_with("│ source "),
        "{out}"
    );
    // SVG and Vega-Lite draw the rows as the sparkline chart does: a line
    // per source, not the values flattened into one column.
    let (code, svg, err) = render(&["--format", "svg"], &e);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        svg.contains("Renewables") && !svg.contains(">2001-01-01<"),
        "{svg}"
    );
    let (code, vl, err) = render(&["--format", "vega-lite"], &e);
    assert_eq!((code, err.as_str()), (0, ""));
    let v: serde_json::Value = serde_json::from_str(&vl).unwrap();
    assert!(v.get("hconcat").is_none(), "not the two-column table: {v}");
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/vega/issue36-p36-spark");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let files = vec![dir.join("table_spark.vl.jsonl")];
    std::fs::write(&files[0], vl).unwrap();
    let Some(modules) = crate::viz_render_vegalite::vega_tools() else {
        return;
    };
    crate::support::node_check("tests/vega/check.mjs", &modules, &files, 1);
}

#[test]
fn the_sparklines_are_the_first_column_a_narrow_width_leaves_out() {
    for (name, e) in [("wide", wide()), ("iowa", iowa())] {
        for w in WIDTHS {
            let (_, out, _) = render(&["--color", "never", "--width", &w.to_string()], &e);
            // Dropped only where a value column is cut or left out.
            assert_eq!(
                out.contains("more column"),
                out.contains("(sparklines"),
                "{name} {w}: {out}"
            );
        }
        snapshots(&e, &format!("table_spark_{name}"));
    }
}

#[test]
fn spark_goes_with_a_table_only() {
    let (code, _, err) = parse(&["--chart", "bar", "--spark"], WIDE);
    assert_eq!(code, 2);
    assert!(
        err.contains("--spark adds a column of sparklines to --chart table"),
        "{err}"
    );
}
