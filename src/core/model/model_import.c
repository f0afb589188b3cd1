/*
 * The codec of an imported file (import_doc.h): which of the three
 * shapes it is, then that shape's table; and the table of the members
 * of a fio report that import reads.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "import_doc.h"
#include "model-int.h"
#include "model_json.h"
#include "../../version.h"
#include "../../util/error.h"
#include "../../util/text.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define S struct fio_dir_doc
static const struct model_row dir_rows[] = {
    M(S, "iops", MK_DBL, iops, 0),
    M(S, "bw_bytes", MK_DBL, bw_bytes, 0),
    M(S, "bw", MK_DBL, bw, 0),
};
static MODEL_DESC(dir_desc, S, dir_rows);
#undef S

#define S struct fio_job_doc
static const struct model_row job_rows[] = {
    M(S, "jobname", MK_STR, jobname, 0),
    M(S, "error", MK_DBL, error, 0),
    MMH(S, "job options", options, 0, &model_pair_desc),
    MO(S, "read", MK_PTR, read, 0, &dir_desc),
    MO(S, "write", MK_PTR, write, 0, &dir_desc),
};
static MODEL_DESC(job_desc, S, job_rows);
#undef S

#define S struct fio_doc
static const struct model_row fio_rows[] = {
    M(S, "fio version", MK_STR, fio_version, 0),
    MMH(S, "global options", global_options, 0, &model_pair_desc),
    MAH(S, "jobs", MK_OBJ, jobs, 0, &job_desc),
};
static MODEL_DESC(fio_desc, S, fio_rows);
#undef S

/* The member key of o when it is of type t, else NULL. */
static struct json_object *member(struct json_object *o, const char *key,
				  enum json_type t)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, t))
		return NULL;
	return v;
}

/* Is arr an array whose elements are all objects? */
static bool all_objects(struct json_object *arr)
{
	size_t i, n;

	if (!arr)
		return false;
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++)
		if (!json_object_is_type(json_object_array_get_idx(arr, i),
					 json_type_object))
			return false;
	return true;
}

/* Parse text from its first '{'; what follows the object is ignored. */
static int parse(const char *text, size_t len, const char *source,
		 struct json_object **out, struct strbuf *err)
{
	const char *brace = len ? memchr(text, '{', len) : NULL;
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	size_t left;

	*out = NULL;
	if (!brace)
		return err_set(err, -EINVAL,
			       "'%s' holds no JSON object; expected iotrial "
			       "JSON or fio --output-format=json output",
			       source);
	left = len - (size_t)(brace - text);
	if (left > INT_MAX)
		return err_set(err, -EINVAL, "'%s' is too large", source);
	tok = json_tokener_new();
	*out = json_tokener_parse_ex(tok, brace, (int)left);
	jerr = json_tokener_get_error(tok);
	json_tokener_free(tok);
	if (*out && jerr == json_tokener_success)
		return 0;
	json_object_put(*out);
	*out = NULL;
	return err_set(err, -EINVAL, "'%s' is not valid JSON: %s", source,
		       jerr == json_tokener_continue
			   ? "it ends in the middle of an object"
			   : json_tokener_error_desc(jerr));
}

/* The row of d whose key is key. */
static uint32_t row_of(const struct model_desc *d, const char *key)
{
	uint32_t ri;

	for (ri = 0; ri < d->nr_rows; ri++)
		if (!strcmp(d->rows[ri].key, key))
			break;
	return ri;
}

/* A run's metric without "higher_is_better" reads as higher is better. */
static void default_direction(struct run_doc *run)
{
	const struct model_desc *md =
	    model_run_desc.rows[row_of(&model_run_desc, "metric")].sub;

	if (run->metric && model_kept_absent(model_kept_get(md, run->metric),
					     row_of(md, "higher_is_better")))
		run->metric->higher_is_better = true;
}

/* Decode the iotrial/1 document o (already printable) by its "type". */
static int decode_iotrial(struct json_object *o, const char *source,
			  struct import_doc *out, struct strbuf *err)
{
	struct json_object *type = member(o, "type", json_type_string);
	struct strbuf why = STRBUF_INIT;
	int ret;

	if (type && !strcmp(json_object_get_string(type), "experiment")) {
		if (!all_objects(member(o, "arms", json_type_array)) ||
		    !all_objects(member(o, "runs", json_type_array)))
			return err_set(err, -EINVAL,
				       "'%s' is an iotrial experiment without "
				       "'arms' and 'runs' arrays of objects",
				       source);
		out->kind = IMPORT_DOC_EXPERIMENT;
		out->exp = xcalloc(1, sizeof(*out->exp));
		ret = model_decode_tree(&model_experiment_desc, out->exp, o, 0,
					&why);
	} else {
		out->kind = IMPORT_DOC_RUN;
		out->run = xcalloc(1, sizeof(*out->run));
		ret = model_decode_tree(&model_run_desc, out->run, o, 0, &why);
		if (!ret)
			default_direction(out->run);
	}
	if (ret)
		err_set(err, ret, "'%s': %s", source, why.buf);
	strbuf_release(&why);
	return ret;
}

int import_doc_decode(const char *text, size_t len, const char *source,
		      struct import_doc *out, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct json_object *o, *schema;
	char shown[48];
	int ret;

	memset(out, 0, sizeof(*out));
	ret = parse(text, len, source, &o, err);
	if (ret)
		return ret;
	model_tree_printable(o);
	schema = member(o, "schema", json_type_string);
	if (schema && !strncmp(json_object_get_string(schema), "iotrial/", 8)) {
		if (strcmp(json_object_get_string(schema), IOTRIAL_SCHEMA)) {
			const char *sc = json_object_get_string(schema);

			snprintf(shown, 41, "%s", sc); /* a cut char is '?' */
			text_make_printable(shown);
			if (strlen(sc) > 40)
				strbuf_addstr(&why, "...");
			ret = err_set(err, -EINVAL,
				      "'%s' has schema '%s%s'; this iotrial "
				      "reads '%s'",
				      source, shown, why.buf, IOTRIAL_SCHEMA);
		} else {
			ret = decode_iotrial(o, source, out, err);
		}
	} else if (member(o, "fio version", json_type_string) ||
		   member(o, "jobs", json_type_array)) {
		out->kind = IMPORT_DOC_FIO;
		out->fio = xcalloc(1, sizeof(*out->fio));
		ret = model_decode_tree(&fio_desc, out->fio, o, 0, &why);
		if (ret)
			err_set(err, ret, "'%s': %s", source, why.buf);
	} else {
		ret = err_set(err, -EINVAL,
			      "'%s' is neither iotrial JSON (\"schema\": "
			      "\"%s\") nor fio --output-format=json output",
			      source, IOTRIAL_SCHEMA);
	}
	json_object_put(o);
	strbuf_release(&why);
	return ret;
}

void import_doc_release(struct import_doc *out)
{
	if (!out)
		return;
	run_doc_free(out->run);
	experiment_doc_free(out->exp);
	if (out->fio)
		model_release_obj(&fio_desc, out->fio);
	free(out->fio);
	memset(out, 0, sizeof(*out));
}

void fio_doc_encode(const struct fio_doc *fio, unsigned flags,
		    struct strbuf *out)
{
	model_encode_obj(&fio_desc, fio, flags, out);
}
