//! The tabular core every row-shaped format shares (CSV/TSV, JSON records,
//! JSON lines, Markdown): from a sample of the first rows it decides the
//! header, the label, value and series columns, the chart type and the
//! unit, saying so where the sample allows another reading (`doubts`);
//! then it streams every row into bounded reducers (`builder`), so memory
//! follows the point limit and not the input length. The sample and its
//! header are `sample`'s.

use std::borrow::Cow;

use crate::spec::{self, Chart, ChartType, NormalizeOptions, Normalized, XType};

use super::number::{Decimal, MarkHint, decide_decimal, doubt_note, is_missing, parse_number};
use super::rows::{Loc, Names, OwnedRow, Rows, Warner, cell};
use super::transform::AggregateOp;
use super::{ParseError, ParseOptions};

mod auto;
mod builder;
mod choose;
mod collect;
mod columns;
mod derive;
mod doubts;
mod facet;
mod feed;
mod heat;
mod heatplan;
mod matrix;
mod plain;
mod roles;
mod sample;
mod transforms;

use super::dates::instant;
use super::dates::time::{DatesChoice, decide_dates};
pub(crate) use super::dates::time::{looks_like_year, looks_ordered};
use builder::Builder;
use choose::{Columns, choose_columns};
use feed::{RowSink, feed};
pub(crate) use sample::sample_with_names;
use sample::{set_aside_ragged, some_number};

/// Rows read before the layout is decided.
pub(crate) const SAMPLE_ROWS: usize = 200;
/// Distinct values of a `--series` column before we refuse.
pub(crate) const MAX_SERIES: usize = 50;

/// The series an automatic choice's values past a series cap go to
/// (the builder's and the scatter's).
pub(crate) const OTHER: &str = "other";
/// Skipped points remembered for the caller (parse_text's `non_finite`).
const MAX_REPORTED: usize = 1000;

/// How each column looked in the sample.
#[derive(Debug, Clone, Copy, Default)]
struct Stat {
    numbers: usize,
    text: usize,
}

impl Stat {
    fn numeric(&self) -> bool {
        // A stray word among numbers is a bad row, not a text column.
        self.numbers > 0 && self.text <= self.numbers
    }
}

fn stats(rows: &[(OwnedRow, Loc)], width: usize) -> Vec<Stat> {
    let mut st = vec![Stat::default(); width];
    for (row, _) in rows {
        for (i, s) in st.iter_mut().enumerate() {
            if let Some(c) = cell(row, i) {
                if parse_number(&c).is_some() {
                    s.numbers += 1;
                } else if !is_missing(&c) {
                    s.text += 1;
                }
            }
        }
    }
    st
}

fn is_text(c: Option<Cow<'_, str>>) -> bool {
    c.is_some_and(|c| !is_missing(&c) && parse_number(&c).is_none())
}

/// The decided layout.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    names: Vec<String>,
    /// `None`: labels are row numbers (a single numeric column).
    label: Option<usize>,
    values: Vec<usize>,
    series: Option<usize>,
    /// The decimal mark of each column, decided once from the sample.
    decimals: Vec<Decimal>,
    /// How the label column's numeric dates read.
    dates: DatesChoice,
    /// The labels are values on this scale: the chart is drawn to scale.
    x_type: Option<XType>,
    /// The transforms: the flags', and an aggregate the automatic choice
    /// added.
    transform: super::transform::TransformOptions,
    /// Column names came from the input (not `column N` or made up).
    real_names: bool,
    /// The series column was the automatic choice's, chosen from the
    /// sample: values past the cap go to one series named `other`.
    auto_series: bool,
    /// Columns computed by `--calculate` or `-x @row`: a missing value
    /// there is said once, by the derivation, not row by row.
    computed: Vec<usize>,
    chart: Chart,
    opts: NormalizeOptions,
}

impl Plan {
    /// Whether a missing value in column `col` (cell `c`) is said once by
    /// the step that computed it rather than row by row.
    fn said_once(&self, col: usize, c: Option<&str>) -> bool {
        c.is_none() && self.computed.contains(&col)
    }
}

/// Resolves `-x`/`-y`/`-s`: a column name (exact, then ignoring case), else
/// a 1-based index.
pub(crate) fn resolve(names: &[String], r: &str, flag: &str) -> Result<usize, ParseError> {
    if let Some(i) = names.iter().position(|n| n == r) {
        return Ok(i);
    }
    if let Some(i) = names.iter().position(|n| n.eq_ignore_ascii_case(r.trim())) {
        return Ok(i);
    }
    if let Ok(i) = r.trim().parse::<usize>()
        && (1..=names.len()).contains(&i)
    {
        return Ok(i - 1);
    }
    Err(ParseError::Usage(format!(
        "{flag} {r:?}: no such column; the columns are {} (name or 1-based number)",
        list(names)
    )))
}

fn list(names: &[String]) -> String {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| format!("{}:{n:?}", i + 1))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A column as messages name it: `column "val"` by its header, and
/// `column 2` in a file without one (whose columns are named by place).
pub(crate) fn column_ref(name: &str) -> String {
    let placed = name
        .strip_prefix("column ")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if placed {
        name.to_string()
    } else {
        format!("column {name:?}")
    }
}

/// A unit written in a header: `time (s)`, `price [$]`.
pub(crate) fn header_unit(name: &str) -> Option<String> {
    let t = name.trim();
    for (open, close) in [('(', ')'), ('[', ']')] {
        if let Some(body) = t.strip_suffix(close)
            && let Some(at) = body.rfind(open)
        {
            let u = body[at + open.len_utf8()..].trim();
            if !u.is_empty() && u.chars().count() <= 8 && !u.contains(' ') {
                return Some(u.to_string());
            }
        }
    }
    None
}

/// The one unit all numbers of a column are written with, if any; more
/// than one is reported so the reader knows the values mix scales.
pub(crate) fn common_unit<'a>(
    cells: impl Iterator<Item = &'a str>,
) -> Result<Option<String>, Vec<String>> {
    let mut units: Vec<String> = Vec::new();
    for c in cells {
        if let Some(n) = parse_number(c)
            && !n.unit.is_empty()
            && !units.iter().any(|u| u == n.unit)
        {
            units.push(n.unit.to_string());
        }
    }
    match units.len() {
        0 => Ok(None),
        1 => Ok(units.pop()),
        _ => Err(units),
    }
}

/// Bars over days or months, unsorted by the flags, read in calendar
/// order (by label), whatever order their rows came in.
fn calendar_bars(kind: ChartType, label: Option<usize>, sample: &[(OwnedRow, Loc)]) -> spec::Sort {
    match label {
        Some(l) if kind == ChartType::Bar && roles::calendar(sample, l) => spec::Sort::Label,
        _ => spec::Sort::None,
    }
}

/// Chooses the layout from a sample; see the module doc for the rules.
fn plan(
    names: Names,
    sample: &[(OwnedRow, Loc)],
    what: &str,
    hint: MarkHint,
    opts: &ParseOptions,
    warn: &mut Warner,
) -> Result<Plan, ParseError> {
    let Columns {
        list,
        width,
        label,
        values,
        series,
        aggregate,
        chart,
        time_unit,
        sort,
    } = choose_columns(&names, sample, what, opts, warn)?;
    // What the automatic choice adds to the flags.
    let mut effective = opts.clone();
    effective.transform.aggregate = effective.transform.aggregate.or(aggregate);
    effective.transform.time_unit = effective.transform.time_unit.or(time_unit);
    effective.chart = effective.chart.or(chart);
    // `--keep first|last` asks for rows by their place: kept in it.
    if effective.keep.is_none() {
        effective.sort = effective.sort.or(sort);
    }
    let auto_series = opts.series.is_none() && series.is_some();
    let auto_point = opts.chart.is_none() && chart == Some(ChartType::Point);
    let opts = &effective;
    let mut chart_type = choose_chart_type(sample, &list, label, &values, series, opts)?;
    let unit = match &opts.unit {
        Some(u) => Some(u.clone()),
        None => values_unit(sample, &list, &values, names.real, warn),
    };
    let decimals = column_decimals(sample, &list, &values, width, hint, opts.decimal, warn);
    let dates = match label {
        Some(l) => decide_dates(column_cells(sample, l), opts.dates),
        None => DatesChoice::default(),
    };
    let x_type = label.and_then(|l| {
        let numbers = match chart_type {
            ChartType::Line | ChartType::Point | ChartType::Hist | ChartType::Spark => true,
            ChartType::Bar => false,
            ChartType::Table | ChartType::Heatmap | ChartType::Box => return None,
        };
        instant::x_type_of(column_cells(sample, l), dates.order, numbers)
    });
    // The automatic choice's scatter over an x that turns out no numbers
    // is drawn as the value's histogram rather than refused.
    if auto_point && x_type.is_none() {
        if let Some(l) = label {
            warn.note(format!(
                "{} does not hold numbers throughout, so no scatter: a histogram of {} instead; \
                 -x COLUMN names an x",
                column_ref(&list[l]),
                values
                    .first()
                    .map_or("the value".into(), |&v| column_ref(&list[v]))
            ));
        }
        chart_type = ChartType::Hist;
    }
    let max_points = default_max_points(chart_type, opts);
    let chart = Chart {
        chart_type,
        title: opts.title.clone(),
        subtitle: opts.subtitle.clone(),
        x_label: opts
            .x_label
            .clone()
            .or_else(|| label.filter(|_| names.real).map(|l| list[l].clone())),
        y_label: opts
            .y_label
            .clone()
            .or_else(|| (names.real && values.len() == 1).then(|| list[values[0]].clone())),
        unit,
        spark: chart_type == ChartType::Table && opts.drawing.spark.is_some(),
        // A long table's rows with --spark are its series: their column
        // names the label column.
        series_label: series
            .filter(|_| opts.drawing.spark.is_some())
            .map(|s| list[s].clone()),
        ..Chart::default()
    };
    let chart = transform_titles(chart, &list, label, &values, opts);
    let nopts = NormalizeOptions {
        max_points,
        sort: opts
            .sort
            .unwrap_or_else(|| calendar_bars(chart_type, label, sample)),
        reduction: opts.reduction_for(chart_type),
    };
    Ok(Plan {
        names: list,
        label,
        values,
        series,
        decimals,
        dates,
        x_type,
        transform: opts.transform.clone(),
        real_names: names.real,
        auto_series,
        computed: Vec::new(),
        chart,
        opts: nopts,
    })
}

/// Points a series keeps: `--max-points` (at most the hard cap), else what
/// the chart can show. A line from a file keeps the hard cap (a terminal
/// of 100 columns draws 200 braille dots across; each reduced bucket keeps
/// its first, last, min and max), an aggregated or `--time-unit` line
/// every point the reducer holds exactly (the groups are bounded by
/// `--max-groups`, and thinning a computed series would hide what was
/// asked for); bars and tables the largest 30, which fit a screen.
fn default_max_points(chart: ChartType, opts: &ParseOptions) -> usize {
    if let Some(n) = opts.max_points {
        return n.min(spec::HARD_MAX_POINTS);
    }
    let computed = opts.transform.aggregate.is_some() || opts.transform.time_unit.is_some();
    match chart {
        ChartType::Line | ChartType::Spark if computed => spec::reduce::EXACT_WINDOW,
        ChartType::Line | ChartType::Spark => spec::HARD_MAX_POINTS,
        _ => spec::DEFAULT_MAX_POINTS,
    }
}

/// Each column's decimal mark: `--decimal`'s, else decided from the
/// sample, with a note where a value column allows another reading.
fn column_decimals(
    sample: &[(OwnedRow, Loc)],
    list: &[String],
    values: &[usize],
    width: usize,
    hint: MarkHint,
    forced: Option<Decimal>,
    warn: &mut Warner,
) -> Vec<Decimal> {
    (0..width)
        .map(|i| match forced {
            Some(d) => d,
            None => {
                let choice = decide_decimal(column_cells(sample, i), hint);
                if values.contains(&i)
                    && let Some(note) = doubt_note(&list[i], &choice)
                {
                    warn.note(note);
                }
                choice.mark
            }
        })
        .collect()
}

/// A transformed chart's titles: the aggregate named on the value axis
/// (`mean(delay)`), the time unit on the label axis (`yearmonth(date)`),
/// a histogram's value column along it; flags given win.
fn transform_titles(
    mut chart: Chart,
    list: &[String],
    label: Option<usize>,
    values: &[usize],
    opts: &ParseOptions,
) -> Chart {
    let t = &opts.transform;
    let value = values.first().map(|&v| list[v].as_str());
    if chart.chart_type == ChartType::Hist {
        chart.x_label = opts.x_label.clone().or(value.map(str::to_string));
        chart.y_label = opts.y_label.clone().or(Some("count".into()));
        chart.unit = opts.unit.clone();
    } else if t.groups() {
        let op = t.aggregate.unwrap_or(AggregateOp::Mean);
        chart.y_label = opts.y_label.clone().or(Some(op.title(value)));
        if !op.keeps_unit() {
            chart.unit = opts.unit.clone();
        }
        if let (Some(u), Some(l), None) = (t.time_unit, label, &opts.x_label) {
            chart.x_label = Some(format!("{}({})", u.name(), list[l]));
        }
    }
    chart
}

/// The cells of column `i` in the sample.
fn column_cells(sample: &[(OwnedRow, Loc)], i: usize) -> impl Iterator<Item = &str> {
    sample
        .iter()
        .filter_map(move |(r, _)| r.get(i).and_then(|c| c.as_deref()))
}

/// `--chart`, else a line for several series, row numbers or ordered
/// labels, else a bar; a bar or table of several series is refused.
fn choose_chart_type(
    sample: &[(OwnedRow, Loc)],
    list: &[String],
    label: Option<usize>,
    values: &[usize],
    series: Option<usize>,
    opts: &ParseOptions,
) -> Result<ChartType, ParseError> {
    let chart_type = match opts.chart {
        Some(c) => c,
        None if values.len() > 1 || series.is_some() || label.is_none() => ChartType::Line,
        None if looks_ordered(column_cells(sample, label.unwrap_or(0))) => ChartType::Line,
        None => ChartType::Bar,
    };
    if !matches!(
        chart_type,
        ChartType::Line | ChartType::Bar | ChartType::Spark
    ) && values.len() > 1
        && !(chart_type == ChartType::Table && opts.drawing.spark.is_some())
    {
        return Err(ParseError::Data(format!(
            "a {} chart takes one series, got {} ({}): use --chart line or bar for several series, or give one -y/--value",
            chart_type.as_str(),
            values.len(),
            values
                .iter()
                .map(|&i| list[i].as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(chart_type)
}

/// The unit of the value columns when no `--unit` is given: the one their
/// headers name, else the one their numbers are written with, if they
/// agree; a column that mixes units is said and gives none.
fn values_unit(
    sample: &[(OwnedRow, Loc)],
    list: &[String],
    values: &[usize],
    real_names: bool,
    warn: &mut Warner,
) -> Option<String> {
    let from_header = real_names.then(|| {
        values
            .iter()
            .map(|&v| header_unit(&list[v]))
            .collect::<Vec<_>>()
    });
    match from_header {
        Some(us) if !us.is_empty() && us.iter().all(|u| u.is_some() && *u == us[0]) => {
            us[0].clone()
        }
        _ => {
            let mut found: Option<String> = None;
            let mut agree = true;
            for &v in values {
                match common_unit(column_cells(sample, v)) {
                    Ok(u) => {
                        if found.is_some() && u.is_some() && found != u {
                            agree = false;
                        }
                        found = found.or(u);
                    }
                    Err(units) => {
                        warn.note(format!(
                            "{} mixes units ({}); values are charted as written, without a unit",
                            column_ref(&list[v]),
                            units.join(", ")
                        ));
                        agree = false;
                    }
                }
            }
            if agree { found } else { None }
        }
    }
}

/// Samples, decides, then streams: the whole tabular pipeline.
pub(crate) fn chart_from_rows(
    rows: &mut dyn Rows,
    opts: &ParseOptions,
    warn: &mut Warner,
) -> Result<Normalized, ParseError> {
    let (sample, names) = sample_with_names(rows, opts, warn)?;
    if !derive::asked(opts) {
        return chart_from_sample(rows, sample, names, opts, None, warn);
    }
    let d = derive::derive(names, sample, rows, opts, warn)?;
    let mut derived = derive::DerivedRows::new(rows, d.derivation);
    let mut n = chart_from_sample(
        &mut derived,
        d.sample,
        d.names,
        &d.opts,
        Some(&d.kept),
        warn,
    )?;
    let mut kept = d.kept.borrow_mut();
    let source = kept.finish();
    n.chart.source = n.chart.source.and(source);
    let mut steps = std::mem::take(&mut kept.vega);
    steps.extend(n.chart.transform.take().unwrap_or_default());
    n.chart.transform = Some(steps);
    Ok(n)
}

/// [`chart_from_rows`] once the sample is read (and derived).
fn chart_from_sample(
    rows: &mut dyn Rows,
    mut sample: Vec<(OwnedRow, Loc)>,
    names: Names,
    opts: &ParseOptions,
    kept: Option<&std::cell::RefCell<derive::Kept>>,
    warn: &mut Warner,
) -> Result<Normalized, ParseError> {
    // The automatic choice says itself what it can and cannot chart.
    let automatic = auto::applies(opts, names.real);
    let head = if automatic {
        sample::look_past_constant(rows, &mut sample, warn)?
    } else {
        sample.len()
    };
    let what = rows.what();
    // Rows of delimited text wider than its header: a delimiter inside an
    // unquoted value, so the cells are shifted; named and skipped.
    let header_width = (rows.delimiter().is_some() && names.real).then_some(names.list.len());
    let delimiter = rows.delimiter().unwrap_or(b',');
    // Kept aside, not dropped, so the warnings still come in line order.
    let mut wide: Vec<(OwnedRow, Loc)> = Vec::new();
    if let Some(w) = header_width {
        (sample, wide) = set_aside_ragged(sample, w, &names, delimiter, warn)?;
    }
    let counted;
    let opts = match sample::count_by_repeating(&sample, &names, opts) {
        Some((o, note)) => {
            warn.note(note);
            counted = o;
            &counted
        }
        None => opts,
    };
    if opts.values.is_empty() && opts.transform.aggregate != Some(AggregateOp::Count) && !automatic
    {
        some_number(&sample, &names)?;
    }
    // Rows read past the sample (a file sorted by a column) are charted,
    // and the layout is chosen from both of its stretches.
    let decide = (sample.len() > head).then(|| sample::decision_rows(&sample, head));
    let plan = plan(
        names,
        decide.as_deref().unwrap_or(&sample),
        &what,
        rows.mark_hint(),
        opts,
        warn,
    )?;
    drop(decide);
    let mut plan = plan;
    if let Some(k) = kept {
        let k = k.borrow();
        for &i in &k.computed {
            plan.decimals[i] = Decimal::Point;
        }
        plan.computed = k.computed.clone();
    }
    let ends = (header_width, delimiter);
    let mut n = if let Some(f) = &opts.facet {
        // Small multiples carry no input rows.
        if let Some(k) = kept {
            k.borrow_mut().close();
        }
        let b = facet::Faceted::new(plan, f, opts, &sample)?;
        feed(b, rows, sample, wide, ends, warn)?
    } else {
        let collect = transforms::collect_for(&plan, opts, &sample)?;
        if let (Some(k), Some(c)) = (kept, &collect) {
            k.borrow_mut().open(&c.wanted);
        }
        feed(Builder::new(plan, collect), rows, sample, wide, ends, warn)?
    };
    opts.drawing
        .apply(&mut n.chart)
        .map_err(|e| ParseError::Data(e.to_string()))?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_in_headers() {
        assert_eq!(header_unit("time (s)").as_deref(), Some("s"));
        assert_eq!(header_unit("price [$]").as_deref(), Some("$"));
        assert_eq!(header_unit("price"), None);
    }
}
