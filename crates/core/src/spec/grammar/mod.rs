//! The plot grammar: `ui` events of kind `chart`, version 1, whose `spec`
//! is a VisualChartV1 (docs/events.md): rows of data, typed fields, and
//! marks that layer on one pair of axes. Mark encodings follow Swift
//! Charts, so one spec serves a terminal, Vega-Lite and an app.
//!
//! Pure: no I/O. [`validate_spec`] (or [`UiEnvelope::validate`] for a whole
//! event) turns untrusted JSON into a [`ChartSpec`] that every consumer may
//! rely on: within the caps of [`Limits`], marks on the allowlist, numbers
//! finite, dates parseable, every encoding naming a field of a fitting type,
//! unknown top-level members trimmed. What fails is a list of
//! [`Violation`]s, each naming its [`Rule`], the path and what is accepted:
//! the same text warns a person and tells a model how to fix its spec.
//!
//! Conventions the consumers share (the validator enforces them):
//! - `x`, `y`, `angle`, `category` name fields; `series` names a field when
//!   it names a `string` field (one series per value), else it is the
//!   series' constant name (the seed's `"series": "pace"`);
//! - rectangle bounds and rule values are [`Operand`]s: a string naming a
//!   field is that field, any other value a constant on the axis's scale
//!   (a number, an ISO 8601 date on a date axis, a category name);
//! - a field used by an encoding but not declared in `fields` is declared
//!   by validation, its type inferred from the rows (see [`infer_type`]).

mod data;
mod encodings;
mod rules;
mod validate;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::events::Event;

pub use data::{Column, Scalar, infer_type, parse_date};
pub use validate::{Rule, Validated, Violation, Violations, validate_spec};

/// The `kind` of a `ui` event this grammar describes.
pub const KIND_CHART: &str = "chart";
/// The only `version` of it.
pub const VERSION: u64 = 1;
/// Default cap on a spec's size: its compact JSON, in bytes.
pub const DEFAULT_MAX_BYTES: usize = 256 * 1024;
/// Default cap on `dataset.rows`.
pub const DEFAULT_MAX_ROWS: usize = 5_000;
/// Marks per spec: each costs a pass over the rows.
pub const MAX_MARKS: usize = 32;

/// The caps a spec is checked against; flags raise or lower them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max_bytes: usize,
    pub max_rows: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: DEFAULT_MAX_BYTES,
            max_rows: DEFAULT_MAX_ROWS,
        }
    }
}

/// VisualChartV1: what a `ui` chart event's `spec` holds, once validated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct ChartSpec {
    pub dataset: Dataset,
    /// Per column: its type, label and unit. After validation every field an
    /// encoding names is here.
    #[serde(default)]
    pub fields: BTreeMap<String, Field>,
    /// Drawn in order, a later mark over an earlier one (rectangles behind).
    pub marks: Vec<Mark>,
    #[serde(default, skip_serializing_if = "Axes::is_empty")]
    pub axes: Axes,
    /// Kept and passed on, never interpreted (a terminal does not draw it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interaction: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Dataset {
    /// One JSON object per row; a missing or `null` cell is a gap.
    pub rows: Vec<Map<String, Value>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Field {
    #[serde(rename = "type")]
    pub ty: FieldType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FieldType {
    /// Finite JSON numbers.
    Number,
    /// Text (a JSON number or boolean is shown as written).
    String,
    /// ISO 8601 strings: `2026-03-01`, `2026-03`, `2026`,
    /// `2026-03-01T07:30:00Z` (an offset, or none for UTC).
    Date,
}

impl FieldType {
    pub fn as_str(self) -> &'static str {
        match self {
            FieldType::Number => "number",
            FieldType::String => "string",
            FieldType::Date => "date",
        }
    }
}

/// The mark allowlist, each a Swift Charts mark. A mark is a variant here
/// and its row in [`MARKS`] (its name and what its encodings are checked
/// as); what it draws in each output format is its file in
/// `render/marks/` (ARCHITECTURE.md, "Where a new thing goes").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MarkKind {
    Line,
    Area,
    Point,
    Bar,
    Rectangle,
    Rule,
    Sector,
    Rect,
    Boxplot,
}

/// What a kind of mark takes, as the validator checks it (see [`Mark`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// `x` and `y` fields, an optional `series`. `categories_on_y`: `y`
    /// may be a `string` field when `x` is a position (Swift Charts'
    /// horizontal BarMark); `band`: `yStart` and `yEnd` may stand for `y`.
    Xy { categories_on_y: bool, band: bool },
    /// Optional pairs `xStart`/`xEnd`, `yStart`/`yEnd`, fields or constants.
    Bounds,
    /// Exactly one position: `xValue`, `yValue` (constants) or `x`, `y`.
    Reference,
    /// `angle` (a number field) and `category`: a share of a whole, alone
    /// on its chart (no axes).
    Share,
    /// `x` and `y` fields (categories, or numbers and dates as their
    /// distinct values in order) and an optional `color` (a number
    /// field, summed per cell, or `aggregate`d; absent: the rows
    /// counted): a heatmap, a chart of its own.
    Grid,
    /// One number field on `x` or `y` (the values) and, on the other, an
    /// optional field of groups: a box per group, a chart of its own.
    Distribution,
}

impl Takes {
    /// Drawn as a chart of its own, not on axes shared with other marks
    /// (a heatmap, a box plot): several such marks are drawn one under
    /// another.
    pub fn own_chart(self) -> bool {
        matches!(self, Takes::Grid | Takes::Distribution)
    }
}

/// Every mark kind: its name and what its encodings are checked as.
pub const MARKS: [(MarkKind, &str, Takes); 9] = [
    (
        MarkKind::Line,
        "line",
        Takes::Xy {
            categories_on_y: false,
            band: false,
        },
    ),
    (
        MarkKind::Area,
        "area",
        Takes::Xy {
            categories_on_y: false,
            band: true,
        },
    ),
    (
        MarkKind::Point,
        "point",
        Takes::Xy {
            categories_on_y: true,
            band: false,
        },
    ),
    (
        MarkKind::Bar,
        "bar",
        Takes::Xy {
            categories_on_y: true,
            band: false,
        },
    ),
    (MarkKind::Rectangle, "rectangle", Takes::Bounds),
    (MarkKind::Rule, "rule", Takes::Reference),
    (MarkKind::Sector, "sector", Takes::Share),
    (MarkKind::Rect, "rect", Takes::Grid),
    (MarkKind::Boxplot, "boxplot", Takes::Distribution),
];

impl MarkKind {
    pub const ALL: [MarkKind; MARKS.len()] = {
        let mut all = [MarkKind::Line; MARKS.len()];
        let mut i = 0;
        while i < MARKS.len() {
            all[i] = MARKS[i].0;
            i += 1;
        }
        all
    };

    fn row(self) -> &'static (MarkKind, &'static str, Takes) {
        MARKS
            .iter()
            .find(|r| r.0 == self)
            .expect("every kind has its row in MARKS")
    }

    pub fn as_str(self) -> &'static str {
        self.row().1
    }

    /// What its encodings are checked as.
    pub fn takes(self) -> Takes {
        self.row().2
    }

    pub fn parse(s: &str) -> Option<MarkKind> {
        MarkKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// One mark. Which encodings a kind takes (the validator checks it):
///
/// | kind | encodings |
/// | --- | --- |
/// | line, point | `x`, `y`, optional `series` |
/// | area | `x`, and `y` or `yStart` + `yEnd` (a band), optional `series` |
/// | bar | `x`, `y` (one of them may be a `string` field: categories), optional `series` |
/// | rectangle | optional pairs `xStart`/`xEnd`, `yStart`/`yEnd`; a missing pair spans the plot |
/// | rule | one of `xValue`, `yValue`, `x`, `y`; optional `label` |
/// | sector | `angle` (a number field), `category` |
/// | rect | `x`, `y` (any fields: a cell per pair of values), optional `color` (a number field) and `aggregate` |
/// | boxplot | a number field on `x` or `y`, optional groups on the other; whiskers at 1.5 IQR |
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Mark {
    #[serde(rename = "type")]
    pub kind: MarkKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x_start: Option<Operand>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x_end: Option<Operand>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y_start: Option<Operand>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y_end: Option<Operand>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x_value: Option<Operand>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y_value: Option<Operand>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub angle: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// A rect's value: a number field; absent, each cell counts its rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// How a rect's cell makes one value of its rows' `color`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aggregate: Option<Aggregate>,
}

/// How a cell of several rows gets its value, Vega-Lite's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Aggregate {
    /// The rows (the field is not read).
    Count,
    #[default]
    Sum,
    Mean,
    Median,
    Min,
    Max,
}

impl Aggregate {
    pub const ALL: [Aggregate; 6] = [
        Aggregate::Count,
        Aggregate::Sum,
        Aggregate::Mean,
        Aggregate::Median,
        Aggregate::Min,
        Aggregate::Max,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Aggregate::Count => "count",
            Aggregate::Sum => "sum",
            Aggregate::Mean => "mean",
            Aggregate::Median => "median",
            Aggregate::Min => "min",
            Aggregate::Max => "max",
        }
    }

    /// One value of a cell's values (none: no value).
    pub fn of(self, values: &mut [f64]) -> Option<f64> {
        if values.is_empty() {
            return None;
        }
        let n = values.len() as f64;
        Some(match self {
            Aggregate::Count => n,
            Aggregate::Sum => values.iter().sum(),
            Aggregate::Mean => values.iter().sum::<f64>() / n,
            Aggregate::Median => {
                values.sort_unstable_by(f64::total_cmp);
                crate::spec::boxplot::quantile(values, 0.5)
            }
            Aggregate::Min => values.iter().copied().fold(f64::INFINITY, f64::min),
            Aggregate::Max => values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        })
    }
}

impl Mark {
    /// A mark of this kind with no encodings, to fill in.
    pub fn new(kind: MarkKind) -> Mark {
        Mark {
            kind,
            x: None,
            y: None,
            x_start: None,
            x_end: None,
            y_start: None,
            y_end: None,
            x_value: None,
            y_value: None,
            series: None,
            label: None,
            angle: None,
            category: None,
            color: None,
            aggregate: None,
        }
    }
}

/// A rectangle bound or a rule value: a field, or a constant on the axis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Operand {
    Number(f64),
    /// A field's name when `fields` has it, else a date or category constant.
    Text(String),
}

/// What an [`Operand`] means in a validated spec.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Resolved<'a> {
    Field(&'a str),
    /// A number, or a date as seconds since 1970-01-01T00:00:00Z.
    Value(f64),
    Category(&'a str),
}

/// How series of one mark are told apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeriesBy<'a> {
    /// One series, unnamed (the legend uses the y field's label).
    None,
    /// One series with this name.
    Constant(&'a str),
    /// One series per distinct value of this string field.
    Field(&'a str),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Axes {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<Axis>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y: Option<Axis>,
}

impl Axes {
    pub fn is_empty(&self) -> bool {
        self.x.is_none() && self.y.is_none()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Axis {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Larger values toward the origin (pace: faster is up).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub invert: bool,
    /// `[low, high]`: numbers, or ISO 8601 dates on a date axis.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<(Operand, Operand)>,
}

impl ChartSpec {
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.get(name)
    }

    /// The type of a field an encoding names (after validation: always some).
    pub fn field_type(&self, name: &str) -> Option<FieldType> {
        self.fields.get(name).map(|f| f.ty)
    }

    /// A field's values in row order, typed; `None` for an unknown field.
    pub fn column(&self, name: &str) -> Option<Column> {
        let ty = self.field_type(name)?;
        Some(Column::read(&self.dataset.rows, name, ty))
    }

    /// What an operand stands for: a field, or a constant read on a scale
    /// of type `scale` (a date constant becomes seconds since the epoch).
    pub fn resolve<'a>(&'a self, op: &'a Operand, scale: FieldType) -> Option<Resolved<'a>> {
        match op {
            Operand::Text(s) if self.fields.contains_key(s) => Some(Resolved::Field(s)),
            Operand::Number(n) if n.is_finite() && scale == FieldType::Number => {
                Some(Resolved::Value(*n))
            }
            Operand::Text(s) if scale == FieldType::Date => parse_date(s).map(Resolved::Value),
            Operand::Text(s) if scale == FieldType::String => Some(Resolved::Category(s)),
            _ => None,
        }
    }

    /// The type of the x axis (`x: true`) or the y axis, which the marks
    /// of a validated spec agree on: `string` is a category axis. Number
    /// when no mark places anything on it (sectors).
    pub fn axis_type(&self, x: bool) -> FieldType {
        for m in &self.marks {
            let (f, ops) = if x {
                (&m.x, [&m.x_start, &m.x_value])
            } else {
                (&m.y, [&m.y_start, &m.y_value])
            };
            if let Some(t) = f.as_deref().and_then(|f| self.field_type(f)) {
                return t;
            }
            if let Some(o) = ops.into_iter().flatten().next() {
                return match o {
                    Operand::Number(_) => FieldType::Number,
                    Operand::Text(s) => self.field_type(s).unwrap_or(if parse_date(s).is_some() {
                        FieldType::Date
                    } else {
                        FieldType::String
                    }),
                };
            }
        }
        FieldType::Number
    }

    /// How a mark's series are told apart (see the module doc).
    pub fn series_by<'a>(&self, mark: &'a Mark) -> SeriesBy<'a> {
        match mark.series.as_deref() {
            None => SeriesBy::None,
            Some(s) if self.field_type(s) == Some(FieldType::String) => SeriesBy::Field(s),
            Some(s) => SeriesBy::Constant(s),
        }
    }

    /// A field's display name: its label, else its name.
    pub fn field_label<'a>(&'a self, name: &'a str) -> &'a str {
        self.fields
            .get(name)
            .and_then(|f| f.label.as_deref())
            .filter(|l| !l.trim().is_empty())
            .unwrap_or(name)
    }

    /// One line for a person or a model: the marks drawn, the rows, the axes.
    pub fn summary(&self) -> String {
        let mut counts: Vec<(MarkKind, usize)> = Vec::new();
        for m in &self.marks {
            match counts.iter_mut().find(|(k, _)| *k == m.kind) {
                Some((_, n)) => *n += 1,
                None => counts.push((m.kind, 1)),
            }
        }
        let marks: Vec<String> = counts
            .iter()
            .map(|(k, n)| {
                let s = if *n == 1 { "" } else { "s" };
                format!("{n} {} mark{s}", k.as_str())
            })
            .collect();
        let rows = self.dataset.rows.len();
        let s = if rows == 1 { "" } else { "s" };
        format!("{} over {rows} row{s}", marks.join(", "))
    }
}

/// A `ui` event as read, before its spec is checked. Reading never fails:
/// members of the wrong JSON type read as absent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UiEnvelope<'a> {
    pub id: Option<&'a str>,
    pub kind: Option<&'a str>,
    pub version: Option<&'a Value>,
    pub title: Option<&'a str>,
    pub spec: Option<&'a Value>,
    pub fallback_text: Option<&'a str>,
}

impl<'a> UiEnvelope<'a> {
    pub fn read(event: &'a Map<String, Value>) -> UiEnvelope<'a> {
        let s = |k: &str| event.get(k).and_then(Value::as_str);
        UiEnvelope {
            id: s("id"),
            kind: s("kind"),
            version: event.get("version"),
            title: s("title"),
            spec: event.get("spec"),
            fallback_text: s("fallbackText"),
        }
    }

    /// Checks `kind` (`chart`), `version` (1) and the spec.
    pub fn validate(&self, limits: &Limits) -> Result<Validated, Violations> {
        validate::validate_envelope(self, limits)
    }
}

/// A `ui` event carrying a chart: `{"type":"ui","id",...,"kind":"chart",
/// "version":1,"title","spec","fallbackText"}`, absent options left out.
pub fn ui_event(
    id: &str,
    title: Option<&str>,
    spec: &ChartSpec,
    fallback_text: Option<&str>,
) -> Event {
    let mut map = Map::new();
    map.insert("type".into(), "ui".into());
    map.insert("id".into(), id.into());
    map.insert("kind".into(), KIND_CHART.into());
    map.insert("version".into(), VERSION.into());
    if let Some(t) = title {
        map.insert("title".into(), t.into());
    }
    map.insert(
        "spec".into(),
        serde_json::to_value(spec).expect("a spec always serializes"),
    );
    if let Some(t) = fallback_text {
        map.insert("fallbackText".into(), t.into());
    }
    Event(map)
}

#[cfg(test)]
mod tests;
