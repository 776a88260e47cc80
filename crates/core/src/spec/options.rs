//! The reduction options an argument object or a bare spec carries
//! (`sort`, `maxPoints`, `keep`, `downsample`), read strictly in one place
//! so the render_visualization tool, viz-parse and viz-render accept and
//! refuse the same things with the same words.

use serde_json::{Map, Value};

use super::{ChartType, DEFAULT_MAX_POINTS, HARD_MAX_POINTS, NormalizeOptions, Reduction, Sort};

/// What the object asked for; `None` where it said nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ArgOptions {
    pub sort: Option<Sort>,
    /// Already capped at [`HARD_MAX_POINTS`].
    pub max_points: Option<usize>,
    /// `Top`, `First` or `Last`.
    pub keep: Option<Reduction>,
    /// `Even`, `Minmax` or `Lttb`.
    pub downsample: Option<Reduction>,
}

impl ArgOptions {
    /// The normalize options for a chart kind: a line is thinned by
    /// `downsample` (else `keep`), bar and table by `keep`.
    pub fn for_chart(&self, chart: ChartType) -> NormalizeOptions {
        NormalizeOptions {
            max_points: self.max_points.unwrap_or(DEFAULT_MAX_POINTS),
            sort: self.sort.unwrap_or_default(),
            reduction: match chart {
                ChartType::Line | ChartType::Spark => self.downsample.or(self.keep),
                ChartType::Bar | ChartType::Table => self.keep,
                ChartType::Point | ChartType::Hist => None,
                ChartType::Heatmap | ChartType::Box => None,
            },
        }
    }
}

/// A refused option: the field and one sentence about it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {problem}")]
pub struct OptionError {
    pub field: String,
    pub problem: String,
}

/// How a JSON value is described in messages: `the string "x"`, `an array`.
pub fn describe_value(v: &Value) -> String {
    let s: String = v.to_string().chars().take(40).collect();
    match v {
        Value::Null => "null".into(),
        Value::Bool(_) => format!("the boolean {s}"),
        Value::Number(_) => format!("the number {s}"),
        Value::String(_) => format!("the string {s}"),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

fn problem(field: &str, problem: String) -> OptionError {
    OptionError {
        field: field.to_string(),
        problem,
    }
}

/// A string field holding one of a few words (any case); absent or null
/// is `None`.
pub fn enum_field<T>(
    obj: &Map<String, Value>,
    key: &str,
    accepted: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Option<T>, OptionError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => parse(&s.trim().to_ascii_lowercase())
            .map(Some)
            .ok_or_else(|| problem(key, format!("must be {accepted}, got {s:?}"))),
        Some(other) => Err(problem(
            key,
            format!("must be {accepted}, got {}", describe_value(other)),
        )),
    }
}

/// Reads `sort` ("none", "asc", "desc"), `maxPoints` (a whole number, or
/// a numeric string; at least 1, capped at 200), `keep` ("top", "first",
/// "last") and `downsample` ("even", "minmax", "lttb"). Anything else in
/// those fields is an error naming the field; other fields are ignored.
pub fn options_from_args(obj: &Map<String, Value>) -> Result<ArgOptions, OptionError> {
    let sort = enum_field(obj, "sort", r#""none", "asc" or "desc""#, |s| match s {
        "none" => Some(Sort::None),
        "asc" => Some(Sort::Asc),
        "desc" => Some(Sort::Desc),
        _ => None,
    })?;
    let keep = enum_field(obj, "keep", r#""top", "first" or "last""#, |s| match s {
        "top" => Some(Reduction::Top),
        "first" => Some(Reduction::First),
        "last" => Some(Reduction::Last),
        _ => None,
    })?;
    let downsample = enum_field(
        obj,
        "downsample",
        r#""even", "minmax" or "lttb""#,
        |s| match s {
            "even" => Some(Reduction::Even),
            "minmax" => Some(Reduction::Minmax),
            "lttb" => Some(Reduction::Lttb),
            _ => None,
        },
    )?;
    let max_points = match obj.get("maxPoints") {
        None | Some(Value::Null) => None,
        Some(v) => {
            let n = v
                .as_f64()
                .or_else(|| v.as_str().and_then(|s| s.trim().parse::<f64>().ok()))
                .filter(|n| n.is_finite() && *n >= 1.0)
                .ok_or_else(|| {
                    problem(
                        "maxPoints",
                        format!(
                            "must be a whole number from 2 to {HARD_MAX_POINTS}, got {}",
                            describe_value(v)
                        ),
                    )
                })?;
            Some((n as usize).min(HARD_MAX_POINTS))
        }
    };
    Ok(ArgOptions {
        sort,
        max_points,
        keep,
        downsample,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: Value) -> Result<ArgOptions, OptionError> {
        options_from_args(v.as_object().unwrap())
    }

    #[test]
    fn reads_and_refuses() {
        let o = read(json!({"sort": "DESC", "maxPoints": 500, "keep": "last"})).unwrap();
        assert_eq!(o.sort, Some(Sort::Desc));
        assert_eq!(o.max_points, Some(HARD_MAX_POINTS));
        assert_eq!(o.keep, Some(Reduction::Last));
        assert_eq!(read(json!({})).unwrap(), ArgOptions::default());
        assert_eq!(
            read(json!({"sort": "descending"})).unwrap_err().field,
            "sort"
        );
        assert_eq!(
            read(json!({"maxPoints": -3})).unwrap_err().field,
            "maxPoints"
        );
        assert_eq!(
            read(json!({"maxPoints": "x"})).unwrap_err().field,
            "maxPoints"
        );
        assert_eq!(
            read(json!({"downsample": 3})).unwrap_err().field,
            "downsample"
        );
        let n = read(json!({"keep": "first", "downsample": "lttb"}))
            .unwrap()
            .for_chart(ChartType::Line);
        assert_eq!(n.reduction, Some(Reduction::Lttb));
    }
}
