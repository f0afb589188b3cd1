#!/usr/bin/env bash
# Typed options: a value is parsed where it is given, and an error names
# the option and says what was wrong with the value; a value-taking
# option does not take the next option as its value ('--vary -t /x');
# an on/off parameter takes "--NAME VALUE" as help says ('--fsync
# close' is refused as not on or off, not as an "unexpected argument").
# Then, for every command and every typed row its table has (as
# 'iotrial help --options CMD' prints them): --help states the default
# and the range, the default, the choices and both bounds are accepted
# (unless excluded), a value of
# another kind is refused naming the option (an excluded bound with the
# range), and the manual's item for
# the option states the same default and bounds.
# parallel: its own files, directory and store; nothing machine-wide
. "$(dirname "$0")/lib.sh"

dir=$TEST_TMP/target
mkdir -p "$dir"
USAGE_DIR=$dir

# an option after a value-taking option is not its value
expect_usage "--vary -t: --vary needs a value" \
	"^error: --vary needs a value \(FACTOR=V1,V2\[,\.\.\.\]\); '-t' is an option \(write --vary=-t if it is the value\)$" \
	compare seqread --vary -t "$dir"
expect_usage "--time -t: --time needs a value" \
	"^error: --time needs a value \(DURATION\); '-t' is an option" \
	run seqread --time -t "$dir"
expect_usage "-t --time: -t needs a value" \
	"^error: -t needs a value \(TARGET\); '--time' is an option \(write -t--time" \
	run seqread -t --time 1s
expect_usage "a value-taking option last" "^error: --ramp needs a value \(DURATION\)$" \
	run seqread -t "$dir" --ramp

# on/off parameters: "--NAME VALUE" as help says
expect_usage "--fsync close: what is wrong with the value" \
	"^error: --fsync: 'close' is not on or off \(say 1, 0, yes, no, on, off\); --fsync alone is 1$" \
	run crashdump -t "$dir" --fsync close
out=$("$IOTRIAL" help run crashdump)
check "crashdump's help says --NAME VALUE works" grep -q -- "--NAME=VALUE or --NAME VALUE" <<<"$out"
for form in "--fsync 0" "--fsync=0" "--fsync no" "--fsync"; do
	# shellcheck disable=SC2086 # the form is two words or one
	"$IOTRIAL" run crashdump $form -t "$dir" --help >/dev/null 2>"$TEST_TMP/err"
	check "crashdump accepts '$form'" test $? = 0 -a ! -s "$TEST_TMP/err"
done
for form in "--bs 8k" "--bs=8k"; do
	# shellcheck disable=SC2086
	"$IOTRIAL" run seqread $form -t "$dir" --help >/dev/null 2>"$TEST_TMP/err"
	check "seqread accepts '$form'" test $? = 0 -a ! -s "$TEST_TMP/err"
done

# what was wrong with the value, naming the option
expect_usage "--time 5x: not a duration" "^error: --time: invalid duration '5x': unknown unit 'x'" \
	run seqread -t "$dir" --time 5x
expect_usage "--time 0: too short, with the range" "^error: --time: '0' is too short; it takes 1ms or more$" \
	run seqread -t "$dir" --time 0
expect_usage "--runs 0: the range" "^error: --runs: '0' is too small; it takes 1\.\.10000$" \
	compare seqread -t "$dir" --vary bs=4k,8k --runs 0
expect_usage "--runs autoo: a number or auto" "^error: --runs: invalid count 'autoo'.*; or 'auto'$" \
	compare seqread -t "$dir" --vary bs=4k,8k --runs autoo
expect_usage "--precision 100%: an open range" \
	"^error: --precision: '100%' is too large; it takes more than 0% and less than 100%$" \
	compare seqread -t "$dir" --vary bs=4k,8k --precision 100%
expect_usage "--max-arms 5000" "^error: --max-arms: '5000' is too large; it takes 1\.\.4096$" \
	compare seqread -t "$dir" --vary bs=4k,8k --max-arms 5000
expect_usage "--memory-limit 0" "^error: --memory-limit: invalid size '0'" \
	run seqread -t "$dir" --memory-limit 0
expect_usage "import --metric iop: did you mean" \
	"^error: --metric: 'iop' is not one of iops, mbps; did you mean 'iops'\?$" \
	import --metric iop x.json
expect_usage "watch -i 5ms: named as written" "^error: -i: '5ms' is too short; it takes 10ms or more$" \
	watch -i 5ms
expect_usage "watch --interval 5ms" "^error: --interval: '5ms' is too short; it takes 10ms or more$" \
	watch --interval 5ms
"$IOTRIAL" compare seqread -t "$dir" --vary bs=4k,8k --precision 0.01 --help \
	>/dev/null 2>"$TEST_TMP/err"
check "a percent without % gets a note" grep -q "note: --precision 0.01 is read as 0.01%" "$TEST_TMP/err"
"$IOTRIAL" run seqread -t "$dir" --time 2 --help >/dev/null 2>"$TEST_TMP/err"
check "a duration without unit gets a note" grep -q "note: --time 2 has no unit and is read as seconds" "$TEST_TMP/err"

# every typed row of every command: help, parser and manual agree
# the manual as the program under test makes it from its template
"$IOTRIAL" help --man <"$IOTRIAL_SRC/docs/iotrial.1.in" >"$TEST_TMP/iotrial.1"
python3 - "$IOTRIAL" "$TEST_TMP/iotrial.1" <<'PY'
import re, subprocess, sys

iotrial, man_path = sys.argv[1:3]
failed = False
typed = ('duration', 'size', 'count', 'percent', 'onoff', 'choice')


def report(ok, name, detail=""):
    global failed
    print(("ok - " if ok else "not ok - ") + name)
    if not ok:
        failed = True
        if detail:
            print("    " + detail)


def run(*args):
    p = subprocess.run([iotrial, *args], capture_output=True, text=True,
                       timeout=60)
    return p.returncode, p.stdout, p.stderr


def deroff(line):
    line = re.sub(r'\\f[BIRP]|\\&|\\c', '', line)
    line = line.replace('\\-', '-').replace('\\(+-', '+-')
    if line.startswith('.'):
        m = re.match(r'^\.[A-Z]+\s*(.*)$', line)
        line = m.group(1).replace('"', '') if m else ''
    return line


# the manual's items: (command, option) -> the text of its .TP item
items, cmd, tag, text = {}, None, None, []
lines = open(man_path).read().split('\n')
for i, line in enumerate(lines):
    if line.startswith('.SS ') or line.startswith('.SH '):
        cmd = line[4:].strip('"') if line.startswith('.SS ') else None
    if line == '.TP' or line.startswith('.S'):
        if tag:
            for opt in re.findall(r'--[a-z][a-z0-9_-]*', tag):
                items.setdefault((tag_cmd, opt), ' '.join(text))
        tag = None
    if line == '.TP' and i + 1 < len(lines):
        tag, tag_cmd, text = deroff(lines[i + 1]), cmd, []
    elif tag and deroff(line) != tag:
        text.append(deroff(line))

rc, out, _ = run('--help')
cmds = re.findall(r'^  ([a-z]+) ', out.split('commands:')[1], re.M)
rows = 0
for cmd in cmds:
    pos = ['randread'] if cmd in ('compare', 'tune', 'bisect') else []
    rc, dump, err = run('help', '--options', cmd, *pos)
    report(rc == 0 and dump.startswith('--'),
           "'iotrial help --options %s' lists its options" % cmd, err)
    _, help_text, _ = run(cmd, *pos, '--help')
    help_flat = re.sub(r'\s+', ' ', help_text)
    for line in dump.splitlines():
        name, kind, argh, dflt, lo, hi, choices, is_open = line.split('\t')
        if kind not in typed:
            continue
        rows += 1
        what = "%s %s" % (cmd, name)
        m = re.search(r'(?:^|\n)  (?:-\w, )?' + re.escape(name) +
                      r'\b[^\n]*(?:\n {20,}[^\n]*)*', help_text)
        said = re.sub(r'\s+', ' ', m.group(0)) if m else ''
        want = [w for w in ('default ' + dflt if dflt != '-' else None,
                            lo if lo != '-' else None,
                            hi if hi != '-' else None) if w]
        report(m and all(w in said for w in want),
               "%s: --help says %s" % (what, ', '.join(want) or 'it'),
               said)
        bounds = [lo, hi] if is_open == '-' else []
        for v in [dflt] + bounds + (choices.split('|') if choices != '-'
                                    else []):
            if v == '-':
                continue
            rc, _, err = run(cmd, *pos, name, v, '--help')
            report(rc == 0 and not err.startswith('error'),
                   "%s %s is accepted" % (what, v), err.strip())
        for v in ([lo, hi] if is_open == 'open' else []):
            if v == '-':
                continue
            rc, _, err = run(cmd, *pos, name, v, '--help')
            report(rc == 2 and 'it takes more than' in err,
                   "%s %s (an open bound) is refused with the range" %
                   (what, v), err.strip())
        rc, _, err = run(cmd, *pos, name, 'x%', '--help')
        report(rc == 2 and err.startswith('error: %s: ' % name),
               "%s x%% is refused, naming the option" % what, err.strip())
        doc = items.get((cmd, name))
        report(doc is not None, "%s has an item in the manual" % what)
        if doc is not None:
            missing = [w for w in want if w not in doc]
            report(not missing, "%s: the manual says %s" %
                   (what, ', '.join(want) or 'it'),
                   "missing %s in: %s" % (missing, doc[:300]))
report(rows >= 20, "typed rows were found (%d)" % rows)
sys.exit(1 if failed else 0)
PY
