//! Terminal renderers: bar, line and table charts, layered charts of the
//! plot grammar (`ui` events), streamed message text, chapter headers,
//! tool and error lines; width-aware, Unicode first with an ASCII
//! fallback. [`Renderer`] turns events into terminal output and is shared
//! by `viz-render` and the terminal view of `gem-ask`; [`render_chart`]
//! draws one chart as lines, [`render_spec`] one grammar chart.
//!
//! Guarantees, whatever the input: no line is wider than
//! [`RenderOptions::width`] (display width: CJK and emoji count two), with
//! colour off no escape sequence is written (but the cursor movement that
//! redraws in place on a terminal: `viz-render --live`'s charts, a
//! Markdown answer's open block), in ASCII mode no byte above
//! 0x7F is written, and control characters from data or models are shown
//! in a visible form (`ESC` as `^[`, C1 controls and bidi overrides as
//! `<U+009B>`) instead of reaching the terminal. Message text is
//! word-wrapped at the width as it streams (see [`wrap`]); its code lines
//! (indented by 4 or more, or inside fences) are the one thing not fitted.
//!
//! Choices documented in `viz-render --help`:
//! - numbers: compact in bars and on axes, see [`text::NumFormat`] (`2.9 s`,
//!   `1,234`, `1.2M`, `1.5e-7`); exact in tables, see [`text::ExactFormat`]
//!   (`37,400,000`);
//! - user messages (gemini-cli echoes the prompt) are one dim `> text` line;
//! - in ASCII mode non-ASCII text is folded (`é` → `e`, `—` → `--`) or `?`.
//!
//! Layout: `chart.rs` draws one chart, `stream/` renders an event stream
//! (`paragraphs.rs`: where its text and a report's breaks into paragraphs),
//! `run.rs` is the `viz-render` engine (its front is `app::viz_render`), `ci.rs` its CI logs, `gfm/` its
//! Markdown output, `svg/` its SVG output, `graphics/` pictures in the terminal and PNG,
//! `live_chart/` keeps live charts, `live/` redraws them in place (`--live`),
//! `screen.rs` the rows a terminal redraws in place (live charts, a Markdown
//! answer's open block), `plot/` the one canvas, axes and legend, `marks/`
//! what each chart mark means in every format, `grammar/` the plot grammar's
//! charts; this file holds the options and
//! the last guards (width, ASCII) they share.

mod bar;
mod chart;
mod ci;
mod facet;
mod gfm;
mod grammar;
pub mod graphics;
mod live;
mod live_chart;
pub mod markdown;
mod marks;
pub mod memory;
mod paragraphs;
pub mod plot;
mod run;
mod screen;
mod stream;
mod svg;
pub mod table;
pub mod text;
mod ui;
pub mod vegalite;
pub mod wrap;

use crate::spec::grammar::Limits;
use text::width;
use wrap::{capped_wrap, truncate};

pub use chart::{chart_from_event, render_chart};
pub use grammar::render_spec;
pub use live::LiveArgs;
pub use live_chart::{LiveCharts, frame as live_frame, is_live};
pub use run::{Format, RunOptions, run};
pub use stream::{Renderer, chapter_rule};
pub use ui::warning as ui_warning;

/// The chart tool of gem-ask and gemini-cli sessions. Its calls are data
/// for viz-parse: only a `visualization` event is drawn.
const RENDER_VISUALIZATION: &str = "render_visualization";

/// Series colours of the formats that are pictures (SVG, mermaid), as
/// RGB: told apart in colour and in grey.
pub const SERIES_RGB: [(u8, u8, u8); 8] = [
    (0x25, 0x63, 0xeb),
    (0xea, 0x58, 0x0c),
    (0x16, 0xa3, 0x4a),
    (0xdc, 0x26, 0x26),
    (0x93, 0x33, 0xea),
    (0xca, 0x8a, 0x04),
    (0x92, 0x40, 0x0e),
    (0x37, 0x41, 0x51),
];

/// Default cap of a line chart's plot area, in rows.
pub const DEFAULT_HEIGHT: usize = 15;

/// How to draw. Build it with [`RenderOptions::resolve`] from flags and
/// the environment, or by hand (tests, `gem-ask`).
#[derive(Debug, Clone)]
pub struct RenderOptions {
    /// Columns; no line is wider. Below 20 charts are still drawn but
    /// get cramped.
    pub width: usize,
    /// Unicode glyphs (braille, eighth blocks, box drawing); false: ASCII only.
    pub unicode: bool,
    /// ANSI colour and bold/dim.
    pub color: bool,
    /// Cap on a line chart's plot rows.
    pub height: usize,
    /// One dim line per `tool_use` and `tool_result`.
    pub show_tools: bool,
    /// `thought` events as dim streamed text.
    pub show_thoughts: bool,
    /// Notes on stderr: ignored event types, session, stats.
    pub verbose: bool,
    /// `--chapters`: only chapter headers and per-chapter counts.
    pub chapters_only: bool,
    /// Caps on `ui` chart specs (`--max-spec-bytes`, `--max-rows`).
    pub limits: Limits,
    /// Assistant text drawn as Markdown (`--markdown on`); false: as it
    /// comes, word-wrapped.
    pub markdown: bool,
    /// Links as OSC 8 hyperlinks (with colour on).
    pub hyperlinks: bool,
    /// A Markdown table with numbers is also drawn as a bar chart, read
    /// by this (viz-parse's Markdown table reader, given by the front).
    pub chart_tables: Option<TableChart>,
    /// Charts and images as pictures, with this protocol (`--graphics`;
    /// set only for a terminal that draws them).
    pub graphics: Option<graphics::Target>,
    /// A Markdown answer's open block is drawn as it grows and redrawn in
    /// place (stdout is a terminal that is not dumb); false: each block is
    /// written once, when it is complete (a pipe, a file, a CI log).
    pub in_place: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            width: 80,
            unicode: true,
            color: false,
            height: DEFAULT_HEIGHT,
            show_tools: false,
            show_thoughts: false,
            verbose: false,
            chapters_only: false,
            limits: Limits::default(),
            markdown: false,
            hyperlinks: false,
            chart_tables: None,
            graphics: None,
            in_place: false,
        }
    }
}

impl RenderOptions {
    /// The documented precedence: `--width`, `COLUMNS`, the terminal, 80;
    /// `--ascii`/`--unicode`, then the locale and `TERM`; `--color`, then
    /// `NO_COLOR`, `TERM=dumb` and whether stdout is a terminal.
    pub fn resolve(
        env: &crate::term::TermEnv,
        width: Option<usize>,
        ascii: bool,
        unicode: bool,
        color: crate::term::ColorChoice,
    ) -> RenderOptions {
        RenderOptions {
            width: env.width(width).max(1),
            unicode: env.unicode(ascii, unicode),
            color: env.color(color),
            in_place: env.stdout_is_tty && env.term.as_deref() != Some("dumb"),
            ..RenderOptions::default()
        }
    }

    fn ascii(&self) -> bool {
        !self.unicode
    }
}

/// A Markdown table (its text) as a bar chart, or none when it holds no
/// numbers: what `--chart-tables` draws under a table. The front hands it
/// in (`parse::markdown_table_chart`), so drawing needs no reader.
pub type TableChart = fn(&str) -> Option<crate::spec::Chart>;

/// How assistant text is drawn (`--markdown`, `--hyperlinks`,
/// `--chart-tables`, resolved): shared by viz-render and gem-ask's
/// terminal view.
#[derive(Debug, Clone, Copy)]
pub struct MarkdownOptions {
    /// Assistant text drawn as Markdown.
    pub markdown: bool,
    /// Links as OSC 8 hyperlinks where colour is on.
    pub hyperlinks: bool,
    /// A Markdown table with numbers is also drawn as a bar chart.
    pub chart_tables: Option<TableChart>,
}

impl MarkdownOptions {
    /// Sets the Markdown options; hyperlinks need colour.
    pub fn apply(&self, opts: &mut RenderOptions) {
        opts.markdown = self.markdown;
        opts.chart_tables = self.chart_tables;
        opts.hyperlinks = opts.color && self.hyperlinks;
    }
}

/// The last guard of the width and ASCII promises: a line that is still
/// too wide loses its styling and is cut.
fn fit(line: String, w: usize, opts: &RenderOptions) -> String {
    let plain = text::strip_ansi(&line);
    let line = if width(&plain) > w {
        truncate(&plain, w, opts.ascii())
    } else {
        line
    };
    if opts.unicode {
        line
    } else {
        line.chars()
            .map(|c| if c.is_ascii() { c } else { '?' })
            .collect()
    }
}
