#!/bin/sh
# Throwaway build of the static test helpers (the Makefile will do the same):
#   tests/helpers/build.sh OUTDIR
set -eu
out=${1:?usage: build.sh OUTDIR}
src=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
for c in "$src"/*.c; do
	name=$(basename "$c" .c)
	gcc -static -O2 -Wall -Wextra -Werror -pthread -o "$out/$name" "$c"
done
