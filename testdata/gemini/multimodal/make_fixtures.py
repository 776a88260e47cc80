#!/usr/bin/env python3
"""Writes the multimodal fixtures of this folder (see README.md): request
bodies and answers in the shapes of the Gemini API's documentation, with
small real payloads made here (a PNG, a PDF, a WAV, PCM speech). Not
recordings: there is no network where they were made. Deterministic:
running it again writes the same bytes.

    python3 testdata/gemini/multimodal/make_fixtures.py
"""
import base64, json, math, os, struct, zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def png(w, h):
    rows = b"".join(b"\0" + bytes(v for x in range(w) for v in (x * 255 // (w - 1), y * 255 // (h - 1), 160)) for y in range(h))
    chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def pdf():
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R >>"]
    stream = b"BT /F1 12 Tf 20 50 Td (Invoice 42: total 99.50 EUR) Tj ET"
    objs.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    out, offsets = b"%PDF-1.4\n", []
    for i, o in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + o + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1) + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    return out + b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)


def pcm(seconds, rate=24000, hz=440):
    n = int(seconds * rate)
    return b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * hz * i / rate))) for i in range(n))


def wav(data, rate=16000):
    return b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 1, rate, rate * 2, 2, 16) + b"data" + struct.pack("<I", len(data)) + data


b64 = lambda b: base64.b64encode(b).decode()


def write(name, text):
    with open(os.path.join(HERE, name), "w", newline="") as f:
        f.write(text)


def request(parts, extra=None):
    body = {"contents": [{"role": "user", "parts": parts}]}
    body.update(extra or {})
    return json.dumps(body, indent=2) + "\n"


def sse(*chunks):
    return "".join("data: " + json.dumps(c, separators=(",", ":")) + "\r\n\r\n" for c in chunks)


def usage(prompt, out, modality="TEXT", prompt_modality="TEXT"):
    return {"promptTokenCount": prompt, "candidatesTokenCount": out, "totalTokenCount": prompt + out,
            "promptTokensDetails": [{"modality": prompt_modality, "tokenCount": prompt}],
            "candidatesTokensDetails": [{"modality": modality, "tokenCount": out}]}


def text_answer(text, model, prompt, modality):
    return sse({"candidates": [{"content": {"parts": [{"text": text}], "role": "model"}, "finishReason": "STOP", "index": 0}],
                "usageMetadata": usage(prompt, 12, "TEXT", modality), "modelVersion": model, "responseId": "mm-" + model[-5:]})


image = png(16, 16)
write("27-image-prompt.request.json", request([
    {"inlineData": {"mimeType": "image/png", "data": b64(image)}}, {"text": "What is in this picture?"}]))
write("27-image-prompt.response.sse", text_answer("A small square gradient from blue to pink.", "gemini-2.5-flash", 266, "IMAGE"))
write("28-pdf-prompt.request.json", request([
    {"inlineData": {"mimeType": "application/pdf", "data": b64(pdf())}}, {"text": "What is the invoice total?"}]))
write("28-pdf-prompt.response.sse", text_answer("The total is 99.50 EUR.", "gemini-2.5-flash", 270, "DOCUMENT"))
write("29-audio-prompt.request.json", request([
    {"inlineData": {"mimeType": "audio/wav", "data": b64(wav(pcm(0.25, 16000)))}}, {"text": "Transcribe this recording."}]))
write("29-audio-prompt.response.sse", text_answer("(a 440 Hz tone, no speech)", "gemini-2.5-flash", 16, "AUDIO"))

# The Files API's resumable upload: start, upload + finalize, polling.
base = "https://generativelanguage.googleapis.com"
upload_url = base + "/upload/v1beta/files?upload_id=AB8VUR4mmsg&upload_protocol=resumable"
write("30-files-upload-start.request.json", json.dumps({"file": {"displayName": "talk.wav"}}, indent=2) + "\n")
write("30-files-upload-start.response.json", json.dumps({
    "status": 200, "headers": {"x-goog-upload-status": "active", "x-goog-upload-url": upload_url,
                               "x-goog-upload-control-url": upload_url, "x-goog-upload-chunk-granularity": "8388608",
                               "content-type": "text/plain; charset=utf-8"}, "body": ""}, indent=2) + "\n")
file_res = {"name": "files/k7x2m9q4w1ab", "displayName": "talk.wav", "mimeType": "audio/wav", "sizeBytes": "15728684",
            "createTime": "2026-11-20T10:15:02.481516Z", "updateTime": "2026-11-20T10:15:02.481516Z",
            "expirationTime": "2026-11-22T10:15:02.430181Z", "sha256Hash": "ZTNiMGM0NDI5OGZjMWMxNDlhZmJmNGM4OTk2ZmI5MjQyN2FlNDFlNDY0OWI5MzRjYTQ5NTk5MWI3ODUyYjg1NQ==",
            "uri": base + "/v1beta/files/k7x2m9q4w1ab", "state": "PROCESSING", "source": "UPLOADED"}
write("31-files-upload-finalize.response.json", json.dumps({"file": file_res}, indent=2) + "\n")
write("32-files-get-processing.response.json", json.dumps(file_res, indent=2) + "\n")
write("33-files-get-active.response.json", json.dumps(dict(file_res, state="ACTIVE", updateTime="2026-11-20T10:15:04.112871Z"), indent=2) + "\n")
write("34-file-prompt.request.json", request([
    {"fileData": {"mimeType": "audio/wav", "fileUri": file_res["uri"]}}, {"text": "Summarize this talk."}]))

# An image answer (Gemini 3 Pro Image: a signature on the image part).
picture = png(64, 48)
write("35-image-answer.request.json", request([{"text": "Draw a gradient."}], {"generationConfig": {"responseModalities": ["TEXT", "IMAGE"]}}))
write("35-image-answer.response.sse", sse(
    {"candidates": [{"content": {"parts": [{"text": "Here is a soft gradient."}], "role": "model"}, "index": 0}],
     "usageMetadata": usage(9, 6), "modelVersion": "gemini-3-pro-image-preview", "responseId": "mm-img1"},
    {"candidates": [{"content": {"parts": [{"inlineData": {"mimeType": "image/png", "data": b64(picture)}, "thoughtSignature": b64(b"\x12\x2f\x0a\x2d\x01image signature kept for the next turn")}], "role": "model"},
                     "finishReason": "STOP", "index": 0}],
     "usageMetadata": usage(9, 1296, "IMAGE"), "modelVersion": "gemini-3-pro-image-preview", "responseId": "mm-img1"}))
# Speech (TTS): raw 16-bit PCM at 24 kHz.
write("36-tts-answer.request.json", request([{"text": "Say cheerfully: have a wonderful day!"}], {"generationConfig": {
    "responseModalities": ["AUDIO"], "speechConfig": {"voiceConfig": {"prebuiltVoiceConfig": {"voiceName": "Kore"}}}}}))
write("36-tts-answer.response.sse", sse(
    {"candidates": [{"content": {"parts": [{"inlineData": {"mimeType": "audio/L16;codec=pcm;rate=24000", "data": b64(pcm(0.5))}}], "role": "model"},
                     "finishReason": "STOP", "index": 0}],
     "usageMetadata": usage(9, 13, "AUDIO"), "modelVersion": "gemini-2.5-flash-preview-tts", "responseId": "mm-tts1"}))
