//! `gem-ask map`: one prompt applied to each record of an input, the model
//! as a filter. Records are read ([`records`]), each rendered through the
//! template ([`template`]) into one generateContent request built by the
//! provider layer (no tools, no conversation), sent by `jobs` worker
//! threads ([`run`]), and written back as one JSON object a record: its
//! fields and `answer` (or, with a schema, the answer's fields), or its
//! fields and `error` {type, message} when it failed after its retries.
//! Each output line carries `_key`, the hash of the rendered request, so a
//! rerun with `--output` skips what is already there ([`resume`]). With
//! `--batch` the requests go through Gemini's Batch API ([`batch`]); the
//! run's counts, tokens and cost make its `result` event ([`result`]).

pub mod attached;
pub mod batch;
pub mod cache;
pub mod collected;
mod gate;
pub mod progress;
pub mod records;
pub mod result;
pub mod resume;
pub mod run;
pub mod runlog;
pub mod spend;
pub mod template;

use std::path::PathBuf;

use serde_json::Value;

pub use records::Format;
pub use template::{Template, TemplateError};

use crate::agent::options::Connection;
use crate::provider::ProviderKind;

/// The requests in flight when `-j` is not given.
pub const DEFAULT_JOBS: u16 = 8;

/// The exit code of a run in which at least one record failed (its line
/// carries `error`); the other records were answered.
pub const SOME_FAILED: u8 = 10;

/// A map run, resolved by the front.
#[derive(Debug, Clone)]
pub struct MapOptions {
    pub template: String,
    pub files: Vec<PathBuf>,
    /// A file holding stdin's records (read twice by `--batch`), named
    /// `stdin` in messages.
    pub stdin_copy: Option<PathBuf>,
    pub format: Format,
    pub jobs: usize,
    /// `--rate N`: requests started per minute at most.
    pub rate: Option<u32>,
    pub unordered: bool,
    pub provider: ProviderKind,
    pub model: String,
    pub system: Option<String>,
    pub temperature: Option<f64>,
    /// `--thinking`, put into each record's request for the model.
    pub thinking: Option<crate::provider::Thinking>,
    /// `-a`: the files (or URLs) sent with every record's request, checked
    /// by the front ([`attached`]).
    pub attachments: Vec<crate::agent::attach::Attachment>,
    /// The JSON Schema each answer must match (`--schema`).
    pub schema: Option<Value>,
    pub connection: Connection,
    /// `--output FILE`: appended to, and read first to skip done records.
    pub output: Option<PathBuf>,
    /// `--cache FILE`: answers kept by key, a kept one not sent again.
    pub cache: Option<PathBuf>,
    /// Print each record's request body instead of sending it.
    pub dry_run: bool,
    /// The model's price (the Batch API's with `--batch`), for the cost.
    pub price: Option<crate::agent::price::Price>,
    /// The caps on the requests sent (`spend`); the price in it is `price`.
    pub budget: crate::agent::budget::Budget,
}

/// What a run did, for the `result` line and the exit code.
#[derive(Debug, Default, Clone)]
pub struct Summary {
    pub records: u64,
    pub answered: u64,
    pub failed: u64,
    /// Input lines that were not records (named on stderr).
    pub bad_lines: u64,
    /// Records whose line was already in `--output`.
    pub resumed: u64,
    /// Records answered from `--cache`, not sent.
    pub cached: u64,
    /// Records the template could not be filled from (a field missing).
    pub unfilled: u64,
    pub usage: crate::provider::Usage,
    /// What the answered requests cost at the model's price (the Batch
    /// API's with `--batch`); `None` when the price is unknown.
    pub cost: Option<f64>,
    pub elapsed: std::time::Duration,
    /// The cap that stopped the run (`spend`): its records not sent are
    /// failed lines of its type.
    pub capped: Option<spend::Capped>,
}

/// The request body of one record's prompt, keyed: the attachments'
/// markers before the text ([`attached::keyed_parts`]), swapped for what
/// is sent by [`attached::Attached::wire`].
pub fn request_body(o: &MapOptions, prompt: &str) -> Value {
    let mut user = crate::provider::request::user_text(&[prompt]);
    if !o.attachments.is_empty() {
        let mut parts = attached::keyed_parts(&o.attachments);
        if let Some(text) = user["parts"].as_array_mut() {
            parts.append(text);
        }
        user["parts"] = Value::Array(parts);
    }
    let contents = [user];
    let mut body = crate::provider::request::build(&crate::provider::request::RequestSpec {
        contents: &contents,
        system: o.system.as_deref(),
        json_schema: o.schema.as_ref(),
        temperature: o.temperature,
        ..Default::default()
    });
    if let Some(t) = o.thinking {
        // What the model cannot take is said once by the front.
        let _ = crate::provider::thinking::apply(&mut body, t, &o.model, o.provider);
    }
    body
}

/// What `--thinking` cannot be for the model, said once before the run.
pub fn thinking_note(o: &MapOptions) -> Option<String> {
    let t = o.thinking?;
    crate::provider::thinking::apply(&mut Value::Null, t, &o.model, o.provider)
}

/// The key of a request: the model and the body's bytes, hashed (SHA-256,
/// the first 16 bytes in hex). Two runs that would send the same bytes to
/// the same model share a key.
pub fn key_of(model: &str, body: &Value) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(model.as_bytes());
    h.update([0u8]);
    h.update(body.to_string().as_bytes());
    h.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The schema's top-level properties that a record also has: the answer's
/// fields would overwrite them, so the front refuses the run (exit 2).
pub fn schema_clashes(schema: &Value, record_fields: &[String]) -> Vec<String> {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    record_fields
        .iter()
        .filter(|f| props.contains_key(f.as_str()) || matches!(f.as_str(), "error" | "_key"))
        .cloned()
        .collect()
}
