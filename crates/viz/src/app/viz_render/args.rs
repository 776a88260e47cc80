//! The `viz-render` command line (clap), kept in the library so the man
//! page is generated from the same definition the binary parses; also
//! [`MarkdownArgs`], the text flags gem-ask's terminal view shares.

use std::path::PathBuf;

use clap::Parser;

use crate::render::graphics::Graphics;
use crate::render::{Format, MarkdownOptions, RenderOptions};
use crate::spec::grammar;
use crate::term::{ColorChoice, Toggle};

const LONG_ABOUT: &str = "\
Reads a stream of JSON-lines events (docs/events.md) from the files named, or \
stdin, and draws each one as it arrives: `visualization` events (and bare \
chart spec objects, the render_visualization argument form) as bar, line or \
table charts; `message` text as it streams; `topic` events as numbered \
chapter headers (a topic repeating the open chapter's title, whitespace \
aside, is skipped: chapters are forward-only markers); `error` events \
marked as errors. It reads the output of gem-ask and viz-parse, and of \
`gemini -p ... --output-format stream-json` through viz-parse: viz-parse \
turns the stream's render_visualization calls into `visualization` events \
(viz-render draws only those, and when a stream has such calls but no chart \
at all, says so in a note on stderr at the end). It reads OpenAI Codex's \
`codex exec --json` and Claude Code's `claude -p --output-format stream-json \
--verbose` streams the same way: their answers, calls, errors and usage, \
and each plan step (Codex's to-do list, Claude Code's TodoWrite or tasks) \
as a chapter as it gets under way.

Drawing: bar charts use eighth-block bars (`#` in ASCII) with the value and \
its unit right-aligned, diverging from a zero axis when values are negative. \
Line charts use a braille canvas (2x4 dots per cell; `*`, `+`, `o` in ASCII), \
y ticks at 1/2/5 x 10^k, x labels where they fit, a legend for several \
series; each data point gets its series' marker when the points are few (at \
most a third of the plot's columns; in ASCII the line is drawn with the \
marker itself); the plot is at most --height rows and about a quarter of the \
width. Tables use box borders (ASCII borders in ASCII mode), numbers \
right-aligned and exact (37,400,000, with the decimals the data has; the \
compact form only when exact numbers cannot fit the width), the unit in the \
header. A footer says when points were dropped upstream \
(\"showing 30 of 1,204 points, top by value\").

Layered charts: `ui` events of kind `chart`, version 1 (the plot grammar, \
VisualChartV1 in docs/events.md) are validated, then drawn on one canvas \
with one pair of axes and one legend: line (braille per series), area \
(filled to the baseline, or between yStart and yEnd), point (markers), bar \
(columns over numbers or dates, side by side for several series; \
horizontal rows over categories, grouped), rectangle (a shaded band behind \
the rest), rule (a reference line with its label), sector (one bar split \
in proportion, with a legend of values and percentages). A later mark \
draws over an earlier one. Number ticks at 1/2/5 x 10^k with the field's \
unit when it is short (5 km), date ticks at hours, days, weeks, months or \
years as the span needs (Mar 2, Apr 2026, 2027); axes may be inverted or \
given a domain. `interaction` is not drawn (the footer says so). A spec \
that fails validation (over --max-spec-bytes or --max-rows, a mark type \
not on the allowlist, a number that is not finite, a date that is not \
ISO 8601, an encoding naming no field or a field of the wrong type, \
marks disagreeing on an axis) is not drawn: its fallbackText (else its \
title) is shown instead, with a warning on stderr naming the rule, the \
path and what is accepted; so is a `ui` event of another kind or version. \
With --json the event passes through, followed by an `error` event of \
severity warning with the same message. A `plot` tool call that no `ui` event answers \
(gem-ask sends `tool_use`, `ui`, `tool_result`) is drawn from its `spec` \
argument when its successful result comes, or at the end of input.

Chapters: --chapters prints each chapter header with its counts: events \
(not the `topic` itself, `init`, or topic-tag's closing `topic_summary`), \
tool calls (`tool_use`) and errors (`error` events that are not warnings, \
failed tool results and runs, invalid charts), and under the header the \
first line of the chapter's summary. A titled call of create_new_topic \
(gem-ask) or update_topic (gemini-cli) is the chapter it opens, in every \
format, also on a stream topic-tag has not seen (gem-ask's own stream \
follows the call with the `topic` it opens, which then opens nothing \
more): the header says what the call and its `tool_result` say, so they \
are neither counted nor shown by --show-tools (a call without a title \
opens no chapter and stays an ordinary call). The terminal draws the \
summary under the header (three lines at most) and the strategic intent \
(one line); Markdown writes both under the heading.

Numbers in bar charts and on axes: below 1,000 with the decimals the most precise value of the chart \
needs (2.9, 3.0); 1,000 up to a million whole with separators (1,234); from a \
million three significant digits and a suffix (1.2M, 45.6B, 7.89T); beyond \
10^15 or below 10^-4 scientific (1.5e-7). Units follow a space (2.9 s), \
except %, x and degree signs which attach (12%) and currency symbols which \
lead ($1,200).

Text: assistant message text (and thoughts) is word-wrapped at the width as \
it streams: a word that would pass the width starts the next line (the blank \
before it dropped), a word longer than the width is cut, newlines are kept, \
tabs reach the next multiple of 8 columns. Each delta is written when it \
arrives, except its unfinished last word while it still fits the line: \
that waits for the next delta, or any other event, or the end of input. \
Indentation is kept and a wrapped line continues under its text (under the \
text of a list item: `-`, `*`, `+`, `1.`); code, that is lines indented by 4 \
columns or more and lines inside ``` or ~~~ fences, passes as written, \
neither wrapped nor cut. A user message (gemini-cli echoes the prompt) is \
one dim `> prompt` line. Text a model writes after tool calls is a new \
paragraph, set off from its text before them (whether the calls are shown \
or not), in every format. Control characters never reach the terminal: ESC shows as ^[, other C0 \
controls in caret form, C1 controls and bidi overrides as <U+009B>; tabs and \
newlines in message text are kept. In ASCII mode non-ASCII text is folded \
(é to e, an em dash to --) or shown as `?`, so no byte above 0x7F is \
written. Nothing but code lines in message text is ever wider than the \
width.

Width: --width, else COLUMNS, else `width` in $XDG_CONFIG_HOME/gemline/config.toml, \
else the terminal, else 80. Unicode unless \
--ascii, or LC_ALL / LC_CTYPE / LANG name a non-UTF-8 locale, or TERM=dumb; \
--unicode forces it. Colour per --color, else NO_COLOR, else the config's `color`; \
auto means a terminal, no NO_COLOR \
and TERM not dumb. With colour off no escape sequence is written.

--format json (or --json) does not draw: each chart is written back as a `visualization` event \
with meta.fallbackMode set to the mode that would have been drawn (\"unicode\" \
or \"ascii\"), a bare spec normalized first; every other event passes \
through unchanged.

--format github and --format gitlab draw the same picture for a CI log, \
whole lines at a time: each chapter is a collapsible section (GitHub's \
::group:: and ::endgroup:: workflow commands; GitLab's section_start and \
section_end markers, collapsed); on GitHub each `error` event is an \
::error:: or ::warning:: annotation (file= and line= when the event has \
`file` and `line`) in place of its error line. Colour (--color auto) is on \
unless NO_COLOR is set: both logs show ANSI colour. Text from events can \
never act as a workflow command: a drawn line GitHub's runner would read as \
one (:: after blanks, or ##[ anywhere) is fenced by ::stop-commands::TOKEN \
and ::TOKEN::; data inside our own commands is percent-escaped; GitLab's \
markers need a carriage return and ESC, which are never drawn from data. \
--format auto (the default) is github when GITHUB_ACTIONS=true, gitlab \
when GITLAB_CI=true, and only when stdout is not a terminal; else terminal.

--format markdown writes GitHub-flavoured Markdown that GitHub and GitLab \
render, for a CI job summary (>> \"$GITHUB_STEP_SUMMARY\") or a pull-request \
comment: assistant text passes through as the Markdown it is (a code fence \
it leaves open is closed); chapters are `##` headings; bar and line charts \
are mermaid `xychart-beta` blocks (title, axis titles with units, one plot \
per series, several series coloured and named in a legend line under the \
block), followed by the downsampling note and a collapsed <details> block \
with the chart's data; stacked bars are an xychart of running totals \
(mermaid overlays bar plots; grouped bars are their data table); table \
charts are GFM tables, numbers right-aligned and exact; a heatmap is its \
grid, a box plot a row per group, sparklines a table with a sparkline \
column; grammar charts of line and bar marks over one x axis are \
mermaid too, others (areas, points, rules, bands, sectors, inverted axes, \
gaps, more than 200 x values) are their data table with a note saying \
why; `error` events, failed tools and runs are quoted Error/Warning lines. \
Text from events (titles, labels, cells, messages of errors) is escaped: \
it shows as written, never as Markdown, HTML, math or a mention.

--format svg draws each chart (bar, line, table, and every mark of a \
valid `ui` chart) as a self-contained SVG with plotters' SVG backend, \
following the terminal's layout: bold title and subtitle, horizontal bars \
with their values, line charts and grammar marks on one pair of axes with \
the terminal's ticks (units on short tick labels, else in the axis title), \
a legend for several series, sectors as one bar split in proportion with \
values and percentages, tables with exact numbers, and the downsampling \
note in a footer. 800 pixels wide, sans-serif text. One chart is one SVG \
document on stdout; with --output-dir DIR each chart is a file \
DIR/NN-title.svg and its path is written on stdout. Other events write \
nothing; a chart that cannot be drawn is a warning (--strict: exit 65).

--format png writes the same charts as PNG images, each SVG rasterised at \
its size with resvg (text in a DejaVu Sans subset compiled in, so the \
pixels are the same on every machine): one PNG on stdout (never to a \
terminal), or with --output-dir DIR a file DIR/NN-title.png each.

Pictures in the terminal (--graphics): where stdout is a terminal that \
shows images, each chart is drawn as that picture, rasterised at the \
terminal's cell size times the width in columns, with the kitty graphics \
protocol, iTerm2's inline images or sixel (256 colours); `auto` detects \
the protocol from the environment (KITTY_WINDOW_ID or TERM=xterm-kitty, \
Ghostty; TERM_PROGRAM=iTerm.app or WezTerm; TERM=foot or mlterm), none \
under tmux or screen. Text and other events are drawn as always. Into a \
pipe, a file or a CI log, with --live and with --chapters, charts stay \
text: no image bytes and no escape sequence are written there. A `media` \
event (gem-ask's images) is drawn the same way, else as one line naming \
its file.

--format vega-lite does not draw either: each chart (bar, line, table, and \
every mark of a valid `ui` chart) is written as a Vega-Lite v5 spec with its \
data inline, one compact JSON document per line, so one chart is one JSON \
file for vl2svg, the Vega editor or a notebook, and several are JSON lines \
(`split -l 1`). Bars, line labels and categories keep their input order; \
units go in axis titles; dates are a UTC time axis; inverted axes, domains, \
rules and bands carry over; `interaction` is kept in usermeta and its flags \
become selections (hover, x brush, x pan and zoom). A live chart is \
exported once, its last update, at the end of input. Other events write \
nothing; a chart that cannot be exported is a warning naming the line and \
the rule (--strict: exit 65).

Live charts: a `visualization` event with an `id` and `\"live\": true` \
(viz-parse --follow) is an update of that chart. With --live on a terminal \
the live charts stay at the bottom and each update replaces its chart in \
place (cursor movement, no scrolling; one write per frame, in synchronized \
output mode), at most --fps times a second; text and other events stream \
above them. A footer gives per series the last value, min, max and mean \
of the points shown, with the unit. The width is the terminal's (unless \
--width), and a resize redraws at the new width; a chart taller than the \
screen is drawn lower. At the end of input the last frame is drawn whole; \
Ctrl-C leaves the last frame, shows the cursor again and exits 130. Input \
is read on its own thread: an idle stream costs no CPU. Into a pipe or a \
file (or TERM=dumb), and without --live, updates are not drawn as they \
come: the last state of each live chart is drawn once at the end of input \
(with --live also at SIGINT), so a CI log gets one clean chart per id. \
--color never turns colour off, not the cursor movement of --live.

Lines that are not JSON objects are skipped with a warning \
naming the line (--strict: exit 65). An invalid chart is drawn as an error \
line and the stream goes on (--strict: exit 65). Unknown event types are \
ignored (noted on stderr with --verbose).";

const AFTER_HELP: &str = "\
Exit status:
  0   success (also when the reader of stdout goes away, as with `| head`)
  1   failure (an I/O error)
  2   usage error
  65  bad input data with --strict (a line that is not a JSON object, an invalid chart)
  66  an input file cannot be opened
  130 interrupted (Ctrl-C) with --live, after drawing the last frame (143: SIGTERM)

Examples:
  viz-parse data.csv | viz-render
  gemini -p 'Compare the 0-60 times of the fastest BMWs' --output-format stream-json | viz-parse | viz-render
  gem-ask 'plot the last 5 years' | viz-render --show-tools
  codex exec --json 'fix the failing test' | viz-render --format github
  viz-render --ascii --width 60 events.jsonl
  make 2>&1 | topic-tag --wrap --split '^==> ' | viz-render --format github
  ping -i 0.5 example.com | viz-parse --follow --extract 'time=(?P<ms>[0-9.]+)' --unit ms | viz-render --live
  viz-parse --chart line testdata/yearly.csv | viz-render --format vega-lite > chart.vl.json
  viz-parse --chart bar testdata/bmw.csv | viz-render --format svg > bmw.svg
  viz-parse --chart bar bench.csv | viz-render --format markdown >> \"$GITHUB_STEP_SUMMARY\"
  topic-tag --wrap --split '^==> ' < build.log | viz-render --chapters
  echo '{\"chartType\":\"bar\",\"series\":[{\"name\":\"s\",\"points\":[{\"label\":\"a\",\"value\":1}]}]}' | viz-render";

/// The headings of `--help`, by concern.
const FORMAT: &str = "Output format";
const TERMINAL: &str = "Terminal";
const SHOWN: &str = "What is drawn";
const INPUT: &str = "Input";
const LIVE: &str = "Live charts (--live)";

/// Draw chart events, streamed text and chapter headers in the terminal.
#[derive(Debug, Clone, Parser)]
#[command(
    name = "viz-render",
    version,
    about = "Draw a JSON-lines event stream in the terminal: charts, streamed text, chapters",
    long_about = LONG_ABOUT,
    after_help = AFTER_HELP
)]
pub struct VizRenderArgs {
    /// Input files of events; `-` or none reads stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Width in columns (default: COLUMNS, the terminal, or 80).
    #[arg(help_heading = TERMINAL, long, value_name = "COLS", value_parser = clap::value_parser!(u16).range(1..))]
    pub width: Option<u16>,

    /// Cap on a line chart's plot rows.
    #[arg(help_heading = TERMINAL, long, value_name = "ROWS", default_value_t = 15, value_parser = clap::value_parser!(u16).range(2..))]
    pub height: u16,

    /// Draw with ASCII only.
    #[arg(help_heading = TERMINAL, long, conflicts_with = "unicode")]
    pub ascii: bool,

    /// Draw with Unicode whatever the locale says.
    #[arg(help_heading = TERMINAL, long)]
    pub unicode: bool,

    /// Colour and bold/dim.
    #[arg(help_heading = TERMINAL, long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    #[command(flatten, next_help_heading = TERMINAL)]
    pub text: MarkdownArgs,

    /// What to write: `terminal` draws; `github` and `gitlab` draw for a CI
    /// log (chapters as collapsible sections; on GitHub error events as
    /// annotations); `auto` is one of those two when GITHUB_ACTIONS or
    /// GITLAB_CI is `true` and stdout is not a terminal, else `terminal`;
    /// `svg` writes one self-contained SVG per chart; `png` one PNG per
    /// chart (that SVG rasterised at its size);
    /// `markdown` writes GitHub-flavoured
    /// Markdown (charts as mermaid xychart blocks, data in collapsed
    /// tables); `json` re-emits the events, charts with meta.fallbackMode
    /// set (as --json); `vega-lite` writes one Vega-Lite v5 spec per chart,
    /// one compact JSON document per line.
    #[arg(help_heading = FORMAT, long, value_enum, value_name = "FORMAT", default_value_t = Format::Auto)]
    pub format: Format,

    /// With --format svg or png: write each chart to its own file in DIR
    /// (created if missing), `NN-title.svg` or `.png`, and its path on stdout.
    #[arg(help_heading = FORMAT, long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,

    /// Draw charts as pictures on a terminal that shows images: `auto`
    /// detects the kitty graphics protocol (kitty, Ghostty), iTerm2's
    /// inline images (iTerm2, WezTerm) or sixel (foot, mlterm) from the
    /// environment (none under tmux or screen); `kitty`, `iterm`, `sixel`
    /// choose; `off` draws text. Never into a pipe, a file or a CI log,
    /// nor with --live: there charts stay text.
    #[arg(help_heading = TERMINAL, long, value_enum, value_name = "WHEN", default_value_t = Graphics::Auto)]
    pub graphics: Graphics,

    /// Same as --format json.
    #[arg(help_heading = FORMAT, long, conflicts_with_all = ["chapters", "format"])]
    pub json: bool,

    /// One dim line for each tool call and tool result (titled topic calls
    /// excepted: their chapter header says it). A failed tool result is
    /// shown either way, as `warning: TOOL failed: REASON` (the first line of
    /// its message, wrapped at the width).
    #[arg(help_heading = SHOWN, long)]
    pub show_tools: bool,

    /// Model thoughts (`thought` events, gem-ask --thoughts) as dim text.
    #[arg(help_heading = SHOWN, long)]
    pub show_thoughts: bool,

    /// Only chapter headers, each with its counts of events, tool calls and errors.
    #[arg(help_heading = SHOWN, long)]
    pub chapters: bool,

    /// A line that is not an event, or an invalid chart, is an error (exit 65).
    #[arg(help_heading = INPUT, long)]
    pub strict: bool,

    /// Draw live charts (`"live": true` events, viz-parse --follow) in
    /// place on a terminal, redrawn as updates come; elsewhere each is
    /// drawn once, at the end of input or at Ctrl-C.
    #[arg(help_heading = LIVE, long, conflicts_with_all = ["json", "chapters"])]
    pub live: bool,

    /// With --live: redraws per second at most.
    #[arg(help_heading = LIVE, long, value_name = "N", default_value_t = 10, requires = "live",
          value_parser = clap::value_parser!(u32).range(1..=60))]
    pub fps: u32,

    /// Notes on stderr: ignored event types, session, token stats (with the
    /// cached share and, from gemini-cli, each model's tokens).
    #[arg(help_heading = SHOWN, short, long)]
    pub verbose: bool,

    /// Largest `ui` chart spec drawn, in bytes of compact JSON; a larger
    /// one shows its fallbackText (rule payload-size).
    #[arg(help_heading = INPUT, long, value_name = "BYTES", default_value_t = grammar::DEFAULT_MAX_BYTES)]
    pub max_spec_bytes: usize,

    /// Most `dataset.rows` of a `ui` chart spec drawn; more shows its
    /// fallbackText (rule row-count).
    #[arg(help_heading = INPUT, long, value_name = "ROWS", default_value_t = grammar::DEFAULT_MAX_ROWS)]
    pub max_rows: usize,
}

impl VizRenderArgs {
    /// The format asked for, `--json` included (`auto` not yet resolved).
    pub fn output_format(&self) -> Format {
        if self.json { Format::Json } else { self.format }
    }
}

/// How assistant text is drawn: flags shared by viz-render and gem-ask's
/// terminal view.
#[derive(Debug, Clone, clap::Args)]
pub struct MarkdownArgs {
    /// Draw assistant text as Markdown (headings, lists, code with syntax
    /// highlighting, tables fitted to the width, the HTML models write:
    /// <br>, <b>, <i>, <code>, <sub>, <sup>, <kbd>, <details>; other HTML
    /// as written) as it streams, and shown thoughts as dim Markdown; off:
    /// the text as it comes, word-wrapped. Each block is parsed whole: on a
    /// terminal the block being written is drawn at once and redrawn in
    /// place as it grows; in a pipe or a file each block is written once,
    /// complete. With colour off, marks are written out (*strong*,
    /// _emphasis_, `code`) and headings underlined. Code is highlighted up
    /// to 16 KiB of it per answer (some 400 lines); code past that is drawn
    /// in the plain code style, so an answer that is mostly code still
    /// draws at once. TeX math ($…$, $$…$$, \(…\), \[…\]) is drawn as
    /// Unicode (Greek letters, operators, scripts, stacked fractions,
    /// matrices; in ASCII mode as ASCII); a reference link is resolved wherever its
    /// definition stands (the block that uses one waits for it, up to 16
    /// KiB of text); footnotes are superscript numbers, their notes drawn
    /// after the answer.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = Toggle::On)]
    pub markdown: Toggle,

    /// Links as OSC 8 hyperlinks (auto: when colour is on and the terminal
    /// is known to support them: iTerm2, WezTerm, kitty, foot, VTE,
    /// Windows Terminal, VS Code, Ghostty).
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub hyperlinks: ColorChoice,

    /// Draw a Markdown table of numbers as a bar chart too.
    ///
    /// A Markdown table in an answer whose other columns hold numbers is
    /// also drawn as a bar chart under it.
    #[arg(long)]
    pub chart_tables: bool,
}

impl MarkdownArgs {
    /// The engine's plain equivalent of these flags.
    pub fn options(&self) -> MarkdownOptions {
        MarkdownOptions {
            markdown: self.markdown == Toggle::On,
            hyperlinks: match self.hyperlinks {
                ColorChoice::Always => true,
                ColorChoice::Never => false,
                ColorChoice::Auto => crate::term::hyperlinks_known(|k| std::env::var(k).ok()),
            },
            chart_tables: self
                .chart_tables
                .then_some(crate::parse::markdown_table_chart as crate::render::TableChart),
        }
    }

    /// Sets the Markdown options; hyperlinks need colour.
    pub fn apply(&self, opts: &mut RenderOptions) {
        self.options().apply(opts);
    }
}
