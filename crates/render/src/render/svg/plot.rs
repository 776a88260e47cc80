//! A layered [`Plot`] (a line chart, or a grammar chart's marks on one
//! pair of axes) drawn with plotters: the axes and their ticks are the
//! terminal's scales (1/2/5 × 10^k with short units, calendar dates,
//! categories; domains and inversion), handed to plotters as key points
//! on a 0..1 axis, so both outputs agree on what the chart says. Bands
//! are drawn first, then every layer in order, a later one over an
//! earlier.

use plotters::prelude::*;

use super::super::plot::axes::{Scale, ScaleKind};
use super::super::plot::{AxisSpec, Layer, Plot, Shape, fit_axis};
use super::super::text::clean_line;
use super::frame::{
    Area, Cartesian, DrawFailed, FONT, INK, MEDIUM, MUTED, SMALL, Ticked, colour, failed,
    text_width,
};

/// Height of the plot body, in pixels.
pub const HEIGHT: u32 = 400;
/// Points of a line drawn with markers, at most.
const MARKED_POINTS: usize = 60;

/// One axis: the terminal's scale and the padding around 0..1 that keeps
/// categories' bars whole.
struct Axis {
    scale: Scale,
    pad: f64,
    /// Most ticks (and labels, grid lines) drawn: a category axis of 1,000
    /// points labels every n-th, as the terminal does, not all on top of
    /// each other.
    most: usize,
}

impl Axis {
    fn new(spec: &AxisSpec, target: usize, tight: bool, is_y: bool) -> Axis {
        let mut scale = fit_axis(spec, target, tight);
        // Categories read top down on y, the first at the top.
        scale.invert ^= is_y && scale.kind == ScaleKind::Category;
        if !is_y && scale.kind == ScaleKind::Category {
            thin_labels(&mut scale);
        }
        let pad = match scale.kind {
            ScaleKind::Category => 0.5 / (scale.hi - scale.lo).max(1.0),
            _ => 0.0,
        };
        Axis {
            scale,
            pad,
            most: target * 2,
        }
    }

    fn at(&self, v: f64) -> f64 {
        self.scale.frac(v)
    }

    /// Width in 0..1 units of `w` in axis values.
    fn span(&self, w: f64) -> f64 {
        let d = self.scale.hi - self.scale.lo;
        if d > 0.0 { w / d } else { 1.0 }
    }

    fn ticked(&self) -> Ticked {
        let step = self.scale.ticks.len().div_ceil(self.most.max(1)).max(1);
        Ticked {
            lo: -self.pad,
            hi: 1.0 + self.pad,
            keys: self
                .scale
                .ticks
                .iter()
                .step_by(step)
                .map(|t| self.at(t.at))
                .collect(),
        }
    }

    /// The label of the tick at (or nearest) `f`.
    fn label(&self, f: f64) -> String {
        self.scale
            .ticks
            .iter()
            .min_by(|a, b| {
                (self.at(a.at) - f)
                    .abs()
                    .total_cmp(&(self.at(b.at) - f).abs())
            })
            .map(|t| clean_line(&t.label, false))
            .unwrap_or_default()
    }
}

/// Pixels the x axis' labels have side by side, at the least.
const X_LABEL_ROOM: i32 = 640;

/// Category labels along x that fit side by side: the first and every
/// stride-th after it, the stride leaving room for the widest.
fn thin_labels(scale: &mut Scale) {
    let widest = scale
        .ticks
        .iter()
        .map(|t| text_width(&t.label, SMALL) + 8)
        .max()
        .unwrap_or(1)
        .max(1);
    let slots = (X_LABEL_ROOM / widest).max(2) as usize;
    let stride = scale.ticks.len().div_ceil(slots).max(1);
    if stride > 1 {
        scale.ticks = std::mem::take(&mut scale.ticks)
            .into_iter()
            .step_by(stride)
            .collect();
    }
}

/// Draws the plot into `area`.
pub fn draw(plot: &Plot, area: &Area) -> Result<(), DrawFailed> {
    let x = Axis::new(&plot.x, 8, true, false);
    let y = Axis::new(&plot.y, 6, false, true);
    let mut chart = ChartBuilder::on(area)
        .margin_left(12)
        .margin_right(28)
        .margin_top(8)
        .x_label_area_size(if plot.x_title.is_some() { 52 } else { 32 })
        .y_label_area_size(if plot.y_title.is_some() { 84 } else { 64 })
        .build_cartesian_2d(x.ticked(), y.ticked())
        .map_err(failed)?;
    let xl = |v: &f64| x.label(*v);
    let yl = |v: &f64| y.label(*v);
    let mut mesh = chart.configure_mesh();
    mesh.x_label_formatter(&xl)
        .y_label_formatter(&yl)
        .label_style((FONT, SMALL).into_font().color(&MUTED))
        .axis_desc_style((FONT, MEDIUM).into_font().color(&INK))
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(RGBColor(0xe5, 0xe7, 0xeb))
        .axis_style(MUTED);
    if let Some(t) = plot.x_title.as_deref().filter(|t| !t.trim().is_empty()) {
        mesh.x_desc(clean_line(t.trim(), false));
    }
    if let Some(t) = plot.y_title.as_deref().filter(|t| !t.trim().is_empty()) {
        mesh.y_desc(clean_line(t.trim(), false));
    }
    mesh.draw().map_err(failed)?;
    let bands = plot
        .layers
        .iter()
        .filter(|l| matches!(l.shape, Shape::Band { .. }));
    let others = plot
        .layers
        .iter()
        .filter(|l| !matches!(l.shape, Shape::Band { .. }));
    for layer in bands.chain(others) {
        draw_layer(&mut chart, layer, &x, &y)?;
    }
    Ok(())
}

/// One layer in its series' colour.
fn draw_layer(chart: &mut Cartesian, layer: &Layer, x: &Axis, y: &Axis) -> Result<(), DrawFailed> {
    let c = colour(layer.series);
    match &layer.shape {
        Shape::Line { points, markers } => line(chart, c, (x, y), points, markers.positions),
        Shape::Points(points) => {
            chart
                .draw_series(
                    points
                        .iter()
                        .map(|(a, b)| Circle::new((x.at(*a), y.at(*b)), 4, c.filled())),
                )
                .map_err(failed)?;
            Ok(())
        }
        Shape::Dots {
            points,
            counts,
            cell,
        } => {
            // Crowded places darker: each dot's opacity grows with its
            // rows, on a log scale up to the fullest; a binned scatter's
            // cells are filled squares, so dense regions are solid.
            let most = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
            let shade = |i: usize| {
                let n = counts.get(i).copied().unwrap_or(1).max(1) as f64;
                let shade = if most > 1.0 { n.ln() / most.ln() } else { 1.0 };
                c.mix(0.3 + 0.7 * shade).filled()
            };
            if let Some([cw, ch]) = cell {
                chart
                    .draw_series(points.iter().enumerate().map(|(i, (a, b))| {
                        let (x0, x1) = (x.at(a - cw / 2.0), x.at(a + cw / 2.0));
                        let (y0, y1) = (y.at(b - ch / 2.0), y.at(b + ch / 2.0));
                        Rectangle::new([(x0, y0), (x1, y1)], shade(i))
                    }))
                    .map_err(failed)?;
                return Ok(());
            }
            chart
                .draw_series(
                    points
                        .iter()
                        .enumerate()
                        .map(|(i, (a, b))| Circle::new((x.at(*a), y.at(*b)), 2, shade(i))),
                )
                .map_err(failed)?;
            Ok(())
        }
        Shape::Area { points, dotted } => area(chart, c, (x, y), points, *dotted),
        Shape::Bars {
            bars,
            slot,
            group,
            groups,
            dotted,
        } => {
            let fill = if *dotted {
                c.mix(0.5).filled()
            } else {
                c.filled()
            };
            columns(chart, fill, (x, y), bars, (*slot, *group, *groups))
        }
        Shape::Band {
            x: bx,
            y: by,
            label,
        } => band(chart, c, (x, y), (*bx, *by), label.as_deref()),
        Shape::Rule {
            x: rx,
            y: ry,
            label,
        } => rule(chart, c, (x, y), (*rx, *ry), label.as_deref()),
    }
}

/// A line in runs broken at its gaps; markers on its points when there
/// are few (`positions` at most [`MARKED_POINTS`]).
fn line(
    chart: &mut Cartesian,
    c: RGBColor,
    (x, y): (&Axis, &Axis),
    points: &[Option<(f64, f64)>],
    positions: usize,
) -> Result<(), DrawFailed> {
    let mut run: Vec<(f64, f64)> = Vec::new();
    let mut runs = Vec::new();
    for p in points {
        match p {
            Some((a, b)) => run.push((x.at(*a), y.at(*b))),
            None => runs.push(std::mem::take(&mut run)),
        }
    }
    runs.push(run);
    for r in &runs {
        chart
            .draw_series(LineSeries::new(r.iter().copied(), c.stroke_width(2)))
            .map_err(failed)?;
    }
    if positions <= MARKED_POINTS {
        let all = runs.iter().flatten().copied();
        chart
            .draw_series(all.map(|p| Circle::new(p, 3, c.filled())))
            .map_err(failed)?;
    }
    Ok(())
}

/// A filled area in x order, from each point down to its `y2` (or the
/// baseline), with its upper edge as a line.
fn area(
    chart: &mut Cartesian,
    c: RGBColor,
    (x, y): (&Axis, &Axis),
    points: &[(f64, f64, Option<f64>)],
    dotted: bool,
) -> Result<(), DrawFailed> {
    let base = y.at(y.scale.baseline());
    let mut sorted = points.to_vec();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let upper = sorted.iter().map(|(a, b, _)| (x.at(*a), y.at(*b)));
    let lower = sorted
        .iter()
        .rev()
        .map(|(a, _, b2)| (x.at(*a), b2.map_or(base, |v| y.at(v))));
    let poly: Vec<(f64, f64)> = upper.chain(lower).collect();
    let alpha = if dotted { 0.2 } else { 0.35 };
    chart
        .draw_series(std::iter::once(Polygon::new(poly, c.mix(alpha).filled())))
        .map_err(failed)?;
    let edge = sorted.iter().map(|(a, b, _)| (x.at(*a), y.at(*b)));
    chart
        .draw_series(LineSeries::new(edge, c.stroke_width(2)))
        .map_err(failed)?;
    Ok(())
}

/// Columns from the baseline, this layer's `group` of `groups` side by
/// side in each slot `slot` wide.
fn columns(
    chart: &mut Cartesian,
    fill: ShapeStyle,
    (x, y): (&Axis, &Axis),
    bars: &[(f64, f64)],
    (slot, group, groups): (f64, usize, usize),
) -> Result<(), DrawFailed> {
    let base = y.at(y.scale.baseline());
    let width = x.span(slot) * 0.8 / groups.max(1) as f64;
    let left = -x.span(slot) * 0.4 + width * group as f64;
    chart
        .draw_series(bars.iter().map(|(a, b)| {
            let x0 = x.at(*a) + left;
            Rectangle::new([(x0, base), (x0 + width, y.at(*b))], fill)
        }))
        .map_err(failed)?;
    Ok(())
}

/// A band's extent along one axis, in values; `None` spans the plot.
type Extent = Option<(f64, f64)>;

/// A shaded band (`None` spans the plot that way), its label at its top
/// left corner.
fn band(
    chart: &mut Cartesian,
    c: RGBColor,
    (x, y): (&Axis, &Axis),
    (bx, by): (Extent, Extent),
    label: Option<&str>,
) -> Result<(), DrawFailed> {
    let (x0, x1) = bx.map_or((-x.pad, 1.0 + x.pad), |(a, b)| (x.at(a), x.at(b)));
    let (y0, y1) = by.map_or((-y.pad, 1.0 + y.pad), |(a, b)| (y.at(a), y.at(b)));
    chart
        .draw_series(std::iter::once(Rectangle::new(
            [(x0, y0), (x1, y1)],
            c.mix(0.15).filled(),
        )))
        .map_err(failed)?;
    match label {
        Some(l) => note(chart, l, MUTED, (x0.min(x1), y0.max(y1)), (4, 4)),
        None => Ok(()),
    }
}

/// A dashed reference line at x (top to bottom) or at y (across), its
/// label beside a vertical one at the top, above a horizontal one.
fn rule(
    chart: &mut Cartesian,
    c: RGBColor,
    (x, y): (&Axis, &Axis),
    (rx, ry): (Option<f64>, Option<f64>),
    label: Option<&str>,
) -> Result<(), DrawFailed> {
    let (from, to) = match (rx, ry) {
        (Some(a), _) => ((x.at(a), -y.pad), (x.at(a), 1.0 + y.pad)),
        (None, Some(b)) => ((-x.pad, y.at(b)), (1.0 + x.pad, y.at(b))),
        (None, None) => return Ok(()),
    };
    chart
        .draw_series(DashedLineSeries::new([from, to], 6, 4, c.stroke_width(2)))
        .map_err(failed)?;
    let Some(l) = label else {
        return Ok(());
    };
    // Beside a vertical rule at the top; above a horizontal one.
    let (at, shift) = if rx.is_some() {
        ((from.0, to.1), (4, 4))
    } else {
        ((from.0, from.1), (4, -18))
    };
    note(chart, l, INK, at, shift)
}

/// A band's or rule's label (none when blank), `shift` pixels from `at`.
fn note(
    chart: &mut Cartesian,
    l: &str,
    ink: RGBColor,
    at: (f64, f64),
    shift: (i32, i32),
) -> Result<(), DrawFailed> {
    if l.trim().is_empty() {
        return Ok(());
    }
    let style = (FONT, SMALL).into_font().color(&ink);
    let label = EmptyElement::at(at) + Text::new(clean_line(l, false), shift, style);
    chart.draw_series(std::iter::once(label)).map_err(failed)?;
    Ok(())
}
