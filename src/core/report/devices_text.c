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
#include "devices_text.h"
#include "expjson.h"
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of n values (sorts v); NaN when n is 0. */
static double median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

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
static int drop_failed(struct json_object *exp)
{
	struct json_object *w =
	    expjson_get_type(exp, "warnings", json_type_array);
	size_t i, n = w ? json_object_array_length(w) : 0;
	const char *s;

	for (i = 0; i < n; i++) {
		s = json_object_get_string(json_object_array_get_idx(w, i));
		if (s && strstr(s, "could not drop caches"))
			return 1;
	}
	return 0;
}

/*
 * After "scheduler was set on 'loop1'": when loop1 is a loop device of
 * the experiment's stack, that its own queue is meant, not that of the
 * disk under its backing file (named, with the scheduler it kept when
 * the scheduler is among the knobs, sched set): the two are easily
 * taken for one.
 */
static void add_loop_queue(struct json_object *exp, const char *obj, int sched,
			   struct strbuf *out)
{
	struct json_object *stack =
	    expjson_get_type(expjson_env(exp), "stack", json_type_object);
	struct json_object *devs =
	    expjson_get_type(stack, "devices", json_type_array);
	struct json_object *loop = NULL, *below = NULL;
	size_t i, n = devs ? json_object_array_length(devs) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *d = json_object_array_get_idx(devs, i);

		if (!strcmp(expjson_str(d, "name"), obj) &&
		    !strcmp(expjson_str(d, "kind"), "loop"))
			loop = d;
		if (!strcmp(expjson_str(d, "parent"), obj) &&
		    !strcmp(expjson_str(d, "via"), "backing"))
			below = d;
	}
	if (!loop)
		return;
	strbuf_addstr(out, ", the loop device's own queue");
	if (!below)
		return;
	strbuf_addf(out, ", not that of '%s' under its backing file",
		    expjson_str(below, "name"));
	if (sched && *expjson_str(below, "scheduler"))
		strbuf_addf(out, " (whose scheduler stayed %s)",
			    expjson_str(below, "scheduler"));
}

/*
 * "; read_ahead_kb and scheduler were set on 'loop1'" (and "for the
 * whole system" for system knobs): the knob factors that say where
 * they were set, grouped by where.
 */
static void add_places(struct json_object *exp, struct strbuf *out)
{
	struct json_object *f =
	    expjson_get_type(exp, "factors", json_type_array);
	size_t n = f ? json_object_array_length(f) : 0, i, j, k;

	for (i = 0; i < n; i++) {
		struct json_object *fi = json_object_array_get_idx(f, i);
		const char *obj = expjson_str(fi, "object");
		size_t names = 0, total = 0;
		int sched = 0, queue = 0;

		if (strcmp(expjson_str(fi, "kind"), "knob") || !*obj)
			continue;
		for (j = 0; j < i; j++) /* said with an earlier factor */
			if (!strcmp(expjson_str(json_object_array_get_idx(f, j),
						"object"),
				    obj))
				break;
		if (j < i)
			continue;
		for (k = i; k < n; k++)
			total +=
			    !strcmp(expjson_str(json_object_array_get_idx(f, k),
						"object"),
				    obj);
		strbuf_addstr(out, "; ");
		for (k = i; k < n; k++) {
			struct json_object *fk =
			    json_object_array_get_idx(f, k);

			if (strcmp(expjson_str(fk, "object"), obj))
				continue;
			names++;
			sched |= !strcmp(expjson_str(fk, "canonical"),
					 "scheduler") ||
				 !strncmp(expjson_str(fk, "canonical"),
					  "iosched.", 8);
			/* read-ahead is the loop device's own to set */
			queue |= strcmp(expjson_str(fk, "canonical"),
					"read_ahead_kb") &&
				 !strcmp(expjson_str(fk, "scope"), "device");
			strbuf_addf(out, "%s%s",
				    names == 1	     ? ""
				    : names == total ? " and "
						     : ", ",
				    expjson_str(fk, "name"));
		}
		if (!strcmp(obj, "system"))
			strbuf_addf(out, " %s set for the whole system",
				    total == 1 ? "was" : "were");
		else
			strbuf_addf(out, " %s set on '%s'",
				    total == 1 ? "was" : "were", obj);
		if (queue)
			add_loop_queue(exp, obj, sched, out);
	}
}

void report_experiment_devices(struct json_object *exp, struct strbuf *out)
{
	static const char *const keys[2][NR_COLS] = {
	    {"logical_read_bytes", "device_read_bytes", "bottom_read_bytes",
	     "process_read_bytes"},
	    {"logical_write_bytes", "device_write_bytes", "bottom_write_bytes",
	     "process_write_bytes"},
	};
	struct json_object *runs =
	    expjson_get_type(exp, "runs", json_type_array);
	size_t n = runs ? json_object_array_length(runs) : 0, i, have = 0,
	       nb = 0;
	double *v[2][NR_COLS], m[2][NR_COLS];
	const char *top = NULL, *bottom = NULL;
	struct json_object *drop;
	int d, c, said = 0; /* the processes' counters were named */

	/* a single run's summary has its device truth in full */
	if (!n || expjson_single_run(exp))
		return;
	for (d = 0; d < 2; d++)
		for (c = 0; c < NR_COLS; c++)
			v[d][c] = xcalloc(n, sizeof(double));
	for (i = 0; i < n; i++) {
		struct json_object *t = expjson_get(
		    expjson_get(json_object_array_get_idx(runs, i), "run"),
		    "truth");

		if (!*expjson_str(t, "device") ||
		    isnan(expjson_num(t, "device_read_bytes")))
			continue;
		if (!top)
			top = expjson_str(t, "device");
		/* the bottom counts only when every run has it */
		if (*expjson_str(t, "bottom_device") &&
		    !isnan(expjson_num(t, "bottom_read_bytes"))) {
			if (!bottom)
				bottom = expjson_str(t, "bottom_device");
			nb++;
		}
		for (d = 0; d < 2; d++)
			for (c = 0; c < NR_COLS; c++)
				v[d][c][have] = expjson_num(t, keys[d][c]);
		have++;
	}
	if (nb != have || (bottom && top && !strcmp(bottom, top)))
		bottom = NULL;
	for (d = 0; d < 2; d++)
		for (c = 0; c < NR_COLS; c++)
			m[d][c] = median(v[d][c], have);
	if (have) {
		strbuf_addf(out, "\nmeasured: per run (median of %zu run%s)",
			    have, have == 1 ? "" : "s");
		if (m[0][COL_LOGICAL] > 0 || m[0][COL_TOP] > 0 ||
		    !(m[1][COL_LOGICAL] > 0 || m[1][COL_PROCESS] > 0))
			add_direction(out, "read", "delivered", top, bottom,
				      m[0], &said);
		if (m[1][COL_LOGICAL] > 0 || m[1][COL_PROCESS] > 0)
			add_direction(out, "wrote", "took", top, bottom, m[1],
				      &said);
		drop = expjson_get_type(exp, "drop_caches", json_type_boolean);
		if (drop && json_object_get_boolean(drop) && !drop_failed(exp))
			strbuf_addstr(out, "; the page cache was dropped "
					   "before each run");
		add_places(exp, out);
		strbuf_addch(out, '\n');
	}
	for (d = 0; d < 2; d++)
		for (c = 0; c < NR_COLS; c++)
			free(v[d][c]);
}
