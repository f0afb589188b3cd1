/*
 * Are two stored experiments like for like? diff judges "after" against
 * "before" as if the change under test were the only difference; when
 * the arms compared ran other parameters, knobs, targets or run lengths,
 * the verdict is as much theirs as the change's. Values are compared as
 * they took effect: a parameter left unset is its default, so "direct"
 * unset and "direct=0" agree, and "4k" and "4096" are one size. The run
 * objects of the arm say what really ran; an experiment without them
 * (runs imported bare) is read from its "params" and the arm's settings.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "diff.h"
#include "../workload/workload.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* One side: what its arm ran. */
struct side {
	struct workload w; /* parameters as they took effect */
	int have_w;	   /* the workload is known */
	char **raw;	   /* per parameter: text that did not parse, or
			      NULL */
	const struct model_pair **knobs; /* name -> value, borrowed from
					    the document */
	size_t nr_knobs;
	double time_s, ios; /* requested run length; NaN unknown */
};

/* s, or "" for NULL. */
static const char *or_empty(const char *s)
{
	return s ? s : "";
}

/* The run object of the first run of arm in exp, or NULL. */
static const struct run_doc *first_run(const struct experiment_doc *exp,
				       int arm)
{
	size_t i;

	for (i = 0; i < exp->nr_runs; i++) {
		const struct exp_run *r = &exp->runs[i];

		if (r->arm >= 0 && r->arm < 1000000000 && r->arm == arm &&
		    r->run && r->run->nr_params)
			return r->run;
	}
	return NULL;
}

/* A parameter's value as the text it is given in. */
static void value_text(const struct model_value *v, struct strbuf *out)
{
	switch (v->type) {
	case MODEL_V_BOOL:
		strbuf_addstr(out, v->b ? "1" : "0");
		break;
	case MODEL_V_INT:
		strbuf_addf(out, "%" PRId64, v->i);
		break;
	case MODEL_V_UINT:
		strbuf_addf(out, "%" PRIu64, v->u);
		break;
	case MODEL_V_DOUBLE:
		strbuf_addf(out, "%.17g", v->d);
		break;
	case MODEL_V_STR:
		strbuf_addstr(out, or_empty(v->s));
		break;
	default:
		break;
	}
}

/* Set parameter name of s to the text; what does not parse is kept. */
static void set_param_text(struct side *s, const char *name, const char *text)
{
	struct strbuf err = STRBUF_INIT;
	unsigned i;

	if (s->have_w && workload_set_param(&s->w, name, text, NULL, &err))
		for (i = 0; i < s->w.nr_values; i++)
			if (!strcmp(s->w.ops->params[i].name, name)) {
				free(s->raw[i]);
				s->raw[i] = xstrdup(text);
			}
	strbuf_release(&err);
}

/* Set parameter name of s to v. */
static void set_param(struct side *s, const char *name,
		      const struct model_value *v)
{
	struct strbuf text = STRBUF_INIT;

	value_text(v, &text);
	set_param_text(s, name, text.buf);
	strbuf_release(&text);
}

/* The kind ("knob" or "param") of factor name in exp, "" if unknown. */
static const char *factor_kind(const struct experiment_doc *exp,
			       const char *name)
{
	size_t i;

	for (i = 0; i < exp->nr_factors; i++)
		if (!strcmp(or_empty(exp->factors[i].name), name))
			return or_empty(exp->factors[i].kind);
	return "";
}

/* Knob k of s: set it, or change its value where it is set already. */
static void set_knob(struct side *s, const struct model_pair *k)
{
	size_t i;

	for (i = 0; i < s->nr_knobs; i++)
		if (!strcmp(or_empty(s->knobs[i]->name), or_empty(k->name))) {
			s->knobs[i] = k;
			return;
		}
	s->knobs[s->nr_knobs++] = k;
}

/* Fill s with what arm of exp ran. */
static void side_init(struct side *s, const struct experiment_doc *exp, int arm)
{
	const struct workload_ops *ops = workload_find(or_empty(exp->workload));
	const struct run_doc *run = first_run(exp, arm);
	const struct exp_arm *a =
	    arm >= 0 && (size_t)arm < exp->nr_arms ? &exp->arms[arm] : NULL;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->time_s = s->ios = NAN;
	if (ops) {
		workload_init(&s->w, ops);
		s->have_w = 1;
		s->raw = xcalloc(s->w.nr_values + 1, sizeof(*s->raw));
	}
	if (run) {
		s->knobs = xcalloc(run->nr_knobs + 1, sizeof(*s->knobs));
		for (i = 0; i < run->nr_params; i++)
			set_param(s, or_empty(run->params[i].name),
				  &run->params[i].value);
		for (i = 0; i < run->nr_knobs; i++)
			set_knob(s, &run->knobs[i]);
		if (run->has_time_requested_s == MODEL_SET)
			s->time_s = run->time_requested_s;
		if (run->has_ios_requested == MODEL_SET)
			s->ios = (double)run->ios_requested;
		return;
	}
	s->knobs = xcalloc((a ? a->nr_settings : 0) + 1, sizeof(*s->knobs));
	if (exp->has_params == MODEL_SET)
		for (i = 0; i < exp->nr_params; i++)
			set_param(s, or_empty(exp->params[i].name),
				  &exp->params[i].value);
	if (a && a->has_settings == MODEL_SET)
		for (i = 0; i < a->nr_settings; i++) {
			const char *k = or_empty(a->settings[i].name);

			if (!strcmp(factor_kind(exp, k), "knob"))
				set_knob(s, &a->settings[i]);
			else
				set_param_text(s, k,
					       or_empty(a->settings[i].value));
		}
}

static void side_release(struct side *s)
{
	unsigned i;

	if (s->have_w) {
		for (i = 0; i < s->w.nr_values; i++)
			free(s->raw[i]);
		workload_release(&s->w);
	}
	free(s->raw);
	free(s->knobs);
}

/* Parameter i of s as people read it, "(default)" when it is. */
static void param_text(const struct side *s, const struct workload *def,
		       unsigned i, struct strbuf *out)
{
	const struct param_spec *p = &s->w.ops->params[i];
	const struct param_value *v = &s->w.values[i];

	if (s->raw[i]) {
		strbuf_addf(out, "'%s'", s->raw[i]);
		return;
	}
	if (p->type == PARAM_SIZE)
		units_fmt_bytes(out, v->u);
	else if (p->type == PARAM_CHOICE || p->type == PARAM_STRING)
		strbuf_addf(out, "'%s'", v->s ? v->s : "");
	else
		strbuf_addf(out, "%" PRIu64, v->u);
	if (p->type == PARAM_CHOICE || p->type == PARAM_STRING
		? !strcmp(v->s ? v->s : "",
			  def->values[i].s ? def->values[i].s : "")
		: v->u == def->values[i].u)
		strbuf_addstr(out, " (default)");
}

/* True when parameter i took the same effect on both sides. */
static int same_param(const struct side s[2], unsigned i)
{
	const struct param_spec *p = &s[0].w.ops->params[i];
	const struct param_value *a = &s[0].w.values[i], *b = &s[1].w.values[i];

	if (s[0].raw[i] || s[1].raw[i])
		return s[0].raw[i] && s[1].raw[i] &&
		       !strcmp(s[0].raw[i], s[1].raw[i]);
	if (p->type == PARAM_CHOICE || p->type == PARAM_STRING)
		return !strcmp(a->s ? a->s : "", b->s ? b->s : "");
	return a->u == b->u;
}

/* The value of knob name on s, or NULL when it is not set. */
static const char *knob_get(const struct side *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nr_knobs; i++)
		if (!strcmp(or_empty(s->knobs[i]->name), name))
			return or_empty(s->knobs[i]->value);
	return NULL;
}

/* The knobs set on either side, with their values. */
static int knob_lines(const struct side s[2], struct strbuf *out)
{
	int n = 0, k;
	size_t i;

	for (k = 0; k < 2; k++) {
		for (i = 0; i < s[k].nr_knobs; i++) {
			const char *name = or_empty(s[k].knobs[i]->name);
			const char *mine = or_empty(s[k].knobs[i]->value);
			const char *o = knob_get(&s[!k], name);

			if (o && (k || !strcmp(mine, o)))
				continue; /* the same, or said from side 0 */
			strbuf_addf(out, "knob %s: ", name);
			if (k)
				strbuf_addf(out, "not set vs '%s'\n", mine);
			else if (o)
				strbuf_addf(out, "'%s' vs '%s'\n", mine, o);
			else
				strbuf_addf(out, "'%s' vs not set\n", mine);
			n++;
		}
	}
	return n;
}

/* The requested run lengths, when both sides recorded one. */
static int length_line(const struct side s[2], struct strbuf *out)
{
	if (!isnan(s[0].ios) && !isnan(s[1].ios) && s[0].ios != s[1].ios) {
		strbuf_addf(out, "run length: %.0f vs %.0f I/Os\n", s[0].ios,
			    s[1].ios);
		return 1;
	}
	if (!isnan(s[0].time_s) && !isnan(s[1].time_s) &&
	    s[0].time_s != s[1].time_s) {
		strbuf_addf(out, "run length: %g s vs %g s\n", s[0].time_s,
			    s[1].time_s);
		return 1;
	}
	if (isnan(s[0].ios) != isnan(s[1].ios) &&
	    isnan(s[0].time_s) != isnan(s[1].time_s)) {
		strbuf_addstr(out, "run length: one counts I/Os, the other "
				   "time\n");
		return 1;
	}
	return 0;
}

int diff_unlike(const struct experiment_doc *const e[2], const int arm[2],
		struct strbuf *out)
{
	struct side s[2];
	struct workload def;
	int n = 0, k;
	unsigned i;

	for (k = 0; k < 2; k++)
		side_init(&s[k], e[k], arm[k]);
	if (strcmp(or_empty(e[0]->target), or_empty(e[1]->target))) {
		strbuf_addf(out, "target: '%s' vs '%s'\n",
			    or_empty(e[0]->target), or_empty(e[1]->target));
		n++;
	}
	if (s[0].have_w && s[1].have_w && s[0].w.ops == s[1].w.ops) {
		workload_init(&def, s[0].w.ops);
		for (i = 0; i < s[0].w.nr_values; i++) {
			/* a label names an arm; it changes nothing run */
			if (!strcmp(s[0].w.ops->params[i].name, "label") ||
			    same_param(s, i))
				continue;
			strbuf_addf(out, "%s: ", s[0].w.ops->params[i].name);
			param_text(&s[0], &def, i, out);
			strbuf_addstr(out, " vs ");
			param_text(&s[1], &def, i, out);
			strbuf_addch(out, '\n');
			n++;
		}
		workload_release(&def);
	}
	n += knob_lines(s, out);
	n += length_line(s, out);
	for (k = 0; k < 2; k++)
		side_release(&s[k]);
	return n;
}
