//! No silent guesses: where viz-parse picks one reading of data that
//! allows two (decimal comma or thousands separator, header row or not,
//! the label column, the delimiter, dates day-first or month-first), it
//! says so once on stderr, naming the column, the reading taken and the
//! flag that takes the other; the flag then gives that reading, quietly.
//! Input that allows one reading stays quiet. The real binary, real stdin.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

use crate::support::viz::{points, pts};

const NOTE: &str = "viz-parse: warning: <stdin>: ";

/// The one event, and stderr, for `stdin`; exit 0 required.
fn chart(args: &[&str], stdin: &str) -> (Value, String) {
    let o = cargo_bin_cmd!("viz-parse")
        .args(args)
        .write_stdin(stdin.as_bytes().to_vec())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "stderr: {stderr}");
    let out = String::from_utf8(o.stdout).unwrap();
    let events: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(events.len(), 1, "{out}");
    (events.into_iter().next().unwrap(), stderr)
}

fn note(text: &str) -> String {
    format!("{NOTE}{text}\n")
}

#[test]
fn thousands_commas_beside_plain_numbers_in_a_semicolon_file() {
    // The new rule: every comma stands before three digits and nothing
    // shows a decimal comma, so `1,200` is twelve hundred even where `;`
    // leans to decimal commas; and it is said.
    let input = "item;price\nA;\"1,200\"\nB;950\nC;2,500\n";
    let (v, err) = chart(&[], input);
    assert_eq!(
        points(&v),
        pts(&[("A", 1200.0), ("B", 950.0), ("C", 2500.0)])
    );
    assert_eq!(
        err,
        note(
            "column \"price\": \"1,200\" read as 1200 (a comma before three digits groups \
             thousands, and no value here shows a decimal comma); --decimal , reads it as 1.2"
        )
    );
    let (v, err) = chart(&["--decimal", ","], input);
    assert_eq!(points(&v), pts(&[("A", 1.2), ("B", 950.0), ("C", 2.5)]));
    assert_eq!(err, "");
}

#[test]
fn one_decimal_comma_makes_every_comma_a_decimal_mark() {
    let (v, err) = chart(&[], "item;price\nA;1,200\nB;2,5\n");
    assert_eq!(points(&v), pts(&[("A", 1.2), ("B", 2.5)]));
    assert_eq!(err, "");
    // A comma not before three digits, anywhere in the column, is one too.
    let (v, err) = chart(&[], "item;price\nA;1,200\nB;950\nC;0,75\n");
    assert_eq!(points(&v), pts(&[("A", 1.2), ("B", 950.0), ("C", 0.75)]));
    assert_eq!(err, "");
    // Grouping as well as a decimal comma, and grouping by dots: settled.
    let (v, err) = chart(&[], "item;price\nA;1.200,50\nB;1.234.567\n");
    assert_eq!(points(&v), pts(&[("A", 1200.5), ("B", 1234567.0)]));
    assert_eq!(err, "");
}

#[test]
fn a_point_before_three_digits_is_read_by_the_delimiter_and_said() {
    let (v, err) = chart(&[], "Artikel;Preis\nA;1.234\nB;987\n");
    assert_eq!(points(&v), pts(&[("A", 1234.0), ("B", 987.0)]));
    assert_eq!(
        err,
        note(
            "column \"Preis\": \"1.234\" read as 1234 (a ;-separated file writes a decimal \
             comma, and no value here shows a decimal point); --decimal . reads it as 1.234"
        )
    );
    let (v, err) = chart(&["--decimal", "."], "Artikel;Preis\nA;1.234\nB;987\n");
    assert_eq!(points(&v), pts(&[("A", 1.234), ("B", 987.0)]));
    assert_eq!(err, "");
    // Tab-separated text says nothing of the mark: a point, said.
    let (v, err) = chart(&[], "k\tv\na\t1.500\nb\t2\n");
    assert_eq!(points(&v), pts(&[("a", 1.5), ("b", 2.0)]));
    assert_eq!(
        err,
        note(
            "column \"v\": \"1.500\" read as 1.5 (no value here shows a decimal comma); \
             --decimal , reads it as 1500"
        )
    );
}

#[test]
fn formats_that_settle_the_mark_stay_quiet() {
    // Comma-separated text: a comma in a number is quoted grouping.
    let (v, err) = chart(&[], "item,price\nA,\"1,200\"\nB,1.250\n");
    assert_eq!(points(&v), pts(&[("A", 1200.0), ("B", 1.25)]));
    assert_eq!(err, "");
    // JSON numbers are written with a point.
    let (v, err) = chart(
        &[],
        "{\"k\":\"a\",\"v\":1.234}\n{\"k\":\"b\",\"v\":\"1,200\"}\n",
    );
    assert_eq!(points(&v), pts(&[("a", 1.234), ("b", 1200.0)]));
    assert_eq!(err, "");
    // Numbers that show the mark (`2.75`) settle the rest of the column.
    let (v, err) = chart(&[], "k\tv\na\t1.500\nb\t2.75\n");
    assert_eq!(points(&v), pts(&[("a", 1.5), ("b", 2.75)]));
    assert_eq!(err, "");
}

#[test]
fn the_note_comes_once_for_a_long_column_and_names_only_value_columns() {
    let mut input = String::from("id;label;price\n");
    for i in 0..5000 {
        input.push_str(&format!("{i};x{i};\"{},{:03}\"\n", 1 + i % 9, i % 1000));
    }
    let (v, err) = chart(&["-x", "label", "-y", "price", "--keep", "first"], &input);
    assert_eq!(points(&v)[0], ("x0".to_string(), 1000.0));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("column \"price\""), "{err}");
}

#[test]
fn a_header_of_years_over_other_numbers() {
    // A wide table: its first row names the columns by year.
    let (v, err) = chart(&[], "country,2022,2023\nDE,5,6\nFR,7,8\n");
    assert_eq!(v["xLabel"], "country");
    assert_eq!(v["yLabel"], "2022");
    assert_eq!(points(&v), pts(&[("DE", 5.0), ("FR", 7.0)]));
    assert_eq!(
        err,
        note(
            "the first row is read as column names: its numbers (2022, 2023) look like years \
             above columns of other numbers; --no-header reads it as data"
        )
    );
    let (v, err) = chart(&["--no-header"], "country,2022,2023\nDE,5,6\nFR,7,8\n");
    assert_eq!(points(&v)[0], ("country".to_string(), 2022.0));
    assert_eq!(err, "");
    // One year alone stays data, said; --header takes the other reading.
    let (v, err) = chart(&[], "DE,2022\nFR,5\nIT,7\n");
    assert_eq!(points(&v)[0], ("DE".to_string(), 2022.0));
    assert_eq!(
        err,
        note(
            "the first row is read as data, though its 2022 in column 2 could be a column name \
             (a year above other numbers); --header reads it as column names"
        )
    );
    let (v, err) = chart(&["--header"], "DE,2022\nFR,5\nIT,7\n");
    assert_eq!(points(&v), pts(&[("FR", 5.0), ("IT", 7.0)]));
    assert_eq!(err, "");
    // Years all the way down are data; a word above numbers is a header.
    for quiet in ["2020,5\n2021,6\n2022,7\n", "model,secs\nM5,2.9\nM8,3.0\n"] {
        assert_eq!(chart(&[], quiet).1, "", "{quiet}");
    }
}

#[test]
fn the_label_column_among_several_text_columns() {
    let input = "name,team,score\nann,red,5\nbob,blue,7\n";
    let (v, err) = chart(&[], input);
    assert_eq!(points(&v), pts(&[("ann", 5.0), ("bob", 7.0)]));
    assert_eq!(
        err,
        note(
            "the labels come from column \"name\", the first text column (\"team\" is text \
             too); -x team labels the rows by \"team\" instead"
        )
    );
    let (v, err) = chart(&["-x", "team"], input);
    assert_eq!(points(&v), pts(&[("red", 5.0), ("blue", 7.0)]));
    assert_eq!(err, "");
    // A column name the shell would split is offered by number.
    let (_, err) = chart(&[], "name,home team,score\nann,red,5\n");
    assert!(
        err.contains("-x 2 labels the rows by \"home team\""),
        "{err}"
    );
    // The --series column is not a candidate.
    let (_, err) = chart(
        &["-s", "team", "--chart", "line"],
        "name,team,score\nann,red,5\nbob,blue,7\n",
    );
    assert_eq!(err, "");
}

#[test]
fn the_label_column_when_every_column_holds_numbers() {
    let input = "a,b\n5,1\n3,2\n9,4\n";
    let (v, err) = chart(&[], input);
    assert_eq!(points(&v), pts(&[("5", 1.0), ("3", 2.0), ("9", 4.0)]));
    assert_eq!(
        err,
        note(
            "column \"a\" holds numbers but labels the rows (when every column holds numbers, \
             the first labels the others); -y a -y b charts them all as values over row numbers"
        )
    );
    let (v, err) = chart(&["-y", "a", "-y", "b"], input);
    assert_eq!(v["series"].as_array().unwrap().len(), 2);
    assert_eq!(points(&v)[0], ("1".to_string(), 5.0));
    assert_eq!(err, "");
    // A first column that runs like an axis (years, rising numbers) is one.
    for quiet in ["year,n\n2020,5\n2021,3\n", "x,y\n1,5\n2,3\n4,8\n"] {
        assert_eq!(chart(&[], quiet).1, "", "{quiet}");
    }
}

#[test]
fn a_delimiter_that_splits_every_line_as_evenly_as_another() {
    let input = "Monat;Umsatz, EUR\nJan;1,5\nFeb;2,5\n";
    let (v, err) = chart(&[], input);
    assert_eq!(points(&v), pts(&[("Jan", 1.5), ("Feb", 2.5)]));
    assert_eq!(
        err,
        note(
            "the fields are split at ';', though every line splits as evenly at ','; \
             --delimiter , splits them there"
        )
    );
    let (v, err) = chart(&["--delimiter", ","], input);
    assert_eq!(v["xLabel"], "Monat;Umsatz");
    assert_eq!(err, "");
}

#[test]
fn numbers_with_a_comma_one_a_line_or_two_columns() {
    let input = "1,234\n2,500\n3,750\n";
    let (v, err) = chart(&[], input);
    assert_eq!(points(&v)[0], ("1".to_string(), 234.0));
    assert_eq!(
        err,
        note(
            "each line is split at \",\", though each also reads as one number (\"1,234\"); \
             --delimiter t (a tab, which the lines lack) reads one number a line"
        )
    );
    let (v, err) = chart(&["--delimiter", "t"], input);
    assert_eq!(
        points(&v),
        pts(&[("1", 1234.0), ("2", 2500.0), ("3", 3750.0)])
    );
    // The one column's grouping is then in doubt itself, and said.
    assert!(err.contains("\"1,234\" read as 1234"), "{err}");
}

#[test]
fn dates_day_first_or_month_first() {
    // 1 Feb then 2 Jan runs newest first; Jan 2 then Feb 1 does not.
    let input = "date,v\n01/02/2024,1\n02/01/2024,2\n";
    let (v, err) = chart(&[], input);
    assert_eq!(points(&v), pts(&[("02/01/2024", 2.0), ("01/02/2024", 1.0)]));
    assert_eq!(
        err,
        note(
            "column \"date\": \"01/02/2024\" could be 1 February 2024 or 2 January 2024; the \
             dates are read day-first, which puts them newest first, so the line is reversed; \
             --dates mdy reads them month-first, which keeps them in the order given"
        ) + &note(
            "the labels run newest first (01/02/2024 … 02/01/2024); the line is drawn oldest \
             to newest"
        )
    );
    let (v, err) = chart(&["--dates", "mdy"], input);
    assert_eq!(points(&v), pts(&[("01/02/2024", 1.0), ("02/01/2024", 2.0)]));
    assert_eq!(err, "");
    // The other way round: day-first keeps the order, month-first would not.
    let (v, err) = chart(&[], "date,v\n02/01/2024,2\n01/02/2024,1\n");
    assert_eq!(points(&v)[0].0, "02/01/2024");
    assert_eq!(
        err,
        note(
            "column \"date\": \"02/01/2024\" could be 2 January 2024 or 1 February 2024; the \
             dates are read day-first, which keeps them in the order given; --dates mdy reads \
             them month-first, which puts them newest first, so the line is reversed"
        )
    );
}

#[test]
fn dates_that_settle_their_order_or_do_not_matter_stay_quiet() {
    // 13/01 can only be day-first: then 12/01 is 12 January, newest first.
    let (v, err) = chart(&[], "date,v\n13/01/2024,1\n12/01/2024,2\n");
    assert_eq!(points(&v)[0].0, "12/01/2024");
    assert!(!err.contains("--dates"), "{err}");
    // 01/13 only month-first: 01/13 then 01/12 (Jan 13, Jan 12), and
    // 02/01 after it read month-first is Feb 1: not newest first, in no
    // order: drawn in date order, said once (issue 22).
    let (v, err) = chart(&[], "date,v\n01/13/2024,1\n01/12/2024,2\n02/01/2024,3\n");
    let labels: Vec<String> = points(&v).into_iter().map(|p| p.0).collect();
    assert_eq!(labels, ["01/12/2024", "01/13/2024", "02/01/2024"]);
    assert!(!err.contains("--dates"), "{err}");
    assert!(err.contains("not in date order"), "{err}");
    // Both readings agree on the order: nothing to say about the dates.
    let (_, err) = chart(&[], "date,v\n05/01/2024,1\n04/01/2024,2\n");
    assert!(!err.contains("--dates"), "{err}");
    let (_, err) = chart(&[], "date,v\n01/01/2024,1\n02/02/2024,2\n");
    assert_eq!(err, "");
    // Dotted dates are day-first; a bar chart keeps the order given.
    let (v, _) = chart(&[], "date,v\n01.02.2024,1\n02.01.2024,2\n");
    assert_eq!(points(&v)[0].0, "02.01.2024");
    let (_, err) = chart(&["--chart", "bar"], "date,v\n01/02/2024,1\n02/01/2024,2\n");
    assert!(!err.contains("--dates"), "{err}");
}

#[test]
fn both_lanes_say_the_same() {
    // The fast lane reads `x,y`; a quoted header hands the whole file to
    // the csv crate. Same notes, same chart.
    let mut body = String::new();
    for i in 0..3000 {
        body.push_str(&format!("{i},{}.{:03}\n", 1 + i % 7, i % 1000));
    }
    let fast = chart(
        &["--delimiter", "\t"],
        &format!("x\ty\n{}", body.replace(',', "\t")),
    );
    let full = chart(
        &["--delimiter", "\t"],
        &format!("\"x\"\ty\n{}", body.replace(',', "\t")),
    );
    assert_eq!(fast, full);
    assert!(
        fast.1.contains("column \"y\": \"1.000\" read as 1"),
        "{}",
        fast.1
    );
}

#[test]
fn the_grammar_lane_says_it_too() {
    let (v, err) = chart(
        &["--grammar", "-x", "item", "-y", "price"],
        "item;price\nA;\"1,200\"\nB;950\n",
    );
    assert_eq!(v["type"], "ui");
    assert_eq!(
        err,
        note(
            "column \"price\": \"1,200\" read as 1200 (a comma before three digits groups \
             thousands, and no value here shows a decimal comma); --decimal , reads it as 1.2"
        )
    );
}
