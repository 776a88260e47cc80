//! A heatmap's numeric axes binned (issue 36): each axis that viz-parse
//! binned is a run of equal bins, `count` of them from `start`, `step`
//! wide, on Vega's nice edges. The chart carries them so that a renderer
//! draws every bin in numeric order, the empty ones too, and a Vega-Lite
//! export bins the same axes; the bins' labels (`10 – 20`) are written by
//! one rule for the parser's points and the renderer's empty bins alike.

use serde::{Deserialize, Serialize};

/// The binned axes of a heatmap: across (`x`, the points' labels) and
/// down (`series`, the series' names); absent: that axis is categories.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct HeatBins {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<BinAxis>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<BinAxis>,
}

/// `count` bins `step` wide from `start`: bin `k` is
/// `[start + k·step, start + (k+1)·step)`, the last one with its end.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BinAxis {
    pub start: f64,
    pub step: f64,
    pub count: usize,
}

/// Bins a renderer draws at most on one axis (viz-parse's `--bins` is at
/// most 200); an axis saying more is drawn as categories.
pub const MAX_AXIS_BINS: usize = 1_000;

impl BinAxis {
    /// Where bin `k` starts and ends.
    pub fn edges(&self, k: usize) -> (f64, f64) {
        let at = |i: usize| self.start + self.step * i as f64;
        (at(k), at(k + 1))
    }

    /// Bin `k`'s label: `10 – 20`, `0.05 – 0.10`, with the decimals the
    /// step needs.
    pub fn label(&self, k: usize) -> String {
        let (a, b) = self.edges(k);
        let d = edge_decimals(self.step);
        format!("{a:.d$} – {b:.d$}")
    }

    /// Where bin `k` starts, with the decimals of [`Self::label`].
    pub fn start_label(&self, k: usize) -> String {
        let d = edge_decimals(self.step);
        format!("{:.d$}", self.edges(k).0)
    }

    /// Whether a renderer can draw it: a finite step above zero, a count
    /// within [`MAX_AXIS_BINS`].
    pub fn usable(&self) -> bool {
        self.start.is_finite()
            && self.step.is_finite()
            && self.step > 0.0
            && (1..=MAX_AXIS_BINS).contains(&self.count)
    }
}

/// Decimals that write a bin edge of this step: `0.05` needs two.
pub fn edge_decimals(step: f64) -> usize {
    if step >= 1.0 || !step.is_finite() || step <= 0.0 {
        0
    } else {
        ((-(step.log10() + 1e-9).floor()) as usize).min(17)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_have_the_decimals_of_the_step() {
        let a = BinAxis {
            start: 0.0,
            step: 0.05,
            count: 4,
        };
        assert_eq!(a.label(1), "0.05 – 0.10");
        let b = BinAxis {
            start: -100.0,
            step: 50.0,
            count: 3,
        };
        assert_eq!(b.label(2), "0 – 50");
        assert_eq!(b.start_label(1), "-50");
        assert!(b.usable());
        assert!(!BinAxis { count: 0, ..b }.usable());
        assert_eq!(edge_decimals(5.0), 0);
    }
}
