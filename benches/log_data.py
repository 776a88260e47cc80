"""Session files for benches/log.sh: N sessions in gem-ask's format
(a meta line, then per turn the prompt, the model's calls, the tools'
responses, the answer and the closing turn record), written over the
last 60 days, with words drawn by Zipf's law so common words are common.

One session of five days ago holds the needle: a shell command no other
session runs (`git bisect run ./flaky-check.sh`), which the bench then
searches for among the tool calls of the last week.

    python3 log_data.py DIR N
"""

import json
import os
import random
import sys
import time

WORDS = ("the of and to in is that for it with as was on be by this are or from at an but not "
         "test build cargo error file line chart data model prompt answer session tool result "
         "config memory index search parse render stream event table value column row series "
         "bar point label width color server request response token cost budget policy rule "
         "shell command path read write list show filter since status deploy release branch "
         "commit merge review patch bench timing latency cache retry timeout signal topic").split()
COMMANDS = ["cargo test", "cargo build --release", "git status", "git diff --stat", "ls -la",
            "rg TODO src", "make docs", "git log --oneline -20", "cargo clippy", "du -sh target"]
PATHS = ["src/main.rs", "src/lib.rs", "README.md", "Cargo.toml", "docs/events.md", "tests/it/main.rs"]
NEEDLE = "git bisect run ./flaky-check.sh"


def words(rng, n):
    return " ".join(WORDS[min(int(rng.paretovariate(1.2)) - 1, len(WORDS) - 1)] for _ in range(n))


def stamp(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%03dZ" % int((t % 1) * 1000)


def session(rng, start, needle):
    t = start
    lines = [{"record": "meta", "model": rng.choice(["gemini-2.5-flash", "gemini-2.5-pro", "gemini-3.1-pro-preview"]),
              "created": stamp(t), "version": 1}]
    for turn in range(rng.randint(1, 4)):
        t += rng.uniform(5, 120)
        lines.append({"record": "content", "timestamp": stamp(t),
                      "content": {"role": "user", "parts": [{"text": words(rng, rng.randint(5, 40))}]}})
        for _ in range(rng.randint(0, 3)):
            t += rng.uniform(1, 20)
            if needle and turn == 0:
                name, args, needle = "run_shell_command", {"command": NEEDLE}, False
            elif rng.random() < 0.6:
                name, args = "run_shell_command", {"command": rng.choice(COMMANDS)}
            else:
                name, args = "read_file", {"path": rng.choice(PATHS)}
            lines.append({"record": "content", "timestamp": stamp(t),
                          "content": {"role": "model", "parts": [{"functionCall": {"name": name, "args": args}}]}})
            lines.append({"record": "content", "timestamp": stamp(t + 1),
                          "content": {"role": "user", "parts": [{"functionResponse": {
                              "name": name, "response": {"output": words(rng, rng.randint(20, 200))}}}]}})
        t += rng.uniform(2, 30)
        lines.append({"record": "content", "timestamp": stamp(t),
                      "content": {"role": "model", "parts": [{"text": words(rng, rng.randint(20, 150))}]}})
        tokens = rng.randint(200, 5000)
        lines.append({"record": "turn", "tokens": tokens, "context_tokens": tokens,
                      "usage": {"input": tokens - 100, "cached_input": 0, "output": 100, "thinking": 0},
                      "cost_usd": tokens * 1e-6, "timestamp": stamp(t)})
    return lines, t


def main():
    out, n = sys.argv[1], int(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    rng = random.Random(35)
    now = time.time()
    needle_at = n // 3
    for i in range(n):
        start = now - 5 * 86400 if i == needle_at else now - rng.uniform(0, 60 * 86400)
        lines, end = session(rng, start, i == needle_at)
        sid = time.strftime("%Y%m%d-%H%M%S", time.gmtime(start)) + "-%06x" % i
        path = os.path.join(out, sid + ".jsonl")
        with open(path, "w") as f:
            for line in lines:
                f.write(json.dumps(line, separators=(",", ":")) + "\n")
        os.utime(path, (end, end))


if __name__ == "__main__":
    main()
