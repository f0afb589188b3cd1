/*
 * The scaling table: what a sweep over clients, iodepth or read-ahead
 * looks like to people used to dbench's tables, one line per value,
 * read from the experiment object's "scaling" rows only.
 */
#include <math.h>
#include <string.h>
#include "fmt.h"
#include "expjson.h"
#include "report.h"
#include "scaling_text.h"
#include "suspect.h"
#include "../../util/banned.h"

/* "name=value, ..." of a row's "within", or nothing when it is empty. */
static void within_text(struct json_object *row, struct strbuf *out)
{
	struct json_object *w =
	    expjson_get_type(row, "within", json_type_object);
	int first = 1;

	if (!w || !json_object_object_length(w))
		return;
	strbuf_addstr(out, " (");
	json_object_object_foreach(w, key, val)
	{
		strbuf_addf(out, "%s%s=%s", first ? "" : ", ", key,
			    json_object_get_string(val));
		first = 0;
	}
	strbuf_addch(out, ')');
}

/* Do rows a and b belong to one table (one factor, the same within)? */
static bool same_group(struct json_object *a, struct json_object *b)
{
	struct json_object *wa = expjson_get(a, "within");
	struct json_object *wb = expjson_get(b, "within");

	return !strcmp(expjson_str(a, "factor"), expjson_str(b, "factor")) &&
	       !strcmp(wa ? json_object_to_json_string(wa) : "",
		       wb ? json_object_to_json_string(wb) : "");
}

static void row_line(struct strbuf *out, struct json_object *exp,
		     struct json_object *row, size_t width)
{
	size_t start = out->len;
	double ratio = expjson_num(row, "ratio_to_first");

	strbuf_addstr(out, expjson_str(row, "value"));
	report_pad(out, start, width);
	start = out->len;
	report_fmt_metric(out, expjson_num(row, "median"));
	report_pad(out, start, 7);
	start = out->len;
	strbuf_addch(out, '[');
	report_fmt_metric(out, expjson_num(row, "ci_low"));
	strbuf_addstr(out, ", ");
	report_fmt_metric(out, expjson_num(row, "ci_high"));
	strbuf_addch(out, ']');
	report_pad(out, start, 17);
	strbuf_addf(out, "%3d  ", expjson_count(row, "n"));
	if (isfinite(ratio))
		strbuf_addf(out, "%.2fx", ratio);
	else
		strbuf_addstr(out, "-");
	strbuf_addstr(out, suspect_is(exp, row) ? "*\n" : "\n");
}

/* "clients=4 (atime=noatime)": the row of a footnote. */
static void row_heading(struct json_object *row, struct strbuf *out)
{
	strbuf_addf(out, "%s=%s", expjson_str(row, "factor"),
		    expjson_str(row, "value"));
	within_text(row, out);
}

bool report_scaling_text(struct json_object *exp, struct strbuf *out)
{
	struct json_object *rows =
	    expjson_get_type(exp, "scaling", json_type_array);
	const char *metric = expjson_str(expjson_get(exp, "metric"), "name");
	size_t i, j, n = rows ? json_object_array_length(rows) : 0;

	for (i = 0; i < n; i = j) {
		struct json_object *first = json_object_array_get_idx(rows, i);
		const char *factor = expjson_str(first, "factor");
		size_t width = strlen(factor), start;

		for (j = i; j < n; j++) {
			struct json_object *r =
			    json_object_array_get_idx(rows, j);

			if (!same_group(first, r))
				break;
			if (strlen(expjson_str(r, "value")) > width)
				width = strlen(expjson_str(r, "value"));
		}
		strbuf_addf(out, "\nscaling of %s with %s", metric, factor);
		within_text(first, out);
		strbuf_addstr(out, ":\n");
		start = out->len;
		strbuf_addstr(out, factor);
		report_pad(out, start, width);
		strbuf_addf(out, "median  95%% CI              n  vs %s=%s\n",
			    factor, expjson_str(first, "value"));
		for (; i < j; i++)
			row_line(out, exp, json_object_array_get_idx(rows, i),
				 width);
	}
	for (i = 0, j = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(rows, i);
		struct strbuf h = STRBUF_INIT;

		if (!suspect_is(exp, r))
			continue;
		row_heading(r, &h);
		strbuf_addstr(out, j++ ? "* " : "\n* ");
		suspect_note(exp, r, h.buf, out);
		strbuf_addch(out, '\n');
		strbuf_release(&h);
	}
	return n > 0;
}
