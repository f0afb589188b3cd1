/*
 * The "measured:" line under an experiment's table; see devices_text.h.
 * It reads only the experiment object: each run's truth (device,
 * bottom_device and their byte counts), the medians taken here. A
 * workload that counts none of its I/O (exec's command) or not its
 * reads (mmapdirty's page faults) is given by its processes' I/O
 * counters instead: what they fetched from storage and dirtied.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sections.h"
#include "report_doc.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The byte counts of one direction, one per run with a device truth. */
enum dev_col {
	COL_LOGICAL, /* what the workload read or wrote */
	COL_TOP,     /* what the top device moved */
	COL_BOTTOM,  /* what the disk at the bottom moved */
	COL_PROCESS, /* what the process tree fetched or dirtied */
	NR_COLS,
};

/* A byte count as "1.5 GiB"; "an unknown amount" for what a stored
 * object (imported, edited) has as no count of bytes: NaN, negative, or
 * beyond 2^64, where the cast would be undefined. */
static void add_bytes(struct strbuf *out, double v)
{
	if (v >= 0 && v < 18446744073709551616.0)
		units_fmt_bytes(out, (uint64_t)v);
	else
		strbuf_addstr(out, "an unknown amount");
}

/* ", the workload read 1.5 GiB, 'loop0' delivered 1.5 GiB and 'vda' (the
 * disk under it) 1.4 GiB" for one direction's medians; *said is set once
 * the processes' counters stood in for the workload's. */
static void add_direction(struct strbuf *out, const char *verb,
			  const char *top_verb, const char *top,
			  const char *bottom, const double m[NR_COLS],
			  int *said)
{
	if (!(m[COL_LOGICAL] > 0) && m[COL_PROCESS] > 0) {
		/* uncounted by the workload: its processes' counters
		 * ("they" when the reads said so already) */
		strbuf_addf(out, ", %s %s ",
			    *said ? "they" : "the workload's processes",
			    !strcmp(verb, "read") ? "fetched" : "dirtied");
		add_bytes(out, m[COL_PROCESS]);
		if (!strcmp(verb, "read"))
			strbuf_addstr(out, " from storage");
		*said = 1;
	} else {
		strbuf_addf(out, ", the workload %s ", verb);
		add_bytes(out, m[COL_LOGICAL]);
	}
	strbuf_addf(out, ", '%s' %s ", top, top_verb);
	add_bytes(out, m[COL_TOP]);
	if (bottom && isfinite(m[COL_BOTTOM])) {
		strbuf_addf(out, " and '%s' (the disk under it) ", bottom);
		add_bytes(out, m[COL_BOTTOM]);
	}
}

/* Did dropping the caches fail during exp (its warning says so)? */
static int drop_failed(const struct experiment_doc *doc)
{
	size_t i;

	for (i = 0; i < doc->nr_warnings; i++)
		if (strstr(doc->warnings[i], "could not drop caches"))
			return 1;
	return 0;
}

/*
 * After "scheduler was set on 'loop1'": when loop1 is a loop device of
 * the experiment's stack, that its own queue is meant, not that of the
 * disk under its backing file (named, with the scheduler it kept when
 * the scheduler is among the knobs, sched set): the two are easily
 * taken for one.
 */
static void add_loop_queue(const struct experiment_doc *doc, const char *obj,
			   int sched, struct strbuf *out)
{
	const struct env_doc *env = report_env(doc);
	const struct env_stack *stack = env ? env->stack : NULL;
	const struct env_device *loop = NULL, *below = NULL;
	size_t i;

	for (i = 0; stack && i < stack->nr_devices; i++) {
		const struct env_device *d = &stack->devices[i];

		if (!strcmp(rd_s(d->name), obj) &&
		    !strcmp(rd_s(d->kind), "loop"))
			loop = d;
		if (!strcmp(rd_s(d->parent), obj) &&
		    !strcmp(rd_s(d->via), "backing"))
			below = d;
	}
	if (!loop)
		return;
	strbuf_addstr(out, ", the loop device's own queue");
	if (!below)
		return;
	strbuf_addf(out, ", not that of '%s' under its backing file",
		    rd_s(below->name));
	if (sched && below->scheduler && *below->scheduler)
		strbuf_addf(out, " (whose scheduler stayed %s)",
			    below->scheduler);
}

/*
 * "; read_ahead_kb and scheduler were set on 'loop1'" (and "for the
 * whole system" for system knobs): the knob factors that say where
 * they were set, grouped by where.
 */
static void add_places(const struct experiment_doc *doc, struct strbuf *out)
{
	const struct exp_factor *f = doc->factors;
	size_t n = doc->nr_factors, i, j, k;

	for (i = 0; i < n; i++) {
		const char *obj = rd_s(f[i].object);
		size_t names = 0, total = 0;
		int sched = 0, queue = 0;

		if (strcmp(rd_s(f[i].kind), "knob") || !*obj)
			continue;
		for (j = 0; j < i; j++) /* said with an earlier factor */
			if (!strcmp(rd_s(f[j].object), obj))
				break;
		if (j < i)
			continue;
		for (k = i; k < n; k++)
			total += !strcmp(rd_s(f[k].object), obj);
		strbuf_addstr(out, "; ");
		for (k = i; k < n; k++) {
			const char *canon = rd_s(f[k].canonical);

			if (strcmp(rd_s(f[k].object), obj))
				continue;
			names++;
			sched |= !strcmp(canon, "scheduler") ||
				 !strncmp(canon, "iosched.", 8);
			/* read-ahead is the loop device's own to set */
			queue |= strcmp(canon, "read_ahead_kb") &&
				 !strcmp(rd_s(f[k].scope), "device");
			strbuf_addf(out, "%s%s",
				    names == 1	     ? ""
				    : names == total ? " and "
						     : ", ",
				    rd_s(f[k].name));
		}
		if (!strcmp(obj, "system"))
			strbuf_addf(out, " %s set for the whole system",
				    total == 1 ? "was" : "were");
		else
			strbuf_addf(out, " %s set on '%s'",
				    total == 1 ? "was" : "were", obj);
		if (queue)
			add_loop_queue(doc, obj, sched, out);
	}
}

/* A byte count of a truth, NaN when it was not recorded. */
#define TRUTH_NUM(t, f) ((t)->has_##f == MODEL_SET ? (double)(t)->f : NAN)

/* The byte counts of runs' truth t, [direction][column]. */
static void truth_counts(const struct truth_doc *t, double c[2][NR_COLS])
{
	c[0][COL_LOGICAL] = (double)t->logical_read_bytes;
	c[0][COL_TOP] = TRUTH_NUM(t, device_read_bytes);
	c[0][COL_BOTTOM] = TRUTH_NUM(t, bottom_read_bytes);
	c[0][COL_PROCESS] = TRUTH_NUM(t, process_read_bytes);
	c[1][COL_LOGICAL] = (double)t->logical_write_bytes;
	c[1][COL_TOP] = TRUTH_NUM(t, device_write_bytes);
	c[1][COL_BOTTOM] = TRUTH_NUM(t, bottom_write_bytes);
	c[1][COL_PROCESS] = TRUTH_NUM(t, process_write_bytes);
}

/* The truth of run i of doc that has a device, or NULL. */
static const struct truth_doc *device_truth(const struct experiment_doc *doc,
					    size_t i)
{
	const struct run_doc *r = doc->runs[i].run;
	const struct truth_doc *t = r ? r->truth : NULL;

	return t && t->device && *t->device &&
		       t->has_device_read_bytes == MODEL_SET
		   ? t
		   : NULL;
}

bool report_devices_present(const struct experiment_doc *doc)
{
	size_t i;

	/* a single run's summary has its device truth in full */
	if (report_single_run(doc))
		return false;
	for (i = 0; i < doc->nr_runs; i++)
		if (device_truth(doc, i))
			return true;
	return false;
}

/*
 * "measured: per run (median of N runs), the workload read 1.5 GiB,
 * 'loop0' delivered 1.5 GiB and 'vda' (the disk under it) 1.5 GiB; the
 * page cache was dropped before each run", then where each knob factor
 * was set.
 */
void report_devices_section(const struct experiment_doc *doc, struct emit *e)
{
	size_t n = doc->nr_runs, i, have = 0, nb = 0;
	double *v[2][NR_COLS], m[2][NR_COLS], c[2][NR_COLS];
	const char *top = NULL, *bottom = NULL;
	struct strbuf out = STRBUF_INIT;
	int d, k, said = 0; /* the processes' counters were named */

	for (d = 0; d < 2; d++)
		for (k = 0; k < NR_COLS; k++)
			v[d][k] = xcalloc(n, sizeof(double));
	for (i = 0; i < n; i++) {
		const struct truth_doc *t = device_truth(doc, i);

		if (!t)
			continue;
		if (!top)
			top = t->device;
		/* the bottom counts only when every run has it */
		if (t->bottom_device && *t->bottom_device &&
		    t->has_bottom_read_bytes == MODEL_SET) {
			if (!bottom)
				bottom = t->bottom_device;
			nb++;
		}
		truth_counts(t, c);
		for (d = 0; d < 2; d++)
			for (k = 0; k < NR_COLS; k++)
				v[d][k][have] = c[d][k];
		have++;
	}
	if (nb != have || (bottom && top && !strcmp(bottom, top)))
		bottom = NULL;
	for (d = 0; d < 2; d++)
		for (k = 0; k < NR_COLS; k++)
			m[d][k] = report_median(v[d][k], have);
	strbuf_addf(&out, "measured: per run (median of %zu run%s)", have,
		    have == 1 ? "" : "s");
	if (m[0][COL_LOGICAL] > 0 || m[0][COL_TOP] > 0 ||
	    !(m[1][COL_LOGICAL] > 0 || m[1][COL_PROCESS] > 0))
		add_direction(&out, "read", "delivered", top, bottom, m[0],
			      &said);
	if (m[1][COL_LOGICAL] > 0 || m[1][COL_PROCESS] > 0)
		add_direction(&out, "wrote", "took", top, bottom, m[1], &said);
	if (doc->has_drop_caches == MODEL_SET && doc->drop_caches &&
	    !drop_failed(doc))
		strbuf_addstr(&out, "; the page cache was dropped before each "
				    "run");
	add_places(doc, &out);
	emit_gap(e);
	emit_line(e, "%s", out.buf);
	strbuf_release(&out);
	for (d = 0; d < 2; d++)
		for (k = 0; k < NR_COLS; k++)
			free(v[d][k]);
}
