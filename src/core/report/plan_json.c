/*
 * `set --dry-run --json` and `apply --dry-run --json`: the plan that
 * report_knob_plan() prints for people, as one document (plan_json.h).
 */
#include <string.h>
#include "plan_json.h"
#include "../../version.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* A copy of s, or NULL. */
static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* A strbuf's text, or NULL when it is empty. */
static char *text_or_null(const struct strbuf *sb)
{
	return sb->len ? xstrdup(sb->buf) : NULL;
}

/* One change of the plan into o. */
static void change_doc(const struct knob_change *c, struct plan_change_doc *o)
{
	o->knob = dup_or_null(c->k.name);
	o->input_name = dup_or_null(c->input_name);
	o->scope = xstrdup(knob_scope_name(c->k.scope));
	o->object = dup_or_null(c->k.object);
	o->path = dup_or_null(c->k.path);
	o->input = dup_or_null(c->input);
	o->value = xstrdup(c->canon.buf);
	o->before = text_or_null(&c->before);
	o->unchanged = knob_change_unchanged(c);
	o->deferred = c->k.deferred;
	o->how = text_or_null(&c->how);
	o->note = text_or_null(&c->note);
}

struct plan_change_doc *report_plan_changes_doc(const struct knob_plan *p,
						size_t *out_nr)
{
	struct plan_change_doc *v = xcalloc(p->nr + 1, sizeof(*v));
	size_t i;

	for (i = 0; i < p->nr; i++)
		change_doc(&p->v[i], &v[i]);
	*out_nr = p->nr;
	return v;
}

void report_plan_doc(const struct knob_plan *p, const char *kind,
		     const char *journal, struct plan_doc *out)
{
	plan_doc_init(out);
	out->schema = xstrdup(IOTRIAL_SCHEMA);
	out->kind = xstrdup(kind);
	out->dry_run = true;
	out->device = dup_or_null(p->ctx ? p->ctx->disk : NULL);
	out->mount = dup_or_null(p->ctx ? p->ctx->mountpoint : NULL);
	out->journal = dup_or_null(journal);
	out->changes = report_plan_changes_doc(p, &out->nr_changes);
}
