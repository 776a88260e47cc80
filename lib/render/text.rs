//! Text for the terminal: making model and data text harmless (control
//! characters, escapes, bidi overrides), ASCII transliteration, display
//! width, cutting to a width with an ellipsis, number formatting, and
//! styled line building that measures text without its colour codes.

use std::borrow::Cow;

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Display width as this module lays text out: the larger of the per-char
/// sum and the string measure, so a terminal that draws either way never
/// gets a line wider than we planned.
pub fn width(s: &str) -> usize {
    // Printable ASCII (nearly every line) is one column a byte.
    if s.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return s.len();
    }
    // Box drawing and geometric shapes (table borders, bullets) take part
    // in no sequence the string measure treats specially, so with printable
    // ASCII beside them the per-char sum is the whole answer; the string
    // measure walks the text again and costs as much as the rest of a line.
    let mut sum = 0;
    let mut plain = true;
    for c in s.chars() {
        if (' '..='~').contains(&c) || ('\u{2500}'..='\u{257F}').contains(&c) {
            // Box drawing is one column (East Asian Ambiguous, drawn
            // narrow), as `char_width` says; the lookup costs a table walk.
            sum += 1;
        } else {
            plain &= ('\u{2500}'..='\u{25FF}').contains(&c);
            sum += char_width(c);
        }
    }
    if plain {
        sum
    } else {
        sum.max(UnicodeWidthStr::width(s))
    }
}

pub fn char_width(c: char) -> usize {
    UnicodeWidthChar::width(c).unwrap_or(0)
}

/// Characters that reorder or hide text (Trojan Source) or break lines
/// behind the terminal's back; shown as `<U+XXXX>`.
fn is_hazard(c: char) -> bool {
    matches!(c,
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}'
        | '\u{FFF9}'..='\u{FFFB}' | '\u{061C}')
}

/// Variation selectors change a character's width on some terminals and
/// not on others; dropping them makes every terminal agree with us.
fn is_dropped(c: char) -> bool {
    matches!(c, '\u{FE0E}' | '\u{FE0F}')
}

/// In labels, emoji joiners and skin-tone modifiers go too: terminals
/// draw a joined sequence as one glyph or several, so columns after it
/// would not line up. `👨‍👩‍👧` becomes `👨👩👧`, the same on every terminal.
fn is_dropped_in_line(c: char) -> bool {
    matches!(c, '\u{200D}' | '\u{1F3FB}'..='\u{1F3FF}')
}

/// Text whose string width is the sum of its characters' widths, which is
/// what a layout engine that measures whole strings (comfy-table) needs to
/// agree with us: a character that would combine with what precedes it
/// into a narrower cluster is shown as `?`.
pub fn additive(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut tail: Vec<char> = Vec::new();
    for c in s.chars() {
        let before: String = tail.iter().collect();
        let mut after = before.clone();
        after.push(c);
        let ok = UnicodeWidthStr::width(after.as_str())
            == UnicodeWidthStr::width(before.as_str()) + char_width(c);
        let c = if ok { c } else { '?' };
        out.push(c);
        tail.push(c);
        if tail.len() > 8 {
            tail.remove(0);
        }
    }
    out
}

/// The common non-ASCII punctuation and Latin-1 letters have a readable
/// ASCII form; everything else becomes `?`.
pub fn ascii_fold(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c);
        return;
    }
    let s = match c {
        '\u{2014}' | '\u{2015}' => "--",
        '\u{2010}'..='\u{2013}' | '\u{2212}' => "-",
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{2032}' => "'",
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{2033}' | '\u{00AB}' | '\u{00BB}' => "\"",
        '\u{2026}' => "...",
        '\u{2022}' | '\u{00B7}' | '\u{2027}' => "*",
        '\u{2192}' => "->",
        '\u{2190}' => "<-",
        '\u{00D7}' => "x",
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{3000}' => " ",
        '\u{00B0}' => "deg",
        '\u{00B5}' | '\u{03BC}' => "u",
        '\u{00A9}' => "(c)",
        '\u{20AC}' => "EUR",
        '\u{00A3}' => "GBP",
        '\u{00A5}' => "JPY",
        '\u{2264}' => "<=",
        '\u{2265}' => ">=",
        '\u{00C0}'..='\u{00C5}' => "A",
        '\u{00C7}' => "C",
        '\u{00C8}'..='\u{00CB}' => "E",
        '\u{00CC}'..='\u{00CF}' => "I",
        '\u{00D1}' => "N",
        '\u{00D2}'..='\u{00D6}' | '\u{00D8}' => "O",
        '\u{00D9}'..='\u{00DC}' => "U",
        '\u{00DD}' => "Y",
        '\u{00DF}' => "ss",
        '\u{00E0}'..='\u{00E5}' => "a",
        '\u{00E7}' => "c",
        '\u{00E8}'..='\u{00EB}' => "e",
        '\u{00EC}'..='\u{00EF}' => "i",
        '\u{00F1}' => "n",
        '\u{00F2}'..='\u{00F6}' | '\u{00F8}' => "o",
        '\u{00F9}'..='\u{00FC}' => "u",
        '\u{00FD}' | '\u{00FF}' => "y",
        c if char_width(c) == 0 => "",
        _ => "?",
    };
    out.push_str(s);
}

fn push_visible(c: char, ascii: bool, out: &mut String) {
    if is_dropped(c) {
        return;
    }
    if is_hazard(c) || ('\u{80}'..='\u{9f}').contains(&c) {
        out.push_str(&format!("<U+{:04X}>", c as u32));
    } else if (c as u32) < 0x20 {
        out.push('^');
        out.push(char::from_u32(c as u32 + 0x40).unwrap_or('?'));
    } else if c == '\u{7f}' {
        out.push_str("^?");
    } else if ascii {
        ascii_fold(c, out);
    } else {
        out.push(c);
    }
}

/// One line of data text (a label, a title): tabs and line breaks become
/// spaces, other control characters their caret form (`ESC` is `^[`), C1
/// controls and bidi overrides `<U+009B>`; in ASCII mode every non-ASCII
/// character is folded (`é` is `e`, `—` is `--`) or becomes `?`.
pub fn clean_line(s: &str, ascii: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\t' | '\n' | '\r' => out.push(' '),
            c if is_dropped_in_line(c) => {}
            c => push_visible(c, ascii, &mut out),
        }
    }
    out
}

/// Prose (message text): kept as written, `\n` and `\t` included, but no
/// control character reaches the terminal raw. `\r\n` is a line break; a
/// lone `\r` (which would overwrite the line) shows as `^M`.
pub fn clean_text(s: &str, ascii: bool) -> String {
    clean_text_cow(s, ascii).into_owned()
}

/// [`clean_text`], borrowing text that is clean already (nearly all of it).
pub fn clean_text_cow(s: &str, ascii: bool) -> Cow<'_, str> {
    if s.bytes()
        .all(|b| (0x20..0x7f).contains(&b) || b == b'\n' || b == b'\t')
    {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' | '\t' => out.push(c),
            '\r' if chars.peek() == Some(&'\n') => {}
            c => push_visible(c, ascii, &mut out),
        }
    }
    Cow::Owned(out)
}

/// The ellipsis for cut text.
pub fn ellipsis(ascii: bool) -> &'static str {
    if ascii { "..." } else { "…" }
}

/// Cuts clean text to at most `max` columns, ending in the ellipsis when
/// anything was cut. Never returns wider than `max`, even for `max` below
/// the ellipsis' own width.
pub fn truncate(s: &str, max: usize, ascii: bool) -> String {
    if width(s) <= max {
        return s.to_string();
    }
    let ell = ellipsis(ascii);
    let ell_w = width(ell);
    if max < ell_w {
        return ".".repeat(max);
    }
    let budget = max - ell_w;
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = char_width(c);
        if used + w > budget {
            break;
        }
        out.push(c);
        used += w;
    }
    // The string measure can exceed the char sum (rare sequences); shave.
    while width(&out) > budget {
        out.pop();
    }
    out.push_str(ell);
    out
}

/// Pads (or cuts) to exactly `w` columns, text on the left.
pub fn pad_right(s: &str, w: usize, ascii: bool) -> String {
    let t = truncate(s, w, ascii);
    let n = w.saturating_sub(width(&t));
    format!("{t}{}", " ".repeat(n))
}

/// Pads (or cuts) to exactly `w` columns, text on the right.
pub fn pad_left(s: &str, w: usize, ascii: bool) -> String {
    let t = truncate(s, w, ascii);
    let n = w.saturating_sub(width(&t));
    format!("{}{t}", " ".repeat(n))
}

/// Greedy word wrap of clean one-line text; words longer than the width
/// are cut hard.
pub fn wrap(s: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    let mut lines = Vec::new();
    let mut cur = String::new();
    let mut cur_w = 0;
    for word in s.split(' ') {
        let ww = width(word);
        if cur_w > 0 && cur_w + 1 + ww <= max {
            cur.push(' ');
            cur.push_str(word);
            cur_w += 1 + ww;
            continue;
        }
        if cur_w > 0 || !cur.is_empty() {
            lines.push(std::mem::take(&mut cur));
            cur_w = 0;
        }
        if ww <= max {
            cur.push_str(word);
            cur_w = ww;
        } else {
            for c in word.chars() {
                let w = char_width(c);
                if cur_w + w > max && cur_w > 0 {
                    lines.push(std::mem::take(&mut cur));
                    cur_w = 0;
                }
                if w > max {
                    // Too wide even alone (a wide character at width 1):
                    // a one-column mark stands in, as in the text wrapper.
                    cur.push('…');
                    cur_w += 1;
                } else {
                    cur.push(c);
                    cur_w += w;
                }
            }
        }
    }
    if !cur.is_empty() || lines.is_empty() {
        lines.push(cur);
    }
    lines
}

/// Thousands separators on an unsigned digit string.
fn group(digits: &str) -> String {
    let n = digits.len();
    let mut out = String::with_capacity(n + n / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (n - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `1234.5` with `decimals` places and thousands separators: `1,234.50`.
pub fn fixed(v: f64, decimals: usize) -> String {
    let s = format!("{:.*}", decimals, v.abs());
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i.to_string(), Some(f.to_string())),
        None => (s.clone(), None),
    };
    let neg = v < 0.0 && s.chars().any(|c| c.is_ascii_digit() && c != '0');
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    out.push_str(&group(&int));
    if let Some(f) = frac {
        out.push('.');
        out.push_str(&f);
    }
    out
}

fn sci(v: f64) -> String {
    let s = format!("{v:.1e}");
    // `1.0e6` reads as `1e6`.
    s.replace(".0e", "e")
}

/// Decimal places a value needs to show three significant digits (at most
/// two below a thousand and above one, at most six below one).
fn decimals_needed(v: f64) -> usize {
    let a = v.abs();
    if a == 0.0 || a >= 1000.0 {
        return 0;
    }
    let max = if a >= 1.0 {
        2
    } else {
        (2 - a.log10().floor() as i64).clamp(0, 6) as usize
    };
    (0..=max)
        .find(|&d| {
            let scale = 10f64.powi(d as i32);
            ((a * scale).round() - a * scale).abs() < 1e-9 * scale.max(1.0)
        })
        .unwrap_or(max)
}

/// How the values of one chart are written, chosen once from all of them
/// so a column reads consistently:
///
/// - below 1,000: fixed point with the decimals the most precise value
///   needs (at most 2; up to three significant digits below 1), the same
///   for every such value (`2.9`, `3.0`);
/// - 1,000 to below a million: whole numbers with separators (`1,234`);
/// - a million and up: three significant digits and a suffix (`1.2M`,
///   `45.6B`, `7.89T`);
/// - beyond 10^15, or non-zero below 10^-4: scientific (`1.2e-7`).
#[derive(Debug, Clone, Copy)]
pub struct NumFormat {
    decimals: usize,
}

impl NumFormat {
    pub fn for_values(values: impl IntoIterator<Item = f64>) -> NumFormat {
        let decimals = values
            .into_iter()
            .filter(|v| v.abs() < 1000.0 && v.abs() >= 1e-4)
            .map(decimals_needed)
            .max()
            .unwrap_or(0);
        NumFormat { decimals }
    }

    pub fn format(&self, v: f64) -> String {
        let a = v.abs();
        if !v.is_finite() {
            return "?".into();
        }
        if a >= 1e15 || (a > 0.0 && a < 1e-4) {
            return sci(v);
        }
        if a >= 1e6 {
            let (scale, suffix) = if a >= 1e12 {
                (1e12, "T")
            } else if a >= 1e9 {
                (1e9, "B")
            } else {
                (1e6, "M")
            };
            let x = v / scale;
            let d = if x.abs() >= 100.0 {
                0
            } else if x.abs() >= 10.0 {
                1
            } else {
                2
            };
            let s = format!("{x:.d$}");
            let s = if s.contains('.') {
                s.trim_end_matches('0').trim_end_matches('.').to_string()
            } else {
                s
            };
            return format!("{s}{suffix}");
        }
        let scale = 10f64.powi(self.decimals as i32);
        if (a * scale).round() / scale >= 1000.0 {
            return fixed(v.round(), 0);
        }
        fixed(v, self.decimals)
    }
}

/// How a table writes its values: exactly, as the data has them. Whole
/// numbers in full with separators (`37,400,000`, never `37.4M`), and the
/// decimals the most precise value of the column carries (at most 8), the
/// same for every value so the points line up (`2.90`, `3.25`). Only
/// magnitudes a fixed form cannot show in a sensible width (from 10^15, or
/// non-zero below 10^-4) are scientific, with every significant digit
/// (`1.2345e-7`).
#[derive(Debug, Clone, Copy)]
pub struct ExactFormat {
    decimals: usize,
}

/// The most decimals a table shows; digits beyond are float noise
/// (`0.1 + 0.2` is 0.3), not data.
const MAX_EXACT_DECIMALS: usize = 8;

impl ExactFormat {
    pub fn for_values(values: impl IntoIterator<Item = f64>) -> ExactFormat {
        let decimals = values
            .into_iter()
            .filter(|v| v.is_finite() && !exact_is_sci(*v))
            .map(|v| {
                // The digits the data was written with, up to the cap;
                // trailing zeros are not data.
                let s = format!("{:.*}", MAX_EXACT_DECIMALS, v.abs());
                s.split_once('.')
                    .map_or(0, |(_, f)| f.trim_end_matches('0').len())
            })
            .max()
            .unwrap_or(0);
        ExactFormat { decimals }
    }

    pub fn format(&self, v: f64) -> String {
        if !v.is_finite() {
            return "?".into();
        }
        if exact_is_sci(v) {
            return format!("{v:e}");
        }
        fixed(v, self.decimals)
    }
}

fn exact_is_sci(v: f64) -> bool {
    let a = v.abs();
    a >= 1e15 || (a > 0.0 && a < 1e-4)
}

/// Writes a value with its unit: `%` and other short symbols attach
/// (`12%`), currency symbols lead (`$1,200`), words follow a space
/// (`2.9 s`).
pub fn with_unit(num: &str, unit: Option<&str>) -> String {
    match unit {
        None | Some("") => num.to_string(),
        Some(u) if matches!(u, "$" | "€" | "£" | "¥" | "₹") => {
            if let Some(rest) = num.strip_prefix('-') {
                format!("-{u}{rest}")
            } else {
                format!("{u}{num}")
            }
        }
        Some(u) if matches!(u, "%" | "‰" | "°" | "x" | "×") => format!("{num}{u}"),
        Some(u) => format!("{num} {u}"),
    }
}

/// A 1, 2 or 5 times a power of ten near `raw`, for axis steps.
pub fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let exp = raw.log10().floor();
    let base = 10f64.powf(exp);
    let f = raw / base;
    let m = if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    };
    m * base
}

/// ANSI styles we use. Nothing here is written when colour is off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Plain,
    Bold,
    Dim,
    Red,
    Yellow,
    BoldRed,
    BoldYellow,
    Fg(u8),
}

impl Style {
    fn sgr(self) -> Option<String> {
        match self {
            Style::Plain => None,
            Style::Bold => Some("1".into()),
            Style::Dim => Some("2".into()),
            Style::Red => Some("31".into()),
            Style::Yellow => Some("33".into()),
            Style::BoldRed => Some("1;31".into()),
            Style::BoldYellow => Some("1;33".into()),
            Style::Fg(n) => Some(n.to_string()),
        }
    }
}

/// Series colours: cyan, magenta, yellow, green, blue, red.
pub const PALETTE: [u8; 6] = [36, 35, 33, 32, 34, 31];

/// Wraps clean text in a style when colour is on.
pub fn paint(s: &str, style: Style, color: bool) -> String {
    match style.sgr() {
        Some(code) if color && !s.trim().is_empty() => format!("\x1b[{code}m{s}\x1b[0m"),
        _ => s.to_string(),
    }
}

/// A line under construction: styled pieces of clean text, with the
/// display width of the text alone.
#[derive(Debug, Default, Clone)]
pub struct Line {
    pub text: String,
    pub width: usize,
}

impl Line {
    pub fn new() -> Line {
        Line::default()
    }

    pub fn push(&mut self, s: &str, style: Style, color: bool) -> &mut Line {
        self.width += width(s);
        self.text.push_str(&paint(s, style, color));
        self
    }

    pub fn plain(&mut self, s: &str) -> &mut Line {
        self.push(s, Style::Plain, false)
    }

    pub fn finish(self) -> String {
        self.text.trim_end_matches(' ').to_string()
    }
}

/// Removes SGR escape sequences, for measuring coloured output in tests.
/// The display width of drawn text, its SGR and OSC 8 sequences aside.
pub fn visible_width(s: &str) -> usize {
    if s.contains('\x1b') {
        width(&strip_ansi(s))
    } else {
        width(s)
    }
}

pub fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            match chars.next() {
                Some('[') => {
                    for d in chars.by_ref() {
                        if d.is_ascii_alphabetic() {
                            break;
                        }
                    }
                }
                // OSC (an OSC 8 hyperlink): up to BEL or ESC \.
                Some(']') => {
                    while let Some(d) = chars.next() {
                        if d == '\x07' {
                            break;
                        }
                        if d == '\x1b' {
                            chars.next();
                            break;
                        }
                    }
                }
                _ => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Box drawing and shapes beside ASCII: the per-char sum, which the
    /// shortcut in `width` returns, is never less than the string measure.
    #[test]
    fn box_drawing_width_is_the_char_sum() {
        for c in '\u{2500}'..='\u{257F}' {
            assert_eq!(char_width(c), 1, "{c:?}");
        }
        let shapes = ('\u{2500}'..='\u{25FF}').chain(['a', ' ', '~']);
        for a in shapes.clone() {
            for b in shapes.clone() {
                let s: String = [a, b, 'x'].iter().collect();
                let sum: usize = s.chars().map(char_width).sum();
                assert_eq!(
                    width(&s),
                    sum.max(UnicodeWidthStr::width(s.as_str())),
                    "{s:?}"
                );
            }
        }
    }

    #[test]
    fn escapes_take_no_columns() {
        let link = "\x1b]8;;https://example.com/a\x1b\\\x1b[4mdocs\x1b[0m\x1b]8;;\x1b\\ here";
        assert_eq!(strip_ansi(link), "docs here");
        assert_eq!(visible_width(link), 9);
        assert_eq!(visible_width("\x1b]8;;u\x07x\x1b]8;;\x07"), 1);
        assert_eq!(width("plain ascii"), 11);
        assert_eq!(width("日本"), 4);
        assert_eq!(clean_text("a\tb\n", true), "a\tb\n");
        assert_eq!(clean_text("a\x1bb", false), "a^[b");
    }

    #[test]
    fn numbers_read_compactly_and_consistently() {
        let f = NumFormat::for_values([2.9, 3.0, 3.25]);
        assert_eq!(f.format(2.9), "2.90");
        assert_eq!(f.format(3.0), "3.00");
        let f = NumFormat::for_values([2.9, 3.0]);
        assert_eq!(f.format(3.0), "3.0");
        let f = NumFormat::for_values([1234.0, 12.0]);
        assert_eq!(f.format(1234.0), "1,234");
        assert_eq!(f.format(-1234.4), "-1,234");
        assert_eq!(f.format(12.0), "12");
        assert_eq!(f.format(1_234_567.0), "1.23M");
        assert_eq!(f.format(12_000_000.0), "12M");
        assert_eq!(f.format(4.56e10), "45.6B");
        assert_eq!(f.format(2e18), "2e18");
        assert_eq!(f.format(1.5e-7), "1.5e-7");
        assert_eq!(f.format(999.9), "1,000");
        let f = NumFormat::for_values([0.0123]);
        assert_eq!(f.format(0.0123), "0.0123");
        assert_eq!(with_unit("2.9", Some("s")), "2.9 s");
        assert_eq!(with_unit("12", Some("%")), "12%");
        assert_eq!(with_unit("-5", Some("$")), "-$5");
    }

    #[test]
    fn tables_write_numbers_exactly() {
        let f = ExactFormat::for_values([37_400_000.0, 131_136.0]);
        assert_eq!(f.format(37_400_000.0), "37,400,000");
        assert_eq!(f.format(131_136.0), "131,136");
        let f = ExactFormat::for_values([2.9, 3.0, 3.25]);
        assert_eq!(f.format(3.0), "3.00");
        assert_eq!(f.format(2.9), "2.90");
        let f = ExactFormat::for_values([1_234_567.5, -0.5]);
        assert_eq!(f.format(1_234_567.5), "1,234,567.5");
        assert_eq!(f.format(-0.5), "-0.5");
        let f = ExactFormat::for_values([0.1 + 0.2]);
        assert_eq!(f.format(0.1 + 0.2), "0.3");
        let f = ExactFormat::for_values([1.0 / 3.0]);
        assert_eq!(f.format(1.0 / 3.0), "0.33333333");
        let f = ExactFormat::for_values([1.2345e-7, 2e18, 0.0]);
        assert_eq!(f.format(1.2345e-7), "1.2345e-7");
        assert_eq!(f.format(2e18), "2e18");
        assert_eq!(f.format(0.0), "0");
    }

    #[test]
    fn control_characters_are_made_visible() {
        assert_eq!(
            clean_line("a\x1b[31mb\u{9b}c\td", false),
            "a^[[31mb<U+009B>c d"
        );
        assert_eq!(clean_text("x\r\ny\rz\n", false), "x\ny^Mz\n");
        assert_eq!(clean_line("é—日", true), "e--?");
        assert_eq!(clean_line("\u{202E}abc", false), "<U+202E>abc");
    }

    #[test]
    fn truncation_respects_display_width() {
        assert_eq!(truncate("日本語テキスト", 7, false), "日本語…");
        assert_eq!(truncate("abcdef", 5, true), "ab...");
        assert_eq!(truncate("abcdef", 2, true), "..");
        assert_eq!(truncate("abc", 3, false), "abc");
        assert_eq!(nice_step(0.37), 0.5);
        assert_eq!(nice_step(140.0), 200.0);
    }

    #[test]
    fn wrap_keeps_within_width() {
        assert_eq!(wrap("aaa bbb ccc", 7), vec!["aaa bbb", "ccc"]);
        assert_eq!(wrap("abcdefgh", 3), vec!["abc", "def", "gh"]);
    }
}
