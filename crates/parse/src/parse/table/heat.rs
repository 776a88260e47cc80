//! `--chart heatmap` with a numeric axis binned (issue 36): which of -x
//! (across) and -s (down) are binned, decided from the sample (a column
//! of numbers with more distinct values than its bins, unless they are
//! whole numbers and at most 31 of them, such as hours or days of a
//! month; or any column of numbers when `--bins` is given); each row's place counted on the grid
//! (`transform/heatbins.rs`); the finished grid made into the chart, its
//! bins in numeric order and said in the chart's `bins`; and the
//! Vega-Lite transforms that bin and aggregate the same rows alike.

use std::borrow::Cow;

use serde_json::{Value, json};

use super::super::ParseError;
use super::super::number::{is_missing, parse_number_as};
use super::super::rows::{Cells, Loc, OwnedRow, Warner, cell};
use super::super::transform::{
    self, AggregateOp, AxisOut, HeatCells, HeatGrid, Place, RowFilter, merges,
};
use super::builder::{Builder, EMPTY_LABEL, value_problem};
use super::collect::{chart_of, names_of, overflow, read_value};
use crate::spec::order::{calendar, category_order};
use crate::spec::{BinAxis, Chart, ChartType, HeatBins, Point, Series, XType};

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

fn op_of(plan: &super::Plan) -> AggregateOp {
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

/// A row's place on an axis: a number when binned (`None`: the row is
/// skipped, said), else its category.
fn place<'r>(
    plan: &super::Plan,
    col: Option<usize>,
    text: &'r str,
    binned: bool,
) -> Result<Place<'r>, String> {
    if !binned {
        return Ok(Place::Category(text));
    }
    let Some(c) = col else {
        return Err("no column".into());
    };
    match parse_number_as(text, plan.decimals[c]) {
        Some(n) if n.value.is_finite() => Ok(Place::Number(n.value)),
        _ => {
            let short = super::super::rows::short(text);
            let what = if is_missing(text) || text == EMPTY_LABEL {
                "no value".to_string()
            } else {
                format!("{short:?} is not a number")
            };
            Err(format!("{}: {what}", super::column_ref(&plan.names[c])))
        }
    }
}

/// A whole row onto the grid: its places read (a row with no number on
/// a binned axis said and skipped), its value with them.
pub(super) fn heat_row(
    grid: &mut HeatGrid,
    plan: &super::Plan,
    row: &dyn Cells,
    label: &str,
    loc: Loc,
    warn: &mut Warner,
) -> Result<(), ParseError> {
    let series: Cow<str> = plan
        .series
        .and_then(|s| cell(row, s))
        .unwrap_or(Cow::Borrowed(EMPTY_LABEL));
    let (bx, bdown) = grid.binned();
    let places = place(plan, plan.label, label, bx)
        .and_then(|x| Ok((x, place(plan, plan.series, &series, bdown)?)));
    let (x, down) = match places {
        Ok(p) => p,
        Err(why) => return warn.skip(format!("{loc}, {why}; row skipped")),
    };
    let value = match plan.values.first() {
        Some(&col) if op_of(plan).numbers() => match read_value(row, plan, col) {
            (_, Some(v)) => Some(v),
            (t, None) => {
                if !plan.said_once(col, t.as_deref()) {
                    let what = value_problem(t.as_deref(), plan.decimals[col]);
                    warn.skip(format!(
                        "{loc}, {}: {what}; row skipped",
                        super::column_ref(&plan.names[col])
                    ))?;
                }
                None
            }
        },
        _ => None,
    };
    grid.push(x, down, value)
        .map_err(|o| overflow(o, loc, &names_of(&plan.names, plan.label)))
}

/// A label with its bin's edges (none for a category).
type Labelled = (String, Option<(f64, f64)>);

/// An axis' labels in the order drawn, each with its bin's edges, and
/// where each of its keys goes in that order.
fn axis_order(axis: &AxisOut) -> (Vec<Labelled>, Vec<usize>) {
    match axis {
        AxisOut::Bins(b) => (
            (0..b.count)
                .map(|k| (b.label(k), Some(b.edges(k))))
                .collect(),
            (0..b.count).collect(),
        ),
        AxisOut::Categories(names) => {
            let cal = calendar(names.iter().map(String::as_str));
            let mut order: Vec<usize> = (0..names.len()).collect();
            order.sort_by(|&a, &b| category_order(&names[a], &names[b], cal));
            let mut at = vec![0; names.len()];
            for (place, &k) in order.iter().enumerate() {
                at[k] = place;
            }
            let labels = order.iter().map(|&k| (names[k].clone(), None)).collect();
            (labels, at)
        }
    }
}

fn bins_of(axis: &AxisOut) -> Option<BinAxis> {
    match axis {
        AxisOut::Bins(b) => Some(*b),
        AxisOut::Categories(_) => None,
    }
}

impl Builder {
    /// The chart of a finished grid: a series per row down that has a
    /// cell, its points the cells across, both in order (bins by value).
    pub(super) fn heat_chart(&self, cells: HeatCells) -> Result<Chart, ParseError> {
        if cells.cells.is_empty() {
            return Err(self.no_numbers());
        }
        let (cols, col_at) = axis_order(&cells.x);
        let (rows, row_at) = axis_order(&cells.down);
        let mut grid: Vec<Vec<(usize, f64)>> = vec![Vec::new(); rows.len()];
        for &(i, j, v) in &cells.cells {
            grid[row_at[j]].push((col_at[i], v));
        }
        let mut series: Vec<(String, Vec<(String, f64)>)> = Vec::new();
        let mut edges: Vec<Vec<Option<(f64, f64)>>> = Vec::new();
        for (r, mut cells) in grid.into_iter().enumerate() {
            if cells.is_empty() {
                continue;
            }
            cells.sort_by_key(|c| c.0);
            edges.push(cells.iter().map(|c| cols[c.0].1).collect());
            let points = cells.iter().map(|&(c, v)| (cols[c].0.clone(), v)).collect();
            series.push((rows[r].0.clone(), points));
        }
        if let Some(by) = self.plan.transform.normalize {
            super::matrix::normalized(&mut series, by);
        }
        let series: Vec<Series> = series
            .into_iter()
            .zip(edges)
            .map(|((name, cells), edges)| Series {
                name,
                facet: None,
                points: cells
                    .into_iter()
                    .zip(edges)
                    .map(|((label, v), e)| Point {
                        x: e.map(|e| e.0),
                        x2: e.map(|e| e.1),
                        ..Point::new(label, v)
                    })
                    .collect(),
            })
            .collect();
        let mut chart = chart_of(self.plan.chart.clone(), ChartType::Heatmap, series);
        chart.series_label = self.plan.series.map(|s| self.plan.names[s].clone());
        chart.bins = Some(HeatBins {
            x: bins_of(&cells.x),
            series: bins_of(&cells.down),
        });
        super::matrix::normalized_title(&mut chart, self.plan.transform.normalize);
        Ok(chart)
    }
}
