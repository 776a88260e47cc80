//! Log and square-root axes. A plot's number axis on such a scale is
//! drawn on the scale's own line: every layer's values are placed where
//! the scale puts them (`log10 v`, `√v`) and the axis becomes a
//! [`AxisSpec::Scaled`], whose ticks sit at those places labelled with the
//! values (powers of ten on a log axis, with 2 and 5 between when the
//! data spans less than a few decades; nice numbers on a square-root
//! one). Values a scale cannot place (0 or less on a log axis) are left
//! out; viz-parse refuses them before they get here.

use super::super::text::{NumFormat, width, with_unit};
use super::axes::{Scale, ScaleKind, Tick, nice_ticks};
use super::{AxisSpec, Plot, Shape};
use crate::spec::ScaleType;

/// Puts the plot's x and y number axes on their scales (`None` or
/// linear: as they are).
pub fn apply(plot: &mut Plot, x: Option<ScaleType>, y: Option<ScaleType>) {
    let on = |s: Option<ScaleType>, axis: &AxisSpec| {
        s.filter(|s| *s != ScaleType::Linear && matches!(axis, AxisSpec::Number { .. }))
    };
    let (x, y) = (on(x, &plot.x), on(y, &plot.y));
    if x.is_none() && y.is_none() {
        return;
    }
    let fx = |v: f64| x.map_or(Some(v), |s| s.forward(v));
    let fy = |v: f64| y.map_or(Some(v), |s| s.forward(v));
    let both = |(a, b): (f64, f64)| Some((fx(a)?, fy(b)?));
    for layer in &mut plot.layers {
        match &mut layer.shape {
            Shape::Line { points, .. } => {
                for p in points.iter_mut() {
                    *p = p.and_then(both);
                }
            }
            Shape::Points(points) => *points = points.iter().copied().filter_map(both).collect(),
            Shape::Dots {
                points,
                counts,
                cell,
            } => {
                // A cell is a size in the values: no size on these scales.
                *cell = None;
                let kept: Vec<(usize, (f64, f64))> = points
                    .iter()
                    .enumerate()
                    .filter_map(|(i, &p)| Some((i, both(p)?)))
                    .collect();
                if !counts.is_empty() {
                    *counts = kept.iter().map(|(i, _)| counts[*i]).collect();
                }
                *points = kept.into_iter().map(|(_, p)| p).collect();
            }
            Shape::Area { points, .. } => {
                *points = points
                    .iter()
                    .filter_map(|&(a, b, c)| Some((fx(a)?, fy(b)?, c.and_then(fy))))
                    .collect();
            }
            Shape::Bars { bars, .. } => *bars = bars.iter().copied().filter_map(both).collect(),
            Shape::Band { x: bx, y: by, .. } => {
                *bx = bx.and_then(|(a, b)| Some((fx(a)?, fx(b)?)));
                *by = by.and_then(|(a, b)| Some((fy(a)?, fy(b)?)));
            }
            Shape::Rule { x: rx, y: ry, .. } => {
                *rx = rx.and_then(fx);
                *ry = ry.and_then(fy);
            }
        }
    }
    if let Some(s) = x {
        plot.x = scaled(&plot.x, s);
    }
    if let Some(s) = y {
        plot.y = scaled(&plot.y, s);
    }
}

/// A number axis on a scale: its extent where the scale puts it.
fn scaled(axis: &AxisSpec, scale: ScaleType) -> AxisSpec {
    let AxisSpec::Number { min, max, unit, .. } = axis else {
        return axis.clone();
    };
    // The smallest placeable value: a log axis starts at the least value
    // above zero.
    let lo = scale.forward(*min).unwrap_or(match scale {
        ScaleType::Log => -1.0,
        _ => 0.0,
    });
    let hi = scale.forward(*max).unwrap_or(lo + 1.0);
    AxisSpec::Scaled {
        min: lo,
        max: hi.max(lo),
        unit: unit.clone(),
        scale,
    }
}

/// The scale of a [`AxisSpec::Scaled`] axis with about `target` ticks;
/// `tight` ends it at the data (else at the ticks around it).
pub fn fit(
    (min, max): (f64, f64),
    unit: Option<&str>,
    scale: ScaleType,
    target: usize,
    tight: bool,
) -> Scale {
    let (mut lo, mut hi) = (min, max);
    if lo == hi {
        lo -= 0.5;
        hi += 0.5;
    }
    let values: Vec<f64> = match scale {
        ScaleType::Log => {
            if !tight {
                (lo, hi) = (lo.floor(), hi.ceil().max(lo.floor() + 1.0));
            }
            log_ticks(lo, hi, target)
        }
        _ => {
            let (a, b) = (scale.inverse(lo.max(0.0)), scale.inverse(hi.max(0.0)));
            let (nlo, nhi, t) = nice_ticks(a, b, target.max(2));
            if !tight {
                (lo, hi) = (
                    scale.forward(nlo.max(0.0)).unwrap_or(lo),
                    scale.forward(nhi).unwrap_or(hi),
                );
            }
            t
        }
    };
    // Each tick its own digits on a log axis (0.01 beside 100, not
    // 100.00); a square-root axis' nice numbers share theirs.
    let shared = NumFormat::for_values(values.iter().copied());
    let unit = unit.filter(|u| width(u) <= 5);
    let ticks = values
        .into_iter()
        .filter_map(|v| {
            let at = scale.forward(v)?;
            (at >= lo - 1e-9 && at <= hi + 1e-9).then(|| Tick {
                at,
                label: with_unit(
                    &match scale {
                        ScaleType::Log => power_text(v, &NumFormat::for_values([v])),
                        _ => power_text(v, &shared),
                    },
                    unit,
                ),
            })
        })
        .collect();
    Scale {
        kind: ScaleKind::Number,
        lo,
        hi,
        invert: false,
        ticks,
    }
}

/// The value axis of bars on a log or square-root scale, in the scale's
/// own coordinates: from its floor (the power of ten at or below the
/// smallest value on a log axis, zero on a square-root one) to the tick
/// at or past the largest, ticks at powers of ten (nice numbers on a
/// square root). Values the scale cannot place are left out.
pub fn bars_axis(
    values: impl Iterator<Item = f64>,
    unit: Option<&str>,
    scale: ScaleType,
    target: usize,
) -> Scale {
    let placed: Vec<f64> = values.filter_map(|v| scale.forward(v)).collect();
    let hi = placed.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let lo = match scale {
        ScaleType::Log => placed.iter().copied().fold(f64::INFINITY, f64::min),
        _ => 0.0,
    };
    let (lo, hi) = if lo.is_finite() && hi.is_finite() {
        (lo, hi)
    } else {
        (0.0, 1.0)
    };
    fit((lo, hi), unit, scale, target, false)
}

/// A bar's length on `axis` (of [`bars_axis`]): from the floor to where
/// the scale puts `v`; none when it cannot place it.
pub fn bar_length(axis: &Scale, scale: ScaleType, v: f64) -> f64 {
    scale.forward(v).map_or(0.0, |f| (f - axis.lo).max(0.0))
}

/// Ticks of a log axis from 10^lo to 10^hi: every power of ten (every
/// n-th when there are more than `target`), with 2× and 5× between
/// when the powers are fewer than three.
fn log_ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    let (a, b) = (lo.floor() as i32, hi.ceil() as i32);
    if b.saturating_sub(a) > 600 {
        return vec![10f64.powf(lo), 10f64.powf(hi)];
    }
    let powers = (b - a + 1) as usize;
    let step = powers.div_ceil(target.max(2)).max(1);
    let mut out: Vec<f64> = (a..=b)
        .filter(|k| k.rem_euclid(step as i32) == 0)
        .map(|k| 10f64.powi(k))
        .collect();
    let inside = out
        .iter()
        .filter(|v| (lo..=hi).contains(&v.log10()))
        .count();
    if inside < 3 {
        out = (a..=b)
            .flat_map(|k| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(k)))
            .collect();
    }
    out
}

/// A tick value as written: plainly from 0.001 to 999,999, else as a
/// power of ten (`1e9`).
fn power_text(v: f64, fmt: &NumFormat) -> String {
    let k = v.abs().log10();
    if v != 0.0 && !(-3.0..6.0).contains(&k) {
        let e = k.floor() as i32;
        let m = v / 10f64.powi(e);
        if (m - 1.0).abs() < 1e-9 {
            return format!("1e{e}");
        }
        // The mantissa its own digits (1.5e7, not the ticks' shared 2e7).
        let own = NumFormat::for_values([m]);
        return format!("{}e{e}", own.format(m));
    }
    fmt.format(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks_are_powers_of_ten() {
        let s = fit((0.0, 4.0), None, ScaleType::Log, 6, false);
        let labels: Vec<&str> = s.ticks.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels, ["1", "10", "100", "1,000", "10,000"]);
        let s = fit((-6.0, 9.0), None, ScaleType::Log, 4, false);
        let labels: Vec<&str> = s.ticks.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels, ["1e-4", "1", "10,000", "1e8"]);
        let s = fit((-2.0, 2.0), None, ScaleType::Log, 8, false);
        let labels: Vec<&str> = s.ticks.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels, ["0.01", "0.1", "1", "10", "100"]);
    }

    #[test]
    fn a_short_log_span_gets_twos_and_fives() {
        let s = fit((0.3, 1.2), None, ScaleType::Log, 6, true);
        let labels: Vec<&str> = s.ticks.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels, ["2", "5", "10"]);
    }

    #[test]
    fn sqrt_ticks_are_nice_values_at_their_roots() {
        let s = fit((0.0, 10.0), None, ScaleType::Sqrt, 6, false);
        assert_eq!(s.ticks.first().map(|t| t.at), Some(0.0));
        let t = s.ticks.iter().find(|t| t.label == "20").unwrap();
        assert!((t.at - 20f64.sqrt()).abs() < 1e-12);
    }
}
