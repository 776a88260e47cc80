//! Where the blocks of an answer end, and their drawing. The text not
//! drawn yet is parsed by pulldown-cmark as a document; every top-level
//! block but the last is complete (a block that a later one follows can
//! no longer change), and so is the last when its own kind says so (a
//! heading, a rule, a paragraph, table or quote after a blank line).
//! Complete blocks are drawn from that parse and the text after them is
//! what the next parse starts from: a top-level block boundary is a
//! clean restart for CommonMark's block structure. Nothing but link and
//! footnote definitions reaches across it, and those are carried here
//! ([`Doc`]). A block holding a reference whose definition has not come
//! yet waits (is not committed, nor is anything after it) until the
//! definition comes, when it is drawn resolved, or the answer ends, when
//! it is drawn as written: so where a definition stands does not change
//! the drawing, nor does how the answer was cut. The text held back from
//! the first block that waits is [`WAIT_LIMIT`] bytes at most; past them
//! the blocks that wait are drawn as written and a definition, when it
//! comes, is drawn where it stands.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

use pulldown_cmark::{BrokenLink, CowStr, Event as Md, Options, Parser, Tag};

use super::layout::{Layout, Setup, blank_line_between};
use super::notes::{self, Brackets, Found, Notes, normalize};
use crate::render::RenderOptions;

/// The extensions drawn: GFM tables, strikethrough, task lists, alerts,
/// footnotes, math (`$…$`, `$$…$$`; `$5 and $10` stays money; `\(…\)` and
/// `\[…\]` are read in [`super::delims`]).
pub const OPTIONS: Options = Options::ENABLE_TABLES
    .union(Options::ENABLE_FOOTNOTES)
    .union(Options::ENABLE_MATH)
    .union(Options::ENABLE_STRIKETHROUGH)
    .union(Options::ENABLE_TASKLISTS)
    .union(Options::ENABLE_GFM);

/// The kind of the last top-level block left open, which says what a
/// next line can do to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Last {
    /// No block: nothing, or link definitions only.
    Nothing,
    Paragraph,
    Table,
    Quote,
    /// An HTML block, and whether a blank line ends it.
    Html(bool),
    List,
    IndentedCode,
    /// A fenced code block (drawn as it streams).
    Fence,
    /// A heading or a rule: complete with its line.
    Closed,
}

/// How many bytes of text from a block that waits for a definition are
/// held with it: past them the blocks that wait are drawn as written (an
/// answer that never defines a `[shortcut]` does not hold back the rest
/// forever, nor make every parse longer).
pub const WAIT_LIMIT: usize = 16 * 1024;

/// What the answer drawn so far leaves to the rest.
pub struct Doc {
    /// Link definitions drawn, by normalized label: address and title.
    pub defs: HashMap<String, (String, String)>,
    /// Labels of references shown as written (their definition had not
    /// come yet): their definition is drawn where it comes.
    pub unresolved: HashSet<String>,
    /// A blank line came after the last block drawn.
    pub blank_pending: bool,
    /// Rows were drawn.
    pub wrote: bool,
    /// Bytes of code that may still be highlighted.
    pub budget: usize,
    /// Footnotes referred to and defined.
    pub notes: Notes,
}

impl Doc {
    pub fn new() -> Doc {
        Doc {
            defs: HashMap::new(),
            unresolved: HashSet::new(),
            blank_pending: false,
            wrote: false,
            budget: super::code::HIGHLIGHT_BUDGET,
            notes: Notes::default(),
        }
    }
}

/// How much of the text is drawn for good.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The complete blocks; the text holds whole lines.
    Commit,
    /// All of it: the answer ended.
    Finish,
    /// All of it, for a look only: nothing is committed, [`Doc`] is not
    /// changed, code is not highlighted.
    Preview,
}

/// The outcome of one parse.
pub struct Drawn {
    /// The rows of the blocks drawn (all of them in a preview).
    pub rows: Vec<String>,
    /// Bytes of the text those blocks took.
    pub consumed: usize,
    /// The kind of the block left open at `consumed`.
    pub last: Last,
    /// That block waits for a definition (see [`WAIT_LIMIT`]).
    pub waiting: bool,
    /// In a preview: where the last top-level block starts, the rows
    /// before it, and whether a blank line comes before it.
    pub tail: Option<(usize, usize, bool)>,
}

/// A link definition of this text.
struct Def {
    key: String,
    label: String,
    dest: String,
    title: String,
    span: Range<usize>,
}

/// A commit point: the rows and bytes of the blocks before it, the
/// budget left then, where the last of those blocks ended.
#[derive(Clone, Copy)]
struct Point {
    rows: usize,
    consumed: usize,
    budget: usize,
    last_end: Option<usize>,
    /// A blank row waits for the next row.
    blank: bool,
}

/// How the blocks are drawn: the options, and whether marks are written
/// out as text.
#[derive(Clone, Copy)]
pub struct Look<'a> {
    pub opts: &'a RenderOptions,
    pub marks: bool,
}

/// Parses `src` and draws its blocks (see [`Mode`]).
pub fn draw(src: &str, doc: &mut Doc, look: Look<'_>, mode: Mode) -> Drawn {
    let shown_raw: RefCell<Vec<(usize, String)>> = RefCell::new(Vec::new());
    let known = &doc.defs;
    let callback = |link: BrokenLink<'_>| {
        let key = normalize(&link.reference);
        match known.get(&key) {
            Some((dest, title)) => Some((CowStr::from(dest.clone()), CowStr::from(title.clone()))),
            None => {
                shown_raw.borrow_mut().push((link.span.start, key));
                None
            }
        }
    };
    let mut parser =
        Parser::new_with_broken_link_callback(src, OPTIONS, Some(callback)).into_offset_iter();
    let mut walk = Walk::new(
        src,
        doc,
        look,
        mode,
        definitions(parser.reference_definitions()),
    );
    walk.waits = Some(&shown_raw);
    let mut stopped = false;
    for (ev, range) in super::delims::MathDelims::new(src, parser.by_ref()) {
        if !walk.event(ev, range) {
            stopped = true;
            break;
        }
    }
    drop(parser);
    let last = if stopped {
        walk.top.as_ref().map_or(Last::Nothing, |(_, k)| *k)
    } else {
        walk.end()
    };
    let frozen = walk.frozen;
    let Walk {
        layout,
        committed,
        defs,
        numbered,
        notes,
        tail,
        ..
    } = walk;
    // A block that waits is the text's first open block, whatever follows
    // (the next lines are read as going on it, as far as parsing again
    // is concerned: a parse then only comes where a block could end).
    let last = frozen.unwrap_or(last);
    let mut rows = layout.rows;
    rows.truncate(committed.rows);
    if mode == Mode::Preview {
        let tail = tail.filter(|t| t.consumed > 0).map(|t| {
            let gap = t
                .last_end
                .is_some_and(|e| blank_line_between(src, e, t.consumed));
            (t.consumed, t.rows.min(rows.len()), t.blank || gap)
        });
        return Drawn {
            rows,
            consumed: src.len(),
            last,
            waiting: false,
            tail,
        };
    }
    let raw = shown_raw.into_inner().into_iter();
    settle(src, doc, &committed, &defs, raw, !rows.is_empty());
    keep_notes(&mut doc.notes, committed.consumed, numbered, notes);
    Drawn {
        rows,
        consumed: committed.consumed,
        last,
        waiting: frozen.is_some(),
        tail: None,
    }
}

/// What the answer keeps of a parse's footnotes (those before
/// `consumed`): the numbers given, the definitions.
fn keep_notes(
    kept: &mut Notes,
    consumed: usize,
    numbered: Vec<(usize, String)>,
    notes: Vec<(usize, String, String)>,
) {
    for (at, key) in numbered {
        if at < consumed && !kept.numbers.contains_key(&key) {
            let n = kept.numbers.len() + 1;
            kept.numbers.insert(key, n);
        }
    }
    for (at, key, text) in notes {
        if at < consumed && !kept.defined(&key) {
            kept.defs.push((key, text));
        }
    }
}

/// The link definitions of a parse, in the order of the text.
fn definitions(refs: &pulldown_cmark::RefDefs<'_>) -> Vec<Def> {
    let mut defs: Vec<Def> = refs
        .iter()
        .map(|(label, d)| Def {
            key: normalize(label),
            label: label.to_string(),
            dest: d.dest.to_string(),
            title: d.title.as_deref().unwrap_or("").to_string(),
            span: d.span.clone(),
        })
        .collect();
    defs.sort_by_key(|d| d.span.start);
    defs
}

/// What the answer keeps of a parse: the definitions and references of
/// the text committed, where the budget stands, whether a blank line
/// waits.
fn settle(
    src: &str,
    doc: &mut Doc,
    committed: &Point,
    defs: &[Def],
    raw: impl Iterator<Item = (usize, String)>,
    drew: bool,
) {
    let consumed = committed.consumed;
    // What lies between the last block drawn and the rest.
    let blank = match committed.last_end {
        Some(end) => blank_line_between(src, end, consumed),
        None => doc.blank_pending || blank_line_between(src, 0, consumed),
    };
    if consumed > 0 {
        doc.blank_pending = blank || committed.blank;
    }
    doc.wrote |= drew;
    doc.budget = committed.budget;
    for d in defs.iter().filter(|d| d.span.end <= consumed) {
        doc.defs
            .entry(d.key.clone())
            .or_insert((d.dest.clone(), d.title.clone()));
    }
    for (at, key) in raw {
        if at < consumed {
            doc.unresolved.insert(key);
        }
    }
}

/// One parse being drawn: the events go to the layout, top-level block
/// boundaries become commit points.
struct Walk<'s, 'd> {
    src: &'s str,
    mode: Mode,
    /// What the answer had drawn before (definitions, references).
    doc: &'d Doc,
    layout: Layout<'s>,
    defs: Vec<Def>,
    next_def: usize,
    /// Where references without a definition stand (by the parser's
    /// callback), and the labels.
    waits: Option<&'d RefCell<Vec<(usize, String)>>>,
    /// Where footnote references without a definition stand.
    notes_waiting: Vec<usize>,
    /// A block waits for a definition: nothing from it on is committed;
    /// its kind.
    frozen: Option<Last>,
    brackets: Brackets<'s>,
    /// Footnotes first referred to in this text: where, and the label.
    numbered: Vec<(usize, String)>,
    /// Footnote definitions of this text: where, the label, the text.
    notes: Vec<(usize, String, String)>,
    /// Inside a footnote definition (kept, not drawn): its depth.
    skip: usize,
    /// In a preview, the point before the last top-level block.
    tail: Option<Point>,
    committed: Point,
    /// The top-level block being walked, and its kind.
    top: Option<(Range<usize>, Last)>,
    depth: usize,
}

impl<'s, 'd> Walk<'s, 'd> {
    fn new(src: &'s str, doc: &'d Doc, look: Look<'s>, mode: Mode, defs: Vec<Def>) -> Self {
        let layout = Layout::new(
            src,
            Setup {
                opts: look.opts,
                blank_before: doc.blank_pending,
                wrote: doc.wrote,
                highlight: mode != Mode::Preview,
                budget: doc.budget,
                marks: look.marks,
            },
        );
        Walk {
            src,
            mode,
            doc,
            committed: Point {
                rows: 0,
                consumed: 0,
                budget: doc.budget,
                last_end: None,
                blank: false,
            },
            layout,
            defs,
            next_def: 0,
            waits: None,
            notes_waiting: Vec::new(),
            frozen: None,
            brackets: Brackets::default(),
            numbered: Vec::new(),
            notes: Vec::new(),
            skip: 0,
            tail: None,
            top: None,
            depth: 0,
        }
    }

    /// A commit point after what the layout drew, at `consumed`.
    fn point(&self, consumed: usize) -> Point {
        Point {
            rows: self.layout.rows.len(),
            consumed,
            budget: self.layout.budget,
            last_end: self.layout.last_end,
            blank: self.layout.blank_pending(),
        }
    }

    /// Takes one event; false when the walk stops before an open last
    /// block (see [`Mode::Commit`]).
    fn event(&mut self, ev: Md<'s>, range: Range<usize>) -> bool {
        if self.skip > 0 {
            match ev {
                Md::Start(_) => self.skip += 1,
                Md::End(_) => self.skip -= 1,
                _ => {}
            }
            return true;
        }
        let block_start = matches!(ev, Md::Start(_) | Md::Rule) && self.depth == 0;
        if block_start {
            // Everything before this block is complete: the block before
            // it, and the definitions between.
            self.draw_defs(range.start);
            // A top-level block starts its line (its range starts after
            // the indent); nothing is committed past a block that waits.
            if self.frozen.is_none()
                && let Some((r, kind)) = &self.top
                && self.waits_in(r)
            {
                self.frozen = Some(*kind);
            }
            if self.frozen.is_none() {
                self.committed = self.point(line_start(self.src, range.start));
            }
            let kind = kind_of(&ev, self.src, &range);
            let last_in_text = self.src[range.end..].trim().is_empty();
            self.top = Some((range.clone(), kind));
            if let Md::Start(Tag::FootnoteDefinition(label)) = &ev {
                let text = notes::note_text(&self.src[range.clone()]);
                self.notes.push((range.start, normalize(label), text));
                self.skip = 1;
                return true;
            }
            if self.mode == Mode::Commit
                && last_in_text
                && (kind == Last::Fence || !complete(kind, self.src, &range))
            {
                return false;
            }
        }
        if !block_start && self.depth == 0 {
            return true;
        }
        if let Md::FootnoteReference(label) = &ev {
            self.footnote(normalize(label), range);
            return true;
        }
        match self.brackets.take(ev, range) {
            Found::Held => {}
            Found::Reference(key, range) => {
                if self.doc.notes.defined(&key) {
                    self.footnote(key, range);
                } else {
                    self.notes_waiting.push(range.start);
                    let (ev, range) = notes::as_text(self.src, range);
                    self.pass(ev, range);
                }
            }
            Found::Events(evs) => {
                for (ev, range) in evs {
                    self.pass(ev, range);
                }
            }
        }
        true
    }

    /// An event to the layout; a footnote's definition inside a
    /// container is drawn where it stands, led by its number.
    fn pass(&mut self, ev: Md<'s>, range: Range<usize>) {
        if let Md::Start(Tag::FootnoteDefinition(label)) = &ev {
            let n = self.number(normalize(label), range.start);
            self.depth += 1;
            self.layout.note(format!("{n}."), range.start);
            return;
        }
        match &ev {
            Md::Start(_) => self.depth += 1,
            Md::End(_) => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
        self.layout.event(ev, range);
    }

    /// A footnote reference: its number, in superscript.
    fn footnote(&mut self, key: String, range: Range<usize>) {
        let n = self.number(key, range.start);
        let mark = notes::mark(n, self.layout.unicode());
        self.layout.event(Md::Text(mark.into()), range);
    }

    /// A footnote's number: the one it has, or the next.
    fn number(&mut self, key: String, at: usize) -> usize {
        let known = self.doc.notes.numbers.len();
        match self.doc.notes.numbers.get(&key) {
            Some(n) => *n,
            None => match self.numbered.iter().position(|(_, k)| *k == key) {
                Some(i) => known + i + 1,
                None => {
                    self.numbered.push((at, key));
                    known + self.numbered.len()
                }
            },
        }
    }

    /// Whether the top-level block `r` holds a reference whose definition
    /// has not come (and the text held is within [`WAIT_LIMIT`]).
    fn waits_in(&self, r: &Range<usize>) -> bool {
        if self.mode != Mode::Commit || self.src.len() > WAIT_LIMIT {
            return false;
        }
        let raw = self
            .waits
            .is_some_and(|w| w.borrow().iter().any(|(at, _)| r.contains(at)));
        raw || self.notes_waiting.iter().any(|at| r.contains(at))
    }

    /// The events ended: what is committed of the last block, and the
    /// kind of the block left open.
    fn end(&mut self) -> Last {
        for (ev, range) in self.brackets.flush() {
            self.pass(ev, range);
        }
        self.layout.close();
        match (&self.top, self.mode) {
            (_, Mode::Finish | Mode::Preview) => {
                self.tail = Some(self.committed);
                self.draw_defs(self.src.len());
                self.committed = self.point(self.src.len());
                Last::Nothing
            }
            (Some((range, kind)), Mode::Commit) => {
                let (range, kind) = (range.clone(), *kind);
                if self.frozen.is_some() || self.waits_in(&range) {
                    self.frozen = self.frozen.or(Some(kind));
                    return kind;
                }
                // The last block: complete when its kind says so, or when
                // text it did not take (a definition) follows it.
                let defs_after = !self.src[range.end..].trim().is_empty();
                if !complete(kind, self.src, &range) && !defs_after {
                    return kind;
                }
                // Blank lines after it are taken too; definitions after
                // it wait for what follows them (a title may).
                let end = self.layout.last_end.unwrap_or(range.end).max(range.end);
                self.committed = self.point(if defs_after { end } else { self.src.len() });
                Last::Nothing
            }
            (None, Mode::Commit) => Last::Nothing,
        }
    }

    /// Draws the definitions before `upto` whose references were drawn
    /// as written before them.
    fn draw_defs(&mut self, upto: usize) {
        while let Some(d) = self.defs.get(self.next_def).filter(|d| d.span.start < upto) {
            self.next_def += 1;
            let shown = self.doc.unresolved.contains(&d.key);
            if shown && !self.doc.defs.contains_key(&d.key) {
                self.layout
                    .definition(&d.label, &d.dest, &d.title, d.span.clone());
            }
        }
    }
}

/// The start of the line `at` falls in.
fn line_start(src: &str, at: usize) -> usize {
    src[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// The kind of the top-level block an event opens.
fn kind_of(ev: &Md<'_>, src: &str, range: &Range<usize>) -> Last {
    match ev {
        Md::Rule => Last::Closed,
        Md::Start(Tag::Heading { .. }) => Last::Closed,
        Md::Start(Tag::Paragraph) => Last::Paragraph,
        Md::Start(Tag::Table(_)) => Last::Table,
        Md::Start(Tag::BlockQuote(_)) => Last::Quote,
        // A footnote's definition, as a list, goes on after a blank line.
        Md::Start(Tag::List(_) | Tag::FootnoteDefinition(_)) => Last::List,
        Md::Start(Tag::CodeBlock(pulldown_cmark::CodeBlockKind::Indented)) => Last::IndentedCode,
        Md::Start(Tag::CodeBlock(_)) => Last::Fence,
        Md::Start(Tag::HtmlBlock) => Last::Html(html_ends_at_blank(&src[range.start..])),
        _ => Last::Paragraph,
    }
}

/// Whether an HTML block (from its first line) is of the kinds a blank
/// line ends (CommonMark's 6 and 7), not a `<pre>`, `<script>`, `<style>`,
/// `<textarea>`, comment, processing instruction, declaration or CDATA.
fn html_ends_at_blank(block: &str) -> bool {
    let t = block.trim_start().to_ascii_lowercase();
    !(["<script", "<pre", "<style", "<textarea"]
        .iter()
        .any(|p| t.starts_with(p))
        || t.starts_with("<!")
        || t.starts_with("<?"))
}

/// Whether a top-level block that ends the text is complete: a heading
/// or a rule always, a paragraph, table, quote or (most) HTML block once
/// a blank line follows it, a fence once closed.
fn complete(kind: Last, src: &str, range: &Range<usize>) -> bool {
    let blank_after = range.end < src.len();
    match kind {
        Last::Closed => true,
        Last::Paragraph | Last::Table | Last::Quote => blank_after,
        Last::Html(ends_at_blank) => ends_at_blank && blank_after,
        Last::Fence => fence_closed(&src[range.clone()]),
        Last::List | Last::IndentedCode | Last::Nothing => false,
    }
}

/// Whether a fenced code block's text ends with its closing fence.
fn fence_closed(block: &str) -> bool {
    let mut lines = block.lines();
    let Some(open) = lines.next() else {
        return false;
    };
    let open = open.trim_start();
    let ch = open.chars().next().unwrap_or('`');
    let len = open.chars().take_while(|&c| c == ch).count();
    lines
        .next_back()
        .is_some_and(|l| super::lines::closes(l, ch, len))
}
