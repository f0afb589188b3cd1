/*
 * Capture control through libbpf. See capture.h.
 *
 * The program is a skeleton generated at build time (bpftool gen
 * skeleton) from src/bpf/iotrace.bpf.c; it reads only tracepoint fields,
 * so loading it needs no BTF of the running kernel. The one layout that
 * varies across kernels, where sched_process_fork keeps child_pid, is
 * read from the tracepoint's format file before loading; without it,
 * children are still tracked from the fork's return value in the parent.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "blk.h"
#include "capture.h"
#include "track.h"
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
	struct blk_tracker blk;
	unsigned layers;     /* enum capture_layer */
	uint64_t blk_missed; /* completions and inserts the kernel skipped */
	int stats_fd;	     /* BPF run-time statistics on while held */
	uint64_t start_ns;   /* CLOCK_MONOTONIC at start */
	uint64_t user0_ns;   /* this process's CPU time at start */
	int started;
	int failed;	    /* the writer failed: stop handling */
	struct strbuf werr; /* and why */
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

/* Where sched_process_fork keeps child_pid, from its format file; 0
 * when not known. */
static unsigned fork_child_offset(void)
{
	static const char *const paths[] = {
	    "/sys/kernel/tracing/events/sched/sched_process_fork/format",
	    "/sys/kernel/debug/tracing/events/sched/sched_process_fork/format",
	};
	char line[256];
	unsigned off = 0, size = 0, i;

	for (i = 0; i < ARRAY_SIZE(paths) && !off; i++) {
		FILE *f = fopen(paths[i], "re");

		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			char *p = strstr(line, " child_pid;");

			if (p &&
			    sscanf(strstr(p, "offset:") ? strstr(p, "offset:")
							: "",
				   "offset:%u;\tsize:%u", &off, &size) == 2 &&
			    size == 4)
				break;
			off = 0;
		}
		fclose(f);
	}
	return off;
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

	if (!(c->layers & CAPTURE_FILE)) {
		bpf_program__set_autoload(c->skel->progs.iot_enter, false);
		bpf_program__set_autoload(c->skel->progs.iot_exit, false);
		bpf_program__set_autoload(c->skel->progs.iot_fork, false);
	}
	for (tp = 0; tp < IOT_BLK__NR; tp++) {
		int r = -ENOENT;

		if (c->layers & CAPTURE_BLOCK)
			r = blk_tp_offsets(tp, off);
		if (r) {
			bpf_program__set_autoload(blk[tp], false);
			/* insert is optional: not every kernel has it */
			if ((c->layers & CAPTURE_BLOCK) && tp != IOT_BLK_INSERT)
				return err_set(err, r,
					       "cannot read the layout of the "
					       "block tracepoints: %s",
					       strerror(-r));
			continue;
		}
		for (f = 0; f < IOT_BF__NR; f++)
			c->skel->rodata->blk_off[tp][f] = off[f];
	}
	if (c->layers & CAPTURE_BLOCK) {
		if (!o->blk_kdev)
			return err_set(err, -EINVAL,
				       "the block layer needs a device");
		c->skel->rodata->blk_dev = o->blk_kdev;
	}
	return 0;
}

int capture_open(struct capture **out, const struct capture_opts *o,
		 struct strbuf *err)
{
	struct iot_sysinfo *rows = NULL;
	struct capture *c;
	uint64_t ring = o->ring_bytes ? o->ring_bytes : 8u << 20;
	uint32_t i;
	int ret;

	*out = NULL;
	if (ring < 4096 || (ring & (ring - 1)))
		return err_set(err, -EINVAL,
			       "the ring buffer must be a power of 2 of at "
			       "least 4 KiB");
	libbpf_set_print(quiet_print);
	c = xcalloc(1, sizeof(*c));
	c->stats_fd = -1;
	strbuf_init(&c->werr, 0);
	tracker_init(&c->tk, NULL, 0);
	c->skel = iotrace__open();
	if (!c->skel) {
		ret = err_set(err, -errno ? -errno : -ENOSYS,
			      "cannot open the capture program: %s",
			      strerror(errno));
		goto fail;
	}
	if (o->cgroup) {
		struct stat st;
		const char *p = o->cgroup;
		unsigned level = 0;

		if (stat(o->cgroup, &st) || !S_ISDIR(st.st_mode)) {
			ret = err_set(err, -ENOENT,
				      "'%s' is not a cgroup directory",
				      o->cgroup);
			goto fail;
		}
		if (strncmp(p, "/sys/fs/cgroup", 14)) {
			ret = err_set(err, -EINVAL,
				      "'%s' is not under /sys/fs/cgroup (a "
				      "cgroup v2 directory is needed)",
				      o->cgroup);
			goto fail;
		}
		for (p += 14; *p; p++)
			if (*p == '/' && p[1] && p[1] != '/')
				level++;
		c->skel->rodata->mode = IOT_MODE_CGROUP;
		c->skel->rodata->cgroup_id = st.st_ino;
		c->skel->rodata->cgroup_level = level;
	} else {
		c->skel->rodata->mode = IOT_MODE_PIDS;
		c->skel->rodata->fork_child_off = fork_child_offset();
	}
	c->layers = o->layers ? o->layers : CAPTURE_FILE;
	ret = pick_layers(c, o, err);
	if (ret)
		goto fail;
	bpf_map__set_max_entries(c->skel->maps.events, (uint32_t)ring);
	ret = iotrace__load(c->skel);
	if (ret) {
		ret = err_set(err, ret < 0 ? ret : -EPERM,
			      "cannot load the capture program into the "
			      "kernel: %s",
			      strerror(ret < 0 ? -ret : EPERM));
		goto fail;
	}
	rows = xcalloc(IOT_MAX_SYSCALL, sizeof(*rows));
	tracker_sysinfo(rows);
	for (i = 0; i < IOT_MAX_SYSCALL; i++) {
		if (!rows[i].record)
			continue;
		ret = bpf_map_update_elem(bpf_map__fd(c->skel->maps.sysinfo),
					  &i, &rows[i], BPF_ANY);
		if (ret) {
			ret = err_set(err, -errno,
				      "cannot fill the capture's syscall "
				      "table: %s",
				      strerror(errno));
			goto fail;
		}
	}
	free(rows);
	*out = c;
	return 0;
fail:
	free(rows);
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
	ret = iotrace__attach(c->skel);
	if (ret)
		return err_set(err, ret < 0 ? ret : -EPERM,
			       "cannot attach the capture program: %s",
			       strerror(ret < 0 ? -ret : EPERM));
	/* without a fork tracepoint layout, the fork's exit is enough */
	if (!c->skel->rodata->fork_child_off && c->skel->links.iot_fork) {
		bpf_link__destroy(c->skel->links.iot_fork);
		c->skel->links.iot_fork = NULL;
	}
	c->started = 1;
	return 0;
}

int capture_poll(struct capture *c, int timeout_ms, struct strbuf *err)
{
	int n = ring_buffer__poll(c->rb, timeout_ms);

	if (c->failed)
		return err_set(err, -EIO, "%s", c->werr.buf);
	if (n < 0 && n != -EINTR)
		return err_set(err, n,
			       "cannot read the capture's ring buffer: "
			       "%s",
			       strerror(-n));
	return 0;
}

/* The sum over CPUs of lost[which]. */
static uint64_t lost_count(struct capture *c, uint32_t which)
{
	int ncpu = libbpf_num_possible_cpus(), i;
	uint64_t *v, sum = 0;

	if (ncpu <= 0)
		return 0;
	v = xcalloc((size_t)ncpu, sizeof(*v));
	if (!bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.lost), &which, v))
		for (i = 0; i < ncpu; i++)
			sum += v[i];
	free(v);
	return sum;
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

int capture_stop(struct capture *c, struct trace_end *end, struct strbuf *err)
{
	memset(end, 0, sizeof(*end));
	if (!c->started)
		return err_set(err, -EINVAL, "the capture did not start");
	iotrace__detach(c->skel);
	end->duration_ns = clock_now_ns() - c->start_ns;
	ring_buffer__consume(c->rb);
	if (!c->failed && blk_tracker_finish(&c->blk, &c->werr))
		c->failed = 1;
	if (c->failed)
		return err_set(err, -EIO, "%s", c->werr.buf);
	end->lost = lost_count(c, 0) + lost_count(c, 1) + c->blk.lost;
	/* a skipped entry, exit, fork or issue loses what it was of */
	end->lost +=
	    prog_stats(c->skel->progs.iot_enter, &end->bpf_ns,
		       &end->bpf_calls) +
	    prog_stats(c->skel->progs.iot_exit, &end->bpf_ns, &end->bpf_calls) +
	    prog_stats(c->skel->progs.iot_fork, &end->bpf_ns, &end->bpf_calls) +
	    prog_stats(c->skel->progs.iot_blk_issue, &end->bpf_ns,
		       &end->bpf_calls);
	/* a skipped completion or insert loses a time, not a request */
	c->blk_missed = prog_stats(c->skel->progs.iot_blk_complete,
				   &end->bpf_ns, &end->bpf_calls);
	c->blk_missed += prog_stats(c->skel->progs.iot_blk_insert, &end->bpf_ns,
				    &end->bpf_calls);
	end->user_ns = self_cpu_ns() - c->user0_ns;
	c->started = 0;
	return 0;
}

uint64_t capture_dropped(const struct capture *c)
{
	return c->tk.dropped;
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

uint64_t capture_start_ns(const struct capture *c)
{
	return c->start_ns;
}

void capture_free(struct capture *c)
{
	if (!c)
		return;
	if (c->rb)
		ring_buffer__free(c->rb);
	if (c->skel)
		iotrace__destroy(c->skel);
	if (c->stats_fd >= 0)
		close(c->stats_fd);
	tracker_release(&c->tk);
	blk_tracker_release(&c->blk);
	strbuf_release(&c->werr);
	free(c);
}

/* One knob of /proc/sys as a meta entry "knob.NAME" (skipped if absent). */
static int meta_knob(struct trace_writer *w, const char *name,
		     struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, val = STRBUF_INIT, key = STRBUF_INIT;
	const char *p;
	int ret = 0;

	strbuf_addstr(&path, "/proc/sys/");
	for (p = name; *p; p++)
		strbuf_addch(&path, *p == '.' ? '/' : *p);
	if (!strbuf_read_file(&val, path.buf, 4096)) {
		strbuf_trim(&val);
		strbuf_addf(&key, "knob.%s", name);
		ret = trace_writer_meta(w, key.buf, val.buf, err);
	}
	strbuf_release(&path);
	strbuf_release(&val);
	strbuf_release(&key);
	return ret;
}

int capture_write_meta(struct trace_writer *w, const char *layer,
		       struct strbuf *err)
{
	static const char *const knobs[] = {
	    "vm.dirty_ratio",
	    "vm.dirty_background_ratio",
	    "vm.dirty_bytes",
	    "vm.dirty_background_bytes",
	    "vm.dirty_expire_centisecs",
	    "vm.dirty_writeback_centisecs",
	    "vm.vfs_cache_pressure",
	};
	struct utsname u;
	struct timespec ts;
	struct tm tm;
	char when[64];
	size_t i;
	int ret = 0;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	ret = trace_writer_meta(w, "started", when, err);
	if (!ret && !uname(&u)) {
		ret = trace_writer_meta(w, "kernel", u.release, err);
		if (!ret)
			ret = trace_writer_meta(w, "arch", u.machine, err);
		if (!ret)
			ret = trace_writer_meta(w, "host", u.nodename, err);
	}
	if (!ret)
		ret = trace_writer_meta(w, "layer", layer, err);
	for (i = 0; !ret && i < ARRAY_SIZE(knobs); i++)
		ret = meta_knob(w, knobs[i], err);
	return ret;
}
