//! The tabular core every row-shaped format shares (CSV/TSV, JSON records,
//! JSON lines, Markdown): from a sample of the first rows it decides the
//! header, the label, value and series columns, the chart type and the
//! unit; then it streams every row into bounded [`Reducer`]s, so memory
//! follows the point limit and not the input length.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use crate::spec::reduce::Reducer;
use crate::spec::{self, Chart, ChartType, NormalizeOptions, Normalized, SpecError};

use super::number::{Decimal, column_decimal, is_missing, parse_number, parse_number_as};
use super::{ParseError, ParseOptions, examples_error};

mod plain;

/// Rows read before the layout is decided.
pub(crate) const SAMPLE_ROWS: usize = 200;
/// Distinct values of a `--series` column before we refuse.
pub(crate) const MAX_SERIES: usize = 50;
/// Skipped points remembered for the caller (parse_text's `non_finite`).
const MAX_REPORTED: usize = 1000;
/// Per-row warnings shown before they are only counted.
pub(crate) const SHOWN_WARNINGS: usize = 5;

/// Where a row came from, for warnings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Loc {
    Line(u64),
    Record(usize),
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loc::Line(n) => write!(f, "line {n}"),
            Loc::Record(n) => write!(f, "record {n}"),
        }
    }
}

/// One row's cells, borrowed from the reader where the format allows.
pub(crate) trait Cells {
    fn raw(&self, i: usize) -> Option<Cow<'_, str>>;
    fn width(&self) -> usize;
    /// The cell's number when it is plain (see `parse::fast`): exactly what
    /// the full parser gives; `None` means "ask the full parser".
    fn number(&self, i: usize, dec: Decimal) -> Option<f64> {
        super::fast::plain_number(&self.raw(i)?, dec)
    }
}

pub(crate) type OwnedRow = Vec<Option<String>>;

impl Cells for OwnedRow {
    fn raw(&self, i: usize) -> Option<Cow<'_, str>> {
        self.get(i)?.as_deref().map(Cow::Borrowed)
    }
    fn width(&self) -> usize {
        self.len()
    }
}

impl Cells for csv::ByteRecord {
    fn raw(&self, i: usize) -> Option<Cow<'_, str>> {
        // The strict check is the fast one; lossy only for the rare bad cell.
        self.get(i).map(|b| match std::str::from_utf8(b) {
            Ok(s) => Cow::Borrowed(s),
            Err(_) => String::from_utf8_lossy(b),
        })
    }
    fn width(&self) -> usize {
        self.len()
    }
}

/// A cell, trimmed; `None` when absent or blank.
pub(crate) fn cell(row: &dyn Cells, i: usize) -> Option<Cow<'_, str>> {
    match row.raw(i)? {
        Cow::Borrowed(s) => {
            let t = s.trim();
            (!t.is_empty()).then_some(Cow::Borrowed(t))
        }
        Cow::Owned(s) => {
            let t = s.trim();
            (!t.is_empty()).then(|| Cow::Owned(t.to_string()))
        }
    }
}

pub(crate) fn owned(row: &dyn Cells) -> OwnedRow {
    (0..row.width())
        .map(|i| row.raw(i).map(|c| c.into_owned()))
        .collect()
}

/// Column names a format carries itself. `real` is false for names we made
/// up (`label`/`value` of a JSON object map), which must not become axis
/// titles.
#[derive(Debug, Clone)]
pub(crate) struct Names {
    pub list: Vec<String>,
    pub real: bool,
}

/// A pull reader of rows: `next_row` advances, `current` borrows the row.
pub(crate) trait Rows {
    fn next_row(&mut self, warn: &mut Warner) -> Result<Option<Loc>, ParseError>;
    fn current(&self) -> &dyn Cells;
    /// [`Rows::next_row`] past every row `take` accepts (consumed there):
    /// the next row it refused, or the end. A reader may do this in bulk.
    fn next_row_after(
        &mut self,
        take: &mut dyn FnMut(&dyn Cells) -> bool,
        warn: &mut Warner,
    ) -> Result<Option<Loc>, ParseError> {
        next_untaken(self, take, warn)
    }
    /// Names known without looking at the first row (Markdown, JSON keys).
    fn names(&self) -> Option<Names> {
        None
    }
    /// What the input looked like, for errors: "comma-separated text".
    fn what(&self) -> String;
    /// The field delimiter of delimited text (it hints at the decimal mark).
    fn delimiter(&self) -> Option<u8> {
        None
    }
}

/// [`Rows::next_row_after`] row by row: what a reader without a bulk path
/// does, and one with it once its input stops being plain.
pub(crate) fn next_untaken<R: Rows + ?Sized>(
    rows: &mut R,
    take: &mut dyn FnMut(&dyn Cells) -> bool,
    warn: &mut Warner,
) -> Result<Option<Loc>, ParseError> {
    loop {
        match rows.next_row(warn)? {
            Some(_) if take(rows.current()) => {}
            other => return Ok(other),
        }
    }
}

/// Warnings about skipped rows and lines: the first few in full, then only
/// counted, with one summary at the end. `--strict` turns them into errors.
pub(crate) struct Warner<'w> {
    sink: &'w mut dyn FnMut(String),
    strict: bool,
    shown: usize,
    hidden: usize,
}

impl<'w> Warner<'w> {
    pub(crate) fn new(sink: &'w mut dyn FnMut(String), strict: bool) -> Self {
        Warner {
            sink,
            strict,
            shown: 0,
            hidden: 0,
        }
    }

    /// A skipped row or line.
    pub(crate) fn skip(&mut self, msg: String) -> Result<(), ParseError> {
        if self.strict {
            return Err(ParseError::Data(format!("{msg} (--strict)")));
        }
        if self.shown < SHOWN_WARNINGS {
            self.shown += 1;
            (self.sink)(msg);
        } else {
            self.hidden += 1;
        }
        Ok(())
    }

    /// A one-off remark, never capped.
    pub(crate) fn note(&mut self, msg: String) {
        (self.sink)(msg);
    }

    /// The summary line for what was only counted.
    pub(crate) fn finish(&mut self, what: &str) {
        if self.hidden > 0 {
            let n = std::mem::take(&mut self.hidden);
            (self.sink)(format!("{n} more {what} skipped"));
        }
        self.shown = 0;
    }
}

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
#[derive(Debug)]
pub(crate) struct Plan {
    names: Vec<String>,
    /// `None`: labels are row numbers (a single numeric column).
    label: Option<usize>,
    values: Vec<usize>,
    series: Option<usize>,
    /// The decimal mark of each column, decided once from the sample.
    decimals: Vec<Decimal>,
    /// Column names came from the input (not `column N` or made up).
    real_names: bool,
    chart: Chart,
    opts: NormalizeOptions,
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

fn looks_like_year(s: &str) -> bool {
    let t = s.trim();
    let t = t.strip_prefix("FY").unwrap_or(t).trim();
    t.len() == 4
        && t.bytes().all(|b| b.is_ascii_digit())
        && (b'1'..=b'2').contains(&t.as_bytes()[0])
}

fn looks_like_date(s: &str) -> bool {
    let t = s.trim();
    let b = t.as_bytes();
    if b.is_empty() || !b[0].is_ascii_digit() {
        return false;
    }
    if !t
        .bytes()
        .all(|c| c.is_ascii_digit() || b"-/.:TZ +".contains(&c))
    {
        return false;
    }
    let dots = t.matches('.').count();
    t.contains(['-', '/', ':']) || dots >= 2
}

const MONTHS: &[&str] = &[
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
const DAYS: &[&str] = &["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

/// `Q1 2024`, `2024-Q3`, `H2 2023`, `Jan 2024`, `March`, `Mon`, `W07`.
fn looks_like_period(s: &str) -> bool {
    let lower = s.trim().to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split([' ', '-', '/', '\'', '_', ','])
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() || words.len() > 3 {
        return false;
    }
    let mut named = false;
    for w in &words {
        let b = w.as_bytes();
        let period = matches!(b[0], b'q' | b'h' | b'w')
            && b.len() >= 2
            && b[1..].iter().all(u8::is_ascii_digit);
        let name = w.len() >= 3
            && w.bytes().all(|c| c.is_ascii_alphabetic())
            && (MONTHS.iter().any(|m| w.starts_with(m)) || DAYS.iter().any(|d| w.starts_with(d)));
        let number = w.bytes().all(|c| c.is_ascii_digit());
        if !(period || name || number) {
            return false;
        }
        named |= period || name;
    }
    named
}

/// A sortable key for a label that is a year (`2024`, `FY2024`), an
/// ISO-ordered date or month (`2024-01-05`, `2024/01`, `2024-01-05T10:00`)
/// or a quarter (`Q1 2024`, `2024-Q1`); `None` for anything else (day-first
/// dates such as `05/01/2024` are ambiguous and left alone).
pub(crate) fn time_key(s: &str) -> Option<(u32, u32, u32, String)> {
    let t = s.trim();
    if looks_like_year(t) {
        let y = t.strip_prefix("FY").unwrap_or(t).trim().parse().ok()?;
        return Some((y, 0, 0, String::new()));
    }
    let upper = t.to_ascii_uppercase();
    let quarter = |q: &str, y: &str| -> Option<(u32, u32, u32, String)> {
        let q: u32 = q.strip_prefix('Q')?.parse().ok()?;
        (looks_like_year(y) && (1..=4).contains(&q))
            .then(|| (y.parse().ok().unwrap_or(0), q, 0, String::new()))
    };
    let words: Vec<&str> = upper
        .split([' ', '-', '/'])
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() == 2
        && let Some(k) = quarter(words[0], words[1]).or_else(|| quarter(words[1], words[0]))
    {
        return Some(k);
    }
    let (date, rest) = match t.find(['T', ' ']) {
        Some(i) => (&t[..i], &t[i..]),
        None => (t, ""),
    };
    let parts: Vec<&str> = date.split(['-', '/']).collect();
    if !(2..=3).contains(&parts.len())
        || parts[0].len() != 4
        || parts[1..].iter().any(|p| p.is_empty() || p.len() > 2)
        || !parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let n = |i: usize| parts.get(i).and_then(|p| p.parse().ok()).unwrap_or(0);
    Some((n(0), n(1), n(2), rest.to_string()))
}

/// Line when labels look like dates, years, periods or ordered numbers.
pub(crate) fn looks_ordered<'a>(labels: impl Iterator<Item = &'a str>) -> bool {
    let labels: Vec<&str> = labels.filter(|l| !l.trim().is_empty()).collect();
    if labels.len() < 2 {
        return false;
    }
    if labels
        .iter()
        .all(|l| looks_like_year(l) || looks_like_date(l) || looks_like_period(l))
    {
        return true;
    }
    let nums: Option<Vec<f64>> = labels
        .iter()
        .map(|l| parse_number(l).map(|n| n.value))
        .collect();
    nums.is_some_and(|n| n.windows(2).all(|w| w[0] < w[1]) || n.windows(2).all(|w| w[0] > w[1]))
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

/// Chooses the layout from a sample; see the module doc for the rules.
fn plan(
    names: Names,
    sample: &[(OwnedRow, Loc)],
    what: &str,
    delimiter: Option<u8>,
    opts: &ParseOptions,
    warn: &mut Warner,
) -> Result<Plan, ParseError> {
    let width = sample
        .iter()
        .map(|(r, _)| r.len())
        .max()
        .unwrap_or(0)
        .max(names.list.len());
    let mut list = names.list.clone();
    for i in list.len()..width {
        list.push(format!("column {}", i + 1));
    }
    let st = stats(sample, width);

    let series = opts
        .series
        .as_deref()
        .map(|r| resolve(&list, r, "--series"))
        .transpose()?;
    let explicit_label = opts
        .label
        .as_deref()
        .map(|r| resolve(&list, r, "--label"))
        .transpose()?;
    let mut values = opts
        .values
        .iter()
        .map(|r| resolve(&list, r, "--value"))
        .collect::<Result<Vec<_>, _>>()?;
    if series.is_some() && values.len() > 1 {
        return Err(ParseError::Usage(
            "--series takes one --value column (the series come from the --series column)".into(),
        ));
    }
    let label = match explicit_label {
        Some(l) => Some(l),
        None => {
            let candidates: Vec<usize> = (0..width)
                .filter(|i| Some(*i) != series && !values.contains(i))
                .collect();
            // All numeric: the first column labels the rest, unless it is
            // the only one (then labels are row numbers).
            candidates
                .iter()
                .copied()
                .find(|&i| !st[i].numeric())
                .or_else(|| {
                    (!values.is_empty() || candidates.len() >= 2)
                        .then(|| candidates.first().copied())
                        .flatten()
                })
        }
    };
    if values.is_empty() {
        let v = (0..width)
            .filter(|i| Some(*i) != series && Some(*i) != label)
            .find(|&i| st[i].numeric())
            .ok_or_else(|| {
                let seen = if width == 0 {
                    format!("{what} with no columns")
                } else {
                    format!(
                        "{what} with {width} column{} ({}) but no column of numbers in the first {} rows",
                        if width == 1 { "" } else { "s" },
                        list.join(", "),
                        sample.len()
                    )
                };
                examples_error(seen)
            })?;
        values.push(v);
    }

    let labels_of = |i: usize| {
        sample
            .iter()
            .filter_map(move |(r, _)| r.get(i).and_then(|c| c.as_deref()))
    };
    let chart_type = match opts.chart {
        Some(c) => c,
        None if values.len() > 1 || series.is_some() || label.is_none() => ChartType::Line,
        None if looks_ordered(labels_of(label.unwrap_or(0))) => ChartType::Line,
        None => ChartType::Bar,
    };
    if chart_type != ChartType::Line && values.len() > 1 {
        return Err(ParseError::Data(format!(
            "a {} chart takes one series, got {} ({}): use --chart line for several series, or give one -y/--value",
            chart_type.as_str(),
            values.len(),
            values
                .iter()
                .map(|&i| list[i].as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }

    let unit = match &opts.unit {
        Some(u) => Some(u.clone()),
        None => {
            let from_header = names.real.then(|| {
                values
                    .iter()
                    .map(|&v| header_unit(&list[v]))
                    .collect::<Vec<_>>()
            });
            match from_header {
                Some(us) if us.iter().all(|u| u.is_some() && *u == us[0]) => us[0].clone(),
                _ => {
                    let mut found: Option<String> = None;
                    let mut agree = true;
                    for &v in &values {
                        match common_unit(labels_of(v)) {
                            Ok(u) => {
                                if found.is_some() && u.is_some() && found != u {
                                    agree = false;
                                }
                                found = found.or(u);
                            }
                            Err(units) => {
                                warn.note(format!(
                                    "column {:?} mixes units ({}); values are charted as written, without a unit",
                                    list[v],
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
    };

    let decimals = (0..width)
        .map(|i| {
            opts.decimal
                .unwrap_or_else(|| column_decimal(labels_of(i), delimiter))
        })
        .collect();
    let max_points = opts.max_points.unwrap_or(spec::DEFAULT_MAX_POINTS);
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
        ..Chart::default()
    };
    let nopts = NormalizeOptions {
        max_points,
        sort: opts.sort.unwrap_or_default(),
        reduction: opts.reduction_for(chart_type),
    };
    Ok(Plan {
        names: list,
        label,
        values,
        series,
        decimals,
        real_names: names.real,
        chart,
        opts: nopts,
    })
}

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
struct Builder {
    plan: Plan,
    reducers: Vec<(String, Reducer)>,
    by_name: HashMap<String, usize>,
    rows: usize,
    skipped: usize,
    non_finite: Vec<(String, String)>,
    /// For a line of time labels: the last row's key while every row so
    /// far came before the previous one (newest first); `None` otherwise.
    newest_first: Option<Option<(u32, u32, u32, String)>>,
    first_label: Option<String>,
    last_label: Option<String>,
}

impl Builder {
    fn new(plan: Plan) -> Builder {
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
        let track = plan.chart.chart_type == ChartType::Line
            && plan.label.is_some()
            && plan.series.is_none();
        Builder {
            plan,
            reducers,
            by_name: HashMap::new(),
            rows: 0,
            skipped: 0,
            non_finite: Vec::new(),
            newest_first: track.then_some(None),
            first_label: None,
            last_label: None,
        }
    }

    fn push(&mut self, row: &dyn Cells, loc: Loc, warn: &mut Warner) -> Result<(), ParseError> {
        if self.push_plain(row) {
            return Ok(());
        }
        self.rows += 1;
        // Borrowed from the row and made only when a value needs it: the
        // reducer copies it only for a point it keeps.
        let mut label: Option<Cow<'_, str>> = None;
        let (label_col, rows) = (self.plan.label, self.rows);
        if let Some(last) = &mut self.newest_first {
            let l = row_label(row, label_col, rows);
            match time_key(&l) {
                Some(k) if last.as_ref().is_none_or(|p| k < *p) => {
                    *last = Some(k);
                    if self.first_label.is_none() {
                        self.first_label = Some(l.into_owned());
                    } else {
                        self.last_label = Some(l.into_owned());
                    }
                }
                _ => self.newest_first = None,
            }
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
                Some(s) => {
                    let key = cell(row, s);
                    let key = key.as_deref().unwrap_or("");
                    match self.by_name.get(key) {
                        Some(&i) => i,
                        None => {
                            if self.reducers.len() >= MAX_SERIES {
                                return Err(ParseError::Data(format!(
                                    "{loc}: column {:?} has more than {MAX_SERIES} distinct values; \
                                     --series wants a column naming a few series (a symbol, a region)",
                                    self.plan.names[s]
                                )));
                            }
                            self.by_name.insert(key.to_string(), self.reducers.len());
                            self.reducers
                                .push((key.to_string(), self.plan.new_reducer()));
                            self.reducers.len() - 1
                        }
                    }
                }
            };
            match value {
                Some(v) => {
                    let l = label.get_or_insert_with(|| row_label(row, label_col, rows));
                    self.reducers[slot].1.push_value(v, l);
                }
                None => {
                    self.skipped += 1;
                    let l = label
                        .get_or_insert_with(|| row_label(row, label_col, rows))
                        .to_string();
                    if self.non_finite.len() < MAX_REPORTED {
                        self.non_finite
                            .push((self.reducers[slot].0.clone(), l.clone()));
                    }
                    let what = match &c {
                        None => "no value".to_string(),
                        Some(c) if is_missing(c) => format!("no value ({:?})", short(c)),
                        Some(c) if parse_number(c).is_some() => format!(
                            "{:?} does not fit the column's {} (see --decimal)",
                            short(c),
                            dec.describe()
                        ),
                        Some(c) => format!("{:?} is not a number", short(c)),
                    };
                    warn.skip(format!(
                        "{loc}, column {:?}: {what}; {} skipped",
                        self.plan.names[col],
                        if self.plan.values.len() > 1 {
                            "point"
                        } else {
                            "row"
                        }
                    ))?;
                }
            }
        }
        Ok(())
    }

    fn finish(self, warn: &mut Warner) -> Result<Normalized, ParseError> {
        warn.finish("rows");
        let total = self.rows;
        let skipped = self.skipped;
        let names: Vec<String> = self
            .plan
            .values
            .iter()
            .map(|&v| self.plan.names[v].clone())
            .collect();
        match spec::finish(self.plan.chart, self.reducers, &self.plan.opts) {
            Ok(mut chart) => {
                // Time written newest first would run right to left.
                if self.newest_first.is_some()
                    && let (Some(first), Some(last)) = (self.first_label, self.last_label)
                {
                    for s in &mut chart.series {
                        s.points.reverse();
                    }
                    warn.note(format!(
                        "the labels run newest first ({first} … {last}); the line is drawn oldest to newest"
                    ));
                }
                Ok(Normalized {
                    chart,
                    non_finite: self.non_finite,
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
                 use --chart line for several series, or leave out --series",
                self.plan.names[self.plan.series.unwrap_or(0)]
            ))),
            Err(e) => Err(ParseError::Data(e.to_string())),
        }
    }
}

impl Plan {
    fn new_reducer(&self) -> Reducer {
        Reducer::new(
            self.opts.limit(),
            self.opts.method_for(self.chart.chart_type),
        )
    }
}

/// At most 40 characters of a cell, for messages.
pub(crate) fn short(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

/// The first rows and the column names: the format's own, else the
/// first row when it looks like a header (or names a column a flag asks
/// for). At least one data row, else the input is not data.
pub(crate) fn sample_with_names(
    rows: &mut dyn Rows,
    opts: &ParseOptions,
    warn: &mut Warner,
) -> Result<(Vec<(OwnedRow, Loc)>, Names), ParseError> {
    let mut sample: Vec<(OwnedRow, Loc)> = Vec::new();
    while sample.len() < SAMPLE_ROWS {
        match rows.next_row(warn)? {
            Some(loc) => sample.push((owned(rows.current()), loc)),
            None => break,
        }
    }
    let what = rows.what();
    let names = match rows.names() {
        Some(n) => n,
        None => {
            if sample.is_empty() {
                return Err(examples_error(format!("{what} with no rows")));
            }
            let first = &sample[0].0;
            let header = match opts.header {
                Some(h) => h,
                None => {
                    let by_name = opts
                        .label
                        .iter()
                        .chain(&opts.values)
                        .chain(&opts.series)
                        .any(|r| {
                            r.parse::<usize>().is_err()
                                && first.iter().flatten().any(|c| c.trim() == r.trim())
                        });
                    let body = &sample[1..];
                    let st = stats(body, first.len());
                    by_name
                        || (body.is_empty()
                            && !(0..first.len()).any(|i| {
                                cell(first, i).is_some_and(|c| parse_number(&c).is_some())
                            }))
                        || (0..first.len()).any(|i| st[i].numeric() && is_text(cell(first, i)))
                }
            };
            if header {
                let (row, _) = sample.remove(0);
                Names {
                    list: row
                        .iter()
                        .enumerate()
                        .map(|(i, c)| match c.as_deref().map(str::trim) {
                            Some(c) if !c.is_empty() => c.to_string(),
                            _ => format!("column {}", i + 1),
                        })
                        .collect(),
                    real: true,
                }
            } else {
                Names {
                    list: Vec::new(),
                    real: false,
                }
            }
        }
    };
    if sample.is_empty() {
        return Err(examples_error(format!(
            "{what} with a header ({}) but no data rows",
            names.list.join(", ")
        )));
    }
    Ok((sample, names))
}

/// Samples, decides, then streams: the whole tabular pipeline.
pub(crate) fn chart_from_rows(
    rows: &mut dyn Rows,
    opts: &ParseOptions,
    warn: &mut Warner,
) -> Result<Normalized, ParseError> {
    let (mut sample, names) = sample_with_names(rows, opts, warn)?;
    let what = rows.what();
    // Rows of delimited text wider than its header: a delimiter inside an
    // unquoted value, so the cells are shifted; named and skipped.
    let header_width = (rows.delimiter().is_some() && names.real).then_some(names.list.len());
    let delimiter = rows.delimiter().unwrap_or(b',');
    // Kept aside, not dropped, so the warnings still come in line order.
    let mut wide: Vec<(OwnedRow, Loc)> = Vec::new();
    if let Some(w) = header_width {
        let (bad, good): (Vec<_>, Vec<_>) = sample
            .into_iter()
            .partition(|(row, loc)| ragged(row, w, *loc, delimiter).is_some());
        wide = bad;
        sample = good;
        if sample.is_empty() {
            for (row, loc) in &wide {
                if let Some(m) = ragged(row, w, *loc, delimiter) {
                    warn.skip(m)?;
                }
            }
            return Err(ParseError::Data(format!(
                "every row has more fields than the header ({}); quote values that contain {:?}",
                names.list.join(", "),
                delimiter as char
            )));
        }
    }
    if opts.values.is_empty()
        && !sample.iter().any(|(r, _)| {
            (0..r.width()).any(|i| cell(r, i).is_some_and(|c| parse_number(&c).is_some()))
        })
    {
        let cols: Vec<String> = if names.list.is_empty() {
            sample[0]
                .0
                .iter()
                .map(|c| c.as_deref().unwrap_or("").trim().to_string())
                .collect()
        } else {
            names.list.clone()
        };
        return Err(ParseError::Data(format!(
            "no column holds numbers (columns: {}); a chart needs a column of numbers such as 2.9, 1,234 or 12%",
            cols.join(", ")
        )));
    }
    let plan = plan(names, &sample, &what, rows.delimiter(), opts, warn)?;
    let mut b = Builder::new(plan);
    let mut wide = wide.into_iter().peekable();
    for (row, loc) in &sample {
        while let Some((r, l)) = wide.next_if(|(_, l)| line_of(*l) < line_of(*loc)) {
            if let Some(m) = ragged(&r, header_width.unwrap_or(0), l, delimiter) {
                warn.skip(m)?;
            }
        }
        b.push(row, *loc, warn)?;
    }
    for (r, l) in wide {
        if let Some(m) = ragged(&r, header_width.unwrap_or(0), l, delimiter) {
            warn.skip(m)?;
        }
    }
    drop(sample);
    loop {
        // Plain rows that fit the header go to the fast lane; the others
        // come back here for the full path.
        let mut take =
            |row: &dyn Cells| header_width.is_none_or(|w| row.width() <= w) && b.push_plain(row);
        let Some(loc) = rows.next_row_after(&mut take, warn)? else {
            break;
        };
        if let Some(w) = header_width
            && let Some(m) = ragged(rows.current(), w, loc, delimiter)
        {
            warn.skip(m)?;
            continue;
        }
        b.push(rows.current(), loc, warn)?;
    }
    b.finish(warn)
}

fn line_of(l: Loc) -> u64 {
    match l {
        Loc::Line(n) => n,
        Loc::Record(n) => n as u64,
    }
}

/// Why a row does not fit a header of `width` fields, if it does not:
/// only fields beyond it that hold something count (a trailing delimiter
/// is harmless).
fn ragged(row: &dyn Cells, width: usize, loc: Loc, delimiter: u8) -> Option<String> {
    let n = row.width();
    ((width..n).any(|i| cell(row, i).is_some())).then(|| {
        let d = delimiter as char;
        format!(
            "{loc} has {n} fields but the header has {width}; a {d:?} inside a value? \
             quote that value (\"$1{d}200\"); row skipped"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_labels() {
        assert!(looks_ordered(["2019", "2020", "2021"].into_iter()));
        assert!(looks_ordered(["2021", "2019", "2020"].into_iter()));
        assert!(looks_ordered(["2024-01-01", "2024-01-02"].into_iter()));
        assert!(looks_ordered(["Q1 2024", "Q2 2024"].into_iter()));
        assert!(looks_ordered(["Jan", "Feb", "March"].into_iter()));
        assert!(looks_ordered(["1", "2", "5"].into_iter()));
        assert!(!looks_ordered(["1", "5", "2"].into_iter()));
        assert!(!looks_ordered(["M5 CS", "M8"].into_iter()));
        assert!(!looks_ordered(["2.9", "3.1", "3.0"].into_iter()));
    }

    #[test]
    fn time_keys() {
        assert!(time_key("2024") > time_key("2023"));
        assert!(time_key("2024-02-01") > time_key("2024-01-31"));
        assert!(time_key("2024-1-5") < time_key("2024-01-10"));
        assert!(time_key("Q1 2024") > time_key("2023-Q4"));
        assert!(time_key("2024-01-05T10:00") > time_key("2024-01-05T09:00"));
        assert_eq!(time_key("05/01/2024"), None);
        assert_eq!(time_key("M5 CS"), None);
    }

    #[test]
    fn units_in_headers() {
        assert_eq!(header_unit("time (s)").as_deref(), Some("s"));
        assert_eq!(header_unit("price [$]").as_deref(), Some("$"));
        assert_eq!(header_unit("price"), None);
    }
}
