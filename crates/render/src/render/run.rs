//! The `viz-render` engine: reads every input and hands each event to the
//! output format asked for ([`Sink`]): the terminal drawing (for a CI log
//! too), Markdown, the events again (`json`), Vega-Lite specs, SVG; maps
//! bad input to warnings or, with `--strict`, to exit 65. It takes plain
//! [`RunOptions`]; the flags, the environment and the config file are
//! merged into them by `app::viz_render`.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use serde_json::Value;

use super::ci::{CiLog, Platform};
use super::svg::SvgWriter;
use super::text::clean_line;
use super::{
    LiveArgs, LiveCharts, RENDER_VISUALIZATION, RenderOptions, Renderer, chart_from_event, gfm,
    is_live, ui_warning, vegalite,
};
use crate::events::{Event, EventReader, EventWriter};
use crate::spec::grammar::{KIND_CHART, Limits, UiEnvelope};
use crate::term;

/// Where an event was read: the input's name and the line.
type At<'a> = (&'a str, usize);

/// One output format over a stream of events.
trait Sink {
    /// Writes what one event becomes; an error stops the run (`--strict`).
    fn event(&mut self, e: Event, at: At, out: &mut dyn Write) -> anyhow::Result<()>;
    /// The end of input.
    fn finish(&mut self, out: &mut dyn Write) -> anyhow::Result<()>;
    /// The run stops on bad input (`--strict`): close what is open.
    fn abort(&mut self, _out: &mut dyn Write) -> anyhow::Result<()> {
        Ok(())
    }
}

/// Everything [`run`] needs, resolved by the program's front: the
/// format made concrete, the drawing options, the inputs opened.
pub struct RunOptions {
    /// What to write; never [`Format::Auto`] here.
    pub format: Format,
    pub render: RenderOptions,
    /// `--live`: draw live charts in place ([`Format::Terminal`] only).
    pub live: Option<LiveArgs>,
    /// Bad input ends the run with exit 65.
    pub strict: bool,
    /// With [`Format::Svg`] and [`Format::Png`]: one file per chart in
    /// this folder, which exists.
    pub output_dir: Option<PathBuf>,
    pub inputs: Vec<term::Input>,
}

/// `viz-render`: reads every input, writes each event in the format asked
/// for as it arrives. Returns the exit code.
pub fn run(run: RunOptions) -> anyhow::Result<u8> {
    let RunOptions {
        format,
        render: opts,
        live,
        strict,
        output_dir,
        inputs,
    } = run;
    if let Some(live) = live {
        // The live region is the one drawn in place: Markdown is written
        // a block at a time above it.
        let mut renderer = Renderer::new(RenderOptions {
            in_place: false,
            ..opts
        });
        let code = super::live::run(&mut renderer, inputs, live)?;
        note_undrawn(renderer.undrawn_chart_calls());
        return Ok(code);
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    // The drawings keep each live chart's last update for the end of
    // input themselves; Markdown and SVG get it from here, once.
    let mut held_live =
        matches!(format, Format::Markdown | Format::Svg | Format::Png).then(LiveCharts::default);
    let mut live_noted = !format.draws() || out.get_ref().is_terminal();
    let mut sink: Box<dyn Sink> = match format {
        Format::Auto | Format::Terminal => Box::new(Checked(Renderer::new(opts.clone()), strict)),
        Format::Github => Box::new(Checked(CiLog::new(Platform::GitHub, opts.clone()), strict)),
        Format::Gitlab => Box::new(Checked(CiLog::new(Platform::GitLab, opts.clone()), strict)),
        Format::Markdown => Box::new(Checked(gfm::Report::new(opts.clone()), strict)),
        Format::Json => Box::new(Json {
            mode: if opts.unicode { "unicode" } else { "ascii" },
            limits: opts.limits,
            strict,
        }),
        Format::VegaLite => Box::new(vegalite::Exporter::new(opts.limits, strict)),
        Format::Svg => Box::new(SvgWriter::new(opts.limits, strict, output_dir)),
        Format::Png => Box::new(SvgWriter::new(opts.limits, strict, output_dir).png()),
    };
    for input in inputs {
        let mut reader = EventReader::new(input.reader);
        while let Some(item) = reader.next_event()? {
            match item {
                Ok(e) if is_live(&e) && held_live.is_some() => {
                    if let Some(note) = held_live.as_mut().and_then(|h| h.put(e)) {
                        term::diag(format!("viz-render: warning: {}", clean_line(&note, false)));
                    }
                }
                Ok(e) => {
                    if !live_noted && is_live(&e) {
                        live_noted = true;
                        term::diag(
                            "viz-render: note: live charts are drawn once, at the end of input; \
                             add --live to watch them change",
                        );
                    }
                    sink.event(e, (input.name.as_str(), reader.line()), &mut out)?
                }
                Err(bad) => {
                    let msg = format!("{}: {}", input.name, bad);
                    if strict {
                        sink.abort(&mut out)?;
                        out.flush()?;
                        return Err(term::data_error(msg));
                    }
                    term::diag(format!("viz-render: warning: {}", clean_line(&msg, false)));
                }
            }
        }
    }
    for e in held_live.map(|mut h| h.take()).unwrap_or_default() {
        sink.event(e, ("end of input", 0), &mut out)?;
    }
    sink.finish(&mut out)?;
    out.flush()?;
    Ok(term::exit::OK)
}

/// A stream with render_visualization calls and no chart at all.
fn note_undrawn(undrawn: usize) {
    if undrawn > 0 {
        let calls = if undrawn == 1 {
            "call was"
        } else {
            "calls were"
        };
        term::diag(format!(
            "viz-render: note: {undrawn} {RENDER_VISUALIZATION} {calls} not drawn; \
             pipe the stream through viz-parse to turn them into charts"
        ));
    }
}

/// A format that shows charts in place and counts those it refused:
/// the terminal drawing, a CI log, Markdown.
trait Drawing {
    fn event(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()>;
    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()>;
    fn invalid_charts(&self) -> usize;
    /// render_visualization calls of a stream without charts.
    fn undrawn_chart_calls(&self) -> usize {
        0
    }
}

impl Drawing for Renderer {
    fn event(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        Renderer::event(self, e, out)
    }
    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        Renderer::finish(self, out)
    }
    fn invalid_charts(&self) -> usize {
        Renderer::invalid_charts(self)
    }
    fn undrawn_chart_calls(&self) -> usize {
        Renderer::undrawn_chart_calls(self)
    }
}

impl Drawing for CiLog {
    fn event(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        CiLog::event(self, e, out)
    }
    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        CiLog::finish(self, out)
    }
    fn invalid_charts(&self) -> usize {
        self.renderer().invalid_charts()
    }
    fn undrawn_chart_calls(&self) -> usize {
        self.renderer().undrawn_chart_calls()
    }
}

impl Drawing for gfm::Report {
    fn event(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        gfm::Report::event(self, e, out)
    }
    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        gfm::Report::finish(self, out)
    }
    fn invalid_charts(&self) -> usize {
        gfm::Report::invalid_charts(self)
    }
}

/// A drawing and `--strict`: an invalid chart ends the run with exit 65
/// naming where it was read.
struct Checked<D>(D, bool);

impl<D: Drawing> Sink for Checked<D> {
    fn event(&mut self, e: Event, (name, line): At, out: &mut dyn Write) -> anyhow::Result<()> {
        let before = self.0.invalid_charts();
        self.0.event(&e, out)?;
        if self.1 && self.0.invalid_charts() > before {
            self.0.finish(out)?;
            return Err(term::data_error(format!(
                "{name}: line {line}: invalid chart (--strict)"
            )));
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write) -> anyhow::Result<()> {
        self.0.finish(out)?;
        out.flush()?;
        note_undrawn(self.0.undrawn_chart_calls());
        Ok(())
    }

    fn abort(&mut self, out: &mut dyn Write) -> anyhow::Result<()> {
        Ok(self.0.finish(out)?)
    }
}

impl Sink for SvgWriter {
    fn event(&mut self, e: Event, at: At, out: &mut dyn Write) -> anyhow::Result<()> {
        SvgWriter::event(self, &e, at, out)
    }

    fn finish(&mut self, out: &mut dyn Write) -> anyhow::Result<()> {
        SvgWriter::finish(self, out)
    }
}

impl Sink for vegalite::Exporter {
    fn event(&mut self, e: Event, at: At, mut out: &mut dyn Write) -> anyhow::Result<()> {
        vegalite::Exporter::event(self, &e, at, &mut out)
    }

    fn finish(&mut self, mut out: &mut dyn Write) -> anyhow::Result<()> {
        vegalite::Exporter::finish(self, &mut out)
    }
}

/// `--format json`: the events again, charts normalized.
struct Json {
    mode: &'static str,
    limits: Limits,
    strict: bool,
}

impl Sink for Json {
    fn event(&mut self, e: Event, at: At, out: &mut dyn Write) -> anyhow::Result<()> {
        if e.kind() == "ui" {
            return json_ui(e, &self.limits, at, self.strict, out);
        }
        let e = json_event(e, self.mode, at.0, at.1, self.strict)?;
        EventWriter::new(out).write(&e)?;
        Ok(())
    }

    fn finish(&mut self, _out: &mut dyn Write) -> anyhow::Result<()> {
        Ok(())
    }
}

/// `--json` and a `ui` event: it passes through; one that would not be
/// drawn is followed by an `error` event of severity warning saying why
/// (also on stderr; with `--strict`, a chart that fails validation is exit 65).
fn json_ui(
    e: Event,
    limits: &Limits,
    (name, line): (&str, usize),
    strict: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let ui = UiEnvelope::read(&e.0);
    let warning = match ui.validate(limits) {
        Ok(_) => None,
        Err(why) => {
            let msg = ui_warning(&ui, &why);
            if strict && ui.kind == Some(KIND_CHART) {
                return Err(term::data_error(format!("{name}: line {line}: {msg}")));
            }
            term::diag(format!(
                "viz-render: warning: {name}: line {line}: {}",
                clean_line(&msg, false)
            ));
            Some(Event::error("warning", &msg))
        }
    };
    let mut w = EventWriter::new(out);
    w.write(&e)?;
    if let Some(warn) = warning {
        w.write(&warn)?;
    }
    Ok(())
}

/// `--json`: a chart comes back out as a `visualization` event with
/// `meta.fallbackMode` recording the mode the renderer would have drawn
/// in (a bare spec normalized first); every other event passes through.
fn json_event(
    mut e: Event,
    mode: &str,
    name: &str,
    line: usize,
    strict: bool,
) -> anyhow::Result<Event> {
    if e.kind() != "visualization" && !e.kind().is_empty() {
        return Ok(e);
    }
    match chart_from_event(&e) {
        Ok(chart) => {
            if e.kind().is_empty() {
                e = chart.to_event();
            }
            let meta =
                e.0.entry("meta")
                    .or_insert_with(|| Value::Object(Default::default()));
            if !meta.is_object() {
                *meta = Value::Object(Default::default());
            }
            if let Value::Object(m) = meta {
                m.insert("fallbackMode".into(), mode.into());
            }
            Ok(e)
        }
        Err(err) => {
            let msg = format!("{name}: line {line}: invalid chart: {err}");
            if strict {
                return Err(term::data_error(msg));
            }
            term::diag(format!("viz-render: warning: {}", clean_line(&msg, false)));
            Ok(e)
        }
    }
}

/// `viz-render --format`: what is written for the events read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `github` or `gitlab` when GITHUB_ACTIONS or GITLAB_CI is `true` and
    /// stdout is not a terminal; else `terminal`.
    Auto,
    /// Draw charts, text and chapters in the terminal.
    Terminal,
    /// The terminal drawing for a GitHub Actions log: chapters as
    /// ::group:: sections, error events as ::error::/::warning:: annotations.
    Github,
    /// The terminal drawing for a GitLab CI log: chapters as collapsible
    /// sections.
    Gitlab,
    /// GitHub-flavoured Markdown for a CI job summary or a pull-request
    /// comment: charts as mermaid, tables as GFM tables.
    Markdown,
    /// One self-contained SVG per chart (with --output-dir, one file each).
    Svg,
    /// One PNG per chart, the SVG rasterised at its size (with
    /// --output-dir, one file each).
    Png,
    /// Re-emit the events, charts normalized with meta.fallbackMode.
    Json,
    /// One Vega-Lite v5 spec per chart (JSON lines); other events write nothing.
    VegaLite,
}

impl Format {
    /// `auto` made concrete from the environment (`var`) and whether
    /// stdout is a terminal; other formats are themselves.
    pub fn resolve(self, var: impl Fn(&str) -> Option<String>, stdout_is_tty: bool) -> Format {
        if self != Format::Auto {
            return self;
        }
        let set = |k: &str| var(k).is_some_and(|v| v == "true");
        match () {
            _ if stdout_is_tty => Format::Terminal,
            _ if set("GITHUB_ACTIONS") => Format::Github,
            _ if set("GITLAB_CI") => Format::Gitlab,
            _ => Format::Terminal,
        }
    }

    /// Formats that draw the terminal picture.
    pub fn draws(self) -> bool {
        matches!(self, Format::Terminal | Format::Github | Format::Gitlab)
    }
}
