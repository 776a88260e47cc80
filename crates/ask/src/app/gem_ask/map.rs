//! `gem-ask map [OPTIONS] PROMPT [FILE]...`: its flags ([`MapArgs`]) and
//! their resolution into the engine's [`MapOptions`]. The question's own
//! flags (`--model`, `--provider`, `--system`, `--role`, `--schema`,
//! `--temperature`, the connection flags) are gem-ask's, written before
//! `map`, and apply to every record.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::Args as ClapArgs;

use crate::agent::exit;
use crate::agent::map::{self, Format, MapOptions, Template};
use crate::term::{coded, diag};

/// `gem-ask map`'s own flags.
#[derive(Debug, Clone, ClapArgs)]
pub struct MapArgs {
    /// The prompt of each record: `{field}` takes the record's value, `{field.sub}` a nested JSON
    /// value, `{{` and `}}` are literal braces; a prompt naming no field gets the record appended
    /// as JSON.
    pub prompt: String,

    /// Inputs: JSON lines (objects), CSV or TSV with a header row, or plain lines (the field
    /// `line`); none or `-` is stdin.
    pub files: Vec<PathBuf>,

    /// The inputs' format [default: by the file name (.jsonl, .ndjson, .csv, .tsv), else the first
    /// line: `{` is JSON lines, a tab TSV, else plain lines].
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    pub format: Format,

    /// Requests in flight at most (halved while the server answers 429/503, then grown back one
    /// at a time).
    #[arg(short = 'j', long, default_value_t = map::DEFAULT_JOBS, value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: u16,

    /// Start at most N requests a minute (spaced evenly), whatever -j allows.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub rate: Option<u32>,

    /// Write each record's line as it finishes, not in input order.
    #[arg(long)]
    pub unordered: bool,

    /// Append the lines to FILE (each whole and flushed) instead of stdout; a rerun of the same
    /// command skips the records already answered there (by their `_key`, the hash of the request)
    /// and sends only the missing ones.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Keep each answer by its request's key in $XDG_DATA_HOME/gemline/map-cache.sqlite3 and
    /// answer a byte-identical request (same model) from there without sending it.
    #[arg(long)]
    pub cache: bool,

    /// Print each record's request body (`request`, with its `_key`) instead of sending it.
    #[arg(long)]
    pub dry_run: bool,
}

/// Runs `gem-ask map`; `ask` is the resolved question (model, system,
/// schema, connection) of gem-ask's flags.
pub fn run(m: MapArgs, ask: &crate::agent::Options) -> anyhow::Result<u8> {
    let template = Template::parse(&m.prompt).map_err(|e| coded(exit::USAGE, e.to_string()))?;
    let schema = ask.schema.as_ref().map(|s| s.sent.clone());
    let options = MapOptions {
        template: m.prompt,
        files: m.files,
        format: m.format,
        jobs: usize::from(m.jobs),
        rate: m.rate,
        unordered: m.unordered,
        provider: ask.ask.provider,
        model: ask.ask.model.clone(),
        system: Some(ask.ask.system.clone()).filter(|s| !s.trim().is_empty()),
        temperature: ask.ask.temperature,
        thinking: ask.ask.thinking,
        schema,
        connection: ask.connection.clone(),
        output: m.output,
        dry_run: m.dry_run,
        cache: m.cache.then(cache_path).transpose()?,
    };
    if let Some(n) = map::thinking_note(&options) {
        diag(format!("gem-ask map: {n}"));
    }
    let client = if options.dry_run {
        None
    } else {
        crate::agent::setup::check_base_url(&options.connection)?;
        let c =
            crate::agent::setup::make_client(options.provider, &options.model, &options.connection);
        Some(c.map_err(|f| match f {
            crate::agent::outcome::Failure::NoKey => coded(
                exit::NO_API_KEY,
                "gem-ask map: no API key (set GEMINI_API_KEY, or the provider's key variable)",
            ),
            crate::agent::outcome::Failure::Setup(code, msg) => coded(code, msg),
            other => coded(exit::FAILURE, format!("{other:?}")),
        })?)
    };
    let (done, mut file) = match &options.output {
        Some(p) => {
            let (done, f) = map::resume::open(p)
                .map_err(|e| coded(exit::NO_INPUT, format!("gem-ask map: {}: {e}", p.display())))?;
            (done, Some(f))
        }
        None => (Default::default(), None),
    };
    let stdout = io::stdout();
    let mut lock;
    let out: &mut dyn Write = match &mut file {
        Some(f) => f,
        None => {
            lock = stdout.lock();
            &mut lock
        }
    };
    let sum = match map::run::run(&options, &template, client, done, out) {
        Ok(s) => s,
        Err(map::run::MapError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
            return Ok(exit::OK);
        }
        Err(e @ map::run::MapError::Clash { .. }) => {
            return Err(coded(exit::USAGE, format!("gem-ask map: {e}")));
        }
        Err(e) => return Err(coded(exit::FAILURE, format!("gem-ask map: {e}"))),
    };
    if options.dry_run {
        diag(format!(
            "gem-ask map: --dry-run: {} requests shown, none sent; {} bad input lines",
            sum.records, sum.bad_lines
        ));
        return Ok(exit::OK);
    }
    diag(format!(
        "gem-ask map: {} records: {} answered, {} failed, {} already in the output; {} bad input lines; \
         {} tokens in, {} out; {:.1}s",
        sum.records,
        sum.answered,
        sum.failed,
        sum.resumed,
        sum.bad_lines,
        sum.usage.prompt,
        sum.usage.candidates,
        sum.elapsed.as_secs_f64()
    ));
    if let Some(sig) = crate::agent::signals::received() {
        return Ok(if sig == libc_sigint() {
            exit::INTERRUPTED
        } else {
            exit::TERMINATED
        });
    }
    Ok(if sum.failed > 0 {
        map::SOME_FAILED
    } else {
        exit::OK
    })
}

fn libc_sigint() -> i32 {
    2
}

/// `$XDG_DATA_HOME/gemline/map-cache.sqlite3`, beside the memory store.
fn cache_path() -> anyhow::Result<PathBuf> {
    let memory =
        crate::memory::store::default_path().map_err(|e| coded(exit::FAILURE, e.to_string()))?;
    Ok(memory.with_file_name("map-cache.sqlite3"))
}
