//! The legend: one item per series (and per labelled band), its glyph in
//! the series' style, then the name; items flow across lines at the width.

use super::super::text::{Line, Style, clean_line, width};
use super::super::wrap::truncate;

#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub glyph: char,
    pub style: Style,
    pub name: String,
}

/// Items listed; a series field with thousands of values must not fill
/// the screen.
const MAX_ITEMS: usize = 24;

/// Legend lines for `items` at width `w`; past 24 items the rest are
/// counted.
pub fn lines(items: &[Item], w: usize, ascii: bool, color: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = Line::new();
    let more = items.len().saturating_sub(MAX_ITEMS);
    let rest = (more > 0).then(|| Item {
        glyph: ' ',
        style: Style::Dim,
        name: format!("and {more} more"),
    });
    for (i, item) in items
        .iter()
        .take(MAX_ITEMS)
        .chain(rest.as_ref())
        .enumerate()
    {
        let name = clean_line(&item.name, ascii);
        let name = if name.trim().is_empty() {
            format!("series {}", i + 1)
        } else {
            name
        };
        let name = truncate(&name, w.saturating_sub(2).max(1), ascii);
        let item_w = 2 + width(&name);
        if cur.width > 0 && cur.width + 2 + item_w > w {
            out.push(std::mem::take(&mut cur).finish());
        }
        if cur.width > 0 {
            cur.plain("  ");
        }
        cur.push(&item.glyph.to_string(), item.style, color);
        cur.plain(" ");
        cur.plain(&name);
    }
    if cur.width > 0 {
        out.push(cur.finish());
    }
    out
}
