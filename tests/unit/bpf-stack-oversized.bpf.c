// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A program that fits the verifier's 512 bytes but not corral's margin of
 * 448: a 288-byte frame calling a 192-byte one, 480 bytes together.
 * tests/unit/bpf-stack.sh shows bpf-stack refusing it.  Never loaded.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__noinline int oversized_callee(__u64 src)
{
	volatile char buf[180];

	bpf_probe_read_kernel((void *)buf, sizeof(buf), (void *)src);
	return buf[0] + buf[sizeof(buf) - 1];
}

SEC("lsm/file_open")
int oversized_prog(void *ctx)
{
	volatile char buf[280];

	bpf_probe_read_kernel((void *)buf, sizeof(buf), ctx);
	return buf[0] + buf[sizeof(buf) - 1] + oversized_callee((__u64)ctx);
}

char LICENSE[] SEC("license") = "GPL";
