//! viz-parse's input formats beyond delimited text (issue 22): JSON arrays
//! read record by record (the same chart as the same records as JSON
//! lines, in the memory JSON lines take), wrappers of an array, maps of
//! places (GeoJSON, TopoJSON), binary inputs named, and `--max-points`
//! out of range.

use std::path::Path;
use std::process::{Command, Stdio};

use assert_cmd::cargo::cargo_bin;
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::support::{filter, temp_dir};

fn viz_parse(args: &[&str], stdin: &str) -> (i32, String, String) {
    filter(assert_cmd::cargo::cargo_bin_cmd!("viz-parse"), args, stdin)
}

/// A record as generated: a label, a value that may be missing, a number
/// in a string, or text, and a key present only sometimes.
fn record() -> impl Strategy<Value = Value> {
    let value = prop_oneof![
        4 => (-1e6f64..1e6).prop_map(|v| json!((v * 100.0).round() / 100.0)),
        2 => (-1000i64..1000).prop_map(|v| json!(v)),
        1 => Just(Value::Null),
        1 => "[0-9]{1,3}(\\.[0-9])?( ?%)?".prop_map(Value::from),
        1 => "[a-z]{0,4}".prop_map(Value::from),
    ];
    (
        "[A-Za-zé ]{1,8}",
        value,
        proptest::option::weighted(0.2, any::<bool>()),
        proptest::option::weighted(0.1, "[a-z]{1,3}"),
    )
        .prop_map(|(label, v, flag, extra)| {
            let mut r = json!({"name": label, "v": v});
            if let Some(f) = flag {
                r["ok"] = json!(f);
            }
            if let Some(e) = extra {
                r[e.as_str()] = json!(1);
            }
            r
        })
}

/// "line N" (JSON lines) and "record N" (an array) name the same record,
/// and an error naming the input says which it was ("nothing to chart in
/// JSON lines", "in a JSON array of records").
fn same_words(stderr: &str) -> String {
    stderr
        .replace("line ", "record ")
        .replace("a JSON array of records", "JSON lines")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// An array of records (compact or pretty, bare or wrapped in an
    /// object) gives the chart and warnings the same records give as JSON
    /// lines: the array is read as JSON lines are, a record at a time.
    #[test]
    fn arrays_chart_as_json_lines_do(
        records in proptest::collection::vec(record(), 2..60),
        pretty in any::<bool>(),
        wrapped in any::<bool>(),
        chart in prop_oneof![Just(None), Just(Some("bar")), Just(Some("line")), Just(Some("table"))],
    ) {
        let lines: String = records.iter().map(|r| format!("{r}\n")).collect();
        let array = Value::Array(records);
        let doc = if wrapped { json!({"values": array}) } else { array };
        let text = if pretty {
            serde_json::to_string_pretty(&doc).unwrap()
        } else {
            doc.to_string()
        };
        let args: Vec<&str> = chart.iter().flat_map(|c| ["--chart", *c]).collect();
        let (code_a, out_a, err_a) = viz_parse(&args, &text);
        let (code_l, out_l, err_l) = viz_parse(&args, &lines);
        prop_assert_eq!(code_a, code_l);
        prop_assert_eq!(out_a, out_l);
        prop_assert_eq!(same_words(&err_a), same_words(&err_l));
    }
}

/// Whether `viz-parse path` runs to its end with its data segment (heap
/// and other private writable memory, RLIMIT_DATA) capped at `mib` MiB.
/// (A cap rather than a peak measured: the peak a parent reads back
/// through wait4 includes the test process's own, which the child was
/// forked from.)
fn runs_within(path: &Path, mib: u64) -> bool {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(cargo_bin!("viz-parse"));
    cmd.arg(path).stdout(Stdio::null()).stderr(Stdio::null());
    let limit = libc::rlimit {
        rlim_cur: mib << 20,
        rlim_max: mib << 20,
    };
    // SAFETY: setrlimit is async-signal-safe; it only changes the child.
    unsafe {
        cmd.pre_exec(move || {
            if libc::setrlimit(libc::RLIMIT_DATA, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    cmd.status().unwrap().success()
}

/// Defect 8: a JSON array was parsed whole (flights-200k.json peaked at
/// 139 MB where the same rows as JSON lines take 8 MB). It is read a
/// record at a time now. A 3.6 MB array of 40,000 records: held whole,
/// it took some 50 MiB (and under this cap the allocator failed); read a
/// record at a time it runs within a few MiB of data.
#[test]
fn a_json_array_is_read_in_flat_memory() {
    let dir = temp_dir("json-array-memory");
    let records: Vec<String> = (0..40_000)
        .map(|i| {
            format!(
                "{{\"date\":\"2001/01/{:02} {:02}:{:02}\",\"delay\":{},\"distance\":{},\"origin\":\"A{}\",\"destination\":\"B{}\"}}",
                i % 28 + 1,
                i % 24,
                i % 60,
                i % 301 - 50,
                (i * 37) % 2500 + 100,
                i % 97,
                i % 89
            )
        })
        .collect();
    let array = dir.join("rows.json");
    std::fs::write(&array, format!("[{}]", records.join(",\n"))).unwrap();
    assert!(
        runs_within(&array, 24),
        "the JSON array did not read within 24 MiB"
    );
    // The same in a wrapper object, past the size read whole.
    let wrapped = dir.join("wrapped.json");
    std::fs::write(
        &wrapped,
        format!("{{\"count\": 40000, \"data\": [{}]}}", records.join(",")),
    )
    .unwrap();
    assert!(
        runs_within(&wrapped, 24),
        "the wrapped array did not read within 24 MiB"
    );
}

/// viz-parse on bytes (a binary input) from a clean environment.
fn viz_parse_bytes(args: &[&str], stdin: Vec<u8>) -> (i32, String, String) {
    let out = assert_cmd::cargo::cargo_bin_cmd!("viz-parse")
        .env_clear()
        .env("LANG", "C.UTF-8")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Warnings without the input's name and with records and lines alike.
#[cfg(feature = "columnar")]
fn warnings(stderr: &str, name: &str) -> String {
    same_words(&stderr.replace(&format!("{name}: "), ""))
}

/// Defect 9: an object with scalars beside its array (Vega's
/// `{"width", "height", "values"}`) gave two results: the quick chart drew
/// the width and height as two bars (or found no numbers, with more
/// arrays), the grammar drew them with a gap for the array. Both read the
/// array now, and say what was left beside it.
#[test]
fn a_wrapper_with_scalars_beside_its_array_charts_the_array_on_every_path() {
    let grid = r#"{"width": 3, "height": 1, "values": [103, 104, 109]}"#;
    let (code, out, err) = viz_parse(&[], grid);
    assert_eq!(code, 0, "{err}");
    let chart: Value = serde_json::from_str(&out).unwrap();
    let values: Vec<f64> = crate::support::viz::points(&chart)
        .iter()
        .map(|p| p.1)
        .collect();
    assert_eq!(values, [103.0, 104.0, 109.0]);
    let note = "charted the array at .values; \"width\", \"height\" beside it are not charted";
    assert!(err.contains(note), "{err}");
    // The grammar reads the same one column of values (it needs an x
    // beside it), where it read the width and height before.
    let (code, _, err) = viz_parse(&["--grammar", "-y", "value"], grid);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(note) && err.contains("the columns are \"value\""),
        "{err}"
    );
    // A grid of several rows and columns (volcano.json, 87 x 61) is a
    // raster, refused with what can be drawn of it (it was a line
    // zigzagging across the grid's rows).
    let raster = r#"{"width": 3, "height": 2, "values": [103, 104, 109, 101, 100, 99]}"#;
    let (code, out, err) = viz_parse(&[], raster);
    assert_eq!((code, out.as_str()), (65, ""), "{err}");
    assert!(
        err.contains("a grid of 3 x 2 numbers at .values")
            && err.contains("jq -c '.values[]' FILE | viz-parse --chart hist"),
        "{err}"
    );
    // Records beside scalars: charted, where both paths refused them.
    let records = r#"{"width": 2, "values": [{"k": "a", "v": 1}, {"k": "b", "v": 2}]}"#;
    let (code, out, err) = viz_parse(&[], records);
    assert_eq!(code, 0, "{err}");
    let chart: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        crate::support::viz::points(&chart),
        crate::support::viz::pts(&[("a", 1.0), ("b", 2.0)])
    );
    let (code, out, err) = viz_parse(&["--grammar", "-x", "k", "-y", "v"], records);
    assert_eq!(code, 0, "{err}");
    let ui: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        ui["spec"]["dataset"]["rows"],
        json!([{"k": "a", "v": 1.0}, {"k": "b", "v": 2.0}])
    );
    // Several arrays: which one is the user's to say.
    let (code, _, err) = viz_parse(&[], r#"{"scale": [1, -1], "values": [1, 2, 3]}"#);
    assert_eq!(code, 65);
    assert!(
        err.contains("arrays at .scale, .values; select one, e.g. jq -c '.values[]'"),
        "{err}"
    );
}

/// Defect 9: TopoJSON got "no column holds numbers (columns: [15739,57220],
/// ...)" where GeoJSON got a jq hint; both say what holds their records.
#[test]
fn maps_of_places_say_where_their_records_are() {
    let topo = r#"{"type": "Topology", "transform": {"scale": [1, 1]},
        "objects": {"counties": {"type": "GeometryCollection",
          "geometries": [{"type": "Polygon", "arcs": [[0]], "id": 1001, "properties": {"name": "A"}}]}},
        "arcs": [[[15739, 57220], [0, 0]]]}"#;
    let (code, out, err) = viz_parse(&[], topo);
    assert_eq!((code, out.as_str()), (65, ""), "{err}");
    assert!(
        err.contains(
            "TopoJSON (map shapes): its records are the properties of the geometries at \
             .objects.counties.geometries; select them, e.g. \
             jq -c '.objects.counties.geometries[] | {id} + .properties' | viz-parse"
        ),
        "{err}"
    );
    let geo = r#"{"type": "FeatureCollection", "features": [{"type": "Feature",
        "properties": {"mag": 2.5}, "geometry": {"type": "Point", "coordinates": [1, 2]}}]}"#;
    let (code, _, err) = viz_parse(&[], geo);
    assert_eq!(code, 65);
    assert!(
        err.contains("jq -c '.features[].properties' | viz-parse"),
        "{err}"
    );
}

/// Defect 9: `--max-points 0` silently became 2. It is a usage error
/// naming what is accepted (a chart keeps 2 to 200 points a series).
#[test]
fn max_points_below_two_is_a_usage_error() {
    for n in ["0", "1"] {
        let (code, out, err) = viz_parse(&["--max-points", n], "a,1\nb,2\n");
        assert_eq!((code, out.as_str()), (2, ""), "{err}");
        assert!(err.contains("2 to 200"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let (code, _, err) = viz_parse(&["--max-points", "2"], "a,1\nb,2\nc,3\n");
    assert_eq!(code, 0, "{err}");
}

/// Defect 9: binary files were "lines of text with no table structure".
/// Those that are not data are named in one line that says what is read.
#[test]
fn binary_files_that_are_not_data_are_named_in_one_line() {
    let cases: [(&[u8], &str); 5] = [
        (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "a PNG image"),
        (b"\xff\xd8\xff\xe0\0\x10JFIF", "a JPEG image"),
        (b"PK\x03\x04\x14\0\0\0\x08\0", "a zip archive"),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "a PDF document"),
        (b"GIF89a\x01\0\x01\0", "a GIF image"),
    ];
    for (bytes, what) in cases {
        let (code, out, err) = viz_parse_bytes(&[], bytes.to_vec());
        assert_eq!((code, out.as_str()), (65, ""), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(what) && err.contains("Parquet, Arrow IPC"),
            "{err}"
        );
    }
}

/// gzip-compressed input is read through, whatever it holds.
#[test]
fn gzip_is_read_through() {
    let gz = |text: &str| gzipped(text.as_bytes());
    let csv = "model,secs\nM5 CS,2.9\nM8,3.0\n";
    let plain = viz_parse(&[], csv);
    assert_eq!(viz_parse_bytes(&[], gz(csv)), plain);
    let dir = temp_dir("gzip");
    std::fs::write(dir.join("cars.csv.gz"), gz(csv)).unwrap();
    let (code, out, _) = viz_parse(&[dir.join("cars.csv.gz").to_str().unwrap()], "");
    assert_eq!((code, out), (plain.0, plain.1));
    let jsonl = "{\"k\":\"a\",\"v\":1}\n{\"k\":\"b\",\"v\":2}\n";
    assert_eq!(viz_parse_bytes(&[], gz(jsonl)), viz_parse(&[], jsonl));
    let grammar = viz_parse_bytes(&["--grammar", "-x", "model", "-y", "secs"], gz(csv));
    assert_eq!(
        grammar,
        viz_parse(&["--grammar", "-x", "model", "-y", "secs"], csv)
    );
}

/// The Parquet and Arrow IPC files of testdata/columnar (written by
/// pyarrow, pandas, polars and duckdb: testdata/columnar/make.py).
#[cfg(feature = "columnar")]
const COLUMNAR: &[&str] = &[
    "penguins.pyarrow.parquet",
    "penguins.pandas.parquet",
    "penguins.polars.parquet",
    "penguins.duckdb.parquet",
    "penguins.arrow",
    "penguins.arrows",
];

/// Defect 9 and issue 22: Parquet and Arrow IPC were "lines of text". Each
/// file, from a file or a pipe, charts as the same table as CSV does:
/// typed columns read as the CSV's text reads (numbers, ISO dates, labels).
#[cfg(feature = "columnar")]
#[test]
fn parquet_and_arrow_files_chart_as_their_csv_does() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/columnar");
    let runs: [&[&str]; 3] = [
        &[],
        &["--chart", "line", "-x", "date", "-y", "bill_length_mm"],
        &[
            "--chart",
            "bar",
            "-x",
            "species",
            "-y",
            "body_mass_g",
            "--keep",
            "first",
        ],
    ];
    for args in runs {
        let csv = "testdata/columnar/penguins.csv";
        let (code, want, err) = viz_parse(&[args, &[csv]].concat(), "");
        assert_eq!(code, 0, "{err}");
        let want_err = rows_unnumbered(&warnings(&err, csv));
        for name in COLUMNAR {
            let file = format!("testdata/columnar/{name}");
            let (code, out, err) = viz_parse(&[args, &[file.as_str()]].concat(), "");
            assert_eq!(code, 0, "{name} {args:?}: {err}");
            assert_eq!(out, want, "{name} {args:?}");
            assert_eq!(
                rows_unnumbered(&warnings(&err, &file)),
                want_err,
                "{name} {args:?}"
            );
            let (code, piped, err) = viz_parse_bytes(args, std::fs::read(dir.join(name)).unwrap());
            assert_eq!(
                (code, piped),
                (0, want.clone()),
                "{name} from a pipe {args:?}: {err}"
            );
        }
    }
}

/// Text with "record 12" written "record N": a CSV's line numbers count
/// its header, a columnar file's records do not.
#[cfg(feature = "columnar")]
fn rows_unnumbered(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split("record ").enumerate() {
        if i > 0 {
            out.push_str("record N");
        }
        out.push_str(part.trim_start_matches(|c: char| c.is_ascii_digit()));
    }
    out
}

/// duckdb's types: decimals are numbers, timestamps ISO 8601 (`Z` for a
/// zone), and a list column is named as not charted.
#[cfg(feature = "columnar")]
#[test]
fn parquet_types_read_as_a_person_reads_them() {
    let file = "testdata/columnar/types.duckdb.parquet";
    let (code, out, err) = viz_parse(
        &[
            "--chart",
            "bar",
            "--keep",
            "first",
            "-x",
            "local_time",
            "-y",
            "amount",
            file,
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let chart: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        crate::support::viz::points(&chart),
        crate::support::viz::pts(&[("2024-03-01T10:30:00", 12.5), ("2024-03-02", -3.25)])
    );
    assert!(err.contains("\"tags\" (List("), "{err}");
    let (_, out, _) = viz_parse(
        &["--chart", "table", "-x", "utc_time", "-y", "amount", file],
        "",
    );
    let chart: Value = serde_json::from_str(&out).unwrap();
    let labels: Vec<String> = crate::support::viz::points(&chart)
        .into_iter()
        .map(|p| p.0)
        .collect();
    assert!(
        labels.contains(&"2024-03-01T10:30:00Z".to_string()),
        "{labels:?}"
    );
    assert!(
        labels.contains(&"2024-03-02T12:00:00Z".to_string()),
        "{labels:?}"
    );
}

/// Built without the `columnar` feature, Parquet is named and refused.
#[cfg(not(feature = "columnar"))]
#[test]
fn parquet_without_the_feature_says_so() {
    let (code, _, err) = viz_parse(&["testdata/columnar/penguins.duckdb.parquet"], "");
    assert_eq!(code, 65, "{err}");
    assert!(
        err.contains("built without Parquet and Arrow input"),
        "{err}"
    );
}

/// gzip of bytes, as `gzip -c` writes them.
fn gzipped(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// A headed CSV without quotes as a JSON array of records, as a person
/// exporting it would write it: numbers as numbers, `NA` and empty cells
/// as null, text as strings.
fn csv_as_json_array(csv: &str) -> String {
    let mut lines = csv.lines();
    let names: Vec<&str> = lines.next().unwrap().split(',').collect();
    let records: Vec<Value> = lines
        .map(|line| {
            let mut r = serde_json::Map::new();
            for (name, cell) in names.iter().zip(line.split(',')) {
                let v = if cell.is_empty() || cell == "NA" {
                    Value::Null
                } else if let Ok(i) = cell.parse::<i64>() {
                    json!(i)
                } else if let Ok(f) = cell.parse::<f64>() {
                    json!(f)
                } else {
                    json!(cell)
                };
                r.insert(name.to_string(), v);
            }
            Value::Object(r)
        })
        .collect();
    serde_json::to_string(&records).unwrap()
}

/// The transforms (issue 22's i22 half) and the automatic choice run on
/// the rows, whatever format carried them: a JSON array (bare, wrapped in
/// `{"values": [...]}`, gzipped) and gzipped CSV chart as the CSV does, the
/// chart's numbers and the rows kept for the Vega-Lite export alike.
#[test]
fn transforms_and_the_automatic_choice_read_json_arrays_and_gzip_as_csv() {
    let csv_path = "testdata/real/penguins.csv";
    let csv =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(csv_path)).unwrap();
    let array = csv_as_json_array(&csv);
    let wrapped = format!("{{\"width\": 400, \"values\": {array}}}");
    let runs: [&[&str]; 5] = [
        &[],
        &["--chart", "hist", "-y", "body_mass_g"],
        &["--aggregate", "median", "-x", "island", "-y", "body_mass_g"],
        &[
            "--filter",
            "island=Biscoe",
            "--aggregate",
            "count",
            "-x",
            "species",
        ],
        &[
            "--chart",
            "point",
            "-x",
            "bill_length_mm",
            "-y",
            "bill_depth_mm",
            "-s",
            "species",
        ],
    ];
    for args in runs {
        let (code, want, err) = viz_parse(&[args, &[csv_path]].concat(), "");
        assert_eq!(code, 0, "{args:?}: {err}");
        let inputs = [
            ("a JSON array", array.as_bytes().to_vec()),
            ("a wrapped JSON array", wrapped.as_bytes().to_vec()),
            ("a gzipped JSON array", gzipped(array.as_bytes())),
            ("gzipped CSV", gzipped(csv.as_bytes())),
        ];
        for (what, bytes) in inputs {
            let (code, out, err) = viz_parse_bytes(args, bytes);
            assert_eq!(code, 0, "{what} {args:?}: {err}");
            assert_eq!(out, want, "{what} {args:?}");
        }
    }
    // What the runs above agree on is what a person computes: the
    // automatic choice is mean bill length by species; Biscoe's penguins
    // are 44 Adelie and 124 Gentoo.
    let (_, out, err) = viz_parse_bytes(&[], array.as_bytes().to_vec());
    assert!(
        err.contains("charting mean(bill_length_mm) by species"),
        "{err}"
    );
    let chart: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(chart["chartType"], "bar");
    let (_, out, _) = viz_parse_bytes(runs[3], gzipped(array.as_bytes()));
    let chart: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        crate::support::viz::points(&chart),
        crate::support::viz::pts(&[("Adelie", 44.0), ("Gentoo", 124.0)])
    );
}

/// The transforms over Parquet and Arrow IPC (files, pipes, gzipped):
/// the same chart as the same table as CSV, with the numbers a person
/// computes (Adelie's mean bill length over its 10 rows is 42.05).
#[cfg(feature = "columnar")]
#[test]
fn transforms_read_parquet_and_arrow_as_csv() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/columnar");
    let runs: [&[&str]; 4] = [
        &[
            "--aggregate",
            "mean",
            "-x",
            "species",
            "-y",
            "bill_length_mm",
        ],
        &["--chart", "hist", "--bins", "5", "-y", "body_mass_g"],
        &[
            "--filter",
            "body_mass_g>=4000",
            "--aggregate",
            "count",
            "-x",
            "species",
        ],
        &[
            "--time-unit",
            "week",
            "--aggregate",
            "max",
            "-x",
            "date",
            "-y",
            "body_mass_g",
        ],
    ];
    let csv = "testdata/columnar/penguins.csv";
    for args in runs {
        let (code, want, err) = viz_parse(&[args, &[csv]].concat(), "");
        assert_eq!(code, 0, "{args:?}: {err}");
        let want_err = rows_unnumbered(&warnings(&err, csv));
        for name in COLUMNAR {
            let file = format!("testdata/columnar/{name}");
            let (code, out, err) = viz_parse(&[args, &[file.as_str()]].concat(), "");
            assert_eq!((code, &out), (0, &want), "{name} {args:?}: {err}");
            assert_eq!(
                rows_unnumbered(&warnings(&err, &file)),
                want_err,
                "{name} {args:?}"
            );
            let bytes = std::fs::read(dir.join(name)).unwrap();
            let (code, out, err) = viz_parse_bytes(args, gzipped(&bytes));
            assert_eq!(
                (code, out),
                (0, want.clone()),
                "{name} gzipped {args:?}: {err}"
            );
        }
    }
    let (_, out, _) = viz_parse(
        &[runs[0], &["testdata/columnar/penguins.duckdb.parquet"]].concat(),
        "",
    );
    let chart: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(chart["yLabel"], "mean(bill_length_mm)");
    let adelie = crate::support::viz::points(&chart)[0].clone();
    assert_eq!(adelie.0, "Adelie");
    assert!((adelie.1 - 42.05).abs() < 1e-9, "{adelie:?}");
}
