# bash completion for corral(1)                      -*- shell-script -*-
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Works with or without the bash-completion package.  `make install`
# rewrites the _corral_pkgdatadir and _corral_sysconfdir lines to the
# configured $(pkgdatadir) and $(sysconfdir).

_corral_pkgdatadir=/usr/share/corral
_corral_sysconfdir=/etc

# Profile names of the search path (as sandbox/profile_search.c builds it).
_corral_profiles()
{
	local dir f dirs=()
	if [[ -n ${CORRAL_PROFILE_PATH+set} ]]; then
		local IFS=:
		dirs=($CORRAL_PROFILE_PATH)
		unset IFS
	else
		local config=${XDG_CONFIG_HOME:-$HOME/.config}
		[[ $config == /* ]] || config=$HOME/.config
		dirs=("$config/corral/profiles" "$_corral_sysconfdir/corral/profiles"
		      "$_corral_pkgdatadir/profiles")
	fi
	for dir in "${dirs[@]}"; do
		[[ -n $dir ]] || continue
		for f in "$dir"/*.profile; do
			[[ -f $f ]] || continue
			f=${f##*/}
			printf '%s\n' "${f%.profile}"
		done
	done | sort -u
}

_corral_files()
{
	local IFS=$'\n'
	if [[ $1 == -d ]]; then
		COMPREPLY+=($(compgen -d -- "$2"))
	else
		COMPREPLY+=($(compgen -f -- "$1"))
	fi
	compopt -o filenames 2>/dev/null
}

# The index in COMP_WORDS of the command corral runs (the word after
# "--", or the first that is neither an option nor an option's argument),
# if it comes at or before word $1; else 0.  With "=" and ":" in
# COMP_WORDBREAKS, "--allow=read:/usr" comes as five words.
_corral_command_at()
{
	local -i i=1 cword=$1
	local word with_arg=' --ro --rx --rw --rwx --allow --deny --profile --project --engine
		--net --connect-tcp --bind-tcp --connect-udp --bind-udp -o
		--output --base '
	case ${COMP_WORDS[1]} in
	learn) i=2 ;;
	setup|status|teardown|profiles|check|explain) echo 0; return ;;
	esac
	while ((i <= cword)); do
		word=${COMP_WORDS[i]}
		if [[ $word == -- ]]; then
			((i + 1 <= cword)) && echo $((i + 1)) || echo 0
			return
		fi
		if [[ $word != -* ]]; then
			echo $i
			return
		fi
		((i++))
		if [[ ${COMP_WORDS[i]} == = ]]; then
			((i += 2))
		elif [[ $with_arg == *[[:space:]]$word[[:space:]]* ]]; then
			((i++))
		else
			continue
		fi
		while [[ ${COMP_WORDS[i]} == : ]]; do
			((i += 2))
		done
	done
	echo 0
}

# Word $1 on is the command corral runs: its own completion, through
# bash-completion's _command_offset as sudo's does; without
# bash-completion, file names.
_corral_wrapped()
{
	if declare -F _comp_command_offset >/dev/null; then
		_comp_command_offset "$1"
	elif declare -F _command_offset >/dev/null; then
		_command_offset "$1"
	else
		_corral_files "${COMP_WORDS[COMP_CWORD]}"
	fi
}

_corral()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev= opt= value= prefix=
	local -i i cword=COMP_CWORD
	local sub=
	local options='--ro --rx --rw --rwx --allow --deny --profile --project
		--print-profile 		--connect-tcp --bind-tcp --connect-udp --bind-udp --net=
		--net-best-effort --engine= --log --log-all --debug --quiet --help --version'
	local net_modes='all none rules'
	local subcommands='setup status teardown profiles check learn explain'
	local explain_ops='read write exec readdir create remove truncate ioctl
		refer connect-unix rename link exchange connect-tcp bind-tcp connect-udp bind-udp'
	local engines='auto bpf landlock'
	local rights='read readdir write exec truncate create remove refer
		ioctl connect-unix ro rx rw rwx'
	COMPREPLY=()
	((cword > 0)) && prev=${COMP_WORDS[cword - 1]}

	# The command corral runs: its name, then its own completion.
	i=$(_corral_command_at "$cword")
	if ((i > 0 && i < cword)); then
		_corral_wrapped "$i"
		return 0
	elif ((i > 1 && i == cword)); then
		local IFS=$'\n'
		COMPREPLY=($(compgen -c -- "$cur"))
		return 0
	fi
	[[ " $subcommands " == *" ${COMP_WORDS[1]} "* ]] && sub=${COMP_WORDS[1]}

	# --opt=value: with '=' in COMP_WORDBREAKS bash splits it in three.
	if [[ $cur == = ]]; then
		opt=$prev value=
	elif [[ $prev == = ]] && ((cword >= 2)); then
		opt=${COMP_WORDS[cword - 2]} value=$cur
	elif [[ $cur == --*=* ]]; then
		opt=${cur%%=*} value=${cur#*=} prefix=$opt=
	fi
	if [[ -n $opt ]]; then
		case $opt in
		--engine)
			COMPREPLY=($(compgen -P "$prefix" -W "$engines" -- "$value")) ;;
		--net)
			COMPREPLY=($(compgen -P "$prefix" -W "$net_modes" -- "$value")) ;;
		--print-profile|--profile|--base)
			COMPREPLY=($(compgen -P "$prefix" \
				-W "$(_corral_profiles)" -- "$value")) ;;
		--log|--log-all|--output|--ro|--rx|--rw|--rwx)
			[[ -z $prefix ]] && _corral_files "$value" ;;
		--project)
			[[ -z $prefix ]] && _corral_files -d "$value" ;;
		esac
		return 0
	fi

	case $prev in
	--ro|--rx|--rw|--rwx|-o|--output)
		_corral_files "$cur"
		return 0 ;;
	--project)
		_corral_files -d "$cur"
		return 0 ;;
	--profile|--base)
		COMPREPLY=($(compgen -W "$(_corral_profiles)" -- "$cur"))
		[[ $cur == */* ]] && _corral_files "$cur"
		return 0 ;;
	--engine)
		COMPREPLY=($(compgen -W "$engines" -- "$cur"))
		return 0 ;;
	--op)
		COMPREPLY=($(compgen -W "$explain_ops" -- "$cur"))
		return 0 ;;
	--connect-tcp|--bind-tcp|--connect-udp|--bind-udp)
		return 0 ;;	# a port or ADDR:PORT: nothing to offer
	--allow|--deny)
		if [[ $cur == *:* ]]; then
			_corral_files "${cur#*:}"
		else
			local done=${cur%,*}, last=${cur##*,}
			[[ $cur == *,* ]] || done=
			COMPREPLY=($(compgen -P "$done" -W "$rights" -- "$last"))
			compopt -o nospace 2>/dev/null
		fi
		return 0 ;;
	esac

	case $sub in
	setup)
		COMPREPLY=($(compgen -W '--debug' -- "$cur")) ;;
	teardown)
		COMPREPLY=($(compgen -W '--force' -- "$cur")) ;;
	status|profiles)
		;;
	check)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W '--project' -- "$cur"))
		else
			_corral_files "$cur"
		fi ;;
	explain)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--op $options" -- "$cur"))
		else
			_corral_files "$cur"
		fi ;;
	learn)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "-o --output --base $options --" \
				-- "$cur"))
		fi ;;
	*)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$options --" -- "$cur"))
			[[ ${COMPREPLY[*]} == *= ]] && compopt -o nospace 2>/dev/null
		elif ((cword == 1)); then
			COMPREPLY=($(compgen -W "$subcommands" -- "$cur"))
			if [[ -n $cur ]]; then
				local IFS=$'\n'
				COMPREPLY+=($(compgen -c -- "$cur"))
			fi
		else
			local IFS=$'\n'
			COMPREPLY=($(compgen -c -- "$cur"))
		fi ;;
	esac
	return 0
}

complete -F _corral corral
