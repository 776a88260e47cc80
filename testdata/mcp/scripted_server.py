#!/usr/bin/env python3
"""A scripted MCP server over stdio for gem-ask's tests (no dependencies).

usage: scripted_server.py many   504 tools, their schemas with $ref/$defs,
                                 anyOf, oneOf, type lists, const, pattern;
                                 tool_0 with a 2 MB description
       scripted_server.py huge   one tool, `dump`, answering with a text of
                                 17 MiB (past the 16 MiB an MCP message may have)
"""
import json
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "many"


def schema(i):
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "Zone": {"type": "string", "pattern": "^[A-Z][a-z]+/", "default": "UTC"},
            "Node": {"type": "object", "properties": {"name": {"type": "string"},
                                                      "child": {"$ref": "#/$defs/Node"}}},
        },
        "properties": {
            "zone": {"$ref": "#/$defs/Zone", "description": f"zone of call {i}"},
            "tree": {"$ref": "#/$defs/Node"},
            "when": {"type": ["string", "null"], "format": "date-time"},
            "mode": {"oneOf": [{"const": "fast"}, {"const": "slow"}]},
            "count": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "string"}]},
        },
        "required": ["zone"],
        "additionalProperties": False,
    }


def tools():
    if MODE == "huge":
        return [{"name": "dump", "description": "Dumps everything.",
                 "inputSchema": {"type": "object", "properties": {}}}]
    out = []
    for i in range(504):
        d = f"Tool number {i}."
        if i == 0:
            d = "A very long description. " * (2 * 1024 * 1024 // 25)
        out.append({"name": f"tool_{i}", "description": d, "inputSchema": schema(i)})
    return out


def answer(msg):
    method = msg.get("method")
    if method == "initialize":
        version = msg.get("params", {}).get("protocolVersion", "2025-06-18")
        return {"protocolVersion": version, "capabilities": {"tools": {}},
                "serverInfo": {"name": "scripted", "version": "1.0.0"}}
    if method == "tools/list":
        return {"tools": tools()}
    if method == "tools/call":
        name = msg["params"]["name"]
        if name == "dump":
            text = "x" * (17 * 1024 * 1024)
        else:
            text = f"{name} called with {json.dumps(msg['params'].get('arguments', {}))}"
        return {"content": [{"type": "text", "text": text}]}
    if method == "ping":
        return {}
    return None


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        if "id" not in msg:
            continue
        result = answer(msg)
        if result is None:
            reply = {"jsonrpc": "2.0", "id": msg["id"],
                     "error": {"code": -32601, "message": f"no method {msg.get('method')}"}}
        else:
            reply = {"jsonrpc": "2.0", "id": msg["id"], "result": result}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
