/*
 * The HTML report's plots; see report_plots.h. They are drawn the way a
 * careful reader checks a benchmark: every run as a point (not only a
 * bar of the mean), the ratio's interval against the band that would
 * make it "equivalent", tails on a log axis, and what the disk and the
 * page cache did while a typical run ran. Colours are CSS classes (c0..
 * c5, good, bad, band) that the page defines for light, dark and print.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report_plots.h"
#include "fmt.h"
#include "report_doc.h"
#include "runs_text.h"
#include "svg.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The most characters of a label line that fit left of a plot: 190 px
 * of 12 px type (28 clipped the first letters of a long one). */
#define LABEL_CHARS 25

void plot_row_label(struct strbuf *out, double y, const char *label,
		    const char *cls)
{
	size_t len = strlen(label), cut = len;
	const char *second = NULL;
	int k;

	if (len > LABEL_CHARS) {
		/* the last space that leaves the first line short enough */
		for (cut = LABEL_CHARS; cut > 0 && label[cut] != ' '; cut--)
			;
		if (!cut)
			cut = LABEL_CHARS;
		second = label + cut + (label[cut] == ' ');
	}
	strbuf_addstr(out, "<g><title>");
	svg_escape(out, label);
	strbuf_addf(out,
		    "</title><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
		    "class=\"%s\">",
		    PLOT_LEFT - 10, second ? y - 2 : y + 4, cls);
	for (k = 0; k < (second ? 2 : 1); k++) {
		const char *from = k ? second : label;
		size_t n = k ? strlen(second) : cut;
		struct strbuf line = STRBUF_INIT;

		if (n > LABEL_CHARS) {
			strbuf_add(&line, from, LABEL_CHARS - 1);
			strbuf_addstr(&line, "…");
		} else {
			strbuf_add(&line, from, n);
		}
		strbuf_addf(out, "<tspan x=\"%.1f\" dy=\"%s\">", PLOT_LEFT - 10,
			    k ? "1.15em" : "0");
		svg_escape(out, line.buf);
		strbuf_addstr(out, "</tspan>");
		strbuf_release(&line);
	}
	strbuf_addstr(out, "</text></g>");
}

double plot_row_height(const struct experiment_doc *doc)
{
	size_t i;

	for (i = 0; i < doc->nr_arms; i++)
		if (strlen(rd_s(doc->arms[i].label)) > LABEL_CHARS - 8)
			return PLOT_ROW + 10;
	return PLOT_ROW;
}

/* "mbps (MB/s)": the metric's name and unit, onto out. */
static void metric_name(const struct experiment_doc *doc, struct strbuf *out)
{
	const struct exp_metric *m = doc->metric;

	strbuf_addstr(out, m ? rd_s(m->name) : "");
	if (m && m->unit && *m->unit)
		strbuf_addf(out, " (%s)", m->unit);
	strbuf_addstr(out, m && m->higher_is_better ? ", higher is better"
						    : ", lower is better");
}

void plot_strip(const struct experiment_doc *doc, struct strbuf *out)
{
	size_t na = doc->nr_arms, i;
	double rh = plot_row_height(doc);
	double lo = INFINITY, hi = -INFINITY, h = 12 + rh * na + PLOT_AXIS;
	struct report_run row;
	struct svg_scale x;
	struct strbuf label = STRBUF_INIT;
	unsigned *seen;

	for (i = 0; !report_run_get(doc, i, &row); i++)
		if (isfinite(row.metric)) {
			lo = fmin(lo, row.metric);
			hi = fmax(hi, row.metric);
		}
	if (!na || !isfinite(lo))
		return;
	svg_scale_init(&x, lo, hi, PLOT_LEFT, PLOT_W - PLOT_RIGHT, 0);
	metric_name(doc, &label);
	svg_fig_open(out, "wide", "Every run, per arm",
		     "dots: runs; bar: median; band: its 95% CI", PLOT_W, h);
	svg_x_axis(out, &x, 6, h - PLOT_AXIS, SVG_FMT_METRIC, label.buf);
	seen = xcalloc(na, sizeof(*seen));
	for (i = 0; i < na; i++) {
		const struct exp_arm *a = &doc->arms[i];
		double y = 12 + rh * i + rh / 2;
		double lo_ci = ARM_NUM(a, ci_low), hi_ci = ARM_NUM(a, ci_high);
		double med = ARM_NUM(a, median);

		plot_row_label(out, y, rd_s(a->label), "label");
		if (isfinite(lo_ci) && isfinite(hi_ci))
			strbuf_addf(out,
				    "<rect class=\"ci c%zu\" x=\"%.1f\" "
				    "y=\"%.1f\" width=\"%.1f\" height=\"16\" "
				    "rx=\"3\"/>",
				    i % PLOT_COLOURS, svg_scale_map(&x, lo_ci),
				    y - 8,
				    fmax(1, svg_scale_map(&x, hi_ci) -
						svg_scale_map(&x, lo_ci)));
		if (isfinite(med))
			strbuf_addf(out,
				    "<line class=\"median\" x1=\"%.1f\" "
				    "y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
				    svg_scale_map(&x, med), y - 11,
				    svg_scale_map(&x, med), y + 11);
	}
	for (i = 0; !report_run_get(doc, i, &row); i++) {
		size_t k;

		for (k = 0; k < na; k++)
			if (rd_count(doc->arms[k].arm) == row.arm)
				break;
		if (k == na || !isfinite(row.metric))
			continue;
		/* a fixed jitter, so the same report draws the same page */
		strbuf_addf(
		    out,
		    "<circle class=\"dot c%zu\" cx=\"%.1f\" cy=\"%.1f\" "
		    "r=\"3.5\"><title>block %d: %.4g</title></circle>",
		    k % PLOT_COLOURS, svg_scale_map(&x, row.metric),
		    12 + rh * k + rh / 2 +
			(double)((int)(seen[k]++ % 5) - 2) * 2.5,
		    row.block, row.metric);
	}
	svg_fig_close(out);
	free(seen);
	strbuf_release(&label);
}

void plot_forest_row_of(const struct experiment_doc *doc,
			const struct exp_comparison *cmp, const char *verdict,
			struct plot_forest_row *row)
{
	(void)doc;
	row->ratio = cmp ? cmp->ratio : NAN;
	row->ci_low = cmp ? cmp->ci_low : NAN;
	row->ci_high = cmp ? cmp->ci_high : NAN;
	row->verdict = rd_s(verdict);
}

void plot_forest_rows(const struct experiment_doc *doc,
		      const struct plot_forest_row *rows, size_t n,
		      const char *title, const char *axis, struct strbuf *out)
{
	size_t i, shown = 0;
	double eq = doc->has_equivalence == MODEL_SET ? doc->equivalence : NAN;
	double lo = 1, hi = 1, h, rh = PLOT_ROW;
	struct svg_scale x;
	struct strbuf cap = STRBUF_INIT;

	for (i = 0; i < n; i++) /* a label that wraps takes two lines */
		if (strlen(rows[i].label) > LABEL_CHARS - 8)
			rh = PLOT_ROW + 10;

	if (!isfinite(eq) || eq < 0)
		eq = 0;
	lo -= eq;
	hi += eq;
	for (i = 0; i < n; i++) {
		const struct plot_forest_row *v = &rows[i];

		if (!isfinite(v->ratio))
			continue;
		shown++;
		lo = fmin(lo, fmin(v->ratio, v->ci_low));
		hi = fmax(hi, fmax(v->ratio, v->ci_high));
	}
	if (!shown)
		return;
	h = 12 + rh * shown + PLOT_AXIS;
	/* the verdicts go right of the plot */
	svg_scale_init(&x, lo, hi, PLOT_LEFT, PLOT_W - 96, 0);
	strbuf_addf(&cap,
		    "point: ratio; line: its 95%% CI; shaded: "
		    "equivalent (±%g%%); ⚠: suspect",
		    100 * eq);
	svg_fig_open(out, "wide", title, cap.buf, PLOT_W, h);
	strbuf_addf(out,
		    "<rect class=\"band\" x=\"%.1f\" y=\"6\" width=\"%.1f\" "
		    "height=\"%.1f\"/>",
		    svg_scale_map(&x, 1 - eq),
		    svg_scale_map(&x, 1 + eq) - svg_scale_map(&x, 1 - eq),
		    h - PLOT_AXIS - 6);
	svg_x_axis(out, &x, 6, h - PLOT_AXIS, SVG_FMT_RATIO, axis);
	strbuf_addf(out,
		    "<line class=\"one\" x1=\"%.1f\" y1=\"6\" x2=\"%.1f\" "
		    "y2=\"%.1f\"/>",
		    svg_scale_map(&x, 1), svg_scale_map(&x, 1), h - PLOT_AXIS);
	shown = 0;
	for (i = 0; i < n; i++) {
		const struct plot_forest_row *v = &rows[i];
		double y = 12 + rh * shown + rh / 2, r = v->ratio;
		const char *cls = svg_verdict_class(v->verdict);

		if (!isfinite(r))
			continue;
		shown++;
		plot_row_label(out, y, v->label, "label");
		strbuf_addf(
		    out,
		    "<line class=\"whisker %s\" x1=\"%.1f\" y1=\"%.1f\" "
		    "x2=\"%.1f\" y2=\"%.1f\"/>",
		    cls, svg_scale_map(&x, v->ci_low), y,
		    svg_scale_map(&x, v->ci_high), y);
		strbuf_addf(out,
			    "<rect class=\"mark %s\" x=\"%.1f\" y=\"%.1f\" "
			    "width=\"10\" height=\"10\"><title>%.3f</title>"
			    "</rect>",
			    cls, svg_scale_map(&x, r) - 5, y - 5, r);
		strbuf_addf(out,
			    "<text x=\"%.1f\" y=\"%.1f\" class=\"note v-%s\">",
			    PLOT_W - 6, y + 4, cls);
		svg_escape(out, v->verdict);
		strbuf_addstr(out, suspect_doc_is(doc, &v->suspect)
				       ? " ⚠</text>"
				       : "</text>");
	}
	svg_fig_close(out);
	strbuf_release(&cap);
}

void plot_forest(const struct experiment_doc *doc, struct strbuf *out)
{
	size_t i, n = doc->nr_verdicts;
	struct plot_forest_row *rows = xcalloc(n + 1, sizeof(*rows));

	for (i = 0; i < n; i++) {
		const struct exp_verdict *v = &doc->verdicts[i];
		struct report_ratio r;

		rows[i].label = rd_s(v->label);
		plot_forest_row_of(doc, v->cmp, v->verdict, &rows[i]);
		/* the numbers the verdict rests on, as the table's row */
		report_verdict_ratio(v, &r);
		rows[i].ratio = r.ratio;
		rows[i].ci_low = r.ci_low;
		rows[i].ci_high = r.ci_high;
		suspect_src_verdict(doc, v, &rows[i].suspect);
	}
	plot_forest_rows(doc, rows, n, "Ratio to the baseline",
			 "arm / baseline (1 = the same)", out);
	free(rows);
}
