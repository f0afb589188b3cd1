/*
 * The HTML report's tables of other metrics and per-operation latency;
 * see report_html_tables.h. Every string from the experiment (labels,
 * metric names and units, operation names) goes through svg_escape().
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report_html_tables.h"
#include "report_ops.h"
#include "report.h"
#include "expjson.h"
#include "svg.h"
#include "../../util/units.h"
#include "../../util/banned.h"

/* A number cell: v in unit ("ns" as a latency, "s" with two decimals,
 * else as the metric), empty when unknown. */
static void td_unit(struct strbuf *out, double v, const char *unit)
{
	strbuf_addstr(out, "<td class=\"num\">");
	if (!isfinite(v))
		;
	else if (!strcmp(unit, "ns"))
		units_fmt_ns(out, v);
	else if (!strcmp(unit, "s"))
		strbuf_addf(out, "%.2f", v);
	else
		report_fmt_metric(out, v);
	strbuf_addstr(out, "</td>");
}

void html_metrics_table(struct json_object *exp, struct strbuf *out)
{
	struct json_object *list =
	    expjson_get_type(exp, "metrics", json_type_array);
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);
	const char *primary = expjson_str(expjson_get(exp, "metric"), "name");
	size_t i, j, n = list ? json_object_array_length(list) : 0;
	struct strbuf head = STRBUF_INIT;

	for (j = 0; j < n; j++)
		if (report_metric_beside(json_object_array_get_idx(list, j),
					 primary))
			break;
	if (j == n || !arms || !json_object_array_length(arms))
		return;
	strbuf_addstr(out, "<h2>Beside the metric, median per arm</h2>"
			   "<div class=\"tbl\"><table class=\"metrics\">"
			   "<thead><tr><th>arm</th>");
	for (j = 0; j < n; j++) {
		struct json_object *d = json_object_array_get_idx(list, j);

		if (!report_metric_beside(d, primary))
			continue;
		strbuf_reset(&head);
		report_metric_heading(d, &head);
		strbuf_addstr(out, "<th class=\"num\">");
		svg_escape(out, head.buf);
		strbuf_addstr(out, "</th>");
	}
	strbuf_addstr(out, "</tr></thead><tbody>\n");
	for (i = 0; i < json_object_array_length(arms); i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);
		struct json_object *med = expjson_get(a, "metrics");

		strbuf_addstr(out, "<tr><td class=\"arm\">");
		svg_escape(out, expjson_str(a, "label"));
		strbuf_addstr(out, "</td>");
		for (j = 0; j < n; j++) {
			struct json_object *d =
			    json_object_array_get_idx(list, j);

			if (report_metric_beside(d, primary))
				td_unit(
				    out,
				    expjson_num(med, expjson_str(d, "name")),
				    expjson_str(d, "unit"));
		}
		strbuf_addstr(out, "</tr>\n");
	}
	strbuf_addstr(out, "</tbody></table></div>\n");
	strbuf_release(&head);
}

void html_ops_table(struct json_object *exp, struct strbuf *out)
{
	static const char *const us[] = {"mean_us", "p50_us", "p99_us",
					 "max_us"};
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);
	size_t na = arms ? json_object_array_length(arms) : 0, i, j, k;
	const char **ops = NULL;
	size_t nops = report_op_names(exp, &ops);

	if (!nops || !na) {
		free(ops);
		return;
	}
	strbuf_addstr(out, "<h2>Per operation, median over each arm's runs"
			   "</h2><div class=\"tbl\"><table class=\"ops\">"
			   "<thead><tr><th>arm</th><th>operation</th>"
			   "<th class=\"num\">count</th><th class=\"num\">"
			   "mean</th><th class=\"num\">p50</th><th "
			   "class=\"num\">p99</th><th class=\"num\">max</th>"
			   "<th class=\"num\">errors</th></tr></thead>"
			   "<tbody>\n");
	for (i = 0; i < na; i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);
		int arm = expjson_count(a, "arm");

		for (j = 0; j < nops; j++) {
			double c = report_op_median(exp, arm, ops[j], "count");

			if (!isfinite(c))
				continue;
			strbuf_addstr(out, "<tr><td class=\"arm\">");
			svg_escape(out, expjson_str(a, "label"));
			strbuf_addstr(out, "</td><td><code>");
			svg_escape(out, ops[j]);
			strbuf_addf(out,
				    "</code></td><td class=\"num\">%.0f"
				    "</td>",
				    c);
			for (k = 0; k < 4; k++)
				td_unit(out,
					1000 * report_op_median(exp, arm,
								ops[j], us[k]),
					"ns");
			c = report_op_median(exp, arm, ops[j], "errors");
			strbuf_addstr(out, "<td class=\"num\">");
			if (isfinite(c))
				strbuf_addf(out, "%.0f", c);
			strbuf_addstr(out, "</td></tr>\n");
		}
	}
	strbuf_addstr(out, "</tbody></table></div>\n");
	free(ops);
}
