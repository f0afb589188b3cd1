/*
 * Writing the iotrial/1 run object with json-c. Numbers keep their unit
 * in the key's name; doubles are rounded only by json-c's printing, which
 * keeps 17 significant digits, so a consumer can recompute iops from ops
 * and seconds exactly.
 */
#include <math.h>
#include <string.h>
#include "result_json.h"
#include "result_json_fid.h"
#include "metrics.h"
#include "../observe/truth.h"
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

static void add_u64(struct json_object *o, const char *key, uint64_t v)
{
	json_object_object_add(o, key, json_object_new_uint64(v));
}

static void add_double(struct json_object *o, const char *key, double v)
{
	json_object_object_add(o, key,
			       json_object_new_double(isfinite(v) ? v : 0));
}

/* A replay's device terms: each error, null when not judged, and why. */
static struct json_object *fidelity_dev_json(const struct run_result *r)
{
	static const char *const keys[4] = {"dev_read", "dev_write", "dev_size",
					    "dev_depth"};
	struct json_object *o = json_object_new_object();
	unsigned i;

	for (i = 0; i < 4; i++)
		if (r->fidelity_dev[i] >= 0)
			add_double(o, keys[i], r->fidelity_dev[i]);
		else
			json_object_object_add(o, keys[i], NULL);
	if (r->fidelity_dev_why)
		json_object_object_add(
		    o, "not_judged",
		    json_object_new_string(r->fidelity_dev_why));
	if (r->fidelity_dev_moved_bits) /* a setting's effect, not judged */
		json_object_object_add(o, "moved", fidelity_moved_json(r));
	return o;
}

static void add_str(struct json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, json_object_new_string(v ? v : ""));
}

static struct json_object *params_json(const struct workload *w)
{
	struct json_object *o = json_object_new_object();
	unsigned i;

	for (i = 0; i < w->nr_values; i++) {
		const struct param_spec *p = &w->ops->params[i];

		if (p->type == PARAM_CHOICE || p->type == PARAM_STRING)
			add_str(o, p->name, w->values[i].s);
		else if (p->type == PARAM_BOOL)
			json_object_object_add(
			    o, p->name,
			    json_object_new_boolean(w->values[i].u != 0));
		else
			add_u64(o, p->name, w->values[i].u);
	}
	return o;
}

static struct json_object *latency_json(const struct hist *h)
{
	struct json_object *o = json_object_new_object();

	add_u64(o, "count", h->count);
	add_u64(o, "min", h->count ? h->min_ns : 0);
	add_u64(o, "p50", hist_quantile(h, 0.50));
	add_u64(o, "p90", hist_quantile(h, 0.90));
	add_u64(o, "p99", hist_quantile(h, 0.99));
	add_u64(o, "p999", hist_quantile(h, 0.999));
	add_u64(o, "max", h->max_ns);
	add_double(o, "mean", hist_mean(h));
	return o;
}

/* The per-operation table of a file workload: latencies in us. */
static struct json_object *file_ops_json(const struct run_result *r)
{
	struct json_object *o = json_object_new_object();
	unsigned i;

	for (i = 0; i < r->nr_op_results; i++) {
		const struct op_result *op = &r->op_results[i];
		struct json_object *e;

		if (!op->lat.count && !op->errors)
			continue;
		e = json_object_new_object();
		add_u64(e, "count", op->lat.count);
		add_u64(e, "errors", op->errors);
		add_double(e, "mean_us", hist_mean(&op->lat) / 1e3);
		add_double(e, "p50_us",
			   (double)hist_quantile(&op->lat, 0.50) / 1e3);
		add_double(e, "p99_us",
			   (double)hist_quantile(&op->lat, 0.99) / 1e3);
		add_double(e, "max_us", (double)op->lat.max_ns / 1e3);
		json_object_object_add(o, op->name, e);
	}
	return o;
}

/*
 * "regime": per knob in force, whether the run reached where it acts:
 * {"knob", "canonical", "object", "value", "state", "why"}.
 */
static struct json_object *regimes_json(const struct run_result *r)
{
	struct json_object *a = json_object_new_array();
	unsigned i;

	for (i = 0; i < r->nr_regimes; i++) {
		const struct run_regime *g = &r->regimes[i];
		struct json_object *o = json_object_new_object();

		add_str(o, "knob", g->knob);
		add_str(o, "canonical", g->canonical);
		add_str(o, "object", g->object);
		add_str(o, "value", g->value);
		add_str(o, "state", g->state);
		add_str(o, "why", g->why);
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *strings_json(char *const *list, unsigned nr)
{
	struct json_object *a = json_object_new_array();
	unsigned i;

	for (i = 0; i < nr; i++)
		json_object_array_add(a, json_object_new_string(list[i]));
	return a;
}

/* An engine's features (enum engine_feature) by name, lowest bit first. */
static struct json_object *features_json(unsigned features)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < ENGINE_FEATS; i++)
		if (features & (1u << i))
			json_object_array_add(
			    a, json_object_new_string(
				   engine_feature_name(1u << i)));
	return a;
}

/* The kinds of r's warnings, by name, in the order of "warnings". */
static struct json_object *warn_kinds_json(const struct run_result *r)
{
	struct json_object *a = json_object_new_array();
	unsigned i;

	for (i = 0; i < r->nr_warnings; i++)
		json_object_array_add(
		    a, json_object_new_string(run_warn_kind_name(
			   r->warn_kinds
			       ? r->warn_kinds[i]
			       : run_warn_kind_of_text(r->warnings[i]))));
	return a;
}

/* A job's latency per direction it moved, the keys of latency_json(). */
static struct json_object *job_lat_json(const struct job_result *j)
{
	static const char *const dir[IO_DIRS] = {"read", "write"};
	struct json_object *o = json_object_new_object();

	for (unsigned d = 0; d < IO_DIRS; d++) {
		const struct job_lat *l = &j->lat[d];
		struct json_object *e;

		if (!j->ops[d])
			continue;
		e = json_object_new_object();
		add_u64(e, "count", l->count);
		add_u64(e, "min", l->min_ns);
		add_u64(e, "p50", l->p50_ns);
		add_u64(e, "p90", l->p90_ns);
		add_u64(e, "p99", l->p99_ns);
		add_u64(e, "p999", l->p999_ns);
		add_u64(e, "max", l->max_ns);
		add_double(e, "mean", l->mean_ns);
		json_object_object_add(o, dir[d], e);
	}
	return o;
}

static struct json_object *jobs_json(const struct run_result *r)
{
	struct json_object *a = json_object_new_array();
	unsigned i;

	for (i = 0; i < r->nr_jobs; i++) {
		const struct job_result *j = &r->jobs[i];
		struct json_object *o = json_object_new_object();
		double s = j->seconds > 0 ? j->seconds : r->seconds;
		uint64_t ops = j->ops[IO_READ] + j->ops[IO_WRITE];
		uint64_t bytes = j->bytes[IO_READ] + j->bytes[IO_WRITE];

		add_u64(o, "job", i);
		add_u64(o, "ops", ops);
		add_u64(o, "bytes_read", j->bytes[IO_READ]);
		add_u64(o, "bytes_written", j->bytes[IO_WRITE]);
		add_double(o, "seconds", s);
		add_double(o, "iops", s > 0 ? (double)ops / s : 0);
		add_double(o, "mbps", s > 0 ? (double)bytes / s / 1e6 : 0);
		add_double(o, "user_s", j->user_s);
		add_double(o, "sys_s", j->sys_s);
		if (j->have_lat) {
			/* per job, as fio's JSON has it per clone */
			add_u64(o, "ops_read", j->ops[IO_READ]);
			add_u64(o, "ops_written", j->ops[IO_WRITE]);
			json_object_object_add(o, "latency_ns",
					       job_lat_json(j));
		}
		json_object_array_add(a, o);
	}
	return a;
}

/* "exec": the command, its status, what it printed last. */
static struct json_object *exec_json(const struct run_exec *ex)
{
	struct json_object *o = json_object_new_object();

	add_str(o, "cmd", ex->cmd ? ex->cmd : "");
	json_object_object_add(o, "status", json_object_new_int(ex->status));
	json_object_object_add(
	    o, "printed",
	    ex->have_printed ? json_object_new_double(ex->printed) : NULL);
	add_str(o, "stdout_tail", ex->stdout_tail ? ex->stdout_tail : "");
	add_str(o, "stderr_tail", ex->stderr_tail ? ex->stderr_tail : "");
	return o;
}

/* "limits": the run's cgroup, what it allowed and the memory used. */
static struct json_object *limits_json(const struct run_limits *l)
{
	struct json_object *o = json_object_new_object();

	add_str(o, "cgroup", l->cgroup ? l->cgroup : "");
	json_object_object_add(
	    o, "memory_max",
	    l->memory_max ? json_object_new_uint64(l->memory_max) : NULL);
	json_object_object_add(
	    o, "memory_peak",
	    l->memory_peak ? json_object_new_uint64(l->memory_peak) : NULL);
	json_object_object_add(
	    o, "cpus", l->cpus ? json_object_new_string(l->cpus) : NULL);
	json_object_object_add(
	    o, "mems", l->mems ? json_object_new_string(l->mems) : NULL);
	return o;
}

static struct json_object *vhdr_json(const struct run_verify_hdr *h)
{
	struct json_object *o = json_object_new_object();

	add_u64(o, "file_id", h->file_id);
	add_u64(o, "offset", h->offset_bytes);
	add_u64(o, "seed", h->seed);
	add_u64(o, "seq", h->seq);
	return o;
}

/* "verify": blocks checked, mismatches, the check's CPU, the first. */
static struct json_object *verify_json(const struct run_verify *v)
{
	struct json_object *o = json_object_new_object();
	struct json_object *f = NULL;

	add_str(o, "method", v->method);
	add_u64(o, "blocks", v->blocks);
	add_u64(o, "mismatches", v->mismatches);
	add_double(o, "cpu_s", v->cpu_s);
	add_double(o, "readback_s", v->readback_s);
	if (v->have_first) {
		f = json_object_new_object();
		add_str(f, "file", v->file);
		add_u64(f, "offset", v->offset_bytes);
		json_object_object_add(
		    f, "bad_byte",
		    v->bad_byte == UINT64_MAX
			? NULL
			: json_object_new_uint64(v->bad_byte));
		json_object_object_add(f, "header_ok",
				       json_object_new_boolean(v->magic_ok));
		json_object_object_add(f, "crc_ok",
				       json_object_new_boolean(v->crc_ok));
		add_str(f, "found_by", v->in_read ? "read" : "read-back");
		json_object_object_add(f, "expected", vhdr_json(&v->want));
		json_object_object_add(f, "found", vhdr_json(&v->found));
	}
	json_object_object_add(o, "first", f);
	return o;
}

/*
 * "described": the line that says what ran where, in the workload's own
 * words (its describe hook) or, for a block-I/O workload, its block
 * size, engine, depth, jobs, buffering and size; without the newline.
 * It is kept in the object because only the live workload can say it.
 */
static void add_described(struct json_object *o, const struct workload *w,
			  const struct target *t)
{
	struct strbuf sb = STRBUF_INIT;
	const char *where = t->workdir ? t->workdir : t->path;
	unsigned jobs = (unsigned)workload_u64(w, "jobs"), i;

	if (w->ops->describe) {
		w->ops->describe(w, t, &sb);
	} else if (!workload_param(w, "bs")) {
		/* not a block-I/O workload: its parameters as they are */
		strbuf_addf(&sb, "%s:", w->ops->name);
		for (i = 0; w->ops->params[i].name; i++)
			if (*workload_str(w, w->ops->params[i].name))
				strbuf_addf(
				    &sb, "%s %s %s", i ? "," : "",
				    w->ops->params[i].name,
				    workload_str(w, w->ops->params[i].name));
		strbuf_addf(&sb, ", on %s", where);
	} else {
		strbuf_addf(&sb,
			    "%s: bs %s, %s, iodepth %s, %u job%s, %s, size %s "
			    "per job, on %s",
			    w->ops->name, workload_str(w, "bs"),
			    workload_str(w, "engine"),
			    workload_str(w, "iodepth"), jobs,
			    jobs == 1 ? "" : "s",
			    workload_u64(w, "direct") ? "O_DIRECT" : "buffered",
			    workload_str(w, "size"), where);
	}
	strbuf_rtrim(&sb);
	if (t->holds) /* opened read only: say so where the run is said */
		strbuf_addf(&sb, ", reads only (it %s)", t->holds);
	add_str(o, "described", sb.buf);
	strbuf_release(&sb);
}

struct json_object *result_to_json(const struct run_meta *meta,
				   const struct run_result *r)
{
	struct json_object *o = json_object_new_object();
	struct json_object *t = json_object_new_object();
	struct json_object *k = json_object_new_object();
	struct json_object *lat = json_object_new_object();
	struct json_object *cpu = json_object_new_object();
	struct json_object *metric = json_object_new_object();
	const struct workload *w = meta->w;
	const struct metric_def *m;
	unsigned i;

	add_str(o, "schema", RESULT_SCHEMA);
	add_str(o, "iotrial_version", IOTRIAL_VERSION);
	add_str(o, "workload", w->ops->name);
	json_object_object_add(o, "params", params_json(w));
	for (i = 0; i < meta->nr_knobs; i++)
		add_str(k, meta->knobs[i].name, meta->knobs[i].value);
	json_object_object_add(o, "knobs", k);
	if (meta->t) {
		add_str(t, "spec", meta->t->spec);
		add_str(t, "kind", kind_names[meta->t->kind]);
		add_str(t, "path", meta->t->path);
		add_u64(t, "logical_block_bytes", meta->t->logical_block_bytes);
		add_described(o, w, meta->t);
	}
	json_object_object_add(o, "target", t);
	if (w->ro.ios)
		add_u64(o, "ios_requested", w->ro.ios);
	else
		add_double(o, "time_requested_s", (double)w->ro.time_ns / 1e9);
	add_double(o, "ramp_s", (double)w->ro.ramp_ns / 1e9);
	add_u64(o, "seed", w->ro.seed);
	add_double(o, "seconds", r->seconds);
	add_double(o, "burst_seconds", r->burst_seconds);
	add_u64(o, "ops", run_result_ops(r));
	add_double(o, "iops", run_result_iops(r));
	add_double(o, "mbps", run_result_mbps(r));
	add_u64(o, "bytes_read", r->bytes[IO_READ]);
	add_u64(o, "bytes_written", r->bytes[IO_WRITE]);
	add_u64(o, "ops_read", r->ops[IO_READ]);
	add_u64(o, "ops_written", r->ops[IO_WRITE]);
	add_u64(o, "fsyncs", r->fsyncs);
	if (r->nr_op_results) {
		add_u64(o, "file_ops_total", r->file_ops);
		add_double(o, "ops_per_s", run_result_ops_per_s(r));
		json_object_object_add(o, "file_ops", file_ops_json(r));
	}
	if (r->have_dbench)
		add_double(o, "dbench_mbps", r->dbench_mbps);
	if (r->have_fidelity) /* a replay's score, docs/TRACE-FORMAT.md */
		add_double(o, "fidelity", r->fidelity);
	if (r->have_fidelity_dev)
		json_object_object_add(o, "fidelity_device",
				       fidelity_dev_json(r));
	fidelity_members_json(o, r);
	json_object_object_add(o, "interrupted",
			       json_object_new_boolean(r->interrupted));
	if (r->ops[IO_READ])
		json_object_object_add(lat, "read",
				       latency_json(&r->lat[IO_READ]));
	if (r->ops[IO_WRITE])
		json_object_object_add(lat, "write",
				       latency_json(&r->lat[IO_WRITE]));
	json_object_object_add(o, "latency_ns", lat);
	add_double(cpu, "user_s", r->cpu.user_s);
	add_double(cpu, "sys_s", r->cpu.sys_s);
	add_double(cpu, "system_busy_s", r->cpu.system_busy_s);
	add_double(cpu, "system_total_s", r->cpu.system_total_s);
	add_double(cpu, "system_steal_s", r->cpu.system_steal_s);
	json_object_object_add(o, "cpu", cpu);
	json_object_object_add(o, "jobs", jobs_json(r));
	m = meta->metric ? meta->metric : metric_default(w);
	add_str(metric, "name", m->name);
	add_double(metric, "value", metric_value(m, w, r));
	json_object_object_add(metric, "higher_is_better",
			       json_object_new_boolean(m->higher_is_better));
	add_str(metric, "unit", m->unit);
	json_object_object_add(o, "metric", metric);
	if (r->limits)
		json_object_object_add(o, "limits", limits_json(r->limits));
	if (r->exec)
		json_object_object_add(o, "exec", exec_json(r->exec));
	if (r->verify)
		json_object_object_add(o, "verify", verify_json(r->verify));
	json_object_object_add(o, "metrics", metric_values_json(w, r));
	truth_to_json(r->truth, o); /* "devices", "truth", "env" */
	json_object_object_add(o, "warnings",
			       strings_json(r->warnings, r->nr_warnings));
	json_object_object_add(o, "warning_kinds", warn_kinds_json(r));
	json_object_object_add(o, "notes", strings_json(r->notes, r->nr_notes));
	if (r->have_engine)
		json_object_object_add(o, "engine_features",
				       features_json(r->engine_features));
	if (r->nr_regimes)
		json_object_object_add(o, "regime", regimes_json(r));
	return o;
}
