/*
 * The plots of the HTML report (report_html.c), each one inline <svg>
 * drawn from the experiment document alone, styled by the page's CSS
 * classes so that dark mode and print recolour them. Each appends a
 * <figure> to out, or nothing when exp lacks the data it needs.
 */
#ifndef IOTRIAL_REPORT_PLOTS_H
#define IOTRIAL_REPORT_PLOTS_H

#include "suspect.h"
#include "../model/experiment_doc.h"
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

/* The height of a row of a row plot of doc: taller when some arm's
 * label takes two lines. */
double plot_row_height(const struct experiment_doc *doc);

/* Every run's metric per arm, with the arm's median and its CI. */
void plot_strip(const struct experiment_doc *doc, struct strbuf *out);

/* Each arm's ratio to the baseline with its CI, the equivalence band
 * around 1. */
void plot_forest(const struct experiment_doc *doc, struct strbuf *out);

/* One row of a forest plot: its label, the ratio it draws with its CI
 * and verdict, and what it rests on (marked when suspect). */
struct plot_forest_row {
	const char *label;
	double ratio, ci_low, ci_high; /* NaN: none */
	const char *verdict;
	struct suspect_src suspect;
};

/* The numbers of a row from a comparison (NULL: none) and verdict. */
void plot_forest_row_of(const struct experiment_doc *doc,
			const struct exp_comparison *cmp, const char *verdict,
			struct plot_forest_row *row);

/* rows as ratios with their CIs, the equivalence band of doc around 1,
 * titled title, the axis labelled axis. Nothing without a ratio. */
void plot_forest_rows(const struct experiment_doc *doc,
		      const struct plot_forest_row *rows, size_t n,
		      const char *title, const char *axis, struct strbuf *out);

/* Latency percentiles (p50..p99.9, median over the arm's runs) per arm
 * and direction on a log axis; only the directions the runs timed, so
 * nothing for a file workload, whose latencies are per operation. */
void plot_latency(const struct experiment_doc *doc, struct strbuf *out);

/* A file workload's latency per operation: one plot per operation its
 * runs timed, p50, p99 and max (median over the arm's runs) per arm on
 * a log axis; nothing when the runs timed no operation. */
void plot_op_latency(const struct experiment_doc *doc, struct strbuf *out);

/* For each factor whose values are all numbers, the arm medians with
 * CI bars against the factor's value, one line per combination of the
 * other factors. */
void plot_factors(const struct experiment_doc *doc, struct strbuf *out);

/* For each arm, its run nearest the arm's median: device MB/s read and
 * written, and Dirty and Writeback memory, over time; under a heading
 * of their own, and nothing when no run has the sampler's series. */
void plot_series(const struct experiment_doc *doc, struct strbuf *out);
/* An observe experiment's windows over time: each window's metric, its
 * span shaded by arm, settle periods hatched (report_plots_windows.c);
 * nothing for other experiments. */
void plot_windows(const struct experiment_doc *doc, struct strbuf *out);

#endif
