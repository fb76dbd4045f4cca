#!/bin/sh
# seed-corpus.sh SRCDIR OUTDIR: the fuzzer's seed corpus - every shipped
# profile, the unit-test fixtures, and a few hand-made edge cases (long
# lines, continuations, CRLF, NUL, variables, each [sandbox] value).
set -eu
src=${1:?usage: seed-corpus.sh SRCDIR OUTDIR}
out=${2:?usage: seed-corpus.sh SRCDIR OUTDIR}
mkdir -p "$out"
for f in "$src"/profiles/*.profile "$src"/tests/unit/profiles/*.profile \
	"$src"/tests/unit/profiles/*/*.profile; do
	[ -f "$f" ] || continue
	name=$(echo "$f" | sed "s|^$src/||; s|/|_|g")
	cp "$f" "$out/seed-$name"
done
seed() { printf "$2" >"$out/seed-edge-$1"; }
seed continuation '[filesystem]\nrw = /a ; c\n     /b\n\t-${HOME}/c ; d\nro:/e\n'
seed crlf '[profile]\r\ndescription = x\r\n[filesystem]\r\nro = /x\r\n'
seed vars '[filesystem]\nrw = ${CWD}/$$/${XDG_CACHE_HOME}\n -${XDG_RUNTIME_DIR}/s\nro = ${NOPE}\n ${HOME\n'
seed rights '[filesystem]\nread,exec = /a\nwrite, truncate = /b\nioctl,rwx=/c\nraed = /d\n'
seed sandbox '[sandbox]\nexec-anonymous = yes\nunix-connect = allow\nrequire = bpf\nrequire = any\n'
seed errors '[nope]\n[filesystem\nrw\nrw =\n = /x\n[profile]\ninclude = base\nname = x\n'
seed nul '[filesystem]\nro = /a\000b\n'
long=$(printf '%0194d' 0)
seed long "ro = $long\nrw = /\n"
