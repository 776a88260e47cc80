//! One line of an endless input read as named numbers, without ever
//! seeing the end of the input: `--extract` groups, CSV/TSV rows (header
//! from the first line, or `--columns`), plain numbers (several per line,
//! named by a header line of words such as `vmstat`'s), `key=value`
//! tokens, `label: value` lines and JSON-lines objects.
//!
//! The delimited-or-not decision is made once, on the first line that
//! says anything; the other forms are recognised line by line, so a log
//! can mix them. What is kept between lines is bounded: at most
//! [`MAX_COLUMNS`] header names of at most [`MAX_NAME`] characters.

use regex::{CaptureLocations, Regex};
use serde_json::{Map, Value};

use crate::parse::number::{Decimal, is_missing, parse_number_as};

/// Columns (and JSON keys) read per line; the rest are ignored.
pub const MAX_COLUMNS: usize = 64;
/// Characters kept of a series name.
pub const MAX_NAME: usize = 64;

/// What a line was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Numbers were read (handed to the cell callback).
    Row,
    /// A header: names for the columns of the rows that follow.
    Header,
    /// Nothing to read and nothing wrong: a blank line, a line
    /// `--extract` does not match.
    Ignored,
    /// A line that says something this reader cannot read, and why.
    Unreadable(&'static str),
}

/// A number read from a line: its series name, its column (0-based) when
/// it was a positional cell (for `-y 2`), its value and unit.
pub type CellFn<'a> = dyn FnMut(&str, Option<usize>, f64, &str) + 'a;

/// How lines are split, decided once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Not decided yet: no line said anything.
    Undecided,
    /// CSV or TSV (the delimiter) whose first row may be the header.
    Delimited(u8),
    /// Anything line by line (numbers, key=value, label: value, JSON).
    Loose,
    /// Only JSON objects (`--format jsonl`).
    Json,
}

/// What the caller fixed on the command line.
#[derive(Debug, Clone, Default)]
pub struct LineOptions {
    /// `--extract`, compiled.
    pub extract: Option<Regex>,
    /// `--format csv|tsv` or `-d`: the delimiter.
    pub delimiter: Option<u8>,
    /// `--format jsonl`.
    pub json_only: bool,
    /// `--columns`.
    pub columns: Vec<String>,
    /// `--header` / `--no-header` for the first delimited row.
    pub header: Option<bool>,
    pub decimal: Decimal,
}

/// Reads lines one at a time; keeps the header between them.
pub struct LineReader {
    extract: Option<(Regex, Vec<String>, CaptureLocations)>,
    layout: Layout,
    header_done: bool,
    columns: Vec<String>,
    header: Vec<String>,
    header_flag: Option<bool>,
    decimal: Decimal,
    /// "1", "2", ...: names of unnamed columns, made once.
    numbers: Vec<String>,
    ranges: Vec<(usize, usize)>,
}

impl LineReader {
    pub fn new(opts: &LineOptions) -> LineReader {
        let extract = opts.extract.clone().map(|re| {
            let mut names: Vec<String> = re
                .capture_names()
                .enumerate()
                .skip(1)
                .map(|(i, n)| n.map_or_else(|| i.to_string(), cap_name))
                .collect();
            if names.is_empty() {
                names.push("value".into());
            }
            let locs = re.capture_locations();
            (re, names, locs)
        });
        let layout = match (opts.json_only, opts.delimiter) {
            (true, _) => Layout::Json,
            (false, Some(d)) => Layout::Delimited(d),
            (false, None) => Layout::Undecided,
        };
        LineReader {
            extract,
            layout,
            header_done: false,
            columns: opts.columns.iter().map(|c| cap_name(c)).collect(),
            header: Vec::new(),
            header_flag: opts.header,
            decimal: opts.decimal,
            numbers: (1..=MAX_COLUMNS).map(|i| i.to_string()).collect(),
            ranges: Vec::new(),
        }
    }

    /// Reads one line (no line ending), handing each number to `cell`.
    pub fn read(&mut self, line: &str, cell: &mut CellFn<'_>) -> Outcome {
        if self.extract.is_some() {
            return self.extract(line, cell);
        }
        let t = line.trim();
        if t.is_empty() {
            return Outcome::Ignored;
        }
        if self.layout == Layout::Undecided {
            self.layout = decide(t);
        }
        match self.layout {
            Layout::Delimited(d) => self.delimited(line, d, cell),
            Layout::Json => self.json(t, cell),
            Layout::Loose | Layout::Undecided => self.loose(t, cell),
        }
    }

    fn extract(&mut self, line: &str, cell: &mut CellFn<'_>) -> Outcome {
        let Some((re, names, locs)) = &mut self.extract else {
            return Outcome::Ignored;
        };
        if re.captures_read(locs, line).is_none() {
            return Outcome::Ignored;
        }
        let groups = if locs.len() > 1 { 1..locs.len() } else { 0..1 };
        let mut any = false;
        for (i, g) in groups.enumerate() {
            let Some((s, e)) = locs.get(g) else { continue };
            let text = &line[s..e];
            if is_missing(text) {
                continue;
            }
            match parse_number_as(text, self.decimal) {
                Some(n) => {
                    cell(&names[i], None, n.value, n.unit);
                    any = true;
                }
                None => {
                    return Outcome::Unreadable(
                        "a group of --extract matched text that is not a number",
                    );
                }
            }
        }
        if any { Outcome::Row } else { Outcome::Ignored }
    }

    fn name(&self, i: usize, count: usize) -> &str {
        if let Some(c) = self.columns.get(i) {
            return c;
        }
        if self.header.len() == count
            && let Some(h) = self.header.get(i)
        {
            return h;
        }
        if count == 1 {
            "value"
        } else {
            &self.numbers[i]
        }
    }

    fn delimited(&mut self, line: &str, d: u8, cell: &mut CellFn<'_>) -> Outcome {
        split_fields(line, d, &mut self.ranges);
        let fields = || self.ranges.iter().map(|&(s, e)| line[s..e].trim());
        if !self.header_done {
            self.header_done = true;
            let is_header = self.header_flag.unwrap_or_else(|| {
                fields().any(|f| !f.is_empty())
                    && fields().all(|f| parse_number_as(f, self.decimal).is_none())
            });
            if is_header {
                if self.columns.is_empty() {
                    self.header = fields()
                        .take(MAX_COLUMNS)
                        .map(|f| cap_name(&f.replace("\"\"", "\"")))
                        .collect();
                }
                return Outcome::Header;
            }
        }
        let count = self.ranges.len().min(MAX_COLUMNS);
        let mut any = false;
        for (i, &(s, e)) in self.ranges.iter().take(MAX_COLUMNS).enumerate() {
            let f = line[s..e].trim();
            if is_missing(f) {
                continue;
            }
            // A column of text (a timestamp, a host) is no series.
            if let Some(n) = parse_number_as(f, self.decimal) {
                cell(self.name(i, count), Some(i), n.value, n.unit);
                any = true;
            }
        }
        if any {
            Outcome::Row
        } else {
            Outcome::Unreadable("no number in the row")
        }
    }

    fn json(&mut self, t: &str, cell: &mut CellFn<'_>) -> Outcome {
        if !t.starts_with('{') {
            return Outcome::Unreadable("not a JSON object");
        }
        let Ok(obj) = serde_json::from_str::<Map<String, Value>>(t) else {
            return Outcome::Unreadable("not a JSON object");
        };
        let mut any = false;
        for (k, v) in obj.iter().take(MAX_COLUMNS) {
            let num = match v {
                Value::Number(n) => n.as_f64().map(|v| (v, "")),
                Value::String(s) if !is_missing(s) => {
                    parse_number_as(s, self.decimal).map(|n| (n.value, n.unit))
                }
                _ => None,
            };
            if let Some((value, unit)) = num.filter(|(v, _)| v.is_finite()) {
                cell(&cap_name(k), None, value, unit);
                any = true;
            }
        }
        if any {
            Outcome::Row
        } else {
            Outcome::Unreadable("no number in the JSON object")
        }
    }

    fn loose(&mut self, t: &str, cell: &mut CellFn<'_>) -> Outcome {
        if t.starts_with('{') {
            return self.json(t, cell);
        }
        let mut positional = 0;
        let mut all_cells = true;
        for tok in t.split_whitespace() {
            match self.token(tok) {
                Token::Number => positional += 1,
                Token::Pair(..) => {}
                Token::Word => {
                    all_cells = false;
                    break;
                }
            }
        }
        if all_cells {
            let mut i = 0;
            for tok in t.split_whitespace() {
                if i >= MAX_COLUMNS {
                    break;
                }
                match self.token(tok) {
                    Token::Number => {
                        if let Some(n) = parse_number_as(tok, self.decimal) {
                            cell(self.name(i, positional), Some(i), n.value, n.unit);
                        }
                        i += 1;
                    }
                    Token::Pair(k, v, unit) => cell(&cap_name(k), None, v, unit),
                    Token::Word => {}
                }
            }
            return Outcome::Row;
        }
        if let Some((label, v, unit)) = label_value(t, self.decimal) {
            cell(&cap_name(label), None, v, unit);
            return Outcome::Row;
        }
        let words: Vec<&str> = t.split_whitespace().collect();
        if words.len() <= MAX_COLUMNS && words.iter().all(|w| name_like(w)) {
            self.header = words.into_iter().map(cap_name).collect();
            return Outcome::Header;
        }
        Outcome::Unreadable(
            "no numbers in a form this reader knows (numbers, key=value, label: value, \
             CSV, JSON); --extract REGEX pulls them out of log lines",
        )
    }

    fn token<'t>(&self, tok: &'t str) -> Token<'t> {
        if parse_number_as(tok, self.decimal).is_some() {
            return Token::Number;
        }
        if let Some(at) = tok.find(['=', ':']) {
            let (k, v) = (&tok[..at], &tok[at + 1..]);
            if k.chars().any(char::is_alphabetic)
                && let Some(n) = parse_number_as(v, self.decimal)
            {
                return Token::Pair(k, n.value, n.unit);
            }
        }
        Token::Word
    }
}

enum Token<'t> {
    Number,
    Pair(&'t str, f64, &'t str),
    Word,
}

/// The layout the first line that says anything asks for: tabs or commas
/// make it delimited, unless the line is one number (`1,234`) or a
/// `label: value`; anything else is read line by line.
fn decide(t: &str) -> Layout {
    if t.starts_with('{') {
        return Layout::Loose;
    }
    if t.contains('\t') {
        return Layout::Delimited(b'\t');
    }
    if t.contains(',')
        && parse_number_as(t, Decimal::Auto).is_none()
        && label_value(t, Decimal::Auto).is_none()
    {
        return Layout::Delimited(b',');
    }
    Layout::Loose
}

/// `label: value` or `label = value`: the label before the first `:` or
/// `=`, with a letter in it; the rest one number.
fn label_value(t: &str, dec: Decimal) -> Option<(&str, f64, &str)> {
    let at = t.find([':', '='])?;
    let label = t[..at].trim();
    if label.is_empty() || !label.chars().any(char::is_alphabetic) {
        return None;
    }
    let rest = t[at + 1..].trim();
    if is_missing(rest) {
        return None;
    }
    parse_number_as(rest, dec).map(|n| (label, n.value, n.unit))
}

/// A header word: a letter in it, and only letters, digits and `_ % . / - :`.
fn name_like(w: &str) -> bool {
    w.chars().any(char::is_alphabetic)
        && w.chars()
            .all(|c| c.is_alphanumeric() || "_%./-:()[]#".contains(c))
}

/// A series name, cut at [`MAX_NAME`] characters.
pub fn cap_name(s: &str) -> String {
    match s.char_indices().nth(MAX_NAME) {
        Some((at, _)) => s[..at].to_string(),
        None => s.to_string(),
    }
}

/// Splits a delimited line into field ranges; a field in double quotes
/// is given without them (a doubled quote inside is left doubled).
fn split_fields(line: &str, d: u8, out: &mut Vec<(usize, usize)>) {
    out.clear();
    let b = line.as_bytes();
    let mut i = 0;
    loop {
        // Leading blanks before a quote do not hide it.
        let mut j = i;
        while j < b.len() && b[j] == b' ' {
            j += 1;
        }
        if j < b.len() && b[j] == b'"' {
            let start = j + 1;
            let mut k = start;
            loop {
                match memchr::memchr(b'"', &b[k..]) {
                    Some(q) if b.get(k + q + 1) == Some(&b'"') => k += q + 2,
                    Some(q) => {
                        out.push((start, k + q));
                        k += q + 1;
                        break;
                    }
                    None => {
                        out.push((start, b.len()));
                        k = b.len();
                        break;
                    }
                }
            }
            match memchr::memchr(d, &b[k..]) {
                Some(n) => i = k + n + 1,
                None => return,
            }
        } else {
            match memchr::memchr(d, &b[i..]) {
                Some(n) => {
                    out.push((i, i + n));
                    i += n + 1;
                }
                None => {
                    out.push((i, b.len()));
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Read = (Outcome, Vec<(String, f64, String)>);

    fn read_all(opts: &LineOptions, lines: &[&str]) -> Vec<Read> {
        let mut r = LineReader::new(opts);
        lines
            .iter()
            .map(|l| {
                let mut cells = Vec::new();
                let o = r.read(l, &mut |n: &str, _c: Option<usize>, v: f64, u: &str| {
                    cells.push((n.to_string(), v, u.to_string()))
                });
                (o, cells)
            })
            .collect()
    }

    fn cells(v: &[Read], i: usize) -> Vec<(&str, f64)> {
        v[i].1.iter().map(|(n, v, _)| (n.as_str(), *v)).collect()
    }

    #[test]
    fn csv_with_a_header_and_a_text_column() {
        let got = read_all(
            &LineOptions::default(),
            &["time,rps,\"p99 ms\"", "12:00:01,1200,35.5", "12:00:02,,40"],
        );
        assert_eq!(got[0].0, Outcome::Header);
        assert_eq!(cells(&got, 1), vec![("rps", 1200.0), ("p99 ms", 35.5)]);
        assert_eq!(cells(&got, 2), vec![("p99 ms", 40.0)]);
    }

    #[test]
    fn tsv_without_a_header_takes_columns() {
        let opts = LineOptions {
            columns: vec!["a".into(), "b".into()],
            ..Default::default()
        };
        let got = read_all(&opts, &["1\t2", "3\t4"]);
        assert_eq!(cells(&got, 0), vec![("a", 1.0), ("b", 2.0)]);
        assert_eq!(cells(&got, 1), vec![("a", 3.0), ("b", 4.0)]);
    }

    #[test]
    fn vmstat_style_header_words_name_plain_columns() {
        let got = read_all(
            &LineOptions::default(),
            &[
                "procs -----memory----- ---cpu---",
                " r  b   free us id",
                " 1  0 812344  3 97",
                "7",
            ],
        );
        assert_eq!(got[0].0, Outcome::Header);
        assert_eq!(got[1].0, Outcome::Header);
        assert_eq!(
            cells(&got, 2),
            vec![
                ("r", 1.0),
                ("b", 0.0),
                ("free", 812344.0),
                ("us", 3.0),
                ("id", 97.0)
            ]
        );
        assert_eq!(cells(&got, 3), vec![("value", 7.0)]);
    }

    #[test]
    fn label_value_pairs_json_and_units() {
        let got = read_all(
            &LineOptions::default(),
            &[
                "queue depth: 12",
                "loss=0.25 acc=91%",
                r#"{"rps": 1200, "p99": "35ms", "host": "a"}"#,
                "12.5ms",
            ],
        );
        assert_eq!(cells(&got, 0), vec![("queue depth", 12.0)]);
        assert_eq!(cells(&got, 1), vec![("loss", 0.25), ("acc", 91.0)]);
        assert_eq!(cells(&got, 2), vec![("rps", 1200.0), ("p99", 35.0)]);
        assert_eq!(got[2].1[1].2, "ms");
        assert_eq!(got[3].1[0].2, "ms");
    }

    #[test]
    fn prose_is_unreadable_and_extract_reads_it() {
        let ping = "64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.091 ms";
        let got = read_all(&LineOptions::default(), &[ping]);
        assert!(matches!(got[0].0, Outcome::Unreadable(_)));
        let opts = LineOptions {
            extract: Some(Regex::new(r"time=(?P<ms>[0-9.]+)").unwrap()),
            ..Default::default()
        };
        let got = read_all(&opts, &["PING 127.0.0.1", ping]);
        assert_eq!(got[0].0, Outcome::Ignored);
        assert_eq!(cells(&got, 1), vec![("ms", 0.091)]);
    }

    #[test]
    fn one_number_with_a_thousands_comma_is_not_csv() {
        let got = read_all(&LineOptions::default(), &["1,234", "2,345"]);
        assert_eq!(cells(&got, 1), vec![("value", 2345.0)]);
    }

    #[test]
    fn quoted_fields() {
        let mut r = Vec::new();
        split_fields(r#""a,b",2, "c""d",x"#, b',', &mut r);
        let line = r#""a,b",2, "c""d",x"#;
        let f: Vec<&str> = r.iter().map(|&(s, e)| &line[s..e]).collect();
        assert_eq!(f, vec!["a,b", "2", "c\"\"d", "x"]);
    }
}
