/*
 * A trial's factors: each --vary "NAME=V1,V2,..." split, classified as a
 * parameter of the workload or a knob of the target, its values checked
 * and, for a knob, translated to the spelling the knob is written in.
 * The notes of these checks wait until trial_check() passes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "trial.h"
#include "trial-int.h"
#include "factor_values.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/*
 * Is name a knob of the target? 1 yes; -ENOENT (err suggests the
 * nearest knob or parameter) or -ENODEV (a knob the target has no device
 * or mount for).
 */
static int classify(struct trial *tr, const char *name, struct strbuf *err)
{
	const struct workload_ops *ops = tr->c.ops;
	struct strbuf why = STRBUF_INIT;
	struct knob_list names = {0};
	const struct param_spec *p;
	const char *near;
	struct knob k;
	int ret;

	if (knob_is_bdflush_line(name))
		return 1; /* a line of several knobs: its values say which */
	memset(&k, 0, sizeof(k));
	ret = knob_resolve(&tr->kctx, name, &k, NULL, &why);
	knob_release(&k);
	if (!ret) {
		strbuf_release(&why);
		return 1;
	}
	if (ret != -ENOENT) {
		err_set(err, ret, "%s", why.buf);
		strbuf_release(&why);
		return ret;
	}
	knob_names(&tr->kctx, &names);
	for (p = ops->params; p->name; p++)
		knob_list_add(&names, p->name);
	near = knob_folklore_name(name);
	if (!near)
		near = suggest_nearest(name, (const char *const *)names.v,
				       names.nr);
	if (near)
		err_set(err, -ENOENT,
			"'%s' is neither a knob nor a parameter of '%s'; did "
			"you mean '%s'?",
			name, ops->name, near);
	else
		err_set(err, -ENOENT,
			"'%s' is neither a knob nor a parameter of '%s'; see "
			"'iotrial knobs' and 'iotrial run %s --help'",
			name, ops->name, ops->name);
	knob_list_release(&names);
	strbuf_release(&why);
	return -ENOENT;
}

/* Split spec "name=v1,v2" into f (zeroed first; trial_free_factor() it). */
static int parse_factor(struct experiment_factor *f, const char *spec,
			struct strbuf *err)
{
	const char *eq = strchr(spec, '=');
	const char *p;
	unsigned alloc = 0, i;

	memset(f, 0, sizeof(*f));
	if (!eq || eq == spec || !eq[1])
		return err_set(err, -EINVAL,
			       "invalid --vary '%s': expected FACTOR=V1,V2 "
			       "(e.g. bs=4k,1M)",
			       spec);
	f->name = xstrndup(spec, (size_t)(eq - spec));
	for (p = eq + 1;;) {
		size_t n = strcspn(p, ",");

		if (!n)
			return err_set(err, -EINVAL,
				       "invalid --vary '%s': empty value",
				       spec);
		ALLOC_GROW(f->values, f->nr_values + 1, alloc);
		f->values[f->nr_values++] = xstrndup(p, n);
		if (!p[n])
			break;
		p += n + 1;
	}
	if (f->nr_values < 2)
		return err_set(err, -EINVAL,
			       "--vary '%s' gives one value; a comparison "
			       "needs at least two (e.g. %s=%s,OTHER)",
			       spec, f->name, f->values[0]);
	for (i = 0; i < f->nr_values; i++)
		for (p = f->values[i]; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				return err_set(err, -EINVAL,
					       "--vary '%s': values must be "
					       "printable text",
					       f->name);
	return 0;
}

/* Free what parse_factor() gave f. */
void trial_free_factor(struct experiment_factor *f)
{
	unsigned i;

	for (i = 0; i < f->nr_values; i++) {
		free(f->values[i]);
		if (f->canon)
			free(f->canon[i]);
	}
	free(f->values);
	free(f->canon);
	free(f->set_name);
	free(f->name);
}

/*
 * Check factor f of spec: a parameter or else a knob; no value twice,
 * as typed or once translated.
 */
static int check_factor(struct trial *tr, struct experiment_factor *f,
			const char *spec, struct factor_plans *fp,
			struct strbuf *err)
{
	int ret;

	if (workload_param_index(tr->c.ops, f->name) < 0) {
		ret = classify(tr, f->name, err);
		if (ret < 0)
			return ret;
		f->is_knob = 1;
		/* each value planned once, for the check and the notes */
		factor_plans_make(fp, &tr->kctx, f);
	}
	return factor_check_values(tr->c.ops, f->is_knob ? fp : NULL, f, spec,
				   err);
}

int trial_add_factor(struct trial *tr, const char *spec, struct strbuf *err)
{
	struct factor_plans fp = {0};
	struct experiment_factor f;
	unsigned k;
	int ret;

	ret = parse_factor(&f, spec, err);
	if (!ret)
		ret = check_factor(tr, &f, spec, &fp, err);
	for (k = 0; !ret && k < tr->c.nr_factors; k++)
		if (!strcmp(tr->c.factors[k].name, f.name))
			ret = err_set(err, -EINVAL,
				      "'%s' is varied twice; give all its "
				      "values in one --vary %s=A,B,...",
				      f.name, f.name);
	if (ret) {
		factor_plans_release(&fp);
		trial_free_factor(&f);
		return ret;
	}
	if (f.is_knob)
		factor_translate(
		    &fp, &f,
		    &(struct session_log){.say = trial_hold_say, .data = tr});
	factor_plans_release(&fp);
	ALLOC_GROW(tr->c.factors, tr->c.nr_factors + 1, tr->alloc_factors);
	tr->c.factors[tr->c.nr_factors++] = f;
	return 0;
}
