//! Rows streamed into a chart: the sample first (with the rows set aside
//! from it as ragged, in line order), then the rest of the input, plain
//! rows down the fast lane and the others down the full path, into one
//! chart's [`Builder`] or a builder for each panel of small multiples.

use super::super::ParseError;
use super::super::rows::{Cells, Loc, OwnedRow, PlainShape, Record, Rows, Warner};
use super::builder::Builder;
use super::sample::{line_of, nul_row, ragged, short_row};
use crate::spec::Normalized;

/// Where the rows go: one chart's [`Builder`], or a builder for each
/// panel of small multiples ([`facet::Faceted`]).
pub(in super::super) trait RowSink {
    /// One row down the full path.
    fn push(&mut self, row: &dyn Cells, loc: Loc, warn: &mut Warner) -> Result<(), ParseError>;
    /// A plain row down the fast lane; false when it does not take it.
    fn push_plain(&mut self, row: &dyn Cells) -> bool;
    /// The rows a reader can read ahead into the fast lane, read.
    fn read_ahead(
        &mut self,
        rows: &mut dyn Rows,
        ends: (Option<usize>, u8),
        warn: &mut Warner,
    ) -> Result<(), ParseError>;
    /// The chart of every row pushed.
    fn finish(self, warn: &mut Warner) -> Result<Normalized, ParseError>;
}

impl RowSink for Builder {
    fn push(&mut self, row: &dyn Cells, loc: Loc, warn: &mut Warner) -> Result<(), ParseError> {
        Builder::push(self, row, loc, warn)
    }

    #[inline]
    fn push_plain(&mut self, row: &dyn Cells) -> bool {
        Builder::push_plain(self, row)
    }

    fn read_ahead(
        &mut self,
        rows: &mut dyn Rows,
        ends: (Option<usize>, u8),
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        let Some(shape) = self.plain_shape(ends.0) else {
            return Ok(());
        };
        // Which push takes a plain row is decided here, not for each row.
        if self.collect.is_some() {
            read_ahead(
                rows,
                &shape,
                self,
                ends,
                Builder::push_values_collected,
                warn,
            )
        } else {
            read_ahead(rows, &shape, self, ends, Builder::push_kept_values, warn)
        }
    }

    fn finish(self, warn: &mut Warner) -> Result<Normalized, ParseError> {
        Builder::finish(self, warn)
    }
}

/// Streams the sample (with the ragged rows set aside from it, in line
/// order), then the rest of the input, into `b`.
pub(super) fn feed<S: RowSink>(
    mut b: S,
    rows: &mut dyn Rows,
    sample: Vec<(OwnedRow, Loc)>,
    wide: Vec<(OwnedRow, Loc)>,
    ends: (Option<usize>, u8),
    warn: &mut Warner,
) -> Result<Normalized, ParseError> {
    let (header_width, delimiter) = ends;
    let mut wide = wide.into_iter().peekable();
    for (row, loc) in &sample {
        while let Some((r, l)) = wide.next_if(|(_, l)| line_of(*l) < line_of(*loc)) {
            if let Some(m) = ragged(&r, header_width.unwrap_or(0), l, delimiter) {
                warn.skip(m)?;
            }
        }
        if let Some(m) = nul_row(row, *loc) {
            warn.skip(m)?;
            continue;
        }
        if let Some(m) = header_width.and_then(|w| short_row(row, w, *loc)) {
            warn.short(m)?;
        }
        b.push(row, *loc, warn)?;
    }
    for (r, l) in wide {
        if let Some(m) = ragged(&r, header_width.unwrap_or(0), l, delimiter) {
            warn.skip(m)?;
        }
    }
    drop(sample);
    b.read_ahead(rows, ends, warn)?;
    loop {
        // Plain rows that fit the header go to the fast lane; the others
        // come back here for the full path.
        let mut take =
            |row: &dyn Cells| header_width.is_none_or(|w| row.width() == w) && b.push_plain(row);
        let Some(loc) = rows.next_row_after(&mut take, warn)? else {
            break;
        };
        full_row(&mut b, rows.current(), loc, header_width, delimiter, warn)?;
    }
    b.finish(warn)
}

/// The rows a reader reads ahead into `b`: plain ones by `push` (one
/// copy of this loop for each push, so that a million rows do not each
/// ask which it is), the others down the full path.
fn read_ahead(
    rows: &mut dyn Rows,
    shape: &PlainShape,
    b: &mut Builder,
    (header_width, delimiter): (Option<usize>, u8),
    push: impl Fn(&mut Builder, &[f64], Option<&str>),
    warn: &mut Warner,
) -> Result<(), ParseError> {
    rows.read_plain(
        shape,
        &mut |record, warn| match record {
            Record::Plain(values, label) => {
                push(b, values, label);
                Ok(())
            }
            // A builder's shape has a key for a heatmap's rows alone.
            // Its key comes as its place among the shape's known values.
            Record::Keyed(values, label, key) => {
                let known = shape.key.as_ref().map(|(_, known)| known);
                let name = known.and_then(|k| k.get(key)).map_or("", String::as_str);
                b.push_keyed_heat(values, label, name);
                Ok(())
            }
            Record::Plains(values) => {
                b.push_values_run(values);
                Ok(())
            }
            Record::Dropped(n) => {
                b.push_dropped(n);
                Ok(())
            }
            Record::Other(row, loc) => full_row(b, row, loc, header_width, delimiter, warn),
        },
        warn,
    )
}

/// A row the fast lane did not take: named and skipped when ragged or
/// holding a NUL, named
/// when short, and pushed down the full path.
pub(super) fn full_row(
    b: &mut impl RowSink,
    row: &dyn Cells,
    loc: Loc,
    header_width: Option<usize>,
    delimiter: u8,
    warn: &mut Warner,
) -> Result<(), ParseError> {
    if let Some(w) = header_width
        && let Some(m) = ragged(row, w, loc, delimiter)
    {
        return warn.skip(m);
    }
    if let Some(m) = nul_row(row, loc) {
        return warn.skip(m);
    }
    if let Some(m) = header_width.and_then(|w| short_row(row, w, loc)) {
        warn.short(m)?;
    }
    b.push(row, loc, warn)
}
