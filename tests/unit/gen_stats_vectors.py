#!/usr/bin/python3
"""Write tests/unit/stats_vectors.h: reference values for test_stats.c.

Why: core/stats/stats.c implements its statistics from the textbook math; this
script computes the same quantities with Debian's python3-scipy (1.10) so
the C code is checked against an independent implementation. The header is
committed; rerun this script only to add cases:

    /usr/bin/python3 tests/unit/gen_stats_vectors.py > tests/unit/stats_vectors.h

Where scipy has no direct function (the order-statistic CI of the median,
the Moses CI, Holm), the reference is built from scipy pieces:
  - median CI ranks from scipy.stats.binom.cdf;
  - Moses CI by inverting scipy.stats.mannwhitneyu: a shift d is inside
    the interval when the test of (y - d) against x does not reject at
    alpha; the shifts tried are the midpoints between consecutive distinct
    pairwise differences, and the interval is the closure of the accepted
    ones. The method (exact or asymptotic) is the one stats.c picks.
  - Holm by its definition (statsmodels is not packaged on the CI image).
  - the one-sample Hodges-Lehmann estimate (the median of the Walsh
    averages, by numpy) and its signed-rank interval by inverting
    scipy.stats.wilcoxon as the Moses CI inverts mannwhitneyu: a centre t
    is inside when the test of d - t does not reject; the centres tried
    are the midpoints between consecutive distinct Walsh averages. The
    exact coverage comes from scipy's W+ distribution.
"""
import re
import sys
import warnings

import numpy as np
from scipy import stats
from scipy.stats import _mannwhitneyu, _hypotests

CONF = 0.95
ALPHA = 1.0 - CONF
MWU_EXACT_MAX = 20
SIGNRANK_EXACT_MAX = 25

out = []


def emit(line=""):
    if line.startswith("\t{ "):
        out.extend(wrap_row(line))
    else:
        out.append(line)


def fmt(v):
    """A C double literal that round-trips."""
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return "NAN"
    if np.isinf(v):
        return "INFINITY" if v > 0 else "-INFINITY"
    return repr(float(v))


def arr(name, values):
    emit("static const double %s[] = {" % name)
    line = "\t"
    for v in values:
        item = fmt(v) + ", "
        if len(line.expandtabs(8)) + len(item) > 80:
            emit(line.rstrip())
            line = "\t"
        line += item
    emit(line.rstrip())
    emit("};")


def wrap_row(row):
    """Break a "\t{ a, b, ... }," initializer line at 80 columns."""
    if len(row.expandtabs(8)) <= 80:
        return [row]
    lines, line = [], ""
    for item in re.split(r"(?<=,) ", row):
        if line and len((line + " " + item).expandtabs(8)) > 80:
            lines.append(line)
            line = "\t  " + item
        else:
            line = line + " " + item if line else item
    lines.append(line)
    return lines


def has_ties(v):
    v = np.asarray(v)
    return len(np.unique(v)) != len(v)


# --- per-arm summaries -------------------------------------------------

def median_ci(n, conf):
    best, best_cov = 1, 1 - 2 * stats.binom.cdf(0, n, 0.5)
    for k in range(2, (n + 1) // 2 + 1):
        cov = 1 - 2 * stats.binom.cdf(k - 1, n, 0.5)
        if cov < conf:
            break
        best, best_cov = k, cov
    return best, n + 1 - best, best_cov


def summaries(rng):
    cases = [
        ("n1", [5.0]),
        ("n2", [3.0, 1.0]),
        ("n5", [10.2, 9.8, 10.0, 10.5, 9.9]),
        ("n6", list(rng.lognormal(np.log(1000), 0.03, 6))),
        ("n8ties", [4.0, 4.0, 5.0, 5.0, 5.0, 6.0, 7.0, 4.0]),
        ("n10", list(rng.lognormal(np.log(250e3), 0.05, 10))),
        ("n17", list(rng.normal(100, 10, 17))),
        ("n30", list(rng.lognormal(0, 1, 30))),
        ("n101", list(rng.exponential(3.0, 101))),
    ]
    emit("/* Per-arm summaries: stats_summarize(x, n, 0.95). */")
    emit("struct sv_summary {")
    emit("\tconst char *name;")
    emit("\tconst double *x;")
    emit("\tsize_t n;")
    emit("\tdouble median, ci_low, ci_high, coverage;")
    emit("\tsize_t lo_rank, hi_rank;")
    emit("\tdouble min, max, mean, sd, cv;")
    emit("};")
    rows = []
    for name, x in cases:
        x = np.asarray(x, dtype=float)
        arr("sv_sum_%s" % name, x)
        lo, hi, cov = median_ci(len(x), CONF)
        s = np.sort(x)
        sd = float(np.std(x, ddof=1)) if len(x) > 1 else 0.0
        mean = float(np.mean(x))
        rows.append("\t{ \"%s\", sv_sum_%s, %d, %s, %s, %s, %s, %d, %d, "
                    "%s, %s, %s, %s, %s }," % (
                        name, name, len(x), fmt(np.median(x)),
                        fmt(s[lo - 1]), fmt(s[hi - 1]), fmt(cov), lo, hi,
                        fmt(s[0]), fmt(s[-1]), fmt(mean), fmt(sd),
                        fmt(sd / mean)))
    emit("static const struct sv_summary sv_summaries[] = {")
    for r in rows:
        emit(r)
    emit("};")
    emit()


# --- two samples -------------------------------------------------------

def mwu_method(x, y):
    if (len(x) <= MWU_EXACT_MAX and len(y) <= MWU_EXACT_MAX
            and not has_ties(np.concatenate([x, y]))):
        return "exact"
    return "asymptotic"


def ci_method(x, y):
    if (len(x) <= MWU_EXACT_MAX and len(y) <= MWU_EXACT_MAX
            and not has_ties(x) and not has_ties(y)):
        return "exact"
    return "asymptotic"


def moses_by_inversion(x, y, method):
    """The closure of the shifts that mannwhitneyu does not reject."""
    d = np.unique(np.subtract.outer(y, x).ravel())
    lo = hi = None
    for a, b in zip(d[:-1], d[1:]):
        mid = (a + b) / 2
        p = stats.mannwhitneyu(x, y - mid, method=method,
                               use_continuity=True,
                               alternative="two-sided").pvalue
        if p > ALPHA:
            if lo is None:
                lo = a
            hi = b
    if lo is None:  # nothing accepted: cannot happen for our cases
        raise SystemExit("no accepted shift")
    return lo, hi


def two_samples(rng):
    def ln(mu, cv, n):
        return list(rng.lognormal(np.log(mu), np.sqrt(np.log1p(cv * cv)),
                                  n))

    cases = [
        # scipy's documented example: U1 = 17, p = 0.1111 (exact)
        ("doc", [19, 22, 16, 29, 24], [20, 11, 17, 12]),
        ("n4x4", ln(100, 0.03, 4), ln(103, 0.03, 4)),
        ("n7x9", ln(1000, 0.05, 7), ln(1040, 0.05, 9)),
        ("n10same", ln(5e4, 0.03, 10), ln(5e4, 0.03, 10)),
        ("n10shift", ln(5e4, 0.03, 10), ln(5.25e4, 0.03, 10)),
        ("n20x20", ln(300, 0.1, 20), ln(310, 0.1, 20)),
        ("n3x15", ln(10, 0.02, 3), ln(10.3, 0.02, 15)),
        ("separated", [float(v) for v in range(1, 11)],
         [float(v) for v in range(21, 31)]),
        ("crossties", [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
         [3.0, 5.0, 7.0, 8.0, 9.0, 10.0]),
        ("ties8", list(np.round(ln(20, 0.1, 8))), list(np.round(
            ln(22, 0.1, 8)))),
        ("n25x30", ln(800, 0.04, 25), ln(780, 0.04, 30)),
        ("ties50x40", list(np.round(ln(100, 0.05, 50))),
         list(np.round(ln(101, 0.05, 40)))),
        ("n21x5", ln(2.0, 0.1, 21), ln(2.3, 0.1, 5)),
    ]
    emit("/*")
    emit(" * Two samples: stats_mwu(x, y), stats_hodges_lehmann(x, y, 0.95)")
    emit(" * and stats_log_ratio(x, y, 0.95). exact: 1 for STATS_EXACT.")
    emit(" * hl_cov is the exact coverage, NAN where the method is normal.")
    emit(" */")
    emit("struct sv_two {")
    emit("\tconst char *name;")
    emit("\tconst double *x;")
    emit("\tsize_t nx;")
    emit("\tconst double *y;")
    emit("\tsize_t ny;")
    emit("\tdouble u1, p;")
    emit("\tint mwu_exact;")
    emit("\tdouble shift, ci_low, ci_high, hl_cov;")
    emit("\tint ci_exact;")
    emit("\tdouble ratio, ratio_low, ratio_high;")
    emit("};")
    rows = []
    for name, x, y in cases:
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        arr("sv_two_%s_x" % name, x)
        arr("sv_two_%s_y" % name, y)
        mm = mwu_method(x, y)
        res = stats.mannwhitneyu(x, y, method=mm, use_continuity=True,
                                 alternative="two-sided")
        cm = ci_method(x, y)
        shift = np.median(np.subtract.outer(y, x).ravel())
        lo, hi = moses_by_inversion(x, y, cm)
        lx, ly = np.log(x), np.log(y)
        lshift = np.median(np.subtract.outer(ly, lx).ravel())
        llo, lhi = moses_by_inversion(lx, ly, cm)
        cov = float("nan")
        if cm == "exact":
            # k: the largest count with P(U <= k) <= alpha / 2; the
            # interval must be [D(k + 1), D(mn - k)] and covers 1 - 2 P.
            mn = len(x) * len(y)
            cdf = _mannwhitneyu._mwu_state.cdf(np.arange(mn + 1), len(x),
                                               len(y))
            k = max(int(np.sum(cdf <= ALPHA / 2)) - 1, 0)
            d = np.sort(np.subtract.outer(y, x).ravel())
            assert d[k] == lo and d[mn - k - 1] == hi, name
            cov = 1 - 2 * cdf[k]
        rows.append("\t{ \"%s\", sv_two_%s_x, %d, sv_two_%s_y, %d, %s, %s, "
                    "%d, %s, %s, %s, %s, %d, %s, %s, %s }," % (
                        name, name, len(x), name, len(y),
                        fmt(res.statistic), fmt(res.pvalue),
                        mm == "exact", fmt(shift), fmt(lo), fmt(hi),
                        fmt(cov), cm == "exact", fmt(np.exp(lshift)),
                        fmt(np.exp(llo)), fmt(np.exp(lhi))))
    emit("static const struct sv_two sv_twos[] = {")
    for r in rows:
        emit(r)
    emit("};")
    emit()


# --- paired differences -------------------------------------------------

def wilcoxon_cases(rng):
    cases = [
        ("n6pos", [0.01, 0.02, 0.03, 0.04, 0.05, 0.06]),
        ("n8", list(rng.normal(0.01, 0.02, 8))),
        ("n15", list(rng.normal(0.0, 0.03, 15))),
        ("n25", list(rng.normal(0.02, 0.03, 25))),
        ("n26", list(rng.normal(0.02, 0.03, 26))),
        ("zeros", [0.0, 0.013, -0.004, 0.0, 0.021, 0.008, -0.011, 0.017,
                   0.006, 0.019, 0.025, -0.002]),
        ("ties", [0.01, -0.01, 0.02, 0.02, 0.03, -0.02, 0.04, 0.05, 0.01,
                  0.06, 0.02, -0.03]),
        ("n40", list(rng.normal(-0.005, 0.02, 40))),
        ("centre", [1.0, -2.0, 3.0, -4.0, 5.0, -6.0, 7.0, -8.0, 9.0, -10.0,
                    -11.0, 12.0]),
    ]
    emit("/*")
    emit(" * Wilcoxon signed-rank on differences: stats_wilcoxon(d, n).")
    emit(" * tmin = min(W+, W-) is scipy's two-sided statistic.")
    emit(" */")
    emit("struct sv_wilcoxon {")
    emit("\tconst char *name;")
    emit("\tconst double *d;")
    emit("\tsize_t n;")
    emit("\tdouble wplus, tmin, p;")
    emit("\tsize_t n_used;")
    emit("\tint exact;")
    emit("};")
    rows = []
    for name, d in cases:
        d = np.asarray(d, dtype=float)
        arr("sv_wil_%s" % name, d)
        nz = d[d != 0]
        exact = (len(nz) <= SIGNRANK_EXACT_MAX and len(nz) == len(d)
                 and not has_ties(np.abs(nz)))
        res = stats.wilcoxon(d, zero_method="wilcox", correction=False,
                             method="exact" if exact else "approx")
        r = stats.rankdata(np.abs(nz))
        wplus = float(np.sum(r[nz > 0]))
        rows.append("\t{ \"%s\", sv_wil_%s, %d, %s, %s, %s, %d, %d }," % (
            name, name, len(d), fmt(wplus), fmt(res.statistic),
            fmt(res.pvalue), len(nz), exact))
    emit("static const struct sv_wilcoxon sv_wilcoxons[] = {")
    for r in rows:
        emit(r)
    emit("};")
    emit()


def walsh(d):
    i, j = np.triu_indices(len(d))
    return np.sort((d[i] + d[j]) / 2.0)


def signrank_by_inversion(d, method):
    """The closure of the centres that wilcoxon does not reject."""
    w = np.unique(walsh(d))
    lo = hi = None
    warnings.filterwarnings("ignore", "Sample size too small")
    for a, b in zip(w[:-1], w[1:]):
        mid = (a + b) / 2
        p = stats.wilcoxon(d - mid, zero_method="wilcox", correction=False,
                           method=method).pvalue
        if p > ALPHA:
            if lo is None:
                lo = a
            hi = b
    if lo is None:
        raise SystemExit("no accepted centre")
    return lo, hi


def signrank_shift_cases():
    """stats_signrank_shift: the paired ratio's estimate and interval."""
    rng = np.random.default_rng(20261201)
    cases = [
        ("n2", [0.05, 0.02]),
        ("n3", [0.04, -0.01, 0.02]),
        ("n5", list(rng.normal(0.03, 0.02, 5))),
        ("n6", list(rng.normal(0.03, 0.02, 6))),
        ("n8", list(rng.normal(0.01, 0.02, 8))),
        ("n10", list(rng.normal(0.05, 0.04, 10))),
        ("n15", list(rng.normal(-0.02, 0.03, 15))),
        ("n25", list(rng.normal(0.0, 0.02, 25))),
        ("zeros", [0.0, 0.013, -0.004, 0.0001, 0.021, 0.008, -0.011, 0.017,
                   0.006, 0.019, 0.025, -0.002]),
        ("zeros2", [0.0, 0.0, 0.013, -0.004, 0.021, 0.008, -0.011]),
        ("ties", [0.01, -0.01, 0.02, 0.02, 0.03, -0.02, 0.04, 0.05, 0.01,
                  0.06, 0.02, -0.03]),
        ("ties6", [0.02, 0.02, 0.03, 0.05, 0.01, 0.04]),
        ("n26", list(rng.normal(0.02, 0.03, 26))),
        ("n40", list(rng.normal(-0.005, 0.02, 40))),
        ("ties60", list(np.round(rng.normal(0.01, 0.02, 60), 2))),
    ]
    emit("/*")
    emit(" * One-sample Hodges-Lehmann with the signed-rank interval:")
    emit(" * stats_signrank_shift(d, n, 0.95). cov is the exact coverage,")
    emit(" * NAN where the method is normal.")
    emit(" */")
    emit("struct sv_signrank_shift {")
    emit("\tconst char *name;")
    emit("\tconst double *d;")
    emit("\tsize_t n;")
    emit("\tdouble shift, ci_low, ci_high, cov;")
    emit("\tint exact;")
    emit("};")
    rows = []
    for name, d in cases:
        d = np.asarray(d, dtype=float)
        arr("sv_srs_%s" % name, d)
        n = len(d)
        exact = n <= SIGNRANK_EXACT_MAX and not has_ties(d)
        w = walsh(d)
        shift = np.median(w)
        lo, hi = signrank_by_inversion(d, "exact" if exact else "approx")
        cov = float("nan")
        if exact:
            cdf = np.cumsum(_hypotests._get_wilcoxon_distr(n))
            k = max(int(np.sum(cdf <= ALPHA / 2)) - 1, 0)
            assert w[k] == lo and w[len(w) - k - 1] == hi, name
            cov = 1 - 2 * cdf[k]
        rows.append("\t{ \"%s\", sv_srs_%s, %d, %s, %s, %s, %s, %d }," % (
            name, name, n, fmt(shift), fmt(lo), fmt(hi), fmt(cov), exact))
    emit("static const struct sv_signrank_shift sv_signrank_shifts[] = {")
    for r in rows:
        emit(r)
    emit("};")
    emit()


# --- Holm ---------------------------------------------------------------

def holm(p):
    p = np.asarray(p, dtype=float)
    order = np.argsort(p, kind="stable")
    adj = np.empty_like(p)
    running = 0.0
    for i, j in enumerate(order):
        v = min(1.0, (len(p) - i) * p[j])
        running = max(running, v)
        adj[j] = running
    return adj


def holm_cases():
    cases = [
        ("one", [0.03]),
        ("three", [0.01, 0.04, 0.03]),
        ("ties", [0.02, 0.02, 0.5, 0.001]),
        ("big", [0.9, 0.6, 0.3, 0.012, 0.2, 0.0001, 0.05]),
        ("clip", [0.4, 0.5, 0.7]),
    ]
    emit("/* Holm: stats_holm(p, n) == adj. */")
    emit("struct sv_holm {")
    emit("\tconst char *name;")
    emit("\tconst double *p;")
    emit("\tconst double *adj;")
    emit("\tsize_t n;")
    emit("};")
    rows = []
    for name, p in cases:
        arr("sv_holm_%s_p" % name, p)
        arr("sv_holm_%s_adj" % name, holm(p))
        rows.append("\t{ \"%s\", sv_holm_%s_p, sv_holm_%s_adj, %d }," % (
            name, name, name, len(p)))
    emit("static const struct sv_holm sv_holms[] = {")
    for r in rows:
        emit(r)
    emit("};")
    emit()


# --- Spearman and modified z ---------------------------------------------

def spearman_cases(rng):
    idx = [float(i) for i in range(12)]
    cases = [
        ("drift", idx, [100 + 0.8 * i + v for i, v in
                        enumerate(rng.normal(0, 1, 12))]),
        ("flat", idx, list(rng.normal(100, 1, 12))),
        ("ties", [1.0, 2.0, 2.0, 3.0, 4.0, 4.0, 4.0, 5.0],
         [10.0, 9.0, 11.0, 12.0, 12.0, 14.0, 13.0, 15.0]),
        ("n3", [0.0, 1.0, 2.0], [5.0, 7.0, 6.0]),
        ("n30", [float(i) for i in range(30)],
         list(rng.lognormal(0, 0.1, 30) - np.arange(30) * 0.004)),
    ]
    emit("/* Spearman: stats_spearman(x, y, n) -> rho, p (scipy spearmanr). */")
    emit("struct sv_spearman {")
    emit("\tconst char *name;")
    emit("\tconst double *x;")
    emit("\tconst double *y;")
    emit("\tsize_t n;")
    emit("\tdouble rho, p;")
    emit("};")
    rows = []
    for name, x, y in cases:
        arr("sv_sp_%s_x" % name, x)
        arr("sv_sp_%s_y" % name, y)
        res = stats.spearmanr(x, y)
        rows.append("\t{ \"%s\", sv_sp_%s_x, sv_sp_%s_y, %d, %s, %s }," % (
            name, name, name, len(x), fmt(res.correlation),
            fmt(res.pvalue)))
    emit("static const struct sv_spearman sv_spearmans[] = {")
    for r in rows:
        emit(r)
    emit("};")
    emit()


def modz_cases(rng):
    cases = [
        ("one_out", [100.0, 101.0, 99.5, 100.4, 98.9, 100.2, 131.0, 99.8]),
        ("none", list(rng.normal(50, 1, 15))),
        ("two_sides", [10.0, 10.1, 9.9, 10.05, 9.95, 10.0, 12.0, 8.0,
                       10.02]),
        ("mad0", [7.0, 7.0, 7.0, 7.0, 7.0, 7.5, 9.0]),
    ]
    emit("/* Modified z-scores: stats_modified_z(x, n, 3.5). */")
    emit("struct sv_modz {")
    emit("\tconst char *name;")
    emit("\tconst double *x;")
    emit("\tconst double *mz;")
    emit("\tsize_t n;")
    emit("\tsize_t nr_outliers;")
    emit("};")
    rows = []
    for name, x in cases:
        x = np.asarray(x, dtype=float)
        med = np.median(x)
        mad = stats.median_abs_deviation(x, scale=1.0)
        if mad > 0:
            mz = 0.6745 * (x - med) / mad
        else:
            mz = (x - med) / (1.253314 * np.mean(np.abs(x - med)))
        arr("sv_mz_%s_x" % name, x)
        arr("sv_mz_%s_mz" % name, mz)
        rows.append("\t{ \"%s\", sv_mz_%s_x, sv_mz_%s_mz, %d, %d }," % (
            name, name, name, len(x), int(np.sum(np.abs(mz) > 3.5))))
    emit("static const struct sv_modz sv_modzs[] = {")
    for r in rows:
        emit(r)
    emit("};")
    emit()


# --- distributions -----------------------------------------------------

def distributions():
    emit("/* Distribution helpers: {inputs..., expected}. */")
    emit("static const double sv_norm[][3] = { /* x, cdf, sf */")
    for x in [-38.0, -20.0, -8.5, -3.0, -1.96, -0.5, 0.0, 0.3, 1.0,
              1.6448536269514722, 2.5, 6.0, 9.0]:
        emit("\t{ %s, %s, %s }," % (fmt(x), fmt(stats.norm.cdf(x)),
                                    fmt(stats.norm.sf(x))))
    emit("};")
    emit("static const double sv_normq[][2] = { /* p, quantile */")
    for p in [1e-300, 1e-100, 1e-20, 1e-10, 1e-5, 0.001, 0.01, 0.025, 0.05,
              0.1, 0.3, 0.5, 0.7, 0.9, 0.95, 0.975, 0.99, 0.999,
              0.9999999]:
        emit("\t{ %s, %s }," % (fmt(p), fmt(stats.norm.ppf(p))))
    emit("};")
    emit("static const double sv_binom[][4] = { /* k, n, p, cdf */")
    for k, n, p in [(0, 5, 0.5), (1, 6, 0.5), (2, 10, 0.5), (7, 30, 0.5),
                    (40, 101, 0.5), (3, 20, 0.3), (15, 20, 0.9),
                    (150, 400, 0.5), (9, 10, 0.5)]:
        emit("\t{ %d, %d, %s, %s }," % (k, n, fmt(p),
                                        fmt(stats.binom.cdf(k, n, p))))
    emit("};")
    emit("static const double sv_t[][3] = { /* t, df, sf */")
    for t, df in [(0.0, 5), (1.0, 1), (2.0, 3), (-1.5, 10), (3.5, 28),
                  (8.0, 10), (25.0, 4), (0.2, 100), (-4.0, 2)]:
        emit("\t{ %s, %s, %s }," % (fmt(t), fmt(df), fmt(stats.t.sf(t, df))))
    emit("};")
    emit("static const double sv_betainc[][4] = { /* a, b, x, I */")
    from scipy import special
    for a, b, x in [(0.5, 0.5, 0.3), (2.0, 3.0, 0.4), (5.0, 0.5, 0.9),
                    (14.0, 0.5, 0.2), (1.0, 1.0, 0.77), (30.0, 40.0, 0.45),
                    (0.7, 8.0, 0.01)]:
        emit("\t{ %s, %s, %s, %s }," % (fmt(a), fmt(b), fmt(x),
                                        fmt(special.betainc(a, b, x))))
    emit("};")
    emit("static const double sv_mwu_cdf[][4] = { /* u, m, n, P(U <= u) */")
    for u, m, n in [(0, 3, 3), (2, 4, 4), (23, 10, 10), (12, 7, 9),
                    (127, 20, 20), (200, 20, 20), (5, 2, 19), (30, 5, 20)]:
        cdf = _mannwhitneyu._mwu_state.cdf(np.array([u]), m, n)[0]
        emit("\t{ %d, %d, %d, %s }," % (u, m, n, fmt(cdf)))
    emit("};")
    emit("static const double sv_signrank_cdf[][3] = { /* w, n, P(W+ <= w) */")
    for w, n in [(0, 6), (3, 6), (8, 10), (25, 15), (89, 25), (162, 25),
                 (30, 12)]:
        pmf = _hypotests._get_wilcoxon_distr(n)
        emit("\t{ %d, %d, %s }," % (w, n, fmt(np.sum(pmf[:w + 1]))))
    emit("};")
    emit()


def main():
    rng = np.random.default_rng(20240611)
    emit("/*")
    emit(" * Reference values for test_stats.c, generated by")
    emit(" * tests/unit/gen_stats_vectors.py with scipy %s and numpy %s."
         % (__import__("scipy").__version__, np.__version__))
    emit(" * Do not edit: change the generator and rerun it.")
    emit(" */")
    emit("#ifndef IOTRIAL_STATS_VECTORS_H")
    emit("#define IOTRIAL_STATS_VECTORS_H")
    emit()
    emit("#include <math.h>")
    emit("#include <stddef.h>")
    emit()
    summaries(rng)
    two_samples(rng)
    wilcoxon_cases(rng)
    holm_cases()
    spearman_cases(rng)
    modz_cases(rng)
    distributions()
    signrank_shift_cases()
    emit("#endif")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
