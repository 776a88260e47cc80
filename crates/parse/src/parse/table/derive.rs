//! The columns a table's rows gain or trade before the chart reads them:
//! the row number of `-x @row` (Vega-Lite's `window` `row_number`), each
//! `--calculate` (`calculate`) and `--fold` (`fold`). A [`DerivedRows`]
//! wraps the reader: every input row, as it streams, becomes the rows the
//! chart reads (one a row, or one per folded column), so memory stays
//! flat whatever the input's length and every chart, transform and output
//! format sees plain columns. A `--calculate` whose columns include the
//! fold's key or value (or a later one's) runs after the fold, the others
//! before, as the Vega-Lite steps say.
//!
//! The export keeps the input rows, not the derived ones ([`Kept`]): the
//! columns the derived ones are computed from, typed as read, so that a
//! Vega-Lite export computes the same columns itself.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use serde_json::{Value, json};

use super::super::number::{Decimal, MarkHint, decide_decimal, parse_number_as};
use super::super::rows::{
    Cells, Loc, Names, OwnedRow, PlainShape, Push, Record, Rows, Warner, cell,
};
use super::super::transform::{
    AggregateOp, Calculate, CellKind, Fold, Source, SourceColumn, glob, is_pattern,
};
use super::super::{ParseError, ParseOptions};
use super::sample::{nul_row, ragged, short_row};
use super::{column_cells, column_ref, resolve};
use crate::spec::ChartType;

mod lane;

/// What `-x` names to chart rows in their order.
pub(crate) const ROW: &str = "@row";

/// A `--calculate` resolved: where its columns are, and the rows it
/// could not compute.
struct Step {
    calc: Calculate,
    missing: usize,
    first: Option<Loc>,
}

/// The input rows the export carries, and what is needed to pick them.
pub(super) struct Kept {
    /// Each derived column: the input column it is, or the input columns
    /// it is computed from.
    from: Vec<(Option<usize>, Vec<usize>)>,
    names: Vec<String>,
    decimals: Vec<Decimal>,
    source: Option<Source>,
    /// Input rows read before the chart chose its columns.
    pending: Vec<OwnedRow>,
    /// The derived columns as Vega-Lite steps.
    pub(super) vega: Vec<Value>,
    /// The derived columns computed here (numbers written with a point).
    pub(super) computed: Vec<usize>,
    /// No input row is kept (small multiples carry none).
    closed: bool,
}

impl Kept {
    /// The chart's export columns (`wanted`, derived) as input columns.
    pub(super) fn open(&mut self, wanted: &[SourceColumn]) {
        let mut cols: Vec<SourceColumn> = Vec::new();
        let mut add = |at: usize, kind: CellKind, w: Option<&SourceColumn>| {
            if !cols.iter().any(|c| c.at == at) {
                cols.push(SourceColumn {
                    at,
                    name: self.names[at].clone(),
                    kind,
                    decimal: w.map_or(self.decimals[at], |w| w.decimal),
                    dates: w.and_then(|w| w.dates),
                });
            }
        };
        for w in wanted {
            match &self.from[w.at] {
                (Some(input), _) => add(*input, w.kind, Some(w)),
                (None, deps) => deps.iter().for_each(|&d| add(d, CellKind::Number, None)),
            }
        }
        let mut source = Source::new(cols);
        for row in self.pending.drain(..) {
            source.push(|i| cell(&row, i));
        }
        self.source = Some(source);
    }

    /// No input row is kept from here on.
    pub(super) fn close(&mut self) {
        self.closed = true;
        self.pending = Vec::new();
    }

    /// Whether no more input rows are kept (too many, or closed).
    fn done(&self) -> bool {
        self.closed || self.source.as_ref().is_some_and(Source::is_over)
    }

    fn record(&mut self, row: &OwnedRow) {
        if self.closed {
            return;
        }
        match &mut self.source {
            Some(s) if !s.is_over() => s.push(|i| cell(row, i)),
            Some(_) => {}
            None => self.pending.push(row.clone()),
        }
    }

    /// The input rows, unless there were too many (or none were asked for).
    pub(super) fn finish(&mut self) -> Option<Vec<serde_json::Map<String, Value>>> {
        self.source.take().and_then(Source::finish)
    }
}

/// A fold resolved: the base columns folded (with their names), and the
/// base columns kept beside them.
type Folding = (Vec<(usize, String)>, Vec<usize>);

/// The derivation of one table's rows.
pub(super) struct Derivation {
    width: usize,
    /// The header's width and the delimiter, for rows wider or shorter.
    check: Option<(usize, u8)>,
    decimals: Vec<Decimal>,
    row: bool,
    rows: usize,
    pre: Vec<Step>,
    fold: Option<Folding>,
    post: Vec<Step>,
    kept: Rc<RefCell<Kept>>,
}

/// A cell's number, read with the column's mark (derived ones: a point).
fn number(row: &OwnedRow, i: usize, decimals: &[Decimal]) -> Option<f64> {
    let c = cell(row, i)?;
    parse_number_as(&c, decimals.get(i).copied().unwrap_or(Decimal::Point)).map(|n| n.value)
}

fn written(v: Option<f64>) -> Option<String> {
    v.map(|v| v.to_string())
}

impl Step {
    fn run(&mut self, row: &mut OwnedRow, decimals: &[Decimal], loc: Loc) {
        let v = self.calc.expr.eval(&|i| number(row, i, decimals));
        if v.is_none() {
            self.missing += 1;
            self.first.get_or_insert(loc);
        }
        row.push(written(v));
    }
}

/// The result of [`derive`]: the rows' new names and sample, the options
/// with `-x @row` resolved, and the derivation to wrap the reader in.
pub(super) struct Derived {
    pub(super) names: Names,
    pub(super) sample: Vec<(OwnedRow, Loc)>,
    pub(super) opts: ParseOptions,
    pub(super) derivation: Derivation,
    pub(super) kept: Rc<RefCell<Kept>>,
}

/// Whether `opts` ask for derived columns.
pub(super) fn asked(opts: &ParseOptions) -> bool {
    let t = &opts.transform;
    !t.calculate.is_empty() || t.fold.is_some() || row_asked(opts)
}

fn row_asked(opts: &ParseOptions) -> bool {
    opts.label
        .as_deref()
        .is_some_and(|l| l.trim().eq_ignore_ascii_case(ROW))
}

/// The derived columns as they are added: their names, where each comes
/// from (see [`Kept::from`]) and the Vega-Lite steps that make them.
struct Layout {
    list: Vec<String>,
    from: Vec<(Option<usize>, Vec<usize>)>,
    vega: Vec<Value>,
}

impl Layout {
    fn calculate(&mut self, c: &Calculate) -> Result<Step, ParseError> {
        let s = place(c, &self.list)?;
        self.from.push((None, deps(&s.calc, &self.from)));
        self.vega
            .push(json!({"calculate": s.calc.expr.vega(), "as": s.calc.name}));
        self.list.push(s.calc.name.clone());
        Ok(s)
    }

    /// The columns folded away, the fold's two columns added.
    fn fold(&mut self, f: &Fold) -> Result<Folding, ParseError> {
        let folded = fold_columns(&f.columns, &self.list)?;
        let kept: Vec<usize> = (0..self.list.len())
            .filter(|i| !folded.contains(i))
            .collect();
        for n in [&f.key, &f.value] {
            if kept.iter().any(|&k| self.list[k] == *n) {
                return Err(ParseError::Usage(format!(
                    "--fold-as: a column not folded is named {n:?} already; --fold-as KEY,VALUE \
                     names the fold's two columns otherwise"
                )));
            }
        }
        let all: Vec<usize> = folded
            .iter()
            .flat_map(|&i| self.from[i].1.clone())
            .collect();
        let names: Vec<(usize, String)> =
            folded.iter().map(|&i| (i, self.list[i].clone())).collect();
        self.vega.push(json!({
            "fold": names.iter().map(|n| n.1.clone()).collect::<Vec<_>>(),
            "as": [f.key, f.value]
        }));
        self.from = kept.iter().map(|&i| self.from[i].clone()).collect();
        self.from.push((None, all.clone()));
        self.from.push((None, all));
        self.list = kept.iter().map(|&i| self.list[i].clone()).collect();
        self.list.push(f.key.clone());
        self.list.push(f.value.clone());
        Ok((names, kept))
    }
}

/// Resolves the derivations `opts` ask for ([`asked`]) on the table's
/// columns, and derives the sample.
pub(super) fn derive(
    names: Names,
    sample: Vec<(OwnedRow, Loc)>,
    rows: &dyn Rows,
    opts: &ParseOptions,
    warn: &mut Warner,
) -> Result<Derived, ParseError> {
    let row = row_asked(opts);
    let t = &opts.transform;
    let width = names.list.len();
    let hint = rows.mark_hint();
    let decimals: Vec<Decimal> = (0..width)
        .map(|i| {
            opts.decimal
                .unwrap_or_else(|| decide_decimal(column_cells(&sample, i), hint).mark)
        })
        .collect();
    // The base: the input's columns, the row number, the calculations
    // that read no folded column; then the fold, and the calculations
    // that read it.
    let mut l = Layout {
        list: names.list.clone(),
        from: (0..width).map(|i| (Some(i), vec![i])).collect(),
        vega: Vec::new(),
    };
    let row_name = if l.list.iter().any(|n| n.eq_ignore_ascii_case("row")) {
        ROW.to_string()
    } else {
        "row".to_string()
    };
    if row {
        l.list.push(row_name.clone());
        l.from.push((None, Vec::new()));
        l.vega
            .push(json!({"window": [{"op": "row_number", "as": row_name}]}));
    }
    let (mut pre, mut after) = (Vec::new(), Vec::new());
    for c in &t.calculate {
        // What cannot be read before the fold is read after it.
        if t.fold.is_some() && place(c, &l.list).is_err() {
            after.push(c);
        } else {
            pre.push(l.calculate(c)?);
        }
    }
    let fold = t.fold.as_ref().map(|f| l.fold(f)).transpose()?;
    let post = after
        .into_iter()
        .map(|c| l.calculate(c))
        .collect::<Result<Vec<_>, _>>()?;
    let computed = (0..l.list.len())
        .filter(|&i| {
            (row && l.list[i] == row_name) || t.calculate.iter().any(|c| c.name == l.list[i])
        })
        .collect();
    let kept = Rc::new(RefCell::new(Kept {
        from: l.from,
        names: names.list.clone(),
        decimals: decimals.clone(),
        source: None,
        pending: Vec::new(),
        vega: l.vega,
        computed,
        closed: false,
    }));
    // With an x named, the last column calculated is what is charted
    // (after a fold, the last calculated from it, else the fold's value).
    let last = post
        .last()
        .or(pre.last().filter(|_| fold.is_none()))
        .map(|s| s.calc.name.clone());
    let mut d = Derivation {
        width,
        check: rows.delimiter().filter(|_| names.real).map(|d| (width, d)),
        decimals,
        row,
        rows: 0,
        pre,
        fold,
        post,
        kept: kept.clone(),
    };
    let mut out = VecDeque::new();
    for (r, loc) in &sample {
        d.take(r, *loc, warn, &mut out, &mut Vec::new())?;
    }
    let mut opts = opts.clone();
    if row {
        opts.label = Some(row_name);
        opts.transform.row = true;
    }
    // With a fold and no -y, the last calculated from the fold's value is
    // the value charted by the fold's key (a user who computed it wants it
    // drawn).
    let folded = t.fold.is_some();
    if let Some(name) = last.filter(|_| opts.values.is_empty() && (opts.label.is_some() || folded))
    {
        opts.values = vec![name];
    }
    if let Some(f) = &t.fold {
        fold_defaults(&mut opts, f, warn);
    }
    Ok(Derived {
        names: Names {
            list: l.list,
            real: names.real,
        },
        sample: out.into(),
        opts,
        derivation: d,
        kept,
    })
}

/// A fold charts its values: by the folded column's name (their mean,
/// unless --aggregate says), or, with another x, one series per folded
/// column.
fn fold_defaults(opts: &mut ParseOptions, f: &Fold, warn: &mut Warner) {
    if opts.values.is_empty() {
        opts.values = vec![f.value.clone()];
    }
    match &opts.label {
        None => {
            opts.label = Some(f.key.clone());
            // Each folded column's name is on many rows: one value each.
            let shaped = matches!(opts.chart, Some(ChartType::Hist | ChartType::Point));
            if opts.transform.aggregate.is_none() && !shaped {
                opts.transform.aggregate = Some(AggregateOp::Mean);
                warn.note(
                    "--fold: the mean of each folded column (--aggregate names another; \
                     -x COLUMN draws each row, one series per folded column)"
                        .to_string(),
                );
            }
        }
        Some(l) if *l != f.key && opts.series.is_none() => opts.series = Some(f.key.clone()),
        Some(_) => {}
    }
}

fn step(c: &Calculate) -> Step {
    Step {
        calc: c.clone(),
        missing: 0,
        first: None,
    }
}

/// A calculation with its columns placed among `names`; its name must be
/// new.
fn place(c: &Calculate, names: &[String]) -> Result<Step, ParseError> {
    if names.contains(&c.name) {
        return Err(ParseError::Usage(format!(
            "--calculate {:?}: {} exists already; give the new column another name",
            c.text,
            column_ref(&c.name)
        )));
    }
    let mut s = step(c);
    let flag = format!("--calculate {:?}: column", c.text);
    s.calc.expr.resolve(&mut |n| resolve(names, n, &flag))?;
    Ok(s)
}

/// The input columns a calculation reads, through earlier ones.
fn deps(c: &Calculate, from: &[(Option<usize>, Vec<usize>)]) -> Vec<usize> {
    let mut out: Vec<usize> = c
        .expr
        .places()
        .iter()
        .flat_map(|&p| from[p].1.clone())
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The base columns `--fold` names: each item a column (name or 1-based
/// number) or a pattern matching at least one.
fn fold_columns(items: &[String], base: &[String]) -> Result<Vec<usize>, ParseError> {
    let mut out: Vec<usize> = Vec::new();
    for item in items {
        if is_pattern(item) {
            let found: Vec<usize> = (0..base.len()).filter(|&i| glob(item, &base[i])).collect();
            if found.is_empty() {
                return Err(ParseError::Usage(format!(
                    "--fold {item:?}: the pattern matches no column; the columns are {}",
                    super::list(base)
                )));
            }
            out.extend(found);
        } else {
            out.push(resolve(base, item, "--fold")?);
        }
    }
    let mut seen = Vec::new();
    out.retain(|i| {
        let new = !seen.contains(i);
        seen.push(*i);
        new
    });
    Ok(out)
}

/// `buf` made the first `width` cells of `row`, reusing its strings (a
/// row's allocations, not one a cell, on a long input).
fn refill(buf: &mut OwnedRow, row: &dyn Cells, width: usize) {
    buf.truncate(width);
    for i in 0..width {
        let c = row.raw(i);
        match (c, buf.get_mut(i)) {
            (Some(c), Some(Some(s))) => {
                s.clear();
                s.push_str(&c);
            }
            (c, Some(slot)) => *slot = c.map(|c| c.into_owned()),
            (c, None) => buf.push(c.map(|c| c.into_owned())),
        }
    }
}

impl Derivation {
    /// One input row: named and skipped when it cannot be read, else its
    /// derived rows into `out`.
    fn take(
        &mut self,
        row: &dyn Cells,
        loc: Loc,
        warn: &mut Warner,
        out: &mut VecDeque<(OwnedRow, Loc)>,
        spare: &mut OwnedRow,
    ) -> Result<(), ParseError> {
        if let Some(m) = nul_row(row, loc) {
            return warn.skip(m);
        }
        if let Some((w, d)) = self.check {
            if let Some(m) = ragged(row, w, loc, d) {
                return warn.skip(m);
            }
            if let Some(m) = short_row(row, w, loc) {
                warn.short(m)?;
            }
        }
        let mut base = std::mem::take(spare);
        refill(&mut base, row, self.width);
        self.kept.borrow_mut().record(&base);
        if self.row {
            self.rows += 1;
            base.push(Some(self.rows.to_string()));
        }
        for s in &mut self.pre {
            s.run(&mut base, &self.decimals, loc);
        }
        let Some((folded, kept)) = &self.fold else {
            out.push_back((base, loc));
            return Ok(());
        };
        for (f, name) in folded {
            let mut r: OwnedRow = kept.iter().map(|&k| base[k].clone()).collect();
            r.push(Some(name.clone()));
            r.push(base[*f].clone());
            for s in &mut self.post {
                s.run(&mut r, &self.decimals, loc);
            }
            out.push_back((r, loc));
        }
        *spare = base;
        Ok(())
    }

    /// Said once at the end: the rows each calculation had no value for.
    fn finish(&mut self, warn: &mut Warner) {
        for s in self.pre.iter().chain(&self.post) {
            if let (n @ 1.., Some(first)) = (s.missing, s.first) {
                warn.note(format!(
                    "--calculate {:?}: no value in {n} row{} (a division by zero, or a cell \
                     missing or not a number), the first at {first}; those points are left out",
                    s.calc.text,
                    if n == 1 { "" } else { "s" }
                ));
            }
        }
    }
}

/// A reader whose rows are derived as they stream (see the module doc).
pub(super) struct DerivedRows<'r> {
    inner: &'r mut dyn Rows,
    d: Derivation,
    queue: VecDeque<(OwnedRow, Loc)>,
    cur: OwnedRow,
    /// The row before `cur`, whose strings the next one reuses.
    spare: OwnedRow,
    ended: bool,
}

impl<'r> DerivedRows<'r> {
    pub(super) fn new(inner: &'r mut dyn Rows, d: Derivation) -> DerivedRows<'r> {
        DerivedRows {
            inner,
            d,
            queue: VecDeque::new(),
            cur: Vec::new(),
            spare: Vec::new(),
            ended: false,
        }
    }
}

impl Rows for DerivedRows<'_> {
    fn next_row(&mut self, warn: &mut Warner) -> Result<Option<Loc>, ParseError> {
        loop {
            if let Some((r, loc)) = self.queue.pop_front() {
                self.spare = std::mem::replace(&mut self.cur, r);
                return Ok(Some(loc));
            }
            if self.ended {
                return Ok(None);
            }
            match self.inner.next_row(warn)? {
                Some(loc) => {
                    let row = self.inner.current();
                    self.d
                        .take(row, loc, warn, &mut self.queue, &mut self.spare)?;
                }
                None => {
                    self.ended = true;
                    self.d.finish(warn);
                }
            }
        }
    }

    fn current(&self) -> &dyn Cells {
        &self.cur
    }

    /// The input read ahead for the input numbers the chart's columns
    /// need, the calculations computed from them on the way
    /// ([`lane::inner_shape`]), once the export keeps no more input rows
    /// (those before are derived here one by one, as are rows the fast
    /// lane leaves).
    fn read_plain(
        &mut self,
        shape: &PlainShape,
        push: &mut Push<'_>,
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        let Some(inner) = lane::inner_shape(&self.d, shape) else {
            return Ok(());
        };
        while !self.d.kept.borrow().done() {
            let Some(loc) = self.next_row(warn)? else {
                return Ok(());
            };
            push(Record::Other(&self.cur, loc), warn)?;
        }
        let (d, queue, cur, spare) = (&mut self.d, &mut self.queue, &mut self.cur, &mut self.spare);
        self.inner.read_plain(
            &inner,
            &mut |record, warn| match record {
                Record::Other(row, loc) => {
                    d.take(row, loc, warn, queue, spare)?;
                    while let Some((r, l)) = queue.pop_front() {
                        *spare = std::mem::replace(cur, r);
                        push(Record::Other(&*cur, l), warn)?;
                    }
                    Ok(())
                }
                r => push(r, warn),
            },
            warn,
        )
    }

    fn what(&self) -> String {
        self.inner.what()
    }

    fn mark_hint(&self) -> MarkHint {
        self.inner.mark_hint()
    }
}
