#!/usr/bin/python3
"""Write tests/unit/analysis_vectors.h: whole analyses for test_analysis.c.

Why: core/stats/analysis.c wires the statistics of core/stats/stats.c together
(summaries, comparison with the baseline, pairing by block, Holm across
arms, the verdict rules, outliers, drift). test_stats.c checks each
statistic; this script computes what a whole analysis must report from
scipy 1.10 (Debian's python3-scipy) and the rules as analysis.h and
stats.h state them, so the wiring is checked against an independent
implementation. The header is committed; rerun this only to add cases:

    /usr/bin/python3 tests/unit/gen_analysis_vectors.py \\
        > tests/unit/analysis_vectors.h

It reuses the scipy-based helpers of gen_stats_vectors.py (median CI,
Moses CI by inverting mannwhitneyu, the signed-rank CI by inverting
wilcoxon, the exact/normal method choice, Holm by its definition). Every case says which verdicts it is meant to show;
the script stops if the data do not give them.
"""
import os
import sys

import numpy as np
from scipy import stats

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_stats_vectors as g  # noqa: E402

MIN_RUNS = 4         # STATS_MIN_RUNS
DRIFT_MIN_N = 6      # analysis.c checks drift from 6 runs on
DRIFT_ALPHA = 0.05
OUTLIER_Z = 3.5
SIGNRANK_EXACT_MAX = g.SIGNRANK_EXACT_MAX

emit = g.emit
fmt = g.fmt


def uarr(name, values):
    emit("static const unsigned %s[] = {" % name)
    emit("\t" + ", ".join(str(int(v)) for v in values) + ",")
    emit("};")


def modified_z_outliers(x):
    med = np.median(x)
    mad = stats.median_abs_deviation(x, scale=1.0)
    if mad > 0:
        mz = 0.6745 * (x - med) / mad
    else:
        meanad = np.mean(np.abs(x - med))
        mz = (x - med) / (1.253314 * meanad) if meanad > 0 else 0 * x
    return int(np.sum(np.abs(mz) > OUTLIER_Z))


def summary(x, blocks, conf):
    lo, hi, _ = g.median_ci(len(x), conf)
    s = np.sort(x)
    out = {
        "median": np.median(x), "ci_low": s[lo - 1], "ci_high": s[hi - 1],
        "min": s[0], "max": s[-1],
        "cv": np.std(x, ddof=1) / np.mean(x) if len(x) > 1 else 0.0,
        "outliers": modified_z_outliers(x),
        "drift_checked": len(x) >= DRIFT_MIN_N,
        "rho": float("nan"), "drift_p": float("nan"), "drifting": False,
    }
    if out["drift_checked"]:
        idx = blocks if blocks is not None else np.arange(len(x))
        res = stats.spearmanr(x, idx)
        out["rho"], out["drift_p"] = res.correlation, res.pvalue
        out["drifting"] = res.pvalue < DRIFT_ALPHA
    return out


def pair_up(base_x, base_b, arm_x, arm_b):
    """The baseline's value of the same block for each of the arm's."""
    xb, xa = [], []
    for v, b in zip(arm_x, arm_b):
        hit = np.nonzero(base_b == b)[0]
        if len(hit):
            xb.append(base_x[hit[0]])
            xa.append(v)
    return np.asarray(xb), np.asarray(xa)


def wilcoxon_p(d):
    nz = d[d != 0]
    exact = (len(nz) <= SIGNRANK_EXACT_MAX and len(nz) == len(d)
             and not g.has_ties(np.abs(nz)))
    return stats.wilcoxon(d, zero_method="wilcox", correction=False,
                          method="exact" if exact else "approx").pvalue


def compare(xb, xa, paired):
    """stats_compare(base, arm): the ratio with its CI, and p.

    Unpaired: the two-sample Hodges-Lehmann ratio with the Moses CI and
    Mann-Whitney's p. Paired: all three from the per-block log-ratios d,
    the median of their Walsh averages with the signed-rank CI, and the
    signed-rank test's p.
    """
    lx, ly = np.log(xb), np.log(xa)
    if paired:
        d = ly - lx
        shift = np.median(g.walsh(d))
        exact = len(d) <= SIGNRANK_EXACT_MAX and not g.has_ties(d)
        lo, hi = g.signrank_by_inversion(d, "exact" if exact else "approx")
        return np.exp(shift), np.exp(lo), np.exp(hi), wilcoxon_p(d)
    shift = np.median(np.subtract.outer(ly, lx).ravel())
    lo, hi = g.moses_by_inversion(lx, ly, g.ci_method(lx, ly))
    p = stats.mannwhitneyu(xb, xa, method=g.mwu_method(xb, xa),
                           use_continuity=True,
                           alternative="two-sided").pvalue
    return np.exp(shift), np.exp(lo), np.exp(hi), p


def verdict(ratio_low, ratio_high, p_adj, n_arm, n_base, o):
    if n_arm < MIN_RUNS or n_base < MIN_RUNS:
        return "no verdict"
    if p_adj < o["alpha"] and (ratio_low > 1 or ratio_high < 1):
        up = ratio_low > 1
        return "faster" if up == o["higher_is_better"] else "slower"
    if ratio_low >= 1 - o["margin"] and ratio_high <= 1 + o["margin"]:
        return "equivalent"
    return "inconclusive"


def analyse(case):
    o = case["opts"]
    arms = case["arms"]
    base = arms[o["baseline"]]
    rows = []
    for a in arms:
        rows.append(summary(a["x"], a["blocks"], o["conf"]))
    ps = []
    for i, a in enumerate(arms):
        r = rows[i]
        r.update(valid=False, ratio=float("nan"), ratio_low=float("nan"),
                 ratio_high=float("nan"), p=float("nan"),
                 p_adjusted=float("nan"), wilcoxon=False)
        if i == o["baseline"] or len(a["x"]) < 2 or len(base["x"]) < 2:
            continue
        paired = (o["paired"] and a["blocks"] is not None
                  and base["blocks"] is not None)
        if paired:
            xb, xa = pair_up(base["x"], base["blocks"], a["x"], a["blocks"])
        else:
            xb, xa = base["x"], a["x"]
        r["ratio"], r["ratio_low"], r["ratio_high"], r["p"] = compare(
            xb, xa, paired)
        r["valid"], r["wilcoxon"] = True, paired
        ps.append(i)
    adj = g.holm([rows[i]["p"] for i in ps]) if ps else []
    for i, pa in zip(ps, adj):
        rows[i]["p_adjusted"] = pa
    for i, a in enumerate(arms):
        r = rows[i]
        if r["valid"]:
            r["verdict"] = verdict(r["ratio_low"], r["ratio_high"],
                                   r["p_adjusted"], len(a["x"]),
                                   len(base["x"]), o)
        else:
            r["verdict"] = "no verdict"
        if a["want"] != r["verdict"]:
            raise SystemExit("%s/%s: want %s, the data give %s (p_adj %r, "
                             "CI %r..%r)" % (case["name"], a["label"],
                                             a["want"], r["verdict"],
                                             r["p_adjusted"],
                                             r["ratio_low"],
                                             r["ratio_high"]))
        if "outliers" in a and a["outliers"] != r["outliers"]:
            raise SystemExit("%s/%s: want %d outliers, got %d" % (
                case["name"], a["label"], a["outliers"], r["outliers"]))
        if "drifting" in a and a["drifting"] != r["drifting"]:
            raise SystemExit("%s/%s: drift not as meant" % (
                case["name"], a["label"]))
    return rows


def cases(rng):
    def ln(mu, cv, n):
        return rng.lognormal(np.log(mu), np.sqrt(np.log1p(cv * cv)), n)

    def arm(label, x, want, blocks=None, **extra):
        d = {"label": label, "x": np.asarray(x, dtype=float),
             "blocks": None if blocks is None else np.asarray(blocks),
             "want": want}
        d.update(extra)
        return d

    iops = {"baseline": 0, "higher_is_better": True, "paired": False,
            "alpha": 0.05, "margin": 0.02, "conf": 0.95}
    # Unpaired, higher is better: every verdict once; Holm over the four
    # compared arms (the one-run arm is compared with nothing).
    with_outlier = list(ln(1000, 0.004, 9)) + [1150.0]
    yield {
        "name": "unpaired", "opts": iops, "arms": [
            arm("base", ln(1000, 0.004, 10), "no verdict"),
            arm("faster", ln(1080, 0.004, 10), "faster"),
            arm("slower", ln(930, 0.004, 8), "slower"),
            arm("same", with_outlier, "equivalent", outliers=1),
            arm("noisy", ln(1010, 0.08, 6), "inconclusive"),
            arm("one-run", [1000.0], "no verdict"),
        ]}

    # Blocked and paired, lower is better (a latency), the baseline not
    # first. Blocks are listed out of order and one arm misses a block,
    # so pairing must go by block number, not by position. The drifting
    # arm climbs with the block number.
    lat = dict(iops, baseline=1, higher_is_better=False, paired=True)
    blocks = np.arange(8)
    shuffled = np.array([5, 2, 7, 0, 3, 6, 1, 4])
    drift = 200.0 * (1 + 0.01 * blocks) * ln(1, 0.002, 8)
    yield {
        "name": "paired", "opts": lat, "arms": [
            arm("quicker", ln(180, 0.01, 8), "faster", blocks=shuffled),
            arm("base", ln(200, 0.01, 8), "no verdict", blocks=blocks),
            arm("missing", ln(200, 0.01, 7), "equivalent",
                blocks=np.array([0, 1, 2, 4, 5, 6, 7])),
            arm("drifting", drift, "slower", blocks=blocks,
                drifting=True),
        ]}

    # Too few runs: a comparison, a p and a CI, but no verdict under
    # STATS_MIN_RUNS runs; no drift check under six.
    yield {
        "name": "few", "opts": iops, "arms": [
            arm("base", ln(50, 0.01, 3), "no verdict"),
            arm("three", ln(60, 0.01, 3), "no verdict"),
            arm("five", ln(60, 0.01, 5), "no verdict"),
        ]}

    # Blocks given but not paired (diff of two stored experiments): the
    # unpaired test; drift is still taken against the block numbers.
    unpaired_blocks = dict(iops, paired=False)
    yield {
        "name": "blocks_unpaired", "opts": unpaired_blocks, "arms": [
            arm("base", ln(300, 0.01, 7), "no verdict",
                blocks=[0, 1, 2, 3, 4, 5, 6]),
            arm("other", ln(320, 0.01, 7), "faster",
                blocks=[6, 5, 4, 3, 2, 1, 0]),
        ]}


def main():
    rng = np.random.default_rng(20250301)
    emit("/*")
    emit(" * Reference analyses for test_analysis.c, generated by")
    emit(" * tests/unit/gen_analysis_vectors.py with scipy %s and numpy %s."
         % (__import__("scipy").__version__, np.__version__))
    emit(" * Do not edit: change the generator and rerun it.")
    emit(" */")
    emit("#ifndef IOTRIAL_ANALYSIS_VECTORS_H")
    emit("#define IOTRIAL_ANALYSIS_VECTORS_H")
    emit()
    emit("#include <math.h>")
    emit("#include <stddef.h>")
    emit()
    emit("/* One arm's input and what its summary and verdict must say. */")
    emit("struct av_arm {")
    emit("\tconst char *label;")
    emit("\tconst double *values;")
    emit("\tconst unsigned *blocks; /* NULL: not blocked */")
    emit("\tsize_t n;")
    emit("\tdouble median, ci_low, ci_high, min, max, cv;")
    emit("\tsize_t nr_outliers;")
    emit("\tint drift_checked;")
    emit("\tdouble drift_rho, drift_p; /* NAN when not checked */")
    emit("\tint drifting;")
    emit("\tint valid; /* compared with the baseline */")
    emit("\tdouble ratio, ratio_low, ratio_high, p, p_adjusted;")
    emit("\tint wilcoxon; /* p from the paired test */")
    emit("\tconst char *verdict;")
    emit("};")
    emit()
    emit("/* One analysis_run() and its options. */")
    emit("struct av_case {")
    emit("\tconst char *name;")
    emit("\tconst struct av_arm *arms;")
    emit("\tunsigned nr_arms;")
    emit("\tunsigned baseline;")
    emit("\tint higher_is_better, paired;")
    emit("\tdouble alpha, margin, conf;")
    emit("};")
    emit()
    table = []
    for case in cases(rng):
        rows = analyse(case)
        name = case["name"]
        lines = []
        for i, (a, r) in enumerate(zip(case["arms"], rows)):
            g.arr("av_%s_%d_x" % (name, i), a["x"])
            blocks = "NULL"
            if a["blocks"] is not None:
                uarr("av_%s_%d_blocks" % (name, i), a["blocks"])
                blocks = "av_%s_%d_blocks" % (name, i)
            lines.append(
                "\t{ \"%s\", av_%s_%d_x, %s, %d, %s, %s, %s, %s, %s, %s, "
                "%d, %d, %s, %s, %d, %d, %s, %s, %s, %s, %s, %d, \"%s\" },"
                % (a["label"], name, i, blocks, len(a["x"]),
                   fmt(r["median"]), fmt(r["ci_low"]), fmt(r["ci_high"]),
                   fmt(r["min"]), fmt(r["max"]), fmt(r["cv"]),
                   r["outliers"], r["drift_checked"], fmt(r["rho"]),
                   fmt(r["drift_p"]), r["drifting"], r["valid"],
                   fmt(r["ratio"]), fmt(r["ratio_low"]),
                   fmt(r["ratio_high"]), fmt(r["p"]), fmt(r["p_adjusted"]),
                   r["wilcoxon"], r["verdict"]))
        emit("static const struct av_arm av_%s[] = {" % name)
        for line in lines:
            emit(line)
        emit("};")
        emit()
        o = case["opts"]
        table.append("\t{ \"%s\", av_%s, %d, %d, %d, %d, %s, %s, %s }," % (
            name, name, len(case["arms"]), o["baseline"],
            o["higher_is_better"], o["paired"], fmt(o["alpha"]),
            fmt(o["margin"]), fmt(o["conf"])))
    emit("static const struct av_case av_cases[] = {")
    for line in table:
        emit(line)
    emit("};")
    emit()
    emit("#endif")
    sys.stdout.write("\n".join(g.out) + "\n")


if __name__ == "__main__":
    main()
