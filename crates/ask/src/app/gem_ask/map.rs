//! `gem-ask map [OPTIONS] PROMPT [FILE]...`: its flags ([`MapArgs`]) and
//! their resolution into the engine's [`MapOptions`]. The question's own
//! flags (`--model`, `--provider`, `--system`, `--role`, `--schema`,
//! `--temperature`, `-a`, the connection flags) are gem-ask's, written before
//! `map`, and apply to every record.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use clap::Args as ClapArgs;

use crate::agent::exit;
use crate::agent::map::batch::{BatchOptions, BatchRun};
use crate::agent::map::run::Source;
use crate::agent::map::{self, Format, MapOptions, Template};
use crate::agent::options::OutputMode;
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

    /// The inputs' format [default: by the file name (.jsonl, .ndjson, .csv, .tsv), else sniffed
    /// as viz-parse sniffs: JSON lines, a table with a header row split at `,` `;` `|` or tab,
    /// else plain lines].
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

    /// Send the requests as one job of Gemini's Batch API (half the price, answered within a
    /// day): inline when small, else as a JSONL file through the Files API; the job is polled
    /// until it ends and its answers written as the online run writes them. An OpenAI-compatible
    /// provider has no batch API: the run goes online.
    #[arg(long)]
    pub batch: bool,

    /// With --batch: create the job, print its name on stdout and exit; collect it later with
    /// --attach NAME and the same options.
    #[arg(long, requires = "batch")]
    pub detach: bool,

    /// Collect the batch job NAME (batches/ID, from --detach) with the same options: wait for it,
    /// then write its answers (resumable with --output, like any run).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["detach", "dry_run"])]
    pub attach: Option<String>,
}

/// Runs `gem-ask map`; `ask` is the resolved question (model, system,
/// schema, connection) of gem-ask's flags.
pub fn run(m: MapArgs, ask: &crate::agent::Options) -> anyhow::Result<u8> {
    let template = Template::parse(&m.prompt).map_err(|e| coded(exit::USAGE, e.to_string()))?;
    let (options, batch) = options_of(m, ask)?;
    if let Some(n) = map::thinking_note(&options) {
        diag(format!("gem-ask map: {n}"));
    }
    if ask.count_tokens && !options.dry_run {
        return count_tokens(&options, &template);
    }
    let client = if options.dry_run {
        None
    } else {
        Some(client_of(&options)?)
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
    let ran = match (&batch, client) {
        (Some(b), Some(client)) => map::batch::run(&options, b, &template, &client, done, out),
        (None, client) => map::run::run(&options, &template, client.map(Source::Online), done, out)
            .map(|s| BatchRun::Done(s, None)),
        (Some(_), None) => unreachable!("--attach and --detach are not --dry-run"),
    };
    let (sum, job) = match ran {
        Ok(BatchRun::Done(s, job)) => (s, job),
        Ok(BatchRun::Detached(made)) => return Ok(detached(made)),
        Err(e) => return stopped_by(e),
    };
    if options.dry_run {
        diag(format!(
            "gem-ask map: --dry-run: {} requests shown, none sent; {} bad input lines",
            sum.records, sum.bad_lines
        ));
        return Ok(exit::OK);
    }
    diag(summary_line(&sum));
    if let Some(note) = input_note(&sum, &options) {
        diag(note);
    }
    let sig = crate::agent::signals::received();
    let stopped = sig.map(crate::agent::signals::name);
    let result = map::result::event(&sum, job.as_deref(), stopped);
    keep_for_the_log(&options, &sum, &result, ask);
    // Events asked for, or stdout holds no records (--output) and goes to
    // a program: a person at a terminal has the summary above.
    let events = match ask.output.mode {
        OutputMode::Jsonl => true,
        OutputMode::Auto => options.output.is_some() && !io::stdout().is_terminal(),
        _ => false,
    };
    if events {
        let mut out = stdout.lock();
        let _ = writeln!(out, "{result}").and_then(|_| out.flush());
    }
    if let Some(sig) = sig {
        return Ok(if sig == libc_sigint() {
            exit::INTERRUPTED
        } else {
            exit::TERMINATED
        });
    }
    Ok(if sum.capped.is_some() {
        exit::BUDGET
    } else if sum.failed > 0 {
        map::SOME_FAILED
    } else {
        exit::OK
    })
}

/// `gem-ask --count-tokens map`: each record's request counted by
/// Gemini's countTokens (a line of its fields and `tokens` on stdout), the
/// total and its input cost on stderr; nothing is answered. An
/// OpenAI-compatible server cannot count: refused (exit 2), as gem-ask's
/// own `--count-tokens` is, rather than a guess passed off as a count.
fn count_tokens(o: &MapOptions, template: &Template) -> anyhow::Result<u8> {
    if !o.provider.wire().supports().count_tokens {
        return Err(coded(
            exit::USAGE,
            format!(
                "gem-ask map: --count-tokens needs --provider gemini: --provider {} has no \
                 countTokens (--dry-run shows each request without sending it)",
                o.provider.name()
            ),
        ));
    }
    let source = Some(Source::Count(client_of(o)?));
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let sum = match map::run::run(o, template, source, Default::default(), &mut out) {
        Ok(s) => s,
        Err(e) => return stopped_by(e),
    };
    let cost = match sum.cost {
        Some(c) => format!("${c:.4} for the input (the answers' tokens are not known before)"),
        None => format!("no price known for {}", o.model),
    };
    diag(format!(
        "gem-ask map: --count-tokens: {} requests counted, {} tokens in; {cost}; {} failed, \
         {} bad input lines; nothing was sent to be answered",
        sum.answered, sum.usage.prompt, sum.failed, sum.bad_lines
    ));
    if let Some(note) = input_note(&sum, o) {
        diag(note);
    }
    Ok(if sum.failed > 0 {
        map::SOME_FAILED
    } else {
        exit::OK
    })
}

/// The engine's options from the flags and the resolved question; with
/// `--batch`, the price is the Batch API's.
fn options_of(
    m: MapArgs,
    ask: &crate::agent::Options,
) -> anyhow::Result<(MapOptions, Option<BatchOptions>)> {
    let schema = ask.schema.as_ref().map(|s| s.sent.clone());
    let attachments = attachments_of(ask, &m.files)?;
    let mut options = MapOptions {
        template: m.prompt,
        files: m.files,
        stdin_copy: None,
        format: m.format,
        jobs: usize::from(m.jobs),
        rate: m.rate,
        unordered: m.unordered,
        provider: ask.ask.provider,
        model: ask.ask.model.clone(),
        system: Some(ask.ask.system.clone()).filter(|s| !s.trim().is_empty()),
        temperature: ask.ask.temperature,
        thinking: ask.ask.thinking,
        attachments,
        schema,
        connection: ask.connection.clone(),
        output: m.output,
        dry_run: m.dry_run,
        cache: m.cache.then(cache_path).transpose()?,
        price: ask.budget.price,
        budget: ask.budget.clone(),
    };
    let batch = batch_options(m.batch, m.detach, m.attach, &options)?;
    if batch.is_some() {
        let b = &options.budget;
        if b.max_requests.is_some() || b.max_tokens.is_some() || b.max_cost.is_some() {
            diag(
                "gem-ask map: a batch job's requests are made at once: --max-requests, --max-tokens and --max-cost do not stop it",
            );
        }
        options.price = options.price.map(|p| p.batch());
        // A file each request would carry past the inline size of a job's
        // requests goes once through the Files API, not once a record.
        let most = batch.as_ref().map_or(BATCH_INLINE_MAX, |b| b.inline_max);
        for a in options
            .attachments
            .iter_mut()
            .filter(|a| a.file().is_some())
        {
            a.upload |= crate::provider::blob::encoded_len(a.size) > most;
        }
    }
    Ok((options, batch))
}

/// `-a`, checked as a one-shot checks it (exit 66 a file that cannot be
/// read, 65 one that cannot be sent); `-a -` only when the records are
/// not on stdin.
fn attachments_of(
    ask: &crate::agent::Options,
    files: &[PathBuf],
) -> anyhow::Result<Vec<crate::agent::attach::Attachment>> {
    let words = &ask.media.attach;
    let records_on_stdin = files.is_empty() || files.iter().any(|f| f.as_os_str() == "-");
    let stdin = if words.iter().any(|w| w == "-") {
        if records_on_stdin {
            return Err(coded(
                exit::USAGE,
                "gem-ask map: -a -: stdin holds the records; attach a file, or give the records as FILE",
            ));
        }
        let a = map::attached::stdin(ask.ask.provider)
            .map_err(|e| coded(e.exit_code(), format!("gem-ask map: {e}")))?;
        Some(a)
    } else {
        None
    };
    crate::agent::attach::send::open(words, ask.ask.provider, stdin)
        .map_err(|e| coded(e.exit_code(), format!("gem-ask map: {e}")))
}

/// The exit of a run that could not go on: a closed stdout is a quiet 0.
fn stopped_by(e: map::run::MapError) -> anyhow::Result<u8> {
    use map::run::MapError;
    let code = match &e {
        MapError::Io(io) if io.kind() == io::ErrorKind::BrokenPipe => return Ok(exit::OK),
        MapError::Clash { .. } => exit::USAGE,
        MapError::Batch(_) | MapError::Attachment(_) => exit::API,
        MapError::Waiting(_) => exit::INTERRUPTED,
        _ => exit::FAILURE,
    };
    Err(coded(code, format!("gem-ask map: {e}")))
}

/// The client of the run's provider and model.
fn client_of(options: &MapOptions) -> anyhow::Result<crate::provider::Client> {
    crate::agent::setup::check_base_url(&options.connection)?;
    let c = crate::agent::setup::make_client(options.provider, &options.model, &options.connection);
    c.map_err(|f| match f {
        crate::agent::outcome::Failure::NoKey => coded(
            exit::NO_API_KEY,
            "gem-ask map: no API key (set GEMINI_API_KEY, or the provider's key variable)",
        ),
        crate::agent::outcome::Failure::Setup(code, msg) => coded(code, msg),
        other => coded(exit::FAILURE, format!("{other:?}")),
    })
}

/// `--batch`, `--detach`, `--attach` resolved; `None` for an online run
/// (an OpenAI-compatible provider has no batch API: said, and run online).
fn batch_options(
    batch: bool,
    detach: bool,
    attach: Option<String>,
    o: &MapOptions,
) -> anyhow::Result<Option<BatchOptions>> {
    if !batch && attach.is_none() {
        return Ok(None);
    }
    if o.provider != crate::provider::ProviderKind::Gemini {
        if attach.is_some() || detach {
            return Err(coded(
                exit::USAGE,
                "gem-ask map: --attach and --detach need Gemini's Batch API; an OpenAI-compatible provider has none",
            ));
        }
        diag("gem-ask map: an OpenAI-compatible provider has no batch API; the requests go online");
        return Ok(None);
    }
    if o.dry_run {
        return Ok(None);
    }
    // The first poll waits as long as a first retry would, at least 5 s
    // against the real API (its jobs take minutes to hours).
    let poll = if o.connection.retry_base < std::time::Duration::from_millis(100) {
        o.connection.retry_base
    } else {
        o.connection
            .retry_base
            .max(std::time::Duration::from_secs(5))
    };
    let inline_max = std::env::var("GEMLINE_BATCH_INLINE_MAX")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(BATCH_INLINE_MAX);
    Ok(Some(BatchOptions {
        attach,
        detach,
        inline_max,
        poll,
    }))
}

/// Requests up to this many bytes go inline (the API takes 20 MB in all),
/// more in an uploaded file. Inline, the requests and the answers are held
/// whole, as JSON values, several times over: 100,000 small records (12 MB
/// of requests) peaked at 718 MB inline and 36 MB through a file, which was
/// faster too (benches/map.sh batch). So a file from 1 MB on.
const BATCH_INLINE_MAX: u64 = 1 << 20;

/// `--detach`: the job's name on stdout, how to collect it on stderr.
fn detached(made: Option<(String, u64)>) -> u8 {
    match made {
        Some((name, n)) => {
            let mut out = io::stdout().lock();
            let _ = writeln!(out, "{name}").and_then(|_| out.flush());
            diag(format!(
                "gem-ask map: batch {name} created with {n} requests; collect it with \
                 gem-ask map --attach {name} and the same options"
            ));
        }
        None => diag("gem-ask map: every record is already answered; no batch job created"),
    }
    exit::OK
}

/// What a run that could not send anything says about its input: none
/// came, or no record had what the template names.
fn input_note(sum: &map::Summary, o: &MapOptions) -> Option<String> {
    let inputs = if o.files.is_empty() {
        "stdin".to_string()
    } else {
        let names: Vec<String> = o.files.iter().map(|f| f.display().to_string()).collect();
        names.join(", ")
    };
    if sum.records == 0 && sum.bad_lines == 0 {
        return Some(format!(
            "gem-ask map: no records in {inputs} (empty input): nothing to send"
        ));
    }
    (sum.records > 0 && sum.unfilled == sum.records).then(|| {
        "gem-ask map: no record has the field(s) the template names (each line's error names \
         the one it lacks): check the template's {names} against the input's header or keys"
            .to_string()
    })
}

/// The run's counts on stderr, always.
fn summary_line(sum: &map::Summary) -> String {
    let cost = match sum.cost {
        Some(c) => format!("; ${c:.4}"),
        None => String::new(),
    };
    format!(
        "gem-ask map: {} records: {} answered ({} from the cache), {} failed, {} already in the output; \
         {} bad input lines; {} tokens in, {} out; {:.1}s{cost}",
        sum.records,
        sum.answered,
        sum.cached,
        sum.failed,
        sum.resumed,
        sum.bad_lines,
        sum.usage.prompt,
        sum.usage.candidates + sum.usage.thoughts,
        sum.elapsed.as_secs_f64()
    )
}

/// The run's file for `gem-ask log` in the sessions directory (not with
/// `--no-history`); a failure to write it is said, the run unaffected.
fn keep_for_the_log(
    options: &MapOptions,
    sum: &map::Summary,
    result: &serde_json::Value,
    ask: &crate::agent::Options,
) {
    if ask.conversation.no_history {
        return;
    }
    let Ok(dir) = &crate::agent::environ::get().sessions_dir else {
        return;
    };
    if let Err(e) = map::runlog::write(dir, options, sum, result) {
        diag(format!(
            "gem-ask map: the run was not kept for gem-ask log in {}: {e}",
            dir.display()
        ));
    }
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
