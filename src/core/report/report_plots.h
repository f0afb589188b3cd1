/*
 * The plots of the HTML report (report_html.c), each one inline <svg>
 * drawn from the experiment object alone, styled by the page's CSS
 * classes so that dark mode and print recolour them. Each appends a
 * <figure> to out, or nothing when exp lacks the data it needs.
 */
#ifndef IOTRIAL_REPORT_PLOTS_H
#define IOTRIAL_REPORT_PLOTS_H

#include <json-c/json.h>
#include "../../util/strbuf.h"

/* The layout every plot shares, in viewBox units (CSS pixels at the
 * report's full width). */
#define PLOT_W	     720.0 /* width of a full-width plot */
#define PLOT_LEFT    200.0 /* room for arm labels */
#define PLOT_RIGHT   24.0  /* room right of the plot */
#define PLOT_ROW     30.0  /* height of one row of a row plot */
#define PLOT_AXIS    40.0  /* room under a plot for ticks and axis label */
#define PLOT_COLOURS 6	   /* series colours c0..c5 of the page's CSS */

/*
 * A row's label right-aligned left of a row plot at y: on one line when
 * it fits, else broken at spaces into two ("jobs=1" over
 * "vm.dirty_background_ratio=10"), the second cut with an ellipsis if
 * it is still too long. The whole label is the tooltip.
 */
void plot_row_label(struct strbuf *out, double y, const char *label,
		    const char *cls);

/* The height of a row of a row plot of exp: taller when some arm's
 * label takes two lines. */
double plot_row_height(struct json_object *exp);

/* Every run's metric per arm, with the arm's median and its CI. */
void plot_strip(struct json_object *exp, struct strbuf *out);

/* Each arm's ratio to the baseline with its CI, the equivalence band
 * around 1. */
void plot_forest(struct json_object *exp, struct strbuf *out);

/* One row of a forest plot: its label, and the object with "ratio",
 * "ci_low", "ci_high" and "verdict" it draws (marked when suspect). */
struct plot_forest_row {
	const char *label;
	struct json_object *x;
};

/* rows as ratios with their CIs, the equivalence band of exp around 1,
 * titled title, the axis labelled axis. Nothing without a ratio. */
void plot_forest_rows(struct json_object *exp,
		      const struct plot_forest_row *rows, size_t n,
		      const char *title, const char *axis, struct strbuf *out);

/* Latency percentiles (p50..p99.9, median over the arm's runs) per arm
 * and direction on a log axis; only the directions the runs timed, so
 * nothing for a file workload, whose latencies are per operation. */
void plot_latency(struct json_object *exp, struct strbuf *out);

/* A file workload's latency per operation: one plot per operation its
 * runs timed, p50, p99 and max (median over the arm's runs) per arm on
 * a log axis; nothing when the runs timed no operation. */
void plot_op_latency(struct json_object *exp, struct strbuf *out);

/* For each factor whose values are all numbers, the arm medians with
 * CI bars against the factor's value, one line per combination of the
 * other factors. */
void plot_factors(struct json_object *exp, struct strbuf *out);

/* For each arm, its run nearest the arm's median: device MB/s read and
 * written, and Dirty and Writeback memory, over time; under a heading
 * of their own, and nothing when no run has the sampler's series. */
void plot_series(struct json_object *exp, struct strbuf *out);
/* An observe experiment's windows over time: each window's metric, its
 * span shaded by arm, settle periods hatched (report_plots_windows.c);
 * nothing for other experiments. */
void plot_windows(struct json_object *exp, struct strbuf *out);

#endif
