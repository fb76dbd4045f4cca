#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cache-dirs.sh: a profile's cache = PATH (issue 35, point 8).  A missing
# cache directory below ${HOME} is made at launch, mode 0700, as the user
# launching (each missing directory above it too), instead of failing the
# first run; one that exists is left as it is; a symlink below ${HOME}
# that the user does not own is not followed; cache = outside ${HOME} is
# a plain rw rule; explain, check and --print-profile make nothing.
#
#   T/          0755
#   T/p/        the profiles
#   T/h/        HOME of uid $U (0700, its own), with a project proj/.git
#   T/else/     root's: where a root-owned symlink T/h/.cache/x points
#
# Launches use the Landlock engine (skipped without it), as uid $U with
# setpriv (skipped when not root).
. "$(dirname "$0")/../integration/lib.sh"

[ -x "$CORRAL" ] || { echo "Bail out! CORRAL=$CORRAL is not built"; exit 1; }
[ "$(landlock_abi)" -gt 0 ] 2>/dev/null || skip_all "Landlock is not enabled"
is_root || skip_all "needs root (to act as another user with setpriv)"
U=65533
make_tmp T cache-dirs || skip_all "cannot make a temp dir"
chmod 755 "$T"
H=$T/h
mkdir -p "$T/p" "$H/proj/.git" "$H/tmp" "$T/else" && chmod 700 "$H" "$H/tmp" &&
	chown -R "$U:$U" "$H" || exit 1
cat >"$T/p/c.profile" <<'EOP'
[filesystem]
rx = /usr
     -/lib
     -/lib64
cache = ${HOME}/.npm
        -${XDG_CACHE_HOME}/pip/http
EOP
printf '[filesystem]\nrx = /usr\ncache = %s/out/x\n' "$T" >"$T/p/out.profile"
printf '[filesystem]\nrx = /usr\ncache = ${HOME}/.cache/x/y\n' >"$T/p/link.profile"

# as_u ARGS...: corral ARGS as uid $U in $H/proj, HOME=$H; $out is stdout
# and stderr, $rc the exit status.  TMPDIR is a private one of $U's, so
# that no launch leaves a /tmp/corral-$U behind (private-tmp.sh needs
# that name free, and runs as the same uid).
as_u() {
	out=$(cd "$H/proj" && setpriv --reuid=$U --regid=$U --clear-groups \
		env -i PATH=/usr/bin:/bin HOME="$H" TMPDIR="$H/tmp" CORRAL_QUIET=1 \
		"$CORRAL" "$@" 2>&1)
	rc=$?
}

as_u explain --profile "$T/p/c.profile" --op write "$H/.npm/x"
as_u check "$T/p/c.profile"
as_u --print-profile="$T/p/c.profile"
[ ! -e "$H/.npm" ] && [ ! -e "$H/.cache" ] &&
	ok "explain, check and --print-profile make no cache directory" ||
	not_ok "explain, check and --print-profile make no cache directory" \
		"$(ls -la "$H")"
is "$(printf '%s\n' "$out" | grep '^cache' | cut -d';' -f1 | tr -s ' ')" \
	"cache = $H/.npm "$'\n'"cache = -$H/.cache/pip/http " \
	"--print-profile shows cache = PATH, so that it reads back"

as_u --profile "$T/p/c.profile" -- /bin/sh -c 'echo x >"$HOME/.npm/f" && echo y >"$HOME/.cache/pip/http/g" && echo wrote'
is "$rc:$out" "0:wrote" "a first run with no cache directory: they are made, and writable"
is "$(stat -c '%a %u %g' "$H/.npm" "$H/.cache" "$H/.cache/pip" "$H/.cache/pip/http" | sort -u)" \
	"700 $U $U" "each directory made is 0700, the user's, in the user's own group"
chmod 750 "$H/.npm"
as_u --profile "$T/p/c.profile" -- /bin/true
is "$rc:$(stat -c %a "$H/.npm")" "0:750" "a cache directory that exists is left as it is"

as_u --profile "$T/p/out.profile" -- /bin/true
is "$rc:$out" "125:corral: $T/out/x: No such file or directory (profile $T/p/out.profile:3); prefix the path with '-' in the profile to make it optional" \
	"cache = outside \${HOME}: nothing made, a missing path as for rw ="

# the shipped profiles: a first npm or pip run on a fresh account
rm -rf "$H/.npm" "$H/.cache"
out=$(cd "$H/proj" && setpriv --reuid=$U --regid=$U --clear-groups \
	env -i PATH=/usr/bin:/bin HOME="$H" TMPDIR="$H/tmp" CORRAL_QUIET=1 \
	CORRAL_PROFILE_PATH="$CORRAL_SRCDIR/profiles" \
	"$CORRAL" --profile npm --profile pip --net-best-effort -- /bin/true 2>&1)
is "$?:$out:$(stat -c %a "$H/.npm" "$H/.cache/pip" 2>&1 | tr '\n' ' ')" \
	"0::700 700 " \
	"npm.profile and pip.profile on a first run: ~/.npm and ~/.cache/pip made, 0700"

mkdir -p "$H/.cache" && chown "$U:$U" "$H/.cache" && ln -s "$T/else" "$H/.cache/x" || exit 1
as_u --profile "$T/p/link.profile" -- /bin/true
is "$rc:$out" "125:corral: $H/.cache/x/y: not made: x is a symlink you do not own (profile $T/p/link.profile:3); make the directory yourself" \
	"a symlink below \${HOME} that the user does not own is not followed"
[ ! -e "$T/else/y" ] && ok "nothing is made where that symlink points" ||
	not_ok "nothing is made where that symlink points"

done_testing
