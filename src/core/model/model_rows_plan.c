/*
 * The tables of a dry run's documents (plan_doc.h), in the order their
 * writers print them, and their entry points.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model-int.h"
#include "model_json.h"
#include "../../util/error.h"
#include "../../util/banned.h"

#define S struct plan_change_doc
static const struct model_row change_rows[] = {
    M(S, "knob", MK_STR, knob, MF_NULL),
    M(S, "input_name", MK_STR, input_name, MF_NULL),
    M(S, "scope", MK_STR, scope, 0),
    M(S, "object", MK_STR, object, MF_NULL),
    M(S, "path", MK_STR, path, MF_NULL),
    M(S, "input", MK_STR, input, MF_NULL),
    M(S, "value", MK_STR, value, 0),
    M(S, "before", MK_STR, before, MF_NULL),
    M(S, "unchanged", MK_BOOL, unchanged, 0),
    M(S, "deferred", MK_BOOL, deferred, 0),
    M(S, "how", MK_STR, how, MF_NULL),
    M(S, "note", MK_STR, note, MF_NULL),
};
static MODEL_DESC(change_desc, S, change_rows);
#undef S

#define S struct plan_file_doc
static const struct model_row file_rows[] = {
    M(S, "path", MK_STR, path, 0),	M(S, "format", MK_STR, format, 0),
    M(S, "exists", MK_BOOL, exists, 0), M(S, "change", MK_STR, change, MF_OPT),
    M(S, "text", MK_STR, text, MF_OPT),
};
static MODEL_DESC(file_desc, S, file_rows);
#undef S

/* Ours, and of kind k (the first of the comma-separated kinds). */
static int kind_check(const char *schema, const char *kind, const char *k1,
		      const char *k2, const char *path, struct strbuf *err)
{
	char buf[48];

	if (kind && strcmp(kind, k1) && (!k2 || strcmp(kind, k2)))
		return err_set(err, -EINVAL, "kind: '%s'; expected '%s'",
			       model_printable(kind, buf, sizeof(buf)), k1);
	return model_check_schema(schema, path, err);
}

static int plan_check(const void *obj, const char *path, struct strbuf *err)
{
	const struct plan_doc *p = obj;

	return kind_check(p->schema, p->kind, "set-plan", "apply-plan", path,
			  err);
}

#define S struct plan_doc
static const struct model_row plan_rows[] = {
    M(S, "schema", MK_STR, schema, MF_REQ),
    M(S, "kind", MK_STR, kind, MF_REQ),
    M(S, "dry_run", MK_BOOL, dry_run, 0),
    M(S, "device", MK_STR, device, MF_NULL),
    M(S, "mount", MK_STR, mount, MF_NULL),
    M(S, "journal", MK_STR, journal, MF_NULL),
    MA(S, "changes", MK_OBJ, changes, 0, &change_desc),
    M(S, "experiment", MK_STR, experiment, MF_OPT),
    M(S, "origin", MK_STR, origin, MF_OPT),
    M(S, "arm", MK_STR, arm, MF_OPT),
    M(S, "why", MK_STR, why, MF_OPT),
    MH(S, "needs_force", MK_BOOL, needs_force, 0),
    MAH(S, "files", MK_OBJ, files, 0, &file_desc),
};
const struct model_desc model_plan_desc = {
    .name = "struct plan_doc",
    .size = sizeof(S),
    .keep = offsetof(S, keep),
    .key = -1,
    .rows = plan_rows,
    .nr_rows = sizeof(plan_rows) / sizeof(plan_rows[0]),
    .check = plan_check,
};
#undef S

#define S struct dry_run_arm_doc
static const struct model_row arm_rows[] = {
    M(S, "arm", MK_INT, arm, 0),
    M(S, "label", MK_STR, label, 0),
    M(S, "baseline", MK_BOOL, baseline, 0),
    MA(S, "changes", MK_OBJ, changes, 0, &change_desc),
};
static MODEL_DESC(arm_desc, S, arm_rows);
#undef S

static int dry_check(const void *obj, const char *path, struct strbuf *err)
{
	const struct dry_run_doc *d = obj;

	return kind_check(d->schema, d->kind, "dry-run", NULL, path, err);
}

#define S struct dry_run_doc
static const struct model_row dry_rows[] = {
    M(S, "schema", MK_STR, schema, MF_REQ),
    M(S, "kind", MK_STR, kind, MF_REQ),
    M(S, "command", MK_STR, command, 0),
    M(S, "workload", MK_STR, workload, 0),
    M(S, "target", MK_STR, target, 0),
    M(S, "device", MK_STR, device, MF_NULL),
    M(S, "knobs_changed_on", MK_STR, knobs_changed_on, MF_NULL),
    MA(S, "fixed", MK_OBJ, fixed, 0, &change_desc),
    MA(S, "arms", MK_OBJ, arms, 0, &arm_desc),
    M(S, "adaptive", MK_BOOL, adaptive, 0),
    MH(S, "blocks", MK_INT, blocks, MF_NULL),
    M(S, "min_blocks", MK_INT, min_blocks, 0),
    M(S, "warmup_runs", MK_INT, warmup_runs, 0),
    MH(S, "runs", MK_INT, runs, MF_NULL),
    M(S, "seconds_per_run", MK_DBL, seconds_per_run, MF_NULL),
    M(S, "estimated_seconds_min", MK_DBL, estimated_seconds_min, MF_NULL),
    M(S, "needs_root", MK_BOOL, needs_root, 0),
    M(S, "estimated_seconds", MK_DBL, estimated_seconds, MF_NULL),
};
const struct model_desc model_dry_run_desc = {
    .name = "struct dry_run_doc",
    .size = sizeof(S),
    .keep = offsetof(S, keep),
    .key = -1,
    .rows = dry_rows,
    .nr_rows = sizeof(dry_rows) / sizeof(dry_rows[0]),
    .check = dry_check,
};
#undef S

MODEL_ENTRY_POINTS(plan_doc, model_plan_desc)
MODEL_ENTRY_POINTS(dry_run_doc, model_dry_run_desc)
