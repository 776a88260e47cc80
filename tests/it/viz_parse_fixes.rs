//! viz-parse as a first-time user met it: number suffixes, European
//! numbers, nested JSON, ragged rows, missing values, options of a bare
//! spec, and dates written newest first. The real binary, real stdin.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

use crate::support::temp_dir;
use crate::support::viz::{points, pts};

struct Out {
    code: i32,
    events: Vec<Value>,
    stderr: String,
}

fn run(args: &[&str], stdin: &[u8]) -> Out {
    let o = cargo_bin_cmd!("viz-parse")
        .args(args)
        .write_stdin(stdin.to_vec())
        .output()
        .unwrap();
    let stdout = String::from_utf8(o.stdout).unwrap();
    Out {
        code: o.status.code().unwrap(),
        events: stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn chart(args: &[&str], stdin: &str) -> (Value, String) {
    let o = run(args, stdin.as_bytes());
    assert_eq!(o.code, 0, "stderr: {}", o.stderr);
    assert_eq!(o.events.len(), 1);
    (o.events.into_iter().next().unwrap(), o.stderr)
}

#[test]
fn control_characters_in_a_file_name_reach_stderr_in_caret_form() {
    let dir = temp_dir("control-characters-in-a-file-name");
    let path = dir.join("bad\u{1b}[2Jname.csv");
    std::fs::write(&path, "just prose here\n").unwrap();
    let o = run(&[path.to_str().unwrap()], b"");
    assert_eq!(o.code, 65);
    assert!(o.stderr.contains("bad^[[2Jname.csv"), "{}", o.stderr);
    assert!(!o.stderr.contains('\u{1b}'));
}

#[test]
fn k_m_b_suffixes_multiply_and_are_not_units() {
    let (v, err) = chart(&[], "crate,dl\na,950k\nb,1.2M\nc,80k\n");
    assert_eq!(
        points(&v),
        pts(&[("a", 950_000.0), ("b", 1_200_000.0), ("c", 80_000.0)])
    );
    assert!(!err.contains("mixes units"), "{err}");
    assert_eq!(v.get("unit"), None, "{v}");
    let (v, _) = chart(&[], "name,size\nx,300M\ny,9.1k\nz,2bn\n");
    assert_eq!(points(&v), pts(&[("x", 300e6), ("y", 9_100.0), ("z", 2e9)]));
    // Real units stay units.
    let (v, _) = chart(&[], "file,size\nx,3 MB\ny,12 MB\n");
    assert_eq!(points(&v), pts(&[("x", 3.0), ("y", 12.0)]));
    assert_eq!(v["unit"], "MB");
}

/// A bare spec's options are read by the same code in viz-parse and
/// viz-render: a bad `sort` or `maxPoints` is refused by both, naming it.
#[test]
fn a_bare_specs_bad_options_are_refused_alike_by_parse_and_render() {
    let spec = r#"{"chartType":"bar","sort":"descending","maxPoints":-3,"series":[{"name":"v","points":[{"label":"a","value":1},{"label":"b","value":3}]}]}"#;
    let o = run(&[], spec.as_bytes());
    assert_eq!(o.code, 65);
    assert!(
        o.stderr
            .contains(r#"sort: must be "none", "asc" or "desc", got "descending""#),
        "{}",
        o.stderr
    );
    let r = cargo_bin_cmd!("viz-render")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITLAB_CI")
        .args(["--color", "never"])
        .write_stdin(spec)
        .output()
        .unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&r.stdout),
        String::from_utf8_lossy(&r.stderr)
    );
    assert!(
        all.contains(r#"sort: must be "none", "asc" or "desc", got "descending""#),
        "{all}"
    );
    assert!(!all.contains('█'), "drew the chart anyway: {all}");
    let bad_max = spec.replace(r#""sort":"descending","#, "");
    let r = cargo_bin_cmd!("viz-render")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITLAB_CI")
        .args(["--color", "never"])
        .write_stdin(bad_max)
        .output()
        .unwrap();
    let all = String::from_utf8_lossy(&r.stdout).into_owned() + &String::from_utf8_lossy(&r.stderr);
    assert!(all.contains("maxPoints: must be a whole number"), "{all}");
}

#[test]
fn european_numbers_are_read_with_one_convention_per_column() {
    // Could be either: a `;` file means a decimal comma, so `.` groups.
    let (v, _) = chart(&[], "Artikel;Preis\nA;1.234\nB;2.500\nC;987\n");
    assert_eq!(
        points(&v),
        pts(&[("A", 1234.0), ("B", 2500.0), ("C", 987.0)])
    );
    // `2,5` shows a decimal comma, so `1,234` is 1.234 too, not 1234.
    let (v, _) = chart(&[], "Artikel;Preis\nA;1,234\nB;2,5\n");
    assert_eq!(points(&v), pts(&[("A", 1.234), ("B", 2.5)]));
    // Grouped and decimal at once, with dots or (no-break) spaces.
    let (v, err) = chart(
        &[],
        "Artikel;Preis\nA;1.234,56\nB;2.000,00\nC;1 234,56\nD;1\u{a0}000,5\nE;3\u{202f}000\n",
    );
    assert_eq!(
        points(&v),
        pts(&[
            ("A", 1234.56),
            ("B", 2000.0),
            ("C", 1234.56),
            ("D", 1000.5),
            ("E", 3000.0)
        ])
    );
    assert_eq!(err, "");
    assert_eq!(v["yLabel"], "Preis");
    // A comma file still reads `1,234` as a thousand.
    let (v, _) = chart(&[], "item,price\nA,\"1,234\"\nB,\"2,500\"\nC,7.5\n");
    assert_eq!(points(&v), pts(&[("A", 1234.0), ("B", 2500.0), ("C", 7.5)]));
    // --decimal forces it; a number that does not fit is named, by column name.
    let (v, _) = chart(&["--decimal", ","], "item,price\nA,\"1,234\"\nB,\"2,5\"\n");
    assert_eq!(points(&v), pts(&[("A", 1.234), ("B", 2.5)]));
    let o = run(
        &["--decimal", "."],
        "Artikel;Preis\nA;1.234,56\nB;7\n".as_bytes(),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        o.stderr,
        "viz-parse: warning: <stdin>: line 2, column \"Preis\": \"1.234,56\" does not fit the \
         column's decimal point (see --decimal); row skipped\n"
    );
    assert!(!o.stderr.contains("column 1"));
}

#[test]
fn a_row_wider_than_its_header_is_named_not_called_prose() {
    let o = run(&[], b"item,price\nA,$1,200\nB,$900\n");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        o.stderr,
        "viz-parse: warning: <stdin>: line 2 has 3 fields but the header has 2; a ',' inside a \
         value? quote that value (\"$1,200\"); row skipped\n"
    );
    assert_eq!(points(&o.events[0]), pts(&[("B", 900.0)]));
    // Quoted, it is read whole.
    let (v, err) = chart(&[], "item,price\nA,\"$1,200\"\nB,$900\n");
    assert_eq!(points(&v), pts(&[("A", 1200.0), ("B", 900.0)]));
    assert_eq!(err, "");
    // Every row ragged: an error that says why, without the examples block.
    let o = run(&[], b"item,price\nA,$1,200\nB,$2,900\n");
    assert_eq!(o.code, 65);
    assert!(
        o.stderr
            .contains("every row has more fields than the header (item, price)"),
        "{}",
        o.stderr
    );
    assert!(!o.stderr.contains("no table structure"), "{}", o.stderr);
    assert!(!o.stderr.contains("Accepted input"), "{}", o.stderr);
}

#[test]
fn a_table_of_words_says_no_column_holds_numbers() {
    // Issue 22: nothing sensible to chart is said with the columns, what
    // they hold, and a command that charts something.
    let o = run(&[], b"name,val\na,x\nb,y\n");
    assert_eq!(o.code, 65);
    assert_eq!(
        o.stderr,
        "viz-parse: error: <stdin>: nothing to chart in comma-separated text: no column \
         holds amounts to draw, and none repeats to count (columns: \"name\" (names), \"val\" \
         (names)); to count its rows by a column anyway: viz-parse --aggregate count -x name \
         FILE\n"
    );
    // With -y naming a column, the words are what they are.
    let o = run(&["-y", "val"], b"name,val\na,x\nb,y\n");
    assert_eq!(o.code, 65);
    assert!(
        o.stderr.contains("no row has a number in column \"val\""),
        "{}",
        o.stderr
    );
}

#[test]
fn nested_json_is_refused_with_the_jq_path_of_its_records() {
    let o = run(
        &[],
        br#"{"data":{"items":[{"name":"a","count":3}]},"meta":{"total":2}}"#,
    );
    assert_eq!(o.code, 65);
    assert!(o.events.is_empty());
    assert_eq!(
        o.stderr,
        "viz-parse: error: <stdin>: nested JSON: the records are at .data.items; select that \
         array, e.g. jq -c '.data.items[]' | viz-parse\n"
    );
    let o = run(&[], br#"{"x":{"y":[{"q":1}]},"z w":{"k":[["a",1]]}}"#);
    assert_eq!(o.code, 65);
    assert!(
        o.stderr
            .contains(r#"arrays of records at .x.y, .["z w"].k; select one"#),
        "{}",
        o.stderr
    );
    // What the hint says works, and a map of records still charts.
    let (v, _) = chart(
        &[],
        "{\"name\":\"a\",\"count\":3}\n{\"name\":\"b\",\"count\":5}\n",
    );
    assert_eq!(points(&v), pts(&[("a", 3.0), ("b", 5.0)]));
    let (v, _) = chart(&[], r#"{"M5":{"secs":2.9},"M8":{"secs":3.0}}"#);
    assert_eq!(points(&v), pts(&[("M5", 2.9), ("M8", 3.0)]));
}

#[test]
fn missing_values_negatives_in_parentheses_and_empty_labels() {
    let o = run(
        &[],
        "k,v\na,n/a\nb,N/A\nc,na\nd,-\ne,—\nf,null\ng,NaN\nh,\ni,(4)\nj,\"(1,200)\"\n,7\nl,2\n"
            .as_bytes(),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        points(&o.events[0]),
        pts(&[("i", -4.0), ("j", -1200.0), ("(empty)", 7.0), ("l", 2.0)])
    );
    assert_eq!(
        o.stderr,
        "viz-parse: warning: <stdin>: line 2, column \"v\": no value (\"n/a\"); row skipped\n\
         viz-parse: warning: <stdin>: line 3, column \"v\": no value (\"N/A\"); row skipped\n\
         viz-parse: warning: <stdin>: line 4, column \"v\": no value (\"na\"); row skipped\n\
         viz-parse: warning: <stdin>: line 5, column \"v\": no value (\"-\"); row skipped\n\
         viz-parse: warning: <stdin>: line 6, column \"v\": no value (\"—\"); row skipped\n\
         viz-parse: warning: <stdin>: 3 more rows skipped\n"
    );
    let (v, _) = chart(&[], "k,v\na,(4%)\nb,12%\n");
    assert_eq!(points(&v), pts(&[("a", -4.0), ("b", 12.0)]));
    assert_eq!(v["unit"], "%");
}

#[test]
fn ragged_row_warnings_come_in_line_order() {
    let o = run(&[], b"k,v\na,N/A\nb,$1,200\nc,3\n");
    assert_eq!(o.code, 0, "{}", o.stderr);
    let lines: Vec<&str> = o.stderr.lines().collect();
    assert!(lines[0].contains("line 2,"), "{}", o.stderr);
    assert!(lines[1].contains("line 3 has 3 fields"), "{}", o.stderr);
}

#[test]
fn dates_newest_first_are_drawn_oldest_to_newest_with_a_warning() {
    let (v, err) = chart(&[], "year,sales\n2023,150\n2022,135\n2021,120\n");
    assert_eq!(v["chartType"], "line");
    assert_eq!(
        points(&v),
        pts(&[("2021", 120.0), ("2022", 135.0), ("2023", 150.0)])
    );
    assert_eq!(
        err,
        "viz-parse: warning: <stdin>: the labels run newest first (2023 … 2021); the line is \
         drawn oldest to newest\n"
    );
    let (v, _) = chart(
        &["--chart", "line"],
        "day,n\n2024-03-01,3\n2024-02-01,2\n2024-01-01,1\n",
    );
    assert_eq!(
        points(&v),
        pts(&[
            ("2024-01-01", 1.0),
            ("2024-02-01", 2.0),
            ("2024-03-01", 3.0)
        ])
    );
    // Bars over dates are in date order too, and so is a line in no
    // order at all (issue 22: x to scale), each said once.
    let (v, err) = chart(&["--chart", "bar"], "year,sales\n2023,150\n2022,135\n");
    assert_eq!(points(&v), pts(&[("2022", 135.0), ("2023", 150.0)]));
    assert_eq!(
        err,
        "viz-parse: warning: <stdin>: the rows are not in date order (2023 comes before 2022); \
         the bars are in date order\n"
    );
    let (v, err) = chart(&[], "year,sales\n2023,150\n2021,120\n2022,135\n");
    assert_eq!(
        points(&v),
        pts(&[("2021", 120.0), ("2022", 135.0), ("2023", 150.0)])
    );
    assert_eq!(
        err,
        "viz-parse: warning: <stdin>: the rows are not in date order (2023 comes before 2021); \
         the line is drawn in date order\n"
    );
}

#[test]
fn a_leading_zero_shows_the_decimal_mark_even_in_a_semicolon_file() {
    let (v, _) = chart(&[], "k;v\na;0.125\nb;1.250\n");
    assert_eq!(points(&v), pts(&[("a", 0.125), ("b", 1.25)]));
}

#[test]
fn label_value_lines_with_a_decimal_comma_are_not_split_at_the_comma() {
    let (v, _) = chart(&[], "Jan: 1.234,56 €\nFeb: 2.000,00 €\n");
    assert_eq!(points(&v), pts(&[("Jan", 1234.56), ("Feb", 2000.0)]));
    assert_eq!(v["unit"], "€");
}

/// A bad value is named by its column: the header's name in a headed
/// file, its place in a file without one (not `column "column 2"`).
#[test]
fn a_bad_value_names_its_column_by_header_or_by_place() {
    for (input, want) in [
        (
            &b"name,val\na,1\nb,x\nc,3\n"[..],
            "line 3, column \"val\": ",
        ),
        (&b"a,1\nb,x\nc,3\n"[..], "line 2, column 2: "),
    ] {
        let o = run(&[], input);
        assert_eq!(o.code, 0, "{}", o.stderr);
        let want = format!("{want}\"x\" is not a number; row skipped");
        assert!(o.stderr.contains(&want), "{}", o.stderr);
    }
}

/// R's time series (`time,value`, the shape of AirPassengers, austres and
/// every `ts` Rdatasets ships) write the time as decimal years: a month
/// is a twelfth, a quarter a quarter. Read as numbers, their axis said
/// `1,975`; the line is on a time axis, its ticks years, as a date
/// column's are, in the terminal and in Vega-Lite.
#[test]
fn decimal_years_are_a_time_axis_not_numbers_with_separators() {
    let mut csv = String::from("rownames,time,value\n");
    for i in 0..48 {
        let t = 1971.0 + f64::from(i) / 4.0;
        csv.push_str(&format!("{},{t},{}\n", i + 1, 13000 + 60 * i));
    }
    let (event, _) = chart(&[], &csv);
    assert_eq!(event["chartType"], "line");
    assert_eq!(event["xType"], "date", "{event}");
    let pts = event["series"][0]["points"].as_array().unwrap();
    assert_eq!(pts[1]["label"], "1971.25");
    // 1971-04-01T00:00:00Z: the second quarter's first day.
    assert_eq!(pts[1]["x"], 39_312_000.0);
    let line = serde_json::to_string(&event).unwrap();
    let drawn = cargo_bin_cmd!("viz-render")
        .args(["--width", "80", "--color", "never"])
        .write_stdin(line.clone())
        .output()
        .unwrap();
    let text = String::from_utf8(drawn.stdout).unwrap();
    assert!(text.contains("1976") && text.contains("1980"), "{text}");
    assert!(!text.contains("1,9"), "{text}");
    let vega = cargo_bin_cmd!("viz-render")
        .args(["--format", "vega-lite"])
        .write_stdin(line)
        .output()
        .unwrap();
    let spec: Value = serde_json::from_slice(&vega.stdout).unwrap();
    assert_eq!(spec["encoding"]["x"]["type"], "temporal", "{spec}");
    // A price that happens to be a decimal in the years stays a number.
    let (price, _) = chart(
        &[],
        "step,price\n1,1999.5\n2,2001.25\n3,2003.75\n4,2002.5\n",
    );
    assert_ne!(price["xType"], "date", "{price}");
}

/// A name that comes in several rows (a country surveyed at two
/// centres) is one bar, its rows averaged and said: two bars under one
/// label read as two countries. Names each in one row stay a bar each.
#[test]
fn a_name_in_several_rows_is_one_bar_of_their_mean() {
    let mut csv = String::from("b,bp,country\n");
    let countries = [
        "Peru", "Chile", "Spain", "Spain", "Italy", "Italy", "Italy", "Japan", "Kenya", "Ghana",
        "Nepal", "Oman", "Qatar", "Fiji", "Laos", "Mali", "Chad", "Togo", "Iran", "Iraq", "Cuba",
        "Haiti",
    ];
    // Values in no order, so nothing reads as an x.
    let b = |i: usize| format!("0.{}", 30 + (i * 37) % 22);
    for (i, c) in countries.iter().enumerate() {
        csv.push_str(&format!("{},{},{c}\n", b(i), 70 + (i * 13) % 22));
    }
    let (event, stderr) = chart(&[], &csv);
    assert_eq!(event["chartType"], "bar", "{event}");
    let labels: Vec<&str> = event["series"][0]["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["label"].as_str().unwrap())
        .collect();
    assert_eq!(
        labels.iter().filter(|l| **l == "Italy").count(),
        1,
        "{labels:?}"
    );
    assert_eq!(labels.len(), 19, "{labels:?}");
    let italy = event["series"][0]["points"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["label"] == "Italy")
        .unwrap();
    let mean = (4..7).map(|i| b(i).parse::<f64>().unwrap()).sum::<f64>() / 3.0;
    assert!(
        (italy["value"].as_f64().unwrap() - mean).abs() < 1e-9,
        "{italy}"
    );
    assert!(
        stderr.contains("mean(b) by country") && stderr.contains("more than one row"),
        "{stderr}"
    );
}

/// `number` alone counts things (polyps per patient); after another word
/// (`Sample Number`) it numbers them. Counted things are an amount.
#[test]
fn a_column_named_number_alone_is_a_count_not_an_identifier() {
    let (event, stderr) = chart(
        &[],
        "number,treat,age\n63,placebo,20\n2,drug,16\n28,placebo,18\n17,drug,22\n61,placebo,13\n\
         1,drug,23\n7,placebo,34\n15,drug,50\n44,placebo,19\n25,drug,17\n3,placebo,23\n28,drug,22\n\
         10,placebo,30\n40,drug,27\n33,placebo,23\n46,drug,22\n50,placebo,34\n3,drug,23\n1,placebo,22\n\
         4,drug,42\n",
    );
    assert!(!stderr.contains("\"number\" is an identifier"), "{stderr}");
    let drawn = serde_json::to_string(&event).unwrap();
    assert!(drawn.contains("number"), "number is drawn: {drawn}");
}

/// `cut -d, -f1 flights.csv | viz-parse --aggregate count`, what YouPlot's
/// `count` is for: one column of labels counted, even a short one where
/// few repeat (with no flag such text is still taken for prose).
#[test]
fn one_column_of_labels_is_counted_on_request() {
    let (event, _) = chart(
        &["--aggregate", "count"],
        "carrier\nAA\nB6\nAA\nUA\nB6\nB6\nDL\n",
    );
    let want = [("AA", 2.0), ("B6", 3.0), ("UA", 1.0), ("DL", 1.0)];
    assert_eq!(points(&event), pts(&want), "{event}");
    assert_eq!(event["xLabel"], "carrier");
    let prose = run(
        &["--aggregate", "count"],
        b"It was late.\nWe left, then.\nNobody came back.\n",
    );
    assert_eq!(prose.code, 65, "{}", prose.stderr);
    let bare = run(&[], b"carrier\nAA\nB6\nAA\nUA\nB6\nB6\nDL\n");
    assert_eq!(bare.code, 65, "no flag, few repeats: {}", bare.stderr);
}

/// A pharmacokinetic panel (R's Theoph): each subject's weight and dose
/// once per subject, the concentration read at times of each subject's
/// own (0.25 h for one, 0.27 h for the next). The chart is concentration
/// over time, a line per subject; never the weight over the rows.
#[test]
fn times_of_each_subjects_own_are_the_x_of_a_line_per_subject() {
    let mut csv = String::from("Subject,Wt,Dose,Time,conc\n");
    for s in 1..=6u32 {
        let wt = 60.0 + 4.0 * f64::from(s);
        let jitter = 0.01 * f64::from(s);
        for (k, t) in [0.0, 0.25, 0.5, 1.0, 2.0, 3.5, 5.0, 7.0, 9.0, 12.0, 24.0]
            .iter()
            .enumerate()
        {
            let time = if k == 0 { 0.0 } else { t + jitter };
            let conc = 10.0 * time * (-time / 4.0f64).exp() + f64::from(s) * 0.1;
            csv.push_str(&format!("{s},{wt},{:.2},{time:.2},{conc:.2}\n", 320.0 / wt));
        }
    }
    let (event, stderr) = chart(&[], &csv);
    assert_eq!(event["chartType"], "line", "{stderr}");
    assert_eq!(event["xLabel"], "Time", "{stderr}");
    assert_eq!(event["series"].as_array().unwrap().len(), 6, "{stderr}");
    assert!(stderr.contains("a line per Subject"), "{stderr}");
}

/// tsibble's periods as fpp3 writes them: `1987 Jan` (a year-month,
/// which the number reader took for 1987 with a unit `Jan`, so the
/// column was codes and the series a histogram) and `1991 W06` (an ISO
/// week): both a time axis, the series a line over it.
#[test]
fn tsibble_year_months_and_weeks_are_dates() {
    let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let mut ym = String::from("Month,Sales\n");
    let mut wk = String::from("Week,Barrels\n");
    for i in 0..36usize {
        let y = 1987 + i / 12;
        ym.push_str(&format!(
            "{y} {},{}.25\n",
            months[i % 12],
            3000 + (i * 37) % 500
        ));
        wk.push_str(&format!(
            "1991 W{:02},{}\n",
            i + 1,
            6.0 + ((i * 13) % 7) as f64 / 10.0
        ));
    }
    for (csv, x) in [(ym, "Month"), (wk, "Week")] {
        let (event, stderr) = chart(&[], &csv);
        assert_eq!(event["chartType"], "line", "{x}: {stderr}");
        assert_eq!(event["xLabel"], x);
        assert_eq!(event["xType"], "date", "{x}: {event}");
    }
}

/// Occasions numbered in Roman numerals (I to IX) are an ordered scale:
/// their means keep that order, not largest first.
#[test]
fn roman_numeral_groups_keep_their_order() {
    let occasions = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"];
    let mut csv = String::from("Occasion,Treatment,Stingers\n");
    for (k, t) in ["Stung", "Fresh"].iter().enumerate() {
        for (i, o) in occasions.iter().enumerate() {
            csv.push_str(&format!("{o},{t},{}\n", (i * 17 + k * 5) % 40));
        }
    }
    let (event, stderr) = chart(&[], &csv);
    assert_eq!(event["chartType"], "bar", "{stderr}");
    let labels: Vec<String> = points(&event).into_iter().map(|(l, _)| l).collect();
    assert_eq!(labels, occasions, "{stderr}");
}
