// SPDX-License-Identifier: GPL-2.0
/*
 * iotrial record's capture program. For every system call the loader
 * asked for (the sysinfo map), iot_sc_enter runs at its own tracepoint
 * syscalls/sys_enter_NAME and keeps its arguments per thread, and
 * iot_sc_exit at sys_exit_NAME sends one record with the return value
 * to a ring buffer, for the processes being recorded: the tracked map's
 * tgids and their descendants, or the tasks of one cgroup. The loader
 * attaches them to the recorded calls' tracepoints only, so the other
 * calls of the machine never run them. A call without a tracepoint of
 * its own on this kernel is marked raw in sysinfo, and iot_enter and
 * iot_exit, on raw_syscalls sys_enter and sys_exit (which fire for every
 * call of the machine), record it instead. sched_process_fork tracks
 * children.
 *
 * The tracepoints' fields are declared by hand below (their layout is
 * fixed: /sys/kernel/tracing/events/{syscalls,raw_syscalls}/.../format,
 * checked by the loader), so it builds without the running kernel's
 * BTF. sched_process_fork's layout changed across kernels: the loader
 * reads where child_pid is from its format file and sets fork_child_off.
 * At the exit of an open, the new file's f_mode (FMODE_CREATED: the
 * call made it), its inode's mode and size and the pages its page cache
 * holds (before the program reads any) are read from the
 * kernel's structures at the offsets the loader found in the kernel's
 * BTF (koff); with no BTF they are not read. The entry of a close
 * reads which struct file it closes, from the same table.
 *
 * For the block layer, block_rq_issue, block_rq_complete and
 * block_rq_insert send the requests of one device (blk_dev) as they
 * are; the loader pairs them and counts the requests in flight. Their
 * fields' offsets (blk_off) come from the format files too.
 *
 * A record that does not fit the ring buffer is counted in the lost map,
 * never silently dropped. Records wake the reader only once wake_bytes
 * are waiting (it also reads on a timer): a wake-up per record costs the
 * reader more than handling it.
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
const volatile __u32 koff[IOT_KO__NR];		       /* see iotrace.h */
const volatile __u64 wake_bytes = 1; /* wake the reader from this much */
/* io_uring: on when the loader found the tracepoints' layouts and the
 * request's fields (see iotrace.h); the opcodes recorded (1) */
const volatile __u32 uring_on;
const volatile __u32 uring_tp_off[IOT_URING__NR][IOT_UF__NR];
const volatile __u32 uring_off[IOT_UO__NR];
const volatile __u8 uring_ops[256];

/* Set by the loader at the capture's end: the programs do nothing more
 * while their tracepoints are let go (which takes the kernel a while). */
volatile __u32 stopped;

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

/* syscalls/sys_enter_NAME: nargs of the arguments, 8 bytes each */
struct sc_enter_ctx {
	__u64 common;
	int nr;
	int pad;
	unsigned long args[6];
};

/* syscalls/sys_exit_NAME */
struct sc_exit_ctx {
	__u64 common;
	int nr;
	int pad;
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

/* The call in progress per thread, kept from entry to exit: calls with
 * paths here, the others (most: read, write) in the smaller pending. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct iot_call_path);
} pending_path SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct iot_call);
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

/* The io_uring requests of recorded processes in flight, by their
 * struct io_kiocb: a completion is sent only for one of them (the
 * completion's task is not always the submitter's). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u64);
	__type(value, __u32);
} uring_reqs SEC(".maps");

/* io_uring requests of recorded processes left out as they are of
 * other operations (opcodes not in uring_ops), by opcode. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, __u64);
} uring_other SEC(".maps");

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

/* Send n bytes at data; the reader is woken once wake_bytes wait. */
static __always_inline void send(void *data, __u64 n)
{
	__u64 flags = BPF_RB_NO_WAKEUP;

	if (bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) + n >= wake_bytes)
		flags = BPF_RB_FORCE_WAKEUP;
	if (bpf_ringbuf_output(&events, data, n, flags))
		count_lost(0);
}

/* Is the current task one we record? */
static __always_inline int wanted(__u32 tgid)
{
	if (stopped)
		return 0;
	if (mode == IOT_MODE_CGROUP)
		return bpf_get_current_ancestor_cgroup_id(cgroup_level) ==
		       cgroup_id;
	return bpf_map_lookup_elem(&tracked, &tgid) != NULL;
}

/* Read a kernel pointer at base + off; 0 if it cannot be. */
static __always_inline __u64 kptr(__u64 base, __u32 off)
{
	__u64 v = 0;

	if (!base || bpf_probe_read_kernel(&v, sizeof(v), (char *)base + off))
		return 0;
	return v;
}

/* The struct file that descriptor fd of the current task is, 0 for
 * none or not known: current->files->fdt->fd[fd]. */
static __always_inline __u64 fd_file(long fd)
{
	__u64 files, fdt, arr;
	__u32 max = 0;

	if (!koff[IOT_KO_FILES] || fd < 0)
		return 0;
	files = kptr(bpf_get_current_task(), koff[IOT_KO_FILES]);
	fdt = kptr(files, koff[IOT_KO_FDT]);
	if (!fdt || bpf_probe_read_kernel(&max, sizeof(max),
					  (char *)fdt + koff[IOT_KO_MAX_FDS]))
		return 0;
	if ((__u64)fd >= max)
		return 0;
	arr = kptr(fdt, koff[IOT_KO_FD]);
	return kptr(arr, (__u32)fd * 8);
}

/* The new file of an open that returned fd: its f_mode, i_mode, i_size,
 * the pages of it cached. */
static __always_inline void open_file(struct iot_call *c, long fd)
{
	__u64 file, inode, mapping, pages = 0;
	__u32 fm = 0;
	__u16 im = 0;
	__s64 sz = 0;

	file = fd_file(fd);
	c->file = file;
	inode = kptr(file, koff[IOT_KO_F_INODE]);
	if (!inode ||
	    bpf_probe_read_kernel(&fm, sizeof(fm),
				  (char *)file + koff[IOT_KO_F_MODE]) ||
	    bpf_probe_read_kernel(&im, sizeof(im),
				  (char *)inode + koff[IOT_KO_I_MODE]) ||
	    bpf_probe_read_kernel(&sz, sizeof(sz),
				  (char *)inode + koff[IOT_KO_I_SIZE]))
		return;
	c->f_mode = fm;
	c->i_mode = im;
	c->i_size = sz;
	mapping = kptr(inode, koff[IOT_KO_I_MAPPING]);
	if (mapping &&
	    !bpf_probe_read_kernel(&pages, sizeof(pages),
				   (char *)mapping + koff[IOT_KO_NRPAGES]))
		c->nrpages = pages;
}

/* The scratch record of call nr of the current thread, with its paths
 * and its nargs first arguments copied from args[] (a copy the caller
 * made: the context takes constant offsets only); stored as pending. */
static __always_inline void enter(__u32 nr, const struct iot_sysinfo *si,
				  struct iot_call_path *p)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	int i, path = 0;

	p->c.kind = IOT_REC_CALL;
	p->c.nr = nr;
	p->c.tgid = (__u32)(id >> 32);
	p->c.tid = tid;
	p->c.enter_ns = bpf_ktime_get_ns();
	p->c.exit_ns = 0;
	p->c.ret = 0;
	p->c.f_mode = p->c.i_mode = 0;
	p->c.i_size = 0;
	p->c.nrpages = 0;
	p->c.file = si->close ? fd_file((long)p->c.args[0]) : 0;
	for (i = 0; i < 2; i++) {
		__u8 a = si->path_arg[i];

		p->path[i][0] = 0;
		if (a >= 6)
			continue;
		path = 1;
		bpf_probe_read_user_str(p->path[i], IOT_PATH_MAX,
					(const void *)p->c.args[a]);
	}
	if (path) {
		p->c.kind = IOT_REC_PATH;
		if (bpf_map_update_elem(&pending_path, &tid, p, BPF_ANY))
			count_lost(1);
	} else if (bpf_map_update_elem(&pending, &tid, &p->c, BPF_ANY)) {
		count_lost(1);
	}
}

/*
 * A name the entry could not read (its page not in memory yet: a
 * program's first use of a string constant, right after exec) is read
 * again at the exit, when the kernel has brought the page in to read
 * it itself. Without it the tracker sees an open with no name, and
 * the descriptor's later calls go to whatever file has the number by
 * the time /proc is asked.
 */
static __always_inline void reread_paths(struct iot_call_path *p,
					 const struct iot_sysinfo *si)
{
	int i;

	for (i = 0; i < 2; i++) {
		__u8 a = si->path_arg[i];

		if (a >= 6 || p->path[i][0] || !p->c.args[a])
			continue;
		bpf_probe_read_user_str(p->path[i], IOT_PATH_MAX,
					(const void *)p->c.args[a]);
	}
}

/* The exit of call nr with ret: its record sent, if it was entered. */
static __always_inline void leave(__u32 nr, const struct iot_sysinfo *si,
				  long ret)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	int path = si->path_arg[0] < 6 || si->path_arg[1] < 6;
	struct iot_call_path *p = NULL;
	struct iot_call *c;

	if (path) {
		p = bpf_map_lookup_elem(&pending_path, &tid);
		c = p ? &p->c : NULL;
	} else {
		c = bpf_map_lookup_elem(&pending, &tid);
	}
	if (!c)
		return;
	if (c->nr != nr) /* an entry whose exit we never saw */
		goto out;
	c->exit_ns = bpf_ktime_get_ns();
	c->ret = ret;
	/* a fork in a tracked process: its child is tracked too (the
	 * fork tracepoint does it sooner where its layout is known) */
	if (si->record == 2 && ret > 0 && mode == IOT_MODE_PIDS) {
		__u32 child = (__u32)ret;
		__u8 one = 1;

		bpf_map_update_elem(&tracked, &child, &one, BPF_ANY);
	}
	if (si->open && ret >= 0)
		open_file(c, ret);
	if (p)
		reread_paths(p, si);
	if (p)
		send(p, sizeof(*p));
	else
		send(c, sizeof(*c));
out:
	if (path)
		bpf_map_delete_elem(&pending_path, &tid);
	else
		bpf_map_delete_elem(&pending, &tid);
}

SEC("tracepoint")
int iot_sc_enter(struct sc_enter_ctx *ctx)
{
	__u32 nr = (__u32)ctx->nr, key = 0, n;
	struct iot_sysinfo *si;
	struct iot_call_path *p;
	int i;

	if (!wanted((__u32)(bpf_get_current_pid_tgid() >> 32)))
		return 0;
	si = bpf_map_lookup_elem(&sysinfo, &nr);
	if (!si || !si->record)
		return 0;
	p = bpf_map_lookup_elem(&scratch, &key);
	if (!p)
		return 0;
#pragma unroll
	for (i = 0; i < 6; i++)
		p->c.args[i] = 0;
	/* read, not loaded: the kernel refuses a program whose loads go
	 * past the context of the smallest tracepoint it is attached to */
	n = si->nargs;
	if (n > 6)
		n = 6;
	if (n)
		bpf_probe_read_kernel(p->c.args, n * 8, ctx->args);
	enter(nr, si, p);
	return 0;
}

SEC("tracepoint")
int iot_sc_exit(struct sc_exit_ctx *ctx)
{
	__u32 nr = (__u32)ctx->nr;
	struct iot_sysinfo *si = bpf_map_lookup_elem(&sysinfo, &nr);

	if (si && si->record && !stopped)
		leave(nr, si, ctx->ret);
	return 0;
}

SEC("tracepoint")
int iot_enter(struct sys_enter_ctx *ctx)
{
	__u32 tgid = (__u32)(bpf_get_current_pid_tgid() >> 32), key = 0, nr;
	struct iot_sysinfo *si;
	struct iot_call_path *p;
	int i;

	if (ctx->id < 0 || ctx->id >= IOT_MAX_SYSCALL)
		return 0;
	nr = (__u32)ctx->id;
	si = bpf_map_lookup_elem(&sysinfo, &nr);
	if (!si || !si->raw || !wanted(tgid))
		return 0;
	p = bpf_map_lookup_elem(&scratch, &key);
	if (!p)
		return 0;
#pragma unroll
	for (i = 0; i < 6; i++)
		p->c.args[i] = ctx->args[i];
	enter(nr, si, p);
	return 0;
}

SEC("tracepoint")
int iot_exit(struct sys_exit_ctx *ctx)
{
	struct iot_sysinfo *si;
	__u32 nr;

	if (ctx->id < 0 || ctx->id >= IOT_MAX_SYSCALL)
		return 0;
	nr = (__u32)ctx->id;
	si = bpf_map_lookup_elem(&sysinfo, &nr);
	if (si && si->raw && !stopped)
		leave(nr, si, ctx->ret);
	return 0;
}

SEC("tracepoint")
int iot_fork(void *ctx)
{
	__u32 parent = (__u32)(bpf_get_current_pid_tgid() >> 32);
	__u32 off = fork_child_off, child = 0;
	__u8 one = 1;

	if (mode != IOT_MODE_PIDS || !off || off > 64 || stopped)
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
		send(&c, sizeof(c));
	}
	return 0;
}

/* Read a field of n bytes (1, 4 or 8) at off of a tracepoint's context;
 * 0 if off is 0 (not there) or it cannot be read. */
static __always_inline __u64 tp_field(void *ctx, __u32 off, __u32 n)
{
	__u64 v = 0;

	if (!off || off > 256)
		return 0;
	if (n == 8)
		bpf_probe_read_kernel(&v, 8, (char *)ctx + off);
	else if (n == 1)
		bpf_probe_read_kernel(&v, 1, (char *)ctx + off);
	else
		bpf_probe_read_kernel(&v, 4, (char *)ctx + off);
	return v;
}

/* One block request event, if it is the device's. */
static __always_inline int on_blk(void *ctx, __u32 tp)
{
	__u32 dev, rwbs_off, rwbs_n;
	struct iot_blk b = {0};

	if (!blk_dev || tp >= IOT_BLK__NR || stopped)
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
	send(&b, sizeof(b));
	return 0;
}

SEC("tracepoint")
int iot_blk_issue(void *ctx)
{
	return on_blk(ctx, IOT_BLK_ISSUE);
}

SEC("tracepoint")
int iot_blk_complete(void *ctx)
{
	return on_blk(ctx, IOT_BLK_COMPLETE);
}

SEC("tracepoint")
int iot_blk_insert(void *ctx)
{
	return on_blk(ctx, IOT_BLK_INSERT);
}

/* Read n bytes (4 or 8) at base + off of the kernel into *v (left as
 * it is if they cannot be read). */
static __always_inline void kread(void *v, __u64 base, __u32 off, __u32 n)
{
	if (!base)
		return;
	if (n == 8)
		bpf_probe_read_kernel(v, 8, (char *)base + off);
	else
		bpf_probe_read_kernel(v, 4, (char *)base + off);
}

/* An io_uring request submitted (io_uring_submit_req): sent with what
 * its sqe asked, as the request has it after its preparation, if it is
 * a recorded process's and of an operation recorded; kept in
 * uring_reqs for its completion. A submission by a ring's kernel thread
 * (SQPOLL) is its process's: the thread is one of it. */
SEC("tracepoint")
int iot_uring_submit(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = (__u32)(id >> 32), key, fs;
	struct iot_uring u = {0};

	if (!uring_on || !wanted(tgid))
		return 0;
	u.opcode = (__u8)tp_field(
	    ctx, uring_tp_off[IOT_URING_SUBMIT][IOT_UF_OPCODE], 1);
	if (!uring_ops[u.opcode]) {
		__u64 *n;

		key = u.opcode;
		n = bpf_map_lookup_elem(&uring_other, &key);

		if (n)
			(*n)++;
		return 0;
	}
	u.kind = IOT_REC_URING;
	u.which = IOT_URING_SUBMIT;
	u.tgid = tgid;
	u.tid = (__u32)id;
	u.ts_ns = bpf_ktime_get_ns();
	u.ctx = tp_field(ctx, uring_tp_off[IOT_URING_SUBMIT][IOT_UF_CTX], 8);
	u.req = tp_field(ctx, uring_tp_off[IOT_URING_SUBMIT][IOT_UF_REQ], 8);
	fs = uring_tp_off[IOT_URING_SUBMIT][IOT_UF_FLAGS_SIZE];
	u.flags = tp_field(ctx, uring_tp_off[IOT_URING_SUBMIT][IOT_UF_FLAGS],
			   fs == 8 ? 8 : 4);
	u.sq_thread = (__u8)tp_field(
	    ctx, uring_tp_off[IOT_URING_SUBMIT][IOT_UF_SQ_THREAD], 1);
	if (!u.req)
		return 0;
	kread(&u.fd, u.req, uring_off[IOT_UO_FD], 4);
	kread(&u.pos, u.req, uring_off[IOT_UO_POS], 8);
	kread(&u.len, u.req, uring_off[IOT_UO_LEN], 4);
	kread(&u.sync_off, u.req, uring_off[IOT_UO_SYNC_OFF], 8);
	kread(&u.sync_len, u.req, uring_off[IOT_UO_SYNC_LEN], 8);
	kread(&u.sync_flags, u.req, uring_off[IOT_UO_SYNC_FLAGS], 4);
	if (bpf_map_update_elem(&uring_reqs, &u.req, &tgid, BPF_ANY)) {
		count_lost(1);
		return 0;
	}
	send(&u, sizeof(u));
	return 0;
}

#define IOT_CQE_F_MORE (1u << 1) /* IORING_CQE_F_MORE: more to come */

/* An io_uring request completed (io_uring_complete): sent if it is one
 * submit sent, with its result, where its offset ended, and the file it
 * was issued on (a registered file's descriptor is an index, so the
 * file says which it is). */
SEC("tracepoint")
int iot_uring_complete(void *ctx)
{
	struct iot_uring u = {0};
	__u64 id = bpf_get_current_pid_tgid(), file = 0, inode = 0, sb = 0;
	__u32 dev = 0;

	if (!uring_on || stopped)
		return 0;
	u.req = tp_field(ctx, uring_tp_off[IOT_URING_COMPLETE][IOT_UF_REQ], 8);
	if (!u.req || !bpf_map_lookup_elem(&uring_reqs, &u.req))
		return 0;
	u.kind = IOT_REC_URING;
	u.which = IOT_URING_COMPLETE;
	u.tgid = (__u32)(id >> 32);
	u.tid = (__u32)id;
	u.ts_ns = bpf_ktime_get_ns();
	u.ctx = tp_field(ctx, uring_tp_off[IOT_URING_COMPLETE][IOT_UF_CTX], 8);
	u.res = (__s32)tp_field(
	    ctx, uring_tp_off[IOT_URING_COMPLETE][IOT_UF_RES], 4);
	u.cflags = (__u32)tp_field(
	    ctx, uring_tp_off[IOT_URING_COMPLETE][IOT_UF_CFLAGS], 4);
	kread(&u.pos, u.req, uring_off[IOT_UO_POS], 8);
	kread(&file, u.req, uring_off[IOT_UO_FILE], 8);
	kread(&inode, file, uring_off[IOT_UO_F_INODE], 8);
	kread(&u.ino, inode, uring_off[IOT_UO_I_INO], 8);
	kread(&sb, inode, uring_off[IOT_UO_I_SB], 8);
	kread(&dev, sb, uring_off[IOT_UO_S_DEV], 4);
	u.dev = dev;
	if (!(u.cflags & IOT_CQE_F_MORE))
		bpf_map_delete_elem(&uring_reqs, &u.req);
	send(&u, sizeof(u));
	return 0;
}

/* A ring made by a recorded process (io_uring_create): its maker is
 * the thread its kernel thread's submissions are charged to. */
SEC("tracepoint")
int iot_uring_create(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct iot_uring u = {0};

	if (!uring_on || !wanted((__u32)(id >> 32)))
		return 0;
	u.kind = IOT_REC_URING;
	u.which = IOT_URING_CREATE;
	u.tgid = (__u32)(id >> 32);
	u.tid = (__u32)id;
	u.ts_ns = bpf_ktime_get_ns();
	u.ctx = tp_field(ctx, uring_tp_off[IOT_URING_CREATE][IOT_UF_CTX], 8);
	u.fd =
	    (__s32)tp_field(ctx, uring_tp_off[IOT_URING_CREATE][IOT_UF_FD], 4);
	send(&u, sizeof(u));
	return 0;
}
