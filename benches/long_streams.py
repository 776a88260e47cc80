#!/usr/bin/env python3
"""Helpers of benches/long_streams.sh (issue 11: long streams in flat
memory). Nothing here measures; the shell script runs the programs under
GNU time and prints the figures.

usage:
  long_streams.py serve long CHUNKS    fake Gemini server: the first POST gets
                                       one answer of CHUNKS SSE chunks (~500
                                       bytes of text each), later ones a short
                                       answer; prints its port first
  long_streams.py serve stall          answers one chunk, then goes silent
                                       (for --read-timeout)
  long_streams.py check-events CHUNKS  reads gem-ask's stdout: every chunk's
                                       message event, in order, then a result
                                       of status success; prints a summary
  long_streams.py check-session FILE CHUNKS
                                       the session's last model content is the
                                       whole answer
  long_streams.py viz-events BYTES     a mixed event stream (text, tool calls
                                       and results, charts) of about BYTES
                                       bytes on stdout, made on the fly
  long_streams.py topic-events N       N events of a gemini-cli-like stream
                                       (unique tool ids, chapters) on stdout

The chunk texts are a function of their number, so the checkers rebuild
them instead of anyone holding 50 MB.
"""
import itertools, json, socket, sys, threading, time

FILLER = ("The 0-60 time of the M5 CS is 2.9 s; \"quoted\" \\ back-slashed, "
          "accented é, wide 漢字 and an emoji 🎉. ")


def chunk_text(i):
    # ~500 bytes, with a newline so the answer has lines and paragraphs.
    return f"{i:06d} {FILLER * 4}{FILLER[: 40 + i % 60]}\n" + ("\n" if i % 10 == 9 else "")


def sse_event(i, chunks):
    c = {"candidates": [{"content": {"role": "model", "parts": [{"text": chunk_text(i)}]}, "index": 0}]}
    if i + 1 == chunks:
        c["candidates"][0]["finishReason"] = "STOP"
        c["usageMetadata"] = {"promptTokenCount": 5, "candidatesTokenCount": chunks,
                              "totalTokenCount": chunks + 5}
    return ("data: " + json.dumps(c, ensure_ascii=False) + "\r\n\r\n").encode()


# Requests answered so far (the first gets the long answer).
SERVED = itertools.count()


def read_request(conn):
    data = b""
    while b"\r\n\r\n" not in data:
        got = conn.recv(65536)
        if not got:
            return False
        data += got
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        k, _, v = line.partition(b":")
        if k.strip().lower() == b"content-length":
            length = int(v.strip())
    while len(body) < length:
        got = conn.recv(65536)
        if not got:
            return False
        body += got
    return True


def send_chunk(conn, payload):
    conn.sendall(b"%x\r\n%s\r\n" % (len(payload), payload))


def answer(conn, mode, chunks):
    try:
        if not read_request(conn):
            return
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                     b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
        if mode == "stall":
            send_chunk(conn, ("data: " + json.dumps({"candidates": [{"content": {"role": "model",
                       "parts": [{"text": "Thinking about it"}]}, "index": 0}]}) + "\r\n\r\n").encode())
            # Silent for longer than any --read-timeout under test.
            time.sleep(60)
            return
        if next(SERVED) > 0:
            chunks = 1
        batch = []
        for i in range(chunks):
            batch.append(sse_event(i, chunks))
            if len(batch) == 64 or i + 1 == chunks:
                send_chunk(conn, b"".join(batch))
                batch = []
        conn.sendall(b"0\r\n\r\n")
        conn.shutdown(socket.SHUT_WR)
        conn.settimeout(5)
        conn.recv(64)
    except OSError:
        pass
    finally:
        conn.close()


def serve(mode, chunks):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    print(s.getsockname()[1], flush=True)
    while True:
        conn, _ = s.accept()
        threading.Thread(target=answer, args=(conn, mode, chunks), daemon=True).start()


def check_events(chunks):
    n, result, other = 0, None, 0
    for line in sys.stdin.buffer:
        e = json.loads(line)
        if e.get("type") == "message" and e.get("role") == "assistant":
            want = chunk_text(n)
            if e.get("content") != want:
                sys.exit(f"check-events: message {n} is {e.get('content')[:40]!r}..., expected {want[:40]!r}...")
            n += 1
        elif e.get("type") == "result":
            result = e
        else:
            other += 1
    if n != chunks:
        sys.exit(f"check-events: {n} assistant messages, expected {chunks}")
    if not result or result.get("status") != "success":
        sys.exit(f"check-events: the result is {result}")
    print(f"{n} message events in order, {other} others, result success")


def check_session(path, chunks):
    model = None
    with open(path, "rb") as f:
        for line in f:
            r = json.loads(line)
            if r.get("record") == "content" and r["content"].get("role") == "model":
                model = r["content"]
    if model is None:
        sys.exit("check-session: no model content in the session")
    text = "".join(p.get("text", "") for p in model["parts"])
    want = "".join(chunk_text(i) for i in range(chunks))
    if text != want:
        sys.exit(f"check-session: the stored answer has {len(text)} characters, expected {len(want)}")
    print(f"session holds the whole answer ({len(text.encode()) / 2**20:.1f} MiB of text)")


def write_stream(session_id, lines):
    """Writes an init event, the lines (str, each ending in a newline) in
    batches, then a closing result event, to stdout."""
    out = sys.stdout.buffer
    out.write(b'{"type":"init","timestamp":"2026-11-24T06:00:00.000Z","session_id":"%s","model":"m"}\n'
              % session_id.encode())
    buf = []
    for line in lines:
        buf.append(line.encode())
        if len(buf) >= 4096:
            out.write(b"".join(buf))
            buf = []
    out.write(b"".join(buf))
    out.write(b'{"type":"result","timestamp":"2026-11-24T07:00:00.000Z","status":"success",'
              b'"stats":{"total_tokens":1,"input_tokens":1,"output_tokens":0,"duration_ms":1,"tool_calls":0}}\n')
    out.flush()


def timestamp(i):
    return f"2026-11-24T06:{(i // 60000) % 60:02d}:{(i // 1000) % 60:02d}.{i % 1000:03d}Z"


def viz_lines(total):
    written, i = 0, 0
    while written < total:
        i += 1
        ts = timestamp(i)
        r = i % 50
        if r < 36:
            end = "\\n\\n" if r % 6 == 5 else " "
            line = ('{"type":"message","timestamp":"%s","role":"assistant","content":"Step %d: the M5 CS '
                    'is **quicker** than the M8 by %d ms, see `table %d`.%s","delta":true}\n'
                    % (ts, i, i % 997, i % 13, end))
        elif r < 42:
            line = ('{"type":"tool_use","timestamp":"%s","tool_name":"read_file","tool_id":"call-%d",'
                    '"parameters":{"absolute_path":"/src/mod%d.rs"}}\n' % (ts, i, i % 211))
        elif r < 48:
            line = ('{"type":"tool_result","timestamp":"%s","tool_id":"call-%d","status":"success",'
                    '"output":"fn main() { println!(\\"%d\\"); }\\n"}\n' % (ts, i - 6, i))
        elif r == 48:
            pts = ",".join('{"label":"M%d","value":%d.%d}' % (k, (i + k) % 90, k) for k in range(8))
            line = ('{"type":"visualization","timestamp":"%s","chartType":"bar","title":"Run %d",'
                    '"unit":"s","series":[{"name":"0-60","points":[%s]}]}\n' % (ts, i, pts))
        else:
            pts = ",".join('{"label":"%d","value":%d}' % (2000 + k, (i * k) % 101) for k in range(12))
            line = ('{"type":"visualization","timestamp":"%s","chartType":"line","title":"Trend %d",'
                    '"series":[{"name":"models","points":[%s]}]}\n' % (ts, i, pts))
        written += len(line.encode())
        yield line


def topic_lines(n):
    chapter = 0
    for i in range(1, n - 1):
        ts = timestamp(i)
        r = i % 500
        if r == 0:
            chapter += 1
            yield ('{"type":"tool_use","timestamp":"%s","tool_name":"create_new_topic","tool_id":"topic-%d",'
                   '"parameters":{"title":"Chapter %d"}}\n' % (ts, i, chapter))
        elif r == 1:
            yield ('{"type":"tool_result","timestamp":"%s","tool_id":"topic-%d","status":"success",'
                   '"output":"Topic changed"}\n' % (ts, i - 1))
        elif r % 5 < 3:
            yield ('{"type":"message","timestamp":"%s","role":"assistant","content":"The 0-60 time is %d.%d s; '
                   'next I will chart \\"all three\\".","delta":true}\n' % (ts, 2 + i % 3, i % 10))
        elif r % 5 == 3:
            yield ('{"type":"tool_use","timestamp":"%s","tool_name":"read_file","tool_id":"call-%d",'
                   '"parameters":{"absolute_path":"/src/file%d.rs"}}\n' % (ts, i, i % 97))
        else:
            yield ('{"type":"tool_result","timestamp":"%s","tool_id":"call-%d","status":"success",'
                   '"output":"Found 3 matches"}\n' % (ts, i - 1))


def main():
    a = sys.argv[1:]
    try:
        if a[0] == "serve":
            serve(a[1], int(a[2]) if len(a) > 2 else 0)
        elif a[0] == "check-events":
            check_events(int(a[1]))
        elif a[0] == "check-session":
            check_session(a[1], int(a[2]))
        elif a[0] == "viz-events":
            write_stream("long", viz_lines(int(a[1])))
        elif a[0] == "topic-events":
            write_stream("t", topic_lines(int(a[1])))
        else:
            sys.exit(__doc__)
    except BrokenPipeError:
        sys.exit(0)


if __name__ == "__main__":
    main()
