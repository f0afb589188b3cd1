#!/usr/bin/env bash
# The Debian packages in deps.txt that are missing: installed (as root,
# with --install) or named with the apt-get line that installs them.
#
#   tools/deps.sh [--build-only | --fleet] [--install] [--for WHAT]
#
#   --build-only  only the first block of deps.txt (what building needs)
#   --fleet       also the last block (make check-fleet's SSH hosts),
#                 which make check leaves out
#   --install     when root, install what is missing with apt-get
#   --for WHAT    the command that needs them ("make check"), for messages
#
# Exit 0 when everything is present afterwards, 1 when something is
# missing and was not installed: the message says why and gives the
# exact apt-get line. On a system without dpkg nothing can be checked: a
# warning names the packages and the exit is 0.
set -u
here=$(cd "$(dirname "$0")" && pwd)
only_build=0 fleet=0 install=0 what="this"
while [ $# -gt 0 ]; do
	case $1 in
	--build-only) only_build=1 ;;
	--fleet) fleet=1 ;;
	--install) install=1 ;;
	--for)
		what="'$2'"
		shift
		;;
	*)
		echo "usage: tools/deps.sh [--build-only | --fleet] [--install] [--for WHAT]" >&2
		exit 2
		;;
	esac
	shift
done
pkgs=()
while IFS= read -r line; do
	case $line in
	"# tests"*) [ "$only_build" = 1 ] && break; continue ;;
	"# fleet over SSH"*) [ "$fleet" = 1 ] || break; continue ;;
	"#"* | "") continue ;;
	esac
	pkgs+=("$line")
done <"$here/deps.txt"
if ! command -v dpkg-query >/dev/null; then
	echo "warning: not a Debian system (no dpkg-query): cannot check that" \
		"these packages, or their equivalents, are installed: ${pkgs[*]}" >&2
	exit 0
fi
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ "${#missing[@]}" = 0 ] && exit 0
line="apt-get update && apt-get install -y ${missing[*]}"
if [ "$install" = 1 ] && [ "$(id -u)" = 0 ]; then
	echo "installing what $what needs: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq "${missing[@]}" && exit 0
	echo "error: apt-get failed; run by hand: $line" >&2
	exit 1
fi
echo "error: $what needs Debian packages that are not installed:" \
	"${missing[*]}" >&2
echo "install them as root with:" >&2
echo "    $line" >&2
if [ "$install" = 1 ]; then
	echo "(or run $what as root: it installs them itself)" >&2
fi
exit 1
