/*
 * Numbers as iotrial's writers print them, and what decode keeps of an
 * object (struct model_kept): shared by decode (model_json.c) and
 * encode (model_json_enc.c).
 *
 * A number is printed by its member's kind: a count as an integer, a
 * measurement as json-c prints a double (17 significant digits, so a
 * reader can recompute one figure from others exactly), the truth's
 * numbers rounded to a few places with the trailing zeros cut (12.5,
 * not 12.500000000000002).
 * A document's number that would print otherwise keeps its text.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "model-int.h"
#include "../../util/text.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

struct model_kept *model_kept_of(const struct model_desc *d, void *obj)
{
	struct model_kept **k;

	if (d->keep < 0)
		return NULL;
	k = MODEL_AT(obj, d->keep);
	if (!*k)
		*k = xcalloc(1, sizeof(**k));
	return *k;
}

const struct model_kept *model_kept_get(const struct model_desc *d,
					const void *obj)
{
	return d->keep < 0
		   ? NULL
		   : *(struct model_kept *const *)MODEL_CAT(obj, d->keep);
}

bool model_kept_absent(const struct model_kept *k, uint32_t ri)
{
	size_t i;

	for (i = 0; k && i < k->nr_absent; i++)
		if (k->absent[i] == ri)
			return true;
	return false;
}

bool model_written(const struct model_row *row, const void *obj)
{
	const void *p = MODEL_CAT(obj, row->off);

	if (row->has >= 0)
		return *(const uint8_t *)MODEL_CAT(obj, row->has) !=
		       MODEL_ABSENT;
	if (!(row->flags & MF_OPT))
		return true;
	if (*(void *const *)p)
		return true;
	return (row->flags & MF_FIO) &&
	       *(void *const *)MODEL_CAT(obj, row->alt);
}

bool model_round_text(double v, int dec, char *buf, size_t size)
{
	size_t n;

	if (!isfinite(v))
		return false;
	snprintf(buf, size, "%.*f", dec, v);
	if (strchr(buf, '.')) { /* "12.500" is "12.5", "3.000" is "3" */
		n = strlen(buf);
		while (n && buf[n - 1] == '0')
			buf[--n] = '\0';
		if (n && buf[n - 1] == '.')
			buf[--n] = '\0';
	}
	if (!strcmp(buf, "-0"))
		snprintf(buf, size, "0");
	return true;
}

double model_num_at(unsigned k, const void *p)
{
	switch (k) {
	case MK_INT:
		return (double)*(const int64_t *)p;
	case MK_UINT:
		return (double)*(const uint64_t *)p;
	default:
		return *(const double *)p;
	}
}

bool model_same_num(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return !memcmp(&a, &b, sizeof(a));
}

struct json_object *model_num_canon(unsigned k, int dec, unsigned flags,
				    const void *p)
{
	char buf[512];
	double v;

	switch (k) {
	case MK_INT:
		return json_object_new_int64(*(const int64_t *)p);
	case MK_UINT:
		if ((flags & MF_NONZERO) && *(const uint64_t *)p == UINT64_MAX)
			return NULL;
		return json_object_new_uint64(*(const uint64_t *)p);
	case MK_RND:
		v = *(const double *)p;
		if (!model_round_text(v, dec, buf, sizeof(buf)))
			return NULL;
		return json_object_new_double_s(strtod(buf, NULL), buf);
	default:
		v = *(const double *)p;
		if (!isfinite(v) && (flags & MF_NULL))
			return NULL;
		return json_object_new_double(v);
	}
}

/* The kept text of row ri, element idx, or NULL. */
static const struct kept_num *kept_num(const struct model_kept *k, uint32_t ri,
				       uint32_t idx)
{
	size_t i;

	for (i = 0; k && i < k->nr_nums; i++)
		if (k->nums[i].row == ri && k->nums[i].idx == idx)
			return &k->nums[i];
	return NULL;
}

struct json_object *model_num_json(unsigned k, int dec, unsigned flags,
				   const void *p, const struct model_kept *kp,
				   uint32_t ri, uint32_t idx)
{
	const struct kept_num *n = kept_num(kp, ri, idx);
	double v = model_num_at(k, p);

	if (n && model_same_num(n->v, v))
		return json_object_new_double_s(v, n->text);
	return model_num_canon(k, dec, flags, p);
}

const char *model_printable(const char *s, char *buf, size_t size)
{
	snprintf(buf, size, "%s", s ? s : "");
	text_make_printable(buf);
	return buf;
}
