#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# project.sh: the project never grows to home or root.  ${PROJECT} and
# ${CWD} that would be /, $HOME or an ancestor of $HOME are an error
# (status 125) naming the variable, its value, the profile line and the
# fix, for a launch, --print-profile, check and explain alike; from a
# project below $HOME (holding .git) or a subdirectory of it they expand;
# --project DIR sets ${PROJECT} under the same rule.
#
#   T/               the parent of HOME
#   T/home/          HOME
#   T/home/proj/     a project (.git), with src/x and a file f
#   T/p/             proj.profile (rw = ${PROJECT}), cwd.profile (ro = ${CWD})
#
# Nothing is sandboxed except where a launch is expected to run, which
# needs Landlock (skipped without it).
. "$(dirname "$0")/../integration/lib.sh"

[ -x "$CORRAL" ] || { echo "Bail out! CORRAL=$CORRAL is not built"; exit 1; }
make_tmp T project || skip_all "cannot make a temp dir"
H=$T/home
mkdir -p "$H/proj/.git" "$H/proj/src" "$T/p" && echo x >"$H/proj/src/x" &&
	echo f >"$H/proj/f" || exit 1
printf '[filesystem]\nrw = ${PROJECT}\n' >"$T/p/proj.profile"
printf '[filesystem]\nro = ${CWD}\n' >"$T/p/cwd.profile"

fix_p="and no profile may give all of it (cd into the project, or give --project DIR)"
fix_c="and no profile may give all of it (cd into the directory the command should work in)"
line_p="corral: profile $T/p/proj.profile:2: \${PROJECT} would be"
line_c="corral: profile $T/p/cwd.profile:2: \${CWD} would be"

# expect NAME DIR STATUS TEXT ARGS...: `corral ARGS` run in DIR with
# HOME=T/home (profiles from $PPATH, default T/p) exits STATUS; for 0, TEXT is a line of its stdout (blanks
# squeezed); otherwise TEXT is its whole stderr, and stdout is empty
expect() {
	local name=$1 dir=$2 status=$3 text=$4 out err rc
	shift 4
	out=$(cd "$dir" && HOME=$H CORRAL_PROFILE_PATH=${PPATH:-$T/p} CORRAL_QUIET=1 \
		"$CORRAL" "$@" 2>"$T/err" </dev/null)
	rc=$?
	err=$(cat "$T/err")
	if [ "$status" -ne 0 ]; then
		[ -z "$out" ] || err="(stdout not empty) $out"
		out=$err
	else
		out=$(printf '%s\n' "$out" | tr -s ' ' | grep -Fx -- "$text")
	fi
	if [ "$rc" -eq "$status" ] && [ "$out" == "$text" ]; then
		ok "$name"
	else
		not_ok "$name" "in $dir: corral $*" "expected (exit $status): $text" \
			"got (exit $rc): $out" "stderr: $err"
	fi
}

# ---- ${PROJECT}: where corral is started --------------------------------
pp=--print-profile=proj
expect "\${PROJECT} from /: an error" / 125 \
	"$line_p /, the root directory, $fix_p" $pp
expect "\${PROJECT} from HOME: an error" "$H" 125 \
	"$line_p $H, your home directory, $fix_p" $pp
expect "\${PROJECT} from HOME's parent: an error" "$T" 125 \
	"$line_p $T, a directory holding your home directory, $fix_p" $pp
expect "\${PROJECT} from a project below HOME: the project" "$H/proj" 0 \
	"rw = $H/proj ; proj.profile:2" $pp
expect "\${PROJECT} from its subdirectory: the project" "$H/proj/src" 0 \
	"rw = $H/proj ; proj.profile:2" $pp

# ---- ${CWD} ------------------------------------------------------------
expect "\${CWD} from /: an error" / 125 \
	"$line_c /, the root directory, $fix_c" --print-profile=cwd
expect "\${CWD} from HOME: an error" "$H" 125 \
	"$line_c $H, your home directory, $fix_c" --print-profile=cwd
expect "\${CWD} from HOME's parent: an error" "$T" 125 \
	"$line_c $T, a directory holding your home directory, $fix_c" \
	--print-profile=cwd
expect "\${CWD} from a project's subdirectory: itself" "$H/proj/src" 0 \
	"ro = $H/proj/src ; cwd.profile:2" --print-profile=cwd

# ---- --project DIR -----------------------------------------------------
expect "--project DIR from HOME: DIR" "$H" 0 \
	"rw = $H/proj ; proj.profile:2" --project proj $pp
expect "--project DIR from /: DIR" / 0 \
	"rw = $H/proj ; proj.profile:2" --project "$H/proj/src/.." $pp
expect "--project a subdirectory: that, as given" "$H/proj" 0 \
	"rw = $H/proj/src ; proj.profile:2" --project src $pp
expect "--project HOME: an error" "$H/proj" 125 \
	"corral: --project ..: that is your home directory, and no profile may give all of it (give the project's own directory)" \
	--project .. $pp
expect "--project /: an error" "$H/proj" 125 \
	"corral: --project /: that is the root directory, and no profile may give all of it (give the project's own directory)" \
	--project / $pp
expect "--project HOME's parent: an error" "$H/proj" 125 \
	"corral: --project $T: that is a directory holding your home directory, and no profile may give all of it (give the project's own directory)" \
	--project "$T" $pp
expect "--project a missing directory: an error" "$H" 125 \
	"corral: --project nosuch: No such file or directory (give the project's directory)" \
	--project nosuch $pp
expect "--project a file: an error" "$H" 125 \
	"corral: --project proj/f: not a directory (give the directory the project is in)" \
	--project proj/f $pp
expect "--project HOME refused with no profile using \${PROJECT}" "$H/proj" 125 \
	"corral: --project $H: that is your home directory, and no profile may give all of it (give the project's own directory)" \
	--project "$H" --print-profile=cwd

# ---- a launch, check and explain say the same --------------------------
expect "a launch from HOME: the error, nothing run" "$H" 125 \
	"$line_p $H, your home directory, $fix_p" --profile proj -- true
expect "a launch from /: the error, nothing run" / 125 \
	"$line_p /, the root directory, $fix_p" --profile proj -- true
expect "check from HOME: the error" "$H" 125 \
	"$line_p $H, your home directory, $fix_p" check "$T/p/proj.profile"
expect "check from the project: ok" "$H/proj/src" 0 \
	"$T/p/proj.profile: ok" check "$T/p/proj.profile"
expect "check --project from HOME: ok" "$H" 0 \
	"$T/p/proj.profile: ok" check --project proj "$T/p/proj.profile"
expect "explain from HOME: the error" "$H" 125 \
	"$line_p $H, your home directory, $fix_p" \
	explain --profile proj proj/src/x
expect "explain from HOME's parent: the error" "$T" 125 \
	"$line_p $T, a directory holding your home directory, $fix_p" \
	explain --profile proj home/proj/src/x
expect "explain from the project's subdirectory: allowed" "$H/proj/src" 0 \
	"allowed: read x -> $H/proj/src/x (rw = $H/proj at proj.profile:2)" \
	explain --profile proj x
expect "explain --project from HOME: allowed" "$H" 0 \
	"allowed: read proj/src/x -> $H/proj/src/x (rw = $H/proj at proj.profile:2)" \
	explain --project proj --profile proj proj/src/x
PPATH=$CORRAL_SRCDIR/profiles expect "the shipped git profile from HOME: the error" "$H" 125 \
	"corral: profile $CORRAL_SRCDIR/profiles/git.profile:27: \${PROJECT} would be $H, your home directory, $fix_p" \
	--print-profile=git
if [ "$("$CORRAL_HELPERS/ll-exec" --abi 2>/dev/null || echo 0)" -gt 0 ] &&
   ! grep -qw bpf /sys/kernel/security/lsm 2>/dev/null; then
	expect "a launch from the project's subdirectory runs" "$H/proj/src" 0 \
		f -q --rx /usr --profile proj -- cat ../f
	# pip.profile's own example: a venv's scripts run
	mkdir -p "$H/proj/.venv/bin" &&
		printf '#!/bin/sh\necho pip ran\n' >"$H/proj/.venv/bin/pip" &&
		chmod 755 "$H/proj/.venv/bin/pip" || exit 1
	PPATH=$CORRAL_SRCDIR/profiles expect \
		"the pip profile's example: .venv/bin/pip runs" "$H/proj" 0 \
		"pip ran" --profile pip --net-best-effort -- .venv/bin/pip install x
else
	skip "a launch from the project's subdirectory runs" \
		"needs Landlock without the bpf LSM (the guest suites cover bpf)"
	skip "the pip profile's example: .venv/bin/pip runs" \
		"needs Landlock without the bpf LSM (the guest suites cover bpf)"
fi

done_testing
