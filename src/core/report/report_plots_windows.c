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
#include "report.h"
#include "report_plots.h"
#include "expjson.h"
#include "svg.h"
#include "../../util/banned.h"

#define WIN_H 260.0

/* The data range of the windows' times and metrics; false when there is
 * nothing to draw. */
static bool ranges(struct json_object *wins, double *t1, double *lo, double *hi)
{
	size_t i, n = json_object_array_length(wins);

	*t1 = 0;
	*lo = INFINITY;
	*hi = -INFINITY;
	for (i = 0; i < n; i++) {
		struct json_object *w = json_object_array_get_idx(wins, i);
		double m = expjson_num(w, "metric");
		double end =
		    expjson_num(w, "start_s") + expjson_num(w, "seconds");

		if (isfinite(end))
			*t1 = fmax(*t1, end);
		if (isfinite(m)) {
			*lo = fmin(*lo, m);
			*hi = fmax(*hi, m);
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

void plot_windows(struct json_object *exp, struct strbuf *out)
{
	struct json_object *wins =
	    expjson_get_type(exp, "windows", json_type_array);
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);
	struct strbuf label = STRBUF_INIT;
	struct svg_scale x, y;
	double t1, lo, hi, top = 8, bottom = WIN_H - PLOT_AXIS, px = -1, py = 0;
	size_t i, n;

	if (strcmp(expjson_str(exp, "kind"), "observe") || !wins || !arms ||
	    !ranges(wins, &t1, &lo, &hi))
		return;
	n = json_object_array_length(wins);
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
		struct json_object *w = json_object_array_get_idx(wins, i);
		double s = expjson_num(w, "start_s"),
		       d = expjson_num(w, "seconds");
		int arm = expjson_count(w, "arm");

		if (!isfinite(s) || !isfinite(d) || arm < 0)
			continue;
		strbuf_addf(
		    out,
		    "<rect class=\"ci c%d\" x=\"%.1f\" y=\"%.1f\" "
		    "width=\"%.1f\" height=\"%.1f\"><title>",
		    arm % (int)PLOT_COLOURS, svg_scale_map(&x, s), top,
		    fmax(0.5, svg_scale_map(&x, s + d) - svg_scale_map(&x, s)),
		    bottom - top);
		svg_escape(out, expjson_str(w, "label"));
		strbuf_addf(out, ", block %d%s</title></rect>",
			    expjson_count(w, "block") + 1,
			    json_object_get_boolean(expjson_get(w, "settle"))
				? ", settle"
				: "");
		if (json_object_get_boolean(expjson_get(w, "settle")))
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
		struct json_object *w = json_object_array_get_idx(wins, i);
		double m = expjson_num(w, "metric");
		double cx =
		    svg_scale_map(&x, expjson_num(w, "start_s") +
					  expjson_num(w, "seconds") / 2);
		int arm = expjson_count(w, "arm");

		if (!isfinite(m) || arm < 0) {
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
	for (i = 0; i < json_object_array_length(arms) && i < 8; i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);
		double kx = 60 + (double)(i % 4) * 165;
		double ky = WIN_H + 4 + (double)(i / 4) * 14;

		strbuf_addf(out,
			    "<rect class=\"key c%zu\" x=\"%.1f\" y=\"%.1f\" "
			    "width=\"10\" height=\"10\"/>",
			    i % PLOT_COLOURS, kx, ky - 9);
		svg_text(out, kx + 14, ky, "start", "legend",
			 expjson_str(a, "label"));
	}
	svg_fig_close(out);
	strbuf_release(&label);
}
