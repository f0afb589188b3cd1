/*
 * The tables of the HTML report (report_html.c) beside the verdicts: the
 * workload's other metrics and a file workload's latency per operation,
 * the same figures `show` prints, so that the page holds everything the
 * text does.
 */
#ifndef IOTRIAL_REPORT_HTML_TABLES_H
#define IOTRIAL_REPORT_HTML_TABLES_H

#include <json-c/json.h>
#include "../../util/strbuf.h"

/* The metrics exp's "metrics" marks shown, other than the primary one,
 * median per arm (arms[].metrics), under a heading; nothing when there
 * are none. */
void html_metrics_table(struct json_object *exp, struct strbuf *out);

/* Count, mean, p50, p99, max and errors per arm and operation, median
 * over the arm's runs (report_ops.h), under a heading; nothing when no
 * run timed an operation. */
void html_ops_table(struct json_object *exp, struct strbuf *out);

#endif
