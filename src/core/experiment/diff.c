/*
 * The experiment of `iotrial diff` (diff.h). Two experiments are
 * comparable when they ran the same workload and judged it by the same
 * metric in the same direction; then the runs of one arm of each become
 * the two arms of a new experiment, analysed with "after"'s alpha and
 * equivalence margin. The two are documents, and so is the diff
 * (experiment_build(), experiment_analyze_built()); their environments
 * and parameters are compared as their JSON (model/env_doc.h,
 * env_doc_json_diff()).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "diff.h"
#include "analyze_doc.h"
#include "arm_name.h"
#include "experiment.h"
#include "../model/env_doc.h"
#include "../report/suspect.h"
#include "../stats/analysis.h"
#include "../../version.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* s, or "" for NULL (a member the document lacks). */
static const char *str_or(const char *s)
{
	return s ? s : "";
}

/* The value of name in pairs (nr of them), or NULL. */
static const char *pair_get(const struct model_pair *pairs, size_t nr,
			    const char *name)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(str_or(pairs[i].name), name))
			return pairs[i].value;
	return NULL;
}

/*
 * The spellings of arm a of exp (arm_name.h) into *out, its factors'
 * into sp[] (as many as exp has factors): each factor under the name it
 * was asked by and its canonical one, each value as asked and as set;
 * none when a's settings do not name every factor.
 */
static void arm_spelling(const struct experiment_doc *exp,
			 const struct exp_arm *a, struct arm_names *out,
			 struct arm_spelling *sp)
{
	bool set = a->has_settings == MODEL_SET;
	size_t f, nf = exp->nr_factors;

	out->label = str_or(a->label);
	out->s = sp;
	out->nr = 0;
	for (f = 0; f < nf && set; f++) {
		const char *name = str_or(exp->factors[f].name);
		const char *canon = str_or(exp->factors[f].canonical);
		const char *v = pair_get(a->settings, a->nr_settings, name);
		const char *asked;

		if (!v)
			break;
		asked = a->has_asked == MODEL_SET
			    ? pair_get(a->asked, a->nr_asked, name)
			    : NULL;
		sp[f].name = name;
		sp[f].set_name = *canon && strcmp(canon, name) ? canon : NULL;
		sp[f].set = v;
		sp[f].asked = asked ? asked : v;
	}
	out->nr = f == nf ? nf : 0;
}

/*
 * The arm of exp to use: the one label names (any of its names,
 * arm_name.h), or the baseline. Returns its index, or -EINVAL with err
 * set.
 */
static int pick_arm(const struct experiment_doc *exp, const char *id,
		    const char *label, struct strbuf *err)
{
	size_t nf = exp->nr_factors, n = exp->nr_arms;
	struct strbuf labels = STRBUF_INIT;
	struct arm_names *names;
	struct arm_spelling *sp;
	size_t i, idx = 0;
	int ret;

	if (!n)
		return err_set(err, -EINVAL,
			       "experiment '%s' has no arms to compare", id);
	if (!label) {
		int64_t base =
		    exp->has_baseline == MODEL_SET ? exp->baseline : 0;

		return base >= 0 && (size_t)base < n ? (int)base : 0;
	}
	names = xcalloc(n, sizeof(*names));
	sp = xcalloc(n * nf + 1, sizeof(*sp));
	for (i = 0; i < n; i++)
		arm_spelling(exp, &exp->arms[i], &names[i], &sp[i * nf]);
	ret = arm_find(names, n, label, NULL, NULL, &idx, err);
	if (ret == -ENOENT) {
		for (i = 0; i < n; i++)
			strbuf_addf(&labels, "%s'%s'", i ? ", " : "",
				    names[i].label);
		err_set(err, -EINVAL,
			"arm '%s' is not in experiment '%s'; its arms are %s",
			label, id, labels.buf);
	}
	free(names);
	free(sp);
	strbuf_release(&labels);
	return ret ? -EINVAL : (int)idx;
}

/* The name of exp's metric, "" when it has none. */
static const char *metric_name(const struct experiment_doc *exp)
{
	return exp->metric ? str_or(exp->metric->name) : "";
}

/* Refuse two experiments that did not measure the same thing. */
static int check_same(const struct experiment_doc *const e[2],
		      const char *const id[2], struct strbuf *err)
{
	const struct exp_metric *m0 = e[0]->metric, *m1 = e[1]->metric;

	if (strcmp(str_or(e[0]->workload), str_or(e[1]->workload)))
		return err_set(
		    err, -EINVAL,
		    "experiments '%s' and '%s' ran different workloads "
		    "('%s' and '%s'); diff compares the same workload "
		    "before and after a change",
		    id[0], id[1], str_or(e[0]->workload),
		    str_or(e[1]->workload));
	if (strcmp(metric_name(e[0]), metric_name(e[1])) ||
	    (m0 && m1 && m0->higher_is_better != m1->higher_is_better))
		return err_set(
		    err, -EINVAL,
		    "experiments '%s' and '%s' measured different metrics "
		    "('%s' and '%s'); diff needs the same metric in both",
		    id[0], id[1], metric_name(e[0]), metric_name(e[1]));
	return 0;
}

/* A setting of the document (has: its presence), or def without it. */
static double num_or(double v, uint8_t has, double def)
{
	return has != MODEL_SET || isnan(v) ? def : v;
}

/* The metrics of the runs of exp's arm into *out (caller frees); count. */
static size_t arm_runs(const struct experiment_doc *exp, int arm,
		       struct experiment_src_run **out)
{
	size_t i, n = exp->nr_runs, nr = 0;

	*out = xcalloc(n ? n : 1, sizeof(**out));
	for (i = 0; i < n; i++) {
		const struct exp_run *r = &exp->runs[i];

		if (isnan(r->metric) || r->arm != arm)
			continue;
		(*out)[nr].metric = r->metric;
		(*out)[nr].seq = (int)i;
		nr++;
	}
	return nr;
}

/*
 * The before/after experiment of arms arm[0] of e[0] and arm[1] of
 * e[1] into out (initialised here; release it), not analysed yet.
 * Returns 0, or -EINVAL with err set.
 */
static int build(const struct experiment_doc *const e[2],
		 const char *const id[2], const int arm[2],
		 struct experiment_doc *out, struct strbuf *err)
{
	const struct exp_metric *metric = e[1]->metric;
	struct experiment_src src = {0};
	struct experiment_src_arm sa[2];
	struct experiment_src_run *runs[2];
	struct strbuf label[2] = {STRBUF_INIT, STRBUF_INIT};
	struct strbuf sid = STRBUF_INIT;
	int k, ret = -EINVAL;

	experiment_doc_init(out);

	for (k = 0; k < 2; k++) {
		sa[k].nr = arm_runs(e[k], arm[k], &runs[k]);
		sa[k].runs = runs[k];
		strbuf_addf(&label[k], "%s %s", k ? "after" : "before",
			    str_or(e[k]->id));
		sa[k].label = label[k].buf;
	}
	for (k = 0; k < 2; k++)
		if (!sa[k].nr) {
			err_set(err, -EINVAL,
				"experiment '%s' has no runs in arm %d; "
				"nothing to compare",
				id[k], arm[k]);
			goto out;
		}
	strbuf_addf(&sid, "%s..%s", str_or(e[0]->id), str_or(e[1]->id));
	src.id = sid.buf;
	src.workload = str_or(e[1]->workload);
	src.target = str_or(e[1]->target);
	src.seed = "none";
	src.metric = metric_name(e[1]);
	src.higher_is_better = !metric || metric->higher_is_better;
	if (metric && metric->unit)
		src.metric_unit = metric->unit;
	src.arms = sa;
	src.nr_arms = 2;
	src.stopped = "diff of stored experiments";
	experiment_build(&src, out);
	ret = 0;
out:
	for (k = 0; k < 2; k++) {
		free(runs[k]);
		strbuf_release(&label[k]);
	}
	strbuf_release(&sid);
	return ret;
}

/*
 * The reasons of arm of exp in role (report/suspect.h), each named
 * label, appended to *all (*nr of them).
 */
static void arm_reasons(const struct experiment_doc *exp, int arm,
			const char *role, const char *label,
			struct exp_suspect **all, size_t *nr)
{
	size_t i = *nr;

	suspect_doc_arm_reasons(exp, arm, role, all, nr);
	for (; i < *nr; i++) {
		free((*all)[i].label);
		(*all)[i].label = xstrdup(label);
	}
}

void diff_mark_suspect(const struct experiment_doc *const e[2],
		       const int arm[2], struct experiment_doc *d)
{
	const char *role[2] = {"baseline", "arm"};
	struct exp_verdict *v = d->nr_verdicts ? &d->verdicts[0] : NULL;
	struct exp_suspect *all;
	size_t i, nr = 0;
	int k;

	if (!v)
		return;
	all = xcalloc(1, sizeof(*all));
	for (k = 1; k >= 0; k--) /* named as d names the arm: "after ID" */
		arm_reasons(e[k], arm[k], role[k],
			    (size_t)k < d->nr_arms ? str_or(d->arms[k].label)
						   : "",
			    &all, &nr);
	for (i = 0; i < v->nr_suspect; i++) {
		free(v->suspect[i].arm);
		free(v->suspect[i].label);
		free(v->suspect[i].kind);
		model_kept_free(&v->suspect[i].keep);
	}
	free(v->suspect);
	v->suspect = all;
	v->nr_suspect = nr;
	v->has_suspect = MODEL_SET;
}

void diff_strict(struct experiment_doc *d)
{
	suspect_doc_apply_strict(d);
}

int diff_build(const struct experiment_doc *const e[2], const char *const id[2],
	       const char *label, int out_arm[2], struct experiment_doc **out,
	       struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct analysis_opts o;
	struct experiment_doc *d;
	int ret, k;

	*out = NULL;
	if (!strcmp(str_or(e[0]->id), str_or(e[1]->id)))
		return err_set(err, -EINVAL,
			       "'%s' and '%s' are the same experiment; diff "
			       "compares two (see 'iotrial log')",
			       id[0], id[1]);
	ret = check_same(e, id, err);
	for (k = 0; k < 2 && !ret; k++) {
		out_arm[k] = pick_arm(e[k], id[k], label, err);
		if (out_arm[k] < 0)
			ret = out_arm[k];
	}
	if (ret)
		return ret;
	d = xcalloc(1, sizeof(*d));
	ret = build(e, id, out_arm, d, err);
	if (ret) {
		experiment_doc_free(d);
		return ret;
	}
	analysis_opts_init(&o); /* the metric's own flag overrides */
	o.alpha = num_or(e[1]->alpha, e[1]->has_alpha, o.alpha);
	o.margin = num_or(e[1]->equivalence, e[1]->has_equivalence, o.margin);
	ret = experiment_analyze_built(d, &o, &why);
	if (ret) {
		err_set(err, ret, "cannot analyse the diff: %s", why.buf);
		experiment_doc_free(d);
		strbuf_release(&why);
		return ret;
	}
	diff_mark_suspect(e, out_arm, d);
	strbuf_release(&why);
	*out = d;
	return 0;
}

/* The lines of text as an array of *nr strings. */
static char **lines_of(const char *text, size_t *nr)
{
	char **lines = xcalloc(strlen(text) + 1, sizeof(*lines));
	const char *p, *nl;

	*nr = 0;
	for (p = text; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		lines[(*nr)++] = xstrndup(p, (size_t)(nl - p));
		if (!*nl)
			break;
	}
	return lines;
}

/* The environment exp recorded: its own, or its first run's. */
static const struct env_doc *env_of(const struct experiment_doc *exp)
{
	if (!exp->env && exp->nr_runs && exp->runs[0].run)
		return exp->runs[0].run->env;
	return exp->env;
}

/* Each line of d prefixed with head, into out. */
static void prefix_lines(const char *d, const char *head, struct strbuf *out)
{
	const char *p, *nl;

	for (p = d; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		strbuf_addf(out, "%s%.*s\n", head, (int)(nl - p), p);
		if (!*nl)
			break;
	}
}

/*
 * Lines "env differs: ..." and "params differ: ..." into out. Any
 * members are compared, as their JSON (model/env_doc.h's
 * env_doc_json_diff()): a part one side lacks is one line, its JSON
 * against null. "boot_id" is skipped, as observe/env.h's env_doc_diff()
 * does: a reboot alone does not make results incomparable.
 */
static void env_lines(const struct experiment_doc *const e[2],
		      const char *const id[2], struct strbuf *out)
{
	/* stack.path is the run's private work directory */
	static const char *const env_skip[] = {"path", "boot_id", NULL};
	static const char *const params_skip[] = {"boot_id", NULL};
	const struct env_doc *env0 = env_of(e[0]), *env1 = env_of(e[1]);
	struct strbuf d = STRBUF_INIT;

	if (!env0 != !env1) {
		strbuf_addf(out,
			    "env differs: only '%s' recorded its environment\n",
			    env0 ? id[0] : id[1]);
	} else if (env0) {
		env_doc_json_diff(env0, env1, env_skip, &d);
		prefix_lines(d.buf, "env differs: ", out);
	}
	strbuf_reset(&d);
	if (strcmp(str_or(e[0]->target), str_or(e[1]->target)))
		strbuf_addf(&d, "target: '%s' vs '%s'\n", str_or(e[0]->target),
			    str_or(e[1]->target));
	if (e[0]->has_params == MODEL_SET && e[1]->has_params == MODEL_SET)
		model_params_json_diff(e[0]->params, e[0]->nr_params,
				       e[1]->params, e[1]->nr_params,
				       params_skip, &d);
	prefix_lines(d.buf, "params differ: ", out);
	strbuf_release(&d);
}

void diff_doc_fill(struct diff_doc *out,
		   const struct experiment_doc *const e[2],
		   const char *const id[2], const int arm[2],
		   struct experiment_doc *d, const char *unlike)
{
	struct strbuf env = STRBUF_INIT;
	int k;

	diff_doc_init(out);
	out->schema = xstrdup(IOTRIAL_SCHEMA);
	out->before = xstrdup(str_or(e[0]->id));
	out->after = xstrdup(str_or(e[1]->id));
	for (k = 0; k < 2; k++)
		*(k ? &out->arm_after : &out->arm_before) =
		    xstrdup(arm[k] >= 0 && (size_t)arm[k] < e[k]->nr_arms
				? str_or(e[k]->arms[arm[k]].label)
				: "");
	out->like_for_like = !unlike || !*unlike;
	out->unlike = lines_of(unlike ? unlike : "", &out->nr_unlike);
	out->verdict =
	    xstrdup(d && d->nr_verdicts ? str_or(d->verdicts[0].verdict) : "");
	out->experiment = d;
	env_lines(e, id, &env);
	out->differences = lines_of(env.buf, &out->nr_differences);
	strbuf_release(&env);
}
