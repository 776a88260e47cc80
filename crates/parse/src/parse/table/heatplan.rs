//! `--chart heatmap` over numbers, as planned from the sample (issue
//! 36): which of -x (across) and -s (down) are binned (a column of
//! numbers with more distinct values than its bins, unless they are whole
//! numbers and at most 31 of them, such as hours or days of a month; or
//! any column of numbers when `--bins` is given), the grid that counts
//! the rows, and the Vega-Lite transforms that bin and aggregate the same
//! rows alike. The rows and the chart are `heat.rs`'s.

use serde_json::{Value, json};

use super::super::ParseError;
use super::super::number::{is_missing, parse_number_as};
use super::super::rows::{Loc, OwnedRow};
use super::super::transform::{self, AggregateOp, HeatGrid, RowFilter, merges};
use crate::spec::XType;

/// Whole numbers an axis keeps as categories, at most, without `--bins`:
/// the hours of a day, the days of a month.
const WHOLE_CATEGORIES: usize = 31;

/// The bins at most of each binned axis: (across, down).
pub(super) type AxisBins = (Option<usize>, Option<usize>);

/// Which axes are binned, and into at most how many bins; `None` when
/// both are categories.
pub(super) fn binned_axes(plan: &super::Plan, sample: &[(OwnedRow, Loc)]) -> Option<AxisBins> {
    let given = plan.transform.bins;
    let binned = |col: Option<usize>, default: usize| {
        let col = col?;
        let maxbins = given.unwrap_or(default);
        let enough = maxbins.max(WHOLE_CATEGORIES);
        let mut distinct: Vec<f64> = Vec::new();
        for c in super::column_cells(sample, col) {
            if is_missing(c) {
                continue;
            }
            let v = parse_number_as(c, plan.decimals[col])?.value;
            if distinct.len() <= enough && !distinct.contains(&v) {
                distinct.push(v);
            }
        }
        let whole = distinct.iter().all(|v| v.fract() == 0.0);
        let few = if whole { enough } else { maxbins };
        let many = distinct.len() > few || (given.is_some() && !distinct.is_empty());
        many.then_some(maxbins)
    };
    let x = binned(plan.label, transform::DEFAULT_HEAT_X_BINS)
        .filter(|_| plan.x_type != Some(XType::Date));
    let down = binned(plan.series, transform::DEFAULT_HEAT_DOWN_BINS);
    (x.is_some() || down.is_some()).then_some((x, down))
}

/// The grid for these axes, its cells the `--aggregate` (a count without
/// -y, else the mean); an operation that does not merge is refused.
pub(super) fn grid(plan: &super::Plan, (x, down): AxisBins) -> Result<HeatGrid, ParseError> {
    let op = op_of(plan);
    if !merges(op) {
        let axes: Vec<String> = [(x, plan.label), (down, plan.series)]
            .iter()
            .filter(|(b, _)| b.is_some())
            .filter_map(|(_, c)| c.map(|c| super::column_ref(&plan.names[c])))
            .collect();
        return Err(ParseError::Usage(format!(
            "--aggregate {}: a heatmap of binned numbers ({}) gives a cell's count, sum, \
             mean, min or max, which its bins merge; a {} does not merge: choose one of \
             those, or categories on both axes",
            op.name(),
            axes.join(" and "),
            op.name()
        )));
    }
    let max = plan
        .transform
        .max_groups
        .unwrap_or(transform::DEFAULT_MAX_GROUPS);
    Ok(HeatGrid::new(op, x, down, max))
}

pub(super) fn op_of(plan: &super::Plan) -> AggregateOp {
    let fallback = if plan.values.is_empty() {
        AggregateOp::Count
    } else {
        AggregateOp::Mean
    };
    plan.transform.aggregate.unwrap_or(fallback)
}

/// The transforms that make the same cells in Vega-Lite: rows without a
/// number on a binned axis left out, each binned axis `bin`ned with its
/// `maxbins` (`label`, `label_end` across; `series`, `series_end` down),
/// the cells aggregated.
pub(super) fn vega(plan: &super::Plan, filters: &[RowFilter], bins: AxisBins) -> Vec<Value> {
    let names = &plan.names;
    let get = |c: usize| format!("datum[{}]", Value::from(names[c].as_str()));
    let mut out: Vec<Value> = filters
        .iter()
        .map(|r| json!({"filter": r.vega()}))
        .collect();
    let axes = [
        (plan.label, bins.0, "label", "label_end"),
        (plan.series, bins.1, "series", "series_end"),
    ];
    for (col, b, _, _) in axes {
        if let (Some(c), Some(_)) = (col, b) {
            let v = get(c);
            out.push(json!({"filter": format!("isValid({v}) && isFinite(toNumber({v}))")}));
        }
    }
    let mut groupby: Vec<Value> = Vec::new();
    for (col, b, at, end) in axes {
        let Some(c) = col else { continue };
        match b {
            Some(maxbins) => {
                out.push(json!({"bin": {"maxbins": maxbins}, "field": names[c], "as": [at, end]}));
                groupby.extend([Value::from(at), Value::from(end)]);
            }
            None => {
                out.push(json!({"calculate": get(c), "as": at}));
                groupby.push(at.into());
            }
        }
    }
    let op = op_of(plan);
    let value = plan.values.first().map(|&v| names[v].as_str());
    out.push(match (op, value) {
        (AggregateOp::Count, _) | (_, None) => {
            json!({"aggregate": [{"op": "count", "as": "value"}], "groupby": groupby})
        }
        (op, Some(v)) => json!({
            "aggregate": [{"op": op.name(), "field": v, "as": "value"}],
            "groupby": groupby
        }),
    });
    if let Some(n) = plan.transform.normalize {
        out.extend(n.vega());
    }
    out
}
