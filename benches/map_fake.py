#!/usr/bin/env python3
"""A fake model server for benches/map.sh. Each answer is the prompt's text
reversed, so an answer belongs to its record. Prints its URL on the first
line of stdout.

    map_fake.py DELAY [--storm SECONDS]

It speaks:
- Gemini's streamGenerateContent (one SSE chunk after DELAY seconds);
- an OpenAI-compatible /v1/chat/completions (streamed or not, after DELAY),
  for peers such as `llm`;
- Gemini's Batch API: batchGenerateContent (requests inline or in a file
  uploaded through the Files API), the job's operation (RUNNING at its
  first poll, SUCCEEDED after), and the answers inline or as a file to
  download.

`--storm SECONDS`: for SECONDS from the first model request, every second
model request is refused with 429 RESOURCE_EXHAUSTED (half of them).
`GET /stats` gives the counts: model requests, refused, answered, batch
jobs, uploads, polls.
"""
import itertools
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DELAY = float(sys.argv[1]) if len(sys.argv) > 1 else 0.2
STORM = float(sys.argv[sys.argv.index("--storm") + 1]) if "--storm" in sys.argv else 0.0

LOCK = threading.Lock()
STATS = {"requests": 0, "refused": 0, "answered": 0, "jobs": 0, "uploads": 0, "polls": 0}
FIRST = []  # when the first model request came
UPLOADS = {}  # files/ID -> the uploaded bytes
JOBS = {}  # n -> {"polls", "count", "output": ("inline", items) | ("file", name)}
FILES = {}  # files/ID -> the answers' bytes
IDS = itertools.count(1)


def reply_of(prompt):
    return prompt[::-1]


def response_of(request):
    """A GenerateContentResponse to one generateContent request body."""
    prompt = request["contents"][0]["parts"][0]["text"]
    return {
        "candidates": [{"content": {"role": "model", "parts": [{"text": reply_of(prompt)}]},
                        "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 2, "totalTokenCount": 5},
    }


def refused():
    """Whether this model request is refused (the storm), counted."""
    with LOCK:
        now = time.monotonic()
        if not FIRST:
            FIRST.append(now)
        STATS["requests"] += 1
        n = STATS["requests"]
        no = STORM > 0 and now - FIRST[0] < STORM and n % 2 == 0
        STATS["refused" if no else "answered"] += 1
        return no


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def send(self, status, ctype, data, headers=()):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def send_json(self, value, status=200, headers=()):
        self.send(status, "application/json", json.dumps(value).encode(), headers)

    def body(self):
        return self.rfile.read(int(self.headers.get("Content-Length", 0)))

    def refuse(self):
        err = {"error": {"code": 429, "message": "Resource has been exhausted (e.g. check quota).",
                         "status": "RESOURCE_EXHAUSTED"}}
        self.send_json(err, status=429)

    def do_GET(self):
        path = self.path
        if path == "/stats":
            with LOCK:
                return self.send_json(dict(STATS))
        if path.startswith("/v1beta/batches/"):
            return self.send_json(self.poll(int(path.rsplit("/", 1)[1])))
        if path.startswith("/download/v1beta/"):
            name = path[len("/download/v1beta/"):].split(":")[0]
            return self.send(200, "application/jsonl", FILES[name])
        self.send_json({"error": {"code": 404, "message": path}}, status=404)

    def do_POST(self):
        path = self.path.split("?")[0]
        body = self.body()
        if path.endswith(":streamGenerateContent"):
            return self.gemini(json.loads(body))
        if path == "/v1/chat/completions":
            return self.openai(json.loads(body))
        if path.endswith(":batchGenerateContent"):
            return self.create(json.loads(body))
        if path == "/upload/v1beta/files":
            n = next(IDS)
            host = self.headers["Host"]
            return self.send_json({}, headers=[("x-goog-upload-url", f"http://{host}/upload/session/{n}")])
        if path.startswith("/upload/session/"):
            name = "files/in" + path.rsplit("/", 1)[1]
            with LOCK:
                UPLOADS[name] = body
                STATS["uploads"] += 1
            return self.send_json({"file": {"name": name, "uri": f"http://x/v1beta/{name}",
                                            "mimeType": "application/jsonl", "state": "ACTIVE"}})
        self.send_json({"error": {"code": 404, "message": path}}, status=404)

    def gemini(self, request):
        time.sleep(DELAY)
        if refused():
            return self.refuse()
        data = ("data: " + json.dumps(response_of(request)) + "\r\n\r\n").encode()
        self.send(200, "text/event-stream", data)

    def openai(self, request):
        time.sleep(DELAY)
        if refused():
            return self.refuse()
        prompt = request["messages"][-1]["content"]
        if isinstance(prompt, list):
            prompt = "".join(p.get("text", "") for p in prompt)
        text, model, now = reply_of(prompt), request.get("model", "fake"), int(time.time())
        usage = {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}
        if not request.get("stream"):
            msg = {"id": "c1", "object": "chat.completion", "created": now, "model": model,
                   "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                                "finish_reason": "stop"}], "usage": usage}
            return self.send_json(msg)
        chunk = {"id": "c1", "object": "chat.completion.chunk", "created": now, "model": model}
        events = [dict(chunk, choices=[{"index": 0, "delta": {"role": "assistant", "content": text},
                                        "finish_reason": None}]),
                  dict(chunk, choices=[{"index": 0, "delta": {}, "finish_reason": "stop"}])]
        if (request.get("stream_options") or {}).get("include_usage"):
            events.append(dict(chunk, choices=[], usage=usage))
        data = "".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n"
        self.send(200, "text/event-stream", data.encode())

    def create(self, body):
        """A batch job: its answers made now, given at the second poll."""
        config = body["batch"]["inputConfig"]
        n = next(IDS)
        if "fileName" in config:
            lines = UPLOADS[config["fileName"]].decode().splitlines()
            items = [json.loads(l) for l in lines if l.strip()]
            out = "".join(json.dumps({"key": i["key"], "response": response_of(i["request"])}) + "\n"
                          for i in items)
            name = f"files/out{n}"
            FILES[name] = out.encode()
            output = {"responsesFile": name}
        else:
            items = config["requests"]["requests"]
            output = {"inlinedResponses": {"inlinedResponses": [
                {"response": response_of(i["request"]), "metadata": i.get("metadata", {})}
                for i in items]}}
        with LOCK:
            STATS["jobs"] += 1
            JOBS[n] = {"polls": 0, "count": len(items), "output": output}
        self.send_json(self.operation(n))

    def poll(self, n):
        with LOCK:
            STATS["polls"] += 1
            JOBS[n]["polls"] += 1
        return self.operation(n)

    def operation(self, n):
        job = JOBS[n]
        done = job["polls"] >= 2
        count = str(job["count"])
        meta = {"@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch",
                "name": f"batches/{n}", "model": "models/fake",
                "state": "BATCH_STATE_SUCCEEDED" if done else "BATCH_STATE_RUNNING",
                "batchStats": {"requestCount": count,
                               "successfulRequestCount": count if done else "0",
                               "pendingRequestCount": "0" if done else count}}
        op = {"name": f"batches/{n}", "metadata": meta}
        if done:
            meta["output"] = job["output"]
            op["done"] = True
        return op

    def log_message(self, *args):
        pass


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024


srv = Server(("127.0.0.1", 0), Handler)
print(f"http://127.0.0.1:{srv.server_address[1]}", flush=True)
srv.serve_forever()
