//! `--aggregate`: rows grouped by their label (and series), one value per
//! group, with Vega-Lite's names and arithmetic (a mean is kept as Vega
//! keeps it, a median is Vega's quantile 0.5), so an export computes the
//! same numbers. Memory follows the groups, not the rows: past
//! `--max-groups` groups the input is refused, naming the flag. A median
//! or a distinct count keeps a group's values (distinct ones), at most
//! [`MAX_KEPT`] of them in all.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// FNV-1a: short keys (a carrier, a species) hashed once a row, several
/// times faster than the default SipHash, which guards against keys an
/// attacker picks (a long flood of distinct keys is refused past
/// `--max-groups` anyway).
pub(crate) struct Fnv(u64);

impl Default for Fnv {
    /// FNV-1a's offset basis.
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x100_0000_01b3);
        }
        self.0 = h;
    }
}

/// A map keyed by short strings, hashed with [`Fnv`].
type Keyed = HashMap<String, usize, BuildHasherDefault<Fnv>>;

/// Values a median or distinct count keeps, over all groups.
pub(crate) const MAX_KEPT: usize = 5_000_000;
/// `--max-groups` when not given.
pub const DEFAULT_MAX_GROUPS: usize = 10_000;

/// An operation of `--aggregate`, with Vega-Lite's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AggregateOp {
    /// The rows of each group.
    Count,
    /// The sum of the values.
    Sum,
    /// Their mean.
    Mean,
    /// Their median (the mean of the two middle ones for an even count).
    Median,
    /// The smallest.
    Min,
    /// The largest.
    Max,
    /// How many distinct values (a missing value is one of them).
    Distinct,
}

impl AggregateOp {
    pub(crate) fn name(self) -> &'static str {
        match self {
            AggregateOp::Count => "count",
            AggregateOp::Sum => "sum",
            AggregateOp::Mean => "mean",
            AggregateOp::Median => "median",
            AggregateOp::Min => "min",
            AggregateOp::Max => "max",
            AggregateOp::Distinct => "distinct",
        }
    }

    /// Reads numbers from the value column (count and distinct do not).
    pub(crate) fn numbers(self) -> bool {
        !matches!(self, AggregateOp::Count | AggregateOp::Distinct)
    }

    /// The value keeps the column's unit (a sum of seconds is seconds).
    pub(crate) fn keeps_unit(self) -> bool {
        self.numbers()
    }

    /// The value title: `mean(delay)`, `count`.
    pub(crate) fn title(self, field: Option<&str>) -> String {
        match (self, field) {
            (AggregateOp::Count, _) | (_, None) => self.name().to_string(),
            (_, Some(f)) => format!("{}({f})", self.name()),
        }
    }
}

/// What a group holds so far.
#[derive(Debug, Clone)]
enum Acc {
    Count(u64),
    Sum {
        sum: f64,
        valid: u64,
    },
    /// Vega's running mean: `mean += (v - mean) / valid`.
    Mean {
        mean: f64,
        valid: u64,
    },
    Median(Vec<f64>),
    Min(Option<f64>),
    Max(Option<f64>),
    /// Hashes of the distinct cells (`None`: a missing one).
    Distinct(HashSet<Option<u64>>),
}

/// One row's contribution: its number, its cell as text, or nothing.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Cell<'a> {
    Number(f64),
    Text(&'a str),
    Missing,
}

#[derive(Debug)]
struct Group {
    label: String,
    /// Where it sorts: a time unit's key; `None`: first seen first.
    key: Option<f64>,
    acc: Acc,
}

/// Why rows cannot be grouped on: too many groups or kept values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Overflow {
    Groups(usize),
    Kept,
}

/// The groups of one chart: per series (in order of appearance), its
/// groups in order of appearance.
#[derive(Debug)]
pub(crate) struct Groups {
    op: AggregateOp,
    max: usize,
    series: Vec<(String, Keyed, Vec<Group>)>,
    series_at: Keyed,
    /// The series of the last row: most rows are of the one before's.
    last: usize,
    count: usize,
    kept: usize,
}

impl Groups {
    pub(crate) fn new(op: AggregateOp, max: usize) -> Groups {
        Groups {
            op,
            max,
            series: Vec::new(),
            series_at: Keyed::default(),
            last: 0,
            count: 0,
            kept: 0,
        }
    }

    fn acc(&self) -> Acc {
        match self.op {
            AggregateOp::Count => Acc::Count(0),
            AggregateOp::Sum => Acc::Sum { sum: 0.0, valid: 0 },
            AggregateOp::Mean => Acc::Mean {
                mean: 0.0,
                valid: 0,
            },
            AggregateOp::Median => Acc::Median(Vec::new()),
            AggregateOp::Min => Acc::Min(None),
            AggregateOp::Max => Acc::Max(None),
            AggregateOp::Distinct => Acc::Distinct(HashSet::new()),
        }
    }

    /// Adds a row to the group of `label` in `series` (made at its first
    /// row), `key` its place when groups sort by one.
    pub(crate) fn push(
        &mut self,
        series: &str,
        label: &str,
        key: Option<f64>,
        cell: Cell,
    ) -> Result<(), Overflow> {
        let s = match self.series.get(self.last) {
            Some((name, ..)) if name == series => self.last,
            _ => match self.series_at.get(series) {
                Some(&s) => s,
                None => {
                    self.series_at.insert(series.to_string(), self.series.len());
                    self.series
                        .push((series.to_string(), Keyed::default(), Vec::new()));
                    self.series.len() - 1
                }
            },
        };
        self.last = s;
        let fresh = self.acc();
        let (_, at, groups) = &mut self.series[s];
        let g = match at.get(label) {
            Some(&g) => g,
            None => {
                if self.count >= self.max {
                    return Err(Overflow::Groups(self.max));
                }
                self.count += 1;
                at.insert(label.to_string(), groups.len());
                groups.push(Group {
                    label: label.to_string(),
                    key,
                    acc: fresh,
                });
                groups.len() - 1
            }
        };
        let acc = &mut groups[g].acc;
        let kept = add(acc, cell);
        self.kept += kept;
        if self.kept > MAX_KEPT {
            return Err(Overflow::Kept);
        }
        Ok(())
    }

    /// The series met so far, in order.
    pub(crate) fn series_names(&self) -> Vec<String> {
        self.series.iter().map(|(name, ..)| name.clone()).collect()
    }

    /// Each series with its groups' (label, value), in order: by key when
    /// the groups have one, else as they came. A group with no value (a
    /// mean of no numbers) is left out.
    pub(crate) fn finish(self) -> Vec<(String, Vec<(String, f64)>)> {
        self.series
            .into_iter()
            .map(|(name, _, mut groups)| {
                if groups.iter().all(|g| g.key.is_some()) {
                    groups.sort_by(|a, b| a.key.unwrap_or(0.0).total_cmp(&b.key.unwrap_or(0.0)));
                }
                let points = groups
                    .into_iter()
                    .filter_map(|g| Some((g.label, value(g.acc)?)))
                    .collect();
                (name, points)
            })
            .collect()
    }
}

/// Adds a cell; the values it now keeps more (a median's, a new
/// distinct one).
fn add(acc: &mut Acc, cell: Cell) -> usize {
    let number = match cell {
        Cell::Number(v) if v.is_finite() => Some(v),
        _ => None,
    };
    match acc {
        Acc::Count(n) => *n += 1,
        Acc::Sum { sum, valid } => {
            if let Some(v) = number {
                *sum += v;
                *valid += 1;
            }
        }
        Acc::Mean { mean, valid } => {
            if let Some(v) = number {
                *valid += 1;
                *mean += (v - *mean) / *valid as f64;
            }
        }
        Acc::Median(values) => {
            if let Some(v) = number {
                values.push(v);
                return 1;
            }
        }
        Acc::Min(m) => {
            if let Some(v) = number {
                *m = Some(m.map_or(v, |m: f64| m.min(v)));
            }
        }
        Acc::Max(m) => {
            if let Some(v) = number {
                *m = Some(m.map_or(v, |m: f64| m.max(v)));
            }
        }
        Acc::Distinct(seen) => {
            let h = match cell {
                Cell::Missing => None,
                Cell::Text(t) => Some(hash(t)),
                Cell::Number(v) => Some(hash(&v.to_string())),
            };
            return usize::from(seen.insert(h));
        }
    }
    0
}

fn hash(s: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

/// A group's value, as Vega computes it.
fn value(acc: Acc) -> Option<f64> {
    match acc {
        Acc::Count(n) => Some(n as f64),
        Acc::Sum { sum, valid } => (valid > 0).then_some(sum),
        Acc::Mean { mean, valid } => (valid > 0).then_some(mean),
        Acc::Median(mut values) => {
            if values.is_empty() {
                return None;
            }
            values.sort_by(f64::total_cmp);
            // Vega's quantile: h = (n - 1) p, between its neighbours.
            let h = (values.len() - 1) as f64 * 0.5;
            let lo = h.floor() as usize;
            let a = values[lo];
            Some(match values.get(lo + 1) {
                Some(b) => a + (b - a) * (h - lo as f64),
                None => a,
            })
        }
        Acc::Min(m) | Acc::Max(m) => m,
        Acc::Distinct(seen) => Some(seen.len() as f64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(op: AggregateOp, rows: &[(&str, Cell)]) -> Vec<(String, f64)> {
        let mut g = Groups::new(op, 100);
        for (label, cell) in rows {
            g.push("", label, None, *cell).unwrap();
        }
        g.finish().remove(0).1
    }

    #[test]
    fn each_operation_over_groups_in_order_of_appearance() {
        let rows = [
            ("b", Cell::Number(4.0)),
            ("a", Cell::Number(1.0)),
            ("b", Cell::Number(2.0)),
            ("a", Cell::Missing),
            ("b", Cell::Number(9.0)),
            ("a", Cell::Number(2.0)),
        ];
        let want = |v: &[f64]| vec![("b".to_string(), v[0]), ("a".to_string(), v[1])];
        assert_eq!(run(AggregateOp::Count, &rows), want(&[3.0, 3.0]));
        assert_eq!(run(AggregateOp::Sum, &rows), want(&[15.0, 3.0]));
        assert_eq!(run(AggregateOp::Mean, &rows), want(&[5.0, 1.5]));
        assert_eq!(run(AggregateOp::Median, &rows), want(&[4.0, 1.5]));
        assert_eq!(run(AggregateOp::Min, &rows), want(&[2.0, 1.0]));
        assert_eq!(run(AggregateOp::Max, &rows), want(&[9.0, 2.0]));
        // A missing cell is a distinct value, as Vega counts it.
        assert_eq!(run(AggregateOp::Distinct, &rows), want(&[3.0, 3.0]));
    }

    #[test]
    fn groups_past_the_cap_are_refused_and_keys_sort() {
        let mut g = Groups::new(AggregateOp::Count, 2);
        g.push("", "x", Some(2.0), Cell::Missing).unwrap();
        g.push("", "y", Some(1.0), Cell::Missing).unwrap();
        g.push("", "x", Some(2.0), Cell::Missing).unwrap();
        assert_eq!(
            g.push("", "z", Some(0.0), Cell::Missing),
            Err(Overflow::Groups(2))
        );
        let out = g.finish();
        assert_eq!(
            out[0].1,
            vec![("y".to_string(), 1.0), ("x".to_string(), 2.0)]
        );
    }
}
