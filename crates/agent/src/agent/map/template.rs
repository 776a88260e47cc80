//! The map prompt as a template: `{field}` takes a record's value,
//! `{field.sub}` a nested JSON value, `{{` and `}}` are literal braces. A
//! template that names no field gets the record appended as JSON. A field a
//! record lacks is that record's error, not the run's.

use serde_json::{Map, Value};

/// A piece of a parsed template.
#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(String),
    /// A dotted path into the record.
    Field(Vec<String>),
}

#[derive(Debug, Clone)]
pub struct Template {
    pieces: Vec<Piece>,
}

/// A template that cannot be parsed, or a record it cannot fill.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum TemplateError {
    #[error("the template has an unclosed '{{' at byte {0} (write '{{{{' for a literal brace)")]
    Unclosed(usize),
    #[error("the template has an empty field '{{}}' at byte {0}")]
    Empty(usize),
    #[error("the record has no field '{0}'")]
    Missing(String),
}

impl Template {
    pub fn parse(s: &str) -> Result<Template, TemplateError> {
        let mut pieces = Vec::new();
        let mut text = String::new();
        let mut rest = s.char_indices().peekable();
        while let Some((i, c)) = rest.next() {
            match c {
                '{' if rest.peek().map(|p| p.1) == Some('{') => {
                    rest.next();
                    text.push('{');
                }
                '}' if rest.peek().map(|p| p.1) == Some('}') => {
                    rest.next();
                    text.push('}');
                }
                '{' => {
                    let close = s[i..].find('}').ok_or(TemplateError::Unclosed(i))?;
                    let name = s[i + 1..i + close].trim();
                    if name.is_empty() {
                        return Err(TemplateError::Empty(i));
                    }
                    if !text.is_empty() {
                        pieces.push(Piece::Text(std::mem::take(&mut text)));
                    }
                    pieces.push(Piece::Field(name.split('.').map(str::to_string).collect()));
                    while rest.peek().is_some_and(|p| p.0 <= i + close) {
                        rest.next();
                    }
                }
                c => text.push(c),
            }
        }
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        Ok(Template { pieces })
    }

    /// The top-level fields the template names.
    pub fn fields(&self) -> impl Iterator<Item = &str> {
        self.pieces.iter().filter_map(|p| match p {
            Piece::Field(path) => Some(path[0].as_str()),
            Piece::Text(_) => None,
        })
    }

    /// The prompt of one record.
    pub fn render(&self, record: &Map<String, Value>) -> Result<String, TemplateError> {
        let mut out = String::new();
        let mut named = false;
        for p in &self.pieces {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Field(path) => {
                    named = true;
                    let v = lookup(record, path)
                        .ok_or_else(|| TemplateError::Missing(path.join(".")))?;
                    match v {
                        Value::String(s) => out.push_str(s),
                        other => out.push_str(&other.to_string()),
                    }
                }
            }
        }
        if !named {
            if !out.is_empty() && !out.ends_with('\n') {
                out.push_str("\n\n");
            }
            out.push_str(&Value::Object(record.clone()).to_string());
        }
        Ok(out)
    }
}

fn lookup<'a>(record: &'a Map<String, Value>, path: &[String]) -> Option<&'a Value> {
    let mut v = record.get(&path[0])?;
    for k in &path[1..] {
        v = match v {
            Value::Object(m) => m.get(k)?,
            Value::Array(a) => a.get(k.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rec(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn fields_nested_values_and_literal_braces() {
        let t = Template::parse("Label {title} by {user.name} {{x}} {n}").unwrap();
        let r = rec(json!({"title": "crash", "user": {"name": "ann"}, "n": 3}));
        assert_eq!(t.render(&r).unwrap(), "Label crash by ann {x} 3");
        assert_eq!(t.fields().collect::<Vec<_>>(), ["title", "user", "n"]);
    }

    #[test]
    fn no_field_appends_the_record_and_missing_is_an_error() {
        let t = Template::parse("Classify").unwrap();
        assert_eq!(
            t.render(&rec(json!({"a": 1}))).unwrap(),
            "Classify\n\n{\"a\":1}"
        );
        let t = Template::parse("{b}").unwrap();
        assert_eq!(
            t.render(&rec(json!({"a": 1}))),
            Err(TemplateError::Missing("b".into()))
        );
        assert_eq!(
            Template::parse("x {a").unwrap_err(),
            TemplateError::Unclosed(2)
        );
    }
}
