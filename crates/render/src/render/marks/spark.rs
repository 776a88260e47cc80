//! Sparklines (`--chart spark`, issue 36): one row per series (each `-y`,
//! or each `-s` group), its points in order drawn as a line of block
//! characters scaled to its own min and max, then its last value, min
//! and max. Built for CI logs and tables, where a chart of axes is too
//! tall: one line says a series' shape and where it ended.
//!
//! The Unicode ramp is the eight blocks `▁▂▃▄▅▆▇█`. The ASCII ramp is
//! `_.-~^`: five glyphs whose ink sits at five different heights in a
//! monospace font (under the baseline, on it, at the middle, just above
//! it, at the top), so the row still reads as a line going up and down;
//! no letter or digit, which would read as a value, and no `#`/`*`,
//! which read as bars. In SVG the rows are small lines stacked on one
//! plot, a band each; Vega-Lite a `facet` of rows, each its own y scale;
//! Markdown a table with the sparkline in a column.

use serde_json::{Value, json};

use super::super::RenderOptions;
use super::super::plot::{AxisSpec, Layer, Markers, Plot, Shape};
use super::super::text::{NumFormat, Style, clean_line, paint, width, with_unit};
use super::super::wrap::{pad_left, pad_right};
use super::vega::{nonblank, value_title};
use super::{Body, ChartKind, Mermaid};
use crate::spec::{Chart, Series};

pub(super) struct Spark;

/// The Unicode ramp, lowest first.
const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
/// The ASCII ramp, lowest first (see the module doc for why these).
const ASCII_RAMP: [char; 5] = ['_', '.', '-', '~', '^'];

/// The sparkline of `values` at most `cells` wide: one glyph per value,
/// or per run of values (their mean) when there are more than cells. A
/// flat series sits at the middle.
pub(crate) fn sparkline(values: &[f64], cells: usize, ascii: bool) -> String {
    let ramp: &[char] = if ascii { &ASCII_RAMP } else { &BLOCKS };
    if values.is_empty() || cells == 0 {
        return String::new();
    }
    let n = values.len().min(cells);
    let cols: Vec<f64> = (0..n)
        .map(|i| {
            let (a, b) = (
                i * values.len() / n,
                ((i + 1) * values.len() / n).max(i * values.len() / n + 1),
            );
            let run = &values[a..b.min(values.len())];
            run.iter().sum::<f64>() / run.len() as f64
        })
        .collect();
    let lo = cols.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = cols.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let top = ramp.len() - 1;
    cols.iter()
        .map(|&v| {
            let k = if hi > lo && (hi - lo).is_finite() {
                (((v - lo) / (hi - lo)) * top as f64).round() as usize
            } else {
                top / 2
            };
            ramp[k.min(top)]
        })
        .collect()
}

/// A series' last value, min and max.
pub(crate) fn stats(s: &Series) -> Option<(f64, f64, f64)> {
    let last = s.points.last()?.value;
    let min = s
        .points
        .iter()
        .map(|p| p.value)
        .fold(f64::INFINITY, f64::min);
    let max = s
        .points
        .iter()
        .map(|p| p.value)
        .fold(f64::NEG_INFINITY, f64::max);
    Some((last, min, max))
}

/// The numbers of a chart written alike, with its unit.
fn number_format(chart: &Chart) -> impl Fn(f64) -> String + '_ {
    let fmt = NumFormat::for_values(
        chart
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.value)),
    );
    move |v| with_unit(&fmt.format(v), chart.unit.as_deref())
}

fn values(s: &Series) -> Vec<f64> {
    s.points.iter().map(|p| p.value).collect()
}

impl ChartKind for Spark {
    /// A header of the numbers' names, then a row per series: its name,
    /// the sparkline, its last value, min and max; at narrow widths the
    /// min and max, then the last value, give way to the line.
    fn terminal(&self, chart: &Chart, opts: &RenderOptions, lines: &mut Vec<String>) {
        let ascii = !opts.unicode;
        let w = opts.width.max(1);
        let num = number_format(chart);
        let rows: Vec<(String, &Series, [String; 3])> = chart
            .series
            .iter()
            .filter_map(|s| {
                let (last, min, max) = stats(s)?;
                Some((
                    clean_line(&s.name, ascii),
                    s,
                    [num(last), num(min), num(max)],
                ))
            })
            .collect();
        let lw = rows
            .iter()
            .map(|r| width(&r.0))
            .max()
            .unwrap_or(0)
            .min(w / 4);
        let nw: Vec<usize> = (0..3)
            .map(|k| {
                let head = ["last", "min", "max"][k].len();
                rows.iter()
                    .map(|r| width(&r.2[k]))
                    .max()
                    .unwrap_or(0)
                    .max(head)
            })
            .collect();
        let longest = rows.iter().map(|r| r.1.points.len()).max().unwrap_or(1);
        // The numbers shown: all three, the last alone, or none, so the
        // line keeps at least 8 cells (or all it has).
        let room = |k: usize| {
            let used = lw + 1 + nw[..k].iter().map(|n| n + 1).sum::<usize>();
            w.saturating_sub(used)
        };
        let shown = [3, 1, 0]
            .into_iter()
            .find(|&k| room(k) >= longest.min(8))
            .unwrap_or(0);
        let cells = room(shown).min(longest).max(1);
        if shown > 0 {
            let mut head = " ".repeat(lw + 1 + cells);
            for k in 0..shown {
                head.push(' ');
                head.push_str(&pad_left(["last", "min", "max"][k], nw[k], ascii));
            }
            lines.push(paint(head.trim_end(), Style::Dim, opts.color));
        }
        for (name, s, nums) in &rows {
            let mut l = pad_right(name, lw, ascii);
            l.push(' ');
            let line = sparkline(&values(s), cells, ascii);
            let pad = cells.saturating_sub(width(&line));
            l.push_str(&paint(&line, Style::Bold, opts.color));
            l.push_str(&" ".repeat(pad));
            for k in 0..shown {
                l.push(' ');
                l.push_str(&pad_left(&nums[k], nw[k], ascii));
            }
            lines.push(l.trim_end().to_string());
        }
    }

    /// The rows as small lines on one plot, a band each, the first at
    /// the top: each scaled to its own min and max, as in the terminal.
    fn picture(&self, chart: &Chart) -> Body {
        let n = chart.series.len();
        if n == 0 {
            return Body::NoData;
        }
        let longest = chart
            .series
            .iter()
            .map(|s| s.points.len())
            .max()
            .unwrap_or(1);
        let layers = chart
            .series
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                let (_, lo, hi) = stats(s)?;
                let span = if hi > lo { hi - lo } else { 1.0 };
                let points = s
                    .points
                    .iter()
                    .enumerate()
                    .map(|(k, p)| {
                        let t = if hi > lo { (p.value - lo) / span } else { 0.5 };
                        Some((k as f64, i as f64 + 0.35 - 0.7 * t))
                    })
                    .collect();
                Some(Layer {
                    series: i,
                    shape: Shape::Line {
                        points,
                        markers: Markers {
                            positions: s.points.len(),
                            several: false,
                        },
                    },
                })
            })
            .collect();
        Body::Plot(Plot {
            x: AxisSpec::Number {
                min: 0.0,
                max: (longest.max(2) - 1) as f64,
                unit: None,
                domain: None,
                invert: false,
            },
            y: AxisSpec::Category {
                names: chart.series.iter().map(|s| s.name.clone()).collect(),
            },
            y_title: None,
            x_title: Some("point".into()),
            layers,
            legend: Vec::new(),
        })
    }

    /// A row of small lines (`facet.row` by series), each with its own y
    /// scale and no axes, as sparklines are.
    fn vega_lite(&self, chart: &Chart) -> Value {
        let values: Vec<Value> = chart
            .series
            .iter()
            .flat_map(|s| {
                s.points
                    .iter()
                    .map(move |p| json!({"series": s.name, "label": p.label, "value": p.value}))
            })
            .collect();
        json!({
            "data": {"values": values},
            "facet": {"row": {
                "field": "series", "type": "nominal", "sort": null, "title": null,
                "header": {"labelAngle": 0, "labelAlign": "left"}
            }},
            "spec": {
                "width": 240,
                "height": 24,
                "mark": {"type": "line", "tooltip": true},
                "encoding": {
                    "x": {"field": "label", "type": "ordinal", "sort": null, "axis": null,
                          "title": nonblank(chart.x_label.as_deref())},
                    "y": {"field": "value", "type": "quantitative", "scale": {"zero": false},
                          "axis": null, "title": value_title(chart)}
                }
            },
            "resolve": {"scale": {"y": "independent"}}
        })
    }

    fn mermaid(&self, _chart: &Chart) -> Mermaid {
        Mermaid::Refused("sparkline")
    }

    /// A table: the series, its sparkline, last, min and max.
    fn markdown(&self, chart: &Chart) -> Option<String> {
        let cell = |s: &str| clean_line(s, false).replace('|', "\\|");
        let fmt = number_format(chart);
        let mut s = String::from(
            "| series | sparkline | last | min | max |\n| --- | --- | ---: | ---: | ---: |\n",
        );
        for series in &chart.series {
            let Some((last, min, max)) = stats(series) else {
                continue;
            };
            let num = |v| cell(&fmt(v));
            s.push_str(&format!(
                "| {} | {} | {} | {} | {} |\n",
                cell(&series.name),
                sparkline(&values(series), 60, false),
                num(last),
                num(min),
                num(max)
            ));
        }
        Some(s)
    }
}
