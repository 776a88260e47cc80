//! The transforms a chart's flags ask for (`--filter`, `--aggregate`,
//! `--time-unit`, `--chart hist`, `--chart point`), resolved on the
//! table's columns into a [`Collect`] that the builder runs on its rows
//! (`collect.rs`), with the Vega-Lite steps that say the same and the
//! input rows kept for the export.

use serde_json::Value;

use super::super::ParseError;
use super::super::rows::{Cells, Loc, cell};
use super::super::transform::{
    self, AggregateOp, BoxGroups, Fields, Groups, HeatGrid, Histogram, RowFilter, Scatter, Source,
    TimeUnit,
};
use crate::spec::{Chart, ChartType, XType};

/// What a chart's rows become.
#[derive(Debug)]
pub(super) enum What {
    /// Rows that pass the filters go on to the reducers.
    Rows,
    /// Groups by label and series, one value each.
    Groups {
        groups: Groups,
        op: AggregateOp,
        unit: Option<TimeUnit>,
    },
    /// The first value column's values counted in at most `bins` bins.
    Hist { hist: Histogram, bins: usize },
    /// The points (x from the label column, y from each value column).
    Scatter(Scatter),
    /// The first value column's values kept per group, for their boxes.
    Box(BoxGroups),
    /// A heatmap with a numeric axis binned (or two): each row counted
    /// in its cell.
    Heat(HeatGrid),
}

/// The transforms on a chart's rows, as they run.
#[derive(Debug)]
pub(super) struct Collect {
    pub(super) filters: Vec<RowFilter>,
    pub(super) what: What,
    pub(super) source: Option<Source>,
    /// The transforms as Vega-Lite writes them.
    pub(super) vega: Vec<Value>,
    /// Rows the filters left out.
    pub(super) filtered: usize,
    /// A refusal met where it cannot be returned (the fast lane).
    pub(super) failed: Option<ParseError>,
    /// With derived columns: the columns the export's rows need, which
    /// the derivation keeps from the input rows (`derive.rs`) while
    /// `source` only says whether the chart shows every point.
    pub(super) wanted: Vec<transform::SourceColumn>,
}

impl Collect {
    pub(super) fn new(
        filters: Vec<RowFilter>,
        what: What,
        source: Option<Source>,
        vega: Vec<Value>,
    ) -> Collect {
        Collect {
            filters,
            what,
            source,
            vega,
            filtered: 0,
            failed: None,
            wanted: Vec::new(),
        }
    }

    /// Whether rows are taken whole only (a filter reads other cells).
    pub(super) fn whole_rows(&self) -> bool {
        !self.filters.is_empty()
    }

    pub(super) fn passes(&self, row: &dyn Cells) -> bool {
        self.filters
            .iter()
            .all(|f| f.passes(cell(row, f.col).as_deref()))
    }
}

/// The fields the Vega-Lite transforms read.
pub(super) fn fields<'a>(
    names: &'a [String],
    label: Option<usize>,
    value: Option<usize>,
    series: Option<usize>,
) -> Fields<'a> {
    Fields {
        label: label.map(|l| names[l].as_str()),
        value: value.map(|v| names[v].as_str()),
        series: series.map(|s| names[s].as_str()),
    }
}

/// The transforms a chart's flags ask for, resolved on its columns; `None`
/// without any. A filter naming no column is a usage error naming them.
pub(super) fn collect_for(
    plan: &super::Plan,
    opts: &super::super::ParseOptions,
    sample: &[(super::super::rows::OwnedRow, Loc)],
) -> Result<Option<Collect>, ParseError> {
    let t = &plan.transform;
    let kind = plan.chart.chart_type;
    let shaped = matches!(
        kind,
        ChartType::Hist | ChartType::Point | ChartType::Heatmap | ChartType::Box
    );
    if t.filters.is_empty() && !t.groups() && !shaped && !t.derives() {
        return Ok(None);
    }
    let names = &plan.names;
    if kind == ChartType::Point && plan.x_type.is_none() {
        let x = plan
            .label
            .map_or("the label".into(), |l| super::column_ref(&names[l]));
        return Err(ParseError::Usage(format!(
            "--chart point places x by value, but {x} does not hold numbers or dates: \
             -x COLUMN names one (the columns are {})",
            super::list(names)
        )));
    }
    check_columns(plan)?;
    let filters = row_filters(plan, opts, sample)?;
    let heat_bins = match kind {
        ChartType::Heatmap => super::heatplan::binned_axes(plan, sample),
        _ => None,
    };
    let what = match kind {
        ChartType::Box => What::Box(BoxGroups::new(
            t.max_groups.unwrap_or(transform::DEFAULT_BOX_GROUPS),
        )),
        ChartType::Heatmap => match heat_bins {
            Some(bins) => What::Heat(super::heatplan::grid(plan, bins)?),
            // A heatmap without a value counts its cells' rows.
            None if plan.values.is_empty() => groups_of(t, AggregateOp::Count),
            None => groups_of(t, AggregateOp::Mean),
        },
        ChartType::Hist => What::Hist {
            hist: Histogram::default(),
            bins: t.bins.unwrap_or(transform::DEFAULT_BINS),
        },
        ChartType::Point => What::Scatter(Scatter::default()),
        _ if t.groups() => groups_of(t, AggregateOp::Mean),
        _ => What::Rows,
    };
    let value = plan.values.first().copied();
    let f = fields(names, plan.label, value, plan.series);
    let (op, unit, bins) = match &what {
        What::Groups { op, unit, .. } => (Some(*op), *unit, None),
        What::Hist { bins, .. } => (None, None, Some(*bins)),
        _ => (None, None, None),
    };
    let vega = match &what {
        What::Heat(_) => super::heatplan::vega(plan, &filters, heat_bins.unwrap_or_default()),
        // A scatter's points are its rows (the filters aside).
        What::Scatter(_) => filters
            .iter()
            .map(|r| serde_json::json!({"filter": r.vega()}))
            .chain(transform::vega(&[], None, None, None, &f))
            .collect(),
        What::Hist { .. } => transform::vega(&filters, None, None, bins, &f),
        _ => {
            let mut v = transform::vega(&filters, op, unit, None, &f);
            if let (ChartType::Heatmap, Some(n)) = (kind, t.normalize) {
                v.extend(n.vega());
            }
            v
        }
    };
    let source = source_columns(plan, &filters, &what, op);
    if t.derives() {
        let mut c = Collect::new(filters, what, Some(Source::placeholder()), vega);
        c.wanted = source;
        return Ok(Some(c));
    }
    Ok(Some(Collect::new(
        filters,
        what,
        Some(Source::new(source)),
        vega,
    )))
}

/// Rows grouped by label and series, each group the `--aggregate` (else
/// `op`), at most `--max-groups` of them.
fn groups_of(t: &transform::TransformOptions, op: AggregateOp) -> What {
    let op = t.aggregate.unwrap_or(op);
    let max = t.max_groups.unwrap_or(transform::DEFAULT_MAX_GROUPS);
    What::Groups {
        groups: Groups::new(op, max),
        op,
        unit: t.time_unit,
    }
}

/// `--filter`s resolved on the plan's columns, each reading its column's
/// numbers and dates as the chart does.
fn row_filters(
    plan: &super::Plan,
    opts: &super::super::ParseOptions,
    sample: &[(super::super::rows::OwnedRow, Loc)],
) -> Result<Vec<RowFilter>, ParseError> {
    let names = &plan.names;
    plan.transform
        .filters
        .iter()
        .map(|f| {
            let col = super::resolve(names, &f.column, "--filter")?;
            let dates = super::super::dates::time::decide_dates(
                super::column_cells(sample, col),
                opts.dates,
            );
            Ok(RowFilter::new(
                f,
                col,
                &names[col],
                plan.decimals[col],
                dates.order,
            ))
        })
        .collect()
}

/// The columns the export's rows carry, each typed as the transforms
/// read it.
fn source_columns(
    plan: &super::Plan,
    filters: &[RowFilter],
    what: &What,
    op: Option<AggregateOp>,
) -> Vec<transform::SourceColumn> {
    use transform::CellKind;
    let mut cols: Vec<transform::SourceColumn> = Vec::new();
    let mut add = |at: usize, kind: CellKind| {
        if cols.iter().any(|c| c.at == at) {
            return;
        }
        cols.push(transform::SourceColumn {
            at,
            name: plan.names[at].clone(),
            kind,
            decimal: plan.decimals[at],
            dates: plan.dates.order,
        });
    };
    // A histogram reads its value alone: no label column.
    if let Some(l) = plan.label.filter(|_| !matches!(what, What::Hist { .. })) {
        let unit = matches!(what, What::Groups { unit: Some(_), .. });
        let binned = matches!(what, What::Heat(g) if g.binned().0);
        let kind = match plan.x_type {
            _ if unit => CellKind::Date,
            _ if binned => CellKind::Number,
            Some(XType::Date) => CellKind::Date,
            Some(XType::Number) => CellKind::Number,
            None => CellKind::Text,
        };
        add(l, kind);
    }
    let value_kind = if op == Some(AggregateOp::Distinct) {
        CellKind::Text
    } else {
        CellKind::Number
    };
    for &v in &plan.values {
        add(v, value_kind);
    }
    if let Some(s) = plan.series {
        // A heatmap's binned rows are numbers, as Vega bins them.
        let binned = matches!(what, What::Heat(g) if g.binned().1);
        add(
            s,
            if binned {
                CellKind::Number
            } else {
                CellKind::Text
            },
        );
    }
    for f in filters {
        add(f.col, f.kind());
    }
    cols
}

/// What the transforms made of the rows: a chart of their own, or the
/// reducers fed; the Vega-Lite transforms and the kept rows either way.
pub(super) enum Collected {
    Chart(Box<Chart>, Vec<Value>, Option<Source>),
    Reduce(Vec<Value>, Option<Source>),
}

/// A chart with the transforms that made it, and the input rows when
/// `whole` (every point they make is in it, in their order).
pub(super) fn with_transforms(
    mut chart: Chart,
    vega: Vec<Value>,
    source: Option<Source>,
    whole: bool,
) -> Chart {
    let shown_all = !chart.meta.truncated && whole;
    chart.source = source.and_then(Source::finish).filter(|_| shown_all);
    chart.transform = Some(vega);
    chart
}

/// What the chart kinds of this file need of the columns: a heatmap two
/// categories (-x and -s), a box plot no -s (its groups are -x's).
fn check_columns(plan: &super::Plan) -> Result<(), ParseError> {
    let names = &plan.names;
    match plan.chart.chart_type {
        ChartType::Heatmap if plan.label.is_none() || plan.series.is_none() => {
            Err(ParseError::Usage(format!(
                "--chart heatmap takes two categories: -x COLUMN across and -s COLUMN down \
                 (each cell counts their rows, or -y COLUMN with --aggregate OP); the columns are {}",
                super::list(names)
            )))
        }
        ChartType::Box if plan.series.is_some() => Err(ParseError::Usage(
            "--chart box draws a box per -x group; leave out -s".into(),
        )),
        ChartType::Box if plan.values.is_empty() => Err(ParseError::Usage(format!(
            "--chart box needs -y COLUMN, a column of numbers; the columns are {}",
            super::list(names)
        ))),
        _ => Ok(()),
    }
}
