/*
 * The text table of an experiment. It is the answer to the user's
 * question, so it leads with the verdict column's meaning and keeps the
 * numbers that back it (CI, p) on the same line, as benchstat does.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "report.h"
#include "../../util/error.h"
#include "../../util/banned.h"

void report_fmt_metric(struct strbuf *out, double v)
{
	if (!isfinite(v))
		strbuf_addstr(out, "-");
	else if (v >= 1e9)
		strbuf_addf(out, "%.3gG", v / 1e9);
	else if (v >= 1e6)
		strbuf_addf(out, "%.3gM", v / 1e6);
	else if (v >= 1e4)
		strbuf_addf(out, "%.3gk", v / 1e3);
	else if (v >= 100)
		strbuf_addf(out, "%.0f", v);
	else
		strbuf_addf(out, "%.3g", v);
}

static double num(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return NAN;
	return json_object_get_double(v);
}

/* A count for display: 0 when missing or not finite. */
static int count(struct json_object *o, const char *key)
{
	double v = num(o, key);

	return isfinite(v) && v >= 0 && v < 1e9 ? (int)v : 0;
}

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return "";
	return json_object_get_string(v);
}

/* The verdict object for arm index, or NULL (baseline). */
static struct json_object *verdict_of(struct json_object *verdicts, int arm)
{
	size_t i, n = verdicts ? json_object_array_length(verdicts) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(verdicts, i);

		if (count(v, "arm") == arm)
			return v;
	}
	return NULL;
}

static void pad(struct strbuf *out, size_t from, size_t width)
{
	while (out->len - from < width)
		strbuf_addch(out, ' ');
	strbuf_addch(out, ' ');
}

static void arm_line(struct strbuf *out, struct json_object *arm,
		     struct json_object *v, int is_baseline, size_t label_width)
{
	size_t start = out->len;

	strbuf_addstr(out, str(arm, "label"));
	pad(out, start, label_width);
	start = out->len;
	report_fmt_metric(out, num(arm, "median"));
	pad(out, start, 7);
	start = out->len;
	strbuf_addch(out, '[');
	report_fmt_metric(out, num(arm, "ci_low"));
	strbuf_addstr(out, ", ");
	report_fmt_metric(out, num(arm, "ci_high"));
	strbuf_addch(out, ']');
	pad(out, start, 17);
	start = out->len;
	if (isfinite(num(arm, "cv")))
		strbuf_addf(out, "%.1f%%", 100 * num(arm, "cv"));
	pad(out, start, 6);
	strbuf_addf(out, "%3d  ", count(arm, "n"));
	if (!v) {
		strbuf_addstr(out, is_baseline ? "baseline\n" : "-\n");
		return;
	}
	start = out->len;
	if (isfinite(num(v, "ratio")))
		strbuf_addf(out, "%.3f [%.3f, %.3f]", num(v, "ratio"),
			    num(v, "ci_low"), num(v, "ci_high"));
	pad(out, start, 22);
	start = out->len;
	if (isfinite(num(v, "p_adjusted")))
		strbuf_addf(out, num(v, "p_adjusted") < 0.001 ? "%.1e" : "%.3f",
			    num(v, "p_adjusted"));
	pad(out, start, 7);
	strbuf_addf(out, "%s\n", str(v, "verdict"));
}

int report_experiment_text(struct json_object *exp, struct strbuf *out,
			   struct strbuf *err)
{
	struct json_object *arms, *verdicts = NULL, *warnings, *metric;
	size_t i, n, width = 3, start;
	int baseline = count(exp, "baseline");

	if (!json_object_object_get_ex(exp, "arms", &arms) ||
	    json_object_get_type(arms) != json_type_array)
		return err_set(err, -EINVAL,
			       "not an iotrial experiment object (no 'arms')");
	json_object_object_get_ex(exp, "verdicts", &verdicts);
	json_object_object_get_ex(exp, "metric", &metric);
	n = json_object_array_length(arms);
	for (i = 0; i < n; i++) {
		size_t l = strlen(str(json_object_array_get_idx(arms, i),
				      "label"));

		if (l > width)
			width = l;
	}
	strbuf_addf(out, "experiment %s: %s on %s, %s (%s is better)\n",
		    *str(exp, "id") ? str(exp, "id") : "(not stored)",
		    str(exp, "workload"), str(exp, "target"),
		    str(metric, "name"),
		    metric && json_object_get_boolean(json_object_object_get(
				      metric, "higher_is_better"))
			    ? "higher"
			    : "lower");
	strbuf_addf(out, "%d block%s, seed %s, stopped: %s\n\n",
		    count(exp, "blocks"), count(exp, "blocks") == 1 ? "" : "s",
		    str(exp, "seed"), str(exp, "stopped"));
	start = out->len;
	strbuf_addstr(out, "arm");
	pad(out, start, width);
	strbuf_addstr(out, "median  95% CI            cv       n  "
			   "ratio [95% CI]         p       verdict\n");
	for (i = 0; i < n; i++) {
		struct json_object *arm = json_object_array_get_idx(arms, i);
		int idx = count(arm, "arm");

		arm_line(out, arm,
			 idx == baseline ? NULL : verdict_of(verdicts, idx),
			 idx == baseline, width);
	}
	if (json_object_object_get_ex(exp, "warnings", &warnings)) {
		n = json_object_array_length(warnings);
		if (n)
			strbuf_addch(out, '\n');
		for (i = 0; i < n; i++)
			strbuf_addf(out, "warning: %s\n",
				    json_object_get_string(
					    json_object_array_get_idx(warnings,
								      i)));
	}
	return 0;
}
