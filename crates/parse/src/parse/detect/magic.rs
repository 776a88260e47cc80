//! Inputs told by their first bytes: the binary formats viz-parse reads
//! (Parquet, Arrow IPC files and streams; gzip, read through) and the
//! binary files that are not data (images, archives, documents), which
//! are named in a one-line error rather than called "lines of text".

/// What the first bytes say.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Magic {
    Gzip,
    Parquet,
    /// The Arrow IPC file format (`ARROW1`), also Feather v2.
    ArrowFile,
    /// The Arrow IPC stream format (a continuation marker, then a
    /// schema message).
    ArrowStream,
    /// Not data: what it is, and how to get data out of it if there is a
    /// common way.
    Refused(String),
}

/// Known signatures: leading bytes, then what the input is.
const SIGNATURES: &[(&[u8], &str)] = &[
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"%PDF-", "a PDF document"),
    (
        b"PK\x03\x04",
        "a zip archive (or a file made of one: .xlsx, .docx, .ods); \
         take the table out first, e.g. unzip -p archive.zip data.csv | viz-parse",
    ),
    (b"PK\x05\x06", "an empty zip archive"),
    (b"\xfd7zXZ\x00", "xz-compressed; xz -dc FILE | viz-parse"),
    (
        b"\x28\xb5\x2f\xfd",
        "zstd-compressed; zstd -dc FILE | viz-parse",
    ),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"\x7fELF", "a program (an ELF executable)"),
    (
        b"SQLite format 3\x00",
        "an SQLite database; query it as CSV, e.g. \
         sqlite3 -csv -header FILE 'select ...' | viz-parse",
    ),
    (
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
        "an old Office document (.xls, .doc); save or export it as CSV",
    ),
    (
        b"Obj\x01",
        "an Avro file; export it as JSON lines or Parquet",
    ),
];

/// What `b` (the start of an input) is, when its first bytes say.
pub(crate) fn of(b: &[u8]) -> Option<Magic> {
    if b.starts_with(b"\x1f\x8b") {
        return Some(Magic::Gzip);
    }
    if b.starts_with(b"PAR1") {
        return Some(Magic::Parquet);
    }
    if b.starts_with(b"ARROW1") {
        return Some(Magic::ArrowFile);
    }
    // A stream's first message: the continuation marker, a length, then
    // a flatbuffer (whose first word is an offset, so never all ones).
    if b.len() >= 12 && b.starts_with(&[0xff; 4]) && b[4..8] != [0xff; 4] {
        return Some(Magic::ArrowStream);
    }
    if b.len() >= 12 && b.starts_with(b"RIFF") && &b[8..12] == b"WEBP" {
        return Some(Magic::Refused("a WebP image".into()));
    }
    // `BZh`, the block size, and the first block's magic (pi's digits).
    if b.len() >= 10 && b.starts_with(b"BZh") && b[4..10] == *b"1AY&SY" {
        return Some(Magic::Refused(
            "bzip2-compressed; bzip2 -dc FILE | viz-parse".into(),
        ));
    }
    if let Some((_, what)) = SIGNATURES.iter().find(|(sig, _)| b.starts_with(sig)) {
        return Some(Magic::Refused((*what).into()));
    }
    if b.starts_with(b"\xff\xfe") || b.starts_with(b"\xfe\xff") {
        return Some(Magic::Refused(
            "UTF-16 text; convert it first, e.g. iconv -f UTF-16 -t UTF-8 FILE | viz-parse".into(),
        ));
    }
    // Text has no NUL bytes: a start that is mostly NULs (one byte in
    // eight or more) is binary data; a stray NUL is its line's, which the
    // reader names and skips wherever it is.
    let head = &b[..b.len().min(8192)];
    if head.iter().filter(|&&c| c == 0).count() * 8 >= head.len().max(1) {
        return Some(Magic::Refused("binary data (it holds NUL bytes)".into()));
    }
    None
}

/// The one-line error for an input that is not data.
pub(crate) fn refusal(what: &str) -> String {
    format!(
        "{what}: not data viz-parse reads (CSV, TSV, JSON, JSON lines, Markdown tables, \
         Parquet, Arrow IPC; any of them gzip-compressed)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures() {
        assert_eq!(of(b"\x1f\x8b\x08\x00"), Some(Magic::Gzip));
        assert_eq!(of(b"PAR1\x15\x04"), Some(Magic::Parquet));
        assert_eq!(
            of(b"ARROW1\x00\x00\xff\xff\xff\xff"),
            Some(Magic::ArrowFile)
        );
        assert_eq!(
            of(b"\xff\xff\xff\xff\x78\x00\x00\x00\x10\x00\x00\x00"),
            Some(Magic::ArrowStream)
        );
        let refused = |b: &[u8]| match of(b) {
            Some(Magic::Refused(s)) => s,
            other => panic!("{other:?}"),
        };
        assert_eq!(refused(b"\x89PNG\r\n\x1a\n\0\0"), "a PNG image");
        assert_eq!(refused(b"RIFF\x10\x00\x00\x00WEBPVP8 "), "a WebP image");
        assert!(refused(b"PK\x03\x04\x14\x00").starts_with("a zip archive"));
        assert!(refused(b"%PDF-1.7\n").starts_with("a PDF"));
        assert!(refused(b"a\0\0\0\0\0\0\0b").starts_with("binary data"));
        assert_eq!(of(b"a,b\n1,\x002\n3,4\n5,6\n"), None);
        assert!(refused(b"BZh91AY&SY\x00").starts_with("bzip2"));
        assert_eq!(of(b"a,b\n1,2\n"), None);
        assert_eq!(of(b"BZh,ORC,FEA1\n1,2,3\n"), None);
        assert_eq!(of(b"{\"a\": 1}"), None);
        assert_eq!(of(b""), None);
    }
}
