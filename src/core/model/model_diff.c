/*
 * Two documents compared member by member for people: one line per
 * difference, "stack.devices[vda].scheduler: 'mq-deadline' vs 'none'",
 * following the tables of model-int.h as the other walks do. A member
 * that is not there or null reads as null; an array entry is named by
 * its "name" member when it has one, else by its index. It knows the
 * kinds of member an environment has (strings, true/false, counts,
 * parts, arrays); the others, and the members decode kept as unknown,
 * are not compared.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "model-int.h"
#include "env_doc.h"
#include "../../util/banned.h"

#define CAT MODEL_CAT

/* The comparison under way. */
struct diff {
	const char *const *ignore; /* member names skipped, at any depth */
	struct strbuf *out;
	int n; /* differences so far */
};

static void diff_obj(struct diff *c, const struct model_desc *d, const void *a,
		     const void *b, const char *path);

/* Is key one of the members skipped? */
static bool ignored(const struct diff *c, const char *key)
{
	const char *const *i;

	for (i = c->ignore; i && *i; i++)
		if (!strcmp(key, *i))
			return true;
	return false;
}

/* A scalar of kind k at p (NULL: not there) as text, in buf when it is
 * a number; NULL for null or a kind not compared. */
static const char *text(unsigned k, const void *p, char *buf, size_t size)
{
	if (!p)
		return NULL;
	switch (k) {
	case MK_STR:
		return *(char *const *)p;
	case MK_BOOL:
		return *(const bool *)p ? "true" : "false";
	case MK_INT:
		snprintf(buf, size, "%" PRId64, *(const int64_t *)p);
		return buf;
	case MK_UINT:
		snprintf(buf, size, "%" PRIu64, *(const uint64_t *)p);
		return buf;
	default:
		return NULL;
	}
}

/* One line when the texts differ. */
static void line(struct diff *c, const char *path, const char *ta,
		 const char *tb)
{
	if (ta && tb ? !strcmp(ta, tb) : ta == tb)
		return;
	strbuf_addf(c->out, "%s: '%s' vs '%s'\n", path, ta ? ta : "null",
		    tb ? tb : "null");
	c->n++;
}

/* Entry i (at e) of an array of objects of sub: path[name] or
 * path[i]. */
static void entry_path(struct strbuf *sb, const char *path,
		       const struct model_desc *sub, const void *e, size_t i)
{
	const char *name = NULL;
	size_t r;

	for (r = 0; sub && r < sub->nr_rows; r++)
		if (sub->rows[r].kind == MK_STR &&
		    !strcmp(sub->rows[r].key, "name"))
			name = *(char *const *)CAT(e, sub->rows[r].off);
	if (name)
		strbuf_setf(sb, "%s[%s]", path, name);
	else
		strbuf_setf(sb, "%s[%zu]", path, i);
}

/* Row's array (a, b: the objects holding it, NULL: not there). */
static void diff_arr(struct diff *c, const struct model_row *row, const void *a,
		     const void *b, const char *path)
{
	const struct model_desc *sub = row->sub;
	size_t size = model_elem_size(row->elem, sub), i;
	size_t na = a ? *(const size_t *)CAT(a, row->nr) : 0;
	size_t nb = b ? *(const size_t *)CAT(b, row->nr) : 0;
	struct strbuf sp = STRBUF_INIT;
	char ba[64], bb[64];

	if (na != nb) {
		strbuf_addf(c->out, "%s: %zu entries vs %zu\n", path, na, nb);
		c->n++;
		return;
	}
	for (i = 0; i < na; i++) {
		const char *ea =
		    *(const char *const *)CAT(a, row->off) + i * size;
		const char *eb =
		    *(const char *const *)CAT(b, row->off) + i * size;

		entry_path(&sp, path, row->elem == MK_OBJ ? sub : NULL, ea, i);
		if (row->elem == MK_OBJ)
			diff_obj(c, sub, ea, eb, sp.buf);
		else
			line(c, sp.buf, text(row->elem, ea, ba, sizeof(ba)),
			     text(row->elem, eb, bb, sizeof(bb)));
	}
	strbuf_release(&sp);
}

/* Is row's member of o there with a value? */
static const void *there(const struct model_row *row, const void *o)
{
	if (!o ||
	    (row->has >= 0 && *(const uint8_t *)CAT(o, row->has) != MODEL_SET))
		return NULL;
	return o;
}

/* The members of objects a and b of d (either NULL: not there), at
 * path. */
static void diff_obj(struct diff *c, const struct model_desc *d, const void *a,
		     const void *b, const char *path)
{
	struct strbuf sp = STRBUF_INIT;
	char ba[64], bb[64];
	size_t r;

	for (r = 0; (a || b) && r < d->nr_rows; r++) {
		const struct model_row *row = &d->rows[r];
		const void *oa = there(row, a), *ob = there(row, b);

		if (ignored(c, row->key))
			continue;
		strbuf_setf(&sp, "%s%s%s", path, *path ? "." : "", row->key);
		if (row->kind == MK_ARR)
			diff_arr(c, row, oa, ob, sp.buf);
		else if (row->kind == MK_PTR)
			diff_obj(c, row->sub,
				 oa ? *(void *const *)CAT(oa, row->off) : NULL,
				 ob ? *(void *const *)CAT(ob, row->off) : NULL,
				 sp.buf);
		else
			line(c, sp.buf,
			     text(row->kind, oa ? CAT(oa, row->off) : NULL, ba,
				  sizeof(ba)),
			     text(row->kind, ob ? CAT(ob, row->off) : NULL, bb,
				  sizeof(bb)));
	}
	strbuf_release(&sp);
}

int env_doc_members_diff(const struct env_doc *a, const struct env_doc *b,
			 const char *const *ignore, struct strbuf *out)
{
	struct diff c = {ignore, out, 0};

	diff_obj(&c, &model_env_desc, a, b, "");
	return c.n;
}
