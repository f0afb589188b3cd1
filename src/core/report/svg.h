/*
 * The small amount of SVG the HTML report draws with: a scale from data
 * to pixels (linear or log), round tick values for its axis, and XML
 * escaping. Every string that comes from an experiment (labels typed by
 * a user, warnings) goes through svg_escape() before it reaches a page.
 */
#ifndef IOTRIAL_SVG_H
#define IOTRIAL_SVG_H

#include "../../util/strbuf.h"

#define SVG_MAX_TICKS 12

/* A map from the data interval [d0, d1] to the pixels [r0, r1]. */
struct svg_scale {
	double d0, d1; /* data; for a log scale both > 0 */
	double r0, r1; /* pixels; r1 < r0 for a y axis */
	int log;       /* log10 scale */
};

/*
 * A scale covering the data lo..hi (lo <= hi, both finite; for log both
 * > 0), widened to round values and, when lo == hi, around the value.
 */
void svg_scale_init(struct svg_scale *s, double lo, double hi, double r0,
		    double r1, int log);

/* The pixel of data value v (not clamped). */
double svg_scale_map(const struct svg_scale *s, double v);

/*
 * Round values inside the scale's data interval for an axis: steps of
 * 1, 2 or 5 times a power of ten (linear), or the powers of ten and, on
 * a short log axis, 2x and 5x them. Fills at most SVG_MAX_TICKS into
 * ticks; returns how many.
 */
int svg_ticks(const struct svg_scale *s, double ticks[SVG_MAX_TICKS]);

/* How an axis writes its values: "12.3k", "68.6us", "1.02", "0.5". */
enum svg_fmt { SVG_FMT_METRIC, SVG_FMT_NS, SVG_FMT_RATIO, SVG_FMT_PLAIN };

/* v as an axis of format f writes it, onto out. */
void svg_fmt_tick(struct strbuf *out, double v, enum svg_fmt f);

/*
 * Open a <figure> with a caption (title in bold, caption after it when
 * not NULL) and an <svg> of viewBox w x h; svg_fig_close() closes both.
 */
void svg_fig_open(struct strbuf *out, const char *cls, const char *title,
		  const char *caption, double w, double h);
void svg_fig_close(struct strbuf *out);

/* Text s (escaped) at x, y with anchor "start", "middle" or "end" and
 * CSS class cls. */
void svg_text(struct strbuf *out, double x, double y, const char *anchor,
	      const char *cls, const char *s);

/* Grid lines from y0 to y1 at x's ticks, their labels under y1, and the
 * axis label under those. */
void svg_x_axis(struct strbuf *out, const struct svg_scale *x, double y0,
		double y1, enum svg_fmt f, const char *label);

/* Grid lines from x0 to x1 at y's ticks, their labels left of x0. */
void svg_y_axis(struct strbuf *out, const struct svg_scale *y, double x0,
		double x1, enum svg_fmt f);

/* s with & < > " ' as character references, appended to out. */
void svg_escape(struct strbuf *out, const char *s);

/*
 * The CSS class of a verdict word ("good", "bad", "same", "vague"): the
 * page's table and its plots colour a verdict alike.
 */
const char *svg_verdict_class(const char *verdict);

#endif
