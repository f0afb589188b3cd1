/*
 * `set --dry-run --json` and `apply --dry-run --json`: the plan that
 * report_knob_plan() prints for people, as one object (plan_json.h).
 */
#include <string.h>
#include "plan_json.h"
#include "../../version.h"
#include "../../util/banned.h"

/* s as a JSON string, or null for NULL. */
static struct json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* A strbuf's text, or null when it is empty. */
static struct json_object *text_or_null(const struct strbuf *sb)
{
	return sb->len ? json_object_new_string(sb->buf) : NULL;
}

/* One change of the plan. */
static struct json_object *change_json(const struct knob_change *c)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "knob", str_or_null(c->k.name));
	json_object_object_add(o, "input_name", str_or_null(c->input_name));
	json_object_object_add(
	    o, "scope", json_object_new_string(knob_scope_name(c->k.scope)));
	json_object_object_add(o, "object", str_or_null(c->k.object));
	json_object_object_add(o, "path", str_or_null(c->k.path));
	json_object_object_add(o, "input", str_or_null(c->input));
	json_object_object_add(o, "value",
			       json_object_new_string(c->canon.buf));
	json_object_object_add(o, "before", text_or_null(&c->before));
	json_object_object_add(
	    o, "unchanged", json_object_new_boolean(knob_change_unchanged(c)));
	json_object_object_add(o, "deferred",
			       json_object_new_boolean(c->k.deferred));
	json_object_object_add(o, "how", text_or_null(&c->how));
	json_object_object_add(o, "note", text_or_null(&c->note));
	return o;
}

struct json_object *report_plan_changes_json(const struct knob_plan *p)
{
	struct json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; i < p->nr; i++)
		json_object_array_add(arr, change_json(&p->v[i]));
	return arr;
}

struct json_object *report_plan_json(const struct knob_plan *p,
				     const char *kind, const char *journal)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "schema",
			       json_object_new_string(IOTRIAL_SCHEMA));
	json_object_object_add(o, "kind", json_object_new_string(kind));
	json_object_object_add(o, "dry_run", json_object_new_boolean(1));
	json_object_object_add(o, "device",
			       str_or_null(p->ctx ? p->ctx->disk : NULL));
	json_object_object_add(o, "mount",
			       str_or_null(p->ctx ? p->ctx->mountpoint : NULL));
	json_object_object_add(o, "journal", str_or_null(journal));
	json_object_object_add(o, "changes", report_plan_changes_json(p));
	return o;
}
