#!/usr/bin/env python3
"""A fake Gemini server for benches/map.sh: each POST is answered after
DELAY seconds with one SSE chunk, the prompt's text reversed (so an answer
belongs to its record). Prints its URL on the first line of stdout.

    map_fake.py DELAY
"""
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DELAY = float(sys.argv[1]) if len(sys.argv) > 1 else 0.2


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        prompt = body["contents"][0]["parts"][0]["text"]
        time.sleep(DELAY)
        chunk = {
            "candidates": [{"content": {"role": "model", "parts": [{"text": prompt[::-1]}]},
                            "finishReason": "STOP"}],
            "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 2, "totalTokenCount": 5},
        }
        data = ("data: " + json.dumps(chunk) + "\r\n\r\n").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256


srv = Server(("127.0.0.1", 0), Handler)
print(f"http://127.0.0.1:{srv.server_address[1]}", flush=True)
srv.serve_forever()
