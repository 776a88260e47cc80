"""A scripted model server on 127.0.0.1 for recording other agents' streams.

Serves OpenAI's Responses API (POST /v1/responses, for codex) and
Anthropic's Messages API (POST /v1/messages, for Claude Code) as SSE,
replaying the turns of a script (a JSON file: {"responses": [...],
"messages": [...]}, each a list of turns, a turn a list of output items).
Every request body is logged to LOG_DIR.

usage: fake_server.py PORT SCRIPT.json LOG_DIR
An item is {"type": "text"|"reasoning", "text"}, {"type": "call", "id",
"name", "args"}, {"type": "raw", "item"} (a Responses output item as
given), {"type": "fail", "text"} (the response fails) or, first in a
Messages turn, {"type": "http", "status", "text"} (an error answer).
"""
import json, os, sys, itertools
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SCRIPT = json.load(open(sys.argv[2]))
LOG = sys.argv[3]
os.makedirs(LOG, exist_ok=True)
counts = {"responses": 0, "messages": 0}
seq = itertools.count()

def sse(h, event, data):
    h.wfile.write(f"event: {event}\ndata: {json.dumps(data)}\n\n".encode())
    h.wfile.flush()

class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a):
        sys.stderr.write("fake: " + (a[0] % a[1:]) + "\n")
    def do_GET(self):
        body = b'{"data":[],"models":[]}'
        self.send_response(200); self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def do_HEAD(self):
        self.send_response(200); self.send_header("content-length", "0"); self.end_headers()
    def do_POST(self):
        n = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(n)
        path = self.path.split("?")[0]
        with open(os.path.join(LOG, f"{next(seq):03d}{path.replace('/', '_')}.json"), "wb") as f:
            f.write(raw)
        if path.endswith("/responses"):
            return self.do_responses(json.loads(raw or b"{}"))
        if path.endswith("/messages"):
            return self.do_messages(json.loads(raw or b"{}"))
        body = b"{}"
        self.send_response(200); self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def start_sse(self):
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("connection", "close")
        self.end_headers()
        self.close_connection = True
    def turn(self, kind):
        turns = SCRIPT.get(kind, [])
        i = counts[kind]; counts[kind] += 1
        return turns[i] if i < len(turns) else [{"type": "text", "text": "Done."}]
    def do_responses(self, req):
        items = self.turn("responses")
        self.start_sse()
        rid = f"resp_{counts['responses']}"
        sse(self, "response.created", {"type": "response.created", "response": {"id": rid}})
        for k, it in enumerate(items):
            if it["type"] == "text":
                item = {"type": "message", "role": "assistant", "id": f"msg_{rid}_{k}",
                        "content": [{"type": "output_text", "text": it["text"]}]}
                sse(self, "response.output_item.added", {"type": "response.output_item.added", "output_index": k,
                    "item": {**item, "content": []}})
                sse(self, "response.output_text.delta", {"type": "response.output_text.delta", "item_id": item["id"],
                    "output_index": k, "content_index": 0, "delta": it["text"]})
                sse(self, "response.output_item.done", {"type": "response.output_item.done", "output_index": k, "item": item})
            elif it["type"] == "reasoning":
                item = {"type": "reasoning", "id": f"rs_{rid}_{k}", "summary": [{"type": "summary_text", "text": it["text"]}]}
                sse(self, "response.output_item.added", {"type": "response.output_item.added", "output_index": k, "item": {**item, "summary": []}})
                sse(self, "response.reasoning_summary_text.delta", {"type": "response.reasoning_summary_text.delta", "item_id": item["id"], "output_index": k, "summary_index": 0, "delta": it["text"]})
                sse(self, "response.output_item.done", {"type": "response.output_item.done", "output_index": k, "item": item})
            elif it["type"] == "call":
                item = {"type": "function_call", "id": f"fc_{rid}_{k}", "call_id": it["id"], "name": it["name"],
                        "arguments": json.dumps(it["args"])}
                sse(self, "response.output_item.added", {"type": "response.output_item.added", "output_index": k, "item": item})
                sse(self, "response.output_item.done", {"type": "response.output_item.done", "output_index": k, "item": item})
            elif it["type"] == "raw":
                item = it["item"]
                sse(self, "response.output_item.added", {"type": "response.output_item.added", "output_index": k, "item": item})
                sse(self, "response.output_item.done", {"type": "response.output_item.done", "output_index": k, "item": item})
            elif it["type"] == "fail":
                sse(self, "response.failed", {"type": "response.failed", "response": {"id": rid, "error": {"code": "server_error", "message": it["text"]}}})
                return
        sse(self, "response.completed", {"type": "response.completed", "response": {"id": rid,
            "usage": {"input_tokens": 1200 + 100 * counts["responses"], "input_tokens_details": {"cached_tokens": 1024},
                      "output_tokens": 42, "output_tokens_details": {"reasoning_tokens": 8}, "total_tokens": 1242 + 100 * counts["responses"]}}})
    def do_messages(self, req):
        # Claude Code asks small side questions (titles, topics) too: answer them briefly.
        if not req.get("tools") or not req.get("stream", False):
            items = [{"type": "text", "text": "{\"isNewTopic\": false, \"title\": null}"}]
            if not req.get("stream", False):
                body = json.dumps({"id": "msg_side", "type": "message", "role": "assistant", "model": req.get("model"),
                    "content": [{"type": "text", "text": items[0]["text"]}], "stop_reason": "end_turn",
                    "usage": {"input_tokens": 10, "output_tokens": 5}}).encode()
                self.send_response(200); self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body))); self.end_headers(); self.wfile.write(body)
                return
        else:
            items = self.turn("messages")
        if items and items[0]["type"] == "http":
            body = json.dumps({"type": "error", "error": {"type": items[0].get("error", "overloaded_error"),
                               "message": items[0]["text"]}}).encode()
            self.send_response(items[0]["status"]); self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body))); self.end_headers(); self.wfile.write(body)
            return
        self.start_sse()
        mid = f"msg_{next(seq)}"
        sse(self, "message_start", {"type": "message_start", "message": {"id": mid, "type": "message", "role": "assistant",
            "model": req.get("model"), "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": 900, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 2048, "output_tokens": 1}}})
        stop = "end_turn"
        for k, it in enumerate(items):
            if it["type"] == "text":
                sse(self, "content_block_start", {"type": "content_block_start", "index": k, "content_block": {"type": "text", "text": ""}})
                sse(self, "content_block_delta", {"type": "content_block_delta", "index": k, "delta": {"type": "text_delta", "text": it["text"]}})
            elif it["type"] == "reasoning":
                sse(self, "content_block_start", {"type": "content_block_start", "index": k, "content_block": {"type": "thinking", "thinking": "", "signature": ""}})
                sse(self, "content_block_delta", {"type": "content_block_delta", "index": k, "delta": {"type": "thinking_delta", "thinking": it["text"]}})
                sse(self, "content_block_delta", {"type": "content_block_delta", "index": k, "delta": {"type": "signature_delta", "signature": "c2ln"}})
            elif it["type"] == "call":
                stop = "tool_use"
                sse(self, "content_block_start", {"type": "content_block_start", "index": k, "content_block": {"type": "tool_use", "id": it["id"], "name": it["name"], "input": {}}})
                sse(self, "content_block_delta", {"type": "content_block_delta", "index": k, "delta": {"type": "input_json_delta", "partial_json": json.dumps(it["args"])}})
            sse(self, "content_block_stop", {"type": "content_block_stop", "index": k})
        sse(self, "message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 37}})
        sse(self, "message_stop", {"type": "message_stop"})

ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
