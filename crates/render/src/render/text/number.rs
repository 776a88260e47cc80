//! Number formats: compact ([`NumFormat`]: `2.9 s`, `1,234`, `1.2M`,
//! `1.5e-7`) for bars and axes, exact ([`ExactFormat`]: `37,400,000`) for
//! tables, units placed by kind, and nice axis steps.

/// Thousands separators on an unsigned digit string.
fn group(digits: &str) -> String {
    let n = digits.len();
    let mut out = String::with_capacity(n + n / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (n - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `1234.5` with `decimals` places and thousands separators: `1,234.50`.
pub fn fixed(v: f64, decimals: usize) -> String {
    let s = format!("{:.*}", decimals, v.abs());
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i.to_string(), Some(f.to_string())),
        None => (s.clone(), None),
    };
    let neg = v < 0.0 && s.chars().any(|c| c.is_ascii_digit() && c != '0');
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    out.push_str(&group(&int));
    if let Some(f) = frac {
        out.push('.');
        out.push_str(&f);
    }
    out
}

fn sci(v: f64) -> String {
    let s = format!("{v:.1e}");
    // `1.0e6` reads as `1e6`.
    s.replace(".0e", "e")
}

/// Decimal places a value needs to show three significant digits (at most
/// two below a thousand and above one, at most six below one).
fn decimals_needed(v: f64) -> usize {
    let a = v.abs();
    if a == 0.0 || a >= 1000.0 {
        return 0;
    }
    let max = if a >= 1.0 {
        2
    } else {
        (2 - a.log10().floor() as i64).clamp(0, 6) as usize
    };
    (0..=max)
        .find(|&d| {
            let scale = 10f64.powi(d as i32);
            ((a * scale).round() - a * scale).abs() < 1e-9 * scale.max(1.0)
        })
        .unwrap_or(max)
}

/// How the values of one chart are written, chosen once from all of them
/// so a column reads consistently:
///
/// - below 1,000: fixed point with the decimals the most precise value
///   needs (at most 2; up to three significant digits below 1), the same
///   for every such value (`2.9`, `3.0`);
/// - 1,000 to below a million: whole numbers with separators (`1,234`);
/// - a million and up: three significant digits and a suffix (`1.2M`,
///   `45.6B`, `7.89T`);
/// - beyond 10^15, or non-zero below 10^-4: scientific (`1.2e-7`).
#[derive(Debug, Clone, Copy)]
pub struct NumFormat {
    decimals: usize,
    /// Years: whole numbers without separators (`2007`, never `2,007`).
    years: bool,
}

impl NumFormat {
    pub fn for_values(values: impl IntoIterator<Item = f64>) -> NumFormat {
        let decimals = values
            .into_iter()
            .filter(|v| v.abs() < 1000.0 && v.abs() >= 1e-4)
            .map(decimals_needed)
            .max()
            .unwrap_or(0);
        NumFormat {
            decimals,
            years: false,
        }
    }

    /// The same, writing years as years when `years` ([`are_years`]).
    pub fn with_years(self, years: bool) -> NumFormat {
        NumFormat { years, ..self }
    }

    pub fn format(&self, v: f64) -> String {
        let a = v.abs();
        if !v.is_finite() {
            return "?".into();
        }
        if let Some(y) = year_text(self.years, v) {
            return y;
        }
        if a >= 1e15 || (a > 0.0 && a < 1e-4) {
            return sci(v);
        }
        if a >= 1e6 {
            let (scale, suffix) = if a >= 1e12 {
                (1e12, "T")
            } else if a >= 1e9 {
                (1e9, "B")
            } else {
                (1e6, "M")
            };
            let x = v / scale;
            let d = if x.abs() >= 100.0 {
                0
            } else if x.abs() >= 10.0 {
                1
            } else {
                2
            };
            let s = format!("{x:.d$}");
            let s = if s.contains('.') {
                s.trim_end_matches('0').trim_end_matches('.').to_string()
            } else {
                s
            };
            return format!("{s}{suffix}");
        }
        let scale = 10f64.powi(self.decimals as i32);
        if (a * scale).round() / scale >= 1000.0 {
            return fixed(v.round(), 0);
        }
        fixed(v, self.decimals)
    }
}

/// How a table writes its values: exactly, as the data has them. Whole
/// numbers in full with separators (`37,400,000`, never `37.4M`), and the
/// decimals the most precise value of the column carries (at most 8), the
/// same for every value so the points line up (`2.90`, `3.25`). Only
/// magnitudes a fixed form cannot show in a sensible width (from 10^15, or
/// non-zero below 10^-4) are scientific, with every significant digit
/// (`1.2345e-7`).
#[derive(Debug, Clone, Copy)]
pub struct ExactFormat {
    decimals: usize,
    years: bool,
}

/// The most decimals a table shows; digits beyond are float noise
/// (`0.1 + 0.2` is 0.3), not data.
const MAX_EXACT_DECIMALS: usize = 8;

impl ExactFormat {
    pub fn for_values(values: impl IntoIterator<Item = f64>) -> ExactFormat {
        let decimals = values
            .into_iter()
            .filter(|v| v.is_finite() && !exact_is_sci(*v))
            .map(|v| {
                // The digits the data was written with, up to the cap;
                // trailing zeros are not data.
                let s = format!("{:.*}", MAX_EXACT_DECIMALS, v.abs());
                s.split_once('.')
                    .map_or(0, |(_, f)| f.trim_end_matches('0').len())
            })
            .max()
            .unwrap_or(0);
        ExactFormat {
            decimals,
            years: false,
        }
    }

    /// The same, writing years as years when `years` ([`are_years`]).
    pub fn with_years(self, years: bool) -> ExactFormat {
        ExactFormat { years, ..self }
    }

    pub fn format(&self, v: f64) -> String {
        if !v.is_finite() {
            return "?".into();
        }
        if let Some(y) = year_text(self.years, v) {
            return y;
        }
        if exact_is_sci(v) {
            return format!("{v:e}");
        }
        fixed(v, self.decimals)
    }
}

/// Whether values titled `title` are years: the title names a year and
/// every value is a whole number from 1000 to 2999. Years are written
/// without separators.
pub fn are_years(title: Option<&str>, values: impl IntoIterator<Item = f64>) -> bool {
    let named = title.is_some_and(|t| {
        let t = t.to_ascii_lowercase();
        t.contains("year") || matches!(t.trim(), "yr" | "fy")
    });
    named
        && values
            .into_iter()
            .all(|v| v.fract() == 0.0 && (1000.0..3000.0).contains(&v))
}

fn year_text(years: bool, v: f64) -> Option<String> {
    (years && v.fract() == 0.0 && v.abs() < 10_000.0).then(|| format!("{}", v as i64))
}

fn exact_is_sci(v: f64) -> bool {
    let a = v.abs();
    a >= 1e15 || (a > 0.0 && a < 1e-4)
}

/// Writes a value with its unit: `%` and other short symbols attach
/// (`12%`), currency symbols lead (`$1,200`), words follow a space
/// (`2.9 s`).
pub fn with_unit(num: &str, unit: Option<&str>) -> String {
    match unit {
        None | Some("") => num.to_string(),
        Some(u) if matches!(u, "$" | "€" | "£" | "¥" | "₹") => {
            if let Some(rest) = num.strip_prefix('-') {
                format!("-{u}{rest}")
            } else {
                format!("{u}{num}")
            }
        }
        Some(u) if matches!(u, "%" | "‰" | "°" | "x" | "×") => format!("{num}{u}"),
        Some(u) => format!("{num} {u}"),
    }
}

/// An axis or column title: the label with the unit in parentheses
/// (`Time (s)`), the unit alone (`(s)`), or none; a label that names its
/// unit already (`0-60 mph (s)`, `price [$]`) is not given it twice.
pub fn titled(label: Option<&str>, unit: Option<&str>) -> Option<String> {
    fn nonblank(s: Option<&str>) -> Option<&str> {
        s.map(str::trim).filter(|s| !s.is_empty())
    }
    match (nonblank(label), nonblank(unit)) {
        (Some(l), Some(u)) if names_unit(l, u) => Some(l.to_string()),
        (Some(l), Some(u)) => Some(format!("{l} ({u})")),
        (Some(l), None) => Some(l.to_string()),
        (None, Some(u)) => Some(format!("({u})")),
        (None, None) => None,
    }
}

/// Whether a title ends by naming `unit`: `(unit)` or `[unit]`.
fn names_unit(label: &str, unit: &str) -> bool {
    [("(", ")"), ("[", "]")].iter().any(|(open, close)| {
        label
            .strip_suffix(close)
            .and_then(|l| l.strip_suffix(unit))
            .is_some_and(|l| l.trim_end().ends_with(open))
    })
}

/// A 1, 2 or 5 times a power of ten near `raw`, for axis steps.
pub fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let exp = raw.log10().floor();
    let base = 10f64.powf(exp);
    let f = raw / base;
    let m = if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    };
    m * base
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_compactly_and_consistently() {
        let f = NumFormat::for_values([2.9, 3.0, 3.25]);
        assert_eq!(f.format(2.9), "2.90");
        assert_eq!(f.format(3.0), "3.00");
        let f = NumFormat::for_values([2.9, 3.0]);
        assert_eq!(f.format(3.0), "3.0");
        let f = NumFormat::for_values([1234.0, 12.0]);
        assert_eq!(f.format(1234.0), "1,234");
        assert_eq!(f.format(-1234.4), "-1,234");
        assert_eq!(f.format(12.0), "12");
        assert_eq!(f.format(1_234_567.0), "1.23M");
        assert_eq!(f.format(12_000_000.0), "12M");
        assert_eq!(f.format(4.56e10), "45.6B");
        assert_eq!(f.format(2e18), "2e18");
        assert_eq!(f.format(1.5e-7), "1.5e-7");
        assert_eq!(f.format(999.9), "1,000");
        let f = NumFormat::for_values([0.0123]);
        assert_eq!(f.format(0.0123), "0.0123");
        assert_eq!(with_unit("2.9", Some("s")), "2.9 s");
        assert_eq!(with_unit("12", Some("%")), "12%");
        assert_eq!(with_unit("-5", Some("$")), "-$5");
    }

    #[test]
    fn tables_write_numbers_exactly() {
        let f = ExactFormat::for_values([37_400_000.0, 131_136.0]);
        assert_eq!(f.format(37_400_000.0), "37,400,000");
        assert_eq!(f.format(131_136.0), "131,136");
        let f = ExactFormat::for_values([2.9, 3.0, 3.25]);
        assert_eq!(f.format(3.0), "3.00");
        assert_eq!(f.format(2.9), "2.90");
        let f = ExactFormat::for_values([1_234_567.5, -0.5]);
        assert_eq!(f.format(1_234_567.5), "1,234,567.5");
        assert_eq!(f.format(-0.5), "-0.5");
        let f = ExactFormat::for_values([0.1 + 0.2]);
        assert_eq!(f.format(0.1 + 0.2), "0.3");
        let f = ExactFormat::for_values([1.0 / 3.0]);
        assert_eq!(f.format(1.0 / 3.0), "0.33333333");
        let f = ExactFormat::for_values([1.2345e-7, 2e18, 0.0]);
        assert_eq!(f.format(1.2345e-7), "1.2345e-7");
        assert_eq!(f.format(2e18), "2e18");
        assert_eq!(f.format(0.0), "0");
    }
}
