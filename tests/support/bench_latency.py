#!/usr/bin/env python3
"""Per-chunk latency, wall time and peak RSS of gem-ask against a local fake
server streaming a two-chunk answer (not a test: numbers for the notes).
usage: python3 tests/support/bench_latency.py target/release/gem-ask [RUNS]
Environment: GAP seconds between the two chunks (default 0.05); AICHAT=path
to an aichat binary to measure it the same way (its gemini client, api_base
pointed at the fake server)."""
import json, os, socket, subprocess, sys, threading, time

CHUNKS = [
    {"candidates": [{"content": {"parts": [{"text": "The M5 CS is "}], "role": "model"}, "index": 0}]},
    {"candidates": [{"content": {"parts": [{"text": "the quickest."}], "role": "model"}, "finishReason": "STOP", "index": 0}],
     "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 6, "totalTokenCount": 16}},
]
sent = []

def serve(listener, gap):
    while True:
        conn, _ = listener.accept()
        f = conn.makefile("rb")
        request_line = f.readline()
        length = 0
        while True:
            line = f.readline()
            if line in (b"\r\n", b""):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        f.read(length)
        sse = b"alt=sse" in request_line
        ctype = b"text/event-stream" if sse else b"application/json; charset=UTF-8"
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: %s\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n" % ctype)
        for i, c in enumerate(CHUNKS):
            if i and gap:
                time.sleep(gap)
            if sse:
                ev = ("data: " + json.dumps(c) + "\r\n\r\n").encode()
            else:  # without alt=sse the API streams one JSON array
                ev = (("[" if i == 0 else "\r\n,") + json.dumps(c) + ("]" if i == len(CHUNKS) - 1 else "")).encode()
            sent.append(time.monotonic_ns())
            conn.sendall(b"%x\r\n%s\r\n" % (len(ev), ev))
        conn.sendall(b"0\r\n\r\n")
        conn.close()

def main():
    binary, runs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20
    aichat = os.environ.get("AICHAT")
    l = socket.socket(); l.bind(("127.0.0.1", 0)); l.listen(16)
    gap = float(os.environ.get("GAP", "0.05"))
    threading.Thread(target=serve, args=(l, gap), daemon=True).start()
    env = dict(os.environ, GEMINI_API_KEY="k", GEMINI_BASE_URL="http://127.0.0.1:%d" % l.getsockname()[1],
               XDG_DATA_HOME="/tmp/bench/xdg")
    lat, walls, rss = [], [], []
    if aichat:
        cfg = "/tmp/bench/aichat-config"
        os.makedirs(cfg, exist_ok=True)
        with open(cfg + "/config.yaml", "w") as f:
            f.write("model: gemini:gemini-2.5-flash\nsave: false\nhighlight: false\nclients:\n"
                    "- type: gemini\n  api_base: http://127.0.0.1:%d/v1beta\n  api_key: k\n" % l.getsockname()[1])
        env["AICHAT_CONFIG_DIR"] = cfg
        a_walls, a_rss = [], []
        for _ in range(runs):
            t0 = time.monotonic_ns()
            p = subprocess.run(["/usr/bin/time", "-f", "%M", aichat, "hi"], capture_output=True, stdin=subprocess.DEVNULL, env=env)
            a_walls.append((time.monotonic_ns() - t0 - gap * 1e9) / 1e6)
            a_rss.append(int(p.stderr.split()[-1]))
        a_walls.sort()
        print(f"aichat: output={p.stdout[:60]!r} wall ms median={a_walls[len(a_walls)//2]:.1f} min={a_walls[0]:.1f}; "
              f"peak RSS KB max={max(a_rss)} median={sorted(a_rss)[len(a_rss)//2]}")
    for _ in range(runs):
        sent.clear()
        t0 = time.monotonic_ns()
        p = subprocess.Popen(["/usr/bin/time", "-f", "%M", binary, "--no-history", "--output", "jsonl", "hi"], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        got = []
        for line in p.stdout:
            e = json.loads(line)
            if e.get("type") == "message" and e.get("role") == "assistant":
                got.append(time.monotonic_ns())
        p.wait()
        rss.append(int(p.stderr.read().split()[-1]))
        walls.append((time.monotonic_ns() - t0 - gap * 1e9) / 1e6)
        lat += [(g - s) / 1e6 for g, s in zip(got, sent)]
    lat.sort(); walls.sort()
    print(f"runs={runs} per-chunk latency ms: median={lat[len(lat)//2]:.3f} p95={lat[int(len(lat)*0.95)]:.3f} max={lat[-1]:.3f}")
    print(f"wall ms (minus the {gap*1000:.0f} ms server gap): median={walls[len(walls)//2]:.1f} min={walls[0]:.1f}")
    print(f"peak RSS (GNU time, KB): max={max(rss)} median={sorted(rss)[len(rss)//2]}")

main()
