//! Years written as decimals on a line's x (`1971.25`, `1949.0833`): how
//! R writes a time series' time (the year plus the fraction of it gone,
//! each month or quarter a twelfth or a quarter), the shape of every `ts`
//! object Rdatasets ships as `time,value`. Read as numbers, their axis
//! says `1,975`; read here as the moments they stand for, it says years
//! and months as any date axis does. Only an x named as time (`time`,
//! `year`, `date`, `period`) whose every value lies in the years 1000 to
//! 2999 is read so: a price of 1,999.5 stays a price.

use jiff::civil::Date;

use crate::spec::{Chart, ChartType, XType};

/// Words naming an x as time.
const TIME_WORDS: &[&str] = &["time", "date", "period", "yr", "fy", "season"];

/// Whether an x titled `title` holding `xs` is years written as
/// decimals: named as time, every value in 1000..3000 and one at least
/// with a fraction (whole years are read as years already).
fn decimal_years(title: &str, xs: &[f64]) -> bool {
    let title = title.to_ascii_lowercase();
    let named = title
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w.contains("year") || TIME_WORDS.contains(&w));
    named
        && !xs.is_empty()
        && xs.iter().all(|v| (1000.0..3000.0).contains(v))
        && xs.iter().any(|v| v.fract() != 0.0)
}

/// Seconds since 1970 of the moment decimal year `v` stands for: a
/// whole number of twelfths is the first of that month (a quarter is
/// three of them), else that part of the year's length from its start.
fn moment(v: f64) -> Option<f64> {
    let year = v.floor();
    let frac = v - year;
    let y = i16::try_from(year as i64).ok()?;
    let months = frac * 12.0;
    let start = |d: Date| -> Option<f64> {
        let z = d.to_zoned(jiff::tz::TimeZone::UTC).ok()?;
        Some(z.timestamp().as_millisecond() as f64 / 1000.0)
    };
    if (months - months.round()).abs() < 1e-6 {
        let m = i8::try_from(months.round() as i64).ok()? + 1;
        return start(Date::new(y, m.min(12), 1).ok()?);
    }
    let (a, b) = (
        start(Date::new(y, 1, 1).ok()?)?,
        start(Date::new(y.checked_add(1)?, 1, 1).ok()?)?,
    );
    Some(a + frac * (b - a))
}

/// A line over decimal years put on a time axis: each point's x becomes
/// the moment its year stands for (its label kept as written). Returns
/// whether it did; a chart of anything else is left as it was.
pub(crate) fn place_on_time(chart: &mut Chart) -> bool {
    if chart.chart_type != ChartType::Line || chart.x_type != Some(XType::Number) {
        return false;
    }
    let xs: Vec<f64> = chart
        .series
        .iter()
        .flat_map(|s| &s.points)
        .map(|p| p.x.unwrap_or(f64::NAN))
        .collect();
    if !decimal_years(chart.x_label.as_deref().unwrap_or(""), &xs) {
        return false;
    }
    let moments: Option<Vec<f64>> = xs.iter().map(|&v| moment(v)).collect();
    let Some(moments) = moments else {
        return false;
    };
    let mut at = moments.into_iter();
    for p in chart.series.iter_mut().flat_map(|s| &mut s.points) {
        p.x = at.next();
    }
    chart.x_type = Some(XType::Date);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date_of(secs: f64) -> String {
        jiff::Timestamp::from_second(secs as i64)
            .unwrap()
            .to_zoned(jiff::tz::TimeZone::UTC)
            .date()
            .to_string()
    }

    #[test]
    fn twelfths_and_quarters_are_months() {
        assert_eq!(date_of(moment(1949.0).unwrap()), "1949-01-01");
        assert_eq!(date_of(moment(1949.0 + 1.0 / 12.0).unwrap()), "1949-02-01");
        assert_eq!(date_of(moment(1960.0 + 11.0 / 12.0).unwrap()), "1960-12-01");
        assert_eq!(date_of(moment(1971.25).unwrap()), "1971-04-01");
        assert_eq!(date_of(moment(1971.75).unwrap()), "1971-10-01");
        // A week of a year: that part of the year.
        assert_eq!(date_of(moment(2000.0 + 10.0 / 52.0).unwrap()), "2000-03-11");
    }

    #[test]
    fn only_an_x_named_as_time_in_the_years() {
        assert!(decimal_years("time", &[1971.25, 1971.5]));
        assert!(decimal_years("Year", &[2001.5, 2002.0]));
        assert!(!decimal_years("time", &[1971.0, 1972.0]));
        assert!(!decimal_years("price", &[1999.5, 2000.5]));
        assert!(!decimal_years("time", &[1.5, 2.5]));
        assert!(!decimal_years("time", &[1999.5, 3100.5]));
        assert!(!decimal_years("time", &[]));
    }
}
