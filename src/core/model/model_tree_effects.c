/*
 * The bridge of the factorial analysis (model_tree.h): the effects and
 * interactions it fills on a document put back into the experiment
 * engine's tree, until the engine fills an experiment_doc.
 */
#include <string.h>
#include <json-c/json.h>
#include "model-int.h"
#include "model_tree.h"
#include "../../util/banned.h"

/* The table of the experiment's member key (an array's elements). */
static const struct model_desc *rows_desc(const char *key)
{
	size_t i;

	for (i = 0; i < model_experiment_desc.nr_rows; i++)
		if (!strcmp(model_experiment_desc.rows[i].key, key))
			return model_experiment_desc.rows[i].sub;
	return NULL;
}

/* The nr rows at base (elements of the table of key) as exp's member
 * key, after the members exp holds; none when has is not MODEL_SET. */
static void rows_into(struct json_object *exp, const char *key, uint8_t has,
		      const void *base, size_t nr)
{
	const struct model_desc *d = rows_desc(key);
	struct json_object *arr;
	size_t i;

	if (has != MODEL_SET || !d)
		return;
	arr = json_object_new_array();
	for (i = 0; i < nr; i++)
		json_object_array_add(
		    arr,
		    model_encode_tree(d, (const char *)base + i * d->size));
	json_object_object_add(exp, key, arr);
}

void exp_effects_into_tree(struct json_object *exp,
			   const struct experiment_doc *doc)
{
	if (!json_object_is_type(exp, json_type_object))
		return;
	json_object_object_del(exp, "effects");
	json_object_object_del(exp, "interactions");
	rows_into(exp, "effects", doc->has_effects, doc->effects,
		  doc->nr_effects);
	rows_into(exp, "interactions", doc->has_interactions, doc->interactions,
		  doc->nr_interactions);
}
