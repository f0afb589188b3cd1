/*
 * The codec's decoder: one walk over the tables of model-int.h reads
 * every document, so that adding a member is one row, not a function.
 * This file, model_json_enc.c and model_json_num.c are the only code
 * of iotrial that calls json-c for a run or an experiment.
 *
 * json-c parses the text; decode then reads the tree member by member:
 * a known member into its field, checked for its type, an unknown one
 * into the struct's keep as JSON text. The keep also holds the member
 * order when it is not the table's (documents gained members in
 * different orders on different paths: an import, a fleet merge, an
 * observe), the members missing that the table would write, and the
 * text of a number whose value would print otherwise (a number written
 * by hand or by fio, a byte count written as 1234.0). Every error names
 * the member's path: "runs[3].run.latency_ns.read.p99: expected an
 * integer".
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "model-int.h"
#include "../../util/error.h"
#include "../../util/text.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define AT MODEL_AT

/* The decoder's state: the path of the member at hand, for messages. */
struct dec {
	unsigned flags;
	struct strbuf path;
	struct strbuf *err;
};

static int fail(struct dec *c, const char *what)
{
	if (!c->path.len)
		return err_set(c->err, -EINVAL, "%s", what);
	return err_set(c->err, -EINVAL, "%s: %s", c->path.buf, what);
}

/* Add .key to the path, printable: a key comes from the document, and
 * the path goes into messages (a control byte becomes '?'). */
static void path_key(struct dec *c, const char *key)
{
	size_t at;

	if (c->path.len)
		strbuf_addch(&c->path, '.');
	at = c->path.len;
	strbuf_addstr(&c->path, key);
	text_make_printable(c->path.buf + at);
	strbuf_setlen(&c->path, strlen(c->path.buf));
}

/* What a member of kind k must be, as an error. */
static const char *expected(unsigned k)
{
	switch (k) {
	case MK_STR:
		return "expected a string";
	case MK_BOOL:
		return "expected true or false";
	case MK_INT:
	case MK_UINT:
		return "expected an integer";
	case MK_DBL:
	case MK_RND:
		return "expected a number";
	case MK_VAL:
		return "expected a string, a number or true/false";
	case MK_ARR:
		return "expected an array";
	default:
		return "expected an object";
	}
}

static int decode_obj(struct dec *c, const struct model_desc *d,
		      struct json_object *jo, void *obj);

static int decode_str(struct dec *c, struct json_object *v, char **out)
{
	const char *s;

	if (!json_object_is_type(v, json_type_string))
		return fail(c, expected(MK_STR));
	s = json_object_get_string(v);
	if (strlen(s) != (size_t)json_object_get_string_len(v))
		return fail(c, "the string holds a NUL byte");
	*out = xstrdup(s);
	return 0;
}

/* Keep the text src of a number (row ri, element idx) read as v. */
static int keep_num(struct dec *c, struct model_kept **kp, uint32_t ri,
		    uint32_t idx, double v, const char *src)
{
	struct model_kept *k;

	if (!kp)
		return fail(c, "the number cannot be kept as written");
	if (!*kp)
		*kp = xcalloc(1, sizeof(**kp));
	k = *kp;
	ALLOC_GROW(k->nums, k->nr_nums + 1, k->alloc_nums);
	k->nums[k->nr_nums].row = ri;
	k->nums[k->nr_nums].idx = idx;
	k->nums[k->nr_nums].v = v;
	k->nums[k->nr_nums].text = xstrdup(src);
	k->nr_nums++;
	return 0;
}

/* An integer of kind k (MK_INT, MK_UINT) from v into p. */
static int decode_int(struct dec *c, unsigned k, struct json_object *v, void *p)
{
	double dv = json_object_get_double(v);
	int64_t i = json_object_get_int64(v);
	bool big = json_object_is_type(v, json_type_int) && i == INT64_MAX &&
		   json_object_get_uint64(v) > (uint64_t)INT64_MAX;

	if (json_object_is_type(v, json_type_double)) {
		/* a whole number printed with a fraction: 1234.0 */
		if (dv != floor(dv) || !(fabs(dv) < 9007199254740992.0))
			return fail(c, expected(k));
		i = (int64_t)dv;
	}
	if (k == MK_INT && big)
		return fail(c, "the integer is too large");
	if (k == MK_UINT && i < 0)
		return fail(c, "expected a count, not a negative number");
	if (k == MK_INT)
		*(int64_t *)p = i;
	else
		*(uint64_t *)p = big ? json_object_get_uint64(v) : (uint64_t)i;
	return 0;
}

/*
 * A number of kind k into p; its text goes to kp (row ri, element idx)
 * when iotrial would print the value otherwise.
 */
static int decode_num(struct dec *c, unsigned k, int dec, unsigned flags,
		      struct json_object *v, void *p, struct model_kept **kp,
		      uint32_t ri, uint32_t idx)
{
	enum json_type t = json_object_get_type(v);
	struct json_object *canon;
	const char *src;
	int ret = 0;

	if (t != json_type_int && t != json_type_double)
		return fail(c, expected(k));
	if (k == MK_INT || k == MK_UINT) {
		ret = decode_int(c, k, v, p);
		if (ret)
			return ret;
	} else {
		*(double *)p = json_object_get_double(v);
	}
	src = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
	canon = model_num_canon(k, dec, flags, p);
	if (!canon || strcmp(src, json_object_to_json_string_ext(
				      canon, JSON_C_TO_STRING_PLAIN)))
		ret = keep_num(c, kp, ri, idx, model_num_at(k, p), src);
	json_object_put(canon);
	return ret;
}

static int decode_value(struct dec *c, struct json_object *v,
			struct model_value *out, struct model_kept **kp,
			uint32_t ri, uint32_t idx)
{
	int64_t i;

	memset(out, 0, sizeof(*out));
	switch (json_object_get_type(v)) {
	case json_type_null:
		return 0;
	case json_type_string:
		out->type = MODEL_V_STR;
		return decode_str(c, v, &out->s);
	case json_type_boolean:
		out->type = MODEL_V_BOOL;
		out->b = json_object_get_boolean(v);
		return 0;
	case json_type_int:
		i = json_object_get_int64(v);
		if (i == INT64_MAX &&
		    json_object_get_uint64(v) > (uint64_t)INT64_MAX) {
			out->type = MODEL_V_UINT;
			out->u = json_object_get_uint64(v);
		} else {
			out->type = MODEL_V_INT;
			out->i = i;
		}
		return 0;
	case json_type_double:
		out->type = MODEL_V_DOUBLE;
		return decode_num(c, MK_DBL, 0, 0, v, &out->d, kp, ri, idx);
	default:
		return fail(c, expected(MK_VAL));
	}
}

/* The JSON text of v, as the keep holds it. */
static char *json_text(struct json_object *v)
{
	return xstrdup(json_object_to_json_string_ext(
	    v, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
}

/* Is o a fio report (a run imported from fio), not iotrial's? What
 * import takes for one (model_import.c): no schema, and fio's version
 * or its jobs. */
static bool is_fio(struct json_object *o)
{
	struct json_object *jobs;

	return json_object_is_type(o, json_type_object) &&
	       !json_object_object_get_ex(o, "schema", NULL) &&
	       (json_object_object_get_ex(o, "fio version", NULL) ||
		(json_object_object_get_ex(o, "jobs", &jobs) &&
		 json_object_is_type(jobs, json_type_array)));
}

/* One element of row's array at p; null only with MF_NULL. */
static int decode_elem(struct dec *c, const struct model_row *row,
		       struct json_object *v, void *p, struct model_kept **kp,
		       uint32_t ri, uint32_t idx)
{
	unsigned k = row->elem;

	if (!v) {
		if (!(row->flags & MF_NULL))
			return fail(c, expected(k));
		if (k == MK_DBL || k == MK_RND)
			*(double *)p = NAN;
		else if (k == MK_UINT && (row->flags & MF_NONZERO))
			*(uint64_t *)p = UINT64_MAX;
		else if (k != MK_STR && k != MK_VAL && k != MK_RAW)
			return fail(c, expected(k));
		return 0;
	}
	switch (k) {
	case MK_STR:
		return decode_str(c, v, p);
	case MK_RAW:
		*(char **)p = json_text(v);
		return 0;
	case MK_BOOL:
		if (!json_object_is_type(v, json_type_boolean))
			return fail(c, expected(k));
		*(bool *)p = json_object_get_boolean(v);
		return 0;
	case MK_INT:
	case MK_UINT:
	case MK_DBL:
	case MK_RND:
		return decode_num(c, k, row->dec, row->flags, v, p, kp, ri,
				  idx);
	case MK_VAL:
		return decode_value(c, v, p, kp, ri, idx);
	default:
		return decode_obj(c, row->sub, v, p);
	}
}

static int decode_arr(struct dec *c, const struct model_row *row,
		      struct json_object *v, void *obj, struct model_kept **kp,
		      uint32_t ri)
{
	size_t n, i, size = model_elem_size(row->elem, row->sub), at;
	char *arr;
	int ret = 0;

	if (!json_object_is_type(v, json_type_array))
		return fail(c, expected(MK_ARR));
	n = json_object_array_length(v);
	arr = xcalloc(n ? n : 1, size);
	*(void **)AT(obj, row->off) = arr;
	*(size_t *)AT(obj, row->nr) = n;
	at = c->path.len;
	for (i = 0; i < n && !ret; i++) {
		strbuf_addf(&c->path, "[%zu]", i);
		ret = decode_elem(c, row, json_object_array_get_idx(v, i),
				  arr + i * size, kp, ri, (uint32_t)i);
		strbuf_setlen(&c->path, at);
	}
	return ret;
}

static int decode_member(struct dec *c, const struct model_desc *d, uint32_t ri,
			 struct json_object *v, void *obj);

static int decode_map(struct dec *c, const struct model_row *row,
		      struct json_object *v, void *obj)
{
	const struct model_desc *sub = row->sub;
	size_t n, i = 0, at = c->path.len;
	char *arr;
	int ret = 0;

	if (!json_object_is_type(v, json_type_object))
		return fail(c, expected(MK_MAP));
	n = (size_t)json_object_object_length(v);
	arr = xcalloc(n ? n : 1, sub->size);
	*(void **)AT(obj, row->off) = arr;
	*(size_t *)AT(obj, row->nr) = n;
	json_object_object_foreach(v, key, val)
	{
		char *e = arr + i * sub->size;

		if (ret || i >= n)
			break;
		*(char **)AT(e, sub->key) = xstrdup(key);
		path_key(c, key);
		if (sub->flags & MD_SCALAR)
			ret = decode_member(c, sub, 0, val, e);
		else
			ret = decode_obj(c, sub, val, e);
		strbuf_setlen(&c->path, at);
		i++;
	}
	return ret;
}

/* A null member: NULL, NaN or MODEL_NULL, where the row allows it. */
static int decode_null(struct dec *c, const struct model_row *row, void *obj)
{
	void *p = AT(obj, row->off);

	if (!(row->flags & MF_NULL))
		return fail(c, expected(row->kind));
	if (row->has >= 0)
		*(uint8_t *)AT(obj, row->has) = MODEL_NULL;
	if (row->kind == MK_DBL || row->kind == MK_RND)
		*(double *)p = NAN;
	else if (row->has < 0 && row->kind != MK_STR && row->kind != MK_PTR &&
		 row->kind != MK_VAL && row->kind != MK_RAW)
		return fail(c, expected(row->kind));
	return 0;
}

static int decode_member(struct dec *c, const struct model_desc *d, uint32_t ri,
			 struct json_object *v, void *obj)
{
	const struct model_row *row = &d->rows[ri];
	void *p = AT(obj, row->off);
	struct model_kept **kp = d->keep >= 0 ? AT(obj, d->keep) : NULL;
	void *q;

	if (!v)
		return decode_null(c, row, obj);
	if (row->has >= 0)
		*(uint8_t *)AT(obj, row->has) = MODEL_SET;
	switch (row->kind) {
	case MK_STR:
		return decode_str(c, v, p);
	case MK_BOOL:
		if (!json_object_is_type(v, json_type_boolean))
			return fail(c, expected(MK_BOOL));
		*(bool *)p = json_object_get_boolean(v);
		return 0;
	case MK_INT:
	case MK_UINT:
	case MK_DBL:
	case MK_RND:
		return decode_num(c, row->kind, row->dec, row->flags, v, p, kp,
				  ri, 0);
	case MK_VAL:
		return decode_value(c, v, p, kp, ri, 0);
	case MK_RAW:
		*(char **)p = json_text(v);
		return 0;
	case MK_OBJ:
		return decode_obj(c, row->sub, v, p);
	case MK_PTR:
		if ((row->flags & MF_FIO) && is_fio(v)) {
			*(char **)AT(obj, row->alt) = json_text(v);
			return 0;
		}
		q = xcalloc(1, row->sub->size);
		*(void **)p = q;
		return decode_obj(c, row->sub, v, q);
	case MK_ARR:
		return decode_arr(c, row, v, obj, kp, ri);
	default:
		return decode_map(c, row, v, obj);
	}
}

/*
 * Rows the document lacks: an error for MF_REQ; a measurement reads as
 * NaN; what the table would write anyway is remembered as missing.
 */
static int decode_missing(struct dec *c, const struct model_desc *d, void *obj,
			  const bool *seen)
{
	size_t at = c->path.len;
	uint32_t ri;
	int ret = 0;

	for (ri = 0; ri < d->nr_rows && !ret; ri++) {
		const struct model_row *row = &d->rows[ri];
		struct model_kept *k;

		if (seen[ri] || row->kind == MK_FLAT)
			continue;
		if (row->kind == MK_DBL || row->kind == MK_RND)
			*(double *)AT(obj, row->off) = NAN;
		if (!(row->flags & MF_REQ) && !model_written(row, obj))
			continue;
		if ((row->flags & MF_REQ) || d->keep < 0) {
			path_key(c, row->key);
			ret = fail(c, "missing");
			strbuf_setlen(&c->path, at);
			break;
		}
		k = model_kept_of(d, obj);
		k->absent = xrealloc(k->absent,
				     (k->nr_absent + 1) * sizeof(*k->absent));
		k->absent[k->nr_absent++] = ri;
	}
	return ret;
}

/* Where a member of the sequence seq goes in the table's order. */
static uint64_t rank(const struct model_desc *d, uint32_t code)
{
	if (code & MODEL_FLAT_BIT)
		return ((uint64_t)((code & ~MODEL_FLAT_BIT) >> 16) << 16) +
		       (code & 0xffff) + 1;
	if (code < d->nr_rows)
		return (uint64_t)code << 16;
	return ((uint64_t)d->nr_rows << 16) + (code - d->nr_rows);
}

/* Keep the order seq[nr] when it is not the table's. */
static void keep_order(const struct model_desc *d, void *obj,
		       const uint32_t *seq, size_t nr)
{
	struct model_kept *k;
	size_t i;

	for (i = 1; i < nr; i++)
		if (rank(d, seq[i]) < rank(d, seq[i - 1]))
			break;
	if (i >= nr)
		return;
	k = model_kept_of(d, obj);
	k->order = xcalloc(nr, sizeof(*k->order));
	memcpy(k->order, seq, nr * sizeof(*seq));
	k->nr_order = nr;
}

/* The group (MK_FLAT row *fi) whose sub has key as row *j. */
static bool find_flat(const struct model_desc *d, const char *key, uint32_t *fi,
		      uint32_t *j)
{
	for (*fi = 0; *fi < d->nr_rows; (*fi)++) {
		const struct model_desc *sub = d->rows[*fi].sub;

		if (d->rows[*fi].kind != MK_FLAT)
			continue;
		for (*j = 0; *j < sub->nr_rows; (*j)++)
			if (!strcmp(sub->rows[*j].key, key))
				return true;
	}
	return false;
}

/* A member of group fi's struct (made on its first member). */
static int decode_flat(struct dec *c, const struct model_desc *d, void *obj,
		       uint32_t fi, uint32_t j, struct json_object *v,
		       uint64_t *fseen)
{
	const struct model_desc *sub = d->rows[fi].sub;
	void **pp = AT(obj, d->rows[fi].off);

	if (!*pp)
		*pp = xcalloc(1, sub->size);
	fseen[fi] |= 1ull << j;
	return decode_member(c, sub, j, v, *pp);
}

/* The groups' missing members, as decode_missing() does a struct's. */
static int flat_missing(struct dec *c, const struct model_desc *d, void *obj,
			const uint64_t *fseen)
{
	bool seen[64];
	uint32_t fi, j;
	int ret = 0;

	for (fi = 0; fi < d->nr_rows && !ret; fi++) {
		const struct model_desc *sub = d->rows[fi].sub;
		void *p;

		if (d->rows[fi].kind != MK_FLAT)
			continue;
		p = *(void **)AT(obj, d->rows[fi].off);
		if (!p)
			continue;
		for (j = 0; j < sub->nr_rows && j < 64; j++)
			seen[j] = fseen[fi] >> j & 1;
		ret = decode_missing(c, sub, p, seen);
	}
	return ret;
}

/* A member the table does not have: refused, or kept as text. */
static int decode_unknown(struct dec *c, const struct model_desc *d, void *obj,
			  const char *key, struct json_object *v, uint32_t *seq)
{
	struct model_kept *k;

	if ((c->flags & MODEL_DECODE_KNOWN) || d->keep < 0)
		return fail(c, "not a member iotrial knows");
	k = model_kept_of(d, obj);
	ALLOC_GROW(k->extra, k->nr_extra + 1, k->alloc_extra);
	k->extra[k->nr_extra].key = xstrdup(key);
	k->extra[k->nr_extra].json = json_text(v);
	*seq = (uint32_t)(d->nr_rows + k->nr_extra);
	k->nr_extra++;
	return 0;
}

static int decode_obj(struct dec *c, const struct model_desc *d,
		      struct json_object *jo, void *obj)
{
	size_t at = c->path.len, nr_seq = 0;
	uint64_t *fseen;
	uint32_t *seq;
	bool *seen;
	int ret = 0;

	if (!json_object_is_type(jo, json_type_object))
		return fail(c, expected(MK_OBJ));
	seq = xcalloc((size_t)json_object_object_length(jo) + 1, sizeof(*seq));
	seen = xcalloc(d->nr_rows + 1, sizeof(*seen));
	fseen = xcalloc(d->nr_rows + 1, sizeof(*fseen));
	json_object_object_foreach(jo, key, val)
	{
		uint32_t ri, j;

		for (ri = 0; ri < d->nr_rows; ri++)
			if (d->rows[ri].kind != MK_FLAT &&
			    !strcmp(d->rows[ri].key, key))
				break;
		path_key(c, key);
		if (ri < d->nr_rows) {
			seen[ri] = true;
			seq[nr_seq++] = ri;
			ret = decode_member(c, d, ri, val, obj);
		} else if (find_flat(d, key, &ri, &j)) {
			seq[nr_seq++] = MODEL_FLAT_CODE(ri, j);
			ret = decode_flat(c, d, obj, ri, j, val, fseen);
		} else {
			ret =
			    decode_unknown(c, d, obj, key, val, &seq[nr_seq++]);
		}
		strbuf_setlen(&c->path, at);
		if (ret)
			break;
	}
	if (!ret)
		ret = decode_missing(c, d, obj, seen);
	if (!ret)
		ret = flat_missing(c, d, obj, fseen);
	if (!ret)
		keep_order(d, obj, seq, nr_seq);
	if (!ret && d->check)
		ret = d->check(obj, c->path.buf, c->err);
	free(seq);
	free(seen);
	free(fseen);
	return ret;
}

void model_tree_printable(struct json_object *o)
{
	size_t i, n, nr_bad = 0, alloc_bad = 0;
	char **bad = NULL;

	switch (json_object_get_type(o)) {
	case json_type_string: {
		char *s = xstrdup(json_object_get_string(o));

		if (text_make_printable(s))
			json_object_set_string(o, s);
		free(s);
		break;
	}
	case json_type_array:
		n = json_object_array_length(o);
		for (i = 0; i < n; i++)
			model_tree_printable(json_object_array_get_idx(o, i));
		break;
	case json_type_object: {
		json_object_object_foreach(o, key, val)
		{
			char *k = xstrdup(key);

			model_tree_printable(val);
			if (text_make_printable(k)) {
				ALLOC_GROW(bad, nr_bad + 1, alloc_bad);
				bad[nr_bad++] = xstrdup(key);
			}
			free(k);
		}
		/* renamed after the walk: deleting would break it */
		for (i = 0; i < nr_bad; i++) {
			struct json_object *v =
			    json_object_get(json_object_object_get(o, bad[i]));

			json_object_object_del(o, bad[i]);
			text_make_printable(bad[i]);
			json_object_object_add(o, bad[i], v);
			free(bad[i]);
		}
		free(bad);
		break;
	}
	default:
		break;
	}
}

int model_decode_tree(const struct model_desc *d, void *out,
		      struct json_object *tree, unsigned flags,
		      struct strbuf *err)
{
	struct dec c = {.flags = flags, .path = STRBUF_INIT, .err = err};
	int ret;

	memset(out, 0, d->size);
	ret = decode_obj(&c, d, tree, out);
	strbuf_release(&c.path);
	return ret;
}

int model_decode_text(const struct model_desc *d, void *out, const char *text,
		      size_t len, unsigned flags, struct strbuf *err)
{
	struct json_tokener *tok;
	struct json_object *jo;
	enum json_tokener_error jerr;
	size_t end;
	int ret;

	memset(out, 0, d->size);
	if (len > INT32_MAX)
		return err_set(err, -EINVAL, "the document is too large");
	tok = json_tokener_new();
	jo = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (jerr != json_tokener_success) {
		json_object_put(jo);
		return err_set(err, -EINVAL, "not valid JSON: %s",
			       jerr == json_tokener_continue
				   ? "it ends in the middle"
				   : json_tokener_error_desc(jerr));
	}
	for (; end < len; end++)
		if (!text[end] || !strchr(" \t\r\n", text[end])) {
			json_object_put(jo);
			return err_set(err, -EINVAL,
				       "text after the JSON object");
		}
	if (flags & MODEL_DECODE_PRINTABLE)
		model_tree_printable(jo);
	ret = model_decode_tree(d, out, jo, flags, err);
	json_object_put(jo);
	return ret;
}
