/*
 * The experiment of `iotrial diff` (diff.h). Two experiments are
 * comparable when they ran the same workload and judged it by the same
 * metric in the same direction; then the runs of one arm of each become
 * the two arms of a new experiment, analysed with "after"'s alpha and
 * equivalence margin.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "diff.h"
#include "experiment.h"
#include "../report/expjson.h"
#include "../report/suspect.h"
#include "../stats/analysis.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/*
 * The arm of exp to use: label's, or the baseline's. Returns its index,
 * or -EINVAL with err set.
 */
static int pick_arm(struct json_object *exp, const char *id, const char *label,
		    struct strbuf *err)
{
	struct json_object *arms = expjson_get(exp, "arms"),
			   *b = expjson_get(exp, "baseline");
	struct strbuf labels = STRBUF_INIT;
	size_t i, n;

	if (!arms || !json_object_is_type(arms, json_type_array) ||
	    !(n = json_object_array_length(arms)))
		return err_set(err, -EINVAL,
			       "experiment '%s' has no arms to compare", id);
	if (!label) {
		int base = b ? json_object_get_int(b) : 0;

		return base >= 0 && (size_t)base < n ? base : 0;
	}
	for (i = 0; i < n; i++) {
		const char *l =
		    expjson_str(json_object_array_get_idx(arms, i), "label");

		if (!strcmp(l, label)) {
			strbuf_release(&labels);
			return (int)i;
		}
		strbuf_addf(&labels, "%s'%s'", i ? ", " : "", l);
	}
	err_set(err, -EINVAL,
		"arm '%s' is not in experiment '%s'; its arms are %s", label,
		id, labels.buf);
	strbuf_release(&labels);
	return -EINVAL;
}

/* Refuse two experiments that did not measure the same thing. */
static int check_same(struct json_object *e[2], const char *const id[2],
		      struct strbuf *err)
{
	struct json_object *m0 = expjson_get(e[0], "metric"),
			   *m1 = expjson_get(e[1], "metric");
	struct json_object *h0 = expjson_get(m0, "higher_is_better");
	struct json_object *h1 = expjson_get(m1, "higher_is_better");

	if (strcmp(expjson_str(e[0], "workload"),
		   expjson_str(e[1], "workload")))
		return err_set(
		    err, -EINVAL,
		    "experiments '%s' and '%s' ran different workloads "
		    "('%s' and '%s'); diff compares the same workload "
		    "before and after a change",
		    id[0], id[1], expjson_str(e[0], "workload"),
		    expjson_str(e[1], "workload"));
	if (strcmp(expjson_str(m0, "name"), expjson_str(m1, "name")) ||
	    (h0 && h1 &&
	     json_object_get_boolean(h0) != json_object_get_boolean(h1)))
		return err_set(
		    err, -EINVAL,
		    "experiments '%s' and '%s' measured different metrics "
		    "('%s' and '%s'); diff needs the same metric in both",
		    id[0], id[1], expjson_str(m0, "name"),
		    expjson_str(m1, "name"));
	return 0;
}

/* A number member of o, or def when it has none. */
static double num_or(struct json_object *o, const char *key, double def)
{
	double v = expjson_num(o, key);

	return isnan(v) ? def : v;
}

/* The metrics of the runs of exp's arm into *out (caller frees); count. */
static size_t arm_runs(struct json_object *exp, int arm,
		       struct experiment_src_run **out)
{
	struct json_object *src = expjson_get(exp, "runs");
	size_t i, n, nr = 0;

	*out = NULL;
	if (!src || !json_object_is_type(src, json_type_array))
		return 0;
	n = json_object_array_length(src);
	*out = xcalloc(n ? n : 1, sizeof(**out));
	for (i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(src, i);
		struct json_object *a = expjson_get(r, "arm"),
				   *m = expjson_get(r, "metric");

		if (!a || !m || json_object_get_int(a) != arm)
			continue;
		(*out)[nr].metric = json_object_get_double(m);
		(*out)[nr].seq = (int)i;
		nr++;
	}
	return nr;
}

/*
 * The before/after experiment of arms arm[0] of e[0] and arm[1] of
 * e[1], not analysed yet. Returns NULL with err set.
 */
static struct json_object *build(struct json_object *e[2],
				 const char *const id[2], const int arm[2],
				 struct strbuf *err)
{
	struct json_object *metric = expjson_get(e[1], "metric");
	struct json_object *hib = expjson_get(metric, "higher_is_better");
	struct experiment_src src = {0};
	struct experiment_src_arm sa[2];
	struct experiment_src_run *runs[2];
	struct strbuf label[2] = {STRBUF_INIT, STRBUF_INIT};
	struct strbuf sid = STRBUF_INIT;
	struct json_object *d = NULL;
	int k;

	for (k = 0; k < 2; k++) {
		sa[k].nr = arm_runs(e[k], arm[k], &runs[k]);
		sa[k].runs = runs[k];
		strbuf_addf(&label[k], "%s %s", k ? "after" : "before",
			    expjson_str(e[k], "id"));
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
	strbuf_addf(&sid, "%s..%s", expjson_str(e[0], "id"),
		    expjson_str(e[1], "id"));
	src.id = sid.buf;
	src.workload = expjson_str(e[1], "workload");
	src.target = expjson_target(e[1]);
	src.seed = "none";
	src.metric = expjson_str(metric, "name");
	src.higher_is_better = !hib || json_object_get_boolean(hib);
	if (expjson_get(metric, "unit"))
		src.metric_unit = expjson_str(metric, "unit");
	src.arms = sa;
	src.nr_arms = 2;
	src.stopped = "diff of stored experiments";
	d = experiment_build(&src);
out:
	for (k = 0; k < 2; k++) {
		free(runs[k]);
		strbuf_release(&label[k]);
	}
	strbuf_release(&sid);
	return d;
}

void diff_mark_suspect(struct json_object *e[2], const int arm[2],
		       struct json_object *d)
{
	struct json_object *vs =
	    expjson_get_type(d, "verdicts", json_type_array);
	struct json_object *v = vs ? json_object_array_get_idx(vs, 0) : NULL;
	struct json_object *reasons;
	const char *role[2] = {"baseline", "arm"};
	size_t i, from;
	int k;

	if (!json_object_is_type(v, json_type_object))
		return;
	reasons = json_object_new_array();
	for (k = 1; k >= 0; k--) {
		from = json_object_array_length(reasons);
		suspect_arm_reasons(e[k], arm[k], role[k], reasons);
		/* named as d names the arm: "after ID" */
		for (i = from; i < json_object_array_length(reasons); i++)
			json_object_object_add(
			    json_object_array_get_idx(reasons, i), "label",
			    json_object_new_string(
				expjson_str(json_object_array_get_idx(
						expjson_get(d, "arms"), k),
					    "label")));
	}
	json_object_object_add(v, "suspect", reasons);
}

int diff_build(struct json_object *e[2], const char *const id[2],
	       const char *label, int out_arm[2], struct json_object **out,
	       struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct analysis_opts o;
	struct json_object *d;
	int ret, k;

	*out = NULL;
	if (!strcmp(expjson_str(e[0], "id"), expjson_str(e[1], "id")))
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
	d = build(e, id, out_arm, err);
	if (!d)
		return -EINVAL;
	analysis_opts_init(&o); /* the metric's own flag overrides */
	o.alpha = num_or(e[1], "alpha", o.alpha);
	o.margin = num_or(e[1], "equivalence", o.margin);
	ret = experiment_analyze_json(d, &o, &why);
	if (!ret)
		diff_mark_suspect(e, out_arm, d);
	if (ret) {
		err_set(err, ret, "cannot analyse the diff: %s", why.buf);
		json_object_put(d);
		d = NULL;
	}
	strbuf_release(&why);
	*out = d;
	return ret;
}
