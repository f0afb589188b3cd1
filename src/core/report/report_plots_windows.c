/*
 * The plot of an observe experiment (a live switchback): the metric of
 * every window over time, each window's span shaded in its arm's colour
 * and settle periods hatched (measured, not analysed), so a reader sees
 * the schedule, the load's trend and the carryover at once. Drawn from
 * the object's "windows" alone; nothing for other experiments.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include "report_doc.h"
#include "report_plots.h"
#include "svg.h"
#include "../../util/banned.h"

#define WIN_H 260.0

/* The data range of the windows' times and metrics; false when there is
 * nothing to draw. */
static bool ranges(const struct experiment_doc *doc, double *t1, double *lo,
		   double *hi)
{
	size_t i;

	*t1 = 0;
	*lo = INFINITY;
	*hi = -INFINITY;
	for (i = 0; i < doc->nr_windows; i++) {
		const struct live_window *w = &doc->windows[i];
		double end = w->start_s + w->seconds;

		if (isfinite(end))
			*t1 = fmax(*t1, end);
		if (isfinite(w->metric)) {
			*lo = fmin(*lo, w->metric);
			*hi = fmax(*hi, w->metric);
		}
	}
	if (!isfinite(*lo) || !(*t1 > 0))
		return false;
	if (*hi <= *lo) {
		*hi = *lo + fmax(1, fabs(*lo) * 0.1);
		*lo -= fmax(1, fabs(*lo) * 0.1);
	}
	*lo = fmin(0, *lo);
	return true;
}

void plot_windows(const struct experiment_doc *doc, struct strbuf *out)
{
	struct svg_scale x, y;
	double t1, lo, hi, top = 8, bottom = WIN_H - PLOT_AXIS, px = -1, py = 0;
	size_t i, n = doc->nr_windows;

	if (!doc->kind || strcmp(doc->kind, "observe") ||
	    doc->has_windows != MODEL_SET || !ranges(doc, &t1, &lo, &hi))
		return;
	svg_scale_init(&x, 0, t1, 60, PLOT_W - PLOT_RIGHT, 0);
	svg_scale_init(&y, lo, hi, bottom, top, 0);
	strbuf_addstr(out, "<h2>The windows, in time</h2>\n");
	svg_fig_open(out, "wide", "The metric of every window",
		     "shaded: the arm in force; hatched: settle periods after "
		     "a switch, measured but not analysed",
		     PLOT_W, WIN_H + 22);
	strbuf_addf(out,
		    "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" "
		    "patternUnits=\"userSpaceOnUse\" "
		    "patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" "
		    "x2=\"0\" y2=\"6\" stroke=\"#888\" stroke-width=\"2\"/>"
		    "</pattern></defs>");
	for (i = 0; i < n; i++) {
		const struct live_window *w = &doc->windows[i];
		double s = w->start_s, d = w->seconds;
		int arm = rd_count(w->arm);

		if (!isfinite(s) || !isfinite(d))
			continue;
		strbuf_addf(
		    out,
		    "<rect class=\"ci c%d\" x=\"%.1f\" y=\"%.1f\" "
		    "width=\"%.1f\" height=\"%.1f\"><title>",
		    arm % (int)PLOT_COLOURS, svg_scale_map(&x, s), top,
		    fmax(0.5, svg_scale_map(&x, s + d) - svg_scale_map(&x, s)),
		    bottom - top);
		svg_escape(out, rd_s(w->label));
		strbuf_addf(out, ", block %d%s</title></rect>",
			    rd_count(w->block) + 1,
			    w->settle ? ", settle" : "");
		if (w->settle)
			strbuf_addf(
			    out,
			    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			    "height=\"%.1f\" fill=\"url(#hatch)\" "
			    "opacity=\".5\"/>",
			    svg_scale_map(&x, s), top,
			    fmax(0.5, svg_scale_map(&x, s + d) -
					  svg_scale_map(&x, s)),
			    bottom - top);
	}
	svg_y_axis(out, &y, 60, PLOT_W - PLOT_RIGHT, SVG_FMT_METRIC);
	svg_x_axis(out, &x, top, bottom, SVG_FMT_PLAIN,
		   "seconds since the start");
	for (i = 0; i < n; i++) {
		const struct live_window *w = &doc->windows[i];
		double m = w->metric;
		double cx = svg_scale_map(&x, w->start_s + w->seconds / 2);
		int arm = rd_count(w->arm);

		if (!isfinite(m)) {
			px = -1;
			continue;
		}
		if (px >= 0)
			strbuf_addf(out,
				    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				    "y2=\"%.1f\" stroke=\"currentColor\" "
				    "stroke-width=\"1\" opacity=\".5\"/>",
				    px, py, cx, svg_scale_map(&y, m));
		px = cx;
		py = svg_scale_map(&y, m);
		strbuf_addf(
		    out,
		    "<circle class=\"dot c%d\" cx=\"%.1f\" cy=\"%.1f\" "
		    "r=\"3.5\"><title>window %zu: %.4g</title></circle>",
		    arm % (int)PLOT_COLOURS, cx, py, i + 1, m);
	}
	/* the key: one swatch per arm */
	for (i = 0; i < doc->nr_arms && i < 8; i++) {
		double kx = 60 + (double)(i % 4) * 165;
		double ky = WIN_H + 4 + (double)(i / 4) * 14;

		strbuf_addf(out,
			    "<rect class=\"key c%zu\" x=\"%.1f\" y=\"%.1f\" "
			    "width=\"10\" height=\"10\"/>",
			    i % PLOT_COLOURS, kx, ky - 9);
		svg_text(out, kx + 14, ky, "start", "legend",
			 rd_s(doc->arms[i].label));
	}
	svg_fig_close(out);
}
