//! CSV and TSV (and other one-byte delimiters): rows streamed through the
//! csv crate with one `ByteRecord` reused for the whole file.

use std::io::Read;

use super::super::ParseError;
use super::super::rows::{Cells, Loc, Rows, Warner};

/// What a delimiter's text is called in messages.
pub(crate) fn delimiter_name(d: u8) -> &'static str {
    match d {
        b',' => "comma-separated text",
        b';' => "semicolon-separated text",
        b'\t' => "tab-separated text",
        b'|' => "pipe-separated text",
        b':' => "label: value lines",
        _ => "delimited text",
    }
}

/// CSV/TSV rows, one `ByteRecord` reused for the whole file.
pub(crate) struct CsvRows<R: Read> {
    rdr: csv::Reader<R>,
    rec: csv::ByteRecord,
    delimiter: u8,
}

impl<R: Read> CsvRows<R> {
    pub(crate) fn new(input: R, delimiter: u8) -> Self {
        let rdr = csv::ReaderBuilder::new()
            .delimiter(delimiter)
            .has_headers(false)
            .flexible(true)
            .buffer_capacity(64 * 1024)
            .from_reader(input);
        CsvRows {
            rdr,
            rec: csv::ByteRecord::new(),
            delimiter,
        }
    }
}

impl<R: Read> Rows for CsvRows<R> {
    fn next_row(&mut self, _warn: &mut Warner) -> Result<Option<Loc>, ParseError> {
        match self.rdr.read_byte_record(&mut self.rec) {
            Ok(true) => Ok(Some(Loc::Line(
                self.rec.position().map(|p| p.line()).unwrap_or(0),
            ))),
            Ok(false) => Ok(None),
            Err(e) => match e.into_kind() {
                csv::ErrorKind::Io(io) => Err(ParseError::Io(io)),
                other => Err(ParseError::Data(format!("{other:?}"))),
            },
        }
    }
    fn current(&self) -> &dyn Cells {
        &self.rec
    }
    fn what(&self) -> String {
        delimiter_name(self.delimiter).to_string()
    }
    fn delimiter(&self) -> Option<u8> {
        Some(self.delimiter)
    }
}
