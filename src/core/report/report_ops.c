/*
 * Per-direction and per-operation latencies of an experiment's runs; see
 * report_ops.h. Every figure is read from the run objects of the stored
 * experiment, which may have been imported or edited: a member of the
 * wrong type reads as missing, never as zero.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fmt.h"
#include "report_ops.h"
#include "report.h"
#include "runs_text.h"
#include "expjson.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of the finite values among n (sorts v); NaN if none. */
static double median_of(double *v, size_t n)
{
	size_t k = 0, i;

	for (i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[k++] = v[i];
	if (!k)
		return NAN;
	qsort(v, k, sizeof(*v), cmp_double);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

double report_dir_latency(struct json_object *exp, int arm, const char *dir,
			  const char *pct)
{
	size_t i, n = report_nr_runs(exp), k = 0;
	double *v = xcalloc(n ? n : 1, sizeof(*v)), m;
	struct report_run_row row;

	for (i = 0; i < n && !report_run_row(exp, i, &row); i++) {
		struct json_object *d =
		    expjson_get(expjson_get(row.run, "latency_ns"), dir);
		double x = expjson_num(d, pct), c = expjson_num(d, "count");

		/* a direction the workload does not time has count 0 */
		if (row.arm == arm && x > 0 && !(c <= 0))
			v[k++] = x;
	}
	m = median_of(v, k);
	free(v);
	return m;
}

size_t report_op_names(struct json_object *exp, const char ***out)
{
	size_t i, j, n = report_nr_runs(exp), nr = 0, alloc = 0;
	struct report_run_row row;
	const char **names = NULL;

	for (i = 0; i < n && !report_run_row(exp, i, &row); i++) {
		struct json_object *ops =
		    expjson_get_type(row.run, "file_ops", json_type_object);

		if (!ops)
			continue;
		json_object_object_foreach(ops, k, v)
		{
			if (!json_object_is_type(v, json_type_object))
				continue;
			for (j = 0; j < nr && strcmp(names[j], k); j++)
				;
			if (j < nr)
				continue;
			if (nr == alloc) {
				alloc = alloc ? 2 * alloc : 8;
				names = xrealloc(names, alloc * sizeof(*names));
			}
			names[nr++] = k;
		}
	}
	*out = names;
	return nr;
}

double report_op_median(struct json_object *exp, int arm, const char *op,
			const char *field)
{
	size_t i, n = report_nr_runs(exp), k = 0;
	double *v = xcalloc(n ? n : 1, sizeof(*v)), m;
	struct report_run_row row;

	for (i = 0; i < n && !report_run_row(exp, i, &row); i++) {
		struct json_object *o = expjson_get(
		    expjson_get_type(row.run, "file_ops", json_type_object),
		    op);

		if (row.arm == arm && expjson_num(o, "count") > 0)
			v[k++] = expjson_num(o, field);
	}
	m = median_of(v, k);
	free(v);
	return m;
}

/* A latency in microseconds as text ("5.13ms"), "-" when unknown. */
static void fmt_us(struct strbuf *out, double us)
{
	if (isfinite(us))
		units_fmt_ns(out, us * 1000);
	else
		strbuf_addch(out, '-');
}

void report_ops_text(struct json_object *exp, struct strbuf *out)
{
	static const char *const us[] = {"mean_us", "p50_us", "p99_us",
					 "max_us"};
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);
	size_t na = arms ? json_object_array_length(arms) : 0;
	size_t i, j, k, width = 3, start;
	const char **ops = NULL;
	size_t nops = report_op_names(exp, &ops);

	if (!nops || !na) {
		free(ops);
		return;
	}
	for (i = 0; i < na; i++) {
		size_t l = strlen(
		    expjson_str(json_object_array_get_idx(arms, i), "label"));

		width = l > width ? l : width;
	}
	strbuf_addstr(out, "\nper operation, median over each arm's runs:\n");
	start = out->len;
	strbuf_addstr(out, "arm");
	report_pad(out, start, width);
	strbuf_addf(out, "%-12s %9s %9s %9s %9s %9s %7s\n", "operation",
		    "count", "mean", "p50", "p99", "max", "errors");
	for (i = 0; i < na; i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);
		int arm = expjson_count(a, "arm");

		for (j = 0; j < nops; j++) {
			double c = report_op_median(exp, arm, ops[j], "count");

			if (!isfinite(c))
				continue;
			start = out->len;
			strbuf_addstr(out, expjson_str(a, "label"));
			report_pad(out, start, width);
			start = out->len;
			strbuf_addstr(out, ops[j]);
			report_pad(out, start, 12);
			strbuf_addf(out, "%9.0f", c);
			for (k = 0; k < 4; k++) {
				struct strbuf t = STRBUF_INIT;

				fmt_us(&t, report_op_median(exp, arm, ops[j],
							    us[k]));
				strbuf_addf(out, " %9s", t.buf);
				strbuf_release(&t);
			}
			c = report_op_median(exp, arm, ops[j], "errors");
			if (isfinite(c))
				strbuf_addf(out, " %7.0f", c);
			else
				strbuf_addstr(out, "       -");
			strbuf_addch(out, '\n');
		}
	}
	free(ops);
}

int report_metric_beside(struct json_object *d, const char *primary)
{
	return json_object_get_boolean(expjson_get(d, "shown")) &&
	       strcmp(expjson_str(d, "name"), primary);
}

void report_metric_heading(struct json_object *d, struct strbuf *out)
{
	const char *unit = expjson_str(d, "unit");

	strbuf_addstr(out, expjson_str(d, "name"));
	if (*unit && strcmp(unit, "ns"))
		strbuf_addf(out, " (%s)", unit);
}
