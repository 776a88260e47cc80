#!/usr/bin/env python3
"""Runs pairs of shell commands alternately and prints medians and ratios.

usage: compare.py CASES.json [--runs N] [--json OUT]

CASES.json is a list of {"name", "ours", "peer", "peer_name"}, optionally
with "runs" (its own number of runs; --runs N caps it) and targets
checked on the medians: "target_ms" and "target_mib" (ours at most that),
"target_ratio" (ours/peer wall time below that). Each command
is run through `sh -c` with stdout to /dev/null. Wall time comes from
perf_counter around the run. Peak memory is the largest single process of
the pipeline, as the kernel accounts it (ru_maxrss), taken in a second run
under GNU time (`/usr/bin/time -f %M`): a process forked from this Python
interpreter starts with the interpreter's resident set, which ru_maxrss
keeps across exec, so measuring from here would report Python (~15 MiB),
not the command. Without GNU time the figure includes that floor and a
note says so. Ours and the peer
alternate run by run so drift in machine speed hits both alike; the ratio is
ours/peer per pair, then the median of those. --json OUT also writes each
case's medians there (name, ours_ms, peer_ms, ratio, ours_mib), for a
script that derives more figures (a slope) from them.
"""
import json, os, statistics, subprocess, sys, tempfile, time

GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def spawn(argv, cmd):
    start = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    err = p.stderr.read().decode(errors="replace")
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"command failed ({code}): {cmd}\n{err}")
    return wall * 1000.0, usage.ru_maxrss / 1024.0


def run(cmd):
    """(wall ms, peak MiB of the largest process) of one command."""
    wall, rss = spawn(["sh", "-c", cmd], cmd)
    if GNU_TIME:
        with tempfile.NamedTemporaryFile("r") as f:
            spawn([GNU_TIME, "-f", "%M", "-o", f.name, "sh", "-c", cmd], cmd)
            rss = int(f.read().split()[-1]) / 1024.0
    return wall, rss


def main():
    cases = json.load(open(sys.argv[1]))
    given = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else None
    runs = given or 7
    verdicts = []
    results = []
    print(f"{'case':<34} {'ours ms':>9} {'peer ms':>9} {'time ratio':>10} {'ours MiB':>9} {'peer MiB':>9} {'mem ratio':>9}  peer")
    for c in cases:
        run(c["ours"]); run(c["peer"])  # warm-up: page cache, lazy binding
        ours, peer, tr, mr = [], [], [], []
        n = c.get("runs", runs) if given is None else min(given, c.get("runs", given))
        for _ in range(n):
            a = run(c["ours"]); b = run(c["peer"])
            ours.append(a); peer.append(b)
            tr.append(a[0] / b[0]); mr.append(a[1] / b[1])
        med = lambda xs, i: statistics.median(x[i] for x in xs)
        print(f"{c['name']:<34} {med(ours,0):>9.1f} {med(peer,0):>9.1f} {statistics.median(tr):>10.2f} "
              f"{med(ours,1):>9.1f} {med(peer,1):>9.1f} {statistics.median(mr):>9.2f}  {c['peer_name']}"
              + (f" ({n} runs)" if n != runs else ""))
        results.append({"name": c["name"], "ours_ms": med(ours, 0), "peer_ms": med(peer, 0),
                        "ratio": statistics.median(tr), "ours_mib": med(ours, 1)})
        checks = []
        if "target_ms" in c:
            checks.append((f"under {c['target_ms']} ms", med(ours, 0) < c["target_ms"]))
        if "target_mib" in c:
            checks.append((f"under {c['target_mib']} MiB", med(ours, 1) < c["target_mib"]))
        if "target_ratio" in c:
            checks.append((f"time ratio under {c['target_ratio']}", statistics.median(tr) < c["target_ratio"]))
        if checks:
            verdicts.append(f"  {c['name']}: " + ", ".join(f"{what} {'met' if ok else 'NOT met'}" for what, ok in checks))
    print(f"(median of {runs} alternating runs each unless noted; ratio < 1 means gemline is faster / smaller)")
    floor = statistics.median(run("true")[0] for _ in range(21))
    print(f"(every wall time includes starting `sh -c` from this driver: {floor:.1f} ms for `sh -c true`)")
    if not GNU_TIME:
        print("(no /usr/bin/time: memory includes this driver's own ~15 MiB; read it as an upper bound)")
    if "--json" in sys.argv:
        with open(sys.argv[sys.argv.index("--json") + 1], "w") as f:
            json.dump(results, f)
    if verdicts:
        print("targets:")
        print("\n".join(verdicts))


if __name__ == "__main__":
    main()
