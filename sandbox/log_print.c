// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * log_print.c - the --log printer: one line per denial, see log_print.h.
 */
#include "config.h"

#include "log_print.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "netrule.h"
#include "policy.h"
#include "util.h"

/* FNV-1a over the denial, its pid and command left out. */
static uint64_t denial_hash(const struct corral_event *ev, const char *what,
			    const char *path)
{
	uint64_t h = 0xcbf29ce484222325ull ^ ev->hook;
	const char *parts[] = { what, "\n", path };

	for (size_t i = 0; i < 3; i++)
		for (const char *c = parts[i]; *c; c++)
			h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
	return h ? h : 1;
}

/*
 * Whether this denial was printed before (and remember it if not).  A
 * full table forgets nothing and remembers no more: repeats then print.
 */
static bool seen_before(struct log_printer *p, uint64_t h)
{
	size_t i = h % LOG_SEEN_SLOTS;

	for (size_t k = 0; k < LOG_SEEN_SLOTS; k++, i = (i + 1) % LOG_SEEN_SLOTS) {
		if (p->seen[i] == h)
			return true;
		if (!p->seen[i]) {
			p->seen[i] = h;
			return false;
		}
	}
	return false;
}

static void flush_suppressed(struct log_printer *p)
{
	if (!p->suppressed)
		return;
	fprintf(p->out, "corral: %llu more denial%s not shown (rate limit "
		"%u a second)\n", (unsigned long long)p->suppressed,
		p->suppressed == 1 ? "" : "s", p->per_second);
	p->suppressed = 0;
}

/* "connect-tcp 93.184.216.34:80", "socket family 17 type 3 protocol 0" */
static const char *net_text(const struct corral_event *ev, char *buf,
			    size_t size)
{
	char where[64];

	if (ev->hook == CORRAL_HOOK_SOCKET)
		snprintf(buf, size, "socket family %u type %u protocol %u",
			 ev->net.socket_family, ev->net.socket_type,
			 ev->net.protocol);
	else if (ev->hook == CORRAL_HOOK_ROUTE)
		snprintf(buf, size, "source route (level %u option %u) on "
			 "socket family %u", ev->net.protocol, ev->net.port,
			 ev->net.socket_family);
	else
		snprintf(buf, size, "%s %s",
			 netrule_op_name((uint8_t)ev->access),
			 netrule_format_addr(ev->net.family, ev->net.addr,
					     ev->net.port, where,
					     sizeof(where)));
	return buf;
}

/*
 * Prints "corral: " and @line, escaped: the names in it are the sandboxed
 * command's to choose, and must not reach the terminal as control
 * sequences.
 */
static void log_line(struct log_printer *p, const char *line)
{
	static char escaped[4 * LOG_LINE_MAX];

	fprintf(p->out, "corral: %s\n",
		text_escape(line, escaped, sizeof(escaped)));
	fflush(p->out);
}

/* A denial of the network hooks, which net_text() names. */
static bool is_net_event(const struct corral_event *ev)
{
	return ev->hook == CORRAL_HOOK_NET || ev->hook == CORRAL_HOOK_SOCKET ||
	       ev->hook == CORRAL_HOOK_ROUTE;
}

/* The right a file denial is about ("read"), or its hook ("signal"). */
static const char *denial_what(const struct corral_event *ev, char *buf,
			       size_t size)
{
	return ev->access ? rights_format(ev->access, buf, size)
			  : event_hook_name(ev->hook);
}

/* @path with the home directory written ~, as a user reads it. */
static const char *home_short(const char *path, const char *home,
			      char *buf, size_t size)
{
	size_t n = home ? strlen(home) : 0;

	if (n > 1 && !strncmp(path, home, n) &&
	    (path[n] == '/' || !path[n])) {
		snprintf(buf, size, "~%s", path + n);
		return buf;
	}
	return path;
}

/* Summary mode: count @ev and keep the first as "read ~/x by cat". */
static void summary_count(struct log_printer *p,
			  const struct corral_event *ev)
{
	static char path[CORRAL_EVENT_NAMES * CORRAL_EVENT_NAME_LEN + 8];
	static char shortened[sizeof(path) + 2];
	char rights[128];

	if (p->refused++)
		return;
	if (is_net_event(ev)) {
		snprintf(p->first, sizeof(p->first), "%s by %.16s",
			 net_text(ev, rights, sizeof(rights)), ev->comm);
		return;
	}
	event_target(ev, path, sizeof(path));
	snprintf(p->first, sizeof(p->first), "%s%s%s by %.16s",
		 denial_what(ev, rights, sizeof(rights)),
		 path[0] ? " " : "",
		 home_short(path, p->home, shortened, sizeof(shortened)),
		 ev->comm);
}

void log_print_event(const struct corral_event *ev, void *printer)
{
	struct log_printer *p = printer;
	static char path[CORRAL_EVENT_NAMES * CORRAL_EVENT_NAME_LEN + 8];
	static char line[LOG_LINE_MAX], why[2 * PATH_MAX + 256];
	char rights[128];
	const char *what;

	if (!p->all && event_is_routine(ev))
		return;
	if (p->summary) {
		summary_count(p, ev);
		return;
	}
	if (ev->time_ns - p->window_ns >= 1000000000ull) {
		flush_suppressed(p);
		p->window_ns = ev->time_ns;
		p->in_window = 0;
	}
	if (++p->in_window > p->per_second) {
		p->suppressed++;
		return;
	}
	if (is_net_event(ev)) {
		snprintf(line, sizeof(line), "denied %s (pid %u %.16s)",
			 net_text(ev, rights, sizeof(rights)), ev->pid,
			 ev->comm);
		log_line(p, line);
		return;
	}
	what = denial_what(ev, rights, sizeof(rights));
	event_target(ev, path, sizeof(path));
	if (!p->all && seen_before(p, denial_hash(ev, what, path)))
		return;
	snprintf(line, sizeof(line), "denied %s%s%s (pid %u %.16s)%s", what,
		 path[0] ? " " : "", path, ev->pid, ev->comm,
		 p->why ? p->why(ev, p->why_ctx, why, sizeof(why)) : "");
	log_line(p, line);
}

static void summary_finish(struct log_printer *p, uint64_t lost)
{
	static char line[LOG_LINE_MAX];

	if (!p->refused)
		return;
	snprintf(line, sizeof(line), "%s%llu access%s refused (first: %s); "
		 "rerun with --log to see them", lost ? "at least " : "",
		 (unsigned long long)p->refused, p->refused == 1 ? "" : "es",
		 p->first);
	log_line(p, line);
}

void log_finish(struct log_printer *p)
{
	uint64_t lost = events_lost() - p->lost_at_start;

	if (p->summary) {
		summary_finish(p, lost);
		return;
	}
	flush_suppressed(p);
	if (lost)
		fprintf(p->out, "corral: while the command ran, the kernel "
			"dropped %llu denial events of watched sandboxes (ring "
			"buffer full): some denials may be missing above\n",
			(unsigned long long)lost);
}
