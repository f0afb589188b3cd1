/*
 * A group of fio job sections that run at the same time (no stonewall
 * between them), as one workload: its prepare lays out every section's
 * files, each in its own subdirectory of the work directory; its run
 * starts every section's workload (its own jobs and threads) together
 * and opens one timed region for all of them: the region begins when
 * every section is past its warm-up and ends when the last one is done,
 * so the device truth the caller observes covers the whole group.
 *
 * Each section keeps its own numbers (its IOPS and latencies over its
 * own span from the shared start); the group's result sums them (ops,
 * bytes, merged latency histograms, every thread in jobs[]) over the
 * group's region and carries the device truth. A section's result says
 * that its device truth is the group's.
 *
 * Directory targets only: on a block device the sections' regions would
 * overlap.
 */
#ifndef IOTRIAL_FIOGROUP_H
#define IOTRIAL_FIOGROUP_H

#include <pthread.h>
#include "workload.h"

struct fiogroup;

struct fiogroup_section {
	char *name;	     /* for messages: the job section's name */
	struct workload w;   /* its workload, parameters and run options */
	struct run_result r; /* its result, after the group's run */
	struct fiogroup *g;
	struct target t; /* the group's target, in a subdirectory */
	char subdir[16]; /* its name in the work directory */
	int prepared;	 /* prepare was called */
	struct measure_hook hook;
	pthread_t thread;
	int began, ended, left;
	int ret;
	struct strbuf err;
};

struct fiogroup {
	struct workload_ops ops; /* the group as a workload: tr.c.ops */
	struct fiogroup_section *secs;
	unsigned nr, alloc;
	/* Private: the run. */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned nr_begun, nr_ended; /* sections past begin, end (or out) */
	int m_begun, m_ended;
	struct measure m;
	struct run_result *r; /* the group's */
};

void fiogroup_init(struct fiogroup *g);
/* Free everything; the group's workload must be cleaned up by now. */
void fiogroup_release(struct fiogroup *g);

/*
 * Add a section named name: a workload of ops with params ("name=value")
 * and run options ro (length; the seed comes from the group's run). Its
 * parameters are set and checked now: 0, or -errno with err set.
 */
int fiogroup_add(struct fiogroup *g, const char *name,
		 const struct workload_ops *ops, const char *const *params,
		 unsigned nr_params, const struct run_opts *ro,
		 struct strbuf *err);

/* The group's workload: the group it was made from (g->ops). */
struct fiogroup *fiogroup_of(const struct workload *w);

#endif
