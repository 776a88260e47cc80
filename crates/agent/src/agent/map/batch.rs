//! `gem-ask map --batch`: the same run through Gemini's Batch API. The
//! records are rendered into the same requests as online, keyed by the
//! same hash; those already in `--output` or in `--cache` are left out,
//! and a request two records share is sent once. Up to `inline_max` bytes
//! of requests go inline in the create call, more go in a JSONL file
//! uploaded through the Files API. The job is polled (its counts on
//! stderr) until it ends; its answers, by key, then feed the same
//! pipeline as an online run ([`super::run::Source::Batch`]), so the lines
//! are the online run's. A job that failed, was cancelled or expired makes
//! each of its records a failed line (a rerun sends them again). With
//! `--detach` the job's name is the result; `--attach NAME` collects it.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Seek, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::collected::{Builder, Collected};
use super::records::Item;
use super::run::{Answered, MapError, Source, checked_records, open_cache};
use super::{MapOptions, Summary, Template, key_of, request_body};
use crate::provider::batch::{self, Job, Output, Request, State};
use crate::provider::{Client, GenError};

/// `--batch`, `--detach`, `--attach`, resolved.
#[derive(Debug, Clone)]
pub struct BatchOptions {
    /// `--attach NAME`: collect this job instead of creating one.
    pub attach: Option<String>,
    /// `--detach`: create the job, say its name, and stop.
    pub detach: bool,
    /// Requests up to this many bytes go inline, more in a file.
    pub inline_max: u64,
    /// The first wait between two polls of the job (doubled up to a minute).
    pub poll: Duration,
}

/// What a batch run came to.
pub enum BatchRun {
    /// `--detach`: the job's name and its number of requests (`None`: there
    /// was nothing to send).
    Detached(Option<(String, u64)>),
    /// The job's answers written out, as an online run writes them.
    Done(Summary, Option<String>),
}

/// Runs `--batch` (create, or `--attach`; wait; collect; write).
pub fn run(
    o: &MapOptions,
    b: &BatchOptions,
    template: &Template,
    client: &Client,
    done: HashSet<String>,
    out: &mut dyn Write,
) -> Result<BatchRun, MapError> {
    // The records are read twice (the requests, then the lines): stdin is
    // kept in a file for the second reading.
    let spooled = spool_stdin(o, b)?;
    let with_file;
    let o = match &spooled {
        Some(f) => {
            with_file = MapOptions {
                files: vec![f.path().to_path_buf()],
                stdin_copy: Some(f.path().to_path_buf()),
                ..o.clone()
            };
            &with_file
        }
        None => o,
    };
    let name = match &b.attach {
        Some(n) => Some(batch::full_name(n)),
        None => {
            let made = submit(o, b, template, client, &done)?;
            if b.detach {
                return Ok(BatchRun::Detached(made));
            }
            made.map(|(n, _)| n)
        }
    };
    let collected = match &name {
        Some(n) => {
            let job = wait(client, n, b.poll)?;
            collect(client, &job)?
        }
        None => Collected::none(("batch", "no batch job was made for it".into()))?,
    };
    let sum = super::run::run(o, template, Some(Source::Batch(&collected)), done, out)?;
    Ok(BatchRun::Done(sum, name))
}

/// Stdin copied into a file, when the records come from it and a job is
/// made here (`--attach` reads them once).
fn spool_stdin(
    o: &MapOptions,
    b: &BatchOptions,
) -> Result<Option<tempfile::NamedTempFile>, MapError> {
    let stdin = o.files.is_empty() || o.files.iter().any(|f| f.as_os_str() == "-");
    if !stdin || b.attach.is_some() || b.detach {
        return Ok(None);
    }
    if o.files.len() > 1 {
        return Err(MapError::Io(std::io::Error::other(
            "--batch reads stdin alone, not with files: give the files",
        )));
    }
    let mut f = tempfile::NamedTempFile::new()?;
    std::io::copy(&mut std::io::stdin().lock(), f.as_file_mut())?;
    f.as_file().sync_all()?;
    Ok(Some(f))
}

/// Renders the records not yet answered into a job's requests and creates
/// the job: its name and number of requests, or `None` when none was left.
fn submit(
    o: &MapOptions,
    b: &BatchOptions,
    template: &Template,
    client: &Client,
    done: &HashSet<String>,
) -> Result<Option<(String, u64)>, MapError> {
    let cache = open_cache(o)?;
    // Uploaded or read once; each request carries them as sent online.
    let att = super::run::prepared(o, client)?;
    let mut seen = HashSet::new();
    let mut file = tempfile::tempfile()?;
    let mut lines = std::io::BufWriter::new(&mut file);
    let (mut count, mut bytes) = (0u64, 0u64);
    for item in checked_records(o)? {
        let Item::Record { fields, .. } = item else {
            continue;
        };
        // A record the template cannot fill is its error line at collection.
        let Ok(prompt) = template.render(&fields) else {
            continue;
        };
        let body = request_body(o, &prompt);
        let key = key_of(&o.model, &body);
        let kept = cache.as_ref().is_some_and(|c| c.get(&key).is_some());
        if done.contains(&key) || kept || !seen.insert(key.clone()) {
            continue;
        }
        let body = client.provider().body(att.wire(body), &o.model);
        let line = batch::file_line(&Request { key, body }).to_string();
        // An inline attachment's base64 written into the line.
        let line = att.blobs.splice(line.into_bytes())?;
        bytes += line.len() as u64 + 1;
        count += 1;
        lines.write_all(&line)?;
        lines.write_all(b"\n")?;
    }
    lines.flush()?;
    drop(lines);
    if count == 0 {
        return Ok(None);
    }
    let display = format!(
        "gem-ask-map-{}",
        &key_of(&o.model, &o.template.as_str().into())[..12]
    );
    let create_body = if bytes <= b.inline_max {
        file.rewind()?;
        let requests = BufReader::new(&mut file)
            .lines()
            .map(|l| {
                let v: Value = serde_json::from_str(&l?).map_err(std::io::Error::other)?;
                Ok(Request {
                    key: v["key"].as_str().unwrap_or_default().to_string(),
                    body: v["request"].clone(),
                })
            })
            .collect::<std::io::Result<Vec<Request>>>()?;
        batch::inline_body(&display, &requests)
    } else {
        let uploaded = upload(client, &mut file, bytes, &display)?;
        batch::file_body(&display, &uploaded)
    };
    let job = batch::create(client.transport(), &o.model, &create_body, &client.retry)
        .map_err(MapError::Batch)?;
    Ok(Some((job.name, count)))
}

/// Uploads the requests' file through the Files API; its `files/ID`.
fn upload(
    client: &Client,
    file: &mut std::fs::File,
    size: u64,
    display: &str,
) -> Result<String, MapError> {
    let mut tmp = tempfile::NamedTempFile::new()?;
    file.rewind()?;
    std::io::copy(file, tmp.as_file_mut())?;
    tmp.as_file().sync_all()?;
    let up = crate::provider::files::Upload {
        path: tmp.path(),
        size,
        mime: "application/jsonl",
        display_name: display,
    };
    let uploaded =
        crate::provider::files::upload(client.transport(), &up, &client.retry, Arc::new(Quiet))
            .map_err(MapError::Batch)?;
    Ok(uploaded.name)
}

/// An upload's progress: not shown; a signal stops it.
struct Quiet;

impl crate::provider::files::Progress for Quiet {
    fn sent(&self, _sent: u64, _total: u64) {}

    fn interrupted(&self) -> bool {
        crate::agent::signals::received().is_some()
    }
}

/// Polls the job until it ends; its state on stderr when it changes (on a
/// terminal, its counts as they move).
fn wait(client: &Client, name: &str, first: Duration) -> Result<Job, MapError> {
    use std::io::IsTerminal;
    let tty = std::io::stderr().is_terminal();
    let mut said = None;
    let mut step = first;
    loop {
        let job = batch::get(client.transport(), name, &client.retry).map_err(MapError::Batch)?;
        let s = &job.stats;
        if said.as_ref() != Some(&job.state) {
            crate::term::diag(format!(
                "gem-ask map: batch {}: {} ({} requests)",
                job.name,
                job.state.word(),
                s.requests
            ));
            said = Some(job.state.clone());
        } else if tty {
            let _ = write!(
                std::io::stderr(),
                "\r\x1b[Kgem-ask map: batch {}: {}/{} done, {} failed",
                job.name,
                s.succeeded + s.failed,
                s.requests,
                s.failed
            );
        }
        if job.state.ended() {
            return Ok(job);
        }
        let until = Instant::now() + step;
        while Instant::now() < until {
            if crate::agent::signals::received().is_some() {
                return Err(MapError::Waiting(name.to_string()));
            }
            std::thread::sleep((until - Instant::now()).min(Duration::from_millis(50)));
        }
        step = (step * 2).min(Duration::from_secs(60));
    }
}

/// The answers of a job that ended.
fn collect(client: &Client, job: &Job) -> Result<Collected, MapError> {
    let name = &job.name;
    let why = job.error.as_deref().unwrap_or("no reason given");
    let kind = match job.state {
        State::Succeeded => "batch_missing",
        State::Expired => "batch_expired",
        State::Cancelled => "batch_cancelled",
        _ => "batch_failed",
    };
    let missing = if job.state == State::Succeeded {
        let m = format!(
            "batch {name} has no answer for this record (made from other records or options?)"
        );
        (kind, m)
    } else {
        let m = format!(
            "batch {name} {}: {why}; a rerun sends it again",
            job.state.word()
        );
        (kind, m)
    };
    // The answers go to disk as they are read, not into memory.
    let mut answers = Builder::new()?;
    let mut take = |item: &Value| -> std::io::Result<()> {
        match batch::answer_of(item) {
            Some(a) => answers.add(&a.key, &turn_of(client, a.result)),
            None => Ok(()),
        }
    };
    match (&job.state, &job.output) {
        (State::Succeeded, Some(Output::Inline(items))) => items.iter().try_for_each(&mut take)?,
        (State::Succeeded, Some(Output::File(f))) => {
            let mut tmp = tempfile::tempfile()?;
            batch::download(client.transport(), f, &mut tmp, &client.retry)
                .map_err(MapError::Batch)?;
            tmp.rewind()?;
            for line in BufReader::new(tmp).lines() {
                if let Ok(v) = serde_json::from_str::<Value>(&line?) {
                    take(&v)?;
                }
            }
        }
        _ => {}
    }
    Ok(answers.finish(missing)?)
}

/// A batch answer as an online call's: the response folded as one chunk
/// of a stream, so its text and usage are read by the same code.
fn turn_of(client: &Client, r: Result<Value, String>) -> Answered {
    let response = r.map_err(|m| ("api", m))?;
    let fold = || -> Result<crate::provider::Turn, GenError> {
        let mut f = client.provider().stream();
        f.push(&response.to_string())?;
        f.finish()
    };
    match fold() {
        Ok(t) => Ok((t.text().unwrap_or_default(), t.usage)),
        Err(e) => Err((super::run::error_type(&e), e.to_string())),
    }
}
