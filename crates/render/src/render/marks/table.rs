//! The table: a quick chart drawn as its data, labels and values in two
//! columns (comfy-table in the terminal, two columns of text in SVG and
//! Vega-Lite, a GFM table in Markdown). It is no grammar mark.
//!
//! A table with sparklines (`spark`: a series per column, a row per
//! label) is drawn in the terminal and Markdown with its sparkline column
//! (`table/chart.rs`, `gfm/table.rs`); SVG and Vega-Lite draw its rows as
//! the sparkline chart does (`spark.rs`: a line per row with its last
//! value, min and max), the table turned so each row is a series.

use serde_json::{Value, json};

use super::super::RenderOptions;
use super::super::table;
use super::super::text::clean_line;
use super::spark::sparkline;
use super::vega::{nonblank, points, titled, value_title};
use super::{Body, ChartKind, Mermaid};
use crate::spec::{Chart, ChartType};

pub(super) struct Table;

impl ChartKind for Table {
    fn terminal(&self, chart: &Chart, opts: &RenderOptions, lines: &mut Vec<String>) {
        let spark = spark_column(chart, &chart.table_rows(), !opts.unicode);
        table::render(chart, spark, opts, lines);
    }

    fn picture(&self, chart: &Chart) -> Body {
        if let Some(rows) = sparklines(chart) {
            return super::chart(ChartType::Spark).picture(&rows);
        }
        let rows: Vec<(String, f64)> = chart
            .series
            .iter()
            .flat_map(|s| &s.points)
            .map(|p| (p.label.clone(), p.value))
            .collect();
        let label = nonblank(chart.x_label.as_deref()).unwrap_or("Label");
        let value = titled(chart.y_label.as_deref(), chart.unit.as_deref())
            .unwrap_or_else(|| "Value".into());
        Body::Table {
            header: (label.to_string(), value),
            rows,
        }
    }

    /// Two columns of text: labels left-aligned, values right-aligned,
    /// the header above each.
    fn vega_lite(&self, chart: &Chart) -> Value {
        if let Some(rows) = sparklines(chart) {
            return super::chart(ChartType::Spark).vega_lite(&rows);
        }
        let values: Vec<Value> = points(chart)
            .enumerate()
            .map(|(row, (_, label, value))| json!({"row": row, "label": label, "value": value}))
            .collect();
        let head = |t: Option<String>, or: &str| t.unwrap_or_else(|| or.to_string());
        let column = |field: &str, title: String, align: &str, x: Value| {
            json!({
                "title": title,
                "width": 200,
                "mark": {"type": "text", "align": align, "baseline": "middle"},
                "encoding": {
                    "y": {"field": "row", "type": "ordinal", "axis": null},
                    "x": {"value": x},
                    "text": {"field": field, "type": if field == "value" { "quantitative" } else { "nominal" }}
                }
            })
        };
        json!({
            "data": {"values": values},
            "config": {"view": {"stroke": null}},
            "hconcat": [
                column("label", head(nonblank(chart.x_label.as_deref()).map(str::to_string), "Label"), "left", 0.into()),
                column("value", head(value_title(chart), "Value"), "right", "width".into())
            ]
        })
    }

    fn mermaid(&self, _chart: &Chart) -> Mermaid {
        Mermaid::Table
    }

    /// A table has no legend; with sparklines, its rows' lines have the
    /// sparkline chart's.
    fn legend(&self, chart: &Chart) -> Vec<String> {
        sparklines(chart).map_or_else(Vec::new, |rows| {
            super::chart(ChartType::Spark).legend(&rows)
        })
    }
}

/// A table with sparklines as the sparkline chart of its rows.
fn sparklines(chart: &Chart) -> Option<Chart> {
    if !chart.takes_several_series() || chart.series.len() < 2 {
        return None;
    }
    Some(Chart {
        chart_type: ChartType::Spark,
        spark: false,
        ..chart.turned()
    })
}

/// Cells a sparkline gets at most.
const SPARK_MAX: usize = 24;

/// The sparkline column of a table whose rows are series (`spark`, two
/// or more value columns): its header (the first and last columns'
/// names) and each row's line of its values across the columns.
pub(crate) fn spark_column(
    chart: &Chart,
    rows: &[(impl AsRef<str>, Vec<Option<f64>>)],
    ascii: bool,
) -> Option<(String, Vec<String>)> {
    if !chart.spark || chart.series.len() < 2 {
        return None;
    }
    let name = |s: &crate::spec::Series| clean_line(s.name.trim(), ascii);
    let (first, last) = (chart.series.first()?, chart.series.last()?);
    let dash = if ascii { "-" } else { "–" };
    let head = format!("{}{dash}{}", name(first), name(last));
    let cells = SPARK_MAX.min(chart.series.len());
    let sparks = rows
        .iter()
        .map(|(_, vals)| {
            let vals: Vec<f64> = vals.iter().flatten().copied().collect();
            sparkline(&vals, cells, ascii)
        })
        .collect();
    Some((head, sparks))
}
