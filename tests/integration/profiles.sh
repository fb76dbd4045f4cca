#!/bin/bash
# profiles.sh: the shipped profiles (profiles/*.profile) at work.
#
# For each program: its real work, offline, under its profile (python3 runs
# a script reading the project, make+gcc build and run a C program, git
# commits, curl and wget fetch from a loopback HTTP server on port 80, tar
# and unzip
# extract, pip installs a local wheel, npm packs, ...), then accesses it
# must not have - reading ~/.ssh/id_rsa, writing outside the project,
# connecting to a port the profile does not allow, or at all for a profile
# that asks for no network (a listener outside the sandbox serves it) -
# each refused with the error the program itself
# prints (shown in the TAP line).
# A program that is not installed is a loud skip naming its package.  Also:
# corral check, corral profiles, --print-profile, the missing-path error
# naming its profile line, and argv[0] mode (a symlink jq -> corral).
#
# network.profile has no test of its own: curl, wget, git, pip, npm and
# ssh include it.
#
# Runs as root in the guest after `corral setup`, with HOME set to a
# fixture home:
#
#   $BASE/home/                 HOME (XDG_* unset: the defaults apply)
#   |-- .ssh/id_rsa             a fake private key: nobody may read it...
#   |-- .ssh/id_ed25519{,.pub}  ...except ssh, its own default keys
#   |-- .ssh/deploy_key         a key ssh was not told about
#   |-- .ssh/config             Host box -> 127.0.0.1
#   |-- .gitconfig, .npm/
#   `-- proj/                   CWD: the project every profile works on
#   $BASE/outside/              must stay empty
#   $BASE/www/                  served by python3 -m http.server on loopback
#   $BASE/tmp/                  TMPDIR (gcc's temporary files)
#
# Environment: CORRAL, CORRAL_HELPERS, CORRAL_TEST_TMP (see lib.sh).

. "$(dirname "$0")/lib.sh"

SRC=$(cd "$(dirname "$0")/../.." && pwd)
export CORRAL_PROFILE_PATH=$SRC/profiles
export PATH=/usr/local/bin:/usr/bin:/bin
unset XDG_CONFIG_HOME XDG_CACHE_HOME XDG_DATA_HOME XDG_RUNTIME_DIR
unset SSH_AUTH_SOCK PYTHONPATH NODE_OPTIONS npm_config_cache
# The guest has no network: no version checks, update notices or audits
# (each would wait for DNS to time out).
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
export npm_config_update_notifier=false npm_config_fund=false \
	npm_config_audit=false

[ -d "$SRC/profiles" ] || skip_all "no profiles/ in $SRC"
make_tmp BASE profiles || skip_all "cannot make a temp dir"
H=$BASE/home P=$BASE/home/proj O=$BASE/outside W=$BASE/www
mkdir -p "$H/.ssh" "$H/.npm" "$P" "$O" "$W" "$BASE/tmp" "$BASE/bin" ||
	skip_all "cannot build the fixture home in $BASE"
echo "-----BEGIN FAKE PRIVATE KEY-----" >"$H/.ssh/id_rsa"
echo "-----BEGIN FAKE DEPLOY KEY-----" >"$H/.ssh/deploy_key"
chmod 600 "$H/.ssh/id_rsa" "$H/.ssh/deploy_key"
printf 'Host box\n\tHostName 127.0.0.1\n\tUser builder\n' >"$H/.ssh/config"
printf '[user]\n\tname = Test\n\temail = test@example.org\n' >"$H/.gitconfig"
export HOME=$H TMPDIR=$BASE/tmp
cd "$P" || skip_all "cannot cd to $P"
KEY=$H/.ssh/id_rsa

# try PROFILE CMD...: run CMD under --profile PROFILE; $out is everything
# it printed, $rc its exit status
try() {
	local profile=$1
	shift
	out=$("$CORRAL" --profile "$profile" -- "$@" 2>&1)
	rc=$?
}

# worked NAME [TEXT]: the last try exited 0 (and printed TEXT)
worked() {
	if [ "$rc" -eq 0 ] && [[ $out == *"${2:-}"* ]]; then
		ok "$1"
	else
		not_ok "$1" "exit status $rc; wanted output containing '${2:-}'" \
			"$out"
	fi
}

# refused NAME TEXT [FILE]: the last try printed TEXT, the program's own
# error, and did not create FILE; the TAP line quotes the error
refused() {
	local line
	line=$(grep -F -m1 -- "$2" <<<"$out")
	if [ -n "$line" ] && { [ -z "${3:-}" ] || [ ! -e "$3" ]; }; then
		ok "$1: \"${line//$BASE/\$BASE}\""
	else
		not_ok "$1" "wanted '$2' in the output (exit status $rc)" "$out" \
			"${3:+$3 exists: $([ -e "$3" ] && echo yes || echo no)}"
	fi
}

# section NAME: a diagnostic line with the time the previous section took
# (TCG makes every dynamic exec cost; node, npm and pip cost most)
section() {
	[ -z "${_section:-}" ] || echo "# $_section: $((SECONDS - _section_start)) s"
	_section=$1
	_section_start=$SECONDS
}

# have PROGRAM PACKAGE NAME...: true if PROGRAM is installed; otherwise a
# loud skip for each NAME
have() {
	local prog=$1 pkg=$2 name
	shift 2
	type -P "$prog" >/dev/null && return 0
	for name in "$@"; do
		skip "$name" "$prog is not installed (apt-get install $pkg)"
	done
	echo "# SKIPPED: $prog is not installed here (Debian package $pkg)" >&2
	return 1
}

# ---- the profiles themselves ----------------------------------------------
section "profiles"

shipped=("$SRC"/profiles/*.profile)
out=$("$CORRAL" check "${shipped[@]}" 2>&1)
rc=$?
is "$rc $(grep -c ': ok$' <<<"$out")" "0 ${#shipped[@]}" \
	"corral check: all ${#shipped[@]} shipped profiles are valid"
out=$("$CORRAL" profiles 2>&1)
is "$(grep -c "^  *$SRC/profiles/.*\.profile$" <<<"$out")" "${#shipped[@]}" \
	"corral profiles lists each shipped profile with its file"
[[ $out == *"npm            npm confined to the project and its cache"* ]] &&
	ok "corral profiles shows descriptions" ||
	not_ok "corral profiles shows descriptions" "$out"
out=$("$CORRAL" --print-profile=npm 2>&1)
rc=$?
line=$(grep -m1 -F "rw = $P " <<<"$out")
[ $rc -eq 0 ] && [[ $line == *"; node.profile:"* ]] &&
	ok "--print-profile=npm names each rule's origin: \"${line//$BASE/\$BASE}\"" ||
	not_ok "--print-profile=npm names each rule's origin" "$out"
# npm.profile's ~/.npm is a cache (cache = ...): made 0700 when missing
rmdir "$H/.npm"
try npm npm --version
mode=$(stat -c %a "$H/.npm" 2>&1)
[ $rc -eq 0 ] && [ "$mode" = 700 ] &&
	ok "a missing cache directory (npm's ~/.npm) is made, mode 0700, and npm runs" ||
	not_ok "a missing cache directory (npm's ~/.npm) is made, mode 0700, and npm runs" \
		"exit status $rc, mode $mode" "$out"

# ---- argv[0] mode ---------------------------------------------------------
section "argv[0]"

echo '{"version": "1.2.3", "name": "demo"}' >"$P/package.json"
if have jq jq "argv[0] mode: jq -> corral runs the real jq under jq.profile" \
	"argv[0] mode: ... which cannot read ~/.ssh/id_rsa"; then
	ln -s "$CORRAL" "$BASE/bin/jq"
	out=$(PATH=$BASE/bin:$PATH jq -r .version package.json 2>&1)
	rc=$?
	worked "argv[0] mode: jq -> corral runs the real jq under jq.profile" \
		"1.2.3"
	out=$(PATH=$BASE/bin:$PATH jq -R . "$KEY" 2>&1)
	rc=$?
	refused "argv[0] mode: ... which cannot read ~/.ssh/id_rsa" \
		"Permission denied"
fi
ln -s "$CORRAL" "$BASE/bin/noprofile"
out=$(PATH=$BASE/bin:$PATH noprofile 2>&1)
rc=$?
[ $rc -eq 125 ] && [[ $out == *"run as 'noprofile', but there is no profile noprofile.profile in $SRC/profiles"* ]] &&
	ok "argv[0] mode without a profile of that name: exit 125, names the search path" ||
	not_ok "argv[0] mode without a profile of that name" "exit $rc" "$out"

# A port no profile allows, served (accept and close) outside the sandbox
# from here on: each network client's case connecting there must fail with
# the error the client prints for a refused connect, and so must a program
# whose profile asks for no network (net = none).
DENIED=$((20000 + RANDOM % 20000))
net_serve "$DENIED" || not_ok "a loopback listener on port $DENIED"

# ---- shell ----------------------------------------------------------------
section "shell"

printf '#!/bin/sh\necho built > artifact.txt\n' >"$P/build.sh"
chmod +x "$P/build.sh"
if have bash bash "shell: bash runs the project's script" \
	"shell: bash cannot read ~/.ssh/id_rsa" \
	"shell: bash cannot write outside the project" \
	"shell: bash cannot connect anywhere (net = none)"; then
	try shell bash -c './build.sh && cat artifact.txt'
	worked "shell: bash runs the project's script" "built"
	try shell bash -c "cat '$KEY'; echo x > '$O/shell'"
	refused "shell: bash cannot read ~/.ssh/id_rsa" \
		"id_rsa: Permission denied"
	refused "shell: bash cannot write outside the project" \
		"$O/shell: Permission denied" "$O/shell"
	try shell bash -c "exec 3<>/dev/tcp/127.0.0.1/$DENIED"
	refused "shell: bash cannot connect anywhere (net = none)" \
		"connect: Permission denied"
fi

# ---- python3 --------------------------------------------------------------
section "python3"

printf 'a,1\nb,2\nc,3\n' >"$P/data.csv"
cat >"$P/total.py" <<'EOF'
import csv
rows = list(csv.reader(open("data.csv")))
open("total.txt", "w").write(str(sum(int(n) for _, n in rows)))
print("total", open("total.txt").read())
EOF
cat >"$P/escape.py" <<'EOF'
import sys
for op, path in (("r", sys.argv[1]), ("w", sys.argv[2])):
    try:
        open(path, op).close()
        print("opened", path)
    except OSError as e:
        print(e)
EOF
if have python3 python3 "python3: a script reads the project and writes its result" \
	"python3: cannot read ~/.ssh/id_rsa" \
	"python3: cannot write outside the project" \
	"python3: cannot connect anywhere (net = none)"; then
	try python3 python3 total.py
	worked "python3: a script reads the project and writes its result" \
		"total 6"
	try python3 python3 escape.py "$KEY" "$O/py"
	refused "python3: cannot read ~/.ssh/id_rsa" \
		"[Errno 13] Permission denied: '$KEY'"
	refused "python3: cannot write outside the project" \
		"[Errno 13] Permission denied: '$O/py'" "$O/py"
	try python3 python3 -c "import socket
socket.create_connection(('127.0.0.1', $DENIED))"
	refused "python3: cannot connect anywhere (net = none)" \
		"PermissionError: [Errno 13] Permission denied"
fi

# ---- pip --------------------------------------------------------------------
section "pip"

# A minimal wheel, made with python's zipfile (no network, no build tools).
make_wheel() {
	python3 - "$1" <<'EOF'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1], "w")
info = "hello-1.0.dist-info/"
z.writestr("hello/__init__.py", "GREETING = 'hello from a wheel'\n")
z.writestr(info + "METADATA", "Metadata-Version: 2.1\nName: hello\nVersion: 1.0\n")
z.writestr(info + "WHEEL", "Wheel-Version: 1.0\nGenerator: corral-test\n"
           "Root-Is-Purelib: true\nTag: py3-none-any\n")
z.writestr(info + "RECORD", "hello/__init__.py,,\n" + info + "METADATA,,\n"
           + info + "WHEEL,,\n" + info + "RECORD,,\n")
z.close()
EOF
}
if have pip3 python3-pip "pip: installs a local wheel into the project" \
	"pip: cannot read ~/.ssh/id_rsa (pip hash)" \
	"pip: cannot write its log outside the project" \
	"pip: cannot download from a port its profile does not allow"; then
	WHEEL=$P/hello-1.0-py3-none-any.whl
	make_wheel "$WHEEL"
	try pip pip3 install --no-index --no-deps --no-cache-dir -q \
		--target vendor "$WHEEL"
	[ -f "$P/vendor/hello/__init__.py" ] ||
		out="$out (no vendor/hello/__init__.py)" rc=1
	worked "pip: installs a local wheel into the project"
	try pip pip3 hash "$KEY"
	refused "pip: cannot read ~/.ssh/id_rsa (pip hash)" \
		"Permission denied: '$KEY'"
	# (pip --log rather than install --target: each pip run that builds
	# a network session costs ~40 s under TCG)
	try pip pip3 --log "$O/pip.log" hash data.csv
	refused "pip: cannot write its log outside the project" \
		"Permission denied: '$O/pip.log'" "$O/pip.log"
	try pip pip3 download --no-deps --retries 0 --timeout 5 -d "$P/dl" \
		"http://127.0.0.1:$DENIED/demo-1.0.tar.gz"
	refused "pip: cannot download from a port its profile does not allow" \
		"[Errno 13] Permission denied"
fi

# ---- node and npm -----------------------------------------------------------
section "node, npm"

cat >"$P/wc.js" <<'EOF'
const fs = require("fs");
const n = fs.readFileSync("data.csv", "utf8").split("\n").length - 1;
fs.writeFileSync("lines.txt", String(n));
console.log("lines", n);
for (const [op, p] of [["read", process.argv[2]], ["write", process.argv[3]]]) {
	try {
		op === "read" ? fs.readFileSync(p) : fs.writeFileSync(p, "x");
		console.log("opened", p);
	} catch (e) {
		console.log(e.message);
	}
}
EOF
if have node nodejs "node: a script reads the project and writes its result" \
	"node: cannot read ~/.ssh/id_rsa" \
	"node: cannot write outside the project"; then
	try node node wc.js "$KEY" "$O/node"
	worked "node: a script reads the project and writes its result" \
		"lines 3"
	refused "node: cannot read ~/.ssh/id_rsa" \
		"EACCES: permission denied, open '$KEY'"
	refused "node: cannot write outside the project" \
		"EACCES: permission denied, open '$O/node'" "$O/node"
fi

mkdir -p "$P/pkg"
cat >"$P/pkg/package.json" <<EOF
{
  "name": "demo-pkg",
  "version": "1.0.0",
  "scripts": {
    "steal": "cat $KEY; echo x > $O/npm"
  }
}
EOF
echo 'module.exports = 42;' >"$P/pkg/index.js"
if have npm npm "npm: npm pack makes a tarball in the project" \
	"npm: a package script cannot read ~/.ssh/id_rsa" \
	"npm: a package script cannot write outside the project" \
	"npm: cannot reach a registry on a port its profile does not allow"; then
	cd "$P/pkg" || exit 1
	try npm npm pack --offline --silent
	[ -f demo-pkg-1.0.0.tgz ] || out="$out (no demo-pkg-1.0.0.tgz)" rc=1
	worked "npm: npm pack makes a tarball in the project" "demo-pkg-1.0.0.tgz"
	try npm npm run --offline steal
	refused "npm: a package script cannot read ~/.ssh/id_rsa" \
		"id_rsa: Permission denied"
	refused "npm: a package script cannot write outside the project" \
		"$O/npm: Permission denied" "$O/npm"
	try npm npm view --fetch-retries=0 \
		--registry "http://127.0.0.1:$DENIED/" demo-pkg
	refused "npm: cannot reach a registry on a port its profile does not allow" \
		"connect EACCES 127.0.0.1:$DENIED"
	cd "$P" || exit 1
fi

# ---- make and gcc -----------------------------------------------------------
section "make, gcc"

cat >"$P/hello.c" <<'EOF'
#include <stdio.h>
int main(void) { puts("hello, built in a sandbox"); return 0; }
EOF
printf 'hello: hello.c\n\t$(CC) -O2 -o $@ hello.c\ncheck: hello\n\t./hello\n' \
	>"$P/Makefile"
printf 'steal:\n\t-cat %s\n\t-cp hello %s/\n' "$KEY" "$O" >>"$P/Makefile"
if have make make "make: make check builds hello.c with gcc and runs it" \
	"make: a recipe cannot read ~/.ssh/id_rsa" \
	"make: a recipe cannot write outside the project" &&
	have gcc gcc "make: make check builds hello.c with gcc and runs it" \
		"make: a recipe cannot read ~/.ssh/id_rsa" \
		"make: a recipe cannot write outside the project"; then
	try make make check
	worked "make: make check builds hello.c with gcc and runs it" \
		"hello, built in a sandbox"
	try make make steal
	refused "make: a recipe cannot read ~/.ssh/id_rsa" \
		"id_rsa: Permission denied"
	refused "make: a recipe cannot write outside the project" \
		"cp: cannot create regular file '$O/hello': Permission denied" \
		"$O/hello"
fi
if have gcc gcc "gcc: compiles and links in the project" \
	"gcc: cannot read ~/.ssh/id_rsa (as an include)" \
	"gcc: cannot write its output outside the project"; then
	try gcc gcc -o hello2 hello.c
	[ -x hello2 ] || out="$out (no hello2)" rc=1
	worked "gcc: compiles and links in the project"
	try gcc gcc -include "$KEY" -c hello.c -o key.o
	refused "gcc: cannot read ~/.ssh/id_rsa (as an include)" \
		"id_rsa: Permission denied"
	try gcc gcc -o "$O/hello" hello.c
	refused "gcc: cannot write its output outside the project" \
		"Permission denied" "$O/hello"
fi

# ---- git --------------------------------------------------------------------
section "git"

if have git git "git: init, add and commit in the project" \
	"git: cannot read ~/.ssh/id_rsa" \
	"git: cannot clone outside the project" \
	"git: cannot fetch from a port its profile does not allow"; then
	rc=0 out=
	for cmd in "init -q" "add hello.c Makefile" "commit -qm first" \
		"log --oneline"; do
		# shellcheck disable=SC2086
		[ $rc -eq 0 ] && try git git $cmd
	done
	worked "git: init, add and commit in the project" "first"
	try git git hash-object "$KEY"
	refused "git: cannot read ~/.ssh/id_rsa" "Permission denied"
	try git git clone -q "$P" "$O/clone"
	refused "git: cannot clone outside the project" "Permission denied" \
		"$O/clone"
	try git git ls-remote "http://127.0.0.1:$DENIED/repo.git"
	refused "git: cannot fetch from a port its profile does not allow" \
		"Failed to connect to 127.0.0.1 port $DENIED"
fi
# ${PROJECT} (corral.profile(5)): from a subdirectory, the work tree above
if have git git "git: status and commit from a subdirectory of the work tree"; then
	mkdir -p "$P/sub/deeper" && echo x >"$P/sub/deeper/x.txt"
	cd "$P/sub/deeper" || exit 1
	try git git add x.txt
	[ $rc -eq 0 ] && try git git commit -qm from-sub
	[ $rc -eq 0 ] && try git git log --oneline -1
	worked "git: status and commit from a subdirectory of the work tree" \
		"from-sub"
	cd "$P" || exit 1
fi

# ---- curl and wget (from a loopback HTTP server) ----------------------------
section "curl, wget"

echo "served over loopback" >"$W/file.txt"
# Port 80, which the curl and wget profiles allow (DENIED: above).
PORT=80
( cd "$W" && exec python3 -m http.server --bind 127.0.0.1 "$PORT" ) \
	>/dev/null 2>&1 &
SERVER=$!
kill_at_exit "$SERVER"
for ((i = 0; i < 300; i++)); do
	(exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break
	sleep 0.1
done
URL=http://127.0.0.1:$PORT/file.txt

# downloads PROGRAM ARGS...: `PROGRAM ARGS got-PROGRAM.txt $URL` under its
# profile fetches the served file into the project
downloads() {
	local prog=$1
	try "$prog" "$@" "got-$prog.txt" "$URL"
	[ "$(cat "got-$prog.txt" 2>/dev/null)" = "served over loopback" ] ||
		out="$out (got-$prog.txt wrong)" rc=1
	worked "$prog: downloads into the project"
}

if have curl curl "curl: downloads into the project" \
	"curl: cannot read ~/.ssh/id_rsa (file://)" \
	"curl: cannot write outside the project" \
	"curl: cannot connect to a port its profile does not allow"; then
	downloads curl -sS -o
	try curl curl -sS "file://$KEY"
	refused "curl: cannot read ~/.ssh/id_rsa (file://)" \
		"curl: (37) Couldn't open file $KEY"
	try curl curl -sS -o "$O/curl" "$URL"
	refused "curl: cannot write outside the project" "curl: (23)" "$O/curl"
	try curl curl -sS "http://127.0.0.1:$DENIED/file.txt"
	refused "curl: cannot connect to a port its profile does not allow" \
		"Failed to connect to 127.0.0.1 port $DENIED"
fi
if have wget wget "wget: downloads into the project" \
	"wget: cannot read ~/.ssh/id_rsa (-i)" \
	"wget: cannot write outside the project" \
	"wget: cannot connect to a port its profile does not allow"; then
	downloads wget -q -O
	try wget wget -nv -i "$KEY"
	refused "wget: cannot read ~/.ssh/id_rsa (-i)" "Permission denied"
	try wget wget -q -O "$O/wget" "$URL"
	refused "wget: cannot write outside the project" \
		"$O/wget: Permission denied" "$O/wget"
	try wget wget -nv -t 1 -O got-denied.txt "http://127.0.0.1:$DENIED/file.txt"
	refused "wget: cannot connect to a port its profile does not allow" \
		"failed: Permission denied"
fi

# ---- tar and unzip ------------------------------------------------------------
section "tar, unzip"

mkdir -p "$W/rel/docs" && echo "release notes" >"$W/rel/docs/NOTES"
tar -czf "$P/rel.tar.gz" -C "$W" rel
if have tar tar "tar: extracts an archive in the project" \
	"tar: cannot archive ~/.ssh/id_rsa" \
	"tar: cannot extract outside the project"; then
	try tar tar -xzf rel.tar.gz
	[ -f "$P/rel/docs/NOTES" ] || out="$out (no rel/docs/NOTES)" rc=1
	worked "tar: extracts an archive in the project"
	try tar tar -czf keys.tar.gz "$KEY"
	refused "tar: cannot archive ~/.ssh/id_rsa" \
		"id_rsa: Cannot open: Permission denied"
	try tar tar -xzf rel.tar.gz -C "$O"
	refused "tar: cannot extract outside the project" \
		"Permission denied" "$O/rel"
fi
if have unzip unzip "unzip: extracts a zip archive in the project" \
	"unzip: cannot read ~/.ssh/id_rsa" \
	"unzip: cannot extract outside the project"; then
	python3 -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1], "w"); z.writestr("zdocs/README", "zipped\n")
z.close()' "$P/rel.zip"
	try unzip unzip -q rel.zip
	[ "$(cat "$P/zdocs/README" 2>/dev/null)" = zipped ] ||
		out="$out (no zdocs/README)" rc=1
	worked "unzip: extracts a zip archive in the project"
	try unzip unzip -l "$KEY"
	refused "unzip: cannot read ~/.ssh/id_rsa" "cannot find or open"
	try unzip unzip -q rel.zip -d "$O/unzipped"
	refused "unzip: cannot extract outside the project" \
		"cannot create" "$O/unzipped"
fi

# ---- ssh (client) -------------------------------------------------------------
section "ssh"

if have ssh openssh-client "ssh: reads its config (ssh -G)" \
	"ssh: uses its default key (ssh-keygen -y)" \
	"ssh: cannot read a key it was not given (~/.ssh/deploy_key)" \
	"ssh: cannot plant a file in ~/.ssh" "scp: copies within the project" \
	"scp: cannot copy a file of your home into the project" \
	"scp: cannot copy out of the project" \
	"ssh: cannot connect to a port its profile does not allow"; then
	ssh-keygen -q -t ed25519 -N '' -C test -f "$H/.ssh/id_ed25519"
	try ssh ssh -F "$H/.ssh/config" -G box
	worked "ssh: reads its config (ssh -G)" "hostname 127.0.0.1"
	try ssh ssh-keygen -y -f "$H/.ssh/id_ed25519"
	worked "ssh: uses its default key (ssh-keygen -y)" "ssh-ed25519 "
	try ssh ssh-keygen -y -f "$H/.ssh/deploy_key"
	refused "ssh: cannot read a key it was not given (~/.ssh/deploy_key)" \
		"Permission denied"
	try ssh ssh-keygen -q -t ed25519 -N '' -f "$H/.ssh/planted"
	refused "ssh: cannot plant a file in ~/.ssh" "Permission denied" \
		"$H/.ssh/planted"
	# scp between two local paths runs cp, in the same sandbox
	echo "notes" >"$H/notes.txt"
	try scp scp data.csv copy.csv
	[ -f copy.csv ] || out="$out (no copy.csv)" rc=1
	worked "scp: copies within the project"
	try scp scp "$H/notes.txt" notes.txt
	refused "scp: cannot copy a file of your home into the project" \
		"cannot open '$H/notes.txt' for reading: Permission denied"
	try scp scp data.csv "$O/"
	refused "scp: cannot copy out of the project" \
		"cannot create regular file '$O/data.csv': Permission denied" \
		"$O/data.csv"
	try ssh ssh -F "$H/.ssh/config" -o BatchMode=yes -p "$DENIED" box true
	refused "ssh: cannot connect to a port its profile does not allow" \
		"port $DENIED: Permission denied"
	# No server here: a real login would need openssh-server and a
	# loopback sshd; ssh -G and ssh-keygen show the client's file access.
	[ -x /usr/sbin/sshd ] ||
		skip "ssh: a login over loopback" \
			"sshd is not installed (apt-get install openssh-server)"
fi

section end
done_testing
