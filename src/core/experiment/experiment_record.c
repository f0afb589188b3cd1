/*
 * What one run leaves in the experiment loop's state, for the loop that
 * runs the arms one after another (experiment_loop.c) and for a duet
 * block that runs them at once (experiment_duet.c): the run's entry in
 * the experiment object, its arm's knob settings, and the time a run
 * takes from here on.
 */
#include <math.h>
#include "experiment.h"
#include "experiment-int.h"
#include "covariates.h"
#include "result_json.h"
#include "../model/model_tree.h"
#include "../../util/clock.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/*
 * Seconds a run takes from here on: the mean of the runs after the first
 * block, which reuse its files; before there are any, the first block's
 * without the set-up it did once (laying out those files). -1 before any
 * run.
 */
double exp_run_s_estimate(const struct exp_loop *l)
{
	double s = l->first_s - l->once_s;

	if (l->runs_done > l->first_runs)
		return (l->run_s_sum - l->first_s) /
		       (l->runs_done - l->first_runs);
	if (!l->runs_done)
		return -1;
	return (s > 0 ? s : l->first_s) / l->runs_done;
}
/* The knob settings of arm, as knob_setting pairs for the run object. */
unsigned exp_knob_settings(const struct experiment_arm *a, unsigned nr,
			   struct knob_setting *out)
{
	unsigned i, n = 0;

	for (i = 0; i < nr; i++)
		if (a->settings[i].is_knob) {
			out[n].name = a->settings[i].name;
			out[n].value = a->settings[i].canon
					   ? a->settings[i].canon
					   : a->settings[i].value;
			n++;
		}
	return n;
}

/* The covariates of the run object runobj (covariates.h), read from
 * its document; NaN for each when it does not decode (none of ours). */
static void run_doc_covariates(struct json_object *runobj, double *cov)
{
	struct strbuf err = STRBUF_INIT;
	struct run_doc doc;

	if (run_doc_from_tree(runobj, &doc, 0, &err))
		run_covariates(NULL, cov);
	else
		run_covariates(&doc, cov);
	run_doc_release(&doc);
	strbuf_release(&err);
}

/* The "covariates" member of a run entry: {name: value} for the nr
 * names and values given (NaN as null). */
static struct json_object *covariates_tree(const char *const *names,
					   const double *values, unsigned nr)
{
	struct json_object *o = json_object_new_object();
	unsigned c;

	for (c = 0; c < nr; c++)
		json_object_object_add(o, names[c],
				       isfinite(values[c])
					   ? json_object_new_double(values[c])
					   : NULL);
	return o;
}

/* Add the run runobj of arm in block to the experiment object, with its
 * metric and, for a duet run, its place; tally its warnings. */
void exp_record_json(struct exp_loop *l, unsigned arm, int block, double metric,
		     struct json_object *runobj, int place)
{
	struct json_object *runs = json_object_object_get(l->e->obj, "runs");
	struct json_object *run = json_object_new_object();
	struct json_object *w, *kinds;
	struct arm_warn *aw = &l->warns[arm];
	unsigned i, nr, seen = 0; /* the kinds this run's warnings have */
	double cov[RUN_NR_COV];

	json_object_object_add(run, "arm", json_object_new_int((int)arm));
	json_object_object_add(run, "block", json_object_new_int(block));
	json_object_object_add(
	    run, "seq",
	    json_object_new_int((int)json_object_array_length(runs)));
	json_object_object_add(run, "metric", json_object_new_double(metric));
	if (place >= 0)
		json_object_object_add(run, "place",
				       json_object_new_int(place));
	json_object_object_add(run, "run", runobj);
	run_doc_covariates(runobj, cov);
	/* a duet's other runs are among the tasks that were not this
	 * run's: the other arm's work, which its setting moves */
	if (place >= 0)
		cov[1] = NAN;
	json_object_object_add(run, "covariates",
			       covariates_tree(run_cov_names, cov, RUN_NR_COV));
	json_object_array_add(runs, run);
	aw->runs++;
	w = json_object_object_get(runobj, "warnings");
	kinds = json_object_object_get(runobj, "warning_kinds");
	nr = json_object_is_type(w, json_type_array)
		 ? (unsigned)json_object_array_length(w)
		 : 0;
	if (nr)
		aw->warned++;
	for (i = 0; i < nr; i++) {
		const char *text =
		    json_object_get_string(json_object_array_get_idx(w, i));
		struct json_object *kn =
		    json_object_is_type(kinds, json_type_array)
			? json_object_array_get_idx(kinds, i)
			: NULL;
		enum run_warn_kind k =
		    kn ? run_warn_kind_parse(json_object_get_string(kn))
		       : run_warn_kind_of_text(text ? text : "");

		if ((unsigned)k >= RUN_WARN_KINDS)
			k = RUN_WARN_UNKNOWN;
		if (seen & (1u << k))
			continue;
		seen |= 1u << k;
		aw->kind_runs[k]++;
		if (!aw->example[k])
			aw->example[k] = xstrdup(text ? text : "");
	}
}

/*
 * Drop the caches before a run, when the experiment asks it; the first
 * time that fails, warn in the experiment object and try no more.
 */
void exp_drop_caches(struct exp_loop *l)
{
	if (!l->c->drop_caches || !l->drop_ok || experiment_drop_caches() >= 0)
		return;
	l->drop_ok = 0;
	json_object_array_add(
	    json_object_object_get(l->e->obj, "warnings"),
	    json_object_new_string("could not drop caches between runs; runs "
				   "may start with a warm page cache"));
}

/*
 * Count n runs of block that began at t0_ns (clock_now_ns()) and end now
 * for the time a run takes; a warm-up's and the first block's apart.
 */
void exp_count_runs(struct exp_loop *l, unsigned n, int block, uint64_t t0_ns)
{
	double s = (double)(clock_now_ns() - t0_ns) / 1e9;

	l->runs_done += n;
	l->run_s_sum += s;
	if (block <= 0) {
		l->first_runs += n;
		l->first_s += s;
	}
}
