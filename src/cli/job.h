/*
 * fio job files on the command line: `run --job FILE.fio [--section
 * NAME]` runs each job section, group after group, and `compare --job
 * FILE.fio --section NAME --vary ...` uses one section as the workload
 * of every arm. The reading and mapping are core's (workload/fiojob*.c);
 * this file prints what they say, places each job's files, runs the
 * sections through trials and renders the results.
 */
#ifndef IOTRIAL_CLI_JOB_H
#define IOTRIAL_CLI_JOB_H

#include <stdint.h>
#include "../core/workload/fiojob_map.h"
#include "../util/strbuf.h"

struct cli_progress;

struct cli_run_opts;

/* What `run --job` was asked, parsed. */
struct job_cli_args {
	/* the job file and section, -t, --time (when time_given), --ramp
	 * (when ramp_given), the seed, --json, --db, --no-store */
	const struct cli_run_opts *r;
	int per_job;		   /* --per-job */
	const char *const *params; /* "name=value" from --PARAM */
	unsigned nr_params;
	const char *const *set; /* --set KNOB=VALUE */
	unsigned nr_set;
	int quiet; /* --quiet: warnings and errors only on stderr */
	struct cli_progress *prog; /* --progress, --metrics-file; or NULL */
};

/* job_cli_load()'s flags: --job-lenient, --job-include-any, and
 * JOB_QUIET (--quiet), which keeps the job file's notes unsaid */
#define JOB_LENIENT	1
#define JOB_INCLUDE_ANY 2
#define JOB_QUIET	4

/*
 * Read file and map it with the command line's overrides (section,
 * lenient, params, time_ns: see struct fiojob_overrides; lenient holds
 * the JOB_ flags: JOB_INCLUDE_ANY lets include lines leave the job
 * file's directory) into plan
 * (fiojob_plan_release() it in any case); with need_one, a plan of more
 * than one section is refused. Warnings and notes (not with JOB_QUIET)
 * are printed. 0, or an exit code after printing the error.
 */
int job_cli_load(const char *file, const char *section, int lenient,
		 const char *const *params, unsigned nr_params,
		 uint64_t time_ns, int need_one, struct fiojob_plan *plan);

/* `iotrial run --job`: the exit code. */
int job_cli_run(const struct job_cli_args *a);

struct trial;

/*
 * `compare --job`: after trial_open(), make the one job section of file
 * (or section) the workload of tr: its workload, parameters (the
 * command line's params win), and, unless the command line gave them
 * (time_given, ramp_given), its length and ramp. plan holds what tr
 * points to until trial_release(). 0, or an exit code after printing
 * the error.
 */
int job_cli_compare_setup(struct trial *tr, const char *file,
			  const char *section, int lenient,
			  const char *const *params, unsigned nr_params,
			  int time_given, int ramp_given,
			  struct fiojob_plan *plan);

#endif
