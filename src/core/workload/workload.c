/*
 * The workload registry and parameter handling. Parameters are declared
 * as data by each workload (struct param_spec), so parsing, defaults,
 * range checks, help and "did you mean" suggestions live here once.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "workload.h"
#include "../observe/truth.h"
#include "../targets/scratch.h"
#include "../../util/error.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Every workload of WORKLOAD_TABLE (workload.h), in its order. */
#define WORKLOAD_PTR_(n) &workload_##n,
static const struct workload_ops *const workloads[] = {
    WORKLOAD_TABLE(WORKLOAD_PTR_)};
#undef WORKLOAD_PTR_

const struct workload_ops *workload_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(workloads); i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i];
	return NULL;
}

const char *const *workload_names(void)
{
	static const char *names[ARRAY_SIZE(workloads) + 1];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(workloads); i++)
		names[i] = workloads[i]->name;
	return names;
}

static size_t nr_params(const struct workload_ops *ops)
{
	size_t n = 0;

	while (ops->params[n].name)
		n++;
	return n;
}

int workload_param_index(const struct workload_ops *ops, const char *name)
{
	int i;

	for (i = 0; ops->params[i].name; i++)
		if (!strcmp(ops->params[i].name, name))
			return i;
	return -1;
}

/* Row i's value into its field of w->params, as the row's type says. */
static void fill(struct workload *w, unsigned i)
{
	const struct param_spec *p = &w->ops->params[i];
	char *at = (char *)w->params + p->off;

	if (p->field == PARAM_F_U64)
		*(uint64_t *)at = w->values[i].u;
	else if (p->field == PARAM_F_INT)
		*(int *)at = w->values[i].u != 0;
	else if (p->field == PARAM_F_STR)
		*(const char **)at = w->values[i].s;
}

static int parse_bool(const char *text, uint64_t *out)
{
	static const char *const yes[] = {"1", "yes", "true", "on"};
	static const char *const no[] = {"0", "no", "false", "off"};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(text, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(text, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return -EINVAL;
}

static void list_choices(struct strbuf *sb, const char *const *choices)
{
	size_t i;

	for (i = 0; choices[i]; i++)
		strbuf_addf(sb, "%s'%s'", i ? ", " : "", choices[i]);
}

/* Parse text for spec into v; err names the parameter. */
static int parse_value(const struct param_spec *spec, const char *text,
		       struct param_value *v, struct strbuf *note,
		       struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t u = 0;
	double frac;
	int ret = 0;
	size_t i;

	switch (spec->type) {
	case PARAM_SIZE:
		ret = units_parse_size(text, spec->min ? 0 : UNITS_ZERO_OK, &u,
				       note, &sb);
		break;
	case PARAM_UINT:
		ret = units_parse_count(text, &u, &sb);
		break;
	case PARAM_BOOL:
		ret = parse_bool(text, &u);
		if (ret)
			strbuf_addf(&sb, "expected 0 or 1 (yes/no)");
		break;
	case PARAM_PERCENT:
		ret = units_parse_percent(text, &frac, &sb);
		if (!ret && (frac < 0 || frac > 1.0)) {
			ret = -ERANGE;
			strbuf_addstr(&sb,
				      "expected a percentage from 0 to 100");
		}
		u = (uint64_t)(frac * 100.0 + 0.5);
		break;
	case PARAM_CHOICE:
		for (i = 0; spec->choices[i]; i++)
			if (!strcmp(spec->choices[i], text))
				break;
		if (!spec->choices[i]) {
			const char *near =
			    suggest_nearest(text, spec->choices, i);

			ret = -EINVAL;
			if (near)
				strbuf_addf(&sb, "did you mean '%s'? ", near);
			strbuf_addstr(&sb, "expected one of ");
			list_choices(&sb, spec->choices);
		}
		break;
	case PARAM_STRING:
		break;
	}
	if (ret) {
		err_set(err, ret, "invalid value '%s' for '%s': %s", text,
			spec->name, sb.buf);
		goto out;
	}
	if ((spec->type == PARAM_SIZE || spec->type == PARAM_UINT) &&
	    (u < spec->min || (spec->max && u > spec->max))) {
		strbuf_reset(&sb);
		if (spec->max)
			strbuf_addf(&sb, "from %llu to %llu",
				    (unsigned long long)spec->min,
				    (unsigned long long)spec->max);
		else
			strbuf_addf(&sb, "at least %llu",
				    (unsigned long long)spec->min);
		ret = err_set(err, -ERANGE,
			      "'%s' is out of range for '%s': expected %s%s",
			      text, spec->name, sb.buf,
			      spec->type == PARAM_SIZE ? " bytes" : "");
		goto out;
	}
	v->u = u;
	free(v->s);
	v->s = xstrdup(text);
out:
	strbuf_release(&sb);
	return ret;
}

void workload_init(struct workload *w, const struct workload_ops *ops)
{
	size_t i, n = nr_params(ops);

	memset(w, 0, sizeof(*w));
	w->ops = ops;
	w->nr_values = (unsigned)n;
	w->values = xcalloc(n, sizeof(*w->values));
	w->params =
	    xcalloc(1, ops->params_size ?: sizeof(struct workload_common));
	for (i = 0; i < n; i++) {
		const struct param_spec *p = &ops->params[i];
		int ret = parse_value(p, p->def, &w->values[i], NULL, NULL);

		/* the defaults are ours: a bad one is a bug */
		assert(ret == 0);
		(void)ret;
		fill(w, (unsigned)i);
	}
}

void workload_release(struct workload *w)
{
	unsigned i;

	if (!w || !w->values)
		return;
	for (i = 0; i < w->nr_values; i++)
		free(w->values[i].s);
	free(w->values);
	free(w->params);
	w->values = NULL;
	w->params = NULL;
	w->nr_values = 0;
}

void workload_copy(struct workload *dst, const struct workload *src)
{
	unsigned i;

	memset(dst, 0, sizeof(*dst));
	dst->ops = src->ops;
	dst->ro = src->ro;
	dst->nr_values = src->nr_values;
	dst->values = xcalloc(src->nr_values + 1, sizeof(*dst->values));
	dst->params =
	    xcalloc(1, src->ops->params_size ?: sizeof(struct workload_common));
	for (i = 0; i < src->nr_values; i++) {
		dst->values[i] = src->values[i];
		dst->values[i].s =
		    src->values[i].s ? xstrdup(src->values[i].s) : NULL;
		fill(dst, i);
	}
}

int workload_set_param(struct workload *w, const char *name, const char *text,
		       struct strbuf *note, struct strbuf *err)
{
	int idx = workload_param_index(w->ops, name);
	int ret;

	if (idx < 0) {
		const char **names = xcalloc(w->nr_values + 1, sizeof(*names));
		const char *near;
		unsigned i;

		for (i = 0; i < w->nr_values; i++)
			names[i] = w->ops->params[i].name;
		near = suggest_nearest(name, names, w->nr_values);
		if (near)
			ret =
			    err_set(err, -ENOENT,
				    "'%s' is not a parameter of '%s'; did you "
				    "mean '%s'?",
				    name, w->ops->name, near);
		else
			ret = err_set(err, -ENOENT,
				      "'%s' is not a parameter of '%s'; see "
				      "'iotrial run %s --help'",
				      name, w->ops->name, w->ops->name);
		free(names);
		return ret;
	}
	ret =
	    parse_value(&w->ops->params[idx], text, &w->values[idx], note, err);
	if (!ret) {
		w->values[idx].is_set = 1;
		fill(w, (unsigned)idx);
	}
	return ret;
}

const struct param_value *workload_given(const struct workload *w,
					 const void *field)
{
	size_t off = (size_t)((const char *)field - (const char *)w->params);
	unsigned i;

	for (i = 0; i < w->nr_values; i++)
		if (w->ops->params[i].field && w->ops->params[i].off == off)
			return &w->values[i];
	assert(!"no row fills this field");
	return NULL;
}

int workload_syncs(const struct workload_common *c)
{
	return (c->settle && !strcmp(c->settle, "sync")) || c->end_fsync;
}

int workload_reads_only(const struct workload *w)
{
	return w->ops->reads_only && w->ops->reads_only(w);
}

int workload_files_always(const struct workload *w)
{
	(void)w;
	return 1;
}

int workload_needs_files(const struct workload *w)
{
	return w->ops->needs_files && w->ops->needs_files(w);
}

int workload_need_files(const struct workload *w, const struct target *t,
			const char *what, struct strbuf *err)
{
	const char *spec = t->spec ? t->spec : t->path;

	if (t->kind != TARGET_BLOCKDEV && t->work_fd >= 0 && t->workdir)
		return 0;
	if (t->kind != TARGET_BLOCKDEV)
		return err_set(err, -EINVAL,
			       "%s %s, and '%s' was opened without a work "
			       "directory",
			       w->ops->name, what, spec);
	if (scratch_device(t))
		/* a raw scratch device: the same size with a file system */
		return err_set(err, -EINVAL,
			       "%s %s, and '%s' is a raw loop device; give "
			       "%s:ext4, or a directory, as the target",
			       w->ops->name, what, spec, spec);
	return err_set(err, -EINVAL,
		       "%s %s, and '%s' is a block device; give a directory "
		       "as the target, or scratch:SIZE for a loop device with "
		       "a file system of its own",
		       w->ops->name, what, spec);
}

int workload_validate(struct workload *w, struct strbuf *err)
{
	return w->ops->validate ? w->ops->validate(w, err) : 0;
}

/*
 * The options a warning's advice may name that w's workload lacks
 * (enum truth_param): a parameter it has not, or, for --fsync=N, one
 * that is not a count of writes.
 */
static unsigned truth_lacks(const struct workload_ops *ops)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
	    {TRUTH_LACKS_SIZE, "size"},
	    {TRUTH_LACKS_DIRECT, "direct"},
	    {TRUTH_LACKS_INVALIDATE, "invalidate"},
	    {TRUTH_LACKS_RANDOMMAP, "randommap"},
	    {TRUTH_LACKS_SETTLE, "settle"},
	    {TRUTH_LACKS_FSYNC_N, "fsync"},
	};
	unsigned lacks = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		int k = workload_param_index(ops, names[i].name);

		if (k < 0 || (names[i].bit == TRUTH_LACKS_FSYNC_N &&
			      ops->params[k].type != PARAM_UINT))
			lacks |= names[i].bit;
	}
	return lacks;
}

void workload_truth_opts(const struct workload *w, struct truth_opts *o)
{
	const struct workload_common *c = w->params;

	/* the jobs share one file, or have one each */
	o->working_set_bytes = c->size_bytes * (c->shared ? 1 : c->jobs ?: 1);
	o->direct = c->direct;
	o->cpu_bound_advice = w->ops->cpu_bound_advice;
	o->short_run_advice = w->ops->short_run_advice;
	o->rewrite_advice = w->ops->rewrite_advice;
	o->lacks = truth_lacks(w->ops);
	o->invalidate = c->invalidate;
	if (workload_syncs(c))
		o->settle = TRUTH_SETTLE_SYNC;
	else if (c->settle && !strcmp(c->settle, "none"))
		o->settle = TRUTH_SETTLE_NONE;
	else
		o->settle = TRUTH_SETTLE_UNKNOWN;
	if (w->ops->truth_opts)
		w->ops->truth_opts(w, o);
}
