#!/usr/bin/env python3
"""proctime.py N CMD... : run CMD N times after 5 warm-ups, print the
median and minimum wall time in ms. The fallback of bench/run.sh when
hyperfine is not installed; the spawn overhead of Python is in every
figure alike, so compare commands timed the same way."""
import statistics, subprocess, sys, time

n, cmd = int(sys.argv[1]), sys.argv[2:]
for _ in range(5):
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
ts = []
for _ in range(n):
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    ts.append((time.perf_counter() - t0) * 1000)
print("%.2f %.2f" % (statistics.median(ts), min(ts)))
