#!/usr/bin/env python3
"""A/A campaigns: where the noise of a comparison comes from, and what
a method does to it, measured on the same runs.

  aa.py run --out DIR --n N [--antagonist simple|full] -- COMPARE ARGS...
      runs `iotrial compare ARGS --json=DIR/aa-NNN.json --no-store`
      N times (an A/A compare varies only --vary label=a,b), each under
      bench/antagonist.sh when asked, and writes DIR/campaign.json
      (the commands, the load average before and after each).
  aa.py csv FILE.json|DIR ... [-o runs.csv]
      one row per run of every experiment: its block, arm, position in
      the block, metric, and the covariates iotrial measured (steal,
      CPU busy outside the process, other I/O on the disks under the
      target, dirty memory at the start, the covariates of the
      "covariates" member when there is one) and, from the sampler's
      250 ms series of the target device, the first interval's rate
      against the rest (warm-up) and the lag-1 autocorrelation.
  aa.py decompose FILE.json|DIR ...
      per experiment: the sd of the per-block log-ratios, how much of it
      each covariate's within-block difference explains (R^2), what the
      warm-up and the within-run autocorrelation say about run length,
      and the half-width the ratio's interval would have with the
      blocks a budget allows (--budget, --run-s).
  aa.py summary FILE.json|DIR ...
      per experiment (a compare's or an observe's --json) the first
      verdict as printed, the comparison it rests on (plain or
      adjusted), both intervals and their half-widths; then the
      false positives of each path (a plain interval excluding 1, an
      adjusted one that was used and excludes 1, a verdict of faster
      or slower) and the median half-widths.
  aa.py chunks FILE.json|DIR ... --blocks K
      cuts each experiment's blocks into disjoint runs of K blocks (an
      A/A experiment each) and reports for each method (plain,
      adjusted, gated) the median 95% half-width and how many chunks'
      intervals exclude 1 (false positives).

The statistics are those of src/core/stats (the one-sample
Hodges-Lehmann estimate of the per-block log-ratios with the exact
signed-rank interval up to 25 blocks without ties, normal beyond);
aa.py has its own copy so that it can re-analyse thousands of subsets.
"""
import argparse
import glob
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# --- the signed-rank interval (as stats_signrank_shift) ---------------

_SR_CACHE = {}


def signrank_cdf_counts(n):
    """Counts of W+ = w for n untied ranks: list of length M+1."""
    if n in _SR_CACHE:
        return _SR_CACHE[n]
    m = n * (n + 1) // 2
    c = [0] * (m + 1)
    c[0] = 1
    top = 0
    for k in range(1, n + 1):
        top += k
        for w in range(top, k - 1, -1):
            c[w] += c[w - k]
    _SR_CACHE[n] = c
    return c


def norm_ppf(p):
    """Inverse normal CDF (Acklam's rational approximation, refined)."""
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    a = [-3.969683028665376e01, 2.209460984245205e02, -2.759285104469687e02,
         1.383577518672690e02, -3.066479806614716e01, 2.506628277459239e00]
    b = [-5.447609879822406e01, 1.615858368580409e02, -1.556989798598866e02,
         6.680131188771972e01, -1.328068155288572e01]
    c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e00,
         -2.549732539343734e00, 4.374664141464968e00, 2.938163982698783e00]
    d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00,
         3.754408661907416e00]
    pl = 0.02425
    if p < pl:
        q = math.sqrt(-2 * math.log(p))
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / \
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    elif p <= 1 - pl:
        q = p - 0.5
        r = q * q
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / \
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    else:
        q = math.sqrt(-2 * math.log(1 - p))
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / \
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    e = 0.5 * math.erfc(-x / math.sqrt(2)) - p
    u = e * math.sqrt(2 * math.pi) * math.exp(x * x / 2)
    return x - u / (1 + x * u / 2)


def signrank_ci(d, conf=0.95):
    """(estimate, low, high) of the centre of d, as stats_signrank_shift."""
    n = len(d)
    if n < 2:
        return (math.nan, math.nan, math.nan)
    walsh = sorted((d[i] + d[j]) / 2 for i in range(n) for j in range(i, n))
    m = len(walsh)
    est = statistics.median(walsh)
    alpha2 = (1 - conf) / 2
    ties = len(set(abs(x) for x in d)) < n
    if n <= 25 and not ties:
        c = signrank_cdf_counts(n)
        total = 2 ** n
        k = -1
        cum = 0
        for w in range(len(c)):
            cum += c[w]
            if cum / total <= alpha2:
                k = w
            else:
                break
        k = max(k, 0) if k >= 0 else 0
        # k is the largest count with P(W+ <= k) <= alpha/2; the interval
        # is [W(k+1), W(M-k)] (1-based)
        if c[0] / total > alpha2:
            return (est, walsh[0], walsh[-1])
        return (est, walsh[k], walsh[m - 1 - k])
    z = norm_ppf(1 - alpha2)
    sigma = math.sqrt(n * (n + 1) * (2 * n + 1) / 24)
    k = int(math.floor(m / 2 - z * sigma))
    k = max(0, min(k, m // 2 - 1))
    return (est, walsh[k], walsh[m - 1 - k])


def halfwidth(lo, hi):
    """Relative half-width of a ratio interval (stats_should_stop's)."""
    a, b = math.exp(lo), math.exp(hi)
    return (b - a) / (b + a)


# --- reading experiments -----------------------------------------------

def load_experiments(paths):
    """(path, experiment object) for every JSON file given or in a dir."""
    out = []
    for p in paths:
        files = sorted(glob.glob(os.path.join(p, "*.json"))) \
            if os.path.isdir(p) else [p]
        for f in files:
            if os.path.basename(f) == "campaign.json":
                continue
            try:
                with open(f) as fh:
                    o = json.load(fh)
            except (OSError, ValueError) as e:
                print("skipped %s: %s" % (f, e), file=sys.stderr)
                continue
            if o.get("type") == "experiment" or "runs" in o:
                out.append((f, o))
    return out


def series_stats(run):
    """Warm-up ratio and lag-1 autocorrelation of the target device's
    throughput over the sampler's intervals (NaN when too short)."""
    tr = run.get("truth") or {}
    s = tr.get("series") or {}
    devs = s.get("devices") or []
    if not devs:
        return (math.nan, math.nan, math.nan)
    dv = devs[0]
    r = dv.get("rmbps") or []
    w = dv.get("wmbps") or []
    x = [a + b for a, b in zip(r, w)]
    # the last interval is a stub (the run's end); drop it
    if len(x) >= 3:
        x = x[:-1]
    if len(x) < 4:
        return (math.nan, math.nan, math.nan)
    rest = statistics.median(x[1:])
    warm = x[0] / rest if rest > 0 else math.nan
    mu = statistics.mean(x)
    var = sum((v - mu) ** 2 for v in x)
    ac = sum((x[i] - mu) * (x[i + 1] - mu) for i in range(len(x) - 1)) / var \
        if var > 0 else math.nan
    cv = statistics.pstdev(x) / mu if mu > 0 else math.nan
    return (warm, ac, cv)


COLS = ["exp", "block", "arm", "pos", "seq", "metric", "seconds", "seed",
        "steal", "busy", "other_cpu", "own_cpu", "foreign_mb",
        "bottom_mb", "target_mb", "dirty_start_mb", "dirty_peak_mb",
        "cpu_wait", "runnable", "others_runnable", "others_io_mb",
        "wake_late_ms", "warm", "ac1", "series_cv", "gated"]

COVS = ["steal", "busy", "other_cpu", "foreign_mb", "dirty_start_mb",
        "cpu_wait", "runnable", "others_runnable", "others_io_mb",
        "wake_late_ms", "own_cpu", "pos"]


def run_rows(path, exp):
    """Per-run dicts with COLS for one experiment."""
    runs = exp.get("runs") or []
    rows = []
    pos = {}
    for r in sorted(runs, key=lambda r: r.get("seq", 0)):
        b = r.get("block", -1)
        pos[b] = pos.get(b, -1) + 1
        run = r.get("run") or {}
        cpu = run.get("cpu") or {}
        tot = cpu.get("system_total_s") or math.nan
        steal = (cpu.get("system_steal_s") or 0) / tot if tot else math.nan
        busy = (cpu.get("system_busy_s") or 0) / tot if tot else math.nan
        own = (cpu.get("user_s") or 0) + (cpu.get("sys_s") or 0)
        other = ((cpu.get("system_busy_s") or 0) - own) / tot if tot else math.nan
        tr = run.get("truth") or {}
        tgt = ((tr.get("device_read_bytes") or 0) +
               (tr.get("device_write_bytes") or 0)) / 1e6
        bot = ((tr.get("bottom_read_bytes") or 0) +
               (tr.get("bottom_write_bytes") or 0)) / 1e6
        cov = r.get("covariates") or {}
        warm, ac, scv = series_stats(run)
        smp = tr.get("sampler") or {}

        def num(v):
            return v if isinstance(v, (int, float)) else math.nan
        row = {
            "exp": os.path.basename(path), "block": b, "arm": r.get("arm"),
            "pos": pos[b], "seq": r.get("seq"), "metric": r.get("metric"),
            "seconds": run.get("seconds"), "seed": run.get("seed"),
            "steal": cov.get("steal", steal), "busy": busy,
            "other_cpu": cov.get("other_cpu", other), "own_cpu": own,
            "foreign_mb": cov.get("foreign_mb",
                                  bot - tgt if tr.get("bottom_device") else math.nan),
            "bottom_mb": bot, "target_mb": tgt,
            "dirty_start_mb": cov.get("dirty_start_mb",
                                      (tr.get("dirty_start_bytes") or 0) / 1e6),
            "dirty_peak_mb": (tr.get("dirty_peak_bytes") or 0) / 1e6,
            "cpu_wait": cov.get("cpu_wait", num(smp.get("cpu_wait_fraction"))),
            "runnable": cov.get("runnable", num(smp.get("runnable_mean"))),
            "wake_late_ms": num(smp.get("wake_late_ms")),
            "others_runnable": cov.get(
                "others_runnable",
                num(smp.get("runnable_mean")) - num(smp.get("runnable_ours"))),
            "others_io_mb": cov.get(
                "others_io_mb",
                (num(smp.get("others_read_bytes")) +
                 num(smp.get("others_write_bytes"))) / 1e6),
            "warm": warm, "ac1": ac, "series_cv": scv,
            "gated": 1 if r.get("gated") else 0,
        }
        rows.append(row)
    return rows


def blocks_of(rows, base=0, arm=1):
    """Per complete block: (d = log(arm/base), {cov: arm - base}, rows)."""
    by = {}
    for r in rows:
        by.setdefault(r["block"], {})[r["arm"]] = r
    out = []
    for b in sorted(by):
        if b < 0 or base not in by[b] or arm not in by[b]:
            continue
        x, y = by[b][base], by[b][arm]
        if not (x["metric"] and y["metric"] and x["metric"] > 0 and y["metric"] > 0):
            continue
        d = math.log(y["metric"] / x["metric"])
        dz = {}
        for k in COVS:
            a, c = x.get(k), y.get(k)
            dz[k] = (c - a) if a is not None and c is not None else math.nan
        dz["pos"] = y["pos"] - x["pos"]
        out.append((d, dz, (x, y)))
    return out


# --- commands ----------------------------------------------------------

def cmd_run(a):
    os.makedirs(a.out, exist_ok=True)
    args = a.compare
    if args and args[0] == "--":
        args = args[1:]
    camp_path = os.path.join(a.out, "campaign.json")
    camp = {"compare": args, "antagonist": a.antagonist, "runs": []}
    if os.path.exists(camp_path):
        with open(camp_path) as fh:
            camp = json.load(fh)
    for i in range(a.first, a.first + a.n):
        out = os.path.join(a.out, "aa-%03d.json" % i)
        argv = [a.iotrial, "compare"] + args + ["--json=" + out, "--no-store",
                                                "--quiet"]
        if a.antagonist:
            argv = [os.path.join(HERE, "antagonist.sh"), "run", a.antagonist,
                    "--"] + argv
        l0 = os.getloadavg()[0]
        t0 = time.monotonic()
        p = subprocess.run(argv, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
        camp["runs"].append({"file": os.path.basename(out), "rc": p.returncode,
                             "load_before": l0,
                             "load_after": os.getloadavg()[0],
                             "wall_s": time.monotonic() - t0,
                             "stderr": p.stderr.decode(errors="replace")[-2000:]})
        print("%d/%d rc %d load %.1f %.0f s" % (i + 1, a.first + a.n,
                                                 p.returncode, l0,
                                                 time.monotonic() - t0),
              flush=True)
        with open(camp_path, "w") as fh:
            json.dump(camp, fh, indent=1)


def fmt(v):
    if isinstance(v, float):
        return "%.6g" % v
    return str(v)


def cmd_csv(a):
    out = open(a.o, "w") if a.o else sys.stdout
    print(",".join(COLS), file=out)
    for path, exp in load_experiments(a.paths):
        for r in run_rows(path, exp):
            print(",".join(fmt(r[c]) for c in COLS), file=out)


def ols(y, xs):
    """Least squares of y on the columns xs (with an intercept): R^2."""
    n = len(y)
    k = len(xs)
    if n <= k + 1:
        return math.nan
    X = [[1.0] + [xs[j][i] for j in range(k)] for i in range(n)]
    p = k + 1
    xtx = [[sum(X[i][r] * X[i][c] for i in range(n)) for c in range(p)]
           for r in range(p)]
    xty = [sum(X[i][r] * y[i] for i in range(n)) for r in range(p)]
    # Gauss-Jordan
    m = [row[:] + [xty[r]] for r, row in enumerate(xtx)]
    for c in range(p):
        piv = max(range(c, p), key=lambda r: abs(m[r][c]))
        if abs(m[piv][c]) < 1e-12:
            return math.nan
        m[c], m[piv] = m[piv], m[c]
        for r in range(p):
            if r != c:
                f = m[r][c] / m[c][c]
                for cc in range(c, p + 1):
                    m[r][cc] -= f * m[c][cc]
    beta = [m[r][p] / m[r][r] for r in range(p)]
    mu = statistics.mean(y)
    sst = sum((v - mu) ** 2 for v in y)
    sse = sum((y[i] - sum(beta[j] * X[i][j] for j in range(p))) ** 2
              for i in range(n))
    return 1 - sse / sst if sst > 0 else math.nan


def finite(xs):
    return all(isinstance(v, (int, float)) and math.isfinite(v) for v in xs)


def cmd_decompose(a):
    for path, exp in load_experiments(a.paths):
        rows = run_rows(path, exp)
        bl = blocks_of(rows)
        if len(bl) < 4:
            continue
        d = [b[0] for b in bl]
        lm = [math.log(r["metric"]) for r in rows if r["metric"]]
        sd_d = statistics.stdev(d)
        print("== %s: %d blocks, workload %s, run %s s" %
              (os.path.basename(path), len(bl), exp.get("workload"),
               statistics.median([r["seconds"] for r in rows if r["seconds"]])))
        print("  sd of log(metric) over all runs %.4f; of the per-block "
              "log-ratio %.4f (a run's own sd, if blocks removed nothing "
              "shared: %.4f)" % (statistics.stdev(lm), sd_d, sd_d / math.sqrt(2)))
        # between-block share: sd of block means
        bm = [(math.log(x["metric"]) + math.log(y["metric"])) / 2
              for _, _, (x, y) in bl]
        print("  sd of the block means %.4f: blocks %s the shared part"
              % (statistics.stdev(bm),
                 "remove" if statistics.stdev(bm) > sd_d / 2 else "hardly remove"))
        print("  position in block: mean d when arm 1 ran second %.4f, first %.4f"
              % (statistics.mean([b[0] for b in bl if b[1]["pos"] > 0] or [math.nan]),
                 statistics.mean([b[0] for b in bl if b[1]["pos"] < 0] or [math.nan])))
        for k in COVS:
            z = [b[1][k] for b in bl]
            if not finite(z) or statistics.pstdev(z) == 0:
                continue
            r2 = ols(d, [z])
            lv = [r[k] for r in rows if isinstance(r[k], (int, float))]
            print("  %-15s level median %-9.4g within-block diff sd %-9.4g "
                  "R^2 of d %.3f" % (k, statistics.median(lv),
                                     statistics.pstdev(z), r2))
        zs = [[b[1][k] for b in bl] for k in ("steal", "others_runnable",
                                               "others_io_mb")]
        zs = [z for z in zs if finite(z) and statistics.pstdev(z) > 0]
        if zs:
            print("  all covariates together: R^2 %.3f" % ols(d, zs))
        warm = [r["warm"] for r in rows if math.isfinite(r["warm"])]
        ac = [r["ac1"] for r in rows if math.isfinite(r["ac1"])]
        scv = [r["series_cv"] for r in rows if math.isfinite(r["series_cv"])]
        if warm:
            print("  warm-up: first 250 ms at %.2f of the rest (median; IQR "
                  "%.2f-%.2f); lag-1 autocorrelation %.2f; within-run cv "
                  "of 250 ms rates %.2f" %
                  (statistics.median(warm),
                   sorted(warm)[len(warm) // 4], sorted(warm)[3 * len(warm) // 4],
                   statistics.median(ac) if ac else math.nan,
                   statistics.median(scv) if scv else math.nan))
        # half-width with K blocks, over disjoint chunks
        for k in sorted(set([a.blocks, 6, 11, 20])):
            if k > len(bl):
                continue
            hw = []
            for s in range(0, len(bl) - k + 1, k):
                e, lo, hi = signrank_ci(d[s:s + k])
                hw.append(halfwidth(lo, hi))
            print("  %2d blocks: median half-width %.1f%% over %d chunks" %
                  (k, 100 * statistics.median(hw), len(hw)))


def adjust(d, z):
    """CUPED through the origin: d - beta z, beta = sum(dz)/sum(zz)."""
    szz = sum(v * v for v in z)
    if szz <= 0:
        return d
    beta = sum(x * v for x, v in zip(d, z)) / szz
    return [x - beta * v for x, v in zip(d, z)]


def reanalyze(path, first, nr, skip=()):
    """bench/reanalyze's verdict lines for blocks [first, first + nr)."""
    argv = [os.path.join(HERE, "reanalyze"), path, str(first), str(nr)]
    if skip:
        argv.append(",".join(str(b) for b in skip))
    out = subprocess.run(argv, check=True, stdout=subprocess.PIPE).stdout
    rows = []
    for line in out.decode().splitlines():
        f = line.split()
        val = lambda x: float(x) if x != "-" else math.nan
        rows.append({"label": f[0], "ratio": val(f[1]), "lo": val(f[2]),
                     "hi": val(f[3]), "p": val(f[4]), "verdict": f[5],
                     "from": f[6], "adj_ratio": val(f[7]),
                     "adj_lo": val(f[8]), "adj_hi": val(f[9]),
                     "adj_p": val(f[10]), "used": f[11] == "true"})
    return rows


def ratio_hw(lo, hi):
    """Half-width of a ratio interval as the manual gives it: half its
    width over the estimate's scale, (hi - lo) / (hi + lo)."""
    return (hi - lo) / (hi + lo) if lo and hi else float("nan")


def cmd_summary(a):
    rows = []
    for f, o in load_experiments(a.paths):
        vs = o.get("verdicts") or []
        if not vs:
            print("%-16s no verdict" % os.path.basename(f))
            continue
        v = vs[0]
        ad = v.get("adjusted") or {}
        blocks = o.get("blocks")
        r = {"verdict": v.get("verdict"), "from": v.get("verdict_from"),
             "lo": v["ci_low"], "hi": v["ci_high"],
             "hw": ratio_hw(v["ci_low"], v["ci_high"]),
             "used": bool(ad.get("used")), "alo": ad.get("ci_low"),
             "ahi": ad.get("ci_high"),
             "ahw": ratio_hw(ad.get("ci_low"), ad.get("ci_high"))}
        rows.append(r)
        print("%-16s %3s blocks %-12s from %-8s plain %.3f [%.3f, %.3f] "
              "+-%.1f%%  adjusted%s +-%.1f%%" % (
                  os.path.basename(f), blocks, r["verdict"], r["from"],
                  v["ratio"], r["lo"], r["hi"], 100 * r["hw"],
                  " (used)" if r["used"] else "", 100 * r["ahw"]))
    if not rows:
        return
    med = lambda xs: statistics.median(xs) if xs else float("nan")
    print("%d experiments: plain interval excludes 1 in %d; adjusted used "
          "in %d, excluding 1 in %d of them; verdict faster or slower in "
          "%d" % (len(rows),
                  sum(r["lo"] > 1 or r["hi"] < 1 for r in rows),
                  sum(r["used"] for r in rows),
                  sum(r["used"] and (r["alo"] > 1 or r["ahi"] < 1)
                      for r in rows),
                  sum(r["verdict"] in ("faster", "slower") for r in rows)))
    print("median half-width: plain %.1f%%, adjusted %.1f%%, the "
          "verdict's %.1f%%" % (
              100 * med([r["hw"] for r in rows]),
              100 * med([r["ahw"] for r in rows if r["ahw"] == r["ahw"]]),
              100 * med([r["ahw"] if r["from"] == "adjusted" else r["hw"]
                         for r in rows])))


def cmd_chunks(a):
    res = {}
    total = 0
    for path, exp in load_experiments(a.paths):
        rows = run_rows(path, exp)
        bl = blocks_of(rows)
        for s in range(0, len(bl) - a.blocks + 1, a.blocks):
            ch = bl[s:s + a.blocks]
            d = [b[0] for b in ch]
            total += 1
            meth = {"plain": d}
            for k in a.cov:
                z = [b[1][k] for b in ch]
                if finite(z):
                    meth["adj:" + k] = adjust(d, z)
            for name, dd in meth.items():
                e, lo, hi = signrank_ci(dd)
                r = res.setdefault(name, {"hw": [], "fp": 0, "n": 0})
                r["hw"].append(halfwidth(lo, hi))
                r["n"] += 1
                r["fp"] += lo > 0 or hi < 0
    if a.iotrial_analysis:
        for path, exp in load_experiments(a.paths):
            nb = exp.get("blocks") or 0
            for s0 in range(0, nb - a.blocks + 1, a.blocks):
                for v in reanalyze(path, s0, a.blocks):
                    for name, lo, hi in (
                            ("iotrial plain", v["lo"], v["hi"]),
                            ("iotrial verdict path",
                             v["adj_lo"] if v["used"] else v["lo"],
                             v["adj_hi"] if v["used"] else v["hi"])):
                        r = res.setdefault(name, {"hw": [], "fp": 0, "n": 0})
                        r["hw"].append(halfwidth(math.log(lo), math.log(hi)))
                        r["n"] += 1
                        r["fp"] += lo > 1 or hi < 1
    print("%d chunks of %d blocks" % (total, a.blocks))
    for name, r in res.items():
        print("  %-20s median half-width %5.1f%%  intervals excluding 1: "
              "%d/%d" % (name, 100 * statistics.median(r["hw"]), r["fp"], r["n"]))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--out", required=True)
    r.add_argument("--n", type=int, default=20)
    r.add_argument("--first", type=int, default=0,
                   help="number the files from here (adds to a campaign)")
    r.add_argument("--antagonist", choices=["simple", "full"])
    r.add_argument("--iotrial", default=os.path.join(HERE, "..", "iotrial"))
    r.add_argument("compare", nargs=argparse.REMAINDER)
    c = sub.add_parser("csv")
    c.add_argument("paths", nargs="+")
    c.add_argument("-o")
    d = sub.add_parser("decompose")
    d.add_argument("paths", nargs="+")
    d.add_argument("--blocks", type=int, default=11)
    m = sub.add_parser("summary")
    m.add_argument("paths", nargs="+")
    k = sub.add_parser("chunks")
    k.add_argument("paths", nargs="+")
    k.add_argument("--blocks", type=int, default=11)
    k.add_argument("--cov", action="append", default=[])
    k.add_argument("--iotrial-analysis", action="store_true",
                   help="also bench/reanalyze each chunk (this build's "
                   "analysis: plain and the verdict's path)")
    a = p.parse_args()
    {"run": cmd_run, "csv": cmd_csv, "decompose": cmd_decompose,
     "summary": cmd_summary, "chunks": cmd_chunks}[a.cmd](a)


if __name__ == "__main__":
    main()
