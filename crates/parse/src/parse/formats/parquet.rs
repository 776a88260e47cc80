//! Parquet files (what DuckDB, Polars, Spark and pandas write), read with
//! the `parquet` crate's Arrow reader a batch of rows at a time: pages are
//! read from the file as the batches need them, so memory follows the
//! batch and the pages in hand, not the file. The rows are Arrow record
//! batches, read as [`super::arrow`] reads any.
//!
//! Parquet keeps its index at the end of the file, so it is read from a
//! file: an input from a pipe is first copied to an unlinked temporary
//! file (disk, not memory).

use std::fs::File;

use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use super::super::ParseError;
use super::arrow::{BatchRows, bad};

/// Rows a batch holds: a few hundred KiB of values for a dozen columns.
const BATCH_ROWS: usize = 4096;

const WHAT: &str = "a Parquet file";

/// A Parquet file's rows (see the module doc).
pub(crate) fn parquet_rows(file: File) -> Result<BatchRows<'static>, ParseError> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| bad(WHAT, e))?;
    let schema = builder.schema().clone();
    let reader = builder
        .with_batch_size(BATCH_ROWS)
        .build()
        .map_err(|e| bad(WHAT, e))?;
    Ok(BatchRows::new(&schema, Box::new(reader), WHAT))
}
