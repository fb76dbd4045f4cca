// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * privs.c - the only file that changes capabilities.  See privs.h for the
 * order in which a launch uses it.
 */
#include "config.h"

#include "privs.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "util.h"

static cap_t cap_get_proc_or_die(void)
{
	cap_t caps = cap_get_proc();

	if (!caps)
		die_errno("reading this process's capabilities");
	return caps;
}

static void cap_set_proc_or_die(cap_t caps, const char *what)
{
	if (cap_set_proc(caps) < 0)
		die_errno("%s", what);
}

const char *privs_missing_reason(void)
{
	return "CAP_BPF is not permitted to this process (hint: run as "
	       "root, or install corral with 'setcap cap_bpf+p'; make "
	       "install does it)";
}

/*
 * Whether root or an ordinary user with the file capability, nothing is
 * effective until a step needs it.  A user's permitted set shrinks to
 * CAP_BPF here (or to nothing without it); root keeps its permitted set
 * for the admin subcommands, and a root launch shrinks it in
 * privs_init_launcher().
 */
void privs_at_start(void)
{
	const cap_value_t bpf = CAP_BPF;
	cap_flag_value_t permitted = CAP_CLEAR;
	cap_t caps = cap_get_proc_or_die();
	bool root = getuid() == 0 && geteuid() == 0;

	if (cap_get_flag(caps, CAP_BPF, CAP_PERMITTED, &permitted) < 0)
		die_errno("reading CAP_BPF from this process's capabilities");
	if (!root) {
		cap_free(caps);
		caps = cap_init();
		if (!caps)
			die_errno("allocating a capability set");
		if (permitted == CAP_SET &&
		    cap_set_flag(caps, CAP_PERMITTED, 1, &bpf, CAP_SET) < 0)
			die_errno("building the CAP_BPF-only capability set");
	}
	if (cap_clear_flag(caps, CAP_EFFECTIVE) < 0 ||
	    cap_clear_flag(caps, CAP_INHERITABLE) < 0)
		die_errno("building the starting capability set");
	cap_set_proc_or_die(caps, "clearing the effective capabilities");
	cap_free(caps);
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
		die_errno("clearing ambient capabilities");
}

void privs_raise_admin(void)
{
	cap_t caps = cap_get_proc_or_die();
	cap_value_t v;

	for (v = 0; v < (cap_value_t)cap_max_bits(); v++) {
		cap_flag_value_t permitted = CAP_CLEAR;

		if (cap_get_flag(caps, v, CAP_PERMITTED, &permitted) < 0)
			die_errno("reading this process's capabilities");
		if (permitted == CAP_SET &&
		    cap_set_flag(caps, CAP_EFFECTIVE, 1, &v, CAP_SET) < 0)
			die_errno("building the effective set");
	}
	cap_set_proc_or_die(caps, "raising the permitted capabilities");
	cap_free(caps);
}

bool privs_bpf_permitted(void)
{
	cap_flag_value_t permitted = CAP_CLEAR;
	cap_t caps = cap_get_proc_or_die();

	if (cap_get_flag(caps, CAP_BPF, CAP_PERMITTED, &permitted) < 0)
		die_errno("reading CAP_BPF from this process's capabilities");
	cap_free(caps);
	return permitted == CAP_SET;
}

int privs_init_launcher(void)
{
	const cap_value_t bpf = CAP_BPF;
	cap_flag_value_t permitted = CAP_CLEAR;
	cap_t caps = cap_get_proc_or_die();

	if (cap_get_flag(caps, CAP_BPF, CAP_PERMITTED, &permitted) < 0)
		die_errno("reading CAP_BPF from this process's capabilities");
	cap_free(caps);
	if (permitted != CAP_SET)
		return -EPERM;
	caps = cap_init();
	if (!caps)
		die_errno("allocating a capability set");
	if (cap_set_flag(caps, CAP_PERMITTED, 1, &bpf, CAP_SET) < 0)
		die_errno("building the CAP_BPF-only capability set");
	cap_set_proc_or_die(caps, "reducing capabilities to CAP_BPF");
	cap_free(caps);
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
		die_errno("clearing ambient capabilities");
	return 0;
}

void privs_raise_bpf(void)
{
	const cap_value_t bpf = CAP_BPF;
	cap_t caps = cap_get_proc_or_die();

	if (cap_set_flag(caps, CAP_EFFECTIVE, 1, &bpf, CAP_SET) < 0)
		die_errno("building the CAP_BPF effective set");
	cap_set_proc_or_die(caps, "raising CAP_BPF to write the sandbox rules");
	cap_free(caps);
}

static void check_no_caps_left(void)
{
	cap_t now = cap_get_proc_or_die();
	cap_t none = cap_init();
	int differ;

	if (!none)
		die_errno("allocating a capability set");
	differ = cap_compare(now, none);
	cap_free(now);
	cap_free(none);
	if (differ)
		die("capabilities still present after dropping them all; "
		    "refusing to run the command");
}

/*
 * Installed setgid corral (the group that may open the pinned maps): the
 * command must not keep that group.  Read back, as the drop must stick.
 */
static void drop_setgid(void)
{
	gid_t gid = getgid(), r, e, s;

	if (setresgid(gid, gid, gid) < 0)
		die_errno("dropping the corral group (setresgid %u)",
			  (unsigned)gid);
	if (getresgid(&r, &e, &s) < 0 || r != gid || e != gid || s != gid)
		die("the corral group is still held after setresgid; refusing "
		    "to run the command");
}

void privs_drop_all(void)
{
	cap_t none = cap_init();

	drop_setgid();
	if (!none)
		die_errno("allocating a capability set");
	cap_set_proc_or_die(none, "dropping every capability");
	cap_free(none);
	check_no_caps_left();
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		die_errno("setting NO_NEW_PRIVS");
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
		die("NO_NEW_PRIVS did not stick; refusing to run the command");
}
