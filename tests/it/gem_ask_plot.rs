//! gem-ask's `plot` tool against the fake Gemini server, with scripted
//! answers in the recorded Gemini 3.1 shapes (testdata/gemini fixture 11:
//! a functionCall with its thought signature, then the closing event):
//! a valid plot call is drawn as a `ui` event and summarized for the
//! model; an invalid one is answered with its problems and corrected by
//! the model in the next round; `result.stats.tools` counts both.

use crate::support;

use crate::support::{FakeGemini, Reply, Succeeds, events, fixture, kinds, temp_dir};
use serde_json::{Value, json};

/// One answer calling `name` with `args`: the recorded stream's first
/// event (its call replaced, signature kept) and its closing event.
pub(crate) fn call_reply(name: &str, args: Value) -> Reply {
    let events = support::split_events(&fixture(
        "11-parallel-functionCall-stream-gemini-3.1-pro-preview.response.sse",
    ));
    let data = |e: &str| -> Value {
        serde_json::from_str(e.trim().strip_prefix("data: ").unwrap()).unwrap()
    };
    let mut first = data(&events[0]);
    let part = &mut first["candidates"][0]["content"]["parts"][0]["functionCall"];
    part["name"] = name.into();
    part["args"] = args;
    Reply::sse(&format!(
        "data: {first}\r\n\r\ndata: {}\r\n\r\n",
        data(&events[3])
    ))
}

pub(crate) fn text_reply(t: &str) -> Reply {
    Reply::sse(&format!(
        "data: {}\r\n\r\n",
        json!({"candidates":[{"content":{"role":"model","parts":[{"text":t}]},"finishReason":"STOP","index":0}],
               "usageMetadata":{"promptTokenCount":500,"candidatesTokenCount":20,"totalTokenCount":520}})
    ))
}

fn run_spec() -> Value {
    json!({"dataset":{"rows":[{"km":0,"pace":300,"hr":128},{"km":5,"pace":307,"hr":146},{"km":10,"pace":312,"hr":150}]},
           "fields":{"km":{"type":"number","unit":"km"},"pace":{"type":"number","unit":"s/km"},"hr":{"type":"number","unit":"bpm"}},
           "marks":[{"type":"line","x":"km","y":"pace"},{"type":"line","x":"km","y":"hr"},{"type":"rule","xValue":5,"label":"5K"}]})
}

pub(crate) fn gem_ask(server: &FakeGemini, name: &str) -> assert_cmd::Command {
    let mut cmd = support::gem_ask_cmd(server, &temp_dir(name));
    cmd.args(["-m", "gemini-3.1-pro-preview"]);
    cmd
}

#[test]
fn a_plot_call_is_drawn_as_a_ui_event_and_summarized_for_the_model() {
    let server = FakeGemini::start(
        "plot-drawn",
        vec![
            call_reply(
                "plot",
                json!({"title": "Run", "spec": run_spec(), "fallbackText": "pace and hr"}),
            ),
            text_reply("Pace rose after 5 km."),
        ],
    );
    let out = gem_ask(&server, "plot-drawn").arg("plot my run").succeeds();
    let ev = events(&out.stdout);
    assert_eq!(
        kinds(&ev).join(" "),
        "init message tool_use ui tool_result message result"
    );
    let ui = &ev[3];
    assert_eq!(
        (ui["kind"].as_str(), ui["version"].as_u64()),
        (Some("chart"), Some(1))
    );
    assert_eq!(ui["id"], ev[2]["tool_id"]);
    assert_eq!(ui["title"], "Run");
    assert_eq!(ui["spec"]["marks"][2]["label"], "5K");
    assert_eq!(ev[4]["status"], "success");

    let bodies = server.bodies();
    let decls = bodies[0]["tools"][0]["functionDeclarations"]
        .as_array()
        .unwrap();
    let plot = decls
        .iter()
        .find(|d| d["name"] == "plot")
        .expect("plot is declared");
    assert!(plot["parametersJsonSchema"]["properties"]["spec"].is_object());
    let answer = &bodies[1]["contents"][2]["parts"][0]["functionResponse"];
    assert_eq!(answer["name"], "plot");
    assert_eq!(
        answer["response"]["output"],
        "Drew \"Run\": 2 line marks, 1 rule mark over 3 rows; x: km (number); y: pace, hr. \
         The chart is on the user's screen."
    );
    let stats = &ev[6]["stats"]["tools"];
    assert_eq!(
        stats["plot"],
        json!({"calls": 1, "failed": 0, "fallbacks": 0})
    );
    assert_eq!(
        stats["render_visualization"],
        json!({"calls": 0, "failed": 0, "fallbacks": 0})
    );

    // viz-render draws the stream: the chart, not its fallback text.
    let drawn = assert_cmd::cargo::cargo_bin_cmd!("viz-render")
        .env_clear()
        .args(["--color", "never", "--width", "60"])
        .write_stdin(out.stdout.clone())
        .succeeds();
    let drawn = String::from_utf8(drawn.stdout).unwrap();
    assert!(
        drawn.contains("5K") && !drawn.contains("pace and hr"),
        "{drawn}"
    );
}

#[test]
fn an_invalid_plot_is_answered_with_its_problems_and_the_model_corrects_it() {
    let mut bad = run_spec();
    bad["marks"][1]["y"] = "heart".into();
    let server = FakeGemini::start(
        "plot-corrected",
        vec![
            call_reply(
                "plot",
                json!({"spec": bad, "fallbackText": "pace and hr over 10 km"}),
            ),
            call_reply(
                "plot",
                json!({"spec": run_spec(), "fallbackText": "pace and hr over 10 km"}),
            ),
            text_reply("Here is your run."),
        ],
    );
    let out = gem_ask(&server, "plot-corrected")
        .arg("plot my run")
        .succeeds();
    let ev = events(&out.stdout);
    assert_eq!(
        kinds(&ev).join(" "),
        "init message tool_use ui tool_result tool_use ui tool_result message result"
    );
    // First round: not drawn; the user gets the fallback text, the model the problems.
    assert_eq!(ev[4]["status"], "error");
    let problem = ev[4]["error"]["message"].as_str().unwrap();
    assert!(
        problem.contains("spec.marks[1].y")
            && problem.contains("\"heart\" names no field")
            && problem.contains("rule encoding-field"),
        "{problem}"
    );
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 3);
    let first_answer = &bodies[1]["contents"][2]["parts"][0]["functionResponse"]["response"];
    assert_eq!(first_answer["error"].as_str(), Some(problem));
    // Second round: drawn.
    assert_eq!(ev[7]["status"], "success");
    assert_eq!(ev[6]["spec"]["marks"][1]["y"], "hr");
    assert_eq!(
        ev[9]["stats"]["tools"]["plot"],
        json!({"calls": 2, "failed": 1, "fallbacks": 1})
    );

    // viz-render shows the fallback text for the refused spec, then the chart.
    let drawn = assert_cmd::cargo::cargo_bin_cmd!("viz-render")
        .env_clear()
        .args(["--color", "never", "--width", "60"])
        .write_stdin(out.stdout.clone())
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8(drawn.stdout).unwrap(),
        String::from_utf8(drawn.stderr).unwrap(),
    );
    assert!(
        stdout.contains("pace and hr over 10 km") && stdout.contains("5K"),
        "{stdout}"
    );
    assert!(stderr.contains("rule encoding-field"), "{stderr}");
}

#[test]
fn render_visualization_from_input_text_counts_as_a_fallback() {
    let server = FakeGemini::start(
        "viz-fallback",
        vec![
            call_reply(
                "render_visualization",
                json!({"chartType": "bar", "inputText": "model,secs\nM5,2.9\nM8,3.0"}),
            ),
            call_reply(
                "render_visualization",
                json!({"chartType": "bar", "series": []}),
            ),
            text_reply("Done."),
        ],
    );
    let out = gem_ask(&server, "viz-fallback").arg("chart it").succeeds();
    let ev = events(&out.stdout);
    let result = ev.last().unwrap();
    assert_eq!(
        result["stats"]["tools"]["render_visualization"],
        json!({"calls": 2, "failed": 1, "fallbacks": 1})
    );
}
