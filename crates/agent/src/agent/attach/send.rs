//! The run's attachments across turns ([`Attachments`]): those waiting
//! for the next user turn (`-a`, binary stdin, `/attach`), turned into
//! conversation parts when that turn starts ([`Attachments::take_into`]):
//! an inline one's bytes copied into the [`Store`] (when the session is
//! kept), a large one uploaded through the Files API with a progress bar
//! on stderr when it is a terminal. Also the bytes of images made during
//! the run (a tool's, the model's), kept in memory by hash for the
//! requests that resend them.

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::Value;

use super::store::Store;
use super::{AttachError, Attachment, Origin, Spec, human, marker, open_file, open_url, route};
use crate::agent::signals;
use crate::provider::files::{self, Progress, Upload};
use crate::provider::{Client, GenError, ProviderKind};

/// Every attachment the command line names, checked, in order; `stdin`
/// is stdin spooled to a file (binary data piped in, or `-a -`).
pub fn open(
    words: &[String],
    provider: ProviderKind,
    stdin: Option<Attachment>,
) -> Result<Vec<Attachment>, AttachError> {
    let mut list = Vec::new();
    let mut stdin = stdin;
    for w in words {
        match Spec::parse(w) {
            Spec::Stdin => {
                if let Some(a) = stdin.take() {
                    list.push(a);
                }
            }
            Spec::Url(u) => list.push(open_url(&u, provider)?),
            Spec::Path(p) => {
                let name = p.to_string_lossy().into_owned();
                let abs = std::path::absolute(&p).unwrap_or(p.clone());
                list.push(open_file(&name, &p, Origin::Path(abs), provider)?);
            }
        }
    }
    // Binary stdin without `-a -`: it comes first, as stdin context does.
    if let Some(a) = stdin {
        list.insert(0, a);
    }
    route(&mut list, provider)?;
    Ok(list)
}

/// The run's attachments.
pub struct Attachments {
    pub provider: ProviderKind,
    /// Where inline attachments' bytes are kept for later turns; none
    /// with `--no-history`.
    pub store: Option<Store>,
    pending: Vec<Attachment>,
    /// Bytes made during the run (tool and model images), by hash.
    pub(super) memory: HashMap<String, Arc<[u8]>>,
    /// Spooled stdin, kept for the run's later requests.
    temps: Vec<Arc<tempfile::NamedTempFile>>,
}

impl Attachments {
    pub fn new(provider: ProviderKind, store: Option<Store>) -> Attachments {
        Attachments {
            provider,
            store,
            pending: Vec::new(),
            memory: HashMap::new(),
            temps: Vec::new(),
        }
    }

    /// Queues attachments for the next user turn.
    pub fn add(&mut self, list: Vec<Attachment>) {
        self.pending.extend(list);
    }

    pub fn pending(&self) -> &[Attachment] {
        &self.pending
    }

    /// Keeps bytes made during the run (an image), stored for the session
    /// too; their hash.
    pub fn keep_bytes(&mut self, bytes: Arc<[u8]>) -> String {
        let sha = match &self.store {
            Some(s) => match s.put_bytes(&bytes) {
                Ok(sha) => sha,
                Err(_) => super::store::hash_bytes(&bytes),
            },
            None => super::store::hash_bytes(&bytes),
        };
        self.memory.insert(sha.clone(), bytes);
        sha
    }

    /// The user Content `user` with the pending attachments' parts put
    /// before its text. Uploads happen here, before the turn's request:
    /// one that fails ends the turn (exit 4) with nothing sent half-built.
    pub fn take_into(&mut self, mut user: Value, client: &Client) -> Result<Value, GenError> {
        if self.pending.is_empty() {
            return Ok(user);
        }
        let mut parts = Vec::new();
        for a in std::mem::take(&mut self.pending) {
            parts.push(self.part_of(&a, client)?);
            if let Origin::Temp(t) = a.origin {
                self.temps.push(t);
            }
        }
        if let Some(text) = user.get_mut("parts").and_then(Value::as_array_mut) {
            parts.append(text);
        }
        user["parts"] = Value::Array(parts);
        Ok(user)
    }

    fn part_of(&mut self, a: &Attachment, client: &Client) -> Result<Value, GenError> {
        let Some(path) = a.file() else {
            return Ok(marker(a, None));
        };
        if !a.upload {
            // Kept for later turns; a store that cannot be written
            // leaves them to the original file.
            if let Some(s) = &self.store {
                let _ = s.put_file(path, &a.sha256);
            }
            return Ok(marker(a, None));
        }
        let bar = Arc::new(Bar::new(&a.name));
        let up = Upload {
            path,
            size: a.size,
            mime: a.mime.as_deref().unwrap_or(super::sniff::OCTET_STREAM),
            display_name: &a.name,
        };
        let done = files::upload(client.transport(), &up, &client.retry, bar.clone());
        bar.clear();
        Ok(marker(a, Some(&done?)))
    }
}

/// The upload's progress bar on stderr, when stderr is a terminal; a
/// signal stops the upload.
struct Bar {
    name: String,
    tty: bool,
    started: Instant,
    /// Tenths of a second since the start when last drawn.
    drawn: AtomicU64,
    lock: Mutex<()>,
}

impl Bar {
    fn new(name: &str) -> Bar {
        Bar {
            name: crate::render::text::clean_line(name, false),
            tty: std::io::stderr().is_terminal(),
            started: Instant::now(),
            drawn: AtomicU64::new(u64::MAX),
            lock: Mutex::new(()),
        }
    }

    fn clear(&self) {
        if self.tty && self.drawn.load(Ordering::Relaxed) != u64::MAX {
            let _g = self.lock.lock();
            let _ = write!(std::io::stderr().lock(), "\r\x1b[2K");
        }
    }
}

impl Progress for Bar {
    fn sent(&self, sent: u64, total: u64) {
        if !self.tty {
            return;
        }
        let tenth = self.started.elapsed().as_millis() as u64 / 100;
        let last = self.drawn.load(Ordering::Relaxed);
        if last != u64::MAX && tenth == last && sent < total {
            return;
        }
        self.drawn.store(tenth, Ordering::Relaxed);
        let pct = (sent * 100).checked_div(total).unwrap_or(100);
        let filled = (pct / 5) as usize;
        let bar = format!("{}{}", "#".repeat(filled), "-".repeat(20 - filled.min(20)));
        let _g = self.lock.lock();
        let _ = write!(
            std::io::stderr().lock(),
            "\r\x1b[2Kgem-ask: uploading {} [{bar}] {pct:>3}% {} of {}",
            self.name,
            human(sent),
            human(total)
        );
    }

    fn interrupted(&self) -> bool {
        signals::received().is_some()
    }
}
