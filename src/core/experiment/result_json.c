/*
 * The iotrial/1 run object as a document (model/run_doc.h): this file
 * fills it from a run's result, the codec (model/model_json.h) prints
 * it. Numbers keep their unit in the key's name; a measurement is
 * printed with json-c's 17 significant digits, so a consumer can
 * recompute iops from ops and seconds exactly.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "result_json.h"
#include "result_json_fid.h"
#include "metrics.h"
#include "../model/model_json.h"
#include "../observe/truth.h"
#include "../../util/xalloc.h"
#include "../../version.h"
#include "../../util/banned.h"

static const char *const kind_names[] = {
    [TARGET_DIR] = "dir",
    [TARGET_BLOCKDEV] = "blockdev",
    [TARGET_SCRATCH] = "scratch",
};

const char *result_metric_name(const struct workload *w)
{
	return metric_default(w)->name;
}

double result_metric_value(const struct workload *w, const struct run_result *r)
{
	return metric_value(metric_default(w), w, r);
}

/* A measurement as the run object has always printed it: 0, not null
 * or NaN, when it is not a finite number. */
static double fin(double v)
{
	return isfinite(v) ? v : 0;
}

/* An owned copy of s, "" for NULL: the members that are never null. */
static char *str(const char *s)
{
	return xstrdup(s ? s : "");
}

/* An owned copy of s, or NULL (null). */
static char *str_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* A count as a workload parameter's or the seed's value. */
static void value_u64(struct model_value *v, uint64_t u)
{
	if (u > INT64_MAX) {
		v->type = MODEL_V_UINT;
		v->u = u;
	} else {
		v->type = MODEL_V_INT;
		v->i = (int64_t)u;
	}
}

/* A replay's device terms: each error, null when not judged, and why. */
static struct run_fidelity_dev *fidelity_dev_doc(const struct run_result *r)
{
	struct run_fidelity_dev *f = xcalloc(1, sizeof(*f));
	double *out[4] = {&f->dev_read, &f->dev_write, &f->dev_size,
			  &f->dev_depth};
	unsigned i;

	for (i = 0; i < 4; i++)
		*out[i] =
		    r->fidelity_dev[i] >= 0 ? fin(r->fidelity_dev[i]) : NAN;
	f->not_judged = str_or_null(r->fidelity_dev_why);
	fidelity_moved_doc(r, f); /* a setting's effect, not judged */
	return f;
}

/* "params": every parameter of w, typed as its spec says. */
static void params_doc(const struct workload *w, struct run_doc *doc)
{
	unsigned i;

	doc->params = xcalloc(w->nr_values ?: 1, sizeof(*doc->params));
	doc->nr_params = w->nr_values;
	for (i = 0; i < w->nr_values; i++) {
		const struct param_spec *p = &w->ops->params[i];
		struct model_param *d = &doc->params[i];

		d->name = xstrdup(p->name);
		if (p->type == PARAM_CHOICE || p->type == PARAM_STRING) {
			d->value.type = MODEL_V_STR;
			d->value.s = str(w->values[i].s);
		} else if (p->type == PARAM_BOOL) {
			d->value.type = MODEL_V_BOOL;
			d->value.b = w->values[i].u != 0;
		} else {
			value_u64(&d->value, w->values[i].u);
		}
	}
}

/* One direction's latency: "count", "min", ... "mean" (ns). */
static struct run_latency *latency_doc(const struct job_lat *l)
{
	struct run_latency *o = xcalloc(1, sizeof(*o));

	o->count = l->count;
	o->min = l->min_ns;
	o->p50 = l->p50_ns;
	o->p90 = l->p90_ns;
	o->p99 = l->p99_ns;
	o->p999 = l->p999_ns;
	o->max = l->max_ns;
	o->mean = fin(l->mean_ns);
	return o;
}

/* "latency_ns": each direction that moved something. */
static struct run_latencies *latencies_doc(const struct job_lat lat[IO_DIRS],
					   const uint64_t ops[IO_DIRS])
{
	struct run_latencies *o = xcalloc(1, sizeof(*o));

	if (ops[IO_READ])
		o->read = latency_doc(&lat[IO_READ]);
	if (ops[IO_WRITE])
		o->write = latency_doc(&lat[IO_WRITE]);
	return o;
}

/* The per-operation table of a file workload: latencies in us. */
static void file_ops_doc(const struct run_result *r, struct run_doc *doc)
{
	unsigned i;

	doc->file_ops = xcalloc(r->nr_op_results, sizeof(*doc->file_ops));
	for (i = 0; i < r->nr_op_results; i++) {
		const struct op_result *op = &r->op_results[i];
		struct run_file_op *e = &doc->file_ops[doc->nr_file_ops];

		if (!op->lat.count && !op->errors)
			continue;
		doc->nr_file_ops++;
		e->name = xstrdup(op->name);
		e->count = op->lat.count;
		e->errors = op->errors;
		e->mean_us = fin(hist_mean(&op->lat) / 1e3);
		e->p50_us = (double)hist_quantile(&op->lat, 0.50) / 1e3;
		e->p99_us = (double)hist_quantile(&op->lat, 0.99) / 1e3;
		e->max_us = (double)op->lat.max_ns / 1e3;
	}
	doc->has_file_ops = MODEL_SET;
}

/*
 * "regime": per knob in force, whether the run reached where it acts:
 * {"knob", "canonical", "object", "value", "state", "why"}.
 */
static void regimes_doc(const struct run_result *r, struct run_doc *doc)
{
	unsigned i;

	doc->regime = xcalloc(r->nr_regimes, sizeof(*doc->regime));
	doc->nr_regime = r->nr_regimes;
	doc->has_regime = MODEL_SET;
	for (i = 0; i < r->nr_regimes; i++) {
		const struct run_regime *g = &r->regimes[i];
		struct run_regime_doc *o = &doc->regime[i];

		o->knob = str(g->knob);
		o->canonical = str(g->canonical);
		o->object = str(g->object);
		o->value = str(g->value);
		o->state = str(g->state);
		o->why = str(g->why);
	}
}

/* Owned copies of list[nr]. */
static char **strings_doc(char *const *list, unsigned nr, size_t *out_nr)
{
	char **a = xcalloc(nr ?: 1, sizeof(*a));
	unsigned i;

	for (i = 0; i < nr; i++)
		a[i] = xstrdup(list[i]);
	*out_nr = nr;
	return a;
}

/* An engine's features (enum engine_feature) by name, lowest bit first;
 * and the kinds of r's warnings, in the order of "warnings". */
static void names_doc(const struct run_result *r, struct run_doc *doc)
{
	unsigned i;

	doc->warning_kinds = xcalloc(r->nr_warnings ?: 1, sizeof(char *));
	for (i = 0; i < r->nr_warnings; i++)
		doc->warning_kinds[doc->nr_warning_kinds++] =
		    xstrdup(run_warn_kind_name(
			r->warn_kinds ? r->warn_kinds[i]
				      : run_warn_kind_of_text(r->warnings[i])));
	if (!r->have_engine)
		return;
	doc->engine_features = xcalloc(ENGINE_FEATS, sizeof(char *));
	for (i = 0; i < ENGINE_FEATS; i++)
		if (r->engine_features & (1u << i))
			doc->engine_features[doc->nr_engine_features++] =
			    xstrdup(engine_feature_name(1u << i));
	doc->has_engine_features = MODEL_SET;
}

static void jobs_doc(const struct run_result *r, struct run_doc *doc)
{
	unsigned i;

	doc->jobs = xcalloc(r->nr_jobs ?: 1, sizeof(*doc->jobs));
	doc->nr_jobs = r->nr_jobs;
	for (i = 0; i < r->nr_jobs; i++) {
		const struct job_result *j = &r->jobs[i];
		struct run_job *o = &doc->jobs[i];
		double s = j->seconds > 0 ? j->seconds : r->seconds;
		uint64_t ops = j->ops[IO_READ] + j->ops[IO_WRITE];
		uint64_t bytes = j->bytes[IO_READ] + j->bytes[IO_WRITE];

		o->job = i;
		o->ops = ops;
		o->bytes_read = j->bytes[IO_READ];
		o->bytes_written = j->bytes[IO_WRITE];
		o->seconds = fin(s);
		o->iops = s > 0 ? fin((double)ops / s) : 0;
		o->mbps = s > 0 ? fin((double)bytes / s / 1e6) : 0;
		o->user_s = fin(j->user_s);
		o->sys_s = fin(j->sys_s);
		if (j->have_lat) {
			/* per job, as fio's JSON has it per clone */
			o->ops_read = j->ops[IO_READ];
			o->has_ops_read = MODEL_SET;
			o->ops_written = j->ops[IO_WRITE];
			o->has_ops_written = MODEL_SET;
			o->latency_ns = latencies_doc(j->lat, j->ops);
		}
	}
}

/* "exec": the command, its status, what it printed last. */
static struct run_exec_doc *exec_doc(const struct run_exec *ex)
{
	struct run_exec_doc *o = xcalloc(1, sizeof(*o));

	o->cmd = str(ex->cmd);
	o->status = ex->status;
	o->printed = ex->have_printed ? ex->printed : NAN;
	o->stdout_tail = str(ex->stdout_tail);
	o->stderr_tail = str(ex->stderr_tail);
	return o;
}

/* "limits": the run's cgroup, what it allowed and the memory used. */
static struct run_limits_doc *limits_doc(const struct run_limits *l)
{
	struct run_limits_doc *o = xcalloc(1, sizeof(*o));

	o->cgroup = str(l->cgroup);
	o->memory_max = l->memory_max;
	o->has_memory_max = l->memory_max ? MODEL_SET : MODEL_NULL;
	o->memory_peak = l->memory_peak;
	o->has_memory_peak = l->memory_peak ? MODEL_SET : MODEL_NULL;
	o->cpus = str_or_null(l->cpus);
	o->mems = str_or_null(l->mems);
	return o;
}

static struct run_verify_hdr_doc *vhdr_doc(const struct run_verify_hdr *h)
{
	struct run_verify_hdr_doc *o = xcalloc(1, sizeof(*o));

	o->file_id = h->file_id;
	o->offset = h->offset_bytes;
	o->seed = h->seed;
	o->seq = h->seq;
	return o;
}

/* "verify": blocks checked, mismatches, the check's CPU, the first. */
static struct run_verify_doc *verify_doc(const struct run_verify *v)
{
	struct run_verify_doc *o = xcalloc(1, sizeof(*o));
	struct run_verify_first *f;

	o->method = str(v->method);
	o->blocks = v->blocks;
	o->mismatches = v->mismatches;
	o->cpu_s = fin(v->cpu_s);
	o->readback_s = fin(v->readback_s);
	if (!v->have_first)
		return o;
	f = o->first = xcalloc(1, sizeof(*f));
	f->file = str(v->file);
	f->offset = v->offset_bytes;
	f->bad_byte = v->bad_byte;
	f->has_bad_byte = v->bad_byte == UINT64_MAX ? MODEL_NULL : MODEL_SET;
	f->header_ok = v->magic_ok;
	f->crc_ok = v->crc_ok;
	f->found_by = xstrdup(v->in_read ? "read" : "read-back");
	f->expected = vhdr_doc(&v->want);
	f->found = vhdr_doc(&v->found);
	return o;
}

/*
 * "described": the line that says what ran where, in the workload's own
 * words (its describe hook) or its parameters as they are; without the
 * newline. It is kept in the object because only the live workload can
 * say it.
 */
static char *described(const struct workload *w, const struct target *t)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned i;

	if (w->ops->describe) {
		w->ops->describe(w, t, &sb);
	} else {
		strbuf_addf(&sb, "%s:", w->ops->name);
		for (i = 0; i < w->nr_values; i++)
			if (*w->values[i].s)
				strbuf_addf(&sb, "%s %s %s", i ? "," : "",
					    w->ops->params[i].name,
					    w->values[i].s);
		strbuf_addf(&sb, ", on %s", t->workdir ? t->workdir : t->path);
	}
	strbuf_rtrim(&sb);
	if (t->holds) /* opened read only: say so where the run is said */
		strbuf_addf(&sb, ", reads only (it %s)", t->holds);
	return strbuf_detach(&sb, NULL);
}

/* "target": where the run ran, and what ran there in words. */
static void target_doc(const struct run_meta *meta, struct run_doc *doc)
{
	struct run_target *t;

	if (!meta->t)
		return;
	t = doc->target = xcalloc(1, sizeof(*t));
	t->spec = str(meta->t->spec);
	t->kind = str(kind_names[meta->t->kind]);
	t->path = str(meta->t->path);
	t->logical_block_bytes = meta->t->logical_block_bytes;
	doc->described = described(meta->w, meta->t);
}

/* "latency_ns", "cpu" and "metric". */
static void numbers_doc(const struct run_meta *meta, const struct run_result *r,
			struct run_doc *doc)
{
	const struct metric_def *m =
	    meta->metric ? meta->metric : metric_default(meta->w);
	struct job_lat lat[IO_DIRS];

	job_lat_from_hist(&lat[IO_READ], &r->lat[IO_READ]);
	job_lat_from_hist(&lat[IO_WRITE], &r->lat[IO_WRITE]);
	doc->latency_ns = latencies_doc(lat, r->ops);
	doc->cpu = xcalloc(1, sizeof(*doc->cpu));
	doc->cpu->user_s = fin(r->cpu.user_s);
	doc->cpu->sys_s = fin(r->cpu.sys_s);
	doc->cpu->system_busy_s = fin(r->cpu.system_busy_s);
	doc->cpu->system_total_s = fin(r->cpu.system_total_s);
	doc->cpu->system_steal_s = fin(r->cpu.system_steal_s);
	doc->metric = xcalloc(1, sizeof(*doc->metric));
	doc->metric->name = str(m->name);
	doc->metric->value = fin(metric_value(m, meta->w, r));
	doc->metric->higher_is_better = m->higher_is_better;
	doc->metric->unit = str(m->unit);
}

void result_to_doc(const struct run_meta *meta, const struct run_result *r,
		   struct run_doc *doc)
{
	const struct workload *w = meta->w;
	unsigned i;

	run_doc_init(doc);
	doc->schema = xstrdup(RESULT_SCHEMA);
	doc->iotrial_version = xstrdup(IOTRIAL_VERSION);
	doc->workload = xstrdup(w->ops->name);
	params_doc(w, doc);
	doc->knobs = xcalloc(meta->nr_knobs ?: 1, sizeof(*doc->knobs));
	doc->nr_knobs = meta->nr_knobs;
	for (i = 0; i < meta->nr_knobs; i++) {
		doc->knobs[i].name = xstrdup(meta->knobs[i].name);
		doc->knobs[i].value = str(meta->knobs[i].value);
	}
	target_doc(meta, doc);
	if (w->ro.ios) {
		doc->ios_requested = w->ro.ios;
		doc->has_ios_requested = MODEL_SET;
	} else {
		doc->time_requested_s = (double)w->ro.time_ns / 1e9;
		doc->has_time_requested_s = MODEL_SET;
	}
	doc->ramp_s = (double)w->ro.ramp_ns / 1e9;
	value_u64(&doc->seed, w->ro.seed);
	doc->seconds = fin(r->seconds);
	doc->burst_seconds = fin(r->burst_seconds);
	doc->ops = run_result_ops(r);
	doc->iops = fin(run_result_iops(r));
	doc->mbps = fin(run_result_mbps(r));
	doc->bytes_read = r->bytes[IO_READ];
	doc->bytes_written = r->bytes[IO_WRITE];
	doc->ops_read = r->ops[IO_READ];
	doc->ops_written = r->ops[IO_WRITE];
	doc->fsyncs = r->fsyncs;
	if (r->nr_op_results) {
		doc->file_ops_total = r->file_ops;
		doc->has_file_ops_total = MODEL_SET;
		doc->ops_per_s = fin(run_result_ops_per_s(r));
		doc->has_ops_per_s = MODEL_SET;
		file_ops_doc(r, doc);
	}
	doc->dbench_mbps = fin(r->dbench_mbps);
	doc->has_dbench_mbps = r->have_dbench ? MODEL_SET : MODEL_ABSENT;
	/* a replay's score, docs/TRACE-FORMAT.md */
	doc->fidelity = fin(r->fidelity);
	doc->has_fidelity = r->have_fidelity ? MODEL_SET : MODEL_ABSENT;
	if (r->have_fidelity_dev)
		doc->fidelity_device = fidelity_dev_doc(r);
	fidelity_members_doc(r, doc);
	doc->interrupted = r->interrupted;
	numbers_doc(meta, r, doc);
	jobs_doc(r, doc);
	if (r->limits)
		doc->limits = limits_doc(r->limits);
	if (r->exec)
		doc->exec = exec_doc(r->exec);
	if (r->verify)
		doc->verify = verify_doc(r->verify);
	metric_values_doc(w, r, doc);
	truth_to_doc(r->truth, doc); /* "devices", "truth", "env" */
	doc->warnings =
	    strings_doc(r->warnings, r->nr_warnings, &doc->nr_warnings);
	names_doc(r, doc);
	doc->notes = strings_doc(r->notes, r->nr_notes, &doc->nr_notes);
	if (r->nr_regimes)
		regimes_doc(r, doc);
}
