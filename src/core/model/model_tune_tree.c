/*
 * The bridge of tune and bisect (model_tree.h): their answer into the
 * experiment tree the trial still holds, and that tree's runs read back
 * as documents, until the experiment engine fills an experiment_doc.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "model-int.h"
#include "model_tree.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Set exp's "kind" to kind and its member of that name to part (taken
 * over): a member already there keeps its place. */
static void set_answer(struct json_object *exp, const char *kind,
		       struct json_object *part)
{
	json_object_object_add(exp, "kind", json_object_new_string(kind));
	json_object_object_add(exp, kind, part);
}

void tune_doc_into_tree(struct json_object *exp, const struct tune_doc *tune)
{
	set_answer(exp, "tune", model_encode_tree(&model_tune_desc, tune));
}

void bisect_doc_into_tree(struct json_object *exp,
			  const struct bisect_doc *bisect)
{
	set_answer(exp, "bisect",
		   model_encode_tree(&model_bisect_desc, bisect));
}

int exp_runs_from_tree(struct json_object *exp, size_t from,
		       struct exp_run **out, size_t *nr, struct strbuf *err)
{
	const struct model_desc *d =
	    model_sub_desc(&model_experiment_desc, "runs");
	struct json_object *runs = NULL;
	size_t i, n;
	int ret = 0;

	*out = NULL;
	*nr = 0;
	if (!json_object_object_get_ex(exp, "runs", &runs) || !runs)
		return 0;
	if (!json_object_is_type(runs, json_type_array))
		return err_set(err, -EINVAL, "runs: expected an array");
	n = json_object_array_length(runs);
	if (from >= n)
		return 0;
	*out = xcalloc(n - from + 1, d->size);
	for (i = from; i < n && !ret; i++, ++*nr)
		ret = model_decode_tree(d, (char *)*out + (i - from) * d->size,
					json_object_array_get_idx(runs, i), 0,
					err);
	if (ret) {
		exp_runs_free(*out, *nr);
		*out = NULL;
		*nr = 0;
	}
	return ret;
}

void exp_runs_free(struct exp_run *runs, size_t nr)
{
	const struct model_desc *d =
	    model_sub_desc(&model_experiment_desc, "runs");
	size_t i;

	for (i = 0; runs && i < nr; i++)
		model_release_obj(d, (char *)runs + i * d->size);
	free(runs);
}
