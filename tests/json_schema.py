#!/usr/bin/env python3
"""Validate JSON documents iotrial wrote against docs/schema/.

usage: json_schema.py SCHEMA_DIR FILE|DIR...

Each FILE (or each file in DIR) holds one JSON document (or JSON lines, one document each).
The schema of a document is picked from what it is: "kind" or "type"
when it has one, else the keys that only that object has. A document
that is no object, has no "schema", or fits no schema file fails too:
every object iotrial prints names its schema and is published. Prints
one line per file, then a last one with how many documents of each
kind fitted, and exits 1 when any failed.

A FILE named *.old.json is a copy IOTRIAL_JSON_LOG_DIR kept of a
document in the shape of an old behaviour (--behaviour=...), which no
schema describes: it must be JSON, and that is all; it counts as "old".
"""
import collections
import json
import os
import sys

from jsonschema import Draft202012Validator

BY_KIND = {"set-plan": "plan", "apply-plan": "plan", "journal": "journal",
           "series": "series", "dry-run": "dry-run"}
BY_TYPE = {"experiment": "experiment", "job_file": "job-run",
           "progress": "progress"}


def kind_of(doc):
    """The schema file's name for doc, or None."""
    if not isinstance(doc, dict):
        return None
    if doc.get("kind") in BY_KIND:
        return BY_KIND[doc["kind"]]
    if doc.get("type") in BY_TYPE:
        return BY_TYPE[doc["type"]]
    if "experiments" in doc:
        return "log"
    if "knobs" in doc and "unavailable" in doc:
        return "knobs"
    if "like_for_like" in doc:
        return "diff"
    if "r_s" in doc and "util_pct" in doc:
        return "watch"
    if "workload" in doc and "latency_ns" in doc:
        return "run"
    if "hostname" in doc and "kernel_release" in doc:
        return "info"
    return None


def documents(path):
    """The documents of path: one, or one per line."""
    text = open(path, encoding="utf-8").read()
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    schema_dir = sys.argv[1]
    validators = {}
    for name in sorted(os.listdir(schema_dir)):
        if name.endswith(".schema.json"):
            s = json.load(open(os.path.join(schema_dir, name)))
            Draft202012Validator.check_schema(s)
            validators[name[:-len(".schema.json")]] = Draft202012Validator(s)
    bad = 0
    counts = collections.Counter()
    paths = []
    for arg in sys.argv[2:]:
        if os.path.isdir(arg):
            paths += [os.path.join(arg, n) for n in sorted(os.listdir(arg))]
        else:
            paths.append(arg)
    for path in paths:
        problems = []
        kinds = collections.Counter()
        try:
            docs = documents(path)
        except (OSError, ValueError) as e:
            docs, problems = [], ["not JSON: %s" % e]
        if not docs and not problems:
            problems = ["no document in it"]
        for doc in docs:
            if path.endswith(".old.json"):
                kinds["old"] += 1
                continue
            kind = kind_of(doc)
            if kind is None or kind not in validators:
                problems.append("no schema in %s fits it (%s)" % (
                    schema_dir, "an array" if isinstance(doc, list)
                    else "keys: " + ",".join(list(doc)[:6])
                    if isinstance(doc, dict) else type(doc).__name__))
                continue
            kinds[kind] += 1
            for e in validators[kind].iter_errors(doc):
                where = "/".join(str(p) for p in e.absolute_path) or "(top)"
                problems.append("%s: %s: %s" % (kind, where, e.message))
        if problems:
            bad += 1
            print("invalid %s" % path)
            for p in problems[:10]:
                print("    %s" % p)
        else:
            counts.update(kinds)
            print("valid %s (%s)" % (path, ",".join(sorted(kinds))))
    print("%d valid documents in %d files: %s" % (
        sum(counts.values()), len(paths) - bad,
        " ".join("%s=%d" % kv for kv in sorted(counts.items()))))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
