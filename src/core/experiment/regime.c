/*
 * "regimes" of an experiment object (regime.h). A knob factor gets
 * an entry only when no run reached its regime: one run that did means
 * the knob could matter, and the verdict speaks for itself. A run whose
 * regime could not be judged ("unknown") neither proves nor disproves,
 * so it is counted but does not keep the entry away. A knob whose runs
 * were all unknown gets an entry only when its family said why (a raw
 * knob: iotrial does not know what it controls), with state "unknown":
 * the reader hears it once instead of a silence that looks like
 * "reached".
 *
 * A bdflush line (bdflush='40 0 0 0 500 3000 60 0 0') is one factor
 * that sets several knobs, each judged in the run under its bdflush.*
 * name. The line is judged by the fields that differ between its
 * values (those that are alike in every arm cannot tell the arms
 * apart): a run reached the line's regime when it reached any of
 * theirs, and did not when it reached none of them. So a line whose
 * values differ in one field reaches the judgement of that field's
 * modern knob, in its words.
 */
#include <stdlib.h>
#include <string.h>
#include "regime.h"
#include "../knob/knob.h"
#include "../model/model_json.h"
#include "../../util/strbuf.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* s, or "" for a member the document lacks. */
static const char *str0(const char *s)
{
	return s ? s : "";
}

/* The run's regime entries (*nr of them), or NULL. */
static const struct run_regime_doc *run_regime(const struct exp_run *run,
					       size_t *nr)
{
	*nr = run->run ? run->run->nr_regime : 0;
	return *nr ? run->run->regime : NULL;
}

/* The run's regime entry for knob, or NULL. */
static const struct run_regime_doc *entry_of(const struct exp_run *run,
					     const char *knob)
{
	size_t i, n;
	const struct run_regime_doc *list = run_regime(run, &n);

	for (i = 0; i < n; i++)
		if (!strcmp(str0(list[i].knob), knob))
			return &list[i];
	return NULL;
}

/* Does knob take the value of more than one in doc's runs? */
static int knob_varies(const struct experiment_doc *doc, const char *knob)
{
	const char *first = NULL;
	size_t i;

	for (i = 0; i < doc->nr_runs; i++) {
		const struct run_regime_doc *e = entry_of(&doc->runs[i], knob);

		if (!e)
			continue;
		if (!first)
			first = str0(e->value);
		else if (strcmp(first, str0(e->value)))
			return 1;
	}
	return 0;
}

/*
 * The knobs of a bdflush line factor that judge it, into judges: its
 * fields whose value differs between runs, or every field when none
 * does.
 */
static void line_judges(const struct experiment_doc *doc,
			struct knob_list *judges)
{
	struct knob_list all = {0};
	size_t i, j, m;

	for (i = 0; i < doc->nr_runs; i++) {
		const struct run_regime_doc *list =
		    run_regime(&doc->runs[i], &m);

		for (j = 0; j < m; j++) {
			const char *knob = str0(list[j].knob);

			if (knob_is_bdflush_field(knob) &&
			    !knob_list_has(&all, knob))
				knob_list_add(&all, knob);
		}
	}
	for (i = 0; i < all.nr; i++)
		if (knob_varies(doc, all.v[i]))
			knob_list_add(judges, all.v[i]);
	for (i = 0; !judges->nr && i < all.nr; i++)
		knob_list_add(judges, all.v[i]);
	knob_list_release(&all);
}

/* The value of factor in the arm run ran, or "". */
static const char *arm_value(const struct experiment_doc *doc,
			     const struct exp_run *run, const char *factor)
{
	const struct exp_arm *arm;
	/* an arm out of range reads as the first, as a count does */
	int64_t a = run->arm >= 0 && run->arm <= 1000000000 ? run->arm : 0;
	size_t i;

	if ((uint64_t)a >= doc->nr_arms)
		return "";
	arm = &doc->arms[a];
	for (i = 0; i < arm->nr_settings; i++)
		if (!strcmp(str0(arm->settings[i].name), factor))
			return str0(arm->settings[i].value);
	return "";
}

/* Append e's why to sb; with the knob's names when words says so. */
static void add_why(struct strbuf *sb, const struct run_regime_doc *e,
		    int words)
{
	if (sb->len)
		strbuf_addstr(sb, "; ");
	if (words)
		strbuf_addf(sb, "%s (%s): ", str0(e->knob), str0(e->canonical));
	strbuf_addstr(sb, str0(e->why));
}

/* Free what a made entry holds. */
static void entry_release(struct run_regime_doc *e)
{
	free(e->knob);
	free(e->canonical);
	free(e->object);
	free(e->value);
	free(e->state);
	free(e->why);
	memset(e, 0, sizeof(*e));
}

/*
 * One run's judgement of a bdflush line factor from the entries of its
 * judges, into out (knob, canonical, object, value, state, why): false,
 * out untouched, when the run has none of them.
 */
static bool line_entry(const struct experiment_doc *doc,
		       const struct exp_run *run, const char *factor,
		       const struct knob_list *judges,
		       struct run_regime_doc *out)
{
	struct strbuf why = STRBUF_INIT, names = STRBUF_INIT,
		      values = STRBUF_INIT;
	const struct run_regime_doc *first = NULL;
	int reached = 0, not_reached = 0, n = 0;
	const char *value = arm_value(doc, run, factor);
	size_t i;

	for (i = 0; i < judges->nr; i++) {
		const struct run_regime_doc *e = entry_of(run, judges->v[i]);

		if (!e)
			continue;
		if (!first)
			first = e;
		n++;
		reached += !strcmp(str0(e->state), "reached");
		not_reached += !strcmp(str0(e->state), "not_reached");
		strbuf_addf(&names, "%s%s", names.len ? ", " : "",
			    str0(e->canonical));
		strbuf_addf(&values, "%s%s=%s", values.len ? " " : "",
			    str0(e->knob), str0(e->value));
	}
	if (!first) {
		strbuf_release(&names);
		strbuf_release(&values);
		return false;
	}
	/* the reasons of the state the run is given: those that reached
	 * it, or all of them */
	for (i = 0; i < judges->nr; i++) {
		const struct run_regime_doc *e = entry_of(run, judges->v[i]);

		if (e && *str0(e->why) &&
		    (!reached || !strcmp(str0(e->state), "reached")))
			add_why(&why, e, judges->nr > 1);
	}
	memset(out, 0, sizeof(*out));
	out->knob = xstrdup(factor);
	out->canonical = strbuf_detach(&names, NULL);
	out->object = xstrdup(str0(first->object));
	out->value = *value ? xstrdup(value) : strbuf_detach(&values, NULL);
	out->state = xstrdup(reached		? "reached"
			     : not_reached == n ? "not_reached"
						: "unknown");
	out->why = strbuf_detach(&why, NULL);
	strbuf_release(&values);
	return true;
}

/* Each run's entry for a factor, in the order of runs (NULL where a run
 * has none), and the entries made for a bdflush line. */
struct factor_entries {
	const struct run_regime_doc **e; /* nr_runs of them */
	struct run_regime_doc *made;	 /* nr_runs of them */
	size_t n;
};

/*
 * Each run's entry for factor into fe: its own entry, or for a bdflush
 * line the entry line_entry() makes of its fields'.
 */
static void factor_entries(const struct experiment_doc *doc, const char *factor,
			   struct factor_entries *fe)
{
	struct knob_list judges = {0};
	int line = knob_is_bdflush_line(factor);
	size_t i;

	fe->n = doc->nr_runs;
	fe->e = xcalloc(fe->n + 1, sizeof(*fe->e));
	fe->made = xcalloc(fe->n + 1, sizeof(*fe->made));
	if (line)
		line_judges(doc, &judges);
	for (i = 0; i < fe->n; i++) {
		const struct exp_run *run = &doc->runs[i];

		if (!line)
			fe->e[i] = entry_of(run, factor);
		else if (line_entry(doc, run, factor, &judges, &fe->made[i]))
			fe->e[i] = &fe->made[i];
	}
	knob_list_release(&judges);
}

static void factor_entries_release(struct factor_entries *fe)
{
	size_t i;

	for (i = 0; i < fe->n; i++)
		entry_release(&fe->made[i]);
	free(fe->made);
	free(fe->e);
}

/* The entry of g's values for value, made when first seen. */
static struct exp_regime_value *value_entry(struct exp_regime *g, size_t *alloc,
					    const char *value)
{
	struct exp_regime_value *v;
	size_t i;

	for (i = 0; i < g->nr_values; i++)
		if (!strcmp(g->values[i].value, value))
			return &g->values[i];
	ALLOC_GROW(g->values, g->nr_values + 1, *alloc);
	v = &g->values[g->nr_values++];
	memset(v, 0, sizeof(*v));
	v->value = xstrdup(value);
	return v;
}

/* Free what g holds. */
static void regime_release(struct exp_regime *g)
{
	size_t i;

	for (i = 0; i < g->nr_values; i++) {
		free(g->values[i].value);
		free(g->values[i].why);
	}
	free(g->values);
	memset(g, 0, sizeof(*g));
}

/* One factor's entry into out: false, out empty, when a run reached it
 * or none was judged. */
static bool factor_regime(const struct experiment_doc *doc, const char *factor,
			  struct exp_regime *out)
{
	const struct run_regime_doc *first = NULL, *unknown_why = NULL;
	struct factor_entries fe;
	int judged = 0, not_reached = 0;
	size_t i, alloc = 0;
	bool ret = false;

	memset(out, 0, sizeof(*out));
	factor_entries(doc, factor, &fe);
	for (i = 0; i < fe.n; i++) {
		const struct run_regime_doc *e = fe.e[i];
		struct exp_regime_value *v;

		if (!e)
			continue;
		judged++;
		if (!strcmp(str0(e->state), "reached"))
			goto out;
		if (strcmp(str0(e->state), "not_reached")) {
			if (!unknown_why && *str0(e->why))
				unknown_why = e;
			continue;
		}
		not_reached++;
		if (!first)
			first = e;
		v = value_entry(out, &alloc, str0(e->value));
		v->runs++;
		if (!v->why)
			v->why = xstrdup(str0(e->why));
	}
	if (!not_reached && !unknown_why)
		goto out;
	if (!first)
		first = unknown_why;
	out->factor = xstrdup(factor);
	out->state = xstrdup(not_reached ? "not_reached" : "unknown");
	if (!not_reached)
		out->why = xstrdup(str0(unknown_why->why));
	out->canonical = xstrdup(str0(first->canonical));
	out->object = xstrdup(str0(first->object));
	out->runs = judged;
	out->not_reached = not_reached;
	ret = true;
out:
	if (!ret)
		regime_release(out);
	factor_entries_release(&fe);
	return ret;
}

void regime_analyze(struct experiment_doc *doc)
{
	size_t i, alloc = 0;

	exp_regimes_free(doc->regimes, doc->nr_regimes);
	doc->regimes = NULL;
	doc->nr_regimes = 0;
	doc->has_regimes = MODEL_SET;
	for (i = 0; i < doc->nr_factors; i++) {
		const struct exp_factor *f = &doc->factors[i];

		if (strcmp(str0(f->kind), "knob") || !*str0(f->name))
			continue;
		ALLOC_GROW(doc->regimes, doc->nr_regimes + 1, alloc);
		if (factor_regime(doc, f->name, &doc->regimes[doc->nr_regimes]))
			doc->nr_regimes++;
	}
}
