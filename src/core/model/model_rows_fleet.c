/*
 * The table of the playbook's records of a fleet host (fleet_doc.h:
 * HOST.error, HOST.revert), in the order fleet/fleet_plan.c's playbook
 * writes their members, and their entry points; the member order of a
 * producer whose published order is its own (a fleet merge's
 * experiment); copies of the marks a merge carries over.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model-int.h"
#include "model_json.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define S struct fleet_record_doc
static const struct model_row record_rows[] = {
    M(S, "host", MK_STR, host, MF_OPT | MF_NULL),
    M(S, "revert", MK_STR, revert, MF_OPT | MF_NULL),
    M(S, "task", MK_STR, task, MF_OPT | MF_NULL),
    MH(S, "rc", MK_VAL, rc, MF_NULL),
    M(S, "error", MK_STR, error, MF_OPT | MF_NULL),
    M(S, "output", MK_STR, output, MF_OPT | MF_NULL),
};
static MODEL_DESC(record_desc, S, record_rows);
#undef S

MODEL_ENTRY_POINTS(fleet_record_doc, record_desc)

/* The table of member key of d, its row into *ri; false when none. */
static bool row_of(const struct model_desc *d, const char *key, uint32_t *ri)
{
	for (*ri = 0; *ri < d->nr_rows; (*ri)++)
		if (d->rows[*ri].kind != MK_FLAT &&
		    !strcmp(d->rows[*ri].key, key))
			return true;
	return false;
}

/* Is code in the nr codes of order? */
static bool in_order(const uint32_t *order, size_t nr, uint32_t code)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (order[i] == code)
			return true;
	return false;
}

/*
 * Print member key of obj after those it holds now: the order encode
 * would use (the kept one, then the members it lacks in the table's
 * order, a group's members in it; else the table's) is kept with key
 * added at its end. Call it before key is set: a member there already
 * keeps its place. 0, or -EINVAL when d has no key.
 */
static int order_last(const struct model_desc *d, void *obj, const char *key)
{
	struct model_kept *k;
	size_t i, n, had;
	uint32_t ri, j, code;

	if (!row_of(d, key, &ri))
		return -EINVAL;
	k = model_kept_of(d, obj);
	had = k->nr_order;
	n = had + 1 + k->nr_extra;
	for (i = 0; i < d->nr_rows; i++)
		n += d->rows[i].kind == MK_FLAT ? d->rows[i].sub->nr_rows : 1;
	k->order = xrealloc(k->order, n * sizeof(*k->order));
	/* what encode writes today, in its order, made explicit */
	for (i = 0; i < d->nr_rows; i++) {
		const struct model_row *row = &d->rows[i];
		const void *p;

		if (row->kind != MK_FLAT) {
			if (model_written(row, obj) &&
			    !model_kept_absent(k, (uint32_t)i) &&
			    !in_order(k->order, k->nr_order, (uint32_t)i))
				k->order[k->nr_order++] = (uint32_t)i;
			continue;
		}
		p = *(void *const *)MODEL_CAT(obj, row->off);
		for (j = 0; p && j < row->sub->nr_rows; j++) {
			code = MODEL_FLAT_CODE(i, j);
			if (model_written(&row->sub->rows[j], p) &&
			    !in_order(k->order, k->nr_order, code))
				k->order[k->nr_order++] = code;
		}
	}
	/* without a kept order, the unknown members come last */
	for (i = 0; !had && i < k->nr_extra; i++)
		k->order[k->nr_order++] = (uint32_t)(d->nr_rows + i);
	if (!in_order(k->order, k->nr_order, ri))
		k->order[k->nr_order++] = ri;
	return 0;
}

/* The table of member key's objects in d (an array's elements). */
static const struct model_desc *sub_of(const struct model_desc *d,
				       const char *key)
{
	uint32_t ri;

	return row_of(d, key, &ri) ? d->rows[ri].sub : NULL;
}

int experiment_doc_order_last(struct experiment_doc *doc, const char *key)
{
	return order_last(&model_experiment_desc, doc, key);
}

int exp_run_order_last(struct exp_run *run, const char *key)
{
	return order_last(sub_of(&model_experiment_desc, "runs"), run, key);
}

int experiment_doc_move_last(struct experiment_doc *doc, const char *key)
{
	struct model_kept *k;
	uint32_t ri;
	size_t i, j;

	/* the order made explicit, with room for key at its end */
	if (order_last(&model_experiment_desc, doc, key) ||
	    !row_of(&model_experiment_desc, key, &ri))
		return -EINVAL;
	k = model_kept_of(&model_experiment_desc, doc);
	for (i = j = 0; i < k->nr_order; i++)
		if (k->order[i] != ri)
			k->order[j++] = k->order[i];
	k->order[j++] = ri;
	k->nr_order = j;
	return 0;
}

int experiment_doc_omit(struct experiment_doc *doc, const char *key)
{
	struct model_kept *k;
	uint32_t ri;

	if (!row_of(&model_experiment_desc, key, &ri))
		return -EINVAL;
	k = model_kept_of(&model_experiment_desc, doc);
	if (model_kept_absent(k, ri))
		return 0;
	k->absent =
	    xrealloc(k->absent, (k->nr_absent + 1) * sizeof(*k->absent));
	k->absent[k->nr_absent++] = ri;
	return 0;
}

bool exp_run_lacks(const struct exp_run *run, const char *key)
{
	const struct model_desc *d = sub_of(&model_experiment_desc, "runs");
	uint32_t ri;

	return d && row_of(d, key, &ri) &&
	       model_kept_absent(model_kept_get(d, run), ri);
}

int env_doc_order_last(struct env_doc *env, const char *key)
{
	return order_last(&model_env_desc, env, key);
}

void exp_suspects_copy(const struct exp_suspect *src, size_t nr,
		       struct exp_suspect **out)
{
	size_t i;

	*out = xcalloc(nr ? nr : 1, sizeof(**out));
	for (i = 0; i < nr; i++)
		model_copy_obj(&model_suspect_desc, &(*out)[i], &src[i]);
}

void exp_suspects_free(struct exp_suspect *s, size_t nr)
{
	size_t i;

	for (i = 0; s && i < nr; i++)
		model_release_obj(&model_suspect_desc, &s[i]);
	free(s);
}

int experiment_doc_copy_number(struct experiment_doc *dst,
			       const struct experiment_doc *src,
			       const char *key)
{
	const struct model_desc *d = &model_experiment_desc;
	const struct model_kept *ks = model_kept_get(d, src);
	const struct model_row *row;
	struct model_kept *kd;
	uint32_t ri;
	size_t i;

	if (!row_of(d, key, &ri))
		return -EINVAL;
	row = &d->rows[ri];
	if (row->kind != MK_DBL && row->kind != MK_INT)
		return -EINVAL;
	order_last(d, dst, key); /* before it is there */
	memcpy(MODEL_AT(dst, row->off), MODEL_CAT(src, row->off),
	       row->kind == MK_DBL ? sizeof(double) : sizeof(int64_t));
	if (row->has >= 0)
		*(uint8_t *)MODEL_AT(dst, row->has) =
		    *(const uint8_t *)MODEL_CAT(src, row->has);
	for (i = 0; ks && i < ks->nr_nums; i++) {
		if (ks->nums[i].row != ri)
			continue;
		kd = model_kept_of(d, dst);
		ALLOC_GROW(kd->nums, kd->nr_nums + 1, kd->alloc_nums);
		kd->nums[kd->nr_nums] = ks->nums[i];
		kd->nums[kd->nr_nums++].text = xstrdup(ks->nums[i].text);
	}
	return 0;
}
