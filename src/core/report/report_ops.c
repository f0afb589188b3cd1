/*
 * Per-direction and per-operation latencies of an experiment's runs; see
 * report_ops.h. Every figure is read from the run objects of the stored
 * experiment; a run that lacks one is left out, never read as zero.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fmt.h"
#include "sections.h"
#include "report_doc.h"
#include "report_ops.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The median of the finite values among n (sorts v); NaN if none. */
static double median_of(double *v, size_t n)
{
	size_t k = 0, i;

	for (i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[k++] = v[i];
	return report_median(v, k);
}

bool report_metric_beside(const struct experiment_doc *doc,
			  const struct exp_metric *d)
{
	const char *primary = doc->metric ? rd_s(doc->metric->name) : "";

	return d->has_shown == MODEL_SET && d->shown &&
	       strcmp(rd_s(d->name), primary);
}

uint64_t report_pct_of(const struct run_latency *l, enum report_pct k)
{
	const uint64_t v[NR_PCTS] = {l->p50, l->p90, l->p99, l->p999, l->max};

	return v[k];
}

double report_dir_latency(const struct experiment_doc *doc, int64_t arm,
			  bool write, enum report_pct k)
{
	double *v = xcalloc(doc->nr_runs + 1, sizeof(*v)), m;
	size_t i, n = 0;

	for (i = 0; i < doc->nr_runs; i++) {
		const struct run_doc *r = doc->runs[i].run;
		const struct run_latency *l =
		    r && r->latency_ns
			? (write ? r->latency_ns->write : r->latency_ns->read)
			: NULL;

		/* a direction the workload does not time has count 0 */
		if (doc->runs[i].arm == arm && l && l->count &&
		    report_pct_of(l, k))
			v[n++] = (double)report_pct_of(l, k);
	}
	m = median_of(v, n);
	free(v);
	return m;
}

double report_op_field_of(const struct run_file_op *op, enum report_op_field f)
{
	switch (f) {
	case OP_COUNT:
		return (double)op->count;
	case OP_MEAN:
		return op->mean_us;
	case OP_P50:
		return op->p50_us;
	case OP_P99:
		return op->p99_us;
	case OP_MAX:
		return op->max_us;
	default:
		return (double)op->errors;
	}
}

const struct run_file_op *report_op_of(const struct run_doc *run,
				       const char *name)
{
	size_t i;

	for (i = 0; run && i < run->nr_file_ops; i++)
		if (!strcmp(run->file_ops[i].name, name))
			return &run->file_ops[i];
	return NULL;
}

size_t report_op_names(const struct experiment_doc *doc, const char ***out)
{
	size_t i, j, k, nr = 0, alloc = 0;
	const char **names = NULL;

	for (i = 0; i < doc->nr_runs; i++) {
		const struct run_doc *r = doc->runs[i].run;

		for (k = 0; r && k < r->nr_file_ops; k++) {
			const char *name = r->file_ops[k].name;

			for (j = 0; j < nr && strcmp(names[j], name); j++)
				;
			if (j < nr)
				continue;
			ALLOC_GROW(names, nr + 1, alloc);
			names[nr++] = name;
		}
	}
	*out = names;
	return nr;
}

double report_op_median(const struct experiment_doc *doc, int64_t arm,
			const char *op, enum report_op_field f)
{
	double *v = xcalloc(doc->nr_runs + 1, sizeof(*v)), m;
	size_t i, n = 0;

	for (i = 0; i < doc->nr_runs; i++) {
		const struct run_file_op *o =
		    report_op_of(doc->runs[i].run, op);

		if (doc->runs[i].arm == arm && o && o->count > 0)
			v[n++] = report_op_field_of(o, f);
	}
	m = median_of(v, n);
	free(v);
	return m;
}

bool report_ops_present(const struct experiment_doc *doc)
{
	const char **ops = NULL;
	size_t n = doc->nr_arms && !report_single_run(doc)
		       ? report_op_names(doc, &ops)
		       : 0;

	free(ops);
	return n > 0;
}

/*
 * A file workload's operations under the verdicts: one row per arm and
 * operation (count, mean, p50, p99, max, errors), medians over the
 * arm's runs.
 */
void report_ops_section(const struct experiment_doc *doc, struct emit *e)
{
	static const enum report_op_field us[] = {OP_MEAN, OP_P50, OP_P99,
						  OP_MAX};
	size_t i, j, k, width = 3;
	const char **ops = NULL;
	size_t nops = report_op_names(doc, &ops);

	for (i = 0; i < doc->nr_arms; i++)
		if (strlen(rd_s(doc->arms[i].label)) > width)
			width = strlen(rd_s(doc->arms[i].label));
	{
		const struct emit_col cols[] = {
		    {"arm", EMIT_LABEL, 0, 1, width},
		    {"operation", EMIT_CODE, 0, 1, 12},
		    {"count", EMIT_NUM, EMIT_RIGHT, 1, 9},
		    {"mean", EMIT_NUM, EMIT_RIGHT, 1, 9},
		    {"p50", EMIT_NUM, EMIT_RIGHT, 1, 9},
		    {"p99", EMIT_NUM, EMIT_RIGHT, 1, 9},
		    {"max", EMIT_NUM, EMIT_RIGHT, 1, 9},
		    {"errors", EMIT_NUM, EMIT_RIGHT, 1, 7},
		};
		const struct emit_table t = {"ops", cols, 8, false};

		emit_gap(e);
		emit_heading(e, 2, "Per operation, median over each arm's runs",
			     "per operation, median over each arm's runs:");
		emit_table(e, &t);
		for (i = 0; i < doc->nr_arms; i++) {
			const struct exp_arm *a = &doc->arms[i];

			for (j = 0; j < nops; j++) {
				double c = report_op_median(doc, a->arm, ops[j],
							    OP_COUNT);

				if (!isfinite(c))
					continue;
				emit_cell(e, "%s", rd_s(a->label));
				emit_cell(e, "%s", ops[j]);
				emit_cell(e, "%.0f", c);
				for (k = 0; k < 4; k++) {
					struct strbuf t_ = STRBUF_INIT;

					report_fmt_in_unit(
					    &t_,
					    1000 * report_op_median(doc, a->arm,
								    ops[j],
								    us[k]),
					    "ns");
					emit_cell(e, "%s", t_.buf);
					strbuf_release(&t_);
				}
				c = report_op_median(doc, a->arm, ops[j],
						     OP_ERRORS);
				if (isfinite(c))
					emit_cell(e, "%.0f", c);
				else
					emit_cell(e, "-");
				emit_row(e);
			}
		}
		emit_table_end(e);
	}
	free(ops);
}
