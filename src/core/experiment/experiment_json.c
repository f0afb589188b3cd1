/*
 * Experiment objects made from runs, and their analysis. The runs are
 * the record; arms' summaries and verdicts are derived, so they are
 * rebuilt here from "runs" whenever runs change (after compare, after an
 * import), and never edited by hand. experiment_build() is the one way
 * to make an experiment object from runs measured before (an import, a
 * single run, diff's two arms); the experiment loop writes its own as it
 * goes.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "experiment.h"
#include "covariates.h"
#include "factorial.h"
#include "scaling.h"
#include "result_json.h"
#include "regime.h"
#include "../model/model_tree.h"
#include "../report/suspect.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

static void add_str(struct json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, json_object_new_string(v));
}

/* One factor "arm" of kind whose values are the labels of src's arms. */
static struct json_object *arm_factors(const struct experiment_src *src)
{
	struct json_object *factors = json_object_new_array();
	struct json_object *factor = json_object_new_object();
	struct json_object *values = json_object_new_array();
	size_t a;

	for (a = 0; a < src->nr_arms; a++)
		json_object_array_add(
		    values, json_object_new_string(src->arms[a].label));
	add_str(factor, "name", "arm");
	add_str(factor, "kind", src->factor_kind);
	json_object_object_add(factor, "values", values);
	json_object_array_add(factors, factor);
	return factors;
}

struct json_object *experiment_build(const struct experiment_src *src)
{
	struct json_object *exp = json_object_new_object();
	struct json_object *metric = json_object_new_object();
	struct json_object *arms = json_object_new_array();
	struct json_object *runs = json_object_new_array();
	size_t a, i, seq = 0, most = 0;

	add_str(exp, "schema", RESULT_SCHEMA);
	add_str(exp, "type", "experiment");
	add_str(exp, "id", src->id ? src->id : "");
	add_str(exp, "workload", src->workload);
	add_str(exp, "target", src->target);
	if (src->params)
		json_object_object_add(exp, "params",
				       json_object_get(src->params));
	add_str(exp, "seed", src->seed);
	add_str(metric, "name", src->metric);
	json_object_object_add(metric, "higher_is_better",
			       json_object_new_boolean(src->higher_is_better));
	if (src->metric_unit)
		add_str(metric, "unit", src->metric_unit);
	json_object_object_add(exp, "metric", metric);
	if (src->factor_kind)
		json_object_object_add(exp, "factors", arm_factors(src));
	json_object_object_add(exp, "baseline", json_object_new_int(0));
	for (a = 0; a < src->nr_arms; a++) {
		const struct experiment_src_arm *sa = &src->arms[a];
		struct json_object *arm = json_object_new_object();

		json_object_object_add(arm, "arm", json_object_new_int((int)a));
		add_str(arm, "label", sa->label);
		if (src->factor_kind)
			json_object_object_add(arm, "settings",
					       json_object_new_object());
		json_object_array_add(arms, arm);
		for (i = 0; i < sa->nr; i++) {
			const struct experiment_src_run *r = &sa->runs[i];
			struct json_object *run = json_object_new_object();

			json_object_object_add(run, "arm",
					       json_object_new_int((int)a));
			json_object_object_add(
			    run, "seq",
			    json_object_new_int(r->seq < 0 ? (int)seq
							   : r->seq));
			seq++;
			json_object_object_add(
			    run, "metric", json_object_new_double(r->metric));
			if (r->source)
				add_str(run, "source", r->source);
			if (r->run)
				json_object_object_add(run, "run",
						       json_object_get(r->run));
			json_object_array_add(runs, run);
		}
		if (sa->nr > most)
			most = sa->nr;
	}
	json_object_object_add(exp, "arms", arms);
	json_object_object_add(exp, "runs", runs);
	json_object_object_add(exp, "blocks", json_object_new_int((int)most));
	add_str(exp, "stopped", src->stopped);
	if (src->runs_mode)
		add_str(exp, "runs_mode", src->runs_mode);
	if (src->warnings)
		json_object_object_add(exp, "warnings",
				       json_object_new_array());
	if (src->env)
		json_object_object_add(exp, "env", json_object_get(src->env));
	return exp;
}

/* One arm's collected values while reading "runs". */
struct arm_values {
	double *values;
	unsigned *blocks;
	double *cov; /* RUN_NR_COV per value */
	size_t n, alloc, alloc_b, alloc_c;
};

static int get_int(struct json_object *o, const char *key, int *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v ||
	    (json_object_get_type(v) != json_type_int &&
	     json_object_get_type(v) != json_type_double))
		return -EINVAL;
	*out = json_object_get_int(v);
	return 0;
}

/* Copy the summary keys of s into the arm object a. */
static void merge_summary(struct json_object *a, struct json_object *s)
{
	json_object_object_foreach(s, key, val)
	{
		if (!strcmp(key, "arm") || !strcmp(key, "label"))
			continue;
		json_object_object_add(a, key, json_object_get(val));
	}
}

int experiment_analyze_json(struct json_object *exp,
			    const struct analysis_opts *o, struct strbuf *err)
{
	struct json_object *arms, *runs, *metric, *hib;
	struct analysis_opts opts = *o;
	struct analysis_arm *in = NULL;
	struct arm_values *vals = NULL;
	struct analysis an = {0};
	const char *cov_names[RUN_MAX_COV];
	double *all_cov = NULL;
	unsigned nr_cov = 0;
	size_t nr_arms, nr_runs, i;
	int ret = 0;

	if (!json_object_object_get_ex(exp, "arms", &arms) ||
	    json_object_get_type(arms) != json_type_array ||
	    !json_object_object_get_ex(exp, "runs", &runs) ||
	    json_object_get_type(runs) != json_type_array)
		return err_set(err, -EINVAL,
			       "not an iotrial experiment object (it needs "
			       "'arms' and 'runs' arrays)");
	if (json_object_object_get_ex(exp, "metric", &metric) &&
	    json_object_object_get_ex(metric, "higher_is_better", &hib))
		opts.higher_is_better = json_object_get_boolean(hib);
	nr_arms = json_object_array_length(arms);
	nr_runs = json_object_array_length(runs);
	if (!nr_arms || nr_arms > EXPERIMENT_MAX_ARMS)
		return err_set(err, -EINVAL,
			       "an experiment needs 1 to %d arms, not %zu",
			       EXPERIMENT_MAX_ARMS, nr_arms);
	vals = xcalloc(nr_arms, sizeof(*vals));
	in = xcalloc(nr_arms, sizeof(*in));
	all_cov = xcalloc(nr_runs * RUN_MAX_COV + 1, sizeof(*all_cov));
	runs_covariates(runs, all_cov, cov_names, &nr_cov);
	for (i = 0; i < nr_runs; i++) {
		struct json_object *r = json_object_array_get_idx(runs, i);
		struct json_object *m;
		int arm, block = 0;
		double v;

		if (!json_object_is_type(r, json_type_object) ||
		    get_int(r, "arm", &arm) || arm < 0 ||
		    (size_t)arm >= nr_arms ||
		    !json_object_object_get_ex(r, "metric", &m)) {
			ret = err_set(err, -EINVAL,
				      "run %zu has no valid 'arm' and "
				      "'metric'",
				      i);
			goto out;
		}
		v = json_object_get_double(m);
		if (!(v > 0) || !isfinite(v)) {
			ret = err_set(err, -EINVAL,
				      "run %zu has metric %g; metrics must be "
				      "positive",
				      i, v);
			goto out;
		}
		if (get_int(r, "block", &block) || block < 0)
			opts.paired = false;
		ALLOC_GROW(vals[arm].values, vals[arm].n + 1, vals[arm].alloc);
		ALLOC_GROW(vals[arm].blocks, vals[arm].n + 1,
			   vals[arm].alloc_b);
		ALLOC_GROW(vals[arm].cov, (vals[arm].n + 1) * RUN_MAX_COV,
			   vals[arm].alloc_c);
		vals[arm].values[vals[arm].n] = v;
		vals[arm].blocks[vals[arm].n] = (unsigned)block;
		memcpy(vals[arm].cov + vals[arm].n * nr_cov,
		       all_cov + i * nr_cov, nr_cov * sizeof(*all_cov));
		vals[arm].n++;
	}
	for (i = 0; i < nr_arms; i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);
		struct json_object *l;

		if (!json_object_is_type(a, json_type_object)) {
			ret = err_set(err, -EINVAL,
				      "arm %zu is not a JSON object", i);
			goto out;
		}

		in[i].label = json_object_object_get_ex(a, "label", &l)
				  ? json_object_get_string(l)
				  : "?";
		in[i].values = vals[i].values;
		in[i].blocks = opts.paired ? vals[i].blocks : NULL;
		in[i].n = vals[i].n;
		in[i].cov = vals[i].cov;
	}
	opts.nr_cov = nr_cov;
	opts.cov_names = cov_names;
	ret = analysis_run(&an, in, (unsigned)nr_arms, &opts, err);
	if (ret)
		goto out;
	{
		struct json_object *sums = analysis_summaries_json(&an, in);

		for (i = 0; i < nr_arms; i++)
			merge_summary(json_object_array_get_idx(arms, i),
				      json_object_array_get_idx(sums, i));
		json_object_put(sums);
	}
	json_object_object_add(exp, "verdicts",
			       analysis_verdicts_json(&an, in, &opts));
	json_object_object_add(exp, "baseline",
			       json_object_new_int((int)opts.baseline));
	{
		/* the typed stage on the tree (model/model_tree.h); a tree
		 * that does not decode keeps what it had */
		struct experiment_doc doc;

		if (!exp_regimes_doc_from_tree(exp, &doc, NULL)) {
			regime_analyze(&doc);
			exp_regimes_into_tree(exp, &doc);
		}
		experiment_doc_release(&doc);
	}
	{
		/* the factorial stage on a document (model_tree.h's bridge):
		 * factors or arms that do not decode have no effects */
		struct experiment_doc fd;
		struct strbuf derr = STRBUF_INIT;

		if (!exp_effects_doc_from_tree(exp, &fd, &derr))
			ret = factorial_analyze(&fd, in, nr_arms, &opts, err);
		exp_effects_into_tree(exp, &fd);
		experiment_doc_release(&fd);
		strbuf_release(&derr);
	}
	if (!ret) {
		struct experiment_doc doc;

		if (!exp_scaling_doc_from_tree(exp, &doc, NULL)) {
			scaling_analyze(&doc);
			exp_scaling_into_tree(exp, &doc);
		}
		experiment_doc_release(&doc);
	}
	/* verdicts, effects and scaling rows, all marked alike (also when
	 * the factors failed: the tree is kept). A tree that does not
	 * decode (diff's, holding a stored experiment's runs of another
	 * shape) stays unmarked: whoever prints it decodes it, and says
	 * why it cannot. */
	suspect_mark(exp, NULL);
out:
	analysis_release(&an);
	for (i = 0; vals && i < nr_arms; i++) {
		free(vals[i].values);
		free(vals[i].blocks);
		free(vals[i].cov);
	}
	free(all_cov);
	free(vals);
	free(in);
	return ret;
}
