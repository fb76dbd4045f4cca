#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# landlock-memfd.sh: executing a memfd on the Landlock engine (issue 35,
# point 4).  Landlock allows every access to a file on an internal mount,
# so a sandbox could copy any program into a memfd and run it, whatever
# its exec rules say.  corral's seccomp filter refuses to make a memfd
# that could be executed (memfd_create without MFD_NOEXEC_SEAL, or with
# MFD_EXEC: ENOSYS, as a kernel without memfd_create answers) unless a
# profile says exec-anonymous = yes.
#
#   - outside: the escape helper copies itself into a memfd and runs it
#     from there (the control; without it nothing is proved)
#   - inside: memfd_create refuses (ENOSYS), nothing runs
#   - inside, exec-anonymous = yes: it runs
#   - inside: a memfd with MFD_NOEXEC_SEAL is still made (6.3 and later;
#     python3 asks), one with MFD_EXEC is not
#
#   T/anon.profile   [sandbox] exec-anonymous = yes
. "$(dirname "$0")/../integration/lib.sh"

[ -x "$CORRAL" ] || { echo "Bail out! CORRAL=$CORRAL is not built"; exit 1; }
ESC=$CORRAL_HELPERS/escape
[ -x "$ESC" ] || skip_all "the escape helper is not built in $CORRAL_HELPERS"
[ "$(landlock_abi)" -ge 1 ] || skip_all "Landlock is not available"
make_tmp T memfd || skip_all "cannot make a temp dir"
printf '[sandbox]\nexec-anonymous = yes\n[network]\nnet = all\n' >"$T/anon.profile"

# inside ARGS...: the escape helper's memfd-exec under the Landlock engine
inside() {
	"$CORRAL" -q --engine=landlock --rx "$CORRAL_HELPERS" "$@" -- \
		"$ESC" memfd-exec 2>&1
}
ran="memfd-exec: euid=$(id -u) egid=$(id -g) "
out=$("$ESC" memfd-exec 2>&1)
[[ $out == "$ran"* ]] && ok "outside: a copy of the helper runs from a memfd (the control)" ||
	not_ok "outside: a copy of the helper runs from a memfd (the control)" "$out"
is "$(inside)" "memfd-exec: ENOSYS" \
	"inside: no memfd that could be executed is made (ENOSYS), nothing runs"
is "$(inside --ro /)" "memfd-exec: ENOSYS" \
	"inside, whatever the file rules allow (--ro /): the same"
out=$(inside --profile "$T/anon.profile")
[[ $out == "$ran"* ]] && ok "inside, exec-anonymous = yes: it runs" ||
	not_ok "inside, exec-anonymous = yes: it runs" "$out"

# MFD_NOEXEC_SEAL (8) appeared in 6.3: below, the kernel refuses it itself
# the system python3 (a pyenv shim first in PATH would want more rules)
PY=$(type -P /usr/bin/python3 python3 | head -n 1)
kmaj=$(uname -r | cut -d. -f1) kmin=$(uname -r | cut -d. -f2)
if [ -z "$PY" ]; then
	skip "inside: MFD_NOEXEC_SEAL still works" "no python3"
elif [ "$kmaj" -lt 6 ] || { [ "$kmaj" = 6 ] && [ "$kmin" -lt 3 ]; }; then
	skip "inside: MFD_NOEXEC_SEAL still works" "kernel $(uname -r) < 6.3"
else
	out=$("$CORRAL" -q --engine=landlock --rx / -- "$PY" -c '
import os
for flags in (8, 8 | 1, 0x10, 0):
    try:
        os.close(os.memfd_create("x", flags))
        print(flags, "OK")
    except OSError as e:
        print(flags, e.strerror)' 2>&1)
	is "$out" $'8 OK\n9 OK\n16 Function not implemented\n0 Function not implemented' \
		"inside: MFD_NOEXEC_SEAL (with MFD_CLOEXEC too) still makes a memfd, MFD_EXEC and no flag do not"
fi

done_testing
