//! The chart viz-parse makes with no flag, by the role of each column
//! (issue 33): identifiers and codes stored as numbers are never the value
//! nor a line's or a scatter's x; a frequency weight is summed; bars of
//! categories come largest first and numeric groups in numeric order; a
//! column of repeating labels is counted. Small files of the shapes the
//! issue found, the real binary, real stdin.

use assert_cmd::cargo::cargo_bin_cmd;
use proptest::prelude::*;
use serde_json::Value;

use crate::support::viz::points;

/// The chart event and stderr for `stdin` with no flag; exit 0 required.
fn auto(stdin: &str) -> (Value, String) {
    auto_with(&[], stdin)
}

/// The chart event and stderr for `stdin` with `args` and no column
/// named; exit 0 required.
fn auto_with(args: &[&str], stdin: &str) -> (Value, String) {
    let o = cargo_bin_cmd!("viz-parse")
        .args(args)
        .write_stdin(stdin.as_bytes().to_vec())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "stderr: {stderr}");
    let out = String::from_utf8(o.stdout).unwrap();
    let v = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|e| e["type"] == "visualization")
        .expect("a chart");
    (v, stderr)
}

/// A fixed pseudo-random sequence (no clock, no seed from outside).
fn lcg(n: usize) -> Vec<u64> {
    let mut x: u64 = 42;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            x >> 33
        })
        .collect()
}

fn table(head: &str, rows: impl Iterator<Item = String>) -> String {
    let mut s = format!("{head}\n");
    for r in rows {
        s.push_str(&r);
        s.push('\n');
    }
    s
}

fn labels(v: &Value) -> Vec<String> {
    points(v).into_iter().map(|(l, _)| l).collect()
}

#[test]
fn a_household_id_is_never_averaged_nor_an_x() {
    let r = lcg(400);
    let csv = table(
        "hid,brand,price",
        (0..200).map(|i| {
            format!(
                "{},{},{}.5",
                1000 + i * 7,
                ["a", "b", "c", "d"][(r[i] % 4) as usize],
                r[200 + i] % 9
            )
        }),
    );
    let (v, _) = auto(&csv);
    assert_eq!(v["xLabel"], "brand", "{v}");
    assert!(!v["yLabel"].as_str().unwrap().contains("hid"), "{v}");
}

#[test]
fn a_frequency_table_is_summed() {
    let mut rows = Vec::new();
    let mut n = 0;
    for class in ["first", "second", "third", "crew"] {
        for sex in ["male", "female"] {
            for age in ["child", "adult"] {
                n += 7;
                rows.push(format!("{class},{sex},{age},{n}"));
            }
        }
    }
    let (v, err) = auto(&table("Class,Sex,Age,Freq", rows.into_iter()));
    assert_eq!(v["yLabel"], "sum(Freq)", "{v} {err}");
    let total: f64 = points(&v).iter().map(|(_, y)| y).sum();
    assert_eq!(total, (1..=16).map(|i| 7.0 * i as f64).sum::<f64>());
}

#[test]
fn bars_of_categories_come_largest_first() {
    let r = lcg(600);
    let carriers = ["AA", "B6", "B6", "B6", "DL", "DL", "UA", "9E"];
    let csv = table(
        "carrier,dep_delay",
        (0..600).map(|i| format!("{},{}", carriers[(r[i] % 8) as usize], (r[i] / 8) % 50)),
    );
    let (v, _) = auto(&csv);
    let values: Vec<f64> = points(&v).into_iter().map(|(_, y)| y).collect();
    let mut sorted = values.clone();
    sorted.sort_by(|a, b| b.total_cmp(a));
    assert_eq!(values, sorted, "{v}");
    // Counted, they come largest first too: B6 has the most rows.
    let only = table(
        "carrier",
        (0..600).map(|i| carriers[(r[i] % 8) as usize].to_string()),
    );
    let (v, _) = auto(&only);
    assert_eq!(v["yLabel"], "count", "{v}");
    assert_eq!(labels(&v)[0], "B6", "{v}");
}

#[test]
fn numeric_groups_come_in_numeric_order() {
    let r = lcg(300);
    let csv = table(
        "hhsize,spend",
        (0..300).map(|i| {
            format!(
                "{},{}.25",
                [5, 3, 1, 4, 2, 9][(r[i] % 6) as usize],
                r[i] % 90
            )
        }),
    );
    let (v, _) = auto(&csv);
    assert_eq!(v["chartType"], "bar", "{v}");
    assert_eq!(labels(&v), ["1", "2", "3", "4", "5", "9"], "{v}");
}

#[test]
fn a_department_number_is_a_group_not_a_scatter_x() {
    let r = lcg(200);
    let csv = table(
        "dept,salary",
        (0..200).map(|i| {
            format!(
                "{},{}",
                [30, 10, 50, 20, 40][(r[i] % 5) as usize],
                30000 + r[i] % 50000
            )
        }),
    );
    let (v, _) = auto(&csv);
    assert_eq!(v["chartType"], "bar", "{v}");
    assert_eq!(labels(&v), ["10", "20", "30", "40", "50"], "{v}");
}

#[test]
fn a_zero_one_code_colours_a_scatter_never_places_it() {
    let r = lcg(300);
    let csv = table(
        "sex,age,income",
        (0..100).map(|i| {
            format!(
                "{},{},{}",
                r[i] % 2,
                20 + r[100 + i] % 40,
                10000 + r[200 + i] % 80000
            )
        }),
    );
    let (v, _) = auto(&csv);
    assert_ne!(v["xLabel"], "sex", "{v}");
    assert_ne!(v["yLabel"], "sex", "{v}");
}

#[test]
fn a_tournament_seed_is_never_the_value() {
    // Seeds 1-16 in every year: their mean is 8.5 by construction.
    let regions = ["east", "west", "south", "midwest"];
    let csv = table(
        "year,region,seed,team",
        (0..320).map(|i| {
            format!(
                "{},{},{},team{}",
                1990 + i / 64,
                regions[(i / 16) % 4],
                1 + i % 16,
                i
            )
        }),
    );
    let (v, _) = auto(&csv);
    assert!(!v["yLabel"].as_str().unwrap().contains("seed"), "{v}");
    assert_ne!(v["xLabel"], "seed", "{v}");
}

#[test]
fn people_numbered_in_rows_are_no_line() {
    let r = lcg(600);
    let csv = table(
        "person,age,wage",
        (1..=300).map(|i| format!("{i},{},{}.5", 20 + r[i] % 40, 5 + r[300 + i - 1] % 35)),
    );
    let (v, _) = auto(&csv);
    assert_ne!(v["xLabel"], "person", "{v}");
    // A series stored a row per step is a line over its row numbers.
    let mut level = 0i64;
    let series = table(
        "index,value",
        (1..=300).map(|i| {
            level += (r[i] % 7) as i64 - 3;
            format!("{i},{level}")
        }),
    );
    let (v, _) = auto(&series);
    assert_eq!(v["chartType"], "line", "{v}");
}

#[test]
fn a_scatter_past_its_colours_draws_the_rest_as_other() {
    // Three kinds in the sample the choice is made from, thirty after it:
    // the scatter chosen is not refused at the thirteenth.
    let r = lcg(700);
    let kind = |i: usize| {
        if i < 250 {
            ["a", "b", "c"][i % 3].to_string()
        } else {
            format!("k{}", i % 30)
        }
    };
    let csv = table(
        "height,weight,kind",
        (0..650).map(|i| format!("1.{},{}.5,{}", r[i] % 100, 50 + r[i] % 40, kind(i))),
    );
    let (v, err) = auto(&csv);
    assert_eq!(v["chartType"], "point", "{err}");
    let names: Vec<&str> = v["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"other"), "{names:?}");
    assert!(err.contains("drawn as one series, \"other\""), "{err}");
}

/// Series names of a chart event.
fn series_names(v: &Value) -> Vec<String> {
    v["series"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| s["name"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn things_measured_again_are_a_line_per_thing_over_their_steps() {
    // Six subjects, each measured at the same hours after a dose: the
    // subject's number comes in runs, the hours count up within each.
    let hours = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0];
    let mut rows = Vec::new();
    for s in 1..=6 {
        for (k, h) in hours.iter().enumerate() {
            rows.push(format!(
                "{},{s},{h},{:.2}",
                rows.len() + 1,
                2.5 / (k + 1) as f64 + s as f64 * 0.1
            ));
        }
    }
    let (v, err) = auto(&table("rownames,Subject,time,conc", rows.into_iter()));
    assert_eq!(v["chartType"], "line", "{v} {err}");
    assert_eq!(v["xLabel"], "time", "{err}");
    assert_eq!(v["yLabel"], "conc", "{err}");
    assert_eq!(series_names(&v), ["1", "2", "3", "4", "5", "6"], "{err}");
    assert!(err.contains("a line per Subject"), "{err}");
}

#[test]
fn many_things_measured_again_are_averaged_at_each_step() {
    // 60 pigs weighed in weeks 1..8: more than a sample shows whole, so
    // the weights are averaged each week, never the pig's number.
    let r = lcg(600);
    let rows = (0..480).map(|i| {
        let (pig, week) = (4601 + i / 8, 1 + i % 8);
        format!(
            "{pig},{week},{:.1}",
            20.0 + week as f64 * 6.0 + (r[i] % 10) as f64 / 3.0
        )
    });
    let (v, err) = auto(&table("Pig,Time,Weight", rows));
    assert_eq!(v["chartType"], "line", "{v} {err}");
    assert_eq!(v["xLabel"], "Time", "{err}");
    assert_eq!(v["yLabel"], "mean(Weight)", "{err}");
    assert_eq!(labels(&v).len(), 8, "{v}");
}

#[test]
fn a_panel_of_countries_by_year_is_no_count_of_rows() {
    // Row numbers, then 30 countries each in every year: counted at each
    // year the rows are a flat 30; the measure is what changes.
    let years = [1952, 1957, 1962, 1967, 1972, 1977, 1982, 1987];
    let mut rows = Vec::new();
    for c in 0..30 {
        for (k, y) in years.iter().enumerate() {
            let continent = ["Asia", "Europe", "Africa"][c % 3];
            rows.push(format!(
                "{},C{c:02},{continent},{y},{:.1}",
                rows.len() + 1,
                40.0 + k as f64 * 2.5 + c as f64 / 10.0
            ));
        }
    }
    let (v, err) = auto(&table(
        "rownames,country,continent,year,lifeExp",
        rows.into_iter(),
    ));
    assert_eq!(v["chartType"], "line", "{v} {err}");
    assert_eq!(v["yLabel"], "mean(lifeExp)", "{err}");
    assert!(!err.contains("rownames (each its own)"), "{err}");
}

#[test]
fn a_leading_key_in_runs_is_never_the_value() {
    // Patients, two or three rows each, first after the row numbers, and
    // a code: the patient's number is no amount to average by the code.
    let r = lcg(200);
    let mut rows = Vec::new();
    for p in 1..=40 {
        for _ in 0..(2 + p % 2) {
            let i = rows.len();
            rows.push(format!(
                "{},{p},{},{}",
                i + 1,
                3 + r[i] % 90,
                r[i + 100] % 2
            ));
        }
    }
    let (v, err) = auto(&table("rownames,patient,time,rejection", rows.into_iter()));
    assert!(
        !v["yLabel"].as_str().unwrap().contains("patient"),
        "{v} {err}"
    );
    assert!(
        !v["xLabel"].as_str().unwrap_or("").contains("patient"),
        "{v} {err}"
    );
}

#[test]
fn a_calculated_column_is_the_measure_drawn() {
    // Players' shots made of shots tried: with no -y, the rate the user
    // computed is what is drawn (by player, or over the years), not the
    // first column of numbers.
    let r = lcg(120);
    let shots = |i: usize| {
        let tried = 10 + r[i] % 20;
        (tried * (30 + r[i + 60] % 60) / 100, tried)
    };
    let by_player = (0..60).map(|i| {
        let (made, tried) = shots(i);
        format!("p{},{made},{tried}", i % 6)
    });
    let csv = table("player,Made,Trials", by_player);
    let (v, err) = auto_with(&["--calculate", "rate=Made/Trials"], &csv);
    assert_eq!(v["yLabel"], "mean(rate)", "{v} {err}");
    assert_eq!(v["xLabel"], "player", "{err}");
    assert!(err.contains("--calculate made"), "{err}");
    let by_year = (0..40).map(|i| {
        let (made, tried) = shots(i);
        format!("{},{made},{tried}", 1980 + i)
    });
    let csv = table("season,Made,Trials", by_year);
    let (v, err) = auto_with(&["--calculate", "rate=Made/Trials"], &csv);
    assert_eq!(v["chartType"], "line", "{v} {err}");
    assert_eq!(
        (v["xLabel"].as_str(), v["yLabel"].as_str()),
        (Some("season"), Some("rate")),
        "{err}"
    );
    // Wide columns folded, a share calculated from the fold's value: the
    // share by the fold's key, not the raw value.
    let wide = (0..12).map(|i| format!("t{i},{},{},20", 1 + i % 7, 2 + i % 5));
    let csv = table("team,made2019,made2020,tried", wide);
    let (v, err) = auto_with(
        &[
            "--fold",
            "made2019,made2020",
            "--calculate",
            "share=value/tried",
        ],
        &csv,
    );
    assert_eq!(
        (v["xLabel"].as_str(), v["yLabel"].as_str()),
        (Some("key"), Some("mean(share)")),
        "{v} {err}"
    );
}

#[test]
fn a_unit_named_by_its_number_is_never_the_value_nor_the_x() {
    // A repeated-measures table: subjects numbered 1..30, each in one
    // condition, a score each; students numbered within schools whose
    // numbers look like years: neither is averaged nor drawn as x.
    let r = lcg(200);
    let rows = (0..30).map(|i| format!("{},{},{}", i + 1, ["low", "high"][i % 2], 40 + r[i] % 30));
    let (v, err) = auto(&table("Subject,Condition,Score", rows));
    assert_eq!(v["xLabel"], "Condition", "{v} {err}");
    assert_eq!(v["yLabel"], "mean(Score)", "{err}");
    let rows = (0..120).map(|i| {
        format!(
            "{},{},{},{}",
            1200 + 37 * (i / 20),
            5 + 3 * (i % 20),
            ["F", "M"][(r[i] % 2) as usize],
            20 + r[i + 80] % 50
        )
    });
    let (v, err) = auto(&table("school,student,gender,written", rows));
    for key in ["xLabel", "yLabel"] {
        let l = v[key].as_str().unwrap_or("");
        assert!(!l.contains("school") && !l.contains("student"), "{v} {err}");
    }
}

#[test]
fn an_interval_start_is_no_x_of_its_end() {
    // Survival intervals (start, stop] a patient is followed over: a line
    // of mean(stop) over start shows only that stops come after starts.
    let r = lcg(200);
    let rows = (0..80).map(|i| {
        let start = (i as u64 % 4) * (5 + r[i] % 10);
        let stop = start + 1 + r[i + 100] % 20;
        format!(
            "{},{},{start},{stop}",
            i / 4 + 1,
            ["placebo", "drug"][(i / 4) % 2]
        )
    });
    let (v, err) = auto(&table("id,treatment,start,stop", rows));
    assert_ne!(v["xLabel"], "start", "{v} {err}");
    assert!(
        !v["yLabel"].as_str().unwrap_or("").contains("start"),
        "{v} {err}"
    );
    // Entry and exit ages: no scatter of one end over the other.
    let rows = (0..60).map(|i| {
        let entry = 700 + r[i] % 300;
        format!(
            "{},{entry},{},{}",
            ["F", "M"][i % 2],
            entry + 10 + r[i + 60] % 90,
            r[i + 120] % 2
        )
    });
    let (v, err) = auto(&table("sex,entry,exit,cens", rows));
    assert_ne!(v["xLabel"], "entry", "{v} {err}");
}

#[test]
fn a_constant_column_is_no_measure() {
    // Deaths of 20 insects at each dose: the 20 is the design, the same
    // in every row; it is never what is drawn.
    let rows = (0..12).map(|i| {
        let dose = 1 << (i % 6);
        format!("{dose},{},20,{}", (i % 6) * 3 + i / 6, ["M", "F"][i / 6])
    });
    let (v, err) = auto(&table("dose,numdead,total,sex", rows));
    assert!(
        !v["yLabel"].as_str().unwrap_or("").contains("total"),
        "{v} {err}"
    );
    assert_ne!(v["xLabel"], "total", "{v} {err}");
}

#[test]
fn an_age_in_a_panel_is_no_measure_over_its_years() {
    // Women followed year after year: each a year older a year later, so
    // mean(age) over the years is a straight line by construction; the
    // wage is what a person would draw. The rows by person (a long
    // table of things measured again), then by year.
    let r = lcg(400);
    let mut rows = Vec::new();
    for p in 0..40u64 {
        let born = 20 + r[p as usize] % 35;
        for year in 70..80u64 {
            let wage = 1.0 + (r[(p * 10 + year - 70) as usize] % 100) as f64 / 50.0;
            rows.push((
                p,
                year,
                format!("{},{},{year},{wage:.3}", p + 1, year - born),
            ));
        }
    }
    let csv = table("idcode,age,year,ln_wage", rows.iter().map(|r| r.2.clone()));
    let (v, err) = auto(&csv);
    assert_eq!(v["yLabel"], "mean(ln_wage)", "{v} {err}");
    // Sorted by the year, written in full: no long table, the rows at
    // each year averaged.
    rows.sort_by_key(|r| (r.1, r.0));
    let csv = table(
        "idcode,age,year,ln_wage",
        rows.iter()
            .map(|r| r.2.replace(&format!(",{},", r.1), &format!(",19{},", r.1))),
    );
    let (v, err) = auto(&csv);
    assert_eq!(v["yLabel"], "mean(ln_wage)", "{v} {err}");
}

#[test]
fn a_code_nesting_the_groups_or_numbering_their_rows_is_no_amount_of_them() {
    // Bakers in the series of a contest, a row per baker and episode:
    // each baker's series number is the same in all their rows, so its
    // mean by baker gives the number back; it labels groups of bakers.
    let r = lcg(300);
    let mut rows = Vec::new();
    for series in 1..=4 {
        for episode in 1..=6 {
            for b in 0..(8 - episode) {
                let i = rows.len();
                rows.push(format!(
                    "{series},{episode},baker{series}{b},{}",
                    1 + r[i] % 8
                ));
            }
        }
    }
    // The episode numbers each baker's rows 1, 2, ..., k: its mean is a
    // count in disguise. The technical rank is the amount.
    let (v, err) = auto(&table("series,episode,baker,technical", rows.into_iter()));
    assert_eq!(v["yLabel"], "mean(technical)", "{v} {err}");
}

#[test]
fn a_numbered_code_column_is_never_averaged() {
    // Leaders' spells: a country's numeric code (`cowcode2`, a second
    // coding of countries) beside the year each spell began and its length.
    let r = lcg(200);
    let rows = (0..120).map(|i| {
        let code = [700, 339, 615, 540, 160, 20][i % 6] + (i / 6) % 3;
        format!(
            "{code},{},{}",
            1946 + r[i] % 60,
            1 + r[i + 120 - i / 2] % 20
        )
    });
    let (v, err) = auto(&table("cowcode2,start_year,duration", rows));
    assert_eq!(v["yLabel"], "mean(duration)", "{v} {err}");
}

#[test]
fn a_yes_no_column_alone_is_a_share_by_a_coded_column_not_a_histogram() {
    // Schools: an id, a 0/1 flag (`coed`), a 2-5 rating and another flag;
    // a histogram of the flag is two bars, its mean by the rating a rate.
    let r = lcg(300);
    let rows = (0..300).map(|i| {
        let rating = 2 + r[i] % 4;
        let flag = u64::from(r[(i * 7) % 300] % 10 < 2 + rating);
        format!("{},{flag},{rating},{}", i + 1, r[(i * 3) % 300] % 2)
    });
    let (v, err) = auto(&table("SCH_ID,coed,smorale,catholic", rows));
    assert_eq!(v["chartType"], "bar", "{v} {err}");
    assert_eq!(v["yLabel"], "mean(coed)", "{v} {err}");
    assert_eq!(v["xLabel"], "smorale", "{v} {err}");
    assert_eq!(labels(&v), ["2", "3", "4", "5"], "{err}");
}

/// A cell of a generated column: a kind of column and a row.
fn cell(kind: u8, i: usize, r: u64) -> String {
    match kind {
        0 => format!("{}", i + 1),
        1 => format!("{}", r % 2),
        2 => format!("{}.{}", r % 1000, r % 10),
        3 => ["north", "south", "east", "west"][(r % 4) as usize].to_string(),
        4 => format!("name{}", r % 100_000),
        5 => format!("{}", 1950 + (i % 60)),
        6 => format!("2020-{:02}-{:02}", 1 + r % 12, 1 + r % 28),
        7 => format!("{}", r % 30),
        _ => String::new(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// With no flag, any table of ids, codes, amounts, categories, names,
    /// years, dates, counts and empty cells is charted (exit 0) or refused
    /// as input with a reason (exit 65): never the tool's own choice
    /// refused as a usage error, never a crash.
    #[test]
    fn a_no_flag_run_charts_or_refuses_the_input(
        kinds in prop::collection::vec(0u8..9, 1..5),
        rows in 1usize..80,
        seed in 0u64..1000,
    ) {
        let r = lcg(rows * kinds.len() + 1);
        let head: Vec<String> = kinds.iter().enumerate().map(|(j, k)| format!("c{j}k{k}")).collect();
        let mut csv = head.join(",") + "\n";
        for i in 0..rows {
            let line: Vec<String> = kinds
                .iter()
                .enumerate()
                .map(|(j, &k)| cell(k, i, r[i * kinds.len() + j] ^ seed))
                .collect();
            csv.push_str(&line.join(","));
            csv.push('\n');
        }
        let o = cargo_bin_cmd!("viz-parse").write_stdin(csv.clone()).output().unwrap();
        let code = o.status.code();
        let err = String::from_utf8_lossy(&o.stderr);
        prop_assert!(code == Some(0) || code == Some(65), "exit {code:?}: {err}\n{csv}");
        if code == Some(65) {
            prop_assert!(err.contains("error"), "{err}");
        }
        // Labels that repeat can always be counted: never refused.
        if kinds.contains(&3) && rows >= 12 {
            prop_assert_eq!(code, Some(0), "{}\n{}", err, csv);
        }
    }
}
