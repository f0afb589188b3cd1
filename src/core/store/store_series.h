/*
 * Series in the results store (`iotrial series`): a named, fixed
 * workload, and the iterations run of it, each a stored experiment of
 * one run, grouped by the boot (or hardware change) they ran in and
 * tagged with what differed.
 *
 * Two tables, made the first time a series is written to a store: one
 * made before series existed is migrated then (CREATE TABLE IF NOT
 * EXISTS, in one transaction), and its schema version stays 1, since an
 * iotrial without series reads such a store as before (it knows only
 * the experiments and runs tables, both unchanged). A store without the
 * tables simply has no series.
 *
 *   series(name, created, argv, plan)  argv: the workload's arguments
 *                                      as a JSON array; plan: the boot
 *                                      order advised, a JSON array of
 *                                      tags, or NULL
 *   series_runs(series, grp, iteration, experiment, boot_id, kernel,
 *               build, tag, context)   one row per iteration
 */
#ifndef IOTRIAL_STORE_SERIES_H
#define IOTRIAL_STORE_SERIES_H

#include <stddef.h>
#include "store.h"

/* What one group (a boot) of a series ran under. */
struct series_tags {
	const char *boot_id; /* /proc/sys/kernel/random/boot_id */
	const char *kernel;  /* uname -r */
	const char *build;   /* uname -v: the build of that release */
	const char *tag;     /* --tag, or "" */
	const char *context; /* JSON text: knobs and devices; may be NULL */
};

/* One iteration as stored. Strings are owned by the row. */
struct series_row {
	int grp, iteration;
	char *experiment; /* the stored experiment of this iteration */
	char *boot_id, *kernel, *build, *tag, *context, *created;
};

/*
 * Define series name with the workload argv (JSON array text). Makes the
 * series tables first when the store has none. Returns 0, -EEXIST with
 * err set when name is taken, or another -errno with err set.
 */
int store_series_define(struct store *s, const char *name, const char *argv,
			struct strbuf *err);

/*
 * The argv (JSON array text) and plan (JSON array text or NULL) of
 * series name, new strings the caller frees (either OUT may be NULL).
 * Returns 0, -ENOENT with err set when there is no such series, or
 * another -errno.
 */
int store_series_get(struct store *s, const char *name, char **out_argv,
		     char **out_plan, struct strbuf *err);

/* Replace series name's plan (NULL: none). 0 or -errno with err set. */
int store_series_set_plan(struct store *s, const char *name, const char *plan,
			  struct strbuf *err);

/* The group number a new group of series name gets (1 for the first),
 * and the number of groups so far. 0 or -errno. */
int store_series_next_group(struct store *s, const char *name, int *out_grp,
			    struct strbuf *err);

/*
 * Record iteration iteration of group grp of series name: the stored
 * experiment exp_id, run under tags. 0 or -errno with err set.
 */
int store_series_add(struct store *s, const char *name, int grp, int iteration,
		     const char *exp_id, const struct series_tags *tags,
		     struct strbuf *err);

/*
 * Every iteration of series name, by group then iteration, into a new
 * array the caller frees with store_series_rows_free(). A series with
 * no iterations gives 0 rows. Returns 0 or -errno with err set.
 */
int store_series_rows(struct store *s, const char *name,
		      struct series_row **out, size_t *out_nr,
		      struct strbuf *err);
void store_series_rows_free(struct series_row *rows, size_t nr);

/* The names of every series, a new NULL-terminated array of new strings
 * (free each and the array). 0 or -errno. */
int store_series_names(struct store *s, char ***out, struct strbuf *err);

#endif
