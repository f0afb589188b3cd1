/*
 * The walks over a document that need no JSON: free it, compare two,
 * copy one, count what decode kept as unknown. Each follows the tables
 * of model-int.h as model_json.c does, so they know every member the
 * codec knows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model-int.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define AT  MODEL_AT
#define CAT MODEL_CAT

void model_kept_free(struct model_kept **keep)
{
	struct model_kept *k = keep ? *keep : NULL;
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->nr_extra; i++) {
		free(k->extra[i].key);
		free(k->extra[i].json);
	}
	for (i = 0; i < k->nr_nums; i++)
		free(k->nums[i].text);
	free(k->extra);
	free(k->nums);
	free(k->order);
	free(k->absent);
	free(k);
	*keep = NULL;
}

void model_value_release(struct model_value *v)
{
	if (!v)
		return;
	free(v->s);
	memset(v, 0, sizeof(*v));
}

void model_value_set_str(struct model_value *v, const char *s)
{
	model_value_release(v);
	if (s) {
		v->type = MODEL_V_STR;
		v->s = xstrdup(s);
	}
}

size_t model_elem_size(unsigned k, const struct model_desc *sub)
{
	switch (k) {
	case MK_STR:
	case MK_RAW:
		return sizeof(char *);
	case MK_BOOL:
		return sizeof(bool);
	case MK_INT:
		return sizeof(int64_t);
	case MK_UINT:
		return sizeof(uint64_t);
	case MK_DBL:
	case MK_RND:
		return sizeof(double);
	case MK_VAL:
		return sizeof(struct model_value);
	default:
		return sub->size;
	}
}

/* ---- release ---- */

static void release_elem(unsigned k, const struct model_desc *sub, void *p)
{
	if (k == MK_STR || k == MK_RAW)
		free(*(char **)p);
	else if (k == MK_VAL)
		model_value_release(p);
	else if (k == MK_OBJ || k == MK_PTR)
		model_release_obj(sub, p);
}

static void release_member(const struct model_desc *d,
			   const struct model_row *row, void *obj)
{
	void *p = AT(obj, row->off);
	const struct model_desc *sub = row->sub;
	size_t i, n, size;
	char *arr;

	(void)d;
	switch (row->kind) {
	case MK_STR:
	case MK_RAW:
		free(*(char **)p);
		break;
	case MK_VAL:
		model_value_release(p);
		break;
	case MK_OBJ:
		model_release_obj(sub, p);
		break;
	case MK_PTR:
	case MK_FLAT:
		if (*(void **)p) {
			model_release_obj(sub, *(void **)p);
			free(*(void **)p);
		}
		if (row->flags & MF_FIO)
			free(*(char **)AT(obj, row->alt));
		break;
	case MK_ARR:
	case MK_MAP:
		arr = *(char **)p;
		n = *(size_t *)AT(obj, row->nr);
		size = row->kind == MK_MAP ? sub->size
					   : model_elem_size(row->elem, sub);
		for (i = 0; arr && i < n; i++) {
			char *e = arr + i * size;

			if (row->kind == MK_ARR) {
				release_elem(row->elem, sub, e);
				continue;
			}
			model_release_obj(sub, e);
		}
		free(arr);
		break;
	default:
		break;
	}
}

void model_release_obj(const struct model_desc *d, void *obj)
{
	size_t i;

	if (!obj)
		return;
	for (i = 0; i < d->nr_rows; i++)
		release_member(d, &d->rows[i], obj);
	if (d->keep >= 0)
		model_kept_free(AT(obj, d->keep));
	if (d->key >= 0)
		free(*(char **)AT(obj, d->key));
	memset(obj, 0, d->size);
}

/* ---- equal ---- */

static bool same_str(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

static bool same_value(const struct model_value *a, const struct model_value *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case MODEL_V_STR:
		return same_str(a->s, b->s);
	case MODEL_V_BOOL:
		return a->b == b->b;
	case MODEL_V_INT:
		return a->i == b->i;
	case MODEL_V_UINT:
		return a->u == b->u;
	case MODEL_V_DOUBLE:
		return model_same_num(a->d, b->d);
	default:
		return true;
	}
}

static bool same_kept(const struct model_kept *a, const struct model_kept *b)
{
	size_t i;

	if (!a || !b)
		return !a && !b;
	if (a->nr_order != b->nr_order || a->nr_extra != b->nr_extra ||
	    a->nr_nums != b->nr_nums || a->nr_absent != b->nr_absent)
		return false;
	if (a->nr_absent &&
	    memcmp(a->absent, b->absent, a->nr_absent * sizeof(*a->absent)))
		return false;
	if (a->nr_order &&
	    memcmp(a->order, b->order, a->nr_order * sizeof(*a->order)))
		return false;
	for (i = 0; i < a->nr_extra; i++)
		if (strcmp(a->extra[i].key, b->extra[i].key) ||
		    strcmp(a->extra[i].json, b->extra[i].json))
			return false;
	for (i = 0; i < a->nr_nums; i++)
		if (a->nums[i].row != b->nums[i].row ||
		    a->nums[i].idx != b->nums[i].idx ||
		    !model_same_num(a->nums[i].v, b->nums[i].v) ||
		    strcmp(a->nums[i].text, b->nums[i].text))
			return false;
	return true;
}

static bool same_elem(unsigned k, const struct model_desc *sub, const void *a,
		      const void *b)
{
	switch (k) {
	case MK_STR:
	case MK_RAW:
		return same_str(*(char *const *)a, *(char *const *)b);
	case MK_BOOL:
		return *(const bool *)a == *(const bool *)b;
	case MK_INT:
		return *(const int64_t *)a == *(const int64_t *)b;
	case MK_UINT:
		return *(const uint64_t *)a == *(const uint64_t *)b;
	case MK_DBL:
	case MK_RND:
		return model_same_num(*(const double *)a, *(const double *)b);
	case MK_VAL:
		return same_value(a, b);
	default:
		return model_equal_obj(sub, a, b);
	}
}

static bool same_member(const struct model_row *row, const void *a,
			const void *b)
{
	const void *pa = CAT(a, row->off), *pb = CAT(b, row->off);
	const struct model_desc *sub = row->sub;
	size_t i, n, size;

	if (row->has >= 0) {
		uint8_t ha = *(const uint8_t *)CAT(a, row->has);
		uint8_t hb = *(const uint8_t *)CAT(b, row->has);

		if (ha != hb)
			return false;
		if (ha != MODEL_SET)
			return true;
	}
	switch (row->kind) {
	case MK_OBJ:
		return model_equal_obj(sub, pa, pb);
	case MK_PTR:
	case MK_FLAT:
		if (!*(void *const *)pa || !*(void *const *)pb) {
			if (*(void *const *)pa != *(void *const *)pb)
				return false;
		} else if (!model_equal_obj(sub, *(void *const *)pa,
					    *(void *const *)pb)) {
			return false;
		}
		return !(row->flags & MF_FIO) ||
		       same_str(*(char *const *)CAT(a, row->alt),
				*(char *const *)CAT(b, row->alt));
	case MK_ARR:
	case MK_MAP:
		n = *(const size_t *)CAT(a, row->nr);
		if (n != *(const size_t *)CAT(b, row->nr))
			return false;
		size = row->kind == MK_MAP ? sub->size
					   : model_elem_size(row->elem, sub);
		for (i = 0; i < n; i++) {
			const char *ea = *(const char *const *)pa + i * size;
			const char *eb = *(const char *const *)pb + i * size;

			if (row->kind == MK_ARR
				? !same_elem(row->elem, sub, ea, eb)
				: !model_equal_obj(sub, ea, eb))
				return false;
		}
		return true;
	default:
		return same_elem(row->kind, sub, pa, pb);
	}
}

bool model_equal_obj(const struct model_desc *d, const void *a, const void *b)
{
	size_t i;

	for (i = 0; i < d->nr_rows; i++)
		if (!same_member(&d->rows[i], a, b))
			return false;
	if (d->key >= 0 && !same_str(*(char *const *)CAT(a, d->key),
				     *(char *const *)CAT(b, d->key)))
		return false;
	return d->keep < 0 ||
	       same_kept(*(struct model_kept *const *)CAT(a, d->keep),
			 *(struct model_kept *const *)CAT(b, d->keep));
}

/* ---- copy ---- */

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static struct model_kept *copy_kept(const struct model_kept *k)
{
	struct model_kept *c;
	size_t i;

	if (!k)
		return NULL;
	c = xcalloc(1, sizeof(*c));
	if (k->nr_order) {
		c->order = xcalloc(k->nr_order, sizeof(*c->order));
		memcpy(c->order, k->order, k->nr_order * sizeof(*c->order));
		c->nr_order = k->nr_order;
	}
	c->extra = xcalloc(k->nr_extra + 1, sizeof(*c->extra));
	for (i = 0; i < k->nr_extra; i++) {
		c->extra[i].key = xstrdup(k->extra[i].key);
		c->extra[i].json = xstrdup(k->extra[i].json);
	}
	c->nr_extra = c->alloc_extra = k->nr_extra;
	c->nums = xcalloc(k->nr_nums + 1, sizeof(*c->nums));
	for (i = 0; i < k->nr_nums; i++) {
		c->nums[i] = k->nums[i];
		c->nums[i].text = xstrdup(k->nums[i].text);
	}
	c->nr_nums = c->alloc_nums = k->nr_nums;
	if (k->nr_absent) {
		c->absent = xcalloc(k->nr_absent, sizeof(*c->absent));
		memcpy(c->absent, k->absent, k->nr_absent * sizeof(*c->absent));
		c->nr_absent = k->nr_absent;
	}
	return c;
}

static void copy_elem(unsigned k, const struct model_desc *sub, void *dst,
		      const void *src)
{
	const struct model_value *v = src;
	struct model_value *w = dst;

	switch (k) {
	case MK_STR:
	case MK_RAW:
		*(char **)dst = dup_or_null(*(char *const *)src);
		break;
	case MK_VAL:
		*w = *v;
		w->s = dup_or_null(v->s);
		break;
	case MK_OBJ:
	case MK_PTR:
	case MK_FLAT:
		model_copy_obj(sub, dst, src);
		break;
	default:
		memcpy(dst, src, model_elem_size(k, sub));
		break;
	}
}

static void copy_member(const struct model_row *row, void *dst, const void *src)
{
	const struct model_desc *sub = row->sub;
	void *pd = AT(dst, row->off);
	const void *ps = CAT(src, row->off);
	size_t i, n, size;
	char *arr;

	if (row->has >= 0)
		*(uint8_t *)AT(dst, row->has) =
		    *(const uint8_t *)CAT(src, row->has);
	switch (row->kind) {
	case MK_PTR:
	case MK_FLAT:
		if (*(void *const *)ps) {
			*(void **)pd = xcalloc(1, sub->size);
			model_copy_obj(sub, *(void **)pd, *(void *const *)ps);
		}
		if (row->flags & MF_FIO)
			*(char **)AT(dst, row->alt) =
			    dup_or_null(*(char *const *)CAT(src, row->alt));
		break;
	case MK_ARR:
	case MK_MAP:
		n = *(const size_t *)CAT(src, row->nr);
		size = row->kind == MK_MAP ? sub->size
					   : model_elem_size(row->elem, sub);
		*(size_t *)AT(dst, row->nr) = n;
		if (!*(void *const *)ps)
			break;
		arr = xcalloc(n ? n : 1, size);
		*(void **)pd = arr;
		for (i = 0; i < n; i++)
			copy_elem(row->kind == MK_MAP ? MK_OBJ : row->elem, sub,
				  arr + i * size,
				  *(const char *const *)ps + i * size);
		break;
	default:
		copy_elem(row->kind, sub, pd, ps);
		break;
	}
}

void model_copy_obj(const struct model_desc *d, void *dst, const void *src)
{
	size_t i;

	memset(dst, 0, d->size);
	for (i = 0; i < d->nr_rows; i++)
		copy_member(&d->rows[i], dst, src);
	if (d->key >= 0)
		*(char **)AT(dst, d->key) =
		    dup_or_null(*(char *const *)CAT(src, d->key));
	if (d->keep >= 0)
		*(struct model_kept **)AT(dst, d->keep) =
		    copy_kept(*(struct model_kept *const *)CAT(src, d->keep));
}

/* ---- what decode kept ---- */

void model_kept_count(const struct model_desc *d, const void *obj,
		      struct model_counts *c)
{
	const struct model_kept *k = model_kept_get(d, obj);
	size_t i, j, nr;

	if (k) {
		c->unknown += k->nr_extra;
		c->orders += k->nr_order > 0;
		c->numbers += k->nr_nums;
		c->absent += k->nr_absent;
	}
	for (i = 0; i < d->nr_rows; i++) {
		const struct model_row *row = &d->rows[i];
		const void *p = CAT(obj, row->off);
		const char *arr;

		if (row->kind == MK_OBJ) {
			model_kept_count(row->sub, p, c);
		} else if ((row->kind == MK_PTR || row->kind == MK_FLAT) &&
			   *(void *const *)p) {
			model_kept_count(row->sub, *(void *const *)p, c);
		} else if ((row->kind == MK_ARR && row->elem == MK_OBJ) ||
			   row->kind == MK_MAP) {
			arr = *(const char *const *)p;
			nr = *(const size_t *)CAT(obj, row->nr);
			for (j = 0; arr && j < nr; j++)
				model_kept_count(row->sub,
						 arr + j * row->sub->size, c);
		}
	}
}

size_t model_unknown_count(const struct model_desc *d, const void *obj)
{
	struct model_counts c = {0};

	model_kept_count(d, obj, &c);
	return c.unknown;
}

const struct model_desc *model_sub_desc(const struct model_desc *d,
					const char *key)
{
	size_t i;

	for (i = 0; i < d->nr_rows; i++)
		if (!strcmp(d->rows[i].key, key))
			return d->rows[i].sub;
	return NULL;
}
