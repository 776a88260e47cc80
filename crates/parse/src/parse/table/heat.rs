//! `--chart heatmap` with a numeric axis binned (issue 36), the axes
//! planned in `heatplan.rs`: each row's place counted on the grid
//! (`transform/heatbins.rs`); the finished grid made into the chart, its
//! bins in numeric order and said in the chart's `bins`; and the
//! Vega-Lite transforms that bin and aggregate the same rows alike. A
//! heatmap of categories goes down the fast lane here too: its rows read
//! ahead with the -s cell as their key.

use std::borrow::Cow;

use super::super::ParseError;
use super::super::number::{is_missing, parse_number_as};
use super::super::rows::{Cells, Loc, MAX_VALUES, PlainShape, Warner};
use super::super::transform::{AggregateOp, AxisOut, Cell, HeatCells, Place};
use super::builder::{Builder, EMPTY_LABEL, value_problem};
use super::collect::{chart_of, names_of, overflow, read_value};
use super::heatplan::op_of;
use super::transforms::{Collect, What};
use crate::spec::order::{calendar, category_order};
use crate::spec::{BinAxis, Chart, ChartType, HeatBins, Point, Series};

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

impl Builder {
    /// A whole row onto the grid, with its -x and -s cells: its places
    /// read (a row with no number on a binned axis said and skipped), its
    /// value with them.
    pub(super) fn heat_row(
        &mut self,
        row: &dyn Cells,
        (label, series): (&str, Option<&str>),
        loc: Loc,
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        let plan = &self.plan;
        let Some(Collect {
            what: What::Heat(grid),
            ..
        }) = &mut self.collect
        else {
            return Ok(());
        };
        let series = series.unwrap_or(EMPTY_LABEL);
        let (bx, bdown) = grid.binned();
        let places = place(plan, plan.label, label, bx)
            .and_then(|x| Ok((x, place(plan, plan.series, series, bdown)?)));
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

impl Builder {
    /// The fast lane's shape for a heatmap of categories: the -x cell as
    /// the label, the -s cell as the key, the rows of the -s categories
    /// met so far read ahead on every core (any other row takes the full
    /// path, which makes its row). None where the rows need more than
    /// that (a filter, a time unit, a distinct count).
    pub(super) fn keyed_heat_shape(&self, max_width: Option<usize>) -> Option<PlainShape> {
        let c = self.collect.as_ref()?;
        let heatmap = self.plan.chart.chart_type == ChartType::Heatmap;
        if !heatmap || c.whole_rows() || self.plan.values.len() > MAX_VALUES {
            return None;
        }
        let What::Groups {
            groups,
            op,
            unit: None,
        } = &c.what
        else {
            return None;
        };
        if *op == AggregateOp::Distinct {
            return None;
        }
        Some(PlainShape {
            values: (self.plan.values.iter())
                .map(|&col| (col, self.plan.decimals[col]))
                .collect(),
            label: Some(self.plan.label?),
            max_width,
            floor: None,
            key: Some((self.plan.series?, groups.series_names().into())),
            derive: None,
        })
    }

    /// A record the fast lane read ahead for a heatmap of categories: its
    /// values, its -x cell and its -s cell (the row's series), into the
    /// groups as the full path puts them (`collect.rs`).
    pub(super) fn push_keyed_heat(&mut self, values: &[f64], label: Option<&str>, key: &str) {
        let (label_col, series_col) = (self.plan.label, self.plan.series);
        if let Some(Some(s)) = self.collect.as_mut().map(|c| c.source.as_mut()) {
            let cols = &self.plan.values;
            let value = |i: usize| Some(values[cols.iter().position(|&v| v == i)?]);
            s.push_read(value, |i| match i {
                _ if Some(i) == label_col => label.map(Cow::Borrowed),
                _ if Some(i) == series_col => Some(Cow::Borrowed(key)),
                _ => Some(Cow::Owned(value(i)?.to_string())),
            });
        }
        self.rows += 1;
        let label = label.unwrap_or(EMPTY_LABEL);
        let names = &self.plan.names;
        let Some(c) = &mut self.collect else { return };
        let What::Groups { groups, op, .. } = &mut c.what else {
            return;
        };
        let cell = |v: f64| match op {
            AggregateOp::Count => Cell::Missing,
            _ => Cell::Number(v),
        };
        let result = match values {
            [] => groups.push(key, label, None, Cell::Missing),
            _ => (values.iter()).try_for_each(|&v| groups.push(key, label, None, cell(v))),
        };
        if let Err(o) = result {
            let e = overflow(o, Loc::Record(0), &names_of(names, label_col));
            c.failed.get_or_insert(e);
        }
    }
}
