#!/usr/bin/env python3
"""The least a client can do against benches/map_fake.py: JOBS threads,
each sending its share of the N records' requests one after another on one
kept-alive connection, nothing parsed or written. Its wall time is what the
fake and the machine allow; benches/map.sh sets gem-ask map's beside it.

    map_client.py URL N JOBS      (prints the wall time in seconds)
"""
import http.client
import json
import sys
import threading
import time
import urllib.parse

url, n, jobs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
host = urllib.parse.urlparse(url).netloc
path = "/v1beta/models/fake:streamGenerateContent?alt=sse"


def worker(k):
    conn = http.client.HTTPConnection(host)
    for i in range(k, n, jobs):
        body = json.dumps({"contents": [{"role": "user", "parts": [{"text": f"record {i + 1}"}]}]})
        conn.request("POST", path, body, {"Content-Type": "application/json"})
        conn.getresponse().read()


start = time.monotonic()
threads = [threading.Thread(target=worker, args=(k,)) for k in range(jobs)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(f"{time.monotonic() - start:.2f}")
