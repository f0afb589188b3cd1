/*
 * The verdict table of an experiment: the answer to the user's question,
 * so it leads with the verdict column's meaning and keeps the numbers
 * that back it (CI, p) on the same line, as benchstat does; and the
 * other metrics per arm beside it.
 */
#include <math.h>
#include <string.h>
#include "sections.h"
#include "fmt.h"
#include "p_note.h"
#include "report_doc.h"
#include "report_ops.h"
#include "report_plots.h"
#include "suspect.h"
#include "../../util/units.h"
#include "../../util/banned.h"

/* The width of the arm column: the longest label, at least "arm". */
static size_t label_width(const struct experiment_doc *doc)
{
	size_t i, w = 3;

	for (i = 0; i < doc->nr_arms; i++)
		if (strlen(rd_s(doc->arms[i].label)) > w)
			w = strlen(rd_s(doc->arms[i].label));
	return w;
}

/* The runs of arm a. */
static int arm_n(const struct exp_arm *a)
{
	return a->summary ? rd_count(a->summary->n) : 0;
}

/* A metric cell: "12.3k". */
static void cell_metric(struct emit *e, double v)
{
	struct strbuf t = STRBUF_INIT;

	report_fmt_metric(&t, v);
	emit_cell(e, "%s", t.buf);
	strbuf_release(&t);
}

/* One arm's row. */
static void arm_row(const struct experiment_doc *doc, const struct exp_arm *a,
		    struct emit *e)
{
	struct report_ratio r;
	int64_t base =
	    doc->has_baseline == MODEL_SET ? rd_count(doc->baseline) : 0;
	bool is_base = rd_count(a->arm) == base;
	const struct exp_verdict *v =
	    is_base ? NULL : report_verdict(doc, a->arm);
	int n = arm_n(a);
	double cv = ARM_NUM(a, cv);

	emit_cell(e, "%s", rd_s(a->label));
	cell_metric(e, ARM_NUM(a, median));
	/* one run has no interval and no spread: "[823, 823]" and "0.0%"
	 * read as certainty */
	if (n < 2) {
		emit_cell(e, "-");
		emit_cell(e, "-");
	} else {
		struct strbuf t = STRBUF_INIT;

		strbuf_addch(&t, '[');
		report_fmt_metric(&t, ARM_NUM(a, ci_low));
		strbuf_addstr(&t, ", ");
		report_fmt_metric(&t, ARM_NUM(a, ci_high));
		strbuf_addch(&t, ']');
		emit_cell(e, "%s", t.buf);
		strbuf_release(&t);
		if (isfinite(cv))
			emit_cell(e, "%.1f%%", 100 * cv);
		else
			emit_cell(e, "%s", "");
	}
	emit_cell(e, "%d", n);
	if (!v) {
		emit_cell(e, "%s", is_base ? "baseline" : "-");
		emit_row(e);
		return;
	}
	report_verdict_ratio(v, &r);
	if (isfinite(r.ratio))
		emit_cell(e, "%.3f [%.3f, %.3f]", r.ratio, r.ci_low, r.ci_high);
	else
		emit_cell(e, "%s", "");
	if (isfinite(CMP_NUM(v, p_adjusted))) {
		struct strbuf t = STRBUF_INIT;

		report_add_p(&t, v->cmp->p_adjusted);
		emit_cell(e, "%s", t.buf);
		strbuf_release(&t);
	} else {
		emit_cell(e, "%s", "");
	}
	emit_cell(e, "%s", rd_s(v->verdict));
	if (suspect_verdict_is(doc, v))
		emit_mark(e, EMIT_MARK_SUSPECT);
	emit_row(e);
}

/* Does some verdict of doc have a ratio computed by test? */
static bool has_ratio_from(const struct experiment_doc *doc, const char *test)
{
	size_t i;

	for (i = 0; i < doc->nr_verdicts; i++)
		if (isfinite(CMP_NUM(&doc->verdicts[i], ratio)) &&
		    !strcmp(rd_s(doc->verdicts[i].cmp->test), test))
			return true;
	return false;
}

/*
 * Under the table, for each verdict that rests on the comparison
 * adjusted for the runs' covariates (verdict_from "adjusted"): that its
 * row shows that comparison, with which covariates, and the plain one
 * beside; and what a duet's ratios are.
 */
static void adjusted_notes(const struct experiment_doc *doc, struct emit *e)
{
	struct strbuf t = STRBUF_INIT;
	size_t i, k;

	for (i = 0; i < doc->nr_verdicts; i++) {
		const struct exp_verdict *v = &doc->verdicts[i];
		const struct exp_adjusted *a = v->adjusted;

		if (!a || !v->verdict_from ||
		    strcmp(v->verdict_from, "adjusted") || !isfinite(a->ratio))
			continue;
		strbuf_reset(&t);
		strbuf_addf(&t,
			    "%s: its ratio, interval and verdict are adjusted "
			    "for the runs' covariates\n(",
			    rd_s(v->label));
		for (k = 0; k < a->nr_covariates; k++)
			strbuf_addf(&t, "%s%s", k ? ", " : "",
				    rd_s(a->covariates[k]));
		if (isfinite(a->r2))
			strbuf_addf(&t, "%sR^2 %.2f", k ? "; " : "", a->r2);
		strbuf_addstr(&t, "); without them");
		if (isfinite(CMP_NUM(v, ratio)))
			strbuf_addf(&t, " %.3f [%.3f, %.3f]", v->cmp->ratio,
				    v->cmp->ci_low, v->cmp->ci_high);
		if (isfinite(CMP_NUM(v, p))) {
			strbuf_addstr(&t, ", p ");
			report_add_p(&t, v->cmp->p);
		}
		emit_note(e, EMIT_NOTE_PLAIN, "%s", t.buf);
	}
	if (doc->has_duet == MODEL_SET)
		emit_note(e, EMIT_NOTE_PLAIN,
			  "the arms of each block ran at once (--duet), each "
			  "on one of %d scratch\ntargets alike: the effects "
			  "are measured beside the other arms",
			  rd_count(doc->duet));
	strbuf_release(&t);
}

/*
 * Under the table: what the ratio column is. Paired by block, it is not
 * the quotient of the two medians beside it (12.1k against 11k can come
 * with a ratio of 0.976), and people read it as if it were. Then any
 * interval that reaches less than 95% because the blocks are too few,
 * and the footnotes of the suspect verdicts.
 */
static void table_notes(const struct experiment_doc *doc, struct emit *e)
{
	bool paired = has_ratio_from(doc, "wilcoxon-signed-rank");
	bool unpaired = has_ratio_from(doc, "mann-whitney-u");
	size_t i, said = 0;

	if (paired || unpaired)
		emit_gap(e);
	if (paired)
		emit_note(e, EMIT_NOTE_PLAIN, "%s",
			  "ratio: arm over baseline within each block, the "
			  "median of the per-block\nratios' pairwise means "
			  "(Hodges-Lehmann), not the ratio of the medians;\n"
			  "its CI and p are the signed-rank test's on the same "
			  "per-block ratios");
	if (unpaired)
		emit_note(e, EMIT_NOTE_PLAIN, "%s",
			  "ratio: the median of the ratios of every arm run to "
			  "every baseline run\n(Hodges-Lehmann), with the "
			  "Moses CI; p from the Mann-Whitney U test");
	if (paired || unpaired) {
		struct strbuf note = STRBUF_INIT;

		report_p_note_arms(doc, &note);
		if (note.len)
			emit_note(e, EMIT_NOTE_PLAIN, "%s", note.buf);
		strbuf_release(&note);
	}
	adjusted_notes(doc, e);
	for (i = 0; i < doc->nr_verdicts; i++) {
		const struct exp_verdict *v = &doc->verdicts[i];

		if (isfinite(CMP_NUM(v, ratio)) &&
		    v->cmp->has_ci_coverage == MODEL_SET &&
		    v->cmp->ci_coverage < 0.945)
			emit_note(e, EMIT_NOTE_PLAIN,
				  "the ratio CI of %s covers %.1f%%, not 95%%: "
				  "too few runs for a 95%% interval",
				  rd_s(v->label), 100 * v->cmp->ci_coverage);
	}
	for (i = 0; i < doc->nr_verdicts; i++) {
		struct strbuf t = STRBUF_INIT;

		if (suspect_verdict_is(doc, &doc->verdicts[i])) {
			if (!said++)
				emit_gap(e);
			suspect_doc_footnote(doc, &doc->verdicts[i], &t);
			emit_note(e, EMIT_NOTE_SUSPECT, "%s", t.buf);
		}
		strbuf_release(&t);
	}
	if (said)
		emit_note(e, EMIT_NOTE_KEY, "%s",
			  "the runs iotrial flagged may describe the flaw, not "
			  "the setting; see the warnings");
}

/* The plots of the verdicts: every run per arm, the ratios. */
static void verdict_plots(const struct experiment_doc *doc, struct strbuf *out)
{
	strbuf_addstr(out, "<h2>Runs and ratios</h2>\n");
	plot_strip(doc, out);
	plot_forest(doc, out);
}

bool report_verdicts_present(const struct experiment_doc *doc)
{
	return doc->nr_arms && !report_single_run(doc);
}

void report_verdicts_section(const struct experiment_doc *doc, struct emit *e)
{
	const struct emit_col cols[] = {
	    {"arm", EMIT_LABEL, 0, 1, label_width(doc)},
	    {"median", EMIT_NUM, 0, 1, 7},
	    {"95% CI", EMIT_NUM, 0, 1, 17},
	    {"cv", EMIT_NUM, 0, 1, 6},
	    {"n", EMIT_NUM, EMIT_RIGHT, 2, 3},
	    {"ratio [95% CI]", EMIT_NUM, 0, 1, 22},
	    {"p", EMIT_NUM, 0, 1, 7},
	    {"verdict", EMIT_VERDICT, 0, 1, 0},
	};
	const struct emit_table t = {"verdicts", cols, 8, false};
	size_t i;

	/* with two factors or more, each factor's effects came first */
	if (doc->nr_effects)
		emit_gap(e);
	emit_heading(e, 2, "Verdicts",
		     doc->nr_effects ? "every arm against the baseline arm:"
				     : NULL);
	emit_table(e, &t);
	for (i = 0; i < doc->nr_arms; i++)
		arm_row(doc, &doc->arms[i], e);
	emit_table_end(e);
	table_notes(doc, e);
	emit_plot(e, verdict_plots);
}

/* The median of metric name in arm a, NaN when it has none. */
static double arm_metric(const struct exp_arm *a, const char *name)
{
	size_t i;

	for (i = 0; i < a->nr_metrics; i++)
		if (!strcmp(a->metrics[i].name, name))
			return a->metrics[i].value;
	return NAN;
}

bool report_metrics_present(const struct experiment_doc *doc)
{
	size_t j;

	if (!doc->nr_arms || report_single_run(doc))
		return false;
	for (j = 0; j < doc->nr_metrics; j++)
		if (report_metric_beside(doc, &doc->metrics[j]))
			return true;
	return false;
}

/*
 * The metrics beside the primary one, median per arm (arms[].metrics,
 * those doc's "metrics" marks shown), one row per arm.
 */
void report_metrics_section(const struct experiment_doc *doc, struct emit *e)
{
	struct emit_col cols[EMIT_MAX_COLS] = {
	    {"arm", EMIT_LABEL, 0, 1, label_width(doc)}};
	struct strbuf heads[EMIT_MAX_COLS];
	const struct exp_metric *shown[EMIT_MAX_COLS];
	struct emit_table t = {"metrics", cols, 1, false};
	size_t i, j;

	for (j = 0; j < doc->nr_metrics && t.nr_cols < EMIT_MAX_COLS; j++) {
		const struct exp_metric *d = &doc->metrics[j];
		size_t w = strlen(rd_s(d->name)) + strlen(rd_s(d->unit)) + 3;
		struct strbuf *h = &heads[t.nr_cols];

		if (!report_metric_beside(doc, d))
			continue;
		strbuf_init(h, 0);
		/* a latency carries its own unit: "27.7 us" */
		if (!strcmp(rd_s(d->unit), "ns"))
			strbuf_addstr(h, rd_s(d->name));
		else
			strbuf_addf(h, "%s (%s)", rd_s(d->name), rd_s(d->unit));
		shown[t.nr_cols] = d;
		cols[t.nr_cols++] =
		    (struct emit_col){h->buf, EMIT_NUM, 0, 1, w > 11 ? w : 11};
	}
	emit_gap(e);
	emit_heading(e, 2, "Beside the metric, median per arm",
		     "beside it, median per arm:");
	emit_table(e, &t);
	for (i = 0; i < doc->nr_arms; i++) {
		emit_cell(e, "%s", rd_s(doc->arms[i].label));
		for (j = 1; j < t.nr_cols; j++) {
			struct strbuf c = STRBUF_INIT;

			report_fmt_in_unit(
			    &c, arm_metric(&doc->arms[i], rd_s(shown[j]->name)),
			    rd_s(shown[j]->unit));
			emit_cell(e, "%s", c.buf);
			strbuf_release(&c);
		}
		emit_row(e);
	}
	emit_table_end(e);
	for (j = 1; j < t.nr_cols; j++)
		strbuf_release(&heads[j]);
}
