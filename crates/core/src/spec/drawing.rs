//! How a quick chart draws its points beyond its kind: several series of
//! bars side by side or stacked (`stack`), the value and x axes on a log
//! or square-root scale (`yScale`, `xScale`), and a trend fitted through a
//! scatter or a line (`trend`). The chart event carries each
//! (docs/events.md); this module checks them against the points and fits
//! the trend, so viz-parse writes the fit and every renderer says the
//! same numbers.

use serde::{Deserialize, Serialize};

use super::{Chart, ChartType, SpecError, XType};

/// Several series of bars: stacked from zero, or stacked to 100%.
/// Absent: side by side (grouped). Vega-Lite's `stack` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stack {
    Zero,
    Normalize,
}

/// A continuous axis' scale other than linear. Vega-Lite's `scale.type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScaleType {
    Linear,
    Log,
    Sqrt,
}

impl ScaleType {
    pub fn as_str(self) -> &'static str {
        match self {
            ScaleType::Linear => "linear",
            ScaleType::Log => "log",
            ScaleType::Sqrt => "sqrt",
        }
    }

    /// Where `v` sits on the scale (`None`: it cannot be placed).
    pub fn forward(self, v: f64) -> Option<f64> {
        match self {
            ScaleType::Linear => Some(v),
            ScaleType::Log => (v > 0.0).then(|| v.log10()),
            ScaleType::Sqrt => (v >= 0.0).then(|| v.sqrt()),
        }
    }

    /// The value at a place on the scale.
    pub fn inverse(self, t: f64) -> f64 {
        match self {
            ScaleType::Linear => t,
            ScaleType::Log => 10f64.powf(t),
            ScaleType::Sqrt => t * t,
        }
    }

    /// What values the scale takes, for messages.
    fn takes(self) -> &'static str {
        match self {
            ScaleType::Linear => "any number",
            ScaleType::Log => "values above 0",
            ScaleType::Sqrt => "values of 0 and above",
        }
    }
}

/// The method of a trend. Vega-Lite's `regression` (linear) and `loess`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TrendMethod {
    Linear,
    Loess,
}

impl TrendMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            TrendMethod::Linear => "linear",
            TrendMethod::Loess => "loess",
        }
    }
}

/// A trend through a chart's points: its method and one fit a series.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trend {
    pub method: TrendMethod,
    /// Filled by [`fit`]; a hand-written event may leave it out.
    #[serde(default)]
    pub fits: Vec<Fit>,
}

/// One series' fit. x is the points' `x` (seconds for dates).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    pub series: String,
    /// Points (rows, for a binned scatter) the fit was made from.
    pub n: u64,
    /// Linear: value = slope × x + intercept, and the share of the
    /// variance it explains.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slope: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intercept: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r2: Option<f64>,
    /// The fitted curve, (x, value) in x order: what is drawn.
    pub line: Vec<[f64; 2]>,
}

/// What a caller asks of a chart's drawing (viz-parse's flags).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Drawing {
    pub stack: Option<Stack>,
    pub y_scale: Option<ScaleType>,
    pub x_scale: Option<ScaleType>,
    pub trend: Option<TrendMethod>,
    /// A table's sparkline column (`--chart table --spark`).
    pub spark: Option<SparkRows>,
}

/// Where a table's series per row come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SparkRows {
    /// A wide table: each row a label and a value per column (period).
    Rows,
    /// A long table read with `-s`: each series a row, its points'
    /// labels the columns.
    Series,
}

impl Drawing {
    /// Puts the drawing on a built chart: checks it against the points
    /// and fits the trend. Refuses what cannot be drawn, saying why.
    pub fn apply(self, chart: &mut Chart) -> Result<(), SpecError> {
        chart.stack = self.stack;
        chart.y_scale = self.y_scale.filter(|s| *s != ScaleType::Linear);
        chart.x_scale = self.x_scale.filter(|s| *s != ScaleType::Linear);
        chart.trend = self.trend.map(|method| Trend {
            method,
            fits: Vec::new(),
        });
        check(chart)?;
        if let Some(rows) = self.spark {
            if rows == SparkRows::Series {
                *chart = chart.turned();
            }
            chart.spark = true;
        }
        if let Some(method) = self.trend {
            let fits = fit(chart_points(chart), method);
            chart.trend = Some(Trend { method, fits });
        }
        Ok(())
    }
}

/// A trend's fits: as the chart carries them, else fitted now (a
/// hand-written event may name only the method).
pub fn trend_fits(chart: &Chart, trend: &Trend) -> Vec<Fit> {
    if trend.fits.is_empty() {
        fit(chart_points(chart), trend.method)
    } else {
        trend.fits.clone()
    }
}

/// A series' name and its points as (x, value, weight).
pub type Weighted = (String, Vec<(f64, f64, f64)>);

/// Each series' placed points, for fitting.
fn chart_points(chart: &Chart) -> Vec<Weighted> {
    chart
        .series
        .iter()
        .map(|s| {
            let pts = s
                .points
                .iter()
                .filter_map(|p| {
                    let x = p.x.filter(|x| x.is_finite())?;
                    Some((x, p.value, p.count.unwrap_or(1).max(1) as f64))
                })
                .collect();
            (s.name.clone(), pts)
        })
        .collect()
}

/// The drawing's invariants: a stack over bars of several series; scales
/// on axes of numbers, every value on them placeable; a trend over a
/// scatter or a line with x values.
pub fn check(chart: &Chart) -> Result<(), SpecError> {
    let bad = |m: String| Err(SpecError::Invalid(m));
    if chart.stack.is_some() && chart.chart_type != ChartType::Bar {
        return bad(format!(
            "stack applies to bar charts, not a {} chart",
            chart.chart_type.as_str()
        ));
    }
    let scaled = matches!(chart.chart_type, ChartType::Line | ChartType::Point);
    // Bars' lengths on a log or square-root scale run from its floor.
    let y_scaled = scaled || chart.chart_type == ChartType::Bar;
    if let Some(s) = chart.y_scale.filter(|s| *s != ScaleType::Linear) {
        if !y_scaled {
            return bad(format!(
                "a {} scale on the values applies to line, point and bar charts, not a {} chart",
                s.as_str(),
                chart.chart_type.as_str()
            ));
        }
        if chart.stack.is_some() {
            return bad(format!(
                "stacked bars are lengths added end to end: they take a linear scale, not {}",
                s.as_str()
            ));
        }
        unplaceable(chart, s, "y", |p| Some(p.value))?;
    }
    if let Some(s) = chart.x_scale.filter(|s| *s != ScaleType::Linear) {
        if chart.x_type != Some(XType::Number) || !scaled {
            return bad(format!(
                "a {} scale on x needs x values that are numbers (a scatter, or a line over numbers); this {} chart's x is {}",
                s.as_str(),
                chart.chart_type.as_str(),
                match chart.x_type {
                    Some(XType::Date) => "dates",
                    _ => "categories",
                }
            ));
        }
        unplaceable(chart, s, "x", |p| p.x)?;
    }
    if let Some(t) = &chart.trend {
        let placed = chart.x_type.is_some()
            && chart
                .series
                .iter()
                .flat_map(|s| &s.points)
                .all(|p| p.x.is_some());
        if !matches!(chart.chart_type, ChartType::Line | ChartType::Point) || !placed {
            return bad(format!(
                "a {} trend goes over a scatter or a line whose x are numbers or dates; this {} chart's x {}",
                t.method.as_str(),
                chart.chart_type.as_str(),
                if placed {
                    "has no trend"
                } else {
                    "is categories"
                }
            ));
        }
    }
    Ok(())
}

/// Refuses values a scale cannot place: how many, and the first.
fn unplaceable(
    chart: &Chart,
    scale: ScaleType,
    axis: &str,
    value: impl Fn(&super::Point) -> Option<f64>,
) -> Result<(), SpecError> {
    let mut first = None;
    let mut count = 0usize;
    for s in &chart.series {
        for p in &s.points {
            let Some(v) = value(p) else { continue };
            if scale.forward(v).is_none() {
                count += 1;
                first.get_or_insert((s.name.as_str(), p.label.as_str(), v));
            }
        }
    }
    let Some((series, label, v)) = first else {
        return Ok(());
    };
    let several = chart.series.len() > 1;
    let series = if several {
        format!("series {series:?}, ")
    } else {
        String::new()
    };
    let (s, are) = if count == 1 { ("", "is") } else { ("s", "are") };
    Err(SpecError::Invalid(format!(
        "a {} scale on {axis} takes {}: {count} value{s} {are} not (the first: {series}label {label:?}, {axis} = {v}); \
         leave out the scale, or --filter the rows out",
        scale.as_str(),
        scale.takes()
    )))
}

/// Points a loess curve is evaluated at, at most.
const CURVE: usize = 60;

/// Vega-Lite's default loess bandwidth: the share of points each local
/// fit weighs.
const BANDWIDTH: f64 = 0.3;

/// Each series' fit of (x, value, weight) points: those with fewer than
/// two distinct x have none.
pub fn fit(series: Vec<Weighted>, method: TrendMethod) -> Vec<Fit> {
    series
        .into_iter()
        .filter_map(|(name, mut pts)| {
            pts.retain(|p| p.0.is_finite() && p.1.is_finite());
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (lo, hi) = (pts.first()?.0, pts.last()?.0);
            if lo >= hi {
                return None;
            }
            let n = pts.iter().map(|p| p.2).sum::<f64>() as u64;
            Some(match method {
                TrendMethod::Linear => {
                    let (slope, intercept, r2) = linear(&pts)?;
                    Fit {
                        series: name,
                        n,
                        slope: Some(slope),
                        intercept: Some(intercept),
                        r2: Some(r2),
                        line: (0..CURVE)
                            .map(|i| {
                                let x = lo + (hi - lo) * i as f64 / (CURVE - 1) as f64;
                                [x, slope * x + intercept]
                            })
                            .collect(),
                    }
                }
                TrendMethod::Loess => Fit {
                    series: name,
                    n,
                    slope: None,
                    intercept: None,
                    r2: None,
                    line: loess(&pts, lo, hi),
                },
            })
        })
        .collect()
}

/// Weighted least squares: slope, intercept and r² (1 when the values
/// do not vary). Shifted by the means, so dates in seconds keep their
/// precision.
fn linear(pts: &[(f64, f64, f64)]) -> Option<(f64, f64, f64)> {
    let w: f64 = pts.iter().map(|p| p.2).sum();
    let mx = pts.iter().map(|p| p.0 * p.2).sum::<f64>() / w;
    let my = pts.iter().map(|p| p.1 * p.2).sum::<f64>() / w;
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for &(x, y, k) in pts {
        let (dx, dy) = (x - mx, y - my);
        sxx += k * dx * dx;
        sxy += k * dx * dy;
        syy += k * dy * dy;
    }
    if sxx <= 0.0 || !sxx.is_finite() {
        return None;
    }
    let slope = sxy / sxx;
    let r2 = if syy > 0.0 {
        (sxy * sxy / (sxx * syy)).clamp(0.0, 1.0)
    } else {
        1.0
    };
    let out = (slope, my - slope * mx, r2);
    (out.0.is_finite() && out.1.is_finite()).then_some(out)
}

/// A loess curve (local linear fits, tricube weights over the nearest
/// [`BANDWIDTH`] of the points) at [`CURVE`] places from `lo` to `hi`.
fn loess(pts: &[(f64, f64, f64)], lo: f64, hi: f64) -> Vec<[f64; 2]> {
    let k = ((pts.len() as f64 * BANDWIDTH).ceil() as usize).clamp(2.min(pts.len()), pts.len());
    let mut out = Vec::with_capacity(CURVE);
    let mut dist: Vec<f64> = Vec::with_capacity(pts.len());
    for i in 0..CURVE {
        let x0 = lo + (hi - lo) * i as f64 / (CURVE - 1) as f64;
        dist.clear();
        dist.extend(pts.iter().map(|p| (p.0 - x0).abs()));
        let mut sorted = dist.clone();
        sorted.select_nth_unstable_by(k - 1, f64::total_cmp);
        let h = sorted[k - 1].max(f64::MIN_POSITIVE);
        let local: Vec<(f64, f64, f64)> = pts
            .iter()
            .zip(&dist)
            .filter_map(|(p, d)| {
                let u = d / (h * 1.000_001);
                (u < 1.0).then(|| {
                    let t = 1.0 - u * u * u;
                    (p.0 - x0, p.1, p.2 * t * t * t)
                })
            })
            .filter(|p| p.2 > 0.0)
            .collect();
        let y = match linear(&local) {
            Some((slope, intercept, _)) => Some(intercept + slope * 0.0),
            None => {
                let w: f64 = local.iter().map(|p| p.2).sum();
                (w > 0.0).then(|| local.iter().map(|p| p.1 * p.2).sum::<f64>() / w)
            }
        };
        if let Some(y) = y.filter(|y| y.is_finite()) {
            out.push([x0, y]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(v: &[(f64, f64)]) -> Vec<Weighted> {
        vec![("a".into(), v.iter().map(|&(x, y)| (x, y, 1.0)).collect())]
    }

    #[test]
    fn a_straight_line_fits_exactly() {
        let f = fit(
            pts(&[(1.0, 3.0), (2.0, 5.0), (3.0, 7.0)]),
            TrendMethod::Linear,
        );
        assert_eq!(f.len(), 1);
        assert!((f[0].slope.unwrap() - 2.0).abs() < 1e-12);
        assert!((f[0].intercept.unwrap() - 1.0).abs() < 1e-12);
        assert!((f[0].r2.unwrap() - 1.0).abs() < 1e-12);
        assert_eq!(f[0].line.first(), Some(&[1.0, 3.0]));
    }

    #[test]
    fn noise_lowers_r2_and_loess_follows_a_curve() {
        let v: Vec<(f64, f64)> = (0..40)
            .map(|i| {
                (
                    f64::from(i),
                    f64::from(i * i) + if i % 2 == 0 { 30.0 } else { -30.0 },
                )
            })
            .collect();
        let lin = fit(pts(&v), TrendMethod::Linear);
        let r2 = lin[0].r2.unwrap();
        assert!(r2 > 0.8 && r2 < 1.0, "{r2}");
        let lo = fit(pts(&v), TrendMethod::Loess);
        let mid = lo[0].line.iter().find(|p| p[0] >= 20.0).unwrap();
        assert!((mid[1] - mid[0] * mid[0]).abs() < 40.0, "{mid:?}");
    }

    #[test]
    fn one_x_has_no_fit() {
        assert!(fit(pts(&[(1.0, 3.0), (1.0, 5.0)]), TrendMethod::Linear).is_empty());
        assert!(fit(pts(&[(1.0, 3.0)]), TrendMethod::Loess).is_empty());
    }
}
