//! JSON documents read record by record: an array's elements (or a run of
//! documents, as `jq .` writes them) are cut out of the stream by [`scan`]
//! one at a time and each read as a JSON line is ([`JsonLines`]: flat
//! objects by the fast lane, the rest by serde_json), so an array of a
//! million records takes the memory JSON lines take, not the whole
//! document's. An object wrapping one array (`{"data": [...]}`,
//! `{"width": 87, "height": 61, "values": [...]}`) streams that array.
//!
//! [`read_json`] decides from the first [`WHOLE`] bytes: a document that
//! ends within them and is an object (an argument object, an event, a map)
//! is parsed whole, as it always was; an array is streamed whatever its
//! size; an object too long to hold is read as a wrapper of its first
//! array, and anything that shape does not fit (a `type`, a `series`, a
//! long value that is not an array before it) is parsed whole.

mod scan;

use std::borrow::Cow;
use std::io::{BufRead, Read};

/// The scanner of a boxed input, as `parse` hands inputs on.
type Input<'a> = Scan<Box<dyn BufRead + 'a>>;

use serde_json::Value;

use super::super::formats::{Beside, arrays_error, jq_path};
use super::super::number::MarkHint;
use super::super::rows::{Cells, Loc, Names, Rows, Warner, short};
use super::super::{ParseError, examples_error};
use super::jsonl::{JsonLines, Shape};
use scan::{End, Scan};

/// Bytes of a document read before deciding how to read it: an object
/// that ends within them is parsed whole (a few MiB of memory at most).
const WHOLE: usize = 256 * 1024;

/// Keys of a render_visualization argument object or an event: an object
/// with one of them before its first array is parsed whole.
const WHOLE_KEYS: &[&str] = &["type", "series", "inputText", "chartType"];

/// A JSON input, as [`read_json`] read it.
pub(crate) enum JsonDoc<'a> {
    /// Records, streamed.
    Rows(Box<JsonItems<'a>>),
    /// The documents, parsed whole (one, or several in a row).
    Whole(Vec<Value>),
}

/// Reads a JSON input (see the module doc). `whole` asks for the old way,
/// every document parsed whole (the argument object of `--format args`).
pub(crate) fn read_json<'a>(
    input: Box<dyn BufRead + 'a>,
    whole: bool,
) -> Result<JsonDoc<'a>, ParseError> {
    let mut scan = Scan::new(input);
    let Some(first) = scan.peek()? else {
        return Err(examples_error("empty input".into()));
    };
    if whole {
        return read_whole(scan);
    }
    scan.hold();
    match scan.value(Some(WHOLE))? {
        End::At(r) => {
            let after = r.end;
            let doc = scan.bytes(r).to_vec();
            scan.consume_to(after);
            if scan.peek()?.is_none() {
                return if first == b'[' {
                    Ok(JsonDoc::Rows(Box::new(JsonItems::array(scan))))
                } else {
                    read_whole(scan)
                };
            }
            // Several documents: a run of events is read whole (it is
            // passed on as events), any other run streamed as records.
            let first_doc: Option<Value> = serde_json::from_slice(&doc).ok();
            if first_doc.as_ref().is_none_or(super::super::is_event) {
                return read_whole(scan);
            }
            Ok(JsonDoc::Rows(Box::new(JsonItems::documents(scan))))
        }
        End::TooLong if first == b'{' => wrapper(scan),
        End::TooLong | End::Cut if first == b'[' => {
            Ok(JsonDoc::Rows(Box::new(JsonItems::array(scan))))
        }
        End::TooLong | End::Cut => read_whole(scan),
    }
}

/// Every document parsed whole: the held bytes and the rest of the input.
fn read_whole<'a>(scan: Input<'a>) -> Result<JsonDoc<'a>, ParseError> {
    let (mut buf, mut rest) = scan.into_held();
    rest.read_to_end(&mut buf)?;
    serde_json::Deserializer::from_slice(&buf)
        .into_iter::<Value>()
        .collect::<Result<Vec<Value>, _>>()
        .map(JsonDoc::Whole)
        .map_err(|e| examples_error(format!("JSON that does not parse ({e})")))
}

/// An object too long to hold, at its `{` (held): its first array
/// streamed, its keys before it kept to be named; or, when it does not
/// look like a wrapper, the whole of it parsed.
fn wrapper(mut scan: Input<'_>) -> Result<JsonDoc<'_>, ParseError> {
    scan.bump();
    let mut keys = Vec::new();
    loop {
        let Some(key) = object_key(&mut scan)? else {
            return read_whole(scan);
        };
        if WHOLE_KEYS.contains(&key.as_str()) {
            return read_whole(scan);
        }
        if scan.peek()? == Some(b'[') {
            scan.release();
            let beside = Beside {
                path: jq_path("", &key),
                keys,
            };
            return Ok(JsonDoc::Rows(Box::new(JsonItems::wrapped(scan, beside))));
        }
        match scan.value(Some(WHOLE))? {
            End::At(r) => scan.consume_to(r.end),
            End::TooLong | End::Cut => return read_whole(scan),
        }
        keys.push(key);
        match scan.peek()? {
            Some(b',') => scan.bump(),
            _ => return read_whole(scan),
        }
    }
}

/// The key at the next byte of an object and the colon after it,
/// consumed; `None` when the next thing is not a key.
fn object_key(scan: &mut Input<'_>) -> Result<Option<String>, ParseError> {
    if scan.peek()? != Some(b'"') {
        return Ok(None);
    }
    let End::At(r) = scan.value(Some(WHOLE))? else {
        return Ok(None);
    };
    let Ok(key) = serde_json::from_slice::<String>(scan.bytes(r.clone())) else {
        return Ok(None);
    };
    scan.consume_to(r.end);
    if scan.peek()? != Some(b':') {
        return Ok(None);
    }
    scan.bump();
    scan.peek()?;
    Ok(Some(key))
}

/// Where the elements come from.
enum Source<'a> {
    /// Streamed from the input.
    Stream { scan: Input<'a>, at: At },
    /// Already parsed (a document read whole).
    Values(std::vec::IntoIter<Value>),
}

/// Where a stream is in its document.
#[derive(Debug, Clone, Copy, PartialEq)]
enum At {
    /// Before an array's first element (or its `]`).
    Open,
    /// After an element: a `,` or the `]` is next.
    Between,
    /// A run of documents: the next one or the end.
    Documents,
    Done,
}

/// The records of an array or a run of documents, read one at a time (see
/// the module doc).
pub(crate) struct JsonItems<'a> {
    source: Source<'a>,
    lines: JsonLines,
    /// The first record's shape, which every record must have.
    shape: Option<Shape>,
    records: usize,
    /// The wrapper around the array, if any: its other keys are named at
    /// the end, and any other array there is an error.
    beside: Option<Beside>,
    runs: bool,
}

impl<'a> JsonItems<'a> {
    /// Records from the held start of `scan` (`at` says what is there),
    /// or from where it is when nothing is held (a wrapper's array).
    fn stream(mut scan: Input<'a>, at: At, beside: Option<Beside>) -> Self {
        scan.rewind();
        scan.release();
        if at == At::Open {
            scan.peek().ok();
            scan.bump();
        }
        JsonItems {
            source: Source::Stream { scan, at },
            lines: JsonLines::new(),
            shape: None,
            records: 0,
            beside,
            runs: at == At::Documents,
        }
    }

    /// A top-level array's elements, the scanner at its `[`.
    fn array(scan: Input<'a>) -> Self {
        JsonItems::stream(scan, At::Open, None)
    }

    /// The array of a wrapper object, the scanner at its `[`.
    fn wrapped(scan: Input<'a>, beside: Beside) -> Self {
        JsonItems::stream(scan, At::Open, Some(beside))
    }

    /// A run of documents, the scanner at the first (held).
    fn documents(scan: Input<'a>) -> Self {
        JsonItems::stream(scan, At::Documents, None)
    }

    /// Elements already parsed, and the wrapper they came from.
    pub(crate) fn values(items: Vec<Value>, beside: Beside) -> Self {
        JsonItems {
            source: Source::Values(items.into_iter()),
            lines: JsonLines::new(),
            shape: None,
            records: 0,
            beside: Some(beside),
            runs: false,
        }
    }
}

/// A record's text, or the record parsed.
enum Item<'t> {
    Text(Cow<'t, str>),
    Value(Value),
}

impl Source<'_> {
    /// The next record; `None` at the end of the array or documents.
    fn next(
        &mut self,
        beside: &mut Option<Beside>,
        warn: &mut Warner,
    ) -> Result<Option<Item<'_>>, ParseError> {
        let (scan, at) = match self {
            Source::Values(items) => return Ok(items.next().map(Item::Value)),
            Source::Stream { scan, at } => (scan, at),
        };
        loop {
            let next = scan.peek()?;
            match (*at, next) {
                (At::Done, _) => return Ok(None),
                (At::Open | At::Between, Some(b']')) => {
                    scan.bump();
                    *at = At::Done;
                    after_array(scan, beside, warn)?;
                    return Ok(None);
                }
                (At::Between, Some(b',')) => {
                    scan.bump();
                    *at = At::Open;
                    continue;
                }
                (At::Documents, None) => return Ok(None),
                (At::Open | At::Between, None) => {
                    *at = At::Done;
                    warn.skip(format!(
                        "the JSON array is not closed (the input ends at byte {}: cut short?)",
                        scan.offset()
                    ))?;
                    return Ok(None);
                }
                (At::Between, Some(_)) => {
                    // A missing comma: said, and the element read anyway.
                    warn.skip(format!(
                        "byte {}: a comma is missing between two elements of the JSON array",
                        scan.offset()
                    ))?;
                }
                _ => {}
            }
            if *at == At::Open {
                *at = At::Between;
            }
            return match scan.value(None)? {
                End::At(r) => {
                    scan.consume_to(r.end);
                    Ok(Some(Item::Text(String::from_utf8_lossy(scan.bytes(r)))))
                }
                End::Cut | End::TooLong => {
                    let from = scan.offset();
                    *at = At::Done;
                    warn.skip(format!(
                        "the input ends inside a JSON record that starts at byte {from} \
                         (cut short?); that record is skipped"
                    ))?;
                    Ok(None)
                }
            };
        }
    }
}

/// After a streamed array's `]`: the rest of its wrapper read (other
/// arrays are an error, other keys named), then nothing may follow.
fn after_array(
    scan: &mut Input<'_>,
    beside: &mut Option<Beside>,
    warn: &mut Warner,
) -> Result<(), ParseError> {
    if let Some(beside) = beside {
        let mut arrays = vec![beside.path.clone()];
        while scan.peek()? == Some(b',') {
            scan.bump();
            let Some(key) = object_key(scan)? else {
                break;
            };
            if scan.peek()? == Some(b'[') {
                arrays.push(jq_path("", &key));
            } else {
                beside.keys.push(key);
            }
            if !scan.skip_value()? {
                break;
            }
        }
        if arrays.len() > 1 {
            return Err(arrays_error(&arrays, &beside.path));
        }
        if scan.peek()? == Some(b'}') {
            scan.bump();
        } else {
            warn.skip(format!(
                "byte {}: the JSON object around {} is not closed as JSON closes one",
                scan.offset(),
                beside.path
            ))?;
            return Ok(());
        }
    }
    if scan.peek()?.is_some() {
        warn.skip(format!(
            "byte {}: more after the JSON document; not read",
            scan.offset()
        ))?;
    }
    Ok(())
}

impl Rows for JsonItems<'_> {
    fn next_row(&mut self, warn: &mut Warner) -> Result<Option<Loc>, ParseError> {
        loop {
            let Some(item) = self.source.next(&mut self.beside, warn)? else {
                if let Some(note) = self.beside.take().and_then(|b| b.note()) {
                    warn.note(note);
                }
                return Ok(None);
            };
            self.records += 1;
            let loc = Loc::Record(self.records);
            // The record's text, shortened only for a warning (shortening
            // every record cost a fifth of reading flights-200k.json).
            let (shape, text) = match item {
                Item::Value(v) => {
                    let text = short(&v.to_string());
                    (self.lines.take(v), Cow::Owned(text))
                }
                Item::Text(t) => match self.lines.parse(t.trim()) {
                    Ok(shape) => (shape, t),
                    Err(e) if self.records == 1 => {
                        return Err(examples_error(format!("JSON that does not parse ({e})")));
                    }
                    Err(e) => {
                        warn.skip(format!(
                            "{loc}: not JSON ({e}), starts with {:?}; skipped",
                            short(t.trim())
                        ))?;
                        continue;
                    }
                },
            };
            if *self.shape.get_or_insert(shape) != shape {
                warn.skip(format!(
                    "{loc}: {} is not shaped like the first element; skipped",
                    short(text.trim())
                ))?;
                continue;
            }
            return Ok(Some(loc));
        }
    }
    fn current(&self) -> &dyn Cells {
        self.lines.current()
    }
    fn names(&self) -> Option<Names> {
        match self.shape? {
            Shape::Object => Some(Names {
                list: self.lines.key_names().to_vec(),
                real: true,
            }),
            Shape::Array => None,
            Shape::Scalar => Some(Names {
                list: vec!["value".into()],
                real: false,
            }),
        }
    }
    fn what(&self) -> String {
        let of = match self.shape {
            None => "",
            Some(Shape::Object) => " of records",
            Some(Shape::Array) => " of rows",
            Some(Shape::Scalar) => " of values",
        };
        if self.runs {
            format!("JSON documents{}", if of.is_empty() { "" } else { of })
        } else {
            format!("a JSON array{of}")
        }
    }
    fn mark_hint(&self) -> MarkHint {
        MarkHint::Point
    }
}

#[cfg(test)]
mod tests;
