//! gem-ask's files in (`-a FILE|-|URL`, binary stdin) against the fake
//! server replaying the multimodal fixtures (testdata/gemini/multimodal,
//! shaped after the API's documentation): real small files of each kind
//! made here, their type sniffed from their bytes whatever their names;
//! the documented request shapes (inlineData, the Files API's resumable
//! upload and polling, fileData); what is refused before anything is
//! sent (exit 66, 65) and a failed upload (exit 4); the follow-up turn
//! that sends an attachment again without it being named; the openai
//! provider's data URLs.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::support::ask::{b64, mm, mm_json, unb64};
use crate::support::{self, FakeGemini, KEY, Reply, Succeeds, events, of_type, temp_dir};

/// A real PNG of `w` x `h` pixels.
pub fn png_file(w: u32, h: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgb);
    let mut wr = enc.write_header().unwrap();
    let px: Vec<u8> = (0..w * h)
        .flat_map(|i| [(i % 251) as u8, 90, 200])
        .collect();
    wr.write_image_data(&px).unwrap();
    wr.finish().unwrap();
    out
}

/// A WAV file: 16-bit mono PCM at 8 kHz of `samples` samples.
fn wav_file(samples: usize) -> Vec<u8> {
    let data: Vec<u8> = (0..samples)
        .flat_map(|i| ((i as i16).wrapping_mul(37)).to_le_bytes())
        .collect();
    let n = data.len() as u32;
    let mut w = Vec::new();
    w.extend_from_slice(b"RIFF");
    w.extend_from_slice(&(36 + n).to_le_bytes());
    // fmt: 16 bytes, PCM, mono, 8 kHz, 16,000 bytes a second, 2 a frame, 16 bits.
    w.extend_from_slice(b"WAVEfmt \x10\0\0\0\x01\0\x01\0\x40\x1f\0\0\x80\x3e\0\0\x02\0\x10\0");
    w.extend_from_slice(b"data");
    w.extend_from_slice(&n.to_le_bytes());
    w.extend_from_slice(&data);
    w
}

fn pdf_file() -> Vec<u8> {
    b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"
        .to_vec()
}

/// The first boxes of an MP4 file: `ftyp` (isom), an empty `mdat`.
fn mp4_file() -> Vec<u8> {
    let mut v = b"\0\0\0\x20ftypisom\0\0\x02\0isomiso2avc1mp41".to_vec();
    v.extend_from_slice(b"\0\0\0\x08mdat");
    v
}

/// gem-ask in `work` (a folder of `home`), JSON lines out, no stdin.
fn ask(server: &FakeGemini, home: &Path, work: &Path) -> assert_cmd::Command {
    let mut cmd = support::gem_ask_cmd(server, home);
    cmd.current_dir(work).args(["--output", "jsonl"]);
    cmd
}

fn scene(name: &str) -> (PathBuf, PathBuf) {
    let home = temp_dir(name);
    let work = home.join("work");
    std::fs::create_dir_all(&work).unwrap();
    (home, work)
}

fn answer() -> Reply {
    Reply::sse(&mm("27-image-prompt.response.sse"))
}

#[test]
fn image_pdf_and_audio_prompts_have_the_documented_shape() {
    let (home, work) = scene("attach-documented");
    for (fixture, answer, file) in [
        (
            "27-image-prompt",
            "27-image-prompt.response.sse",
            "picture.png",
        ),
        ("28-pdf-prompt", "28-pdf-prompt.response.sse", "invoice.pdf"),
        (
            "29-audio-prompt",
            "29-audio-prompt.response.sse",
            "tone.wav",
        ),
    ] {
        let want = mm_json(&format!("{fixture}.request.json"));
        let parts = &want["contents"][0]["parts"];
        std::fs::write(
            work.join(file),
            unb64(parts[0]["inlineData"]["data"].as_str().unwrap()),
        )
        .unwrap();
        let server = FakeGemini::start(&format!("attach-{fixture}"), vec![Reply::sse(&mm(answer))]);
        let out = ask(&server, &home, &work)
            .args(["-a", file, parts[1]["text"].as_str().unwrap()])
            .succeeds();
        let body = &server.bodies()[0];
        assert_eq!(body["contents"], want["contents"], "{fixture}");
        let ev = events(&out.stdout);
        assert_eq!(of_type(&ev, "result")[0]["status"], "success");
    }
}

#[test]
fn each_kind_is_sniffed_from_its_bytes_not_its_name() {
    let (home, work) = scene("attach-sniff");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("photo.txt", png_file(3, 2), "image/png"),
        ("scan.bin", pdf_file(), "application/pdf"),
        ("memo.dat", wav_file(400), "audio/wav"),
        ("clip", mp4_file(), "video/mp4"),
        ("notes.png", b"fn main() {}\n".to_vec(), "text/plain"),
    ];
    let server = FakeGemini::start("attach-sniff", vec![answer(); cases.len()]);
    for (i, (name, bytes, mime)) in cases.iter().enumerate() {
        std::fs::write(work.join(name), bytes).unwrap();
        ask(&server, &home, &work)
            .args(["-a", name, "what is this?"])
            .succeeds();
        let parts = server.bodies()[i]["contents"][0]["parts"].clone();
        assert_eq!(
            parts,
            json!([{"inlineData": {"mimeType": mime, "data": b64(bytes)}}, {"text": "what is this?"}]),
            "{name}"
        );
    }
}

#[test]
fn what_cannot_be_sent_is_refused_before_any_request() {
    let (home, work) = scene("attach-refused");
    std::fs::write(work.join("anim.gif"), b"GIF89a\x01\0\x01\0\0\0\0;").unwrap();
    std::fs::write(work.join("prog"), b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0").unwrap();
    std::fs::write(work.join("doc.pdf"), pdf_file()).unwrap();
    // Past the Files API's 2 GiB, without writing 2 GiB: a sparse file.
    let huge = std::fs::File::create(work.join("huge.wav")).unwrap();
    huge.set_len((2u64 << 30) + 1).unwrap();
    std::fs::create_dir(work.join("folder")).unwrap();
    let server = FakeGemini::start("attach-refused", vec![]);
    let cases: &[(&[&str], i32, &str)] = &[
        (
            &["-a", "nope.png"],
            66,
            "cannot attach nope.png: no such file",
        ),
        (
            &["-a", "folder"],
            66,
            "cannot attach folder: not a regular file",
        ),
        (
            &["-a", "anim.gif"],
            65,
            "cannot attach anim.gif: it is image/gif, which Gemini does not take (it takes image/png, image/jpeg,",
        ),
        (
            &["-a", "prog"],
            65,
            "cannot attach prog: it is binary data of no type gem-ask knows",
        ),
        (
            &["-a", "huge.wav"],
            65,
            "cannot attach huge.wav: it is 2,147,483,649 bytes, more than the 2,147,483,648 bytes (2 GiB) the Files API takes",
        ),
        (
            &["--provider", "openai", "--model", "m", "-a", "doc.pdf"],
            65,
            "cannot attach doc.pdf: it is application/pdf, which the openai provider does not take (it takes image/png, image/jpeg, image/webp, image/gif, text/plain)",
        ),
        (
            &["-a", "http://example.com/a.png"],
            65,
            "which Gemini does not take (it takes https:// URLs)",
        ),
    ];
    for (args, code, says) in cases {
        let out = ask(&server, &home, &work)
            .env("OPENAI_BASE_URL", &server.url)
            .args(*args)
            .arg("look")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(*code), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: no stream starts");
    }
    assert!(server.requests().is_empty(), "nothing was sent");
    // The test's directory is kept after the run; a copy of it (tar, cp)
    // would write the sparse 2 GiB out whole.
    std::fs::remove_file(work.join("huge.wav")).unwrap();
}

/// The start answer of fixture 30, its upload URL on the fake server.
fn start_reply() -> Reply {
    let f = mm_json("30-files-upload-start.response.json");
    let mut r = Reply::json(200, "");
    r.headers.clear();
    for (k, v) in f["headers"].as_object().unwrap() {
        let v = v
            .as_str()
            .unwrap()
            .replace("https://generativelanguage.googleapis.com", "{SERVER}");
        r = r.header(k, &v);
    }
    r
}

/// A File answer (fixtures 31-33) whose expiry is a day from now.
fn file_reply(name: &str) -> Reply {
    let mut v = mm_json(name);
    let expires = (jiff::Timestamp::now() + jiff::SignedDuration::from_hours(24)).to_string();
    match v.get_mut("file") {
        Some(f) => f["expirationTime"] = expires.into(),
        None => v["expirationTime"] = expires.into(),
    }
    Reply::json(200, &v.to_string())
}

/// A scene with `talk.wav`, 15 MB (its base64, 20 MB, is past the inline
/// budget; the rest of it `fill` bytes), and a server that takes its
/// upload (start, finalize, polled processing then active) and then
/// answers `answers` prompts: (home, work, the file's bytes, server).
fn uploading(name: &str, fill: u8, answers: usize) -> (PathBuf, PathBuf, Vec<u8>, FakeGemini) {
    let (home, work) = scene(name);
    let mut talk = wav_file(100);
    talk.resize(15_000_000, fill);
    std::fs::write(work.join("talk.wav"), &talk).unwrap();
    let mut replies = vec![
        start_reply(),
        file_reply("31-files-upload-finalize.response.json"),
        file_reply("32-files-get-processing.response.json"),
        file_reply("33-files-get-active.response.json"),
    ];
    replies.extend((0..answers).map(|_| answer()));
    (home, work, talk, FakeGemini::start(name, replies))
}

#[test]
fn a_large_file_goes_up_resumably_is_polled_until_active_and_sent_by_uri() {
    let (home, work, talk, server) = uploading("attach-upload", 7, 2);
    ask(&server, &home, &work)
        .args(["-a", "talk.wav", "Summarize this talk."])
        .succeeds();
    let reqs = server.requests();
    let lines: Vec<&str> = reqs.iter().map(|r| r.request_line.as_str()).collect();
    assert_eq!(
        lines,
        [
            "POST /upload/v1beta/files HTTP/1.1",
            "POST /upload/v1beta/files?upload_id=AB8VUR4mmsg&upload_protocol=resumable HTTP/1.1",
            "GET /v1beta/files/k7x2m9q4w1ab HTTP/1.1",
            "GET /v1beta/files/k7x2m9q4w1ab HTTP/1.1",
            "POST /v1beta/models/gemini-3.5-flash:streamGenerateContent?alt=sse HTTP/1.1",
        ]
    );
    let start = &reqs[0];
    assert_eq!(start.header("x-goog-upload-protocol"), Some("resumable"));
    assert_eq!(start.header("x-goog-upload-command"), Some("start"));
    assert_eq!(
        start.header("x-goog-upload-header-content-length"),
        Some("15000000")
    );
    assert_eq!(
        start.header("x-goog-upload-header-content-type"),
        Some("audio/wav")
    );
    assert_eq!(start.header("x-goog-api-key"), Some(KEY));
    assert_eq!(start.json(), mm_json("30-files-upload-start.request.json"));
    let up = &reqs[1];
    assert_eq!(up.header("x-goog-upload-command"), Some("upload, finalize"));
    assert_eq!(up.header("x-goog-upload-offset"), Some("0"));
    assert_eq!(up.header("content-length"), Some("15000000"));
    assert!(up.body == talk, "the file's bytes, whole");
    assert_eq!(
        up.header("x-goog-api-key"),
        None,
        "the upload URL is its own credential"
    );
    assert_eq!(reqs[2].header("x-goog-api-key"), Some(KEY));
    let prompt = mm_json("34-file-prompt.request.json");
    assert_eq!(reqs[4].json()["contents"], prompt["contents"]);
    // A follow-up refers to the upload again while it lives: no upload.
    ask(&server, &home, &work)
        .args(["--continue", "And the second half?"])
        .succeeds();
    let reqs = server.requests();
    assert_eq!(reqs.len(), 6);
    let body = reqs[5].json();
    assert_eq!(body["contents"][0], prompt["contents"][0]);
    assert_eq!(
        body["contents"][2]["parts"][0]["text"],
        "And the second half?"
    );
}

#[test]
fn a_failed_upload_is_exit_4_naming_the_file_and_sends_no_prompt() {
    let (home, work) = scene("attach-upload-fails");
    let mut big = pdf_file();
    big.resize(14_500_000, b' ');
    std::fs::write(work.join("report.pdf"), &big).unwrap();
    let forbidden = support::fixture("19-error-403-no-credentials.response.json");
    let server = FakeGemini::start("attach-upload-fails", vec![Reply::json(403, &forbidden)]);
    let out = ask(&server, &home, &work)
        .args(["-a", "report.pdf", "what is in it?"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4));
    let ev = events(&out.stdout);
    let result = of_type(&ev, "result")[0];
    assert_eq!(result["error"]["type"], "upload_error");
    let msg = result["error"]["message"].as_str().unwrap();
    assert!(msg.starts_with("upload failed: report.pdf: "), "{msg}");
    assert_eq!(server.requests().len(), 1, "only the start of the upload");
}

#[test]
fn binary_stdin_is_attached_and_text_stdin_stays_context() {
    let (home, work) = scene("attach-stdin");
    let png = png_file(5, 4);
    let server = FakeGemini::start("attach-stdin", vec![answer(), answer(), answer()]);
    ask(&server, &home, &work)
        .arg("what is this?")
        .write_stdin(png.clone())
        .succeeds();
    assert_eq!(
        server.bodies()[0]["contents"][0]["parts"],
        json!([{"inlineData": {"mimeType": "image/png", "data": b64(&png)}}, {"text": "what is this?"}])
    );
    // Without a session (so no copy kept): read from the spooled file.
    ask(&server, &home, &work)
        .args(["--no-history", "what is this?"])
        .write_stdin(png.clone())
        .succeeds();
    assert_eq!(
        server.bodies()[1]["contents"][0]["parts"][0],
        json!({"inlineData": {"mimeType": "image/png", "data": b64(&png)}})
    );
    // `-a -` attaches text too; without it text is context, as before.
    ask(&server, &home, &work)
        .args(["-a", "-", "summarize"])
        .write_stdin("line one\nline two\n")
        .succeeds();
    assert_eq!(
        server.bodies()[2]["contents"][0]["parts"][0],
        json!({"inlineData": {"mimeType": "text/plain", "data": b64(b"line one\nline two\n")}})
    );
}

#[test]
fn a_follow_up_sends_the_attachment_again_by_its_hash() {
    let (home, work) = scene("attach-follow-up");
    let png = png_file(6, 6);
    std::fs::write(work.join("chart.png"), &png).unwrap();
    let server = FakeGemini::start("attach-follow-up", vec![answer(), answer()]);
    let out = ask(&server, &home, &work)
        .args(["-a", "chart.png", "describe it"])
        .succeeds();
    let id = support::ask::session_id(&out.stdout);
    // The file is gone; the session kept its hash, the store its bytes.
    std::fs::remove_file(work.join("chart.png")).unwrap();
    ask(&server, &home, &work)
        .args(["--session", &id, "which colour dominates?"])
        .succeeds();
    let body = &server.bodies()[1];
    assert_eq!(
        body["contents"][0]["parts"][0],
        json!({"inlineData": {"mimeType": "image/png", "data": b64(&png)}})
    );
    assert_eq!(
        body["contents"][2]["parts"][0]["text"],
        "which colour dominates?"
    );
    // The session holds the reference, not the bytes.
    let session =
        std::fs::read_to_string(home.join("gemline/sessions").join(format!("{id}.jsonl"))).unwrap();
    assert!(
        session.contains("\"sha256\"") && !session.contains(&b64(&png)),
        "{session}"
    );
}

#[test]
fn openai_sends_images_as_data_urls() {
    let (home, work) = scene("attach-openai");
    let png = png_file(4, 4);
    std::fs::write(work.join("a.png"), &png).unwrap();
    let sse = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata/openai/oa-01-gemini-openai-compat-stream.sse"),
    )
    .unwrap();
    let server = FakeGemini::start_uncaptured(vec![Reply::sse(&sse)]);
    ask(&server, &home, &work)
        .env("OPENAI_BASE_URL", &server.url)
        .args([
            "--provider",
            "openai",
            "--model",
            "m",
            "-a",
            "a.png",
            "what is it?",
        ])
        .succeeds();
    let body = &server.bodies()[0];
    let last = body["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        last,
        json!({"role": "user", "content": [
            {"type": "text", "text": "what is it?"},
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{}", b64(&png))}}]})
    );
}

#[test]
fn attach_in_the_interactive_session_goes_with_the_next_question() {
    use std::io::Write;
    use std::process::Stdio;
    let scene = crate::support::tools::Scene::new("attach-repl");
    let png = png_file(4, 3);
    std::fs::write(scene.work.join("my chart.png"), &png).unwrap();
    let server = FakeGemini::start("attach-repl", vec![answer(), answer()]);
    let mut child = scene
        .gem_ask(&server, None)
        .args(["-i", "--auto-continue", "off"])
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"/attach my chart.png\n/attach nope.gif\ndescribe it\nand again?\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("attached my chart.png (image/png, ")
            && stderr.contains("cannot attach nope.gif: no such file"),
        "{stderr}"
    );
    let bodies = server.bodies();
    assert_eq!(
        bodies[0]["contents"][0]["parts"],
        json!([{"inlineData": {"mimeType": "image/png", "data": b64(&png)}}, {"text": "describe it"}])
    );
    // Sent with one question; the next resends it as part of the history.
    let contents = bodies[1]["contents"].as_array().unwrap();
    assert_eq!(
        contents.last().unwrap()["parts"],
        json!([{"text": "and again?"}])
    );
    assert_eq!(contents[0], bodies[0]["contents"][0]);
}

#[test]
fn an_upload_is_recorded_without_its_credentials_and_replayed() {
    let (home, work, _, server) = uploading("attach-record", 3, 1);
    let record = work.join("rec.jsonl");
    ask(&server, &home, &work)
        .args([
            "--record",
            "rec.jsonl",
            "-a",
            "talk.wav",
            "Summarize this talk.",
        ])
        .succeeds();
    let text = std::fs::read_to_string(&record).unwrap();
    assert_eq!(text.lines().count(), 5, "{text}");
    assert!(!text.contains("upload_id") && !text.contains(KEY), "{text}");
    assert!(
        text.contains("\"<15000000 bytes>\""),
        "the bytes are counted, not kept"
    );
    // The same run from the record, no server.
    let out = ask(&server, &home, &work)
        .env("GEMINI_BASE_URL", "http://127.0.0.1:9")
        .args([
            "--replay",
            "rec.jsonl",
            "-a",
            "talk.wav",
            "Summarize this talk.",
        ])
        .succeeds();
    let ev = events(&out.stdout);
    assert_eq!(of_type(&ev, "result")[0]["status"], "success");
    assert_eq!(
        server.requests().len(),
        5,
        "nothing more reached the server"
    );
}
