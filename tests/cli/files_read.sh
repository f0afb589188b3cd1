#!/usr/bin/env bash
# The files iotrial reads because a user named them: a FIFO (or a
# directory, a device) is refused at once with what it is, never waited
# on (import, a job file, an include, a loadfile, the store); a job
# file's include stays below the job file's directory, follows no link,
# and no message repeats a line of an included file; a job file with more job sections
# than fio allows is refused with the line where the limit is passed.
# parallel: its own files, directory and store; nothing machine-wide
. "$(dirname "$0")/lib.sh"

trap 'test_cleanup' EXIT
t=$TEST_TMP
mkfifo "$t/fifo"

# quick IOTRIAL ARGS...: run with a time limit (a FIFO must not hang it);
# the exit code, stderr in $t/err
quick() {
	timeout 20 "$IOTRIAL" "$@" >"$t/out" 2>"$t/err"
}

# refused NAME PATTERN ARGS...: exit 2 at once, stderr matches PATTERN
refused() {
	local name=$1 pat=$2 rc
	shift 2
	quick "$@"
	rc=$?
	if [ "$rc" = 2 ] && grep -qE -- "$pat" "$t/err"; then
		ok "$name"
	else
		fail "$name (rc=$rc: $(head -c 300 "$t/err"))"
	fi
}

# --- a FIFO, wherever a file is read
refused "import of a FIFO is refused, not waited on" \
	"cannot read '.*fifo': a FIFO, not a regular file" \
	import --db "$t/db.sqlite" "$t/fifo"
refused "a FIFO as a job file is refused" "a FIFO, not a regular file" \
	run --job "$t/fifo" -t "$t" --no-store
refused "a directory as a job file says so" "a directory, not a regular" \
	run --job "$t" -t "$t" --no-store
printf '[j]\nrw=read\nsize=1M\ninclude fifo\n' >"$t/inc-fifo.fio"
refused "an include of a FIFO is refused" \
	"inc-fifo.fio:4: cannot read '.*fifo': a FIFO" \
	run --job "$t/inc-fifo.fio" -t "$t" --no-store
refused "a FIFO as a loadfile is refused" "loadfile '.*fifo'" \
	run smallfiles --loadfile="$t/fifo" -t "$t" --no-store --time 1s
refused "a FIFO as the results store says what it is" \
	"'.*fifo' is a FIFO, not a results store" log --db "$t/fifo"

# --- includes stay below the job file's directory
mkdir -p "$t/jobs/sub" "$t/outside"
echo 'SECRET-TOKEN-42:x:1' >"$t/outside/secret"
printf '[j]\nrw=read\nsize=1M\ninclude %s\n' "$t/outside/secret" \
	>"$t/jobs/abs.fio"
refused "an absolute include is refused, with the option that allows it" \
	"abs.fio:4: include '.*secret' is not a file below the job file's directory .*--job-include-any" \
	run --job "$t/jobs/abs.fio" -t "$t" --no-store
printf '[j]\nrw=read\nsize=1M\ninclude ../outside/secret\n' >"$t/jobs/up.fio"
refused "an include climbing out with '..' is refused" \
	"up.fio:4: include '../outside/secret' is not a file below" \
	run --job "$t/jobs/up.fio" -t "$t" --no-store
ln -s "$t/outside/secret" "$t/jobs/link.inc"
printf '[j]\nrw=read\nsize=1M\ninclude link.inc\n' >"$t/jobs/link.fio"
refused "an include through a symbolic link is refused" \
	"link.fio:4: cannot read '.*link.inc': a symbolic link" \
	run --job "$t/jobs/link.fio" -t "$t" --no-store
ln -s "$t/outside" "$t/jobs/linkdir"
printf '[j]\nrw=read\nsize=1M\ninclude linkdir/secret\n' >"$t/jobs/ldir.fio"
refused "an include through a linked directory is refused" \
	"ldir.fio:4: cannot read .*symbolic link" \
	run --job "$t/jobs/ldir.fio" -t "$t" --no-store
# '..' that stays inside is fine: sub/a.inc includes ../b.inc
echo 'include ../b.inc' >"$t/jobs/sub/a.inc"
echo 'bs=8k' >"$t/jobs/b.inc"
printf '[j]\nrw=read\nsize=64k\ninclude sub/a.inc\n' >"$t/jobs/in.fio"
quick run --job "$t/jobs/in.fio" -t "$t" --no-store --json="$t/in.json"
check "an include that stays below the directory works (bs from it)" \
	test "$(json "$t/in.json" 'o["jobs"][0]["run"]["params"]["bs"]')" = 8192

# --- an included file's text is never repeated
for inc in "secret" "../outside/secret"; do
	cp "$t/outside/secret" "$t/jobs/secret" 2>/dev/null
	printf '[j]\nrw=read\nsize=1M\ninclude %s\n' "$inc" >"$t/jobs/s.fio"
	quick run --job "$t/jobs/s.fio" -t "$t" --no-store --job-include-any
	rc=$?
	check "an included file's bad line ($inc) is named, not quoted" \
		eval '[ $rc = 2 ] && grep -q "secret:1" "$t/err" && ! grep -q SECRET-TOKEN "$t/err"'
done
printf 'bs=${X}y\nrw=SECRET-TOKEN-43\n' >"$t/jobs/vals.inc"
printf '[j]\nsize=1M\ninclude vals.inc\n' >"$t/jobs/v.fio"
X=4k quick run --job "$t/jobs/v.fio" -t "$t" --no-store
check "an included file's bad value is named, not quoted" \
	eval 'grep -q "vals.inc:[12]:" "$t/err" && ! grep -q "SECRET\|4ky" "$t/err"'
printf '[j]\nsize=1M\nrw=SECRET-TOKEN-44\n' >"$t/jobs/own.fio"
quick run --job "$t/jobs/own.fio" -t "$t" --no-store
check "the job file's own bad value is still quoted" \
	grep -q "SECRET-TOKEN-44" "$t/err"
refused "--job-include-any goes with --job" "goes with --job" \
	run --job-include-any -t "$t" --no-store

# --- the number of job sections is capped
python3 - "$t/many.fio" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("[global]\nrw=read\nsize=1M\n")
    for i in range(5000):
        f.write("[j%d]\n" % i)
PY
refused "more job sections than fio allows are refused at the line" \
	"many.fio:4100: more than 4096 job sections" \
	run --job "$t/many.fio" -t "$t" --no-store
