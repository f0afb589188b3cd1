/*
 * Experiment objects made from runs, and their analysis. The runs are
 * the record; arms' summaries and verdicts are derived, so they are
 * rebuilt here from "runs" whenever runs change (after compare, after an
 * import), and never edited by hand. experiment_build() is the one way
 * to make an experiment object from runs measured before (an import, a
 * single run, diff's two arms); the experiment loop writes its own as it
 * goes.
 */
#include "experiment.h"
#include "analyze_doc.h"
#include "factorial.h"
#include "scaling.h"
#include "result_json.h"
#include "regime.h"
#include "../model/model_tree.h"
#include "../report/suspect.h"
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

int experiment_analyze_json(struct json_object *exp,
			    const struct analysis_opts *o, struct strbuf *err)
{
	struct exp_analysis an = {0};
	struct experiment_doc doc;
	int ret;

	/* the spine on the document, its members back into the tree */
	ret = experiment_doc_from_tree(exp, &doc, 0, err);
	if (!ret)
		ret = experiment_analyze_doc(&doc, o, &an, err);
	if (ret)
		goto out;
	exp_analysis_into_tree(exp, &doc);
	/* the stages on the same document, each member put back in the
	 * tree as the tree's stages placed it (model/model_tree.h) */
	regime_analyze(&doc);
	exp_regimes_into_tree(exp, &doc);
	ret = factorial_analyze(&doc, an.in, an.nr_arms, &an.opts, err);
	exp_effects_into_tree(exp, &doc);
	if (!ret) {
		scaling_analyze(&doc);
		exp_scaling_into_tree(exp, &doc);
	}
	/* verdicts, effects and scaling rows, all marked alike (also when
	 * the factors failed: the tree is kept) */
	suspect_mark(exp, NULL);
out:
	exp_analysis_release(&an);
	experiment_doc_release(&doc);
	return ret;
}
