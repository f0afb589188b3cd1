/*
 * What one run leaves in the experiment loop's state, for the loop that
 * runs the arms one after another (experiment_loop.c) and for a duet
 * block that runs them at once (experiment_duet.c): the run's entry in
 * the experiment document, its arm's knob settings, and the time a run
 * takes from here on.
 */
#include <math.h>
#include <string.h>
#include "experiment.h"
#include "experiment-int.h"
#include "covariates.h"
#include "result_json.h"
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

/* The run's "covariates": {name: value} for the nr names and values
 * given (NaN prints as null). */
static void covariates_doc(struct exp_run *run, const char *const *names,
			   const double *values, unsigned nr)
{
	unsigned c;

	run->covariates = xcalloc(nr + 1, sizeof(*run->covariates));
	for (c = 0; c < nr; c++) {
		run->covariates[c].name = xstrdup(names[c]);
		run->covariates[c].value = values[c];
	}
	run->nr_covariates = nr;
	run->has_covariates = MODEL_SET;
}

/* Count the kinds of the run's warnings in its arm's tallies. */
static void tally_warnings(struct arm_warn *aw, const struct run_doc *run)
{
	unsigned seen = 0; /* the kinds this run's warnings have */
	size_t i;

	aw->runs++;
	if (run->nr_warnings)
		aw->warned++;
	for (i = 0; i < run->nr_warnings; i++) {
		const char *text = run->warnings[i] ? run->warnings[i] : "";
		enum run_warn_kind k =
		    i < run->nr_warning_kinds && run->warning_kinds[i]
			? run_warn_kind_parse(run->warning_kinds[i])
			: run_warn_kind_of_text(text);

		if ((unsigned)k >= RUN_WARN_KINDS)
			k = RUN_WARN_UNKNOWN;
		if (seen & (1u << k))
			continue;
		seen |= 1u << k;
		aw->kind_runs[k]++;
		if (!aw->example[k])
			aw->example[k] = xstrdup(text);
	}
}

/* Add the run of arm in block to the experiment, with its metric and,
 * for a duet run, its place; tally its warnings. */
void exp_record(struct exp_loop *l, unsigned arm, int block, double metric,
		struct run_doc *run, int place)
{
	struct experiment_doc *d = l->e->doc;
	struct exp_run *r;
	double cov[RUN_NR_COV];

	d->runs = xrealloc(d->runs, (d->nr_runs + 1) * sizeof(*d->runs));
	r = &d->runs[d->nr_runs];
	memset(r, 0, sizeof(*r));
	r->arm = arm;
	r->block = block;
	r->has_block = MODEL_SET;
	r->seq = (int64_t)d->nr_runs;
	r->metric = metric;
	if (place >= 0) {
		r->place = place;
		r->has_place = MODEL_SET;
	}
	r->run = run;
	d->nr_runs++;
	run_covariates(run, cov);
	/* a duet's other runs are among the tasks that were not this
	 * run's: the other arm's work, which its setting moves */
	if (place >= 0)
		cov[1] = NAN;
	covariates_doc(r, run_cov_names, cov, RUN_NR_COV);
	tally_warnings(&l->warns[arm], run);
}

/*
 * Drop the caches before a run, when the experiment asks it; the first
 * time that fails, warn in the experiment and try no more.
 */
void exp_drop_caches(struct exp_loop *l)
{
	if (!l->c->drop_caches || !l->drop_ok || experiment_drop_caches() >= 0)
		return;
	l->drop_ok = 0;
	experiment_doc_add_warning(
	    l->e->doc,
	    "could not drop caches between runs; runs may start with "
	    "a warm page cache");
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
