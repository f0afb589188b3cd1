/*
 * Shared by cli/series.c (define, run, report), cli/series_boot.c
 * (list, plan, at-boot) and cli/series_store.c (the store as they open
 * it): what `iotrial series` was asked for. Not for other commands.
 */
#ifndef IOTRIAL_CLI_SERIES_INT_H
#define IOTRIAL_CLI_SERIES_INT_H

#include <stdint.h>
#include "../core/series/series_report.h"
#include "../core/store/store.h"

/* Everything `series` was asked for, numbers parsed by the option table. */
struct series_args {
	const char *name;
	const char *sub; /* define, run, report, plan, at-boot */
	const char *db;
	uint64_t iterations; /* run: per group */
	const char *tag;
	int planned;	  /* run: the tag of the plan's next boot */
	int at_boot;	  /* run: started by the unit */
	const char *root; /* at-boot, run --at-boot: the unit's root */
	const char *by, *baseline;
	int fail_on_regression;
	const char *json;   /* --json[=FILE], or NULL */
	const char *values; /* plan */
	uint64_t boots, seed;
	int seed_given;
	int install, remove;
	const char **workload; /* define: after "--" */
	int nr_workload;
	enum series_by by_value; /* of by */
};

/* Open the store at db (NULL: the default), creating it only for
 * writes; 0 or an exit code after printing the error. */
int series_open_store(struct store *s, const char *db, int write);
/* Print err and map a store error ret to an exit code. */
int series_store_failed(int ret, struct strbuf *err);
/* The store's path (db, else the default) into out: the store every
 * iteration is saved in. 0, or -1 after printing the error. */
int series_store_path(const char *db, struct strbuf *out);

/* `iotrial series`: the series of the store. */
int series_list(struct series_args *a);
/* `series NAME plan`: advise and keep the order of boots. */
int series_plan(struct series_args *a);
/* `series NAME at-boot --install|--remove`. */
int series_at_boot(struct series_args *a);
/* Remove the unit of series a->name under a->root (or /), saying so.
 * Returns an exit code. */
int series_remove_unit(const struct series_args *a);

#endif
