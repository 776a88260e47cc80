//! A scatter of any size in bounded memory (`--chart point`): up to
//! [`EXACT`] points are kept as they are; past that every point is
//! counted in a cell of a grid over the points' extent, and the chart is
//! that grid made as coarse as what is drawn: at most [`OUT_W`] ×
//! [`OUT_H`] cells over all series (about the braille dots of a terminal
//! chart 80 columns wide), each written as one point at the mean of its
//! points with their `count`. So a million points are a few thousand
//! small points in the event, crowded places stay visible (their cells
//! counted, darker in ASCII and SVG, larger in Vega-Lite), and a lone
//! point far out keeps a cell of its own. The counting grid starts
//! [`GRID_W`] × [`GRID_H`] over the first points' extent; a point beyond
//! it adds cells that way, and when the grid would pass [`MAX_CELLS`] its
//! cells are made twice as wide (or high), neighbours merged. Series share
//! the grid. At the end the cells the points occupy are merged in whole
//! blocks (never a fraction of a cell, so no stripes of half-counted
//! cells) down to the chart's size.

use std::collections::HashMap;

/// Points kept as they are, over all series.
pub(crate) const EXACT: usize = 4_000;
/// Cells across and down the counting grid over the first points.
pub(crate) const GRID_W: usize = 256;
pub(crate) const GRID_H: usize = 96;
/// Cells a series' counting grid holds at most.
pub(crate) const MAX_CELLS: usize = 4 * GRID_W * GRID_H;
/// Cells across and down the chart at most, over all its series.
pub(crate) const OUT_W: usize = 128;
pub(crate) const OUT_H: usize = 48;

/// One cell: its points' count and the sums of their positions.
#[derive(Debug, Clone, Copy, Default)]
struct Cell {
    n: u64,
    sx: f64,
    sy: f64,
}

impl Cell {
    /// `other`'s points added to this cell's.
    fn add(&mut self, other: Cell) {
        self.n += other.n;
        self.sx += other.sx;
        self.sy += other.sy;
    }
}

/// The grid: its origin, its cells' size, how many across and down, and
/// each series' cells (row by row).
#[derive(Debug)]
struct Grid {
    x0: f64,
    y0: f64,
    cw: f64,
    ch: f64,
    nx: usize,
    ny: usize,
    cells: Vec<Vec<Cell>>,
}

/// A scatter's points as they come: (series, x, y, label).
#[derive(Debug, Default)]
pub(crate) struct Scatter {
    names: Vec<String>,
    at: HashMap<String, usize>,
    exact: Vec<(usize, f64, f64, String)>,
    grid: Option<Grid>,
    /// Points seen, in all.
    seen: u64,
    /// The last point's series: rows of one series come in runs.
    last: usize,
}

/// A point as drawn: its label, x, y, and its rows when binned.
pub(crate) type Placed = (String, f64, f64, Option<u64>);

/// Each series' name and points, and when binned the size of a drawn
/// cell across and down.
pub(crate) type Finished = (Vec<(String, Vec<Placed>)>, Option<[f64; 2]>);

/// Series a scatter colours at most.
pub(crate) const MAX_SERIES: usize = 12;

impl Scatter {
    /// The series' index, made at its first point; `None` past
    /// [`MAX_SERIES`].
    /// Series made so far.
    pub(crate) fn len(&self) -> usize {
        self.names.len()
    }

    /// The index of a series already made.
    pub(crate) fn known(&self, name: &str) -> Option<usize> {
        self.at.get(name).copied()
    }

    pub(crate) fn series(&mut self, name: &str) -> Option<usize> {
        if self.names.get(self.last).is_some_and(|n| n == name) {
            return Some(self.last);
        }
        if let Some(&i) = self.at.get(name) {
            self.last = i;
            return Some(i);
        }
        if self.names.len() >= MAX_SERIES {
            return None;
        }
        self.at.insert(name.to_string(), self.names.len());
        self.names.push(name.to_string());
        if let Some(g) = &mut self.grid {
            g.cells.push(vec![Cell::default(); g.nx * g.ny]);
        }
        self.last = self.names.len() - 1;
        Some(self.last)
    }

    /// A point of series `s` (non-finite positions are no point);
    /// `label` is asked for only while points are kept as they are.
    pub(crate) fn push(&mut self, s: usize, x: f64, y: f64, label: impl FnOnce() -> String) {
        if !(x.is_finite() && y.is_finite()) {
            return;
        }
        self.seen += 1;
        match &mut self.grid {
            None => {
                self.exact.push((s, x, y, label()));
                if self.exact.len() > EXACT {
                    self.bin_onto_grid();
                }
            }
            Some(g) => g.add(s, x, y),
        }
    }

    /// Points seen, in all.
    pub(crate) fn seen(&self) -> u64 {
        self.seen
    }

    /// Whether points were binned onto the grid.
    pub(crate) fn binned(&self) -> bool {
        self.grid.is_some()
    }

    fn bin_onto_grid(&mut self) {
        let extent = |f: fn(&(usize, f64, f64, String)) -> f64| {
            let lo = self.exact.iter().map(f).fold(f64::INFINITY, f64::min);
            let hi = self.exact.iter().map(f).fold(f64::NEG_INFINITY, f64::max);
            (lo, hi)
        };
        let size = |(lo, hi): (f64, f64), n: usize| {
            let span = hi - lo;
            let span = if span > 0.0 { span } else { lo.abs().max(1.0) };
            // A hair wider, so the largest point falls inside.
            span * (1.0 + 1e-9) / n as f64
        };
        let (xs, ys) = (extent(|p| p.1), extent(|p| p.2));
        let mut g = Grid {
            x0: xs.0,
            y0: ys.0,
            cw: size(xs, GRID_W),
            ch: size(ys, GRID_H),
            nx: GRID_W,
            ny: GRID_H,
            cells: vec![vec![Cell::default(); GRID_W * GRID_H]; self.names.len()],
        };
        for (s, x, y, _) in std::mem::take(&mut self.exact) {
            g.add(s, x, y);
        }
        self.grid = Some(g);
    }

    /// Each series with its points: (label, x, y, count when binned);
    /// and, when binned, the size of a drawn cell across and down.
    pub(crate) fn finish(self) -> Finished {
        let mut out: Vec<(String, Vec<_>)> =
            self.names.iter().map(|n| (n.clone(), Vec::new())).collect();
        match self.grid {
            None => {
                for (s, x, y, label) in self.exact {
                    out[s].1.push((label, x, y, None));
                }
                (out, None)
            }
            Some(g) => {
                let (cells, size) = g.drawn(self.names.len());
                for (s, cells) in cells.into_iter().enumerate() {
                    out[s].1 = cells;
                }
                (out, size)
            }
        }
    }
}

/// `v` to the nearest multiple of a power of ten at most `size` / 100
/// (a hundredth of a drawn cell): short in the event, and as exact as
/// the chart can show.
fn rounded(v: f64, size: f64) -> f64 {
    let exp = (size / 100.0).log10().floor();
    if !(exp.is_finite() && v.is_finite()) {
        return v;
    }
    if exp >= 0.0 {
        let step = 10f64.powi(exp as i32);
        return (v / step).round() * step;
    }
    let digits = (-exp).min(17.0) as usize;
    format!("{v:.digits$}").parse().unwrap_or(v)
}

impl Grid {
    /// Each series' points as drawn: the cells the points occupy merged
    /// in whole blocks until all series together hold at most
    /// [`OUT_W`] × [`OUT_H`] cells, each at its points' mean (rounded to
    /// a hundredth of its size) with their count, row by row.
    fn drawn(&self, series: usize) -> (Vec<Vec<Placed>>, Option<[f64; 2]>) {
        let used = |i: usize| self.cells.iter().any(|s| s[i].n > 0);
        let (mut c0, mut c1, mut r0, mut r1) = (usize::MAX, 0, usize::MAX, 0);
        for i in (0..self.nx * self.ny).filter(|&i| used(i)) {
            let (c, r) = (i % self.nx, i / self.nx);
            (c0, c1, r0, r1) = (c0.min(c), c1.max(c), r0.min(r), r1.max(r));
        }
        if c0 > c1 {
            return (vec![Vec::new(); series], None);
        }
        // Several series share the chart: each gets a coarser grid.
        let share = (series.max(1) as f64).sqrt();
        let (ow, oh) = (
            ((OUT_W as f64 / share) as usize).max(1),
            ((OUT_H as f64 / share) as usize).max(1),
        );
        let (w, h) = (c1 - c0 + 1, r1 - r0 + 1);
        let (fx, fy) = (w.div_ceil(ow), h.div_ceil(oh));
        let (mw, mh) = (w.div_ceil(fx), h.div_ceil(fy));
        let size = (self.cw * fx as f64, self.ch * fy as f64);
        let cells = self
            .cells
            .iter()
            .map(|cells| {
                let mut merged = vec![Cell::default(); mw * mh];
                for (i, c) in cells.iter().enumerate().filter(|(_, c)| c.n > 0) {
                    let (col, row) = ((i % self.nx - c0) / fx, (i / self.nx - r0) / fy);
                    merged[row * mw + col].add(*c);
                }
                merged
                    .into_iter()
                    .filter(|c| c.n > 0)
                    .map(|c| {
                        let x = rounded(c.sx / c.n as f64, size.0);
                        let y = rounded(c.sy / c.n as f64, size.1);
                        (x.to_string(), x, y, Some(c.n))
                    })
                    .collect()
            })
            .collect();
        (cells, Some([size.0, size.1]))
    }

    /// Counts a point, the grid grown until it holds it.
    fn add(&mut self, s: usize, x: f64, y: f64) {
        loop {
            let (cx, cy) = ((x - self.x0) / self.cw, (y - self.y0) / self.ch);
            if !(cx.is_finite() && cy.is_finite()) {
                return;
            }
            if cx >= 0.0 && cy >= 0.0 && cx < self.nx as f64 && cy < self.ny as f64 {
                let c = &mut self.cells[s][cy as usize * self.nx + cx as usize];
                c.n += 1;
                c.sx += x;
                c.sy += y;
                return;
            }
            self.grow(cx, cy);
        }
    }

    /// Adds cells towards cell position (`cx`, `cy`), a quarter more than
    /// it needs; past [`MAX_CELLS`] the cells merge in pairs along the
    /// axis that grows (both when both do) instead.
    fn grow(&mut self, cx: f64, cy: f64) {
        let need = |c: f64, n: usize| -> (usize, usize) {
            if c < 0.0 {
                ((-c).ceil() as usize + n / 4, 0)
            } else if c >= n as f64 {
                (0, (c - n as f64).floor() as usize + 1 + n / 4)
            } else {
                (0, 0)
            }
        };
        let (left, right) = need(cx, self.nx);
        let (below, above) = need(cy, self.ny);
        let (nx, ny) = (self.nx + left + right, self.ny + below + above);
        if nx.saturating_mul(ny) <= MAX_CELLS {
            self.relayout(nx, ny, left, below, (1, 1));
        } else {
            let merge = (
                usize::from(left + right > 0) + 1,
                usize::from(below + above > 0) + 1,
            );
            // Keep the origin on an even cell, so pairs merge whole.
            self.relayout(
                self.nx.div_ceil(merge.0),
                self.ny.div_ceil(merge.1),
                0,
                0,
                merge,
            );
            self.cw *= merge.0 as f64;
            self.ch *= merge.1 as f64;
        }
    }

    /// The cells laid out anew: `nx` × `ny`, the old ones shifted by
    /// (`left`, `below`) cells and merged by `merge` along each axis.
    /// In place (the vector resized, which moves a large one's pages
    /// rather than copying them): a copy held the old grid and the new
    /// one at once, a third of a 1M-point scatter's peak memory.
    fn relayout(&mut self, nx: usize, ny: usize, left: usize, below: usize, merge: (usize, usize)) {
        debug_assert!(merge == (1, 1) || (left, below) == (0, 0));
        let old_nx = self.nx;
        let to = |i: usize| {
            let (col, row) = (
                (i % old_nx + left) / merge.0,
                (i / old_nx + below) / merge.1,
            );
            row * nx + col
        };
        for series in &mut self.cells {
            let old = series.len();
            if merge == (1, 1) {
                // Growing: each row moves up whole, past where every row
                // before it was, so from the last row down none is
                // overwritten unread (a memmove a row, not a look at each
                // cell: a scatter over a rising x grows its grid some
                // thirty times). A cell moved onto an empty one is that
                // cell added to it: a sum starts at +0 and never becomes -0.
                let old_ny = old / old_nx;
                series.resize(nx * ny, Cell::default());
                for r in (0..old_ny).rev() {
                    let from = r * old_nx;
                    series.copy_within(from..from + old_nx, to(from));
                }
                // What no row moved onto is empty.
                for (r, row) in series.chunks_exact_mut(nx).enumerate() {
                    if (below..below + old_ny).contains(&r) {
                        row[..left].fill(Cell::default());
                        row[left + old_nx..].fill(Cell::default());
                    } else {
                        row.fill(Cell::default());
                    }
                }
            } else {
                // Merging: each cell moves down (`to(i)` <= i), into a
                // cell already read, in the order a copy added them.
                for i in 0..old {
                    let c = std::mem::take(&mut series[i]);
                    if c.n > 0 {
                        series[to(i)].add(c);
                    }
                }
                series.truncate(nx * ny);
                series.shrink_to_fit();
            }
        }
        self.x0 -= self.cw * left as f64;
        self.y0 -= self.ch * below as f64;
        (self.nx, self.ny) = (nx, ny);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_points_stay_as_they_are_and_many_are_binned_losing_none() {
        let mut s = Scatter::default();
        let a = s.series("a").unwrap();
        for i in 0..10 {
            s.push(a, f64::from(i), f64::from(i * i), || i.to_string());
        }
        assert!(!s.binned());
        let (out, cell) = s.finish();
        assert_eq!(cell, None);
        assert_eq!(out[0].1.len(), 10);
        assert_eq!(out[0].1[3], ("3".to_string(), 3.0, 9.0, None));

        let mut s = Scatter::default();
        let a = s.series("a").unwrap();
        for i in 0..100_000u32 {
            let x = f64::from(i % 1000);
            s.push(a, x, (x / 10.0).sin(), String::new);
        }
        // Points far outside the grid grow it, in every direction.
        s.push(a, -1e6, 5.0, String::new);
        s.push(a, 1e6, -5.0, String::new);
        assert!(s.binned());
        assert_eq!(s.seen(), 100_002);
        let (out, cell) = s.finish();
        assert!(cell.is_some());
        let pts = &out[0].1;
        assert!(pts.len() <= OUT_W * OUT_H);
        assert_eq!(pts.iter().map(|p| p.3.unwrap()).sum::<u64>(), 100_002);
        assert!(pts.iter().any(|p| p.1 == -1e6 && p.2 == 5.0));
    }

    /// The copy `relayout` was: a new grid, each occupied cell added in.
    fn copied(
        g: &Grid,
        nx: usize,
        ny: usize,
        shift: (usize, usize),
        merge: (usize, usize),
    ) -> Vec<Vec<Cell>> {
        g.cells
            .iter()
            .map(|series| {
                let mut out = vec![Cell::default(); nx * ny];
                for (i, c) in series.iter().enumerate().filter(|(_, c)| c.n > 0) {
                    let (col, row) = (i % g.nx + shift.0, i / g.nx + shift.1);
                    out[row / merge.1 * nx + col / merge.0].add(*c);
                }
                out
            })
            .collect()
    }

    #[test]
    fn cells_relaid_in_place_are_those_a_copy_made() {
        let (nx, ny) = (7, 5);
        let cells = |k: u64| -> Vec<Cell> {
            (0..nx * ny as u64)
                .map(|i| {
                    let n = (i * 7 + k) % 3;
                    if n == 0 {
                        return Cell::default();
                    }
                    Cell {
                        n,
                        sx: (i as f64 + 0.1) * n as f64,
                        // (Not -0: a cell's sum, from +0 up, never is.)
                        sy: -(i as f64 + 1.0) / 3.0 * n as f64,
                    }
                })
                .collect()
        };
        let grid = || Grid {
            x0: 0.0,
            y0: 0.0,
            cw: 1.0,
            ch: 1.0,
            nx: nx as usize,
            ny: ny as usize,
            cells: vec![cells(0), cells(1)],
        };
        let bits = |cells: &[Vec<Cell>]| -> Vec<(u64, u64, u64)> {
            cells
                .iter()
                .flatten()
                .map(|c| (c.n, c.sx.to_bits(), c.sy.to_bits()))
                .collect()
        };
        for (size, shift, merge) in [
            ((9, 8), (2, 3), (1, 1)),
            ((7, 6), (0, 0), (1, 1)),
            ((12, 5), (5, 0), (1, 1)),
            ((4, 5), (0, 0), (2, 1)),
            ((7, 3), (0, 0), (1, 2)),
            ((4, 3), (0, 0), (2, 2)),
        ] {
            let mut g = grid();
            let want = copied(&g, size.0, size.1, shift, merge);
            g.relayout(size.0, size.1, shift.0, shift.1, merge);
            assert_eq!(bits(&g.cells), bits(&want), "{size:?} {shift:?} {merge:?}");
        }
    }
}
