/*
 * The tables of observe's parts (live_doc.h), of the fleet part
 * (fleet_doc.h) and of a job file's document (job_doc.h), in the order
 * live/live_json.c, live/live_run.c, fleet/fleet_merge.c and cli/job.c
 * print their members; and the job document's entry points.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model-int.h"
#include "model_json.h"
#include "../../util/error.h"
#include "../../util/banned.h"

#define S struct live_window_device
static const struct model_row wdev_rows[] = {
    MH(S, "mbps", MK_DBL, mbps, MF_NULL),
    MH(S, "iops", MK_DBL, iops, MF_NULL),
    MH(S, "r_await", MK_DBL, r_await, MF_NULL),
    MH(S, "w_await", MK_DBL, w_await, MF_NULL),
    MH(S, "aqu_sz", MK_DBL, aqu_sz, MF_NULL),
    MH(S, "util", MK_DBL, util, MF_NULL),
};
static MODEL_DESC(wdev_desc, S, wdev_rows);
#undef S

#define S struct live_window_cgroup
static const struct model_row wcg_rows[] = {
    M(S, "mbps", MK_DBL, mbps, MF_NULL),
    M(S, "iops", MK_DBL, iops, MF_NULL),
    M(S, "other_mb", MK_DBL, other_mb, MF_NULL),
};
static MODEL_DESC(wcg_desc, S, wcg_rows);
#undef S

#define S struct live_window
static const struct model_row window_rows[] = {
    M(S, "seq", MK_INT, seq, 0),
    M(S, "block", MK_INT, block, 0),
    M(S, "arm", MK_INT, arm, 0),
    M(S, "label", MK_STR, label, 0),
    M(S, "settle", MK_BOOL, settle, 0),
    M(S, "cut_short", MK_BOOL, cut_short, 0),
    M(S, "start_s", MK_DBL, start_s, MF_NULL),
    M(S, "seconds", MK_DBL, seconds, MF_NULL),
    M(S, "metric", MK_DBL, metric, MF_NULL),
    M(S, "load", MK_DBL, load, MF_NULL),
    MO(S, "device", MK_PTR, device, 0, &wdev_desc),
    M(S, "dirty_bytes", MK_DBL, dirty_bytes, MF_NULL),
    M(S, "writeback_bytes", MK_DBL, writeback_bytes, MF_NULL),
    MH(S, "user", MK_DBL, user, MF_NULL),
    M(S, "note", MK_STR, note, MF_OPT),
    M(S, "other_io", MK_STR, other_io, MF_OPT),
    MO(S, "cgroup", MK_PTR, cgroup, MF_OPT, &wcg_desc),
};
MODEL_DESC(model_window_desc, S, window_rows);
#undef S

#define S struct live_sb_rand
static const struct model_row rand_rows[] = {
    M(S, "rand_p", MK_DBL, rand_p, MF_NULL),
    M(S, "rand_exact", MK_BOOL, rand_exact, 0),
};
static MODEL_DESC(rand_desc, S, rand_rows);
#undef S

#define S struct live_sb_adjusted
static const struct model_row adj_rows[] = {
    M(S, "adj_ratio", MK_DBL, adj_ratio, MF_NULL),
    M(S, "adj_ci_low", MK_DBL, adj_ci_low, MF_NULL),
    M(S, "adj_ci_high", MK_DBL, adj_ci_high, MF_NULL),
};
static MODEL_DESC(adj_desc, S, adj_rows);
#undef S

#define S struct live_sb_arm
static const struct model_row sb_arm_rows[] = {
    M(S, "arm", MK_INT, arm, 0),
    M(S, "mean_time_frac", MK_DBL, mean_time_frac, MF_NULL),
    M(S, "mean_load", MK_DBL, mean_load, MF_NULL),
    MF(S, rand, &rand_desc),
    MF(S, adjusted, &adj_desc),
};
static MODEL_DESC(sb_arm_desc, S, sb_arm_rows);
#undef S

#define S struct live_switchback
static const struct model_row sb_rows[] = {
    M(S, "window_s", MK_DBL, window_s, MF_NULL),
    M(S, "settle_s", MK_DBL, settle_s, MF_NULL),
    M(S, "blocks_planned", MK_INT, blocks_planned, 0),
    M(S, "blocks", MK_INT, blocks, 0),
    M(S, "dropped", MK_INT, dropped, 0),
    M(S, "trend_rho", MK_DBL, trend_rho, MF_NULL),
    M(S, "trend_p", MK_DBL, trend_p, MF_NULL),
    M(S, "trend", MK_BOOL, trend, 0),
    M(S, "suspect_windows", MK_INT, suspect_windows, 0),
    M(S, "carryover_warning", MK_BOOL, carryover_warning, 0),
    M(S, "per_load", MK_STR, per_load, MF_OPT),
    MA(S, "arms", MK_OBJ, arms, 0, &sb_arm_desc),
};
MODEL_DESC(model_switchback_desc, S, sb_rows);
#undef S

#define S struct live_abort
static const struct model_row abort_rows[] = {
    M(S, "rule", MK_STR, rule, 0),
    M(S, "why", MK_STR, why, 0),
    M(S, "value", MK_DBL, value, 0),
    M(S, "window", MK_INT, window, 0),
    MH(S, "restored_after_s", MK_DBL, restored_after_s, 0),
};
MODEL_DESC(model_abort_desc, S, abort_rows);
#undef S

void live_window_release(struct live_window *w)
{
	if (w)
		model_release_obj(&model_window_desc, w);
}

void live_switchback_free(struct live_switchback *sb)
{
	if (sb)
		model_release_obj(&model_switchback_desc, sb);
	free(sb);
}

void live_abort_free(struct live_abort *a)
{
	if (a)
		model_release_obj(&model_abort_desc, a);
	free(a);
}

/* ---- fleet ---- */

#define S struct fleet_host_verdict
/* What a host's file states where its runs give another verdict. */
static const struct model_row stated_rows[] = {
    MH(S, "ratio", MK_DBL, ratio, MF_NULL),
    MH(S, "ci_low", MK_DBL, ci_low, MF_NULL),
    MH(S, "ci_high", MK_DBL, ci_high, MF_NULL),
    MH(S, "p_adjusted", MK_DBL, p_adjusted, MF_NULL),
    M(S, "verdict", MK_STR, verdict, MF_OPT),
};
static MODEL_DESC(stated_desc, S, stated_rows);

static const struct model_row hv_rows[] = {
    M(S, "arm", MK_INT, arm, 0),
    M(S, "label", MK_STR, label, 0),
    MH(S, "ratio", MK_DBL, ratio, MF_NULL),
    MH(S, "ci_low", MK_DBL, ci_low, MF_NULL),
    MH(S, "ci_high", MK_DBL, ci_high, MF_NULL),
    MH(S, "p_adjusted", MK_DBL, p_adjusted, MF_NULL),
    M(S, "verdict", MK_STR, verdict, 0),
    MAH(S, "suspect", MK_OBJ, suspect, 0, &model_suspect_desc),
    MO(S, "stated", MK_PTR, stated, MF_OPT, &stated_desc),
};
static MODEL_DESC(hv_desc, S, hv_rows);
#undef S

#define S struct fleet_host_doc
static const struct model_row host_rows[] = {
    M(S, "host", MK_STR, host, 0),
    M(S, "status", MK_STR, status, 0),
    M(S, "source", MK_STR, source, MF_OPT),
    M(S, "revert", MK_STR, revert, MF_OPT),
    M(S, "revert_error", MK_STR, revert_error, MF_OPT),
    M(S, "task", MK_STR, task, MF_OPT),
    M(S, "error", MK_STR, error, MF_OPT),
    MH(S, "block", MK_INT, block, 0),
    M(S, "id", MK_STR, id, MF_OPT),
    M(S, "kind", MK_STR, kind, MF_OPT),
    MAH(S, "windows", MK_OBJ, windows, 0, &model_window_desc),
    MO(S, "switchback", MK_PTR, switchback, MF_OPT, &model_switchback_desc),
    M(S, "kernel", MK_STR, kernel, MF_OPT),
    M(S, "devices", MK_STR, devices, MF_OPT),
    M(S, "schedulers", MK_STR, schedulers, MF_OPT),
    MAH(S, "differs", MK_STR, differs, 0, NULL),
    MAH(S, "verdicts", MK_OBJ, verdicts, 0, &hv_desc),
    MH(S, "consistent", MK_BOOL, consistent, 0),
};
static MODEL_DESC(host_desc, S, host_rows);
#undef S

#define S struct fleet_reference
static const struct model_row ref_rows[] = {
    M(S, "kernel", MK_STR, kernel, 0),
    M(S, "devices", MK_STR, devices, 0),
    M(S, "schedulers", MK_STR, schedulers, 0),
};
static MODEL_DESC(ref_desc, S, ref_rows);
#undef S

#define S struct fleet_doc
static const struct model_row fleet_rows[] = {
    MA(S, "hosts", MK_OBJ, host_list, 0, &host_desc),
    M(S, "nr_hosts", MK_INT, nr_hosts, 0),
    M(S, "nr_ok", MK_INT, nr_ok, 0),
    M(S, "nr_failed", MK_INT, nr_failed, 0),
    MA(S, "revert_not_done", MK_STR, revert_not_done, 0, NULL),
    MO(S, "reference", MK_PTR, reference, 0, &ref_desc),
};
MODEL_DESC(model_fleet_desc, S, fleet_rows);
#undef S

/* Free what the fleet part holds, through its table. */
void fleet_doc_release(struct fleet_doc *fleet)
{
	if (fleet)
		model_release_obj(&model_fleet_desc, fleet);
}

/* ---- a job file's runs ---- */

#define S struct job_file_share
static const struct model_row share_rows[] = {
    M(S, "filename", MK_STR, filename, 0),
    MA(S, "shared_by", MK_STR, shared_by, 0, NULL),
    M(S, "laid_out_by", MK_STR, laid_out_by, MF_NULL),
    M(S, "inode", MK_INT, inode, 0),
    M(S, "bytes", MK_INT, bytes, 0),
};
static MODEL_DESC(share_desc, S, share_rows);
#undef S

#define S struct job_entry
static const struct model_row entry_rows[] = {
    M(S, "section", MK_STR, section, 0),
    M(S, "name", MK_STR, name, 0),
    M(S, "group", MK_INT, group, 0),
    M(S, "reporting_group", MK_INT, reporting_group, 0),
    M(S, "group_reporting", MK_BOOL, group_reporting, 0),
    M(S, "id", MK_STR, id, MF_NULL),
    MO(S, "file", MK_PTR, file, MF_OPT, &share_desc),
    MO(S, "run", MK_PTR, run, 0, &model_run_desc),
};
static MODEL_DESC(entry_desc, S, entry_rows);
#undef S

#define S struct job_group
static const struct model_row group_rows[] = {
    M(S, "group", MK_INT, group, 0),
    MA(S, "sections", MK_STR, sections, 0, NULL),
    M(S, "group_reporting", MK_BOOL, group_reporting, 0),
    M(S, "id", MK_STR, id, MF_NULL),
    MAH(S, "devices", MK_OBJ, devices, 0, &model_truth_device_desc),
    MOH(S, "truth", MK_PTR, truth, MF_NULL, &model_truth_desc),
    MO(S, "run", MK_PTR, run, MF_OPT, &model_run_desc),
};
static MODEL_DESC(group_desc, S, group_rows);
#undef S

/* Ours, and a job file's runs. */
static int job_check(const void *obj, const char *path, struct strbuf *err)
{
	const struct job_doc *j = obj;
	char buf[48];

	if (j->type && strcmp(j->type, "job_file"))
		return err_set(err, -EINVAL, "type: '%s'; expected 'job_file'",
			       model_printable(j->type, buf, sizeof(buf)));
	return model_check_schema(j->schema, path, err);
}

#define S struct job_doc
static const struct model_row job_rows[] = {
    M(S, "schema", MK_STR, schema, MF_REQ),
    M(S, "type", MK_STR, type, MF_REQ),
    M(S, "file", MK_STR, file, 0),
    MA(S, "jobs", MK_OBJ, jobs, 0, &entry_desc),
    MAH(S, "groups", MK_OBJ, groups, 0, &group_desc),
};
const struct model_desc model_job_desc = {
    .name = "struct job_doc",
    .size = sizeof(S),
    .keep = offsetof(S, keep),
    .key = -1,
    .rows = job_rows,
    .nr_rows = sizeof(job_rows) / sizeof(job_rows[0]),
    .check = job_check,
};
#undef S

void job_doc_init(struct job_doc *doc)
{
	memset(doc, 0, sizeof(*doc));
}

void job_doc_release(struct job_doc *doc)
{
	if (doc)
		model_release_obj(&model_job_desc, doc);
}

void job_doc_free(struct job_doc *doc)
{
	job_doc_release(doc);
	free(doc);
}

void job_doc_copy(struct job_doc *dst, const struct job_doc *src)
{
	model_copy_obj(&model_job_desc, dst, src);
}

int job_doc_decode(const char *text, size_t len, struct job_doc *out,
		   unsigned flags, struct strbuf *err)
{
	return model_decode_text(&model_job_desc, out, text, len, flags, err);
}

void job_doc_encode(const struct job_doc *doc, unsigned flags,
		    struct strbuf *out)
{
	model_encode_obj(&model_job_desc, doc, flags, out);
}

bool job_doc_equal(const struct job_doc *a, const struct job_doc *b)
{
	return model_equal_obj(&model_job_desc, a, b);
}

size_t job_doc_unknown(const struct job_doc *doc)
{
	return model_unknown_count(&model_job_desc, doc);
}
