//! What a quick chart's drawing adds to its marks, in every format: a
//! trend fitted through a scatter or a line (a line layer per series over
//! the points, its fit said in the footer), and the axes' log or
//! square-root scales. The fit itself is the chart event's (`trend`,
//! made by viz-parse, `spec::Drawing`); a hand-written event without
//! one is fitted here the same way.
//!
//! The terminal and SVG draw the trend as one more line per series on
//! the plot, in the colour (and ASCII glyph) after the series', named in
//! the legend; Vega-Lite gets a layer with Vega-Lite's own `regression` or
//! `loess` transform over the same data and `scale.type` on the axes;
//! mermaid draws neither a trend nor a log axis, so the report says the fit
//! in its notes (and shows a log chart's data).

use serde_json::{Value, json};

use super::super::plot::{Layer, Markers, Plot, Shape, legend, marker, scaled, series_style};
use super::super::text::fixed;
use crate::spec::{Chart, ChartType, Fit, ScaleType, TrendMethod, XType, trend_fits};

/// The plot with the chart's trend layers and legend, on its scales.
pub(super) fn dress(mut plot: Plot, chart: &Chart, ascii: bool) -> Plot {
    if let Some(t) = &chart.trend {
        let fits = trend_fits(chart, t);
        let base = chart.series.len();
        if plot.legend.is_empty() && !fits.is_empty() {
            plot.legend = chart
                .series
                .iter()
                .enumerate()
                .map(|(i, s)| legend::Item {
                    glyph: marker(i, ascii),
                    style: series_style(i),
                    name: s.name.clone(),
                })
                .collect();
        }
        for (f, k) in fits.iter().zip(slots(base, ascii)) {
            plot.layers.push(Layer {
                series: k,
                shape: Shape::Line {
                    points: f.line.iter().map(|p| Some((p[0], p[1]))).collect(),
                    markers: Markers {
                        positions: usize::MAX,
                        several: false,
                    },
                },
            });
            plot.legend.push(legend::Item {
                glyph: marker(k, ascii),
                style: series_style(k),
                name: trend_name(chart, t.method, f),
            });
        }
    }
    scaled::apply(&mut plot, chart.x_scale, chart.y_scale);
    plot
}

/// The series places (colour, marker) of trend lines after `base`
/// series: the next ones (SVG's legend colours its names in order), in
/// ASCII those whose marker is none of the characters a crowded scatter
/// shades its cells with, so a trend reads as a line over them.
fn slots(base: usize, ascii: bool) -> impl Iterator<Item = usize> {
    const SHADES: [char; 6] = ['.', ':', '+', '*', '#', '@'];
    (base..).filter(move |&k| !ascii || !SHADES.contains(&marker(k, true)))
}

/// A trend line's legend name: `linear trend` (of a series: `NAME,
/// linear trend`).
fn trend_name(chart: &Chart, method: TrendMethod, f: &Fit) -> String {
    if chart.series.len() > 1 {
        format!("{}, {} trend", f.series, method.as_str())
    } else {
        format!("{} trend", method.as_str())
    }
}

/// What the footer says of the drawing: each series' fit (`linear trend:
/// y = 2.1x + 3.4, r² = 0.93, 120 points`), and an axis on a log or
/// square-root scale. Every format says it.
pub(crate) fn notes(chart: &Chart, ascii: bool) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(t) = &chart.trend {
        let fits = trend_fits(chart, t);
        if fits.is_empty() {
            out.push(format!(
                "no {} trend: it needs two x values or more",
                t.method.as_str()
            ));
        }
        if t.method == TrendMethod::Loess && !fits.is_empty() {
            // The same words for every series: said once.
            let of = match fits.as_slice() {
                [one] => format!("{} points", fixed(one.n as f64, 0)),
                _ => "each series' points".into(),
            };
            out.push(format!(
                "loess trend: local regression over the nearest 30% of {of}"
            ));
        } else {
            for f in &fits {
                out.push(fit_text(chart, t.method, f, ascii));
            }
        }
    }
    for (axis, s) in [("y", chart.y_scale), ("x", chart.x_scale)] {
        if let Some(s) = s.filter(|s| *s != ScaleType::Linear) {
            out.push(format!("{axis} on a {} scale", s.as_str()));
        }
    }
    out
}

/// One fit in words.
fn fit_text(chart: &Chart, method: TrendMethod, f: &Fit, ascii: bool) -> String {
    let name = trend_name(chart, method, f);
    let n = format!("{} points", fixed(f.n as f64, 0));
    let (Some(slope), Some(intercept), Some(r2)) = (f.slope, f.intercept, f.r2) else {
        return format!("{name}: {n}");
    };
    let r2_name = if ascii { "r^2" } else { "r²" };
    let fit = if chart.x_type == Some(XType::Date) {
        format!("{} a day", signed(slope * 86_400.0))
    } else {
        let sign = if intercept < 0.0 { "-" } else { "+" };
        format!("y = {}x {sign} {}", short(slope), short(intercept.abs()))
    };
    format!("{name}: {fit}, {r2_name} = {}, {n}", fixed(r2, 3))
}

/// A number with its sign (`+0.52`, `-3.1`).
fn signed(v: f64) -> String {
    if v < 0.0 {
        format!("-{}", short(-v))
    } else {
        format!("+{}", short(v))
    }
}

/// A number to about three significant digits, thousands grouped.
fn short(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return "0".into();
    }
    let mag = v.abs().log10().floor() as i32;
    if !(-4..15).contains(&mag) {
        return format!("{v:.2e}");
    }
    let decimals = (2 - mag).clamp(0, 6) as usize;
    let s = fixed(v.abs(), decimals);
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if v < 0.0 { format!("-{s}") } else { s }
}

/// The Vega-Lite body with the drawing: `scale.type` on the axes of the
/// values and of the x numbers, and a layer per trend computed by
/// Vega-Lite's `regression` or `loess` transform from the same data.
pub(crate) fn vega_lite(chart: &Chart, mut body: Value) -> Value {
    for (field, s) in [("value", chart.y_scale), ("label", chart.x_scale)] {
        let Some(s) = s.filter(|s| *s != ScaleType::Linear) else {
            continue;
        };
        let scale = match (chart.chart_type, s) {
            // Bars run from the log scale's floor, as in the terminal:
            // the domain starts there, not at zero (no log of zero).
            (ChartType::Bar, ScaleType::Log) => {
                let values = chart.series.iter().flat_map(|s| &s.points).map(|p| p.value);
                let floor = scaled::bars_axis(values, None, s, 6).lo;
                json!({"type": "log", "domainMin": s.inverse(floor)})
            }
            _ => json!({"type": s.as_str()}),
        };
        if let Some(enc) = body["encoding"].as_object_mut() {
            for ch in enc.values_mut() {
                if ch["field"] == field && ch["type"] == "quantitative" {
                    ch["scale"] = scale.clone();
                }
            }
        }
    }
    let Some(t) = &chart.trend else {
        return body;
    };
    let Value::Object(mut top) = body else {
        return body;
    };
    let (Some(mark), Some(encoding)) = (top.remove("mark"), top.remove("encoding")) else {
        return Value::Object(top);
    };
    let date = chart.x_type == Some(XType::Date);
    let mut transform = Vec::new();
    let mut on = "label";
    let mut x = encoding["x"].clone();
    if date {
        // Dates are ISO strings in the data: the fit runs on their time.
        transform.push(json!({"calculate": "time(datum.label)", "as": "__t"}));
        on = "__t";
        x["field"] = on.into();
    }
    let mut fit = json!({t.method.as_str(): "value", "on": on});
    if t.method == TrendMethod::Linear {
        fit = json!({"regression": "value", "on": on, "method": "linear"});
    } else {
        fit["bandwidth"] = 0.3.into();
    }
    let several = chart.series.len() > 1;
    if several {
        fit["groupby"] = json!(["series"]);
    }
    transform.push(fit);
    // Where a fit leaves the value scale's reach (below zero on a log
    // axis), the line stops, as in the terminal.
    match chart.y_scale {
        Some(ScaleType::Log) => transform.push(json!({"filter": "datum.value > 0"})),
        Some(ScaleType::Sqrt) => transform.push(json!({"filter": "datum.value >= 0"})),
        _ => {}
    }
    let mut trend_enc = json!({"x": x, "y": encoding["y"].clone()});
    let mut trend_mark = json!({"type": "line", "strokeWidth": 2});
    if several {
        trend_enc["color"] = encoding["color"].clone();
        trend_mark["strokeDash"] = json!([6, 3]);
    } else {
        trend_mark["color"] = "#e45756".into();
    }
    top.insert(
        "layer".into(),
        json!([
            {"mark": mark, "encoding": encoding},
            {"transform": transform, "mark": trend_mark, "encoding": trend_enc}
        ]),
    );
    Value::Object(top)
}
