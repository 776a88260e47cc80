//! `--time-unit`: a date label truncated to a unit of time, with
//! Vega-Lite's names and meanings (in UTC): `year`, `yearmonth` and
//! `yearmonthdate` keep the calendar (a point per year, month, day);
//! `quarter`, `month`, `week`, `day` (of the week), `hours` and `minutes`
//! are parts of it, the same part of every year folded together (all
//! Januaries, all Mondays), as a season or a daily cycle.

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;

/// A unit of `--time-unit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TimeUnit {
    /// The calendar year: 2024.
    Year,
    /// The quarter of the year, all years together: Q1..Q4.
    Quarter,
    /// The month of the year, all years together: Jan..Dec.
    Month,
    /// The month of the calendar: 2024-01.
    Yearmonth,
    /// The day of the calendar: 2024-01-05.
    Yearmonthdate,
    /// The week of the year (weeks start on Sunday; week 0 is the days
    /// before the first Sunday), all years together.
    Week,
    /// The day of the week, all weeks together: Sun..Sat.
    Day,
    /// The hour of the day, all days together: 00..23.
    Hours,
    /// The minute of the hour, all hours together: 00..59.
    Minutes,
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/// Where a moment falls in a unit: the label the chart shows, and the
/// key it sorts by (for calendar units the unit's start as seconds since
/// the epoch, which is also its place on a time axis).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bucket {
    pub label: String,
    pub key: f64,
}

impl TimeUnit {
    /// Vega-Lite's name of the unit, in UTC.
    pub(crate) fn vega(self) -> &'static str {
        match self {
            TimeUnit::Year => "utcyear",
            TimeUnit::Quarter => "utcquarter",
            TimeUnit::Month => "utcmonth",
            TimeUnit::Yearmonth => "utcyearmonth",
            TimeUnit::Yearmonthdate => "utcyearmonthdate",
            TimeUnit::Week => "utcweek",
            TimeUnit::Day => "utcday",
            TimeUnit::Hours => "utchours",
            TimeUnit::Minutes => "utcminutes",
        }
    }

    /// The flag's word for it.
    pub(crate) fn name(self) -> &'static str {
        self.vega().trim_start_matches("utc")
    }

    /// Whether a bucket is a stretch of the calendar (drawn on a time
    /// axis), not a part folded over it.
    pub(crate) fn calendar(self) -> bool {
        matches!(
            self,
            TimeUnit::Year | TimeUnit::Yearmonth | TimeUnit::Yearmonthdate
        )
    }

    /// The bucket of the moment `secs` (seconds since the epoch, UTC).
    pub(crate) fn bucket(self, secs: f64) -> Option<Bucket> {
        let t = Timestamp::from_millisecond((secs * 1000.0).floor() as i64).ok()?;
        let z = t.to_zoned(TimeZone::UTC);
        let d = z.date();
        let start = |d: Date| -> Option<f64> {
            Some(d.to_zoned(TimeZone::UTC).ok()?.timestamp().as_second() as f64)
        };
        let (m, y) = (d.month(), d.year());
        Some(match self {
            TimeUnit::Year => Bucket {
                label: y.to_string(),
                key: start(Date::new(y, 1, 1).ok()?)?,
            },
            TimeUnit::Yearmonth => Bucket {
                label: format!("{y:04}-{m:02}"),
                key: start(Date::new(y, m, 1).ok()?)?,
            },
            TimeUnit::Yearmonthdate => Bucket {
                label: format!("{y:04}-{m:02}-{:02}", d.day()),
                key: start(d)?,
            },
            TimeUnit::Quarter => {
                let q = (m - 1) / 3 + 1;
                Bucket {
                    label: format!("Q{q}"),
                    key: f64::from(q),
                }
            }
            TimeUnit::Month => Bucket {
                label: MONTHS[m as usize - 1].to_string(),
                key: f64::from(m),
            },
            TimeUnit::Week => {
                // Sundays before this day in its year: week 0 before the first.
                let doy = i32::from(d.day_of_year()) - 1;
                let jan1 = Date::new(y, 1, 1).ok()?.weekday();
                let before_first_sunday = (7 - jan1.to_sunday_zero_offset() as i32) % 7;
                let week = if doy < before_first_sunday {
                    0
                } else {
                    (doy - before_first_sunday) / 7 + 1
                };
                Bucket {
                    label: format!("week {week}"),
                    key: f64::from(week),
                }
            }
            TimeUnit::Day => {
                let wd = d.weekday().to_sunday_zero_offset();
                Bucket {
                    label: DAYS[wd as usize].to_string(),
                    key: f64::from(wd),
                }
            }
            TimeUnit::Hours => Bucket {
                label: format!("{:02}", z.hour()),
                key: f64::from(z.hour()),
            },
            TimeUnit::Minutes => Bucket {
                label: format!("{:02}", z.minute()),
                key: f64::from(z.minute()),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> f64 {
        let t: Timestamp = s.parse().unwrap();
        t.as_second() as f64
    }

    fn label(u: TimeUnit, s: &str) -> String {
        u.bucket(at(s)).unwrap().label
    }

    #[test]
    fn each_unit_names_its_bucket_as_vega_lite_does() {
        let t = "2024-03-05T13:47:00Z"; // a Tuesday
        assert_eq!(label(TimeUnit::Year, t), "2024");
        assert_eq!(label(TimeUnit::Quarter, t), "Q1");
        assert_eq!(label(TimeUnit::Month, t), "Mar");
        assert_eq!(label(TimeUnit::Yearmonth, t), "2024-03");
        assert_eq!(label(TimeUnit::Yearmonthdate, t), "2024-03-05");
        assert_eq!(label(TimeUnit::Day, t), "Tue");
        assert_eq!(label(TimeUnit::Hours, t), "13");
        assert_eq!(label(TimeUnit::Minutes, t), "47");
        // 2024 begins on a Monday: its first Sunday is 7 January.
        assert_eq!(label(TimeUnit::Week, "2024-01-06T00:00:00Z"), "week 0");
        assert_eq!(label(TimeUnit::Week, "2024-01-07T00:00:00Z"), "week 1");
        assert_eq!(label(TimeUnit::Week, t), "week 9");
        assert_eq!(
            TimeUnit::Yearmonth.bucket(at(t)).unwrap().key,
            at("2024-03-01T00:00:00Z")
        );
    }
}
