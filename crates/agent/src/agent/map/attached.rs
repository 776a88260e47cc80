//! `-a FILE` in a map run: the same files sent with every record's
//! request, as a one-shot `gem-ask -a FILE` sends them (the attachment
//! code of `agent::attach`: inline data within its budget, else the Files
//! API). They are made ready once a run ([`Attached::prepare`]): a large
//! file uploaded once, a small one's bytes read once into memory and put
//! into each request as it is written (`provider::blob`); never once a
//! record. A record's request is keyed ([`super::key_of`]) with each
//! attachment as its marker of name, type, size and content hash
//! ([`keyed_parts`]), not its bytes or its upload's URI: a changed file is
//! a new key (not a resume or cache hit), a new upload of the same file
//! is not. `--dry-run` shows those markers; nothing is read or uploaded.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::agent::attach::{AttachError, Attachment, Attachments, Origin, marker, open_file};
use crate::provider::blob::Blobs;
use crate::provider::{Client, GenError};

/// Each attachment's part in a record's keyed request: a file's marker
/// without where it is (its path, an upload's URI), a URL's `fileData`.
pub fn keyed_parts(list: &[Attachment]) -> Vec<Value> {
    list.iter()
        .map(|a| {
            let mut m = marker(a, None);
            if let Some(o) = m.get_mut("attachment").and_then(Value::as_object_mut) {
                o.remove("path");
            }
            m
        })
        .collect()
}

/// `-a -` when the records come from files: stdin kept in a file for the
/// run, checked as a file is.
pub fn stdin(provider: crate::provider::ProviderKind) -> Result<Attachment, AttachError> {
    let unreadable = |e: std::io::Error| AttachError::Unreadable {
        name: "stdin".into(),
        why: e.to_string(),
    };
    let mut tmp = tempfile::NamedTempFile::new().map_err(unreadable)?;
    std::io::copy(&mut std::io::stdin().lock(), tmp.as_file_mut()).map_err(unreadable)?;
    let tmp = Arc::new(tmp);
    open_file("stdin", tmp.path(), Origin::Temp(tmp.clone()), provider)
}

/// The run's attachments as every request carries them.
#[derive(Default)]
pub struct Attached {
    /// The parts as the API reads them, in order (`inlineData` whose data
    /// is a placeholder of `blobs`, or `fileData`).
    parts: Vec<Value>,
    pub blobs: Blobs,
}

impl Attached {
    /// Makes the attachments ready once: the large ones uploaded (with a
    /// bar on a terminal), the others' bytes read and checked against the
    /// hash taken when they were opened (a file changed since is an error,
    /// not a request of other bytes than its key says).
    pub fn prepare(
        list: &[Attachment],
        client: &Client,
        provider: crate::provider::ProviderKind,
    ) -> Result<(Attached, Vec<String>), GenError> {
        if list.is_empty() {
            return Ok((Attached::default(), Vec::new()));
        }
        let mut att = Attachments::new(provider, None);
        for a in list.iter().filter(|a| !a.upload) {
            let Some(path) = a.file() else { continue };
            let bytes = std::fs::read(path)
                .map_err(|e| GenError::Attachment(format!("cannot read {}: {e}", a.name)))?;
            let sha = att.keep_bytes(Arc::from(bytes));
            if sha != a.sha256 {
                return Err(GenError::Attachment(format!(
                    "{} changed while the run started: run it again",
                    a.name
                )));
            }
        }
        att.add(list.to_vec());
        let user = att.take_into(json!({"role": "user", "parts": []}), client)?;
        let mut body = json!({ "contents": [user] });
        let wired = att.wire(&mut body, client)?;
        let parts = match body["contents"][0]["parts"].take() {
            Value::Array(p) => p,
            _ => Vec::new(),
        };
        let done = Attached {
            parts,
            blobs: wired.blobs,
        };
        Ok((done, wired.warnings))
    }

    /// A record's keyed request (from [`super::request_body`]) as it is
    /// sent: its first parts, the attachments' markers, swapped for the
    /// parts made ready.
    pub fn wire(&self, mut body: Value) -> Value {
        if self.parts.is_empty() {
            return body;
        }
        if let Some(parts) = body["contents"][0]["parts"].as_array_mut() {
            for (slot, part) in parts.iter_mut().zip(&self.parts) {
                *slot = part.clone();
            }
        }
        body
    }
}
