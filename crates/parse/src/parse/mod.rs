//! Input parsers: CSV, TSV, JSON, JSON lines, Markdown tables and the
//! render_visualization argument object, turned into normalized chart
//! specs; and `viz-parse`, the filter around them.
//!
//! Three entry points:
//! - [`chart_from_tool_args`]: what `gem-ask`'s `render_visualization` tool
//!   calls with the model's arguments; its errors are written for the model.
//! - [`parse_text`]: the text parser behind `inputText` and files.
//! - [`run`]: the `viz-parse` program, streaming row by row into bounded
//!   reducers so memory follows `--max-points`, not the input size.
//!
//! Format detection reads a prefix (64 KiB or 200 lines) and replays it;
//! an event stream is recognised from its first line so live streams flow.

mod dates;
mod detect;
pub mod fast;
pub mod follow;
mod formats;
mod grammar;
pub mod number;
mod plain;
pub mod records;
mod rows;
mod stream;
mod table;
mod tool;
pub mod transform;
mod vocab;
mod win1252;

use std::fs::File;
use std::io::{self, BufRead, BufWriter, Cursor, IsTerminal, Read, Seek, Write};
use std::path::PathBuf;

use serde_json::{Map, Value};

use crate::events::{Event, EventWriter};
use crate::spec::{self, ChartType, Normalized, Reduction, Sort};
use crate::term;

pub use follow::FollowOptions;
pub use grammar::{GrammarOptions, Reference, ReferenceError};
pub use tool::{TOOL_EXAMPLES, ToolArgsError, chart_from_tool_args};

pub use dates::DateOrder;
use detect::Kind;
use rows::Warner;
use table::chart_from_rows;
pub use vocab::{Format, INPUT_EXAMPLES, ParseError};
pub(crate) use vocab::{STREAM_EXAMPLE, examples_error};

/// What the caller asks of the parser. `Default` is "detect everything".
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ParseOptions {
    pub format: Option<Format>,
    /// `None`: line for dates, years, periods and ordered numbers, else bar.
    pub chart: Option<ChartType>,
    pub title: Option<String>,
    pub subtitle: Option<String>,
    pub x_label: Option<String>,
    pub y_label: Option<String>,
    /// `None`: the unit the values are written with, if they share one.
    pub unit: Option<String>,
    pub sort: Option<Sort>,
    /// `None`: 30. Clamped to 2..=200.
    pub max_points: Option<usize>,
    /// `Top`, `First` or `Last`: which points survive a cut (bar, table;
    /// also honoured by a line when no `downsample` is given).
    pub keep: Option<Reduction>,
    /// `Even`, `Minmax` or `Lttb`: how a line is thinned.
    pub downsample: Option<Reduction>,
    /// Column references: a name, or a 1-based number.
    pub label: Option<String>,
    pub values: Vec<String>,
    pub series: Option<String>,
    /// `None`: detect whether the first row is a header.
    pub header: Option<bool>,
    pub delimiter: Option<u8>,
    /// `None`: decided per column from its numbers.
    pub decimal: Option<number::Decimal>,
    /// `None`: dates such as `05/01/2024` read as their column shows
    /// (`13/01/2024` is day-first), else day-first with a note.
    pub dates: Option<DateOrder>,
    /// Skipped rows and bad event lines are errors.
    pub strict: bool,
    /// Threads reading rows: `None` for one a core, 1 for the calling
    /// thread alone.
    pub threads: Option<usize>,
    /// `--grammar`: a `ui` chart of the plot grammar, not a `visualization`.
    pub grammar: Option<GrammarOptions>,
    /// `--follow`: an endless input drawn as a live chart.
    pub follow: Option<FollowOptions>,
    /// `--filter`, `--aggregate`, `--time-unit`, `--bins`, `--max-groups`.
    pub transform: transform::TransformOptions,
    /// `--stack`, `--scale`, `--x-scale`, `--trend`: put on the chart
    /// once its points are read.
    pub drawing: spec::Drawing,
    /// `--facet`: small multiples, one panel per value of a column.
    pub facet: Option<FacetOptions>,
}

/// `--facet COLUMN`, `--facet-columns`, `--facet-scales`.
#[derive(Debug, Clone, PartialEq)]
pub struct FacetOptions {
    /// The column (a name or a 1-based number).
    pub field: String,
    pub columns: Option<usize>,
    pub scales: crate::spec::FacetScales,
}

impl ParseOptions {
    /// The reducer for a chart kind; `None` means the spec default.
    pub fn reduction_for(&self, chart: ChartType) -> Option<Reduction> {
        match chart {
            ChartType::Line | ChartType::Spark => self.downsample.or(self.keep),
            ChartType::Bar | ChartType::Table => self.keep,
            ChartType::Point | ChartType::Hist => None,
            ChartType::Heatmap | ChartType::Box => None,
        }
    }
}

/// What one input turned out to be.
enum Source<'a> {
    /// An event stream, to be passed through (the reader replays the peek).
    Events(Box<dyn BufRead + 'a>),
    /// Events given as (pretty-printed) JSON documents.
    Event(Vec<Event>),
    Chart(Box<Normalized>),
}

fn read_input<'a>(
    mut input: Box<dyn BufRead + 'a>,
    file: Option<File>,
    opts: &ParseOptions,
    warn: &mut Warner,
) -> Result<Source<'a>, ParseError> {
    let detect::Sniffed { prefix, kind, note } =
        detect::sniff(&mut *input, opts.format, opts.delimiter)?;
    // Where the prefix began in the file: where the file's offset is, less
    // what `input` holds unread and the prefix itself.
    let file = file.and_then(|mut f| {
        let held = input.fill_buf().ok()?.len() as u64;
        let at = f
            .stream_position()
            .ok()?
            .checked_sub(held + prefix.len() as u64)?;
        Some((f, at))
    });
    if let Some(note) = note {
        warn.note(note);
    }
    // Labels a line each, too few repeating to be told from prose, are
    // a column to count when the user asks for counts.
    let counting = opts.transform.aggregate == Some(transform::AggregateOp::Count);
    let kind = match kind {
        Kind::Prose(_) if counting && detect::one_column(&prefix) => Kind::Delimited(b','),
        k => k,
    };
    let (full, file): (Box<dyn BufRead + 'a>, _) = match win1252::first_line(&prefix) {
        Some(line)
            if matches!(
                kind,
                Kind::Delimited(_) | Kind::Jsonl | Kind::JsonDoc | Kind::Markdown | Kind::Events
            ) =>
        {
            warn.note(format!(
                "line {line}: not UTF-8; read as Windows-1252 (Latin-1), as \
                 `iconv -f WINDOWS-1252 -t UTF-8` does"
            ));
            let prefix = win1252::decode(&prefix);
            // The file is read through the decoder, never mapped.
            let decoded = Cursor::new(prefix).chain(win1252::Decoder::new(input));
            (Box::new(decoded), None)
        }
        _ => (Box::new(Cursor::new(prefix).chain(input)), file),
    };
    let n = match kind {
        Kind::Events => return Ok(Source::Events(full)),
        Kind::Empty => return Err(examples_error("empty input".into())),
        Kind::Prose(seen) => return Err(examples_error(seen)),
        Kind::JsonDoc => {
            let mut docs = match fast::read_json(full, opts.format == Some(Format::Args))? {
                fast::JsonDoc::Rows(mut rows) => {
                    return Ok(Source::Chart(Box::new(chart_from_rows(
                        &mut *rows, opts, warn,
                    )?)));
                }
                fast::JsonDoc::Whole(docs) => docs,
            };
            // Several documents one after another (`jq .` output) are read
            // as an array of them, or as events when they are events.
            if docs.len() > 1 {
                if docs.iter().all(is_event) {
                    let events = docs
                        .into_iter()
                        .filter_map(|d| match d {
                            Value::Object(m) => Some(Event(m)),
                            _ => None,
                        })
                        .collect();
                    return Ok(Source::Event(events));
                }
                return json_document(Value::Array(docs), opts, warn);
            }
            let v = docs
                .pop()
                .ok_or_else(|| examples_error("empty input".into()))?;
            return json_document(v, opts, warn);
        }
        Kind::Jsonl => {
            let mut rows = fast::JsonlRows::new(full);
            rows.workers = opts.threads.map(workers_for);
            rows.map_file(file);
            chart_from_rows(&mut rows, opts, warn)?
        }
        Kind::Markdown => chart_from_rows(&mut formats::MarkdownRows::new(full)?, opts, warn)?,
        Kind::Gzip => return read_input(gunzip(full), None, opts, warn),
        Kind::NotData(why) => return Err(ParseError::Data(why)),
        Kind::Parquet | Kind::ArrowFile | Kind::ArrowStream => {
            chart_from_rows(&mut *binary_rows(&kind, full, file)?, opts, warn)?
        }
        Kind::Delimited(d) => {
            let mut rows = fast::CsvLane::new(full, d);
            rows.workers = opts.threads.map(workers_for);
            rows.map_file(file);
            chart_from_rows(&mut rows, opts, warn)?
        }
    };
    Ok(Source::Chart(Box::new(n)))
}

/// A gzip-compressed input read through (several members in a row, as
/// `cat a.gz b.gz` makes, read as one).
pub(crate) fn gunzip<'a>(input: Box<dyn BufRead + 'a>) -> Box<dyn BufRead + 'a> {
    Box::new(io::BufReader::new(flate2::bufread::MultiGzDecoder::new(
        input,
    )))
}

/// The rows of a columnar input (Parquet, an Arrow IPC file or stream):
/// `full` is the whole input, `file` the regular file it reads and where
/// in it the input began, if it is one.
pub(crate) fn binary_rows<'a>(
    kind: &Kind,
    full: Box<dyn BufRead + 'a>,
    file: Option<(File, u64)>,
) -> Result<Box<dyn rows::Rows + 'a>, ParseError> {
    #[cfg(feature = "columnar")]
    {
        let seekable = |full| -> Result<File, ParseError> {
            match file {
                Some((f, 0)) => Ok(f),
                _ => spool(full),
            }
        };
        Ok(match kind {
            Kind::Parquet => Box::new(formats::parquet::parquet_rows(seekable(full)?)?),
            Kind::ArrowFile => Box::new(formats::arrow::ipc_file_rows(seekable(full)?)?),
            _ => Box::new(formats::arrow::ipc_stream_rows(full)?),
        })
    }
    #[cfg(not(feature = "columnar"))]
    {
        let _ = (full, file);
        Err(ParseError::Data(format!(
            "{}: this viz-parse was built without Parquet and Arrow input \
             (cargo's `columnar` feature); convert it to CSV, e.g. with duckdb",
            match kind {
                Kind::Parquet => "a Parquet file",
                _ => "an Arrow IPC file",
            }
        )))
    }
}

/// An input copied to an unlinked temporary file, for a format read from
/// a file (its index is at the end).
#[cfg(feature = "columnar")]
fn spool(mut input: Box<dyn BufRead + '_>) -> Result<File, ParseError> {
    let mut f = tempfile::tempfile()?;
    io::copy(&mut input, &mut f)?;
    f.rewind()?;
    Ok(f)
}

/// Worker threads for `--threads n`: none for one (the calling thread
/// reads), else `n` (the calling thread then only hands rows on).
fn workers_for(threads: usize) -> usize {
    if threads <= 1 { 0 } else { threads }
}

fn is_event(v: &Value) -> bool {
    v.get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| detect::EVENT_TYPES.contains(&t))
}

fn is_args_object(obj: &Map<String, Value>) -> bool {
    ["series", "inputText", "chartType"]
        .iter()
        .any(|k| obj.contains_key(*k))
}

fn json_document<'a>(
    v: Value,
    opts: &ParseOptions,
    warn: &mut Warner,
) -> Result<Source<'a>, ParseError> {
    match v {
        Value::Object(obj)
            if opts.format != Some(Format::Args)
                && obj
                    .get("type")
                    .and_then(Value::as_str)
                    .is_some_and(|t| detect::EVENT_TYPES.contains(&t)) =>
        {
            Ok(Source::Event(vec![Event(obj)]))
        }
        Value::Object(mut obj) if opts.format == Some(Format::Args) || is_args_object(&obj) => {
            apply_overrides(&mut obj, opts);
            let n = chart_from_tool_args(&Value::Object(obj))
                .map_err(|e| ParseError::Data(e.to_string()))?;
            for (series, label) in &n.non_finite {
                warn.skip(format!(
                    "series {series:?}, label {label:?}: value is not a finite number; point skipped"
                ))?;
            }
            warn.finish("points");
            Ok(Source::Chart(Box::new(n)))
        }
        v if opts.format == Some(Format::Args) => Err(ParseError::Data(
            chart_from_tool_args(&v)
                .err()
                .map_or_else(|| "not an argument object".into(), |e| e.to_string()),
        )),
        v => Ok(Source::Chart(Box::new(chart_from_rows(
            &mut *json_value_rows(v)?,
            opts,
            warn,
        )?))),
    }
}

/// The rows of a JSON document parsed whole: an array's elements read as
/// a streamed array's are, or the rows an object holds.
fn json_value_rows<'a>(v: Value) -> Result<Box<dyn rows::Rows + 'a>, ParseError> {
    Ok(match formats::json_table(v)? {
        formats::JsonTable::Rows(rows) => Box::new(rows),
        formats::JsonTable::Items(items, beside) => {
            Box::new(fast::JsonItems::values(items, beside))
        }
    })
}

/// The rows of a JSON input, for a reader that wants only a table (the
/// grammar): an array streamed, documents parsed whole read as rows.
pub(crate) fn json_input_rows<'a>(
    input: Box<dyn BufRead + 'a>,
) -> Result<Box<dyn rows::Rows + 'a>, ParseError> {
    match fast::read_json(input, false)? {
        fast::JsonDoc::Rows(rows) => Ok(rows),
        fast::JsonDoc::Whole(mut docs) if docs.len() == 1 => json_value_rows(docs.remove(0)),
        fast::JsonDoc::Whole(docs) => json_value_rows(Value::Array(docs)),
    }
}

/// Flags given on the command line win over the argument object's fields.
fn apply_overrides(obj: &mut Map<String, Value>, opts: &ParseOptions) {
    let mut set = |k: &str, v: Option<Value>| {
        if let Some(v) = v {
            obj.insert(k.to_string(), v);
        }
    };
    set("chartType", opts.chart.map(|c| c.as_str().into()));
    set("title", opts.title.clone().map(Value::from));
    set("subtitle", opts.subtitle.clone().map(Value::from));
    set("xLabel", opts.x_label.clone().map(Value::from));
    set("yLabel", opts.y_label.clone().map(Value::from));
    set("unit", opts.unit.clone().map(Value::from));
    set(
        "sort",
        opts.sort.map(|s| {
            match s {
                Sort::None => "none",
                Sort::Asc => "asc",
                Sort::Desc => "desc",
                Sort::Label => "label",
            }
            .into()
        }),
    );
    set("maxPoints", opts.max_points.map(Value::from));
    set("keep", opts.keep.map(|r| r.as_str().into()));
    set("downsample", opts.downsample.map(|r| r.as_str().into()));
}

/// Parses text (CSV, TSV, JSON, JSON lines, a Markdown table or a
/// render_visualization argument object) into one normalized chart.
///
/// Rows whose value is not a number are skipped and listed in
/// [`Normalized::non_finite`] as (series, label). An event stream is not
/// chart data and is refused, except a lone `visualization` event or a
/// render_visualization `tool_use`, which are normalized.
///
/// What viz-parse would say on stderr about the reading (ambiguities
/// resolved, rows skipped) is in [`Normalized::notes`].
/// A Markdown table (its text) as a bar chart, or `None` when it holds no
/// numbers: the reader `--chart-tables` hands the renderer
/// (`render::TableChart`).
pub fn markdown_table_chart(text: &str) -> Option<crate::spec::Chart> {
    let opts = ParseOptions {
        format: Some(Format::Markdown),
        chart: Some(crate::spec::ChartType::Bar),
        ..Default::default()
    };
    match parse_text(text, &opts) {
        Ok(n) if n.chart.series.iter().any(|s| !s.points.is_empty()) => Some(n.chart),
        _ => None,
    }
}

pub fn parse_text(text: &str, opts: &ParseOptions) -> Result<Normalized, ParseError> {
    let mut notes = Vec::new();
    let mut sink = |m: String| notes.push(m);
    let read = read_text(text, opts, &mut Warner::new(&mut sink, opts.strict));
    let mut n = read?;
    n.notes = notes;
    Ok(n)
}

fn read_text(text: &str, opts: &ParseOptions, warn: &mut Warner) -> Result<Normalized, ParseError> {
    let input: Box<dyn BufRead + '_> = Box::new(text.as_bytes());
    let event = match read_input(input, None, opts, warn)? {
        Source::Chart(n) => return Ok(*n),
        Source::Event(mut events) if events.len() == 1 => events.remove(0),
        Source::Event(_) => return Err(examples_error("several events".into())),
        Source::Events(mut r) => {
            let mut first = String::new();
            r.read_line(&mut first)?;
            match Event::from_line(&first, 1) {
                Ok(Some(e)) => e,
                _ => return Err(examples_error("an event stream".into())),
            }
        }
    };
    if let Some(converted) = stream::convert(&event) {
        let (viz, dropped) = converted.map_err(|e| ParseError::Data(e.to_string()))?;
        let mut n = chart_of_event(viz)?;
        n.non_finite = dropped;
        return Ok(n);
    }
    if event.kind() == "visualization" {
        return chart_of_event(event);
    }
    Err(examples_error(format!(
        "a {:?} event, not chart data",
        event.kind()
    )))
}

fn chart_of_event(e: Event) -> Result<Normalized, ParseError> {
    let chart = spec::Chart::from_value(&Value::Object(e.0))
        .map_err(|e| ParseError::Data(e.to_string()))?;
    let max = chart
        .meta
        .original_point_count
        .clamp(spec::DEFAULT_MAX_POINTS, spec::HARD_MAX_POINTS);
    spec::normalize(
        chart,
        &spec::NormalizeOptions {
            max_points: max,
            ..Default::default()
        },
    )
    .map_err(|e| ParseError::Data(e.to_string()))
}

/// What `viz-parse` does with one input, warnings handed to `sink`: the
/// entry point of the fuzz targets (`fuzz/`), which check its output.
#[doc(hidden)]
pub fn process_with(
    input: Box<dyn BufRead + '_>,
    name: &str,
    opts: &ParseOptions,
    out: &mut dyn Write,
    sink: &mut dyn FnMut(String),
) -> Result<(), ParseError> {
    process_file(input, None, name, opts, out, sink)
}

/// [`process_with`], given the regular file `input` reads, if it is one.
fn process_file(
    input: Box<dyn BufRead + '_>,
    file: Option<File>,
    name: &str,
    opts: &ParseOptions,
    out: &mut dyn Write,
    sink: &mut dyn FnMut(String),
) -> Result<(), ParseError> {
    let mut warn = Warner::new(sink, opts.strict);
    if let Some(g) = &opts.grammar {
        return grammar::process(input, name, opts, g, &mut warn, out);
    }
    let write =
        |out: &mut dyn Write, e: &Event| EventWriter::new(out).write(e).map_err(ParseError::Write);
    match read_input(input, file, opts, &mut warn)? {
        Source::Events(mut r) => stream::pass(&mut *r, opts, out, &mut warn),
        Source::Chart(mut n) => {
            dates::place_on_time(&mut n.chart);
            write(out, &n.chart.to_event())
        }
        Source::Event(events) => {
            for e in events {
                match stream::convert(&e) {
                    Some(Ok((viz, dropped))) => {
                        for (series, label) in dropped {
                            warn.skip(format!(
                                "series {series:?}, label {label:?}: value is not a finite number; point skipped"
                            ))?;
                        }
                        write(out, &viz)?
                    }
                    Some(Err(why)) => {
                        warn.skip(format!(
                            "render_visualization call not charted ({why}); passed on as it came"
                        ))?;
                        write(out, &e)?
                    }
                    None => write(out, &e)?,
                }
            }
            warn.finish("events");
            Ok(())
        }
    }
}

/// What the `viz-parse` program is asked to do, resolved from its flags
/// by its front (`app::viz_parse`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunOptions {
    /// Input files; empty or `-` reads stdin.
    pub inputs: Vec<PathBuf>,
    /// How each input is read.
    pub parse: ParseOptions,
}

/// The `viz-parse` program: each input gives its own chart (or its events),
/// in order. A failing input is reported and the others still run; the
/// exit code is that of the first failure.
pub fn run(run: RunOptions) -> anyhow::Result<u8> {
    let RunOptions {
        inputs,
        parse: opts,
    } = run;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let from_stdin = inputs.is_empty();
    let paths = if from_stdin {
        vec![PathBuf::from("-")]
    } else {
        inputs
    };
    if from_stdin && io::stdin().is_terminal() {
        term::diag("viz-parse: reading data from the terminal; end it with Ctrl-D (or see --help)");
    }
    let mut status = term::exit::OK;
    let mut fail = |code: u8, msg: String| {
        term::diag(format!("viz-parse: error: {msg}"));
        if status == term::exit::OK {
            status = code;
        }
    };
    let code = match &opts.follow {
        Some(f) => follow_inputs(&paths, &opts, f, &mut out, &mut fail)?,
        None => {
            chart_inputs(&paths, &opts, &mut out, &mut fail)?;
            term::exit::OK
        }
    };
    out.flush()?;
    Ok(if code == term::exit::OK { status } else { code })
}

/// The exit code of an input that cannot be opened.
fn open_error_code(e: &anyhow::Error) -> u8 {
    e.downcast_ref::<term::Coded>()
        .map_or(term::exit::FAILURE, |c| c.code)
}

/// `--follow`: the inputs that open followed together as one live chart;
/// the value is the follow's own exit code (an interruption's), failures
/// go to `fail`. Only a failed write is an error.
fn follow_inputs(
    paths: &[PathBuf],
    opts: &ParseOptions,
    f: &FollowOptions,
    out: &mut dyn Write,
    fail: &mut dyn FnMut(u8, String),
) -> anyhow::Result<u8> {
    let mut inputs = Vec::new();
    for path in paths {
        match term::open_input(path) {
            Ok(i) => inputs.push(crate::live::Input {
                name: i.name,
                reader: i.reader,
            }),
            Err(e) => fail(open_error_code(&e), e.to_string()),
        }
    }
    let mut sink = |m: String| term::diag(format!("viz-parse: warning: {m}"));
    match follow::run(inputs, opts, f, out, &mut sink) {
        Ok(code) => Ok(code),
        Err(ParseError::Write(e)) => Err(e.into()),
        Err(e) => {
            fail(e.exit_code(), e.to_string());
            Ok(term::exit::OK)
        }
    }
}

/// Each input charted (or its events passed on) in turn; failures go to
/// `fail` and the next input still runs. Only a failed write is an error.
fn chart_inputs(
    paths: &[PathBuf],
    opts: &ParseOptions,
    out: &mut dyn Write,
    fail: &mut dyn FnMut(u8, String),
) -> anyhow::Result<()> {
    for path in paths {
        if path.as_os_str() != "-" && path.is_dir() {
            fail(
                term::exit::NO_INPUT,
                format!("cannot open {}: is a directory", path.display()),
            );
            continue;
        }
        let input = match term::open_input(path) {
            Ok(i) => i,
            Err(e) => {
                fail(open_error_code(&e), e.to_string());
                continue;
            }
        };
        let name = &input.name;
        let mut sink = |m: String| term::diag(format!("viz-parse: warning: {name}: {m}"));
        match process_file(input.reader, input.file, name, opts, out, &mut sink) {
            Ok(()) => {}
            Err(ParseError::Write(e)) => return Err(e.into()),
            Err(e) => {
                let mut msg = format!("{}: {e}", input.name);
                if msg.ends_with(INPUT_EXAMPLES) {
                    msg.push('\n');
                    msg.push_str(STREAM_EXAMPLE);
                }
                fail(e.exit_code(), msg)
            }
        }
    }
    Ok(())
}
