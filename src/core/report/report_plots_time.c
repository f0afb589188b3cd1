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
#include "fmt.h"
#include "report_doc.h"
#include "report_plots.h"
#include "runs_text.h"
#include "svg.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

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
static void others_label(const struct exp_arm *a, const char *factor,
			 struct strbuf *out)
{
	size_t i;

	for (i = 0; i < a->nr_settings; i++) {
		if (!strcmp(a->settings[i].name, factor))
			continue;
		if (out->len)
			strbuf_addch(out, ' ');
		strbuf_addf(out, "%s=%s", a->settings[i].name,
			    rd_s(a->settings[i].value));
	}
}

/* The value of factor name in arm a as a number, NaN if none. */
static double arm_value(const struct exp_arm *a, const char *name)
{
	return factor_number(
	    rd_s(report_pair(a->settings, a->nr_settings, name)));
}

/* The x axis of a factor's plot: a tick at each of its values, written
 * as typed ("4k", not 4096), and the axis label. */
static void level_axis(struct strbuf *out, const struct exp_factor *f,
		       const struct svg_scale *x, double y0, double y1,
		       const char *label)
{
	size_t i;

	for (i = 0; i < f->nr_values; i++) {
		const char *v = rd_s(f->values[i]);
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
static void plot_factor(const struct experiment_doc *doc,
			const struct exp_factor *f, struct strbuf *out)
{
	const char *name = rd_s(f->name);
	size_t na = doc->nr_arms, i, j, ns = 0;
	const struct exp_arm *arms = doc->arms;
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
		const struct exp_arm *a = &arms[i];
		double v = arm_value(a, name);

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
		ylo = fmin(ylo, fmin(ARM_NUM(a, median), ARM_NUM(a, ci_low)));
		yhi = fmax(yhi, fmax(ARM_NUM(a, median), ARM_NUM(a, ci_high)));
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
			const struct exp_arm *a = &arms[i];
			double v = arm_value(a, name);

			if (of[i] != j || !isfinite(v) ||
			    !isfinite(ARM_NUM(a, median)))
				continue;
			strbuf_addf(out, "%s%.1f %.1f ", first ? "M" : "L",
				    svg_scale_map(&x, v) + dodge(j, ns),
				    svg_scale_map(&y, ARM_NUM(a, median)));
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
		const struct exp_arm *a = &arms[i];
		double v = arm_value(a, name);
		double px, m = ARM_NUM(a, median);
		double cl = ARM_NUM(a, ci_low), ch = ARM_NUM(a, ci_high);

		if (!isfinite(v) || !isfinite(m))
			continue;
		px = svg_scale_map(&x, v) + dodge(of[i], ns);
		if (isfinite(cl) && isfinite(ch))
			strbuf_addf(
			    out,
			    "<path class=\"whisker c%zu\" d=\"M%.1f %.1f "
			    "L%.1f %.1f M%.1f %.1f L%.1f %.1f M%.1f %.1f "
			    "L%.1f %.1f\"/>",
			    of[i] % PLOT_COLOURS, px, svg_scale_map(&y, cl), px,
			    svg_scale_map(&y, ch), px - 5,
			    svg_scale_map(&y, cl), px + 5,
			    svg_scale_map(&y, cl), px - 5,
			    svg_scale_map(&y, ch), px + 5,
			    svg_scale_map(&y, ch));
		strbuf_addf(
		    out,
		    "<circle class=\"dot c%zu\" cx=\"%.1f\" cy=\"%.1f\" "
		    "r=\"4.5\"><title>",
		    of[i] % PLOT_COLOURS, px, svg_scale_map(&y, m));
		svg_escape(out, rd_s(a->label));
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

void plot_factors(const struct experiment_doc *doc, struct strbuf *out)
{
	size_t i, j;

	for (i = 0; i < doc->nr_factors; i++) {
		const struct exp_factor *f = &doc->factors[i];

		for (j = 0; j < f->nr_values; j++)
			if (!isfinite(factor_number(rd_s(f->values[j]))))
				break;
		if (f->nr_values >= 2 && j == f->nr_values)
			plot_factor(doc, f, out);
	}
}

/* The run of arm a (index into runs) whose metric is nearest the
 * median, or -1. */
static long representative(const struct experiment_doc *doc,
			   const struct exp_arm *a)
{
	double m = ARM_NUM(a, median), best = INFINITY;
	struct report_run row;
	long at = -1;
	size_t i;

	for (i = 0; !report_run_get(doc, i, &row); i++)
		if (row.arm == rd_count(a->arm) && row.run && row.run->truth &&
		    row.run->truth->series && fabs(row.metric - m) < best) {
			best = fabs(row.metric - m);
			at = (long)i;
		}
	return at;
}

/* A series of n values, doubles or byte counts (one of them NULL):
 * value k over scale, a missing one (null) read as 0. */
struct series {
	const double *d;
	const uint64_t *u;
	size_t n;
};

static double series_at(const struct series *v, size_t k, double scale)
{
	double x = v->d ? v->d[k] : v->u[k] == UINT64_MAX ? 0 : (double)v->u[k];

	return (isnan(x) ? 0 : x) / scale;
}

/*
 * One line of a time series: points (t[t_from + k], v[k]). A rate over
 * intervals (t_from 1) with a single interval is one value: it is drawn
 * across its interval, since a path of one point shows nothing.
 */
static void series_path(struct strbuf *out, const char *cls,
			const struct svg_scale *x, const struct svg_scale *y,
			const struct truth_series *s, size_t t_from,
			const struct series *v, double scale)
{
	size_t k, n = v->n;

	if (!n)
		return;
	strbuf_addf(out, "<path class=\"line %s\" d=\"", cls);
	if (n == 1 && t_from && t_from < s->nr_t_s) {
		double py = svg_scale_map(y, series_at(v, 0, scale));

		strbuf_addf(out, "M%.1f %.1f L%.1f %.1f\"/>",
			    svg_scale_map(x, s->t_s[t_from - 1]), py,
			    svg_scale_map(x, s->t_s[t_from]), py);
		return;
	}
	for (k = 0; k < n && t_from + k < s->nr_t_s; k++)
		strbuf_addf(out, "%s%.1f %.1f ", k ? "L" : "M",
			    svg_scale_map(x, s->t_s[t_from + k]),
			    svg_scale_map(y, series_at(v, k, scale)));
	strbuf_addstr(out, "\"/>");
}

/* The largest value of v over scale. */
static double series_max(const struct series *v, double scale)
{
	size_t k;
	double m = 0;

	for (k = 0; k < v->n; k++)
		m = fmax(m, series_at(v, k, scale));
	return m;
}

/* One small time plot: two series a and b (legends la, lb) over s's
 * times. */
static void time_plot(struct strbuf *out, const char *title,
		      const struct truth_series *s, size_t t_from,
		      const struct series *a, const struct series *b,
		      const char *la, const char *lb, double scale,
		      const char *unit)
{
	double w = 360, h = 190, top = 26, bottom = h - PLOT_AXIS, tmax;
	double ymax = fmax(series_max(a, scale), series_max(b, scale));
	struct svg_scale x, y;

	tmax = isnan(s->t_s[s->nr_t_s - 1]) ? 0 : s->t_s[s->nr_t_s - 1];
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
	series_path(out, "c0", &x, &y, s, t_from, a, scale);
	series_path(out, "c1", &x, &y, s, t_from, b, scale);
	svg_fig_close(out);
}

void plot_series(const struct experiment_doc *doc, struct strbuf *out)
{
	struct report_run row;
	unsigned drawn = 0;
	size_t i, k;

	for (i = 0; i < doc->nr_arms; i++) {
		const struct exp_arm *a = &doc->arms[i];
		long at = representative(doc, a);
		const struct truth_doc *truth;
		const struct truth_series *s;
		const struct truth_series_device *dev = NULL;
		struct strbuf title = STRBUF_INIT;

		if (at < 0 || report_run_get(doc, (size_t)at, &row))
			continue;
		truth = row.run->truth;
		s = truth->series;
		if (s->nr_t_s < 2)
			continue;
		for (k = 0; k < s->nr_devices; k++) {
			const struct truth_series_device *d = &s->devices[k];
			bool it = !strcmp(rd_s(d->name), rd_s(truth->device));

			if (!dev || it)
				dev = d;
			if (it)
				break;
		}
		if (!drawn++)
			strbuf_addstr(out,
				      "<h2>A typical run of each arm</h2>\n");
		strbuf_addstr(out, "<div class=\"pair\"><h3>");
		svg_escape(out, rd_s(a->label));
		strbuf_addf(out, " <span>block %d, ", row.block);
		report_fmt_metric(out, row.metric);
		strbuf_addstr(out, " (the run nearest the arm's median)</span>"
				   "</h3>");
		if (dev && (dev->nr_rmbps || dev->nr_wmbps)) {
			struct series r = {dev->rmbps, NULL, dev->nr_rmbps};
			struct series wr = {dev->wmbps, NULL, dev->nr_wmbps};

			strbuf_addstr(&title, "Device ");
			strbuf_addstr(&title, rd_s(dev->name));
			/* device rates are per interval: they end at t[1..] */
			time_plot(out, title.buf, s, 1, &r, &wr, "read",
				  "written", 1, "MB/s");
		}
		if (s->nr_dirty_bytes || s->nr_writeback_bytes) {
			struct series dy = {NULL, s->dirty_bytes,
					    s->nr_dirty_bytes};
			struct series wb = {NULL, s->writeback_bytes,
					    s->nr_writeback_bytes};

			time_plot(out, "Page cache", s, 0, &dy, &wb, "Dirty",
				  "Writeback", 1024.0 * 1024, "MiB");
		}
		strbuf_addstr(out, "</div>\n");
		strbuf_release(&title);
	}
}
