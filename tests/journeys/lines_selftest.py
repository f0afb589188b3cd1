#!/usr/bin/env python3
"""The self-test of lines.py: every rule gets lines that must trip it
(a contradiction iotrial printed, or could print) and the same lines
made consistent, which must not; some rules get more cases. Run by
tests/journeys/checker.sh as `lines.py --self-test`.
"""
import json

from transcript import Facts, Step, docs_of


def S(args, out="", err="", rc=0, files=None):
    """A step: args as a string of words or a list."""
    return Step(args.split() if isinstance(args, str) else args, out, err, rc,
                files)


TABLE2 = """experiment 0123abcd: seqread on /srv, mbps (higher is better)
6 blocks, seed 1, stopped: fixed run count

arm                      median  95% CI            cv       n  ratio [95% CI]         p       verdict
scheduler=none           200     [190, 210]        3.0%     6  baseline
scheduler=mq-deadline    230     [220, 240]        3.0%     6  @@
"""

EFFECTS = """experiment 0123abcd: crashdump on scratch:1G:ext4, dumps_per_min (higher is better)
4 blocks, seed 1, stopped: fixed run count

effect                   ratio [95% CI]         p       verdict
read_ahead_kb=4096s vs read_ahead_kb=128
  at atime=relatime      2.505 [1.177, 5.374]   @@   inconclusive
atime=noatime vs atime=relatime
  at read_ahead_kb=128   1.627 [1.166, 2.377]   0.375   inconclusive

every arm against the baseline arm:
arm                                              median  95% CI            cv       n  ratio [95% CI]         p       verdict
read_ahead_kb=128 atime=relatime                 6463    [2491, 14.4k]     70.7%    4  baseline
read_ahead_kb=128 atime=noatime                  12k     [2904, 23.7k]     68.2%    4  1.627 [1.166, 2.377]   0.375   inconclusive*
read_ahead_kb=2048 (asked: 4096s) atime=relatime 15.3k   [13.4k, 17k]      10.0%    4  2.505 [1.177, 5.374]   0.375   inconclusive*
"""


def t2(row):
    """TABLE2 with the second arm's row ending in row."""
    return TABLE2.replace("@@", row)


def eff(p):
    """EFFECTS with p for the first effect."""
    return EFFECTS.replace("@@", p)


def exp_json(ratio, verdict="faster", effect_p=None):
    """TABLE2's experiment as JSON, with the arm's ratio and verdict; with
    effect_p, an effect of the same comparison with that p."""
    return json.dumps({
        "schema": "iotrial/1", "type": "experiment", "id": "0123abcd",
        "metric": {"name": "mbps", "higher_is_better": True},
        "equivalence": 0.02, "baseline": 0,
        "arms": [{"arm": 0, "label": "scheduler=none", "n": 6,
                  "settings": {"scheduler": "none"}},
                 {"arm": 1, "label": "scheduler=mq-deadline", "n": 6,
                  "settings": {"scheduler": "mq-deadline"}}],
        "verdicts": [{"arm": 1, "label": "scheduler=mq-deadline",
                      "baseline": "scheduler=none", "ratio": ratio,
                      "ci_low": 1.1, "ci_high": 1.2, "p": 0.03,
                      "p_adjusted": 0.03, "verdict": verdict}],
        "effects": [] if effect_p is None else [
            {"factor": "scheduler", "level": "mq-deadline",
             "baseline_level": "none", "within": {}, "arm": 1,
             "baseline_arm": 0, "ratio": ratio, "ci_low": 1.1,
             "ci_high": 1.2, "p": effect_p, "p_adjusted": effect_p,
             "verdict": verdict}]})


def self_test(rules):
    """Each of rules (lines.RULES) on a case that must trip it and one
    that must not; a TAP line each; True when all went as they must."""
    cases = {
        "memory": (
            [S("run seqread -t scratch:1G", err="warning: reads measured the "
               "page cache, not the device: the workload read 1.64 GiB but "
               "'loop0' delivered 1.66 GiB (101.0%), so at least 39.0% came "
               "from memory; it read ...")],
            [S("run seqread -t scratch:1G", err="warning: reads measured the "
               "page cache, not the device: the workload read 199 MiB but "
               "'loop3' delivered 64 MiB (32.1%), so 67.9% came from memory")]),
        "verdict": (
            [S("show 0123abcd", out=t2("1.150 [0.980, 1.300]   0.031   faster"))],
            [S("show 0123abcd", out=t2("1.150 [1.100, 1.200]   0.031   faster"))]),
        "p": (
            [S("show 0123abcd", out=eff("0.250"))],
            [S("show 0123abcd", out=eff("0.375"))]),
        "advice": (
            [S(["run", "mmapdirty", "-t", "scratch:1G:ext4"], rc=2,
               err="error: mmapdirty maps a file: give a directory (or "
               "scratch:SIZE:ext4) as the target, not 'scratch:1G:ext4'")],
            [S(["run", "mmapdirty", "-t", "scratch:1G"], rc=2,
               err="error: mmapdirty maps a file: give a directory (or "
               "scratch:SIZE:ext4) as the target, not 'scratch:1G'")]),
        "units": (
            [S(["set", "--device", "loop7", "read_ahead_kb=4096s"],
               out="plan: 1 change\n  1. 'read_ahead_kb' on 'loop7': 128 KiB "
               "(blockdev --setra 256) -> 4096 KiB (blockdev --setra 8192)")],
            [S(["set", "--device", "loop7", "read_ahead_kb=4096s"],
               out="plan: 1 change\n  1. 'read_ahead_kb' on 'loop7': 128 KiB "
               "(blockdev --setra 256) -> 2048 KiB (2 MiB; blockdev --setra "
               "4096)")]),
        "ratios": (
            [S(["compare", "seqread", "--json=/x.json"],
               out=t2("1.150 [1.100, 1.200]   0.030   faster"),
               files={"/x.json": exp_json(1.25)})],
            [S(["compare", "seqread", "--json=/x.json"],
               out=t2("1.150 [1.100, 1.200]   0.030   faster"),
               files={"/x.json": exp_json(1.1504)})]),
        "counts": (
            [S("show 0123abcd", out=t2("1.150 [1.100, 1.200]   0.030   "
               "faster*" + "\n* scheduler=mq-deadline: runs too short to "
               "trust (7 of 7 runs of the arm, 6 of 6 of the baseline "
               "'scheduler=none')\n"))],
            [S("show 0123abcd", out=t2("1.150 [1.100, 1.200]   0.030   "
               "faster*" + "\n* scheduler=mq-deadline: runs too short to "
               "trust (6 of 6 runs of the arm, 6 of 6 of the baseline "
               "'scheduler=none')\n"))]),
        "legacy": (
            [S("knobs -t /srv", out="scheduler                    none\n"
               "    allowed: none mq-deadline kyber\n    legacy names: cfq "
               "deadline noop\n    note: legacy names are translated: cfq -> "
               "bfq, deadline -> mq-deadline, noop -> none\n")],
            [S("knobs -t /srv", out="scheduler                    none\n"
               "    allowed: none mq-deadline kyber bfq\n    legacy names: cfq "
               "deadline noop\n    note: legacy names are translated: cfq -> "
               "bfq, deadline -> mq-deadline, noop -> none\n")]),
    }
    extra = {  # more cases a rule must get right, (steps, must trip)
        "verdict": [
            ([S("show 0123abcd", out=t2("1.050 [1.030, 1.070]   0.300   equivalent"))], True),
            ([S("show 0123abcd", out=t2("1.005 [0.990, 1.015]   0.300   inconclusive"))], True),
            ([S("show 0123abcd", out=t2("1.005 [0.990, 1.015]   0.300   equivalent"))], False),
            ([S("show 0123abcd", out=(t2("0.800 [0.700, 0.900]   0.030   "
                                      "faster").replace("higher", "lower")))], False),
        ],
        "memory": [
            ([S("run seqread -t /srv", out="  read: 1.03 GiB by the workload, "
                "1.03 GiB from 'loop1'; from the page cache: 0%",
                err="warning: reads measured the page cache, not the device: "
                "the workload read 1.03 GiB but 'loop1' delivered 900 MiB "
                "(85.0%), so at least 14.0% came from memory")], True),
        ],
        "advice": [
            ([S(["run", "smallfiles", "-t", "scratch:1G"], rc=2,
                err="error: smallfiles works on files: give a directory or "
                "scratch:SIZE as the target, not '/dev/loop3'")], True),
            ([S(["run", "smallfiles", "-t", "scratch:1G"], rc=2,
                err="error: smallfiles works on files: give a directory or "
                "scratch:SIZE:ext4 as the target, not '/dev/loop3'")], False),
        ],
        "units": [
            ([S(["compare", "crashdump", "--vary", "read_ahead_kb=128,4096s"],
                out="ACTION==\"add|change\", KERNEL==\"loop2\", "
                "ATTR{queue/read_ahead_kb}=\"4096\"")], True),
            ([S(["compare", "crashdump", "--vary", "read_ahead_kb=128,4096s"],
                out="[ \"$(cat x)\" = '4096' ] || echo '4096' > "
                "'/sys/block/loop2/queue/read_ahead_kb'")], True),
        ],
        "ratios": [
            ([S(["compare", "seqread", "--json=/x.json"],
                out=t2("1.150 [1.100, 1.200]   0.030   faster"),
                files={"/x.json": exp_json(1.1504, "inconclusive")})], True),
            ([S(["compare", "seqread", "--strict", "--json=/x.json"],
                out=t2("1.150 [1.100, 1.200]   0.030   suspect*"),
                files={"/x.json": exp_json(1.1504, "suspect")}),
              S("show 0123abcd", out=t2("1.150 [1.100, 1.200]   0.030   "
                                        "suspect"))], False),
            ([S("report 0123abcd --format md",
                out="## iotrial experiment 0123abcd: seqread on `/srv`\n\n"
                "| arm | median | 95% CI | cv | n | ratio (95% CI) | p | "
                "verdict |\n|---|\n| scheduler=none | 200 | 190 – 210 | 3.0% "
                "| 6 |  |  | baseline |\n| scheduler=mq\\-deadline | 230 | "
                "220 – 240 | 3.0% | 6 | 1.250 (1.100 – 1.200) | 0.030 | "
                "**faster** |\n"),
              S("show 0123abcd", out=t2("1.150 [1.100, 1.200]   0.030   "
                                        "faster"))], True),
            ([S("report 0123abcd --format html", out="<html><body><p>"
                "experiment 0123abcd</p><table><tr><th>arm</th><th>median"
                "</th><th>95% CI</th><th>cv</th><th>n</th><th>ratio [95% CI]"
                "</th><th>p</th><th>verdict</th></tr><tr><td>scheduler=none"
                "</td><td>200</td><td>190 – 210</td><td>3.0%</td><td>6</td>"
                "<td></td><td></td><td>baseline</td></tr><tr><td>scheduler="
                "mq-deadline</td><td>230</td><td>220 – 240</td><td>3.0%</td>"
                "<td>6</td><td>1.350 [1.100, 1.200]</td><td>0.030</td><td>"
                "faster</td></tr></table></body></html>"),
              S("show 0123abcd", out=t2("1.150 [1.100, 1.200]   0.030   "
                                        "faster"))], True),
        ],
        "p": [
            ([S(["compare", "seqread", "--json=/x.json"],
                files={"/x.json": exp_json(1.15, effect_p=0.02)})], True),
            ([S(["compare", "seqread", "--json=/x.json"],
                files={"/x.json": exp_json(1.15, effect_p=0.03)})], False),
            # two families, said so: the reader is told why they differ
            ([S("show 0123abcd", out=eff("0.250") +
                "p is Holm-adjusted within each factor, over its own "
                "effects (1 of read_ahead_kb, 1 of atime); the arm table "
                "adjusts over its 2 comparisons with the baseline, so a "
                "pair of arms compared in both tables has two p values: "
                "at atime=relatime (raw p 0.125): 0.250 here, 0.375 in the "
                "arm table\n")], False),
            ([S("show 0123abcd", out=eff("0.250") +
                "... so a pair of arms compared in both tables has two p "
                "values: at atime=relatime (raw p 0.125): 0.250 here, 0.500 "
                "in the arm table\n")], True),
        ],
        "counts": [
            ([S("show 0123abcd", out=t2("1.150 [1.100, 1.200]   0.030   "
                                        "faster"),
                err="warning: arm 'scheduler=none': 8 of 8 runs warned, "
                "e.g.: the run was too short to trust")], True),
            ([S("show 0123abcd", out=t2("1.150 [1.100, 1.200]   0.030   "
                                        "faster"),
                err="warning: arm 'scheduler=none': 2 run(s) are outliers "
                "(modified z > 3.5)")], False),
        ],
        "legacy": [
            ([S("knobs -t /srv --json", out=json.dumps({"knobs": [{
                "name": "scheduler", "allowed": "none mq-deadline kyber",
                "notes": ["legacy names are translated: cfq -> bfq, "
                          "deadline -> mq-deadline, noop -> none"]}]}))],
             True),
        ],
    }
    extra["units"] += [  # the disk under a loop device has its own value
        ([S(["info", "-t", "/srv"], out="devices\n  loop2 (loop): 256 MiB\n"
            "    scheduler none, read_ahead_kb 2048, nr_requests 128\n"
            "    vda (disk, holds the backing file of loop2): 256 GiB\n"
            "      scheduler mq-deadline, read_ahead_kb 4096, nr_requests "
            "256\n"),
          S(["set", "--device", "loop2", "read_ahead_kb=4096s"])], False),
        ([S(["info", "-t", "/srv"], out="devices\n  loop2 (loop): 256 MiB\n"
            "    scheduler none, read_ahead_kb 4096, nr_requests 128\n"),
          S(["set", "--device", "loop2", "read_ahead_kb=4096s"])], True),
    ]
    extra["advice"] += [
        ([S(["export", "0123abcd", "--arm", "scheduler=none", "--format",
             "udev"], rc=2, err="error: no winner; name an arm with --arm "
            "'scheduler=none'")], True),
    ]
    ok = True
    for key, desc, fn in rules:
        trip, clean = cases[key]
        runs = [(trip, True, "trips on a contradiction"),
                (clean, False, "passes the same lines made consistent")]
        runs += [(s, t, "extra case %d %s" % (i + 1, "trips" if t else
                                               "passes"))
                 for i, (s, t) in enumerate(extra.get(key, []))]
        for steps, want, what in runs:
            docs = docs_of(steps)
            got = fn(steps, docs, Facts(docs))
            if bool(got) == want:
                print("ok - self-test %s: %s" % (key, what))
            else:
                ok = False
                print("not ok - self-test %s: %s (found: %s)" % (
                    key, what, got or "nothing"))
    return ok
