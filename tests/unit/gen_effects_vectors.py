#!/usr/bin/python3
"""Write tests/unit/effects_vectors.h: factorial analyses for test_effects.c.

Why: core/stats/effects.c compares, for each factor, the arms that differ
in that factor only (paired by block), Holm-adjusts within the factor,
and tests whether a factor's effect differs between the levels of
another (the signed-rank test on per-block differences of log ratios,
with the ratio of ratios). This script computes what those analyses must
report from scipy 1.10 (Debian's python3-scipy), independently of the C
code: the comparison of two sets of values is gen_analysis_vectors.py's
compare() (ratio and CI as stats_compare() makes them, p from
scipy.stats.wilcoxon or mannwhitneyu), Holm by its definition, the
verdict by the rules of stats.h. The header is committed; rerun it when
those rules change:

    /usr/bin/python3 tests/unit/gen_effects_vectors.py \\
        > tests/unit/effects_vectors.h

The data are made so that the answers are known before they are
computed (a factor that helps by 10% at one level of another and hurts
by 10% at the other is an interaction; an additive one is not); the
script stops if the data do not give them.
"""
import itertools
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_analysis_vectors as ga  # noqa: E402
import gen_stats_vectors as g  # noqa: E402

emit = g.emit
fmt = g.fmt

INTERACTION_NAMES = {"faster": "interaction", "slower": "interaction",
                     "equivalent": "no interaction",
                     "inconclusive": "inconclusive",
                     "no verdict": "no verdict"}


def common(arms):
    """Values of arms[j] in the blocks all have, in arms[0]'s order."""
    out = [[] for _ in arms]
    for v, b in zip(arms[0]["x"], arms[0]["blocks"]):
        idx = [np.nonzero(a["blocks"] == b)[0] for a in arms[1:]]
        if all(len(i) for i in idx):
            out[0].append(v)
            for j, i in enumerate(idx):
                out[j + 1].append(arms[j + 1]["x"][i[0]])
    return [np.asarray(o) for o in out]


def analyse(case):
    o = case["opts"]
    factors, arms = case["factors"], case["arms"]
    nf = len(factors)
    base_levels = arms[case["baseline_arm"]]["levels"]

    def arm_with(a, f, level):
        want = list(arms[a]["levels"])
        want[f] = level
        for b, arm in enumerate(arms):
            if list(arm["levels"]) == want:
                return b
        return None

    effects, effect_of = [], {}
    for f in range(nf):
        first = len(effects)
        for level in range(len(factors[f]["levels"])):
            if level == base_levels[f]:
                continue
            for a, arm in enumerate(arms):
                if arm["levels"][f] != level:
                    continue
                b = arm_with(a, f, base_levels[f])
                if b is None:
                    continue
                e = {"factor": f, "level": level, "arm": a, "base": b}
                if o["paired"]:
                    xb, xa = common([arms[b], arm])
                    e["n"], nb = len(xb), len(xb)
                else:
                    xb, xa = arms[b]["x"], arm["x"]
                    e["n"], nb = len(xa), len(xb)
                e["valid"] = e["n"] >= 2 and nb >= 2
                e["ratio"], e["lo"], e["hi"], e["p"] = ga.compare(
                    xb, xa, o["paired"])
                e["nb"] = nb
                effect_of[(f, a)] = len(effects)
                effects.append(e)
        mine = [e for e in effects[first:] if e["valid"]]
        for e, pa in zip(mine, g.holm([e["p"] for e in mine])):
            e["p_adj"] = pa
            e["verdict"] = ga.verdict(e["lo"], e["hi"], pa, e["n"],
                                      e["nb"], o)
    xs = []
    pairs = itertools.combinations(range(nf), 2) if o["paired"] else []
    for f, gf in pairs:
        for a, arm in enumerate(arms):
            if (f, a) not in effect_of or arm["levels"][gf] == base_levels[gf]:
                continue
            a0 = arm_with(a, gf, base_levels[gf])
            if a0 is None or (f, a0) not in effect_of:
                continue
            ea, eb = effects[effect_of[(f, a0)]], effects[effect_of[(f, a)]]
            v = common([arms[ea["base"]], arms[ea["arm"]],
                        arms[eb["base"]], arms[eb["arm"]]])
            x = {"factor": f, "level": arm["levels"][f], "by": gf,
                 "by_level": arm["levels"][gf],
                 "at_baseline": effect_of[(f, a0)],
                 "at_level": effect_of[(f, a)], "n": len(v[0])}
            x["ratio"], x["lo"], x["hi"], x["p"] = ga.compare(
                v[1] / v[0], v[3] / v[2], True)
            xs.append(x)
    for x, pa in zip(xs, g.holm([x["p"] for x in xs]) if xs else []):
        x["p_adj"] = pa
        x["verdict"] = INTERACTION_NAMES[ga.verdict(
            x["lo"], x["hi"], pa, x["n"], x["n"],
            dict(o, higher_is_better=True))]
    for e, want in zip(effects, case["want_effects"]):
        if e["verdict"] != want:
            raise SystemExit("%s: effect %r is %s, meant %s" % (
                case["name"], e, e["verdict"], want))
    if len(effects) != len(case["want_effects"]):
        raise SystemExit("%s: %d effects" % (case["name"], len(effects)))
    if [x["verdict"] for x in xs] != case["want_interactions"]:
        raise SystemExit("%s: interactions %r, meant %r" % (
            case["name"], xs, case["want_interactions"]))
    return effects, xs


def cases(rng):
    def noise(cv, n):
        return rng.lognormal(0.0, np.sqrt(np.log1p(cv * cv)), n)

    def design(levels, mean, blocks, cv, block_cv, drop=None):
        """Arms of every combination of levels (the last factor fastest),
        mean(levels) their metric, times a per-block factor shared by
        all arms and a per-run noise; drop = (arm, block) leaves a run
        out."""
        block_factor = noise(block_cv, blocks)
        arms = []
        for a, lv in enumerate(itertools.product(
                *[range(len(f["levels"])) for f in levels])):
            order = rng.permutation(blocks)
            x = mean(lv) * block_factor[order] * noise(cv, blocks)
            b = np.asarray(order)
            if drop and drop[0] == a:
                keep = b != drop[1]
                x, b = x[keep], b[keep]
            arms.append({"levels": lv, "x": x, "blocks": b})
        return arms

    opts = {"higher_is_better": True, "paired": True, "alpha": 0.05,
            "margin": 0.02, "conf": 0.95}
    two = [{"name": "sched", "levels": ["none", "mq-deadline"]},
           {"name": "jobs", "levels": ["1", "2"]}]

    # The scheduler helps by 10% at jobs=1 and hurts by 10% at jobs=2;
    # jobs=2 is 1.5x. Blocks differ by 1%.
    eff = {(0, 0): 1.0, (1, 0): 1.10, (0, 1): 1.5, (1, 1): 1.5 * 0.90}
    yield {"name": "crossed", "opts": opts, "factors": two,
           "baseline_arm": 0,
           "arms": design(two, lambda lv: 1000 * eff[lv], 8, 0.005, 0.01),
           "want_effects": ["faster", "slower", "faster", "faster"],
           "want_interactions": ["interaction"]}

    # Additive: +10% at both jobs levels, so no interaction (the ratio of
    # ratios is 1 within 2%). Lower is better here (a latency).
    add = {(0, 0): 1.0, (1, 0): 1.10, (0, 1): 1.5, (1, 1): 1.5 * 1.10}
    yield {"name": "additive", "opts": dict(opts, higher_is_better=False),
           "factors": two, "baseline_arm": 0,
           "arms": design(two, lambda lv: 200 * add[lv], 10, 0.002, 0.01),
           "want_effects": ["slower", "slower", "slower", "slower"],
           "want_interactions": ["no interaction"]}

    # Three levels against two, the baseline arm not the first (rr's
    # baseline level is its second value), one run missing: pairing by
    # block, Holm over four effects of one factor, two interactions.
    three = [{"name": "rr", "levels": ["a", "b", "c"]},
             {"name": "bs", "levels": ["4k", "16k"]}]
    m3 = {(0, 0): 0.95, (1, 0): 1.0, (2, 0): 1.0,
          (0, 1): 2.0 * 0.95, (1, 1): 2.0, (2, 1): 2.0 * 1.2}
    yield {"name": "three", "opts": opts, "factors": three,
           "baseline_arm": 2,
           "arms": design(three, lambda lv: 500 * m3[lv], 9, 0.003, 0.005,
                          drop=(0, 4)),
           "want_effects": ["slower", "slower", "equivalent", "faster",
                            "faster", "faster", "faster"],
           "want_interactions": ["no interaction", "interaction"]}

    # Unpaired (runs from elsewhere): effects by Mann-Whitney, no
    # interactions.
    yield {"name": "unpaired", "opts": dict(opts, paired=False),
           "factors": two, "baseline_arm": 0,
           "arms": design(two, lambda lv: 1000 * eff[lv], 6, 0.005, 0.0),
           "want_effects": ["faster", "slower", "faster", "faster"],
           "want_interactions": []}


def main():
    rng = np.random.default_rng(20261202)
    emit("/*")
    emit(" * Reference factorial analyses for test_effects.c, generated by")
    emit(" * tests/unit/gen_effects_vectors.py with scipy %s and numpy %s."
         % (__import__("scipy").__version__, np.__version__))
    emit(" * Do not edit: change the generator and rerun it.")
    emit(" */")
    emit("#ifndef IOTRIAL_EFFECTS_VECTORS_H")
    emit("#define IOTRIAL_EFFECTS_VECTORS_H")
    emit()
    emit("#include <math.h>")
    emit("#include <stddef.h>")
    emit()
    emit("/* One arm: its levels (up to 4 factors) and runs. */")
    emit("struct ev_arm {")
    emit("\tunsigned levels[4];")
    emit("\tconst double *values;")
    emit("\tconst unsigned *blocks;")
    emit("\tsize_t n;")
    emit("};")
    emit()
    emit("/* An effect or an interaction as the analysis must report it. */")
    emit("struct ev_result {")
    emit("\tunsigned factor, level;")
    emit("\tunsigned arm, base_arm;	     /* effects */")
    emit("\tunsigned by, by_level;	     /* interactions */")
    emit("\tsize_t at_baseline, at_level; /* interactions */")
    emit("\tsize_t n;")
    emit("\tdouble ratio, ci_low, ci_high, p, p_adjusted;")
    emit("\tconst char *verdict;")
    emit("};")
    emit()
    emit("struct ev_case {")
    emit("\tconst char *name;")
    emit("\tconst char *const *factor_names;")
    emit("\tconst char *const *levels; /* each factor's, in a row */")
    emit("\tconst unsigned *nr_levels;")
    emit("\tunsigned nr_factors;")
    emit("\tunsigned baseline_arm;")
    emit("\tconst struct ev_arm *arms;")
    emit("\tunsigned nr_arms;")
    emit("\tint higher_is_better, paired;")
    emit("\tdouble alpha, margin, conf;")
    emit("\tconst struct ev_result *effects;")
    emit("\tsize_t nr_effects;")
    emit("\tconst struct ev_result *interactions;")
    emit("\tsize_t nr_interactions;")
    emit("};")
    emit()
    table = []
    for case in cases(rng):
        effects, xs = analyse(case)
        name = case["name"]
        arm_lines = []
        for i, a in enumerate(case["arms"]):
            g.arr("ev_%s_%d_x" % (name, i), a["x"])
            ga.uarr("ev_%s_%d_blocks" % (name, i), a["blocks"])
            lv = list(a["levels"]) + [0] * (4 - len(a["levels"]))
            arm_lines.append("\t{ { %s }, ev_%s_%d_x, ev_%s_%d_blocks, %d },"
                             % (", ".join(str(v) for v in lv), name, i,
                                name, i, len(a["x"])))
        emit("static const struct ev_arm ev_%s_arms[] = {" % name)
        for line in arm_lines:
            emit(line)
        emit("};")
        emit("static const char *const ev_%s_names[] = { %s };" % (
            name, ", ".join('"%s"' % f["name"] for f in case["factors"])))
        emit("static const char *const ev_%s_levels[] = { %s };" % (
            name, ", ".join('"%s"' % v for f in case["factors"]
                            for v in f["levels"])))
        emit("static const unsigned ev_%s_nr_levels[] = { %s };" % (
            name, ", ".join(str(len(f["levels"])) for f in case["factors"])))

        def row(r, x):
            nan = float("nan")
            return ("\t{ %d, %d, %d, %d, %d, %d, %d, %d, %d, %s, %s, %s, "
                    "%s, %s, \"%s\" }," % (
                        r["factor"], r["level"], r.get("arm", 0),
                        r.get("base", 0), r.get("by", 0),
                        r.get("by_level", 0), r.get("at_baseline", 0),
                        r.get("at_level", 0), r["n"],
                        fmt(r["ratio"] if r["valid"] else nan),
                        fmt(r["lo"] if r["valid"] else nan),
                        fmt(r["hi"] if r["valid"] else nan),
                        fmt(r["p"] if r["valid"] else nan),
                        fmt(r.get("p_adj", nan)),
                        r.get("verdict", x)))
        emit("static const struct ev_result ev_%s_effects[] = {" % name)
        for e in effects:
            emit(row(e, "no verdict"))
        emit("};")
        if xs:
            emit("static const struct ev_result ev_%s_interactions[] = {"
                 % name)
            for x in xs:
                x["valid"] = x["n"] >= 2
                emit(row(x, "no verdict"))
            emit("};")
        emit()
        o = case["opts"]
        table.append(
            "\t{ \"%s\", ev_%s_names, ev_%s_levels, ev_%s_nr_levels, %d, %d, "
            "ev_%s_arms, %d, %d, %d, %s, %s, %s, ev_%s_effects, %d, %s, %d },"
            % (name, name, name, name, len(case["factors"]),
               case["baseline_arm"], name, len(case["arms"]),
               o["higher_is_better"], o["paired"], fmt(o["alpha"]),
               fmt(o["margin"]), fmt(o["conf"]), name, len(effects),
               "ev_%s_interactions" % name if xs else "NULL", len(xs)))
    emit("static const struct ev_case ev_cases[] = {")
    for line in table:
        emit(line)
    emit("};")
    emit()
    emit("#endif")
    sys.stdout.write("\n".join(g.out) + "\n")


if __name__ == "__main__":
    main()
