//! The fast lane of [`Builder::push`]: a row with no series column, no
//! newest-first check pending, a label with nothing to trim and a plain
//! number in every value column goes straight to the reducers. Any other
//! row takes the full path, which gives the same result for these rows,
//! only slower (see `parse::fast`).

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::spec::{Reduction, XType};

use super::super::plain::plain_text;
use super::super::rows::{Cells, MAX_VALUES, PlainShape};
use super::Builder;
use super::transforms::{Collect, What};

impl Builder {
    /// What the fast lane takes from a row now, for readers that read it
    /// ahead ([`super::Rows::read_plain`]); `None` when it takes nothing.
    /// Rows wider than `max_width` are the full path's.
    pub(in super::super) fn plain_shape(&mut self, max_width: Option<usize>) -> Option<PlainShape> {
        let n = self.plan.values.len();
        if self.plan.series.is_some() {
            return self.keyed_heat_shape(max_width);
        }
        if self.watching() || n == 0 || n > MAX_VALUES {
            return None;
        }
        // Readers ahead hand on values and labels only: a filter reads
        // other cells.
        if self.collect.as_ref().is_some_and(|c| c.whole_rows()) {
            return None;
        }
        if let [(_, reducer)] = &self.reducers[..]
            && reducer.method() == Reduction::Top
        {
            let floor = reducer.floor().unwrap_or(-1.0);
            self.floor = Some(Arc::new(AtomicU64::new(floor.to_bits())));
        }
        let mut values: Vec<_> = self
            .plan
            .values
            .iter()
            .map(|&col| (col, self.plan.decimals[col]))
            .collect();
        // A scatter's x by number: read by the readers ahead too, rather
        // than on this thread from its label (as `x_of` reads it).
        self.x_ahead = false;
        if let (
            Some(Collect {
                what: What::Scatter(_),
                ..
            }),
            Some(x),
        ) = (&self.collect, self.plan.label)
            && self.plan.x_type != Some(XType::Date)
            && n < MAX_VALUES
        {
            values.push((x, self.plan.decimals[x]));
            self.x_ahead = true;
        }
        Some(PlainShape {
            values,
            // A histogram counts values alone: its readers need no label.
            label: self.plan.label.filter(|_| !self.is_hist()),
            max_width,
            floor: self.floor.clone(),
            key: None,
            derive: None,
        })
    }

    /// Rows a reader ahead read without a label (the shape had none):
    /// `values` holds each row's values in turn. Past the rows a chart
    /// carries for its export, a histogram counts them in one loop.
    pub(in super::super) fn push_values_run(&mut self, values: &[f64]) {
        let width = self.plan.values.len().max(1);
        let mut rows = values.chunks_exact(width);
        while !self.counts_values_alone() {
            let Some(row) = rows.next() else { return };
            if self.collect.is_some() {
                self.push_values_collected(row, None);
            } else {
                self.push_kept_values(row, None);
            }
        }
        if let Some(Collect {
            what: What::Hist { hist, .. },
            ..
        }) = &mut self.collect
        {
            self.rows += rows.len();
            hist.push_all(rows.map(|row| row[0]));
        }
    }

    fn is_hist(&self) -> bool {
        matches!(
            &self.collect,
            Some(Collect {
                what: What::Hist { .. },
                ..
            })
        )
    }

    /// A histogram that keeps no more input rows for its export: what a
    /// row brings it is its first value, nothing else.
    fn counts_values_alone(&self) -> bool {
        matches!(
            &self.collect,
            Some(Collect {
                what: What::Hist { .. },
                source,
                ..
            }) if source.as_ref().is_none_or(|s| s.is_over())
        )
    }

    /// True when the row was taken; false leaves it untouched for `push`.
    pub(super) fn push_plain(&mut self, row: &dyn Cells) -> bool {
        if self.collect.is_some() {
            return self.push_plain_collected(row);
        }
        self.push_plain_values(row)
    }

    /// [`Self::push_plain`] into the reducers.
    pub(super) fn push_plain_values(&mut self, row: &dyn Cells) -> bool {
        let n = self.plan.values.len();
        if self.plan.series.is_some() || self.watching() || n > MAX_VALUES {
            return false;
        }
        let mut values = [0.0; MAX_VALUES];
        if !self.plain_values(row, &mut values) {
            return false;
        }
        if self.dropped(&values[..n]) {
            return true;
        }
        let Some(label) = self.plain_label(row) else {
            return false;
        };
        self.push_kept(&values[..n], label);
        true
    }

    /// The row's value columns into `values` when each is a plain
    /// number; false (`values` in part) when one is not.
    #[inline]
    pub(super) fn plain_values(&self, row: &dyn Cells, values: &mut [f64; MAX_VALUES]) -> bool {
        if self.plan.values.len() > MAX_VALUES {
            return false;
        }
        for (slot, &col) in values.iter_mut().zip(&self.plan.values) {
            let Some(v) = row.number(col, self.plan.decimals[col]) else {
                return false;
            };
            *slot = v;
        }
        true
    }

    /// The row's label cell when it is plain text (`Some(None)` without a
    /// label column); `None` when it is not plain.
    #[inline]
    pub(super) fn plain_label<'r>(&self, row: &'r dyn Cells) -> Option<Option<&'r str>> {
        match self.plan.label {
            Some(col) => match row.raw(col) {
                Some(Cow::Borrowed(c)) => plain_text(c).map(Some),
                _ => None,
            },
            None => Some(None),
        }
    }

    /// A row the fast lane read ahead ([`Self::plain_shape`]), its values
    /// and its plain label cell, into the reducers, unless a top-N drops
    /// them at once (when transforms run: `push_values_collected`).
    pub(super) fn push_kept_values(&mut self, values: &[f64], label: Option<&str>) {
        if !self.dropped(values) {
            self.push_kept(values, label);
        }
    }

    /// `n` rows a reader ahead found at or below the floor.
    pub(in super::super) fn push_dropped(&mut self, n: usize) {
        if let [(_, reducer)] = &mut self.reducers[..] {
            reducer.skip_many(n);
            self.rows += n;
        }
    }

    /// Counts a row whose one value a full top-N would drop at once: most
    /// rows of a long top-N chart, which need no label.
    fn dropped(&mut self, values: &[f64]) -> bool {
        if let ([(_, reducer)], [v]) = (&mut self.reducers[..], values)
            && reducer.drops(*v)
        {
            reducer.skip();
            self.rows += 1;
            return true;
        }
        false
    }

    /// `label`: the row's label cell; `None` labels it by its row number.
    fn push_kept(&mut self, values: &[f64], label: Option<&str>) {
        self.rows += 1;
        let label = match label {
            Some(l) => Cow::Borrowed(l),
            None => Cow::Owned(self.rows.to_string()),
        };
        for ((_, reducer), v) in self.reducers.iter_mut().zip(values) {
            reducer.push_value(*v, &label);
        }
        if let (Some(floor), [(_, reducer)]) = (&self.floor, &self.reducers[..])
            && let Some(f) = reducer.floor()
        {
            floor.store(f.to_bits(), Ordering::Relaxed);
        }
    }
}
