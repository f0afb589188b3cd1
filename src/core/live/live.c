/*
 * The live switchback (live.h): plan, switch, measure, restore. Knob
 * changes go through knob plans applied in one journal session; the mark
 * taken when it opens is where every ending rolls back to, newest
 * record first, so the original values come back whatever arm was in
 * force.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "live.h"
#include "live-int.h"
#include "../knob/plan.h"
#include "../model/experiment_doc.h"
#include "../observe/procfile.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* "KNOB=A,B,C" into factor f. */
static int parse_vary(const char *s, struct experiment_factor *f,
		      struct strbuf *err)
{
	const char *eq = strchr(s, '='), *p;

	memset(f, 0, sizeof(*f));
	if (!eq || eq == s || !eq[1])
		return err_set(err, -EINVAL,
			       "cannot read --vary '%s': give KNOB=A,B", s);
	f->name = xstrndup(s, (size_t)(eq - s));
	for (p = eq + 1;;) {
		const char *c = strchr(p, ',');
		size_t n = c ? (size_t)(c - p) : strlen(p);

		if (!n)
			return err_set(err, -EINVAL,
				       "--vary '%s' has an empty value", s);
		f->values = xrealloc(f->values,
				     (f->nr_values + 1) * sizeof(*f->values));
		f->values[f->nr_values++] = xstrndup(p, n);
		if (!c)
			break;
		p = c + 1;
	}
	if (f->nr_values < 2)
		return err_set(
		    err, -EINVAL,
		    "--vary '%s' needs two values or more to compare", s);
	f->is_knob = strcmp(f->name, "label") != 0;
	return 0;
}

/* Is canon allowed by range ("LO..HI" or "V1|V2")? */
static bool in_range(const char *canon, const char *range)
{
	const char *dots = strstr(range, "..");
	char *end;
	double v, lo, hi;

	if (!dots) {
		size_t n = strlen(canon);
		const char *p = range;

		while (p) {
			const char *bar = strchr(p, '|');
			size_t m = bar ? (size_t)(bar - p) : strlen(p);

			if (m == n && !strncmp(p, canon, n))
				return true;
			p = bar ? bar + 1 : NULL;
		}
		return false;
	}
	v = strtod(canon, &end);
	if (end == canon)
		return false;
	lo = dots == range ? -INFINITY : strtod(range, NULL);
	hi = dots[2] ? strtod(dots + 2, NULL) : INFINITY;
	return v >= lo && v <= hi;
}

/* Check change c against the --max-change limits. */
static int check_limits(const struct live_config *c,
			const struct knob_change *ch, struct strbuf *err)
{
	unsigned i;

	for (i = 0; i < c->nr_limits; i++) {
		const struct live_limit *l = &c->limits[i];

		if (strcmp(l->knob, ch->k.name) &&
		    strcmp(l->knob, ch->input_name))
			continue;
		if (!in_range(ch->canon.buf, l->range))
			return err_set(err, -EPERM,
				       "'%s=%s' is outside --max-change %s=%s; "
				       "observe changes nothing",
				       ch->input_name, ch->canon.buf, l->knob,
				       l->range);
	}
	return 0;
}

int live_arm_plan(struct live *lv, unsigned arm, struct knob_plan *plan,
		  struct strbuf *err)
{
	const struct experiment_arm *a = &lv->e.arms[arm];
	struct strbuf as = STRBUF_INIT;
	unsigned i;
	int ret = 0;

	knob_plan_init(plan, lv->c.kctx);
	for (i = 0; i < lv->nr_factors && !ret; i++) {
		if (!a->settings[i].is_knob)
			continue;
		strbuf_setf(&as, "%s=%s", a->settings[i].name,
			    a->settings[i].value);
		ret = knob_plan_add(plan, as.buf, err);
	}
	/* an arm that sets nothing (label=a,b) has an empty plan */
	if (!ret && plan->nr_raw)
		ret = knob_plan_build(plan, err);
	strbuf_release(&as);
	return ret;
}

int live_plan(struct live *lv, const struct live_config *c, struct strbuf *err)
{
	struct experiment_config ec;
	struct sb_plan_opts po = {0};
	unsigned i, j, min;
	int ret = 0;

	memset(lv, 0, sizeof(*lv));
	strbuf_init(&lv->stopped, 0);
	lv->c = *c;
	if (!c->nr_vary)
		return err_set(err, -EINVAL,
			       "nothing to observe: give --vary KNOB=A,B");
	if (!lw_metric_known(c->metric, NULL, NULL))
		return err_set(err, -EINVAL,
			       "unknown --metric '%s' (metric, mbps, iops, "
			       "r_await, w_await, await, aqu_sz, util, "
			       "dirty, writeback)",
			       c->metric);
	if (!strcmp(c->metric, "metric") && (!c->src || !c->src->kind))
		return err_set(err, -EINVAL,
			       "--metric metric needs --metric-cmd or "
			       "--metric-file with --metric-regex");
	if (c->per_load && strcmp(c->per_load, "requests") &&
	    strcmp(c->per_load, "mb") && strcmp(c->per_load, "metric"))
		return err_set(err, -EINVAL,
			       "unknown --per-load '%s' (requests, mb, metric)",
			       c->per_load);
	if (c->per_load && !strcmp(c->per_load, "metric") &&
	    (!c->src || !c->src->kind))
		return err_set(err, -EINVAL,
			       "--per-load metric needs --metric-cmd or "
			       "--metric-file");
	if (!c->window_ns)
		return err_set(err, -EINVAL, "give --window DUR (e.g. 5m)");
	lv->factors = xcalloc(c->nr_vary, sizeof(*lv->factors));
	for (i = 0; i < c->nr_vary && !ret; i++, lv->nr_factors++)
		ret = parse_vary(c->vary[i], &lv->factors[i], err);
	if (ret)
		return ret;
	experiment_config_init(&ec);
	ec.factors = lv->factors;
	ec.nr_factors = lv->nr_factors;
	ret = experiment_plan(&lv->e, &ec, err);
	if (ret)
		return ret;
	for (i = 0; i < lv->e.nr_arms && !ret; i++) {
		struct knob_plan plan;

		ret = live_arm_plan(lv, i, &plan, err);
		for (j = 0; !ret && j < plan.nr; j++)
			ret = check_limits(c, &plan.v[j], err);
		if (!ret && !c->dry_run)
			ret = knob_plan_need_root(&plan, err);
		knob_plan_release(&plan);
		if (ret) {
			struct strbuf why = STRBUF_INIT;

			strbuf_addstr(&why, err->buf);
			strbuf_setf(err, "arm '%s': %s", lv->e.arms[i].label,
				    why.buf);
			strbuf_release(&why);
		}
	}
	if (ret)
		return ret;
	min = sb_min_blocks(lv->e.nr_arms, 0.05);
	if (!min || c->blocks < min)
		return err_set(err, -ERANGE,
			       "%u windows per arm cannot reach a verdict on "
			       "%u arms: the paired test needs at least %u; "
			       "give more --windows or a longer --budget",
			       c->blocks, lv->e.nr_arms, min);
	po.nr_arms = lv->e.nr_arms;
	po.nr_blocks = c->blocks;
	po.settle = c->settle_ns > 0;
	po.seed = c->seed;
	return sb_schedule_make(&lv->sched, &po);
}

double live_planned_s(const struct live *lv)
{
	double s = 0;
	size_t i;

	for (i = 0; i < lv->sched.nr; i++)
		s += (double)(lv->sched.v[i].settle ? lv->c.settle_ns
						    : lv->c.window_ns) /
		     1e9;
	return s;
}

/* Seconds for people: "1h 05m", "5m 00s", "1.5 s". */
static void fmt_duration(struct strbuf *out, double s)
{
	if (s >= 3600)
		strbuf_addf(out, "%dh %02dm", (int)(s / 3600),
			    (int)fmod(s / 60, 60));
	else if (s >= 60)
		strbuf_addf(out, "%dm %02ds", (int)(s / 60), (int)fmod(s, 60));
	else
		strbuf_addf(out, "%.3g s", s);
}

void live_describe(const struct live *lv, struct strbuf *out)
{
	size_t i;
	unsigned a, settles = 0;

	strbuf_addf(out, "observe: %u arms, %u blocks, %zu windows (",
		    lv->e.nr_arms, lv->c.blocks, lv->sched.nr);
	for (i = 0; i < lv->sched.nr; i++)
		settles += lv->sched.v[i].settle;
	strbuf_addf(out, "%u measured, %u settle), window ",
		    (unsigned)lv->sched.nr - settles, settles);
	fmt_duration(out, (double)lv->c.window_ns / 1e9);
	strbuf_addstr(out, ", settle ");
	if (lv->c.settle_ns)
		fmt_duration(out, (double)lv->c.settle_ns / 1e9);
	else
		strbuf_addstr(out, "none");
	strbuf_addstr(out, "\nexpected duration: ");
	fmt_duration(out, live_planned_s(lv));
	strbuf_addf(out, " (seed %llu)\narms:\n",
		    (unsigned long long)lv->c.seed);
	for (a = 0; a < lv->e.nr_arms; a++)
		strbuf_addf(out, "  %c  %s%s\n", 'A' + (a % 26),
			    lv->e.arms[a].label,
			    a == lv->e.baseline ? " (baseline)" : "");
	strbuf_addstr(out, "schedule (lower case: settle, not analysed):\n");
	for (i = 0; i < lv->sched.nr; i++) {
		const struct sb_slot *s = &lv->sched.v[i];

		if (!i || s->block != lv->sched.v[i - 1].block)
			strbuf_addf(out, "%s  block %2u: ", i ? "\n" : "",
				    s->block + 1);
		strbuf_addch(out, (s->settle ? 'a' : 'A') + (s->arm % 26));
	}
	strbuf_addch(out, '\n');
}

void live_release(struct live *lv)
{
	unsigned i, j;

	if (!lv)
		return;
	for (i = 0; i < lv->nr_factors; i++) {
		free(lv->factors[i].name);
		for (j = 0; j < lv->factors[i].nr_values; j++)
			free(lv->factors[i].values[j]);
		free(lv->factors[i].values);
	}
	free(lv->factors);
	experiment_release(&lv->e);
	sb_schedule_release(&lv->sched);
	experiment_doc_free(lv->doc);
	strbuf_release(&lv->stopped);
	memset(lv, 0, sizeof(*lv));
}
