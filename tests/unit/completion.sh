#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# completion.sh (TAP): calls the bash completion's _corral with COMP_WORDS
# and COMP_CWORD set and checks COMPREPLY; syntax-checks the zsh and fish
# completions and completes lines in them (zsh through zsh/zpty, fish
# through complete -C) when those shells are installed.  After corral's
# options (or "--") comes the command's name, then the command's own completion: git's
# subcommands for "corral -- git sta", file names for "cat ./sp" (with the
# bash-completion package, as an interactive bash loads it).
set -u
srcdir=${CORRAL_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
comp=$srcdir/completions

if ! command -v bash >/dev/null 2>&1; then
	echo "1..0 # SKIP bash is not installed"
	exit 0
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/p1" "$tmp/p2" "$tmp/files" "$tmp/files/spool"
: >"$tmp/files/spam.txt"
: >"$tmp/files/sponge.c"
: >"$tmp/p1/alpha.profile"
: >"$tmp/p2/beta.profile"
: >"$tmp/p2/alpha.profile"
: >"$tmp/p2/notaprofile.txt"

# The bash part runs in one bash; each case prints "ok"/"not ok" lines
# without numbers, numbered below.
bash_completion=
for f in /usr/share/bash-completion/bash_completion; do
	[ -f "$f" ] && bash_completion=$f
done
cd "$tmp/files" || exit 1
CORRAL_PROFILE_PATH="$tmp/p1:$tmp/p2" bash -c '
if [[ -n $2 ]]; then
	. "$2" || echo "not ok - sourcing $2"
fi
. "$1" || { echo "not ok - sourcing corral.bash"; exit 0; }
# compopt fails outside a completion that bash runs itself
compopt() { :; }
echo "ok - sourcing corral.bash defines _corral: $(type -t _corral)"
# run WANT... -- WORD...: the last WORD is the one being completed.
run() {
	local want=() w
	while [[ $1 != -- ]]; do want+=("$1"); shift; done
	shift
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	local words="${COMP_WORDS[*]}"	# _command_offset shifts them
	_corral corral "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
	local got=" ${COMPREPLY[*]} " missing=
	for w in "${want[@]}"; do
		case $w in
		!*) [[ $got != *" ${w#!} "* ]] || missing+=" (unexpected ${w#!})" ;;
		*) [[ $got == *" $w "* ]] || missing+=" $w" ;;
		esac
	done
	if [[ -z $missing ]]; then
		echo "ok - [$words] -> ${COMPREPLY[*]:0:12}"
	else
		echo "not ok - [$words] missing$missing; got:$got"
	fi
}
run --ro --rx --rw --rwx --allow --profile --print-profile --engine= --log \
    --debug --help --version -- corral --
run --ro --rx --rw --rwx !--profile -- corral --r
run --profile --project !--print-profile -- corral --pro
run ./spool !./spam.txt -- corral --project ./sp
run --project -- corral check --
run git -- corral --project /tmp gi
run setup status teardown profiles check learn explain -- corral ""
run read write exec readdir create remove truncate ioctl refer rename link \
    exchange connect-tcp bind-tcp connect-udp bind-udp -- corral explain --op ""
run --op --ro --profile !--force -- corral explain --
run !ls -- corral explain --ro . l
run teardown !status -- corral te
run ls -- corral --ro . -- l
run --force -- corral teardown --
run --debug -- corral setup --
run --engine=auto --engine=bpf --engine=landlock -- corral --engine=
run --engine=bpf !--engine=auto -- corral --engine=b
run auto bpf landlock -- corral --engine = ""
run landlock !bpf -- corral --engine = l
run bpf -- corral --engine b
run alpha beta !notaprofile -- corral --profile ""
run beta !alpha -- corral --profile b
run --print-profile=alpha -- corral --print-profile=a
run alpha beta -- corral --base ""
run read readdir refer -- corral --allow re
run read,exec -- corral --allow read,ex
run -o --output --base -- corral learn -
# the command: its name, then its own completion
run git !status -- corral --rx /usr gi
run git -- corral --allow = read : /usr gi
run ./spam.txt ./sponge.c -- corral --rx /usr cat ./sp
run ./spam.txt ./sponge.c -- corral -- cat ./sp
run --ro --rx -- corral --rx /usr --r
if [[ -z $2 ]]; then
	echo "ok - handing over to the command'"'"'s completion # SKIP no bash-completion package"
elif ! type -P git >/dev/null; then
	echo "ok - handing over to git'"'"'s completion # SKIP git is not installed"
else
	run status stash !checkout -- corral -- git sta
	run status stash -- corral --rx /usr --engine = landlock -q git sta
	run status stash -- corral --allow = read : /usr --connect-tcp 10.0.0.1 : 443 git sta
	run status stash -- corral learn -o x.profile -- git sta
	run --cached !--ro -- corral --rx /usr -- git diff --cac
fi
'"" sh "$comp/corral.bash" "$bash_completion" >"$tmp/bash.out" 2>"$tmp/bash.err"
n=0
fail=0
while IFS= read -r line; do
	n=$((n + 1))
	case $line in
	"not ok"*) fail=1; echo "not ok $n${line#not ok}" ;;
	*) echo "ok $n${line#ok}" ;;
	esac
done <"$tmp/bash.out"
if [ -s "$tmp/bash.err" ]; then
	n=$((n + 1)); fail=1
	echo "not ok $n - bash printed errors"
	sed 's/^/# /' "$tmp/bash.err"
fi
if [ $n -lt 24 ]; then
	n=$((n + 1)); fail=1
	echo "not ok $n - every bash case ran (only $((n - 1)))"
fi

n=$((n + 1))
if command -v zsh >/dev/null 2>&1; then
	if zsh -n "$comp/_corral" 2>"$tmp/err"; then
		echo "ok $n - zsh -n _corral"
	else
		fail=1; echo "not ok $n - zsh -n _corral"; sed 's/^/# /' "$tmp/err"
	fi
else
	echo "ok $n - zsh completion # SKIP zsh is not installed"
fi

# match WANT GOT: $missing lists the words of WANT ("!w": must not be
# there) that GOT (space-separated, spaces around) contradicts
match() {
	missing=
	for w in $1; do
		case $w in
		!*) case " $2" in *" ${w#!} "*) missing="$missing (unexpected ${w#!})" ;; esac ;;
		*) case " $2" in *" $w "*) ;; *) missing="$missing $w" ;; esac ;;
		esac
	done
}

# report SHELL WANT LINE GOT: test $n, LINE completed in SHELL gives GOT
report() {
	match "$2" "$4"
	if [ -z "$missing" ]; then
		echo "ok $n - $1: [$3] -> $4"
	else
		fail=1; echo "not ok $n - $1: [$3] missing$missing; got: $4"
	fi
}

# zsh: an interactive zsh -f in a zpty, with compinit finding _corral,
# types the line and a TAB; a compadd wrapper prints each match.
if command -v zsh >/dev/null 2>&1 && zsh -fc 'zmodload zsh/zpty' 2>/dev/null; then
	mkdir -p "$tmp/zfn"
	cp "$comp/_corral" "$tmp/zfn/"
	cat >"$tmp/capture.zsh" <<'ZSH'
PROMPT= RPROMPT=
fpath=($ZFN $fpath)
autoload -U compinit && compinit -u -D
bindkey '^I' complete-word
comp_done() { echo -E - 'COMPLETION-DONE' }
comppostfuncs=(comp_done exit)
zstyle ':completion:*' insert-tab false
compadd() {
	if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
		builtin compadd "$@"
		return
	fi
	local -a hits
	local h
	builtin compadd -A hits "$@"
	for h in $hits; do echo -E - "MATCH:$h"; done
	builtin compadd "$@"
}
ZSH
	cat >"$tmp/run.zsh" <<'ZSH'
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "source ${(q)CAPTURE}"
zpty -n -w z "$1"$'\t'
local line
integer tries=0
while (( tries++ < 500 )); do
	if zpty -r -t z line 2>/dev/null; then
		[[ $line == *MATCH:* ]] && print -r -- ${${line##*MATCH:}%%$'\r'*}
		[[ $line == *COMPLETION-DONE* ]] && break
	else
		sleep 0.01
	fi
done
zpty -d z
ZSH
	while IFS='|' read -r want line; do
		[ -n "$line" ] || continue
		n=$((n + 1))
		got=$(cd "$tmp/files" && ZFN=$tmp/zfn CAPTURE=$tmp/capture.zsh \
			CORRAL_PROFILE_PATH="$tmp/p1:$tmp/p2" \
			timeout 20 zsh -f "$tmp/run.zsh" "$line" 2>&1 | sort -u | tr '\n' ' ')
		report zsh "$want" "$line" "$got"
	done <<'CASES'
--ro --rx --rw --rwx|corral --r
alpha beta|corral --profile=
--profile --project|corral --pro
spool !spam.txt|corral --project=./sp
git|corral --project /tmp gi
git|corral --rx /usr gi
spam.txt sponge.c|corral --rx /usr cat ./sp
status stash|corral -- git sta
status stash|corral --engine=landlock -q git sta
status stash|corral learn -o x.profile -- git sta
--cached|corral --rx /usr -- git diff --cac
CASES
else
	n=$((n + 1))
	echo "ok $n - zsh completion of lines # SKIP no zsh with zsh/zpty"
fi
n=$((n + 1))
if command -v fish >/dev/null 2>&1; then
	if fish --no-execute "$comp/corral.fish" 2>"$tmp/err"; then
		echo "ok $n - fish --no-execute corral.fish"
	else
		fail=1; echo "not ok $n - fish --no-execute corral.fish"
		sed 's/^/# /' "$tmp/err"
	fi
	# As installed: fish autoloads completions/corral.fish for a corral
	# in PATH.  Each case: the words wanted, then the line to complete.
	mkdir -p "$tmp/fish/fish/completions" "$tmp/bin"
	cp "$comp/corral.fish" "$tmp/fish/fish/completions/"
	printf '#!/bin/sh\n' >"$tmp/bin/corral"
	chmod +x "$tmp/bin/corral"
	while IFS='|' read -r want line; do
		[ -n "$line" ] || continue
		n=$((n + 1))
		case $line in *git*) command -v git >/dev/null 2>&1 || {
			echo "ok $n - fish: $line # SKIP git is not installed"
			continue; } ;;
		esac
		got=$(HOME=$tmp XDG_CONFIG_HOME=$tmp/fish PATH=$tmp/bin:$PATH \
			CORRAL_PROFILE_PATH="$tmp/p1:$tmp/p2" \
			fish -c "complete -C '$line'" 2>&1 | cut -f1 | tr '\n' ' ')
		report fish "$want" "$line" "$got"
	done <<'CASES'
--ro --rx --rw --rwx|corral --r
teardown|corral te
alpha beta|corral --profile 
--profile --project|corral --pro
./spool/ !./spam.txt|corral --project ./sp
git|corral --project /tmp gi
git|corral --rx /usr gi
./spam.txt ./sponge.c|corral --rx /usr cat ./sp
./spam.txt ./sponge.c|corral -- cat ./sp
status stash !--ro|corral -- git sta
status stash|corral --allow=read:/usr -q --engine landlock git sta
status stash|corral learn -o x.profile -- git sta
--cached !--ro|corral --rx /usr -- git diff --cac
CASES
else
	echo "ok $n - fish completion # SKIP fish is not installed"
fi
echo "1..$n"
exit $fail
