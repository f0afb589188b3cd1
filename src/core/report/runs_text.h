/*
 * One row per run of an experiment, in run order: the runs section of
 * the page (`show --runs`, `report`), laid out like the iterations of a
 * kernel regression report (wall, user and sys time, then iostat's
 * device columns), and the same values for the CSV report.
 */
#ifndef IOTRIAL_RUNS_TEXT_H
#define IOTRIAL_RUNS_TEXT_H

#include "../../util/strbuf.h"

struct experiment_doc; /* model/experiment_doc.h */
struct run_doc;

/* What one run of an experiment measured; NaN where not recorded. */
struct report_run {
	int arm, block;
	const char *label; /* the arm's label; "" when unknown */
	double metric;	   /* the experiment's metric */
	double wall_s, user_s, sys_s;
	const char *device;	   /* the device of the columns below, or "" */
	double tps;		   /* device requests per second (r/s + w/s) */
	double rmbps, wmbps;	   /* MB (1e6 bytes) read and written per s */
	double read_mb, write_mb;  /* MB read and written during the run */
	const struct run_doc *run; /* the run object, or NULL */
};

/*
 * Fill row from run i of doc (0-based, in run order). The device is the
 * one the run's truth measured, else the first the run lists. Strings
 * stay valid while doc. Returns 0, or -ENOENT when there is no run i.
 */
int report_run_get(const struct experiment_doc *doc, size_t i,
		   struct report_run *row);

#endif
