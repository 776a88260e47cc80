//! The sources of a grounded Gemini answer: `groundingMetadata` (Google
//! Search, and pages read by `urlContext`) and `urlContextMetadata`.
//!
//! `groundingChunks[i].web` is a source (`uri`, `title`: for Google Search
//! the `uri` is a `vertexaisearch.cloud.google.com` redirect and the
//! `title` the site's domain); each `groundingSupports[j]` names a span of
//! the answer (`segment.text`) and the chunks that support it
//! (`groundingChunkIndices`). A source's supported text is the spans that
//! cite it. `urlContextMetadata.urlMetadata[k]` says whether each URL asked
//! for was read (`urlRetrievalStatus`).

use serde_json::Value;

/// One source of a grounded answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    pub title: String,
    pub url: String,
    /// Spans of the answer it supports, in answer order, distinct.
    pub spans: Vec<String>,
}

impl Source {
    /// The supported text as one line: at most three spans, each cut.
    pub fn text(&self) -> Option<String> {
        const MAX: usize = 300;
        let cut = |s: &str| {
            let s = s.trim();
            if s.len() <= MAX {
                return s.to_string();
            }
            format!("{}...", &s[..s.floor_char_boundary(MAX)])
        };
        let spans: Vec<String> = self.spans.iter().take(3).map(|s| cut(s)).collect();
        (!spans.is_empty()).then(|| spans.join(" ... "))
    }
}

/// A URL `urlContext` was asked to read and how that went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlStatus {
    pub url: String,
    /// `URL_RETRIEVAL_STATUS_SUCCESS`, `..._ERROR`, `..._PAYWALL`, `..._UNSAFE`.
    pub status: String,
}

impl UrlStatus {
    pub fn ok(&self) -> bool {
        self.status.ends_with("_SUCCESS")
    }
}

fn str_of<'a>(v: &'a Value, k: &str) -> &'a str {
    v.get(k).and_then(Value::as_str).unwrap_or("")
}

/// The sources of `groundingMetadata`, in chunk order; chunks without a
/// web `uri` (retrieved documents of other kinds) are left out.
pub fn sources(grounding: &Value) -> Vec<Source> {
    let chunks = grounding
        .get("groundingChunks")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut out: Vec<Option<Source>> = chunks
        .iter()
        .map(|c| {
            let web = c.get("web")?;
            let url = str_of(web, "uri");
            (!url.is_empty()).then(|| Source {
                title: str_of(web, "title").to_string(),
                url: url.to_string(),
                spans: Vec::new(),
            })
        })
        .collect();
    for s in grounding
        .get("groundingSupports")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let text = s.get("segment").map(|g| str_of(g, "text")).unwrap_or("");
        if text.trim().is_empty() {
            continue;
        }
        for i in s
            .get("groundingChunkIndices")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_u64)
        {
            if let Some(Some(src)) = out.get_mut(i as usize)
                && !src.spans.iter().any(|t| t == text)
            {
                src.spans.push(text.to_string());
            }
        }
    }
    out.into_iter().flatten().collect()
}

/// What `urlContextMetadata` says of each URL.
pub fn url_statuses(meta: &Value) -> Vec<UrlStatus> {
    meta.get("urlMetadata")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|m| UrlStatus {
            url: str_of(m, "retrievedUrl").to_string(),
            status: str_of(m, "urlRetrievalStatus").to_string(),
        })
        .filter(|u| !u.url.is_empty())
        .collect()
}

/// The search queries Google Search ran (`webSearchQueries`).
pub fn queries(grounding: &Value) -> Vec<String> {
    grounding
        .get("webSearchQueries")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn chunks_are_sources_and_supports_their_spans() {
        let g = json!({
            "webSearchQueries": ["fastest bmw 0-60"],
            "groundingChunks": [
                {"web": {"uri": "https://a.example/1", "title": "a.example"}},
                {"retrievedContext": {"uri": "gs://x"}},
                {"web": {"uri": "https://b.example/2", "title": "b.example"}}],
            "groundingSupports": [
                {"segment": {"startIndex": 0, "endIndex": 10, "text": "M5 CS 2.9 s"},
                 "groundingChunkIndices": [0, 2]},
                {"segment": {"text": "M8 3.0 s"}, "groundingChunkIndices": [2, 9]},
                {"segment": {"text": "M5 CS 2.9 s"}, "groundingChunkIndices": [0]}]});
        let s = sources(&g);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].spans, ["M5 CS 2.9 s"]);
        assert_eq!(s[1].text().as_deref(), Some("M5 CS 2.9 s ... M8 3.0 s"));
        assert_eq!(queries(&g), ["fastest bmw 0-60"]);
        assert!(sources(&json!({})).is_empty());
    }

    #[test]
    fn url_statuses_say_which_pages_were_read() {
        let m = json!({"urlMetadata": [
            {"retrievedUrl": "https://a.example", "urlRetrievalStatus": "URL_RETRIEVAL_STATUS_SUCCESS"},
            {"retrievedUrl": "https://b.example", "urlRetrievalStatus": "URL_RETRIEVAL_STATUS_ERROR"}]});
        let u = url_statuses(&m);
        assert!(u[0].ok() && !u[1].ok());
    }
}
