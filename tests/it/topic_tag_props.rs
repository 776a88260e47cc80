//! Properties of the topic-tag stream machine over arbitrary input: it never
//! panics, everything it writes is a JSON object per line, and how the
//! input is cut into reads never changes the output.

use gemline::topic::{Options, Tagger};
use proptest::prelude::*;
use regex::Regex;

fn line() -> impl Strategy<Value = Vec<u8>> {
    let title = prop_oneof![
        Just("Build".to_string()),
        Just("Tests".to_string()),
        ".{0,12}",
    ];
    let kind = prop_oneof![
        Just("tool_use"),
        Just("tool_result"),
        Just("topic"),
        Just("message"),
        Just("error"),
        Just("result"),
        Just("weird"),
    ];
    prop_oneof![
        // Arbitrary text, control characters and invalid UTF-8 included.
        proptest::collection::vec(any::<u8>(), 0..60),
        ".{0,60}".prop_map(String::into_bytes),
        // Events topic-tag acts on, with odd titles and ids.
        (title.clone(), 0u8..4).prop_map(|(t, id)| {
            serde_json::json!({"type":"tool_use","tool_name":"create_new_topic",
                "tool_id": id.to_string(),"parameters":{"title":t}})
            .to_string()
            .into_bytes()
        }),
        (title.clone(), proptest::option::of(title.clone())).prop_map(|(t, old)| {
            let mut v = serde_json::json!({"type":"topic","title":t});
            if let Some(o) = old {
                v["topic"] = o.into();
            }
            v.to_string().into_bytes()
        }),
        (kind, 0u8..4, proptest::option::of(title)).prop_map(|(k, id, topic)| {
            let mut v = serde_json::json!({"type":k,"tool_id":id.to_string(),
                "tool_name":"x","status":"error","timestamp":"2026-01-01T00:00:0".to_string() + &id.to_string() + "Z"});
            if let Some(t) = topic {
                v["topic"] = t.into();
            }
            v.to_string().into_bytes()
        }),
        // Valid JSON that is not an object, and objects with odd types.
        Just(b"[1,2]".to_vec()),
        Just(b"{\"type\":5,\"topic\":null,\"topic\":[1]}".to_vec()),
        Just(b"{}".to_vec()),
        Just(b"  {\"a\":1}\r".to_vec()),
    ]
}

fn tag(input: &[u8], cuts: &[usize], opts: &Options) -> Vec<u8> {
    let mut t = Tagger::new(Vec::new(), opts.clone()).with_diagnostics(Box::new(std::io::sink()));
    let mut start = 0;
    for &c in cuts {
        let end = (start + c).min(input.len());
        t.feed(&input[start..end]).unwrap();
        start = end;
    }
    t.feed(&input[start..]).unwrap();
    t.finish().unwrap().0
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_lines_never_panic_and_give_json_objects(
        lines in proptest::collection::vec(line(), 0..40),
        cuts in proptest::collection::vec(0usize..80, 0..10),
        summary in any::<bool>(),
        wrap in any::<bool>(),
        terminal in any::<bool>(),
    ) {
        let mut input = Vec::new();
        for l in &lines {
            input.extend_from_slice(l);
            input.push(b'\n');
        }
        let opts = Options {
            wrap,
            split: wrap.then(|| Regex::new("^(?:==> |B)").unwrap()),
            summary,
            flush_each: terminal,
            ..Options::default()
        };
        let whole = tag(&input, &[], &opts);
        let text = String::from_utf8(whole.clone()).expect("output is UTF-8");
        let mut n = 0;
        for l in text.lines() {
            let v: serde_json::Value = serde_json::from_str(l).expect("each line is JSON");
            prop_assert!(v.is_object(), "{l}");
            if terminal {
                prop_assert!(!l.chars().any(char::is_control), "{l:?}");
            }
            n += 1;
        }
        if !wrap {
            prop_assert!(n <= lines.len() + usize::from(summary));
            // Reads cut anywhere give the same stream.
            prop_assert_eq!(tag(&input, &cuts, &opts), whole);
        }
    }
}
