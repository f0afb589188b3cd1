/*
 * CPU accounting for the timed region: the process's own user/sys time
 * (getrusage) and the whole machine's busy time from /proc/stat, which
 * includes the kernel threads (kworkers, writeback flushers) that do I/O
 * work on our behalf and never show up in our rusage.
 */
#ifndef IOTRIAL_CPUSTAT_H
#define IOTRIAL_CPUSTAT_H

#include <stdint.h>

struct cpustat_sample {
	double user_s;	      /* process user time */
	double sys_s;	      /* process system time */
	uint64_t busy_ticks;  /* /proc/stat "cpu": all but idle and iowait */
	uint64_t total_ticks; /* every field */
	uint64_t steal_ticks; /* of busy: the hypervisor ran another guest
				 while this one wanted the CPU */
};

/* Take a sample. Returns 0, or -errno if /proc/stat cannot be read (the
 * process half is still filled, machine ticks left 0). */
int cpustat_sample(struct cpustat_sample *s);
/*
 * Parse the "cpu " line of /proc/stat text; exposed for tests. Steal is
 * part of busy; out_steal may be NULL (0 where the kernel has no such
 * field). 0, or -EINVAL.
 */
int cpustat_parse_proc_stat(const char *text, uint64_t *out_busy,
			    uint64_t *out_total, uint64_t *out_steal);
/* Seconds per clock tick (USER_HZ). */
double cpustat_tick_s(void);

#endif
