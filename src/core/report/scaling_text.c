/*
 * The scaling table: what a sweep over clients, iodepth or read-ahead
 * looks like to people used to dbench's tables, one row per value of a
 * numeric factor (and per combination of the other factors' levels),
 * read from the experiment's "scaling" rows only; then, on a page with
 * plots, the metric against each numeric factor.
 */
#include <math.h>
#include <string.h>
#include "fmt.h"
#include "sections.h"
#include "report_doc.h"
#include "report_plots.h"
#include "suspect.h"
#include "../../util/banned.h"

/* " (name=value, ...)" of a row's "within", or nothing when empty. */
static void within_text(const struct exp_scaling_row *row, struct strbuf *out)
{
	if (!row->nr_within)
		return;
	strbuf_addstr(out, " (");
	report_pairs(out, row->within, row->nr_within, ", ");
	strbuf_addch(out, ')');
}

/* Do rows a and b belong to one table (one factor, the same within)? */
static bool same_group(const struct exp_scaling_row *a,
		       const struct exp_scaling_row *b)
{
	size_t i;

	if (strcmp(rd_s(a->factor), rd_s(b->factor)) ||
	    a->nr_within != b->nr_within)
		return false;
	for (i = 0; i < a->nr_within; i++)
		if (strcmp(a->within[i].name, b->within[i].name) ||
		    strcmp(rd_s(a->within[i].value), rd_s(b->within[i].value)))
			return false;
	return true;
}

/* A measurement of a row, NaN when it has none. */
#define ROW_NUM(r, f) ((r)->has_##f == MODEL_SET ? (r)->f : NAN)

static void row_cells(const struct experiment_doc *doc,
		      const struct exp_scaling_row *row, struct emit *e)
{
	struct strbuf t = STRBUF_INIT;
	struct suspect_src s;

	emit_cell(e, "%s", rd_s(row->value));
	report_fmt_metric(&t, ROW_NUM(row, median));
	emit_cell(e, "%s", t.buf);
	strbuf_reset(&t);
	strbuf_addch(&t, '[');
	report_fmt_metric(&t, ROW_NUM(row, ci_low));
	strbuf_addstr(&t, ", ");
	report_fmt_metric(&t, ROW_NUM(row, ci_high));
	strbuf_addch(&t, ']');
	emit_cell(e, "%s", t.buf);
	emit_cell(e, "%d", row->has_n == MODEL_SET ? rd_count(row->n) : 0);
	if (isfinite(row->ratio_to_first))
		emit_cell(e, "%.2fx", row->ratio_to_first);
	else
		emit_cell(e, "-");
	suspect_src_scaling(row, &s);
	if (suspect_doc_is(doc, &s))
		emit_mark(e, EMIT_MARK_SUSPECT);
	emit_row(e);
	strbuf_release(&t);
}

bool report_scaling_present(const struct experiment_doc *doc)
{
	return (doc->nr_scaling || doc->nr_factors) && !report_single_run(doc);
}

void report_scaling_section(const struct experiment_doc *doc, struct emit *e)
{
	const char *metric = doc->metric ? rd_s(doc->metric->name) : "";
	const struct exp_scaling_row *rows = doc->scaling;
	size_t i, j, n = doc->nr_scaling, said = 0;
	struct strbuf t = STRBUF_INIT, vs = STRBUF_INIT;

	for (i = 0; i < n; i = j) {
		const char *factor = rd_s(rows[i].factor);
		size_t width = strlen(factor);

		for (j = i; j < n && same_group(&rows[i], &rows[j]); j++)
			if (strlen(rd_s(rows[j].value)) > width)
				width = strlen(rd_s(rows[j].value));
		strbuf_reset(&t);
		strbuf_addf(&t, "scaling of %s with %s", metric, factor);
		within_text(&rows[i], &t);
		strbuf_addch(&t, ':');
		strbuf_reset(&vs);
		strbuf_addf(&vs, "vs %s=%s", factor, rd_s(rows[i].value));
		{
			const struct emit_col cols[] = {
			    {factor, EMIT_LABEL, 0, 1, width},
			    {"median", EMIT_NUM, 0, 1, 7},
			    {"95% CI", EMIT_NUM, 0, 1, 17},
			    {"n", EMIT_NUM, EMIT_RIGHT, 2, 3},
			    {vs.buf, EMIT_NUM, 0, 1, 0},
			};
			const struct emit_table tab = {"scaling", cols, 5,
						       false};

			emit_gap(e);
			emit_heading(e, 3, t.buf, t.buf);
			emit_table(e, &tab);
			for (; i < j; i++)
				row_cells(doc, &rows[i], e);
			emit_table_end(e);
		}
	}
	for (i = 0; i < n; i++) {
		struct suspect_src s;

		suspect_src_scaling(&rows[i], &s);
		if (!suspect_doc_is(doc, &s))
			continue;
		strbuf_reset(&t);
		strbuf_reset(&vs);
		/* "clients=4 (atime=noatime)": the row of a footnote */
		strbuf_addf(&t, "%s=%s", rd_s(rows[i].factor),
			    rd_s(rows[i].value));
		within_text(&rows[i], &t);
		suspect_doc_note(doc, &s, t.buf, &vs);
		if (!said++)
			emit_gap(e);
		emit_note(e, EMIT_NOTE_SUSPECT, "%s", vs.buf);
	}
	strbuf_release(&t);
	strbuf_release(&vs);
	emit_plot(e, plot_factors);
}
