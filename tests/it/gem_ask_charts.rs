//! Charts end to end: the BMW scenario's bar and line charts in the stream,
//! piped into viz-render, and drawn by `--output text` as viz-render does.

use crate::support::ask::*;
use crate::support::{FakeGemini, Reply, Succeeds, kinds, temp_dir};
use serde_json::{Value, json};

#[test]
fn bmw_scenario_bar_then_same_session_line() {
    let server = bmw_server("bmw");
    let home = temp_dir("bmw");
    let out = gem_ask(&server, &home)
        .args([
            "-m",
            "gemini-3.1-pro-preview",
            "Fastest 3 BMW models, compare 0-60 in a chart",
        ])
        .succeeds();
    let ev = stable_events(&out.stdout);
    let viz: Vec<&Value> = ev.iter().filter(|e| e["type"] == "visualization").collect();
    assert_eq!(viz.len(), 1);
    assert_eq!(
        *viz[0],
        json!({"type":"visualization","chartType":"bar","title":"BMW 0-60 mph","unit":"s",
               "series":[{"name":"0-60 mph","points":[{"label":"M5 CS","value":2.9},{"label":"M8 Competition","value":3.0},
               {"label":"M3 Competition xDrive","value":3.4}]}],"meta":{"truncated":false,"originalPointCount":3}})
    );
    // The follow-up with --continue picks the same session.
    let out2 = gem_ask(&server, &home)
        .args([
            "-m",
            "gemini-3.1-pro-preview",
            "--continue",
            "BMW models per year for the last 5 years",
        ])
        .succeeds();
    assert_eq!(session_id(&out2.stdout), session_id(&out.stdout));
    let ev = stable_events(&out2.stdout);
    assert_eq!(
        kinds(&ev),
        [
            "init",
            "message",
            "tool_use",
            "visualization",
            "tool_result",
            "message",
            "result"
        ]
    );
    assert_eq!(ev[3]["chartType"], "line");
    assert_eq!(ev[3]["series"][0]["points"].as_array().unwrap().len(), 5);
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 4);
    let c = bodies[2]["contents"].as_array().unwrap();
    // user, model(call), user(response), model(text), user(follow-up)
    assert_eq!(c.len(), 5);
    assert_eq!(
        c[1]["parts"][0]["functionCall"]["name"],
        "render_visualization"
    );
    assert!(c[1]["parts"][0]["thoughtSignature"].is_string());
    assert!(c[2]["parts"][0]["functionResponse"]["response"]["output"].is_string());
    assert_eq!(
        c[3]["parts"][0]["text"],
        "The M5 CS is the quickest at 2.9 s."
    );
    assert_eq!(
        c[4]["parts"][0]["text"],
        "BMW models per year for the last 5 years"
    );
}

#[test]
fn bmw_scenario_piped_into_viz_render() {
    let server = bmw_server("bmw-pipe");
    let home = temp_dir("bmw-pipe");
    let first = pipe_into_viz_render(
        &server,
        &home,
        &[
            "-m",
            "gemini-3.1-pro-preview",
            "Fastest 3 BMW models, compare 0-60 in a chart",
        ],
    );
    assert_eq!(
        first,
        "> Fastest 3 BMW models, compare 0-60 in a chart\n\
         \n\
         BMW 0-60 mph\n\
         M5 CS                 ###########################      2.9 s\n\
         M8 Competition        ############################     3.0 s\n\
         M3 Competition xDrive ################################ 3.4 s\n\
         \n\
         The M5 CS is the quickest at 2.9 s.\n"
    );
    let second = pipe_into_viz_render(
        &server,
        &home,
        &[
            "-m",
            "gemini-3.1-pro-preview",
            "--continue",
            "BMW models per year for the last 5 years",
        ],
    );
    let lines: Vec<&str> = second.lines().collect();
    assert_eq!(
        lines[..5],
        [
            "> BMW models per year for the last 5 years",
            "",
            "BMW models per year",
            "Models",
            "46 |                                                      **",
        ]
    );
    // The line rises from 38 in 2020 to 46 in 2024: ticks, axis, years.
    assert_eq!(lines[4].split('|').next(), Some("46 "));
    assert!(lines.contains(&"38 |***"), "{second}");
    assert!(lines.iter().any(|l| l.starts_with("   +-----")), "{second}");
    let years: Vec<&str> = lines
        .iter()
        .find(|l| l.contains("2020"))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(years, ["2020", "2021", "2022", "2023", "2024"]);
    assert!(second.ends_with("Year\n\nBMW's lineup grew from 38 to 46 models.\n"));
    // The follow-up resent the first turn: same session, history included.
    assert_eq!(server.bodies()[2]["contents"].as_array().unwrap().len(), 5);
}

#[test]
fn output_text_draws_the_chart_as_viz_render_does() {
    let server = bmw_server("bmw-text");
    let home = temp_dir("bmw-text");
    let out = gem_ask(&server, &home)
        .args([
            "--output",
            "text",
            "--width",
            "60",
            "--ascii",
            "--color",
            "never",
            "Fastest 3 BMW models, compare 0-60 in a chart",
        ])
        .succeeds();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "> Fastest 3 BMW models, compare 0-60 in a chart\n\
         \n\
         BMW 0-60 mph\n\
         M5 CS                 ###########################      2.9 s\n\
         M8 Competition        ############################     3.0 s\n\
         M3 Competition xDrive ################################ 3.4 s\n\
         \n\
         The M5 CS is the quickest at 2.9 s.\n"
    );
}

#[test]
fn output_text_never_passes_control_characters_through() {
    let evil_call = json!({"name":"render_visualization","args":{"chartType":"bar","title":"Pwn\u{1b}]0;owned\u{7}",
        "series":[{"name":"s","points":[{"label":"a\u{1b}[2J","value":1},{"label":"b\u{9b}31m","value":2}]}]}});
    let call = single_call_with(evil_call);
    let text = format!(
        "data: {}\r\n\r\n",
        json!({"candidates":[{"content":{"role":"model","parts":[{"text":"done\u{1b}[2J\u{1b}]52;c;Zm9v\u{7} \u{202e}x"}]},"finishReason":"STOP"}]})
    );
    let server = FakeGemini::start(
        "ctrl",
        vec![
            Reply::sse(&call),
            Reply::sse(&text),
            Reply::sse(&call),
            Reply::sse(&text),
        ],
    );
    let home = temp_dir("ctrl");
    let colour = regex::Regex::new("\u{1b}\\[[0-9;]*m").unwrap();
    for extra in [&["--ascii"][..], &["--unicode"][..]] {
        let out = gem_ask(&server, &home)
            .args([
                "--output",
                "text",
                "--color",
                "always",
                "--width",
                "60",
                "--show-tools",
            ])
            .args(extra)
            .arg("chart")
            .succeeds();
        let shown = String::from_utf8(out.stdout).unwrap();
        // Only our own colour sequences (ESC [ ... m) may carry an ESC.
        let stripped = colour.replace_all(&shown, "");
        assert!(
            !stripped
                .chars()
                .any(|c| (c.is_control() && c != '\n') || c == '\u{202e}'),
            "{shown:?}"
        );
        assert!(stripped.contains("done^[[2J^[]52;c;Zm9v^G"), "{stripped:?}");
        assert!(stripped.contains("a^[[2J"), "{stripped:?}");
        // The tool lines (--show-tools) carry the title too.
        assert!(stripped.contains("Pwn^[]0;owned^G"), "{stripped:?}");
    }
    assert_eq!(server.requests().len(), 4);
}

#[test]
fn output_text_shows_an_error_once() {
    let server = FakeGemini::start("text-error", vec![]);
    let home = temp_dir("text-error");
    let out = gem_ask(&server, &home)
        .env_remove("GEMINI_API_KEY")
        .args(["--output", "text", "--ascii", "--color", "never", "hi"])
        .assert()
        .code(3)
        .get_output()
        .clone();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "> hi\nerror: no API key: set GEMINI_API_KEY or GOOGLE_API_KEY\n"
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    // -c prints only the command, so its failure goes to stderr.
    let out = gem_ask(&server, &home)
        .env_remove("GEMINI_API_KEY")
        .args(["--output", "text", "-c", "list files"])
        .assert()
        .code(3)
        .get_output()
        .clone();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "gem-ask: error: no API key: set GEMINI_API_KEY or GOOGLE_API_KEY\n"
    );
}

#[test]
fn ambiguous_input_text_is_said_once_on_stderr_and_to_the_model() {
    // The thousands-or-decimal-comma guess viz-parse announces
    // (tests/it/viz_parse_ambiguity.rs), met inside a tool call.
    let call = single_call_with(
        json!({"name":"render_visualization","args":{"chartType":"bar",
            "inputText":"item;price\nA;\"1,200\"\nB;950\nC;2,500\n"}}),
    );
    let server = FakeGemini::start(
        "ambiguous-input",
        vec![Reply::sse(&call), text_reply("Charted.", 10, 2)],
    );
    let home = temp_dir("ambiguous-input");
    let out = gem_ask(&server, &home).arg("chart the prices").succeeds();
    let ev = stable_events(&out.stdout);
    let viz = ev.iter().find(|e| e["type"] == "visualization").unwrap();
    assert_eq!(viz["series"][0]["points"][0]["value"], 1200.0);
    let note = "column \"price\": \"1,200\" read as 1200 (a comma before three digits groups \
                thousands, and no value here shows a decimal comma)";
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.matches(note).count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("gem-ask: warning: render_visualization "),
        "{stderr}"
    );
    let bodies = server.bodies();
    let answer = bodies[1]["contents"][2]["parts"][0]["functionResponse"]["response"].to_string();
    assert!(
        answer.contains("Reading inputText took a guess"),
        "{answer}"
    );
    assert!(answer.contains(&note.replace('"', "\\\"")), "{answer}");
}
