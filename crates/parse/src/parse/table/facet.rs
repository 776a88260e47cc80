//! `--facet COLUMN`: small multiples. The layout is decided once, from the
//! sample, as for one chart; then each row goes by its facet cell to a
//! [`Builder`] of its own panel (made at the panel's first row, at most
//! [`MAX_PANELS`]), and at the end the panels' charts become one chart
//! whose series say their panel ([`Series::facet`]). Memory follows the
//! panels times the point limit, not the rows.

use std::collections::HashMap;

use super::super::rows::{Cells, Loc, OwnedRow, PlainShape, Record, Rows, Warner, cell};
use super::super::{FacetOptions, ParseError, ParseOptions};
use super::builder::{Builder, EMPTY_LABEL};
use super::feed::full_row;
use super::{Plan, RowSink, column_ref, resolve, transforms};
use crate::spec::{Facet, Normalized, SpecError};

/// Panels a facet column may have before it is refused.
pub(crate) const MAX_PANELS: usize = 24;

/// A builder per value of the facet column.
pub(super) struct Faceted {
    col: usize,
    facet: Facet,
    plan: Plan,
    opts: ParseOptions,
    /// The sample, for each new panel's transforms (its filters' columns).
    sample: Vec<(OwnedRow, Loc)>,
    panels: Vec<(String, Builder)>,
    by_name: HashMap<String, usize>,
}

impl Faceted {
    /// The facet column resolved on the plan's columns; a series the
    /// automatic choice took from that same column is dropped (the panels
    /// are its values already).
    pub(super) fn new(
        mut plan: Plan,
        f: &FacetOptions,
        opts: &ParseOptions,
        sample: &[(OwnedRow, Loc)],
    ) -> Result<Faceted, ParseError> {
        let col = resolve(&plan.names, &f.field, "--facet")?;
        if plan.series == Some(col) && plan.auto_series {
            plan.series = None;
            plan.auto_series = false;
        }
        if plan.series == Some(col) || plan.values.contains(&col) {
            return Err(ParseError::Usage(format!(
                "--facet {}: that column is already the chart's value or series; \
                 facet by another one",
                column_ref(&plan.names[col])
            )));
        }
        // Each panel would bin its numbers on edges of its own.
        let heatmap = plan.chart.chart_type == crate::spec::ChartType::Heatmap;
        if heatmap && super::heatplan::binned_axes(&plan, sample).is_some() {
            return Err(ParseError::Usage(
                "--facet with a heatmap of binned numbers is not drawn: each panel would bin                  on edges of its own; facet a heatmap of categories, or leave out --facet"
                    .into(),
            ));
        }
        let facet = Facet {
            field: plan.names[col].clone(),
            columns: f.columns,
            scales: f.scales,
        };
        Ok(Faceted {
            col,
            facet,
            plan,
            opts: opts.clone(),
            sample: sample.to_vec(),
            panels: Vec::new(),
            by_name: HashMap::new(),
        })
    }

    /// The panel of a row whose panel is made already.
    #[inline]
    fn known(&self, row: &dyn Cells) -> Result<usize, String> {
        let key = cell(row, self.col);
        let key = match key.as_deref() {
            Some(k) if !k.trim().is_empty() => k,
            _ => EMPTY_LABEL,
        };
        self.by_name
            .get(key)
            .copied()
            .ok_or_else(|| key.to_string())
    }

    /// The builder of the row's panel, made at its first row.
    fn panel(&mut self, row: &dyn Cells, loc: Loc) -> Result<usize, ParseError> {
        let key = match self.known(row) {
            Ok(i) => return Ok(i),
            Err(key) => key,
        };
        if self.panels.len() >= MAX_PANELS {
            return Err(ParseError::Data(format!(
                "{loc}: {} has more than {MAX_PANELS} distinct values; --facet wants a column \
                 naming a few groups (a region, a kind); --filter can keep some",
                column_ref(&self.facet.field)
            )));
        }
        let collect = transforms::collect_for(&self.plan, &self.opts, &self.sample)?;
        let b = Builder::new(self.plan.clone(), collect);
        self.by_name.insert(key.clone(), self.panels.len());
        self.panels.push((key, b));
        Ok(self.panels.len() - 1)
    }
}

impl Faceted {
    /// What the fast lane reads ahead for every panel made so far: their
    /// one shape (all share the plan and the transforms), keyed by the
    /// facet column. None when a panel has no fast lane, or a top-N's
    /// floor (one a panel) would be shared.
    fn shape(&mut self, max_width: Option<usize>) -> Option<PlainShape> {
        let mut shape = None;
        for (_, b) in &mut self.panels {
            let s = b.plain_shape(max_width)?;
            // (A heatmap panel's key is its rows: the facet's would be two.)
            if s.floor.is_some() || s.key.is_some() {
                return None;
            }
            shape = Some(s);
        }
        let mut shape = shape?;
        let known: Vec<String> = self.panels.iter().map(|(k, _)| k.clone()).collect();
        shape.key = Some((self.col, known.into()));
        Some(shape)
    }
}

impl RowSink for Faceted {
    fn push(&mut self, row: &dyn Cells, loc: Loc, warn: &mut Warner) -> Result<(), ParseError> {
        let i = self.panel(row, loc)?;
        self.panels[i].1.push(row, loc, warn)
    }

    /// A plain row of a panel made already goes down that panel's fast
    /// lane; a panel's first row takes the full path, which makes it.
    #[inline]
    fn push_plain(&mut self, row: &dyn Cells) -> bool {
        match self.known(row) {
            Ok(i) => self.panels[i].1.push_plain(row),
            Err(_) => false,
        }
    }

    /// Plain rows of the panels made from the sample, read ahead on
    /// every core and each handed to its panel's fast lane; any other row
    /// (one of a panel not made yet among them) down the full path.
    fn read_ahead(
        &mut self,
        rows: &mut dyn Rows,
        ends: (Option<usize>, u8),
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        let Some(shape) = self.shape(ends.0) else {
            return Ok(());
        };
        let collected = self.panels[0].1.collect.is_some();
        let (header_width, delimiter) = ends;
        rows.read_plain(
            &shape,
            &mut |record, warn| match record {
                // (The shape's known values are the panels, in order.)
                Record::Keyed(values, label, key) => {
                    let b = &mut self.panels[key].1;
                    if collected {
                        b.push_values_collected(values, label);
                    } else {
                        b.push_kept_values(values, label);
                    }
                    Ok(())
                }
                Record::Other(row, loc) => full_row(self, row, loc, header_width, delimiter, warn),
                // (A shape with a key and no floor brings neither.)
                Record::Plain(..) | Record::Plains(..) | Record::Dropped(..) => {
                    unreachable!("a keyed shape reads keyed records")
                }
            },
            warn,
        )
    }

    /// Each panel's chart; a panel without a number is left out (said),
    /// and only when none has one is the input refused.
    fn finish(self, warn: &mut Warner) -> Result<Normalized, ParseError> {
        let mut out: Option<Normalized> = None;
        let mut empty: Vec<String> = Vec::new();
        let mut first_error = None;
        for (name, b) in self.panels {
            let n = match b.finish(warn) {
                Ok(n) => n,
                Err(e) => {
                    empty.push(name);
                    first_error.get_or_insert(e);
                    continue;
                }
            };
            let Normalized {
                mut chart,
                non_finite,
                notes,
            } = n;
            for s in &mut chart.series {
                s.facet = Some(name.clone());
            }
            match &mut out {
                None => {
                    chart.transform = None;
                    chart.source = None;
                    chart.facet = Some(self.facet.clone());
                    out = Some(Normalized {
                        chart,
                        non_finite,
                        notes,
                    });
                }
                Some(all) => join(all, chart, non_finite),
            }
        }
        let Some(all) = out else {
            return Err(first_error.unwrap_or_else(|| {
                ParseError::Data(
                    SpecError::NoPoints {
                        context: String::new(),
                    }
                    .to_string(),
                )
            }));
        };
        if !empty.is_empty() {
            warn.note(format!(
                "--facet {}: no panel for {} (no value to chart there)",
                column_ref(&self.facet.field),
                empty
                    .iter()
                    .map(|n| format!("{n:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        Ok(all)
    }
}

/// One more panel's chart into the whole: its series, its counts.
fn join(all: &mut Normalized, chart: crate::spec::Chart, non_finite: Vec<(String, String)>) {
    let meta = &mut all.chart.meta;
    meta.original_point_count += chart.meta.original_point_count;
    meta.truncated |= chart.meta.truncated;
    meta.reduction = meta.reduction.or(chart.meta.reduction);
    all.chart.series.extend(chart.series);
    all.non_finite.extend(non_finite);
}
