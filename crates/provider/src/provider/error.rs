//! What can go wrong in one call to the model, and what the API says about
//! it: the `{"error":{code,message,status,details}}` envelope (also seen
//! wrapped in a one-element array, and inside a 200 event stream), the
//! `RetryInfo.retryDelay` hint, and the `Retry-After` header.

use std::time::Duration;

use serde_json::Value;

/// Why a model call failed, in the categories the exit codes tell apart.
#[derive(Debug, thiserror::Error)]
pub enum GenError {
    /// The API answered with an error (HTTP status, or an in-stream error
    /// object).
    #[error("{0}")]
    Api(ApiError),
    /// No HTTP answer at all: connect, timeout, reset. Retried.
    #[error("connection failed: {0}")]
    Connection(String),
    /// No HTTP answer, and another attempt would fail the same way: a bad
    /// URL, a TLS or configuration error. Not retried.
    #[error("connection failed: {0}")]
    ConnectionFatal(String),
    /// The stream ended before the model finished its turn.
    #[error("the response stream ended early: {0}")]
    StreamCut(String),
    /// Prompt or answer blocked by the safety filters.
    #[error("blocked by safety filters: {0}")]
    Blocked(String),
    /// SIGINT or SIGTERM arrived.
    #[error("interrupted")]
    Interrupted,
    /// A `--replay` file that does not answer this request.
    #[error("replay: {0}")]
    Replay(String),
    /// A file could not be uploaded through the Files API (an API
    /// failure like the others: exit 4).
    #[error("upload failed: {0}")]
    Upload(String),
    /// A Batch API call (create, get, download) failed (exit 4).
    #[error("batch job: {0}")]
    Batch(String),
    /// An attachment's bytes could not be read when the request was
    /// written (it went away or changed: exit 66).
    #[error("{0}")]
    Attachment(String),
    /// The server does not serve the model asked for: it was retired, or
    /// never existed under that name (exit 9).
    #[error("{0}")]
    ModelGone(ModelGone),
    /// Writing our own output failed (a closed pipe ends quietly upstream).
    #[error(transparent)]
    Output(#[from] std::io::Error),
}

impl GenError {
    /// The same error with `note` appended to its message.
    pub fn with_note(self, note: &str) -> GenError {
        match self {
            GenError::Api(mut a) => {
                a.message.push_str(note);
                GenError::Api(a)
            }
            GenError::Connection(m) => GenError::Connection(m + note),
            GenError::ConnectionFatal(m) => GenError::ConnectionFatal(m + note),
            GenError::StreamCut(m) => GenError::StreamCut(m + note),
            other => other,
        }
    }

    /// The `type` of the `result` event's `error`.
    pub fn kind(&self) -> &'static str {
        match self {
            GenError::Api(_) => "api_error",
            GenError::Connection(_) | GenError::ConnectionFatal(_) => "connection_error",
            GenError::StreamCut(_) => "stream_interrupted",
            GenError::Blocked(_) => "blocked",
            GenError::Interrupted => "interrupted",
            GenError::Replay(_) => "replay_error",
            GenError::Upload(_) => "upload_error",
            GenError::Batch(_) => "batch_error",
            GenError::Attachment(_) => "attachment_error",
            GenError::ModelGone(_) => "model_not_found",
            GenError::Output(_) => "output_error",
        }
    }
}

/// One API error.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    /// HTTP status, or the envelope's `code` for an in-stream error.
    pub code: u16,
    /// `RESOURCE_EXHAUSTED`, `INVALID_ARGUMENT`, ...
    pub status: String,
    pub message: String,
    /// From `RetryInfo.retryDelay` or `Retry-After`.
    pub retry_after: Option<Duration>,
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HTTP {}", self.code)?;
        if !self.status.is_empty() {
            write!(f, " {}", self.status)?;
        }
        write!(f, ": {}", self.message)
    }
}

impl ApiError {
    /// Statuses worth another attempt: rate limits and server trouble.
    pub fn retryable(&self) -> bool {
        matches!(self.code, 429 | 500 | 502 | 503 | 504)
    }

    /// Reads an error body. Anything that is not the JSON envelope still
    /// becomes an error with the body's first bytes as its message.
    pub fn from_body(http_status: u16, body: &str, retry_after_header: Option<&str>) -> ApiError {
        let parsed = serde_json::from_str::<Value>(body).ok();
        let envelope = parsed.as_ref().and_then(|v| match v {
            Value::Array(a) => a.first().and_then(|x| x.get("error")),
            other => other.get("error"),
        });
        let header_delay = retry_after_header.and_then(parse_retry_after);
        match envelope {
            Some(e) => {
                let mut err = ApiError::from_envelope(e);
                if http_status >= 400 {
                    err.code = http_status;
                }
                err.retry_after = err.retry_after.or(header_delay);
                err
            }
            None => ApiError {
                code: http_status,
                status: String::new(),
                message: if body.trim().is_empty() {
                    "(empty body)".into()
                } else {
                    body.trim().chars().take(300).collect()
                },
                retry_after: header_delay,
            },
        }
    }

    /// Reads the object under `"error"`.
    pub fn from_envelope(e: &Value) -> ApiError {
        let code = e.get("code").and_then(Value::as_u64).unwrap_or(0);
        ApiError {
            code: u16::try_from(code).unwrap_or(0),
            status: e
                .get("status")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            message: e
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("(no message)")
                .to_string(),
            retry_after: e
                .get("details")
                .and_then(Value::as_array)
                .and_then(|ds| {
                    ds.iter().find(|d| {
                        d.get("@type")
                            .and_then(Value::as_str)
                            .is_some_and(|t| t.ends_with("google.rpc.RetryInfo"))
                    })
                })
                .and_then(|d| d.get("retryDelay"))
                .and_then(Value::as_str)
                .and_then(parse_proto_duration)
                .or_else(|| {
                    e.get("message")
                        .and_then(Value::as_str)
                        .and_then(retry_in_message)
                }),
        }
    }
}

/// A model the server does not serve: the name asked for, the API's own
/// error, and the replacement when the error names one (Google's retired
/// models answer "... Consider switching to different model, for example
/// gemini-X").
#[derive(Debug, Clone, PartialEq)]
pub struct ModelGone {
    pub model: String,
    pub api: ApiError,
    pub replacement: Option<String>,
}

impl std::fmt::Display for ModelGone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the model \"{}\" is not served: it was retired or never had that name ({})",
            self.model, self.api
        )?;
        if let Some(r) = &self.replacement {
            write!(f, "; the API names {r} as its replacement: -m {r}")?;
        }
        write!(
            f,
            "; gem-ask --list-models lists the models this key can use, and -m or the config's \
             model chooses one"
        )
    }
}

impl ModelGone {
    /// Whether `e`, the answer to a request for `model`, says the model
    /// is not served: a 404 that speaks of a model (a wrong base URL's 404
    /// does not), or a refusal that calls it retired.
    pub fn from_api(e: &ApiError, model: &str) -> Option<ModelGone> {
        let model = model.trim_start_matches("models/");
        let lower = e.message.to_lowercase();
        let names_it = !model.is_empty() && lower.contains(&model.to_lowercase());
        let not_found = e.code == 404 && (names_it || lower.contains("model"));
        let retired = matches!(e.code, 400 | 404 | 410)
            && names_it
            && ["deprecated", "retired", "shut down", "no longer"]
                .iter()
                .any(|w| lower.contains(w));
        (not_found || retired).then(|| ModelGone {
            model: model.to_string(),
            api: e.clone(),
            replacement: replacement_in(&e.message, model),
        })
    }
}

/// The first word of `message` shaped like a model name (letters first,
/// a hyphen and a digit in it: `gemini-3.5-flash`, `models/gemma-4-31b-it`)
/// that is not `model` itself.
fn replacement_in(message: &str, model: &str) -> Option<String> {
    message
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '"' | '\'' | '`'))
        .map(|w| {
            w.trim_end_matches(['.', ':', '!', '?'])
                .trim_start_matches("models/")
        })
        .find(|w| {
            w.starts_with(|c: char| c.is_ascii_lowercase())
                && w.contains('-')
                && w.contains(|c: char| c.is_ascii_digit())
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
                && !w.eq_ignore_ascii_case(model)
        })
        .map(str::to_string)
}

/// "... Please retry in 44.097740004s." — quota errors say it in words
/// when the RetryInfo detail is missing.
fn retry_in_message(message: &str) -> Option<Duration> {
    let rest = &message[message.find("retry in ")? + "retry in ".len()..];
    let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    match &rest[end..] {
        r if r.starts_with("ms") => rest[..end].parse::<f64>().ok().map(|ms| ms / 1000.0),
        r if r.starts_with('s') => rest[..end].parse::<f64>().ok(),
        _ => None,
    }
    .and_then(hint_from_secs)
}

/// No server hint is believed beyond a day: a larger one (`"1e30s"`) is a
/// broken or hostile answer, and `--max-wait` refuses it anyway.
const MAX_HINT: Duration = Duration::from_secs(24 * 60 * 60);

/// Seconds as a hint; `None` for negative, NaN or infinite values, capped
/// at [`MAX_HINT`] (`Duration::from_secs_f64` would panic on huge ones).
fn hint_from_secs(secs: f64) -> Option<Duration> {
    Duration::try_from_secs_f64(secs)
        .ok()
        .map(|d| d.min(MAX_HINT))
        .or_else(|| (secs.is_finite() && secs > 0.0).then_some(MAX_HINT))
}

/// A protobuf JSON Duration: `"26s"`, `"0.5s"`, `"44.097740004s"`.
pub fn parse_proto_duration(s: &str) -> Option<Duration> {
    let secs: f64 = s.trim().strip_suffix('s')?.parse().ok()?;
    hint_from_secs(secs)
}

/// `Retry-After` in delta-seconds. The HTTP-date form is ignored: Google
/// does not send it and a wrong clock would make it misleading.
pub fn parse_retry_after(s: &str) -> Option<Duration> {
    s.trim()
        .parse::<u64>()
        .ok()
        .map(|n| Duration::from_secs(n).min(MAX_HINT))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_info_from_the_recorded_429() {
        let body = include_str!(
            "../../../../testdata/gemini/14-error-429-resource-exhausted.response.json"
        );
        let e = ApiError::from_body(429, body, None);
        assert_eq!(e.code, 429);
        assert_eq!(e.status, "RESOURCE_EXHAUSTED");
        assert_eq!(e.retry_after, Some(Duration::from_secs(26)));
        assert!(e.retryable());
    }

    #[test]
    fn retry_after_header_when_no_retry_info() {
        let e = ApiError::from_body(503, r#"{"error":{"code":503,"message":"x"}}"#, Some("3"));
        assert_eq!(e.retry_after, Some(Duration::from_secs(3)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
    }

    #[test]
    fn array_wrapped_and_non_json_bodies() {
        let e = ApiError::from_body(
            400,
            r#"[{"error":{"code":400,"message":"m","status":"INVALID_ARGUMENT"}}]"#,
            None,
        );
        assert_eq!(e.to_string(), "HTTP 400 INVALID_ARGUMENT: m");
        assert!(!e.retryable());
        let e = ApiError::from_body(502, "<html>Bad Gateway</html>", None);
        assert_eq!(e.to_string(), "HTTP 502: <html>Bad Gateway</html>");
        assert!(e.retryable());
    }

    #[test]
    fn retry_hint_in_the_message() {
        let body = r#"{"error":{"code":429,"message":"Quota exceeded for metric: x, limit: 0\nPlease retry in 44.5s.","status":"RESOURCE_EXHAUSTED"}}"#;
        let e = ApiError::from_body(429, body, None);
        assert_eq!(e.retry_after, Some(Duration::from_millis(44_500)));
        assert_eq!(
            retry_in_message("retry in 250ms"),
            Some(Duration::from_millis(250))
        );
        assert_eq!(retry_in_message("retry in a bit"), None);
    }

    #[test]
    fn a_retired_model_names_its_replacement() {
        let body = r#"{"error":{"code":404,"message":"Gemini 1.0 Pro Vision has been deprecated on July 12, 2024. Consider switching to different model, for example gemini-1.5-flash.","status":"NOT_FOUND"}}"#;
        let e = ApiError::from_body(404, body, None);
        let g = ModelGone::from_api(&e, "gemini-pro-vision").unwrap();
        assert_eq!(g.replacement.as_deref(), Some("gemini-1.5-flash"));
        let body = r#"{"error":{"code":404,"message":"models/gemini-2.5-flash is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.","status":"NOT_FOUND"}}"#;
        let e = ApiError::from_body(404, body, None);
        let g = ModelGone::from_api(&e, "models/gemini-2.5-flash").unwrap();
        assert_eq!(
            (g.model.as_str(), g.replacement),
            ("gemini-2.5-flash", None)
        );
        // A wrong base URL's 404 is not about a model.
        let e = ApiError::from_body(404, "<html>Not Found</html>", None);
        assert_eq!(ModelGone::from_api(&e, "gemini-3.5-flash"), None);
        let e = ApiError::from_body(400, r#"{"error":{"code":400,"message":"bad thing"}}"#, None);
        assert_eq!(ModelGone::from_api(&e, "gemini-3.5-flash"), None);
    }

    #[test]
    fn proto_durations() {
        assert_eq!(
            parse_proto_duration("0.25s"),
            Some(Duration::from_millis(250))
        );
        assert_eq!(parse_proto_duration("26"), None);
    }

    #[test]
    fn huge_hints_are_capped_not_a_panic() {
        assert_eq!(parse_proto_duration("1e30s"), Some(MAX_HINT));
        assert_eq!(parse_proto_duration("-1s"), None);
        assert_eq!(parse_proto_duration("NaNs"), None);
        assert_eq!(parse_proto_duration("infs"), None);
        assert_eq!(retry_in_message("Please retry in 1e300s."), None);
        let digits = format!("Please retry in {}s.", "9".repeat(300));
        assert_eq!(retry_in_message(&digits), Some(MAX_HINT));
        assert_eq!(parse_retry_after("18446744073709551615"), Some(MAX_HINT));
        let body = r#"{"error":{"code":429,"message":"m","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"1e30s"}]}}"#;
        assert_eq!(
            ApiError::from_body(429, body, None).retry_after,
            Some(MAX_HINT)
        );
    }
}

/// Why an embeddings answer is not the shape its wire format has (the
/// embedder says "the answer is not the expected shape: " before it).
#[derive(Debug, thiserror::Error)]
pub enum AnswerShape {
    /// Not the JSON of an answer.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// An OpenAI-compatible item whose `index` is past the list or taken.
    #[error("data[{at}].index {index} is out of place")]
    OutOfPlace { at: usize, index: usize },
}
