/*
 * The per-run rows of an experiment; see runs_text.h. Wall time prints
 * as `time` does ("2m43.824s") so a table pasted beside an old report
 * reads the same way; the device columns are iostat's.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "fmt.h"
#include "sections.h"
#include "report_doc.h"
#include "runs_text.h"
#include "../../util/banned.h"

/* The device row of run r that its truth measured, else its first. */
static const struct truth_device_doc *run_device(const struct run_doc *r)
{
	const char *want = r && r->truth ? rd_s(r->truth->device) : "";
	size_t i, n = r ? r->nr_devices : 0;

	for (i = 0; i < n && *want; i++)
		if (!strcmp(rd_s(r->devices[i].name), want))
			return &r->devices[i];
	return n ? &r->devices[0] : NULL;
}

int report_run_get(const struct experiment_doc *doc, size_t i,
		   struct report_run *row)
{
	const struct exp_run *e;
	const struct run_doc *r;
	const struct truth_device_doc *d;
	const struct disk_delta_doc *dd;

	if (i >= doc->nr_runs)
		return -ENOENT;
	e = &doc->runs[i];
	r = e->run;
	d = run_device(r);
	dd = d ? d->delta : NULL;
	row->arm = rd_count(e->arm);
	row->block = e->has_block == MODEL_SET ? rd_count(e->block) : 0;
	row->label = report_arm_label(doc, row->arm);
	row->metric = e->metric;
	row->wall_s = r ? r->seconds : NAN;
	row->user_s = r && r->cpu ? r->cpu->user_s : NAN;
	row->sys_s = r && r->cpu ? r->cpu->sys_s : NAN;
	row->device = d ? rd_s(d->name) : "";
	row->tps = dd ? dd->r_s + dd->w_s : NAN;
	row->rmbps = dd ? dd->rmbps : NAN;
	row->wmbps = dd ? dd->wmbps : NAN;
	row->read_mb = dd ? (double)dd->read_bytes / 1e6 : NAN;
	row->write_mb = dd ? (double)dd->write_bytes / 1e6 : NAN;
	row->run = r;
	return 0;
}

/* Seconds as time(1) prints them: "0m1.083s", "2m43.824s"; "-" if NaN. */
static void cell_time(struct emit *e, double s)
{
	if (!isfinite(s) || s < 0)
		emit_cell(e, "-");
	else
		emit_cell(e, "%.0fm%.3fs", floor(s / 60),
			  s - 60 * floor(s / 60));
}

/* v with prec decimals, or "-" when not recorded. */
static void cell_num(struct emit *e, double v, int prec)
{
	if (isfinite(v))
		emit_cell(e, "%.*f", prec, v);
	else
		emit_cell(e, "-");
}

bool report_runs_present(const struct experiment_doc *doc)
{
	return doc->nr_runs > 0;
}

/*
 * The per-run table: a heading, then one row per run in run order
 * (block, arm, metric, real, user, sys, device, tps, MB_read/s,
 * MB_wrtn/s, MB_read, MB_wrtn).
 */
void report_runs_section(const struct experiment_doc *doc, struct emit *e)
{
	const char *metric = doc->metric ? rd_s(doc->metric->name) : "";
	size_t mw = strlen(metric) > 7 ? strlen(metric) : 7, lw = 3, i;
	struct report_run row;
	struct strbuf t = STRBUF_INIT;

	for (i = 0; !report_run_get(doc, i, &row); i++)
		if (strlen(row.label) > lw)
			lw = strlen(row.label);
	{
		const struct emit_col cols[] = {
		    {"block", EMIT_NUM, EMIT_RIGHT, 2, 5},
		    {"arm", EMIT_LABEL, 0, 1, lw},
		    {*metric ? metric : "metric", EMIT_NUM, EMIT_RIGHT, 1, mw},
		    {"real", EMIT_NUM, EMIT_RIGHT, 1, 11},
		    {"user", EMIT_NUM, EMIT_RIGHT, 1, 10},
		    {"sys", EMIT_NUM, EMIT_RIGHT, 1, 10},
		    {"device", EMIT_TEXT, 0, 1, 7},
		    {"tps", EMIT_NUM, EMIT_RIGHT, 1, 9},
		    {"MB_read/s", EMIT_NUM, EMIT_RIGHT, 1, 10},
		    {"MB_wrtn/s", EMIT_NUM, EMIT_RIGHT, 1, 10},
		    {"MB_read", EMIT_NUM, EMIT_RIGHT, 1, 9},
		    {"MB_wrtn", EMIT_NUM, EMIT_RIGHT, 1, 9},
		};
		const struct emit_table tab = {"runs", cols, 12, false};

		emit_gap(e);
		emit_heading(e, 2, "Runs, in the order they ran",
			     "runs, in the order they ran:");
		emit_table(e, &tab);
		for (i = 0; !report_run_get(doc, i, &row); i++) {
			emit_cell(e, "%d", row.block);
			emit_cell(e, "%s", row.label);
			strbuf_reset(&t);
			report_fmt_metric(&t, row.metric);
			emit_cell(e, "%s", t.buf);
			cell_time(e, row.wall_s);
			cell_time(e, row.user_s);
			cell_time(e, row.sys_s);
			emit_cell(e, "%s", *row.device ? row.device : "-");
			cell_num(e, row.tps, 2);
			cell_num(e, row.rmbps, 2);
			cell_num(e, row.wmbps, 2);
			cell_num(e, row.read_mb, 0);
			cell_num(e, row.write_mb, 0);
			emit_row(e);
		}
		emit_table_end(e);
	}
	strbuf_release(&t);
}
