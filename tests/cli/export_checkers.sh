#!/usr/bin/env bash
# Generated and mutated experiments through every export format, and
# what each writes through its real checker: sh -n and shellcheck for
# the shell script, a YAML parse with no Jinja2 marker but iotrial's own
# variables (and ansible-playbook --syntax-check) for the playbook,
# puppet parser validate and puppet apply --noop for the manifest,
# findmnt --verify for the fstab that --write leaves, and a tuned
# profile with no '${'. The
# experiments are imported, so they are what an outside file can hold:
# hostile labels and values, seeded (EXPORT_CHECK_SEED, default 1) and
# bounded (EXPORT_CHECK_N experiments, default 12). fuzz_export checks
# the same properties in-process over many more inputs.
# parallel: a loop device and files of its own; ansible and puppet in check mode
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
. "$(dirname "$0")/export-lib.bash"
need_root
need_tool shellcheck shellcheck
need_tool puppet puppet
need_tool ansible-playbook ansible
python3 -c 'import yaml' 2>/dev/null || need_tool python3-yaml python3-yaml
DB=$TEST_TMP/results.db
N=${EXPORT_CHECK_N:-12}
SEED=${EXPORT_CHECK_SEED:-1}
mkloop 64M || skip "cannot make a loop device"
save_queue "$LOOP"
dev=${LOOP#/dev/}
mkmount "$LOOP" || skip "cannot make a file system on $LOOP"
out=$TEST_TMP/out
mkdir -p "$out"
# the experiments: e<N>.json, each a mutation of a queue/vm/atime sweep
python3 - "$TEST_TMP" "$N" "$SEED" "$MNT" "$dev" <<'PY'
import itertools, json, random, sys
tmp, n, seed, mnt, dev = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
rng = random.Random(seed)
hostile = ['{{ lookup("pipe","id") }}', "{% if 1 %}x{% endif %}", "{# c #}",
           "${f:exec:/bin/id}", "$(id)", "`id`", "'; id; '", '" id "', "\\",
           "a\nb", "a\rb", "\x1b]0;t\x07", "=HYPERLINK(\"x\")", "-", "#", "%p",
           "|/bin/sh", "a b", "ü é", ":", "- x", "*", "&anchor", "!!python/object"]
knobs = {
    "scheduler": ["none", "mq-deadline"],
    "read_ahead_kb": ["128", "4096", "2048s"],
    "nr_requests": ["32", "64"],
    "atime": ["relatime", "noatime", "strictatime", "noatime,lazytime"],
    "vm.dirty_ratio": ["20", "10"],
    "vm.dirty_background_ratio": ["10", "5"],
    "sysctl:vm.swappiness": ["60", "5"],
    "sysfs:/sys/block/%s/queue/add_random" % dev: ["0", "1"],
}
for i in range(n):
    names = rng.sample(sorted(knobs), rng.randint(1, 3))
    factors = []
    for name in names:
        vals = list(knobs[name][:2])
        if rng.random() < 0.2:  # a hostile value in the winning arm
            vals[1] = rng.choice(hostile) if rng.random() < 0.5 else vals[1] + rng.choice(hostile)
        factors.append({"name": name, "kind": "knob", "values": vals})
    arms = []
    for a, combo in enumerate(itertools.product(*[f["values"] for f in factors])):
        st = {f["name"]: v for f, v in zip(factors, combo)}
        label = " ".join("%s=%s" % kv for kv in st.items())
        if rng.random() < 0.5:
            label = rng.choice(hostile) + " " + label + rng.choice(hostile)
        arms.append({"arm": a, "label": label, "settings": st})
    win = len(arms) - 1
    runs, seq = [], 0
    for b in range(6):
        for a in arms:
            v = 1000 * (1.5 if a["arm"] == win else 1.0) * (1 + rng.uniform(-0.005, 0.005))
            run = {"schema": "iotrial/1", "workload": "randread", "params": {"bs": 4096},
                   "knobs": a["settings"], "target": {"spec": mnt, "kind": "dir"},
                   "seconds": 1.0, "ops": int(v), "iops": v,
                   "metric": {"name": "iops", "value": v, "higher_is_better": True},
                   "warnings": []}
            runs.append({"arm": a["arm"], "block": b, "seq": seq, "metric": v, "run": run})
            seq += 1
    e = {"schema": "iotrial/1", "type": "experiment", "id": "0",
         "created": "2026-11-29T22:58:00Z", "workload": "randread", "target": mnt,
         "params": {"bs": 4096}, "seed": str(i), "metric": {"name": "iops", "higher_is_better": True},
         "factors": factors, "baseline": 0, "arms": arms, "runs": runs, "blocks": 6,
         "stopped": "fixed run count", "runs_mode": "fixed", "precision": 0.02,
         "equivalence": 0.02, "alpha": 0.05,
         "env": {"hostname": "h", "stack": {"path": mnt, "devices": [
             {"name": dev, "kind": "disk", "queue_dev": dev}]}}}
    json.dump(e, open("%s/e%d.json" % (tmp, i), "w"))
    open("%s/e%d.arm" % (tmp, i), "w").write("%d\n" % win)
PY
# every format of the table, as export --help's usage names them
formats=$("$IOTRIAL" export --help | sed -n 's/.*--format \([a-z|]*\).*/\1/p' |
	head -n 1 | tr '|' ' ')
check "export --help names the formats" test -n "$formats"
written=0 refused=0
for ((i = 0; i < N; i++)); do
	id=$(imp_exp "$TEST_TMP/e$i.json")
	[ -n "$id" ] || { fail "e$i.json is imported"; continue; }
	root=$TEST_TMP/root$i
	mkdir -p "$root/etc"
	printf '# fstab\nproc /proc proc defaults 0 0\n%s %s ext4 defaults,relatime 0 2\n' \
		"$LOOP" "$MNT" >"$root/etc/fstab"
	for f in $formats; do
		o=$out/e$i.$f
		# the last arm won; a multiple-comparison correction may call
		# it inconclusive, so it is named
		"$IOTRIAL" export "$id" --db "$DB" --root "$root" --format "$f" \
			--arm "$(cat "$TEST_TMP/e$i.arm")" >"$o" 2>"$o.err"
		rc=$?
		if [ $rc != 0 ]; then
			refused=$((refused + 1))
			# a refusal says why and exits 1 or 2, no crash
			[ $rc -le 2 ] && grep -q '^error: ' "$o.err" ||
				fail "e$i $f: refused cleanly (rc=$rc)"
			rm -f "$o"
			continue
		fi
		written=$((written + 1))
	done
	if [ -s "$out/e$i.fstab" ]; then
		"$IOTRIAL" export "$id" --db "$DB" --root "$root" --format fstab \
			--arm "$(cat "$TEST_TMP/e$i.arm")" --write >/dev/null 2>&1
		findmnt --verify --tab-file "$root/etc/fstab" >"$out/e$i.findmnt" 2>&1 ||
			fail "e$i: findmnt --verify of the fstab --write left"
	fi
done
head -q -n1 "$out"/*.err | sort | uniq -c | sort -rn | head -8 | sed "s/^/#   /"
echo "# $N experiments: $written files written, $refused formats refused;" \
	"$(ls "$out" | grep -cE '\.(shell|ansible|puppet|tuned|fstab)$') go to a checker"
check "some files were written" test "$written" -gt "$N"
bad=0
for s in "$out"/*.shell; do
	[ -e "$s" ] || continue
	sh -n "$s" 2>"$s.n" || { bad=1; fail "sh -n ${s##*/}"; sed 's/^/#   /' "$s.n"; }
	shellcheck -s sh -S warning "$s" >"$s.sc" 2>&1 ||
		{ bad=1; fail "shellcheck ${s##*/}"; sed 's/^/#   /' "$s.sc" | head -20; }
done
check "every shell script passes sh -n and shellcheck" test $bad = 0
bad=0
for s in "$out"/*.ansible; do
	[ -e "$s" ] || continue
	python3 - "$s" >"$s.py" 2>&1 <<'PY' || { bad=1; fail "YAML ${s##*/}"; sed 's/^/#   /' "$s.py"; }
import re, sys, yaml
class L(yaml.SafeLoader):
    pass
L.add_constructor("!unsafe", lambda l, n: l.construct_scalar(n))
doc = yaml.load(open(sys.argv[1]), Loader=L)
assert isinstance(doc, list) and doc[0]["hosts"] == "all"
def walk(v):
    if isinstance(v, dict):
        for k, x in v.items():
            walk(k); walk(x)
    elif isinstance(v, list):
        for x in v:
            walk(x)
    elif isinstance(v, str):
        rest = re.sub(r"\{\{ iotrial_[a-z0-9_]+ \}\}", "", v)
        assert not re.search(r"\{\{|\{%|\{#", rest), "Jinja2 in %r" % v
walk(doc)
PY
done
check "every playbook parses as YAML, no Jinja2 but iotrial's variables" test $bad = 0
first=$(ls "$out"/*.ansible 2>/dev/null | head -1)
if [ -n "$first" ]; then
	export HOME=$TEST_TMP ANSIBLE_LOCAL_TEMP=$TEST_TMP/ansible ANSIBLE_NOCOLOR=1
	ansible-playbook -i localhost, -c local --syntax-check "$first" >"$TEST_TMP/syn" 2>&1
	check "ansible-playbook --syntax-check ${first##*/}" test $? = 0
fi
bad=0
for s in "$out"/*.tuned; do
	[ -e "$s" ] || continue
	grep -qF '${' "$s" && { bad=1; fail "\${ in ${s##*/}"; }
done
check "no tuned profile holds \${" test $bad = 0
pps=("$out"/*.puppet)
if [ -e "${pps[0]}" ]; then
	HOME=$TEST_TMP puppet parser validate --confdir "$TEST_TMP/puppet" \
		--vardir "$TEST_TMP/puppet/var" "${pps[@]}" >"$TEST_TMP/pp" 2>&1
	rc=$?
	check "puppet parser validate takes all ${#pps[@]} manifests (rc=$rc)" test $rc = 0
	[ $rc = 0 ] || sed 's/^/#   /' "$TEST_TMP/pp" | tail -10
	# compiled and run in noop mode too: the parser knows no types
	bad=0
	for m in "${pps[@]}"; do
		HOME=$TEST_TMP puppet apply --noop --detailed-exitcodes \
			--color=false --confdir "$TEST_TMP/puppet" \
			--vardir "$TEST_TMP/puppet/var" \
			--codedir "$TEST_TMP/puppet/code" "$m" >"$m.apply" 2>&1
		rc=$?
		[ $rc = 0 ] || [ $rc = 2 ] || {
			bad=1
			fail "puppet apply --noop ${m##*/} (rc=$rc)"
			grep -v Facter "$m.apply" | sed 's/^/#   /' | tail -5
		}
	done
	check "puppet apply --noop runs all ${#pps[@]} manifests" test $bad = 0
fi
