#!/bin/bash
# profile-text.sh: profile errors and --print-profile, as a user meets them.
#
#   - a broken line is named once, at its own line, in line order: a
#     '[filesystem' header reports its missing ']' and nothing about the
#     keys under it; exit 125
#   - a profile found on the search path is named with its directory
#   - --print-profile output reads back (corral check says ok) for paths
#     holding a newline, ' ;', '#', blanks, a leading '-', quotes, '\',
#     a byte that is not UTF-8, and a 1000-byte path; printing a printed
#     profile gives it back unchanged
#
# Needs no sandbox: check and --print-profile only parse.
# Environment: CORRAL (see Makefile.am).
. "$(dirname "$0")/../integration/lib.sh"

make_tmp T profile-text || skip_all "cannot make a temp dir"
cd "$T" || exit 1

# run ARGS...: $err is corral's stderr, $rc its exit status (stdout dropped)
run() {
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
}

# ---- errors at the right line, naming the file ---------------------

# each case: NAME|PROFILE TEXT (printf format)|the one expected stderr line
while IFS='|' read -r name text want; do
	printf "$text" >"$T/e.profile"
	run "$CORRAL" check "$T/e.profile"
	is "$rc:$err" "125:corral: profile $T/e.profile:$want" "check: $name"
done <<'CASES'
'[filesystem' (no ']'): that error alone, at its line|[profile]\ndescription = x\n[filesystem\nro = /usr\nrx = /bin\n|3: missing ']' at the end of the section name (write [NAME] on a line of its own)
an unknown section: its keys are not named too|[filesystm]\nro = /usr\n|1: unknown section [filesystm] (sections: [profile], [filesystem], [network], [sandbox], [environment])
an unterminated quote|[filesystem]\nro = "/usr\n|2: unterminated quoted value (close it with '"', or end the line with '\' to go on on the next, indented line)
text after a closing quote|[filesystem]\nro = "/usr" /bin\n|2: '/bin' after the closing quote (only a '; comment' may follow it)
CASES

printf '[filesystem]\nnot ini\nrox = /usr\n' >"$T/e.profile"
run "$CORRAL" check "$T/e.profile"
is "$rc:$err" "125:corral: profile $T/e.profile:2: syntax error (expected [section], KEY = VALUE, an indented continuation line or a comment)
corral: profile $T/e.profile:3: unknown right 'rox' in key 'rox' (rights: read, readdir, write, exec, truncate, create, remove, refer, ioctl, connect-unix; groups: ro, rx, rw, rwx)" \
	"check: a syntax error, then a later line's bad key, in line order"

mkdir -p "$T/profiles"
printf '[filesystem]\nrx = /usr\nrox = /etc\n' >"$T/profiles/typo.profile"
run env CORRAL_PROFILE_PATH="$T/profiles" "$CORRAL" --profile typo -- true
[ "$rc" = 125 ] && [[ $err == "corral: profile $T/profiles/typo.profile:3: unknown right 'rox'"* ]] &&
	ok "--profile NAME: its error names the file with its directory" ||
	not_ok "--profile NAME: its error names the file with its directory" "exit $rc:" "$err"
printf '[profile]\ninclude = typo\n' >"$T/profiles/outer.profile"
run env CORRAL_PROFILE_PATH="$T/profiles" "$CORRAL" --print-profile=outer
[ "$rc" = 125 ] && [[ $err == "corral: profile $T/profiles/typo.profile:3: "* ]] &&
	ok "an included NAME's error names the file with its directory" ||
	not_ok "an included NAME's error names the file with its directory" "exit $rc:" "$err"

# ---- --print-profile reads back -----------------------------------

long=$T/long
for i in 1 2 3 4; do long=$long/$(printf 'x%.0s' {1..240}); done
nasty=("$T/new
line" "$T/semi ;colon" "$T/#hash" "$T/trailing " "$T/-dash" "$T/q\"uote"
	"$T/back\\slash" "$T/bad$(printf '\377')byte" "$T/dollar\$HOME"
	"$T/ leading" "$long")
args=()
for p in "${nasty[@]}"; do
	mkdir -p "$p" && args+=(--ro "$p")
done
is "${#long}" "$(( ${#T} + 5 + 4 * 241 ))" "(the long path is $((${#T} + 969)) bytes)"
"$CORRAL" "${args[@]}" --print-profile >"$T/p1.profile" 2>"$T/err"
is "$?:$(cat "$T/err")" "0:" "--print-profile with nasty paths"
run "$CORRAL" check "$T/p1.profile"
is "$rc:$err" "0:" "corral check reads the printed profile"
"$CORRAL" --print-profile="$T/p1.profile" >"$T/p2.profile" 2>&1
"$CORRAL" --print-profile="$T/p2.profile" >"$T/p3.profile" 2>&1
"$CORRAL" --print-profile="$T/p3.profile" >"$T/p4.profile" 2>&1
for n in 1 2; do
	# rules only: the comments name each file's own lines
	grep -v '^[#;]' "$T/p$n.profile" | sed 's/ *;[^"]*$//' >"$T/r$n"
done
cmp -s "$T/r1" "$T/r2" && [ -s "$T/r1" ] &&
	ok "print -> parse -> print: the same rules" ||
	not_ok "print -> parse -> print: the same rules" "$(diff "$T/r1" "$T/r2")"
# p2's comments name p1's lines, which has no "# FILE" line: p3 on
sed "s|p2\.profile|pN.profile|" "$T/p3.profile" >"$T/n3"
sed "s|p3\.profile|pN.profile|" "$T/p4.profile" >"$T/n4"
cmp -s "$T/n3" "$T/n4" &&
	ok "printing a printed profile gives it back, byte for byte" ||
	not_ok "printing a printed profile gives it back, byte for byte" "$(diff "$T/n3" "$T/n4")"
awk 'length > 198 { bad = 1 } END { exit bad }' "$T/p1.profile" &&
	ok "no printed line is longer than a profile line may be (198 bytes)" ||
	not_ok "no printed line is longer than a profile line may be (198 bytes)"

done_testing
