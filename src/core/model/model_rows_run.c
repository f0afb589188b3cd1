/*
 * The tables of a run object (run_doc.h), one row per member in the
 * order experiment/result_json.c prints them, and the run document's
 * lifecycle and codec entry points.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model-int.h"
#include "model_json.h"
#include "../../util/error.h"
#include "../../version.h"
#include "../../util/banned.h"

#define S struct run_target
static const struct model_row target_rows[] = {
    M(S, "spec", MK_STR, spec, 0),
    M(S, "kind", MK_STR, kind, 0),
    M(S, "path", MK_STR, path, 0),
    M(S, "logical_block_bytes", MK_UINT, logical_block_bytes, 0),
};
static MODEL_DESC(target_desc, S, target_rows);
#undef S

#define S struct run_latency
static const struct model_row latency_rows[] = {
    M(S, "count", MK_UINT, count, 0), M(S, "min", MK_UINT, min, 0),
    M(S, "p50", MK_UINT, p50, 0),     M(S, "p90", MK_UINT, p90, 0),
    M(S, "p99", MK_UINT, p99, 0),     M(S, "p999", MK_UINT, p999, 0),
    M(S, "max", MK_UINT, max, 0),     M(S, "mean", MK_DBL, mean, 0),
};
static MODEL_DESC(latency_desc, S, latency_rows);
#undef S

#define S struct run_latencies
static const struct model_row latencies_rows[] = {
    MO(S, "read", MK_PTR, read, MF_OPT, &latency_desc),
    MO(S, "write", MK_PTR, write, MF_OPT, &latency_desc),
};
static MODEL_DESC(latencies_desc, S, latencies_rows);
#undef S

#define S struct run_cpu
static const struct model_row cpu_rows[] = {
    M(S, "user_s", MK_DBL, user_s, 0),
    M(S, "sys_s", MK_DBL, sys_s, 0),
    M(S, "system_busy_s", MK_DBL, system_busy_s, 0),
    M(S, "system_total_s", MK_DBL, system_total_s, 0),
    M(S, "system_steal_s", MK_DBL, system_steal_s, 0),
    MH(S, "process_s", MK_DBL, process_s, 0),
    MH(S, "workers_s", MK_DBL, workers_s, 0),
    MH(S, "outside_s", MK_DBL, outside_s, 0),
};
static MODEL_DESC(cpu_desc, S, cpu_rows);
#undef S

#define S struct run_job
static const struct model_row job_rows[] = {
    M(S, "job", MK_UINT, job, 0),
    M(S, "ops", MK_UINT, ops, 0),
    M(S, "bytes_read", MK_UINT, bytes_read, 0),
    M(S, "bytes_written", MK_UINT, bytes_written, 0),
    M(S, "seconds", MK_DBL, seconds, 0),
    M(S, "iops", MK_DBL, iops, 0),
    M(S, "mbps", MK_DBL, mbps, 0),
    M(S, "user_s", MK_DBL, user_s, 0),
    M(S, "sys_s", MK_DBL, sys_s, 0),
    MH(S, "ops_read", MK_UINT, ops_read, 0),
    MH(S, "ops_written", MK_UINT, ops_written, 0),
    MO(S, "latency_ns", MK_PTR, latency_ns, MF_OPT, &latencies_desc),
};
static MODEL_DESC(job_desc, S, job_rows);
#undef S

#define S struct run_metric
static const struct model_row metric_rows[] = {
    M(S, "name", MK_STR, name, 0),
    M(S, "value", MK_DBL, value, MF_NULL),
    M(S, "higher_is_better", MK_BOOL, higher_is_better, 0),
    M(S, "unit", MK_STR, unit, 0),
};
static MODEL_DESC(metric_desc, S, metric_rows);
#undef S

#define S struct run_file_op
static const struct model_row file_op_rows[] = {
    M(S, "count", MK_UINT, count, 0),	 M(S, "errors", MK_UINT, errors, 0),
    M(S, "mean_us", MK_DBL, mean_us, 0), M(S, "p50_us", MK_DBL, p50_us, 0),
    M(S, "p99_us", MK_DBL, p99_us, 0),	 M(S, "max_us", MK_DBL, max_us, 0),
};
static const struct model_desc file_op_desc = {
    .name = "struct run_file_op",
    .size = sizeof(S),
    .keep = offsetof(S, keep),
    .key = offsetof(S, name),
    .rows = file_op_rows,
    .nr_rows = sizeof(file_op_rows) / sizeof(file_op_rows[0]),
};
#undef S

#define S struct run_fidelity_dev
static const struct model_row fidelity_dev_rows[] = {
    M(S, "dev_read", MK_DBL, dev_read, MF_NULL),
    M(S, "dev_write", MK_DBL, dev_write, MF_NULL),
    M(S, "dev_size", MK_DBL, dev_size, MF_NULL),
    M(S, "dev_depth", MK_DBL, dev_depth, MF_NULL),
    M(S, "not_judged", MK_STR, not_judged, MF_OPT),
    MMH(S, "moved", moved, 0, &model_num_desc),
};
static MODEL_DESC(fidelity_dev_desc, S, fidelity_dev_rows);
#undef S

#define S struct run_fidelity_setting
static const struct model_row fidelity_setting_rows[] = {
    M(S, "name", MK_STR, name, 0),
    M(S, "capture", MK_STR, capture, MF_NULL),
    M(S, "replay", MK_STR, replay, MF_NULL),
    MA(S, "moves", MK_STR, moves, 0, NULL),
};
static MODEL_DESC(fidelity_setting_desc, S, fidelity_setting_rows);
#undef S

#define S struct run_fidelity_class
static const struct model_row fidelity_class_rows[] = {
    M(S, "calls_capture", MK_UINT, calls_capture, 0),
    M(S, "calls_replay", MK_UINT, calls_replay, 0),
    M(S, "gap", MK_DBL, gap, MF_NULL),
    M(S, "size", MK_DBL, size, MF_NULL),
    M(S, "offset", MK_DBL, offset, MF_NULL),
    M(S, "latency", MK_DBL, latency, MF_NULL),
    M(S, "latency_judged", MK_BOOL, latency_judged, 0),
    M(S, "p50_capture_ns", MK_UINT, p50_capture_ns, 0),
    M(S, "p90_capture_ns", MK_UINT, p90_capture_ns, 0),
    M(S, "p99_capture_ns", MK_UINT, p99_capture_ns, 0),
    M(S, "p50_replay_ns", MK_UINT, p50_replay_ns, 0),
    M(S, "p90_replay_ns", MK_UINT, p90_replay_ns, 0),
    M(S, "p99_replay_ns", MK_UINT, p99_replay_ns, 0),
    M(S, "seq_capture", MK_DBL, seq_capture, 0),
    M(S, "seq_replay", MK_DBL, seq_replay, 0),
};
static const struct model_desc fidelity_class_desc = {
    .name = "struct run_fidelity_class",
    .size = sizeof(S),
    .keep = offsetof(S, keep),
    .key = offsetof(S, name),
    .rows = fidelity_class_rows,
    .nr_rows = sizeof(fidelity_class_rows) / sizeof(fidelity_class_rows[0]),
};
#undef S

#define S struct run_limits_doc
static const struct model_row limits_rows[] = {
    M(S, "cgroup", MK_STR, cgroup, 0),
    MH(S, "memory_max", MK_UINT, memory_max, MF_NULL),
    MH(S, "memory_peak", MK_UINT, memory_peak, MF_NULL),
    M(S, "cpus", MK_STR, cpus, MF_NULL),
    M(S, "mems", MK_STR, mems, MF_NULL),
};
static MODEL_DESC(limits_desc, S, limits_rows);
#undef S

#define S struct run_exec_doc
static const struct model_row exec_rows[] = {
    M(S, "cmd", MK_STR, cmd, 0),
    M(S, "status", MK_INT, status, 0),
    M(S, "printed", MK_DBL, printed, MF_NULL),
    M(S, "stdout_tail", MK_STR, stdout_tail, 0),
    M(S, "stderr_tail", MK_STR, stderr_tail, 0),
};
static MODEL_DESC(exec_desc, S, exec_rows);
#undef S

#define S struct run_verify_hdr_doc
static const struct model_row vhdr_rows[] = {
    M(S, "file_id", MK_UINT, file_id, 0),
    M(S, "offset", MK_UINT, offset, 0),
    M(S, "seed", MK_UINT, seed, 0),
    M(S, "seq", MK_UINT, seq, 0),
};
static MODEL_DESC(vhdr_desc, S, vhdr_rows);
#undef S

#define S struct run_verify_first
static const struct model_row vfirst_rows[] = {
    M(S, "file", MK_STR, file, 0),
    M(S, "offset", MK_UINT, offset, 0),
    MH(S, "bad_byte", MK_UINT, bad_byte, MF_NULL),
    M(S, "header_ok", MK_BOOL, header_ok, 0),
    M(S, "crc_ok", MK_BOOL, crc_ok, 0),
    M(S, "found_by", MK_STR, found_by, 0),
    MO(S, "expected", MK_PTR, expected, 0, &vhdr_desc),
    MO(S, "found", MK_PTR, found, 0, &vhdr_desc),
};
static MODEL_DESC(vfirst_desc, S, vfirst_rows);
#undef S

#define S struct run_verify_doc
static const struct model_row verify_rows[] = {
    M(S, "method", MK_STR, method, 0),
    M(S, "blocks", MK_UINT, blocks, 0),
    M(S, "mismatches", MK_UINT, mismatches, 0),
    M(S, "cpu_s", MK_DBL, cpu_s, 0),
    M(S, "readback_s", MK_DBL, readback_s, 0),
    MO(S, "first", MK_PTR, first, MF_NULL, &vfirst_desc),
};
static MODEL_DESC(verify_desc, S, verify_rows);
#undef S

#define S struct run_regime_doc
static const struct model_row regime_rows[] = {
    M(S, "knob", MK_STR, knob, 0),     M(S, "canonical", MK_STR, canonical, 0),
    M(S, "object", MK_STR, object, 0), M(S, "value", MK_STR, value, 0),
    M(S, "state", MK_STR, state, 0),   M(S, "why", MK_STR, why, 0),
};
static MODEL_DESC(regime_desc, S, regime_rows);
#undef S

/* A document's "schema", when it names one, must be ours. */
static int check_schema(const char *schema, const char *path,
			struct strbuf *err)
{
	char buf[48];

	if (!schema || !strcmp(schema, IOTRIAL_SCHEMA))
		return 0;
	return err_set(
	    err, -EINVAL, "%s%sschema: '%s'; this iotrial reads '%s'", path,
	    *path ? "." : "", model_printable(schema, buf, sizeof(buf)),
	    IOTRIAL_SCHEMA);
}

static int run_check(const void *obj, const char *path, struct strbuf *err)
{
	return check_schema(((const struct run_doc *)obj)->schema, path, err);
}

#define S struct run_doc
static const struct model_row run_rows[] = {
    M(S, "schema", MK_STR, schema, 0),
    M(S, "iotrial_version", MK_STR, iotrial_version, 0),
    M(S, "workload", MK_STR, workload, 0),
    MM(S, "params", params, 0, &model_param_desc),
    MM(S, "knobs", knobs, 0, &model_pair_desc),
    M(S, "described", MK_STR, described, MF_OPT),
    MO(S, "target", MK_PTR, target, 0, &target_desc),
    MH(S, "ios_requested", MK_UINT, ios_requested, 0),
    MH(S, "time_requested_s", MK_DBL, time_requested_s, 0),
    M(S, "ramp_s", MK_DBL, ramp_s, 0),
    M(S, "seed", MK_VAL, seed, 0),
    M(S, "seconds", MK_DBL, seconds, MF_NULL),
    M(S, "burst_seconds", MK_DBL, burst_seconds, 0),
    M(S, "ops", MK_UINT, ops, 0),
    M(S, "iops", MK_DBL, iops, MF_NULL),
    M(S, "mbps", MK_DBL, mbps, MF_NULL),
    M(S, "bytes_read", MK_UINT, bytes_read, 0),
    M(S, "bytes_written", MK_UINT, bytes_written, 0),
    M(S, "ops_read", MK_UINT, ops_read, 0),
    M(S, "ops_written", MK_UINT, ops_written, 0),
    M(S, "fsyncs", MK_UINT, fsyncs, 0),
    MH(S, "file_ops_total", MK_UINT, file_ops_total, 0),
    MH(S, "ops_per_s", MK_DBL, ops_per_s, 0),
    MMH(S, "file_ops", file_ops, 0, &file_op_desc),
    MH(S, "dbench_mbps", MK_DBL, dbench_mbps, 0),
    MH(S, "fidelity", MK_DBL, fidelity, 0),
    MO(S, "fidelity_device", MK_PTR, fidelity_device, MF_OPT,
       &fidelity_dev_desc),
    MAH(S, "fidelity_settings", MK_OBJ, fidelity_settings, 0,
	&fidelity_setting_desc),
    MMH(S, "fidelity_dist", fidelity_dist, 0, &fidelity_class_desc),
    M(S, "interrupted", MK_BOOL, interrupted, 0),
    MO(S, "latency_ns", MK_PTR, latency_ns, 0, &latencies_desc),
    MO(S, "cpu", MK_PTR, cpu, 0, &cpu_desc),
    MA(S, "jobs", MK_OBJ, jobs, 0, &job_desc),
    MO(S, "metric", MK_PTR, metric, 0, &metric_desc),
    MO(S, "limits", MK_PTR, limits, MF_OPT, &limits_desc),
    MO(S, "exec", MK_PTR, exec, MF_OPT, &exec_desc),
    MO(S, "verify", MK_PTR, verify, MF_OPT, &verify_desc),
    MM(S, "metrics", metrics, 0, &model_num_desc),
    MAH(S, "devices", MK_OBJ, devices, 0, &model_truth_device_desc),
    MOH(S, "truth", MK_PTR, truth, MF_NULL, &model_truth_desc),
    MO(S, "env", MK_PTR, env, MF_OPT, &model_env_desc),
    MA(S, "warnings", MK_STR, warnings, 0, NULL),
    MA(S, "warning_kinds", MK_STR, warning_kinds, 0, NULL),
    MA(S, "notes", MK_STR, notes, 0, NULL),
    MAH(S, "engine_features", MK_STR, engine_features, 0, NULL),
    MAH(S, "regime", MK_OBJ, regime, 0, &regime_desc),
};
const struct model_desc model_run_desc = {
    .name = "struct run_doc",
    .size = sizeof(S),
    .keep = offsetof(S, keep),
    .key = -1,
    .rows = run_rows,
    .nr_rows = sizeof(run_rows) / sizeof(run_rows[0]),
    .check = run_check,
};
#undef S

void run_doc_init(struct run_doc *doc)
{
	memset(doc, 0, sizeof(*doc));
}

void run_doc_release(struct run_doc *doc)
{
	if (doc)
		model_release_obj(&model_run_desc, doc);
}

void run_doc_free(struct run_doc *doc)
{
	run_doc_release(doc);
	free(doc);
}

void run_doc_copy(struct run_doc *dst, const struct run_doc *src)
{
	model_copy_obj(&model_run_desc, dst, src);
}

void env_doc_init(struct env_doc *e)
{
	memset(e, 0, sizeof(*e));
}

void env_doc_release(struct env_doc *e)
{
	if (e)
		model_release_obj(&model_env_desc, e);
}

void env_doc_free(struct env_doc *e)
{
	env_doc_release(e);
	free(e);
}

int run_doc_decode(const char *text, size_t len, struct run_doc *out,
		   unsigned flags, struct strbuf *err)
{
	int ret =
	    model_decode_text(&model_run_desc, out, text, len, flags, err);

	if (!ret && !out->schema)
		ret = err_set(err, -EINVAL,
			      "schema: missing; not an iotrial run object");
	return ret;
}

void run_doc_encode(const struct run_doc *doc, unsigned flags,
		    struct strbuf *out)
{
	model_encode_obj(&model_run_desc, doc, flags, out);
}

bool run_doc_equal(const struct run_doc *a, const struct run_doc *b)
{
	return model_equal_obj(&model_run_desc, a, b);
}

size_t run_doc_unknown(const struct run_doc *doc)
{
	return model_unknown_count(&model_run_desc, doc);
}

int model_check_schema(const char *schema, const char *path, struct strbuf *err)
{
	return check_schema(schema, path, err);
}
