# ssh.profile - the ssh client, with its own files only.
#
#   corral --profile ssh -- ssh host.example.org
#
# Decision: ~/.ssh as a whole is NOT readable.  ssh gets its config, the
# known-hosts files and the default identity files (id_rsa, id_ecdsa,
# id_ecdsa_sk, id_ed25519, id_ed25519_sk, id_xmss, id_dsa, with .pub and
# -cert.pub) - what it reads when nothing else is configured - and write
# access to ~/.ssh/known_hosts alone, to record new host keys.  It cannot
# create files in ~/.ssh (no planted keys or authorized_keys), read other
# keys kept there, or touch the rest of your home.  A key with another
# name (IdentityFile ~/.ssh/work) or a file named by Include needs a line
# below in your copy of this profile.  Create ~/.ssh/known_hosts (touch)
# if it does not exist yet.
#
# The agent: its socket needs the connect-unix right (no group of rights
# holds it).  Common locations are listed; an agent in /tmp/ssh-XXXX needs
# --allow connect-unix:"$SSH_AUTH_SOCK".  ProxyCommand and LocalCommand run in this
# sandbox too.  For scp and sftp into the project, see scp.profile.
#
# ${HOME} is $HOME; ssh itself looks in the home directory of your
# passwd entry.  They are the same unless you changed HOME.

[profile]
description = the ssh client with its config, known hosts and default keys only
include = network

[filesystem]
ro = -${HOME}/.ssh/config
     -/etc/ssh/ssh_config
     -/etc/ssh/ssh_config.d
     -/etc/ssh/ssh_known_hosts
     -/etc/ssh/ssh_known_hosts2
     -${HOME}/.ssh/known_hosts2
rw = -${HOME}/.ssh/known_hosts

# The default identities (ssh -i or IdentityFile add others).
ro = -${HOME}/.ssh/id_rsa
     -${HOME}/.ssh/id_rsa.pub
     -${HOME}/.ssh/id_rsa-cert.pub
     -${HOME}/.ssh/id_ecdsa
     -${HOME}/.ssh/id_ecdsa.pub
     -${HOME}/.ssh/id_ecdsa-cert.pub
     -${HOME}/.ssh/id_ecdsa_sk
     -${HOME}/.ssh/id_ecdsa_sk.pub
     -${HOME}/.ssh/id_ecdsa_sk-cert.pub
     -${HOME}/.ssh/id_ed25519
     -${HOME}/.ssh/id_ed25519.pub
     -${HOME}/.ssh/id_ed25519-cert.pub
     -${HOME}/.ssh/id_ed25519_sk
     -${HOME}/.ssh/id_ed25519_sk.pub
     -${HOME}/.ssh/id_ed25519_sk-cert.pub
     -${HOME}/.ssh/id_xmss
     -${HOME}/.ssh/id_xmss.pub
     -${HOME}/.ssh/id_dsa
     -${HOME}/.ssh/id_dsa.pub

# Agent sockets in the usual places (GNOME keyring, gcr, systemd unit).
connect-unix = -${XDG_RUNTIME_DIR}/gcr/ssh
               -${XDG_RUNTIME_DIR}/keyring/ssh
               -${XDG_RUNTIME_DIR}/openssh_agent
               -${XDG_RUNTIME_DIR}/ssh-agent.socket

[network]
connect-tcp = 22               ; sshd; a host on another port needs --connect-tcp PORT
