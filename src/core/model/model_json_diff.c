/*
 * Two documents compared as their JSON, member by member, one line per
 * difference ("kernel_release: '6.1.0' vs '6.6.0'"): what `iotrial
 * diff` shows of two stored experiments' environments and parameters.
 * Unlike model_diff.c's walk of the tables, every member counts, those
 * decode kept as unknown too (a store written by another iotrial), and
 * a part one side lacks is one line, its JSON against null. Each
 * document is encoded as its writers print it (model_encode_tree()),
 * then walked: a's members first, in a's order, then those only b has.
 * A missing member and null read alike; an array entry is named by its
 * "name" member when it has one, else by its index.
 */
#include <string.h>
#include <json-c/json.h>
#include "model-int.h"
#include "env_doc.h"
#include "experiment_doc.h"
#include "../../util/banned.h"

/* Is key one the caller skips? */
static bool skipped(const char *key, const char *const *ignore)
{
	for (; ignore && *ignore; ignore++)
		if (!strcmp(key, *ignore))
			return true;
	return false;
}

/* A value as short text for a difference line. */
static const char *shown(struct json_object *v)
{
	if (!v)
		return "null";
	if (json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
}

static int value_diff(struct json_object *a, struct json_object *b,
		      const char *path, const char *const *ignore,
		      struct strbuf *out);

/* An array entry's path: path[name] when it has a string "name", else
 * path[i]. */
static void entry_path(struct strbuf *sb, const char *path,
		       struct json_object *e, size_t i)
{
	struct json_object *name;

	if (json_object_is_type(e, json_type_object) &&
	    json_object_object_get_ex(e, "name", &name) &&
	    json_object_is_type(name, json_type_string))
		strbuf_setf(sb, "%s[%s]", path, json_object_get_string(name));
	else
		strbuf_setf(sb, "%s[%zu]", path, i);
}

/* Two objects, a's members first, then the members only b has. */
static int object_diff(struct json_object *a, struct json_object *b,
		       const char *path, const char *const *ignore,
		       struct strbuf *out)
{
	struct strbuf sub = STRBUF_INIT;
	int n = 0;

	json_object_object_foreach(a, key, va)
	{
		struct json_object *vb = NULL;

		if (skipped(key, ignore))
			continue;
		json_object_object_get_ex(b, key, &vb);
		strbuf_setf(&sub, "%s%s%s", path, *path ? "." : "", key);
		n += value_diff(va, vb, sub.buf, ignore, out);
	}
	json_object_object_foreach(b, bkey, vb2)
	{
		if (skipped(bkey, ignore) ||
		    json_object_object_get_ex(a, bkey, NULL))
			continue;
		strbuf_setf(&sub, "%s%s%s", path, *path ? "." : "", bkey);
		n += value_diff(NULL, vb2, sub.buf, ignore, out);
	}
	strbuf_release(&sub);
	return n;
}

/* Two arrays: their lengths, then entry by entry. */
static int array_diff(struct json_object *a, struct json_object *b,
		      const char *path, const char *const *ignore,
		      struct strbuf *out)
{
	size_t na = json_object_array_length(a);
	size_t nb = json_object_array_length(b), i;
	struct strbuf sub = STRBUF_INIT;
	int n = 0;

	if (na != nb) {
		strbuf_addf(out, "%s: %zu entries vs %zu\n", path, na, nb);
		return 1;
	}
	for (i = 0; i < na; i++) {
		struct json_object *ea = json_object_array_get_idx(a, i);

		entry_path(&sub, path, ea, i);
		n += value_diff(ea, json_object_array_get_idx(b, i), sub.buf,
				ignore, out);
	}
	strbuf_release(&sub);
	return n;
}

/* Two values (NULL: missing or null); a line per difference, counted. */
static int value_diff(struct json_object *a, struct json_object *b,
		      const char *path, const char *const *ignore,
		      struct strbuf *out)
{
	if (a && b && json_object_get_type(a) == json_object_get_type(b)) {
		if (json_object_is_type(a, json_type_object))
			return object_diff(a, b, path, ignore, out);
		if (json_object_is_type(a, json_type_array))
			return array_diff(a, b, path, ignore, out);
	}
	if (!a && !b)
		return 0;
	if (a && b && json_object_equal(a, b))
		return 0;
	strbuf_addf(out, "%s: '%s'", path, shown(a));
	strbuf_addf(out, " vs '%s'\n", shown(b));
	return 1;
}

int env_doc_json_diff(const struct env_doc *a, const struct env_doc *b,
		      const char *const *ignore, struct strbuf *out)
{
	struct json_object *ta =
	    a ? model_encode_tree(&model_env_desc, a) : NULL;
	struct json_object *tb =
	    b ? model_encode_tree(&model_env_desc, b) : NULL;
	int n = value_diff(ta, tb, "", ignore, out);

	json_object_put(ta);
	json_object_put(tb);
	return n;
}

/* The "params" object of an experiment holding params (nr of them), as
 * encode writes it; the caller puts it. */
static struct json_object *params_tree(const struct model_param *params,
				       size_t nr)
{
	struct experiment_doc doc;
	struct json_object *tree, *p = NULL;

	/* borrowed: the document holds params only while it is encoded */
	experiment_doc_init(&doc);
	doc.params = (struct model_param *)params;
	doc.nr_params = nr;
	doc.has_params = MODEL_SET;
	tree = model_encode_tree(&model_experiment_desc, &doc);
	if (json_object_object_get_ex(tree, "params", &p))
		json_object_get(p);
	json_object_put(tree);
	return p;
}

int model_params_json_diff(const struct model_param *a, size_t na,
			   const struct model_param *b, size_t nb,
			   const char *const *ignore, struct strbuf *out)
{
	struct json_object *ta = params_tree(a, na), *tb = params_tree(b, nb);
	int n = value_diff(ta, tb, "", ignore, out);

	json_object_put(ta);
	json_object_put(tb);
	return n;
}
