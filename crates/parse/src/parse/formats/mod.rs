//! A row reader for each tabular format, one file each: CSV/TSV
//! ([`csv`], streamed through the csv crate), JSON documents ([`json`]:
//! what an object holds as rows; arrays are streamed record by record by
//! `parse::fast::jsondoc`) and Markdown tables ([`markdown`],
//! streamed, GFM rules). Each reads into the row vocabulary of
//! `parse::rows` (the [`Rows`](super::rows::Rows) trait), which every
//! chart builder takes. JSON lines are read by the fast lane
//! (`parse::fast::jsonl`), which reads plain lines ahead on every core.
//! Parquet ([`parquet`]) and Arrow IPC ([`arrow`]) are read a record batch
//! at a time, typed (the `columnar` cargo feature, on by default).
//! A new format is a file here, an arm where `parse` picks the reader for
//! a `Format`, and its sniffing in `parse::detect`.

#[cfg(feature = "columnar")]
pub mod arrow;
pub mod csv;
pub mod json;
pub mod markdown;
#[cfg(feature = "columnar")]
pub mod parquet;

pub(crate) use self::csv::{CsvRows, delimiter_name};
pub(crate) use json::{
    Beside, JsonTable, KeyColumns, arrays_error, jq_path, json_cell, json_table,
};
pub(crate) use markdown::{MarkdownRows, is_alignment_row};
