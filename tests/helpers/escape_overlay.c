/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * escape's overlay copy-up (issue 33, route 1): in a user and mount
 * namespace of its own, mount an overlay whose lower layer is outside
 * the rules and whose upper layer is inside, detached (fsopen, fsmount:
 * no mount(2) to refuse), and chmod a file through it.  Overlayfs copies
 * the file up as its mounter, through its layers' private mounts; if that
 * open is not judged under the mounter's domain, the copy lands in the
 * upper layer, where the sandbox may read it.
 *
 *   overlay-copyup LOWER DIR NAME   DIR/up and DIR/work are made here;
 *                                   afterwards DIR/up/NAME is the copy
 *
 * And route 5: a detached clone of an allowed directory below a deny
 * (open_tree(OPEN_TREE_CLONE)), whose walk to the root stops at the
 * clone's root, short of the deny:
 *
 *   tree-clone-read DIR NAME        reads DIR/NAME through a clone of DIR
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "escape.h"
#include "oplist.h"

/* <linux/mount.h> clashes with glibc 2.36's <sys/mount.h> */
#define FSCONFIG_SET_FLAG   0
#define FSCONFIG_SET_STRING 1
#define FSCONFIG_CMD_CREATE 6
#define FSMOUNT_CLOEXEC     1
#define OPEN_TREE_CLONE     1
#ifndef SYS_fsopen
#define SYS_open_tree 428
#define SYS_fsopen    430
#define SYS_fsconfig  431
#define SYS_fsmount   432
#endif

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* root in a new user namespace, mapped to who we were, in a mount ns */
static int own_namespace(void)
{
	char map[64];
	uid_t uid = getuid();
	gid_t gid = getgid();

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
		return -1;
	if (write_file("/proc/self/setgroups", "deny") < 0)
		return -1;
	snprintf(map, sizeof(map), "0 %u 1", (unsigned)uid);
	if (write_file("/proc/self/uid_map", map) < 0)
		return -1;
	snprintf(map, sizeof(map), "0 %u 1", (unsigned)gid);
	return write_file("/proc/self/gid_map", map);
}

static int set_string(int fs, const char *key, const char *value)
{
	return (int)syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, key, value,
			    0);
}

/* a detached overlay of @lower under @dir/up: its mount fd, or -1 */
static int detached_overlay(const char *lower, const char *dir)
{
	char up[4096], work[4096];
	int fs, mnt;

	snprintf(up, sizeof(up), "%s/up", dir);
	snprintf(work, sizeof(work), "%s/work", dir);
	if ((mkdir(up, 0700) < 0 && errno != EEXIST) ||
	    (mkdir(work, 0700) < 0 && errno != EEXIST))
		return -1;
	fs = (int)syscall(SYS_fsopen, "overlay", 0);
	if (fs < 0)
		return -1;
	/* userxattr: trusted.* is not for a user namespace's root */
	if (syscall(SYS_fsconfig, fs, FSCONFIG_SET_FLAG, "userxattr", NULL,
		    0) < 0 ||
	    set_string(fs, "lowerdir", lower) < 0 ||
	    set_string(fs, "upperdir", up) < 0 ||
	    set_string(fs, "workdir", work) < 0 ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		close(fs);
		return -1;
	}
	mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, 0);
	close(fs);
	return mnt;
}

static int tree_clone_read(const char *dir, const char *name)
{
	int tree = (int)syscall(SYS_open_tree, AT_FDCWD, dir,
				OPEN_TREE_CLONE | O_CLOEXEC);
	char buf[64];
	int fd, e = 0;

	if (tree < 0)
		return err();
	fd = openat(tree, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, buf, sizeof(buf)) < 0)
		e = err();
	if (fd >= 0)
		close(fd);
	close(tree);
	return e;
}

int op_overlay(int op, char **arg, char *info)
{
	int mnt;

	(void)info;
	if (own_namespace() < 0)
		return err();
	if (op == OP_TREE_CLONE_READ)
		return tree_clone_read(arg[0], arg[1]);
	mnt = detached_overlay(arg[0], arg[1]);
	if (mnt < 0)
		return err();
	if (fchmodat(mnt, arg[2], 0644, 0) < 0) {
		int e = err();

		close(mnt);
		return e;
	}
	close(mnt);
	return 0;
}
