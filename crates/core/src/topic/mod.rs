//! `topic-tag` and the chapter ("topic") logic gem-ask shares: turning
//! `create_new_topic` calls into `topic` events, putting a turn's topic
//! ahead of its other calls, stamping every event with the active chapter,
//! the `[Active Topic: ...]` prompt footer and reading a session's active
//! topic. The stream work is in [`tagger`] (pure, byte slices in), the line
//! inspection in [`peek`], the chapter counts in [`summary`]; this file
//! wires them to files, threads and stdout.
//!
//! Flushing: into a terminal every event is flushed; into a pipe or file,
//! output is flushed whenever the input has nothing more ready (the reader
//! thread's channel is empty), not per event. A live stream (gem-ask,
//! gemini-cli) goes quiet between events, so each of its events still
//! reaches the next filter at once, with the same latency as a flush per
//! event; a file or a burst goes out in 64 KiB writes, which is what keeps
//! topic-tag above 500k events/s (a flush per event is a write syscall per
//! event and costs several times that).

mod lines;
pub mod peek;
pub mod summary;
pub mod tagger;

use std::io::{self, BufRead, BufReader, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{RecvTimeoutError, TryRecvError};
use std::time::Duration;

use regex::Regex;
use serde_json::Value;

pub use summary::{Chapter, Summary};
pub use tagger::{CREATE_NEW_TOPIC, Options, Tagger, normalize_title, split_title};

use crate::events::{Event, EventWriter, now_rfc3339};
use crate::session;
use crate::term::{self, Chunk, exit};

/// What `--summary` prints at the end of the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SummaryMode {
    /// One `topic_summary` event on stdout.
    Event,
    /// The `topic_summary` event, and a table of the chapters on stderr.
    Table,
}

/// How `topic-tag` runs over a stream (its flags, resolved).
#[derive(Debug, Clone)]
pub struct StreamOptions {
    /// The inputs, one stream; none is stdin.
    pub inputs: Vec<PathBuf>,
    /// `--wrap`: the input is plain text lines.
    pub wrap: bool,
    /// `--split`: a line that opens a chapter.
    pub split: Option<Regex>,
    /// `--error`: a line that is an error event.
    pub error: Option<Regex>,
    pub strict: bool,
    pub summary: Option<SummaryMode>,
    /// `--hold-ms`.
    pub hold: Duration,
}

/// `topic-tag TITLE`: one topic event, stamped with the time.
pub fn print_title(title: &str) -> anyhow::Result<u8> {
    if title.trim().is_empty() {
        return Err(term::coded(exit::USAGE, "TITLE must not be empty"));
    }
    let mut event = Event::topic(title, None);
    event.set("timestamp", now_rfc3339());
    let mut w = EventWriter::new(io::BufWriter::new(io::stdout().lock()));
    w.write(&event)?;
    Ok(exit::OK)
}

/// `--current`: the session's active topic as the footer's first line.
/// `sessions_dir` is [`session::sessions_dir`] as the front found it (an
/// error is told only for a valid id).
pub fn print_current(
    session: Option<&str>,
    sessions_dir: anyhow::Result<PathBuf>,
) -> anyhow::Result<u8> {
    // `--session "$GEMINI_SESSION_ID"` with the variable unset passes "":
    // that is no session, not a bad one.
    let id = session.filter(|s| !s.trim().is_empty()).ok_or_else(|| {
        term::coded(
            exit::USAGE,
            "--current needs a session: give --session ID or set GEMINI_SESSION_ID",
        )
    })?;
    let path = session_path(id, sessions_dir)?;
    let topic = read_active_topic(&path).map_err(|e| {
        term::coded(
            exit::NO_INPUT,
            format!("cannot read session {id:?} at {}: {e}", path.display()),
        )
    })?;
    if let Some(title) = topic {
        let mut out = io::BufWriter::new(io::stdout().lock());
        writeln!(out, "{}", active_topic_line(&title))?;
        out.flush()?;
    }
    Ok(exit::OK)
}

/// Where gem-ask keeps session `id` in `sessions_dir`: the path gem-ask
/// itself uses ([`session::sessions_dir`], resolved by the front:
/// `$XDG_DATA_HOME/gemline/sessions/ID.jsonl`), and only for an id gem-ask
/// accepts ([`session::valid_id`]); anything else, a path in particular,
/// is refused (exit 2).
pub fn session_path(id: &str, sessions_dir: anyhow::Result<PathBuf>) -> anyhow::Result<PathBuf> {
    if !session::valid_id(id) {
        return Err(term::coded(
            exit::USAGE,
            format!(
                "bad session id {id:?}: expected letters, digits, `.`, `_` and `-` (not starting \
                 with `.`, at most 128 bytes), as gem-ask prints in its `init` event"
            ),
        ));
    }
    Ok(sessions_dir?.join(format!("{id}.jsonl")))
}

/// The active topic of a session file, read as gem-ask reads it
/// ([`session::load`]): the `title` of the last line with
/// `"record":"topic"`, none when that title is empty. Lines that are not
/// JSON objects are skipped (the writer may be mid-line); `Ok(None)` when
/// the session has no topic yet. Streams the file: a long session costs
/// no memory.
pub fn read_active_topic(session_path: &Path) -> io::Result<Option<String>> {
    // Not a FIFO or device, not past the size cap: the reader is bounded.
    let Some(file) = session::open_for_reading(session_path)? else {
        return Err(io::Error::from_raw_os_error(libc::ENOENT));
    };
    let mut input = BufReader::new(file.take(session::MAX_SESSION_BYTES));
    let mut active = None;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            return Ok(active);
        }
        // Cheap filter first: most records are turns, not topics.
        if !buf.windows(7).any(|w| w == b"\"topic\"") {
            continue;
        }
        let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(&buf) else {
            continue;
        };
        if map.get("record").and_then(Value::as_str) == Some("topic") {
            active = map
                .get("title")
                .and_then(Value::as_str)
                .filter(|t| !t.is_empty())
                .map(str::to_string);
        }
    }
}

/// `[Active Topic: TITLE]`, on one line whatever the title holds (it goes
/// into prompts and terminals): line breaks become spaces, other control
/// characters are dropped.
pub fn active_topic_line(title: &str) -> String {
    let clean: String = title
        .chars()
        .filter_map(|c| match c {
            '\n' | '\r' | '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    format!("[Active Topic: {}]", clean.trim())
}

/// The end of gem-ask's system instruction while a topic is active: the
/// `[Active Topic: ...]` line and the mandate of the topic grouping design
/// (the rest of its guidance, major steps and forward-only, is in the
/// system prompt's tool guidance). The same text gem-ask sends, made safe
/// for a prompt: the title on one line, without control characters.
pub fn active_topic_footer(title: &str) -> String {
    format!(
        "{}\nIf the current active topic no longer describes your current phase of work, \
         use {CREATE_NEW_TOPIC} to start a new chapter.",
        active_topic_line(title)
    )
}

/// What `create_new_topic` answers the model: one line, as in the topic
/// grouping design (`Topic changed to: "${title}"`).
pub fn topic_changed_output(title: &str) -> String {
    format!("Topic changed to: \"{title}\"")
}

/// Puts the topic calls of one turn first, keeping the order within each
/// group (a stable partition), so the chapter opens before the turn's
/// actions.
pub fn order_calls_topic_first<T>(calls: &mut Vec<T>, is_topic: impl Fn(&T) -> bool) {
    let (mut topics, rest): (Vec<T>, Vec<T>) = calls.drain(..).partition(|c| is_topic(c));
    topics.extend(rest);
    *calls = topics;
}

/// `topic-tag` over a stream: chapters made, ordered and stamped.
pub fn run_stream(args: StreamOptions) -> anyhow::Result<u8> {
    // Every input is opened before any output, so a missing file is exit
    // 66 with nothing half-written.
    let sources = term::open_inputs(&args.inputs)?;
    let stdout = io::stdout();
    let opts = Options {
        wrap: args.wrap,
        split: args.split,
        error: args.error,
        strict: args.strict,
        summary: args.summary.is_some(),
        flush_each: stdout.is_terminal(),
    };
    let out = io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let mut tagger = Tagger::new(out, opts);
    let hold = args.hold;
    let (rx, recycle) = term::spawn_reader(sources);
    loop {
        let msg = match rx.try_recv() {
            Ok(m) => m,
            Err(TryRecvError::Disconnected) => break,
            Err(TryRecvError::Empty) => {
                // The reader would block: whatever is written must be seen.
                tagger.flush()?;
                let next = if tagger.has_held() {
                    match rx.recv_timeout(hold) {
                        Ok(m) => Ok(m),
                        Err(RecvTimeoutError::Disconnected) => break,
                        Err(RecvTimeoutError::Timeout) => {
                            tagger.idle()?;
                            rx.recv()
                        }
                    }
                } else {
                    rx.recv()
                };
                match next {
                    Ok(m) => m,
                    Err(_) => break,
                }
            }
        };
        match msg {
            Chunk::Start(name) => tagger.start_input(&name)?,
            Chunk::Data(buf) => {
                tagger.feed(&buf)?;
                let _ = recycle.send(buf);
            }
            Chunk::Failed(name, e) => {
                tagger.idle()?;
                return Err(anyhow::Error::new(e).context(format!("reading {name}")));
            }
        }
    }
    let (_, summary) = tagger.finish()?;
    if args.summary == Some(SummaryMode::Table)
        && let Some(s) = summary
    {
        term::diag(s.to_table());
    }
    Ok(exit::OK)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topic_calls_go_first_stably() {
        let mut calls = vec!["a", "T1", "b", "T2", "c"];
        order_calls_topic_first(&mut calls, |c| c.starts_with('T'));
        assert_eq!(calls, ["T1", "T2", "a", "b", "c"]);
    }

    #[test]
    fn footer_names_the_topic_on_one_line() {
        let f = active_topic_footer("Charting\nnow\x1b[2J");
        assert!(f.starts_with("[Active Topic: Charting now[2J]\n"), "{f}");
        assert!(f.ends_with("use create_new_topic to start a new chapter."));
        assert_eq!(f.lines().count(), 2);
    }

    #[test]
    fn confirmation_quotes_the_title() {
        assert_eq!(
            topic_changed_output("Charting"),
            "Topic changed to: \"Charting\""
        );
    }

    #[test]
    fn session_ids_are_names_not_paths() {
        for bad in ["", "../x", "a/b", ".hidden", "a\nb", "a b"] {
            assert!(session_path(bad, Ok("/s".into())).is_err(), "{bad:?}");
        }
        assert!(session_path("20261122-022606-0a1b2c", Ok("/s".into())).is_ok());
    }

    /// topic-tag --current and gem-ask must agree on a session's topic:
    /// the same file read both ways.
    #[test]
    fn active_topic_agrees_with_gem_asks_session_reader() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/topic");
        for (name, want) in [
            ("session.jsonl", Some("Charting")),
            ("session-no-topic.jsonl", None),
        ] {
            let p = dir.join(name);
            let ours = read_active_topic(&p).unwrap();
            assert_eq!(ours.as_deref(), want, "{name}");
            assert_eq!(ours, session::load(&p).unwrap().topic, "{name}");
        }
        let tmp = std::env::temp_dir().join(format!("topic-empty-{}.jsonl", std::process::id()));
        std::fs::write(
            &tmp,
            "{\"record\":\"topic\",\"title\":\"A\"}\n{\"record\":\"topic\",\"title\":\"\"}\n",
        )
        .unwrap();
        assert_eq!(read_active_topic(&tmp).unwrap(), None);
        assert_eq!(session::load(&tmp).unwrap().topic, None);
        std::fs::remove_file(&tmp).ok();
    }
}
