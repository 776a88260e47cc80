//! Files sent with a prompt: `gem-ask -a FILE` (also `-a -` for stdin and
//! `-a https://...`), binary data piped on stdin, `/attach FILE` in `-i`,
//! and images an MCP tool returns.
//!
//! - [`open`] checks each one before anything is sent: the file opens
//!   (exit 66 if not), its type is sniffed from its bytes ([`sniff`]) and
//!   is one the provider takes, its size is within the limits (exit 65 if
//!   not); each error names the file and the limit. Small files go inline
//!   (`inlineData`, within [`INLINE_BUDGET`] of base64 per request),
//!   larger ones through the Files API (Gemini only, up to
//!   [`MAX_UPLOAD`]); an `https://` URL is a `fileData` reference.
//! - In the conversation an attachment is a part of its own,
//!   `{"attachment": {name, mimeType, size, sha256, fileUri?, expires?,
//!   path?}}` ([`marker`]): sessions keep that, never the bytes. Its
//!   bytes are kept by hash in the [`store`] (inline ones), so a later
//!   turn sends it again by content hash, or by its file URI while the
//!   API still holds the upload ([`wire`]).
//! - [`send`] turns the pending attachments into those parts when a turn
//!   starts (uploading what must be, with a progress bar on a terminal);
//!   [`wire`] turns the parts into what the API reads when a request is
//!   written, each inline one a placeholder whose base64 is streamed into
//!   the body once (`provider::blob`).

pub mod send;
pub mod sniff;
pub mod store;
pub mod wire;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Value, json};

use crate::provider::ProviderKind;
use crate::provider::blob::encoded_len;
use sniff::{OCTET_STREAM, SNIFF_LEN, sniff};

pub use send::Attachments;

/// Base64 of inline attachments one request carries at most: the API
/// takes requests of up to 20 MB, and the prompt needs room too.
pub const INLINE_BUDGET: u64 = 19_000_000;

/// The largest file the Files API takes.
pub const MAX_UPLOAD: u64 = 2 << 30;

/// The media types `provider` takes.
pub fn accepted(provider: ProviderKind) -> &'static [&'static str] {
    provider.wire().attachments().types
}

/// What the user named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spec {
    Path(PathBuf),
    Stdin,
    Url(String),
}

impl Spec {
    /// `-a` and `/attach`'s word: `-`, an `https://` URL, else a path.
    pub fn parse(word: &str) -> Spec {
        if word == "-" {
            Spec::Stdin
        } else if word.starts_with("https://") || word.starts_with("http://") {
            Spec::Url(word.to_string())
        } else {
            Spec::Path(PathBuf::from(word))
        }
    }
}

/// Where an attachment's bytes are.
#[derive(Debug, Clone)]
pub enum Origin {
    /// The user's file.
    Path(PathBuf),
    /// Stdin, spooled to a file that lives as long as this.
    Temp(Arc<tempfile::NamedTempFile>),
    /// A URL the API fetches itself.
    Url(String),
}

/// An attachment checked and ready to send.
#[derive(Debug, Clone)]
pub struct Attachment {
    /// The file's name (`stdin` for stdin), as the model and the user see it.
    pub name: String,
    /// Sniffed; `None` for a URL of no known extension.
    pub mime: Option<String>,
    pub size: u64,
    /// Hex SHA-256 of the bytes (empty for a URL).
    pub sha256: String,
    pub origin: Origin,
    /// Too large for inline: through the Files API.
    pub upload: bool,
}

impl Attachment {
    /// Where the bytes can be read.
    pub fn file(&self) -> Option<&Path> {
        match &self.origin {
            Origin::Path(p) => Some(p),
            Origin::Temp(t) => Some(t.path()),
            Origin::Url(_) => None,
        }
    }
}

/// Why an attachment cannot be sent; each names the file and the limit.
#[derive(Debug, thiserror::Error)]
pub enum AttachError {
    #[error("cannot attach {name}: {why}")]
    Unreadable { name: String, why: String },
    #[error("cannot attach {name}: it is {size}, more than {limit}")]
    TooLarge {
        name: String,
        size: String,
        limit: String,
    },
    #[error("cannot attach {name}: it is {mime}, which {who} does not take (it takes {takes})")]
    Unsupported {
        name: String,
        mime: String,
        who: String,
        takes: String,
    },
}

impl AttachError {
    /// 66 for a file that cannot be read, 65 for one that cannot be sent.
    pub fn exit_code(&self) -> u8 {
        match self {
            AttachError::Unreadable { .. } => crate::term::exit::NO_INPUT,
            _ => crate::term::exit::DATA,
        }
    }
}

pub use crate::render::graphics::human_bytes as human;

fn provider_name(p: ProviderKind) -> &'static str {
    p.wire().attachments().who
}

/// Checks one file (or spooled stdin) and makes its attachment; the
/// route (inline or upload) is decided by [`open`].
pub fn open_file(
    name: &str,
    path: &Path,
    origin: Origin,
    provider: ProviderKind,
) -> Result<Attachment, AttachError> {
    let unreadable = |why: String| AttachError::Unreadable {
        name: name.to_string(),
        why,
    };
    let meta = std::fs::metadata(path).map_err(|e| unreadable(io_why(&e)))?;
    if !meta.is_file() {
        return Err(unreadable("not a regular file".into()));
    }
    // Before reading it all to hash it.
    too_large(name, meta.len(), provider)?;
    let mut head = vec![0u8; SNIFF_LEN];
    let n = {
        use std::io::Read;
        let mut f = std::fs::File::open(path).map_err(|e| unreadable(io_why(&e)))?;
        let mut n = 0;
        while n < head.len() {
            match f.read(&mut head[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) => return Err(unreadable(io_why(&e))),
            }
        }
        n
    };
    head.truncate(n);
    let mime = if n == 0 { OCTET_STREAM } else { sniff(&head) };
    check_type(name, mime, provider)?;
    let (sha256, size) = store::hash_file(path).map_err(|e| unreadable(io_why(&e)))?;
    Ok(Attachment {
        name: name.to_string(),
        mime: Some(mime.to_string()),
        size,
        sha256,
        origin,
        upload: false,
    })
}

fn io_why(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

pub fn check_type(name: &str, mime: &str, provider: ProviderKind) -> Result<(), AttachError> {
    if accepted(provider).contains(&mime) {
        return Ok(());
    }
    let shown = if mime == OCTET_STREAM {
        "binary data of no type gem-ask knows".to_string()
    } else {
        mime.to_string()
    };
    Err(AttachError::Unsupported {
        name: name.to_string(),
        mime: shown,
        who: provider_name(provider).into(),
        takes: accepted(provider).join(", "),
    })
}

/// The MIME type a URL's extension suggests, for `fileData`.
fn url_mime(url: &str) -> Option<&'static str> {
    let path = url
        .split(['?', '#'])
        .next()
        .unwrap_or(url)
        .to_ascii_lowercase();
    let ext = path.rsplit('/').next()?.rsplit_once('.')?.1.to_string();
    Some(match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "heic" => "image/heic",
        "gif" => "image/gif",
        "pdf" => "application/pdf",
        "txt" | "md" | "csv" => "text/plain",
        "wav" => "audio/wav",
        "mp3" => "audio/mp3",
        "flac" => "audio/flac",
        "ogg" => "audio/ogg",
        "aac" | "m4a" => "audio/aac",
        "mp4" => "video/mp4",
        "mov" => "video/mov",
        "webm" => "video/webm",
        _ => return None,
    })
}

/// An `https://` URL as an attachment.
pub fn open_url(url: &str, provider: ProviderKind) -> Result<Attachment, AttachError> {
    if !url.starts_with("https://") {
        return Err(AttachError::Unsupported {
            name: crate::provider::transport::display_url(url),
            mime: "a plain http URL".into(),
            who: provider_name(provider).into(),
            takes: "https:// URLs".into(),
        });
    }
    let mime = url_mime(url);
    let images_only = provider.wire().attachments().url_images_only;
    if images_only && !mime.is_some_and(|m| m.starts_with("image/")) {
        return Err(AttachError::Unsupported {
            name: url.to_string(),
            mime: mime.unwrap_or("a URL of unknown type").into(),
            who: provider_name(provider).into(),
            takes: "image URLs (.png, .jpg, .webp, .gif)".into(),
        });
    }
    Ok(Attachment {
        name: url.to_string(),
        mime: mime.map(str::to_string),
        size: 0,
        sha256: String::new(),
        origin: Origin::Url(url.to_string()),
        upload: false,
    })
}

/// A file too large to send at all: past the Files API's limit, or (the
/// openai provider, which sends inline only) past the inline budget.
fn too_large(name: &str, size: u64, provider: ProviderKind) -> Result<(), AttachError> {
    let wire = provider.wire().attachments();
    let limit = if wire.files_api && size > MAX_UPLOAD {
        format!(
            "the {} bytes (2 GiB) the Files API takes",
            grouped(MAX_UPLOAD)
        )
    } else if !wire.files_api && encoded_len(size) > INLINE_BUDGET {
        format!(
            "{} sends: it sends attachments inline only, {} of base64 in a request",
            wire.who,
            human(INLINE_BUDGET)
        )
    } else {
        return Ok(());
    };
    Err(AttachError::TooLarge {
        name: name.to_string(),
        size: format!("{} bytes", grouped(size)),
        limit,
    })
}

/// `2,147,483,648`.
fn grouped(n: u64) -> String {
    crate::render::text::fixed(n as f64, 0)
}

/// Decides each attachment's route: inline while the request's budget
/// lasts, else uploaded (Gemini), else too large (exit 65).
pub fn route(list: &mut [Attachment], provider: ProviderKind) -> Result<(), AttachError> {
    let mut budget = INLINE_BUDGET;
    for a in list
        .iter_mut()
        .filter(|a| !matches!(a.origin, Origin::Url(_)))
    {
        let need = encoded_len(a.size);
        if need <= budget {
            budget -= need;
            continue;
        }
        too_large(&a.name, a.size, provider)?;
        let wire = provider.wire().attachments();
        if !wire.files_api {
            return Err(AttachError::TooLarge {
                name: a.name.clone(),
                size: format!("{} bytes", grouped(a.size)),
                limit: format!(
                    "what is left of the {} of base64 {} sends inline in one request",
                    human(INLINE_BUDGET),
                    wire.who
                ),
            });
        }
        a.upload = true;
    }
    Ok(())
}

/// The conversation's part for an attachment (see the module's doc).
pub fn marker(a: &Attachment, upload: Option<&crate::provider::files::Uploaded>) -> Value {
    if let Origin::Url(url) = &a.origin {
        let mut fd = json!({"fileUri": url});
        if let Some(m) = &a.mime {
            fd["mimeType"] = m.clone().into();
        }
        return json!({"fileData": fd});
    }
    let mut m = json!({
        "name": a.name,
        "mimeType": a.mime.clone().unwrap_or_default(),
        "size": a.size,
        "sha256": a.sha256,
    });
    // Where the bytes are while this run lasts (stdin's spooled file
    // too): read again when no copy is kept (`--no-history`).
    if let Some(p) = a.file() {
        m["path"] = p.to_string_lossy().into_owned().into();
    }
    if let Some(u) = upload {
        m["fileUri"] = u.uri.clone().into();
        m["fileName"] = u.name.clone().into();
        if let Some(e) = &u.expires {
            m["expires"] = e.clone().into();
        }
    }
    json!({"attachment": m})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn att(size: u64) -> Attachment {
        Attachment {
            name: format!("f{size}"),
            mime: Some("image/png".into()),
            size,
            sha256: String::new(),
            origin: Origin::Path(PathBuf::from("x")),
            upload: false,
        }
    }

    #[test]
    fn small_files_go_inline_within_the_budget_the_rest_is_uploaded() {
        let mut list = vec![att(10_000_000), att(10_000_000), att(1000)];
        route(&mut list, ProviderKind::Gemini).unwrap();
        assert_eq!(
            list.iter().map(|a| a.upload).collect::<Vec<_>>(),
            [false, true, false]
        );
        let mut big = vec![att(MAX_UPLOAD + 1)];
        let e = route(&mut big, ProviderKind::Gemini).unwrap_err();
        assert_eq!(e.exit_code(), 65);
        assert!(
            e.to_string()
                .contains("it is 2,147,483,649 bytes, more than the 2,147,483,648 bytes (2 GiB) the Files API takes"),
            "{e}"
        );
        let mut two = vec![att(10_000_000), att(10_000_000)];
        let e = route(&mut two, ProviderKind::Openai).unwrap_err();
        assert!(e.to_string().contains("what is left of the 19.0 MB"), "{e}");
    }

    #[test]
    fn urls_and_types() {
        assert_eq!(Spec::parse("-"), Spec::Stdin);
        assert_eq!(Spec::parse("a.png"), Spec::Path("a.png".into()));
        let a = open_url("https://x.example/doc.PDF?v=1", ProviderKind::Gemini).unwrap();
        assert_eq!(
            marker(&a, None),
            json!({"fileData": {"fileUri": "https://x.example/doc.PDF?v=1", "mimeType": "application/pdf"}})
        );
        assert!(open_url("http://x.example/a.png", ProviderKind::Gemini).is_err());
        assert!(open_url("https://x.example/a.pdf", ProviderKind::Openai).is_err());
        let e = check_type("a.gif", "image/gif", ProviderKind::Gemini).unwrap_err();
        assert!(
            e.to_string()
                .contains("a.gif: it is image/gif, which Gemini does not take"),
            "{e}"
        );
        assert!(check_type("a.gif", "image/gif", ProviderKind::Openai).is_ok());
        let e = check_type("a.pdf", "application/pdf", ProviderKind::Openai).unwrap_err();
        assert!(
            e.to_string().contains("the openai provider does not take"),
            "{e}"
        );
    }
}
