//! Format detection from a peeked prefix (at most 64 KiB or 200 lines).
//! An event stream is recognised from its first line alone, so a live
//! stream (`gem-ask | viz-parse`) is never held back waiting for more.
//! Binary inputs are told by their first bytes ([`magic`]).

mod magic;

use std::io::BufRead;

use super::Format;
use super::formats::is_alignment_row;
use super::number::{Decimal, is_missing, parse_number, parse_number_as};
use crate::events::foreign::is_foreign_line;

const PEEK_BYTES: usize = 64 * 1024;
/// How much of a long line is read: of one starting with `{`, to see
/// whether it is an event (an event line can carry a whole file; longer,
/// it is a JSON document, whatever it holds, and is not read further
/// here); of any other, to see a table's whole header. Past it a line is
/// classified from what was read, and memory stays bounded whatever the
/// input (a binary file without line ends, say).
const LONG_LINE_BYTES: usize = 4 << 20;
const PEEK_LINES: usize = 200;
const EVENT_PROBE_LINES: usize = 5;

/// Event types of docs/events.md: a JSON object with one of these is an event.
pub(crate) const EVENT_TYPES: &[&str] = &[
    "init",
    "message",
    "tool_use",
    "tool_result",
    "error",
    "result",
    "visualization",
    "ui",
    "topic",
    "topic_summary",
    "signal",
    "thought",
    "retry",
    "record",
    "source",
];

/// What the prefix says the input is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind {
    Events,
    /// One JSON value (an args object, a map, an array), read whole.
    JsonDoc,
    Jsonl,
    Markdown,
    Delimited(u8),
    Empty,
    /// Not data: what was seen, for the error.
    Prose(String),
    /// gzip-compressed: read through, then sniffed again.
    Gzip,
    Parquet,
    ArrowFile,
    ArrowStream,
    /// A binary file that is not data: the one-line error naming it.
    NotData(String),
}

pub(crate) fn is_event_line(line: &str) -> bool {
    /// The keys looked at; the rest is checked as JSON but not kept.
    #[derive(serde::Deserialize)]
    struct Probe<'a> {
        #[serde(rename = "type", borrow, default)]
        kind: Option<std::borrow::Cow<'a, str>>,
        #[serde(default)]
        session_id: Option<serde::de::IgnoredAny>,
    }
    let t = line.trim();
    t.starts_with('{')
        && serde_json::from_str::<Probe>(t).is_ok_and(|p| {
            p.kind.is_some_and(|k| {
                EVENT_TYPES.contains(&&*k) || is_foreign_line(&k, p.session_id.is_some())
            })
        })
}

/// [`BufRead::read_until`] a newline, but at most `cap` bytes of the line
/// (a minified document is one line as long as the file); returns the
/// bytes read.
fn read_line_capped(r: &mut dyn BufRead, buf: &mut Vec<u8>, cap: usize) -> std::io::Result<usize> {
    let mut n = 0;
    while n < cap {
        let avail = r.fill_buf()?;
        if avail.is_empty() {
            break;
        }
        let take = &avail[..avail.len().min(cap - n)];
        let (len, done) = match memchr::memchr(b'\n', take) {
            Some(i) => (i + 1, true),
            None => (take.len(), false),
        };
        buf.extend_from_slice(&take[..len]);
        r.consume(len);
        n += len;
        if done {
            break;
        }
    }
    Ok(n)
}

/// Drops a UTF-8 byte order mark at the start of the input.
pub(crate) fn skip_bom(r: &mut dyn BufRead) -> std::io::Result<()> {
    let buf = r.fill_buf()?;
    if buf.starts_with(b"\xEF\xBB\xBF") {
        r.consume(3);
    }
    Ok(())
}

/// What [`sniff`] saw: the prefix (to be replayed before the rest of the
/// reader), its kind, and the note for a delimiter it had to pick.
pub(crate) struct Sniffed {
    pub prefix: Vec<u8>,
    pub kind: Kind,
    pub note: Option<String>,
}

/// Reads the prefix and classifies it.
pub(crate) fn sniff(
    r: &mut dyn BufRead,
    forced: Option<Format>,
    delimiter: Option<u8>,
) -> std::io::Result<Sniffed> {
    skip_bom(r)?;
    let sniffed = |prefix, kind| Sniffed {
        prefix,
        kind,
        note: None,
    };
    if forced == Some(Format::Events) {
        return Ok(sniffed(Vec::new(), Kind::Events));
    }
    let mut prefix = Vec::new();
    let mut lines = 0;
    let mut eof = false;
    // An event among the first few lines makes a stream (the first line may
    // be a malformed one, which the stream then reports and skips).
    let mut checked = 0;
    loop {
        let start = prefix.len();
        let probing = checked < EVENT_PROBE_LINES && forced.is_none();
        if read_line_capped(r, &mut prefix, PEEK_BYTES)? == 0 {
            eof = true;
            break;
        }
        // A long line is read on (to a point), as a table's header may be
        // long; but a JSON document is read later as it streams (one line
        // when minified), so only as much of it as may be an event is, and
        // a binary input is told by its first bytes alone.
        let cut = |p: &[u8]| !p.ends_with(b"\n");
        if cut(&prefix) && magic::of(&prefix).is_none() {
            match prefix[start..].trim_ascii_start().first() {
                Some(b'[') => {}
                Some(b'{') if !probing => {}
                _ => {
                    read_line_capped(r, &mut prefix, LONG_LINE_BYTES)?;
                }
            }
        }
        lines += 1;
        let whole = !cut(&prefix) || r.fill_buf()?.is_empty();
        if probing && whole {
            let line = String::from_utf8_lossy(&prefix[start..]);
            if !line.trim().is_empty() {
                checked += 1;
                if is_event_line(&line) {
                    return Ok(sniffed(prefix, Kind::Events));
                }
            }
        }
        if prefix.len() >= PEEK_BYTES || lines >= PEEK_LINES {
            break;
        }
    }
    if let Some(m) = magic::of(&prefix) {
        return Ok(sniffed(prefix, binary_kind(m)));
    }
    let text = String::from_utf8_lossy(&prefix);
    let kind = text_kind(&text, eof, forced, delimiter);
    let note = match kind {
        Kind::Delimited(d) if delimiter.is_none() && matches!(forced, None | Some(Format::Csv)) => {
            delimiter_doubt(&complete_lines(&text, eof), d)
        }
        _ => None,
    };
    Ok(Sniffed { prefix, kind, note })
}

/// The kind of an input its first bytes name.
fn binary_kind(m: magic::Magic) -> Kind {
    match m {
        magic::Magic::Gzip => Kind::Gzip,
        magic::Magic::Parquet => Kind::Parquet,
        magic::Magic::ArrowFile => Kind::ArrowFile,
        magic::Magic::ArrowStream => Kind::ArrowStream,
        magic::Magic::Refused(what) => Kind::NotData(magic::refusal(&what)),
    }
}

/// The kind of a text prefix: the one `--format` forces, else what it
/// looks like.
fn text_kind(text: &str, eof: bool, forced: Option<Format>, delimiter: Option<u8>) -> Kind {
    match forced {
        Some(Format::Json) | Some(Format::Args) => Kind::JsonDoc,
        Some(Format::Jsonl) => Kind::Jsonl,
        Some(Format::Markdown) => Kind::Markdown,
        Some(Format::Tsv) => Kind::Delimited(delimiter.unwrap_or(b'\t')),
        Some(Format::Csv) => Kind::Delimited(
            delimiter
                .or_else(|| sniff_delimiter(&complete_lines(text, eof)))
                .unwrap_or(b','),
        ),
        Some(Format::Events) => Kind::Events,
        None => classify(text, eof, delimiter),
    }
}

/// Lines of the prefix that are whole (the last may be cut by the peek).
fn complete_lines(text: &str, eof: bool) -> Vec<&str> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    if !eof || lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
        .into_iter()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim().is_empty())
        .collect()
}

pub(crate) fn classify(text: &str, eof: bool, delimiter: Option<u8>) -> Kind {
    let lines = complete_lines(text, eof);
    let Some(first) = lines.first().map(|l| l.trim()) else {
        return if text.trim().is_empty() {
            Kind::Empty
        } else {
            // One enormous line (a minified JSON document, say).
            if text.trim_start().starts_with(['{', '[']) {
                Kind::JsonDoc
            } else {
                Kind::Prose(describe(text))
            }
        };
    };
    if let Some(d) = delimiter {
        return Kind::Delimited(d);
    }
    if first.starts_with('{') || first.starts_with('[') {
        if is_event_line(first) {
            return Kind::Events;
        }
        let alone = serde_json::from_str::<serde::de::IgnoredAny>(first).is_ok();
        let next_is_json = lines
            .get(1)
            .is_some_and(|l| l.trim_start().starts_with(['{', '[']));
        return if alone && next_is_json {
            Kind::Jsonl
        } else {
            Kind::JsonDoc
        };
    }
    if lines
        .windows(2)
        .any(|w| w[0].contains('|') && is_alignment_row(w[1]))
    {
        return Kind::Markdown;
    }
    // `label: value` lines, as people and models list figures; before the
    // delimiters, so a decimal comma (`Jan: 1.234,56 €`) is not a field break. The space
    // after the colon keeps times (`12:30`) out.
    if lines.iter().all(|l| {
        l.rsplit_once(':').is_some_and(|(label, value)| {
            !label.trim().is_empty()
                && value.starts_with([' ', '\t'])
                && parse_number(value).is_some()
        })
    }) {
        return Kind::Delimited(b':');
    }
    if let Some(d) = sniff_delimiter(&lines) {
        // Prose with commas splits evenly too; data has numbers in it.
        let any_number = lines.iter().any(|l| {
            l.split(d as char)
                .any(|c| parse_number(c.trim_matches('"')).is_some())
        });
        // A table of words (a header and rows of names) is still a table:
        // the tabular reader then says plainly that no column holds numbers.
        return if any_number || (lines.len() >= 2 && table_of_words(&lines, d)) {
            Kind::Delimited(d)
        } else {
            Kind::Prose(describe(text))
        };
    }
    // A header and rows where some rows have more fields than the header:
    // usually a comma inside an unquoted value (`$1,200`). Read as a table
    // so those rows can be named, rather than called prose.
    if let Some(d) = ragged_delimiter(&lines) {
        return Kind::Delimited(d);
    }

    // One column of numbers is data too (a list of measurements), under a
    // header naming it or not (`cut -d, -f3 data.csv | viz-parse --chart hist`).
    if one_column_of_numbers(&lines) || one_column_of_categories(&lines) {
        return Kind::Delimited(b',');
    }
    Kind::Prose(describe(text))
}

/// A column of short labels that repeat, under a short header (`cut -d,
/// -f1 flights.csv`): a category whose rows are counted, not prose. Each
/// line at most three words, no sentence end, no comma; half the lines
/// or more a repeat of an earlier one.
fn one_column_of_categories(lines: &[&str]) -> bool {
    if lines.len() < 6 || !short_cells(lines) {
        return false;
    }
    let mut distinct: Vec<&str> = lines[1..].iter().map(|l| l.trim()).collect();
    distinct.sort_unstable();
    distinct.dedup();
    distinct.len() * 2 < lines.len()
}

/// Every line a short label: at most three words, no sentence end, no
/// comma.
fn short_cells(lines: &[&str]) -> bool {
    lines.iter().all(|l| {
        let c = l.trim().trim_matches('"');
        !c.is_empty()
            && c.chars().count() <= 30
            && c.split_whitespace().count() <= 3
            && !c.contains(',')
            && !c.ends_with(['.', '!', '?', ':'])
    })
}

/// Whether a prefix read as prose is one column of short labels, a
/// header and two lines or more: what `--aggregate count` asks to count
/// however few repeat (`cut -f1 | viz-parse --aggregate count`).
pub(crate) fn one_column(prefix: &[u8]) -> bool {
    let text = String::from_utf8_lossy(prefix);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines.len() >= 3 && short_cells(&lines)
}

/// Every line a number (or missing), but the first may be a header: a
/// short name that is no number, above at least one number. A few short
/// words among many numbers (a stray `oops` in a file of measurements)
/// are still a column of numbers: the reader says and skips each, as it
/// does past the lines looked at here.
fn one_column_of_numbers(lines: &[&str]) -> bool {
    let numeric = |l: &&str| is_missing(l) || parse_number(l).is_some();
    let short = |l: &str| {
        let name = l.trim().trim_matches('"');
        !name.is_empty()
            && name.chars().count() <= 30
            && name.split_whitespace().count() <= 3
            && !name.ends_with(['.', '!', '?', ':'])
    };
    let body = match lines.split_first() {
        Some((head, rest)) if !rest.is_empty() && !numeric(head) => {
            if !short(head) || !rest.iter().any(|l| parse_number(l).is_some()) {
                return false;
            }
            rest
        }
        _ => lines,
    };
    let numbers = body.iter().filter(|l| parse_number(l).is_some()).count();
    let others: Vec<&&str> = body.iter().filter(|l| !numeric(l)).collect();
    let few = others.len() * 10 <= numbers || (others.len() == 1 && numbers >= 3);
    few && others.iter().all(|l| short(l))
}

/// Every cell short and at most three words: table cells, not sentences.
fn table_of_words(lines: &[&str], d: u8) -> bool {
    lines.iter().all(|l| {
        l.split(d as char).all(|c| {
            let c = c.trim().trim_matches('"');
            c.chars().count() <= 30 && c.split_whitespace().count() <= 3
        })
    })
}

/// The delimiter by which the first line (a header) has some fields and
/// every other line at least as many (and not many more), with a number
/// somewhere: a table with ragged rows.
fn ragged_delimiter(lines: &[&str]) -> Option<u8> {
    if lines.len() < 2 {
        return None;
    }
    let text = lines.join("\n");
    [b'\t', b';', b'|', b','].into_iter().find(|&d| {
        let c = counts(&text, d);
        let head = c[0];
        head > 0
            && c.iter().all(|&n| n >= head)
            && c.iter().all(|&n| n <= head * 2 + 2)
            && lines.iter().skip(1).any(|l| {
                l.split(d as char)
                    .any(|c| parse_number(c.trim().trim_matches('"')).is_some())
            })
    })
}

fn describe(text: &str) -> String {
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    let n = text.lines().filter(|l| !l.trim().is_empty()).count();
    format!(
        "{} line{} of text with no table structure, starting {:?}",
        n,
        if n == 1 { "" } else { "s" },
        super::rows::short(first)
    )
}

/// Delimiters per record, quoting as the csv crate reads it: a quote opens
/// a quoted field only at the start of a field (so `12" screen` is text),
/// `""` inside is an escaped quote, and a newline inside quotes does not
/// end the record.
fn counts(text: &str, d: u8) -> Vec<usize> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let (mut quoted, mut field_start, mut n, mut content) = (false, true, 0, false);
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if quoted {
            if c == b'"' {
                if b.get(i + 1) == Some(&b'"') {
                    i += 1;
                } else {
                    quoted = false;
                }
            }
        } else if c == b'"' && field_start {
            quoted = true;
            field_start = false;
            content = true;
        } else if c == d {
            n += 1;
            field_start = true;
            content = true;
        } else if c == b'\n' {
            if content {
                out.push(n);
            }
            (n, field_start, content) = (0, true, false);
        } else if c != b'\r' {
            field_start = false;
            content = true;
        }
        i += 1;
    }
    if content {
        out.push(n);
    }
    out
}

/// The delimiter that splits the lines most consistently. On a tie the
/// rarer-in-prose one wins: tab, then `;` (its files write decimal commas),
/// then `|`, then `,`.
pub(crate) fn sniff_delimiter(lines: &[&str]) -> Option<u8> {
    best_delimiters(lines).first().copied()
}

/// Every delimiter that splits the lines as consistently as the best one,
/// in the order of preference [`sniff_delimiter`] breaks ties by.
fn best_delimiters(lines: &[&str]) -> Vec<u8> {
    let text = lines.join("\n");
    let mut best: Vec<(f64, u8)> = Vec::new();
    for d in [b'\t', b';', b'|', b','] {
        let counts = counts(&text, d);
        if counts.is_empty() {
            return Vec::new();
        }
        // A last line with fewer fields than the others is a file cut
        // short: the reader names it; it does not unmake the table.
        let counts = match counts.split_last() {
            Some((&last, body))
                if body.len() >= 2
                    && last > 0
                    && mode(body).is_some_and(|(k, n)| n == body.len() && last < k) =>
            {
                body.to_vec()
            }
            _ => counts,
        };
        let Some((_, hits)) = mode(&counts) else {
            continue;
        };
        let share = hits as f64 / counts.len() as f64;
        let needed = if counts.len() < 5 { 1.0 } else { 0.8 };
        if share + 1e-9 >= needed {
            best.push((share, d));
        }
    }
    let top = best.iter().map(|(s, _)| *s).fold(0.0, f64::max);
    best.into_iter()
        .filter(|(s, _)| *s + 1e-9 >= top)
        .map(|(_, d)| d)
        .collect()
}

/// The most frequent nonzero count (the larger on a tie) and how many
/// lines have it.
fn mode(counts: &[usize]) -> Option<(usize, usize)> {
    let mut modes: Vec<(usize, usize)> = Vec::new();
    for &c in counts {
        match modes.iter_mut().find(|(k, _)| *k == c) {
            Some(m) => m.1 += 1,
            None => modes.push((c, 1)),
        }
    }
    modes
        .into_iter()
        .filter(|(k, _)| *k > 0)
        .max_by_key(|(k, n)| (*n, *k))
}

/// The note for a delimiter the lines do not settle: another splits every
/// line as evenly, or each line split at `,` also reads whole as one
/// number with grouped thousands (`1,234`).
pub(crate) fn delimiter_doubt(lines: &[&str], chosen: u8) -> Option<String> {
    let ranked = best_delimiters(lines);
    if ranked.first() != Some(&chosen) {
        return None;
    }
    let shown = |d: u8| match d {
        b'\t' => "tabs".to_string(),
        d => format!("{:?}", d as char),
    };
    let flag = |d: u8| match d {
        b'\t' => "t".to_string(),
        b',' => ",".to_string(),
        d => format!("'{}'", d as char),
    };
    if let Some(&other) = ranked.get(1) {
        return Some(format!(
            "the fields are split at {}, though every line splits as evenly at {}; \
             --delimiter {} splits them there",
            shown(chosen),
            shown(other),
            flag(other)
        ));
    }
    // Grouped thousands only: `2020,5` lines are pairs, not decimals.
    let grouped = |l: &&str| l.contains(',') && parse_number_as(l, Decimal::Point).is_some();
    (chosen == b',' && lines.iter().all(grouped)).then(|| {
        format!(
            "each line is split at \",\", though each also reads as one number ({:?}); \
             --delimiter t (a tab, which the lines lack) reads one number a line",
            super::rows::short(lines[0].trim())
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delimiters() {
        assert_eq!(sniff_delimiter(&["a,b", "c,1"]), Some(b','));
        assert_eq!(sniff_delimiter(&["a;b", "c;1,5"]), Some(b';'));
        assert_eq!(sniff_delimiter(&["a\tb", "c\t1,234"]), Some(b'\t'));
        assert_eq!(sniff_delimiter(&["a|b", "c|1"]), Some(b'|'));
        assert_eq!(sniff_delimiter(&["\"x,y\",b", "c,1"]), Some(b','));
        assert_eq!(sniff_delimiter(&["hello world"]), None);
        assert_eq!(
            sniff_delimiter(&["a,b", "\"multi", "line\",1", "c,2"]),
            Some(b',')
        );
        assert_eq!(sniff_delimiter(&["size,v", "12\" screen,1"]), Some(b','));
        assert_eq!(best_delimiters(&["a;b,c", "1;2,5"]), [b';', b',']);
    }

    #[test]
    fn delimiter_doubts() {
        assert_eq!(delimiter_doubt(&["a;b", "c;1,5"], b';'), None);
        assert_eq!(delimiter_doubt(&["a,b", "c,1"], b','), None);
        let n = delimiter_doubt(&["Monat;Umsatz, EUR", "Jan;1,5"], b';').unwrap();
        assert!(n.contains("--delimiter ,"), "{n}");
        let n = delimiter_doubt(&["1,234", "2,500"], b',').unwrap();
        assert!(n.contains("\"1,234\""), "{n}");
        assert_eq!(delimiter_doubt(&["M5 CS: 2.9s"], b':'), None);
        assert_eq!(delimiter_doubt(&["2020,5", "2021,6"], b','), None);
    }

    #[test]
    fn long_lines_are_read_on_to_a_point_unless_they_are_json_documents() {
        let sniff_of = |text: String| {
            let mut r = std::io::Cursor::new(text.into_bytes());
            let s = sniff(&mut r, None, None).unwrap();
            (s.prefix.len(), s.kind)
        };
        let array = format!("[{}1]\n", "1,".repeat(100_000));
        assert_eq!(sniff_of(array), (PEEK_BYTES, Kind::JsonDoc));
        let object = format!("{{\"a\": [{}1]}}", "1,".repeat(100_000));
        assert_eq!(sniff_of(object.clone()), (object.len(), Kind::JsonDoc));
        let csv = format!("{}\n", vec!["1.5"; 30_000].join(","));
        assert_eq!(sniff_of(csv.clone()), (csv.len(), Kind::Delimited(b',')));
        let event = format!(
            "{{\"type\": \"message\", \"content\": \"{}\"}}\n",
            "x".repeat(100_000)
        );
        assert_eq!(sniff_of(event).1, Kind::Events);
        // Bounded whatever the line: text without a line end, and a binary
        // input, told by its first bytes without reading on.
        let blob = "x".repeat(9 << 20);
        assert_eq!(sniff_of(blob).0, PEEK_BYTES + LONG_LINE_BYTES);
        let gzip = [b"\x1f\x8b".as_slice(), &[b'x'; 200_000]].concat();
        let mut r = std::io::Cursor::new(gzip);
        let s = sniff(&mut r, None, None).unwrap();
        assert_eq!((s.prefix.len(), s.kind), (PEEK_BYTES, Kind::Gzip));
    }

    #[test]
    fn kinds() {
        assert_eq!(classify("{\"a\":1}\n{\"a\":2}\n", true, None), Kind::Jsonl);
        assert_eq!(classify("{\n \"a\": 1\n}\n", true, None), Kind::JsonDoc);
        assert_eq!(classify("[[\"a\",1]]", true, None), Kind::JsonDoc);
        assert_eq!(
            classify("| a | b |\n|---|---|\n| x | 1 |\n", true, None),
            Kind::Markdown
        );
        assert_eq!(classify("1\n2\n3\n", true, None), Kind::Delimited(b','));
        // One column under its header, a missing value in it.
        assert_eq!(
            classify("dep_delay\n12\n\n-3\nNA\n", true, None),
            Kind::Delimited(b',')
        );
        assert!(matches!(
            classify("The results are in.\n12\n", true, None),
            Kind::Prose(_)
        ));
        assert!(matches!(
            classify("delay\nlate\n", true, None),
            Kind::Prose(_)
        ));
        // A stray word among numbers, headed or not; not among few.
        assert_eq!(
            classify("1.5\n2\nx\n4\n", true, None),
            Kind::Delimited(b',')
        );
        assert_eq!(
            classify("delay\n1\n2\nlate\n3\n", true, None),
            Kind::Delimited(b',')
        );
        for prose in [
            "hello\n3\nworld\n",
            "1\n2\nx\ny\n4\n",
            "1\n2\n3\nIt rained all day.\n",
        ] {
            assert!(
                matches!(classify(prose, true, None), Kind::Prose(_)),
                "{prose:?}"
            );
        }
        assert!(matches!(
            classify("The M5 is fast.\n", true, None),
            Kind::Prose(_)
        ));
        assert_eq!(classify("  \n", true, None), Kind::Empty);
        assert_eq!(
            classify("M5 CS: 2.9s\nM8: 3.0s\n", true, None),
            Kind::Delimited(b':')
        );
        assert_eq!(
            classify("Jan: 1.234,56 €\nFeb: 2.000,00 €\n", true, None),
            Kind::Delimited(b':')
        );
        assert!(matches!(
            classify("Note: it is fast\n", true, None),
            Kind::Prose(_)
        ));
        assert!(matches!(classify("at 12:30\n", true, None), Kind::Prose(_)));
    }
}
