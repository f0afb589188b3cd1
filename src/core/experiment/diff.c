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
#include "arm_name.h"
#include "experiment.h"
#include "../report/expjson.h"
#include "../report/suspect.h"
#include "../stats/analysis.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/*
 * The spellings of arm a of exp (arm_name.h) into *out, its factors'
 * into sp[] (as many as exp has factors): each factor under the name it
 * was asked by and its canonical one, each value as asked and as set;
 * none when a's settings do not name every factor.
 */
static void arm_spelling(struct json_object *exp, struct json_object *a,
			 struct arm_names *out, struct arm_spelling *sp)
{
	struct json_object *fs =
	    expjson_get_type(exp, "factors", json_type_array);
	struct json_object *set =
	    expjson_get_type(a, "settings", json_type_object);
	struct json_object *asked =
	    expjson_get_type(a, "asked", json_type_object);
	size_t f, nf = fs ? json_object_array_length(fs) : 0;

	out->label = expjson_str(a, "label");
	out->s = sp;
	out->nr = 0;
	for (f = 0; f < nf && set; f++) {
		struct json_object *fo = json_object_array_get_idx(fs, f);
		const char *name = expjson_str(fo, "name");
		const char *canon = expjson_str(fo, "canonical");
		struct json_object *v;

		if (!expjson_get_type(set, name, json_type_string))
			break;
		v = expjson_get_type(asked, name, json_type_string);
		sp[f].name = name;
		sp[f].set_name = *canon && strcmp(canon, name) ? canon : NULL;
		sp[f].set = expjson_str(set, name);
		sp[f].asked = v ? json_object_get_string(v) : sp[f].set;
	}
	out->nr = f == nf ? nf : 0;
}

/*
 * The arm of exp to use: the one label names (any of its names,
 * arm_name.h), or the baseline. Returns its index, or -EINVAL with err
 * set.
 */
static int pick_arm(struct json_object *exp, const char *id, const char *label,
		    struct strbuf *err)
{
	struct json_object *arms = expjson_get(exp, "arms"),
			   *b = expjson_get(exp, "baseline");
	struct json_object *fs =
	    expjson_get_type(exp, "factors", json_type_array);
	size_t nf = fs ? json_object_array_length(fs) : 0;
	struct strbuf labels = STRBUF_INIT;
	struct arm_names *names;
	struct arm_spelling *sp;
	size_t i, n, idx = 0;
	int ret;

	if (!arms || !json_object_is_type(arms, json_type_array) ||
	    !(n = json_object_array_length(arms)))
		return err_set(err, -EINVAL,
			       "experiment '%s' has no arms to compare", id);
	if (!label) {
		int base = b ? json_object_get_int(b) : 0;

		return base >= 0 && (size_t)base < n ? base : 0;
	}
	names = xcalloc(n, sizeof(*names));
	sp = xcalloc(n * nf + 1, sizeof(*sp));
	for (i = 0; i < n; i++)
		arm_spelling(exp, json_object_array_get_idx(arms, i), &names[i],
			     &sp[i * nf]);
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
