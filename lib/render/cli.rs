//! `viz-render`'s command: reads every input and hands each event to the
//! output format asked for ([`Sink`]): the terminal drawing, Markdown, the
//! events again (`json`), Vega-Lite specs; maps bad input to warnings or,
//! with `--strict`, to exit 65.

use std::io::{self, Write};

use serde_json::Value;

use super::args::Format;
use super::text::clean_line;
use super::{
    RENDER_VISUALIZATION, RenderOptions, Renderer, VizRenderArgs, chart_from_event, gfm,
    ui_warning, vegalite,
};
use crate::cli::{self, TermEnv};
use crate::events::{Event, EventReader, EventWriter};
use crate::spec::grammar::{KIND_CHART, Limits, UiEnvelope};

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

/// `viz-render`: reads every input, writes each event in the format asked
/// for as it arrives. Returns the exit code.
pub fn run(args: VizRenderArgs) -> anyhow::Result<u8> {
    let env = TermEnv::from_process();
    let format = args.output_format();
    if args.chapters && format != Format::Terminal {
        return Err(cli::coded(
            cli::exit::USAGE,
            "--chapters draws chapter headers: it takes no --format but terminal",
        ));
    }
    let mut opts = RenderOptions::resolve(
        &env,
        args.width.map(usize::from),
        args.ascii,
        args.unicode,
        args.color,
    );
    opts.height = usize::from(args.height);
    opts.show_tools = args.show_tools;
    opts.show_thoughts = args.show_thoughts;
    opts.verbose = args.verbose;
    opts.chapters_only = args.chapters;
    args.text.apply(&mut opts);
    opts.limits = Limits {
        max_bytes: args.max_spec_bytes,
        max_rows: args.max_rows,
    };
    let inputs = cli::open_inputs(&args.files)?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut sink: Box<dyn Sink> = match format {
        Format::Terminal => Box::new(Terminal {
            renderer: Renderer::new(opts.clone()),
            strict: args.strict,
        }),
        Format::Markdown => Box::new(Markdown {
            report: gfm::Report::new(opts.clone()),
            strict: args.strict,
        }),
        Format::Json => Box::new(Json {
            mode: if opts.unicode { "unicode" } else { "ascii" },
            limits: opts.limits,
            strict: args.strict,
        }),
        Format::VegaLite => Box::new(vegalite::Exporter::new(opts.limits, args.strict)),
    };
    for input in inputs {
        let mut reader = EventReader::new(input.reader);
        while let Some(item) = reader.next_event()? {
            match item {
                Ok(e) => sink.event(e, (input.name.as_str(), reader.line()), &mut out)?,
                Err(bad) => {
                    let msg = format!("{}: {}", input.name, bad);
                    if args.strict {
                        sink.abort(&mut out)?;
                        out.flush()?;
                        return Err(cli::data_error(msg));
                    }
                    cli::diag(format!("viz-render: warning: {}", clean_line(&msg, false)));
                }
            }
        }
    }
    sink.finish(&mut out)?;
    out.flush()?;
    Ok(cli::exit::OK)
}

/// An invalid chart with `--strict`: exit 65 naming where it was read.
fn invalid_chart((name, line): At) -> anyhow::Error {
    cli::data_error(format!("{name}: line {line}: invalid chart (--strict)"))
}

/// `--format terminal`: the drawing.
struct Terminal {
    renderer: Renderer,
    strict: bool,
}

impl Sink for Terminal {
    fn event(&mut self, e: Event, at: At, out: &mut dyn Write) -> anyhow::Result<()> {
        let before = self.renderer.invalid_charts();
        self.renderer.event(&e, out)?;
        if self.strict && self.renderer.invalid_charts() > before {
            self.renderer.finish(out)?;
            return Err(invalid_chart(at));
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write) -> anyhow::Result<()> {
        self.renderer.finish(out)?;
        out.flush()?;
        let undrawn = self.renderer.undrawn_chart_calls();
        if undrawn > 0 {
            let calls = if undrawn == 1 {
                "call was"
            } else {
                "calls were"
            };
            cli::diag(format!(
                "viz-render: note: {undrawn} {RENDER_VISUALIZATION} {calls} not drawn; \
                 pipe the stream through viz-parse to turn them into charts"
            ));
        }
        Ok(())
    }

    fn abort(&mut self, out: &mut dyn Write) -> anyhow::Result<()> {
        Ok(self.renderer.finish(out)?)
    }
}

/// `--format markdown`: GitHub-flavoured Markdown for a CI report.
struct Markdown {
    report: gfm::Report,
    strict: bool,
}

impl Sink for Markdown {
    fn event(&mut self, e: Event, at: At, out: &mut dyn Write) -> anyhow::Result<()> {
        let before = self.report.invalid_charts();
        self.report.event(&e, out)?;
        if self.strict && self.report.invalid_charts() > before {
            self.report.finish(out)?;
            return Err(invalid_chart(at));
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write) -> anyhow::Result<()> {
        Ok(self.report.finish(out)?)
    }

    fn abort(&mut self, out: &mut dyn Write) -> anyhow::Result<()> {
        self.finish(out)
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
                return Err(cli::data_error(format!("{name}: line {line}: {msg}")));
            }
            cli::diag(format!(
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
                return Err(cli::data_error(msg));
            }
            cli::diag(format!("viz-render: warning: {}", clean_line(&msg, false)));
            Ok(e)
        }
    }
}
