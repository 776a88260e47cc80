//! Images and speech out: what the model answers with besides text
//! (`responseModalities` with `IMAGE`, or `AUDIO` from a TTS model with
//! `speechConfig`, `--voice`), and the images an MCP tool returns.
//!
//! Each is written to a file in `--output-dir` (default the working
//! directory) under a name that never overwrites one already there
//! (`gem-ask-image-1.png`, then `-2`, ...), and announced by a `media`
//! event (path, MIME type, size, and the image's dimensions or the
//! audio's duration; docs/events.md). Speech comes as raw 16-bit PCM
//! (`audio/L16;codec=pcm;rate=24000`) and is written as WAV, that PCM
//! behind its 44-byte header.
//!
//! In the conversation the bytes become an attachment part (kept by hash:
//! `attach`), so the session stays small and a follow-up ("now make it
//! blue") sends the image back.

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use base64::Engine;
use serde_json::{Value, json};

use super::attach::store::hash_bytes;
use super::turn::{Agent, stamp};
use crate::events::Event;
use crate::provider::{Part, Turn};
use crate::render::graphics::image_size;

/// `--modalities`: what the model is asked to answer with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Modality {
    Text,
    Image,
    Audio,
}

/// The media flags, resolved.
#[derive(Debug, Clone, Default)]
pub struct MediaOptions {
    /// `-a`: files, `-` (stdin) or https URLs.
    pub attach: Vec<String>,
    /// Where images and audio are written.
    pub output_dir: Option<PathBuf>,
    /// `--voice`: a prebuilt voice (Kore, Puck, ...); asks for audio.
    pub voice: Option<String>,
    pub modalities: Vec<Modality>,
    /// `--graphics`, for the terminal view.
    pub graphics: crate::render::graphics::Graphics,
}

impl MediaOptions {
    /// The `generationConfig` members these flags ask for, if any.
    pub fn generation(&self) -> Option<Value> {
        let mut modalities = self.modalities.clone();
        if self.voice.is_some() && !modalities.contains(&Modality::Audio) {
            modalities.push(Modality::Audio);
        }
        if modalities.is_empty() {
            return None;
        }
        let names: Vec<&str> = modalities
            .iter()
            .map(|m| match m {
                Modality::Text => "TEXT",
                Modality::Image => "IMAGE",
                Modality::Audio => "AUDIO",
            })
            .collect();
        let mut g = json!({"responseModalities": names});
        if modalities.contains(&Modality::Audio) {
            let voice = self.voice.clone().unwrap_or_else(|| "Kore".into());
            g["speechConfig"] =
                json!({"voiceConfig": {"prebuiltVoiceConfig": {"voiceName": voice}}});
        }
        Some(g)
    }

    pub fn dir(&self) -> &Path {
        self.output_dir.as_deref().unwrap_or(Path::new("."))
    }
}

/// The extension of a MIME type's files.
fn extension(mime: &str) -> &'static str {
    match mime {
        "image/png" => "png",
        "image/jpeg" => "jpg",
        "image/webp" => "webp",
        "image/gif" => "gif",
        "image/heic" => "heic",
        "audio/wav" => "wav",
        "audio/mp3" | "audio/mpeg" => "mp3",
        "application/pdf" => "pdf",
        _ => "bin",
    }
}

/// Writes `bytes` as `gem-ask-KIND-N.EXT` in `dir` (created if missing),
/// N the first number whose file does not exist yet: nothing is ever
/// overwritten. The path written.
pub fn write_new(dir: &Path, kind: &str, ext: &str, bytes: &[u8]) -> io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    for n in 1.. {
        let path = dir.join(format!("gem-ask-{kind}-{n}.{ext}"));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut f) => {
                f.write_all(bytes)?;
                return Ok(path);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    unreachable!("some number is free")
}

/// The sample rate of raw PCM (`audio/L16;codec=pcm;rate=24000`,
/// `audio/pcm;rate=16000`), or `None` when the type is not raw PCM.
pub fn pcm_rate(mime: &str) -> Option<u32> {
    let mut parts = mime.split(';').map(str::trim);
    let base = parts.next()?.to_ascii_lowercase();
    if base != "audio/l16" && base != "audio/pcm" {
        return None;
    }
    let rate = parts
        .filter_map(|p| p.strip_prefix("rate="))
        .find_map(|r| r.parse().ok());
    Some(rate.unwrap_or(24_000))
}

/// 16-bit little-endian mono PCM at `rate` as a WAV file.
pub fn wav(pcm: &[u8], rate: u32) -> Vec<u8> {
    let len = u32::try_from(pcm.len()).unwrap_or(u32::MAX - 44);
    let mut out = Vec::with_capacity(pcm.len() + 44);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * 2).to_le_bytes()); // bytes a second
    out.extend_from_slice(&2u16.to_le_bytes()); // bytes a frame
    out.extend_from_slice(&16u16.to_le_bytes()); // bits a sample
    out.extend_from_slice(b"data");
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&pcm[..len as usize]);
    out
}

/// A WAV file's duration in milliseconds, from its header.
pub fn wav_duration_ms(bytes: &[u8]) -> Option<u64> {
    let u32_at = |i: usize| Some(u32::from_le_bytes(bytes.get(i..i + 4)?.try_into().ok()?));
    (bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WAVE")).then_some(())?;
    let per_second = u64::from(u32_at(28)?);
    let data = u64::from(u32_at(40)?);
    (per_second > 0).then(|| data * 1000 / per_second)
}

/// The `media` event of a file written.
pub fn media_event(path: &Path, mime: &str, bytes: &[u8], source: &str) -> Event {
    let mut e = Event::media(&path.to_string_lossy(), mime, bytes.len(), source);
    if let Some((w, h)) = image_size(bytes) {
        e.set("width", w);
        e.set("height", h);
    }
    if let Some(ms) = wav_duration_ms(bytes) {
        e.set("duration_ms", ms);
    }
    e
}

/// What an inline part of the model's (or a tool's) carries: its MIME
/// type as written (PCM made WAV) and its bytes.
fn decode(inline: &Value) -> Option<(String, Vec<u8>)> {
    let mime = inline.get("mimeType").and_then(Value::as_str)?;
    let data = inline.get("data").and_then(Value::as_str)?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data)
        .ok()?;
    Some(match pcm_rate(mime) {
        Some(rate) => ("audio/wav".to_string(), wav(&bytes, rate)),
        None => (mime.to_string(), bytes),
    })
}

impl Agent {
    /// The model's images and audio in `turn`: each written to a file and
    /// announced, its part in the conversation made an attachment part
    /// (its `thoughtSignature` kept).
    pub fn model_media(&mut self, turn: &mut Turn) -> io::Result<()> {
        for part in turn.parts.iter_mut() {
            let Part::Json(v) = part else { continue };
            let Some(inline) = v.get("inlineData") else {
                continue;
            };
            let Some((mime, bytes)) = decode(inline) else {
                continue;
            };
            let marker = self.keep_media(&mime, bytes, "model", None)?;
            if let Some(o) = v.as_object_mut() {
                o.remove("inlineData");
                o.insert("attachment".into(), marker);
            }
        }
        Ok(())
    }

    /// A tool's images (`gemline.media` of its functionResponse, put
    /// there by the MCP reader): each written and announced, and made an
    /// attachment part among the response's `parts`.
    pub fn tool_media(&mut self, part: &mut Value, tool: &str) -> io::Result<()> {
        let Some(fr) = part.get_mut("functionResponse") else {
            return Ok(());
        };
        let media = fr
            .get_mut("response")
            .and_then(Value::as_object_mut)
            .and_then(|r| r.remove(crate::agent::toolbox::MEDIA_KEY));
        let Some(Value::Array(list)) = media else {
            return Ok(());
        };
        let mut parts = Vec::new();
        for inline in &list {
            if let Some((mime, bytes)) = decode(inline) {
                // A file the tool read is shown where it is, not copied.
                let at = inline.get("path").and_then(Value::as_str).map(Path::new);
                parts.push(json!({"attachment": self.keep_media(&mime, bytes, tool, at)?}));
            }
        }
        if !parts.is_empty() {
            fr["parts"] = Value::Array(parts);
        }
        Ok(())
    }

    fn keep_media(
        &mut self,
        mime: &str,
        bytes: Vec<u8>,
        source: &str,
        at: Option<&Path>,
    ) -> io::Result<Value> {
        let kind = if mime.starts_with("audio/") {
            "audio"
        } else if mime.starts_with("image/") {
            "image"
        } else {
            "file"
        };
        let dir = self.media_dir.clone();
        let written = match at {
            Some(p) => Ok(p.to_path_buf()),
            None => write_new(&dir, kind, extension(mime), &bytes),
        };
        let event = match written {
            Ok(path) => media_event(&path, mime, &bytes, source),
            Err(e) => Event::error(
                "warning",
                &format!("cannot write the {kind} ({mime}) to {}: {e}", dir.display()),
            ),
        };
        self.emit(stamp(event))?;
        let size = bytes.len() as u64;
        let bytes: Arc<[u8]> = bytes.into();
        let sha = self.attach.keep_bytes(bytes.clone());
        debug_assert_eq!(sha, hash_bytes(&bytes));
        Ok(
            json!({"name": format!("{kind} from {source}"), "mimeType": mime, "size": size, "sha256": sha}),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pcm_becomes_a_wav_of_its_duration() {
        assert_eq!(pcm_rate("audio/L16;codec=pcm;rate=24000"), Some(24_000));
        assert_eq!(pcm_rate("audio/pcm"), Some(24_000));
        assert_eq!(pcm_rate("audio/wav"), None);
        let pcm = vec![0u8; 48_000];
        let w = wav(&pcm, 24_000);
        assert_eq!(w.len(), 48_044);
        assert_eq!(&w[..4], b"RIFF");
        assert_eq!(wav_duration_ms(&w), Some(1000));
        assert_eq!(super::super::attach::sniff::sniff(&w), "audio/wav");
    }

    #[test]
    fn names_never_overwrite() {
        let dir = tempfile::tempdir().unwrap();
        let a = write_new(dir.path(), "image", "png", b"a").unwrap();
        let b = write_new(dir.path(), "image", "png", b"b").unwrap();
        assert_eq!(a.file_name().unwrap(), "gem-ask-image-1.png");
        assert_eq!(b.file_name().unwrap(), "gem-ask-image-2.png");
        assert_eq!(std::fs::read(&a).unwrap(), b"a");
    }

    #[test]
    fn voice_asks_for_audio() {
        let o = MediaOptions {
            voice: Some("Puck".into()),
            ..MediaOptions::default()
        };
        assert_eq!(
            o.generation().unwrap(),
            json!({"responseModalities": ["AUDIO"],
                   "speechConfig": {"voiceConfig": {"prebuiltVoiceConfig": {"voiceName": "Puck"}}}})
        );
        assert_eq!(MediaOptions::default().generation(), None);
    }
}
