/*
 * The bridge's typed ends (model_tree.h): a document from a json-c tree
 * and back, for the code that still holds trees (the experiment engine,
 * the analysis, the store) until they take documents. Each is the
 * decoder or the encoder of the codec with its document's table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "model-int.h"
#include "model_tree.h"
#include "../../util/error.h"
#include "../../util/text.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

int run_doc_from_tree(struct json_object *tree, struct run_doc *out,
		      unsigned flags, struct strbuf *err)
{
	return model_decode_tree(&model_run_desc, out, tree, flags, err);
}

int experiment_doc_from_tree(struct json_object *tree,
			     struct experiment_doc *out, unsigned flags,
			     struct strbuf *err)
{
	return model_decode_tree(&model_experiment_desc, out, tree, flags, err);
}

/* Decode a tree the caller gives up, then put it. */
int experiment_doc_take_tree(struct json_object *tree,
			     struct experiment_doc *out, unsigned flags,
			     struct strbuf *err)
{
	int ret;

	if (!tree) {
		experiment_doc_init(out);
		return err_set(err, -EINVAL, "no experiment");
	}
	ret = experiment_doc_from_tree(tree, out, flags, err);
	json_object_put(tree);
	return ret;
}

void model_tree_print(struct json_object *tree, struct strbuf *out)
{
	size_t from = out->len;

	strbuf_addstr(out, json_object_to_json_string_ext(
			       tree, JSON_C_TO_STRING_PRETTY |
					 JSON_C_TO_STRING_SPACED |
					 JSON_C_TO_STRING_NOSLASHESCAPE));
	/* json-c writes a string's bytes as they are, UTF-8 or not */
	text_json_safe(out, from);
	strbuf_addch(out, '\n');
}

struct json_object *run_doc_to_tree(const struct run_doc *doc)
{
	return model_encode_tree(&model_run_desc, doc);
}

struct json_object *experiment_doc_to_tree(const struct experiment_doc *doc)
{
	return model_encode_tree(&model_experiment_desc, doc);
}

struct json_object *env_doc_to_tree(const struct env_doc *env)
{
	return model_encode_tree(&model_env_desc, env);
}

struct json_object *live_window_to_tree(const struct live_window *w)
{
	return model_encode_tree(&model_window_desc, w);
}

struct json_object *live_switchback_to_tree(const struct live_switchback *sb)
{
	return model_encode_tree(&model_switchback_desc, sb);
}

struct json_object *live_abort_to_tree(const struct live_abort *a)
{
	return model_encode_tree(&model_abort_desc, a);
}

struct json_object *fleet_doc_to_tree(const struct fleet_doc *fleet)
{
	return model_encode_tree(&model_fleet_desc, fleet);
}

void exp_rows_into_tree(struct json_object *exp, const char *key, uint8_t has,
			const void *base, size_t nr)
{
	const struct model_desc *d =
	    model_sub_desc(&model_experiment_desc, key);
	struct json_object *arr = NULL;
	size_t i;

	if (!d || !json_object_is_type(exp, json_type_object))
		return;
	if (has == MODEL_ABSENT) {
		json_object_object_del(exp, key);
		return;
	}
	if (has == MODEL_SET) {
		arr = json_object_new_array();
		for (i = 0; i < nr; i++)
			json_object_array_add(
			    arr, model_encode_tree(d, (const char *)base +
							  i * d->size));
	}
	json_object_object_add(exp, key, arr);
}
