# fish completion for corral(1)
# SPDX-License-Identifier: GPL-2.0-or-later
# `make install` rewrites the _corral_pkgdatadir and _corral_sysconfdir lines to
# $(pkgdatadir) and $(sysconfdir).

set -g _corral_pkgdatadir /usr/share/corral
set -g _corral_sysconfdir /etc

# Profile names of the search path (as sandbox/profile_search.c builds it).
function __corral_profiles
    set -l dirs
    if set -q CORRAL_PROFILE_PATH
        set dirs (string split : -- $CORRAL_PROFILE_PATH)
    else
        set -l config $XDG_CONFIG_HOME
        string match -q '/*' -- $config; or set config $HOME/.config
        set dirs $config/corral/profiles $_corral_sysconfdir/corral/profiles $_corral_pkgdatadir/profiles
    end
    for d in $dirs
        test -n "$d"; or continue
        for f in $d/*.profile
            test -f $f; and basename $f .profile
        end
    end | sort -u
end

# The command corral runs and its arguments so far, NUL-separated: the
# words after corral's options (or after "--"), the one being completed
# included; status 1 while the words are still corral's own.
function __corral_command_words
    set -l tokens (commandline -opc) (commandline -ct)
    set -e tokens[1]
    switch "$tokens[1]"
        case setup status teardown profiles check explain
            return 1
        case learn
            set -e tokens[1]
    end
    set -l opts ro= rx= rw= rwx= allow= deny= profile= project= print-profile=? log=? log-all=? \
        o/output= base= engine= net= connect-tcp= bind-tcp= connect-udp= \
        bind-udp= net-best-effort q/quiet debug h/help V/version force
    argparse -s $opts -- $tokens 2>/dev/null; or return 1
    test -n "$argv"; and not string match -qr -- '^-' $argv[1]; or return 1
    string join0 -- $argv
end

# Still in corral's options: they, not the command's, are offered.
function __corral_options
    not __corral_command_words >/dev/null
end

# The command's name is being completed.
function __corral_command_name
    set -l words (__corral_command_words | string split0); or return 1
    test (count $words) -eq 1
end

# Past the command's name: the command's own completion.
function __corral_command_args
    set -l words (__corral_command_words | string split0); or return 1
    test (count $words) -gt 1
end

set -l subcommands setup status teardown profiles check learn explain

complete -c corral -n __corral_command_name -x -a '(__fish_complete_command)'
complete -c corral -n __corral_command_args -x -a '(__fish_complete_subcommand --commandline (__corral_command_words | string split0))'

complete -c corral -n "__fish_use_subcommand" -a setup -d 'load the BPF programs (root)'
complete -c corral -n "__fish_use_subcommand" -a status -d 'show the BPF setup'
complete -c corral -n "__fish_use_subcommand" -a teardown -d 'unpin the BPF programs'
complete -c corral -n "__fish_use_subcommand" -a profiles -d 'list profiles'
complete -c corral -n "__fish_use_subcommand" -a check -d 'validate profile files'
complete -c corral -n "__fish_use_subcommand" -a learn -d 'write a profile from a run'
complete -c corral -n "__fish_use_subcommand" -a explain -d 'say which rule allows or denies an access'
complete -c corral -n "__fish_seen_subcommand_from explain" -l op -x -a 'read write exec readdir create remove truncate ioctl refer connect-unix rename link exchange connect-tcp bind-tcp connect-udp bind-udp' -d 'the access to judge'

complete -c corral -n __corral_options -l ro -r -F -d 'read files and list directories'
complete -c corral -n __corral_options -l rx -r -F -d 'as --ro, and execute'
complete -c corral -n __corral_options -l rw -r -F -d 'as --ro, and write, create, remove'
complete -c corral -n __corral_options -l rwx -r -F -d 'as --rw, and execute'
complete -c corral -n __corral_options -l allow -x -d 'RIGHTS:PATH, rights comma-separated'
complete -c corral -n __corral_options -l deny -x -d '[RIGHTS:]PATH, rights taken away beneath it'
complete -c corral -n __corral_options -l profile -x -a '(__corral_profiles)' -d 'add a profile'
complete -c corral -n __corral_options -l project -x -a '(__fish_complete_directories)' -d 'the directory of ${PROJECT}'
complete -c corral -n __corral_options -l print-profile -x -a '(__corral_profiles)' -d 'print the merged rules'
complete -c corral -n __corral_options -l connect-tcp -x -d 'allow TCP connects to [ADDR:]PORT'
complete -c corral -n __corral_options -l bind-tcp -x -d 'allow TCP binds to [ADDR:]PORT'
complete -c corral -n __corral_options -l connect-udp -x -d 'allow UDP connects and sends to [ADDR:]PORT'
complete -c corral -n __corral_options -l bind-udp -x -d 'allow UDP binds to [ADDR:]PORT'
complete -c corral -n __corral_options -l net -x -a 'all none rules' -d 'confine the network'
complete -c corral -n __corral_options -l engine -x -a 'auto bpf landlock' -d 'enforcement engine'
complete -c corral -n __corral_options -l log -F -d 'print each denial (to FILE with =)'
complete -c corral -n __corral_options -l log-all -F -d 'print every denial, routine ones too'
complete -c corral -n __corral_options -l debug -d 'verifier log during setup'
complete -c corral -n __corral_options -l net-best-effort -d 'Landlock: run network rules it cannot enforce'
complete -c corral -n __corral_options -l help -d 'print usage'
complete -c corral -n __corral_options -l version -d 'print the version'
complete -c corral -n "__fish_seen_subcommand_from teardown" -l force -d 'unpin even with live sandboxes'
complete -c corral -n "__fish_seen_subcommand_from learn" -s o -l output -r -F -d 'the profile to write'
complete -c corral -n "__fish_seen_subcommand_from learn" -l base -x -a '(__corral_profiles)' -d 'the profile to start from'
