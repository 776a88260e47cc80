//! What a run holds of its memory: the options, the embedding model (if
//! one is set), and the store, opened on first use and kept. Every
//! operation goes through here, for the model's tools, the REPL's
//! `/memory` and `gem-ask memory` alike.
//!
//! Faults never cost what is stored: a file that is not a database is
//! left untouched, a locked one is waited for (briefly for a turn's
//! recall, longer for a write), a full disk rolls the write back. An
//! embedding that fails leaves the memory stored without a vector (found
//! by keywords until `reindex`) and a query that cannot be embedded is
//! answered by keywords; each says so in a note for the user.
//!
//! What is saved passes the run's [`Guard`] first (set by the agent, which
//! knows the secrets): a known secret in a memory's text or an import's
//! line is kept as `[REDACTED]`, with a note.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use super::graph::{Graph, Step};
use super::store::{Filter, NewMemory, Store, default_path};
use super::transfer::Imported;
use super::{Edge, Hit, Memory, MemoryError, Query, context, now_ms};
use crate::provider::embed::{Doc, Embedder, Task};

/// How long a turn's recall waits for another process's lock.
pub const READ_WAIT: Duration = Duration::from_secs(2);
/// How long a write waits for the others.
pub const WRITE_WAIT: Duration = Duration::from_secs(20);

/// Memory as a run is asked to use it (plain values, resolved by the
/// program's front).
#[derive(Debug, Clone, PartialEq)]
pub struct MemoryOptions {
    /// The store; `None`: `$XDG_DATA_HOME/gemline/memory.sqlite3`.
    pub path: Option<PathBuf>,
    /// `--memory-budget`: most tokens of memories a turn adds.
    pub budget: u64,
    /// The embedding model, its provider and base URL; `None`: keywords only.
    pub embedding: Option<EmbeddingOptions>,
}

impl Default for MemoryOptions {
    fn default() -> Self {
        MemoryOptions {
            path: None,
            budget: context::DEFAULT_BUDGET,
            embedding: None,
        }
    }
}

/// Where embeddings come from.
#[derive(Debug, Clone, PartialEq)]
pub struct EmbeddingOptions {
    pub provider: crate::provider::ProviderKind,
    pub model: String,
    /// Resolved by the program's front: the config's, else the chat's
    /// when the provider is the same, else the provider's own.
    pub base_url: String,
}

/// A stored memory as an operation left it, with what the user should
/// be told (a vector that could not be made, keywords only).
#[derive(Debug)]
pub struct Remembered {
    pub memory: Memory,
    pub created: bool,
    pub notes: Vec<String>,
}

/// What a search found, what to tell the user, and how long the
/// query's embedding took (the rest is the store's).
#[derive(Debug, Default)]
pub struct Found {
    pub hits: Vec<Hit>,
    pub notes: Vec<String>,
    pub embedding: Duration,
}

/// The meta key set once keywords-only was said.
const SAID_KEYWORDS_ONLY: &str = "said_keywords_only";

/// What a text to keep becomes: the text with the secrets the run knows
/// replaced, `None` when it holds none (set by the agent, which knows
/// them: [`Handle::with_guard`]).
pub type Guard = Box<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// The note of a memory whose text held a secret.
pub const SECRET_NOTE: &str = "the text held a secret gem-ask keeps (an API key or the value of a \
     secret-named variable): it is saved as [REDACTED]";

pub struct Handle {
    pub opts: MemoryOptions,
    embedder: Option<Embedder>,
    guard: Option<Guard>,
    store: Mutex<Option<Store>>,
    session: Mutex<Option<String>>,
}

impl std::fmt::Debug for Handle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Handle")
            .field("opts", &self.opts)
            .field("model", &self.model())
            .finish_non_exhaustive()
    }
}

impl Handle {
    pub fn new(opts: MemoryOptions, embedder: Option<Embedder>) -> Handle {
        Handle {
            opts,
            embedder,
            guard: None,
            store: Mutex::new(None),
            session: Mutex::new(None),
        }
    }

    /// Every text saved (a memory's key, content and tags; an import's
    /// lines) goes through `guard` first: no known secret is kept, so
    /// none reaches a later prompt or the embedding model.
    pub fn with_guard(mut self, guard: Guard) -> Handle {
        self.guard = Some(guard);
        self
    }

    /// `text` through the guard; whether it changed.
    fn guarded(&self, text: &mut String) -> bool {
        match self.guard.as_ref().and_then(|g| g(text)) {
            Some(clean) => {
                *text = clean;
                true
            }
            None => false,
        }
    }

    /// A new memory's texts through the guard; whether any changed.
    fn guard_memory(&self, new: &mut NewMemory) -> bool {
        let mut changed = self.guarded(&mut new.content);
        if let Some(k) = new.key.as_mut() {
            changed |= self.guarded(k);
        }
        for t in &mut new.tags {
            changed |= self.guarded(t);
        }
        changed
    }

    /// The session new memories are credited to.
    pub fn set_session(&self, id: &str) {
        *self.session.lock().unwrap_or_else(|e| e.into_inner()) = Some(id.to_string());
    }

    /// The store's file.
    pub fn path(&self) -> Result<PathBuf, MemoryError> {
        match &self.opts.path {
            Some(p) => Ok(p.clone()),
            None => default_path(),
        }
    }

    /// The embedding model's name as vectors are stored under it.
    pub fn model(&self) -> Option<String> {
        self.embedder.as_ref().map(Embedder::model_id)
    }

    /// Runs `f` on the store, opening it first if needed (waiting `wait`
    /// for locks).
    pub fn with_store<T>(
        &self,
        wait: Duration,
        f: impl FnOnce(&mut Store) -> Result<T, MemoryError>,
    ) -> Result<T, MemoryError> {
        let mut slot = self.store.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(Store::open(&self.path()?, wait)?);
        }
        let store = slot.as_mut().expect("opened above");
        store.conn.busy_timeout(wait).map_err(|e| store.err(e))?;
        f(store)
    }

    /// The note said once a store (and again after an embedding model was
    /// used): no embedding model, so keywords only.
    fn keywords_only_note(&self, store: &mut Store) -> Result<Option<String>, MemoryError> {
        if self.embedder.is_some() || store.meta(SAID_KEYWORDS_ONLY)?.is_some() {
            return Ok(None);
        }
        store.set_meta(SAID_KEYWORDS_ONLY, Some("1"))?;
        Ok(Some(
            "memory: no embedding model is set (memory.embedding_model in the config), so memories \
             are found by their words only; once one is set, `gem-ask memory reindex` embeds those saved before"
                .into(),
        ))
    }

    /// Adds or updates a memory, then embeds it (a failed embedding is a
    /// note: the memory stays, found by keywords until `reindex`).
    pub fn remember(&self, mut new: NewMemory) -> Result<Remembered, MemoryError> {
        if new.session.is_none() {
            new.session = self
                .session
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone();
        }
        let redacted = self.guard_memory(&mut new);
        let (memory, created, mut notes) = self.with_store(WRITE_WAIT, |s| {
            let (m, created) = s.remember(&new, now_ms())?;
            let note = self.keywords_only_note(s)?;
            Ok((m, created, note.into_iter().collect::<Vec<_>>()))
        })?;
        if redacted {
            notes.insert(0, SECRET_NOTE.to_string());
        }
        if let Err(e) = self.embed_memories(std::slice::from_ref(&memory)) {
            notes.push(format!(
                "memory {:?} is saved without a vector ({e}); it is found by its words until `gem-ask memory reindex`",
                memory.key
            ));
        }
        Ok(Remembered {
            memory,
            created,
            notes,
        })
    }

    /// Embeds memories as documents and stores their vectors.
    fn embed_memories(&self, memories: &[Memory]) -> Result<usize, MemoryError> {
        let Some(e) = &self.embedder else {
            return Ok(0);
        };
        let docs: Vec<Doc<'_>> = memories
            .iter()
            .map(|m| Doc {
                title: Some(&m.key),
                text: &m.content,
            })
            .collect();
        let vectors = e
            .embed(&docs, Task::Document)
            .map_err(|err| MemoryError::Io {
                path: PathBuf::from(e.model_id()),
                why: err.message,
            })?;
        let items: Vec<(i64, Vec<f32>)> = memories.iter().map(|m| m.id).zip(vectors).collect();
        self.with_store(WRITE_WAIT, |s| {
            s.set_vectors(&e.model_id(), &items)?;
            s.set_meta(SAID_KEYWORDS_ONLY, None)
        })?;
        Ok(items.len())
    }

    /// The memories that best answer `text` (with the filter), and what
    /// to tell the user (keywords only, a query that could not be
    /// embedded).
    pub fn search(
        &self,
        text: &str,
        filter: &Filter,
        limit: usize,
        wait: Duration,
    ) -> Result<Found, MemoryError> {
        let mut notes = Vec::new();
        let mut embedding = Duration::ZERO;
        let mut q = Query {
            text: text.to_string(),
            vector: None,
            filter: filter.clone(),
            limit,
        };
        let has_vectors = match &self.embedder {
            Some(e) => self.with_store(wait, |s| Ok(s.model(&e.model_id())?.is_some()))?,
            None => false,
        };
        if let (Some(e), true) = (&self.embedder, has_vectors && !text.trim().is_empty()) {
            let started = std::time::Instant::now();
            match e.embed(&[Doc { title: None, text }], Task::Query) {
                Ok(mut v) => q.vector = Some((e.model_id(), v.remove(0))),
                Err(err) => notes.push(format!("memory: {err}; searching by words only")),
            }
            embedding = started.elapsed();
        }
        let hits = self.with_store(wait, |s| {
            if let Some(n) = self.keywords_only_note(s)? {
                notes.push(n);
            }
            s.search(&q)
        })?;
        Ok(Found {
            hits,
            notes,
            embedding,
        })
    }

    pub fn get(&self, key: &str) -> Result<(Memory, Vec<Edge>), MemoryError> {
        self.with_store(WRITE_WAIT, |s| {
            let m = s
                .get(key)?
                .ok_or_else(|| MemoryError::NotFound(key.trim().to_string()))?;
            let edges = s.edges_of(m.id)?;
            Ok((m, edges))
        })
    }

    pub fn list(&self, filter: &Filter, limit: usize) -> Result<Vec<Memory>, MemoryError> {
        self.with_store(WRITE_WAIT, |s| s.list(filter, limit))
    }

    pub fn forget(&self, key: &str) -> Result<Memory, MemoryError> {
        self.with_store(WRITE_WAIT, |s| s.forget(key))
    }

    pub fn relate(&self, from: &str, to: &str, kind: &str) -> Result<Edge, MemoryError> {
        self.with_store(WRITE_WAIT, |s| s.relate(from, to, kind, now_ms()))
    }

    pub fn unrelate(&self, from: &str, to: &str, kind: Option<&str>) -> Result<usize, MemoryError> {
        self.with_store(WRITE_WAIT, |s| s.unrelate(from, to, kind))
    }

    pub fn graph(&self, around: Option<&str>, depth: usize) -> Result<Graph, MemoryError> {
        self.with_store(WRITE_WAIT, |s| s.graph(around, depth))
    }

    pub fn path_between(&self, from: &str, to: &str) -> Result<Option<Vec<Step>>, MemoryError> {
        self.with_store(WRITE_WAIT, |s| s.path_between(from, to))
    }

    pub fn export(&self, out: &mut dyn Write) -> Result<usize, MemoryError> {
        self.with_store(WRITE_WAIT, |s| s.export(out))
    }

    /// Imports JSON lines (`export`'s), each through the guard when one
    /// is set, with a warning when one held a secret.
    pub fn import(&self, input: &mut dyn BufRead) -> Result<Imported, MemoryError> {
        let Some(guard) = &self.guard else {
            return self.with_store(WRITE_WAIT, |s| s.import(input, now_ms()));
        };
        let mut lines = GuardedLines {
            inner: input,
            guard,
            line: Vec::new(),
            pos: 0,
            redacted: false,
        };
        let imported = self.with_store(WRITE_WAIT, |s| s.import(&mut lines, now_ms()))?;
        if lines.redacted {
            crate::term::diag(format!("gem-ask: warning: memory import: {SECRET_NOTE}"));
        }
        Ok(imported)
    }

    /// Embeds every memory without a vector of the embedding model, a
    /// batch at a time; how many were embedded. Without a model it is an
    /// error that says how to set one.
    pub fn reindex(&self) -> Result<usize, MemoryError> {
        let Some(e) = &self.embedder else {
            return Err(MemoryError::Invalid(
                "no embedding model is set: set memory.embedding_model in the config (and memory.embedding_provider, \
                 memory.embedding_base_url when they differ from the chat's)"
                    .into(),
            ));
        };
        let mut done = 0;
        loop {
            let batch = self.with_store(WRITE_WAIT, |s| {
                s.without_vector(&e.model_id(), crate::provider::embed::BATCH)
            })?;
            if batch.is_empty() {
                return Ok(done);
            }
            done += self.embed_memories(&batch)?;
        }
    }
}

/// An import's input a line at a time, each through the guard (a line
/// that is not UTF-8 passes as it is: the import says what is wrong with
/// it).
struct GuardedLines<'a> {
    inner: &'a mut dyn BufRead,
    guard: &'a Guard,
    line: Vec<u8>,
    pos: usize,
    redacted: bool,
}

impl std::io::Read for GuardedLines<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let have = self.fill_buf()?;
        let n = have.len().min(buf.len());
        buf[..n].copy_from_slice(&have[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for GuardedLines<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.pos >= self.line.len() {
            self.line.clear();
            self.pos = 0;
            self.inner.read_until(b'\n', &mut self.line)?;
            if let Some(clean) = std::str::from_utf8(&self.line)
                .ok()
                .and_then(|l| (self.guard)(l))
            {
                self.line = clean.into_bytes();
                self.redacted = true;
            }
        }
        Ok(&self.line[self.pos..])
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.line.len());
    }
}
