#!/usr/bin/env python3
"""Behavioural evaluation of gem-ask against the live Gemini API.

Runs each prompt of evals/prompts.jsonl once through `gem-ask --output jsonl`
and scores two behaviours the system prompt asks for:

  chapters  the model opens chapters (create_new_topic -> `topic` events) at
            phase changes: at least `phases` topics for a multi-step prompt,
            and every topic of a turn comes before that turn's other calls;
  charts    the model calls render_visualization (and a chart is drawn)
            exactly when `chart` says a chart was asked for.

Skipped (exit 0, one line saying so) when GEMINI_API_KEY / GOOGLE_API_KEY is
unset. Not part of CI: it costs API calls and its answers vary by model.

Output (stdout, JSON lines; format documented in evals/README.md): one
`eval_case` object per prompt, then one `eval_summary` object.

usage: evals/run.py [--gem-ask PATH] [--model NAME] [--prompts FILE] [--repeat N]
"""
import argparse, json, os, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))


def run_case(gem_ask, model, case):
    cmd = [gem_ask, "--output", "jsonl", "--new-chat", "--no-history", "--no-stdin"]
    if model:
        cmd += ["--model", model]
    cmd.append(case["prompt"])
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    events = []
    for line in proc.stdout.splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            pass
    topics = [e.get("title") for e in events if e.get("type") == "topic"]
    calls = [e.get("tool_name") for e in events if e.get("type") == "tool_use"]
    charts = sum(1 for e in events if e.get("type") == "visualization")
    # Within each run of calls (no other event between them), a topic never
    # follows another tool call: gem-ask orders them, the model must not
    # need to.
    ordered, seen_call = True, False
    for e in events:
        t = e.get("type")
        if t == "tool_use" and e.get("tool_name") != "create_new_topic":
            seen_call = True
        elif t == "topic" and seen_call:
            ordered = False
        elif t not in ("tool_use", "tool_result", "topic", "visualization"):
            seen_call = False
    result = next((e for e in events if e.get("type") == "result"), {})
    chart_called = "render_visualization" in calls
    return {
        "type": "eval_case",
        "id": case["id"],
        "exit": proc.returncode,
        "status": result.get("status", "missing"),
        "topics": topics,
        "tool_calls": calls,
        "charts": charts,
        "chapters_ok": len(topics) >= case["phases"] and ordered,
        "chart_ok": chart_called == case["chart"] and (charts > 0) == case["chart"],
        "duration_ms": int((time.monotonic() - start) * 1000),
        "stderr": proc.stderr.strip()[-300:],
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gem-ask", default=os.path.join(HERE, "..", "target", "release", "gem-ask"))
    ap.add_argument("--model", default=os.environ.get("GEMINI_MODEL"))
    ap.add_argument("--prompts", default=os.path.join(HERE, "prompts.jsonl"))
    ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args()
    if not (os.environ.get("GEMINI_API_KEY") or os.environ.get("GOOGLE_API_KEY")):
        print(json.dumps({"type": "eval_summary", "skipped": "GEMINI_API_KEY is not set"}))
        return 0
    if not os.path.exists(a.gem_ask):
        sys.exit(f"evals: no gem-ask at {a.gem_ask}; run `cargo build --release` first")
    cases = [json.loads(l) for l in open(a.prompts) if l.strip()]
    rows = []
    for _ in range(a.repeat):
        for case in cases:
            row = run_case(a.gem_ask, a.model, case)
            rows.append((case, row))
            print(json.dumps(row), flush=True)
    multi = [r for c, r in rows if c["phases"] > 0]
    asked = [r for c, r in rows if c["chart"]]
    not_asked = [r for c, r in rows if not c["chart"]]
    ratio = lambda xs, k: round(sum(1 for x in xs if x[k]) / len(xs), 3) if xs else None
    print(json.dumps({
        "type": "eval_summary",
        "cases": len(rows),
        "errors": sum(1 for _, r in rows if r["status"] != "success"),
        "chapter_rate": ratio(multi, "chapters_ok"),
        "chart_when_asked_rate": ratio(asked, "chart_ok"),
        "no_chart_when_not_asked_rate": ratio(not_asked, "chart_ok"),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
