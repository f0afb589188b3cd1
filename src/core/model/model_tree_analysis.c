/*
 * The bridge of the analysis (model_tree.h): what the typed analysis
 * (experiment/analyze_doc.h) set on a document decoded from the
 * experiment engine's tree, the arms' summaries, the verdicts and the
 * baseline, put back into that tree, until the engine fills an
 * experiment_doc.
 */
#include <string.h>
#include <json-c/json.h>
#include "model-int.h"
#include "model_tree.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Add the members of the encoded arm s but its "arm" and "label" to
 * the tree's arm a: a member there already keeps its place. */
static void merge_arm(struct json_object *a, struct json_object *s)
{
	if (!json_object_is_type(a, json_type_object) ||
	    !json_object_is_type(s, json_type_object))
		return;
	json_object_object_foreach(s, key, val)
	{
		if (!strcmp(key, "arm") || !strcmp(key, "label"))
			continue;
		json_object_object_add(a, key, json_object_get(val));
	}
}

/* Set exp's member key to view's, where view has it. */
static void take(struct json_object *exp, struct json_object *view,
		 const char *key)
{
	struct json_object *v;

	if (json_object_object_get_ex(view, key, &v))
		json_object_object_add(exp, key, json_object_get(v));
}

void exp_analysis_into_tree(struct json_object *exp,
			    const struct experiment_doc *doc)
{
	struct experiment_doc view;
	struct json_object *tree, *arms, *enc;
	size_t i, n;

	if (!json_object_is_type(exp, json_type_object))
		return;
	/* the encoder prints the parts: a document of them alone, sharing
	 * doc's (never released) */
	experiment_doc_init(&view);
	view.arms = xcalloc(doc->nr_arms + 1, sizeof(*view.arms));
	view.nr_arms = doc->nr_arms;
	for (i = 0; i < doc->nr_arms; i++) {
		view.arms[i].summary = doc->arms[i].summary;
		view.arms[i].drift = doc->arms[i].drift;
	}
	view.verdicts = doc->verdicts;
	view.nr_verdicts = doc->nr_verdicts;
	view.has_verdicts = doc->has_verdicts;
	view.baseline = doc->baseline;
	view.has_baseline = doc->has_baseline;
	tree = model_encode_tree(&model_experiment_desc, &view);
	free(view.arms);
	if (json_object_object_get_ex(exp, "arms", &arms) &&
	    json_object_is_type(arms, json_type_array) &&
	    json_object_object_get_ex(tree, "arms", &enc)) {
		n = json_object_array_length(arms);
		for (i = 0; i < n && i < doc->nr_arms; i++)
			merge_arm(json_object_array_get_idx(arms, i),
				  json_object_array_get_idx(enc, i));
	}
	take(exp, tree, "verdicts");
	take(exp, tree, "baseline");
	json_object_put(tree);
}
