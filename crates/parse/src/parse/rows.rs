//! The row vocabulary every reader and the table core share: where a row
//! came from ([`Loc`]), its cells ([`Cells`], [`OwnedRow`], [`cell`]), the
//! column names a format carries ([`Names`]), the pull reader of rows
//! ([`Rows`]), the warnings about skipped rows ([`Warner`]), and what the
//! fast lane takes from a row read ahead ([`PlainShape`], [`Record`],
//! [`Push`]). The readers (`fast`, `sources`) and the table core (`table`)
//! all speak it; it imports none of them, only the leaves below it
//! (`number`, `plain`).

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use super::ParseError;
use super::number::{Decimal, MarkHint};
use super::plain::plain_number;

/// Per-row warnings shown before they are only counted.
pub(crate) const SHOWN_WARNINGS: usize = 5;

/// Value columns the fast lane takes at once (more: the full path).
pub(crate) const MAX_VALUES: usize = 8;

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
        plain_number(&self.raw(i)?, dec)
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
    /// Reads ahead the records the fast lane takes (`shape`) on several
    /// cores, all records into `push` in order, as far as the input stays
    /// plain; [`Rows::next_row`] reads on from there. Most readers have no
    /// such lane and read nothing here.
    fn read_plain(
        &mut self,
        _shape: &PlainShape,
        _push: &mut Push<'_>,
        _warn: &mut Warner,
    ) -> Result<(), ParseError> {
        Ok(())
    }
    /// Names known without looking at the first row (Markdown, JSON keys).
    fn names(&self) -> Option<Names> {
        None
    }
    /// What the input looked like, for errors: "comma-separated text".
    fn what(&self) -> String;
    /// The field delimiter of delimited text.
    fn delimiter(&self) -> Option<u8> {
        None
    }
    /// What the format says about the decimal mark.
    fn mark_hint(&self) -> MarkHint {
        MarkHint::of_delimiter(self.delimiter())
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

    /// A row kept though some of it is missing (a short row): said like a
    /// skipped one, and refused under `--strict`.
    pub(crate) fn short(&mut self, msg: String) -> Result<(), ParseError> {
        self.skip(msg)
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

/// At most 40 characters of a cell, for messages.
pub(crate) fn short(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

/// What the fast lane takes from a row: a plain number in each value
/// column, a label with nothing to trim, no field past the header.
#[derive(Debug, Clone)]
pub(crate) struct PlainShape {
    pub(crate) values: Vec<(usize, Decimal)>,
    /// The label column, if the chart has one (else labels are row numbers).
    pub(crate) label: Option<usize>,
    /// Rows of another width are the full path's: a wider one is ragged
    /// (named and skipped), a narrower one short (named, kept).
    pub(crate) max_width: Option<usize>,
    /// For a top-N of one value column: the bits of the magnitude at or
    /// below which a value is dropped whatever comes later
    /// ([`crate::spec::reduce::Reducer::floor`]), kept current by the
    /// reducers' side. Workers drop such rows themselves and send only
    /// their count, so the calling thread never sees most rows of a long
    /// top-N.
    pub(crate) floor: Option<Arc<AtomicU64>>,
    /// The facet column of small multiples and its values with a panel
    /// already: a row whose cell there is one of them, plain, comes as a
    /// [`Record::Keyed`]; any other takes the full path (which makes its
    /// panel, or names the row that has one too many).
    pub(crate) key: Option<(usize, Arc<[String]>)>,
    /// Columns computed from the numbers read (`--calculate`): then
    /// `values` are what a row is read for, and the record carries what
    /// this makes of them; a row where it makes nothing (a division by
    /// zero) is the full path's.
    pub(crate) derive: Option<DeriveValues>,
}

/// The numbers a record carries made from those read from its row
/// ([`PlainShape::derive`]): `width` of them, written by `compute` (false
/// when one has no value).
#[derive(Clone)]
pub(crate) struct DeriveValues {
    pub(crate) width: usize,
    pub(crate) compute: Compute,
}

/// [`DeriveValues::compute`]: the numbers read, the numbers made.
pub(crate) type Compute = Arc<dyn Fn(&[f64], &mut [f64]) -> bool + Send + Sync>;

impl fmt::Debug for DeriveValues {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DeriveValues({})", self.width)
    }
}

impl PlainShape {
    /// The numbers each plain record carries.
    pub(crate) fn width(&self) -> usize {
        self.derive.as_ref().map_or(self.values.len(), |d| d.width)
    }
}

/// A record, in input order.
pub(crate) enum Record<'a> {
    /// Its values (one per value column) and its label cell.
    Plain(&'a [f64], Option<&'a str>),
    /// Plain records in a row, read without a label (the shape has
    /// none): each one's values in turn.
    Plains(&'a [f64]),
    /// A plain record of a shape with a key ([`PlainShape::key`]): its
    /// values, its label cell and its key cell's place among the key's
    /// values.
    Keyed(&'a [f64], Option<&'a str>, usize),
    /// Any other record, for the full path.
    Other(&'a dyn Cells, Loc),
    /// This many records in a row whose value is at or below the floor.
    Dropped(usize),
}

/// Where records go: the caller's reducers.
pub(crate) type Push<'p> = dyn FnMut(Record<'_>, &mut Warner) -> Result<(), ParseError> + 'p;
