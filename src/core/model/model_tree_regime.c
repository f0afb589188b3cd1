/*
 * The bridge of two stages of the analysis (model_tree.h): the regimes
 * and the scaling rows that experiment/regime.c and experiment/scaling.c
 * set on a document decoded from the experiment engine's tree, put
 * back into that tree, until the engine fills an experiment_doc.
 */
#include <json-c/json.h>
#include "model-int.h"
#include "model_tree.h"
#include "../../util/banned.h"

void exp_regimes_into_tree(struct json_object *exp,
			   const struct experiment_doc *doc)
{
	exp_rows_into_tree(exp, "regimes", doc->has_regimes, doc->regimes,
			   doc->nr_regimes);
}

void exp_scaling_into_tree(struct json_object *exp,
			   const struct experiment_doc *doc)
{
	if (!json_object_is_type(exp, json_type_object))
		return;
	json_object_object_del(exp, "scaling");
	exp_rows_into_tree(exp, "scaling", doc->has_scaling, doc->scaling,
			   doc->nr_scaling);
}
