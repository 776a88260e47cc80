//! The charts a table could be, scored as Draco and CompassQL rank
//! Vega-Lite designs: hard constraints a chart may not break (an
//! identifier drawn as an amount, an identifier or a code as a line's or a
//! scatter's x, a frequency weight averaged), then a cost per candidate
//! (a measure over time is a line, by a group a bar, two measures a
//! scatter, one a histogram, a group alone counted: the order of how well
//! position on a common scale reads each). The rules of `auto.rs` propose
//! the chart; this reviews it: a proposal that breaks a hard constraint
//! gives way to the best candidate that breaks none, and the runners-up
//! are said with the flags that draw them.

use super::super::columns::{Column, Kind};
use super::{Choice, q};
use crate::parse::transform::AggregateOp;
use crate::spec::{ChartType, Sort};

/// One chart the table could be, and its cost (lower is better).
struct Candidate {
    choice: Choice,
    cost: u32,
    /// The flags that draw it.
    flags: String,
}

/// A column that can be an amount: numbers or a frequency weight, not
/// mostly empty.
fn measure(c: &Column) -> bool {
    matches!(c.kind, Kind::Number | Kind::Weight) && !c.sparse
}

/// A column that can group rows: a category, or a code of a few values.
fn group(c: &Column) -> bool {
    !c.sparse
        && (c.kind == Kind::Category
            || (c.kind == Kind::Code && (2..=super::MAX_AUTO_SERIES).contains(&c.distinct)))
}

/// The aggregate of a measure's groups: a weight summed, else averaged.
fn op(c: &Column) -> AggregateOp {
    if c.kind == Kind::Weight {
        AggregateOp::Sum
    } else {
        AggregateOp::Mean
    }
}

/// Whether a choice breaks a hard constraint, and which.
fn broken(list: &[String], cols: &[Column], c: &Choice) -> Option<String> {
    let counting = c.aggregate == Some(AggregateOp::Count);
    if !counting && let Some(&v) = c.values.iter().find(|&&v| cols[v].kind == Kind::Id) {
        return Some(format!("{} is an identifier, no amount", q(list, v)));
    }
    let placed = matches!(c.chart, Some(ChartType::Line | ChartType::Point));
    if placed
        && let Some(x) = c.label
        && cols[x].kind == Kind::Code
        && cols[x].distinct <= 2
    {
        return Some(format!("{} holds codes, which place nothing", q(list, x)));
    }
    if c.aggregate == Some(AggregateOp::Mean)
        && let Some(&v) = c.values.iter().find(|&&v| cols[v].kind == Kind::Weight)
    {
        return Some(format!("{} counts rows, so it is summed", q(list, v)));
    }
    None
}

/// The columns that can be a candidate's amount, group and time, each in
/// column order.
fn by_role(cols: &[Column]) -> [Vec<usize>; 3] {
    let n = cols.len();
    let measures: Vec<usize> = (0..n).filter(|&i| measure(&cols[i])).collect();
    // Codes group rows only beside amounts to compare by them.
    let groups: Vec<usize> = (0..n)
        .filter(|&i| group(&cols[i]) && (cols[i].kind == Kind::Category || !measures.is_empty()))
        .collect();
    let times: Vec<usize> = (0..n)
        .filter(|&i| matches!(cols[i].kind, Kind::Date | Kind::Year) && !cols[i].sparse)
        .collect();
    [measures, groups, times]
}

/// Every candidate chart of the table, best first.
fn candidates(list: &[String], cols: &[Column]) -> Vec<Candidate> {
    let [measures, groups, times] = by_role(cols);
    let w = |i: usize| super::super::doubts::flag_word(list, i);
    let mut out = Vec::new();
    if let (Some(&t), Some(&m)) = (times.first(), measures.first()) {
        let repeats = cols[t].distinct < cols[t].present;
        out.push(Candidate {
            choice: Choice {
                label: Some(t),
                values: vec![m],
                aggregate: repeats.then(|| op(&cols[m])),
                chart: Some(ChartType::Line),
                ..Choice::default()
            },
            cost: 0,
            flags: format!("--chart line -x {} -y {}", w(t), w(m)),
        });
    }
    if let (Some(&g), Some(&m)) = (groups.first(), measures.first()) {
        out.push(Candidate {
            choice: Choice {
                label: Some(g),
                values: vec![m],
                aggregate: Some(op(&cols[m])),
                chart: Some(ChartType::Bar),
                sort: Some(if cols[g].kind == Kind::Category {
                    Sort::Desc
                } else {
                    Sort::Label
                }),
                ..Choice::default()
            },
            cost: if cols[m].kind == Kind::Weight { 0 } else { 1 },
            flags: format!(
                "--aggregate {} -x {} -y {}",
                op(&cols[m]).name(),
                w(g),
                w(m)
            ),
        });
    }
    if let [a, b, ..] = measures[..] {
        out.push(Candidate {
            choice: Choice {
                label: Some(a),
                values: vec![b],
                series: groups.first().copied(),
                chart: Some(ChartType::Point),
                ..Choice::default()
            },
            cost: 2,
            flags: format!("--chart point -x {} -y {}", w(a), w(b)),
        });
    }
    if let Some(&m) = measures.first() {
        out.push(Candidate {
            choice: Choice {
                values: vec![m],
                chart: Some(ChartType::Hist),
                ..Choice::default()
            },
            cost: 3,
            flags: format!("--chart hist -y {}", w(m)),
        });
    }
    if let Some(&g) = groups.first() {
        out.push(Candidate {
            choice: Choice {
                label: Some(g),
                aggregate: Some(AggregateOp::Count),
                chart: Some(ChartType::Bar),
                sort: Some(Sort::Desc),
                ..Choice::default()
            },
            cost: 4,
            flags: format!("--aggregate count -x {}", w(g)),
        });
    }
    out.retain(|c| broken(list, cols, &c.choice).is_none());
    out.sort_by_key(|c| c.cost);
    out
}

/// Whether two choices draw the same chart of the same columns.
fn same(a: &Choice, b: &Choice) -> bool {
    a.label == b.label
        && a.values == b.values
        && a.chart.unwrap_or(ChartType::Bar) == b.chart.unwrap_or(ChartType::Bar)
}

/// The rules' choice reviewed: replaced by the best candidate where it
/// breaks a hard constraint (said), and the runners-up added to its note.
pub(in super::super) fn review(list: &[String], cols: &[Column], choice: Choice) -> Choice {
    let all = candidates(list, cols);
    let mut choice = match broken(list, cols, &choice) {
        Some(why) => match all.first() {
            Some(best) => {
                let mut c = best.choice.clone();
                c.note = Some(format!(
                    "{why}: charting instead what `{}` draws",
                    best.flags
                ));
                c
            }
            None => choice,
        },
        None => choice,
    };
    let others: Vec<String> = all
        .iter()
        .filter(|c| !same(&c.choice, &choice))
        .take(2)
        .map(|c| format!("`{}`", c.flags))
        .collect();
    if !others.is_empty()
        && let Some(note) = &mut choice.note
    {
        note.push_str(&format!("; runners-up: {}", others.join(", ")));
    }
    choice
}
