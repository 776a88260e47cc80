//! `--filter EXPR`: which rows a chart keeps. `COLUMN=VALUE`, `!=`, `<`,
//! `<=`, `>`, `>=`, and `COLUMN~REGEX` (a regex found in the cell); several
//! filters are ANDed. A value that is a number compares numbers (the
//! cells read as the column's numbers), one that is a date compares
//! moments (the cells read as the column's dates), anything else text.
//! A cell that is missing, or not of the value's kind, passes only `!=`.
//! The same test is written as a Vega-Lite filter expression over rows
//! whose cells are typed that way, so an export filters alike.

use regex::Regex;
use serde_json::Value;

use super::super::dates::{DateOrder, instant};
use super::super::number::{Decimal, is_missing, parse_number_as};

/// A comparison of `--filter`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `~`: the regex is found in the cell.
    Match,
}

impl FilterOp {
    fn symbol(self) -> &'static str {
        match self {
            FilterOp::Eq => "=",
            FilterOp::Ne => "!=",
            FilterOp::Lt => "<",
            FilterOp::Le => "<=",
            FilterOp::Gt => ">",
            FilterOp::Ge => ">=",
            FilterOp::Match => "~",
        }
    }

    /// The operator in a Vega expression.
    fn vega(self) -> &'static str {
        match self {
            FilterOp::Eq => "==",
            FilterOp::Ne => "!=",
            other => other.symbol(),
        }
    }
}

/// One `--filter`, as written: its column is a name or a 1-based number,
/// resolved once the header is known.
#[derive(Debug, Clone)]
pub struct Filter {
    pub column: String,
    pub op: FilterOp,
    pub value: String,
    /// The regex of `~`, compiled when the flag is read.
    regex: Option<Regex>,
}

impl PartialEq for Filter {
    fn eq(&self, other: &Filter) -> bool {
        (&self.column, self.op, &self.value) == (&other.column, other.op, &other.value)
    }
}

/// A `--filter` that cannot be read: a usage error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "--filter {text:?}: {why}; write COLUMN=VALUE, COLUMN!=VALUE, <, <=, >, >= or COLUMN~REGEX (e.g. carrier=AA, delay>=15, origin~^J)"
)]
pub struct FilterError {
    pub text: String,
    pub why: String,
}

impl Filter {
    /// Reads `EXPR`: the column up to the first operator, the value after
    /// it (quotes around it are taken off).
    pub fn parse(text: &str) -> Result<Filter, FilterError> {
        let bad = |why: &str| FilterError {
            text: text.to_string(),
            why: why.to_string(),
        };
        let at = text
            .char_indices()
            .find(|(_, c)| matches!(c, '=' | '!' | '<' | '>' | '~'))
            .map(|(i, _)| i)
            .ok_or_else(|| bad("no comparison"))?;
        let rest = &text[at..];
        let (op, len) = [
            ("!=", FilterOp::Ne),
            ("<=", FilterOp::Le),
            (">=", FilterOp::Ge),
            ("==", FilterOp::Eq),
            ("=", FilterOp::Eq),
            ("<", FilterOp::Lt),
            (">", FilterOp::Gt),
            ("~", FilterOp::Match),
        ]
        .iter()
        .find(|(s, _)| rest.starts_with(s))
        .map(|(s, op)| (*op, s.len()))
        .ok_or_else(|| bad("'!' without '='"))?;
        let column = text[..at].trim().to_string();
        if column.is_empty() {
            return Err(bad("no column before the comparison"));
        }
        let value = unquote(rest[len..].trim()).to_string();
        let regex = if op == FilterOp::Match {
            Some(
                Regex::new(&value)
                    .map_err(|e| bad(&format!("the regex does not compile ({e})")))?,
            )
        } else {
            if value.is_empty() {
                return Err(bad("no value after the comparison"));
            }
            None
        };
        Ok(Filter {
            column,
            op,
            value,
            regex,
        })
    }

    /// The filter as the user wrote it, tidied: `carrier=AA`.
    pub fn describe(&self) -> String {
        format!("{}{}{}", self.column, self.op.symbol(), self.value)
    }
}

fn unquote(v: &str) -> &str {
    for q in ['"', '\''] {
        if let Some(inner) = v.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
            return inner;
        }
    }
    v
}

/// What a filter compares the cells as.
#[derive(Debug, Clone)]
pub(crate) enum Operand {
    Number(f64),
    /// Seconds since the epoch, UTC.
    Date(f64),
    Text(String),
    Regex(Regex),
}

/// A filter on a column of the table: its index and how its cells read.
#[derive(Debug, Clone)]
pub(crate) struct RowFilter {
    pub col: usize,
    pub name: String,
    /// As the user wrote it: `carrier=AA`.
    pub text: String,
    op: FilterOp,
    operand: Operand,
    decimal: Decimal,
    dates: Option<DateOrder>,
}

/// How a filter's column must be typed in rows an export filters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CellKind {
    Number,
    Date,
    Text,
}

impl RowFilter {
    /// The filter on column `col` (called `name`), whose numbers read with
    /// `decimal` and dates in `dates`.
    pub(crate) fn new(
        f: &Filter,
        col: usize,
        name: &str,
        decimal: Decimal,
        dates: Option<DateOrder>,
    ) -> RowFilter {
        let operand = match &f.regex {
            Some(re) => Operand::Regex(re.clone()),
            None => match parse_number_as(&f.value, decimal) {
                Some(n) if n.unit.is_empty() || !f.value.contains(char::is_alphabetic) => {
                    Operand::Number(n.value)
                }
                _ => match instant(&f.value, dates) {
                    Some((t, _)) => Operand::Date(t),
                    None => Operand::Text(f.value.clone()),
                },
            },
        };
        RowFilter {
            col,
            name: name.to_string(),
            text: f.describe(),
            op: f.op,
            operand,
            decimal,
            dates,
        }
    }

    /// The filter as the user wrote it.
    pub(crate) fn describe(&self) -> String {
        self.text.clone()
    }

    pub(crate) fn kind(&self) -> CellKind {
        match self.operand {
            Operand::Number(_) => CellKind::Number,
            Operand::Date(_) => CellKind::Date,
            Operand::Text(_) | Operand::Regex(_) => CellKind::Text,
        }
    }

    /// Whether a row whose cell (trimmed; `None`: missing) is `cell` passes.
    pub(crate) fn passes(&self, cell: Option<&str>) -> bool {
        let cell = cell.filter(|c| !is_missing(c));
        let ord = match (&self.operand, cell) {
            (Operand::Regex(re), Some(c)) => return re.is_match(c),
            (_, None) => None,
            (Operand::Number(v), Some(c)) => {
                parse_number_as(c, self.decimal).and_then(|n| n.value.partial_cmp(v))
            }
            (Operand::Date(v), Some(c)) => {
                instant(c, self.dates).and_then(|(t, _)| t.partial_cmp(v))
            }
            (Operand::Text(v), Some(c)) => Some(c.cmp(v.as_str())),
        };
        use std::cmp::Ordering::{Equal, Greater, Less};
        match (self.op, ord) {
            (FilterOp::Ne, None) => true,
            (_, None) => false,
            (FilterOp::Eq, Some(o)) => o == Equal,
            (FilterOp::Ne, Some(o)) => o != Equal,
            (FilterOp::Lt, Some(o)) => o == Less,
            (FilterOp::Le, Some(o)) => o != Greater,
            (FilterOp::Gt, Some(o)) => o == Greater,
            (FilterOp::Ge, Some(o)) => o != Less,
            (FilterOp::Match, Some(_)) => false,
        }
    }

    /// The same test as a Vega expression over a row whose cell of this
    /// column is typed as [`Self::kind`] says (`null` when it is not one).
    pub(crate) fn vega(&self) -> String {
        let cell = format!("datum[{}]", Value::from(self.name.as_str()));
        let (lhs, rhs) = match &self.operand {
            Operand::Regex(re) => {
                return format!(
                    "isValid({cell}) && test(regexp({}), {cell})",
                    Value::from(re.as_str())
                );
            }
            Operand::Number(v) => (cell.clone(), Value::from(*v).to_string()),
            Operand::Date(v) => (format!("time({cell})"), format!("{}", v * 1000.0)),
            Operand::Text(t) => (cell.clone(), Value::from(t.as_str()).to_string()),
        };
        let test = format!("{lhs} {} {rhs}", self.op.vega());
        if self.op == FilterOp::Ne {
            format!("!isValid({cell}) || {test}")
        } else {
            format!("isValid({cell}) && {test}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(text: &str) -> RowFilter {
        let f = Filter::parse(text).unwrap();
        RowFilter::new(
            &f,
            0,
            &f.column.clone(),
            Decimal::Auto,
            Some(DateOrder::Dmy),
        )
    }

    #[test]
    fn expressions_read_their_column_operator_and_value() {
        let f = Filter::parse(" carrier = \"AA\" ").unwrap();
        assert_eq!(
            (f.column.as_str(), f.op, f.value.as_str()),
            ("carrier", FilterOp::Eq, "AA")
        );
        assert_eq!(Filter::parse("delay>=15").unwrap().op, FilterOp::Ge);
        assert_eq!(Filter::parse("a!=b").unwrap().op, FilterOp::Ne);
        assert_eq!(Filter::parse("origin~^J").unwrap().op, FilterOp::Match);
        for bad in ["carrier", "=AA", "a!b", "a=", "a~("] {
            assert!(Filter::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn numbers_dates_and_text_compare_as_themselves() {
        assert!(on("d>=15").passes(Some("15")));
        assert!(on("d>=15").passes(Some("1,200")));
        assert!(!on("d>=15").passes(Some("9")));
        assert!(!on("d>=15").passes(Some("n/a")));
        assert!(on("d!=15").passes(Some("n/a")));
        assert!(on("d!=15").passes(None));
        assert!(on("date>=2020-01-01").passes(Some("02/01/2020")));
        assert!(!on("date<2020-01-01").passes(Some("Jan 5 2020")));
        assert!(on("c=AA").passes(Some("AA")));
        assert!(!on("c=AA").passes(Some("aa")));
        assert!(on("c~^J").passes(Some("JFK")));
        assert!(!on("c~^J").passes(Some("EWR")));
        assert!(!on("c~^J").passes(None));
    }

    #[test]
    fn the_vega_expression_says_the_same() {
        assert_eq!(
            on("carrier=AA").vega(),
            r#"isValid(datum["carrier"]) && datum["carrier"] == "AA""#
        );
        assert_eq!(
            on("d!=15").vega(),
            r#"!isValid(datum["d"]) || datum["d"] != 15.0"#
        );
        assert_eq!(
            on("day>=2020-01-01").vega(),
            r#"isValid(datum["day"]) && time(datum["day"]) >= 1577836800000"#
        );
        assert_eq!(
            on("o~^J").vega(),
            r#"isValid(datum["o"]) && test(regexp("^J"), datum["o"])"#
        );
    }
}
