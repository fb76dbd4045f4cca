// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * explain_exec.c - what execve(2) opens besides the file it is given:
 * a script's "#!" interpreter (binfmt_script) and a dynamic ELF's loader
 * (PT_INTERP, binfmt_elf).  The kernel opens both as it opens the file
 * itself, so each needs read and exec under a sandbox; the libraries the
 * loader then opens need read only, and are not followed here.
 */
#include "config.h"

#include "explain.h"

#include <elf.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

/* binfmt_script reads the "#!" line from the first page (256 bytes
 * before 5.1); an interpreter path longer than that fails anyway. */
#define EXPLAIN_HEAD 256

static int script_interp(const char *head, size_t n, char *out, size_t size)
{
	size_t i = 2, len;

	while (i < n && (head[i] == ' ' || head[i] == '\t'))
		i++;
	len = strcspn(head + i, " \t\n");
	if (i + len > n || !len || len >= size)
		return 0;
	memcpy(out, head + i, len);
	out[len] = '\0';
	return EXPLAIN_EXEC_INTERP;
}

static bool elf_native(const unsigned char *ident)
{
	int data = __BYTE_ORDER == __LITTLE_ENDIAN ? ELFDATA2LSB : ELFDATA2MSB;

	return ident[EI_DATA] == data;
}

/* The PT_INTERP string of the program header table at @off. */
static int find_interp(int fd, off_t off, size_t entsize, size_t count,
		       bool is64, char *out, size_t size)
{
	for (size_t i = 0; i < count; i++) {
		Elf64_Phdr ph64;
		Elf32_Phdr ph32;
		uint64_t at, len;

		if (pread(fd, is64 ? (void *)&ph64 : (void *)&ph32,
			  is64 ? sizeof(ph64) : sizeof(ph32),
			  off + (off_t)(i * entsize)) < 0)
			return -errno;
		if ((is64 ? ph64.p_type : ph32.p_type) != PT_INTERP)
			continue;
		at = is64 ? ph64.p_offset : ph32.p_offset;
		len = is64 ? ph64.p_filesz : ph32.p_filesz;
		if (!len || len >= size)
			return 0;
		if (pread(fd, out, len, (off_t)at) != (ssize_t)len)
			return 0;
		out[len] = '\0';
		return out[0] ? EXPLAIN_EXEC_LOADER : 0;
	}
	return 0;
}

static int elf_interp(int fd, const unsigned char *head, size_t n, char *out,
		      size_t size)
{
	const Elf64_Ehdr *e64 = (const Elf64_Ehdr *)head;
	const Elf32_Ehdr *e32 = (const Elf32_Ehdr *)head;
	bool is64 = head[EI_CLASS] == ELFCLASS64;

	if (n < sizeof(Elf64_Ehdr) || !elf_native(head))
		return 0;
	if (is64)
		return find_interp(fd, (off_t)e64->e_phoff, e64->e_phentsize,
				   e64->e_phnum, true, out, size);
	if (head[EI_CLASS] != ELFCLASS32)
		return 0;
	return find_interp(fd, (off_t)e32->e_phoff, e32->e_phentsize,
			   e32->e_phnum, false, out, size);
}

int explain_exec_next(const char *path, char *out, size_t size)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	unsigned char head[EXPLAIN_HEAD];
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, head, sizeof(head));
	if (n < 0)
		return -errno;
	if (n >= 2 && head[0] == '#' && head[1] == '!')
		return script_interp((const char *)head, (size_t)n, out, size);
	if (n >= SELFMAG && !memcmp(head, ELFMAG, SELFMAG))
		return elf_interp(fd, head, (size_t)n, out, size);
	return 0;
}
