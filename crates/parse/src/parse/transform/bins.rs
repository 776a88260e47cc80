//! `--chart hist`: a column's values counted in bins whose edges a
//! person reads, chosen by Vega's own rule (`bin` with `maxbins`: a step
//! of 1, 2 or 5 times a power of ten, edges on multiples of it, at most
//! `maxbins` bins over the values' extent), so a Vega-Lite export bins
//! alike.
//!
//! The extent is known only at the end, so the values are counted as
//! they come in "atoms": slots a power of ten wide, as fine as 2^20 of
//! them over the values seen allow (4 MiB at most), made ten times wider
//! when the values spread further. Every step the rule can pick is a
//! whole number of atoms, so the bins are summed from them exactly; the
//! first 4,096 values are kept as they are, so a small input is binned
//! from its values.

/// Values kept as they are before counting in atoms.
const EXACT: usize = 4096;
/// Atoms at most.
const MAX_ATOMS: usize = 1 << 20;
/// How far below an atom's edge a value still counts in it: the float
/// noise of `0.3 / 0.01` (Vega allows the same at its bins' edges).
const EDGE: f64 = 1e-9;

/// Vega's bin rule: the first edge, the last, and the step, for values
/// from `min` to `max` in at most `maxbins` bins.
pub(crate) fn nice_bins(min: f64, max: f64, maxbins: usize) -> (f64, f64, f64) {
    let maxb = maxbins.max(1) as f64;
    let logb = 10f64.ln();
    let span = Some(max - min)
        .filter(|s| *s != 0.0)
        .or(Some(min.abs()).filter(|s| *s != 0.0))
        .unwrap_or(1.0);
    let level = (maxb.ln() / logb).ceil();
    let mut step = 10f64.powf((span.ln() / logb).round() - level);
    while (span / step).ceil() > maxb {
        step *= 10.0;
    }
    for div in [5.0, 2.0] {
        let v = step / div;
        if span / v <= maxb {
            step = v;
        }
    }
    let v = step.ln();
    let precision = if v >= 0.0 { 0 } else { (-v / logb) as i32 + 1 };
    let eps = 10f64.powi(-precision - 1);
    let v = (min / step + eps).floor() * step;
    let start = if min < v { v - step } else { v };
    let stop = (max / step).ceil() * step;
    let stop = if stop == start { start + step } else { stop };
    (start, stop, step)
}

/// The values of one column, counted for a histogram.
#[derive(Debug, Default)]
pub(crate) struct Histogram {
    exact: Vec<f64>,
    atoms: Option<Atoms>,
    min: f64,
    max: f64,
    n: u64,
}

/// Counts per atom: atom `i` holds values in `[(lo + i)·w, (lo + i + 1)·w)`,
/// `w = 10^exp`.
#[derive(Debug)]
struct Atoms {
    exp: i32,
    /// `10^exp`, kept: a value's atom is asked a million times.
    w: f64,
    lo: i64,
    counts: Vec<u32>,
}

/// `x.floor() as i64` without the call to libm's `floor` (the target
/// has no rounding instruction): the same value for every `x`, NaN and
/// the saturated ends included.
#[inline]
pub(super) fn floor_i64(x: f64) -> i64 {
    let t = x as i64;
    if (t as f64) > x {
        t.saturating_sub(1)
    } else {
        t
    }
}

impl Atoms {
    fn width(&self) -> f64 {
        self.w
    }

    fn index(&self, v: f64) -> i64 {
        floor_i64(v / self.w + EDGE)
    }

    /// Counts `v`: nearly always in an atom there is already room for.
    #[inline]
    fn add(&mut self, v: f64) {
        // Wrapping: an atom below `lo` (or past the ends of i64) comes out
        // far past the counts' length, and takes the way that grows them.
        let i = self.index(v).wrapping_sub(self.lo) as u64;
        match usize::try_from(i).ok().and_then(|i| self.counts.get_mut(i)) {
            Some(c) => *c = c.saturating_add(1),
            None => self.add_outside(v),
        }
    }

    /// Counts `v` outside the atoms so far: room made for it (or the
    /// atoms coarsened) first.
    #[cold]
    #[inline(never)]
    fn add_outside(&mut self, v: f64) {
        let mut a = self.index(v);
        let hi = self.lo + self.counts.len() as i64;
        if a < self.lo || a >= hi {
            let (lo, hi) = (a.min(self.lo), (a + 1).max(hi));
            if (hi - lo) as usize > MAX_ATOMS {
                self.coarsen();
                return self.add(v);
            }
            // Room on the side that grew, as much again, for what follows.
            let room = self.counts.len().min(MAX_ATOMS - (hi - lo) as usize) as i64;
            let (lo, hi) = if lo < self.lo {
                (lo - room / 2, hi)
            } else {
                (lo, hi + room / 2)
            };
            let mut grown = vec![0u32; (hi - lo) as usize];
            let at = (self.lo - lo) as usize;
            grown[at..at + self.counts.len()].copy_from_slice(&self.counts);
            (self.lo, self.counts) = (lo, grown);
            a = self.index(v);
        }
        let c = &mut self.counts[(a - self.lo) as usize];
        *c = c.saturating_add(1);
    }

    /// Atoms ten times wider, the counts summed into them.
    fn coarsen(&mut self) {
        let lo = self.lo.div_euclid(10);
        let hi = (self.lo + self.counts.len() as i64 - 1).div_euclid(10) + 1;
        let mut wide = vec![0u32; (hi - lo) as usize];
        for (i, c) in self.counts.iter().enumerate() {
            let a = (self.lo + i as i64).div_euclid(10);
            let w = &mut wide[(a - lo) as usize];
            *w = w.saturating_add(*c);
        }
        self.exp += 1;
        self.w = 10f64.powi(self.exp);
        (self.lo, self.counts) = (lo, wide);
    }
}

/// A histogram's bin: `[start, end)` (the last one includes its end) and
/// the values in it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bin {
    pub start: f64,
    pub end: f64,
    pub count: u64,
}

impl Histogram {
    /// Counts a value (a non-finite one is no value).
    #[inline]
    pub(crate) fn push(&mut self, v: f64) {
        // Nearly every value of a long column: counted in an atom. (The
        // value is finite and so is `min`: `<` is `f64::min` here.)
        if let Some(a) = &mut self.atoms
            && v.is_finite()
        {
            if v < self.min {
                self.min = v;
            }
            if v > self.max {
                self.max = v;
            }
            self.n += 1;
            return a.add(v);
        }
        self.push_first(v);
    }

    /// Counts all of `values`.
    pub(crate) fn push_all(&mut self, values: impl Iterator<Item = f64>) {
        for v in values {
            self.push(v);
        }
    }

    /// [`Self::push`] before the values are counted in atoms (or of a
    /// value that is no number).
    #[inline(never)]
    fn push_first(&mut self, v: f64) {
        if !v.is_finite() {
            return;
        }
        if self.n == 0 {
            (self.min, self.max) = (v, v);
        }
        self.min = self.min.min(v);
        self.max = self.max.max(v);
        self.n += 1;
        match &mut self.atoms {
            Some(a) => a.add(v),
            None => {
                self.exact.push(v);
                if self.exact.len() > EXACT {
                    self.count_in_atoms();
                }
            }
        }
    }

    /// The values kept so far go into atoms fine enough for their span.
    fn count_in_atoms(&mut self) {
        let span = (self.max - self.min).max(self.max.abs().max(1e-300) * 1e-9);
        let exp = (span / (MAX_ATOMS / 16) as f64).log10().ceil() as i32;
        let mut atoms = Atoms {
            exp,
            w: 10f64.powi(exp),
            lo: 0,
            counts: Vec::new(),
        };
        atoms.lo = atoms.index(self.min);
        atoms.counts = vec![0; 1];
        for v in std::mem::take(&mut self.exact) {
            atoms.add(v);
        }
        self.atoms = Some(atoms);
    }

    /// The bins, empty ones included, for at most `maxbins` of them.
    pub(crate) fn finish(&self, maxbins: usize) -> Vec<Bin> {
        if self.n == 0 {
            return Vec::new();
        }
        let (start, stop, step) = nice_bins(self.min, self.max, maxbins);
        let n = (((stop - start) / step).round() as usize).max(1);
        let mut counts = vec![0u64; n];
        // `stop - step` can round below `start` (one bin over 2.8:
        // start 2.8000000000000003, stop - step 2.8): clamp to the first
        // bin then, never with bounds the wrong way round.
        let top = (stop - step).max(start);
        let bin_of = |v: f64| {
            let v = v.clamp(start, top);
            ((1e-14 + (v - start) / step).floor().max(0.0) as usize).min(n - 1)
        };
        match &self.atoms {
            None => {
                for &v in &self.exact {
                    counts[bin_of(v)] += 1;
                }
            }
            Some(a) => {
                let w = a.width();
                let per = (step / w).round();
                let whole = per >= 1.0 && ((per * w - step).abs() <= step * 1e-9);
                let first = (start / w).round() as i64;
                for (i, &c) in a.counts.iter().enumerate() {
                    if c == 0 {
                        continue;
                    }
                    let atom = a.lo + i as i64;
                    let k = if whole {
                        ((atom - first).div_euclid(per as i64)).clamp(0, n as i64 - 1) as usize
                    } else {
                        // Atoms wider than a step (values spread past what
                        // 2^20 atoms resolve): placed by their middle.
                        bin_of((atom as f64 + 0.5) * w)
                    };
                    counts[k] += u64::from(c);
                }
            }
        }
        counts
            .into_iter()
            .enumerate()
            .map(|(k, count)| Bin {
                start: start + step * k as f64,
                end: start + step * (k + 1) as f64,
                count,
            })
            .collect()
    }
}

/// Decimals that write a bin edge of this step: `0.05` needs two.
pub(crate) fn edge_decimals(step: f64) -> usize {
    if step >= 1.0 {
        0
    } else {
        (-(step.log10() + 1e-9).floor()) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_i64_is_floor_as_i64() {
        for x in [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            2.999_999,
            -2.000_001,
            1e15 + 0.5,
            -1e15 - 0.5,
            9.3e18,
            -9.3e18,
            1e300,
            -1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
        ] {
            assert_eq!(floor_i64(x), x.floor() as i64, "{x}");
        }
    }

    #[test]
    fn the_rule_is_vegas() {
        // Checked against vega-statistics' bin() in node.
        assert_eq!(nice_bins(0.0, 100.0, 10), (0.0, 100.0, 10.0));
        assert_eq!(nice_bins(3.0, 97.0, 20), (0.0, 100.0, 5.0));
        assert_eq!(nice_bins(-28.0, 1196.0, 20), (-100.0, 1200.0, 100.0));
        let (a, b, s) = nice_bins(0.13, 0.92, 10);
        assert_eq!((a, s), (0.1, 0.1));
        assert!((b - 1.0).abs() < 1e-12);
        assert_eq!(nice_bins(5.0, 5.0, 10), (5.0, 5.5, 0.5));
    }

    #[test]
    fn one_value_is_counted_whatever_its_rounding() {
        // Found by the `json` fuzz target: a lone 2.8 gave a first bin
        // starting at 2.8000000000000003 past `stop - step` = 2.8, and
        // `clamp` panicked on bounds the wrong way round.
        for tenths in 0..2_000 {
            for v in [f64::from(tenths) / 10.0, -f64::from(tenths) / 10.0] {
                let mut h = Histogram::default();
                h.push(v);
                h.push(v);
                for maxbins in [1, 2, 10, 30] {
                    let total: u64 = counts(&h, maxbins).iter().sum();
                    assert_eq!(total, 2, "{v} in {maxbins} bins");
                }
            }
        }
    }

    fn counts(h: &Histogram, maxbins: usize) -> Vec<u64> {
        h.finish(maxbins).iter().map(|b| b.count).collect()
    }

    #[test]
    fn atoms_give_the_counts_the_values_give() {
        // Values on and near the edges of decimal steps, more than are
        // kept exactly: the atoms' bins equal the exact ones.
        let values: Vec<f64> = (0..50_000)
            .map(|i| f64::from(i % 997) / 10.0 + if i % 3 == 0 { 0.3 } else { 0.0 })
            .collect();
        let mut atoms = Histogram::default();
        for &v in &values {
            atoms.push(v);
        }
        assert!(atoms.atoms.is_some());
        for maxbins in [5, 10, 20, 50, 200] {
            let (start, stop, step) = nice_bins(atoms.min, atoms.max, maxbins);
            let n = ((stop - start) / step).round() as usize;
            let mut want = vec![0u64; n];
            for &v in &values {
                let v = v.clamp(start, stop - step);
                want[(((1e-14 + (v - start) / step).floor()) as usize).min(n - 1)] += 1;
            }
            assert_eq!(counts(&atoms, maxbins), want, "{maxbins} bins");
        }
    }

    #[test]
    fn outliers_coarsen_and_every_value_is_counted() {
        let mut h = Histogram::default();
        for i in 0..20_000 {
            h.push(f64::from(i));
        }
        h.push(1e12);
        h.push(-5e11);
        let bins = h.finish(20);
        assert_eq!(bins.iter().map(|b| b.count).sum::<u64>(), 20_002);
        assert!(bins.len() <= 20);
        assert_eq!(edge_decimals(0.05), 2);
        assert_eq!(edge_decimals(0.5), 1);
        assert_eq!(edge_decimals(5.0), 0);
    }
}
