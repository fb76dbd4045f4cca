#!/bin/bash
# Reproducer for the open confinement bug (closing note of 2026-12-03):
# soon after `corral setup`, a fresh user's sandbox under the shell
# profile read ~/secret, outside its rules.  Not part of any suite yet.
#
#   tests/vm/run --kernel 6.12 -- bash tests/vm/repro/shell-secret.sh [SETUP_BIN [RUN_BIN...]]
#
# Prints "secret rc=0" where the sandbox read the file (the bug), rc=1
# where it was refused.  Seen with a packaged corral doing the setup and
# the first launch; intermittent.
set -u
here=$(cd "$(dirname "$0")/../../.." && pwd)
setup_bin=${1:-$here/corral}
shift || true
run_bins=("${@:-$here/corral}")
groupadd -r corral 2>/dev/null
"$setup_bin" setup
i=0
for C in "${run_bins[@]}" "${run_bins[@]}"; do
	i=$((i + 1)); u=t$i
	useradd --create-home --user-group --shell /bin/sh $u
	mkdir /home/$u/proj; echo inside > /home/$u/proj/inside
	echo secret > /home/$u/secret; chown -R $u:$u /home/$u
	install -m 2755 -g corral "$C" /usr/local/bin/corral &&
		setcap cap_bpf+p /usr/local/bin/corral
	as_user() { (cd /home/$u/proj && setpriv --reuid=$u --regid=$u --init-groups \
		env -i PATH=/usr/bin:/bin HOME=/home/$u USER=$u \
		CORRAL_PROFILE_PATH=$here/profiles "$@"); }
	as_user cat /home/$u/secret >/dev/null
	as_user /usr/local/bin/corral --engine=bpf --profile shell -- cat inside >/dev/null
	as_user /usr/local/bin/corral --engine=bpf --profile shell -- cat /home/$u/secret >/dev/null 2>&1
	echo "$C: secret rc=$?"
done
