//! Budgets (issue 35): a run against a fake server that reports usage
//! stops before the request that would pass `--max-requests` or
//! `--max-tokens`, with exit 11 and a `result` naming the cap.

use serde_json::json;

use crate::support::ask::{ask_in as ask, run, text_reply};
use crate::support::tools::{Scene, call, calls_reply};
use crate::support::{FakeGemini, events, of_type};

fn progress() -> crate::support::Reply {
    calls_reply(&[call(
        "signal",
        json!({"kind": "progress", "message": "working"}),
    )])
}

#[test]
fn a_run_stops_before_the_request_that_would_pass_a_cap() {
    for (name, flags, sent, kind) in [
        (
            "budget-requests",
            ["--max-requests", "2"],
            2,
            "max_requests",
        ),
        ("budget-tokens", ["--max-tokens", "1"], 1, "max_tokens"),
    ] {
        let scene = Scene::new(name);
        let server = FakeGemini::start(
            name,
            vec![progress(), progress(), text_reply("Done.", 10, 2)],
        );
        let mut args = flags.to_vec();
        args.push("go");
        let (code, out, err) = run(&mut ask(&scene, &server, &args));
        assert_eq!(code, 11, "{name}: {err}");
        assert_eq!(server.bodies().len(), sent, "{name}");
        let ev = events(&out);
        let result = &of_type(&ev, "result")[0];
        assert_eq!(result["status"], "error", "{result}");
        assert_eq!(result["error"]["type"], kind, "{result}");
        assert!(
            result["error"]["message"]
                .as_str()
                .unwrap()
                .contains(flags[0]),
            "{result}"
        );
    }
    // Without a cap the same run goes to its end.
    let scene = Scene::new("budget-none");
    let server = FakeGemini::start(
        "budget-none",
        vec![progress(), progress(), text_reply("Done.", 10, 2)],
    );
    let (code, _, err) = run(&mut ask(&scene, &server, &["--max-requests", "3", "go"]));
    assert_eq!(code, 0, "{err}");
    assert_eq!(server.bodies().len(), 3);
}
