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
#include "../report/expjson.h"
#include "../workload/workload.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* One side: what its arm ran. */
struct side {
	struct workload w;	   /* parameters as they took effect */
	int have_w;		   /* the workload is known */
	char **raw;		   /* per parameter: text that did not parse, or
				      NULL */
	struct json_object *knobs; /* name -> value, owned */
	double time_s, ios;	   /* requested run length; NaN unknown */
};

/* The first run object of arm in exp, or NULL. */
static struct json_object *first_run(struct json_object *exp, int arm)
{
	struct json_object *runs =
	    expjson_get_type(exp, "runs", json_type_array);
	size_t i, n = runs ? json_object_array_length(runs) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(runs, i);
		double a = expjson_num(r, "arm");

		if (a >= 0 && a < 1e9 && (int)a == arm &&
		    expjson_get_type(expjson_get(r, "run"), "params",
				     json_type_object))
			return expjson_get(r, "run");
	}
	return NULL;
}

/* A JSON value as the text a parameter is given in. */
static void value_text(struct json_object *v, struct strbuf *out)
{
	switch (json_object_get_type(v)) {
	case json_type_boolean:
		strbuf_addstr(out, json_object_get_boolean(v) ? "1" : "0");
		break;
	case json_type_int:
		strbuf_addf(out, "%" PRId64, json_object_get_int64(v));
		break;
	case json_type_double:
		strbuf_addf(out, "%.17g", json_object_get_double(v));
		break;
	default:
		strbuf_addstr(out, json_object_get_string(v)
				       ? json_object_get_string(v)
				       : "");
	}
}

/* Set parameter name of s to v; what does not parse is kept as text. */
static void set_param(struct side *s, const char *name, struct json_object *v)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	unsigned i;

	value_text(v, &text);
	if (s->have_w && workload_set_param(&s->w, name, text.buf, NULL, &err))
		for (i = 0; i < s->w.nr_values; i++)
			if (!strcmp(s->w.ops->params[i].name, name)) {
				free(s->raw[i]);
				s->raw[i] = strbuf_detach(&text, NULL);
			}
	strbuf_release(&text);
	strbuf_release(&err);
}

/* The kind ("knob" or "param") of factor name in exp, "" if unknown. */
static const char *factor_kind(struct json_object *exp, const char *name)
{
	struct json_object *f =
	    expjson_get_type(exp, "factors", json_type_array);
	size_t i, n = f ? json_object_array_length(f) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *x = json_object_array_get_idx(f, i);

		if (!strcmp(expjson_str(x, "name"), name))
			return expjson_str(x, "kind");
	}
	return "";
}

/* Fill s with what arm of exp ran. */
static void side_init(struct side *s, struct json_object *exp, int arm)
{
	const struct workload_ops *ops =
	    workload_find(expjson_str(exp, "workload"));
	struct json_object *run = first_run(exp, arm);

	memset(s, 0, sizeof(*s));
	s->knobs = json_object_new_object();
	s->time_s = s->ios = NAN;
	if (ops) {
		workload_init(&s->w, ops);
		s->have_w = 1;
		s->raw = xcalloc(s->w.nr_values + 1, sizeof(*s->raw));
	}
	if (run) {
		struct json_object *knobs =
		    expjson_get_type(run, "knobs", json_type_object);

		json_object_object_foreach(expjson_get(run, "params"), k, v)
		    set_param(s, k, v);
		if (knobs) {
			json_object_object_foreach(knobs, kk, kv)
			    json_object_object_add(s->knobs, kk,
						   json_object_get(kv));
		}
		s->time_s = expjson_num(run, "time_requested_s");
		s->ios = expjson_num(run, "ios_requested");
		return;
	}
	{
		struct json_object *params =
		    expjson_get_type(exp, "params", json_type_object);
		struct json_object *a = json_object_array_get_idx(
		    expjson_get_type(exp, "arms", json_type_array), arm);
		struct json_object *set =
		    expjson_get_type(a, "settings", json_type_object);

		if (params) {
			json_object_object_foreach(params, k, v)
			    set_param(s, k, v);
		}
		if (set) {
			json_object_object_foreach(set, k, v)
			{
				if (!strcmp(factor_kind(exp, k), "knob"))
					json_object_object_add(
					    s->knobs, k, json_object_get(v));
				else
					set_param(s, k, v);
			}
		}
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
	json_object_put(s->knobs);
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

/* The knobs set on either side, with their values. */
static int knob_lines(const struct side s[2], struct strbuf *out)
{
	int n = 0, k;

	for (k = 0; k < 2; k++) {
		json_object_object_foreach(s[k].knobs, name, v)
		{
			struct json_object *o = expjson_get(s[!k].knobs, name);
			const char *mine = json_object_get_string(v);

			if (o &&
			    (k || !strcmp(mine, json_object_get_string(o))))
				continue; /* the same, or said from side 0 */
			strbuf_addf(out, "knob %s: ", name);
			if (k)
				strbuf_addf(out, "not set vs '%s'\n", mine);
			else if (o)
				strbuf_addf(out, "'%s' vs '%s'\n", mine,
					    json_object_get_string(o));
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

int diff_unlike(struct json_object *e[2], const int arm[2], struct strbuf *out)
{
	struct side s[2];
	struct workload def;
	int n = 0, k;
	unsigned i;

	for (k = 0; k < 2; k++)
		side_init(&s[k], e[k], arm[k]);
	if (strcmp(expjson_target(e[0]), expjson_target(e[1]))) {
		strbuf_addf(out, "target: '%s' vs '%s'\n", expjson_target(e[0]),
			    expjson_target(e[1]));
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
