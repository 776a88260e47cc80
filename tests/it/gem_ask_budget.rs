//! Budgets (issue 35): a run against a fake server that reports usage
//! stops before the request that would pass `--max-requests` or
//! `--max-tokens` or `--max-cost` (at a price from the config), with exit
//! 11 and a `result` naming the cap; the cost is in `result.stats`.

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

/// The run's `result` (in `out`) is an error of the cap `kind`, its
/// message naming `flag`.
pub(crate) fn assert_capped(out: &str, kind: &str, flag: &str) {
    let result = of_type(&events(out), "result")[0].clone();
    assert_eq!(result["status"], "error", "{result}");
    assert_eq!(result["error"]["type"], kind, "{result}");
    let message = result["error"]["message"].as_str().unwrap();
    assert!(message.contains(flag), "{result}");
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
        assert_capped(&out, kind, flags[0]);
    }
    // The config's [budget] caps every run; a flag wins over it.
    let scene = Scene::new("budget-config");
    scene.config("[budget]\nmax_requests = 1\n");
    let server = FakeGemini::start(
        "budget-config",
        vec![progress(), progress(), text_reply("Done.", 10, 2)],
    );
    let (code, out, err) = run(&mut ask(&scene, &server, &["go"]));
    assert_eq!(code, 11, "{err}");
    assert_eq!(server.bodies().len(), 1);
    assert_eq!(
        of_type(&events(&out), "result")[0]["error"]["type"],
        "max_requests"
    );
    let server = FakeGemini::start(
        "budget-config-flag",
        vec![progress(), progress(), text_reply("Done.", 10, 2)],
    );
    let (code, _, err) = run(&mut ask(&scene, &server, &["--max-requests", "3", "go"]));
    assert_eq!(code, 0, "{err}");

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

/// `[prices."m-test"]`: a dollar per million input tokens, half that
/// cached, two per million out and four thinking. The recorded tool-call
/// replies were answered by gemini-3.1-pro-preview (their `modelVersion`),
/// and a request is priced by the model that answered: it gets the same.
const PRICES: &str = "[prices.\"m-test\"]\ninput = 1.0\ncached_input = 0.5\noutput = 2.0\nthinking = 4.0\n\
     [prices.\"gemini-3.1-pro-preview\"]\ninput = 1.0\ncached_input = 0.5\noutput = 2.0\nthinking = 4.0\n";

#[test]
fn max_cost_stops_before_the_request_whose_input_would_pass_it() {
    // Each tool-call reply reports 161 prompt, 48 answer and 204 thinking
    // tokens: $0.001073, and the next request's input at least $0.000161.
    for (cap, sent) in [("0.00115", 1), ("0.0013", 2)] {
        let name = format!("budget-cost-{sent}");
        let scene = Scene::new(&name);
        scene.config(PRICES);
        let server = FakeGemini::start(
            &name,
            vec![progress(), progress(), text_reply("Done.", 10, 2)],
        );
        let args = ["--model", "m-test", "--max-cost", cap, "go"];
        let (code, out, err) = run(&mut ask(&scene, &server, &args));
        assert_eq!(code, 11, "{cap}: {err}");
        assert_eq!(server.bodies().len(), sent, "{cap}");
        let result = of_type(&events(&out), "result")[0].clone();
        assert_eq!(result["error"]["type"], "max_cost", "{result}");
        assert!(
            result["error"]["message"]
                .as_str()
                .unwrap()
                .contains("--max-cost"),
            "{result}"
        );
        let cost = result["stats"]["cost_usd"].as_f64().unwrap();
        assert!((cost - 0.001073 * sent as f64).abs() < 1e-9, "{result}");
    }
}

#[test]
fn the_cost_is_in_the_result_and_said_unknown_without_a_price() {
    let scene = Scene::new("budget-cost-stats");
    scene.config(PRICES);
    let server = FakeGemini::start(
        "budget-cost-stats",
        vec![progress(), text_reply("Done.", 10, 2)],
    );
    let (code, out, err) = run(&mut ask(
        &scene,
        &server,
        &["--model", "m-test", "--verbose", "go"],
    ));
    assert_eq!(code, 0, "{err}");
    let stats = of_type(&events(&out), "result")[0]["stats"].clone();
    let n = |k: &str| stats[k].as_u64().unwrap() as f64;
    let cached = n("cached_input_tokens");
    let want = ((n("input_tokens") - cached)
        + cached * 0.5
        + n("output_tokens") * 2.0
        + n("thought_tokens") * 4.0)
        / 1e6;
    let cost = stats["cost_usd"].as_f64().unwrap();
    assert!(want > 0.0 && (cost - want).abs() < 1e-12, "{stats}");
    assert!(err.contains("gem-ask: cost so far $"), "{err}");

    // A model with no price: no cost_usd, and --max-cost refuses to run.
    let server = FakeGemini::start("budget-cost-unknown", vec![text_reply("Done.", 10, 2)]);
    let (code, out, err) = run(&mut ask(&scene, &server, &["--model", "m-other", "go"]));
    assert_eq!(code, 0, "{err}");
    let stats = of_type(&events(&out), "result")[0]["stats"].clone();
    assert!(stats.get("cost_usd").is_none(), "{stats}");
    let server = FakeGemini::start("budget-cost-refused", vec![text_reply("Done.", 10, 2)]);
    let (code, _, err) = run(&mut ask(
        &scene,
        &server,
        &["--model", "m-other", "--max-cost", "1", "go"],
    ));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("m-other") && err.contains("[prices."), "{err}");
    assert!(server.bodies().is_empty());

    // A price that is not one, or a key that is not a price: exit 2.
    for (toml, says) in [
        (PRICES.replacen("1.0", "-1.0", 1), "[prices.m-test]"),
        (PRICES.replace("thinking", "thoughts"), "thoughts"),
    ] {
        scene.config(&toml);
        let server = FakeGemini::start("budget-cost-bad", vec![text_reply("Done.", 10, 2)]);
        let (code, _, err) = run(&mut ask(&scene, &server, &["--model", "m-test", "go"]));
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(says), "{err}");
        assert!(server.bodies().is_empty());
    }
}

/// A reply whose `modelVersion` names the model that answered.
fn answered_by(version: &str, prompt: u64, candidates: u64) -> crate::support::Reply {
    crate::support::Reply::sse(&format!(
        "data: {}\r\n\r\n",
        json!({"candidates":[{"content":{"role":"model","parts":[{"text":"Done."}]},"finishReason":"STOP","index":0}],
               "usageMetadata":{"promptTokenCount":prompt,"candidatesTokenCount":candidates,
                                "totalTokenCount":prompt + candidates},
               "modelVersion": version})
    ))
}

#[test]
fn a_request_is_priced_by_the_model_that_answered_when_its_price_is_known() {
    let scene = Scene::new("budget-version");
    // m-test: $1 in, $2 out; m-answered: $10 in, $20 out.
    scene.config(&format!(
        "{PRICES}[prices.\"m-answered\"]\ninput = 10.0\ncached_input = 5.0\noutput = 20.0\n"
    ));
    for (version, want) in [
        // Known: its own price, not the requested model's.
        ("m-answered", (1000.0 * 10.0 + 100.0 * 20.0) / 1e6),
        // Unknown: the requested model's price, not a guess.
        ("m-unpriced-9", (1000.0 * 1.0 + 100.0 * 2.0) / 1e6),
    ] {
        let server = FakeGemini::start("budget-version", vec![answered_by(version, 1000, 100)]);
        let (code, out, err) = run(&mut ask(&scene, &server, &["--model", "m-test", "go"]));
        assert_eq!(code, 0, "{err}");
        let stats = of_type(&events(&out), "result")[0]["stats"].clone();
        let cost = stats["cost_usd"].as_f64().unwrap();
        assert!((cost - want).abs() < 1e-12, "{version}: {stats}");
    }
    // Neither known: the cost is unknown.
    let server = FakeGemini::start("budget-version-none", vec![answered_by("m-x", 1000, 100)]);
    let (code, out, err) = run(&mut ask(&scene, &server, &["--model", "m-other", "go"]));
    assert_eq!(code, 0, "{err}");
    let stats = of_type(&events(&out), "result")[0]["stats"].clone();
    assert!(stats.get("cost_usd").is_none(), "{stats}");
}
