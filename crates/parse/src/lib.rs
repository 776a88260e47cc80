//! gemline-parse: data in, `visualization` events out (viz-parse's
//! engine): CSV, TSV, JSON, JSON lines, Markdown tables, Parquet and Arrow
//! IPC (the `columnar` feature), tool arguments, grammar charts, live
//! follow. Below it only gemline-core; its in-file paths (`crate::spec`,
//! `crate::term`) resolve through the re-exports here.

pub mod parse;

pub(crate) use gemline_core::{events, live, spec, term};
