//! Records in: JSON lines (one object a line), CSV or TSV (the header row
//! names the fields) or plain lines (one field, `line`), from files or
//! stdin. The format is the file name's (`.jsonl`, `.ndjson`, `.csv`,
//! `.tsv`) or sniffed by viz-parse's sniffer ([`sniff_records`]: a byte
//! order mark dropped, the delimiter `,` `;` `|` or tab told by how evenly
//! it splits the lines), unless `--format` says. A bad line (not a JSON
//! object, invalid UTF-8, a CSV row that does not parse) is named on stderr
//! by file and line, skipped and counted; the records around it go on.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::parse::records::{RecordFormat, skip_bom, sniff_records, table_delimiter};
use serde_json::{Map, Value};

/// How the input's records are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// By the file's name, else its first line.
    Auto,
    Jsonl,
    Csv,
    Tsv,
    /// One record a line, its text in the field `line`.
    Lines,
}

/// What the reader hands on: a record and where it came from, or a line
/// that is not one.
pub enum Item {
    Record {
        place: String,
        fields: Map<String, Value>,
    },
    Bad {
        place: String,
        message: String,
    },
}

/// The records of each input in turn (`-` or none is stdin);
/// `stdin_copy`, a file holding stdin's bytes, is named `stdin` too.
pub fn read_all(
    files: &[PathBuf],
    format: Format,
    stdin_copy: Option<&Path>,
) -> impl Iterator<Item = Item> + Send + use<> {
    let files: Vec<PathBuf> = if files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        files.to_vec()
    };
    let copy = stdin_copy.map(Path::to_path_buf);
    files.into_iter().flat_map(move |f| {
        let stdin = f == Path::new("-") || copy.as_deref() == Some(f.as_path());
        one_input(&f, format, stdin)
    })
}

fn one_input(path: &Path, format: Format, stdin: bool) -> Box<dyn Iterator<Item = Item> + Send> {
    let name = if stdin {
        "stdin".to_string()
    } else {
        path.display().to_string()
    };
    let source: Box<dyn Read + Send> = if path == Path::new("-") {
        Box::new(std::io::stdin())
    } else {
        match std::fs::File::open(path) {
            Ok(f) => Box::new(f),
            Err(e) => return bad(name, format!("cannot open: {e}")),
        }
    };
    let mut input = BufReader::with_capacity(64 << 10, source);
    let given = match format {
        Format::Auto => by_name(path),
        f => Some(f),
    };
    // Sniffed as viz-parse sniffs (a `.csv` may be split at `;`), unless
    // the format is given and is not a table.
    let (prefix, sniffed) = match given {
        Some(Format::Jsonl | Format::Lines | Format::Tsv) => (
            Vec::new(),
            skip_bom(&mut input).map(|_| RecordFormat::Lines),
        ),
        _ => match sniff_records(&mut input) {
            Ok(s) => (s.prefix, Ok(s.format)),
            Err(e) => (Vec::new(), Err(e)),
        },
    };
    let sniffed = match sniffed {
        Ok(f) => f,
        Err(e) => return bad(name, format!("read failed: {e}")),
    };
    let format = match given {
        Some(Format::Jsonl) => RecordFormat::Jsonl,
        Some(Format::Lines) => RecordFormat::Lines,
        Some(Format::Tsv) => RecordFormat::Delimited(b'\t'),
        Some(_) => RecordFormat::Delimited(table_delimiter(&sniffed, b',')),
        None => sniffed,
    };
    let input: Box<dyn BufRead + Send> = Box::new(std::io::Cursor::new(prefix).chain(input));
    match format {
        RecordFormat::Delimited(d) => Box::new(delimited(input, name, d)),
        RecordFormat::NotRecords(what) => bad(name, what),
        f => Box::new(Lines {
            input,
            name,
            line: 0,
            json: f == RecordFormat::Jsonl,
        }),
    }
}

/// An input that yields no record but the reason.
fn bad(place: String, message: String) -> Box<dyn Iterator<Item = Item> + Send> {
    Box::new(std::iter::once(Item::Bad { place, message }))
}

fn by_name(path: &Path) -> Option<Format> {
    match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
        "jsonl" | "ndjson" => Some(Format::Jsonl),
        "csv" => Some(Format::Csv),
        "tsv" | "tab" => Some(Format::Tsv),
        _ => None,
    }
}

/// JSON lines or plain lines, read a line at a time (a line's bytes only
/// are held, whatever the file's size).
struct Lines {
    input: Box<dyn BufRead + Send>,
    name: String,
    line: u64,
    json: bool,
}

impl Iterator for Lines {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match self.input.read_until(b'\n', &mut buf) {
                Ok(0) => return None,
                Ok(_) => {}
                Err(e) => {
                    let place = self.name.clone();
                    let message = format!("read failed: {e}");
                    self.line = u64::MAX;
                    return Some(Item::Bad { place, message }).filter(|_| true);
                }
            }
            self.line += 1;
            let place = format!("{}:{}", self.name, self.line);
            let text = match std::str::from_utf8(&buf) {
                Ok(t) => t.trim_end_matches(['\n', '\r']),
                Err(e) => {
                    let message = format!("invalid UTF-8 at byte {}", e.valid_up_to());
                    return Some(Item::Bad { place, message });
                }
            };
            if text.trim().is_empty() {
                continue;
            }
            if !self.json {
                let mut fields = Map::new();
                fields.insert("line".into(), text.into());
                return Some(Item::Record { place, fields });
            }
            return Some(match serde_json::from_str::<Value>(text) {
                Ok(Value::Object(fields)) => Item::Record { place, fields },
                Ok(_) => Item::Bad {
                    place,
                    message: "not a JSON object".into(),
                },
                Err(e) => Item::Bad {
                    place,
                    message: format!("not JSON: {e}"),
                },
            });
        }
    }
}

/// CSV, TSV or `;`/`|`-split lines with a header row; each value a string.
fn delimited(
    input: Box<dyn BufRead + Send>,
    name: String,
    delimiter: u8,
) -> impl Iterator<Item = Item> + Send {
    let mut rdr = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(false)
        .from_reader(input);
    let headers = rdr.headers().cloned();
    let mut failed_header = Some(headers.as_ref().err().map(|e| e.to_string()));
    let headers = headers.unwrap_or_default();
    let mut records = rdr.into_byte_records();
    std::iter::from_fn(move || {
        if let Some(Some(message)) = failed_header.take() {
            return Some(Item::Bad {
                place: format!("{name}:1"),
                message: format!("header: {message}"),
            });
        }
        let row = records.next()?;
        Some(match row {
            Ok(r) => {
                let line = r.position().map_or(0, |p| p.line());
                let place = format!("{name}:{line}");
                let mut fields = Map::new();
                for (h, v) in headers.iter().zip(r.iter()) {
                    match std::str::from_utf8(v) {
                        Ok(v) => fields.insert(h.to_string(), v.into()),
                        Err(_) => {
                            let message = format!("invalid UTF-8 in field '{h}'");
                            return Some(Item::Bad { place, message });
                        }
                    };
                }
                Item::Record { place, fields }
            }
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line());
                Item::Bad {
                    place: format!("{name}:{line}"),
                    message: e.to_string(),
                }
            }
        })
    })
}
