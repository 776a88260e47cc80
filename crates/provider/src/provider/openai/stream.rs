//! A chat-completions stream folded into a [`Turn`]: text deltas shown as
//! they come and joined into one text part; tool calls accumulated by
//! their `index` across chunks (the id and name come first, the arguments
//! JSON in pieces) and turned into `functionCall` parts at the end;
//! `extra_content` merged per call and kept on its part, Gemini's
//! `thought_signature` as the part's `thoughtSignature`. A non-streamed
//! `chat.completion` (a `message` instead of a `delta`) folds the same way.
//!
//! The answer is complete at `data: [DONE]` or a `finish_reason`; a stream
//! that ends with neither was cut.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::provider::spool::Spool;
use crate::provider::{Delta, FunctionCall, GenError, Part, Turn, Usage};
use crate::provider::{StreamFold, parse_chunk};

#[derive(Debug, Default)]
pub struct OpenAiStream {
    text: Spool,
    calls: BTreeMap<u64, Call>,
    usage: Usage,
    finish: Option<String>,
    done: bool,
    model: Option<String>,
}

#[derive(Debug, Default)]
struct Call {
    id: Option<String>,
    name: String,
    arguments: String,
    extra: Map<String, Value>,
}

impl StreamFold for OpenAiStream {
    fn push(&mut self, data: &str) -> Result<Vec<Delta>, GenError> {
        if data.trim() == "[DONE]" {
            self.done = true;
            return Ok(Vec::new());
        }
        let chunk = parse_chunk(data)?;
        if let Some(e) = chunk.get("error") {
            return Err(GenError::Api(super::stream_error(e)));
        }
        if let Some(u) = chunk.get("usage").filter(|u| u.is_object()) {
            self.usage = usage(u);
        }
        if let Some(m) = chunk.get("model").and_then(Value::as_str) {
            self.model = Some(m.to_string());
        }
        let mut out = Vec::new();
        // One answer is asked for (no `n`): the choice with index 0.
        let Some(choice) = chunk
            .get("choices")
            .and_then(Value::as_array)
            .and_then(|cs| {
                cs.iter()
                    .find(|c| c.get("index").and_then(Value::as_u64).unwrap_or(0) == 0)
            })
        else {
            return Ok(out);
        };
        if let Some(delta) = choice.get("delta").or_else(|| choice.get("message")) {
            self.absorb(delta, &mut out)?;
        }
        if let Some(r) = choice.get("finish_reason").and_then(Value::as_str) {
            if r == "content_filter" {
                return Err(GenError::Blocked(
                    "the answer was stopped (finish_reason content_filter)".into(),
                ));
            }
            self.finish = Some(r.to_string());
        }
        Ok(out)
    }

    fn finish(self: Box<Self>) -> Result<Turn, GenError> {
        if !self.done && self.finish.is_none() {
            return Err(GenError::StreamCut(
                "neither a finish_reason nor data: [DONE] before the end of the stream".into(),
            ));
        }
        Ok(self.into_turn())
    }
}

impl OpenAiStream {
    fn absorb(&mut self, delta: &Value, out: &mut Vec<Delta>) -> std::io::Result<()> {
        if let Some(t) = delta.get("content").and_then(Value::as_str)
            && !t.is_empty()
        {
            self.text.push_str(t)?;
            out.push(Delta::Text(t.to_string()));
        }
        // Reasoning models' thoughts: llama.cpp, vLLM and DeepSeek say
        // `reasoning_content`, Ollama `reasoning`. Shown, never resent.
        for key in ["reasoning_content", "reasoning"] {
            if let Some(t) = delta.get(key).and_then(Value::as_str)
                && !t.is_empty()
            {
                out.push(Delta::Thought(t.to_string()));
            }
        }
        let calls = delta.get("tool_calls").and_then(Value::as_array);
        for (pos, tc) in calls.into_iter().flatten().enumerate() {
            let index = tc
                .get("index")
                .and_then(Value::as_u64)
                .unwrap_or(pos as u64);
            let call = self.calls.entry(index).or_default();
            if let Some(id) = tc
                .get("id")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
            {
                call.id = Some(id.to_string());
            }
            let f = tc.get("function");
            if let Some(name) = f.and_then(|f| f.get("name")).and_then(Value::as_str)
                && call.name.is_empty()
            {
                call.name = name.to_string();
            }
            match f.and_then(|f| f.get("arguments")) {
                Some(Value::String(piece)) => call.arguments.push_str(piece),
                // Some servers send the arguments as an object.
                Some(obj @ Value::Object(_)) => call.arguments = obj.to_string(),
                _ => {}
            }
            if let Some(extra) = tc.get("extra_content").and_then(Value::as_object) {
                merge(&mut call.extra, extra);
            }
        }
        Ok(())
    }

    fn into_turn(self) -> Turn {
        let mut turn = Turn {
            usage: self.usage,
            model_version: self.model,
            ..Turn::default()
        };
        if !self.text.is_empty() {
            turn.parts.push(Part::Text(self.text));
        }
        let mut malformed = false;
        for (index, call) in self.calls {
            if call.name.is_empty() {
                malformed = true;
                continue;
            }
            let args = if call.arguments.trim().is_empty() {
                json!({})
            } else {
                match serde_json::from_str::<Value>(&call.arguments) {
                    Ok(v @ Value::Object(_)) => v,
                    _ => {
                        malformed = true;
                        json!({})
                    }
                }
            };
            // The id ties the tool's answer to the call; servers that send
            // none get one, so the next request can answer it.
            let id = call.id.unwrap_or_else(|| format!("call_{index}"));
            let mut part = Map::new();
            part.insert(
                "functionCall".into(),
                json!({"id": id, "name": call.name, "args": args}),
            );
            let mut extra = call.extra;
            if let Some(sig) = take_signature(&mut extra) {
                part.insert("thoughtSignature".into(), sig);
            }
            if !extra.is_empty() {
                part.insert("extra_content".into(), Value::Object(extra));
            }
            turn.calls.push(FunctionCall {
                name: call.name,
                args,
                id: Some(id),
            });
            turn.parts.push(Part::Json(Value::Object(part)));
        }
        turn.finish_reason = Some(
            match self.finish.as_deref() {
                _ if malformed => "MALFORMED_FUNCTION_CALL",
                Some("length") => "MAX_TOKENS",
                _ => "STOP",
            }
            .to_string(),
        );
        turn
    }
}

/// `extra_content.google.thought_signature`, removed (with what it leaves
/// empty): it becomes the part's `thoughtSignature`.
fn take_signature(extra: &mut Map<String, Value>) -> Option<Value> {
    let google = extra.get_mut("google")?.as_object_mut()?;
    let sig = google.remove("thought_signature")?;
    if google.is_empty() {
        extra.remove("google");
    }
    Some(sig)
}

/// Merges `more` into `into`, objects key by key; a later chunk's value
/// wins for anything else.
fn merge(into: &mut Map<String, Value>, more: &Map<String, Value>) {
    for (k, v) in more {
        match (into.get_mut(k), v) {
            (Some(Value::Object(a)), Value::Object(b)) => merge(a, b),
            _ => {
                into.insert(k.clone(), v.clone());
            }
        }
    }
}

/// Token counts; reasoning tokens are part of `completion_tokens` here,
/// counted apart as Gemini counts thoughts.
fn usage(u: &Value) -> Usage {
    let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0);
    let thoughts = u
        .get("completion_tokens_details")
        .and_then(|d| d.get("reasoning_tokens"))
        .and_then(Value::as_u64)
        .unwrap_or(0);
    Usage {
        prompt: n("prompt_tokens"),
        candidates: n("completion_tokens").saturating_sub(thoughts),
        thoughts,
        total: n("total_tokens"),
        cached: u
            .get("prompt_tokens_details")
            .and_then(|d| d.get("cached_tokens"))
            .and_then(Value::as_u64)
            .unwrap_or(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::sse::SseReader;

    fn fold(raw: &str) -> (Result<Turn, GenError>, Vec<Delta>) {
        let mut s: Box<dyn StreamFold> = Box::new(OpenAiStream::default());
        let mut deltas = Vec::new();
        let mut r = SseReader::new(raw.as_bytes());
        while let Some(ev) = r.next_event().unwrap() {
            match s.push(&ev.data) {
                Ok(d) => deltas.extend(d),
                Err(e) => return (Err(e), deltas),
            }
        }
        (s.finish(), deltas)
    }

    #[test]
    fn arguments_split_across_chunks_are_joined_by_index() {
        let raw = concat!(
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"tool_calls\":[",
            "{\"index\":0,\"id\":\"a\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"\"}},",
            "{\"index\":1,\"id\":\"b\",\"type\":\"function\",\"function\":{\"name\":\"g\",\"arguments\":\"{\\\"x\\\"\"}}]}}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"q\\\": 1}\"},",
            "\"extra_content\":{\"google\":{\"thought_signature\":\"SIG\"}}}]}}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\": 2}\"}}]},",
            "\"finish_reason\":\"tool_calls\"}]}\n\n",
            "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":7,\"total_tokens\":12,",
            "\"prompt_tokens_details\":{\"cached_tokens\":4}}}\n\n",
            "data: [DONE]\n\n"
        );
        let (t, deltas) = fold(raw);
        let t = t.unwrap();
        assert!(deltas.is_empty());
        assert_eq!(t.calls.len(), 2);
        assert_eq!(
            (t.calls[0].name.as_str(), &t.calls[0].args),
            ("f", &json!({"q": 1}))
        );
        assert_eq!(
            (t.calls[1].id.as_deref(), &t.calls[1].args),
            (Some("b"), &json!({"x": 2}))
        );
        assert_eq!(
            t.content().unwrap()["parts"][0],
            json!({"functionCall": {"id": "a", "name": "f", "args": {"q": 1}}, "thoughtSignature": "SIG"})
        );
        assert_eq!((t.usage.total, t.usage.cached), (12, 4));
        assert_eq!(t.finish_reason.as_deref(), Some("STOP"));
    }

    #[test]
    fn text_then_done_is_a_turn_and_no_end_is_a_cut() {
        let (t, deltas) = fold(include_str!(
            "../../../../../testdata/openai/oa-01-gemini-openai-compat-stream.sse"
        ));
        let t = t.unwrap();
        assert_eq!(deltas.len(), 3);
        assert!(t.text().unwrap().starts_with("AI works by **learning"));
        assert_eq!(t.usage.prompt, 12);
        let cut = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n";
        let (e, deltas) = fold(cut);
        assert_eq!(deltas, [Delta::Text("Hel".into())]);
        assert_eq!(e.unwrap_err().kind(), "stream_interrupted");
    }

    #[test]
    fn odd_answers_are_errors_or_warnings_not_panics() {
        let (e, _) = fold(
            "data: {\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\",\"code\":null}}\n\n",
        );
        assert_eq!(
            e.unwrap_err().to_string(),
            "HTTP 0 server_error: overloaded"
        );
        let (e, _) = fold(
            "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"content_filter\"}]}\n\n",
        );
        assert_eq!(e.unwrap_err().kind(), "blocked");
        let bad = "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"x\",\"function\":{\"name\":\"f\",\"arguments\":\"{oops\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\n";
        let t = fold(bad).0.unwrap();
        assert_eq!(t.finish_reason.as_deref(), Some("MALFORMED_FUNCTION_CALL"));
        assert_eq!(t.calls[0].args, json!({}));
        let long = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"},\"finish_reason\":\"length\"}]}\n\n";
        assert_eq!(
            fold(long).0.unwrap().finish_reason.as_deref(),
            Some("MAX_TOKENS")
        );
        assert_eq!(
            fold("data: [1,2]\n\n").0.unwrap_err().kind(),
            "stream_interrupted"
        );
    }
}
