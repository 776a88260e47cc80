//! viz-parse's transforms, with Vega-Lite's names so an exported chart
//! says the same thing: `--filter` ([`filter`]), `--aggregate`
//! ([`aggregate`]) over the label and the series, `--time-unit`
//! ([`timeunit`]) on a date label, and the bins of `--chart hist`
//! ([`bins`]), the two axes of a heatmap of numbers binned
//! ([`heatbins`]); and the binning of a large scatter onto a grid
//! ([`scatter`]). Before all of them, columns a chart's rows gain or
//! trade: `--calculate` ([`calculate`]), `--fold` ([`fold`]) and the row
//! number of `-x @row` (run on the rows by `table/derive.rs`).
//!
//! What viz-parse computed is written into the chart as Vega-Lite
//! transforms whose output rows are the chart's points (`label`,
//! `value`, `series`, `label_end`), and, when the input had at most
//! [`SOURCE_ROWS`] rows and the chart shows every point they make, the
//! input rows themselves ([`source`]), typed as the transforms read
//! them: a Vega-Lite export then computes the points in the browser and
//! must find the same numbers.

mod aggregate;
mod bins;
mod boxplot;
mod calculate;
mod filter;
mod fold;
mod heatbins;
mod scatter;
mod source;
mod timeunit;

use serde_json::{Value, json};

pub use aggregate::{AggregateOp, DEFAULT_MAX_GROUPS};
pub(crate) use aggregate::{Cell, Groups, MAX_KEPT, Overflow};
pub(crate) use bins::{Bin, Histogram, edge_decimals};
pub(crate) use boxplot::BoxGroups;
pub use boxplot::DEFAULT_BOX_GROUPS;
pub use calculate::{Calculate, CalculateError, Expr};
pub(crate) use filter::{CellKind, RowFilter};
pub use filter::{Filter, FilterError, FilterOp};
pub use fold::{Fold, FoldError, glob, is_pattern};
pub(crate) use heatbins::{AxisOut, HeatCells, HeatGrid, Place, merges};
pub(crate) use scatter::{MAX_SERIES as SCATTER_SERIES, Scatter};
pub(crate) use source::{Column as SourceColumn, Source};
pub use timeunit::TimeUnit;

/// Input rows a chart carries for its Vega-Lite export, at most.
pub const SOURCE_ROWS: usize = 5_000;
/// `--bins` of a heatmap's numeric axis across, when not given (ten
/// columns fit 80 columns of terminal with their numbers).
pub const DEFAULT_HEAT_X_BINS: usize = 10;
/// `--bins` of a heatmap's numeric axis down, when not given.
pub const DEFAULT_HEAT_DOWN_BINS: usize = 20;
/// `--bins` when not given.
pub const DEFAULT_BINS: usize = 20;
/// `--bins` at most (a bar a bin).
pub const MAX_BINS: usize = 200;

/// What the transform flags ask for; columns are still names or numbers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TransformOptions {
    /// `--filter`, ANDed.
    pub filters: Vec<Filter>,
    pub aggregate: Option<AggregateOp>,
    pub time_unit: Option<TimeUnit>,
    /// `--bins` of `--chart hist`: at most this many.
    pub bins: Option<usize>,
    /// `--max-groups`: groups an aggregate keeps at most.
    pub max_groups: Option<usize>,
    /// `--calculate`, in order.
    pub calculate: Vec<Calculate>,
    /// `--fold` with `--fold-as`.
    pub fold: Option<Fold>,
    /// `-x @row`: x is the row's number (set where it is resolved).
    pub row: bool,
    /// `--normalize` of `--chart heatmap`: each cell as a share of its
    /// row's or column's total.
    pub normalize: Option<Normalize>,
}

/// What a heatmap's cells are shares of (`--normalize`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Normalize {
    /// Each cell in percent of its row's total.
    Row,
    /// Each cell in percent of its column's total.
    Column,
}

impl Normalize {
    /// Vega-Lite's transforms that make the same shares of the points
    /// (`label` the column, `series` the row).
    pub(crate) fn vega(self) -> [Value; 2] {
        let by = match self {
            Normalize::Row => "series",
            Normalize::Column => "label",
        };
        [
            json!({"joinaggregate": [{"op": "sum", "field": "value", "as": "__total"}], "groupby": [by]}),
            json!({"calculate": "datum.__total ? datum.value / datum.__total * 100 : 0", "as": "value"}),
        ]
    }
}

impl TransformOptions {
    /// Whether a chart is computed from its rows, not drawn from them.
    pub fn groups(&self) -> bool {
        self.aggregate.is_some() || self.time_unit.is_some()
    }

    /// Whether rows gain or trade columns before the chart reads them.
    pub fn derives(&self) -> bool {
        !self.calculate.is_empty() || self.fold.is_some() || self.row
    }
}

/// The fields a chart's transforms read, by their names in the input.
#[derive(Debug, Clone, Default)]
pub(crate) struct Fields<'a> {
    pub label: Option<&'a str>,
    pub value: Option<&'a str>,
    pub series: Option<&'a str>,
}

/// The transforms that make a chart's points out of its input rows, as
/// Vega-Lite writes them.
pub(crate) fn vega(
    filters: &[RowFilter],
    op: Option<AggregateOp>,
    unit: Option<TimeUnit>,
    bins: Option<usize>,
    f: &Fields,
) -> Vec<Value> {
    let field = |n: &str| Value::from(n);
    let get = |n: &str| format!("datum[{}]", Value::from(n));
    let mut out: Vec<Value> = filters
        .iter()
        .map(|r| json!({"filter": r.vega()}))
        .collect();
    if let (Some(maxbins), Some(v)) = (bins, f.value) {
        out.push(
            json!({"bin": {"maxbins": maxbins}, "field": field(v), "as": ["label", "label_end"]}),
        );
        out.push(json!({"aggregate": [{"op": "count", "as": "value"}], "groupby": ["label", "label_end"]}));
        return out;
    }
    match (unit, f.label) {
        (Some(u), Some(l)) => {
            out.push(json!({"timeUnit": u.vega(), "field": field(l), "as": "label"}))
        }
        (None, Some(l)) => out.push(json!({"calculate": get(l), "as": "label"})),
        _ => {}
    }
    let mut groupby = vec![Value::from("label")];
    if let Some(s) = f.series {
        out.push(json!({"calculate": get(s), "as": "series"}));
        groupby.push("series".into());
    }
    let op = op.or(unit.map(|_| AggregateOp::Mean));
    match (op, f.value) {
        (Some(AggregateOp::Count), _) => {
            out.push(json!({"aggregate": [{"op": "count", "as": "value"}], "groupby": groupby}))
        }
        (Some(op), Some(v)) => out.push(json!({
            "aggregate": [{"op": op.name(), "field": field(v), "as": "value"}],
            "groupby": groupby
        })),
        (None, Some(v)) => out.push(json!({"calculate": get(v), "as": "value"})),
        _ => {}
    }
    out
}
