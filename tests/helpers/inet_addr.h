/* SPDX-License-Identifier: GPL-2.0-or-later */
/* inet_addr.h - ADDR PORT as a socket address, for the static helpers. */
#ifndef CORRAL_HELPERS_INET_ADDR_H
#define CORRAL_HELPERS_INET_ADDR_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* ADDR PORT into @ss; returns the family, or 0 on a bad address. */
static inline int sockaddr_of(const char *addr, const char *port,
			      struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (strchr(addr, ':')) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)atoi(port));
		*len = sizeof(*in6);
		return inet_pton(AF_INET6, addr, &in6->sin6_addr) == 1 ?
		       AF_INET6 : 0;
	}
	in->sin_family = AF_INET;
	in->sin_port = htons((uint16_t)atoi(port));
	*len = sizeof(*in);
	return inet_pton(AF_INET, addr, &in->sin_addr) == 1 ? AF_INET : 0;
}

#endif
