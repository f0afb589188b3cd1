#!/usr/bin/env bash
# The manual (docs/iotrial.1, made from docs/iotrial.1.in) agrees with
# the program, and its option lists are made from the option rows: every command in
# the command table has its section; every long option a command's
# --help names appears in that section, and every option the section
# lists is accepted by the command (probed as 'CMD OPT VALUE --help',
# which parses OPT and stops at --help); every workload and parameter,
# every knob 'iotrial knobs --json' lists and every name in the knob
# families' tables, every exit code and environment variable the code
# uses is documented. 'iotrial help CMD' prints what 'CMD --help' does.
# The page itself renders without warnings.
# parallel: reads the source tree and the manual only
. "$(dirname "$0")/lib.sh"

# The page is made from docs/iotrial.1.in by the program under test
# ('iotrial help --man', src/cli/manpage.h), as make makes docs/iotrial.1.
TEMPLATE=$IOTRIAL_SRC/docs/iotrial.1.in
MAN=$TEST_TMP/iotrial.1
[ -f "$TEMPLATE" ] || { fail "docs/iotrial.1.in exists"; exit 1; }
if "$IOTRIAL" help --man <"$TEMPLATE" >"$MAN" 2>"$TEST_TMP/man.err"; then
	ok "'iotrial help --man' makes the page from its template"
else
	fail "'iotrial help --man' makes the page from its template"
	cat "$TEST_TMP/man.err"
	exit 1
fi
# a page make wrote earlier is the same page: nobody edited it by hand
# and it is not older than its template or the program
if [ -f "$IOTRIAL_SRC/docs/iotrial.1" ]; then
	check "docs/iotrial.1 is what its template makes (run make)" \
		cmp -s "$MAN" "$IOTRIAL_SRC/docs/iotrial.1"
fi
check "docs/iotrial.1 is not checked in (make writes it)" \
	bash -c '! git -C "$1" ls-files --error-unmatch docs/iotrial.1 \
		>/dev/null 2>&1' _ "$IOTRIAL_SRC"

# The generator itself, on small templates: an item without prose gets
# its row's help with the default and range; a row no item names is
# listed all the same; the tag comes from the row (short name, value).
gen() { "$IOTRIAL" help --man >"$TEST_TMP/gen.1" 2>"$TEST_TMP/gen.err"; }
printf '%s\n' '.TH T 1' '.SS watch' "text before" '.\" @options watch' \
	'.\" @option --interval' '.\" @option --count -n' 'Hand prose.' \
	'.\" @end' "text after" | gen
check "a small template is made into a page" test $? = 0
check "an item without prose: the row's help, default and range" \
	grep -qx 'Time between lines (default 1s, 10ms or more).' \
	"$TEST_TMP/gen.1"
check "the tag comes from the row: short name and value" \
	grep -qxF '\fB\-i\fR, \fB\-\-interval\fR \fIDURATION\fR' \
	"$TEST_TMP/gen.1"
check "items join the rows they name; a hidden row when named" \
	grep -qxF '\fB\-c\fR, \fB\-\-count\fR \fIN\fR, \fB\-n\fR \fIN\fR' \
	"$TEST_TMP/gen.1"
check "an item's prose is kept" grep -qx 'Hand prose.' "$TEST_TMP/gen.1"
check "a row no item names is listed, from its help" \
	grep -qxF '\fB\-\-json\fR[\fB=\fR\fIFILE\fR]' "$TEST_TMP/gen.1"
check "the text around the list is kept, the markers are not" bash -c \
	'grep -qx "text before" "$1" && grep -qx "text after" "$1" &&
	! grep -q "@option" "$1"' _ "$TEST_TMP/gen.1"
check "the page says it is generated and from what" \
	grep -q '^\.\\" Generated from docs/iotrial.1.in' "$TEST_TMP/gen.1"

# what the generator refuses, naming the template's line
refused() {
	local name=$1 want=$2
	shift 2
	printf '%s\n' "$@" | gen
	check "$name (exit 1)" test $? = 1
	check "$name: the error says '$want'" grep -qF "$want" "$TEST_TMP/gen.err"
}
refused "an option the command lacks" "line 3: '--nosuch' is no option of 'iotrial watch'" \
	'.SS watch' '.\" @options watch' '.\" @option --nosuch' '.\" @end'
refused "an option given two items" "line 4: '--csv' of 'iotrial watch' has an item already" \
	'.\" @options watch' '.\" @option --csv' 'a' '.\" @option --csv' '.\" @end'
refused "a workload parameter in a command's list" "'--bs' is no option of 'iotrial run'" \
	'.\" @options run' '.\" @option --bs' '.\" @end'
refused "a hand-written .TP item in a list" "line 3: .TP inside the list of line 1" \
	'.\" @options watch' '.\" @option --csv' '.TP' '\fB\-\-json\fR' '.\" @end'
refused "a section heading inside a list" "line 3: .SH inside the list of line 1" \
	'.\" @options watch' '.\" @option --csv' '.SH NEXT'
refused "a list without its end" "line 1: the list has no" \
	'.\" @options watch' '.\" @option --csv' 'text'
refused "a list of no command" "unknown command 'nosuch'" \
	'.\" @options nosuch' '.\" @option --csv' '.\" @end'

# A list of a workload's parameters, the same way from the rows 'run
# WORKLOAD' adds: the tag with the row's own name for its value, and
# none of run's options.
printf '%s\n' '.TH T 1' '.SS x' '.\" @params crashdump' '.\" @param --sizes' \
	'Hand prose.' '.\" @end' | gen
check "a workload's parameter list is made into a page" test $? = 0
check "a parameter's tag has its row's value name (DIST)" \
	grep -qxF '\fB\-\-sizes\fR \fIDIST\fR' "$TEST_TMP/gen.1"
check "a parameter no item names is listed from its row" \
	grep -qxF 'Threads writing dumps into the spool (default 2, 1..256).' \
	"$TEST_TMP/gen.1"
check "a parameter list has no option of run in it" bash -c \
	'grep -q "^.fB.-.-bs.fR" "$1" && ! grep -q "^.fB.-.-time" "$1"' \
	_ "$TEST_TMP/gen.1"
refused "an option of run in a parameter list" \
	"line 2: '--time' is no parameter of workload 'crashdump'" \
	'.\" @params crashdump' '.\" @param --time' '.\" @end'
refused "another workload's parameter" \
	"'--clients' is no parameter of workload 'crashdump'" \
	'.\" @params crashdump' '.\" @param --clients' '.\" @end'
refused "a parameter given two items" \
	"line 3: '--bs' of workload 'crashdump' has an item already" \
	'.\" @params crashdump' '.\" @param --bs' '.\" @param --bs' '.\" @end'
refused "a hand-written .TP item in a parameter list" \
	"line 3: .TP inside the list of line 1 (an item is '.\\\" @param" \
	'.\" @params crashdump' '.\" @param --bs' '.TP' '\fB\-\-keep\fR' \
	'.\" @end'
refused "an option item in a parameter list" \
	"line 2: @option in the @params list of line 1" \
	'.\" @params crashdump' '.\" @option --bs' '.\" @end'
refused "a parameter list of no workload" "unknown workload 'nosuch'" \
	'.\" @params nosuch' '.\" @param --bs' '.\" @end'
refused "a parameter list of two workloads" \
	"line 1: @params names one workload" \
	'.\" @params crashdump exec' '.\" @end'

python3 - "$IOTRIAL" "$MAN" "$IOTRIAL_SRC" "$TEST_TMP" <<'PY'
import json, os, re, subprocess, sys

iotrial, man_path, src, tmp = sys.argv[1:5]
failed = False


def report(ok, name, detail=""):
    global failed
    print(("ok - " if ok else "not ok - ") + name)
    if not ok:
        failed = True
        if detail:
            print("    " + detail)


def run(*args):
    p = subprocess.run([iotrial, *args], capture_output=True, text=True,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


def deroff(text):
    """The words of a roff line as a reader sees them."""
    text = re.sub(r'\\f[BIRP]|\\fR|\\&|\\c', '', text)
    text = text.replace('\\-', '-').replace('\\e', '\\')
    text = text.replace('\\(+-', '+-')
    m = re.match(r'^\.(BR|RB|BI|IB|IR|RI|B|I)(?:\s+(.*))?$', text)
    if m:
        args = [q or u for q, u in
                re.findall(r'"([^"]*)"|(\S+)', m.group(2) or '')]
        # alternating-font macros join their arguments; .B/.I space them
        text = ('' if len(m.group(1)) == 2 else ' ').join(args)
    elif text.startswith('.'):
        return ''
    return text


# The page, split into sections: (SH, SS) -> lines; tags after .TP.
sections, tags, param_bodies = {}, {}, {}
sh = ss = body = None
lines = open(man_path).read().split('\n')
for i, line in enumerate(lines):
    if line.startswith('.SH '):
        sh, ss, body = line[4:].strip('"'), None, None
        continue
    if line.startswith('.SS '):
        ss, body = line[4:].strip('"'), None
        continue
    key = (sh, ss)
    sections.setdefault(key, []).append(deroff(line))
    if line == '.TP' and i + 1 < len(lines):
        tags.setdefault(key, []).append(deroff(lines[i + 1]).strip())
        if sh == 'WORKLOADS' and ss:
            # an item of a parameter list: its prose, after the tag
            name = deroff(lines[i + 1]).split()[0][2:]
            body = param_bodies.setdefault(ss, {}).setdefault(name, [])
            tag_line = i + 1
    elif body is not None and i != tag_line:
        body.append(deroff(line))


def text_of(sh_name, ss_name=None, whole=False):
    """The text of one subsection, or of a whole section."""
    return '\n'.join(l for (a, b), ls in sections.items() for l in ls
                     if a == sh_name and (whole or b == ss_name))


# In the template, a command's option items and a workload's parameter
# items are markers, never a tag written by hand (which nothing would
# check against the rows). The parameter lists: workload -> the names
# of its @param items, and the subsection each list is in.
sh = ss = None
hand, hand_params = [], []
param_items, params_in, cur = {}, {}, None
for i, line in enumerate(open(os.path.join(src, 'docs/iotrial.1.in'))):
    line = line.rstrip('\n')
    if line.startswith('.SH '):
        sh, ss = line[4:].strip().strip('"'), None
    elif line.startswith('.SS '):
        ss = line[4:].strip().strip('"')
    elif (line == '.TP' and sh == 'COMMANDS' and
          ss not in ('help', 'Global options')):
        hand.append('line %d (%s)' % (i + 1, ss))
    elif line == '.TP' and sh == 'WORKLOADS' and ss:
        hand_params.append('line %d (%s)' % (i + 1, ss))
    m = re.match(r'^\.\\" @params\s+(\S+)$', line)
    if m:
        cur = param_items.setdefault(m.group(1), [])
        params_in[ss] = m.group(1)
    elif line.startswith('.\\" @end'):
        cur = None
    m = re.match(r'^\.\\" @param\s+--(\S+)$', line)
    if m and cur is not None:
        cur.append(m.group(1))
report(not hand, "the template's command sections have no hand-written "
       "option tags", "at %s" % hand)
report(not hand_params, "the template's parameter sections have no "
       "hand-written parameter tags", "at %s" % hand_params)

# The command table, as 'iotrial --help' prints it.
rc, out, _ = run('--help')
cmds = re.findall(r'^  ([a-z]+) ', out.split('commands:')[1], re.M)
report(rc == 0 and len(cmds) >= 10, "'iotrial --help' lists the commands",
       out)
documented = sorted(b for (a, b) in sections if a == 'COMMANDS' and b
                    and b not in ('help', 'Global options'))
report(sorted(cmds) == documented,
       "every command has a section in COMMANDS, and only commands do",
       "table %s, page %s" % (sorted(cmds), documented))

synopsis = text_of('SYNOPSIS')
unnamed = [c for c in cmds
           if not re.search(r'(?<![\w-])' + c + r'(?![\w-])', synopsis)]
report(not unnamed, "the SYNOPSIS names every command",
       "missing: %s" % unnamed)
report("'iotrial help compat'" in out,
       "'iotrial --help' points to 'iotrial help compat'", out)

# an example is a command that works: --dry-run refuses a scratch
# target (it would have to be made), so no example may ask for both
examples = text_of('EXAMPLES').replace('\\\n', ' ')
bad_examples = [l for l in examples.split('\n')
                if 'scratch:' in l and '--dry-run' in l]
report(not bad_examples,
       "no example combines a scratch target with --dry-run (exit 2)",
       "%s" % bad_examples)

workloads_text = text_of('WORKLOADS', whole=True)


def sample(metavar):
    """A value that parses for a metavariable of the page."""
    first = metavar.split('|')[0]
    if not re.match(r'^[A-Z]', first):
        return first  # a literal choice: psync, iops, sync, 0
    word = re.match(r'^[A-Z0-9]+', first).group(0)
    return {
        'TARGET': tmp, 'DURATION': '1s', 'N': '3', 'PATH': tmp + '/x.db',
        'FILE': tmp + '/x.json', 'ARM': 'x', 'LABEL': 'x',
        'NAME': 'randread', 'DEV': 'vda', 'PERCENT': '2%', 'SIZE': '4k',
        'TEXT': 'x', 'KNOB': 'read_ahead_kb=128', 'FACTOR': 'bs=4k,8k',
        'LIST': '0', 'FORMAT': 'sysctl', 'DIR': tmp, 'ID': 'x',
        'CMD': 'true', 'RE': 'x', 'RULE': 'util>99', 'PID': '1',
        'VALUE': 'x', 'A': 'a,b', 'TRACE': tmp + '/x.trace',
        'SET': 'read_ahead_kb=128',
    }[word]


def parse_tag(tag):
    """'-t, --target TARGET' -> (['-t', '--target'], 'TARGET' or None)."""
    m = re.match(r'^(-{1,2}[A-Za-z][\w-]*(?:, -{1,2}[A-Za-z][\w-]*)*)(.*)$',
                 tag)
    if not m:
        return None, None
    rest = m.group(2).strip()
    return m.group(1).split(', '), (None if not rest or rest.startswith('[=')
                                    else rest)


for cmd in cmds:
    rc, help_text, err = run(cmd, '--help')
    report(rc == 0 and help_text.startswith('usage: iotrial ' + cmd),
           "'%s --help' prints its usage" % cmd, err)
    rc2, via_help, _ = run('help', cmd)
    report(rc2 == 0 and via_help == help_text,
           "'iotrial help %s' prints what '%s --help' does" % (cmd, cmd))
    section = text_of('COMMANDS', cmd)
    own_tags = list(tags.get(('COMMANDS', cmd), []))
    if cmd in ('run', 'compare', 'tune', 'bisect'):
        # the workload parameters are theirs too
        section += '\n' + workloads_text
        own_tags += tags.get(('WORKLOADS', 'Workload parameters'), [])
    named = sorted(set(re.findall(r'(?<![\w-])--[a-z][a-z0-9_-]*',
                                  help_text)) - {'--help'})
    missing = [o for o in named
               if not re.search(r'(?<![\w-])' + re.escape(o) + r'(?![\w-])',
                                section)]
    report(named and not missing,
           "every option '%s --help' names is in its manual section" % cmd,
           "missing: %s" % missing)

    bad_tags, not_in_help, refused = [], [], []
    pos = ['randread'] if cmd in ('compare', 'tune', 'bisect') else []
    lows = {f[0]: f[4] for f in (l.split('\t') for l in
                                 run(cmd, *pos, '--help-options')[1]
                                 .split('\n')) if len(f) >= 6}
    for tag in own_tags:
        spellings, metavar = parse_tag(tag)
        if not spellings:
            bad_tags.append(tag)
            continue
        if not any(re.search(r'(?<![\w-])' + re.escape(s) + r'(?![\w-])',
                             help_text) for s in spellings):
            not_in_help.append(tag)
        for s in spellings:
            # a count or duration at least the row's minimum
            low = lows.get(s, '-') if metavar in ('N', 'DURATION') else '-'
            args = pos + [s]
            if metavar:
                args.append(sample(metavar) if low == '-' else low)
            rc, out, err = run(cmd, *args, '--help')
            if rc != 0 or not out.startswith('usage:'):
                refused.append('%s: %s' % (' '.join(args),
                                           err.strip() or 'exit %d' % rc))
    report(own_tags and not bad_tags,
           "the '%s' section lists its options as tags" % cmd,
           "unreadable tags: %s" % bad_tags)
    report(not not_in_help,
           "every option the '%s' section lists is in its --help" % cmd,
           "not in --help: %s" % not_in_help)
    report(not refused,
           "every option the '%s' section lists is accepted" % cmd,
           "; ".join(refused))
    rc, out, _ = run(cmd, *pos, '-h')
    report(rc == 0 and out == run(cmd, *pos, '--help')[1],
           "'%s -h' is '%s --help'" % (cmd, cmd))

# Workloads: the list in 'run --help' and the WORKLOADS tags.
rc, out, _ = run('run', '--help')
wl = re.findall(r'^  ([a-z]+) ', out.split('workloads:')[1].split('\n\n')[0],
                re.M)
page_wl = tags.get(('WORKLOADS', None), [])
report(wl and sorted(wl) == sorted(page_wl),
       "WORKLOADS documents exactly the workloads of 'run --help'",
       "run: %s, page: %s" % (wl, page_wl))


def parameters(help_text):
    """The parameters a help lists under its 'parameters of' heading."""
    part = help_text.split('parameters of')[1].split('\n\n')[0]
    return re.findall(r'^  --([a-z_-]+) ', part, re.M)


params = parameters(out)
page_params = [parse_tag(t)[0][0][2:] for t in
               tags.get(('WORKLOADS', 'Workload parameters'), [])]
report(params and sorted(params) == sorted(page_params),
       "'Workload parameters' documents exactly the parameters of 'run'",
       "run: %s, page: %s" % (params, page_params))
for w in wl:
    rc, out, _ = run('help', 'run', w)
    got = parameters(out)
    # a workload with parameters of its own documents them in its section
    own = tags.get(('WORKLOADS', 'Parameters of ' + w))
    want = [parse_tag(t)[0][0][2:] for t in own] if own else params
    report(rc == 0 and sorted(got) == sorted(want),
           "workload '%s' takes the documented parameters" % w,
           "help: %s, page: %s" % (got, want))
    # every row has its item in the template (a row without one would be
    # listed from its help alone), in the list of its section
    own_section = ('WORKLOADS', 'Parameters of ' + w) in sections
    section = 'Parameters of ' + w if own_section else 'Workload parameters'
    listed = params_in.get(section)
    items = param_items.get(listed, [])
    report((listed == w if own_section else listed is not None) and
           sorted(got) == sorted(items),
           "every parameter of '%s' has its @param item in '%s'"
           % (w, section), "rows: %s, items of '@params %s': %s"
           % (got, listed, items))
    # a default or bound the prose states is the row's: "(default 4k",
    # "Default 1.", "at most 1024" (fio's defaults said beside are not
    # in parentheses)
    rows = {f[0][2:]: f for f in (l.split('\t') for l in
                                  run('run', w, '--help-options')[1]
                                  .split('\n')) if len(f) >= 6}
    drift = []
    for name, body in param_bodies.get(section, {}).items():
        row = rows.get(name)
        text = ' '.join(body)
        for what, pattern, col in (
                ('default', r'(?:^|[(;]\s*)[Dd]efault\s+([^\s;)]+)', 3),
                ('at most', r'\bat most\s+([^\s;)]+)', 5),
                ('at least', r'\bat least\s+([^\s;)]+)', 4)):
            for said in re.findall(pattern, text):
                said = said.rstrip('.,:')
                if row and row[col] != '-' and said != row[col]:
                    drift.append('--%s: %s %s, row %s' %
                                 (name, what, said, row[col]))
    report(not drift, "the defaults and bounds '%s' has in the prose are "
           "its rows'" % w, "; ".join(drift))
    # the page's tag is what --help shows: the same value name
    differ = [t for t in (own or tags.get(('WORKLOADS',
                                          'Workload parameters'), []))
              if not re.search(r'^  ' + re.escape(t) + r'(  |$)', out, re.M)]
    report(not differ, "the page's parameter tags of '%s' are its --help's"
           % w, "not in --help: %s" % differ)

# Knobs: what 'iotrial knobs --json' lists here, and the names in the
# families' tables (so a device this machine lacks is covered too).
knobs_text = text_of('KNOBS', whole=True)


def in_knobs(name):
    end = '' if name.endswith(':') else r'(?![\w-])'  # sysfs:PATH
    return re.search(r'(?<![\w.:-])' + re.escape(name) + end, knobs_text)


def source(path):
    with open(os.path.join(src, path)) as f:
        return f.read()


sched = source('src/core/knob/sched.c')
iosched = ['iosched.' + p for p in re.findall(
    r'\{\s*"(?:mq-deadline|bfq|kyber)",\s*"([a-z_]+)"', sched)]
table = set(iosched)
table |= set(re.findall(r'\{\s*"([a-z]+)",\s*"(?:bfq|mq-deadline|none)",',
                        sched))  # legacy scheduler names
table |= set(re.findall(r'\{\s*"([a-z_]+)",\s*KNOB_PRIO_',
                        source('src/core/knob/queue.c')))
vm = source('src/core/knob/vmdirty.c')
table |= set(re.findall(r'\{\s*"(vm\.[a-z_]+)",\s*"', vm))
table |= set(re.findall(r'\{\s*"(bdflush\.[a-z_]+)",', vm))
table |= {'sysfs:', 'sysctl:'}
report(len(iosched) >= 15 and len(table) >= 40,
       "the knob families' tables were read (%d names)" % len(table))
missing = sorted(n for n in table if not in_knobs(n))
report(not missing, "every name in the knob families' tables is in KNOBS",
       "missing: %s" % missing)

live = set()
for args in (['knobs', '--json'], ['knobs', '--json', '-t', '/']):
    rc, out, err = run(*args)
    if rc != 0:
        continue  # '/' may be on no block device (a container)
    for k in json.loads(out)['knobs']:
        # a scheduler parameter the tables do not know is this kernel's
        if not k['name'].startswith('iosched.') or k['name'] in table:
            live.add(k['name'])
        live.update(k['legacy_names'])
    # the names a target with a disk and a mount would add: every
    # family's, from the registry itself
    live.update(json.loads(out).get('unavailable_knobs', []))
report(any(n.startswith('vm.') for n in live),
       "'iotrial knobs --json' lists knobs (%d here)" % len(live))
missing = sorted(n for n in live if not in_knobs(n))
report(not missing, "every knob 'iotrial knobs --json' lists is in KNOBS",
       "missing: %s" % missing)

# Exit codes and environment variables, from the code.
codes = re.findall(r'EXIT_[A-Z]+ = (\d+)', source('src/util/error.h'))
page_codes = tags.get(('EXIT STATUS', None), [])
report(codes and all(c in page_codes for c in codes),
       "EXIT STATUS documents every exit code", "code: %s, page: %s" %
       (codes, page_codes))
envs = set()
for d, _, files in os.walk(os.path.join(src, 'src')):
    for f in files:
        if f.endswith('.c'):
            envs |= set(re.findall(r'getenv\("([A-Z_]+)"\)',
                                   open(os.path.join(d, f)).read()))
page_env = tags.get(('ENVIRONMENT', None), [])
report(envs and envs <= set(page_env),
       "ENVIRONMENT documents every variable the code reads",
       "code: %s, page: %s" % (sorted(envs), page_env))

# The version the page names is the program's.
rc, out, _ = run('--version')
version = re.search(r'IOTRIAL_VERSION "([^"]+)"',
                    source('src/version.h')).group(1)
report(rc == 0 and out.startswith('iotrial %s (' % version) and
       'iotrial/1' in out, "--version prints the version and the schema", out)
th = next(l for l in lines if l.startswith('.TH '))
report('"iotrial %s"' % version in th, "the page is of version " + version,
       th)

# help itself
rc, out, _ = run('help')
report(rc == 0 and 'commands:' in out, "'iotrial help' lists the commands")
rc, _, err = run('help', 'rnu')
report(rc == 2 and "did you mean 'run'" in err,
       "'iotrial help rnu' suggests 'run' and exits 2", err)

# the end reached: an exception above prints no "not ok" of its own
open(os.path.join(tmp, 'py.done'), 'w').close()
sys.exit(1 if failed else 0)
PY
check "the page's checks in Python ran to their end" test -f "$TEST_TMP/py.done"

# How it reads: no warnings from the formatters that are here.
if command -v groff >/dev/null; then
	w=$(groff -man -Tutf8 -ww -z "$MAN" 2>&1)
	check "groff -ww renders the page without warnings" test -z "$w"
	[ -z "$w" ] || echo "$w"
fi
if command -v mandoc >/dev/null; then
	check "mandoc -Tlint finds nothing" mandoc -Tlint "$MAN"
fi
if command -v man >/dev/null; then
	w=$(MANWIDTH=80 man -l "$MAN" 2>&1 >/dev/null)
	check "man -l renders the page without messages" test -z "$w"
	check "the rendered page has every section" bash -c \
		'out=$(MANWIDTH=80 man -l "$1" 2>/dev/null | col -b)
		for s in NAME SYNOPSIS DESCRIPTION COMMANDS WORKLOADS KNOBS \
			TARGETS UNITS SAFETY ENVIRONMENT FILES "EXIT STATUS" \
			EXAMPLES "SEE ALSO"; do
			grep -q "^$s\$" <<<"$out" || exit 1
		done' _ "$MAN"
fi
