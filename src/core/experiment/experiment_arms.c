/*
 * The arms of an experiment: the cartesian product of the factors'
 * values (the last factor varying fastest, as nested loops would), each
 * labelled with what is set ("scheduler=bfq (asked: cfq)", and under
 * the knob's own name when it was asked for by an old one:
 * "vm.dirty_ratio=90 (asked: bdflush.nfract_sync=90)"), and the
 * baseline --baseline names, in any of its spellings (arm_name.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "experiment.h"
#include "arm_name.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The label of settings s[n] into out (reset first): what is set, and
 * what was asked when it differs. */
static void arm_label(const struct arm_setting *s, unsigned n,
		      struct strbuf *out)
{
	unsigned f;

	strbuf_reset(out);
	for (f = 0; f < n; f++) {
		const char *set = s[f].canon ? s[f].canon : s[f].value;

		if (s[f].set_name)
			strbuf_addf(out, "%s%s=%s (asked: %s=%s)", f ? " " : "",
				    s[f].set_name, set, s[f].name, s[f].value);
		else if (s[f].canon)
			strbuf_addf(out, "%s%s=%s (asked: %s)", f ? " " : "",
				    s[f].name, s[f].canon, s[f].value);
		else
			strbuf_addf(out, "%s%s=%s", f ? " " : "", s[f].name,
				    s[f].value);
	}
}

/*
 * The arm --baseline names (arm_name.h: the label, the settings as
 * asked or as set, the value alone, the arm's number) into e->baseline.
 * 0, or -ENOENT or -EINVAL with err set.
 */
static int find_baseline(struct experiment *e, unsigned nr_factors,
			 const char *want, struct strbuf *err)
{
	struct arm_names *names = xcalloc(e->nr_arms + 1, sizeof(*names));
	struct arm_spelling *sp =
	    xcalloc((size_t)e->nr_arms * nr_factors + 1, sizeof(*sp));
	size_t i, f, idx = 0;
	int ret;

	for (i = 0; i < e->nr_arms; i++) {
		names[i].label = e->arms[i].label;
		names[i].s = &sp[i * nr_factors];
		names[i].nr = nr_factors;
		for (f = 0; f < nr_factors; f++) {
			const struct arm_setting *s = &e->arms[i].settings[f];

			sp[i * nr_factors + f].name = s->name;
			sp[i * nr_factors + f].set_name = s->set_name;
			sp[i * nr_factors + f].asked = s->value;
			sp[i * nr_factors + f].set = s->canon;
		}
	}
	ret = arm_find(names, e->nr_arms, want, NULL, NULL, &idx, err);
	if (!ret)
		e->baseline = (unsigned)idx;
	else if (ret == -ENOENT)
		err_set(err, -ENOENT,
			"baseline '%s' is not one of the arms; give an arm "
			"as 'factor=value' (e.g. '%s') or its number",
			want, e->arms[0].label);
	free(names);
	free(sp);
	return ret;
}

/* Fill arm a with the values at levels[f] of each factor (NULL: the
 * values of the cartesian product's arm i) and label it. */
static void fill_arm(struct experiment_arm *a,
		     const struct experiment_config *c, const unsigned *levels,
		     unsigned i, struct strbuf *sb)
{
	unsigned f, rest = i;

	a->settings = xcalloc(c->nr_factors + 1, sizeof(*a->settings));
	/* the last factor varies fastest, as nested loops would */
	for (f = c->nr_factors; f-- > 0;) {
		const struct experiment_factor *fa = &c->factors[f];
		unsigned v = levels ? levels[f] : rest % fa->nr_values;

		a->settings[f].name = fa->name;
		a->settings[f].value = fa->values[v];
		a->settings[f].canon = fa->canon ? fa->canon[v] : NULL;
		a->settings[f].set_name = fa->set_name;
		a->settings[f].is_knob = fa->is_knob;
		rest /= fa->nr_values;
	}
	arm_label(a->settings, c->nr_factors, sb);
	a->label = xstrdup(sb->buf);
}

/* Are levels[nr_factors] each within its factor's values? */
static int levels_ok(const struct experiment_config *c, const unsigned *levels)
{
	unsigned f;

	for (f = 0; f < c->nr_factors; f++)
		if (levels[f] >= c->factors[f].nr_values)
			return 0;
	return 1;
}

int experiment_arms_append(struct experiment *e,
			   const struct experiment_config *c,
			   const unsigned *levels, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;

	if (!levels_ok(c, levels))
		return err_set(err, -EINVAL, "an arm's value is out of range");
	e->arms = xrealloc(e->arms, (e->nr_arms + 1) * sizeof(*e->arms));
	memset(&e->arms[e->nr_arms], 0, sizeof(*e->arms));
	fill_arm(&e->arms[e->nr_arms], c, levels, 0, &sb);
	e->nr_arms++;
	strbuf_release(&sb);
	return 0;
}

int experiment_plan(struct experiment *e, const struct experiment_config *c,
		    struct strbuf *err)
{
	unsigned long long nr = 1;
	unsigned i, f;
	struct strbuf sb = STRBUF_INIT;

	memset(e, 0, sizeof(*e));
	if (c->nr_arm_levels) {
		for (i = 0; i < c->nr_arm_levels; i++)
			if (experiment_arms_append(
				e, c, c->arm_levels + i * c->nr_factors, err))
				return -EINVAL;
		return 0;
	}
	for (f = 0; f < c->nr_factors; f++) {
		nr *= c->factors[f].nr_values;
		if (nr > c->max_arms)
			break;
	}
	if (nr > c->max_arms) {
		for (f = 0; f < c->nr_factors; f++)
			strbuf_addf(&sb, "%s%u", f ? " x " : "",
				    c->factors[f].nr_values);
		err_set(err, -E2BIG,
			"the factors make %s arms, more than %u; vary fewer "
			"values, or raise the limit with --max-arms",
			sb.buf, c->max_arms);
		strbuf_release(&sb);
		return -E2BIG;
	}
	e->nr_arms = (unsigned)nr;
	e->arms = xcalloc(e->nr_arms, sizeof(*e->arms));
	for (i = 0; i < e->nr_arms; i++)
		fill_arm(&e->arms[i], c, NULL, i, &sb);
	strbuf_release(&sb);
	if (!c->baseline)
		return 0;
	return find_baseline(e, c->nr_factors, c->baseline, err);
}
