#!/usr/bin/env bash
# A misspelled option is answered with the option that was meant, for
# every command and every long option its --help lists (the workload
# parameters of run and compare included): the option with a letter
# dropped, and with two neighbouring letters swapped, must fail with
# "unknown option 'X' for 'CMD'; did you mean 'Y'?" and exit 2.
#
# Y is the option that was misspelled, or another one exactly as near.
# Nearness is the edit distance the program uses (a letter inserted,
# dropped or changed counts 1, so a swap counts 2; a misspelling that
# begins another option, of 3 or more characters, is 1 from it). On a
# tie the program names the option listed first in the command's table,
# and run and compare list the workload's parameters first: 'run --d'
# (from --db) suggests '--direct'. A swap that lands nearer to another
# option than to its own ('--bd' is one letter from '--bs') is not a
# misspelling of it; the next pair of letters is swapped instead.
# parallel: its own files, directory and store; nothing machine-wide
. "$(dirname "$0")/lib.sh"

python3 - "$IOTRIAL" <<'PY'
import re, subprocess, sys

iotrial = sys.argv[1]
failed = False
checks = ties = 0


def report(ok, name, detail=""):
    global failed, checks
    checks += 1
    print(("ok - " if ok else "not ok - ") + name)
    if not ok:
        failed = True
        if detail:
            print("    " + detail)


def run(*args):
    p = subprocess.run([iotrial, *args], capture_output=True, text=True,
                       timeout=60)
    return p.returncode, p.stdout, p.stderr


def distance(a, b):
    """Edit distance: insertions, deletions, substitutions cost 1."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1,
                                       prev + (ca != cb))
    return row[len(b)]


def nearness(word, option):
    d = distance(word, option)
    if len(word) >= 3 and option.startswith(word) and d > 1:
        return 1  # a beginning of the option is a strong hint
    return d


def nearest(word, options):
    best = min(nearness(word, o) for o in options)
    return {o for o in options if nearness(word, o) == best}


def dropped(name):
    """The option with the letter in the middle of its name dropped."""
    k = len(name) // 2
    return '--' + name[:k] + name[k + 1:]


def swapped(name, options):
    """The option with two neighbouring letters swapped, from the middle
    out, such that it is still nearest to the option meant."""
    mid = max(len(name) // 2 - 1, 0)
    for k in sorted(range(len(name) - 1), key=lambda k: abs(k - mid)):
        if name[k] == name[k + 1]:
            continue
        word = '--' + name[:k] + name[k + 1] + name[k] + name[k + 2:]
        if word not in options and '--' + name in nearest(word, options):
            return word
    return None


rc, out, _ = run('--help')
commands = re.findall(r'^  ([a-z]+) ', out.split('commands:')[1], re.M)
report(rc == 0 and len(commands) >= 10, "'iotrial --help' lists the commands")

total = 0
for cmd in commands + ['help']:
    pos = ['randread'] if cmd in ('compare', 'tune', 'bisect') else []
    rc, text, err = run(cmd, *pos, '--help')
    # the option lines: "  -t, --target TARGET   help", "  --json"
    names = re.findall(r'^  (?:-[A-Za-z], )?--([a-z][a-z0-9_-]*)', text, re.M)
    options = ['--' + n for n in names]
    report(rc == 0 and (options or cmd == 'help'),
           "'%s --help' lists its options" % cmd, err)
    total += len(options)
    for name in names:
        for how, word in (('dropped', dropped(name)),
                          ('swapped', swapped(name, options))):
            if word is None or word in options:
                continue  # nothing to misspell this way
            rc, _, err = run(cmd, *pos, word)
            m = re.search(r"unknown option '%s' for '%s'; did you mean "
                          r"'(--[a-z0-9_-]+)'\?" % (re.escape(word), cmd), err)
            near = nearest(word, options)
            got = m.group(1) if m else None
            if got and got != '--' + name and got in near:
                ties += 1
                print("# %s %s: '%s' is as near as '--%s'" %
                      (cmd, word, got, name))
            report(rc == 2 and got in near,
                   "%s %s (a letter %s from --%s): suggests %s" %
                   (cmd, word, how, name, ' or '.join(sorted(near))),
                   "exit %d: %s" % (rc, err.strip()))

# the run's parameters and the options of every command are all there
report(total >= 70, "the help of the commands lists %d options" % total)
print("# %d checks, %d answered with another option as near" % (checks, ties))
sys.exit(1 if failed else 0)
PY
