//! The footer of a live chart: per series the last value, min, max and
//! mean of the points shown, with the chart's unit, aligned in columns.

use crate::render::plot::{marker, series_style};
use crate::render::text::{Line, NumFormat, Style, clean_line, width, with_unit};
use crate::render::wrap::{pad_left, pad_right};
use crate::render::{RenderOptions, fit};
use crate::spec::Chart;

/// One line per series; a series' marker leads when there are several.
pub fn footer(chart: &Chart, opts: &RenderOptions) -> Vec<String> {
    let stats: Vec<(usize, &str, [f64; 4])> = chart
        .series
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let last = s.points.last()?.value;
            let (mut min, mut max, mut sum) = (f64::INFINITY, f64::NEG_INFINITY, 0.0);
            for p in &s.points {
                min = min.min(p.value);
                max = max.max(p.value);
                sum += p.value;
            }
            Some((
                i,
                s.name.as_str(),
                [last, min, max, sum / s.points.len() as f64],
            ))
        })
        .collect();
    if stats.is_empty() {
        return Vec::new();
    }
    let fmt = NumFormat::for_values(stats.iter().flat_map(|(_, _, v)| *v));
    let unit = chart
        .unit
        .as_deref()
        .map(str::trim)
        .filter(|u| !u.is_empty());
    let ascii = !opts.unicode;
    let w = opts.width.max(1);
    let several = chart.series.len() > 1;
    // Units on every value when that fits, else once after the name.
    for units_each in [true, false] {
        let names: Vec<String> = stats
            .iter()
            .map(|(_, n, _)| {
                let n = clean_line(n, ascii);
                match unit {
                    Some(u) if !units_each => format!("{n} ({})", clean_line(u, ascii)),
                    _ => n,
                }
            })
            .collect();
        let name_w = names.iter().map(|n| width(n)).max().unwrap_or(0).min(32);
        let cells: Vec<[String; 4]> = stats
            .iter()
            .map(|(_, _, v)| v.map(|x| with_unit(&fmt.format(x), unit.filter(|_| units_each))))
            .collect();
        let col_w: Vec<usize> = (0..4)
            .map(|c| cells.iter().map(|r| width(&r[c])).max().unwrap_or(0))
            .collect();
        let lines: Vec<Line> = stats
            .iter()
            .zip(&names)
            .zip(&cells)
            .map(|(((i, _, _), name), row)| {
                let mut l = Line::new();
                if several {
                    let glyph = marker(*i, ascii).to_string();
                    l.push(&glyph, series_style(*i), opts.color).plain(" ");
                }
                l.push(&pad_right(name, name_w, ascii), Style::Bold, opts.color);
                for (c, word) in ["last", "min", "max", "mean"].iter().enumerate() {
                    l.plain("  ").push(word, Style::Dim, opts.color).plain(" ");
                    l.plain(&pad_left(&row[c], col_w[c], ascii));
                }
                l
            })
            .collect();
        if !units_each || lines.iter().all(|l| l.width <= w) {
            return lines
                .into_iter()
                .map(|l| fit(l.finish(), w, opts))
                .collect();
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{Point, Series};

    fn chart(series: &[(&str, &[f64])], unit: Option<&str>) -> Chart {
        Chart {
            unit: unit.map(Into::into),
            series: series
                .iter()
                .map(|(n, vs)| Series {
                    name: n.to_string(),
                    facet: None,
                    points: vs
                        .iter()
                        .enumerate()
                        .map(|(i, &value)| Point {
                            label: i.to_string(),
                            value,
                            x: None,
                            x2: None,
                            count: None,
                        })
                        .collect(),
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn last_min_max_mean_with_units() {
        let c = chart(&[("ms", &[3.0, 1.0, 5.0, 2.0])], Some("ms"));
        let l = footer(&c, &RenderOptions::default());
        assert_eq!(
            l,
            vec!["ms  last 2.00 ms  min 1.00 ms  max 5.00 ms  mean 2.75 ms"]
        );
    }

    #[test]
    fn several_series_are_aligned_and_the_unit_moves_when_narrow() {
        let c = chart(&[("rps", &[10.0, 30.0]), ("errors", &[1.0])], Some("req/s"));
        let l = footer(&c, &RenderOptions::default());
        assert_eq!(
            l[0],
            "● rps     last 30 req/s  min 10 req/s  max 30 req/s  mean 20 req/s"
        );
        assert_eq!(
            l[1],
            "◆ errors  last  1 req/s  min  1 req/s  max  1 req/s  mean  1 req/s"
        );
        let narrow = RenderOptions {
            width: 60,
            ..RenderOptions::default()
        };
        let l = footer(&c, &narrow);
        assert_eq!(l[0], "● rps (req/s)     last 30  min 10  max 30  mean 20");
        assert!(l.iter().all(|l| width(l) <= 60));
    }
}
