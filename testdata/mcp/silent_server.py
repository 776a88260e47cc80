"""A stand-in MCP server over stdio for gem-ask's tests: it answers the
handshake and tools/list; its tool `wait` never answers, its tool `write`
writes "x" to the file named by `path` and says whether it could, its tool
`env` says what TMPDIR is and names the variables it has whose names end
in _KEY or _TOKEN (so a test can see a server's environment). It
appends every message it receives, one JSON line each, to the log file
named by its first argument (so a test can see notifications/cancelled)."""

import json
import os
import sys

log = open(sys.argv[1], "a", encoding="utf-8")


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    log.write(line + "\n")
    log.flush()
    msg = json.loads(line)
    method, mid = msg.get("method"), msg.get("id")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": mid, "result": {
            "protocolVersion": msg["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "silent", "version": "1.0"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": mid, "result": {"tools": [{
            "name": "wait",
            "description": "Waits; never answers.",
            "inputSchema": {"type": "object",
                            "properties": {"seconds": {"type": "number"}}}}, {
            "name": "write",
            "description": "Writes x to a file.",
            "inputSchema": {"type": "object",
                            "properties": {"path": {"type": "string"}}}}, {
            "name": "env",
            "description": "Says TMPDIR and the *_KEY and *_TOKEN names.",
            "inputSchema": {"type": "object", "properties": {}}}]}})
    elif method == "ping":
        send({"jsonrpc": "2.0", "id": mid, "result": {}})
    elif method == "tools/call" and msg["params"]["name"] == "write":
        try:
            with open(msg["params"]["arguments"]["path"], "w") as f:
                f.write("x")
            text = "written"
        except OSError as e:
            text = "not written: " + e.strerror
        send({"jsonrpc": "2.0", "id": mid, "result": {
            "content": [{"type": "text", "text": text}]}})
    elif method == "tools/call" and msg["params"]["name"] == "env":
        names = sorted(k for k in os.environ
                       if k.endswith("_KEY") or k.endswith("_TOKEN"))
        text = "TMPDIR=%s\nsecret-looking: %s" % (
            os.environ.get("TMPDIR", ""), " ".join(names) or "none")
        send({"jsonrpc": "2.0", "id": mid, "result": {
            "content": [{"type": "text", "text": text}]}})
    # tools/call of wait: no answer, ever.
