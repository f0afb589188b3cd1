/*
 * What observe's experiment needs of the model beyond its tables
 * (live/live_json.c): its windows' run objects, written in a shape of
 * their own, and its members' order. Both are how observe has always
 * printed its document (docs/ARCHITECTURE.md, "Moving to the model"),
 * kept so that its output stays byte for byte what it was.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "model-int.h"
#include "model_json.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* A number, or null when it is not finite, as json-c prints a double. */
static void add_num(struct json_object *o, const char *key, double v)
{
	json_object_object_add(o, key,
			       isfinite(v) ? json_object_new_double(v) : NULL);
}

/* An array of n strings. */
static struct json_object *str_array(const char *const *s, size_t n)
{
	struct json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(s[i]));
	return a;
}

/*
 * The run object is made as observe printed it and decoded, so that it
 * is the very document a decode of a stored observe gives (a run_doc
 * whose other members decode found missing, its device row's numbers
 * kept as their text): one struct, however it came.
 */
struct run_doc *live_run_doc(const struct live_run *r)
{
	struct json_object *o = json_object_new_object();
	struct run_doc *doc = xcalloc(1, sizeof(*doc));
	struct strbuf err = STRBUF_INIT;

	json_object_object_add(o, "warnings",
			       str_array(r->warnings, r->nr_warnings));
	json_object_object_add(o, "warning_kinds",
			       str_array(r->warning_kinds, r->nr_warnings));
	add_num(o, "seconds", r->seconds);
	if (r->device) {
		const struct live_run_device *d = r->device;
		struct json_object *devs = json_object_new_array();
		struct json_object *row = json_object_new_object();

		json_object_object_add(row, "name",
				       json_object_new_string(d->name));
		add_num(row, "r_s", d->r_s);
		add_num(row, "w_s", d->w_s);
		add_num(row, "rmbps", d->rmbps);
		add_num(row, "wmbps", d->wmbps);
		add_num(row, "read_bytes", d->read_bytes);
		add_num(row, "write_bytes", d->write_bytes);
		json_object_array_add(devs, row);
		json_object_object_add(o, "devices", devs);
	}
	if (model_decode_tree(&model_run_desc, doc, o, 0, &err)) {
		run_doc_free(doc);
		doc = NULL;
	}
	json_object_put(o);
	strbuf_release(&err);
	return doc;
}

/* The kept order of a decoded document, given by a writer instead:
 * each key's row of the experiment's table. */
void experiment_doc_order(struct experiment_doc *doc, const char *const *keys,
			  size_t nr)
{
	const struct model_desc *d = &model_experiment_desc;
	struct model_kept *k = model_kept_of(d, doc);
	size_t i;
	uint32_t ri;

	free(k->order);
	k->order = xcalloc(nr + 1, sizeof(*k->order));
	k->nr_order = 0;
	for (i = 0; i < nr; i++)
		for (ri = 0; ri < d->nr_rows; ri++)
			if (!strcmp(d->rows[ri].key, keys[i])) {
				k->order[k->nr_order++] = ri;
				break;
			}
}
