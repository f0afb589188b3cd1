/*
 * Capture control through libbpf. See capture.h.
 *
 * The program is a skeleton generated at build time (bpftool gen
 * skeleton) from src/bpf/iotrace.bpf.c; it reads tracepoint fields, so
 * loading it needs no BTF of the running kernel. The one layout that
 * varies across kernels, where sched_process_fork keeps child_pid, is
 * read from the tracepoint's format file before loading; without it,
 * children are still tracked from the fork's return value in the parent.
 * Where the kernel has BTF, the offsets of the fields an open's exit
 * reads come from it (capture_tp.c); without it they are not read, and
 * the tracker judges a file's birth from user space.
 *
 * The programs are attached here, by tracepoint id (capture_tp.c), not by
 * the skeleton: the per-syscall ones once per recorded call, and the
 * tracing file system is found where it is mounted or mounted for the
 * capture alone, attached nowhere.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "blk.h"
#include "capture.h"
#include "capture-int.h"
#include "track.h"
#include "track-int.h"
#include "track_uring.h"
#include "trace.h"
#include "iotrace.skel.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/strbuf.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

struct capture {
	struct iotrace *skel;
	struct ring_buffer *rb;
	struct tracker tk;
	struct uring_tracker ut; /* io_uring requests (track_uring.c) */
	struct blk_tracker blk;
	unsigned layers;     /* enum capture_layer */
	uint64_t blk_missed; /* completions and inserts the kernel skipped */
	int stats_fd;	     /* BPF run-time statistics on while held */
	uint64_t start_ns;   /* CLOCK_MONOTONIC at start */
	uint64_t user0_ns;   /* this process's CPU time at start */
	int started;
	int failed;	    /* the writer failed: stop handling */
	struct strbuf werr; /* and why */
	int tp_dir;	    /* the tracing file system's events */
	struct iot_sysinfo rows[IOT_MAX_SYSCALL]; /* the sysinfo map */
	const char *tp[IOT_MAX_SYSCALL];	  /* each call's tracepoint */
	struct bpf_link **links;		  /* what capture_start made */
	size_t nr_links, alloc_links;
	unsigned nr_sc, nr_raw;	 /* calls by their own tracepoints, by raw */
	uint64_t uring_other;	 /* io_uring requests of other operations */
	struct strbuf uring_ops; /* and which: "nop 1, statx 2" */
	struct strbuf notes;	 /* what the caller may say of the capture */
};

/* libbpf's messages: kept quiet, the caller words the error. */
static int quiet_print(enum libbpf_print_level level, const char *fmt,
		       va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/*
 * Which calls go through their own tracepoints (those whose enter and
 * exit formats are as the program declares them) and which through
 * raw_syscalls, into c->rows; a note names the latter.
 */
static void pick_calls(struct capture *c)
{
	struct strbuf text = STRBUF_INIT, raw = STRBUF_INIT;
	char name[128];
	uint32_t i, uring_raw = 0;

	tracker_sysinfo(c->rows, c->tp);
	for (i = 0; i < IOT_MAX_SYSCALL; i++) {
		int nargs = -ENOENT;

		if (!c->rows[i].record)
			continue;
		snprintf(name, sizeof(name), "sys_enter_%s", c->tp[i]);
		if (!tp_read(c->tp_dir, "syscalls", name, "format", &text))
			nargs = tp_syscall_nargs(text.buf, 0);
		snprintf(name, sizeof(name), "sys_exit_%s", c->tp[i]);
		if (nargs >= 0 &&
		    (tp_read(c->tp_dir, "syscalls", name, "format", &text) ||
		     tp_syscall_nargs(text.buf, 1)))
			nargs = -ENOENT;
		if (nargs >= 0) {
			c->rows[i].raw = 0;
			c->rows[i].nargs = (uint8_t)nargs;
			c->nr_sc++;
			continue;
		}
		/* io_uring_setup is counted only: not worth raw_syscalls
		 * on its own (without its tracepoint, most likely the
		 * kernel has no io_uring) */
		if (sc_kind_of(i) == SC_URING) {
			uring_raw = i;
			continue;
		}
		c->nr_raw++;
		strbuf_addf(&raw, "%s%s", raw.len ? ", " : "", c->tp[i]);
	}
	if (uring_raw && !c->nr_raw)
		c->rows[uring_raw].record = 0;
	else if (uring_raw)
		c->nr_raw++;
	if (c->nr_raw)
		strbuf_addf(&c->notes,
			    "this kernel has no usable tracepoint "
			    "syscalls:sys_enter_NAME for %s: recorded through "
			    "raw_syscalls instead, whose program runs for "
			    "every system call of the machine\n",
			    raw.buf);
	strbuf_release(&text);
	strbuf_release(&raw);
}

/* The CPU time (user + system) of this process so far. */
static uint64_t self_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
		   1000000000ull +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}

/* Load only the programs of the layers asked; the block programs get
 * the device and their tracepoints' layouts. */
static int pick_layers(struct capture *c, const struct capture_opts *o,
		       struct strbuf *err)
{
	struct bpf_program *blk[IOT_BLK__NR] = {c->skel->progs.iot_blk_issue,
						c->skel->progs.iot_blk_complete,
						c->skel->progs.iot_blk_insert};
	uint32_t off[IOT_BF__NR];
	unsigned tp, f;

	if (!(c->layers & CAPTURE_FILE))
		bpf_program__set_autoload(c->skel->progs.iot_fork, false);
	static const char *const names[IOT_BLK__NR] = {
	    "block_rq_issue", "block_rq_complete", "block_rq_insert"};
	struct strbuf text = STRBUF_INIT;

	if (!(c->layers & CAPTURE_FILE)) {
		bpf_program__set_autoload(c->skel->progs.iot_sc_enter, false);
		bpf_program__set_autoload(c->skel->progs.iot_sc_exit, false);
	}
	if (!(c->layers & CAPTURE_FILE) || !c->nr_raw) {
		bpf_program__set_autoload(c->skel->progs.iot_enter, false);
		bpf_program__set_autoload(c->skel->progs.iot_exit, false);
	}
	for (tp = 0; tp < IOT_BLK__NR; tp++) {
		int r = -ENOENT;

		if ((c->layers & CAPTURE_BLOCK) &&
		    !tp_read(c->tp_dir, "block", names[tp], "format", &text))
			r = blk_parse_format(text.buf, off);
		if (r) {
			bpf_program__set_autoload(blk[tp], false);
			/* insert is optional: not every kernel has it */
			if ((c->layers & CAPTURE_BLOCK) &&
			    tp != IOT_BLK_INSERT) {
				strbuf_release(&text);
				return err_set(err, r,
					       "cannot read the layout of the "
					       "block tracepoints: %s",
					       strerror(-r));
			}
			continue;
		}
		for (f = 0; f < IOT_BF__NR; f++)
			c->skel->rodata->blk_off[tp][f] = off[f];
	}
	strbuf_release(&text);
	if (c->layers & CAPTURE_BLOCK) {
		if (!o->blk_kdev)
			return err_set(err, -EINVAL,
				       "the block layer needs a device");
		c->skel->rodata->blk_dev = o->blk_kdev;
	}
	return 0;
}

/*
 * The io_uring programs, where the kernel has their tracepoints as
 * expected and its BTF says where a request keeps its descriptor,
 * offset, length and file; else left unloaded, with a note (a file
 * layer capture only).
 */
static void pick_uring(struct capture *c)
{
	static const char *const names[IOT_URING__NR] = {
	    "io_uring_submit_req", "io_uring_complete", "io_uring_create"};
	struct bpf_program *prog[IOT_URING__NR] = {
	    c->skel->progs.iot_uring_submit, c->skel->progs.iot_uring_complete,
	    c->skel->progs.iot_uring_create};
	struct strbuf text = STRBUF_INIT;
	uint32_t off[IOT_UF__NR], uoff[IOT_UO__NR];
	uint8_t ops[256];
	const char *why = NULL;
	unsigned tp, f;

	for (tp = 0; tp < IOT_URING__NR && (c->layers & CAPTURE_FILE); tp++) {
		if (tp_read(c->tp_dir, "io_uring", names[tp], "format",
			    &text) ||
		    tp_uring_format(text.buf, tp, off)) {
			/* without create, a kernel thread's submissions are
			 * charged to the process's first thread */
			if (tp == IOT_URING_CREATE) {
				bpf_program__set_autoload(prog[tp], false);
				continue;
			}
			why = "this kernel has no io_uring tracepoints "
			      "io_uring_submit_req and io_uring_complete as "
			      "expected";
			break;
		}
		for (f = 0; f < IOT_UF__NR; f++)
			c->skel->rodata->uring_tp_off[tp][f] = off[f];
	}
	strbuf_release(&text);
	if (!why && (c->layers & CAPTURE_FILE) && tp_uring_offsets(uoff))
		why = "the kernel's BTF (/sys/kernel/btf/vmlinux) is not there "
		      "or does not say where a request keeps its file, offset "
		      "and length";
	if (why || !(c->layers & CAPTURE_FILE)) {
		for (tp = 0; tp < IOT_URING__NR; tp++)
			bpf_program__set_autoload(prog[tp], false);
		if (why)
			strbuf_addf(&c->notes,
				    "%s: io_uring requests are not recorded\n",
				    why);
		return;
	}
	for (f = 0; f < IOT_UO__NR; f++)
		c->skel->rodata->uring_off[f] = uoff[f];
	uring_ops_table(ops);
	for (f = 0; f < 256; f++)
		c->skel->rodata->uring_ops[f] = ops[f];
	c->skel->rodata->uring_on = 1;
}

int capture_open(struct capture **out, const struct capture_opts *o,
		 struct strbuf *err)
{
	struct capture *c;
	uint64_t ring = o->ring_bytes ? o->ring_bytes : 8u << 20;
	uint32_t i;
	int ret, own = 0;

	*out = NULL;
	if (ring < 4096 || (ring & (ring - 1)))
		return err_set(err, -EINVAL,
			       "the ring buffer must be a power of 2 of at "
			       "least 4 KiB");
	libbpf_set_print(quiet_print);
	c = xcalloc(1, sizeof(*c));
	c->stats_fd = -1;
	c->tp_dir = -1;
	strbuf_init(&c->werr, 0);
	strbuf_init(&c->notes, 0);
	strbuf_init(&c->uring_ops, 0);
	tracker_init(&c->tk, NULL, 0);
	uring_tracker_init(&c->ut, &c->tk);
	c->skel = iotrace__open();
	if (!c->skel) {
		ret = err_set(err, -errno ? -errno : -ENOSYS,
			      "cannot open the capture program: %s",
			      strerror(errno));
		goto fail;
	}
	c->tp_dir = tp_events_open(&own);
	if (c->tp_dir < 0) {
		ret = err_set(err, c->tp_dir,
			      "cannot find the kernel's tracing file system "
			      "(tracefs) to attach to: %s",
			      strerror(-c->tp_dir));
		goto fail;
	}
	if (own)
		strbuf_addstr(&c->notes,
			      "tracefs is mounted nowhere: the capture uses a "
			      "mount of its own, attached to no directory\n");
	if (o->cgroup) {
		struct stat st;
		unsigned level = 0;

		if (stat(o->cgroup, &st) || !S_ISDIR(st.st_mode)) {
			ret = err_set(err, -ENOENT,
				      "'%s' is not a cgroup directory",
				      o->cgroup);
			goto fail;
		}
		if (tp_cgroup_level(o->cgroup, &level)) {
			ret = err_set(err, -EINVAL,
				      "'%s' is not a directory of a cgroup v2 "
				      "hierarchy",
				      o->cgroup);
			goto fail;
		}
		c->skel->rodata->mode = IOT_MODE_CGROUP;
		c->skel->rodata->cgroup_id = st.st_ino;
		c->skel->rodata->cgroup_level = level;
	} else {
		c->skel->rodata->mode = IOT_MODE_PIDS;
		c->skel->rodata->fork_child_off =
		    tp_fork_child_offset(c->tp_dir);
	}
	c->layers = o->layers ? o->layers : CAPTURE_FILE;
	if (c->layers & CAPTURE_FILE) {
		uint32_t koff[IOT_KO__NR];

		pick_calls(c);
		if (tp_kernel_offsets(koff))
			strbuf_addstr(
			    &c->notes,
			    "the kernel's BTF (/sys/kernel/btf/vmlinux) "
			    "is not there or not as expected: whether "
			    "a file is made by the trace is judged "
			    "from its birth time afterwards\n");
		for (i = 0; i < IOT_KO__NR; i++)
			c->skel->rodata->koff[i] = koff[i];
	}
	/* wake the reader for a quarter of the ring; it also reads every
	 * 100 ms (record's poll) */
	c->skel->rodata->wake_bytes = ring / 4;
	ret = pick_layers(c, o, err);
	if (ret)
		goto fail;
	pick_uring(c);
	bpf_map__set_max_entries(c->skel->maps.events, (uint32_t)ring);
	ret = iotrace__load(c->skel);
	if (ret) {
		ret = err_set(err, ret < 0 ? ret : -EPERM,
			      "cannot load the capture program into the "
			      "kernel: %s",
			      strerror(ret < 0 ? -ret : EPERM));
		goto fail;
	}
	for (i = 0; i < IOT_MAX_SYSCALL; i++) {
		if (!c->rows[i].record)
			continue;
		ret = bpf_map_update_elem(bpf_map__fd(c->skel->maps.sysinfo),
					  &i, &c->rows[i], BPF_ANY);
		if (ret) {
			ret = err_set(err, -errno,
				      "cannot fill the capture's syscall "
				      "table: %s",
				      strerror(errno));
			goto fail;
		}
	}
	*out = c;
	return 0;
fail:
	capture_free(c);
	return ret;
}

/* Tell the tracker pid's working directory while pid is there. */
static void cwd_of(struct capture *c, pid_t pid)
{
	char path[64], buf[4096];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/cwd", (int)pid);
	n = readlink(path, buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = 0;
		tracker_set_cwd(&c->tk, (uint32_t)pid, buf);
	}
}

/* Add pid's children (from /proc/PID/task/TID/children), recursively. */
static void add_children(struct capture *c, pid_t pid, unsigned depth)
{
	char path[128];
	struct dirent *d;
	DIR *dir;

	if (depth > 64)
		return;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		char cpath[300];
		FILE *f;
		int child;

		if (d->d_name[0] == '.')
			continue;
		snprintf(cpath, sizeof(cpath), "/proc/%d/task/%s/children",
			 (int)pid, d->d_name);
		f = fopen(cpath, "re");
		if (!f)
			continue;
		while (fscanf(f, "%d", &child) == 1) {
			uint32_t k = (uint32_t)child;
			uint8_t one = 1;

			bpf_map_update_elem(bpf_map__fd(c->skel->maps.tracked),
					    &k, &one, BPF_ANY);
			cwd_of(c, child);
			add_children(c, child, depth + 1);
		}
		fclose(f);
	}
	closedir(dir);
}

int capture_add_pid(struct capture *c, pid_t pid, struct strbuf *err)
{
	uint32_t k = (uint32_t)pid;
	uint8_t one = 1;

	if (c->skel->rodata->mode != IOT_MODE_PIDS)
		return err_set(err, -EINVAL, "a cgroup capture takes no pid");
	if (kill(pid, 0) && errno == ESRCH)
		return err_set(err, -ESRCH, "no process %d", (int)pid);
	if (bpf_map_update_elem(bpf_map__fd(c->skel->maps.tracked), &k, &one,
				BPF_ANY))
		return err_set(err, -errno, "cannot track process %d: %s",
			       (int)pid, strerror(errno));
	cwd_of(c, pid);
	add_children(c, pid, 0);
	return 0;
}

/* One ring buffer record. */
static int on_record(void *ctx, void *data, size_t size)
{
	struct capture *c = ctx;
	const struct iot_call *call = data;
	const char *p0 = NULL, *p1 = NULL;
	char a[IOT_PATH_MAX], b[IOT_PATH_MAX];

	if (c->failed || size < sizeof(uint32_t))
		return 0;
	if (*(const uint32_t *)data == IOT_REC_URING) {
		if (size >= sizeof(struct iot_uring) &&
		    uring_tracker_event(&c->ut, data, &c->werr))
			c->failed = 1;
		return 0;
	}
	if (*(const uint32_t *)data == IOT_REC_BLK) {
		if (size >= sizeof(struct iot_blk) &&
		    blk_tracker_event(&c->blk, data, &c->werr))
			c->failed = 1;
		return 0;
	}
	if (size < sizeof(*call))
		return 0;
	if (call->kind == IOT_REC_PATH &&
	    size >= sizeof(struct iot_call_path)) {
		const struct iot_call_path *cp = data;

		memcpy(a, cp->path[0], sizeof(a));
		memcpy(b, cp->path[1], sizeof(b));
		a[sizeof(a) - 1] = b[sizeof(b) - 1] = 0;
		p0 = a;
		p1 = b;
	}
	if (tracker_call(&c->tk, call, p0, p1, &c->werr))
		c->failed = 1;
	return 0;
}

/* prog attached to CAT:NAME, its link kept; 0 or -errno. */
static int attach(struct capture *c, struct bpf_program *prog, const char *cat,
		  const char *name)
{
	struct bpf_link *l = tp_attach(c->tp_dir, prog, cat, name);

	if (!l)
		return errno ? -errno : -EINVAL;
	ALLOC_GROW(c->links, c->nr_links + 1, c->alloc_links);
	c->links[c->nr_links++] = l;
	return 0;
}

/* Every program loaded, attached where it belongs. */
static int attach_all(struct capture *c, struct strbuf *err)
{
	static const char *const blk[IOT_BLK__NR] = {
	    "block_rq_issue", "block_rq_complete", "block_rq_insert"};
	struct bpf_program *bp[IOT_BLK__NR] = {c->skel->progs.iot_blk_issue,
					       c->skel->progs.iot_blk_complete,
					       c->skel->progs.iot_blk_insert};
	static const char *const uring[IOT_URING__NR] = {
	    "io_uring_submit_req", "io_uring_complete", "io_uring_create"};
	struct bpf_program *up[IOT_URING__NR] = {
	    c->skel->progs.iot_uring_submit, c->skel->progs.iot_uring_complete,
	    c->skel->progs.iot_uring_create};
	char name[128];
	const char *what = NULL;
	uint32_t i;
	int ret = 0;

	/* exits first: an entry is never left without its exit */
	for (i = 0; !ret && (c->layers & CAPTURE_FILE) && i < IOT_MAX_SYSCALL;
	     i++) {
		if (!c->rows[i].record || c->rows[i].raw)
			continue;
		snprintf(name, sizeof(name), "sys_exit_%s", c->tp[i]);
		what = c->tp[i];
		ret = attach(c, c->skel->progs.iot_sc_exit, "syscalls", name);
		snprintf(name, sizeof(name), "sys_enter_%s", c->tp[i]);
		if (!ret)
			ret = attach(c, c->skel->progs.iot_sc_enter, "syscalls",
				     name);
	}
	if (!ret && (c->layers & CAPTURE_FILE) && c->nr_raw) {
		what = "raw_syscalls";
		ret = attach(c, c->skel->progs.iot_exit, "raw_syscalls",
			     "sys_exit");
		if (!ret)
			ret = attach(c, c->skel->progs.iot_enter,
				     "raw_syscalls", "sys_enter");
	}
	/* without a fork tracepoint layout, the fork's exit is enough */
	if (!ret && (c->layers & CAPTURE_FILE) &&
	    c->skel->rodata->fork_child_off) {
		what = "sched_process_fork";
		ret = attach(c, c->skel->progs.iot_fork, "sched",
			     "sched_process_fork");
	}
	for (i = 0; !ret && i < IOT_URING__NR; i++) {
		if (!bpf_program__autoload(up[i]))
			continue;
		what = uring[i];
		ret = attach(c, up[i], "io_uring", uring[i]);
	}
	for (i = 0; !ret && (c->layers & CAPTURE_BLOCK) && i < IOT_BLK__NR;
	     i++) {
		if (!bpf_program__autoload(bp[i]))
			continue;
		what = blk[i];
		ret = attach(c, bp[i], "block", blk[i]);
	}
	if (ret)
		return err_set(err, ret,
			       "cannot attach the capture program to %s: %s",
			       what, strerror(-ret));
	return 0;
}

int capture_start(struct capture *c, struct trace_writer *w, struct strbuf *err)
{
	int ret;

	c->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	c->rb = ring_buffer__new(bpf_map__fd(c->skel->maps.events), on_record,
				 c, NULL);
	if (!c->rb)
		return err_set(err, -errno ? -errno : -ENOMEM,
			       "cannot map the capture's ring buffer: %s",
			       strerror(errno));
	c->start_ns = clock_now_ns();
	c->tk.w = w;
	c->tk.start_ns = c->start_ns;
	blk_tracker_init(&c->blk, w, c->start_ns);
	{
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		c->tk.start_real_ns =
		    (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	}
	c->user0_ns = self_cpu_ns();
	ret = attach_all(c, err);
	if (ret)
		return ret;
	c->started = 1;
	return 0;
}

int capture_poll(struct capture *c, int timeout_ms, struct strbuf *err)
{
	int n = ring_buffer__poll(c->rb, timeout_ms);

	/* the program wakes the reader only for a quarter of the ring:
	 * what came since is read at the timeout too */
	if (n >= 0 || n == -EINTR)
		n = ring_buffer__consume(c->rb);
	if (c->failed)
		return err_set(err, -EIO, "%s", c->werr.buf);
	if (n < 0 && n != -EINTR)
		return err_set(err, n,
			       "cannot read the capture's ring buffer: "
			       "%s",
			       strerror(-n));
	return 0;
}

/* The sum over CPUs of entry which of per-CPU counters map. */
static uint64_t percpu_sum(struct bpf_map *map, uint32_t which)
{
	int ncpu = libbpf_num_possible_cpus(), i;
	uint64_t *v, sum = 0;

	if (ncpu <= 0)
		return 0;
	v = xcalloc((size_t)ncpu, sizeof(*v));
	if (!bpf_map_lookup_elem(bpf_map__fd(map), &which, v))
		for (i = 0; i < ncpu; i++)
			sum += v[i];
	free(v);
	return sum;
}

/* The sum over CPUs of lost[which]. */
static uint64_t lost_count(struct capture *c, uint32_t which)
{
	return percpu_sum(c->skel->maps.lost, which);
}

/* Run time and runs of prog, from the kernel's statistics; the runs
 * the kernel skipped (another BPF program was running on that CPU: a
 * tracepoint program does not nest) are returned. */
static uint64_t prog_stats(struct bpf_program *prog, uint64_t *ns,
			   uint64_t *cnt)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_program__fd(prog) < 0 ||
	    bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
		return 0;
	*ns += info.run_time_ns;
	*cnt += info.run_cnt;
	return info.recursion_misses;
}

static void detach(struct capture *c)
{
	tp_detach(c->links, c->nr_links);
	c->nr_links = 0;
}

int capture_stop(struct capture *c, struct trace_end *end, struct strbuf *err)
{
	memset(end, 0, sizeof(*end));
	if (!c->started)
		return err_set(err, -EINVAL, "the capture did not start");
	c->skel->bss->stopped = 1;
	end->duration_ns = clock_now_ns() - c->start_ns;
	ring_buffer__consume(c->rb);
	if (!c->failed && blk_tracker_finish(&c->blk, &c->werr))
		c->failed = 1;
	if (c->skel->rodata->uring_on) {
		uint64_t other[256];
		uint32_t op;

		for (op = 0; op < 256; op++) {
			other[op] = percpu_sum(c->skel->maps.uring_other, op);
			c->uring_other += other[op];
		}
		if (c->uring_other)
			tp_uring_ops_text(other, &c->uring_ops);
	}
	if (!c->failed && uring_tracker_finish(&c->ut, c->uring_other,
					       c->uring_ops.buf, &c->werr))
		c->failed = 1;
	/* rings made whose requests this kernel did not let us see */
	if (!c->failed && !c->skel->rodata->uring_on && c->tk.rings) {
		char buf[24];

		snprintf(buf, sizeof(buf), "%llu",
			 (unsigned long long)c->tk.rings);
		if (trace_writer_meta(c->tk.w, "uring.unrecorded", buf,
				      &c->werr))
			c->failed = 1;
	}
	if (c->failed)
		return err_set(err, -EIO, "%s", c->werr.buf);
	end->lost = lost_count(c, 0) + lost_count(c, 1) + c->blk.lost;
	/* a skipped entry, exit, fork or issue loses what it was of */
	end->lost +=
	    prog_stats(c->skel->progs.iot_sc_enter, &end->bpf_ns,
		       &end->bpf_calls) +
	    prog_stats(c->skel->progs.iot_sc_exit, &end->bpf_ns,
		       &end->bpf_calls) +
	    prog_stats(c->skel->progs.iot_enter, &end->bpf_ns,
		       &end->bpf_calls) +
	    prog_stats(c->skel->progs.iot_exit, &end->bpf_ns, &end->bpf_calls) +
	    prog_stats(c->skel->progs.iot_fork, &end->bpf_ns, &end->bpf_calls) +
	    prog_stats(c->skel->progs.iot_uring_submit, &end->bpf_ns,
		       &end->bpf_calls) +
	    prog_stats(c->skel->progs.iot_uring_complete, &end->bpf_ns,
		       &end->bpf_calls) +
	    prog_stats(c->skel->progs.iot_blk_issue, &end->bpf_ns,
		       &end->bpf_calls);
	/* a skipped completion or insert loses a time, not a request */
	c->blk_missed = prog_stats(c->skel->progs.iot_blk_complete,
				   &end->bpf_ns, &end->bpf_calls);
	c->blk_missed += prog_stats(c->skel->progs.iot_blk_insert, &end->bpf_ns,
				    &end->bpf_calls);
	/* a skipped ring made loses whom its kernel thread submits for */
	prog_stats(c->skel->progs.iot_uring_create, &end->bpf_ns,
		   &end->bpf_calls);
	end->user_ns = self_cpu_ns() - c->user0_ns;
	detach(c);
	c->started = 0;
	return 0;
}

uint64_t capture_dropped(const struct capture *c)
{
	return c->tk.dropped;
}

void capture_uring_counts(const struct capture *c, struct capture_uring *u)
{
	u->requests = c->ut.written;
	u->rings = c->ut.nr_numbered;
	u->unattributed = c->ut.unattributed;
	u->other = c->uring_other;
	u->other_ops = c->uring_ops.buf;
	u->undone = c->ut.undone;
	u->recorded = c->skel->rodata->uring_on;
	u->rings_made = c->tk.rings;
}

uint64_t capture_blk_requests(const struct capture *c)
{
	return c->blk.nr_events;
}

uint64_t capture_blk_unpaired(const struct capture *c)
{
	return c->blk.unpaired;
}

uint64_t capture_blk_missed(const struct capture *c)
{
	return c->blk_missed;
}

const char *capture_notes(const struct capture *c)
{
	return c->notes.buf;
}

const struct trace *capture_files(const struct capture *c)
{
	return &c->tk.files;
}

uint64_t capture_start_ns(const struct capture *c)
{
	return c->start_ns;
}

void capture_free(struct capture *c)
{
	if (!c)
		return;
	detach(c);
	free(c->links);
	if (c->rb)
		ring_buffer__free(c->rb);
	if (c->skel)
		iotrace__destroy(c->skel);
	if (c->stats_fd >= 0)
		close(c->stats_fd);
	uring_tracker_release(&c->ut);
	tracker_release(&c->tk);
	blk_tracker_release(&c->blk);
	strbuf_release(&c->werr);
	strbuf_release(&c->uring_ops);
	strbuf_release(&c->notes);
	if (c->tp_dir >= 0)
		close(c->tp_dir);
	free(c);
}
