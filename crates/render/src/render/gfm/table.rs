//! GFM tables of chart data: a bar, line or table chart as its labels and
//! one column per series; a heatmap as its grid (a row per series, as the
//! terminal draws it) and a box plot as a row per group (its five numbers,
//! rows and outliers); a grammar chart as its rows and fields. Numbers
//! are right-aligned and exact (`37,400,000`), as in the terminal's
//! tables; units go in the header.

use serde_json::Value;

use super::super::text::{self, ExactFormat};
use super::text::inline;
use crate::spec::boxplot::BoxStats;
use crate::spec::grammar::{ChartSpec, FieldType};
use crate::spec::{Chart, ChartType};

/// A column's header and whether it holds numbers (right-aligned).
pub struct Column {
    pub header: String,
    pub numeric: bool,
}

/// Writes a GFM table: the header row, the alignment row, one row per
/// entry. Headers and cells are data, escaped here; a row shorter than
/// the header is padded with empty cells.
pub fn write(columns: &[Column], rows: &[Vec<String>], out: &mut String) {
    let row = |cells: &mut dyn Iterator<Item = String>, out: &mut String| {
        out.push('|');
        for c in cells {
            out.push(' ');
            out.push_str(&c);
            out.push_str(" |");
        }
        out.push('\n');
    };
    row(&mut columns.iter().map(|c| inline(&c.header)), out);
    row(
        &mut columns
            .iter()
            .map(|c| if c.numeric { "---:" } else { ":---" }.to_string()),
        out,
    );
    for r in rows {
        row(
            &mut (0..columns.len()).map(|i| r.get(i).map(|c| inline(c)).unwrap_or_default()),
            out,
        );
    }
}

fn nonblank(s: Option<&str>) -> Option<&str> {
    s.map(str::trim).filter(|s| !s.is_empty())
}

/// The header of a value column: `label (unit)`, the label, `or (unit)`,
/// or `or` when there is neither.
pub fn titled(label: Option<&str>, unit: Option<&str>, or: &str) -> String {
    match (nonblank(label), nonblank(unit)) {
        (Some(l), u) => text::titled(Some(l), u).unwrap_or_default(),
        (None, Some(u)) => format!("{or} ({u})"),
        (None, None) => or.to_string(),
    }
}

/// Rows of a chart's data table at most: a binned scatter has thousands.
const MAX_DATA_ROWS: usize = 500;

/// A chart's data: the labels in order of first appearance, then one
/// column per series (a label a series lacks is an empty cell); past
/// [`MAX_DATA_ROWS`] rows the rest are counted.
pub fn chart_data(chart: &Chart, out: &mut String) {
    match chart.chart_type {
        ChartType::Heatmap => return grid(chart, out),
        ChartType::Box
            if chart
                .series
                .iter()
                .all(|s| BoxStats::from_series(s).is_some()) =>
        {
            return boxes(chart, out);
        }
        _ => {}
    }
    let one = chart.series.len() == 1;
    let mut columns = vec![Column {
        header: titled(chart.x_label.as_deref(), None, "Label"),
        numeric: false,
    }];
    let mut formats = Vec::new();
    for s in &chart.series {
        // One series: the y label names it best; several: their names.
        let name = match chart.y_label.as_deref() {
            Some(y) if one && !y.trim().is_empty() => y,
            _ => s.name.as_str(),
        };
        let values = || s.points.iter().map(|p| p.value);
        let years = text::are_years(Some(name), values());
        formats.push(ExactFormat::for_values(values()).with_years(years));
        columns.push(Column {
            header: titled(Some(name), chart.unit.as_deref(), "Value"),
            numeric: true,
        });
    }
    let mut all = chart.table_rows();
    let more = all.len().saturating_sub(MAX_DATA_ROWS);
    all.truncate(MAX_DATA_ROWS);
    let mut rows: Vec<Vec<String>> = all
        .iter()
        .map(|(l, values)| {
            let mut r = vec![l.to_string()];
            r.extend(
                values
                    .iter()
                    .zip(&formats)
                    .map(|(v, f)| v.map(|v| f.format(v)).unwrap_or_default()),
            );
            r
        })
        .collect();
    // A table's sparklines, kept as text.
    if let Some((head, sparks)) = crate::render::marks::spark_column(chart, &all, false) {
        columns.push(Column {
            header: head,
            numeric: false,
        });
        for (r, s) in rows.iter_mut().zip(sparks) {
            r.push(s);
        }
    }
    write(&columns, &rows, out);
    if more > 0 {
        out.push_str(&format!(
            "\n_… and {more} more rows (a scatter's points)_\n"
        ));
    }
}

/// A heatmap's grid as the terminal draws it: a row per series
/// (`seriesLabel`; every bin of a binned axis), a column per label
/// (`xLabel`), a cell without a point empty.
fn grid(chart: &Chart, out: &mut String) {
    let g = super::super::marks::HeatGrid::of(chart);
    let corner = match (
        nonblank(chart.series_label.as_deref()),
        nonblank(chart.x_label.as_deref()),
    ) {
        (Some(r), Some(c)) => format!("{r} \\ {c}"),
        (Some(r), None) => r.to_string(),
        (None, Some(c)) => c.to_string(),
        (None, None) => String::new(),
    };
    let mut columns = vec![Column {
        header: corner,
        numeric: false,
    }];
    columns.extend(g.columns.iter().map(|l| Column {
        header: titled(Some(l), chart.unit.as_deref(), ""),
        numeric: true,
    }));
    let f = ExactFormat::for_values(chart.series.iter().flat_map(|s| &s.points).map(|p| p.value));
    let rows: Vec<Vec<String>> = g
        .rows
        .iter()
        .zip(&g.cells)
        .map(|(name, cells)| {
            let mut r = vec![name.clone()];
            r.extend(
                cells
                    .iter()
                    .map(|v| v.map(|v| f.format(v)).unwrap_or_default()),
            );
            r
        })
        .collect();
    write(&columns, &rows, out);
}

/// A box plot's groups: a row each with its whiskers' ends, quartiles,
/// rows and outliers (values in the unit of the header).
fn boxes(chart: &Chart, out: &mut String) {
    let stats: Vec<(&str, BoxStats)> = chart
        .series
        .iter()
        .filter_map(|s| Some((s.name.as_str(), BoxStats::from_series(s)?)))
        .collect();
    let f = ExactFormat::for_values(stats.iter().flat_map(|(_, b)| {
        [b.lower, b.q1, b.median, b.q3, b.upper]
            .into_iter()
            .chain(b.outliers.iter().copied())
    }));
    let unit = chart.unit.as_deref();
    let mut columns = vec![Column {
        header: titled(chart.series_label.as_deref(), None, "Group"),
        numeric: false,
    }];
    for h in ["lower", "q1", "median", "q3", "upper"] {
        columns.push(Column {
            header: titled(Some(h), unit, ""),
            numeric: true,
        });
    }
    columns.push(Column {
        header: "n".to_string(),
        numeric: true,
    });
    columns.push(Column {
        header: titled(Some("outliers"), unit, ""),
        numeric: false,
    });
    let rows: Vec<Vec<String>> = stats
        .iter()
        .map(|(name, b)| {
            let mut r = vec![name.to_string()];
            r.extend([b.lower, b.q1, b.median, b.q3, b.upper].map(|v| f.format(v)));
            r.push(if b.n > 0 {
                b.n.to_string()
            } else {
                String::new()
            });
            let outliers: Vec<String> = b.outliers.iter().map(|v| f.format(*v)).collect();
            r.push(outliers.join(", "));
            r
        })
        .collect();
    write(&columns, &rows, out);
}

/// A grammar chart's data: one column per field, in the order the rows
/// hold them (fields no row has last), one row per dataset row. Numbers
/// exact, dates and text as written.
pub fn spec_data(spec: &ChartSpec, out: &mut String) {
    let mut names: Vec<&str> = Vec::new();
    for r in &spec.dataset.rows {
        for k in r.keys() {
            if spec.fields.contains_key(k) && !names.contains(&k.as_str()) {
                names.push(k);
            }
        }
    }
    for k in spec.fields.keys() {
        if !names.contains(&k.as_str()) {
            names.push(k);
        }
    }
    let columns: Vec<Column> = names
        .iter()
        .map(|n| {
            let f = spec.field(n);
            Column {
                header: titled(
                    Some(spec.field_label(n)),
                    f.and_then(|f| f.unit.as_deref()),
                    n,
                ),
                numeric: f.is_some_and(|f| f.ty == FieldType::Number),
            }
        })
        .collect();
    let formats: Vec<Option<ExactFormat>> = names
        .iter()
        .zip(&columns)
        .map(|(n, c)| {
            c.numeric.then(|| {
                ExactFormat::for_values(
                    spec.dataset
                        .rows
                        .iter()
                        .filter_map(|r| r.get(*n).and_then(Value::as_f64)),
                )
            })
        })
        .collect();
    let rows: Vec<Vec<String>> = spec
        .dataset
        .rows
        .iter()
        .map(|r| {
            names
                .iter()
                .zip(&formats)
                .map(|(n, fmt)| match (r.get(*n), fmt) {
                    (Some(Value::Number(v)), Some(fmt)) => {
                        v.as_f64().map(|v| fmt.format(v)).unwrap_or_default()
                    }
                    (Some(Value::String(s)), _) => s.clone(),
                    (None | Some(Value::Null), _) => String::new(),
                    (Some(v), _) => v.to_string(),
                })
                .collect()
        })
        .collect();
    write(&columns, &rows, out);
}
