/*
 * The HTML report's plots over a factor's values and over time; see
 * report_plots.h. A numeric factor (clients, bs, read_ahead_kb) is drawn
 * as a curve, since "where does it stop helping" is the question; the
 * time plots show one run per arm, the one nearest its median, so the
 * reader sees a typical run and not an average of runs that never
 * happened.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report_plots.h"
#include "report.h"
#include "runs_text.h"
#include "expjson.h"
#include "svg.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

static struct json_object *arms_of(struct json_object *exp, size_t *n)
{
	struct json_object *a = expjson_get_type(exp, "arms", json_type_array);

	*n = a ? json_object_array_length(a) : 0;
	return a;
}

/* A factor value as a number: "64", "4k" (x1024), "1.5"; NaN if not. */
static double factor_number(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s)
		return NAN;
	if (*end == 'k' || *end == 'K')
		v *= 1024, end++;
	else if (*end == 'm' || *end == 'M')
		v *= 1024.0 * 1024, end++;
	else if (*end == 'g' || *end == 'G')
		v *= 1024.0 * 1024 * 1024, end++;
	return *end ? NAN : v;
}

/* The other factors' settings of arm a, "jobs=1 bs=4k", onto out. */
static void others_label(struct json_object *a, const char *factor,
			 struct strbuf *out)
{
	struct json_object *s = expjson_get(a, "settings");

	if (!s || !json_object_is_type(s, json_type_object))
		return;
	json_object_object_foreach(s, k, v)
	{
		if (!strcmp(k, factor))
			continue;
		if (out->len)
			strbuf_addch(out, ' ');
		strbuf_addf(out, "%s=%s", k,
			    v ? json_object_get_string(v) : "");
	}
}

/* The x axis of a factor's plot: a tick at each of its values, written
 * as typed ("4k", not 4096), and the axis label. */
static void level_axis(struct strbuf *out, struct json_object *f,
		       const struct svg_scale *x, double y0, double y1,
		       const char *label)
{
	struct json_object *vals =
	    expjson_get_type(f, "values", json_type_array);
	size_t i, n = vals ? json_object_array_length(vals) : 0;

	for (i = 0; i < n; i++) {
		const char *v =
		    json_object_get_string(json_object_array_get_idx(vals, i));
		double px = svg_scale_map(x, factor_number(v));

		/* a value no arm has (a stored object may say anything):
		 * off the scale, or nowhere on a log one (0) */
		if (!isfinite(px) || px < fmin(x->r0, x->r1) - 0.5 ||
		    px > fmax(x->r0, x->r1) + 0.5)
			continue;
		strbuf_addf(out,
			    "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" "
			    "x2=\"%.1f\" y2=\"%.1f\"/>",
			    px, y0, px, y1);
		svg_text(out, px, y1 + 15, "middle", "tick", v);
	}
	svg_text(out, (x->r0 + x->r1) / 2, y1 + 33, "middle", "axis", label);
}

/* How far series j of ns is moved sideways, so that CI bars at the same
 * value do not hide each other. */
static double dodge(size_t j, size_t ns)
{
	return ((double)j - (double)(ns - 1) / 2) * 7;
}

/* How far down the key of series (ns of them, laid out as plot_factor
 * does) reaches below its first line. */
static double key_depth(const struct strbuf *series, size_t ns)
{
	double key_x = 70, depth = 0;
	size_t j;

	if (ns < 2 && !(ns && series[0].len))
		return 0;
	for (j = 0; j < ns; j++) {
		if (key_x > 70 && key_x + 30 + 6.2 * series[j].len > PLOT_W) {
			key_x = 70;
			depth += 16;
		}
		key_x += 34 + 6.2 * series[j].len;
	}
	return depth;
}

/* The plot of the metric against one numeric factor f. */
static void plot_factor(struct json_object *exp, struct json_object *f,
			struct strbuf *out)
{
	const char *name = expjson_str(f, "name");
	size_t na, i, j, ns = 0;
	struct json_object *arms = arms_of(exp, &na);
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY,
	       h = 250, top = 34, bottom = h - PLOT_AXIS;
	struct strbuf *series = xcalloc(na, sizeof(*series)), l = STRBUF_INIT;
	size_t *of = xcalloc(na, sizeof(*of));
	struct svg_scale x, y;
	double key_x = 70, key_y = 8;
	int logx;

	/* a strbuf is never NULL: one left as calloc made it has no buf,
	 * and an empty label (the only factor has no others) adds nothing */
	for (i = 0; i < na; i++)
		strbuf_init(&series[i], 0);
	for (i = 0; i < na; i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);
		double v = factor_number(
		    expjson_str(expjson_get(a, "settings"), name));

		strbuf_reset(&l);
		others_label(a, name, &l);
		for (j = 0; j < ns && strcmp(series[j].buf, l.buf); j++)
			;
		if (j == ns)
			strbuf_addstr(&series[ns++], l.buf);
		of[i] = j;
		if (!isfinite(v))
			continue;
		xlo = fmin(xlo, v);
		xhi = fmax(xhi, v);
		ylo = fmin(ylo, fmin(expjson_num(a, "median"),
				     expjson_num(a, "ci_low")));
		yhi = fmax(yhi, fmax(expjson_num(a, "median"),
				     expjson_num(a, "ci_high")));
	}
	if (!isfinite(ylo) || !(xhi > xlo))
		goto out;
	/* a key of more than one line pushes the plot down */
	top += key_depth(series, ns);
	h += key_depth(series, ns);
	bottom = h - PLOT_AXIS;
	logx = xlo > 0 && xhi / xlo >= 8;
	svg_scale_init(&x, xlo, xhi, 70, PLOT_W - PLOT_RIGHT, logx);
	/* the values themselves, not widened to round ones */
	if (logx) {
		x.d0 = xlo / pow(xhi / xlo, 0.05);
		x.d1 = xhi * pow(xhi / xlo, 0.05);
	} else {
		x.d0 = xlo - (xhi - xlo) * 0.05;
		x.d1 = xhi + (xhi - xlo) * 0.05;
	}
	svg_scale_init(&y, ylo, yhi, bottom, top, 0);
	strbuf_reset(&l);
	strbuf_addf(&l, "The metric against %s", name);
	svg_fig_open(out, "wide", l.buf,
		     "arm medians with their 95% CI, one line per setting of "
		     "the other factors",
		     PLOT_W, h);
	strbuf_reset(&l);
	strbuf_addf(&l, "%s%s", name, logx ? " (log scale)" : "");
	level_axis(out, f, &x, top, bottom, l.buf);
	svg_y_axis(out, &y, 70, PLOT_W - PLOT_RIGHT, SVG_FMT_METRIC);
	for (j = 0; j < ns; j++) {
		int first = 1;

		strbuf_addf(out, "<path class=\"line c%zu\" d=\"",
			    j % PLOT_COLOURS);
		for (i = 0; i < na; i++) {
			struct json_object *a =
			    json_object_array_get_idx(arms, i);
			double v = factor_number(
			    expjson_str(expjson_get(a, "settings"), name));

			if (of[i] != j || !isfinite(v) ||
			    !isfinite(expjson_num(a, "median")))
				continue;
			strbuf_addf(
			    out, "%s%.1f %.1f ", first ? "M" : "L",
			    svg_scale_map(&x, v) + dodge(j, ns),
			    svg_scale_map(&y, expjson_num(a, "median")));
			first = 0;
		}
		strbuf_addstr(out, "\"/>");
		if (ns > 1 || series[j].len) {
			/* about 6.2 units per character of an 11px label */
			if (key_x > 70 &&
			    key_x + 30 + 6.2 * series[j].len > PLOT_W) {
				key_x = 70;
				key_y += 16;
			}
			strbuf_addf(
			    out,
			    "<rect class=\"key c%zu\" x=\"%.1f\" y=\"%.1f\" "
			    "width=\"10\" height=\"10\"/>",
			    j % PLOT_COLOURS, key_x, key_y);
			svg_text(out, key_x + 14, key_y + 9, "start", "tick",
				 series[j].len ? series[j].buf : "-");
			key_x += 34 + 6.2 * series[j].len;
		}
	}
	for (i = 0; i < na; i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);
		double v = factor_number(
		    expjson_str(expjson_get(a, "settings"), name));
		double px, m = expjson_num(a, "median");

		if (!isfinite(v) || !isfinite(m))
			continue;
		px = svg_scale_map(&x, v) + dodge(of[i], ns);
		if (isfinite(expjson_num(a, "ci_low")) &&
		    isfinite(expjson_num(a, "ci_high")))
			strbuf_addf(
			    out,
			    "<path class=\"whisker c%zu\" d=\"M%.1f %.1f "
			    "L%.1f %.1f M%.1f %.1f L%.1f %.1f M%.1f %.1f "
			    "L%.1f %.1f\"/>",
			    of[i] % PLOT_COLOURS, px,
			    svg_scale_map(&y, expjson_num(a, "ci_low")), px,
			    svg_scale_map(&y, expjson_num(a, "ci_high")),
			    px - 5, svg_scale_map(&y, expjson_num(a, "ci_low")),
			    px + 5, svg_scale_map(&y, expjson_num(a, "ci_low")),
			    px - 5,
			    svg_scale_map(&y, expjson_num(a, "ci_high")),
			    px + 5,
			    svg_scale_map(&y, expjson_num(a, "ci_high")));
		strbuf_addf(
		    out,
		    "<circle class=\"dot c%zu\" cx=\"%.1f\" cy=\"%.1f\" "
		    "r=\"4.5\"><title>",
		    of[i] % PLOT_COLOURS, px, svg_scale_map(&y, m));
		svg_escape(out, expjson_str(a, "label"));
		strbuf_addf(out, ": %.4g</title></circle>", m);
	}
	svg_fig_close(out);
out:
	for (i = 0; i < na; i++)
		strbuf_release(&series[i]);
	free(series);
	free(of);
	strbuf_release(&l);
}

void plot_factors(struct json_object *exp, struct strbuf *out)
{
	struct json_object *fs =
	    expjson_get_type(exp, "factors", json_type_array);
	size_t i, j, n = fs ? json_object_array_length(fs) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *f = json_object_array_get_idx(fs, i);
		struct json_object *vals =
		    expjson_get_type(f, "values", json_type_array);
		size_t nv = vals ? json_object_array_length(vals) : 0;

		for (j = 0; j < nv; j++)
			if (!isfinite(factor_number(json_object_get_string(
				json_object_array_get_idx(vals, j)))))
				break;
		if (nv >= 2 && j == nv)
			plot_factor(exp, f, out);
	}
}

/* The run of arm (index into runs) whose metric is nearest the median,
 * or -1. */
static long representative(struct json_object *exp, struct json_object *a)
{
	size_t i, n = report_nr_runs(exp);
	double m = expjson_num(a, "median"), best = INFINITY;
	struct report_run_row row;
	long at = -1;

	for (i = 0; i < n && !report_run_row(exp, i, &row); i++)
		if (row.arm == expjson_count(a, "arm") &&
		    expjson_get(expjson_get(row.run, "truth"), "series") &&
		    fabs(row.metric - m) < best) {
			best = fabs(row.metric - m);
			at = (long)i;
		}
	return at;
}

/* The time t[k] of a series over x. */
static double at_time(const struct svg_scale *x, struct json_object *t,
		      size_t k)
{
	return svg_scale_map(
	    x, json_object_get_double(json_object_array_get_idx(t, k)));
}

/*
 * One line of a time series: points (t[t_from + k], v[k]). A rate over
 * intervals (t_from 1) with a single interval is one value: it is drawn
 * across its interval, since a path of one point shows nothing.
 */
static void series_path(struct strbuf *out, const char *cls,
			const struct svg_scale *x, const struct svg_scale *y,
			struct json_object *t, size_t t_from,
			struct json_object *v, double scale)
{
	size_t k, n = v ? json_object_array_length(v) : 0;

	if (!n)
		return;
	strbuf_addf(out, "<path class=\"line %s\" d=\"", cls);
	if (n == 1 && t_from && t_from < json_object_array_length(t)) {
		double py = svg_scale_map(
		    y, json_object_get_double(json_object_array_get_idx(v, 0)) /
			   scale);

		strbuf_addf(out, "M%.1f %.1f L%.1f %.1f\"/>",
			    at_time(x, t, t_from - 1), py,
			    at_time(x, t, t_from), py);
		return;
	}
	for (k = 0; k < n && t_from + k < json_object_array_length(t); k++)
		strbuf_addf(
		    out, "%s%.1f %.1f ", k ? "L" : "M",
		    at_time(x, t, t_from + k),
		    svg_scale_map(y, json_object_get_double(
					 json_object_array_get_idx(v, k)) /
					 scale));
	strbuf_addstr(out, "\"/>");
}

/* The largest value of array v over scale. */
static double array_max(struct json_object *v, double scale)
{
	size_t k, n = v ? json_object_array_length(v) : 0;
	double m = 0;

	for (k = 0; k < n; k++)
		m = fmax(
		    m, json_object_get_double(json_object_array_get_idx(v, k)) /
			   scale);
	return m;
}

/* One small time plot: two series a and b (legends la, lb) over t. */
static void time_plot(struct strbuf *out, const char *title,
		      struct json_object *t, size_t t_from,
		      struct json_object *a, struct json_object *b,
		      const char *la, const char *lb, double scale,
		      const char *unit)
{
	double w = 360, h = 190, top = 26, bottom = h - PLOT_AXIS, tmax;
	double ymax = fmax(array_max(a, scale), array_max(b, scale));
	struct svg_scale x, y;

	tmax = json_object_get_double(
	    json_object_array_get_idx(t, json_object_array_length(t) - 1));
	svg_scale_init(&x, 0, tmax > 0 ? tmax : 1, 56, w - 26, 0);
	svg_scale_init(&y, 0, ymax > 0 ? ymax : 1, bottom, top, 0);
	svg_fig_open(out, "half", title, NULL, w, h);
	svg_x_axis(out, &x, top, bottom, SVG_FMT_PLAIN, "seconds into the run");
	svg_y_axis(out, &y, 56, w - 26, SVG_FMT_METRIC);
	svg_text(out, 56, 14, "start", "tick", unit);
	strbuf_addf(out,
		    "<rect class=\"key c0\" x=\"%.1f\" y=\"5\" "
		    "width=\"10\" height=\"10\"/>",
		    w - 200);
	svg_text(out, w - 186, 14, "start", "tick", la);
	strbuf_addf(out,
		    "<rect class=\"key c1\" x=\"%.1f\" y=\"5\" "
		    "width=\"10\" height=\"10\"/>",
		    w - 100);
	svg_text(out, w - 86, 14, "start", "tick", lb);
	series_path(out, "c0", &x, &y, t, t_from, a, scale);
	series_path(out, "c1", &x, &y, t, t_from, b, scale);
	svg_fig_close(out);
}

/* Whether o's member key is an array with a value. */
static int has_values(struct json_object *o, const char *key)
{
	struct json_object *v = expjson_get_type(o, key, json_type_array);

	return v && json_object_array_length(v) > 0;
}

void plot_series(struct json_object *exp, struct strbuf *out)
{
	size_t na, i, k;
	struct json_object *arms = arms_of(exp, &na);
	struct report_run_row row;
	unsigned drawn = 0;

	for (i = 0; i < na; i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);
		long at = representative(exp, a);
		struct json_object *truth, *s, *t, *devs, *dev = NULL;
		struct strbuf title = STRBUF_INIT;

		if (at < 0 || report_run_row(exp, (size_t)at, &row))
			continue;
		truth = expjson_get(row.run, "truth");
		s = expjson_get(truth, "series");
		t = expjson_get_type(s, "t_s", json_type_array);
		if (!t || json_object_array_length(t) < 2)
			continue;
		devs = expjson_get_type(s, "devices", json_type_array);
		for (k = 0; devs && k < json_object_array_length(devs); k++) {
			struct json_object *d =
			    json_object_array_get_idx(devs, k);

			if (!dev || !strcmp(expjson_str(d, "name"),
					    expjson_str(truth, "device")))
				dev = d;
			if (!strcmp(expjson_str(d, "name"),
				    expjson_str(truth, "device")))
				break;
		}
		if (!drawn++)
			strbuf_addstr(out,
				      "<h2>A typical run of each arm</h2>\n");
		strbuf_addstr(out, "<div class=\"pair\"><h3>");
		svg_escape(out, expjson_str(a, "label"));
		strbuf_addf(out, " <span>block %d, ", row.block);
		report_fmt_metric(out, row.metric);
		strbuf_addstr(out, " (the run nearest the arm's median)</span>"
				   "</h3>");
		if (dev &&
		    (has_values(dev, "rmbps") || has_values(dev, "wmbps"))) {
			strbuf_addstr(&title, "Device ");
			strbuf_addstr(&title, expjson_str(dev, "name"));
			/* device rates are per interval: they end at t[1..] */
			time_plot(
			    out, title.buf, t, 1,
			    expjson_get_type(dev, "rmbps", json_type_array),
			    expjson_get_type(dev, "wmbps", json_type_array),
			    "read", "written", 1, "MB/s");
		}
		if (has_values(s, "dirty_bytes") ||
		    has_values(s, "writeback_bytes"))
			time_plot(
			    out, "Page cache", t, 0,
			    expjson_get_type(s, "dirty_bytes", json_type_array),
			    expjson_get_type(s, "writeback_bytes",
					     json_type_array),
			    "Dirty", "Writeback", 1024.0 * 1024, "MiB");
		strbuf_addstr(out, "</div>\n");
		strbuf_release(&title);
	}
}
