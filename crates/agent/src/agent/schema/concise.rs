//! The concise schema form people type, as `llm --schema` accepts it:
//! `'model, zero_to_sixty float: seconds from 0 to 60 mph, year int'`.
//! Fields are separated by commas, or by newlines when the text has any
//! (then a description may hold commas); each is `NAME [TYPE][: DESCRIPTION]`
//! with TYPE one of `str` (the default), `int`, `float`, `bool`. The result
//! is a JSON Schema object with every field required, in the order typed.
//! Errors carry the 1-based column (character) where the fault starts.

use serde_json::{Map, Value, json};

/// What is wrong with a concise schema, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConciseError {
    /// 1-based character column in the text as given (on its line when
    /// the fields are one a line).
    pub column: usize,
    /// 1-based line, for the newline-separated form.
    pub line: usize,
    pub message: String,
}

/// The types of the concise form and their JSON Schema names.
pub const TYPES: &[(&str, &str)] = &[
    ("str", "string"),
    ("int", "integer"),
    ("float", "number"),
    ("bool", "boolean"),
];

/// The concise form as a JSON Schema of one object.
pub fn parse(text: &str) -> Result<Value, ConciseError> {
    let by_line = text.contains('\n');
    let mut properties = Map::new();
    let mut required = Vec::new();
    // (line, character column of the piece's start, the piece)
    let mut pieces: Vec<(usize, usize, &str)> = Vec::new();
    if by_line {
        for (i, l) in text.lines().enumerate() {
            pieces.push((i + 1, 1, l));
        }
    } else {
        let mut col = 1;
        for p in text.split(',') {
            pieces.push((1, col, p));
            col += p.chars().count() + 1;
        }
    }
    let only_blank_lines = by_line && pieces.iter().all(|(_, _, p)| p.trim().is_empty());
    for (line, col, piece) in pieces {
        if piece.trim().is_empty() {
            if by_line && !only_blank_lines {
                continue;
            }
            return Err(ConciseError {
                column: col,
                line,
                message: "an empty field: expected NAME [TYPE][: DESCRIPTION]".into(),
            });
        }
        let (name, ty, desc) = field(piece, line, col)?;
        if properties.contains_key(name) {
            return Err(ConciseError {
                column: col + lead(piece),
                line,
                message: format!("field {name:?} is given twice"),
            });
        }
        let mut p = json!({ "type": ty });
        if let Some(d) = desc {
            p["description"] = d.into();
        }
        properties.insert(name.to_string(), p);
        required.push(Value::from(name));
    }
    Ok(json!({"type": "object", "properties": properties, "required": required}))
}

/// Leading whitespace of `s`, in characters.
fn lead(s: &str) -> usize {
    s.chars().take_while(|c| c.is_whitespace()).count()
}

/// One field: its name, JSON Schema type and description.
fn field(piece: &str, line: usize, col: usize) -> Result<(&str, &str, Option<&str>), ConciseError> {
    let (head, desc) = match piece.split_once(':') {
        Some((h, d)) => (h, Some(d.trim()).filter(|d| !d.is_empty())),
        None => (piece, None),
    };
    let at = |offset_chars: usize, message: String| ConciseError {
        column: col + offset_chars,
        line,
        message,
    };
    let mut words = Vec::new();
    let mut offset = 0;
    for w in head.split(char::is_whitespace) {
        if !w.is_empty() {
            words.push((offset, w));
        }
        offset += w.chars().count() + 1;
    }
    let Some(&(name_at, name)) = words.first() else {
        return Err(at(
            lead(piece),
            "a field without a name: expected NAME [TYPE][: DESCRIPTION]".into(),
        ));
    };
    if let Some(bad) = name
        .char_indices()
        .find(|(_, c)| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.')))
    {
        return Err(at(
            name_at + name[..bad.0].chars().count(),
            format!(
                "{:?} cannot be part of a field name (letters, digits, _, - and . can)",
                bad.1
            ),
        ));
    }
    let ty = match words.get(1) {
        None => "string",
        Some(&(ty_at, ty)) => TYPES
            .iter()
            .find(|(short, _)| short.eq_ignore_ascii_case(ty))
            .map(|(_, long)| *long)
            .ok_or_else(|| {
                at(
                    ty_at,
                    format!(
                        "unknown type {ty:?}: the types are str (the default), int, float, bool"
                    ),
                )
            })?,
    };
    if let Some(&(extra_at, extra)) = words.get(2) {
        return Err(at(
            extra_at,
            format!("unexpected {extra:?}: a field is NAME [TYPE], then \": DESCRIPTION\""),
        ));
    }
    Ok((name, ty, desc))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_llm_form_becomes_a_json_schema() {
        let s = parse("model, zero_to_sixty float: seconds from 0 to 60 mph, year int").unwrap();
        assert_eq!(
            s,
            json!({"type": "object", "properties": {
                "model": {"type": "string"},
                "zero_to_sixty": {"type": "number", "description": "seconds from 0 to 60 mph"},
                "year": {"type": "integer"}},
                "required": ["model", "zero_to_sixty", "year"]})
        );
        let keys: Vec<&String> = s["properties"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["model", "zero_to_sixty", "year"]);
    }

    #[test]
    fn one_field_a_line_lets_descriptions_hold_commas() {
        let s = parse("name\nage int: in years, rounded down\n\ncool bool\n").unwrap();
        assert_eq!(
            s["properties"]["age"]["description"],
            "in years, rounded down"
        );
        assert_eq!(s["properties"]["cool"]["type"], "boolean");
        assert_eq!(s["required"], json!(["name", "age", "cool"]));
    }

    #[test]
    fn errors_say_the_column() {
        let e = parse("model, zero_to_sixty integer").unwrap_err();
        assert_eq!(e.column, 22, "{e:?}");
        assert!(e.message.starts_with("unknown type \"integer\""), "{e:?}");
        let e = parse("model,, year int").unwrap_err();
        assert_eq!((e.column, e.line), (7, 1));
        let e = parse("model, the year int").unwrap_err();
        assert_eq!(e.column, 12, "{e:?}");
        let e = parse("model str extra").unwrap_err();
        assert_eq!(e.column, 11, "{e:?}");
        let e = parse("a, b, a").unwrap_err();
        assert_eq!(e.column, 7, "{e:?}");
        assert!(e.message.contains("twice"));
        let e = parse("x\ny{ int").unwrap_err();
        assert_eq!((e.line, e.column), (2, 2));
        assert!(parse("").is_err());
        assert!(parse(" : just a description").is_err());
    }
}
