/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * attack's ioctl32 op, and the 32-bit system call entry (int $0x80) that
 * trunc-32 takes too.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>

#include "attack.h"
#include "oplist.h"

/*
 * ioctl32 PATH: PATH opened for reading, then TCGETS on it through the
 * 32-bit system call entry (int $0x80 works from a 64-bit process), which
 * the kernel routes to the compat ioctl path.  Not a terminal: a driver
 * reached says ENOTTY.
 */
int op_ioctl32(int op, char **arg, char *info)
{
	long ret;
	int fd = open(arg[0], O_RDONLY);

	(void)op;
	(void)info;
	if (fd < 0)
		return err();
	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(54L), "b"((long)fd), "c"(0x5401L), "d"(0L)
			 : "memory");
	close(fd);
	return ret < 0 ? (int)-ret : 0;
}

/* int $0x80 with up to three arguments: a 32-bit system call */
long syscall32(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(a), "c"(b), "d"(c)
			 : "memory");
	return ret;
}
