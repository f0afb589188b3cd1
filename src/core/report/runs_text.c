/*
 * The per-run rows of an experiment; see runs_text.h. Wall time prints
 * as `time` does ("2m43.824s") so a table pasted beside an old report
 * reads the same way; the device columns are iostat's.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "runs_text.h"
#include "report.h"
#include "expjson.h"
#include "../../util/banned.h"

size_t report_nr_runs(struct json_object *exp)
{
	struct json_object *runs =
	    expjson_get_type(exp, "runs", json_type_array);

	return runs ? json_object_array_length(runs) : 0;
}

const char *report_arm_label(struct json_object *exp, int arm)
{
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);
	size_t i, n = arms ? json_object_array_length(arms) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);

		if (expjson_count(a, "arm") == arm)
			return expjson_str(a, "label");
	}
	return "";
}

/* The device object of run r that its truth measured, else its first. */
static struct json_object *run_device(struct json_object *r)
{
	struct json_object *devs =
	    expjson_get_type(r, "devices", json_type_array);
	const char *want = expjson_str(expjson_get(r, "truth"), "device");
	size_t i, n = devs ? json_object_array_length(devs) : 0;

	for (i = 0; i < n && *want; i++) {
		struct json_object *d = json_object_array_get_idx(devs, i);

		if (!strcmp(expjson_str(d, "name"), want))
			return d;
	}
	return n ? json_object_array_get_idx(devs, 0) : NULL;
}

int report_run_row(struct json_object *exp, size_t i,
		   struct report_run_row *row)
{
	struct json_object *runs =
	    expjson_get_type(exp, "runs", json_type_array);
	struct json_object *e, *r, *cpu, *d;

	if (!runs || i >= json_object_array_length(runs))
		return -ENOENT;
	e = json_object_array_get_idx(runs, i);
	r = expjson_get_type(e, "run", json_type_object);
	cpu = expjson_get(r, "cpu");
	d = run_device(r);
	row->arm = expjson_count(e, "arm");
	row->block = expjson_count(e, "block");
	row->label = report_arm_label(exp, row->arm);
	row->metric = expjson_num(e, "metric");
	row->wall_s = expjson_num(r, "seconds");
	row->user_s = expjson_num(cpu, "user_s");
	row->sys_s = expjson_num(cpu, "sys_s");
	row->device = expjson_str(d, "name");
	row->tps = expjson_num(d, "r_s") + expjson_num(d, "w_s");
	row->rmbps = expjson_num(d, "rmbps");
	row->wmbps = expjson_num(d, "wmbps");
	row->read_mb = expjson_num(d, "read_bytes") / 1e6;
	row->write_mb = expjson_num(d, "write_bytes") / 1e6;
	row->run = r;
	return 0;
}

/* Seconds as time(1) prints them: "0m1.083s", "2m43.824s"; "-" if NaN. */
static void fmt_time(struct strbuf *out, double s)
{
	if (!isfinite(s) || s < 0) {
		strbuf_addch(out, '-');
		return;
	}
	strbuf_addf(out, "%.0fm%.3fs", floor(s / 60), s - 60 * floor(s / 60));
}

/* v with prec decimals, or "-" when not recorded. */
static void fmt_num(struct strbuf *out, double v, int prec)
{
	if (isfinite(v))
		strbuf_addf(out, "%.*f", prec, v);
	else
		strbuf_addch(out, '-');
}

/* Pad the cell started at from to width (right-aligned when right). */
static void cell(struct strbuf *out, size_t from, size_t width, int right)
{
	size_t len = out->len - from, k;

	if (right && len < width) {
		strbuf_grow(out, width - len);
		memmove(out->buf + from + (width - len), out->buf + from, len);
		for (k = 0; k < width - len; k++)
			out->buf[from + k] = ' ';
		strbuf_setlen(out, from + width);
		return;
	}
	while (out->len - from < width)
		strbuf_addch(out, ' ');
}

void report_runs_text(struct json_object *exp, struct strbuf *out)
{
	static const char *const heads[] = {
	    "real",	 "user",      "sys",	 "device",  "tps",
	    "MB_read/s", "MB_wrtn/s", "MB_read", "MB_wrtn",
	};
	static const size_t widths[] = {11, 10, 10, 7, 9, 10, 10, 9, 9};
	size_t n = report_nr_runs(exp), i, k, lw = 3, start;
	const char *metric = expjson_str(expjson_get(exp, "metric"), "name");
	size_t mw = strlen(metric) > 7 ? strlen(metric) : 7;
	struct report_run_row row;

	if (!n)
		return;
	for (i = 0; i < n; i++)
		if (!report_run_row(exp, i, &row) && strlen(row.label) > lw)
			lw = strlen(row.label);
	strbuf_addf(out, "\nruns, in the order they ran:\n");
	start = out->len;
	strbuf_addstr(out, "block  ");
	strbuf_addstr(out, "arm");
	cell(out, start + 7, lw, 0);
	strbuf_addch(out, ' ');
	start = out->len;
	strbuf_addstr(out, *metric ? metric : "metric");
	cell(out, start, mw, 1);
	for (k = 0; k < sizeof(widths) / sizeof(widths[0]); k++) {
		strbuf_addch(out, ' ');
		start = out->len;
		strbuf_addstr(out, heads[k]);
		cell(out, start, widths[k], k != 3);
	}
	strbuf_addch(out, '\n');
	for (i = 0; i < n; i++) {
		if (report_run_row(exp, i, &row))
			break;
		start = out->len;
		strbuf_addf(out, "%d", row.block);
		cell(out, start, 5, 1);
		strbuf_addstr(out, "  ");
		start = out->len;
		strbuf_addstr(out, row.label);
		cell(out, start, lw, 0);
		strbuf_addch(out, ' ');
		start = out->len;
		report_fmt_metric(out, row.metric);
		cell(out, start, mw, 1);
		strbuf_addch(out, ' ');
		start = out->len;
		fmt_time(out, row.wall_s);
		cell(out, start, widths[0], 1);
		strbuf_addch(out, ' ');
		start = out->len;
		fmt_time(out, row.user_s);
		cell(out, start, widths[1], 1);
		strbuf_addch(out, ' ');
		start = out->len;
		fmt_time(out, row.sys_s);
		cell(out, start, widths[2], 1);
		strbuf_addch(out, ' ');
		start = out->len;
		strbuf_addstr(out, *row.device ? row.device : "-");
		cell(out, start, widths[3], 0);
		strbuf_addch(out, ' ');
		start = out->len;
		fmt_num(out, row.tps, 2);
		cell(out, start, widths[4], 1);
		strbuf_addch(out, ' ');
		start = out->len;
		fmt_num(out, row.rmbps, 2);
		cell(out, start, widths[5], 1);
		strbuf_addch(out, ' ');
		start = out->len;
		fmt_num(out, row.wmbps, 2);
		cell(out, start, widths[6], 1);
		strbuf_addch(out, ' ');
		start = out->len;
		fmt_num(out, row.read_mb, 0);
		cell(out, start, widths[7], 1);
		strbuf_addch(out, ' ');
		start = out->len;
		fmt_num(out, row.write_mb, 0);
		cell(out, start, widths[8], 1);
		strbuf_addch(out, '\n');
	}
}
