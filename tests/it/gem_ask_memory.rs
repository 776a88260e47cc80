//! `gem-ask memory ...` from the shell, against a fake embedding endpoint
//! (support::embed): every command's JSON lines, a fixed corpus ranked by
//! keywords, by vectors and fused, each order checked against a reference
//! computed here (FTS5's BM25 formula, cosine of the endpoint's vectors,
//! reciprocal rank fusion with recency breaking ties); export then import
//! gives the same store; E5 prefixes; keywords only when no embedding
//! model is set; an embedding that fails keeps the memory for `reindex`.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Value, json};

use crate::support::embed::{Api, FakeEmbedder, vector_of, words};
use crate::support::{GEMINI_ENV, KEY, Reply, events, temp_dir};

/// `gem-ask memory ARGS` with its data and config under `home`, not run.
pub fn memory_cmd(home: &Path, args: &[&str]) -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin!("gem-ask"));
    for k in GEMINI_ENV {
        cmd.env_remove(k);
    }
    cmd.env_remove("OPENAI_API_KEY")
        .env_remove("OPENAI_BASE_URL")
        .env("GEMINI_API_KEY", KEY)
        .env("XDG_DATA_HOME", home)
        .env("XDG_CONFIG_HOME", home)
        .env("GEMLINE_RETRY_BASE_MS", "1")
        .arg("memory")
        .args(args);
    cmd
}

/// `gem-ask memory ARGS` with its data and config under `home`.
pub fn memory(home: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    use assert_cmd::assert::OutputAssertExt;
    memory_cmd(home, args).assert()
}

pub fn ok(home: &Path, args: &[&str]) -> Vec<Value> {
    let out = memory(home, args).success().get_output().clone();
    events(&out.stdout)
}

/// The corpus of the ranking test: key, content, tags. No two of its
/// words share a Porter stem, so FTS5's stemmed tokens count as the
/// plain words do.
pub const CORPUS: &[(&str, &str, &[&str])] = &[
    (
        "deploy-host",
        "The deploy host is build seven in the north rack",
        &["infra"],
    ),
    ("db-port", "Staging database listens on port 5433", &["db"]),
    (
        "backup-cron",
        "Nightly backup runs at two with restic",
        &["ops"],
    ),
    ("lunch", "Team lunch is on fridays at noon", &[]),
    ("editor", "Alice prefers helix as her editor", &["prefs"]),
    (
        "deploy-window",
        "Deploy only on tuesday mornings",
        &["infra"],
    ),
    (
        "vpn",
        "The vpn gateway sits in the north rack too",
        &["infra"],
    ),
    ("cache", "Redis cache evicts keys after an hour", &["db"]),
    (
        "oncall",
        "Bob is on call this week for the database",
        &["ops"],
    ),
    ("coffee", "The coffee machine on floor three is broken", &[]),
];

/// Writes the corpus as an import file, each memory updated a minute
/// after the one before.
pub fn corpus_file(home: &Path) -> std::path::PathBuf {
    let lines: String = CORPUS
        .iter()
        .enumerate()
        .map(|(i, (k, c, t))| {
            let at = format!("2026-03-01T10:{i:02}:00Z");
            format!(
                "{}\n",
                json!({"key": k, "content": c, "tags": t, "created": at, "updated": at})
            )
        })
        .collect();
    let p = home.join("corpus.jsonl");
    std::fs::write(&p, lines).unwrap();
    p
}

/// A home with the corpus imported and embedded by `e` (model `fake-embed`).
pub fn corpus_home(name: &str, e: &FakeEmbedder) -> std::path::PathBuf {
    let home = temp_dir(name);
    e.configure(&home, "fake-embed", false);
    let file = corpus_file(&home);
    let imported = ok(&home, &["import", file.to_str().unwrap()]);
    assert_eq!(imported[0]["added"], 10);
    let reindexed = ok(&home, &["reindex"]);
    assert_eq!(reindexed[0]["embedded"], 10);
    home
}

/// BM25 as FTS5 computes it (k1 1.2, b 0.75, IDF floored at 1e-6) over
/// each memory's key, content and tags, for the query's words but
/// English stop words and those half the memories hold (no weight:
/// gem-ask leaves them out); the memories any word matches, best first
/// (ties: later updated first).
fn bm25_reference(query: &[String]) -> Vec<(String, f64)> {
    let docs: Vec<Vec<String>> = CORPUS
        .iter()
        .map(|(k, c, t)| words(&format!("{k}\n{c}\n{}", t.join(" "))))
        .collect();
    let n = docs.len() as f64;
    let held = |q: &String| docs.iter().filter(|d| d.contains(q)).count() as f64;
    // Lucene's English stop words.
    let stop = "a an and are as at be but by for if in into is it no not of on or such that the \
                their then there these they this to was will with";
    let stop: Vec<&str> = stop.split_whitespace().collect();
    let telling: Vec<&String> = query
        .iter()
        .filter(|q| !stop.contains(&q.as_str()) && held(q) > 0.0 && held(q) * 2.0 < n)
        .collect();
    assert!(!telling.is_empty());
    let query = telling;
    let avg = docs.iter().map(Vec::len).sum::<usize>() as f64 / n;
    let mut scored: Vec<(usize, f64)> = Vec::new();
    for (i, d) in docs.iter().enumerate() {
        let mut score = 0.0;
        let mut hit = false;
        for q in &query {
            let f = d.iter().filter(|w| w == q).count() as f64;
            if f == 0.0 {
                continue;
            }
            hit = true;
            let having = held(q);
            let idf = ((n - having + 0.5) / (having + 0.5)).ln().max(1e-6);
            score += idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * d.len() as f64 / avg));
        }
        if hit {
            scored.push((i, score));
        }
    }
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
    scored
        .into_iter()
        .map(|(i, s)| (CORPUS[i].0.to_string(), s))
        .collect()
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| f64::from(*x) * f64::from(*y))
        .sum();
    let norm = |v: &[f32]| v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    dot / (norm(a) * norm(b))
}

/// Every memory by cosine of the endpoint's vectors to the query's.
fn vector_reference(query: &str, dim: usize) -> Vec<(String, f64)> {
    let q = vector_of(query, dim);
    let mut v: Vec<(String, f64)> = CORPUS
        .iter()
        .map(|(k, c, _)| (k.to_string(), cosine(&q, &vector_of(c, dim))))
        .collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1));
    for pair in v.windows(2) {
        assert!(
            pair[0].1 - pair[1].1 > 1e-4,
            "the corpus needs cosines apart: {v:?}"
        );
    }
    v
}

/// Reciprocal rank fusion (k 60), ties to the later updated memory.
fn fused_reference(lists: &[&[(String, f64)]]) -> Vec<(String, f64)> {
    let mut score: BTreeMap<String, f64> = BTreeMap::new();
    for list in lists {
        for (i, (k, _)) in list.iter().enumerate() {
            *score.entry(k.clone()).or_default() += 1.0 / (60.0 + (i + 1) as f64);
        }
    }
    let updated = |k: &str| CORPUS.iter().position(|c| c.0 == k).unwrap();
    let mut v: Vec<(String, f64)> = score.into_iter().collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1).then(updated(&b.0).cmp(&updated(&a.0))));
    v
}

fn ranked(hits: &[Value], which: &str, value: &str) -> Vec<(String, f64)> {
    let mut v: Vec<(u64, String, f64)> = hits
        .iter()
        .filter_map(|h| {
            let r = h["ranks"].get(which)?;
            Some((
                r["rank"].as_u64()?,
                h["key"].as_str()?.to_string(),
                r[value].as_f64()?,
            ))
        })
        .collect();
    v.sort_by_key(|x| x.0);
    v.into_iter().map(|(_, k, s)| (k, s)).collect()
}

fn keys(v: &[(String, f64)]) -> Vec<&str> {
    v.iter().map(|x| x.0.as_str()).collect()
}

#[test]
fn keywords_vectors_and_fusion_rank_as_the_reference_does() {
    let dim = 32;
    let e = FakeEmbedder::start("memory-rank", Api::Gemini, dim);
    let home = corpus_home("memory-rank", &e);
    let query = "which rack holds the deploy host";
    let hits = ok(&home, &["search", "-n", "10", query]);
    assert_eq!(hits.len(), 10, "{hits:?}");

    let bm25 = bm25_reference(&words(query));
    let got = ranked(&hits, "keywords", "bm25");
    assert_eq!(keys(&got), keys(&bm25));
    for ((_, a), (_, b)) in got.iter().zip(&bm25) {
        assert!((a - b).abs() < 1e-9 * b.abs().max(1.0), "bm25 {a} != {b}");
    }
    let vectors = vector_reference(query, dim);
    let got = ranked(&hits, "vector", "cosine");
    assert_eq!(keys(&got), keys(&vectors));
    for ((_, a), (_, b)) in got.iter().zip(&vectors) {
        assert!((a - b).abs() < 1e-4, "cosine {a} != {b}");
    }
    let fused = fused_reference(&[&bm25, &vectors]);
    let got: Vec<(String, f64)> = hits
        .iter()
        .map(|h| {
            (
                h["key"].as_str().unwrap().to_string(),
                h["score"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(keys(&got), keys(&fused));
    for ((_, a), (_, b)) in got.iter().zip(&fused) {
        assert!((a - b).abs() < 1e-12, "fused {a} != {b}");
    }

    // The endpoint was asked for documents (with their keys as titles),
    // then for the query, in Gemini's shape.
    let bodies: Vec<Value> = e.requests().iter().map(|c| c.json()).collect();
    assert!(
        e.requests()[0]
            .request_line
            .starts_with("POST /v1beta/models/fake-embed:batchEmbedContents")
    );
    assert_eq!(e.requests()[0].header("x-goog-api-key"), Some(KEY));
    let first = &bodies[0]["requests"][0];
    assert_eq!(
        (&first["model"], &first["taskType"], &first["title"]),
        (
            &json!("models/fake-embed"),
            &json!("RETRIEVAL_DOCUMENT"),
            &json!("deploy-host")
        )
    );
    let last = &bodies.last().unwrap()["requests"][0];
    assert_eq!(last["taskType"], "RETRIEVAL_QUERY");
    assert_eq!(last["content"]["parts"][0]["text"], query);
}

#[test]
fn filters_limit_what_a_search_and_a_listing_find() {
    let e = FakeEmbedder::start("memory-filters", Api::Gemini, 16);
    let home = corpus_home("memory-filters", &e);
    let keys_of = |ev: Vec<Value>| -> Vec<String> {
        ev.iter()
            .map(|h| h["key"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        keys_of(ok(&home, &["search", "--tag", "infra", "north rack"])),
        ["vpn", "deploy-host", "deploy-window"]
    );
    assert_eq!(
        keys_of(ok(
            &home,
            &[
                "list",
                "--since",
                "2026-03-01T10:07:00Z",
                "--until",
                "2026-03-01T10:09:00Z"
            ]
        )),
        ["oncall", "cache"]
    );
    assert_eq!(
        keys_of(ok(&home, &["list", "-n", "2"])),
        ["coffee", "oncall"]
    );
    memory(&home, &["list", "--since", "last tuesday"])
        .code(2)
        .stderr(predicates::str::contains(
            "--since \"last tuesday\": a time",
        ));
}

/// A store of three memories (api, db, cache; api depends_on db, cache
/// related_to db) made by `gem-ask memory` commands, whose outputs are
/// checked on the way; its endpoint stays up while the caller holds it.
fn three_related(name: &str) -> (FakeEmbedder, std::path::PathBuf) {
    let e = FakeEmbedder::start(name, Api::Gemini, 8);
    let home = temp_dir(name);
    e.configure(&home, "fake-embed", false);
    let add = ok(
        &home,
        &[
            "add",
            "--tag",
            "infra",
            "-k",
            "api",
            "The API runs on build seven",
        ],
    );
    assert_eq!(
        add,
        [
            json!({"type":"memory","action":"remembered","key":"api","content":"The API runs on build seven",
                "tags":["infra"],"by":"user"})
        ]
    );
    ok(
        &home,
        &[
            "add",
            "-k",
            "db",
            "--confidence",
            "0.5",
            "Postgres 16 on port 5433",
        ],
    );
    ok(
        &home,
        &["add", "-k", "cache", "Redis in front of the database"],
    );
    let rel = ok(&home, &["relate", "api", "db", "depends on"]);
    assert_eq!(rel[0]["relation"], "depends_on");
    ok(&home, &["relate", "cache", "db"]);
    (e, home)
}

#[test]
fn every_command_prints_json_lines() {
    let (_e, home) = three_related("memory-cmds");
    let show = ok(&home, &["show", "DB"]);
    assert_eq!(show[0]["confidence"], 0.5);
    assert_eq!(
        show[0]["relations"],
        json!([{"from":"api","relation":"depends_on"},{"from":"cache","relation":"related_to"}])
    );
    let graph = ok(&home, &["graph"]);
    assert_eq!(graph[0]["type"], "memory_graph");
    assert_eq!(graph[0]["edges"].as_array().unwrap().len(), 2);
    let mermaid = memory(&home, &["graph", "--mermaid"])
        .success()
        .get_output()
        .stdout
        .clone();
    let mermaid = String::from_utf8(mermaid).unwrap();
    assert!(
        mermaid.starts_with("```mermaid\nflowchart LR\n"),
        "{mermaid}"
    );
    assert!(mermaid.contains("-->|\"depends_on\"|"), "{mermaid}");
    let path = ok(&home, &["path", "api", "cache"]);
    assert_eq!(
        path[0],
        json!({"type":"memory_path","from":"api","to":"cache","found":true,"steps":[
            {"relation":"depends_on","forward":true,"key":"db"},
            {"relation":"related_to","forward":false,"key":"cache"}]})
    );

    let gone = ok(&home, &["forget", "db"]);
    assert_eq!(
        gone[0],
        json!({"type":"memory","action":"forgot","key":"db","by":"user"})
    );
    assert!(
        ok(&home, &["graph"])[0]["edges"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    memory(&home, &["show", "db"])
        .code(1)
        .stderr(predicates::str::contains("no memory with key \"db\""));
    memory(&home, &["add", "--tag", "two words", "x"])
        .code(65)
        .stderr(predicates::str::contains("no spaces or commas"));
    memory(&home, &[])
        .code(2)
        .stderr(predicates::str::contains("gem-ask memory needs a command"));
}

#[test]
fn export_then_import_gives_the_same_store() {
    let (_e, home) = three_related("memory-export");
    let export = memory(&home, &["export"])
        .success()
        .get_output()
        .stdout
        .clone();
    let lines = events(&export);
    assert_eq!(lines.len(), 3);
    assert_eq!(
        lines[0]["relations"],
        json!([{"to":"db","relation":"depends_on"}])
    );
    assert_eq!(lines[0]["vectors"][0]["model"], "gemini:fake-embed");
    assert_eq!(
        lines[0]["vectors"][0]["values"].as_array().unwrap().len(),
        8
    );
    let other = temp_dir("memory-cmds-import");
    let file = other.join("export.jsonl");
    std::fs::write(&file, &export).unwrap();
    let imported = ok(&other, &["import", file.to_str().unwrap()]);
    assert_eq!(
        imported[0],
        json!({"type":"memory","action":"imported","added":3,"updated":0,"relations":2,"vectors":3,"skipped":0})
    );
    let again = memory(&other, &["export"])
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(
        String::from_utf8(again).unwrap(),
        String::from_utf8(export).unwrap()
    );
}

#[test]
fn an_import_reports_bad_lines_and_keeps_the_good_ones() {
    let home = temp_dir("memory-import-bad");
    let file = home.join("in.jsonl");
    std::fs::write(&file, "{\"content\":\"kept\"}\nnot json\n{\"key\":\"t\",\"content\":\"x\",\"updated\":\"soon\"}\n").unwrap();
    let out = memory(&home, &["import", file.to_str().unwrap()])
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("in.jsonl, line 2: not a memory"),
        "{stderr}"
    );
    assert!(
        stderr.contains("line 3: updated \"soon\": an RFC 3339 time"),
        "{stderr}"
    );
    assert_eq!(events(&out.stdout)[0]["added"], 1);
    assert_eq!(ok(&home, &["list"])[0]["content"], "kept");
}

#[test]
fn e5_models_get_their_prefixes_at_an_openai_compatible_endpoint() {
    let e = FakeEmbedder::start("memory-e5", Api::OpenAi, 8);
    let home = temp_dir("memory-e5");
    e.configure(&home, "intfloat/e5-small-v2", false);
    ok(&home, &["add", "-k", "lunch", "Team lunch is on fridays"]);
    let hits = ok(&home, &["search", "when is lunch"]);
    assert_eq!(hits[0]["key"], "lunch");
    assert!(hits[0]["ranks"].get("vector").is_some(), "{hits:?}");
    assert_eq!(
        e.texts(),
        ["passage: Team lunch is on fridays", "query: when is lunch"]
    );
    let r = &e.requests()[0];
    assert!(
        r.request_line.starts_with("POST /embeddings "),
        "{}",
        r.request_line
    );
    assert_eq!(r.json()["model"], "intfloat/e5-small-v2");
    assert_eq!(r.json()["encoding_format"], "float");
    assert_eq!(r.header("accept"), Some("application/json"));
}

#[test]
fn without_an_embedding_model_search_is_by_keywords_and_said_once() {
    let home = temp_dir("memory-keywords");
    let first = memory(&home, &["add", "The deploy host is build seven"])
        .success()
        .get_output()
        .clone();
    let note = "no embedding model is set";
    assert!(String::from_utf8_lossy(&first.stderr).contains(note));
    let second = memory(&home, &["add", "Lunch is at noon"])
        .success()
        .get_output()
        .clone();
    assert!(!String::from_utf8_lossy(&second.stderr).contains(note));
    let hits = ok(&home, &["search", "deploy host"]);
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0]["key"], "the-deploy-host-is-build-seven");
    assert!(hits[0]["ranks"].get("vector").is_none());
    memory(&home, &["reindex"])
        .code(65)
        .stderr(predicates::str::contains("no embedding model is set"));
}

#[test]
fn a_failed_embedding_keeps_the_memory_and_reindex_embeds_it_later() {
    let home = temp_dir("memory-embed-fails");
    let down = FakeEmbedder::failing(
        "memory-embed-fails",
        Api::Gemini,
        Reply::json(
            400,
            r#"{"error":{"code":400,"message":"model not found","status":"INVALID_ARGUMENT"}}"#,
        ),
    );
    down.configure(&home, "fake-embed", false);
    let out = memory(
        &home,
        &["add", "-k", "vpn", "The vpn gateway is in the north rack"],
    )
    .success()
    .get_output()
    .clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("memory \"vpn\" is saved without a vector"),
        "{stderr}"
    );
    assert!(
        stderr.contains("HTTP 400 INVALID_ARGUMENT: model not found"),
        "{stderr}"
    );
    let out = memory(&home, &["search", "vpn rack"])
        .success()
        .get_output()
        .clone();
    assert_eq!(events(&out.stdout)[0]["key"], "vpn");

    let up = FakeEmbedder::start("memory-embed-up", Api::Gemini, 8);
    up.configure(&home, "fake-embed", false);
    assert_eq!(ok(&home, &["reindex"])[0]["embedded"], 1);
    assert_eq!(ok(&home, &["reindex"])[0]["embedded"], 0);
    let hits = ok(&home, &["search", "gateway"]);
    assert_eq!(hits[0]["ranks"]["vector"]["rank"], 1);
}

#[test]
fn memory_events_draw_as_lines_and_the_graph_as_mermaid_in_reports() {
    let home = temp_dir("memory-draw");
    ok(
        &home,
        &[
            "add",
            "-k",
            "api",
            "--tag",
            "infra",
            "The API runs on build seven",
        ],
    );
    ok(&home, &["add", "-k", "db", "Postgres on 5433"]);
    let rel = memory(&home, &["relate", "api", "db", "uses"])
        .success()
        .get_output()
        .stdout
        .clone();
    let graph = memory(&home, &["graph"])
        .success()
        .get_output()
        .stdout
        .clone();
    let stream = [rel, graph].concat();
    let (code, md, _) = crate::support::filter(
        assert_cmd::cargo::cargo_bin_cmd!("viz-render"),
        &["--format", "markdown"],
        &String::from_utf8(stream.clone()).unwrap(),
    );
    assert_eq!(code, 0);
    assert_eq!(
        md,
        "> **Memory:** related api -uses-\\> db (by you)\n\n```mermaid\nflowchart LR\n  n1[\"api\"]\n  n2[\"db\"]\n  n1 -->|\"uses\"| n2\n```\n"
    );
    let (code, text, _) = crate::support::filter(
        assert_cmd::cargo::cargo_bin_cmd!("viz-render"),
        &["--width", "60", "--ascii", "--color", "never"],
        &String::from_utf8(stream).unwrap(),
    );
    assert_eq!(code, 0);
    assert_eq!(
        text,
        "memory: related api -uses-> db (by you)\nmemory: 2 memories, 1 relations\n  api -uses-> db\n"
    );
}

#[test]
fn a_prompt_that_starts_with_memory_is_still_a_prompt() {
    let server = crate::support::FakeGemini::start(
        "memory-prompt",
        vec![crate::support::ask::text_reply("Use a profiler.", 10, 3)],
    );
    let home = temp_dir("memory-prompt");
    let out = crate::support::gem_ask_cmd(&server, &home)
        .args(["memory", "leaks", "in", "rust"])
        .assert()
        .success()
        .get_output()
        .clone();
    assert!(String::from_utf8_lossy(&out.stdout).contains("Use a profiler."));
    let body = &server.bodies()[0];
    assert_eq!(
        body["contents"][0]["parts"][0]["text"],
        "memory leaks in rust"
    );
}

#[test]
fn a_fused_tie_goes_to_the_more_recently_updated_memory() {
    // "twice" leads by keywords and is second by meaning, "once" the other
    // way round: equal fused scores, so recency decides.
    let dim = 8;
    let e = FakeEmbedder::start("memory-tie", Api::Gemini, dim);
    let q = vector_of("deploy", dim);
    let mut near = q.clone();
    near[0] += 0.5 * q.iter().map(|x| x.abs()).sum::<f32>() / dim as f32;
    let away: Vec<f32> = q.iter().map(|x| -x).collect();
    let order = |twice_at: &str, once_at: &str| -> Vec<String> {
        let home = temp_dir("memory-tie");
        e.configure(&home, "fake-embed", false);
        let item = |key: &str, content: &str, at: &str, v: &[f32]| {
            json!({"key": key, "content": content, "updated": at, "created": at,
                   "vectors": [{"model": "gemini:fake-embed", "values": v}]})
            .to_string()
        };
        let lines = [
            item("twice", "deploy deploy notes", twice_at, &near),
            item("once", "deploy notes here", once_at, &q),
            item("lunch", "lunch at noon", "2026-01-01T00:00:00Z", &away),
            item(
                "coffee",
                "coffee machine broken",
                "2026-01-01T00:00:00Z",
                &away,
            ),
        ]
        .join("\n");
        let file = home.join("tie.jsonl");
        std::fs::write(&file, lines).unwrap();
        ok(&home, &["import", file.to_str().unwrap()]);
        let hits = ok(&home, &["search", "-n", "2", "deploy"]);
        assert_eq!(hits[0]["score"], hits[1]["score"], "{hits:?}");
        hits.iter()
            .map(|h| h["key"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        order("2026-03-01T10:00:00Z", "2026-03-01T10:05:00Z"),
        ["once", "twice"]
    );
    assert_eq!(
        order("2026-03-01T10:05:00Z", "2026-03-01T10:00:00Z"),
        ["twice", "once"]
    );
}
