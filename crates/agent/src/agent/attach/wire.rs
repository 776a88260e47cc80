//! The conversation's attachment parts as the API reads them, when a
//! request is written. Each `{"attachment": ...}` part becomes:
//!
//! - `fileData` with its file URI, while the upload has not expired
//!   (ten minutes of margin);
//! - else `inlineData` whose `data` is a placeholder of the request's
//!   [`Blobs`]: the bytes from memory (a tool's or the model's image),
//!   from the [`super::store::Store`] by content hash, or from the
//!   original file when its hash is still the same; a file too large for
//!   what is left of the inline budget is uploaded again (Gemini);
//! - else, the bytes gone, a text part saying so (and a warning).
//!
//! Other members of the part (a model image's `thoughtSignature`) stay.
//! For the openai provider a text file becomes a text part, and images
//! stay `inlineData` for it to send as data URLs. Images inside a
//! `functionResponse` (`parts`, an MCP tool's) are resolved the same way;
//! Gemini models before 3 do not read those, so there they follow the
//! function responses as parts of their own.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::store::hash_file;
use super::{Attachments, INLINE_BUDGET, human};
use crate::provider::blob::{Blobs, Source, encoded_len};
use crate::provider::files::{self, Upload};
use crate::provider::{Client, GenError};

/// Seconds before its expiry a file URI is no longer used.
const EXPIRY_MARGIN: i64 = 600;

/// What a request needs besides its body: the blobs its placeholders
/// name, and what the user should be told.
#[derive(Default)]
pub struct Wired {
    pub blobs: Blobs,
    pub warnings: Vec<String>,
}

fn expired(expires: Option<&str>) -> bool {
    let Some(e) = expires else { return false };
    match e.parse::<jiff::Timestamp>() {
        Ok(t) => t.as_second() - EXPIRY_MARGIN <= jiff::Timestamp::now().as_second(),
        Err(_) => true,
    }
}

impl Attachments {
    /// Resolves every attachment part of `body` (a request built by
    /// `provider::request::build`) in place.
    pub fn wire(&mut self, body: &mut Value, client: &Client) -> Result<Wired, GenError> {
        let mut w = Wired::default();
        let mut budget = INLINE_BUDGET;
        let old_model = {
            let m = client.model().trim_start_matches("models/");
            m.starts_with("gemini-1") || m.starts_with("gemini-2")
        };
        let Some(contents) = body.get_mut("contents").and_then(Value::as_array_mut) else {
            return Ok(w);
        };
        for content in contents {
            let Some(parts) = content.get_mut("parts").and_then(Value::as_array_mut) else {
                continue;
            };
            let mut moved = Vec::new();
            for part in parts.iter_mut() {
                if part.get("attachment").is_some() {
                    *part = self.resolve(part, client, &mut budget, &mut w)?;
                    continue;
                }
                let Some(fr) = part.get_mut("functionResponse") else {
                    continue;
                };
                let Some(inner) = fr.get_mut("parts").and_then(Value::as_array_mut) else {
                    continue;
                };
                let mut resolved = Vec::new();
                for p in inner.iter() {
                    let r = self.resolve(p, client, &mut budget, &mut w)?;
                    // Only inline data goes in a function response.
                    if r.get("inlineData").is_some()
                        && !old_model
                        && self
                            .provider
                            .wire()
                            .attachments()
                            .inline_in_function_response
                    {
                        resolved.push(json!({"inlineData": r["inlineData"]}));
                    } else {
                        moved.push(r);
                    }
                }
                match fr.as_object_mut() {
                    Some(o) if resolved.is_empty() => {
                        o.remove("parts");
                    }
                    Some(o) => {
                        o.insert("parts".into(), Value::Array(resolved));
                    }
                    None => {}
                }
            }
            parts.extend(moved);
        }
        Ok(w)
    }

    /// One attachment part as the API reads it.
    fn resolve(
        &mut self,
        part: &Value,
        client: &Client,
        budget: &mut u64,
        w: &mut Wired,
    ) -> Result<Value, GenError> {
        let Some(m) = part.get("attachment") else {
            return Ok(part.clone());
        };
        let s = |k: &str| m.get(k).and_then(Value::as_str).unwrap_or("");
        let (name, mime, sha) = (s("name"), s("mimeType"), s("sha256"));
        let size = m.get("size").and_then(Value::as_u64).unwrap_or(0);
        let with = |key: &str, inner: Value| {
            let mut out: Map<String, Value> = part
                .as_object()
                .map(|o| {
                    o.iter()
                        .filter(|(k, _)| *k != "attachment")
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect()
                })
                .unwrap_or_default();
            out.insert(key.into(), inner);
            Value::Object(out)
        };
        let uri = m.get("fileUri").and_then(Value::as_str);
        let wire = self.provider.wire().attachments();
        if let Some(uri) = uri.filter(|_| wire.files_api)
            && !expired(m.get("expires").and_then(Value::as_str))
        {
            return Ok(with("fileData", json!({"mimeType": mime, "fileUri": uri})));
        }
        let Some(source) = self.bytes_of(sha, size, s("path")) else {
            w.warnings.push(format!(
                "the attachment {name} ({mime}, {}) is no longer available (its file changed or went, and no copy was kept): it was not sent; attach it again",
                human(size)
            ));
            return Ok(
                json!({"text": format!("[The attachment {name} ({mime}) is no longer available.]")}),
            );
        };
        if wire.text_as_text
            && let Some(p) = openai_text(name, mime, &source, w)?
        {
            return Ok(p);
        }
        let need = encoded_len(size);
        if need > *budget {
            let Source::File(path) = &source else {
                return Err(GenError::Attachment(format!(
                    "{name}: too large to send inline"
                )));
            };
            if !wire.files_api {
                return Err(GenError::Attachment(format!(
                    "{name}: too large to send inline"
                )));
            }
            let up = Upload {
                path,
                size,
                mime,
                display_name: name,
            };
            let done = files::upload(client.transport(), &up, &client.retry, Arc::new(Quiet))?;
            return Ok(with(
                "fileData",
                json!({"mimeType": mime, "fileUri": done.uri}),
            ));
        }
        *budget -= need;
        let data = w.blobs.placeholder(source, size);
        Ok(with("inlineData", json!({"mimeType": mime, "data": data})))
    }

    /// Where the bytes of `sha` are: memory, the store, or the original
    /// file when it still has that hash.
    fn bytes_of(&self, sha: &str, size: u64, path: &str) -> Option<Source> {
        if let Some(b) = self.memory.get(sha) {
            return Some(Source::Bytes(b.clone()));
        }
        if let Some(p) = self
            .store
            .as_ref()
            .and_then(|s| s.path(sha))
            .filter(|p| p.is_file())
        {
            return Some(Source::File(p));
        }
        let p = std::path::Path::new(path);
        if path.is_empty() || !p.is_file() {
            return None;
        }
        match hash_file(p) {
            Ok((h, n)) if h == sha && n == size => Some(Source::File(p.to_path_buf())),
            _ => None,
        }
    }
}

/// A re-upload shows no bar; a signal still stops it.
struct Quiet;

impl files::Progress for Quiet {
    fn sent(&self, _: u64, _: u64) {}
    fn interrupted(&self) -> bool {
        crate::agent::signals::received().is_some()
    }
}

/// What the openai provider gets instead of the bytes of an attachment
/// that is not an image: a text file as text, anything else a note (and a
/// warning); `None` for an image, sent as bytes.
fn openai_text(
    name: &str,
    mime: &str,
    source: &Source,
    w: &mut Wired,
) -> Result<Option<Value>, GenError> {
    if mime == "text/plain" {
        let text = match source {
            Source::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
            Source::File(p) => std::fs::read(p)
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .map_err(|e| GenError::Attachment(format!("cannot read {name}: {e}")))?,
        };
        return Ok(Some(
            json!({"text": format!("The attached file {name}:\n\n{text}")}),
        ));
    }
    if mime.starts_with("image/") {
        return Ok(None);
    }
    w.warnings.push(format!(
        "{name} ({mime}) was not sent: the openai provider can send images and text only"
    ));
    Ok(Some(
        json!({"text": format!("[{name} ({mime}) could not be sent to this model.]")}),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_uri_is_used_until_ten_minutes_before_it_expires() {
        let at = |secs: i64| {
            jiff::Timestamp::from_second(jiff::Timestamp::now().as_second() + secs)
                .unwrap()
                .to_string()
        };
        assert!(!expired(None));
        assert!(!expired(Some(&at(3600))));
        assert!(expired(Some(&at(300))), "within the margin");
        assert!(expired(Some(&at(-60))));
        assert!(expired(Some("not a time")));
    }
}
