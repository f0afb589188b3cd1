/*
 * Scales and ticks for the report's inline SVG; see svg.h. Ticks follow
 * the usual 1-2-5 rule so an axis reads 0, 500, 1000, 1500 and not
 * 0, 437, 874.
 */
#include <math.h>
#include <string.h>
#include "svg.h"
#include "report.h"
#include "../../util/units.h"
#include "../../util/banned.h"

/* The 1, 2 or 5 times a power of ten nearest above span / want. */
static double nice_step(double span, int want)
{
	double raw = span / want, p = pow(10, floor(log10(raw)));

	if (raw / p <= 1)
		return p;
	if (raw / p <= 2)
		return 2 * p;
	if (raw / p <= 5)
		return 5 * p;
	return 10 * p;
}

void svg_scale_init(struct svg_scale *s, double lo, double hi, double r0,
		    double r1, int log)
{
	double step;

	s->r0 = r0;
	s->r1 = r1;
	s->log = log;
	if (log) {
		if (!(lo > 0))
			lo = hi > 0 ? hi / 10 : 1;
		if (!(hi >= lo))
			hi = lo;
		s->d0 = pow(10, floor(log10(lo)));
		s->d1 = pow(10, ceil(log10(hi)));
		if (s->d1 <= s->d0)
			s->d1 = s->d0 * 10;
		return;
	}
	if (hi == lo) {
		double pad = lo ? fabs(lo) / 10 : 1;

		lo -= pad;
		hi += pad;
	}
	step = nice_step(hi - lo, 5);
	s->d0 = floor(lo / step) * step;
	s->d1 = ceil(hi / step) * step;
}

double svg_scale_map(const struct svg_scale *s, double v)
{
	double f;

	if (s->log)
		f = (log10(v) - log10(s->d0)) / (log10(s->d1) - log10(s->d0));
	else
		f = (v - s->d0) / (s->d1 - s->d0);
	return s->r0 + f * (s->r1 - s->r0);
}

int svg_ticks(const struct svg_scale *s, double ticks[SVG_MAX_TICKS])
{
	int n = 0;

	if (s->log) {
		double decades = log10(s->d1) - log10(s->d0), p;
		int every = decades > SVG_MAX_TICKS - 1
				? (int)ceil(decades / (SVG_MAX_TICKS - 1))
				: 1;
		int k = 0;

		for (p = s->d0; p <= s->d1 * 1.0001 && n < SVG_MAX_TICKS;
		     p *= 10, k++) {
			if (k % every)
				continue;
			ticks[n++] = p;
			if (decades <= 2 && p < s->d1 * 0.999) {
				if (n < SVG_MAX_TICKS)
					ticks[n++] = 2 * p;
				if (n < SVG_MAX_TICKS)
					ticks[n++] = 5 * p;
			}
		}
		return n;
	}
	{
		double step = nice_step(s->d1 - s->d0, 5), t;
		double first = ceil(s->d0 / step - 1e-9) * step;

		for (t = first; t <= s->d1 + step * 1e-9 && n < SVG_MAX_TICKS;
		     t += step)
			ticks[n++] = fabs(t) < step * 1e-9 ? 0 : t;
	}
	return n;
}

void svg_escape(struct strbuf *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			strbuf_addstr(out, "&amp;");
			break;
		case '<':
			strbuf_addstr(out, "&lt;");
			break;
		case '>':
			strbuf_addstr(out, "&gt;");
			break;
		case '"':
			strbuf_addstr(out, "&quot;");
			break;
		case '\'':
			strbuf_addstr(out, "&#39;");
			break;
		case '\t':
		case '\n':
			strbuf_addch(out, *s);
			break;
		default:
			/* control characters are not allowed in XML 1.0 */
			strbuf_addch(out, (unsigned char)*s < 0x20 ? ' ' : *s);
		}
	}
}

void svg_fmt_tick(struct strbuf *out, double v, enum svg_fmt f)
{
	if (f == SVG_FMT_NS)
		units_fmt_ns(out, v);
	else if (f == SVG_FMT_RATIO)
		strbuf_addf(out, "%.3g", v);
	else if (f == SVG_FMT_PLAIN)
		strbuf_addf(out, "%g", v);
	else
		report_fmt_metric(out, v);
}

/* <figure><figcaption>caption</figcaption><svg ...> for width x height. */
void svg_fig_open(struct strbuf *out, const char *cls, const char *title,
		  const char *caption, double w, double h)
{
	strbuf_addf(out, "<figure class=\"%s\"><figcaption>", cls);
	svg_escape(out, title);
	if (caption && *caption) {
		strbuf_addstr(out, "<span>");
		svg_escape(out, caption);
		strbuf_addstr(out, "</span>");
	}
	strbuf_addf(
	    out,
	    "</figcaption><svg class=\"plot\" viewBox=\"0 0 %.0f %.0f\" "
	    "role=\"img\" aria-label=\"",
	    w, h);
	svg_escape(out, title);
	strbuf_addstr(out, "\">");
}

void svg_fig_close(struct strbuf *out)
{
	strbuf_addstr(out, "</svg></figure>\n");
}

/* Text at x, y with anchor ("start", "middle", "end") and class. */
void svg_text(struct strbuf *out, double x, double y, const char *anchor,
	      const char *cls, const char *s)
{
	strbuf_addf(out,
		    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" "
		    "class=\"%s\">",
		    x, y, anchor, cls);
	svg_escape(out, s);
	strbuf_addstr(out, "</text>");
}

/* Vertical grid lines and tick labels of x between y0 and y1, and the
 * axis label under them. */
void svg_x_axis(struct strbuf *out, const struct svg_scale *x, double y0,
		double y1, enum svg_fmt f, const char *label)
{
	double t[SVG_MAX_TICKS];
	int i, n = svg_ticks(x, t);
	struct strbuf s = STRBUF_INIT;

	for (i = 0; i < n; i++) {
		double px = svg_scale_map(x, t[i]);

		strbuf_addf(out,
			    "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" "
			    "x2=\"%.1f\" y2=\"%.1f\"/>",
			    px, y0, px, y1);
		strbuf_reset(&s);
		svg_fmt_tick(&s, t[i], f);
		svg_text(out, px, y1 + 15, "middle", "tick", s.buf);
	}
	svg_text(out, (x->r0 + x->r1) / 2, y1 + 33, "middle", "axis", label);
	strbuf_release(&s);
}

/* Horizontal grid lines and tick labels of y left of x0. */
void svg_y_axis(struct strbuf *out, const struct svg_scale *y, double x0,
		double x1, enum svg_fmt f)
{
	double t[SVG_MAX_TICKS];
	int i, n = svg_ticks(y, t);
	struct strbuf s = STRBUF_INIT;

	for (i = 0; i < n; i++) {
		double py = svg_scale_map(y, t[i]);

		strbuf_addf(out,
			    "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" "
			    "x2=\"%.1f\" y2=\"%.1f\"/>",
			    x0, py, x1, py);
		strbuf_reset(&s);
		svg_fmt_tick(&s, t[i], f);
		svg_text(out, x0 - 6, py + 4, "end", "tick", s.buf);
	}
	strbuf_release(&s);
}

const char *svg_verdict_class(const char *verdict)
{
	if (!strcmp(verdict, "faster"))
		return "good";
	if (!strcmp(verdict, "slower"))
		return "bad";
	if (!strcmp(verdict, "equivalent"))
		return "same";
	return "vague";
}
