#!/usr/bin/env bash
# Every job file of fio's own examples directory, as the installed fio
# ships them (Debian's fio-examples: /usr/share/doc/fio/examples, or
# FIO_EXAMPLES=DIR), through 'iotrial run --job', table-driven: each one
# either runs (quickly: -t DIR, --size, --time) or is refused, exit 2 and
# nothing left behind, with one error line that names the one option
# iotrial does not run and says why. The table holds every file of fio
# 3.33 (Debian 12) and of later releases; a row whose file this fio does
# not ship is passed over, a file with no row fails. The counts are
# checked and printed. fio's files are read where fio put them, never
# copied into this repository.
. "$(dirname "$0")/lib.sh"

examples=${FIO_EXAMPLES:-/usr/share/doc/fio/examples}
ls "$examples"/*.fio >/dev/null 2>&1 ||
	skip "no fio examples in '$examples' (Debian's fio-examples package)"
# O_DIRECT needs a real file system; /tmp may be a tmpfs
dir=$(mktemp -d /var/tmp/iotrial-test.XXXXXX)
TEST_DIRS+=("$dir")
json=$TEST_TMP/out.json

# The variables fio's examples expect from their users (their comments
# say so): set, so that what is refused is an option, not a variable.
export POOL=pool CONT=cont FIO_DIR=$dir GPU_DEV_IDS=0 FIO_BS=4096 \
	FIO_RW=randread FIO_IODEPTH=16 S3_KEY=key S3_ID=id SSE_KEY=sse \
	STORAGE_CLASS=STANDARD SWIFT_id=token unixsocket=$TEST_TMP/sock \
	RDMA_SERVER=localhost

# FILE  what happens: "run", or the option (ioengine=NAME for an engine)
# the refusal names; A|B where fio's releases differ in the file
table=$(cat <<'TABLE'
1mbs_clients.fio                   rate
aio-read.fio                       run
atomic-verify.fio                  atomic
backwards-read.fio                 rw
basic-verify.fio                   run
butterfly.fio                      flow
cmdprio-bssplit.fio                bssplit
cmdprio-percentage.fio             prioclass
cpp_null.fio                       ioengine=cpp_null
cpuio.fio                          ioengine=cpuio
cross-stripe-verify.fio            io_size
dedupe-global.fio                  dedupe_mode
dev-dax.fio                        ioengine=dev-dax
dfs.fio                            ioengine=dfs
dircreate-ioengine.fio             ioengine=dircreate
dirdelete-ioengine.fio             ioengine=dirdelete
dirstat-ioengine.fio               ioengine=dirstat
disk-zone-profile.fio              zonesize|zonemode
e4defrag.fio                       ioengine=e4defrag
e4defrag2.fio                      ioengine=e4defrag
enospc-pressure.fio                exitall
exec.fio                           ioengine=exec
exitwhat.fio                       rate
falloc.fio                         ioengine=falloc
filecreate-ioengine.fio            ioengine=filecreate
filedelete-ioengine.fio            ioengine=filedelete
filestat-ioengine.fio              ioengine=filestat
filexattr-ioengine.fio             ioengine=filesetxattr
fio-rand-RW.fio                    run
fio-rand-read.fio                  run
fio-rand-write.fio                 run
fio-seq-RW.fio                     rw
fio-seq-read.fio                   run
fio-seq-write.fio                  run
fixed-rate-submission.fio          rate_iops
flow.fio                           flow
fsx.fio                            run
ftruncate.fio                      ioengine=ftruncate
fusion-aw-sync.fio                 ioengine=fusion-aw-sync
gfapi.fio                          ioengine=gfapi
gpudirect-rdmaio-client.fio        ioengine=rdma
gpudirect-rdmaio-server.fio        ioengine=rdma
http-s3-crypto.fio                 ioengine=http
http-s3-storage-class.fio          ioengine=http
http-s3.fio                        ioengine=http
http-swift.fio                     ioengine=http
http-webdav.fio                    ioengine=http
iometer-file-access-server.fio     bssplit
ime.fio                            ioengine=ime_psync
iodepth_mode_stepped.fio           iodepth_mode
jesd219.fio                        bssplit
latency-profile.fio                latency_target
libblkio-io_uring.fio              ioengine=libblkio
libblkio-virtio-blk-vfio-pci.fio   ioengine=libblkio
libcufile-cufile.fio               ioengine=libcufile
libcufile-posix.fio                ioengine=libcufile
libhdfs.fio                        ioengine=libhdfs
libhipfile-hipfile.fio             ioengine=libhipfile
libhipfile-posix.fio               ioengine=libhipfile
libiscsi.fio                       ioengine=libiscsi
libpmem.fio                        ioengine=libpmem
librpma_apm-client.fio             ioengine=librpma_apm_client
librpma_apm-server.fio             ioengine=librpma_apm_server
librpma_gpspm-client.fio           ioengine=librpma_gpspm_client
librpma_gpspm-server.fio           ioengine=librpma_gpspm_server
libzbc-rand-write.fio              ioengine=libzbc
libzbc-seq-read.fio                ioengine=libzbc
mmap-cxlmem.fio                    overwrite
mobile-storage.fio                 run
mtd.fio                            ioengine=mtd
nbd.fio                            ioengine=nbd
netio.fio                          ioengine=net
netio_multicast.fio                ioengine=net
netio_vsock.fio                    ioengine=net
netio_vsock_receiver.fio           ioengine=net
netio_vsock_sender.fio             ioengine=net
nfs.fio                            ioengine=nfs
null.fio                           ioengine=null
numa.fio                           numa_cpu_nodes
page_fault.fio                     ioengine=page_fault
pmemblk.fio                        ioengine=pmemblk
poisson-rate-submission.fio        rate_iops
rados.fio                          ioengine=rados
rand-zones.fio                     random_distribution
rbd.fio                            ioengine=rbd
rdmaio-client-all.fio              ioengine=rdma
rdmaio-client.fio                  ioengine=rdma
rdmaio-client2.fio                 ioengine=rdma
rdmaio-server.fio                  ioengine=rdma
sequence-distribution.fio          ioengine=null
sg_verify-fail.fio                 ioengine=sg
sg_verify.fio                      ioengine=sg
sg_write_same_ndob.fio             ioengine=sg
sgunmap.fio                        ioengine=sgunmap
sheepdog.fio                       ioengine=sheepdog
sprandom.fio                       sprandom
ssd-steadystate.fio                run
ssd-test.fio                       run
steadystate.fio                    ss
surface-scan.fio                   fill_device
tiobench-example.fio               run
uring-cmd-bsg.fio                  ioengine=io_uring_cmd
uring-cmd-fdp.fio                  ioengine=io_uring_cmd
uring-cmd-ng.fio                   ioengine=io_uring_cmd
uring-cmd-pi-ext.fio               ioengine=io_uring_cmd
uring-cmd-pi-sb.fio                ioengine=io_uring_cmd
uring-cmd-trim-multi-range.fio     ioengine=io_uring_cmd
uring-cmd-zoned.fio                ioengine=io_uring_cmd
waitfor.fio                        wait_for
xnvme-compare.fio                  allow_file_create
xnvme-fdp.fio                      fdp
xnvme-pi.fio                       pi_act
xnvme-zoned.fio                    zonemode
zbd-rand-write.fio                 zonemode
zbd-seq-read.fio                   zonemode
zipf.fio                           ioengine=null
TABLE
)

# The job sections of FILE (every [name] but [global]).
nr_jobs() {
	echo $(($(grep -cE '^[[:space:]]*\[' "$1") -
		$(grep -cE '^[[:space:]]*\[global\]' "$1")))
}

runs=0 refused=0 seen=" "
while read -r file want; do
	[ -n "$file" ] || continue
	seen+="$file "
	f=$examples/$file
	[ -f "$f" ] || continue # another fio release's example
	if [ "$want" = run ]; then
		rm -f "$json"
		"$IOTRIAL" run --job "$f" -t "$dir" --size 1M --time 20ms \
			--no-store --quiet --json="$json" >/dev/null \
			2>"$TEST_TMP/err"
		rc=$?
		n=$(nr_jobs "$f")
		if [ $rc = 0 ] && [ "$(json "$json" 'len(o["jobs"])')" = "$n" ]; then
			runs=$((runs + 1))
			ok "$file runs, its $n job section(s) each a run"
		else
			fail "$file runs (rc=$rc: $(head -c 300 "$TEST_TMP/err"))"
		fi
		continue
	fi
	before=$(find "$dir" | sort)
	"$IOTRIAL" run --job "$f" -t "$dir" --size 1M --time 20ms \
		--no-store >/dev/null 2>"$TEST_TMP/err"
	rc=$?
	after=$(find "$dir" | sort)
	key=${want%%=*}
	# "error: FILE:LINE: 'KEY=VALUE' why..." and nothing else; the why is
	# one of iotrial's reasons, never the bare "not an option" of an
	# option nobody wrote a reason for
	if [ $rc = 2 ] && [ "$(grep -c . "$TEST_TMP/err")" = 1 ] &&
		grep -qE "^error: [^ ]*$file:[0-9]+: '($want)(=[^']*)?' [a-z]+ .{30,}" \
			"$TEST_TMP/err" &&
		! grep -q "is not an option iotrial runs" "$TEST_TMP/err" &&
		[ "$before" = "$after" ]; then
		refused=$((refused + 1))
		ok "$file is refused naming '$key' and why"
	else
		fail "$file is refused naming '$want' and why (rc=$rc: $(head -c 400 "$TEST_TMP/err"))"
	fi
done <<<"$table"

# every example is in the table
for f in "$examples"/*.fio; do
	case $seen in *" ${f##*/} "*) ;; *) fail "${f##*/} is in the table" ;; esac
done
total=$(ls "$examples"/*.fio | wc -l)
echo "# fio's examples: $total job files, $runs run, $refused refused (each naming one option and why)"
check "the counts: $total = $runs run + $refused refused" \
	test "$total" = $((runs + refused))
