//! Conversation sessions: the history `gem-ask` resends on a follow-up,
//! stored under the XDG data directory as
//! `$XDG_DATA_HOME/gemline/sessions/ID.jsonl`.
//!
//! The file is append-only JSON lines, one object per line with a `record`
//! field (topic-tag reads the same file):
//!
//! - `{"record":"meta","model":"...","created":"<RFC 3339>","version":1}`,
//!   first line (`version` is the format; files from before it have none);
//! - `{"record":"content","content":<Gemini Content, verbatim>,"timestamp":"..."}`,
//!   role `user` or `model`, parts as sent and received (thought
//!   signatures, function calls and responses included), except that an
//!   attachment or an image the model made is an `{"attachment": {name,
//!   mimeType, size, sha256, ...}}` part, its bytes kept by hash beside
//!   the sessions (`agent::attach`), never in the file;
//! - `{"record":"topic","title":"...","timestamp":"..."}`, the active topic
//!   from then on;
//! - `{"record":"turn","tokens":N,"context_tokens":N,"timestamp":"..."}`,
//!   closing a turn: its own tokens and the history's after it, from the
//!   API's `usageMetadata` (see [`turn_record`]); gem-ask adds `usage`
//!   (`input`, `cached_input`, `output`, `thinking`), `cost_usd` when the
//!   model's price is known and `model_version`, which the audit log
//!   (`gem-ask log`) reads;
//! - `{"record":"summary","covers":N,"contents":[user, model],"tokens":N,
//!   "timestamp":"..."}`: the model's summary of the first `covers` content
//!   records of the file, which stay in the file but are summarized: a
//!   reader builds the request from the latest summary's contents and the
//!   content records after the ones it covers;
//! - `{"record":"stop","status":"budget|interrupted|error","error":{"type",
//!   "message"},"prompt":"...","timestamp":"..."}`: a run that stopped
//!   before its turn completed (a cap, a signal, an error), whose turn is
//!   not kept, says so for the audit log; a history reader skips it;
//! - a `gem-ask map` run leaves a file of its own, `map-ID.jsonl`: its
//!   `meta` line and one `{"record":"map",...}` line
//!   with the run's template, inputs, counts, tokens, cost and status
//!   (`agent::map::runlog`), read by the audit log only.
//!
//! A turn (prompt, model answers, tool responses) is written once it is
//! complete, under an exclusive `flock` on a file opened with `O_APPEND`
//! (one `write` for an ordinary turn; a huge answer is streamed in from
//! its spool, see [`Record`]), so runs sharing a session never interleave
//! inside a turn and a failed or interrupted turn leaves no half
//! conversation that the API would refuse next time. Readers take a shared
//! `flock`, so they see whole turns only.
//!
//! Faults: a reader never writes. A cut last line (a killed run, a full
//! disk), garbage lines and records or fields it does not know are skipped
//! and reported with their line numbers, the rest is used. A writer starts
//! on a fresh line after a cut one, and undoes a write that failed part-way.
//! What is not a regular file, or is past [`MAX_SESSION_BYTES`], is refused.
//!
//! Sessions hold prompts and piped stdin: files are created mode 0600 and
//! directories 0700 (existing ones are left as the user set them).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::events::now_rfc3339;

/// `$XDG_DATA_HOME/gemline/sessions` (or the platform's equivalent).
/// Read from the environment, so only the programs' fronts call it; the
/// engines are handed its answer.
pub fn sessions_dir() -> anyhow::Result<PathBuf> {
    use etcetera::BaseStrategy;
    let base = etcetera::choose_base_strategy()
        .map_err(|e| anyhow::anyhow!("cannot find the data directory: {e}"))?;
    Ok(base.data_dir().join("gemline").join("sessions"))
}

/// Session ids become file names: letters, digits, `.`, `_`, `-`, not
/// starting with a dot, at most 128 bytes.
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 128
        && !id.starts_with('.')
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// A fresh id: UTC time to the second plus 6 hex digits, so ids sort by
/// age and two runs in one second still differ.
pub fn new_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos(),
    );
    let ts = now_rfc3339();
    // 2026-11-22T02:02:55.123Z -> 20261122-020255
    let compact: String = ts[..19].chars().filter(|c| c.is_ascii_digit()).collect();
    format!(
        "{}-{}-{:06x}",
        &compact[..8],
        &compact[8..],
        h.finish() & 0xff_ffff
    )
}

/// The id of the most recently written session, if any.
pub fn most_recent(dir: &Path) -> Option<String> {
    let entries = fs::read_dir(dir).ok()?;
    entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let id = name.strip_suffix(".jsonl")?.to_string();
            let modified = e.metadata().ok()?.modified().ok()?;
            valid_id(&id).then_some((modified, id))
        })
        .max()
        .map(|(_, id)| id)
}

/// The format version this build writes in the `meta` line. A reader
/// meeting a higher one says so and uses the records it knows.
pub const FORMAT_VERSION: u64 = 1;

/// The largest session file read (or appended to): far above any
/// conversation the API would take back, low enough that a stray huge file
/// cannot exhaust memory.
pub const MAX_SESSION_BYTES: u64 = 64 << 20;

/// A session as read back.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct History {
    /// What a request resends: the latest summary's contents, then the
    /// content records it does not cover.
    pub contents: Vec<Value>,
    /// Content records of the file covered by the latest summary (kept
    /// in the file, left out of `contents`).
    pub summarized: usize,
    /// How many leading `contents` are the summary turn.
    pub summary_len: usize,
    /// The turns of `contents` after the summary whose tokens were
    /// recorded: (index in `contents` where the turn ends, its tokens).
    pub turn_tokens: Vec<(usize, u64)>,
    /// The history's tokens after its last recorded turn, if recorded
    /// after the latest summary.
    pub context_tokens: Option<u64>,
    pub topic: Option<String>,
    pub model: Option<String>,
    /// Lines that could not be used, for warnings: (line number, why).
    pub skipped: Vec<(usize, String)>,
    /// Other things the reader should be told, e.g. a newer format version.
    pub notes: Vec<String>,
}

/// Reads a session file; a missing file is an empty history. Bad lines are
/// skipped and reported, the rest is kept. The file is only read: a cut
/// last line stays for [`append`] to step over.
pub fn load(path: &Path) -> io::Result<History> {
    let Some(file) = open_for_reading(path)? else {
        return Ok(History::default());
    };
    let _lock = Flock::shared(&file)?;
    let mut bytes = Vec::new();
    (&file)
        .take(MAX_SESSION_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_SESSION_BYTES {
        return Err(too_big());
    }
    Ok(parse_history(&bytes))
}

/// Opens a session file to read it, refusing what is not a regular file
/// (a FIFO would block, a device never end) or is past the size cap.
/// `Ok(None)` when there is no file.
pub fn open_for_reading(path: &Path) -> io::Result<Option<File>> {
    let file = match OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    check_file(&file)?;
    Ok(Some(file))
}

fn check_file(file: &File) -> io::Result<()> {
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a session is a JSON-lines file)",
        ));
    }
    if meta.len() > MAX_SESSION_BYTES {
        return Err(too_big());
    }
    Ok(())
}

fn too_big() -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!(
            "larger than the {} MiB a session may hold; start a new one (--new-chat)",
            MAX_SESSION_BYTES >> 20
        ),
    )
}

/// The records of a session file's bytes. Every line that cannot be used
/// is in [`History::skipped`] with its number and why; the rest is kept.
pub fn parse_history(bytes: &[u8]) -> History {
    let mut h = History::default();
    let mut recs = Records::default();
    let mut lines = bytes.split(|&b| b == b'\n').peekable();
    let mut i = 0;
    while let Some(raw) = lines.next() {
        i += 1;
        // The piece after the last newline: empty for a whole file.
        let cut = lines.peek().is_none();
        if raw.trim_ascii().is_empty() {
            continue;
        }
        match record_of(raw) {
            Ok(v) => h.take(i, v, &mut recs),
            Err(why) if cut => h.skipped.push((
                i,
                format!("last line cut short, no line end (a turn not completely written): {why}"),
            )),
            Err(why) => h.skipped.push((i, why.to_string())),
        }
    }
    h.apply(recs);
    h
}

/// Content, turn and summary records as read, before the latest summary
/// is applied.
#[derive(Default)]
struct Records {
    /// Every content record, in file order.
    contents: Vec<Value>,
    /// (content records before it, tokens, context tokens) per `turn`.
    turns: Vec<(usize, u64, u64)>,
    /// The latest summary: (covers, contents).
    summary: Option<(usize, Vec<Value>)>,
}

/// Why a line of a session file is skipped (see [`History::skipped`]).
#[derive(Debug, thiserror::Error)]
enum BadRecord {
    #[error("not UTF-8")]
    NotUtf8,
    #[error("not a JSON object")]
    NotObject,
    #[error("not JSON: {0}")]
    NotJson(serde_json::Error),
    #[error("summary record whose covers is not a count of the content records before it")]
    SummaryCovers,
    #[error("summary record without its user and model contents")]
    SummaryContents,
}

/// A summary record's fields, if it is usable: `covers` within the
/// content records seen so far, and a user then model Content.
fn summary_of(v: &Value, seen: usize) -> Result<(usize, Vec<Value>), BadRecord> {
    let covers = v
        .get("covers")
        .and_then(Value::as_u64)
        .map(|n| n as usize)
        .filter(|&n| n <= seen)
        .ok_or(BadRecord::SummaryCovers)?;
    let contents = v
        .get("contents")
        .and_then(Value::as_array)
        .filter(|c| {
            c.len() == 2
                && c[0].get("role").and_then(Value::as_str) == Some("user")
                && c[1].get("role").and_then(Value::as_str) == Some("model")
        })
        .ok_or(BadRecord::SummaryContents)?;
    Ok((covers, contents.clone()))
}

fn record_of(raw: &[u8]) -> Result<Value, BadRecord> {
    let text = std::str::from_utf8(raw).map_err(|_| BadRecord::NotUtf8)?;
    match serde_json::from_str(text) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err(BadRecord::NotObject),
        Err(e) => Err(BadRecord::NotJson(e)),
    }
}

impl History {
    /// Uses one record (line `i`). Unknown records and fields are skipped
    /// quietly: newer versions and other tools may add them.
    fn take(&mut self, i: usize, mut v: Value, raw: &mut Records) {
        let kind = v.get("record").and_then(Value::as_str).map(str::to_string);
        match kind.as_deref() {
            // Moved out of the record, not copied: it may hold a long answer.
            Some("content") => match v.get_mut("content").map(Value::take) {
                Some(c @ Value::Object(_))
                    if matches!(
                        c.get("role").and_then(Value::as_str),
                        Some("user") | Some("model")
                    ) =>
                {
                    raw.contents.push(c)
                }
                _ => self
                    .skipped
                    .push((i, "content record without a user or model Content".into())),
            },
            Some("topic") => {
                self.topic = v
                    .get("title")
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .filter(|t| !t.is_empty());
            }
            Some("turn") => {
                let n = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0);
                raw.turns
                    .push((raw.contents.len(), n("tokens"), n("context_tokens")));
            }
            Some("summary") => match summary_of(&v, raw.contents.len()) {
                Ok(s) => raw.summary = Some(s),
                Err(why) => self.skipped.push((i, why.to_string())),
            },
            Some("meta") => {
                self.model = v.get("model").and_then(Value::as_str).map(str::to_string);
                if let Some(n) = v.get("version").and_then(Value::as_u64)
                    && n > FORMAT_VERSION
                {
                    self.notes.push(format!(
                        "line {i}: written in session format {n}, newer than this version reads ({FORMAT_VERSION}); the content and topic records are used, others ignored"
                    ));
                }
            }
            _ => {}
        }
    }

    /// Builds `contents` from the latest summary and what it does not
    /// cover, with the recorded tokens of the turns after it.
    fn apply(&mut self, raw: Records) {
        let (covers, mut contents) = raw.summary.unwrap_or_default();
        self.summarized = covers;
        self.summary_len = contents.len();
        let base = contents.len();
        contents.extend(raw.contents.into_iter().skip(covers));
        self.contents = contents;
        for (end, tokens, context) in raw.turns {
            if end > covers {
                self.turn_tokens.push((end - covers + base, tokens));
                self.context_tokens = Some(context);
            }
        }
    }
}

/// One line of a session file, written by streaming its JSON: a record
/// may carry an answer too large to build as one string.
pub trait Record {
    /// Writes the record's JSON object, without the line end.
    fn write_json(&self, out: &mut dyn Write) -> io::Result<()>;
}

impl Record for Value {
    fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        serde_json::to_writer(out, self).map_err(io::Error::from)
    }
}

impl<R: Record + ?Sized> Record for Box<R> {
    fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        (**self).write_json(out)
    }
}

/// A `content` record whose Content writes itself (a model answer read
/// back from its spool): the same bytes as [`content_record`] gives.
pub struct ContentRecord<C> {
    pub content: C,
    pub timestamp: String,
}

impl<C: Record> ContentRecord<C> {
    pub fn new(content: C) -> ContentRecord<C> {
        ContentRecord {
            content,
            timestamp: now_rfc3339(),
        }
    }
}

impl<C: Record> Record for ContentRecord<C> {
    fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(br#"{"record":"content","content":"#)?;
        self.content.write_json(out)?;
        out.write_all(br#","timestamp":"#)?;
        serde_json::to_writer(&mut *out, &self.timestamp)?;
        out.write_all(b"}")
    }
}

pub fn content_record(content: &Value) -> Value {
    json!({"record": "content", "content": content, "timestamp": now_rfc3339()})
}

pub fn topic_record(title: &str) -> Value {
    json!({"record": "topic", "title": title, "timestamp": now_rfc3339()})
}

/// Closes a turn: its own `tokens` and the history's `context_tokens`
/// after it (the last request's prompt plus its answer, from
/// `usageMetadata`).
pub fn turn_record(tokens: u64, context_tokens: u64) -> Value {
    json!({"record": "turn", "tokens": tokens, "context_tokens": context_tokens, "timestamp": now_rfc3339()})
}

/// The summary (a user and a model Content) of the first `covers` content
/// records of the file, which it marks as summarized; `tokens` is its size.
pub fn summary_record(contents: &[Value], covers: usize, tokens: u64) -> Value {
    json!({"record": "summary", "covers": covers, "contents": contents, "tokens": tokens, "timestamp": now_rfc3339()})
}

/// Appends records under the session's exclusive lock; writes the `meta`
/// line first when the file is new. Creates the directory as needed.
/// After a last line cut short (a killed run, a full disk) the records
/// start on a line of their own; a failed write is undone, so no half line
/// stays behind.
pub fn append<R: Record>(path: &Path, model: &str, records: &[R]) -> io::Result<()> {
    if records.is_empty() {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
    }
    let file = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .mode(0o600)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    check_file(&file)?;
    let _lock = Flock::exclusive(&file)?;
    let len = file.metadata()?.len();
    let written = write_records(&file, len, model, records).and_then(|()| file.sync_data());
    if let Err(e) = written {
        // We hold the lock, so everything past `len` is ours: cut it off.
        let _ = file.set_len(len);
        return Err(e);
    }
    Ok(())
}

/// An ordinary turn fits the buffer and goes out as one `write`; a longer
/// one is streamed, still under the lock, so no other writer comes between
/// its lines.
const APPEND_BUFFER: usize = 1 << 20;

fn write_records<R: Record>(file: &File, len: u64, model: &str, records: &[R]) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(APPEND_BUFFER, file);
    if len == 0 {
        let meta = json!({"record": "meta", "model": model, "created": now_rfc3339(), "version": FORMAT_VERSION});
        meta.write_json(&mut out)?;
        out.write_all(b"\n")?;
    } else if last_byte(file, len)? != b'\n' {
        out.write_all(b"\n")?;
    }
    for r in records {
        r.write_json(&mut out)?;
        out.write_all(b"\n")?;
    }
    out.into_inner().map_err(|e| e.into_error())?;
    Ok(())
}

fn last_byte(file: &File, len: u64) -> io::Result<u8> {
    use std::os::unix::fs::FileExt;
    let mut b = [0u8];
    file.read_exact_at(&mut b, len - 1)?;
    Ok(b[0])
}

/// An advisory lock held until dropped.
struct Flock<'a>(&'a File);

impl<'a> Flock<'a> {
    fn exclusive(f: &'a File) -> io::Result<Flock<'a>> {
        Flock::take(f, libc::LOCK_EX)
    }

    fn shared(f: &'a File) -> io::Result<Flock<'a>> {
        Flock::take(f, libc::LOCK_SH)
    }

    fn take(f: &'a File, op: libc::c_int) -> io::Result<Flock<'a>> {
        use std::os::fd::AsRawFd;
        loop {
            // SAFETY: flock on an open descriptor we own for the lock's lifetime.
            if unsafe { libc::flock(f.as_raw_fd(), op) } == 0 {
                return Ok(Flock(f));
            }
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }
}

impl Drop for Flock<'_> {
    fn drop(&mut self) {
        use std::os::fd::AsRawFd;
        // SAFETY: as above; unlocking cannot invalidate anything.
        unsafe {
            libc::flock(self.0.as_raw_fd(), libc::LOCK_UN);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_file_safe() {
        assert!(valid_id(&new_id()));
        assert!(!valid_id("../x"));
        assert!(!valid_id(".hidden"));
        assert!(!valid_id(""));
        assert!(valid_id("bmw-demo_1.2"));
    }

    #[test]
    fn load_waits_for_a_turn_being_written() {
        let dir = std::env::temp_dir().join(format!("gemline-session-lock-{}", new_id()));
        let path = dir.join("s.jsonl");
        append(
            &path,
            "m",
            &[content_record(&json!({"role":"user","parts":[]}))],
        )
        .unwrap();
        let writer = File::options().append(true).open(&path).unwrap();
        let lock = Flock::exclusive(&writer).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let p = path.clone();
        std::thread::spawn(move || tx.send(load(&p).map(|h| h.contents.len())).unwrap());
        // While the writer holds its lock the reader must not finish. (On a
        // slow machine it may not have started: that passes too.)
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert!(rx.try_recv().is_err(), "load read under a writer's lock");
        (&writer)
            .write_all(b"{\"record\":\"content\",\"content\":{\"role\":\"model\",\"parts\":[]}}\n")
            .unwrap();
        drop(lock);
        assert_eq!(rx.recv().unwrap().unwrap(), 2);
        let _ = fs::remove_dir_all(dir);
    }

    #[test]
    fn sessions_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("gemline-session-mode-{}", new_id()));
        let path = dir.join("sessions").join("s.jsonl");
        append(&path, "m", &[topic_record("t")]).unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(path.parent().unwrap()), 0o700);
        let _ = fs::remove_dir_all(dir);
    }

    #[test]
    fn concurrent_turns_never_interleave() {
        let dir = std::env::temp_dir().join(format!("gemline-session-{}", new_id()));
        let path = dir.join("s.jsonl");
        let writers: Vec<_> = (0..8)
            .map(|w| {
                let path = path.clone();
                std::thread::spawn(move || {
                    for t in 0..25 {
                        let turn: Vec<Value> = (0..3)
                            .map(|i| {
                                content_record(&json!({"role":"user","parts":[{"text": format!("{w}/{t}/{i}")}]}))
                            })
                            .collect();
                        append(&path, "m", &turn).unwrap();
                    }
                })
            })
            .collect();
        for w in writers {
            w.join().unwrap();
        }
        let h = load(&path).unwrap();
        assert!(h.skipped.is_empty());
        assert_eq!(h.contents.len(), 8 * 25 * 3);
        for turn in h.contents.chunks(3) {
            let texts: Vec<&str> = turn
                .iter()
                .map(|c| c["parts"][0]["text"].as_str().unwrap())
                .collect();
            let prefix = texts[0].rsplit_once('/').unwrap().0;
            assert_eq!(texts, [0, 1, 2].map(|i| format!("{prefix}/{i}")));
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.matches(r#""record":"meta""#).count(), 1);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_summary_replaces_the_contents_it_covers() {
        let c =
            |role: &str, t: &str| content_record(&json!({"role": role, "parts": [{"text": t}]}));
        let summary = [
            json!({"role": "user", "parts": [{"text": "S"}]}),
            json!({"role": "model", "parts": [{"text": "ok"}]}),
        ];
        let lines = [
            c("user", "q1"),
            c("model", "a1"),
            turn_record(350, 350),
            c("user", "q2"),
            c("model", "a2"),
            turn_record(400, 750),
            summary_record(&summary, 2, 30),
            json!({"record": "summary", "covers": 99, "contents": summary}),
            c("user", "q3"),
            c("model", "a3"),
            turn_record(20, 450),
        ];
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let h = parse_history(text.as_bytes());
        let texts: Vec<&str> = h
            .contents
            .iter()
            .map(|c| c["parts"][0]["text"].as_str().unwrap())
            .collect();
        assert_eq!(texts, ["S", "ok", "q2", "a2", "q3", "a3"]);
        assert_eq!((h.summarized, h.summary_len), (2, 2));
        // The turns after the summary, by where they end in `contents`.
        assert_eq!(h.turn_tokens, [(4, 400), (6, 20)]);
        assert_eq!(h.context_tokens, Some(450));
        // A summary covering more than was written is reported, not used.
        assert_eq!(h.skipped.len(), 1);
        assert_eq!(h.skipped[0].0, 8);
    }

    #[test]
    fn append_then_load_round_trips() {
        let dir = std::env::temp_dir().join(format!("gemline-session-{}", new_id()));
        let path = dir.join("s.jsonl");
        let user = json!({"role":"user","parts":[{"text":"hi"}]});
        let model = json!({"role":"model","parts":[{"text":"hello"},{"thoughtSignature":"abc"}]});
        append(
            &path,
            "m",
            &[content_record(&user), topic_record("Research")],
        )
        .unwrap();
        append(&path, "m", &[content_record(&model)]).unwrap();
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"garbage\n")
            .unwrap();
        let h = load(&path).unwrap();
        assert_eq!(h.contents, vec![user, model]);
        assert_eq!(h.topic.as_deref(), Some("Research"));
        assert_eq!(h.model.as_deref(), Some("m"));
        assert_eq!(h.skipped.len(), 1);
        let first = std::fs::read_to_string(&path).unwrap();
        assert!(first.starts_with(r#"{"record":"meta","model":"m","created":"#));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn streamed_records_are_the_lines_values_give() {
        let content = json!({"role":"model","parts":[{"text":"a \"b\"\n\u{1}"}]});
        let streamed = ContentRecord::new(content.clone());
        let mut line = Vec::new();
        streamed.write_json(&mut line).unwrap();
        let value = json!({"record":"content","content":content,"timestamp":streamed.timestamp});
        assert_eq!(String::from_utf8(line).unwrap(), value.to_string());
    }
}
