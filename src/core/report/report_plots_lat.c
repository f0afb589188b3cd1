/*
 * The HTML report's latency plots; see report_plots.h. Both draw one row
 * per arm and direction (or operation) with a mark per percentile on a
 * log axis. A row is drawn only when it has a value, and a plot only
 * when some row has: a file workload leaves its read and write latency
 * at zero and times its operations instead, and an empty panel of arm
 * labels would say "no latency" where the truth is "timed elsewhere".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_plots.h"
#include "report_doc.h"
#include "report_ops.h"
#include "svg.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define NR_MARKS 4 /* the most marks a row has */

/* What one latency plot shows: nr_keys keys (directions or operations)
 * per arm, nr_marks percentiles per row, vals[(arm * nr_keys + key) *
 * NR_MARKS + mark] in ns (NaN where not timed). */
struct lat_plot {
	const char *title, *caption;
	const char *const *keys;
	size_t nr_keys;
	const char *const *marks;
	size_t nr_marks;
	int key_in_label; /* name the key on every row */
	char id[24];	  /* the marks' ids are id0..id3, unique on the page */
	double *vals;
};

/* The legend of the marks and their shapes (m0..m3). */
static void lat_legend(struct strbuf *out, const struct lat_plot *lp)
{
	size_t p;

	for (p = 0; p < lp->nr_marks; p++) {
		double lx = PLOT_LEFT + p * 70;

		strbuf_addf(out,
			    "<use href=\"#%s%zu\" x=\"%.1f\" y=\"12\" "
			    "class=\"legend\"/>",
			    lp->id, p, lx);
		svg_text(out, lx + 9, 16, "start", "tick", lp->marks[p]);
	}
	strbuf_addf(out,
		    "<defs><circle id=\"%s0\" r=\"4\"/>"
		    "<rect id=\"%s1\" x=\"-4\" y=\"-4\" width=\"8\" "
		    "height=\"8\"/><path id=\"%s2\" d=\"M0 -5 L5 4 L-5 4 Z\"/>"
		    "<path id=\"%s3\" d=\"M0 -5 L5 0 L0 5 L-5 0 Z\"/></defs>",
		    lp->id, lp->id, lp->id, lp->id);
}

/* One row at y: its label, a span from the first mark to the last, and
 * the marks. */
static void lat_row(struct strbuf *out, const struct lat_plot *lp,
		    const struct svg_scale *x, double y, const char *label,
		    size_t colour, const double *v)
{
	double first = NAN, last = NAN;
	size_t p;

	plot_row_label(out, y, label, "label");
	for (p = 0; p < lp->nr_marks; p++)
		if (v[p] > 0) {
			if (!isfinite(first))
				first = v[p];
			last = v[p];
		}
	strbuf_addf(out,
		    "<line class=\"span c%zu\" x1=\"%.1f\" y1=\"%.1f\" "
		    "x2=\"%.1f\" y2=\"%.1f\"/>",
		    colour, svg_scale_map(x, first), y, svg_scale_map(x, last),
		    y);
	for (p = 0; p < lp->nr_marks; p++) {
		struct strbuf t = STRBUF_INIT;

		if (!(v[p] > 0))
			continue;
		units_fmt_ns(&t, v[p]);
		strbuf_addf(out,
			    "<use href=\"#%s%zu\" x=\"%.1f\" y=\"%.1f\" "
			    "class=\"pt c%zu\"><title>",
			    lp->id, p, svg_scale_map(x, v[p]), y, colour);
		svg_escape(out, lp->marks[p]);
		strbuf_addf(out, " %s</title></use>", t.buf);
		strbuf_release(&t);
	}
}

/* Whether row r of lp has a value to draw. */
static int lat_has(const struct lat_plot *lp, size_t r)
{
	size_t p;

	for (p = 0; p < lp->nr_marks; p++)
		if (lp->vals[r * NR_MARKS + p] > 0)
			return 1;
	return 0;
}

/* Draw lp for the arms of doc, or nothing when no row has a value. */
static void lat_draw(const struct experiment_doc *doc,
		     const struct lat_plot *lp, struct strbuf *out)
{
	size_t na = doc->nr_arms, i, k, p, rows = 0;
	double lo = INFINITY, hi = -INFINITY, h, y, rh = plot_row_height(doc);
	struct svg_scale x;

	for (i = 0; i < na * lp->nr_keys; i++) {
		if (!lat_has(lp, i))
			continue;
		rows++;
		for (p = 0; p < lp->nr_marks; p++)
			if (lp->vals[i * NR_MARKS + p] > 0) {
				lo = fmin(lo, lp->vals[i * NR_MARKS + p]);
				hi = fmax(hi, lp->vals[i * NR_MARKS + p]);
			}
	}
	if (!rows)
		return;
	h = 34 + rh * rows + PLOT_AXIS;
	svg_scale_init(&x, lo, hi, PLOT_LEFT, PLOT_W - PLOT_RIGHT, 1);
	svg_fig_open(out, "wide", lp->title, lp->caption, PLOT_W, h);
	svg_x_axis(out, &x, 30, h - PLOT_AXIS, SVG_FMT_NS,
		   "latency (log scale)");
	lat_legend(out, lp);
	y = 30 + rh / 2;
	for (i = 0; i < na; i++)
		for (k = 0; k < lp->nr_keys; k++) {
			struct strbuf l = STRBUF_INIT;
			size_t r = i * lp->nr_keys + k;

			if (!lat_has(lp, r))
				continue;
			strbuf_addstr(&l, rd_s(doc->arms[i].label));
			if (lp->key_in_label)
				strbuf_addf(&l, " %s", lp->keys[k]);
			lat_row(out, lp, &x, y, l.buf, i % PLOT_COLOURS,
				&lp->vals[r * NR_MARKS]);
			strbuf_release(&l);
			y += rh;
		}
	svg_fig_close(out);
}

void plot_latency(const struct experiment_doc *doc, struct strbuf *out)
{
	static const char *const dirs[] = {"read", "write"};
	static const char *const names[] = {"p50", "p90", "p99", "p99.9"};
	size_t na = doc->nr_arms, i, d, p;
	struct lat_plot lp = {.keys = dirs,
			      .nr_keys = 2,
			      .marks = names,
			      .nr_marks = 4,
			      .caption =
				  "median over each arm's runs; log scale",
			      .id = "m"};
	unsigned timed = 0;

	lp.vals = xcalloc(na * 2 * NR_MARKS + 1, sizeof(*lp.vals));
	for (i = 0; i < na; i++)
		for (d = 0; d < 2; d++) {
			for (p = 0; p < 4; p++)
				lp.vals[(i * 2 + d) * NR_MARKS + p] =
				    report_dir_latency(doc, doc->arms[i].arm,
						       d == 1,
						       (enum report_pct)p);
			if (lat_has(&lp, i * 2 + d))
				timed |= 1u << d;
		}
	/* one direction: it goes in the title, not on every row */
	lp.title = timed == 1	? "Read latency percentiles"
		   : timed == 2 ? "Write latency percentiles"
				: "Latency percentiles";
	lp.key_in_label = timed == 3;
	lat_draw(doc, &lp, out);
	free(lp.vals);
}

void plot_op_latency(const struct experiment_doc *doc, struct strbuf *out)
{
	static const enum report_op_field fields[] = {OP_P50, OP_P99, OP_MAX};
	static const char *const names[] = {"p50", "p99", "max"};
	size_t na = doc->nr_arms, i, k, p;
	const char **ops = NULL;
	size_t nops = report_op_names(doc, &ops);
	struct strbuf title = STRBUF_INIT;
	struct lat_plot lp = {.caption = "median over each arm's runs; log "
					 "scale",
			      .nr_keys = 1,
			      .marks = names,
			      .nr_marks = 3};

	/* one plot per operation: the arms side by side, their labels
	 * whole */
	lp.vals = xcalloc(na * NR_MARKS + 1, sizeof(*lp.vals));
	for (k = 0; k < nops; k++) {
		lp.keys = &ops[k];
		for (i = 0; i < na; i++)
			for (p = 0; p < lp.nr_marks; p++)
				lp.vals[i * NR_MARKS + p] =
				    1000 * report_op_median(doc,
							    doc->arms[i].arm,
							    ops[k], fields[p]);
		strbuf_reset(&title);
		strbuf_addf(&title, "Latency of %s", ops[k]);
		lp.title = title.buf;
		snprintf(lp.id, sizeof(lp.id), "op%zum", k);
		lat_draw(doc, &lp, out);
	}
	strbuf_release(&title);
	free(lp.vals);
	free(ops);
}
