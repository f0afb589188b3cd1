#!/usr/bin/env bash
# What observation costs: the device sampler must stay under 0.5% of one
# core (docs/ARCHITECTURE.md, "Goals the code is held to"). Two
# measurements, both printed:
#
#  1. `iotrial watch` at the run sampler's rate (250 ms) over every disk
#     with activity, for DURATION: its whole-process CPU time (user + sys,
#     from getrusage of the child) over the wall time. This includes
#     formatting and printing, so it is an upper bound on sampling alone.
#  2. `iotrial run` of a rate-limited-by-nature workload (randread, one
#     job, psync) for DURATION: the sampler thread's own CPU time as the
#     run reports it (truth.sampler.cpu_s, CLOCK_THREAD_CPUTIME_ID), over
#     the run's seconds.
#
# usage: bench/sampler-overhead.sh [DURATION_S] [TARGET_DIR]
# Uses ./iotrial (make) if present, else build/san/iotrial (slower: the
# sanitizers inflate CPU time, so its numbers overstate the cost).
set -u
cd "$(dirname "$0")/.." || exit 1
secs=${1:-20}
target=${2:-/var/tmp}
bin=${IOTRIAL_BIN:-./iotrial}
[ -x "$bin" ] || bin=build/san/iotrial
[ -x "$bin" ] || { echo "build iotrial first (make)" >&2; exit 1; }
echo "binary: $bin; duration: ${secs}s; budget: 0.5% of a core"

python3 - "$bin" "$secs" "$target" <<'PY'
import json, os, resource, subprocess, sys, time
bin, secs, target = sys.argv[1], int(sys.argv[2]), sys.argv[3]
budget = 0.5

# 1. watch at 250 ms
count = secs * 4
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.monotonic()
p = subprocess.run([bin, "watch", "--interval", "250ms", "--count", str(count),
                    "--json"], stdout=subprocess.PIPE, check=True)
wall = time.monotonic() - t0
r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
lines = p.stdout.count(b"\n")
devs = max(1, lines // count)
pct = 100 * cpu / wall
print("watch:   %d samples of %d device(s) in %.1f s wall, %.4f s CPU = "
      "%.3f%% of a core (%.1f us per sample) -> %s" %
      (count, devs, wall, cpu, pct, 1e6 * cpu / count,
       "within budget" if pct < budget else "OVER BUDGET"))

# 2. the sampler thread inside a run
out = subprocess.run([bin, "run", "randread", "--no-store", "-t", target, "--size", "64M",
                      "--time", "%ds" % secs, "--json"],
                     stdout=subprocess.PIPE, check=True).stdout
o = json.loads(out)
s = o["truth"]["sampler"]
pct = 100 * s["cpu_s"] / o["seconds"]
print("run:     sampler thread %d samples every %g ms over %.1f s: %.6f s "
      "CPU = %.4f%% of a core -> %s" %
      (s["samples"], s["interval_ms"], o["seconds"], s["cpu_s"], pct,
       "within budget" if pct < budget else "OVER BUDGET"))
PY
