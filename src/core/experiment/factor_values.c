/*
 * Two values of a factor that mean the same make two identical arms: an
 * A/A experiment by accident, with a verdict about nothing. Values are
 * compared as they are meant, after the parameter's parsing (4k and
 * 4096) or the knob's translation (deadline and mq-deadline, 4096s and
 * 2048 KiB of read-ahead), and the refusal names both spellings, what
 * they mean, and how to run an A/A experiment on purpose.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "factor_values.h"
#include "../knob/plan.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* What the value of parameter i now set in w means, for people. */
static void param_meaning(const struct workload *w, int i, struct strbuf *out)
{
	const struct param_value *v = &w->values[i];
	const struct param_spec *p = &w->ops->params[i];

	switch (p->type) {
	case PARAM_SIZE:
		strbuf_addf(out, "%llu bytes", (unsigned long long)v->u);
		break;
	case PARAM_PERCENT:
		strbuf_addf(out, "%llu%%", (unsigned long long)v->u);
		break;
	case PARAM_BOOL:
		strbuf_addstr(out, v->u ? "on" : "off");
		break;
	case PARAM_UINT:
		strbuf_addf(out, "%llu", (unsigned long long)v->u);
		break;
	default:
		strbuf_addstr(out, v->s ? v->s : "");
	}
}

/*
 * What each value of parameter factor f means (4k and 4096 both mean
 * 4096 bytes), into out[i]; values that do not parse get "" and are left
 * to experiment_validate() to report.
 */
static void param_meanings(const struct workload_ops *ops,
			   const struct experiment_factor *f,
			   struct strbuf *out)
{
	int row = workload_param_index(ops, f->name);
	struct workload w;
	unsigned i;

	workload_init(&w, ops);
	for (i = 0; i < f->nr_values; i++)
		if (!workload_set_param(&w, f->name, f->values[i], NULL, NULL))
			param_meaning(&w, row, &out[i]);
	workload_release(&w);
}

/*
 * Build into p the plan of knob name set to value, as it would be
 * applied: 0 with its changes in p (one, or a bdflush line's several;
 * release it), or -1 (nothing to release) for a value that does not
 * parse here, left to trial_check() to report.
 */
static int knob_value_plan(struct knob_ctx *kctx, const char *name,
			   const char *value, struct knob_plan *p)
{
	struct strbuf as = STRBUF_INIT, err = STRBUF_INIT;
	int ok;

	knob_plan_init(p, kctx);
	strbuf_addf(&as, "%s=%s", name, value);
	ok = !knob_plan_add(p, as.buf, &err) && !knob_plan_build(p, &err) &&
	     p->nr >= 1;
	strbuf_release(&as);
	strbuf_release(&err);
	if (!ok)
		knob_plan_release(p);
	return ok ? 0 : -1;
}

void factor_plans_make(struct factor_plans *fp, struct knob_ctx *kctx,
		       const struct experiment_factor *f)
{
	unsigned i;

	fp->nr = f->nr_values;
	fp->v = xcalloc(fp->nr + 1, sizeof(*fp->v));
	fp->ok = xcalloc(fp->nr + 1, sizeof(*fp->ok));
	for (i = 0; i < fp->nr; i++)
		fp->ok[i] =
		    !knob_value_plan(kctx, f->name, f->values[i], &fp->v[i]);
}

void factor_plans_release(struct factor_plans *fp)
{
	unsigned i;

	if (!fp)
		return;
	for (i = 0; i < fp->nr; i++)
		if (fp->ok[i])
			knob_plan_release(&fp->v[i]);
	free(fp->v);
	free(fp->ok);
	memset(fp, 0, sizeof(*fp));
}

/*
 * What each value of a knob factor means once translated (deadline is
 * mq-deadline, 4096s is 2048 KiB), from its plans fp, into out[i];
 * values that do not parse get "".
 */
static void knob_meanings(const struct factor_plans *fp, struct strbuf *out)
{
	unsigned i;
	size_t c;

	for (i = 0; i < fp->nr; i++) {
		const struct knob_plan *plan = &fp->v[i];

		if (!fp->ok[i])
			continue;
		for (c = 0; c < plan->nr; c++) {
			if (plan->nr > 1) /* a line: each knob it sets */
				strbuf_addf(&out[i], "%s%s ", c ? ", " : "",
					    plan->v[c].k.name);
			knob_show_value(&plan->v[c].k, plan->v[c].canon.buf,
					&out[i]);
		}
	}
}

int factor_check_values(const struct workload_ops *ops,
			const struct factor_plans *fp,
			const struct experiment_factor *f, const char *spec,
			struct strbuf *err)
{
	struct strbuf *mean = xcalloc(f->nr_values, sizeof(*mean));
	unsigned i, j;
	int ret = 0;

	for (i = 0; i < f->nr_values; i++)
		strbuf_init(&mean[i], 0);
	if (f->is_knob && fp)
		knob_meanings(fp, mean);
	else
		param_meanings(ops, f, mean);
	for (i = 1; i < f->nr_values && !ret; i++)
		for (j = 0; j < i && !ret; j++) {
			if (!strcmp(f->values[i], f->values[j]))
				ret = err_set(err, -EINVAL,
					      "--vary '%s' lists '%s' twice",
					      spec, f->values[i]);
			else if (mean[i].len &&
				 !strcmp(mean[i].buf, mean[j].buf))
				ret = err_set(err, -EINVAL,
					      "--vary '%s' lists the same "
					      "value twice ('%s' and '%s' "
					      "both mean %s)",
					      spec, f->values[j], f->values[i],
					      mean[i].buf);
		}
	if (ret && !strcmp(f->name, "label"))
		strbuf_addstr(err, "; give each arm its own label: --vary "
				   "label=A,B");
	else if (ret)
		strbuf_addstr(err, "; each arm must differ: to measure how "
				   "much identical runs vary (an A/A "
				   "experiment), vary a label instead: "
				   "--vary label=A,B");
	for (i = 0; i < f->nr_values; i++)
		strbuf_release(&mean[i]);
	free(mean);
	return ret;
}

/*
 * Knob factor f: say how each value is read when it is translated
 * ("cfq" is bfq, "2MB" becomes 1952 KiB), as run --set does, each note
 * once, and keep what is really set in f->canon for the arms' labels. A
 * value that does not parse here is left for trial_check() to refuse.
 */
void factor_translate(struct factor_plans *fp, struct experiment_factor *f,
		      const struct session_log *log)
{
	struct strbuf said = STRBUF_INIT;
	unsigned i;

	f->canon = xcalloc(f->nr_values, sizeof(*f->canon));
	for (i = 0; i < f->nr_values && i < fp->nr; i++) {
		struct knob_plan *p = &fp->v[i];
		struct knob_change *c;
		size_t k;

		if (!fp->ok[i])
			continue;
		for (k = 0; k < p->nr; k++) {
			c = &p->v[k];
			if (c->k.deferred || c->note.len < 1)
				continue;
			strbuf_addch(&c->note, '\n');
			if (strstr(said.buf, c->note.buf)) {
				strbuf_setlen(&c->note, c->note.len - 1);
				continue;
			}
			strbuf_addstr(&said, c->note.buf);
			strbuf_setlen(&c->note, c->note.len - 1);
			session_say(log, SESSION_SAY_NOTE, "%s: %s",
				    c->input_name, c->note.buf);
		}
		/* a line of several knobs keeps its label as typed */
		c = &p->v[0];
		if (p->nr == 1 && !c->k.deferred &&
		    strcmp(c->canon.buf, f->values[i]))
			f->canon[i] = xstrdup(c->canon.buf);
		if (p->nr == 1 && !f->set_name && strcmp(c->k.name, f->name))
			f->set_name = xstrdup(c->k.name);
	}
	strbuf_release(&said);
}
