#!/usr/bin/env python3
"""Two tools on the same tests, the way `iotrial compare` runs arms.

Runs every test of a plan (a JSON file, see below) under tool A and tool
B in randomized blocks: each block holds every test once, the tests in a
fresh random order and, within a test, the two tools in a random order.
After each block every row's ratio B/A is estimated from the per-block
ratios with bench/ratio-ci (the Hodges-Lehmann estimate and the
signed-rank interval of src/core/stats/, the code compare uses). It
stops when every row is settled (its interval lies on one side of the
goal, or is narrower than --margin), or at --max-blocks, or when the
--budget ends, and prints per row: the ratio, its interval, the goal and
"goal met", "missed" or "cannot tell" from the interval, never from a
median. Beside it the machine's noise during the runs: steal time, other
I/O on the devices the test names, the CPU clock.

Each run's steal time (the hypervisor's share of the CPUs' time while it
ran) goes to ratio-ci with its ratio, unknown (nan) for a run given less
than 1 s of the machine's CPU time, as compare leaves it out (a tick or
two decide it, and whether they land follows the tool's own CPU use;
src/core/result/steal.h); each row is also adjusted for
the steal difference within the block as compare adjusts for its
covariates (src/core/stats/adjust.h): the goal is judged from the
adjusted interval when compare's rules would use it (enough blocks,
the steal explaining enough of the ratios), and the plain one is
printed beside it. A duet's two runs share their steal, so it adjusts
nothing there.

The plan:
  {"title": "...", "tools": ["fio", "iotrial"],
   "tests": [{"name": "qd32", "devices": ["loop5"],
              "cmd": {"fio": [...argv...], "iotrial": [...]},
              "before": {"fio": [...argv...]},      (optional, untimed)
              "metrics": [{"row": "qd32 IOPS", "get": "iops",
                           "goal": [">=", 1.05]}]}]}
A goal is [">=", G], ["<=", G] or ["in", LOW, HIGH].
Extractors ("get"): iops, cpu_per_mio (user+sys of the whole process per
million I/Os), cpu_s, p50_us, mbps, wall_s, job_iops:SECTION (an fio job
file's section: fio's numjobs clones summed; iotrial's job entry),
dbench_mbps (dbench's accounting: ReadX and WriteX bytes over the
measured time, 10^6 bytes/s) and cpu_per_op (user+sys per file
operation counted in the measured part, in microseconds).
A test's optional "format": {"TOOL": "dbench"} says that tool prints
dbench's text, not JSON (read by dbench_doc()).

Places and duets: a plan may list "places": [{"DEV": "/dev/loop5",
"LDEV": "loop5"}, {...}]; "{KEY}" in a test's commands, "before" and
"devices" is replaced by the value of its place. Without --duet every
run is on the first place. With --duet a test marked "duet": true runs
its two tools at the same time, each on a place of its own (which tool
gets which place is drawn per block): whatever the machine does during
the run it does to both, so the per-block ratio keeps less of it. Each
tool's CPU is its own process's (wait4); the other I/O is counted per
place.

Usage: interleave.py PLAN --out DIR [--min-blocks N (6)] [--max-blocks N
       (30)] [--budget SECONDS (900)] [--margin M (0.04)] [--seed S]
       [--duet]
       interleave.py PLAN --out DIR --reanalyze
--reanalyze runs nothing: it reads a finished campaign's DIR (the plan,
observations.txt and noise.txt a bench keeps with --keep) and prints its
table again with this method. A campaign kept before noise.txt had each
run's CPU time is shown plain only: its steal cannot be told measured.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def measure(argv, out_path):
    """Run argv, stdout to out_path; return (user+sys s, wall s, rc)."""
    return measure_many([(argv, out_path)])[0]


def measure_many(runs):
    """Run every (argv, out_path) at once, each its stdout to out_path;
    return [(user+sys s, wall s, rc)] in the same order (wait4 of each
    child: each tool's own CPU)."""
    start = time.monotonic()
    pids, files = {}, []
    try:
        for k, (argv, out_path) in enumerate(runs):
            out = open(out_path, "wb")
            err = open(out_path + ".err", "wb")
            nul = open(os.devnull, "rb")
            files += [out, err, nul]
            pid = os.fork()
            if pid == 0:
                os.dup2(nul.fileno(), 0)
                os.dup2(out.fileno(), 1)
                os.dup2(err.fileno(), 2)
                try:
                    os.execvp(argv[0], argv)
                finally:
                    os._exit(127)
            pids[pid] = k
        res = [None] * len(runs)
        while pids:
            pid, status, ru = os.wait4(-1, 0)
            if pid not in pids:
                continue
            res[pids.pop(pid)] = (ru.ru_utime + ru.ru_stime,
                                  time.monotonic() - start,
                                  os.waitstatus_to_exitcode(status))
        return res
    finally:
        for f in files:
            f.close()


def subst(x, place):
    """x (a string or list of them) with {KEY} replaced from place."""
    if isinstance(x, list):
        return [subst(y, place) for y in x]
    if isinstance(x, str):
        for k, v in place.items():
            x = x.replace("{%s}" % k, v)
    return x


# /proc/stat's clock ticks a second (USER_HZ) and the machine CPU time a
# run needs for its steal to count, as compare's RUN_STEAL_MIN_S
USER_HZ = 100
STEAL_MIN_S = 1.0


def steal_jiffies():
    with open("/proc/stat") as f:
        fields = f.readline().split()
    # cpu user nice system idle iowait irq softirq steal ...
    total = sum(int(x) for x in fields[1:9])
    return int(fields[8]), total


def disk_sectors(devs):
    want, n = set(devs), 0
    with open("/proc/diskstats") as f:
        for line in f:
            p = line.split()
            if p[2] in want:
                n += int(p[5]) + int(p[9])
    return n


def cpu_mhz():
    vals = []
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("cpu MHz"):
                    vals.append(float(line.split(":")[1]))
    except OSError:
        pass
    return sum(vals) / len(vals) if vals else float("nan")


def load_json(path):
    with open(path, errors="replace") as f:
        text = f.read()
    start = text.find("{")
    if start < 0:
        raise ValueError("no JSON object in %s" % path)
    return json.loads(text[start:])


def dbench_doc(path):
    """dbench's text as the fields the extractors read."""
    with open(path, errors="replace") as f:
        text = f.read()
    m = re.search(r"^Throughput ([0-9.e+]+) MB/sec", text, re.M)
    parts = text.split("-" * 40)
    if not m or len(parts) < 2:
        raise ValueError("no dbench result in %s" % path)
    # the table after the rule: " NTCreateX   1234   0.123   12.345"
    ops = sum(int(c) for c in
              re.findall(r"^ +[A-Za-z]\w* +(\d+) ", parts[-1], re.M))
    secs = re.search(r"^Running for (\d+) seconds", text, re.M)
    mbps = float(m.group(1))
    return {"tool": "dbench", "dbench_mbps": mbps, "file_ops_total": ops,
            # an estimate for the other-I/O count: what dbench accounted
            "dbench_bytes": mbps * 1e6 * (int(secs.group(1)) if secs
                                          else 0)}


def load_doc(path, fmt):
    return dbench_doc(path) if fmt == "dbench" else load_json(path)


def fio_total(doc, key):
    return sum(j[d][key] for j in doc["jobs"] for d in ("read", "write"))


def fio_ios(doc):
    return fio_total(doc, "total_ios")


def fio_bytes(doc):
    return fio_total(doc, "io_bytes")


def get(name, tool, doc, cpu, wall):
    """One metric of one run; fio's JSON or iotrial's run object."""
    fio = "fio_version" in doc or ("jobs" in doc and "schema" not in doc)
    if name == "cpu_s":
        return cpu
    if name == "dbench_mbps":
        return doc["dbench_mbps"]
    if name == "cpu_per_op":
        return cpu / doc["file_ops_total"] * 1e6
    if name == "wall_s":
        return wall
    if name == "iops":
        return fio_total(doc, "iops") if fio else doc["iops"]
    if name == "cpu_per_mio":
        ios = fio_ios(doc) if fio else doc["ops"]
        return cpu / ios * 1e6
    if name == "mbps":
        return fio_total(doc, "bw_bytes") / 1e6 if fio else doc["mbps"]
    if name == "p50_us":
        if fio:
            j = doc["jobs"][0]
            d = "read" if j["read"]["total_ios"] else "write"
            return j[d]["clat_ns"]["percentile"]["50.000000"] / 1e3
        lat = doc["latency_ns"]
        d = "read" if lat.get("read", {}).get("count") else "write"
        return lat[d]["p50"] / 1e3
    if name.startswith("job_iops:"):
        section = name.split(":", 1)[1]
        if fio:
            return sum(j["read"]["iops"] + j["write"]["iops"]
                       for j in doc["jobs"] if j["jobname"] == section)
        for j in doc["jobs"]:
            if j.get("name") == section or j.get("section") == section:
                return j["run"]["iops"]
        raise KeyError("no job %s in iotrial's output" % section)
    raise KeyError("unknown extractor %s" % name)


def tool_bytes(doc):
    if doc.get("tool") == "dbench":
        return doc["dbench_bytes"]
    if "fio_version" in doc or ("jobs" in doc and "schema" not in doc):
        return fio_bytes(doc)
    # a job file's run lists its jobs, each with its "run"; a single run's
    # "jobs" are its threads, counted in the run's own totals already
    jobs = doc.get("jobs") or []
    runs = [j["run"] for j in jobs] if jobs and "run" in jobs[0] else [doc]
    return sum(r.get("bytes_read", 0) + r.get("bytes_written", 0)
               for r in runs)


def ratio_ci(obs, adjusted=None):
    """obs: [(row, block, a, b, za, zb)] -> {row: (n, ratio, lo, hi, p,
    cov)}, the comparison a row's goal is judged from: the adjusted one
    when ratio-ci used it. adjusted, a dict, gets {row: (plain tuple,
    r2)} for the rows whose adjustment was used."""
    text = "".join("%s %d %.9g %.9g %.9g %.9g\n" % (r.replace(" ", "_"), b, x,
                                                   y, za, zb)
                   for r, b, x, y, za, zb in obs)
    out = subprocess.run([os.path.join(HERE, "ratio-ci")], input=text,
                         capture_output=True, text=True, check=True).stdout
    res = {}
    for line in out.splitlines():
        p = line.split()
        if p[2] == "-":
            res[p[0]] = (int(p[1]), None, None, None, None, None)
            continue
        res[p[0]] = (int(p[1]),) + tuple(float(x) for x in p[2:7])
        # "... adjusted RATIO LOW HIGH P COVERAGE used R2"
        if len(p) >= 16 and p[8] == "adjusted" and p[14] == "used":
            if adjusted is not None:
                adjusted[p[0]] = (res[p[0]], float(p[15]))
            res[p[0]] = (int(p[1]),) + tuple(float(x) for x in p[9:14])
    return res


# How far below its level an interval's coverage may fall and still be
# read as that level: compare's report notes an interval only below
# 94.5%. The normal approximation past 25 blocks (or with ties) lands
# its coverage a little either side of 95% (94.9% at 30 blocks).
COVERAGE_SLACK = 0.005


def judge(ci, goal, cov=1.0, conf=0.95):
    """From the interval only; an interval well below its level tells
    nothing."""
    op, g = goal[0], goal[1]
    lo, hi = ci
    if cov < conf - COVERAGE_SLACK:
        return "cannot tell"
    if op == "in":
        return "goal met" if g <= lo and hi <= goal[2] else \
            "missed" if hi < g or lo > goal[2] else "cannot tell"
    if op == ">=":
        return "goal met" if lo >= g else "missed" if hi < g else \
            "cannot tell"
    return "goal met" if hi <= g else "missed" if lo > g else "cannot tell"


def settled(est, goal, margin):
    n, r, lo, hi, p, cov = est
    if r is None:
        return False
    return judge((lo, hi), goal, cov) != "cannot tell" or \
        (cov >= 0.95 - COVERAGE_SLACK and hi / lo - 1 < margin)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("plan")
    ap.add_argument("--out", required=True)
    ap.add_argument("--min-blocks", type=int, default=6)
    ap.add_argument("--max-blocks", type=int, default=30)
    ap.add_argument("--budget", type=float, default=900)
    ap.add_argument("--margin", type=float, default=0.04)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--duet", action="store_true",
                    help="run the two tools of a test marked duet at once, "
                    "each on a place of the plan's own")
    ap.add_argument("--reanalyze", action="store_true",
                    help="print a kept campaign's table again, running "
                    "nothing")
    a = ap.parse_args()
    if a.min_blocks < 2 or a.max_blocks < a.min_blocks:
        sys.exit("interleave: want 2 <= --min-blocks <= --max-blocks")
    plan = json.load(open(a.plan))
    ta, tb = plan["tools"]
    tests = plan["tests"]
    if a.reanalyze:
        obs, noise = load_campaign(a.out)
        blocks = max(o[1] for o in obs)
        report(tests, obs, noise, blocks, "a kept campaign, read again",
               None)
        return
    places = plan.get("places") or [{}]
    if a.duet and len(places) < 2:
        sys.exit("interleave: --duet needs a plan with two places")
    seed = a.seed if a.seed is not None else random.SystemRandom().randrange(
        1 << 31)
    rng = random.Random(seed)
    os.makedirs(a.out, exist_ok=True)
    print("%s\nseed %d; blocks of %d tests x 2 tools in random order%s; "
          "ratio = %s / %s" % (plan.get("title", ""), seed, len(tests),
                               " (duet: at once where the plan allows)"
                               if a.duet else "", tb, ta), file=sys.stderr)
    obs, noise, start, block = [], [], time.monotonic(), 0
    vals = {}
    steals = {}
    est = {}
    reason = "max blocks"
    while block < a.max_blocks:
        block += 1
        order = list(tests)
        rng.shuffle(order)
        for t in order:
            tools = [ta, tb]
            rng.shuffle(tools)
            # a duet: both tools at once, each on a place of its own, the
            # places drawn per block; else one after the other on the
            # first place
            duet = a.duet and t.get("duet") and len(places) >= 2
            at = {tools[0]: places[0], tools[1]: places[1 if duet else 0]}
            batches = [tools] if duet else [[tool] for tool in tools]
            for batch in batches:
                runs = []
                for tool in batch:
                    pre = t.get("before", {}).get(tool)
                    if pre:
                        subprocess.run(subst(pre, at[tool]), check=True)
                    out = os.path.join(a.out, "%s.%s.%d.json" %
                                       (t["name"], tool, block))
                    runs.append((tool, subst(t["cmd"][tool], at[tool]), out,
                                 subst(t.get("devices", []), at[tool])))
                s0, tot0 = steal_jiffies()
                d0 = [disk_sectors(r[3]) for r in runs]
                mhz = cpu_mhz()
                res = measure_many([(r[1], r[2]) for r in runs])
                s1, tot1 = steal_jiffies()
                d1 = [disk_sectors(r[3]) for r in runs]
                for k, (tool, argv, out, devs) in enumerate(runs):
                    cpu, wall, rc = res[k]
                    if rc:
                        sys.stderr.write(open(out + ".err").read())
                        sys.exit("interleave: %s failed on %s (exit %d): "
                                 "%s" % (tool, t["name"], rc,
                                         " ".join(argv)))
                    doc = load_doc(out, t.get("format", {}).get(tool))
                    other = max(0.0, (d1[k] - d0[k]) * 512 -
                                tool_bytes(doc)) if devs else 0.0
                    steal = 100.0 * (s1 - s0) / max(1, tot1 - tot0)
                    cpu_s = (tot1 - tot0) / USER_HZ
                    noise.append((t["name"], tool, steal, other, mhz, cpu_s))
                    steals[(t["name"], block, tool)] = \
                        steal if cpu_s >= STEAL_MIN_S else float("nan")
                    for m in t["metrics"]:
                        v = get(m["get"], tool, doc, cpu, wall)
                        vals.setdefault((m["row"], block), {})[tool] = v
        for t in tests:
            for m in t["metrics"]:
                v = vals[(m["row"], block)]
                obs.append((m["row"], block, v[ta], v[tb],
                            steals[(t["name"], block, ta)],
                            steals[(t["name"], block, tb)]))
        elapsed = time.monotonic() - start
        print("block %d done (%.0f s)" % (block, elapsed), file=sys.stderr)
        if block < a.min_blocks:
            continue
        est = ratio_ci(obs)
        rows = [(m["row"], m["goal"]) for t in tests for m in t["metrics"]]
        if all(settled(est[r.replace(" ", "_")], g, a.margin)
               for r, g in rows):
            reason = "every row settled"
            break
        per_block = elapsed / block
        if elapsed + per_block > a.budget:
            reason = "budget"
            break
    report(tests, obs, noise, block, reason, seed)
    with open(os.path.join(a.out, "observations.txt"), "w") as f:
        for o in obs:
            f.write("%s\t%d\t%.9g\t%.9g\t%.3f\t%.3f\n" % o)
    with open(os.path.join(a.out, "noise.txt"), "w") as f:
        for x in noise:
            f.write("%s\t%s\t%.3f\t%.0f\t%.0f\t%.2f\n" % x)


def load_campaign(out):
    """A kept campaign's observations and noise. Its steal columns are
    those it wrote; a campaign older than them has none (nan), and its
    rows are compared plain."""
    noise = []
    with open(os.path.join(out, "noise.txt")) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            noise.append((p[0], p[1]) + tuple(float(x) for x in p[2:5]) +
                         (float(p[5]) if len(p) > 5 else float("nan"),))
    obs = []
    nan = float("nan")
    with open(os.path.join(out, "observations.txt")) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            za, zb = (float(p[4]), float(p[5])) if len(p) >= 6 else (nan,
                                                                       nan)
            obs.append((p[0], int(p[1]), float(p[2]), float(p[3]), za, zb))
    return obs, noise


def report(tests, obs, noise, block, reason, seed):
    adjusted = {}
    est = ratio_ci(obs, adjusted)
    print()
    print("%d blocks (stopped: %s)%s; 95%% intervals from the "
          "signed-rank test on per-block ratios" % (
              block, reason, "" if seed is None else ", seed %d" % seed))
    print("%-32s %7s %-19s %-12s %-12s %s" % ("row", "ratio", "95% CI",
                                               "goal", "", "p"))
    for t in tests:
        for m in t["metrics"]:
            n, r, lo, hi, p, cov = est[m["row"].replace(" ", "_")]
            goal = m["goal"]
            if r is None:
                print("%-32s %7s" % (m["row"], "-"))
                continue
            gs = "%.2f..%.2f" % (goal[1], goal[2]) if goal[0] == "in" else \
                "%s %.2f" % (goal[0], goal[1])
            print("%-32s %7.3f [%6.3f, %6.3f]  %-12s %-12s %.3g%s" % (
                m["row"], r, lo, hi, gs, judge((lo, hi), goal, cov), p,
                "" if cov >= 0.95 - 1e-9 else
                " (interval covers %.1f%%)" % (100 * cov)))
            adj = adjusted.get(m["row"].replace(" ", "_"))
            if adj:
                (_, pr, plo, phi, pp, _), r2 = adj
                print("%-32s %7s adjusted for steal (R^2 %.2f); plain "
                      "%.3f [%.3f, %.3f] p %.3g" % ("", "", r2, pr, plo,
                                                     phi, pp))
    print()
    print("noise during the runs (median [max] over %d runs):" % len(noise))
    st = sorted(x[2] for x in noise)
    ot = sorted(x[3] for x in noise)
    mz = sorted(x[4] for x in noise if x[4] == x[4])
    print("  steal time   %.1f%% [%.1f%%] of the CPUs' time" % (
        st[len(st) // 2], st[-1]))
    print("  other I/O    %.1f MB [%.1f MB] on the tests' devices beyond "
          "what the tool moved\n               (buffered writes reach the device late: "
          "an estimate)" % (ot[len(ot) // 2] / 1e6, ot[-1] / 1e6))
    if mz:
        print("  CPU clock    %.0f..%.0f MHz" % (mz[0], mz[-1]))


if __name__ == "__main__":
    main()
