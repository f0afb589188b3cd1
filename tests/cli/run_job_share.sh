#!/usr/bin/env bash
# iotrial run --job: job sections that name the same filename= share one
# file of iotrial's own, as fio's sections share theirs: the first lays
# it out, a later one reuses it (same inode, a note saying so), a reader
# after an allocating writer writes it first, and it goes at the end of
# the run, also when the run is interrupted. Sections without filename=,
# or with names of their own, keep a file each. The user's own file of
# that name is never touched.
# parallel: runs in a directory of its own; measures nothing another test changes
. "$(dirname "$0")/lib.sh"

# O_DIRECT and real extents need a real filesystem; /tmp may be tmpfs
dir=$(mktemp -d /var/tmp/iotrial-test.XXXXXX)
TEST_DIRS+=("$dir")
json=$TEST_TMP/out.json
job=$TEST_TMP/share.fio

# run_job NAME [OPTIONS...]: run $job on $dir, the JSON in $json
run_job() {
	local name=$1
	shift
	rm -f "$json"
	if "$IOTRIAL" run --job "$job" -t "$dir" --no-store --time 1s \
		--json="$json" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"; then
		ok "$name runs"
	else
		fail "$name runs: $(head -c 400 "$TEST_TMP/err")"
	fi
}

# check_json NAME PYTHON: assertions over o (the job_file object)
check_json() {
	check "$1" python3 - "$json" "$2" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
j = {e["section"]: e for e in o["jobs"]}
def notes(s):
    return " ".join(j[s]["run"].get("notes", []))
exec(sys.argv[2])
PY
}

# nothing of ours is left in the target: no work directory
no_workdirs() {
	! ls -d "$dir"/iotrial.* >/dev/null 2>&1
}

# the user's own file of the name the job file gives
printf 'the user keeps this\n' >"$dir/share.file"
before=$(sha256sum <"$dir/share.file")

cat >"$job" <<'EOF_JOB'
[global]
bs=4k
size=4m
direct=1
filename=share.file
[rd]
rw=read
stonewall
[wr]
rw=write
stonewall
[big]
rw=randread
size=8m
stonewall
EOF_JOB
run_job "three sections on one filename="
check_json "the writer reuses the reader's file, as fio does" '
f = j["wr"]["file"]
assert f["filename"] == "share.file", f
assert f["shared_by"] == ["rd", "wr", "big"], f
assert f["laid_out_by"] == "rd", f
assert f["inode"] > 0 and f["inode"] == j["rd"]["file"]["inode"], (f, j["rd"])
assert "[wr] reuses the file [rd] laid out" in notes("wr"), notes("wr")
assert "reuses" not in notes("rd"), notes("rd")
'
check_json "a section needing more grows the same file" '
f = j["big"]["file"]
assert f["inode"] == j["rd"]["file"]["inode"], f
assert f["bytes"] == 8 << 20 and j["rd"]["file"]["bytes"] == 4 << 20, f
assert "grown from 4194304 to 8388608 bytes" in notes("big"), notes("big")
'
check "the text says which section reused the file" \
	grep -q "note: \[wr\] reuses the file \[rd\] laid out" "$TEST_TMP/out"
check "the user's own file is untouched" \
	test "$(sha256sum <"$dir/share.file")" = "$before"
check "the shared file is gone at the end" no_workdirs

# a writer first: it only allocates, so a later reader writes it first
cat >"$job" <<'EOF_JOB'
[global]
bs=4k
size=4m
filename=share.file
[wr]
rw=randwrite
stonewall
[rd]
rw=randread
stonewall
EOF_JOB
run_job "a write section before a read section"
check_json "the reader writes the allocated file in full first" '
assert j["rd"]["file"]["laid_out_by"] == "wr", j["rd"]["file"]
assert j["rd"]["file"]["inode"] == j["wr"]["file"]["inode"]
assert "only allocated, so it was written in full first" in notes("rd"), notes("rd")
'

# no filename=, or a name each: a file each, as fio gives
cat >"$job" <<'EOF_JOB'
[global]
bs=4k
size=4m
[rd]
rw=read
stonewall
[wr]
rw=write
stonewall
[rd2]
rw=read
filename=one
stonewall
[wr2]
rw=write
filename=two
stonewall
EOF_JOB
run_job "sections without a shared filename="
check_json "each section keeps its own file" '
for s in ("rd", "wr", "rd2", "wr2"):
    assert "file" not in j[s], (s, j[s].get("file"))
    assert "reuses" not in notes(s), (s, notes(s))
'

# numjobs clones on one filename= still share it within the section
cat >"$job" <<'EOF_JOB'
[global]
bs=4k
size=4m
filename=share.file
[clones]
rw=randwrite
numjobs=2
stonewall
[rd]
rw=randread
stonewall
EOF_JOB
run_job "numjobs clones before a reader"
check_json "the clones share one file, which the next section reuses" '
p = j["clones"]["run"]["params"]
assert p["jobs"] == 2 and p["shared"] is True, p
assert j["rd"]["file"]["inode"] == j["clones"]["file"]["inode"]
assert j["rd"]["file"]["laid_out_by"] == "clones"
'

# interrupted: the shared file's work directory goes too
cat >"$job" <<'EOF_JOB'
[global]
bs=4k
size=4m
filename=share.file
[rd]
rw=read
stonewall
[wr]
rw=write
stonewall
EOF_JOB
"$IOTRIAL" run --job "$job" -t "$dir" --no-store --time 60s \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err" &
pid=$!
# the shared file's directory and [rd]'s: both exist while [rd] runs
for _ in $(seq 200); do
	n=$(find "$dir" -maxdepth 1 -name 'iotrial.*' | wc -l)
	[ "$n" -ge 2 ] && break
	sleep 0.1
done
kill -INT "$pid"
wait "$pid"
check "an interrupted run exits non-zero" test $? -ne 0
check "an interrupted run leaves no shared file behind" no_workdirs
check "the user's own file is still untouched" \
	test "$(sha256sum <"$dir/share.file")" = "$before"
