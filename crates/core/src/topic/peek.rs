//! The fast look at one event line: validate that it is a JSON object and
//! pick out the handful of fields topic-tag decides on, without building a
//! `serde_json::Value` tree. The line itself is what gets written on (with
//! the stamp spliced in), so unknown fields keep their bytes and order and
//! a million events cost one validating pass each.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use crate::events::topic::{TopicArgs, is_topic_tool};

/// What [`write_stamped`] needs to know about a line to stamp it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    pub has_topic: bool,
    pub fields: usize,
}

/// The fields of one event line that topic-tag looks at. Strings are
/// borrowed from the line when they hold no escapes.
#[derive(Debug, Default)]
pub struct Peek<'a> {
    pub kind: Option<Cow<'a, str>>,
    pub tool_name: Option<Cow<'a, str>>,
    pub tool_id: Option<Cow<'a, str>>,
    pub title: Option<Cow<'a, str>>,
    pub status: Option<Cow<'a, str>>,
    pub severity: Option<Cow<'a, str>>,
    pub timestamp: Option<Cow<'a, str>>,
    pub parameters: Option<&'a RawValue>,
    /// Whether the object already has a `topic` field (the stamp must then
    /// replace it rather than be appended).
    pub has_topic: bool,
    /// The number of fields; zero means the stamp needs no comma.
    pub fields: usize,
}

impl<'a> Peek<'a> {
    /// Parses one trimmed line; the error is serde_json's, which names the
    /// column and what was expected.
    pub fn parse(line: &'a str) -> Result<Peek<'a>, serde_json::Error> {
        serde_json::from_str(line)
    }

    pub fn shape(&self) -> Shape {
        Shape {
            has_topic: self.has_topic,
            fields: self.fields,
        }
    }

    pub fn kind(&self) -> &str {
        self.kind.as_deref().unwrap_or("")
    }

    /// The chapter a `tool_use` line opens: a titled call of a topic
    /// tool ([`TopicArgs::of_call`]). Its `parameters` are read whole only
    /// for a topic tool's call.
    pub fn topic_args(&self) -> Option<TopicArgs> {
        let name = self.tool_name.as_deref().filter(|n| is_topic_tool(n))?;
        let params = self
            .parameters
            .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok());
        TopicArgs::of_call(name, params.as_ref())
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Peek<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(PeekVisitor(std::marker::PhantomData))
    }
}

struct PeekVisitor<'a>(std::marker::PhantomData<&'a ()>);

impl<'de: 'a, 'a> Visitor<'de> for PeekVisitor<'a> {
    type Value = Peek<'a>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Peek<'a>, M::Error> {
        let mut p = Peek::default();
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            p.fields += 1;
            // Duplicate keys: the last one wins, as with serde_json::Value.
            match key.as_ref() {
                "type" => p.kind = map.next_value::<MaybeStr>()?.0,
                "tool_name" => p.tool_name = map.next_value::<MaybeStr>()?.0,
                "tool_id" => p.tool_id = map.next_value::<MaybeStr>()?.0,
                "title" => p.title = map.next_value::<MaybeStr>()?.0,
                "status" => p.status = map.next_value::<MaybeStr>()?.0,
                "severity" => p.severity = map.next_value::<MaybeStr>()?.0,
                "timestamp" => p.timestamp = map.next_value::<MaybeStr>()?.0,
                "parameters" => p.parameters = Some(map.next_value::<&RawValue>()?),
                "topic" => {
                    p.has_topic = true;
                    map.next_value::<IgnoredAny>()?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(p)
    }
}

/// A value that is kept when it is a string and skipped (validated, not
/// built) when it is anything else: a `type` of 5 is a field to ignore,
/// not a reason to lose the line.
#[derive(Debug, Default)]
pub struct MaybeStr<'a>(pub Option<Cow<'a, str>>);

impl<'de: 'a, 'a> Deserialize<'de> for MaybeStr<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(MaybeStrVisitor(std::marker::PhantomData))
    }
}

struct MaybeStrVisitor<'a>(std::marker::PhantomData<&'a ()>);

impl<'de: 'a, 'a> Visitor<'de> for MaybeStrVisitor<'a> {
    type Value = MaybeStr<'a>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(MaybeStr(Some(Cow::Borrowed(v))))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(MaybeStr(Some(Cow::Owned(v.to_owned()))))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(MaybeStr(Some(Cow::Owned(v))))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(MaybeStr(None))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(MaybeStr(None))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(MaybeStr(None))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(MaybeStr(None))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(MaybeStr(None))
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(MaybeStr(None))
    }
    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(MaybeStr(None))
    }
    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(MaybeStr(None))
    }
}

/// Writes `line` (a JSON object already validated by [`Peek::parse`]) to
/// `out` with `stamp` (`"topic":<json string>`) as its topic field: spliced
/// in before the closing brace, or, when the object already has a `topic`,
/// put in that field's place with every other value kept byte for byte.
pub fn write_stamped(out: &mut Vec<u8>, line: &str, shape: Shape, stamp: &[u8]) {
    if !shape.has_topic {
        let body = line.trim_end();
        // A valid object ends with `}` once trailing whitespace is gone.
        let inner = &body[..body.len() - 1];
        out.extend_from_slice(inner.as_bytes());
        if shape.fields > 0 {
            out.push(b',');
        }
        out.extend_from_slice(stamp);
        out.push(b'}');
        return;
    }
    let pairs: Pairs = match serde_json::from_str(line) {
        Ok(p) => p,
        Err(_) => {
            // Unreachable for a line Peek accepted; write it as it came.
            out.extend_from_slice(line.as_bytes());
            return;
        }
    };
    out.push(b'{');
    let mut first = true;
    let mut stamped = false;
    for (key, value) in &pairs.0 {
        if key == "topic" {
            // The first `topic` takes the stamp; later duplicates go.
            if stamped {
                continue;
            }
            stamped = true;
            if !first {
                out.push(b',');
            }
            out.extend_from_slice(stamp);
        } else {
            if !first {
                out.push(b',');
            }
            serde_json::to_writer(&mut *out, key).expect("a string serializes");
            out.push(b':');
            out.extend_from_slice(value.get().as_bytes());
        }
        first = false;
    }
    out.push(b'}');
}

/// An object as its fields in order, the values as raw text.
struct Pairs<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for Pairs<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Pairs<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Pairs<'a>, M::Error> {
                let mut v = Vec::new();
                while let Some(k) = map.next_key::<Cow<'de, str>>()? {
                    v.push((k, map.next_value::<&'de RawValue>()?));
                }
                Ok(Pairs(v))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// `"topic":<title as a JSON string>`, computed once per chapter.
pub fn stamp_for(title: &str) -> Vec<u8> {
    let mut s = b"\"topic\":".to_vec();
    serde_json::to_writer(&mut s, title).expect("a string serializes");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamped(line: &str) -> String {
        let p = Peek::parse(line).unwrap();
        let mut out = Vec::new();
        write_stamped(&mut out, line, p.shape(), &stamp_for("T"));
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn picks_fields_and_skips_the_rest() {
        let p = Peek::parse(
            r#"{"type":"tool_use","x":[1,{"y":2}],"tool_name":"create_new_topic","tool_id":"a\"b","parameters":{"title":"Plan"}}"#,
        )
        .unwrap();
        assert_eq!(p.kind(), "tool_use");
        assert_eq!(p.tool_id.as_deref(), Some("a\"b"));
        assert_eq!(p.topic_args().unwrap().title, "Plan");
        assert_eq!(p.fields, 5);
        assert!(!p.has_topic);
    }

    #[test]
    fn odd_types_are_not_strings() {
        let p = Peek::parse(r#"{"type":5,"title":{"a":1}}"#).unwrap();
        assert_eq!(p.kind(), "");
        assert_eq!(p.title, None);
    }

    #[test]
    fn rejects_non_objects() {
        assert!(Peek::parse("[1]").is_err());
        assert!(Peek::parse("{\"a\":1} x").is_err());
        assert!(Peek::parse("{\"a\":").is_err());
    }

    #[test]
    fn splices_or_replaces_the_stamp() {
        assert_eq!(stamped(r#"{"a":1.50}  "#), r#"{"a":1.50,"topic":"T"}"#);
        assert_eq!(stamped("{ }"), r#"{ "topic":"T"}"#);
        assert_eq!(
            stamped(r#"{"topic":"old","b":1e5,"topic":2}"#),
            r#"{"topic":"T","b":1e5}"#
        );
    }
}
