//! Images and speech out: the fake server answers with the documented
//! shapes of an image model (fixture 35: text, then a PNG with a thought
//! signature) and a TTS model (fixture 36: raw 24 kHz PCM). gem-ask
//! asks for them (`--modalities`, `--voice`: responseModalities,
//! speechConfig, no tools), writes each to a file in --output-dir that
//! never overwrites another, says so in a `media` event, sends the image
//! back on the next turn with its signature, and on a terminal that shows
//! images draws it inline (kitty's escapes, decoded here), else one line
//! with its path. An MCP server's image (server-everything's
//! get-tiny-image) reaches the model as a part of the function response
//! and is shown like the model's own.

use serde_json::{Value, json};

use crate::support::ask::{mm, mm_json, unb64};
use crate::support::screen::{between, find, run_on_terminal};
use crate::support::tools::{EVERYTHING, Scene, answer_reply, call, calls_reply, mcp_server};
use crate::support::{self, FakeGemini, Reply, Succeeds, events, of_type, temp_dir};

/// The inline parts of an SSE fixture's events.
fn inline_parts(sse: &str) -> Vec<Value> {
    support::split_events(sse)
        .iter()
        .map(|e| serde_json::from_str::<Value>(e.trim().strip_prefix("data: ").unwrap()).unwrap())
        .flat_map(|v| {
            v["candidates"][0]["content"]["parts"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .filter(|p| p.get("inlineData").is_some())
        .collect()
}

fn text_reply() -> Reply {
    Reply::sse(&mm("27-image-prompt.response.sse"))
}

#[test]
fn an_image_answer_is_written_announced_and_sent_back_with_its_signature() {
    let home = temp_dir("media-image");
    let out_dir = home.join("pictures");
    let image = inline_parts(&mm("35-image-answer.response.sse")).remove(0);
    let png = unb64(image["inlineData"]["data"].as_str().unwrap());
    let server = FakeGemini::start(
        "media-image",
        vec![
            Reply::sse(&mm("35-image-answer.response.sse")),
            text_reply(),
            Reply::sse(&mm("35-image-answer.response.sse")),
        ],
    );
    let run = |args: &[&str]| {
        let out = support::gem_ask_cmd(&server, &home)
            .args([
                "--output",
                "jsonl",
                "--output-dir",
                out_dir.to_str().unwrap(),
            ])
            .args(args)
            .succeeds();
        events(&out.stdout)
    };
    let ev = run(&[
        "--modalities",
        "text,image",
        "-m",
        "gemini-3-pro-image-preview",
        "Draw a gradient.",
    ]);
    let want = mm_json("35-image-answer.request.json");
    let body = &server.bodies()[0];
    assert_eq!(body["contents"], want["contents"]);
    assert_eq!(body["generationConfig"], want["generationConfig"]);
    assert!(body.get("tools").is_none(), "an image model gets no tools");
    let media = of_type(&ev, "media");
    assert_eq!(media.len(), 1);
    let path = out_dir.join("gem-ask-image-1.png");
    let mut m = media[0].clone();
    m.as_object_mut().unwrap().remove("timestamp");
    assert_eq!(
        m,
        json!({"type": "media", "path": path.to_str().unwrap(), "mime_type": "image/png",
               "size": png.len(), "source": "model", "width": 64, "height": 48})
    );
    assert_eq!(std::fs::read(&path).unwrap(), png);
    // The next turn sends the image back, signature and all.
    let id = ev[0]["session_id"].as_str().unwrap().to_string();
    run(&[
        "--session",
        &id,
        "-m",
        "gemini-3-pro-image-preview",
        "Now in green.",
    ]);
    let body = &server.bodies()[1];
    assert_eq!(
        body["contents"][1]["parts"][1], image,
        "the model's image part as it came"
    );
    // A second image never overwrites the first.
    let ev = run(&["--modalities", "text,image", "Draw another."]);
    assert_eq!(
        of_type(&ev, "media")[0]["path"],
        out_dir.join("gem-ask-image-2.png").to_str().unwrap()
    );
    assert_eq!(std::fs::read(&path).unwrap(), png);
}

#[test]
fn speech_is_written_as_a_wav_of_its_pcm() {
    let home = temp_dir("media-tts");
    let pcm_part = inline_parts(&mm("36-tts-answer.response.sse")).remove(0);
    let pcm = unb64(pcm_part["inlineData"]["data"].as_str().unwrap());
    let server = FakeGemini::start(
        "media-tts",
        vec![Reply::sse(&mm("36-tts-answer.response.sse"))],
    );
    let out = support::gem_ask_cmd(&server, &home)
        .current_dir(&home)
        .args([
            "--output",
            "jsonl",
            "-m",
            "gemini-2.5-flash-preview-tts",
            "--voice",
            "Kore",
        ])
        .arg("Say cheerfully: have a wonderful day!")
        .succeeds();
    let want = mm_json("36-tts-answer.request.json");
    let body = &server.bodies()[0];
    assert_eq!(body["contents"], want["contents"]);
    assert_eq!(body["generationConfig"], want["generationConfig"]);
    assert!(
        body.get("tools").is_none() && body.get("systemInstruction").is_none(),
        "{body}"
    );
    let ev = events(&out.stdout);
    let m = of_type(&ev, "media")[0];
    assert_eq!(m["mime_type"], "audio/wav");
    assert_eq!(m["duration_ms"], 500);
    assert_eq!(m["path"], "./gem-ask-audio-1.wav");
    let wav = std::fs::read(home.join("gem-ask-audio-1.wav")).unwrap();
    assert_eq!(&wav[..4], b"RIFF");
    assert_eq!(&wav[8..16], b"WAVEfmt ");
    assert_eq!(u32::from_le_bytes(wav[24..28].try_into().unwrap()), 24_000);
    assert_eq!(u16::from_le_bytes(wav[34..36].try_into().unwrap()), 16);
    assert_eq!(&wav[44..], &pcm[..]);
}

#[test]
fn the_terminal_view_draws_the_image_or_names_its_file() {
    let home = temp_dir("media-terminal");
    let image = inline_parts(&mm("35-image-answer.response.sse")).remove(0);
    let png = unb64(image["inlineData"]["data"].as_str().unwrap());
    let server = FakeGemini::start(
        "media-terminal",
        vec![
            Reply::sse(&mm("35-image-answer.response.sse")),
            Reply::sse(&mm("35-image-answer.response.sse")),
        ],
    );
    let cmd = |term: &str| {
        let mut c = support::gem_ask_std_cmd(&server, &home);
        c.current_dir(&home)
            .env("TERM", term)
            .env_remove("KITTY_WINDOW_ID")
            .env_remove("TERM_PROGRAM")
            .env_remove("TMUX")
            .args(["--modalities", "text,image", "Draw a gradient."]);
        c
    };
    let (code, bytes, err) = run_on_terminal(cmd("xterm-kitty"), b"", (80, 24, 800, 480));
    assert_eq!(code, 0, "{err}");
    let pieces = between(&bytes, b"\x1b_G", b"\x1b\\");
    assert!(!pieces.is_empty(), "{}", String::from_utf8_lossy(&bytes));
    let payload: Vec<u8> = pieces
        .iter()
        .flat_map(|p| p[find(p, b";").unwrap() + 1..].to_vec())
        .collect();
    assert_eq!(
        unb64(std::str::from_utf8(&payload).unwrap()),
        png,
        "the file's PNG, as it is"
    );
    assert!(String::from_utf8_lossy(&bytes).contains("Here is a soft gradient."));
    // A terminal that shows no images: one line with the path.
    let (code, bytes, _) = run_on_terminal(cmd("xterm-256color"), b"", (80, 24, 800, 480));
    assert_eq!(code, 0);
    let text = String::from_utf8_lossy(&bytes);
    assert!(find(&bytes, b"\x1b_G").is_none());
    assert!(
        text.contains("image: ./gem-ask-image-2.png (64x48, "),
        "{text}"
    );
}

#[test]
fn an_mcp_tools_image_reaches_the_model_as_a_part_and_is_shown() {
    let Some(every) = mcp_server(EVERYTHING) else {
        return;
    };
    let scene = Scene::new("media-mcp");
    let server = FakeGemini::start(
        "media-mcp",
        vec![
            calls_reply(&[call("everything__get-tiny-image", json!({}))]),
            answer_reply(),
        ],
    );
    let ev = scene.run(
        &server,
        &[
            "--yes",
            "--mcp",
            &format!("everything={}", every.display()),
            "show me the logo",
        ],
    );
    let bodies = server.bodies();
    let fr =
        &bodies[1]["contents"].as_array().unwrap().last().unwrap()["parts"][0]["functionResponse"];
    let parts = fr["parts"]
        .as_array()
        .expect("the image as a part of the response");
    assert_eq!(parts.len(), 1);
    assert_eq!(parts[0]["inlineData"]["mimeType"], "image/png");
    let png = unb64(parts[0]["inlineData"]["data"].as_str().unwrap());
    assert!(png.starts_with(b"\x89PNG"));
    let output = fr["response"]["output"].as_str().unwrap();
    assert!(
        output.contains("Here's the image you requested:"),
        "{output}"
    );
    assert!(!fr["response"].to_string().contains("gemline.media"));
    let media = of_type(&ev, "media");
    assert_eq!(media.len(), 1);
    assert_eq!(media[0]["source"], "everything__get-tiny-image");
    let path = scene.work.join(media[0]["path"].as_str().unwrap());
    assert_eq!(std::fs::read(path).unwrap(), png);
}

#[test]
fn an_image_the_model_reads_is_sent_as_a_part_within_the_workspace_only() {
    let scene = Scene::new("media-read-file");
    let png = crate::gem_ask_attach::png_file(7, 5);
    std::fs::write(scene.work.join("plot.png"), &png).unwrap();
    // Outside the working directory, and a link in it pointing there.
    std::fs::write(scene.home.join("secret.png"), &png).unwrap();
    std::os::unix::fs::symlink(scene.home.join("secret.png"), scene.work.join("link.png")).unwrap();
    let server = FakeGemini::start(
        "media-read-file",
        vec![
            calls_reply(&[
                call("read_file", json!({"path": "plot.png"})),
                call("read_file", json!({"path": "link.png"})),
            ]),
            answer_reply(),
        ],
    );
    let ev = scene.run(
        &server,
        &["--tools", "read_file", "what does plot.png show?"],
    );
    let bodies = server.bodies();
    let last = bodies[1]["contents"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    let seen = &last["parts"][0]["functionResponse"];
    assert_eq!(
        seen["parts"],
        json!([{"inlineData": {"mimeType": "image/png", "data": crate::support::ask::b64(&png)}}])
    );
    let refused = &last["parts"][1]["functionResponse"];
    assert!(refused.get("parts").is_none(), "{refused}");
    assert!(
        refused["response"]["error"]
            .as_str()
            .unwrap()
            .contains("outside"),
        "{refused}"
    );
    // Shown where it is: no copy made.
    let media = of_type(&ev, "media");
    assert_eq!(media.len(), 1);
    assert_eq!(media[0]["source"], "read_file");
    let shown = std::path::PathBuf::from(media[0]["path"].as_str().unwrap());
    assert_eq!(shown.file_name().unwrap(), "plot.png");
    assert!(!scene.work.join("gem-ask-image-1.png").exists());
}
