/*
 * Begin/end of the timed region; see measure.h for why it is one seam.
 */
#include <string.h>
#include "measure.h"
#include "../../util/clock.h"
#include "../../util/banned.h"

void measure_init(struct measure *m, const struct measure_hook *hook)
{
	memset(m, 0, sizeof(*m));
	m->hook = hook;
}

void measure_begin(struct measure *m)
{
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
	r->cpu.system_busy_s =
	    (double)(m->cpu1.busy_ticks - m->cpu0.busy_ticks) * tick;
	r->cpu.system_total_s =
	    (double)(m->cpu1.total_ticks - m->cpu0.total_ticks) * tick;
	if (m->hook && m->hook->end)
		m->hook->end(m->hook->ctx, r);
}
