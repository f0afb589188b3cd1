/*
 * Two json-c trees compared member by member, any members, one line per
 * difference ("kernel_release: '6.1.0' vs '6.6.0'"): the bridge for
 * experiment/diff.c, which still compares the env and params of two
 * stored experiments as trees (observe/env.h: env_json_diff()). It goes
 * with model_tree.h. A missing member and null read alike; an array
 * entry is named by its "name" member when it has one, else by its
 * index.
 */
#include <string.h>
#include "model_tree.h"
#include "../../util/banned.h"

/* Is key one the caller skips? */
static int ignored(const char *key, const char *const *ignore)
{
	for (; ignore && *ignore; ignore++)
		if (!strcmp(key, *ignore))
			return 1;
	return 0;
}

/* A value as short text for a difference line. */
static const char *show(struct json_object *v)
{
	if (!v)
		return "null";
	if (json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
}

static int diff_value(struct json_object *a, struct json_object *b,
		      const char *path, const char *const *ignore,
		      struct strbuf *out);

/* An array element's label: its "name" member if it has one, else i. */
static void elem_path(struct strbuf *sb, const char *path,
		      struct json_object *a, size_t i)
{
	struct json_object *name;

	if (json_object_is_type(a, json_type_object) &&
	    json_object_object_get_ex(a, "name", &name) &&
	    json_object_is_type(name, json_type_string))
		strbuf_addf(sb, "%s[%s]", path, json_object_get_string(name));
	else
		strbuf_addf(sb, "%s[%zu]", path, i);
}

/* Compare two objects member by member, a's members first. */
static int diff_object(struct json_object *a, struct json_object *b,
		       const char *path, const char *const *ignore,
		       struct strbuf *out)
{
	struct strbuf sub = STRBUF_INIT;
	int n = 0;

	json_object_object_foreach(a, key, va)
	{
		struct json_object *vb = NULL;

		if (ignored(key, ignore))
			continue;
		json_object_object_get_ex(b, key, &vb);
		strbuf_setf(&sub, "%s%s%s", path, *path ? "." : "", key);
		n += diff_value(va, vb, sub.buf, ignore, out);
	}
	json_object_object_foreach(b, bkey, vb2)
	{
		if (ignored(bkey, ignore) ||
		    json_object_object_get_ex(a, bkey, NULL))
			continue;
		strbuf_setf(&sub, "%s%s%s", path, *path ? "." : "", bkey);
		n += diff_value(NULL, vb2, sub.buf, ignore, out);
	}
	strbuf_release(&sub);
	return n;
}

/* Compare two values; append a line per difference; return the count. */
static int diff_value(struct json_object *a, struct json_object *b,
		      const char *path, const char *const *ignore,
		      struct strbuf *out)
{
	struct strbuf sub = STRBUF_INIT;
	size_t i, na, nb;
	int n = 0;

	if (a && b && json_object_get_type(a) == json_object_get_type(b)) {
		if (json_object_is_type(a, json_type_object))
			return diff_object(a, b, path, ignore, out);
		if (json_object_is_type(a, json_type_array)) {
			na = json_object_array_length(a);
			nb = json_object_array_length(b);
			if (na != nb) {
				strbuf_addf(out, "%s: %zu entries vs %zu\n",
					    path, na, nb);
				return 1;
			}
			for (i = 0; i < na; i++) {
				struct json_object *ea, *eb;

				ea = json_object_array_get_idx(a, i);
				eb = json_object_array_get_idx(b, i);
				strbuf_reset(&sub);
				elem_path(&sub, path, ea, i);
				n += diff_value(ea, eb, sub.buf, ignore, out);
			}
			strbuf_release(&sub);
			return n;
		}
	}
	if (!a && !b)
		return 0;
	if (a && b && json_object_equal(a, b))
		return 0;
	strbuf_addf(out, "%s: '%s'", path, show(a));
	strbuf_addf(out, " vs '%s'\n", show(b));
	return 1;
}

int model_tree_diff(struct json_object *a, struct json_object *b,
		    const char *const *ignore, struct strbuf *out)
{
	return diff_value(a, b, "", ignore, out);
}
