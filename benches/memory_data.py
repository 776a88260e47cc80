"""Data for benches/memory.sh: the same memories for gem-ask and llm.

A memory is 8 to 24 words drawn by Zipf's law (a word's frequency falls
as 1/rank, as in natural language) from 30,033 words: the 33 most frequent
are the English function words of Lucene's stop set ("the", "of", ...),
the rest made up. Its vector is the sum of its words' vectors (each word's
a standard normal vector seeded by the word, weighted up with its rarity:
ln(1 + rank) / ln(1 + 30,033)), normalized, so texts that share words,
above all rare ones, point the same way, as embeddings of related texts
do. The same function embeds for both programs: gem-ask through a fake
OpenAI-compatible /embeddings server (`serve`), llm through a plugin model
(memory_llm_plugin, `bench-embed`). A query is five words of a memory.

usage:
  memory_data.py gem N [--start K]      gem-ask import lines (with vectors) on stdout
  memory_data.py texts N [--start K]    id<TAB>text lines on stdout
  memory_data.py queries N              query texts, one a line
  memory_data.py serve PORT_FILE        the fake /embeddings server (writes its port)
"""
import json
import sys

import numpy as np

DIM = 768
MODEL = "bench-embed"


STOP = ("the of and to a in is it that for on with as was at by be this are or not an "
        "but they no if will there their into such then these").split()


def vocabulary():
    cons = "bdfgklmnprstvz"
    vows = "aeiou"
    made = [a + b + c + d + e + f for a in cons for b in vows for c in cons for d in vows
            for e in cons for f in vows]
    rng = np.random.default_rng(7)
    rng.shuffle(made)
    return STOP + made[:30000]


VOCAB = vocabulary()
RANK = {w: r + 1 for r, w in enumerate(VOCAB)}
_p = 1.0 / np.arange(1, len(VOCAB) + 1)
ZIPF = _p / _p.sum()
_cache = {}


def fnv(word):
    h = 0xCBF29CE484222325
    for b in word.encode():
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def word_vector(w):
    v = _cache.get(w)
    if v is None:
        weight = np.log1p(RANK.get(w, len(VOCAB))) / np.log1p(len(VOCAB))
        v = (np.random.default_rng(fnv(w)).standard_normal(DIM) * weight).astype(np.float32)
        _cache[w] = v
    return v


def embed(text):
    words = [w for w in text.lower().split() if w]
    v = np.zeros(DIM, dtype=np.float32)
    for w in words:
        v += word_vector(w)
    n = float(np.linalg.norm(v))
    return v / n if n > 0 else v


def text_of(i):
    rng = np.random.default_rng(1_000_003 + i)
    n = int(rng.integers(8, 25))
    return " ".join(VOCAB[j] for j in rng.choice(len(VOCAB), size=n, p=ZIPF))


def gem_lines(n, start):
    out = sys.stdout
    for i in range(start, start + n):
        text = text_of(i)
        v = embed(text)
        vec = "[" + ",".join(map(repr, v.tolist())) + "]"
        out.write('{"key":"m%d","content":%s,"tags":["t%d"],"vectors":[{"model":"openai:%s","values":%s}]}\n'
                  % (i, json.dumps(text), i % 20, MODEL, vec))


def queries(n):
    for q in range(n):
        rng = np.random.default_rng(42 + q)
        words = text_of(int(rng.integers(0, 100_000))).split()
        pick = rng.choice(len(words), size=min(5, len(words)), replace=False)
        print(" ".join(words[k] for k in sorted(pick)))


def serve(port_file):
    from http.server import BaseHTTPRequestHandler, HTTPServer

    class H(BaseHTTPRequestHandler):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            data = [{"index": i, "embedding": embed(t).tolist(), "object": "embedding"}
                    for i, t in enumerate(body["input"])]
            raw = json.dumps({"object": "list", "data": data, "model": body["model"]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def log_message(self, *a):
            pass

    srv = HTTPServer(("127.0.0.1", 0), H)
    with open(port_file, "w") as f:
        f.write(str(srv.server_address[1]))
    srv.serve_forever()


if __name__ == "__main__":
    cmd = sys.argv[1]
    start = int(sys.argv[sys.argv.index("--start") + 1]) if "--start" in sys.argv else 0
    if cmd == "gem":
        gem_lines(int(sys.argv[2]), start)
    elif cmd == "texts":
        for i in range(start, start + int(sys.argv[2])):
            print(f"m{i}\t{text_of(i)}")
    elif cmd == "queries":
        queries(int(sys.argv[2]))
    elif cmd == "serve":
        serve(sys.argv[2])
    else:
        sys.exit(__doc__)
