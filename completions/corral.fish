# fish completion for corral(1)
# SPDX-License-Identifier: GPL-2.0-or-later
# `make install` rewrites the _corral_pkgdatadir line to $(pkgdatadir).

set -g _corral_pkgdatadir /usr/share/corral

# Profile names of the search path (as sandbox/profile.c builds it).
function __corral_profiles
    set -l dirs
    if set -q CORRAL_PROFILE_PATH
        set dirs (string split : -- $CORRAL_PROFILE_PATH)
    else
        set -l config $XDG_CONFIG_HOME
        string match -q '/*' -- $config; or set config $HOME/.config
        set dirs $config/corral/profiles /etc/corral/profiles $_corral_pkgdatadir/profiles
    end
    for d in $dirs
        test -n "$d"; or continue
        for f in $d/*.profile
            test -f $f; and basename $f .profile
        end
    end | sort -u
end

set -l subcommands setup status teardown profiles check learn

complete -c corral -n "__fish_use_subcommand" -a setup -d 'load the BPF programs (root)'
complete -c corral -n "__fish_use_subcommand" -a status -d 'show the BPF setup'
complete -c corral -n "__fish_use_subcommand" -a teardown -d 'unpin the BPF programs'
complete -c corral -n "__fish_use_subcommand" -a profiles -d 'list profiles'
complete -c corral -n "__fish_use_subcommand" -a check -d 'validate profile files'
complete -c corral -n "__fish_use_subcommand" -a learn -d 'write a profile from a run'

complete -c corral -l ro -r -F -d 'read files and list directories'
complete -c corral -l rx -r -F -d 'as --ro, and execute'
complete -c corral -l rw -r -F -d 'as --ro, and write, create, remove'
complete -c corral -l rwx -r -F -d 'as --rw, and execute'
complete -c corral -l allow -x -d 'RIGHTS:PATH, rights comma-separated'
complete -c corral -l profile -x -a '(__corral_profiles)' -d 'add a profile'
complete -c corral -l print-profile -x -a '(__corral_profiles)' -d 'print the merged rules'
complete -c corral -l connect-tcp -x -d 'allow TCP connects to [ADDR:]PORT'
complete -c corral -l bind-tcp -x -d 'allow TCP binds to [ADDR:]PORT'
complete -c corral -l connect-udp -x -d 'allow UDP connects and sends to [ADDR:]PORT'
complete -c corral -l bind-udp -x -d 'allow UDP binds to [ADDR:]PORT'
complete -c corral -l net -x -a 'all none rules' -d 'confine the network'
complete -c corral -l engine -x -a 'auto bpf landlock' -d 'enforcement engine'
complete -c corral -l log -F -d 'print each denial (to FILE with =)'
complete -c corral -l debug -d 'verifier log during setup'
complete -c corral -l help -d 'print usage'
complete -c corral -l version -d 'print the version'
complete -c corral -n "__fish_seen_subcommand_from teardown" -l force -d 'unpin even with live sandboxes'
complete -c corral -n "__fish_seen_subcommand_from learn" -s o -l output -r -F -d 'the profile to write'
complete -c corral -n "__fish_seen_subcommand_from learn" -l base -x -a '(__corral_profiles)' -d 'the profile to start from'
