#!/usr/bin/env python3
"""Runs pairs of shell commands alternately and prints medians and ratios.

usage: compare.py CASES.json [--runs N]

CASES.json is a list of {"name", "ours", "peer", "peer_name"}; each command
is run through `sh -c` with stdout to /dev/null. Wall time comes from
perf_counter around the run, peak memory from os.wait4's rusage (the largest
single process of the pipeline, as the kernel accounts it). Ours and the peer
alternate run by run so drift in machine speed hits both alike; the ratio is
ours/peer per pair, then the median of those.
"""
import json, os, statistics, subprocess, sys, time


def run(cmd):
    start = time.perf_counter()
    p = subprocess.Popen(["sh", "-c", cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    err = p.stderr.read().decode(errors="replace")
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"command failed ({p.returncode}): {cmd}\n{err}")
    return wall * 1000.0, usage.ru_maxrss / 1024.0  # ms, MiB


def main():
    cases = json.load(open(sys.argv[1]))
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 7
    print(f"{'case':<34} {'ours ms':>9} {'peer ms':>9} {'time ratio':>10} {'ours MiB':>9} {'peer MiB':>9} {'mem ratio':>9}  peer")
    for c in cases:
        run(c["ours"]); run(c["peer"])  # warm-up: page cache, lazy binding
        ours, peer, tr, mr = [], [], [], []
        for _ in range(runs):
            a = run(c["ours"]); b = run(c["peer"])
            ours.append(a); peer.append(b)
            tr.append(a[0] / b[0]); mr.append(a[1] / b[1])
        med = lambda xs, i: statistics.median(x[i] for x in xs)
        print(f"{c['name']:<34} {med(ours,0):>9.1f} {med(peer,0):>9.1f} {statistics.median(tr):>10.2f} "
              f"{med(ours,1):>9.1f} {med(peer,1):>9.1f} {statistics.median(mr):>9.2f}  {c['peer_name']}")
    print(f"(median of {runs} alternating runs each; ratio < 1 means gemline is faster / smaller)")


if __name__ == "__main__":
    main()
