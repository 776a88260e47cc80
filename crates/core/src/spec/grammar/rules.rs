//! What a grammar spec can break: each [`Rule`] with its stable name, a
//! [`Violation`] naming one, and the capped list of them that validation
//! and the encoding checks both write to ([`Violations`]).

use std::fmt;

/// Violations kept in full; the rest are counted.
const MAX_VIOLATIONS: usize = 20;

/// The rule a spec broke. Its name (`as_str`) is stable: warnings, tests
/// and models see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// The `ui` event's `kind` is not `chart`.
    Kind,
    /// Its `version` is not 1.
    Version,
    /// The spec's compact JSON is over [`Limits::max_bytes`].
    PayloadSize,
    /// `dataset.rows` is over [`Limits::max_rows`].
    RowCount,
    /// No marks, or more than [`MAX_MARKS`].
    MarkCount,
    /// A member is missing or of the wrong JSON type.
    Shape,
    /// A mark `type` not on the allowlist.
    MarkType,
    /// A field `type` other than number, string or date.
    FieldType,
    /// A cell of a number field, or a number constant, that is not a finite number.
    FiniteNumber,
    /// A cell of a date field, or a date constant, that is not ISO 8601.
    DateValue,
    /// A mark lacks an encoding its kind needs.
    EncodingMissing,
    /// An encoding names no field.
    EncodingField,
    /// An encoding names a field of a type the mark cannot use there.
    EncodingType,
    /// Marks disagree on an axis's scale (number, date, category), or a
    /// sector shares the chart with marks on axes.
    ScaleConflict,
    /// An axis domain that is not two distinct values on its scale.
    Domain,
}

impl Rule {
    pub const ALL: [Rule; 15] = [
        Rule::Kind,
        Rule::Version,
        Rule::PayloadSize,
        Rule::RowCount,
        Rule::MarkCount,
        Rule::Shape,
        Rule::MarkType,
        Rule::FieldType,
        Rule::FiniteNumber,
        Rule::DateValue,
        Rule::EncodingMissing,
        Rule::EncodingField,
        Rule::EncodingType,
        Rule::ScaleConflict,
        Rule::Domain,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Rule::Kind => "kind",
            Rule::Version => "version",
            Rule::PayloadSize => "payload-size",
            Rule::RowCount => "row-count",
            Rule::MarkCount => "mark-count",
            Rule::Shape => "shape",
            Rule::MarkType => "mark-type",
            Rule::FieldType => "field-type",
            Rule::FiniteNumber => "finite-number",
            Rule::DateValue => "date-value",
            Rule::EncodingMissing => "encoding-missing",
            Rule::EncodingField => "encoding-field",
            Rule::EncodingType => "encoding-type",
            Rule::ScaleConflict => "scale-conflict",
            Rule::Domain => "domain",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One failed check: where (`spec.marks[1].y`), what is wrong, and what
/// would be accepted there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub rule: Rule,
    pub path: String,
    pub problem: String,
    pub accepted: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}; accepted: {} (rule {})",
            self.path, self.problem, self.accepted, self.rule
        )
    }
}

/// Why a spec was refused: at least one violation, in the order found.
/// `Display` gives one per line, then how many more were not listed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Violations {
    pub list: Vec<Violation>,
    /// Violations found beyond the ones listed.
    pub omitted: usize,
}

impl Violations {
    /// The first violation: the one a one-line warning names.
    pub fn first(&self) -> Option<&Violation> {
        self.list.first()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Whether any violation broke this rule.
    pub fn has(&self, rule: Rule) -> bool {
        self.list.iter().any(|v| v.rule == rule)
    }

    pub(super) fn push(&mut self, rule: Rule, path: String, problem: String, accepted: &str) {
        if self.list.len() < MAX_VIOLATIONS {
            self.list.push(Violation {
                rule,
                path,
                problem,
                accepted: accepted.to_string(),
            });
        } else {
            self.omitted += 1;
        }
    }

    pub(super) fn one(rule: Rule, path: &str, problem: String, accepted: &str) -> Violations {
        let mut v = Violations::default();
        v.push(rule, path.to_string(), problem, accepted);
        v
    }
}

impl fmt::Display for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, v) in self.list.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{v}")?;
        }
        if self.omitted > 0 {
            write!(f, "\n... and {} more", self.omitted)?;
        }
        Ok(())
    }
}

impl std::error::Error for Violations {}
