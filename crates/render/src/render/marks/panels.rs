//! Grammar marks that are charts of their own (`rect`: a heatmap,
//! `boxplot`: a box plot; `Takes::own_chart`): each mark is read from the
//! spec's rows into the quick chart it equals (its `chart_of`), and that
//! chart's kind draws it in every format, so a heatmap or a box plot is
//! drawn by one piece of code whether viz-parse or the `plot` tool made
//! it. The terminal draws the marks one under another (each under its
//! `label`), SVG side by side in a grid, Markdown a table each; the
//! Vega-Lite layers are each mark's own, over the spec's rows
//! (`vegalite/grammar.rs` puts several in a `vconcat`). Here too: a
//! field's values read as categories in order, which both marks share.

use std::collections::{HashMap, HashSet};

use super::super::RenderOptions;
use super::super::text::{NumFormat, Style, clean_line, paint};
use super::super::wrap::truncate;
use super::{Body, Picture, WholeChart, iso_utc};
use crate::spec::Chart;
use crate::spec::grammar::{ChartSpec, Column};

/// The quick charts of a spec's marks that are charts of their own, in
/// order, each titled by its mark's `label`.
pub(crate) fn charts(spec: &ChartSpec) -> Vec<Chart> {
    spec.marks
        .iter()
        .filter_map(|m| {
            let mut c = super::of(m.kind).chart_of(spec, m)?;
            c.title = super::nonblank(m.label.as_deref()).map(str::to_string);
            Some(c)
        })
        .collect()
}

/// A chart of such marks.
pub(super) struct Panels;

impl WholeChart for Panels {
    fn terminal(
        &self,
        spec: &ChartSpec,
        opts: &RenderOptions,
        lines: &mut Vec<String>,
        _notes: &mut Vec<String>,
    ) {
        for (i, c) in charts(spec).iter().enumerate() {
            if i > 0 {
                lines.push(String::new());
            }
            if let Some(t) = &c.title {
                let ascii = !opts.unicode;
                let t = truncate(&clean_line(t.trim(), ascii), opts.width.max(1), ascii);
                lines.push(paint(&t, Style::Dim, opts.color));
            }
            if c.series.is_empty() {
                lines.push(paint("(no data)", Style::Dim, opts.color));
                continue;
            }
            super::chart(c.chart_type).terminal(c, opts, lines);
        }
    }

    /// One chart's picture, or a panel each.
    fn picture(&self, spec: &ChartSpec) -> Picture {
        let mut charts = charts(spec);
        if charts.len() == 1 {
            let c = charts.remove(0);
            let kind = super::chart(c.chart_type);
            return Picture {
                legend: kind.legend(&c),
                body: kind.picture(&c),
                notes: Vec::new(),
            };
        }
        let panels = charts
            .iter()
            .map(|c| (c.title.clone(), super::chart(c.chart_type).picture(c)))
            .collect();
        Picture {
            body: Body::Panels(panels),
            legend: Vec::new(),
            notes: Vec::new(),
        }
    }
}

/// A field's distinct values as categories: text in the order met,
/// numbers and dates ascending; and each row's category.
pub(super) struct Categories {
    pub names: Vec<String>,
    pub of_row: Vec<Option<usize>>,
}

impl Categories {
    pub fn read(col: &Column) -> Categories {
        let (cells, ordered): (Vec<Option<(String, f64)>>, bool) = match col {
            Column::Text(t) => (
                t.iter()
                    .map(|c| c.as_ref().map(|s| (s.clone(), 0.0)))
                    .collect(),
                false,
            ),
            Column::Number(v) => (
                v.iter()
                    .map(|c| c.map(|v| (NumFormat::for_values([v]).format(v), v)))
                    .collect(),
                true,
            ),
            Column::Date(v) => (
                v.iter().map(|c| c.map(|v| (date_text(v), v))).collect(),
                true,
            ),
        };
        let mut distinct: Vec<(String, f64)> = Vec::new();
        let mut seen: HashSet<&str> = HashSet::new();
        for (name, key) in cells.iter().flatten() {
            if seen.insert(name) {
                distinct.push((name.clone(), *key));
            }
        }
        if ordered {
            distinct.sort_by(|a, b| a.1.total_cmp(&b.1));
        }
        let index: HashMap<&str, usize> = distinct
            .iter()
            .enumerate()
            .map(|(i, (n, _))| (n.as_str(), i))
            .collect();
        let of_row = cells
            .iter()
            .map(|c| c.as_ref().map(|(n, _)| index[n.as_str()]))
            .collect();
        Categories {
            names: distinct.into_iter().map(|(n, _)| n).collect(),
            of_row,
        }
    }
}

/// A date as ISO 8601 UTC, the day alone at midnight.
fn date_text(secs: f64) -> String {
    let s = iso_utc(secs);
    match s.strip_suffix("T00:00:00.000Z") {
        Some(day) => day.to_string(),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_categories_in_ascending_order_text_as_met() {
        let c = Categories::read(&Column::Number(vec![Some(3.0), None, Some(1.0), Some(3.0)]));
        assert_eq!(c.names, ["1", "3"]);
        assert_eq!(c.of_row, [Some(1), None, Some(0), Some(1)]);
        let t = Categories::read(&Column::Text(vec![Some("b".into()), Some("a".into())]));
        assert_eq!(t.names, ["b", "a"]);
        let d = Categories::read(&Column::Date(vec![Some(86_400.0), Some(0.0)]));
        assert_eq!(d.names, ["1970-01-01", "1970-01-02"]);
    }
}
