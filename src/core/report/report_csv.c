/*
 * An experiment as CSV, one row per run; see report_formats.h. Every
 * field goes through report_csv_field(), so a label with a comma or a
 * quote (arm labels and factor values are typed by users) stays one
 * field, and one a spreadsheet would run as a formula (=, +, -, @, tab
 * or CR first) is quoted with a ' before it; a field that is a plain
 * number ("-1.5") stays a number. Numbers print with enough digits to be
 * re-analysed; a value not recorded is an empty field.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report_formats.h"
#include "report_ops.h"
#include "runs_text.h"
#include "expjson.h"
#include "../../util/error.h"
#include "../../util/banned.h"

/* The percentiles of a run's latency_ns.<direction>, as CSV columns. */
static const char *const pcts[] = {"p50", "p90", "p99", "p999", "max"};
#define NR_PCTS (sizeof(pcts) / sizeof(pcts[0]))

/* The directions with latencies, in the order the CSV has them. */
static const char *const dirs[] = {"read", "write", "trim", "fsync"};
#define NR_DIRS (sizeof(dirs) / sizeof(dirs[0]))

/* Is s a plain decimal number ("-1.5", "+2e3") that a spreadsheet
 * reads as that number, not as a formula? */
static int is_number(const char *s)
{
	char *end;
	double v;

	if (s[strspn(s, "+-0123456789.eE")])
		return 0;
	v = strtod(s, &end);
	return end != s && !*end && isfinite(v);
}

void report_csv_field(struct strbuf *out, const char *s)
{
	/* a spreadsheet runs a cell that starts so as a formula (OWASP's
	 * "CSV injection"): a leading ' keeps it text */
	int formula = strchr("=+-@\t\r", *s) && *s && !is_number(s);

	if (!formula && !s[strcspn(s, ",\"\r\n")]) {
		strbuf_addstr(out, s);
		return;
	}
	strbuf_addch(out, '"');
	if (formula)
		strbuf_addch(out, '\'');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addch(out, '"');
		strbuf_addch(out, *s);
	}
	strbuf_addch(out, '"');
}

/* A number field: empty when v is not finite. */
static void num_field(struct strbuf *out, double v)
{
	strbuf_addch(out, ',');
	if (isfinite(v))
		strbuf_addf(out, "%.10g", v);
}

/* A string field after a comma. */
static void str_field(struct strbuf *out, const char *s)
{
	strbuf_addch(out, ',');
	report_csv_field(out, s);
}

/* The fields of a run's file_ops.<operation>, as CSV columns. */
static const char *const op_fields[] = {"count",  "mean_us", "p50_us",
					"p99_us", "max_us",  "errors"};
#define NR_OP_FIELDS (sizeof(op_fields) / sizeof(op_fields[0]))

/* Whether the latency object d (latency_ns.<direction>) was timed: a
 * file workload times operations and leaves its directions at count
 * 0, which is "not timed", not "took 0 ns". */
static int timed(struct json_object *d)
{
	double c = expjson_num(d, "count");

	return d && (isnan(c) || c > 0);
}

/* Which directions some run of exp has latencies for, into has[]. */
static void find_dirs(struct json_object *exp, int has[NR_DIRS])
{
	size_t i, n = report_nr_runs(exp), d;
	struct report_run_row row;

	memset(has, 0, NR_DIRS * sizeof(*has));
	for (i = 0; i < n && !report_run_row(exp, i, &row); i++)
		for (d = 0; d < NR_DIRS; d++)
			if (timed(expjson_get(
				expjson_get(row.run, "latency_ns"), dirs[d])))
				has[d] = 1;
}

/* The value of factor name in the arm with index arm, or "". */
static const char *factor_value(struct json_object *exp, int arm,
				const char *name)
{
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);
	size_t i, n = arms ? json_object_array_length(arms) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);

		if (expjson_count(a, "arm") == arm)
			return expjson_str(expjson_get(a, "settings"), name);
	}
	return "";
}

int report_experiment_csv(struct json_object *exp, struct strbuf *out,
			  struct strbuf *err)
{
	struct json_object *factors =
	    expjson_get_type(exp, "factors", json_type_array);
	size_t nf = factors ? json_object_array_length(factors) : 0;
	size_t i, f, d, p, n = report_nr_runs(exp);
	const char *metric = expjson_str(expjson_get(exp, "metric"), "name");
	struct report_run_row row;
	struct strbuf name = STRBUF_INIT;
	const char **ops = NULL;
	size_t o, nops;
	int has[NR_DIRS];

	if (!expjson_get_type(exp, "arms", json_type_array))
		return err_set(err, -EINVAL,
			       "not an iotrial experiment object (no 'arms')");
	find_dirs(exp, has);
	nops = report_op_names(exp, &ops);
	strbuf_addstr(out, "run,block,arm,label");
	for (f = 0; f < nf; f++)
		str_field(
		    out,
		    expjson_str(json_object_array_get_idx(factors, f), "name"));
	strbuf_addstr(out, ",metric_name,metric,wall_s,user_s,sys_s");
	for (d = 0; d < NR_DIRS; d++)
		for (p = 0; p < NR_PCTS && has[d]; p++)
			strbuf_addf(out, ",%s_%s_ns", dirs[d], pcts[p]);
	for (o = 0; o < nops; o++)
		for (p = 0; p < NR_OP_FIELDS; p++) {
			strbuf_setf(&name, "op_%s_%s", ops[o], op_fields[p]);
			str_field(out, name.buf);
		}
	strbuf_addstr(out, ",device,tps,mb_read_s,mb_written_s,mb_read,"
			   "mb_written\r\n");
	for (i = 0; i < n && !report_run_row(exp, i, &row); i++) {
		struct json_object *lat = expjson_get(row.run, "latency_ns");

		strbuf_addf(out, "%zu,%d,%d", i + 1, row.block, row.arm);
		str_field(out, row.label);
		for (f = 0; f < nf; f++)
			str_field(
			    out,
			    factor_value(exp, row.arm,
					 expjson_str(json_object_array_get_idx(
							 factors, f),
						     "name")));
		str_field(out, metric);
		num_field(out, row.metric);
		num_field(out, row.wall_s);
		num_field(out, row.user_s);
		num_field(out, row.sys_s);
		for (d = 0; d < NR_DIRS; d++)
			for (p = 0; p < NR_PCTS && has[d]; p++)
				num_field(
				    out,
				    timed(expjson_get(lat, dirs[d]))
					? expjson_num(expjson_get(lat, dirs[d]),
						      pcts[p])
					: NAN);
		for (o = 0; o < nops; o++) {
			struct json_object *op =
			    expjson_get(expjson_get_type(row.run, "file_ops",
							 json_type_object),
					ops[o]);

			for (p = 0; p < NR_OP_FIELDS; p++)
				num_field(out, expjson_num(op, op_fields[p]));
		}
		str_field(out, row.device);
		num_field(out, row.tps);
		num_field(out, row.rmbps);
		num_field(out, row.wmbps);
		num_field(out, row.read_mb);
		num_field(out, row.write_mb);
		strbuf_addstr(out, "\r\n");
	}
	free(ops);
	strbuf_release(&name);
	return 0;
}

const struct report_format report_format_csv = {
    .name = "csv",
    .summary = "one row per run with the arm's factors, latency percentiles, "
	       "CPU and device columns",
    .render = report_experiment_csv,
};
