#!/usr/bin/env python3
"""Peak memory of attaching a file (issue 24, Performance): gem-ask with a
10 MB attachment beside gem-ask with none, against one local fake Gemini
server; the difference is what the attachment costs, to be read against
its base64 encoding (13.3 MB), which the request body holds once.

usage: attach_memory.py GEM_ASK [RUNS] [MB]

The server reads each request whole (checking the body is as long as the
encoding makes it) and answers with a one-event SSE text. Peak memory is
GNU time's %M (the kernel's ru_maxrss of gem-ask itself). Medians of RUNS
(default 5) runs each, alternating.
"""
import json, os, socket, statistics, subprocess, sys, tempfile, threading

ANSWER = ("data: " + json.dumps({"candidates": [{"content": {"parts": [{"text": "A tone."}], "role": "model"},
                                   "finishReason": "STOP", "index": 0}],
                                  "usageMetadata": {"promptTokenCount": 9, "candidatesTokenCount": 2, "totalTokenCount": 11}})
          + "\r\n\r\n").encode()


def serve(sock, sizes):
    while True:
        conn, _ = sock.accept()
        with conn:
            f = conn.makefile("rb")
            length = 0
            while True:
                line = f.readline()
                if line in (b"\r\n", b""):
                    break
                k, _, v = line.decode().partition(":")
                if k.strip().lower() == "content-length":
                    length = int(v)
            body = f.read(length)
            sizes.append(len(body))
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n"
                         b"Connection: close\r\n\r\n" % len(ANSWER) + ANSWER)


def peak_kib(cmd, env):
    with tempfile.NamedTemporaryFile("r") as t:
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", t.name] + cmd, env=env, check=True,
                       stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        return int(t.read().split()[-1])


def main():
    gem_ask = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    mb = float(sys.argv[3]) if len(sys.argv) > 3 else 10
    size = int(mb * 1_000_000)
    work = tempfile.mkdtemp(prefix="gemline-attach-")
    path = os.path.join(work, "talk.wav")
    with open(path, "wb") as f:
        data_len = size - 44
        f.write(b"RIFF" + (36 + data_len).to_bytes(4, "little") + b"WAVEfmt "
                + bytes.fromhex("10000000010001004" "01f0000803e00000200 1000".replace(" ", ""))
                + b"data" + data_len.to_bytes(4, "little"))
        f.write(os.urandom(data_len))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    sizes = []
    threading.Thread(target=serve, args=(sock, sizes), daemon=True).start()
    env = dict(os.environ, GEMINI_API_KEY="bench-key", GEMINI_BASE_URL="http://127.0.0.1:%d" % sock.getsockname()[1],
               XDG_DATA_HOME=work, XDG_CONFIG_HOME=work)
    base = [gem_ask, "--no-history", "--output", "jsonl", "--no-tools"]
    with_file, without = [], []
    for _ in range(runs):
        with_file.append(peak_kib(base + ["-a", path, "what is this?"], env))
        without.append(peak_kib(base + ["what is this?"], env))
    encoded = (size + 2) // 3 * 4
    big = max(sizes)
    a, b = statistics.median(with_file), statistics.median(without)
    print(f"attachment: {size / 1e6:.1f} MB file, base64 {encoded / 1e6:.2f} MB; request body received: {big / 1e6:.2f} MB")
    print(f"peak RSS, median of {runs}: with it {a / 1024:.1f} MiB, without {b / 1024:.1f} MiB, "
          f"difference {(a - b) / 1024:.1f} MiB = {(a - b) * 1024 / encoded:.2f} x the base64 encoding")
    assert big >= encoded, "the body did not carry the file"


if __name__ == "__main__":
    main()
