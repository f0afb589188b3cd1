/*
 * The fleet table (fleet_text.h): one line per host, failed hosts
 * included with their reason, so that nobody reads a fleet verdict
 * without seeing which hosts it stands on and which it does not.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include "fmt.h"
#include "fleet_text.h"
#include "expjson.h"
#include "suspect.h"
#include "../../util/banned.h"

/* The longest string member key among the objects of arr. */
static size_t widest(struct json_object *arr, const char *key, size_t min)
{
	size_t i, w = min;

	for (i = 0; i < json_object_array_length(arr); i++) {
		size_t n =
		    strlen(expjson_str(json_object_array_get_idx(arr, i), key));

		w = n > w ? n : w;
	}
	return w;
}

/* Does a host's verdict v carry reasons to suspect it? */
static bool marked(struct json_object *v)
{
	struct json_object *s = expjson_get_type(v, "suspect", json_type_array);

	return s && json_object_array_length(s) > 0;
}

/* One good host's line: kernel, then its ratio and verdict per arm. */
static void host_line(struct strbuf *out, struct json_object *h,
		      size_t kernel_w, size_t col_w)
{
	struct json_object *vs =
	    expjson_get_type(h, "verdicts", json_type_array);
	struct json_object *differs =
	    expjson_get_type(h, "differs", json_type_array);
	bool flagged = differs && json_object_array_length(differs);
	size_t i, start = out->len;

	strbuf_addf(out, "%s%s", expjson_str(h, "kernel"),
		    flagged ? " (!)" : "");
	report_pad(out, start, kernel_w);
	for (i = 0; vs && i < json_object_array_length(vs); i++) {
		struct json_object *v = json_object_array_get_idx(vs, i);
		double r = expjson_num(v, "ratio");

		start = out->len;
		if (isfinite(r))
			strbuf_addf(out, "%.3f ", r);
		strbuf_addstr(out, expjson_str(v, "verdict"));
		if (marked(v))
			strbuf_addch(out, '*');
		if (expjson_get(v, "stated"))
			strbuf_addch(out, '#');
		report_pad(out, start, col_w);
	}
	strbuf_rtrim(out);
	strbuf_addch(out, '\n');
}

/* "* HOST LABEL: why" for each marked verdict of a host. */
static void host_notes(struct json_object *exp, struct json_object *hosts,
		       struct strbuf *out)
{
	size_t i, j;
	struct strbuf h = STRBUF_INIT;

	for (i = 0; i < json_object_array_length(hosts); i++) {
		struct json_object *host = json_object_array_get_idx(hosts, i);
		struct json_object *vs =
		    expjson_get_type(host, "verdicts", json_type_array);

		for (j = 0; vs && j < json_object_array_length(vs); j++) {
			struct json_object *v =
			    json_object_array_get_idx(vs, j);

			if (!marked(v))
				continue;
			strbuf_reset(&h);
			strbuf_addf(&h, "%s %s", expjson_str(host, "host"),
				    expjson_str(v, "label"));
			strbuf_addstr(out, "* ");
			suspect_note(exp, v, h.buf, out);
			strbuf_addch(out, '\n');
		}
	}
	strbuf_release(&h);
}

/* "what verdict v says": "faster, ratio 50.000, p 0". */
static void says(struct json_object *v, struct strbuf *out)
{
	double r = expjson_num(v, "ratio"), p = expjson_num(v, "p_adjusted");

	strbuf_addstr(out, *expjson_str(v, "verdict")
			       ? expjson_str(v, "verdict")
			       : "no verdict");
	if (isfinite(r))
		strbuf_addf(out, ", ratio %.3f", r);
	if (isfinite(p))
		strbuf_addf(out, ", p %.3g", p);
}

/*
 * "# HOST LABEL: its file says ..., its runs give ..." for each verdict
 * of a host whose file states another than its runs give (marked '#').
 */
static void inconsistent_notes(struct json_object *hosts, struct strbuf *out)
{
	size_t i, j;

	for (i = 0; i < json_object_array_length(hosts); i++) {
		struct json_object *host = json_object_array_get_idx(hosts, i);
		struct json_object *vs =
		    expjson_get_type(host, "verdicts", json_type_array);

		for (j = 0; vs && j < json_object_array_length(vs); j++) {
			struct json_object *v =
			    json_object_array_get_idx(vs, j);
			struct json_object *st = expjson_get(v, "stated");

			if (!st)
				continue;
			strbuf_addf(out, "# %s %s: its file says ",
				    expjson_str(host, "host"),
				    expjson_str(v, "label"));
			says(st, out);
			strbuf_addstr(out, ", its runs give ");
			says(v, out);
			strbuf_addstr(out, "; the fleet counts its runs\n");
		}
	}
}

/*
 * Under a host whose revert did not run or failed: that it may still
 * hold a changed setting (its failure line may say why, but not that).
 */
static void revert_line(struct strbuf *out, struct json_object *h,
			size_t host_w)
{
	const char *r = expjson_str(h, "revert");

	if (!*r || !strcmp(r, "ok"))
		return;
	strbuf_addf(out,
		    "%*s (!) iotrial revert %s there: the host may still hold "
		    "a changed setting; run 'iotrial revert' on it\n",
		    (int)host_w, "",
		    strcmp(r, "not run") ? "failed" : "did not run");
}

/* The counts of the hosts' verdicts: "2 faster, 1 slower". */
static void counts(struct strbuf *out, struct json_object *c)
{
	static const char *const order[] = {"faster", "slower", "equivalent",
					    "inconclusive", "no verdict"};
	size_t i, shown = 0;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		int n = expjson_count(c, order[i]);

		if (n)
			strbuf_addf(out, "%s%d %s", shown++ ? ", " : "", n,
				    order[i]);
	}
	json_object_object_foreach(c, key, val)
	{
		for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
			if (!strcmp(key, order[i]))
				break;
		if (i == sizeof(order) / sizeof(order[0]))
			strbuf_addf(out, "%s%d %s", shown++ ? ", " : "",
				    json_object_get_int(val), key);
	}
}

void report_fleet_text(struct json_object *exp, struct strbuf *out)
{
	struct json_object *fleet =
	    expjson_get_type(exp, "fleet", json_type_object);
	struct json_object *hosts =
	    expjson_get_type(fleet, "hosts", json_type_array);
	struct json_object *vs =
	    expjson_get_type(exp, "verdicts", json_type_array);
	size_t i, host_w, kernel_w, col_w = 16, start;
	bool any_flag = false;

	if (!hosts)
		return;
	host_w = widest(hosts, "host", 4);
	kernel_w = widest(hosts, "kernel", 6) + 4;
	for (i = 0; vs && i < json_object_array_length(vs); i++) {
		size_t n = strlen(
		    expjson_str(json_object_array_get_idx(vs, i), "label"));

		col_w = n > col_w ? n : col_w;
	}
	strbuf_addf(out, "\nfleet: %d host%s, %d merged, %d failed\n",
		    expjson_count(fleet, "nr_hosts"),
		    expjson_count(fleet, "nr_hosts") == 1 ? "" : "s",
		    expjson_count(fleet, "nr_ok"),
		    expjson_count(fleet, "nr_failed"));
	start = out->len;
	strbuf_addstr(out, "host");
	report_pad(out, start, host_w);
	start = out->len;
	strbuf_addstr(out, "kernel");
	report_pad(out, start, kernel_w);
	for (i = 0; vs && i < json_object_array_length(vs); i++) {
		start = out->len;
		strbuf_addstr(out, expjson_str(json_object_array_get_idx(vs, i),
					       "label"));
		report_pad(out, start, col_w);
	}
	strbuf_rtrim(out);
	strbuf_addch(out, '\n');
	for (i = 0; i < json_object_array_length(hosts); i++) {
		struct json_object *h = json_object_array_get_idx(hosts, i);
		struct json_object *d =
		    expjson_get_type(h, "differs", json_type_array);

		start = out->len;
		strbuf_addstr(out, expjson_str(h, "host"));
		report_pad(out, start, host_w);
		if (strcmp(expjson_str(h, "status"), "ok")) {
			strbuf_addstr(out, "failed");
			if (*expjson_str(h, "task"))
				strbuf_addf(out, " at '%s'",
					    expjson_str(h, "task"));
			strbuf_addf(out, ": %s\n", expjson_str(h, "error"));
			revert_line(out, h, host_w);
			continue;
		}
		any_flag |= d && json_object_array_length(d);
		host_line(out, h, kernel_w, col_w);
		revert_line(out, h, host_w);
	}
	if (any_flag)
		strbuf_addstr(out, "(!): differs from most hosts in kernel, "
				   "devices or schedulers; see the warnings\n");
	host_notes(exp, hosts, out);
	inconsistent_notes(hosts, out);
	for (i = 0; vs && i < json_object_array_length(vs); i++) {
		struct json_object *v = json_object_array_get_idx(vs, i);
		struct json_object *c =
		    expjson_get_type(v, "hosts", json_type_object);

		if (!c)
			continue;
		strbuf_addf(out, "\nhosts on %s: %s: ", expjson_str(v, "label"),
			    expjson_str(v, "agreement"));
		counts(out, c);
		strbuf_addf(out, " (host ratios %.3f to %.3f)",
			    expjson_num(v, "host_ratio_min"),
			    expjson_num(v, "host_ratio_max"));
		if (!strcmp(expjson_str(v, "verdict"), "mixed"))
			strbuf_addf(out,
				    "; no fleet verdict: the setting helps "
				    "some hosts and hurts others (pooled: "
				    "%s)",
				    expjson_str(v, "pooled_verdict"));
		strbuf_addch(out, '\n');
	}
}
