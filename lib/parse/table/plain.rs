//! The fast lane of [`Builder::push`]: a row with no series column, no
//! newest-first check pending, a label with nothing to trim and a plain
//! number in every value column goes straight to the reducers. Any other
//! row takes the full path, which gives the same result for these rows,
//! only slower (see `parse::fast`).

use std::borrow::Cow;

use super::super::fast::plain_text;
use super::{Builder, Cells};

/// Value columns the fast lane takes at once (more: the full path).
const MAX_VALUES: usize = 8;

impl Builder {
    /// True when the row was taken; false leaves it untouched for `push`.
    pub(super) fn push_plain(&mut self, row: &dyn Cells) -> bool {
        if self.plan.series.is_some() || self.watching() {
            return false;
        }
        let mut values = [0.0; MAX_VALUES];
        if self.plan.values.len() > MAX_VALUES {
            return false;
        }
        for (slot, &col) in values.iter_mut().zip(&self.plan.values) {
            let Some(v) = row.number(col, self.plan.decimals[col]) else {
                return false;
            };
            *slot = v;
        }
        let rows = self.rows + 1;
        // Most rows of a long top-N chart: a value that cannot enter needs
        // no label (the full path would drop it all the same).
        if let [(_, reducer)] = &mut self.reducers[..]
            && reducer.drops(values[0])
        {
            reducer.skip();
            self.rows = rows;
            return true;
        }
        let label: Cow<'_, str> = match self.plan.label {
            Some(col) => match row.raw(col) {
                Some(Cow::Borrowed(c)) => match plain_text(c) {
                    Some(c) => Cow::Borrowed(c),
                    None => return false,
                },
                _ => return false,
            },
            None => Cow::Owned(rows.to_string()),
        };
        self.rows = rows;
        for ((_, reducer), v) in self.reducers.iter_mut().zip(values) {
            reducer.push_value(v, &label);
        }
        true
    }
}
