#!/usr/bin/env bash
# The journeys' line checker (lines.py) on made-up lines: each rule must
# trip on a contradiction and pass the same lines made consistent
# (lines_selftest.py). No root and no iotrial run; under a second.
set -u
python3 "$(dirname "$0")/lines.py" --self-test
