//! A chart's transforms on its rows (`parse::transform`), in the
//! [`Builder`]: rows filtered, then grouped and aggregated (`--aggregate`,
//! `--time-unit`), counted in bins (`--chart hist`) or placed on a
//! scatter (`--chart point`) instead of streamed into the reducers; a row
//! that only filters goes on to them. The input rows are kept for the
//! export while they are few ([`Source`]).

use std::borrow::Cow;

use super::super::ParseError;
use super::super::dates::instant::instant;
use super::super::number::parse_number_as;
use super::super::rows::{Cells, Loc, Warner, cell};
use super::super::transform::{
    self, AggregateOp, Bin, BoxGroups, Cell, MAX_KEPT, Overflow, RowFilter, TimeUnit, edge_decimals,
};
use super::builder::{Builder, EMPTY_LABEL, value_problem};
use super::transforms::{Collect, Collected, What};
use crate::spec::{Chart, ChartType, Point, Series, XType};

/// Why grouping stopped, as the user reads it.
pub(super) fn overflow(o: Overflow, loc: Loc, by: &str) -> ParseError {
    match o {
        Overflow::Groups(max) => ParseError::Data(format!(
            "{loc}: more than {max} groups of {by}: --aggregate keeps a value per group; \
             --max-groups N raises the cap (memory grows with the groups)"
        )),
        Overflow::Kept => ParseError::Data(format!(
            "{loc}: more than {MAX_KEPT} values kept: a median or distinct count keeps each \
             group's values; use another --aggregate (mean, count) or --filter fewer rows"
        )),
    }
}

impl Builder {
    /// A row when transforms run: filtered, kept for the export, then
    /// collected (or, only filtered, streamed into the reducers).
    pub(super) fn push_collected(
        &mut self,
        row: &dyn Cells,
        loc: Loc,
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        let Some(c) = &mut self.collect else {
            return Ok(());
        };
        if let Some(e) = c.failed.take() {
            return Err(e);
        }
        if !c.passes(row) {
            c.filtered += 1;
            return Ok(());
        }
        if let Some(s) = &mut c.source {
            s.push(|i| cell(row, i));
        }
        if matches!(c.what, What::Rows) {
            if self.push_plain_values(row) {
                return Ok(());
            }
            return self.push_full(row, loc, warn);
        }
        self.rows += 1;
        let label = self.row_label_of(row);
        self.collect_row(row, &label, loc, warn)
    }

    /// The bulk lane when transforms run: the row is taken (true) when
    /// its values are plain numbers; else untouched, for the full path.
    pub(super) fn push_plain_collected(&mut self, row: &dyn Cells) -> bool {
        let Some(c) = &self.collect else {
            return false;
        };
        if self.plan.series.is_some() || c.failed.is_some() {
            return false;
        }
        let mut values = [0.0; super::super::rows::MAX_VALUES];
        let n = self.plan.values.len();
        if !self.plain_values(row, &mut values) {
            return false;
        }
        let Some(label) = self.plain_label(row) else {
            return false;
        };
        // A scatter's x that does not read is said by the full path.
        let x = match (&self.collect, label) {
            (
                Some(Collect {
                    what: What::Scatter(_),
                    ..
                }),
                Some(l),
            ) => {
                let (dates, dec) = (self.plan.dates.order, self.label_decimal());
                let Some(x) = x_of(l, self.plan.x_type, dates, dec) else {
                    return false;
                };
                Some(x)
            }
            _ => None,
        };
        let Some(c) = &mut self.collect else {
            return false;
        };
        if !c.passes(row) {
            c.filtered += 1;
            return true;
        }
        if let Some(s) = &mut c.source {
            s.push(|i| cell(row, i));
        }
        if matches!(c.what, What::Rows) {
            self.push_kept_values(&values[..n], label);
            return true;
        }
        self.collect_values(&values[..n], label, x);
        true
    }

    /// A record the fast lane read ahead, when transforms run (no filter,
    /// no series: see `plain_shape`).
    pub(super) fn push_values_collected(&mut self, values: &[f64], label: Option<&str>) {
        if let Some(Some(s)) = self.collect.as_mut().map(|c| c.source.as_mut()) {
            let (label_col, value_cols) = (self.plan.label, &self.plan.values);
            let value = |i: usize| Some(values[value_cols.iter().position(|&v| v == i)?]);
            s.push_read(value, |i| {
                if Some(i) == label_col {
                    label.map(Cow::Borrowed)
                } else {
                    Some(Cow::Owned(value(i)?.to_string()))
                }
            });
        }
        if matches!(self.collect.as_ref().map(|c| &c.what), Some(What::Rows)) {
            self.push_kept_values(values, label);
        } else if self.x_ahead
            && let Some((&x, values)) = values.split_last()
        {
            self.collect_values(values, label, Some(x));
        } else {
            self.collect_values(values, label, None);
        }
    }

    /// The label a row is grouped or placed by.
    fn row_label_of<'r>(&self, row: &'r dyn Cells) -> Cow<'r, str> {
        match self.plan.label {
            Some(l) => cell(row, l).unwrap_or(Cow::Borrowed(EMPTY_LABEL)),
            None => Cow::Owned(self.rows.to_string()),
        }
    }

    /// Plain values and their label into the collection; a scatter's x
    /// read already, when it was.
    fn collect_values(&mut self, values: &[f64], label: Option<&str>, x: Option<f64>) {
        self.rows += 1;
        // A histogram counts the first value alone: no label, so no row
        // number written out for one (a third of its time, one a line,
        // on a headerless column of numbers).
        if let Some(Collect {
            what: What::Hist { hist, .. },
            ..
        }) = &mut self.collect
        {
            if let Some(&v) = values.first() {
                hist.push(v);
            }
            return;
        }
        let owned;
        let label = match label {
            Some(l) => l,
            None => {
                owned = self.rows.to_string();
                &owned
            }
        };
        let names = &self.plan.names;
        let value_cols = &self.plan.values;
        let (dates, dec) = (self.plan.dates.order, self.label_decimal());
        let x_type = self.plan.x_type;
        let Some(c) = &mut self.collect else { return };
        let result = match &mut c.what {
            What::Rows => Ok(()),
            What::Groups { groups, unit, .. } => {
                let Some((label, key)) = bucket(label, *unit, dates) else {
                    return;
                };
                let mut r = Ok(());
                for (k, &col) in value_cols.iter().enumerate() {
                    r = r.and(groups.push(&names[col], &label, key, Cell::Number(values[k])));
                }
                if value_cols.is_empty() {
                    r = groups.push("count", &label, key, Cell::Missing);
                }
                r.map_err(|o| overflow(o, Loc::Record(0), &names_of(names, self.plan.label)))
            }
            // Counted above; a heatmap has a series, so no plain rows.
            What::Hist { .. } | What::Heat(_) => Ok(()),
            What::Box(boxes) => {
                let Some((&v, &col)) = values.first().zip(value_cols.first()) else {
                    return;
                };
                let group = self.plan.label.map_or(names[col].as_str(), |_| label);
                boxes
                    .push(group, v)
                    .map_err(|o| overflow(o, Loc::Record(0), &names_of(names, self.plan.label)))
            }
            What::Scatter(sc) => {
                if let Some(x) = x.or_else(|| x_of(label, x_type, dates, dec)) {
                    for (k, &col) in value_cols.iter().enumerate() {
                        if let Some(s) = sc.series(&names[col]) {
                            sc.push(s, x, values[k], || label.to_string());
                        }
                    }
                }
                Ok(())
            }
        };
        if let Err(e) = result {
            c.failed.get_or_insert(e);
        }
    }

    fn label_decimal(&self) -> super::super::number::Decimal {
        label_decimal(&self.plan)
    }

    /// A whole row into the collection: its values read (what is no
    /// number said and skipped, as charts skip it), grouped by its label
    /// and series.
    fn collect_row(
        &mut self,
        row: &dyn Cells,
        label: &str,
        loc: Loc,
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        let series = self.plan.series.map(|s| {
            cell(row, s)
                .map(|c| c.into_owned())
                .unwrap_or_else(|| EMPTY_LABEL.to_string())
        });
        let dates = self.plan.dates.order;
        let label_col = self.plan.label;
        let value_cols = self.plan.values.clone();
        let many = value_cols.len() > 1;
        let Some(c) = &mut self.collect else {
            return Ok(());
        };
        let names = &self.plan.names;
        if let What::Groups { unit, .. } = &c.what
            && bucket(label, *unit, dates).is_none()
        {
            let col = label_col.map_or("label".into(), |l| names[l].clone());
            return warn.skip(format!(
                "{loc}, column {col:?}: {:?} is not a date; row skipped",
                super::super::rows::short(label)
            ));
        }
        let read = |col: usize| read_value(row, &self.plan, col);
        match &mut c.what {
            What::Rows => Ok(()),
            What::Groups { groups, unit, op } => {
                let key = bucket(label, *unit, dates);
                let Some((label, key)) = key else {
                    return Ok(());
                };
                if value_cols.is_empty() {
                    let s = series.as_deref().unwrap_or("count");
                    return groups
                        .push(s, &label, key, Cell::Missing)
                        .map_err(|o| overflow(o, loc, &names_of(names, label_col)));
                }
                for &col in &value_cols {
                    let (text, v) = read(col);
                    let cell = match (*op, &text, v) {
                        (AggregateOp::Count, ..) => Cell::Missing,
                        (AggregateOp::Distinct, Some(t), _) => Cell::Text(t),
                        (AggregateOp::Distinct, None, _) => Cell::Missing,
                        (_, _, Some(v)) => Cell::Number(v),
                        (_, t, None) if self.plan.said_once(col, t.as_deref()) => Cell::Missing,
                        (_, t, None) => {
                            let what = value_problem(t.as_deref(), self.plan.decimals[col]);
                            let unit = if many { "point" } else { "row" };
                            warn.skip(format!(
                                "{loc}, {}: {what}; {unit} skipped",
                                super::column_ref(&names[col])
                            ))?;
                            // The group is made all the same: groups come
                            // in order of their first row, as in Vega.
                            Cell::Missing
                        }
                    };
                    let s = series.as_deref().unwrap_or(&names[col]);
                    groups
                        .push(s, &label, key, cell)
                        .map_err(|o| overflow(o, loc, &names_of(names, label_col)))?;
                }
                Ok(())
            }
            What::Hist { hist, .. } => match value_cols.first() {
                Some(&col) => hist_row(hist, &self.plan, row, col, loc, warn),
                None => Ok(()),
            },
            What::Box(boxes) => match value_cols.first() {
                Some(&col) => box_row(boxes, &self.plan, row, label, col, loc, warn),
                None => Ok(()),
            },
            What::Scatter(sc) => {
                let plan = &self.plan;
                scatter_row(sc, plan, row, label, loc, series.as_deref(), warn)
            }
            What::Heat(_) => self.heat_row(row, (label, series.as_deref()), loc, warn),
        }
    }
}

/// A value's cell and its number, read with its column's decimal mark.
pub(super) fn read_value<'r>(
    row: &'r dyn Cells,
    plan: &super::Plan,
    col: usize,
) -> (Option<Cow<'r, str>>, Option<f64>) {
    let c = cell(row, col);
    let v = c
        .as_deref()
        .and_then(|t| parse_number_as(t, plan.decimals[col]))
        .map(|n| n.value);
    (c, v)
}

/// A whole row into a histogram: its value counted, or said and skipped.
fn hist_row(
    hist: &mut transform::Histogram,
    plan: &super::Plan,
    row: &dyn Cells,
    col: usize,
    loc: Loc,
    warn: &mut Warner,
) -> Result<(), ParseError> {
    match read_value(row, plan, col) {
        (_, Some(v)) => hist.push(v),
        (t, None) if plan.said_once(col, t.as_deref()) => {}
        (t, None) => {
            let what = value_problem(t.as_deref(), plan.decimals[col]);
            warn.skip(format!(
                "{loc}, {}: {what}; row skipped",
                super::column_ref(&plan.names[col])
            ))?;
        }
    }
    Ok(())
}

/// A whole row into a scatter: its x read from the label (a number or a
/// date), a point per value column, what is no number said and skipped.
fn scatter_row(
    sc: &mut transform::Scatter,
    plan: &super::Plan,
    row: &dyn Cells,
    label: &str,
    loc: Loc,
    series: Option<&str>,
    warn: &mut Warner,
) -> Result<(), ParseError> {
    let (names, label_col, dec) = (&plan.names, plan.label, label_decimal(plan));
    let read = |col: usize| read_value(row, plan, col);
    let (x_type, dates) = (plan.x_type, plan.dates.order);
    let Some(x) = x_of(label, x_type, dates, dec) else {
        let col = label_col.map_or("x".into(), |l| names[l].clone());
        let short = super::super::rows::short(label);
        let what = if super::super::number::is_missing(label) || label == EMPTY_LABEL {
            format!("no value ({short:?})")
        } else {
            format!("{short:?} is not a number or a date")
        };
        return warn.skip(format!("{loc}, column {col:?}: {what}; row skipped"));
    };
    for &col in &plan.values {
        let (t, v) = read(col);
        let Some(v) = v else {
            if plan.said_once(col, t.as_deref()) {
                continue;
            }
            let what = value_problem(t.as_deref(), plan.decimals[col]);
            warn.skip(format!(
                "{loc}, {}: {what}; point skipped",
                super::column_ref(&names[col])
            ))?;
            continue;
        };
        let name = series.unwrap_or(&names[col]);
        let full = plan.auto_series && sc.len() + 1 >= transform::SCATTER_SERIES;
        let found = if full {
            if sc.known(name).is_none() && sc.known(super::OTHER).is_none() {
                warn.note(format!(
                    "{loc}: more than {} series: the rest are drawn as one series, \"other\"; -s \
                     chooses another column",
                    transform::SCATTER_SERIES - 1
                ));
            }
            sc.known(name).or_else(|| sc.series(super::OTHER))
        } else {
            sc.series(name)
        };
        let Some(s) = found else {
            return Err(ParseError::Data(format!(
                "{loc}: more than {} series: a scatter colours a few (a symbol, a \
                     region)",
                transform::SCATTER_SERIES
            )));
        };
        sc.push(s, x, v, || label.to_string());
    }
    Ok(())
}

/// The label column's decimal mark (a point for row numbers).
fn label_decimal(plan: &super::Plan) -> super::super::number::Decimal {
    plan.label
        .map_or(super::super::number::Decimal::Point, |l| plan.decimals[l])
}

/// The label column's name, for messages.
pub(super) fn names_of(names: &[String], label: Option<usize>) -> String {
    label.map_or("the rows".into(), |l| format!("{:?}", names[l]))
}

/// A label's group: itself, or its time unit's bucket (label and key);
/// `None` for a label that is no date when a unit asks for one.
fn bucket(
    label: &str,
    unit: Option<TimeUnit>,
    dates: Option<super::super::dates::DateOrder>,
) -> Option<(Cow<'_, str>, Option<f64>)> {
    match unit {
        None => Some((Cow::Borrowed(label), None)),
        Some(u) => {
            let (t, _) = instant(label, dates)?;
            let b = u.bucket(t)?;
            Some((Cow::Owned(b.label), Some(b.key)))
        }
    }
}

/// A label's place on a scatter's x axis.
fn x_of(
    label: &str,
    x_type: Option<XType>,
    dates: Option<super::super::dates::DateOrder>,
    dec: super::super::number::Decimal,
) -> Option<f64> {
    match x_type {
        Some(XType::Date) => instant(label, dates).map(|(t, _)| t),
        _ => parse_number_as(label, dec).map(|n| n.value),
    }
}

/// A histogram's bins as a chart's points: `10 – 20`, x..x2, the count.
pub(super) fn bin_points(bins: &[Bin]) -> Vec<Point> {
    let step = bins.first().map_or(1.0, |b| b.end - b.start);
    let d = edge_decimals(step);
    bins.iter()
        .map(|b| Point {
            label: format!("{:.d$} – {:.d$}", b.start, b.end),
            value: b.count as f64,
            x: Some(b.start),
            x2: Some(b.end),
            count: None,
        })
        .collect()
}

/// A chart of one kind from points made by the transforms.
pub(super) fn chart_of(mut chart: Chart, kind: ChartType, series: Vec<Series>) -> Chart {
    chart.chart_type = kind;
    let n = series.iter().map(|s| s.points.len()).sum();
    chart.series = series;
    chart.meta.original_point_count = n;
    chart
}

impl Builder {
    /// Ends the collection: a histogram or a scatter is its chart; groups
    /// feed the reducers, as rows would.
    pub(super) fn take_collected(
        &mut self,
        c: Collect,
        warn: &mut Warner,
    ) -> Result<Collected, ParseError> {
        if let Some(e) = c.failed {
            return Err(e);
        }
        if c.filtered > 0 {
            let kept = self.rows;
            let total = kept + c.filtered;
            let list: Vec<String> = c.filters.iter().map(RowFilter::describe).collect();
            warn.note(format!(
                "--filter {}: {} of {} rows kept",
                list.join(" --filter "),
                super::super::number::grouped(kept as u64),
                super::super::number::grouped(total as u64)
            ));
        }
        let (vega, source) = (c.vega, c.source);
        match c.what {
            What::Rows => Ok(Collected::Reduce(vega, source)),
            What::Groups { groups, .. } if self.plan.chart.chart_type == ChartType::Heatmap => {
                let chart = self.heatmap_chart(groups)?;
                Ok(Collected::Chart(Box::new(chart), vega, source))
            }
            What::Heat(grid) => {
                let chart = self.heat_chart(grid.finish())?;
                Ok(Collected::Chart(Box::new(chart), vega, source))
            }
            What::Box(boxes) => {
                let chart = self.box_chart(boxes, warn)?;
                Ok(Collected::Chart(Box::new(chart), vega, source))
            }
            What::Groups { groups, unit, .. } => {
                if let Some(u) = unit {
                    self.plan.x_type = u.calendar().then_some(XType::Date);
                }
                self.reducers = groups
                    .finish()
                    .into_iter()
                    .map(|(name, points)| {
                        let mut r = self.plan.new_reducer();
                        for (label, v) in points {
                            r.push_value(v, &label);
                        }
                        (name, r)
                    })
                    .collect();
                Ok(Collected::Reduce(vega, source))
            }
            What::Hist { hist, bins } => {
                let name = self.series_name();
                let points = bin_points(&hist.finish(bins));
                if points.is_empty() {
                    return Err(self.no_numbers());
                }
                let mut chart = chart_of(
                    self.plan.chart.clone(),
                    ChartType::Hist,
                    vec![Series {
                        name,
                        points,
                        facet: None,
                    }],
                );
                chart.x_type = Some(XType::Number);
                Ok(Collected::Chart(Box::new(chart), vega, source))
            }
            What::Scatter(sc) => {
                let (chart, binned) = self.scatter_chart(sc, warn)?;
                let source = source.filter(|_| !binned);
                Ok(Collected::Chart(Box::new(chart), vega, source))
            }
        }
    }

    /// A scatter's chart, a series per `-s` value, and whether its points
    /// were binned onto a grid (said; its rows are then not kept).
    fn scatter_chart(
        &self,
        sc: transform::Scatter,
        warn: &mut Warner,
    ) -> Result<(Chart, bool), ParseError> {
        let binned = sc.binned();
        let seen = sc.seen();
        let (series, cell) = sc.finish();
        let series: Vec<Series> = series
            .into_iter()
            .map(|(name, pts)| Series {
                name,
                facet: None,
                points: pts
                    .into_iter()
                    .map(|(label, x, y, count)| Point {
                        label,
                        value: y,
                        x: Some(x),
                        x2: None,
                        count,
                    })
                    .collect(),
            })
            .filter(|s| !s.points.is_empty())
            .collect();
        if series.is_empty() {
            return Err(self.no_numbers());
        }
        let mut chart = chart_of(self.plan.chart.clone(), ChartType::Point, series);
        chart.x_type = self.plan.x_type;
        chart.meta.cell = cell;
        if binned {
            let cells: usize = chart.series.iter().map(|s| s.points.len()).sum();
            warn.note(format!(
                "{} points binned onto a grid: each of the {} drawn is a cell's points, \
                 at their mean, with their count",
                super::super::number::grouped(seen),
                super::super::number::grouped(cells as u64),
            ));
        }
        Ok((chart, binned))
    }

    /// The one series' name: the value column's.
    fn series_name(&self) -> String {
        self.plan
            .values
            .first()
            .map_or("value".into(), |&v| self.plan.names[v].clone())
    }

    /// No row had a number to chart.
    pub(super) fn no_numbers(&self) -> ParseError {
        let cols: Vec<String> = self
            .plan
            .values
            .iter()
            .map(|&v| format!("{:?}", self.plan.names[v]))
            .collect();
        ParseError::Data(format!(
            "no row has a number in column {} ({} rows read)",
            cols.join(", "),
            self.rows
        ))
    }
}

/// A whole row into a box plot: its value kept in its group, or said and
/// skipped.
fn box_row(
    boxes: &mut BoxGroups,
    plan: &super::Plan,
    row: &dyn Cells,
    label: &str,
    col: usize,
    loc: Loc,
    warn: &mut Warner,
) -> Result<(), ParseError> {
    let names = &plan.names;
    match read_value(row, plan, col) {
        (_, Some(v)) => {
            let group = plan.label.map_or(names[col].as_str(), |_| label);
            boxes
                .push(group, v)
                .map_err(|o| overflow(o, loc, &names_of(names, plan.label)))
        }
        (t, None) => {
            let what = value_problem(t.as_deref(), plan.decimals[col]);
            warn.skip(format!(
                "{loc}, {}: {what}; row skipped",
                super::column_ref(&names[col])
            ))
        }
    }
}
