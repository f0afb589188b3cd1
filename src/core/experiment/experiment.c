/*
 * An experiment before and after its runs: the configuration's defaults,
 * the arms and their workloads, the experiment object each run is added
 * to, and its release. The loop that runs the arms is experiment_loop.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "experiment.h"
#include "experiment-int.h"
#include "metrics.h"
#include "result_json.h"
#include "../model/model_tree.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

int experiment_drop_caches(void)
{
	int fd, ret = 0;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "3\n", 2) != 2)
		ret = -errno;
	close(fd);
	return ret;
}

void experiment_config_init(struct experiment_config *c)
{
	struct analysis_opts ao;

	analysis_opts_init(&ao);
	*c = (struct experiment_config){
	    .min_blocks = 6,
	    .max_runs = 30,
	    .precision = 0.02,
	    .equivalence = ao.margin,
	    .alpha = ao.alpha,
	    .max_arms = EXPERIMENT_MAX_ARMS,
	    .drop_caches = 1,
	};
}

void experiment_budget_opts(const struct experiment_config *c,
			    struct budget_opts *out)
{
	*out = (struct budget_opts){
	    .alpha = c->alpha,
	    .precision = c->precision,
	    .budget_ns = c->budget_ns,
	    .time_ns = c->ro.time_ns,
	    .ramp_ns = c->ro.ramp_ns,
	    .ios = c->ro.ios,
	    .max_runs = c->max_runs,
	    .runs_fixed = c->runs_fixed,
	    .warmup = c->warmup,
	    .drop_caches = c->drop_caches,
	    .places = c->nr_places,
	};
}

/* Parse a workload for arm: fixed parameters, then the arm's own. */
static int parse_arm_workload(struct workload *w, const struct experiment *e,
			      unsigned arm, const struct experiment_config *c,
			      struct strbuf *err)
{
	const struct experiment_arm *a = &e->arms[arm];
	unsigned i;
	int ret = 0;

	workload_init(w, c->ops);
	w->ro = c->ro;
	for (i = 0; i < c->nr_params && !ret; i++)
		ret = workload_set_param(w, c->params[i].name,
					 c->params[i].value, NULL, err);
	for (i = 0; i < c->nr_factors && !ret; i++)
		if (!a->settings[i].is_knob)
			ret =
			    workload_set_param(w, a->settings[i].name,
					       a->settings[i].value, NULL, err);
	if (!ret)
		ret = workload_validate(w, err);
	if (ret && c->nr_factors) {
		struct strbuf msg = STRBUF_INIT;

		strbuf_addf(&msg, "arm '%s': %s", a->label, err->buf);
		strbuf_reset(err);
		strbuf_addstr(err, msg.buf);
		strbuf_release(&msg);
	}
	return ret;
}

int experiment_arm_workload(struct workload *w, const struct experiment *e,
			    unsigned arm, const struct experiment_config *c,
			    struct strbuf *err)
{
	if (!e->arm_w)
		return parse_arm_workload(w, e, arm, c, err);
	workload_copy(w, &e->arm_w[arm]);
	w->ro = c->ro;
	return 0;
}

/* Release e's parsed workloads. */
static void release_arm_workloads(struct experiment *e)
{
	unsigned i;

	for (i = 0; e->arm_w && i < e->nr_arms; i++)
		workload_release(&e->arm_w[i]);
	free(e->arm_w);
	e->arm_w = NULL;
}

int experiment_validate(struct experiment *e, const struct experiment_config *c,
			struct strbuf *err)
{
	struct workload *w = xcalloc(e->nr_arms + 1, sizeof(*w));
	unsigned i;
	int ret = 0;

	release_arm_workloads(e);
	for (i = 0; i < e->nr_arms && !ret; i++)
		ret = parse_arm_workload(&w[i], e, i, c, err);
	e->arm_w = w;
	if (ret)
		release_arm_workloads(e);
	return ret;
}

static void add_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

/* Arm i's entry of "arms" before any analysis: its label and settings. */
static struct json_object *arm_object(const struct experiment *e,
				      const struct experiment_config *c,
				      unsigned i)
{
	const struct arm_setting *s = e->arms[i].settings;
	struct json_object *a = json_object_new_object();
	struct json_object *set = json_object_new_object();
	struct json_object *asked = NULL;
	unsigned f;

	json_object_object_add(a, "arm", json_object_new_int((int)i));
	add_str(a, "label", e->arms[i].label);
	for (f = 0; f < c->nr_factors; f++) {
		add_str(set, s[f].name, s[f].canon ? s[f].canon : s[f].value);
		if (!s[f].canon)
			continue;
		if (!asked)
			asked = json_object_new_object();
		add_str(asked, s[f].name, s[f].value);
	}
	json_object_object_add(a, "settings", set);
	if (asked)
		json_object_object_add(a, "asked", asked);
	return a;
}

int experiment_add_arm(struct experiment *e, const struct experiment_config *c,
		       const unsigned *levels, unsigned *out,
		       struct strbuf *err)
{
	unsigned i = e->nr_arms;
	int ret = experiment_arms_append(e, c, levels, err);

	if (ret)
		return ret;
	if (e->arm_w) {
		e->arm_w = xrealloc(e->arm_w, (i + 2) * sizeof(*e->arm_w));
		memset(&e->arm_w[i], 0, 2 * sizeof(*e->arm_w));
		ret = parse_arm_workload(&e->arm_w[i], e, i, c, err);
		if (ret) {
			workload_release(&e->arm_w[i]);
			free(e->arms[i].label);
			free(e->arms[i].settings);
			e->nr_arms--;
			return ret;
		}
	}
	if (e->obj)
		json_object_array_add(json_object_object_get(e->obj, "arms"),
				      arm_object(e, c, i));
	*out = i;
	return 0;
}

/* The experiment's "metric" m, as the model writes it. */
static struct json_object *metric_tree(const struct metric_def *m)
{
	struct exp_metric d;
	struct json_object *o;

	metric_to_doc(m, &d);
	o = exp_metric_to_tree(&d);
	exp_metric_release(&d);
	return o;
}

/* The experiment object before any run. */
struct json_object *exp_skeleton(const struct experiment *e,
				 const struct experiment_config *c)
{
	struct json_object *o = json_object_new_object();
	struct json_object *factors = json_object_new_array();
	struct json_object *arms = json_object_new_array();
	struct json_object *params = json_object_new_object();
	char when[32], seed[32];
	time_t now = time(NULL);
	struct tm tm;
	unsigned i, f;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)c->seed);
	add_str(o, "schema", RESULT_SCHEMA);
	add_str(o, "type", "experiment");
	add_str(o, "id", "");
	add_str(o, "created", when);
	add_str(o, "workload", c->ops->name);
	add_str(o, "target", c->target->spec);
	for (i = 0; i < c->nr_params; i++)
		add_str(params, c->params[i].name, c->params[i].value);
	json_object_object_add(o, "params", params);
	add_str(o, "seed", seed);
	json_object_object_add(
	    o, "metric",
	    metric_tree(c->metric ? c->metric
				  : metric_default_for(c->ops, c->params,
						       c->nr_params)));
	for (f = 0; f < c->nr_factors; f++) {
		struct json_object *fo = json_object_new_object();
		struct json_object *vals = json_object_new_array();

		add_str(fo, "name", c->factors[f].name);
		add_str(fo, "kind", c->factors[f].is_knob ? "knob" : "param");
		for (i = 0; i < c->factors[f].nr_values; i++)
			json_object_array_add(
			    vals,
			    json_object_new_string(c->factors[f].values[i]));
		json_object_object_add(fo, "values", vals);
		json_object_array_add(factors, fo);
	}
	json_object_object_add(o, "factors", factors);
	json_object_object_add(o, "baseline",
			       json_object_new_int((int)e->baseline));
	for (i = 0; i < e->nr_arms; i++)
		json_object_array_add(arms, arm_object(e, c, i));
	json_object_object_add(o, "arms", arms);
	json_object_object_add(o, "runs", json_object_new_array());
	add_str(o, "runs_mode", c->runs_fixed ? "fixed" : "auto");
	json_object_object_add(o, "precision",
			       json_object_new_double(c->precision));
	json_object_object_add(o, "equivalence",
			       json_object_new_double(c->equivalence));
	json_object_object_add(o, "alpha", json_object_new_double(c->alpha));
	json_object_object_add(o, "drop_caches",
			       json_object_new_boolean(c->drop_caches));
	if (c->nr_places > 1)
		json_object_object_add(o, "duet",
				       json_object_new_int((int)c->nr_places));
	json_object_object_add(o, "warnings", json_object_new_array());
	return o;
}
void experiment_release(struct experiment *e)
{
	unsigned i;

	if (!e)
		return;
	release_arm_workloads(e);
	for (i = 0; i < e->nr_arms; i++) {
		free(e->arms[i].label);
		free(e->arms[i].settings);
	}
	free(e->arms);
	if (e->obj)
		json_object_put(e->obj);
	memset(e, 0, sizeof(*e));
}
