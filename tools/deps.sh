#!/usr/bin/env bash
# Install (as root) or name (otherwise) the Debian packages in deps.txt
# that are missing. Usage: tools/deps.sh [--build-only] [--install]
# Exit 0 when everything is present afterwards, 1 when something is
# missing and could not be installed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
only_build=0 install=0
for a in "$@"; do
	case $a in
	--build-only) only_build=1 ;;
	--install) install=1 ;;
	esac
done
pkgs=()
while IFS= read -r line; do
	case $line in
	"# tests"*) [ "$only_build" = 1 ] && break; continue ;;
	"#"* | "") continue ;;
	esac
	pkgs+=("$line")
done <"$here/deps.txt"
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ "${#missing[@]}" = 0 ] && exit 0
line="apt-get update && apt-get install -y ${missing[*]}"
if [ "$install" = 1 ] && [ "$(id -u)" = 0 ]; then
	echo "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq "${missing[@]}" && exit 0
	echo "error: apt-get failed; run by hand: $line" >&2
	exit 1
fi
echo "error: missing packages: ${missing[*]}" >&2
echo "install them as root with: $line" >&2
exit 1
