//! The Markdown report's records and sources: a run of `record` events
//! (`gem-ask --schema`) is one GFM table; the `source` events of a grounded
//! answer are a numbered list of links under the answer, written at the
//! turn's `result` or the end of input, as in the terminal.

use serde_json::Value;

use super::table::{self, Column};
use super::text::inline;
use crate::events::Event;
use crate::render::stream::{cell_text, record_columns, record_field, source_fields};

#[derive(Debug, Default)]
pub(super) struct Held {
    records: Vec<Value>,
    sources: Vec<(u64, String, String, Option<String>)>,
}

impl Held {
    /// Takes a `record` or `source` event; `false` for any other.
    pub fn hold(&mut self, e: &Event) -> bool {
        match e.kind() {
            "record" => self
                .records
                .push(e.get("record").cloned().unwrap_or(Value::Null)),
            "source" => self.sources.push(source_fields(e)),
            _ => return false,
        }
        true
    }

    /// The held records as a GFM table, if any.
    pub fn records(&mut self) -> Option<String> {
        if self.records.is_empty() {
            return None;
        }
        let records = std::mem::take(&mut self.records);
        let cols = record_columns(&records);
        let columns: Vec<Column> = cols
            .iter()
            .map(|c| Column {
                header: c.clone(),
                numeric: records
                    .iter()
                    .filter_map(|r| record_field(r, c))
                    .all(|v| v.is_number() || v.is_null()),
            })
            .collect();
        let rows: Vec<Vec<String>> = records
            .iter()
            .map(|r| cols.iter().map(|c| cell_text(record_field(r, c))).collect())
            .collect();
        let mut s = String::new();
        table::write(&columns, &rows, &mut s);
        Some(s)
    }

    /// The held sources as a numbered list of links, if any.
    pub fn sources(&mut self) -> Option<String> {
        if self.sources.is_empty() {
            return None;
        }
        let mut s = String::from("**Sources**\n\n");
        for (i, title, url, text) in std::mem::take(&mut self.sources) {
            let title = if title.trim().is_empty() {
                url.clone()
            } else {
                title
            };
            // A link only to the web: a model's URL is not trusted further.
            let safe = url.starts_with("https://") || url.starts_with("http://");
            if safe && !url.contains([' ', '<', '>']) {
                s.push_str(&format!("{i}. [{}](<{url}>)", inline(title.trim())));
            } else {
                s.push_str(&format!("{i}. {}", inline(title.trim())));
            }
            if let Some(t) = text {
                s.push_str(&format!(" \u{2014} _{}_", inline(t.trim())));
            }
            s.push('\n');
        }
        Some(s)
    }
}
