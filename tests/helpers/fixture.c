/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fixture: the integration suites' tree chores, as one static binary.
 *
 *   fixture reset TEMPLATE DIR   rm -rf DIR, then cp -a TEMPLATE DIR
 *   fixture rm DIR               rm -rf DIR
 *   fixture bind SRC DST         mount --bind SRC DST
 *   fixture umount DIR           umount DIR (lazily if busy)
 *   fixture inocollide DIR       make DIR/d<n>/ and DIR/f<m> whose st_ino
 *                                are equal, print "DIR/d<n> DIR/f<m>";
 *                                exit 3 when none was found
 *
 * Why: in the TCG guest every dynamic rm/cp/mount costs ~100 ms and the
 * differential suite resets its tree a hundred times; this costs ~10 ms.
 * The copy keeps modes, symlinks, fifos, sockets and hard links inside the
 * tree (not owners or times).  Exit 0, or 1 with a message naming the path.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define MAX_LINKS 256

/* inodes with several links already copied: (dev, ino) -> new path */
static struct {
	dev_t dev;
	ino_t ino;
	char *path;
} links[MAX_LINKS];
static int n_links;

static int fail(const char *what, const char *path)
{
	fprintf(stderr, "fixture: %s %s: %s\n", what, path, strerror(errno));
	return -1;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if ((flag == FTW_DP ? rmdir(path) : unlink(path)) < 0)
		return fail("cannot remove", path);
	return 0;
}

static int rm_tree(const char *dir)
{
	if (access(dir, F_OK) < 0 && errno == ENOENT)
		return 0;
	return nftw(dir, rm_one, 32, FTW_DEPTH | FTW_PHYS) ? -1 : 0;
}

static int copy_data(const char *src, const char *dst, mode_t mode)
{
	char buf[65536];
	ssize_t n;
	int in, out, r = 0;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return fail("cannot open", src);
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode & 07777);
	if (out < 0) {
		close(in);
		return fail("cannot create", dst);
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			r = fail("cannot write", dst);
			break;
		}
	if (n < 0)
		r = fail("cannot read", src);
	if (fchmod(out, mode & 07777) < 0)
		r = fail("cannot chmod", dst);
	close(in);
	close(out);
	return r;
}

/* a hard link to an inode copied before, if any: 1 linked, 0 not, -1 error */
static int copy_link(const struct stat *st, const char *dst)
{
	int i;

	if (S_ISDIR(st->st_mode) || st->st_nlink < 2)
		return 0;
	for (i = 0; i < n_links; i++)
		if (links[i].dev == st->st_dev && links[i].ino == st->st_ino)
			return link(links[i].path, dst) < 0 ? fail("cannot link", dst) : 1;
	if (n_links < MAX_LINKS) {
		links[n_links].dev = st->st_dev;
		links[n_links].ino = st->st_ino;
		links[n_links].path = strdup(dst);
		n_links++;
	}
	return 0;
}

static int copy_tree(const char *src, const char *dst);

static int copy_entry(const char *src, const char *dst)
{
	char target[4096];
	struct stat st;
	ssize_t n;
	int r;

	if (lstat(src, &st) < 0)
		return fail("cannot stat", src);
	r = copy_link(&st, dst);
	if (r)
		return r < 0 ? -1 : 0;
	switch (st.st_mode & S_IFMT) {
	case S_IFDIR:
		if (mkdir(dst, 0700) < 0)
			return fail("cannot mkdir", dst);
		if (copy_tree(src, dst) < 0)
			return -1;
		return chmod(dst, st.st_mode & 07777) < 0 ? fail("cannot chmod", dst) : 0;
	case S_IFREG:
		return copy_data(src, dst, st.st_mode);
	case S_IFLNK:
		n = readlink(src, target, sizeof(target) - 1);
		if (n < 0)
			return fail("cannot readlink", src);
		target[n] = '\0';
		return symlink(target, dst) < 0 ? fail("cannot symlink", dst) : 0;
	default:
		return mknod(dst, st.st_mode, st.st_rdev) < 0 ? fail("cannot mknod", dst) : 0;
	}
}

static int copy_tree(const char *src, const char *dst)
{
	char s[4096], d[4096];
	struct dirent *e;
	DIR *dir;
	int r = 0;

	dir = opendir(src);
	if (!dir)
		return fail("cannot open directory", src);
	while (r == 0 && (e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if ((size_t)snprintf(s, sizeof(s), "%s/%s", src, e->d_name) >= sizeof(s) ||
		    (size_t)snprintf(d, sizeof(d), "%s/%s", dst, e->d_name) >= sizeof(d)) {
			errno = ENAMETOOLONG;
			r = fail("path too long under", src);
			break;
		}
		r = copy_entry(s, d);
	}
	closedir(dir);
	return r;
}

/*
 * On an overlayfs whose layers are different filesystems and without
 * xino, a directory's inode number comes from a global counter
 * (get_next_ino) and a file's from its layer's filesystem: the two meet.
 * Both sequences only grow, so make whichever is behind until they are
 * equal or give up.
 */
#define INOCOLLIDE_TRIES 200000

static int make_entry(const char *dir, char kind, int n, char *path,
		      size_t size, ino_t *ino)
{
	struct stat st;
	int fd;

	snprintf(path, size, "%s/%c%d", dir, kind, n);
	if (kind == 'd') {
		if (mkdir(path, 0755) < 0)
			return fail("cannot make directory", path);
	} else {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0)
			return fail("cannot create", path);
		close(fd);
	}
	if (stat(path, &st) < 0)
		return fail("cannot stat", path);
	*ino = st.st_ino;
	return 0;
}

static int inocollide(const char *dir)
{
	char dpath[PATH_MAX], fpath[PATH_MAX];
	ino_t dino = 0, fino = 0;
	int i;

	if (make_entry(dir, 'd', 0, dpath, sizeof(dpath), &dino) ||
	    make_entry(dir, 'f', 0, fpath, sizeof(fpath), &fino))
		return 1;
	for (i = 1; i < INOCOLLIDE_TRIES && dino != fino; i++) {
		if (fino < dino ?
		    make_entry(dir, 'f', i, fpath, sizeof(fpath), &fino) :
		    make_entry(dir, 'd', i, dpath, sizeof(dpath), &dino))
			return 1;
	}
	if (dino != fino) {
		fprintf(stderr, "fixture: no inode number collision in %s after %d entries\n",
			dir, i);
		return 3;
	}
	printf("%s %s\n", dpath, fpath);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (!strcmp(cmd, "reset") && argc == 4)
		return rm_tree(argv[3]) || copy_entry(argv[2], argv[3]) ? 1 : 0;
	if (!strcmp(cmd, "rm") && argc == 3)
		return rm_tree(argv[2]) ? 1 : 0;
	if (!strcmp(cmd, "bind") && argc == 4) {
		if (mount(argv[2], argv[3], NULL, MS_BIND, NULL) < 0)
			return fail("cannot bind-mount on", argv[3]) ? 1 : 0;
		return 0;
	}
	if (!strcmp(cmd, "umount") && argc == 3) {
		if (umount2(argv[2], 0) < 0 && umount2(argv[2], MNT_DETACH) < 0)
			return fail("cannot unmount", argv[2]) ? 1 : 0;
		return 0;
	}
	if (!strcmp(cmd, "inocollide") && argc == 3)
		return inocollide(argv[2]);
	fprintf(stderr, "usage: fixture reset TEMPLATE DIR | rm DIR | bind SRC DST | umount DIR | inocollide DIR\n");
	return 2;
}
