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
#include "report.h"
#include "runs_text.h"
#include "expjson.h"
#include "suspect.h"
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

static struct json_object *arms_of(struct json_object *exp, size_t *n)
{
	struct json_object *a = expjson_get_type(exp, "arms", json_type_array);

	*n = a ? json_object_array_length(a) : 0;
	return a;
}

double plot_row_height(struct json_object *exp)
{
	size_t n, i;
	struct json_object *arms = arms_of(exp, &n);

	for (i = 0; i < n; i++)
		if (strlen(expjson_str(json_object_array_get_idx(arms, i),
				       "label")) > LABEL_CHARS - 8)
			return PLOT_ROW + 10;
	return PLOT_ROW;
}

/* "mbps (MB/s)": the metric's name and unit, onto out. */
static void metric_name(struct json_object *exp, struct strbuf *out)
{
	struct json_object *m = expjson_get(exp, "metric");

	strbuf_addstr(out, expjson_str(m, "name"));
	if (*expjson_str(m, "unit"))
		strbuf_addf(out, " (%s)", expjson_str(m, "unit"));
	strbuf_addstr(
	    out, json_object_get_boolean(expjson_get(m, "higher_is_better"))
		     ? ", higher is better"
		     : ", lower is better");
}

void plot_strip(struct json_object *exp, struct strbuf *out)
{
	size_t na, i, nr = report_nr_runs(exp);
	struct json_object *arms = arms_of(exp, &na);
	double rh = plot_row_height(exp);
	double lo = INFINITY, hi = -INFINITY, h = 12 + rh * na + PLOT_AXIS;
	struct report_run_row row;
	struct svg_scale x;
	struct strbuf label = STRBUF_INIT;
	unsigned *seen;

	for (i = 0; i < nr && !report_run_row(exp, i, &row); i++)
		if (isfinite(row.metric)) {
			lo = fmin(lo, row.metric);
			hi = fmax(hi, row.metric);
		}
	if (!na || !isfinite(lo))
		return;
	svg_scale_init(&x, lo, hi, PLOT_LEFT, PLOT_W - PLOT_RIGHT, 0);
	metric_name(exp, &label);
	svg_fig_open(out, "wide", "Every run, per arm",
		     "dots: runs; bar: median; band: its 95% CI", PLOT_W, h);
	svg_x_axis(out, &x, 6, h - PLOT_AXIS, SVG_FMT_METRIC, label.buf);
	seen = xcalloc(na, sizeof(*seen));
	for (i = 0; i < na; i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);
		double y = 12 + rh * i + rh / 2, lo_ci, hi_ci;

		plot_row_label(out, y, expjson_str(a, "label"), "label");
		lo_ci = expjson_num(a, "ci_low");
		hi_ci = expjson_num(a, "ci_high");
		if (isfinite(lo_ci) && isfinite(hi_ci))
			strbuf_addf(out,
				    "<rect class=\"ci c%zu\" x=\"%.1f\" "
				    "y=\"%.1f\" width=\"%.1f\" height=\"16\" "
				    "rx=\"3\"/>",
				    i % PLOT_COLOURS, svg_scale_map(&x, lo_ci),
				    y - 8,
				    fmax(1, svg_scale_map(&x, hi_ci) -
						svg_scale_map(&x, lo_ci)));
		if (isfinite(expjson_num(a, "median")))
			strbuf_addf(out,
				    "<line class=\"median\" x1=\"%.1f\" "
				    "y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
				    svg_scale_map(&x, expjson_num(a, "median")),
				    y - 11,
				    svg_scale_map(&x, expjson_num(a, "median")),
				    y + 11);
	}
	for (i = 0; i < nr && !report_run_row(exp, i, &row); i++) {
		size_t k;

		for (k = 0; k < na; k++)
			if (expjson_count(json_object_array_get_idx(arms, k),
					  "arm") == row.arm)
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

void plot_forest_rows(struct json_object *exp,
		      const struct plot_forest_row *rows, size_t n,
		      const char *title, const char *axis, struct strbuf *out)
{
	size_t i, shown = 0;
	double eq = expjson_num(exp, "equivalence"), lo = 1, hi = 1, h;
	double rh = PLOT_ROW;
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
		struct json_object *v = rows[i].x;

		if (!isfinite(expjson_num(v, "ratio")))
			continue;
		shown++;
		lo = fmin(lo, fmin(expjson_num(v, "ratio"),
				   expjson_num(v, "ci_low")));
		hi = fmax(hi, fmax(expjson_num(v, "ratio"),
				   expjson_num(v, "ci_high")));
		if (strlen(rows[i].label) > LABEL_CHARS - 8)
			rh = PLOT_ROW + 10;
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
		struct json_object *v = rows[i].x;
		double y = 12 + rh * shown + rh / 2,
		       r = expjson_num(v, "ratio");
		const char *cls = svg_verdict_class(expjson_str(v, "verdict"));

		if (!isfinite(r))
			continue;
		shown++;
		plot_row_label(out, y, rows[i].label, "label");
		strbuf_addf(
		    out,
		    "<line class=\"whisker %s\" x1=\"%.1f\" y1=\"%.1f\" "
		    "x2=\"%.1f\" y2=\"%.1f\"/>",
		    cls, svg_scale_map(&x, expjson_num(v, "ci_low")), y,
		    svg_scale_map(&x, expjson_num(v, "ci_high")), y);
		strbuf_addf(out,
			    "<rect class=\"mark %s\" x=\"%.1f\" y=\"%.1f\" "
			    "width=\"10\" height=\"10\"><title>%.3f</title>"
			    "</rect>",
			    cls, svg_scale_map(&x, r) - 5, y - 5, r);
		strbuf_addf(out,
			    "<text x=\"%.1f\" y=\"%.1f\" class=\"note v-%s\">",
			    PLOT_W - 6, y + 4, cls);
		svg_escape(out, expjson_str(v, "verdict"));
		strbuf_addstr(out,
			      suspect_is(exp, v) ? " ⚠</text>" : "</text>");
	}
	svg_fig_close(out);
	strbuf_release(&cap);
}

void plot_forest(struct json_object *exp, struct strbuf *out)
{
	struct json_object *vs =
	    expjson_get_type(exp, "verdicts", json_type_array);
	size_t i, n = vs ? json_object_array_length(vs) : 0;
	struct plot_forest_row *rows = xcalloc(n ? n : 1, sizeof(*rows));

	for (i = 0; i < n; i++) {
		rows[i].x = json_object_array_get_idx(vs, i);
		rows[i].label = expjson_str(rows[i].x, "label");
	}
	plot_forest_rows(exp, rows, n, "Ratio to the baseline",
			 "arm / baseline (1 = the same)", out);
	free(rows);
}
