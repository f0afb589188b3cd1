/*
 * One row per run of an experiment, in run order: what `show --runs`
 * and `report --format text` print under the verdict table, laid out
 * like the iterations of a kernel regression report (wall, user and sys
 * time, then iostat's device columns), and the same values for the CSV
 * and HTML reports.
 */
#ifndef IOTRIAL_RUNS_TEXT_H
#define IOTRIAL_RUNS_TEXT_H

#include <json-c/json.h>
#include "../../util/strbuf.h"

/* What one run of an experiment measured; NaN where not recorded. */
struct report_run_row {
	int arm, block;
	const char *label; /* the arm's label; "" when unknown */
	double metric;	   /* the experiment's metric */
	double wall_s, user_s, sys_s;
	const char *device;	  /* the device of the columns below, or "" */
	double tps;		  /* device requests per second (r/s + w/s) */
	double rmbps, wmbps;	  /* MB (1e6 bytes) read and written per s */
	double read_mb, write_mb; /* MB read and written during the run */
	struct json_object *run;  /* the run object, or NULL */
};

/* The number of runs in exp. */
size_t report_nr_runs(struct json_object *exp);

/*
 * Fill row from run i of exp (0-based, in run order). The device is the
 * one the run's truth measured, else the first the run lists. Strings
 * stay valid while exp. Returns 0, or -ENOENT when there is no run i.
 */
int report_run_row(struct json_object *exp, size_t i,
		   struct report_run_row *row);

/* The label of arm index arm of exp, or "". Valid while exp. */
const char *report_arm_label(struct json_object *exp, int arm);

/*
 * The per-run table: a heading, then one line per run in run order
 * (block, arm, metric, real, user, sys, device, tps, MB_read/s,
 * MB_wrtn/s, MB_read, MB_wrtn). Appends nothing when exp has no runs.
 */
void report_runs_text(struct json_object *exp, struct strbuf *out);

#endif
