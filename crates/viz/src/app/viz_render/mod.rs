//! viz-render's front: its flags ([`args`]), the merge of flags, the
//! environment and the config file into the engine's plain
//! [`render::RunOptions`], the usage errors of flag combinations, and
//! `run`.

pub mod args;

pub use args::VizRenderArgs as Args;

use crate::render::{self, Format, LiveArgs, RenderOptions, RunOptions};
use crate::spec::grammar::Limits;
use crate::term::{self, ColorChoice, Said, TermEnv};

/// Runs viz-render; the value is the exit code.
pub fn run(mut args: Args) -> anyhow::Result<u8> {
    let env = TermEnv::from_process();
    apply_config(&mut args, &env)?;
    let format = args
        .output_format()
        .resolve(|k| std::env::var(k).ok(), env.stdout_is_tty);
    if args.chapters && !format.draws() {
        return Err(term::coded(
            term::exit::USAGE,
            "--chapters draws chapter headers: it takes no --format but terminal, github, gitlab or auto",
        ));
    }
    if args.output_dir.is_some() && !matches!(format, Format::Svg | Format::Png) {
        return Err(term::coded(
            term::exit::USAGE,
            "--output-dir writes SVG or PNG files: it needs --format svg or png",
        ));
    }
    if format == Format::Png && args.output_dir.is_none() && env.stdout_is_tty {
        return Err(term::coded(
            term::exit::USAGE,
            "--format png writes binary images: give --output-dir DIR, or redirect stdout to a file",
        ));
    }
    if let Some(dir) = &args.output_dir {
        std::fs::create_dir_all(dir).map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
    }
    let opts = render_options(&args, &env, format);
    let inputs = term::open_inputs(&args.files)?;
    let live = if args.live {
        if !matches!(format, Format::Terminal | Format::Auto) {
            return Err(term::coded(
                term::exit::USAGE,
                "--live draws in the terminal: it takes no --format but terminal",
            ));
        }
        Some(LiveArgs {
            fps: args.fps,
            fixed_width: args.width.is_some(),
            strict: args.strict,
        })
    } else {
        None
    };
    render::run(RunOptions {
        format,
        render: opts,
        live,
        strict: args.strict,
        output_dir: args.output_dir,
        inputs,
    })
}

/// The drawing options from the flags and the environment: both CI logs
/// show ANSI colour though stdout is no terminal.
fn render_options(args: &Args, env: &TermEnv, format: Format) -> RenderOptions {
    let ci = matches!(format, Format::Github | Format::Gitlab);
    let color = match args.color {
        ColorChoice::Auto if ci && !env.no_color => ColorChoice::Always,
        c => c,
    };
    let mut opts = RenderOptions::resolve(
        env,
        args.width.map(usize::from),
        args.ascii,
        args.unicode,
        color,
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
    // Pictures only where the terminal drawing goes to a terminal, and
    // not among live charts redrawn in place.
    if format == Format::Terminal && !args.live && !args.chapters {
        let cell = render::graphics::cell_size(libc::STDOUT_FILENO);
        opts.graphics = args
            .graphics
            .resolve(env.stdout_is_tty, |k| std::env::var(k).ok(), cell);
    }
    opts
}

/// `color` and `width` from `$XDG_CONFIG_HOME/gemline/config.toml` (as
/// gem-ask reads them) where neither a flag nor the environment (NO_COLOR,
/// COLUMNS) says otherwise; a malformed file is a usage error naming its
/// line and key.
fn apply_config(args: &mut Args, env: &TermEnv) -> anyhow::Result<()> {
    let cfg = crate::config::load().map_err(|e| term::coded(term::exit::USAGE, e.to_string()))?;
    // `--color auto` typed is no word against the config here.
    let flag = (args.color != ColorChoice::Auto).then_some(args.color);
    if let (c, Said::Config) = env.color_from(flag, cfg.color) {
        args.color = c;
    }
    let width = args.width.map(usize::from);
    if let (_, Said::Config) = env.width_from(width, cfg.width.map(usize::from)) {
        args.width = cfg.width;
    }
    Ok(())
}
