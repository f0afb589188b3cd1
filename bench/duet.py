#!/usr/bin/env python3
"""Duet or one after the other: which pairs two runs better on a busy
machine?

Two ext4 file systems on two loop devices over sparse images (under
--dir, /var/tmp by default: the root disk, where the scratch targets of
iotrial compare live). Each block holds two pairs of runs of the same
iotrial workload, in a random order:

  sequential  one run on fs 1, then one on fs 2 (compare's design: the
              caches dropped before each run);
  duet        both at the same time, one on each (Bulej et al.'s duet
              benchmarking: whatever the machine does to one run it does
              to the other), the caches dropped once before.

Both pairs are A/A (the same workload and settings), so the sd of the
per-block log-ratio log(run on fs 2 / run on fs 1) is the noise each
design leaves in a comparison, and the half-width of its signed-rank
interval with K blocks is what a compare of K blocks would report.
Which run goes to which file system is drawn per block.

Usage: duet.py [--blocks N (20)] [--time DUR (3s)] [--dir DIR]
               [--workload crashdump] [--iotrial PATH] [--out FILE.json]
               [-- WORKLOAD PARAMETERS...]
Needs root (loop devices, mounts, drop_caches). Cleans up on exit.
"""
import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import aa  # noqa: E402


def sh(*argv):
    return subprocess.run(argv, check=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE).stdout.decode().strip()


def drop_caches():
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def start(a, mnt):
    argv = [a.iotrial, "run", a.workload, "-t", mnt, "--time", a.time,
            "--json", "--no-store", "--quiet"] + a.params
    return subprocess.Popen(argv, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)


def finish(p):
    out, _ = p.communicate()
    if p.returncode:
        raise RuntimeError("iotrial run failed (%d)" % p.returncode)
    o = json.loads(out)
    return o["metric"]["value"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--blocks", type=int, default=20)
    p.add_argument("--time", default="3s")
    p.add_argument("--dir", default="/var/tmp")
    p.add_argument("--size", default="2G")
    p.add_argument("--workload", default="crashdump")
    p.add_argument("--iotrial", default=os.path.join(HERE, "..", "iotrial"))
    p.add_argument("--out")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("params", nargs=argparse.REMAINDER)
    a = p.parse_args()
    if a.params and a.params[0] == "--":
        a.params = a.params[1:]
    if os.geteuid() != 0:
        print("duet.py: needs root", file=sys.stderr)
        sys.exit(77)
    rng = random.Random(a.seed)
    work = tempfile.mkdtemp(prefix="iotrial-duet.", dir=a.dir)
    loops, mnts = [], []
    try:
        for i in range(2):
            img = os.path.join(work, "img%d" % i)
            sh("truncate", "-s", a.size, img)
            loops.append(sh("losetup", "--find", "--show", img))
            sh("mkfs.ext4", "-q", "-F", loops[-1])
            m = os.path.join(work, "mnt%d" % i)
            os.mkdir(m)
            sh("mount", loops[-1], m)
            mnts.append(m)
        res = {"sequential": [], "duet": []}
        for b in range(a.blocks):
            flip = rng.random() < 0.5
            order = ["sequential", "duet"]
            rng.shuffle(order)
            for design in order:
                if design == "sequential":
                    first = rng.randrange(2)
                    v = [0, 0]
                    for k in (first, 1 - first):
                        drop_caches()
                        v[k] = finish(start(a, mnts[k]))
                else:
                    drop_caches()
                    ps = [start(a, m) for m in mnts]
                    v = [finish(q) for q in ps]
                if flip:
                    v.reverse()
                res[design].append(math.log(v[1] / v[0]))
            print("block %d: sequential %+.3f duet %+.3f load %.1f" %
                  (b, res["sequential"][-1], res["duet"][-1],
                   os.getloadavg()[0]), flush=True)
        for design, d in res.items():
            e, lo, hi = aa.signrank_ci(d)
            print("%-10s sd of log-ratio %.4f, %d blocks: ratio %.3f "
                  "[%.3f, %.3f], half-width %.1f%%" %
                  (design, statistics.stdev(d), len(d), math.exp(e),
                   math.exp(lo), math.exp(hi), 100 * aa.halfwidth(lo, hi)))
        if a.out:
            with open(a.out, "w") as f:
                json.dump({"args": vars(a), "log_ratios": res}, f)
    finally:
        for m in mnts:
            subprocess.run(["umount", m])
        for lo in loops:
            subprocess.run(["losetup", "-d", lo])
        subprocess.run(["rm", "-rf", "--", work])


if __name__ == "__main__":
    main()
