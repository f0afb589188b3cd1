/*
 * Experiments made from runs, and their analysis. The runs are the
 * record; arms' summaries and verdicts are derived, so they are rebuilt
 * from "runs" whenever runs change (after compare, after an import),
 * and never edited by hand. experiment_build() is the one way to make
 * an experiment document from runs measured before (an import, a fleet
 * merge, diff's two arms); the experiment loop writes its own as it
 * goes, and experiment_analyze_built() analyses either.
 */
#include "experiment.h"
#include "analyze_doc.h"
#include "result_json.h"
#include "../model/model_json.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* A copy of s, or NULL. */
static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* The parts of src that are documents of their own (params, env),
 * deep copies into out: borrowed by a document, copied whole, and
 * taken from the copy. */
static void copy_parts(const struct experiment_src *src,
		       struct experiment_doc *out)
{
	struct experiment_doc view, copy;

	experiment_doc_init(&view);
	view.params = (struct model_param *)src->params;
	view.nr_params = src->nr_params;
	view.has_params = src->has_params ? MODEL_SET : MODEL_ABSENT;
	view.env = (struct env_doc *)src->env;
	experiment_doc_copy(&copy, &view);
	out->params = copy.params;
	out->nr_params = copy.nr_params;
	out->has_params = copy.has_params;
	out->env = copy.env;
	copy.params = NULL;
	copy.nr_params = 0;
	copy.env = NULL;
	experiment_doc_release(&copy);
}

/* One factor "arm" of src's kind whose values are the labels of its
 * arms. */
static void arm_factor(const struct experiment_src *src,
		       struct experiment_doc *out)
{
	struct exp_factor *f = xcalloc(1, sizeof(*f));
	size_t a;

	f->name = xstrdup("arm");
	f->kind = xstrdup(src->factor_kind);
	f->values = xcalloc(src->nr_arms + 1, sizeof(*f->values));
	for (a = 0; a < src->nr_arms; a++)
		f->values[a] = xstrdup(src->arms[a].label);
	f->nr_values = src->nr_arms;
	out->factors = f;
	out->nr_factors = 1;
	out->has_factors = MODEL_SET;
}

/* Run r of arm a, numbered seq unless it has its own, into e. */
static void build_run(const struct experiment_src_run *r, size_t a, size_t seq,
		      struct exp_run *e)
{
	e->arm = (int64_t)a;
	e->seq = r->seq < 0 ? (int64_t)seq : r->seq;
	e->metric = r->metric;
	/* the engine has written the source before the run */
	if (r->source) {
		exp_run_order_last(e, "source");
		e->source = xstrdup(r->source);
	}
	if (r->run || r->run_fio)
		exp_run_order_last(e, "run");
	if (r->run) {
		e->run = xcalloc(1, sizeof(*e->run));
		run_doc_copy(e->run, r->run);
	} else if (r->run_fio) {
		e->run_fio = xstrdup(r->run_fio);
	}
}

void experiment_build(const struct experiment_src *src,
		      struct experiment_doc *out)
{
	const char *order[20];
	size_t a, i, seq = 0, most = 0, nr_runs = 0, nr = 0;

	experiment_doc_init(out);
	out->schema = xstrdup(RESULT_SCHEMA);
	out->type = xstrdup("experiment");
	out->id = xstrdup(src->id ? src->id : "");
	out->workload = dup_or_null(src->workload);
	out->target = dup_or_null(src->target);
	copy_parts(src, out);
	out->seed = dup_or_null(src->seed);
	out->metric = xcalloc(1, sizeof(*out->metric));
	out->metric->name = dup_or_null(src->metric);
	out->metric->higher_is_better = src->higher_is_better;
	out->metric->unit = dup_or_null(src->metric_unit);
	if (src->factor_kind)
		arm_factor(src, out);
	out->baseline = 0;
	out->has_baseline = MODEL_SET;
	for (a = 0; a < src->nr_arms; a++)
		nr_runs += src->arms[a].nr;
	out->arms = xcalloc(src->nr_arms + 1, sizeof(*out->arms));
	out->nr_arms = src->nr_arms;
	out->runs = xcalloc(nr_runs + 1, sizeof(*out->runs));
	out->nr_runs = nr_runs;
	for (a = 0; a < src->nr_arms; a++) {
		const struct experiment_src_arm *sa = &src->arms[a];

		out->arms[a].arm = (int64_t)a;
		out->arms[a].label = xstrdup(sa->label);
		if (src->factor_kind)
			out->arms[a].has_settings = MODEL_SET;
		for (i = 0; i < sa->nr; i++, seq++)
			build_run(&sa->runs[i], a, seq, &out->runs[seq]);
		if (sa->nr > most)
			most = sa->nr;
	}
	out->blocks = (int64_t)most;
	out->stopped = dup_or_null(src->stopped);
	out->runs_mode = dup_or_null(src->runs_mode);
	if (!src->runs_mode)
		experiment_doc_omit(out, "runs_mode");
	if (src->warnings)
		out->has_warnings = MODEL_SET;
	/* the members in the order the engine has always written them:
	 * those there, so that one added later goes last */
	order[nr++] = "schema";
	order[nr++] = "type";
	order[nr++] = "id";
	order[nr++] = "workload";
	order[nr++] = "target";
	if (src->has_params)
		order[nr++] = "params";
	order[nr++] = "seed";
	order[nr++] = "metric";
	if (src->factor_kind)
		order[nr++] = "factors";
	order[nr++] = "baseline";
	order[nr++] = "arms";
	order[nr++] = "runs";
	order[nr++] = "blocks";
	order[nr++] = "stopped";
	if (src->runs_mode)
		order[nr++] = "runs_mode";
	if (src->warnings)
		order[nr++] = "warnings";
	if (src->env)
		order[nr++] = "env";
	experiment_doc_order(out, order, nr);
}

int experiment_analyze_built(struct experiment_doc *doc,
			     const struct analysis_opts *o, struct strbuf *err)
{
	int ret = experiment_analyze_full(doc, o, err);

	if (ret)
		return ret;
	/* the tree's stages added each member after those it held, and
	 * moved these last */
	experiment_doc_order_last(doc, "verdicts");
	experiment_doc_order_last(doc, "baseline");
	experiment_doc_order_last(doc, "regimes");
	experiment_doc_move_last(doc, "effects");
	experiment_doc_move_last(doc, "interactions");
	experiment_doc_move_last(doc, "scaling");
	return 0;
}
