/*
 * Device truth for a run: the measurement hook and the arithmetic from
 * the sampler's series to devices[] and the truth summary; the warnings
 * that need those numbers are truth_warn.c's. See truth.h for why every
 * result carries this.
 *
 * Byte comparisons use the top device of the stack, the one the
 * filesystem (or the raw target) sits on: lower devices (a loop device's
 * backing disk, a partition's disk) also carry other traffic and are
 * listed for context, not counted. The disk at the very bottom is
 * compared with the top in one direction only: when it moved far less
 * than the top, the top's bytes came from nowhere physical (a sparse
 * loop image, a backing file in the host page cache).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "truth.h"
#include "meminfo.h"
#include "../../util/error.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

void truth_free(struct truth *t)
{
	unsigned i;

	if (!t)
		return;
	for (i = 0; i < t->nr_devs; i++)
		free(t->devs[i].name);
	free(t->devs);
	free(t->device);
	free(t->bottom_device);
	free(t->no_device_reason);
	sampler_series_release(&t->series);
	env_release(&t->env);
	free(t);
}

/*
 * The bottom of the stack from t->devs: the disks devstack_bottom()
 * names in ds, their bytes summed. Unknown (have_bottom 0) when ds has
 * no disk or one of them was not sampled.
 */
static void bottom_from_devs(struct truth *t, const struct devstack *ds)
{
	int idx[16];
	unsigned n = ds ? devstack_bottom(ds, idx, 16) : 0, i, j;
	struct strbuf names = STRBUF_INIT;
	uint64_t rd = 0, wr = 0;

	if (!n || n > 16)
		return;
	for (i = 0; i < n; i++) {
		const char *name = ds->devs[idx[i]].name;

		for (j = 0; j < t->nr_devs; j++)
			if (!strcmp(t->devs[j].name, name))
				break;
		if (j == t->nr_devs || !t->devs[j].valid) {
			strbuf_release(&names);
			return;
		}
		rd += t->devs[j].d.read_bytes;
		wr += t->devs[j].d.write_bytes;
		strbuf_addf(&names, "%s%s", i ? "+" : "", name);
	}
	t->bottom_device = strbuf_detach(&names, NULL);
	t->bottom_read_bytes = rd;
	t->bottom_write_bytes = wr;
	t->have_bottom = 1;
}

/* How much the run waited for CPUs (schedstat.h), from the series. */
static void contention_from_series(struct truth *t,
				   const struct sampler_series *ser)
{
	const struct sampler_point *p0 = &ser->points[0];
	const struct sampler_point *p1 = &ser->points[ser->nr_points - 1];
	double sum = 0;
	unsigned i, k = 0;

	t->cpu_wait_fraction = t->runnable_mean = t->wake_late_ms = NAN;
	t->runnable_ours = NAN;
	if ((p0->have & SAMPLER_HAVE_SCHED) &&
	    (p1->have & SAMPLER_HAVE_SCHED) &&
	    p1->sched_run_ns + p1->sched_wait_ns >
		p0->sched_run_ns + p0->sched_wait_ns &&
	    p1->t_ns > p0->t_ns) {
		double busy_ns =
		    (double)(p1->sched_run_ns - p0->sched_run_ns +
			     p1->sched_wait_ns - p0->sched_wait_ns);

		t->cpu_wait_fraction =
		    (double)(p1->sched_wait_ns - p0->sched_wait_ns) / busy_ns;
		t->runnable_ours = busy_ns / (double)(p1->t_ns - p0->t_ns);
	}
	for (i = 0; i < ser->nr_points; i++)
		if (ser->points[i].have & SAMPLER_HAVE_RUNQ) {
			sum += ser->points[i].runnable;
			k++;
		}
	if (k)
		t->runnable_mean = sum / k;
	/* the first and last points are taken by the caller, not woken */
	if (ser->nr_points > 2)
		t->wake_late_ms =
		    (double)(p1->wake_late_ns - p0->wake_late_ns) / 1e6 /
		    (ser->nr_points - 2);
}

void truth_from_series(struct truth *t, const struct sampler_series *ser,
		       const struct devstack *ds)
{
	const struct sampler_point *p0, *p1;
	unsigned n = ser->nr_points, i;

	if (n < 2)
		return;
	p0 = &ser->points[0];
	p1 = &ser->points[n - 1];
	t->seconds = (double)(p1->t_ns - p0->t_ns) / 1e9;
	t->devs = xcalloc(ser->nr_devs ? ser->nr_devs : 1, sizeof(*t->devs));
	t->nr_devs = ser->nr_devs;
	for (i = 0; i < ser->nr_devs; i++) {
		struct truth_device *td = &t->devs[i];
		const struct diskstats *a = sampler_disk(ser, 0, i);
		const struct diskstats *b = sampler_disk(ser, n - 1, i);
		int idx = ds ? devstack_find(ds, ser->dev_names[i]) : -1;

		td->name = xstrdup(ser->dev_names[i]);
		td->kind =
		    idx >= 0 ? devstack_kind_name(ds->devs[idx].kind) : NULL;
		td->via =
		    idx >= 0 ? devstack_via_name(ds->devs[idx].via) : NULL;
		td->valid = a->nr_fields && b->nr_fields;
		if (td->valid)
			diskstats_delta(a, b, t->seconds, &td->d);
	}
	if (t->nr_devs && t->devs[0].valid) {
		t->device = xstrdup(t->devs[0].name);
		t->device_write_bytes = t->devs[0].d.write_bytes;
		t->device_read_bytes = t->devs[0].d.read_bytes;
		t->have_device = 1;
	}
	bottom_from_devs(t, ds);
	contention_from_series(t, ser);
	if ((p0->have & SAMPLER_HAVE_IO) && (p1->have & SAMPLER_HAVE_IO)) {
		struct procio io;

		procio_delta(&p0->io, &p1->io, &io);
		t->process_write_bytes = io.write_bytes;
		t->process_read_bytes = io.read_bytes;
		t->cancelled_write_bytes = io.cancelled_write_bytes;
		t->have_procio = 1;
	}
	for (i = 0; i < n; i++) {
		const struct sampler_point *p = &ser->points[i];

		if (!(p->have & SAMPLER_HAVE_MEM))
			continue;
		if (!t->have_mem)
			t->dirty_start_bytes = p->dirty_bytes;
		t->have_mem = 1;
		t->dirty_end_bytes = p->dirty_bytes;
		if (p->dirty_bytes > t->dirty_peak_bytes)
			t->dirty_peak_bytes = p->dirty_bytes;
		if (p->writeback_bytes > t->writeback_peak_bytes)
			t->writeback_peak_bytes = p->writeback_bytes;
	}
}

void truth_apply_run(struct truth *t, const struct run_result *r)
{
	uint64_t logical = r->bytes[IO_WRITE], never = 0, cancelled = 0;

	t->logical_write_bytes = logical;
	t->logical_read_bytes = r->bytes[IO_READ];
	t->absorbed_fraction = NAN;
	t->cached_read_fraction = NAN;
	if (t->logical_read_bytes && t->have_device)
		t->cached_read_fraction =
		    t->device_read_bytes >= t->logical_read_bytes
			? 0
			: (double)(t->logical_read_bytes -
				   t->device_read_bytes) /
			      (double)t->logical_read_bytes;
	if (logical && t->have_device) {
		/* bytes that did not show up on the device, or that the
		 * kernel says were thrown away dirty: whichever is more */
		if (t->device_write_bytes < logical)
			never = logical - t->device_write_bytes;
		if (t->have_procio)
			cancelled = t->cancelled_write_bytes < logical
					? t->cancelled_write_bytes
					: logical;
		t->absorbed_fraction =
		    (double)(never > cancelled ? never : cancelled) /
		    (double)logical;
	}
	t->burst_seconds = r->burst_seconds;
	t->settled_mbps = run_result_mbps(r);
	/* only writes have a flush to leave out */
	t->burst_mbps =
	    r->burst_seconds > 0 && r->bytes[IO_WRITE]
		? (double)run_result_bytes(r) / r->burst_seconds / 1e6
		: NAN;
}

/* The hook's begin: snapshot the environment, start sampling. */
static void hook_begin(void *ctx)
{
	struct truth_hook *th = ctx;

	env_release(&th->env);
	env_capture(&th->env, th->path, NULL);
	th->have_env = 1;
	th->started = 0;
	th->have_others0 =
	    !schedstat_others_io(&th->others_read0, &th->others_write0);
	if (th->sampler_ok && !sampler_start(&th->sampler, &th->problem))
		th->started = 1;
}

/* The hook's end: stop sampling, attach the truth and its warnings. */
static void hook_end(void *ctx, struct run_result *r)
{
	struct truth_hook *th = ctx;
	struct truth *t = xcalloc(1, sizeof(*t));

	t->absorbed_fraction = NAN;
	t->cached_read_fraction = NAN;
	t->burst_mbps = NAN;
	t->cpu_wait_fraction = t->runnable_mean = t->wake_late_ms = NAN;
	t->runnable_ours = NAN;
	if (th->started) {
		uint64_t rd, wr;

		sampler_stop(&th->sampler);
		th->started = 0;
		if (th->have_others0 && !schedstat_others_io(&rd, &wr)) {
			t->others_read_bytes =
			    rd > th->others_read0 ? rd - th->others_read0 : 0;
			t->others_write_bytes =
			    wr > th->others_write0 ? wr - th->others_write0 : 0;
			t->have_others = 1;
		}
		sampler_take_series(&th->sampler, &t->series);
		t->sampler_cpu_s = (double)th->sampler.cpu_ns / 1e9;
		t->read_errors = th->sampler.read_errors;
		t->interval_ms = (double)th->sampler.interval_ns / 1e6;
		truth_from_series(t, &t->series, &th->stack);
	}
	if (th->stack.no_device_reason)
		t->no_device_reason = xstrdup(th->stack.no_device_reason);
	else if (!t->have_device)
		t->no_device_reason = xstrdup(
		    th->problem.len ? th->problem.buf
				    : "the device counters could not be "
				      "read during the run");
	t->env = th->env;
	t->have_env = th->have_env;
	memset(&th->env, 0, sizeof(th->env));
	th->have_env = 0;
	if (r->truth && r->free_truth)
		r->free_truth(r->truth);
	r->truth = t;
	r->free_truth = truth_free;
	if (t->no_device_reason)
		run_result_note(r, "no device truth: %s", t->no_device_reason);
	/* a workload that tallies after measure_end() leaves r empty here;
	 * truth_hook_finish() completes the truth then */
	if (run_result_ops(r) || run_result_bytes(r))
		truth_hook_finish(th, r);
}

void truth_hook_finish(struct truth_hook *th, struct run_result *r)
{
	struct truth *t = r->truth;

	if (!t || t->run_applied)
		return;
	t->run_applied = 1;
	truth_apply_run(t, r);
	truth_warn(t, r, &th->opts, t->env.mem_total_bytes);
}

int truth_hook_init(struct truth_hook *th, const struct target *t,
		    const struct truth_opts *o, struct strbuf *err)
{
	struct sampler_dev *devs;
	struct strbuf *paths;
	unsigned i, n;
	int ret;

	memset(th, 0, sizeof(*th));
	strbuf_init(&th->problem, 0);
	if (o)
		th->opts = *o;
	th->hook.ctx = th;
	th->hook.begin = hook_begin;
	th->hook.end = hook_end;
	/* the user's directory, not our work directory inside it: the same
	 * device, and the environment of two runs must compare equal */
	th->path = xstrdup(t->path);
	ret = devstack_resolve_path(&th->stack, th->path, err);
	if (ret)
		return ret;
	n = th->stack.nr_devs;
	devs = xcalloc(n ? n : 1, sizeof(*devs));
	paths = xcalloc(n ? n : 1, sizeof(*paths));
	for (i = 0; i < n; i++) {
		strbuf_init(&paths[i], 0);
		strbuf_addf(&paths[i], "%s/stat", th->stack.devs[i].sysfs_dir);
		devs[i].name = th->stack.devs[i].name;
		devs[i].stat_path = paths[i].buf;
	}
	/* a device we cannot read is a note on each run, not a failure */
	if (!sampler_init(&th->sampler, devs, n, th->opts.interval_ns, 0,
			  &th->problem) ||
	    !sampler_init(&th->sampler, devs, 0, th->opts.interval_ns, 0, NULL))
		th->sampler_ok = 1;
	if (th->sampler_ok && th->opts.cgroup_dir)
		sampler_watch_cgroup(&th->sampler, th->opts.cgroup_dir,
				     th->opts.cgroup_version);
	for (i = 0; i < n; i++)
		strbuf_release(&paths[i]);
	free(paths);
	free(devs);
	return 0;
}

void truth_hook_release(struct truth_hook *th)
{
	if (!th)
		return;
	if (th->sampler_ok)
		sampler_release(&th->sampler);
	devstack_release(&th->stack);
	env_release(&th->env);
	strbuf_release(&th->problem);
	free(th->path);
	memset(th, 0, sizeof(*th));
}
