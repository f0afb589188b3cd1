/*
 * The built-in metrics. Throughput counts what the workload moved
 * (iops, mbps) or what reached the device under it (device_mbps, from
 * device truth). Latency quantiles come from the per-direction
 * histograms; p50/p99/p999 without a direction mean the workload's own:
 * its reads, its writes, or both merged for a mix. Wall time is the
 * timed region, the metric of a fixed amount of work (--ios).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "metrics.h"
#include "../observe/truth.h"
#include "../stats/stats.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* A workload whose I/O is not counted (a command) has no value. */
static double iops(const struct workload *w, const struct run_result *r)
{
	(void)w;
	return r->io_uncounted ? NAN : run_result_iops(r);
}

static double mbps(const struct workload *w, const struct run_result *r)
{
	(void)w;
	return r->io_uncounted ? NAN : run_result_mbps(r);
}

static double device_mbps(const struct workload *w, const struct run_result *r)
{
	const struct truth *t = r->truth;
	double s;

	(void)w;
	if (!t || !t->have_device)
		return NAN;
	s = t->seconds > 0 ? t->seconds : r->seconds;
	if (!(s > 0))
		return NAN;
	return (double)(t->device_read_bytes + t->device_write_bytes) / s / 1e6;
}

static double wall(const struct workload *w, const struct run_result *r)
{
	(void)w;
	return r->seconds > 0 ? r->seconds : NAN;
}

/* The q quantile of direction dir, or NAN when it did no I/O. */
static double quantile(const struct run_result *r, int dir, double q)
{
	if (!r->ops[dir] || !r->lat[dir].count)
		return NAN;
	return (double)hist_quantile(&r->lat[dir], q);
}

/* The q quantile of all the run's I/O: one direction, or both merged. */
static double quantile_any(const struct run_result *r, double q)
{
	struct hist *h;
	double v;

	if (!r->lat[IO_WRITE].count)
		return quantile(r, IO_READ, q);
	if (!r->lat[IO_READ].count)
		return quantile(r, IO_WRITE, q);
	h = xmalloc(sizeof(*h));
	hist_init(h);
	hist_merge(h, &r->lat[IO_READ]);
	hist_merge(h, &r->lat[IO_WRITE]);
	v = (double)hist_quantile(h, q);
	free(h);
	return v;
}

#define QUANTILE(fn, dir, q)                                                   \
	static double fn(const struct workload *w, const struct run_result *r) \
	{                                                                      \
		(void)w;                                                       \
		return quantile(r, dir, q);                                    \
	}
#define QUANTILE_ANY(fn, q)                                                    \
	static double fn(const struct workload *w, const struct run_result *r) \
	{                                                                      \
		(void)w;                                                       \
		return quantile_any(r, q);                                     \
	}
QUANTILE(read_p50, IO_READ, 0.50)
QUANTILE(read_p99, IO_READ, 0.99)
QUANTILE(read_p999, IO_READ, 0.999)
QUANTILE(write_p50, IO_WRITE, 0.50)
QUANTILE(write_p99, IO_WRITE, 0.99)
QUANTILE(write_p999, IO_WRITE, 0.999)
QUANTILE_ANY(any_p50, 0.50)
QUANTILE_ANY(any_p99, 0.99)
QUANTILE_ANY(any_p999, 0.999)

static const struct metric_def builtin[] = {
    {"iops", "IO/s", true, "I/Os completed per second", iops},
    {"mbps", "MB/s", true, "MB (10^6 bytes) per second the workload moved",
     mbps},
    {"device_mbps", "MB/s", true, "MB per second that reached the device",
     device_mbps},
    {"p50", "ns", false, "median latency of all its I/O", any_p50},
    {"p99", "ns", false, "99th percentile latency of all its I/O", any_p99},
    {"p999", "ns", false, "99.9th percentile latency of all its I/O", any_p999},
    {"read_p50", "ns", false, "median read latency", read_p50},
    {"read_p99", "ns", false, "99th percentile read latency", read_p99},
    {"read_p999", "ns", false, "99.9th percentile read latency", read_p999},
    {"write_p50", "ns", false, "median write latency", write_p50},
    {"write_p99", "ns", false, "99th percentile write latency", write_p99},
    {"write_p999", "ns", false, "99.9th percentile write latency", write_p999},
    {"wall", "s", false, "seconds the timed region took", wall},
};

#define NR_BUILTIN (sizeof(builtin) / sizeof(builtin[0]))

/* How many metrics the workload itself declares. */
static size_t nr_own(const struct workload_ops *ops)
{
	size_t n = 0;

	while (ops && ops->metrics && ops->metrics[n].name)
		n++;
	return n;
}

const struct metric_def *metric_at(const struct workload_ops *ops, size_t i)
{
	size_t own = nr_own(ops);

	if (i < own)
		return &ops->metrics[i];
	i -= own;
	return i < NR_BUILTIN ? &builtin[i] : NULL;
}

const struct metric_def *metric_find(const struct workload_ops *ops,
				     const char *name)
{
	const struct metric_def *m;
	size_t i;

	for (i = 0; (m = metric_at(ops, i)); i++)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}

const struct metric_def *metric_default(const struct workload *w)
{
	const struct metric_def *m = NULL;

	/* the hook's own default, without one, is IOPS */
	m = metric_find(w->ops, w->ops->default_metric
				    ? w->ops->default_metric(w)
				    : "iops");
	/* a hook naming no metric is a bug the tests catch; the first
	 * metric keeps a run judged meanwhile */
	return m ? m : metric_at(w->ops, 0);
}

const struct metric_def *metric_default_for(const struct workload_ops *ops,
					    const struct param_setting *params,
					    unsigned nr)
{
	const struct metric_def *m;
	struct strbuf err = STRBUF_INIT;
	struct workload w;
	unsigned i;

	workload_init(&w, ops);
	for (i = 0; params && i < nr; i++) {
		strbuf_reset(&err);
		(void)workload_set_param(&w, params[i].name, params[i].value,
					 NULL, &err);
	}
	m = metric_default(&w);
	workload_release(&w);
	strbuf_release(&err);
	return m;
}

void metric_names(const struct workload_ops *ops, struct strbuf *out)
{
	const struct metric_def *m;
	size_t i;

	for (i = 0; (m = metric_at(ops, i)); i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", m->name);
}

int metric_lookup(const struct workload_ops *ops, const char *name,
		  const struct param_setting *params, unsigned nr,
		  const struct metric_def **out, struct strbuf *err)
{
	const char **names;
	const char *near;
	struct strbuf all = STRBUF_INIT;
	size_t i, n = 0;

	*out =
	    name ? metric_find(ops, name) : metric_default_for(ops, params, nr);
	if (*out)
		return 0;
	while (metric_at(ops, n))
		n++;
	names = xcalloc(n + 1, sizeof(*names));
	for (i = 0; i < n; i++)
		names[i] = metric_at(ops, i)->name;
	near = suggest_nearest(name, names, n);
	metric_names(ops, &all);
	if (near)
		err_set(err, -ENOENT,
			"unknown metric '%s'; did you mean '%s'? the metrics "
			"of '%s' are %s",
			name, near, ops->name, all.buf);
	else
		err_set(err, -ENOENT,
			"unknown metric '%s'; the metrics of '%s' are %s", name,
			ops->name, all.buf);
	free(names);
	strbuf_release(&all);
	return -ENOENT;
}

double metric_value(const struct metric_def *m, const struct workload *w,
		    const struct run_result *r)
{
	return m->value(w, r);
}

void metric_to_doc(const struct metric_def *m, struct exp_metric *out)
{
	memset(out, 0, sizeof(*out));
	out->name = xstrdup(m->name);
	out->higher_is_better = m->higher_is_better;
	out->unit = xstrdup(m->unit);
}

/* Set name's value to v in the map nums[*nr], adding it when new. */
static void num_set(struct model_num **nums, size_t *nr, const char *name,
		    double v)
{
	size_t i;

	for (i = 0; i < *nr && strcmp((*nums)[i].name, name); i++)
		;
	if (i == *nr) {
		*nums = xrealloc(*nums, (*nr + 1) * sizeof(**nums));
		memset(&(*nums)[i], 0, sizeof(**nums));
		(*nums)[i].name = xstrdup(name);
		(*nr)++;
	}
	(*nums)[i].value = v;
}

void metric_values_doc(const struct workload *w, const struct run_result *r,
		       struct run_doc *doc)
{
	const struct metric_def *m;
	size_t i;

	for (i = 0; (m = metric_at(w->ops, i)); i++) {
		double v = metric_value(m, w, r);

		if (isfinite(v))
			num_set(&doc->metrics, &doc->nr_metrics, m->name, v);
	}
}

/* Is m printed in a text report beside the primary metric? */
static int shown(const struct workload_ops *ops, const struct metric_def *m)
{
	static const char *const brief[] = {"iops", "mbps", "device_mbps",
					    "p50",  "p99",  "wall"};
	size_t i;

	(void)ops;
	for (i = 0; i < NR_BUILTIN && m != &builtin[i]; i++)
		;
	if (i == NR_BUILTIN)
		return 1; /* the workload's own */
	for (i = 0; i < sizeof(brief) / sizeof(brief[0]); i++)
		if (!strcmp(m->name, brief[i]))
			return 1;
	return 0;
}

/* The values of metric name in the runs of arm, into v; their count. */
static size_t arm_values_doc(const struct experiment_doc *exp, int64_t arm,
			     const char *name, double *v)
{
	size_t i, j, k = 0;

	for (i = 0; i < exp->nr_runs; i++) {
		const struct run_doc *run = exp->runs[i].run;

		if (exp->runs[i].arm != arm || !run)
			continue;
		for (j = 0; j < run->nr_metrics; j++)
			if (!strcmp(run->metrics[j].name, name)) {
				v[k++] = run->metrics[j].value;
				break;
			}
	}
	return k;
}

void metric_arm_medians_doc(struct experiment_doc *exp,
			    const struct workload_ops *ops)
{
	const struct metric_def *m;
	size_t i, a, n;
	double *v = xcalloc(exp->nr_runs + 1, sizeof(*v));

	exp->has_metrics = MODEL_SET;
	for (i = 0; (m = metric_at(ops, i)); i++) {
		int any = 0;

		for (a = 0; a < exp->nr_arms; a++) {
			struct exp_arm *arm = &exp->arms[a];

			n = arm_values_doc(exp, (int64_t)a, m->name, v);
			if (!n)
				continue;
			num_set(&arm->metrics, &arm->nr_metrics, m->name,
				stats_median(v, n));
			arm->has_metrics = MODEL_SET;
			any = 1;
		}
		if (!any)
			continue;
		exp->metrics =
		    xrealloc(exp->metrics,
			     (exp->nr_metrics + 1) * sizeof(*exp->metrics));
		metric_to_doc(m, &exp->metrics[exp->nr_metrics]);
		exp->metrics[exp->nr_metrics].shown = shown(ops, m);
		exp->metrics[exp->nr_metrics++].has_shown = MODEL_SET;
	}
	free(v);
}
