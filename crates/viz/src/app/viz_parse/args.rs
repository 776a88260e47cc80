//! The command line of `viz-parse`, kept in the library so the man page is
//! generated from the same definition the program parses.

use std::path::PathBuf;

use clap::{ArgMatches, Parser, ValueEnum};

use crate::parse::transform::{AggregateOp, Normalize, TimeUnit};
use crate::parse::{DateOrder, Format};
use crate::term;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ChartArg {
    Bar,
    Line,
    Table,
    /// A scatter of -y over a number or date -x (binned when large).
    Point,
    /// A histogram of -y: rows counted in --bins bins.
    Hist,
    /// A heatmap: -x across, -s down, each cell its rows counted (or
    /// --aggregate of -y); a colour scale, or shades without colour. An
    /// axis of many numbers is binned (see --bins).
    Heatmap,
    /// A box plot of -y per -x group: quartiles, whiskers at 1.5 times
    /// the interquartile range, outliers.
    Box,
    /// A sparkline per series (each -y, or each -s group), one row each
    /// with its last value, min and max.
    Spark,
}

/// `--stack`: several series of bars end to end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StackArg {
    /// Stacked from zero: each bar as long as its series' sum.
    Zero,
    /// Stacked to 100%: each bar the series' shares of its label's total.
    Normalize,
}

/// `--scale` and `--x-scale`: how an axis places its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScaleArg {
    Linear,
    /// Powers of ten equally apart, ticks at them; values must be above 0.
    Log,
    /// The square root: small values spread, large ones drawn closer; values must be 0 or more.
    Sqrt,
}

/// `--trend`: the fit drawn through a scatter or a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TrendArg {
    /// Least squares: slope, intercept and r² in the footer.
    Linear,
    /// Local regression over the nearest 30% of the points (Vega-Lite's default bandwidth).
    Loess,
}

/// `--facet-scales`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FacetScalesArg {
    /// One x and one y scale over every panel.
    Shared,
    /// Each panel scaled to its own data.
    Free,
}

/// How `--grammar` draws the -y column before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MarkArg {
    Line,
    Area,
    Point,
    Bar,
}

/// `--x` of --follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum XAxis {
    /// The row number.
    Sample,
    /// The wall clock.
    Time,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SortArg {
    None,
    Asc,
    Desc,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KeepArg {
    /// The largest by absolute value (bar and table default).
    Top,
    /// The first N in input order.
    First,
    /// The last N in input order, as for the last 5 years.
    Last,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DownsampleArg {
    /// Evenly spaced points, first and last kept (peaks between samples are lost).
    Even,
    /// First, last, smallest and largest point of each bucket (default): peaks
    /// and seasons survive.
    Minmax,
    /// Largest-triangle-three-buckets: shape and peaks survive.
    Lttb,
}

const AFTER_HELP: &str = "\
Exit status:
  0   every input was read (rows that were not numbers are skipped with a warning)
  1   failure (an input could not be read, output could not be written)
  2   usage error (bad flag, a --label/--value/--series/--filter column that does not exist,
      a --filter, --calculate or --fold that cannot be read, naming where)
  65  input is not data: prose, ambiguous text, no numeric column, no row left,
      several series for bar/table, more groups than --max-groups, a malformed
      event line with --strict
  66  an input file cannot be opened
  130 interrupted (Ctrl-C) with --follow, after writing the last update (143: SIGTERM)

Examples:
  viz-parse testdata/bmw.csv | viz-render
  viz-parse --chart line -x date -y price -s symbol testdata/prices_long.csv
  viz-parse --aggregate mean -x species -y bill_length_mm testdata/real/penguins.csv | viz-render
  viz-parse --aggregate count -x carrier --filter origin=JFK testdata/real/flights.csv | viz-render
  viz-parse --calculate 'ratio=bill_length_mm/bill_depth_mm' --aggregate mean -x species -y ratio testdata/real/penguins.csv
  viz-parse --fold 'bill_*' -x @row testdata/real/penguins.csv | viz-render
  viz-parse --time-unit yearmonth -x date -y temp_max testdata/real/seattle-weather.csv | viz-render
  viz-parse --chart hist -y dep_delay testdata/real/flights.csv | viz-render
  viz-parse --chart point -x bill_length_mm -y body_mass_g -s species testdata/real/penguins.csv | viz-render
  viz-parse --grammar -x km -y pace -y hr --mark area --rule x=5:5K testdata/run.csv | viz-render
  jq -c '.[]' models.json | viz-parse --sort desc --max-points 10 --title 'Top 10'
  gemini -p 'chart BMW 0-60 times' --output-format stream-json | viz-parse | viz-render
  ping -i 0.5 example.com | viz-parse --follow --extract 'time=(?P<ms>[0-9.]+)' --unit ms | viz-render --live
  vmstat 1 | viz-parse --follow -y us -y sy -y wa --unit % --title CPU | viz-render --live";

/// What `-h` ends with: the exit statuses in a line, a few examples, and
/// where the rest is (`--help` and the man page hold them whole).
const SHORT_AFTER_HELP: &str = "\
Exit status: 0 read, 1 failure, 2 usage, 65 not data, 66 cannot open, 130 interrupted.

Examples (more, and what each exit status means: viz-parse --help, man viz-parse):
  viz-parse testdata/bmw.csv | viz-render
  viz-parse --aggregate mean -x species -y bill_length_mm testdata/real/penguins.csv | viz-render
  viz-parse --chart line -x date -y price -s symbol testdata/prices_long.csv
  vmstat 1 | viz-parse --follow -y us -y sy -y wa --unit % | viz-render --live";

/// The headings of `--help`, by concern.
const INPUT: &str = "Input";
const CHART: &str = "The chart";
const TRANSFORMS: &str = "Transforms";
const POINTS: &str = "Points kept";
const GRAMMAR: &str = "Layered charts (--grammar)";
const LIVE: &str = "Live charts (--follow)";

/// Turn tables of numbers into chart events.
#[derive(Debug, Clone, Parser)]
#[command(
    name = "viz-parse",
    version,
    about = "Turn CSV, TSV, JSON, JSON lines, Markdown tables, Parquet or Arrow into chart events",
    long_about = "Reads data from files or stdin and writes one `visualization` event per input \
(a JSON line) for viz-render to draw. The format is detected: CSV and TSV (delimiter `,` `;` tab \
or `|` sniffed, header row detected, quotes, CRLF and a UTF-8 BOM handled), a JSON object map \
{\"M5 CS\": 2.9}, a JSON array of records or of pairs, JSON lines of records, a Markdown table, `label: value` lines, \
or the render_visualization argument object. A JSON array is read a record at a time, as JSON lines \
are; an object wrapping one array ({\"values\": [...]}, with other keys beside it) is read as that array. \
Parquet and Arrow IPC files and streams (as DuckDB, Polars, Spark and pandas write them) are read a \
batch of rows at a time, their columns typed (numbers, dates as ISO 8601, text), and input compressed \
with gzip is read through; other binary files (images, zip, PDF) are refused in one line. A stream of \
events passes through untouched, except that render_visualization tool calls become visualization \
events; a Codex (`codex exec --json`) or Claude Code (`stream-json`) stream is written as those \
events, its render_visualization calls (an MCP tool of that name) charted alike.\n\n\
With no -x, -y, -s, --aggregate or --time-unit, the chart is the one a person would make of the \
table, said once on stderr with the flags that choose otherwise: identifiers (id, *_id, zip, fips, \
codes with leading zeros), years, small codes (month, cluster) and coordinates are never the value, \
which is the first other column of numbers; a column of dates (else years, else rising numbers) is \
x, drawn as a line; a label column is one present in most rows; a category whose values repeat \
beside such an x makes one line per value (long format), or the rows at each x are averaged (summed \
for a count: count, people, deaths, ...); dates that come as events are grouped by day, month or \
year; with no ordered x a repeating category's rows are averaged (a bar per value), two amounts \
beside a category are a scatter, numbers with nothing to label them a scatter or a histogram; with \
no column of numbers a category's rows are counted; when nothing sensible exists the input is \
refused (exit 65) naming the columns, what they hold, and a command. With -y but no -x the label is \
a column of dates or years, else the first column that is not numeric (the first column when all \
are); with -x but no -y the value is the first other column of amounts. Numbers are read as people write them (1,234  4.2s  \
12%  $1,200  1e6  1.234,56  1 234,56). The decimal mark is decided once per column: \
numbers that show it (1.234,56 or 2,5 or 1,234.5) decide; when none does, commas each before \
three digits group thousands (\"1,200\" beside 950 is 1200, in any file), and a point before three \
digits (1.234) is a decimal comma's grouping in a `;`-separated file and a decimal point elsewhere; \
--decimal forces it. A number that does not fit its column's convention is skipped with a warning. \
Where the data allows two readings (the decimal mark, a first row of years that may be column \
names, which of several columns labels the rows, the delimiter, dates such as 05/01/2024 written \
day-first or month-first) the reading taken is said once on stderr, with the flag that takes the \
other (--decimal, --header/--no-header, -x/-y, --delimiter, --dates); data that allows one \
reading is read quietly. k, K, M, B, bn and T written right against a number are multipliers, not \
units: 950k is 950000, 1.2M is 1200000, 3bn is 3000000000 (3 MB, 5 km and 4.2s keep their units). \
A unit the numbers share becomes the chart's unit. (1,200) and (4%) are negatives. A value \
that is empty or a placeholder (n/a, N/A, na, -, —, null, NaN) is missing: its row is skipped with \
a warning naming the line and column (the first 5 in full, then counted; --strict makes it an \
error). A row with an empty label is kept, labelled (empty). The chart is a line when the labels \
look like dates, years or ordered numbers, else a bar chart. A line whose labels are years, \
ISO dates (2024-01-05, 2024-01), dates such as 05/01/2024 (read as --dates says) or quarters \
(Q1 2024) written newest first is drawn oldest to newest, with a warning saying so.\n\n\
At most --max-points points are kept per series: bar and table keep the largest by absolute value \
(or --keep first|last), a line is downsampled (--downsample). Without --max-points a bar chart or \
table keeps 30, a line 200 (what a terminal of 100 columns draws across), each reduced bucket \
keeping its first, last, min and max point, and a line computed by --aggregate or --time-unit \
every point up to 4,096 (never thinned). Memory stays bounded by that limit, \
whatever the input size. A line (and bars over dates) whose labels are dates or numbers is drawn to \
scale, in x order (said when the rows were not).\n\n\
Transforms, with Vega-Lite's names: --filter EXPR keeps the rows where EXPR holds (repeatable); \
--aggregate count|sum|mean|median|min|max|distinct makes one value per label (and per -s series), \
the axis naming it (mean(delay)); --time-unit groups a date label by year, quarter, month, \
yearmonth, yearmonthdate, week, day, hours or minutes (UTC, as Vega-Lite's timeUnit); --chart hist \
counts -y's values in at most --bins bins on nice edges; --chart point draws -y over a number or \
date -x, binned onto a grid past 4,000 points. Memory follows the groups, not the rows (past \
--max-groups the input is refused). The chart carries what was computed as Vega-Lite transforms, \
and for at most 5,000 input rows the rows themselves, so viz-render --format vega-lite exports a \
spec that computes the same numbers in the browser.\n\n\
--follow reads an endless input instead (a pipe that never ends: ping, vmstat 1, tail -f) \
and writes a live line chart: `visualization` events with the input's `id` and \
`\"live\": true`, at most one per --interval and only when something changed, a last one \
at the end of input or at Ctrl-C/SIGTERM (exit 130/143). Each number of a line is a \
point of its series: positional numbers are named by --columns, else by the last \
header line of words with as many names (vmstat's), else `value` (one number) or \
1, 2, ...; `key=value` tokens, `label: value` lines and JSON objects name their own; \
--extract REGEX reads only what its groups capture. x is the sample number, or with \
--x time the wall clock (HH:MM:SS, one point per second). At most 12 series, the last \
--window points each: memory stays bounded whatever the stream's length. A line that \
cannot be read is counted and warned about at most once per 10 s (with --strict it is \
an error, exit 65); an input that ends without a number is exit 65. A file is read to \
its end (tail -f a growing one).",
    after_help = SHORT_AFTER_HELP,
    after_long_help = AFTER_HELP
)]
pub struct VizParseArgs {
    /// Input files; `-` or nothing reads stdin. Each file gives its own chart.
    #[arg(value_name = "FILE")]
    pub inputs: Vec<PathBuf>,

    /// Chart kind [default: line for dates, years and ordered numbers, else bar]
    #[arg(help_heading = CHART, long, value_enum)]
    pub chart: Option<ChartArg>,

    /// Input format, instead of detecting it.
    #[arg(help_heading = INPUT, long, value_enum)]
    pub format: Option<Format>,

    /// The label column (name or 1-based number); `@row`: the rows' order
    /// (1, 2, ...), for a series stored a row a time step.
    #[arg(help_heading = CHART, short = 'x', long = "label", value_name = "COLUMN")]
    pub label: Option<String>,

    /// A value column (name or 1-based number); repeat for several series (line, point, bar).
    #[arg(help_heading = CHART, short = 'y', long = "value", value_name = "COLUMN")]
    pub values: Vec<String>,

    /// Long format: one series per distinct value of this column.
    #[arg(help_heading = CHART, short = 's', long = "series", value_name = "COLUMN")]
    pub series: Option<String>,

    /// Rows grouped by the label (-x) and the series (-s), one value per
    /// group of the -y column (count needs none); the axis says which
    /// (`mean(delay)`). Memory follows the groups, not the rows.
    #[arg(help_heading = TRANSFORMS, long, value_enum, value_name = "OP")]
    pub aggregate: Option<AggregateOp>,

    /// Group a date label (-x) by a unit of time, as Vega-Lite's timeUnit
    /// (UTC): year, yearmonth and yearmonthdate keep the calendar;
    /// quarter, month, week, day, hours and minutes fold it (all
    /// Januaries, all Mondays). Each group is the --aggregate (mean when none).
    #[arg(help_heading = TRANSFORMS, long, value_enum, value_name = "UNIT")]
    pub time_unit: Option<TimeUnit>,

    /// Keep only rows where EXPR holds: COLUMN=VALUE, !=, <, <=, >, >=
    /// (numbers compare as numbers, dates as dates, else text) or
    /// COLUMN~REGEX; repeat to AND several.
    #[arg(help_heading = TRANSFORMS, long, value_name = "EXPR")]
    pub filter: Vec<String>,

    /// With --chart hist: at most N bins, their edges on a step of 1, 2
    /// or 5 times a power of ten, as Vega-Lite bins [default: 20; at most 200].
    /// With --chart heatmap: at most N bins on each axis of numbers (-x,
    /// -s), which are then binned whatever their count of values; without
    /// it, an axis of numbers with more than 10 values across or 20 down
    /// is binned into at most that many (whole numbers stay categories up
    /// to 31 values: hours, days of a month).
    #[arg(help_heading = TRANSFORMS, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=200))]
    pub bins: Option<u16>,

    /// Groups --aggregate and --time-unit keep at most, before the input
    /// is refused [default: 10000].
    #[arg(help_heading = TRANSFORMS, long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_groups: Option<u32>,

    /// A new column NAME computed from each row, as Vega-Lite's
    /// calculate: numbers, column names ("double quotes" around one with
    /// spaces), + - * /, parentheses, abs ceil exp floor log log10 round
    /// sqrt, min max pow; a division by zero or a missing cell gives no
    /// value (said once). Repeatable; -x/-y/-s/--filter name the new
    /// column like any other, and with no -y the last one is charted
    /// (with no -x either, by the x the automatic choice takes).
    #[arg(help_heading = TRANSFORMS, long, value_name = "NAME=EXPR")]
    pub calculate: Vec<String>,

    /// Wide columns made into rows, as Vega-Lite's fold: each row becomes
    /// one row per listed column (names, 1-based numbers or patterns such
    /// as 'sales_*', comma-separated) holding the other columns, `key`
    /// (the column's name) and `value` (its cell): -s key draws one
    /// series per folded column.
    #[arg(help_heading = TRANSFORMS, long, value_name = "COLUMNS")]
    pub fold: Option<String>,

    /// The names of --fold's two columns [default: key,value].
    #[arg(help_heading = TRANSFORMS, long, value_name = "KEY,VALUE", requires = "fold")]
    pub fold_as: Option<String>,
    // Issue 36 (heatmap, box plot): m36a's flags.
    /// With --chart heatmap: cells as shares of their row or column.
    ///
    /// Each cell in percent of its row's (row) or its column's (column)
    /// total.
    #[arg(help_heading = TRANSFORMS, long, value_enum, value_name = "BY")]
    pub normalize: Option<Normalize>,

    /// Chart title.
    #[arg(help_heading = CHART, long)]
    pub title: Option<String>,

    /// Chart subtitle.
    #[arg(help_heading = CHART, long)]
    pub subtitle: Option<String>,

    /// X axis title [default: the label column's name].
    #[arg(help_heading = CHART, long)]
    pub x_label: Option<String>,

    /// Y axis title [default: the value column's name].
    #[arg(help_heading = CHART, long)]
    pub y_label: Option<String>,

    /// Unit of the values, e.g. s or % [default: the unit the numbers are written with].
    #[arg(help_heading = CHART, long)]
    pub unit: Option<String>,

    /// Order of bar and table points (a line keeps input order).
    #[arg(help_heading = CHART, long, value_enum)]
    pub sort: Option<SortArg>,

    // How the chart draws its points: bars of several series, the axes'
    // scales, a trend (issue 36).
    /// With several series of bars (-s, or several -y): stack them end to
    /// end instead of side by side; `--stack normalize` stacks each bar to
    /// 100% of its label's total.
    #[arg(help_heading = CHART, long, value_enum, value_name = "MODE", num_args = 0..=1, default_missing_value = "zero")]
    pub stack: Option<StackArg>,

    /// The value axis' scale (y; across, for bars): log (ticks at powers of
    /// ten) or sqrt. A value a scale cannot place is an error naming how
    /// many and the first (exit 65).
    #[arg(help_heading = CHART, long, value_enum, value_name = "SCALE")]
    pub scale: Option<ScaleArg>,

    /// The x axis' scale, for x values that are numbers (a scatter, a line over numbers).
    #[arg(help_heading = CHART, long, value_enum, value_name = "SCALE")]
    pub x_scale: Option<ScaleArg>,

    /// A trend through a scatter (--chart point) or a line over numbers or
    /// dates, one per series, drawn over the points; its fit is in the
    /// footer and the chart event.
    #[arg(help_heading = CHART, long, value_enum, value_name = "METHOD")]
    pub trend: Option<TrendArg>,

    /// Points kept per series, 2 to 200 [default: 30 for bars and tables, 200 for a line,
    /// every computed point of an aggregated line; more is capped].
    #[arg(help_heading = POINTS, long, value_name = "N")]
    pub max_points: Option<usize>,

    /// Which points a bar or table keeps when there are too many.
    #[arg(help_heading = POINTS, long, value_enum)]
    pub keep: Option<KeepArg>,

    /// How a line is thinned when there are too many points [default: minmax].
    #[arg(help_heading = POINTS, long, value_enum)]
    pub downsample: Option<DownsampleArg>,

    /// Field delimiter of CSV input, instead of sniffing it.
    #[arg(help_heading = INPUT, short = 'd', long, value_name = "CHAR")]
    pub delimiter: Option<char>,

    /// The decimal mark of the numbers, `.` or `,`, instead of deciding it per column
    /// [default: what the column's numbers show (1.234,56 is a decimal comma); when none
    /// does, commas before three digits group thousands (1,200); a point before three
    /// digits (1.234) is `,`'s grouping in `;`-separated files, else `.`].
    #[arg(help_heading = INPUT, long, value_name = "MARK", value_parser = [".", ","])]
    pub decimal: Option<String>,

    /// How dates with the day and month as numbers (05/01/2024) are read
    /// [default: as the column's dates show (13/01/2024 is day-first); when
    /// every one could be either, day-first, with a note when it changes the line].
    #[arg(help_heading = INPUT, long, value_enum, value_name = "ORDER")]
    pub dates: Option<DateOrder>,

    /// The first row is a header.
    #[arg(help_heading = INPUT, long, conflicts_with = "no_header")]
    pub header: bool,

    /// The first row is data.
    #[arg(help_heading = INPUT, long)]
    pub no_header: bool,

    /// Treat skipped rows and malformed event lines as errors (exit 65).
    #[arg(help_heading = INPUT, long)]
    pub strict: bool,

    /// Threads that read the rows of a large CSV, TSV or JSON-lines input
    /// (1: the calling thread alone; at most 8) [default: one a core, at
    /// most 8]. The chart, the warnings and their order are the same
    /// whatever the number. A large CSV, TSV or JSON-lines file named on
    /// the command line is read through memory maps, which assumes, as
    /// ripgrep does, that no other program truncates it while it is read.
    #[arg(help_heading = INPUT, long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=8))]
    pub threads: Option<u16>,

    /// Write a layered `ui` chart (the plot grammar) instead of a
    /// `visualization`: -x is the x column, each -y a mark of its own
    /// (several -y share the axes), -s one series per value of a column.
    /// Columns are typed date (ISO 8601), number or string; a unit in a
    /// header, `pace (s/km)`, is the field's unit. At most 5,000 rows.
    #[arg(help_heading = GRAMMAR, long, conflicts_with_all = ["chart", "sort", "max_points", "keep", "downsample", "aggregate", "time_unit", "filter", "bins", "max_groups"])]
    pub grammar: bool,

    /// With --grammar: how the -y column just before is drawn
    /// [default: line over numbers or dates, bar over categories].
    #[arg(help_heading = GRAMMAR, long, value_enum, value_name = "MARK", requires = "grammar")]
    pub mark: Vec<MarkArg>,

    /// With --grammar: a reference line, AXIS=VALUE[:LABEL]: `x=5:5K`,
    /// `y=150:threshold`, `x=2026-03-01:race`.
    #[arg(help_heading = GRAMMAR, long, value_name = "AXIS=VALUE[:LABEL]", requires = "grammar")]
    pub rule: Vec<String>,

    /// With --grammar: a shaded band, AXIS=FROM..TO[:LABEL]: `x=2..3:lap 3`.
    #[arg(help_heading = GRAMMAR, long, value_name = "AXIS=FROM..TO[:LABEL]", requires = "grammar")]
    pub band: Vec<String>,

    /// Read an endless input line by line and write a live chart: a
    /// `visualization` event with the input's `id` and `"live": true` at
    /// most every --interval, when something changed, and a last one at
    /// the end of input or at Ctrl-C. Lines may be plain numbers (several
    /// per line, named by a header line of words), CSV/TSV rows (header
    /// from the first line, or --columns), `key=value` tokens, `label:
    /// value` lines or JSON objects; -y NAME keeps only some series.
    #[arg(help_heading = LIVE, long, conflicts_with_all = ["grammar", "chart", "sort", "max_points", "keep", "downsample", "label", "series", "aggregate", "time_unit", "filter", "bins", "max_groups"])]
    pub follow: bool,

    /// With --follow: pull numbers out of free-form lines; each capture
    /// group is a series named by the group's name
    /// (`time=(?P<ms>[0-9.]+)`); lines it does not match are skipped.
    #[arg(help_heading = LIVE, long, value_name = "REGEX", requires = "follow")]
    pub extract: Option<String>,

    /// With --follow: the least time between two updates (250ms, 1s).
    #[arg(help_heading = LIVE, long, value_name = "DURATION", default_value = "250ms", requires = "follow",
          value_parser = crate::live::parse_duration)]
    pub interval: std::time::Duration,

    /// With --follow: points kept per series, the last N
    /// [default: what fits the width: COLUMNS, or the terminal on stderr].
    #[arg(help_heading = LIVE, long, value_name = "N", requires = "follow",
          value_parser = clap::value_parser!(u32).range(2..=crate::parse::follow::MAX_WINDOW as i64))]
    pub window: Option<u32>,

    /// With --follow: plot the per-second change of a growing counter
    /// (between the times its lines were read; a counter that goes down
    /// was reset), in UNIT/s.
    #[arg(help_heading = LIVE, long, requires = "follow")]
    pub rate: bool,

    /// With --follow: what x is: `sample` (the row number) or `time` (the
    /// wall clock, HH:MM:SS; the points of a second are averaged).
    #[arg(help_heading = LIVE, long = "x", value_enum, value_name = "AXIS", default_value_t = XAxis::Sample, requires = "follow")]
    pub x_axis: XAxis,

    /// With --follow: names of the columns, comma-separated, for rows
    /// without a header line.
    #[arg(help_heading = LIVE, long, value_name = "NAMES", value_delimiter = ',', requires = "follow")]
    pub columns: Vec<String>,

    /// With --follow: the live chart's id [default: the input's file name
    /// without extension; `stdin`].
    #[arg(help_heading = LIVE, long, value_name = "ID", requires = "follow")]
    pub id: Option<String>,

    // Small multiples (issue 36).
    /// Small multiples: the chart drawn once per value of this column (at
    /// most 24), in a grid of panels laid out to the width, each titled by
    /// its value; one Vega-Lite `facet`, one Markdown section a panel.
    #[arg(help_heading = CHART, long, value_name = "COLUMN", conflicts_with_all = ["grammar", "follow"])]
    pub facet: Option<String>,

    /// With --facet: panels a row [default: as many as fit the width].
    #[arg(help_heading = CHART, long, value_name = "N", requires = "facet",
          value_parser = clap::value_parser!(u16).range(1..=24))]
    pub facet_columns: Option<u16>,

    /// With --facet: whether the panels share one x and one y scale
    /// (their titles said once for the grid; a log axis too), or each is
    /// scaled to its own data. Bar and histogram panels share one value
    /// scale (stacked bars keep their own), as in Vega-Lite.
    #[arg(help_heading = CHART, long, value_enum, value_name = "SCALES", requires = "facet",
          default_value_t = FacetScalesArg::Shared)]
    pub facet_scales: FacetScalesArg,

    // Issue 36: a table's sparkline column (p36).
    /// With --chart table: a sparkline per row beside its values.
    ///
    /// Each row's values across the columns in order. For a table with a series per row: wide (a label column, then a
    /// number column per period: -y each), or long with -s (each -s
    /// value a row, the -x values its columns). The column is headed by
    /// the first and last columns' names, and is the first left out when
    /// the width is short. Markdown keeps the sparklines as text.
    #[arg(help_heading = CHART, long, conflicts_with_all = ["grammar", "follow", "facet"])]
    pub spark: bool,
}

impl VizParseArgs {
    /// Pairs each `--mark` with the `-y` just before it on the command
    /// line: the `--mark` of each -y, in order. A `--mark` before any `-y`,
    /// or two for one, is a usage error.
    pub fn pair_marks(&self, matches: &ArgMatches) -> anyhow::Result<Vec<Option<MarkArg>>> {
        let ys: Vec<usize> = matches
            .indices_of("values")
            .map_or(Vec::new(), Iterator::collect);
        let marks: Vec<usize> = matches
            .indices_of("mark")
            .map_or(Vec::new(), Iterator::collect);
        let mut paired = vec![None; ys.len()];
        for (&at, &mark) in marks.iter().zip(&self.mark) {
            let usage = |m: String| term::coded(term::exit::USAGE, m);
            let Some(y) = ys.iter().rposition(|&y| y < at) else {
                return Err(usage(
                    "--mark applies to the -y COLUMN before it: put a -y first".into(),
                ));
            };
            if paired[y].replace(mark).is_some() {
                return Err(usage(format!(
                    "-y {:?} has two --mark flags; give each -y one",
                    self.values[y]
                )));
            }
        }
        Ok(paired)
    }
}
