#!/usr/bin/env python3
"""gem-ask beside aichat against one local fake Gemini server (issue 3's
benchmark; run through benches/gem_ask.sh, which builds and configures).

usage: gem_ask_bench.py GEM_ASK AICHAT AICHAT_CONFIG_DIR [RUNS]

The server answers every POST with the same two-chunk answer: SSE for
`streamGenerateContent?alt=sse` (gem-ask), a streamed JSON array for
`streamGenerateContent` without it and one JSON object for `generateContent`
(aichat's two modes). It writes to the socket itself, so both clients pay
the same HTTP/1.1 costs.

The server runs in a process of its own, so the measuring side never
waits for its interpreter lock.

Phase 1, one-shot: gem-ask and aichat run alternately (drift in machine
speed hits both alike), no pause between the chunks; wall time is measured
around the process (perf_counter); peak memory is GNU time's %M for a
second run (a direct child of this Python would report Python's own
high-water mark: Linux keeps it through fork and exec). Medians, and the
median of the per-pair wall ratios.

Phase 2, per-chunk latency: the server pauses GAP seconds (default 0.05)
between the chunks so each travels alone; for each chunk, the time from the
server's write returning to gem-ask's `message` line arriving on our end of
its stdout pipe (CLOCK_MONOTONIC, system-wide, on both sides). The same
measured through `curl -N` (which only copies the bytes) is the floor set
by the kernel and the machine; gem-ask's own share is the difference.
"""
import json, os, shutil, socket, statistics, subprocess, sys, time

CHUNKS = [
    {"candidates": [{"content": {"parts": [{"text": "The M5 CS is "}], "role": "model"}, "index": 0}],
     "modelVersion": "gemini-3.5-flash"},
    {"candidates": [{"content": {"parts": [{"text": "the quickest."}], "role": "model"},
                     "finishReason": "STOP", "index": 0}],
     "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 6, "totalTokenCount": 16},
     "modelVersion": "gemini-3.5-flash"},
]
WHOLE = {"candidates": [{"content": {"parts": [{"text": "The M5 CS is the quickest."}], "role": "model"},
                         "finishReason": "STOP", "index": 0}],
         "usageMetadata": CHUNKS[1]["usageMetadata"]}


class Server:
    """Serves in its own process, so the measuring side never waits for
    the server's GIL: port on the first stdout line, then (with report)
    one `sent NS` line per chunk."""

    def __init__(self, gap, report):
        self.gap, self.report = gap, report
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        print(self.sock.getsockname()[1], flush=True)
        while True:
            conn, _ = self.sock.accept()
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.answer(conn)

    def answer(self, conn):
        try:
            f = conn.makefile("rb")
            request_line = f.readline()
            if not request_line:
                return
            length = 0
            while True:
                line = f.readline()
                if line in (b"\r\n", b"\n", b""):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            f.read(length)
            path = request_line.split()[1].decode()
            print("path " + path.split("key=")[0] + ("key=..." if "key=" in path else ""),
                  file=sys.stderr, flush=True)
            if ":generateContent" in path:
                body = json.dumps(WHOLE).encode()
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=UTF-8\r\n"
                             b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
                return
            sse = b"alt=sse" in request_line
            ctype = b"text/event-stream" if sse else b"application/json; charset=UTF-8"
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: %s\r\nTransfer-Encoding: chunked\r\n"
                         b"Connection: close\r\n\r\n" % ctype)
            sent = []
            for i, c in enumerate(CHUNKS):
                if i and self.gap:
                    time.sleep(self.gap)
                if sse:
                    ev = ("data: " + json.dumps(c) + "\r\n\r\n").encode()
                else:  # without alt=sse the API streams one JSON array
                    ev = (("[" if i == 0 else "\r\n,") + json.dumps(c)
                          + ("]" if i == len(CHUNKS) - 1 else "")).encode()
                conn.sendall(b"%x\r\n%s\r\n" % (len(ev), ev))
                sent.append(time.monotonic_ns())
            conn.sendall(b"0\r\n\r\n")
            if self.report:
                print("".join("sent %d\n" % t for t in sent), end="", flush=True)
        except OSError:
            pass
        finally:
            conn.close()


def start_server(gap, report):
    p = subprocess.Popen([sys.executable, __file__, "--serve", str(gap), str(int(report))],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p, "http://127.0.0.1:%d" % int(p.stdout.readline())


def run(cmd, env):
    start = time.perf_counter()
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, env=env)
    wall = (time.perf_counter() - start) * 1000.0
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr.decode(errors='replace')}")
    return wall, p


def one_shot(cmd, env):
    """Wall ms of a direct run; peak RSS MiB of a second run under GNU time
    (a child of ours would inherit this Python's high-water mark through
    fork and exec; one of time's starts from time's small one); stdout."""
    wall, p = run(cmd, env)
    _, t = run(["/usr/bin/time", "-f", "%M"] + cmd, env)
    return wall, int(t.stderr.split()[-1]) / 1024.0, p.stdout


def main():
    gem_ask, aichat, aichat_cfg = sys.argv[1:4]
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 21
    gap = float(os.environ.get("GAP", "0.05"))
    srv, base = start_server(0, False)
    # aichat is asked for a model its own list names; the fake server
    # answers any model the same.
    with open(os.path.join(aichat_cfg, "config.yaml"), "w") as f:
        f.write("model: gemini:gemini-2.5-flash\nstream: true\nsave: false\nhighlight: false\n"
                "clients:\n- type: gemini\n  api_base: %s/v1beta\n  api_key: bench-key\n" % base)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GEMINI_", "GOOGLE_", "AICHAT_"))}
    env.update(GEMINI_API_KEY="bench-key", GEMINI_BASE_URL=base, AICHAT_CONFIG_DIR=aichat_cfg,
               NO_COLOR="1")
    ours = [gem_ask, "--no-history", "--output", "jsonl", "Fastest 3 BMW models?"]
    peer = [aichat, "Fastest 3 BMW models?"]

    # Warm-up: page cache, and a check that both print the answer.
    _, _, out = one_shot(ours, env)
    assert b"the quickest." in out, out
    _, _, out = one_shot(peer, env)
    assert b"The M5 CS is the quickest." in out, out

    g_wall, g_rss, a_wall, a_rss, ratio = [], [], [], [], []
    for _ in range(runs):
        gw, gr, _ = one_shot(ours, env)
        aw, ar, _ = one_shot(peer, env)
        g_wall.append(gw); g_rss.append(gr); a_wall.append(aw); a_rss.append(ar)
        ratio.append(gw / aw)
    med = statistics.median
    srv.kill()
    paths = sorted(set(l[5:].strip() for l in srv.stderr if l.startswith("path ")))
    print(f"fake server {base}, two-chunk answer; runs={runs} (alternating)")
    print(f"  requests seen: {', '.join(paths)}")
    print(f"one-shot wall ms   gem-ask median {med(g_wall):6.2f} (min {min(g_wall):.2f})"
          f"   aichat median {med(a_wall):6.2f} (min {min(a_wall):.2f})"
          f"   ratio gem-ask/aichat {med(ratio):.2f}")
    print(f"peak RSS MiB       gem-ask median {med(g_rss):6.2f} (max {max(g_rss):.2f})"
          f"   aichat median {med(a_rss):6.2f} (max {max(a_rss):.2f})"
          f"   ratio gem-ask/aichat {med(g_rss) / med(a_rss):.2f}")

    srv, base = start_server(gap, True)
    env["GEMINI_BASE_URL"] = base

    def latencies(cmd, is_chunk):
        lat, by_index = [], [[] for _ in CHUNKS]
        for _ in range(runs):
            p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, env=env, bufsize=0)
            got, buf = [], b""
            while True:
                data = os.read(p.stdout.fileno(), 65536)
                if not data:
                    break
                now = time.monotonic_ns()
                buf += data
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    if is_chunk(line):
                        got.append(now)
            p.wait()
            sent = [int(srv.stdout.readline().split()[1]) for _ in CHUNKS]
            if len(got) != len(CHUNKS):
                sys.exit(f"{cmd[0]}: expected {len(CHUNKS)} chunks, got {len(got)}")
            for i, (g, s) in enumerate(zip(got, sent)):
                lat.append((g - s) / 1e6)
                by_index[i].append((g - s) / 1e6)
        lat.sort()
        return (f"median {med(lat):.3f} ms   p95 {lat[int(len(lat) * 0.95)]:.3f} ms   max {lat[-1]:.3f} ms"
                f"   (chunk 1 median {med(by_index[0]):.3f}, chunk 2 median {med(by_index[1]):.3f})")

    def is_delta(line):
        e = json.loads(line)
        return e.get("type") == "message" and e.get("role") == "assistant"

    print(f"latency per chunk, server write -> line read from the client's stdout; "
          f"{runs * len(CHUNKS)} chunks, {gap * 1000:.0f} ms apart:")
    print(f"  gem-ask event      {latencies(ours, is_delta)}")
    # The floor: the same path through curl, which only copies bytes. What
    # gem-ask adds is the difference (the rest is the kernel waking threads).
    curl = ["curl", "-sN", "-X", "POST", "-H", "content-type: application/json", "-d", "{}",
            base + "/v1beta/models/gemini-3.5-flash:streamGenerateContent?alt=sse"]
    if shutil.which("curl"):
        print(f"  curl data: line    {latencies(curl, lambda l: l.startswith(b'data: '))}")
    srv.kill()

if sys.argv[1:2] == ["--serve"]:
    Server(float(sys.argv[2]), sys.argv[3] == "1")
else:
    main()
