//! Scales and their ticks, the one place charts get them: numbers on
//! multiples of 1, 2 or 5 × 10^k (with the unit in the label when it is
//! short), dates at days, months or years as the span needs, categories
//! in order; inverted axes; a fixed domain. Also where tick labels go on
//! the x axis without overlapping.

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;

use super::super::text::{NumFormat, nice_step, width, with_unit};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScaleKind {
    Number,
    /// Seconds since the epoch.
    Date,
    /// Positions 0..n-1, one per category.
    Category,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Tick {
    pub at: f64,
    pub label: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Scale {
    pub kind: ScaleKind,
    pub lo: f64,
    pub hi: f64,
    /// Larger values toward the origin.
    pub invert: bool,
    pub ticks: Vec<Tick>,
}

/// Units longer than this go into the axis title instead of every tick.
const MAX_TICK_UNIT: usize = 5;

impl Scale {
    /// A number scale around `[min, max]` (or exactly `domain`) with about
    /// `target` ticks.
    pub fn number(
        min: f64,
        max: f64,
        target: usize,
        unit: Option<&str>,
        domain: Option<(f64, f64)>,
    ) -> Scale {
        let (lo, hi, ticks) = match domain {
            Some((a, b)) if a.is_finite() && b.is_finite() && a != b => {
                let (a, b) = (a.min(b), a.max(b));
                let (_, _, t) = nice_ticks(a, b, target);
                (a, b, t.into_iter().filter(|t| *t >= a && *t <= b).collect())
            }
            _ => nice_ticks(min, max, target),
        };
        let fmt = NumFormat::for_values(ticks.iter().copied());
        let unit = unit.filter(|u| width(u) <= MAX_TICK_UNIT);
        let ticks = ticks
            .into_iter()
            .map(|t| Tick {
                at: t,
                label: with_unit(&fmt.format(t), unit),
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

    /// A time scale over `[min, max]` seconds (or `domain`), ticks on
    /// calendar boundaries.
    pub fn date(min: f64, max: f64, target: usize, domain: Option<(f64, f64)>) -> Scale {
        let (mut lo, mut hi) = match domain {
            Some((a, b)) if a.is_finite() && b.is_finite() && a != b => (a.min(b), a.max(b)),
            _ => (min, max),
        };
        if !(lo.is_finite() && hi.is_finite()) {
            (lo, hi) = (0.0, 1.0);
        }
        if lo == hi {
            lo -= DAY;
            hi += DAY;
        }
        Scale {
            kind: ScaleKind::Date,
            lo,
            hi,
            invert: false,
            ticks: date_ticks(lo, hi, target.max(2)),
        }
    }

    /// One position per category, labelled with its name.
    pub fn category(names: &[String]) -> Scale {
        Scale {
            kind: ScaleKind::Category,
            lo: 0.0,
            hi: names.len().saturating_sub(1) as f64,
            invert: false,
            ticks: names
                .iter()
                .enumerate()
                .map(|(i, n)| Tick {
                    at: i as f64,
                    label: n.clone(),
                })
                .collect(),
        }
    }

    /// Where `v` falls, 0 at the origin to 1, clamped; the middle when
    /// the scale has no extent.
    pub fn frac(&self, v: f64) -> f64 {
        let d = self.hi / 2.0 - self.lo / 2.0;
        let f = if d > 0.0 {
            ((v / 2.0 - self.lo / 2.0) / d).clamp(0.0, 1.0)
        } else {
            0.5
        };
        if self.invert { 1.0 - f } else { f }
    }

    /// The dot column of `v` on an x axis `n` dots wide.
    pub fn x_dot(&self, v: f64, n: usize) -> usize {
        if self.kind == ScaleKind::Category && self.hi <= 0.0 {
            return n / 2;
        }
        (self.frac(v) * n.saturating_sub(1) as f64).round() as usize
    }

    /// The dot row of `v` on a y axis `n` dots high (row 0 at the top).
    pub fn y_dot(&self, v: f64, n: usize) -> usize {
        ((1.0 - self.frac(v)) * n.saturating_sub(1) as f64).round() as usize
    }

    /// The value at the baseline of bars and areas: 0 when on the scale,
    /// else the end nearer to it.
    pub fn baseline(&self) -> f64 {
        0f64.clamp(self.lo.min(self.hi), self.lo.max(self.hi))
    }
}

/// Bounds on multiples of a 1/2/5×10^k step around the data, and the
/// ticks between. Degenerate ranges (one value, overflowing spans) fall
/// back to plain bounds so nothing loops or divides by zero.
pub fn nice_ticks(ymin: f64, ymax: f64, target: usize) -> (f64, f64, Vec<f64>) {
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

const HOUR: f64 = 3600.0;
const DAY: f64 = 86_400.0;
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Hour,
    Day,
    Month,
    Year,
}

/// Ticks a person reads: the finest calendar step that gives at most
/// `target` ticks over the span.
fn date_ticks(lo: f64, hi: f64, target: usize) -> Vec<Tick> {
    const STEPS: [(Unit, i64, f64); 17] = [
        (Unit::Hour, 1, HOUR),
        (Unit::Hour, 3, 3.0 * HOUR),
        (Unit::Hour, 6, 6.0 * HOUR),
        (Unit::Hour, 12, 12.0 * HOUR),
        (Unit::Day, 1, DAY),
        (Unit::Day, 2, 2.0 * DAY),
        (Unit::Day, 7, 7.0 * DAY),
        (Unit::Day, 14, 14.0 * DAY),
        (Unit::Month, 1, 30.4 * DAY),
        (Unit::Month, 2, 60.9 * DAY),
        (Unit::Month, 3, 91.3 * DAY),
        (Unit::Month, 6, 182.6 * DAY),
        (Unit::Year, 1, 365.25 * DAY),
        (Unit::Year, 2, 730.5 * DAY),
        (Unit::Year, 5, 1826.0 * DAY),
        (Unit::Year, 10, 3652.0 * DAY),
        (Unit::Year, 50, 18262.0 * DAY),
    ];
    let span = hi - lo;
    // Dates without a time of day (both ends at midnight, a day or more
    // apart) are ticked by days at the finest: hours between them would
    // mark times no value has.
    let whole_days = lo.rem_euclid(DAY) == 0.0 && hi.rem_euclid(DAY) == 0.0 && span >= DAY;
    let (unit, step) = STEPS
        .iter()
        .filter(|(unit, _, _)| !(whole_days && *unit == Unit::Hour))
        .find(|(_, _, secs)| span / secs <= target as f64)
        .map(|(u, s, _)| (*u, *s))
        .unwrap_or_else(|| {
            let years = nice_step(span / (365.25 * DAY) / target as f64).max(1.0);
            (Unit::Year, years as i64)
        });
    let Some(start) = to_date(lo) else {
        return Vec::new();
    };
    let mut ticks = Vec::new();
    let mut cur = first_tick(start, unit, step, lo);
    let mut prev_year = None;
    while let Some((at, date)) = cur {
        if at > hi || ticks.len() > 60 {
            break;
        }
        if at >= lo {
            let label = match unit {
                // Midnight says which day it begins.
                Unit::Hour if at.rem_euclid(DAY) == 0.0 => {
                    format!("{} {}", MONTHS[date.month() as usize - 1], date.day())
                }
                Unit::Hour => format!("{:02}:00", (at.rem_euclid(DAY) / HOUR) as i64),
                Unit::Day => format!("{} {}", MONTHS[date.month() as usize - 1], date.day()),
                Unit::Month if prev_year != Some(date.year()) => {
                    format!("{} {}", MONTHS[date.month() as usize - 1], date.year())
                }
                Unit::Month => MONTHS[date.month() as usize - 1].to_string(),
                Unit::Year => date.year().to_string(),
            };
            prev_year = Some(date.year());
            ticks.push(Tick { at, label });
        }
        cur = next_tick(date, at, unit, step);
    }
    ticks
}

fn to_date(secs: f64) -> Option<Date> {
    let t = Timestamp::from_second(secs.floor() as i64).ok()?;
    Some(t.to_zoned(TimeZone::UTC).date())
}

fn secs_of(d: Date) -> Option<f64> {
    let z = d.to_zoned(TimeZone::UTC).ok()?;
    Some(z.timestamp().as_second() as f64)
}

/// The first calendar boundary of the step at or after the start's day.
fn first_tick(start: Date, unit: Unit, step: i64, lo: f64) -> Option<(f64, Date)> {
    match unit {
        Unit::Hour => {
            let s = step as f64 * HOUR;
            let at = (lo / s).ceil() * s;
            Some((at, to_date(at)?))
        }
        Unit::Day => {
            let d = if secs_of(start)? < lo {
                start.tomorrow().ok()?
            } else {
                start
            };
            // Weekly ticks fall on Mondays.
            let d = if step >= 7 {
                let back = i64::from(d.weekday().to_monday_zero_offset());
                let monday = d.checked_sub(jiff::Span::new().days(back)).ok()?;
                if secs_of(monday)? < lo {
                    monday.checked_add(jiff::Span::new().days(7)).ok()?
                } else {
                    monday
                }
            } else {
                d
            };
            Some((secs_of(d)?, d))
        }
        Unit::Month => {
            let mut d = start.first_of_month();
            while secs_of(d)? < lo || (i64::from(d.month()) - 1) % step != 0 {
                d = d.checked_add(jiff::Span::new().months(1)).ok()?;
            }
            Some((secs_of(d)?, d))
        }
        Unit::Year => {
            let mut y = i64::from(start.year());
            let mut d = Date::new(start.year(), 1, 1).ok()?;
            while secs_of(d)? < lo || y % step != 0 {
                y += 1;
                d = Date::new(i16::try_from(y).ok()?, 1, 1).ok()?;
            }
            Some((secs_of(d)?, d))
        }
    }
}

fn next_tick(d: Date, at: f64, unit: Unit, step: i64) -> Option<(f64, Date)> {
    let next = match unit {
        Unit::Hour => {
            let at = at + step as f64 * HOUR;
            return Some((at, to_date(at)?));
        }
        Unit::Day => d.checked_add(jiff::Span::new().try_days(step).ok()?).ok()?,
        Unit::Month => d
            .checked_add(jiff::Span::new().try_months(step).ok()?)
            .ok()?,
        Unit::Year => d
            .checked_add(jiff::Span::new().try_years(step).ok()?)
            .ok()?,
    };
    Some((secs_of(next)?, next))
}

/// Where a label sits along the axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// Starts at this column.
    Start(usize),
    /// Ends at this column (exclusive).
    End(usize),
    /// Centred on this column.
    Center(usize),
}

/// Lays labels along a row `w` columns wide, in the order given, each
/// where it does not touch one already placed (one blank between).
pub fn place_labels(w: usize, labels: &[(Anchor, &str)]) -> String {
    let mut placed: Vec<(usize, usize, usize)> = Vec::new(); // (start, width, index)
    for (i, (anchor, text)) in labels.iter().enumerate() {
        let lw = width(text);
        if lw == 0 || lw > w {
            continue;
        }
        let start = match *anchor {
            Anchor::Start(s) => s.min(w - lw),
            Anchor::End(e) => e.min(w).saturating_sub(lw),
            Anchor::Center(c) => c.saturating_sub(lw / 2).min(w - lw),
        };
        let clash = placed
            .iter()
            .any(|&(s, pw, _)| start < s + pw + 1 && s < start + lw + 1);
        if !clash {
            placed.push((start, lw, i));
        }
    }
    placed.sort();
    let mut out = String::new();
    let mut col = 0;
    for (start, lw, i) in placed {
        out.push_str(&" ".repeat(start - col));
        out.push_str(labels[i].1);
        col = start + lw;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::grammar::parse_date;

    #[test]
    fn number_ticks_are_nice() {
        let (lo, hi, t) = nice_ticks(3.0, 97.0, 6);
        assert_eq!((lo, hi), (0.0, 100.0));
        assert_eq!(t, vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        let (_, _, t) = nice_ticks(5.0, 5.0, 4);
        assert!(t.len() >= 2);
        for target in 3..8 {
            let (lo, hi, t) = nice_ticks(-1e308, 1e308, target);
            assert!(lo.is_finite() && hi.is_finite());
            assert!(t.iter().all(|v| v.is_finite()), "{target}: {t:?}");
        }
        let s = Scale::number(0.0, 9.0, 4, Some("km"), None);
        assert_eq!(s.ticks[1].label, "5 km");
        let s = Scale::number(0.0, 9.0, 4, None, Some((2.0, 8.0)));
        assert_eq!((s.lo, s.hi), (2.0, 8.0));
        assert!(s.ticks.iter().all(|t| (2.0..=8.0).contains(&t.at)));
    }

    fn labels(from: &str, to: &str, target: usize) -> Vec<String> {
        let (a, b) = (parse_date(from).unwrap(), parse_date(to).unwrap());
        Scale::date(a, b, target, None)
            .ticks
            .into_iter()
            .map(|t| t.label)
            .collect()
    }

    #[test]
    fn date_ticks_follow_the_span() {
        assert_eq!(
            labels("2026-03-01", "2026-03-04", 5),
            ["Mar 1", "Mar 2", "Mar 3", "Mar 4"]
        );
        assert_eq!(
            labels("2026-03-02", "2026-04-01", 5),
            ["Mar 2", "Mar 9", "Mar 16", "Mar 23", "Mar 30"]
        );
        assert_eq!(
            labels("2026-01-15", "2026-06-20", 6),
            ["Feb 2026", "Mar", "Apr", "May", "Jun"]
        );
        assert_eq!(
            labels("2025-11-01", "2026-04-01", 3),
            ["Nov 2025", "Jan 2026", "Mar"]
        );
        assert_eq!(
            labels("2019-06-01", "2026-06-01", 4),
            ["2020", "2022", "2024", "2026"]
        );
        assert_eq!(
            labels("2026-03-01T06:00:00Z", "2026-03-01T18:00:00Z", 5),
            ["06:00", "09:00", "12:00", "15:00", "18:00"]
        );
        // Dates alone over a few days are ticked by day however many
        // ticks would fit (they were 00:00 12:00 00:00 ...).
        assert_eq!(
            labels("2024-01-02", "2024-01-05", 8),
            ["Jan 2", "Jan 3", "Jan 4", "Jan 5"]
        );
        // Times across midnight: the midnight tick names its day.
        assert_eq!(
            labels("2026-03-01T18:00:00Z", "2026-03-02T06:00:00Z", 5),
            ["18:00", "21:00", "Mar 2", "03:00", "06:00"]
        );
        let far = Scale::date(-1e12, 1e12, 5, None);
        assert!(far.ticks.len() <= 61);
    }

    #[test]
    fn labels_never_touch() {
        let l = place_labels(
            10,
            &[
                (Anchor::Start(0), "aaaa"),
                (Anchor::End(10), "bbbb"),
                (Anchor::Center(5), "c"),
            ],
        );
        assert_eq!(l, "aaaa  bbbb");
        let l = place_labels(
            11,
            &[
                (Anchor::Start(0), "aaaa"),
                (Anchor::End(11), "bbbb"),
                (Anchor::Center(5), "c"),
            ],
        );
        assert_eq!(l, "aaaa c bbbb");
    }
}
