/*
 * Device truth for a run: the measurement hook, the arithmetic from the
 * sampler's series to devices[] and the truth summary, the warnings that
 * need those numbers, and their JSON and text forms. See truth.h for why
 * every result carries this.
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
#include <json-c/json.h>
#include "truth.h"
#include "meminfo.h"
#include "../../util/error.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define MIB (1024ull * 1024ull)

/* Thresholds behind the warnings (named so the messages and tests agree). */
#define CACHE_READ_MIN_BYTES MIB  /* below this, reads are not judged */
#define CACHE_READ_TOLERANCE 0.05 /* device short of the reads by > 5% */
#define ABSORBED_WARN_FRAC   0.5  /* over half never reached the device */
#define CPU_BOUND_FRAC	     0.90 /* of one core, per worker */
#define SHORT_RUN_SECONDS    1.0
#define SHORT_RUN_OPS	     1000
#define OTHER_READ_FACTOR    2.0 /* device reads > 2x ours + slack */
#define OTHER_READ_SLACK     (32 * MIB)
#define OTHER_WRITE_FACTOR   4.0 /* journal and metadata allowed */
#define OTHER_WRITE_SLACK    (64 * MIB)
#define UNREACHED_MIN_BYTES  (16 * MIB) /* below this, not judged */
#define UNREACHED_FRAC	     0.10	/* bottom moved < 10% of top */
#define NEVER_FRAC	     0.01	/* < 1%: "never", else "most" */

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

/* A human size into a fresh strbuf slot, for building messages. */
static const char *fmt_bytes(struct strbuf *sb, uint64_t bytes)
{
	strbuf_reset(sb);
	units_fmt_bytes(sb, bytes);
	return sb->buf;
}

/* A remedy a warning may advise, and the parameter it names (0: none). */
struct remedy {
	unsigned needs; /* enum truth_param bit */
	const char *text;
};

/*
 * Add to out, after lead, the remedies of r[n] that o's workload can
 * take ("A, B, or C"; "A or B"), or fallback when none is left. Returns
 * how many were added. o may be NULL: the block-I/O workloads'.
 */
static size_t add_remedies(struct strbuf *out, const struct truth_opts *o,
			   const char *lead, const struct remedy *r, size_t n,
			   const char *fallback)
{
	unsigned lacks = o ? o->lacks : 0;
	size_t i, k = 0, have = 0;

	for (i = 0; i < n; i++)
		have += !(r[i].needs & lacks);
	if (!have) {
		if (fallback)
			strbuf_addf(out, "%s%s", lead, fallback);
		return 0;
	}
	strbuf_addstr(out, lead);
	for (i = 0; i < n; i++) {
		if (r[i].needs & lacks)
			continue;
		if (k)
			strbuf_addstr(out, k + 1 < have ? ", "
					   : have > 2	? ", or "
							: " or ");
		strbuf_addstr(out, r[i].text);
		k++;
	}
	return have;
}

/*
 * "reads measured the page cache": the device delivered less than the
 * workload read, by more than CACHE_READ_TOLERANCE of it. The tolerance
 * is for what makes the two differ without the cache serving anything:
 * the sampler's first and last readings fall a little inside or outside
 * the timed region, and the device counts a request when it completes.
 * Read-ahead and metadata only make the device deliver more, so a
 * shortfall is bytes that came from memory, and bytes above what the
 * workload read are read-ahead (or other I/O), never memory. The
 * sentence states only what those two numbers show.
 *
 * A file that fits in memory, read more than once without being dropped
 * in between, may be served from memory on every pass after the first
 * even when the device delivered as much as the workload read (other
 * I/O on it hides the shortfall). The device's counts cannot show that,
 * so such a run is flagged with a sentence that says what could have
 * come from memory, not what did; unless the process's own reads from
 * storage (/proc/self/io) show it fetched all it read, which means the
 * cache did not keep the file. Runs that bypass the cache (direct I/O)
 * are not judged.
 */
static void warn_cached_reads(const struct truth *t, struct run_result *r,
			      const struct truth_opts *o, uint64_t mem_bytes)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT,
		      d = STRBUF_INIT, why = STRBUF_INIT;
	uint64_t ws = o ? o->working_set_bytes : 0;
	uint64_t logical = t->logical_read_bytes;
	double times = ws ? (double)logical / (double)ws : 0;
	double cached = t->cached_read_fraction;
	double delivered =
	    logical ? (double)t->device_read_bytes / (double)logical : NAN;
	int wrapped = times > 1.0 + CACHE_READ_TOLERANCE && mem_bytes &&
		      ws <= mem_bytes && !(o && o->invalidate);
	int fetched_all = t->have_procio &&
			  (double)t->process_read_bytes >=
			      (1.0 - CACHE_READ_TOLERANCE) * (double)logical;

	if ((o && o->direct) || !isfinite(cached) ||
	    logical < CACHE_READ_MIN_BYTES)
		goto out;
	if (!(cached > CACHE_READ_TOLERANCE) && !(wrapped && !fetched_all))
		goto out;
	if (times > 1.0 + CACHE_READ_TOLERANCE) {
		static const struct remedy wrap[] = {
		    {TRUTH_LACKS_SIZE, "a --size larger than the run reads"},
		    {TRUTH_LACKS_SIZE, "--ios to read it once"},
		    {TRUTH_LACKS_INVALIDATE, "--invalidate=1 to drop it after "
					     "each pass (fio's default)"},
		    {TRUTH_LACKS_DIRECT, "--direct=1"},
		};

		strbuf_addf(&why,
			    "; it read its %s working set %.2f times over, "
			    "and passes after the first can find it in memory",
			    fmt_bytes(&c, ws), times);
		add_remedies(&why, o, "; give ", wrap, ARRAY_SIZE(wrap), NULL);
	} else if (ws && mem_bytes && ws <= mem_bytes) {
		static const struct remedy fits[] = {
		    {0, "drop caches before the run"},
		    {TRUTH_LACKS_DIRECT, "use --direct=1"},
		    {0, "a working set larger than memory"},
		};

		strbuf_addf(&why, "; the %s working set fits in %s of memory",
			    fmt_bytes(&c, ws), fmt_bytes(&d, mem_bytes));
		add_remedies(&why, o, "; ", fits, ARRAY_SIZE(fits), NULL);
	} else {
		static const struct remedy twice[] = {
		    {0, "drop caches before the run"},
		    {TRUTH_LACKS_DIRECT, "use --direct=1"},
		    {TRUTH_LACKS_RANDOMMAP, "--randommap=1"},
		};

		strbuf_addstr(&why,
			      o && (o->lacks & TRUTH_LACKS_RANDOMMAP)
				  ? "; blocks read twice or cached before "
				    "the run"
				  : "; blocks read twice (random reads repeat "
				    "some) or cached before the run");
		add_remedies(&why, o, "; ", twice, ARRAY_SIZE(twice), NULL);
	}
	if (cached > CACHE_READ_TOLERANCE)
		run_result_warn(r,
				"reads measured the page cache, not the "
				"device: the workload read %s but '%s' "
				"delivered only %s (%.1f%%), so %.1f%% came "
				"from memory%s",
				fmt_bytes(&a, logical), t->device,
				fmt_bytes(&b, t->device_read_bytes),
				100.0 * delivered, 100.0 * cached, why.buf);
	else
		/* the device delivered (nearly) all: say what may have come
		 * from memory and why its count does not show it */
		run_result_warn_kind(
		    r, RUN_WARN_PAGE_CACHE,
		    "reads may have measured the page cache: up to %.1f%% of "
		    "them could have come from memory, but '%s' delivered "
		    "%s, %.1f%% of the %s the workload read, so its count "
		    "cannot tell how much did (%s)%s",
		    100.0 * (1.0 - 1.0 / times), t->device,
		    fmt_bytes(&b, t->device_read_bytes), 100.0 * delivered,
		    fmt_bytes(&a, logical),
		    delivered > 1.0 ? "read-ahead or other I/O on it delivers "
				      "the bytes above what was read"
				    : "read-ahead or other I/O on it would "
				      "hide a shortfall",
		    why.buf);
out:
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
	strbuf_release(&d);
	strbuf_release(&why);
}

/*
 * Why the page cache absorbed writes, and what would help, from the
 * numbers and how the run ended (o may be NULL). Suggesting --settle=sync
 * to a run that used it helps nobody, so each cause gets its own remedy.
 */
static void absorbed_cause(const struct truth *t, const struct truth_opts *o,
			   struct strbuf *out)
{
	struct strbuf a = STRBUF_INIT;
	uint64_t ws = o ? o->working_set_bytes : 0;
	enum truth_settle settle = o ? o->settle : TRUTH_SETTLE_UNKNOWN;
	uint64_t never = t->logical_write_bytes > t->device_write_bytes
			     ? t->logical_write_bytes - t->device_write_bytes
			     : 0;
	double times = ws ? (double)t->logical_write_bytes / (double)ws : 0;
	int rewrote = times > 1.0;

	if (t->have_procio && t->cancelled_write_bytes &&
	    2 * t->cancelled_write_bytes >= never) {
		static const struct remedy r[] = {
		    {0, "fsync them before deleting"},
		    {TRUTH_LACKS_DIRECT, "use --direct=1"},
		};

		strbuf_addstr(out, "files were deleted or truncated while "
				   "still dirty");
		add_remedies(out, o, "; ", r, ARRAY_SIZE(r), NULL);
	} else if (settle == TRUTH_SETTLE_SYNC && rewrote) {
		static const struct remedy r[] = {
		    {TRUTH_LACKS_DIRECT, "--direct=1"},
		    {TRUTH_LACKS_SIZE, "a larger --size"},
		    {TRUTH_LACKS_SIZE, "--ios to write it once"},
		};

		strbuf_addf(out,
			    "the run synced, but it wrote its %s working set "
			    "%.1f times over, and blocks rewritten while "
			    "still dirty reach the device only once",
			    fmt_bytes(&a, ws), times);
		if (o && o->rewrite_advice)
			strbuf_addf(out, "; %s", o->rewrite_advice);
		else
			add_remedies(out, o, "; use ", r, ARRAY_SIZE(r), NULL);
	} else if (settle == TRUTH_SETTLE_SYNC) {
		strbuf_addf(out,
			    "the run synced, so its writes were not left "
			    "dirty; blocks rewritten while dirty (random "
			    "writes hit some twice) or writes going to "
			    "another device would explain it; check with "
			    "'iotrial info -t TARGET' that '%s' is the device "
			    "written to%s",
			    t->device,
			    o && (o->lacks & TRUTH_LACKS_DIRECT)
				? ""
				: ", or use --direct=1");
	} else if (settle == TRUTH_SETTLE_NONE) {
		static const struct remedy once[] = {
		    {TRUTH_LACKS_SETTLE, "--settle=sync"},
		    {TRUTH_LACKS_FSYNC_N, "--fsync=N"},
		    {TRUTH_LACKS_DIRECT, "--direct=1"},
		};
		static const struct remedy again[] = {
		    {TRUTH_LACKS_SETTLE, "--settle=sync"},
		    {TRUTH_LACKS_FSYNC_N, "--fsync=N"},
		    {TRUTH_LACKS_SIZE,
		     "a larger --size or --ios to write it once"},
		    {TRUTH_LACKS_DIRECT, "--direct=1"},
		};

		strbuf_addstr(out, "writes were still dirty when the run "
				   "ended (--settle=none)");
		if (rewrote)
			strbuf_addf(out,
				    " and blocks were rewritten while dirty "
				    "(the %s working set written %.1f times "
				    "over)",
				    fmt_bytes(&a, ws), times);
		if (rewrote)
			add_remedies(out, o, "; use ", again, ARRAY_SIZE(again),
				     NULL);
		else
			add_remedies(out, o, "; use ", once, ARRAY_SIZE(once),
				     NULL);
	} else {
		static const struct remedy r[] = {
		    {0, "fsync before deleting or before the run ends"},
		    {0, "a working set larger than memory"},
		    {TRUTH_LACKS_DIRECT, "--direct=1"},
		};

		strbuf_addstr(out, "files deleted or still dirty when the "
				   "run ended, or blocks rewritten while "
				   "dirty");
		add_remedies(out, o, "; ", r, ARRAY_SIZE(r), NULL);
	}
	strbuf_release(&a);
}

/* "most written bytes never reached the device", with its cause */
static void warn_absorbed(const struct truth *t, struct run_result *r,
			  const struct truth_opts *o)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT,
		      d = STRBUF_INIT, cause = STRBUF_INIT;

	if (!(t->absorbed_fraction > ABSORBED_WARN_FRAC))
		return;
	if (o && o->settle == TRUTH_SETTLE_SYNC && r->interrupted) {
		/* stopped before its sync: it may have left writes dirty */
		struct truth_opts stopped = *o;

		stopped.settle = TRUTH_SETTLE_UNKNOWN;
		absorbed_cause(t, &stopped, &cause);
	} else {
		absorbed_cause(t, o, &cause);
	}
	run_result_warn(r,
			"%.0f%% of the written bytes never reached the "
			"device: the workload wrote %s, '%s' took %s, %s "
			"were cancelled and dirty memory peaked at %s; the "
			"page cache absorbed them, so this measured memory, "
			"not the device: %s",
			100.0 * t->absorbed_fraction,
			fmt_bytes(&a, t->logical_write_bytes), t->device,
			fmt_bytes(&b, t->device_write_bytes),
			t->have_procio ? fmt_bytes(&c, t->cancelled_write_bytes)
				       : "an unknown amount",
			fmt_bytes(&d, t->dirty_peak_bytes), cause.buf);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
	strbuf_release(&d);
	strbuf_release(&cause);
}

/* "workers CPU-bound": every worker used >= 90% of a core. */
static void warn_cpu_bound(struct run_result *r, const struct truth_opts *o)
{
	double busiest = 0, frac;
	unsigned i, bound = 0, nr = r->nr_jobs;

	if (!nr) { /* no per-job numbers: the process as one worker */
		if (r->seconds <= 0)
			return;
		busiest = (r->cpu.user_s + r->cpu.sys_s) / r->seconds;
		bound = busiest >= CPU_BOUND_FRAC;
		nr = 1;
	}
	for (i = 0; i < r->nr_jobs; i++) {
		const struct job_result *j = &r->jobs[i];
		double s = j->seconds > 0 ? j->seconds : r->seconds;

		if (s <= 0)
			continue;
		frac = (j->user_s + j->sys_s) / s;
		if (frac > busiest)
			busiest = frac;
		bound += frac >= CPU_BOUND_FRAC;
	}
	if (bound < nr)
		return;
	run_result_warn(r,
			"the workers were CPU-bound: %s%u used at least %.0f%% "
			"of a core (busiest %.0f%%), so this measured the CPU "
			"as much as the device; %s",
			nr > 1 ? "all " : "", nr, CPU_BOUND_FRAC * 100.0,
			busiest * 100.0,
			o->cpu_bound_advice ? o->cpu_bound_advice
					    : "try an async engine, larger "
					      "blocks or more jobs");
}

/* "the run too short to trust" */
static void warn_short(struct run_result *r, const struct truth_opts *o)
{
	uint64_t ops = run_result_ops(r);

	if (r->io_uncounted) {
		/* a command's I/O is its own business: only its time */
		if (r->seconds < SHORT_RUN_SECONDS)
			run_result_warn(r,
					"the run was too short to trust: the "
					"command took %.3f s, want at least "
					"%.0f s; give it more work",
					r->seconds, SHORT_RUN_SECONDS);
		return;
	}
	if (r->seconds >= SHORT_RUN_SECONDS && ops >= SHORT_RUN_OPS)
		return;
	run_result_warn(r,
			"the run was too short to trust: %.3f s and %llu I/Os, "
			"want at least %.0f s and %u I/Os; %s",
			r->seconds, (unsigned long long)ops, SHORT_RUN_SECONDS,
			SHORT_RUN_OPS,
			o->short_run_advice
			    ? o->short_run_advice
			    : "use a longer --time or more --ios");
}

/* "other I/O on the device": far more device traffic than ours. */
static void warn_other_io(const struct truth *t, struct run_result *r)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;
	uint64_t our_r = t->logical_read_bytes, our_w = t->logical_write_bytes;
	int reads, writes;

	/* a command's I/O is not ours to count: all of it may be its */
	if (!t->have_device || r->io_uncounted)
		return;
	if (t->have_procio && t->process_read_bytes > our_r)
		our_r = t->process_read_bytes;
	if (t->have_procio && t->process_write_bytes > our_w)
		our_w = t->process_write_bytes;
	reads = (double)t->device_read_bytes >
		OTHER_READ_FACTOR * (double)our_r + (double)OTHER_READ_SLACK;
	writes = (double)t->device_write_bytes >
		 OTHER_WRITE_FACTOR * (double)our_w + (double)OTHER_WRITE_SLACK;
	if (reads)
		run_result_warn(r,
				"other I/O ran on '%s' during the run: it "
				"delivered %s of reads, the workload accounts "
				"for %s; stop other readers or use an idle "
				"device",
				t->device, fmt_bytes(&a, t->device_read_bytes),
				fmt_bytes(&b, our_r));
	if (writes)
		run_result_warn(r,
				"other I/O ran on '%s' during the run: it took "
				"%s of writes, the workload accounts for %s "
				"(dirty memory was %s when the run began); "
				"let earlier writes settle (sync) or use an "
				"idle device",
				t->device, fmt_bytes(&a, t->device_write_bytes),
				fmt_bytes(&b, our_w),
				fmt_bytes(&c, t->dirty_start_bytes));
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
}

/* Is a loop device part of t's stack? */
static int has_loop(const struct truth *t)
{
	unsigned i;

	for (i = 0; i < t->nr_devs; i++)
		if (t->devs[i].kind && !strcmp(t->devs[i].kind, "loop"))
			return 1;
	return 0;
}

/*
 * "reads never reached vda": the top device moved far more than the
 * disk under it, so its bytes came from no disk. dir is "reads" or
 * "writes"; top and bottom the bytes each moved.
 */
static void warn_unreached_dir(const struct truth *t, struct run_result *r,
			       const char *dir, uint64_t top, uint64_t bottom)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	int reads = !strcmp(dir, "reads"), loop = has_loop(t);
	const char *why;

	if (top < UNREACHED_MIN_BYTES ||
	    (double)bottom >= UNREACHED_FRAC * (double)top)
		return;
	if (loop && reads)
		why = "the loop device's image has holes or unwritten extents "
		      "(they read as zeros without I/O) or its backing file "
		      "was in the host page cache; write the region before "
		      "reading it (iotrial does so on scratch targets) or "
		      "attach the loop device with direct I/O";
	else if (loop)
		why = "the loop device's backing file kept them in the host "
		      "page cache (a loop device without direct I/O); attach "
		      "it with direct I/O (losetup --direct-io=on) or sync "
		      "inside the run";
	else
		why = "a layer between them answered from memory or mapped "
		      "the I/O to no disk; 'iotrial info -t TARGET' shows the "
		      "stack";
	run_result_warn(
	    r,
	    "%s%s never reached '%s': '%s' %s %s, '%s' %s (%.1f%%), "
	    "so this measured memory, not the disk: %s",
	    (double)bottom < NEVER_FRAC * (double)top ? "" : "most ", dir,
	    t->bottom_device, t->device, reads ? "delivered" : "took",
	    fmt_bytes(&a, top), t->bottom_device, fmt_bytes(&b, bottom),
	    100.0 * (double)bottom / (double)top, why);
	strbuf_release(&a);
	strbuf_release(&b);
}

/* Reads or writes of the top device that the bottom never saw. */
static void warn_unreached(const struct truth *t, struct run_result *r)
{
	if (!t->have_device || !t->have_bottom ||
	    !strcmp(t->device, t->bottom_device))
		return;
	warn_unreached_dir(t, r, "reads", t->device_read_bytes,
			   t->bottom_read_bytes);
	warn_unreached_dir(t, r, "writes", t->device_write_bytes,
			   t->bottom_write_bytes);
}

void truth_warn(const struct truth *t, struct run_result *r,
		const struct truth_opts *o, uint64_t mem_total_bytes)
{
	static const struct truth_opts none;

	if (!o)
		o = &none;
	warn_cached_reads(t, r, o, mem_total_bytes);
	warn_absorbed(t, r, o);
	warn_cpu_bound(r, o);
	warn_short(r, o);
	warn_other_io(t, r);
	warn_unreached(t, r);
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
