//! The charts made of groups rather than of points along an axis:
//! `--chart heatmap` of categories (the -x categories across, the -s categories down,
//! each cell its rows' count or `--aggregate` of -y, `--normalize`d to a
//! share of its row or column) and `--chart box` (the -y values of each
//! -x group as a box). Both are collected from the rows as they stream
//! (`collect.rs`) and made into their chart here at the end.

use std::collections::HashMap;

use super::super::ParseError;
use super::super::rows::Warner;
use super::super::transform::{BoxGroups, Groups, Normalize};
use super::builder::Builder;
use super::collect::chart_of;
use crate::spec::boxplot::BoxStats;
use crate::spec::{Chart, ChartType, Point, Series};

use crate::spec::order::{calendar, category_order};

/// Each cell as a share of its row's or column's total, in percent.
pub(super) fn normalized(series: &mut [(String, Vec<(String, f64)>)], by: Normalize) {
    let mut totals: HashMap<String, f64> = HashMap::new();
    for (name, cells) in series.iter() {
        for (label, v) in cells {
            let key = match by {
                Normalize::Row => name,
                Normalize::Column => label,
            };
            *totals.entry(key.clone()).or_default() += v;
        }
    }
    for (name, cells) in series.iter_mut() {
        for (label, v) in cells.iter_mut() {
            let key = match by {
                Normalize::Row => &*name,
                Normalize::Column => &*label,
            };
            let total = totals.get(key).copied().unwrap_or(0.0);
            *v = if total != 0.0 {
                *v / total * 100.0
            } else {
                0.0
            };
        }
    }
}

/// A normalized heatmap's value title: `count, % of row`.
pub(super) fn normalized_title(chart: &mut Chart, by: Option<Normalize>) {
    let Some(by) = by else { return };
    let of = chart.y_label.take().unwrap_or_else(|| "value".into());
    let whole = match by {
        Normalize::Row => "row",
        Normalize::Column => "column",
    };
    chart.y_label = Some(format!("{of}, % of {whole}"));
    chart.unit = None;
}

impl Builder {
    /// The heatmap of the groups: a series per -s category down, its
    /// points the -x categories across, both in reading order.
    pub(super) fn heatmap_chart(&self, groups: Groups) -> Result<Chart, ParseError> {
        let mut series = groups.finish();
        series.retain(|(_, cells)| !cells.is_empty());
        if series.is_empty() {
            return Err(self.no_numbers());
        }
        if let Some(by) = self.plan.transform.normalize {
            normalized(&mut series, by);
        }
        // Days or months down (or across) in calendar order when all are.
        let down = calendar(series.iter().map(|s| s.0.as_str()));
        let across = calendar(series.iter().flat_map(|s| s.1.iter().map(|c| c.0.as_str())));
        series.sort_by(|a, b| category_order(&a.0, &b.0, down));
        let series: Vec<Series> = series
            .into_iter()
            .map(|(name, mut cells)| {
                cells.sort_by(|a, b| category_order(&a.0, &b.0, across));
                Series {
                    name,
                    points: cells.into_iter().map(|(l, v)| Point::new(l, v)).collect(),
                    facet: None,
                }
            })
            .collect();
        let mut chart = chart_of(self.plan.chart.clone(), ChartType::Heatmap, series);
        chart.series_label = self.plan.series.map(|s| self.plan.names[s].clone());
        normalized_title(&mut chart, self.plan.transform.normalize);
        Ok(chart)
    }

    /// The box plot of the groups: a series per group, in order of their
    /// first rows; outliers past what a group keeps are said.
    pub(super) fn box_chart(
        &self,
        boxes: BoxGroups,
        warn: &mut Warner,
    ) -> Result<Chart, ParseError> {
        let boxes = boxes.finish();
        if boxes.is_empty() {
            return Err(self.no_numbers());
        }
        let dropped: usize = boxes.iter().map(|(_, b)| b.dropped).sum();
        if dropped > 0 {
            warn.note(format!(
                "{dropped} outliers not drawn: each group keeps its {} furthest on each side",
                crate::spec::boxplot::MAX_OUTLIERS
            ));
        }
        let series: Vec<Series> = boxes
            .into_iter()
            .map(|(name, b): (String, BoxStats)| b.series(name))
            .collect();
        let mut chart = chart_of(self.plan.chart.clone(), ChartType::Box, series);
        let value = self
            .plan
            .values
            .first()
            .map(|&v| self.plan.names[v].clone());
        chart.series_label = self
            .plan
            .label
            .map(|l| self.plan.names[l].clone())
            .filter(|_| self.plan.real_names);
        chart.y_label = self.plan.chart.y_label.clone().or(value);
        chart.x_label = self.plan.chart.x_label.clone();
        Ok(chart)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_read_in_order() {
        let mut v = vec!["b", "10", "A", "2", "a"];
        v.sort_by(|a, b| category_order(a, b, None));
        assert_eq!(v, ["2", "10", "A", "a", "b"]);
        let mut s = vec![
            (
                "r1".to_string(),
                vec![("x".to_string(), 1.0), ("y".to_string(), 3.0)],
            ),
            ("r2".to_string(), vec![("x".to_string(), 1.0)]),
        ];
        normalized(&mut s, Normalize::Column);
        assert_eq!(s[0].1[0].1, 50.0);
        assert_eq!(s[0].1[1].1, 100.0);
    }
}
