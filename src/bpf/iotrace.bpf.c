// SPDX-License-Identifier: GPL-2.0
/*
 * iotrial record's capture program. Attached to the raw_syscalls
 * sys_enter and sys_exit tracepoints and to sched_process_fork, it keeps
 * the arguments of the calls the loader asked for (the sysinfo map) at
 * entry, per thread, and at exit sends one record with the return value
 * to a ring buffer, for the processes being recorded: the tracked map's
 * tgids and their descendants, or the tasks of one cgroup.
 *
 * It reads no kernel structure, only the tracepoints' own fields, whose
 * layout is fixed (declared by hand below, from
 * /sys/kernel/tracing/events/raw_syscalls/.../format), so it builds
 * without the running kernel's BTF. sched_process_fork's layout changed
 * across kernels: the loader reads where child_pid is from its format
 * file and sets fork_child_off before loading.
 *
 * For the block layer, block_rq_issue, block_rq_complete and
 * block_rq_insert send the requests of one device (blk_dev) as they
 * are; the loader pairs them and counts the requests in flight. Their
 * fields' offsets (blk_off) come from the format files too.
 *
 * A record that does not fit the ring buffer is counted in the lost map,
 * never silently dropped.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "iotrace.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader before load (the skeleton's rodata). */
const volatile __u32 mode = IOT_MODE_PIDS;
const volatile __u64 cgroup_id;		 /* IOT_MODE_CGROUP: the cgroup's id */
const volatile __u32 cgroup_level;	 /* and its level (root is 0) */
const volatile __u32 fork_child_off = 0; /* 0: no sched_process_fork */
const volatile __u32 blk_dev; /* the device (kernel dev_t), 0: none */
const volatile __u32 blk_off[IOT_BLK__NR][IOT_BF__NR]; /* see iotrace.h */

/* raw_syscalls/sys_enter */
struct sys_enter_ctx {
	__u64 common; /* type, flags, preempt count, pid */
	long id;
	unsigned long args[6];
};

/* raw_syscalls/sys_exit */
struct sys_exit_ctx {
	__u64 common;
	long id;
	long ret;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, IOT_MAX_SYSCALL);
	__type(key, __u32);
	__type(value, struct iot_sysinfo);
} sysinfo SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, __u8);
} tracked SEC(".maps");

/* The call in progress per thread, kept from entry to exit. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct iot_call_path);
} pending SEC(".maps");

/* A record being built (too big for the BPF stack). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct iot_call_path);
} scratch SEC(".maps");

/* Records that did not fit: [0] ring buffer full, [1] pending map full. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 8 << 20); /* the loader may resize it */
} events SEC(".maps");

static __always_inline void count_lost(__u32 which)
{
	__u64 *n = bpf_map_lookup_elem(&lost, &which);

	if (n)
		(*n)++;
}

/* Is the current task one we record? */
static __always_inline int wanted(__u32 tgid)
{
	if (mode == IOT_MODE_CGROUP)
		return bpf_get_current_ancestor_cgroup_id(cgroup_level) ==
		       cgroup_id;
	return bpf_map_lookup_elem(&tracked, &tgid) != NULL;
}

SEC("tracepoint/raw_syscalls/sys_enter")
int iot_enter(struct sys_enter_ctx *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, key = 0, nr;
	struct iot_sysinfo *si;
	struct iot_call_path *p;
	int i;

	if (ctx->id < 0 || ctx->id >= IOT_MAX_SYSCALL)
		return 0;
	nr = (__u32)ctx->id;
	si = bpf_map_lookup_elem(&sysinfo, &nr);
	if (!si || !si->record || !wanted((__u32)(id >> 32)))
		return 0;
	p = bpf_map_lookup_elem(&scratch, &key);
	if (!p)
		return 0;
	p->c.kind = IOT_REC_CALL;
	p->c.nr = nr;
	p->c.tgid = (__u32)(id >> 32);
	p->c.tid = tid;
	p->c.enter_ns = bpf_ktime_get_ns();
	p->c.exit_ns = 0;
	p->c.ret = 0;
	for (i = 0; i < 6; i++)
		p->c.args[i] = ctx->args[i];
	p->path[0][0] = 0;
	p->path[1][0] = 0;
	for (i = 0; i < 2; i++) {
		__u8 a = si->path_arg[i];

		if (a >= 6)
			continue;
		p->c.kind = IOT_REC_PATH;
		/* from the copy: the context takes constant offsets only */
		bpf_probe_read_user_str(p->path[i], IOT_PATH_MAX,
					(const void *)p->c.args[a]);
	}
	if (bpf_map_update_elem(&pending, &tid, p, BPF_ANY))
		count_lost(1);
	return 0;
}

SEC("tracepoint/raw_syscalls/sys_exit")
int iot_exit(struct sys_exit_ctx *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, nr;
	struct iot_sysinfo *si;
	struct iot_call_path *p;

	if (ctx->id < 0 || ctx->id >= IOT_MAX_SYSCALL)
		return 0;
	nr = (__u32)ctx->id;
	si = bpf_map_lookup_elem(&sysinfo, &nr);
	if (!si || !si->record)
		return 0;
	p = bpf_map_lookup_elem(&pending, &tid);
	if (!p)
		return 0;
	if (p->c.nr != nr) { /* an entry whose exit we never saw */
		bpf_map_delete_elem(&pending, &tid);
		return 0;
	}
	p->c.exit_ns = bpf_ktime_get_ns();
	p->c.ret = ctx->ret;
	/* a fork in a tracked process: its child is tracked too (the
	 * fork tracepoint does it sooner where its layout is known) */
	if (si->record == 2 && ctx->ret > 0 && mode == IOT_MODE_PIDS) {
		__u32 child = (__u32)ctx->ret;
		__u8 one = 1;

		bpf_map_update_elem(&tracked, &child, &one, BPF_ANY);
	}
	if (p->c.kind == IOT_REC_PATH) {
		if (bpf_ringbuf_output(&events, p, sizeof(*p), 0))
			count_lost(0);
	} else {
		if (bpf_ringbuf_output(&events, &p->c, sizeof(p->c), 0))
			count_lost(0);
	}
	bpf_map_delete_elem(&pending, &tid);
	return 0;
}

SEC("tracepoint/sched/sched_process_fork")
int iot_fork(void *ctx)
{
	__u32 parent = (__u32)(bpf_get_current_pid_tgid() >> 32);
	__u32 off = fork_child_off, child = 0;
	__u8 one = 1;

	if (mode != IOT_MODE_PIDS || !off || off > 64)
		return 0;
	if (!bpf_map_lookup_elem(&tracked, &parent))
		return 0;
	if (bpf_probe_read_kernel(&child, sizeof(child), (char *)ctx + off))
		return 0;
	if (!child)
		return 0;
	bpf_map_update_elem(&tracked, &child, &one, BPF_ANY);
	/* said before anything the child does (a vfork's child runs before
	 * its parent's call returns): it starts with the parent's
	 * descriptors and working directory */
	{
		struct iot_call c = {0};

		c.kind = IOT_REC_CALL;
		c.nr = IOT_NR_FORK;
		c.tgid = parent;
		c.tid = (__u32)bpf_get_current_pid_tgid();
		c.enter_ns = c.exit_ns = bpf_ktime_get_ns();
		c.ret = child;
		if (bpf_ringbuf_output(&events, &c, sizeof(c), 0))
			count_lost(0);
	}
	return 0;
}

/* Read a field of n bytes at off of a tracepoint's context; 0 if off is 0
 * (not there) or it cannot be read. */
static __always_inline __u64 tp_field(void *ctx, __u32 off, __u32 n)
{
	__u64 v = 0;

	if (!off || off > 256)
		return 0;
	if (n == 8)
		bpf_probe_read_kernel(&v, 8, (char *)ctx + off);
	else
		bpf_probe_read_kernel(&v, 4, (char *)ctx + off);
	return v;
}

/* One block request event, if it is the device's. */
static __always_inline int on_blk(void *ctx, __u32 tp)
{
	__u32 dev, rwbs_off, rwbs_n;
	struct iot_blk b = {0};

	if (!blk_dev || tp >= IOT_BLK__NR)
		return 0;
	dev = (__u32)tp_field(ctx, blk_off[tp][IOT_BF_DEV], 4);
	if (dev != blk_dev)
		return 0;
	b.kind = IOT_REC_BLK;
	b.which = tp;
	b.dev = dev;
	b.pid = (__u32)bpf_get_current_pid_tgid();
	b.ts_ns = bpf_ktime_get_ns();
	b.sector = tp_field(ctx, blk_off[tp][IOT_BF_SECTOR], 8);
	b.nr_sector = (__u32)tp_field(ctx, blk_off[tp][IOT_BF_NR_SECTOR], 4);
	b.bytes = (__u32)tp_field(ctx, blk_off[tp][IOT_BF_BYTES], 4);
	b.error = (__s32)tp_field(ctx, blk_off[tp][IOT_BF_ERROR], 4);
	rwbs_off = blk_off[tp][IOT_BF_RWBS];
	rwbs_n = blk_off[tp][IOT_BF_RWBS_SIZE];
	if (rwbs_n > IOT_RWBS_MAX - 1)
		rwbs_n = IOT_RWBS_MAX - 1;
	if (rwbs_off && rwbs_off <= 256 && rwbs_n)
		bpf_probe_read_kernel(b.rwbs, rwbs_n, (char *)ctx + rwbs_off);
	if (bpf_ringbuf_output(&events, &b, sizeof(b), 0))
		count_lost(0);
	return 0;
}

SEC("tracepoint/block/block_rq_issue")
int iot_blk_issue(void *ctx)
{
	return on_blk(ctx, IOT_BLK_ISSUE);
}

SEC("tracepoint/block/block_rq_complete")
int iot_blk_complete(void *ctx)
{
	return on_blk(ctx, IOT_BLK_COMPLETE);
}

SEC("tracepoint/block/block_rq_insert")
int iot_blk_insert(void *ctx)
{
	return on_blk(ctx, IOT_BLK_INSERT);
}
