//! One model turn assembled from its stream of `GenerateContentResponse`
//! chunks: text and thought deltas go out as they come; the parts kept for
//! history are the model's own, verbatim, `thoughtSignature` included,
//! because Gemini 3 rejects a follow-up that drops one (fixture 20).
//!
//! Only the splitting of streamed text is undone: adjacent plain text
//! pieces are joined into one part and an empty text that only carries a
//! signature becomes a signature-only part, which is what the API's own
//! SDKs send back (fixture 26 was accepted that way). Thought summaries are
//! shown (with `--thoughts`) but not resent; their signatures are.
//!
//! Plain text is kept in a [`Spool`], so an answer of any length costs
//! flat memory; [`Turn::write_content`] streams the Content as JSON (the
//! session record) and [`Turn::content`] builds it as a value only where
//! it must be (history sent again).

use std::io::{self, Write};

use serde_json::{Map, Value, json};

use super::error::{ApiError, GenError};
use super::spool::Spool;

/// Token counts of a turn, from the last chunk's `usageMetadata`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Usage {
    pub prompt: u64,
    pub candidates: u64,
    pub thoughts: u64,
    pub total: u64,
    /// Of `prompt`, the tokens served from the API's cache
    /// (`cachedContentTokenCount`; an OpenAI-compatible server's
    /// `prompt_tokens_details.cached_tokens`).
    pub cached: u64,
}

impl Usage {
    /// Adds `other`; the counts come from the server, so a broken one
    /// saturates instead of overflowing the sums.
    pub fn add(&mut self, other: Usage) {
        self.prompt = self.prompt.saturating_add(other.prompt);
        self.candidates = self.candidates.saturating_add(other.candidates);
        self.thoughts = self.thoughts.saturating_add(other.thoughts);
        self.total = self.total.saturating_add(other.total);
        self.cached = self.cached.saturating_add(other.cached);
    }

    /// The share of the input tokens served from the cache, in percent
    /// (rounded down); `None` before any input was counted.
    pub fn cached_percent(&self) -> Option<u64> {
        (self.prompt > 0).then(|| self.cached.min(self.prompt) * 100 / self.prompt)
    }
}

/// A function call the model asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionCall {
    pub name: String,
    pub args: Value,
    /// Present on Gemini 3 (fixture 08); echoed in the functionResponse.
    pub id: Option<String>,
}

/// What a chunk gives the caller to show right away.
#[derive(Debug, Clone, PartialEq)]
pub enum Delta {
    Text(String),
    Thought(String),
}

/// One part of the model's Content.
#[derive(Debug)]
pub enum Part {
    /// A part kept as it came (calls, signatures, text with other fields).
    Json(Value),
    /// A plain `{"text": ...}` part, streamed pieces joined.
    Text(Spool),
}

impl Part {
    fn to_value(&self) -> io::Result<Value> {
        Ok(match self {
            Part::Json(v) => v.clone(),
            Part::Text(s) => json!({"text": s.to_text()?}),
        })
    }

    fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        match self {
            Part::Json(v) => serde_json::to_writer(&mut *out, v).map_err(io::Error::from),
            Part::Text(s) => {
                out.write_all(br#"{"text":"#)?;
                s.write_json(out)?;
                out.write_all(b"}")
            }
        }
    }
}

#[derive(Debug, Default)]
pub struct Turn {
    pub parts: Vec<Part>,
    pub calls: Vec<FunctionCall>,
    pub usage: Usage,
    pub finish_reason: Option<String>,
    pub finish_message: Option<String>,
    pub model_version: Option<String>,
    /// The candidate's `groundingMetadata` (the last chunk's that had one):
    /// a grounded answer's sources (`provider::grounding`).
    pub grounding: Option<Value>,
    /// The candidate's `urlContextMetadata`: the pages `urlContext` read.
    pub url_context: Option<Value>,
}

/// A turn is stored in the session as its `content` (the impl sits with
/// the type: the session's trait is in gemline-core, below this crate).
impl crate::session::Record for Turn {
    fn write_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        self.write_content(out)
    }
}

/// An object with nothing in it (`{}`), as some chunks carry.
fn is_empty(v: &Value) -> bool {
    v.as_object().is_none_or(|o| o.is_empty())
}

/// finishReasons that mean "the filters stopped this answer".
const BLOCKING_FINISH: &[&str] = &[
    "SAFETY",
    "BLOCKLIST",
    "PROHIBITED_CONTENT",
    "SPII",
    "IMAGE_SAFETY",
    "RECITATION",
];

impl Turn {
    /// Folds one chunk (one SSE `data:`) into the turn; returns what to show.
    pub fn push_chunk(&mut self, chunk: &Value) -> Result<Vec<Delta>, GenError> {
        if let Some(e) = chunk.get("error") {
            return Err(GenError::Api(ApiError::from_envelope(e)));
        }
        if let Some(u) = chunk.get("usageMetadata") {
            let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0);
            self.usage = Usage {
                prompt: n("promptTokenCount"),
                candidates: n("candidatesTokenCount"),
                thoughts: n("thoughtsTokenCount"),
                total: n("totalTokenCount"),
                cached: n("cachedContentTokenCount"),
            };
        }
        if let Some(v) = chunk.get("modelVersion").and_then(Value::as_str) {
            self.model_version = Some(v.to_string());
        }
        if let Some(reason) = chunk
            .get("promptFeedback")
            .and_then(|p| p.get("blockReason"))
            .and_then(Value::as_str)
        {
            return Err(GenError::Blocked(format!(
                "the prompt was blocked (blockReason {reason})"
            )));
        }
        let mut out = Vec::new();
        let Some(cand) = chunk
            .get("candidates")
            .and_then(Value::as_array)
            .and_then(|c| c.first())
        else {
            return Ok(out);
        };
        if let Some(g) = cand.get("groundingMetadata").filter(|g| !is_empty(g)) {
            self.grounding = Some(g.clone());
        }
        if let Some(u) = cand.get("urlContextMetadata").filter(|u| !is_empty(u)) {
            self.url_context = Some(u.clone());
        }
        let parts = cand
            .get("content")
            .and_then(|c| c.get("parts"))
            .and_then(Value::as_array);
        for part in parts.into_iter().flatten() {
            let Some(obj) = part.as_object() else {
                continue;
            };
            self.absorb(obj, &mut out)?;
        }
        if let Some(r) = cand.get("finishReason").and_then(Value::as_str) {
            self.finish_reason = Some(r.to_string());
            if let Some(m) = cand.get("finishMessage").and_then(Value::as_str) {
                self.finish_message = Some(m.to_string());
            }
            if BLOCKING_FINISH.contains(&r) {
                let blocked: Vec<&str> = cand
                    .get("safetyRatings")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter(|r| r.get("blocked").and_then(Value::as_bool) == Some(true))
                    .filter_map(|r| r.get("category").and_then(Value::as_str))
                    .collect();
                let detail = if blocked.is_empty() {
                    String::new()
                } else {
                    format!(", category {}", blocked.join(", "))
                };
                return Err(GenError::Blocked(format!(
                    "the answer was stopped (finishReason {r}{detail})"
                )));
            }
        }
        Ok(out)
    }

    fn absorb(&mut self, obj: &Map<String, Value>, out: &mut Vec<Delta>) -> io::Result<()> {
        let signature = obj.get("thoughtSignature").cloned();
        if obj.get("thought").and_then(Value::as_bool) == Some(true) {
            if let Some(t) = obj.get("text").and_then(Value::as_str)
                && !t.is_empty()
            {
                out.push(Delta::Thought(t.to_string()));
            }
            if let Some(sig) = signature {
                self.parts
                    .push(Part::Json(json!({"thoughtSignature": sig})));
            }
            return Ok(());
        }
        if let Some(fc) = obj.get("functionCall") {
            self.calls.push(FunctionCall {
                name: fc
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                args: fc.get("args").cloned().unwrap_or_else(|| json!({})),
                id: fc.get("id").and_then(Value::as_str).map(str::to_string),
            });
            self.parts.push(Part::Json(Value::Object(obj.clone())));
            return Ok(());
        }
        if let Some(text) = obj.get("text").and_then(Value::as_str) {
            if !text.is_empty() {
                out.push(Delta::Text(text.to_string()));
            }
            let plain = obj.len() == 1;
            if plain {
                if text.is_empty() {
                    return Ok(());
                }
                if let Some(Part::Text(prev)) = self.parts.last_mut() {
                    return prev.push_str(text);
                }
                let mut spool = Spool::new();
                spool.push_str(text)?;
                self.parts.push(Part::Text(spool));
            } else if text.is_empty() && obj.len() == 2 && signature.is_some() {
                self.parts.push(Part::Json(
                    json!({"thoughtSignature": signature.unwrap_or_default()}),
                ));
            } else {
                self.parts.push(Part::Json(Value::Object(obj.clone())));
            }
            return Ok(());
        }
        // executableCode, inlineData, ...: kept as they came.
        self.parts.push(Part::Json(Value::Object(obj.clone())));
        Ok(())
    }

    /// The model's Content for the history, built in memory whole.
    pub fn content(&self) -> io::Result<Value> {
        let parts = self
            .parts
            .iter()
            .map(Part::to_value)
            .collect::<io::Result<Vec<_>>>()?;
        Ok(json!({"role": "model", "parts": parts}))
    }

    /// The model's Content as JSON, the bytes `content().to_string()`
    /// gives, written piece by piece: a long answer is never whole in
    /// memory.
    pub fn write_content(&self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(br#"{"role":"model","parts":["#)?;
        for (i, p) in self.parts.iter().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            p.write_json(out)?;
        }
        out.write_all(b"]}")
    }

    /// All text of the turn.
    pub fn text(&self) -> io::Result<String> {
        let mut s = String::new();
        for p in &self.parts {
            match p {
                Part::Text(t) => s.push_str(&t.to_text()?),
                Part::Json(v) => s.push_str(v.get("text").and_then(Value::as_str).unwrap_or("")),
            }
        }
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn_from_sse(raw: &str) -> (Turn, Vec<Delta>) {
        let mut t = Turn::default();
        let mut deltas = Vec::new();
        let mut r = crate::provider::sse::SseReader::new(raw.as_bytes());
        while let Some(ev) = r.next_event().unwrap() {
            let v: Value = serde_json::from_str(&ev.data).unwrap();
            deltas.extend(t.push_chunk(&v).unwrap());
        }
        (t, deltas)
    }

    #[test]
    fn streamed_text_with_final_signature_becomes_the_fixture_26_history() {
        let (t, deltas) = turn_from_sse(include_str!(
            "../../../../testdata/gemini/25-text-stream-after-tools-gemini-3.1-pro-preview.response.sse"
        ));
        assert_eq!(deltas.len(), 3);
        let expected: Value = serde_json::from_str(include_str!(
            "../../../../testdata/gemini/26-second-turn-history-gemini-3.1-pro-preview.request.json"
        ))
        .unwrap();
        assert_eq!(t.content().unwrap(), expected["contents"][3]);
        let mut streamed = Vec::new();
        t.write_content(&mut streamed).unwrap();
        assert_eq!(streamed, t.content().unwrap().to_string().into_bytes());
        assert_eq!(t.usage.prompt, 440);
    }

    #[test]
    fn one_call_per_event_is_the_fixture_09_history() {
        let (t, _) = turn_from_sse(include_str!(
            "../../../../testdata/gemini/08-parallel-functionCall-stream-gemini-3-flash-preview.response.sse"
        ));
        assert_eq!(t.calls.len(), 3);
        assert_eq!(t.calls[0].id.as_deref(), Some("3ae8iwca"));
        let expected: Value = serde_json::from_str(include_str!(
            "../../../../testdata/gemini/09-parallel-functionResponse-stream-gemini-3-flash-preview.request.json"
        ))
        .unwrap();
        assert_eq!(t.content().unwrap(), expected["contents"][1]);
        let mut streamed = Vec::new();
        t.write_content(&mut streamed).unwrap();
        assert_eq!(streamed, t.content().unwrap().to_string().into_bytes());
    }

    #[test]
    fn a_long_answer_is_spooled_and_written_as_the_same_json() {
        let mut t = Turn::default();
        let piece = "chunk \"q\" \\ ü\n\u{1}";
        let mut whole = String::new();
        for i in 0..40_000 {
            let text = format!("{i}: {piece}");
            whole.push_str(&text);
            let chunk =
                json!({"candidates":[{"content":{"role":"model","parts":[{"text": text}]}}]});
            t.push_chunk(&chunk).unwrap();
        }
        let last = json!({"candidates":[{"content":{"role":"model","parts":[
            {"text":"","thoughtSignature":"sig"}]},"finishReason":"STOP"}]});
        t.push_chunk(&last).unwrap();
        assert!(matches!(&t.parts[0], Part::Text(s) if s.spilled()));
        assert_eq!(t.text().unwrap(), whole);
        let expected = json!({"role":"model","parts":[{"text": whole},{"thoughtSignature":"sig"}]});
        assert_eq!(t.content().unwrap(), expected);
        let mut streamed = Vec::new();
        t.write_content(&mut streamed).unwrap();
        assert_eq!(streamed, expected.to_string().into_bytes());
    }

    #[test]
    fn safety_finish_and_prompt_block_are_errors() {
        let v: Value = serde_json::from_str(include_str!(
            "../../../../testdata/gemini/22-safety-finishReason-SAFETY.response.json"
        ))
        .unwrap();
        let e = Turn::default().push_chunk(&v).unwrap_err();
        assert!(
            e.to_string().contains("HARM_CATEGORY_SEXUALLY_EXPLICIT"),
            "{e}"
        );
        let v: Value = serde_json::from_str(include_str!(
            "../../../../testdata/gemini/23-safety-promptFeedback-blocked.response.json"
        ))
        .unwrap();
        let e = Turn::default().push_chunk(&v).unwrap_err();
        assert!(e.to_string().contains("PROHIBITED_CONTENT"), "{e}");
    }
}
