#!/bin/bash
# tests/deb/in-guest.sh DEB: the Debian package's install/purge test.  Installs
# corral's .deb with apt-get, checks what postinst made, runs a shipped
# profile as an unprivileged user under the bpf engine, runs postinst again
# and upgrades, then purges and checks that nothing is left.  TAP.
#
# Runs as root inside a tests/vm/run guest only: its root is a tmpfs
# overlay on the host's, so installing there leaves the host untouched.
# The guest has no systemd as PID 1, so the unit's ExecCondition and
# ExecStart are run by hand, as written in the installed unit.
set -u
. "$(dirname "$0")/../integration/lib.sh"

deb=${1:?usage: in-guest.sh CORRAL.deb}
launcher=/usr/bin/corral
unit=/lib/systemd/system/corral-setup.service
pins=/sys/fs/bpf/corral
user=corral-tester
export DEBIAN_FRONTEND=noninteractive

bail() { echo "Bail out! $*"; exit 1; }
# progress, with seconds since the start (everything is slow under TCG)
step() { echo "# [${SECONDS}s] $*"; }
[ -d /run/corral-vm ] || bail "not a tests/vm/run guest: this test installs packages"
[ "$(id -u)" = 0 ] || bail "must run as root in the guest"
[ -r "$deb" ] || bail "no package at $deb"
if dpkg-query -W -f='${Status}' corral 2>/dev/null | grep -q ' installed'; then
	bail "corral is installed on the host: remove it first, the purge check needs a clean base"
fi
grep -qw bpf /sys/kernel/security/lsm || bail "the guest kernel has no bpf LSM"

# check NAME CMD...: ok when CMD succeeds, its output as diagnostics if not
check() {
	local name=$1 output
	shift
	if output=$("$@" 2>&1); then ok "$name"; else not_ok "$name" "$output"; fi
}

# as_user CMD...: CMD as $user in ~/proj, with CMD's stdout, stderr, status
as_user() {
	(cd "/home/$user/proj" && setpriv --reuid="$user" --regid="$user" \
		--init-groups env -i PATH=/usr/bin:/bin HOME="/home/$user" \
		USER="$user" LOGNAME="$user" "$@")
}

# The places a package leaves traces in: file lists before install and
# after purge must be equal (dpkg and apt bookkeeping left out).
snapshot() {
	{
		find /etc /var/lib /lib/systemd /usr/lib/systemd /usr/bin /usr/sbin \
			/usr/share/corral /usr/share/doc/corral /usr/share/man/man1 \
			/usr/share/man/man5 /usr/share/man/man8 \
			/usr/share/bash-completion /usr/share/zsh /usr/share/fish \
			-xdev \( -path /var/lib/dpkg -o -path /var/lib/apt \) \
			-prune -o -print 2>/dev/null
		find "$pins" 2>/dev/null
	} | grep -Ev '^/var/lib/(dpkg|apt|ucf|man-db)(/|$)|^/etc/(group|gshadow|passwd|shadow|subuid|subgid)-$|^/etc/ld\.so\.cache$' |
		LC_ALL=C sort
}

# ---- before ---------------------------------------------------------------

# man-db's trigger re-indexes every manual page over 9p, minutes under TCG;
# it is not corral's (the package's pages are checked by dpkg -L below).
# Its postinst looks for this flag file, which debconf's answer only sets.
rm -f /var/lib/man-db/auto-update

useradd --create-home --user-group --shell /bin/sh "$user" ||
	bail "useradd $user failed"
mkdir "/home/$user/proj" && echo inside >"/home/$user/proj/inside" &&
	echo secret >"/home/$user/secret" &&
	chown -R "$user:$user" "/home/$user" || bail "cannot make $user's files"
step "snapshot of the file system"
before=$(snapshot)
# the package's paths that exist already (/usr/bin, ...): they stay
preexisting=$(dpkg-deb -c "$deb" | awk '{ print $NF }' | sed -e 's|^\.||' -e 's|/$||' |
	while IFS= read -r f; do [ -e "${f:-/}" ] && echo "${f:-/}"; done)
step "apt-get install"

# ---- install --------------------------------------------------------------

if out=$(apt-get install -y "$deb" 2>&1); then
	ok "apt-get install $(basename "$deb")"
else
	not_ok "apt-get install $(basename "$deb")" "$out"
	done_testing
fi
diag "$(printf '%s\n' "$out" | grep -E '^(Setting up|corral:|W:|E:)')"

is "$(getcap "$launcher")" "$launcher cap_bpf=p" "getcap shows cap_bpf+p on the launcher"
is "$(stat -c '%U:%G %a' "$launcher")" "root:corral 2755" "the launcher is root:corral, setgid (2755)"
is "$(dpkg-statoverride --list "$launcher")" "root corral 2755 $launcher" \
	"the owner and mode are a dpkg-statoverride (kept across upgrades)"
gid=$(getent group corral | cut -d: -f3)
if [ -n "$gid" ] && [ "$gid" -lt 1000 ]; then
	ok "postinst made the system group corral (gid $gid)"
else
	not_ok "postinst made the system group corral" "getent group corral: $(getent group corral)"
fi
check "corral-setup.service is enabled (sysinit.target.wants)" \
	test -L /etc/systemd/system/sysinit.target.wants/corral-setup.service
check "systemd-analyze verify passes on the installed unit" \
	sh -c "out=\$(systemd-analyze verify $unit 2>&1); echo \"\$out\"; [ -z \"\$out\" ]"

step "setup"
# ---- setup, as the unit would run it ---------------------------------------

condition=$(sed -n 's/^ExecCondition=//p' "$unit")
start=$(sed -n 's/^ExecStart=//p' "$unit")
is "$start" "$launcher setup" "the unit's ExecStart is '$launcher setup'"
check "the unit's ExecCondition holds (bpf LSM active): $condition" sh -c "$condition"
out=$(sh -c "$start" 2>&1)
rc=$?
if [ $rc = 0 ] && [[ $out == "corral: set up "*" hooks, pinned under $pins" ]]; then
	ok "the unit's ExecStart sets up: $out"
else
	not_ok "the unit's ExecStart sets up" "exit $rc: $out"
fi
is "$(stat -c '%U:%G %a' "$pins" 2>&1)" "root:corral 750" "$pins is shared with the group corral"

# ---- an unprivileged user runs a shipped profile ----------------------------

is "$(as_user cat "/home/$user/secret" 2>&1)" secret \
	"control: $user reads ~/secret without corral"
out=$(as_user "$launcher" --engine=bpf --profile shell -- cat inside 2>&1)
rc=$?
is "$rc: $out" "0: inside" "$user runs the shipped shell profile (bpf engine): reads ./inside"
out=$(as_user "$launcher" --engine=bpf --profile shell -- cat "/home/$user/secret" 2>&1)
rc=$?
# a bpf launch without --log says at its end what was refused (issue 35, 7)
told="corral: 1 access refused (first: read ~/secret by cat); rerun with --log to see them"
is "$rc: $out" "1: cat: /home/$user/secret: Permission denied"$'\n'"$told" \
	"the shell profile denies ~/secret, outside it (EACCES), and corral says so once"
out=$(as_user "$launcher" --engine=bpf --profile shell -- sh -c "echo x >/home/$user/new" 2>&1)
rc=$?
if [ $rc != 0 ] && [ ! -e "/home/$user/new" ] && [[ $out == *"Permission denied"* ]]; then
	ok "the shell profile denies creating ~/new (EACCES)"
else
	not_ok "the shell profile denies creating ~/new" "exit $rc: $out"
fi
is "$(as_user "$launcher" --profile shell -- true 2>&1; echo "rc $?")" "rc 0" \
	"--engine=auto picks bpf for $user: no fallback warning"

# ---- idempotent: postinst again, upgrade (a new file, postinst again) --------

step "postinst again, upgrade"
check "dpkg-reconfigure corral (postinst configure again)" dpkg-reconfigure corral
up=/var/tmp/corral-upgrade
rm -rf "$up" && mkdir -p "$up" && dpkg-deb -R "$deb" "$up/root" &&
	sed -i 's/^Version: .*/&+upgrade1/' "$up/root/DEBIAN/control" &&
	dpkg-deb -b "$up/root" "$up/corral-upgrade.deb" >/dev/null ||
	bail "cannot make the upgrade package"
check "apt-get install an upgrade ($(dpkg-deb -f "$up/corral-upgrade.deb" Version))" \
	apt-get install -y "$up/corral-upgrade.deb"
is "$(getcap "$launcher"); $(stat -c '%U:%G %a' "$launcher")" \
	"$launcher cap_bpf=p; root:corral 2755" "after dpkg-reconfigure and upgrade: capability, owner, mode"
is "$(getent group corral | cut -d: -f3)" "$gid" "after dpkg-reconfigure and upgrade: the same group"
check "an upgrade keeps the programs pinned" test -e "$pins/info"
out=$(as_user "$launcher" --engine=bpf --profile shell -- cat "/home/$user/secret" 2>&1)
is "$?: $out" "1: cat: /home/$user/secret: Permission denied"$'\n'"$told" "after the upgrade, the denial holds"

# ---- purge ---------------------------------------------------------------

step "purge"
files=$(dpkg -L corral) || bail "dpkg -L corral failed"
check "apt-get purge corral" apt-get purge -y corral
left=
while IFS= read -r f; do
	[ "$f" = /. ] && f=/
	[ -e "$f" ] || [ -L "$f" ] || continue
	grep -qxF "$f" <<<"$preexisting" || left+="$f"$'\n'
done <<<"$files"
if [ -z "$left" ]; then
	ok "no file of 'dpkg -L corral' is left ($(wc -l <<<"$files") paths)"
else
	not_ok "no file of 'dpkg -L corral' is left" "left behind:" "$left"
fi
is "$(getent group corral)" "" "no group corral"
check "no $pins" test ! -e "$pins"
is "$(dpkg-statoverride --list "$launcher")" "" "no statoverride for $launcher"
is "$(dpkg-query -W -f='${Status}' corral 2>/dev/null)" "" "dpkg forgets corral"
is "$(snapshot)" "$before" "the system's files are as before the install"

done_testing
