/*
 * The bridge of the suspect marks (model_tree.h): what report/suspect.c
 * sets on a document decoded from the experiment engine's tree (each
 * row's "suspect", --strict's refusals), put back into that tree, until
 * the engine fills an experiment_doc.
 */
#include <json-c/json.h>
#include "model-int.h"
#include "model_tree.h"
#include "../../util/banned.h"

/* A new object of the members keys (nr of them) that o has, shared. */
static struct json_object *pick(struct json_object *o, const char *const *keys,
				size_t nr)
{
	struct json_object *p = json_object_new_object(), *v;
	size_t i;

	for (i = 0; i < nr; i++)
		if (json_object_object_get_ex(o, keys[i], &v))
			json_object_object_add(p, keys[i], json_object_get(v));
	return p;
}

#define PICK(o, keys) pick(o, keys, sizeof(keys) / sizeof(*keys))

/* An entry of "runs" as the marks read it: its arm, and of its run
 * object the warnings, their kinds and what tells a fio report. */
static struct json_object *run_view(struct json_object *r)
{
	static const char *const entry_keys[] = {"arm"};
	static const char *const run_keys[] = {"schema", "fio version",
					       "warnings", "warning_kinds"};
	struct json_object *v, *run;

	if (!json_object_is_type(r, json_type_object))
		return json_object_get(r); /* refused as decode refuses it */
	v = PICK(r, entry_keys);
	if (json_object_object_get_ex(r, "run", &run))
		json_object_object_add(
		    v, "run",
		    json_object_is_type(run, json_type_object)
			? PICK(run, run_keys)
			: json_object_get(run));
	return v;
}

int exp_marks_doc_from_tree(struct json_object *exp, struct experiment_doc *out,
			    struct strbuf *err)
{
	static const char *const keys[] = {
	    "schema",	"type",	   "baseline",	   "arms",
	    "verdicts", "effects", "interactions", "scaling"};
	struct json_object *view, *runs, *rv;
	size_t i;
	int ret;

	if (!json_object_is_type(exp, json_type_object))
		return experiment_doc_from_tree(exp, out, 0, err);
	view = PICK(exp, keys);
	if (json_object_object_get_ex(exp, "runs", &runs)) {
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

/* Append the nr marks s to the tree array arr. */
static void exp_suspects_append_tree(struct json_object *arr,
				     const struct exp_suspect *s, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		json_object_array_add(
		    arr, model_encode_tree(&model_suspect_desc, &s[i]));
}

/* Set "suspect" of entry i of exp's array key to the nr marks s. */
static void set_marks(struct json_object *exp, const char *key, size_t i,
		      const struct exp_suspect *s, size_t nr)
{
	struct json_object *xs = NULL, *x, *arr;

	if (!json_object_object_get_ex(exp, key, &xs) ||
	    !json_object_is_type(xs, json_type_array) ||
	    i >= json_object_array_length(xs))
		return;
	x = json_object_array_get_idx(xs, i);
	if (!json_object_is_type(x, json_type_object))
		return;
	arr = json_object_new_array();
	exp_suspects_append_tree(arr, s, nr);
	json_object_object_add(x, "suspect", arr);
}

/* The marks of each row of doc's array FIELD into exp's KEY. */
#define MARKS_INTO(exp, doc, KEY, FIELD)                                       \
	do {                                                                   \
		size_t i_;                                                     \
		for (i_ = 0; i_ < (doc)->nr_##FIELD; i_++)                     \
			if ((doc)->FIELD[i_].has_suspect == MODEL_SET)         \
				set_marks(exp, KEY, i_,                        \
					  (doc)->FIELD[i_].suspect,            \
					  (doc)->FIELD[i_].nr_suspect);        \
	} while (0)

/* --strict's refusals: each verdict with an "estimate", and "strict". */
static void strict_into(struct json_object *exp,
			const struct experiment_doc *doc)
{
	struct json_object *vs = NULL, *v;
	size_t i;

	if (!json_object_object_get_ex(exp, "verdicts", &vs) ||
	    !json_object_is_type(vs, json_type_array))
		vs = NULL;
	for (i = 0;
	     vs && i < doc->nr_verdicts && i < json_object_array_length(vs);
	     i++) {
		v = json_object_array_get_idx(vs, i);
		if (!doc->verdicts[i].estimate || !doc->verdicts[i].verdict ||
		    !json_object_is_type(v, json_type_object))
			continue;
		json_object_object_add(
		    v, "estimate",
		    json_object_new_string(doc->verdicts[i].estimate));
		json_object_object_add(
		    v, "verdict",
		    json_object_new_string(doc->verdicts[i].verdict));
	}
	if (doc->has_strict == MODEL_SET)
		json_object_object_add(exp, "strict",
				       json_object_new_boolean(doc->strict));
}

void exp_marks_into_tree(struct json_object *exp,
			 const struct experiment_doc *doc, unsigned what)
{
	if (!json_object_is_type(exp, json_type_object))
		return;
	if (what & EXP_MARK_SUSPECT) {
		MARKS_INTO(exp, doc, "verdicts", verdicts);
		MARKS_INTO(exp, doc, "effects", effects);
		MARKS_INTO(exp, doc, "interactions", interactions);
		MARKS_INTO(exp, doc, "scaling", scaling);
	}
	if (what & EXP_MARK_STRICT)
		strict_into(exp, doc);
}
