/*
 * The warnings device truth gives a run (truth_warn(), truth.h): reads
 * served from the page cache, writes the cache absorbed, a workload
 * bound by the CPU, a run too short to trust, other I/O on the device,
 * a device stack whose bottom did not move, a machine whose hypervisor
 * took much of its CPU. Each says what it saw and what would help,
 * naming only options the workload has (truth_opts.lacks).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "truth.h"
#include "../result/steal.h"
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
#define STEAL_WARN_FRAC	     0.20	/* of the machine's CPU time */

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

/*
 * "the hypervisor took 30% of the machine's CPU time": on a shared VM
 * the neighbours' load reaches a run through the CPU it is not given,
 * and one run cannot say how much that cost it. Judged over the
 * machine's CPU time (every CPU) and only when there is a second of
 * it, as the covariate is (result/steal.h).
 */
static void warn_steal(struct run_result *r)
{
	double total = r->cpu.system_total_s, steal = r->cpu.system_steal_s;

	if (!(run_steal_share(steal, total) >= STEAL_WARN_FRAC))
		return;
	run_result_warn(r,
			"the hypervisor took %.0f%% of the machine's CPU time "
			"during the run (%.2f s of %.2f s) for other guests: "
			"this run measured its neighbours too, by an amount "
			"one run cannot tell; compare's blocks and --duet "
			"spread such noise over every setting",
			100.0 * steal / total, steal, total);
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
	warn_steal(r);
}
