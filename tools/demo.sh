#!/usr/bin/env bash
# make demo: install missing build dependencies (when root; otherwise print
# the apt-get line and stop), build, and run iotrial's main job on its
# embedded defaults in a scratch directory under $TMPDIR.
set -eu
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ]; then
	tools/deps.sh --build-only --install
else
	tools/deps.sh --build-only || exit 1
fi
make --no-print-directory iotrial
base=${TMPDIR:-/tmp}
echo
echo "== iotrial demo: a short default suite in $base (about 20 s) =="
for w in seqwrite seqread randwrite randread; do
	echo
	echo "\$ ./iotrial run $w -t $base --size=128M --time 4s"
	./iotrial run "$w" -t "$base" --size=128M --time 4s
done
