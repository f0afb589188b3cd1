#!/usr/bin/env bash
# The HTML report in a real browser: headless Chromium renders it light,
# dark (prefers-color-scheme: dark) and printed to an A4 PDF, with no
# console message and no network request. Requests are seen in Chromium's
# own log (NetworkDelegate::NotifyBeforeURLRequest at --v=1), names
# resolve to nothing, and the page is also loaded without its CSP, so
# that the check is "the page asks for nothing", not "the CSP blocked
# it". A planted <img> must be caught by both checks, or they prove
# nothing. The screenshots are decoded to check the background really is
# light and dark. REPORT_SHOTS_DIR, when set, keeps the screenshots.
# parallel: renders files of its own in a browser of its own
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"

if ! command -v chromium >/dev/null && [ "$(id -u)" = 0 ] &&
	command -v apt-get >/dev/null; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends chromium >"$TEST_TMP/apt.log" 2>&1
fi
command -v chromium >/dev/null ||
	skip "chromium cannot be installed here (apt-get install chromium)"

dir=$TEST_TMP/target
db=$TEST_TMP/store/results.db
mkdir -p "$dir"
"$IOTRIAL" compare seqwrite -t "$dir" --size=4M --no-drop-caches --quiet \
	--vary bs=4k,64k --vary 'label=plain,<i>"x"</i>' --ios 2000 \
	--runs 3 --seed 3 --db "$db" >/dev/null 2>"$TEST_TMP/cmp.err"
check "compare exits 0" test $? = 0
id=$("$IOTRIAL" log --db "$db" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["experiments"][0]["id"])')
html=$TEST_TMP/report.html
"$IOTRIAL" report "$id" --db "$db" --format html -o "$html"
check "report --format html exits 0" test $? = 0

# chromium LOG URL [FLAGS...]: render URL with FLAGS; its log into LOG
chromium_run() {
	local log=$1 url=$2
	shift 2
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --hide-scrollbars \
		--user-data-dir="$TEST_TMP/profile" --enable-logging=stderr \
		--v=1 '--host-resolver-rules=MAP * ~NOTFOUND' \
		--window-size=1366,3400 "$@" "$url" >"$log" 2>&1
}

# page_requests LOG: the URLs the page asked for. The browser's own
# service requests (time, update, accounts, and on a first run of a new
# profile www.google.com's) go to Google's hosts and are not the page's:
# the page's own would be to the hosts it names.
page_requests() {
	sed -n 's/.*NotifyBeforeURLRequest: //p' "$1" |
		grep -vE '^https?://([a-z0-9-]+\.)*(google\.com|googleapis\.com|gvt1\.com|gstatic\.com)/' || true
}

# console LOG: the console messages of the page
console() { grep 'CONSOLE' "$1" || true; }

# png_mean PNG: the mean brightness (0-255) of an 8-bit RGB(A) PNG
png_mean() {
	python3 - "$1" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        bpp = {2: 3, 6: 4}[ctype]
        assert depth == 8
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
total = count = 0
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            line[i] = (line[i] + pr) & 255
    if y % 4 == 0:
        for x in range(0, w, 4):
            px = line[x * bpp:x * bpp + 3]
            total += sum(px) / 3
            count += 1
    prev = line
print(int(total / count))
PY
}

shots=$TEST_TMP/shots
mkdir -p "$shots"
chromium_run "$TEST_TMP/light.log" "file://$html" \
	--screenshot="$shots/report-light.png"
check "light: a screenshot was taken" test -s "$shots/report-light.png"
check "light: no console message" test -z "$(console "$TEST_TMP/light.log")"
check "light: no network request" test -z "$(page_requests "$TEST_TMP/light.log")"
light=$(png_mean "$shots/report-light.png")
check "light: the page is light ($light)" test "${light:-0}" -gt 200

chromium_run "$TEST_TMP/dark.log" "file://$html" --force-dark-mode \
	--screenshot="$shots/report-dark.png"
check "dark: a screenshot was taken" test -s "$shots/report-dark.png"
check "dark: no console message" test -z "$(console "$TEST_TMP/dark.log")"
check "dark: no network request" test -z "$(page_requests "$TEST_TMP/dark.log")"
dark=$(png_mean "$shots/report-dark.png")
check "dark: the page is dark ($dark)" test "${dark:-255}" -lt 70

chromium_run "$TEST_TMP/print.log" "file://$html" --no-pdf-header-footer \
	--print-to-pdf="$shots/report-print.pdf"
check "print: a PDF was written" test "$(head -c 5 "$shots/report-print.pdf" 2>/dev/null)" = "%PDF-"
check "print: no console message" test -z "$(console "$TEST_TMP/print.log")"
check "print: no network request" test -z "$(page_requests "$TEST_TMP/print.log")"
if command -v pdfinfo >/dev/null; then
	check "print: the pages are A4" \
		grep -qE '^Page size: +59[45](\.[0-9]+)? x 84[12](\.[0-9]+)? pts \(A4\)' \
		<(pdfinfo "$shots/report-print.pdf")
fi
if command -v pdftoppm >/dev/null; then
	pdftoppm -r 70 -png "$shots/report-print.pdf" "$shots/report-print"
	check "print: the first page renders" test -s "$(ls "$shots"/report-print-*1.png | head -1)"
fi

# without its CSP the page still asks for nothing
grep -v 'Content-Security-Policy' "$html" >"$TEST_TMP/nocsp.html"
chromium_run "$TEST_TMP/nocsp.log" "file://$TEST_TMP/nocsp.html" \
	--screenshot="$TEST_TMP/nocsp.png"
check "without the CSP: no network request" test -z "$(page_requests "$TEST_TMP/nocsp.log")"
check "without the CSP: no console message" test -z "$(console "$TEST_TMP/nocsp.log")"

# the checks catch what they look for: a planted image
sed 's|<footer>|<img src="http://example.invalid/x.png"><footer>|' \
	"$TEST_TMP/nocsp.html" >"$TEST_TMP/planted.html"
chromium_run "$TEST_TMP/planted.log" "file://$TEST_TMP/planted.html" \
	--screenshot="$TEST_TMP/planted.png"
check "a planted image's request is seen" \
	grep -q 'example.invalid' <(page_requests "$TEST_TMP/planted.log")
sed 's|<footer>|<img src="http://example.invalid/x.png"><footer>|' \
	"$html" >"$TEST_TMP/planted-csp.html"
chromium_run "$TEST_TMP/planted-csp.log" "file://$TEST_TMP/planted-csp.html" \
	--screenshot="$TEST_TMP/planted-csp.png"
check "with the CSP the planted image is refused, on the console" \
	grep -q 'example.invalid' <(console "$TEST_TMP/planted-csp.log")
check "with the CSP the planted image is not fetched" \
	test -z "$(page_requests "$TEST_TMP/planted-csp.log")"

if [ -n "${REPORT_SHOTS_DIR:-}" ]; then
	mkdir -p "$REPORT_SHOTS_DIR" && cp "$shots"/* "$html" "$REPORT_SHOTS_DIR"/
fi
