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
#include "report_doc.h"
#include "report_formats.h"
#include "report_ops.h"
#include "runs_text.h"
#include "../../util/error.h"
#include "../../util/banned.h"

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
static const enum report_op_field op_field_ids[] = {
    OP_COUNT, OP_MEAN, OP_P50, OP_P99, OP_MAX, OP_ERRORS};
#define NR_OP_FIELDS (sizeof(op_fields) / sizeof(op_fields[0]))

/* The percentiles of a direction, as CSV columns. */
static const char *const pcts[NR_PCTS] = {"p50", "p90", "p99", "p999", "max"};

/* A run's latency of direction d: 0 read, 1 write (trim and fsync have
 * columns when a run times them; none does today). */
static const struct run_latency *dir_latency(const struct run_doc *run, int d)
{
	const struct run_latencies *l = run ? run->latency_ns : NULL;

	return !l ? NULL : d == 0 ? l->read : d == 1 ? l->write : NULL;
}

/* The directions with latencies, in the order the CSV has them. */
static const char *const dirs[] = {"read", "write", "trim", "fsync"};
#define NR_DIRS (sizeof(dirs) / sizeof(dirs[0]))

/* Whether a direction's latency was timed: a file workload times
 * operations and leaves its directions at count 0, which is "not
 * timed", not "took 0 ns". */
static bool timed(const struct run_latency *l)
{
	return l && l->count > 0;
}

/* The value of factor name in the arm with index arm, or "". */
static const char *factor_value(const struct experiment_doc *doc, int arm,
				const char *name)
{
	const struct exp_arm *a = report_arm(doc, arm);

	return a ? rd_s(report_pair(a->settings, a->nr_settings, name)) : "";
}

int report_experiment_csv(const struct experiment_doc *doc, struct strbuf *out,
			  struct strbuf *err)
{
	size_t i, f, d, p, o, nops;
	const char *metric = doc->metric ? rd_s(doc->metric->name) : "";
	struct report_run row;
	struct strbuf name = STRBUF_INIT;
	const char **ops = NULL;
	int has[NR_DIRS] = {0};

	if (!doc->nr_arms)
		return err_set(err, -EINVAL,
			       "not an iotrial experiment object (no 'arms')");
	for (i = 0; !report_run_get(doc, i, &row); i++)
		for (d = 0; d < NR_DIRS; d++)
			has[d] |= timed(dir_latency(row.run, (int)d));
	nops = report_op_names(doc, &ops);
	strbuf_addstr(out, "run,block,arm,label");
	for (f = 0; f < doc->nr_factors; f++)
		str_field(out, rd_s(doc->factors[f].name));
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
	for (i = 0; !report_run_get(doc, i, &row); i++) {
		strbuf_addf(out, "%zu,%d,%d", i + 1, row.block, row.arm);
		str_field(out, row.label);
		for (f = 0; f < doc->nr_factors; f++)
			str_field(out,
				  factor_value(doc, row.arm,
					       rd_s(doc->factors[f].name)));
		str_field(out, metric);
		num_field(out, row.metric);
		num_field(out, row.wall_s);
		num_field(out, row.user_s);
		num_field(out, row.sys_s);
		for (d = 0; d < NR_DIRS; d++) {
			const struct run_latency *l =
			    dir_latency(row.run, (int)d);

			for (p = 0; p < NR_PCTS && has[d]; p++)
				num_field(out, timed(l)
						   ? (double)report_pct_of(l, p)
						   : NAN);
		}
		for (o = 0; o < nops; o++) {
			const struct run_file_op *op =
			    report_op_of(row.run, ops[o]);

			for (p = 0; p < NR_OP_FIELDS; p++)
				num_field(out, op ? report_op_field_of(
							op, op_field_ids[p])
						  : NAN);
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
