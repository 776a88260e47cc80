//! Streaming rows into the reducers of a decided [`Plan`]: the full path
//! for every row (the fast lane, `plain`, takes the plain ones first),
//! skipped values counted and named, series found as they come, and the
//! newest-first watch over a line of time labels, which decides at the end
//! whether the line is reversed and whether a date reading in doubt must
//! be reported.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use crate::spec::reduce::{Reducer, XNotes};
use crate::spec::{self, Chart, ChartType, Normalized, SpecError, XType};

use super::super::ParseError;
use super::super::dates::instant::instant;
use super::super::dates::time::{self, DateOrder, NewestFirst};
use super::super::number::{Decimal, is_missing, parse_number, parse_number_as};
use super::super::rows::{Cells, Loc, Warner, cell, short};
use super::transforms::{Collect, Collected, What, with_transforms};
use super::{MAX_REPORTED, MAX_SERIES, OTHER, Plan};

/// The label of a row whose label cell is blank.
pub(crate) const EMPTY_LABEL: &str = "(empty)";

/// A row's label: its label cell, or its row number when there is no
/// label column.
fn row_label(row: &dyn Cells, col: Option<usize>, rows: usize) -> Cow<'_, str> {
    match col {
        // Kept, not skipped: the value is good, and a blank bar label
        // would read as a drawing fault.
        Some(l) => cell(row, l).unwrap_or(Cow::Borrowed(EMPTY_LABEL)),
        None => Cow::Owned(rows.to_string()),
    }
}

/// Streams rows of a decided plan into reducers.
pub(super) struct Builder {
    pub(super) plan: Plan,
    pub(super) reducers: Vec<(String, Reducer)>,
    by_name: HashMap<String, usize>,
    pub(super) rows: usize,
    skipped: usize,
    non_finite: Vec<(String, String)>,
    /// For a line of time labels: watching whether they run newest first,
    /// until a row shows they do not.
    newest_first: Option<NewestFirst>,
    /// The same under the other reading of dates in doubt (`05/01/2024`),
    /// to tell whether that reading would draw another line.
    other_reading: Option<NewestFirst>,
    /// Shared with readers ahead, for a top-N of one value: see
    /// `PlainShape::floor`.
    pub(super) floor: Option<Arc<AtomicU64>>,
    /// The transforms on the rows, when the chart has any.
    pub(super) collect: Option<Collect>,
    /// Readers ahead read a scatter's x (its label cell) as a number too,
    /// after the values: see `plain_shape`.
    pub(super) x_ahead: bool,
}

impl Builder {
    pub(super) fn new(plan: Plan, collect: Option<Collect>) -> Builder {
        let reducers = if plan.series.is_some() {
            Vec::new()
        } else {
            let single = plan.values.len() == 1 && !plan.real_names;
            plan.values
                .iter()
                .map(|&v| {
                    let name = if single {
                        "value".to_string()
                    } else {
                        plan.names[v].clone()
                    };
                    (name, plan.new_reducer())
                })
                .collect()
        };
        // Groups are put in order when they are made: no watch.
        let grouped = collect
            .as_ref()
            .is_some_and(|c| !matches!(c.what, What::Rows));
        let track = plan.chart.chart_type == ChartType::Line
            && plan.label.is_some()
            && plan.series.is_none()
            && !grouped;
        let (order, doubt) = (plan.dates.order, plan.dates.doubt.is_some());
        Builder {
            reducers,
            by_name: HashMap::new(),
            rows: 0,
            skipped: 0,
            non_finite: Vec::new(),
            newest_first: track.then(|| NewestFirst::new(order)),
            other_reading: (track && doubt).then(|| NewestFirst::new(order.map(DateOrder::other))),
            floor: None,
            collect,
            x_ahead: false,
            plan,
        }
    }

    /// Rows still go through the newest-first watch.
    pub(super) fn watching(&self) -> bool {
        self.newest_first.is_some() || self.other_reading.is_some()
    }

    /// One row: its values into their reducers, and a value that is no
    /// number counted and warned of.
    pub(super) fn push(
        &mut self,
        row: &dyn Cells,
        loc: Loc,
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        if self.collect.is_some() {
            return self.push_collected(row, loc, warn);
        }
        if self.push_plain(row) {
            return Ok(());
        }
        self.push_full(row, loc, warn)
    }

    /// The full path of [`Self::push`], for a row the fast lane did not take.
    pub(super) fn push_full(
        &mut self,
        row: &dyn Cells,
        loc: Loc,
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        self.rows += 1;
        // Borrowed from the row and made only when a value needs it: the
        // reducer copies it only for a point it keeps.
        let mut label: Option<Cow<'_, str>> = None;
        let (label_col, rows) = (self.plan.label, self.rows);
        if self.watching() {
            self.watch(&row_label(row, label_col, rows));
        }
        for k in 0..self.plan.values.len() {
            let col = self.plan.values[k];
            let c = cell(row, col);
            let dec = self.plan.decimals[col];
            let value = c
                .as_deref()
                .and_then(|c| parse_number_as(c, dec))
                .map(|n| n.value);
            let slot = match self.plan.series {
                None => k,
                Some(s) => self.series_slot(row, s, loc)?,
            };
            let l = label.get_or_insert_with(|| row_label(row, label_col, rows));
            match value {
                Some(v) => self.reducers[slot].1.push_value(v, l),
                None => self.skip_value(slot, col, c.as_deref(), l, loc, warn)?,
            }
        }
        Ok(())
    }

    /// Shows a row's label to the newest-first watches; one it proves
    /// wrong ends.
    #[inline]
    fn watch(&mut self, label: &str) {
        for watch in [&mut self.newest_first, &mut self.other_reading] {
            if watch.as_mut().is_some_and(|w| !w.see(label)) {
                *watch = None;
            }
        }
    }

    /// The reducer of the row's series (named in column `s`), made at its
    /// first row; an error past [`MAX_SERIES`] of them.
    #[inline]
    fn series_slot(&mut self, row: &dyn Cells, s: usize, loc: Loc) -> Result<usize, ParseError> {
        let key = cell(row, s);
        let key = key.as_deref().unwrap_or("");
        if let Some(&i) = self.by_name.get(key) {
            return Ok(i);
        }
        if self.plan.auto_series && self.reducers.len() + 1 >= MAX_SERIES {
            return Ok(self.other_slot());
        }
        if self.reducers.len() >= MAX_SERIES {
            return Err(ParseError::Data(format!(
                "{loc}: {} has more than {MAX_SERIES} distinct values; \
                 --series wants a column naming a few series (a symbol, a region)",
                super::column_ref(&self.plan.names[s])
            )));
        }
        self.by_name.insert(key.to_string(), self.reducers.len());
        self.reducers
            .push((key.to_string(), self.plan.new_reducer()));
        Ok(self.reducers.len() - 1)
    }

    /// The series `other`, where an automatic choice's series past the cap
    /// go (made at its first row).
    fn other_slot(&mut self) -> usize {
        if let Some(&i) = self.by_name.get(OTHER) {
            return i;
        }
        self.by_name.insert(OTHER.to_string(), self.reducers.len());
        self.reducers
            .push((OTHER.to_string(), self.plan.new_reducer()));
        self.reducers.len() - 1
    }

    /// A value of column `col` that is no number (`c` its cell, if any):
    /// counted, named among the first skipped, and warned of.
    #[inline]
    fn skip_value(
        &mut self,
        slot: usize,
        col: usize,
        c: Option<&str>,
        label: &str,
        loc: Loc,
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        self.skipped += 1;
        // A computed column's missing values are said once, by its step.
        if self.plan.said_once(col, c) {
            return Ok(());
        }
        if self.non_finite.len() < MAX_REPORTED {
            self.non_finite
                .push((self.reducers[slot].0.clone(), label.to_string()));
        }
        let what = value_problem(c, self.plan.decimals[col]);
        warn.skip(format!(
            "{loc}, {}: {what}; {} skipped",
            super::column_ref(&self.plan.names[col]),
            if self.plan.values.len() > 1 {
                "point"
            } else {
                "row"
            }
        ))
    }

    pub(super) fn finish(mut self, warn: &mut Warner) -> Result<Normalized, ParseError> {
        let Some(c) = self.collect.take() else {
            return self.finish_reduced(warn);
        };
        let (vega, source) = match self.take_collected(c, warn)? {
            Collected::Chart(chart, vega, source) => {
                warn.finish("rows");
                return Ok(Normalized {
                    chart: with_transforms(*chart, vega, source, true),
                    non_finite: self.non_finite,
                    notes: Vec::new(),
                });
            }
            Collected::Reduce(vega, source) => (vega, source),
        };
        let unsorted = self.plan.opts.sort == spec::Sort::None;
        let mut n = self.finish_reduced(warn)?;
        n.chart = with_transforms(n.chart, vega, source, unsorted);
        Ok(n)
    }

    /// The chart of the reducers, as fed.
    fn finish_reduced(mut self, warn: &mut Warner) -> Result<Normalized, ParseError> {
        warn.finish("rows");
        let total = self.rows;
        let skipped = self.skipped;
        let names: Vec<String> = self
            .plan
            .values
            .iter()
            .map(|&v| self.plan.names[v].clone())
            .collect();
        let span = self.newest_first.and_then(NewestFirst::span);
        let other_span = self.other_reading.and_then(NewestFirst::span);
        let x_type = self.plan.x_type;
        let order = self.plan.dates.order;
        let dec = self
            .plan
            .label
            .map_or(Decimal::Point, |l| self.plan.decimals[l]);
        let mut seen = XNotes::default();
        for (_, r) in &mut self.reducers {
            let n = r.settle_x();
            seen.unsorted = seen.unsorted.or(n.unsorted);
            seen.repeat = seen.repeat.or(n.repeat);
            seen.no_x += n.no_x;
            seen.no_x_example = seen.no_x_example.or(n.no_x_example);
        }
        match spec::finish(self.plan.chart, self.reducers, &self.plan.opts) {
            Ok(mut chart) => {
                if let (Some(example), Some(order), Some(l)) = (
                    &self.plan.dates.doubt,
                    self.plan.dates.order,
                    self.plan.label,
                ) && span.is_some() != other_span.is_some()
                {
                    warn.note(time::date_note(
                        &self.plan.names[l],
                        example,
                        order,
                        span.is_some(),
                    ));
                }
                // Time written newest first would run right to left.
                let reversed = span.is_some();
                if let Some((first, last)) = span {
                    for s in &mut chart.series {
                        s.points.reverse();
                    }
                    warn.note(format!(
                        "the labels run newest first ({first} … {last}); the line is drawn oldest to newest"
                    ));
                }
                if let Some(x_type) = x_type {
                    place(&mut chart, (x_type, order, dec), reversed, seen, warn);
                }
                Ok(Normalized {
                    chart,
                    non_finite: self.non_finite,
                    notes: Vec::new(),
                })
            }
            Err(SpecError::NoPoints { .. }) => Err(ParseError::Data(if total == 0 {
                "no data rows".to_string()
            } else {
                format!(
                    "no row has a number in column {} ({skipped} of {total} rows skipped)",
                    names
                        .iter()
                        .map(|n| format!("{n:?}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })),
            Err(SpecError::TooManySeries {
                chart,
                count,
                names,
            }) => Err(ParseError::Data(format!(
                "a {chart} chart takes one series, but --series {:?} gives {count} ({names}): \
                 use --chart line or bar for several series, or leave out --series",
                self.plan.names[self.plan.series.unwrap_or(0)]
            ))),
            Err(e) => Err(ParseError::Data(e.to_string())),
        }
    }
}

/// Why a value cell is no number: missing, a number of the other decimal
/// mark, or no number at all.
pub(super) fn value_problem(c: Option<&str>, dec: Decimal) -> String {
    match c {
        None => "no value".to_string(),
        Some(c) if is_missing(c) => format!("no value ({:?})", short(c)),
        Some(c) if parse_number(c).is_some() => format!(
            "{:?} does not fit the column's {} (see --decimal)",
            short(c),
            dec.describe()
        ),
        Some(c) => format!("{:?} is not a number", short(c)),
    }
}

impl Plan {
    /// A reducer for one series; over an x to scale it reads the labels'
    /// x, so rows out of x order are reduced as the sorted series would be.
    pub(super) fn new_reducer(&self) -> Reducer {
        let r = Reducer::new(
            self.opts.limit(),
            self.opts.method_for(self.chart.chart_type),
        );
        let (order, dec) = (
            self.dates.order,
            self.label.map_or(Decimal::Point, |l| self.decimals[l]),
        );
        match self.x_type {
            Some(XType::Date) => r.with_x(Box::new(move |l| instant(l, order).map(|(t, _)| t))),
            Some(XType::Number) => {
                r.with_x(Box::new(move |l| parse_number_as(l, dec).map(|n| n.value)))
            }
            None => r,
        }
    }
}

/// Puts each point at its label's value on the x scale and the points
/// in x order (said when the rows were not, unless they were only
/// newest first, which is said already). A label that is no value
/// there leaves its point out, said with the first such label.
fn place(
    chart: &mut Chart,
    (x_type, order, dec): (XType, Option<DateOrder>, Decimal),
    reversed: bool,
    seen: XNotes,
    warn: &mut Warner,
) {
    // What the reducers saw of rows they did not keep.
    let (mut dropped, mut example) = (seen.no_x, seen.no_x_example);
    let mut unsorted: Option<(String, String)> = seen.unsorted;
    for s in &mut chart.series {
        s.points.retain_mut(|p| {
            p.x = match x_type {
                XType::Date => instant(&p.label, order).map(|(t, _)| t),
                XType::Number => parse_number_as(&p.label, dec).map(|n| n.value),
            };
            if p.x.is_none() {
                dropped += 1;
                example.get_or_insert_with(|| p.label.clone());
            }
            p.x.is_some()
        });
        let x = |p: &spec::Point| p.x.unwrap_or(f64::NAN);
        if let Some(w) = s.points.windows(2).find(|w| x(&w[1]) < x(&w[0])) {
            unsorted.get_or_insert_with(|| (w[0].label.clone(), w[1].label.clone()));
            s.points.sort_by(|a, b| x(a).total_cmp(&x(b)));
        }
    }
    chart.x_type = Some(x_type);
    let (order, what) = match (x_type, chart.chart_type) {
        (XType::Date, ChartType::Line) => ("date order", "the line is drawn"),
        (XType::Date, _) => ("date order", "the bars are"),
        (XType::Number, _) => ("number order", "the line is drawn"),
    };
    if let (Some((a, b)), false) = (&unsorted, reversed) {
        warn.note(format!(
            "the rows are not in {order} ({a} comes before {b}); {what} in {order}"
        ));
    }
    // Two points at one x in a line: rows of several things mixed.
    let repeated = chart
        .series
        .iter()
        .find_map(|s| s.points.windows(2).find(|w| w[0].x == w[1].x))
        .map(|w| w[0].label.clone())
        .or(seen.repeat);
    if let (Some(label), ChartType::Line) = (&repeated, chart.chart_type) {
        warn.note(format!(
            "x repeats ({label:?} holds two points or more): a line through them goes up and \
             down at that x; rows of several things mixed? -s COLUMN draws one line per value \
             of a column, --aggregate mean one point per x"
        ));
    }
    if let Some(e) = example {
        let s = if dropped == 1 { "" } else { "s" };
        let kind = match x_type {
            XType::Date => "a date",
            XType::Number => "a number",
        };
        warn.note(format!(
            "{dropped} point{s} left out: label {e:?} is not {kind} like the others"
        ));
    }
}
