//! Records in: JSON lines (one object a line), CSV or TSV (the header row
//! names the fields) or plain lines (one field, `line`), from files or
//! stdin. The format is the file name's (`.jsonl`, `.ndjson`, `.csv`,
//! `.tsv`) or sniffed from the first line (`{` is JSON lines, a tab is TSV,
//! else plain lines), unless `--format` says. A bad line (not a JSON
//! object, invalid UTF-8, a CSV row that does not parse) is named on stderr
//! by file and line, skipped and counted; the records around it go on.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

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

/// The records of each input in turn (`-` or none is stdin).
pub fn read_all(files: &[PathBuf], format: Format) -> impl Iterator<Item = Item> + Send + use<> {
    let files: Vec<PathBuf> = if files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        files.to_vec()
    };
    files.into_iter().flat_map(move |f| one_input(&f, format))
}

fn one_input(path: &Path, format: Format) -> Box<dyn Iterator<Item = Item> + Send> {
    let name = if path == Path::new("-") {
        "stdin".to_string()
    } else {
        path.display().to_string()
    };
    let source: Box<dyn Read + Send> = if path == Path::new("-") {
        Box::new(std::io::stdin())
    } else {
        match std::fs::File::open(path) {
            Ok(f) => Box::new(f),
            Err(e) => {
                let message = format!("cannot open: {e}");
                return Box::new(std::iter::once(Item::Bad {
                    place: name,
                    message,
                }));
            }
        }
    };
    let mut input = BufReader::with_capacity(64 << 10, source);
    let format = match format {
        Format::Auto => by_name(path).unwrap_or_else(|| sniff(&mut input)),
        f => f,
    };
    match format {
        Format::Csv | Format::Tsv => Box::new(delimited(input, name, format == Format::Tsv)),
        f => Box::new(Lines {
            input,
            name,
            line: 0,
            json: f == Format::Jsonl,
        }),
    }
}

fn by_name(path: &Path) -> Option<Format> {
    match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
        "jsonl" | "ndjson" => Some(Format::Jsonl),
        "csv" => Some(Format::Csv),
        "tsv" | "tab" => Some(Format::Tsv),
        _ => None,
    }
}

fn sniff(input: &mut BufReader<Box<dyn Read + Send>>) -> Format {
    let head = input.fill_buf().unwrap_or(&[]);
    let first = head.split(|b| *b == b'\n').next().unwrap_or(&[]);
    let trimmed = first.trim_ascii_start();
    if trimmed.starts_with(b"{") {
        Format::Jsonl
    } else if first.contains(&b'\t') {
        Format::Tsv
    } else {
        Format::Lines
    }
}

/// JSON lines or plain lines, read a line at a time (a line's bytes only
/// are held, whatever the file's size).
struct Lines {
    input: BufReader<Box<dyn Read + Send>>,
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

/// CSV or TSV with a header row; each value a string.
fn delimited(
    input: BufReader<Box<dyn Read + Send>>,
    name: String,
    tab: bool,
) -> impl Iterator<Item = Item> + Send {
    let mut rdr = csv::ReaderBuilder::new()
        .delimiter(if tab { b'\t' } else { b',' })
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
