# network.profile - what a network client reads to find and trust servers.
#
# Included by the profiles of programs that talk to the network (curl,
# wget, git, pip, npm, ssh).  It grants no network access itself: corral
# does not confine sockets yet, so a sandboxed program can connect
# wherever the host can.  What it grants is read access to the resolver's
# configuration and to the CA certificates, which every TLS client needs.
#
# Adapt: a system resolver reached through a socket (systemd-resolved's
# nss-resolve, nscd) needs that socket too; plain DNS through
# /etc/resolv.conf needs nothing more.

[profile]
description = name resolution and TLS trust anchors for network clients (include it)
include = base

[filesystem]
ro = -/etc/hosts
     -/etc/host.conf
     -/etc/resolv.conf           ; a symlink is followed when the rule is set
     -/etc/gai.conf
     -/etc/services
     -/etc/protocols
     -/etc/ssl/certs             ; ca-certificates.crt and the hashed links
     -/etc/ca-certificates
     -/etc/pki                   ; other distributions keep CAs here
