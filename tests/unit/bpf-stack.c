// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bpf-stack: the combined stack of every program in a BPF object, read
 * from the object itself, and a failure when one is above a limit.
 *
 *   bpf-stack [--max BYTES] OBJECT
 *
 * prints one line per program, its deepest call chain first:
 *
 *   corral_file_open (lsm/file_open): 416 bytes, 2 frames: corral_file_open 288 > open_denied_note 128
 *
 * and exits 1 if any program's combined stack is above BYTES (default
 * 512, the verifier's limit), 2 if the object cannot be read.
 *
 * Why not ask the verifier: this host's kernel (and a build machine's)
 * may not load BPF-LSM programs at all, and a compiler that grows a
 * frame should fail the build tree's `make check` before anyone boots a
 * kernel.  The figures are the ones the verifier adds up in
 * check_max_stack_depth(): per frame the deepest stack byte the
 * function touches, rounded up to 32 bytes (the interpreter's
 * granularity, which every kernel corral supports still applies without
 * the JIT), summed along bpf-to-bpf calls, callbacks (bpf_loop,
 * bpf_for_each_map_elem) counting as calls.  The depth of a frame is
 * read from the instructions: a load or store through r10, or an
 * address r10 + off made for a helper.  That is what clang emits for
 * every stack object, and it is never less than what the verifier
 * counts (the verifier counts only the bytes a verified path touches),
 * so the figure can only be too high, never too low.
 *
 * The verifier's statistics (log level 4, "stack depth 280+48+88...")
 * list each subprogram's frame after bpf_loop() was inlined, which adds
 * 24 bytes to its caller's frame; the inlining runs after the limit is
 * checked, so those bytes are not counted here either.  In a 6.12 guest,
 * clang 14's corral_file_open was 280 there and 256 here, mark_store 88
 * there and 96 (88 rounded up) here.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <getopt.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define INSN_SIZE 8
#define MAX_FRAMES 8            /* the verifier's MAX_CALL_FRAMES */
#define FRAME_ROUND 32

struct func {
	const char *name;
	const char *section;
	size_t shndx, off, size;        /* bytes */
	int depth;                      /* deepest stack byte touched */
	int worst;                      /* combined, this frame and below; -1 unknown */
	int busy;                       /* on the current walk: a cycle */
	struct func *next;              /* the callee on the deepest chain */
	int is_prog;                    /* a program, not a subprogram */
};

struct obj {
	const char *path;
	Elf *elf;
	size_t shstrndx;
	Elf_Data *symtab;
	size_t symtab_link, nsyms;
	struct func *funcs;
	size_t nfuncs;
};

static int fail(const struct obj *o, const char *what)
{
	fprintf(stderr, "bpf-stack: %s: %s\n", o->path, what);
	return -1;
}

static const char *sec_name(const struct obj *o, size_t shndx)
{
	Elf_Scn *scn = elf_getscn(o->elf, shndx);
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh))
		return "?";
	return elf_strptr(o->elf, o->shstrndx, sh.sh_name);
}

static struct func *func_at(const struct obj *o, size_t shndx, size_t off)
{
	for (size_t i = 0; i < o->nfuncs; i++)
		if (o->funcs[i].shndx == shndx && o->funcs[i].off == off)
			return &o->funcs[i];
	return NULL;
}

/* Every STT_FUNC symbol in an executable section is a frame. */
static int read_funcs(struct obj *o)
{
	GElf_Sym sym;

	o->funcs = calloc(o->nsyms, sizeof(*o->funcs));
	if (!o->funcs)
		return fail(o, "out of memory");
	for (size_t i = 0; i < o->nsyms; i++) {
		if (!gelf_getsym(o->symtab, i, &sym))
			return fail(o, "cannot read a symbol");
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_size)
			continue;
		struct func *f = &o->funcs[o->nfuncs++];
		f->name = elf_strptr(o->elf, o->symtab_link, sym.st_name);
		f->shndx = sym.st_shndx;
		f->section = sec_name(o, sym.st_shndx);
		f->off = sym.st_value;
		f->size = sym.st_size;
		f->worst = -1;
		f->is_prog = strcmp(f->section, ".text") != 0 &&
			GELF_ST_BIND(sym.st_info) == STB_GLOBAL;
	}
	if (!o->nfuncs)
		return fail(o, "no functions: not a BPF object?");
	return 0;
}

/* The symbol a relocation at OFF of section SHNDX names, or NULL. */
static int reloc_at(const struct obj *o, size_t shndx, size_t off, GElf_Sym *sym)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(o->elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_REL ||
		    sh.sh_info != shndx)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		GElf_Rel rel;

		for (size_t i = 0; d && i < n; i++) {
			if (!gelf_getrel(d, i, &rel) || rel.r_offset != off)
				continue;
			return gelf_getsym(o->symtab, GELF_R_SYM(rel.r_info), sym) ? 1 : -1;
		}
	}
	return 0;
}

static void note_depth(struct func *f, long fp_off)
{
	if (fp_off < 0 && -fp_off > f->depth)
		f->depth = -fp_off;
}

static int frame_bytes(const struct func *f)
{
	int mine = f->depth ? f->depth : 1;

	return (mine + FRAME_ROUND - 1) / FRAME_ROUND * FRAME_ROUND;
}

/*
 * One pass over F's instructions: its stack depth, and its callees,
 * each walked (and memoised) for the deepest chain below F.
 */
static int walk(struct obj *o, struct func *f, int frame);

static int callee(struct obj *o, struct func *f, int frame, size_t at,
		  int32_t imm, int is_call, int *worst_below)
{
	GElf_Sym sym;
	size_t shndx = f->shndx, target;
	int r = reloc_at(o, f->shndx, at, &sym);

	if (r < 0)
		return fail(o, "cannot read a relocation");
	/* As libbpf resolves them (bpf_object__reloc_code). */
	if (r) {
		shndx = sym.st_shndx;
		target = is_call ? sym.st_value + ((long)imm + 1) * INSN_SIZE :
			sym.st_value + imm;
	} else {
		target = at + ((long)imm + 1) * INSN_SIZE;
	}
	struct func *c = func_at(o, shndx, target);
	if (!c) {
		fprintf(stderr, "bpf-stack: %s: %s calls offset %zu of %s, where no function starts\n",
			o->path, f->name, target, sec_name(o, shndx));
		return -1;
	}
	if (walk(o, c, frame + 1) < 0)
		return -1;
	if (c->worst > *worst_below) {
		*worst_below = c->worst;
		f->next = c;
	}
	return 0;
}

/* Which registers hold r10 plus a known offset, as the code runs. */
struct frame_regs {
	long fp[11];            /* register = r10 + fp[reg], if ok */
	int ok[11];
};

/* Follows loads, stores and arithmetic on r10 (not calls): the depth
 * each reaches is noted in @f. */
static void track_frame(struct func *f, struct frame_regs *r, uint8_t code,
			uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	switch (code & 7) {
	case 0x1:       /* LDX: dst = *(src + off) */
		if (src == 10)
			note_depth(f, off);
		else if (r->ok[src])
			note_depth(f, r->fp[src] + off);
		r->ok[dst] = 0;
		break;
	case 0x2:       /* ST, STX: *(dst + off) = ... */
	case 0x3:
		if (dst == 10)
			note_depth(f, off);
		else if (r->ok[dst])
			note_depth(f, r->fp[dst] + off);
		break;
	case 0x7:       /* ALU64 */
		if (code == 0xbf && src == 10) {        /* dst = r10 */
			r->fp[dst] = 0;
			r->ok[dst] = 1;
		} else if (code == 0xbf && r->ok[src] && off == 0) {
			r->fp[dst] = r->fp[src];
			r->ok[dst] = 1;
		} else if (code == 0x07 && r->ok[dst]) { /* dst += imm */
			r->fp[dst] += imm;
			note_depth(f, r->fp[dst]);
		} else if (code == 0x17 && r->ok[dst]) { /* dst -= imm */
			r->fp[dst] -= imm;
			note_depth(f, r->fp[dst]);
		} else {
			r->ok[dst] = 0;
		}
		break;
	case 0x4:       /* ALU */
		r->ok[dst] = 0;
		break;
	default:
		break;
	}
}

static int walk(struct obj *o, struct func *f, int frame)
{
	if (f->worst >= 0)
		return 0;
	if (f->busy || frame >= MAX_FRAMES) {
		fprintf(stderr, "bpf-stack: %s: %s: recursion or more than %d frames\n",
			o->path, f->name, MAX_FRAMES);
		return -1;
	}
	Elf_Data *d = elf_getdata(elf_getscn(o->elf, f->shndx), NULL);
	if (!d || f->off + f->size > d->d_size)
		return fail(o, "a function lies outside its section");
	const uint8_t *insn = (const uint8_t *)d->d_buf + f->off;
	size_t n = f->size / INSN_SIZE;
	struct frame_regs regs = { .ok = { 0 } };
	int worst_below = 0, r = 0;

	f->busy = 1;
	for (size_t i = 0; !r && i < n; i++) {
		const uint8_t *p = insn + i * INSN_SIZE;
		uint8_t code = p[0], dst = p[1] & 0xf, src = p[1] >> 4;
		int16_t off;
		int32_t imm;
		size_t at = f->off + i * INSN_SIZE;

		memcpy(&off, p + 2, sizeof(off));
		memcpy(&imm, p + 4, sizeof(imm));
		if (dst > 10 || src > 10) {
			r = fail(o, "an instruction names no register: not little-endian BPF?");
		} else if ((code & 7) == 0x0) { /* LD_IMM64; its 2nd half skipped */
			if (code == 0x18 && src == 4)   /* BPF_PSEUDO_FUNC */
				r = callee(o, f, frame, at, imm, 0, &worst_below);
			regs.ok[dst] = 0;
			i++;
		} else if (code == 0x85) {      /* a call clobbers r0-r5 */
			if (src == 1)           /* BPF_PSEUDO_CALL */
				r = callee(o, f, frame, at, imm, 1, &worst_below);
			for (int k = 0; k <= 5; k++)
				regs.ok[k] = 0;
		} else {
			track_frame(f, &regs, code, dst, src, off, imm);
		}
	}
	f->busy = 0;
	if (r < 0)
		return -1;
	f->worst = frame_bytes(f) + worst_below;
	return 0;
}

static int report(struct obj *o, long max)
{
	int over = 0;

	for (size_t i = 0; i < o->nfuncs; i++) {
		struct func *f = &o->funcs[i];
		int frames = 0;

		if (!f->is_prog)
			continue;
		if (walk(o, f, 0) < 0)
			return -1;
		for (const struct func *c = f; c; c = c->next)
			frames++;
		printf("%s (%s): %d bytes, %d frame%s:", f->name, f->section,
		       f->worst, frames, frames == 1 ? "" : "s");
		for (const struct func *c = f; c; c = c->next)
			printf("%s %s %d", c == f ? "" : " >", c->name, frame_bytes(c));
		printf("\n");
		if (f->worst > max) {
			fprintf(stderr, "bpf-stack: %s: program %s: combined stack %d bytes, above %ld\n",
				o->path, f->name, f->worst, max);
			over = 1;
		}
	}
	return over;
}

static int open_obj(struct obj *o, int fd)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return fail(o, "libelf is too old");
	o->elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!o->elf || elf_kind(o->elf) != ELF_K_ELF)
		return fail(o, "not an ELF file");
	GElf_Ehdr eh;
	if (!gelf_getehdr(o->elf, &eh) || eh.e_machine != EM_BPF)
		return fail(o, "not a BPF object (e_machine is not EM_BPF)");
	if (elf_getshdrstrndx(o->elf, &o->shstrndx) < 0)
		return fail(o, "no section name table");
	while ((scn = elf_nextscn(o->elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		o->symtab = elf_getdata(scn, NULL);
		o->symtab_link = sh.sh_link;
		o->nsyms = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
	}
	if (!o->symtab)
		return fail(o, "no symbol table");
	return read_funcs(o);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "max", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	struct obj o = { 0 };
	long max = 512;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			errno = 0;
			max = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || max < 0) {
				fprintf(stderr, "bpf-stack: --max %s: not a number of bytes\n", optarg);
				return 2;
			}
			break;
		default:
			fprintf(stderr, "usage: bpf-stack [--max BYTES] OBJECT\n");
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: bpf-stack [--max BYTES] OBJECT\n");
		return 2;
	}
	o.path = argv[optind];
	int fd = open(o.path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "bpf-stack: %s: %s\n", o.path, strerror(errno));
		return 2;
	}
	int r = open_obj(&o, fd);
	if (r == 0)
		r = report(&o, max);
	if (o.elf)
		elf_end(o.elf);
	free(o.funcs);
	close(fd);
	return r < 0 ? 2 : r;
}
