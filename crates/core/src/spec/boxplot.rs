//! A box plot's numbers as a chart carries them: each group a series
//! whose points are labelled [`LOWER`], [`Q1`], [`MEDIAN`], [`Q3`],
//! [`UPPER`] (the whiskers' ends and the quartiles), then one [`OUTLIER`]
//! point per value past a whisker; the median point's `count` is the
//! group's rows. Quartiles are Vega's (`quantile`: linear between the
//! two closest ranks, R's type 7), whiskers reach the furthest value
//! within 1.5 times the interquartile range, as Vega-Lite's `boxplot`
//! with `extent: 1.5` draws them, so an export computes the same box.

use super::{Point, Series};

pub const LOWER: &str = "lower";
pub const Q1: &str = "q1";
pub const MEDIAN: &str = "median";
pub const Q3: &str = "q3";
pub const UPPER: &str = "upper";
pub const OUTLIER: &str = "outlier";

/// Whiskers reach this many interquartile ranges past the box.
pub const WHISKER_IQR: f64 = 1.5;
/// Outliers a group keeps on each side, the furthest first: what a
/// terminal row or a picture can show.
pub const MAX_OUTLIERS: usize = 50;

/// One group's box.
#[derive(Debug, Clone, PartialEq)]
pub struct BoxStats {
    pub lower: f64,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub upper: f64,
    /// Values past the whiskers, ascending (at most [`MAX_OUTLIERS`] a side).
    pub outliers: Vec<f64>,
    /// Outliers not kept.
    pub dropped: usize,
    /// The rows of the group.
    pub n: u64,
}

/// The `p` quantile of sorted values, Vega's way (R's type 7).
pub fn quantile(sorted: &[f64], p: f64) -> f64 {
    let n = sorted.len();
    if n == 0 {
        return f64::NAN;
    }
    let h = (n - 1) as f64 * p;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(n - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

impl BoxStats {
    /// The box of some values (non-finite ones ignored); `None` without any.
    pub fn of(values: &mut Vec<f64>) -> Option<BoxStats> {
        values.retain(|v| v.is_finite());
        if values.is_empty() {
            return None;
        }
        values.sort_unstable_by(f64::total_cmp);
        let (q1, median, q3) = (
            quantile(values, 0.25),
            quantile(values, 0.5),
            quantile(values, 0.75),
        );
        let reach = WHISKER_IQR * (q3 - q1);
        let (lo_fence, hi_fence) = (q1 - reach, q3 + reach);
        let inside = values
            .iter()
            .copied()
            .filter(|v| *v >= lo_fence && *v <= hi_fence);
        let lower = inside.clone().fold(f64::INFINITY, f64::min);
        let upper = inside.fold(f64::NEG_INFINITY, f64::max);
        let below: Vec<f64> = values.iter().copied().filter(|v| *v < lo_fence).collect();
        let above: Vec<f64> = values.iter().copied().filter(|v| *v > hi_fence).collect();
        let dropped =
            below.len().saturating_sub(MAX_OUTLIERS) + above.len().saturating_sub(MAX_OUTLIERS);
        let mut outliers: Vec<f64> = below.iter().copied().take(MAX_OUTLIERS).collect();
        outliers.extend(above.iter().rev().take(MAX_OUTLIERS).rev());
        Some(BoxStats {
            lower,
            q1,
            median,
            q3,
            upper,
            outliers,
            dropped,
            n: values.len() as u64,
        })
    }

    /// The group's series: its five numbers, then its outliers.
    pub fn series(&self, name: String) -> Series {
        let mut points: Vec<Point> = [
            (LOWER, self.lower),
            (Q1, self.q1),
            (MEDIAN, self.median),
            (Q3, self.q3),
            (UPPER, self.upper),
        ]
        .into_iter()
        .map(|(l, v)| Point::new(l, v))
        .collect();
        points[2].count = Some(self.n);
        points.extend(self.outliers.iter().map(|&v| Point::new(OUTLIER, v)));
        Series {
            name,
            points,
            facet: None,
        }
    }

    /// Reads a group's box back from its series; `None` when a number is
    /// missing (a hand-written chart).
    pub fn from_series(s: &Series) -> Option<BoxStats> {
        let at = |l: &str| s.points.iter().find(|p| p.label == l);
        let median = at(MEDIAN)?;
        Some(BoxStats {
            lower: at(LOWER)?.value,
            q1: at(Q1)?.value,
            median: median.value,
            q3: at(Q3)?.value,
            upper: at(UPPER)?.value,
            outliers: s
                .points
                .iter()
                .filter(|p| p.label == OUTLIER)
                .map(|p| p.value)
                .collect(),
            dropped: 0,
            n: median.count.unwrap_or(0),
        })
    }

    /// Every number it draws: whiskers' ends and outliers.
    pub fn extent(&self) -> (f64, f64) {
        let lo = self.outliers.iter().copied().fold(self.lower, f64::min);
        let hi = self.outliers.iter().copied().fold(self.upper, f64::max);
        (lo.min(self.q1), hi.max(self.q3))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quartiles_whiskers_and_outliers_as_vega_computes_them() {
        let mut v: Vec<f64> = vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 100.0];
        let b = BoxStats::of(&mut v).unwrap();
        assert_eq!((b.q1, b.median, b.q3), (3.0, 5.0, 7.0));
        assert_eq!((b.lower, b.upper), (1.0, 8.0));
        assert_eq!(b.outliers, vec![100.0]);
        assert_eq!(b.n, 9);
        let back = BoxStats::from_series(&b.series("g".into())).unwrap();
        assert_eq!(back.outliers, b.outliers);
        assert_eq!(back.n, 9);
        assert_eq!(quantile(&[1.0, 2.0], 0.25), 1.25);
        assert!(BoxStats::of(&mut vec![f64::NAN]).is_none());
    }
}
