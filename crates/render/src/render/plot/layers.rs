//! Each layer shape drawn on the canvas, in axis values mapped to dots:
//! lines (with their markers), points, areas and bands of area, bars side
//! by side in their slot, shaded rectangles, rules with their labels.
//! Markers and rule labels are held back and drawn last, over everything:
//! they are what ties a line to the legend and a rule to its meaning.

use std::collections::HashMap;

use super::axes::Scale;
use super::canvas::Canvas;
use super::{Layer, Markers, Shape, fill_glyph, marker, series_style};
use crate::render::text::{Style, clean_line, width};

/// One character put over everything at the end.
type OnTop = (usize, usize, char, Style);

pub struct Painter<'a> {
    canvas: &'a mut Canvas,
    x: &'a Scale,
    y: &'a Scale,
    ascii: bool,
    /// Dots per cell across and down.
    dx: usize,
    dy: usize,
    on_top: Vec<OnTop>,
    /// Points of each series in each cell so far: a cell shows the
    /// marker of the series with the most points there (the later on a
    /// tie), so a dense scatter drawn with markers shows where each
    /// series is, not only the last one drawn.
    votes: HashMap<(usize, usize), Vec<u32>>,
}

impl<'a> Painter<'a> {
    pub fn new(canvas: &'a mut Canvas, x: &'a Scale, y: &'a Scale, ascii: bool) -> Painter<'a> {
        let (dx, dy) = Canvas::dots_per_cell(!ascii);
        Painter {
            canvas,
            x,
            y,
            ascii,
            dx,
            dy,
            on_top: Vec::new(),
            votes: HashMap::new(),
        }
    }

    /// Puts what was held back (markers, rule labels) over the drawing.
    pub fn finish(self) {
        for (col, row, ch, style) in self.on_top {
            self.canvas.glyph(col, row, ch, style);
        }
    }

    /// The dot of a point in axis values.
    fn at(&self, px: f64, py: f64) -> (usize, usize) {
        let (gw, gh) = self.canvas.dots();
        (self.x.x_dot(px, gw), self.y.y_dot(py, gh))
    }

    fn y_dot(&self, v: f64) -> usize {
        self.y.y_dot(v, self.canvas.dots().1)
    }

    pub fn draw(&mut self, layer: &Layer) {
        let s = layer.series;
        match &layer.shape {
            Shape::Line { points, markers } => self.line(s, points, *markers),
            Shape::Points(points) => {
                let (style, mark) = (series_style(s), marker(s, self.ascii));
                for &(px, py) in points {
                    let (gx, gy) = self.at(px, py);
                    let cell = (gx / self.dx, gy / self.dy);
                    if self.vote(cell, s) {
                        self.canvas.glyph(cell.0, cell.1, mark, style);
                    }
                }
            }
            Shape::Dots {
                points,
                counts,
                cell,
            } => self.dots(s, points, counts, *cell),
            Shape::Area { points, dotted } => self.area(s, points, *dotted),
            Shape::Bars {
                bars,
                slot,
                group,
                groups,
                dotted,
            } => self.bars(s, bars, *slot, (*group, *groups), *dotted),
            Shape::Band { x, y, label } => self.band(*x, *y, label.as_deref()),
            Shape::Rule { x, y, label } => self.rule(*x, *y, label.as_deref()),
        }
    }

    /// Counts a point of `series` in `cell`; whether that series now has
    /// as many points there as any other.
    fn vote(&mut self, cell: (usize, usize), series: usize) -> bool {
        let v = self.votes.entry(cell).or_default();
        if v.len() <= series {
            v.resize(series + 1, 0);
        }
        v[series] += 1;
        let most = v.iter().copied().max().unwrap_or(0);
        v[series] == most
    }

    /// Runs of points joined by straight lines (a `None` ends a run), and
    /// the markers: braille dots are too small to find the data points on.
    fn line(&mut self, series: usize, points: &[Option<(f64, f64)>], markers: Markers) {
        let (style, mark) = (series_style(series), marker(series, self.ascii));
        let mut run: Vec<(usize, usize)> = Vec::new();
        let mut all: Vec<(usize, usize)> = Vec::new();
        for p in points.iter().chain(std::iter::once(&None)) {
            if let Some((px, py)) = p {
                run.push(self.at(*px, *py));
                continue;
            }
            if run.len() == 1 {
                self.canvas.dot(run[0].0, run[0].1, style, mark);
            }
            for pair in run.windows(2) {
                self.canvas.line(pair[0], pair[1], style, mark);
            }
            all.append(&mut run);
        }
        // In ASCII the line is drawn with the marker itself.
        if self.ascii {
            return;
        }
        let Markers { positions, several } = markers;
        let marked: Vec<(usize, usize)> = {
            if positions <= (self.canvas.cols() / 3).max(1) || all.len() == 1 {
                all
            } else if several {
                all.last().copied().into_iter().collect()
            } else {
                Vec::new()
            }
        };
        let (dx, dy) = (self.dx, self.dy);
        self.on_top.extend(
            marked
                .into_iter()
                .map(|(px, py)| (px / dx, py / dy, mark, style)),
        );
    }

    /// The dots a point covers: its own, or with `cell` (a binned
    /// scatter's cell size) those of the cell around it, half-open so
    /// that neighbouring cells tile.
    fn covered(&self, px: f64, py: f64, cell: Option<[f64; 2]>) -> [std::ops::Range<usize>; 2] {
        let Some([cw, ch]) = cell else {
            let (gx, gy) = self.at(px, py);
            return [gx..gx + 1, gy..gy + 1];
        };
        let (a, b) = (
            self.at(px - cw / 2.0, py - ch / 2.0),
            self.at(px + cw / 2.0, py + ch / 2.0),
        );
        let span = |u: usize, v: usize| u.min(v)..u.max(v).max(u.min(v) + 1);
        [span(a.0, b.0), span(a.1, b.1)]
    }

    /// A dot per point (with `cell`, its cell's dots). In ASCII, where a
    /// cell holds one character, the cell's rows pick it from a ramp,
    /// more rows darker (on a log scale up to the fullest cell).
    fn dots(
        &mut self,
        series: usize,
        points: &[(f64, f64)],
        counts: &[u64],
        cell: Option<[f64; 2]>,
    ) {
        let style = series_style(series);
        let weight = |i: usize| counts.get(i).copied().unwrap_or(1).max(1);
        if !self.ascii {
            for &(px, py) in points {
                let [xs, ys] = self.covered(px, py, cell);
                for gx in xs {
                    for gy in ys.clone() {
                        self.canvas.dot(gx, gy, style, '.');
                    }
                }
            }
            return;
        }
        const RAMP: [char; 6] = ['.', ':', '+', '*', '#', '@'];
        let mut cells: std::collections::HashMap<(usize, usize), u64> =
            std::collections::HashMap::new();
        for (i, &(px, py)) in points.iter().enumerate() {
            let [xs, ys] = self.covered(px, py, cell);
            for at in xs.flat_map(|gx| ys.clone().map(move |gy| (gx, gy))) {
                let n = cells.entry(at).or_default();
                *n = n.saturating_add(weight(i));
            }
        }
        let most = cells.values().copied().max().unwrap_or(1).max(1) as f64;
        for ((col, row), n) in cells {
            let level = if most > 1.0 {
                ((n as f64).ln() / most.ln() * (RAMP.len() - 1) as f64).round() as usize
            } else {
                0
            };
            self.canvas
                .glyph(col, row, RAMP[level.min(RAMP.len() - 1)], style);
        }
    }

    /// Every dot column between neighbouring points filled from the line
    /// (interpolated) to the baseline, or to the band's other edge.
    fn area(&mut self, series: usize, points: &[(f64, f64, Option<f64>)], dotted: bool) {
        let (style, fill) = (series_style(series), fill_glyph(series, dotted, self.ascii));
        let base = self.y.baseline();
        let mut pts: Vec<(f64, f64, f64)> = points
            .iter()
            .map(|&(px, py, p2)| (self.at(px, py).0 as f64, py, p2.unwrap_or(base)))
            .collect();
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut columns: Vec<(usize, f64, f64)> = Vec::new();
        if let [only] = pts.as_slice() {
            columns.push((only.0 as usize, only.1, only.2));
        }
        for pair in pts.windows(2) {
            let ((x0, a0, b0), (x1, a1, b1)) = (pair[0], pair[1]);
            for gx in x0 as usize..=x1 as usize {
                let t = if x1 > x0 {
                    (gx as f64 - x0) / (x1 - x0)
                } else {
                    0.0
                };
                columns.push((gx, a0 + (a1 - a0) * t, b0 + (b1 - b0) * t));
            }
        }
        for (gx, a, b) in columns {
            let (ya, yb) = (self.y_dot(a), self.y_dot(b));
            self.canvas.fill(gx, ya, yb, style, dotted, fill);
        }
    }

    /// Columns from the baseline, whole cells wide: the slot (less a gap)
    /// shared by the groups, this layer's place `group.0` of `group.1`.
    fn bars(
        &mut self,
        series: usize,
        bars: &[(f64, f64)],
        slot: f64,
        group: (usize, usize),
        dotted: bool,
    ) {
        let (style, fill) = (series_style(series), fill_glyph(series, dotted, self.ascii));
        let (g, groups) = group;
        let cols = self.canvas.cols();
        let extent = (self.x.hi - self.x.lo).abs();
        // A slot is never wider than the plot (a narrow domain can make
        // it so); NaN reads as one column.
        let slot_cols = if extent > 0.0 {
            (slot / extent * cols.saturating_sub(1) as f64).min(cols as f64)
        } else {
            cols as f64
        };
        let gap = if slot_cols >= 3.0 { 1.0 } else { 0.0 };
        let bw = (((slot_cols - gap) / groups.max(1) as f64).floor() as usize).max(1);
        let base = self.y_dot(self.y.baseline());
        for &(px, py) in bars {
            // A bar of no height is no bar (and no stray dot on the axis).
            if py == self.y.baseline() {
                continue;
            }
            let (gx, top) = self.at(px, py);
            let start = (gx / self.dx)
                .saturating_add(g.saturating_mul(bw))
                .saturating_sub(groups.saturating_mul(bw) / 2);
            for col in start..start.saturating_add(bw).min(cols) {
                for gx in col * self.dx..(col + 1) * self.dx {
                    self.canvas.fill(gx, top, base, style, dotted, fill);
                }
            }
        }
    }

    /// Whole cells shaded between the bounds (a missing pair spans the
    /// plot), the label in its top left corner when it fits.
    fn band(&mut self, bx: Option<(f64, f64)>, by: Option<(f64, f64)>, label: Option<&str>) {
        let (cols, rows) = (self.canvas.cols(), self.canvas.rows());
        let (c0, c1) = match bx {
            Some((a, b)) => {
                let (a, b) = (self.at(a, 0.0).0 / self.dx, self.at(b, 0.0).0 / self.dx);
                (a.min(b), a.max(b))
            }
            None => (0, cols.saturating_sub(1)),
        };
        let (r0, r1) = match by {
            Some((a, b)) => {
                let (a, b) = (self.y_dot(a) / self.dy, self.y_dot(b) / self.dy);
                (a.min(b), a.max(b))
            }
            None => (0, rows.saturating_sub(1)),
        };
        let shade = if self.ascii { '.' } else { '░' };
        for r in r0..=r1 {
            for col in c0..=c1 {
                self.canvas.glyph(col, r, shade, Style::Dim);
            }
        }
        // Labels are folded to ASCII: one cell per character.
        if let Some(l) = label.map(|l| clean_line(l.trim(), true))
            && width(&l) <= c1 + 1 - c0
        {
            self.canvas.text(c0, r0, &l, Style::Dim);
        }
    }

    /// A line across the plot at x (its label at the top, right of it
    /// where there is room) or at y (its label at the right end).
    fn rule(&mut self, rx: Option<f64>, ry: Option<f64>, label: Option<&str>) {
        let label = label
            .map(|l| clean_line(l.trim(), true))
            .filter(|l| !l.is_empty());
        let (cols, rows) = (self.canvas.cols(), self.canvas.rows());
        if let Some(v) = rx {
            let col = self.at(v, 0.0).0 / self.dx;
            for r in 0..rows {
                let ch = if self.ascii { '|' } else { '│' };
                self.canvas.glyph(col, r, ch, Style::Dim);
            }
            if let Some(l) = &label {
                let lw = width(l);
                let start = if col + 1 + lw <= cols {
                    col + 1
                } else {
                    col.saturating_sub(lw)
                };
                self.text_on_top(start, 0, l);
            }
        }
        if let Some(v) = ry {
            let row = self.y_dot(v) / self.dy;
            for col in 0..cols {
                let ch = if self.ascii { '-' } else { '─' };
                self.canvas.glyph(col, row, ch, Style::Dim);
            }
            if let Some(l) = &label {
                let l = format!(" {l}");
                self.text_on_top(cols.saturating_sub(width(&l)), row, &l);
            }
        }
    }

    fn text_on_top(&mut self, col: usize, row: usize, s: &str) {
        for (i, ch) in s.chars().enumerate() {
            self.on_top.push((col + i, row, ch, Style::Bold));
        }
    }
}
