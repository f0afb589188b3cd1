/*
 * Resource limits for the workload: a cgroup iotrial makes, journals
 * before making it, moves itself into for the runs, and removes when
 * done (or, after a crash, the next iotrial does). It is how a workload
 * meets a small memory limit or a few CPUs on a big machine: a buffered
 * writer in a memory-limited cgroup reclaims and writes back its own
 * pages long before the machine's dirty limits would act.
 *
 * Each controller is found where the kernel has it: a cgroup v1
 * hierarchy of its own (memory, cpuset), else the v2 hierarchy. On v1
 * the cgroup is made inside this process's own; on v2, where a cgroup
 * with processes cannot give controllers to its children, beside it, in
 * a parent that has the controllers enabled for its children.
 */
#ifndef IOTRIAL_CGROUP_H
#define IOTRIAL_CGROUP_H

#include <stdint.h>
#include "../../util/strbuf.h"

struct session;
struct undo_ops;

/* What to limit; zero or NULL: not limited. */
struct cgroup_limits {
	uint64_t memory_max; /* bytes */
	const char *cpus;    /* a CPU list, "0-1,3" */
	const char *mems;    /* a memory node list, "0" */
};

/* Is any limit asked for? */
int cgroup_limits_set(const struct cgroup_limits *l);

#define CGROUP_MAX_DIRS 2

/* The cgroup of one trial: a directory per hierarchy it needs. */
struct cgroup {
	struct cgroup_dir {
		char *path;   /* the cgroup made */
		char *home;   /* the cgroup this process came from */
		int v2;	      /* in the unified hierarchy */
		int memory;   /* the memory controller is here */
		int cpuset;   /* the cpuset controller is here */
		uint64_t seq; /* its journal record */
	} d[CGROUP_MAX_DIRS];
	unsigned nr;
	int entered; /* this process is inside */
	struct session *s;
};

/*
 * Before anything changes: can l be had here? Root, the controllers each
 * limit needs (-ENODEV naming the missing one and how to enable it),
 * lists that parse and name CPUs and nodes that are online (-EINVAL).
 */
int cgroup_check(const struct cgroup_limits *l, struct strbuf *err);

/*
 * Make the cgroup (each directory journaled in session s first), set the
 * limits and move this process, all its threads, into it. 0, or -errno
 * with err set and nothing left behind.
 */
int cgroup_enter(struct cgroup *cg, const struct cgroup_limits *l,
		 struct session *s, struct strbuf *err);

/* Start a new peak of memory use (before a run). */
void cgroup_peak_reset(const struct cgroup *cg);

/* The cgroup's peak memory use since the reset, bytes; 0: unknown. */
uint64_t cgroup_memory_peak(const struct cgroup *cg);

/*
 * Move this process back where it came from and remove the cgroup,
 * marking its records done. 0, or -errno with err set (the record stays
 * live for the next iotrial to retry).
 */
int cgroup_leave(struct cgroup *cg, struct strbuf *err);

/* The journal's "cgroup" records (knob/undo_kinds.c). */
extern const struct undo_ops cgroup_undo_ops;

#endif
