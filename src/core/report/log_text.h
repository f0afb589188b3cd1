/*
 * What `iotrial log` prints: one entry per stored experiment, newest
 * first, from the columns the results store keeps beside each
 * experiment object (store_list() fills them). The store renders no
 * text: the arm and verdict columns are rendered here, by whoever saves
 * an experiment (log_columns_of_doc()), and again when the list is printed
 * for an experiment stored before its verdicts could be suspect.
 */
#ifndef IOTRIAL_LOG_TEXT_H
#define IOTRIAL_LOG_TEXT_H

#include <stddef.h>
#include "../model/experiment_doc.h"
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
	const char *origin; /* EXP_ORIGIN_* (model/experiment_doc.h), static */
	char *json;	    /* NULL, or the experiment object when its verdicts
			       text predates suspect verdicts: rendered again */
};

/* The text columns of one experiment, as the store keeps them. */
struct log_columns {
	struct strbuf arms;	/* its arms' labels, ", "-separated */
	struct strbuf verdicts; /* "2 arms: scheduler=mq-deadline faster
				   1.08x" (summary.c) */
};

/*
 * Render exp's columns into c (initialised here): what a caller of
 * store_save_doc() passes it. Release with log_columns_release().
 */
void log_columns_of_doc(const struct experiment_doc *exp,
			struct log_columns *c);
void log_columns_release(struct log_columns *c);

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
