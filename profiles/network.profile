# network.profile - what a network client reads to find and trust servers.
#
# Included by the profiles of programs that talk to the network (curl,
# wget, git, pip, npm, ssh).  It grants read access to the resolver's
# configuration and to the CA certificates, which every TLS client needs,
# and DNS (port 53, UDP and TCP) to the nameservers /etc/resolv.conf lists
# when the profile is read, and nowhere else.  Its first network rule
# confines the network: each profile including it adds the ports its
# program needs (443 and 80, 22), and everything else is refused.
#
# Adapt: a system resolver reached through a socket (systemd-resolved's
# nss-resolve, nscd) needs that socket too (connect-unix = PATH); plain
# DNS through /etc/resolv.conf needs nothing more.  `--net=all` on the command line
# lifts the network rules for one run.

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

[network]
connect-udp = resolvers:53       ; DNS to the nameservers of /etc/resolv.conf
bind-udp = 0                     ; the ephemeral port a query's socket binds
connect-tcp = resolvers:53       ; DNS over TCP (large answers)
