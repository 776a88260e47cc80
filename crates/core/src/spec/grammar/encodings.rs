//! Each mark's encodings against the fields and the axes: a first pass
//! reads the scales the field encodings set (number, date or category per
//! axis; marks must agree), a second checks constants (rule values,
//! rectangle bounds, axis domains) against those scales.

use super::data::parse_date;
use super::rules::{Rule, Violations};
use super::{ChartSpec, FieldType, Mark, Operand, Takes};

const ANY: &[FieldType] = &[FieldType::Number, FieldType::Date, FieldType::String];
const NUMBER: &[FieldType] = &[FieldType::Number];
const POSITION: &[FieldType] = &[FieldType::Number, FieldType::Date];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dir {
    X,
    Y,
}

/// The scale of one axis and the encoding that set it.
type Scale = Option<(FieldType, String)>;

struct Checker<'a> {
    spec: &'a ChartSpec,
    out: &'a mut Violations,
    x: Scale,
    y: Scale,
}

pub(super) fn check(spec: &ChartSpec, out: &mut Violations) {
    let mut c = Checker {
        spec,
        out,
        x: None,
        y: None,
    };
    // A share of a whole has no axes, a heatmap or a box plot has axes of
    // its own: such marks are not on a chart with marks on shared axes.
    let class = |m: &Mark| match m.kind.takes() {
        Takes::Share => 1,
        t if t.own_chart() => 2,
        _ => 0,
    };
    if let Some(other) = spec.marks.iter().find(|m| class(m) != 0)
        && let Some(i) = spec.marks.iter().position(|m| class(m) != class(other))
    {
        let name = other.kind.as_str();
        let alone = if class(other) == 1 {
            format!("{name} marks alone, or no {name} mark")
        } else {
            "rect and boxplot marks (each a chart of its own), or marks on shared axes".into()
        };
        c.out.push(
            Rule::ScaleConflict,
            format!("spec.marks[{i}]"),
            format!("a {name} mark shares the chart with marks on axes"),
            &alone,
        );
        return;
    }
    for (i, m) in spec.marks.iter().enumerate() {
        c.fields_of(m, &format!("spec.marks[{i}]"));
    }
    for (i, m) in spec.marks.iter().enumerate() {
        c.constants_of(m, &format!("spec.marks[{i}]"));
    }
    c.domains();
}

impl Checker<'_> {
    /// Pass 1: encodings that must name fields.
    fn fields_of(&mut self, m: &Mark, path: &str) {
        match m.kind.takes() {
            Takes::Xy {
                categories_on_y,
                band,
            } => self.xy_mark(m, path, categories_on_y, band),
            Takes::Bounds => {
                for (op, name, dir) in [
                    (&m.x_start, "xStart", Dir::X),
                    (&m.x_end, "xEnd", Dir::X),
                    (&m.y_start, "yStart", Dir::Y),
                    (&m.y_end, "yEnd", Dir::Y),
                ] {
                    self.operand_field(op.as_ref(), path, name, dir);
                }
                let pairs = [
                    (&m.x_start, &m.x_end, "xStart", "xEnd"),
                    (&m.y_start, &m.y_end, "yStart", "yEnd"),
                ];
                for (a, b, an, bn) in pairs {
                    self.pair(a.is_some(), b.is_some(), path, an, bn);
                }
            }
            Takes::Reference => {
                let given = [
                    m.x_value.is_some(),
                    m.y_value.is_some(),
                    m.x.is_some(),
                    m.y.is_some(),
                ];
                if given.iter().filter(|g| **g).count() != 1 {
                    self.out.push(
                        Rule::EncodingMissing,
                        path.to_string(),
                        format!("a {} needs exactly one position", m.kind.as_str()),
                        "one of xValue, yValue (constants) or x, y (fields)",
                    );
                    return;
                }
                if let Some(t) = self.field(m.x.as_deref(), path, "x", POSITION) {
                    self.scale(Dir::X, t, &format!("{path}.x"));
                }
                if let Some(t) = self.field(m.y.as_deref(), path, "y", NUMBER) {
                    self.scale(Dir::Y, t, &format!("{path}.y"));
                }
            }
            Takes::Share => {
                self.required(m.angle.as_deref(), path, "angle", NUMBER);
                self.required(m.category.as_deref(), path, "category", ANY);
            }
            // Axes of their own: they set no shared scale.
            Takes::Grid => {
                self.required(m.x.as_deref(), path, "x", ANY);
                self.required(m.y.as_deref(), path, "y", ANY);
                self.field(m.color.as_deref(), path, "color", NUMBER);
            }
            Takes::Distribution => self.distribution(m, path),
        }
    }

    /// A box plot: the values a number field on x or y, the groups (if
    /// any) a field on the other.
    fn distribution(&mut self, m: &Mark, path: &str) {
        let number = |f: &Option<String>| {
            f.as_deref()
                .and_then(|f| self.spec.field_type(f))
                .is_some_and(|t| t == FieldType::Number)
        };
        let values_on_x = number(&m.x) && !number(&m.y);
        let (values, groups) = if values_on_x { ("x", "y") } else { ("y", "x") };
        let (vf, gf) = if values_on_x {
            (&m.x, &m.y)
        } else {
            (&m.y, &m.x)
        };
        if number(&m.x) && number(&m.y) {
            self.out.push(
                Rule::EncodingType,
                path.to_string(),
                "both x and y are number fields".into(),
                "the values a number field on one of x, y; the groups on the other, or none",
            );
            return;
        }
        self.required(vf.as_deref(), path, values, NUMBER);
        self.field(gf.as_deref(), path, groups, ANY);
    }

    fn xy_mark(&mut self, m: &Mark, path: &str, categories_on_y: bool, band: bool) {
        let kind = m.kind.as_str();
        let xt = self.required(m.x.as_deref(), path, "x", ANY);
        // Bars and points may put the categories on y (Swift Charts'
        // horizontal BarMark), when x is a position.
        let y_types = match xt {
            Some(FieldType::Number | FieldType::Date) if categories_on_y => ANY,
            _ => NUMBER,
        };
        let yt = if band && m.y.is_none() {
            if m.y_start.is_none() || m.y_end.is_none() {
                self.out.push(
                    Rule::EncodingMissing,
                    path.to_string(),
                    format!("{} {kind} mark needs y, or yStart and yEnd", article(kind)),
                    "\"y\": a number field, or \"yStart\" and \"yEnd\" for a band",
                );
            }
            self.operand_field(m.y_start.as_ref(), path, "yStart", Dir::Y);
            self.operand_field(m.y_end.as_ref(), path, "yEnd", Dir::Y);
            None
        } else {
            self.required(m.y.as_deref(), path, "y", y_types)
        };
        if let Some(t) = xt {
            self.scale(Dir::X, t, &format!("{path}.x ({kind})"));
        }
        if let Some(t) = yt {
            self.scale(Dir::Y, t, &format!("{path}.y ({kind})"));
        }
    }

    fn pair(&mut self, start: bool, end: bool, path: &str, a: &str, b: &str) {
        if start != end {
            self.out.push(
                Rule::EncodingMissing,
                path.to_string(),
                format!(
                    "{} without {}",
                    if start { a } else { b },
                    if start { b } else { a }
                ),
                &format!("both {a} and {b}, or neither (the band spans the plot)"),
            );
        }
    }

    /// An operand that names a field: checked and its scale noted.
    fn operand_field(&mut self, op: Option<&Operand>, path: &str, name: &str, dir: Dir) {
        let Some(Operand::Text(f)) = op else { return };
        if self.spec.fields.contains_key(f) {
            let types = if dir == Dir::X { POSITION } else { NUMBER };
            if let Some(t) = self.field(Some(f), path, name, types) {
                self.scale(dir, t, &format!("{path}.{name}"));
            }
        }
    }

    fn required(
        &mut self,
        f: Option<&str>,
        path: &str,
        name: &str,
        types: &[FieldType],
    ) -> Option<FieldType> {
        if f.is_none() {
            self.out.push(
                Rule::EncodingMissing,
                format!("{path}.{name}"),
                "missing".into(),
                &format!("the name of a {} field", type_list(types)),
            );
        }
        self.field(f, path, name, types)
    }

    /// A field encoding: it must exist and be of one of `types`.
    fn field(
        &mut self,
        f: Option<&str>,
        path: &str,
        name: &str,
        types: &[FieldType],
    ) -> Option<FieldType> {
        let f = f?;
        let Some(ty) = self.spec.field_type(f) else {
            self.out.push(
                Rule::EncodingField,
                format!("{path}.{name}"),
                format!("{f:?} names no field"),
                &format!("one of the fields: {}", self.field_names()),
            );
            return None;
        };
        if !types.contains(&ty) {
            self.out.push(
                Rule::EncodingType,
                format!("{path}.{name}"),
                format!("{f:?} is a {} field", ty.as_str()),
                &format!("a {} field", type_list(types)),
            );
            return None;
        }
        Some(ty)
    }

    fn field_names(&self) -> String {
        let mut names: Vec<&str> = self
            .spec
            .fields
            .keys()
            .map(String::as_str)
            .take(12)
            .collect();
        if self.spec.fields.len() > names.len() {
            names.push("...");
        }
        if names.is_empty() {
            return "(none declared, and no row has the name)".into();
        }
        names.join(", ")
    }

    fn scale(&mut self, dir: Dir, ty: FieldType, at: &str) {
        let slot = if dir == Dir::X {
            &mut self.x
        } else {
            &mut self.y
        };
        match slot {
            None => *slot = Some((ty, at.to_string())),
            Some((t, first)) if *t != ty => {
                let (t, first) = (*t, first.clone());
                self.out.push(
                    Rule::ScaleConflict,
                    at.to_string(),
                    format!(
                        "a {} scale, but {first} made the {} axis a {} scale",
                        scale_name(ty),
                        if dir == Dir::X { "x" } else { "y" },
                        scale_name(t)
                    ),
                    "fields of one type per axis across all marks",
                );
            }
            Some(_) => {}
        }
    }

    /// Pass 2: constants on the scales the fields set (or that they set,
    /// on an axis no field uses).
    fn constants_of(&mut self, m: &Mark, path: &str) {
        for (op, name, dir) in [
            (&m.x_start, "xStart", Dir::X),
            (&m.x_end, "xEnd", Dir::X),
            (&m.y_start, "yStart", Dir::Y),
            (&m.y_end, "yEnd", Dir::Y),
            (&m.x_value, "xValue", Dir::X),
            (&m.y_value, "yValue", Dir::Y),
        ] {
            if let Some(op) = op {
                self.constant(op, &format!("{path}.{name}"), dir, Rule::EncodingType);
            }
        }
    }

    /// Returns the constant's position when it is one on a number or date scale.
    fn constant(&mut self, op: &Operand, at: &str, dir: Dir, rule: Rule) -> Option<f64> {
        if let Operand::Text(s) = op
            && self.spec.fields.contains_key(s)
        {
            return None;
        }
        let scale = if dir == Dir::X { &self.x } else { &self.y };
        let ty = match (scale, op) {
            (Some((t, _)), _) => *t,
            (None, Operand::Number(_)) => FieldType::Number,
            (None, Operand::Text(s)) if parse_date(s).is_some() => FieldType::Date,
            (None, Operand::Text(_)) => FieldType::String,
        };
        if scale.is_none() {
            self.scale(dir, ty, at);
        }
        match (ty, op) {
            (FieldType::Number, Operand::Number(n)) if n.is_finite() => Some(*n),
            (FieldType::Number, Operand::Number(n)) => {
                let msg = format!("{n} is not a finite number");
                self.out
                    .push(Rule::FiniteNumber, at.into(), msg, "a finite number");
                None
            }
            (FieldType::Date, Operand::Text(s)) => {
                let d = parse_date(s);
                if d.is_none() {
                    let msg = format!("{s:?} is neither a field nor an ISO 8601 date");
                    self.out.push(
                        Rule::DateValue,
                        at.into(),
                        msg,
                        "a date field or an ISO 8601 date",
                    );
                }
                d
            }
            (FieldType::String, Operand::Text(_)) => None,
            (ty, op) => {
                let got = match op {
                    Operand::Number(n) => format!("the number {n}"),
                    Operand::Text(s) => format!("{s:?}, which names no field,"),
                };
                let accepted = match ty {
                    FieldType::Number => "a number field or a number",
                    FieldType::Date => "a date field or an ISO 8601 date",
                    FieldType::String => "a category name",
                };
                let msg = format!("{got} on a {} axis", scale_name(ty));
                self.out.push(rule, at.into(), msg, accepted);
                None
            }
        }
    }

    fn domains(&mut self) {
        let axes = &self.spec.axes;
        for (axis, dir, name) in [(&axes.x, Dir::X, "x"), (&axes.y, Dir::Y, "y")] {
            let Some((lo, hi)) = axis.as_ref().and_then(|a| a.domain.as_ref()) else {
                continue;
            };
            let at = format!("spec.axes.{name}.domain");
            let category = (if dir == Dir::X { &self.x } else { &self.y })
                .as_ref()
                .is_some_and(|(t, _)| *t == FieldType::String);
            if category {
                let msg = "a domain on a category axis".to_string();
                self.out.push(
                    Rule::Domain,
                    at,
                    msg,
                    "no domain: categories are shown as they come",
                );
                continue;
            }
            let names_field =
                |op: &Operand| matches!(op, Operand::Text(s) if self.spec.fields.contains_key(s));
            if names_field(lo) || names_field(hi) {
                let msg = "a field name in a domain".to_string();
                self.out
                    .push(Rule::Domain, at, msg, "[low, high]: two constants");
                continue;
            }
            let (a, b) = (
                self.constant(lo, &at, dir, Rule::Domain),
                self.constant(hi, &at, dir, Rule::Domain),
            );
            if let (Some(a), Some(b)) = (a, b)
                && a == b
            {
                let msg = "low and high are equal".to_string();
                self.out
                    .push(Rule::Domain, at, msg, "[low, high] with low != high");
            }
        }
    }
}

/// `a` or `an` before a word.
fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

fn type_list(types: &[FieldType]) -> String {
    let names: Vec<&str> = types.iter().map(|t| t.as_str()).collect();
    match names.as_slice() {
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        [] => String::new(),
    }
}

fn scale_name(t: FieldType) -> &'static str {
    match t {
        FieldType::Number => "number",
        FieldType::Date => "date",
        FieldType::String => "category",
    }
}
