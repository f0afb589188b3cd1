/*
 * The one-line texts the results store keeps beside each experiment,
 * for `iotrial log` to list without opening the JSON: the arm labels and
 * what the experiment concluded. They are rendered once, when the
 * experiment is saved, so they are report text like any other.
 */
#include <math.h>
#include "report.h"
#include "expjson.h"
#include "suspect.h"
#include "../../util/banned.h"

void report_arm_labels(struct json_object *exp, struct strbuf *out)
{
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);
	size_t i, n = arms ? json_object_array_length(arms) : 0;

	for (i = 0; i < n; i++)
		strbuf_addf(
		    out, "%s%s", i ? ", " : "",
		    expjson_str(json_object_array_get_idx(arms, i), "label"));
}

/* A metric where less is better (latency, time) says so: a ratio of
 * 2.0x means twice as slow there. */
static void lower_is_better(struct json_object *exp, struct strbuf *out)
{
	struct json_object *hib =
	    expjson_get(expjson_get(exp, "metric"), "higher_is_better");

	if (hib && !json_object_get_boolean(hib))
		strbuf_addstr(out, " (lower is better)");
}

void report_verdict_summary(struct json_object *exp, struct strbuf *out)
{
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);
	struct json_object *vs =
	    expjson_get_type(exp, "verdicts", json_type_array);
	size_t nr_arms = arms ? json_object_array_length(arms) : 0;
	size_t i, nr_v = vs ? json_object_array_length(vs) : 0, shown = 0;

	strbuf_addf(out, "%zu arm%s: ", nr_arms, nr_arms == 1 ? "" : "s");
	for (i = 0; i < nr_v; i++) {
		struct json_object *v = json_object_array_get_idx(vs, i);
		double ratio = expjson_num(v, "ratio");
		bool suspect = suspect_is(exp, v);

		strbuf_addf(out, "%s%s %s%s", shown++ ? ", " : "",
			    expjson_str(v, "label"), expjson_str(v, "verdict"),
			    suspect ? "*" : "");
		if (isfinite(ratio))
			strbuf_addf(out, " %.2fx", ratio);
		if (suspect) {
			strbuf_addstr(out, " (suspect: ");
			suspect_kinds(exp, v, out);
			strbuf_addch(out, ')');
		}
	}
	if (!shown && nr_arms > 1)
		strbuf_addstr(out, "no verdicts");
	if (!shown && nr_arms == 1) {
		struct json_object *a = json_object_array_get_idx(arms, 0);
		double n = expjson_num(a, "n"), med = expjson_num(a, "median");

		n = isfinite(n) ? n : 0;
		strbuf_addf(out, "%.0f run%s", n, n == 1 ? "" : "s");
		if (isfinite(med)) {
			strbuf_addstr(out, ", median ");
			report_fmt_metric(out, med);
			strbuf_addf(
			    out, " %s",
			    expjson_str(expjson_get(exp, "metric"), "name"));
		}
	}
	lower_is_better(exp, out);
}
