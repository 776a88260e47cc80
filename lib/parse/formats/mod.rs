//! A row reader for each tabular format, one file each: CSV/TSV
//! ([`csv`], streamed through the csv crate), JSON documents ([`json`],
//! parsed whole, then walked as rows) and Markdown tables ([`markdown`],
//! streamed, GFM rules). Each reads into the row vocabulary of
//! `parse::rows` (the [`Rows`](super::rows::Rows) trait), which every
//! chart builder takes. JSON lines are read by the fast lane
//! (`parse::fast::jsonl`), which reads plain lines ahead on every core.
//! A new format is a file here, an arm where `parse` picks the reader for
//! a `Format`, and its sniffing in `parse::detect`.

pub mod csv;
pub mod json;
pub mod markdown;

pub(crate) use self::csv::{CsvRows, delimiter_name};
pub(crate) use json::{KeyColumns, json_cell, json_rows};
pub(crate) use markdown::{MarkdownRows, is_alignment_row};
