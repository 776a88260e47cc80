//! Line charts: a braille canvas (2×4 dots per cell) or, in ASCII, one
//! marker character per cell (`*`, `+`, `o`, ...), with y ticks at nice
//! numbers, x labels where they fit, a marker on each data point when the
//! points are few, and a legend for several series. The x positions are
//! the union of all series' labels, in an order each series keeps (see
//! [`label_union`]).

use std::collections::{HashMap, HashSet};

use super::RenderOptions;
use super::text::{
    Line, NumFormat, PALETTE, Style, clean_line, nice_step, pad_left, paint, truncate, width,
};
use crate::spec::Chart;

const MARKERS: [char; 5] = ['●', '◆', '▲', '■', '▼'];
const ASCII_MARKERS: [char; 8] = ['*', '+', 'o', 'x', '#', '%', '@', '&'];

pub fn render(chart: &Chart, opts: &RenderOptions, lines: &mut Vec<String>) {
    let ascii = !opts.unicode;
    let w = opts.width.max(1);
    let c = opts.color;

    // The x axis: every label once, in an order every series agrees with;
    // each point is drawn at its label's place on it.
    let xs = label_union(chart);
    let index: HashMap<&str, usize> = xs.iter().enumerate().map(|(i, &l)| (l, i)).collect();
    let values = || {
        chart
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.value))
    };
    let ymin = values().fold(f64::INFINITY, f64::min);
    let ymax = values().fold(f64::NEG_INFINITY, f64::max);
    if !(ymin.is_finite() && ymax.is_finite()) {
        lines.push(paint("(no data)", Style::Dim, c));
        return;
    }

    let rows = opts.height.max(2).min((w / 4).max(3));
    let (lo, hi, ticks) = axis(ymin, ymax, (rows / 3 + 1).max(3));
    let tick_fmt = NumFormat::for_values(ticks.iter().copied());
    let tick_labels: Vec<String> = ticks.iter().map(|&t| tick_fmt.format(t)).collect();
    let tw = tick_labels
        .iter()
        .map(|t| width(t))
        .max()
        .unwrap_or(0)
        .min(w.saturating_sub(3) / 2);
    let pw = w.saturating_sub(tw + 2).max(1);

    let (dx, dy) = if ascii { (1, 1) } else { (2, 4) };
    let (gw, gh) = (pw * dx, rows * dy);
    let n = xs.len();
    let x_of = |i: usize| -> usize {
        if n <= 1 {
            gw / 2
        } else {
            ((i as f64) * (gw - 1) as f64 / (n - 1) as f64).round() as usize
        }
    };
    let frac = |v: f64| -> f64 {
        let d = hi / 2.0 - lo / 2.0;
        if d > 0.0 {
            ((v / 2.0 - lo / 2.0) / d).clamp(0.0, 1.0)
        } else {
            0.5
        }
    };
    let y_of = |v: f64| -> usize { ((1.0 - frac(v)) * (gh - 1) as f64).round() as usize };

    // The canvas: braille bits (or an ASCII marker) and the series that
    // drew each cell last, for its colour.
    let mut bits = vec![0u8; pw * rows];
    let mut glyph: Vec<Option<char>> = vec![None; pw * rows];
    let mut owner: Vec<usize> = vec![0; pw * rows];
    let several = chart.series.len() > 1;
    let sparse = n <= (pw / 3).max(1);
    for (si, s) in chart.series.iter().enumerate() {
        let pts: Vec<(usize, usize)> = s
            .points
            .iter()
            .map(|p| (x_of(index[p.label.as_str()]), y_of(p.value)))
            .collect();
        let mut plot = |x: usize, y: usize| {
            let cell = (y / dy) * pw + x / dx;
            if ascii {
                glyph[cell] = Some(ASCII_MARKERS[si % ASCII_MARKERS.len()]);
            } else {
                bits[cell] |= braille_bit(x % 2, y % 4);
            }
            owner[cell] = si;
        };
        if pts.len() == 1 {
            plot(pts[0].0, pts[0].1);
        }
        for pair in pts.windows(2) {
            segment(pair[0], pair[1], &mut plot);
        }
        // Braille dots are too small to find the data points on: when
        // there is room (or a lone point) every point gets its series'
        // marker; a dense series with others gets one on its last point,
        // to tie it to the legend. In ASCII the line is drawn with the
        // marker itself, one character per cell, so there is nothing to add.
        if !ascii {
            let marked: Vec<(usize, usize)> = if sparse || pts.len() == 1 {
                pts.clone()
            } else if several {
                pts.last().copied().into_iter().collect()
            } else {
                Vec::new()
            };
            for (x, y) in marked {
                let cell = (y / dy) * pw + x / dx;
                glyph[cell] = Some(MARKERS[si % MARKERS.len()]);
                owner[cell] = si;
            }
        }
    }

    // The y title above the plot.
    let unit = chart
        .unit
        .as_deref()
        .map(|u| clean_line(u.trim(), ascii))
        .filter(|u| !u.is_empty());
    let y_label = chart
        .y_label
        .as_deref()
        .map(|y| clean_line(y.trim(), ascii))
        .filter(|y| !y.is_empty());
    let y_title = match (y_label, unit) {
        (Some(y), Some(u)) => Some(format!("{y} ({u})")),
        (Some(y), None) => Some(y),
        (None, Some(u)) => Some(format!("({u})")),
        (None, None) => None,
    };
    if let Some(t) = y_title {
        lines.push(paint(&truncate(&t, w, ascii), Style::Dim, c));
    }

    // Which canvas row each tick lands on; ticks sharing a row keep the first.
    let mut tick_at: Vec<Option<usize>> = vec![None; rows];
    for (k, &t) in ticks.iter().enumerate() {
        let r = y_of(t) / dy;
        if tick_at[r].is_none() {
            tick_at[r] = Some(k);
        }
    }
    for (r, tick) in tick_at.iter().enumerate() {
        let mut l = Line::new();
        let (label, axis) = match *tick {
            // ASCII ticks stay `|`: a `+` would read as the second series.
            Some(k) => (tick_labels[k].as_str(), if ascii { "|" } else { "┤" }),
            None => ("", if ascii { "|" } else { "│" }),
        };
        l.push(&pad_left(label, tw, ascii), Style::Dim, c);
        l.plain(" ");
        l.push(axis, Style::Dim, c);
        // Runs of one colour share one escape sequence.
        let mut run = String::new();
        let mut run_style = Style::Plain;
        for x in 0..pw {
            let cell = r * pw + x;
            let (ch, style) = match glyph[cell] {
                Some(g) => (g, series_style(owner[cell])),
                None if bits[cell] != 0 => (
                    char::from_u32(0x2800 + u32::from(bits[cell])).unwrap_or(' '),
                    series_style(owner[cell]),
                ),
                None => (' ', Style::Plain),
            };
            if style != run_style && !run.is_empty() {
                l.push(&run, run_style, c);
                run.clear();
            }
            run_style = style;
            run.push(ch);
        }
        l.push(&run, run_style, c);
        lines.push(l.finish());
    }
    let mut axis = Line::new();
    axis.plain(&" ".repeat(tw + 1));
    let (corner, rule) = if ascii { ("+", "-") } else { ("└", "─") };
    axis.push(&format!("{corner}{}", rule.repeat(pw)), Style::Dim, c);
    lines.push(axis.finish());

    // X labels: first and last always, others where they fit.
    let labels: Vec<String> = xs.iter().map(|l| clean_line(l, ascii)).collect();
    let limit = if n > 1 {
        (pw.saturating_sub(1) / 2).max(1)
    } else {
        pw
    };
    let cut: Vec<String> = labels.iter().map(|l| truncate(l, limit, ascii)).collect();
    let mut placed: Vec<(usize, usize, usize)> = Vec::new(); // (start, width, index)
    let try_place = |i: usize, placed: &mut Vec<(usize, usize, usize)>| {
        let lw = width(&cut[i]);
        if lw == 0 || lw > pw {
            return;
        }
        let center = x_of(i) / dx;
        let start = if n > 1 && i == 0 {
            0
        } else if n > 1 && i == n - 1 {
            pw - lw
        } else {
            center.saturating_sub(lw / 2).min(pw - lw)
        };
        let clash = placed
            .iter()
            .any(|&(s, w, _)| start < s + w + 1 && s < start + lw + 1);
        if !clash {
            placed.push((start, lw, i));
        }
    };
    if n > 0 {
        try_place(0, &mut placed);
    }
    if n > 1 {
        try_place(n - 1, &mut placed);
        let widest = cut.iter().map(|l| width(l)).max().unwrap_or(1) + 2;
        let slots = (pw / widest).max(2);
        let stride = (n - 1).div_ceil(slots - 1).max(1);
        let mut i = stride;
        while i < n - 1 {
            try_place(i, &mut placed);
            i += stride;
        }
    }
    placed.sort();
    let mut xl = String::new();
    let mut col = 0;
    for (start, lw, i) in placed {
        xl.push_str(&" ".repeat(start - col));
        xl.push_str(&cut[i]);
        col = start + lw;
    }
    if !xl.is_empty() {
        let mut l = Line::new();
        l.plain(&" ".repeat(tw + 2));
        l.push(&xl, Style::Dim, c);
        lines.push(l.finish());
    }
    if let Some(x) = chart
        .x_label
        .as_deref()
        .map(|x| clean_line(x.trim(), ascii))
        .filter(|x| !x.is_empty())
    {
        lines.push(paint(pad_left(&x, w, ascii).trim_end(), Style::Dim, c));
    }

    if several {
        legend(chart, opts, lines);
    }
}

/// Every label of every series once. A label new to the union goes just
/// before the next label of its own series that the union already has
/// (else at the end), so a series with a gap (a missing cell of a wide
/// table) does not push the labels only others have after its own:
/// `a: 01, 03` and `b: 02, 03` give `01, 02, 03`, not `01, 03, 02`.
fn label_union(chart: &Chart) -> Vec<&str> {
    let mut xs: Vec<&str> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for s in &chart.series {
        let labels: Vec<&str> = s.points.iter().map(|p| p.label.as_str()).collect();
        // For each point, the next label of this series already in the
        // union before this series, found in one pass from the end.
        let mut anchor: Vec<Option<&str>> = vec![None; labels.len()];
        let mut next = None;
        for (i, &l) in labels.iter().enumerate().rev() {
            anchor[i] = next;
            if seen.contains(l) {
                next = Some(l);
            }
        }
        for (i, &l) in labels.iter().enumerate() {
            if !seen.insert(l) {
                continue;
            }
            match anchor[i].and_then(|a| xs.iter().position(|&x| x == a)) {
                Some(at) => xs.insert(at, l),
                None => xs.push(l),
            }
        }
    }
    xs
}

fn series_style(i: usize) -> Style {
    Style::Fg(PALETTE[i % PALETTE.len()])
}

fn legend(chart: &Chart, opts: &RenderOptions, lines: &mut Vec<String>) {
    let ascii = !opts.unicode;
    let w = opts.width.max(1);
    let mut cur = Line::new();
    for (i, s) in chart.series.iter().enumerate() {
        let marker = if ascii {
            ASCII_MARKERS[i % ASCII_MARKERS.len()]
        } else {
            MARKERS[i % MARKERS.len()]
        };
        let name = clean_line(&s.name, ascii);
        let name = if name.trim().is_empty() {
            format!("series {}", i + 1)
        } else {
            name
        };
        let name = truncate(&name, w.saturating_sub(2).max(1), ascii);
        let item_w = 2 + width(&name);
        if cur.width > 0 && cur.width + 2 + item_w > w {
            lines.push(std::mem::take(&mut cur).finish());
        }
        if cur.width > 0 {
            cur.plain("  ");
        }
        cur.push(&marker.to_string(), series_style(i), opts.color);
        cur.plain(" ");
        cur.plain(&name);
    }
    if cur.width > 0 {
        lines.push(cur.finish());
    }
}

/// The braille bit of dot (column 0-1, row 0-3) within a cell.
fn braille_bit(x: usize, y: usize) -> u8 {
    match (x, y) {
        (0, 0) => 0x01,
        (0, 1) => 0x02,
        (0, 2) => 0x04,
        (0, 3) => 0x40,
        (1, 0) => 0x08,
        (1, 1) => 0x10,
        (1, 2) => 0x20,
        _ => 0x80,
    }
}

/// Bresenham between two grid points, both ends included.
fn segment(a: (usize, usize), b: (usize, usize), plot: &mut impl FnMut(usize, usize)) {
    let (mut x0, mut y0) = (a.0 as i64, a.1 as i64);
    let (x1, y1) = (b.0 as i64, b.1 as i64);
    let dx = (x1 - x0).abs();
    let dy = -(y1 - y0).abs();
    let sx = if x0 < x1 { 1 } else { -1 };
    let sy = if y0 < y1 { 1 } else { -1 };
    let mut err = dx + dy;
    loop {
        plot(x0 as usize, y0 as usize);
        if x0 == x1 && y0 == y1 {
            break;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x0 += sx;
        }
        if e2 <= dx {
            err += dx;
            y0 += sy;
        }
    }
}

/// The y axis: bounds on multiples of a 1/2/5×10^k step around the data,
/// and the ticks between. Degenerate ranges (one value, overflowing
/// spans) fall back to plain bounds so nothing loops or divides by zero.
fn axis(ymin: f64, ymax: f64, target: usize) -> (f64, f64, Vec<f64>) {
    let (mut a, mut b) = (ymin, ymax);
    if a == b {
        let pad = if a == 0.0 { 1.0 } else { a.abs() / 10.0 };
        a -= pad;
        b += pad;
        if a == b {
            return (ymin, ymax, vec![ymin]);
        }
    }
    let raw = b / (target - 1).max(1) as f64 - a / (target - 1).max(1) as f64;
    let step = nice_step(raw);
    let lo = (a / step).floor() * step;
    let hi = (b / step).ceil() * step;
    let count = (hi / step - lo / step).round();
    if step.is_finite()
        && step > 0.0
        && lo.is_finite()
        && hi.is_finite()
        && hi > lo
        && count.is_finite()
        && (1.0..=50.0).contains(&count)
    {
        let ticks: Vec<f64> = (0..=count as usize)
            .map(|k| {
                // Counted in steps, then scaled once: `lo + k * step` would
                // overflow near ±f64::MAX (`k * step` alone can), and -0
                // and float noise (0.30000000000000004) read badly.
                let t = ((lo / step).round() + k as f64) * step;
                if t == 0.0 { 0.0 } else { t }
            })
            .collect();
        return (lo, hi, ticks);
    }
    (a, b, vec![a, b])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_ticks_are_nice() {
        let (lo, hi, t) = axis(3.0, 97.0, 6);
        assert_eq!((lo, hi), (0.0, 100.0));
        assert_eq!(t, vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        let (_, _, t) = axis(5.0, 5.0, 4);
        assert!(t.len() >= 2);
        for target in 3..8 {
            let (lo, hi, t) = axis(-1e308, 1e308, target);
            assert!(lo.is_finite() && hi.is_finite());
            assert!(t.iter().all(|v| v.is_finite()), "{target}: {t:?}");
        }
    }
}
