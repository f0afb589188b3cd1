/*
 * An experiment before and after its runs: the configuration's defaults,
 * the arms and their workloads, the experiment document each run is
 * added to, and its release. The loop that runs the arms is experiment_loop.c.
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

/* A copy of the pairs (name, value) of arm's settings into *out. */
static void add_pair(struct model_pair **out, size_t *nr, const char *name,
		     const char *value)
{
	*out = xrealloc(*out, (*nr + 1) * sizeof(**out));
	(*out)[*nr].name = xstrdup(name);
	(*out)[*nr].value = xstrdup(value);
	(*nr)++;
}

/* Arm i's entry of "arms" before any analysis: its label and settings,
 * and the values as asked where a knob's name was an older one. */
static void arm_doc(const struct experiment *e,
		    const struct experiment_config *c, unsigned i,
		    struct exp_arm *a)
{
	const struct arm_setting *s = e->arms[i].settings;
	unsigned f;

	memset(a, 0, sizeof(*a));
	a->arm = i;
	a->label = xstrdup(e->arms[i].label);
	a->has_settings = MODEL_SET;
	for (f = 0; f < c->nr_factors; f++) {
		add_pair(&a->settings, &a->nr_settings, s[f].name,
			 s[f].canon ? s[f].canon : s[f].value);
		if (!s[f].canon)
			continue;
		a->has_asked = MODEL_SET;
		add_pair(&a->asked, &a->nr_asked, s[f].name, s[f].value);
	}
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
	if (e->doc) {
		struct experiment_doc *d = e->doc;

		d->arms =
		    xrealloc(d->arms, (d->nr_arms + 1) * sizeof(*d->arms));
		arm_doc(e, c, i, &d->arms[d->nr_arms++]);
	}
	*out = i;
	return 0;
}

/* The experiment before any run. */
struct experiment_doc *exp_skeleton(const struct experiment *e,
				    const struct experiment_config *c)
{
	struct experiment_doc *d = xcalloc(1, sizeof(*d));
	char when[32], seed[32];
	time_t now = time(NULL);
	struct tm tm;
	unsigned i, f;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)c->seed);
	d->schema = xstrdup(RESULT_SCHEMA);
	d->type = xstrdup("experiment");
	d->id = xstrdup("");
	d->created = xstrdup(when);
	d->workload = xstrdup(c->ops->name);
	d->target = xstrdup(c->target->spec);
	d->has_params = MODEL_SET;
	d->params = xcalloc(c->nr_params + 1, sizeof(*d->params));
	for (i = 0; i < c->nr_params; i++) {
		d->params[i].name = xstrdup(c->params[i].name);
		model_value_set_str(&d->params[i].value, c->params[i].value);
	}
	d->nr_params = c->nr_params;
	d->seed = xstrdup(seed);
	d->metric = xcalloc(1, sizeof(*d->metric));
	metric_to_doc(c->metric
			  ? c->metric
			  : metric_default_for(c->ops, c->params, c->nr_params),
		      d->metric);
	d->has_factors = MODEL_SET;
	d->factors = xcalloc(c->nr_factors + 1, sizeof(*d->factors));
	for (f = 0; f < c->nr_factors; f++) {
		struct exp_factor *fo = &d->factors[f];

		fo->name = xstrdup(c->factors[f].name);
		fo->kind = xstrdup(c->factors[f].is_knob ? "knob" : "param");
		fo->values =
		    xcalloc(c->factors[f].nr_values + 1, sizeof(*fo->values));
		for (i = 0; i < c->factors[f].nr_values; i++)
			fo->values[i] = xstrdup(c->factors[f].values[i]);
		fo->nr_values = c->factors[f].nr_values;
	}
	d->nr_factors = c->nr_factors;
	d->baseline = e->baseline;
	d->has_baseline = MODEL_SET;
	d->arms = xcalloc(e->nr_arms + 1, sizeof(*d->arms));
	for (i = 0; i < e->nr_arms; i++)
		arm_doc(e, c, i, &d->arms[i]);
	d->nr_arms = e->nr_arms;
	d->runs_mode = xstrdup(c->runs_fixed ? "fixed" : "auto");
	d->precision = c->precision;
	d->has_precision = MODEL_SET;
	d->equivalence = c->equivalence;
	d->has_equivalence = MODEL_SET;
	d->alpha = c->alpha;
	d->has_alpha = MODEL_SET;
	d->drop_caches = c->drop_caches;
	d->has_drop_caches = MODEL_SET;
	if (c->nr_places > 1) {
		d->duet = c->nr_places;
		d->has_duet = MODEL_SET;
	}
	d->has_warnings = MODEL_SET;
	return d;
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
	experiment_doc_free(e->doc);
	memset(e, 0, sizeof(*e));
}
