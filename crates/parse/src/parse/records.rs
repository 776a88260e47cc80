//! Records in, sniffed as viz-parse sniffs its input: the same prefix
//! reader ([`super::detect::sniff`]: a UTF-8 byte order mark dropped, 64
//! KiB or 200 lines peeked, the delimiter picked from `,` `;` `|` tab by
//! how evenly it splits the lines) told in the words of a program that
//! reads records, not chart data (`gem-ask map`): JSON lines (an event
//! stream is JSON lines too), a table with a header row and its
//! delimiter, or plain lines (what viz-parse calls prose, a Markdown
//! table, `label: value` lines and a single column: each line one record).

use std::io::BufRead;

use super::detect::{self, Kind};

/// How the records of an input are written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordFormat {
    Jsonl,
    /// A header row naming the fields, then rows split at this byte.
    Delimited(u8),
    /// One record a line.
    Lines,
    /// Not text records (compressed, columnar or binary): what it is, for
    /// the error.
    NotRecords(String),
}

/// What [`sniff_records`] read: the bytes to replay before the rest of the
/// reader (the byte order mark left out), and the format.
pub struct SniffedRecords {
    pub prefix: Vec<u8>,
    pub format: RecordFormat,
}

/// Peeks at `r` and says how its records are written.
pub fn sniff_records(r: &mut dyn BufRead) -> std::io::Result<SniffedRecords> {
    let s = detect::sniff(r, None, None)?;
    let format = match s.kind {
        Kind::Events | Kind::Jsonl => RecordFormat::Jsonl,
        Kind::JsonDoc if s.prefix.trim_ascii_start().starts_with(b"{") => RecordFormat::Jsonl,
        Kind::JsonDoc => RecordFormat::NotRecords(
            "a JSON document, not one object a line (jq -c '.[]' makes JSON lines of an array)"
                .into(),
        ),
        Kind::Delimited(d) if b",;|\t".contains(&d) && splits_header(&s.prefix, d) => {
            RecordFormat::Delimited(d)
        }
        Kind::Delimited(_) | Kind::Markdown | Kind::Prose(_) | Kind::Empty => RecordFormat::Lines,
        Kind::Gzip => RecordFormat::NotRecords("gzip-compressed: decompress it first".into()),
        Kind::Parquet | Kind::ArrowFile | Kind::ArrowStream => RecordFormat::NotRecords(
            "Parquet or Arrow: convert it to CSV or JSON lines first".into(),
        ),
        Kind::NotData(what) => RecordFormat::NotRecords(what),
    };
    Ok(SniffedRecords {
        prefix: s.prefix,
        format,
    })
}

/// The delimiter the table is split by when the file's name says it is a
/// table (`.csv` may hold `;`): the sniffed one when it is a table's,
/// else `fallback`.
pub fn table_delimiter(sniffed: &RecordFormat, fallback: u8) -> u8 {
    match sniffed {
        RecordFormat::Delimited(d) => *d,
        _ => fallback,
    }
}

/// Drops a UTF-8 byte order mark at the start of `r` (for an input whose
/// format is given, not sniffed).
pub fn skip_bom(r: &mut dyn BufRead) -> std::io::Result<()> {
    detect::skip_bom(r)
}

/// A single column (a header line without the delimiter) is lines: its
/// first line is a record, not a field's name.
fn splits_header(prefix: &[u8], d: u8) -> bool {
    prefix
        .split(|b| *b == b'\n')
        .find(|l| !l.trim_ascii().is_empty())
        .is_some_and(|l| l.contains(&d))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn format(text: &[u8]) -> (RecordFormat, Vec<u8>) {
        let mut r = std::io::Cursor::new(text.to_vec());
        let s = sniff_records(&mut r).unwrap();
        (s.format, s.prefix)
    }

    #[test]
    fn records_are_told_as_viz_parse_tells_them() {
        let jsonl = b"{\"a\":1}\r\n{\"a\":2}\r\n";
        assert_eq!(format(jsonl).0, RecordFormat::Jsonl);
        assert_eq!(format(b"{\"a\":1}\n").0, RecordFormat::Jsonl);
        let csv = b"\xEF\xBB\xBFname,age\r\nann,3\r\nbob,4\r\n";
        let (f, prefix) = format(csv);
        assert_eq!(f, RecordFormat::Delimited(b','));
        assert!(prefix.starts_with(b"name,"), "the BOM is dropped");
        let semi = b"name;note\nann;hello, there\nbob;fine, thanks\n";
        assert_eq!(format(semi).0, RecordFormat::Delimited(b';'));
        assert_eq!(format(b"a\tb\n1\t2\n").0, RecordFormat::Delimited(b'\t'));
        let prose = b"Fix the login page.\nThe build fails on ARM, sometimes.\n";
        assert_eq!(format(prose).0, RecordFormat::Lines);
        let column = b"bug\nbug\nfeature\nbug\nfeature\nbug\nbug\n";
        assert_eq!(format(column).0, RecordFormat::Lines);
        assert_eq!(format(b"").0, RecordFormat::Lines);
        assert!(matches!(format(b"[1,2]").0, RecordFormat::NotRecords(_)));
        assert!(matches!(
            format(b"\x1f\x8b\x08\0").0,
            RecordFormat::NotRecords(_)
        ));
    }
}
