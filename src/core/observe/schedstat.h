/*
 * How hard the run had to fight for a CPU, measured so that the setting
 * under test moves it as little as possible. On a shared machine the
 * largest part of a run's noise is often the CPU it did not get: other
 * processes were runnable and the scheduler gave them the time. The
 * process's own CPU time says how much it got, but that is also what a
 * faster setting changes (more work done, more CPU used), so it cannot
 * be a covariate. Two readings that depend on the others, not on us:
 *
 *  - the share of our threads' runnable time spent waiting for a CPU:
 *    the per-thread run and wait times of /proc/self/task/TID/schedstat
 *    (the kernel's sched_info: ns on a CPU, ns runnable on a run queue),
 *    summed over the threads' increments. A thread that needs more CPU
 *    is runnable longer, but the share of that time it waits depends on
 *    who else is queued;
 *  - the run queue: the first number of /proc/loadavg's fourth field,
 *    the tasks running or runnable at this instant (ours included).
 *
 * Threads come and go between readings, so the reader keeps each
 * thread's last counts and adds only increments; a thread seen for the
 * first time adds nothing (its counts before that are another run's).
 */
#ifndef IOTRIAL_SCHEDSTAT_H
#define IOTRIAL_SCHEDSTAT_H

#include <stdint.h>
#include <sys/types.h>

/* One thread's last counts. */
struct schedstat_task {
	pid_t tid;
	uint64_t run_ns, wait_ns;
	unsigned seen; /* the reading it was last seen in */
};

/* Our threads' counts between readings. */
struct schedstat_tasks {
	struct schedstat_task *v;
	unsigned nr, alloc;
	unsigned reading; /* readings taken */
	uint64_t run_ns;  /* summed increments since the first reading */
	uint64_t wait_ns;
};

/* Start with no threads known. */
void schedstat_tasks_init(struct schedstat_tasks *t);
void schedstat_tasks_release(struct schedstat_tasks *t);

/*
 * Read every thread of this process (/proc/self/task) and add their
 * increments since the last reading to t->run_ns and t->wait_ns; forget
 * threads that are gone. 0, or -errno when the directory cannot be read
 * or the kernel has no schedstat (-ENOENT): then nothing is added.
 */
int schedstat_tasks_read(struct schedstat_tasks *t);

/*
 * Parse a schedstat line "RUN_NS WAIT_NS TIMESLICES". 0 or -EINVAL.
 * Exposed for the tests.
 */
int schedstat_parse(const char *text, uint64_t *run_ns, uint64_t *wait_ns);

/*
 * The tasks running or runnable now, from /proc/loadavg text ("0.5 0.4
 * 0.3 3/250 1234": 3). 0 or -EINVAL.
 */
int schedstat_parse_loadavg(const char *text, unsigned *out_running);

/*
 * The I/O of every other process now: read_bytes and write_bytes of
 * /proc/PID/io summed over the processes that are not of this one's
 * process group (compare --duet's other runs are children in it, and
 * their I/O is the other arm's work, not the machine's noise) and not
 * kernel threads (kthreadd and its children, whose I/O is done for
 * someone else: the loop device's worker does ours). A process's file
 * includes its reaped children's, so what short-lived processes did
 * shows up in their parent's. The difference of two readings is the
 * other processes' I/O in between (writes as they were dirtied, reads
 * as they were fetched). 0, or -errno when /proc cannot be read.
 */
int schedstat_others_io(uint64_t *out_read_bytes, uint64_t *out_write_bytes);

/*
 * Does the process whose /proc/PID/stat text is stat_text count among
 * the others of schedstat_others_io() for a caller of process group
 * group? Not a kernel thread (parent 2) nor a member of group; exposed
 * for the tests.
 */
int schedstat_is_other(const char *stat_text, pid_t group);

#endif
