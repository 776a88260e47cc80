#!/usr/bin/env python3
"""A stdio MCP server with one tool, render_visualization, for recording
other agents' streams that chart (no dependencies). It answers every call
with a one-line text."""
import json
import sys

TOOL = {
    "name": "render_visualization",
    "description": "Draws a chart from series of labelled values.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "chartType": {"type": "string", "enum": ["bar", "line", "table"]},
            "title": {"type": "string"},
            "series": {"type": "array", "items": {"type": "object"}},
        },
        "required": ["chartType", "series"],
    },
}


def reply(id_, result):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": id_, "result": result}) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    msg = json.loads(line)
    method, id_ = msg.get("method"), msg.get("id")
    if id_ is None:
        continue
    if method == "initialize":
        reply(id_, {"protocolVersion": msg["params"].get("protocolVersion", "2025-06-18"),
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "chart", "version": "1.0.0"}})
    elif method == "tools/list":
        reply(id_, {"tools": [TOOL]})
    elif method == "tools/call":
        args = msg["params"].get("arguments", {})
        reply(id_, {"content": [{"type": "text", "text": f"Drew {args.get('title', 'the chart')}."}]})
    else:
        reply(id_, {})
