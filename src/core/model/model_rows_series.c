/*
 * The tables of a series' report (series_doc.h), in the order
 * series/series_report.c prints its members, and the document's entry
 * points.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "model-int.h"
#include "model_json.h"
#include "../../util/xalloc.h"
#include "../../util/error.h"
#include "../../util/banned.h"

#define S struct series_iteration
static const struct model_row iteration_rows[] = {
    M(S, "experiment", MK_STR, experiment, 0),
    M(S, "metric", MK_DBL, metric, MF_NULL),
    M(S, "real_s", MK_DBL, real_s, MF_NULL),
    M(S, "user_s", MK_DBL, user_s, MF_NULL),
    M(S, "sys_s", MK_DBL, sys_s, MF_NULL),
    M(S, "device", MK_STR, device, 0),
    M(S, "tps", MK_DBL, tps, MF_NULL),
    M(S, "mb_read_s", MK_DBL, mb_read_s, MF_NULL),
    M(S, "mb_wrtn_s", MK_DBL, mb_wrtn_s, MF_NULL),
    M(S, "mb_read", MK_DBL, mb_read, MF_NULL),
    M(S, "mb_wrtn", MK_DBL, mb_wrtn, MF_NULL),
};
static MODEL_DESC(iteration_desc, S, iteration_rows);
#undef S

#define S struct series_group_doc
static const struct model_row group_rows[] = {
    M(S, "group", MK_INT, group, 0),
    M(S, "value", MK_STR, value, 0),
    M(S, "boot_id", MK_STR, boot_id, 0),
    M(S, "kernel", MK_STR, kernel, 0),
    M(S, "build", MK_STR, build, 0),
    M(S, "tag", MK_STR, tag, 0),
    M(S, "median", MK_DBL, median, MF_NULL),
    MA(S, "iterations", MK_OBJ, iterations, 0, &iteration_desc),
};
static MODEL_DESC(group_desc, S, group_rows);
#undef S

#define S struct series_pooled
static const struct model_row pooled_rows[] = {
    M(S, "ratio", MK_DBL, ratio, MF_NULL),
    M(S, "ratio_low", MK_DBL, ratio_low, MF_NULL),
    M(S, "ratio_high", MK_DBL, ratio_high, MF_NULL),
    M(S, "p", MK_DBL, p, MF_NULL),
    M(S, "verdict", MK_STR, verdict, 0),
};
static MODEL_DESC(pooled_desc, S, pooled_rows);
#undef S

#define S struct series_comparison_doc
static const struct model_row cmp_rows[] = {
    M(S, "value", MK_STR, value, 0),
    M(S, "boots", MK_INT, boots, 0),
    M(S, "iterations", MK_INT, iterations, 0),
    M(S, "ratio", MK_DBL, ratio, MF_NULL),
    M(S, "ratio_low", MK_DBL, ratio_low, MF_NULL),
    M(S, "ratio_high", MK_DBL, ratio_high, MF_NULL),
    M(S, "p", MK_DBL, p, MF_NULL),
    M(S, "verdict", MK_STR, verdict, 0),
    M(S, "boots_needed", MK_INT, boots_needed, 0),
    M(S, "between_boot_sd", MK_DBL, between_boot_sd, MF_NULL),
    M(S, "within_boot_sd", MK_DBL, within_boot_sd, MF_NULL),
    MO(S, "pooled", MK_PTR, pooled, 0, &pooled_desc),
};
static MODEL_DESC(cmp_desc, S, cmp_rows);
#undef S

/* Ours, and a series. */
static int series_check(const void *obj, const char *path, struct strbuf *err)
{
	const struct series_doc *s = obj;
	char buf[48];

	if (s->kind && strcmp(s->kind, "series"))
		return err_set(err, -EINVAL, "kind: '%s'; expected 'series'",
			       model_printable(s->kind, buf, sizeof(buf)));
	return model_check_schema(s->schema, path, err);
}

#define S struct series_doc
static const struct model_row series_rows[] = {
    M(S, "schema", MK_STR, schema, MF_REQ),
    M(S, "kind", MK_STR, kind, MF_REQ),
    M(S, "name", MK_STR, name, 0),
    M(S, "by", MK_STR, by, 0),
    M(S, "baseline", MK_STR, baseline, 0),
    M(S, "metric", MK_STR, metric, 0),
    M(S, "boots", MK_INT, boots, 0),
    M(S, "iterations", MK_INT, iterations, 0),
    MA(S, "groups", MK_OBJ, groups, 0, &group_desc),
    MA(S, "comparisons", MK_OBJ, comparisons, 0, &cmp_desc),
};
const struct model_desc model_series_desc = {
    .name = "struct series_doc",
    .size = sizeof(S),
    .keep = offsetof(S, keep),
    .key = -1,
    .rows = series_rows,
    .nr_rows = sizeof(series_rows) / sizeof(series_rows[0]),
    .check = series_check,
};
#undef S

#define S struct series_plan_doc
static const struct model_row plan_rows[] = {
    M(S, "start", MK_INT, start, MF_REQ),
    MA(S, "order", MK_STR, order, MF_REQ, NULL),
};
static MODEL_DESC(plan_desc, S, plan_rows);
#undef S

#define S struct series_ctx_doc
static const struct model_row ctx_rows[] = {
    MMH(S, "knobs", knobs, 0, &model_pair_desc),
    MAH(S, "devices", MK_OBJ, devices, 0, &model_truth_device_desc),
};
static MODEL_DESC(ctx_desc, S, ctx_rows);
#undef S

void series_ctx_doc_release(struct series_ctx_doc *doc)
{
	if (doc)
		model_release_obj(&ctx_desc, doc);
}

void series_ctx_doc_encode(const struct series_ctx_doc *doc, unsigned flags,
			   struct strbuf *out)
{
	model_encode_obj(&ctx_desc, doc, flags, out);
}

void series_argv_encode(const char *const *argv, size_t n, struct strbuf *out)
{
	struct json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(argv[i]));
	strbuf_addstr(
	    out, json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN));
	json_object_put(a);
}

int series_argv_decode(const char *text, char ***out, size_t *n,
		       struct strbuf *err)
{
	struct json_object *a = json_tokener_parse(text);
	size_t i, len;

	*out = NULL;
	*n = 0;
	if (!json_object_is_type(a, json_type_array) ||
	    !(len = json_object_array_length(a))) {
		json_object_put(a);
		return err_set(err, -EINVAL, "not a list of arguments");
	}
	*out = xcalloc(len + 1, sizeof(**out));
	for (i = 0; i < len; i++) {
		struct json_object *v = json_object_array_get_idx(a, i);

		if (!json_object_is_type(v, json_type_string) ||
		    strlen(json_object_get_string(v)) !=
			(size_t)json_object_get_string_len(v)) {
			json_object_put(a);
			while (*n)
				free((*out)[--*n]);
			free(*out);
			*out = NULL;
			return err_set(err, -EINVAL, "[%zu]: expected a string",
				       i);
		}
		(*out)[(*n)++] = xstrdup(json_object_get_string(v));
	}
	json_object_put(a);
	return 0;
}

MODEL_ENTRY_POINTS(series_plan_doc, plan_desc)

void series_doc_init(struct series_doc *doc)
{
	memset(doc, 0, sizeof(*doc));
}

void series_doc_release(struct series_doc *doc)
{
	if (doc)
		model_release_obj(&model_series_desc, doc);
}

void series_doc_free(struct series_doc *doc)
{
	series_doc_release(doc);
	free(doc);
}

void series_doc_copy(struct series_doc *dst, const struct series_doc *src)
{
	model_copy_obj(&model_series_desc, dst, src);
}

int series_doc_decode(const char *text, size_t len, struct series_doc *out,
		      unsigned flags, struct strbuf *err)
{
	return model_decode_text(&model_series_desc, out, text, len, flags,
				 err);
}

void series_doc_encode(const struct series_doc *doc, unsigned flags,
		       struct strbuf *out)
{
	model_encode_obj(&model_series_desc, doc, flags, out);
}

bool series_doc_equal(const struct series_doc *a, const struct series_doc *b)
{
	return model_equal_obj(&model_series_desc, a, b);
}

size_t series_doc_unknown(const struct series_doc *doc)
{
	return model_unknown_count(&model_series_desc, doc);
}
