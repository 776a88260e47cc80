#!/usr/bin/env python3
"""Live-chart benchmark behind benches/live.sh: a stream of numbers at a
fixed rate into `viz-parse --follow | viz-render --live` on a pseudo
terminal, and into ttyplot the same way.

Each value a generator writes is its own clock: the milliseconds since it
started. The footer of every frame viz-render draws says the last value it
has seen ("last 9,876"), so the frame read from the terminal at time t
shows how far behind the input it is: t - (start + last/1000).

Phases (each prints one table row per program):
  rate   RATE lines/s for SECONDS: the rate achieved (a consumer that
         cannot keep up blocks the writer), CPU seconds, bytes written to
         the terminal, and for gemline: how old the input a frame shows is
         when drawn (lag), how old the screen gets before the next frame
         (stale), and how long after the last line its frame came.
  flat   LINES lines (ttyplot: a tenth) written as fast as the consumer
         takes them: lines/s, and lines per CPU second (what a loaded
         machine does not blur).
  idle   one line, then IDLE seconds of silence: CPU time in that time.
"""

import argparse
import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import threading
import time

ANSI = re.compile(rb"\x1b(\[[0-9;?]*[ -/]*[@-~]|\(.|[=>78])")
FRAME_END = b"\x1b[?2026l"
LAST = re.compile(rb"last +(-?[0-9][0-9,]*(?:\.[0-9]+)?)")
COLS, ROWS = 100, 40


def terminal():
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    return master, slave


class Screen(threading.Thread):
    """Reads the terminal; for gemline, notes (time, last value) per frame."""

    def __init__(self, master):
        super().__init__(daemon=True)
        self.master = master
        self.frames = []
        self.bytes = 0
        self.done = False

    def run(self):
        buf = b""
        while True:
            r, _, _ = select.select([self.master], [], [], 0.5)
            if not r:
                if self.done:
                    return
                continue
            try:
                chunk = os.read(self.master, 1 << 16)
            except OSError:
                return
            if not chunk:
                return
            now = time.monotonic()
            self.bytes += len(chunk)
            buf += chunk
            while FRAME_END in buf:
                frame, buf = buf.split(FRAME_END, 1)
                m = LAST.search(ANSI.sub(b"", frame))
                if m:
                    self.frames.append((now, float(m.group(1).replace(b",", b""))))
            buf = buf[-(1 << 20):]


def cpu_seconds(pid):
    """utime + stime of a live process, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start(kind, bins, slave):
    """The consumer's processes, the first reading our pipe."""
    env = {**os.environ, "TERM": "xterm-256color", "LC_ALL": "C.UTF-8"}
    env.pop("COLUMNS", None)
    if kind == "gemline":
        parse = subprocess.Popen(
            [bins["viz-parse"], "--follow", "--window", "200", "--unit", "ms"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=slave, env=env)
        render = subprocess.Popen(
            [bins["viz-render"], "--live"], stdin=parse.stdout, stdout=slave,
            stderr=slave, env=env)
        parse.stdout.close()
        return parse.stdin, [parse, render]
    plot = subprocess.Popen([bins["ttyplot"], "-t", "bench", "-u", "ms"],
                            stdin=subprocess.PIPE, stdout=slave, stderr=slave, env=env)
    return plot.stdin, [plot]


def reap(procs):
    """Waits for each; returns their CPU seconds (user + system) summed."""
    total = 0.0
    for p in procs:
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        total += ru.ru_utime + ru.ru_stime
    return total


def rate_phase(kind, bins, rate, seconds):
    master, slave = terminal()
    screen = Screen(master)
    screen.start()
    stdin, procs = start(kind, bins, slave)
    batch = max(1, rate // 100)  # a batch every 10 ms
    t0 = time.monotonic()
    written = 0
    behind = 0.0
    while True:
        now = time.monotonic()
        if now - t0 >= seconds:
            break
        due = t0 + written / rate
        if now < due:
            time.sleep(due - now)
            now = time.monotonic()
        behind = max(behind, now - due)
        ms = int((now - t0) * 1000)
        stdin.write((f"{ms}\n" * batch).encode())
        stdin.flush()
        written += batch
    t_last = time.monotonic()
    last_value = int((t_last - t0) * 1000)
    stdin.write(f"{last_value}\n".encode())
    stdin.flush()
    written += 1
    # Wait until the screen shows the last value (gemline), then end.
    caught = None
    if kind == "gemline":
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and caught is None:
            for t, v in reversed(screen.frames):
                if v >= last_value:
                    caught = t
                    break
            time.sleep(0.005)
    stdin.close()
    cpu = reap(procs)
    t_end = time.monotonic()
    screen.done = True
    screen.join(2)
    os.close(slave)
    os.close(master)
    steady = [(t, v) for t, v in screen.frames if t - t0 > 1.0 and t < t_last]
    lags = [t - (t0 + v / 1000) for t, v in steady]
    # How old the input on screen got, just before the next frame replaced it.
    stale = [t2 - (t0 + v1 / 1000) for (_, v1), (t2, _) in zip(steady, steady[1:])]
    return {
        "lines": written,
        "achieved": written / (t_last - t0),
        "cpu": cpu,
        "drain": t_end - t_last,
        "frames": len(screen.frames),
        "lag_p50": percentile(lags, 50),
        "lag_max": max(lags) if lags else None,
        "last_lag": (caught - t_last) if caught else None,
        "stale_max": max(stale) if stale else None,
        "bytes": screen.bytes,
    }


def flat_phase(kind, bins, lines):
    master, slave = terminal()
    screen = Screen(master)
    screen.start()
    stdin, procs = start(kind, bins, slave)
    block = "".join(f"{i % 1000}\n" for i in range(10000)).encode()
    t0 = time.monotonic()
    for _ in range(lines // 10000):
        stdin.write(block)
    stdin.close()
    cpu = reap(procs)
    wall = time.monotonic() - t0
    screen.done = True
    screen.join(2)
    os.close(slave)
    os.close(master)
    return {"lines": lines, "wall": wall, "per_s": lines / wall, "cpu": cpu,
            "per_cpu_s": lines / cpu if cpu else None}


def idle_phase(kind, bins, idle):
    master, slave = terminal()
    screen = Screen(master)
    screen.start()
    stdin, procs = start(kind, bins, slave)
    stdin.write(b"5\n6\n7\n")
    stdin.flush()
    time.sleep(1.0)
    before = [cpu_seconds(p.pid) for p in procs]
    time.sleep(idle)
    after = [cpu_seconds(p.pid) for p in procs]
    stdin.close()
    reap(procs)
    screen.done = True
    screen.join(2)
    os.close(slave)
    os.close(master)
    return {"idle_cpu": sum(a - b for a, b in zip(after, before)), "idle": idle}


def percentile(xs, p):
    if not xs:
        return None
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p / 100))]


def ms(x):
    return "-" if x is None else f"{x * 1000:.0f} ms"


def ratio(a, b):
    return "-" if not a or not b else f"{a / b:.2f}x"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--viz-parse", required=True)
    ap.add_argument("--viz-render", required=True)
    ap.add_argument("--ttyplot")
    ap.add_argument("--rate", type=int, default=100_000)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--lines", type=int, default=2_000_000)
    ap.add_argument("--idle", type=float, default=10)
    a = ap.parse_args()
    bins = {"viz-parse": a.viz_parse, "viz-render": a.viz_render, "ttyplot": a.ttyplot}
    kinds = ["gemline"] + (["ttyplot"] if a.ttyplot else [])
    res = {k: {} for k in kinds}
    for k in kinds:
        res[k]["rate"] = rate_phase(k, bins, a.rate, a.seconds)
        # ttyplot draws every value: a tenth of the lines is enough to time it.
        res[k]["flat"] = flat_phase(k, bins, a.lines if k == "gemline" else a.lines // 10)
        res[k]["idle"] = idle_phase(k, bins, a.idle)

    name = {"gemline": "viz-parse --follow | viz-render --live", "ttyplot": "ttyplot"}
    print(f"\n{a.rate:,} lines/s for {a.seconds:g} s into a {COLS}x{ROWS} pseudo terminal")
    print(f"{'program':42} {'achieved/s':>11} {'CPU s':>7} {'drain':>8} {'frames':>7} "
          f"{'lag p50':>8} {'lag max':>8} {'stale max':>9} {'last lag':>9} {'tty bytes':>10}")
    for k in kinds:
        r = res[k]["rate"]
        print(f"{name[k]:42} {r['achieved']:>11,.0f} {r['cpu']:>7.2f} {ms(r['drain']):>8} "
              f"{r['frames'] if k == 'gemline' else '-':>7} {ms(r['lag_p50']):>8} "
              f"{ms(r['lag_max']):>8} {ms(r['stale_max']):>9} {ms(r['last_lag']):>9} {r['bytes']:>10,}")
    print("\nlines as fast as they are taken (ttyplot: a tenth as many)")
    print(f"{'program':42} {'lines':>10} {'wall s':>8} {'lines/s':>12} {'CPU s':>7} {'lines/CPU s':>12}")
    for k in kinds:
        r = res[k]["flat"]
        print(f"{name[k]:42} {r['lines']:>10,} {r['wall']:>8.2f} {r['per_s']:>12,.0f} "
              f"{r['cpu']:>7.2f} {r['per_cpu_s'] or 0:>12,.0f}")
    print(f"\nidle: CPU time over {a.idle:g} s of silence after three lines")
    for k in kinds:
        print(f"{name[k]:42} {res[k]['idle']['idle_cpu'] * 1000:>8.0f} ms")
    g = res["gemline"]
    r = g["rate"]
    ok = r["last_lag"] is not None and r["last_lag"] <= 0.25
    print(f"\ngemline: the last frame came {ms(r['last_lag'])} after the last line "
          f"(one --interval is 250 ms): {'within' if ok else 'NOT within'} one interval; "
          f"a frame showed input at most {ms(r['lag_max'])} old when drawn, and the screen "
          f"at most {ms(r['stale_max'])} old before the next")
    if "ttyplot" in res:
        t = res["ttyplot"]
        print("ratios gemline / ttyplot:")
        print(f"  CPU at {a.rate:,} lines/s    {ratio(r['cpu'], t['rate']['cpu'])} (below 1: gemline is ahead)")
        print(f"  terminal bytes written        {ratio(r['bytes'], t['rate']['bytes'])} (below 1: gemline is ahead)")
        print(f"  flat-out lines/s              {ratio(g['flat']['per_s'], t['flat']['per_s'])} (above 1: gemline is ahead)")
        print(f"  flat-out lines per CPU second {ratio(g['flat']['per_cpu_s'], t['flat']['per_cpu_s'])} (above 1: gemline is ahead)")
        print(f"  rate achieved                 {ratio(r['achieved'], t['rate']['achieved'])} (above 1: gemline kept up better)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
