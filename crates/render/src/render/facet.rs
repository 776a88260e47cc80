//! Small multiples (`--facet`, issue 36): a chart whose series say their
//! panel ([`Series::facet`](crate::spec::Series)) drawn once per panel,
//! each by its kind's own mark, in a grid laid out to the width.
//!
//! With shared scales (the default) the panels that draw on a pair of
//! axes (lines, scatters) get one x and one y range, the union of all
//! panels' (on a log or square-root axis too), and the axes' titles are
//! said once for the grid instead of in each panel; bars and histograms
//! get one value scale over every panel's values (stacked bars keep
//! their own), in the terminal, SVG and Vega-Lite. Vega-Lite
//! gets one `facet` spec (`resolve` independent when the scales are
//! free), SVG a grid of the panels' pictures, Markdown a section a panel.

use serde_json::{Map, Value, json};

use super::marks::{self, Body};
use super::plot::{self, AxisSpec, Plot};
use super::text::{Style, clean_line, paint, visible_width};
use super::wrap::{pad_left, truncate};
use super::{RenderOptions, fit};
use crate::spec::{Chart, ChartType, Facet, FacetScales};

/// Columns between two panels.
const GAP: usize = 2;
/// The narrowest panel the layout makes when it chooses the columns.
const MIN_PANEL: usize = 18;

/// Panels a row: `--facet-columns`, else as many as fit at
/// [`MIN_PANEL`]; never more than fit at one column each, nor than the
/// panels.
pub(super) fn columns(facet: &Facet, n: usize, width: usize) -> usize {
    let fit = (width + GAP) / (MIN_PANEL + GAP);
    let most = (width + GAP) / (1 + GAP);
    facet.columns.unwrap_or(fit).min(most).min(n).max(1)
}

/// The panels' plots with one x and one y range over all of them, when
/// the scales are shared and the kind draws on axes; their axis titles
/// are taken out (the grid says them once) and returned.
fn shared_plots(chart: &Chart, panels: &[(String, Chart)], ascii: bool) -> Option<SharedPlots> {
    let facet = chart.facet.as_ref()?;
    if facet.scales != FacetScales::Shared {
        return None;
    }
    let kind = marks::chart(chart.chart_type);
    let mut plots: Vec<Option<Plot>> = panels.iter().map(|(_, c)| kind.plot(c, ascii)).collect();
    let first = plots.iter().flatten().next()?;
    let titles = (first.x_title.clone(), first.y_title.clone());
    unify(plots.iter_mut().flatten().map(|p| &mut p.x));
    unify(plots.iter_mut().flatten().map(|p| &mut p.y));
    for p in plots.iter_mut().flatten() {
        p.x_title = None;
        p.y_title = None;
    }
    Some(SharedPlots { plots, titles })
}

struct SharedPlots {
    plots: Vec<Option<Plot>>,
    /// The x and y titles, said once.
    titles: (Option<String>, Option<String>),
}

/// A number, date or scaled axis' min, max and domain (a scaled axis has
/// none: its ends are its range), to be read or set.
type Range<'a> = (&'a mut f64, &'a mut f64, Option<&'a mut Option<(f64, f64)>>);

/// The [`Range`] of a number, date or scaled axis.
fn range(a: &mut AxisSpec) -> Option<Range<'_>> {
    match a {
        AxisSpec::Number {
            min, max, domain, ..
        }
        | AxisSpec::Date {
            min, max, domain, ..
        } => Some((min, max, Some(domain))),
        // A log or square-root axis' ends are where its scale puts them.
        AxisSpec::Scaled { min, max, .. } => Some((min, max, None)),
        AxisSpec::Category { .. } => None,
    }
}

/// The values every bar or histogram panel's scale reaches, when the
/// scales are shared: the smallest and largest of all panels' (stacked
/// bars, whose ends are sums, keep their own).
fn bars_extent(chart: &Chart, panels: &[(String, Chart)]) -> Option<Vec<f64>> {
    let facet = chart.facet.as_ref()?;
    let bars = matches!(chart.chart_type, ChartType::Bar | ChartType::Hist);
    if facet.scales != FacetScales::Shared || !bars || chart.stack.is_some() {
        return None;
    }
    let values = panels
        .iter()
        .flat_map(|(_, c)| c.series.iter().flat_map(|s| &s.points))
        .map(|p| p.value)
        .filter(|v| v.is_finite());
    let lo = values.clone().fold(f64::INFINITY, f64::min);
    let hi = values.fold(f64::NEG_INFINITY, f64::max);
    (lo <= hi).then(|| vec![lo, hi])
}

/// Gives number and date axes the range of them all (category axes keep
/// their own: a position there is an index into the panel's names).
fn unify<'a>(axes: impl Iterator<Item = &'a mut AxisSpec>) {
    let mut axes: Vec<_> = axes.filter_map(range).collect();
    let (mut lo, mut hi, mut domain) = (f64::INFINITY, f64::NEG_INFINITY, false);
    for (min, max, d) in &axes {
        let d = d.as_deref().copied().flatten();
        let (a0, a1) = d.unwrap_or((**min, **max));
        lo = lo.min(a0.min(**min));
        hi = hi.max(a1.max(**max));
        domain |= d.is_some();
    }
    if !(lo.is_finite() && hi.is_finite()) {
        return;
    }
    for (min, max, d) in &mut axes {
        (**min, **max) = (lo, hi);
        if let Some(d) = d {
            **d = domain.then_some((lo, hi));
        }
    }
}

/// The body of a faceted chart in the terminal: the grid of panels, each
/// titled by its value, and the shared axes' titles once.
pub(super) fn terminal(chart: &Chart, opts: &RenderOptions, lines: &mut Vec<String>) {
    let Some(facet) = &chart.facet else {
        return;
    };
    let ascii = !opts.unicode;
    let w = opts.width.max(1);
    let panels = chart.panels();
    let cols = columns(facet, panels.len(), w);
    let pw = (w.saturating_sub(GAP * (cols - 1)) / cols).max(1);
    let popts = RenderOptions {
        width: pw,
        ..opts.clone()
    };
    let mut shared = shared_plots(chart, &panels, ascii);
    let extent = bars_extent(chart, &panels);
    if let Some(t) = shared.as_ref().and_then(|s| s.titles.1.as_deref()) {
        lines.push(paint(
            &truncate(&clean_line(t, ascii), w, ascii),
            Style::Dim,
            opts.color,
        ));
    }
    let kind = marks::chart(chart.chart_type);
    let blocks: Vec<Vec<String>> = panels
        .iter()
        .enumerate()
        .map(|(i, (name, panel))| {
            let mut b = vec![paint(
                &truncate(
                    &clean_line(&format!("{}: {name}", facet.field), ascii),
                    pw,
                    ascii,
                ),
                Style::Bold,
                opts.color,
            )];
            match (shared.as_mut().and_then(|s| s.plots[i].take()), &extent) {
                (Some(p), _) => plot::render(&p, &popts, &mut b),
                (None, Some(e)) => marks::bars_within(panel, e, &popts, &mut b),
                (None, None) => kind.terminal(panel, &popts, &mut b),
            }
            b.into_iter().map(|l| fit(l, pw, opts)).collect()
        })
        .collect();
    for (r, row) in blocks.chunks(cols).enumerate() {
        if r > 0 {
            lines.push(String::new());
        }
        let height = row.iter().map(Vec::len).max().unwrap_or(0);
        for k in 0..height {
            let mut l = String::new();
            for (j, b) in row.iter().enumerate() {
                let cell = b.get(k).map_or("", String::as_str);
                l.push_str(cell);
                if j + 1 < row.len() {
                    l.push_str(&" ".repeat(pw.saturating_sub(visible_width(cell)) + GAP));
                }
            }
            lines.push(l.trim_end().to_string());
        }
    }
    if let Some(t) = shared.as_ref().and_then(|s| s.titles.0.as_deref()) {
        let t = pad_left(&clean_line(t, ascii), w, ascii);
        lines.push(paint(t.trim_end(), Style::Dim, opts.color));
    }
}

/// What SVG draws of each panel: its value and its body (shared scales
/// given to the plots, their titles kept, since each picture is whole).
pub(super) fn pictures(chart: &Chart) -> Vec<(String, Body)> {
    let panels = chart.panels();
    let field = chart.facet.as_ref().map_or("", |f| f.field.as_str());
    let mut shared = shared_plots(chart, &panels, false);
    let extent = bars_extent(chart, &panels);
    let kind = marks::chart(chart.chart_type);
    panels
        .iter()
        .enumerate()
        .map(|(i, (name, panel))| {
            let body = match shared.as_mut().and_then(|s| s.plots[i].take()) {
                Some(mut p) => {
                    if let Some(s) = &shared {
                        (p.x_title, p.y_title) = s.titles.clone();
                    }
                    Body::Plot(p)
                }
                None => kind.picture(panel),
            };
            let mut body = body;
            if let (Body::Bars { extent: e, .. }, Some(shared)) = (&mut body, &extent) {
                e.clone_from(shared);
            }
            (format!("{field}: {name}"), body)
        })
        .collect()
}

/// The Vega-Lite body of a faceted chart: one `facet` over the panels'
/// rows (each row told its panel in `facet`), wrapped in `columns`; a
/// kind whose own body is no single view (a sparkline's rows) is a
/// `vconcat` of the panels instead.
pub(super) fn vega_lite(chart: &Chart) -> Value {
    let Some(facet) = &chart.facet else {
        return Value::Null;
    };
    let kind = marks::chart(chart.chart_type);
    let panels = chart.panels();
    let mut bodies: Vec<(String, Map<String, Value>)> = panels
        .iter()
        // Each panel's body with its drawing (its scale types, its trend).
        .filter_map(
            |(name, p)| match marks::drawing_vega_lite(p, kind.vega_lite(p)) {
                Value::Object(m) => Some((name.clone(), m)),
                _ => None,
            },
        )
        .collect();
    let single = bodies
        .iter()
        .all(|(_, b)| b.contains_key("mark") || b.contains_key("layer"));
    if !single {
        let views: Vec<Value> = bodies
            .into_iter()
            .map(|(name, mut b)| {
                b.insert("title".into(), format!("{}: {name}", facet.field).into());
                Value::Object(b)
            })
            .collect();
        return json!({ "vconcat": views });
    }
    let mut rows: Vec<Value> = Vec::new();
    for (name, b) in &mut bodies {
        if let Some(Value::Array(values)) = b.remove("data").and_then(|d| d.get("values").cloned())
        {
            rows.extend(values.into_iter().map(|mut v| {
                if let Value::Object(m) = &mut v {
                    m.insert("facet".into(), Value::String(name.clone()));
                }
                v
            }));
        }
    }
    let spec = bodies
        .into_iter()
        .next()
        .map(|(_, b)| b)
        .unwrap_or_default();
    let mut out = json!({
        "data": {"values": rows},
        "facet": {"field": "facet", "type": "nominal", "sort": null, "title": facet.field},
        "columns": facet.columns.unwrap_or(panels.len().min(3)),
        "spec": Value::Object(spec),
    });
    if facet.scales == FacetScales::Free {
        out["resolve"] = json!({"scale": {"x": "independent", "y": "independent"}});
    }
    out
}

/// A faceted chart as Markdown: the title, then a section a panel (its
/// value as the heading), each what `each` makes of the panel.
pub(super) fn markdown(
    chart: &Chart,
    inline: fn(&str) -> String,
    each: fn(&Chart) -> String,
) -> String {
    let field = chart.facet.as_ref().map_or("", |f| f.field.as_str());
    let mut s = String::new();
    if let Some(t) = chart.title.as_deref().filter(|t| !t.trim().is_empty()) {
        s.push_str(&format!("**{}**\n\n", inline(t)));
    }
    for (name, panel) in chart.panels() {
        s.push_str(&format!("#### {}: {}\n\n", inline(field), inline(&name)));
        s.push_str(&each(&panel));
        s.push('\n');
    }
    s
}
