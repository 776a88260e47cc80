//! TeX math drawn as text, as a terminal can show it: Greek letters,
//! operators and arrows as their Unicode characters, scripts as Unicode
//! superscripts and subscripts where every character has one (`x²`,
//! `aᵢ`) and as `^{…}`/`_{…}` otherwise, `\frac` as `a/b` inline and
//! stacked in display math, `\sqrt` as `√`, `\sum` and `\int` with their
//! limits, matrices and `cases` laid out in rows. A command it does not
//! know is kept as written. In ASCII mode the same layout in ASCII: a
//! Greek letter by its name (`alpha`), `<=` for `≤`, `sqrt(x)`, scripts
//! always after `^`/`_`, a fraction's bar of `-`, brackets of `/ | \`.
//!
//! [`parse`] reads the TeX into nodes, [`draw`] lays them out (on one
//! row inline, on several in display math), [`table`] the environments.

mod block;
mod draw;
mod parse;
mod symbols;
mod table;

use block::Style;

/// Inline math (`$…$`) on one row.
pub fn inline(tex: &str, unicode: bool) -> String {
    let st = Style {
        unicode,
        display: false,
        script: false,
    };
    tidy(&draw::list(&parse::parse(tex), st).line())
}

/// Display math (`$$…$$`) as rows no wider than `room`, or `None` when
/// it does not fit (it is then drawn on one row, wrapped).
pub fn display(tex: &str, unicode: bool, room: usize) -> Option<Vec<String>> {
    let st = Style {
        unicode,
        display: true,
        script: false,
    };
    let block = draw::list(&parse::parse(tex), st);
    let rows: Vec<String> = block
        .rows
        .iter()
        .map(|r| r.trim_end().to_string())
        .collect();
    let w = rows.iter().map(|r| crate::render::text::width(r)).max()?;
    (w <= room).then_some(rows)
}

/// Whether inline math is two prices read as math: `$5-$10` makes `5-`
/// math by pulldown-cmark's rules (GitHub's too), but math does not start
/// with a number and end with a dash, a comma, a slash or `to`.
pub fn is_money(tex: &str) -> bool {
    tex.starts_with(|c: char| c.is_ascii_digit())
        && (tex.ends_with(['-', '–', '—', ',', '/', '~']) || tex.ends_with(" to"))
}

/// `s` in Unicode superscript characters, when each has one.
pub fn superscript(s: &str) -> Option<String> {
    symbols::scripted(s, true)
}

/// Runs of blanks as one, none at the ends.
fn tidy(s: &str) -> String {
    s.split(' ')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests;
