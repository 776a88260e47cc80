//! The last N points of each series of a followed stream, and the chart
//! they make. Memory is bounded by the window whatever the stream's
//! length: at most [`MAX_SERIES`] series of at most `cap` points, each
//! point an x position and a value (labels are written only when a chart
//! is made).
//!
//! x is the row number (every line that gave numbers is a row), or with
//! `--x time` the wall-clock second: points of one series within the same
//! second are averaged, so each second has one point. With `--rate` a
//! series plots the per-second change of a counter between the times its
//! lines were read (a counter that goes down was reset: its new value is
//! the increase).

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use crate::spec::{Chart, ChartType, Meta, Point, Reduction, Series};

/// Series drawn; more are refused (a chart of more is unreadable), with
/// one warning.
pub const MAX_SERIES: usize = 12;
/// The largest `--window`.
pub const MAX_WINDOW: usize = 100_000;

/// Two samples of a counter closer than this are not a rate yet: the
/// increase waits for a later sample (lines read in one burst share a time).
const MIN_RATE_GAP: Duration = Duration::from_millis(1);

/// The chart's words, from the command line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Labels {
    pub title: Option<String>,
    pub subtitle: Option<String>,
    pub x_label: Option<String>,
    pub y_label: Option<String>,
    pub unit: Option<String>,
}

struct Track {
    name: String,
    unit: String,
    /// (x, value, samples averaged into it).
    points: VecDeque<(i64, f64, u32)>,
    /// Points ever made (for "showing 140 of 9,000 points").
    made: u64,
    /// The last counter reading and when, for `--rate`.
    prev: Option<(f64, Instant)>,
}

/// The series of one followed input.
pub struct Window {
    cap: usize,
    rate: bool,
    clock: bool,
    select: Vec<String>,
    series: Vec<Track>,
    index: HashMap<String, usize>,
    rows: u64,
    /// The row being read: when, and its wall-clock second; `None` once
    /// its first number opened it.
    pending: Option<(Instant, i64)>,
    row_x: i64,
    row_at: Option<Instant>,
    /// Something changed since the last chart.
    pub changed: bool,
    /// A series was refused for [`MAX_SERIES`] (warned once).
    pub refused: Option<String>,
}

impl Window {
    /// `select`: the `-y` names (or 1-based column numbers) to keep; empty
    /// keeps every series.
    pub fn new(cap: usize, rate: bool, clock: bool, select: Vec<String>) -> Window {
        Window {
            cap: cap.clamp(2, MAX_WINDOW),
            rate,
            clock,
            select,
            series: Vec::new(),
            index: HashMap::new(),
            rows: 0,
            pending: None,
            row_x: 0,
            row_at: None,
            changed: false,
            refused: None,
        }
    }

    pub fn clock(&self) -> bool {
        self.clock
    }

    /// Rows that gave numbers so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// A line begins: read at `at`, in wall-clock second `wall`.
    pub fn line(&mut self, at: Instant, wall: i64) {
        self.pending = Some((at, wall));
    }

    /// One number of the current line.
    pub fn push(&mut self, name: &str, column: Option<usize>, value: f64, unit: &str) {
        if !self.selected(name, column) || !value.is_finite() {
            return;
        }
        if let Some((at, wall)) = self.pending.take() {
            self.rows += 1;
            self.row_x = if self.clock { wall } else { self.rows as i64 };
            self.row_at = Some(at);
        }
        let Some(i) = self.track(name, unit) else {
            return;
        };
        let x = self.row_x;
        let at = self.row_at.unwrap_or_else(Instant::now);
        let t = &mut self.series[i];
        let value = if self.rate {
            // A rate of huge readings can overflow: no point then.
            match rate(&mut t.prev, value, at).filter(|r| r.is_finite()) {
                Some(r) => r,
                None => return,
            }
        } else {
            value
        };
        match t.points.back_mut() {
            Some((last_x, v, n)) if *last_x == x => {
                // Weighted so that no sum of huge values overflows.
                let k = f64::from(*n);
                *v = *v * (k / (k + 1.0)) + value / (k + 1.0);
                *n += 1;
            }
            _ => {
                if t.points.len() == self.cap {
                    t.points.pop_front();
                }
                t.points.push_back((x, value, 1));
                t.made += 1;
            }
        }
        self.changed = true;
    }

    fn selected(&self, name: &str, column: Option<usize>) -> bool {
        self.select.is_empty()
            || self.select.iter().any(|s| {
                s == name || column.is_some_and(|c| s.parse::<usize>().ok() == Some(c + 1))
            })
    }

    fn track(&mut self, name: &str, unit: &str) -> Option<usize> {
        if let Some(&i) = self.index.get(name) {
            return Some(i);
        }
        if self.series.len() == MAX_SERIES {
            if self.refused.is_none() {
                self.refused = Some(name.to_string());
            }
            return None;
        }
        let unit = if self.rate {
            format!("{unit}/s")
        } else {
            unit.to_string()
        };
        self.series.push(Track {
            name: name.to_string(),
            unit,
            points: VecDeque::with_capacity(self.cap.min(1024)),
            made: 0,
            prev: None,
        });
        self.index.insert(name.to_string(), self.series.len() - 1);
        Some(self.series.len() - 1)
    }

    /// Points held, over all series (what memory follows).
    pub fn held(&self) -> usize {
        self.series.iter().map(|t| t.points.len()).sum()
    }

    /// The line chart of what the window holds; `None` before any point.
    pub fn chart(&self, labels: &Labels) -> Option<Chart> {
        let series: Vec<Series> = self
            .series
            .iter()
            .filter(|t| !t.points.is_empty())
            .map(|t| Series {
                name: t.name.clone(),
                facet: None,
                points: t
                    .points
                    .iter()
                    .map(|&(x, value, _)| Point {
                        label: if self.clock {
                            clock_label(x)
                        } else {
                            x.to_string()
                        },
                        value,
                        x: None,
                        x2: None,
                        count: None,
                    })
                    .collect(),
            })
            .collect();
        if series.is_empty() {
            return None;
        }
        let shown: usize = series.iter().map(|s| s.points.len()).sum();
        let made: u64 = self.series.iter().map(|t| t.made).sum();
        let truncated = made > shown as u64;
        Some(Chart {
            chart_type: ChartType::Line,
            title: labels.title.clone(),
            subtitle: labels.subtitle.clone(),
            x_label: labels
                .x_label
                .clone()
                .or_else(|| Some(if self.clock { "time" } else { "sample" }.into())),
            y_label: labels.y_label.clone(),
            unit: labels.unit.clone().or_else(|| self.common_unit()),
            x_type: None,
            series,
            meta: Meta {
                truncated,
                original_point_count: usize::try_from(made).unwrap_or(usize::MAX),
                fallback_mode: None,
                reduction: truncated.then_some(Reduction::Last),
                cell: None,
            },
            transform: None,
            source: None,
            ..Chart::default()
        })
    }

    /// The unit every series is written with, if they share one.
    fn common_unit(&self) -> Option<String> {
        let first = &self.series.first()?.unit;
        (!first.is_empty() && self.series.iter().all(|t| &t.unit == first)).then(|| first.clone())
    }
}

/// The per-second change since the last reading; `None` for the first
/// reading and for one too close to the last to say.
fn rate(prev: &mut Option<(f64, Instant)>, value: f64, at: Instant) -> Option<f64> {
    let Some((pv, pt)) = *prev else {
        *prev = Some((value, at));
        return None;
    };
    let dt = at.saturating_duration_since(pt);
    if dt < MIN_RATE_GAP {
        return None;
    }
    *prev = Some((value, at));
    let increase = if value >= pv { value - pv } else { value };
    Some(increase / dt.as_secs_f64())
}

/// `HH:MM:SS` in the local time zone.
pub fn clock_label(secs: i64) -> String {
    let t = secs as libc::time_t;
    // SAFETY: localtime_r writes into the zeroed tm we own.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    let ok = unsafe { !libc::localtime_r(&t, &mut tm).is_null() };
    if !ok {
        let s = secs.rem_euclid(86_400);
        return format!("{:02}:{:02}:{:02}", s / 3600, s % 3600 / 60, s % 60);
    }
    format!("{:02}:{:02}:{:02}", tm.tm_hour, tm.tm_min, tm.tm_sec)
}

/// The wall clock in whole seconds since the epoch.
pub fn wall_seconds() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(c: &Chart, s: usize) -> Vec<f64> {
        c.series[s].points.iter().map(|p| p.value).collect()
    }

    #[test]
    fn keeps_the_last_cap_points_and_says_so() {
        let mut w = Window::new(3, false, false, vec![]);
        let t = Instant::now();
        for v in 1..=5 {
            w.line(t, 0);
            w.push("a", Some(0), f64::from(v), "ms");
        }
        let c = w.chart(&Labels::default()).unwrap();
        assert_eq!(values(&c, 0), vec![3.0, 4.0, 5.0]);
        let labels: Vec<&str> = c.series[0]
            .points
            .iter()
            .map(|p| p.label.as_str())
            .collect();
        assert_eq!(labels, vec!["3", "4", "5"]);
        assert!(c.meta.truncated);
        assert_eq!(c.meta.original_point_count, 5);
        assert_eq!(c.meta.reduction, Some(Reduction::Last));
        assert_eq!(c.unit.as_deref(), Some("ms"));
        assert_eq!(w.held(), 3);
    }

    #[test]
    fn rate_of_a_counter_with_a_reset() {
        let mut w = Window::new(10, true, false, vec![]);
        let t0 = Instant::now();
        for (dt, v) in [(0, 100.0), (1000, 300.0), (1000, 300.0), (3000, 50.0)] {
            w.line(t0 + Duration::from_millis(dt), 0);
            w.push("bytes", None, v, "B");
        }
        let c = w.chart(&Labels::default()).unwrap();
        // 100 -> 300 in 1 s; no time passed; 300 -> reset to 50 in 2 s.
        assert_eq!(values(&c, 0), vec![200.0, 25.0]);
        assert_eq!(c.unit.as_deref(), Some("B/s"));
    }

    #[test]
    fn clock_seconds_average_and_selection_by_name_or_column() {
        let mut w = Window::new(10, false, true, vec!["b".into(), "3".into()]);
        let t = Instant::now();
        for (wall, v) in [(100, 1.0), (100, 3.0), (101, 5.0)] {
            w.line(t, wall);
            w.push("a", Some(0), 9.0, "");
            w.push("b", Some(1), v, "");
            w.push("c", Some(2), v * 10.0, "");
        }
        let c = w.chart(&Labels::default()).unwrap();
        assert_eq!(c.series.len(), 2);
        assert_eq!(values(&c, 0), vec![2.0, 5.0]);
        assert_eq!(values(&c, 1), vec![20.0, 50.0]);
        assert_eq!(c.x_label.as_deref(), Some("time"));
    }

    #[test]
    fn series_beyond_the_cap_are_refused() {
        let mut w = Window::new(5, false, false, vec![]);
        w.line(Instant::now(), 0);
        for i in 0..MAX_SERIES + 3 {
            w.push(&format!("s{i}"), None, 1.0, "");
        }
        assert_eq!(
            w.chart(&Labels::default()).unwrap().series.len(),
            MAX_SERIES
        );
        assert_eq!(w.refused.as_deref(), Some("s12"));
    }
}
