//! Two things the terminal draws once a run of events has ended, not as
//! they come: the `record` events of an answer given as data (`gem-ask
//! --schema`), as one table, and the `source` events of a grounded answer,
//! as numbered citations under the answer (drawn at the turn's `result`
//! or the end of input, so they follow the text that cites them).

use std::io::{self, Write};

use comfy_table::CellAlignment;
use serde_json::Value;

use super::super::table::{Layout, draw, overhead, share};
use super::super::text::{Style, clean_line, paint, width};
use super::super::wrap::{truncate, wrap};
use super::Renderer;
use crate::events::Event;

/// Records held for one table at most; past it the table says how many
/// more there were (a huge answer is for a pipe, not a screen).
const MAX_ROWS: usize = 1000;

/// What is held until the run of records or the turn ends.
#[derive(Debug, Default)]
pub(super) struct Held {
    records: Vec<Value>,
    more_records: usize,
    /// (index, title, url, supported text) in the order they came.
    sources: Vec<(u64, String, String, Option<String>)>,
}

/// A source event's fields, as every output format reads them.
pub fn source_fields(e: &Event) -> (u64, String, String, Option<String>) {
    let index = e.get("index").and_then(Value::as_u64).unwrap_or(0);
    let title = e.str_field("title").unwrap_or("").to_string();
    let url = e.str_field("url").unwrap_or("").to_string();
    let text = e
        .str_field("text")
        .map(str::to_string)
        .filter(|t| !t.trim().is_empty());
    (index, title, url, text)
}

/// A cell of a record's table: text as it is, other values as JSON.
pub fn cell_text(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// The columns of records: every key, in the order first seen.
pub fn columns(records: &[Value]) -> Vec<String> {
    let mut cols: Vec<String> = Vec::new();
    for r in records {
        match r {
            Value::Object(m) => {
                for k in m.keys() {
                    if !cols.contains(k) {
                        cols.push(k.clone());
                    }
                }
            }
            _ => {
                if !cols.iter().any(|c| c == "value") {
                    cols.push("value".into());
                }
            }
        }
    }
    cols
}

/// A record's value in a column (a record that is not an object is the
/// `value` column).
pub fn field<'a>(r: &'a Value, col: &str) -> Option<&'a Value> {
    match r {
        Value::Object(m) => m.get(col),
        other if col == "value" => Some(other),
        _ => None,
    }
}

impl Renderer {
    /// Takes a `record` or `source` event; `false` for any other.
    pub(super) fn hold(&mut self, e: &Event) -> bool {
        match e.kind() {
            "record" => {
                if self.held.records.len() < MAX_ROWS {
                    self.held
                        .records
                        .push(e.get("record").cloned().unwrap_or(Value::Null));
                } else {
                    self.held.more_records += 1;
                }
                true
            }
            "source" => {
                self.held.sources.push(source_fields(e));
                true
            }
            _ => false,
        }
    }

    /// Draws the held records, if a run of them has ended with `e`.
    pub(super) fn records_end(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.held.records.is_empty() {
            return Ok(());
        }
        let records = std::mem::take(&mut self.held.records);
        let more = std::mem::take(&mut self.held.more_records);
        let mut lines = records_table(&records, &self.opts);
        if more > 0 {
            lines.push(paint(
                &format!("({more} more records not shown; pipe the output for all of them)"),
                Style::Dim,
                self.opts.color,
            ));
        }
        self.start_block(out)?;
        self.lines(out, &lines)?;
        self.gap_pending = true;
        Ok(())
    }

    /// Draws the held sources as numbered citations.
    pub(super) fn sources_end(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.held.sources.is_empty() {
            return Ok(());
        }
        let sources = std::mem::take(&mut self.held.sources);
        let ascii = !self.opts.unicode;
        let w = self.opts.width.max(1);
        let c = self.opts.color;
        let mut lines = vec![paint(&truncate("Sources", w, ascii), Style::Bold, c)];
        // Under the title when there is room for it.
        let pad = if w >= 12 { "    " } else { "" };
        for (i, title, url, text) in sources {
            let title = if title.trim().is_empty() {
                url.clone()
            } else {
                title
            };
            let head = format!("[{i}] {}", clean_line(title.trim(), ascii));
            lines.extend(wrap(&head, w));
            if !url.is_empty() {
                let u = truncate(&format!("{pad}{}", clean_line(&url, ascii)), w, ascii);
                lines.push(paint(&u, Style::Dim, c));
            }
            if let Some(t) = text {
                let quote = format!("\u{201c}{}\u{201d}", clean_line(t.trim(), ascii));
                let quote = if ascii {
                    quote.replace(['\u{201c}', '\u{201d}'], "\"")
                } else {
                    quote
                };
                for l in wrap(&quote, (w - pad.len()).max(1)).into_iter().take(3) {
                    lines.push(paint(&format!("{pad}{l}"), Style::Dim, c));
                }
            }
        }
        self.start_block(out)?;
        self.lines(out, &lines)?;
        self.gap_pending = true;
        Ok(())
    }
}

/// Records as a boxed table at the width: a column per key, numbers
/// right-aligned, long cells cut.
fn records_table(records: &[Value], opts: &crate::render::RenderOptions) -> Vec<String> {
    let ascii = !opts.unicode;
    let w = opts.width.max(1);
    let mut cols = columns(records);
    if cols.is_empty() {
        // Only empty objects: no column to draw.
        let n = records.len();
        let note = format!("({n} empty record{})", if n == 1 { "" } else { "s" });
        return vec![paint(&truncate(&note, w, ascii), Style::Dim, opts.color)];
    }
    let mut hidden = 0;
    while cols.len() > 1 && overhead(cols.len()) + 3 * cols.len() > w {
        cols.pop();
        hidden += 1;
    }
    let mut rows: Vec<Vec<String>> = vec![cols.iter().map(|c| clean_line(c, ascii)).collect()];
    for r in records {
        rows.push(
            cols.iter()
                .map(|c| clean_line(&cell_text(field(r, c)), ascii))
                .collect(),
        );
    }
    let align: Vec<CellAlignment> = cols
        .iter()
        .map(|c| {
            let numeric = records
                .iter()
                .filter_map(|r| field(r, c))
                .all(|v| v.is_number() || v.is_null());
            if numeric {
                CellAlignment::Right
            } else {
                CellAlignment::Left
            }
        })
        .collect();
    let natural: Vec<usize> = (0..cols.len())
        .map(|i| rows.iter().map(|r| width(&r[i])).max().unwrap_or(0).max(1))
        .collect();
    let widths = share(&natural, w.saturating_sub(overhead(cols.len())));
    for r in &mut rows {
        for (cell, &cw) in r.iter_mut().zip(&widths) {
            if width(cell) > cw {
                *cell = truncate(cell, cw, ascii);
            }
        }
    }
    let mut lines = draw(&Layout {
        cells: &rows,
        align: &align,
        widths: None,
        w,
        unicode: opts.unicode,
        color: opts.color,
    });
    // Narrower than the smallest table (a column and its borders): cut.
    for l in &mut lines {
        if width(l) > w {
            *l = truncate(l, w, ascii);
        }
    }
    if hidden > 0 {
        lines.push(paint(
            &truncate(
                &format!("({hidden} more columns not shown at this width)"),
                w,
                ascii,
            ),
            Style::Dim,
            opts.color,
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use crate::events::Event;
    use crate::render::RenderOptions;
    use crate::render::stream::Renderer;
    use crate::render::text::visible_width;

    fn value() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            "[a-zé日本😀\t\n\x1b\\[ ]{0,40}".prop_map(Value::from),
            Just(json!({"nested": [1, 2]})),
        ]
    }

    fn event() -> impl Strategy<Value = Event> {
        let record = prop::collection::btree_map("[a-z_]{1,12}", value(), 0..6).prop_map(|m| {
            let mut e = Event::topic("x", None);
            e.0.clear();
            e.set("type", "record");
            e.set("record", Value::Object(m.into_iter().collect()));
            e
        });
        let source = (
            any::<u16>(),
            "[a-z.\x07 ]{0,30}",
            "[a-z:/.]{0,120}",
            "[a-z \n]{0,200}",
        )
            .prop_map(|(i, title, url, text)| {
                let mut e = Event::topic("x", None);
                e.0.clear();
                e.set("type", "source");
                e.set("index", i);
                e.set("title", title);
                e.set("url", url);
                e.set("text", text);
                e
            });
        prop_oneof![
            4 => record,
            2 => source,
            1 => Just(Event::message("assistant", "an answer", true)),
            1 => (1u8..10).prop_map(|_| {
                let mut e = Event::topic("x", None);
                e.0.clear();
                e.set("type", "result");
                e.set("status", "success");
                e
            }),
        ]
    }

    proptest! {
        /// Records and sources of any shape draw without a panic, within
        /// the width, with no control character reaching the terminal.
        #[test]
        fn records_and_sources_fit_any_width(
            events in prop::collection::vec(event(), 0..30),
            width in 1usize..120,
            unicode in any::<bool>(),
        ) {
            let opts = RenderOptions { width, unicode, ..RenderOptions::default() };
            let mut r = Renderer::new(opts);
            let mut out = Vec::new();
            for e in &events {
                r.event(e, &mut out).unwrap();
            }
            r.finish(&mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            for line in text.lines() {
                prop_assert!(visible_width(line) <= width, "{line:?} at {width}");
                prop_assert!(!line.chars().any(|c| c.is_control()), "{line:?}");
            }
        }
    }
}
