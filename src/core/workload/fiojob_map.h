/*
 * From a parsed fio job file (fiojob.h) to runs of iotrial's rw
 * workloads: which sections run, in which order, as which workload with
 * which parameters, for how long. Only what iotrial can do as fio does
 * is mapped; anything else is refused with the file and line that asked
 * for it, so that a job file never silently runs something else.
 *
 * The subset and how each option maps is listed in docs/iotrial.1 (JOB
 * FILES). In short: rw/readwrite, bs/blocksize, size/filesize, numjobs,
 * iodepth, ioengine, direct/buffered, fsync, end_fsync, rwmixread/
 * rwmixwrite become rw parameters; runtime, time_based, ramp_time and
 * loops the run's length; stonewall and new_group the groups; name,
 * filename and directory where files go (decided by the caller, who
 * knows the target). Units are fio's: 4k is 4096 bytes, 1ki is 1000,
 * times are seconds unless suffixed.
 */
#ifndef IOTRIAL_FIOJOB_MAP_H
#define IOTRIAL_FIOJOB_MAP_H

#include <stdint.h>
#include "fiojob.h"
#include "workload.h"

/* One job section, as a run of an rw workload. */
struct fiojob_run {
	char *section;	      /* the section's name */
	char *name;	      /* its name= (fio's job name), else section */
	char *file;	      /* where its header is (a copy) */
	unsigned line;	      /* the header's line */
	unsigned group;	      /* runs one after another: 0, 1, ... */
	unsigned report;      /* reporting group (new_group, stonewall) */
	int group_reporting;  /* group_reporting was set */
	const char *workload; /* "seqread", ... */
	char **params;	      /* "name=value", nr_params of them */
	unsigned nr_params, alloc_params;
	struct param_setting *settings; /* params as pairs, for a trial
					   (fiojob_run_settings()) */
	char **setting_names;		/* their names, owned */
	uint64_t time_ns;	/* runtime (0: none); time based or a cap */
	int time_based;		/* run for time_ns whatever the size */
	uint64_t ramp_ns;	/* ramp_time */
	uint64_t startdelay_ns; /* startdelay: wait before the run */
	uint64_t loops;		/* loops: passes over size when not time
				   based */
	unsigned size_pct;	/* size=N%: of the device (0: bytes) */
	char *directory;	/* directory= or NULL */
	char *filename;		/* filename= or NULL */
};

/* The runs of a job file, group by group. */
struct fiojob_plan {
	struct fiojob_run *runs;
	unsigned nr, alloc;
};

/* What the command line changes for every job. */
struct fiojob_overrides {
	const char *section;	   /* run only this job section (NULL: all) */
	const char *const *params; /* "name=value" rw parameters, e.g.
				      "size=16M": applied after the file's */
	unsigned nr_params;
	uint64_t time_ns; /* --time: every job time based this long */
	int lenient;	  /* options outside the subset: warnings */
};

/*
 * Map job file j into plan (fiojob_plan_release() it whatever happens).
 * Options outside the subset fail with one error listing each of them
 * and its FILE:LINE (with o->lenient, a warning line each in warn
 * instead). Notes on how options were read (sync run as psync, random
 * offsets without fio's random map) go to warn as well, one line each
 * prefixed "note: ". Returns 0, -EINVAL (bad value, unsupported option
 * or combination) or -ENOENT (no such --section, no job at all), with
 * err set.
 */
int fiojob_map(const struct fiojob *j, const struct fiojob_overrides *o,
	       struct fiojob_plan *plan, struct strbuf *warn,
	       struct strbuf *err);

void fiojob_plan_release(struct fiojob_plan *plan);

/*
 * r's parameters as the pairs a trial takes (experiment_config.params),
 * nr_params of them; valid until the plan is released. The mapping
 * keeps "name=value" text, in which overrides are matched by name; this
 * is where it is read as pairs, once.
 */
const struct param_setting *fiojob_run_settings(struct fiojob_run *r);

/*
 * What a run needs from its target, once it is open: size=N% of a block
 * device of capacity_bytes, the count of I/Os of a run that is not time
 * based (size / bs x numjobs x loops) into *out_ios (0: time based).
 * blockdev is 1 for a block device target. 0 or -EINVAL with err set.
 */
int fiojob_run_resolve(struct fiojob_run *r, int blockdev,
		       uint64_t capacity_bytes, uint64_t *out_ios,
		       struct strbuf *err);

#endif
