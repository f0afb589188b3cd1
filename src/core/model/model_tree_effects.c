/*
 * The bridge of the factorial analysis (model_tree.h): the effects and
 * interactions it fills on a document put back into the experiment
 * engine's tree, until the engine fills an experiment_doc.
 */
#include <json-c/json.h>
#include "model-int.h"
#include "model_tree.h"
#include "../../util/banned.h"

void exp_effects_into_tree(struct json_object *exp,
			   const struct experiment_doc *doc)
{
	if (!json_object_is_type(exp, json_type_object))
		return;
	json_object_object_del(exp, "effects");
	json_object_object_del(exp, "interactions");
	if (doc->has_effects == MODEL_SET)
		exp_rows_into_tree(exp, "effects", MODEL_SET, doc->effects,
				   doc->nr_effects);
	if (doc->has_interactions == MODEL_SET)
		exp_rows_into_tree(exp, "interactions", MODEL_SET,
				   doc->interactions, doc->nr_interactions);
}
