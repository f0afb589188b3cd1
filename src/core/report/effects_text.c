/*
 * Effects by factor, for people. With two factors the table of every arm
 * against one baseline arm mixes the factors up (scheduler=mq-deadline
 * jobs=2 against scheduler=none jobs=1 changes both); this groups the
 * comparisons by the factor they change, one row per combination of the
 * others, and then says in a sentence whether a factor's effect depends
 * on another: the answer to "does the scheduler help, and everywhere?".
 * An effect or an interaction resting on runs iotrial flagged is marked
 * and footnoted as a verdict is (suspect.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "effects_text.h"
#include "sections.h"
#include "p_note.h"
#include "report_doc.h"
#include "report_plots.h"
#include "suspect.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* True when effects a and b are of the same factor and level. */
static bool same_group(const struct exp_effect *a, const struct exp_effect *b)
{
	return !strcmp(rd_s(a->factor), rd_s(b->factor)) &&
	       !strcmp(rd_s(a->level), rd_s(b->level));
}

void report_effect_heading(const struct exp_effect *e, struct strbuf *out)
{
	strbuf_addf(out, "%s=%s vs %s=%s", rd_s(e->factor), rd_s(e->level),
		    rd_s(e->factor), rd_s(e->baseline_level));
	if (e->nr_within) {
		strbuf_addstr(out, " at ");
		report_pairs(out, e->within, e->nr_within, " ");
	}
}

void report_interaction_heading(const struct exp_interaction *x,
				struct strbuf *out)
{
	strbuf_addf(out, "%s=%s's effect at %s=%s vs at %s=%s", rd_s(x->factor),
		    rd_s(x->level), rd_s(x->by), rd_s(x->by_level), rd_s(x->by),
		    rd_s(x->by_baseline_level));
	if (x->nr_within) {
		strbuf_addstr(out, " with ");
		report_pairs(out, x->within, x->nr_within, " ");
	}
}

/* One effect's row. */
static void effect_row(const struct experiment_doc *doc,
		       const struct exp_effect *x, struct emit *e)
{
	struct suspect_src s;
	struct strbuf t = STRBUF_INIT;

	strbuf_addstr(&t, "  at ");
	report_pairs(&t, x->within, x->nr_within, " ");
	emit_cell(e, "%s", t.buf);
	strbuf_reset(&t);
	if (isfinite(CMP_NUM(x, ratio)))
		strbuf_addf(&t, "%.3f [%.3f, %.3f]", x->cmp->ratio,
			    x->cmp->ci_low, x->cmp->ci_high);
	emit_cell(e, "%s", t.buf);
	strbuf_reset(&t);
	if (isfinite(CMP_NUM(x, p_adjusted)))
		report_add_p(&t, x->cmp->p_adjusted);
	emit_cell(e, "%s", t.buf);
	emit_cell(e, "%d", rd_count(x->n));
	emit_cell(e, "%s", rd_s(x->verdict));
	suspect_src_effect(x, &s);
	if (suspect_doc_is(doc, &s))
		emit_mark(e, EMIT_MARK_SUSPECT);
	emit_row(e);
	strbuf_release(&t);
}

/* The number of levels of factor name, from doc's "factors". */
static size_t nr_levels(const struct experiment_doc *doc, const char *name)
{
	size_t i;

	for (i = 0; i < doc->nr_factors; i++)
		if (!strcmp(rd_s(doc->factors[i].name), name))
			return doc->factors[i].nr_values;
	return 0;
}

/* ": 1.10x at jobs=1, 0.97x at jobs=2 (interaction p 0.004)" */
static void interaction_numbers(struct strbuf *out,
				const struct exp_interaction *x)
{
	double ra = x->ratio_at_baseline, rb = x->ratio_at_level;

	if (isfinite(ra) && isfinite(rb))
		strbuf_addf(out, ": %.2fx at %s=%s, %.2fx at %s=%s", ra,
			    rd_s(x->by), rd_s(x->by_baseline_level), rb,
			    rd_s(x->by), rd_s(x->by_level));
	if (isfinite(CMP_NUM(x, p_adjusted))) {
		strbuf_addstr(out, " (interaction p ");
		report_add_p(out, x->cmp->p_adjusted);
		strbuf_addch(out, ')');
	}
}

/* One sentence on one interaction, an item of the list. */
static void interaction_line(const struct experiment_doc *doc,
			     const struct exp_interaction *x, struct emit *e)
{
	const char *v = rd_s(x->verdict), *by = rd_s(x->by);
	struct strbuf t = STRBUF_INIT, subj = STRBUF_INIT;
	double margin =
	    doc->has_equivalence == MODEL_SET ? doc->equivalence : NAN;
	struct suspect_src s;

	if (x->nr_within) {
		strbuf_addstr(&t, "with ");
		report_pairs(&t, x->within, x->nr_within, " ");
		strbuf_addstr(&t, ", ");
	}
	/* "scheduler's effect", or "scheduler=bfq's effect" with 3+
	 * levels */
	strbuf_addstr(&subj, rd_s(x->factor));
	if (nr_levels(doc, rd_s(x->factor)) > 2)
		strbuf_addf(&subj, "=%s", rd_s(x->level));
	strbuf_addstr(&subj, "'s effect");
	if (!strcmp(v, "interaction"))
		strbuf_addf(&t, "%s depends on %s", subj.buf, by);
	else if (!strcmp(v, "no interaction") && isfinite(margin))
		strbuf_addf(&t,
			    "%s does not depend on %s (the same within %g%%)",
			    subj.buf, by, 100 * margin);
	else if (!strcmp(v, "no verdict"))
		strbuf_addf(&t, "too few runs to tell whether %s depends on %s",
			    subj.buf, by);
	else
		strbuf_addf(&t, "no evidence that %s depends on %s", subj.buf,
			    by);
	interaction_numbers(&t, x);
	suspect_src_interaction(x, &s);
	emit_item(e, suspect_doc_is(doc, &s) ? EMIT_MARK_SUSPECT : 0, "%s",
		  t.buf);
	strbuf_release(&t);
	strbuf_release(&subj);
}

/* True when interactions a and b ask about the same two factors. */
static bool same_pair(const struct exp_interaction *a,
		      const struct exp_interaction *b)
{
	return !strcmp(rd_s(a->factor), rd_s(b->factor)) &&
	       !strcmp(rd_s(a->by), rd_s(b->by));
}

/*
 * The interactions of one pair of factors, xs[from..to): each one that
 * is significant, or when none is, one line for the pair (the whole
 * sentence when there is one test).
 */
static void pair_lines(const struct experiment_doc *doc, size_t from, size_t to,
		       struct emit *e)
{
	const struct exp_interaction *xs = doc->interactions, *x = &xs[from];
	size_t i, shown = 0, nr_equivalent = 0;
	double least_p = NAN;
	struct strbuf t = STRBUF_INIT;

	for (i = from; i < to; i++) {
		double p = CMP_NUM(&xs[i], p_adjusted);

		if (!strcmp(rd_s(xs[i].verdict), "interaction")) {
			interaction_line(doc, &xs[i], e);
			shown++;
		}
		if (!strcmp(rd_s(xs[i].verdict), "no interaction"))
			nr_equivalent++;
		if (isfinite(p) && !(p >= least_p))
			least_p = p;
	}
	if (shown)
		return;
	if (to - from == 1) {
		interaction_line(doc, x, e);
		return;
	}
	if (nr_equivalent == to - from)
		strbuf_addf(&t,
			    "%s's effect does not depend on %s (the same "
			    "within %g%% in all %zu tests",
			    rd_s(x->factor), rd_s(x->by),
			    100 * (doc->has_equivalence == MODEL_SET
				       ? doc->equivalence
				       : NAN),
			    to - from);
	else
		strbuf_addf(&t,
			    "no evidence that %s's effect depends on %s (%zu "
			    "tests",
			    rd_s(x->factor), rd_s(x->by), to - from);
	if (isfinite(least_p)) {
		strbuf_addstr(&t, ", smallest interaction p ");
		report_add_p(&t, least_p);
	}
	strbuf_addch(&t, ')');
	emit_item(e, 0, "%s", t.buf);
	strbuf_release(&t);
}

/* The forest plot of the effects, each labelled by what it compares. */
static void effects_forest(const struct experiment_doc *doc, struct strbuf *out)
{
	size_t i, n = doc->nr_effects;
	struct plot_forest_row *rows = xcalloc(n + 1, sizeof(*rows));
	struct strbuf *labels = xcalloc(n + 1, sizeof(*labels));

	for (i = 0; i < n; i++) {
		const struct exp_effect *x = &doc->effects[i];

		strbuf_init(&labels[i], 0);
		report_effect_heading(x, &labels[i]);
		rows[i].label = labels[i].buf;
		plot_forest_row_of(doc, x->cmp, x->verdict, &rows[i]);
		suspect_src_effect(x, &rows[i].suspect);
	}
	plot_forest_rows(doc, rows, n, "Effect of each factor",
			 "level / baseline level, the others alike", out);
	for (i = 0; i < n; i++)
		strbuf_release(&labels[i]);
	free(labels);
	free(rows);
}

bool report_effects_present(const struct experiment_doc *doc)
{
	return doc->nr_effects && !report_single_run(doc);
}

void report_effects_section(const struct experiment_doc *doc, struct emit *e)
{
	size_t i, from, width = 6, said = 0;
	struct strbuf t = STRBUF_INIT;

	for (i = 0; i < doc->nr_effects; i++) {
		strbuf_reset(&t);
		strbuf_addstr(&t, "  at ");
		report_pairs(&t, doc->effects[i].within,
			     doc->effects[i].nr_within, " ");
		width = t.len > width ? t.len : width;
	}
	{
		const struct emit_col cols[] = {
		    {"effect", EMIT_LABEL, 0, 1, width},
		    {"ratio [95% CI]", EMIT_NUM, 0, 1, 22},
		    {"p", EMIT_NUM, 0, 1, 7},
		    {"n", EMIT_NUM, EMIT_WIDE, 1, 0},
		    {"verdict", EMIT_VERDICT, 0, 1, 0},
		};
		const struct emit_table tab = {"effects", cols, 5, false};

		emit_heading(e, 2, "Effects of each factor", NULL);
		emit_table(e, &tab);
		for (i = 0; i < doc->nr_effects; i++) {
			const struct exp_effect *x = &doc->effects[i];

			if (!i || !same_group(x, x - 1)) {
				emit_cell(e, "%s=%s vs %s=%s", rd_s(x->factor),
					  rd_s(x->level), rd_s(x->factor),
					  rd_s(x->baseline_level));
				emit_row(e);
			}
			effect_row(doc, x, e);
		}
		emit_table_end(e);
	}
	strbuf_reset(&t);
	report_p_note_effects(doc, report_effect_heading, &t);
	if (t.len)
		emit_note(e, EMIT_NOTE_PLAIN, "%s", t.buf);
	for (i = 0; i < doc->nr_effects; i++) {
		struct suspect_src s;

		strbuf_reset(&t);
		report_effect_heading(&doc->effects[i], &t);
		suspect_src_effect(&doc->effects[i], &s);
		if (!suspect_doc_is(doc, &s))
			continue;
		{
			struct strbuf note = STRBUF_INIT;

			suspect_doc_note(doc, &s, t.buf, &note);
			emit_note(e, EMIT_NOTE_SUSPECT, "%s", note.buf);
			strbuf_release(&note);
		}
		said++;
	}
	if (said)
		emit_note(e, EMIT_NOTE_KEY, "%s",
			  "the runs iotrial flagged may describe the flaw, not "
			  "the setting; see the warnings");
	emit_plot(e, effects_forest);
	if (doc->nr_interactions) {
		emit_gap(e);
		emit_heading(
		    e, 3, "Does one factor's effect depend on another?", NULL);
		emit_list(e, 0);
		for (from = 0, i = 1; i <= doc->nr_interactions; i++)
			if (i == doc->nr_interactions ||
			    !same_pair(&doc->interactions[i],
				       &doc->interactions[from])) {
				pair_lines(doc, from, i, e);
				from = i;
			}
		emit_list_end(e);
		for (i = 0; i < doc->nr_interactions; i++) {
			struct suspect_src s;
			struct strbuf note = STRBUF_INIT;

			strbuf_reset(&t);
			report_interaction_heading(&doc->interactions[i], &t);
			suspect_src_interaction(&doc->interactions[i], &s);
			suspect_doc_note(doc, &s, t.buf, &note);
			if (note.len)
				emit_note(e, EMIT_NOTE_SUSPECT, "%s", note.buf);
			strbuf_release(&note);
		}
	}
	strbuf_release(&t);
}
