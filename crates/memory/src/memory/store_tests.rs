//! The store's own tests: writes, relations, filters, vectors, search
//! and export/import on a store in memory.

use super::store::*;
use super::{Edge, MemoryError, Query};

fn new(key: &str, content: &str, tags: &[&str]) -> NewMemory {
    NewMemory {
        key: Some(key.into()),
        content: content.into(),
        tags: tags.iter().map(|t| t.to_string()).collect(),
        ..NewMemory::default()
    }
}

#[test]
fn remember_adds_then_updates_by_key_in_any_case() {
    let mut s = Store::in_memory().unwrap();
    let (m, created) = s
        .remember(
            &new("deploy-host", "  build-7  ", &["Infra", "#deploy", "infra"]),
            1000,
        )
        .unwrap();
    assert!(created);
    assert_eq!(
        (m.content.as_str(), m.tags.clone()),
        ("build-7", vec!["deploy".to_string(), "infra".to_string()])
    );
    assert_eq!((m.created, m.updated, m.confidence), (1000, 1000, 1.0));
    let (m2, created) = s
        .remember(
            &NewMemory {
                confidence: Some(0.5),
                ..new("DEPLOY-HOST", "build-8", &[])
            },
            2000,
        )
        .unwrap();
    assert!(!created);
    assert_eq!(m2.id, m.id);
    assert_eq!(m2.key, "DEPLOY-HOST");
    assert_eq!((m2.created, m2.updated, m2.confidence), (1000, 2000, 0.5));
    assert_eq!(
        m2.tags,
        ["deploy", "infra"],
        "an update without tags keeps them"
    );
    assert_eq!(s.count().unwrap(), 1);
}

#[test]
fn keys_are_made_from_the_content_when_missing() {
    let mut s = Store::in_memory().unwrap();
    let mut keyless = |content: &str, now| {
        let n = NewMemory {
            content: content.into(),
            ..NewMemory::default()
        };
        s.remember(&n, now).unwrap().0.key
    };
    let text = "The staging DB listens on port 5433, not 5432";
    assert_eq!(keyless(text, 1), "the-staging-db-listens-on-port");
    assert_eq!(keyless(text, 2), "the-staging-db-listens-on-port-2");
    assert_eq!(keyless("?!", 3), "memory");
}

#[test]
fn bad_input_says_what_is_accepted() {
    let mut s = Store::in_memory().unwrap();
    let base = new("k", "x", &[]);
    let cases: Vec<(NewMemory, &str)> = vec![
        (
            NewMemory {
                content: "   ".into(),
                ..base.clone()
            },
            "content is empty",
        ),
        (
            NewMemory {
                tags: vec!["two words".into()],
                ..base.clone()
            },
            "no spaces or commas",
        ),
        (
            NewMemory {
                tags: (0..17).map(|i| format!("t{i}")).collect(),
                ..base.clone()
            },
            "at most 16 tags",
        ),
        (
            NewMemory {
                confidence: Some(1.5),
                ..base.clone()
            },
            "from 0 to 1",
        ),
        (
            NewMemory {
                key: Some("a\u{1b}[2J".into()),
                ..base.clone()
            },
            "no control characters",
        ),
        (
            NewMemory {
                content: "a\u{7}b".into(),
                ..base.clone()
            },
            "no control characters",
        ),
    ];
    for (bad, says) in cases {
        let e = s.remember(&bad, 1).unwrap_err().to_string();
        assert!(e.contains(says), "{e}");
    }
    assert_eq!(s.count().unwrap(), 0);
}

#[test]
fn forget_takes_the_memory_its_relations_vectors_and_words() {
    let mut s = Store::in_memory().unwrap();
    s.remember(&new("a", "alpha words", &["x"]), 1).unwrap();
    s.remember(&new("b", "beta words", &[]), 1).unwrap();
    s.relate("a", "b", "Depends On", 2).unwrap();
    let a = s.get("a").unwrap().unwrap();
    s.set_vectors("m", &[(a.id, vec![1.0, 0.0])]).unwrap();
    assert_eq!(s.forget("A").unwrap().key, "a");
    assert!(s.get("a").unwrap().is_none());
    assert!(s.all_edges().unwrap().is_empty());
    assert!(
        s.bm25("\"alpha\"", &Filter::default(), 10)
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        s.bm25("\"words\"", &Filter::default(), 10).unwrap().len(),
        1
    );
    let n: i64 = s
        .conn
        .query_row("SELECT count(*) FROM vectors", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 0);
    assert!(matches!(s.forget("a"), Err(MemoryError::NotFound(_))));
}

#[test]
fn relations_are_typed_and_seen_from_both_ends() {
    let mut s = Store::in_memory().unwrap();
    for k in ["api", "db", "cache"] {
        s.remember(&new(k, k, &[]), 1).unwrap();
    }
    let e = s.relate("api", "db", "depends on", 2).unwrap();
    assert_eq!(
        e,
        Edge {
            from: "api".into(),
            to: "db".into(),
            kind: "depends_on".into()
        }
    );
    s.relate("api", "db", "depends_on", 3).unwrap();
    s.relate("cache", "db", "", 3).unwrap();
    let db = s.get("db").unwrap().unwrap();
    let kinds: Vec<String> = s
        .edges_of(db.id)
        .unwrap()
        .into_iter()
        .map(|e| format!("{}-{}-{}", e.from, e.kind, e.to))
        .collect();
    assert_eq!(kinds, ["api-depends_on-db", "cache-related_to-db"]);
    assert!(matches!(
        s.relate("api", "api", "x", 1),
        Err(MemoryError::Invalid(_))
    ));
    assert!(
        matches!(s.relate("api", "nope", "x", 1), Err(MemoryError::NotFound(k)) if k == "nope")
    );
    assert!(
        s.relate("api", "db", "a;b", 1)
            .unwrap_err()
            .to_string()
            .contains("letters, digits")
    );
    assert_eq!(s.unrelate("db", "api", None).unwrap(), 1);
    assert_eq!(s.all_edges().unwrap().len(), 1);
}

#[test]
fn filters_by_tags_and_time() {
    let mut s = Store::in_memory().unwrap();
    s.remember(&new("a", "one", &["infra", "db"]), 1000)
        .unwrap();
    s.remember(&new("b", "two", &["infra"]), 2000).unwrap();
    s.remember(&new("c", "three", &[]), 3000).unwrap();
    let keys =
        |f: Filter| -> Vec<String> { s.list(&f, 10).unwrap().into_iter().map(|m| m.key).collect() };
    assert_eq!(keys(Filter::default()), ["c", "b", "a"]);
    assert_eq!(
        keys(Filter {
            tags: vec!["INFRA".into()],
            ..Filter::default()
        }),
        ["b", "a"]
    );
    assert_eq!(
        keys(Filter {
            tags: vec!["infra".into(), "db".into()],
            ..Filter::default()
        }),
        ["a"]
    );
    assert_eq!(
        keys(Filter {
            since: Some(2000),
            ..Filter::default()
        }),
        ["c", "b"]
    );
    assert_eq!(
        keys(Filter {
            until: Some(2000),
            ..Filter::default()
        }),
        ["a"]
    );
}

#[test]
fn vectors_of_one_model_are_never_compared_with_anothers() {
    let mut s = Store::in_memory().unwrap();
    for k in ["a", "b", "c"] {
        s.remember(&new(k, k, &[]), 1).unwrap();
    }
    let id = |s: &Store, k: &str| s.get(k).unwrap().unwrap().id;
    let (a, b, c) = (id(&s, "a"), id(&s, "b"), id(&s, "c"));
    s.set_vectors("m1", &[(a, vec![1.0, 0.0]), (b, vec![0.0, 1.0])])
        .unwrap();
    s.set_vectors("m2", &[(c, vec![1.0, 0.0, 0.0])]).unwrap();
    let near = s
        .nearest("m1", &[0.9, 0.1], &Filter::default(), 10)
        .unwrap();
    assert_eq!(near.iter().map(|x| x.0).collect::<Vec<_>>(), [a, b]);
    assert!((near[0].1 - 0.9 / (0.82f64).sqrt()).abs() < 1e-6);
    assert_eq!(
        s.nearest("m2", &[1.0, 0.0, 0.0], &Filter::default(), 10)
            .unwrap()[0]
            .0,
        c
    );
    assert!(
        s.nearest("m3", &[1.0], &Filter::default(), 10)
            .unwrap()
            .is_empty()
    );
    assert!(matches!(
        s.nearest("m1", &[1.0, 0.0, 0.0], &Filter::default(), 10),
        Err(MemoryError::Invalid(_))
    ));
    assert!(
        s.set_vectors("m1", &[(c, vec![1.0, 2.0, 3.0])])
            .unwrap_err()
            .to_string()
            .contains("2")
    );
    // Changing the content drops the vectors that described the old text.
    s.remember(&new("a", "changed", &[]), 2).unwrap();
    assert_eq!(
        s.nearest("m1", &[1.0, 0.0], &Filter::default(), 10)
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        s.without_vector("m1", 10)
            .unwrap()
            .iter()
            .map(|m| m.key.as_str())
            .collect::<Vec<_>>(),
        ["a", "c"]
    );
}

#[test]
fn a_search_fuses_keywords_and_vectors_and_lists_without_a_query() {
    let mut s = Store::in_memory().unwrap();
    s.remember(&new("deploy", "the deploy host is build-7", &[]), 1)
        .unwrap();
    s.remember(&new("lunch", "team lunch is on fridays", &[]), 2)
        .unwrap();
    let id = |s: &Store, k: &str| s.get(k).unwrap().unwrap().id;
    let (d, l) = (id(&s, "deploy"), id(&s, "lunch"));
    s.set_vectors("m", &[(d, vec![0.0, 1.0]), (l, vec![1.0, 0.0])])
        .unwrap();
    let q = Query {
        text: "where do we deploy".into(),
        vector: Some(("m".into(), vec![1.0, 0.1])),
        filter: Filter::default(),
        limit: 5,
    };
    let hits = s.search(&q).unwrap();
    // deploy: keyword 1, vector 2; lunch: vector 1 only.
    assert_eq!(hits[0].memory.key, "deploy");
    assert_eq!(hits[0].keyword.map(|k| k.0), Some(1));
    assert_eq!(hits[0].vector.map(|k| k.0), Some(2));
    assert!((hits[0].score - (1.0 / 61.0 + 1.0 / 62.0)).abs() < 1e-12);
    assert_eq!(hits[1].memory.key, "lunch");
    let listed = s
        .search(&Query {
            limit: 5,
            ..Query::default()
        })
        .unwrap();
    assert_eq!(
        listed
            .iter()
            .map(|h| h.memory.key.as_str())
            .collect::<Vec<_>>(),
        ["lunch", "deploy"]
    );
}

#[test]
fn export_then_import_gives_the_same_store() {
    let mut s = Store::in_memory().unwrap();
    let mut first = new("a", "alpha\nsecond line", &["x", "y"]);
    first.session = Some("s1".into());
    first.confidence = Some(0.25);
    s.remember(&first, 1_700_000_000_123).unwrap();
    s.remember(&new("b", "beta", &[]), 1_700_000_000_999)
        .unwrap();
    s.relate("a", "b", "uses", 5).unwrap();
    let a = s.get("a").unwrap().unwrap().id;
    s.set_vectors("gemini:e", &[(a, vec![0.3, -0.4, 1e-9, 7.0])])
        .unwrap();
    let mut out = Vec::new();
    assert_eq!(s.export(&mut out).unwrap(), 2);
    let mut t = Store::in_memory().unwrap();
    let report = t.import(&mut &out[..], 9).unwrap();
    assert_eq!(
        (
            report.added,
            report.updated,
            report.relations,
            report.vectors
        ),
        (2, 0, 1, 1)
    );
    assert!(report.skipped.is_empty(), "{:?}", report.skipped);
    let mut again = Vec::new();
    t.export(&mut again).unwrap();
    assert_eq!(
        String::from_utf8(again).unwrap(),
        String::from_utf8(out).unwrap()
    );
}

#[test]
fn an_import_skips_bad_lines_and_keeps_the_good_ones() {
    let mut s = Store::in_memory().unwrap();
    let input = concat!(
        "{\"content\":\"plain\"}\n",
        "not json\n",
        "\n",
        "{\"type\":\"memory\",\"content\":\"x\"}\n",
        "{\"key\":\"v\",\"content\":\"y\",\"vectors\":[{\"model\":\"m\",\"values\":[1,2]}],\"relations\":[{\"to\":\"nobody\"}]}\n",
        "{\"key\":\"w\",\"content\":\"z\",\"vectors\":[{\"model\":\"m\",\"values\":[1,2,3]}]}\n",
        "{\"key\":\"t\",\"content\":\"z\",\"created\":\"yesterday\"}\n",
    );
    let r = s.import(&mut input.as_bytes(), 1).unwrap();
    assert_eq!((r.added, r.vectors), (2, 1));
    let lines: Vec<usize> = r.skipped.iter().map(|s| s.0).collect();
    assert_eq!(lines, [2, 4, 5, 6, 7], "{:?}", r.skipped);
    assert!(r.skipped[2].1.contains("no memory \"nobody\""));
    assert!(
        r.skipped[3]
            .1
            .contains("vectors: model m made a vector of 3 dimensions")
    );
    assert!(
        s.get("w").unwrap().is_none(),
        "a refused line leaves nothing behind"
    );
}

/// A small deterministic vector.
fn pseudo(seed: u64, dim: usize) -> Vec<f32> {
    let mut h = seed.wrapping_mul(0x9e3779b97f4a7c15) | 1;
    (0..dim)
        .map(|_| {
            h ^= h << 13;
            h ^= h >> 7;
            h ^= h << 17;
            (h % 2001) as f32 / 1000.0 - 1.0
        })
        .collect()
}

#[test]
fn vectors_span_blocks_and_forgotten_ones_leave_them() {
    let mut s = Store::in_memory().unwrap();
    let n = super::blocks::BLOCK * 2 + 100;
    let mut items = Vec::new();
    for i in 0..n {
        let (m, _) = s
            .remember(&new(&format!("k{i}"), &format!("fact {i}"), &[]), 1)
            .unwrap();
        items.push((m.id, pseudo(i as u64, 24)));
    }
    s.set_vectors("m", &items).unwrap();
    let blocks: i64 = s
        .conn
        .query_row("SELECT count(*) FROM sign_blocks", [], |r| r.get(0))
        .unwrap();
    assert_eq!(blocks, 3);
    // Every stored vector finds itself first, whichever block it is in.
    for i in [0, 511, 512, 1100, n - 1] {
        let near = s
            .nearest("m", &pseudo(i as u64, 24), &Filter::default(), 3)
            .unwrap();
        assert_eq!(near[0].0, items[i].0, "vector {i}");
        assert!((near[0].1 - 1.0).abs() < 1e-5);
    }
    // Forgotten, changed or replaced: the old vector is found no more.
    s.forget("k5").unwrap();
    s.remember(&new("k6", "changed", &[]), 2).unwrap();
    s.set_vectors("m", &[(items[7].0, pseudo(9999, 24))])
        .unwrap();
    for (i, gone) in [(5, true), (6, true), (7, true), (8, false)] {
        let near = s
            .nearest("m", &pseudo(i, 24), &Filter::default(), 1)
            .unwrap();
        assert_eq!(near[0].0 == items[i as usize].0, !gone, "vector {i}");
    }
    let near = s
        .nearest("m", &pseudo(9999, 24), &Filter::default(), 1)
        .unwrap();
    assert_eq!(near[0].0, items[7].0);
    // Within a filter, only the memories it lets through.
    s.remember(&new("k9", "fact 9", &["only"]), 3).unwrap();
    let near = s
        .nearest(
            "m",
            &pseudo(1, 24),
            &Filter {
                tags: vec!["only".into()],
                ..Filter::default()
            },
            5,
        )
        .unwrap();
    assert_eq!(near.iter().map(|x| x.0).collect::<Vec<_>>(), [items[9].0]);
}

#[test]
fn a_small_store_is_ranked_exactly_by_cosine() {
    let mut s = Store::in_memory().unwrap();
    let mut items = Vec::new();
    for i in 0..300u64 {
        let (m, _) = s.remember(&new(&format!("k{i}"), "x", &[]), 1).unwrap();
        items.push((m.id, pseudo(i, 16)));
    }
    s.set_vectors("m", &items).unwrap();
    let q = pseudo(12345, 16);
    let mut want: Vec<(i64, f64)> = items
        .iter()
        .map(|(id, v)| (*id, super::vector::cosine(&q, v)))
        .collect();
    want.sort_by(|a, b| b.1.total_cmp(&a.1));
    let got = s.nearest("m", &q, &Filter::default(), 20).unwrap();
    let ids = |v: &[(i64, f64)]| v.iter().map(|x| x.0).collect::<Vec<_>>();
    assert_eq!(ids(&got), ids(&want[..20]));
}
