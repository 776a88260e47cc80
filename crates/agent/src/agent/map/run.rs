//! The scheduler of a map run, on threads: a reader renders each record
//! into its request and hands it to `jobs` workers over a bounded channel;
//! each worker makes one call (the client's retries and backoff, the
//! server's `Retry-After`/`RetryInfo` honoured) and hands the line back;
//! the writer puts lines out in input order (or as they finish with
//! `--unordered`), one whole line at a time, flushed. A window of tokens
//! bounds the records between reading and writing, so memory stays flat
//! whatever the input's length. The concurrency adapts: a retry on 429/503
//! halves the requests allowed in flight, each success adds one back, up to
//! `jobs` (additive increase, multiplicative decrease); `--rate N` spaces
//! the starts 60/N seconds apart. On a terminal, stderr shows the progress.

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::{Map, Value, json};

use super::attached::Attached;
use super::cache::Cache;
use super::gate::{Gate, Quiet};
use super::progress::Progress;
use super::records::{self, Item};
use super::spend::Spend;
use super::{MapOptions, Summary, Template, key_of, request_body};
use crate::agent::price::Price;
use crate::provider::{Client, GenError, Usage};

/// A record's request, on its way to a worker.
struct Job {
    index: u64,
    fields: Map<String, Value>,
    body: Value,
    key: String,
    /// Where the record came from (`file:line`), for its error's message.
    place: String,
}

/// A record's answer (its text and usage), or its error's type and message.
pub type Answered = Result<(String, Usage), (&'static str, String)>;

/// Where the answers come from.
pub enum Source<'a> {
    /// One request a record, sent now.
    Online(Client),
    /// The answers of a Batch API job, by key.
    Batch(&'a dyn Answers),
    /// `--count-tokens`: each request counted by Gemini's `countTokens`
    /// (its tokens as the usage's prompt), none answered.
    Count(Client),
}

/// Answers kept by key (a batch job's).
pub trait Answers: Sync {
    fn get(&self, key: &str) -> Answered;
}

impl Source<'_> {
    /// The answer of `job`: its text and usage, or its error's type and
    /// message.
    fn answer(&self, key: &str, body: Value, gate: &Gate, att: &Attached) -> Answered {
        match self {
            Source::Online(client) => {
                let since = gate.enter();
                let mut obs = Quiet {
                    gate,
                    away: false,
                    since,
                };
                let r = client.generate_with(att.wire(body), &att.blobs, &mut obs);
                // Stopped while waiting to retry: its place was given back.
                if !obs.away {
                    gate.leave(r.is_ok());
                }
                r.map(|t| (t.text().unwrap_or_default(), t.usage))
                    .map_err(|e| (error_type(&e), e.to_string()))
            }
            Source::Batch(answers) => answers.get(key),
            Source::Count(client) => {
                let _ = gate.enter();
                let r = crate::provider::models::count_tokens(client, att.wire(body), &att.blobs);
                gate.leave(r.is_ok());
                let usage = |n: u64| Usage {
                    prompt: n,
                    total: n,
                    ..Usage::default()
                };
                r.map(|c| (String::new(), usage(c.total)))
                    .map_err(|e| (error_type(&e), e.to_string()))
            }
        }
    }
}

/// A record's line, on its way to the writer.
struct Line {
    index: u64,
    line: Value,
    usage: Usage,
    ok: bool,
    /// Answered from `--cache`.
    cached: bool,
    /// The template could not be filled from the record.
    unfilled: bool,
}

/// What reaches the writer.
enum Done {
    Line(Line),
    /// A record resumed from `--output`: no line, but its place in order.
    Skip(u64),
    Bad,
}

/// Why a run did not start.
#[derive(Debug, thiserror::Error)]
pub enum MapError {
    /// The schema's fields and the record's share a name (exit 2).
    #[error("{place}: the record's field(s) {} are also the schema's: rename them in the input or the schema", .names.join(", "))]
    Clash { place: String, names: Vec<String> },
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error("the cache {0}: {1}")]
    Cache(String, rusqlite::Error),
    /// A Batch API call failed (exit 4).
    #[error("{0}")]
    Batch(GenError),
    /// An attachment could not be made ready (read, uploaded) (exit 4).
    #[error("{0}")]
    Attachment(GenError),
    /// A signal came while the batch job ran: it goes on without us.
    #[error(
        "stopped waiting for batch {0}; it goes on: collect it with gem-ask map --attach {0} and the same options"
    )]
    Waiting(String),
}

/// The records of the inputs; with a schema, the first record's fields
/// checked against it before any request.
pub(super) fn checked_records(
    o: &MapOptions,
) -> Result<std::iter::Peekable<impl Iterator<Item = Item> + Send + use<>>, MapError> {
    let mut items = records::read_all(&o.files, o.format, o.stdin_copy.as_deref()).peekable();
    if let Some(schema) = &o.schema {
        let first = items.peek().and_then(|i| match i {
            Item::Record { place, fields } => Some((place, fields)),
            Item::Bad { .. } => None,
        });
        if let Some((place, fields)) = first {
            let names: Vec<String> = fields.keys().cloned().collect();
            let names = super::schema_clashes(schema, &names);
            if !names.is_empty() {
                return Err(MapError::Clash {
                    place: place.clone(),
                    names,
                });
            }
        }
    }
    Ok(items)
}

/// The cache of `--cache`, opened.
pub(super) fn open_cache(o: &MapOptions) -> Result<Option<Cache>, MapError> {
    match &o.cache {
        Some(p) => {
            Ok(Some(Cache::open(p).map_err(|e| {
                MapError::Cache(p.display().to_string(), e)
            })?))
        }
        None => Ok(None),
    }
}

/// Runs the map; lines go to `out`. `done` holds the keys already written.
/// Without a source (`--dry-run`) each record's request is its line.
pub fn run(
    o: &MapOptions,
    template: &Template,
    source: Option<Source<'_>>,
    done: HashSet<String>,
    out: &mut dyn Write,
) -> Result<Summary, MapError> {
    let start = Instant::now();
    let items = checked_records(o)?;
    let jobs = o.jobs.max(1);
    let window = jobs * 64;
    let (tokens_tx, tokens_rx) = sync_channel::<()>(window);
    for _ in 0..window {
        tokens_tx.send(()).expect("the receiver is here");
    }
    let (job_tx, job_rx) = sync_channel::<Job>(jobs);
    let (done_tx, done_rx) = sync_channel::<Done>(window);
    let job_rx = Arc::new(Mutex::new(job_rx));
    let gate = &Gate::new(jobs, o.rate);
    let cache = open_cache(o)?;
    let cache = cache.as_ref();
    // The caps bound the requests sent now; a batch job's were all made.
    let caps = match &source {
        Some(Source::Online(_)) => o.budget.clone(),
        _ => Default::default(),
    };
    let spend = Spend::new(caps);
    let spend = &spend;
    let att = match &source {
        Some(Source::Online(c) | Source::Count(c)) => prepared(o, c)?,
        _ => Attached::default(),
    };
    let att = &att;
    std::thread::scope(|s| {
        let reader_done = done_tx.clone();
        s.spawn(move || read(o, items, template, &done, tokens_rx, job_tx, reader_done));
        if let Some(source) = &source {
            for _ in 0..jobs {
                let (rx, tx) = (job_rx.clone(), done_tx.clone());
                let ctx = Ctx {
                    o,
                    gate,
                    cache,
                    spend,
                    att,
                };
                s.spawn(move || work(source, &ctx, &rx, &tx));
            }
        }
        // Only the workers hold the jobs' end: if they stop, the reader does.
        drop(job_rx);
        drop(done_tx);
        let r = write(o, done_rx, &tokens_tx, out);
        // A closed output: let the reader and workers run dry.
        drop(tokens_tx);
        r.map_err(MapError::from)
    })
    .map(|mut sum| {
        sum.elapsed = start.elapsed();
        sum.capped = spend.capped();
        sum
    })
}

/// The reader: each input item in turn, a window token taken for each.
fn read(
    o: &MapOptions,
    items: impl Iterator<Item = Item>,
    template: &Template,
    done: &HashSet<String>,
    tokens: Receiver<()>,
    jobs: SyncSender<Job>,
    lines: SyncSender<Done>,
) {
    let mut index = 0u64;
    for item in items {
        if crate::agent::signals::received().is_some() {
            return;
        }
        let (place, fields) = match item {
            Item::Bad { place, message } => {
                crate::term::diag(format!("gem-ask map: {place}: {message}; line skipped"));
                if lines.send(Done::Bad).is_err() {
                    return;
                }
                continue;
            }
            Item::Record { place, fields } => (place, fields),
        };
        if tokens.recv().is_err() {
            return;
        }
        let i = index;
        index += 1;
        let sent = match template.render(&fields) {
            Err(e) => {
                let line = failed(fields, None, "template", &format!("{place}: {e}"));
                let mut line = Line::new(i, line, false);
                line.unfilled = true;
                lines.send(Done::Line(line)).is_ok()
            }
            Ok(prompt) => {
                let body = request_body(o, &prompt);
                let key = key_of(&o.model, &body);
                if done.contains(&key) {
                    lines.send(Done::Skip(i)).is_ok()
                } else if o.dry_run {
                    let mut line = fields;
                    line.insert("request".into(), body);
                    line.insert("_key".into(), key.into());
                    lines
                        .send(Done::Line(Line::new(i, line.into(), true)))
                        .is_ok()
                } else {
                    let job = Job {
                        index: i,
                        fields,
                        body,
                        key,
                        place,
                    };
                    jobs.send(job).is_ok()
                }
            }
        };
        if !sent {
            return;
        }
    }
}

/// The run's attachments made ready once (uploaded, read), before any
/// record's request; what could not be sent as asked is said.
pub(super) fn prepared(o: &MapOptions, client: &Client) -> Result<Attached, MapError> {
    let (att, warnings) =
        Attached::prepare(&o.attachments, client, o.provider).map_err(MapError::Attachment)?;
    for w in warnings {
        crate::term::diag(format!("gem-ask map: warning: {w}"));
    }
    Ok(att)
}

/// What every worker shares.
struct Ctx<'a> {
    o: &'a MapOptions,
    gate: &'a Gate,
    cache: Option<&'a Cache>,
    spend: &'a Spend,
    att: &'a Attached,
}

/// A worker: one answer a job (from the cache, else the source), its
/// line to the writer.
fn work(source: &Source<'_>, ctx: &Ctx<'_>, jobs: &Mutex<Receiver<Job>>, lines: &SyncSender<Done>) {
    let Ctx {
        o,
        gate,
        cache,
        spend,
        att,
    } = *ctx;
    // A count is no answer: neither kept nor taken from the cache.
    let counting = matches!(source, Source::Count(_));
    let cache = cache.filter(|_| !counting);
    loop {
        let job = match jobs.lock().expect("no worker panics holding it").recv() {
            Ok(j) => j,
            Err(_) => return,
        };
        let kept = cache.and_then(|c| c.get(&job.key));
        let cached = kept.is_some();
        let result = match kept {
            Some(text) => Ok((text, Usage::default())),
            None => spend.reserve().and_then(|()| {
                let r = source.answer(&job.key, job.body, gate, att);
                spend.settle(r.as_ref().ok().map(|a| a.1));
                r
            }),
        };
        let (line, usage, ok) = match result {
            Ok((text, usage)) => {
                if let Some(c) = cache.filter(|_| !cached) {
                    c.put(&job.key, &text);
                }
                if counting {
                    (counted(job.fields, usage.prompt, &job.key), usage, true)
                } else {
                    match answered(job.fields, text, o.schema.is_some(), &job.key, &job.place) {
                        Ok(l) => (l, usage, true),
                        Err(l) => (l, usage, false),
                    }
                }
            }
            Err((kind, message)) => (
                failed(
                    job.fields,
                    Some(&job.key),
                    kind,
                    &format!("{}: {message}", job.place),
                ),
                Usage::default(),
                false,
            ),
        };
        let line = Line {
            index: job.index,
            line,
            usage,
            ok,
            cached,
            unfilled: false,
        };
        if lines.send(Done::Line(line)).is_err() {
            return;
        }
    }
}

impl Line {
    /// A line that made no request.
    fn new(index: u64, line: Value, ok: bool) -> Line {
        Line {
            index,
            line,
            usage: Usage::default(),
            ok,
            cached: false,
            unfilled: false,
        }
    }
}

/// A record's line from its answer: `answer`, or the schema's fields.
fn answered(
    mut fields: Map<String, Value>,
    text: String,
    schema: bool,
    key: &str,
    place: &str,
) -> Result<Value, Value> {
    if schema {
        match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(m)) => fields.extend(m),
            _ => {
                let msg = format!(
                    "{place}: the answer is not a JSON object matching the schema (a rerun asks again)"
                );
                return Err(failed(fields, Some(key), "schema", &msg));
            }
        }
    } else {
        fields.insert("answer".into(), text.into());
    }
    fields.insert("_key".into(), key.into());
    Ok(fields.into())
}

/// A record's line under `--count-tokens`: its fields and `tokens`, the
/// count of its request.
fn counted(mut fields: Map<String, Value>, tokens: u64, key: &str) -> Value {
    fields.insert("tokens".into(), tokens.into());
    fields.insert("_key".into(), key.into());
    fields.into()
}

/// A failed record's line: its fields and `error` {type, message}. Without
/// a key (the template could not be filled) a rerun tries it again.
fn failed(mut fields: Map<String, Value>, key: Option<&str>, kind: &str, message: &str) -> Value {
    fields.insert("error".into(), json!({"type": kind, "message": message}));
    if let Some(k) = key {
        // A failed line is not a done record: a rerun tries it again.
        fields.insert("_failed_key".into(), k.into());
    }
    fields.into()
}

pub(super) fn error_type(e: &GenError) -> &'static str {
    match e {
        GenError::Api(a) if a.code == 429 => "rate_limited",
        GenError::Api(_) => "api",
        GenError::Connection(_) | GenError::ConnectionFatal(_) => "connection",
        GenError::StreamCut(_) => "stream_cut",
        GenError::Blocked(_) => "blocked",
        GenError::Interrupted => "interrupted",
        _ => "other",
    }
}

/// The writer: lines in order (or as they come), each whole and flushed.
fn write(
    o: &MapOptions,
    lines: Receiver<Done>,
    tokens: &SyncSender<()>,
    out: &mut dyn Write,
) -> std::io::Result<Summary> {
    let mut sum = Summary {
        cost: o.price.map(|_| 0.0),
        ..Summary::default()
    };
    let mut next = 0u64;
    let mut waiting: BTreeMap<u64, Option<Value>> = BTreeMap::new();
    let mut progress = Progress::new(&o.files);
    for d in lines {
        progress.show(&sum);
        let (i, line) = match d {
            Done::Bad => {
                sum.bad_lines += 1;
                continue;
            }
            Done::Skip(i) => {
                sum.resumed += 1;
                (i, None)
            }
            Done::Line(l) => {
                count(&mut sum, o.price.as_ref(), &l);
                (l.index, Some(l.line))
            }
        };
        sum.records += 1;
        if o.unordered {
            put(out, line.as_ref())?;
            let _ = tokens.try_send(());
            continue;
        }
        waiting.insert(i, line);
        while let Some(line) = waiting.remove(&next) {
            put(out, line.as_ref())?;
            next += 1;
            let _ = tokens.try_send(());
        }
    }
    progress.clear();
    Ok(sum)
}

/// A line's counts, tokens and cost into the summary.
fn count(sum: &mut Summary, price: Option<&Price>, l: &Line) {
    sum.usage.add(l.usage);
    if let (Some(cost), Some(p)) = (sum.cost.as_mut(), price) {
        *cost += p.cost(&l.usage);
    }
    if l.ok {
        sum.answered += 1
    } else {
        sum.failed += 1
    }
    if l.cached {
        sum.cached += 1
    }
    if l.unfilled {
        sum.unfilled += 1
    }
}

fn put(out: &mut dyn Write, line: Option<&Value>) -> std::io::Result<()> {
    let Some(line) = line else { return Ok(()) };
    let mut bytes = serde_json::to_vec(line).expect("a JSON value always serializes");
    bytes.push(b'\n');
    out.write_all(&bytes)?;
    out.flush()
}
