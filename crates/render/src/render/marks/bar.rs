//! The bar: a quick bar chart of a `visualization` event, and the plot
//! grammar's bar mark.
//!
//! A bar chart is one horizontal row per point (the terminal's eighth
//! blocks, SVG's rows, Vega-Lite's horizontal bars in input order,
//! mermaid's horizontal xychart), its value written beside it.
//!
//! Bar marks over categories lay the whole chart out as rows
//! ([`CategoryBars`]: one per category and series, grouped, on one scale,
//! through the bar chart's code; values of one category and series are
//! summed); over numbers or dates they are columns on the shared axes,
//! side by side in a slot as wide as the closest two x positions. In
//! Vega-Lite they are grouped by `xOffset`/`yOffset` over categories and
//! span their slot over numbers or dates; mermaid draws them as bars.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::super::RenderOptions;
use super::super::bar::{self, Row};
use super::super::plot::Shape;
use super::super::text::fixed;
use super::vega::{datum_expr, nonblank, points, titled, unstack, value_title};
use super::{
    Body, ChartKind, GrammarMark, Layers, Mermaid, Picture, VegaLayers, WholeChart, Xy, bars,
    groups,
};
use crate::spec::grammar::{ChartSpec, Column, FieldType, Mark, MarkKind, Resolved};
use crate::spec::{Chart, ScaleType};

pub(super) struct Bar;

impl ChartKind for Bar {
    fn terminal(&self, chart: &Chart, opts: &RenderOptions, lines: &mut Vec<String>) {
        if chart.series.len() > 1 {
            return bars::terminal(chart, opts, lines);
        }
        bar::render(chart, opts, lines);
    }

    fn picture(&self, chart: &Chart) -> Body {
        if chart.series.len() > 1 {
            let title = titled(chart.y_label.as_deref(), chart.unit.as_deref());
            return bars::picture(chart, title);
        }
        Body::Bars {
            rows: rows_of(chart),
            value_title: titled(chart.y_label.as_deref(), chart.unit.as_deref()),
            category: nonblank(chart.x_label.as_deref()).map(str::to_string),
            unit: nonblank(chart.unit.as_deref()).map(str::to_string),
            scale: chart.y_scale,
            extent: Vec::new(),
        }
    }

    /// Horizontal bars, one per point, in input order, as the terminal
    /// draws them.
    fn vega_lite(&self, chart: &Chart) -> Value {
        if chart.series.len() > 1 {
            return bars::vega_lite(chart);
        }
        let values: Vec<Value> = points(chart)
            .map(|(_, label, value)| json!({"label": label, "value": value}))
            .collect();
        json!({
            "width": 480,
            "data": {"values": values},
            "mark": {"type": "bar", "tooltip": true},
            "encoding": {
                "y": {"field": "label", "type": "nominal", "sort": null, "title": nonblank(chart.x_label.as_deref())},
                "x": {"field": "value", "type": "quantitative", "title": value_title(chart)}
            }
        })
    }

    fn mermaid(&self, chart: &Chart) -> Mermaid {
        if chart.series.len() > 1 {
            return bars::mermaid(chart);
        }
        // An xychart's bars are linear: the report shows the data.
        if chart.y_scale.is_some_and(|s| s != ScaleType::Linear) {
            return Mermaid::Refused("bar chart on a log or square-root scale");
        }
        Mermaid::Xy {
            categories: chart
                .series
                .first()
                .map(|s| s.points.iter().map(|p| p.label.clone()).collect())
                .unwrap_or_default(),
            bars: true,
        }
    }
}

/// A quick chart's points as rows of bars, series after series.
pub(super) fn rows_of(chart: &Chart) -> Vec<Row> {
    chart
        .series
        .iter()
        .flat_map(|s| &s.points)
        .map(|p| Row {
            label: p.label.clone(),
            value: p.value,
            series: None,
        })
        .collect()
}

impl GrammarMark for Bar {
    fn whole_chart(&self, spec: &ChartSpec) -> Option<&'static dyn WholeChart> {
        if spec.axis_type(true) == FieldType::String {
            Some(&CategoryBars { on_x: true })
        } else if spec.axis_type(false) == FieldType::String {
            Some(&CategoryBars { on_x: false })
        } else {
            None
        }
    }

    fn layers(&self, b: &mut Layers, m: &Mark) {
        let ys = b.field(m.y.as_deref(), false);
        b.xy(m, ys, true, |b, rows| {
            let bars = rows.points();
            b.add_y(0.0);
            b.slot_columns(bars.iter().map(|p| p.0));
            Shape::Bars {
                bars,
                slot: 1.0,
                group: 0,
                groups: 1,
                dotted: rows.dotted,
            }
        });
    }

    /// Columns over numbers or dates (each spanning its share of the
    /// slot), or bars over categories, grouped by series.
    fn vega_lite(&self, p: &mut VegaLayers, m: &Mark, out: &mut Vec<Value>) {
        let slot = p.slot(m);
        let mut layer = p.xy(m, json!({"type": "bar"}));
        let value_axis = if p.y.continuous() { "y" } else { "x" };
        unstack(&mut layer, value_axis);
        if let (Some((slot, group, groups)), Some(x)) = (slot, &m.x) {
            let pos = if p.x.ty == FieldType::Date {
                format!("time(toDate({}))", datum_expr(x))
            } else {
                format!("toNumber({})", datum_expr(x))
            };
            let width = slot / groups as f64;
            let start = -slot / 2.0 + width * group as f64 + width * 0.05;
            let end = start + width * 0.9;
            layer["transform"] = json!([
                {"calculate": format!("{pos} + ({start})"), "as": "__x0"},
                {"calculate": format!("{pos} + ({end})"), "as": "__x1"}
            ]);
            let mut x0 = p.position(true, &Resolved::Field("__x0"));
            x0["title"] = p.x.title.clone().unwrap_or_else(|| x.clone()).into();
            layer["encoding"]["x"] = x0;
            layer["encoding"]["x2"] = json!({"field": "__x1"});
            // With x2 the bar is a range along x: its length along y
            // needs a baseline of its own.
            layer["encoding"]["y2"] = json!({"datum": 0});
        } else {
            // Several values of one category and series: summed, as the
            // terminal and SVG draw them, and the title says so.
            let labelled = if value_axis == "y" {
                &p.spec.axes.y
            } else {
                &p.spec.axes.x
            }
            .as_ref()
            .is_some_and(|a| a.label.is_some());
            if repeats(p.spec, m, !p.x.continuous()) {
                let value = &mut layer["encoding"][value_axis];
                value["aggregate"] = "sum".into();
                let field = if value_axis == "y" { &m.y } else { &m.x };
                if let (Some(f), false) = (field, labelled) {
                    let unit = p.spec.field(f).and_then(|d| d.unit.as_deref());
                    let label = summed_title(p.spec.field_label(f), true);
                    value["title"] = titled(Some(&label), unit).into();
                }
            }
            if let Some(c) = p.color(m) {
                let offset = if p.x.continuous() {
                    "yOffset"
                } else {
                    "xOffset"
                };
                let mut c = c;
                if let Value::Object(o) = &mut c {
                    o.remove("title");
                }
                layer["encoding"][offset] = c;
            }
        }
        out.push(layer);
    }

    /// A bar's length is its value: along x when its categories are on y.
    fn vega_zero(&self, spec: &ChartSpec, m: &Mark, x: bool) -> bool {
        let category =
            m.y.as_deref()
                .and_then(|f| spec.field_type(f))
                .is_some_and(|t| t == FieldType::String);
        if x { category } else { !category }
    }

    fn mermaid(&self) -> Xy {
        Xy::Plot { bar: true }
    }
}

/// Bars over categories, drawn as rows. `on_x`: the category field is
/// the bars' `x` (else their `y`, Swift Charts' horizontal form).
struct CategoryBars {
    on_x: bool,
}

impl WholeChart for CategoryBars {
    /// Through the bar chart's code; marks other than bars are named in
    /// `notes`.
    fn terminal(
        &self,
        spec: &ChartSpec,
        opts: &RenderOptions,
        lines: &mut Vec<String>,
        notes: &mut Vec<String>,
    ) {
        let (chart, rows, series) = category_chart(spec, self.on_x, notes);
        bar::bars(&chart, &rows, opts, lines);
        if series.len() > 1 {
            let ascii = !opts.unicode;
            bars::series_legend(&series, |i| bar::fill_glyph(Some(i), ascii), opts, lines);
        }
    }

    fn picture(&self, spec: &ChartSpec) -> Picture {
        let mut notes = Vec::new();
        let (chart, rows, series) = category_chart(spec, self.on_x, &mut notes);
        Picture {
            body: Body::Bars {
                rows,
                value_title: chart.y_label,
                category: chart.x_label,
                unit: chart.unit,
                scale: None,
                extent: Vec::new(),
            },
            legend: if series.len() > 1 { series } else { Vec::new() },
            notes: notes
                .into_iter()
                .map(|n| n.replace("in the terminal", "in SVG"))
                .collect(),
        }
    }
}

/// Categories shown as rows, at most.
const MAX_CATEGORIES: usize = 100;

/// Bar values summed per (category, series), both in order of appearance.
#[derive(Default)]
struct Grouped<'a> {
    categories: Vec<String>,
    series: Vec<String>,
    sums: HashMap<(usize, usize), f64>,
    /// The first bar's value field, for the unit and the title.
    value_field: Option<&'a str>,
    /// Marks other than bars, which this layout cannot place.
    skipped: usize,
    /// (category, series) with a value so far.
    seen: std::collections::HashSet<(usize, usize)>,
    /// Some category and series had several values: bars are their sums.
    summed: bool,
}

impl<'a> Grouped<'a> {
    fn gather(spec: &'a ChartSpec, categories_on_x: bool) -> Grouped<'a> {
        let mut g = Grouped::default();
        let mut cat_at: HashMap<String, usize> = HashMap::new();
        for m in &spec.marks {
            if m.kind != MarkKind::Bar {
                g.skipped += 1;
                continue;
            }
            let (cat_f, val_f) = if categories_on_x {
                (&m.x, &m.y)
            } else {
                (&m.y, &m.x)
            };
            let (Some(Column::Text(c)), Some(v)) = (
                cat_f.as_deref().and_then(|f| spec.column(f)),
                val_f.as_deref().and_then(|f| spec.column(f)),
            ) else {
                continue;
            };
            g.value_field = g.value_field.or(val_f.as_deref());
            let vals = v.positions().unwrap_or(&[]);
            for (name, idx) in groups(spec, m, spec.dataset.rows.len()) {
                let si = g.series.iter().position(|n| *n == name).unwrap_or_else(|| {
                    g.series.push(name);
                    g.series.len() - 1
                });
                for i in idx {
                    let (Some(cat), Some(val)) =
                        (c.get(i).cloned().flatten(), vals.get(i).copied().flatten())
                    else {
                        continue;
                    };
                    let ci = *cat_at.entry(cat.clone()).or_insert_with(|| {
                        g.categories.push(cat);
                        g.categories.len() - 1
                    });
                    if !g.seen.insert((ci, si)) {
                        g.summed = true;
                    }
                    *g.sums.entry((ci, si)).or_insert(0.0) += val;
                }
            }
        }
        g
    }

    /// One row per category and series with a value; the category named
    /// on its first row only.
    fn rows(&self) -> Vec<Row> {
        let several = self.series.len() > 1;
        let mut out = Vec::new();
        for (ci, cat) in self.categories.iter().enumerate().take(MAX_CATEGORIES) {
            let mut first = true;
            for si in 0..self.series.len() {
                if let Some(&value) = self.sums.get(&(ci, si)) {
                    out.push(Row {
                        label: if first { cat.clone() } else { String::new() },
                        value,
                        series: several.then_some(si),
                    });
                    first = false;
                }
            }
        }
        out
    }

    fn notes(&self, notes: &mut Vec<String>) {
        if self.skipped > 0 {
            let s = if self.skipped == 1 { "" } else { "s" };
            notes.push(format!(
                "{} mark{s} beside bars over categories not drawn in the terminal",
                self.skipped
            ));
        }
        if self.categories.len() > MAX_CATEGORIES {
            notes.push(format!(
                "showing the first {MAX_CATEGORIES} of {} categories",
                fixed(self.categories.len() as f64, 0)
            ));
        }
    }
}

/// The value title of bars that are sums (`sum(amount)`), else as it is.
fn summed_title(label: &str, summed: bool) -> String {
    if summed {
        format!("sum({label})")
    } else {
        label.to_string()
    }
}

/// Whether a bar mark over categories has several values for one
/// category of one series: its bars are then their sums.
fn repeats(spec: &ChartSpec, m: &Mark, categories_on_x: bool) -> bool {
    let cat_f = if categories_on_x { &m.x } else { &m.y };
    let Some(Column::Text(c)) = cat_f.as_deref().and_then(|f| spec.column(f)) else {
        return false;
    };
    groups(spec, m, spec.dataset.rows.len())
        .into_iter()
        .any(|(_, idx)| {
            let mut seen = std::collections::HashSet::new();
            idx.iter()
                .filter_map(|&i| c.get(i).and_then(Option::as_deref))
                .any(|cat| !seen.insert(cat))
        })
}

/// Bars over categories as a bar chart's rows: the chart (its axis
/// titles and unit), one row per category and series, the series names;
/// what cannot be placed is said in `notes`.
fn category_chart(
    spec: &ChartSpec,
    categories_on_x: bool,
    notes: &mut Vec<String>,
) -> (Chart, Vec<Row>, Vec<String>) {
    let g = Grouped::gather(spec, categories_on_x);
    g.notes(notes);
    let axis_label = |x: bool| {
        let a = if x {
            spec.axes.x.as_ref()
        } else {
            spec.axes.y.as_ref()
        };
        a.and_then(|a| a.label.clone())
    };
    let label_of = |f: Option<&str>| f.map(|f| spec.field_label(f).to_string());
    let cat_field = spec
        .marks
        .iter()
        .find(|m| m.kind == MarkKind::Bar)
        .and_then(|m| {
            if categories_on_x {
                m.x.as_deref()
            } else {
                m.y.as_deref()
            }
        });
    // Several values of one category are summed: the title says so.
    let value_label = label_of(g.value_field).map(|l| summed_title(&l, g.summed));
    let chart = Chart {
        x_label: axis_label(categories_on_x).or_else(|| label_of(cat_field)),
        y_label: axis_label(!categories_on_x).or(value_label),
        unit: g
            .value_field
            .and_then(|f| spec.field(f))
            .and_then(|f| f.unit.clone()),
        ..Chart::default()
    };
    let rows = g.rows();
    (chart, rows, g.series)
}
