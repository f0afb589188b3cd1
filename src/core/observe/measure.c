/*
 * Begin/end of the timed region; see measure.h for why it is one seam.
 */
#include <string.h>
#include <sys/resource.h>
#include "measure.h"
#include "../../util/clock.h"
#include "../../util/banned.h"

void measure_init(struct measure *m, const struct measure_hook *hook)
{
	memset(m, 0, sizeof(*m));
	m->hook = hook;
}

/* The CPU of this process's waited-for children so far. */
static void children_cpu(double *user_s, double *sys_s)
{
	struct rusage ru;

	*user_s = *sys_s = 0;
	if (getrusage(RUSAGE_CHILDREN, &ru))
		return;
	*user_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
	*sys_s = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

void measure_begin(struct measure *m)
{
	if (m->children)
		children_cpu(&m->child_user_s, &m->child_sys_s);
	if (m->hook && m->hook->begin)
		m->hook->begin(m->hook->ctx);
	cpustat_sample(&m->cpu0);
	m->start_ns = clock_now_ns();
	m->begun = 1;
}

void measure_end(struct measure *m, struct run_result *r)
{
	double tick = cpustat_tick_s();

	m->end_ns = clock_now_ns();
	cpustat_sample(&m->cpu1);
	r->seconds = (double)(m->end_ns - m->start_ns) / 1e9;
	r->cpu.user_s = m->cpu1.user_s - m->cpu0.user_s;
	r->cpu.sys_s = m->cpu1.sys_s - m->cpu0.sys_s;
	if (m->children) {
		double u, s;

		children_cpu(&u, &s);
		r->cpu.user_s += u - m->child_user_s;
		r->cpu.sys_s += s - m->child_sys_s;
	}
	r->cpu.system_busy_s =
	    (double)(m->cpu1.busy_ticks - m->cpu0.busy_ticks) * tick;
	r->cpu.system_total_s =
	    (double)(m->cpu1.total_ticks - m->cpu0.total_ticks) * tick;
	r->cpu.system_steal_s =
	    (double)(m->cpu1.steal_ticks - m->cpu0.steal_ticks) * tick;
	if (m->hook && m->hook->end)
		m->hook->end(m->hook->ctx, r);
}
