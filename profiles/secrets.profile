# secrets.profile - credentials and private history, denied (include it).
#
# Denies every right on the places in your home that hold keys, tokens,
# saved passwords and shell histories, even where another rule of the
# profile allows your home or a tree around them: the rights on a path are
# what the allows on the way to it give minus what the denies on the way to
# it take (corral.profile(5)).  A denied file is denied under any hard link
# of it too.  Paths that do not exist are skipped ('-'): a secret created
# while the sandbox runs is not covered.
#
# The list is the one `corral learn` warns about (sandbox/secrets.c; a unit
# test checks the two agree).  On Landlock a deny no allow reaches is left
# out, whatever is mounted where; any other is made by allowing what is
# around it, or, where that is not exact, corral refuses (corral(1)).

[profile]
description = denies SSH and GnuPG keys, cloud credentials, password stores, browser profiles and shell histories

[filesystem]
deny = -${HOME}/.ssh
       -${HOME}/.gnupg
       -${HOME}/.aws
       -${HOME}/.config/gcloud
       -${HOME}/.azure
       -${HOME}/.kube
       -${HOME}/.docker/config.json
       -${HOME}/.netrc
       -${HOME}/.git-credentials
       -${HOME}/.config/git/credentials
       -${HOME}/.password-store
       -${HOME}/.local/share/keyrings
       -${HOME}/.local/share/kwalletd
       -${HOME}/.mozilla
       -${HOME}/.config/chromium
       -${HOME}/.config/google-chrome
       -${HOME}/.bash_history
       -${HOME}/.zsh_history
       -${HOME}/.histfile
       -${HOME}/.local/share/fish/fish_history
       -${HOME}/.python_history
       -${HOME}/.psql_history
       -${HOME}/.mysql_history
