//! `--chart heatmap` over numbers: the rows counted on a grid whose
//! numeric axes are binned as `--chart hist` bins one (`bins.rs`: Vega's
//! nice edges, at most `--bins` of them an axis), a categorical axis kept
//! as its categories, each cell a count or an `--aggregate` that merges
//! (count, sum, mean, min, max).
//!
//! The extent of a numeric axis is known only at the end, so its values
//! are placed in "atoms" as they come: slots a power of ten wide, at most
//! ten times the bins an axis asks for, made ten times wider when the
//! values spread further. Every step the bin rule can then pick is a
//! whole number of atoms (it is at least the extent over the bins, and an
//! atom at most a tenth of that), so each bin's cell is the merge of its
//! atoms' cells. Memory follows the atoms and categories, never the rows.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::aggregate::Fnv;
use super::bins::{floor_i64, nice_bins};
use super::{AggregateOp, Overflow};
use crate::spec::BinAxis;

/// How far below an atom's edge a value still counts in it (as in
/// `bins.rs`: the float noise of `0.3 / 0.01`).
const EDGE: f64 = 1e-9;
/// Atoms an axis asks for each bin at least.
const ATOMS_A_BIN: usize = 10;

/// One row's place on an axis: a number, or a category.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Place<'a> {
    Number(f64),
    Category(&'a str),
}

/// One axis as it is counted.
#[derive(Debug)]
enum Axis {
    Numbers {
        maxbins: usize,
        /// Atoms `10^exp` wide; `None` before the first value.
        exp: Option<i32>,
        w: f64,
        lo: i64,
        hi: i64,
        min: f64,
        max: f64,
    },
    Categories {
        max: usize,
        names: Vec<String>,
        at: HashMap<String, usize, BuildHasherDefault<Fnv>>,
    },
}

impl Axis {
    fn numbers(maxbins: usize) -> Axis {
        Axis::Numbers {
            maxbins: maxbins.max(1),
            exp: None,
            w: 1.0,
            lo: 0,
            hi: 0,
            min: 0.0,
            max: 0.0,
        }
    }

    fn categories(max: usize) -> Axis {
        Axis::Categories {
            max,
            names: Vec::new(),
            at: HashMap::default(),
        }
    }
}

/// What a cell holds: enough to merge cells and give any of the
/// operations that merge.
#[derive(Debug, Clone, Copy)]
struct Acc {
    rows: u64,
    valid: u64,
    sum: f64,
    min: f64,
    max: f64,
}

impl Default for Acc {
    fn default() -> Self {
        Acc {
            rows: 0,
            valid: 0,
            sum: 0.0,
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
        }
    }
}

impl Acc {
    fn add(&mut self, v: Option<f64>) {
        self.rows += 1;
        if let Some(v) = v.filter(|v| v.is_finite()) {
            self.valid += 1;
            self.sum += v;
            self.min = self.min.min(v);
            self.max = self.max.max(v);
        }
    }

    fn merge(&mut self, o: &Acc) {
        self.rows += o.rows;
        self.valid += o.valid;
        self.sum += o.sum;
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
    }

    fn value(&self, op: AggregateOp) -> Option<f64> {
        match op {
            AggregateOp::Count => Some(self.rows as f64),
            _ if self.valid == 0 => None,
            AggregateOp::Sum => Some(self.sum),
            AggregateOp::Mean => Some(self.sum / self.valid as f64),
            AggregateOp::Min => Some(self.min),
            AggregateOp::Max => Some(self.max),
            AggregateOp::Median | AggregateOp::Distinct => None,
        }
    }
}

/// Whether an operation merges, so a binned heatmap can give it.
pub(crate) fn merges(op: AggregateOp) -> bool {
    !matches!(op, AggregateOp::Median | AggregateOp::Distinct)
}

type Cells = HashMap<(i64, i64), Acc, BuildHasherDefault<Fnv>>;

/// A heatmap's rows on a grid: across (`x`) and down, each binned or
/// categories.
#[derive(Debug)]
pub(crate) struct HeatGrid {
    op: AggregateOp,
    x: Axis,
    down: Axis,
    cells: Cells,
}

/// A finished axis: its bins, or its categories in the order met.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum AxisOut {
    Bins(BinAxis),
    Categories(Vec<String>),
}

/// The finished grid: each cell's (column, row, value), empty ones left
/// out.
#[derive(Debug)]
pub(crate) struct HeatCells {
    pub x: AxisOut,
    pub down: AxisOut,
    pub cells: Vec<(usize, usize, f64)>,
}

impl HeatGrid {
    /// A grid binning x when `x_bins` (at most that many bins) and down
    /// when `down_bins`; a categorical axis keeps at most `max_groups`.
    pub(crate) fn new(
        op: AggregateOp,
        x_bins: Option<usize>,
        down_bins: Option<usize>,
        max_groups: usize,
    ) -> HeatGrid {
        let axis = |b: Option<usize>| b.map_or_else(|| Axis::categories(max_groups), Axis::numbers);
        HeatGrid {
            op,
            x: axis(x_bins),
            down: axis(down_bins),
            cells: Cells::default(),
        }
    }

    /// Whether the axes (across, down) are binned.
    pub(crate) fn binned(&self) -> (bool, bool) {
        let b = |a: &Axis| matches!(a, Axis::Numbers { .. });
        (b(&self.x), b(&self.down))
    }

    /// Counts a row at (`x`, `down`) with its value (`None`: none, which
    /// a count still counts). A place of the wrong kind for its axis, or
    /// a number that is not finite, is no place: the row is not counted.
    pub(crate) fn push(
        &mut self,
        x: Place,
        down: Place,
        value: Option<f64>,
    ) -> Result<(), Overflow> {
        let Some(i) = self.key(true, x)? else {
            return Ok(());
        };
        let Some(j) = self.key(false, down)? else {
            return Ok(());
        };
        self.cells.entry((i, j)).or_default().add(value);
        Ok(())
    }

    /// A place's key on an axis (`across` or down), room made for it.
    fn key(&mut self, across: bool, p: Place) -> Result<Option<i64>, Overflow> {
        let axis = if across { &mut self.x } else { &mut self.down };
        match (axis, p) {
            (Axis::Categories { max, names, at }, Place::Category(c)) => {
                if let Some(&k) = at.get(c) {
                    return Ok(Some(k as i64));
                }
                if names.len() >= *max {
                    return Err(Overflow::Groups(*max));
                }
                at.insert(c.to_string(), names.len());
                names.push(c.to_string());
                Ok(Some(names.len() as i64 - 1))
            }
            (Axis::Numbers { .. }, Place::Number(v)) if v.is_finite() => {
                Ok(Some(self.atom(across, v)))
            }
            _ => Ok(None),
        }
    }

    /// The atom of `v` on a numeric axis, the atoms made wider first
    /// when it lies past what they may span.
    fn atom(&mut self, across: bool, v: f64) -> i64 {
        loop {
            let axis = if across { &mut self.x } else { &mut self.down };
            let Axis::Numbers {
                maxbins,
                exp,
                w,
                lo,
                hi,
                min,
                max,
            } = axis
            else {
                return 0;
            };
            let e = *exp.get_or_insert_with(|| {
                let first = if v == 0.0 {
                    -9
                } else {
                    v.abs().log10().floor() as i32 - 6
                };
                *w = 10f64.powi(first);
                *lo = floor_i64(v / *w + EDGE);
                *hi = *lo;
                (*min, *max) = (v, v);
                first
            });
            let a = floor_i64(v / *w + EDGE);
            let (nlo, nhi) = ((*lo).min(a), (*hi).max(a));
            let limit = (*maxbins * ATOMS_A_BIN + ATOMS_A_BIN) as i64;
            if nhi.saturating_sub(nlo) < limit {
                (*lo, *hi) = (nlo, nhi);
                *min = min.min(v);
                *max = max.max(v);
                return a;
            }
            // Ten times wider: the keys on this axis divided by ten.
            *exp = Some(e + 1);
            *w = 10f64.powi(e + 1);
            *lo = lo.div_euclid(10);
            *hi = hi.div_euclid(10);
            let old = std::mem::take(&mut self.cells);
            for ((i, j), acc) in old {
                let k = if across {
                    (i.div_euclid(10), j)
                } else {
                    (i, j.div_euclid(10))
                };
                self.cells.entry(k).or_default().merge(&acc);
            }
        }
    }

    /// The bins and cells, each bin's cell the merge of its atoms'.
    pub(crate) fn finish(self) -> HeatCells {
        let (x, xmap) = finish_axis(&self.x);
        let (down, dmap) = finish_axis(&self.down);
        let mut merged: HashMap<(usize, usize), Acc> = HashMap::new();
        for ((i, j), acc) in &self.cells {
            merged.entry((xmap(*i), dmap(*j))).or_default().merge(acc);
        }
        let mut cells: Vec<(usize, usize, f64)> = merged
            .into_iter()
            .filter_map(|(k, acc)| Some((k.0, k.1, acc.value(self.op)?)))
            .collect();
        cells.sort_by_key(|c| (c.1, c.0));
        HeatCells { x, down, cells }
    }
}

/// An axis finished: its bins (or categories), and where each key goes.
fn finish_axis(axis: &Axis) -> (AxisOut, Box<dyn Fn(i64) -> usize + '_>) {
    match axis {
        Axis::Categories { names, .. } => {
            (AxisOut::Categories(names.clone()), Box::new(|k| k as usize))
        }
        Axis::Numbers { exp: None, .. } => (
            AxisOut::Bins(BinAxis {
                start: 0.0,
                step: 1.0,
                count: 0,
            }),
            Box::new(|_| 0),
        ),
        Axis::Numbers {
            maxbins,
            w,
            min,
            max,
            ..
        } => {
            let (start, stop, step) = nice_bins(*min, *max, *maxbins);
            let n = (((stop - start) / step).round() as usize).max(1);
            let w = *w;
            let per = (step / w).round();
            let whole = per >= 1.0 && (per * w - step).abs() <= step * 1e-9;
            let first = (start / w).round() as i64;
            let top = (stop - step).max(start);
            let bin_of = move |v: f64| {
                let v = v.clamp(start, top);
                ((1e-14 + (v - start) / step).floor().max(0.0) as usize).min(n - 1)
            };
            let place = move |a: i64| {
                if whole {
                    (a - first).div_euclid(per as i64).clamp(0, n as i64 - 1) as usize
                } else {
                    bin_of((a as f64 + 0.5) * w)
                }
            };
            let out = AxisOut::Bins(BinAxis {
                start,
                step,
                count: n,
            });
            (out, Box::new(place))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cells the values give binned directly by Vega's rule.
    fn direct(points: &[(f64, f64, f64)], maxbins: (usize, usize), op: AggregateOp) -> HeatCells {
        let ext = |f: fn(&(f64, f64, f64)) -> f64| {
            let lo = points.iter().map(f).fold(f64::INFINITY, f64::min);
            let hi = points.iter().map(f).fold(f64::NEG_INFINITY, f64::max);
            (lo, hi)
        };
        let (xl, xh) = ext(|p| p.0);
        let (yl, yh) = ext(|p| p.1);
        let axis = |lo: f64, hi: f64, m: usize| {
            let (start, stop, step) = nice_bins(lo, hi, m);
            let n = (((stop - start) / step).round() as usize).max(1);
            let top = (stop - step).max(start);
            let b = move |v: f64| {
                ((1e-14 + (v.clamp(start, top) - start) / step).floor() as usize).min(n - 1)
            };
            (
                BinAxis {
                    start,
                    step,
                    count: n,
                },
                b,
            )
        };
        let (xa, xb) = axis(xl, xh, maxbins.0);
        let (ya, yb) = axis(yl, yh, maxbins.1);
        let mut m: HashMap<(usize, usize), Acc> = HashMap::new();
        for p in points {
            m.entry((xb(p.0), yb(p.1))).or_default().add(Some(p.2));
        }
        let mut cells: Vec<_> = m
            .into_iter()
            .filter_map(|(k, a)| Some((k.0, k.1, a.value(op)?)))
            .collect();
        cells.sort_by_key(|c| (c.1, c.0));
        HeatCells {
            x: AxisOut::Bins(xa),
            down: AxisOut::Bins(ya),
            cells,
        }
    }

    #[test]
    fn atoms_merge_into_the_bins_the_values_give() {
        // Values that spread as they come (atoms made wider many times),
        // on and near decimal edges.
        let points: Vec<(f64, f64, f64)> = (0..30_000)
            .map(|i| {
                let x = f64::from(i % 997) / 10.0 + if i % 3 == 0 { 0.3 } else { 0.0 };
                let y = f64::from((i * 7) % 1013) * if i > 20_000 { 25.0 } else { 0.5 };
                (x, y, f64::from(i % 13))
            })
            .collect();
        for op in [
            AggregateOp::Count,
            AggregateOp::Sum,
            AggregateOp::Min,
            AggregateOp::Max,
        ] {
            for bins in [(5, 20), (10, 10), (20, 7), (200, 50)] {
                let mut g = HeatGrid::new(op, Some(bins.0), Some(bins.1), 100);
                for p in &points {
                    g.push(Place::Number(p.0), Place::Number(p.1), Some(p.2))
                        .unwrap();
                }
                let got = g.finish();
                let want = direct(&points, bins, op);
                assert_eq!(got.x, want.x, "{op:?} {bins:?}");
                assert_eq!(got.down, want.down, "{op:?} {bins:?}");
                assert_eq!(got.cells, want.cells, "{op:?} {bins:?}");
            }
        }
    }

    #[test]
    fn a_categorical_axis_beside_a_binned_one() {
        let mut g = HeatGrid::new(AggregateOp::Mean, Some(10), None, 2);
        g.push(Place::Number(1.0), Place::Category("a"), Some(2.0))
            .unwrap();
        g.push(Place::Number(9.0), Place::Category("b"), Some(4.0))
            .unwrap();
        g.push(Place::Number(1.5), Place::Category("a"), Some(4.0))
            .unwrap();
        // A place of the wrong kind is no place.
        g.push(Place::Category("x"), Place::Category("a"), Some(4.0))
            .unwrap();
        assert_eq!(
            g.push(Place::Number(1.0), Place::Category("c"), None),
            Err(Overflow::Groups(2))
        );
        let out = g.finish();
        assert_eq!(out.down, AxisOut::Categories(vec!["a".into(), "b".into()]));
        let AxisOut::Bins(b) = out.x else { panic!() };
        assert_eq!((b.start, b.step, b.count), (1.0, 1.0, 8));
        assert_eq!(out.cells, vec![(0, 0, 3.0), (7, 1, 4.0)]);
        assert!(!merges(AggregateOp::Median));
    }
}
