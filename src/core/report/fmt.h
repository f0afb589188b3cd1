/*
 * The small pieces every text renderer of report/ formats with: JSON
 * as iotrial prints it, a metric or a value for humans, and the padding
 * of a table's columns. Here, below the renderers, so that none of
 * them borrows them from another.
 */
#ifndef IOTRIAL_REPORT_FMT_H
#define IOTRIAL_REPORT_FMT_H

#include <stddef.h>
#include "../../util/strbuf.h"

/* A metric value for humans: "12.3k", "1.52M", "845", "97.3". */
void report_fmt_metric(struct strbuf *out, double v);
/*
 * One value in full, as a run's summary prints its numbers ("21480",
 * "1274", "0.8797"): four significant digits, whole numbers from 1000
 * up, never an exponent; "-" for NaN.
 */
void report_fmt_value(struct strbuf *out, double v);

/* A value of a metric in unit, as the tables show it: a latency ("ns")
 * as "68.6us", seconds ("s") with two decimals, else as a metric;
 * "-" for NaN. */
void report_fmt_in_unit(struct strbuf *out, double v, const char *unit);

/*
 * Pad the column that starts at out->len == from to width with spaces,
 * then add one more (the gap to the next column).
 */
void report_pad(struct strbuf *out, size_t from, size_t width);

/* s as text inside a Markdown table cell or list item (never at a line
 * start): \ ` * _ [ ] | ~ backslash-escaped, line breaks as spaces,
 * '<' '>' '&' as entities. */
void report_md_escape(struct strbuf *out, const char *s);

#endif
