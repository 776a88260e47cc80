//! Alerts (`> [!NOTE]`): the name drawn for the five kinds GitHub knows,
//! and the kind of any other (`> [!STRATEGY]`), which pulldown-cmark
//! leaves as a plain quote whose first line is the marker.

use pulldown_cmark::BlockQuoteKind;

/// The name drawn for one of the five alert kinds GitHub knows.
pub fn alert_name(kind: BlockQuoteKind) -> &'static str {
    match kind {
        BlockQuoteKind::Note => "Note",
        BlockQuoteKind::Tip => "Tip",
        BlockQuoteKind::Important => "Important",
        BlockQuoteKind::Warning => "Warning",
        BlockQuoteKind::Caution => "Caution",
    }
}

/// The kind of an alert GitHub does not know, from the source of a
/// quote: its first line is `> [!WORD]` alone (letters, digits, `-`,
/// `_`), drawn with its first letter capital and the rest small, as the
/// five known kinds are. `None` for a quote that is not one.
pub fn alert_word(quote: &str) -> Option<String> {
    let line = quote.lines().next()?.trim_start();
    let line = line.strip_prefix('>')?.trim();
    let word = line.strip_prefix("[!")?.strip_suffix(']')?;
    let ok = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    if word.is_empty() || !word.chars().all(ok) {
        return None;
    }
    let mut chars = word.chars();
    let first = chars.next()?;
    Some(
        first
            .to_uppercase()
            .chain(chars.flat_map(char::to_lowercase))
            .collect(),
    )
}
