/*
 * compare's arms the way hyperfine exports its commands, for a
 * spreadsheet or a README, without the store: --export-csv and
 * --export-markdown. hyperfine writes a row per command with its mean,
 * standard deviation, median, user and system time, min and max, and
 * its Markdown table a "Relative" column; a compare's arm has a median
 * with its confidence interval, and its comparison with the baseline is
 * a ratio with its own interval and a verdict, so those are the columns.
 *
 * CSV (RFC 4180, CRLF): arm, metric, unit, runs, median, median_ci_low,
 * median_ci_high, min, max, cv, ratio, ratio_ci_low, ratio_ci_high, p,
 * verdict ("baseline" for the baseline, whose ratio is 1), then
 * factor_NAME per factor (its value in the arm), as hyperfine's
 * parameter_NAME. Numbers in the metric's unit, with enough digits to
 * compute with; a field a spreadsheet would run as a formula is quoted
 * with a ' before it (report_csv_field()). Markdown: a pipe table of
 * arm, runs, median, its interval, the ratio with its interval (the
 * baseline's 1.00) and the verdict, every label escaped.
 */
#ifndef IOTRIAL_ARMS_EXPORT_H
#define IOTRIAL_ARMS_EXPORT_H

#include "../model/experiment_doc.h"
#include "../../util/strbuf.h"

/* The arms of doc as CSV or Markdown, appended to out. */
void report_arms_csv(const struct experiment_doc *doc, struct strbuf *out);
void report_arms_md(const struct experiment_doc *doc, struct strbuf *out);

#endif
