/*
 * The bridge of two stages of the analysis (model_tree.h): the regimes
 * and the scaling rows that experiment/regime.c and experiment/scaling.c
 * set on a document decoded from the experiment engine's tree, put
 * back into that tree, until the engine fills an experiment_doc.
 */
#include <stdbool.h>
#include <json-c/json.h>
#include "model_json.h"
#include "model_tree.h"
#include "../../util/banned.h"

/* Member key of from, if it has one, into to (shared). */
static void copy_member(struct json_object *to, struct json_object *from,
			const char *key)
{
	struct json_object *v;

	if (json_object_object_get_ex(from, key, &v))
		json_object_object_add(to, key, json_object_get(v));
}

/* An entry of "runs" as the regimes read it: its arm, and of its run
 * object the regime entries and what tells a fio report. */
static struct json_object *run_view(struct json_object *r)
{
	struct json_object *v, *run, *rv;

	if (!json_object_is_type(r, json_type_object))
		return json_object_get(r); /* refused as decode refuses it */
	v = json_object_new_object();
	copy_member(v, r, "arm");
	if (!json_object_object_get_ex(r, "run", &run))
		return v;
	if (!json_object_is_type(run, json_type_object)) {
		json_object_object_add(v, "run", json_object_get(run));
		return v;
	}
	rv = json_object_new_object();
	copy_member(rv, run, "schema");
	copy_member(rv, run, "fio version");
	copy_member(rv, run, "regime");
	json_object_object_add(v, "run", rv);
	return v;
}

/* Decode of exp's members the stages read (with_runs: the runs as
 * run_view() has them). */
static int stage_doc_from_tree(struct json_object *exp, bool with_runs,
			       struct experiment_doc *out, struct strbuf *err)
{
	static const char *const keys[] = {"schema", "type", "factors", "arms"};
	struct json_object *view, *runs, *rv;
	size_t i;
	int ret;

	if (!json_object_is_type(exp, json_type_object))
		return experiment_doc_from_tree(exp, out, 0, err);
	view = json_object_new_object();
	for (i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		copy_member(view, exp, keys[i]);
	if (with_runs && json_object_object_get_ex(exp, "runs", &runs)) {
		if (json_object_is_type(runs, json_type_array)) {
			rv = json_object_new_array();
			for (i = 0; i < json_object_array_length(runs); i++)
				json_object_array_add(
				    rv, run_view(json_object_array_get_idx(runs,
									   i)));
		} else {
			rv = json_object_get(runs);
		}
		json_object_object_add(view, "runs", rv);
	}
	ret = experiment_doc_from_tree(view, out, 0, err);
	json_object_put(view);
	return ret;
}

int exp_regimes_doc_from_tree(struct json_object *exp,
			      struct experiment_doc *out, struct strbuf *err)
{
	return stage_doc_from_tree(exp, true, out, err);
}

/*
 * Member key of the tree of a document holding only what part holds
 * (borrowed, as model_params_to_tree() does), or NULL: the table's
 * encoding of it, new.
 */
static struct json_object *member_tree(const struct experiment_doc *part,
				       const char *key)
{
	struct json_object *tree = experiment_doc_to_tree(part), *v = NULL;

	if (json_object_object_get_ex(tree, key, &v))
		json_object_get(v);
	json_object_put(tree);
	return v;
}

void exp_regimes_into_tree(struct json_object *exp,
			   const struct experiment_doc *doc)
{
	struct experiment_doc part;

	if (!json_object_is_type(exp, json_type_object))
		return;
	experiment_doc_init(&part);
	part.regimes = doc->regimes;
	part.nr_regimes = doc->nr_regimes;
	part.has_regimes = doc->has_regimes;
	if (doc->has_regimes == MODEL_ABSENT)
		json_object_object_del(exp, "regimes");
	else
		json_object_object_add(exp, "regimes",
				       member_tree(&part, "regimes"));
}

void exp_scaling_into_tree(struct json_object *exp,
			   const struct experiment_doc *doc)
{
	struct experiment_doc part;

	if (!json_object_is_type(exp, json_type_object))
		return;
	experiment_doc_init(&part);
	part.scaling = doc->scaling;
	part.nr_scaling = doc->nr_scaling;
	part.has_scaling = doc->has_scaling;
	json_object_object_del(exp, "scaling");
	if (doc->has_scaling != MODEL_ABSENT)
		json_object_object_add(exp, "scaling",
				       member_tree(&part, "scaling"));
}
