#!/bin/sh
# Throwaway build of the static test helpers (the Makefile will do the same):
#   tests/helpers/build.sh OUTDIR
# A helper is NAME.c and its parts NAME_*.c (attack_udp.c is attack's).
set -eu
out=${1:?usage: build.sh OUTDIR}
src=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
for c in "$src"/*.c; do
	name=$(basename "$c" .c)
	case $name in
	*_*) continue ;;
	esac
	parts=$(find "$src" -maxdepth 1 -name "${name}_*.c" | sort)
	# shellcheck disable=SC2086 # $parts: a list of paths without blanks
	gcc -static -O2 -Wall -Wextra -Werror -pthread -o "$out/$name" "$c" \
		$parts
done
