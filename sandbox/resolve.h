/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * resolve.h - host names in network rules, resolved at launch by a
 * process of their own.
 *
 * Where it runs, and why: getaddrinfo follows nsswitch.conf, so it may
 * dlopen NSS modules (resolve, mdns, myhostname...) that open sockets of
 * any family, talk over D-Bus or varlink, read netlink: no allowlist can
 * name those system calls in advance, and the parser child's seccomp
 * filter kills it at the first one it does not list.  Widening that
 * filter for every parse would also hand sockets to whatever took the
 * parser over through a hostile profile.  The launcher must not resolve
 * either: it holds CAP_BPF and the corral group, and an NSS module has
 * no business running with them.
 *
 * So the parser, once it has parsed everything, sends the launcher one
 * request naming the hosts (only when a rule names one: a launch without
 * names pays nothing); the launcher checks only its size and magic and
 * forks a resolver that drops every privilege (privs_drop_all: no
 * capability, no corral group, NO_NEW_PRIVS) before it reads a name,
 * and that answers the parser directly on the same socket.  The parser
 * checks the answer, turns each address into a rule and reports names
 * that did not resolve at their profile line.  The resolver never sees
 * a profile; the launcher never looks at a name.
 */
#ifndef CORRAL_RESOLVE_H
#define CORRAL_RESOLVE_H

#include <stdint.h>

#include "policy.h"

#define RESOLVE_MAX_NAMES 32

/*
 * Parser side: resolves every host name of @policy (each distinct name
 * once) through the launcher at the other end of @sock, filling each
 * host's addrs or error.  Returns 0, or -EPROTO after a message saying
 * what went wrong (no answer, a malformed answer, too many names).
 */
int resolve_hosts(int sock, struct policy *policy);

/*
 * Launcher side: if the next message on @sock is a resolve request,
 * takes it and has an unprivileged child answer it.  Returns 1 when it
 * served one, 0 when the next message is something else (left queued
 * for launch_msg_recv), -errno when the answer failed (the socket is
 * then shut down, so the parser stops waiting).
 */
int resolve_serve(int sock);

#endif /* CORRAL_RESOLVE_H */
