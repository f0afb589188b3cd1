/*
 * The codec's encoder: a document to JSON text. It builds a json-c
 * tree and prints it with json-c, as iotrial's writers always have, so
 * escaping and white space cannot drift from what they print. Members
 * go in the table's order (the writers'), or in the order decode kept;
 * what decode kept as unknown goes back where it was.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "model-int.h"
#include "model_json.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define CAT MODEL_CAT

static struct json_object *encode_obj(const struct model_desc *d,
				      const void *obj);

static struct json_object *str_json(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static struct json_object *value_json(const struct model_value *v,
				      const struct model_kept *kp, uint32_t ri,
				      uint32_t idx)
{
	switch (v->type) {
	case MODEL_V_STR:
		return json_object_new_string(v->s ? v->s : "");
	case MODEL_V_BOOL:
		return json_object_new_boolean(v->b);
	case MODEL_V_INT:
		return json_object_new_int64(v->i);
	case MODEL_V_UINT:
		return json_object_new_uint64(v->u);
	case MODEL_V_DOUBLE:
		return model_num_json(MK_DBL, 0, 0, &v->d, kp, ri, idx);
	default:
		return NULL;
	}
}

/* A text kept as JSON, as a tree again (NULL: null). */
static struct json_object *text_json(const char *text)
{
	return text ? json_tokener_parse(text) : NULL;
}

/* One element of row's array. */
static struct json_object *elem_json(const struct model_row *row, const void *p,
				     const struct model_kept *kp, uint32_t ri,
				     uint32_t idx)
{
	switch (row->elem) {
	case MK_STR:
		return str_json(*(char *const *)p);
	case MK_RAW:
		return text_json(*(char *const *)p);
	case MK_BOOL:
		return json_object_new_boolean(*(const bool *)p);
	case MK_INT:
	case MK_UINT:
	case MK_DBL:
	case MK_RND:
		return model_num_json(row->elem, row->dec, row->flags, p, kp,
				      ri, idx);
	case MK_VAL:
		return value_json(p, kp, ri, idx);
	default:
		return encode_obj(row->sub, p);
	}
}

static struct json_object *member_json(const struct model_desc *d, uint32_t ri,
				       const void *obj);

static struct json_object *map_json(const struct model_row *row,
				    const void *obj)
{
	const struct model_desc *sub = row->sub;
	const char *arr = *(const char *const *)CAT(obj, row->off);
	size_t n = *(const size_t *)CAT(obj, row->nr), i;
	struct json_object *o = json_object_new_object();

	for (i = 0; arr && i < n; i++) {
		const char *e = arr + i * sub->size;
		const char *key = *(const char *const *)CAT(e, sub->key);

		json_object_object_add(o, key ? key : "",
				       (sub->flags & MD_SCALAR)
					   ? member_json(sub, 0, e)
					   : encode_obj(sub, e));
	}
	return o;
}

static struct json_object *arr_json(const struct model_row *row,
				    const void *obj,
				    const struct model_kept *kp, uint32_t ri)
{
	const char *arr = *(const char *const *)CAT(obj, row->off);
	size_t n = *(const size_t *)CAT(obj, row->nr), i;
	size_t size = model_elem_size(row->elem, row->sub);
	struct json_object *a = json_object_new_array();

	for (i = 0; arr && i < n; i++)
		json_object_array_add(
		    a, elem_json(row, arr + i * size, kp, ri, (uint32_t)i));
	return a;
}

static struct json_object *member_json(const struct model_desc *d, uint32_t ri,
				       const void *obj)
{
	const struct model_row *row = &d->rows[ri];
	const void *p = CAT(obj, row->off);
	const struct model_kept *kp = model_kept_get(d, obj);

	if (row->has >= 0 && *(const uint8_t *)CAT(obj, row->has) == MODEL_NULL)
		return NULL;
	switch (row->kind) {
	case MK_STR:
		return str_json(*(char *const *)p);
	case MK_BOOL:
		return json_object_new_boolean(*(const bool *)p);
	case MK_INT:
	case MK_UINT:
	case MK_DBL:
	case MK_RND:
		return model_num_json(row->kind, row->dec, row->flags, p, kp,
				      ri, 0);
	case MK_VAL:
		return value_json(p, kp, ri, 0);
	case MK_RAW:
		return text_json(*(char *const *)p);
	case MK_OBJ:
		return encode_obj(row->sub, p);
	case MK_PTR:
		if (*(void *const *)p)
			return encode_obj(row->sub, *(void *const *)p);
		if (row->flags & MF_FIO)
			return text_json(*(char *const *)CAT(obj, row->alt));
		return NULL;
	case MK_ARR:
		return arr_json(row, obj, kp, ri);
	default:
		return map_json(row, obj);
	}
}

/* Does row's member of obj still read as a missing one does (NULL,
 * NaN, 0, false, an empty array never made)? */
static bool still_missing(const struct model_row *row, const void *obj)
{
	const void *p = CAT(obj, row->off);

	switch (row->kind) {
	case MK_BOOL:
		return !*(const bool *)p;
	case MK_INT:
	case MK_UINT:
		return !*(const uint64_t *)p;
	case MK_DBL:
	case MK_RND:
		return isnan(*(const double *)p);
	case MK_VAL:
		return ((const struct model_value *)p)->type == MODEL_V_NULL;
	case MK_ARR:
	case MK_MAP:
		return !*(void *const *)p &&
		       !*(const size_t *)CAT(obj, row->nr);
	case MK_OBJ:
		return true;
	default:
		return !*(void *const *)p;
	}
}

/*
 * Is row ri's member of obj written: there, and not missing from the
 * document decoded, unless it was given a value since (as a number's
 * kept text, the absence holds only while nothing changed).
 */
static bool present(const struct model_desc *d, uint32_t ri, const void *obj,
		    const struct model_kept *k)
{
	const struct model_row *row = &d->rows[ri];

	if (!model_written(row, obj))
		return false;
	return !model_kept_absent(k, ri) || !still_missing(row, obj);
}

/* Add group fi's members of obj to o, those not done yet (bit j of
 * *done: sub row j); all of them after a kept order ended. */
static void add_flat(struct json_object *o, const struct model_desc *d,
		     uint32_t fi, const void *obj, uint64_t *done)
{
	const struct model_desc *sub = d->rows[fi].sub;
	const void *p = *(void *const *)CAT(obj, d->rows[fi].off);
	const struct model_kept *k;
	uint32_t j;

	if (!p)
		return;
	k = model_kept_get(sub, p);
	for (j = 0; j < sub->nr_rows; j++)
		if (!(*done >> j & 1) && present(sub, j, p, k)) {
			json_object_object_add(o, sub->rows[j].key,
					       member_json(sub, j, p));
			*done |= 1ull << j;
		}
}

/* Member code of a kept order into o (model-int.h: a row, a group's
 * member, an unknown member). */
static void add_code(struct json_object *o, const struct model_desc *d,
		     const void *obj, const struct model_kept *k, uint32_t s,
		     bool *done, uint64_t *fdone)
{
	const struct kept_member *m;
	uint32_t fi, j;
	const void *p;

	if (s & MODEL_FLAT_BIT) {
		fi = (s & ~MODEL_FLAT_BIT) >> 16;
		j = s & 0xffff;
		p = fi < d->nr_rows ? *(void *const *)CAT(obj, d->rows[fi].off)
				    : NULL;
		if (p && j < d->rows[fi].sub->nr_rows &&
		    !(fdone[fi] >> j & 1) &&
		    present(d->rows[fi].sub, j, p,
			    model_kept_get(d->rows[fi].sub, p)))
			json_object_object_add(
			    o, d->rows[fi].sub->rows[j].key,
			    member_json(d->rows[fi].sub, j, p));
		if (fi < d->nr_rows)
			fdone[fi] |= 1ull << j;
	} else if (s < d->nr_rows) {
		if (!done[s] && present(d, s, obj, k))
			json_object_object_add(o, d->rows[s].key,
					       member_json(d, s, obj));
		done[s] = true;
	} else {
		m = &k->extra[s - d->nr_rows];
		json_object_object_add(o, m->key, text_json(m->json));
	}
}

static struct json_object *encode_obj(const struct model_desc *d,
				      const void *obj)
{
	struct json_object *o = json_object_new_object();
	const struct model_kept *k = model_kept_get(d, obj);
	bool *done = xcalloc(d->nr_rows + 1, sizeof(*done));
	uint64_t *fdone = xcalloc(d->nr_rows + 1, sizeof(*fdone));
	uint32_t i;

	for (i = 0; k && i < k->nr_order; i++)
		add_code(o, d, obj, k, k->order[i], done, fdone);
	for (i = 0; i < d->nr_rows; i++) {
		if (d->rows[i].kind == MK_FLAT)
			add_flat(o, d, i, obj, &fdone[i]);
		else if (!done[i] && present(d, i, obj, k))
			json_object_object_add(o, d->rows[i].key,
					       member_json(d, i, obj));
	}
	for (i = 0; k && !k->nr_order && i < k->nr_extra; i++)
		json_object_object_add(o, k->extra[i].key,
				       text_json(k->extra[i].json));
	free(done);
	free(fdone);
	return o;
}

struct json_object *model_encode_tree(const struct model_desc *d,
				      const void *obj)
{
	return encode_obj(d, obj);
}

/* Print the tree o with the encode flags into out, and put it. */
static void print_tree(struct json_object *o, unsigned flags,
		       struct strbuf *out)
{
	int jf = JSON_C_TO_STRING_NOSLASHESCAPE;

	if (flags & MODEL_ENCODE_ESCAPE_SLASH)
		jf = 0;
	if (flags & MODEL_ENCODE_PLAIN)
		jf |= JSON_C_TO_STRING_PLAIN;
	else if (flags & MODEL_ENCODE_TIGHT)
		jf |= JSON_C_TO_STRING_PRETTY;
	else
		jf |= JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED;
	strbuf_addstr(out, json_object_to_json_string_ext(o, jf));
	if (!(flags & MODEL_ENCODE_PLAIN))
		strbuf_addch(out, '\n');
	json_object_put(o);
}

void model_encode_obj(const struct model_desc *d, const void *obj,
		      unsigned flags, struct strbuf *out)
{
	print_tree(encode_obj(d, obj), flags, out);
}

void model_encode_raw(const char *json, unsigned flags, struct strbuf *out)
{
	print_tree(text_json(json), flags, out);
}
