//! `viz-render`'s command: reads every input, draws each event (or with
//! `--format json` re-emits it, with `--format vega-lite` exports its
//! chart), maps bad input to warnings or, with `--strict`, to exit 65.

use std::io::{self, IsTerminal, Write};

use serde_json::Value;

use super::args::Format;
use super::text::clean_line;
use super::{
    LiveArgs, RENDER_VISUALIZATION, RenderOptions, Renderer, VizRenderArgs, chart_from_event,
    ui_warning, vegalite,
};
use crate::cli::{self, TermEnv};
use crate::events::{Event, EventReader, EventWriter};
use crate::spec::grammar::{KIND_CHART, Limits, UiEnvelope};

/// `viz-render`: reads every input, draws (or with `--json` re-emits) each
/// event as it arrives. Returns the exit code.
pub fn run(args: VizRenderArgs) -> anyhow::Result<u8> {
    let format = args.output_format();
    if args.chapters && format != Format::Terminal {
        return Err(cli::coded(
            cli::exit::USAGE,
            "--chapters draws chapter headers: it takes no --format but terminal",
        ));
    }
    let env = TermEnv::from_process();
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
    let mut renderer = Renderer::new(opts.clone());
    if args.live {
        if format != Format::Terminal {
            return Err(cli::coded(
                cli::exit::USAGE,
                "--live draws in the terminal: it takes no --format but terminal",
            ));
        }
        let live = LiveArgs {
            fps: args.fps,
            fixed_width: args.width.is_some(),
            strict: args.strict,
        };
        let code = super::live::run(&mut renderer, inputs, live)?;
        note_undrawn(&renderer);
        return Ok(code);
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut live_noted = !out.get_ref().is_terminal();
    let mut exporter = vegalite::Exporter::new(opts.limits, args.strict);
    let mode = if opts.unicode { "unicode" } else { "ascii" };
    for input in inputs {
        let mut reader = EventReader::new(input.reader);
        while let Some(item) = reader.next_event()? {
            let e = match item {
                Ok(e) => e,
                Err(bad) => {
                    let msg = format!("{}: {}", input.name, bad);
                    if args.strict {
                        renderer.finish(&mut out)?;
                        return Err(cli::data_error(msg));
                    }
                    cli::diag(format!("viz-render: warning: {}", clean_line(&msg, false)));
                    continue;
                }
            };
            if format == Format::VegaLite {
                exporter.event(&e, (input.name.as_str(), reader.line()), &mut out)?;
                continue;
            }
            if format == Format::Json {
                let at = (input.name.as_str(), reader.line());
                if e.kind() == "ui" {
                    json_ui(e, &opts.limits, at, args.strict, &mut out)?;
                    continue;
                }
                let e = json_event(e, mode, at.0, at.1, args.strict)?;
                EventWriter::new(&mut out).write(&e)?;
                continue;
            }
            if !live_noted && super::is_live(&e) {
                live_noted = true;
                cli::diag(
                    "viz-render: note: live charts are drawn once, at the end of input; \
                     add --live to watch them change",
                );
            }
            let before = renderer.invalid_charts();
            renderer.event(&e, &mut out)?;
            if args.strict && renderer.invalid_charts() > before {
                renderer.finish(&mut out)?;
                return Err(cli::data_error(format!(
                    "{}: line {}: invalid chart (--strict)",
                    input.name,
                    reader.line()
                )));
            }
        }
    }
    match format {
        Format::Terminal => renderer.finish(&mut out)?,
        Format::VegaLite => exporter.finish(&mut out)?,
        Format::Json => {}
    }
    out.flush()?;
    note_undrawn(&renderer);
    Ok(cli::exit::OK)
}

/// A stream with render_visualization calls and no chart at all.
fn note_undrawn(renderer: &Renderer) {
    let undrawn = renderer.undrawn_chart_calls();
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
}

/// `--json` and a `ui` event: it passes through; one that would not be
/// drawn is followed by an `error` event of severity warning saying why
/// (also on stderr; with `--strict`, a chart that fails validation is exit 65).
fn json_ui(
    e: Event,
    limits: &Limits,
    (name, line): (&str, usize),
    strict: bool,
    out: &mut impl Write,
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
