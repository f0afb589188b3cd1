/*
 * The metric families of an experiment document (openmetrics_doc.h):
 * the metric's value in its base unit, family by family over the arms
 * and verdicts; a single run's I/Os, latencies and devices.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "openmetrics_doc.h"
#include "report_doc.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* How a metric's unit becomes a base unit: the families' suffix and the
 * factor. */
struct om_unit {
	const char *unit;   /* as a metric names it */
	const char *suffix; /* "_seconds", ...; "" for none */
	const char *om;	    /* OpenMetrics' UNIT, or NULL */
	double scale;
};

static const struct om_unit units[] = {
    {"ns", "_seconds", "seconds", 1e-9},
    {"us", "_seconds", "seconds", 1e-6},
    {"ms", "_seconds", "seconds", 1e-3},
    {"s", "_seconds", "seconds", 1},
    {"MB/s", "_bytes_per_second", NULL, 1e6},
    {"IO/s", "_ios_per_second", NULL, 1},
    {"ops/s", "_ops_per_second", NULL, 1},
};

/* The base unit of a metric's unit (none known: the value as it is). */
static const struct om_unit *unit_of(const char *unit)
{
	static const struct om_unit none = {"", "", NULL, 1};
	size_t i;

	for (i = 0; unit && i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].unit))
			return &units[i];
	return &none;
}

/* The verdicts a verdict gauge's set has, besides one it does not know. */
static const char *const verdict_names[] = {
    "faster", "slower", "equivalent", "inconclusive", "no verdict", "suspect",
};
#define NR_VERDICTS (sizeof(verdict_names) / sizeof(verdict_names[0]))

/* The analysed arms: runs, median and its interval in the base unit. */
static void arms(struct om_writer *w, const struct experiment_doc *doc,
		 const struct om_unit *u)
{
	const char *metric = doc->metric ? doc->metric->name : "";
	char name[96];
	size_t i;
	int k;
	static const char *const what[] = {"median", "median_ci_low",
					   "median_ci_high"};
	static const char *const help[] = {
	    "Median of the metric over the arm's runs.",
	    "Lower end of the median's confidence interval.",
	    "Upper end of the median's confidence interval.",
	};

	om_family(w, "iotrial_arm_runs", OM_GAUGE, NULL,
		  "Runs (or windows) of the arm so far.");
	for (i = 0; i < doc->nr_arms; i++) {
		struct om_label l = {"arm", doc->arms[i].label};

		if (doc->arms[i].summary)
			om_sample(w, &l, 1, (double)doc->arms[i].summary->n);
	}
	for (k = 0; k < 3; k++) {
		snprintf(name, sizeof(name), "iotrial_arm_%s%s", what[k],
			 u->suffix);
		om_family(w, name, OM_GAUGE, u->om, help[k]);
		for (i = 0; i < doc->nr_arms; i++) {
			const struct exp_arm_summary *s = doc->arms[i].summary;
			struct om_label l[2] = {{"arm", doc->arms[i].label},
						{"metric", metric}};
			double v;

			if (!s)
				continue;
			v = k == 0   ? s->median
			    : k == 1 ? s->ci_low
				     : s->ci_high;
			om_sample(w, l, 2, v * u->scale);
		}
	}
}

/* The verdicts: ratio, its interval and p, and the verdict as a set. */
static void verdicts(struct om_writer *w, const struct experiment_doc *doc)
{
	static const char *const what[] = {"ratio", "ratio_ci_low",
					   "ratio_ci_high", "p_value"};
	static const char *const help[] = {
	    "Estimated ratio of the arm's metric to the baseline's.",
	    "Lower end of the ratio's confidence interval.",
	    "Upper end of the ratio's confidence interval.",
	    ("p of the arm against the baseline (Holm-adjusted when there "
	     "are several arms)."),
	};
	char name[64];
	size_t i, k;

	if (!doc->nr_verdicts)
		return;
	for (k = 0; k < 4; k++) {
		snprintf(name, sizeof(name), "iotrial_arm_%s", what[k]);
		om_family(w, name, OM_GAUGE, NULL, help[k]);
		for (i = 0; i < doc->nr_verdicts; i++) {
			const struct exp_verdict *v = &doc->verdicts[i];
			const struct exp_comparison *c = v->cmp;
			struct om_label l[2] = {{"arm", v->label},
						{"baseline", v->baseline}};
			struct report_ratio r;
			double x;

			if (!c)
				continue;
			/* the comparison the verdict rests on, as the table */
			report_verdict_ratio(v, &r);
			x = k == 0		      ? r.ratio
			    : k == 1		      ? r.ci_low
			    : k == 2		      ? r.ci_high
			    : isfinite(c->p_adjusted) ? c->p_adjusted
						      : c->p;
			om_sample(w, l, 2, x);
		}
	}
	om_family(w, "iotrial_arm_verdict", OM_GAUGE, NULL,
		  "The arm's verdict against the baseline: 1 for the one it "
		  "has, 0 for the others.");
	for (i = 0; i < doc->nr_verdicts; i++) {
		const struct exp_verdict *v = &doc->verdicts[i];
		const char *has = v->verdict ? v->verdict : "no verdict";
		int known = 0;

		for (k = 0; k < NR_VERDICTS; k++) {
			struct om_label l[2] = {{"arm", v->label},
						{"verdict", verdict_names[k]}};

			known |= !strcmp(has, verdict_names[k]);
			om_sample(w, l, 2, !strcmp(has, verdict_names[k]));
		}
		if (!known) {
			struct om_label l[2] = {{"arm", v->label},
						{"verdict", has}};

			om_sample(w, l, 2, 1);
		}
	}
}

/* A run document's device row as the sampler's delta. */
static void delta_of(const struct disk_delta_doc *x, struct disk_delta *d)
{
	memset(d, 0, sizeof(*d));
	d->r_s = x->r_s;
	d->w_s = x->w_s;
	d->rrqm_s = x->rrqm_s;
	d->wrqm_s = x->wrqm_s;
	d->rmbps = x->rmbps;
	d->wmbps = x->wmbps;
	d->r_await_ms = x->r_await_ms;
	d->w_await_ms = x->w_await_ms;
	d->rareq_kib = x->rareq_kib;
	d->wareq_kib = x->wareq_kib;
	d->aqu_sz = x->aqu_sz;
	d->util_pct = x->util_pct;
	d->f_s = x->f_s;
	d->d_s = x->d_s;
	d->has_flushes = isfinite(x->f_s);
	d->has_discards = isfinite(x->d_s);
}

/* A single run's own numbers: I/Os, bytes, latencies, its devices. */
static void single_run(struct om_writer *w, const struct run_doc *r)
{
	static const char *const q_names[] = {"0.5", "0.9", "0.99", "0.999"};
	const struct run_latency *lat[2] = {NULL, NULL};
	const char *dirs[2] = {"read", "write"};
	struct om_device *devs;
	struct disk_delta *deltas;
	size_t i, n = 0;
	int d, q;

	om_single(w, "iotrial_run_duration_seconds", "seconds",
		  "Length of the run's timed part.", r->seconds);
	om_family(w, "iotrial_run_ios", OM_COUNTER, NULL,
		  "I/Os the workload completed in the timed part.");
	om_sample(w, (struct om_label[]){{"direction", "read"}}, 1,
		  (double)r->ops_read);
	om_sample(w, (struct om_label[]){{"direction", "write"}}, 1,
		  (double)r->ops_written);
	om_family(w, "iotrial_run_bytes", OM_COUNTER, "bytes",
		  "Bytes the workload moved in the timed part.");
	om_sample(w, (struct om_label[]){{"direction", "read"}}, 1,
		  (double)r->bytes_read);
	om_sample(w, (struct om_label[]){{"direction", "write"}}, 1,
		  (double)r->bytes_written);
	if (r->latency_ns) {
		lat[0] = r->latency_ns->read;
		lat[1] = r->latency_ns->write;
	}
	if (lat[0] || lat[1])
		om_family(w, "iotrial_run_latency_seconds", OM_SUMMARY,
			  "seconds", "Completion latency of the run's I/O.");
	for (d = 0; d < 2; d++) {
		const struct run_latency *l = lat[d];
		struct om_label lb = {"direction", dirs[d]};
		uint64_t v[4];

		if (!l || !l->count)
			continue;
		v[0] = l->p50;
		v[1] = l->p90;
		v[2] = l->p99;
		v[3] = l->p999;
		for (q = 0; q < 4; q++) {
			struct om_label lq[2] = {lb, {"quantile", q_names[q]}};

			om_sample(w, lq, 2, (double)v[q] * 1e-9);
		}
		om_part(w, "_sum", &lb, 1, l->mean * (double)l->count * 1e-9);
		om_part(w, "_count", &lb, 1, (double)l->count);
	}
	devs = xcalloc(r->nr_devices + 1, sizeof(*devs));
	deltas = xcalloc(r->nr_devices + 1, sizeof(*deltas));
	for (i = 0; i < r->nr_devices; i++) {
		if (!r->devices[i].delta || !r->devices[i].name)
			continue;
		delta_of(r->devices[i].delta, &deltas[n]);
		devs[n].name = r->devices[i].name;
		devs[n].d = &deltas[n];
		n++;
	}
	om_devices(w, devs, n);
	free(devs);
	free(deltas);
}

void om_experiment(struct om_writer *w, const struct experiment_doc *doc)
{
	const struct om_unit *u =
	    unit_of(doc->metric ? doc->metric->unit : NULL);
	struct om_label info[4] = {
	    {"workload", doc->workload ? doc->workload : ""},
	    {"metric", doc->metric ? doc->metric->name : ""},
	    {"unit", doc->metric && doc->metric->unit ? doc->metric->unit : ""},
	    {"id", doc->id ? doc->id : ""},
	};

	om_family(w, "iotrial_experiment_info", OM_GAUGE, NULL,
		  "What the other samples describe (always 1).");
	om_sample(w, info, 4, 1);
	om_single(w, "iotrial_experiment_runs", NULL,
		  "Runs (or windows) recorded so far.", (double)doc->nr_runs);
	om_single(w, "iotrial_experiment_blocks", NULL, "Complete blocks.",
		  (double)doc->blocks);
	if (doc->has_windows)
		om_single(w, "iotrial_experiment_windows", NULL,
			  "Windows of an observe done, settle windows "
			  "included.",
			  (double)doc->nr_windows);
	arms(w, doc, u);
	verdicts(w, doc);
	if (doc->runs_mode && !strcmp(doc->runs_mode, "run") &&
	    doc->nr_runs == 1 && doc->runs[0].run)
		single_run(w, doc->runs[0].run);
}
