#!/usr/bin/env bash
# The replay keeps the order between recorded threads: in a trace where
# consumer threads read the dumps producer threads wrote and renamed
# into place, a replay at --speed max (and in closed loop) opens each
# dump only after its rename, so it reads every byte the capture read
# and no call ends otherwise than recorded. The directories the replay
# keeps open follow a trace's renames, rmdirs and mkdirs.
. "$(dirname "$0")/lib.sh"
need_root
T="$TEST_TMP/target"
mkdir -p "$T"

# a spool directory made, opened and listed (the layout leaves it to the
# replay's mkdir); 2 producers each write 12 dumps of 8 x 256 KiB under a
# temporary name in it and rename them; 2 consumers open each dump after
# its rename, read it to its end and delete it; the spool is removed
python3 - "$TEST_TMP/pc.trace" <<'PY'
import os, struct, sys
O_WRONLY, O_CREAT, O_TRUNC = os.O_WRONLY, os.O_CREAT, os.O_TRUNC
def rec(t, p): return struct.pack('<II', t, len(p)) + p
files, evs = [], []
def file(path, kind=1):
    files.append((kind, path.encode()))
    return len(files)
def ev(ts, tid, op, f=0, f2=0, off=0, size=0, ret=0, arg=0, fd=-1):
    evs.append((ts, tid, struct.pack('<QQIHHIIQQqIi', ts, 5000, tid, op, 0,
                                     f, f2, off, size, ret, arg, fd)))
CHUNK, N = 256 << 10, 8
# the spool is made and listed first, and removed when the last dump is
# gone
spool = file('/s/spool', 2)
ev(100000, 10, 13, spool)
ev(200000, 10, 1, spool, ret=5, arg=os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
ev(300000, 10, 17, spool, size=32768, ret=48, fd=5)
ev(400000, 10, 2, spool, fd=5)
ev(128000000, 10, 14, spool)
for p in range(2):
    for i in range(12):
        tmp, dump = file('/s/spool/.tmp%d.%d' % (p, i)), file('/s/spool/d%d.%d' % (p, i))
        t = 1000000 + i * 10000000 + p * 3000000
        ev(t, 10 + p, 1, tmp, ret=3, arg=O_WRONLY | O_CREAT | O_TRUNC)
        for k in range(N):
            ev(t + 10000 * (k + 1), 10 + p, 4, tmp, off=k * CHUNK, size=CHUNK,
               ret=CHUNK, fd=3)
        ev(t + 100000, 10 + p, 6, tmp, fd=3)
        ev(t + 110000, 10 + p, 2, tmp, fd=3)
        ev(t + 120000, 10 + p, 12, tmp, dump)
        c = t + 1000000
        ev(c, 20 + p, 1, dump, ret=4, arg=0)
        for k in range(N + 1):
            ev(c + 10000 * (k + 1), 20 + p, 3, dump, off=k * CHUNK,
               size=CHUNK, ret=CHUNK if k < N else 0, fd=4)
        ev(c + 100000, 20 + p, 2, dump, fd=4)
        ev(c + 110000, 20 + p, 11, dump)
out = b''.join(rec(2, struct.pack('<IBBHQQQ', i + 1, k, 0, len(p), 0, 0, 0) + p)
               for i, (k, p) in enumerate(files))
evs.sort(key=lambda e: (e[1], e[0]))
out += rec(3, b''.join(e[2] for e in evs))
out += rec(4, struct.pack('<QQQQQQ', len(evs), 0, 130 * 10**6, 0, 0, 0))
open(sys.argv[1], 'wb').write(b'IOTRACE\n' + struct.pack('<HHI', 1, 0, 16)
                              + out)
PY
check "the trace is written" test -s "$TEST_TMP/pc.trace"

want=$((2 * 12 * 8 * 262144))
for mode in "--speed max" "--speed max --mode closed" "--speed 4"; do
	# shellcheck disable=SC2086
	"$IOTRIAL" run replay --trace "$TEST_TMP/pc.trace" -t "$T" \
		--no-store $mode --json="$TEST_TMP/r.json" \
		>"$TEST_TMP/out" 2>"$TEST_TMP/err"
	check "replay $mode runs" test $? = 0
	got=$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print("%d %d" % (r["bytes_read"], r["bytes_written"]))' "$TEST_TMP/r.json")
	check "$mode: every recorded byte read and written ($got)" \
		test "$got" = "$want $want"
	check "$mode: no call ended otherwise than recorded" \
		grep -q "; 0 calls ended otherwise than recorded" \
		"$TEST_TMP/out" "$TEST_TMP/err"
	# timed, a real fsync may take longer than its recorded 5 us
	[ "$mode" = "--speed 4" ] && continue
	check "$mode: no fidelity warning" test -z "$(grep "not faithful" \
		"$TEST_TMP/out" "$TEST_TMP/err")"
done
check "the consumers waited for the producers (--speed 4)" \
	grep -q "^note: [0-9]* calls waited for another thread" \
	"$TEST_TMP/out" "$TEST_TMP/err"
check "nothing is left in the target" \
	test -z "$(find "$T" -mindepth 1 -print -quit)"

# the directories a replay keeps open follow what the trace does to
# them: after a rename of a, a create in a fails as recorded and b/f is
# there; after b's rmdir and mkdir, a create in the new b succeeds
python3 - "$TEST_TMP/dirs.trace" <<'PY'
import os, struct, sys
def rec(t, p): return struct.pack('<II', t, len(p)) + p
files = [(2, b'/s/a'), (1, b'/s/a/f'), (2, b'/s/b'), (1, b'/s/b/f'),
         (1, b'/s/a/g'), (1, b'/s/b/h')]
C = os.O_WRONLY | os.O_CREAT | os.O_EXCL
calls = [(13, 1, 0, 0, 0), (1, 2, 0, 3, C), (2, 2, 0, 0, 0),
         (12, 1, 3, 0, 0), (1, 5, 0, -2, C), (1, 4, 0, 3, 0),
         (2, 4, 0, 0, 0), (11, 4, 0, 0, 0), (14, 3, 0, 0, 0),
         (13, 3, 0, 0, 0), (1, 6, 0, 3, C), (2, 6, 0, 0, 0),
         (11, 6, 0, 0, 0), (14, 3, 0, 0, 0)]
ev = b''.join(struct.pack('<QQIHHIIQQqIi', 1000 * (i + 1), 100, 7, op, 0,
                          f, f2, 0, 0, ret, arg, 3 if op == 2 else -1)
              for i, (op, f, f2, ret, arg) in enumerate(calls))
out = b''.join(rec(2, struct.pack('<IBBHQQQ', i + 1, k, 0, len(p), 0, 0, 0)
                   + p) for i, (k, p) in enumerate(files))
out += rec(3, ev) + rec(4, struct.pack('<QQQQQQ', len(calls), 0, 10**6, 0,
                                       0, 0))
open(sys.argv[1], 'wb').write(b'IOTRACE\n' + struct.pack('<HHI', 1, 0, 16)
                              + out)
PY
"$IOTRIAL" run replay --trace "$TEST_TMP/dirs.trace" -t "$T" --no-store \
	--speed max >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "a trace that renames and remakes directories replays" test $? = 0
check "... every call ending as recorded" \
	grep -q "; 0 calls ended otherwise than recorded" "$TEST_TMP/out" \
	"$TEST_TMP/err"
check "... and nothing is left in the target" \
	test -z "$(find "$T" -mindepth 1 -print -quit)"
