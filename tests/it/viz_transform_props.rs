//! Any `--aggregate` over any table equals a straightforward reference
//! computation: rows of a few groups (and series), values written plainly
//! or missing, every operation; through the library (`parse_text`) as
//! viz-parse runs it, on one thread and, for long inputs, on the fast
//! lane's readers too.

use gemline::parse::transform::{AggregateOp, TransformOptions};
use gemline::parse::{ParseOptions, parse_text};
use gemline::spec::ChartType;
use proptest::prelude::*;

const OPS: [AggregateOp; 7] = [
    AggregateOp::Count,
    AggregateOp::Sum,
    AggregateOp::Mean,
    AggregateOp::Median,
    AggregateOp::Min,
    AggregateOp::Max,
    AggregateOp::Distinct,
];

/// One row: its group, its series, its value as written (`None`: missing).
type Row = (usize, usize, Option<i32>);

/// Series by name, each its (label, value) points.
type Charted = Vec<(String, Vec<(String, f64)>)>;

/// Series by name, each its groups' cells (`None`: missing).
type Grouped = Vec<(String, Vec<(String, Vec<Option<f64>>)>)>;

fn rows() -> impl Strategy<Value = Vec<Row>> {
    prop::collection::vec(
        (
            0usize..5,
            0usize..2,
            prop::option::weighted(0.85, -2000i32..2000),
        ),
        1..120,
    )
}

/// A value as written: hundredths, so means and medians are not whole.
fn written(v: Option<i32>) -> String {
    v.map_or("NA".into(), |v| format!("{}", f64::from(v) / 100.0))
}

/// The reference: per series (in order of appearance), per group (in
/// order of appearance), the operation over the rows, as a person would
/// compute it.
fn reference(rows: &[Row], op: AggregateOp, series: bool) -> Charted {
    let mut out: Grouped = Vec::new();
    for &(g, s, v) in rows {
        let s_name = if series { format!("s{s}") } else { "v".into() };
        let si = match out.iter().position(|(n, _)| *n == s_name) {
            Some(i) => i,
            None => {
                out.push((s_name, Vec::new()));
                out.len() - 1
            }
        };
        let groups = &mut out[si].1;
        let label = format!("g{g}");
        let gi = match groups.iter().position(|(l, _)| *l == label) {
            Some(i) => i,
            None => {
                groups.push((label, Vec::new()));
                groups.len() - 1
            }
        };
        groups[gi].1.push(v.map(|v| f64::from(v) / 100.0));
    }
    out.into_iter()
        .map(|(name, groups)| {
            let points = groups
                .into_iter()
                .filter_map(|(label, cells)| {
                    let nums: Vec<f64> = cells.iter().flatten().copied().collect();
                    let value = match op {
                        AggregateOp::Count => Some(cells.len() as f64),
                        AggregateOp::Distinct => {
                            let mut seen: Vec<Option<String>> = Vec::new();
                            for c in &cells {
                                let t = c.map(|v| format!("{v}"));
                                if !seen.contains(&t) {
                                    seen.push(t);
                                }
                            }
                            Some(seen.len() as f64)
                        }
                        _ if nums.is_empty() => None,
                        AggregateOp::Sum => Some(nums.iter().sum()),
                        AggregateOp::Mean => Some(nums.iter().sum::<f64>() / nums.len() as f64),
                        AggregateOp::Median => {
                            let mut s = nums.clone();
                            s.sort_by(f64::total_cmp);
                            let n = s.len();
                            Some(if n % 2 == 1 {
                                s[n / 2]
                            } else {
                                (s[n / 2 - 1] + s[n / 2]) / 2.0
                            })
                        }
                        AggregateOp::Min => nums.iter().copied().reduce(f64::min),
                        AggregateOp::Max => nums.iter().copied().reduce(f64::max),
                    };
                    Some((label, value?))
                })
                .collect();
            (name, points)
        })
        .filter(|(_, p): &(String, Vec<(String, f64)>)| !p.is_empty())
        .collect()
}

/// What viz-parse makes of the rows: series (by name) of (label, value).
fn ours(rows: &[Row], op: AggregateOp, series: bool, threads: usize) -> Result<Charted, String> {
    let mut text = String::from("group,series,v\n");
    for &(g, s, v) in rows {
        text.push_str(&format!("g{g},s{s},{}\n", written(v)));
    }
    let opts = ParseOptions {
        label: Some("group".into()),
        values: vec!["v".into()],
        series: series.then(|| "series".into()),
        chart: Some(if series {
            ChartType::Line
        } else {
            ChartType::Bar
        }),
        max_points: Some(200),
        threads: Some(threads),
        transform: TransformOptions {
            aggregate: Some(op),
            ..TransformOptions::default()
        },
        ..ParseOptions::default()
    };
    let n = parse_text(&text, &opts).map_err(|e| e.to_string())?;
    Ok(n.chart
        .series
        .iter()
        .map(|s| {
            let name = if series { s.name.clone() } else { "v".into() };
            (
                name,
                s.points
                    .iter()
                    .map(|p| (p.label.clone(), p.value))
                    .collect(),
            )
        })
        .collect())
}

fn same(a: &Charted, b: &Charted) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|((na, pa), (nb, pb))| {
            na == nb
                && pa.len() == pb.len()
                && pa.iter().zip(pb).all(|((la, va), (lb, vb))| {
                    la == lb && (va - vb).abs() <= 1e-9 * va.abs().max(vb.abs()).max(1.0)
                })
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::support::proptest_cases(200), ..ProptestConfig::default() })]

    #[test]
    fn every_aggregate_equals_the_reference(rows in rows(), op in 0usize..7, series in any::<bool>()) {
        let op = OPS[op];
        let want = reference(&rows, op, series);
        let got = ours(&rows, op, series, 1);
        match got {
            Ok(got) => prop_assert!(same(&got, &want), "{op:?}\nours {got:?}\nwant {want:?}"),
            // Nothing to chart: the reference has nothing either.
            Err(e) => prop_assert!(want.is_empty(), "{op:?}: {e}\nwant {want:?}"),
        }
    }
}

/// A long input is read ahead by the fast lane's readers: the same
/// groups, the same numbers as on one thread, and as the reference.
#[test]
fn the_fast_lane_aggregates_alike() {
    let rows: Vec<Row> = (0..60_000)
        .map(|i: i32| {
            let v = (i % 97 != 0).then_some((i * 7919) % 4001 - 2000);
            ((i as usize * 31) % 5, 0, v)
        })
        .collect();
    for op in OPS {
        let want = reference(&rows, op, false);
        let one = ours(&rows, op, false, 1).unwrap();
        let many = ours(&rows, op, false, 4).unwrap();
        assert!(
            same(&one, &want),
            "{op:?} one thread\nours {one:?}\nwant {want:?}"
        );
        assert!(
            same(&many, &want),
            "{op:?} four threads\nours {many:?}\nwant {want:?}"
        );
    }
}
