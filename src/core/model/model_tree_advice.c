/*
 * The bridge of the compare loop's end (model_tree.h): what
 * experiment/budget.c and experiment/metrics.c set on a document
 * decoded from the experiment engine's tree (the advice of a limit, the
 * arms' medians of every metric and what those metrics are), put back
 * into that tree; and the skeleton's "metric", until the engine fills
 * an experiment_doc.
 */
#include <json-c/json.h>
#include "model-int.h"
#include "model_tree.h"
#include "../../util/banned.h"

struct json_object *exp_metric_to_tree(const struct exp_metric *m)
{
	return model_encode_tree(
	    model_sub_desc(&model_experiment_desc, "metric"), m);
}

void exp_metric_release(struct exp_metric *m)
{
	if (m)
		model_release_obj(
		    model_sub_desc(&model_experiment_desc, "metric"), m);
}

void exp_advice_into_tree(struct json_object *exp,
			  const struct experiment_doc *doc)
{
	if (!doc->advice || !json_object_is_type(exp, json_type_object))
		return;
	json_object_object_add(
	    exp, "advice",
	    model_encode_tree(model_sub_desc(&model_experiment_desc, "advice"),
			      doc->advice));
}

/* Set "metrics" of the tree arm x to the arm a's, as the model writes
 * them. */
static void arm_metrics_into(struct json_object *x, const struct model_desc *d,
			     const struct exp_arm *a)
{
	struct json_object *enc = model_encode_tree(d, a), *ms;

	if (json_object_object_get_ex(enc, "metrics", &ms))
		json_object_object_add(x, "metrics", json_object_get(ms));
	json_object_put(enc);
}

void exp_metrics_into_tree(struct json_object *exp,
			   const struct experiment_doc *doc)
{
	const struct model_desc *arm_d =
	    model_sub_desc(&model_experiment_desc, "arms");
	const struct model_desc *met_d =
	    model_sub_desc(&model_experiment_desc, "metrics");
	struct json_object *arms = NULL, *x, *list;
	size_t i;

	if (!json_object_is_type(exp, json_type_object))
		return;
	if (!json_object_object_get_ex(exp, "arms", &arms) ||
	    !json_object_is_type(arms, json_type_array))
		arms = NULL;
	for (i = 0;
	     arms && i < doc->nr_arms && i < json_object_array_length(arms);
	     i++) {
		x = json_object_array_get_idx(arms, i);
		if (doc->arms[i].has_metrics == MODEL_SET &&
		    json_object_is_type(x, json_type_object))
			arm_metrics_into(x, arm_d, &doc->arms[i]);
	}
	if (doc->has_metrics != MODEL_SET)
		return;
	list = json_object_new_array();
	for (i = 0; i < doc->nr_metrics; i++)
		json_object_array_add(
		    list, model_encode_tree(met_d, &doc->metrics[i]));
	json_object_object_add(exp, "metrics", list);
}
