/*
 * What compare.c (its options, its run, its output) and compare_plan.c
 * (what it says and checks before the first run) share.
 */
#ifndef IOTRIAL_CLI_COMPARE_INT_H
#define IOTRIAL_CLI_COMPARE_INT_H

#include <stdint.h>
#include "cli.h"
#include "knobargs.h"
#include "progress.h"
#include "../core/experiment/noise.h"
#include "../core/experiment/trial.h"

/* Everything compare was asked, parsed. */
struct compare_args {
	const char *workload;
	struct cli_run_opts r; /* what run, compare and --job share */
	uint64_t runs;	       /* 0: auto */
	uint64_t max_runs, warmup, max_arms, budget_ns;
	int max_runs_given;
	double precision, equivalence;
	const char *baseline;
	const char *report; /* --report FILE.html */
	const char *export_csv,
	    *export_md; /* --export-csv, --export-markdown */
	int no_drop_caches, fail_on_regression, quiet, strict, force;
	int duet;	   /* --duet: the arms of a block at once */
	int dry_run;	   /* --dry-run: print the plan, run nothing */
	const char **vary; /* "FACTOR=V1,V2" */
	unsigned nr_vary, alloc_vary;
	struct knob_cli set;	      /* --set KNOB=VALUE: held in every arm */
	struct param_setting *params; /* --PARAM=VALUE, as given */
	unsigned nr_params, alloc_params;
	char *cmd;		  /* exec: the command after "--", owned */
	struct cli_progress prog; /* --progress, --metrics-file */
	struct trial *tr;	  /* for the progress' metrics */
};

/*
 * Before the first run: can the limits reach a verdict at all? No:
 * refuse (exit 2), or with --force warn and go on. -1 to refuse.
 */
int compare_check_plan(const struct trial *tr, const struct compare_args *a);

/* --time auto: pick the run length from the noise model into *out, and
 * say why. */
void compare_pick_time(struct trial *tr, const struct compare_args *a,
		       struct noise_pick *out);

/* What --precision costs here (pick: the fitted run length, or NULL),
 * on stderr. */
void compare_say_cost(struct trial *tr, const struct compare_args *a,
		      const struct noise_pick *pick);

#endif
