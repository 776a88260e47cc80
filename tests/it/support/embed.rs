//! A fake embedding endpoint on 127.0.0.1 for the memory tests: Gemini's
//! `batchEmbedContents` or an OpenAI-compatible `/embeddings`, answered
//! in the recorded response shapes (testdata/embeddings/, provenance in
//! its README) with deterministic vectors: each word of a text adds a
//! pseudo-random vector seeded by the word ([`vector_of`]), so texts that
//! share words point the same way and a test can compute every cosine
//! itself. The E5 prefixes (`query: `, `passage: `) are not words of the
//! text: they are stripped before the vector is made, and the request
//! still shows them.
//!
//! Gemini request bodies go to the capture directory as `*.embed.json`,
//! which tests/validate_requests.sh checks against the official
//! `BatchEmbedContentsRequest` schema.

use std::net::TcpListener;
use std::path::Path;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use super::{Captured, Reply, capture_dir, read_request, serve};

/// Which API the endpoint speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    Gemini,
    OpenAi,
}

pub struct FakeEmbedder {
    pub url: String,
    pub api: Api,
    captured: Arc<Mutex<Vec<Captured>>>,
}

/// The lower-case words of a text, as the vectors see them.
pub fn words(text: &str) -> Vec<String> {
    let t = text
        .strip_prefix("query: ")
        .or_else(|| text.strip_prefix("passage: "))
        .unwrap_or(text);
    t.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The deterministic vector of a text: the sum of its words' vectors.
pub fn vector_of(text: &str, dim: usize) -> Vec<f32> {
    let mut v = vec![0.0f32; dim];
    for w in words(text) {
        // FNV-1a of the word seeds a small LCG.
        let mut h: u64 = 0xcbf29ce484222325;
        for b in w.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x100000001b3);
        }
        for x in v.iter_mut() {
            h = h
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            *x += ((h >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0;
        }
    }
    v
}

/// The texts of a request body, in order.
pub fn texts(api: Api, body: &Value) -> Vec<String> {
    let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
    match api {
        Api::Gemini => body["requests"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| s(&r["content"]["parts"][0]["text"]))
            .collect(),
        Api::OpenAi => body["input"]
            .as_array()
            .into_iter()
            .flatten()
            .map(s)
            .collect(),
    }
}

/// The answer to a body, in the recorded shape of `api`.
pub fn answer(api: Api, body: &Value, dim: usize) -> String {
    let vectors: Vec<Vec<f32>> = texts(api, body).iter().map(|t| vector_of(t, dim)).collect();
    let v = match api {
        Api::Gemini => {
            json!({"embeddings": vectors.iter().map(|v| json!({"values": v})).collect::<Vec<_>>()})
        }
        Api::OpenAi => json!({
            "usage": {"prompt_tokens": 2, "total_tokens": 2},
            "object": "list",
            "data": vectors.iter().enumerate().map(|(i, v)| json!({"index": i, "embedding": v, "object": "embedding"})).collect::<Vec<_>>(),
            "model": body["model"],
        }),
    };
    format!("{}\n", serde_json::to_string_pretty(&v).unwrap())
}

impl FakeEmbedder {
    /// Answers every request with vectors of `dim` dimensions; `name`
    /// prefixes the captured Gemini bodies.
    pub fn start(name: &str, api: Api, dim: usize) -> FakeEmbedder {
        FakeEmbedder::serve_with(name, api, move |c| {
            Reply::json(200, &answer(api, &c.json(), dim))
        })
    }

    /// Answers every request with `reply` (an error status, say).
    pub fn failing(name: &str, api: Api, reply: Reply) -> FakeEmbedder {
        FakeEmbedder::serve_with(name, api, move |_| reply.clone())
    }

    fn serve_with(
        name: &str,
        api: Api,
        reply: impl Fn(&Captured) -> Reply + Send + 'static,
    ) -> FakeEmbedder {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let url = format!("http://{}", listener.local_addr().unwrap());
        let captured = Arc::new(Mutex::new(Vec::new()));
        let cap = captured.clone();
        let dir = capture_dir();
        std::fs::create_dir_all(&dir).unwrap();
        let name = name.to_string();
        let own = url.clone();
        std::thread::spawn(move || {
            for (n, stream) in listener.incoming().enumerate() {
                let Ok(stream) = stream else { continue };
                let Some(req) = read_request(&stream) else {
                    continue;
                };
                if api == Api::Gemini {
                    let file = dir.join(format!("{name}-{}.embed.json", n + 1));
                    let _ = std::fs::write(file, &req.body);
                }
                let r = reply(&req);
                cap.lock().unwrap().push(req);
                let _ = serve(stream, &r, &own);
            }
        });
        FakeEmbedder { url, api, captured }
    }

    pub fn requests(&self) -> Vec<Captured> {
        self.captured.lock().unwrap().clone()
    }

    /// Every text the endpoint was asked to embed, in order.
    pub fn texts(&self) -> Vec<String> {
        self.requests()
            .iter()
            .flat_map(|c| texts(self.api, &c.json()))
            .collect()
    }

    /// A config.toml under `home` (the tests' XDG_CONFIG_HOME) that uses
    /// this endpoint for `model`, memory on or not.
    pub fn configure(&self, home: &Path, model: &str, enabled: bool) {
        let provider = match self.api {
            Api::Gemini => "gemini",
            Api::OpenAi => "openai",
        };
        let dir = home.join("gemline");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("config.toml"),
            format!(
                "[memory]\nenabled = {enabled}\nembedding_model = \"{model}\"\nembedding_provider = \"{provider}\"\nembedding_base_url = \"{}\"\n",
                self.url
            ),
        )
        .unwrap();
    }
}
