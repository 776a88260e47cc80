//! The CommonMark spec examples and the GFM table, strikethrough and
//! task-list examples, its alert, footnote and math examples (800, from
//! pulldown-cmark's crate: see `support::commonmark`) streamed through
//! the Markdown renderer as answers (issues 23 and 37). For each, in three passes (no colour at 80
//! columns, colour at 40, ASCII at 80): it draws, keeps the width, ASCII
//! and escape rules, and draws the same bytes however the answer was cut
//! (whole, a line at a time, random cuts of 1-7 characters from a fixed
//! seed), in the library and in the real binary. Drawn with colour at 80
//! columns, every visible word of the expected HTML is there and no
//! markup is shown raw, but for the examples listed in [`RAW_SHOWN`] with
//! the reason. The counts of raw markup, lost words and lost markup are
//! printed (`cargo test --test it markdown_spec:: -- --nocapture`), and
//! of the examples showing a raw `[` or `]` (54 before issue 37, 51 of them
//! references before their definitions, drawn as written).

use std::collections::BTreeMap;
use std::io::Write;

use assert_cmd::cargo::cargo_bin_cmd;
use gemline::events::Event;
use gemline::render::{RenderOptions, Renderer, text::strip_ansi};
use unicode_width::UnicodeWidthStr;

use crate::support::commonmark::{self, Example};

/// Examples whose drawing shows characters of Markdown or HTML that the
/// expected HTML does not, by suite, and why a terminal draws them so.
const RAW_SHOWN: &[(&str, &[usize], &str)] = &[
    (
        "spec",
        &[
            21, 31, 148, 149, 150, 151, 152, 153, 154, 155, 159, 160, 161, 162, 163, 169, 170, 171,
            172, 173, 174, 175, 176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188,
            189, 190, 191, 201, 308, 309, 344, 475, 476, 477, 491, 524, 613, 614, 615, 616, 617,
            623, 625, 626, 627, 628, 629, 630, 631, 642, 643,
        ],
        "raw HTML other than the tags models write (a <div>, an <a href>, a comment, a \
         declaration): a terminal cannot draw it, so it is shown as written, and what it \
         holds is never read as Markdown",
    ),
    (
        "spec",
        &[536],
        "raw HTML inside a reference link's text, as above",
    ),
    ("footnotes", &[17], "an HTML comment, as above"),
    (
        "footnotes",
        &[11],
        "`    [^indent2]: indent2` after a blank line, which GFM footnotes read as indented \
         code (see WORDS_LOST)",
    ),
];

/// Examples whose drawing lacks words of the expected HTML, and why.
/// (References drawn before their definitions used to split words with
/// their brackets, `[foo][bar]`: since issue 37 they are resolved
/// wherever their definitions stand, so no example does.)
const WORDS_LOST: &[(&str, usize, &str)] = &[
    (
        "blockquotes_tags",
        18,
        "an alert of a kind GitHub does not know (`> [!Hello]`), which CommonMark leaves as \
         a quote showing the marker: drawn as a callout with its word (`Hello`), as the \
         known kinds are (issue 37), so `[!Hello]` is not there",
    ),
    (
        "footnotes",
        11,
        "`    [^indent2]: indent2` after a blank line: GFM footnotes (what is drawn) read it \
         as indented code, the suite's expected HTML (older footnote rules) as a second \
         definition, numbered 4",
    ),
];

fn listed_raw(suite: &str, n: usize) -> bool {
    RAW_SHOWN
        .iter()
        .any(|(s, ns, _)| *s == suite && ns.contains(&n))
}

/// One way of drawing.
#[derive(Clone, Copy)]
struct Pass {
    name: &'static str,
    width: usize,
    color: bool,
    unicode: bool,
}

const PASSES: [Pass; 3] = [
    Pass {
        name: "no colour, 80 columns",
        width: 80,
        color: false,
        unicode: true,
    },
    Pass {
        name: "colour, 40 columns",
        width: 40,
        color: true,
        unicode: true,
    },
    Pass {
        name: "ASCII, colour, 80 columns",
        width: 80,
        color: true,
        unicode: false,
    },
];

/// The pass the drawing is read in: colour shows the markup, Unicode its
/// glyphs, and 100 columns keep words whole (the widest table of the
/// examples fits).
const READING: Pass = Pass {
    name: "reading",
    width: 100,
    color: true,
    unicode: true,
};

impl Pass {
    fn options(self) -> RenderOptions {
        RenderOptions {
            width: self.width,
            color: self.color,
            unicode: self.unicode,
            markdown: true,
            ..RenderOptions::default()
        }
    }
}

/// The ways an answer is cut into deltas.
fn cuts(text: &str, seed: u64) -> Vec<(&'static str, Vec<String>)> {
    let chars: Vec<char> = text.chars().collect();
    let mut random = Vec::new();
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut at = 0;
    while at < chars.len() {
        // xorshift64*: the same cuts on every run.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let n = 1 + (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % 7;
        let end = (at + n).min(chars.len());
        random.push(chars[at..end].iter().collect());
        at = end;
    }
    vec![
        ("whole", vec![text.to_string()]),
        (
            "per line",
            text.split_inclusive('\n').map(String::from).collect(),
        ),
        ("random 1-7", random),
    ]
}

fn deltas(pieces: &[String]) -> Vec<Event> {
    pieces
        .iter()
        .map(|p| Event::message("assistant", p, true))
        .collect()
}

/// The events of one answer per example, each after a user message
/// naming it (which also ends the answer before).
fn stream(examples: &[Example], cut: usize) -> Vec<Event> {
    let mut all = Vec::new();
    for (i, ex) in examples.iter().enumerate() {
        all.push(Event::message("user", &ex.name(), false));
        all.extend(deltas(&cuts(&ex.markdown, i as u64)[cut].1));
    }
    all
}

fn render(events: &[Event], opts: &RenderOptions) -> String {
    let mut r = Renderer::new(opts.clone());
    let mut out = Vec::new();
    for e in events {
        r.event(e, &mut out).unwrap();
    }
    r.finish(&mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// What one example breaks of the promises in one pass.
fn check_rules(ex: &Example, pass: Pass) -> Result<String, String> {
    let opts = pass.options();
    let drawn: Vec<(&str, String)> = cuts(&ex.markdown, ex.n as u64)
        .into_iter()
        .map(|(how, pieces)| {
            let d = deltas(&pieces);
            let out = std::panic::catch_unwind(|| render(&d, &opts))
                .map_err(|_| format!("{}: panics ({}, cut {how})", ex.name(), pass.name));
            out.map(|o| (how, o))
        })
        .collect::<Result<_, _>>()?;
    let whole = &drawn[0].1;
    for (how, out) in &drawn[1..] {
        if out != whole {
            return Err(format!(
                "{}: cut {how} draws other bytes than whole ({}):\n{whole:?}\n{out:?}",
                ex.name(),
                pass.name
            ));
        }
    }
    for line in whole.lines() {
        let plain = strip_ansi(line);
        if plain.width() > pass.width {
            return Err(format!("{}: {line:?} wider than {}", ex.name(), pass.width));
        }
        if plain.chars().any(char::is_control) {
            return Err(format!("{}: a control character in {line:?}", ex.name()));
        }
    }
    if !pass.color && whole.contains('\x1b') {
        return Err(format!("{}: an escape with colour off", ex.name()));
    }
    if !pass.unicode && !whole.is_ascii() {
        return Err(format!("{}: a byte above 0x7F in ASCII mode", ex.name()));
    }
    Ok(whole.clone())
}

/// The examples, or `None` with a note naming `test` when the crate's
/// suite cannot be found (a failure under CI).
fn examples_for(test: &str) -> Option<Vec<Example>> {
    let found = commonmark::examples();
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI: pulldown-cmark's test suite not found in cargo's registry"
        );
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED {test}: pulldown-cmark's tests/suite not found in cargo's registry"
        );
    }
    found
}

#[test]
fn the_spec_examples_draw_whole_however_they_are_cut() {
    let Some(examples) = examples_for("the_spec_examples_draw_whole_however_they_are_cut") else {
        return;
    };
    assert_eq!(
        examples.len(),
        800,
        "652 spec examples, 57 GFM ones, 18 of alerts, 26 of footnotes, 47 of math"
    );
    assert_rules_hold(&examples);
    // Math is drawn as Unicode, not as the TeX the expected HTML holds:
    // its examples keep the rules above (cuts, width, ASCII), and its
    // drawing is checked by `markdown_math`.
    let examples: Vec<Example> = examples.into_iter().filter(|e| e.suite != "math").collect();

    let mut raw = BTreeMap::new();
    let mut lost_words = BTreeMap::new();
    let mut lost_markup = Vec::new();
    for ex in &examples {
        let html = commonmark::read_html(&ex.html);
        let styled = render(
            &deltas(std::slice::from_ref(&ex.markdown)),
            &READING.options(),
        );
        let plain = strip_ansi(&styled);
        let shown = commonmark::raw_markup(&plain, &html);
        if !shown.is_empty() {
            raw.insert(
                (ex.suite, ex.n),
                format!("{shown:?} of {:?} in\n{plain}", ex.markdown),
            );
        }
        let words = commonmark::lost_words(&plain, &html);
        if !words.is_empty() {
            let what = format!("{words:?} of {:?} in\n{plain}", ex.markdown);
            lost_words.insert((ex.suite, ex.n), what);
        }
        let kinds = commonmark::lost_markup(&styled, &html);
        if !kinds.is_empty() {
            lost_markup.push(format!("{}: {kinds:?}", ex.name()));
        }
    }
    let brackets = raw
        .values()
        .filter(|what| what.starts_with("[('[',") || what.contains("(']',"))
        .count();
    let _ = writeln!(
        std::io::stderr(),
        "{brackets} examples show a raw [ or ] (54 before issue 37, 51 of them references before their definitions)"
    );
    let _ = writeln!(
        std::io::stderr(),
        "of {} examples: {} show markup raw ({} listed as a terminal's limits), {} lose words \
         ({} listed), {} lose markup",
        examples.len(),
        raw.len(),
        RAW_SHOWN.iter().map(|(_, ns, _)| ns.len()).sum::<usize>(),
        lost_words.len(),
        WORDS_LOST.len(),
        lost_markup.len()
    );
    if std::env::var_os("MD_SPEC_DETAILS").is_some() {
        let mut e = std::io::stderr().lock();
        for ((suite, n), what) in &raw {
            let _ = writeln!(e, "RAW {suite} {n}: {what}");
        }
        for ((suite, n), what) in &lost_words {
            let _ = writeln!(e, "WORDS {suite} {n}: {what}");
        }
        for l in &lost_markup {
            let _ = writeln!(e, "MARKUP {l}");
        }
    }
    let listed_words =
        |s: &str, n: usize| WORDS_LOST.iter().any(|(ls, ln, _)| *ls == s && *ln == n);
    assert_listed("lose words", &lost_words, listed_words, || {
        WORDS_LOST.iter().map(|(s, n, _)| (*s, *n)).collect()
    });
    assert_listed("show markup raw", &raw, listed_raw, || {
        RAW_SHOWN
            .iter()
            .flat_map(|(s, ns, _)| ns.iter().map(move |n| (*s, *n)))
            .collect()
    });
}

/// Every example in every pass keeps the engineering rules (cuts, width,
/// control bytes, ASCII).
fn assert_rules_hold(examples: &[Example]) {
    let mut broken = Vec::new();
    for pass in PASSES {
        for ex in examples {
            if let Err(e) = check_rules(ex, pass) {
                broken.push(e);
            }
        }
    }
    assert!(
        broken.is_empty(),
        "{} broken:\n{}",
        broken.len(),
        broken.join("\n")
    );
}

/// Every example in `found` is listed, and every one listed is found.
fn assert_listed(
    what: &str,
    found: &BTreeMap<(&'static str, usize), String>,
    listed: impl Fn(&str, usize) -> bool,
    all_listed: impl Fn() -> Vec<(&'static str, usize)>,
) {
    let unexpected: Vec<String> = found
        .iter()
        .filter(|((s, n), _)| !listed(s, *n))
        .map(|((s, n), why)| format!("{s} {n}: {why}"))
        .collect();
    assert!(
        unexpected.is_empty(),
        "{} examples {what}:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
    let stale: Vec<String> = all_listed()
        .into_iter()
        .filter(|key| !found.contains_key(key))
        .map(|(s, n)| format!("{s} {n}"))
        .collect();
    assert!(
        stale.is_empty(),
        "listed as they {what}, but they do not now (take them off the list):\n{}",
        stale.join("\n")
    );
}

/// The real binary draws every example of each pass as the library does,
/// however the answers were cut, and exits 0.
#[test]
fn viz_render_draws_the_spec_examples_as_the_library_does() {
    let Some(examples) = examples_for("viz_render_draws_the_spec_examples_as_the_library_does")
    else {
        return;
    };
    for pass in PASSES {
        for cut in 0..3 {
            let events = stream(&examples, cut);
            let input: String = events.iter().map(|e| e.to_line() + "\n").collect();
            let width = pass.width.to_string();
            let out = cargo_bin_cmd!("viz-render")
                .env_clear()
                .env("LANG", "C.UTF-8")
                .args([
                    "--width",
                    &width,
                    "--color",
                    if pass.color { "always" } else { "never" },
                    if pass.unicode { "--unicode" } else { "--ascii" },
                ])
                .write_stdin(input)
                .output()
                .unwrap();
            assert!(out.status.success(), "{} cut {cut}: {out:?}", pass.name);
            let drawn = String::from_utf8(out.stdout).unwrap();
            assert!(
                drawn == render(&events, &pass.options()),
                "{}: cut {cut}: the binary draws other bytes than the library",
                pass.name
            );
        }
    }
}
