/*
 * The tables of the listings (listing_doc.h) and of the documents of
 * diff, info and watch (command_doc.h), in the order their writers
 * print them, and their entry points.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "model-int.h"
#include "model_json.h"
#include "../../util/error.h"
#include "../../util/banned.h"

/* A document's table with a check of its "schema" (and "kind"). */
#define MODEL_TOP(NAME, S, ROWS, CHECK)                                        \
	const struct model_desc NAME = {                                       \
	    .name = #S,                                                        \
	    .size = sizeof(S),                                                 \
	    .keep = offsetof(S, keep),                                         \
	    .key = -1,                                                         \
	    .rows = ROWS,                                                      \
	    .nr_rows = sizeof(ROWS) / sizeof(ROWS[0]),                         \
	    .check = CHECK,                                                    \
	}

/* Ours: "schema" iotrial/1 and, when want is not NULL, "kind" want. */
static int check_top(const char *schema, const char *kind, const char *want,
		     const char *path, struct strbuf *err)
{
	char buf[48];

	if (want && kind && strcmp(kind, want))
		return err_set(err, -EINVAL, "kind: '%s'; expected '%s'",
			       model_printable(kind, buf, sizeof(buf)), want);
	return model_check_schema(schema, path, err);
}

#define S struct knob_doc
static const struct model_row knob_rows[] = {
    M(S, "name", MK_STR, name, 0),
    M(S, "value", MK_STR, value, 0),
    M(S, "shown", MK_STR, shown, 0),
    M(S, "unit", MK_STR, unit, 0),
    M(S, "allowed", MK_STR, allowed, 0),
    M(S, "scope", MK_STR, scope, 0),
    M(S, "object", MK_STR, object, 0),
    M(S, "path", MK_STR, path, 0),
    MA(S, "legacy_names", MK_STR, legacy_names, 0, NULL),
    MA(S, "notes", MK_STR, notes, 0, NULL),
};
static MODEL_DESC(knob_desc, S, knob_rows);
#undef S

#define S struct knobs_unavailable
static const struct model_row unavailable_rows[] = {
    M(S, "device", MK_STR, device, MF_OPT),
    M(S, "mount", MK_STR, mount, MF_OPT),
};
static MODEL_DESC(unavailable_desc, S, unavailable_rows);
#undef S

static int knobs_check(const void *obj, const char *path, struct strbuf *err)
{
	return check_top(((const struct knobs_doc *)obj)->schema, NULL, NULL,
			 path, err);
}

#define S struct knobs_doc
static const struct model_row knobs_rows[] = {
    M(S, "schema", MK_STR, schema, MF_REQ),
    M(S, "device", MK_STR, device, MF_NULL),
    M(S, "mount", MK_STR, mount, MF_NULL),
    MA(S, "knobs", MK_OBJ, knobs, 0, &knob_desc),
    MO(S, "unavailable", MK_PTR, unavailable, 0, &unavailable_desc),
    MA(S, "unavailable_knobs", MK_STR, unavailable_knobs, 0, NULL),
};
MODEL_TOP(model_knobs_desc, S, knobs_rows, knobs_check);
#undef S

#define S struct journal_owner_doc
static const struct model_row owner_rows[] = {
    M(S, "command", MK_STR, command, MF_NULL),
    M(S, "pid", MK_INT, pid, 0),
    M(S, "time", MK_STR, time, 0),
    M(S, "state", MK_STR, state, 0),
};
static MODEL_DESC(owner_desc, S, owner_rows);
#undef S

#define S struct journal_record_doc
static const struct model_row record_rows[] = {
    M(S, "seq", MK_UINT, seq, 0),
    M(S, "kind", MK_STR, kind, 0),
    MH(S, "knob", MK_STR, knob, MF_NULL),
    MH(S, "scope", MK_STR, scope, MF_NULL),
    MH(S, "object", MK_STR, object, MF_NULL),
    MH(S, "original", MK_STR, original, MF_NULL),
    MH(S, "wrote", MK_STR, wrote, MF_NULL),
    MH(S, "what", MK_STR, what, MF_NULL),
    MH(S, "path", MK_STR, path, MF_NULL),
    M(S, "kept", MK_BOOL, kept, 0),
    MO(S, "owner", MK_PTR, owner, MF_NULL, &owner_desc),
    M(S, "text", MK_STR, text, 0),
};
static MODEL_DESC(record_desc, S, record_rows);
#undef S

static int journal_check(const void *obj, const char *path, struct strbuf *err)
{
	const struct journal_doc *j = obj;

	return check_top(j->schema, j->kind, "journal", path, err);
}

#define S struct journal_doc
static const struct model_row journal_rows[] = {
    M(S, "schema", MK_STR, schema, MF_REQ),
    M(S, "kind", MK_STR, kind, MF_REQ),
    M(S, "journal", MK_STR, journal, 0),
    M(S, "live", MK_UINT, live, 0),
    MA(S, "records", MK_OBJ, records, 0, &record_desc),
};
MODEL_TOP(model_journal_desc, S, journal_rows, journal_check);
#undef S

#define S struct log_entry_doc
static const struct model_row entry_rows[] = {
    M(S, "id", MK_STR, id, 0),
    M(S, "created", MK_STR, created, 0),
    M(S, "workload", MK_STR, workload, 0),
    M(S, "target", MK_STR, target, 0),
    M(S, "metric", MK_STR, metric, 0),
    M(S, "arms", MK_STR, arms, 0),
    M(S, "host", MK_STR, host, 0),
    M(S, "kernel", MK_STR, kernel, 0),
    M(S, "result", MK_STR, result, 0),
    M(S, "origin", MK_STR, origin, 0),
};
static MODEL_DESC(entry_desc, S, entry_rows);
#undef S

static int log_check(const void *obj, const char *path, struct strbuf *err)
{
	return check_top(((const struct log_doc *)obj)->schema, NULL, NULL,
			 path, err);
}

#define S struct log_doc
static const struct model_row log_rows[] = {
    M(S, "schema", MK_STR, schema, MF_REQ),
    MA(S, "experiments", MK_OBJ, experiments, MF_REQ, &entry_desc),
};
MODEL_TOP(model_log_desc, S, log_rows, log_check);
#undef S

static int diff_check(const void *obj, const char *path, struct strbuf *err)
{
	return check_top(((const struct diff_doc *)obj)->schema, NULL, NULL,
			 path, err);
}

#define S struct diff_doc
static const struct model_row diff_rows[] = {
    M(S, "schema", MK_STR, schema, MF_REQ),
    M(S, "before", MK_STR, before, MF_NULL),
    M(S, "after", MK_STR, after, MF_NULL),
    M(S, "arm_before", MK_STR, arm_before, 0),
    M(S, "arm_after", MK_STR, arm_after, 0),
    M(S, "like_for_like", MK_BOOL, like_for_like, 0),
    MA(S, "unlike", MK_STR, unlike, 0, NULL),
    M(S, "verdict", MK_STR, verdict, 0),
    MO(S, "experiment", MK_PTR, experiment, MF_OPT, &model_experiment_desc),
    MA(S, "differences", MK_STR, differences, 0, NULL),
};
MODEL_TOP(model_diff_desc, S, diff_rows, diff_check);
#undef S

static int info_check(const void *obj, const char *path, struct strbuf *err)
{
	return check_top(((const struct info_doc *)obj)->schema, NULL, NULL,
			 path, err);
}

#define S struct info_doc
static const struct model_row info_rows[] = {
    M(S, "schema", MK_STR, schema, MF_REQ),
    MF(S, env, &model_env_desc),
};
MODEL_TOP(model_info_desc, S, info_rows, info_check);
#undef S

static int watch_check(const void *obj, const char *path, struct strbuf *err)
{
	return check_top(((const struct watch_doc *)obj)->schema, NULL, NULL,
			 path, err);
}

#define S struct watch_doc
static const struct model_row watch_rows[] = {
    M(S, "schema", MK_STR, schema, MF_REQ),
    M(S, "time", MK_STR, time, 0),
    M(S, "name", MK_STR, name, 0),
    MF(S, delta, &model_disk_delta_desc),
    MH(S, "dirty_bytes", MK_UINT, dirty_bytes, MF_NULL),
    MH(S, "writeback_bytes", MK_UINT, writeback_bytes, MF_NULL),
};
MODEL_TOP(model_watch_desc, S, watch_rows, watch_check);
#undef S

MODEL_ENTRY_POINTS(knobs_doc, model_knobs_desc)
MODEL_ENTRY_POINTS(journal_doc, model_journal_desc)
MODEL_ENTRY_POINTS(log_doc, model_log_desc)
MODEL_ENTRY_POINTS(diff_doc, model_diff_desc)
MODEL_ENTRY_POINTS(info_doc, model_info_desc)
MODEL_ENTRY_POINTS(watch_doc, model_watch_desc)

void log_doc_encode_array(const struct log_doc *doc, struct strbuf *out)
{
	struct json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; i < doc->nr_experiments; i++)
		json_object_array_add(
		    arr, model_encode_tree(&entry_desc, &doc->experiments[i]));
	strbuf_addstr(out, json_object_to_json_string_ext(
			       arr, JSON_C_TO_STRING_PRETTY |
					JSON_C_TO_STRING_SPACED |
					JSON_C_TO_STRING_NOSLASHESCAPE));
	strbuf_addch(out, '\n');
	json_object_put(arr);
}
