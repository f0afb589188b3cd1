/*
 * Process and machine CPU time. /proc/stat's first line sums every CPU:
 * user nice system idle iowait irq softirq steal guest guest_nice, in
 * USER_HZ ticks. guest time is already counted in user, so it is left
 * out of the total; idle and iowait are the not-busy part.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include "cpustat.h"
#include "../../util/strbuf.h"
#include "../../util/banned.h"

double cpustat_tick_s(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	return hz > 0 ? 1.0 / (double)hz : 0.01;
}

int cpustat_parse_proc_stat(const char *text, uint64_t *out_busy,
			    uint64_t *out_total, uint64_t *out_steal)
{
	uint64_t v[8] = {0};
	int n;

	if (strncmp(text, "cpu ", 4))
		return -EINVAL;
	n = sscanf(text + 4,
		   "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64,
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	if (n < 4)
		return -EINVAL;
	/* user nice system [idle] [iowait] irq softirq steal */
	*out_busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	*out_total = *out_busy + v[3] + v[4];
	if (out_steal)
		*out_steal = v[7];
	return 0;
}

int cpustat_sample(struct cpustat_sample *s)
{
	struct strbuf sb = STRBUF_INIT;
	struct rusage ru;
	int ret;

	memset(s, 0, sizeof(*s));
	if (!getrusage(RUSAGE_SELF, &ru)) {
		s->user_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
		s->sys_s = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	}
	ret = strbuf_read_file(&sb, "/proc/stat", 1 << 20);
	if (!ret)
		ret = cpustat_parse_proc_stat(sb.buf, &s->busy_ticks,
					      &s->total_ticks, &s->steal_ticks);
	strbuf_release(&sb);
	return ret;
}
