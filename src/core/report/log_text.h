/*
 * What `iotrial log` prints: one entry per stored experiment, newest
 * first, from the columns the results store keeps beside each
 * experiment object (store_list() fills them; the verdict and arm texts
 * were rendered by summary.c when it was saved).
 */
#ifndef IOTRIAL_LOG_TEXT_H
#define IOTRIAL_LOG_TEXT_H

#include <stddef.h>
#include "../../util/strbuf.h"

/* One experiment as `iotrial log` lists it. Strings owned, never NULL. */
struct exp_summary {
	char *id;	    /* "2e9fa862" */
	char *created;	    /* "2026-11-29T22:58:00Z" */
	char *workload;	    /* "randread" */
	char *target;	    /* "/tmp" */
	char *metric;	    /* "iops" */
	char *arms;	    /* labels, ", "-separated */
	char *host;	    /* hostname, "" when not known */
	char *kernel;	    /* kernel release, "" when not known */
	char *verdicts;	    /* "2 arms: scheduler=mq-deadline faster 1.08x" */
	const char *origin; /* EXP_ORIGIN_* (expjson.h), static */
};

/*
 * The table: id, date (UTC, to the minute), workload, target, metric and
 * result, under a heading line; columns fitted to their content. The
 * result of an experiment that did not come from here begins with its
 * origin: "(imported) 2 arms: ...".
 * Appends to out.
 */
void report_log_text(const struct exp_summary *l, size_t nr,
		     struct strbuf *out);

/*
 * The entries as JSON: {"schema", "experiments": [...]}, an object per
 * entry (id, created, workload, target, metric, arms, host, kernel,
 * result, origin), pretty-printed with a final newline (an empty array
 * for none). With bare, the array alone (the old behaviour,
 * COMPAT_LOG_ARRAY). Appends to out.
 */
void report_log_json(const struct exp_summary *l, size_t nr, int bare,
		     struct strbuf *out);

#endif
