#!/usr/bin/env python3
"""Behavioural evaluation of gem-ask against the live Gemini API.

Runs each prompt of evals/prompts.jsonl through `gem-ask --output jsonl`
and scores two behaviours the system prompt asks for:

  chapters  the model opens chapters (create_new_topic -> `topic` events) at
            phase changes: a prompt with `phases` > 0 gets at least that many
            distinct chapters, never reopens one (topics are forward-only),
            and a chart it draws sits in a chapter opened before it;
  charts    the model calls render_visualization (and a chart is drawn)
            exactly when `chart` says a chart was asked for.

Skipped (exit 0, one `eval_summary` line with `skipped`) when neither
GEMINI_API_KEY nor GOOGLE_API_KEY is set, unless --replay is given. Not part
of CI: it costs API calls and its answers vary by model.

  --record FILE   also save every API exchange of the run to FILE (gem-ask
                  --record, the cases one after another), to replay later;
  --replay FILE   answer from such a file instead of the network (gem-ask
                  --replay): no key, no network. tests/topics_e2e.rs replays
                  evals/testdata/smoke.replay this way so the script cannot rot.

Output (stdout, JSON lines; format documented in evals/README.md): one
`eval_case` object per prompt run, then one `eval_summary` object.
Exit status: 0 when the eval ran (whatever the model did) or was skipped,
1 when it could not run (no gem-ask binary, a bad prompts file), 2 for bad
flags.

usage: evals/run.py [--gem-ask PATH] [--model NAME] [--prompts FILE]
                    [--repeat N] [--record FILE | --replay FILE]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOPIC_TOOL = "create_new_topic"
CHART_TOOL = "render_visualization"


def score(case, events):
    """The eval_case fields that judge the model, from gem-ask's events."""
    topics = [e.get("title") for e in events if e.get("type") == "topic"]
    calls = [e.get("tool_name") for e in events if e.get("type") == "tool_use"]
    charts = sum(1 for e in events if e.get("type") == "visualization")
    # Forward-only: a title opened again later is a reopened chapter
    # (the same title twice in a row is one chapter, as topic-tag sees it).
    reopened = 0
    seen = []
    for t in topics:
        if seen and seen[-1] == t:
            continue
        if t in seen:
            reopened += 1
        seen.append(t)
    distinct = len(set(topics))
    # The chart of a multi-step prompt belongs to a chapter opened before it.
    chart_in_chapter = None
    if charts:
        chart_in_chapter = False
        for e in events:
            if e.get("type") == "topic":
                chart_in_chapter = True
                break
            if e.get("type") == "visualization":
                break
    phases = case.get("phases", 0)
    chapters_ok = None
    if phases > 0:
        chapters_ok = (
            distinct >= phases
            and reopened == 0
            and (chart_in_chapter is not False)
        )
    chart_called = CHART_TOOL in calls
    return {
        "topics": topics,
        "tool_calls": calls,
        "charts": charts,
        "reopened_topics": reopened,
        "chart_in_chapter": chart_in_chapter,
        "chapters_ok": chapters_ok,
        "chart_ok": chart_called == case["chart"] and (charts > 0) == case["chart"],
    }


def run_case(args, case, record_to):
    cmd = [args.gem_ask, "--output", "jsonl", "--new-chat", "--no-history", "--no-stdin"]
    if args.model:
        cmd += ["--model", args.model]
    if args.replay:
        cmd += ["--replay", args.replay]
    elif record_to:
        cmd += ["--record", record_to]
    cmd.append(case["prompt"])
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    events = []
    for line in proc.stdout.splitlines():
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if isinstance(e, dict):
            events.append(e)
    result = next((e for e in events if e.get("type") == "result"), {})
    row = {"type": "eval_case", "id": case["id"], "exit": proc.returncode,
           "status": result.get("status", "missing")}
    row.update(score(case, events))
    row["duration_ms"] = int((time.monotonic() - start) * 1000)
    row["stderr"] = proc.stderr.strip()[-300:]
    return row


def load_cases(path):
    cases = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                c = json.loads(line)
            except ValueError as e:
                raise SystemExit(f"evals: {path}: line {n}: not JSON: {e}")
            missing = [k for k in ("id", "prompt", "chart") if k not in c]
            if missing or not isinstance(c.get("chart"), bool):
                raise SystemExit(
                    f"evals: {path}: line {n}: expected "
                    '{"id": str, "prompt": str, "chart": bool, "phases": int}'
                    f" (missing or bad: {', '.join(missing) or 'chart'})")
            cases.append(c)
    return cases


def rate(rows, key):
    judged = [r for r in rows if r[key] is not None]
    if not judged:
        return None
    return round(sum(1 for r in judged if r[key]) / len(judged), 3)


def summarize(rows):
    multi = [r for c, r in rows if c.get("phases", 0) > 0]
    asked = [r for c, r in rows if c["chart"]]
    not_asked = [r for c, r in rows if not c["chart"]]
    return {
        "type": "eval_summary",
        "cases": len(rows),
        "errors": sum(1 for _, r in rows if r["status"] != "success"),
        "chapter_rate": rate(multi, "chapters_ok"),
        "chart_when_asked_rate": rate(asked, "chart_ok"),
        "no_chart_when_not_asked_rate": rate(not_asked, "chart_ok"),
        "mean_topics_multi_step": (
            round(sum(len(r["topics"]) for r in multi) / len(multi), 2) if multi else None),
    }


def main():
    ap = argparse.ArgumentParser(description="Live-API behavioural eval of gem-ask's chapters and charts.")
    ap.add_argument("--gem-ask", default=os.path.join(HERE, "..", "target", "release", "gem-ask"),
                    help="the gem-ask binary (default: target/release/gem-ask)")
    ap.add_argument("--model", default=os.environ.get("GEMINI_MODEL") or None)
    ap.add_argument("--prompts", default=os.path.join(HERE, "prompts.jsonl"))
    ap.add_argument("--repeat", type=int, default=1)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--record", metavar="FILE", help="save the API exchanges to FILE")
    mode.add_argument("--replay", metavar="FILE", help="answer from a --record FILE, offline")
    a = ap.parse_args()
    if a.repeat < 1:
        ap.error("--repeat must be at least 1")
    if not a.replay and not (os.environ.get("GEMINI_API_KEY") or os.environ.get("GOOGLE_API_KEY")):
        print(json.dumps({"type": "eval_summary", "skipped": "GEMINI_API_KEY is not set"}))
        return 0
    if not (os.path.isfile(a.gem_ask) and os.access(a.gem_ask, os.X_OK)):
        print(f"evals: no gem-ask at {a.gem_ask}; run `cargo build --release` first "
              "or give --gem-ask PATH", file=sys.stderr)
        return 1
    if a.replay and not os.path.isfile(a.replay):
        print(f"evals: cannot open replay file {a.replay}", file=sys.stderr)
        return 1
    cases = load_cases(a.prompts)
    tmp = tempfile.mkdtemp(prefix="gemline-eval-") if a.record else None
    rows = []
    try:
        record = open(a.record, "w", encoding="utf-8") if a.record else None
        for _ in range(a.repeat):
            for case in cases:
                part = os.path.join(tmp, "case.replay") if tmp else None
                row = run_case(a, case, part)
                if record and os.path.exists(part):
                    with open(part, encoding="utf-8") as p:
                        shutil.copyfileobj(p, record)
                    record.flush()
                rows.append((case, row))
                print(json.dumps(row), flush=True)
        if record:
            record.close()
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(summarize(rows)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
